#!/usr/bin/env bats
# Label-aware base kernels (-s labelaware, common/labelaware.c): the model
# predicts the training rows as training did (its folded out-of-sample
# form), LIBSVM on the learned kernel K~ written by -x gives the same
# decision values, the alignment report, and every refusal.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$DG"
	enter_work
}

# max |column 2.. of A - of B| over the rows after the header
max_diff() {
	paste "$1" "$2" | awk 'NR > 1 { h = NF / 2
		for (j = 2; j <= h; j++) { d = $j - $(j + h); if (d < 0) d = -d
			if (d > m) m = d } } END { printf "%.3g\n", m + 0 }'
}

@test "lapsvm-predict gives the unlabeled training rows the decision values of training (1e-9)" {
	moons m.txt -S 3 -n 200 -l 10
	"$TRAIN" -q -s labelaware -o tr.pred m.txt a.model
	awk '$1 == 0' m.txt >u.txt
	"$PRED" -q -d u.txt a.model u.pred
	[ "$(wc -l <u.pred)" -eq 181 ]
	d=$(max_diff tr.pred u.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-9) }' || { echo "max diff $d"; false; }
}

@test "the model keeps k, the labeled rows per class and the u coefficients" {
	moons m.txt -S 3 -n 200 -l 10
	"$TRAIN" -q -s labelaware -n 7 m.txt a.model
	[ "$(key a.model solver)" = labelaware ]
	[ "$(key a.model labelaware_k)" = 7 ]
	[ "$(key a.model labelaware_rows)" = "10 10" ]
	[ "$(key a.model labelaware_u | wc -w)" -eq 2 ]
	[ "$(key a.model nr_sv)" = 200 ]
}

@test "default k is n/10 (the paper's top 10%)" {
	moons m.txt -S 3 -n 200 -l 10
	"$TRAIN" -q -s labelaware m.txt a.model
	[ "$(key a.model labelaware_k)" = 20 ]
}

@test "unseen points: lapsvm-predict labels a fresh moons sample well" {
	moons m.txt -S 3 -n 200 -l 10
	moons t.txt -S 4 -n 100
	"$TRAIN" -q -s labelaware m.txt a.model
	run --separate-stderr "$PRED" t.txt a.model out
	[ "$status" -eq 0 ]
	acc=$(printf '%s\n' "$output" | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a >= 90) }' || { echo "accuracy $acc"; false; }
}

@test "stderr reports the centered alignment of the learned and the input kernel" {
	moons m.txt -S 3 -n 200 -l 10
	run --separate-stderr "$TRAIN" -s labelaware m.txt a.model
	[ "$status" -eq 0 ]
	assert_stderr_regex "centered alignment with the labels on the labeled block: learned kernel 0\.[0-9]+, input kernel 0\.[0-9]+"
	assert_stderr_has "2 label-aware vectors u, 20 kernel eigenvectors v"
}

@test "three classes: one-vs-rest, training rows predicted as training did" {
	printf '%s\n' '1 1:0 2:0' '1 1:0.1 2:0' '2 1:3 2:0' '2 1:3.1 2:0.1' \
		'3 1:0 2:3' '3 1:0.1 2:3.1' '0 1:0.2 2:0.1' '0 1:2.9 2:0.2' \
		'0 1:0.1 2:2.8' '0 1:1.5 2:1.5' >c.txt
	"$TRAIN" -q -s labelaware -n 3 -o tr.pred c.txt c.model
	[ "$(key c.model labelaware_rows)" = "2 2 2" ]
	[ "$(key c.model labelaware_u | wc -w)" -eq 9 ]
	awk '$1 == 0' c.txt >u.txt
	"$PRED" -q -d u.txt c.model u.pred
	d=$(max_diff tr.pred u.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-9) }' || { echo "max diff $d"; false; }
	[ "$(cut -d' ' -f1 u.pred | tail -n +2 | head -3 | tr '\n' ' ')" = "1 2 3 " ]
}

# LIBSVM's -t 4 model (SV lines 'coef 0:s') as a lapsvm model of the same
# decision function over N rows (as in precomputed.bats).
libsvm_t4_to_lapsvm() {
	awk -v n="$3" '
	sv { print; next }
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
	}' "$1" >"$2"
}

