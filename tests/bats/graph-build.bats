#!/usr/bin/env bats
# graph-build: command line, exit codes, messages, input checking, output
# files and the graph it writes.  Exit codes: 0 ok, 1 failure, 2 usage.

load helpers

# ------------------------------------------------------------------ help

@test "-h prints usage on stdout and exits 0" {
	run --separate-stderr "$GB" -h
	assert_status 0
	[[ "$output" == "Usage: graph-build [options] data_file [graph_file]"* ]]
	[[ "$output" == *"-k k "* ]]
	assert_stderr_empty
}

# ----------------------------------------------------------- usage errors

@test "no arguments: exit 2, missing data_file" {
	run --separate-stderr "$GB"
	assert_usage_error "missing data_file"
}

@test "unknown option: exit 2 naming it" {
	small_data small.txt
	run --separate-stderr "$GB" -x small.txt
	assert_usage_error "unknown option -x"
	[ ! -e small.txt.graph ]
}

@test "option missing its value: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" small.txt -k
	assert_usage_error "option -k needs a value"
	[ ! -e small.txt.graph ]
}

@test "-k abc: exit 2, not an integer" {
	small_data small.txt
	run --separate-stderr "$GB" -k abc small.txt
	assert_usage_error "option -k: 'abc' is not an integer"
	[ ! -e small.txt.graph ]
}

@test "-k 0: exit 2, out of range" {
	small_data small.txt
	run --separate-stderr "$GB" -k 0 small.txt
	assert_usage_error "option -k: '0' out of range"
}

@test "-k 1.5: exit 2, not an integer" {
	small_data small.txt
	run --separate-stderr "$GB" -k 1.5 small.txt
	assert_usage_error "option -k: '1.5' is not an integer"
}

@test "-k beyond INT_MAX: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" -k 2147483648 small.txt
	assert_usage_error "option -k:"
	assert_stderr_has "out of range"
}

@test "-e -1: exit 2, out of range" {
	small_data small.txt
	run --separate-stderr "$GB" -e -1 small.txt
	assert_usage_error "option -e: '-1' out of range"
}

@test "-e 0: exit 2 (epsilon must be positive)" {
	small_data small.txt
	run --separate-stderr "$GB" -e 0 small.txt
	assert_usage_error "option -e:"
	assert_stderr_has "out of range"
}

@test "-e nan: exit 2, not finite" {
	small_data small.txt
	run --separate-stderr "$GB" -e nan small.txt
	assert_usage_error "option -e: 'nan' is not finite"
}

@test "-e inf: exit 2, not finite" {
	small_data small.txt
	run --separate-stderr "$GB" -e inf small.txt
	assert_usage_error "option -e: 'inf' is not finite"
}

@test "-e 0x1p0 (hexadecimal): exit 2, not a number" {
	small_data small.txt
	run --separate-stderr "$GB" -e 0x1p0 small.txt
	assert_usage_error "option -e: '0x1p0' is not a number"
}

@test "-t 0: exit 2, out of range" {
	small_data small.txt
	run --separate-stderr "$GB" -t 0 small.txt
	assert_usage_error "option -t: '0' out of range"
}

@test "-t with trailing blank: exit 2, not a number" {
	small_data small.txt
	run --separate-stderr "$GB" -t '1 ' small.txt
	assert_usage_error "option -t: '1 ' is not a number"
}

@test "-B 0: exit 2, out of range" {
	small_data small.txt
	run --separate-stderr "$GB" -B 0 small.txt
	assert_usage_error "option -B: '0' out of range"
}

@test "-k together with -e: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" -k 3 -e 1 small.txt
	assert_usage_error "-k and -e exclude each other"
	[ ! -e small.txt.graph ]
}

@test "-m together with -e: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" -m -e 1 small.txt
	assert_usage_error "-m applies to kNN graphs"
}

@test "-t with -w binary: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" -t 1 -w binary small.txt
	assert_usage_error "-t applies only to heat weights"
}

@test "-t with -w distance: exit 2" {
	small_data small.txt
	run --separate-stderr "$GB" -w distance -t 1 small.txt
	assert_usage_error "-t applies only to heat weights"
}

@test "-d with an unknown name: exit 2 listing the choices" {
	small_data small.txt
	run --separate-stderr "$GB" -d manhattan small.txt
	assert_usage_error "option -d: unknown value 'manhattan' (expected one of euclidean, cosine, tangent, rotation)"
}

@test "-w with an unknown name: exit 2 listing the choices" {
	small_data small.txt
	run --separate-stderr "$GB" -w gauss small.txt
	assert_usage_error "option -w: unknown value 'gauss' (expected one of binary, heat, distance)"
}

@test "three operands: exit 2, too many arguments" {
	small_data small.txt
	run --separate-stderr "$GB" small.txt out.graph extra
	assert_usage_error "too many arguments"
	[ ! -e out.graph ]
	[ ! -e small.txt.graph ]
}

# -------------------------------------------------------- output naming

@test "default output file is data_file.graph" {
	small_data small.txt
	run --separate-stderr "$GB" -q small.txt
	assert_status 0
	assert_stdout_empty
	[ -f small.txt.graph ]
	check_graph small.txt.graph 4
	# and its record for graph-build -U (tests/bats/graph-update.bats)
	[ "$(ls -A)" = "$(printf '%s\n' small.txt small.txt.graph small.txt.graph.knn)" ]
}

@test "explicit output path is used, default name is not created" {
	small_data small.txt
	mkdir sub
	run --separate-stderr "$GB" -q small.txt sub/g.out
	assert_status 0
	assert_stdout_empty
	check_graph sub/g.out 4
	[ ! -e small.txt.graph ]
	assert_no_tmp_files sub
}

@test "output '-' writes the graph to stdout and no file" {
	small_data small.txt
	"$GB" -q small.txt small.txt.graph
	run --separate-stderr "$GB" -q small.txt -
	assert_status 0
	[ "$output" = "$(cat small.txt.graph)" ]
	[ ! -e ./- ] && [ ! -e ./-.knn ]
	# small.txt, small.txt.graph and the first run's record
	[ "$(ls -A | wc -l)" -eq 3 ]
}

