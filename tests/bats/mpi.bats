#!/usr/bin/env bats
# The MPI build (make MPI=1, in LAPSVM_MPIBIN, default build/mpi) under
# mpirun: graphs byte for byte those of the serial build for P = 1..4
# ranks, models (Nystrom and linear Newton, PCG on the exact kernel) those
# of one process to 1e-9 relative with the same predicted labels, and
# failures on any rank ending every rank with one message.
# Skipped when the MPI build or mpirun is absent.
#
# Every run: timeout 60 mpirun -q --oversubscribe --bind-to none -np P,
# one OpenMP thread per rank, and as root in a container the two
# variables OpenMPI asks for (README, "MPI").

load helpers

MPIBIN="${LAPSVM_MPIBIN:-$BATS_TEST_DIRNAME/../../build/mpi}"
MGB="$MPIBIN/graph-build"

setup() {
	need_tools "$GB" "$DG"
	[ -x "$MGB" ] || skip "the MPI build is absent ($MGB; make MPI=1)"
	command -v mpirun > /dev/null || skip "mpirun not installed (openmpi-bin)"
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	export OMP_NUM_THREADS=1
	# Under make asan: OpenMPI's own allocations are not leaks of ours
	# (tests/lsan-mpi.supp says why full stacks are needed to tell them).
	export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$BATS_TEST_DIRNAME/../lsan-mpi.supp:print_suppressions=0"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	enter_work
}

# mpi P ARGS...: graph-build of the MPI build on P ranks.
mpi() {
	local P=$1
	shift
	timeout 60 mpirun -q --oversubscribe --bind-to none -np "$P" "$MGB" "$@"
}

# same_graphs DATA OPTIONS...: the serial graph, then P = 1..4 ranks, each
# compared byte for byte.
same_graphs() {
	local data=$1 P
	shift
	"$GB" -q "$@" "$data" serial.graph
	for P in 1 2 3 4; do
		rm -f "p$P.graph"
		mpi "$P" -q "$@" "$data" "p$P.graph" || { echo "P = $P failed"; return 1; }
		cmp serial.graph "p$P.graph" || { echo "P = $P differs ($*)"; return 1; }
	done
}

# integer_moons FILE: two moons rounded to integers (x 10): exact
# distances with many ties at the k-th neighbour.
integer_moons() {
	"$DG" -S 5 moons raw.libsvm
	awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) { split($i, a, ":");
	       printf " %s:%d", a[1], int(a[2] * 10 + (a[2] < 0 ? -0.5 : 0.5)) }
	       print "" }' raw.libsvm > "$1"
}

# ------------------------------------------------------------ equivalence

@test "mpi: kNN graph of 200 moons: byte-identical for P = 1..4" {
	moons m.libsvm -S 3
	same_graphs m.libsvm -k 6
	[ -s serial.graph ]
}

@test "mpi: epsilon graph, binary and distance weights: byte-identical" {
	moons m.libsvm -S 4
	same_graphs m.libsvm -e 0.3
	same_graphs m.libsvm -e 0.2 -w binary
	same_graphs m.libsvm -k 5 -w distance
}

@test "mpi: mutual kNN and a given heat width: byte-identical" {
	moons m.libsvm -S 6
	same_graphs m.libsvm -k 7 -m
	same_graphs m.libsvm -k 3 -t 0.5
}

@test "mpi: cosine with a zero row (isolated): byte-identical" {
	moons m.libsvm -S 7
	echo '1 3:0' >> m.libsvm
	same_graphs m.libsvm -k 6 -d cosine
	same_graphs m.libsvm -e 0.01 -d cosine
	# the zero row (201) has no edge
	[ "$(grep -c '^201 [0-9]' serial.graph)" -eq 0 ]
	grep -q '^200 [0-9]' serial.graph
}

@test "mpi: integer data, exact ties at the k-th distance, broken by index" {
	integer_moons i.libsvm
	same_graphs i.libsvm -k 10
	same_graphs i.libsvm -k 4 -m
}