@test "LIBSVM's svm-train -t 4 on the -x learned kernel gives labelaware's decision values (1e-4)" {
	command -v svm-train >/dev/null || skip "LIBSVM's svm-train not installed (Debian: libsvm-tools)"
	moons m.txt -S 1 -n 60 -l 10
	"$TRAIN" -q -s labelaware -n 6 -c 1 -e 1e-8 -x k.t4 m.txt a.model
	[ "$(wc -l <k.t4)" -eq 60 ]
	awk '$1 != 0' k.t4 >kl.t4
	svm-train -q -s 0 -t 4 -c 1 -e 1e-8 kl.t4 libsvm.model
	libsvm_t4_to_lapsvm libsvm.model conv.model 60
	# LIBSVM on the rows of K~ (the training rows), lapsvm's model on
	# the features of the same rows
	"$PRED" -q -d k.t4 conv.model dv.libsvm
	"$PRED" -q -d m.txt a.model dv.lapsvm
	[ "$(head -n 1 dv.libsvm)" = "$(head -n 1 dv.lapsvm)" ]
	d=$(max_diff dv.libsvm dv.lapsvm)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-4) }' || { echo "LIBSVM vs labelaware: max diff $d"; false; }
}

@test "more kernel eigenvectors than rows is refused (exit 1, no model)" {
	small_data m.txt
	printf '%s\n' '-1 1:0 2:2.1' >>m.txt
	run --separate-stderr "$TRAIN" -s labelaware -n 6 m.txt a.model
	assert_fails lapsvm-train "6 kernel eigenvectors asked for, but the kernel matrix has only n = 5 rows"
	[ ! -e a.model ]
}

@test "more kernel eigenvectors than the kernel's numerical rank is refused" {
	moons m.txt -S 3 -n 40 -l 3
	run --separate-stderr "$TRAIN" -s labelaware -t 0 -n 3 m.txt a.model
	assert_fails lapsvm-train "the kernel matrix has 2 eigenvalues above 1e-10 of the largest, fewer than the 3 eigenvectors asked for"
	# no -n: the message says the count is the default's, not the user's
	run --separate-stderr "$TRAIN" -s labelaware -t 0 m.txt a.model
	assert_fails lapsvm-train "fewer than the 4 eigenvectors of the default -n (n/10): the Nystrom extension v_j(x) divides by lambda_j (ask for at most 2 with -n"
}

@test "a class with one labeled row is refused" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -s labelaware -n 2 m.txt a.model
	assert_fails lapsvm-train "class -1 has 1 labeled row: the label-aware kernel needs at least two per class"
}

@test "-n 0 is a usage error" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -s labelaware -n 0 m.txt
	assert_bad_option n "out of range"
	[ ! -e m.txt.model ]
}

@test "-n without -s labelaware is a usage error" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -n 3 m.txt
	assert_train_usage "-n is the number of eigenvectors of -s labelaware and -s kdesign"
}

@test "-s labelaware takes no graph" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -s labelaware -k 3 m.txt
	assert_train_usage "the label-aware kernel SVM uses no graph"
}

@test "a labelaware model whose labeled counts exceed nr_sv is refused" {
	moons m.txt -S 3 -n 40 -l 3
	"$TRAIN" -q -s labelaware -n 4 m.txt a.model
	sed 's/^labelaware_rows .*/labelaware_rows 30 30/' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "labelaware_rows sum to more than nr_sv = 40"
}

@test "a labelaware model with a count per class missing, or a count of 1, is refused" {
	moons m.txt -S 3 -n 40 -l 3
	"$TRAIN" -q -s labelaware -n 4 m.txt a.model
	sed 's/^labelaware_rows .*/labelaware_rows 3/' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "wrong number of labelaware_rows (found 1, expected nr_class = 2)"
	sed 's/^labelaware_rows .*/labelaware_rows 3 1/' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "bad count in labelaware_rows"
}

@test "a labelaware model with a non-finite u coefficient or without its keys is refused" {
	moons m.txt -S 3 -n 40 -l 3
	"$TRAIN" -q -s labelaware -n 4 m.txt a.model
	sed 's/^labelaware_u .*/labelaware_u nan 1/' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "bad value in labelaware_u"
	grep -v '^labelaware_u' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "missing key 'labelaware_u'"
	sed 's/^solver labelaware/solver lapsvm/' a.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "label-aware terms in a model that is not labelaware"
}

