#!/usr/bin/env bats
# lapsvm-train -s boost: ManifoldBoost with regression trees (Loeff,
# Forsyth & Ramachandran 2008), its models as lapsvm-predict reads them
# (-b: probabilities), and its errors.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
}

# m.txt: 200 two moons, one label per class; all.txt: the same rows with
# their labels; m.g: the epsilon graph.
moons_boost() {
	"$DG" -S 1 moons all.txt
	"$DG" -S 1 -l 1 moons m.txt
	"$GB" -q -e 0.25 m.txt m.g
}

@test "two moons, one label per class: the trees follow the moons (at least 98% of all rows)" {
	moons_boost
	run --separate-stderr "$TRAIN" -s boost -D 4 -B 1000 -i 100 -G m.g -o u.pred m.txt b.model
	assert_status 0
	assert_stderr_has "lapsvm-train: boosting round 1: cost "
	assert_stderr_has "lapsvm-train: boosting round 1000: cost "
	assert_stderr_regex "ManifoldBoost: l = 2, u = 198, 2 classes"
	assert_stderr_regex "boosting: 1000 rounds \(the round cap -n\), 1000 trees of depth at most 4, cost 0.693147 -> "
	[ "$(key b.model solver)" = boost ]
	[ "$(key b.model boost_depth)" = 4 ]
	[ "$(key b.model nr_sv)" = 0 ]
	[ "$(grep -c "^boost_tree 1 " b.model)" = 1000 ]
	[ -z "$(sv_lines b.model)" ]
	run --separate-stderr "$PRED" all.txt b.model out.txt
	assert_status 0
	acc=$(printf '%s\n' "$output" | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a >= 98) }' || { echo "$output"; false; }
	# -o: the transductive values are the model's own on those rows
	"$PRED" -d m.txt b.model d.txt >/dev/null
	cmp <(tail -n +2 u.pred) \
	    <(paste -d' ' <(cut -d' ' -f1 m.txt) <(tail -n +2 d.txt) | awk '$1 == 0 { print $2, $3 }')
}

@test "the same settings give the same model byte for byte" {
	moons_boost
	"$TRAIN" -q -s boost -B 50 -G m.g m.txt a.model
	"$TRAIN" -q -s boost -B 50 -G m.g m.txt b.model
	assert_same a.model b.model
}

@test "-I 0 is plain logistic boosting: every row labeled, training error 0" {
	"$DG" -S 1 moons all.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 -D 3 -B 200 -z 0 all.txt b.model
	assert_status 0
	assert_stderr_has "logistic boosting: l = 200, u = 0"
	[ -z "$(key b.model graph)" ]
	run --separate-stderr "$PRED" all.txt b.model out.txt
	assert_status 0
	[[ "$output" == "Accuracy = 100% (200/200) (classification)"* ]]
}

@test "-z stops early when the cost stops changing" {
	moons_boost
	run --separate-stderr "$TRAIN" -s boost -B 5000 -z 1e-3 -G m.g m.txt b.model
	assert_status 0
	assert_stderr_regex "boosting: [0-9]+ rounds \(the relative cost change fell below -z\)"
	[ "$(grep -c '^boost_tree ' b.model)" -lt 5000 ]
}

@test "stumps: -D 1 trees have one split and two leaves" {
	moons_boost
	"$TRAIN" -q -s boost -D 1 -B 20 -G m.g m.txt b.model
	[ "$(grep -c '^boost_tree 1 3 ' b.model)" = 20 ]
}

@test "lapsvm-predict -b writes p(y = L1 | x) = 1/(1 + exp(-2 f)) in LIBSVM's format" {
	moons_boost
	"$TRAIN" -q -s boost -B 100 -i 100 -G m.g m.txt b.model
	"$PRED" -q -d all.txt b.model d.txt
	"$PRED" -q -b all.txt b.model p.txt
	[ "$(head -n 1 p.txt)" = "labels 1 -1" ]
	paste -d' ' <(tail -n +2 d.txt) <(tail -n +2 p.txt) | awk '{
		p = 1 / (1 + exp(-2 * $2)); d = p - $4; if (d < 0) d = -d
		if ($1 != $3 || d > 1e-12 || ($4 + $5 - 1) > 1e-15 || ($4 > 0.5) != ($1 == 1)) bad++
	} END { exit bad > 0 }'
}

