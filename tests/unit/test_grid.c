/* Model selection's library parts: lists of values (lsv_parse_list) and
 * stratified folds (lsv_cv_folds). */
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

static int list_is(const char *s, double min, double max, int integer,
		   const double *want, size_t n)
{
	double *v;
	size_t k, i;
	lsv_error e;
	int ok;

	if (lsv_parse_list(s, min, max, integer, &v, &k, &e) != LSV_OK)
		return 0;
	ok = k == n;
	for (i = 0; ok && i < n; i++)
		ok = v[i] == want[i];
	free(v);
	return ok;
}

static void list_values(void)
{
	const double a[] = {1e-4, 1e-2, 1};
	const double b[] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100};
	const double c[] = {1, 2, 3, 4};
	const double e[] = {0, 1, 10, 100, 1000, 5};
	const double f[] = {1, 3};

	CHECK(list_is("1e-4,1e-2,1", 1e-300, 1e300, 0, a, 3));
	CHECK(list_is("1e-6:1e2:x10", 1e-300, 1e300, 0, b, 9));
	CHECK(list_is("1:4:+1", 1, 100, 1, c, 4));
	CHECK(list_is("1:8:x2", 1, 100, 1, (const double[]){1, 2, 4, 8}, 4));
	CHECK(list_is("0.5", 1e-300, 1e300, 0, (const double[]){0.5}, 1));
	/* 0.1 + 2 * 0.1 rounded to 15 digits is the double of 0.3 */
	CHECK(list_is("0.1:0.3:+0.1", 0, 1, 0, (const double[]){0.1, 0.2, 0.3}, 3));
	CHECK(list_is("0,1:1000:x10,5", 0, 1e300, 0, e, 6));
	/* stop not reached exactly: the last value at or under it */
	CHECK(list_is("1:4:+2", 1, 100, 1, f, 2));
	CHECK(list_is("1:1:x10", 0, 10, 0, (const double[]){1}, 1));
}

