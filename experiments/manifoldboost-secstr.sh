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
# on the same split, so the table shows what the graph adds.  The paper
# gives no round count: ROUNDS (default 1000).  The graph is built once
# and timed apart (the paper's 45 minutes exclude it); each training is
# timed (wall seconds of lapsvm-train).
#
# Environment: DATA (../shared/data), BIN (.), SIZES ("100 1000 10000"),
# SPLITS ("1 2 ... 10"), ROUNDS (1000), SHRINK (0.05), GAMMA (1000), K (6),
# BASELINE (1: also -I 0; 0: not), LOG (a file getting one line per
# training as it ends; default none).
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
BASELINE=${BASELINE:-1}
LOG=${LOG:-}
MARK=9 # the unlabeled marker: SecStr's classes are 0 and 1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/manifoldboost-lib.sh
. "$here/manifoldboost-lib.sh"

[ $# -eq 0 ] || { echo "$PROG: no arguments expected (settings come from the environment)" >&2; exit 2; }
for v in ROUNDS K; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]*) echo "$PROG: $v=$x is not a whole number" >&2; exit 2 ;;
	esac
done
for l in $SIZES; do
	case $l in 100 | 1000 | 10000) ;; *) echo "$PROG: SIZES: $l is not 100, 1000 or 10000" >&2; exit 2 ;; esac
done
case $BASELINE in 0 | 1) ;; *) echo "$PROG: BASELINE=$BASELINE is not 0 or 1" >&2; exit 2 ;; esac
for t in graph-build lapsvm-train; do
	[ -x "$BIN/$t" ] || die "$BIN/$t not found (run make, or set BIN to the directory of the tools)"
done
check_ssl_set secstr

set_up_tmp
start_all=$(now)
[ -z "$LOG" ] || : >"$LOG"

load_ssl_set secstr
t0=$(now)
"$BIN"/graph-build -q -k "$K" -w binary "$tmp/full" "$tmp/graph"
graph_time=$(($(now) - t0))

: >"$tmp/results"
for l in $SIZES; do
	for i in $SPLITS; do
		d=$tmp/s
		rm -rf "$d"
		mkdir "$d"
		split_files secstr "$l" "$i" "$d"
		methods=manifoldboost
		[ "$BASELINE" -eq 0 ] || methods="$methods logistic"
		for b in $methods; do
			case $b in
			manifoldboost) reg="-I $GAMMA -L unnormalized -G $tmp/graph" ;;
			logistic) reg="-I 0" ;;
			esac
			t1=$(now)
			# shellcheck disable=SC2086 # option lists
			"$BIN"/lapsvm-train -q -s boost -D 1 -B "$ROUNDS" -j "$SHRINK" -z 0 $reg \
				-u "$MARK" -o "$d/pred" "$d/semi" "$d/model" ||
				die "l=$l split $i $b: lapsvm-train failed"
			wall=$(($(now) - t1))
			err=$(error_pct "$d/truth" "$d/pred") || die "l=$l split $i $b: no predictions"
			echo "$l $b $i $err $wall" >>"$tmp/results"
			[ -z "$LOG" ] || echo "l=$l split $i $b: $err% ($wall s wall)" >>"$LOG"
		done
	done
done

echo "# ManifoldBoost, Table 3 (Loeff, Forsyth & Ramachandran 2008): SecStr, error % on the unlabeled rows"
echo
echo "Splits $SPLITS; graph-build -k $K -w binary over the 83679 rows ($graph_time s), -L unnormalized;"
echo "lapsvm-train -s boost -D 1 -B $ROUNDS -j $SHRINK -z 0 -I $GAMMA (logistic: -I 0)."
echo
echo "| method | l | error (mean ± std) | splits | mean training s (wall) | paper Tree-MB 83k | bound (paper + 1) |"
echo "|---|---|---|---|---|---|---|"
for b in manifoldboost logistic; do
	for l in $SIZES; do
		v=$(awk -v l="$l" -v b="$b" '$1 == l && $2 == b { n++; x += $4; xx += $4 * $4; t += $5 }
			END { if (n == 0) { print "- - 0 -"; exit }
			      sd = n > 1 ? (xx - x * x / n) / (n - 1) : 0; sd = sd > 0 ? sqrt(sd) : 0
			      printf "%.2f %.2f %d %.0f\n", x / n, sd, n, t / n }' "$tmp/results")
		set -- $v
		[ "$3" -gt 0 ] || continue
		case $l in 100) p=43.28 ;; 1000) p=33.42 ;; 10000) p=28.96 ;; esac
		verdict=-
		if [ "$b" = manifoldboost ]; then
			verdict=$(awk -v m="$1" -v p="$p" 'BEGIN { if (m <= p + 1) printf "%.2f: met (%+.2f)", p + 1, m - p; else printf "%.2f: MISSED (%+.2f)", p + 1, m - p }')
		fi
		name=Tree-ManifoldBoost
		[ "$b" = logistic ] && name="logistic boosting (gamma_M = 0)"
		echo "| $name | $l | $1 ± $2 | $3 | $4 | $p | $verdict |"
	done
done
echo
echo "Time: graph $graph_time s; all $(($(now) - start_all)) s."
