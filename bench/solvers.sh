#!/bin/bash
# solvers.sh -- the solvers of lapsvm-train side by side on the MNIST test
# set (10000 x 784), 10 labeled images per class (seeded), 10 classes
# one-vs-rest: error on the 9900 unlabeled images, training time and peak
# RSS.  One Markdown table row per method and BLAS.  Not part of make test.
#
#   bench/solvers.sh [method ...]
# Methods (default: all, in this order):
#   rls svm                      supervised baselines (gamma_I = 0)
#   laprls-direct lapsvm-dual    the exact n x n solvers (eq. 8; eqs. 10-12)
#   lapsvm-newton                primal squared hinge, Newton by LU steps
#   laprls-pcg laprls-early      primal PCG, to the tolerance / early stopping
#   lapsvm-pcg lapsvm-early      the same inside Newton for the squared hinge
#   laprls-nys lapsvm-nys        Nystrom, NYS landmarks, primal Newton
# Environment: DATA (../shared/data), SEED (1), BLAS ("openblas": also
# "reference"; the reference BLAS runs only REFMETHODS), NYS (2000),
# REFMETHODS (rls laprls-direct laprls-early laprls-nys).
# Settings: graph 6-NN by cosine distance (graph-build -k 6 -d cosine), heat
# weights; RBF kernel gamma 2.5e-7 (about 1 / the mean squared 10-NN
# distance); gamma_A l = 0.0005, gamma_I l/n^2 = 0.45; RLS/SVM use the same
# gamma_A.  Training time is lapsvm-train's wall time, which includes
# reading the data, computing K and the predictions of the unlabeled rows
# (-o) that give the error.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
SEED=${SEED:-1}
BLAS=${BLAS:-openblas}
NYS=${NYS:-2000}
REFMETHODS=${REFMETHODS:-rls laprls-direct laprls-early laprls-nys}
methods=${*:-rls svm laprls-direct lapsvm-dual lapsvm-newton laprls-pcg laprls-early lapsvm-pcg lapsvm-early laprls-nys lapsvm-nys}
LIB=/usr/lib/x86_64-linux-gnu
make -s all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zcat "$DATA/mnist.t10k.libsvm.gz" > "$tmp/full"
# 10 labeled rows per class: a seeded MINSTD shuffle, the first 10 of each
awk -f bench/per-class.awk -v seed="$SEED" -v per=10 "$tmp/full" > "$tmp/lab"
# labels 0-9 are classes: the unlabeled marker is -1
awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = -1; print }' "$tmp/lab" "$tmp/full" > "$tmp/semi"
paste -d' ' <(cut -d' ' -f1 "$tmp/full") <(cut -d' ' -f1 "$tmp/semi") | awk '$2 == -1 { print $1 }' > "$tmp/truth"
start=$(date +%s.%N)
./graph-build -q -k 6 -d cosine "$tmp/semi" "$tmp/graph"
echo "graph (6-NN, cosine): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
echo
KERNEL="-t 2 -g 2.5e-7"
LAP="-a 0.0005 -i 0.45 -G $tmp/graph"
printf '| method | options | BLAS | error (9900 unlabeled) | training time | peak RSS | iterations |\n'
printf '|---|---|---|---|---|---|---|\n'
for blas in $BLAS; do
	case $blas in
	openblas) lp=$LIB/openblas-pthread ;;
	reference) lp=$LIB/blas:$LIB/lapack ;;
	*) echo "solvers.sh: unknown BLAS $blas" >&2; exit 2 ;;
	esac
	for m in $methods; do
		if [ "$blas" = reference ]; then
			case " $REFMETHODS " in *" $m "*) ;; *) continue ;; esac
		fi
		case $m in
		rls) opts="-s laprls -a 0.0005 -i 0" ;;
		svm) opts="-s lapsvm -a 0.0005 -i 0" ;;
		laprls-direct) opts="-s laprls $LAP" ;;
		lapsvm-dual) opts="-s lapsvm $LAP" ;;
		lapsvm-newton) opts="-s lapsvm $LAP -M newton" ;;
		laprls-pcg) opts="-s laprls $LAP -M pcg" ;;
		laprls-early) opts="-s laprls $LAP -M pcg-early" ;;
		lapsvm-pcg) opts="-s lapsvm $LAP -M pcg" ;;
		lapsvm-early) opts="-s lapsvm $LAP -M pcg-early" ;;
		laprls-nys) opts="-s laprls $LAP -M newton -N $NYS" ;;
		lapsvm-nys) opts="-s lapsvm $LAP -M newton -N $NYS" ;;
		*) echo "solvers.sh: unknown method $m" >&2; exit 2 ;;
		esac
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		LD_LIBRARY_PATH=$lp /usr/bin/time -f '%M' -o "$tmp/rss" \
			./lapsvm-train $KERNEL $opts -u -1 -o "$tmp/pred" "$tmp/semi" "$tmp/model" 2> "$tmp/err"
		end=$(date +%s.%N)
		err=$(tail -n +2 "$tmp/pred" | cut -d' ' -f1 | paste -d' ' "$tmp/truth" - |
			awk '{ n++; e += ($1 != $2) } END { printf "%.2f%%", 100 * e / n }')
		it=$(awk '/PCG:|Newton:/ { print $1, $2, $3 }' "$tmp/err" | sed 's/lapsvm-train: //' | paste -sd' ')
		printf '| %s | `%s` | %s | %s | %s s | %d MB | %s |\n' "$m" \
			"$(echo "$opts" | sed "s| -G $tmp/graph||")" "$blas" "$err" \
			"$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" \
			"$(( $(cat "$tmp/rss") / 1024 ))" "${it:--}"
	done
done
printf '\nMachine: %s, %s cores.\n' "$(lscpu | awk -F: '/Model name/ { gsub(/^ +/, "", $2); print $2 }')" "$(nproc)"
