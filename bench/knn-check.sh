#!/bin/sh
# knn-check.sh -- graph-build against the brute-force reference (tests/knn-ref.c)
# on a real data set: the two graph files must be byte-for-byte identical
# (same neighbour sets, same weights to the last bit).  Prints graph-build's
# wall time and peak memory (GNU time), and the reference's time.
#
#   bench/knn-check.sh [data.libsvm[.gz]] [graph-build options]
#   default: $DATA/usps.train.libsvm.gz with -k 10  (DATA defaults to ../shared/data)
#
# Run from the top of the source tree after `make` (it builds knn-ref).
set -eu
DATA=${DATA:-../shared/data}
file=${1:-$DATA/usps.train.libsvm.gz}
[ $# -gt 0 ] && shift
opts=${*:--k 10}
[ -r "$file" ] || { echo "knn-check: $file: not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2; exit 1; }
case $file in /*) ;; *) file=$PWD/$file ;; esac
cd "$(dirname "$0")/.."  # the tools and knn-ref of this tree
make -s all build/obj/tests/knn-ref
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $file in
*.gz) zcat "$file" > "$tmp/data" ;;
*) cp "$file" "$tmp/data" ;;
esac
echo "data: $file ($(wc -l < "$tmp/data") rows), options: $opts"
# shellcheck disable=SC2086
if ! /usr/bin/time -v ./graph-build -q $opts "$tmp/data" "$tmp/fast" 2> "$tmp/time"; then
	# graph-build's own message, not GNU time's report (indented lines)
	grep -v -e '^[[:space:]]' -e '^Command exited' "$tmp/time" >&2
	echo "knn-check: graph-build failed" >&2
	exit 1
fi
grep -E 'Elapsed|Maximum resident' "$tmp/time" | sed 's/^[[:space:]]*/graph-build: /'
start=$(date +%s.%N)
# shellcheck disable=SC2086
build/obj/tests/knn-ref $opts "$tmp/data" > "$tmp/ref"
end=$(date +%s.%N)
echo "knn-ref (brute force): $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"
if cmp -s "$tmp/fast" "$tmp/ref"; then
	echo "identical: $(wc -l < "$tmp/fast") rows, $(tr ' ' '\n' < "$tmp/fast" | grep -c :) entries"
else
	echo "DIFFERENT: graph-build and the brute-force reference disagree" >&2
	diff "$tmp/fast" "$tmp/ref" | head -n 10 >&2
	exit 1
fi
