# argyriou-lib.sh -- shared by the experiments of Argyriou, Herbster &
# Pontil, "Combining Graph Laplacians for Semi-Supervised Learning" (NIPS
# 2005): argyriou-table1.sh, argyriou-fig3.sh, argyriou-fig4.sh.  Sourced,
# not run.  Needs DATA (the shared data directory), BIN (the tools) and
# OUT set by the caller; argyriou_setup makes WORK (a scratch directory).
#
# The data (../shared/data/PROVENANCE.md): the USPS training set in ESL
# order (the authors' order), and the authors' selections argyriou.*:
#   argyriou.T.subset.txt   task T = a v b: the 400 training rows, the k-th
#                           image of a then the k-th of b, k = 1..200
#                           (interleaved); label +1 = a, -1 = b
#   argyriou.T.lL.txt       30 lines, the labeled subset rows of each trial
#   argyriou.oddeven.*      the first 80 images of each digit, digits
#                           cycling 1, 2, ..., 9, 0; label +1 = odd
# The authors' images are column-major, ours row-major (PROVENANCE.md); the
# distances here read the rows as row-major 16 x 16 images, the way the
# ESL file stores them, which is what -D 16x16 declares.

# argyriou_setup PROG FILE...: every FILE is readable in $DATA (else PROG
# says which is not, exit 1); BIN, DATA and OUT made absolute (OUT
# created); WORK a scratch directory removed on exit.
argyriou_setup() {
	local prog=$1 f
	shift
	for f in "$@"; do
		[ -r "$DATA/$f" ] || { echo "$prog: $DATA/$f not found (set DATA to the directory holding the data sets)" >&2; exit 1; }
	done
	BIN=$(cd "$BIN" && pwd)
	DATA=$(cd "$DATA" && pwd)
	mkdir -p "$OUT"
	OUT=$(cd "$OUT" && pwd)
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
}

# train_rows: the USPS training set, once, as $WORK/usps.train.
train_rows() {
	[ -s "$WORK/usps.train" ] || zcat "$DATA/usps.train.libsvm.gz" > "$WORK/usps.train"
}

# pair_subset T OUT: task T's 400 rows in the authors' order, labels +-1.
pair_subset() {
	local a=${1%v*}
	train_rows
	awk -v a="$a" 'NR == FNR { for (i = 1; i <= NF; i++) at[$i] = i; n = NF; next }
		(FNR in at) { row[at[FNR]] = $0 }
		END { for (i = 1; i <= n; i++) { $0 = row[i]; $1 = ($1 == a) ? 1 : -1; print } }' \
		"$DATA/argyriou.$1.subset.txt" "$WORK/usps.train" > "$2"
}

# oddeven_subset M OUT: the first M images of each digit, interleaved as the
# authors' (row 10(k-1)+j is the k-th image of digit j, j = 1..9, row 10k
# the k-th 0), labels +1 odd, -1 even.  For M = 80 these are the rows of
# argyriou.oddeven.subset.txt (checked by check_oddeven).
oddeven_subset() {
	train_rows
	awk -v m="$1" '{ d = $1 + 0; if (seen[d] < m) { seen[d]++; row[d, seen[d]] = $0 } }
		END { for (k = 1; k <= m; k++) for (j = 1; j <= 10; j++) {
			dd = j % 10; $0 = row[dd, k]; $1 = (dd % 2 == 1) ? 1 : -1; print } }' \
		"$WORK/usps.train" > "$2"
}

# check_oddeven: oddeven_subset 80 is the authors' subset, row for row.
check_oddeven() {
	train_rows
	awk -v m=80 '{ d = $1 + 0; if (seen[d] < m) { seen[d]++; at[d, seen[d]] = NR } }
		END { for (k = 1; k <= m; k++) for (j = 1; j <= 10; j++) print at[j % 10, k] }' \
		"$WORK/usps.train" > "$WORK/oe.rows"
	tr ' ' '\n' < "$DATA/argyriou.oddeven.subset.txt" | grep . | cmp -s - "$WORK/oe.rows" ||
		{ echo "the odd/even subset built here is not argyriou.oddeven.subset.txt" >&2; return 1; }
}

# graphs SUBSET DIR NAME DIST KMAX: DIR/NAME1 .. NAME<KMAX>, the kNN graphs
# k = 1..KMAX of SUBSET under DIST (euclidean, tangent or rotation), binary
# weights, union (the authors' knn_D.m).
graphs() {
	local k opts=""
	case $4 in
	tangent|rotation) opts="-d $4 -D 16x16" ;;
	esac
	for k in $(seq 1 "$5"); do
		# shellcheck disable=SC2086
		"$BIN"/graph-build -q -k "$k" -w binary $opts "$1" "$2/$3$k"
	done
}

# semi SUBSET "ROWS" OUT: SUBSET with every row but ROWS (1-based) unlabeled.
semi() {
	echo "$2" | tr ' ' '\n' | awk 'NR == FNR { if ($1 != "") k[$1] = 1; next }
		{ if (!(FNR in k)) $1 = 0; print }' - "$1" > "$3"
}

# truth SUBSET "ROWS" OUT: the true labels of the unlabeled rows, in order.
truth() {
	echo "$2" | tr ' ' '\n' | awk 'NR == FNR { if ($1 != "") k[$1] = 1; next }
		!(FNR in k) { print $1 }' - "$1" > "$3"
}

# err TRUTH PRED: the error (%) of lapsvm-train -o predictions.
err() {
	awk 'NR == FNR { t[FNR] = $1; n = FNR; next }
		FNR > 1 { e += ($1 != t[FNR - 1]) }
		END { printf "%.4f\n", 100 * e / n }' "$1" "$2"
}

# single_errs TRUTH SINGLES: the error (%) of each column of a -O file.
single_errs() {
	awk 'NR == FNR { t[FNR] = $1; n = FNR; next }
		/^#/ { next }
		{ r++; for (q = 1; q <= NF; q++) e[q] += ($q != t[r]); Q = NF }
		END { for (q = 1; q <= Q; q++) printf "%s%.4f", (q > 1 ? " " : ""), 100 * e[q] / n; print "" }' "$1" "$2"
}

# weights MODEL: the learned weights, one line.
weights() {
	awk '$1 == "combined_graph" { printf "%s%s", (n++ ? " " : ""), $2 } END { print "" }' "$1"
}

# combine SEMI OUTDIR GRAPH...: lapsvm-train -s combine with the authors'
# settings (mu = l 1e-5, the argmax rule unless RULE says random), the
# transductive predictions in OUTDIR/pred, the model in OUTDIR/model, the
# single-kernel predictions in OUTDIR/singles.  The two classes are
# declared (-Y 1,-1): some l = 4 selections hold one class only.
combine() {
	local s=$1 o=$2 g args=""
	shift 2
	for g in "$@"; do args="$args -G $g"; done
	# shellcheck disable=SC2086
	"$BIN"/lapsvm-train -q -s combine -M "${RULE:-direct}" -S "${SEED:-1}" \
		-Y 1,-1 -i 0 $args -o "$o/pred" -O "$o/singles" "$s" "$o/model"
}
