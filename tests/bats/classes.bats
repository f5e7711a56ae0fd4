#!/usr/bin/env bats
# Class-dependent Laplacians (JMLR 2006 Section 6.2): graph-build -y and
# lapsvm-train -y / -W.  Each class is regularized on a graph of its own
# rows; the weights scale each class's gamma_I; cross validation keeps the
# held-out labels out of every fold's graph.  Small data (two moons,
# every row labeled), each test well under a few seconds.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
	"$DG" -S 1 moons m.txt
}

# edges_between DATA GRAPH: how many edges of GRAPH join rows of DATA
# with different labels.
edges_between() {
	awk 'NR == FNR { y[FNR] = $1; next }
		{ for (f = 2; f <= NF; f++) { split($f, a, ":"); if (y[$1] != y[a[1]]) n++ } }
		END { print n + 0 }' "$1" "$2"
}

# cv_accuracy: the percentage of lapsvm-train -v's single-setting line.
cv_accuracy() {
	printf '%s\n' "$output" | sed -n 's/^Cross Validation Accuracy = \([0-9.]*\)%.*/\1/p'
}

# ------------------------------------------------------------ graph-build

@test "graph-build -y: no edge joins two classes; the plain graph has some" {
	run --separate-stderr "$GB" -y m.txt cls.graph
	assert_status 0
	assert_stderr_has "200 rows, k = 6 within each class:"
	[ "$(edges_between m.txt cls.graph)" -eq 0 ]
	"$GB" -q -k 10 m.txt all.graph
	[ "$(edges_between m.txt all.graph)" -gt 0 ]
	# epsilon-ball pairs too
	"$GB" -q -y -e 0.5 m.txt eps.graph
	[ "$(edges_between m.txt eps.graph)" -eq 0 ]
	"$GB" -q -e 0.5 m.txt eps-all.graph
	[ "$(edges_between m.txt eps-all.graph)" -gt 0 ]
	# each class's rows alone give that class's block, renumbered
	awk '$1 == 1' m.txt >pos.txt
	"$GB" -q pos.txt pos.graph
	awk 'NR == FNR { if ($1 == 1) map[++k] = FNR; next }
		FNR in map { printf "%d", map[FNR]
			for (f = 2; f <= NF; f++) { split($f, a, ":"); printf " %d:%s", map[a[1]], a[2] }
			print "" }' m.txt pos.graph | sort -n >pos.mapped
	awk 'NR == FNR { y[FNR] = $1; next } y[$1] == 1' m.txt cls.graph | sort -n |
		awk '{ printf "%s", $1; for (f = 2; f <= NF; f++) { split($f, a, ":"); printf " %s", a[1] }; print "" }' >cls.cols
	awk '{ printf "%s", $1; for (f = 2; f <= NF; f++) { split($f, a, ":"); printf " %s", a[1] }; print "" }' pos.mapped >pos.cols
	assert_same cls.cols pos.cols
}

@test "graph-build -y: a row refused in its class's graph is named by its line in the file" {
	printf '%s\n' '1 1:0' '2 1:5' '1 1:1' '2 1:1e-200' '2 1:6' >t.txt
	run --separate-stderr "$GB" -y -k 1 t.txt g
	assert_fails graph-build "t.txt:4: a feature value too small (1e-200"
	[ ! -e g ]
}

@test "graph-build -y: an unlabeled row is refused, naming it; -u names another marker" {
	sed '5s/^-*1 /0 /' m.txt >u.txt
	run --separate-stderr "$GB" -y u.txt g
	assert_fails graph-build "u.txt:5: the row is unlabeled (label 0, the unlabeled marker)" \
		"every row needs a class" "-u"
	[ ! -e g ]
	# 0 as a class of its own under -u 9
	run --separate-stderr "$GB" -y -u 9 u.txt g
	assert_status 0
	assert_stderr_has "warning: k = 6 but the smallest class offers only 0 candidate neighbours per point"
	[ "$(edges_between u.txt g)" -eq 0 ]
	grep -q '^5$' g  # a class of one row: isolated
}

@test "graph-build: -u without -y and -N with -y are usage errors" {
	run --separate-stderr "$GB" -u -1 m.txt g
	assert_usage_error "-u names the unlabeled rows for -y"
	run --separate-stderr "$GB" -y -N m.txt g
	assert_usage_error "-N lists the neighbours among all rows; it does not apply with -y"
	[ ! -e g ]
}

# ----------------------------------------------------------- lapsvm-train

@test "lapsvm-train -y builds a within-class graph and records it in the model" {
	run --separate-stderr "$TRAIN" -y -s laprls m.txt a.model
	assert_status 0
	assert_stderr_has "built a 6-NN graph within each class"
	assert_stderr_has "class-dependent Laplacians: gamma_I times the weight of each class (class:weight) 1:1 -1:1"
	[[ "$(key a.model graph)" == "built knn k=6 euclidean heat t="*" union within-class" ]]
	[ "$(key a.model intrinsic_weights)" = "1 1" ]
	# the same model as the graph of graph-build -y given with -G
	"$GB" -q -y m.txt cls.graph
	"$TRAIN" -q -y -s laprls -G cls.graph m.txt b.model
	[ "$(key b.model graph)" = "file cls.graph" ]
	diff <(sv_lines a.model) <(sv_lines b.model)
	[ "$(key a.model bias)" = "$(key b.model bias)" ]
}

