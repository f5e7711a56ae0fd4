#!/usr/bin/env bats
# Crash safety of the outputs (README, "Errors and exit status"): a kill -9
# mid-run, a handled signal, a write error, the outputs of one run
# committed together, two writers of one path, and an address-space
# limit.  Outputs are written to ".NAME.tmp." plus six random characters beside
# the destination (common/io.c), fsync'ed and renamed: the file at the
# destination is always the old one or a complete new one.
#
# Tests that must stop a tool with its temporary file complete but not yet
# renamed hold it in fsync() with an LD_PRELOAD shim (fsync-gate.c, built
# here), instead of sleeping and hoping.  Each test takes about a second.

load helpers

setup_file() {
	GATE_SO="$BATS_FILE_TMPDIR/fsync-gate.so"
	export GATE_SO
	"${CC:-cc}" -shared -fPIC -o "$GATE_SO" "$BATS_TEST_DIRNAME/fsync-gate.c" \
		-ldl 2>"$BATS_FILE_TMPDIR/cc.log" || rm -f "$GATE_SO"
}

setup() {
	need_tools "$GB" "$DG" "$TRAIN" "$PRED" "$PCA"
	enter_work
}

PCA="$BIN/lapsvm-pca"

need_gate() {
	[ -f "$GATE_SO" ] || skip "cannot build the fsync shim (no C compiler?)"
}

# gated CMD...: run CMD in the background held in fsync until the file
# "gate" exists; sets PID.  (An ASan build must not insist on coming first.)
# A background job of a script starts with SIGINT ignored, and the tools
# keep an ignored signal ignored: CMD gets the default.  trap - INT does
# that only if this shell did not start with INT ignored (a shell cannot
# reset a signal ignored on entry: bats run as a background job of a
# script), so coreutils' env --default-signal does it where it exists.
gated() {
	local reset=
	env --default-signal=INT true 2>/dev/null && reset="env --default-signal=INT"
	# shellcheck disable=SC2086 # $reset: no word, or the command's words
	(trap - INT
	 LD_PRELOAD="$GATE_SO" LAPSVM_TEST_FSYNC_GATE="$WORK/gate" \
		LAPSVM_TEST_FSYNC_HELD="$BATS_TEST_TMPDIR/held" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		exec $reset "$@") &
	PID=$!
}

# tmp_files DIR: the temporary output files in DIR, one a line.
tmp_files() {
	find "${1:-.}" -maxdepth 1 -name '.*.tmp.*' | sort
}

# wait_held COUNT: wait (at most 60 s) until COUNT gated tools are held in
# fsync, their outputs written.  (A tool opens its temporary files when it
# starts: their existence says nothing.)
wait_held() {
	local i
	for ((i = 0; i < 6000; i++)); do
		[ "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name 'held.*' | wc -l)" \
			-ge "$1" ] && return 0
		sleep 0.01
	done
	echo "no tool was held in fsync"
	return 1
}

# unheld: forget the tools held so far (before gating the next one).
unheld() {
	rm -f "$BATS_TEST_TMPDIR"/held.*
}

# wait_cpu PID TICKS: wait until process PID has used TICKS clock ticks of
# CPU (so it is well into its work); fails if it ends first.
wait_cpu() {
	local i t
	for ((i = 0; i < 6000; i++)); do
		t=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) || {
			echo "process $1 ended before it was killed"
			return 1
		}
		[ "$t" -ge "$2" ] && return 0
		sleep 0.01
	done
	echo "process $1 did not get $2 ticks of CPU"
	return 1
}

# wait_rss PID KB: wait until process PID holds KB of memory.
wait_rss() {
	local i r
	for ((i = 0; i < 6000; i++)); do
		r=$(awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null) || {
			echo "process $1 ended before it was killed"
			return 1
		}
		[ "${r:-0}" -ge "$2" ] && return 0
		sleep 0.01
	done
	echo "process $1 never held $2 KB"
	return 1
}

# reap PID: wait for it; STATUS is its exit status (128 + signal if killed).
reap() {
	STATUS=0
	wait "$1" || STATUS=$?
}

# ------------------------------------------------------------- kill -9

