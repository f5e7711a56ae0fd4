#!/usr/bin/env bats
# lapsvm-predict: predictions and decision values of hand-written models,
# the accuracy and PRBEP lines, '-' for standard input and output, wrong
# files given, malformed models, usage errors, and outputs left untouched by
# bad input.  Exit codes: 0 ok, 1 failure, 2 usage.

load helpers


# Replaces the helpers' setup: this file needs lapsvm-predict only.
setup() {
	need_tools "$PRED"
	enter_work
}

# --------------------------------------------------------------- fixtures

# header FILE KERNEL_LINES NR_CLASS LABELS NR_FN BIAS NR_SV: a model header
# up to and including "SV"; the SV lines are appended by the caller.
header() {
	cat >"$1" <<EOF
lapsvm_model 1
solver lapsvm
$2
gamma_A 0.001
gamma_I 0.01
laplacian normalized
laplacian_power 1
eps 0.001
max_iter 0
l 5
u 1
unlabeled_marker 0
graph knn k=6
nr_class $3
labels $4
nr_fn $5
bias $6
nr_sv $7
SV
EOF
}

LINEAR='kernel linear
degree 3
gamma 1
coef0 0'

# binary_model FILE: f(x) = x1 - 0.5 (one SV e1 with coefficient 1, linear
# kernel, bias -0.5); f > 0 predicts 1, else -1.
binary_model() {
	header "${1:-bin.model}" "$LINEAR" 2 "1 -1" 1 -0.5 1
	echo '1 1:1' >>"${1:-bin.model}"
}

# binary_data FILE: scores 1.5, 0.5, 0.25, -0.25, -1.5 on labeled rows
# (true 1, -1, 1, 1, -1) and 2.5 on an unlabeled one.  Predictions 1 1 1
# -1 -1 1: 3 of 5 labeled rows right.  PRBEP: P = 3, the top 3 labeled
# scores (1.5, 0.5, 0.25) hold 2 positives: 2/3, error 2 (3 - 2) / 5.
binary_data() {
	printf '%s\n' '1 1:2' '-1 1:1' '1 1:0.75' '1 1:0.25' '-1 1:-1' \
		'0 1:3' >"${1:-test.txt}"
}

# three_model FILE: classes 3 1 2 with f = (x1, -x1 + x2 + 0.5, -x2 + 0.25):
# SV e1 with coefficients (1, -1, 0), SV e2 with (0, 1, -1).
three_model() {
	header "${1:-three.model}" "$LINEAR" 3 "3 1 2" 3 "0 0.5 0.25" 2
	printf '%s\n' '1 -1 0 1:1' '0 1 -1 2:1' >>"${1:-three.model}"
}

# three_data FILE: scores (2, -1.5, 0.25), (0, 2.5, -1.75), (0, -0.5,
# 1.25), (1, 0.5, -0.75): labels 3, 1, 2, 3 -- the last is wrong (true 1).
three_data() {
	printf '%s\n' '3 1:2' '1 2:2' '2 2:-1' '1 1:1 2:1' >"${1:-test3.txt}"
}

# ------------------------------------------------------------------ help

@test "-h prints usage on stdout and exits 0" {
	run --separate-stderr "$PRED" -h
	assert_status 0
	[[ "$output" == "Usage: lapsvm-predict [options] test_file model_file output_file"* ]]
	[[ "$output" == *"-d "* && "$output" == *"-u marker"* && "$output" == *"-q "* ]]
	[[ "$output" == *"Exit status: 0 success, 1 failure"*"2 usage error"* ]]
	assert_stderr_empty
}

# ----------------------------------------------------------- usage errors

@test "no arguments: exit 2" {
	run --separate-stderr "$PRED"
	assert_usage_error "missing test_file, model_file and output_file" lapsvm-predict
}

@test "one argument: exit 2, missing model_file" {
	binary_data
	run --separate-stderr "$PRED" test.txt
	assert_usage_error "missing model_file and output_file" lapsvm-predict
}