static void list_refusals(void)
{
	struct { const char *s; int integer; const char *msg; } bad[] = {
		{"", 0, "'' is not a number (an empty list)"},
		{"", 1, "'' is not an integer (an empty list)"},
		{"1,,2", 0, "empty element in '1,,2'"},
		{",1", 0, "empty element in ',1'"},
		{"1,", 0, "empty element in '1,'"},
		{"1,x", 0, "'x' in '1,x' is not a number (expected a number in "
			   "[0, 1e+300])"},
		{"nan", 0, "'nan' is not finite (expected a number in [0, 1e+300])"},
		{"1e999", 0, "'1e999' is out of range (expected a number in "
			     "[0, 1e+300])"},
		{"1.5", 1, "'1.5' is not an integer (expected an integer in "
			   "[1, 100])"},
		{"200", 1, "'200' out of range (expected an integer in [1, 100])"},
		{"1:2", 0, "malformed range '1:2' (expected start:stop:xFACTOR or "
			   "start:stop:+STEP)"},
		{"1:2:3", 0, "malformed range '1:2:3' (expected start:stop:xFACTOR "
			     "or start:stop:+STEP)"},
		{"1:2:x3:4", 0, "malformed range '1:2:x3:4' (expected "
				"start:stop:xFACTOR or start:stop:+STEP)"},
		{"1:2:x", 0, "range '1:2:x': factor '' is not a number"},
		{"1:a:x2", 0, "'a' in '1:a:x2' is not a number (expected a number "
			      "in [0, 1e+300])"},
		{"1:2:x1", 0, "range '1:2:x1': factor 1 must be > 1"},
		{"1:2:x0.5", 0, "range '1:2:x0.5': factor 0.5 must be > 1"},
		{"1:4:+0", 1, "range '1:4:+0': step 0 must be > 0"},
		{"1:4:+-1", 1, "range '1:4:+-1': step -1 must be > 0"},
		{"3,2:1:x10", 0, "range '2:1:x10' in '3,2:1:x10': start 2 > stop 1"},
		{"1:4:+1.5", 1, "range '1:4:+1.5': value 2.5 is not an integer"},
		{"1e-9:1e9:x1.01", 0, "'1e-9:1e9:x1.01' has more than 1000 values"},
		{"1:1001:+1", 0, "'1:1001:+1' has more than 1000 values"},
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		double *v = (double *)&i;
		size_t n = 7;
		lsv_error e;
		CHECK(lsv_parse_list(bad[i].s, bad[i].integer ? 1 : 0,
				     bad[i].integer ? 100 : 1e300, bad[i].integer,
				     &v, &n, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, bad[i].msg);
		CHECK(v == NULL && n == 0);
	}
	/* a factor range needs start > 0 */
	{
		double *v;
		size_t n;
		lsv_error e;
		CHECK(lsv_parse_list("0:1:x10", 0, 1, 0, &v, &n, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, "range '0:1:x10': a factor range needs start > 0");
		CHECK(lsv_parse_list("1:1000:+1", 1, 1000, 1, &v, &n, &e) == LSV_OK);
		CHECK(n == 1000);
		free(v);
	}
}

/* A set with labels y (0 unlabeled), one feature each. */
static lsv_data *set_of(const double *y, size_t n)
{
	lsv_data *x = calloc(1, sizeof *x);
	size_t i;

	x->n = n;
	x->rowptr = calloc(n + 1, sizeof *x->rowptr);
	x->col = calloc(1, sizeof *x->col);
	x->val = calloc(1, sizeof *x->val);
	x->y = malloc(n * sizeof *x->y);
	for (i = 0; i < n; i++) {
		x->y[i] = y[i];
		x->l += y[i] != 0.0;
	}
	return x;
}

static void folds_stratified(void)
{
	/* 7 rows of class 1, 5 of class 2, 3 unlabeled */
	const double y[] = {1, 2, 0, 1, 1, 2, 1, 0, 2, 1, 2, 1, 2, 0, 1};
	lsv_data *x = set_of(y, 15);
	int f[15], g[15], per[3][2] = {{0}}, k;
	size_t i;
	lsv_error e;

	CHECK(lsv_cv_folds(x, 3, 5, f, &e) == LSV_OK);
	for (i = 0; i < 15; i++) {
		if (y[i] == 0) {
			CHECK(f[i] == -1);
			continue;
		}
		CHECK(f[i] >= 0 && f[i] < 3);
		per[f[i]][y[i] == 2]++;
	}
	/* each class spread evenly: 7 -> 3,2,2 (any order); 5 -> 2,2,1 */
	for (k = 0; k < 3; k++) {
		CHECK(per[k][0] >= 2 && per[k][0] <= 3);
		CHECK(per[k][1] >= 1 && per[k][1] <= 2);
		CHECK(per[k][0] + per[k][1] == 4);  /* 12 rows in 3 folds */
	}
	/* the same seed, the same folds; another seed, other folds */
	CHECK(lsv_cv_folds(x, 3, 5, g, &e) == LSV_OK);
	CHECK(memcmp(f, g, sizeof f) == 0);
	{
		int differs = 0;
		unsigned long long s;
		for (s = 6; s < 12 && !differs; s++) {
			CHECK(lsv_cv_folds(x, 3, s, g, &e) == LSV_OK);
			differs = memcmp(f, g, sizeof f) != 0;
		}
		CHECK(differs);
	}
	lsv_data_free(x);
}

static void folds_refusals(void)
{
	const double y[] = {1, 2, 0, 1, 1, 2, 2, 3, 3};
	const double y1[] = {1, 2, 2, 0};
	lsv_data *x = set_of(y, 9), *x1 = set_of(y1, 4);
	int f[9] = {7, 7, 7, 7, 7, 7, 7, 7, 7};
	lsv_error e;

	CHECK(lsv_cv_folds(x, 3, 1, f, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "class 3 has only 2 labeled rows (expected at most 2 folds)");
	CHECK(f[0] == 7);  /* untouched */
	CHECK(lsv_cv_folds(x, 1, 1, f, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "1 folds (expected at least 2)");
	CHECK(lsv_cv_folds(x, 2, 1, f, &e) == LSV_OK);
	CHECK(lsv_cv_folds(x1, 2, 1, f, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "class 1 has only 1 labeled row: cross validation "
			 "needs at least 2 per class");
	lsv_data_free(x);
	lsv_data_free(x1);
}

const unit_case grid_cases[] = {
	{"grid: list values", list_values},
	{"grid: list refusals", list_refusals},
	{"grid: stratified folds", folds_stratified},
	{"grid: fold refusals", folds_refusals},
	{NULL, NULL},
};
