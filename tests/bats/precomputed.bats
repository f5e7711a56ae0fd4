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

@test "-x writes the kernel over the training rows; -t 4 on it trains the same model" {
	fixture
	"$TRAIN" -q -s laprls -t 2 -g 4 -G m.graph -x k.t4 m.txt a.model
	[ "$(wc -l <k.t4)" -eq 40 ]
	head -n 1 k.t4 | awk '{ exit !($2 == "0:1" && NF == 42) }'
	"$TRAIN" -q -s laprls -t 4 -G m.graph k.t4 b.model
	"$PRED" -q -d t.txt a.model a.pred
	"$PRED" -q -d t.t4 b.model b.pred
	d=$(max_diff a.pred b.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-10) }' || { echo "max diff $d"; false; }
}

@test "-x from a -t 4 file in shuffled order keeps each row's serial number: test files still fit" {
	fixture
	awk 'BEGIN { srand(3) } { print rand() "\t" $0 }' m.t4 | sort -n | cut -f2- >shuf.t4
	! cmp -s m.t4 shuf.t4
	"$TRAIN" -q -t 4 -i 0 -x k.t4 shuf.t4 a.model
	# the same kernel entries, each under its row's serial number
	cmp <(sort shuf.t4) <(sort k.t4) || {
		awk '{ print $2 }' k.t4 | head -3; false; }
	"$TRAIN" -q -t 4 -i 0 k.t4 b.model
	"$PRED" -q -d t.t4 a.model a.pred
	"$PRED" -q -d t.t4 b.model b.pred
	cmp a.pred b.pred
}

@test "a kernel file read as features (no -t 4) is named as one, with the way to read it" {
	fixture
	"$TRAIN" -q -t 2 -g 4 -G m.graph m.txt f.model
	local msg="feature index out of range (found '0', expected 1..2147483647; a first feature 0:serial is a precomputed kernel's row, read with -t 4)"
	run --separate-stderr "$PRED" t.t4 f.model out.txt
	assert_fails lapsvm-predict "t.t4:1: $msg"
	run --separate-stderr "$TRAIN" -G m.graph m.t4 g.model
	assert_fails lapsvm-train "m.t4:1: $msg"
	[ ! -e out.txt ] && [ ! -e g.model ]
	# an index 0 after others is only out of range
	printf '1 1:1 0:2\n' >z.txt
	run --separate-stderr "$TRAIN" z.txt z.model
	assert_fails lapsvm-train "z.txt:1: feature index out of range (found '0', expected 1..2147483647)"
}

@test "-x - with the model on standard output is a usage error" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -x - m.txt -
	assert_train_usage "-x - and another output on standard output would mix"
}

# LIBSVM's -t 4 model (SV lines 'coef 0:s') as a lapsvm model of the same
# decision function, f = sum coef_i K(x, x_{s_i}) - rho, over N rows.
libsvm_t4_to_lapsvm() {
	awk -v n="$3" '
	function die(msg) { print "libsvm_t4_to_lapsvm: " msg > "/dev/stderr"; bad = 1; exit 1 }
	sv { print; k++; next }
	$1 == "kernel_type" && $2 != "precomputed" { die("kernel_type " $2) }
	$1 == "nr_class" && $2 != 2 { die("nr_class " $2) }
	$1 == "total_sv" { total = $2 }
	$1 == "rho" { rho = $2 }
	$1 == "label" { labels = $2 " " $3 }
	$1 == "SV" {
		sv = 1
		print "lapsvm_model 1"; print "solver lapsvm"; print "kernel precomputed"
		print "degree 3"; print "gamma 1"; print "coef0 0"; print "gamma_A 1"
		print "gamma_I 0"; print "laplacian normalized"; print "laplacian_power 1"
		print "eps 0.001"; print "max_iter 0"; print "l " n; print "u 0"
		print "unlabeled_marker 0"; print "nr_class 2"; print "labels " labels
		print "nr_fn 1"
		print "bias " (substr(rho, 1, 1) == "-" ? substr(rho, 2) : "-" rho)
		print "nr_sv " total; print "SV"
	}
	END { if (!bad && k != total) die("found " k " SV lines, expected " total) }
	' "$1" >"$2"
}

@test "LIBSVM's svm-train -t 4 on the -x kernel gives lapsvm's decision values (1e-4)" {
	command -v svm-train >/dev/null || skip "LIBSVM's svm-train not installed (Debian: libsvm-tools)"
	"$DG" -S 1 -n 60 -l 10 moons m.txt
	"$DG" -S 2 -n 30 moons t.txt
	"$TRAIN" -q -i 0 -t 2 -g 4 -c 1 -e 1e-8 -x k.t4 m.txt a.model
	python3 "$T4" 4 m.txt t.txt >t.t4
	# LIBSVM trains on the labeled rows; their serial numbers index the
	# columns of all 60 rows, as lapsvm's SVM at gamma_I = 0 does
	awk '$1 != 0' k.t4 >kl.t4
	svm-train -q -s 0 -t 4 -c 1 -e 1e-8 kl.t4 libsvm.model
	libsvm_t4_to_lapsvm libsvm.model conv.model 60
	"$TRAIN" -q -i 0 -t 4 -c 1 -e 1e-8 k.t4 b.model
	"$PRED" -q -d t.t4 conv.model dv.libsvm
	"$PRED" -q -d t.t4 b.model dv.lapsvm
	"$PRED" -q -d t.txt a.model dv.features
	# same class order (+1 first in both), then the values
	[ "$(head -n 1 dv.libsvm)" = "$(head -n 1 dv.lapsvm)" ]
	d=$(max_diff dv.libsvm dv.lapsvm)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-4) }' || { echo "LIBSVM vs lapsvm -t 4: max diff $d"; false; }
	d=$(max_diff dv.features dv.lapsvm)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-4) }' || { echo "-t 2 vs -t 4: max diff $d"; false; }
}