@test "lapsvm-predict -b refuses a model that is not boosted, and -b with -d" {
	"$DG" -S 1 moons all.txt
	"$TRAIN" -q -s laprls -i 0 all.txt l.model
	run --separate-stderr "$PRED" -b all.txt l.model out.txt
	assert_status 1
	assert_stderr_has "lapsvm-predict: l.model: -b needs a boosted model (solver boost, whose f is half the log-odds); this one is laprls"
	[ ! -e out.txt ]
	run --separate-stderr "$PRED" -b -d all.txt l.model out.txt
	assert_usage_error "-b and -d: choose the probabilities or the decision values" lapsvm-predict
}

@test "depth, rounds, shrinkage and tolerance out of range are usage errors" {
	"$DG" -S 1 -l 1 moons m.txt
	run --separate-stderr "$TRAIN" -s boost -D 0 m.txt
	assert_bad_option D "out of range"
	run --separate-stderr "$TRAIN" -s boost -D 11 m.txt
	assert_bad_option D "out of range"
	run --separate-stderr "$TRAIN" -s boost -B 0 m.txt
	assert_bad_option B "out of range"
	run --separate-stderr "$TRAIN" -s boost -B 100001 m.txt
	assert_bad_option B "out of range"
	run --separate-stderr "$TRAIN" -s boost -j 0 m.txt
	assert_bad_option j "out of range"
	run --separate-stderr "$TRAIN" -s boost -j 1.5 m.txt
	assert_bad_option j "out of range"
	run --separate-stderr "$TRAIN" -s boost -z -1 m.txt
	assert_bad_option z "out of range"
}

@test "the boosting options are refused with another solver, and -v over -a or -g with boosting" {
	"$DG" -S 1 -l 1 moons m.txt
	run --separate-stderr "$TRAIN" -s laprls -D 3 m.txt
	assert_train_usage "-D applies to boosting (-s boost)"
	run --separate-stderr "$TRAIN" -B 10 m.txt
	assert_train_usage "-B applies to boosting (-s boost)"
	run --separate-stderr "$TRAIN" -s boost -v 2 -a 1,2 -i 1,2 m.txt
	assert_train_usage "-v with -s boost: only gamma_M (-I/-i), the graph (-G), -P and -L are searched; -a plays no part in boosting"
	run --separate-stderr "$TRAIN" -s boost -v 2 -g 1,2 m.txt
	assert_train_usage "-v with -s boost: only gamma_M (-I/-i), the graph (-G), -P and -L are searched; -g plays no part in boosting"
	run --separate-stderr "$TRAIN" -s boost -v 3 -i 0,1 m.txt
	assert_train_usage "-v 3: "
}

