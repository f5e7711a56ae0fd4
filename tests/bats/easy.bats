#!/usr/bin/env bats
# tools/lapsvm-easy: scale, graph, cross validation, training and prediction
# in one command.  All or nothing: the outputs go into place only when every
# step succeeded.

load helpers

EASY="$BATS_TEST_DIRNAME/../../tools/lapsvm-easy"

setup() {
	need_tools "$GB" "$TRAIN" "$PRED" "$DG"
	enter_work
	export LAPSVM_BIN="$BIN"
	# two moons, 3 labels per class, with a third feature in other units
	# (0 to 1000, noise): the scaling must bring it to [0, 1]
	"$DG" -S 3 -l 3 moons m.txt
	awk '{ srand(NR); print $0 " 3:" int(1000 * rand()) }' m.txt >tr.txt
	"$DG" -S 8 moons t.txt
	awk '{ srand(NR + 7); print $0 " 3:" int(1000 * rand()) }' t.txt >te.txt
}

@test "one command scales, builds the graph, cross validates, trains and predicts; the files say so, the graph's record included" {
	run --separate-stderr "$EASY" tr.txt te.txt
	assert_status 0
	[[ "$output" == *"Best: -s lapsvm -a "*" -i "*" (cross validation, 3 folds: accuracy "*"%)"* ]]
	[[ "$output" == *"Written: tr.txt.range tr.txt.scale tr.txt.scale.graph tr.txt.scale.graph.knn tr.txt.grid tr.txt.scale.model te.txt.scale te.txt.predict"* ]]
	[[ "$output" == *"Accuracy = "*"% ("*"/200) (classification)"* ]]
	# the model is lapsvm-train's with the best line's options on these files
	local best
	best=$(sed -n 's/^best: //p' tr.txt.grid)
	# shellcheck disable=SC2086
	"$TRAIN" -q -s lapsvm -u 0 $best -G tr.txt.scale.graph tr.txt.scale again.model
	cmp again.model tr.txt.scale.model
	"$PRED" te.txt.scale tr.txt.scale.model again.predict >/dev/null
	cmp again.predict te.txt.predict
	# every file it wrote is named on stdout
	local f
	for f in tr.txt.*; do
		[[ "$output" == *" $f"* ]]
	done
	# every value of the scaled files in [0, 1] (the test's may leave it)
	awk '{ for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[2] < 0 || a[2] > 1) exit 1 } }' tr.txt.scale
	[ -z "$(ls -A | grep '^\.lapsvm-easy')" ]
}

@test "the range file and the scaled rows agree with svm-scale's (-l 0 -u 1)" {
	command -v svm-scale >/dev/null || skip "svm-scale (libsvm-tools) not installed"
	# a feature with negative values and implicit zeros, one constant
	printf '%s\n' '1 1:-2 2:5 4:3' '-1 2:7 4:3' '0 1:4 3:1 4:3' '1 1:1 2:6 3:2 4:3' >s.txt
	printf '%s\n' '1 1:10 2:6 3:1 5:8' '-1 4:3' >st.txt
	run --separate-stderr "$EASY" -T "-a 1e-3" s.txt st.txt
	svm-scale -l 0 -u 1 -s ref.range s.txt >ref.scale
	svm-scale -r ref.range st.txt >ref.tscale
	# the same bounds, number by number
	paste -d ' ' ref.range s.txt.range | awk 'NR <= 2 { if ($0 != "x x" && $0 != "0 1 0 1") exit 1; next }
		{ if ($1 != $4 || $2 != $5 || $3 != $6) exit 1 }'
	# the same rows to 1e-6 (svm-scale prints %g)
	for p in "ref.scale s.txt.scale" "ref.tscale st.txt.scale"; do
		set -- $p
		paste -d '|' "$1" "$2" | awk -F'|' '{ n = split($1, a, " "); m = split($2, b, " ")
			if (n != m || a[1] != b[1]) exit 1
			for (i = 2; i <= n; i++) { split(a[i], x, ":"); split(b[i], y, ":")
				if (x[1] != y[1] || (x[2] - y[2])^2 > 1e-12) exit 1 } }' ||
			{ echo "$1 and $2 differ"; paste "$1" "$2"; false; }
	done
}

@test "-n: no scaling, no range file, the data as they are" {
	run --separate-stderr "$EASY" -n -s laprls tr.txt te.txt
	assert_status 0
	[ ! -e tr.txt.range ]
	cmp tr.txt tr.txt.scale
	cmp te.txt te.txt.scale
	[[ "$output" == *"Best: -s laprls "* ]]
	grep -q '^solver laprls' tr.txt.scale.model || grep -qi 'laprls' tr.txt.scale.model
}

@test "a class with one labeled row: no cross validation, said on stderr, the model at the defaults" {
	"$DG" -S 3 -l 1 moons one.txt
	run --separate-stderr "$EASY" one.txt
	assert_status 0
	assert_stderr_has "lapsvm-easy: a class has a single labeled row: no cross validation; the model is trained at lapsvm-train's defaults"
	[ ! -e one.txt.grid ]
	[ -s one.txt.scale.model ]
	[[ "$output" != *"Best:"* ]]
}

@test "-v is lowered to the smallest class's labeled count" {
	run --separate-stderr "$EASY" -v 10 tr.txt
	assert_status 0
	[[ "$output" == *"(cross validation, 3 folds:"* ]]
	grep -q '^# 3-fold stratified cross validation' tr.txt.grid
}

