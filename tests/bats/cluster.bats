#!/usr/bin/env bats
# lapsvm-train -s cluster: regularized spectral clustering (JMLR 2006
# Section 6.1), its models as lapsvm-predict reads them, and its errors.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$GB" "$DG"
	enter_work
}

# m.txt: 200 two-moons points labeled by their moon (the labels only
# measure agreement); m.g: their epsilon graph.
moons_graph() {
	"$DG" -S 1 moons m.txt
	"$GB" -q -e 0.2 m.txt m.g
}

# three blobs of 20 points in the plane, labeled 1, 2, 3 by blob
blobs() {
	awk 'BEGIN { srand(3)
		for (b = 0; b < 3; b++) for (i = 0; i < 20; i++)
			printf "%d 1:%.6f 2:%.6f\n", b + 1, 5 * b + rand() - 0.5,
				(b == 1 ? 4 : 0) + rand() - 0.5 }' >"${1:-b.txt}"
}

@test "two moons: the two clusters are the two moons, in sample and out of sample" {
	moons_graph
	run --separate-stderr "$TRAIN" -s cluster -A 1e-6 -I 1 -g 4 -G m.g m.txt c.model
	assert_status 0
	assert_stderr_has "lapsvm-train: m.txt: 200 rows clustered into 2; the labels of its 200 labeled rows are not used, only compared"
	assert_stderr_regex "agreement with the 200 labeled rows: accuracy (99|100)\."
	[ "$(key c.model solver)" = cluster ]
	[ "$(key c.model nr_class)" = 2 ]
	[ "$(key c.model nr_fn)" = 1 ]
	[ "$(key c.model labels)" = "1 2" ]
	[ "$(key c.model laplacian)" = unnormalized ]
	[ -z "$(key c.model centroids)" ]
	"$DG" -S 7 -n 2000 moons fresh.txt
	run --separate-stderr "$PRED" fresh.txt c.model out.txt
	assert_status 0
	acc=$(printf '%s\n' "$output" | sed -n 's/^Clustering accuracy = \([0-9.]*\)%.*/\1/p')
	awk -v a="$acc" 'BEGIN { exit !(a >= 97) }' || { echo "out of sample: $output"; false; }
	[[ "$output" == *"NMI = "* ]]
	[[ "$output" != *"Accuracy = "* ]]
	[ "$(sort -u out.txt | tr '\n' ' ')" = "1 2 " ]
}

@test "labels play no part: the same rows unlabeled give the same model" {
	moons_graph
	awk '{ $1 = 0; print }' m.txt >u.txt
	"$TRAIN" -q -s cluster -g 4 -G m.g m.txt a.model
	"$TRAIN" -q -s cluster -g 4 -G m.g u.txt b.model
	cmp <(sed '/^graph /d' a.model) <(sed '/^graph /d' b.model)
	# and no agreement is claimed without labels
	run --separate-stderr "$TRAIN" -s cluster -g 4 -G m.g u.txt b.model
	assert_status 0
	[[ "$stderr" != *agreement* ]]
}

@test "-a/-i are -A/-I for clustering; only their ratio matters" {
	moons_graph
	"$TRAIN" -q -s cluster -A 1e-4 -I 1 -g 4 -G m.g m.txt a.model
	"$TRAIN" -q -s cluster -a 1e-4 -i 1 -g 4 -G m.g m.txt b.model
	cmp a.model b.model
	"$TRAIN" -q -s cluster -A 1e-2 -I 100 -g 4 -G m.g m.txt c.model
	# the same clusters and function up to rounding
	"$PRED" -d m.txt a.model pa.txt
	"$PRED" -d m.txt c.model pc.txt
	assert_same_predictions pa.txt pc.txt
}

