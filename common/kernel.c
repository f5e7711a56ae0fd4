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

/* Rows ia[0..na) of a (0..na when ia is NULL) packed over the features of
 * map f, the features it maps only: row i's in col[start[i] ..
 * start[i + 1]), mapped, with their values in val. */
typedef struct {
	size_t *start;     /* na + 1 */
	int *col;          /* the mapped features */
	double *val;       /* their values */
} packed_rows;

static void packed_free(packed_rows *P)
{
	free(P->start);
	free(P->col);
	free(P->val);
}

static lsv_status pack_rows(const lsv_data *a, const size_t *ia, size_t na,
			    const lsv_fmap *f, packed_rows *P, lsv_error *err)
{
	size_t i, p, q = 0, nnz = 0;

	P->start = malloc((na + 1) * sizeof *P->start);
	for (i = 0; i < na; i++) {
		size_t r = ia ? ia[i] : i;
		nnz += a->rowptr[r + 1] - a->rowptr[r];
	}
	P->col = malloc((nnz + 1) * sizeof *P->col);
	P->val = malloc((nnz + 1) * sizeof *P->val);
	if (P->start == NULL || P->col == NULL || P->val == NULL) {
		packed_free(P);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the kernel");
	}
	for (i = 0; i < na; i++) {
		size_t r = ia ? ia[i] : i;
		P->start[i] = q;
		for (p = a->rowptr[r]; p < a->rowptr[r + 1]; p++) {
			int c = lsv_fmap_get(f, a->col[p]);
			if (c >= 0) {
				P->col[q] = c;
				P->val[q++] = a->val[p];
			}
		}
	}
	P->start[na] = q;
	return LSV_OK;
}

/* K[i + j na] = a_i'b_j by sparse dot products over the features of map
 * f (a feature b never uses multiplies zeros only): a's rows packed
 * (pack_rows), b's row j scattered into a dense w, each a_i's values
 * gathered from it.  Columns of K spread over OpenMP threads, each value
 * computed by one thread in one order, so the result does not depend on
 * the number of threads. */
static lsv_status sparse_products(const lsv_data *a, const size_t *ia,
				  size_t na, const lsv_data *b,
				  const size_t *ib, size_t nb,
				  const lsv_fmap *f, double *K, lsv_error *err)
{
	packed_rows P;
	const size_t *start;
	const int *ac;
	const double *av;
	int failed = 0;
	long j;
	lsv_status st;

	if ((st = pack_rows(a, ia, na, f, &P, err)) != LSV_OK)
		return st;
	start = P.start;
	ac = P.col;
	av = P.val;
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
	packed_free(&P);
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

/* One side of a kernel matrix: rows idx[0..n) of x (idx NULL: the first
 * n), called name in messages ("row": a data row, whose failures are its
 * own, file:line). */
typedef struct {
	const lsv_data *x;
	const size_t *idx;
	size_t n;
	const char *name;
} kernel_side;

/* The buffers of one kernel matrix K (a's rows by b's), over the features
 * f that b's rows use. */
typedef struct {
	lsv_fmap f;
	int sparse;         /* inner products by sparse_products, not dgemm */
	double *B;          /* b's rows dense, f.m x nb (dgemm only) */
	double *A;          /* ROWS rows of a dense, f.m x ROWS (dgemm only) */
	double *na2, *nb2;  /* |a_i|^2 and |b_j|^2 over the full sparse rows */
} kernel_work;

static void kernel_work_free(kernel_work *W)
{
	lsv_fmap_free(&W->f);
	free(W->A);
	free(W->B);
	free(W->na2);
	free(W->nb2);
}

/* The feature map of b's rows; LSV_ETOOBIG (and no map) when b's rows
 * dense over it would pass 2^40 bytes or the map INT_MAX features (the
 * dgemm's dimension). */
static lsv_status kernel_features(const kernel_side *b, lsv_fmap *f,
				  lsv_error *err)
{
	lsv_status st;

	if ((st = lsv_fmap_build(b->x, b->idx, b->n, f, err)) != LSV_OK)
		return st;
	if (f->m > INT_MAX || (f->m > 0 && b->n > ((size_t)1 << 40) / 8 / f->m)) {
		lsv_fmap_free(f);
		return lsv_fail(err, LSV_ETOOBIG,
				"kernel: %zu rows x %zu features are too many to "
				"densify", b->n, f->m);
	}
	return LSV_OK;
}

/* Choose sparse or dense products (sparse_enough) and allocate W's
 * buffers for them and the norms. */
static lsv_status kernel_alloc(kernel_work *W, size_t na,
			       const kernel_side *b, lsv_error *err)
{
	size_t nb = b->n, m = W->f.m;

	W->sparse = m > 0 && sparse_enough(b->x, b->idx, nb, &W->f);
	if (!W->sparse) {
		W->B = malloc((nb * m + 1) * sizeof *W->B);
		W->A = malloc((ROWS * m + 1) * sizeof *W->A);
	}
	W->na2 = malloc(na * sizeof *W->na2);
	W->nb2 = malloc(nb * sizeof *W->nb2);
	if ((!W->sparse && (!W->B || !W->A)) || !W->na2 || !W->nb2)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the kernel's dense blocks (%zu bytes)",
				(nb + ROWS) * m * sizeof(double));
	return LSV_OK;
}

