#!/usr/bin/env bats
# lapsvm-train -s combine (Argyriou, Herbster & Pontil 2005): several graphs
# for one training set, the learned weights in the model, the transductive
# -o, the model for new points, the options that belong to it, and every
# bad input: usage errors (exit 2) and failures (exit 1).  Small data: the
# 200-point two moons with two labels per class, kNN graphs of a few k.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
}

# moons2: m.txt (two labels per class), full.txt (every label), graphs
# g2, g4, g6 (binary kNN, k = 2, 4, 6).
moons2() {
	moons m.txt -S 1 -l 2
	moons full.txt -S 1
	local k
	for k in 2 4 6; do
		"$GB" -q -k "$k" -w binary m.txt "g$k"
	done
}

# wsum MODEL: the sum of the combined_graph weights.
wsum() {
	awk '$1 == "combined_graph" { s += $2 } END { printf "%.12f\n", s }' "$1"
}

# ------------------------------------------------------------ what it does

@test "combine: the model records each graph and its weight, summing to 1" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -G g2 -G g4 -G g6 m.txt m.model
	assert_status 0
	[ "$(key m.model solver)" = combine ]
	[ "$(grep -c '^combined_graph ' m.model)" -eq 3 ]
	[ "$(sed -n 's/^combined_graph [^ ]* //p' m.model | tr '\n' ' ')" = "file g2 file g4 file g6 " ]
	[ "$(wsum m.model)" = "1.000000000000" ]
	[ "$(key m.model combine_extension)" = laprls ]
	[ "$(key m.model combine_mu)" = "4.0000000000000003e-05" ]  # l 1e-5
	[ "$(key m.model combine_steps)" = 100 ]
	[ "$(key m.model combine_rank)" = 0 ]
	assert_stderr_regex "combination of 3 graphs \(exact kernels\): [0-9]+ steps"
	assert_stderr_regex "weight [01]\.[0-9]+  g[246]"
}

@test "combine -o: the transductive values of the unlabeled rows; lapsvm-predict uses the model on new points" {
	moons2
	run --separate-stderr "$TRAIN" -q -s combine -G g2 -G g4 -G g6 -o m.pred m.txt m.model
	assert_status 0
	assert_stderr_empty
	[ "$(head -1 m.pred)" = "labels 1" ]
	[ "$(($(wc -l < m.pred) - 1))" -eq 196 ]
	run --separate-stderr "$PRED" full.txt m.model full.pred
	assert_status 0
	[[ "$output" == "Accuracy = "* ]]
	[ "$(wc -l < full.pred)" -eq 200 ]
}

@test "combine -F: graphs listed in a file, relative to the list, are the same as -G" {
	moons2
	mkdir sub
	mv g2 g4 sub/
	printf 'g2\n# a comment\n\ng4\n' > sub/list
	run --separate-stderr "$TRAIN" -q -s combine -F sub/list -G g6 m.txt a.model
	assert_status 0
	run --separate-stderr "$TRAIN" -q -s combine -G sub/g2 -G sub/g4 -G g6 m.txt b.model
	assert_status 0
	diff <(grep -v '^combined_graph' a.model) <(grep -v '^combined_graph' b.model)
	[ "$(sed -n 's/^combined_graph [^ ]* //p' a.model | tr '\n' ' ')" = "file sub/g2 file sub/g4 file g6 " ]
}

@test "combine -M random: the authors' rule, seeded by -S, recorded in the model" {
	moons2
	run --separate-stderr "$TRAIN" -q -s combine -M random -S 7 -G g2 -G g4 -G g6 m.txt a.model
	assert_status 0
	run --separate-stderr "$TRAIN" -q -s combine -M random -S 7 -G g2 -G g4 -G g6 m.txt b.model
	assert_status 0
	assert_same a.model b.model
	[ "$(key a.model method)" = random ]
	[ "$(key a.model seed)" = 7 ]
	[ "$(wsum a.model)" = "1.000000000000" ]
}

@test "combine -l with -T 0: the given weights, scaled to sum 1, kept" {
	moons2
	printf '1\n0\n3\n' > w.txt
	run --separate-stderr "$TRAIN" -q -s combine -T 0 -l w.txt -G g2 -G g4 -G g6 m.txt m.model
	assert_status 0
	[ "$(awk '$1 == "combined_graph" { print $2 }' m.model | tr '\n' ' ')" = "0.25 0 0.75 " ]
}

