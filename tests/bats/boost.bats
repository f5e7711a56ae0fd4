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
	assert_stderr_has "ManifoldBoost: l = 2, u = 198, 2 classes, gamma_I = "
	# trees: no kernel width, no gamma_A, no expansion points to report
	[[ "$stderr" != *"RBF width"* && "$stderr" != *gamma_A* && "$stderr" != *"expansion points"* ]]
	assert_stderr_regex "boosting: 1000 rounds \(the round cap -B\), 1000 trees of depth at most 4, cost 0.693147 -> "
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
	# one range in every -j message
	run --separate-stderr "$TRAIN" -s boost -j 0 m.txt
	assert_bad_option j "'0' is out of range \(expected 0 < nu <= 1\)"
	run --separate-stderr "$TRAIN" -s boost -j 1.5 m.txt
	assert_bad_option j "'1.5' is out of range \(expected 0 < nu <= 1\)"
	run --separate-stderr "$TRAIN" -s boost -j abc m.txt
	assert_bad_option j "'abc' is not a number \(expected 0 < nu <= 1\)"
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
	assert_train_usage "-v with -s boost: only gamma_M (-I/-i), the graph (-G), -P and -L (and -H rbf's width -g) are searched; -a plays no part here"
	run --separate-stderr "$TRAIN" -s boost -v 2 -g 1,2 m.txt
	assert_train_usage "-v with -s boost: only gamma_M (-I/-i), the graph (-G), -P and -L (and -H rbf's width -g) are searched; -g plays no part here"
	run --separate-stderr "$TRAIN" -s boost -K 2 -v 2 -i 0,1 m.txt
	assert_train_usage "-v scores held-out labels; clustering (-s boost -K) uses none"
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
	[ "${lines[0]}" = "# 4-fold stratified cross validation of 3 combinations: lowest class-balanced held-out error is best, ties (1e-12 relative) to the lower class-balanced deviance, then smaller gamma_I" ]
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

@test "no labeled rows, one class: clear errors" {
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
	# the RBF learner and the multiclass cost need labels all the same
	run --separate-stderr "$TRAIN" -s boost -H rbf -I 0 none.txt
	assert_status 1
	assert_stderr_has "no labeled rows"
	"$DG" -n 30 -l 0 rings r0.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 r0.txt
	assert_status 1
	assert_stderr_has "no labeled rows"
}

@test "constant features: nothing to split is an error; RBFs fit the constant" {
	printf '1 1:2 2:5\n-1 1:2 2:5\n0 1:2 2:5\n1 1:2 2:5\n' >c.txt
	run --separate-stderr "$TRAIN" -s boost -I 0 c.txt
	assert_status 1
	assert_stderr_has "every feature is constant over the 4 rows (or there are none): a tree has nothing to split"
	[ ! -e c.txt.model ]
	# every RBF is 1 at every row: f is one constant, the labeled
	# majority's side (2 of +1, 1 of -1)
	run --separate-stderr "$TRAIN" -s boost -H rbf -g 1 -I 0 -B 20 c.txt
	assert_status 0
	run --separate-stderr "$PRED" -d c.txt c.txt.model out.txt
	assert_status 0
	[ "$(tail -n +2 out.txt | cut -d' ' -f1 | sort -u)" = 1 ]
	[ "$(tail -n +2 out.txt | cut -d' ' -f2 | sort -u | wc -l)" = 1 ]
}

# predict_refuses TEXT: lapsvm-predict on bad.model exits 1 with TEXT in
# its message.
predict_refuses() {
	run --separate-stderr "$PRED" all.txt bad.model out.txt
	assert_status 1
	assert_stderr_has "$1"
}