@test "-y with a class smaller than k: the k asked for is reported and recorded, the small class's cap named" {
	# class 1 of one row (k capped at 0), class -1 of four (k = 3 used)
	printf '%s\n' '1 1:0 2:0' '-1 1:5 2:0' '-1 1:6 2:0' '-1 1:5 2:1' '-1 1:6 2:1' >y1.txt
	run --separate-stderr "$GB" -y -k 3 y1.txt g
	assert_status 0
	assert_stderr_has "warning: k = 3 but the smallest class offers only 0 candidate neighbours per point; its rows use k = 0"
	assert_stderr_has "5 rows, k = 3 within each class: 6 edges, 1 isolated rows"
	run --separate-stderr "$TRAIN" -y -k 3 -s laprls y1.txt a.model
	assert_status 0
	assert_stderr_has "built a 3-NN graph within each class (euclidean, heat weights) over the 5 rows; a class of m rows offers m - 1 neighbours, so the smallest class's rows use k = 0"
	# the recorded k rebuilds the graph (k = 0 would be refused)
	[[ "$(key a.model graph)" == "built knn k=3 euclidean heat t="*" union within-class" ]]
	"$TRAIN" -q -y -s laprls -G g y1.txt b.model
	diff <(sv_lines a.model) <(sv_lines b.model)
}

@test "lapsvm-train -y -G: a graph joining two classes is refused, naming the edge" {
	"$GB" -q -k 10 m.txt all.graph
	run --separate-stderr "$TRAIN" -y -G all.graph m.txt a.model
	assert_fails lapsvm-train "all.graph: row " "joins class" \
		"-y needs a graph with no edge between two classes (graph-build -y builds one)"
	[ ! -e a.model ]
}

@test "lapsvm-train -y: unlabeled rows are refused; -u names another marker" {
	sed '7s/^-*1 /0 /' m.txt >u.txt
	run --separate-stderr "$TRAIN" -y u.txt a.model
	assert_fails lapsvm-train "u.txt:7: the row is unlabeled (label 0, the unlabeled marker)" \
		"-y regularizes each class on its own graph, so every row needs a class" \
		"name another marker with -u"
	[ ! -e a.model ]
	run --separate-stderr "$TRAIN" -y -u -9 u.txt a.model
	assert_status 0
	[ "$(key a.model labels)" = "1 0 -1" ]  # first appearance
	[ "$(key a.model intrinsic_weights)" = "1 1 1" ]
}

@test "-W: the model records each class's weight; a weight for every class is gamma_I times it" {
	"$TRAIN" -q -y -W -1:2.5 m.txt a.model
	[ "$(key a.model intrinsic_weights)" = "1 2.5" ]
	"$TRAIN" -q -y m.txt b.model
	! diff -q <(sv_lines a.model) <(sv_lines b.model) >/dev/null
	# blockdiag(w L_c) with w = 4 for both classes is 4 L: -I 2 x 4 = -I 8
	"$TRAIN" -q -y -s laprls -W 1:4 -W -1:4 -I 2 m.txt c.model
	"$TRAIN" -q -y -s laprls -I 8 m.txt d.model
	"$PRED" -d m.txt c.model c.pred >/dev/null
	"$PRED" -d m.txt d.model d.pred >/dev/null
	assert_same_predictions c.pred d.pred
}

@test "-W errors: malformed, bad weight, repeated or unknown class, without -y: exit 2" {
	for w in abc 1: :2 1:2:3 1:2,-1:3; do
		run --separate-stderr "$TRAIN" -y -W "$w" m.txt
		assert_bad_option W "'$w' is not class:weight"
	done
	run --separate-stderr "$TRAIN" -y -W x:2 m.txt
	assert_bad_option W "class 'x' in 'x:2' is not a number"
	for v in 0 -1; do
		run --separate-stderr "$TRAIN" -y -W "1:$v" m.txt
		assert_bad_option W "weight '$v' of class 1 out of range \(expected a finite number > 0\)"
	done
	run --separate-stderr "$TRAIN" -y -W 1:abc m.txt
	assert_bad_option W "weight 'abc' of class 1 is not a number \(expected a finite number > 0\)"
	run --separate-stderr "$TRAIN" -y -W 1:nan m.txt
	assert_bad_option W "weight 'nan' of class 1 is not finite \(expected a finite number > 0\)"
	run --separate-stderr "$TRAIN" -y -W 1:1e999 m.txt
	assert_bad_option W "weight '1e999' of class 1 is out of range \(expected a finite number > 0\)"
	run --separate-stderr "$TRAIN" -y -W 1:2 -W 1:3 m.txt
	assert_bad_option W "class 1 is given twice \(weights 2 and 3\)"
	run --separate-stderr "$TRAIN" -y -W 7:2 m.txt
	assert_bad_option W "no row of m.txt has class 7 \(the classes are 1, -1\)"
	run --separate-stderr "$TRAIN" -W 1:2 m.txt
	assert_train_usage "-W weighs the Laplacian of a class: it needs -y (class-dependent Laplacians)"
	run --separate-stderr "$TRAIN" -y -s tsvm m.txt
	assert_train_usage "-y regularizes each class on its own graph; the TSVM uses no graph"
}