/* norm[r] = |row r of side s|^2, over its full sparse row. */
static void side_norms(const kernel_side *s, double *norm)
{
	size_t r;

	for (r = 0; r < s->n; r++)
		norm[r] = sqnorm(s->x, s->idx ? s->idx[r] : r);
}

/* The RBF's |u - v|^2 = |u|^2 + |v|^2 - 2 u'v needs finite norms: the
 * first row of side s whose squared norm overflowed is an error. */
static lsv_status side_norms_finite(const kernel_side *s, const double *norm,
				    lsv_error *err)
{
	size_t r, at;

	for (r = 0; r < s->n && isfinite(norm[r]); r++)
		;
	if (r == s->n)
		return LSV_OK;
	at = (s->idx ? s->idx[r] : r) + 1;
	if (strcmp(s->name, "row") == 0)  /* a data row's: file:line */
		return lsv_fail_row(err, LSV_ENUMERIC, at, "its squared norm "
				    "overflows a double: feature values too "
				    "large for the RBF kernel (rescale the "
				    "data)");
	return lsv_fail(err, LSV_ENUMERIC, "%s %zu: its squared norm overflows "
			"a double: feature values too large for the RBF kernel "
			"(rescale the data)", s->name, at);
}

/* K = A^T B by dgemm: b's rows densified once, a's ROWS at a time (with no
 * feature at all, K = 0). */
static void dense_products(kernel_work *W, const kernel_side *a,
			   const kernel_side *b, double *K)
{
	const double one = 1.0, zero = 0.0;
	size_t na = a->n, nb = b->n, r0, j;

	densify(b->x, b->idx, 0, nb, &W->f, W->B);
	for (r0 = 0; r0 < na; r0 += ROWS) {
		size_t cnt = na - r0 < ROWS ? na - r0 : ROWS;
		int M = (int)cnt, N = (int)nb, D = (int)W->f.m, LDK = (int)na;
		if (W->f.m > 0) {
			densify(a->x, a->idx, r0, cnt, &W->f, W->A);
			/* K[r0.., :] = A^T B */
			dgemm_("T", "N", &M, &N, &D, &one, W->A, &D, W->B, &D,
			       &zero, K + r0, &LDK, 1, 1);
		} else {
			for (j = 0; j < nb; j++)
				memset(K + r0 + j * na, 0, cnt * sizeof *K);
		}
	}
}

/* A value that is not finite, found by kernel_map_column: its row i
 * and, for the polynomial, its inner product ip (NaN if none). */
typedef struct {
	int found;
	size_t i;
	double ip;
} kernel_bad;

/*
 * Column c (na inner products u'v against b's row whose squared norm is
 * nb2j) mapped in place to kernel values: linear as it is, polynomial
 * (gamma u'v + coef0)^degree, RBF exp(-gamma max(0, |u|^2 + |v|^2 -
 * 2 u'v)).  Returns the sum of c[i] - c[i], NaN if some value is not
 * finite; *bad gets the polynomial's first overflowed value.
 */
