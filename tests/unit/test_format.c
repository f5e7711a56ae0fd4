/* lsv_format_g17 writes the bytes snprintf's "%.17g" writes: on random bit
 * patterns, on values of the writers' kinds (weights exp(-u), squared
 * distances, short decimals), on exact ties at the 17th digit (dyadic
 * values with 18 significant digits), near powers of ten, and on the
 * values it hands to snprintf (0, -0, subnormals, huge, inf, nan). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "lapsvm.h"
#include "unit.h"

static int same_as_printf(double v)
{
	char a[LSV_G17_MAX], b[LSV_G17_MAX];
	int n = lsv_format_g17(a, v);
	snprintf(b, sizeof b, "%.17g", v);
	if (strcmp(a, b) != 0 || n != (int)strlen(b)) {
		fprintf(stderr, "  %.17g: wrote '%s'\n", v, a);
		return 0;
	}
	return 1;
}

static double uniform(lsv_rng *r)
{
	return (double)(lsv_rng_next(r) >> 11) / 9007199254740992.0;
}

static void format_g17_equals_printf(void)
{
	static const double edge[] = {
		0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-16, 1e-17, 9.9999999999999998e-17,
		1e17, 99999999999999984.0, 1e16, 1e-5, 1e-4, 0.0001, 0.00099999999999999,
		123456789012345678.0, 1e308, 4.9406564584124654e-324, 2.2250738585072014e-308,
		1125899906842624.25, 1125899906842624.75, 1125899906842624.5,
		9.5, 0.3, 2.0 / 3.0, 1e15 + 0.5, 12345.678, 255.0, 65025.0,
		/* integers up to and beyond the plain-digits path's 2^53 */
		-7.0, 51076800.0, 9007199254740991.0, 9007199254740992.0,
		-9007199254740994.0, 9999999999999998.0, 1e16 + 2.0,
	};
	lsv_rng r;
	size_t i;
	int bad = 0, k;

	for (i = 0; i < sizeof edge / sizeof *edge; i++)
		bad += !same_as_printf(edge[i]);
	bad += !same_as_printf(INFINITY) + !same_as_printf(-INFINITY) +
	       !same_as_printf(NAN);
	lsv_rng_seed(&r, 5);
	for (k = 0; k < 300000; k++) {
		unsigned long long u = lsv_rng_next(&r);
		double v;
		/* any bit pattern */
		memcpy(&v, &u, sizeof v);
		if (!isnan(v))
			bad += !same_as_printf(v);
		/* weights exp(-u) and their range */
		bad += !same_as_printf(exp(-40.0 * uniform(&r)));
		/* squared distances and keys: integers, sums of squares */
		bad += !same_as_printf((double)(lsv_rng_next(&r) % 100000000));
		bad += !same_as_printf(uniform(&r) * pow(10.0, (double)(k % 36 - 18)));
		/* dyadic values m 2^-j: exact expansions, ties at digit 17 */
		bad += !same_as_printf(ldexp((double)(lsv_rng_next(&r) >> (11 + k % 40)),
					     -(k % 64)));
		/* powers of ten and their neighbours */
		v = pow(10.0, (double)(k % 34 - 17));
		bad += !same_as_printf(v) + !same_as_printf(nextafter(v, 0.0)) +
		       !same_as_printf(-nextafter(v, 1e300));
		/* short decimals, as in data files */
		bad += !same_as_printf((double)(lsv_rng_next(&r) % 100000) / 1000.0);
		if (bad > 10)
			break;
	}
	CHECK(bad == 0);
}

/* The entry and row formats are "%zu:%.17g" after a blank, and "%zu". */
static void format_entry_equals_printf(void)
{
	char a[LSV_ENTRY_MAX], b[LSV_ENTRY_MAX];
	const size_t js[] = {1, 9, 10, 784, 69999, 2147483647, (size_t)-1};
	const double vs[] = {0.5, 1e-300, 3.0, -0.25, 0.123456789};
	size_t i, k;
	int n;

	for (i = 0; i < sizeof js / sizeof *js; i++)
		for (k = 0; k < sizeof vs / sizeof *vs; k++) {
			n = lsv_format_entry(a, js[i], vs[k]);
			snprintf(b, sizeof b, " %zu:%.17g", js[i], vs[k]);
			CHECK_STR(a, b);
			CHECK(n == (int)strlen(b));
		}
	n = lsv_format_row(a, 70000);
	CHECK_STR(a, "70000");
	CHECK(n == 5);
	lsv_format_row(a, 0);
	CHECK_STR(a, "0");
}

const unit_case format_cases[] = {
	{"format_g17_equals_printf", format_g17_equals_printf},
	{"format_entry_equals_printf", format_entry_equals_printf},
	{NULL, NULL},
};