# A graph named with 253 bytes is legal, its record (+ ".knn") is not:
# found only at the rename, after the graph had replaced the old one
# ("replaced: ccc...c"), leaving it without its record.
@test "a graph name whose record's name would be too long: refused before the work, the old graph kept" {
	small_data small.txt
	local g
	g=$(printf 'c%.0s' $(seq 253))
	echo old >"$g"
	run --separate-stderr "$GB" -q small.txt "$g"
	assert_status 1
	assert_stderr_has "graph-build: $g.knn: cannot create: File name too long (a file name has at most 255 bytes)"
	[ "$(cat "$g")" = old ]
	[ "$(ls -A | wc -l)" -eq 2 ]
	# a name of 256 bytes: the same at once, not at the rename
	run --separate-stderr "$DG" moons "${g}ccc"
	assert_status 1
	assert_stderr_has "lapsvm-datagen: ${g}ccc: cannot create: File name too long"
	[ "$(ls -A | wc -l)" -eq 2 ]
}

@test "a device, a pipe or a FIFO as the output is written into, with no record beside it" {
	small_data small.txt
	"$GB" -q small.txt small.txt.graph
	# /dev/stdout on a pipe: a link to /proc/self/fd/1, "pipe:[N]"
	"$GB" -q small.txt /dev/stdout | cat >piped
	assert_same piped small.txt.graph
	# /dev/stdout on a file: a regular file, but /dev/stdout.knn would
	# be a stray file in /dev
	"$GB" -q small.txt /dev/stdout >redirected
	assert_same redirected small.txt.graph
	if [ -e /dev/stdout.knn ]; then
		rm -f /dev/stdout.knn
		false
	fi
	mkfifo ff
	"$GB" -q small.txt ff &
	cat ff >fromfifo
	wait $!
	assert_same fromfifo small.txt.graph
	[ ! -e ff.knn ]
	run --separate-stderr "$GB" -q small.txt /dev/null
	assert_status 0
	[ ! -e /dev/null.knn ] || { rm -f /dev/null.knn; false; }
}

@test "squared distances near DBL_MAX: the heat width and weights as for the same data scaled down" {
	# values near the largest accepted (squared norm DBL_MAX / 32):
	# a squared distance of 2.1e307
	printf '0 1:2.3e153\n0 1:-2.3e153\n' >big.txt
	printf '0 1:2.3\n0 1:-2.3\n' >ref.txt
	"$GB" -q -k 1 big.txt big.g
	"$GB" -q -k 1 ref.txt ref.g
	assert_same big.g ref.g
	[ "$(cat big.g)" = "$(printf '1 2:0.77880078307140488\n2 1:0.77880078307140488')" ]
}

@test "cosine: identical rows are duplicates (distance 0: heat weight 1, dropped by -w distance), as Euclidean ones" {
	printf '1 1:1 2:2\n1 1:1 2:2\n1 1:5 2:1\n' >cd.txt
	run --separate-stderr "$GB" -q -e 1e-10 -d cosine cd.txt -
	assert_status 0
	[ "$output" = "$(printf '1 2:1\n2 1:1\n3')" ]
	run --separate-stderr "$GB" -k 1 -d cosine -w distance cd.txt -
	assert_status 0
	assert_stderr_has "warning: 1 edges had weight 0 (duplicate points) and were dropped"
	[ "$(printf '%s\n' "$output" | head -n 2)" = "$(printf '1 3:0.38605938648507954\n2')" ]
}

@test "graph on stdout, summary on stderr" {
	small_data small.txt
	run --separate-stderr "$GB" -k 2 small.txt -
	assert_status 0
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 4 ]
	[ -z "$(printf '%s\n' "$output" | grep 'graph-build')" ]
	assert_stderr_regex '^graph-build: 4 rows, k = 2: .*[0-9]+ edges'
	assert_stderr_has "heat weights exp(-d^2/(4t)) with t ="
}

@test "input '-' reads stdin and writes stdout by default" {
	small_data small.txt
	run --separate-stderr "$GB" -q - <small.txt
	assert_status 0
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 4 ]
	[[ "$output" == "1 "* ]]
	# nothing but the input in the directory: no "-.graph", no "-"
	[ "$(ls -A)" = "small.txt" ]
}

@test "cat file | graph-build - equals graph-build file -" {
	small_data small.txt
	cat small.txt | "$GB" -q - >from-pipe.graph
	"$GB" -q small.txt - >from-file.graph
	[ -s from-file.graph ]
	assert_same from-pipe.graph from-file.graph
}

@test "input '-' with an explicit output file writes that file" {
	small_data small.txt
	run --separate-stderr "$GB" -q - out.graph <small.txt
	assert_status 0
	assert_stdout_empty
	"$GB" -q small.txt ref.graph
	assert_same out.graph ref.graph
}

@test "a successful run replaces an existing output file" {
	small_data small.txt
	echo "old content" >out.graph
	run --separate-stderr "$GB" -q small.txt out.graph
	assert_status 0
	check_graph out.graph 4
	[ -z "$(grep 'old content' out.graph)" ]
	assert_no_tmp_files .
}

@test "new output file gets the usual umask permissions" {
	small_data small.txt
	umask 022
	"$GB" -q small.txt out.graph
	[ "$(stat -c %a out.graph)" = 644 ]
}

# --------------------------------------------------------- malformed data
# Each bad input: exit 1, one message "graph-build: FILE:LINE: ...", nothing
# on stdout and no output file.

# expect_data_error LINE TEXT...: run on bad.txt (already written); the one
# message starts "graph-build: bad.txt:LINE: " and contains every TEXT.
expect_data_error() {
	local line="$1" t
	shift
	run --separate-stderr "$GB" -q bad.txt bad.graph
	assert_status 1
	assert_stdout_empty
	if [[ "$stderr" != "graph-build: bad.txt:$line: "* ]]; then
		echo "expected 'graph-build: bad.txt:$line: ...', got: $stderr"
		return 1
	fi
	for t in "$@"; do
		assert_stderr_has "$t"
	done
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[ ! -e bad.graph ]
	assert_no_tmp_files .
}