@test "kill -9 during a LapRLS solve: the previous model is byte-identical" {
	[ -d /proc/self ] || skip "needs /proc"
	"$DG" -S 1 -l 5 -n 3000 moons big.txt
	moons small.txt -S 2 -l 2
	"$TRAIN" -q small.txt m.model
	cp m.model old.model
	"$TRAIN" -q -s laprls -M direct big.txt m.model 2>err &
	local pid=$!
	# the 3000 x 3000 matrices (72 MB each) are allocated: mid-solve
	wait_rss $pid 60000 || { kill -9 $pid; return 1; }
	kill -9 $pid
	reap $pid
	[ "$STATUS" -eq 137 ]
	assert_same m.model old.model
	"$PRED" -q small.txt m.model out
}

@test "kill -9 during graph-build's scan: the previous graph is byte-identical" {
	[ -d /proc/self ] || skip "needs /proc"
	"$DG" -S 1 -n 30000 moons big.txt
	moons small.txt -S 2
	"$GB" -q small.txt g.graph
	cp g.graph old.graph
	"$GB" -q big.txt g.graph &
	local pid=$!
	# 0.2 s of CPU: the input is read, the O(n^2) scan has begun
	wait_cpu $pid 20 || { kill -9 $pid; return 1; }
	kill -9 $pid
	reap $pid
	[ "$STATUS" -eq 137 ]
	assert_same g.graph old.graph
}

@test "kill -9 with the complete temporary file written: old file intact, only .NAME.tmp.* left" {
	need_gate
	moons m.txt -S 1 -l 1
	moons small.txt -S 2 -l 1
	"$TRAIN" -q small.txt m.model
	"$GB" -q small.txt m.graph
	cp m.model old.model
	cp m.graph old.graph
	gated "$TRAIN" -q m.txt m.model
	wait_held 1 || { kill -9 $PID; return 1; }
	kill -9 $PID
	reap $PID
	[ "$STATUS" -eq 137 ]
	assert_same m.model old.model
	# kill -9 cannot be caught: its temporary file stays, named after it
	[[ "$(tmp_files)" == ./.m.model.tmp.?????? ]]
	rm -f .m.model.tmp.*
	unheld
	gated "$GB" -q m.txt m.graph
	wait_held 1 || { kill -9 $PID; return 1; }
	kill -9 $PID
	reap $PID
	[ "$STATUS" -eq 137 ]
	assert_same m.graph old.graph
	# the graph's and its record's (m.graph.knn, for graph-build -U)
	local left
	left=$(tmp_files | sort | tr '\n' ' ')
	[[ "$left" == ./.m.graph.knn.tmp.??????\ ./.m.graph.tmp.??????\  ]] ||
		{ echo "left: $left"; return 1; }
}

# ------------------------------------------------------ handled failures

@test "SIGTERM, SIGINT, SIGHUP while writing: temporary file removed, old file intact, killed by the signal" {
	need_gate
	moons m.txt -S 1 -l 1
	"$TRAIN" -q m.txt m.model
	echo old >out
	local sig num t
	for sig in TERM INT HUP; do
		num=$(kill -l $sig)
		for t in train graph predict pca datagen; do
			unheld
			case $t in
			train) gated "$TRAIN" -q m.txt out ;;
			graph) gated "$GB" -q m.txt out ;;
			predict) gated "$PRED" -q m.txt m.model out ;;
			pca) gated "$PCA" -q -k 1 m.txt out ;;
			datagen) gated "$DG" moons out ;;
			esac
			wait_held 1 || { kill -9 $PID; return 1; }
			kill -$sig $PID
			reap $PID
			if [ "$STATUS" -ne $((128 + num)) ]; then
				echo "$t: SIG$sig gave exit status $STATUS"
				return 1
			fi
			[ "$(cat out)" = old ]
			if [ -n "$(tmp_files)" ]; then
				echo "$t: SIG$sig left $(tmp_files)"
				return 1
			fi
		done
	done
}

@test "signals ignored at start stay ignored (nohup, background jobs): HUP and INT do not end the tool" {
	need_gate
	moons m.txt -S 1 -l 1
	"$TRAIN" -q m.txt m.model
	local t
	for t in train graph predict pca datagen; do
		rm -f gate out
		unheld
		case $t in
		train) gated bash -c "trap '' HUP INT; exec \"$TRAIN\" -q m.txt out" ;;
		graph) gated bash -c "trap '' HUP INT; exec \"$GB\" -q m.txt out" ;;
		predict) gated bash -c "trap '' HUP INT; exec \"$PRED\" -q m.txt m.model out" ;;
		pca) gated bash -c "trap '' HUP INT; exec \"$PCA\" -q -k 1 m.txt out" ;;
		datagen) gated bash -c "trap '' HUP INT; exec \"$DG\" moons out" ;;
		esac
		wait_held 1 || { kill -9 $PID; return 1; }
		kill -HUP $PID
		kill -INT $PID
		sleep 0.1
		touch gate
		reap $PID
		if [ "$STATUS" -ne 0 ]; then
			echo "$t: with HUP and INT ignored, exit status $STATUS"
			return 1
		fi
		[ -s out ]
		[ -z "$(tmp_files)" ]
	done
}

