/*
 * kernel.c -- kernel matrices through BLAS.
 *
 * Every kernel here is a function of the inner product u'v (and, for the
 * RBF, of |u|^2 and |v|^2 through |u - v|^2 = |u|^2 + |v|^2 - 2 u'v), so a
 * block of kernel values is one dgemm of densified rows followed by an
 * elementwise map.  The rows of b are densified once over the features
 * they use; rows of a go through in blocks of ROWS, densified over the same
 * features (a feature b never uses multiplies zeros only).  Norms come from
 * the full sparse rows, so the RBF sees features present in a alone.
 *
 * Sparse data (text: Chapelle's Text set stores 52 of 11960 features per
 * row, 0.4%) would spend that dgemm multiplying zeros: below a density of
 * SPARSE_DENSITY the inner products are sparse dot products instead, b's
 * row scattered into a dense vector and a's stored values gathered from
 * it, O(nb nnz(a)) rather than O(na nb m).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

#define ROWS 256
#define SPARSE_DENSITY 0.02

/* Do rows ib[0..nb) of b store fewer than SPARSE_DENSITY of their
 * nb x f->m values? */
static int sparse_enough(const lsv_data *b, const size_t *ib, size_t nb,
			 const lsv_fmap *f)
{
	size_t j, nnz = 0;

	for (j = 0; j < nb; j++) {
		size_t r = ib ? ib[j] : j;
		nnz += b->rowptr[r + 1] - b->rowptr[r];
	}
	return (double)nnz < SPARSE_DENSITY * (double)nb * (double)f->m;
}

/* K[i + j na] = a_i'b_j by sparse dot products over the features of map
 * f (a feature b never uses multiplies zeros only).  Columns of K spread
 * over OpenMP threads, each value computed by one thread in one order, so
 * the result does not depend on the number of threads. */
static lsv_status sparse_products(const lsv_data *a, const size_t *ia,
				  size_t na, const lsv_data *b,
				  const size_t *ib, size_t nb,
				  const lsv_fmap *f, double *K, lsv_error *err)
{
	size_t i, p, q = 0, nnz = 0, *start = malloc((na + 1) * sizeof *start);
	int *ac = NULL, failed = 0;
	double *av = NULL;
	long j;

	for (i = 0; i < na; i++) {
		size_t r = ia ? ia[i] : i;
		nnz += a->rowptr[r + 1] - a->rowptr[r];
	}
	ac = malloc((nnz + 1) * sizeof *ac);
	av = malloc((nnz + 1) * sizeof *av);
	if (start == NULL || ac == NULL || av == NULL) {
		free(start);
		free(ac);
		free(av);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the kernel");
	}
	for (i = 0; i < na; i++) {  /* a's values with their mapped features */
		size_t r = ia ? ia[i] : i;
		start[i] = q;
		for (p = a->rowptr[r]; p < a->rowptr[r + 1]; p++) {
			int c = lsv_fmap_get(f, a->col[p]);
			if (c >= 0) {
				ac[q] = c;
				av[q++] = a->val[p];
			}
		}
	}
	start[na] = q;
#pragma omp parallel
	{
		double *w = calloc(f->m ? f->m : 1, sizeof *w);
		if (w == NULL) {
#pragma omp atomic write
			failed = 1;
		}
#pragma omp for schedule(dynamic, 16)
		for (j = 0; j < (long)nb; j++) {
			size_t r = ib ? ib[j] : (size_t)j, pp, ii, qq;
			if (w == NULL)
				continue;
			for (pp = b->rowptr[r]; pp < b->rowptr[r + 1]; pp++) {
				int c = lsv_fmap_get(f, b->col[pp]);
				if (c >= 0)
					w[c] = b->val[pp];
			}
			for (ii = 0; ii < na; ii++) {
				double sum = 0.0;
				for (qq = start[ii]; qq < start[ii + 1]; qq++)
					sum += av[qq] * w[ac[qq]];
				K[ii + (size_t)j * na] = sum;
			}
			for (pp = b->rowptr[r]; pp < b->rowptr[r + 1]; pp++) {
				int c = lsv_fmap_get(f, b->col[pp]);
				if (c >= 0)
					w[c] = 0.0;
			}
		}
		free(w);
	}
	free(start);
	free(ac);
	free(av);
	if (failed)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the kernel");
	return LSV_OK;
}

