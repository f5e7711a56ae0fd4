#!/usr/bin/env bats
# lapsvm-train against the real LIBSVM (Debian package libsvm-tools:
# svm-train, svm-predict).  With gamma_I = 0 (-i 0) the LapSVM solver is
# exactly a C-SVC with C = 1/(2 gamma_A l), which -c sets directly; the
# dual is solved by the same SMO (second-order working set, same gradient,
# same stopping rule), so with a tight tolerance on both sides the two
# decision functions agree closely.
#
# svm-predict does not print decision values, so LIBSVM's model is turned
# into a lapsvm model (same expansion: coefficients y_i alpha_i over the
# SVs, bias = -rho, labels in LIBSVM's order) and both models go through
# `lapsvm-predict -d` on the same test rows.

load helpers


setup() {
	need_tools "$TRAIN" "$PRED"
	command -v svm-train >/dev/null && command -v svm-predict >/dev/null ||
		skip "LIBSVM's svm-train / svm-predict not installed (Debian: apt-get install libsvm-tools)"
	enter_work
}

# --------------------------------------------------------------- fixtures

# usps17: train.txt = the first 200 USPS training rows of digits 1 and 7
# (121 ones, 79 sevens; 256 features in [-1, 1]), test.txt = the first 150
# such rows of the USPS test set.  Skips without the real data.
usps17() {
	need_data usps.train.libsvm.gz
	zcat "$DATA_PATH" | awk '$1 == 1 || $1 == 7' | head -n 200 >train.txt
	need_data usps.test.libsvm.gz
	zcat "$DATA_PATH" | awk '$1 == 1 || $1 == 7' | head -n 150 >test.txt
	[ "$(wc -l <train.txt)" -eq 200 ] && [ "$(wc -l <test.txt)" -eq 150 ]
}

# RBF width for USPS: 2^-7 is exact in float and double, so LIBSVM's model
# file (which prints gamma as a float) holds exactly the gamma lapsvm uses.
G=0.0078125

# libsvm_to_lapsvm LIBSVM_MODEL LAPSVM_MODEL: the same decision function
#     f(x) = sum_i coef_i K(sv_i, x) - rho   (> 0: LIBSVM's first label)
# as a lapsvm model file (RBF, two classes).
libsvm_to_lapsvm() {
	awk '
	function die(msg) { print "libsvm_to_lapsvm: " msg > "/dev/stderr"; bad = 1; exit 1 }
	sv { print; n++; next }
	$1 == "svm_type" && $2 != "c_svc" { die("svm_type " $2 ", expected c_svc") }
	$1 == "kernel_type" && $2 != "rbf" { die("kernel_type " $2 ", expected rbf") }
	$1 == "nr_class" && $2 != 2 { die("nr_class " $2 ", expected 2") }
	$1 == "gamma" { gamma = $2 }
	$1 == "total_sv" { total = $2 }
	$1 == "rho" { rho = $2 }
	$1 == "label" { labels = $2 " " $3 }
	$1 == "SV" {
		if (gamma == "" || total == "" || rho == "" || labels == "")
			die("incomplete header")
		sv = 1
		print "lapsvm_model 1"
		print "solver lapsvm"
		print "kernel rbf"
		print "degree 3"
		print "gamma " gamma
		print "coef0 0"
		print "gamma_A 1"
		print "gamma_I 0"
		print "laplacian normalized"
		print "laplacian_power 1"
		print "eps 0.001"
		print "max_iter 0"
		print "l " total
		print "u 0"
		print "unlabeled_marker 0"
		print "nr_class 2"
		print "labels " labels
		print "nr_fn 1"
		print "bias " (substr(rho, 1, 1) == "-" ? substr(rho, 2) : "-" rho)
		print "nr_sv " total
		print "SV"
	}
	END { if (!bad && n != total) die("found " n " SV lines, expected " total) }
	' "$1" >"$2"
}

# same_decisions A B: two `lapsvm-predict -d` outputs of binary models on
# the same rows have the same decision values, |a - b| <= 1e-3 max(1, |b|),
# on every row.  If the models name their classes in the opposite order
# ("labels 1" vs "labels -1"), A's values are negated first.  Prints the
# rows that differ.
same_decisions() {
	awk '
	NR == FNR { if (FNR == 1) { la = $2; next } a[FNR] = $2; na = FNR; next }
	FNR == 1 { s = ($2 == la) ? 1 : -1; next }
	{
		nb = FNR
		if (!(FNR in a)) { print "row " FNR - 1 ": missing in " ARGV[1]; bad++; next }
		x = s * a[FNR]; y = $2; d = x - y; if (d < 0) d = -d
		m = y < 0 ? -y : y; if (m < 1) m = 1
		if (d > 1e-3 * m) {
			if (++bad <= 10) print "row " FNR - 1 ": " x " vs " y
		}
		if (d > maxd) maxd = d
	}
	END {
		if (na != nb) { print "rows: " na - 1 " vs " nb - 1; bad++ }
		if (bad) print bad " rows differ (largest |a - b| = " maxd ")"
		exit (bad > 0)
	}' "$1" "$2"
}

