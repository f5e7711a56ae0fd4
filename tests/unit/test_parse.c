/* Strict number parsing: what is accepted, what is refused and why. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lapsvm.h"
#include "unit.h"

static void parse_double_accepts_decimal_forms(void)
{
	const char *ok[] = {"1", "-0", "+1", "1.0", "1e-3", ".5", "5.", "-2.5E+2"};
	const double want[] = {1, -0.0, 1, 1, 1e-3, .5, 5, -250};
	size_t i;
	for (i = 0; i < sizeof ok / sizeof *ok; i++) {
		double v = 99;
		lsv_error e;
		CHECK(lsv_parse_double(ok[i], &v, &e) == LSV_OK);
		CHECK(v == want[i]);
	}
}

static void parse_double_refuses_with_reason(void)
{
	struct { const char *s, *why; } bad[] = {
		{"", "empty number"},      {" 1", "not a number"},
		{"1 ", "not a number"},    {"nan", "not finite"},
		{"-inf", "not finite"},    {"Infinity", "not finite"},
		{"NaN", "not finite"},     {"0x10", "not a number"},
		{"1e999", "out of range for a double"},
		{"1.2.3", "not a number"}, {"abc", "not a number"},
		{"1e", "not a number"},    {"2x", "not a number"},
		{"-", "not a number"},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		double v = 7;
		lsv_error e;
		CHECK(lsv_parse_double(bad[i].s, &v, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, bad[i].why);
		CHECK(v == 7);  /* untouched on failure */
	}
}

static void parse_double_keeps_underflow_as_tiny(void)
{
	double v;
	lsv_error e;
	CHECK(lsv_parse_double("1e-400", &v, &e) == LSV_OK);
	CHECK(v >= 0.0 && v < 1e-300);
}

/* Each kind of refusal carries its code in err->why, whatever was there
 * before: callers word their messages from the code, not the text. */
static void parse_double_sets_why(void)
{
	struct { const char *s, *msg; lsv_why why; } bad[] = {
		{"", "empty number", LSV_WHY_EMPTY},
		{"abc", "not a number", LSV_WHY_SYNTAX},
		{"0x10", "not a number", LSV_WHY_SYNTAX},
		{" 1", "not a number", LSV_WHY_SYNTAX},
		{"1e", "not a number", LSV_WHY_SYNTAX},
		{"-", "not a number", LSV_WHY_SYNTAX},
		{"1.2.3", "not a number", LSV_WHY_SYNTAX},
		{"nan", "not finite", LSV_WHY_NONFINITE},
		{"NaN", "not finite", LSV_WHY_NONFINITE},
		{"inf", "not finite", LSV_WHY_NONFINITE},
		{"-Infinity", "not finite", LSV_WHY_NONFINITE},
		{"+inf", "not finite", LSV_WHY_NONFINITE},
		{"1e999", "out of range for a double", LSV_WHY_RANGE},
		{"-1e999", "out of range for a double", LSV_WHY_RANGE},
		{"1e309", "out of range for a double", LSV_WHY_RANGE},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		double v = 7;
		lsv_error e;
		/* a stale reason that differs from the one expected */
		e.why = bad[i].why == LSV_WHY_RANGE ? LSV_WHY_SYNTAX : LSV_WHY_RANGE;
		CHECK(lsv_parse_double(bad[i].s, &v, &e) == LSV_EINVAL);
		CHECK(e.status == LSV_EINVAL);
		CHECK(e.why == bad[i].why);
		CHECK_STR(e.msg, bad[i].msg);
		CHECK(v == 7);
	}
	/* A stale reason is replaced, not kept. */
	{
		double v;
		lsv_error e;
		e.why = LSV_WHY_NONFINITE;
		CHECK(lsv_parse_double("", &v, &e) == LSV_EINVAL);
		CHECK(e.why == LSV_WHY_EMPTY);
		e.why = LSV_WHY_EMPTY;
		CHECK(lsv_parse_double("1e999", &v, &e) == LSV_EINVAL);
		CHECK(e.why == LSV_WHY_RANGE);
	}
	/* Underflow is not a failure: 1e-999 reads as 0. */
	{
		double v = 7;
		lsv_error e;
		CHECK(lsv_parse_double("1e-999", &v, &e) == LSV_OK);
		CHECK(v == 0.0);
	}
	/* err may be NULL. */
	{
		double v;
		CHECK(lsv_parse_double("nan", &v, NULL) == LSV_EINVAL);
	}
}

