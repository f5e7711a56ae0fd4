#!/bin/sh
# manifoldboost-uci.sh -- ManifoldBoost (Loeff, Forsyth & Ramachandran,
# ICML 2008), Table 1: Tree-ManifoldBoost on the UCI sets Ionosphere, Pima
# and Sonar, fully supervised, and on Ionosphere semi-supervised (100
# labeled + 251 unlabeled rows), beside plain logistic boosting (gamma_M =
# 0) and RLS, SVM, LapRLS, LapSVM on the same folds, and beside the
# paper's numbers (experiments/manifoldboost.published).
#
#   experiments/manifoldboost-uci.sh [set ...]
#       set: ionosphere, pima, sonar (10-fold cross validation of the test
#       error) and ionosphere-semi (RUNS draws of SEMI_L labeled rows);
#       default all four.
#
# The protocol (the paper's Section 6.1, where it says it):
#   - fully supervised sets: FOLDS (10) stratified folds drawn with a
#     MINSTD generator seeded by SEED (each class shuffled, dealt in turn);
#     for each fold, the other rows are the training set;
#   - features z-scored with the mean and standard deviation of the
#     training rows only (the test fold is scaled with them; a feature
#     constant on the training rows becomes 0); "normalized to zero mean
#     and unit variance" in the paper;
#   - the graph: graph-build $GRAPH_OPTS over the training rows only
#     (default -k 8 -w binary: the paper's 8 nearest neighbours, binary
#     weights); Laplacian $LAP (default the unnormalized D - W, "the graph
#     Laplacian");
#   - Tree-ManifoldBoost: lapsvm-train -s boost -D $DEPTH (3) -B $ROUNDS
#     (200; the paper gives no number) -j $SHRINK (0.1, the paper's) -z 0,
#     gamma_M chosen by lapsvm-train -v $INNER (5) over -i $GRID_M (which
#     includes 0): the held-out error, ties by the deviance, each inner
#     fold's held-out rows cut from the graph (lapsvm-train -h, -v); then
#     the test fold predicted by lapsvm-predict (out of sample: the trees);
#   - logistic boosting: the same with -I 0 (no graph, no cross
#     validation): the supervised boosting baseline of the "gamma_M = 0"
#     column (gradient boosting of the deviance, not the paper's AdaBoost
#     or RegBoost, whose published numbers are printed beside it);
#   - RLS / SVM (-I 0) and LapRLS / LapSVM (-G, the same graph and
#     Laplacian): RBF kernel of lapsvm-train's default width, -v $INNER
#     over -a $GRID_A (and -i $GRID_I for Lap*), the tool's own criterion;
#   - ionosphere-semi: RUNS (10) seeded draws of SEMI_L (100) labeled rows
#     (stratified: each class in proportion), the other 251 unlabeled;
#     z-scored over all 351 rows (no labels used), the graph over all of
#     them, trees of depth SEMI_DEPTH (1: stumps, as the paper says it used
#     there), the same cross validation over the labeled rows; the error
#     on the 251 unlabeled rows (lapsvm-train -o).
# The test labels are read for scoring and nothing else.
#
# Environment: DATA (../shared/data), BIN (.), FOLDS (10), INNER (5),
# SEED (1), ROUNDS (200), DEPTH (3), SHRINK (0.1), GRID_M (gamma_M as
# lapsvm-train -i: 0,1e-4:10:x10), GRID_A (1e-6:1:x10), GRID_I
# (0,1e-4:1e2:x10), GRAPH_OPTS ("-k 8 -w binary"), LAP ("-L unnormalized"),
# RUNS (10), SEMI_L (100), SEMI_DEPTH (1), METHODS (the kernel methods run:
# "rls svm laprls lapsvm"; "" for none), LOG (a file for the per-fold
# errors and the settings chosen; default none).
set -eu
PROG=manifoldboost-uci.sh
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
FOLDS=${FOLDS:-10}
INNER=${INNER:-5}
SEED=${SEED:-1}
ROUNDS=${ROUNDS:-200}
DEPTH=${DEPTH:-3}
SHRINK=${SHRINK:-0.1}
GRID_M=${GRID_M:-0,1e-4:10:x10}
GRID_A=${GRID_A:-1e-6:1:x10}
GRID_I=${GRID_I:-0,1e-4:1e2:x10}
GRAPH_OPTS=${GRAPH_OPTS:--k 8 -w binary}
LAP=${LAP:--L unnormalized}
RUNS=${RUNS:-10}
SEMI_L=${SEMI_L:-100}
SEMI_DEPTH=${SEMI_DEPTH:-1}
METHODS=${METHODS-rls svm laprls lapsvm}
LOG=${LOG:-}
sets=${*:-ionosphere pima sonar ionosphere-semi}
here=$(cd "$(dirname "$0")" && pwd)
PUBLISHED=$here/manifoldboost.published
# shellcheck source=experiments/manifoldboost-lib.sh
. "$here/manifoldboost-lib.sh"