static double kernel_map_column(const lsv_kernel *k, double *c, size_t na,
				const double *na2, double nb2j,
				kernel_bad *bad)
{
	double sum = 0.0;
	size_t i;

	switch (k->type) {
	case LSV_KERNEL_LINEAR:
	case LSV_KERNEL_PRECOMPUTED:  /* (never mapped) */
		for (i = 0; i < na; i++)
			sum += c[i] - c[i];  /* NaN if some c[i] is not finite */
		break;
	case LSV_KERNEL_POLY:
		for (i = 0; i < na; i++) {
			double v = pow(k->gamma * c[i] + k->coef0, k->degree);
			if (!isfinite(v) && !bad->found) {  /* the first one */
				bad->ip = c[i];
				bad->i = i;
				bad->found = 1;
			}
			c[i] = v;
			sum += c[i] - c[i];
		}
		break;
	case LSV_KERNEL_RBF:
		/* Norms finite: d2 is finite or +inf, c[i] in [0, 1]. */
		for (i = 0; i < na; i++) {
			double d2 = na2[i] + nb2j - 2.0 * c[i];
			c[i] = exp(-k->gamma * (d2 > 0.0 ? d2 : 0.0));
		}
		break;
	}
	return sum;
}

/* Elementwise map of the inner products in K, column by column; the first
 * column with a value not finite makes the whole matrix an error
 * (not_finite names the pair: the polynomial's first overflow, else the
 * column's first value not finite). */
static lsv_status kernel_map(const lsv_kernel *k, const kernel_work *W,
			     const kernel_side *a, const kernel_side *b,
			     double *K, lsv_error *err)
{
	size_t na = a->n, i, j;

	for (j = 0; j < b->n; j++) {
		double *c = K + j * na;
		kernel_bad bad = { 0, 0, NAN };
		double sum = kernel_map_column(k, c, na, W->na2, W->nb2[j], &bad);
		if (sum == 0.0)  /* (false for NaN) */
			continue;
		for (i = 0; i < na && isfinite(c[i]); i++)
			;
		if (bad.found)
			i = bad.i;
		return not_finite(k, K, na, i < na ? i : 0, j, bad.ip, a->idx,
				  b->idx, a->name, b->name, err);
	}
	return LSV_OK;
}

lsv_status lsv_kernel_matrix(const lsv_kernel *k, const lsv_data *a,
			     const size_t *ia, size_t na, const lsv_data *b,
			     const size_t *ib, size_t nb, double *K,
			     lsv_error *err)
{
	return lsv_kernel_matrix_named(k, a, ia, na, b, ib, nb, K, "row", "row",
				       err);
}

/*
 * K[i + j na] = k(a_i, b_j): the checks, then b's feature map, the norms
 * (finite, for the RBF), the inner products (sparse or by dgemm) and
 * their elementwise map.  A precomputed kernel is looked up instead.
 */
lsv_status lsv_kernel_matrix_named(const lsv_kernel *k, const lsv_data *a,
				   const size_t *ia, size_t na,
				   const lsv_data *b, const size_t *ib,
				   size_t nb, double *K, const char *aname,
				   const char *bname, lsv_error *err)
{
	const kernel_side sa = { a, ia, na, aname }, sb = { b, ib, nb, bname };
	kernel_work W;
	lsv_status st;

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
	memset(&W, 0, sizeof W);
	if ((st = kernel_features(&sb, &W.f, err)) != LSV_OK)
		return st;
	if ((st = kernel_alloc(&W, na, &sb, err)) != LSV_OK)
		goto done;
	side_norms(&sa, W.na2);
	side_norms(&sb, W.nb2);
	if (k->type == LSV_KERNEL_RBF &&
	    ((st = side_norms_finite(&sa, W.na2, err)) != LSV_OK ||
	     (st = side_norms_finite(&sb, W.nb2, err)) != LSV_OK))
		goto done;
	if (W.sparse)
		st = sparse_products(a, ia, na, b, ib, nb, &W.f, K, err);
	else
		dense_products(&W, &sa, &sb, K);
	if (st == LSV_OK)
		st = kernel_map(k, &W, &sa, &sb, K, err);
done:
	kernel_work_free(&W);
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
