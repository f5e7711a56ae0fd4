# helpers.bash -- shared setup for the Bats command-line tests.
#
#   load helpers
#
# Environment (set by `make test`; all optional):
#   LAPSVM_BIN      directory holding graph-build and lapsvm-datagen
#                   (default: the top of the source tree)
#   LAPSVM_TESTBIN  directory holding unit-tests and knn-ref (unused here)
#   LAPSVM_DATA     directory of the real data sets (tests needing it skip
#                   when it is unset or missing)
#
# Every test runs in its own empty directory, $BATS_TEST_TMPDIR/work, so file
# names in messages are short and predictable ("bad.txt:2: ...").

# `run --separate-stderr` needs Bats >= 1.5.
bats_require_minimum_version 1.5.0

BIN="${LAPSVM_BIN:-$BATS_TEST_DIRNAME/../..}"
GB="$BIN/graph-build"
DG="$BIN/lapsvm-datagen"
TRAIN="$BIN/lapsvm-train"
PRED="$BIN/lapsvm-predict"
DATA="${LAPSVM_DATA:-}"

# need_tools PATH...: skip the test unless every tool is built.
need_tools() {
	local t
	for t in "$@"; do
		[ -x "$t" ] || skip "$(basename "$t") not built (looked in $BIN)"
	done
}

# enter_work: a fresh working directory for the test.  A subdirectory:
# `run --separate-stderr` keeps its own files in $BATS_TEST_TMPDIR, and
# tests list their directory's contents.
enter_work() {
	WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
	cd "$WORK" || return 1
}

setup() {
	need_tools "$GB" "$DG"
	enter_work
}

# ---------------------------------------------------------------- asserts
# Each prints what it saw before failing, so a failure explains itself.

assert_status() {
	if [ "$status" -ne "$1" ]; then
		echo "expected exit status $1, got $status"
		echo "stdout: ${output-}"
		echo "stderr: ${stderr-}"
		return 1
	fi
}

# assert_stderr_has TEXT: stderr contains TEXT literally.
assert_stderr_has() {
	if [[ "${stderr-}" != *"$1"* ]]; then
		echo "expected stderr to contain: $1"
		echo "stderr was: ${stderr-}"
		return 1
	fi
}

# assert_stderr_regex ERE: some line of stderr matches ERE.
assert_stderr_regex() {
	if ! printf '%s\n' "${stderr-}" | grep -Eq -- "$1"; then
		echo "expected a stderr line matching: $1"
		echo "stderr was: ${stderr-}"
		return 1
	fi
}

# assert_safe TEXT [WHAT]: nothing in TEXT can act on a terminal: no
# control byte but the line ends, no UTF-8 C1 control (U+0080..U+009F),
# byte order mark, bidirectional control or line/paragraph separator, and
# no byte that is not UTF-8.  WHAT names the text in a failure (stderr).
assert_safe() {
	local bad
	bad=$(printf '%s' "$1" | LC_ALL=C grep -naE \
		$'[\x01-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xef\xbb\xbf|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]' || true)
	if [ -n "$bad" ] || ! printf '%s' "$1" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
		echo "${2:-text} holds raw bytes a terminal would act on:"
		printf '%s' "$1" | od -c | head -n 20
		return 1
	fi
}

# assert_stderr_safe: stderr passes assert_safe.
assert_stderr_safe() {
	assert_safe "${stderr-}" stderr
}

assert_stderr_empty() {
	if [ -n "${stderr-}" ]; then
		echo "expected no stderr, got: $stderr"
		return 1
	fi
}

assert_stdout_empty() {
	if [ -n "${output-}" ]; then
		echo "expected no stdout, got: $output"
		return 1
	fi
}

# assert_same FILE1 FILE2: byte-for-byte equal.
assert_same() {
	if ! cmp -s "$1" "$2"; then
		echo "files differ: $1 $2"
		diff "$1" "$2" | head -n 20
		return 1
	fi
}

# A usage error: exit 2, the message, and the hint to run -h.
# assert_usage_error TEXT [PROG]
assert_usage_error() {
	local prog="${2:-graph-build}"
	assert_status 2
	assert_stderr_has "$prog: $1"
	assert_stderr_has "Try '$prog -h' for more information."
	assert_stdout_empty
}

# ------------------------------------------------ lapsvm-train fixtures

# moons1 [FILE]: 200 two-moons points (default m.txt), one labeled row per
# class (l = 2, u = 198), the unlabeled rows labeled 0.
moons1() {
	moons "${1:-m.txt}" -S 1 -l 1
}

# key FILE KEY: the value(s) of header line "KEY ..." of a model file.
key() {
	sed -n '/^SV$/q; s/^'"$2"' //p' "$1"
}

# sv_lines FILE: the lines after "SV".
sv_lines() {
	sed '1,/^SV$/d' "$1"
}

# assert_close ACTUAL EXPECTED [REL]: equal to REL relative (default 1e-12).
assert_close() {
	if ! awk -v a="$1" -v b="$2" -v r="${3:-1e-12}" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = b < 0 ? -b : b
		exit !(d <= r * m) }'; then
		echo "expected $2, got $1 (relative tolerance ${3:-1e-12})"
		return 1
	fi
}

