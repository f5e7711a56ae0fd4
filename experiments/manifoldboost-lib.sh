# manifoldboost-lib.sh -- sourced by manifoldboost-uci.sh and
# manifoldboost-digit1.sh: the published numbers, the cross validated
# training of one method, its error, and the summary of a column.  Needs
# $BIN, $PROG (the script's name, for messages) and $PUBLISHED set by the
# caller.

die() {
	echo "$PROG: $*" >&2
	exit 1
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
