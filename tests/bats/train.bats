#!/usr/bin/env bats
# lapsvm-train: command line, exit codes, messages, the model file it
# writes (and what it records), the regularization scalings, graphs given or
# built, -o, -v, -u, multiclass, malformed input and crash-safe outputs.
# Exit codes: 0 ok, 1 failure, 2 usage.  Every test uses small data (the
# 200-point two moons with one label per class) and runs well under a second.

load helpers

# Replaces the helpers' setup: this file needs all four tools.
setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
}

# ------------------------------------------------------------------ help

@test "-h prints usage on stdout and exits 0" {
	run --separate-stderr "$TRAIN" -h
	assert_status 0
	[[ "$output" == "Usage: lapsvm-train [options] training_set_file [model_file]"* ]]
	[[ "$output" == *"-s solver"* && "$output" == *"-c C"* && "$output" == *"-G file"* ]]
	[[ "$output" == *"Exit status: 0 success, 1 failure"*"2 usage"* ]]
	assert_stderr_empty
	[ -z "$(ls -A)" ]
}

# ----------------------------------------------------------- usage errors

@test "no arguments: exit 2, missing training_set_file" {
	run --separate-stderr "$TRAIN"
	assert_train_usage "missing training_set_file"
}

@test "unknown option: exit 2 naming it" {
	moons1
	run --separate-stderr "$TRAIN" -9 m.txt
	assert_train_usage "unknown option -9"  # every letter but b is taken (-f: warm start, -V: Laplacian weights)
}

@test "option missing its value: exit 2" {
	moons1
	run --separate-stderr "$TRAIN" m.txt -k
	assert_train_usage "option -k needs a value"
}

@test "three arguments: exit 2, too many" {
	moons1
	run --separate-stderr "$TRAIN" m.txt a.model extra
	assert_train_usage "too many arguments"
	[ ! -e a.model ] && [ ! -e extra ]
}

@test "-t 5: exit 2, kernel type out of range" {
	moons1
	run --separate-stderr "$TRAIN" -t 5 m.txt
	assert_bad_option t "out of range"
}

@test "-t abc: exit 2, not an integer" {
	moons1
	run --separate-stderr "$TRAIN" -t abc m.txt
	assert_bad_option t "'abc' is not an integer"
}

@test "-d 0: exit 2, degree out of range" {
	moons1
	run --separate-stderr "$TRAIN" -d 0 m.txt
	assert_bad_option d "out of range"
}

@test "-g 0: exit 2, gamma must be > 0" {
	moons1
	run --separate-stderr "$TRAIN" -g 0 m.txt
	assert_bad_option g "out of range"
}

@test "-g nan: exit 2, not finite" {
	moons1
	run --separate-stderr "$TRAIN" -g nan m.txt
	assert_bad_option g "'nan' is not finite"
}

# A positive value that underflows a double: to 0 (1e-400) or to a
# subnormal number (1e-310, fewer significant bits).  -j, -W and -p took a
# subnormal without a word; the options of one range start at DBL_MIN.
@test "a value that must be positive and underflows (1e-400, subnormal 1e-310) or overflows (1e400): exit 2 naming the option and the value" {
	moons1
	local o
	for o in a A c g e C U Z; do
		run --separate-stderr "$TRAIN" -$o 1e-400 m.txt
		assert_bad_option $o "'1e-400' out of range \(expected a number in \[2.22507e-308, "
		run --separate-stderr "$TRAIN" -$o 1e-310 m.txt
		assert_bad_option $o "'1e-310' out of range \(expected a number in \[2.22507e-308, "
		run --separate-stderr "$TRAIN" -$o 1e400 m.txt
		assert_bad_option $o "'1e400' is out of range"
	done
	run --separate-stderr "$TRAIN" -s boost -j 1e-400 m.txt
	assert_bad_option j "'1e-400' is out of range \(expected 0 < nu <= 1\)"
	run --separate-stderr "$TRAIN" -s boost -j 1e-310 m.txt
	assert_bad_option j "'1e-310' underflows to a subnormal number \(expected 0 < nu <= 1, at least 2.22507e-308\)"
	run --separate-stderr "$TRAIN" -y -W 1:1e-310 m.txt
	assert_bad_option W "weight '1e-310' underflows to a subnormal number \(expected a finite number > 0, at least 2.22507e-308\)"
	run --separate-stderr "$TRAIN" -p 1e-310 m.txt
	assert_bad_option p "'1e-310' underflows to a subnormal number \(expected 0 < r < 1, at least 2.22507e-308\)"
	# the smallest normal double is a value
	run --separate-stderr "$TRAIN" -q -s boost -j 2.3e-308 -B 2 m.txt
	assert_status 0
}

@test "-a -1: exit 2, out of range" {
	moons1
	run --separate-stderr "$TRAIN" -a -1 m.txt
	assert_bad_option a "out of range"
}

@test "-A 0: exit 2, gamma_A must be > 0" {
	moons1
	run --separate-stderr "$TRAIN" -A 0 m.txt
	assert_bad_option A "out of range"
}

@test "-c 0: exit 2, C must be > 0" {
	moons1
	run --separate-stderr "$TRAIN" -c 0 m.txt
	assert_bad_option c "out of range"
}

@test "-i -1: exit 2, out of range" {
	moons1
	run --separate-stderr "$TRAIN" -i -1 m.txt
	assert_bad_option i "out of range"
}

@test "-I abc: exit 2, not a number" {
	moons1
	run --separate-stderr "$TRAIN" -I abc m.txt
	assert_bad_option I "'abc' is not a number"
}

@test "-P 0: exit 2, Laplacian power out of range" {
	moons1
	run --separate-stderr "$TRAIN" -P 0 m.txt
	assert_bad_option P "out of range"
}

@test "-e 0: exit 2, tolerance must be > 0" {
	moons1
	run --separate-stderr "$TRAIN" -e 0 m.txt
	assert_bad_option e "out of range"
}

@test "-v 1: exit 2, at least 2 folds" {
	moons1
	run --separate-stderr "$TRAIN" -v 1 m.txt
	assert_bad_option v "out of range"
}

@test "-v x: exit 2, not an integer" {
	moons1
	run --separate-stderr "$TRAIN" -v x m.txt
	assert_bad_option v "'x' is not an integer"
}

@test "-k 0: exit 2, out of range" {
	moons1
	run --separate-stderr "$TRAIN" -k 0 m.txt
	assert_bad_option k "out of range"
}

@test "-S -1: exit 2, seed out of range" {
	moons1
	run --separate-stderr "$TRAIN" -S -1 m.txt
	assert_bad_option S "out of range"
}

