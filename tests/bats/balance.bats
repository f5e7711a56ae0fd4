#!/usr/bin/env bats
# lapsvm-train -p r | -p labeled for every solver: the bias shifted after
# training so that a fraction r of the unlabeled rows is positive (the
# labeled ratio with 'labeled'), recorded as the model's balance_shift and
# used by lapsvm-predict as it is (the shift is in the bias).  Usage errors
# exit 2.  Small data: the 200-point two moons.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$DG"
	enter_work
}

# ub.txt: the two moons with one +1 (row 1) and five -1 (rows 101-105)
# labeled, the other 194 rows unlabeled: unbalanced labels.
unbalanced() {
	moons full.txt -S 1
	awk 'NR == 1 || (NR >= 101 && NR <= 105) { print; next } { $1 = 0; print }' \
		full.txt >ub.txt
}

# positives FILE: rows predicted +1 in a lapsvm-predict -d / -o file.
positives() {
	tail -n +2 "$1" | awk '$1 == 1' | wc -l | tr -d ' '
}

@test "-p on an unbalanced toy: no shift predicts one class; -p labeled and -p r split the unlabeled rows" {
	unbalanced
	# the SVM under heavy regularization: the bias is the majority label
	run --separate-stderr "$TRAIN" -q -i 0 -a 10 -o none.pred ub.txt none.model
	assert_status 0
	[ "$(positives none.pred)" = 0 ]
	# 1/6 of 194: floor(32.33 + 0.5) = 32 positive
	run --separate-stderr "$TRAIN" -q -i 0 -a 10 -p labeled -o lab.pred ub.txt lab.model
	assert_status 0
	[ "$(positives lab.pred)" = 32 ]
	run --separate-stderr "$TRAIN" -q -i 0 -a 10 -p 0.5 -o half.pred ub.txt half.model
	assert_status 0
	[ "$(positives half.pred)" = 97 ]
	# LapRLS too, with the graph built here
	run --separate-stderr "$TRAIN" -q -s laprls -a 1e-6 -i 1 -p 0.25 -o r.pred ub.txt r.model
	assert_status 0
	[ "$(positives r.pred)" = 49 ]  # floor(48.5 + 0.5)
}

@test "the model records balance_shift, already added to its bias; none without -p" {
	unbalanced
	"$TRAIN" -q -i 0 -a 10 ub.txt none.model
	"$TRAIN" -q -i 0 -a 10 -p 0.5 ub.txt half.model
	[ -z "$(key none.model balance_shift)" ]
	run grep -c '^balance_shift ' half.model
	[ "$output" = 1 ]
	local b0 b s
	b0=$(key none.model bias)
	b=$(key half.model bias)
	s=$(key half.model balance_shift)
	assert_close "$(awk -v b="$b" -v s="$s" 'BEGIN { printf "%.17g", b - s }')" "$b0" 1e-12
	# the key sits after bias, before nr_sv
	sed -n '/^bias /{n;p;q}' half.model | grep -q '^balance_shift '
}

@test "lapsvm-predict uses the shifted model as is: its predictions are -o's" {
	unbalanced
	"$TRAIN" -q -i 0 -a 10 -p 0.5 -o half.pred ub.txt half.model
	awk '$1 == 0' ub.txt >unl.txt
	run --separate-stderr "$PRED" -d unl.txt half.model p.txt
	assert_status 0
	[ "$(positives p.txt)" = 97 ]
	paste -d' ' <(tail -n +2 p.txt) <(tail -n +2 half.pred) |
		awk '{ d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-9) bad = 1 }
		     END { exit bad }'
}

@test "-p with three classes: a number is a usage error, -p labeled shifts each function" {
	moons full.txt -S 1
	# classes 1 (row 1), -1 (row 101) and 2 (row 150, a lower-moon point
	# relabeled); the rest unlabeled
	awk 'NR == 1 || NR == 101 { print; next } NR == 150 { $1 = 2; print; next }
	     { $1 = 0; print }' full.txt >three.txt
	run --separate-stderr "$TRAIN" -q -i 0 -p 0.5 three.txt
	assert_usage_error "option -p: a fraction r is for two classes" lapsvm-train
	[ ! -e three.txt.model ]
	run --separate-stderr "$TRAIN" -q -s tsvm -p 0.5 three.txt
	assert_usage_error "option -p: a fraction r is for two classes" lapsvm-train
	run --separate-stderr "$TRAIN" -q -i 0 -a 10 -p labeled three.txt three.model
	assert_status 0
	[ "$(key three.model balance_shift | wc -w)" = 3 ]
}

