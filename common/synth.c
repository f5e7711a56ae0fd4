/*
 * synth.c -- the toy data sets of the paper's Figures 2-3, generated here so
 * the demo and the tests need no download.
 *
 * Two moons: class +1 on the upper arc (cos t, sin t), class -1 on the lower
 * arc (1 - cos t, 1/2 - sin t), t evenly spaced in [0, pi] (the formula of
 * scikit-learn's make_moons), plus Gaussian noise on each coordinate.
 * Two spirals (Lang & Witbrock 1988): point i of m per class has angle
 * i * 6 pi / (m - 1) and radius 6.5 (104 - 96 i / (m - 1)) / 104; class +1 is
 * (r sin a, r cos a), class -1 its negation.  m = 97 gives the original 194
 * points exactly.
 * Three rings (Loeff et al. 2008, Figure 3): class c = 1, 2, 3 on the circle
 * of radius c, point j of m at angle 2 pi j / m, m = n/3 (the first n mod 3
 * classes one more).
 */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"

int lsv_synth_classes(lsv_synth_kind kind)
{
	return kind == LSV_SYNTH_RINGS ? 3 : 2;
}

lsv_status lsv_synth(lsv_synth_kind kind, size_t n, double noise,
		     unsigned long long seed, lsv_data **out, lsv_error *err)
{
	lsv_data *x;
	lsv_rng rng;
	size_t i, m[3];
	int c, K = lsv_synth_classes(kind);

	*out = NULL;
	if (n < 2 || n > 100000000)
		return lsv_fail(err, LSV_EINVAL,
				"number of points %zu out of range (expected 2..100000000)",
				n);
	if (!(noise >= 0.0) || !isfinite(noise))
		return lsv_fail(err, LSV_EINVAL, "noise must be finite and >= 0");
	x = calloc(1, sizeof *x);
	if (x == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	x->n = x->l = n;
	x->dim = 2;
	x->nnz = 2 * n;
	x->unlabeled = LSV_UNLABELED_DEFAULT;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc(2 * n * sizeof *x->col);
	x->val = malloc(2 * n * sizeof *x->val);
	x->y = malloc(n * sizeof *x->y);
	if (!x->rowptr || !x->col || !x->val || !x->y) {
		lsv_data_free(x);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu points", n);
	}
	lsv_rng_seed(&rng, seed);
	for (c = 0; c < K; c++)
		m[c] = n / (size_t)K + ((size_t)c < n % (size_t)K);
	i = 0;
	for (c = 0; c < K; c++) {
		size_t j;
		for (j = 0; j < m[c]; j++, i++) {
			double a = m[c] > 1 ? (double)j / (double)(m[c] - 1) : 0.0;
			double u, v;
			if (kind == LSV_SYNTH_MOONS) {
				double t = M_PI * a;
				u = c == 0 ? cos(t) : 1.0 - cos(t);
				v = c == 0 ? sin(t) : 0.5 - sin(t);
			} else if (kind == LSV_SYNTH_RINGS) {
				double t = 2.0 * M_PI * (double)j / (double)m[c];
				u = (c + 1) * cos(t);
				v = (c + 1) * sin(t);
			} else {
				double ang = 6.0 * M_PI * a;
				double r = 6.5 * (104.0 - 96.0 * a) / 104.0;
				u = (c == 0 ? 1 : -1) * r * sin(ang);
				v = (c == 0 ? 1 : -1) * r * cos(ang);
			}
			u += noise * lsv_rng_normal(&rng);
			v += noise * lsv_rng_normal(&rng);
			x->rowptr[i] = 2 * i;
			x->col[2 * i] = 0;
			x->col[2 * i + 1] = 1;
			x->val[2 * i] = u;
			x->val[2 * i + 1] = v;
			x->y[i] = kind == LSV_SYNTH_RINGS ? c + 1.0
				  : c == 0 ? 1.0 : -1.0;
		}
	}
	x->rowptr[n] = 2 * n;
	*out = x;
	return LSV_OK;
}
