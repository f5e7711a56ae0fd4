#!/usr/bin/env bats
# lapsvm-train -f model: warm starts of the iterative kernel methods from a
# model trained on a prefix of the rows (its coefficients, the new rows at
# 0).  The result is the cold start's (same predictions, decision values
# within the solver's tolerance) in fewer iterations; every mismatch between
# the model and the run is an error, never a silent cold start.
# Small data: 400 two-moons points, the first 380 as "yesterday".

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$DG"
	enter_work
	"$DG" -n 400 -S 1 -l 5 moons a.txt
	head -n 380 a.txt >old.txt
}

# iterations KIND: N from "lapsvm-train: PCG: N iterations" (KIND PCG) or
# "lapsvm-train: Newton: N steps in all" (KIND Newton) of $stderr.
iterations() {
	printf '%s\n' "$stderr" |
		sed -n "s/^lapsvm-train: $1: \([0-9][0-9]*\) .*/\1/p"
}

# decision_close A B TOL: lapsvm-predict -d outputs with the same header and
# labels whose decision values differ by at most TOL (1 + |f|).
decision_close() {
	paste -d' ' "$1" "$2" | awk -v tol="$3" '
		NR == 1 { next }
		{ if ($1 != $3) { print "line " NR ": label " $1 " vs " $3; bad = 1 }
		  d = $2 - $4; if (d < 0) d = -d; m = $4 < 0 ? -$4 : $4
		  if (d > tol * (1 + m)) { print "line " NR ": " $2 " vs " $4; bad = 1 } }
		END { if (NR < 2) { print "no decision values"; bad = 1 }; exit bad }'
}

# cold_vs_warm SOLVER METHOD [TOL]: trains old.model on old.txt, then a.txt
# cold and warm; checks the predictions and that the decision values agree
# to TOL (default 1e-4: PCG's relative residual 1e-6); leaves the iteration
# counts in $cold and $warm.
cold_vs_warm() {
	local kind=PCG
	[ "$2" = newton ] && kind=Newton
	"$TRAIN" -q -s "$1" -M "$2" -g 2 old.txt old.model
	run --separate-stderr "$TRAIN" -s "$1" -M "$2" -g 2 a.txt cold.model
	assert_status 0
	cold=$(iterations $kind)
	run --separate-stderr "$TRAIN" -s "$1" -M "$2" -g 2 -f old.model a.txt warm.model
	assert_status 0
	assert_stderr_has "warm start from old.model (380 training rows"
	warm=$(iterations $kind)
	"$PRED" -d a.txt cold.model cold.out >/dev/null
	"$PRED" -d a.txt warm.model warm.out >/dev/null
	decision_close warm.out cold.out "${3:-1e-4}"
	echo "$1 $2: cold $cold, warm $warm"
}

@test "warm PCG (lapsvm): the cold start's predictions in fewer iterations" {
	cold_vs_warm lapsvm pcg
	[ "$warm" -lt "$cold" ]
	# how far the start was, against the stop
	assert_stderr_regex '^lapsvm-train: PCG: [0-9]+ iterations, from a warm start at relative residual [0-9.e+-]+ \(the stop: 1e-06\)$'
}

# early stopping is inexact by design (it stops once the predictions are
# stable): the values agree to its own precision, about 1e-3 here
@test "warm pcg-early (lapsvm): the cold start's predictions in fewer iterations" {
	cold_vs_warm lapsvm pcg-early 1e-2
	[ "$warm" -lt "$cold" ]
	assert_stderr_has "(the stop: stable predictions, or 1e-06)"
}

@test "warm Newton (lapsvm, LU steps): the cold start's predictions in fewer steps" {
	cold_vs_warm lapsvm newton
	[ "$warm" -lt "$cold" ]
}

@test "warm PCG (laprls): the cold start's predictions in fewer iterations" {
	cold_vs_warm laprls pcg
	[ "$warm" -lt "$cold" ]
}

