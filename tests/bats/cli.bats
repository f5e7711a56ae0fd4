#!/usr/bin/env bats
# Command-line hygiene of every tool: exit statuses (0 success, 1 failure,
# 2 usage), unknown options, missing option values, numeric option values
# parsed strictly (each error naming the option), and a file of the wrong
# kind given in another's place (model, data, graph), which must be
# recognized and named.  tests/README lists the cases.

load helpers

setup() {
	need_tools "$GB" "$DG" "$TRAIN" "$PRED" "$PCA"
	enter_work
}

PCA="$BIN/lapsvm-pca"
TOOLS="graph-build lapsvm-train lapsvm-predict lapsvm-datagen lapsvm-pca"

# A usage error of PROG naming TEXT: exit 2, the -h hint, nothing written.
assert_usage() {
	assert_usage_error "$2" "$1"
	[ -z "$(ls -A | grep -v -x -e small.txt -e ok.model -e m.graph -e m.graph.knn)" ]
}

# small.txt, ok.model (trained on it) and m.graph (its graph).
fixtures() {
	small_data small.txt
	"$TRAIN" -q small.txt ok.model
	"$GB" -q -k 2 small.txt m.graph
}

# ------------------------------------------------------------ exit status

@test "every tool: -h prints usage on stdout, documents exit statuses 0, 1, 2, exits 0" {
	local t
	for t in $TOOLS; do
		run --separate-stderr "$BIN/$t" -h
		assert_status 0
		assert_stderr_empty
		[[ "$output" == "Usage: $t "* ]]
		if [[ "$output" != *"Exit status: 0 success, 1 failure"*"2 usage"* ]]; then
			echo "$t -h does not document the exit statuses"
			return 1
		fi
	done
	[ -z "$(ls -A)" ]
}

@test "README documents the exit statuses 0, 1 and 2" {
	local readme="$BATS_TEST_DIRNAME/../../README.md"
	[ -f "$readme" ] || skip "README.md not found"
	grep -Eq '^\| 0 \| success' "$readme"
	grep -Eq '^\| 1 \| failure: bad input' "$readme"
	grep -Eq '^\| 2 \| usage error' "$readme"
}

@test "every tool: exit 0 on success" {
	fixtures
	run --separate-stderr "$GB" -q small.txt g; assert_status 0
	run --separate-stderr "$TRAIN" -q small.txt t.model; assert_status 0
	run --separate-stderr "$PRED" -q small.txt ok.model p; assert_status 0
	run --separate-stderr "$DG" moons d.txt; assert_status 0
	run --separate-stderr "$PCA" -q -k 1 small.txt pc.txt; assert_status 0
	[ -s g ] && [ -s t.model ] && [ -s p ] && [ -s d.txt ] && [ -s pc.txt ]
}

@test "every tool: exit 1 on bad input or I/O failure, with 'prog: file:line: what'" {
	fixtures
	printf '%s\n' '1 1:0' '1 1:x' >bad.txt
	run --separate-stderr "$GB" bad.txt
	assert_fails graph-build "bad.txt:2: bad value for feature 1"
	run --separate-stderr "$TRAIN" bad.txt
	assert_fails lapsvm-train "bad.txt:2: bad value for feature 1"
	run --separate-stderr "$PRED" bad.txt ok.model out
	assert_fails lapsvm-predict "bad.txt:2: bad value for feature 1"
	run --separate-stderr "$PCA" bad.txt out
	assert_fails lapsvm-pca "bad.txt:2: bad value for feature 1"
	run --separate-stderr "$DG" moons nodir/d.txt
	assert_fails lapsvm-datagen "nodir/d.txt: cannot create a file beside it"
	[ ! -e out ] && [ ! -e bad.txt.graph ] && [ ! -e bad.txt.model ]
}