static void parse_long_sets_why(void)
{
	struct { const char *s; long min, max; const char *msg; lsv_why why; } bad[] = {
		{"", 1, 100, "empty number", LSV_WHY_EMPTY},
		{"-", 1, 100, "empty number", LSV_WHY_EMPTY},
		{"12a", 1, 100, "not an integer", LSV_WHY_SYNTAX},
		{"1.5", 1, 100, "not an integer", LSV_WHY_SYNTAX},
		{"1e3", 1, 10000, "not an integer", LSV_WHY_SYNTAX},
		{"0x10", 1, 100, "not an integer", LSV_WHY_SYNTAX},
		{" 1", 1, 100, "not an integer", LSV_WHY_SYNTAX},
		{"nan", 1, 100, "not an integer", LSV_WHY_SYNTAX},
		{"99999999999999999999", 1, 100, "out of range (expected 1..100)",
		 LSV_WHY_RANGE},
		{"-99999999999999999999", -5, 5, "out of range (expected -5..5)",
		 LSV_WHY_RANGE},
		{"0", 1, 100, "out of range (expected 1..100)", LSV_WHY_RANGE},
		{"101", 1, 100, "out of range (expected 1..100)", LSV_WHY_RANGE},
		{"-6", -5, 5, "out of range (expected -5..5)", LSV_WHY_RANGE},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		long v = 7;
		lsv_error e;
		e.why = bad[i].why == LSV_WHY_RANGE ? LSV_WHY_SYNTAX : LSV_WHY_RANGE;
		CHECK(lsv_parse_long(bad[i].s, bad[i].min, bad[i].max, &v, &e) ==
		      LSV_EINVAL);
		CHECK(e.status == LSV_EINVAL);
		CHECK(e.why == bad[i].why);
		CHECK_STR(e.msg, bad[i].msg);
		CHECK(v == 7);
	}
	{
		long v;
		CHECK(lsv_parse_long("abc", 1, 100, &v, NULL) == LSV_EINVAL);
	}
}

static void fail_resets_why(void)
{
	lsv_error e;
	e.why = LSV_WHY_NONFINITE;
	CHECK(lsv_fail(&e, LSV_EFORMAT, "f:%d: not finite", 3) == LSV_EFORMAT);
	CHECK(e.status == LSV_EFORMAT);
	CHECK(e.why == LSV_WHY_NONE);
	CHECK_STR(e.msg, "f:3: not finite");
	CHECK(lsv_fail_why(&e, LSV_EINVAL, LSV_WHY_RANGE, "x %s", "y") ==
	      LSV_EINVAL);
	CHECK(e.status == LSV_EINVAL);
	CHECK(e.why == LSV_WHY_RANGE);
	CHECK_STR(e.msg, "x y");
	CHECK(lsv_fail(NULL, LSV_EIO, "nothing") == LSV_EIO);
	CHECK(lsv_fail_why(NULL, LSV_EINVAL, LSV_WHY_EMPTY, "nothing") ==
	      LSV_EINVAL);
	/* a row's failure: the row first in the message and in err->row,
	 * which any other failure resets */
	CHECK(lsv_fail_row(&e, LSV_EINVAL, 12, "value %g too big", 1e300) ==
	      LSV_EINVAL);
	CHECK(e.status == LSV_EINVAL && e.why == LSV_WHY_NONE && e.row == 12);
	CHECK_STR(e.msg, "row 12: value 1e+300 too big");
	CHECK(lsv_fail(&e, LSV_EINVAL, "no row") == LSV_EINVAL && e.row == 0);
	e.row = 3;
	CHECK(lsv_fail_why(&e, LSV_EINVAL, LSV_WHY_RANGE, "x") == LSV_EINVAL &&
	      e.row == 0);
	CHECK(lsv_fail_row(NULL, LSV_EINVAL, 1, "nothing") == LSV_EINVAL);
}