@test "combine -O: each graph's kernel alone, one label per graph and unlabeled row" {
	moons2
	run --separate-stderr "$TRAIN" -q -s combine -G g2 -G g4 -O single.txt m.txt m.model
	assert_status 0
	[ "$(grep -vc '^#' single.txt)" -eq 196 ]
	[ "$(grep -v '^#' single.txt | awk '{ print NF }' | sort -u)" = 2 ]
	[ "$(grep -v '^#' single.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')" = "-1 1 " ]
}

@test "combine -X lapsvm: the model for new points is LapSVM, recorded" {
	moons2
	run --separate-stderr "$TRAIN" -q -s combine -X lapsvm -G g2 -G g4 m.txt m.model
	assert_status 0
	[ "$(key m.model combine_extension)" = lapsvm ]
	run --separate-stderr "$PRED" full.txt m.model full.pred
	assert_status 0
}

@test "combine -N r: each kernel from r eigenpairs, recorded" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -N 20 -G g4 -G g6 m.txt m.model
	assert_status 0
	[ "$(key m.model combine_rank)" = 20 ]
	assert_stderr_has "each kernel from the 20 smallest nonzero eigenpairs of its Laplacian"
	# at most n - 1 = 199 nonzero eigenvalues: more is 199, recorded so
	run --separate-stderr "$TRAIN" -s combine -N 1000 -G g4 m.txt big.model
	assert_status 0
	[ "$(key big.model combine_rank)" = 199 ]
	assert_stderr_has "each kernel from the 199 smallest nonzero eigenpairs of its Laplacian"
	"$TRAIN" -q -s combine -N 199 -G g4 m.txt n199.model
	assert_same big.model n199.model
}

@test "combine -Y: labeled rows of one class train when both classes are declared" {
	moons2
	awk '{ if ($1 == 1) $1 = 0; print }' m.txt > one.txt
	run --separate-stderr "$TRAIN" -s combine -G g2 -G g4 one.txt m.model
	assert_fails lapsvm-train "one.txt: the labeled rows have only one class (-1): need at least two" "-Y"
	run --separate-stderr "$TRAIN" -q -s combine -Y 1,-1 -G g2 -G g4 -o p one.txt m.model
	assert_status 0
	[ "$(key m.model labels)" = "1 -1" ]
	[ "$(cut -d' ' -f1 p | sort -u | tr '\n' ' ')" = "-1 1 labels " ]
}

@test "combine -Y: a labeled row of neither declared class is an error" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -Y 1,2 -G g2 m.txt m.model
	assert_fails lapsvm-train "m.txt:153: label -1 is not one of the two classes declared by -Y (1 and 2)"
}

# ------------------------------------------------------------- bad input

@test "combine: graphs over different row counts: exit 1 naming the graph file" {
	moons2
	head -150 m.txt > short.txt
	"$GB" -q -k 3 short.txt short.graph
	run --separate-stderr "$TRAIN" -s combine -G g2 -G short.graph m.txt m.model
	assert_fails lapsvm-train "short.graph" "150 rows" "200"
	[ ! -e m.model ]
}

@test "combine: a graph with an isolated row trains; the row's transductive value is 0" {
	moons2
	# row 199, the last unlabeled row (200 is labeled), cut off from g6
	[ "$(sed -n '199s/ .*//p' m.txt)" = 0 ] && [ "$(sed -n '200s/ .*//p' m.txt)" != 0 ]
	awk '$1 == 199 { print 199; next } { out = $1; for (f = 2; f <= NF; f++) { split($f, a, ":"); if (a[1] != 199) out = out " " $f } print out }' g6 > iso
	run --separate-stderr "$TRAIN" -s combine -T 0 -G iso -o p m.txt m.model
	assert_status 0
	[ "$(tail -1 p | cut -d' ' -f2)" = 0 ]
	[ "$(wc -l < p)" -eq 197 ]
}

@test "combine: one graph only is its single-kernel fit, with a warning" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -G g4 m.txt m.model
	assert_status 0
	assert_stderr_has "warning: one graph: its weight is 1"
	[ "$(awk '$1 == "combined_graph" { print $2 }' m.model)" = 1 ]
}

