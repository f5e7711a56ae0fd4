#!/bin/bash
# mpi.sh -- graph-build under mpirun against the one-thread serial run:
# wall time for P = 1 and 2 ranks (one OpenMP thread each), the bytes each
# rank sends (as graph-build reports them), and a check that every graph
# is byte for byte the serial one.  A Markdown table.  Not part of make
# test.
#
#   bench/mpi.sh [fashion|mnist10k]     (default fashion)
# Environment: GRAPH ("-k 10"), PS ("1 2"), BLAS (the directory of the BLAS
# to run with, default /usr/lib/x86_64-linux-gnu/openblas-pthread; empty:
# the system's), FASHION (directory of the IDX files, as bench/fashion.sh),
# DATA (../shared/data, for mnist10k).
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:-fashion}
GRAPH=${GRAPH:--k 10}
PS=${PS:-1 2}
BLAS=${BLAS-/usr/lib/x86_64-linux-gnu/openblas-pthread}
FASHION=${FASHION:-/usr/share/datasets/fashion-mnist}
DATA=${DATA:-../shared/data}
command -v mpirun > /dev/null || { echo "mpi.sh: mpirun not installed (openmpi-bin)" >&2; exit 1; }
make -s all
make -s MPI=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $set_name in
fashion)
	[ -d "$FASHION" ] || { echo "mpi.sh: $FASHION not found (dataset-fashion-mnist)" >&2; exit 1; }
	datasets/convert-mnist-idx "$FASHION/train-images-idx3-ubyte.gz" "$FASHION/train-labels-idx1-ubyte.gz" > "$tmp/x"
	datasets/convert-mnist-idx "$FASHION/t10k-images-idx3-ubyte.gz" "$FASHION/t10k-labels-idx1-ubyte.gz" >> "$tmp/x"
	;;
mnist10k)
	gzip -dc "$DATA/mnist.t10k.libsvm.gz" > "$tmp/x"
	;;
*)
	echo "mpi.sh: unknown set '$set_name' (fashion or mnist10k)" >&2
	exit 2
	;;
esac
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
[ -n "$BLAS" ] && export LD_LIBRARY_PATH="$BLAS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
n=$(wc -l < "$tmp/x")
echo "graph-build $GRAPH on $set_name: $n rows; one thread per rank; BLAS: ${BLAS:-system}; $(nproc --all) cores, shared: load average $(cut -d" " -f1-3 /proc/loadavg))"
echo

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# shellcheck disable=SC2086
start=$(date +%s.%N)
./graph-build $GRAPH "$tmp/x" "$tmp/serial.graph" 2> "$tmp/serial.err"
serial=$(secs "$start" "$(date +%s.%N)")
printf '| run | wall s | speed-up | bytes sent per rank | graph |\n|---|---|---|---|---|\n'
printf '| serial, 1 thread | %s | 1.00 | - | reference |\n' "$serial"
for P in $PS; do
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	mpirun -q --oversubscribe --bind-to none -np "$P" build/mpi/graph-build $GRAPH \
		"$tmp/x" "$tmp/p$P.graph" 2> "$tmp/p$P.err"
	t=$(secs "$start" "$(date +%s.%N)")
	sent=$(sed -n 's/.*rank \([0-9]*\) of .*sent \([0-9]*\) bytes/\2/p' "$tmp/p$P.err" | paste -sd/ -)
	same=$(cmp -s "$tmp/serial.graph" "$tmp/p$P.graph" && echo identical || echo DIFFERENT)
	printf '| mpirun -np %s | %s | %s | %s | %s |\n' "$P" "$t" \
		"$(awk -v a="$serial" -v b="$t" 'BEGIN { printf "%.2f", a / b }')" "${sent:--}" "$same"
done
echo
echo "Each rank's scan (from graph-build's report):"
for P in $PS; do
	grep 'rank .* of' "$tmp/p$P.err" | sed 's/^graph-build: /    /' || true
done