@test "-K 3 on three blobs: centroids in the model, clusters in order of first row, -o and -d" {
	blobs b.txt
	"$GB" -q -e 1.5 b.txt b.g
	run --separate-stderr "$TRAIN" -s cluster -K 3 -g 1 -G b.g -o o.txt b.txt c.model
	assert_status 0
	assert_stderr_has "cluster sizes: 20 20 20"
	assert_stderr_has "accuracy 100.00% (60/60"
	[ "$(key c.model nr_class)" = 3 ]
	[ "$(key c.model nr_fn)" = 2 ]
	[ "$(key c.model centroids | wc -w)" = 6 ]
	[ "$(head -1 o.txt)" = "clusters 1 2 3" ]
	[ "$(wc -l <o.txt)" = 61 ]
	[ "$(sed 1d o.txt | cut -d' ' -f1 | uniq -c | awk '{ print $1 "x" $2 }' | tr '\n' ' ')" = "20x1 20x2 20x3 " ]
	run --separate-stderr "$PRED" -d b.txt c.model p.txt
	assert_status 0
	[[ "$output" == *"Clustering accuracy = 100% (60/60)"* ]]
	[ "$(head -1 p.txt)" = "clusters 1 2 3" ]
	# the same clusters and embedding from the solver's K and from the model
	cmp <(cut -d' ' -f1 o.txt) <(cut -d' ' -f1 p.txt)
	paste -d' ' o.txt p.txt | awk 'NR > 1 { for (j = 2; j <= 3; j++) {
		d = $j - $(j + 3); s = ($j < 0 ? -$j : $j) + 1
		if (d * d > 1e-20 * s * s) { print "row " NR ": " $j " vs " $(j + 3); exit 1 } } }'
}

@test "clustering is deterministic for a seed" {
	blobs b.txt
	"$GB" -q -e 1.5 b.txt b.g
	"$TRAIN" -q -s cluster -K 3 -g 1 -G b.g b.txt a.model
	"$TRAIN" -q -s cluster -K 3 -g 1 -G b.g b.txt b.model
	cmp a.model b.model
}

@test "-M newton -N m: clustering on Nystrom features; -N is required there" {
	moons_graph
	run --separate-stderr "$TRAIN" -s cluster -A 1e-6 -g 4 -M newton -N 100 -G m.g m.txt n.model
	assert_status 0
	assert_stderr_regex "agreement with the 200 labeled rows: accuracy (9[89]|100)\."
	[ "$(key n.model landmarks)" = 100 ]
	[ "$(key n.model nr_sv)" = 100 ]
	run --separate-stderr "$TRAIN" -s cluster -M newton -G m.g m.txt n.model
	assert_train_usage "clustering on a feature map needs landmarks (-M newton -N m)"
}

# -K's count was copied into a 64-byte buffer, cut short silently: 62
# zeros, then 3 and junk, read as 3.
@test "-K: a long value with trailing junk is refused, not cut short to a valid count" {
	moons_graph
	local z
	z=$(printf '0%.0s' $(seq 62))
	run --separate-stderr "$TRAIN" -s cluster -K "${z}3xyz" -G m.g m.txt
	assert_bad_option K "is not an integer"
	run --separate-stderr "$TRAIN" -s boost -K "${z}03:random" -G m.g m.txt
	assert_train_usage "option -K: '${z}03:random' is not c, c:random or c:spectral (expected c in 2..2147483647)"
	# long but whole, without a start: the count itself
	run --separate-stderr "$TRAIN" -q -s cluster -K "${z}003" -G m.g m.txt c.model
	assert_status 0
	[ "$(key c.model nr_class)" = 3 ]
}

@test "-s cluster usage errors: -K, -v, -c, -p, -y, gamma_I = 0" {
	moons_graph
	run --separate-stderr "$TRAIN" -s cluster -K 1 m.txt
	assert_bad_option K "out of range"
	run --separate-stderr "$TRAIN" -K 3 m.txt
	assert_train_usage "-K is the number of clusters of -s cluster"
	run --separate-stderr "$TRAIN" -s cluster -v 2 m.txt
	assert_train_usage "-v scores held-out labels; -s cluster uses none"
	run --separate-stderr "$TRAIN" -s cluster -c 10 m.txt
	assert_train_usage "-c is an SVM's cost; clustering takes gamma_A (-A or -a)"
	run --separate-stderr "$TRAIN" -s cluster -p labeled m.txt
	assert_train_usage "a positive fraction is for classifiers, not for clustering"
	run --separate-stderr "$TRAIN" -s cluster -I 0 m.txt
	assert_train_usage "clustering needs gamma_I > 0"
	run --separate-stderr "$TRAIN" -s cluster -y m.txt
	assert_train_usage "-y and -W regularize each class on its own graph; clustering has no classes"
}

@test "-s cluster errors: more clusters than rows, the marker among the clusters, a graph without edges" {
	moons_graph
	run --separate-stderr "$TRAIN" -s cluster -K 201 -G m.g m.txt c.model
	assert_fails lapsvm-train "201 clusters but only 200 rows (expected 2..200 clusters)"
	run --separate-stderr "$TRAIN" -s cluster -u 2 -G m.g m.txt c.model
	assert_fails lapsvm-train "the unlabeled marker 2 is one of the cluster labels 1..2 (choose another)"
	seq 1 200 >empty.g
	run --separate-stderr "$TRAIN" -s cluster -G empty.g m.txt c.model
	assert_fails lapsvm-train "the graph has no edges (every row is isolated): nothing to cluster by"
	[ ! -e c.model ]
}

