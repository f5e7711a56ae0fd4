#!/bin/bash
# usps-pairs.sh -- JMLR 2006 Figures 4-5: the 45 one-vs-one USPS problems.
# The first 400 training images of each digit, projected on their first 100
# principal components (lapsvm-pca); each pair of digits (800 images) is
# one transductive problem with LABELS labeled images per class, the other
# 800 - 2 LABELS unlabeled; the test set is the rest of the USPS training
# images of the two digits.  Error rate at the precision-recall break-even
# point (lapsvm-predict's PRBEP line) on the unlabeled and on the test
# images, averaged over DRAWS seeded draws of the labeled images.
#
#   experiments/usps-pairs.sh [method ...]  (default: rls laprls svm lapsvm tsvm)
# Environment: DATA (../shared/data), BIN (.), DRAWS (10), LABELS (2, per
# class), SEED (1), JOBS (2: pairs run in parallel), OUT (build/usps-pairs:
# per-pair results and, with gnuplot, the Figure 4 scatter plots),
# GRAPH_OPTS ("-k 6"), KERNEL ("-t 1 -d 3 -g 1 -r 0"), LAPLACIAN
# ("unnormalized"), POWER (2), PAIRS (default all 45, e.g. "3 8 1 7" for
# the pairs 3-8 and 1-7).
# Settings, the paper's: cubic polynomial kernel; RLS/SVM gamma_A l = 0.05
# (C = 10); Lap*: gamma_A l = 0.005, gamma_I l/(l+u)^2 = 0.045; TSVM as the
# SVM.  The graph is not given in the paper: 6-NN, heat weights, L^2 as in
# Table 3, but the unnormalized Laplacian D - W: with 2 labels per class and
# the normalized one, LapSVM's solution is dominated by the null vector
# D^1/2 1 of I - D^-1/2 W D^-1/2, which its bias cannot absorb, and ranks
# no better than chance (see experiments/README.md).
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
DRAWS=${DRAWS:-10}
LABELS=${LABELS:-2}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
OUT=${OUT:-build/usps-pairs}
GRAPH_OPTS=${GRAPH_OPTS:--k 6}
KERNEL=${KERNEL:--t 1 -d 3 -g 1 -r 0}
POWER=${POWER:-2}
LAPLACIAN=${LAPLACIAN:-unnormalized}
methods=${*:-rls laprls svm lapsvm tsvm}
for s in $methods; do
	case $s in
	rls | svm | tsvm | laprls | lapsvm) ;;
	*) echo "usps-pairs.sh: unknown method '$s' (expected rls, laprls, svm, lapsvm or tsvm)" >&2; exit 2 ;;
	esac
done
for f in usps.train.libsvm.gz usps.train.first400perdigit.txt; do
	[ -r "$DATA/$f" ] || { echo "usps-pairs.sh: $DATA/$f not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2; exit 1; }
done
BIN=$(cd "$BIN" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

zcat "$DATA/usps.train.libsvm.gz" > "$tmp/train"
awk 'NR == FNR { for (i = 1; i <= NF; i++) first[$i] = 1; next }
     { print > ((FNR in first) ? pool : rest) }' \
	pool="$tmp/pool" rest="$tmp/rest" "$DATA/usps.train.first400perdigit.txt" "$tmp/train"
"$BIN"/lapsvm-pca -q -k 100 "$tmp/pool" "$tmp/pool.pca" "$tmp/rest" "$tmp/rest.pca"

# One pair: its graph once, then every draw and method.  Writes
# "a b method draw err_unlabeled err_test" lines to $OUT/pair-a-b.txt.
run_pair() {
	local a=$1 b=$2 d=$tmp/p$1$2 s opts line v
	mkdir -p "$d"
	awk -v a="$a" -v b="$b" '$1 == a || $1 == b { $1 = ($1 == a) ? 1 : -1; print }' \
		"$tmp/pool.pca" > "$d/full"
	awk -v a="$a" -v b="$b" '$1 == a || $1 == b { $1 = ($1 == a) ? 1 : -1; print }' \
		"$tmp/rest.pca" > "$d/test"
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $GRAPH_OPTS "$d/full" "$d/graph"
	# DRAWS lines of 2 LABELS row numbers
	awk -f "$here/draw.awk" -v draws="$DRAWS" -v pos="$LABELS" -v neg="$LABELS" \
		-v seed="$((SEED * 100 + a * 10 + b))" "$d/full" > "$d/draws"
	: > "$OUT/pair-$a-$b.txt"
	local draw=0
	while read -r -a idx; do
		draw=$((draw + 1))
		printf '%s\n' "${idx[@]}" > "$d/lab"
		awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = 0; print }' \
			"$d/lab" "$d/full" > "$d/semi"
		awk 'NR == FNR { keep[$1] = 1; next } !(FNR in keep)' "$d/lab" "$d/full" > "$d/unl"
		for s in $methods; do
			case $s in
			rls) opts="-s laprls -a 0.05 -i 0" ;;
			svm) opts="-s lapsvm -a 0.05 -i 0" ;;
			tsvm) opts="-s tsvm -a 0.05" ;;
			laprls) opts="-s laprls -a 0.005 -i 0.045 -L $LAPLACIAN -P $POWER -G $d/graph" ;;
			lapsvm) opts="-s lapsvm -a 0.005 -i 0.045 -L $LAPLACIAN -P $POWER -G $d/graph" ;;
			*) echo "usps-pairs.sh: unknown method $s" >&2; return 2 ;;
			esac
			# shellcheck disable=SC2086
			"$BIN"/lapsvm-train -q $KERNEL $opts "$d/semi" "$d/model"
			line="$a $b $s $draw"
			for set in unl test; do
				v=$("$BIN"/lapsvm-predict "$d/$set" "$d/model" "$d/pred" |
					awk '/^PRBEP/ { gsub(/[%()]/, ""); print $9 }')
				# a failed draw must stop the run, not average as 0
				[ -n "$v" ] || { echo "usps-pairs.sh: pair $a $b, $s, draw $draw: no PRBEP on $set" >&2; return 1; }
				line="$line $v"
			done
			echo "$line" >> "$OUT/pair-$a-$b.txt"
		done
	done < "$d/draws"
	rm -rf "$d"
}
export -f run_pair
export here tmp OUT BIN DRAWS LABELS SEED GRAPH_OPTS KERNEL POWER LAPLACIAN methods

