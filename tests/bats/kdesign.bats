#!/usr/bin/env bats
# The kernel designs of Wang et al.'s Table 1 (-s kdesign -J ..., common/
# kdesign.c) and the label-aware kernels on Laplacian eigenvectors (-s
# labelaware -J laplacian): each learned kernel against an independent
# numpy construction (kdesign-ref.py), the Laplacian of W = K (-V kernel,
# the default) and of the graph (-V graph), the transductive predictions
# of -o, the model keys, lapsvm-predict's refusal, the report, and every
# refusal.

load helpers

setup() {
	need_tools "$TRAIN" "$PRED" "$DG" "$GB"
	enter_work
}

REF="$BATS_TEST_DIRNAME/kdesign-ref.py"

need_numpy() {
	/usr/bin/python3 -c 'import numpy' 2>/dev/null ||
		skip "numpy for /usr/bin/python3 not installed"
}

# errors FILE.pred: how many unlabeled rows of m.txt the predictions
# (lapsvm-predict -d format) get wrong against the full set t.txt
errors() {
	paste -d' ' <(cut -d' ' -f1 m.txt) <(cut -d' ' -f1 t.txt) |
		awk '$1 == 0 { print $2 }' >truth
	[ "$(wc -l <truth)" -eq "$(($(wc -l <"$1") - 1))" ] || return 1
	paste -d' ' <(tail -n +2 "$1" | cut -d' ' -f1) truth |
		awk '$1 != $2 { e++ } END { print e + 0 }'
}

@test "cluster kernel: -x writes Chapelle et al.'s kernel, -n 12: linear-step (numpy, 1e-8)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$TRAIN" -q -s kdesign -J cluster -g 2 -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" cluster m.txt 2 12 k.t4
	[[ "$output" == ok* ]] || { echo "$output"; false; }
}

@test "cluster kernel: the default linear transfer uses all n eigenpairs and gives the RBF kernel back (numpy, 1e-8)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	run --separate-stderr "$TRAIN" -s kdesign -J cluster -g 2 -x k.t4 m.txt a.model
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"kernel design cluster: 120 eigenvectors of the 120 rows"* ]]
	grep -qx "kdesign_k 120" a.model
	run /usr/bin/python3 "$REF" cluster m.txt 2 120 k.t4
	[[ "$output" == ok* ]] || { echo "$output"; false; }
}

@test "diffusion kernel, -V kernel (default): -x writes sum exp(-lambda/delta) phi phi' of the Laplacian of W = K (numpy, 1e-8)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$TRAIN" -q -s kdesign -J diffusion -Z 0.3 -g 2 -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" diffusion m.txt 2 12 k.t4 kernel 0.3
	[[ "$output" == ok* ]] || { echo "$output"; false; }
	[ "$(key a.model laplacian_weights)" = kernel ]
	[ -z "$(key a.model graph)" ]
	# the same with -V kernel said
	"$TRAIN" -q -s kdesign -J diffusion -V kernel -Z 0.3 -g 2 -n 12 -x k2.t4 m.txt b.model
	cmp k.t4 k2.t4
}

@test "spectral graph kernel, -V kernel (default): ordered weights >= 0, sum 1 on the Laplacian of W = K (numpy)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$TRAIN" -q -s kdesign -J spectral -g 2 -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" spectral m.txt 2 12 k.t4 kernel
	[[ "$output" == ok* ]] || { echo "$output"; false; }
	# the graph's Laplacian gives another kernel: the reference tells them apart
	run /usr/bin/python3 "$REF" diffusion m.txt 2 12 k.t4 kernel 0.3
	[[ "$output" == BAD* ]] || { echo "$output"; false; }
}

@test "diffusion kernel, -V graph: -x writes sum exp(-lambda/delta) phi phi' of the -G graph (numpy, 1e-8)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$GB" -q m.txt g.graph
	"$TRAIN" -q -s kdesign -J diffusion -V graph -Z 0.3 -G g.graph -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" diffusion m.txt 1 12 k.t4 g.graph 0.3
	[[ "$output" == ok* ]] || { echo "$output"; false; }
	[ "$(key a.model kdesign_delta)" = 0.29999999999999999 ]
	[ "$(key a.model laplacian_weights)" = graph ]
}