@test "two arguments: exit 2, missing output_file" {
	binary_data
	binary_model
	run --separate-stderr "$PRED" test.txt bin.model
	assert_usage_error "missing output_file" lapsvm-predict
	[ "$(ls -A)" = "$(printf 'bin.model\ntest.txt')" ]
}

@test "four arguments: exit 2, too many" {
	binary_data
	binary_model
	run --separate-stderr "$PRED" test.txt bin.model out extra
	assert_usage_error "too many arguments" lapsvm-predict
	[ ! -e out ]
}

@test "unknown option: exit 2 naming it" {
	run --separate-stderr "$PRED" -x test.txt bin.model out
	assert_usage_error "unknown option -x" lapsvm-predict
}

@test "-u without a value: exit 2" {
	run --separate-stderr "$PRED" test.txt bin.model out -u
	assert_usage_error "option -u needs a value" lapsvm-predict
}

@test "-u abc: exit 2, not a number" {
	binary_data
	binary_model
	run --separate-stderr "$PRED" -u abc test.txt bin.model out
	assert_usage_error "option -u: 'abc' is not a number" lapsvm-predict
	[ ! -e out ]
}

@test "-u nan: exit 2, not finite" {
	run --separate-stderr "$PRED" -u nan test.txt bin.model out
	assert_usage_error "option -u: 'nan' is not finite" lapsvm-predict
}

@test "-u '1 ': exit 2, not a number" {
	run --separate-stderr "$PRED" -u '1 ' test.txt bin.model out
	assert_usage_error "option -u: '1 ' is not a number" lapsvm-predict
}

@test "test and model both '-': exit 2" {
	run --separate-stderr "$PRED" - - out
	assert_usage_error "test_file and model_file cannot both be '-'" lapsvm-predict
	[ ! -e out ]
}

# ------------------------------------------------------------ predictions

# 0-based classes read with the default marker 0: the class-0 rows were
# left out of the accuracy without a word.
@test "rows with the marker among the model's integer classes (0-based classes?) are warned about; -1, 1 with 0 and other markers are not" {
	three_model
	three_data
	printf '%s\n' '0 1:2' >>test3.txt
	run --separate-stderr "$PRED" test3.txt three.model out
	assert_status 0
	assert_stderr_has "lapsvm-predict: warning: 1 of the 5 rows carry the unlabeled marker 0 and are not scored: if 0 is a class, give the unlabeled rows another label and name it with -u"
	[ "$output" = "Accuracy = 75% (3/4) (classification)" ]
	sed 's/^0 /9 /' test3.txt >test9.txt
	run --separate-stderr "$PRED" -u 9 test9.txt three.model out
	assert_status 0
	assert_stderr_empty
	# the marker row among unlabeled rows as many as the labeled: no hint
	printf '%s\n' '0 1:1' '0 1:3' '0 2:1' >>test3.txt
	run --separate-stderr "$PRED" test3.txt three.model out
	assert_status 0
	assert_stderr_empty
}

@test "binary model: one label per line, accuracy and PRBEP on stdout" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" test.txt bin.model out
	assert_status 0
	assert_stderr_empty
	[ "$(cat out)" = "$(printf '%s\n' 1 1 1 -1 -1 1)" ]
	[ "${lines[0]}" = "Accuracy = 60% (3/5) (classification)" ]
	[ "${lines[1]}" = "PRBEP = 66.67% (error rate at PRBEP = 40.00%)" ]
	[ "${#lines[@]}" -eq 2 ]
	assert_no_tmp_files .
}

@test "PRBEP with no labeled row of the first class: undefined, said so" {
	binary_model
	printf '%s\n' '-1 1:1' '-1 1:-1' '0 1:3' >neg.txt
	run --separate-stderr "$PRED" neg.txt bin.model out.txt
	assert_status 0
	[ "${lines[0]}" = "Accuracy = 50% (1/2) (classification)" ]
	[ "${lines[1]}" = "PRBEP undefined (no labeled row of class 1)" ]
}