@test "data: empty line -> exit 1, FILE:LINE: empty line" {
	printf '1 1:1\n\n1 1:2\n' >bad.txt
	expect_data_error 2 "empty line"
}

@test "data: blank-only line -> exit 1, empty line" {
	printf '1 1:1\n1 1:3\n \t \n' >bad.txt
	expect_data_error 3 "empty line"
}

@test "data: non-numeric label -> exit 1, bad label" {
	printf '1 1:1\nabc 1:2\n' >bad.txt
	expect_data_error 2 "bad label" "'abc'"
}

@test "data: missing label (line starts 1:2) -> exit 1" {
	printf '1 1:1\n1:2 2:3\n' >bad.txt
	expect_data_error 2 "missing label" "1:2"
}

@test "data: label nan -> exit 1, not finite" {
	printf 'nan 1:1\n' >bad.txt
	expect_data_error 1 "bad label" "nan" "finite"
}

@test "data: feature index 0 -> exit 1, out of range" {
	printf '1 1:1\n1 0:2\n' >bad.txt
	expect_data_error 2 "feature index" "out of range" "1..2147483647"
}

@test "data: feature index above 2147483647 -> exit 1" {
	printf '1 2147483648:1\n' >bad.txt
	expect_data_error 1 "feature index" "out of range" "1..2147483647"
}

@test "data: non-integer feature index -> exit 1" {
	printf '1 1:1\n1 1.5:2\n' >bad.txt
	expect_data_error 2 "bad feature index" "1.5"
}

@test "data: decreasing index -> exit 1" {
	printf '1 1:1 2:1\n1 3:1 2:1\n' >bad.txt
	expect_data_error 2 "feature index 2 decreasing" "found 2 after 3"
}

@test "data: repeated index -> exit 1" {
	printf '1 2:1 2:1\n' >bad.txt
	expect_data_error 1 "feature index 2 repeated"
}

@test "data: value nan -> exit 1, not finite" {
	printf '1 1:1\n1 1:nan\n' >bad.txt
	expect_data_error 2 "bad value" "nan" "finite"
}

@test "data: value inf -> exit 1, not finite" {
	printf '1 1:1\n-1 1:-inf\n' >bad.txt
	expect_data_error 2 "bad value" "-inf" "finite"
}

@test "data: value 1e999 (overflow) -> exit 1" {
	printf '1 1:1\n1 1:1e999\n' >bad.txt
	expect_data_error 2 "bad value" "1e999" "range"
}

@test "data: garbage after a number (1:2x) -> exit 1" {
	printf '1 1:1\n1 1:2x\n' >bad.txt
	expect_data_error 2 "bad value" "2x" "number"
}

@test "data: hexadecimal value -> exit 1" {
	printf '1 1:0x10\n' >bad.txt
	expect_data_error 1 "bad value" "0x10"
}

@test "data: empty value (1:) -> exit 1" {
	printf '1 1:1\n1 2:1 3:\n' >bad.txt
	expect_data_error 2 "bad value"
}

@test "data: token without colon -> exit 1" {
	printf '1 1:1\n1 1:1 5\n' >bad.txt
	expect_data_error 2 "bad feature" "'5'" "index:value"
}

@test "data: NUL byte -> exit 1" {
	printf '1 1:1\n1 1:\0002\n1 1:3\n' >bad.txt
	expect_data_error 2 "NUL byte"
}

@test "data: a long bad token is cut to 40 characters" {
	printf '1 1:1\n%s 1:1\n' "$(printf 'a%.0s' $(seq 100))" >bad.txt
	expect_data_error 2 "bad label" "'$(printf 'a%.0s' $(seq 40))...'"
}

@test "data: empty file -> exit 1, no data rows" {
	: >bad.txt
	run --separate-stderr "$GB" -q bad.txt bad.graph
	assert_status 1
	[ "$stderr" = "graph-build: bad.txt: no data rows (empty file)" ]
	[ ! -e bad.graph ]
}

@test "data: error on stdin is reported as (stdin):LINE" {
	printf '1 1:1\n1 1:1\nx 1:1\n' >bad.txt
	run --separate-stderr "$GB" -q - <bad.txt
	assert_status 1
	assert_stdout_empty
	[[ "$stderr" == "graph-build: (stdin):3: bad label"* ]]
	assert_stderr_has "'x'"
}

@test "data: the error is found even after many good lines" {
	"$DG" -n 500 moons bad.txt
	printf '1 1:1 2:oops\n' >>bad.txt
	expect_data_error 501 "bad value" "oops"
}

# ----------------------------------------------------- accepted variants

@test "CRLF line ends, trailing blanks and # comments give the clean graph" {
	printf '%s\n' '1 1:1 2:0' '-1 1:0 2:1' '1 1:1 2:1' '0 1:2.5 2:-1' >clean.txt
	printf '1 1:1 2:0\r\n-1 1:0 2:1   # a comment\r\n1\t1:1 2:1 \t\r\n0 1:2.5  2:-1# x:y z\n' >messy.txt
	"$GB" -q -k 2 clean.txt clean.graph
	run --separate-stderr "$GB" -q -k 2 messy.txt messy.graph
	assert_status 0
	assert_same clean.graph messy.graph
}

@test "last line without a newline is read" {
	printf '1 1:1 2:0\n-1 1:0 2:1\n1 1:1 2:1' >nonl.txt
	run --separate-stderr "$GB" -q -k 1 nonl.txt -
	assert_status 0
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 3 ]
}

@test "signs, exponents and leading points in numbers are accepted" {
	printf '%s\n' '1 1:1.5 2:-0.5' '-1 1:0 2:2' '0 1:3 2:0.25' >plain.txt
	printf '%s\n' '+1 1:+1.5e0 2:-.5' '-1.0 1:0e-3 2:20E-1' '0 1:3. 2:2.5e-1' >fancy.txt
	"$GB" -q -k 2 plain.txt plain.graph
	run --separate-stderr "$GB" -q -k 2 fancy.txt fancy.graph
	assert_status 0
	assert_same plain.graph fancy.graph
}