@test "maximal-alignment kernel: K~ = sum mu v v' on K's top eigenvectors, mu >= 0, |mu| = 1 (numpy)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$TRAIN" -q -s kdesign -J maxalign -g 2 -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" maxalign m.txt 2 12 k.t4
	[[ "$output" == ok* ]] || { echo "$output"; false; }
}

@test "spectral graph kernel, -V graph: weights on the smallest Laplacian eigenvectors are ordered, >= 0, sum 1 (numpy)" {
	need_numpy
	moons m.txt -S 3 -n 120 -l 8
	"$GB" -q m.txt g.graph
	"$TRAIN" -q -s kdesign -J spectral -V graph -G g.graph -n 12 -x k.t4 m.txt a.model
	run /usr/bin/python3 "$REF" spectral m.txt 1 12 k.t4 g.graph
	[[ "$output" == ok* ]] || { echo "$output"; false; }
}

@test "each design's -o predicts the unlabeled moons (cluster, diffusion, spectral: at most 5 of 180 wrong)" {
	moons m.txt -S 3 -n 200 -l 10
	moons t.txt -S 3 -n 200
	# diffusion and spectral on the 6-NN graph (-V graph) and on W = K at a
	# narrow width (-g 20: at the default width, 1/the mean squared
	# distance, W = K links the two moons and they make 7 and 34 errors)
	for d in cluster diffusion maxalign spectral "diffusion -V graph" \
		 "spectral -V graph" "diffusion -g 20" "spectral -g 20"; do
		"$TRAIN" -q -s kdesign -J $d -o p.pred m.txt p.model
		[ "$(head -n 1 p.pred)" = "labels 1" ]
		e=$(errors p.pred)
		echo "$d: $e of 180 wrong"
		case $d in
		maxalign) [ "$e" -le 45 ] ;;
		diffusion | spectral) ;;
		*) [ "$e" -le 5 ] ;;
		esac
	done
}

@test "the model records the design, k and (diffusion) delta, and the labeled rows only" {
	moons m.txt -S 3 -n 200 -l 10
	"$TRAIN" -q -s kdesign -J diffusion -V graph -n 7 m.txt a.model
	[ "$(key a.model solver)" = kdesign ]
	[ "$(key a.model kdesign)" = diffusion ]
	[ "$(key a.model kdesign_k)" = 7 ]
	[ -n "$(key a.model kdesign_delta)" ]
	[ "$(key a.model nr_sv)" = 20 ]
	[[ "$(key a.model graph)" == "built knn k=6"* ]]
	[ "$(key a.model laplacian_weights)" = graph ]
	"$TRAIN" -q -s kdesign -J cluster m.txt b.model
	[ "$(key b.model kdesign_k)" = 200 ]  # the linear transfer: all n
	[ -z "$(key b.model kdesign_delta)" ]
	[ -z "$(key b.model graph)" ]
	[ -z "$(key b.model laplacian_weights)" ]
}

@test "lapsvm-predict refuses every transductive model, naming the design and -o" {
	moons m.txt -S 3 -n 60 -l 5
	for d in cluster diffusion maxalign spectral; do
		"$TRAIN" -q -s kdesign -J $d m.txt a.model
		run --separate-stderr "$PRED" m.txt a.model out
		assert_fails lapsvm-predict "a.model: a model of kdesign -J $d" \
			"is transductive" "lapsvm-train -o"
		[ ! -e out ]
	done
	"$TRAIN" -q -s labelaware -J laplacian m.txt a.model
	[ "$(key a.model labelaware_eigen)" = laplacian ]
	run --separate-stderr "$PRED" m.txt a.model out
	assert_fails lapsvm-predict "a model of labelaware -J laplacian" "transductive"
}

