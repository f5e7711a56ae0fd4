#!/bin/bash
# cluster-figures.sh -- JMLR 2006 (Belkin, Niyogi & Sindhwani) Section 6.1,
# regularized spectral clustering (lapsvm-train -s cluster) on the toy sets:
# Figure 9 (two moons) and Figure 10 (two spirals), the clustering function
# f drawn over the plane with the points; a sweep over settings near the
# smallest gamma_A (the badly conditioned end); and the out-of-sample
# extension on fresh points.  Driven only through the command-line tools
# (graph-build, lapsvm-train, lapsvm-predict, lapsvm-datagen), awk and
# gnuplot.  No label is used to train: the labels only score the clusters.
#
#   experiments/cluster-figures.sh [--install] [-o outdir]
#
#   -o outdir    where the PNGs go (default $OUT, else build/figures)
#   --install    if gnuplot is missing and we run as root, install it with
#                apt-get (gnuplot-nox) instead of stopping
#
# Data:
#   moons    $DATA/twomoons.libsvm (DATA defaults to ../shared/data; if
#            absent, `lapsvm-datagen -S 1 -e 0.08 moons`: with the default
#            noise 0.1 the -e 0.25 graph has 3 edges between the moons and
#            the clusters are lost), 200 points
#   spirals  `lapsvm-datagen -n 600 spirals`: Lang & Witbrock's two spirals
#            with 300 points per arm instead of 97.  With 97 per arm an
#            outer point is 1.27 from its nearest neighbour on its own arm,
#            farther than the 0.93 between the arms, so no neighbourhood
#            graph can follow an arm; with 300 the largest such gap is 0.41
#            and the arms stay 0.93 apart (printed below, measured on the
#            file; tests/bats/datagen.bats checks both).
# Settings (gamma_I = 1 throughout: only gamma_A/gamma_I matters):
#   moons    RBF -g 4 (sigma = 0.35), graph-build -e 0.25 (heat weights),
#            gamma_A = 1e-6, 1e-4, 0.1 (Figure 9)
#   spirals  RBF -g 1 (sigma = 0.71), graph-build -e 0.6 (heat weights),
#            gamma_A = 1e-6, 1e-3, 0.1 (Figure 10)
#   unnormalized Laplacian (the -s cluster default), 2 clusters: f > 0 is
#   cluster 1.  The epsilon-ball graphs have no isolated row and no edge
#   between the arms; a k-NN graph of the spirals reaches across the arms
#   in the sparse outer turns (printed below: the edges between the classes
#   and the agreement with -k 6, and -k 6 on the moons).
#
# Writes, in outdir:
#   fig9-moons-A1e-6.png, fig9-moons-A1e-4.png, fig9-moons-A0.1.png
#   fig10-spirals-A1e-6.png, fig10-spirals-A1e-3.png, fig10-spirals-A0.1.png
# and prints on stdout Markdown tables: each figure's agreement with the
# true moon / spiral and the length of its boundary f = 0 inside the
# picture (the smoothness measure: a boundary that follows the gap between
# the arms is long, a smooth one short); the sweep; the out-of-sample
# agreement.
#
# Environment: BIN (tools; default the top of this source tree), DATA, OUT,
# GRID (150), MOONS_OPTS ("-g 4"), MOONS_GRAPH ("-e 0.25"), MOONS_A
# ("1e-6 1e-4 0.1"), SPIRALS_N (600), SPIRALS_OPTS ("-g 1"), SPIRALS_GRAPH
# ("-e 0.6"), SPIRALS_A ("1e-6 1e-3 0.1"), OOS_TRAIN ("-S 1 moons"),
# OOS_TEST ("-S 7 -n 10000 moons"), OOS_GRAPH ("-e 0.2"), SWEEP (1; 0
# leaves the sweep out).
set -euo pipefail

prog=cluster-figures.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${DATA:-../shared/data}
BIN=${BIN:-$top}
OUT=${OUT:-build/figures}
GRID=${GRID:-150}
MOONS_OPTS=${MOONS_OPTS:--g 4}
MOONS_GRAPH=${MOONS_GRAPH:--e 0.25}
MOONS_A=${MOONS_A:-1e-6 1e-4 0.1}
SPIRALS_N=${SPIRALS_N:-600}
SPIRALS_OPTS=${SPIRALS_OPTS:--g 1}
SPIRALS_GRAPH=${SPIRALS_GRAPH:--e 0.6}
SPIRALS_A=${SPIRALS_A:-1e-6 1e-3 0.1}
OOS_TRAIN=${OOS_TRAIN:--S 1 moons}
OOS_TEST=${OOS_TEST:--S 7 -n 10000 moons}
OOS_GRAPH=${OOS_GRAPH:--e 0.2}
SWEEP=${SWEEP:-1}

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

