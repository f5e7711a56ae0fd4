#!/bin/bash
# fashion.sh -- end to end on Fashion-MNIST, all 70000 images (train + test,
# 784 pixels), 10 labeled per class (seeded): graph, Nystrom primal training
# and the prediction of every image, timed step by step, with the peak RSS
# of each step; RLS on the same 100 labels for reference.  A Markdown table.
# Not part of make test.
#
#   bench/fashion.sh [method ...]     (default: rls laprls lapsvm)
# Environment: SEED (1), NYS (2000 landmarks), GRAPH ("-k 6 -d cosine"),
# GAMMA (4.4e-7: about 1 / twice the mean squared 10-NN distance), AL
# (gamma_A l, 0.0005), IL (gamma_I l/n^2, 0.45), FASHION (directory of the
# IDX files, /usr/share/datasets/fashion-mnist).  As root it installs
# dataset-fashion-mnist with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${SEED:-1}
NYS=${NYS:-2000}
GRAPH=${GRAPH:--k 6 -d cosine}
GAMMA=${GAMMA:-4.4e-7}
AL=${AL:-0.0005}
IL=${IL:-0.45}
FASHION=${FASHION:-/usr/share/datasets/fashion-mnist}
methods=${*:-rls laprls lapsvm}
if [ ! -d "$FASHION" ] && [ "$(id -u)" = 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q dataset-fashion-mnist > /dev/null
fi
[ -d "$FASHION" ] || { echo "fashion.sh: $FASHION not found (Debian package dataset-fashion-mnist)" >&2; exit 1; }
make -s all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
datasets/convert-mnist-idx "$FASHION/train-images-idx3-ubyte.gz" "$FASHION/train-labels-idx1-ubyte.gz" > "$tmp/all"
datasets/convert-mnist-idx "$FASHION/t10k-images-idx3-ubyte.gz" "$FASHION/t10k-labels-idx1-ubyte.gz" >> "$tmp/all"
awk -f bench/per-class.awk -v seed="$SEED" -v per=10 "$tmp/all" > "$tmp/lab"
awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = -1; print }' "$tmp/lab" "$tmp/all" > "$tmp/semi"
echo "Fashion-MNIST: $(wc -l < "$tmp/all") rows, $(wc -l < "$tmp/lab") labeled"
echo

# step NAME CMD...: run, record wall seconds and peak RSS (MB) in $tmp/NAME
step() {
	local name=$1 start end
	shift
	start=$(date +%s.%N)
	/usr/bin/time -f '%M' -o "$tmp/$name.rss" "$@" 2> "$tmp/$name.err" > "$tmp/$name.out" ||
		{ cat "$tmp/$name.err" >&2; exit 1; }
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }' > "$tmp/$name.sec"
	echo $(( $(tail -n 1 "$tmp/$name.rss") / 1024 )) > "$tmp/$name.mb"
}

graph_done=0
printf '| method | graph | train | predict 70000 | end to end | peak RSS | error (all 70000) |\n'
printf '|---|---|---|---|---|---|---|\n'
for m in $methods; do
	g=0
	case $m in
	rls) opts="-s laprls -a $AL -i 0" ;;
	laprls|lapsvm)
		if [ $graph_done = 0 ]; then
			# shellcheck disable=SC2086
			step graph ./graph-build -q $GRAPH "$tmp/semi" "$tmp/graph"
			graph_done=1
		fi
		g=$(cat "$tmp/graph.sec")
		opts="-s $m -a $AL -i $IL -M newton -N $NYS -S $SEED -G $tmp/graph" ;;
	*) echo "fashion.sh: unknown method $m" >&2; exit 2 ;;
	esac
	# shellcheck disable=SC2086
	step train ./lapsvm-train -t 2 -g "$GAMMA" $opts -u -1 "$tmp/semi" "$tmp/model"
	step predict ./lapsvm-predict "$tmp/all" "$tmp/model" "$tmp/pred"
	acc=$(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$tmp/predict.out")
	rss=$(cat "$tmp/train.mb" "$tmp/predict.mb")
	[ "$g" = 0 ] || rss="$rss $(cat "$tmp/graph.mb")"
	printf '| %s | %s | %s s | %s s | %s s | %s MB | %s%% |\n' "$m" \
		"$([ "$g" = 0 ] && echo - || echo "$g s")" "$(cat "$tmp/train.sec")" \
		"$(cat "$tmp/predict.sec")" \
		"$(awk -v a="$g" -v b="$(cat "$tmp/train.sec")" -v c="$(cat "$tmp/predict.sec")" 'BEGIN { printf "%.1f", a + b + c }')" \
		"$(printf '%s\n' $rss | sort -n | tail -n 1)" \
		"$(awk -v a="$acc" 'BEGIN { printf "%.2f", 100 - a }')"
done
printf '\nSettings: graph-build %s; RBF gamma %s; gamma_A l = %s, gamma_I l/n^2 = %s; %s Nystrom landmarks (seed %s). Machine: %s, %s cores.\n' \
	"$GRAPH" "$GAMMA" "$AL" "$IL" "$NYS" "$SEED" \
	"$(lscpu | awk -F: '/Model name/ { gsub(/^ +/, "", $2); print $2 }')" "$(nproc)"
