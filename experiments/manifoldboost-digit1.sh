#!/bin/sh
# manifoldboost-digit1.sh -- ManifoldBoost (Loeff, Forsyth & Ramachandran,
# ICML 2008), Table 2, the Digit1 column: the SSL book's Digit1 (1500 x
# 241) with its 12 published splits of l = 10 and l = 100 labeled rows,
# error (%) on the unlabeled rows, mean and standard deviation over the
# splits, for ManifoldBoost with each base learner of LEARNERS, beside
# RLS, SVM, LapRLS and LapSVM (experiments/ssl-book.sh on the same
# splits) and the published numbers (experiments/manifoldboost.published:
# RBF-ManifoldBoost 19.42 / 4.29, the book's Laplacian RLS 5.44 / 2.92 and
# SVM 30.60 / 5.53).
#
#   experiments/manifoldboost-digit1.sh
#
# The protocol, one split at a time (the test labels are read for scoring
# only):
#   - graph: graph-build $GRAPH_OPTS over all 1500 rows, once (it reads no
#     labels; default a 10-NN graph with binary weights, ssl-book.sh's);
#     Laplacian $LAP (default the unnormalized D - W);
#   - ManifoldBoost: lapsvm-train -s boost -B $ROUNDS (500, the paper's)
#     -j $SHRINK (0.1) -z 0 and the learner's options: "tree" is depth-
#     $DEPTH regression trees (Algorithm 1, Tree-ManifoldBoost); "rbfR" is
#     R greedy RBFs per round (Algorithm 2, RBF-ManifoldBoost; the paper's
#     R in {15, 30}), $RBF_OPTS with R put for %R (default "-H rbf -Q %R",
#     the width from lapsvm-train's default), when lapsvm-train has the RBF
#     learner;
#   - gamma_M by lapsvm-train -v K over -i $GRID_M, K = $FOLDS or fewer
#     when a class has fewer labeled rows (l = 10); the held-out error,
#     ties by the deviance (lapsvm-train -h); with fewer than 2 rows in a
#     class, no -v: -i $FALLBACK_M;
#   - RBF_M (default 0.01, the value the trees' -v chose on 17 of the 24
#     splits): the RBF learners take -i $RBF_M instead of -v, as an RBF
#     training costs about 15 times a tree one; RBF_M= (empty) gives
#     them -v over GRID_M too;
#   - "logistic": the same trees with -I 0 (no graph), the supervised
#     baseline;
#   - class mass normalization, $BALANCE (default "-p labeled") on every
#     boosting method: the bias is shifted after training so that the
#     unlabeled rows take the classes in the labeled rows' ratio (Zhu,
#     Ghahramani & Lafferty 2003, the threshold form; lapsvm-train -p;
#     with -v each fold model too).  Why: at a minimizer of V the
#     derivative along a constant shift of F is 0, and 1'L = 0, so
#     sum_{i labeled} phi'(y_i, F_i) = 0: the loss alone sets the level
#     of F wherever the labels' influence has not reached, and with 10
#     labels in a 6:4 or 7:3 ratio that level is the majority's, on
#     most of the 1490 unlabeled rows (F_0 = 0 does not change that:
#     the stationarity condition does not involve F_0).  The shift
#     keeps the ranking F gives and moves only the threshold; it reads
#     no test label.  BALANCE= (empty) turns it off;
#   - the kernel methods: experiments/ssl-book.sh for digit1 on the same
#     splits with its defaults (its own graph, Laplacian and -v), the
#     methods of KERNEL_METHODS (default "rls svm laprls lapsvm"; ""
#     skips them).
# Splits run in parallel, JOBS (default 2) at a time.
#
# Environment: DATA (../shared/data), BIN (.), SIZES ("10 100"), SPLITS
# (all 12; e.g. "1 2"), LEARNERS (default "tree", and "tree rbf15 rbf30"
# when lapsvm-train -h lists -H), ROUNDS (500), DEPTH (3), SHRINK (0.1),
# GRID_M (0,1e-3:1:x10), FALLBACK_M (0.1), RBF_M (0.01), FOLDS (5), GRAPH_OPTS ("-k 10
# -w binary"), LAP ("-L unnormalized"), BALANCE ("-p labeled"), RBF_OPTS ("-H rbf -Q %R"), JOBS
# (2), KERNEL_METHODS ("rls svm laprls lapsvm"), LOG (a file for the per-split
# errors and the settings chosen; default none).
set -eu
PROG=manifoldboost-digit1.sh
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
SIZES=${SIZES:-10 100}
SPLITS=${SPLITS:-1 2 3 4 5 6 7 8 9 10 11 12}
ROUNDS=${ROUNDS:-500}
DEPTH=${DEPTH:-3}
SHRINK=${SHRINK:-0.1}
GRID_M=${GRID_M:-0,1e-3:1:x10}
FALLBACK_M=${FALLBACK_M:-0.1}
RBF_M=${RBF_M-0.01}
FOLDS=${FOLDS:-5}
GRAPH_OPTS=${GRAPH_OPTS:--k 10 -w binary}
LAP=${LAP:--L unnormalized}
BALANCE=${BALANCE--p labeled}
RBF_OPTS=${RBF_OPTS:--H rbf -Q %R}
JOBS=${JOBS:-2}
KERNEL_METHODS=${KERNEL_METHODS-rls svm laprls lapsvm}
LOG=${LOG:-}
here=$(cd "$(dirname "$0")" && pwd)
PUBLISHED=$here/manifoldboost.published
MARK=9 # the unlabeled marker: Digit1's classes are -1 and 1
# shellcheck source=experiments/manifoldboost-lib.sh
. "$here/manifoldboost-lib.sh"

