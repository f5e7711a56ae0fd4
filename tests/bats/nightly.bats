#!/usr/bin/env bats
# tools/lapsvm-nightly: the nightly retraining script.  A night is all or
# nothing: the new generation (data, graph, model) goes live by one rename
# only when its model is no worse on the holdout; a rejected or failed night,
# a killed run or a run that finds the lock taken changes nothing live.
# Exit codes: 0 accepted, 1 failed, 2 usage, 3 rejected, 4 locked.
# Small data: 400 two-moons points (6 labels per class), the classes
# interleaved row by row, in chunks of 100; a 200-point labeled holdout.

load helpers

NIGHTLY="$BATS_TEST_DIRNAME/../../tools/lapsvm-nightly"

setup() {
	need_tools "$GB" "$TRAIN" "$PRED" "$DG"
	command -v flock >/dev/null || skip "flock(1) not installed"
	enter_work
	export LAPSVM_BIN="$BIN"
	"$DG" -n 400 -S 2 -l 6 moons |
		awk 'NR <= 200 { a[NR] = $0; next } { print a[NR - 200]; print }' >all.txt
	"$DG" -n 200 -S 9 moons hold.txt
	sed -n 1,100p all.txt >day0.txt
	sed -n 101,200p all.txt >day1.txt
	sed -n 201,300p all.txt >day2.txt
}

# init_state: state st from day0.txt, PCG (warm-startable), fixed gamma
init_state() {
	"$NIGHTLY" init -T "-M pcg -g 2" st day0.txt hold.txt 2>/dev/null
}

# live: the live generation and its model's checksum
live() {
	echo "$(readlink st/current) $(cksum <st/current/model)"
}

# slow_bin SECONDS: a LAPSVM_BIN whose lapsvm-train first writes
# train.started and sleeps, so that a run can be caught mid-way
slow_bin() {
	mkdir -p slow
	ln -sf "$BIN/graph-build" "$BIN/lapsvm-predict" slow/
	cat >slow/lapsvm-train <<EOF
#!/bin/sh
touch "$WORK/train.started"
sleep $1
exec "$BIN/lapsvm-train" "\$@"
EOF
	chmod +x slow/lapsvm-train
}

wait_for() {  # wait_for FILE: up to 20 s
	local i
	for i in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "timed out waiting for $1"
	return 1
}

@test "init: generation 1 live, gamma pinned in the config, an empty log" {
	run --separate-stderr "$NIGHTLY" init -T "-M pcg" st day0.txt hold.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/1 ]
	grep -Eq '^train_options=-M pcg -g [0-9.e+-]+$' st/config
	grep -q '^dim=2$' st/config
	[ -s st/gen/1/graph ] && [ -s st/gen/1/graph.knn ] && [ -s st/gen/1/model ]
	[ ! -s st/log ]
	run --separate-stderr "$NIGHTLY" init st day0.txt hold.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: st: already a state directory"
}

@test "a good night goes live: new generation, previous kept, one log line" {
	init_state
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/2 ]
	[ "$(readlink st/previous)" = gen/1 ]
	[ "$(wc -l <st/current/data)" -eq 200 ]
	[ "$(wc -l <st/log)" -eq 1 ]
	grep -Eq 'generation 2: 200 rows \(\+100\), graph update .*train warm PCG: [0-9]+ iterations .*holdout new [0-9]+/200 old [0-9]+/200 -> accepted$' st/log
	"$PRED" hold.txt st/current/model out.txt
	# the warm-started model is the cold start's
	"$TRAIN" -q -M pcg -g "$(key st/gen/1/model gamma)" -G st/current/graph st/current/data cold.model
	"$PRED" hold.txt cold.model cold.txt
	assert_same out.txt cold.txt
	# the next night: generation 1 deleted, 2 the previous
	run --separate-stderr "$NIGHTLY" run st day2.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/3 ] && [ "$(readlink st/previous)" = gen/2 ]
	[ ! -e st/gen/1 ]
}

