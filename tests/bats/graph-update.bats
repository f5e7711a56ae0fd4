#!/usr/bin/env bats
# graph-build -U: the graph of old rows + appended rows from the old graph's
# record, byte for byte the graph of a full build on the concatenation;
# every mismatch between the record, the old graph, the data and the
# options is an error that writes nothing.

load helpers

# grid FILE FIRST COUNT: integer points on a 7-wide grid, so equal
# distances (ties broken by row index) and duplicates (every 40th row
# repeats the first) are everywhere.
grid() {
	awk -v a="$2" -v m="$3" 'BEGIN {
		for (r = a; r < a + m; r++) {
			p = r % 40 == 39 ? 0 : r
			printf "0 1:%d 2:%d 3:%d\n", p % 7, int(p / 7) % 5, (p * 3) % 4
		}
	}' >"$1"
}

# same_as_full OPTS... : the update of a.txt's graph by b.txt, then by
# c.txt, equals the full builds of a+b and a+b+c, graph and record.
same_as_full() {
	"$GB" -q "$@" a.txt a.g
	"$GB" -q -U a.g "$@" a.txt b.txt ab.g
	cat a.txt b.txt >ab.txt
	"$GB" -q -U ab.g "$@" ab.txt c.txt abc.g
	cat ab.txt c.txt >abc.txt
	"$GB" -q "$@" ab.txt ab.full
	"$GB" -q "$@" abc.txt abc.full
	cmp ab.g ab.full
	cmp ab.g.knn ab.full.knn
	cmp abc.g abc.full
	cmp abc.g.knn abc.full.knn
	check_graph abc.g "$(wc -l <abc.txt)"
}

moons_chunks() {
	moons all.txt -S 4 -n 240
	head -n 150 all.txt >a.txt
	sed -n 151,180p all.txt >b.txt
	sed -n 181,240p all.txt >c.txt
}

grid_chunks() {
	grid a.txt 0 90
	grid b.txt 90 25
	grid c.txt 115 50
}

# --------------------------------------------------------- byte identity

@test "-U: kNN union, Euclidean, two appends: same bytes as the full builds" {
	moons_chunks
	same_as_full -k 6
}

@test "-U: mutual kNN: same bytes as the full builds" {
	moons_chunks
	same_as_full -k 5 -m
}

@test "-U: cosine kNN, union and mutual: same bytes" {
	moons_chunks
	same_as_full -k 6 -d cosine
	same_as_full -k 6 -d cosine -m
}

@test "-U: epsilon graphs, Euclidean and cosine: same bytes" {
	moons_chunks
	same_as_full -e 0.3
	same_as_full -e 0.02 -d cosine
}

@test "-U: the default heat width follows the new pairs; -t, binary and distance weights too" {
	moons_chunks
	same_as_full -k 4 -t 0.25
	same_as_full -k 4 -w binary -m
	same_as_full -k 4 -w distance
	# the mean squared distance was re-estimated: t differs from the old
	"$GB" -k 4 a.txt a.g 2>a.err
	"$GB" -k 4 -U a.g a.txt b.txt ab.g 2>ab.err
	[ "$(grep -o 't = .*' a.err)" != "$(grep -o 't = .*' ab.err)" ]
}

@test "-U: integer data full of ties and duplicates: the lower index wins as in a full build" {
	grid_chunks
	same_as_full -k 6
	same_as_full -k 3 -m
	same_as_full -e 2.5
	same_as_full -k 4 -d cosine
}

@test "-U: k capped at the old row count grows with the new rows" {
	moons all.txt -S 5 -n 60
	head -n 4 all.txt >a.txt
	sed -n 5,9p all.txt >b.txt
	sed -n 10,60p all.txt >c.txt
	same_as_full -k 6
}

@test "-U: cosine rows of zeros stay isolated, old or new" {
	moons_chunks
	# rows with no value at all (so the old data are not dense)
	sed -i '3s/.*/0/' a.txt
	sed -i '2s/.*/1/' b.txt
	same_as_full -k 5 -d cosine
}

@test "-U: block size and product precision may differ from the old build" {
	moons_chunks
	"$GB" -q -k 6 -B 7 -p double a.txt a.g
	"$GB" -q -U a.g -k 6 -B 16 -p single a.txt b.txt ab.g
	cat a.txt b.txt >ab.txt
	"$GB" -q -k 6 ab.txt ab.full
	cmp ab.g ab.full
}

@test "-U: the output may replace the old graph (and its record) in place" {
	moons_chunks
	"$GB" -q a.txt g
	"$GB" -q -U g a.txt b.txt g
	cat a.txt b.txt >ab.txt
	"$GB" -q ab.txt ab.full
	cmp g ab.full
	cmp g.knn ab.full.knn
	assert_no_tmp_files
}