install=0
while [ $# -gt 0 ]; do
	case $1 in
	--install) install=1 ;;
	-o)
		[ $# -ge 2 ] || { echo "$prog: option -o needs a directory" >&2; exit 2; }
		OUT=$2
		shift
		;;
	-h | --help) usage; exit 0 ;;
	*) echo "$prog: unknown argument '$1' (try -h)" >&2; exit 2 ;;
	esac
	shift
done

# shellcheck source=experiments/figures-lib.sh
. "$top/experiments/figures-lib.sh"
need_tools graph-build lapsvm-train lapsvm-predict lapsvm-datagen
need_gnuplot 800 720

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

# xy FILE: "x y label" of every row (features 1 and 2; an omitted one is 0).
xy() {
	awk '{ x = 0; y = 0
		for (i = 2; i <= NF; i++) { split($i, p, ":")
			if (p[1] == 1) x = p[2]; else if (p[1] == 2) y = p[2] }
		print x, y, $1 + 0 }' "$1"
}

# agreement PREDICT_OUTPUT: "percent matched total" from lapsvm-predict's
# "Clustering accuracy = X% (m/n)".
agreement() {
	sed -n 's/^Clustering accuracy = \([0-9.]*\)% (\([0-9]*\)\/\([0-9]*\)).*/\1 \2 \3/p' "$1"
}

# train DATA GRAPH MODEL OPTIONS...: lapsvm-train -s cluster, its stderr kept
# in MODEL.log.
train() {
	local data=$1 graph=$2 model=$3
	shift 3
	"$BIN"/lapsvm-train -s cluster "$@" -I 1 -G "$graph" "$data" "$model" \
		2> "$model.log"
}

# --------------------------------------------------------------------- data
if [ -r "$DATA/twomoons.libsvm" ]; then
	cp "$DATA/twomoons.libsvm" "$tmp/moons"
	moons_src="$DATA/twomoons.libsvm"
else
	echo "$prog: $DATA/twomoons.libsvm not found; using lapsvm-datagen -S 1 -e 0.08 moons" >&2
	"$BIN"/lapsvm-datagen -S 1 -e 0.08 moons "$tmp/moons"
	moons_src="lapsvm-datagen -S 1 -e 0.08 moons"
fi
"$BIN"/lapsvm-datagen -n "$SPIRALS_N" spirals "$tmp/spirals"
xy "$tmp/moons" > "$tmp/moons.xy"
xy "$tmp/spirals" > "$tmp/spirals.xy"

