#!/bin/sh
# manifoldboost-secstr.sh -- ManifoldBoost (Loeff, Forsyth & Ramachandran,
# ICML 2008), Table 3: Tree-ManifoldBoost on SecStr, the SSL book's set 8
# (83679 amino-acid windows of 15 residues coded one-hot, 315 features,
# classes 0 and 1), its 10 published splits each of l = 100, 1000 and
# 10000 labeled rows; error (%) on the unlabeled rows, beside the paper's
# Tree-ManifoldBoost (83k) numbers 43.28 / 33.42 / 28.96 (the reading of
# ../shared/MATH.md, "Loeff et al. Table 3": the extracted table lost its
# alignment; these are the "Tree-MB 83k" cells it decodes) and the bound
# the issue sets (paper + 1 point).
#
#   experiments/manifoldboost-secstr.sh
#
# The paper's settings where it states them: stumps (-D 1), a K = 6 nearest
# neighbour graph (here graph-build -k 6 -w binary over all 83679 rows,
# Euclidean distance on the one-hot code, which is sqrt(2 x) the Hamming
# distance of the windows without alignment: the paper aligned the
# sequences first), shrinkage 0.05, no model selection.  It names gamma_M
# in {0, 1e-5, 1e-3, 0.1, 1} without saying which one its table reports;
# here one value, -I $GAMMA (default 1000 in this toolkit's scale
# gamma_M/(l+u)^2 F'LF, the paper's gamma/((l+u)K) times (l+u)/K = 1.4e4:
# about its 0.07), fixed before any test error was seen, the same for
# every l; and logistic boosting (-I 0, the same stumps without the graph)
# on the same split, so the table shows what the graph adds.
#
# The paper gives no round count.  Fixed at 1000, the unlabeled error of
# split 1 falls with the rounds at l = 1000 (35.9% after 100, 33.1% after
# 1000) but rises at l = 100 (42.3% after 25, 45.8% after 1000, worse
# than the labeled majority's 42.8%: 100 labels are overfitted).  So the
# number of rounds M is chosen per split by cross validation on the
# split's labeled rows, the same rule for every l: CV_FOLDS (default 3)
# folds, stratified, each class's labeled rows cut in file order into
# contiguous blocks (neighbouring windows of one sequence overlap, so a
# block keeps them on one side); for each fold its held-out rows are made
# unlabeled (they stay in the graph, as the test rows do), ROUNDS rounds
# are trained, and the model's first m trees predict the held-out rows for
# each m of 0, CV_STEP, 2 CV_STEP, ..., ROUNDS (boosting is stagewise: the
# first m trees of a ROUNDS-round model are the m-round model, the same
# file but for boost_rounds; m = 0 is F_0, the labeled classes' log-odds).
# The m of lowest class-balanced held-out error over the folds wins (the
# mean over the classes of the fraction of each class's held-out rows
# misclassified; ties: the lower class-balanced held-out deviance
# log(1 + exp(-2 y F)), then fewer rounds): the criterion lapsvm-train -v
# itself uses for -s boost (README, "Cross validation" under ManifoldBoost).
# Not the plain count of held-out errors (CV_SCORE=errors, the rule
# before; its ties by the summed deviance): at l = 100 a split's labeled
# rows can hold the wrong majority (splits 5, 7, 8), and the held-out
# rows, drawn from them, hold it too, so F_0 alone (M = 0, the labeled
# majority everywhere) scores best by the count however wrong it is; by
# the balanced error it scores 50%, as every constant does.  The model
# of the split is then ROUNDS rounds on all its labeled rows cut to its
# first M trees.  CV_FOLDS=0: no cross validation, all ROUNDS rounds
# (the protocol before).
#
# The graph is built once for all splits and timed apart (the paper's 45
# minutes exclude it), or read from GRAPH.  Each split's training (with
# its cross validation) is timed in CPU seconds (user + system of its
# processes: the honest measure on a shared machine) and wall seconds.
#
# Environment: DATA (../shared/data), BIN (.), SIZES ("100 1000 10000"),
# SPLITS ("1 2 ... 10"), ROUNDS (1000), SHRINK (0.05), GAMMA (1000), K (6),
# CV_FOLDS (3), CV_STEP (25), CV_SCORE (balanced, or errors), BASELINE
# (1: also -I 0; 0: not), JOBS (splits at a time, 2), GRAPH (a graph-build -k $K -w binary graph of
# ssl_secstr.libsvm.gz to use instead of building one), LOG (a file
# getting one line per training as it ends; default none).
set -eu
PROG=manifoldboost-secstr.sh
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
SIZES=${SIZES:-100 1000 10000}
SPLITS=${SPLITS:-1 2 3 4 5 6 7 8 9 10}
ROUNDS=${ROUNDS:-1000}
SHRINK=${SHRINK:-0.05}
GAMMA=${GAMMA:-1000}
K=${K:-6}
CV_FOLDS=${CV_FOLDS:-3}
CV_STEP=${CV_STEP:-25}
CV_SCORE=${CV_SCORE:-balanced}
BASELINE=${BASELINE:-1}
JOBS=${JOBS:-2}
GRAPH=${GRAPH:-}
LOG=${LOG:-}
MARK=9 # the unlabeled marker: SecStr's classes are 0 and 1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/manifoldboost-lib.sh
. "$here/manifoldboost-lib.sh"