@test "stderr reports the alignment on the labeled block and the time split" {
	moons m.txt -S 3 -n 200 -l 10
	run --separate-stderr "$TRAIN" -s kdesign -J spectral m.txt a.model
	[ "$status" -eq 0 ]
	assert_stderr_regex "centered alignment with the labels on the labeled block: learned kernel 0\.[0-9]+, input kernel 0\.[0-9]+"
	assert_stderr_regex "time: eigenvectors [0-9.]+ s, weights [0-9.]+ s, SVM [0-9.]+ s"
	assert_stderr_has "Laplacian: I - D^-1/2 W D^-1/2 with W = K, the kernel matrix (-V kernel)"
	[[ "$stderr" != *"NN graph"* ]]
	run --separate-stderr "$TRAIN" -s kdesign -J spectral -V graph m.txt a.model
	assert_stderr_has "built a 6-NN graph"
	assert_stderr_has "Laplacian: I - D^-1/2 W D^-1/2 with W = the graph (-V graph)"
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion m.txt a.model
	assert_stderr_regex "diffusion kernel: delta = [0-9.e-]+ \(the median of the eigenvalues that are not 0; 1 when all are\)"
}

@test "labelaware -J laplacian: -o predicts the unlabeled moons, K~ from -x is PSD with the u's and Laplacian eigenvectors" {
	moons m.txt -S 3 -n 200 -l 10
	moons t.txt -S 3 -n 200
	run --separate-stderr "$TRAIN" -s labelaware -J laplacian -V graph -o l.pred -x k.t4 m.txt a.model
	[ "$status" -eq 0 ]
	assert_stderr_has "20 Laplacian eigenvectors v"
	assert_stderr_has "W = the graph (-V graph)"
	e=$(errors l.pred)
	[ "$e" -le 5 ] || { echo "$e wrong"; false; }
	[ "$(wc -l <k.t4)" -eq 200 ]
	[ "$(key a.model nr_sv)" = 20 ]
	[ "$(key a.model labelaware_rows)" = "10 10" ]
	[ "$(key a.model laplacian_weights)" = graph ]
	# -V kernel (default): W = K, no graph built; -g 20 keeps the moons apart
	run --separate-stderr "$TRAIN" -s labelaware -J laplacian -g 20 -o l.pred m.txt a.model
	[ "$status" -eq 0 ]
	assert_stderr_has "W = K, the kernel matrix (-V kernel)"
	[[ "$stderr" != *"NN graph"* ]]
	e=$(errors l.pred)
	[ "$e" -le 5 ] || { echo "$e wrong"; false; }
	[ "$(key a.model laplacian_weights)" = kernel ]
}

@test "-v chooses -c and the diffusion delta (-Z list), then trains with the best" {
	moons m.txt -S 3 -n 200 -l 10
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -v 2 -c 1,100 -Z 0.01,0.1 -o p.pred m.txt a.model
	[ "$status" -eq 0 ]
	[[ "$output" == *"best: -Z "*" -c "* ]] || { echo "$output"; false; }
	[ "$(printf '%s\n' "$output" | grep -c '%$')" -eq 4 ]
	best=$(printf '%s\n' "$output" | sed -n 's/^best: -Z \([^ ]*\) .*/\1/p')
	[ "$(key a.model kdesign_delta)" = "$(awk -v z="$best" 'BEGIN { printf "%.17g", z }')" ]
}

