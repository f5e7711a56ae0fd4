#!/bin/bash
# graph-update.sh -- the cost of appending rows to a graph (graph-build -U)
# against a full rebuild, and that both write the same bytes.  Not part of
# `make test`.
#
#   bench/graph-update.sh [DATA [NEW [OPTIONS...]]]
#
# DATA: a LIBSVM file (default: Fashion-MNIST, 70000 rows, made by
# `datasets/fetch fashion` into $FASHION, default /work/data-fashion);
# its last NEW rows (default 1% of them) are appended to the graph of the
# others.  OPTIONS: graph-build's (default -k 6).  Prints the wall and CPU
# (user + system) seconds of the full build of DATA, of the update, and
# their ratio; exits 1 if the graphs or records differ, or if the update
# takes more than 5% of the full build's CPU time.
# Environment: WORK (scratch directory, default /tmp/graph-update.$$),
# BLAS (a directory put first on LD_LIBRARY_PATH; default OpenBLAS),
# OMP_NUM_THREADS (default 1), FULL_TIMES ("WALL CPU" of a full build
# measured before with the same binary and options, to skip it on a loaded
# machine: then FULL_GRAPH, its graph file with its record, is compared),
# REUSE_OLD=1 (keep the old rows' graph WORK/old.g of an earlier run).
set -euo pipefail
cd "$(dirname "$0")/.."
GB=$PWD/graph-build
FASHION=${FASHION:-/work/data-fashion}
DATA=${1:-$FASHION/fashion.libsvm.gz}
shift || true
NEW=${1:-}
shift || true
OPTS=("$@")
[ ${#OPTS[@]} -gt 0 ] || OPTS=(-k 6)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export LD_LIBRARY_PATH=${BLAS:-/usr/lib/x86_64-linux-gnu/openblas-pthread}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
WORK=${WORK:-/tmp/graph-update.$$}
mkdir -p "$WORK"
[ -x "$GB" ] || { echo "graph-build not built: run make" >&2; exit 1; }
[ -f "$DATA" ] || { echo "$DATA: missing (datasets/fetch fashion)" >&2; exit 1; }

case $DATA in
*.gz) zcat "$DATA" >"$WORK/all" ;;
*) cp "$DATA" "$WORK/all" ;;
esac
n=$(wc -l <"$WORK/all")
NEW=${NEW:-$((n / 100))}
head -n $((n - NEW)) "$WORK/all" >"$WORK/old"
tail -n "$NEW" "$WORK/all" >"$WORK/new"

# timed LABEL CMD...: runs CMD, sets T_WALL and T_CPU (user + system)
timed() {
	local label=$1 t
	shift
	t=$( { /usr/bin/time -f '%e %U %S' "$@" 2>&3 >/dev/null; } 3>&1 | tail -n 1)
	T_WALL=$(echo "$t" | awk '{print $1}')
	T_CPU=$(echo "$t" | awk '{printf "%.2f", $2 + $3}')
	echo "$label: wall $T_WALL s, cpu $T_CPU s"
}

echo "graph-build ${OPTS[*]}: $((n - NEW)) rows + $NEW appended; OMP_NUM_THREADS=$OMP_NUM_THREADS, LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
if [ -n "${FULL_TIMES:-}" ]; then
	read -r FULL_WALL FULL_CPU <<<"$FULL_TIMES"
	if [ "$(realpath "$FULL_GRAPH")" != "$(realpath "$WORK/full.g")" ]; then
		cp "$FULL_GRAPH" "$WORK/full.g"
		cp "$FULL_GRAPH.knn" "$WORK/full.g.knn"
	fi
	echo "full build of $n rows: wall $FULL_WALL s, cpu $FULL_CPU s (measured before: FULL_TIMES)"
else
	timed "full build of $n rows" "$GB" -q "${OPTS[@]}" "$WORK/all" "$WORK/full.g"
	FULL_WALL=$T_WALL FULL_CPU=$T_CPU
fi
# REUSE_OLD=1: the old rows' graph of an earlier run in WORK is kept
[ "${REUSE_OLD:-0}" = 1 ] && [ -f "$WORK/old.g.knn" ] ||
	"$GB" -q "${OPTS[@]}" "$WORK/old" "$WORK/old.g"
timed "update -U (+$NEW rows)" "$GB" -q -U "$WORK/old.g" "${OPTS[@]}" "$WORK/old" "$WORK/new" "$WORK/upd.g"
UPD_WALL=$T_WALL UPD_CPU=$T_CPU
same=identical
cmp -s "$WORK/upd.g" "$WORK/full.g" && cmp -s "$WORK/upd.g.knn" "$WORK/full.g.knn" || same=DIFFERENT
awk -v fw="$FULL_WALL" -v fc="$FULL_CPU" -v uw="$UPD_WALL" -v uc="$UPD_CPU" -v same="$same" 'BEGIN {
	printf "update / full: wall %.2f%%, cpu %.2f%% (target: at most 5%%); graph and record %s\n",
	       100 * uw / fw, 100 * uc / fc, same
	exit !(same == "identical" && uc <= 0.05 * fc)
}'