@test "a write error on standard output (>/dev/full): exit 1, 'standard output: write error'" {
	[ -w /dev/full ] || skip "/dev/full not available"
	"$DG" -S 1 -l 2 -n 200 moons m.txt
	"$TRAIN" -q m.txt m.model
	local t
	# results on stdout: predict's Accuracy lines, train -v's table, -h
	for t in "$PRED m.txt m.model p.txt" "$TRAIN -v 2 -c 1,10 m.txt" \
		"$TRAIN -h" "$GB -h" "$PRED -h" "$PCA -h" "$DG -h"; do
		run --separate-stderr bash -c "exec $t >/dev/full"
		if [ "$status" -ne 1 ]; then
			echo "$t >/dev/full: exit status $status"
			return 1
		fi
		assert_stderr_regex "^[a-z-]+: standard output: write error"
	done
	# predict's report is checked before its output is replaced (it
	# replaced the file, then failed on the report)
	echo old >p.txt
	run --separate-stderr bash -c "exec '$PRED' m.txt m.model p.txt >/dev/full"
	assert_fails lapsvm-predict "standard output: write error"
	[ "$(cat p.txt)" = old ]
	[ -z "$(tmp_files)" ]
}

@test "bad input found after many good rows: exit 1, no temporary file, old outputs intact" {
	"$DG" -S 1 -l 3 -n 5000 moons m.txt
	{ cat m.txt; echo '1 1:0.5 2:oops'; } >bad.txt
	"$DG" -S 2 -l 1 moons small.txt
	"$TRAIN" -q small.txt bad.txt.model
	"$GB" -q small.txt bad.txt.graph
	cp bad.txt.model old.model
	cp bad.txt.graph old.graph
	run --separate-stderr "$TRAIN" -q bad.txt
	assert_status 1
	assert_stderr_has "bad.txt:5001: bad value for feature 2"
	run --separate-stderr "$GB" -q bad.txt
	assert_status 1
	assert_stderr_has "bad.txt:5001: bad value for feature 2"
	# a graph found wrong at its last line
	"$GB" -q m.txt m.graph
	sed '$ s/:[0-9.e-]*$/:-1/' m.graph >badg.graph
	run --separate-stderr "$TRAIN" -q -G badg.graph m.txt bad.txt.model
	assert_status 1
	assert_stderr_has "badg.graph:5000: weight -1"
	assert_same bad.txt.model old.model
	assert_same bad.txt.graph old.graph
	[ -z "$(tmp_files)" ]
}

@test "a write error (ulimit -f): exit 1 with a message, no temporary file, old file intact" {
	"$DG" -S 1 -l 2 -n 1000 moons m.txt
	"$TRAIN" -q m.txt m.model
	echo old >out
	local t
	for t in "$TRAIN -q m.txt out" "$GB -q m.txt out" "$PRED -q -d m.txt m.model out" \
		"$PCA -q -k 2 m.txt out" "$DG moons out"; do
		# 4 KiB: each output here is larger
		run --separate-stderr bash -c "ulimit -f 4; exec $t"
		assert_status 1
		assert_stderr_regex "^lapsvm-[a-z]+: out: write error: File too large|^graph-build: out: write error: File too large"
		[ "$(cat out)" = old ]
		[ -z "$(tmp_files)" ]
	done
}

# ------------------------------------------ the outputs of a run together
# Every destination is opened before the work, and none is replaced until
# all are complete (tool.c, tool_outputs_commit).

@test "lapsvm-train: a model path that cannot be written fails before training, -o's old file unchanged" {
	moons m.txt -S 1 -l 1
	echo old >p.txt
	cp p.txt old.txt
	mkdir d
	local model
	for model in d nodir/m.model; do
		# not quiet: the error must be the only line, before any summary
		run --separate-stderr "$TRAIN" -o p.txt m.txt "$model"
		assert_fails lapsvm-train "$model"
		assert_same p.txt old.txt
		[ -z "$(tmp_files)" ]
	done
	# -o unwritable: the model is neither trained nor replaced
	"$TRAIN" -q m.txt m.model
	cp m.model old.model
	run --separate-stderr "$TRAIN" -o d m.txt m.model
	assert_fails lapsvm-train "d: is a directory"
	assert_same m.model old.model
	[ -z "$(tmp_files)" ]
}

