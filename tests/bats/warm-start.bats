#!/usr/bin/env bats
# lapsvm-train -f model: warm starts of the iterative kernel methods from a
# model trained on a prefix of the rows (its coefficients, the new rows at
# 0), and of Newton on a feature map (Nystrom on the model's landmarks, the
# linear map from the model's weights).  The result is the cold start's (same predictions, decision values
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

@test "-f: a model with a graph starting a run without one (gamma_I = 0) is named as such" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	refused -M pcg -g 2 -i 0 -f old.model
	assert_stderr_has "lapsvm-train: the starting model's expansion point 1 of 380 is not a labeled row of these data: with gamma_I = 0 only the labeled rows are expansion points, and the model (gamma_I = "
	assert_stderr_has ") has one per row; start from a model trained with gamma_I = 0, or keep the graph"
	# an RLS model starts an RLS run
	"$TRAIN" -q -M pcg -g 2 -i 0 old.txt rls.model
	run --separate-stderr "$TRAIN" -q -M pcg -g 2 -i 0 -f rls.model a.txt out.model
	assert_status 0
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

# boosting's row in the method table is a map to the driver (it computes
# no kernel), and the message called it "boost direct on the linear map"
@test "-f: a boosted model as the start is named by its method alone, not as a linear map" {
	"$TRAIN" -q -s boost -B 5 old.txt old.model
	refused -M pcg -g 2 -f old.model
	assert_stderr_has "lapsvm-train: the starting model was trained by boost direct, not by the method asked for (lapsvm pcg) nor one of its family"
	[[ "$stderr" != *"linear map"* ]]
	# a linear map's model is still named as one
	"$TRAIN" -q -M newton -t 0 old.txt lin.model
	refused -M pcg -g 2 -f lin.model
	assert_stderr_has "the starting model was trained by lapsvm newton on the linear map, not by the method asked for (lapsvm pcg)"
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

# a coefficient the reader accepts (finite) but whose products overflow:
# the start is named, not the kernel or the conditioning
@test "-f: a start whose coefficients overflow the products is an error about the start" {
	local M
	for M in pcg newton; do
		"$TRAIN" -q -M $M -g 2 old.txt old.model
		awk 'sv && !done { $1 = "1e300"; done = 1 } /^SV$/ { sv = 1 } { print }' \
			old.model >huge.model
		refused -M $M -g 2 -f huge.model
		assert_stderr_has "lapsvm-train: the starting model is too large to start from: the sum of squares of its decision values on these data is inf (function 1); train without a start"
	done
	"$TRAIN" -q -t 0 -M newton old.txt lin.model
	awk 'sv && !done { $1 = "1e300"; done = 1 } /^SV$/ { sv = 1 } { print }' \
		lin.model >huge.model
	refused -t 0 -M newton -f huge.model
	assert_stderr_has "lapsvm-train: the starting model is too large to start from"
}

@test "-f: the direct solvers, clustering and the TSVM refuse a warm start" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	refused -g 2 -f old.model
	assert_stderr_has "a warm start is for the iterative methods on the kernel (lapsvm -M pcg, pcg-early or newton; laprls -M pcg or pcg-early) and Newton on a feature map (-M newton -N m, or -M newton -t 0), not lapsvm direct"
	refused -s cluster -M newton -N 50 -g 2 -f old.model
	assert_stderr_has "not cluster (Nystrom features)"
	refused -s tsvm -g 2 -f old.model
	assert_stderr_has "not tsvm (label switching, SMO)"
}

# ------------------------------------------------ Newton on a feature map

# zeroed MODEL OUT: MODEL with every coefficient and bias 0 -- a warm start
# from it is the cold start on MODEL's landmarks (a zero start runs cold).
zeroed() {
	awk '/^SV$/ { sv = 1; print; next }
	     sv { $1 = 0; print; next }
	     $1 == "bias" { print "bias 0"; next } { print }' "$1" >"$2"
}

