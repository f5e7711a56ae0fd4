#!/bin/bash
# mpi.sh -- graph-build under mpirun against the one-thread serial run:
# wall time for P = 1 and 2 ranks (one OpenMP thread each), the bytes each
# rank sends (as graph-build reports them), and a check that every graph
# is byte for byte the serial one.  A Markdown table.  Not part of make
# test.
#
#   bench/mpi.sh [fashion|mnist10k]     (default fashion)
#   bench/mpi.sh train                  (lapsvm-train on SecStr, below)
#   bench/mpi.sh train-usps             (lapsvm-train on USPS, 3 vs 8)
#   bench/mpi.sh train-fashion          (lapsvm-train on Fashion-MNIST 70k)
#
# train: lapsvm-train $TRAIN (default -s lapsvm -M newton -N 1000) on
# SecStr (83679 rows) with the labels of split $SPLIT (default 1) of
# l = $L (default 1000), the rest unlabelled, as experiments/secstr.sh
# applies them, and the graph graph-build -k 10 (built once, serially, not
# timed in the table): the serial build, then mpirun -np P for P in $PS.
# Per run: wall and CPU seconds (user + system of the process tree, from
# /usr/bin/time), each rank's training time and bytes sent (as
# lapsvm-train reports them), the largest relative difference of any
# number of the model from the serial one, whether the predicted labels
# of the unlabelled rows (-o) are identical, and their error (%).
# train-usps: the same table for lapsvm-train $TRAIN (default -s laprls
# -M pcg: PCG on the exact kernel, its rows split over the ranks) on the
# digits $DIGITS (default "3 8": 1200 rows; "all": the 7291 rows, ten
# one-vs-rest functions) of USPS's training set (usps.train.libsvm.gz),
# every $EVERY-th of them (default 20) labelled, the others not, and the
# graph graph-build -k 10 of those rows.
# train-fashion: the same table for lapsvm-train $TRAIN (default -s lapsvm
# -M newton -N 1000: the Nystrom path) on the 70000 Fashion-MNIST images
# (training then test set), every $EVERY-th (default 100) labelled, ten
# one-vs-rest functions, and the graph graph-build -k 10 of all rows.
# Both tables end with the machine's own ceiling (PAIR=0 skips it): two
# copies of the serial run started together, each alone on a core, and
# their throughput against one run's, 2 t_1 / t_pair (t_pair the slower
# copy's wall time).  P ranks cannot beat what two independent processes
# get from the cores' shared caches, memory bandwidth and clock, so the
# P = 2 speed-up is read against this number, not against 2.
# Environment: GRAPH ("-k 10"), PS ("1 2"), PAIR (1), BLAS (the directory of the BLAS
# to run with, default /usr/lib/x86_64-linux-gnu/openblas-pthread; empty:
# the system's), FASHION (directory of the IDX files, as bench/fashion.sh),
# DATA (../shared/data, for mnist10k).
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:-fashion}
GRAPH=${GRAPH:--k 10}
PS=${PS:-1 2}
PAIR=${PAIR:-1}
BLAS=${BLAS-/usr/lib/x86_64-linux-gnu/openblas-pthread}
FASHION=${FASHION:-/usr/share/datasets/fashion-mnist}
DATA=${DATA:-../shared/data}
command -v mpirun > /dev/null || { echo "mpi.sh: mpirun not installed (openmpi-bin)" >&2; exit 1; }
make -s all
make -s MPI=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fashion_rows FILE: the 70000 Fashion-MNIST images, training set then
# test set, as LIBSVM rows
fashion_rows() {
	[ -d "$FASHION" ] || { echo "mpi.sh: $FASHION not found (dataset-fashion-mnist)" >&2; exit 1; }
	datasets/convert-mnist-idx "$FASHION/train-images-idx3-ubyte.gz" "$FASHION/train-labels-idx1-ubyte.gz" > "$1"
	datasets/convert-mnist-idx "$FASHION/t10k-images-idx3-ubyte.gz" "$FASHION/t10k-labels-idx1-ubyte.gz" >> "$1"
}