@test "-u nan: exit 2, not finite" {
	moons1
	run --separate-stderr "$TRAIN" -u nan m.txt
	assert_bad_option u "'nan' is not finite"
}

@test "-s foo: exit 2, unknown solver" {
	moons1
	run --separate-stderr "$TRAIN" -s foo m.txt
	assert_train_usage "option -s: unknown solver 'foo' (expected lapsvm, laprls, tsvm, cluster, combine, labelaware, boost or kdesign)"
}

@test "-L foo: exit 2, unknown Laplacian" {
	moons1
	run --separate-stderr "$TRAIN" -L foo m.txt
	assert_train_usage "option -L: unknown Laplacian 'foo'"
}

@test "-k with -G: exit 2, -k does not apply to a given graph" {
	moons1
	"$GB" -q m.txt m.graph
	run --separate-stderr "$TRAIN" -k 3 -G m.graph m.txt
	assert_train_usage "-k sets the graph built here; it does not apply with -G"
}

@test "-o with -v: the best model's transductive predictions, as without -v" {
	moons m.txt -S 1 -l 10
	run --separate-stderr "$TRAIN" -q -o p.txt -v 2 m.txt
	assert_status 0
	"$TRAIN" -q -o q.txt m.txt q.model
	assert_same p.txt q.txt
	assert_same m.txt.model q.model
}

@test "-o - with the model on standard output: exit 2, nothing mixed" {
	moons1
	run --separate-stderr "$TRAIN" -o - m.txt -
	assert_train_usage "-o - and the model on standard output would mix the two"
	[ -z "$output" ]
}

@test "a label that underflows to 0 (1e-400) is refused, not made unlabeled" {
	printf '1e-400 1:1\n1 1:2\n-1 1:3\n' >u.txt
	run --separate-stderr "$TRAIN" u.txt u.model
	assert_status 1
	assert_stderr_has "u.txt:1: bad label (found '1e-400', expected a label a double can hold: this one underflows to 0"
	[ ! -e u.model ]
	# a zero spelled otherwise is still the marker
	printf '0.0e5 1:1\n1 1:2\n-1 1:3\n' >z.txt
	run --separate-stderr "$TRAIN" -q z.txt z.model
	assert_status 0
}

@test "data and graph both '-': exit 2" {
	: >empty.txt
	run --separate-stderr "$TRAIN" -G - - out.model <empty.txt
	assert_train_usage "only one of the data, the graphs, a graph list, the weights and the starting model (-f) can be standard input"
	[ ! -e out.model ]
}

# ---------------------------------------------------------- model outputs

@test "model goes to TRAINING_FILE.model by default" {
	moons1
	run --separate-stderr "$TRAIN" m.txt
	assert_status 0
	assert_stdout_empty
	[ "$(ls -A)" = "$(printf 'm.txt\nm.txt.model')" ]
	[ "$(head -n 1 m.txt.model)" = "lapsvm_model 1" ]
}

@test "explicit model_file: written there, no default file" {
	moons1
	mkdir sub
	run --separate-stderr "$TRAIN" m.txt sub/out.model
	assert_status 0
	assert_stdout_empty
	[ ! -e m.txt.model ]
	[ "$(head -n 1 sub/out.model)" = "lapsvm_model 1" ]
	assert_no_tmp_files sub
}

@test "model_file '-': the model on stdout, no file" {
	moons1
	"$TRAIN" -q m.txt ref.model
	run --separate-stderr "$TRAIN" -q m.txt -
	assert_status 0
	assert_stderr_empty
	[ "${lines[0]}" = "lapsvm_model 1" ]
	[ "$output" = "$(cat ref.model)" ]
	[ "$(ls -A)" = "$(printf 'm.txt\nref.model')" ]
}

@test "training data '-' reads stdin; the model goes to stdout" {
	moons1
	"$TRAIN" -q m.txt ref.model
	run --separate-stderr "$TRAIN" -q - <m.txt
	assert_status 0
	[ "${lines[0]}" = "lapsvm_model 1" ]
	[ "$output" = "$(cat ref.model)" ]
	[ "$(ls -A)" = "$(printf 'm.txt\nref.model')" ]
}

@test "training data '-' with a model_file writes that file" {
	moons1
	"$TRAIN" -q m.txt ref.model
	run --separate-stderr "$TRAIN" -q - out.model <m.txt
	assert_status 0
	assert_stdout_empty
	assert_same out.model ref.model
}

@test "the model records solver, kernel, gammas, Laplacian, labels, bias, nr_sv" {
	moons1
	run --separate-stderr "$TRAIN" m.txt
	assert_status 0
	local f=m.txt.model
	[ "$(key $f solver)" = lapsvm ]
	[ "$(key $f kernel)" = rbf ]
	[ "$(key $f degree)" = 3 ]
	# default: 1 / the mean squared distance between distinct rows
	local want
	want=$(awk '{ split($2, a, ":"); split($3, b, ":"); x[NR] = a[2]; y[NR] = b[2] }
		END { for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++)
			s += (x[i] - x[j])^2 + (y[i] - y[j])^2
		      printf "%.10g", NR * (NR - 1) / s }' m.txt)
	assert_close "$(key $f gamma)" "$want" 1e-9
	[[ "$stderr" == *"RBF width from the data: -g "* ]]
	[ "$(key $f coef0)" = 0 ]
	[ -n "$(key $f gamma_A)" ] && [ -n "$(key $f gamma_I)" ]
	[ "$(key $f laplacian)" = normalized ]
	[ "$(key $f laplacian_power)" = 1 ]
	[ "$(key $f eps)" = 0.001 ]
	[ "$(key $f l)" = 2 ] && [ "$(key $f u)" = 198 ]
	[ "$(key $f unlabeled_marker)" = 0 ]
	[[ "$(key $f graph)" == "built knn k=6 euclidean heat t="*" union" ]]
	[ "$(key $f nr_class)" = 2 ]
	[ "$(key $f labels)" = "1 -1" ]
	[ "$(key $f nr_fn)" = 1 ]
	[[ "$(key $f bias)" =~ ^-?[0-9.e+-]+$ ]]
	# LapSVM expands over all l + u rows (representer theorem)
	[ "$(key $f nr_sv)" = 200 ]
	[ "$(sv_lines $f | wc -l)" -eq 200 ]
}

@test "options are recorded: -s -t -d -g -r -L -P -e" {
	moons1
	run --separate-stderr "$TRAIN" -q -s laprls -t 1 -d 2 -g 0.25 -r 1.5 \
		-L unnormalized -P 2 -e 0.01 m.txt out.model
	assert_status 0
	[ "$(key out.model solver)" = laprls ]
	[ "$(key out.model kernel)" = polynomial ]
	[ "$(key out.model degree)" = 2 ]
	[ "$(key out.model gamma)" = 0.25 ]
	[ "$(key out.model coef0)" = 1.5 ]
	[ "$(key out.model laplacian)" = unnormalized ]
	[ "$(key out.model laplacian_power)" = 2 ]
	[ "$(key out.model eps)" = 0.01 ]
}