@test "standard input that is the output file ('-' < out): a usage error, the file kept" {
	binary_model
	binary_data
	cp test.txt keep.txt
	run --separate-stderr "$PRED" -q - bin.model test.txt <test.txt
	assert_usage_error "the output 'test.txt' is the input '-': it would replace it" lapsvm-predict
	assert_same test.txt keep.txt
	# a pipe, or another file, is fine
	run --separate-stderr "$PRED" -q - bin.model out.txt <test.txt
	assert_status 0
}

@test "a cluster model whose labels are not 1..c in order is refused at its labels line" {
	binary_data
	for labels in "1 -1" "2 1" "1 3" "1.5 2"; do
		header cl.model "$LINEAR" 2 "$labels" 1 -0.5 1
		sed -i 's/^solver lapsvm/solver cluster/' cl.model
		echo '1 1:1' >>cl.model
		echo old >out
		run --separate-stderr "$PRED" test.txt cl.model out
		assert_status 1
		assert_stderr_regex "^lapsvm-predict: cl.model:18: cluster [12] is labeled .* \\(expected the clusters labeled 1..2 in order\\)$"
		[ "$(cat out)" = old ]
	done
	header cl.model "$LINEAR" 2 "1 2" 1 -0.5 1
	sed -i 's/^solver lapsvm/solver cluster/' cl.model
	echo '1 1:1' >>cl.model
	run --separate-stderr "$PRED" -q test.txt cl.model out
	assert_status 0
}

@test "PRBEP with tied scores: a file and its reversal print the same line" {
	# Scores 1.5, 0.5 x 4, -0.5 with the tied rows sorted by class.  P = 3:
	# 1.5 (a positive) and 2 of the 4 tied rows, 2 of them positive, so
	# TP = 1 + 2 * 2/4 = 2: PRBEP 2/3, error 2 (3 - 2) / 6.  (Ties taken
	# by index gave 100% here and 33.33% on the reversal.)
	binary_model
	printf '%s\n' '1 1:2' '1 1:1' '1 1:1' '-1 1:1' '-1 1:1' '-1 1:0' >sorted.txt
	tac sorted.txt >reversed.txt
	run --separate-stderr "$PRED" sorted.txt bin.model out
	assert_status 0
	[ "${lines[1]}" = "PRBEP = 66.67% (error rate at PRBEP = 33.33%)" ]
	run --separate-stderr "$PRED" reversed.txt bin.model out
	assert_status 0
	[ "${lines[1]}" = "PRBEP = 66.67% (error rate at PRBEP = 33.33%)" ]
}

@test "-d: header 'labels L1' and one f(x) column for a binary model" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" -q -d test.txt bin.model out
	assert_status 0
	assert_stdout_empty
	[ "$(cat out)" = "$(printf '%s\n' 'labels 1' '1 1.5' '1 0.5' '1 0.25' \
		'-1 -0.25' '-1 -1.5' '1 2.5')" ]
}

@test "-d: three classes, header names each column, label is the argmax" {
	three_model
	three_data
	run --separate-stderr "$PRED" -d test3.txt three.model out
	assert_status 0
	[ "$(cat out)" = "$(printf '%s\n' 'labels 3 1 2' '3 2 -1.5 0.25' \
		'1 0 2.5 -1.75' '2 0 -0.5 1.25' '3 1 0.5 -0.75')" ]
	# accuracy only: PRBEP is for two-class models
	[ "$output" = "Accuracy = 75% (3/4) (classification)" ]
}

@test "labels print plainly, non-integer labels with %.17g" {
	header frac.model "$LINEAR" 2 "0.1 -2.5" 1 -0.5 1
	echo '1 1:1' >>frac.model
	printf '%s\n' '0 1:2' '0 1:-2' >test.txt
	run --separate-stderr "$PRED" test.txt frac.model out
	assert_status 0
	[ "$(cat out)" = "$(printf '%s\n' 0.10000000000000001 -2.5)" ]
	# every row is unlabeled: no accuracy line
	assert_stdout_empty
}