@test "a -y model round trips through lapsvm-predict; the key is a record only" {
	"$TRAIN" -q -y -W 1:3 m.txt a.model
	run --separate-stderr "$PRED" -d m.txt a.model a.pred
	assert_status 0
	[[ "$output" == "Accuracy = "* ]]
	# the same decision values without the key: prediction does not use it
	grep -v '^intrinsic_weights ' a.model >b.model
	"$PRED" -d m.txt b.model b.pred >/dev/null
	assert_same a.pred b.pred
	# out of sample: new points from another seed
	"$DG" -S 2 moons t.txt
	run --separate-stderr "$PRED" t.txt a.model t.pred
	assert_status 0
	[ "$(wc -l <t.pred)" -eq 200 ]
	# a wrong count or a weight that is not > 0 is refused, file:line
	sed 's/^intrinsic_weights .*/intrinsic_weights 3/' a.model >c.model
	run --separate-stderr "$PRED" m.txt c.model c.pred
	assert_fails lapsvm-predict "c.model:19: wrong number of intrinsic_weights (found 1, expected nr_class = 2)"
	sed 's/^intrinsic_weights .*/intrinsic_weights 3 0/' a.model >c.model
	run --separate-stderr "$PRED" m.txt c.model c.pred
	assert_fails lapsvm-predict "c.model:19: bad value in intrinsic_weights (found 0, expected a number > 0)"
}

# ----------------------------------------------------- cross validation

@test "-y -v: every fold trained on its own graph; scores as PCG training; the final model a plain run's" {
	opts="-y -s laprls -v 3 -a 1e-4,1e-2 -i 0.01,1"
	run --separate-stderr "$TRAIN" $opts m.txt d.model
	assert_status 0
	assert_stderr_has "-y: every fold is trained on its own graph, built from the fold's training labels"
	[[ "$stderr" != *"shared one factorization"* ]]
	printf '%s\n' "$output" | grep '^[ *] .*%$' | tr -d '*' >direct.txt
	run --separate-stderr "$TRAIN" $opts -M pcg m.txt p.model
	assert_status 0
	printf '%s\n' "$output" | grep '^[ *] .*%$' | tr -d '*' >pcg.txt
	[ "$(wc -l <direct.txt)" -eq 4 ]
	# the same losses to 1e-3 relative (PCG stops at a residual of 1e-6;
	# measured 1.6e-4 at -a 1e-4 -i 1), the same accuracy
	paste direct.txt pcg.txt | awk '{
		d = $3 - $7; if (d < 0) d = -d
		if (d > 1e-3 * $7 || $4 != $8) { print "differ:", $0; bad = 1 }
	} END { exit bad }'
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	"$TRAIN" -q -y -s laprls $best m.txt plain.model
	assert_same d.model plain.model
	# with -G, the folds drop the held-out rows' edges instead
	"$GB" -q -y m.txt cls.graph
	run --separate-stderr "$TRAIN" -y -G cls.graph -s laprls -v 3 m.txt g.model
	assert_status 0
	assert_stderr_has "-y: every fold is trained on its own graph, the -G graph without the edges of its held-out rows"
}

# Labels at random: nothing can predict a held-out label better than
# chance.  A within-class graph built with every label and kept whole in
# the folds (plain -v with -G) carries each held-out row's label to it
# through its edges; -y -v does not.
@test "-y -v keeps the held-out labels out of the graph: random labels score at chance" {
	awk 'BEGIN { srand(7) } { $1 = rand() < 0.5 ? 1 : -1; print }' m.txt >r.txt
	"$GB" -q -y r.txt r.graph
	opts="-s laprls -g 100 -A 1e-4 -I 1000 -v 5"
	run --separate-stderr "$TRAIN" $opts -G r.graph r.txt leak.model
	assert_status 0
	leak=$(cv_accuracy)
	run --separate-stderr "$TRAIN" $opts -y r.txt built.model
	assert_status 0
	built=$(cv_accuracy)
	run --separate-stderr "$TRAIN" $opts -y -G r.graph r.txt given.model
	assert_status 0
	given=$(cv_accuracy)
	echo "leak $leak, -y $built, -y -G $given"
	awk -v l="$leak" -v b="$built" -v g="$given" \
		'BEGIN { exit !(l >= 85 && b <= 60 && g <= 60) }'
}