# -g, -d and -r that the kernel does not read were taken without a word:
# a warning (LIBSVM's scripts pass them whatever -t, so no usage error).
@test "-g with the linear kernel, -d and -r with the RBF kernel: a warning that they have no effect, the model trained" {
	moons1
	run --separate-stderr "$TRAIN" -t 0 -g 0.5 m.txt lin.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: -g has no effect with -t 0 (linear kernel)"
	[ "$(key lin.model kernel)" = linear ]
	run --separate-stderr "$TRAIN" -t 2 -d 2 -r 1 m.txt rbf.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: -d and -r have no effect with -t 2 (RBF kernel)"
	run --separate-stderr "$TRAIN" -t 0 -g 1 -d 2 -r 1 m.txt lin.model
	assert_stderr_has "lapsvm-train: warning: -g, -d and -r have no effect with -t 0 (linear kernel)"
	# -q silences it; the polynomial kernel reads all three; -g is the RBF's
	run --separate-stderr "$TRAIN" -q -t 0 -g 1 -d 2 -r 1 m.txt lin.model
	assert_status 0
	assert_stderr_empty
	run --separate-stderr "$TRAIN" -t 1 -g 0.5 -d 2 -r 1 m.txt poly.model
	[[ "$stderr" != *"no effect"* ]]
	run --separate-stderr "$TRAIN" -t 2 -g 0.5 m.txt rbf.model
	[[ "$stderr" != *"no effect"* ]]
}

@test "-g, -d or -r with a precomputed kernel (-t 4): a warning that they have no effect" {
	moons1
	"$TRAIN" -q -x k.txt m.txt
	run --separate-stderr "$TRAIN" -t 4 -i 0 -g 2 k.txt k.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: -g has no effect with -t 4 (precomputed kernel)"
	run --separate-stderr "$TRAIN" -t 4 -i 0 -r 1 k.txt k.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: -r has no effect with -t 4 (precomputed kernel)"
}

# ------------------------------------------------------ regularization
# Data: 200 moons with 5 labels per class: l = 10, l + u = 200.

@test "defaults: gamma_A = 0.005 / l, gamma_I = 0.045 (l+u)^2 / l" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_A)" "$(awk 'BEGIN { print 0.005 / 10 }')"
	assert_close "$(key m.txt.model gamma_I)" "$(awk 'BEGIN { print 0.045 * 200 * 200 / 10 }')"
}

@test "-a: gamma_A = a / l" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q -a 0.3 m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_A)" "$(awk 'BEGIN { printf "%.17g", 0.3 / 10 }')"
}

@test "-A: gamma_A as given" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q -A 0.7 m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_A)" 0.7
}

@test "-c: gamma_A = 1 / (2 C l)" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q -c 4 m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_A)" "$(awk 'BEGIN { printf "%.17g", 1 / (2 * 4 * 10) }')"
}

@test "-i: gamma_I = i (l+u)^2 / l" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q -i 0.5 m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_I)" "$(awk 'BEGIN { printf "%.17g", 0.5 * 200 * 200 / 10 }')"
}

@test "-I: gamma_I as given" {
	moons m.txt -S 1 -l 5
	run --separate-stderr "$TRAIN" -q -I 2.5 m.txt
	assert_status 0
	assert_close "$(key m.txt.model gamma_I)" 2.5
}

# ----------------------------------------------------------------- graphs

@test "no -G and gamma_I > 0: says on stderr that it builds a graph" {
	moons1
	run --separate-stderr "$TRAIN" m.txt
	assert_status 0
	assert_stderr_has "lapsvm-train: no graph given (-G): built a 6-NN graph (euclidean, heat weights) over the 200 rows"
	assert_stderr_has "lapsvm-train: LapSVM: l = 2, u = 198, 2 classes"
}

@test "-k sets the neighbours of the graph built here" {
	moons1
	run --separate-stderr "$TRAIN" -k 3 m.txt
	assert_status 0
	assert_stderr_has "built a 3-NN graph"
	[[ "$(key m.txt.model graph)" == "built knn k=3 "* ]]
	# the same model as with graph-build -k 3's graph
	"$GB" -q -k 3 m.txt k3.graph
	"$TRAIN" -q -G k3.graph m.txt g.model
	[ "$(sv_lines g.model)" = "$(sv_lines m.txt.model)" ]
}

@test "-i 0: SVM, no graph built, only the labeled rows are expansion points" {
	moons1
	run --separate-stderr "$TRAIN" -i 0 m.txt
	assert_status 0
	[[ "$stderr" != *"graph"* ]]
	assert_stderr_has "lapsvm-train: SVM: l = 2, u = 198, 2 classes, gamma_A = 0.0025, gamma_I = 0, 2 expansion points"
	[ "$(key m.txt.model gamma_I)" = 0 ]
	[ -z "$(key m.txt.model graph)" ]
	[ "$(key m.txt.model nr_sv)" = 2 ]
	# the two expansion points are the two labeled rows
	[ "$(sv_lines m.txt.model | cut -d' ' -f2-)" = "$(awk '$1 != 0' m.txt | cut -d' ' -f2-)" ]
}

@test "-s laprls -i 0: RLS over the labeled rows only" {
	moons1
	run --separate-stderr "$TRAIN" -s laprls -i 0 m.txt
	assert_status 0
	assert_stderr_has "lapsvm-train: RLS: l = 2, u = 198"
	[ "$(key m.txt.model nr_sv)" = 2 ]
}

@test "-G with a graph-build graph from a pipe" {
	moons1
	run --separate-stderr bash -c "'$GB' -q m.txt - | '$TRAIN' -G - m.txt g.model"
	assert_status 0
	[ "$(key g.model graph)" = "file -" ]
	[ "$(key g.model nr_sv)" = 200 ]
	# graph-build's defaults are the graph built here: same solution
	"$TRAIN" -q m.txt built.model
	[ "$(sv_lines g.model)" = "$(sv_lines built.model)" ]
}

@test "-G file: the model names it" {
	moons1
	"$GB" -q m.txt m.graph
	run --separate-stderr "$TRAIN" -q -G m.graph m.txt
	assert_status 0
	assert_stderr_empty
	[ "$(key m.txt.model graph)" = "file m.graph" ]
}