# pair_wall FN: run the shell function FN twice at once, FN 1 and FN 2
# (the copy number names its outputs), and print both copies' wall seconds
pair_wall() {
	local t0
	t0=$(date +%s.%N)
	( "$1" 1; date +%s.%N > "$tmp/pair1.end" ) &
	( "$1" 2; date +%s.%N > "$tmp/pair2.end" ) &
	wait
	awk -v a="$t0" -v b="$(cat "$tmp/pair1.end")" -v c="$(cat "$tmp/pair2.end")" \
		'BEGIN { printf "%.1f %.1f\n", b - a, c - a }'
}

# ceiling T1 "W1 W2": the ceiling row's wall cell, from one run's wall
# seconds T1 and the pair's: the slower copy's seconds, both copies', and
# the throughput 2 T1 / max(W1, W2)
ceiling() {
	awk -v s="$1" -v w="$2" 'BEGIN { split(w, a, " "); m = a[1] > a[2] ? a[1] : a[2]
		printf "%.1f (copies %s / %s): %.2fx", m, a[1], a[2], 2 * s / m }'
}

# the largest relative difference between the numbers of two model files
# (text equal elsewhere), two ways: of a single number (|a - b| / max(|a|,
# |b|)), and of a vector (max |a - b| / max |a| over its entries; the
# vectors: each function's coefficients, a column of the SV block; the
# feature values of the SV block, landmarks or linear weights; the numbers
# of each header line, e.g. the biases), printed "NUMBER / VECTOR"; or
# DIFFERENT
model_diff() {
	awk -v A="$1" -v B="$2" '
	function num(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
	function ab(v) { return v < 0 ? -v : v }
	BEGIN { w = 0; sv = 0; C = 0
		while ((getline a < A) > 0) {
			if ((getline b < B) <= 0) { print "DIFFERENT"; exit }
			na = split(a, ta, /[ :]/); nb = split(b, tb, /[ :]/)
			if (na != nb) { print "DIFFERENT"; exit }
			if (ta[1] == "nr_fn") C = ta[2]
			if (a == "SV") { sv = 1; continue }
			for (i = 1; i <= na; i++) {
				if (ta[i] != tb[i]) {
					if (!num(ta[i]) || !num(tb[i])) { print "DIFFERENT"; exit }
					m = ab(ta[i]) > ab(tb[i]) ? ab(ta[i]) : ab(tb[i])
					if (ab(ta[i] - tb[i]) / m > w) w = ab(ta[i] - tb[i]) / m
				}
				if (!num(ta[i])) continue
				# the vector of this number: a column of coefficients, the
				# SV block feature values (every second number after them),
				# or its header line
				if (sv) v = i <= C ? "c" i : ((i - C) % 2 == 0 ? "x" : "")
				else v = "h" NR
				if (v == "") continue
				d = ab(ta[i] - tb[i])
				if (d > D[v]) D[v] = d
				if (ab(ta[i]) > M[v]) M[v] = ab(ta[i])
			}
		}
		if ((getline b < B) > 0) { print "DIFFERENT"; exit }
		nw = 0
		for (v in D) if (M[v] > 0 && D[v] / M[v] > nw) nw = D[v] / M[v]
		printf "%.1e / %.1e\n", w, nw }'
}

# max |f - g| / max |f| over the decision values of two -o files (every
# column after the label of every row but the header)
output_diff() {
	paste -d' ' "$1" "$2" | awk 'NR > 1 { h = NF / 2
		for (i = 2; i <= h; i++) { a = $i < 0 ? -$i : $i; d = $i - $(i + h); d = d < 0 ? -d : d
			if (a > m) m = a; if (d > w) w = d } }
		END { printf "%.1e\n", (m > 0 ? w / m : 0) }'
}

