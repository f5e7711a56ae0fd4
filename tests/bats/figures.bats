#!/usr/bin/env bats
# experiments/moons-figures.sh: JMLR 2006 Figures 2 and 3 on the two moons
# (one labeled point per class) drawn with gnuplot.  The script is run once
# into a temporary directory: six PNG files and a Markdown table of the
# accuracies on the unlabeled points.  Uses $LAPSVM_DATA/twomoons.libsvm when
# present, else lapsvm-datagen's moons (the script's own fallback).  The run
# takes about 2 seconds; without gnuplot it is skipped, saying so.

load helpers

SCRIPT="$BATS_TEST_DIRNAME/../../experiments/moons-figures.sh"

FIGS="fig3-svm fig3-tsvm fig3-lapsvm fig2-lapsvm-gi0 fig2-lapsvm-gi0.01 fig2-lapsvm-gi1"

setup() {
	need_tools "$GB" "$DG" "$TRAIN" "$PRED"
	enter_work
}

# is_png FILE: FILE starts with the PNG signature \x89 P N G.
is_png() {
	[ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e47" ]
}

# acc ROW_PREFIX: the accuracy (a number, no %) of the table row that starts
# with ROW_PREFIX, e.g. acc "| fig3 | LapSVM |".
acc() {
	printf '%s\n' "$output" | awk -v p="$1" -F'|' 'index($0, p) == 1 {
		v = $5; gsub(/[ %]/, "", v); print v; exit }'
}

@test "figures: six PNGs and the accuracy table, LapSVM following the moons" {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot not installed (apt-get install gnuplot-nox)"
	local data=()
	if [ -n "$DATA" ] && [ -f "$DATA/twomoons.libsvm" ]; then
		data=("$DATA/twomoons.libsvm")
	fi
	# DATA points nowhere, so without the file the script uses lapsvm-datagen.
	BIN="$BIN" DATA="$WORK/no-data" run --separate-stderr \
		"$SCRIPT" -o "$WORK/figs" "${data[@]}"
	assert_status 0
	assert_stderr_has "labeled rows"
	for f in $FIGS; do
		[ -s "figs/$f.png" ] || { echo "missing: figs/$f.png"; ls -la figs; return 1; }
		is_png "figs/$f.png" || { echo "not a PNG: figs/$f.png"; return 1; }
	done
	[ "$(find figs -name '*.png' | wc -l)" -eq 6 ]
	# The Markdown table: header, rule, one row per figure.
	[[ "${lines[0]}" == "| figure | method |"* ]]
	[ "${lines[1]}" = "|---|---|---|---|---|" ]
	[ "${#lines[@]}" -eq 8 ]
	local svm lap gi0 gi001 gi1
	svm=$(acc "| fig3 | SVM |")
	lap=$(acc "| fig3 | LapSVM |")
	gi0=$(acc "| fig2 | LapSVM, gamma_I = 0 |")
	gi001=$(acc "| fig2 | LapSVM, gamma_I = 0.01 |")
	gi1=$(acc "| fig2 | LapSVM, gamma_I = 1 |")
	[ -n "$(acc "| fig3 | TSVM |")" ] || { echo "no TSVM row: $output"; return 1; }
	for v in "$svm" "$lap" "$gi0" "$gi001" "$gi1"; do
		[[ "$v" =~ ^[0-9]+\.[0-9][0-9]$ ]] || { echo "bad accuracy '$v' in: $output"; return 1; }
	done
	# gamma_I = 0 is the SVM; a strong intrinsic weight follows the moons.
	[ "$gi0" = "$svm" ] || { echo "gamma_I = 0 ($gi0) differs from the SVM ($svm)"; return 1; }
	awk -v s="$svm" -v l="$lap" -v g="$gi1" 'BEGIN { exit !(l >= 95 && g >= 95 && l > s && g > s) }' ||
		{ echo "LapSVM does not beat the SVM: $output"; return 1; }
}

@test "figures: without gnuplot, says how to install it and exits 1" {
	# A PATH holding only what the script needs before its gnuplot check.
	mkdir bin
	ln -s "$(command -v dirname)" bin/dirname
	run --separate-stderr env PATH="$WORK/bin" BIN="$BIN" /bin/bash "$SCRIPT" -o "$WORK/figs"
	assert_status 1
	assert_stderr_has "gnuplot"
	assert_stderr_has "apt-get install gnuplot-nox"
	assert_stdout_empty
	[ ! -e figs ]
}