@test "a model with a corrupted tree is refused with its line" {
	moons_boost
	"$TRAIN" -q -s boost -B 3 -G m.g m.txt b.model
	line=$(grep -n '^boost_tree' b.model | head -n 1 | cut -d: -f1)
	# the root's left child pointing back at the root: a cycle
	awk -v L="$line" 'NR == L { $6 = 0 } { print }' b.model >bad.model
	predict_refuses "lapsvm-predict: bad.model:$line: boost_tree node 0: a child index is out of range"
	# a non-finite leaf value
	awk -v L="$line" 'NR == L { $NF = "inf" } { print }' b.model >bad.model
	predict_refuses "bad.model:$line: bad boost_tree value"
	# a feature beyond the reader's range
	awk -v L="$line" 'NR == L { $4 = 2147483649 } { print }' b.model >bad.model
	predict_refuses "bad.model:$line: bad boost_tree feature"
	# another method's key, or the RBF learner's key in a tree model
	awk '$1 == "nr_class" { print "combine_mu 0.5" } { print }' b.model >bad.model
	predict_refuses "key 'combine_mu' in a boost model (expected it only in a combination's model (solver combine))"
	awk '$1 == "nr_class" { print "boost_rbfs 15" } { print }' b.model >bad.model
	predict_refuses "key 'boost_rbfs' in a boost model (expected it only in an RBF-boosted model (solver boost, boost_learner rbf))"
}

# r.txt: 300 three rings, 4 labels per class (every 24th row of each ring
# first); rall.txt the same rows labeled; r.g its 6-NN graph.
rings_boost() {
	"$DG" -S 3 -n 300 -e 0.05 rings rall.txt
	awk '{ c = $1; i = NR - 1; if (i % 24 != 0 || k[c] == 4) $1 = 0; else k[c]++; print }' \
		rall.txt >r.txt
	"$GB" -q -k 6 rall.txt r.g
}

@test "-H rbf: two moons, one label per class, at least 98%; the model's centres are training rows" {
	moons_boost
	run --separate-stderr "$TRAIN" -s boost -H rbf -g 10 -B 300 -i 100 -G m.g -o u.pred m.txt b.model
	assert_status 0
	assert_stderr_regex "boosting: 300 rounds \(the round cap -B\), up to 15 RBFs per function and round of width gamma = 10 on [0-9]+ distinct centres, cost 0.693147 -> "
	[ "$(key b.model boost_learner)" = rbf ]
	[ "$(key b.model boost_rbfs)" = 15 ]
	[ "$(key b.model kernel)" = rbf ]
	[ "$(key b.model gamma)" = 10 ]
	[ -n "$(key b.model seed)" ]
	[ "$(grep -c '^boost_tree' b.model)" = 0 ]
	nsv=$(key b.model nr_sv)
	[ "$nsv" -ge 1 ] && [ "$nsv" -le 200 ]
	# each centre is one of the rows (its features as written by datagen)
	sv_lines b.model | cut -d' ' -f2- | sort -u >centres
	cut -d' ' -f2- all.txt | sort -u >rows
	[ "$(comm -23 centres rows | wc -l)" = 0 ]
	run --separate-stderr "$PRED" all.txt b.model out.txt
	assert_status 0
	acc=$(printf '%s\n' "$output" | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a >= 98) }' || { echo "$output"; false; }
	# -o: the transductive values are the model's own on those rows
	"$PRED" -d m.txt b.model d.txt >/dev/null
	paste -d' ' <(cut -d' ' -f1 m.txt) <(tail -n +2 d.txt) | awk '$1 == 0 { print $2, $3 }' >mine
	paste -d' ' <(tail -n +2 u.pred) mine | awk '{ d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-12 * (1 + ($2 < 0 ? -$2 : $2))) bad++ } END { exit bad > 0 }'
	# the same seed, the same model; another seed, other candidates
	"$TRAIN" -q -s boost -H rbf -g 10 -B 300 -i 100 -G m.g m.txt again.model
	assert_same b.model again.model
	"$TRAIN" -q -s boost -H rbf -g 10 -B 300 -i 100 -S 2 -G m.g m.txt other.model
	! cmp -s b.model other.model
}