@test "every tool: an empty input file name is named as empty (not 'No such file'), exit 1, nothing written" {
	fixtures
	local empty="'': cannot open: the file name is empty"
	run --separate-stderr "$GB" '' out
	assert_fails graph-build "$empty"
	run --separate-stderr "$TRAIN" '' out
	assert_fails lapsvm-train "$empty"
	run --separate-stderr "$TRAIN" -G '' small.txt out
	assert_fails lapsvm-train "$empty"
	run --separate-stderr "$TRAIN" -M pcg -f '' small.txt out
	assert_fails lapsvm-train "$empty"
	run --separate-stderr "$PRED" '' ok.model out
	assert_fails lapsvm-predict "$empty"
	run --separate-stderr "$PRED" small.txt '' out
	assert_fails lapsvm-predict "$empty"
	run --separate-stderr "$PCA" '' out
	assert_fails lapsvm-pca "$empty"
	[ ! -e out ]
}

@test "every tool: missing or extra operands exit 2" {
	local t
	for t in graph-build lapsvm-train lapsvm-predict lapsvm-pca lapsvm-datagen; do
		run --separate-stderr "$BIN/$t"
		assert_status 2
		assert_stderr_has "$t: missing"
		assert_stderr_has "Try '$t -h' for more information."
	done
	small_data small.txt
	run --separate-stderr "$GB" small.txt a b
	assert_usage graph-build "too many arguments"
	run --separate-stderr "$TRAIN" small.txt a b
	assert_usage lapsvm-train "too many arguments"
	run --separate-stderr "$PRED" small.txt a b c
	assert_usage lapsvm-predict "too many arguments"
	run --separate-stderr "$DG" moons a b
	assert_usage lapsvm-datagen "too many arguments"
	run --separate-stderr "$PCA" small.txt a b
	assert_usage lapsvm-pca "the last input file 'b' has no output file"
}

# ---------------------------------------------------------------- options

@test "every tool: an unknown option exits 2 naming it" {
	fixtures
	run --separate-stderr "$GB" -Z small.txt
	assert_usage graph-build "unknown option -Z"
	run --separate-stderr "$TRAIN" -9 small.txt
	assert_usage lapsvm-train "unknown option -9"  # every letter but b is taken (-f: warm start, -V: Laplacian weights)
	run --separate-stderr "$PRED" -Z small.txt ok.model out
	assert_usage lapsvm-predict "unknown option -Z"
	run --separate-stderr "$DG" -Z moons
	assert_usage lapsvm-datagen "unknown option -Z"
	run --separate-stderr "$PCA" -Z small.txt out
	assert_usage lapsvm-pca "unknown option -Z"
}

@test "every tool: an option without its value exits 2 naming the option" {
	fixtures
	run --separate-stderr "$GB" small.txt -k
	assert_usage graph-build "option -k needs a value"
	run --separate-stderr "$TRAIN" small.txt -c
	assert_usage lapsvm-train "option -c needs a value"
	run --separate-stderr "$PRED" small.txt ok.model out -u
	assert_usage lapsvm-predict "option -u needs a value"
	run --separate-stderr "$DG" moons -n
	assert_usage lapsvm-datagen "option -n needs a value"
	run --separate-stderr "$PCA" small.txt out -k
	assert_usage lapsvm-pca "option -k needs a value"
}

@test "lapsvm-train: numeric options are strict: -c abc, -g 1e999, -k -3, garbage, empty, blanks" {
	small_data small.txt
	local spec opt val want
	# option|value|what the message says about the value
	for spec in "c|abc|is not a number" "g|1e999|is out of range" \
		"k|-3|out of range" "c|1x|is not a number" "c||is not a number" \
		"g| 1|is not a number" "g|1 |is not a number" "A|0x10|is not a number" \
		"k|1e3|is not an integer" "k|3.0|is not an integer" \
		"k|99999999999999999999|out of range" "e|nan|is not finite" \
		"I|inf|is not finite" "u|--1|is not a number" "d|+|is not an integer" \
		"P||is not an integer" "S|1.5|is not an integer"; do
		IFS='|' read -r opt val want <<<"$spec"
		run --separate-stderr "$TRAIN" "-$opt" "$val" small.txt
		assert_usage lapsvm-train "option -$opt: '$val' $want"
	done
}

