#!/usr/bin/env bats
# The experiment scripts (experiments/*.sh) on small settings: they run
# through the tools end to end and print their tables.  The full runs and
# their numbers are in experiments/README.md; these only keep the scripts working.

load helpers

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export BIN="${LAPSVM_BIN:-$TOP}" DATA="${LAPSVM_DATA:-}"
	WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
	cd "$WORK"
}

need() {
	[ -n "$DATA" ] && [ -r "$DATA/$1" ] || skip "real data set $1 not found (LAPSVM_DATA)"
}

# fake_secstr DIR: a small set in SecStr's format in DIR: 400 one-hot rows
# (15 residues of 21 codes) labelled 0/1 by their first residue, and one
# split of l = 100 (rows 1, 5, 9, ...)
fake_secstr() {
	mkdir "$1"
	awk 'BEGIN { x = 7
		for (i = 0; i < 400; i++) {
			line = ""
			for (g = 0; g < 15; g++) {
				x = (x * 16807) % 2147483647
				c = x % 21
				if (g == 0) lab = c < 10 ? 0 : 1
				line = line " " (g * 21 + c + 1) ":1"
			}
			print lab line
		} }' | gzip >"$1/ssl_secstr.libsvm.gz"
	seq 1 4 400 | tr '\n' ' ' | sed 's/ $//' >"$1/ssl_secstr.splits.l100.txt"
	echo >>"$1/ssl_secstr.splits.l100.txt"
}

# chosen_m_is_lowest LOG LINE: for ManifoldBoost and logistic boosting on
# split 1 of l = 100, the M the script chose (its table line) has the
# lowest score of the grid in the LOG line that starts with "  LINE: "
# (M:score pairs)
chosen_m_is_lowest() {
	local b m scores
	for b in manifoldboost logistic; do
		m=$(sed -n "s/^l=100 split 1 $b: .*(M = \([0-9]*\);.*/\1/p" "$1")
		scores=$(grep -A2 "^l=100 split 1 $b: " "$1" | sed -n "s/^  $2: //p")
		echo "$b: M = $m; $scores"
		echo "$scores" | tr ' ' '\n' | awk -F: -v m="$m" '{ v[$1] = $2; if (!(n++) || $2 < lo) lo = $2 }
			END { exit !((m in v) && v[m] == lo) }' || return 1
	done
}

@test "experiments/moons.sh: Laplacian methods beat SVM and RLS on two moons" {
	need twomoons.libsvm
	run env DRAWS=3 "$TOP/experiments/moons.sh"
	[ "$status" -eq 0 ]
	lap=$(echo "$output" | awk -F'|' '$2 ~ /laprls/ { print $3 + 0 }')
	rls=$(echo "$output" | awk -F'|' '$2 ~ / rls/ { print $3 + 0 }')
	awk -v a="$lap" -v b="$rls" 'BEGIN { exit !(a > b + 10) }'
}

@test "experiments/moons.sh: a data file that cannot be read, a bad DRAWS or SEED, one class: clear errors, no table" {
	run --separate-stderr env DRAWS=abc "$TOP/experiments/moons.sh"
	[ "$status" -eq 2 ] && [[ "$stderr" == *"moons.sh: DRAWS=abc: expected a number of draws >= 1"* ]]
	run --separate-stderr env SEED=x "$TOP/experiments/moons.sh"
	[ "$status" -eq 2 ] && [[ "$stderr" == *"moons.sh: SEED=x: expected an integer >= 0"* ]]
	run --separate-stderr "$TOP/experiments/moons.sh" "$WORK/typo.libsvm"
	[ "$status" -eq 1 ] && [[ "$stderr" == *"moons.sh: $WORK/typo.libsvm: cannot read"* ]]
	printf '1 1:0 2:0\n1 1:1 2:1\n' >"$WORK/one.txt"
	run --separate-stderr env DRAWS=1 "$TOP/experiments/moons.sh" "$WORK/one.txt"
	[ "$status" -eq 1 ] && [[ "$stderr" == *"the data need rows of both classes"* ]]
	[[ "$output" != *"| rls |"* ]]
}