@test "lapsvm-pca: a later output that cannot be written fails before any is replaced" {
	"$DG" -S 1 -n 50 moons a.txt
	"$DG" -S 2 -n 50 moons b.txt
	echo old >a.pca
	mkdir d
	local out
	for out in d nodir/b.pca; do
		run --separate-stderr "$PCA" -k 1 a.txt a.pca b.txt "$out"
		assert_fails lapsvm-pca "$out"
		[ "$(cat a.pca)" = old ]
		[ -z "$(tmp_files)" ]
	done
}

@test "a write error in one output (ulimit -f) leaves every other output of the run unchanged" {
	# lapsvm-pca: the first output is small, the second over the limit
	"$DG" -S 1 -n 20 moons small.txt
	"$DG" -S 2 -n 1000 moons big.txt
	echo old >a.pca
	echo old >b.pca
	run --separate-stderr bash -c "ulimit -f 4; exec '$PCA' -q -k 2 small.txt a.pca big.txt b.pca"
	assert_fails lapsvm-pca "b.pca: write error: File too large"
	[ "$(cat a.pca)" = old ]
	[ "$(cat b.pca)" = old ]
	# lapsvm-train: 10 unlabeled rows (-o is small), a model of 1000 rows
	"$DG" -S 1 -n 1000 -l 495 moons m.txt
	echo old >p.txt
	echo old >m.model
	run --separate-stderr bash -c "ulimit -f 4; exec '$TRAIN' -q -o p.txt m.txt m.model"
	assert_fails lapsvm-train "m.model: write error: File too large"
	[ "$(cat p.txt)" = old ]
	[ "$(cat m.model)" = old ]
	[ -z "$(tmp_files)" ]
	# an error found only when the outputs are completed (-o's 10 lines
	# sit in its buffer until then): the model is not replaced either
	if [ -w /dev/full ]; then
		run --separate-stderr "$TRAIN" -q -o /dev/full m.txt m.model
		assert_fails lapsvm-train "/dev/full: write error: No space left on device (no output file replaced)"
		[ "$(cat m.model)" = old ]
		[ -z "$(tmp_files)" ]
	fi
}

@test "two outputs of one run naming the same file: a usage error, nothing written" {
	moons m.txt -S 1 -l 1
	"$DG" -S 2 -n 50 moons b.txt
	ln -s p.txt link
	mkdir d
	local args
	# the same name, a link to it, another path to it ('./', 'd/..')
	for args in "-o p.txt m.txt p.txt" "-o link m.txt p.txt" \
		"-o ./p.txt m.txt p.txt" "-o d/../p.txt m.txt p.txt"; do
		run --separate-stderr "$TRAIN" $args
		assert_usage_error "" lapsvm-train
		assert_stderr_regex "^lapsvm-train: .*p\.txt.* each output of a run needs its own"
		[ ! -e p.txt ]
		[ -z "$(tmp_files)" ]
	done
	# an existing file too
	echo old >p.txt
	run --separate-stderr "$TRAIN" -o link m.txt p.txt
	assert_usage_error "'p.txt' and 'link' are the same file" lapsvm-train
	[ "$(cat p.txt)" = old ]
	run --separate-stderr "$PCA" -k 1 m.txt a.pca b.txt a.pca
	assert_usage_error "'a.pca' is named for two outputs" lapsvm-pca
	run --separate-stderr "$PCA" -k 1 m.txt - b.txt -
	assert_usage_error "standard output ('-') is named for two outputs" lapsvm-pca
	[ ! -e a.pca ]
	[ -z "$(tmp_files)" ]
	# written into, never renamed over: /dev/null twice is fine
	run --separate-stderr "$PCA" -q -k 1 m.txt /dev/null b.txt /dev/null
	assert_status 0
}