# ------------------------------------------ experiments/cluster-figures.sh
# JMLR Figures 9 and 10 (regularized spectral clustering), on a coarse grid
# and without the sweep; the out-of-sample test on 2000 fresh moons.

@test "cluster figures: six PNGs, the moons and spirals found at the smallest gamma_A, out of sample" {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot not installed (apt-get install gnuplot-nox)"
	local script="$BATS_TEST_DIRNAME/../../experiments/cluster-figures.sh" f
	run --separate-stderr env BIN="$LAPSVM_BIN" DATA="${LAPSVM_DATA:-$WORK/none}" \
		GRID=40 SWEEP=0 OOS_TEST="-S 7 -n 2000 moons" "$script" -o figs
	assert_status 0
	for f in fig9-moons-A1e-6 fig9-moons-A1e-4 fig9-moons-A0.1 \
		fig10-spirals-A1e-6 fig10-spirals-A1e-3 fig10-spirals-A0.1; do
		is_png "figs/$f.png"
		[[ "$output" == *"figs/$f.png |"* ]]
	done
	# agreement at the smallest gamma_A: at least 98% on both
	local m s o
	m=$(printf '%s\n' "$output" | awk -F'|' '$3 ~ /-A 1e-6/ && $2 ~ /fig9/ { v = $4; sub(/%.*/, "", v); print v + 0 }')
	s=$(printf '%s\n' "$output" | awk -F'|' '$3 ~ /-A 1e-6/ && $2 ~ /fig10/ { v = $4; sub(/%.*/, "", v); print v + 0 }')
	awk -v m="$m" -v s="$s" 'BEGIN { exit !(m >= 98 && s >= 98) }'
	# the spirals' boundary at gamma_A = 0.1 is much shorter (smoother)
	awk -F'|' '$2 ~ /fig10/ { len[++n] = $5 + 0 } END { exit !(len[3] < len[1] / 3) }' <<<"$output"
	# out of sample, smallest gamma_A: at least 97% of the fresh points
	o=$(printf '%s\n' "$output" | awk -F'|' '$2 ~ /^ 1e-6 $/ { v = $4; sub(/%.*/, "", v); print v + 0 }')
	awk -v o="$o" 'BEGIN { exit !(o >= 97) }'
	[[ "$output" != *"### Near the smallest"* ]]
}

# ------------------------------------- experiments/manifoldboost-figures.sh
# ManifoldBoost's Figures 1-3 on a coarse grid, one seed, fewer rounds for
# the RBF clustering of the rings.

@test "manifoldboost figures: eight PNGs; Figure 1 and 3 at least 98%, the moons clustered into 2 and the rings into 3 (trees, spectral start) at least 95%" {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot not installed (apt-get install gnuplot-nox)"
	local script="$BATS_TEST_DIRNAME/../../experiments/manifoldboost-figures.sh" f v
	run --separate-stderr env BIN="$LAPSVM_BIN" DATA="${LAPSVM_DATA:-$WORK/none}" \
		GRID=30 SEEDS=1 RINGS_RBF="-H rbf -g 30 -j 1 -B 100" "$script" -o figs
	assert_status 0
	for f in mb-fig1-tree mb-fig1-rbf mb-fig3-tree mb-fig3-rbf \
		mb-cluster-moons-tree mb-cluster-moons-rbf mb-cluster-rings-tree \
		mb-cluster-rings-rbf; do
		is_png "figs/$f.png"
	done
	# Figures 1 and 3: both learners, at least 98% of the unlabeled points
	v=$(printf '%s\n' "$output" | awk -F'|' '$2 ~ /Figure [13]/ { n++; if ($5 + 0 < 98) bad++ } END { print n + 0, bad + 0 }')
	[ "$v" = "4 0" ]
	# the moons into 2, trees and RBFs: at least 95% agreement
	v=$(printf '%s\n' "$output" | awk -F'|' '$2 ~ /moons/ { n++; if ($5 + 0 < 95) bad++ } END { print n + 0, bad + 0 }')
	[ "$v" = "2 0" ]
	[ "$(printf '%s\n' "$output" | grep -c '^| rings |')" = 2 ]
	# the rings into 3, trees from the spectral start (RINGS_START's
	# default): at least 95% agreement on seed 1
	v=$(printf '%s\n' "$output" | awk -F'|' '$2 ~ /rings/ && $3 ~ /tree/ { print ($5 + 0 >= 95), $4 }')
	[ "$v" = "1  \`-K 3:spectral -D 5 -j 0.5 -B 300\` " ]
}
