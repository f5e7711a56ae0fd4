#!/bin/bash
# knn-bench.sh -- exact kNN graphs: graph-build against FAISS (IndexFlatL2)
# and scikit-learn (NearestNeighbors, brute force), same data, same k, same
# thread count; prints a Markdown table.  Not part of `make test`.
#
#   bench/knn-bench.sh [usps mnist fashion]      (default: all three)
# Environment: DATA (../shared/data), K (10), THREADS (2), RUNS (3: the
# median is reported), REFBLAS (usps mnist: the sets also timed with the
# reference BLAS; Fashion-MNIST would take over an hour with it).
# As root it installs what it needs with apt-get: python3-faiss,
# python3-sklearn, dataset-fashion-mnist (the IDX files it converts with
# datasets/convert-mnist-idx), libopenblas0-pthread.
#
# Columns: wall time of the whole run (graph-build: reading the text file,
# scan, writing; peers: the search alone, after Python has read the data),
# peak RSS, the block products' rate (graph-build's own report), and how
# many rows have the same k neighbours as FAISS (rows that differ only by
# an exact tie at the k-th distance are counted as agreeing).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
K=${K:-10}
THREADS=${THREADS:-2}
RUNS=${RUNS:-3}
REFBLAS=${REFBLAS:-usps mnist}
sets=${*:-usps mnist fashion}
LIB=/usr/lib/x86_64-linux-gnu
OPENBLAS=$LIB/openblas-pthread
REFERENCE=$LIB/blas:$LIB/lapack
PY=/usr/bin/python3

if [ "$(id -u)" = 0 ]; then
	need=()
	$PY -c 'import faiss' 2>/dev/null || need+=(python3-faiss)
	$PY -c 'import sklearn' 2>/dev/null || need+=(python3-sklearn)
	[ -d /usr/share/datasets/fashion-mnist ] || need+=(dataset-fashion-mnist)
	[ -d "$OPENBLAS" ] || need+=(libopenblas0-pthread)
	if [ ${#need[@]} -gt 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" > /dev/null
	fi
fi
make -s all
export OMP_NUM_THREADS=$THREADS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

prepare() {  # $1: set name -> $tmp/$1.libsvm
	case $1 in
	usps) zcat "$DATA/usps.train.libsvm.gz" > "$tmp/usps.libsvm" ;;
	mnist) zcat "$DATA/mnist.t10k.libsvm.gz" > "$tmp/mnist.libsvm" ;;
	fashion)
		f=/usr/share/datasets/fashion-mnist
		{ datasets/convert-mnist-idx "$f/train-images-idx3-ubyte.gz" "$f/train-labels-idx1-ubyte.gz"
		  datasets/convert-mnist-idx "$f/t10k-images-idx3-ubyte.gz" "$f/t10k-labels-idx1-ubyte.gz"
		} > "$tmp/fashion.libsvm" ;;
	esac
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run LABEL LIBPATH CMD...: median wall time and peak RSS over RUNS runs;
# sets $wall, $rss (MB) and keeps the last run's stderr in $tmp/err
run() {
	local label=$1 libpath=$2 r
	shift 2
	: > "$tmp/walls"
	: > "$tmp/rsss"
	for r in $(seq 1 "$RUNS"); do
		LD_LIBRARY_PATH=$libpath /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" 2> "$tmp/err"
		cut -d' ' -f1 "$tmp/time" >> "$tmp/walls"
		cut -d' ' -f2 "$tmp/time" >> "$tmp/rsss"
	done
	wall=$(median < "$tmp/walls")
	rss=$(awk '{ m = m > $1 ? m : $1 } END { printf "%.0f", m / 1024 }' "$tmp/rsss")
	: "$label"
}

# agree OURS THEIRS: rows whose neighbour sets agree (ties at the k-th
# distance, within 1e-5 relative, count as agreeing)
agree() {
	awk -v k="$K" '
	NR == FNR { n = split($0, t, " "); for (i = 2; i <= n; i++) { split(t[i], p, ":"); mine[FNR, p[1]] = p[2] } kth[FNR] = p[2]; rows = FNR; next }
	{ ok = 1; n = split($0, t, " ")
	  for (i = 2; i <= n; i++) { split(t[i], p, ":")
	    if (!((FNR, p[1]) in mine)) { if (p[2] > kth[FNR] * (1 + 1e-5) + 1e-9 || p[2] < kth[FNR] * (1 - 1e-5) - 1e-9) ok = 0 } }
	  good += ok }
	END { printf "%d/%d (%.2f%%)", good, rows, 100 * good / rows }' "$1" "$2"
}

printf '| data | n x d | method | BLAS | wall (s) | peak RSS (MB) | block products | rows agreeing with FAISS |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for set in $sets; do
	prepare "$set"
	f=$tmp/$set.libsvm
	n=$(wc -l < "$f")
	d=$(awk '{ n = split($NF, p, ":"); if (p[1] > m) m = p[1] } END { print m }' "$f")
	# FAISS first: the reference lists
	run faiss "" $PY bench/peers.py faiss "$f" "$K" "$THREADS" "$tmp/faiss.nn"
	fwall=$(awk '/search_seconds/ { print $2 }' "$tmp/err")
	printf '| %s | %s x %s | FAISS IndexFlatL2 (float32) | its own | %s (search) | %s | | reference |\n' "$set" "$n" "$d" "$fwall" "$rss"
	run sklearn "" $PY bench/peers.py sklearn "$f" "$K" "$THREADS" "$tmp/sk.nn"
	swall=$(awk '/search_seconds/ { print $2 }' "$tmp/err")
	printf '| %s | %s x %s | scikit-learn brute (float64) | its own | %s (search) | %s | | %s |\n' "$set" "$n" "$d" "$swall" "$rss" "$(agree "$tmp/sk.nn" "$tmp/faiss.nn")"
	for mode in double single; do
		opt=$([ $mode = double ] && echo "-p double" || true)
		for blas in openblas reference; do
			if [ $blas = reference ]; then
				case " $REFBLAS " in *" $set "*) lp=$REFERENCE ;; *) continue ;; esac
			else
				lp=$OPENBLAS
			fi
			# shellcheck disable=SC2086
			run gb "$lp" ./graph-build $opt -N -k "$K" "$f" "$tmp/gb.nn"
			rate=$(awk '/scan:/ { for (i = 1; i <= NF; i++) if ($i ~ /GFLOP/) print substr($(i-1), 2) " GFLOP/s" }' "$tmp/err")
			printf '| %s | %s x %s | graph-build %s | %s | %s | %s | %s | %s |\n' "$set" "$n" "$d" \
				"$([ $mode = single ] && echo "(default: sgemm, certified)" || echo "-p double (dgemm)")" "$blas" "$wall" "$rss" "$rate" \
				"$(agree "$tmp/gb.nn" "$tmp/faiss.nn")"
		done
	done
done
printf '\nMachine: %s, %s cores; OMP_NUM_THREADS=%s.\n' "$(lscpu | awk -F: '/Model name/ { gsub(/^ +/, "", $2); print $2 }')" "$(nproc)" "$THREADS"
