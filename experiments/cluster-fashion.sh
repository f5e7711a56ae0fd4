#!/bin/bash
# cluster-fashion.sh -- regularized spectral clustering (JMLR 2006 Section
# 6.1) at scale, by the Nystrom path: all 70000 Fashion-MNIST images (60000
# training + 10000 test, 784 pixels) into 10 clusters, end to end (the exact
# k-NN graph, then lapsvm-train -s cluster -M newton -N m), each step timed
# with its peak memory (/usr/bin/time), and the clusters scored against the
# 10 classes beside k-means on the raw pixels.  The issue's budget: at most
# 3 minutes and 4 GB end to end.  Not part of make experiments (about 3
# minutes on 2 cores with OpenBLAS, plus about 6 for the k-means peer).
#
#   experiments/cluster-fashion.sh
#
# Data: fashion.libsvm.gz (datasets/fetch fashion: from Debian's package
# dataset-fashion-mnist, or downloaded; checked against datasets/SHA256SUMS),
# looked for in $DATA, then datasets/data; if in neither, datasets/fetch
# makes it in datasets/data (as root it first installs the Debian package
# with apt-get when /usr/share/datasets/fashion-mnist is missing).
#
# Protocol: that of experiments/cluster-digits.sh -- graph-build -k 10
# (heat weights), RBF of the default width, unnormalized Laplacian,
# gamma_A = 0.005 n (350), gamma_I = 1, the rows of the 9-dimensional
# embedding scaled to unit length -- on the Nystrom map with NYS landmarks
# (-M newton -N NYS) and k-means++ with RESTARTS restarts.
# End to end = decompressing the data file + graph-build + lapsvm-train
# (which reads the data, builds the map, solves, runs k-means, writes the
# model and prints the agreement of the clusters with the labels).  The
# peer: scikit-learn's KMeans(10, n_init=10) (experiments/kmeans-peer.py,
# Debian's python3-sklearn by /usr/bin/python3), timed apart.
#
# Environment: BIN, DATA (../shared/data), NYS (1000), RESTARTS (100), AN
# (0.005), GRAPH ("-k 10"), SEED (1), PEER (1; 0 skips k-means), PYTHON
# (/usr/bin/python3).  The BLAS is whatever the tools load: the table names
# it (for OpenBLAS: LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread).
set -euo pipefail

prog=cluster-fashion.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${DATA:-../shared/data}
BIN=${BIN:-$top}
NYS=${NYS:-1000}
RESTARTS=${RESTARTS:-100}
AN=${AN:-0.005}
GRAPH=${GRAPH:--k 10}
SEED=${SEED:-1}
PEER=${PEER:-1}
PYTHON=${PYTHON:-/usr/bin/python3}

case ${1-} in
-h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
	exit 0 ;;
?*) echo "$prog: no arguments expected (try -h)" >&2; exit 2 ;;
esac
for t in graph-build lapsvm-train; do
	[ -x "$BIN/$t" ] || { echo "$prog: $BIN/$t not found: run make (or set BIN)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "$prog: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

file=
for d in "$DATA" "$top/datasets/data"; do
	if [ -r "$d/fashion.libsvm.gz" ]; then
		file=$d/fashion.libsvm.gz
		break
	fi
done
if [ -z "$file" ]; then
	if [ ! -d /usr/share/datasets/fashion-mnist ] && [ "$(id -u)" = 0 ]; then
		echo "$prog: installing Debian's dataset-fashion-mnist with apt-get" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q dataset-fashion-mnist >&2
	fi
	"$top/datasets/fetch" -q -o "$top/datasets/data" fashion
	file=$top/datasets/data/fashion.libsvm.gz
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# step NAME CMD...: run, keep the wall seconds, the peak RSS (MB) and the
# CPU seconds (user + system, all threads: on a machine shared with other
# work the wall time stretches, the CPU time much less)
step() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$tmp/$name.time" "$@" 2> "$tmp/$name.err" > "$tmp/$name.out" ||
		{ cat "$tmp/$name.err" >&2; exit 1; }
	awk '{ printf "%.1f %d %.1f\n", $1, $2 / 1024, $3 + $4 }' "$tmp/$name.time" > "$tmp/$name.t"
}
sec() { cut -d' ' -f1 "$tmp/$1.t"; }
mb() { cut -d' ' -f2 "$tmp/$1.t"; }
cpu() { cut -d' ' -f3 "$tmp/$1.t"; }

