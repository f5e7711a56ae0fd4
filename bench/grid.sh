#!/bin/sh
# bench/grid.sh -- model selection in one lapsvm-train run against the
# alternatives: a 7 x 7 grid over -a and -i with -v 5 on 1500 two-moons
# points (50 labeled, 25 per class; graph built once), timed against
#   (a) one training at one setting, and
#   (b) a shell loop of the 49 settings, one `lapsvm-train -v 5` each.
# Prints the three wall times and the ratios.  BIN: where the tools are
# (default: the top of the source tree).
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
