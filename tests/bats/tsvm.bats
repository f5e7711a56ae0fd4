#!/usr/bin/env bats
# lapsvm-train -s tsvm: Joachims' transductive SVM (ICML 1999).  Its options
# -C (cost C* of the unlabeled points), -p (positive fraction r of the
# unlabeled points) and -w (cap on label switches per binary problem), what
# the model records, the progress and summary lines on stderr, the warnings,
# -o, determinism, one-vs-rest, and the train | predict pipeline.
# Exit codes: 0 ok, 1 failure, 2 usage.  Small data (the 200-point two moons
# with one or five labels per class); every test runs well under a second.

load helpers

# Replaces the helpers' setup: this file needs lapsvm-train, lapsvm-predict
# and lapsvm-datagen (not graph-build: the TSVM uses no graph).
setup() {
	need_tools "$TRAIN" "$PRED" "$DG"
	enter_work
}

# --------------------------------------------------------------- fixtures

# m.txt: the same with five labels per class (l = 10, u = 190).
moons5() {
	moons "${1:-m.txt}" -S 1 -l 5
}

# switches_in_all: N from the summary line "TSVM: N label switches in all"
# of $stderr (empty when the line is missing).
switches_in_all() {
	printf '%s\n' "$stderr" |
		sed -n 's/^lapsvm-train: TSVM: \([0-9][0-9]*\) label switches in all$/\1/p'
}

# progress_lines: the TSVM progress lines of $stderr.
progress_lines() {
	printf '%s\n' "$stderr" | grep '^lapsvm-train: TSVM function ' || true
}

# decision_close A B REL: two lapsvm-predict -d outputs with the same header
# and labels whose decision values agree to REL relative (absolute below 1).
decision_close() {
	paste -d' ' "$1" "$2" | awk -v rel="$3" '
		NR == 1 { h = NF / 2
			for (f = 1; f <= h; f++) if ($f != $(f + h)) { print "header differs: " $0; bad = 1 }
			next }
		{ h = NF / 2
		  if ($1 != $(1 + h)) { print "line " NR ": label " $1 " vs " $(1 + h); bad = 1 }
		  for (f = 2; f <= h; f++) {
			a = $f; b = $(f + h); d = a - b; if (d < 0) d = -d
			m = b < 0 ? -b : b; if (m < 1) m = 1
			if (d > rel * m) { print "line " NR ": " a " vs " b; bad = 1 }
		  } }
		END { if (NR < 2) { print "no decision values"; bad = 1 }
		      exit bad }'
}

# ------------------------------------------------------------ the model

@test "-s tsvm trains; the model records solver tsvm and the TSVM keys" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm m.txt
	assert_status 0
	assert_stdout_empty
	local f=m.txt.model
	[ -s $f ]
	[ "$(key $f solver)" = tsvm ]
	[ "$(key $f l)" = 2 ]
	[ "$(key $f u)" = 198 ]
	# no graph: gamma_I is 0 and there is no graph key
	[ "$(key $f gamma_I)" = 0 ]
	[ -z "$(key $f graph)" ]
	# the three TSVM keys, each exactly once, with the defaults
	[ "$(grep -c '^tsvm_cstar ' $f)" -eq 1 ]
	[ "$(grep -c '^tsvm_r ' $f)" -eq 1 ]
	[ "$(grep -c '^tsvm_max_switches ' $f)" -eq 1 ]
	assert_close "$(key $f tsvm_cstar)" 100  # C = 1 / (2 * 0.005)
	[ "$(key $f tsvm_r)" = 0.5 ]              # the labeled ratio used: 1 of 2
	[ "$(key $f tsvm_max_switches)" = 0 ]     # 0: no cap
	[ "$(key $f nr_class)" = 2 ]
	[ "$(key $f labels)" = "1 -1" ]
	[ "$(key $f nr_fn)" = 1 ]
	[ "$(sv_lines $f | wc -l)" -eq "$(key $f nr_sv)" ]
	assert_stderr_has "lapsvm-train: TSVM: l = 2, u = 198, 2 classes, gamma_A = 0.0025, gamma_I = 0"
	# the TSVM builds no graph
	[[ "$stderr" != *"graph"* ]]
}

@test "other solvers' models have no TSVM keys" {
	moons1
	"$TRAIN" -q -i 0 m.txt svm.model
	[ -z "$(grep '^tsvm_' svm.model)" ]
}