load0=$(cut -d' ' -f1 /proc/loadavg)
# shellcheck disable=SC2016 # expanded by the inner sh
step unzip sh -c 'gzip -dc "$1" > "$2"' _ "$file" "$tmp/all"
n=$(wc -l < "$tmp/all")
a=$(awk -v a="$AN" -v n="$n" 'BEGIN { printf "%.6g", a * n }')
# shellcheck disable=SC2086
step graph "$BIN"/graph-build $GRAPH "$tmp/all" "$tmp/graph"
step train "$BIN"/lapsvm-train -s cluster -K 10 -M newton -N "$NYS" -S "$SEED" \
	-A "$a" -I 1 -L unnormalized -E unit -R "$RESTARTS" -u -1 -G "$tmp/graph" \
	"$tmp/all" "$tmp/model"
load1=$(cut -d' ' -f1 /proc/loadavg)
read -r acc nmi < <(sed -n 's/.*agreement with the .* labeled rows: accuracy \([0-9.]*\)%.*NMI \([0-9.]*\).*/\1 \2/p' "$tmp/train.err")
if [ "$PEER" = 1 ]; then
	step peer "$PYTHON" "$top/experiments/kmeans-peer.py" 10 "$SEED" "$tmp/all"
	read -r kacc knmi < "$tmp/peer.out"
fi
blas=$(ldd "$BIN/lapsvm-train" | awk '/libblas/ { print $3 }')
blas=$(readlink -f "$blas")

echo "### Fashion-MNIST, $n images x 784 pixels, 10 clusters"
echo
printf '| step | wall seconds | CPU seconds | peak RSS |\n|---|---|---|---|\n'
printf '| decompress %s | %s | %s | %s MB |\n' "${file##*/}" "$(sec unzip)" "$(cpu unzip)" "$(mb unzip)"
printf '| graph-build %s | %s | %s | %s MB |\n' "$GRAPH" "$(sec graph)" "$(cpu graph)" "$(mb graph)"
printf '| lapsvm-train -s cluster -M newton -N %s | %s | %s | %s MB |\n' "$NYS" "$(sec train)" "$(cpu train)" "$(mb train)"
printf '| **end to end** | **%s** | %s | %s MB |\n' \
	"$(awk -v a="$(sec unzip)" -v b="$(sec graph)" -v c="$(sec train)" 'BEGIN { printf "%.1f", a + b + c }')" \
	"$(awk -v a="$(cpu unzip)" -v b="$(cpu graph)" -v c="$(cpu train)" 'BEGIN { printf "%.1f", a + b + c }')" \
	"$(printf '%s\n' "$(mb unzip)" "$(mb graph)" "$(mb train)" | sort -n | tail -n 1)"
[ "$PEER" = 1 ] && printf '| k-means peer (not in the end to end) | %s | %s | %s MB |\n' "$(sec peer)" "$(cpu peer)" "$(mb peer)"
echo
printf '| method | accuracy | NMI |\n|---|---|---|\n'
printf '| regularized spectral clustering (Nystrom, %s landmarks) | %s%% | %s |\n' "$NYS" "$acc" "$nmi"
[ "$PEER" = 1 ] && printf '| k-means on the raw pixels (peer) | %s%% | %s |\n' "$kacc" "$knmi"
echo
grep -E 'RBF width|kernel rank|largest violation|warning' "$tmp/train.err" | sed 's/^lapsvm-train: /    /'
echo
# shellcheck disable=SC2016
printf 'Settings: `graph-build %s`; `lapsvm-train -s cluster -K 10 -M newton -N %s -S %s -A %s -I 1 -L unnormalized -E unit -R %s -u -1`. BLAS: %s. Load average %s before, %s after the clustering (%s cores: %s).\n' \
	"$GRAPH" "$NYS" "$SEED" "$a" "$RESTARTS" "$blas" "$load0" "$load1" "$(nproc)" \
	"$(lscpu | awk -F: '/Model name/ { gsub(/^ +/, "", $2); print $2 }')"
