#!/bin/bash
# webkb-curve.sh -- JMLR 2006 Figure 8: WebKB (page view) PRBEP as the number
# of labeled pages grows from 2 to 64, on the unlabeled pages and on a
# held-out test set.  Each draw holds out a random quarter of the 1051 pages
# as the test set, labels L of the rest (the class ratio kept, at least one
# of each class) and leaves the others unlabeled.  Linear kernel and the
# settings of webkb.sh.
#
#   experiments/webkb-curve.sh [method ...]  (default: rls svm laprls lapsvm)
# Environment: DATA, BIN, DRAWS (10), SEED (1), SIZES ("2 4 8 16 32 64"),
# GRAPH_OPTS ("-k 15 -d cosine"), POWER (3), OUT (build/webkb-curve).
set -euo pipefail
DATA=${DATA:-../shared/data}
BIN=${BIN:-.}
DRAWS=${DRAWS:-10}
SEED=${SEED:-1}
SIZES=${SIZES:-2 4 8 16 32 64}
GRAPH_OPTS=${GRAPH_OPTS:--k 15 -d cosine}
POWER=${POWER:-3}
OUT=${OUT:-build/webkb-curve}
methods=${*:-rls svm laprls lapsvm}
data=$DATA/webkb_page.libsvm
[ -r "$data" ] || { echo "webkb-curve.sh: $data not found (set DATA to the directory holding the data sets; default ../shared/data)" >&2; exit 1; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$OUT/curve.txt"
for L in $SIZES; do
	for d in $(seq 1 "$DRAWS"); do
		# role of each row: t (test), l (labeled) or u (unlabeled)
		awk -v L="$L" -v seed="$((SEED * 1000 + L * 37 + d))" '
			function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
			{ lab[NR] = $1; n = NR }
			END {
				x = seed % 2147483647; if (x == 0) x = 1
				for (i = 1; i <= n; i++) perm[i] = i
				for (i = n; i > 1; i--) { j = 1 + rnd(i); t = perm[i]; perm[i] = perm[j]; perm[j] = t }
				nt = int(n / 4)
				for (i = 1; i <= n; i++) role[perm[i]] = (i <= nt) ? "t" : "u"
				for (i = nt + 1; i <= n; i++) if (lab[perm[i]] > 0) np++
				want_p = int(L * np / (n - nt) + 0.5); if (want_p < 1) want_p = 1
				if (want_p > L - 1) want_p = L - 1
				gp = 0; gn = 0
				for (i = nt + 1; i <= n; i++) {
					r = perm[i]
					if (lab[r] > 0 && gp < want_p) { role[r] = "l"; gp++ }
					else if (lab[r] < 0 && gn < L - want_p) { role[r] = "l"; gn++ }
				}
				for (i = 1; i <= n; i++) print role[i]
			}' "$data" > "$tmp/role"
		paste -d' ' "$tmp/role" "$data" | awk -v semi="$tmp/semi" -v unl="$tmp/unl" -v test="$tmp/test" '
			{ r = $1; $1 = ""; line = substr($0, 2)
			  if (r == "t") { print line > test; next }
			  if (r == "u") { print line > unl; sub(/^[^ ]+/, "0", line) }
			  print line > semi }'
		# shellcheck disable=SC2086
		"$BIN"/graph-build -q $GRAPH_OPTS "$tmp/semi" "$tmp/graph"
		for s in $methods; do
			case $s in
			rls) opts="-s laprls -a 0.01 -i 0" ;;
			svm) opts="-s lapsvm -a 1 -i 0" ;;
			tsvm) opts="-s tsvm -a 1" ;;
			laprls) opts="-s laprls -a 0.01 -i 1 -G $tmp/graph -P $POWER" ;;
			lapsvm) opts="-s lapsvm -a 1 -i 100 -G $tmp/graph -P $POWER" ;;
			*) echo "webkb-curve.sh: unknown method $s" >&2; exit 2 ;;
			esac
			# shellcheck disable=SC2086
			"$BIN"/lapsvm-train -q -t 0 $opts "$tmp/semi" "$tmp/model"
			line="$L $s $d"
			for set in unl test; do
				line="$line $("$BIN"/lapsvm-predict "$tmp/$set" "$tmp/model" "$tmp/pred" |
					awk '/^PRBEP/ { gsub(/%/, ""); print $3 }')"
			done
			echo "$line" >> "$OUT/curve.txt"
		done
		rm -f "$tmp/semi" "$tmp/unl" "$tmp/test"
	done
done
printf 'WebKB page view, mean PRBEP over %s draws: unlabeled / test\n' "$DRAWS"
printf '| labeled |'; for s in $methods; do printf ' %s |' "$s"; done; printf '\n|---|'
for s in $methods; do printf -- '---|'; done; printf '\n'
for L in $SIZES; do
	printf '| %d |' "$L"
	for s in $methods; do
		awk -v s="$s" -v L="$L" '$1 == L && $2 == s { u += $4; t += $5; n++ }
			END { printf " %.2f / %.2f |", u / n, t / n }' "$OUT/curve.txt"
	done
	printf '\n'
done
if command -v gnuplot > /dev/null; then
	for col in 4 5; do
		name=$([ "$col" = 4 ] && echo unlabeled || echo test)
		plots=""
		for s in $methods; do
			awk -v s="$s" -v c="$col" '$2 == s { v[$1] += $c; n[$1]++ }
				END { for (L in v) print L, v[L] / n[L] }' "$OUT/curve.txt" | sort -n > "$OUT/$s.$name.dat"
			plots="$plots${plots:+, }\"$OUT/$s.$name.dat\" using 1:2 with linespoints title \"$s\""
		done
		gnuplot <<-GP
		set terminal pngcairo size 640,440
		set output "$OUT/fig8-$name.png"
		set title "WebKB (page view): mean PRBEP on the $name set"
		set logscale x 2; set xlabel "labeled pages"; set ylabel "PRBEP (%)"; set key bottom right
		plot $plots
		GP
	done
	echo "Figure 8: $OUT/fig8-unlabeled.png $OUT/fig8-test.png"
fi
