#!/usr/bin/env bats
# Precomputed kernels (-t 4, LIBSVM's format 'label 0:i 1:K(i,1) ...'):
# lapsvm-train and lapsvm-predict on a kernel written independently
# (tests/bats/rbf-t4.py, pure Python) give the decision values of the same
# kernel computed from the features; and every malformed kernel file is
# refused with 'prog: file:line: what'.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	command -v python3 >/dev/null || skip "python3 not installed"
	enter_work
	T4="$BATS_TEST_DIRNAME/rbf-t4.py"
}

# 40 moons rows (3 labeled per class), 12 test rows, a 6-NN graph, and
# the RBF (gamma 4) kernel of both as -t 4 files.
fixture() {
	"$DG" -S 1 -n 40 -l 3 moons m.txt
	"$DG" -S 2 -n 12 moons t.txt
	"$GB" -q -k 6 m.txt m.graph
	python3 "$T4" 4 m.txt >m.t4
	python3 "$T4" 4 m.txt t.txt >t.t4
}

# max |column 2.. of A - of B| over the rows after the header
max_diff() {
	paste "$1" "$2" | awk 'NR > 1 { h = NF / 2
		for (j = 2; j <= h; j++) { d = $j - $(j + h); if (d < 0) d = -d
			if (d > m) m = d } } END { printf "%.3g\n", m + 0 }'
}

@test "LapRLS on a precomputed RBF kernel predicts as on the features (1e-10)" {
	fixture
	"$TRAIN" -q -s laprls -t 2 -g 4 -G m.graph m.txt a.model
	"$TRAIN" -q -s laprls -t 4 -G m.graph m.t4 b.model
	"$PRED" -q -d t.txt a.model a.pred
	"$PRED" -q -d t.t4 b.model b.pred
	d=$(max_diff a.pred b.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-10) }' || { echo "max diff $d"; false; }
	cut -d' ' -f1 a.pred >a.lab
	cut -d' ' -f1 b.pred >b.lab
	assert_same a.lab b.lab
}

@test "LapSVM on a precomputed kernel with the graph: same decisions (1e-6)" {
	fixture
	"$TRAIN" -q -e 1e-8 -t 2 -g 4 -G m.graph m.txt a.model
	"$TRAIN" -q -e 1e-8 -t 4 -G m.graph m.t4 b.model
	"$PRED" -q -d t.txt a.model a.pred
	"$PRED" -q -d t.t4 b.model b.pred
	d=$(max_diff a.pred b.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-6) }' || { echo "max diff $d"; false; }
}

@test "the model of a precomputed kernel stores training serial numbers, as LIBSVM" {
	fixture
	"$TRAIN" -q -s laprls -t 4 -G m.graph m.t4 b.model
	[ "$(key b.model kernel)" = precomputed ]
	[ "$(sv_lines b.model | wc -l)" -eq 40 ]
	# each SV line: one coefficient, then 0:s alone, s = 1..40 in order
	sv_lines b.model | awk '{ if (NF != 2 || $2 != "0:" NR) { print; exit 1 } }'
}

@test "SVM (-i 0) on a precomputed kernel needs no graph" {
	fixture
	run --separate-stderr "$TRAIN" -q -i 0 -t 4 m.t4 b.model
	assert_status 0
	"$PRED" -q t.t4 b.model b.pred
	[ "$(wc -l <b.pred)" -eq 12 ]
}

@test "-t 4 with a graph term and no -G is a usage error" {
	fixture
	cp m.t4 m.txt
	run --separate-stderr "$TRAIN" -t 4 m.txt
	assert_train_usage "-t 4 (precomputed kernel) needs the graph given with -G"
}

@test "-t 3 (sigmoid) is a usage error" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -t 3 m.txt
	assert_train_usage "option -t: 3 (LIBSVM's sigmoid) is not supported"
}