@test "-G graph with fewer rows than the data: exit 1" {
	moons1
	"$GB" -q m.txt m.graph
	head -n 199 m.graph >short.graph
	run --separate-stderr "$TRAIN" -G short.graph m.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: short.graph: 199 rows, but the data has 200"
	[ ! -e m.txt.model ]
}

@test "-G graph with more rows than the data: exit 1, file:line" {
	small_data small.txt
	printf '%s\n' '1 2:0.5' '2 1:0.5' '3' '4' '5' >long.graph
	run --separate-stderr "$TRAIN" -G long.graph small.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: long.graph:5: more rows than the data's 4"
	[ ! -e small.txt.model ]
}

@test "-G asymmetric graph: exit 1, file:line" {
	small_data small.txt
	printf '%s\n' '1 2:0.5' '2 1:0.6' '3' '4' >asym.graph
	run --separate-stderr "$TRAIN" -G asym.graph small.txt
	assert_status 1
	assert_stderr_regex "^lapsvm-train: asym.graph:[0-9]+: .*symmetric"
	[ ! -e small.txt.model ]
}

@test "-G negative weight: exit 1, file:line" {
	small_data small.txt
	printf '%s\n' '1 2:-0.5' '2 1:-0.5' '3' '4' >neg.graph
	run --separate-stderr "$TRAIN" -G neg.graph small.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: neg.graph:1: weight -0.5 for column 2 is not positive"
	[ ! -e small.txt.model ]
}

@test "-G missing file: exit 1, cannot open" {
	moons1
	run --separate-stderr "$TRAIN" -G nope.graph m.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: nope.graph: cannot open: No such file or directory"
	[ ! -e m.txt.model ]
}

# --------------------------------------------------------------------- -o

@test "-o: header and one line per unlabeled row, as lapsvm-predict -d" {
	moons1
	run --separate-stderr "$TRAIN" -q -o pred.txt m.txt
	assert_status 0
	[ -e m.txt.model ]
	[ "$(head -n 1 pred.txt)" = "labels 1" ]
	[ "$(wc -l <pred.txt)" -eq 199 ]
	# "label f" with the label the sign of f gives
	awk 'NR > 1 { if (NF != 2 || ($2 > 0) != ($1 == 1) || ($1 != 1 && $1 != -1)) exit 1 }' pred.txt
	awk '$1 == 0' m.txt >unl.txt
	"$PRED" -q -d unl.txt m.txt.model ref.txt
	assert_same_predictions pred.txt ref.txt
	assert_no_tmp_files .
}

# --------------------------------------------------------------------- -v

@test "-v 2: prints the cross validation accuracy and hinge loss, writes the model" {
	moons m.txt -S 1 -l 10
	run --separate-stderr "$TRAIN" -v 2 m.txt
	assert_status 0
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^"Cross Validation Accuracy = "[0-9.]+"% ("[0-9]+"/20)"$ ]]
	[[ "${lines[1]}" =~ ^"Cross Validation Scaled Hinge Loss = "[0-9.e+-]+$ ]]
	# the model is the one trained without -v (a single setting)
	"$TRAIN" -q m.txt plain.model
	assert_same m.txt.model plain.model
}

@test "-S makes -v deterministic; the seed changes the folds" {
	moons m.txt -S 1 -e 0.3 -l 10
	a=$("$TRAIN" -q -i 0 -v 3 -S 3 m.txt)
	b=$("$TRAIN" -q -i 0 -v 3 -S 3 m.txt)
	[ -n "$a" ] && [ "$a" = "$b" ]
	local s all=""
	for s in 1 2 3 4 5 6 7; do
		all+="$("$TRAIN" -q -i 0 -v 3 -S "$s" m.txt)"$'\n'
	done
	[ "$(printf '%s' "$all" | sort -u | wc -l)" -gt 1 ]
}

@test "-v with more folds than a class has labeled rows: exit 2" {
	moons m.txt -S 1 -l 10
	run --separate-stderr "$TRAIN" -q -v 30 m.txt
	assert_train_usage "-v 30: class 1 has only 10 labeled rows (expected at most 10 folds)"
}

# ------------------------------------------------------------ messages

@test "-q: nothing on stderr" {
	moons1
	run --separate-stderr "$TRAIN" -q m.txt
	assert_status 0
	assert_stderr_empty
	assert_stdout_empty
	[ -e m.txt.model ]
}

# ------------------------------------------------------------ labels

@test "no labeled rows: exit 1, says so" {
	moons1
	awk '{ $1 = 0; print }' m.txt >none.txt
	run --separate-stderr "$TRAIN" none.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: none.txt: no labeled rows (every label is the unlabeled marker 0; see -u)"
	[ ! -e none.txt.model ]
}

@test "one labeled class only: exit 1" {
	moons1
	awk '$1 == -1 { $1 = 0 } { print }' m.txt >one.txt
	run --separate-stderr "$TRAIN" one.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: one.txt: the labeled rows have only one class (1): need at least two; 199 rows carry the unlabeled marker 0 (if 0 is a class, -u sets another marker; with -s combine, -Y declares both classes)"
	[ ! -e one.txt.model ]
}

@test "-u marker: those rows are unlabeled, 0 becomes a class" {
	printf '%s\n' '1 1:0 2:0' '1 1:1 2:0' '0 1:0 2:2' '-1 1:3 2:3' \
		'-1 1:3 2:2' >u.txt
	run --separate-stderr "$TRAIN" -q -i 0 -u -1 u.txt
	assert_status 0
	[ "$(key u.txt.model unlabeled_marker)" = -1 ]
	[ "$(key u.txt.model l)" = 3 ] && [ "$(key u.txt.model u)" = 2 ]
	[ "$(key u.txt.model labels)" = "1 0" ]
	# by default 0 is the marker
	"$TRAIN" -q -i 0 u.txt d.model
	[ "$(key d.model l)" = 4 ] && [ "$(key d.model labels)" = "1 -1" ]
}

@test "class order: first appearance, but +1 before -1" {
	printf '%s\n' '2 1:0' '1 1:1' '0 1:2' '2 1:0.1' >a.txt
	printf '%s\n' '-1 1:0' '1 1:1' '0 1:2' >b.txt
	"$TRAIN" -q -i 0 a.txt
	"$TRAIN" -q -i 0 b.txt
	[ "$(key a.txt.model labels)" = "2 1" ]
	[ "$(key b.txt.model labels)" = "1 -1" ]
}