@test "experiments/manifoldboost.sh: Tree- and RBF-ManifoldBoost reach 98% on two moons, logistic boosting does not" {
	need twomoons.libsvm
	run env DRAWS=2 "$TOP/experiments/manifoldboost.sh"
	[ "$status" -eq 0 ]
	mb=$(echo "$output" | awk -F'|' '$2 == " manifoldboost " { print $4 + 0 }')
	rb=$(echo "$output" | awk -F'|' '$2 == " manifoldboost-rbf " { print $4 + 0 }')
	lb=$(echo "$output" | awk -F'|' '$2 ~ /logistic/ { print $3 + 0 }')
	awk -v a="$mb" -v r="$rb" -v b="$lb" 'BEGIN { exit !(a >= 98 && r >= 98 && a > b + 10) }'
}

@test "experiments/uspst.sh rls: RLS reproduces Table 3's 23.6% within 1 point" {
	need lds_uspst.libsvm.gz
	run "$TOP/experiments/uspst.sh" rls
	[ "$status" -eq 0 ]
	err=$(echo "$output" | awk -F'|' '$2 ~ /rls/ { print $3 + 0 }')
	awk -v e="$err" 'BEGIN { exit !(e > 22.6 && e < 24.6) }'
}

@test "experiments/webkb.sh: two draws of RLS and LapRLS print PRBEP rows" {
	need webkb_page.libsvm
	run env DRAWS=2 "$TOP/experiments/webkb.sh" rls laprls
	[ "$status" -eq 0 ]
	[[ "$output" == *"| rls | "* ]]
	[[ "$output" == *"| laprls | "* ]]
}

@test "experiments/usps-pairs.sh: one pair, one draw, LapRLS beats RLS" {
	need usps.train.libsvm.gz
	run env PAIRS="3 8" DRAWS=1 OUT="$WORK/up" "$TOP/experiments/usps-pairs.sh" rls laprls
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 pairs, 1 draws"* ]]
	[ -s "$WORK/up/pairs.txt" ]
	[[ "$output" == *"laprls beats rls on 1 of 1 pairs (unlabeled)"* ]]
}

@test "experiments/usps-pairs.sh: a training that fails stops the run (exit 1, no table of 0% errors); an unknown method exits 2 at once" {
	need usps.train.libsvm.gz
	run --separate-stderr env PAIRS="3 8" DRAWS=1 OUT="$WORK/up" KERNEL="-t 9" "$TOP/experiments/usps-pairs.sh" rls laprls
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"usps-pairs.sh: a pair failed (its message above): no table"* ]]
	[[ "$output" != *"| rls |"* ]]
	run --separate-stderr env PAIRS="3 8" DRAWS=1 OUT="$WORK/up" "$TOP/experiments/usps-pairs.sh" rls bogus
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"usps-pairs.sh: unknown method 'bogus'"* ]]
}

@test "experiments/isolet.sh: one speaker, binary task, RLS" {
	need isolet1.libsvm.gz
	run env RUNS=1 TASKS=binary OUT="$WORK/iso" "$TOP/experiments/isolet.sh" rls
	[ "$status" -eq 0 ]
	[[ "$output" == *"Isolet, binary: 1 runs"* ]]
	[[ "$output" == *"| rls | "* ]]
}

@test "experiments/webkb-curve.sh: two sizes, one draw" {
	need webkb_page.libsvm
	run env SIZES="2 8" DRAWS=1 OUT="$WORK/wc" "$TOP/experiments/webkb-curve.sh" rls laprls
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 2 |"* ]]
	[[ "$output" == *"| 8 |"* ]]
}

