#!/usr/bin/env bats
# Input bytes that would act on a terminal never reach it raw: every message
# that echoes input (a token of a data, graph or model file, a file name,
# an option value, the program's name) quotes a carriage return as \r, an
# escape as \x1b, C1 and bidirectional controls and bytes that are not
# UTF-8 as \xNN (lsv_text_safe, common/lapsvm.h); a byte order mark at the
# start of a file is named.  Each test checks the quoted form and that
# stderr (or stdout, or the file written) holds no such raw byte
# (assert_safe, helpers.bash).  tests/README lists the cases.

load helpers

setup() {
	need_tools "$GB" "$DG" "$TRAIN" "$PRED" "$PCA"
	enter_work
	small_data small.txt
	"$TRAIN" -q small.txt ok.model
}

PCA="$BIN/lapsvm-pca"

# every_data_reader FILE TEXT...: each tool reading FILE as data fails with
# one safe line holding every TEXT.
every_data_reader() {
	local file="$1" tool
	shift
	for tool in "$GB" "$TRAIN" "$PCA"; do
		run --separate-stderr "$tool" "$file" out.txt
		assert_fails "$(basename "$tool")" "$@"
		assert_stderr_safe
	done
	run --separate-stderr "$PRED" "$file" ok.model out.txt
	assert_fails lapsvm-predict "$@"
	assert_stderr_safe
	[ ! -e out.txt ]
}

# ---------------------------------------------------------------- data

@test "a carriage return inside a data token is quoted as \\r by every data reader" {
	printf '1 1:0\n-1 1:2\r3\n' >bad.txt
	every_data_reader bad.txt \
		"bad.txt:2: bad value for feature 1 (found '2\\r3', expected a number)"
}

@test "an escape sequence in a data file is quoted as \\x1b, never sent to the terminal" {
	printf '1 1:0\n-1 1:\033[2J\n' >bad.txt
	every_data_reader bad.txt \
		"bad.txt:2: bad value for feature 1 (found '\\x1b[2J', expected a number)"
	printf '\033[31m 1:1\n' >badl.txt
	every_data_reader badl.txt \
		"badl.txt:1: bad label (found '\\x1b[31m', expected a number)"
}

@test "C1 controls, bidirectional controls and bytes that are not UTF-8 in data are quoted as \\xNN; other UTF-8 is kept" {
	printf '\302\23331m 1:1\n' >c1.txt
	every_data_reader c1.txt "c1.txt:1: bad label (found '\\xc2\\x9b31m', expected a number)"
	printf '1 1:0\n\342\200\256-1 1:1\n' >rlo.txt
	every_data_reader rlo.txt "rlo.txt:2: bad label (found '\\xe2\\x80\\xae-1', expected a number)"
	printf '1 1:0\n-1 1:\377\n' >ff.txt
	every_data_reader ff.txt "ff.txt:2: bad value for feature 1 (found '\\xff', expected a number)"
	printf '1 1:0\n-1 1:\303\251\n' >e.txt
	every_data_reader e.txt "e.txt:2: bad value for feature 1 (found '"$'\xc3\xa9'"', expected a number)"
}

@test "a byte order mark at the start of data, a graph or a model is named, quoted" {
	local msg="the file starts with a UTF-8 byte order mark (\\xef\\xbb\\xbf); save it without one"
	printf '\357\273\2771 1:0\n-1 1:1\n' >bom.txt
	every_data_reader bom.txt "bom.txt:1: $msg"
	"$GB" -q -k 2 small.txt ok.graph
	{ printf '\357\273\277'; cat ok.graph; } >bom.graph
	run --separate-stderr "$TRAIN" -G bom.graph small.txt out.model
	assert_fails lapsvm-train "bom.graph:1: $msg"
	assert_stderr_safe
	{ printf '\357\273\277'; cat ok.model; } >bom.model
	run --separate-stderr "$PRED" small.txt bom.model out.txt
	assert_fails lapsvm-predict "bom.model:1: $msg"
	assert_stderr_safe
	# UTF-16 is named too, not only as "NUL byte in line"
	{ printf '\377\376'; printf '1\0 \0'; printf '1\0:\0'; printf '0\0\n\0'; } >utf16.txt
	every_data_reader utf16.txt "utf16.txt:1: the file starts with a UTF-16 byte order mark (\\xff\\xfe); save it as ASCII or UTF-8 text without one"
	[ ! -e out.model ]
}