[ $# -eq 0 ] || { echo "$PROG: no arguments expected (settings come from the environment)" >&2; exit 2; }
x=
for v in ROUNDS K CV_FOLDS CV_STEP JOBS; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]*) echo "$PROG: $v=$x is not a whole number" >&2; exit 2 ;;
	esac
done
[ "$CV_FOLDS" -ne 1 ] || { echo "$PROG: CV_FOLDS=1: give 0 (no cross validation) or at least 2" >&2; exit 2; }
[ "$CV_STEP" -ge 1 ] || { echo "$PROG: CV_STEP must be at least 1" >&2; exit 2; }
[ "$JOBS" -ge 1 ] || { echo "$PROG: JOBS must be at least 1" >&2; exit 2; }
for l in $SIZES; do
	case $l in 100 | 1000 | 10000) ;; *) echo "$PROG: SIZES: $l is not 100, 1000 or 10000" >&2; exit 2 ;; esac
done
case $BASELINE in 0 | 1) ;; *) echo "$PROG: BASELINE=$BASELINE is not 0 or 1" >&2; exit 2 ;; esac
case $CV_SCORE in balanced | errors) ;; *) echo "$PROG: CV_SCORE=$CV_SCORE is not balanced or errors" >&2; exit 2 ;; esac
for t in graph-build lapsvm-train lapsvm-predict; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (run make, or set BIN to the directory of the tools)"
done
check_ssl_set secstr
[ -z "$GRAPH" ] || [ -r "$GRAPH" ] || die "GRAPH: $GRAPH not found"

set_up_tmp
start_all=$(now)
[ -z "$LOG" ] || : >"$LOG"

load_ssl_set secstr
if [ -n "$GRAPH" ]; then
	cp "$GRAPH" "$tmp/graph"
	graph_time="given ($GRAPH)"
else
	t0=$(now)
	"$BIN"/graph-build -q -k "$K" -w binary "$tmp/full" "$tmp/graph"
	graph_time="$(($(now) - t0)) s wall"
fi
# the candidate round counts: 0, CV_STEP, ..., ROUNDS
grid=$(awk -v s="$CV_STEP" -v r="$ROUNDS" 'BEGIN { for (m = 0; m < r; m += s) printf "%d ", m; print r }')

# first_trees MODEL M OUT: MODEL cut to its first M trees
first_trees() {
	awk -v m="$2" '/^boost_tree / { if (++t > m) next }
		/^boost_rounds / { $2 = m > 0 ? m : 1 } { print }' "$1" >"$3"
}

# train_boost OPTS... -- DATA MODEL: lapsvm-train -s boost, ROUNDS rounds
train_boost() {
	tb_opts=
	while [ "$1" != -- ]; do
		tb_opts="$tb_opts $1"
		shift
	done
	# shellcheck disable=SC2086 # option lists
	"$BIN"/lapsvm-train -q -s boost -D 1 -B "$ROUNDS" -j "$SHRINK" -z 0 $tb_opts \
		-u "$MARK" "$2" "$3"
}