@test "experiments/ssl-book.sh: one Digit1 split, LapRLS by -v, beside the book" {
	need ssl_digit1.libsvm.gz
	run env SETS=digit1 SIZES=100 SPLITS=1 GRID_A=1e-6,1e-2 GRID_I=0,1 \
		"$TOP/experiments/ssl-book.sh" laprls
	[ "$status" -eq 0 ]
	row=$(echo "$output" | grep '^| digit1 | 100 |')
	# LapRLS well under the RLS-like error (about 6%) and beside the book's 2.92
	err=$(echo "$row" | awk -F'|' '{ print $6 + 0 }')
	awk -v e="$err" 'BEGIN { exit !(e > 0 && e < 5) }'
	[[ "$row" == *"| 2.92 |"* ]]
	[[ "$output" == *"digit1 l=100 laprls: [-a "*"] x1"* ]]
	run "$TOP/experiments/ssl-book.sh" nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown method 'nosuch'"* ]]
}

@test "experiments/secstr.sh: SecStr's settings, published numbers and the strict acceptance, on a small set of the same format" {
	fake_secstr sec
	run env DATA="$WORK/sec" BIN="$BIN" SIZES=100 SPLITS=1 GRID_A=1e-2,1 GRID_I=0,1 \
		"$TOP/experiments/secstr.sh" rls laprls
	[ "$status" -eq 0 ]
	row=$(echo "$output" | grep '^| secstr | 100 |')
	[[ "$row" == *"| 43.42 | 44.59 |"* ]]
	[[ "$row" == *"LapRLS within 1 of the book"* || "$row" == *"MISS: LapRLS "*"above the book (tolerance 1)"* ]]
	[[ "$output" == *"graph-build (once per set, reused by every size and split): secstr "*" s wall, "*" s CPU, "*" kB peak;"* ]]
	[[ "$output" == *"secstr l=100 laprls: "*" s"* ]]
	# the per-split budget line: graph + LapRLS (no LapSVM run here), then every method
	[[ "$output" == *"  secstr l=100: "*" s wall ("*" s CPU); "*" s wall ("*" s CPU) with every method; peak "*" kB (graph-build "*" kB)"* ]]
	run env DATA="$WORK/none" "$TOP/experiments/secstr.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ssl_secstr.libsvm.gz not found"* ]]
}

@test "experiments/class-dependent.sh: Isolet, small grids, RLS and class-dependent LapRLS" {
	need isolet1.libsvm.gz
	run env SETS=isolet A_GRID=0.01,0.1 I_GRID=1 OUT="$WORK/cd" \
		"$TOP/experiments/class-dependent.sh" rls laprls
	[ "$status" -eq 0 ]
	# the CV-accuracy choice retrained, beside lapsvm-train -v's own
	rls=$(echo "$output" | grep '^| isolet | rls |')
	[[ "$rls" == "| isolet | rls | \`-a 0.01 -i 0\` | "*"% | \`-a 0.1\` | "* ]]
	row=$(echo "$output" | grep '^| isolet | laprls |')
	[[ "$row" == *"\`-a 0."*" -i 1\`"* ]]
	# the test error of a fully labeled isolet1 model on isolet5: 10-20%
	err=$(echo "$row" | awk -F'|' '{ print $6 + 0 }')
	awk -v e="$err" 'BEGIN { exit !(e > 10 && e < 20) }'
	[ -s "$WORK/cd/isolet-laprls.cv" ] && [ -s "$WORK/cd/isolet-laprls.pred" ]
	run "$TOP/experiments/class-dependent.sh" nosuch
	[ "$status" -eq 2 ]
}

@test "experiments: a missing data directory is a clear error" {
	run env DATA="$WORK/nowhere" "$TOP/experiments/uspst.sh" rls
	[ "$status" -eq 1 ]
	[[ "$output" == *"not found (set DATA"* ]]
}