# Nystrom: a warm start keeps the model's landmarks, so -N is pinned to the
# model's count, min(N, rows): -N 500 on 100 rows trains on 100 landmarks
@test "Nystrom (-M newton -N): -N pinned to the model's landmarks, the next night warm" {
	"$NIGHTLY" init -T "-M newton -N 500 -g 2" st day0.txt hold.txt 2>/dev/null
	grep -q '^train_options=-M newton -g 2 -N 100$' st/config
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 0
	grep -Eq 'generation 2: 200 rows \(\+100\), graph update .*train warm Newton: [0-9]+ steps .* -> accepted$' st/log
	# the new model's expansion points are the first night's landmarks
	diff <(sed '1,/^SV$/d' st/gen/1/model | cut -d' ' -f2-) \
		<(sed '1,/^SV$/d' st/current/model | cut -d' ' -f2-)
}

@test "-R (full rebuild) gives the graph the update gives" {
	init_state
	cp -r st st2
	"$NIGHTLY" run st day1.txt
	"$NIGHTLY" run -R st2 day1.txt
	assert_same st/current/graph st2/current/graph
	grep -q 'graph full' st2/log
}

@test "a worse model (corrupted labels) is rejected: live model untouched, exit 3" {
	init_state
	before=$(live)
	# every row of the night labeled, and labeled wrong
	awk '{ $1 = ($2 ~ /^1:/ && NR % 2 == 1) ? -1 : 1; print }' day1.txt >bad.txt
	run --separate-stderr "$NIGHTLY" run st bad.txt
	assert_status 3
	assert_stderr_has "new model worse on the holdout"
	[ "$(live)" = "$before" ]
	grep -q 'REJECTED (worse), live model unchanged$' st/log
	ls st/rejected/bad.txt.*
	[ ! -e st/gen/2 ]
	# the next night goes on from the last accepted one
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 0
	[ "$(wc -l <st/current/data)" -eq 200 ]
}

@test "a run killed mid-way (SIGKILL) leaves the live model; the next night recovers" {
	init_state
	before=$(live)
	slow_bin 30
	LAPSVM_BIN=$WORK/slow setsid "$NIGHTLY" run st day1.txt 2>/dev/null &
	pid=$!
	wait_for train.started
	kill -KILL -- -"$pid"
	wait "$pid" || true
	[ "$(live)" = "$before" ]
	ls -d st/work.*  # its scratch is left behind ...
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/2 ]
	! ls -d st/work.* 2>/dev/null  # ... and removed by the next run
}

@test "two overlapping runs: the second does not proceed (exit 4), the first completes" {
	init_state
	slow_bin 3
	LAPSVM_BIN=$WORK/slow "$NIGHTLY" run st day1.txt 2>/dev/null &
	pid=$!
	wait_for train.started
	run --separate-stderr "$NIGHTLY" run st day2.txt
	assert_status 4
	assert_stderr_has "lapsvm-nightly: st: another run holds the lock; not started"
	wait "$pid"
	[ "$(readlink st/current)" = gen/2 ]
	[ "$(wc -l <st/current/data)" -eq 200 ]  # day2 never appended
	grep -q 'SKIPPED: another run holds the lock' st/log
}

# failed NEW MESSAGE: the night fails with status 1 and MESSAGE, nothing live
# changes, the log says FAILED
failed() {
	before=$(live)
	run --separate-stderr "$NIGHTLY" run st "$1"
	assert_status 1
	assert_stderr_has "$2"
	[ "$(live)" = "$before" ]
	[ ! -e st/gen/2 ]
	grep -q "FAILED: " st/log
}

@test "a new file with more features than yesterday's is an error; nothing replaced" {
	init_state
	sed 's/$/ 3:0.5/' day1.txt >wide.txt
	failed wide.txt "lapsvm-nightly: wide.txt: features up to 3, yesterday's data up to 2: not the same feature space"
}

# the message was lapsvm-train's alone: every later night failed the
# same way, and nothing said that only a new state gets out of it
@test "a new file with a new class is an error that says a new state is needed; nothing replaced" {
	init_state
	sed '1s/^[-0-9]* /2 /' day1.txt >newclass.txt
	failed newclass.txt "lapsvm-nightly: lapsvm-train: the starting model's classes (1 -1) are not these data's (1 -1 2) in the same order; a class new to the data cannot be warm-started (nor can any later night's): make a new state with lapsvm-nightly init from st/current/data and this file's rows"
	[ -n "$(ls st/rejected)" ]
}

