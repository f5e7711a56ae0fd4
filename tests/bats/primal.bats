#!/usr/bin/env bats
# lapsvm-train -M newton: the primal solver on a feature map (Nystrom
# landmarks -N, or the sparse data themselves with the linear kernel), the
# model it writes, and the memory limit -m that refuses n x n methods.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
}

# m.txt: 200 two-moons points, one labeled row per class; all.txt: the
# same points with their labels; m.g: the moons' epsilon graph.
moons_problem() {
	"$DG" -S 1 -l 1 moons m.txt
	"$DG" -S 1 moons all.txt
	"$GB" -q -e 0.25 m.txt m.g
}

accuracy() {
	"$PRED" "$1" "$2" out.txt | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p'
}

@test "-M newton -N m: LapRLS and LapSVM on Nystrom features separate the moons" {
	moons_problem
	for s in laprls lapsvm; do
		run --separate-stderr "$TRAIN" -s $s -t 2 -g 4 -a 0.03125 -i 100 \
			-M newton -N 60 -G m.g m.txt $s.model
		assert_status 0
		assert_stderr_has "lapsvm-train: Newton:"
		[ "$(key $s.model method)" = newton ]
		[ "$(key $s.model landmarks)" = 60 ]
		[ "$(key $s.model seed)" = 1 ]
		[ "$(key $s.model nr_sv)" = 60 ]
		acc=$(accuracy all.txt $s.model)
		awk -v a="$acc" 'BEGIN { exit !(a >= 97) }' || { echo "$s: accuracy $acc"; false; }
	done
}

@test "-N: the landmarks come from -S; the same seed gives the same model" {
	moons_problem
	"$TRAIN" -q -s laprls -g 4 -M newton -N 30 -S 5 -G m.g m.txt a.model
	"$TRAIN" -q -s laprls -g 4 -M newton -N 30 -S 5 -G m.g m.txt b.model
	"$TRAIN" -q -s laprls -g 4 -M newton -N 30 -S 6 -G m.g m.txt c.model
	cmp a.model b.model
	! cmp -s <(sed '1,/^SV$/d' a.model) <(sed '1,/^SV$/d' c.model)
	[ "$(key c.model seed)" = 6 ]
}

@test "-N larger than the data takes every row as a landmark" {
	moons_problem
	run --separate-stderr "$TRAIN" -s laprls -g 4 -M newton -N 100000 -G m.g m.txt big.model
	assert_status 0
	[ "$(key big.model nr_sv)" = 200 ]
	# the model says how many landmarks it holds, not how many were asked
	[ "$(key big.model landmarks)" = 200 ]
}

@test "a Nystrom model claiming more landmarks than its training rows, or fewer than its points, is refused at load" {
	moons_problem
	"$TRAIN" -q -s laprls -g 4 -M newton -N 30 -G m.g m.txt a.model
	ln=$(grep -n '^landmarks ' a.model | cut -d: -f1)
	sed 's/^landmarks 30$/landmarks 2147483647/' a.model >huge.model
	run --separate-stderr "$PRED" all.txt huge.model out.txt
	assert_status 1
	assert_stderr_has "lapsvm-predict: huge.model:$ln: landmarks 2147483647 is more than the l + u = 200 training rows they were sampled from (expected 1..200)"
	[ ! -e out.txt ]
	sed 's/^landmarks 30$/landmarks 29/' a.model >few.model
	ln=$(grep -n '^nr_sv ' a.model | cut -d: -f1)
	run --separate-stderr "$PRED" all.txt few.model out.txt
	assert_status 1
	assert_stderr_has "lapsvm-predict: few.model:$ln: nr_sv 30 is more than the model's 29 landmarks"
	# the one it was trained with still loads
	run --separate-stderr "$PRED" all.txt a.model out.txt
	assert_status 0
}

@test "-M newton with the linear kernel: one weight vector per function, no kernel expansion" {
	moons_problem
	run --separate-stderr "$TRAIN" -s lapsvm -t 0 -M newton -G m.g m.txt lin.model
	assert_status 0
	assert_stderr_has "lapsvm-train: conjugate gradient:"
	[ "$(key lin.model nr_sv)" = 1 ]
	[ "$(key lin.model kernel)" = linear ]
	run "$PRED" all.txt lin.model out.txt
	assert_status 0
	[ "$(wc -l <out.txt)" -eq 200 ]
}