@test "experiments/cluster-digits.sh: USPS, one seed: regularized beats k-means, near the unregularized" {
	need usps.test.libsvm.gz
	local methods="reg unreg km"
	/usr/bin/python3 -c 'import sklearn, scipy' 2>/dev/null || methods="reg unreg"
	run env SEEDS=1 METHODS="$methods" OUT="$WORK/cd" "$TOP/experiments/cluster-digits.sh" usps
	[ "$status" -eq 0 ]
	# accuracy (column 3) and NMI (column 4) in sample, means
	reg=$(echo "$output" | awk -F'|' '$2 ~ /^ regularized/ { print $3 + 0, $4 + 0 }')
	unreg=$(echo "$output" | awk -F'|' '$2 ~ /^ unregularized/ { print $3 + 0, $4 + 0 }')
	[ -n "$reg" ] && [ -n "$unreg" ]
	awk -v r="$reg" -v u="$unreg" 'BEGIN { split(r, a, " "); split(u, b, " "); exit !(a[1] >= b[1] - 2) }'
	if [[ $methods == *km* ]]; then
		km=$(echo "$output" | awk -F'|' '$2 ~ /^ k-means/ { print $3 + 0, $4 + 0 }')
		awk -v r="$reg" -v k="$km" 'BEGIN { split(r, a, " "); split(k, b, " "); exit !(a[1] > b[1] && a[2] > b[2]) }'
	fi
	[ -s "$WORK/cd/usps.runs" ]
	run "$TOP/experiments/cluster-digits.sh" nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown data set 'nosuch'"* ]]
}

@test "experiments/cluster-fashion.sh: -h prints its usage, arguments are refused" {
	run "$TOP/experiments/cluster-fashion.sh" -h
	[ "$status" -eq 0 ]
	[[ "$output" == *"cluster-fashion.sh -- regularized spectral clustering"* ]]
	run "$TOP/experiments/cluster-fashion.sh" x
	[ "$status" -eq 2 ]
}

@test "experiments/manifoldboost-uci.sh: two folds, few rounds: the table's shape, the paper beside it" {
	need uci_ionosphere.libsvm
	run env FOLDS=2 INNER=2 ROUNDS=10 RUNS=1 GRID_M=0,1e-2 GRID_A=1e-2,1 GRID_I=0,1 METHODS="rls laprls" \
		LOG="$WORK/uci.log" "$TOP/experiments/manifoldboost-uci.sh" ionosphere ionosphere-semi
	[ "$status" -eq 0 ]
	[[ "$output" == *"Fully supervised sets: 2-fold stratified cross validation (seed 1)"* ]]
	# one row per set, 13 columns, the cells "mean (std)", the paper's beside
	row=$(echo "$output" | grep '^| ionosphere |')
	[ "$(echo "$row" | awk -F'|' '{ print NF - 2 }')" = 12 ]
	[[ "$row" =~ ^\|\ ionosphere\ \|\ [0-9.]+\ \([0-9.]+\)\ \|\ [0-9.]+\ \([0-9.]+\)\ \|\ [0-9.]+\ \([0-9.]+\)\ \|\ [0-9.]+\ \([0-9.]+\)\ \|\ -\ \|\ [0-9.]+\ \([0-9.]+\)\ \|\ -\ \|\ 6.5\ \(4.8\)\ \|\ 9.2\ \(7.1\)\ \|\ 7.7\ \(6.0\)\ \| ]]
	semi=$(echo "$output" | grep '^| ionosphere-semi |')
	[[ "$semi" == *"| 10.4 (0.8) | - | 12 |"* ]]
	# its error on the unlabeled rows is a number of the 251, in range
	e=$(echo "$semi" | awk -F'|' '{ print $3 + 0 }')
	awk -v e="$e" 'BEGIN { exit !(e > 0 && e < 50) }'
	# the log: 2 folds x 4 methods, then 1 run x 4 methods
	[ "$(wc -l <"$WORK/uci.log")" = 12 ]
	[ "$(grep -c '^ionosphere fold [12] treemb: [0-9.]*% (-i ' "$WORK/uci.log")" = 2 ]
	[[ "$output" == *"  ionosphere treemb: ["*"] x"* ]]
}

@test "experiments/manifoldboost-uci.sh: missing data, an unknown set, a bad number: clear messages" {
	run env DATA="$WORK/nothing" "$TOP/experiments/manifoldboost-uci.sh" sonar
	[ "$status" -eq 1 ]
	[[ "$output" == *"manifoldboost-uci.sh: $WORK/nothing/uci_sonar.libsvm not found (set DATA to the directory holding the data sets"* ]]
	run "$TOP/experiments/manifoldboost-uci.sh" iris
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown set 'iris' (expected ionosphere, pima, sonar, ionosphere-semi)"* ]]
	run env FOLDS=ten "$TOP/experiments/manifoldboost-uci.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"FOLDS=ten is not a whole number"* ]]
}