@test "a row with a label and no features is a point at the origin" {
	printf '%s\n' '1' '1 1:0 2:0' '-1 1:3 2:4' >origin.txt
	run --separate-stderr "$GB" -q -k 1 -w distance origin.txt -
	assert_status 0
	# rows 1 and 2 coincide (distance 0: that edge is dropped); row 3 is
	# 5 from both and chooses row 1 (ties go to the lower index)
	[ "$output" = "$(printf '%s\n' '1 3:5' '2' '3 1:5')" ]
}

# ------------------------------------------------- failures keep outputs

@test "bad input leaves an existing output file byte-for-byte untouched" {
	printf 'previous graph\n1 2:1\n' >out.graph
	cp out.graph before.graph
	touch -d '2001-01-01 00:00:00' out.graph
	printf '1 1:1\n1 1:nan\n' >bad.txt
	run --separate-stderr "$GB" -q bad.txt out.graph
	assert_status 1
	assert_same before.graph out.graph
	[ "$(stat -c %Y out.graph)" = "$(date -d '2001-01-01 00:00:00' +%s)" ]
	assert_no_tmp_files .
}

@test "bad input creates no output file and leaves no temporary file" {
	printf '1 1:1\n1 0:1\n' >bad.txt
	run --separate-stderr "$GB" -q bad.txt
	assert_status 1
	[ ! -e bad.txt.graph ]
	[ "$(ls -A)" = "bad.txt" ]
}

@test "nonexistent input: exit 1, cannot open" {
	run --separate-stderr "$GB" -q no-such-file.txt
	assert_status 1
	[ "$stderr" = "graph-build: no-such-file.txt: cannot open: No such file or directory" ]
	[ "$(ls -A)" = "" ]
}

@test "input that is a directory: exit 1, read error" {
	mkdir adir
	run --separate-stderr "$GB" -q adir out.graph
	assert_status 1
	assert_stderr_has "graph-build: adir"
	assert_stderr_has "read error"
	[ ! -e out.graph ]
}

@test "unwritable output directory: exit 1, nothing written" {
	[ "$(id -u)" -ne 0 ] || skip "running as root: directory permissions do not apply"
	small_data small.txt
	mkdir ro
	chmod 555 ro
	run --separate-stderr "$GB" -q small.txt ro/out.graph
	chmod 755 ro
	assert_status 1
	assert_stderr_has "graph-build: ro/out.graph: cannot create a file beside it"
	[ "$(ls -A ro)" = "" ]
}

@test "output in a nonexistent directory: exit 1" {
	small_data small.txt
	run --separate-stderr "$GB" -q small.txt no-such-dir/out.graph
	assert_status 1
	assert_stderr_has "graph-build: no-such-dir/out.graph: cannot create a file beside it"
	[ ! -e no-such-dir ]
}

@test "output whose directory is a regular file: exit 1" {
	small_data small.txt
	run --separate-stderr "$GB" -q small.txt small.txt/out.graph
	assert_status 1
	assert_stderr_has "graph-build: small.txt/out.graph:"
	assert_no_tmp_files .
}

@test "output path that is an existing directory: exit 1, directory kept" {
	small_data small.txt
	mkdir outdir
	run --separate-stderr "$GB" -q small.txt outdir
	assert_status 1
	assert_stderr_has "graph-build: outdir: is a directory"
	[ -d outdir ]
	[ "$(ls -A outdir)" = "" ]
	assert_no_tmp_files .
}

@test "write error on stdout (/dev/full): exit 1" {
	[ -w /dev/full ] || skip "/dev/full not available"
	small_data small.txt
	run --separate-stderr bash -c '"$1" -q small.txt - >/dev/full' _ "$GB"
	assert_status 1
	assert_stderr_has "graph-build: (stdout): write error"
}

# ---------------------------------------------------------- graph format