# -k 100 was the default whatever the data: 2 features failed with a -k the
# user never gave
@test "lapsvm-pca: the default k is 100, or every feature of data with fewer" {
	printf '%s\n' '1 1:1 2:0' '-1 1:0 2:1' '1 1:2 2:2' >two.txt
	run --separate-stderr "$PCA" two.txt a.pca
	assert_status 0
	"$PCA" -q -k 2 two.txt b.pca
	assert_same a.pca b.pca
	run --separate-stderr "$PCA" -k 3 two.txt c.pca
	assert_fails lapsvm-pca "two.txt: -k 3 but the data has 2 features"
	printf '1\n-1\n' >none.txt
	run --separate-stderr "$PCA" none.txt d.pca
	assert_fails lapsvm-pca "none.txt: no row has a feature: there is nothing to project"
	[ ! -e d.pca ]
}

# the projection skipped them without a word: a test file with a feature
# the training file lacks was mapped as if that feature were absent
@test "lapsvm-pca: a further file's features the fit file lacks are left out, with a warning naming the file" {
	printf '%s\n' '1 1:1 2:0' '-1 1:0 2:1' '1 1:2 2:2' >two.txt
	printf '%s\n' '1 1:1 2:0 5:7' '-1 1:0 2:1' '1 1:2 2:2 3:1' >wider.txt
	run --separate-stderr "$PCA" -k 2 two.txt a.pca wider.txt w.pca two.txt t.pca
	assert_status 0
	assert_stderr_has "lapsvm-pca: warning: wider.txt: 2 rows have features the fit file lacks (from feature 3; it has 2): no component weighs them, so the projection leaves them out"
	[ "$(grep -c warning <<<"$stderr")" -eq 1 ]
	# the projection is the fit file's rows' own
	assert_same a.pca w.pca
	run --separate-stderr "$PCA" -q -k 2 two.txt a.pca wider.txt w.pca
	assert_status 0
	assert_stderr_empty
}

@test "lapsvm-pca: too many features for the covariance names the file" {
	printf '1 1:1 20001:1\n-1 2:1\n' >wide.txt
	run --separate-stderr "$PCA" -k 1 wide.txt wide.pca
	assert_status 1
	assert_stderr_has "lapsvm-pca: wide.txt: 20001 features: the 20001 x 20001 covariance is too large"
	[ ! -e wide.pca ]
}

@test "graph-build, lapsvm-predict, lapsvm-datagen, lapsvm-pca: numeric options are strict" {
	fixtures
	local val
	for val in abc 1x '' ' 2' -3 1e999 2.5; do
		run --separate-stderr "$GB" -k "$val" small.txt
		assert_usage graph-build "option -k: '$val' "
		run --separate-stderr "$DG" -n "$val" moons
		assert_usage lapsvm-datagen "option -n: '$val' "
		run --separate-stderr "$PCA" -k "$val" small.txt out
		assert_usage lapsvm-pca "option -k: '$val' "
	done
	for val in abc 1x '' ' 2' 1e999 nan; do
		run --separate-stderr "$GB" -e "$val" small.txt
		assert_usage graph-build "option -e: '$val' "
		run --separate-stderr "$PRED" -u "$val" small.txt ok.model out
		assert_usage lapsvm-predict "option -u: '$val' "
		run --separate-stderr "$DG" -e "$val" moons
		assert_usage lapsvm-datagen "option -e: '$val' "
	done
}

# ------------------------------------------------------ the wrong file kind

@test "a lapsvm model given as data: graph-build, lapsvm-train, lapsvm-pca say it looks like a model" {
	fixtures
	local t
	for t in graph-build lapsvm-train lapsvm-pca; do
		run --separate-stderr "$BIN/$t" ok.model out
		assert_fails "$t" "ok.model:1: this looks like a lapsvm model file, not data"
	done
	run --separate-stderr "$PRED" ok.model ok.model out
	assert_fails lapsvm-predict "ok.model: this is a lapsvm model, not test data"
	[ ! -e out ] && [ ! -e ok.model.model ] && [ ! -e ok.model.graph ]
}

@test "a LIBSVM model given as data or as a model is named" {
	fixtures
	printf '%s\n' 'svm_type c_svc' 'kernel_type rbf' 'gamma 0.5' 'nr_class 2' \
		'total_sv 1' 'rho 0' 'label 1 -1' 'nr_sv 1 0' 'SV' '1 1:1' >libsvm.model
	run --separate-stderr "$TRAIN" libsvm.model
	assert_fails lapsvm-train "libsvm.model:1: this looks like a LIBSVM model file, not data"
	run --separate-stderr "$PRED" small.txt libsvm.model out
	assert_fails lapsvm-predict "libsvm.model:1: not a lapsvm model file" "this looks like a LIBSVM model"
}

