# manifoldboost-lib.sh -- sourced by manifoldboost-uci.sh,
# manifoldboost-digit1.sh, manifoldboost-secstr.sh and ssl-book.sh: the
# set-up they share (the temporary directory, an SSL-book set and its
# published splits, one split's files), the published numbers, the cross
# validated training of one method, its error, and the summary of a
# column.  Needs $BIN and $PROG (the script's name, for messages) set by
# the caller; $PUBLISHED for published(), $DATA, $SIZES, $SPLITS and
# $MARK (the unlabeled marker) for the SSL-book functions.

die() {
	echo "$PROG: $*" >&2
	exit 1
}

now() { date +%s; }

# set_up_tmp: $tmp, a new temporary directory, removed when the script
# exits (also on HUP, INT or TERM, with the usual 128 + signal status)
set_up_tmp() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# check_ssl_set NAME: $DATA/ssl_NAME.libsvm.gz and its split files
# $DATA/ssl_NAME.splits.lL.txt for each L of $SIZES are readable and hold
# every split of $SPLITS (a line each), or the script fails saying which
check_ssl_set() {
	for cs_f in "$DATA/ssl_$1.libsvm.gz" $(for cs_l in $SIZES; do echo "$DATA/ssl_$1.splits.l$cs_l.txt"; done); do
		[ -r "$cs_f" ] || die "$cs_f not found (set DATA to the directory holding the data sets, default ../shared/data; datasets/fetch -m ../shared/data sslbook copies them)"
	done
	for cs_l in $SIZES; do
		for cs_i in $SPLITS; do
			[ -n "$(sed -n "${cs_i}p" "$DATA/ssl_$1.splits.l$cs_l.txt")" ] ||
				die "$DATA/ssl_$1.splits.l$cs_l.txt: no split $cs_i"
		done
	done
}

# load_ssl_set NAME: $tmp/full, the rows of $DATA/ssl_NAME.libsvm.gz, and
# $tmp/labels, their labels one a line; fails when $MARK is a class label
load_ssl_set() {
	gzip -dc "$DATA/ssl_$1.libsvm.gz" >"$tmp/full"
	cut -d' ' -f1 "$tmp/full" >"$tmp/labels"
	if grep -qx -- "$MARK" "$tmp/labels"; then
		die "$1: $MARK is a class label, cannot be the unlabeled marker"
	fi
}

# split_files NAME L I DIR: split I of size L of the loaded set NAME in
# DIR: DIR/lab, its labeled row numbers (line I of the split file);
# DIR/semi, $tmp/full with every other row's label replaced by $MARK; and
# DIR/truth, the true labels of those unlabeled rows in file order (read
# for scoring only)
split_files() {
	sed -n "${3}p" "$DATA/ssl_$1.splits.l$2.txt" >"$4/lab"
	[ -s "$4/lab" ] || die "$DATA/ssl_$1.splits.l$2.txt: no split $3"
	awk -v m="$MARK" 'NR == FNR { for (j = 1; j <= NF; j++) keep[$j] = 1; next }
		{ if (!(FNR in keep)) $1 = m; print }' "$4/lab" "$tmp/full" >"$4/semi"
	awk -v m="$MARK" 'NR == FNR { y[FNR] = $1; next } $1 == m { print y[FNR] }' \
		"$tmp/labels" "$4/semi" >"$4/truth"
}

# pool_start; pool_run CMD [ARG...]; pool_wait: CMD in the background, at
# most $JOBS at a time (pool_run first waits for the oldest when $JOBS
# run); a command's failure ends the script at its wait, its own message
# above
pool_start() {
	pool_pids=
	pool_n=0
}
pool_run() {
	"$@" &
	pool_pids="$pool_pids $!"
	pool_n=$((pool_n + 1))
	if [ "$pool_n" -ge "$JOBS" ]; then
		# shellcheck disable=SC2086 # the list of ids
		set -- $pool_pids
		wait "$1" || die "a job failed (above)"
		shift
		pool_pids=$*
		pool_n=$((pool_n - 1))
	fi
}
pool_wait() {
	for pw_p in $pool_pids; do
		wait "$pw_p" || die "a job failed (above)"
	done
	pool_start
}

# cpu_mark FILE: the CPU seconds (user + system) of this shell's children
# that have ended so far (the shell's times builtin, second line), in FILE;
# two marks around a command give its CPU time, whatever else the machine
# runs
cpu_mark() {
	times >"$1.times"
	awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] }
		printf "%.1f\n", s }' "$1.times" >"$1"
}

# published TABLE SET METHOD: "error std" from $PUBLISHED, or "- -"
published() {
	awk -v t="$1" -v s="$2" -v m="$3" '!/^#/ && $1 == t && $2 == s && $3 == m { print $4, $5; f = 1; exit }
		END { if (!f) print "- -" }' "$PUBLISHED"
}

# error_pct TRUTH PRED: the % of lines whose label differs, TRUTH one label
# a line, PRED lapsvm-predict's output (a label first on each line; a
# first line "labels ..." of lapsvm-train -o is skipped)
error_pct() {
	grep -v '^labels ' "$2" | cut -d' ' -f1 | paste -d' ' "$1" - |
		awk 'NF != 2 { bad = 1 } { n++; e += ($1 != $2) }
		     END { if (n == 0 || bad) exit 1; printf "%.4f", 100 * e / n }'
}

# summary FILE KEY: "mean std n" of column 3 over the lines of FILE whose
# columns 1-2 are KEY ("set method"); "- - 0" when none.  std: the sample
# standard deviation (n - 1), 0 for one value.
summary() {
	awk -v k="$2" '$1 " " $2 == k { n++; x += $3; xx += $3 * $3 }
		END { if (n == 0) { print "- - 0"; exit }
		      sd = n > 1 ? (xx - x * x / n) / (n - 1) : 0; sd = sd > 0 ? sqrt(sd) : 0
		      printf "%.2f %.2f %d\n", x / n, sd, n }' "$1"
}

# cv_train OPTS... -- DATA MODEL OUT: lapsvm-train -q OPTS DATA MODEL with
# its standard output (the -v table) in OUT; the setting -v chose is then
# the "best:" line (or the single setting).  Fails with lapsvm-train's
# message.
cv_train() {
	ct_opts=
	while [ "$1" != -- ]; do
		ct_opts="$ct_opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # option lists
	if ! "$BIN"/lapsvm-train -q $ct_opts "$1" "$2" >"$3" 2>"$3.err"; then
		cat "$3.err" >&2
		return 1
	fi
}

# chosen OUT: the setting lapsvm-train -v chose, from its table OUT
# ("-i 0.01"), or "" without a table
chosen() {
	sed -n 's/^best: //p' "$1"
}