@test "rbf model: decision value by hand" {
	# f(x) = 2 exp(-0.5 |x - (1, 1)|^2) - 1; x = (1, 1): 1; x = (1, 3):
	# 2 exp(-2) - 1 < 0; a feature the SV lacks (3:2) counts in |x - sv|^2.
	header rbf.model 'kernel rbf
degree 3
gamma 0.5
coef0 0' 2 "1 -1" 1 -1 1
	echo '2 1:1 2:1' >>rbf.model
	printf '%s\n' '1 1:1 2:1' '-1 1:1 2:3' '-1 1:1 2:1 3:2' >test.txt
	run --separate-stderr "$PRED" -q -d test.txt rbf.model out
	assert_status 0
	[ "$(sed -n 2p out)" = "1 1" ]
	awk 'NR == 3 { d = $2 - (2 * exp(-2) - 1); exit !($1 == -1 && d * d < 1e-24) }' out
	awk 'NR == 4 { d = $2 - (2 * exp(-2) - 1); exit !($1 == -1 && d * d < 1e-24) }' out
}

@test "accuracy counts labeled rows only; -u changes which rows those are" {
	binary_model
	binary_data
	# -u -1: the -1 rows are unlabeled; the 0 row is labeled with a class
	# the model does not know (a warning; counted as an error).
	run --separate-stderr "$PRED" -u -1 test.txt bin.model out
	assert_status 0
	[ "${lines[0]}" = "Accuracy = 50% (2/4) (classification)" ]
	# P = 3 of 4: top 3 are 2.5 (label 0), 1.5, 0.25: 2 positives
	[ "${lines[1]}" = "PRBEP = 66.67% (error rate at PRBEP = 50.00%)" ]
	assert_stderr_has "lapsvm-predict: warning: 1 labeled rows have a label that is not one of the model's classes"
	[ "$(cat out)" = "$(printf '%s\n' 1 1 1 -1 -1 1)" ]
}

@test "the model's unlabeled marker is the default: 0 can be a class" {
	header zero.model "$LINEAR" 2 "1 0" 1 -0.5 1
	echo '1 1:1' >>zero.model
	sed -i 's/^unlabeled_marker 0$/unlabeled_marker -99/' zero.model
	printf '%s\n' '1 1:1' '0 1:0' '-99 1:5' >test.txt
	run --separate-stderr "$PRED" test.txt zero.model out
	assert_status 0
	[ "$(cat out)" = "$(printf '%s\n' 1 0 1)" ]
	[ "${lines[0]}" = "Accuracy = 100% (2/2) (classification)" ]
	[ "${lines[1]}" = "PRBEP = 100.00% (error rate at PRBEP = 0.00%)" ]
}

@test "-q: no accuracy or PRBEP" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" -q test.txt bin.model out
	assert_status 0
	assert_stdout_empty
	assert_stderr_empty
	[ "$(wc -l <out)" -eq 6 ]
}

@test "test_file '-' reads standard input" {
	binary_model
	binary_data
	"$PRED" -q test.txt bin.model ref
	run --separate-stderr "$PRED" -q - bin.model out <test.txt
	assert_status 0
	assert_same out ref
}

@test "model_file '-' reads standard input" {
	binary_model
	binary_data
	"$PRED" -q test.txt bin.model ref
	run --separate-stderr "$PRED" -q test.txt - out <bin.model
	assert_status 0
	assert_same out ref
}

@test "output '-': predictions on stdout, accuracy on stderr" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" test.txt bin.model -
	assert_status 0
	[ "$output" = "$(printf '%s\n' 1 1 1 -1 -1 1)" ]
	assert_stderr_has "Accuracy = 60% (3/5) (classification)"
	assert_stderr_has "PRBEP = 66.67%"
	[ "$(ls -A)" = "$(printf 'bin.model\ntest.txt')" ]
}

@test "a successful run replaces an existing output file" {
	binary_model
	binary_data
	echo old >out
	run --separate-stderr "$PRED" -q test.txt bin.model out
	assert_status 0
	[ "$(head -n 1 out)" = 1 ]
	[ "$(wc -l <out)" -eq 6 ]
	assert_no_tmp_files .
}

# ------------------------------------------------------------ wrong files

