#!/usr/bin/env bats
# lapsvm-train -s cluster: how the embedding becomes clusters (-E unit|raw,
# -R restarts), the model key cluster_rows, the constraint check and the
# warning when the data do not determine the clustering.

load helpers

setup() {
	need_tools "$GB" "$DG" "$TRAIN" "$PRED"
	enter_work
}

# blobs: 4 blobs of 15 points in the plane, labeled 1..4 by blob, and an
# epsilon-ball graph of them.
blobs() {
	awk 'BEGIN { x = 12345
		for (b = 0; b < 4; b++) for (i = 0; i < 15; i++) {
			x = (x * 16807) % 2147483647; u = x / 2147483647
			x = (x * 16807) % 2147483647; v = x / 2147483647
			printf "%d 1:%.6f 2:%.6f\n", b + 1, 4 * (b % 2) + u, 4 * int(b / 2) + 3 * (b == 3) + v }
	}' >blobs.txt
	"$GB" -q -e 1.2 blobs.txt blobs.graph
}

@test "cluster rows: unit by default, raw with -E raw; written to the model; predict repeats training" {
	blobs
	local e
	for e in default unit raw; do
		local opt=()
		[ "$e" = default ] || opt=(-E "$e")
		run --separate-stderr "$TRAIN" -s cluster -K 4 -g 0.5 -A 1e-3 "${opt[@]}" -G blobs.graph blobs.txt "m.$e"
		assert_status 0
		[ "$e" = raw ] && assert_stderr_has "k-means++ on the raw rows of the 3-dimensional embedding, the best of 10 restarts (seed 1)"
		[ "$e" = raw ] || assert_stderr_has "k-means++ on the unit-length rows of the 3-dimensional embedding, the best of 10 restarts (seed 1)"
		assert_stderr_has "agreement with the 60 labeled rows: accuracy 100.00% (60/60"
		grep -qx "cluster_rows $([ "$e" = raw ] && echo raw || echo unit)" "m.$e"
		run --separate-stderr "$PRED" blobs.txt "m.$e" "p.$e"
		assert_status 0
		[ "$output" = "$(printf '%s\n' 'Clustering accuracy = 100% (60/60) (clusters matched to classes)' 'NMI = 1.0000 (normalized mutual information)')" ]
	done
	assert_same p.default p.unit
	# -R is recorded in the message; the clusters are the same
	run --separate-stderr "$TRAIN" -s cluster -K 4 -g 0.5 -A 1e-3 -R 3 -G blobs.graph blobs.txt m.r3
	assert_status 0
	assert_stderr_has "the best of 3 restarts"
	"$PRED" -q blobs.txt m.r3 p.r3
	assert_same p.unit p.r3
}

@test "cluster rows: a model without the key (written before it existed) predicts with raw rows" {
	blobs
	"$TRAIN" -q -s cluster -K 4 -g 0.5 -A 1e-3 -E raw -G blobs.graph blobs.txt m.raw
	grep -v '^cluster_rows ' m.raw >m.old
	"$PRED" -q -d blobs.txt m.raw p.raw
	"$PRED" -q -d blobs.txt m.old p.old
	assert_same p.raw p.old
	# a wrong value: file:line and the names
	sed 's/^cluster_rows raw$/cluster_rows cosine/' m.raw >m.bad
	run --separate-stderr "$PRED" blobs.txt m.bad p.bad
	assert_status 1
	assert_stderr_regex "^lapsvm-predict: m.bad:[0-9]+: .*cluster_rows"
}

@test "cluster rows: -E and -R are checked, and only for -s cluster" {
	blobs
	run --separate-stderr "$TRAIN" -s cluster -K 4 -E cosine blobs.txt m
	assert_usage_error "option -E: unknown embedding rows 'cosine' (expected unit or raw)" lapsvm-train
	run --separate-stderr "$TRAIN" -s cluster -K 4 -R 0 blobs.txt m
	assert_usage_error "option -R: '0' out of range" lapsvm-train
	run --separate-stderr "$TRAIN" -s laprls -E raw blobs.txt m
	assert_usage_error "-E is for k-means on the embedding of more than two clusters (-s cluster or -s boost, -K c with c > 2)" lapsvm-train
	run --separate-stderr "$TRAIN" -R 5 blobs.txt m
	assert_usage_error "-R is for k-means on the embedding of more than two clusters (-s cluster or -s boost, -K c with c > 2)" lapsvm-train
	[ ! -e m ]
}

@test "cluster rows: -E and -R with two clusters (no k-means) are usage errors, for -s cluster and -s boost alike" {
	blobs
	for s in cluster boost; do
		for opt in "-E raw" "-R 5"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$TRAIN" -s $s -K 2 $opt blobs.txt m
			assert_usage_error "${opt%% *} is for k-means on the embedding of more than two clusters" lapsvm-train
		done
	done
	# -s cluster's default is two clusters
	run --separate-stderr "$TRAIN" -s cluster -E raw blobs.txt m
	assert_usage_error "-E is for k-means on the embedding of more than two clusters" lapsvm-train
	[ ! -e m ]
}

@test "cluster: the constraints are checked and printed; a tie (a square) is warned about" {
	printf '%s\n' '1 1:0 2:0' '1 1:1 2:0' '-1 1:1 2:1' '-1 1:0 2:1' >sq.txt
	"$GB" -q -e 1.35 sq.txt sq.graph
	run --separate-stderr "$TRAIN" -s cluster -g 1 -A 1e-3 -G sq.graph sq.txt m
	assert_status 0
	assert_stderr_regex "constraints checked on the solution \(f'f = I, sum_i f\(x_i\) = 0\): largest violation [0-9.e-]+$"
	assert_stderr_has "warning: the clustering is not determined by the data"
	# a rectangle breaks the tie: no warning
	printf '%s\n' '1 1:0 2:0' '1 1:1 2:0' '-1 1:1 2:1.3' '-1 1:0 2:1.3' >re.txt
	"$GB" -q -e 1.35 re.txt re.graph
	run --separate-stderr "$TRAIN" -s cluster -g 1 -A 1e-3 -G re.graph re.txt m
	assert_status 0
	[[ "$stderr" != *warning* ]]
	assert_stderr_has "accuracy 100.00% (4/4"
	# the normalized Laplacian's constraint is named as such
	run --separate-stderr "$TRAIN" -s cluster -g 1 -A 1e-3 -L normalized -G re.graph re.txt m
	assert_stderr_has "(f'f = I, sum_i sqrt(d_i) f(x_i) = 0)"
}

@test "cluster rows: -E and -R take one value, not a list" {
	blobs
	run --separate-stderr "$TRAIN" -s cluster -K 4 -R 10,100 blobs.txt m
	assert_usage_error "option -R takes one value" lapsvm-train
	run --separate-stderr "$TRAIN" -s cluster -K 4 -E unit,raw blobs.txt m
	assert_usage_error "option -E takes one value" lapsvm-train
}