lsv_status lsv_kernel_check(const lsv_kernel *k, lsv_error *err)
{
	if (lsv_kernel_name(k->type) == NULL)
		return lsv_fail(err, LSV_EINVAL,
				"unknown kernel type %d (expected 0 linear, 1 "
				"polynomial, 2 rbf, 4 precomputed)", (int)k->type);
	if (k->type == LSV_KERNEL_PRECOMPUTED)
		return LSV_OK;  /* no parameter */
	if (k->type == LSV_KERNEL_POLY && (k->degree < 1 || k->degree > 100))
		return lsv_fail(err, LSV_EINVAL,
				"polynomial degree %d out of range (expected 1..100)",
				k->degree);
	if (k->type != LSV_KERNEL_LINEAR && (!(k->gamma > 0.0) || !isfinite(k->gamma)))
		return lsv_fail(err, LSV_EINVAL,
				"kernel gamma %g out of range (expected > 0)", k->gamma);
	if (!isfinite(k->coef0))
		return lsv_fail(err, LSV_EINVAL, "kernel coef0 is not finite");
	return LSV_OK;
}

static double sqnorm(const lsv_data *x, size_t i)
{
	double s = 0.0;
	size_t p;
	for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
		s += x->val[p] * x->val[p];
	return s;
}

/* Rows idx[0..cnt) of x, dense over map f, as f->m x cnt column-major. */
static void densify(const lsv_data *x, const size_t *idx, size_t first,
		    size_t cnt, const lsv_fmap *f, double *D)
{
	size_t r, p;
	memset(D, 0, cnt * f->m * sizeof *D);
	for (r = 0; r < cnt; r++) {
		size_t i = idx ? idx[first + r] : first + r;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			int c = lsv_fmap_get(f, x->col[p]);
			if (c >= 0)
				D[r * f->m + (size_t)c] = x->val[p];
		}
	}
}

/* A kernel value that overflowed would make every score NaN or infinite:
 * refused, naming the first pair (column j of K is b's row, row i a's)
 * and the cause.  ip is that pair's inner product u'v when it was finite
 * and the polynomial (gamma u'v + coef0)^degree overflowed, else NaN (the
 * data's own values overflowed).  The polynomial's cause is the term that
 * dominates: coef0 if it outweighs gamma u'v; the degree if the base is
 * modest (under 1e10); of gamma and u'v the one farther from 1 in
 * magnitude (-g 1e300 on unit-scale data, or a row of 1e200 with gamma
 * 1); so a model or an option is named when it, not the data, is the
 * cause. */
static lsv_status not_finite(const lsv_kernel *k, const double *K, size_t na,
			     size_t i, size_t j, double ip, const size_t *ia,
			     const size_t *ib, const char *aname,
			     const char *bname, lsv_error *err)
{
	size_t ra = (ia ? ia[i] : i) + 1, rb = (ib ? ib[j] : j) + 1;
	const char *cause = NULL;
	char what[96];

	if (k->type == LSV_KERNEL_POLY && isfinite(ip)) {
		double gip = k->gamma * ip, base = gip + k->coef0;
		if (fabs(k->coef0) >= fabs(gip))
			snprintf(what, sizeof what, "coef0 = %g (-r)", k->coef0);
		else if (fabs(base) < 1e10)
			snprintf(what, sizeof what, "degree %d (-d)", k->degree);
		else if (ip == 0.0 ||
			 fabs(log(k->gamma)) > fabs(log(fabs(ip))))
			snprintf(what, sizeof what, "gamma = %g (-g)", k->gamma);
		else
			what[0] = '\0';
		if (what[0] != '\0')
			cause = what;
	}
	if (cause != NULL)
		return lsv_fail(err, LSV_ENUMERIC,
				"kernel value of %s %zu and %s %zu is not finite "
				"(found %g): (gamma u'v + coef0)^degree overflows at "
				"u'v = %g because of the kernel's %s: choose a "
				"smaller one (the option, or the model that holds it)",
				aname, ra, bname, rb, K[i + j * na], ip, cause);
	/* the data's fault: a data row's failure (file:line), the other
	 * end named in the message */
	if (strcmp(aname, "row") == 0 || strcmp(bname, "row") == 0) {
		int a_row = strcmp(aname, "row") == 0;
		return lsv_fail_row(err, LSV_ENUMERIC, a_row ? ra : rb,
				    "its kernel value with %s %zu is not finite "
				    "(found %g): feature values too large for this "
				    "kernel (rescale the data)", a_row ? bname : aname,
				    a_row ? rb : ra, K[i + j * na]);
	}
	return lsv_fail(err, LSV_ENUMERIC,
			"kernel value of %s %zu and %s %zu is not finite (found "
			"%g): feature values too large for this kernel (rescale "
			"the data)", aname, ra, bname, rb, K[i + j * na]);
}

