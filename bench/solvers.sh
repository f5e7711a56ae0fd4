#!/bin/bash
# solvers.sh -- LapRLS on the MNIST test set (10000 x 784), 10 labeled
# images per class (seeded), 10 classes one-vs-rest, 10-NN graph: error on
# the unlabeled images and training time of the direct solver (eq. 8, one
# LU of the 10000 x 10000 system), the primal PCG, and PCG with early
# stopping; RLS on the same labels for reference.  A Markdown table.
#
#   bench/solvers.sh        Environment: DATA (../shared/data), SEED (1)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
SEED=${SEED:-1}
make -s all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zcat "$DATA/mnist.t10k.libsvm.gz" > "$tmp/full"
# 10 labeled rows per class: a seeded MINSTD shuffle, the first 10 of each
awk -v seed="$SEED" '
	function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
	{ lab[NR] = $1; n = NR }
	END { x = seed; for (i = 1; i <= n; i++) p[i] = i
	      for (i = n; i > 1; i--) { j = 1 + rnd(i); t = p[i]; p[i] = p[j]; p[j] = t }
	      for (i = 1; i <= n; i++) if (cnt[lab[p[i]]]++ < 10) print p[i] }' "$tmp/full" > "$tmp/lab"
# labels 0-9 are classes: the unlabeled marker is -1
awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = -1; print }' "$tmp/lab" "$tmp/full" > "$tmp/semi"
paste -d' ' <(cut -d' ' -f1 "$tmp/full") <(cut -d' ' -f1 "$tmp/semi") | awk '$2 == -1 { print $1 }' > "$tmp/truth"
start=$(date +%s.%N)
./graph-build -q -k 10 "$tmp/semi" "$tmp/graph"
echo "graph (10-NN): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
KERNEL="-t 2 -g 2.5e-7"   # RBF of the mean squared 10-NN distance (t = 1.96e6)
printf '| method | error on the 9900 unlabeled images | training time | iterations |\n|---|---|---|---|\n'
for m in "rls:-s laprls -a 0.005 -i 0" "laprls direct:-s laprls -a 0.005 -i 0.045 -M direct" \
	 "laprls pcg:-s laprls -a 0.005 -i 0.045 -M pcg" "laprls pcg-early:-s laprls -a 0.005 -i 0.045 -M pcg-early"; do
	name=${m%%:*}
	opts=${m#*:}
	g=$([ "$name" = rls ] || echo "-G $tmp/graph")
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	./lapsvm-train $KERNEL $opts $g -u -1 -o "$tmp/pred" "$tmp/semi" "$tmp/model" 2> "$tmp/err"
	end=$(date +%s.%N)
	err=$(tail -n +2 "$tmp/pred" | cut -d' ' -f1 | paste -d' ' "$tmp/truth" - | awk '{ n++; e += ($1 != $2) } END { printf "%.2f%%", 100 * e / n }')
	it=$(awk '/PCG:/ { print $3 }' "$tmp/err")
	printf '| %s | %s | %s s | %s |\n' "$name" "$err" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" "${it:--}"
done