@test "-H and -Q: bad values and misplaced options are usage errors" {
	moons_boost
	run --separate-stderr "$TRAIN" -s boost -H forest m.txt
	assert_train_usage "option -H: unknown base learner 'forest' (expected tree or rbf)"
	run --separate-stderr "$TRAIN" -s boost -H rbf -Q 0 m.txt
	assert_train_usage "option -Q: '0' out of range (expected an integer in 1..1000)"
	run --separate-stderr "$TRAIN" -s boost -H rbf -Q 1001 m.txt
	assert_train_usage "option -Q: '1001' out of range"
	run --separate-stderr "$TRAIN" -s boost -Q 5 m.txt
	assert_train_usage "-Q is the number of RBFs per round of -H rbf"
	run --separate-stderr "$TRAIN" -H rbf m.txt
	assert_train_usage "-H applies to boosting (-s boost)"
	run --separate-stderr "$TRAIN" -s boost -H rbf -t 0 -I 0 m.txt
	assert_train_usage "the RBF base learner needs the RBF kernel (its width is -g)"
	# trees take no kernel and no landmarks (once ignored, and a
	# precomputed kernel's serial numbers overran the bins: an abort)
	run --separate-stderr "$TRAIN" -s boost -t 0 m.txt
	assert_train_usage "boosting's trees split the features: no kernel applies (the linear kernel was asked for)"
	run --separate-stderr "$TRAIN" -s boost -N 5 m.txt
	assert_train_usage "boosting fits its base learners to the features themselves: Nystrom landmarks (-N) do not apply"
	run --separate-stderr "$TRAIN" -s boost -K 3 -N 5 m.txt
	assert_train_usage "boosting fits its base learners to the features themselves: Nystrom landmarks (-N) do not apply"
	run --separate-stderr "$TRAIN" -s boost -B 0 m.txt
	assert_train_usage "option -B: '0' out of range (expected an integer in 1..100000)"
	run --separate-stderr "$TRAIN" -s boost -D 11 m.txt
	assert_train_usage "option -D: '11' out of range (expected an integer in 1..10)"
}

@test "three rings, four labels per class: trees and RBFs, one learner per class and round" {
	rings_boost
	for h in tree rbf; do
		run --separate-stderr "$TRAIN" -s boost -H "$h" -g 3 -D 4 -j 0.5 -B 150 -z 0 -i 10 -G r.g -o u.pred r.txt b.model
		assert_status 0
		assert_stderr_regex "ManifoldBoost: l = 12, u = 288, 3 classes"
		assert_stderr_regex "cost 1.09861[0-9]* -> "
		[ "$(key b.model nr_fn)" = 3 ]
		if [ "$h" = tree ]; then
			# 150 rounds x 3 classes, each tree adding to its class
			[ "$(grep -c '^boost_tree' b.model)" = 450 ]
			[ "$(grep -c '^boost_tree 3 ' b.model)" = 150 ]
		fi
		run --separate-stderr "$PRED" rall.txt b.model out.txt
		assert_status 0
		[[ "$output" == "Accuracy = 100% (300/300) (classification)"* ]]
		# -d: the functions sum to 0 on every row; -o agrees
		"$PRED" -d r.txt b.model d.txt >/dev/null
		[ "$(head -n 1 d.txt)" = "labels 1 2 3" ]
		tail -n +2 d.txt | awk '{ s = $2 + $3 + $4; if (s < 0) s = -s; if (s > 1e-12) bad++ } END { exit bad > 0 }'
		paste -d' ' <(cut -d' ' -f1 r.txt) <(tail -n +2 d.txt) | awk '$1 == 0 { $1 = ""; print substr($0, 2) }' >mine
		paste -d' ' <(tail -n +2 u.pred) mine | awk '{ for (k = 2; k <= 4; k++) { d = $k - $(k + 4); if (d < 0) d = -d; if (d > 1e-12 * (1 + ($k < 0 ? -$k : $k))) bad++ } if ($1 != $5) bad++ } END { exit bad > 0 }'
		# -b: the softmax of the functions, summing to 1, its argmax the label
		"$PRED" -b rall.txt b.model p.txt >/dev/null
		[ "$(head -n 1 p.txt)" = "labels 1 2 3" ]
		paste -d' ' <(tail -n +2 p.txt) <(tail -n +2 d.txt) | awk '{
			z = exp($6) + exp($7) + exp($8)
			for (k = 2; k <= 4; k++) { d = $k - exp($(k + 4)) / z; if (d < 0) d = -d; if (d > 1e-12) bad++ }
			s = $2 + $3 + $4 - 1; if (s < 0) s = -s; if (s > 1e-12) bad++
			b = 1; if ($3 > $(b + 1)) b = 2; if ($4 > $(b + 1)) b = 3; if (b != $1) bad++
		} END { exit bad > 0 }'
	done
}