# cv_rounds DIR OPTS...: the round count the cross validation over the
# labeled rows of DIR/semi chooses (above), on standard output
cv_rounds() {
	cr_d=$1
	shift
	# fold of each labeled row: its class's rows in file order, in
	# CV_FOLDS contiguous blocks
	awk -v m="$MARK" -v k="$CV_FOLDS" 'NR == FNR { if ($1 != m) c[$1]++; next }
		$1 != m { print FNR, int(j[$1]++ * k / c[$1]) }' "$cr_d/semi" "$cr_d/semi" >"$cr_d/folds"
	: >"$cr_d/cv"
	f=0
	while [ "$f" -lt "$CV_FOLDS" ]; do
		# the fold's held-out rows (cv.held) made unlabeled (cv.semi)
		awk -v m="$MARK" -v f="$f" -v held="$cr_d/cv.held" 'NR == FNR { if ($2 == f) out[$1] = 1; next }
			FNR in out { print >held; $1 = m } { print }' \
			"$cr_d/folds" "$cr_d/semi" >"$cr_d/cv.semi"
		cut -d' ' -f1 "$cr_d/cv.held" >"$cr_d/cv.truth"
		train_boost "$@" -- "$cr_d/cv.semi" "$cr_d/cv.model" || return 1
		for m in $grid; do
			first_trees "$cr_d/cv.model" "$m" "$cr_d/cv.m"
			"$BIN"/lapsvm-predict -q -d "$cr_d/cv.held" "$cr_d/cv.m" "$cr_d/cv.pred" || return 1
			# "m class errors rows deviance", a line per class of the
			# held-out rows: the deviance log(1 + exp(-2 y F)), y = +1
			# for the model's first class (its -d column: f > 0
			# predicts it)
			awk -v m="$m" 'NR == FNR { y[FNR] = $1; n = FNR; next }
				FNR == 1 { first = $2; next }
				{ t = y[FNR - 1]; r[t]++; e[t] += (t != $1); z = (t == first ? -2 : 2) * $2
				  d[t] += z > 30 ? z : log(1 + exp(z)) }
				END { if (FNR != n + 1) exit 1
				      for (t in r) printf "%d %s %d %d %.9g\n", m, t, e[t], r[t], d[t] }' \
				"$cr_d/cv.truth" "$cr_d/cv.pred" >>"$cr_d/cv" || return 1
		done
		f=$((f + 1))
	done
	# "m errors balanced-error balanced-deviance key deviance" for each
	# m, over all folds: the balanced error 1/C sum_c e_c/n_c (e_c of
	# the n_c held-out rows of class c; n_c counted on the m = 0 lines,
	# the grid's first), the balanced deviance likewise; key, the
	# balanced error times C prod_c n_c, a whole number (the n_c are the
	# same for every m), so that equal scores compare equal
	awk '{ k = $1 SUBSEP $2; e[k] += $3; d[k] += $5; ms[$1] = 1; cs[$2] = 1; if ($1 == 0) r[$2] += $4 }
		END { P = 1; C = 0; for (c in cs) { P *= r[c]; C++ }
		      for (m in ms) { E = 0; key = 0; be = 0; bd = 0; D = 0
			for (c in cs) { k = m SUBSEP c; E += e[k]; key += e[k] * (P / r[c]); be += e[k] / r[c]; bd += d[k] / r[c]; D += d[k] }
			printf "%d %d %.9g %.9g %.0f %.9g\n", m, E, be / C, bd / C, key, D } }' "$cr_d/cv" >"$cr_d/cv.all"
	case $CV_SCORE in
	balanced) sort -k5,5n -k4,4g -k1,1n "$cr_d/cv.all" >"$cr_d/cv.sum" ;;
	errors) sort -k2,2n -k6,6g -k1,1n "$cr_d/cv.all" >"$cr_d/cv.sum" ;;
	esac
	awk 'NR == 1 { print $1 }' "$cr_d/cv.sum"
}

# one_split L I: ManifoldBoost (and logistic) on split I of size L; lines
# "l method split error wall cpu rounds" to $tmp/res.L.I
one_split() {
	d=$tmp/s.$1.$2
	mkdir "$d"
	split_files secstr "$1" "$2" "$d"
	awk -v m="$MARK" '$1 == m' "$d/semi" >"$d/unl"
	methods=manifoldboost
	[ "$BASELINE" -eq 0 ] || methods="$methods logistic"
	for b in $methods; do
		case $b in
		manifoldboost) reg="-I $GAMMA -L unnormalized -G $tmp/graph" ;;
		logistic) reg="-I 0" ;;
		esac
		t1=$(now)
		cpu_mark "$d/cpu0"
		rounds=$ROUNDS
		if [ "$CV_FOLDS" -ge 2 ]; then
			# shellcheck disable=SC2086 # option lists
			if ! rounds=$(cv_rounds "$d" $reg) || [ -z "$rounds" ]; then
				die "l=$1 split $2 $b: the cross validation failed"
			fi
		fi
		# shellcheck disable=SC2086 # option lists
		train_boost $reg -- "$d/semi" "$d/model.all" || die "l=$1 split $2 $b: lapsvm-train failed"
		first_trees "$d/model.all" "$rounds" "$d/model"
		"$BIN"/lapsvm-predict -q "$d/unl" "$d/model" "$d/pred" || die "l=$1 split $2 $b: lapsvm-predict failed"
		cpu_mark "$d/cpu1"
		wall=$(($(now) - t1))
		cpu=$(awk 'NR == FNR { a = $1; next } { printf "%.1f", $1 - a }' "$d/cpu0" "$d/cpu1")
		err=$(error_pct "$d/truth" "$d/pred") || die "l=$1 split $2 $b: no predictions"
		echo "$1 $b $2 $err $wall $cpu $rounds" >>"$tmp/res.$1.$2"
		# as each ends, so an interrupted run leaves what it measured
		# with the cross validation's held-out errors (of l rows) by M,
		# in one write (the splits run in parallel)
		if [ -n "$LOG" ]; then
			heldout=
			[ "$CV_FOLDS" -lt 2 ] ||
				heldout=$(sort -k1,1n "$d/cv.sum" | awk '{ printf "%s%d:%d", (NR > 1 ? " " : "\n  held-out errors by M: "), $1, $2 }
					{ b = b sprintf(" %d:%.2f", $1, 100 * $3) } END { printf "\n  balanced held-out error %% by M:%s", b }')
			echo "l=$1 split $2 $b: $err% (M = $rounds; $cpu s CPU, $wall s wall)$heldout" >>"$LOG"
		fi
	done
	rm -rf "$d"
}