@test "output format: row numbers, increasing columns, symmetric, w > 0" {
	moons m.txt -n 200 -S 7
	run --separate-stderr "$GB" -q m.txt m.graph
	assert_status 0
	run check_graph m.graph 200
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "union kNN gives every row at least k neighbours" {
	moons m.txt -n 100 -S 2
	"$GB" -q -k 5 m.txt m.graph
	run awk 'NF - 1 < 5 { print "row " $1 " has " NF - 1 " neighbours" }' m.graph
	[ -z "$output" ]
}

@test "-w binary gives all weights 1" {
	moons m.txt -n 100 -S 3
	"$GB" -q -w binary m.txt m.graph
	check_graph m.graph 100
	[ "$(weights m.graph | sort -u)" = "1" ]
}

@test "default heat weights are in (0, 1]" {
	moons m.txt -n 100 -S 3
	"$GB" -q m.txt m.graph
	[ -n "$(weights m.graph)" ]
	[ "$(weights m.graph | awk '!($1 + 0 > 0 && $1 + 0 <= 1)')" = "" ]
}

@test "-k larger than n-1 warns and uses k = n-1" {
	small_data small.txt
	run --separate-stderr "$GB" -k 10 -w binary small.txt -
	assert_status 0
	assert_stderr_regex '^graph-build: warning: k = 10 .*using k = 3'
	# four points, each linked to the three others
	[ "$output" = "$(printf '%s\n' '1 2:1 3:1 4:1' '2 1:1 3:1 4:1' '3 1:1 2:1 4:1' '4 1:1 2:1 3:1')" ]
}

@test "a single row gives a graph with one isolated row" {
	printf '1 1:1 2:2\n' >one.txt
	run --separate-stderr "$GB" -q one.txt -
	assert_status 0
	[ "$output" = "1" ]
}

@test "-q prints nothing on stderr (even warnings)" {
	small_data small.txt
	run --separate-stderr "$GB" -q -k 10 small.txt out.graph
	assert_status 0
	assert_stderr_empty
	assert_stdout_empty
	check_graph out.graph 4
}

@test "-m mutual kNN edges are a subset of the union edges" {
	moons m.txt -n 80 -S 4
	"$GB" -q -k 4 m.txt union.graph
	"$GB" -q -k 4 -m m.txt mutual.graph
	check_graph mutual.graph 80
	edges union.graph >union.edges
	edges mutual.graph >mutual.edges
	[ -s mutual.edges ]
	[ "$(comm -23 mutual.edges union.edges)" = "" ]
}

@test "-m on a hand-made set keeps only mutual choices" {
	# 1-D points 0, 1, 3, 7: with k = 1, 1<->2 are mutual; 3 chooses 2,
	# 4 chooses 3, but neither choice is returned.
	printf '%s\n' '1 1:0' '1 1:1' '1 1:3' '1 1:7' >line.txt
	run --separate-stderr "$GB" -q -k 1 -m -w binary line.txt -
	assert_status 0
	[ "$output" = "$(printf '%s\n' '1 2:1' '2 1:1' '3' '4')" ]
	run --separate-stderr "$GB" -q -k 1 -w binary line.txt -
	assert_status 0
	[ "$output" = "$(printf '%s\n' '1 2:1' '2 1:1 3:1' '3 2:1 4:1' '4 3:1')" ]
}

@test "-d cosine: an all-zero row warns and is left isolated" {
	printf '%s\n' '1 1:1' '1 1:0' '1 2:1' '1 1:1 2:1' '-1 1:2 2:0.5' >cos.txt
	run --separate-stderr "$GB" -d cosine -k 2 cos.txt cos.graph
	assert_status 0
	assert_stderr_regex '^graph-build: warning: 1 rows? ha.* no non-zero value'
	check_graph cos.graph 5
	[ "$(sed -n 2p cos.graph)" = "2" ]
	# and no other row links to row 2
	[ "$(edges cos.graph | awk '$1 == 2 || $2 == 2')" = "" ]
	# the other rows do have neighbours
	[ "$(awk 'NR != 2 && NF < 2' cos.graph)" = "" ]
}

@test "-d cosine ignores scale: parallel rows are at distance 0" {
	printf '%s\n' '1 1:1 2:1' '1 1:5 2:5' '1 1:1 2:-1' >cos.txt
	run --separate-stderr "$GB" -q -d cosine -k 1 -w binary cos.txt -
	assert_status 0
	# 3 is orthogonal to both (distance 1): it chooses 1 (lower index)
	[ "$output" = "$(printf '%s\n' '1 2:1 3:1' '2 1:1' '3 1:1')" ]
}

@test "-d cosine -e above 2 warns that every pair is kept, unless -q" {
	small_data small.txt
	run --separate-stderr "$GB" -d cosine -e 3 small.txt out.graph
	assert_status 0
	assert_stderr_regex '^graph-build: warning: cosine distances are at most 2'
	run --separate-stderr "$GB" -q -d cosine -e 3 small.txt q.graph
	assert_status 0
	[ -z "$stderr" ]
	assert_same out.graph q.graph
}

# Five hand-made points; squared distances:
#   1-2 25  1-3 100  1-4 1   1-5 200
#   2-3 25  2-4 18   2-5 85  3-4 85  3-5 20  4-5 181
eps_data() {
	printf '%s\n' '1 1:0 2:0' '1 1:3 2:4' '-1 1:6 2:8' '0 1:0 2:1' '0 1:10 2:10' >eps.txt
}

@test "-e 5: exactly the pairs at distance < 5 (hand-computed)" {
	eps_data
	run --separate-stderr "$GB" -q -e 5 -w binary eps.txt -
	assert_status 0
	# 1-4 (1), 2-4 (4.24), 3-5 (4.47); 1-2 and 2-3 are exactly 5: excluded
	[ "$output" = "$(printf '%s\n' '1 4:1' '2 4:1' '3 5:1' '4 1:1 2:1' '5 3:1')" ]
}

@test "-e 5.5: the pairs at distance exactly 5 join" {
	eps_data
	run --separate-stderr "$GB" -q -e 5.5 -w binary eps.txt -
	assert_status 0
	[ "$output" = "$(printf '%s\n' '1 2:1 4:1' '2 1:1 3:1 4:1' '3 2:1 5:1' '4 1:1 2:1' '5 3:1')" ]
}

@test "-e 0.5: no pair that close, every row isolated" {
	eps_data
	run --separate-stderr "$GB" -e 0.5 -w binary eps.txt -
	assert_status 0
	[ "$output" = "$(printf '%s\n' 1 2 3 4 5)" ]
	assert_stderr_regex '^graph-build: 5 rows, epsilon = 0.5: .*0 edges, 5 isolated rows'
}

@test "-e 5 -w distance: weights are the distances" {
	eps_data
	"$GB" -q -e 5 -w distance eps.txt eps.graph
	check_graph eps.graph 5
	[ "$(edges eps.graph | tr '\n' ,)" = "1 4,2 4,3 5," ]
	run awk '
	function chk(got, want) {
		d = got - want; if (d < 0) d = -d
		if (d > 1e-12) print "row " $1 ": " got " != " want }
	$1 == 1 { split($2, a, ":"); chk(a[2], 1) }
	$1 == 2 { split($2, a, ":"); chk(a[2], sqrt(18)) }
	$1 == 3 { split($2, a, ":"); chk(a[2], sqrt(20)) }' eps.graph
	[ -z "$output" ]
}

@test "-e 1e-200 still joins duplicate points (distance 0 < epsilon)" {
	# epsilon is accepted down to 2.2e-308; two identical points are at
	# distance 0, which is < epsilon for every accepted epsilon.
	printf '%s\n' '1 1:1 2:1' '1 1:1 2:1' '-1 1:5 2:5' >dup.txt
	run --separate-stderr "$GB" -q -e 1e-5 -w binary dup.txt -
	assert_status 0
	[ "$output" = "$(printf '%s\n' '1 2:1' '2 1:1' '3')" ]
	run --separate-stderr "$GB" -q -e 1e-200 -w binary dup.txt -
	assert_status 0
	if [ "$output" != "$(printf '%s\n' '1 2:1' '2 1:1' '3')" ]; then
		echo "graph-build -e 1e-200 -w binary dup.txt - gave:"
		echo "$output"
		return 1
	fi
}

@test "values near the largest accepted: the true neighbours on every path; beyond it an error" {
	# the dense path subtracts the column means: squared norms up to 4
	# times the raw ones, which overflowed near the old bound (1e154)
	# and lost row 1's true neighbour, silently
	printf '%s\n' '0 1:2.3e153' '0 1:2.29e153' '0 1:-2.3e153' '0 1:-2.3e153' \
		'0 1:-2.3e153' '0 1:-2.3e153' >far.txt
	local o
	for o in "" "-p double" "-A sparse"; do
		run --separate-stderr "$GB" -q -k 1 -w binary $o far.txt -
		assert_status 0
		[ "${lines[0]}" = "1 2:1" ] && [ "${lines[1]}" = "2 1:1" ] ||
			{ echo "$o: $output"; false; }
		run --separate-stderr "$GB" -q -e 1e152 -w binary $o far.txt -
		[ "${lines[0]}" = "1 2:1" ] || { echo "-e $o: $output"; false; }
	done
	printf '%s\n' '0 1:6.6e153' '0 1:6.59e153' '0 1:-6.6e153' >over.txt
	run --separate-stderr "$GB" -q -k 1 over.txt over.graph
	assert_status 1
	assert_stderr_has "graph-build: over.txt:1: feature values too large (squared norm 4.356e+307, expected at most 5.61779e+306)"
	[ ! -e over.graph ]
}

# comment lines are no rows: the message names the line, counted again in
# the file; standard input cannot be read again, so its row is named
@test "a refused row is named by its line in a file with comment lines, by its row on standard input" {
	printf '%s\n' '# two rows' '0 1:1' '  # a comment' '0 1:1e-200' '0 1:2' >c.txt
	run --separate-stderr "$GB" -q -k 1 c.txt c.graph
	assert_fails graph-build "graph-build: c.txt:4: a feature value too small (1e-200"
	run --separate-stderr bash -c "exec '$GB' -q -k 1 - c.graph <c.txt"
	assert_fails graph-build "graph-build: (stdin): row 2: a feature value too small (1e-200"
	[ ! -e c.graph ]
}

@test "a nonzero value below 1e-130 is refused (its squared distances underflow); 1e-120 is not" {
	# 1e-200 and 3e-200 were at distance 0, duplicates; cosine rows of
	# 1e-200 had no nonzero value
	printf '%s\n' '0 1:1e-200' '0 1:3e-200' '0 1:1e-100' >tiny.txt
	local o
	for o in "" "-A sparse" "-d cosine"; do
		run --separate-stderr "$GB" -q -k 1 $o tiny.txt tiny.graph
		assert_status 1
		assert_stderr_has "graph-build: tiny.txt:1: a feature value too small (1e-200, expected 0 or at least 1e-130 in magnitude): squared distances would underflow a double; rescale the data"
		[ ! -e tiny.graph ]
	done
	printf '%s\n' '0 1:1e-120' '0 1:3e-120' '0 1:1e-100' >small.txt
	run --separate-stderr "$GB" -q -N -k 1 small.txt -
	assert_status 0
	[[ "${lines[0]}" == "1 2:2"* ]] || { echo "$output"; false; }
}

@test "heat weights that underflow to 0 are dropped with a warning" {
	printf '%s\n' '1 1:0 2:0' '1 1:3 2:4' '1 1:3 2:4' >u.txt
	run --separate-stderr "$GB" -k 1 -t 1e-300 u.txt -
	assert_status 0
	assert_stderr_regex '^graph-build: warning: 1 edges? .*heat weight underflow.*dropped'
	# the duplicates keep weight 1; row 1's edge (d^2 = 25) underflowed
	[ "$output" = "$(printf '%s\n' '1' '2 3:1' '3 2:1')" ]
}

@test "duplicate points with -w distance: warning, edge dropped, no zero weight" {
	printf '%s\n' '1 1:1 2:1' '1 1:1 2:1' '-1 1:2 2:2' '-1 1:5 2:5' >dup.txt
	run --separate-stderr "$GB" -k 1 -w distance dup.txt dup.graph
	assert_status 0
	assert_stderr_regex '^graph-build: warning: 1 edges? .*duplicate points.*dropped'
	check_graph dup.graph 4
	[ "$(edges dup.graph | awk '$1 == 1 && $2 == 2')" = "" ]
	[ "$(weights dup.graph | awk '!($1 + 0 > 0)')" = "" ]
}

@test "duplicate points with heat weights keep the edge with weight 1" {
	printf '%s\n' '1 1:1 2:1' '1 1:1 2:1' '-1 1:2 2:2' >dup.txt
	run --separate-stderr "$GB" -k 1 dup.txt -
	assert_status 0
	[[ "$output" == "1 2:1 "* ]]
	[[ "$stderr" != *"dropped"* ]]
}

@test "heat weight with -t matches exp(-d^2/(4t)) (hand-computed pair)" {
	# d^2 = 3^2 + 4^2 = 25, t = 2: w = exp(-25/8)
	printf '%s\n' '1 1:0 2:0' '-1 1:3 2:4' >pair.txt
	run --separate-stderr "$GB" -q -k 1 -t 2 pair.txt -
	assert_status 0
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 2 ]
	run awk 'NR == 1 && $2 !~ /^2:/ { print "row 1: " $0; next }
		NR == 2 && $2 !~ /^1:/ { print "row 2: " $0; next }
		{ split($2, a, ":"); d = a[2] - exp(-25 / 8); if (d < 0) d = -d
		  if (NF != 2 || d > 1e-12) print "bad: " $0 }' <<<"$output"
	[ -z "$output" ]
}