@test "tsvm_cstar defaults to C = 1/(2 gamma_A l), from -a, -c or -A" {
	moons5  # l = 10
	local opt want
	for opt in "-a 0.2" "-c 3" "-A 0.01" ""; do
		# shellcheck disable=SC2086
		run --separate-stderr "$TRAIN" -q -s tsvm $opt m.txt out.model
		assert_status 0
		want=$(awk -v g="$(key out.model gamma_A)" -v l="$(key out.model l)" \
			'BEGIN { printf "%.17g", 1 / (2 * g * l) }')
		assert_close "$(key out.model tsvm_cstar)" "$want"
	done
	# the values those options mean: C = 1/(2 a) for -a, C itself for -c
	"$TRAIN" -q -s tsvm -a 0.2 m.txt a.model
	assert_close "$(key a.model tsvm_cstar)" 2.5
	"$TRAIN" -q -s tsvm -c 3 m.txt c.model
	assert_close "$(key c.model tsvm_cstar)" 3
	"$TRAIN" -q -s tsvm -A 0.01 m.txt A.model
	assert_close "$(key A.model tsvm_cstar)" 5
}

@test "-C: tsvm_cstar is the given C*, and annealing ends at C*" {
	moons1
	local c
	for c in 0.37 5 1e-07; do
		run --separate-stderr "$TRAIN" -s tsvm -C $c m.txt out.model
		assert_status 0
		assert_close "$(key out.model tsvm_cstar)" $c
		# the labeled cost C is unchanged (gamma_A as without -C)
		[ "$(key out.model gamma_A)" = 0.0025000000000000001 ]
		# the last annealing step trains at C* for both classes
		[[ "$(progress_lines | tail -n 1)" == *"C*- = $(awk -v c=$c 'BEGIN { printf "%.3g", c }'), C*+ = $(awk -v c=$c 'BEGIN { printf "%.3g", c }'),"* ]]
	done
}

@test "-C given before -s tsvm is accepted (options in any order)" {
	moons1
	run --separate-stderr "$TRAIN" -q -C 2 -p 0.4 -w 3 -s tsvm m.txt
	assert_status 0
	assert_close "$(key m.txt.model tsvm_cstar)" 2
	assert_close "$(key m.txt.model tsvm_r)" 0.4
	[ "$(key m.txt.model tsvm_max_switches)" = 3 ]
}

# ----------------------------------------------------------- usage errors

@test "-p 0 and -p 1: exit 2, r must be strictly between 0 and 1" {
	moons1
	local p
	for p in 0 1 0.0 1.0; do
		run --separate-stderr "$TRAIN" -s tsvm -p $p m.txt
		assert_bad_option p "'$p' out of range"
	done
}

@test "-p 1.5 and -p -0.5: exit 2, out of range" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -p 1.5 m.txt
	assert_bad_option p "'1.5' out of range"
	run --separate-stderr "$TRAIN" -s tsvm -p -0.5 m.txt
	assert_bad_option p "'-0.5' out of range"
}

@test "-p abc: exit 2, not a number" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -p abc m.txt
	assert_bad_option p "'abc' is not a number"
}

@test "-C 0 and -C -1: exit 2, C* must be > 0" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -C 0 m.txt
	assert_bad_option C "'0' out of range"
	run --separate-stderr "$TRAIN" -s tsvm -C -1 m.txt
	assert_bad_option C "'-1' out of range"
}

@test "-C x: exit 2, not a number" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -C x m.txt
	assert_bad_option C "'x' is not a number"
}

@test "-w 0: exit 2, the cap must be >= 1" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -w 0 m.txt
	assert_bad_option w "'0' out of range"
}

@test "-w x and -w 1.5: exit 2, not an integer" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm -w x m.txt
	assert_bad_option w "'x' is not an integer"
	run --separate-stderr "$TRAIN" -s tsvm -w 1.5 m.txt
	assert_bad_option w "'1.5' is not an integer"
}

@test "-C, -w without -s tsvm: exit 2, applies to the TSVM (-p is for all)" {
	moons1
	local s o
	for s in "-s lapsvm" "-s laprls" ""; do
		for o in "-C 1" "-w 1"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$TRAIN" $s $o m.txt
			assert_train_usage "${o%% *} applies to the TSVM (-s tsvm)"
		done
	done
	# the last -s counts: tsvm then lapsvm is lapsvm
	run --separate-stderr "$TRAIN" -s tsvm -C 1 -s lapsvm m.txt
	assert_train_usage "-C applies to the TSVM (-s tsvm)"
}