@test "a disconnected graph is warned about: a whole small component can become a cluster" {
	moons_graph
	# two far points in a component of their own
	awk 'BEGIN { print "1 1:10 2:10"; print "1 1:10.1 2:10" }' >>m.txt
	"$GB" -q -e 0.2 m.txt m2.g
	run --separate-stderr "$TRAIN" -s cluster -A 1e-6 -g 4 -G m2.g m.txt c.model
	assert_status 0
	assert_stderr_regex "warning: the graph has [0-9]+ connected components"
	assert_stderr_has "cluster sizes: 2 200"
}

@test "three identical points and one other cannot make three clusters" {
	printf '1 1:1 2:1\n1 1:1 2:1\n1 1:1 2:1\n2 1:3 2:3\n' >same.txt
	"$GB" -q -e 5 same.txt s.g
	run --separate-stderr "$TRAIN" -s cluster -K 3 -G s.g same.txt c.model
	assert_status 1
	assert_stderr_regex "^lapsvm-train: "
	[ ! -e c.model ]
}

@test "a cluster model's centroids are checked at load" {
	blobs b.txt
	"$GB" -q -e 1.5 b.txt b.g
	"$TRAIN" -q -s cluster -K 3 -g 1 -G b.g b.txt c.model
	ln=$(grep -n '^centroids ' c.model | cut -d: -f1)
	sed '/^centroids /d' c.model >none.model
	run --separate-stderr "$PRED" b.txt none.model out.txt
	assert_fails lapsvm-predict "none.model:" "missing key 'centroids' (a cluster model of 3 clusters needs them)"
	sed 's/^\(centroids [^ ]*\) .*/\1/' c.model >short.model
	run --separate-stderr "$PRED" b.txt short.model out.txt
	assert_fails lapsvm-predict "short.model:$ln: wrong number of centroid values (found 1, expected nr_class x nr_fn = 6)"
	sed 's/^centroids .*/& nan/' c.model >nan.model
	run --separate-stderr "$PRED" b.txt nan.model out.txt
	assert_status 1
	# centroids in a classifier's model
	moons1 m.txt
	"$TRAIN" -q m.txt s.model
	sed "s/^nr_sv /centroids 1 2\nnr_sv /" s.model >bad.model
	run --separate-stderr "$PRED" m.txt bad.model out.txt
	assert_fails lapsvm-predict "centroids in a model that is not a cluster model of more than two clusters"
	[ ! -e out.txt ]
}

# USPS digits 0-9 with the default marker 0: the digit 0 rows were left out
# of the agreement without a word (the classifiers warn)
@test "a class taken for the unlabeled marker: clustering warns as the classifiers do; labels 1..3 alone do not" {
	blobs b.txt
	awk '$1 == 1 { $1 = 0 } { print }' b.txt >b0.txt
	run --separate-stderr "$TRAIN" -s cluster -K 3 -k 5 b0.txt c.model
	assert_status 0
	assert_stderr_has "lapsvm-train: warning: only 20 rows carry the unlabeled marker 0, fewer than the 40 labeled rows: if 0 is a class, give the unlabeled rows another marker with -u"
	run --separate-stderr "$TRAIN" -s cluster -K 3 -k 5 b.txt c.model
	assert_status 0
	[[ "$stderr" != *warning:*marker* ]]
}

@test "-m counts the eigensolvers' scratch: dsyevd's on K, then lsv_eig_extreme's copy and its dsyevd fallback (6 n^2, not 3 n^2)" {
	# 1000 rows: K and its eigenvectors (16 MB), dsyevd's workspace on K
	# (16 MB) or C with lsv_eig_extreme's copy and fallback (32 MB):
	# 48.69 MB; -m 30 is above the old count (3 n^2, 24 MB)
	"$DG" -S 3 -n 1000 -l 5 moons big.txt
	run --separate-stderr "$TRAIN" -q -s cluster -m 30 big.txt x.model
	assert_fails lapsvm-train "the n x n kernel and its eigenvectors would need 48.69 MB, over the memory limit (-m) of 30.00 MB"
	[ ! -e x.model ]
}