@test "-t 4: a precomputed kernel trains the cluster design and (W = K) diffusion; diffusion -V graph then needs -G" {
	need_numpy
	moons m.txt -S 3 -n 60 -l 5
	/usr/bin/python3 "$BATS_TEST_DIRNAME/rbf-t4.py" 2 m.txt >k.t4
	"$TRAIN" -q -s kdesign -J cluster -t 4 -e 1e-10 -o a.pred k.t4 a.model
	"$TRAIN" -q -s kdesign -J cluster -g 2 -e 1e-10 -o b.pred m.txt b.model
	d=$(paste -d' ' <(tail -n +2 a.pred) <(tail -n +2 b.pred) | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
	awk -v d="$d" 'BEGIN { exit !(d < 1e-6) }' || { echo "max diff $d"; false; }
	"$TRAIN" -q -s kdesign -J diffusion -Z 0.5 -t 4 -e 1e-10 -o c.pred k.t4 c.model
	"$TRAIN" -q -s kdesign -J diffusion -Z 0.5 -g 2 -e 1e-10 -o d.pred m.txt d.model
	d=$(paste -d' ' <(tail -n +2 c.pred) <(tail -n +2 d.pred) | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
	awk -v d="$d" 'BEGIN { exit !(d < 1e-6) }' || { echo "max diff $d"; false; }
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -V graph -t 4 k.t4 c.model
	assert_status 2
	assert_stderr_has "-t 4 (precomputed kernel) needs the graph given with -G"
}

@test "a precomputed kernel with a negative eigenvalue is refused by every learned kernel" {
	# K = [[1, 2], [2, 1]] plus a PSD block: eigenvalue -1
	printf '%s\n' '1 0:1 1:1 2:2 3:0 4:0' '-1 0:2 1:2 2:1 3:0 4:0' \
		'1 0:3 1:0 2:0 3:1 4:0.5' '-1 0:4 1:0 2:0 3:0.5 4:1' >k.t4
	for s in "kdesign -J cluster" "kdesign -J maxalign" labelaware; do
		run --separate-stderr "$TRAIN" -s $s -n 1 -t 4 k.t4 a.model
		assert_fails lapsvm-train "the precomputed kernel is not positive semi-definite: its smallest eigenvalue is -1"
		[ ! -e a.model ]
	done
}

@test "more eigenvectors than rows is refused, for every design" {
	small_data m.txt
	printf '%s\n' '-1 1:0 2:2.1' '1 1:0.1 2:0' >>m.txt
	for d in cluster diffusion maxalign spectral; do
		run --separate-stderr "$TRAIN" -q -s kdesign -J $d -n 7 m.txt a.model
		assert_fails lapsvm-train "7 eigenvectors asked for (-n), but there are only n = 6 rows"
		[ ! -e a.model ]
	done
	run --separate-stderr "$TRAIN" -q -s labelaware -J laplacian -V graph -n 7 m.txt a.model
	assert_fails lapsvm-train "7 Laplacian eigenvectors asked for, but the graph has only n = 6 rows"
	run --separate-stderr "$TRAIN" -q -s labelaware -J laplacian -n 7 m.txt a.model
	assert_fails lapsvm-train "7 Laplacian eigenvectors asked for, but the kernel matrix has only n = 6 rows"
}

@test "a class with one labeled row is refused, for every design" {
	small_data m.txt
	for d in cluster diffusion maxalign spectral; do
		run --separate-stderr "$TRAIN" -q -s kdesign -J $d -n 2 m.txt a.model
		assert_fails lapsvm-train "class -1 has 1 labeled row: the $d kernel (-s kdesign -J $d) needs at least two per class"
	done
	run --separate-stderr "$TRAIN" -q -s labelaware -J laplacian -n 2 m.txt a.model
	assert_fails lapsvm-train "class -1 has 1 labeled row: the label-aware kernel needs at least two per class"
}

@test "usage errors: no -J, an unknown design, -J or -Z elsewhere, graph options" {
	small_data m.txt
	run --separate-stderr "$TRAIN" -s kdesign m.txt
	assert_train_usage "-s kdesign needs the design: -J cluster, diffusion, maxalign or spectral"
	run --separate-stderr "$TRAIN" -s kdesign -J heat m.txt
	assert_train_usage "option -J: unknown design 'heat' (expected cluster, diffusion, maxalign or spectral)"
	run --separate-stderr "$TRAIN" -s labelaware -J cluster m.txt
	assert_train_usage "option -J: unknown label-aware eigenvectors 'cluster' (expected kernel or laplacian)"
	run --separate-stderr "$TRAIN" -J cluster m.txt
	assert_train_usage "-J is the design of -s kdesign, or the eigenvectors of -s labelaware"
	run --separate-stderr "$TRAIN" -s kdesign -J cluster -Z 1 m.txt
	assert_train_usage "-Z is delta of the diffusion kernel (-s kdesign -J diffusion)"
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -Z 0 m.txt
	assert_bad_option Z "out of range"
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -Z 1,2 m.txt
	assert_train_usage "option -Z: a list of values needs -v (cross validation) to choose among them"
	run --separate-stderr "$TRAIN" -s kdesign -J cluster -k 5 m.txt
	assert_train_usage "the kernel design uses no graph (-G, -k, -i, -I, -L, -P); -J diffusion and -J spectral do with -V graph"
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -k 5 m.txt
	assert_train_usage "the kernel design uses no graph (-G, -k, -i, -I, -L, -P); -J diffusion and -J spectral do with -V graph"
	run --separate-stderr "$TRAIN" -s labelaware -J laplacian -G g.graph m.txt
	assert_train_usage "the label-aware kernel SVM uses no graph (-G, -k, -i, -I, -L, -P); -J laplacian does with -V graph"
	run --separate-stderr "$TRAIN" -s kdesign -J cluster -V graph m.txt
	assert_train_usage "-V is the weights of the normalized Laplacian of -s kdesign -J diffusion or spectral, and of -s labelaware -J laplacian"
	run --separate-stderr "$TRAIN" -s labelaware -V kernel m.txt
	assert_train_usage "-V is the weights of the normalized Laplacian"
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -V knn m.txt
	assert_train_usage "option -V: unknown Laplacian weights 'knn' (expected kernel or graph)"
	run --separate-stderr "$TRAIN" -s kdesign -J spectral -V graph -i 1 m.txt
	assert_train_usage "-i: the kernel design takes its graph's normalized Laplacian, with no gamma_I term"
	run --separate-stderr "$TRAIN" -s labelaware -J laplacian -N 5 m.txt
	assert_train_usage "-N (Nystrom landmarks) approximates the kernel's eigenvectors: not with -J laplacian"
}

@test "a negative kernel value is refused for the Laplacian of W = K, naming the entry; -V graph takes it" {
	# linear kernel: K(1, 2) = 1 x -1 = -1
	printf '%s\n' '1 1:1' '-1 1:-1' '1 1:2' '-1 1:-2' '0 1:0.5' '0 1:-0.5' >m.txt
	for s in "kdesign -J diffusion" "kdesign -J spectral" "labelaware -J laplacian"; do
		run --separate-stderr "$TRAIN" -s $s -n 2 -t 0 m.txt a.model
		assert_fails lapsvm-train "the Laplacian of the kernel needs weights K_ij >= 0, but K(2, 1) = -1" "-V graph"
		[ ! -e a.model ]
	done
	"$TRAIN" -q -s kdesign -J diffusion -V graph -k 2 -n 2 -t 0 m.txt a.model
	[ "$(key a.model laplacian_weights)" = graph ]
}

@test "a kdesign model missing its keys, or kdesign keys elsewhere, is refused" {
	moons m.txt -S 3 -n 60 -l 5
	"$TRAIN" -q -s kdesign -J diffusion m.txt a.model
	grep -v '^kdesign_delta' a.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "missing key 'kdesign_delta' (expected it in a kdesign diffusion model)"
	grep -v '^kdesign ' a.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "missing key 'kdesign'"
	sed 's/^kdesign diffusion/kdesign heat/' a.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "unknown kdesign (found 'heat'"
	"$TRAIN" -q -s kdesign -J cluster m.txt c.model
	sed '/^kdesign_k /a laplacian_weights kernel' c.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "laplacian_weights in a model whose eigenvectors are not a Laplacian's"
	sed 's/^laplacian_weights kernel/laplacian_weights heat/' a.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "unknown laplacian_weights (found 'heat'"
	sed 's/^solver kdesign/solver lapsvm/' c.model >b.model
	run --separate-stderr "$PRED" m.txt b.model out
	assert_fails lapsvm-predict "kdesign keys in a model that is not one"
}

@test "cluster kernel: a row whose kernel values sum to 0 or less is refused (it would get a zero row of K~)" {
	printf '%s\n' '1 1:3 2:1' '1 1:2 2:2' '-1 1:-1 2:0.2' '-1 1:-2 2:-0.5' \
		'0 1:2.5 2:1.5' '0 1:-1.5 2:-0.2' '0 1:-0.8 2:0.1' >unc.txt
	run --separate-stderr "$TRAIN" -s kdesign -J cluster -t 0 -o unc.o -x unc.K unc.txt unc.model
	assert_fails lapsvm-train "the cluster kernel (-s kdesign -J cluster): row 3's kernel values sum to -1.38, and D^-1/2 K D^-1/2 needs every row's sum > 0"
	[ ! -e unc.model ] && [ ! -e unc.o ] && [ ! -e unc.K ]
}

@test "diffusion kernel: a delta at which every weight underflows is refused, not a model of the bias alone" {
	"$DG" -S 1 -n 40 -l 4 moons m40.txt
	run --separate-stderr "$TRAIN" -q -s kdesign -J diffusion -Z 1e-300 m40.txt d.model
	assert_fails lapsvm-train "the diffusion kernel (-s kdesign -J diffusion): row 1 gets K~_ii = 0: no eigenvector of positive weight reaches it"
	assert_stderr_has "raise -Z"
	[ ! -e d.model ]
	"$TRAIN" -q -s kdesign -J diffusion -Z 1 m40.txt d.model
}

@test "-J diffusion on a graph of many components: delta from the nonzero eigenvalues; too few eigenvectors named as such" {
	"$DG" -S 3 -n 60 -l 5 moons m.txt
	"$GB" -q -k 2 -m m.txt g  # 22 connected components
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -V graph -G g -n 30 -o p m.txt k.model
	assert_status 0
	# the median of 30 eigenvalues, 22 of them 0, was rounding noise (3.9e-17)
	local d
	d=$(sed -n 's/.*diffusion kernel: delta = \([0-9.e+-]*\) .*/\1/p' <<<"$stderr")
	awk -v d="$d" 'BEGIN { exit !(d > 0.1 && d < 2) }' || { echo "delta $d"; false; }
	run --separate-stderr "$TRAIN" -s kdesign -J diffusion -V graph -G g -n 21 -Z 1000 -o p2 m.txt k2.model
	assert_status 1
	assert_stderr_regex 'row [0-9]+ gets K~_ii = 0: the 21 eigenvectors all have eigenvalue 0, so the graph has at least 21 connected components and they do not reach every one; use more eigenvectors \(-n\) than the graph has components, or a graph with fewer$'
	[ ! -e k2.model ] && [ ! -e p2 ]
}

@test "-m counts lsv_eig_extreme's copy and its dsyevd fallback (2 n^2 more) beside K, the matrix taken apart and the eigenvectors" {
	# 1000 rows (an n x n array is 8 MB), 10 labeled: the old count,
	# 3 n^2 (24 MB) for every design, was under -m 30; each design's
	# count is now over it
	"$DG" -S 3 -n 1000 -l 5 moons big.txt
	for d in "cluster 48.64" "diffusion 41.43" "maxalign 33.43" \
		"spectral 41.43"; do
		set -- $d
		run --separate-stderr "$TRAIN" -q -s kdesign -J "$1" -m 30 big.txt x.model
		assert_fails lapsvm-train "its eigenvectors and the eigensolver's scratch would need $2 MB, over the memory limit (-m) of 30.00 MB; this method has no low-rank path: fewer rows, or -s laprls or lapsvm -M newton -N m"
	done
	run --separate-stderr "$TRAIN" -q -s labelaware -J laplacian -m 30 big.txt x.model
	assert_fails lapsvm-train "would need 49.43 MB, over the memory limit (-m) of 30.00 MB; the Laplacian's eigenvectors need the n x n matrix: fewer rows, or -J kernel -N m"
	[ ! -e x.model ]
}

@test "-m: a method without a low-rank path is not told to use -M newton -N m, which it would refuse" {
	"$DG" -S 3 -n 1000 -l 5 moons big.txt
	run --separate-stderr "$TRAIN" -q -s tsvm -m 10 big.txt x.model
	assert_fails lapsvm-train "would need 16.00 MB, over the memory limit (-m) of 10.00 MB; this method has no low-rank path"
	# what the old hint said, refused
	run --separate-stderr "$TRAIN" -q -s tsvm -M newton -N 50 big.txt x.model
	assert_status 2
	[ ! -e x.model ]
}