for s in $sets; do
	case $s in
	ionosphere | pima | sonar | ionosphere-semi) ;;
	*) echo "$PROG: unknown set '$s' (expected ionosphere, pima, sonar, ionosphere-semi)" >&2; exit 2 ;;
	esac
done
for m in $METHODS; do
	case $m in
	rls | svm | laprls | lapsvm) ;;
	*) echo "$PROG: unknown method '$m' in METHODS (expected rls, svm, laprls, lapsvm)" >&2; exit 2 ;;
	esac
done
for v in FOLDS INNER ROUNDS DEPTH RUNS SEMI_L SEMI_DEPTH SEED; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]*) echo "$PROG: $v=$x is not a whole number" >&2; exit 2 ;;
	esac
done
[ "$FOLDS" -ge 2 ] && [ "$INNER" -ge 2 ] ||
	{ echo "$PROG: FOLDS and INNER must be at least 2" >&2; exit 2; }
for t in graph-build lapsvm-train lapsvm-predict; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (run make, or set BIN to the directory of the tools)"
done
[ -r "$PUBLISHED" ] || die "$PUBLISHED not found"
for s in $sets; do
	f=$DATA/uci_${s%-semi}.libsvm
	[ -r "$f" ] || die "$f not found (set DATA to the directory holding the data sets, default ../shared/data; datasets/fetch -m ../shared/data uci copies them)"
done

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$tmp/results"
[ -z "$LOG" ] || : >"$LOG"
start_all=$(now)

# zscore TRAIN [OTHER...]: TRAIN and each OTHER rewritten z-scored with the mean and
# standard deviation (over n, not n - 1) of TRAIN's rows; a feature
# constant on TRAIN becomes 0; zeros are omitted, values %.6g.
zscore() {
	z_stats=$(awk '{ n++; for (i = 2; i <= NF; i++) { split($i, a, ":"); j = a[1] + 0
			s[j] += a[2]; ss[j] += a[2] * a[2]; if (j > d) d = j } }
		END { for (j = 1; j <= d; j++) { m = s[j] / n; v = ss[j] / n - m * m
			printf "%d %.17g %.17g\n", j, m, (v > 1e-24 * (1 + m * m) ? sqrt(v) : 0) } }' "$1")
	for z_f in "$@"; do
		printf '%s\n' "$z_stats" | awk 'NR == FNR { m[$1] = $2; sd[$1] = $3; d = $1; next }
			{ delete x; for (i = 2; i <= NF; i++) { split($i, a, ":"); x[a[1] + 0] = a[2] }
			  out = $1
			  for (j = 1; j <= d; j++) if (sd[j] > 0) { v = ((j in x ? x[j] : 0) - m[j]) / sd[j]
				if (v != 0) out = out " " j ":" sprintf("%.6g", v) }
			  print out }' - "$z_f" >"$z_f.z"
		mv "$z_f.z" "$z_f"
	done
}