@test "-M newton with the linear kernel: -e sets the conjugate gradient's stop" {
	# 3 unknowns (two features and the bias): CG ends in 3 iterations at
	# the default 1e-6, sooner at 0.1
	moons_problem
	its() { sed -n 's/.*conjugate gradient: \([0-9]*\) iterations.*/\1/p' <<<"$1"; }
	run --separate-stderr "$TRAIN" -s lapsvm -t 0 -M newton -G m.g m.txt a.model
	assert_status 0
	a=$(its "$stderr")
	run --separate-stderr "$TRAIN" -s lapsvm -t 0 -M newton -e 0.1 -G m.g m.txt b.model
	assert_status 0
	b=$(its "$stderr")
	[ "$b" -lt "$a" ]
}

@test "-M newton linear equals the exact Nystrom map of the linear kernel (every row a landmark)" {
	# the same objective two ways: CG on the sparse rows, and Cholesky on
	# the features of K = X X' itself: the same decision values
	moons_problem
	"$TRAIN" -q -s lapsvm -t 0 -M newton -G m.g m.txt lin.model
	"$TRAIN" -q -s lapsvm -t 0 -M newton -N 200 -G m.g m.txt nys.model
	"$PRED" -q -d all.txt lin.model a.txt
	"$PRED" -q -d all.txt nys.model b.txt
	cmp <(cut -d' ' -f1 a.txt) <(cut -d' ' -f1 b.txt)
	paste -d' ' a.txt b.txt | awk 'NR > 1 { d = $2 - $4; if (d < 0) d = -d
		if (d > 1e-5 * (1 + ($4 < 0 ? -$4 : $4))) { print "row " NR ": " $2 " vs " $4; exit 1 } }'
}

@test "-M newton linear on features of very different scales: CG goes past the dimension to the minimizer" {
	# 3 unknowns, but the second feature is 1e4 times the first: in
	# floating point CG needs a 4th iteration (it was cut off at 3, the
	# bias 0.09 off); the Nystrom map of K = X X' (Cholesky) is exact
	printf '%s\n' '1 1:1 2:10000' '1 1:2 2:30000' '-1 1:-1 2:20000' \
		'-1 1:-2 2:15000' '1 1:0.5 2:25000' '-1 1:-0.5 2:10000' >sc.txt
	"$TRAIN" -q -s laprls -t 0 -M newton -i 0 -a 1 sc.txt lin.model
	"$TRAIN" -q -s laprls -t 0 -M newton -N 6 -i 0 -a 1 sc.txt nys.model
	"$PRED" -q -d sc.txt lin.model a.txt
	"$PRED" -q -d sc.txt nys.model b.txt
	paste -d' ' a.txt b.txt | awk 'NR > 1 { d = $2 - $4; if (d < 0) d = -d
		if (d > 1e-6 * (1 + ($4 < 0 ? -$4 : $4))) { print "row " NR ": " $2 " vs " $4; bad = 1 } }
		END { exit bad }'
}

@test "a conjugate-gradient solve that reaches its cap is a warning naming the residual, not silence" {
	printf '%s\n' '1 1:1 2:10000' '1 1:2 2:30000' '-1 1:-1 2:20000' \
		'-1 1:-2 2:15000' '1 1:0.5 2:25000' '-1 1:-0.5 2:10000' >sc.txt
	# a stop no residual reaches: every solve runs to the cap, 10 x 3
	run --separate-stderr "$TRAIN" -s laprls -t 0 -M newton -i 0 -a 1 -e 1e-300 sc.txt lin.model
	assert_status 0
	assert_stderr_regex '^lapsvm-train: warning: 1 conjugate gradient solve stopped at the cap of 30 iterations at relative residual [0-9.e+-]+, above the stop 1e-300: the model is the last iterate, not the minimizer \(the system is ill-conditioned: scale the features to similar ranges, or use a larger gamma_A\)$'
	# at the default stop: no warning
	run --separate-stderr "$TRAIN" -s laprls -t 0 -M newton -i 0 -a 1 sc.txt lin.model
	assert_status 0
	[[ "$stderr" != *warning* ]]
}