@test "-U: graph_file defaults to new_data.graph; '-' writes stdout and no record" {
	moons_chunks
	"$GB" -q a.txt a.g
	run --separate-stderr "$GB" -q -U a.g a.txt b.txt
	assert_status 0
	cat a.txt b.txt >ab.txt
	"$GB" -q ab.txt ab.full
	cmp b.txt.graph ab.full
	cmp b.txt.graph.knn ab.full.knn
	run --separate-stderr "$GB" -q -U a.g a.txt b.txt -
	assert_status 0
	[ "$output" = "$(cat ab.full)" ]
	[ ! -e ./-.knn ]
}

@test "-U: the summary names the old and new rows" {
	moons_chunks
	"$GB" -q a.txt a.g
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	assert_status 0
	assert_stderr_has "update: 150 old rows + 30 new"
	assert_stderr_regex '^graph-build: 180 rows, k = 6: [0-9]+ edges'
}

@test "a graph to stdout, -y, -N or an image distance has no record" {
	moons_chunks
	"$GB" -q a.txt - >out.g
	"$GB" -q -N a.txt lists
	[ ! -e ./-.knn ] && [ ! -e lists.knn ]
	printf '1 1:0 2:1 3:0 4:1\n1 1:1 2:1 3:0 4:1\n1 1:0 2:1 3:1 4:1\n' >img.txt
	"$GB" -q -k 1 -d rotation -D 2x2 img.txt img.g
	[ -e img.g ] && [ ! -e img.g.knn ]
}

# ------------------------------------------------------------ bad input

# nothing_written: the run failed (status 1, one message holding TEXT)
# and neither ab.g nor its record exists.
nothing_written() {
	assert_fails graph-build "$@"
	[ ! -e ab.g ] && [ ! -e ab.g.knn ]
	assert_no_tmp_files
}

@test "-U error: an old graph without a record: rebuild it" {
	moons_chunks
	"$GB" -q a.txt a.g
	rm a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g: -U needs the record" "rebuild the graph" \
		"graph-build [options] a.txt a.g"
}

@test "-U error: the old graph was built with other options" {
	moons_chunks
	"$GB" -q -k 5 a.txt a.g
	run --separate-stderr "$GB" -U a.g -k 6 a.txt b.txt ab.g
	nothing_written "a.g: a.txt: the graph was built with other options" \
		"'-k 5 -d euclidean -w heat'; this run: '-k 6 -d euclidean -w heat'"
	run --separate-stderr "$GB" -U a.g -k 5 -m a.txt b.txt ab.g
	nothing_written "built with other options"
	run --separate-stderr "$GB" -U a.g -k 5 -t 1 a.txt b.txt ab.g
	nothing_written "built with other options"
}

@test "-U error: old_data is not the data of the old graph" {
	moons_chunks
	"$GB" -q a.txt a.g
	# the same row count, one value changed
	sed '7s/^\([^ ]*\) 1:[^ ]*/\1 1:0.123/' a.txt >other.txt
	run --separate-stderr "$GB" -U a.g other.txt b.txt ab.g
	nothing_written "a.g: other.txt: the graph was built from other data"
	# another row count
	head -n 149 a.txt >short.txt
	run --separate-stderr "$GB" -U a.g short.txt b.txt ab.g
	nothing_written "a.g: short.txt: the graph has 150 rows but the old data 149"
}

@test "-U error: labels are not part of the fingerprint (the graph ignores them)" {
	moons_chunks
	"$GB" -q a.txt a.g
	sed '1s/^[^ ]*/7/' a.txt >relabel.txt
	run --separate-stderr "$GB" -q -U a.g relabel.txt b.txt ab.g
	assert_status 0
}

@test "-U error: the old graph changed since its record was written" {
	moons_chunks
	"$GB" -q a.txt a.g
	"$GB" -q -w binary a.txt b.g
	cp b.g a.g
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g: the graph changed since its record was written"
}

@test "-U error: an altered or cut record" {
	moons_chunks
	"$GB" -q a.txt a.g
	cp a.g.knn keep
	sed -i '10s/:\([0-9]\)/:9\1/' a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g.knn: the pairs' fingerprint is"
	head -n 50 keep >a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g.knn: 43 rows and" "the record is cut short"
	cp a.g a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g.knn:1: bad header line" "not a graph record"
}

@test "-U error: a record whose header claims 2^31 - 1 rows and 2^62 pairs is cut short, not out of memory" {
	moons_chunks
	"$GB" -q a.txt a.g
	sed -i 's/^rows .*/rows 2147483647/; s/^pairs [0-9]* /pairs 4611686014132420609 /' a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g.knn: 150 rows and" "(expected 2147483647 and 4611686014132420609): the record is cut short"
	[[ "$stderr" != *"out of memory"* ]]
}