# stratified FILE K SEED: fold 0..K-1 of each row of FILE, one a line: the
# rows of each class (in order of first appearance) shuffled by a MINSTD
# generator seeded by SEED (Fisher-Yates), then dealt to the folds in
# turn, continuing from one class to the next.
stratified() {
	awk -v k="$2" -v seed="$3" '{ c = $1; if (!(c in cnt)) order[++nc] = c; row[c, ++cnt[c]] = NR }
		END { x = seed % 2147483647; if (x == 0) x = 1; t = 0
			for (q = 1; q <= nc; q++) { c = order[q]; m = cnt[c]
				for (i = 1; i <= m; i++) r[i] = row[c, i]
				for (i = m; i > 1; i--) { x = (x * 16807) % 2147483647; j = 1 + x % i; h = r[i]; r[i] = r[j]; r[j] = h }
				for (i = 1; i <= m; i++) fold[r[i]] = t++ % k }
			for (i = 1; i <= NR; i++) print fold[i] }' "$1"
}

# draw FILE L SEED: 1 for the L labeled rows of one stratified draw (each
# class in proportion, the remainder to the classes in order), else 0.
draw() {
	awk -v L="$2" -v seed="$3" '{ c = $1; if (!(c in cnt)) order[++nc] = c; row[c, ++cnt[c]] = NR }
		END { x = seed % 2147483647; if (x == 0) x = 1; left = L
			for (q = 1; q <= nc; q++) { c = order[q]; want[c] = int(L * cnt[c] / NR); left -= want[c] }
			for (q = 1; left > 0; q = q % nc + 1) { want[order[q]]++; left-- }
			for (q = 1; q <= nc; q++) { c = order[q]; m = cnt[c]
				for (i = 1; i <= m; i++) r[i] = row[c, i]
				for (i = m; i > 1; i--) { x = (x * 16807) % 2147483647; j = 1 + x % i; h = r[i]; r[i] = r[j]; r[j] = h }
				for (i = 1; i <= want[c]; i++) lab[r[i]] = 1 }
			for (i = 1; i <= NR; i++) print (i in lab) ? 1 : 0 }' "$1"
}

# folds_for FILE: the inner folds, at most INNER and at most the smallest
# class's labeled rows (lapsvm-train refuses more)
folds_for() {
	awk -v k="$INNER" '$1 != 0 { c[$1]++ } END { x = k; for (j in c) if (c[j] < x) x = c[j]; print x }' "$1"
}

