#!/bin/bash
# experiments/easy.sh -- tools/lapsvm-easy on data the project never tuned
# for, with and without its scaling step: the error on the unlabeled rows.
#
#   experiments/easy.sh [set ...]
#
# Sets (default all): wine, cancer, digits (scikit-learn's bundled copies,
# read by $PY, default /usr/bin/python3 with Debian's python3-sklearn;
# labels 1..c), ionosphere, pima, sonar ($DATA/uci_*.libsvm) and uspst (the
# USPS test set, $DATA/usps.test.libsvm.gz).  Each of DRAWS draws (default
# 5) labels PER_CLASS rows of every class (default 10; the MINSTD
# generator, the same in every awk, seeded by the draw and the set) and
# marks the others unlabeled (99); the test file is those others with
# their labels.  lapsvm-easy then runs as a user would (scaling on) and
# with -n (the features as they are), everything else at its defaults.
# Work files go to $OUT (default build/easy); the tools from $BIN (default
# the source tree's top).  Prints a line per set: the error on the
# unlabeled rows, mean ± std over the draws, and the draws where the
# scaling gave the lower error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/..}
DATA=${DATA:-$here/../../shared/data}
OUT=${OUT:-build/easy}
DRAWS=${DRAWS:-5}
PER_CLASS=${PER_CLASS:-10}
PY=${PY:-/usr/bin/python3}
EASY=$here/../tools/lapsvm-easy
export LAPSVM_BIN=$BIN

# fetch SET FILE: the set's rows in LIBSVM format, labels never 99
fetch() {
	case $1 in
	wine | cancer | digits)
		"$PY" - "$1" "$2" <<'PYEOF'
import sys
from sklearn import datasets
load = {'wine': datasets.load_wine, 'cancer': datasets.load_breast_cancer,
        'digits': datasets.load_digits}[sys.argv[1]]
d = load()
with open(sys.argv[2], 'w') as out:
    for x, y in zip(d.data, d.target):
        feats = ' '.join('%d:%.17g' % (j + 1, v) for j, v in enumerate(x) if v != 0)
        out.write('%d %s\n' % (int(y) + 1, feats))
PYEOF
		;;
	ionosphere | pima | sonar) cp "$DATA/uci_$1.libsvm" "$2" ;;
	uspst) gzip -dc "$DATA/usps.test.libsvm.gz" >"$2" ;;
	*) echo "easy.sh: unknown set '$1'" >&2; exit 2 ;;
	esac
}

# draw FILE SEED K DIR: DIR/train.txt (K rows of each class keep their
# label, the others 99) and DIR/test.txt (those others, labeled)
draw() {
	awk -v seed="$2" -v k="$3" -v dir="$4" '
	function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
	{ row[NR] = $0; c = $1 + 0; if (!(c in n)) order[++nc] = c; at[c, n[c]++] = NR }
	END {
		x = seed % 2147483647; if (x == 0) x = 1
		for (a = 1; a <= nc; a++) { c = order[a]
			for (i = 0; i < k && i < n[c]; i++) {
				j = i + rnd(n[c] - i); t = at[c, i]; at[c, i] = at[c, j]; at[c, j] = t
				keep[at[c, i]] = 1 } }
		for (r = 1; r <= NR; r++)
			if (r in keep) print row[r] > (dir "/train.txt")
			else { print row[r] > (dir "/test.txt"); s = row[r]
			       sub(/^[^ ]+/, "99", s); print s > (dir "/train.txt") }
	}' "$1"
}

sets=${*:-wine cancer digits ionosphere pima sonar uspst}
mkdir -p "$OUT"
printf '%-11s %5s %4s %3s %4s  %-15s %-15s %s\n' set rows dim c l "error scaled" "error -n" "scaled lower"
si=0
for s in $sets; do
	si=$((si + 1))
	fetch "$s" "$OUT/$s.txt"
	if awk '$1 + 0 == 99 { f = 1 } END { exit !f }' "$OUT/$s.txt"; then
		echo "easy.sh: $s has a class 99, the unlabeled marker here" >&2
		exit 1
	fi
	for d in $(seq "$DRAWS"); do
		w=$OUT/$s.$d
		rm -rf "$w" && mkdir -p "$w"
		draw "$OUT/$s.txt" $((d * 1000 + si)) "$PER_CLASS" "$w"
		for mode in scaled raw; do
			opt=
			[ $mode = raw ] && opt=-n
			(cd "$w" && "$EASY" $opt -u 99 train.txt test.txt >out.$mode 2>err.$mode) ||
				{ echo "easy.sh: $s draw $d ($mode) failed:" >&2; cat "$w/err.$mode" >&2; exit 1; }
			echo "$d $mode $(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$w/out.$mode")"
		done
	done >"$OUT/$s.results"
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk '{ sub(/#.*/, "") } NF { n++; c[$1] = 1; for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[1] + 0 > d) d = a[1] + 0 } }
		END { for (k in c) m++; print n, d, m }' "$OUT/$s.txt")
	awk -v set="$s" -v rows="$1" -v dim="$2" -v c="$3" -v l=$(($3 * PER_CLASS)) '
	{ e = 100 - $3; if ($2 == "scaled") { S += e; SS += e * e; ns++; es[$1] = e } else { R += e; RR += e * e; nr++; er[$1] = e } }
	END {
		ms = S / ns; mr = R / nr
		sds = ns > 1 ? sqrt((SS - ns * ms * ms) / (ns - 1)) : 0
		sdr = nr > 1 ? sqrt((RR - nr * mr * mr) / (nr - 1)) : 0
		for (d in es) if (es[d] < er[d]) w++
		printf "%-11s %5d %4d %3d %4d  %6.2f ± %-6.2f %6.2f ± %-6.2f %d of %d\n", set, rows, dim, c, l, ms, sds, mr, sdr, w, ns
	}' "$OUT/$s.results"
done