@test "mpi: integer data past 2^24 (inexact float products, exact keys from the blocks): byte-identical" {
	# two moons times 5000, rounded, and 20 more features: squared norms
	# near 2^28, so the products are inexact in single precision and the
	# ring computes the survivors' exact distances from its dense blocks
	"$DG" -S 8 moons raw.libsvm
	awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) { split($i, a, ":");
	       printf " %s:%d", a[1], int(a[2] * 5000 + (a[2] < 0 ? -0.5 : 0.5)) }
	       for (j = 3; j <= 22; j++) printf " %d:%d", j, (NR * j) % 97
	       print "" }' raw.libsvm > big.libsvm
	same_graphs big.libsvm -k 7
	same_graphs big.libsvm -e 4000
}

@test "mpi: values near 1e-100 (single precision would underflow): byte-identical" {
	# the ring chose float products for any squared norm below 1e30;
	# these underflow a float, and P >= 2 picked other neighbours
	printf '%s\n' '0 1:5e-100' '0 1:1e-100' '0 1:-1e-100' '0 1:6e-100' >mp4.txt
	same_graphs mp4.txt -k 1 -w binary
	grep -qx '1 4:1' serial.graph
	"$DG" -S 3 moons m.txt
	awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) { split($i, a, ":")
	       printf " %s:%.17g", a[1], a[2] * 1e-22 }; print "" }' m.txt >t22.txt
	same_graphs t22.txt -k 5
}

@test "mpi: duplicate points, uneven blocks, k >= rows per block" {
	printf '%s\n' '1 1:1 2:1' '1 1:1 2:1' '-1 1:2 2:0.5' '1 1:1 2:1' \
		'0 1:0.5 2:3' '0 1:2 2:0.5' '0 1:-1 2:1' > d.libsvm
	same_graphs d.libsvm -k 5
	same_graphs d.libsvm -k 2 -w distance
	same_graphs d.libsvm -e 1.5
}

@test "mpi: 3 rows on 4 ranks (a rank with no rows), k capped at 2" {
	small_data s.txt
	sed -i 4d s.txt
	same_graphs s.txt -k 6
	run --separate-stderr mpi 4 -k 6 s.txt p.graph
	assert_status 0
	assert_stderr_has "using k = 2"
}

@test "mpi: one row: an empty graph, as serial" {
	echo '1 1:2' > one.txt
	same_graphs one.txt -k 3
}

@test "mpi: USPS test set (2007 rows, 256 real features): byte-identical" {
	[ -n "$DATA" ] && [ -f "$DATA/lds_uspst.libsvm.gz" ] || skip "LAPSVM_DATA has no lds_uspst.libsvm.gz"
	gzip -dc "$DATA/lds_uspst.libsvm.gz" > u.libsvm
	"$GB" -q -k 10 u.libsvm serial.graph
	for P in 2 3; do
		mpi "$P" -q -k 10 u.libsvm "p$P.graph"
		cmp serial.graph "p$P.graph"
	done
	"$GB" -q -k 10 -d cosine u.libsvm serial.graph
	mpi 2 -q -k 10 -d cosine u.libsvm p2.graph
	cmp serial.graph p2.graph
}

@test "mpi: each rank's scan time and bytes sent are reported" {
	moons m.libsvm -S 3
	run --separate-stderr mpi 2 -k 6 m.libsvm m.graph
	assert_status 0
	[[ "$stderr" =~ "rank 0 of 2: scan "[0-9.]+" s ("[sd]"gemm block products "[0-9.]+" s), sent "[0-9]+" bytes" ]]
	[[ "$stderr" =~ "rank 1 of 2: scan "[0-9.]+" s ("[sd]"gemm block products "[0-9.]+" s), sent "[0-9]+" bytes" ]]
	# rank 1 sends at least its 100 x 6 pairs to rank 0 (24 bytes each)
	# and the travelling heaps of 100 rows (6 candidates of 16 bytes)
	sent=$(sed -n 's/.*rank 1 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	[ "$sent" -gt 24000 ]
}

@test "mpi: parts cut through comment lines, CRLF and a last line without newline: byte-identical" {
	moons m.libsvm -S 3
	awk '{ if (NR % 7 == 0) print "# comment " NR; if (NR % 11 == 0) print "   # indented"
	       printf "%s\r\n", $0 }' m.libsvm > c.libsvm
	printf '1 1:0.1 2:0.2' >> c.libsvm
	same_graphs c.libsvm -k 6
}

