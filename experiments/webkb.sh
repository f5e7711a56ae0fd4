#!/bin/bash
# webkb.sh -- JMLR 2006 Table 5: WebKB course vs non-course, page view
# (1051 pages), 12 labeled pages per draw (3 course, 9 non-course), the
# other 1039 unlabeled; transductive: precision-recall break-even point
# (PRBEP) and the error rate at it, on the unlabeled pages, averaged over
# DRAWS seeded draws.  Driven only through the command-line tools.
#
#   experiments/webkb.sh [method ...]   (default: rls svm tsvm laprls lapsvm)
# Environment: DATA (../shared/data), BIN (.), DRAWS (100), SEED (1),
# VIEW (page), GRAPH_OPTS ("-k 15 -d cosine"), POWER (3), TRAIN_OPTS (extra
# lapsvm-train options for every method, e.g. "-M newton": the primal
# solver on the sparse data, no n x n kernel).
# Settings (the paper's): linear kernel; RLS gamma_A l = 0.01, SVM and TSVM
# gamma_A l = 1 (C = 0.5); Lap*: gamma_I l/(l+u)^2 = 100 gamma_A l; graph
# 15-NN, cosine distance, iterated Laplacian L^3.
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
DRAWS=${DRAWS:-100}
SEED=${SEED:-1}
VIEW=${VIEW:-page}
GRAPH_OPTS=${GRAPH_OPTS:--k 15 -d cosine}
POWER=${POWER:-3}
TRAIN_OPTS=${TRAIN_OPTS:-}
methods=${*:-rls svm tsvm laprls lapsvm}
data=$DATA/webkb_$VIEW.libsvm
[ -r "$data" ] || { echo "webkb.sh: $data not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$data" "$tmp/full"
# shellcheck disable=SC2086
"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/full" "$tmp/graph"
# DRAWS lines of 12 row numbers: 3 course (+1), 9 non-course (-1)
awk -f "$(dirname "$0")/draw.awk" -v draws="$DRAWS" -v pos=3 -v neg=9 \
	-v seed="$SEED" "$tmp/full" > "$tmp/draws"
printf '| method | mean PRBEP | mean error at PRBEP | paper (Table 5) PRBEP / error | training time, %s draws |\n' "$DRAWS"
printf '|---|---|---|---|---|\n'
for s in $methods; do
	case $s in
	rls) opts="-s laprls -a 0.01 -i 0" ;;
	svm) opts="-s lapsvm -a 1 -i 0" ;;
	tsvm) opts="-s tsvm -a 1" ;;
	laprls) opts="-s laprls -a 0.01 -i 1 -G $tmp/graph -P $POWER" ;;
	lapsvm) opts="-s lapsvm -a 1 -i 100 -G $tmp/graph -P $POWER" ;;
	*) echo "webkb.sh: unknown method $s" >&2; exit 2 ;;
	esac
	: > "$tmp/results"
	total=0
	while read -r -a idx; do
		printf '%s\n' "${idx[@]}" > "$tmp/lab"
		# semi: labels kept only on the draw; test: the unlabeled rows
		# with their true labels, scored by lapsvm-predict.
		awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = 0; print }' \
			"$tmp/lab" "$tmp/full" > "$tmp/semi"
		awk 'NR == FNR { keep[$1] = 1; next } !(FNR in keep)' \
			"$tmp/lab" "$tmp/full" > "$tmp/test"
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -q -t 0 $opts $TRAIN_OPTS "$tmp/semi" "$tmp/model"
		end=$(date +%s.%N)
		total=$(awk -v t="$total" -v a="$start" -v b="$end" 'BEGIN { print t + b - a }')
		"$BIN"/lapsvm-predict "$tmp/test" "$tmp/model" "$tmp/pred" |
			awk '/^PRBEP/ { gsub(/[%()]/, ""); print $3, $9 }' >> "$tmp/results"
	done < "$tmp/draws"
	case $s in
	rls) paper="73.49 / 11.68" ;; svm) paper="76.39 / 10.41" ;; tsvm) paper="88.15 / 5.22" ;;
	laprls) paper="86.37 / 5.99" ;; lapsvm) paper="87.73 / 5.41" ;;
	esac
	awk -v s="$s" -v t="$total" -v paper="$paper" '{ p += $1; e += $2; n++ }
		END { printf "| %s | %.2f | %.2f%% | %s | %.1f s |\n", s, p / n, e / n, paper, t }' "$tmp/results"
done