# digit1_draw FILE TRUTH: Digit1 with 50 labels per class drawn with seed 1
# (the others marked 0), the true labels of the unlabeled rows in TRUTH
digit1_draw() {
	zcat "$DATA_PATH" | awk -v out="$1" -v truth="$2" 'BEGIN { srand(1) }
		{ y[NR] = $1; $1 = ""; x[NR] = $0; r[NR] = rand() }
		END {
			# the 50 rows of each class with the smallest r
			for (i = 1; i <= NR; i++) print r[i], i, y[i] | "sort -g > draw.tmp"
			close("sort -g > draw.tmp")
			while ((getline line < "draw.tmp") > 0) {
				split(line, f, " ")
				if (cnt[f[3]]++ < 50) lab[f[2]] = 1
			}
			for (i = 1; i <= NR; i++) {
				print (i in lab ? y[i] : 0) x[i] > out
				if (!(i in lab)) print y[i] > truth
			}
		}'
}

# error PRED TRUTH: the percentage of rows of PRED (lapsvm-predict -d
# format) whose label differs from TRUTH's
error_pct() {
	paste -d' ' <(tail -n +2 "$1" | cut -d' ' -f1) "$2" |
		awk '$1 != $2 { e++ } END { printf "%.2f\n", 100 * e / NR }'
}

@test "-N m: the model predicts the unlabeled training rows as training did (1e-9), over labeled rows and landmarks" {
	moons m.txt -S 3 -n 200 -l 10
	"$TRAIN" -q -s labelaware -N 60 -o tr.pred m.txt a.model
	[ "$(key a.model landmarks)" = 60 ]
	nsv=$(key a.model nr_sv)
	[ "$nsv" -ge 60 ] && [ "$nsv" -le 80 ]
	awk '$1 == 0' m.txt >u.txt
	"$PRED" -q -d u.txt a.model u.pred
	d=$(max_diff tr.pred u.pred)
	awk -v d="$d" 'BEGIN { exit !(d < 1e-9) }' || { echo "max diff $d"; false; }
}

@test "-N beyond the rows takes every row, records n landmarks, and the model predicts" {
	moons m.txt -S 3 -n 60 -l 5
	"$TRAIN" -q -s labelaware -N 61 m.txt big.model
	[ "$(key big.model landmarks)" = 60 ]
	"$TRAIN" -q -s labelaware -N 60 m.txt all.model
	cmp big.model all.model
	run --separate-stderr "$PRED" -q m.txt big.model out.txt
	assert_status 0
}

@test "-N m on Digit1: error close to the exact eigenvectors', and no n x n array (the -m guard does not fire)" {
	need_data ssl_digit1.libsvm.gz
	digit1_draw d.txt truth
	[ "$(awk '$1 != 0' d.txt | wc -l)" -eq 100 ]
	"$TRAIN" -q -s labelaware -o exact.pred d.txt exact.model
	# the exact path needs K, K_nl (counted as n x n), the n x k base
	# vectors and lsv_eig_extreme's copy and dsyevd fallback, 5 n^2 +
	# n k + O(n) doubles (92.74 MB): refused under -m 20 (and -m 60, over
	# the old count of 3 n^2, 54 MB) ...
	run --separate-stderr "$TRAIN" -q -s labelaware -m 20 d.txt x.model
	assert_fails lapsvm-train "would need 92.74 MB, over the memory limit (-m) of 20.00 MB" "-N m (memory O(n m))"
	run --separate-stderr "$TRAIN" -q -s labelaware -m 60 d.txt x.model
	assert_fails lapsvm-train "would need 92.74 MB, over the memory limit (-m) of 60.00 MB"
	# ... the Nystrom path fits in it
	"$TRAIN" -q -s labelaware -m 20 -N 200 -S 2 -o nys.pred d.txt nys.model
	e1=$(error_pct exact.pred truth)
	e2=$(error_pct nys.pred truth)
	echo "exact $e1%, Nystrom (200 landmarks) $e2%"
	awk -v a="$e1" -v b="$e2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a < 15 && d < 3) }'
}

@test "-N m: more eigenvectors than the landmarks' rank, and -N with -J laplacian, are refused" {
	moons m.txt -S 3 -n 100 -l 5
	run --separate-stderr "$TRAIN" -q -s labelaware -N 5 -n 8 m.txt a.model
	assert_fails lapsvm-train "8 kernel eigenvectors asked for, but the Nystrom approximation from 5 landmarks has rank 5"
	run --separate-stderr "$TRAIN" -s labelaware -J laplacian -N 5 m.txt
	assert_train_usage "-N (Nystrom landmarks) approximates the kernel's eigenvectors: not with -J laplacian"
}
