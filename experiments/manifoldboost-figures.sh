#!/bin/bash
# manifoldboost-figures.sh -- the figures of ManifoldBoost (Loeff, Forsyth &
# Ramachandran, ICML 2008) on the toy sets, with the numbers they show:
#
#   Figure 1  two moons, one label per class: p(y = +1 | x) = 1/(1 +
#             exp(-2 F(x))) over the plane for Tree- and RBF-ManifoldBoost
#             (the paper's third and fourth panels), accuracy on the 198
#             unlabeled points
#   Figure 2  clustering, no label used (lapsvm-train -s boost -K): two moons
#             into 2 and three rings into 3, trees and RBFs, agreement with
#             the classes (clusters matched to classes) over SEEDS
#   Figure 3  three rings, one label per class (the K-tree multiclass
#             algorithm): the predicted class over the plane, accuracy on
#             the unlabeled points
#
#   experiments/manifoldboost-figures.sh [--install] [-o outdir]
#
#   --install  install gnuplot with apt-get if it is missing (root only)
#   -o outdir  where the PNGs go (default $OUT, else build/figures)
#
# Data: $DATA/twomoons.libsvm (if absent, lapsvm-datagen -S 1 moons); the
# rings from lapsvm-datagen -S s -n 300 rings (noise 0.1), s = 1 for the
# figures and each of SEEDS for the clustering table.  Graphs: the moons
# graph-build -e 0.25, the rings graph-build $RINGS_GRAPH.  The labeled rows
# of Figure 1 are those nearest (0, 1) (+1) and (1, -0.5) (-1), as in
# moons-figures.sh; of Figure 3 the first row of each ring.  PNGs:
#   mb-fig1-tree.png mb-fig1-rbf.png            Figure 1
#   mb-cluster-moons-tree.png mb-cluster-moons-rbf.png
#   mb-cluster-rings-tree.png mb-cluster-rings-rbf.png   (seed 1)
#   mb-fig3-tree.png mb-fig3-rbf.png            Figure 3
# Environment: BIN, DATA, OUT, GRID (grid points per side, default 120),
# SEEDS (default "1 2 3 4 5"), and the options of each run: FIG1_TREE
# ("-D 4 -B 1000 -z 0 -i 100"), FIG1_RBF ("-H rbf -g 10 -B 300 -z 0 -i 100"),
# MOONS_TREE ("-D 5 -j 0.5 -B 300"), MOONS_RBF ("-H rbf -g 30 -Q 30 -j 0.5
# -B 300"),
# RINGS_TREE ("-D 5 -j 0.5 -B 300"), RINGS_RBF ("-H rbf -g 30 -j 1 -B 1000"),
# RINGS_GRAPH ("-e 0.5"), RINGS_START ("spectral": -K 3:spectral, F_0 fitted
# to the graph Laplacian's two bottom nonconstant eigenvectors; "random":
# the paper's random start, which stalls at an angular mode), FIG3_TREE ("-D 4 -j 0.5 -B 150 -z 0 -i 10"),
# FIG3_RBF ("-H rbf -g 3 -j 0.5 -B 150 -z 0 -i 10").
set -euo pipefail
prog=manifoldboost-figures.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${DATA:-../shared/data}
BIN=${BIN:-$top}
OUT=${OUT:-build/figures}
GRID=${GRID:-120}
SEEDS=${SEEDS:-1 2 3 4 5}
FIG1_TREE=${FIG1_TREE:--D 4 -B 1000 -z 0 -i 100}
FIG1_RBF=${FIG1_RBF:--H rbf -g 10 -B 300 -z 0 -i 100}
MOONS_TREE=${MOONS_TREE:--D 5 -j 0.5 -B 300}
MOONS_RBF=${MOONS_RBF:--H rbf -g 30 -Q 30 -j 0.5 -B 300}
RINGS_TREE=${RINGS_TREE:--D 5 -j 0.5 -B 300}
RINGS_RBF=${RINGS_RBF:--H rbf -g 30 -j 1 -B 1000}
RINGS_GRAPH=${RINGS_GRAPH:--e 0.5}
RINGS_START=${RINGS_START:-spectral}
FIG3_TREE=${FIG3_TREE:--D 4 -j 0.5 -B 150 -z 0 -i 10}
FIG3_RBF=${FIG3_RBF:--H rbf -g 3 -j 0.5 -B 150 -z 0 -i 10}