@test "-k a:b: the cost-matrix rule of eq. 9 moves the threshold of p(y = L1 | x)" {
	moons_boost
	"$TRAIN" -q -s boost -B 100 -i 1 -G m.g m.txt b.model
	"$PRED" -q -b all.txt b.model p.txt
	"$PRED" -q all.txt b.model plain.txt
	"$PRED" -q -k 1:1 all.txt b.model k11.txt
	assert_same plain.txt k11.txt
	for k in 1:3 3:1 1:100 7:2; do
		"$PRED" -q -k "$k" all.txt b.model k.txt
		a=${k%:*}; b=${k#*:}
		# L1 (+1) exactly where p1 > b / (a + b)
		paste -d' ' k.txt <(tail -n +2 p.txt) | awk -v a="$a" -v b="$b" '{
			want = ($3 * a > (1 - $3) * b) ? 1 : -1; if ($1 != want) bad++ } END { exit bad > 0 }'
	done
	# 1:100 makes +1 dearer than 1:1 does: fewer +1 predictions
	"$PRED" -q -k 1:100 all.txt b.model k.txt
	[ "$(grep -c '^1$' k.txt)" -lt "$(grep -c '^1$' plain.txt)" ]
	run --separate-stderr "$PRED" -k 1 all.txt b.model k.txt
	assert_status 2
	assert_stderr_has "option -k: '1' is not a:b"
	# 0 is refused with the range that says so (it said [0, 1e+300])
	run --separate-stderr "$PRED" -k 0:1 all.txt b.model k.txt
	assert_status 2
	assert_stderr_has "option -k: '0' out of range (expected a number in [2.22507e-308, 1e+300])"
	"$TRAIN" -q -s laprls -G m.g m.txt l.model
	run --separate-stderr "$PRED" -k 1:2 all.txt l.model k.txt
	assert_status 1
	assert_stderr_has "-k needs a boosted model"
	rings_boost
	"$TRAIN" -q -s boost -B 5 -G r.g r.txt r.model
	run --separate-stderr "$PRED" -k 1:2 rall.txt r.model k.txt
	assert_status 1
	assert_stderr_has "-k is the two-class rule of eq. 9; this model has 3 classes"
}

@test "-K: clustering by boosting, two moons into two (no labels used)" {
	# without the shared data: moons with less noise than the default 0.1,
	# whose arcs touch at -e 0.25 (75.5% with seed 1)
	cp "$LAPSVM_DATA/twomoons.libsvm" all.txt 2>/dev/null || "$DG" -S 1 -e 0.08 moons all.txt
	"$GB" -q -e 0.25 all.txt a.g
	for h in tree rbf; do
		run --separate-stderr "$TRAIN" -s boost -K 2 -H "$h" -g 30 -D 5 -j 0.5 -B 300 -G a.g -o u.pred all.txt b.model
		assert_status 0
		assert_stderr_has "ManifoldBoost clustering: l = 0, u = 200, 2 clusters"
		assert_stderr_regex "clustering by boosting: largest constraint violation at the end [0-9.e-]+ \(mean f, mean f\^2 - 1\)"
		[ "$(key b.model boost_clusters)" = 2 ]
		[ "$(key b.model labels)" = "1 2" ]
		run --separate-stderr "$PRED" all.txt b.model out.txt
		assert_status 0
		acc=$(printf '%s\n' "$output" | sed -n 's/^Clustering accuracy = \([0-9.]*\)%.*/\1/p')
		awk -v a="$acc" 'BEGIN { exit !(a >= 95) }' || { echo "$output"; false; }
		# -o: every row, as the model predicts it
		"$PRED" -d all.txt b.model d.txt >/dev/null
		[ "$(head -n 1 d.txt)" = "clusters 1 2" ]
		paste -d' ' <(tail -n +2 u.pred) <(tail -n +2 d.txt) | awk '{ d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-12 * (1 + ($2 < 0 ? -$2 : $2))) bad++ } END { exit bad > 0 }'
	done
	run --separate-stderr "$PRED" -b all.txt b.model p.txt
	assert_status 1
	assert_stderr_has "-b needs a classifier; this boosted model clusters"
	run --separate-stderr "$TRAIN" -s boost -K 2 -I 0 all.txt
	assert_usage_error "clustering by boosting needs gamma_I > 0" lapsvm-train
	run --separate-stderr "$TRAIN" -s boost -K 1 all.txt
	assert_usage_error "option -K: '1' out of range" lapsvm-train
}

