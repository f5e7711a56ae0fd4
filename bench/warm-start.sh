#!/bin/bash
# warm-start.sh -- lapsvm-train -f on a grown problem: yesterday's model
# (trained on the old rows) starts today's training on the old rows plus the
# new ones appended; iterations cold and warm, and whether the two models
# agree (labels of every row, largest decision value difference relative to
# 1 + |f|).  One Markdown table row per case.  Not part of make test.
#
#   bench/warm-start.sh [case ...]
# Cases (default: all):
#   3v8       USPS digits 3 (+1) and 8 (-1): the 1200 training rows old, the
#             332 test rows new (+28%); every 4th row labeled (so that the
#             squared hinge has inactive rows and Newton several steps);
#             lapsvm pcg, pcg-early, newton (LU), laprls pcg
#   3v8-1pct  the same rows, old = all but the last 1% (15 rows)
#   usps      all of USPS, digit 3 (+1) vs the rest (-1): the 7291 training
#             rows old, the 2007 test rows new (+28%), every 20th row
#             labeled; lapsvm pcg and pcg-early (an n = 9298 LU per Newton
#             step is past this machine's minutes)
#   usps-1pct the same, old = all but the last 1% (93 rows)
#   nystrom-3v8-1pct   3v8-1pct by Newton on Nystrom features, -N 500:
#             lapsvm and laprls
#   nystrom-usps-1pct  usps-1pct by Newton on Nystrom features, -N 1000:
#             lapsvm and laprls
#   secstr-1pct  SecStr (83679 rows, one-hot, 315 features), class 1 (+1)
#             vs 0 (-1), every 80th row labeled (1046), old = all but the
#             last 1% (837 rows); the linear map (-t 0 -M newton, CG in
#             each Newton step): lapsvm and laprls
#   nystrom-fashion-1pct  Fashion-MNIST 70k (training then test set, the
#             IDX files in $FASHION), classes 0-4 (+1) vs 5-9 (-1), every
#             100th row labeled (700), old = all but the last 1% (700
#             rows); Newton on Nystrom features, -N 1000, -g 1.1e-7 (about
#             1 / the mean squared distance: pixels 0-255): lapsvm, laprls
# A Nystrom warm start keeps the model's landmarks; a cold start on the
# grown rows would sample others and so solve another problem.  The cold
# run of a Nystrom case is therefore the cold start on the same landmarks:
# -f with a copy of the old model whose coefficients and bias are zeroed (a
# start of all zeros is run as the cold start).  Newton steps are counted;
# the linear map's also its CG iterations ("steps (CG iterations)").
# Settings: RBF gamma 0.01 (USPS features in [-1, 1]: about 1 / the mean
# squared distance / 4; Fashion's its own), -a 0.005 -i 0.045 (the defaults: the minimizer does
# not move with l), graphs by graph-build -k 6 (heat weights, default t)
# over each row set, the new one by graph-build -U (byte-identical to a
# full build).  Environment: DATA (../shared/data), BLAS (openblas or
# reference), USPS_METHODS (the usps cases' lapsvm methods, default
# "pcg pcg-early": one alone when the other's minutes are not needed),
# LOGS (a directory: lapsvm-train's reports kept there as
# CASE.SOLVER.METHOD.cold.err and .warm.err, e.g. for the warm start's
# residual), FASHION (/usr/share/datasets/fashion-mnist).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
BLAS=${BLAS:-openblas}
USPS_METHODS=${USPS_METHODS:-pcg pcg-early}
FASHION=${FASHION:-/usr/share/datasets/fashion-mnist}
cases=${*:-3v8 3v8-1pct usps usps-1pct nystrom-3v8-1pct nystrom-usps-1pct secstr-1pct nystrom-fashion-1pct}
LIB=/usr/lib/x86_64-linux-gnu
if [ "$BLAS" = openblas ]; then
	export LD_LIBRARY_PATH=$LIB/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