@test "every tool checks its destination before reading its input: a bad output path is the error reported" {
	printf '1 1:0 2:oops\n' >bad.txt
	moons m.txt -S 1 -l 1
	"$TRAIN" -q m.txt m.model
	mkdir d
	# the input is bad too (or missing): the output is the one named
	run --separate-stderr "$PRED" bad.txt m.model d
	assert_fails lapsvm-predict "d: is a directory"
	run --separate-stderr "$PRED" m.txt missing.model d
	assert_fails lapsvm-predict "d: is a directory"
	run --separate-stderr "$GB" bad.txt d
	assert_fails graph-build "d: is a directory"
	run --separate-stderr "$GB" -N bad.txt nodir/l.txt
	assert_fails graph-build "nodir/l.txt: cannot create a file beside it"
	run --separate-stderr "$TRAIN" bad.txt d
	assert_fails lapsvm-train "d: is a directory"
	run --separate-stderr "$PCA" bad.txt d
	assert_fails lapsvm-pca "d: is a directory"
	[ -z "$(tmp_files)" ]
}

# A link is followed and the file it leads to replaced, the link kept.
# When that fails, the message named the target alone (/nonexistent/dir/x),
# a path the user never typed.
@test "an output that is a dangling link: the error names the path given and its target; into an existing directory it is written" {
	moons m.txt -S 1 -l 1
	"$TRAIN" -q m.txt m.model
	"$GB" -q m.txt m.graph
	ln -s /nonexistent/dir/x out
	mkdir d e
	ln -s e dl
	local tool
	for tool in "$TRAIN m.txt" "$GB -q m.txt" "$PRED m.txt m.model"; do
		run --separate-stderr $tool out
		assert_fails "$(basename "${tool%% *}")" \
			"out (a link to /nonexistent/dir/x): cannot create a file beside it: No such file or directory"
		[ "$(readlink out)" = /nonexistent/dir/x ]
		run --separate-stderr $tool dl
		assert_fails "$(basename "${tool%% *}")" "dl (a link to e): is a directory"
		[ -z "$(ls e)" ]
	done
	[ -z "$(tmp_files)" ]
	# a dangling link into an existing directory: the target is written
	ln -s d/m.model m2
	ln -s d/g g2
	ln -s d/p p2
	run --separate-stderr "$TRAIN" -q m.txt m2
	assert_status 0
	run --separate-stderr "$GB" -q m.txt g2
	assert_status 0
	run --separate-stderr "$PRED" m.txt m2 p2
	assert_status 0
	[ -L m2 ] && [ -L g2 ] && [ -L p2 ]
	[ "$(head -n 1 d/m.model)" = "lapsvm_model 1" ]
	cmp d/g m.graph
	[ "$(wc -l <d/p)" -eq 200 ]
	assert_no_tmp_files d
}

@test "a signal while two outputs are complete and pending removes both temporary files" {
	need_gate
	moons m.txt -S 1 -l 1
	"$DG" -S 2 -n 50 moons b.txt
	echo old >p.txt
	echo old >m.model
	echo old >a.pca
	echo old >b.pca
	local t
	for t in train pca; do
		unheld
		case $t in
		train) gated "$TRAIN" -q -o p.txt m.txt m.model ;;
		pca) gated "$PCA" -q -k 1 m.txt a.pca b.txt b.pca ;;
		esac
		wait_held 1 || { kill -9 $PID; return 1; }
		# held at the first fsync, both outputs written: none renamed yet
		if [ "$(tmp_files | wc -l)" -ne 2 ]; then
			echo "$t: held with temporary files: $(tmp_files)"
			kill -9 $PID
			return 1
		fi
		kill -TERM $PID
		reap $PID
		[ "$STATUS" -eq 143 ]
		[ -z "$(tmp_files)" ]
	done
	[ "$(cat p.txt)" = old ]
	[ "$(cat m.model)" = old ]
	[ "$(cat a.pca)" = old ]
	[ "$(cat b.pca)" = old ]
}

@test "a rename failing after others succeeded (a directory removed meanwhile) names what was replaced and what not" {
	need_gate
	"$DG" -S 1 -n 50 moons a.txt
	mkdir d1 d2 d3
	echo old >d1/a.pca
	echo old >d3/c.pca
	gated "$PCA" -q -k 1 a.txt d1/a.pca a.txt d2/b.pca a.txt d3/c.pca 2>err
	# held before any rename: d2 and the complete temporary file in it go
	wait_held 1 || { kill -9 $PID; return 1; }
	rm -rf d2
	touch gate
	reap $PID
	[ "$STATUS" -eq 1 ]
	stderr=$(cat err)
	[ "$stderr" = "lapsvm-pca: d2/b.pca: cannot rename the new file into place: No such file or directory (file not changed); replaced: d1/a.pca; not replaced: d3/c.pca" ]
	[ "$(cat d1/a.pca)" != old ]
	[ "$(cat d3/c.pca)" = old ]
	[ -z "$(tmp_files d1)" ]
	[ -z "$(tmp_files d3)" ]
}

