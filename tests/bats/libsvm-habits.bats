#!/usr/bin/env bats
# A LIBSVM user's habits with lapsvm's tools: svm-train's options that
# lapsvm-train lacks or spells with another meaning are usage errors that
# name LIBSVM's meaning (and the equivalent here, if any), never the help
# with exit 0 (-h 0) or 'too many arguments' (-w1 5, lapsvm-predict -b 1);
# files that LIBSVM's own tools and scikit-learn write beside LIBSVM data
# (zero-based indices, qid: tokens, svm-scale's range file) are named.
# The option checks need no LIBSVM; the SVM itself is compared with
# svm-train in libsvm-peer.bats.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED"
	enter_work
	small_data small.txt
	"$TRAIN" -q small.txt ok.model
}

# usage_error PROG TEXT: exit 2 naming TEXT, and nothing new written.
usage_error() {
	assert_usage_error "$2" "$1"
	[ -z "$(ls -A | grep -v -x -e small.txt -e ok.model)" ]
}

@test "lapsvm-train -s 0 (LIBSVM's C-SVC) names -s lapsvm -i 0" {
	run --separate-stderr "$TRAIN" -s 0 -c 10 small.txt m.model
	usage_error lapsvm-train "option -s: 0 is LIBSVM's C-SVC: here it is -s lapsvm -i 0"
}