@test "experiments/manifoldboost-digit1.sh: one split of l = 100, few rounds: the table's shape, the paper and RLS beside it" {
	need ssl_digit1.libsvm.gz
	run env SIZES=100 SPLITS=1 ROUNDS=10 GRID_M=0,0.1 LEARNERS=tree KERNEL_METHODS=rls \
		LOG="$WORK/d1.log" "$TOP/experiments/manifoldboost-digit1.sh"
	[ "$status" -eq 0 ]
	row=$(echo "$output" | grep '^| Tree-ManifoldBoost (depth 3) | 100 |')
	[[ "$row" =~ ^\|\ Tree-ManifoldBoost\ \(depth\ 3\)\ \|\ 100\ \|\ [0-9.]+\ ±\ 0.00\ \|\ [0-9.]+\ \|\ [0-9.]+\ \|\ 4.29\ \|\ [^|]+\ \|$ ]]
	[[ "$output" == *"| logistic boosting (depth 3, gamma_M = 0) | 100 |"* ]]
	# the kernel methods' table of ssl-book.sh on the same split
	rls=$(echo "$output" | grep '^| digit1 | 100 |')
	[[ "$rls" =~ ^\|\ digit1\ \|\ 100\ \|\ [0-9.]+\ ±\ 0.00\ \|\ -\ \|\ -\ \|\ -\ \|\ 2.92\ \|\ 5.53\ \| ]]
	[[ "$output" == *"  l=100 tree: [-i "*"] x1"* ]]
	[ "$(grep -c '^l=100 split 1 ' "$WORK/d1.log")" = 2 ]
	# class mass normalization by default (lapsvm-train -p labeled)
	[[ "$output" == *"-z 0, class mass normalization: -p labeled;"* ]]
}

@test "experiments/manifoldboost-digit1.sh: missing data, a missing split, an unknown learner: clear messages" {
	run env DATA="$WORK/nothing" "$TOP/experiments/manifoldboost-digit1.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"manifoldboost-digit1.sh: $WORK/nothing/ssl_digit1.libsvm.gz not found (set DATA to the directory holding the data sets"* ]]
	run env LEARNERS=forest "$TOP/experiments/manifoldboost-digit1.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown learner 'forest' in LEARNERS (expected tree or rbfR, e.g. rbf15)"* ]]
	need ssl_digit1.libsvm.gz
	run env SPLITS=13 "$TOP/experiments/manifoldboost-digit1.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ssl_digit1.splits.l10.txt: no split 13"* ]]
}

@test "experiments/manifoldboost-secstr.sh: bad settings, missing data, a missing split: clear messages" {
	run env ROUNDS=many "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"manifoldboost-secstr.sh: ROUNDS=many is not a whole number"* ]]
	run env SIZES=50 "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"manifoldboost-secstr.sh: SIZES: 50 is not 100, 1000 or 10000"* ]]
	run env BASELINE=yes "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"BASELINE=yes is not 0 or 1"* ]]
	run "$TOP/experiments/manifoldboost-secstr.sh" extra
	[ "$status" -eq 2 ]
	run env DATA="$WORK/nothing" "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"manifoldboost-secstr.sh: $WORK/nothing/ssl_secstr.libsvm.gz not found"* ]]
	need ssl_secstr.libsvm.gz
	run env SPLITS=11 "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ssl_secstr.splits.l100.txt: no split 11"* ]]
}

