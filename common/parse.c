/*
 * parse.c -- strict conversions from text to numbers.
 *
 * strtod and strtol accept more than a data file or an option should
 * (leading blanks, "nan", "inf", hexadecimal, a partial parse that ignores
 * trailing garbage), and atof cannot report failure at all.  These wrappers
 * accept exactly a decimal number filling the whole string and say why
 * anything else is refused.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Letters a decimal float may contain; anything else (x, n, i, blanks) is
 * rejected before strtod sees it, so hex and nan/inf spellings never parse. */
static int float_char(int c)
{
	return isdigit(c) || c == '+' || c == '-' || c == '.' || c == 'e' ||
	       c == 'E';
}

/* "nan", "-inf", "Infinity": spelled non-finite values get their own
 * message, since they are a common way for upstream tools to fail. */
static int spells_nonfinite(const char *s)
{
	char low[9];
	size_t i;

	if (*s == '+' || *s == '-')
		s++;
	for (i = 0; i < sizeof low - 1 && s[i]; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	if (s[i] != '\0')
		return 0;
	return strncmp(low, "nan", 3) == 0 || strcmp(low, "inf") == 0 ||
	       strcmp(low, "infinity") == 0;
}

/*
 * The common case of data files, without strtod (Clinger 1990, "How to
 * read floating point numbers accurately", the fast path):
 * [-+]digits[.digits][(e|E)[-+]digits] whose significant digits make an
 * integer m of at most 15 digits (m < 10^15 < 2^53, exact as a double) and
 * whose value is m 10^q with |q| <= 22 (10^q exact: 5^22 < 2^53).  Then
 * m * 10^q or m / 10^-q is one correctly rounded operation on exact
 * operands, which is the double nearest the decimal: strtod's result.
 */
int lsv_fast_decimal(const char *s, const char **end, double *out)
{
	static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
				     1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
				     1e22};
	unsigned long long m = 0;
	int neg = 0, digits = 0, frac = 0, dot = 0, any = 0, q, e = 0;
	const char *p = s;
	double v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (;; p++) {
		if (*p >= '0' && *p <= '9') {
			any = 1;
			if (m == 0 && *p == '0') {
				/* leading zeros are not significant */
			} else if (++digits > 15) {
				return 0;
			}
			m = m * 10 + (unsigned long long)(*p - '0');
			frac += dot;
		} else if (*p == '.' && !dot) {
			dot = 1;
		} else {
			break;
		}
	}
	if (!any)
		return 0;
	if (*p == 'e' || *p == 'E') {
		int eneg = 0, edigits = 0;
		p++;
		if (*p == '-' || *p == '+')
			eneg = *p++ == '-';
		for (; *p >= '0' && *p <= '9'; p++) {
			if (e == 0 && *p == '0')
				continue;  /* leading zeros */
			if (++edigits > 3)
				return 0;  /* far beyond 10^22: strtod decides */
			e = e * 10 + (*p - '0');
		}
		if (p[-1] < '0' || p[-1] > '9')
			return 0;  /* "1e", "1e+": not a number */
		if (eneg)
			e = -e;
	}
	q = e - frac;
	if (q < -22 || q > 22)
		return 0;
	v = q < 0 ? (double)m / p10[-q] : (double)m * p10[q];
	*out = neg ? -v : v;
	*end = p;
	return 1;
}

lsv_status lsv_parse_double(const char *s, double *out, lsv_error *err)
{
	const char *p, *stop;
	char *end;
	double v;

	if (lsv_fast_decimal(s, &stop, &v) && *stop == '\0') {
		*out = v;
		return LSV_OK;
	}
	if (*s == '\0')
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_EMPTY, "empty number");
	for (p = s; *p; p++) {
		if (!float_char((unsigned char)*p)) {
			if (spells_nonfinite(s))
				return lsv_fail_why(err, LSV_EINVAL,
						    LSV_WHY_NONFINITE, "not finite");
			return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_SYNTAX,
					    "not a number");
		}
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_SYNTAX,
				    "not a number");
	if (errno == ERANGE && fabs(v) > 1.0)
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_RANGE,
				    "out of range for a double");
	if (!isfinite(v))
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_NONFINITE,
				    "not finite");
	*out = v;
	return LSV_OK;
}

lsv_status lsv_parse_long(const char *s, long min, long max, long *out,
			  lsv_error *err)
{
	const char *p = s;
	char *end;
	long v;

	if (*p == '+' || *p == '-')
		p++;
	if (*p == '\0')
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_EMPTY, "empty number");
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_SYNTAX,
					    "not an integer");
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return lsv_fail_why(err, LSV_EINVAL, LSV_WHY_RANGE,
				    "out of range (expected %ld..%ld)", min, max);
	*out = v;
	return LSV_OK;
}
