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

#include "lapsvm.h"

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

lsv_status lsv_parse_double(const char *s, double *out, lsv_error *err)
{
	const char *p;
	char *end;
	double v;

	if (*s == '\0')
		return lsv_fail(err, LSV_EINVAL, "empty number");
	for (p = s; *p; p++) {
		if (!float_char((unsigned char)*p)) {
			if (spells_nonfinite(s))
				return lsv_fail(err, LSV_EINVAL, "not finite");
			return lsv_fail(err, LSV_EINVAL, "not a number");
		}
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return lsv_fail(err, LSV_EINVAL, "not a number");
	if (errno == ERANGE && fabs(v) > 1.0)
		return lsv_fail(err, LSV_EINVAL, "out of range for a double");
	if (!isfinite(v))
		return lsv_fail(err, LSV_EINVAL, "not finite");
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
		return lsv_fail(err, LSV_EINVAL, "empty number");
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return lsv_fail(err, LSV_EINVAL, "not an integer");
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return lsv_fail(err, LSV_EINVAL, "out of range (expected %ld..%ld)",
				min, max);
	*out = v;
	return LSV_OK;
}
