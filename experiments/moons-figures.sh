#!/bin/bash
# moons-figures.sh -- JMLR 2006 (Belkin, Niyogi & Sindhwani) Figures 2 and 3
# on the two moons: 200 points, ONE labeled point per class, the decision
# surfaces drawn with gnuplot.  Driven only through the command-line tools
# (graph-build, lapsvm-train, lapsvm-predict, lapsvm-datagen), awk and gnuplot.
#
#   experiments/moons-figures.sh [--install] [-o outdir] [data.libsvm]
#
#   data.libsvm  default $DATA/twomoons.libsvm (DATA defaults to
#                ../shared/data); if absent, `lapsvm-datagen -S 1 moons`
#   -o outdir    where the PNGs go (default $OUT, else build/figures)
#   --install    if gnuplot is missing and we run as root, install it with
#                apt-get (gnuplot-nox) instead of stopping
#
# Writes, in outdir:
#   fig3-svm.png            SVM    (-s lapsvm -i 0)            Figure 3, left
#   fig3-tsvm.png           TSVM   (-s tsvm)                   Figure 3, middle
#   fig3-lapsvm.png         LapSVM ($LAP_OPTS, as moons.sh)    Figure 3, right
#   fig2-lapsvm-gi0.png     LapSVM gamma_I = 0 (the SVM)       Figure 2, left
#   fig2-lapsvm-gi0.01.png  LapSVM gamma_I = 0.01              Figure 2, middle
#   fig2-lapsvm-gi1.png     LapSVM gamma_I = 1                 Figure 2, right
# and prints on stdout a Markdown table of the accuracies on the unlabeled
# points (the 198 rows whose label was hidden, scored against the truth).
#
# Regularization convention: the paper's products, as moons.sh does:
#   -a gamma_A*l            (gamma_A = 0.03125 in Figure 2: -a 0.03125)
#   -i gamma_I*l/(l+u)^2    (Figure 2's gamma_I = 0, 0.01, 1: -i 0, 0.01, 1)
# With l = 2 and l + u = 200 the raw weights (lapsvm-train -A/-I) are
# gamma_A = 0.015625 and gamma_I = 0, 200, 20000.  (Read as raw -I values,
# 0.01 and 1 are too weak to bend the boundary at all: the three panels
# would be the same SVM.)
#
# Settings otherwise those of moons.sh: RBF kernel -g 4, epsilon-ball graph
# -e 0.25 (heat weights, normalized Laplacian), Figure 3's LapSVM -i 100.
#
# The labeled pair (fixed, deterministic): the +1 row nearest (0, 1) and the
# -1 row nearest (1, -1/2), i.e. the midpoints (t = pi/2) of the upper and the
# lower arc of the generator (README, lapsvm-datagen); ties go to the first
# row.  In ../shared/data/twomoons.libsvm these are rows 50 and 150.
# PAIR="i j" (1-based rows, i of class +1, j of class -1) overrides it.
# Every other label is set to 0 (unlabeled).
#
# Grid: GRID x GRID points (default 150) over the bounding box of the data
# with a margin of MARGIN (default 0.3); its decision values come from
# `lapsvm-predict -d` on a LIBSVM file of the grid written by awk.
#
# Environment: BIN (tools; default the top of this source tree), DATA, OUT,
# GRID, MARGIN, PAIR, GRAPH_OPTS ("-e 0.25"), TRAIN_OPTS (kernel and gamma_A
# for every method, "-t 2 -g 4 -a 0.03125"), LAP_OPTS (Figure 3's LapSVM,
# "-i 100"), FIG2_GI (Figure 2's gamma_I values, "0 0.01 1").
set -euo pipefail

prog=moons-figures.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${DATA:-../shared/data}
BIN=${BIN:-$top}
OUT=${OUT:-build/figures}
GRID=${GRID:-150}
MARGIN=${MARGIN:-0.3}
PAIR=${PAIR:-}
GRAPH_OPTS=${GRAPH_OPTS:--e 0.25}
TRAIN_OPTS=${TRAIN_OPTS:--t 2 -g 4 -a 0.03125}
LAP_OPTS=${LAP_OPTS:--i 100}
FIG2_GI=${FIG2_GI:-0 0.01 1}

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

install=0
file=
while [ $# -gt 0 ]; do
	case $1 in
	--install) install=1 ;;
	-o)
		[ $# -ge 2 ] || { echo "$prog: option -o needs a directory" >&2; exit 2; }
		OUT=$2
		shift
		;;
	-h | --help) usage; exit 0 ;;
	-*) echo "$prog: unknown option '$1' (try -h)" >&2; exit 2 ;;
	*)
		[ -z "$file" ] || { echo "$prog: more than one data file" >&2; exit 2; }
		file=$1
		;;
	esac
	shift