@test "experiments/manifoldboost-secstr.sh: a small set of SecStr's format: the rounds by cross validation, the table, the bound, the times" {
	fake_secstr sec
	run env DATA="$WORK/sec" SIZES=100 SPLITS=1 ROUNDS=40 CV_STEP=10 LOG="$WORK/sec.log" \
		"$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"rounds: 3-fold cross validation over M in 0, 10, ..., 40, by the held-out class-balanced error."* ]]
	row=$(echo "$output" | grep '^| Tree-ManifoldBoost | 100 |')
	[[ "$row" =~ ^\|\ Tree-ManifoldBoost\ \|\ 100\ \|\ [0-9.]+\ ±\ 0.00\ \|\ 1\ \|\ (0|10|20|30|40)\ \|\ [0-9]+\ /\ [0-9]+\ \|\ [0-9]+\ /\ [0-9]+\ \|\ 43.28\ \|\ 44.28:\ (met|MISSED) ]]
	# logistic boosting learns the first residue: the held-out errors
	# fall with M, so the cross validation keeps rounds
	row=$(echo "$output" | grep '^| logistic boosting (gamma_M = 0) | 100 |')
	m=$(echo "$row" | awk -F'|' '{ print $6 + 0 }')
	[ "$m" -ge 10 ]
	[ "$(grep -c '^l=100 split 1 ' "$WORK/sec.log")" = 2 ]
	[ "$(grep -c '^  held-out errors by M: 0:[0-9]* 10:[0-9]* 20:[0-9]* 30:[0-9]* 40:[0-9]*$' "$WORK/sec.log")" = 2 ]
	# the criterion is the class-balanced held-out error: F_0 alone (M = 0,
	# a constant) misclassifies one class entirely, 50%; the M chosen has
	# the lowest balanced error of the grid
	[ "$(grep -c '^  balanced held-out error % by M: 0:50.00 10:[0-9.]* 20:[0-9.]* 30:[0-9.]* 40:[0-9.]*$' "$WORK/sec.log")" = 2 ]
	chosen_m_is_lowest "$WORK/sec.log" "balanced held-out error % by M"
	# no cross validation: all the rounds
	run env DATA="$WORK/sec" SIZES=100 SPLITS=1 ROUNDS=20 CV_FOLDS=0 BASELINE=0 \
		"$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"rounds: none."* ]]
	[[ "$output" == *"  l=100 manifoldboost 1: "*", M = 20, "* ]]
	run env DATA="$WORK/sec" CV_FOLDS=1 "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"CV_FOLDS=1: give 0 (no cross validation) or at least 2"* ]]
}

@test "experiments/manifoldboost-secstr.sh: CV_SCORE=errors, the plain count of held-out errors, chooses the M of fewest; a bad CV_SCORE is refused" {
	fake_secstr sec
	run env DATA="$WORK/sec" SIZES=100 SPLITS=1 ROUNDS=40 CV_STEP=10 CV_SCORE=errors LOG="$WORK/sec.log" \
		"$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"rounds: 3-fold cross validation over M in 0, 10, ..., 40, by the held-out count of errors."* ]]
	chosen_m_is_lowest "$WORK/sec.log" "held-out errors by M"
	run env DATA="$WORK/sec" CV_SCORE=deviance "$TOP/experiments/manifoldboost-secstr.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"manifoldboost-secstr.sh: CV_SCORE=deviance is not balanced or errors"* ]]
}

@test "experiments/easy.sh: one draw of Sonar, lapsvm-easy with and without scaling: a table row; an unknown set is refused" {
	need uci_sonar.libsvm
	run --separate-stderr env DRAWS=1 OUT=out "$TOP/experiments/easy.sh" sonar
	assert_status 0
	[[ "${lines[0]}" == "set "*"error scaled"*"error -n"*"scaled lower" ]]
	[[ "${lines[1]}" =~ ^sonar\ +208\ +60\ +2\ +20\ +[0-9.]+\ ±\ [0-9.]+\ +[0-9.]+\ ±\ [0-9.]+\ +[01]\ of\ 1$ ]] ||
		{ echo "$output"; false; }
	[ -s out/sonar.1/train.txt.scale.model ]
	run --separate-stderr env DRAWS=1 OUT=out "$TOP/experiments/easy.sh" nosuch
	assert_status 2
	assert_stderr_has "easy.sh: unknown set 'nosuch'"
}