install=0
while [ $# -gt 0 ]; do
	case $1 in
	--install) install=1 ;;
	-o)
		[ $# -ge 2 ] || { echo "$prog: option -o needs a directory" >&2; exit 2; }
		OUT=$2
		shift
		;;
	-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) echo "$prog: unknown argument '$1' (try -h)" >&2; exit 2 ;;
	esac
	shift
done

# shellcheck source=experiments/figures-lib.sh
. "$top/experiments/figures-lib.sh"
need_tools graph-build lapsvm-train lapsvm-predict lapsvm-datagen
need_gnuplot 760 600
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

# xy FILE: "x y label" per row (features 1 and 2; an omitted one is 0)
xy() {
	awk '{ x = 0; y = 0
		for (i = 2; i <= NF; i++) { split($i, p, ":")
			if (p[1] == 1) x = p[2]; else if (p[1] == 2) y = p[2] }
		print x, y, $1 + 0 }' "$1"
}

# grid XY: a GRID x GRID grid over the rows' box plus a margin, in LIBSVM
# format, into $tmp/grid; its box into x0 x1 y0 y1
grid() {
	read -r x0 x1 y0 y1 < <(awk '
		NR == 1 { a = b = $1; c = d = $2 }
		{ if ($1 < a) a = $1; if ($1 > b) b = $1; if ($2 < c) c = $2; if ($2 > d) d = $2 }
		END { m = 0.1 * (b - a); printf "%.6g %.6g %.6g %.6g\n", a - m, b + m, c - m, d + m }' "$1")
	awk -v g="$GRID" -v x0="$x0" -v x1="$x1" -v y0="$y0" -v y1="$y1" 'BEGIN {
		for (i = 0; i < g; i++) for (j = 0; j < g; j++)
			printf "0 1:%.17g 2:%.17g\n", x0 + (x1 - x0) * i / (g - 1),
				y0 + (y1 - y0) * j / (g - 1) }' > "$tmp/grid"
}

# surface PRED COLUMN: "x y value" of the grid from lapsvm-predict's output
# PRED (header skipped), value its COLUMN, a blank line after each x
surface() {
	tail -n +2 "$1" | cut -d' ' -f"$2" | paste -d' ' "$tmp/grid" - |
		awk -v g="$GRID" '{ split($2, p, ":"); split($3, q, ":")
			print p[2], q[2], $4; if (NR % g == 0) print "" }'
}

# agreement: "accuracy" of lapsvm-predict's report on stdin
agreement() {
	sed -n 's/^\(Clustering accuracy\|Accuracy\) = \([0-9.]*\)%.*/\2/p'
}

# ------------------------------------------------------------ Figure 1
moons=$DATA/twomoons.libsvm
if [ -r "$moons" ]; then
	cp "$moons" "$tmp/moons"
else
	echo "$prog: $moons not found; using lapsvm-datagen -S 1 moons" >&2
	"$BIN"/lapsvm-datagen -S 1 moons "$tmp/moons"
	moons="lapsvm-datagen -S 1 moons"