@test "lapsvm-train -s 1..4 (nu-SVC, one-class, SVR) names LIBSVM's type" {
	local t name
	for t in 1:nu-SVC 2:"one-class SVM" 3:epsilon-SVR 4:nu-SVR; do
		name=${t#*:}
		run --separate-stderr "$TRAIN" -s "${t%%:*}" small.txt m.model
		usage_error lapsvm-train "option -s: ${t%%:*} is LIBSVM's $name, which lapsvm-train does not have"
	done
}

@test "lapsvm-train -h 0 (LIBSVM's shrinking) is a usage error, not the help with exit 0" {
	run --separate-stderr "$TRAIN" -h 0 -c 10 small.txt m.model
	usage_error lapsvm-train "-h takes no value: LIBSVM's -h 0 (shrinking) has no equivalent here"
	run --separate-stderr "$TRAIN" -c 10 -h 1 small.txt m.model
	usage_error lapsvm-train "-h takes no value: LIBSVM's -h 1 (shrinking)"
	# -h alone is still the help
	run --separate-stderr "$TRAIN" -h
	assert_status 0
	[[ "$output" == "Usage: lapsvm-train "* ]]
}

@test "lapsvm-train -b 1 names LIBSVM's probability estimates and lapsvm-predict -b" {
	run --separate-stderr "$TRAIN" -b 1 small.txt m.model
	usage_error lapsvm-train "unknown option -b: LIBSVM's probability estimates have no equivalent in lapsvm-train; lapsvm-predict -b"
}

@test "lapsvm-train -w1 5 (LIBSVM's class weight) is named, not 'too many arguments'" {
	run --separate-stderr "$TRAIN" -w1 5 small.txt m.model
	usage_error lapsvm-train "-w1 5 is LIBSVM's class weight (-wi weight): lapsvm-train has no per-class cost"
	# the model file would be the operand 'small.txt': still refused
	run --separate-stderr "$TRAIN" -w-1 2.5 small.txt
	usage_error lapsvm-train "-w-1 2.5 is LIBSVM's class weight"
	# the TSVM's own -w n, glued or not, is unchanged
	"$TRAIN" -q -s tsvm -w5 small.txt t1.model
	"$TRAIN" -q -s tsvm -w 5 small.txt t2.model
	cmp t1.model t2.model
}

@test "lapsvm-train -n 0.5 (LIBSVM's nu) is named as such" {
	run --separate-stderr "$TRAIN" -n 0.5 small.txt m.model
	usage_error lapsvm-train "option -n: 0.5 looks like LIBSVM's nu (nu-SVC)"
}

@test "lapsvm-predict -b 1 / -b 0 (svm-predict's) say -b takes no value" {
	run --separate-stderr "$PRED" -b 1 small.txt ok.model out.txt
	usage_error lapsvm-predict "-b takes no value: LIBSVM's -b 1 is -b alone here"
	run --separate-stderr "$PRED" -b 0 small.txt ok.model out.txt
	usage_error lapsvm-predict "-b takes no value: LIBSVM's -b 0 is lapsvm-predict without -b"
	# svm-predict's order, test model output, is lapsvm-predict's
	run --separate-stderr "$PRED" small.txt ok.model out.txt
	assert_status 0
	[ "$(wc -l <out.txt)" -eq 4 ]
}

@test "a zero-based file (scikit-learn's default) is named as one, with zero_based=False" {
	printf '1 0:0.5 1:2\n-1 0:-0.25 2:1\n' >z.txt
	local msg="z.txt:1: feature index out of range (found '0', expected 1..2147483647; indices start at 1: this file looks zero-based, as scikit-learn's dump_svmlight_file writes without zero_based=False)"
	run --separate-stderr "$TRAIN" z.txt m.model
	assert_fails lapsvm-train "$msg"
	run --separate-stderr "$PRED" z.txt ok.model out.txt
	assert_fails lapsvm-predict "$msg"
	[ ! -e m.model ] && [ ! -e out.txt ]
}

@test "qid: tokens (SVMlight ranking, dump_svmlight_file query_id) are named" {
	printf '1 qid:3 1:0.5\n-1 qid:3 1:-1\n' >q.txt
	run --separate-stderr "$TRAIN" q.txt m.model
	assert_fails lapsvm-train "q.txt:1: bad feature index (found 'qid:3', expected index:value; qid:n is SVMlight's query id (ranking data), not part of LIBSVM's format: delete the qid:n tokens)"
	[ ! -e m.model ]
}

@test "svm-scale's range file given as data is named as one" {
	# what svm-scale -s writes (x: feature ranges; y first with -y)
	printf 'x\n-1 1\n1 0 3\n2 0 3\n' >r.range
	run --separate-stderr "$TRAIN" r.range m.model
	assert_fails lapsvm-train "r.range:1: this looks like svm-scale's range file (svm-scale -s), not data (found 'x', expected 'label index:value ...'); svm-scale -r reads it"
	printf 'y\n-1 1\n-1 1\nx\n-1 1\n1 0 3\n' >y.range
	run --separate-stderr "$PRED" y.range ok.model out.txt
	assert_fails lapsvm-predict "y.range:1: this looks like svm-scale's range file"
	[ ! -e m.model ] && [ ! -e out.txt ]
}

@test "tools/lapsvm-easy (LIBSVM's easy.py) names a zero-based file and qid: tokens as the tools do" {
	local easy="$BATS_TEST_DIRNAME/../../tools/lapsvm-easy"
	need_tools "$easy" "$GB"
	printf '1 0:0.5 1:2\n-1 0:-0.25 2:1\n' >z.txt
	run --separate-stderr "$easy" z.txt
	assert_fails lapsvm-easy "z.txt:1: feature index out of range (found '0', expected 1..2147483647; indices start at 1: this file looks zero-based, as scikit-learn's dump_svmlight_file writes without zero_based=False)"
	printf '1 qid:3 1:0.5\n-1 qid:3 1:-1\n' >q.txt
	run --separate-stderr "$easy" q.txt
	assert_fails lapsvm-easy "q.txt:1: bad feature index (found 'qid:3', expected index:value; qid:n is SVMlight's query id (ranking data), not part of LIBSVM's format: delete the qid:n tokens)"
	[ -z "$(ls -A | grep -v -x -e small.txt -e ok.model -e z.txt -e q.txt)" ]
}

@test "README's first whole run, typed as written, predicts a labeled file and prints the accuracy it shows" {
	local readme="$BATS_TEST_DIRNAME/../../README.md" shown
	[ -f "$readme" ] || skip "README.md not found"
	need_tools "$GB" "$DG"
	# the indented block from its first lapsvm-datagen to its lapsvm-predict
	sed -n '/^    lapsvm-datagen -S 1 -l 1 moons/,/^    lapsvm-predict /p' "$readme" |
		sed 's/^    //' >run.sh
	grep -q '^lapsvm-predict ' run.sh
	shown=$(sed -n 's/^lapsvm-predict .*# //p' run.sh)
	[ -n "$shown" ]
	PATH="$BIN:$PATH" run --separate-stderr bash -e run.sh
	assert_status 0
	[[ "$output" == "$shown"* ]] || { echo "README shows '$shown', the run printed: $output"; false; }
	# every row of the predicted file is labeled, so the accuracy is over all 200
	[[ "$shown" == *"/200)"* ]]
}

@test "lapsvm-train -h gives -c's default, C = 100 (svm-train's is 1), which is -a 0.005's" {
	run --separate-stderr "$TRAIN" -h
	assert_status 0
	[[ "$output" == *"(default 100, -a's 0.005; svm-train's default is 1)"* ]]
	"$TRAIN" -q -i 0 small.txt a.model
	"$TRAIN" -q -i 0 -c 100 small.txt c.model
	awk '$1 == "gamma_A" { g[FILENAME] = $2 } END {
		d = g["a.model"] - g["c.model"]; if (d < 0) d = -d
		if (!(d <= 1e-12 * g["a.model"])) { print "gamma_A", g["a.model"], g["c.model"]; exit 1 } }' a.model c.model
}