[ $# -eq 0 ] || { echo "$PROG: no arguments expected (settings come from the environment)" >&2; exit 2; }
for v in ROUNDS DEPTH FOLDS JOBS; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]*) echo "$PROG: $v=$x is not a whole number" >&2; exit 2 ;;
	esac
done
[ "$JOBS" -ge 1 ] || { echo "$PROG: JOBS must be at least 1" >&2; exit 2; }
for t in graph-build lapsvm-train; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (run make, or set BIN to the directory of the tools)"
done
has_rbf=0
"$BIN"/lapsvm-train -h | grep -q '^-H ' && has_rbf=1
LEARNERS=${LEARNERS:-$([ "$has_rbf" -eq 1 ] && echo "tree rbf15 rbf30" || echo tree)}
for b in $LEARNERS; do
	case $b in
	tree) ;;
	rbf[1-9] | rbf[1-9][0-9] | rbf[1-9][0-9][0-9])
		[ "$has_rbf" -eq 1 ] || die "learner $b: this lapsvm-train has no RBF base learner (-H); LEARNERS=tree" ;;
	*) echo "$PROG: unknown learner '$b' in LEARNERS (expected tree or rbfR, e.g. rbf15)" >&2; exit 2 ;;
	esac
done
[ -r "$PUBLISHED" ] || die "$PUBLISHED not found"
check_ssl_set digit1

set_up_tmp
start_all=$(now)
[ -z "$LOG" ] || : >"$LOG"

load_ssl_set digit1
t0=$(now)
# shellcheck disable=SC2086 # option lists
"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/full" "$tmp/graph"
graph_time=$(($(now) - t0))

# one_split L I: every learner (and logistic) on split I of size L; lines
# "l method split error seconds chosen" to $tmp/res.L.I
one_split() {
	d=$tmp/s.$1.$2
	mkdir "$d"
	split_files digit1 "$1" "$2" "$d"
	k=$(awk -v m="$MARK" -v k="$FOLDS" '$1 != m { c[$1]++ } END { x = k; for (j in c) if (c[j] < x) x = c[j]; print x }' "$d/semi")
	for b in $LEARNERS logistic; do
		case $b in
		tree | logistic) lopts="-D $DEPTH" ;;
		rbf*) lopts=$(printf '%s\n' "$RBF_OPTS" | sed "s/%R/${b#rbf}/g") ;;
		esac
		if [ "$b" = logistic ]; then
			reg="-I 0"
		elif [ -n "$RBF_M" ] && [ "$b" != tree ]; then
			reg="-i $RBF_M $LAP -G $d/../graph"
		elif [ "$k" -ge 2 ]; then
			reg="-v $k -i $GRID_M $LAP -G $d/../graph"
		else
			reg="-i $FALLBACK_M $LAP -G $d/../graph"
		fi
		t1=$(now)
		# shellcheck disable=SC2086 # option lists
		cv_train -s boost $lopts -B "$ROUNDS" -j "$SHRINK" -z 0 $reg $BALANCE -u "$MARK" -o "$d/pred" -- \
			"$d/semi" "$d/model" "$d/cv.out" || die "l=$1 split $2 $b: lapsvm-train failed"
		err=$(error_pct "$d/truth" "$d/pred") || die "l=$1 split $2 $b: no predictions"
		best=$(chosen "$d/cv.out")
		[ -n "$best" ] || best=$(printf '%s\n' "$reg" | grep -o -- '-[iI] [^ ]*')
		echo "$1 $b $2 $err $(($(now) - t1)) $(printf '%s' "$best" | tr ' ' '_')" >>"$tmp/res.$1.$2"
		# as each finishes, so an interrupted run leaves what it measured
		[ -z "$LOG" ] || echo "l=$1 split $2 $b: $err% ($(($(now) - t1)) s; $best)" >>"$LOG"
	done
	rm -rf "$d"
}

# the splits, JOBS at a time
pool_start
for l in $SIZES; do
	for i in $SPLITS; do
		pool_run one_split "$l" "$i"
	done
