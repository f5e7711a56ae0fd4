#!/bin/bash
# isolet.sh -- JMLR 2006 Section 5.3, Table 4 and Figure 6: Isolet spoken
# letters.  isolet1 (30 speakers, 1560 utterances) is the training set: in
# each of 30 runs, the 52 utterances of one speaker are labeled and the
# other 1508 unlabeled; isolet5 (1559 utterances) is the test set.  Tasks:
# 26-class one-vs-rest (Table 4) and the binary letters A-M vs N-Z
# (Figure 6).  Error rates on the unlabeled and on the test utterances,
# averaged over the 30 runs.  Driven only through the command-line tools.
#
#   experiments/isolet.sh [method ...]   (default: rls laprls svm lapsvm tsvm)
# Environment: DATA (../shared/data), BIN (.), TASKS ("multi binary"),
# GRAPH_OPTS ("-k 10"), OUT (build/isolet: per-run errors, Figure 6 plots),
# RUNS (30: how many of the speakers take a turn as the labeled one).
# Settings, the paper's: RBF kernel with sigma = 10 (-g 0.005); RLS/SVM
# gamma_A l = 0.05; Lap*: gamma_A l = gamma_I l/(l+u)^2 = 0.005.  The graph
# is not given in the paper: 10-NN, heat weights, normalized Laplacian.
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
TASKS=${TASKS:-multi binary}
GRAPH_OPTS=${GRAPH_OPTS:--k 10}
OUT=${OUT:-build/isolet}
RUNS=${RUNS:-30}
methods=${*:-rls laprls svm lapsvm tsvm}
for f in isolet1.libsvm.gz isolet5.libsvm.gz isolet1.speakers.txt; do
	[ -r "$DATA/$f" ] || { echo "isolet.sh: $DATA/$f not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2; exit 1; }
done
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zcat "$DATA/isolet1.libsvm.gz" > "$tmp/train.multi"
zcat "$DATA/isolet5.libsvm.gz" > "$tmp/test.multi"
for f in train test; do  # letters 1-13 (A-M) are +1, 14-26 (N-Z) -1
	awk '{ $1 = ($1 <= 13) ? 1 : -1; print }' "$tmp/$f.multi" > "$tmp/$f.binary"
done
# shellcheck disable=SC2086
"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/train.multi" "$tmp/graph"

error() {  # error rate (%) of a model on a labeled file
	"$BIN"/lapsvm-predict "$2" "$1" "$tmp/pred" |
		awk '/^Accuracy/ { sub(/%/, "", $3); printf "%.2f", 100 - $3 }'
}

for task in $TASKS; do
	: > "$OUT/$task.txt"
	start=$(date +%s)
	s_no=0
	while read -r -a rows; do
		s_no=$((s_no + 1))
		printf '%s\n' "${rows[@]}" > "$tmp/lab"
		awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = 0; print }' \
			"$tmp/lab" "$tmp/train.$task" > "$tmp/semi"
		awk 'NR == FNR { keep[$1] = 1; next } !(FNR in keep)' \
			"$tmp/lab" "$tmp/train.$task" > "$tmp/unl"
		for s in $methods; do
			case $s in
			rls) opts="-s laprls -a 0.05 -i 0" ;;
			svm) opts="-s lapsvm -a 0.05 -i 0" ;;
			tsvm) opts="-s tsvm -a 0.05" ;;
			laprls) opts="-s laprls -a 0.005 -i 0.005 -G $tmp/graph" ;;
			lapsvm) opts="-s lapsvm -a 0.005 -i 0.005 -G $tmp/graph" ;;
			*) echo "isolet.sh: unknown method $s" >&2; exit 2 ;;
			esac
			# shellcheck disable=SC2086
			"$BIN"/lapsvm-train -q -t 2 -g 0.005 $opts "$tmp/semi" "$tmp/model"
			echo "$s_no $s $(error "$tmp/model" "$tmp/unl") $(error "$tmp/model" "$tmp/test.$task")" >> "$OUT/$task.txt"
		done
	done < <(head -n "$RUNS" "$DATA/isolet1.speakers.txt")
	end=$(date +%s)
	echo "Isolet, $task: $RUNS runs (one speaker labeled each), $((end - start)) s"
	if [ "$task" = multi ]; then
		printf '| method | error, unlabeled set | error, test set | paper (Table 4): unlabeled / test |\n|---|---|---|---|\n'
	else
		printf '| method | error, unlabeled set | error, test set |\n|---|---|---|\n'
	fi
	for s in $methods; do
		case $task:$s in
		multi:svm) paper="28.6 / 36.9" ;;  multi:tsvm) paper="46.6 / 43.3" ;;
		multi:lapsvm) paper="24.5 / 33.7" ;; multi:rls) paper="28.3 / 36.3" ;;
		multi:laprls) paper="24.1 / 33.3" ;; *) paper="" ;;
		esac
		awk -v s="$s" -v paper="$paper" '$2 == s { u += $3; t += $4; n++ }
			END { printf "| %s | %.2f%% | %.2f%% |%s\n", s, u / n, t / n,
				     paper == "" ? "" : " " paper " |" }' "$OUT/$task.txt"
	done
done
if command -v gnuplot > /dev/null && [ -s "$OUT/binary.txt" ]; then
	# Figure 6: error per labeled speaker, RLS vs LapRLS and SVM vs LapSVM
	for p in "rls laprls" "svm lapsvm"; do
		set -- $p
		case " $methods " in *" $1 "*" $2 "*|*" $2 "*" $1 "*) ;; *) continue ;; esac
		for set in 3 4; do
			name=$([ "$set" = 3 ] && echo unlabeled || echo test)
			awk -v a="$1" -v b="$2" -v c="$set" '$2 == a { x[$1] = $c } $2 == b { y[$1] = $c }
				END { for (i = 1; i <= 30; i++) if ((i in x) && (i in y)) print i, x[i], y[i] }' \
				"$OUT/binary.txt" > "$OUT/fig6-$1-$2-$name.dat"
			gnuplot <<-GP
			set terminal pngcairo size 700,450
			set output "$OUT/fig6-$1-$2-$name.png"
			set title "Isolet A-M vs N-Z: error on the $name set, by labeled speaker"
			set xlabel "labeled speaker"; set ylabel "error rate (%)"; set key top left
			plot "$OUT/fig6-$1-$2-$name.dat" using 1:2 with linespoints title "$1", \
			     "" using 1:3 with linespoints title "$2"
			GP
		done
	done
	ls "$OUT"/fig6-*.png > /dev/null 2>&1 && echo "Figure 6: $OUT/fig6-*.png"
	true
fi
