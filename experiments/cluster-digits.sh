#!/bin/bash
# cluster-digits.sh -- regularized spectral clustering (JMLR 2006 Section
# 6.1; lapsvm-train -s cluster) of real data into many clusters: the USPS
# test set (2007 digits, 10 clusters) and Isolet1 (1560 spoken letters, 26
# clusters), against k-means on the raw features and against unregularized
# spectral clustering (the same graph, gamma_A -> 0), in sample and out of
# sample.  The paper shows no such table; this is the issue's check that the
# regularized clustering is a sound clustering method, not only a pretty
# picture on the moons.  Labels are never used to cluster, only to score.
#
#   experiments/cluster-digits.sh [usps] [isolet]      (default: both)
#
# One protocol for both sets (chosen by exploring graphs, kernel widths and
# gamma_A on these two sets against their labels: see experiments/README.md):
#   graph    graph-build -k 10 (heat weights, t = the mean squared distance
#            of the chosen pairs), over the rows being clustered
#   kernel   RBF of the toolkit's default width (-g = 1 / the mean squared
#            distance between rows)
#   L        unnormalized, D - W (the -s cluster default)
#   gamma    gamma_A = 0.005 n, gamma_I = 1 (n = the rows clustered: the
#            kernel matrix's eigenvalues grow like n, so the ambient term of
#            a unit-norm f shrinks like 1/n; gamma_A/n fixed keeps the
#            balance when half the rows are clustered)
#   clusters c - 1 eigenfunctions, their rows scaled to unit length, k-means++
#            with 100 restarts (-E unit -R 100)
# unregularized: the same with gamma_A = 1e-12: the kernel basis keeps all n
# directions here (rank n), so this is the Laplacian eigenmap itself (the c-1
# smallest nontrivial eigenvectors of D - W), extended out of sample by the
# same kernel expansion.
# k-means: scikit-learn's KMeans(c, n_init=10) on the raw features
# (experiments/kmeans-peer.py, Debian's python3-sklearn through
# /usr/bin/python3) -- the peer, not part of the toolkit.
#
# In sample: all rows clustered, the clusters scored against the labels
# (accuracy under the best matching of clusters to classes, and NMI).  Out
# of sample: the first half of the rows clustered (its own graph), the
# second half assigned by the model (lapsvm-predict: f(x) by the kernel
# expansion, the nearest centroid), scored against its labels; k-means
# assigns the second half to its nearest centre.  Isolet1's rows are in
# speaker order, so its halves are speakers 1-15 and 16-30.  Each number is
# the mean over the seeds SEEDS (-S for lapsvm-train: the k-means seeding;
# random_state for the peer), min-max in brackets.
#
# Environment: BIN, DATA (default ../shared/data; usps.test.libsvm.gz and
# isolet1.libsvm.gz, from datasets/fetch), SEEDS ("1 2 3 4 5"), GRAPH
# ("-k 10"), TRAIN (kernel, Laplacian and clustering options, "-L
# unnormalized -E unit -R 100"), AN (gamma_A / n, 0.005), A_FIXED (if set,
# gamma_A itself, for every n), UNREG_A (1e-12), METHODS (the rows of the
# table: "reg unreg km"), PYTHON (/usr/bin/python3), OUT (per-run results,
# build/cluster-digits).
set -euo pipefail

prog=cluster-digits.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${DATA:-../shared/data}
BIN=${BIN:-$top}
SEEDS=${SEEDS:-1 2 3 4 5}
GRAPH=${GRAPH:--k 10}
TRAIN=${TRAIN:--L unnormalized -E unit -R 100}
AN=${AN:-0.005}
A_FIXED=${A_FIXED:-}
UNREG_A=${UNREG_A:-1e-12}
METHODS=${METHODS:-reg unreg km}
PYTHON=${PYTHON:-/usr/bin/python3}
OUT=${OUT:-build/cluster-digits}

case ${1-} in -h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
	exit 0 ;;
esac
sets=${*:-usps isolet}
for s in $sets; do
	case $s in
	usps | isolet) ;;
	*) echo "$prog: unknown data set '$s' (expected usps or isolet)" >&2; exit 2 ;;
	esac
done
for t in graph-build lapsvm-train lapsvm-predict; do
	[ -x "$BIN/$t" ] || { echo "$prog: $BIN/$t not found: run make (or set BIN)" >&2; exit 1; }
done
for m in $METHODS; do
	case $m in
	reg | unreg | km) ;;
	*) echo "$prog: METHODS: unknown method '$m' (expected reg, unreg, km)" >&2; exit 2 ;;
	esac
done
if [[ " $METHODS " == *" km "* ]] && ! "$PYTHON" -c 'import sklearn, scipy' 2>/dev/null; then
	echo "$prog: $PYTHON cannot import sklearn and scipy (the k-means peer):" \
		"apt-get install python3-sklearn, or set PYTHON" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

# score FILE: "accuracy nmi" from lapsvm-predict's output
score() {
	awk '/^Clustering accuracy = / { a = $4; sub(/%/, "", a) }
		/^NMI = / { m = $3 } END { print a, m }' "$1"
}