# nystrom_cold_vs_warm SOLVER: old.model by -M newton -N 50 on old.txt;
# a.txt cold on old.model's landmarks (from its zeroed copy) and warm from
# old.model; the same labels, values within 1e-6 (1 + |f|), the landmarks
# kept; Newton steps in $cold and $warm.
nystrom_cold_vs_warm() {
	"$TRAIN" -q -s "$1" -M newton -N 50 -g 2 old.txt old.model
	zeroed old.model zero.model
	run --separate-stderr "$TRAIN" -s "$1" -M newton -N 50 -g 2 -f zero.model a.txt cold.model
	assert_status 0
	cold=$(iterations Newton)
	run --separate-stderr "$TRAIN" -s "$1" -M newton -N 50 -g 2 -f old.model a.txt warm.model
	assert_status 0
	assert_stderr_has "warm start from old.model (380 training rows, 50 expansion points)"
	warm=$(iterations Newton)
	"$PRED" -d a.txt cold.model cold.out >/dev/null
	"$PRED" -d a.txt warm.model warm.out >/dev/null
	decision_close warm.out cold.out 1e-6
	# the expansion points are the model's landmarks, in both runs
	diff <(sed '1,/^SV$/d' old.model | cut -d' ' -f2-) \
		<(sed '1,/^SV$/d' warm.model | cut -d' ' -f2-)
	diff <(sed '1,/^SV$/d' old.model | cut -d' ' -f2-) \
		<(sed '1,/^SV$/d' cold.model | cut -d' ' -f2-)
	echo "$1 Nystrom: cold $cold, warm $warm"
}

@test "warm Nystrom Newton (lapsvm): the cold start on the same landmarks, in fewer steps" {
	nystrom_cold_vs_warm lapsvm
	[ "$warm" -lt "$cold" ]
}

# the squared loss: one Newton step either way
@test "warm Nystrom Newton (laprls): the cold start on the same landmarks" {
	nystrom_cold_vs_warm laprls
	[ "$warm" -eq 1 ] && [ "$cold" -eq 1 ]
}

# the baseline's mechanism: a zeroed model on the rows it was trained on
# samples nothing and starts at 0, which is the cold run itself
@test "a zeroed Nystrom model starts the cold run: the same model byte for byte" {
	"$TRAIN" -q -M newton -N 50 -g 2 old.txt old.model
	zeroed old.model zero.model
	"$TRAIN" -q -M newton -N 50 -g 2 -f zero.model old.txt again.model
	assert_same old.model again.model
}

@test "a warm Nystrom start from the model of the same rows takes one Newton step" {
	"$TRAIN" -q -M newton -N 50 -g 2 a.txt same.model
	run --separate-stderr "$TRAIN" -M newton -N 50 -g 2 -f same.model a.txt again.model
	assert_status 0
	[ "$(iterations Newton)" -eq 1 ]
	"$PRED" -d a.txt same.model same.out >/dev/null
	"$PRED" -d a.txt again.model again.out >/dev/null
	decision_close again.out same.out 1e-9
}

# the start is the cold one, so the report's distance is the whole
# residual (it said 0: no warm solve measured it)
@test "a zeroed linear model starts the cold run: the same model, reported at relative residual 1" {
	"$TRAIN" -q -M newton -t 0 old.txt old.model
	zeroed old.model zero.model
	run --separate-stderr "$TRAIN" -M newton -t 0 -f zero.model old.txt again.model
	assert_status 0
	assert_stderr_has "from a warm start at relative residual 1 in the first step"
	assert_same old.model again.model
}

# the linear map (-t 0): Newton in the primal on the data, CG in each step
@test "warm linear Newton: the cold start's model in fewer steps and CG iterations" {
	"$TRAIN" -q -M newton -t 0 old.txt old.model
	run --separate-stderr "$TRAIN" -M newton -t 0 a.txt cold.model
	assert_status 0
	cold=$(iterations Newton)
	cold_cg=$(printf '%s\n' "$stderr" | sed -n 's/^lapsvm-train: conjugate gradient: \([0-9]*\) .*/\1/p')
	run --separate-stderr "$TRAIN" -M newton -t 0 -f old.model a.txt warm.model
	assert_status 0
	warm=$(iterations Newton)
	warm_cg=$(printf '%s\n' "$stderr" | sed -n 's/^lapsvm-train: conjugate gradient: \([0-9]*\) .*/\1/p')
	assert_stderr_regex '^lapsvm-train: conjugate gradient: [0-9]+ iterations in all, from a warm start at relative residual [0-9.e+-]+ in the first step \(the stop: 1e-06\)$'
	echo "linear: Newton cold $cold warm $warm, CG cold $cold_cg warm $warm_cg"
	[ "$warm" -lt "$cold" ] && [ "$warm_cg" -lt "$cold_cg" ]
	"$PRED" -d a.txt cold.model cold.out >/dev/null
	"$PRED" -d a.txt warm.model warm.out >/dev/null
	decision_close warm.out cold.out 1e-6
}

