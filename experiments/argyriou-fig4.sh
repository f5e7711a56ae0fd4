#!/bin/bash
# argyriou-fig4.sh -- Figure 4 of Argyriou, Herbster & Pontil (NIPS 2005):
# odd against even digits, error against the number of points, with 10 and
# 20 labels.  For each n in SIZES, the first n/10 training images of each
# digit, interleaved as the authors' (digits 1, 2, ..., 9, 0, see
# argyriou-lib.sh); the labeled rows are the authors' selections
# argyriou.oddeven.l10.txt / l20.txt, which all lie among the first 20
# images of each digit (subset rows 1..200), so the same selection serves
# every n >= 200: only the unlabeled rows grow.  Graphs: kNN k = 1..10,
# binary weights, Euclidean and tangent; the combination of the 10
# Euclidean and of the 10 tangent kernels, the paper's curves
# (lapsvm-train -s combine, the paper's settings as argyriou-table1.sh;
# SETS="eucl tang all" adds all 20).  Error on the unlabeled rows, mean
# over the trials.  Each trial computes n^3/3-flop Cholesky factorizations
# of 10 kernels per set: at n = 2000 about 10 s a trial with OpenBLAS.
#
# Prints the table (n x method, for each label count) and, with gnuplot,
# $OUT/fig4.png (two panels, as the paper's).
#
#   experiments/argyriou-fig4.sh
# Environment: DATA (../shared/data), BIN (.), OUT (build/argyriou),
# SIZES ("200 400 800 1200 1600 2000"), TRIALS (10: the first 10 of the
# authors' 30 selections; the largest n cost the most), LABELS ("10 20"),
# SETS ("eucl tang"), RULE (direct), SEED (1).
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
OUT=${OUT:-build/argyriou}
SIZES=${SIZES:-200 400 800 1200 1600 2000}
TRIALS=${TRIALS:-10}
LABELS=${LABELS:-10 20}
SETS=${SETS:-eucl tang}
RULE=${RULE:-direct}
SEED=${SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/argyriou-lib.sh
. "$here/argyriou-lib.sh"
argyriou_setup argyriou-fig4.sh usps.train.libsvm.gz argyriou.oddeven.subset.txt argyriou.oddeven.l10.txt
train_rows
check_oddeven

start=$(date +%s)
: > "$OUT/fig4-runs.txt"
for n in $SIZES; do
	m=$((n / 10))
	[ $((m * 10)) -eq "$n" ] && [ "$m" -ge 20 ] && [ "$m" -le 542 ] ||
		{ echo "argyriou-fig4.sh: n = $n: expected a multiple of 10 from 200 to 5420 (the selections lie in the first 200 rows; digit 8 has 542 images)" >&2; exit 2; }
	d=$WORK/n$n
	mkdir -p "$d"
	oddeven_subset "$m" "$d/subset"
	graphs "$d/subset" "$d" e euclidean 10
	graphs "$d/subset" "$d" t tangent 10
	E=$(for k in $(seq 1 10); do printf '%s ' "$d/e$k"; done)
	T=$(for k in $(seq 1 10); do printf '%s ' "$d/t$k"; done)
	for l in $LABELS; do
		i=0
		t0=$(date +%s.%N)
		while read -r line && [ "$i" -lt "$TRIALS" ]; do
			i=$((i + 1))
			semi "$d/subset" "$line" "$d/semi"
			truth "$d/subset" "$line" "$d/truth"
			for set in $SETS; do
				case $set in
				eucl) combine "$d/semi" "$d" $E ;;
				tang) combine "$d/semi" "$d" $T ;;
				all) combine "$d/semi" "$d" $E $T ;;
				esac
				echo "$n $l $i $set $(err "$d/truth" "$d/pred")" >> "$OUT/fig4-runs.txt"
			done
		done < "$DATA/argyriou.oddeven.l$l.txt"
		t1=$(date +%s.%N)
		echo "$n $l time $(awk -v a="$t1" -v b="$t0" -v t="$i" 'BEGIN { printf "%.2f", (a - b) / t }')" >> "$OUT/fig4-runs.txt"
	done
	rm -rf "$d"
done
end=$(date +%s)
echo "Argyriou et al. Figure 4 (odd vs even): error (%) on the unlabeled rows against n, $TRIALS trials, rule $RULE; $((end - start)) s"
echo
awk -v sets="$SETS" 'BEGIN { nz = split(sets, z, " "); name["eucl"] = "Euclidean"; name["tang"] = "tangent"; name["all"] = "all (20)" }
	$3 == "time" { tm[$1, $2] = $4; next }
	{ s[$1, $2, $4] += $5; ss[$1, $2, $4] += $5 * $5; c[$1, $2, $4]++
	  if (!($1 in sn)) { sn[$1] = 1; ns[++nn] = $1 } if (!($2 in sl)) { sl[$2] = 1; ls[++nl] = $2 } }
	END {
		for (j = 1; j <= nl; j++) {
			l = ls[j]
			printf "%s labels:\n\n| n", l
			for (k = 1; k <= nz; k++) printf " | %s", name[z[k]]
			printf " | seconds per trial (%d combinations) |\n|---", nz
			for (k = 1; k <= nz + 1; k++) printf "|---"
			printf "|\n"
			for (i = 1; i <= nn; i++) {
				n = ns[i]; printf "| %s", n
				for (k = 1; k <= nz; k++) {
					m = s[n, l, z[k]] / c[n, l, z[k]]
					v = c[n, l, z[k]] > 1 ? (ss[n, l, z[k]] - c[n, l, z[k]] * m * m) / (c[n, l, z[k]] - 1) : 0
					printf " | %.2f ± %.2f", m, sqrt(v > 0 ? v : 0)
				}
				printf " | %s |\n", tm[n, l]
			}
			printf "\n"
		}
	}' "$OUT/fig4-runs.txt"
awk '$3 != "time" { s[$2, $1, $4] += $5; c[$2, $1, $4]++ }
	END { for (k in c) { split(k, a, SUBSEP); print a[1], a[2], a[3], s[k] / c[k] } }' "$OUT/fig4-runs.txt" |
	sort -k1,1n -k3,3 -k2,2n > "$OUT/fig4.dat"
if command -v gnuplot > /dev/null; then
	nl=$(echo $LABELS | wc -w)
	{
		echo "set terminal pngcairo size $((500 * nl)),420"
		echo "set output '$OUT/fig4.png'"
		echo "set multiplot layout 1,$nl title 'Figure 4: odd vs even, error on the unlabeled rows against the number of points'"
		echo "set xlabel 'n (labeled + unlabeled)'; set ylabel 'error (%)'; set key top right"
		sep=""
		for l in $LABELS; do
			echo "set title '$l labels'"
			plot="plot"
			for set in $SETS; do
				case $set in eucl) title=Euclidean ;; tang) title=tangent ;; *) title="all 20" ;; esac
				plot="$plot$sep '$OUT/fig4.dat' using (\$1 == $l && strcol(3) eq '$set' ? \$2 : 1/0):4 with linespoints title '$title'"
				sep=","
			done
			sep=""
			echo "$plot"
		done
		echo 'unset multiplot'
	} | gnuplot
	echo "Figure: $OUT/fig4.png"
fi