/* The wording of a refused number follows err->why, not err->msg. */
static void want_number_follows_the_code(void)
{
	lsv_error e;
	lsv_fail(&e, LSV_EINVAL, "something unrelated");
	CHECK_STR(lsv_want_number(&e), "a number");
	e.why = LSV_WHY_NONFINITE;
	CHECK_STR(lsv_want_number(&e), "a finite number");
	e.why = LSV_WHY_RANGE;
	CHECK_STR(lsv_want_number(&e), "a number within the range of a double");
	/* The old texts, with codes that say otherwise. */
	lsv_fail(&e, LSV_EINVAL, "not finite");
	CHECK_STR(lsv_want_number(&e), "a number");
	e.why = LSV_WHY_SYNTAX;
	CHECK_STR(lsv_want_number(&e), "a number");
	lsv_fail(&e, LSV_EINVAL, "out of range for a double");
	e.why = LSV_WHY_EMPTY;
	CHECK_STR(lsv_want_number(&e), "a number");
	/* And straight from the parser. */
	{
		double v;
		CHECK(lsv_parse_double("-Infinity", &v, &e) == LSV_EINVAL);
		CHECK_STR(lsv_want_number(&e), "a finite number");
		CHECK(lsv_parse_double("1e999", &v, &e) == LSV_EINVAL);
		CHECK_STR(lsv_want_number(&e), "a number within the range of a double");
		CHECK(lsv_parse_double("1x", &v, &e) == LSV_EINVAL);
		CHECK_STR(lsv_want_number(&e), "a number");
	}
}