# run_method SET METHOD UNIT TRAIN GRAPH DEPTH TEST TRUTH: train METHOD on
# TRAIN (with -o for the unlabeled rows when TEST is "-o"), score it on
# TEST against TRUTH, append "SET METHOD error" to results and, for
# treemb, the training error to results.train.
run_method() {
	rm_set=$1 rm_m=$2 rm_unit=$3 rm_train=$4 rm_graph=$5 rm_depth=$6 rm_test=$7 rm_truth=$8
	rm_k=$(folds_for "$rm_train")
	rm_cv="-v $rm_k"
	case $rm_m in
	treemb) rm_opts="-s boost -D $rm_depth -B $ROUNDS -j $SHRINK -z 0 -i $GRID_M $LAP -G $rm_graph" ;;
	logistic) rm_opts="-s boost -D $rm_depth -B $ROUNDS -j $SHRINK -z 0 -I 0" rm_cv= ;;
	rls) rm_opts="-s laprls -a $GRID_A -I 0" ;;
	svm) rm_opts="-s lapsvm -a $GRID_A -I 0" ;;
	laprls) rm_opts="-s laprls -a $GRID_A -i $GRID_I $LAP -G $rm_graph" ;;
	lapsvm) rm_opts="-s lapsvm -a $GRID_A -i $GRID_I $LAP -G $rm_graph" ;;
	esac
	rm_o=
	[ "$rm_test" != -o ] || rm_o="-o $tmp/pred"
	# shellcheck disable=SC2086 # option lists
	cv_train $rm_opts $rm_cv -S "$SEED" $rm_o -- "$rm_train" "$tmp/model" "$tmp/cv.out" ||
		die "$rm_set $rm_unit $rm_m: lapsvm-train failed"
	if [ "$rm_test" != -o ]; then
		"$BIN"/lapsvm-predict -q "$rm_test" "$tmp/model" "$tmp/pred" ||
			die "$rm_set $rm_unit $rm_m: lapsvm-predict failed"
	fi
	rm_err=$(error_pct "$rm_truth" "$tmp/pred") || die "$rm_set $rm_unit $rm_m: no predictions"
	echo "$rm_set $rm_m $rm_err" >>"$tmp/results"
	rm_best=$(chosen "$tmp/cv.out")
	echo "$rm_set $rm_m ${rm_best:-(fixed)}" >>"$tmp/chosen"
	if [ "$rm_m" = treemb ] && [ "$rm_test" != -o ]; then
		"$BIN"/lapsvm-predict -q "$rm_train" "$tmp/model" "$tmp/tpred" ||
			die "$rm_set $rm_unit $rm_m: lapsvm-predict failed"
		cut -d' ' -f1 "$rm_train" >"$tmp/ttruth"
		echo "$rm_set $rm_m $(error_pct "$tmp/ttruth" "$tmp/tpred")" >>"$tmp/results.train"
	fi
	[ -z "$LOG" ] || echo "$rm_set $rm_unit $rm_m: $rm_err% (${rm_best:-fixed settings})" >>"$LOG"
}

for s in $sets; do
	start_set=$(now)
	src=$DATA/uci_${s%-semi}.libsvm
	cp "$src" "$tmp/full"
	if [ "$s" != ionosphere-semi ]; then
		stratified "$tmp/full" "$FOLDS" "$SEED" >"$tmp/folds"
		f=0
		while [ "$f" -lt "$FOLDS" ]; do
			paste -d' ' "$tmp/folds" "$tmp/full" | awk -v f="$f" '$1 != f { $1 = ""; sub(/^ /, ""); print }' >"$tmp/train"
			paste -d' ' "$tmp/folds" "$tmp/full" | awk -v f="$f" '$1 == f { $1 = ""; sub(/^ /, ""); print }' >"$tmp/test"
			cut -d' ' -f1 "$tmp/test" >"$tmp/truth"
			zscore "$tmp/train" "$tmp/test"
			# shellcheck disable=SC2086 # option lists
			"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/train" "$tmp/graph"
			for m in treemb logistic $METHODS; do
				run_method "$s" "$m" "fold $((f + 1))" "$tmp/train" "$tmp/graph" "$DEPTH" "$tmp/test" "$tmp/truth"
			done
			f=$((f + 1))
		done
	else
		zscore "$tmp/full"
		# shellcheck disable=SC2086 # option lists
		"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/full" "$tmp/graph"
		r=1
		while [ "$r" -le "$RUNS" ]; do
			draw "$tmp/full" "$SEMI_L" "$((SEED + r - 1))" >"$tmp/lab"
			paste -d' ' "$tmp/lab" "$tmp/full" | awk '{ keep = $1; $1 = ""; sub(/^ /, ""); if (!keep) $1 = 0; print }' >"$tmp/semi"
			paste -d' ' "$tmp/lab" "$tmp/full" | awk '$1 == 0 { print $2 }' >"$tmp/truth"
			for m in treemb logistic $METHODS; do
				run_method "$s" "$m" "run $r" "$tmp/semi" "$tmp/graph" "$SEMI_DEPTH" -o "$tmp/truth"
			done
			r=$((r + 1))
		done
	fi
	echo "$s $(($(now) - start_set))" >>"$tmp/times"
done