# the start meets PCG's tolerance: no product with K is spent to find out
@test "a warm start from the model of the same rows takes no iteration" {
	"$TRAIN" -q -M pcg -g 2 a.txt same.model
	run --separate-stderr "$TRAIN" -M pcg -g 2 -f same.model a.txt again.model
	assert_status 0
	[ "$(iterations PCG)" -eq 0 ]
	assert_stderr_has "from a warm start at relative residual"
	"$TRAIN" -q -s laprls -M pcg -g 2 a.txt same.model
	run --separate-stderr "$TRAIN" -s laprls -M pcg -g 2 -f same.model a.txt again.model
	assert_status 0
	[ "$(iterations PCG)" -eq 0 ]
}

@test "the warm-started model does not record its start" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	"$TRAIN" -q -M pcg -g 2 -f old.model a.txt warm.model
	"$TRAIN" -q -M pcg -g 2 a.txt cold.model
	diff <(sed '/^SV$/q' cold.model) <(sed '/^SV$/q' warm.model)
}

# ------------------------------------------------------------- the errors

# refused ARGS...: lapsvm-train ARGS fails with status 1 and no model.
refused() {
	run --separate-stderr "$TRAIN" "$@" a.txt out.model
	assert_status 1
	[ ! -e out.model ]
}

@test "-f: a model trained on other data (not a prefix) is an error" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	tail -n +2 a.txt >shifted.txt
	run --separate-stderr "$TRAIN" -M pcg -g 2 -f old.model shifted.txt out.model
	assert_status 1
	assert_stderr_has "lapsvm-train: the starting model's expansion point 1 of 380 is not a row of these data (in the model's order): it was not trained on a prefix of these data"
	[ ! -e out.model ]
}

@test "-f: a model of more rows than the data is an error" {
	"$TRAIN" -q -M pcg -g 2 a.txt big.model
	run --separate-stderr "$TRAIN" -M pcg -g 2 -f big.model old.txt out.model
	assert_status 1
	assert_stderr_has "the starting model was trained on 400 rows, these data have 380"
	[ ! -e out.model ]
}

@test "-f: another kernel gamma (the default gamma moves with the data) is an error" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	refused -M pcg -g 3 -f old.model
	assert_stderr_has "the starting model's kernel (rbf, gamma 2, degree 3, coef0 0) is not this one (rbf, gamma 3,"
	refused -M pcg -f old.model
	assert_stderr_has "give the kernel and its gamma (-g) as the model was trained"
}

@test "-f: another solver, Laplacian or classes is an error" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	refused -s laprls -M pcg -g 2 -f old.model
	assert_stderr_has "the starting model was trained by lapsvm pcg, not by the method asked for (laprls pcg) nor one of its family"
	refused -M pcg -g 2 -L unnormalized -f old.model
	assert_stderr_has "the starting model's Laplacian (normalized, power 1) is not this one (unnormalized, power 1)"
	sed 's/^-1 /2 /' a.txt >three.txt
	run --separate-stderr "$TRAIN" -M pcg -g 2 -f old.model three.txt out.model
	assert_status 1
	assert_stderr_has "the starting model's classes (1 -1) are not these data's (1 2) in the same order"
}

@test "-f: the direct solvers, feature maps and the TSVM refuse a warm start" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	refused -g 2 -f old.model
	assert_stderr_has "a warm start is for the iterative methods on the kernel (lapsvm -M pcg, pcg-early or newton; laprls -M pcg or pcg-early), not lapsvm direct"
	refused -M newton -N 50 -g 2 -f old.model
	assert_stderr_has "not lapsvm newton (primal, feature map)"
	refused -s tsvm -g 2 -f old.model
	assert_stderr_has "not tsvm (label switching, SMO)"
}

@test "-f with -v is a usage error; a missing model file an error" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	run --separate-stderr "$TRAIN" -M pcg -g 2 -v 3 -f old.model a.txt out.model
	assert_usage_error "-f with -v: the folds train on parts of the rows" lapsvm-train
	refused -M pcg -g 2 -f nope.model
	assert_stderr_has "lapsvm-train: nope.model: cannot open"
}