pool_start
for l in $SIZES; do
	for i in $SPLITS; do
		pool_run one_split "$l" "$i"
	done
done
pool_wait
cat "$tmp"/res.* | sort -k1,1n -k2,2 -k3,3n >"$tmp/results"

cv=none
score="class-balanced error"
[ "$CV_SCORE" = balanced ] || score="count of errors"
[ "$CV_FOLDS" -lt 2 ] || cv="$CV_FOLDS-fold cross validation over M in 0, $CV_STEP, ..., $ROUNDS, by the held-out $score"
echo "# ManifoldBoost, Table 3 (Loeff, Forsyth & Ramachandran 2008): SecStr, error % on the unlabeled rows"
echo
echo "Splits $SPLITS; graph-build -k $K -w binary over the $(wc -l <"$tmp/full") rows ($graph_time), -L unnormalized;"
echo "lapsvm-train -s boost -D 1 -B $ROUNDS -j $SHRINK -z 0 -I $GAMMA (logistic: -I 0); rounds: $cv."
echo "Time per split: its training with the cross validation, CPU (user + system) and wall seconds, JOBS=$JOBS."
echo
echo "| method | l | error (mean ± std) | splits | M chosen (median) | CPU s mean / max | wall s mean / max | paper Tree-MB 83k | bound (paper + 1) |"
echo "|---|---|---|---|---|---|---|---|---|"
for b in manifoldboost logistic; do
	for l in $SIZES; do
		v=$(awk -v l="$l" -v b="$b" '$1 == l && $2 == b { n++; x += $4; xx += $4 * $4; w += $5; c += $6
				if ($5 > wm) wm = $5; if ($6 > cm) cm = $6; r[n] = $7 }
			END { if (n == 0) { print "- - 0"; exit }
			      sd = n > 1 ? (xx - x * x / n) / (n - 1) : 0; sd = sd > 0 ? sqrt(sd) : 0
			      # the median of the rounds (a sort by insertion: n <= 10)
			      for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
			      med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
			      printf "%.2f %.2f %d %g %.0f %.0f %.0f %.0f\n", x / n, sd, n, med, c / n, cm, w / n, wm }' "$tmp/results")
		# shellcheck disable=SC2086 # the fields
		set -- $v
		[ "$3" -gt 0 ] || continue
		case $l in 100) p=43.28 ;; 1000) p=33.42 ;; 10000) p=28.96 ;; esac
		verdict=-
		if [ "$b" = manifoldboost ]; then
			verdict=$(awk -v m="$1" -v p="$p" 'BEGIN { if (m <= p + 1) printf "%.2f: met, %.2f under (paper %+.2f)", p + 1, p + 1 - m, m - p
				else printf "%.2f: MISSED by %.2f (paper %+.2f)", p + 1, m - p - 1, m - p }')
		fi
		name=Tree-ManifoldBoost
		[ "$b" = logistic ] && name="logistic boosting (gamma_M = 0)"
		echo "| $name | $l | $1 ± $2 | $3 | $4 | $5 / $6 | $7 / $8 | $p | $verdict |"
	done
done
echo
echo "Per split (l method split: error %, M, CPU s, wall s):"
awk '{ printf "  l=%s %s %s: %.2f, M = %s, %s s CPU, %s s wall\n", $1, $2, $3, $4, $7, $6, $5 }' "$tmp/results"
echo
echo "Time: graph $graph_time; all $(($(now) - start_all)) s wall."
