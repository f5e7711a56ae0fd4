#!/bin/bash
# class-dependent.sh -- JMLR 2006 Section 6.2, the fully supervised end of
# manifold regularization: class-dependent Laplacians (each class
# regularized on a graph of its own rows, lapsvm-train -y) against the SVM
# and RLS, on fully labeled data.  The paper reports no numbers for this.
#
#   USPS:   ESL zip.train (7291 digits) / zip.test (2007), 10 classes
#   Isolet: isolet1 (1560 utterances) / isolet5 (1559), 26 letters
#
# Every parameter is chosen by 5-fold stratified cross validation on the
# training set only (lapsvm-train -v 5 -S 1 over the grids below, the
# toolkit's criterion: the class-balanced held-out scaled hinge loss); the
# model of the chosen setting is then scored once on the test set.  With
# -y each fold's graph is built from that fold's training labels alone
# (README, "Class-dependent Laplacians").  Driven only through the
# command-line tools.
#
#   experiments/class-dependent.sh [method ...]  (default: rls svm laprls lapsvm)
# Environment: DATA (../shared/data), BIN (.), SETS ("usps isolet"), OUT
# (build/class-dependent: each run's cross-validation table and
# predictions), A_GRID (-a, every method: 1e-3,1e-2,1e-1,1), I_GRID (-i, the
# class-dependent methods: 1e-2,1e-1,1,10), K (neighbours of the
# within-class graph: 6).
# Fixed, not tuned: the RBF kernel with lapsvm-train's default width
# (gamma = 1 / the mean squared distance between training rows), heat
# weights, the normalized Laplacian, every class weight 1 (no -W).
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
SETS=${SETS:-usps isolet}
OUT=${OUT:-build/class-dependent}
A_GRID=${A_GRID:-1e-3,1e-2,1e-1,1}
I_GRID=${I_GRID:-1e-2,1e-1,1,10}
K=${K:-6}
methods=${*:-rls svm laprls lapsvm}
for m in $methods; do
	case $m in
	rls | svm | laprls | lapsvm) ;;
	*) echo "class-dependent.sh: unknown method $m (expected rls, svm, laprls or lapsvm)" >&2; exit 2 ;;
	esac
done
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files() {  # train and test files of a set
	case $1 in
	usps) echo usps.train.libsvm.gz usps.test.libsvm.gz ;;
	isolet) echo isolet1.libsvm.gz isolet5.libsvm.gz ;;
	*) echo "class-dependent.sh: unknown set $1 (expected usps or isolet)" >&2; exit 2 ;;
	esac
}

now() { date +%s.%N; }

printf '| set | method | chosen by 5-fold CV | CV accuracy | test error | time (CV + final model) |\n'
printf '|---|---|---|---|---|---|\n'
for set in $SETS; do
	read -r trainf testf < <(files "$set")
	for f in "$trainf" "$testf"; do
		[ -r "$DATA/$f" ] || { echo "class-dependent.sh: $DATA/$f not found (set DATA to the directory holding the data sets; default ../shared/data; datasets/fetch gets them)" >&2; exit 1; }
	done
	zcat "$DATA/$trainf" > "$tmp/train"
	zcat "$DATA/$testf" > "$tmp/test"
	for m in $methods; do
		case $m in
		rls) opts="-s laprls -i 0" ;;
		svm) opts="-s lapsvm -i 0" ;;
		laprls) opts="-s laprls -y -k $K -i $I_GRID" ;;
		lapsvm) opts="-s lapsvm -y -k $K -i $I_GRID" ;;
		esac
		# -u -1: every row is labeled (USPS has a class 0, the default
		# unlabeled marker)
		start=$(now)
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -q -u -1 -v 5 -S 1 -a "$A_GRID" $opts \
			"$tmp/train" "$tmp/model" > "$OUT/$set-$m.cv"
		end=$(now)
		# a grid prints its table and "best: ..."; a single setting
		# (grids of one value) its accuracy line
		best=$(sed -n 's/^best: //p' "$OUT/$set-$m.cv")
		cvacc=$(awk '/^\*/ { print $NF }
			/^Cross Validation Accuracy/ { print $5 }' "$OUT/$set-$m.cv")
		if [ -z "$best" ]; then
			best="-a $A_GRID"
			case $m in laprls | lapsvm) best="$best -i $I_GRID" ;; esac
		fi
		err=$("$BIN"/lapsvm-predict "$tmp/test" "$tmp/model" "$OUT/$set-$m.pred" |
			awk '/^Accuracy/ { sub(/%/, "", $3); printf "%.2f", 100 - $3 }')
		secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
		printf '| %s | %s | `%s` | %s | %s%% | %s s |\n' "$set" "$m" "$best" \
			"$cvacc" "$err" "$secs"
	done
done