@test "an RBF model with a corrupted centre or weight is refused with its line" {
	moons_boost
	"$TRAIN" -q -s boost -H rbf -g 10 -B 3 -G m.g m.txt b.model
	sv=$(grep -n '^SV$' b.model | cut -d: -f1)
	line=$((sv + 1))
	awk -v L="$line" 'NR == L { $1 = "nan" } { print }' b.model >bad.model
	predict_refuses "bad.model:$line:"
	# more centres than training rows
	awk '$1 == "nr_sv" { $2 = 201 } { print }' b.model >bad.model
	predict_refuses "RBF centres, more than the l + u = 200 training rows"
	# a tree in an RBF model
	awk '$1 == "nr_sv" { print "boost_tree 1 1 0 0 0 0 1" } { print }' b.model >bad.model
	predict_refuses "boost_tree lines in an RBF-boosted model"
	awk '$1 == "boost_learner" { $2 = "forest" } { print }' b.model >bad.model
	predict_refuses "unknown boost_learner"
}

@test "-v with -H rbf searches the RBF width -g beside gamma_M" {
	"$DG" -S 1 moons all.txt
	"$GB" -q -k 8 -w binary all.txt all.g
	run --separate-stderr "$TRAIN" -s boost -H rbf -Q 2 -B 10 -z 0 -v 3 -g 1,4 -I 0,1 -G all.g all.txt b.model
	assert_status 0
	[[ "${lines[1]}" =~ ^\ +-g\ +-I\ +error\ +deviance\ +accuracy$ ]]
	[ "${#lines[@]}" = 7 ]
	best=$(printf '%s\n' "${lines[@]}" | sed -n 's/^best: -g \([^ ]*\) -I .*/\1/p')
	[ -n "$best" ]
}

@test "sparse rows (one-hot codes) give the model the same rows stored densely give, byte for byte" {
	# 200 rows of 16 features, three stored per row (one-hot codes of 4
	# and of 3, and a value in feature 16): the histograms come from the
	# stored entries (nnz = 600 <= n d / 4); the same rows with every zero
	# written out take the dense path.  Every 7th label is flipped, so the
	# nodes stay mixed (a pure node's gains are rounding noise, which the two
	# ways of summing break differently).
	awk 'BEGIN { for (i = 0; i < 200; i++) {
		c = i % 4; v = ((i * 37) % 101) / 10.0; y = (c == 1 || v > 5) ? 1 : -1
		if (i % 7 == 0) y = -y
		printf "%d %d:1 %d:1 16:%g\n", y, c + 1, 5 + (i % 3), v } }' >sparse.txt
	awk '{ for (j = 1; j <= 16; j++) x[j] = 0
		for (k = 2; k <= NF; k++) { split($k, p, ":"); x[p[1]] = p[2] }
		printf "%s", $1; for (j = 1; j <= 16; j++) printf " %d:%s", j, x[j]; print "" }' sparse.txt >dense.txt
	"$TRAIN" -q -s boost -I 0 -D 3 -B 50 sparse.txt s.model
	"$TRAIN" -q -s boost -I 0 -D 3 -B 50 dense.txt d.model
	[ "$(grep -c "^boost_tree 1 " s.model)" = 50 ]
	cmp s.model d.model
	# and they fit: the rule is depth 2 in these features, 1 label in 7 flipped
	run --separate-stderr "$PRED" sparse.txt s.model out.txt
	assert_status 0
	acc=$(printf '%s\n' "$output" | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a >= 90) }' || { echo "$output"; false; }
}

