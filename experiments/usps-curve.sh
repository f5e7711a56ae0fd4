#!/bin/bash
# usps-curve.sh -- JMLR 2006 Figure 5: mean error at PRBEP over the 45 USPS
# pairs as the number of labeled images grows (2 to 128 per problem, i.e.
# 1 to 64 per class), for RLS, LapRLS, SVM and LapSVM.  Runs
# experiments/usps-pairs.sh once per size.
#
#   experiments/usps-curve.sh
# Environment: as usps-pairs.sh, plus SIZES ("1 2 4 8 16 32 64": labeled
# per class) and DRAWS (default 2 here, to keep the whole curve to minutes).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-build/usps-curve}
SIZES=${SIZES:-1 2 4 8 16 32 64}
export DRAWS=${DRAWS:-2}
methods=${*:-rls laprls svm lapsvm}
mkdir -p "$OUT"
: > "$OUT/curve.txt"
for k in $SIZES; do
	LABELS=$k OUT="$OUT/l$k" "$here/usps-pairs.sh" $methods > "$OUT/l$k.log"
	for s in $methods; do
		awk -v s="$s" -v k="$k" '$3 == s { u += $4; t += $5; n++ }
			END { print 2 * k, s, u / n, t / n }' "$OUT/l$k/pairs.txt" >> "$OUT/curve.txt"
	done
done
printf 'USPS pairs, mean error at PRBEP over 45 pairs (%s draws): unlabeled / test\n' "$DRAWS"
printf '| labeled |'; for s in $methods; do printf ' %s |' "$s"; done; printf '\n|---|'
for s in $methods; do printf -- '---|'; done; printf '\n'
for k in $SIZES; do
	printf '| %d |' $((2 * k))
	for s in $methods; do
		awk -v s="$s" -v l=$((2 * k)) '$1 == l && $2 == s { printf " %.2f / %.2f |", $3, $4 }' "$OUT/curve.txt"
	done
	printf '\n'
done
if command -v gnuplot > /dev/null; then
	for col in 3 4; do
		name=$([ "$col" = 3 ] && echo unlabeled || echo test)
		plots=""
		for s in $methods; do
			awk -v s="$s" -v c="$col" '$2 == s { print $1, $c }' "$OUT/curve.txt" > "$OUT/$s.$name.dat"
			plots="$plots${plots:+, }\"$OUT/$s.$name.dat\" using 1:2 with linespoints title \"$s\""
		done
		gnuplot <<-GP
		set terminal pngcairo size 640,440
		set output "$OUT/fig5-$name.png"
		set title "USPS pairs: mean error at PRBEP on the $name set"
		set logscale x 2; set xlabel "labeled examples per problem"; set ylabel "error (%)"
		plot $plots
		GP
	done
	echo "Figure 5: $OUT/fig5-unlabeled.png $OUT/fig5-test.png"
fi