@test "a warm linear start from the model of the same rows: one Newton step, no CG iteration" {
	"$TRAIN" -q -M newton -t 0 a.txt same.model
	run --separate-stderr "$TRAIN" -M newton -t 0 -f same.model a.txt again.model
	assert_status 0
	[ "$(iterations Newton)" -eq 1 ]
	assert_stderr_regex '^lapsvm-train: conjugate gradient: 0 iterations in all, from a warm start at relative residual [0-9.e+-]+ in the first step'
}

@test "-f on a feature map: another -N, map, kernel or data is an error" {
	"$TRAIN" -q -M newton -N 50 -g 2 old.txt old.model
	refused -M newton -N 40 -g 2 -f old.model
	assert_stderr_has "lapsvm-train: the starting model has 50 Nystrom landmarks, -N asks for 40: a warm start keeps the model's landmarks (give -N 50)"
	refused -M newton -N 50 -g 3 -f old.model
	assert_stderr_has "the starting model's kernel (rbf, gamma 2, degree 3, coef0 0) is not this one (rbf, gamma 3,"
	refused -M newton -t 0 -f old.model
	assert_stderr_has "the starting model was trained by lapsvm newton with 50 landmarks, not by the method asked for (lapsvm newton on the linear map)"
	"$TRAIN" -q -M pcg -g 2 old.txt pcg.model
	refused -M newton -N 50 -g 2 -f pcg.model
	assert_stderr_has "the starting model was trained by lapsvm pcg, not by the method asked for (lapsvm newton with 50 landmarks)"
	# landmarks that are not rows of the data
	"$DG" -n 400 -S 2 -l 5 moons other.txt
	run --separate-stderr "$TRAIN" -M newton -N 50 -g 2 -f old.model other.txt out.model
	assert_status 1
	assert_stderr_has "the starting model's expansion point 1 of 50 is not a row of these data (in the model's order): it was not trained on a prefix of these data"
	[ ! -e out.model ]
}

@test "-f on the linear map: a weighed feature that no row has, a Nystrom start, are errors" {
	awk 'NR == 3 { $0 = $0 " 3:0.5" } { print }' old.txt >old3.txt
	"$TRAIN" -q -M newton -t 0 old3.txt old3.model
	refused -M newton -t 0 -f old3.model
	assert_stderr_has "lapsvm-train: the starting model weighs feature 3, which no row of these data has: it was not trained on a prefix of these data"
	refused -M newton -N 50 -t 0 -f old3.model
	assert_stderr_has "the starting model was trained by lapsvm newton on the linear map, not by the method asked for (lapsvm newton with 50 landmarks)"
}

@test "-f with -v is a usage error; a missing model file an error" {
	"$TRAIN" -q -M pcg -g 2 old.txt old.model
	run --separate-stderr "$TRAIN" -M pcg -g 2 -v 3 -f old.model a.txt out.model
	assert_usage_error "-f with -v: the folds train on parts of the rows" lapsvm-train
	refused -M pcg -g 2 -f nope.model
	assert_stderr_has "lapsvm-train: nope.model: cannot open"
	# a precomputed kernel's rows have no features to match the model's to
	python3 "$BATS_TEST_DIRNAME/rbf-t4.py" 2 old.txt >old.t4
	python3 "$BATS_TEST_DIRNAME/rbf-t4.py" 2 a.txt >a.t4
	"$TRAIN" -q -t 4 -M pcg -i 0 old.t4 old4.model
	run --separate-stderr "$TRAIN" -t 4 -M pcg -i 0 -f old4.model a.t4 out.model
	assert_status 1
	[ ! -e out.model ]
	assert_stderr_has "a precomputed kernel (-t 4) gives its rows only serial numbers: train without -f"
	run --separate-stderr "$TRAIN" -M pcg -g 2 -f - - out.model <old.model
	assert_usage_error "only one of the data, the graphs, a graph list, the weights and the starting model (-f) can be standard input" lapsvm-train
	[ ! -e out.model ]
}