# The spirals' geometry: the largest distance from a point to its nearest
# neighbour on the same arm, and the smallest distance between the arms.
read -r gap_same gap_other < <(awk '{ x[NR] = $1; y[NR] = $2; l[NR] = $3 }
	END { ms = 0; mo = 1e300
		for (i = 1; i <= NR; i++) { bs = 1e300
			for (j = 1; j <= NR; j++) { if (i == j) continue
				d = sqrt((x[i] - x[j])^2 + (y[i] - y[j])^2)
				if (l[i] == l[j]) { if (d < bs) bs = d }
				else if (d < mo) mo = d }
			if (bs > ms) ms = bs }
		printf "%.3f %.3f\n", ms, mo }' "$tmp/spirals.xy")

# ------------------------------------------------------------------ figures
# figure NAME TITLE DATA GRAPHOPTS MARGIN OPTIONS...: cluster DATA, predict
# it and a GRID x GRID grid over its bounding box (plus MARGIN), draw
# OUT/NAME.png; appends "NAME|OPTIONS|AGREE|MATCHED/N|LENGTH" to
# $tmp/results.
figure() {
	local name=$1 title=$2 data=$3 gopts=$4 margin=$5
	shift 5
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $gopts "$tmp/$data" "$tmp/$data.graph"
	train "$tmp/$data" "$tmp/$data.graph" "$tmp/$name.model" "$@"
	"$BIN"/lapsvm-predict -d "$tmp/$data" "$tmp/$name.model" "$tmp/$name.pred" \
		> "$tmp/$name.acc"
	local acc matched total x0 x1 y0 y1 fmax
	read -r acc matched total < <(agreement "$tmp/$name.acc")
	read -r x0 x1 y0 y1 < <(awk -v m="$margin" '
		NR == 1 { a = b = $1; c = d = $2 }
		{ if ($1 < a) a = $1; if ($1 > b) b = $1; if ($2 < c) c = $2; if ($2 > d) d = $2 }
		END { printf "%.6g %.6g %.6g %.6g\n", a - m, b + m, c - m, d + m }' "$tmp/$data.xy")
	# f on the points: the colour scale is symmetric, to the largest |f|
	fmax=$(tail -n +2 "$tmp/$name.pred" | awk '{ v = $2 < 0 ? -$2 : $2; if (v > m) m = v }
		END { printf "%.6g\n", (m > 1e-300) ? m : 1 }')
	# the points by cluster (f > 0: cluster 1) and true class
	tail -n +2 "$tmp/$name.pred" | paste -d' ' "$tmp/$data.xy" - > "$tmp/$name.pts"
	awk '$3 > 0' "$tmp/$name.pts" > "$tmp/$name.pos"
	awk '$3 <= 0' "$tmp/$name.pts" > "$tmp/$name.neg"
	awk -v g="$GRID" -v x0="$x0" -v x1="$x1" -v y0="$y0" -v y1="$y1" 'BEGIN {
		for (i = 0; i < g; i++) for (j = 0; j < g; j++)
			printf "0 1:%.17g 2:%.17g\n", x0 + (x1 - x0) * i / (g - 1),
				y0 + (y1 - y0) * j / (g - 1) }' > "$tmp/$name.grid"
	"$BIN"/lapsvm-predict -q -d "$tmp/$name.grid" "$tmp/$name.model" "$tmp/$name.gpred"
	tail -n +2 "$tmp/$name.gpred" | cut -d' ' -f2 | paste -d' ' "$tmp/$name.grid" - |
		awk -v g="$GRID" '{ split($2, p, ":"); split($3, q, ":")
			print p[2], q[2], $4; if (NR % g == 0) print "" }' > "$tmp/$name.surf"
	gnuplot <<EOF
set encoding utf8
set terminal $term
set output '$OUT/$name.png'
set xrange [$x0:$x1]; set yrange [$y0:$y1]
set size ratio -1
set tics out nomirror
set key outside below horizontal center samplen 2 spacing 1.2
set title "$title\\n{/=10 agreement with the true classes: $acc% ($matched/$total)}"
set contour base; unset surface; set view map
set cntrparam bspline levels discrete 0
set table '$tmp/$name.c0'
splot '$tmp/$name.surf' using 1:2:3 with lines
unset table
unset contour
set palette defined (-1 '#2c62a8', -0.5 '#8fb6dd', 0 '#f7f7f7', 0.5 '#f0a58a', 1 '#b8262f')
set cbrange [-$fmax:$fmax]
set cblabel 'f(x)'
plot '$tmp/$name.surf' using 1:2:3 with image notitle, \\
     '$tmp/$name.c0' using 1:2 with lines lc rgb 'black' lw 3 title 'f(x) = 0', \\
     '$tmp/$name.pos' using 1:2 with points pt 7 ps 0.6 lc rgb '#7a0c14' title 'class +1', \\
     '$tmp/$name.neg' using 1:2 with points pt 5 ps 0.55 lc rgb '#0b2f6b' title 'class -1'
EOF
	# the length of the boundary f = 0: the contour's segments (gnuplot's
	# table: blocks of "x y z" lines, a blank line between pieces)
	local len
	len=$(awk '/^#/ { next } NF < 2 { have = 0; next }
		{ if (have) s += sqrt(($1 - px)^2 + ($2 - py)^2); px = $1; py = $2; have = 1 }
		END { printf "%.2f\n", s }' "$tmp/$name.c0")
	printf '%s|%s|%s|%s/%s|%s\n' "$name" "$*" "$acc" "$matched" "$total" "$len" >> "$tmp/results"
}

: > "$tmp/results"
for a in $MOONS_A; do
	# shellcheck disable=SC2086
	figure "fig9-moons-A$a" "Figure 9: two moons, γ_A = $a, γ_I = 1 ($MOONS_OPTS, graph $MOONS_GRAPH)" \
		moons "$MOONS_GRAPH" 0.3 $MOONS_OPTS -A "$a"
done
for a in $SPIRALS_A; do
	# shellcheck disable=SC2086
	figure "fig10-spirals-A$a" "Figure 10: two spirals, γ_A = $a, γ_I = 1 ($SPIRALS_OPTS, graph $SPIRALS_GRAPH)" \
		spirals "$SPIRALS_GRAPH" 0.5 $SPIRALS_OPTS -A "$a"
done

echo "### Figures 9 and 10 (gamma_I = 1, two clusters, f > 0 is cluster 1)"
echo
echo "Moons: $moons_src, graph-build $MOONS_GRAPH. Spirals: lapsvm-datagen -n $SPIRALS_N spirals" \
	"(largest nearest-neighbour gap along an arm $gap_same, smallest distance between the arms $gap_other)," \
	"graph-build $SPIRALS_GRAPH."
echo
printf '| figure | lapsvm-train -s cluster options | agreement with the true class | length of f = 0 in the picture | PNG |\n'
printf '|---|---|---|---|---|\n'
while IFS='|' read -r name opts acc frac len; do
	# shellcheck disable=SC2016
	printf '| %s | `%s -I 1` | %s%% (%s) | %s | %s |\n' "${name%%-A*}" "$opts" "$acc" "$frac" "$len" "$OUT/$name.png"
done < "$tmp/results"
echo
echo "Expected (issue 15, after the paper's Figures 9 and 10): at the smallest gamma_A at least 98% of the"
echo "points agree with their true moon / spiral; at gamma_A = 0.1 the boundary is smoother (shorter)."

# The graph matters most: epsilon-ball against 6-NN at the smallest gamma_A.
# cross FILE GRAPH: the graph's edges (i < j) between rows of two classes.
cross() {
	awk 'NR == FNR { l[FNR] = $1; next }
		{ for (i = 2; i <= NF; i++) { split($i, a, ":")
			if (a[1] > $1 && l[$1] != l[a[1]]) x++ } }
		END { print x + 0 }' "$1" "$2"
}
echo
printf '| data | graph | edges between the classes | agreement at the smallest gamma_A |\n|---|---|---|---|\n'
set -- "moons|$MOONS_GRAPH|$MOONS_OPTS|${MOONS_A%% *}" "moons|-k 6|$MOONS_OPTS|${MOONS_A%% *}" \
	"spirals|$SPIRALS_GRAPH|$SPIRALS_OPTS|${SPIRALS_A%% *}" "spirals|-k 6|$SPIRALS_OPTS|${SPIRALS_A%% *}"
for row in "$@"; do
	IFS='|' read -r data gopts topts a <<<"$row"
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $gopts "$tmp/$data" "$tmp/cmp.graph"
	# shellcheck disable=SC2086
	train "$tmp/$data" "$tmp/cmp.graph" "$tmp/cmp.model" $topts -A "$a"
	"$BIN"/lapsvm-predict "$tmp/$data" "$tmp/cmp.model" "$tmp/cmp.pred" > "$tmp/cmp.acc"
	read -r acc matched total < <(agreement "$tmp/cmp.acc")
	# shellcheck disable=SC2016
	printf '| %s | `graph-build %s` | %s | %s%% (%s/%s) |\n' "$data" "$gopts" \
		"$(cross "$tmp/$data" "$tmp/cmp.graph")" "$acc" "$matched" "$total"
done

# ------------------------------------------------------------ the sweep
# Settings near the smallest gamma_A, where the pencil of eq. 14 is worst
# conditioned: gamma_A x kernel width x graph epsilon.  Each cell is the
# agreement; after the table the worst relative eigenvalue gap, the largest
# constraint violation and the number of warnings over the cells, of each
# kind: the solution not determined by the data, and a graph of several
# connected components (an epsilon-ball graph with no edge between the
# classes has one per class: there the cut the clustering should find).
# sweep DATA "A..." "G..." "E...": a Markdown table, rows (gamma_A, -g),
# columns -e.
sweep() {
	local data=$1 as=$2 gs=$3 es=$4 a g e
	printf '| gamma_A | -g |'
	for e in $es; do printf ' -e %s |' "$e"; done
	printf '\n|---|---|'
	for e in $es; do printf -- '---|'; done
	printf '\n'
	: > "$tmp/sweep.stats"
	for e in $es; do
		"$BIN"/graph-build -q -e "$e" "$tmp/$data" "$tmp/$data.e$e"
	done
	for a in $as; do
		for g in $gs; do
			printf '| %s | %s |' "$a" "$g"
			for e in $es; do
				train "$tmp/$data" "$tmp/$data.e$e" "$tmp/sw.model" -g "$g" -A "$a"
				"$BIN"/lapsvm-predict "$tmp/$data" "$tmp/sw.model" "$tmp/sw.pred" > "$tmp/sw.acc"
				printf ' %s%% |' "$(agreement "$tmp/sw.acc" | cut -d' ' -f1)"
				awk '/relative gap to the next/ { sub(/.*relative gap to the next /, ""); g = $1 }
					/largest violation/ { sub(/.*largest violation /, ""); v = $1 }
					/warning: the clustering is not determined/ { w++ }
					/warning: the graph has [0-9]* connected components/ { c++ }
					END { print g + 0, v + 0, w + 0, c + 0 }' "$tmp/sw.model.log" >> "$tmp/sweep.stats"
			done
			printf '\n'
		done
	done
	awk '{ if (NR == 1 || $1 < g) g = $1; if ($2 > v) v = $2; w += $3; c += $4 }
		END { printf "\n%d settings: smallest relative gap between the eigenvalue used and the next %.3g;" \
			" largest constraint violation %.2g; warnings that the result is not determined %d;" \
			" graphs of several connected components %d.\n", NR, g, v, w, c }' "$tmp/sweep.stats"
}

if [ "$SWEEP" = 1 ]; then
	echo
	echo "### Near the smallest gamma_A: agreement over nearby settings (gamma_I = 1)"
	echo
	echo "Two moons ($moons_src):"
	echo
	sweep moons "3e-7 1e-6 3e-6" "2 4 8" "0.25 0.3 0.35"
	echo
	echo "Two spirals (lapsvm-datagen -n $SPIRALS_N spirals):"
	echo
	sweep spirals "3e-7 1e-6 3e-6" "0.5 1 2" "0.5 0.6 0.7"
fi

# -------------------------------------------------------- out of sample
# oos: cluster lapsvm-datagen $OOS_TRAIN, predict lapsvm-datagen $OOS_TEST.
echo
echo "### Out of sample: cluster lapsvm-datagen $OOS_TRAIN, predict lapsvm-datagen $OOS_TEST"
echo
# shellcheck disable=SC2086
"$BIN"/lapsvm-datagen $OOS_TRAIN "$tmp/oos.train"
# shellcheck disable=SC2086
"$BIN"/lapsvm-datagen $OOS_TEST "$tmp/oos.test"
# shellcheck disable=SC2086
"$BIN"/graph-build -q $OOS_GRAPH "$tmp/oos.train" "$tmp/oos.graph"
printf '| gamma_A | in sample (%s points) | out of sample (%s fresh points) |\n' \
	"$(wc -l < "$tmp/oos.train")" "$(wc -l < "$tmp/oos.test")"
printf '|---|---|---|\n'
for a in $MOONS_A; do
	# shellcheck disable=SC2086
	train "$tmp/oos.train" "$tmp/oos.graph" "$tmp/oos.model" $MOONS_OPTS -A "$a"
	"$BIN"/lapsvm-predict "$tmp/oos.train" "$tmp/oos.model" "$tmp/oos.p1" > "$tmp/oos.a1"
	"$BIN"/lapsvm-predict "$tmp/oos.test" "$tmp/oos.model" "$tmp/oos.p2" > "$tmp/oos.a2"
	read -r a1 m1 n1 < <(agreement "$tmp/oos.a1")
	read -r a2 m2 n2 < <(agreement "$tmp/oos.a2")
	printf '| %s | %s%% (%s/%s) | %s%% (%s/%s) |\n' "$a" "$a1" "$m1" "$n1" "$a2" "$m2" "$n2"
done
echo
# shellcheck disable=SC2016
echo "Settings: \`graph-build $OOS_GRAPH\`, \`lapsvm-train -s cluster $MOONS_OPTS -A gamma_A -I 1\`."