@test "-p bad values: exit 2, lapsvm-train: option -p: ..." {
	unbalanced
	local v
	for v in 0 1 1.5 -0.5; do
		run --separate-stderr "$TRAIN" -p "$v" ub.txt
		assert_usage_error "option -p: '$v' out of range (expected 0 < r < 1, or labeled)" lapsvm-train
	done
	for v in abc Labeled "" 0.5x; do
		run --separate-stderr "$TRAIN" -p "$v" ub.txt
		assert_usage_error "option -p: '$v' is not a number (expected 0 < r < 1, or labeled)" lapsvm-train
	done
	run --separate-stderr "$TRAIN" -p 0.2,0.3 ub.txt
	assert_usage_error "option -p takes one value, not a list" lapsvm-train
	run --separate-stderr "$TRAIN" ub.txt -p
	assert_usage_error "option -p needs a value" lapsvm-train
	[ ! -e ub.txt.model ]
}

# -p said "is not a number" of inf and 1e400 too, where every other
# number option says why (-j, -m, -u: "is not finite", "is out of range").
@test "-p: infinite, NaN and overflowing values say why, as the other number options do" {
	unbalanced
	local v
	for v in nan inf -inf; do
		run --separate-stderr "$TRAIN" -p "$v" ub.txt
		assert_usage_error "option -p: '$v' is not finite (expected 0 < r < 1, or labeled)" lapsvm-train
	done
	run --separate-stderr "$TRAIN" -p 1e400 ub.txt
	assert_usage_error "option -p: '1e400' is out of range (expected 0 < r < 1, or labeled)" lapsvm-train
	[ ! -e ub.txt.model ]
}

@test "-s tsvm: -p r is the TSVM's fraction (tsvm_r, no shift); -p labeled is its default" {
	unbalanced
	"$TRAIN" -q -s tsvm -p 0.3 ub.txt r.model
	[ "$(key r.model tsvm_r)" = 0.29999999999999999 ]
	[ -z "$(key r.model balance_shift)" ]
	"$TRAIN" -q -s tsvm ub.txt d.model
	"$TRAIN" -q -s tsvm -p labeled ub.txt l.model
	assert_same d.model l.model
}

@test "-p with no unlabeled rows: a shift of 0" {
	moons full.txt -S 1
	"$TRAIN" -q -i 0 full.txt none.model
	run --separate-stderr "$TRAIN" -q -i 0 -p 0.5 full.txt p.model
	assert_status 0
	[ "$(key p.model balance_shift)" = 0 ]
	[ "$(key p.model bias)" = "$(key none.model bias)" ]
}

# Classes 7 and 3 (7 first in the file) against the same rows labeled +1
# and -1: -p r is the first class's fraction, 7's or +1's.  The file's
# first labeled row is held out of one fold, whose next is a 3: that fold
# took 3 as its first class and gave it the fraction r (the score was
# 0.598818 against 0.553794 for +1/-1).
@test "-v with -p r: every fold gives r to the whole data's first class, so renaming the classes leaves the scores" {
	"$DG" -S 3 -n 100 -l 6 moons m.txt
	"$GB" -q -k 6 m.txt m.graph
	# rows 9 and 51 swapped: a 3 right after the first labeled 7
	sed 's/^1 /7 /; s/^-1 /3 /' m.txt | awk 'NR == 9 { a = $0 } NR == 51 { b = $0 }
		{ r[NR] = $0 } END { r[9] = b; r[51] = a; for (i = 1; i <= NR; i++) print r[i] }' >m73.txt
	[ "$(awk '$1 != 0 { print $1 }' m73.txt | head -2 | tr '\n' ' ')" = "7 3 " ]
	sed 's/^7 /1 /; s/^3 /-1 /' m73.txt >mpm.txt
	for o in "-s laprls -i 0 -G m.graph" "-s lapsvm -i 0.1 -M pcg -G m.graph" \
		"-s tsvm"; do
		"$TRAIN" -q -v 3 -S 1 -g 2 -p 0.3 -a 0.01 $o m73.txt >a.out
		"$TRAIN" -q -v 3 -S 1 -g 2 -p 0.3 -a 0.01 $o mpm.txt >b.out
		assert_same a.out b.out
	done
}
