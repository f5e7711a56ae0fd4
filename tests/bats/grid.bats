#!/usr/bin/env bats
# lapsvm-train -v with lists of values (model selection): the table, the
# best setting and the model trained with it, determinism, -i 0 in a list,
# and every usage error of the lists.  Small data (two moons, 10 labels
# per class): each test runs in well under a second.

load helpers

setup() {
	need_tools "$TRAIN" "$DG"
	enter_work
	moons m.txt -S 1 -l 10
}

@test "a 2 x 2 grid: 4 lines, the best marked, its model equal to a plain run" {
	run --separate-stderr "$TRAIN" -q -v 3 -a 0.001,0.01 -i 0.1,1 m.txt g.model
	assert_status 0
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] .*%$')" -eq 4 ]
	[ "$(printf '%s\n' "$output" | grep -c '^\* ')" -eq 1 ]
	[[ "$output" == *"ties (1e-12 relative) to larger gamma_A, then smaller gamma_I"* ]]
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	[[ "$best" =~ ^"-a "[0-9.e-]+" -i "[0-9.e-]+$ ]]
	# the marked line holds the best setting
	read -r a i <<<"$(printf '%s\n' "$output" | sed -n 's/^\* *//p' | awk '{ print $1, $2 }')"
	[ "$best" = "-a $a -i $i" ]
	"$TRAIN" -q $best m.txt plain.model
	assert_same g.model plain.model
}

@test "the grid's lines are in grid order: -a outer, -i inner" {
	run --separate-stderr "$TRAIN" -q -v 2 -a 0.001,0.01 -i 0.1,1 m.txt g.model
	assert_status 0
	got=$(printf '%s\n' "$output" | grep '^[ *] .*%$' | awk '{ sub(/^\*/, ""); print $1, $2 }')
	[ "$got" = "$(printf '0.001 0.1\n0.001 1\n0.01 0.1\n0.01 1')" ]
}

@test "the same -S gives the same table and model; progress on stderr unless -q" {
	run --separate-stderr "$TRAIN" -S 4 -v 3 -a 1e-3:1e-1:x10 -i 0,1 m.txt a.model
	assert_status 0
	a="$output"
	assert_stderr_has "combination 6 of 6"
	run --separate-stderr "$TRAIN" -q -S 4 -v 3 -a 1e-3:1e-1:x10 -i 0,1 m.txt b.model
	assert_status 0
	[ "$output" = "$a" ]
	assert_stderr_empty
	assert_same a.model b.model
	[ "$(printf '%s\n' "$a" | grep -c '^[ *] .*%$')" -eq 6 ]
}

@test "-i 0 in a list: the SVM's line beside LapSVM's, a range's values as typed" {
	run --separate-stderr "$TRAIN" -q -v 2 -i 0,0.1 -a 1e-6:1e-4:x10 m.txt g.model
	assert_status 0
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] .*%$')" -eq 6 ]
	printf '%s\n' "$output" | grep -Eq '^[ *] +1e-05 +0 '
	printf '%s\n' "$output" | grep -Eq '^[ *] +0.0001 +0.1 '
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	"$TRAIN" -q $best m.txt plain.model
	assert_same g.model plain.model
}

@test "-g, -P and -L lists; -P takes a linear range" {
	run --separate-stderr "$TRAIN" -q -v 2 -g 0.5,2 -P 1:2:+1 -L normalized,unnormalized m.txt g.model
	assert_status 0
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] .*%$')" -eq 8 ]
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	[[ "$best" =~ ^"-g "[0-9.]+" -L "(un)?"normalized -P "[12]$ ]]
	"$TRAIN" -q $best m.txt plain.model
	assert_same g.model plain.model
}

@test "a grid with laprls and a three-class set works" {
	awk 'NR % 3 == 0 && $1 != 0 { $1 = 2 } { print }' m.txt >three.txt
	run --separate-stderr "$TRAIN" -q -s laprls -v 2 -c 1,10 three.txt g.model
	assert_status 0
	[ "$(key g.model nr_class)" = 3 ]
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	"$TRAIN" -q -s laprls $best three.txt plain.model
	assert_same g.model plain.model
}

# ------------------------------------------------------------ usage errors

bad_list() {
	run --separate-stderr "$TRAIN" "$@" m.txt
	assert_status 2
	assert_stderr_has "Try 'lapsvm-train -h' for more information."
	assert_stdout_empty
	[ ! -e m.txt.model ]
}

