/* The class-proportion shift (common/balance.c): thresholds between
 * order statistics worked out by hand, ties, u = 0, the fractions 0 and
 * 1, one-vs-rest, refusals. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "solver.h"
#include "unit.h"

/* Rows of f with f + shift > 0, for function c of nr_fn. */
static size_t positives(const double *f, size_t u, int nr_fn, int c,
			double shift)
{
	size_t i, k = 0;
	for (i = 0; i < u; i++)
		k += f[i * (size_t)nr_fn + (size_t)c] + shift > 0.0;
	return k;
}

/* One function: its shift, or NAN when refused. */
static double shift1(const double *f, size_t u, double r)
{
	double s = NAN;
	lsv_error e;
	if (lsv_balance_shift(f, u, 1, &r, &s, &e) != LSV_OK)
		return NAN;
	return s;
}

static void balance_threshold_is_the_midpoint_of_order_statistics(void)
{
	/* sorted 3 2 1 -1; r 1/2: k = 2, threshold (2 + 1)/2 */
	static const double f[] = {3, 1, -1, 2};
	CHECK(shift1(f, 4, 0.5) == -1.5);
	CHECK(positives(f, 4, 1, 0, -1.5) == 2);
	/* r 1/4: k = 1, threshold (3 + 2)/2; r 3/4: k = 3, (1 - 1)/2 = 0 */
	CHECK(shift1(f, 4, 0.25) == -2.5);
	CHECK(shift1(f, 4, 0.75) == 0.0 && !signbit(shift1(f, 4, 0.75)));
}

static void balance_count_rounds_half_up(void)
{
	/* u = 3, r = 1/2: k = floor(1.5 + 0.5) = 2, threshold (1 + 0)/2 */
	static const double f[] = {0, 1, 2};
	CHECK(shift1(f, 3, 0.5) == -0.5);
	/* r = 0.4: 1.2 -> 1 positive, threshold (2 + 1)/2 */
	CHECK(shift1(f, 3, 0.4) == -1.5);
}

static void balance_ties_move_the_cut_to_the_nearest_gap(void)
{
	/* 1 1 1 0, k = 2 inside the block of 1s: cuts at 0 (2 away) and 3
	 * (1 away); 3 wins, threshold (1 + 0)/2 */
	static const double a[] = {1, 1, 0, 1};
	/* 2 1 1 0, k = 2: cuts 1 and 3 equally far; the lower, (2 + 1)/2 */
	static const double b[] = {1, 0, 2, 1};
	/* every value equal: cuts 0 and 2 for k = 1, the lower: no row
	 * positive, threshold half a margin unit above, 2.5 */
	static const double c[] = {2, 2};
	CHECK(shift1(a, 4, 0.5) == -0.5);
	CHECK(positives(a, 4, 1, 0, -0.5) == 3);
	CHECK(shift1(b, 4, 0.5) == -1.5);
	CHECK(positives(b, 4, 1, 0, -1.5) == 1);
	CHECK(shift1(c, 2, 0.5) == -2.5);
}

static void balance_fraction_zero_and_one_go_past_the_extremes(void)
{
	/* spread 3 - 1 = 2 over u - 1 = 2 gaps: half the mean gap is 0.5 */
	static const double f[] = {1, 3, 2};
	static const double same[] = {2, 2};
	static const double huge[] = {1e300, 1e300};
	double s;
	CHECK(shift1(f, 3, 0.0) == -3.5);
	CHECK(shift1(f, 3, 1.0) == -0.5);
	CHECK(positives(f, 3, 1, 0, -3.5) == 0 && positives(f, 3, 1, 0, -0.5) == 3);
	/* no spread: half a margin unit */
	CHECK(shift1(same, 2, 0.0) == -2.5);
	CHECK(shift1(same, 2, 1.0) == -1.5);
	/* 1e300 + 0.5 is 1e300: the next double up, still past it */
	s = shift1(huge, 2, 0.0);
	CHECK(s == -nextafter(1e300, INFINITY));
	CHECK(positives(huge, 2, 1, 0, s) == 0);
	s = shift1(huge, 2, 1.0);
	CHECK(s == -nextafter(1e300, -INFINITY));
	CHECK(positives(huge, 2, 1, 0, s) == 2);
}