@test "full-kernel primal LapSVM (-M newton, pcg, pcg-early): squared hinge, no bias, separates the moons" {
	moons_problem
	for M in newton pcg pcg-early; do
		run --separate-stderr "$TRAIN" -s lapsvm -t 2 -g 4 -a 0.03125 -i 100 \
			-M $M -G m.g m.txt $M.model
		assert_status 0
		[ "$(key $M.model method)" = $M ]
		[ "$(key $M.model nr_sv)" -ge 190 ]  # isolated unlabeled rows: a = 0
		[ "$(key $M.model bias)" = 0 ]
		acc=$(accuracy all.txt $M.model)
		awk -v a="$acc" 'BEGIN { exit !(a >= 97) }' || { echo "$M: accuracy $acc"; false; }
	done
	# Newton and PCG reach the same minimizer: the same labels
	"$PRED" -q all.txt newton.model a.txt
	"$PRED" -q all.txt pcg.model b.txt
	cmp a.txt b.txt
}

@test "a three-class Newton model: one function per class, predicted by lapsvm-predict" {
	"$DG" -S 2 moons two.txt
	# a third class: the moons shifted far to the right
	awk '{ split($2, a, ":"); split($3, b, ":")
	       print ($1 == 1 ? 3 : 1), "1:" a[2] + 6, "2:" b[2] }' two.txt >three.txt
	cat two.txt >>three.txt
	awk 'NR % 20 == 1 { print; next } { $1 = 0; print }' three.txt >semi.txt
	"$GB" -q -k 6 semi.txt s.g
	run --separate-stderr "$TRAIN" -s laprls -g 2 -M newton -N 80 -G s.g semi.txt three.model
	assert_status 0
	[ "$(key three.model nr_fn)" = 3 ]
	run "$PRED" three.txt three.model out.txt
	assert_status 0
}

@test "-N needs -M newton; -M newton is not for the TSVM; -N and -m take numbers" {
	moons_problem
	run --separate-stderr "$TRAIN" -N 10 m.txt x.model
	assert_usage_error "no training method lapsvm direct with landmarks (the methods of lapsvm: direct, pcg, pcg-early, newton, newton with landmarks)" lapsvm-train
	run --separate-stderr "$TRAIN" -s tsvm -M newton -N 10 m.txt x.model
	assert_usage_error "no training method tsvm newton with landmarks (the methods of tsvm: direct)" lapsvm-train
	for bad in 0 -3 abc 1.5 ""; do
		run --separate-stderr "$TRAIN" -M newton -N "$bad" m.txt x.model
		assert_status 2
		assert_stderr_regex "^lapsvm-train: option -N: "
	done
	for bad in 0 abc -1 1e99; do
		run --separate-stderr "$TRAIN" -m "$bad" m.txt x.model
		assert_status 2
		assert_stderr_regex "^lapsvm-train: option -m: "
	done
	[ ! -e x.model ]
}

@test "-m 1: the limit is shown in MB, not as 0.00 GB" {
	"$DG" -S 3 -n 400 moons small.txt
	run --separate-stderr "$TRAIN" -m 1 small.txt out.model
	assert_status 1
	assert_stderr_has "over the memory limit (-m) of 1.00 MB"
	[[ "$stderr" != *"0.00 GB"* ]]
	[ ! -e out.model ]
}

@test "-m: an n x n method over the limit is refused with a suggestion; Newton fits" {
	# 3000 rows: the dense kernel and system matrices need 144 MB
	"$DG" -S 3 -n 3000 moons big.txt
	awk 'NR % 100 == 1 { print; next } { $1 = 0; print }' big.txt >semi.txt
	"$GB" -q -k 6 semi.txt big.g
	echo "old model" >keep.model
	run --separate-stderr "$TRAIN" -m 50 -G big.g semi.txt keep.model
	assert_status 1
	assert_stderr_has "the n x n kernel and system matrices would need 144.00 MB, over the memory limit (-m) of 50.00 MB; train on a low-rank kernel instead: -M newton -N m (Nystrom, m landmarks, memory O(n m))"
	[ "$(cat keep.model)" = "old model" ]
	assert_no_tmp_files .
	run --separate-stderr "$TRAIN" -m 50 -M newton -N 200 -G big.g semi.txt keep.model
	assert_status 0
	[ "$(key keep.model nr_sv)" = 200 ]
	# RLS (-i 0) needs only the labeled rows' kernel: 30 x 30
	run --separate-stderr "$TRAIN" -m 1 -s laprls -i 0 semi.txt rls.model
	assert_status 0
	[ "$(key rls.model l)" = 30 ]
	[ "$(key rls.model u)" = 2970 ]
	run --separate-stderr "$TRAIN" -m 5 -M newton -N 2000 -G big.g semi.txt n.model
	assert_status 1
	assert_stderr_has "the Nystrom features would need"
	assert_stderr_has "use fewer landmarks (-N)"
	[ ! -e n.model ]
}