start=$(date +%s)
rm -f "$OUT"/pair-*.txt
if [ -n "${PAIRS:-}" ]; then
	printf '%s %s\n' $PAIRS
else
	for a in 0 1 2 3 4 5 6 7 8; do
		for b in $(seq $((a + 1)) 9); do echo "$a $b"; done
	done
fi | xargs -P "$JOBS" -n 2 bash -c 'set -euo pipefail; run_pair "$0" "$1"' || {
	echo "usps-pairs.sh: a pair failed (its message above): no table" >&2
	exit 1
}
end=$(date +%s)

rm -f "$OUT/all.txt"
cat "$OUT"/pair-*.txt > "$OUT/all.tmp" && mv "$OUT/all.tmp" "$OUT/all.txt"
# per pair and method: mean over draws
awk '{ k = $1 " " $2 " " $3; u[k] += $5; t[k] += $6; n[k]++ }
     END { for (k in n) printf "%s %.4f %.4f\n", k, u[k] / n[k], t[k] / n[k] }' \
	"$OUT/all.txt" | sort -k1,1n -k2,2n -k3,3 > "$OUT/pairs.txt"
echo "$(wc -l < "$OUT/pairs.txt" | awk -v m="$(echo $methods | wc -w)" '{ print $1 / m }') pairs, $DRAWS draws, $LABELS labeled per class, $((end - start)) s"
printf '| method | mean error at PRBEP, unlabeled | test |\n|---|---|---|\n'
for s in $methods; do
	awk -v s="$s" '$3 == s { u += $4; t += $5; n++ }
		END { printf "| %s | %.2f%% | %.2f%% |\n", s, u / n, t / n }' "$OUT/pairs.txt"
done
# Figure 4: on how many pairs the Laplacian method beats its baseline
for p in "laprls rls" "lapsvm svm"; do
	set -- $p
	case " $methods " in *" $1 "*) ;; *) continue ;; esac
	case " $methods " in *" $2 "*) ;; *) continue ;; esac
	awk -v m="$1" -v base="$2" '
		$3 == m { mu[$1 " " $2] = $4; mt[$1 " " $2] = $5 }
		$3 == base { bu[$1 " " $2] = $4; bt[$1 " " $2] = $5 }
		END { for (k in mu) { n++; wu += mu[k] < bu[k]; wt += mt[k] < bt[k] }
		      printf "%s beats %s on %d of %d pairs (unlabeled), %d of %d (test)\n",
			     m, base, wu, n, wt, n }' "$OUT/pairs.txt"
done
if command -v gnuplot > /dev/null; then
	for p in "rls laprls" "svm lapsvm"; do
		set -- $p
		awk -v x="$1" -v y="$2" '$3 == x { bx[$1 " " $2] = $4 } $3 == y { by[$1 " " $2] = $4 }
			END { for (k in bx) if (k in by) print bx[k], by[k] }' "$OUT/pairs.txt" > "$OUT/scatter-$1-$2.dat"
		gnuplot <<-GP
		set terminal pngcairo size 600,600
		set output "$OUT/fig4-$1-vs-$2.png"
		set title "USPS pairs: error at PRBEP on the unlabeled points (%)"
		set xlabel "$1"; set ylabel "$2"; set size square
		set xrange [0:*]; set yrange [0:*]
		plot "$OUT/scatter-$1-$2.dat" using 1:2 with points pt 7 title "45 pairs", x with lines lt -1 title "y = x"
		GP
	done
	echo "scatter plots: $OUT/fig4-rls-vs-laprls.png $OUT/fig4-svm-vs-lapsvm.png"
fi