make -s all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rows FILE KEEP EVERY: digits KEEP ("3 8" or "all"), digit 3 -> +1, else -1,
# every EVERY-th kept row labeled, the others 0 (unlabeled)
rows() {
	zcat "$1" | awk -v keep="$2" -v every="$3" '
		BEGIN { all = keep == "all"; n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		all || ($1 in want) { c++; $1 = (c % every == 1) ? ($1 == 3 ? 1 : -1) : 0; print }'
}

# iters STDERR_FILE: "PCG: N" / "Newton: N" count
iters() {
	sed -n 's/^lapsvm-train: \(PCG\|Newton\): \([0-9]*\) .*/\2/p' "$1"
}

# cgiters STDERR_FILE: the feature map's CG iterations, or nothing
cgiters() {
	sed -n 's/^lapsvm-train: conjugate gradient: \([0-9]*\) .*/\1/p' "$1"
}

# zeroed MODEL OUT: MODEL with every coefficient and the bias 0
zeroed() {
	awk '/^SV$/ { sv = 1; print; next }
	     sv { for (i = 1; i <= nf; i++) $i = 0; print; next }
	     $1 == "bias" { $0 = "bias"; for (i = 0; i < nf; i++) $0 = $0 " 0" }
	     $1 == "nr_fn" { nf = $2 } { print }' "$1" >"$2"
}

# compare A B: "label disagreements / rows, max |fa - fb| / (1 + |fb|)"
compare() {
	paste -d' ' "$1" "$2" | awk 'NR > 1 { n++; if ($1 != $3) bad++
		d = $2 - $4; if (d < 0) d = -d; m = $4 < 0 ? -$4 : $4
		r = d / (1 + m); if (r > mx) mx = r }
		END { printf "%d/%d | %.1e", bad, n, mx }'
}

# run_case NAME OLD NEW SOLVER METHOD...: old.model, the cold and the warm
# training on old + new, one table row each method
run_case() {
	local name=$1 old=$2 new=$3 solver=$4
	shift 4
	cat "$old" "$new" > "$tmp/all"
	./graph-build -q "$old" "$tmp/old.graph"
	./graph-build -q -U "$tmp/old.graph" "$old" "$new" "$tmp/all.graph"
	local no nn
	no=$(wc -l < "$old")
	nn=$(wc -l < "$tmp/all")
	for m in "$@"; do
		# a method may carry options: "newton -N 500", "newton -t 0"
		local opts="-s $solver -M $m -g ${GAMMA:-0.01}" cold_start=
		# shellcheck disable=SC2086  # the options, split
		./lapsvm-train -q $opts -G "$tmp/old.graph" "$old" "$tmp/old.model"
		case " $m " in
		*" -N "*)
			zeroed "$tmp/old.model" "$tmp/zero.model"
			cold_start="-f $tmp/zero.model"
			;;
		esac
		local t0 t1 t2
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086  # the options, split
		./lapsvm-train $opts $cold_start -G "$tmp/all.graph" "$tmp/all" "$tmp/cold.model" 2> "$tmp/cold.err"
		t1=$(date +%s.%N)
		# shellcheck disable=SC2086  # the options, split
		./lapsvm-train $opts -G "$tmp/all.graph" -f "$tmp/old.model" "$tmp/all" "$tmp/warm.model" 2> "$tmp/warm.err"
		t2=$(date +%s.%N)
		./lapsvm-predict -d "$tmp/all" "$tmp/cold.model" "$tmp/cold.out" > /dev/null
		./lapsvm-predict -d "$tmp/all" "$tmp/warm.model" "$tmp/warm.out" > /dev/null
		local ic iw cc cw ratio
		if [ -n "${LOGS:-}" ]; then
			mkdir -p "$LOGS"
			cp "$tmp/cold.err" "$LOGS/$name.$solver.${m// /}.cold.err"
			cp "$tmp/warm.err" "$LOGS/$name.$solver.${m// /}.warm.err"
		fi
		ic=$(iters "$tmp/cold.err")
		iw=$(iters "$tmp/warm.err")
		cc=$(cgiters "$tmp/cold.err")
		cw=$(cgiters "$tmp/warm.err")
		ratio=$(awk -v a="$ic" -v b="$iw" 'BEGIN { printf "%.2fx", (b > 0) ? a / b : 0 }')
		if [ -n "$cc" ]; then
			ratio="$ratio (CG $(awk -v a="$cc" -v b="$cw" 'BEGIN { printf "%.2fx", (b > 0) ? a / b : 0 }'))"
			ic="$ic ($cc)"
			iw="$iw ($cw)"
		fi
		printf '| %s | %d -> %d | %s %s | %s | %s | %s | %.1f / %.1f s | %s |\n' \
			"$name" "$no" "$nn" "$solver" "$m" "$ic" "$iw" "$ratio" \
			"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" \
			"$(compare "$tmp/warm.out" "$tmp/cold.out")"
	done
}