done
pool_wait
boost_time=$(($(now) - start_all))
cat "$tmp"/res.* | sort -k1,1n -k2,2 -k3,3n >"$tmp/results"

# the kernel methods, by ssl-book.sh on the same splits
kernel_time=0
if [ -n "$KERNEL_METHODS" ]; then
	t1=$(now)
	# its own defaults: the settings both scripts name alike are unset
	# shellcheck disable=SC2086 # method list
	env -u GRAPH_OPTS -u LAP -u FOLDS -u LOG -u KERNEL -u GRID_A -u GRID_I \
		DATA="$DATA" BIN="$BIN" SETS=digit1 SIZES="$SIZES" SPLITS="$SPLITS" \
		"$here/ssl-book.sh" $KERNEL_METHODS >"$tmp/ssl-book.md" ||
		die "experiments/ssl-book.sh failed"
	kernel_time=$(($(now) - t1))
fi

# ------------------------------------------------------------- the table
name() {
	case $1 in
	tree) echo "Tree-ManifoldBoost (depth $DEPTH)" ;;
	rbf*) echo "RBF-ManifoldBoost (R = ${1#rbf})" ;;
	logistic) echo "logistic boosting (depth $DEPTH, gamma_M = 0)" ;;
	esac
}
echo "# ManifoldBoost, Table 2 (Loeff, Forsyth & Ramachandran 2008): Digit1, error % on the unlabeled rows"
echo
echo "Mean ± std over splits $SPLITS; graph-build $GRAPH_OPTS over the 1500 rows, $LAP;"
echo "lapsvm-train -s boost -B $ROUNDS -j $SHRINK -z 0, class mass normalization: ${BALANCE:-none};"
echo "gamma_M by -v (at most $FOLDS folds) over -i $GRID_M${RBF_M:+, the RBF learners -i $RBF_M}."
echo
printf '| method | l | error | min | max | paper RBF-ManifoldBoost | within 2 points |\n'
printf '|---|---|---|---|---|---|---|\n'
misses=
for b in $LEARNERS logistic; do
	for l in $SIZES; do
		v=$(awk -v l="$l" -v b="$b" '$1 == l && $2 == b { n++; x += $4; xx += $4 * $4; if (n == 1 || $4 < mn) mn = $4; if (n == 1 || $4 > mx) mx = $4 }
			END { if (n == 0) { print "- - - -"; exit }
			      sd = n > 1 ? (xx - x * x / n) / (n - 1) : 0; sd = sd > 0 ? sqrt(sd) : 0
			      printf "%.2f %.2f %.2f %.2f\n", x / n, sd, mn, mx }' "$tmp/results")
		set -- $v
		p=$(published t2 "digit1-l$l" rbfmb | cut -d' ' -f1)
		verdict=-
		if [ "$b" != logistic ] && [ "$p" != - ] && [ "$1" != - ]; then
			verdict=$(awk -v m="$1" -v p="$p" 'BEGIN { d = m - p; if (d <= 2 && d >= -2) printf "yes (%+.2f)", d; else if (d < -2) printf "better by %.2f", -d; else printf "MISS (%+.2f)", d }')
			case $verdict in MISS*) misses="$misses $b/l=$l" ;; esac
		fi
		echo "| $(name "$b") | $l | $1 ± $2 | $3 | $4 | $p | $verdict |"
	done
done
if [ -n "$KERNEL_METHODS" ]; then
	echo
	echo "Kernel methods on the same splits (experiments/ssl-book.sh SETS=digit1, its defaults):"
	echo
	sed -n '/^| set /,/^$/p' "$tmp/ssl-book.md"
fi
echo "Published: RBF-ManifoldBoost 19.42 (l = 10) / 4.29 (l = 100); the book's LapRLS 5.44 / 2.92 and"
echo "SVM 30.60 / 5.53 (experiments/manifoldboost.published)."
echo "Time: graph $graph_time s; boosting $boost_time s wall with JOBS=$JOBS ($(awk '{ t[$2] += $5 } END { for (b in t) printf "%s %d s, ", b, t[b] }' "$tmp/results")summed over splits);"
echo "kernel methods $kernel_time s; all $(($(now) - start_all)) s."
echo
echo "The settings -v chose (times over the splits):"
awk '{ k = "l=" $1 " " $2; c[k, $6]++; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
	END { for (i = 1; i <= n; i++) { line = order[i] ":"
		for (kc in c) { split(kc, p, SUBSEP); if (p[1] == order[i]) { v = p[2]; gsub(/_/, " ", v); line = line " [" v "] x" c[kc] } }
		print "  " line } }' "$tmp/results"
echo
if [ -n "$misses" ]; then
	echo "Cells more than 2 points above the paper's RBF-ManifoldBoost:$misses"
else
	echo "No ManifoldBoost cell is more than 2 points above the paper's."
fi