lsv_status lsv_kernel_matrix(const lsv_kernel *k, const lsv_data *a,
			     const size_t *ia, size_t na, const lsv_data *b,
			     const size_t *ib, size_t nb, double *K,
			     lsv_error *err)
{
	return lsv_kernel_matrix_named(k, a, ia, na, b, ib, nb, K, "row", "row",
				       err);
}

lsv_status lsv_kernel_matrix_named(const lsv_kernel *k, const lsv_data *a,
				   const size_t *ia, size_t na,
				   const lsv_data *b, const size_t *ib,
				   size_t nb, double *K, const char *aname,
				   const char *bname, lsv_error *err)
{
	lsv_fmap f;
	lsv_status st;
	double *B = NULL, *A = NULL, *na2 = NULL, *nb2 = NULL;
	size_t r0, i, j;
	const double one = 1.0, zero = 0.0;
	int sparse;

	if ((st = lsv_kernel_check(k, err)) != LSV_OK)
		return st;
	if (na == 0 || nb == 0)
		return LSV_OK;
	if (k->type == LSV_KERNEL_PRECOMPUTED)
		return lsv_precomputed_matrix(a, ia, na, b, ib, nb, K, aname,
					      bname, err);
	if (na > INT_MAX || nb > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"kernel matrix %zu x %zu: at most %d rows per side",
				na, nb, INT_MAX);
	if ((st = lsv_fmap_build(b, ib, nb, &f, err)) != LSV_OK)
		return st;
	if (f.m > INT_MAX || (f.m > 0 && nb > ((size_t)1 << 40) / 8 / f.m)) {
		lsv_fmap_free(&f);
		return lsv_fail(err, LSV_ETOOBIG,
				"kernel: %zu rows x %zu features are too many to "
				"densify", nb, f.m);
	}
	sparse = f.m > 0 && sparse_enough(b, ib, nb, &f);
	if (!sparse) {
		B = malloc((nb * f.m + 1) * sizeof *B);
		A = malloc((ROWS * f.m + 1) * sizeof *A);
	}
	na2 = malloc(na * sizeof *na2);
	nb2 = malloc(nb * sizeof *nb2);
	if ((!sparse && (!B || !A)) || !na2 || !nb2) {
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the kernel's dense blocks (%zu bytes)",
			      (nb + ROWS) * f.m * sizeof(double));
		goto done;
	}
	if (!sparse)
		densify(b, ib, 0, nb, &f, B);
	for (i = 0; i < na; i++)
		na2[i] = sqnorm(a, ia ? ia[i] : i);
	for (j = 0; j < nb; j++)
		nb2[j] = sqnorm(b, ib ? ib[j] : j);
	/* |u - v|^2 = |u|^2 + |v|^2 - 2 u'v needs finite norms. */
	for (i = 0; i < na + nb && k->type == LSV_KERNEL_RBF; i++) {
		int in_a = i < na;
		size_t r = in_a ? i : i - na;
		if (!isfinite(in_a ? na2[r] : nb2[r])) {
			const size_t *ix = in_a ? ia : ib;
			const char *name = in_a ? aname : bname;
			size_t at = (ix ? ix[r] : r) + 1;
			/* a data row's failure is the row's (file:line) */
			st = strcmp(name, "row") == 0
			     ? lsv_fail_row(err, LSV_ENUMERIC, at, "its squared "
					    "norm overflows a double: feature "
					    "values too large for the RBF kernel "
					    "(rescale the data)")
			     : lsv_fail(err, LSV_ENUMERIC, "%s %zu: its squared "
					"norm overflows a double: feature values "
					"too large for the RBF kernel (rescale the "
					"data)", name, at);
			goto done;
		}
	}

	if (sparse && (st = sparse_products(a, ia, na, b, ib, nb, &f, K,
					    err)) != LSV_OK)
		goto done;
	for (r0 = 0; r0 < na && !sparse; r0 += ROWS) {
		size_t cnt = na - r0 < ROWS ? na - r0 : ROWS;
		int M = (int)cnt, N = (int)nb, D = (int)f.m, LDK = (int)na;
		if (f.m > 0) {
			densify(a, ia, r0, cnt, &f, A);
			/* K[r0.., :] = A^T B */
			dgemm_("T", "N", &M, &N, &D, &one, A, &D, B, &D, &zero,
			       K + r0, &LDK, 1, 1);
		} else {
			for (j = 0; j < nb; j++)
				memset(K + r0 + j * na, 0, cnt * sizeof *K);
		}
	}
	/* Elementwise map of the inner products; any value not finite
	 * makes the whole matrix an error. */
	for (j = 0; j < nb && st == LSV_OK; j++) {
		double *c = K + j * na, bad = 0.0, ip_bad = NAN;
		size_t i_bad = 0;
		int found = 0;
		switch (k->type) {
		case LSV_KERNEL_LINEAR:
		case LSV_KERNEL_PRECOMPUTED:  /* (returned above) */
			for (i = 0; i < na; i++)
				bad += c[i] - c[i];  /* NaN if some c[i] is not finite */
			break;
		case LSV_KERNEL_POLY:
			for (i = 0; i < na; i++) {
				double v = pow(k->gamma * c[i] + k->coef0, k->degree);
				if (!isfinite(v) && !found)  /* the first one */
					ip_bad = c[i], i_bad = i, found = 1;
				c[i] = v;
				bad += c[i] - c[i];
			}
			break;
		case LSV_KERNEL_RBF:
			/* Norms finite: d2 is finite or +inf, c[i] in [0, 1]. */
			for (i = 0; i < na; i++) {
				double d2 = na2[i] + nb2[j] - 2.0 * c[i];
				c[i] = exp(-k->gamma * (d2 > 0.0 ? d2 : 0.0));
			}
			break;
		}
		if (bad != 0.0 || bad != bad) {
			for (i = 0; i < na && isfinite(c[i]); i++)
				;
			if (found)
				i = i_bad;
			st = not_finite(k, K, na, i < na ? i : 0, j, ip_bad, ia, ib,
					aname, bname, err);
		}
	}