@test "three classes: nr_class 3, nr_fn 3, one-vs-rest functions" {
	# three separated clusters, two labeled rows each, 24 unlabeled
	awk 'BEGIN { for (i = 0; i < 30; i++) { c = i % 3
		printf "%d 1:%g 2:%g\n", i < 6 ? c + 1 : 0,
			(c == 1) * 3 + (i % 5) * 0.1, (c == 2) * 3 + int(i / 5) * 0.1 } }' >three.txt
	run --separate-stderr "$TRAIN" three.txt
	assert_status 0
	assert_stderr_has "LapSVM: l = 6, u = 24, 3 classes"
	[ "$(key three.txt.model nr_class)" = 3 ]
	[ "$(key three.txt.model labels)" = "1 2 3" ]
	[ "$(key three.txt.model nr_fn)" = 3 ]
	[ "$(key three.txt.model bias | wc -w)" -eq 3 ]
	# every SV line: three coefficients, then index:value pairs
	sv_lines three.txt.model | awk '{ for (f = 1; f <= 3; f++) if ($f ~ /:/) exit 1
		for (f = 4; f <= NF; f++) if ($f !~ /:/) exit 1 }'
	# all 30 rows, with their true class, are predicted right
	awk '{ if ($1 == 0) $1 = (NR - 1) % 3 + 1; print }' three.txt >full.txt
	run --separate-stderr "$PRED" full.txt three.txt.model out
	assert_status 0
	[ "${lines[0]}" = "Accuracy = 100% (30/30) (classification)" ]
}

# ------------------------------------------------ bad input and outputs

@test "malformed data: exit 1, file:line, model untouched, no temp files" {
	printf '%s\n' '1 1:0 2:0' '1 1:1 2:x' '-1 1:0 2:2' >bad.txt
	echo old >bad.txt.model
	echo old >out.model
	run --separate-stderr "$TRAIN" bad.txt
	assert_status 1
	[[ "$stderr" == "lapsvm-train: bad.txt:2: "* ]]
	assert_stderr_has "bad value for feature 2 (found 'x', expected a number)"
	run --separate-stderr "$TRAIN" bad.txt out.model
	assert_status 1
	[[ "$stderr" == "lapsvm-train: bad.txt:2: "* ]]
	[ "$(cat bad.txt.model)" = old ] && [ "$(cat out.model)" = old ]
	assert_no_tmp_files .
}

@test "missing data file: exit 1, cannot open" {
	run --separate-stderr "$TRAIN" nope.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: nope.txt: cannot open: No such file or directory"
	[ -z "$(ls -A)" ]
}

@test "empty data on stdin: exit 1" {
	: >empty.txt
	run --separate-stderr "$TRAIN" - <empty.txt
	assert_status 1
	assert_stderr_has "lapsvm-train: (stdin): no data rows"
	assert_stdout_empty
}

@test "model directory does not exist: exit 1" {
	small_data small.txt
	run --separate-stderr "$TRAIN" -q small.txt nodir/x.model
	assert_status 1
	assert_stderr_has "lapsvm-train: nodir/x.model: "
	[ ! -e nodir ]
}

@test "model directory not writable: exit 1, nothing left" {
	[ "$(id -u)" -ne 0 ] || skip "running as root: permissions do not apply"
	small_data small.txt
	mkdir ro
	chmod 555 ro
	run --separate-stderr "$TRAIN" -q small.txt ro/x.model
	chmod 755 ro
	assert_status 1
	assert_stderr_has "lapsvm-train: ro/x.model: "
	[ -z "$(ls -A ro)" ]
}

@test "model_file a FIFO: the model is written into it, not over it" {
	# The crash-safe rename must not replace what is not a regular file
	# (a FIFO, /dev/null, a device): it writes into it instead.
	small_data small.txt
	mkfifo out.fifo
	timeout 20 cat out.fifo >got &
	local reader=$!
	run --separate-stderr "$TRAIN" -q small.txt out.fifo
	if [ "$status" -ne 0 ] || [ ! -p out.fifo ]; then
		kill "$reader" 2>/dev/null
		wait "$reader" 2>/dev/null || true
	fi
	if [ ! -p out.fifo ]; then
		echo "out.fifo was replaced: $(ls -l out.fifo)"
		return 1
	fi
	assert_status 0
	wait "$reader" || true
	[ "$(head -n 1 got)" = "lapsvm_model 1" ]
	assert_no_tmp_files .
}

@test "a successful run replaces an existing model" {
	moons1
	echo old >m.txt.model
	run --separate-stderr "$TRAIN" -q m.txt
	assert_status 0
	[ "$(head -n 1 m.txt.model)" = "lapsvm_model 1" ]
	assert_no_tmp_files .
}

@test "replacing a model keeps its mode; a new model follows the umask" {
	moons1
	echo old >m.txt.model
	chmod 600 m.txt.model
	umask 022
	run --separate-stderr "$TRAIN" -q m.txt
	assert_status 0
	[ "$(head -n 1 m.txt.model)" = "lapsvm_model 1" ]
	[ "$(stat -c %a m.txt.model)" = 600 ]
	umask 027
	run --separate-stderr "$TRAIN" -q m.txt new.model
	assert_status 0
	[ "$(stat -c %a new.model)" = 640 ]
	assert_no_tmp_files .
}

@test "a link to a file not yet there: the model goes to the target, the link is kept" {
	moons1
	mkdir d
	ln -s ../target.model d/link.model  # relative to the link's directory
	ln -s d/link.model chain.model      # a link to that link
	run --separate-stderr "$TRAIN" -q m.txt chain.model
	assert_status 0
	[ -L chain.model ]
	[ -L d/link.model ]
	[ ! -L target.model ]
	[ "$(head -n 1 target.model)" = "lapsvm_model 1" ]
	assert_no_tmp_files .
	assert_no_tmp_files d
}