@test "heat width defaults to the mean squared distance of the chosen pairs" {
	# two points at d^2 = 25: t = 25, w = exp(-25/100)
	printf '%s\n' '1 1:0 2:0' '-1 1:3 2:4' >pair.txt
	run --separate-stderr "$GB" -k 1 pair.txt -
	assert_status 0
	assert_stderr_has "heat weights exp(-d^2/(4t)) with t = 25"
	run awk '{ split($2, a, ":"); d = a[2] - exp(-0.25); if (d < 0) d = -d
		if (d > 1e-12) print "bad: " $0 }' <<<"$output"
	[ -z "$output" ]
}

@test "same graph for -B 1, -B 3, -B 1000 and the default block size" {
	moons m.txt -n 200 -S 11
	"$GB" -q m.txt default.graph
	"$GB" -q -B 1 m.txt b1.graph
	"$GB" -q -B 3 m.txt b3.graph
	"$GB" -q -B 1000 m.txt b1000.graph
	check_graph default.graph 200
	assert_same default.graph b1.graph
	assert_same default.graph b3.graph
	assert_same default.graph b1000.graph
}

@test "same epsilon graph for -B 1, -B 7 and the default block size" {
	moons m.txt -n 150 -S 12
	"$GB" -q -e 0.3 m.txt default.graph
	"$GB" -q -e 0.3 -B 1 m.txt b1.graph
	"$GB" -q -e 0.3 -B 7 m.txt b7.graph
	[ -n "$(edges default.graph)" ]
	assert_same default.graph b1.graph
	assert_same default.graph b7.graph
}