if [ "$set_name" = train ] || [ "$set_name" = train-usps ] || [ "$set_name" = train-fashion ]; then
	if [ "$set_name" = train ]; then
		TRAIN=${TRAIN:--s lapsvm -M newton -N 1000}
		SPLIT=${SPLIT:-1}
		L=${L:-1000}
		[ -f "$DATA/ssl_secstr.libsvm.gz" ] || { echo "mpi.sh: $DATA/ssl_secstr.libsvm.gz not found" >&2; exit 1; }
		gzip -dc "$DATA/ssl_secstr.libsvm.gz" > "$tmp/full"
		sed -n "${SPLIT}p" "$DATA/ssl_secstr.splits.l$L.txt" > "$tmp/lab"
		[ -s "$tmp/lab" ] || { echo "mpi.sh: no split $SPLIT of l = $L" >&2; exit 1; }
		what="SecStr, split $SPLIT of l = $L"
		MARK=9
	elif [ "$set_name" = train-fashion ]; then
		TRAIN=${TRAIN:--s lapsvm -M newton -N 1000}
		EVERY=${EVERY:-100}
		fashion_rows "$tmp/full"
		awk -v e="$EVERY" -v n="$(wc -l < "$tmp/full")" \
			'BEGIN { for (i = 1; i <= n; i += e) printf "%d ", i; print "" }' > "$tmp/lab"
		what="Fashion-MNIST 70k, every ${EVERY}th row labelled"
		MARK=99  # not a class
	else
		TRAIN=${TRAIN:--s laprls -M pcg}
		EVERY=${EVERY:-20}
		DIGITS=${DIGITS:-3 8}
		[ -f "$DATA/usps.train.libsvm.gz" ] || { echo "mpi.sh: $DATA/usps.train.libsvm.gz not found" >&2; exit 1; }
		gzip -dc "$DATA/usps.train.libsvm.gz" |
			awk -v d="$DIGITS" 'BEGIN { n = split(d, a, " "); for (i = 1; i <= n; i++) keep[a[i]] = 1 }
				d == "all" || ($1 in keep)' > "$tmp/full"
		awk -v e="$EVERY" -v n="$(wc -l < "$tmp/full")" \
			'BEGIN { for (i = 1; i <= n; i += e) printf "%d ", i; print "" }' > "$tmp/lab"
		what="USPS train, digits $DIGITS, every ${EVERY}th row labelled"
		MARK=99  # not a digit
	fi
	# as experiments/ssl-book.sh: the split's rows keep their label, the
	# others get the marker $MARK; the truth of the unlabelled rows for
	# scoring
	awk -v u="$MARK" 'NR == FNR { for (j = 1; j <= NF; j++) keep[$j] = 1; next }
		{ if (!(FNR in keep)) $1 = u; print }' "$tmp/lab" "$tmp/full" > "$tmp/semi"
	awk -v u="$MARK" 'NR == FNR { y[FNR] = $1; next } $1 == u { print y[FNR] }' \
		<(cut -d' ' -f1 "$tmp/full") "$tmp/semi" > "$tmp/truth"
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
	[ -n "$BLAS" ] && export LD_LIBRARY_PATH="$BLAS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	./graph-build -q -k 10 "$tmp/semi" "$tmp/graph"
	echo "lapsvm-train $TRAIN -u $MARK -G (graph-build -k 10) on $what: $(wc -l < "$tmp/semi") rows; one thread per rank; BLAS: ${BLAS:-system}; $(nproc --all) cores, shared: load average $(cut -d" " -f1-3 /proc/loadavg)"
	echo
	error() { tail -n +2 "$1" | cut -d' ' -f1 | paste -d' ' "$tmp/truth" - |
		awk '{ n++; e += ($1 != $2) } END { printf "%.2f", 100 * e / n }'; }
	printf '| run | wall s | CPU s | train s per rank (its CPU s) | bytes sent per rank | model vs serial (max rel. diff: of a number / of a vector) | outputs vs serial (max abs. diff / max abs.) | labels | error %% |\n|---|---|---|---|---|---|---|---|---|\n'
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o "$tmp/serial.time" ./lapsvm-train $TRAIN -u "$MARK" -G "$tmp/graph" \
		-o "$tmp/serial.pred" "$tmp/semi" "$tmp/serial.model" 2> "$tmp/serial.err"
	read -r w u s < "$tmp/serial.time"
	w1=$w
	printf '| serial, 1 thread | %s | %s | - | - | reference | reference | reference | %s |\n' "$w" \
		"$(awk -v a="$u" -v b="$s" 'BEGIN { printf "%.1f", a + b }')" "$(error "$tmp/serial.pred")"
	for P in $PS; do
		# shellcheck disable=SC2086
		/usr/bin/time -f '%e %U %S' -o "$tmp/p$P.time" mpirun -q --oversubscribe --bind-to none \
			-np "$P" build/mpi/lapsvm-train $TRAIN -u "$MARK" -G "$tmp/graph" -o "$tmp/p$P.pred" \
			"$tmp/semi" "$tmp/p$P.model" 2> "$tmp/p$P.err"
		read -r w u s < "$tmp/p$P.time"
		tr=$(sed -n 's/.*rank [0-9]* of .*train \([0-9.]*\) s (CPU \([0-9.]*\) s).*/\1 (\2)/p' "$tmp/p$P.err" | paste -sd/ -)
		sent=$(sed -n 's/.*rank [0-9]* of .*sent \([0-9]*\) bytes/\1/p' "$tmp/p$P.err" | paste -sd/ -)
		same=$(cmp -s <(cut -d' ' -f1 "$tmp/serial.pred") <(cut -d' ' -f1 "$tmp/p$P.pred") &&
			echo identical || echo DIFFERENT)
		printf '| mpirun -np %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$P" "$w" \
			"$(awk -v a="$u" -v b="$s" 'BEGIN { printf "%.1f", a + b }')" "${tr:--}" "${sent:--}" \
			"$(model_diff "$tmp/serial.model" "$tmp/p$P.model")" \
			"$(output_diff "$tmp/serial.pred" "$tmp/p$P.pred")" "$same" "$(error "$tmp/p$P.pred")"
	done
	if [ "$PAIR" = 1 ]; then
		# shellcheck disable=SC2086,SC2317  # word-split options; called by pair_wall
		pair_train() { ./lapsvm-train $TRAIN -u "$MARK" -G "$tmp/graph" "$tmp/semi" "$tmp/pair$1.model" 2> /dev/null; }
		pw=$(pair_wall pair_train)
		printf '| 2 serial runs at once: the ceiling (throughput 2 t_1 / t_pair) | %s | - | - | - | - | - | - | - |\n' \
			"$(ceiling "$w1" "$pw")"
	fi
	echo
	echo "The serial run's report:"
	sed 's/^/    /' "$tmp/serial.err"
	for P in $PS; do
		echo "mpirun -np $P: $(grep -E 'PCG: |Newton: |conjugate gradient: ' "$tmp/p$P.err" | sed 's/^lapsvm-train: //' | paste -sd';' -)"
	done
	exit 0
fi
case $set_name in
fashion)
	fashion_rows "$tmp/x"
	;;
mnist10k)
	gzip -dc "$DATA/mnist.t10k.libsvm.gz" > "$tmp/x"
	;;
*)
	echo "mpi.sh: unknown set '$set_name' (fashion, mnist10k, train, train-usps or train-fashion)" >&2
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

start=$(date +%s.%N)
# shellcheck disable=SC2086
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
if [ "$PAIR" = 1 ]; then
	# shellcheck disable=SC2086,SC2317  # word-split options; called by pair_wall
	pair_graph() { ./graph-build -q $GRAPH "$tmp/x" "$tmp/pair$1.graph"; }
	pw=$(pair_wall pair_graph)
	printf '| 2 serial runs at once: the ceiling (throughput 2 t_1 / t_pair) | %s | - | - | - |\n' \
		"$(ceiling "$serial" "$pw")"
fi
echo
echo "Each rank's scan (from graph-build's report):"
for P in $PS; do
	grep 'rank .* of' "$tmp/p$P.err" | sed 's/^graph-build: /    /' || true
done
