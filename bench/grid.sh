#!/bin/sh
# bench/grid.sh -- model selection in one lapsvm-train run against the
# alternatives: a 7 x 7 grid over -a and -i with -v 5 on 1500 two-moons
# points (50 labeled, 25 per class; graph built once), timed against
#   (a) one training at one setting, and
#   (b) a shell loop of the 49 settings, one `lapsvm-train -v 5` each.
# Prints the three wall times and the ratios.  BIN: where the tools are
# (default: the top of the source tree).
#
# Two moons in 2-D make a kernel of low numerical rank (about 140 of 1500),
# which the shared factorization exploits.  When DATA (default
# ../shared/data) holds Digit1 (ssl_digit1.libsvm.gz, 1500 x 241, full
# rank), the same one-training / grid comparison runs on it too, with the
# labels of its first l = 100 split and a 10-NN graph (no loop: it would
# take about 49 grids' time).
set -eu
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

A="1e-6,1e-5,1e-4,1e-3,1e-2,1e-1,1"
I="0,1e-3,1e-2,1e-1,1,10,100"
"$BIN/lapsvm-datagen" -S 1 -n 1500 -l 25 moons "$W/m.txt"
"$BIN/graph-build" -q "$W/m.txt" "$W/m.graph"
OPTS="-q -t 2 -g 4 -G $W/m.graph"

now() { date +%s.%N; }

t0=$(now)
"$BIN/lapsvm-train" $OPTS -a 1e-3 -i 1 "$W/m.txt" "$W/one.model"
t1=$(now)
"$BIN/lapsvm-train" $OPTS -v 5 -a "$A" -i "$I" "$W/m.txt" "$W/grid.model" >"$W/grid.out"
t2=$(now)
for a in $(echo "$A" | tr , ' '); do
	for i in $(echo "$I" | tr , ' '); do
		"$BIN/lapsvm-train" $OPTS -v 5 -a "$a" -i "$i" "$W/m.txt" "$W/loop.model" >/dev/null
	done
done
t3=$(now)

cat "$W/grid.out"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
	one = b - a; grid = c - b; loop = d - c
	printf "one training (-a 1e-3 -i 1):        %7.2f s\n", one
	printf "7 x 7 grid, -v 5, one run:           %7.2f s  (%.1f x one training)\n", grid, grid / one
	printf "49 runs of lapsvm-train -v 5 (loop): %7.2f s  (%.1f x one training, %.2f x the grid)\n", loop, loop / one, loop / grid
}'

DATA=${DATA:-$BIN/../shared/data}
D1=$DATA/ssl_digit1.libsvm.gz
SPLIT=$DATA/ssl_digit1.splits.l100.txt
[ -r "$D1" ] && [ -r "$SPLIT" ] || exit 0
gzip -dc "$D1" >"$W/all.txt"
head -n 1 "$SPLIT" | tr ' ,' '\n\n' | grep . >"$W/lab.txt"
awk 'NR == FNR { lab[$1] = 1; next } { if (!(FNR in lab)) $1 = 0; print }' \
	"$W/lab.txt" "$W/all.txt" >"$W/d.txt"
"$BIN/graph-build" -q -k 10 "$W/d.txt" "$W/d.graph"
DOPTS="-q -s laprls -G $W/d.graph"
t0=$(now)
"$BIN/lapsvm-train" $DOPTS -a 1e-3 -i 1 "$W/d.txt" "$W/one.model"
t1=$(now)
"$BIN/lapsvm-train" $DOPTS -v 5 -a "$A" -i "$I" "$W/d.txt" "$W/grid.model" >"$W/grid.out"
t2=$(now)
echo
echo "Digit1 (1500 x 241, full-rank kernel), l = 100, LapRLS, 10-NN graph:"
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
	one = b - a; grid = c - b
	printf "one training (-a 1e-3 -i 1):        %7.2f s\n", one
	printf "7 x 7 grid, -v 5, one run:           %7.2f s  (%.1f x one training)\n", grid, grid / one
}'