@test "a model given as test_file: exit 1, says it is a model" {
	binary_model
	run --separate-stderr "$PRED" bin.model bin.model out
	assert_status 1
	assert_stderr_has "lapsvm-predict: bin.model: this is a lapsvm model, not test data"
	assert_stdout_empty
	[ ! -e out ]
}

@test "a data file given as model_file: exit 1, not a model file" {
	binary_data
	run --separate-stderr "$PRED" test.txt test.txt out
	assert_status 1
	assert_stderr_has "lapsvm-predict: test.txt:1: not a lapsvm model file (found '1 1:2', expected 'lapsvm_model 1'; this looks like a data or graph file)"
	[ ! -e out ]
}

@test "a graph file given as model_file: exit 1, not a model file" {
	binary_data
	printf '%s\n' '1 2:0.5' '2 1:0.5' >g.graph
	run --separate-stderr "$PRED" test.txt g.graph out
	assert_status 1
	assert_stderr_has "lapsvm-predict: g.graph:1: not a lapsvm model file (found '1 2:0.5'"
	[ ! -e out ]
}

@test "arguments swapped (model first): exit 1 with a clear message" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" bin.model test.txt out
	assert_status 1
	assert_stderr_has "test.txt:1: not a lapsvm model file"
	[ ! -e out ]
}

@test "missing model file: exit 1, cannot open" {
	binary_data
	run --separate-stderr "$PRED" test.txt nope.model out
	assert_status 1
	assert_stderr_has "lapsvm-predict: nope.model: cannot open: No such file or directory"
}

@test "missing test file: exit 1, cannot open" {
	binary_model
	run --separate-stderr "$PRED" nope.txt bin.model out
	assert_status 1
	assert_stderr_has "lapsvm-predict: nope.txt: cannot open: No such file or directory"
}

# ---------------------------------------------------------- malformed input
# Each: exit 1, one message "lapsvm-predict: FILE:LINE: ...", nothing on
# stdout, an existing output file untouched and no temporary file left.

# expect_error FILE LINE TEXT: run test.txt + bin.model into out (which
# holds "old"); the one message starts "lapsvm-predict: FILE:LINE: ".
expect_error() {
	echo old >out
	run --separate-stderr "$PRED" test.txt bin.model out
	assert_status 1
	assert_stdout_empty
	if [[ "$stderr" != "lapsvm-predict: $1:$2: "* ]]; then
		echo "expected 'lapsvm-predict: $1:$2: ...', got: $stderr"
		return 1
	fi
	assert_stderr_has "$3"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[ "$(cat out)" = old ]
	assert_no_tmp_files .
}

@test "model: bad gamma -> exit 1, file:line, output untouched" {
	binary_data
	binary_model
	sed -i 's/^gamma 1$/gamma nan/' bin.model
	expect_error bin.model 5 "bad gamma (found 'nan', expected a finite number)"
}

@test "model: unsupported version -> exit 1" {
	binary_data
	binary_model
	sed -i '1s/.*/lapsvm_model 2/' bin.model
	expect_error bin.model 1 "unsupported model version (found '2', expected 1)"
}

@test "model: missing key -> exit 1 naming it" {
	binary_data
	binary_model
	sed -i '/^nr_fn /d' bin.model
	expect_error bin.model 21 "missing key 'nr_fn'"
}

@test "model: fewer SV lines than nr_sv -> exit 1" {
	binary_data
	binary_model
	sed -i 's/^nr_sv 1$/nr_sv 2/' bin.model
	expect_error bin.model 23 "end of file after 1 SV lines (expected nr_sv = 2)"
}

@test "model: text after the last SV line -> exit 1" {
	binary_data
	binary_model
	echo '1 1:2' >>bin.model
	expect_error bin.model 24 "text after the last SV line"
}

@test "model: blank line at the end -> exit 1" {
	binary_data
	binary_model
	echo >>bin.model
	expect_error bin.model 24 "empty line after the last SV line"
}