echo "BLAS: $BLAS"
echo "| case | rows old -> new | method | cold iterations | warm iterations | ratio | wall cold / warm | labels differing | max decision difference |"
echo "|---|---|---|---|---|---|---|---|---|"
for c in $cases; do
	case $c in
	3v8 | 3v8-1pct)
		rows "$DATA/usps.train.libsvm.gz" "3 8" 4 > "$tmp/tr"
		rows "$DATA/usps.test.libsvm.gz" "3 8" 4 > "$tmp/te"
		if [ "$c" = 3v8 ]; then
			cp "$tmp/tr" "$tmp/o"; cp "$tmp/te" "$tmp/n"
		else
			cat "$tmp/tr" "$tmp/te" > "$tmp/a"
			head -n 1517 "$tmp/a" > "$tmp/o"; tail -n +1518 "$tmp/a" > "$tmp/n"
		fi
		run_case "$c" "$tmp/o" "$tmp/n" lapsvm pcg pcg-early newton
		run_case "$c" "$tmp/o" "$tmp/n" laprls pcg
		;;
	usps | usps-1pct)
		rows "$DATA/usps.train.libsvm.gz" all 20 > "$tmp/tr"
		rows "$DATA/usps.test.libsvm.gz" all 20 > "$tmp/te"
		if [ "$c" = usps ]; then
			cp "$tmp/tr" "$tmp/o"; cp "$tmp/te" "$tmp/n"
		else
			cat "$tmp/tr" "$tmp/te" > "$tmp/a"
			head -n 9205 "$tmp/a" > "$tmp/o"; tail -n +9206 "$tmp/a" > "$tmp/n"
		fi
		# shellcheck disable=SC2086  # a list of methods
		run_case "$c" "$tmp/o" "$tmp/n" lapsvm $USPS_METHODS
		;;
	nystrom-3v8-1pct)
		rows "$DATA/usps.train.libsvm.gz" "3 8" 4 > "$tmp/tr"
		rows "$DATA/usps.test.libsvm.gz" "3 8" 4 > "$tmp/te"
		cat "$tmp/tr" "$tmp/te" > "$tmp/a"
		head -n 1517 "$tmp/a" > "$tmp/o"; tail -n +1518 "$tmp/a" > "$tmp/n"
		run_case "$c" "$tmp/o" "$tmp/n" lapsvm "newton -N 500"
		run_case "$c" "$tmp/o" "$tmp/n" laprls "newton -N 500"
		;;
	nystrom-usps-1pct)
		rows "$DATA/usps.train.libsvm.gz" all 20 > "$tmp/tr"
		rows "$DATA/usps.test.libsvm.gz" all 20 > "$tmp/te"
		cat "$tmp/tr" "$tmp/te" > "$tmp/a"
		head -n 9205 "$tmp/a" > "$tmp/o"; tail -n +9206 "$tmp/a" > "$tmp/n"
		run_case "$c" "$tmp/o" "$tmp/n" lapsvm "newton -N 1000"
		run_case "$c" "$tmp/o" "$tmp/n" laprls "newton -N 1000"
		;;
	secstr-1pct)
		zcat "$DATA/ssl_secstr.libsvm.gz" |
			awk '{ $1 = (NR % 80 == 1) ? ($1 == 1 ? 1 : -1) : 0; print }' > "$tmp/a"
		head -n 82842 "$tmp/a" > "$tmp/o"; tail -n +82843 "$tmp/a" > "$tmp/n"
		run_case "$c" "$tmp/o" "$tmp/n" lapsvm "newton -t 0"
		run_case "$c" "$tmp/o" "$tmp/n" laprls "newton -t 0"
		;;
	nystrom-fashion-1pct)
		[ -d "$FASHION" ] || { echo "warm-start.sh: $FASHION not found (dataset-fashion-mnist)" >&2; exit 1; }
		{
			datasets/convert-mnist-idx "$FASHION/train-images-idx3-ubyte.gz" "$FASHION/train-labels-idx1-ubyte.gz"
			datasets/convert-mnist-idx "$FASHION/t10k-images-idx3-ubyte.gz" "$FASHION/t10k-labels-idx1-ubyte.gz"
		} | awk '{ $1 = (NR % 100 == 1) ? ($1 < 5 ? 1 : -1) : 0; print }' > "$tmp/a"
		head -n 69300 "$tmp/a" > "$tmp/o"; tail -n +69301 "$tmp/a" > "$tmp/n"
		GAMMA=1.1e-7 run_case "$c" "$tmp/o" "$tmp/n" lapsvm "newton -N 1000"
		GAMMA=1.1e-7 run_case "$c" "$tmp/o" "$tmp/n" laprls "newton -N 1000"
		;;
	*)
		echo "warm-start.sh: unknown case '$c'" >&2
		exit 2
		;;
	esac
done