@test "-p labeled with boosting: unbalanced labels put the unlabeled rows in the majority; the shift gives the labeled ratio" {
	# one +1 (row 1) and five -1 (rows 101-105) labeled: at a minimizer the
	# derivative along a constant shift of F is 0 (1'L = 0), so the labeled
	# losses' derivatives sum to 0 and the level of F away from the labels
	# is the majority's
	"$DG" -S 1 moons all.txt
	awk 'NR == 1 || (NR >= 101 && NR <= 105) { print; next } { $1 = 0; print }' all.txt >ub.txt
	"$GB" -q -e 0.25 ub.txt ub.g
	"$TRAIN" -q -s boost -D 3 -B 100 -i 1 -G ub.g -o t.pred ub.txt t.model
	[ "$(tail -n +2 t.pred | awk '$1 == 1' | wc -l)" -eq 0 ]
	"$TRAIN" -q -s boost -H rbf -g 10 -B 100 -i 1 -G ub.g -o r.pred ub.txt r.model
	[ "$(tail -n +2 r.pred | awk '$1 == 1' | wc -l)" -lt 32 ]
	[ -z "$(key r.model balance_shift)" ]
	# 1/6 of the 194 unlabeled rows: floor(32.33 + 0.5) = 32 positive
	run --separate-stderr "$TRAIN" -q -s boost -H rbf -g 10 -B 100 -i 1 -G ub.g -p labeled \
		-o rp.pred ub.txt rp.model
	assert_status 0
	[ "$(tail -n +2 rp.pred | awk '$1 == 1' | wc -l)" -eq 32 ]
	# the shift is recorded and already in the bias; lapsvm-predict agrees
	local b0 b s
	b0=$(key r.model bias)
	b=$(key rp.model bias)
	s=$(key rp.model balance_shift)
	assert_close "$(awk -v b="$b" -v s="$s" 'BEGIN { printf "%.17g", b - s }')" "$b0" 1e-12
	awk '$1 == 0' ub.txt >unl.txt
	"$PRED" -q unl.txt rp.model p.txt
	[ "$(grep -v '^labels ' p.txt | awk '$1 == 1' | wc -l)" -eq 32 ]
}

@test "-p labeled with three classes: -o's values are lapsvm-predict's (both centred)" {
	"$DG" -S 2 -n 60 -l 3 rings r.txt
	"$GB" -q -k 5 r.txt r.g
	"$TRAIN" -q -s boost -p labeled -B 20 -G r.g -o o.pred r.txt r.model
	[ -n "$(key r.model balance_shift)" ]
	awk '$1 == 0' r.txt >u.txt
	"$PRED" -q -d u.txt r.model p.pred
	# the shifts' mean was left in -o's values (0.18 here)
	paste -d' ' o.pred p.pred | awk 'NR > 1 { for (c = 2; c <= 4; c++) {
		d = $c - $(c + 4); if (d < 0) d = -d
		if (d > 1e-12) { print "line " NR ": " $0; bad = 1 } } } END { exit bad }'
}