static void parse_long_checks_range_and_form(void)
{
	long v;
	lsv_error e;
	CHECK(lsv_parse_long("42", 1, 100, &v, &e) == LSV_OK && v == 42);
	CHECK(lsv_parse_long("-3", -5, 5, &v, &e) == LSV_OK && v == -3);
	CHECK(lsv_parse_long("0", 1, 100, &v, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "out of range (expected 1..100)");
	CHECK(lsv_parse_long("1.5", 1, 100, &v, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "not an integer");
	CHECK(lsv_parse_long("", 1, 100, &v, &e) == LSV_EINVAL);
	CHECK(lsv_parse_long("99999999999999999999999", 1, 100, &v, &e) ==
	      LSV_EINVAL);
	CHECK(lsv_parse_long("12abc", 1, 100, &v, &e) == LSV_EINVAL);
}

static void parse_double_fast_path_equals_strtod(void)
{
	/* Short decimals skip strtod; the result must be strtod's, bit for
	 * bit (m / 10^k with both exact is correctly rounded). */
	lsv_rng r;
	int i, bad = 0;
	lsv_rng_seed(&r, 3);
	for (i = 0; i < 200000; i++) {
		char b[64];
		double v, w;
		lsv_error e;
		int len = 1 + (int)(lsv_rng_next(&r) % 15), dot = (int)(lsv_rng_next(&r) % (len + 1)), k, at = 0;
		if (lsv_rng_next(&r) % 2)
			b[at++] = '-';
		for (k = 0; k < len; k++) {
			if (k == dot)
				b[at++] = '.';
			b[at++] = (char)('0' + lsv_rng_next(&r) % 10);
		}
		b[at] = '\0';
		w = strtod(b, NULL);
		if (lsv_parse_double(b, &v, &e) != LSV_OK || memcmp(&v, &w, sizeof v))
			bad++;
	}
	CHECK(bad == 0);
}

/* A random decimal of the forms data files hold: sign, leading zeros, 1 to
 * 18 digits with a point anywhere (or none), an exponent (e or E, sign,
 * leading zeros, -40..40) or none; rarely exponent-only, "1e", "1e+". */
static void random_decimal(lsv_rng *r, char *b)
{
	int len = 1 + (int)(lsv_rng_next(r) % 18), k, at = 0;
	int dot = (int)(lsv_rng_next(r) % (len + 2)), form = (int)(lsv_rng_next(r) % 8);
	switch (lsv_rng_next(r) % 4) {
	case 0: b[at++] = '-'; break;
	case 1: b[at++] = '+'; break;
	default: break;
	}
	for (k = (int)(lsv_rng_next(r) % 4) - 2; k > 0; k--)
		b[at++] = '0';
	for (k = 0; k < len; k++) {
		if (k == dot)
			b[at++] = '.';
		b[at++] = (char)('0' + lsv_rng_next(r) % 10);
	}
	if (dot == len)
		b[at++] = '.';
	if (form >= 4) {
		int e = (int)(lsv_rng_next(r) % 81) - 40;
		at += sprintf(b + at, "%c%s%s%d", form % 2 ? 'e' : 'E',
			      e >= 0 && form == 5 ? "+" : "", form == 6 ? "00" : "",
			      e);
	} else if (form == 3 && lsv_rng_next(r) % 8 == 0) {
		at += sprintf(b + at, lsv_rng_next(r) % 2 ? "e" : "e+");
	}
	b[at] = '\0';
}

/* Clinger's fast path with exponents: whenever lsv_fast_decimal answers, its
 * double is strtod's to the bit and it stops where strtod does; and
 * lsv_parse_double (fast path or not) agrees with strtod on every string
 * strtod reads whole.  Generated strings on both sides of the path's limits
 * (15 digits, 10^22), and edge cases by hand. */
static void fast_decimal_equals_strtod_with_exponents(void)
{
	static const char *edge[] = {
		"0", "-0", "+0", "0e0", "-0e-5", "0.0", "000123", "1e22", "1e-22",
		"1e23", "1e-23", "123456789012345", "1234567890123456",
		"999999999999999e22", "999999999999999e-22", "9007199254740993",
		"0.000000000000000000001", "1.5e+007", "2.5E-003", ".5e1", "5.e-1",
		"1e0000000000000000005", "4.9406564584124654e-324", "1e308",
		"179769313486231570000000000000000000000e270", "0.1", "0.3",
		"1e", "1e+", "e5", ".", "-", "1.2.3", "1e5x", "12:3",
	};
	lsv_rng r;
	int i, bad_val = 0, bad_end = 0, fast = 0, bad_parse = 0;
	char b[96];

	lsv_rng_seed(&r, 11);
	for (i = 0; i < 400000 + (int)(sizeof edge / sizeof *edge); i++) {
		const char *stop;
		char *end;
		double v, w, u;
		if (i < (int)(sizeof edge / sizeof *edge))
			strcpy(b, edge[i]);
		else
			random_decimal(&r, b);
		w = strtod(b, &end);
		if (lsv_fast_decimal(b, &stop, &v)) {
			fast++;
			bad_val += memcmp(&v, &w, sizeof v) != 0;
			bad_end += stop != end;
		}
		if (*end == '\0' && end != b && isfinite(w)) {
			bad_parse += lsv_parse_double(b, &u, NULL) != LSV_OK ||
				     memcmp(&u, &w, sizeof u) != 0;
		}
	}
	CHECK(bad_val == 0);
	CHECK(bad_end == 0);
	CHECK(bad_parse == 0);
	/* the generator reaches the fast path, and strtod's side too */
	CHECK(fast > 100000 && fast < 390000);
	/* the path's limits, by hand */
	{
		const char *stop;
		double v;
		CHECK(lsv_fast_decimal("1e22", &stop, &v) == 1 && v == 1e22);
		CHECK(lsv_fast_decimal("1e23", &stop, &v) == 0);
		CHECK(lsv_fast_decimal("123456789012345", &stop, &v) == 1);
		CHECK(lsv_fast_decimal("1234567890123456", &stop, &v) == 0);
		CHECK(lsv_fast_decimal("1e", &stop, &v) == 0);
		CHECK(lsv_fast_decimal("7:255 8:1", &stop, &v) == 1 && v == 7 &&
		      *stop == ':');
		CHECK(lsv_fast_decimal("-2.5e-3 x", &stop, &v) == 1 &&
		      v == -2.5e-3 && *stop == ' ');
	}
}

const unit_case parse_cases[] = {
	{"fast_decimal_equals_strtod_with_exponents", fast_decimal_equals_strtod_with_exponents},
	{"parse_double_fast_path_equals_strtod", parse_double_fast_path_equals_strtod},
	{"parse_double_accepts_decimal_forms", parse_double_accepts_decimal_forms},
	{"parse_double_refuses_with_reason", parse_double_refuses_with_reason},
	{"parse_double_keeps_underflow_as_tiny", parse_double_keeps_underflow_as_tiny},
	{"parse_long_checks_range_and_form", parse_long_checks_range_and_form},
	{"parse_double_sets_why", parse_double_sets_why},
	{"parse_long_sets_why", parse_long_sets_why},
	{"fail_resets_why", fail_resets_why},
	{"want_number_follows_the_code", want_number_follows_the_code},
	{NULL, NULL},
};