@test "-G, -k, -i, -I, -L or -P with -s tsvm: exit 2, the TSVM uses no graph" {
	moons1
	printf '%s\n' 1 >g.txt  # never read
	run --separate-stderr "$TRAIN" -s tsvm -G g.txt m.txt
	assert_train_usage "the TSVM uses no graph (-G, -k, -i, -I, -L, -P)"
	run --separate-stderr "$TRAIN" -s tsvm -k 3 m.txt
	assert_train_usage "the TSVM uses no graph"
	for o in "-i 1" "-I 1" "-L unnormalized" "-P 2"; do
		run --separate-stderr "$TRAIN" -s tsvm $o m.txt
		assert_train_usage "the TSVM uses no graph"
	done
}

# ------------------------------------------------------------ messages

@test "progress lines on stderr: annealing from 1e-05 to C*, switches counted" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm m.txt
	assert_status 0
	assert_stdout_empty
	local prog n
	prog=$(progress_lines)
	# C*- and C*+ start at 1e-5 (equal classes: r = 1/2, 99 and 99) and
	# double up to C* = C = 100: 1e-5 * 2^23 < 100 <= 1e-5 * 2^24, 25 steps
	[ "$(printf '%s\n' "$prog" | head -n 1)" = \
		"lapsvm-train: TSVM function 1: C*- = 1e-05, C*+ = 1e-05, 0 label switches so far" ]
	[ "$(printf '%s\n' "$prog" | wc -l)" -eq 25 ]
	printf '%s\n' "$prog" | awk '{ sub(/^lapsvm-train: TSVM function 1: C\*- = /, "")
		if ($0 !~ /^[0-9.e+-]+, C\*\+ = [0-9.e+-]+, [0-9]+ label switches so far$/) exit 1 }'
	# costs and the switch count never decrease; the last step is at C*
	printf '%s\n' "$prog" | awk '{ c = $7 + 0; d = $10 + 0; s = $11 + 0
		if (NR > 1 && (c < pc || d < pd || s < ps)) exit 1; pc = c; pd = d; ps = s }'
	[[ "$(printf '%s\n' "$prog" | tail -n 1)" == "lapsvm-train: TSVM function 1: C*- = 100, C*+ = 100, "* ]]
	# the summary agrees with the last progress line, and switches happened
	n=$(switches_in_all)
	[ -n "$n" ]
	[ "$n" -gt 0 ]
	[ "$(printf '%s\n' "$prog" | tail -n 1 | awk '{ print $11 }')" = "$n" ]
	assert_stderr_has "lapsvm-train: TSVM: $n label switches in all"
	# no warnings without a reason
	[[ "$stderr" != *"warning"* ]]
}

@test "-p sets the starting positive class size: C*+ = 1e-5 num+/num-" {
	moons1  # u = 198
	# -p 0.1: num+ = round(19.8) = 20, C*+ = 1e-5 * 20/178
	run --separate-stderr "$TRAIN" -s tsvm -p 0.1 m.txt
	assert_status 0
	[ "$(progress_lines | head -n 1)" = \
		"lapsvm-train: TSVM function 1: C*- = 1e-05, C*+ = 1.12e-06, 0 label switches so far" ]
	# -p 0.25: num+ = round(49.5) = 50, C*+ = 1e-5 * 50/148
	run --separate-stderr "$TRAIN" -s tsvm -p 0.25 m.txt
	assert_status 0
	[ "$(progress_lines | head -n 1)" = \
		"lapsvm-train: TSVM function 1: C*- = 1e-05, C*+ = 3.38e-06, 0 label switches so far" ]
	[[ "$(progress_lines | tail -n 1)" == *"C*- = 100, C*+ = 100, "* ]]
}

@test "-q: no progress, summary or anything else on stderr" {
	moons1
	run --separate-stderr "$TRAIN" -q -s tsvm m.txt
	assert_status 0
	assert_stderr_empty
	assert_stdout_empty
	[ "$(key m.txt.model solver)" = tsvm ]
	# the same model as without -q
	"$TRAIN" -s tsvm m.txt loud.model 2>/dev/null
	assert_same m.txt.model loud.model
}

# -------------------------------------------------- no unlabeled rows