# ------------------------------------------------------------- the table
cell() { # cell SET METHOD: "mean (std)" or "-"
	set -- $(summary "$tmp/results" "$1 $2")
	if [ "$3" -eq 0 ]; then echo -; else echo "$1 ($2)"; fi
}
pub() { # pub SET METHOD: the published "error (std)", or "-"
	set -- $(published t1 "$1" "$2")
	if [ "$1" = - ]; then echo -; elif [ "$2" = - ]; then echo "$1"; else echo "$1 ($2)"; fi
}

echo "# ManifoldBoost, Table 1 (Loeff, Forsyth & Ramachandran 2008): test error % (std)"
echo
echo "Fully supervised sets: $FOLDS-fold stratified cross validation (seed $SEED), features z-scored on"
echo "the training folds, graph-build $GRAPH_OPTS over the training rows, $LAP."
echo "Tree-ManifoldBoost: -s boost -D $DEPTH -B $ROUNDS -j $SHRINK -z 0, gamma_M by -v $INNER over -i $GRID_M;"
echo "logistic boosting: the same trees with -I 0.  RLS/SVM: -v $INNER over -a $GRID_A; LapRLS/LapSVM:"
echo "also -i $GRID_I.  ionosphere-semi: $RUNS draws of $SEMI_L labeled rows (seeds $SEED..$((SEED + RUNS - 1))),"
echo "error on the unlabeled rows, stumps (-D $SEMI_DEPTH), graph over all rows."
echo
printf '| set | Tree-ManifoldBoost | its training error | logistic boosting (gamma_M = 0) | RLS | SVM | LapRLS | LapSVM | paper Tree-MB | paper AdaBoost | paper RegBoost | acceptance |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
misses=
for s in $sets; do
	set -- $(summary "$tmp/results" "$s treemb")
	mb=$1
	set -- $(published t1 "$s" treemb)
	if [ "$s" = ionosphere-semi ]; then bound=12; else bound=$(awk -v e="$1" -v sd="$2" 'BEGIN { print e + sd }'); fi
	verdict=$(awk -v m="$mb" -v b="$bound" 'BEGIN { if (m == "-") print "not run"; else if (m + 0 <= b + 0) printf "%.2f <= %s", m, b; else printf "MISS: %.2f > %s", m, b }')
	case $verdict in MISS*) misses="$misses $s" ;; esac
	tr=-
	if [ "$s" != ionosphere-semi ]; then
		set -- $(summary "$tmp/results.train" "$s treemb")
		[ "$3" -eq 0 ] || tr="$1 ($2)"
	fi
	echo "| $s | $(cell "$s" treemb) | $tr | $(cell "$s" logistic) | $(cell "$s" rls) | $(cell "$s" svm) | $(cell "$s" laprls) | $(cell "$s" lapsvm) | $(pub "$s" treemb) | $(pub "$s" adaboost) | $(pub "$s" regboost) | $verdict |"
done
echo
echo "The bound: the paper's Tree-ManifoldBoost error plus its standard deviation (ionosphere-semi: 12%)."
echo "Published numbers: experiments/manifoldboost.published (the paper's Table 1; AdaBoost and RegBoost"
echo "as Kégl & Wang 2005 reported them; on ionosphere-semi the paper's RegBoost column is RegBoost's 12%)."
echo "Time: $(awk '{ printf "%s%s %d s", (NR > 1 ? ", " : ""), $1, $2 }' "$tmp/times"); all $(($(now) - start_all)) s."
echo
echo "The settings -v chose (times):"
awk '{ k = $1 " " $2; v = $3; for (i = 4; i <= NF; i++) v = v " " $i; c[k, v]++; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
	END { for (i = 1; i <= n; i++) { line = order[i] ":"
		for (kc in c) { split(kc, p, SUBSEP); if (p[1] == order[i]) line = line " [" p[2] "] x" c[kc] }
		print "  " line } }' "$tmp/chosen"
echo
if [ -n "$misses" ]; then
	echo "Rows that miss the bound:$misses"
else
	echo "No row misses the bound."
fi
