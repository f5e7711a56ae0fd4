/*
 * balance.c -- decisions that respect class proportions: the bias shift
 * that makes a given fraction of the unlabeled rows positive.
 *
 * A function trained on few labels can put its threshold anywhere the
 * labeled rows allow.  Under strong regularization (large gamma_I, or
 * small gamma_A with an unpenalized constant) f is nearly constant over
 * the graph, f = c + h with |h| << |c|, and the constant c comes from
 * the label counts alone: the hinge loss's best constant is the majority
 * label (1/l sum_i max(0, 1 - y_i c) falls with slope (l- - l+)/l up to
 * c = +1 when l+ > l-), the squared loss's the mean label (l+ - l-)/l.
 * The informative part h then decides nothing and every row takes the
 * majority class.  Moving the threshold so that the unlabeled rows are
 * split in the expected proportion restores h as the decision.  This is
 * the TSVM's fraction constraint (Joachims 1999, -p r) and, as a
 * post-processing step, the threshold form of class mass normalization
 * (Zhu, Ghahramani & Lafferty, ICML 2003), applied to any trained f.
 *
 * Definition.  For one function with decision values f_1..f_u on the u
 * unlabeled rows and a target fraction r in [0, 1], let k = floor(r u +
 * 1/2) (round half up, as the TSVM's r u) and v_(1) >= ... >= v_(u) the
 * values sorted.  The shift is s = -t with t strictly between v_(k+1)
 * and v_(k): t is their midpoint (the largest margin between the two
 * groups), so exactly the k largest values have f + s > 0.  Equal
 * values cannot be split: when v_(k) = v_(k+1) the cut moves to the
 * nearest position j where v_(j) > v_(j+1), or to 0 or u; a cut as far
 * above k as below goes below (fewer positives, as f = 0 is negative).
 * At the ends (j = 0: all negative, j = u: all positive) t lies half the
 * mean gap (v_(1) - v_(u)) / (2 (u - 1)) beyond the extreme value (half
 * a margin unit, 1/2, when every value is equal), so that rounding in a
 * recomputed f does not move it across.  u = 0: no shift.
 *
 * One-vs-rest (nr_fn > 1 functions, the class of the largest f_c wins):
 * each function is shifted on its own so that its positive fraction is
 * its target (the class prior).  That removes the per-class constants
 * c_c (which, as above, follow the label counts and would make the
 * argmax pick the class with most labels everywhere) and compares each
 * class's informative part relative to its own prior quantile.  The
 * argmax fractions then follow the priors closely, though not exactly:
 * matching them exactly is an assignment problem whose shifts are not a
 * per-function quantile.
 */
#include <math.h>
#include <stdlib.h>

#include "solver.h"

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

/* The cut (number of positives) nearest k at which v (sorted, largest
 * first) can be split: j = 0, j = u, or v[j-1] > v[j]; the lower one on a
 * tie of distance. */
static size_t nearest_cut(const double *v, size_t u, size_t k)
{
	size_t lo = k, hi = k;

	if (k == 0 || k == u || v[k - 1] > v[k])
		return k;
	while (lo > 0 && v[lo - 1] == v[lo])
		lo--;
	while (hi < u && v[hi - 1] == v[hi])
		hi++;
	return k - lo <= hi - k ? lo : hi;
}

/* A threshold t with v[j] <= t < v[j-1] for a cut j of v (sorted, largest
 * first; 0 < j < u, v[j-1] > v[j]): the midpoint, kept inside the interval
 * when rounding puts it on an end. */
static double midpoint(double above, double below)
{
	double t = 0.5 * above + 0.5 * below;  /* no overflow near DBL_MAX */

	if (!(t >= below) || !(t < above))
		t = below;
	return t;
}

/* The threshold of cut j of v (sorted, largest first, u >= 1 values). */
static double cut_threshold(const double *v, size_t u, size_t j)
{
	double spread = v[0] - v[u - 1];
	double h = u > 1 && spread > 0.0 ? spread / (2.0 * (double)(u - 1)) : 0.5;
	double t;

	if (j > 0 && j < u)
		return midpoint(v[j - 1], v[j]);
	if (j == 0) {  /* every row negative: t >= v[0] */
		t = v[0] + h;
		return t > v[0] ? t : nextafter(v[0], INFINITY);
	}
	t = v[u - 1] - h;  /* every row positive: t < v[u - 1] */
	return t < v[u - 1] ? t : nextafter(v[u - 1], -INFINITY);
}

static lsv_status check_args(const double *f, size_t u, int nr_fn,
			     const double *target, lsv_error *err)
{
	size_t i;
	int c;

	if (nr_fn < 1)
		return lsv_fail(err, LSV_EINVAL,
				"%d decision functions (expected at least 1)", nr_fn);
	for (c = 0; c < nr_fn; c++)
		if (!(target[c] >= 0.0 && target[c] <= 1.0))
			return lsv_fail(err, LSV_EINVAL,
					"positive fraction %g of function %d out of "
					"range (expected 0 <= r <= 1)", target[c], c + 1);
	for (i = 0; i < u * (size_t)nr_fn; i++)
		if (!isfinite(f[i]))
			return lsv_fail(err, LSV_EINVAL,
					"decision value %g of unlabeled row %zu is not "
					"finite", f[i], i / (size_t)nr_fn + 1);
	return LSV_OK;
}

lsv_status lsv_balance_shift(const double *f, size_t u, int nr_fn,
			     const double *target, double *shift,
			     lsv_error *err)
{
	double *v, *s;
	size_t i, k;
	lsv_status st;
	int c;

	if ((st = check_args(f, u, nr_fn, target, err)) != LSV_OK)
		return st;
	v = lsv_alloc(u, sizeof *v);
	s = lsv_alloc((size_t)nr_fn, sizeof *s);
	if (v == NULL || s == NULL) {
		free(v);
		free(s);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory sorting %zu decision values", u);
	}
	for (c = 0; c < nr_fn; c++) {
		s[c] = 0.0;
		if (u == 0)
			continue;
		for (i = 0; i < u; i++)
			v[i] = f[i * (size_t)nr_fn + (size_t)c];
		qsort(v, u, sizeof *v, cmp_desc);
		k = (size_t)floor(target[c] * (double)u + 0.5);
		s[c] = 0.0 - cut_threshold(v, u, nearest_cut(v, u, k > u ? u : k));
		if (!isfinite(s[c])) {
			free(v);
			free(s);
			return lsv_fail(err, LSV_ENUMERIC,
					"decision values too large to shift (function "
					"%d)", c + 1);
		}
	}
	for (c = 0; c < nr_fn; c++)
		shift[c] = s[c];
	free(v);
	free(s);
	return LSV_OK;
}