@test "graph-build is deterministic: two runs give identical files" {
	moons m.txt -n 200 -S 5
	"$GB" -q -k 8 m.txt a.graph
	"$GB" -q -k 8 m.txt b.graph
	assert_same a.graph b.graph
}

# --------------------------------------------------------- real data sets

@test "real data: first 500 USPS rows give a valid graph, same for -B 7" {
	need_data usps.train.libsvm.gz
	zcat "$DATA_PATH" | head -n 500 >usps500.txt || true
	[ "$(wc -l <usps500.txt)" -eq 500 ]
	"$GB" -q -k 6 usps500.txt a.graph
	check_graph a.graph 500
	zcat "$DATA_PATH" | head -n 500 | "$GB" -q -k 6 -B 7 - >b.graph
	assert_same a.graph b.graph
}

@test "real data: twomoons.libsvm builds a valid graph" {
	need_data twomoons.libsvm
	n=$(wc -l <"$DATA_PATH")
	"$GB" -q "$DATA_PATH" tm.graph
	check_graph tm.graph "$n"
}

# ------------------------------------------------------------ fast paths

@test "-p double (dgemm) gives the same graph as the default certified single products" {
	moons m.txt
	"$BIN/graph-build" -q -k 7 m.txt default.g
	run "$BIN/graph-build" -q -p double -k 7 m.txt double.g
	[ "$status" -eq 0 ]
	cmp default.g double.g
	"$BIN/graph-build" -q -p single -k 7 m.txt single.g
	"$BIN/graph-build" -q -f -k 7 m.txt f.g
	cmp default.g single.g
	cmp default.g f.g
	"$BIN/graph-build" -q -p double -e 0.3 m.txt e-double.g
	"$BIN/graph-build" -q -e 0.3 m.txt e-single.g
	cmp e-double.g e-single.g
}

@test "the scan report names the products used; -p takes single or double only" {
	moons m.txt
	run --separate-stderr "$BIN/graph-build" -k 5 m.txt g1
	[[ "$stderr" == *"sgemm block products"* ]]
	run --separate-stderr "$BIN/graph-build" -p double -k 5 m.txt g2
	[[ "$stderr" == *"dgemm block products"* ]]
	run --separate-stderr "$BIN/graph-build" -p half m.txt g3
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"option -p: unknown value 'half' (expected one of single, double)"* ]]
	[ ! -e g3 ]
}

@test "-A sparse and -A dense give the same graph; -A auto is the default" {
	moons m.txt
	"$BIN/graph-build" -q -A dense -k 5 -d cosine m.txt dense.g
	"$BIN/graph-build" -q -A sparse -k 5 -d cosine m.txt sparse.g
	"$BIN/graph-build" -q -k 5 -d cosine m.txt auto.g
	cmp dense.g sparse.g
	cmp dense.g auto.g
	run --separate-stderr "$BIN/graph-build" -A fast m.txt
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"option -A: unknown value 'fast' (expected one of dense, auto, sparse)"* ]]
}

# onehot N FILE: N rows of 15 one-hot groups of 21 features (SecStr's
# coding: 15 amino acids, 21 symbols), so every squared distance is an
# even integer and most rows' k-th neighbour is tied with many others.
# Park-Miller's generator in double arithmetic: the same rows in mawk and
# gawk.
onehot() {
	awk -v n="$1" 'BEGIN { x = 12345
		for (i = 0; i < n; i++) {
			line = (i % 2) ? "1" : "-1"
			for (g = 0; g < 15; g++) {
				x = (x * 16807) % 2147483647
				line = line " " (g * 21 + x % 21 + 1) ":1"
			}
			print line
		} }' >"$2"
}

@test "one-hot data (exact ties at the k-th distance): every row certified, one graph on every path" {
	onehot 1200 oh.txt
	run --separate-stderr "$BIN/graph-build" -k 10 -A dense oh.txt dense.g
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"redone"* ]]
	run --separate-stderr "$BIN/graph-build" -k 10 -A sparse oh.txt sparse.g
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"redone"* ]]
	"$BIN/graph-build" -q -k 10 -A dense -p double oh.txt double.g
	cmp dense.g sparse.g
	cmp dense.g double.g
	# the ties are broken by the lower index, as the brute-force reference
	# (tests/knn-ref.c, plain loops) breaks them
	if [ -x "${LAPSVM_TESTBIN:-}/knn-ref" ]; then
		"$LAPSVM_TESTBIN/knn-ref" -k 10 oh.txt >ref.g
		cmp dense.g ref.g
	fi
}