# A shared block's scores all come after its factorization: the estimate
# took each for a combination's worth of work (a search that was over said
# "about 631 s left"), and with -I 0 the message spoke of a graph term.
@test "progress of a shared grid: time left counted in blocks (0 s on the last block), the factorization named with and without a graph" {
	# 2000 rows: a factorization long enough (tenths of a second) that
	# counting each score as a combination's work shows as seconds left
	"$DG" -S 1 -n 2000 -l 10 moons big.txt
	"$GB" -q -k 6 big.txt big.graph
	run --separate-stderr "$TRAIN" -s laprls -G big.graph -v 3 -a 1e-4,1e-2,1 -i 0.01,1 big.txt m1
	assert_status 0
	assert_stderr_has "combinations 1 to 6 shared one factorization (the graph term in a deformed kernel)"
	[ "$(grep -c '^lapsvm-train: combination [1-6] of 6: .*, about 0 s left$' <<<"$stderr")" -eq 6 ]
	run --separate-stderr "$TRAIN" -s laprls -I 0 -v 3 -a 1e-4,1e-2,1 m.txt m2
	assert_status 0
	assert_stderr_has "combinations 1 to 3 shared one factorization (of K: no graph term)"
	[ "$(grep -c '^lapsvm-train: combination [1-3] of 3: .*, about 0 s left$' <<<"$stderr")" -eq 3 ]
}

@test "a best value at an end of its list is noted (extend the list); one inside the list is not" {
	run --separate-stderr "$TRAIN" -s laprls -v 3 -g 0.001,0.01,0.1 -a 0.01 -i 1 m.txt g.model
	assert_status 0
	[[ "$output" == *"best: -g 0.1"* ]]
	assert_stderr_has "lapsvm-train: note: the best -g 0.1 is the largest of its list: a value beyond it may score better (extend the list)"
	run --separate-stderr "$TRAIN" -s laprls -v 3 -g 0.01,1,100 -a 0.01 -i 1 m.txt g.model
	assert_status 0
	[[ "$output" == *"best: -g 1"* ]]
	[[ "$stderr" != *"note: the best"* ]]
}

@test "a shared grid (LapRLS direct) scores as fold-by-fold PCG training does" {
	"$GB" -q -k 6 m.txt m.graph
	opts="-s laprls -G m.graph -v 3 -a 1e-4,1e-2 -i 0.01,1"
	run --separate-stderr "$TRAIN" $opts m.txt d.model
	assert_status 0
	assert_stderr_has "combinations 1 to 4 shared one factorization"
	printf '%s\n' "$output" | grep '^[ *] .*%$' | tr -d '*' >direct.txt
	run --separate-stderr "$TRAIN" $opts -M pcg m.txt p.model
	assert_status 0
	[[ "$stderr" != *"shared one factorization"* ]]
	printf '%s\n' "$output" | grep '^[ *] .*%$' | tr -d '*' >pcg.txt
	[ "$(wc -l <direct.txt)" -eq 4 ]
	# the same losses to 1e-4 relative (PCG stops at 1e-6), the same accuracy
	paste direct.txt pcg.txt | awk '{
		d = $3 - $7; if (d < 0) d = -d
		if (d > 1e-4 * $7 || $4 != $8) { print "differ:", $0; bad = 1 }
	} END { exit bad }'
}

@test "several graphs (-G repeated): a graph column, the best one's file in the model" {
	"$GB" -q -k 4 m.txt a.graph
	"$GB" -q -k 8 -w binary m.txt b.graph
	run --separate-stderr "$TRAIN" -q -G a.graph -G b.graph -v 2 -a 1e-3 -i 0.1,1 m.txt g.model
	assert_status 0
	[ "$(printf '%s\n' "$output" | grep -c '^[ *] .*%$')" -eq 4 ]
	got=$(printf '%s\n' "$output" | grep '^[ *] .*%$' | tr -d '*' | awk '{ print $1, $2 }')
	[ "$got" = "$(printf 'a.graph 0.1\na.graph 1\nb.graph 0.1\nb.graph 1')" ]
	best=$(printf '%s\n' "$output" | sed -n 's/^best: //p')
	[[ "$best" =~ ^"-G "[ab]".graph -i "(0.1|1)$ ]]
	file=$(printf '%s\n' "$best" | awk '{ print $2 }')
	grep -qx "graph file $file" g.model
	"$TRAIN" -q -a 1e-3 $best m.txt plain.model
	assert_same g.model plain.model
}

