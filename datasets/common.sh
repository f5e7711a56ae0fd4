# common.sh -- shared by datasets/fetch and the converters (sourced, not run).
#
# POSIX sh.  Sets PROG (the caller's name) and defines:
#   die MSG...            message on stderr, exit 1
#   usage_error MSG...    message and the -h hint on stderr, exit 2
#   DECIMAL_AWK           awk functions for exact decimal text (see below)

PROG=${0##*/}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 1
}

usage_error() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	printf "Try '%s -h' for more information.\n" "$PROG" >&2
	exit 2
}

# dec(s): the plain decimal number s ("-0.6310", "1.", "+.5", "0.0000")
# rewritten with the same digits, without sign '+', leading zeros of the
# integer part and trailing zeros of the fraction: "-0.631", "1", "0.5",
# "0".  Pure text: no rounding, so a conversion that uses it is exact.
# Returns "" when s is not a plain decimal (exponents are not expected in
# these sources and are refused).
# is_zero(d): d, a dec() result, is zero ("0"; "-0" never comes out).
# shellcheck disable=SC2034 # used by the scripts that source this file
DECIMAL_AWK='
function dec(s) {
	if (s in DEC_MEMO) return DEC_MEMO[s]
	return DEC_MEMO[s] = dec_(s)
}
function dec_(s,    sign, n, ip, fp) {
	if (s !~ /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/) return ""
	sign = ""
	if (substr(s, 1, 1) == "-") { sign = "-"; s = substr(s, 2) }
	else if (substr(s, 1, 1) == "+") s = substr(s, 2)
	n = index(s, ".")
	if (n) { ip = substr(s, 1, n - 1); fp = substr(s, n + 1) }
	else { ip = s; fp = "" }
	sub(/^0+/, "", ip)
	sub(/0+$/, "", fp)
	if (ip == "" && fp == "") return "0"
	if (ip == "") ip = "0"
	return sign ip (fp == "" ? "" : "." fp)
}
function is_zero(d) { return d == "0" }
'