@test "a failed rename's message quotes the output names it lists (control bytes in them)" {
	need_gate
	"$DG" -S 1 -n 50 moons a.txt
	local d1=$'r\e[1m' d3=$'n\e[2J'
	mkdir "$d1" d2 "$d3"
	gated "$PCA" -q -k 1 a.txt "$d1/a.pca" a.txt d2/b.pca a.txt "$d3/c.pca" 2>err
	wait_held 1 || { kill -9 $PID; return 1; }
	rm -rf d2
	touch gate
	reap $PID
	[ "$STATUS" -eq 1 ]
	stderr=$(cat err)
	[ "$stderr" = 'lapsvm-pca: d2/b.pca: cannot rename the new file into place: No such file or directory (file not changed); replaced: r\x1b[1m/a.pca; not replaced: n\x1b[2J/c.pca' ]
	assert_stderr_safe
}

# --------------------------------------------------------- two writers

@test "two lapsvm-train writing one model at once: one complete model, no temporary files" {
	need_gate
	moons m.txt -S 1 -l 2
	"$TRAIN" -q -s lapsvm m.txt svm.model
	"$TRAIN" -q -s laprls m.txt rls.model
	# both hold complete temporary files, then rename at the same moment
	gated "$TRAIN" -q -s lapsvm m.txt m.model
	local a=$PID
	gated "$TRAIN" -q -s laprls m.txt m.model
	local b=$PID
	wait_held 2 || { kill -9 $a $b; return 1; }
	touch gate
	reap $a
	[ "$STATUS" -eq 0 ]
	reap $b
	[ "$STATUS" -eq 0 ]
	cmp -s m.model svm.model || cmp -s m.model rls.model
	[ -z "$(tmp_files)" ]
	run --separate-stderr "$PRED" m.txt m.model out
	assert_status 0
	[[ "${lines[0]}" == "Accuracy = "* ]]
	# and without the gate, racing freely
	rm -f gate m.model
	"$TRAIN" -q -s lapsvm m.txt m.model &
	a=$!
	"$TRAIN" -q -s laprls m.txt m.model &
	b=$!
	reap $a
	[ "$STATUS" -eq 0 ]
	reap $b
	[ "$STATUS" -eq 0 ]
	cmp -s m.model svm.model || cmp -s m.model rls.model
	[ -z "$(tmp_files)" ]
}

# ---------------------------------------------------- address-space limit

@test "under ulimit -v every tool fails with a message and exit 1, never a signal" {
	# Each job below needs more memory than the smallest limit: a tool
	# refuses at start (no room for its threads and OpenBLAS's buffers) or
	# when its arrays do not fit; under the larger limits it may succeed.
	# Below about 60 MB OpenBLAS cannot even start (exit 127 or 130,
	# before the program runs), so the limits stop there.
	if ldd "$TRAIN" 2>/dev/null | grep -q libasan; then
		skip "an ASan build maps terabytes of shadow memory: ulimit -v stops it at start"
	fi
	"$DG" -S 1 -l 5 -n 5000 moons big.txt
	# 5000 features and more rows than features (fewer take the small
	# Gram route): PCA's covariance is 200 MB
	awk 'BEGIN { for (i = 1; i <= 5001; i++)
		printf "%d %d:1 5000:%g\n", i % 2 ? 1 : -1, (i - 1) % 4999 + 1,
			i / 10 }' >wide.txt
	# 20000 expansion points: prediction blocks of 838 x 20000 (134 MB)
	awk 'BEGIN { print "lapsvm_model 1\nsolver lapsvm\nkernel linear\n" \
		"degree 3\ngamma 1\ncoef0 0\ngamma_A 0.001\ngamma_I 0\n" \
		"laplacian normalized\nlaplacian_power 1\neps 0.001\nmax_iter 0\n" \
		"l 2\nu 0\nunlabeled_marker 0\nnr_class 2\nlabels 1 -1\nnr_fn 1\n" \
		"bias 0\nnr_sv 20000\nSV"
		for (i = 1; i <= 20000; i++)
			printf "%g 1:%g 2:%g\n", i % 2 ? 1e-4 : -1e-4, i / 20000, 1 - i / 20000 }' >wide.model
	local v t jobs=(
		"$GB -q -B 5000 big.txt out"
		"$TRAIN -q -s laprls -M direct big.txt out"
		"$TRAIN -q -s lapsvm big.txt out"
		"$PRED -q big.txt wide.model out"
		"$PCA -q -k 2 wide.txt out"
		"$DG -n 100000000 moons out")
	for v in 200000 100000 70000; do
		for t in "${jobs[@]}"; do
			rm -f out
			run --separate-stderr timeout 120 bash -c "ulimit -v $v; exec $t"
			if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
				echo "ulimit -v $v: '$t' ended with status $status"
				echo "stderr: $stderr"
				return 1
			fi
			if [ "$status" -eq 1 ]; then
				assert_stderr_regex "^(graph-build|lapsvm-[a-z]+): "
				[ ! -e out ]
			fi
			# the smallest limit is too small for every one of them
			if [ "$v" -eq 70000 ] && [ "$status" -ne 1 ]; then
				echo "ulimit -v $v: '$t' did not fail (status $status)"
				return 1
			fi
			[ -z "$(tmp_files)" ]
		done
	done
}