@test "an empty new file is an error; nothing replaced" {
	init_state
	: >empty.txt
	failed empty.txt "lapsvm-nightly: empty.txt: no data rows (empty new file)"
}

@test "a live model trained on other data is an error; nothing replaced" {
	init_state
	"$DG" -n 100 -S 5 -l 3 moons other.txt
	"$TRAIN" -q -M pcg -g "$(key st/gen/1/model gamma)" other.txt st/gen/1/model
	failed day1.txt "lapsvm-nightly: lapsvm-train: the starting model's expansion point 1 of"
}

@test "a state whose graph record does not match the data is an error; nothing replaced" {
	init_state
	"$GB" -q -k 4 st/gen/1/data st/gen/1/graph
	failed day1.txt "lapsvm-nightly: graph-build: "
}

@test "usage errors exit 2; a directory that is no state is an error" {
	run --separate-stderr "$NIGHTLY"
	assert_status 2
	run --separate-stderr "$NIGHTLY" run st
	assert_status 2
	run --separate-stderr "$NIGHTLY" run nowhere day1.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: nowhere: not a state directory (run 'lapsvm-nightly init')"
}

@test "-h, --help, init -h and run -h print the help on stdout and exit 0, as the tools' -h; nothing is made" {
	for args in -h --help "init -h" "run -h"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$NIGHTLY" $args
		assert_status 0
		[[ "$output" == *"usage: lapsvm-nightly init"* ]]
		[[ "$output" == *"Exit status: 0 accepted"* ]]
		assert_stderr_empty
	done
	[ ! -e st ]
}

@test "a new file without a final newline: accepted, and the next night's rows do not join its last row" {
	init_state
	printf '%s' "$(cat day1.txt)" >day1-nonl.txt
	run --separate-stderr "$NIGHTLY" run st day1-nonl.txt
	assert_status 0
	run --separate-stderr "$NIGHTLY" run st day2.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/3 ]
	[ "$(wc -l <st/current/data)" -eq 300 ]
	cmp st/current/data <(sed -n 1,300p all.txt)
}

@test "file names read as files: name=value (not an awk assignment) and a leading -" {
	init_state
	cp day1.txt 'day=1.txt'
	cp day2.txt ./-day2.txt
	run --separate-stderr "$NIGHTLY" run st 'day=1.txt' </dev/null
	assert_status 0
	run --separate-stderr "$NIGHTLY" run st -day2.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/3 ]
	[ "$(wc -l <st/current/data)" -eq 300 ]
}

@test "a run killed after switching current: the next run points previous at the generation before and deletes the rest" {
	init_state
	"$NIGHTLY" run st day1.txt 2>/dev/null
	# as if killed between the switch of current and that of previous
	# (gen/3 live, previous still gen/1) and a stray half-made generation
	cp -r st/gen/2 st/gen/3
	ln -sfn gen/3 st/current
	mkdir st/gen/9
	cp -r st/gen/2 st/gen/1
	ln -sfn gen/1 st/previous
	run --separate-stderr "$NIGHTLY" run st day2.txt
	[ "$(readlink st/current)" = gen/4 ] && [ "$(readlink st/previous)" = gen/3 ]
	[ "$(ls st/gen | tr '\n' ' ')" = "3 4 " ]
}

# Killed after the switch, a run leaves its night live without a log line;
# fed again, the same file would append its rows a second time.
@test "a night live without its log line: the next run writes it, and the same file again is refused" {
	init_state
	"$NIGHTLY" run st day1.txt 2>/dev/null
	: >st/log  # as if killed between the switch and the log line
	cp day1.txt again.txt
	run --separate-stderr "$NIGHTLY" run st again.txt
	assert_fails lapsvm-nightly "again.txt: the same bytes as the new rows of generation 2, the live one: applied already (not appended twice)"
	[ "$(readlink st/current)" = gen/2 ] && [ "$(wc -l <st/current/data)" -eq 200 ]
	grep -q 'generation 2: live, its run killed before its log line' st/log
	grep -q 'FAILED: again.txt: the same bytes' st/log
	[ ! -e st/rejected ]
	# the next night's own rows go on from generation 2
	run --separate-stderr "$NIGHTLY" run st day2.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/3 ] && [ "$(wc -l <st/current/data)" -eq 300 ]
	[ "$(grep -c 'generation 2: live' st/log)" -eq 1 ]
}