done:
	lsv_fmap_free(&f);
	free(A);
	free(B);
	free(na2);
	free(nb2);
	return st;
}

lsv_status lsv_mean_sqdist(const lsv_data *x, double *out, lsv_error *err)
{
	lsv_fmap fm;
	double *mu, mu2 = 0.0, ss = 0.0;
	size_t i, q, j;
	lsv_status st;

	*out = 0.0;
	for (i = 0; i < x->n; i++) {
		double r = 0.0;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
			r += x->val[q] * x->val[q];
		if (!isfinite(r))
			return lsv_fail_row(err, LSV_EINVAL, i + 1,
					    "its squared norm overflows a double: "
					    "feature values too large for distances "
					    "(rescale the data)");
	}
	if (x->n < 2)
		return LSV_OK;
	if ((st = lsv_fmap_build(x, NULL, 0, &fm, err)) != LSV_OK)
		return st;
	mu = calloc(fm.m ? fm.m : 1, sizeof *mu);
	if (mu == NULL) {
		lsv_fmap_free(&fm);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the mean of %zu features", fm.m);
	}
	for (q = 0; q < x->nnz; q++)
		mu[lsv_fmap_get(&fm, x->col[q])] += x->val[q];
	for (j = 0; j < fm.m; j++) {
		mu[j] /= (double)x->n;
		mu2 += mu[j] * mu[j];
	}
	/* |x_i - mu|^2 = sum over stored features of (x - mu)^2, plus mu^2
	 * for each absent one: |mu|^2 less the stored features' mu^2 (0 for
	 * a row that stores every feature, so dense rows far from the origin
	 * keep every digit) */
	for (i = 0; i < x->n; i++) {
		double r = 0.0, absent = mu2;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			double m = mu[lsv_fmap_get(&fm, x->col[q])], d = x->val[q] - m;
			r += d * d;
			absent -= m * m;
		}
		if (x->rowptr[i + 1] - x->rowptr[i] < fm.m && absent > 0.0)
			r += absent;
		ss += r;
	}
	free(mu);
	lsv_fmap_free(&fm);
	*out = 2.0 * ss / (double)(x->n - 1);
	if (!isfinite(*out))
		return lsv_fail(err, LSV_ENUMERIC,
				"the mean squared distance between rows overflows "
				"a double: rescale the data");
	return LSV_OK;
}