@test "an output name of 255 bytes is written (the temporary name is shortened)" {
	moons1
	local name
	name=$(printf 'a%.0s' $(seq 249)).model
	[ "${#name}" -eq 255 ]
	echo old >"$name"
	run --separate-stderr "$TRAIN" -q m.txt "$name"
	assert_status 0
	[ "$(head -n 1 "$name")" = "lapsvm_model 1" ]
	name=b${name#a}  # a new file too
	run --separate-stderr "$TRAIN" -q m.txt "$name"
	assert_status 0
	[ "$(head -n 1 "$name")" = "lapsvm_model 1" ]
	assert_no_tmp_files .
}

# ------------------------------------------------ training and prediction

@test "train | predict: an Accuracy line over the labeled test rows" {
	moons1
	moons full.txt -S 1
	run --separate-stderr bash -c "'$TRAIN' -q m.txt - | '$PRED' full.txt - out"
	assert_status 0
	[[ "${lines[0]}" =~ ^"Accuracy = "[0-9.]+"% ("[0-9]+"/200) (classification)"$ ]]
	[ "$(wc -l <out)" -eq 200 ]
}

@test "determinism: two runs give byte-identical models" {
	moons1
	"$TRAIN" -q m.txt a.model
	"$TRAIN" -q m.txt b.model
	assert_same a.model b.model
	"$TRAIN" -q -s laprls m.txt c.model
	"$TRAIN" -q -s laprls m.txt d.model
	assert_same c.model d.model
}

@test "LapRLS and LapSVM both train and predict" {
	moons1
	moons full.txt -S 1
	run --separate-stderr "$TRAIN" -s laprls m.txt rls.model
	assert_status 0
	assert_stderr_has "lapsvm-train: LapRLS: l = 2, u = 198"
	run --separate-stderr "$TRAIN" -s lapsvm m.txt svm.model
	assert_status 0
	assert_stderr_has "lapsvm-train: LapSVM: l = 2, u = 198"
	[ "$(key rls.model solver)" = laprls ] && [ "$(key svm.model solver)" = lapsvm ]
	! cmp -s rls.model svm.model
	local s
	for s in rls svm; do
		run --separate-stderr "$PRED" full.txt $s.model out
		assert_status 0
		[[ "${lines[0]}" == "Accuracy = "* ]]
	done
}

@test "kernels -t 0, 1, 2 all train and predict" {
	moons1
	moons full.txt -S 1
	local t names=(linear polynomial rbf)
	for t in 0 1 2; do
		run --separate-stderr "$TRAIN" -q -t $t m.txt k$t.model
		assert_status 0
		[ "$(key k$t.model kernel)" = "${names[$t]}" ]
		run --separate-stderr "$PRED" full.txt k$t.model out
		assert_status 0
		[[ "${lines[0]}" == "Accuracy = "* ]]
	done
	! cmp -s k0.model k1.model && ! cmp -s k1.model k2.model
}

# ------------------------------------------------------------ -M (LapRLS solver)

@test "-M pcg and -M pcg-early train LapRLS with the direct solver's labels" {
	moons1
	"$TRAIN" -q -s laprls -t 2 -g 4 -M direct -o direct.pred m.txt direct.model
	run --separate-stderr "$TRAIN" -s laprls -t 2 -g 4 -M pcg -o pcg.pred m.txt pcg.model
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ PCG:\ [0-9]+\ iterations ]]
	[ "$(key pcg.model method)" = pcg ]
	[ -z "$(key direct.model method)" ]
	cmp <(cut -d' ' -f1 direct.pred) <(cut -d' ' -f1 pcg.pred)
	"$TRAIN" -q -s laprls -t 2 -g 4 -M pcg-early m.txt early.model
	[ "$(key early.model method)" = pcg-early ]
}

@test "-e sets PCG's stop: a tighter tolerance takes more iterations and moves the model toward the direct one" {
	moons1
	"$TRAIN" -q -s laprls -t 2 -g 4 -M direct -o direct.pred m.txt direct.model
	run --separate-stderr "$TRAIN" -s laprls -t 2 -g 4 -M pcg -o d.pred m.txt d.model
	[ "$status" -eq 0 ]
	its_default=$(sed -n 's/.*PCG: \([0-9]*\) iterations.*/\1/p' <<<"$stderr")
	run --separate-stderr "$TRAIN" -s laprls -t 2 -g 4 -M pcg -e 1e-12 -o t.pred m.txt t.model
	[ "$status" -eq 0 ]
	its_tight=$(sed -n 's/.*PCG: \([0-9]*\) iterations.*/\1/p' <<<"$stderr")
	[ "$its_tight" -gt "$its_default" ]
	[ "$(key t.model eps)" = 9.9999999999999998e-13 ]
	# the decision values: within 1e-9 of the direct solve at 1e-12, not
	# as close at the default 1e-6
	gap() { paste -d' ' direct.pred "$1" | awk 'NR > 1 { d = $2 - $4; if (d < 0) d = -d
		if (d > w) w = d } END { printf "%.3g\n", w }'; }
	awk -v a="$(gap t.pred)" -v b="$(gap d.pred)" 'BEGIN { exit !(a < 1e-9 && b > a) }'
}

@test "PCG goes past n iterations when rounding needs it, to the direct solver's model" {
	# 30 moons, RLS (-i 0), a tight stop: in floating point PCG takes
	# more than n = 30 iterations (it was cut off at 30, 1.9e-3 off)
	"$DG" -n 30 -S 2 moons m30.txt
	"$TRAIN" -q -s laprls -g 2 -i 0 -M direct -o direct.pred m30.txt direct.model
	run --separate-stderr "$TRAIN" -s laprls -g 2 -i 0 -M pcg -e 1e-12 -o p.pred m30.txt p.model
	assert_status 0
	[ "$(sed -n 's/.*PCG: \([0-9]*\) iterations.*/\1/p' <<<"$stderr")" -gt 30 ]
	[[ "$stderr" != *warning* ]]
	paste -d' ' direct.pred p.pred | awk 'NR > 1 { d = $2 - $4; if (d < 0) d = -d
		if (d > 1e-8 * (1 + ($2 < 0 ? -$2 : $2))) { print "line " NR ": " $2 " vs " $4; bad = 1 } }
		END { exit bad }'
}

@test "-e of 1 or more with a conjugate-gradient method is a usage error" {
	moons1
	run --separate-stderr "$TRAIN" -s laprls -M pcg -e 1 m.txt
	assert_train_usage "option -e: 1 out of range for conjugate gradient's relative residual (expected 0 < eps < 1)"
	run --separate-stderr "$TRAIN" -s lapsvm -t 0 -M newton -e 2 m.txt
	assert_train_usage "option -e: 2 out of range for conjugate gradient's relative residual (expected 0 < eps < 1)"
	# the dual solver takes it (a loose tolerance, but a tolerance)
	run --separate-stderr "$TRAIN" -q -s lapsvm -t 2 -g 4 -e 2 m.txt dual.model
	assert_status 0
}

@test "-M pcg applies to LapRLS and LapSVM; unknown -M values are usage errors" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -M pcg m.txt
	assert_train_usage "no training method tsvm pcg (the methods of tsvm: direct)"
	run --separate-stderr "$TRAIN" -s laprls -M cholesky m.txt
	assert_train_usage "option -M: unknown method 'cholesky' (expected direct, pcg, pcg-early, newton or random)"
}

@test "-M given twice: the last one trains, whichever the two are" {
	moons1
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M direct m.txt direct.model
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M newton m.txt newton.model
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M pcg m.txt pcg.model
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M newton -M direct m.txt nd.model
	cmp direct.model nd.model
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M pcg -M newton m.txt pn.model
	cmp newton.model pn.model
	"$TRAIN" -q -s lapsvm -t 2 -g 4 -M newton -M pcg m.txt np.model
	cmp pcg.model np.model
	run --separate-stderr "$TRAIN" -s tsvm -M pcg -M direct m.txt tsvm.model
	assert_status 0
}