# A 3 x 3 kernel, rows in the order 2, 3, 1 of their serial numbers.
k3() {
	printf '%s\n' \
		'1 0:2 1:0.5 2:1 3:0.25' \
		'-1 0:3 1:0.125 2:0.25 3:1' \
		'1 0:1 1:1 2:0.5 3:0.125' >k.t4
}

@test "serial numbers in any order: K(p,q) = row p at column s_q" {
	k3
	run --separate-stderr "$TRAIN" -q -s laprls -i 0 -t 4 k.t4 k.model
	assert_status 0
	[ "$(sv_lines k.model | awk '{ print $2 }' | tr '\n' ' ')" = "0:2 0:3 0:1 " ]
}

@test "non-symmetric kernel: file:line and both values" {
	k3
	sed -i '1s/2:1 3:0.25/2:1 3:0.3/' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:1: kernel not symmetric: K(2,3) = 0.29999999999999999 here but K(3,2) = 0.25 on line 2" "1e-06 x max|K|"
}

@test "NaN in a kernel: file:line" {
	k3
	sed -i '2s/2:0.25/2:nan/' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:2: bad kernel value in column 2" "expected a finite number"
}

@test "a repeated serial number names both lines" {
	k3
	sed -i '3s/0:1/0:2/' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:3: serial number 2 repeated (first on line 1"
}

@test "a serial number beyond the rows" {
	k3
	sed -i '3s/0:1/0:7/' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:3: serial number 7 out of range (expected 1..3"
}

@test "a row without its serial number" {
	k3
	sed -i '2s/0:3 //' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:2: missing serial number (found '1:0.125', expected 0:i first"
}

@test "a missing kernel column" {
	k3
	sed -i '2s/ 2:0.25//' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:2: missing kernel column (found index 3 after 1, expected 2"
}

@test "a row count different from the kernel's columns" {
	k3
	sed -i '3d' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4: 2 rows but 3 kernel columns per row (expected a square training kernel"
}

@test "rows of different lengths" {
	k3
	sed -i '2s/ 3:1$//' k.t4
	run --separate-stderr "$TRAIN" -i 0 -t 4 k.t4 k.model
	assert_fails lapsvm-train "k.t4:2: 2 kernel columns, but line 1 has 3"
}

@test "a graph of another size than the kernel's rows" {
	k3
	printf '%s\n' '1 2:1' '2 1:1' >g2
	run --separate-stderr "$TRAIN" -t 4 -G g2 k.t4 k.model
	assert_status 1
	assert_stderr_has "g2"
}

@test "predict: a test row with too few or too many columns" {
	fixture
	"$TRAIN" -q -s laprls -t 4 -G m.graph m.t4 b.model
	sed '2s/ 40:[^ ]*$//' t.t4 >short.t4
	run --separate-stderr "$PRED" short.t4 b.model out
	assert_fails lapsvm-predict "short.t4:2: missing kernel columns (found 39, expected 40"
	sed '2s/$/ 41:0.5/' t.t4 >long.t4
	run --separate-stderr "$PRED" long.t4 b.model out
	assert_fails lapsvm-predict "long.t4:2: kernel column 41 beyond the model's 40 training rows"
}

@test "predict: the serial number of a test row may be any number or ?" {
	fixture
	"$TRAIN" -q -s laprls -t 4 -G m.graph m.t4 b.model
	"$PRED" -q -d t.t4 b.model a.pred
	sed 's/ 0:? / 0:0 /' t.t4 >t0.t4
	"$PRED" -q -d t0.t4 b.model b.pred
	assert_same a.pred b.pred
}

@test "a precomputed model with a serial number beyond l + u is refused" {
	fixture
	"$TRAIN" -q -s laprls -t 4 -G m.graph m.t4 b.model
	sed 's/ 0:40$/ 0:41/' b.model >bad.model
	run --separate-stderr "$PRED" t.t4 bad.model out
	assert_fails lapsvm-predict "bad.model:" "bad serial number of SV 40" "expected 0:s, s in 1..40 (l + u), alone"
}