@test "a bad row of the training or test file: lapsvm-easy: FILE:LINE and the reason, exit 1, nothing written" {
	sed '4s/1:[^ ]*/1:abc/' tr.txt >bad.txt
	run --separate-stderr "$EASY" bad.txt te.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: bad.txt:4: bad value for feature 1 (found 'abc', expected a number)"
	sed '6s/2:/0:/' te.txt >badt.txt
	run --separate-stderr "$EASY" tr.txt badt.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: badt.txt:6: bad feature index '0' (expected an integer of at least 1)"
	printf '1 2:1 1:3\n' >order.txt
	run --separate-stderr "$EASY" order.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: order.txt:1: feature index 1 after 2 (expected increasing indices)"
	[ "$(ls -A | LC_ALL=C sort)" = "$(printf '%s\n' bad.txt badt.txt m.txt order.txt t.txt te.txt tr.txt)" ]
}

@test "a tool's failure is its message, exit 1, nothing written" {
	run --separate-stderr "$EASY" -T "-t 9" tr.txt te.txt
	assert_status 1
	[[ "$stderr" == "lapsvm-easy: lapsvm-train: "* ]]
	[ ! -e tr.txt.scale ] && [ ! -e tr.txt.range ] && [ ! -e tr.txt.scale.model ]
	printf '0 1:1\n0 1:2\n' >none.txt
	run --separate-stderr "$EASY" none.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: none.txt: 0 class(es) among the labeled rows (label 0 marks the unlabeled rows; -u gives another)"
	: >empty.txt
	run --separate-stderr "$EASY" empty.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: empty.txt: no data rows"
	[ -z "$(ls -A | grep -v '\.txt$')" ]
}

@test "usage: bad options exit 2; -h prints the help on stdout; file names checked" {
	run --separate-stderr "$EASY" -s tsvm tr.txt
	assert_status 2
	assert_stderr_has "lapsvm-easy: -s 'tsvm': expected lapsvm or laprls"
	run --separate-stderr "$EASY" -v 1 tr.txt
	assert_status 2
	run --separate-stderr "$EASY"
	assert_status 2
	run --separate-stderr "$EASY" a b c
	assert_status 2
	run --separate-stderr "$EASY" -h
	assert_status 0
	[[ "$output" == "usage: lapsvm-easy "* ]]
	run --separate-stderr "$EASY" - te.txt
	assert_status 1
	assert_stderr_has "standard input cannot be read twice"
	run --separate-stderr "$EASY" missing.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: missing.txt: cannot read"
	mkdir d && cp te.txt d/tr.txt
	run --separate-stderr "$EASY" tr.txt d/tr.txt
	assert_status 1
	assert_stderr_has "the same base name as the training file"
}

# lapsvm-train takes the last of a repeated option and the script's own
# came after -T's: -T '-a 1' trained with the grid's -a, -T '-v 3' ran 5
# folds and said so, -T '-s boost' failed on the grid's -a
@test "-T with an option the script sets itself (-s, -u, -v, -S, -a, -i, -G ...) is a usage error, not dropped" {
	local t
	for t in "-s laprls" "-v 3" "-u -1" "-S 4" "-a 1" "-A 1" "-c 10" "-i 0.1" "-I 1" "-qi 1" "-G g" "-F list" "-k 10"; do
		run --separate-stderr "$EASY" -T "$t" tr.txt
		assert_status 2
		assert_stderr_has "lapsvm-easy: -T '$t': -"
	done
	# a precomputed kernel: rows of kernel values, nothing to scale (it
	# failed in the scaling pass on 'bad feature index 0')
	for t in "-t 4" "-t4" "-g 2 -t 4"; do
		run --separate-stderr "$EASY" -T "$t" tr.txt
		assert_status 2
		assert_stderr_has "lapsvm-easy: -T '$t': -t 4 (a precomputed kernel) cannot be scaled"
	done
	[ -z "$(ls -A | grep -v '\.txt$')" ]
	# kernel and Laplacian options pass, a negative value included
	run --separate-stderr "$EASY" -T "-t 1 -d 2 -r -1 -L unnormalized -qP 2" tr.txt
	assert_status 0
	grep -q '^laplacian_power 2$' tr.txt.scale.model
}

# the scaling pass read the CR as part of the last value: every row of a
# Windows file was refused ("bad value for feature 3 (found '512',
# expected a number)", the CR echoed raw), though every tool reads CRLF
@test "CRLF files: scaled, trained and predicted as their LF twins; a CR inside a value is shown as \\r" {
	sed 's/$/\r/' tr.txt >crlf.txt
	sed 's/$/\r/' te.txt >crlft.txt
	cp tr.txt lf.txt
	cp te.txt lft.txt
	run --separate-stderr "$EASY" crlf.txt crlft.txt
	assert_status 0
	"$EASY" lf.txt lft.txt >/dev/null
	cmp crlf.txt.range lf.txt.range
	cmp crlf.txt.scale lf.txt.scale
	cmp crlft.txt.scale lft.txt.scale
	cmp crlft.txt.predict lft.txt.predict
	printf '1 1:2\r3\n-1 1:1\n' >cr.txt
	run --separate-stderr "$EASY" cr.txt
	assert_status 1
	assert_stderr_has "lapsvm-easy: cr.txt:1: bad value for feature 1 (found '2\\r3', expected a number)"
	assert_stderr_safe
}