# A usage error from lapsvm-train that wrote no model.
assert_train_usage() {
	assert_usage_error "$1" lapsvm-train
	[ ! -e m.txt.model ]
}

# A usage error naming option $1 and saying $2 (e.g. "out of range").
assert_bad_option() {
	assert_status 2
	assert_stderr_regex "^lapsvm-train: option -$1: .*$2"
	assert_stderr_has "Try 'lapsvm-train -h' for more information."
	assert_stdout_empty
	[ ! -e m.txt.model ]
}

# assert_fails PROG TEXT...: exit 1, one line "PROG: ..." containing each TEXT, no stdout.
assert_fails() {
	local prog="$1" t
	shift
	assert_status 1
	assert_stdout_empty
	if [[ "$stderr" != "$prog: "* ]]; then
		echo "expected a message starting '$prog: ', got: $stderr"
		return 1
	fi
	for t in "$@"; do
		assert_stderr_has "$t"
	done
	# one line: no second message, no sanitizer report (an ASan build
	# exits 1 on a leak too)
	if [ "$(printf '%s\n' "$stderr" | wc -l)" -ne 1 ]; then
		echo "expected one line on stderr, got: $stderr"
		return 1
	fi
}

# assert_same_predictions A B: two files in lapsvm-predict -d format with
# the same header and labels and decision values equal to 1e-12 relative
# (lapsvm-train -o uses the solver's own K; lapsvm-predict recomputes the
# kernel, which the BLAS may sum in another order).
assert_same_predictions() {
	if ! cmp -s <(cut -d' ' -f1 "$1") <(cut -d' ' -f1 "$2"); then
		echo "labels differ: $1 $2"
		diff <(cut -d' ' -f1 "$1") <(cut -d' ' -f1 "$2") | head -5
		return 1
	fi
	paste -d' ' "$1" "$2" | awk 'NR > 1 { d = $2 - $4; s = ($4 < 0 ? -$4 : $4) + 1
		if (d * d > 1e-24 * s * s) { print "row " NR ": " $2 " vs " $4; exit 1 } }'
}

# No temporary output files (".NAME.tmp.XXXXXX") left in directory $1.
assert_no_tmp_files() {
	local dir="${1:-.}" left
	left=$(find "$dir" -maxdepth 1 -name '.*.tmp.*' -print)
	if [ -n "$left" ]; then
		echo "temporary files left behind: $left"
		return 1
	fi
}

# ------------------------------------------------------------------ data

# small_data FILE: four 2-D points, labelled and unlabelled.
small_data() {
	printf '%s\n' \
		'1 1:0 2:0' \
		'1 1:1 2:0' \
		'-1 1:0 2:2' \
		'0 1:3 2:3' >"${1:-small.txt}"
}

# moons FILE [datagen options...]: a lapsvm-datagen two-moons set.
moons() {
	local f="$1"
	shift
	"$DG" "$@" moons "$f"
}

# ----------------------------------------------------------------- graphs

# check_graph FILE N: FILE is a well-formed graph over N rows: line i starts
# with i, then j:w with 1 <= j <= N, j increasing, j != i, w > 0, and W is
# exactly symmetric (the mirror entry has the same printed weight).  Prints
# every problem found; fails if there is any.
check_graph() {
	awk -v n="$2" '
	function bad(msg) { print FILENAME ":" NR ": " msg; nbad++ }
	{
		if ($1 != NR "") bad("row number " $1 ", expected " NR)
		prev = 0
		for (f = 2; f <= NF; f++) {
			if (split($f, a, ":") != 2) { bad("bad entry " $f); continue }
			j = a[1] + 0; w = a[2]
			if (a[1] !~ /^[0-9]+$/ || j < 1 || j > n) bad("bad column " a[1])
			if (j <= prev) bad("column " j " not after " prev)
			if (j == NR) bad("self loop")
			if (!(w + 0 > 0)) bad("weight " w " not > 0")
			W[NR "," j] = w
			prev = j
		}
	}
	END {
		if (NR != n) bad("found " NR " rows, expected " n)
		for (k in W) {
			split(k, p, ",")
			m = p[2] "," p[1]
			if (!(m in W)) bad("edge " k " has no mirror")
			else if (W[m] != W[k]) bad("edge " k ": " W[k] " vs " W[m])
		}
		exit (nbad > 0)
	}' "$1"
}

# edges FILE: the undirected edges "i j" (i < j), one a line, sorted.
edges() {
	awk '{ for (f = 2; f <= NF; f++) { split($f, a, ":");
		if (a[1] + 0 > $1 + 0) print $1, a[1] } }' "$1" | sort
}

# weights FILE: every weight, one a line.
weights() {
	awk '{ for (f = 2; f <= NF; f++) { split($f, a, ":"); print a[2] } }' "$1"
}

# need_data NAME: set DATA_PATH to the real data set NAME, or skip the test.
# (Not a command substitution: skip must run in the test's own shell.)
need_data() {
	if [ -z "$DATA" ]; then
		skip "LAPSVM_DATA is not set (real data sets not available)"
	fi
	if [ ! -f "$DATA/$1" ]; then
		skip "real data set $DATA/$1 not found"
	fi
	DATA_PATH="$DATA/$1"
}