@test "one-hot data far from integers (x 0.1): uncertified rows are counted, named as ties, and redone" {
	onehot 600 oh.txt
	awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) { split($i, a, ":"); printf " %s:0.1", a[1] } print "" }' oh.txt >tenth.txt
	run --separate-stderr "$BIN/graph-build" -k 10 -A sparse tenth.txt t.g
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"rows were redone exactly against every row"* ]]
	[[ "$stderr" =~ \(([1-9][0-9]*)\ of\ them\ have\ an\ exact\ tie ]]
	"$BIN/graph-build" -q -k 10 -A dense tenth.txt d.g
	cmp t.g d.g
}

@test "k near n: the heaps hold every row, none was turned away, so no row is redone" {
	# 200 random rows: at -k 199 (and -k 150, whose candidates are every
	# row too) every row was redone in double, then exactly, before
	awk 'BEGIN { srand(7); for (i = 0; i < 200; i++) printf "1 1:%.17g 2:%.17g\n", rand(), rand() }' >r200.txt
	for k in 199 150; do
		run --separate-stderr "$BIN/graph-build" -k "$k" -A dense r200.txt s.g
		[ "$status" -eq 0 ]
		[[ "$stderr" != *"certified"* && "$stderr" != *"redone"* ]]
		"$BIN/graph-build" -q -k "$k" -A dense -p double r200.txt d.g
		cmp s.g d.g
	done
}

@test "-A auto times both paths on a sample of a large set, says which it took, and builds the same graph" {
	onehot 4000 oh.txt
	run --separate-stderr "$BIN/graph-build" -k 5 oh.txt auto.g
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ path:\ (dense|sparse),\ measured\ on\ 1000\ rows ]]
	"$BIN/graph-build" -q -k 5 -A sparse oh.txt sparse.g
	cmp auto.g sparse.g
	# a forced path and small sets need no trial
	run --separate-stderr "$BIN/graph-build" -k 5 -A dense oh.txt dense.g
	[[ "$stderr" != *"measured on"* ]]
	cmp auto.g dense.g
	head -n 3999 oh.txt >small.txt
	run --separate-stderr "$BIN/graph-build" -k 5 small.txt small.g
	[[ "$stderr" != *"measured on"* ]]
}

@test "values far from the origin (1e8, differing by 1e-4): the exact neighbours, single and double products" {
	# the centred squared norms were |mu|^2 + sum (e^2 - mu^2), which cancels
	# to noise here: row 4 got row 3 (0.00037) instead of row 1 (0.00023)
	printf '0 1:100000000.00075\n0 1:100000000.00088\n0 1:100000000.00015\n0 1:100000000.00052\n' >far.txt
	for prec in single double; do
		run --separate-stderr "$BIN/graph-build" -q -N -k 1 -A dense -p $prec far.txt -
		[ "$status" -eq 0 ]
		[ "$(cut -d: -f1 <<<"$output" | tr '\n' ' ')" = "1 2 2 1 3 4 4 1 " ]
	done
	"$BIN/graph-build" -q -N -k 1 -A sparse far.txt sparse.n
	"$BIN/graph-build" -q -N -k 1 -A dense far.txt dense.n
	cmp sparse.n dense.n
}

@test "values a float cannot hold (1e40) or whose squares underflow it (1e-26): the same graph as double products" {
	printf '1 1:1e40 2:0\n1 1:2e40 2:0\n-1 1:0 2:1e40\n-1 1:0 2:3e40\n1 1:5e40 2:1\n' >big.txt
	"$BIN/graph-build" -q -k 1 -w binary big.txt single.g
	"$BIN/graph-build" -q -k 1 -w binary -p double big.txt double.g
	cmp single.g double.g
	# every row has its neighbour (the float products lost row 1 before)
	awk 'NF < 2 { exit 1 }' single.g
	printf '1 1:1e-26 2:0\n1 1:2e-26 2:0\n-1 1:0 2:1e-26\n-1 1:0 2:3e-26\n1 1:5e-26 2:1e-30\n' >tiny.txt
	"$BIN/graph-build" -q -k 1 -w binary tiny.txt single.g
	"$BIN/graph-build" -q -k 1 -w binary -p double tiny.txt double.g
	cmp single.g double.g
}

@test "the graph does not depend on the number of threads" {
	moons m.txt
	OMP_NUM_THREADS=1 "$BIN/graph-build" -q -k 6 m.txt one.g
	OMP_NUM_THREADS=2 "$BIN/graph-build" -q -k 6 m.txt two.g
	OMP_NUM_THREADS=3 "$BIN/graph-build" -q -B 17 -k 6 m.txt three.g
	cmp one.g two.g
	cmp one.g three.g
}

@test "-N writes each row's k nearest neighbours by increasing distance" {
	moons m.txt
	run "$BIN/graph-build" -q -N -k 4 m.txt -
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | wc -l)" -eq 200 ]
	# every line: row number, 4 entries, distances non-decreasing, no self
	echo "$output" | awk '{ if (NF != 5) exit 1; last = -1
		for (i = 2; i <= NF; i++) { split($i, p, ":"); if (p[1] == $1 || p[2] < last) exit 1; last = p[2] } }'
	run --separate-stderr "$BIN/graph-build" -N -e 0.3 m.txt
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-N lists k nearest neighbours"* ]]
}

# -m, -w and -t were accepted with -N and had no effect on the lists
@test "-N with -m, -w or -t (options of a graph) is a usage error, nothing written" {
	moons m.txt
	local o
	for o in -m "-w binary" "-t 2"; do
		run --separate-stderr "$BIN/graph-build" -q -N -k 4 $o m.txt m.lists
		assert_status 2
		assert_stderr_has "graph-build: -N lists each row's neighbours with their distances; ${o%% *} shapes a graph and does not apply"
		[ ! -e m.lists ]
	done
}

@test "summary reports the scan's threads and block-product rate" {
	moons m.txt
	run --separate-stderr "$BIN/graph-build" -k 6 m.txt out.g
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ scan:\ [0-9]+\ threads,\ .*GFLOP/s ]]
}
