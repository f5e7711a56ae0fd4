# label-aware-lib.sh -- the data of Wang et al. (AAAI 2014) Table 1 for
# experiments/label-aware.sh and bench/label-aware.sh (sourced by both).
#
# Sets (issue 17's 8 rows): digit1, coil2, text (ssl_*.libsvm.gz, 1500
# rows); usps38, usps49, usps56, usps27 = all USPS training images
# (usps.train.libsvm.gz, labels 0-9 = the digit) of the two digits, the
# first digit +1; oddeven = the 2007-image USPS test set
# (usps.test.libsvm.gz), odd digits +1.
#
#   la_check_set SET                 status 0 if SET is one of the 8
#   la_source SET                    the file under DATA it comes from
#   la_prepare PROG SET DIR DRAWS LABELS SEED
#       DIR/full: the rows, labels +1/-1, checked against the expected
#       row count; DIR/draws: DRAWS lines of LABELS + LABELS 1-based row
#       numbers (experiments/draw.awk, the MINSTD generator: the same
#       draws in mawk, gawk and busybox awk), seed SEED * 100 + the set's
#       number (1..8 in the order above); DIR/b0: 1 / the mean squared
#       distance between rows, (n - 1) / (2 sum_i |x_i - mean|^2), which
#       is lapsvm-train's default -g.  On failure: a message
#       "PROG: ..." on stderr and status 1.
#   la_semi DIR K OUTDIR             OUTDIR/semi: DIR/full with the rows
#       of draw K labeled and the others 0 (unlabeled); OUTDIR/truth: the
#       labels of the unlabeled rows in file order (scoring only)
LA_SETS="digit1 coil2 text usps38 usps49 usps56 usps27 oddeven"
LA_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

la_number() {
	case $1 in
	digit1) echo 1 ;; coil2) echo 2 ;; text) echo 3 ;; usps38) echo 4 ;;
	usps49) echo 5 ;; usps56) echo 6 ;; usps27) echo 7 ;; oddeven) echo 8 ;;
	*) return 1 ;;
	esac
}

la_check_set() {
	la_number "$1" >/dev/null
}

la_source() {
	case $1 in
	digit1 | coil2 | text) echo "ssl_$1.libsvm.gz" ;;
	oddeven) echo usps.test.libsvm.gz ;;
	*) echo usps.train.libsvm.gz ;;
	esac
}

# the rows each set must have (issue 17; USPS: the ESL zip.train counts)
la_rows() {
	case $1 in
	digit1 | coil2 | text) echo 1500 ;; usps38) echo 1200 ;; usps49) echo 1296 ;;
	usps56) echo 1220 ;; usps27) echo 1376 ;; oddeven) echo 2007 ;;
	esac
}

la_prepare() {
	local prog=$1 s=$2 d=$3 draws=$4 labels=$5 seed=$6 src rows a b
	mkdir -p "$d"
	src=$DATA/$(la_source "$s")
	case $s in
	digit1 | text) gzip -dc "$src" | awk '{ $1 = ($1 > 0) ? 1 : -1; print }' >"$d/full" ;;
	coil2) gzip -dc "$src" | awk '{ $1 = ($1 == 1) ? 1 : -1; print }' >"$d/full" ;;
	oddeven) gzip -dc "$src" | awk '{ $1 = ($1 % 2 == 1) ? 1 : -1; print }' >"$d/full" ;;
	usps*)
		a=${s:4:1} b=${s:5:1}
		gzip -dc "$src" | awk -v a="$a" -v b="$b" '$1 == a || $1 == b { $1 = ($1 == a) ? 1 : -1; print }' >"$d/full"
		;;
	esac
	rows=$(wc -l <"$d/full")
	if [ "$rows" -ne "$(la_rows "$s")" ]; then
		echo "$prog: $s: $rows rows from $src, expected $(la_rows "$s") (the USPS files of ../shared/data/PROVENANCE.md have labels 0-9 = the digit)" >&2
		return 1
	fi
	if ! awk -v l="$labels" -v s="$s" -v p="$prog" '{ c[$1]++ } END { for (k in c) if (c[k] <= l) {
		print p ": " s ": class " k " has " c[k] " rows, not more than LABELS = " l > "/dev/stderr"; exit 1 } }' "$d/full"; then
		return 1
	fi
	awk -f "$LA_HERE/draw.awk" -v draws="$draws" -v pos="$labels" -v neg="$labels" \
		-v seed="$((seed * 100 + $(la_number "$s")))" "$d/full" >"$d/draws"
	if ! awk '{ for (i = 2; i <= NF; i++) { split($i, p, ":"); v = p[2] + 0; mu[p[1]] += v; ss += v * v } }
		END { for (j in mu) m2 += (mu[j] / NR) ^ 2; ss -= NR * m2
		      if (ss <= 0) exit 1; printf "%.10g\n", (NR - 1) / (2 * ss) }' "$d/full" >"$d/b0"; then
		echo "$prog: $s: all rows are equal, no RBF width" >&2
		return 1
	fi
}

la_semi() {
	local d=$1 k=$2 w=$3
	sed -n "${k}p" "$d/draws" | tr ' ' '\n' >"$w/lab"
	awk 'NR == FNR { keep[$1] = 1; next } { if (!(FNR in keep)) $1 = 0; print }' "$w/lab" "$d/full" >"$w/semi"
	awk 'NR == FNR { keep[$1] = 1; next } !(FNR in keep) { print $1 }' "$w/lab" "$d/full" >"$w/truth"
}