# every row of the moons labeled, 8-NN graph: the fully supervised case
@test "-v over -i: the held-out error decides, the deviance breaks ties, the model is trained with the best gamma_M" {
	"$DG" -S 1 moons all.txt
	"$GB" -q -k 8 -w binary all.txt all.g
	run --separate-stderr "$TRAIN" -s boost -B 30 -z 0 -v 4 -I 0,0.5,50 -G all.g all.txt b.model
	assert_status 0
	assert_stderr_regex "combination 3 of 3: deviance [0-9.e-]+, accuracy"
	[ "${lines[0]}" = "# 4-fold stratified cross validation of 3 combinations: lowest class-balanced held-out error is best, ties (1e-12 relative) to the lower class-balanced deviance, then larger gamma_A, then smaller gamma_I" ]
	[[ "${lines[1]}" =~ ^\ +-I\ +error\ +deviance\ +accuracy$ ]]
	[ "${#lines[@]}" = 6 ]
	# the starred row: the lowest error, then the lowest deviance; it
	# is the best: line and the model's gamma_I
	printf '%s\n' "${lines[@]:2:3}" | tr -d '*' | awk '
		{ e[NR] = $2; d[NR] = $3; v[NR] = $1 }
		END { b = 1; for (i = 2; i <= NR; i++) if (e[i] < e[b] || (e[i] == e[b] && d[i] < d[b])) b = i; print v[b] }' >want
	[ "$(printf '%s\n' "${lines[@]:2:3}" | grep '^\*' | awk '{ print $2 }')" = "$(cat want)" ]
	[ "${lines[5]}" = "best: -I $(cat want)" ]
	[ "$(key b.model gamma_I)" = "$(cat want)" ]
	# the error column is 1 - accuracy on these balanced folds (100 + 100)
	printf '%s\n' "${lines[@]:2:3}" | tr -d '*%' | awk '{ d = $2 - (1 - $4 / 100); if (d < 0) d = -d; if (d > 1e-9) bad++ } END { exit bad > 0 }'
}

@test "-v with one gamma_M: its cross validation accuracy and deviance, no table" {
	"$DG" -S 1 moons all.txt
	run --separate-stderr "$TRAIN" -s boost -B 20 -I 0 -v 5 all.txt b.model
	assert_status 0
	[[ "${lines[0]}" =~ ^Cross\ Validation\ Accuracy\ =\ [0-9.]+%\ \([0-9]+/200\)$ ]]
	[[ "${lines[1]}" =~ ^Cross\ Validation\ Deviance\ =\ [0-9.e-]+$ ]]
	[ "${#lines[@]}" = 2 ]
}

@test "no labeled rows, one class, three classes: clear errors" {
	"$DG" -S 1 moons all.txt
	awk '{ $1 = 0; print }' all.txt >none.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 none.txt
	assert_status 1
	assert_stderr_has "no labeled rows"
	[ ! -e none.txt.model ]
	awk 'NR <= 100' all.txt >one.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 one.txt
	assert_status 1
	assert_stderr_has "only one class"
	awk '{ if (NR % 3 == 0) $1 = 2; print }' all.txt >three.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 three.txt
	assert_status 1
	assert_stderr_has "boosting is binary here: the labeled rows have 3 classes"
	[ ! -e three.txt.model ]
}

@test "constant features: nothing to split is an error" {
	printf '1 1:2 2:5\n-1 1:2 2:5\n0 1:2 2:5\n1 1:2 2:5\n' >c.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 c.txt
	assert_status 1
	assert_stderr_has "every feature is constant over the 4 rows (or there are none): a tree has nothing to split"
	[ ! -e c.txt.model ]
}

@test "a model with a corrupted tree is refused with its line" {
	moons_boost
	"$TRAIN" -q -s boost -B 3 -G m.g m.txt b.model
	line=$(grep -n '^boost_tree' b.model | head -n 1 | cut -d: -f1)
	# the root's left child pointing back at the root: a cycle
	awk -v L="$line" 'NR == L { $6 = 0 } { print }' b.model >bad.model
	run --separate-stderr "$PRED" all.txt bad.model out.txt
	assert_status 1
	assert_stderr_has "lapsvm-predict: bad.model:$line: boost_tree node 0: a child index is out of range"
	# a non-finite leaf value
	awk -v L="$line" 'NR == L { $NF = "inf" } { print }' b.model >bad.model
	run --separate-stderr "$PRED" all.txt bad.model out.txt
	assert_status 1
	assert_stderr_has "bad.model:$line: bad boost_tree value"
	# a feature beyond the reader's range
	awk -v L="$line" 'NR == L { $4 = 2147483649 } { print }' b.model >bad.model
	run --separate-stderr "$PRED" all.txt bad.model out.txt
	assert_status 1
	assert_stderr_has "bad.model:$line: bad boost_tree feature"
}