@test "a compressed file (gzip, xz, bzip2, zip) or a CSV row is named as such, with what to do" {
	command -v gzip >/dev/null || skip "gzip not installed"
	gzip -c small.txt >small.gz
	every_data_reader small.gz "small.gz:1: the file starts with gzip's magic bytes (\\x1f\\x8b): it is compressed; decompress it first (gunzip, or zcat FILE | ... -)"
	"$GB" -q -k 2 small.txt ok.graph
	gzip -c ok.graph >ok.graph.gz
	run --separate-stderr "$TRAIN" -G ok.graph.gz small.txt out.model
	assert_fails lapsvm-train "ok.graph.gz:1: the file starts with gzip's magic bytes"
	gzip -c ok.model >ok.model.gz
	run --separate-stderr "$PRED" small.txt ok.model.gz out.txt
	assert_fails lapsvm-predict "ok.model.gz:1: the file starts with gzip's magic bytes"
	printf '\3757zXZ\0rest\n' >small.xz
	every_data_reader small.xz "small.xz:1: the file starts with xz's magic bytes: it is compressed; decompress it first (unxz, or xzcat FILE | ... -)"
	printf 'BZh91AY&SY\n' >small.bz2
	every_data_reader small.bz2 "small.bz2:1: the file starts with bzip2's magic bytes (BZh): it is compressed; decompress it first (bunzip2, or bzcat FILE | ... -)"
	# bzip2's magic is text, so it is matched whole: a line that only
	# starts with BZh is read as what it is
	printf 'BZh9 1:1\n' >bzh.txt
	every_data_reader bzh.txt "bzh.txt:1: bad label (found 'BZh9', expected a number)"
	printf 'PK\3\4rest\n' >small.zip
	every_data_reader small.zip "small.zip:1: the file starts with a zip archive's magic bytes (PK\\x03\\x04): extract the data file first (unzip)"
	printf '%s\n' '1,5.1,3.5' '-1,4.9,3.0' >small.csv
	every_data_reader small.csv "small.csv:1: bad label (found '1,5.1,3.5', expected a number: this looks like a CSV row; the format is 'label index:value ...' (LIBSVM's))"
	# a label that is just not a number keeps the plain message
	printf 'x 1:1\n' >x.txt
	every_data_reader x.txt "x.txt:1: bad label (found 'x', expected a number)"
}

# ------------------------------------------------------- graphs and models

@test "control bytes in a graph file (lapsvm-train -G) and a model file (lapsvm-predict) are quoted" {
	printf '1 2:\033[31m\n2 1:1\n3\n4\n' >esc.graph
	run --separate-stderr "$TRAIN" -G esc.graph small.txt out.model
	assert_fails lapsvm-train "esc.graph:1: bad weight '\\x1b[31m' for column 2: not a number"
	assert_stderr_safe
	printf '1 2:1\r5\n2 1:1\n3\n4\n' >cr.graph
	run --separate-stderr "$TRAIN" -G cr.graph small.txt out.model
	assert_fails lapsvm-train "cr.graph:1: bad weight '1\\r5' for column 2: not a number"
	assert_stderr_safe
	sed 's/^kernel .*/kernel \x1b[2J/' ok.model >esc.model
	run --separate-stderr "$PRED" small.txt esc.model out.txt
	assert_fails lapsvm-predict "esc.model:" "unknown kernel (found '\\x1b[2J', expected"
	assert_stderr_safe
	sed 's/^graph .*/graph file a\rb/' ok.model >cr.model
	run --separate-stderr "$PRED" small.txt cr.model out.txt
	assert_fails lapsvm-predict "cr.model:" "carriage return in the graph description (found 'file a\\rb'"
	assert_stderr_safe
	[ ! -e out.model ] && [ ! -e out.txt ]
}

# ------------------------------------------------------------ file names

@test "a file name with an escape byte is quoted in every tool's messages" {
	local name=$'a\e[2Jb.txt' shown='a\x1b[2Jb.txt' tool
	for tool in "$GB" "$TRAIN" "$PCA"; do
		run --separate-stderr "$tool" "$name" out.txt
		assert_fails "$(basename "$tool")" "$shown: cannot open: No such file or directory"
		assert_stderr_safe
	done
	run --separate-stderr "$PRED" "$name" ok.model out.txt
	assert_fails lapsvm-predict "$shown: cannot open"
	assert_stderr_safe
	run --separate-stderr "$PRED" small.txt "$name" out.txt
	assert_fails lapsvm-predict "$shown: cannot open"
	assert_stderr_safe
	run --separate-stderr "$TRAIN" -G "$name" small.txt out.model
	assert_fails lapsvm-train "$shown: cannot open"
	assert_stderr_safe
	# file:line of a bad line in it
	printf '1 1:x\n' >"$name"
	every_data_reader "$name" "$shown:1: bad value for feature 1 (found 'x', expected a number)"
	# an output that cannot be created
	run --separate-stderr "$DG" moons $'no\e[1mdir/out.txt'
	assert_fails lapsvm-datagen 'no\x1b[1mdir/out.txt: cannot create'
	assert_stderr_safe
	# the summary of a run that succeeds
	cp small.txt "$name"
	run --separate-stderr "$TRAIN" "$name" out.model
	assert_status 0
	assert_stderr_has "lapsvm-train: $shown: 4 rows: l = 3 labeled"
	assert_stderr_safe
}