@test "-K 3:spectral: three rings clustered from the Laplacian's bottom eigenvectors, where the random start stalls" {
	"$DG" -S 1 -n 300 rings r.txt
	"$GB" -q -e 0.5 r.txt r.g
	# the paper's random start: an angular mode of the outer ring (README)
	"$TRAIN" -q -s boost -K 3 -D 5 -j 0.5 -B 300 -S 1 -G r.g r.txt rand.model
	run --separate-stderr "$PRED" r.txt rand.model rand.pred
	assert_status 0
	acc=$(printf '%s\n' "$output" | sed -n 's/^Clustering accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a < 95) }' || { echo "$output"; false; }
	run --separate-stderr "$TRAIN" -s boost -K 3:spectral -D 5 -j 0.5 -B 300 -S 1 -G r.g r.txt spec.model
	assert_status 0
	assert_stderr_has "clustering by boosting: largest constraint violation"
	run --separate-stderr "$PRED" r.txt spec.model spec.pred
	assert_status 0
	[[ "$output" == "Clustering accuracy = 100% (300/300)"* ]] || { echo "$output"; false; }
	# :random is the default start
	"$TRAIN" -q -s boost -K 3:random -D 5 -j 0.5 -B 300 -S 1 -G r.g r.txt r2.model
	assert_same rand.model r2.model
}

@test "-K c:start: an unknown start, or a spectral start outside -s boost, is a usage error; the dense start over -m is refused" {
	"$DG" -S 1 -n 60 rings r.txt
	run --separate-stderr "$TRAIN" -s boost -K 3:eigen r.txt m.model
	assert_status 2
	assert_stderr_has "lapsvm-train: option -K: unknown start 'eigen' (expected c, c:random or c:spectral)"
	run --separate-stderr "$TRAIN" -s cluster -K 3:spectral r.txt m.model
	assert_status 2
	assert_stderr_has "-K c:spectral is the start of -s boost's clustering"
	run --separate-stderr "$TRAIN" -s boost -K 3:spectral,x r.txt m.model
	assert_status 2
	# the dense eigenproblem is checked against the memory limit first
	"$DG" -S 1 -n 300 rings big.txt
	# (L^p and V, 2 n^2, and lsv_eig_extreme's copy and dsyevd fallback,
	# 3 n^2: 3.79 MB; -m 2 is over the old count without the eigensolver,
	# 1.45 MB)
	for m in 1 2; do
		run --separate-stderr "$TRAIN" -s boost -K 3:spectral -m $m big.txt m.model
		assert_status 1
		assert_stderr_has "lapsvm-train: the spectral start's dense Laplacian would need 3.79 MB, over the memory limit (-m) of $m.00 MB; start at random (-K c without :spectral)"
	done
}

@test "a precomputed kernel (-t 4) is refused by boosting before training, nothing written" {
	moons_boost
	"$TRAIN" -q -s laprls -g 0.5 -G m.g -x k.t4 m.txt /dev/null
	echo old >out.model
	for extra in "" "-I 0" "-K 2"; do
		# shellcheck disable=SC2086  # the extra options, split
		run --separate-stderr "$TRAIN" -s boost $extra -t 4 -G m.g k.t4 out.model
		assert_usage_error "boosting's trees split the features: no kernel applies (the precomputed kernel was asked for)" lapsvm-train
		[ "$(cat out.model)" = old ]
	done
	[ -z "$(find . -name '.*tmp*')" ]
}

@test "clustering by boosting on a graph with no edges is an error, as -s cluster's" {
	moons_boost
	seq 1 200 >none.g
	run --separate-stderr "$TRAIN" -s boost -K 3 -G none.g m.txt c.model
	assert_status 1
	assert_stderr_has "lapsvm-train: the graph has no edges (every row is isolated): nothing to cluster by"
	[ ! -e c.model ]
}

# Prediction spread each row over a dense vector as long as the largest
# feature a tree splits on: a tree on feature 2e9 (a hashed feature space)
# asked for 16 GB (found by make fuzz: a 1.2 KB model, 2.3 GB).  The rows
# are spread over the split features only.
@test "a tree splitting on feature 2000000000 predicts as one on an absent small feature, in little memory" {
	if ldd "$PRED" 2>/dev/null | grep -q libasan; then
		skip "an ASan build maps terabytes of shadow memory: ulimit -v stops it at start"
	fi
	"$DG" -S 2 -l 5 moons m.txt
	"$TRAIN" -q -s boost -D 1 -B 3 -I 0 m.txt m.model
	# the first node's feature (1-based in the file) replaced
	awk '$1 == "boost_tree" { $4 = F } { print }' F=2000000000 m.model >big.model
	awk '$1 == "boost_tree" { $4 = F } { print }' F=3 m.model >small.model
	grep -q '^boost_tree 1 3 2000000000 ' big.model
	"$PRED" -d m.txt small.model small.out >/dev/null
	run --separate-stderr bash -c "ulimit -v 400000; exec '$PRED' -d m.txt big.model big.out"
	assert_status 0
	cmp small.out big.out
}

# the library's refusals came after the data was read for them: -t 4 read
# the rows as a kernel and failed on the first ('missing serial number'),
# -y on an unlabeled row (exit 1 both)
@test "-s boost with -t 4 or -y: the usage error (exit 2) before the data is read" {
	"$DG" -S 2 -l 5 moons m.txt
	"$GB" -q m.txt m.graph
	run --separate-stderr "$TRAIN" -q -s boost -t 4 -G m.graph m.txt x.model
	assert_status 2
	assert_stderr_has "lapsvm-train: boosting's trees split the features: no kernel applies (the precomputed kernel was asked for)"
	run --separate-stderr "$TRAIN" -q -s boost -y m.txt x.model
	assert_status 2
	assert_stderr_has "lapsvm-train: class-dependent Laplacians with boosting (not implemented)"
	[ ! -e x.model ]
}

# without -G, -t 4 was first told it needs the graph given with -G; given
# one, it was then told boosting takes no kernel at all
@test "-s boost -t 4 without -G: boosting refuses the kernel, not asking for a graph it cannot use" {
	"$DG" -S 2 -l 5 moons m.txt
	for extra in "" "-K 3"; do
		# shellcheck disable=SC2086  # the extra options, split
		run --separate-stderr "$TRAIN" -q -s boost $extra -t 4 m.txt x.model
		assert_usage_error "boosting's trees split the features: no kernel applies (the precomputed kernel was asked for)" lapsvm-train
		[[ "$stderr" != *"needs the graph"* ]]
	done
	[ ! -e x.model ]
}