@test "-G repeated without -v, or two graphs on standard input: exit 2" {
	"$GB" -q m.txt a.graph
	run --separate-stderr "$TRAIN" -G a.graph -G a.graph m.txt out.model
	assert_train_usage "option -G: more than one graph needs -v (cross validation)"
	[ ! -e out.model ]
	run --separate-stderr "$TRAIN" -v 2 -G - -G - m.txt out.model </dev/null
	assert_train_usage "only one of the data, the graphs, a graph list, the weights and the starting model (-f) can be standard input"
	[ ! -e out.model ]
}

@test "a list without -v: exit 2" {
	bad_list -a 1,2
	assert_stderr_has "option -a: a list of values needs -v (cross validation) to choose among them"
	bad_list -i 0:1:+1
	assert_stderr_has "option -i: a list of values needs -v"
}

@test "an empty list or element: exit 2" {
	bad_list -v 2 -a ''
	assert_stderr_has "option -a: '' is not a number (an empty list)"
	bad_list -v 2 -a 1,,2
	assert_stderr_has "option -a: empty element in '1,,2'"
	bad_list -v 2 -i 1,
	assert_stderr_has "option -i: empty element in '1,'"
	bad_list -v 2 -L normalized,
	assert_stderr_has "option -L: empty element in 'normalized,'"
}

@test "a bad number in a list names it: exit 2" {
	bad_list -v 2 -g 1,x
	assert_stderr_has "option -g: 'x' in '1,x' is not a number"
	bad_list -v 2 -a 1,0
	assert_stderr_has "option -a: '0' in '1,0' out of range"
	bad_list -v 2 -P 1,1.5
	assert_stderr_has "option -P: '1.5' in '1,1.5' is not an integer"
	bad_list -v 2 -L normalized,foo
	assert_stderr_has "option -L: unknown Laplacian 'foo'"
}

@test "malformed ranges: exit 2" {
	bad_list -v 2 -a 1:2
	assert_stderr_has "option -a: malformed range '1:2' (expected start:stop:xFACTOR or start:stop:+STEP)"
	bad_list -v 2 -a 1:2:y3
	assert_stderr_has "option -a: malformed range '1:2:y3'"
	bad_list -v 2 -a 1:2:x3:4
	assert_stderr_has "option -a: malformed range '1:2:x3:4'"
	bad_list -v 2 -a 1:2:x
	assert_stderr_has "option -a: range '1:2:x': factor '' is not a number"
}

@test "factor <= 1, step <= 0, start > stop, over 1000 values: exit 2" {
	bad_list -v 2 -a 1:2:x1
	assert_stderr_has "option -a: range '1:2:x1': factor 1 must be > 1"
	bad_list -v 2 -a 1:2:x0.5
	assert_stderr_has "factor 0.5 must be > 1"
	bad_list -v 2 -P 1:4:+0
	assert_stderr_has "option -P: range '1:4:+0': step 0 must be > 0"
	bad_list -v 2 -i 0.1,2:1:x10
	assert_stderr_has "option -i: range '2:1:x10' in '0.1,2:1:x10': start 2 > stop 1"
	bad_list -v 2 -i 1e-9:1e9:x1.01
	assert_stderr_has "option -i: '1e-9:1e9:x1.01' has more than 1000 values"
	bad_list -v 2 -i 0:1:x10
	assert_stderr_has "option -i: range '0:1:x10': a factor range needs start > 0"
}

@test "a list for an option that takes one value: exit 2, says which take lists" {
	local o
	for o in d r k e v S N m u; do
		bad_list -"$o" 1,2
		assert_stderr_has "option -$o takes one value, not a list ('1,2'); lists are for -a, -A, -c, -i, -I, -g, -P, -L and -Z"
	done
	bad_list -v 2 -e 1:2:x10
	assert_stderr_has "option -e takes one value, not a list"
}

@test "-v k over a class's labeled rows: exit 2, the class and the most folds" {
	bad_list -v 11 -a 1,2
	assert_stderr_has "lapsvm-train: -v 11: class 1 has only 10 labeled rows (expected at most 10 folds)"
	moons m1.txt -S 1 -l 1
	run --separate-stderr "$TRAIN" -v 2 m1.txt
	assert_status 2
	assert_stderr_has "-v 2: class 1 has only 1 labeled row: cross validation needs at least 2 per class"
	[ ! -e m1.txt.model ]
}

@test "-v with the model on standard output: exit 2" {
	run --separate-stderr "$TRAIN" -v 2 -a 1,2 m.txt -
	assert_status 2
	assert_stdout_empty
	assert_stderr_has "-v prints its results on standard output: give a model_file other than '-'"
}