@test "no unlabeled rows: a warning, and the SVM's decision values" {
	moons5
	moons full.txt -S 1
	awk '$1 != 0' m.txt >lab.txt  # the 10 labeled rows only
	# A tight tolerance: the two solvers scale the same dual differently,
	# so at the default -e they agree only to about -e.
	run --separate-stderr "$TRAIN" -e 1e-10 -s tsvm lab.txt tsvm.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: no unlabeled rows: the TSVM is the SVM"
	assert_stderr_has "lapsvm-train: TSVM: l = 10, u = 0, 2 classes"
	assert_stderr_has "lapsvm-train: TSVM: 0 label switches in all"
	[ "$(key tsvm.model u)" = 0 ]
	run --separate-stderr "$TRAIN" -q -e 1e-10 -s lapsvm -i 0 lab.txt svm.model
	assert_status 0
	"$PRED" -q -d full.txt tsvm.model tsvm.out
	"$PRED" -q -d full.txt svm.model svm.out
	[ "$(wc -l <tsvm.out)" -eq 201 ]
	decision_close tsvm.out svm.out 1e-6
	# the same expansion points (the labeled support vectors)
	[ "$(sv_lines tsvm.model | cut -d' ' -f2-)" = "$(sv_lines svm.model | cut -d' ' -f2-)" ]
}

@test "unlabeled rows present: no 'TSVM is the SVM' warning" {
	moons5
	run --separate-stderr "$TRAIN" -s tsvm m.txt
	assert_status 0
	[[ "$stderr" != *"no unlabeled rows"* ]]
}

# ------------------------------------------------------------------- -w

@test "-w 1: at most one label switch, and the cap warning" {
	moons1
	# precondition: without a cap this data needs several switches
	run --separate-stderr "$TRAIN" -s tsvm m.txt free.model
	assert_status 0
	local free
	free=$(switches_in_all)
	[ -n "$free" ]
	[ "$free" -gt 1 ]
	run --separate-stderr "$TRAIN" -s tsvm -w 1 m.txt
	assert_status 0
	[ "$(switches_in_all)" = 1 ]
	assert_stderr_has "lapsvm-train: warning: the TSVM stopped at the cap of 1 label switches (-w) before the switching condition was met"
	# no progress line counts more than 1
	progress_lines | awk '{ if ($11 + 0 > 1) exit 1 }'
	[ "$(key m.txt.model tsvm_max_switches)" = 1 ]
	# capped, the model differs from the free one
	[ "$(sv_lines m.txt.model)" != "$(sv_lines free.model)" ]
}

@test "-w at or above the switches needed: no warning, the uncapped model" {
	moons1
	run --separate-stderr "$TRAIN" -s tsvm m.txt free.model
	assert_status 0
	local n
	n=$(switches_in_all)
	[ -n "$n" ]
	[ "$n" -ge 2 ]
	local w
	for w in "$n" $((n + 1)) 1000; do
		run --separate-stderr "$TRAIN" -s tsvm -w "$w" m.txt w.model
		assert_status 0
		[ "$(switches_in_all)" = "$n" ]
		[[ "$stderr" != *"warning"* ]]
		[ "$(key w.model tsvm_max_switches)" = "$w" ]
		[ "$(sv_lines w.model)" = "$(sv_lines free.model)" ]
		[ "$(key w.model bias)" = "$(key free.model bias)" ]
	done
	# one below: the cap is hit
	run --separate-stderr "$TRAIN" -s tsvm -w $((n - 1)) m.txt w.model
	assert_status 0
	[ "$(switches_in_all)" = $((n - 1)) ]
	assert_stderr_has "warning: the TSVM stopped at the cap of $((n - 1)) label switches (-w)"
}

# ------------------------------------------------------------- -p and -o

@test "-p r is accepted and recorded as tsvm_r; -o positives follow r" {
	moons1
	local r pos
	for r in 0.2 0.8; do
		run --separate-stderr "$TRAIN" -q -s tsvm -p $r -o pred$r.txt m.txt p$r.model
		assert_status 0
		assert_close "$(key p$r.model tsvm_r)" $r
		[ "$(head -n 1 pred$r.txt)" = "labels 1" ]
		[ "$(wc -l <pred$r.txt)" -eq 199 ]
		# the fraction predicted positive is near r (the exact r holds
		# for the internal labels, not for the predictions)
		pos=$(awk 'NR > 1 && $1 == 1 { n++ } END { print n + 0 }' pred$r.txt)
		awk -v p="$pos" -v r=$r 'BEGIN { f = p / 198; d = f - r; if (d < 0) d = -d
			exit !(d <= 0.15) }' || { echo "-p $r: $pos/198 predicted positive"; false; }
	done
	[ "$(awk 'NR > 1 && $1 == 1' pred0.2.txt | wc -l)" -lt "$(awk 'NR > 1 && $1 == 1' pred0.8.txt | wc -l)" ]
	if cmp -s p0.2.model p0.8.model; then echo "-p 0.2 and -p 0.8 gave the same model"; false; fi
}