# blas_dir NAME: the directory of the BLAS/LAPACK to run the tools with
# (LD_LIBRARY_PATH), "" for the system's choice; fails if absent.
blas_dir() {
	local d
	case "$1" in
	system) echo ""; return 0 ;;
	openblas)
		for d in /usr/lib/*-linux-gnu/openblas-pthread /usr/lib/*-linux-gnu/openblas-openmp; do
			[ -f "$d/libblas.so.3" ] && { echo "$d"; return 0; }
		done ;;
	reference)
		for d in /usr/lib/*-linux-gnu/blas; do
			[ -f "$d/libblas.so.3" ] && { echo "$d:${d%/blas}/lapack"; return 0; }
		done ;;
	esac
	return 1
}

@test "under ulimit -v the threads start up front: a limit hit later is our message, never libgomp's, under both BLAS libraries" {
	# The OpenMP thread pool is created at start (tool.c), where the
	# room for it was checked.  When it was created only at the first
	# parallel region instead, the limits around 36 MB made lapsvm-train
	# die there with "libgomp: Thread creation failed", unprefixed.
	if ldd "$TRAIN" 2>/dev/null | grep -q libasan; then
		skip "an ASan build maps terabytes of shadow memory: ulimit -v stops it at start"
	fi
	"$DG" -S 1 -l 5 -n 5000 moons big.txt
	local lib dir v t line tried=0 jobs=(
		"$TRAIN -q -s laprls -M direct big.txt out"
		"$TRAIN -q -s lapsvm -M newton -N 200 big.txt out"
		"$GB -q big.txt out")
	for lib in reference openblas; do
		if ! dir=$(blas_dir $lib); then
			echo "# $lib BLAS not installed: not tried" >&3
			continue
		fi
		tried=$((tried + 1))
		for v in $(seq 24000 3000 72000); do
			for t in "${jobs[@]}"; do
				rm -f out
				# not run: its 127 warning is the point here
				status=0
				stderr=$(env OMP_NUM_THREADS=2 LD_LIBRARY_PATH="$dir" \
					timeout 60 bash -c "ulimit -v $v; exec $t" \
					2>&1 >/dev/null) || status=$?
				# Before main nothing of ours runs: the loader cannot map
				# a library (127), or OpenBLAS cannot start its threads
				# in its constructor (130, its own message).
				if [ "$status" -eq 127 ]; then
					assert_stderr_regex "error while loading shared libraries"
					continue
				fi
				if [ "$status" -eq 130 ] && [ $lib = openblas ]; then
					assert_stderr_regex "^OpenBLAS blas_thread_init"
					continue
				fi
				if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
					echo "$lib, ulimit -v $v: '$t' ended with status $status: $stderr"
					return 1
				fi
				while IFS= read -r line; do
					case "$line" in
					"" | lapsvm-train:* | graph-build:*) ;;
					*) echo "$lib, ulimit -v $v: '$t': a line not ours: $line"
					   return 1 ;;
					esac
				done <<<"$stderr"
				[ -z "$(tmp_files)" ]
			done
		done
	done
	[ $tried -gt 0 ]
}