@test "a data file or a graph given as the model: lapsvm-predict names it" {
	fixtures
	run --separate-stderr "$PRED" small.txt small.txt out
	assert_fails lapsvm-predict "small.txt:1: not a lapsvm model file" \
		"this looks like a data or graph file"
	run --separate-stderr "$PRED" small.txt m.graph out
	assert_fails lapsvm-predict "m.graph:1: not a lapsvm model file" \
		"this looks like a data or graph file"
	[ ! -e out ]
}

@test "a graph given as data: every data reader says it looks like a graph" {
	fixtures
	moons m.txt -S 1 -l 1
	"$GB" -q m.txt big.graph
	local g t
	for g in m.graph big.graph; do
		for t in graph-build lapsvm-train lapsvm-pca; do
			run --separate-stderr "$BIN/$t" $g out
			assert_fails "$t" "$g: this looks like a graph file, not data"
		done
		run --separate-stderr "$PRED" $g ok.model out
		assert_fails lapsvm-predict "$g: this looks like a graph file, not data"
	done
	[ ! -e out ]
	# labels 1..n alone do not make a graph: this data set is no graph
	printf '%s\n' '1 1:0' '2 1:1' '3 1:2' >ids.txt
	run --separate-stderr "$GB" -q ids.txt
	assert_status 0
}

@test "lapsvm-train -G: data or a model given as the graph is named" {
	fixtures
	moons m.txt -S 1 -l 1
	run --separate-stderr "$TRAIN" -G m.txt m.txt
	assert_fails lapsvm-train "m.txt:1: bad row number '0'" \
		"this looks like a data file (a label first), not a graph"
	run --separate-stderr "$TRAIN" -G small.txt small.txt
	assert_fails lapsvm-train "small.txt:1: self loop" "is this a data file?"
	run --separate-stderr "$TRAIN" -G ok.model small.txt
	assert_fails lapsvm-train "ok.model:1: bad row number 'lapsvm_model'" \
		"this looks like a lapsvm model file, not a graph"
	[ ! -e m.txt.model ] && [ ! -e small.txt.model ]
}

@test "every tool: an output that would replace one of its inputs is a usage error, the input unchanged" {
	need_tools "$TRAIN" "$PRED" "$BIN/lapsvm-pca"
	moons1 m.txt
	"$GB" -q -e 0.25 m.txt m.g
	"$TRAIN" -q -G m.g m.txt m.model
	cp m.txt keep.txt
	cp m.model keep.model
	cp m.g keep.g
	run --separate-stderr "$TRAIN" -q m.txt m.txt
	assert_usage_error "'m.txt' is both an input and an output: the output would replace it (give the output another name)" lapsvm-train
	run --separate-stderr "$TRAIN" -q -G m.g -o m.g m.txt x.model
	assert_usage_error "'m.g' is both an input and an output" lapsvm-train
	ln -s m.txt link
	run --separate-stderr "$TRAIN" -q m.txt link
	assert_usage_error "the output 'link' is the input 'm.txt': it would replace it" lapsvm-train
	run --separate-stderr "$GB" -q m.txt m.txt
	assert_usage_error "'m.txt' is both an input and an output" graph-build
	run --separate-stderr "$PRED" m.txt m.model m.model
	assert_usage_error "'m.model' is both an input and an output" lapsvm-predict
	run --separate-stderr "$PRED" m.txt m.model m.txt
	assert_usage_error "'m.txt' is both an input and an output" lapsvm-predict
	run --separate-stderr "$BIN/lapsvm-pca" -k 1 m.txt a.out m.g m.txt
	assert_usage_error "'m.txt' is both an input and an output" lapsvm-pca
	cmp m.txt keep.txt
	cmp m.model keep.model
	cmp m.g keep.g
	[ ! -e a.out ] && [ ! -e x.model ]
	assert_no_tmp_files
	# another name for a new file is fine
	run --separate-stderr "$GB" -q m.txt m2.g
	assert_status 0
}
