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
# training set only (lapsvm-train -v 5 -S 1 over the grids below), and the
# model of the chosen setting is scored once on the test set.  Two
# criteria, each with its own columns: the highest cross-validation
# accuracy (LIBSVM's grid.py; its setting is trained again here), and
# lapsvm-train's own, the class-balanced held-out scaled hinge loss (the
# model -v writes).  With -y each fold's graph is built from that fold's
# training labels alone (README, "Class-dependent Laplacians").  Driven
# only through the command-line tools.
#
#   experiments/class-dependent.sh [method ...]  (default: rls svm laprls lapsvm)
# Environment: DATA (../shared/data), BIN (.), SETS ("usps isolet"), OUT
# (build/class-dependent: each run's cross-validation table and test
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

# The setting of highest cross-validation accuracy in a -v table (ties:
# larger -a, then smaller -i, the tool's rule), as "A I ACCURACY"; a grid
# of one setting prints no table but its accuracy line.
best_accuracy() {
	awk -v adef="$A_GRID" -v idef="$2" '
		/^Cross Validation Accuracy/ { a = adef; i = idef; acc = $5; sub(/%/, "", acc); take(); next }
		/^#/ || /^best:/ { next }
		!hdr { for (f = 1; f <= NF; f++) col[$f] = f; hdr = 1; next }
		{ sub(/^\*/, " "); a = ("-a" in col) ? $col["-a"] : adef
		  i = ("-i" in col) ? $col["-i"] : idef; acc = $NF; sub(/%/, "", acc); take() }
		function take() {
			if (!got || acc + 0 > bacc + 0 || (acc + 0 == bacc + 0 &&
			    (a + 0 > ba + 0 || (a + 0 == ba + 0 && i + 0 < bi + 0)))) {
				got = 1; ba = a; bi = i; bacc = acc
			}
		}
		END { print ba, bi, bacc "%" }' "$1"
}

error() {  # test error (%) of a model; predictions kept in $3
	"$BIN"/lapsvm-predict "$tmp/test" "$1" "$2" |
		awk '/^Accuracy/ { sub(/%/, "", $3); printf "%.2f", 100 - $3 }'
}

echo "Fully labeled training sets; parameters by 5-fold cross validation on them; test error on the test sets."
printf '| set | method | chosen by CV accuracy | CV accuracy | test error | chosen by the scaled hinge (-v) | test error | time |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for set in $SETS; do
	read -r trainf testf < <(files "$set")
	for f in "$trainf" "$testf"; do
		[ -r "$DATA/$f" ] || { echo "class-dependent.sh: $DATA/$f not found (set DATA to the directory holding the data sets; default ../shared/data; datasets/fetch gets them)" >&2; exit 1; }
	done
	zcat "$DATA/$trainf" > "$tmp/train"
	zcat "$DATA/$testf" > "$tmp/test"
	for m in $methods; do
		case $m in
		rls) opts="-s laprls"; igrid=0 ;;
		svm) opts="-s lapsvm"; igrid=0 ;;
		laprls) opts="-s laprls -y -k $K"; igrid=$I_GRID ;;
		lapsvm) opts="-s lapsvm -y -k $K"; igrid=$I_GRID ;;
		esac
		# -u -1: every row is labeled (USPS has a class 0, the default
		# unlabeled marker)
		start=$(now)
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -q -u -1 -v 5 -S 1 -a "$A_GRID" -i "$igrid" $opts \
			"$tmp/train" "$tmp/model.h" > "$OUT/$set-$m.cv"
		# lapsvm-train -v chose by its criterion, the class-balanced
		# scaled hinge loss (README, Model selection), and wrote that
		# model.  With thousands of held-out rows the accuracy is a fine
		# criterion too, LIBSVM's grid.py's: its choice is trained here.
		hinge=$(sed -n 's/^best: //p' "$OUT/$set-$m.cv")
		[ -n "$hinge" ] || hinge="-a $A_GRID -i $igrid"
		read -r a i cvacc < <(best_accuracy "$OUT/$set-$m.cv" "$igrid")
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -q -u -1 -a "$a" -i "$i" $opts "$tmp/train" "$tmp/model.a"
		end=$(now)
		err_a=$(error "$tmp/model.a" "$OUT/$set-$m.pred")
		err_h=$(error "$tmp/model.h" "$OUT/$set-$m.hinge.pred")
		secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
		printf '| %s | %s | `-a %s -i %s` | %s | %s%% | `%s` | %s%% | %s s |\n' \
			"$set" "$m" "$a" "$i" "$cvacc" "$err_a" "$hinge" "$err_h" "$secs"
	done
done