@test "init refuses a holdout it cannot score and options -f cannot warm-start; nothing is left but the lock" {
	awk '{ $1 = 0; print }' hold.txt >hold0.txt
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" st day0.txt hold0.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: hold0.txt: the first model cannot be scored on it: no row is labeled"
	[ "$(ls st)" = lock ]
	run --separate-stderr "$NIGHTLY" init -T "-M direct -g 2" st day0.txt hold.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: the training options cannot warm-start (every night does, lapsvm-train -f): lapsvm-train: a warm start is for the iterative methods"
	[ "$(ls st)" = lock ]
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 0
}

@test "init without -M: -M pcg for lapsvm and laprls (nights warm-start), a given -M or another solver kept" {
	run --separate-stderr "$NIGHTLY" init st day0.txt hold.txt
	assert_status 0
	grep -qx 'train_options=-M pcg -g [0-9.e+-]*' st/config
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 0
	"$NIGHTLY" init -T "-s laprls -g 2" st2 day0.txt hold.txt 2>/dev/null
	grep -qx 'train_options=-s laprls -g 2 -M pcg' st2/config
	"$NIGHTLY" init -T "-s lapsvm -M newton -g 2" st3 day0.txt hold.txt 2>/dev/null
	grep -qx 'train_options=-s lapsvm -M newton -g 2' st3/config
	# another solver's options are passed as given (tsvm fails on its
	# own terms: it takes no graph), not with a method it lacks
	run --separate-stderr "$NIGHTLY" init -T "-s tsvm -g 2" st4 day0.txt hold.txt
	assert_status 1
	assert_stderr_has "the TSVM uses no graph"
	[[ "$stderr" != *pcg* ]]
}

@test "init finds an init that did not finish (killed) and refuses it; -d out of range is a usage error" {
	mkdir -p st/gen/1
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: st: holds a partial state (an init that did not finish): remove st and run init again"
	[ ! -e st/config ] && [ -z "$(ls st/gen/1)" ]
	run --separate-stderr "$NIGHTLY" init -d 99999999999999999999 st2 day0.txt hold.txt
	assert_status 2
	assert_stderr_has "lapsvm-nightly: -d 99999999999999999999: too many features (at most 999999999)"
	[ ! -e st2 ]
}

@test "a failed training's own message is the log's, not an informational line" {
	init_state
	# a live model with a huge coefficient: PCG fails on the grown problem
	awk '/^SV$/ { sv = 1; print; next } sv && !done { $1 = "1e308"; done = 1 } { print }' \
		st/gen/1/model >m && cp m st/gen/1/model
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 1
	grep -Eq 'FAILED: lapsvm-train: .+' st/log
	! grep -q 'FAILED: lapsvm-nightly: $' st/log
	ls st/rejected/day1.txt.*
}

# init's tools read copies in its scratch (STATE/work.PID), deleted on exit:
# their messages named those copies, not the user's files.
@test "init: a bad line of the data or the holdout is named in the user's file, not in init's scratch copy" {
	sed '5s/.*/1 1:abc/' day0.txt >bad0.txt
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" st bad0.txt hold.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: graph-build failed on bad0.txt: graph-build: bad0.txt:5: bad value for feature 1 (found 'abc', expected a number)"
	[[ "$stderr" != *work.* ]]
	[ "$(ls st)" = lock ]
	sed '7s/.*/1 1:abc/' hold.txt >badh.txt
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" st day0.txt badh.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: badh.txt: the first model cannot be scored on it: lapsvm-predict: badh.txt:7: bad value for feature 1 (found 'abc', expected a number)"
	[[ "$stderr" != *work.* ]]
	[ "$(ls st)" = lock ]
}

# -d '' was taken for no -d at all: the dimension from the data.
@test "init -d with an empty value is a usage error, not the default" {
	run --separate-stderr "$NIGHTLY" init -d '' -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 2
	assert_stderr_has "lapsvm-nightly: -d '': not a number of features (expected an integer up to 999999999)"
	[ ! -e st ]
	run --separate-stderr "$NIGHTLY" init -d 3x -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 2
	assert_stderr_has "lapsvm-nightly: -d '3x': not a number of features (expected an integer up to 999999999)"
	[ ! -e st ]
}

