#!/bin/bash
# combine.sh -- the speed targets of issue 16 (combining graph Laplacians,
# tangent distance), each the median wall time of REPEAT runs:
#   1. graph-build -d tangent -D 16x16 -k 10 on the 2007-image USPS test
#      set (target: at most 10 s), beside the Euclidean graph of the same
#      rows and the rotation-invariant one;
#   2. one trial of the 30-kernel combination at n = 800: odd vs even on
#      the first 80 training images of each digit (argyriou-lib.sh), the
#      kNN graphs k = 1..10 (binary) of the Euclidean, tangent and
#      rotation-invariant distances, the authors' first selection of 20
#      labels; lapsvm-train -s combine (target: at most 2 s), with the
#      default model for new points (LapRLS on sum lambda_q L_q, an
#      800 x 800 LU) and with -i 0 (RLS: what the experiments run);
#   3. the two kernel paths at n = 4000 (the first 400 training images of
#      each digit, one 10-NN graph, 20 labels): exact pseudo-inverse
#      columns (one Cholesky) against 200 eigenpairs (dsyevr), the
#      threshold past which lapsvm-train takes the second.
# Prints a Markdown table.  BLAS: whatever LD_LIBRARY_PATH gives; the
# issue's targets are for OpenBLAS:
#   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread bench/combine.sh
# Environment: DATA (../shared/data), BIN (.), REPEAT (3), PARTS ("1 2 3").
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
REPEAT=${REPEAT:-3}
PARTS=${PARTS:-1 2 3}
here=$(cd "$(dirname "$0")" && pwd)
for f in usps.test.libsvm.gz usps.train.libsvm.gz argyriou.oddeven.l20.txt usps.train.first400perdigit.txt; do
	[ -r "$DATA/$f" ] || { echo "combine.sh: $DATA/$f not found (set DATA)" >&2; exit 1; }
done
BIN=$(cd "$BIN" && pwd)
DATA=$(cd "$DATA" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=experiments/argyriou-lib.sh
. "$here/../experiments/argyriou-lib.sh"
note=""
blas=$(case "${LD_LIBRARY_PATH:-}" in *openblas*) echo OpenBLAS ;; *) echo "reference (system default)" ;; esac)

# median of REPEAT wall times (s) of a command
timed() {
	local r
	for r in $(seq 1 "$REPEAT"); do
		/usr/bin/time -f %e -o "$WORK/time.$r" "$@" > /dev/null 2> "$WORK/err.$r" ||
			{ cat "$WORK/err.$r" >&2; return 1; }
		cat "$WORK/time.$r"
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

echo "BLAS: $blas; $(nproc) cores; median of $REPEAT runs"
echo
echo "| what | command | wall (s) | target |"
echo "|---|---|---|---|"
for part in $PARTS; do
	case $part in
	1)
		zcat "$DATA/usps.test.libsvm.gz" > "$WORK/test"
		t=$(timed "$BIN"/graph-build -q -k 10 "$WORK/test" "$WORK/e.graph")
		echo "| Euclidean 10-NN graph, USPS test (2007 x 256) | \`graph-build -k 10\` | $t | |"
		t=$(timed "$BIN"/graph-build -q -d tangent -D 16x16 -k 10 "$WORK/test" "$WORK/t.graph")
		echo "| tangent-distance 10-NN graph, USPS test | \`graph-build -d tangent -D 16x16 -k 10\` (C = 20) | $t | 10 |"
		t=$(timed "$BIN"/graph-build -q -d rotation -D 16x16 -k 10 "$WORK/test" "$WORK/r.graph")
		echo "| rotation-invariant 10-NN graph, USPS test | \`graph-build -d rotation -D 16x16 -k 10\` (40 rotations) | $t | |"
		;;
	2)
		train_rows
		oddeven_subset 80 "$WORK/oe"
		graphs "$WORK/oe" "$WORK" e euclidean 10
		graphs "$WORK/oe" "$WORK" t tangent 10
		graphs "$WORK/oe" "$WORK" r rotation 10
		semi "$WORK/oe" "$(head -1 "$DATA/argyriou.oddeven.l20.txt")" "$WORK/semi"
		G=$(for s in e t r; do for k in $(seq 1 10); do printf -- '-G %s ' "$WORK/$s$k"; done; done)
		# shellcheck disable=SC2086
		t=$(timed "$BIN"/lapsvm-train -q -s combine $G -o "$WORK/p" "$WORK/semi" "$WORK/m")
		echo "| one trial, 30 kernels, n = 800, l = 20 (model: LapRLS on sum lambda_q L_q) | \`lapsvm-train -s combine\` 30 x \`-G\` | $t | 2 |"
		# shellcheck disable=SC2086
		t=$(timed "$BIN"/lapsvm-train -q -s combine -i 0 $G -o "$WORK/p" "$WORK/semi" "$WORK/m")
		echo "| the same, model RLS (\`-i 0\`, as the experiments) | \`lapsvm-train -s combine -i 0\` | $t | 2 |"
		# shellcheck disable=SC2086
		"$BIN"/lapsvm-train -s combine -i 0 $G -o "$WORK/p" "$WORK/semi" "$WORK/m" 2> "$WORK/log" > /dev/null
		note="that trial: $(grep -o 'combination of 30 graphs.*' "$WORK/log")"
		;;
	3)
		train_rows
		awk 'NR == FNR { for (i = 1; i <= NF; i++) keep[$i] = 1; next } (FNR in keep)' \
			"$DATA/usps.train.first400perdigit.txt" "$WORK/usps.train" > "$WORK/big"
		"$BIN"/graph-build -q -k 10 -w binary "$WORK/big" "$WORK/big.graph"
		awk '{ if ((NR - 1) % 200 != 0) $1 = 0; else $1 = ($1 % 2 == 1) ? 1 : -1; print }' "$WORK/big" > "$WORK/big.semi"
		t=$(timed "$BIN"/lapsvm-train -q -s combine -Y 1,-1 -i 0 -G "$WORK/big.graph" -o "$WORK/p" "$WORK/big.semi" "$WORK/m")
		echo "| n = 4000, one graph, exact pseudo-inverse columns (Cholesky of L + VV') | \`lapsvm-train -s combine -i 0\` | $t | |"
		t=$(timed "$BIN"/lapsvm-train -q -s combine -Y 1,-1 -i 0 -N 200 -G "$WORK/big.graph" -o "$WORK/p" "$WORK/big.semi" "$WORK/m")
		echo "| n = 4000, one graph, 200 smallest nonzero eigenpairs (dsyevr) | \`lapsvm-train -s combine -i 0 -N 200\` | $t | |"
		;;
	esac
done
[ -z "${note:-}" ] || printf '\n(%s)\n' "$note"