# peer C DATA TEST [gamma]: train LIBSVM and lapsvm with cost C on DATA
# (RBF, tolerance 1e-6 on both), write the models libsvm.model (LIBSVM's),
# conv.model (it converted) and lapsvm.model, and the decision values of
# TEST: dv.libsvm and dv.lapsvm.
peer() {
	local c="$1" data="$2" test="$3" g="${4:-$G}"
	svm-train -q -s 0 -t 2 -g "$g" -c "$c" -e 1e-6 "$data" libsvm.model
	libsvm_to_lapsvm libsvm.model conv.model
	"$TRAIN" -q -s lapsvm -i 0 -t 2 -g "$g" -c "$c" -e 1e-6 "$data" lapsvm.model
	"$PRED" -q -d "$test" conv.model dv.libsvm
	"$PRED" -q -d "$test" lapsvm.model dv.lapsvm
}

# ------------------------------------------------------------------ tests

@test "USPS 1 vs 7, C = 1: same decision values as LIBSVM on every test row" {
	usps17
	peer 1 train.txt test.txt
	[ "$(wc -l <dv.lapsvm)" -eq 151 ]
	same_decisions dv.libsvm dv.lapsvm
}

@test "USPS 1 vs 7, C = 0.1 (many SVs at the bound C): same decision values" {
	usps17
	peer 0.1 train.txt test.txt
	same_decisions dv.libsvm dv.lapsvm
}

@test "USPS 1 vs 7: the training rows get the same decision values too" {
	usps17
	peer 1 train.txt train.txt
	same_decisions dv.libsvm dv.lapsvm
}

@test "USPS 1 vs 7: predicted labels agree with svm-predict on every row" {
	usps17
	peer 1 train.txt test.txt
	svm-predict test.txt libsvm.model libsvm.pred >libsvm.acc
	"$PRED" -q test.txt lapsvm.model lapsvm.pred
	[ "$(wc -l <lapsvm.pred)" -eq 150 ]
	# numerically: LIBSVM prints labels with %.17g too, but compare values
	paste -d ' ' libsvm.pred lapsvm.pred | awk '$1 + 0 != $2 + 0 {
		print "row " NR ": svm-predict " $1 ", lapsvm-predict " $2; bad++ }
		END { exit (bad > 0) }'
}

@test "USPS 1 vs 7: as many expansion points as LIBSVM has support vectors" {
	usps17
	local c
	for c in 0.1 1 10; do
		peer "$c" train.txt test.txt
		lib=$(awk '$1 == "total_sv" { print $2 }' libsvm.model)
		lap=$(sed -n 's/^nr_sv //p' lapsvm.model)
		if [ "$lib" != "$lap" ]; then
			echo "C = $c: LIBSVM total_sv $lib, lapsvm nr_sv $lap"
			return 1
		fi
	done
}

@test "two moons, -1 rows first, C = 10: same decision values (labels +1, -1)" {
	[ -x "$DG" ] || skip "lapsvm-datagen not built (looked in $BIN)"
	# fully labeled moons, reversed so that the first row is a -1
	"$DG" -S 1 moons m.txt
	tac m.txt >train.txt
	[ "$(cut -d ' ' -f 1 train.txt | head -n 1)" = -1 ]
	"$DG" -S 2 moons test.txt
	peer 10 train.txt test.txt 2
	[ "$(sed -n 's/^labels //p' lapsvm.model)" = "1 -1" ]
	same_decisions dv.libsvm dv.lapsvm
}

@test "the comparison can fail: a different C gives different decision values" {
	usps17
	peer 1 train.txt test.txt
	"$TRAIN" -q -s lapsvm -i 0 -t 2 -g "$G" -c 2 -e 1e-6 train.txt c2.model
	"$PRED" -q -d test.txt c2.model dv.c2
	run same_decisions dv.libsvm dv.c2
	[ "$status" -eq 1 ]
	[[ "$output" == *"rows differ"* ]]
}