@test "-U error: new rows with a feature the old data never had" {
	moons_chunks
	"$GB" -q a.txt a.g
	printf '0 1:0.5 2:0.5 3:1\n' >b3.txt
	run --separate-stderr "$GB" -U a.g a.txt b3.txt ab.g
	nothing_written "b3.txt:1: it has feature 3, but the old data's features end at 2"
}

@test "-U error: a new row's value beyond the distance bounds is named by its line in the new file" {
	moons_chunks
	"$GB" -q a.txt a.g
	printf '0 1:0.5 2:0.5\n# a comment\n0 1:1e-200 2:0.5\n' >b4.txt
	run --separate-stderr "$GB" -U a.g a.txt b4.txt ab.g
	# line 3 of b4.txt (its second row), not row 152 of the joined data
	nothing_written "b4.txt:3: a feature value too small (1e-200, expected 0 or at least 1e-130 in magnitude)"
}

@test "-U error: a record whose features line was altered (no fingerprint covers it)" {
	moons_chunks
	"$GB" -q a.txt a.g
	cp a.g.knn saved.knn
	sed -i 's/^features 2 dense$/features 2 sparse/' a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "a.g: a.txt: the record says 'features 2 sparse', but the old data have 2 features, dense: the record was altered (rebuild the graph)"
	sed 's/^features 2 dense$/features 1 dense/' saved.knn >a.g.knn
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g
	nothing_written "the record says 'features 1 dense', but the old data have 2 features, dense"
}

@test "-U: sparse old rows, new rows with a feature no old row stored: the full build's bytes" {
	printf '1 1:1 3:2\n-1 2:1\n1 1:2 2:1\n0 3:1\n0 1:1 2:2 3:1\n0 2:3\n' >a.txt
	printf '0 4:1\n0 1:1 5:2\n0 3:1 4:1\n' >b.txt
	cat a.txt b.txt >ab.txt
	"$GB" -q -k 2 a.txt a.g
	run --separate-stderr "$GB" -q -U a.g -k 2 a.txt b.txt up.g
	assert_status 0
	"$GB" -q -k 2 ab.txt full.g
	cmp up.g full.g
	cmp up.g.knn full.g.knn
}

@test "-U error: dense old rows, a new row with fewer features" {
	moons_chunks
	"$GB" -q a.txt a.g
	printf '0 1:0.5 2:0.5\n0 2:0.25\n' >b1.txt
	run --separate-stderr "$GB" -U a.g a.txt b1.txt ab.g
	nothing_written "b1.txt:2: it has 1 features, but every old row has 2"
}

@test "-U error: an empty new file" {
	moons_chunks
	"$GB" -q a.txt a.g
	: >empty.txt
	run --separate-stderr "$GB" -U a.g a.txt empty.txt ab.g
	nothing_written "empty.txt: no data rows"
}

@test "-U usage errors: one data file, too many, -y, -N, image distances" {
	moons_chunks
	"$GB" -q a.txt a.g
	run --separate-stderr "$GB" -U a.g a.txt
	assert_usage_error "-U needs old_data and new_data"
	run --separate-stderr "$GB" -U a.g a.txt b.txt ab.g extra
	assert_usage_error "too many arguments (expected old_data new_data [graph_file])"
	run --separate-stderr "$GB" -U a.g -y a.txt b.txt ab.g
	assert_usage_error "-U updates Euclidean and cosine kNN or epsilon graphs on one process, not with -y"
	run --separate-stderr "$GB" -U a.g -N a.txt b.txt ab.g
	assert_usage_error "-U updates Euclidean and cosine kNN or epsilon graphs on one process, not with -N"
	run --separate-stderr "$GB" -U a.g -d tangent -D 1x2 a.txt b.txt ab.g
	assert_usage_error "-U updates Euclidean and cosine kNN or epsilon graphs on one process, not with -d tangent"
	run --separate-stderr "$GB" -U a.g - - ab.g <a.txt
	assert_usage_error "-U: only one of old_graph, old_data and new_data can be standard input"
	run --separate-stderr "$GB" -U - a.txt - ab.g <a.g
	assert_usage_error "-U: only one of old_graph, old_data and new_data can be standard input"
	[ ! -e ab.g ]
}

@test "-U: an output named after the old graph's record is a usage error; the graph and its record kept" {
	moons_chunks
	"$GB" -q a.txt a.g
	cp a.g g.bak
	cp a.g.knn r.bak
	# the output would replace the record with a graph (and put its own
	# record at a.g.knn.knn)
	run --separate-stderr "$GB" -U a.g a.txt b.txt a.g.knn
	assert_usage_error "'a.g.knn' is both an input and an output"
	assert_same a.g g.bak
	assert_same a.g.knn r.bak
	[ ! -e a.g.knn.knn ]
	assert_no_tmp_files
	# a link to the old graph is the update in place, not another output
	ln -s a.g link.g
	run --separate-stderr "$GB" -q -U a.g a.txt b.txt link.g
	assert_status 0
	[ -L link.g ]
}