@test "-s and -L given twice: the last one counts" {
	moons1
	"$TRAIN" -q -s laprls -t 2 -g 4 -L unnormalized m.txt a.model
	"$TRAIN" -q -s tsvm -s laprls -t 2 -g 4 -L normalized -L unnormalized m.txt b.model
	cmp a.model b.model
}

@test "a PCG model predicts like the direct model (lapsvm-predict)" {
	moons1
	"$TRAIN" -q -s laprls -t 2 -g 4 -M pcg m.txt pcg.model
	run "$BIN/lapsvm-predict" m.txt pcg.model out.txt
	[ "$status" -eq 0 ]
	[ "$(wc -l < out.txt)" -eq 200 ]
}

@test "the row summary stays on stderr after training and after -v, not with -q" {
	moons1
	run --separate-stderr "$TRAIN" -t 2 -g 4 m.txt
	assert_status 0
	assert_stderr_has "lapsvm-train: m.txt: 200 rows: l = 2 labeled in 2 classes, u = 198 unlabeled (marker 0)"
	moons m4.txt -S 1 -l 4
	run --separate-stderr "$TRAIN" -t 2 -g 4 -s laprls -v 2 m4.txt
	assert_status 0
	assert_stderr_has "m4.txt: 200 rows: l = 8 labeled in 2 classes, u = 192 unlabeled (marker 0)"
	run --separate-stderr "$TRAIN" -q -t 2 -g 4 m.txt
	[ -z "$stderr" ]
}

@test "a class that became the unlabeled marker is warned about" {
	moons all.txt -S 1
	# labels 0, 1, 2 all given: without -u the 0 rows turn unlabeled
	awk '{ $1 = (NR % 3); print }' all.txt >three.txt
	run --separate-stderr "$TRAIN" -t 2 -g 4 -i 0 three.txt
	assert_status 0
	assert_stderr_has "warning: only 66 rows carry the unlabeled marker 0, fewer than the 134 labeled rows: if 0 is a class, give the unlabeled rows another marker with -u"
	run --separate-stderr "$TRAIN" -t 2 -g 4 -i 0 -u -1 three.txt
	assert_status 0
	[[ "$stderr" != *warning* ]]
	# most rows unlabeled, the marker inside a run of integer classes 1, 2, 4, 5
	awk 'NR <= 20 { $1 = (NR % 4) + 1; if ($1 >= 3) $1 += 1; print; next }
	     { $1 = 3; print }' all.txt >gap.txt
	run --separate-stderr "$TRAIN" -t 2 -g 4 -i 0 -u 3 gap.txt
	assert_status 0
	assert_stderr_has "warning: the unlabeled marker 3 lies among the class labels 1..5: if it is a class, give the unlabeled rows another marker with -u"
	# the usual two classes +1 / -1 with 0 unlabeled: no warning
	moons1
	run --separate-stderr "$TRAIN" -t 2 -g 4 m.txt
	[[ "$stderr" != *warning* ]]
}

@test "a marker no row carries, with one class of nearly every row, is warned about" {
	moons1
	# the unlabeled rows carry 0, -u names another: class 0 has 198 of 200
	run --separate-stderr "$TRAIN" -t 2 -g 4 -i 0 -u 7 m.txt
	assert_status 0
	assert_stderr_has "warning: no row carries the unlabeled marker 7, and class 0 holds 198 of the 200 rows: if those are the unlabeled rows, give their label with -u"
	# fully labeled on purpose (-u -1), classes of any balance up to 10:1: no warning
	awk '{ $1 = (NR % 10 ? 1 : 2); print }' m.txt >lab.txt
	run --separate-stderr "$TRAIN" -t 2 -g 4 -i 0 -u -1 lab.txt
	assert_status 0
	[[ "$stderr" != *warning* ]]
	# clustering reads no labels: no warning
	run --separate-stderr "$TRAIN" -s cluster -t 2 -g 4 -u 7 m.txt
	[[ "$stderr" != *"no row carries"* ]]
}

@test "a kernel width far off the data's distances is warned about" {
	moons1
	run --separate-stderr "$TRAIN" -g 1e6 m.txt
	assert_status 0
	assert_stderr_has "warning: the kernel matrix is numerically the identity"
	assert_stderr_has "try a smaller -g"
	run --separate-stderr "$TRAIN" -g 1e-9 m.txt
	assert_status 0
	assert_stderr_has "warning: the kernel matrix is numerically all ones"
	run --separate-stderr "$TRAIN" -q -g 1e6 m.txt
	[ -z "$stderr" ]
	run --separate-stderr "$TRAIN" m.txt
	[[ "$stderr" != *"kernel matrix is numerically"* ]]
}

# Rows all one point (no features, or duplicates) with the default gamma:
# the warning said "gamma = 0 is too small ... try a larger -g", a gamma
# -g refuses and not the one used (1), advice no gamma can follow.
@test "rows all one point under the default RBF width: the warning says so, with no gamma 0 and no advice on -g" {
	printf '%s\n' '1' '-1' '1' '-1' '0' '0' >nofeat.txt
	run --separate-stderr "$TRAIN" -i 0 nofeat.txt
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: the kernel matrix is all ones: the rows are all one point (their mean squared distance is 0), which no gamma separates"
	[[ "$stderr" != *"gamma = 0"* && "$stderr" != *"-g"* ]]
	# a given gamma: that gamma, and the advice
	moons1
	run --separate-stderr "$TRAIN" -g 1e-9 m.txt
	assert_stderr_has "gamma = 1e-09 is too small for these distances; try a larger -g"
}

@test "a degenerate linear kernel is warned about without advice on -g, which is no width there" {
	# one feature: every row parallel to every other, K of rank one
	printf '%s\n' '1 1:1' '-1 1:-2' '1 1:3' '0 1:0.5' >line.txt
	run --separate-stderr "$TRAIN" -t 0 -i 0 line.txt
	assert_status 0
	assert_stderr_has "warning: the kernel matrix has rank one numerically (every |K_ij| within 1e-6 of sqrt(K_ii K_jj)): the rows are parallel in the kernel's feature space"
	[[ "$stderr" != *"-g"* ]]
	# orthogonal rows: K diagonal
	printf '%s\n' '1 1:1' '-1 2:1' '1 3:1' '-1 4:1' >orth.txt
	run --separate-stderr "$TRAIN" -t 0 -i 0 orth.txt
	assert_status 0
	assert_stderr_has "warning: the kernel matrix is numerically diagonal (every |K_ij| below 1e-6 of sqrt(K_ii K_jj)): the rows are orthogonal in the kernel's feature space"
	[[ "$stderr" != *"-g"* ]]
}

