/*
 * grid.c -- what model selection needs from the library: lists of
 * parameter values given on the command line (lsv_parse_list) and
 * stratified cross-validation folds (lsv_cv_folds).  The search itself
 * (training, scoring, reporting) is the tool's (lapsvm-train -v).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* v rounded to 15 significant digits: a range's values read as they are
 * written (1e-6 * 10^4 is the double of 0.0001, not 0.00010000000000000002). */
static double round15(double v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%.15g", v);
	return strtod(buf, NULL);
}

/* One number of the list s (piece is its text): parsed strictly, checked
 * against [min, max] and, if integer, for being whole. */
/* " in 'S'" when piece is only part of the list s, else "". */
static const char *where(const char *piece, const char *s, char *buf,
			 size_t size)
{
	if (strcmp(piece, s) == 0)
		return "";
	snprintf(buf, size, " in '%s'", s);
	return buf;
}

static lsv_status list_number(const char *piece, const char *s, double min,
			      double max, int integer, double *v,
			      lsv_error *err)
{
	char w[LSV_ERRMSG_MAX / 2];

	if (lsv_parse_double(piece, v, err) != LSV_OK)
		return lsv_fail(err, LSV_EINVAL, "'%s'%s %s (expected %s in "
				"[%g, %g])", piece, where(piece, s, w, sizeof w),
				err->why == LSV_WHY_NONFINITE ? "is not finite"
				: err->why == LSV_WHY_RANGE ? "is out of range"
				: integer ? "is not an integer" : "is not a number",
				integer ? "an integer" : "a number", min, max);
	if (integer && *v != floor(*v))
		return lsv_fail(err, LSV_EINVAL, "'%s'%s is not an integer "
				"(expected an integer in [%g, %g])", piece,
				where(piece, s, w, sizeof w), min, max);
	if (*v < min || *v > max)
		return lsv_fail(err, LSV_EINVAL,
				"'%s'%s out of range (expected %s in [%g, %g])",
				piece, where(piece, s, w, sizeof w),
				integer ? "an integer" : "a number", min, max);
	return LSV_OK;
}

/* Append v to vals (count so far *n, capacity *cap), at most LSV_LIST_MAX. */
static lsv_status list_push(double **vals, size_t *n, size_t *cap, double v,
			    const char *s, lsv_error *err)
{
	if (*n >= LSV_LIST_MAX)
		return lsv_fail(err, LSV_EINVAL,
				"'%s' has more than %d values", s, LSV_LIST_MAX);
	if (lsv_grow((void **)vals, cap, *n + 1, sizeof **vals))
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	(*vals)[(*n)++] = v;
	return LSV_OK;
}