@test "mpi: every rank reads its own part of a file; standard input is read by rank 0 and scattered" {
	moons m.libsvm -S 3 -n 400
	"$GB" -q -k 6 m.libsvm serial.graph
	run --separate-stderr mpi 2 -k 6 m.libsvm file.graph
	assert_status 0
	cmp serial.graph file.graph
	parts=$(sed -n 's/.*rank 0 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	run --separate-stderr mpi 2 -k 6 - stdin.graph < m.libsvm
	assert_status 0
	cmp serial.graph stdin.graph
	scatter=$(sed -n 's/.*rank 0 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	# reading by parts, rank 0 does not scatter rank 1's 200 rows (2 values
	# of 12 bytes and a row offset each: 6400 bytes); it sends only the few
	# rows of its byte range that belong to rank 1's block
	[ "$parts" -gt 0 ] && [ $((scatter - parts)) -ge 3200 ] ||
		{ echo "rank 0 sent $parts bytes reading by parts, $scatter from stdin"; return 1; }
}

# ------------------------------------------------------------------ faults

# one_message: the run failed with status $1 and exactly one line on
# stderr, holding $2; no file left in the directory but the inputs ($3...).
one_message() {
	local code=$1 text=$2
	shift 2
	assert_status "$code"
	assert_stderr_has "$text"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] ||
		{ echo "stderr has more than one line: $stderr"; return 1; }
	[ "$(ls -A | sort | tr '\n' ' ')" = "$(printf '%s\n' "$@" | grep . | sort | tr '\n' ' ')" ] ||
		{ echo "files left: $(ls -A)"; return 1; }
}

@test "mpi fault: a malformed line in the rows of rank 2: file:line, exit 1, no stray file" {
	moons m.libsvm -S 3
	# 200 rows on 3 ranks: rank 2 reads the lines that start in the last
	# third of the file's bytes (line 180 is at about 90%)
	sed -i '180s/.*/1 1:0.5 2:oops/' m.libsvm
	run --separate-stderr mpi 3 -k 6 m.libsvm m.graph
	one_message 1 "graph-build: m.libsvm:180:" m.libsvm
}

@test "mpi fault: a graph file as data, a byte order mark, an empty line: one process's message, once" {
	moons m.libsvm -S 3
	"$GB" -q -k 6 m.libsvm g.graph
	rm m.libsvm
	run --separate-stderr mpi 3 -k 6 g.graph out.graph
	one_message 1 "graph-build: g.graph: this looks like a graph file, not data" g.graph g.graph.knn
	rm g.graph g.graph.knn
	{ printf '\357\273\277'; printf '%s\n' '1 1:1' '-1 1:2' '1 1:3'; } > bom.libsvm
	run --separate-stderr mpi 2 -k 1 bom.libsvm out.graph
	one_message 1 "graph-build: bom.libsvm:1: the file starts with a UTF-8 byte order mark" bom.libsvm
	rm bom.libsvm
	printf '%s\n' '1 1:1' '-1 1:2' '1 1:3' '-1 1:4' '' '1 1:5' '-1 1:6' > blank.libsvm
	run --separate-stderr mpi 4 -k 1 blank.libsvm out.graph
	one_message 1 "graph-build: blank.libsvm:5: empty line" blank.libsvm
}

@test "mpi fault: a missing data file: exit 1, one message" {
	run --separate-stderr mpi 3 -k 6 nothere.libsvm out.graph
	one_message 1 "nothere.libsvm"
}

@test "mpi fault: an output directory that does not exist: exit 1, one message" {
	moons m.libsvm -S 3
	run --separate-stderr mpi 4 -k 6 m.libsvm no/such/dir/m.graph
	one_message 1 "no/such/dir/m.graph" m.libsvm
}

@test "mpi fault: data refused by the distance checks: exit 1, one message naming the row" {
	printf '%s\n' '1 1:1' '1 1:1e200' '-1 1:3' '1 1:4' > big.txt
	run --separate-stderr mpi 2 -k 2 big.txt big.graph
	one_message 1 "big.txt:2: feature values too large" big.txt
	printf '%s\n' '1 1:1' '1 1:2' '-1 1:3e-200' '1 1:4' > tiny.txt
	run --separate-stderr mpi 2 -k 2 tiny.txt tiny.graph
	one_message 1 "tiny.txt:3: a feature value too small (3e-200, expected 0 or at least 1e-130 in magnitude)" big.txt tiny.txt
}

@test "mpi: options that are not distributed are usage errors (exit 2, once)" {
	moons m.libsvm -S 3
	run --separate-stderr mpi 2 -y -k 3 m.libsvm m.graph
	assert_status 2
	assert_stderr_has "-y (graphs within each class) is not distributed"
	[ "$(grep -c 'not distributed' <<< "$stderr")" -eq 1 ]
	run --separate-stderr mpi 3 -N -k 3 m.libsvm m.lists
	assert_status 2
	assert_stderr_has "-N (neighbour lists) is not distributed"
	[ ! -e m.graph ]
	[ ! -e m.lists ]
	# one rank: the serial code, everything allowed
	run --separate-stderr mpi 1 -q -N -k 3 m.libsvm m.lists
	assert_status 0
	"$GB" -q -N -k 3 m.libsvm s.lists
	cmp s.lists m.lists
}

@test "mpi: lapsvm-predict, lapsvm-pca and lapsvm-datagen refuse P > 1 (exit 2, once), run on one rank" {
	moons m.libsvm -S 3
	"$TRAIN" -q m.libsvm m.model
	MB=$(dirname "$MGB")
	for cmd in "lapsvm-predict m.libsvm m.model out" "lapsvm-pca -k 1 m.libsvm out" \
		   "lapsvm-datagen -n 10 moons out"; do
		set -- $cmd
		tool=$1
		shift
		run --separate-stderr timeout 60 mpirun -q --oversubscribe --bind-to none -np 2 "$MB/$tool" "$@"
		assert_status 2
		assert_stderr_has "$tool: not distributed: run it on one process (without mpirun, or -np 1)"
		[ "$(grep -c 'not distributed' <<< "$stderr")" -eq 1 ]
		[ ! -e out ]
		run --separate-stderr timeout 60 mpirun -q --oversubscribe --bind-to none -np 1 "$MB/$tool" "$@"
		assert_status 0
		[ -s out ]
		rm out
	done
}

@test "mpi: a usage error on every rank: exit 2, one message" {
	moons m.libsvm -S 3
	run --separate-stderr mpi 3 -k 0 m.libsvm m.graph
	assert_status 2
	[ "$(grep -c 'graph-build: option -k' <<< "$stderr")" -eq 1 ]
}

@test "mpi: a failure agreed without an lsv_error reaches the other ranks as its status's name" {
	# lsv_comm_agree(c, st, NULL) on the failing rank: it has no message
	# to send, and once sent its uninitialized scratch (a garbage row and
	# text).  mpi-agree.c against the MPI build's library, with the
	# sanitizers when the library has them (make asan).
	local lib="$MPIBIN/obj/liblapsvm.a" cc="${MPICC:-mpicc}" san=
	[ -f "$lib" ] || skip "no $lib"
	command -v "$cc" > /dev/null || skip "$cc not installed"
	nm "$lib" 2> /dev/null | grep -q __asan_init && san="-fsanitize=address,undefined"
	"$cc" -std=c99 -fopenmp $san -I"$BATS_TEST_DIRNAME/../../common" -o agree \
		"$BATS_TEST_DIRNAME/mpi-agree.c" "$lib" -llapack -lblas -lm
	run --separate-stderr timeout 60 mpirun -q --oversubscribe --bind-to none -np 2 ./agree
	assert_status 0
	[ "$output" = "1 0 input/output error" ]
}

# ------------------------------------------------------------ lapsvm-train

MTR="$MPIBIN/lapsvm-train"

# mtrain P ARGS...: lapsvm-train of the MPI build on P ranks.
mtrain() {
	local P=$1
	shift
	[ -x "$MTR" ] || { echo "$MTR not built (make MPI=1)"; return 1; }
	timeout 60 mpirun -q --oversubscribe --bind-to none -np "$P" "$MTR" "$@"
}

# close_models A B: the same text, every number equal to 1e-9 relative
# (the ranks' partial sums are added in another order than one process
# adds them, so the last digits may move); prints the first difference.
close_models() {
	awk -v A="$1" -v B="$2" '
	function num(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
	function ab(v) { return v < 0 ? -v : v }
	BEGIN {
		while ((getline a < A) > 0) {
			k++
			if ((getline b < B) <= 0) { print B " is shorter"; exit 1 }
			na = split(a, ta, /[ :]/); nb = split(b, tb, /[ :]/)
			if (na != nb) { print "line " k ": " a " | " b; exit 1 }
			for (i = 1; i <= na; i++) if (ta[i] != tb[i]) {
				if (!num(ta[i]) || !num(tb[i])) { print "line " k ": " ta[i] " | " tb[i]; exit 1 }
				m = ab(ta[i]) > ab(tb[i]) ? ab(ta[i]) : ab(tb[i])
				if (ab(ta[i] - tb[i]) > 1e-9 * m) { print "line " k ": " ta[i] " | " tb[i]; exit 1 }
			}
		}
		if ((getline b < B) > 0) { print A " is shorter"; exit 1 }
	}'
}

# same_training DATA TEST OPTIONS...: the serial model, then P = 1..4
# ranks: each model equal to 1e-9 relative, the labels lapsvm-predict gives
# on TEST and the transductive ones (-o) identical.
same_training() {
	local data=$1 test=$2 P
	shift 2
	"$TRAIN" -q "$@" -o serial.pred "$data" serial.model
	"$PRED" "$test" serial.model serial.out > /dev/null
	for P in 1 2 3 4; do
		rm -f "p$P.model" "p$P.pred"
		mtrain "$P" -q "$@" -o "p$P.pred" "$data" "p$P.model" || { echo "P = $P failed ($*)"; return 1; }
		close_models serial.model "p$P.model" || { echo "P = $P: model differs ($*)"; return 1; }
		"$PRED" "$test" "p$P.model" "p$P.out" > /dev/null
		cmp serial.out "p$P.out" || { echo "P = $P: predicted labels differ ($*)"; return 1; }
		cmp <(cut -d' ' -f1 serial.pred) <(cut -d' ' -f1 "p$P.pred") ||
			{ echo "P = $P: transductive labels differ ($*)"; return 1; }
	done
}

@test "mpi train: Nystrom LapSVM and LapRLS on 301 moons: the serial model for P = 1..4" {
	# 301 rows, whole 16-row groups: uneven blocks (144/157, 96/96/109,
	# 64/80/80/77)
	"$DG" -S 3 -n 301 -l 10 moons m.libsvm
	"$DG" -S 9 -n 200 moons t.libsvm
	"$GB" -q -k 6 m.libsvm m.graph
	same_training m.libsvm t.libsvm -s lapsvm -M newton -N 40 -G m.graph
	same_training m.libsvm t.libsvm -s laprls -M newton -N 40 -G m.graph
	# the hinge took more than one Newton step (the active set moved)
	mtrain 3 -s lapsvm -M newton -N 40 -G m.graph m.libsvm p.model 2> err
	grep -q 'Newton: [2-9][0-9]* steps' err || { cat err; false; }
}

@test "mpi train: Nystrom one-vs-rest on three rings, the graph built in: the serial model" {
	"$DG" -S 4 -n 301 -l 8 rings r.libsvm
	"$DG" -S 8 -n 150 rings t.libsvm
	same_training r.libsvm t.libsvm -s lapsvm -M newton -N 50 -k 5 -P 2
	[ "$(key serial.model nr_class)" = 3 ]
}

@test "mpi train: the linear sparse path (-t 0 -M newton): the serial model for P = 1..4" {
	"$DG" -S 3 -n 301 -l 10 moons m.libsvm
	"$DG" -S 9 -n 200 moons t.libsvm
	"$GB" -q -k 6 m.libsvm m.graph
	same_training m.libsvm t.libsvm -s lapsvm -M newton -t 0 -G m.graph
	same_training m.libsvm t.libsvm -s laprls -M newton -t 0 -G m.graph
}

@test "mpi train: 3 rows on 4 ranks (ranks with no rows): the serial model" {
	small_data s.txt
	sed -i 4d s.txt
	"$DG" -S 9 -n 20 moons t.libsvm
	same_training s.txt t.libsvm -s laprls -M newton -N 3 -k 2
	same_training s.txt t.libsvm -s lapsvm -M newton -t 0 -k 2
}

@test "mpi train: PCG on the exact kernel (laprls, lapsvm; pcg, pcg-early): the serial model for P = 1..4" {
	# 301 rows: uneven blocks of K's rows (144/157, 96/96/109, 64/80/80/77)
	"$DG" -S 3 -n 301 -l 10 moons m.libsvm
	"$DG" -S 9 -n 200 moons t.libsvm
	"$GB" -q -k 6 m.libsvm m.graph
	same_training m.libsvm t.libsvm -s laprls -M pcg -G m.graph
	same_training m.libsvm t.libsvm -s laprls -M pcg-early -G m.graph
	same_training m.libsvm t.libsvm -s lapsvm -M pcg -G m.graph
	same_training m.libsvm t.libsvm -s lapsvm -M pcg-early -G m.graph
	# iterative: many products with K, each gathered
	mtrain 3 -s lapsvm -M pcg -G m.graph m.libsvm p.model 2> err
	grep -q 'PCG: [1-9][0-9] iterations' err || { cat err; false; }
}

@test "mpi train: PCG one-vs-rest on three rings, L^2, the graph built in: the serial model" {
	"$DG" -S 4 -n 301 -l 8 rings r.libsvm
	"$DG" -S 8 -n 150 rings t.libsvm
	same_training r.libsvm t.libsvm -s lapsvm -M pcg -k 5 -P 2
	same_training r.libsvm t.libsvm -s laprls -M pcg -k 5 -t 2 -d 3
	[ "$(key serial.model nr_class)" = 3 ]
}

@test "mpi train: PCG with 3 rows on 4 ranks (ranks with no rows) and at gamma_I = 0" {
	small_data s.txt
	sed -i 4d s.txt
	"$DG" -S 9 -n 20 moons t.libsvm
	same_training s.txt t.libsvm -s laprls -M pcg -k 2
	same_training s.txt t.libsvm -s lapsvm -M pcg -k 2
	"$DG" -S 3 -n 301 -l 10 moons m.libsvm
	same_training m.libsvm t.libsvm -s laprls -M pcg -I 0
}

@test "mpi train: PCG keeps n/P rows of K per rank (-m refuses one process, not two)" {
	# 1000 rows: K is 8 MB; each of 2 ranks keeps 500 rows (4 MB)
	"$DG" -S 5 -n 1000 -l 20 moons b.libsvm
	"$GB" -q -k 6 b.libsvm b.graph
	run --separate-stderr "$TRAIN" -q -M pcg -m 5 -G b.graph b.libsvm s.model
	assert_status 1
	assert_stderr_has "the n x n kernel matrix would need 8.00 MB"
	run --separate-stderr mtrain 3 -M pcg -m 2 -G b.graph b.libsvm p.model
	assert_status 1
	# 63 groups of 16 rows, 21 a rank: 336 rows
	assert_stderr_has "this rank's rows of the n x n kernel matrix would need 2.69 MB"
	[ ! -e p.model ]
	mtrain 2 -q -M pcg -m 5 -G b.graph b.libsvm p.model
	"$TRAIN" -q -M pcg -G b.graph b.libsvm s.model
	close_models s.model p.model
}

@test "mpi train: PCG sends each rank's block of K q once per iteration" {
	moons m.libsvm -S 3
	run --separate-stderr mtrain 2 -s laprls -M pcg m.libsvm m.model
	assert_status 0
	it=$(sed -n 's/.*PCG: \([0-9]*\) iterations.*/\1/p' <<< "$stderr")
	[ "$it" -gt 5 ]
	# rank 1 holds rows 97..200: at least 104 doubles (832 bytes) per
	# product, the iterations' and the first's
	sent=$(sed -n 's/.*rank 1 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	[ "$sent" -ge $((832 * (it + 1))) ]
}

@test "mpi train: each rank's rows, training time and bytes sent are reported" {
	moons m.libsvm -S 3
	run --separate-stderr mtrain 2 -M newton -N 20 m.libsvm m.model
	assert_status 0
	# blocks of whole 16-row groups: 13 groups, 6 and 7
	[[ "$stderr" =~ "rank 0 of 2: rows 1..96, train "[0-9.]+" s (CPU "[0-9.]+" s), sent "[0-9]+" bytes" ]]
	[[ "$stderr" =~ "rank 1 of 2: rows 97..200, train "[0-9.]+" s (CPU "[0-9.]+" s), sent "[0-9]+" bytes" ]]
	# rank 1 sends at least its 104 outputs (8 bytes each) per Newton step
	sent=$(sed -n 's/.*rank 1 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	[ "$sent" -gt 800 ]
}

@test "mpi train: every rank reads its part of a file: the model of standard input (read by rank 0), byte for byte" {
	# comment lines, CRLF and a last line without newline, cut anywhere
	"$DG" -S 3 -n 301 -l 10 moons raw.libsvm
	awk '{ if (NR % 7 == 0) print "# comment " NR; printf "%s\r\n", $0 }' raw.libsvm > m.libsvm
	printf '0 1:0.1 2:0.2' >> m.libsvm
	"$GB" -q -k 6 m.libsvm m.graph
	for P in 2 3 4; do
		mtrain "$P" -q -s lapsvm -M newton -N 40 -G m.graph m.libsvm "f$P.model"
		mtrain "$P" -q -s lapsvm -M newton -N 40 -G m.graph - "s$P.model" < m.libsvm
		cmp "f$P.model" "s$P.model" || { echo "P = $P: parts and stdin differ"; return 1; }
		mtrain "$P" -q -s laprls -M pcg -G m.graph m.libsvm "g$P.model"
		mtrain "$P" -q -s laprls -M pcg -G m.graph - "t$P.model" < m.libsvm
		cmp "g$P.model" "t$P.model" || { echo "P = $P: PCG parts and stdin differ"; return 1; }
	done
	# and the serial model (PCG: byte for byte)
	"$TRAIN" -q -s laprls -M pcg -G m.graph m.libsvm serial.model
	cmp serial.model g3.model
}

@test "mpi train: reading by parts, rank 0 does not send every row to every rank" {
	moons m.libsvm -S 3 -n 400
	run --separate-stderr mtrain 2 -M newton -N 20 m.libsvm file.model
	assert_status 0
	parts=$(sed -n 's/.*rank 0 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	run --separate-stderr mtrain 2 -M newton -N 20 - stdin.model < m.libsvm
	assert_status 0
	cmp file.model stdin.model
	bcast=$(sed -n 's/.*rank 0 of 2: .*, sent \([0-9]*\) bytes/\1/p' <<< "$stderr")
	# a row is 40 bytes (2 features of 4 + 8, a label and a length or
	# offset of 8): the broadcast sends all 400 (16000 bytes), the parts
	# rank 0's 200 (8000); the rest (the graph built in, the training) is
	# the same in both runs
	[ "$parts" -gt 0 ] && [ $((bcast - parts)) -ge 6000 ] ||
		{ echo "rank 0 sent $parts bytes reading by parts, $bcast from stdin"; return 1; }
}

@test "mpi train fault: no labeled row, one class, a graph file as data, read by parts: one process's message, once" {
	moons m.libsvm -S 3
	awk '{ $1 = 0; print }' m.libsvm > none.libsvm
	run --separate-stderr mtrain 3 -M newton -N 20 none.libsvm m.model
	one_message 1 "lapsvm-train: none.libsvm: no labeled rows" m.libsvm none.libsvm
	awk '{ if ($1 != 0) $1 = 1; print }' m.libsvm > one.libsvm
	run --separate-stderr mtrain 3 -M newton -N 20 one.libsvm m.model
	one_message 1 "lapsvm-train: one.libsvm: the labeled rows have only one class (1)" m.libsvm none.libsvm one.libsvm
	"$GB" -q -k 6 m.libsvm g.graph
	run --separate-stderr mtrain 2 -M newton -N 20 g.graph m.model
	one_message 1 "lapsvm-train: g.graph: this looks like a graph file, not data" m.libsvm none.libsvm one.libsvm g.graph g.graph.knn
}

@test "mpi train fault: a malformed line in the rows of rank 2: file:line, exit 1, no stray file" {
	moons m.libsvm -S 3
	# 200 rows on 3 ranks: rank 2 trains on rows 129..200
	sed -i '180s/.*/1 1:0.5 2:oops/' m.libsvm
	run --separate-stderr mtrain 3 -M newton -N 20 m.libsvm m.model
	one_message 1 "lapsvm-train: m.libsvm:180:" m.libsvm
}

@test "mpi train fault: a missing data file, a bad graph: exit 1, one message" {
	run --separate-stderr mtrain 3 -M newton -N 20 nothere.libsvm out.model
	one_message 1 "nothere.libsvm"
	moons m.libsvm -S 3
	echo '1 2:x' > bad.graph
	run --separate-stderr mtrain 2 -M newton -N 20 -G bad.graph m.libsvm m.model
	one_message 1 "lapsvm-train: bad.graph:1:" m.libsvm bad.graph
}

@test "mpi train fault: an output directory that does not exist: exit 1, one message" {
	moons m.libsvm -S 3
	run --separate-stderr mtrain 4 -M newton -N 20 m.libsvm no/such/dir/m.model
	one_message 1 "no/such/dir/m.model" m.libsvm
	run --separate-stderr mtrain 2 -M newton -N 20 -o no/dir/p.txt m.libsvm m.model
	one_message 1 "no/dir/p.txt" m.libsvm
}

@test "mpi train fault: a kernel value of rank 2's rows overflows under PCG: one message" {
	moons m.libsvm -S 3
	sed -i '180s/.*/1 1:1e100 2:1/' m.libsvm
	run --separate-stderr mtrain 3 -q -s laprls -M pcg -t 1 -g 1 -k 3 m.libsvm m.model
	one_message 1 "lapsvm-train: m.libsvm:180: its kernel value with" m.libsvm
	run --separate-stderr mtrain 3 -q -s lapsvm -M pcg-early -t 1 -g 1 -k 3 m.libsvm m.model
	one_message 1 "lapsvm-train: m.libsvm:180: its kernel value with" m.libsvm
}

@test "mpi train fault: numerical failures end every rank with one message" {
	# the landmarks' kernel matrix is zero (the same on every rank)
	printf '%s\n' '1 1:0' '-1 1:0' '0 1:0' '0 1:0' > z.txt
	run --separate-stderr mtrain 2 -M newton -N 2 -t 0 -I 0 z.txt z.model
	one_message 1 "lapsvm-train: the landmarks' kernel matrix is zero" z.txt
	# a kernel value overflows on row 180, in the rows of rank 2 of 3
	moons m.libsvm -S 3
	sed -i '180s/.*/1 1:1e100 2:1/' m.libsvm
	run --separate-stderr mtrain 3 -M newton -N 20 -t 1 -g 1 -I 0 m.libsvm m.model
	one_message 1 "lapsvm-train: m.libsvm:180: its kernel value with" z.txt m.libsvm
}

@test "mpi train: a method that does not exist is named as such, as on one process (exit 2)" {
	moons m.libsvm -S 3
	run --separate-stderr "$TRAIN" -q -M pcg -N 20 m.libsvm s.model
	assert_status 2
	assert_stderr_has "no training method lapsvm pcg with landmarks (the methods of lapsvm: direct, pcg, pcg-early, newton, newton with landmarks)"
	run --separate-stderr mtrain 2 -q -M pcg -N 20 m.libsvm m.model
	assert_status 2
	assert_stderr_has "no training method lapsvm pcg with landmarks (the methods of lapsvm: direct, pcg, pcg-early, newton, newton with landmarks)"
	[[ "$stderr" != *"not distributed"* ]]
	[ ! -e m.model ]
}

@test "mpi train: the exact solvers, -v, warm starts and combine are refused on P > 1 (exit 2, once)" {
	moons m.libsvm -S 3
	"$TRAIN" -q -M newton -N 20 m.libsvm old.model
	for opts in "-M direct" "-s laprls -M direct" "-M newton" "-s tsvm" \
		    "-s laprls -M newton" \
		    "-M newton -N 20 -v 2 -a 1,2" "-M newton -N 20 -f old.model" \
		    "-M pcg -v 2 -a 1,2"; do
		run --separate-stderr mtrain 2 $opts m.libsvm m.model
		assert_status 2
		assert_stderr_has "is not distributed: on 2 processes train -s laprls or lapsvm by Newton on a feature map (-M newton -N m, or -M newton -t 0) or by PCG on the kernel (-M pcg or pcg-early)"
		[ "$(grep -c 'not distributed' <<< "$stderr")" -eq 1 ]
		[ ! -e m.model ]
	done
	# one rank: the serial code, everything allowed
	run --separate-stderr mtrain 1 -q -M direct m.libsvm m.model
	assert_status 0
	"$TRAIN" -q -M direct m.libsvm s.model
	cmp s.model m.model
}