@test "combine -l: a weight file that does not match the graphs: exit 1 naming it" {
	moons2
	printf '1\n2\n' > two.txt
	run --separate-stderr "$TRAIN" -s combine -l two.txt -G g2 -G g4 -G g6 m.txt m.model
	assert_fails lapsvm-train "two.txt: 2 weights for 3 graphs (expected one per graph, in the order given)"
	printf '1\n2\n3\n4\n' > four.txt
	run --separate-stderr "$TRAIN" -s combine -l four.txt -G g2 -G g4 -G g6 m.txt m.model
	assert_fails lapsvm-train "four.txt:4: more weights than the 3 graphs"
	printf '1\n-2\n3\n' > neg.txt
	run --separate-stderr "$TRAIN" -s combine -l neg.txt -G g2 -G g4 -G g6 m.txt m.model
	assert_fails lapsvm-train "neg.txt:2: bad weight (found '-2', expected a number >= 0)"
	printf '0\n0\n0\n' > zero.txt
	run --separate-stderr "$TRAIN" -s combine -l zero.txt -G g2 -G g4 -G g6 m.txt m.model
	assert_fails lapsvm-train "zero.txt: the weights sum to 0"
	[ ! -e m.model ]
}

@test "combine -F: an empty list, a missing list, '-' listed: exit 1" {
	moons2
	printf '# nothing\n\n' > empty.list
	run --separate-stderr "$TRAIN" -s combine -F empty.list m.txt
	assert_fails lapsvm-train "empty.list: no graph files listed"
	run --separate-stderr "$TRAIN" -s combine -F nowhere.list m.txt
	assert_fails lapsvm-train "nowhere.list: cannot open"
	printf 'g2\n-\n' > dash.list
	run --separate-stderr "$TRAIN" -s combine -F dash.list m.txt
	assert_fails lapsvm-train "dash.list:2: '-' (standard input) cannot be listed"
	[ ! -e m.txt.model ]
}

@test "combine: usage errors: no graph, -v, -p, -P 2" {
	moons2
	run --separate-stderr "$TRAIN" -s combine m.txt
	assert_train_usage "-s combine needs the graphs to combine: -G file (repeated) or -F list"
	run --separate-stderr "$TRAIN" -s combine -v 2 -G g2 -G g4 m.txt
	assert_train_usage "-v with -s combine: the combination learns the graphs' weights"
	run --separate-stderr "$TRAIN" -s combine -p labeled -G g2 m.txt
	assert_train_usage "-p with -s combine"
	run --separate-stderr "$TRAIN" -s combine -P 2 -G g2 m.txt
	assert_train_usage "Laplacian power 2 with the combination"
}

# The same graph twice was one kernel entered twice: trained, its weight
# split between the copies, the model listing it twice.
@test "combine: the same graph file twice, by name, through -F or a link, is a usage error naming it" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -G g2 -G g4 -G g2 m.txt
	assert_train_usage "-s combine: the graph file 'g2' is given twice (each graph enters the combination once)"
	mkdir sub
	cp g2 sub/g2
	ln -s ../g4 sub/g4
	printf 'g2\ng4\n' > sub/list
	run --separate-stderr "$TRAIN" -s combine -F sub/list -G g4 m.txt
	assert_train_usage "-s combine: 'sub/g4' and 'g4' are the same graph file"
	run --separate-stderr "$TRAIN" -s combine -G g4 -G ./g4 m.txt
	assert_train_usage "-s combine: 'g4' and './g4' are the same graph file"
	# a copy is another file: combined
	run --separate-stderr "$TRAIN" -q -s combine -F sub/list -G g2 m.txt
	assert_status 0
	[ "$(grep -c '^combined_graph ' m.txt.model)" -eq 3 ]
}

@test "combine: its options without -s combine are usage errors" {
	moons2
	local o
	for o in "-U 1e-4" "-T 5" "-l w" "-X lapsvm" "-O x" "-Y 1,-1"; do
		run --separate-stderr "$TRAIN" $o -G g2 m.txt
		assert_train_usage "-${o:1:1} applies to the combination (-s combine)"
	done
	run --separate-stderr "$TRAIN" -G g2 -G g4 m.txt
	assert_train_usage "option -G: more than one graph needs -v (cross validation) to choose among them, or -s combine to combine them"
	run --separate-stderr "$TRAIN" -s laprls -M random -G g2 m.txt
	assert_train_usage "no training method laprls random"
}

# -Y's first class was copied into a 64-byte buffer, cut short silently:
# 62 zeros, then 1 and junk, read as the class 1.
@test "combine -Y: a long first class with trailing junk is refused, not cut short to a valid class" {
	moons2
	local z
	z=$(printf '0%.0s' $(seq 62))
	run --separate-stderr "$TRAIN" -s combine -Y "${z}1junk,-1" -G g2 -G g4 m.txt
	assert_train_usage "option -Y: '${z}1junk,-1' is not two classes (expected a,b, e.g. 1,-1)"
}