@test "model: bad SV feature -> exit 1" {
	binary_data
	binary_model
	sed -i 's/^1 1:1$/1 1:1 1:2/' bin.model
	expect_error bin.model 23 "feature index 1 repeated"
}

@test "model: labels and nr_class disagree -> exit 1" {
	binary_data
	binary_model
	sed -i 's/^labels 1 -1$/labels 1 -1 2/' bin.model
	expect_error bin.model 18 "wrong number of labels (found 3, expected nr_class = 2)"
}

@test "model: another method's key (combine_mu, boost_rbfs, tsvm_r) -> exit 1 naming it and the models it belongs to" {
	binary_data
	binary_model
	sed -i 's/^nr_class 2$/combine_mu 0.01\nnr_class 2/' bin.model
	expect_error bin.model 17 "key 'combine_mu' in a lapsvm model (expected it only in a combination's model (solver combine))"
	binary_model
	sed -i 's/^nr_class 2$/tsvm_r 0.5\nnr_class 2/' bin.model
	expect_error bin.model 17 "key 'tsvm_r' in a lapsvm model (expected it only in a TSVM model (solver tsvm))"
	binary_model
	sed -i 's/^nr_class 2$/boost_rbfs 15\nnr_class 2/' bin.model
	expect_error bin.model 17 "key 'boost_rbfs' in a lapsvm model (expected it only in an RBF-boosted model"
}

@test "test data: bad value -> exit 1, file:line, output untouched" {
	binary_model
	binary_data
	printf '1 1:nan\n' >>test.txt
	expect_error test.txt 7 "bad value for feature 1 (found 'nan', expected a finite number)"
}

@test "test data: empty file -> exit 1" {
	binary_model
	: >test.txt
	echo old >out
	run --separate-stderr "$PRED" test.txt bin.model out
	assert_status 1
	assert_stderr_has "lapsvm-predict: test.txt: no data rows (empty file)"
	[ "$(cat out)" = old ]
}

@test "test data on stdin: error reported as (stdin):LINE" {
	binary_model
	printf '1 1:1\nabc\n' >bad.txt
	run --separate-stderr "$PRED" - bin.model out <bad.txt
	assert_status 1
	assert_stderr_has "lapsvm-predict: (stdin):2: bad label (found 'abc'"
	[ ! -e out ]
}

@test "output in a missing directory: exit 1, nothing written" {
	binary_model
	binary_data
	run --separate-stderr "$PRED" test.txt bin.model nodir/out
	assert_status 1
	assert_stderr_has "lapsvm-predict: nodir/out: cannot create a file beside it"
	assert_stdout_empty
}

# a test file with an extra or shifted column was predicted without a word,
# though with the RBF kernel every distance grows by the new features'
# squares (a 13-feature wine model on rows with a 20:5 appended: 92% -> 40%)
@test "features past the last of an RBF model's expansion points: a warning naming the file and the rows; none for the linear kernel or -q" {
	header rbf.model 'kernel rbf
degree 3
gamma 1
coef0 0' 2 "1 -1" 1 0 2
	printf '%s\n' '1 1:1' '-1 2:1' >>rbf.model
	printf '%s\n' '1 1:1' '-1 2:1 4:2' '1 1:1 3:0 5:1' >wide.txt
	run --separate-stderr "$PRED" wide.txt rbf.model out
	assert_status 0
	assert_stderr_has "lapsvm-predict: warning: wide.txt: 2 of the 3 rows have features past the last of the model's expansion points, 2 (from feature 4): the RBF kernel adds their squares to every distance, so all kernel values of those rows shrink (are the columns the training file's?)"
	run --separate-stderr "$PRED" -q wide.txt rbf.model out
	assert_stderr_empty
	# the rows within the model's features: no warning
	printf '%s\n' '1 1:1 2:3' '-1 2:1' >narrow.txt
	run --separate-stderr "$PRED" narrow.txt rbf.model out
	[[ "$stderr" != *"warning"* ]]
	# u'v does not see them
	binary_model
	run --separate-stderr "$PRED" wide.txt bin.model out
	[[ "$stderr" != *"warning"* ]]
}
