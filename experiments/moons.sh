#!/bin/bash
# moons.sh -- two moons with one labeled point per class (JMLR 2006 Section
# 5.1, Figures 2-3): accuracy on the 198 unlabeled points of SVM, TSVM,
# RLS, LapSVM and LapRLS, averaged over DRAWS seeded choices of the two labels.
# Driven only through the command-line tools.
#
#   experiments/moons.sh [data.libsvm]   (default $DATA/twomoons.libsvm; if
#                                         absent, lapsvm-datagen's moons)
# Environment: BIN (default .), DRAWS (10), SEED (1), GRAPH_OPTS (default
# "-e 0.25": an epsilon-ball graph, see experiments/README.md for why not kNN here),
# TRAIN_OPTS (kernel and gamma_A for every method, default
# "-t 2 -g 4 -a 0.03125"), LAP_OPTS (intrinsic weight of LapSVM/LapRLS,
# default "-i 100").
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
DRAWS=${DRAWS:-10}
SEED=${SEED:-1}
GRAPH_OPTS=${GRAPH_OPTS:--e 0.25}
TRAIN_OPTS=${TRAIN_OPTS:--t 2 -g 4 -a 0.03125}
LAP_OPTS=${LAP_OPTS:--i 100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=experiments/moons-lib.sh
. "$(dirname "$0")/moons-lib.sh"
[ $# -le 1 ] || { echo "moons.sh: too many arguments (expected at most a data file)" >&2; exit 2; }
moons_setup moons.sh "${1:-$DATA/twomoons.libsvm}" "${1:+given}"
printf '| method | mean accuracy on the unlabeled points | min | max |\n|---|---|---|---|\n'
for s in svm tsvm rls lapsvm laprls; do
	case $s in
	svm) opts="-s lapsvm -i 0" ;;
	tsvm) opts="-s tsvm" ;;
	rls) opts="-s laprls -i 0" ;;
	lapsvm) opts="-s lapsvm $LAP_OPTS -G $tmp/graph" ;;
	laprls) opts="-s laprls $LAP_OPTS -G $tmp/graph" ;;
	esac
	accs=""
	while read -r a b; do
		awk -v a="$a" -v b="$b" '{ if (NR != a && NR != b) $1 = 0; print }' \
			"$tmp/full" > "$tmp/semi"
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -q $TRAIN_OPTS $opts -o "$tmp/pred" \
			"$tmp/semi" "$tmp/model"
		acc=$(paste -d' ' "$tmp/truth_all" <(cut -d' ' -f1 "$tmp/semi") |
			awk '$2 == 0 { print $1 }' |
			paste -d' ' - <(tail -n +2 "$tmp/pred" | cut -d' ' -f1) |
			awk '{ n++; c += ($1 == $2) } END { printf "%.2f", 100 * c / n }')
		accs="$accs $acc"
	done < "$tmp/pairs"
	echo "$s$accs" | awk '{ s = 0; mn = 101; mx = -1
		for (i = 2; i <= NF; i++) { s += $i; if ($i < mn) mn = $i; if ($i > mx) mx = $i }
		printf "| %s | %.2f%% | %.2f%% | %.2f%% |\n", $1, s / (NF - 1), mn, mx }'
done