fi
xy "$tmp/moons" > "$tmp/mxy"
read -r pos neg < <(awk '
	{ dp = ($1 - 0)^2 + ($2 - 1)^2; dn = ($1 - 1)^2 + ($2 + 0.5)^2
	  if ($3 > 0 && (a == "" || dp < bp)) { a = NR; bp = dp }
	  if ($3 < 0 && (b == "" || dn < bn)) { b = NR; bn = dn } }
	END { print a, b }' "$tmp/mxy")
awk -v a="$pos" -v b="$neg" '{ if (NR != a && NR != b) $1 = 0; print }' "$tmp/moons" > "$tmp/semi"
awk -v a="$pos" -v b="$neg" 'NR == a || NR == b' "$tmp/mxy" > "$tmp/mlab"
"$BIN"/graph-build -q -e 0.25 "$tmp/moons" "$tmp/mgraph"
grid "$tmp/mxy"

: > "$tmp/fig1"
for h in tree rbf; do
	if [ $h = tree ]; then opts=$FIG1_TREE; else opts=$FIG1_RBF; fi
	# shellcheck disable=SC2086
	"$BIN"/lapsvm-train -q -s boost $opts -G "$tmp/mgraph" "$tmp/semi" "$tmp/m.model"
	"$BIN"/lapsvm-predict -q "$tmp/moons" "$tmp/m.model" "$tmp/m.pred"
	acc=$(paste -d' ' "$tmp/mxy" "$tmp/m.pred" | awk -v a="$pos" -v b="$neg" '
		NR != a && NR != b { n++; c += ($3 == $4) } END { printf "%.2f", 100 * c / n }')
	"$BIN"/lapsvm-predict -q -b "$tmp/grid" "$tmp/m.model" "$tmp/g.pred"
	surface "$tmp/g.pred" 2 > "$tmp/surf"
	gnuplot <<EOF
set encoding utf8
set terminal $term
set output '$OUT/mb-fig1-$h.png'
set xrange [$x0:$x1]; set yrange [$y0:$y1]; set size ratio -1
set tics out nomirror
set key outside below horizontal center
set title "$h-ManifoldBoost, two moons, one label per class: p(y = +1 | x)\\n{/=10 lapsvm-train -s boost $opts; accuracy on the unlabeled points $acc%}"
set contour base; unset surface; set view map
set cntrparam bspline levels discrete 0.5
set table '$tmp/c05'
splot '$tmp/surf' using 1:2:3 with lines
unset table; unset contour
set palette defined (0 '#2c62a8', 0.5 '#f7f7f7', 1 '#b8262f')
set cbrange [0:1]; set cblabel 'p(y = +1 | x)'
plot '$tmp/surf' using 1:2:3 with image notitle, \\
     '$tmp/c05' using 1:2 with lines lc rgb 'black' lw 3 title 'p = 1/2', \\
     '$tmp/mxy' using 1:2 with points pt 7 ps 0.4 lc rgb '#222222' title 'unlabeled', \\
     '$tmp/mlab' using 1:2:(\$3 > 0 ? 0xe0301e : 0x1f5fd0) with points pt 7 ps 2.5 lc rgb variable title 'labeled'
EOF
	printf '| Figure 1 | %s | `%s` | %s%% of the 198 unlabeled points | `%s/mb-fig1-%s.png` |\n' \
		"$h" "$opts" "$acc" "$OUT" "$h" >> "$tmp/fig1"
done

# ------------------------------------------------------------ Figure 2
# cluster DATA GRAPH OPTIONS...: -s boost -K with OPTIONS; the agreement
# of its clusters with the classes into $agree; the model in $tmp/c.model
cluster() {
	local data=$1 graph=$2
	shift 2
	"$BIN"/lapsvm-train -q -s boost "$@" -G "$graph" "$data" "$tmp/c.model"
	agree=$("$BIN"/lapsvm-predict "$data" "$tmp/c.model" "$tmp/c.pred" | agreement)
}

# clusterplot NAME DATA XY TITLE: the clusters of $tmp/c.model over the grid
# and at the rows
clusterplot() {
	"$BIN"/lapsvm-predict -q "$tmp/grid" "$tmp/c.model" "$tmp/cg.pred"
	"$BIN"/lapsvm-predict -q "$2" "$tmp/c.model" "$tmp/c.pred"
	paste -d' ' <(cut -d' ' -f1,2 "$3") "$tmp/c.pred" > "$tmp/cxy"
	awk -v g="$GRID" '{ print; if (NR % g == 0) print "" }' \
		<(paste -d' ' "$tmp/grid" "$tmp/cg.pred" | awk '{ split($2, p, ":"); split($3, q, ":"); print p[2], q[2], $4 }') \
		> "$tmp/csurf"
	gnuplot <<EOF
set encoding utf8
set terminal $term
set output '$OUT/$1.png'
set xrange [$x0:$x1]; set yrange [$y0:$y1]; set size ratio -1
set tics out nomirror
set key outside below horizontal center
set title "$4"
set palette defined (1 '#c9dcf0', 2 '#f6d0c4', 3 '#d5ecc8')
set cbrange [1:3]; unset colorbox
plot '$tmp/csurf' using 1:2:3 with image notitle, \\
     '$tmp/cxy' using 1:2:(\$3 == 1 ? 0x1f5fd0 : \$3 == 2 ? 0xe0301e : 0x2a9d3a) with points pt 7 ps 0.7 lc rgb variable title 'rows, coloured by cluster'
EOF
}

: > "$tmp/fig2"
grid "$tmp/mxy"
for h in tree rbf; do
	if [ $h = tree ]; then opts=$MOONS_TREE; else opts=$MOONS_RBF; fi
	list=""
	for s in $SEEDS; do
		# shellcheck disable=SC2086
		cluster "$tmp/moons" "$tmp/mgraph" -K 2 -S "$s" $opts
		list="$list $agree"
		if [ "$s" = "$(set -- $SEEDS; echo "$1")" ]; then
			clusterplot "mb-cluster-moons-$h" "$tmp/moons" "$tmp/mxy" \
				"$h-ManifoldBoost clustering, two moons into 2, no labels\\n{/=10 -K 2 $opts -S $s; agreement $agree%}"
		fi
	done
	printf 'moons|%s|-K 2 %s|%s\n' "$h" "$opts" "$list" >> "$tmp/fig2"
done
for h in tree rbf; do
	if [ $h = tree ]; then opts=$RINGS_TREE; else opts=$RINGS_RBF; fi
	list=""
	first=1
	for s in $SEEDS; do
		"$BIN"/lapsvm-datagen -S "$s" -n 300 rings "$tmp/rings"
		# shellcheck disable=SC2086
		"$BIN"/graph-build -q $RINGS_GRAPH "$tmp/rings" "$tmp/rgraph"
		# shellcheck disable=SC2086
		cluster "$tmp/rings" "$tmp/rgraph" -K "3:$RINGS_START" -S "$s" $opts
		list="$list $agree"
		if [ $first = 1 ]; then
			xy "$tmp/rings" > "$tmp/rxy"
			grid "$tmp/rxy"
			clusterplot "mb-cluster-rings-$h" "$tmp/rings" "$tmp/rxy" \
				"$h-ManifoldBoost clustering, three rings into 3, no labels\\n{/=10 -K 3:$RINGS_START $opts -S $s; agreement $agree%}"
			first=0
		fi
	done
	printf 'rings|%s|-K 3:%s %s|%s\n' "$h" "$RINGS_START" "$opts" "$list" >> "$tmp/fig2"
done

# ------------------------------------------------------------ Figure 3
"$BIN"/lapsvm-datagen -S 1 -n 300 rings "$tmp/rings"
awk '{ if (seen[$1]++) $1 = 0; print }' "$tmp/rings" > "$tmp/rsemi"
xy "$tmp/rings" > "$tmp/rxy"
awk '!seen[$3]++' "$tmp/rxy" > "$tmp/rlab"
# shellcheck disable=SC2086
"$BIN"/graph-build -q $RINGS_GRAPH "$tmp/rings" "$tmp/rgraph"
grid "$tmp/rxy"
: > "$tmp/fig3"
for h in tree rbf; do
	if [ $h = tree ]; then opts=$FIG3_TREE; else opts=$FIG3_RBF; fi
	# shellcheck disable=SC2086
	"$BIN"/lapsvm-train -q -s boost $opts -G "$tmp/rgraph" "$tmp/rsemi" "$tmp/c.model"
	"$BIN"/lapsvm-predict -q "$tmp/rings" "$tmp/c.model" "$tmp/r.pred"
	acc=$(paste -d' ' "$tmp/rsemi" "$tmp/r.pred" | cut -d' ' -f1,4 |
		paste -d' ' <(cut -d' ' -f1 "$tmp/rings") - |
		awk '$2 == 0 { n++; c += ($1 == $3) } END { printf "%.2f", 100 * c / n }')
	clusterplot "mb-fig3-$h" "$tmp/rings" "$tmp/rxy" \
		"$h-ManifoldBoost, three rings, one label per class\\n{/=10 lapsvm-train -s boost $opts; accuracy on the unlabeled points $acc%}"
	printf '| Figure 3 | %s | `%s` | %s%% of the 297 unlabeled points | `%s/mb-fig3-%s.png` |\n' \
		"$h" "$opts" "$acc" "$OUT" "$h" >> "$tmp/fig3"
done

# --------------------------------------------------------------- tables
echo "# ManifoldBoost figures ($moons; rings: lapsvm-datagen -n 300 rings, graph-build $RINGS_GRAPH)"
echo
echo "| figure | learner | lapsvm-train -s boost options | measured | PNG |"
echo "|---|---|---|---|---|"
cat "$tmp/fig1" "$tmp/fig3"
echo
echo "Clustering (Figure 2, no labels used; agreement with the classes, clusters matched to classes; seeds $SEEDS: -S, and the rings' lapsvm-datagen -S):"
echo
echo "| data | learner | options | mean | min | runs at >= 95% | each |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r data h opts list; do
	echo "$list" | awk -v d="$data" -v h="$h" -v o="$opts" -v out="$OUT" '{
		s = 0; mn = 101; k = 0
		for (i = 1; i <= NF; i++) { s += $i; if ($i < mn) mn = $i; k += ($i >= 95) }
		printf "| %s | %s | `%s` | %.2f%% | %.2f%% | %d of %d | %s |\n", d, h, o, s / NF, mn, k, NF, $0 }'
done < "$tmp/fig2"
echo
echo "PNGs of the clustering: $OUT/mb-cluster-{moons,rings}-{tree,rbf}.png (the first seed)."