@test "combine: bad option values are usage errors" {
	moons2
	run --separate-stderr "$TRAIN" -s combine -U 0 -G g2 m.txt
	assert_bad_option U "out of range"
	run --separate-stderr "$TRAIN" -s combine -T -1 -G g2 m.txt
	assert_bad_option T "out of range"
	run --separate-stderr "$TRAIN" -s combine -X tsvm -G g2 m.txt
	assert_train_usage "option -X: 'tsvm' cannot be the combination's model for new points (expected laprls or lapsvm)"
	# a name that is no solver at all: the same two choices, not all eight
	run --separate-stderr "$TRAIN" -s combine -X foo -G g2 m.txt
	assert_train_usage "option -X: 'foo' cannot be the combination's model for new points (expected laprls or lapsvm)"
	run --separate-stderr "$TRAIN" -s combine -Y 1 -G g2 m.txt
	assert_train_usage "option -Y: '1' is not two classes (expected a,b, e.g. 1,-1)"
	run --separate-stderr "$TRAIN" -s combine -Y 1,1 -G g2 m.txt
	assert_train_usage "option -Y: '1,1' names one class twice"
	run --separate-stderr "$TRAIN" -s combine -Y 1,x -G g2 m.txt
	assert_bad_option Y "not a number"
	run --separate-stderr "$TRAIN" -s combine -O - -o - -G g2 m.txt m.model
	assert_train_usage "-O - and another output on standard output would mix"
}

@test "combine: a model whose weights do not sum to 1 is refused by lapsvm-predict" {
	moons2
	run --separate-stderr "$TRAIN" -q -s combine -G g2 -G g4 m.txt m.model
	assert_status 0
	sed 's/^combined_graph [^ ]* \(file g4\)$/combined_graph 5 \1/' m.model > bad.model
	run --separate-stderr "$PRED" full.txt bad.model out
	assert_fails lapsvm-predict "bad.model:" "the graph weights do not sum to 1"
	grep -v '^combined_graph' m.model > none.model
	run --separate-stderr "$PRED" full.txt none.model out
	assert_fails lapsvm-predict "none.model:" "no combined_graph line"
}

@test "combine: kernels over the memory limit (-m) are refused, naming the bytes and the eigenpair path" {
	moons2
	# every row labeled: the 200 x 200 kernel held beside one Laplacian,
	# 3 graphs x 200 x 200 pseudo-inverse columns (and 3 labeled blocks
	# of 200 x 200): 2.56 MB; -m 2.4 is over the count without the
	# kernel (2.24 MB)
	for m in 2 2.4; do
		run --separate-stderr "$TRAIN" -s combine -m $m -G g2 -G g4 -G g6 full.txt m.model
		assert_fails lapsvm-train "the combination's kernels (the n x n kernel, one n x n Laplacian, then 3 graphs x n x 200 labeled columns of the pseudo-inverse) would need 2.56 MB, over the memory limit (-m) of $(printf %.2f "$m") MB; use the eigenpair path (-N r, r small) or fewer graphs"
		[ ! -e m.model ]
	done
	run --separate-stderr "$TRAIN" -q -s combine -m 2 -N 10 -G g2 -G g4 -G g6 full.txt m.model
	assert_status 0
}

@test "combine: three classes, one-vs-rest sharing one set of weights; the model predicts all three" {
	# three clusters joined by a bridge of unlabeled points, 2 labels each
	awk 'BEGIN { srand(3)
		for (c = 0; c < 3; c++) for (i = 0; i < 30; i++)
			print (i < 2 ? c + 1 : 0), "1:" c * 2 + rand(), "2:" rand()
		for (i = 0; i < 20; i++) print 0, "1:" i * 0.3, "2:" 0.5 }' > three.txt
	"$GB" -q -k 4 -w binary three.txt a.graph
	"$GB" -q -k 8 -w binary three.txt b.graph
	run --separate-stderr "$TRAIN" -q -s combine -G a.graph -G b.graph -o p three.txt m.model
	assert_status 0
	[ "$(key m.model nr_fn)" = 3 ]
	[ "$(key m.model labels)" = "1 2 3" ]
	[ "$(grep -c '^combined_graph ' m.model)" -eq 2 ]
	[ "$(head -1 p)" = "labels 1 2 3" ]
	[ "$(sed -n 2p p | awk '{ print NF }')" -eq 4 ]
	run --separate-stderr "$PRED" three.txt m.model out
	assert_status 0
	[ "$(sort -u out | tr '\n' ' ')" = "1 2 3 " ]
}