@test "-o: the unlabeled rows' predictions, as lapsvm-predict -d" {
	moons1
	run --separate-stderr "$TRAIN" -q -s tsvm -o pred.txt m.txt
	assert_status 0
	[ "$(head -n 1 pred.txt)" = "labels 1" ]
	[ "$(wc -l <pred.txt)" -eq 199 ]
	awk 'NR > 1 { if (NF != 2 || ($2 > 0) != ($1 == 1) || ($1 != 1 && $1 != -1)) exit 1 }' pred.txt
	awk '$1 == 0' m.txt >unl.txt
	"$PRED" -q -d unl.txt m.txt.model ref.txt
	assert_same_predictions pred.txt ref.txt
	assert_no_tmp_files .
}

# ------------------------------------------------------------ determinism

@test "determinism: two runs give byte-identical models and -o files" {
	moons1
	"$TRAIN" -q -s tsvm -o a.pred m.txt a.model
	"$TRAIN" -q -s tsvm -o b.pred m.txt b.model
	assert_same a.model b.model
	assert_same a.pred b.pred
	"$TRAIN" -q -s tsvm -p 0.3 -C 7 -w 2 m.txt c.model
	"$TRAIN" -q -s tsvm -p 0.3 -C 7 -w 2 m.txt d.model
	assert_same c.model d.model
}

# ------------------------------------------------------------- multiclass

# three.txt: three separated clusters, two labeled rows each, 24 unlabeled.
three_clusters() {
	awk 'BEGIN { for (i = 0; i < 30; i++) { c = i % 3
		printf "%d 1:%g 2:%g\n", i < 6 ? c + 1 : 0,
			(c == 1) * 3 + (i % 5) * 0.1, (c == 2) * 3 + int(i / 5) * 0.1 } }' >three.txt
}

@test "three classes: nr_fn 3, one TSVM per class, all rows predicted right" {
	three_clusters
	run --separate-stderr "$TRAIN" -s tsvm three.txt
	assert_status 0
	assert_stderr_has "lapsvm-train: TSVM: l = 6, u = 24, 3 classes"
	local f=three.txt.model
	[ "$(key $f solver)" = tsvm ]
	[ "$(key $f nr_class)" = 3 ]
	[ "$(key $f labels)" = "1 2 3" ]
	[ "$(key $f nr_fn)" = 3 ]
	[ "$(key $f bias | wc -w)" -eq 3 ]
	# progress for each of the three functions, each annealed up to C*
	local c
	for c in 1 2 3; do
		progress_lines | grep -q "^lapsvm-train: TSVM function $c: C\*- = 1e-05, "
		[[ "$(progress_lines | grep "function $c:" | tail -n 1)" == *"C*- = 100, C*+ = 100, "* ]]
	done
	[ -z "$(progress_lines | grep 'function 4:')" ]
	# all 30 rows, with their true class, are predicted right
	awk '{ if ($1 == 0) $1 = (NR - 1) % 3 + 1; print }' three.txt >full.txt
	run --separate-stderr "$PRED" full.txt $f out
	assert_status 0
	[ "${lines[0]}" = "Accuracy = 100% (30/30) (classification)" ]
}

# mc.txt: three classes from two lapsvm-datagen files: the two moons
# (classes 1 and -1, one label each) and, shifted by 4 along x1, the upper
# moon of a second draw as class 2 (one label); 299 rows, 296 unlabeled.
moons_three() {
	moons1 mc.txt
	moons s2.txt -S 2 -n 100 -l 1
	awk '$1 != -1 { split($2, a, ":"); split($3, b, ":")
		printf "%d 1:%.17g 2:%.17g\n", $1 == 1 ? 2 : 0, a[2] + 4, b[2] }' s2.txt >>mc.txt
}