@test "a graph file name with a newline or control bytes is quoted in the model's graph line, which reads back" {
	local g=$'g\n\e[2J.graph' h=$'h\342\200\256\377\302\233.graph'
	"$GB" -q -k 2 small.txt "$g"
	cp "$g" "$h"
	run --separate-stderr "$TRAIN" -q -G "$g" small.txt g.model
	assert_status 0
	[ "$(key g.model graph)" = 'file g\n\x1b[2J.graph' ]
	run --separate-stderr "$TRAIN" -q -G "$h" small.txt h.model
	assert_status 0
	[ "$(key h.model graph)" = 'file h\xe2\x80\xae\xff\xc2\x9b.graph' ]
	assert_safe "$(cat g.model h.model)" "the models"
	# one header line each, and the models read back
	[ "$(grep -c '^graph ' g.model)" -eq 1 ]
	run --separate-stderr "$PRED" -q small.txt g.model g.pred
	assert_status 0
	run --separate-stderr "$PRED" -q small.txt h.model h.pred
	assert_status 0
	assert_same g.pred h.pred
}

@test "-v with several graphs: file names with control bytes are quoted in the table on stdout" {
	moons m.txt -S 1 -l 10
	"$GB" -q -k 4 m.txt $'a\e[1m.graph'
	"$GB" -q -k 8 m.txt b.graph
	run --separate-stderr "$TRAIN" -q -G $'a\e[1m.graph' -G b.graph -v 2 -a 1e-3 -i 0.1 m.txt g.model
	assert_status 0
	assert_safe "$output" stdout
	assert_stderr_safe
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] \+a\\x1b\[1m\.graph .*%$')" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] \+b\.graph .*%$')" -eq 1 ]
	[[ "$(printf '%s\n' "$output" | sed -n 's/^best: //p')" =~ ^"-G "(a\\x1b\[1m|b)".graph"$ ]]
}

# ---------------------------------------------------------- option values

@test "option values with an escape byte are quoted in every tool's usage errors" {
	local e=$'\e[31m' q='\x1b[31m'
	run --separate-stderr "$TRAIN" -c "$e" small.txt
	assert_usage_error "option -c: '$q' is not a number" lapsvm-train
	assert_stderr_safe
	run --separate-stderr "$TRAIN" -s "$e" small.txt
	assert_usage_error "option -s: unknown solver '$q'" lapsvm-train
	assert_stderr_safe
	run --separate-stderr "$TRAIN" -k "$e" small.txt
	assert_usage_error "option -k: '$q' is not an integer" lapsvm-train
	assert_stderr_safe
	run --separate-stderr "$GB" -w "$e" small.txt
	assert_usage_error "option -w: unknown value '$q'" graph-build
	assert_stderr_safe
	run --separate-stderr "$GB" -e "$e" small.txt
	assert_usage_error "option -e: '$q' is not a number" graph-build
	assert_stderr_safe
	run --separate-stderr "$GB" $'-\e' small.txt
	assert_usage_error 'unknown option -\x1b' graph-build
	assert_stderr_safe
	run --separate-stderr "$PRED" -u "$e" small.txt ok.model out.txt
	assert_usage_error "option -u: '$q' is not a number" lapsvm-predict
	assert_stderr_safe
	run --separate-stderr "$PCA" -k "$e" small.txt out.txt
	assert_usage_error "option -k: '$q' is not an integer" lapsvm-pca
	assert_stderr_safe
	run --separate-stderr "$PCA" small.txt out.txt "x$e"
	assert_usage_error "the last input file 'x$q' has no output file" lapsvm-pca
	assert_stderr_safe
	run --separate-stderr "$DG" -n "$e" moons
	assert_usage_error "option -n: '$q' is not an integer" lapsvm-datagen
	assert_stderr_safe
	run --separate-stderr "$DG" "moons$e"
	assert_usage_error "unknown data set 'moons$q' (expected moons, spirals or rings)" lapsvm-datagen
	assert_stderr_safe
	[ ! -e out.txt ] && [ ! -e small.txt.model ]
}

@test "the program's own name is quoted: a link named with an escape byte" {
	ln -s "$GB" $'graph\e[1m-build'
	run --separate-stderr ./$'graph\e[1m-build' -k x small.txt
	assert_usage_error "option -k: 'x' is not an integer" 'graph\x1b[1m-build'
	assert_stderr_safe
}