static void balance_no_unlabeled_rows_means_no_shift(void)
{
	double f = 0.0, r[3] = {0.5, 0.2, 0.3}, s[3] = {7, 7, 7};
	lsv_error e;
	CHECK(lsv_balance_shift(&f, 0, 3, r, s, &e) == LSV_OK);
	CHECK(s[0] == 0.0 && s[1] == 0.0 && s[2] == 0.0 && !signbit(s[0]));
}

static void balance_one_vs_rest_shifts_each_function_to_its_prior(void)
{
	/* 4 rows x 3 functions, row-major; priors 1/2, 1/4, 1/4:
	 *   column 0: 1 2 0 3  -> 3 2 | 1 0, threshold 1.5
	 *   column 1: 0 -1 5 2 -> 5 | 2 0 -1, threshold 3.5
	 *   column 2: -1 0 4 1 -> 4 | 1 0 -1, threshold 2.5 */
	static const double f[] = {1, 0, -1, 2, -1, 0, 0, 5, 4, 3, 2, 1};
	double r[3] = {0.5, 0.25, 0.25}, s[3];
	lsv_error e;
	CHECK(lsv_balance_shift(f, 4, 3, r, s, &e) == LSV_OK);
	CHECK(s[0] == -1.5 && s[1] == -3.5 && s[2] == -2.5);
	CHECK(positives(f, 4, 3, 0, s[0]) == 2 && positives(f, 4, 3, 1, s[1]) == 1 &&
	      positives(f, 4, 3, 2, s[2]) == 1);
}

/* Distinct values (sin i, i = 1..101): every k from 0 to u is met exactly. */
static void balance_meets_every_count_on_distinct_values(void)
{
	double f[101];
	size_t i, k, bad = 0;
	for (i = 0; i < 101; i++)
		f[i] = sin((double)i + 1.0);
	for (k = 0; k <= 101; k++) {
		double s = shift1(f, 101, (double)k / 101.0);
		bad += positives(f, 101, 1, 0, s) != k;
	}
	CHECK(bad == 0);
}

static void balance_refuses_bad_targets_and_values(void)
{
	double f[2] = {1, -1}, s[2] = {7, 7}, r;
	lsv_error e;
	r = -0.1;
	CHECK(lsv_balance_shift(f, 2, 1, &r, s, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "positive fraction -0.1 of function 1 out of range "
			 "(expected 0 <= r <= 1)");
	r = NAN;
	CHECK(lsv_balance_shift(f, 2, 1, &r, s, &e) == LSV_EINVAL);
	r = 1.5;
	CHECK(lsv_balance_shift(f, 2, 1, &r, s, &e) == LSV_EINVAL);
	r = 0.5;
	CHECK(lsv_balance_shift(f, 2, 0, &r, s, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "0 decision functions (expected at least 1)");
	f[1] = INFINITY;
	CHECK(lsv_balance_shift(f, 2, 1, &r, s, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "decision value inf of unlabeled row 2 is not finite");
	CHECK(s[0] == 7 && s[1] == 7);  /* nothing written on failure */
}

const unit_case balance_cases[] = {
	{"balance_threshold_is_the_midpoint_of_order_statistics",
	 balance_threshold_is_the_midpoint_of_order_statistics},
	{"balance_count_rounds_half_up", balance_count_rounds_half_up},
	{"balance_ties_move_the_cut_to_the_nearest_gap",
	 balance_ties_move_the_cut_to_the_nearest_gap},
	{"balance_fraction_zero_and_one_go_past_the_extremes",
	 balance_fraction_zero_and_one_go_past_the_extremes},
	{"balance_no_unlabeled_rows_means_no_shift",
	 balance_no_unlabeled_rows_means_no_shift},
	{"balance_one_vs_rest_shifts_each_function_to_its_prior",
	 balance_one_vs_rest_shifts_each_function_to_its_prior},
	{"balance_meets_every_count_on_distinct_values",
	 balance_meets_every_count_on_distinct_values},
	{"balance_refuses_bad_targets_and_values",
	 balance_refuses_bad_targets_and_values},
	{NULL, NULL},
};