done
file=${file:-$DATA/twomoons.libsvm}

# shellcheck source=experiments/figures-lib.sh
. "$top/experiments/figures-lib.sh"
need_tools graph-build lapsvm-train lapsvm-predict lapsvm-datagen
need_gnuplot 880 640

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

# --------------------------------------------------------------------- data
if [ -r "$file" ]; then
	cp "$file" "$tmp/full"
else
	echo "$prog: $file not found; using lapsvm-datagen -S 1 moons" >&2
	"$BIN"/lapsvm-datagen -S 1 moons "$tmp/full"
fi
# x y label of every row (features 1 and 2; an omitted feature is 0).
awk '{ x = 0; y = 0
	for (i = 2; i <= NF; i++) { split($i, p, ":")
		if (p[1] == 1) x = p[2]; else if (p[1] == 2) y = p[2] }
	print x, y, $1 + 0 }' "$tmp/full" > "$tmp/xy"

if [ -z "$PAIR" ]; then
	PAIR=$(awk '
	{ dp = ($1 - 0)^2 + ($2 - 1)^2; dn = ($1 - 1)^2 + ($2 + 0.5)^2
	  if ($3 > 0 && (a == "" || dp < bp)) { a = NR; bp = dp }
	  if ($3 < 0 && (b == "" || dn < bn)) { b = NR; bn = dn } }
	END { print a, b }' "$tmp/xy")
fi
read -r pos neg <<<"$PAIR"
n=$(wc -l < "$tmp/xy")
ok=$(awk -v a="${pos:-x}" -v b="${neg:-x}" -v n="$n" '
	NR == a { la = $3 } NR == b { lb = $3 }
	END { print (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && a >= 1 && a <= n && b >= 1 &&
		b <= n && la > 0 && lb < 0) ? 1 : 0 }' "$tmp/xy")
if [ "$ok" != 1 ]; then
	echo "$prog: labeled pair '$PAIR': need a row of class +1, then a row of class -1 (1..$n)" >&2
	exit 1
fi
awk -v a="$pos" -v b="$neg" '{ if (NR != a && NR != b) $1 = 0; print }' \
	"$tmp/full" > "$tmp/semi"
awk -v a="$pos" -v b="$neg" 'NR != a && NR != b' "$tmp/xy" > "$tmp/unl"
awk -v a="$pos" 'NR == a' "$tmp/xy" > "$tmp/lpos"
awk -v b="$neg" 'NR == b' "$tmp/xy" > "$tmp/lneg"
nu=$(wc -l < "$tmp/unl")
echo "$prog: $n points, labeled rows $pos (+1) and $neg (-1);" \
	"graph (-G graph): graph-build $GRAPH_OPTS" >&2

# shellcheck disable=SC2086
"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/semi" "$tmp/graph"

# The grid, row by row of x (for gnuplot: a blank line after each x).
read -r x0 x1 y0 y1 < <(awk -v m="$MARGIN" '
	NR == 1 { a = b = $1; c = d = $2 }
	{ if ($1 < a) a = $1; if ($1 > b) b = $1; if ($2 < c) c = $2; if ($2 > d) d = $2 }
	END { printf "%.6g %.6g %.6g %.6g\n", a - m, b + m, c - m, d + m }' "$tmp/xy")
awk -v g="$GRID" -v x0="$x0" -v x1="$x1" -v y0="$y0" -v y1="$y1" 'BEGIN {
	for (i = 0; i < g; i++) for (j = 0; j < g; j++)
		printf "0 1:%.17g 2:%.17g\n", x0 + (x1 - x0) * i / (g - 1),
			y0 + (y1 - y0) * j / (g - 1) }' > "$tmp/grid"

# ------------------------------------------------------------------ figures
# params OPTIONS...: the kernel and weights of a lapsvm-train option list, in
# gnuplot's enhanced text, for a title.
params() {
	awk '{
		for (i = 1; i < NF; i++) {
			o = $i; v = $(i + 1)
			if (o == "-t") s = s ", " (v == 0 ? "linear" : v == 1 ? "polynomial" : "RBF")
			else if (o == "-g") s = s " g = " v
			else if (o == "-a") s = s ", γ_A l = " v
			else if (o == "-A") s = s ", γ_A = " v
			else if (o == "-c") s = s ", C = " v
			else if (o == "-i") s = s ", γ_I l/(l+u)^2 = " v
			else if (o == "-I") s = s ", γ_I = " v
		}
		print substr(s, 3) }' <<<"$*"
}

# figure NAME METHOD OPTIONS...: train METHOD with OPTIONS, score the
# unlabeled rows, predict the grid, draw OUT/NAME.png; appends
# "NAME|METHOD|OPTIONS|ACC" to $tmp/results.
figure() {
	local name=$1 method=$2
	shift 2
	"$BIN"/lapsvm-train -q "$@" "$tmp/semi" "$tmp/$name.model"
	"$BIN"/lapsvm-predict -q -d "$tmp/full" "$tmp/$name.model" "$tmp/$name.pred"
	# Accuracy on the unlabeled rows; the colour scale: symmetric, to the
	# largest |f| on the data points.
	local acc fmax
	read -r acc fmax < <(tail -n +2 "$tmp/$name.pred" | paste -d' ' "$tmp/xy" - |
		awk -v a="$pos" -v b="$neg" '
		{ v = $5 < 0 ? -$5 : $5; if (v > m) m = v }
		NR != a && NR != b { n++; c += ($3 == $4) }
		END { if (m < 1e-9) m = 1; printf "%.2f %.6g\n", 100 * c / n, m }')
	"$BIN"/lapsvm-predict -q -d "$tmp/grid" "$tmp/$name.model" "$tmp/$name.gpred"
	tail -n +2 "$tmp/$name.gpred" | cut -d' ' -f2 | paste -d' ' "$tmp/grid" - |
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
set title "$method ($(params "$@"))\\n{/=10 accuracy on the $nu unlabeled points: $acc%}"
# Contours of f: f = 0, and a few levels either side.
set contour base; unset surface; set view map
set cntrparam bspline levels discrete 0
set table '$tmp/$name.c0'
splot '$tmp/$name.surf' using 1:2:3 with lines
set cntrparam levels incremental -$fmax,$fmax/4.0,$fmax
set table '$tmp/$name.cl'
splot '$tmp/$name.surf' using 1:2:3 with lines
unset table
unset contour
set palette defined (-1 '#2c62a8', -0.5 '#8fb6dd', 0 '#f7f7f7', 0.5 '#f0a58a', 1 '#b8262f')
set cbrange [-$fmax:$fmax]
set cblabel 'f(x)'
plot '$tmp/$name.surf' using 1:2:3 with image notitle, \\
     '$tmp/$name.cl' using 1:2 with lines lc rgb '#555555' lw 0.6 dt 3 notitle, \\
     '$tmp/$name.c0' using 1:2 with lines lc rgb 'black' lw 3.5 title 'f(x) = 0', \\
     '$tmp/unl' using 1:2 with points pt 7 ps 0.45 lc rgb '#222222' title 'unlabeled', \\
     '$tmp/lpos' using 1:2 with points pt 7 ps 3.2 lc rgb 'black' notitle, \\
     '$tmp/lpos' using 1:2 with points pt 7 ps 2.5 lc rgb '#e0301e' title 'labeled +1', \\
     '$tmp/lneg' using 1:2 with points pt 5 ps 3.0 lc rgb 'black' notitle, \\
     '$tmp/lneg' using 1:2 with points pt 5 ps 2.3 lc rgb '#1f5fd0' title 'labeled -1'
EOF
	printf '%s|%s|%s|%s\n' "$name" "$method" "$*" "$acc" >> "$tmp/results"
}

: > "$tmp/results"
# shellcheck disable=SC2086
figure fig3-svm "SVM" $TRAIN_OPTS -s lapsvm -i 0
# shellcheck disable=SC2086
figure fig3-tsvm "TSVM" $TRAIN_OPTS -s tsvm
# shellcheck disable=SC2086
figure fig3-lapsvm "LapSVM" $TRAIN_OPTS -s lapsvm $LAP_OPTS -G "$tmp/graph"
for gi in $FIG2_GI; do
	# shellcheck disable=SC2086
	figure "fig2-lapsvm-gi$gi" "LapSVM" $TRAIN_OPTS -s lapsvm -i "$gi" -G "$tmp/graph"
done

printf '| figure | method | lapsvm-train options | accuracy on the %s unlabeled points | PNG |\n' "$nu"
printf '|---|---|---|---|---|\n'
while IFS='|' read -r name method opts acc; do
	opts=${opts//$tmp\//}
	case $name in
	fig2-lapsvm-gi*) method="$method, gamma_I = ${name#fig2-lapsvm-gi}" ;;
	esac
	# shellcheck disable=SC2016
	printf '| %s | %s | `%s` | %s%% | %s |\n' "${name%%-*}" "$method" "$opts" "$acc" "$OUT/$name.png"
done < "$tmp/results"