# cluster NAME DATA GRAPH C A SEED [TEST]: lapsvm-train -s cluster on DATA
# (every row counts as labeled: -u -1 keeps the digit 0 a label), predict
# DATA and TEST; appends "NAME SEED acc nmi [acc nmi]" to $tmp/runs.
cluster() {
	local name=$1 data=$2 graph=$3 c=$4 a=$5 seed=$6 test=${7-} line
	# shellcheck disable=SC2086
	"$BIN"/lapsvm-train -s cluster -K "$c" -A "$a" -I 1 $TRAIN -S "$seed" -u -1 \
		-G "$graph" "$data" "$tmp/m" 2> "$tmp/train.log" ||
		{ cat "$tmp/train.log" >&2; exit 1; }
	grep -q warning "$tmp/train.log" && sed "s/^/$name seed $seed: /" "$tmp/train.log" >&2
	"$BIN"/lapsvm-predict "$data" "$tmp/m" "$tmp/p" > "$tmp/s"
	line="$name $seed $(score "$tmp/s")"
	if [ -n "$test" ]; then
		"$BIN"/lapsvm-predict "$test" "$tmp/m" "$tmp/p" > "$tmp/s"
		line="$line $(score "$tmp/s")"
	fi
	echo "$line" >> "$tmp/runs"
}

# kmeans NAME C SEED DATA [TEST]: the peer; appends like cluster.
kmeans() {
	local name=$1 c=$2 seed=$3
	shift 3
	echo "$name $seed $("$PYTHON" "$top/experiments/kmeans-peer.py" "$c" "$seed" "$@" 2>/dev/null)" >> "$tmp/runs"
}

# stat NAME COLUMN: "mean [min-max]" of a column of NAME's runs
stat() {
	awk -v n="$1" -v c="$2" -v pct="$3" '$1 == n { v = $c + 0; s += v; k++
		if (k == 1 || v < lo) lo = v; if (k == 1 || v > hi) hi = v }
		END { f = pct ? "%.2f" : "%.4f"
			printf f " [" f "-" f "]", s / k, lo, hi }' "$tmp/runs"
}

for s in $sets; do
	case $s in
	usps) file=usps.test.libsvm.gz c=10 what="USPS test set (ESL zip.test), 2007 digits x 256 pixels, 10 clusters" ;;
	isolet) file=isolet1.libsvm.gz c=26 what="Isolet1, 1560 utterances x 617 features, 26 clusters (letters)" ;;
	esac
	[ -r "$DATA/$file" ] || { echo "$prog: $DATA/$file not found (datasets/fetch -m ../shared/data $s)" >&2; exit 1; }
	gzip -dc "$DATA/$file" > "$tmp/all"
	n=$(wc -l < "$tmp/all")
	h=$((n / 2))
	head -n "$h" "$tmp/all" > "$tmp/half1"
	tail -n +$((h + 1)) "$tmp/all" > "$tmp/half2"
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $GRAPH "$tmp/all" "$tmp/all.graph"
	# shellcheck disable=SC2086
	"$BIN"/graph-build -q $GRAPH "$tmp/half1" "$tmp/half1.graph"
	a_all=$(awk -v a="$AN" -v n="$n" -v f="$A_FIXED" 'BEGIN { printf "%.6g", f != "" ? f : a * n }')
	a_half=$(awk -v a="$AN" -v n="$h" -v f="$A_FIXED" 'BEGIN { printf "%.6g", f != "" ? f : a * n }')
	: > "$tmp/runs"
	start=$(date +%s)
	for seed in $SEEDS; do
		for m in $METHODS; do
			case $m in
			reg)
				cluster reg "$tmp/all" "$tmp/all.graph" "$c" "$a_all" "$seed"
				cluster reg-half "$tmp/half1" "$tmp/half1.graph" "$c" "$a_half" "$seed" "$tmp/half2" ;;
			unreg)
				cluster unreg "$tmp/all" "$tmp/all.graph" "$c" "$UNREG_A" "$seed"
				cluster unreg-half "$tmp/half1" "$tmp/half1.graph" "$c" "$UNREG_A" "$seed" "$tmp/half2" ;;
			km)
				kmeans km "$c" "$seed" "$tmp/all"
				kmeans km-half "$c" "$seed" "$tmp/half1" "$tmp/half2" ;;
			esac
		done
	done
	end=$(date +%s)
	cp "$tmp/runs" "$OUT/$s.runs"
	nseeds=$(echo "$SEEDS" | wc -w)
	echo "### $what"
	echo
	printf '| method | in sample: accuracy | NMI | rows 1-%s clustered: accuracy | NMI | rows %s-%s predicted: accuracy | NMI |\n' \
		"$h" "$((h + 1))" "$n"
	printf '|---|---|---|---|---|---|---|\n'
	for m in $METHODS; do
		case $m in
		reg)
			if [ -n "$A_FIXED" ]; then
				label="regularized (gamma_A = $A_FIXED)"
			else
				label="regularized (gamma_A = $AN n: $a_all; halves $a_half)"
			fi ;;
		unreg) label="unregularized (gamma_A = $UNREG_A)" ;;
		km) label="k-means on the raw features (peer)" ;;
		esac
		printf '| %s | %s%% | %s | %s%% | %s | %s%% | %s |\n' "$label" \
			"$(stat "$m" 3 1)" "$(stat "$m" 4 0)" "$(stat "$m-half" 3 1)" \
			"$(stat "$m-half" 4 0)" "$(stat "$m-half" 5 1)" "$(stat "$m-half" 6 0)"
	done
	echo
	# shellcheck disable=SC2016
	printf 'Means over %s seeds (%s), [min-max]. `graph-build %s`; `lapsvm-train -s cluster -K %s -A gamma_A -I 1 %s -S seed -u -1`. %s s in all.\n\n' \
		"$nseeds" "$SEEDS" "$GRAPH" "$c" "$TRAIN" "$((end - start))"
done