@test "three classes from two datagen files: trains; -w caps each function" {
	moons_three
	[ "$(awk '$1 != 0' mc.txt | wc -l)" -eq 3 ]
	run --separate-stderr "$TRAIN" -s tsvm mc.txt free.model
	assert_status 0
	[ "$(key free.model nr_fn)" = 3 ]
	[ "$(key free.model labels)" = "1 -1 2" ]
	assert_stderr_has "TSVM: l = 3, u = 296, 3 classes"
	local free
	free=$(switches_in_all)
	[ -n "$free" ]
	[ "$free" -gt 3 ]
	# -w 1 applies per binary problem: at most 1 per function, 3 in all
	run --separate-stderr "$TRAIN" -s tsvm -w 1 mc.txt w.model
	assert_status 0
	[ "$(key w.model nr_fn)" = 3 ]
	local n
	n=$(switches_in_all)
	[ -n "$n" ]
	[ "$n" -ge 1 ]
	[ "$n" -le 3 ]
	progress_lines | awk '{ if ($11 + 0 > 1) exit 1 }'
	assert_stderr_has "warning: the TSVM stopped at the cap of 1 label switches (-w)"
	# the -o file has three columns per row
	run --separate-stderr "$TRAIN" -q -s tsvm -o mc.pred mc.txt
	assert_status 0
	[ "$(head -n 1 mc.pred)" = "labels 1 -1 2" ]
	[ "$(wc -l <mc.pred)" -eq 297 ]
	awk 'NR > 1 && NF != 4 { exit 1 }' mc.pred
}

# ------------------------------------------------ training and prediction

@test "train | predict: a TSVM model from stdout into lapsvm-predict" {
	moons1
	moons full.txt -S 1
	run --separate-stderr bash -c "'$TRAIN' -q -s tsvm m.txt - | '$PRED' full.txt - out"
	assert_status 0
	[[ "${lines[0]}" =~ ^"Accuracy = "[0-9.]+"% ("[0-9]+"/200) (classification)"$ ]]
	[[ "${lines[1]}" =~ ^"PRBEP = "[0-9.]+"%" ]]
	[ "$(wc -l <out)" -eq 200 ]
	[ "$(ls -A | sort | tr '\n' ' ')" = "full.txt m.txt out " ]
}

@test "data on stdin: the model on stdout, progress only on stderr" {
	moons1
	run --separate-stderr bash -c "'$TRAIN' -s tsvm - <m.txt"
	assert_status 0
	[ "${lines[0]}" = "lapsvm_model 1" ]
	[[ "$output" != *"TSVM function"* ]]
	[[ "$output" == *$'\nsolver tsvm\n'* ]]
	[ -n "$(progress_lines)" ]
	# the same model as from the file
	printf '%s\n' "$output" >stdin.model
	"$TRAIN" -q -s tsvm m.txt file.model
	assert_same stdin.model file.model
}

@test "-v 2 with -s tsvm: a cross validation accuracy, the model as without -v" {
	moons m.txt -S 1 -l 10
	run --separate-stderr "$TRAIN" -q -s tsvm -v 2 m.txt
	assert_status 0
	[[ "${lines[0]}" =~ ^"Cross Validation Accuracy = "[0-9.]+"% ("[0-9]+"/20)"$ ]]
	"$TRAIN" -q -s tsvm m.txt plain.model
	assert_same m.txt.model plain.model
}

# ------------------------------------------------------------- real data

@test "webkb page view, 12 labels, linear: TSVM PRBEP >= 70 on the unlabeled pages" {
	need_data webkb_page.libsvm
	# rows are grouped by class (230 course = +1 first): keep the labels
	# of rows 1-3 (+1) and 231-239 (-1), the other 1039 become unlabeled
	awk 'NR > 3 && !(NR >= 231 && NR <= 239) { $1 = 0 } { print }' "$DATA_PATH" >semi.txt
	awk 'NR > 3 && !(NR >= 231 && NR <= 239)' "$DATA_PATH" >test.txt
	[ "$(awk '$1 == 1' semi.txt | wc -l)" -eq 3 ]
	[ "$(awk '$1 == -1' semi.txt | wc -l)" -eq 9 ]
	[ "$(wc -l <test.txt)" -eq 1039 ]
	run --separate-stderr "$TRAIN" -t 0 -a 1 -s tsvm semi.txt w.model
	assert_status 0
	assert_stderr_has "lapsvm-train: TSVM: l = 12, u = 1039, 2 classes"
	[ "$(key w.model kernel)" = linear ]
	run --separate-stderr "$PRED" test.txt w.model pred.txt
	assert_status 0
	local prbep
	prbep=$(printf '%s\n' "$output" | sed -n 's/^PRBEP = \([0-9.]*\)% .*/\1/p')
	[ -n "$prbep" ] || { echo "no PRBEP line in: $output"; false; }
	awk -v p="$prbep" 'BEGIN { exit !(p >= 70) }' || { echo "PRBEP $prbep < 70"; false; }
}