@test "a solver that overflows on kernel values near DBL_MAX fails as training, not as the model's writer" {
	# 3e153 squared is 9e306: a finite kernel value, an infinite SVM bias
	printf '%s\n' '1 1:1' '-1 1:3e153' '0 1:2' >big.txt
	echo old >x.model
	run --separate-stderr "$TRAIN" -q -t 0 -i 0 big.txt x.model
	assert_fails lapsvm-train "training produced a non-finite bias (the solver's arithmetic overflowed: scale the features to smaller values)"
	[ "$(cat x.model)" = old ]
}

@test "a numerically singular system (gamma_A near 0) is refused, not written as a model of rounding" {
	"$DG" -S 1 -l 10 moons m.txt
	echo old >m.model
	for s in laprls lapsvm; do
		for M in direct newton; do
			run --separate-stderr "$TRAIN" -s "$s" -M "$M" -A 1e-20 m.txt m.model
			assert_status 1
			assert_stderr_regex "^lapsvm-train: the system is numerically singular \(sum \|alpha\| = .*: the outputs' rounding, up to .*, exceeds a tenth of the outputs, up to .*\): raise gamma_A \(-A or -a\)$"
			[ "$(cat m.model)" = old ]
		done
	done
	assert_no_tmp_files .
	# small but workable: the model predicts its training rows as -o says
	"$TRAIN" -q -s lapsvm -M direct -A 1e-14 -o u.txt m.txt m.model
	awk '$1 == 0' m.txt >unl.txt
	"$PRED" -q -d unl.txt m.model d.txt
	paste -d' ' <(tail -n +2 d.txt) <(tail -n +2 u.txt) |
		awk '{ d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-3) bad++ } END { exit bad > 0 }'
}

@test "a graph whose weights sum past DBL_MAX in a row is refused at that row" {
	printf '1 1:0\n-1 1:1\n0 1:0.1\n0 1:0.9\n' >g4.txt
	printf '1 3:1\n2 4:1\n3 1:1 4:1\n4 2:1 3:1\n' >a.g
	sed 's/:1\b/:1e308/g' a.g >big.g
	run --separate-stderr "$TRAIN" -s laprls -G big.g g4.txt g4.model
	assert_status 1
	assert_stderr_has "lapsvm-train: big.g:3: the weights of row 3 sum to more than 1.79769e+308 (expected a finite degree: scale the weights down)"
	[ ! -e g4.model ]
	# each weight alone is finite and allowed: 1e300 is a scale of a.g
	sed 's/:1\b/:1e300/g' a.g >scaled.g
	"$TRAIN" -q -s laprls -G a.g g4.txt a.model
	"$TRAIN" -q -s laprls -G scaled.g g4.txt s.model
	paste -d' ' <(sv_lines a.model) <(sv_lines s.model) |
		awk '{ d = $1 - $3; if (d < 0) d = -d; if (d > 1e-12 * (1 + ($1 < 0 ? -$1 : $1))) bad++ } END { exit bad > 0 }'
}

@test "a dual that cannot converge because gamma_A is tiny says so, not 'a larger -e'" {
	"$DG" -n 40 -S 1 moons m40.txt
	run --separate-stderr "$TRAIN" -s lapsvm -M direct -g 2 -A 1e-14 m40.txt m40.model
	assert_status 1
	assert_stderr_regex '^lapsvm-train: the dual solver did not converge in 10000000 iterations: its largest Q_ii is [0-9.e+]+, a badly scaled dual \(a tiny gamma_A, -a or -A, or huge kernel values\): raise gamma_A or scale the data$'
	[ ! -e m40.model ]
}

# sklearn's breast cancer, unscaled: one feature in the thousands, the
# others below 1, and the default RBF width and graph saw that one alone,
# without a word.
@test "one feature far larger than the others: graph-build and lapsvm-train warn (scale the features); scaled data, -q and the linear kernel do not" {
	moons m.txt -S 1 -l 5
	# a third feature: feature 1 in other units (x 100), or the same units
	awk '{ split($2, a, ":"); print $0, "3:" a[2] * 100 }' m.txt >big.txt
	awk '{ split($2, a, ":"); print $0, "3:" a[2] }' m.txt >same.txt
	local warn="warning: feature 3 holds 100% of the rows' variance (its standard deviation is 100 times the median feature's), so Euclidean distances (the RBF kernel, the kNN graph) see little else: if the features are in different units, scale them first (e.g. svm-scale, Debian's libsvm-tools)"
	run --separate-stderr "$GB" big.txt g
	assert_status 0
	assert_stderr_has "graph-build: $warn"
	run --separate-stderr "$TRAIN" big.txt mb
	assert_status 0
	assert_stderr_has "lapsvm-train: $warn"
	run --separate-stderr "$TRAIN" -q big.txt mq
	assert_status 0
	assert_stderr_empty
	run --separate-stderr "$TRAIN" -t 0 -G g big.txt ml
	assert_status 0
	[[ "$stderr" != *"holds 100%"* ]]
	run --separate-stderr "$GB" same.txt g2
	assert_status 0
	[[ "$stderr" != *warning* ]]
	run --separate-stderr "$TRAIN" same.txt ms
	assert_status 0
	[[ "$stderr" != *warning* ]]
	# two features (the median of two was their mean: never a warning):
	# the ratio is to the other one
	awk '{ split($2, a, ":"); $2 = "1:" a[2] * 1000; print }' m.txt >two.txt
	run --separate-stderr "$GB" two.txt g3
	assert_status 0
	assert_stderr_regex "graph-build: warning: feature 1 holds 100% of the rows' variance \(its standard deviation is [0-9.e+]+ times the other feature's\)"
	run --separate-stderr "$GB" m.txt g4
	assert_status 0
	[[ "$stderr" != *warning* ]]
}

# the model said eps 0.001 (the dual's default) under -M pcg, whose CG had
# stopped at its own 1e-6
@test "-M pcg, pcg-early, newton: the model records CG's tolerance, the same model as with -e 1e-6" {
	moons1
	local M
	for M in pcg pcg-early newton; do
		"$TRAIN" -q -M "$M" m.txt a.model
		"$TRAIN" -q -M "$M" -e 1e-6 m.txt b.model
		cmp a.model b.model
		grep -qx 'eps 9.9999999999999995e-07' a.model
	done
	"$TRAIN" -q m.txt d.model
	grep -qx 'eps 0.001' d.model
}