/* The values of range piece "start:stop:xF" or "start:stop:+S". */
static lsv_status list_range(char *piece, const char *s, double min,
			     double max, int integer, double **vals, size_t *n,
			     size_t *cap, lsv_error *err)
{
	char whole[256], wb[LSV_ERRMSG_MAX / 2], *c1 = strchr(piece, ':'), *c2,
		*step;
	const char *W;
	double a, b, f, v;
	long k;
	int mul;
	lsv_status st;

	snprintf(whole, sizeof whole, "%s", piece);
	W = where(whole, s, wb, sizeof wb);
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (c2 == NULL || strchr(c2 + 1, ':') != NULL ||
	    (c2[1] != 'x' && c2[1] != '+'))
		return lsv_fail(err, LSV_EINVAL,
				"malformed range '%s'%s (expected "
				"start:stop:xFACTOR or start:stop:+STEP)", whole, W);
	*c1 = *c2 = '\0';
	step = c2 + 2;
	mul = c2[1] == 'x';
	if ((st = list_number(piece, s, min, max, integer, &a, err)) != LSV_OK ||
	    (st = list_number(c1 + 1, s, min, max, integer, &b, err)) != LSV_OK)
		return st;
	if (lsv_parse_double(step, &f, err) != LSV_OK)
		return lsv_fail(err, LSV_EINVAL,
				"range '%s'%s: %s '%s' is not a number", whole,
				W, mul ? "factor" : "step", step);
	if (mul && !(f > 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"range '%s'%s: factor %g must be > 1", whole, W,
				f);
	if (!mul && !(f > 0.0))
		return lsv_fail(err, LSV_EINVAL,
				"range '%s'%s: step %g must be > 0", whole, W, f);
	if (a > b)
		return lsv_fail(err, LSV_EINVAL,
				"range '%s'%s: start %g > stop %g", whole, W, a,
				b);
	if (mul && !(a > 0.0))
		return lsv_fail(err, LSV_EINVAL,
				"range '%s'%s: a factor range needs start > 0",
				whole, W);
	for (k = 0;; k++) {
		v = mul ? round15(a * pow(f, (double)k))
			: round15(a + (double)k * f);
		/* the stop counts as reached within rounding */
		if (fabs(v - b) <= 1e-9 * fmax(fabs(b), mul ? 0.0 : f))
			v = b;
		if (v > b)
			break;
		if (integer && v != floor(v))
			return lsv_fail(err, LSV_EINVAL,
					"range '%s'%s: value %.15g is not an "
					"integer", whole, W, v);
		if ((st = list_push(vals, n, cap, v, s, err)) != LSV_OK)
			return st;
		if (v == b)
			break;
	}
	return LSV_OK;
}

lsv_status lsv_parse_list(const char *s, double min, double max, int integer,
			  double **out, size_t *count, lsv_error *err)
{
	char *copy, *piece, *next;
	double *vals = NULL, v;
	size_t n = 0, cap = 0, len = strlen(s);
	lsv_status st = LSV_OK;

	*out = NULL;
	*count = 0;
	if (len == 0)
		return lsv_fail(err, LSV_EINVAL, "'' is not %s (an empty list)",
				integer ? "an integer" : "a number");
	if ((copy = malloc(len + 1)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	memcpy(copy, s, len + 1);
	for (piece = copy; piece != NULL && st == LSV_OK; piece = next) {
		next = strchr(piece, ',');
		if (next != NULL)
			*next++ = '\0';
		if (*piece == '\0')
			st = lsv_fail(err, LSV_EINVAL, "empty element in '%s'", s);
		else if (strchr(piece, ':') != NULL)
			st = list_range(piece, s, min, max, integer, &vals, &n, &cap,
					err);
		else if ((st = list_number(piece, s, min, max, integer, &v,
					   err)) == LSV_OK)
			st = list_push(&vals, &n, &cap, v, s, err);
	}
	free(copy);
	if (st != LSV_OK) {
		free(vals);
		return st;
	}
	*out = vals;
	*count = n;
	return LSV_OK;
}

lsv_status lsv_cv_folds(const lsv_data *x, long k, unsigned long long seed,
			int *fold, lsv_error *err)
{
	size_t n = x->n, i, m, cnt, deal = 0, *rows;
	double *cls;
	int nc = 0, c;
	lsv_rng rng;

	if (k < 2 || k > INT_MAX)
		return lsv_fail(err, LSV_EINVAL,
				"%ld folds (expected at least 2)", k);
	rows = malloc((x->l ? x->l : 1) * sizeof *rows);
	cls = malloc((x->l ? x->l : 1) * sizeof *cls);
	if (rows == NULL || cls == NULL) {
		free(rows);
		free(cls);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {  /* the classes, by first appearance */
		if (!lsv_data_is_labeled(x, i))
			continue;
		for (c = 0; c < nc && cls[c] != x->y[i]; c++)
			;
		if (c == nc)
			cls[nc++] = x->y[i];
	}
	for (c = 0; c < nc; c++) {  /* refused before anything is written */
		for (cnt = 0, i = 0; i < n; i++)
			cnt += lsv_data_is_labeled(x, i) && x->y[i] == cls[c];
		if (cnt < (size_t)k) {
			double y = cls[c];
			free(rows);
			free(cls);
			if (cnt == 1)
				return lsv_fail(err, LSV_EINVAL,
						"class %g has only 1 labeled row: cross "
						"validation needs at least 2 per class", y);
			return lsv_fail(err, LSV_EINVAL,
					"class %g has only %zu labeled rows (expected "
					"at most %zu folds)", y, cnt, cnt);
		}
	}
	lsv_rng_seed(&rng, seed);
	for (i = 0; i < n; i++)
		fold[i] = -1;
	for (c = 0; c < nc; c++) {
		for (m = 0, i = 0; i < n; i++)
			if (lsv_data_is_labeled(x, i) && x->y[i] == cls[c])
				rows[m++] = i;
		for (i = m; i > 1; i--) {  /* Fisher-Yates */
			size_t j = (size_t)(lsv_rng_next(&rng) % i), t = rows[i - 1];
			rows[i - 1] = rows[j];
			rows[j] = t;
		}
		for (i = 0; i < m; i++)  /* dealt round-robin, on from the last class */
			fold[rows[i]] = (int)(deal++ % (size_t)k);
	}
	free(rows);
	free(cls);
	return LSV_OK;
}