# A state named -st was given to mkdir, rm, readlink and sed as options:
# init failed ("mkdir: invalid option -- 's'") and run could not read it.
@test "a state directory whose name starts with -: init and run use it as a directory, not options" {
	run --separate-stderr "$NIGHTLY" init -T "-M pcg -g 2" -- -st day0.txt hold.txt
	assert_status 0
	[ "$(readlink -- -st/current)" = gen/1 ]
	run --separate-stderr "$NIGHTLY" run -- -st day1.txt
	assert_status 0
	[ "$(readlink -- -st/current)" = gen/2 ] && [ "$(readlink -- -st/previous)" = gen/1 ]
	[ "$(wc -l <-st/current/data)" -eq 200 ]
	grep -q 'generation 2: .* -> accepted' -- -st/log
}

# A tool's usage error ends with "Try 'prog -h' for more information.", and
# that hint was taken for the error: the message and the log said only it.
@test "a tool's usage error is the message and the log line, not its 'Try -h' hint" {
	run --separate-stderr "$NIGHTLY" init -G "-k 0" -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: graph-build failed on day0.txt: graph-build: option -k: '0' out of range (expected an integer in 1..2147483647)"
	[[ "$stderr" != *"Try '"* ]]
	rm -rf st
	# image distances build a full graph only (-R): the update refuses them
	"$NIGHTLY" init -G "-d rotation -D 2x1" -T "-M pcg -g 2" st day0.txt hold.txt 2>/dev/null
	run --separate-stderr "$NIGHTLY" run st day1.txt
	assert_status 1
	assert_stderr_has "lapsvm-nightly: graph-build: -U updates Euclidean and cosine kNN or epsilon graphs on one process, not with -d rotation"
	[[ "$stderr" != *"Try '"* ]]
	grep -q 'FAILED: graph-build: -U updates' st/log
	! grep -q "Try '" st/log
}

# Every night updates the graph (graph-build -U), which takes fewer options
# than a full build: init tries it on one appended row and says so at once,
# where before only the first night failed.
@test "init warns when graph-build -U refuses the graph options (every night then needs -R), and not otherwise" {
	run --separate-stderr "$NIGHTLY" init -G "-d rotation -D 2x1" -T "-M pcg -g 2" st day0.txt hold.txt
	assert_status 0
	assert_stderr_has "lapsvm-nightly: warning: graph-build -U refuses these graph options, so every night needs run -R (a full rebuild): graph-build: -U updates Euclidean and cosine kNN or epsilon graphs on one process, not with -d rotation"
	[ "$(ls st/gen/1)" = "$(printf '%s\n' data graph model)" ]
	! ls st | grep -q '^work\.'
	run --separate-stderr "$NIGHTLY" run -R st day1.txt
	assert_status 0
	[ "$(readlink st/current)" = gen/2 ]
	run --separate-stderr "$NIGHTLY" init -G "-k 5" -T "-M pcg -g 2" st2 day0.txt hold.txt
	assert_status 0
	[[ "$stderr" != *warning* ]]
}

# run -R builds the graph over its scratch concatenation (the live data,
# then the new file): a bad line there was named as that copy's line
# (STATE/work.PID/gen/data:105), deleted on exit; it is the new file's line.
@test "run -R: a bad line is named in the new file or the live data, not in run's grown scratch copy" {
	init_state
	sed '5s/^[^ ]*/abc/' day1.txt >bad1.txt
	run --separate-stderr "$NIGHTLY" run -R st bad1.txt
	assert_status 1
	assert_stderr_has "graph-build: bad1.txt:5: bad label (found 'abc', expected a number)"
	[[ "$stderr" != *work.* ]]
	grep -q "FAILED: full rebuild: graph-build: bad1.txt:5: bad label" st/log
	# a line of the live data (the new file good): named in the live data
	d=$(readlink -f st/current/data)
	chmod u+w "$d"
	sed -i '7s/^[^ ]*/xyz/' "$d"
	run --separate-stderr "$NIGHTLY" run -R st day1.txt
	assert_status 1
	assert_stderr_has "graph-build: st/current/data:7: bad label (found 'xyz', expected a number)"
	[[ "$stderr" != *work.* ]]
}
