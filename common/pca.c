/*
 * pca.c -- principal component analysis, for the paper's USPS protocol
 * (JMLR 2006 Section 5.2: images projected on their first 100 principal
 * components).
 *
 * Covariance C = 1/n sum_i (x_i - m)(x_i - m)' = 1/n X'X - m m', the X'X part
 * accumulated by dsyrk over blocks of densified rows (O(block d + d^2)
 * memory, never the whole n x d matrix); then all eigenpairs of the d x d
 * symmetric C by dsyev, the k largest kept.  The sign of an eigenvector is
 * arbitrary, so each is flipped to make its largest-magnitude entry
 * positive: the same data gives the same projection with any LAPACK.
 *
 * Fewer rows than features (text: 1500 rows of 11959 words): dsyev of the
 * d x d C costs O(d^3) (over 9 minutes at d = 11959, stopped), so the
 * n x n Gram matrix G = 1/n X_c X_c' (X_c the centered rows) is taken
 * apart instead.  G and C share their nonzero eigenvalues: G u = lambda u
 * gives C (X_c' u) = 1/n X_c' X_c X_c' u = lambda X_c' u, and
 * |X_c' u|^2 = n lambda, so v = X_c' u / sqrt(n lambda) is C's unit
 * eigenvector.  O(n^2 d + n^3).
 * A component of eigenvalue 0 to rounding has no such v (C's null space
 * is arbitrary there): then C itself is taken apart, as above.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

#define ROWS 512

void lsv_pca_free(lsv_pca *p)
{
	if (p == NULL)
		return;
	free(p->mean);
	free(p->V);
	free(p->variance);
	free(p);
}

/* Rows [r0, r0 + cnt) of x, dense over features 0..d-1, minus mean: the
 * block is d x cnt column-major (one row of the data per column). */
static void centered(const lsv_data *x, size_t r0, size_t cnt, size_t d,
		     const double *mean, double *B)
{
	size_t i, p;
	for (i = 0; i < cnt; i++) {
		double *col = B + i * d;
		memcpy(col, mean, d * sizeof *col);
		for (p = 0; p < d; p++)
			col[p] = -col[p];
		for (p = x->rowptr[r0 + i]; p < x->rowptr[r0 + i + 1]; p++)
			if ((size_t)x->col[p] < d)
				col[x->col[p]] += x->val[p];
	}
}

/* A fit's memory failure, named by its covariance's size. */
static lsv_status pca_nomem(lsv_error *err, size_t d)
{
	return lsv_fail(err, LSV_ENOMEM,
			"out of memory for PCA (%zu features: %zu bytes)", d,
			d * d * sizeof(double));
}

/* An empty fit of k components on d features, its mean zeroed; NULL when
 * out of memory. */
static lsv_pca *pca_new(size_t d, size_t k)
{
	lsv_pca *pc = calloc(1, sizeof *pc);

	if (pc == NULL)
		return NULL;
	pc->d = d;
	pc->k = k;
	pc->mean = calloc(d, sizeof *pc->mean);
	pc->V = malloc(d * k * sizeof *pc->V);
	pc->variance = malloc(k * sizeof *pc->variance);
	if (!pc->mean || !pc->V || !pc->variance) {
		lsv_pca_free(pc);
		return NULL;
	}
	return pc;
}

/* mean (d, zeroed) = 1/n sum_i x_i */
static void feature_mean(const lsv_data *x, double *mean)
{
	size_t i, j;

	for (i = 0; i < x->n; i++)
		for (j = x->rowptr[i]; j < x->rowptr[i + 1]; j++)
			mean[x->col[j]] += x->val[j];
	for (j = 0; j < x->dim; j++)
		mean[j] /= (double)x->n;
}

/* C (upper triangle of d x d, zeroed) = 1/n sum (x - m)(x - m)', block
 * by block of ROWS rows (B: d x ROWS scratch), each centered first: no
 * cancellation between X'X and n m m'. */
static void covariance(const lsv_data *x, const double *mean, size_t d,
		       double *B, double *C)
{
	size_t n = x->n, r0;
	int D = (int)d;

	for (r0 = 0; r0 < n; r0 += ROWS) {
		size_t cnt = n - r0 < ROWS ? n - r0 : ROWS;
		int K = (int)cnt;
		double alpha = 1.0 / (double)n, one = 1.0;
		centered(x, r0, cnt, d, mean, B);
		dsyrk_("U", "N", &D, &K, &alpha, B, &D, &one, C, &D, 1, 1);
	}
}

/* The d x d symmetric C's eigenpairs in place (dsyev, upper triangle):
 * w ascending, the eigenvectors C's columns. */
static lsv_status covariance_eigen(double *C, size_t d, double *w,
				   lsv_error *err)
{
	int D = (int)d, info, lwork = -1;
	double wq, *work;

	dsyev_("V", "U", &D, C, &D, w, &wq, &lwork, &info, 1, 1);
	lwork = (int)wq;
	work = malloc((size_t)(lwork > 0 ? lwork : 1) * sizeof *work);
	if (work == NULL)  /* d: the features, or the rows of the Gram route */
		return lsv_fail(err, LSV_ENOMEM, "out of memory for PCA's "
				"eigensolver (%zu x %zu)", d, d);
	dsyev_("V", "U", &D, C, &D, w, work, &lwork, &info, 1, 1);
	free(work);
	if (info != 0)
		return lsv_fail(err, LSV_ENUMERIC,
				"the covariance eigensolver failed (LAPACK dsyev "
				"info %d)", info);
	return LSV_OK;
}

/* v (d) flipped so that its largest-magnitude entry is positive (see
 * the top). */
static void fix_sign(double *v, size_t d)
{
	double big = 0.0, sign = 1.0;
	size_t i;

	for (i = 0; i < d; i++)
		if (fabs(v[i]) > big) {
			big = fabs(v[i]);
			sign = v[i] < 0 ? -1.0 : 1.0;
		}
	for (i = 0; i < d; i++)
		v[i] *= sign;
}

/* pc's k components from C's eigenpairs (w ascending): the last k,
 * largest first, each signed by fix_sign; a variance below 0 is
 * rounding: 0. */
static void keep_largest(const double *C, const double *w, lsv_pca *pc)
{
	size_t d = pc->d, j;

	for (j = 0; j < pc->k; j++) {
		memcpy(pc->V + j * d, C + (d - 1 - j) * d, d * sizeof *pc->V);
		fix_sign(pc->V + j * d, d);
		pc->variance[j] = w[d - 1 - j] > 0 ? w[d - 1 - j] : 0.0;
	}
}

/* G (upper triangle of n x n) = 1/n X_c X_c', block pair by block pair
 * of ROWS rows (Ba, Bb: d x ROWS scratch each, re-centered per pair:
 * O(n d) more work a block row, beside the O(ROWS n d) of its products). */
static void gram(const lsv_data *x, const double *mean, size_t d,
		 double *Ba, double *Bb, double *G)
{
	size_t n = x->n, ra, rb;
	int D = (int)d, N = (int)n;
	double alpha = 1.0 / (double)n, zero = 0.0;

	for (ra = 0; ra < n; ra += ROWS) {
		int ca = (int)(n - ra < ROWS ? n - ra : ROWS);
		centered(x, ra, (size_t)ca, d, mean, Ba);
		for (rb = 0; rb <= ra; rb += ROWS) {
			int cb = (int)(n - rb < ROWS ? n - rb : ROWS);
			const double *B = Ba;
			if (rb != ra) {
				centered(x, rb, (size_t)cb, d, mean, Bb);
				B = Bb;
			}
			/* G[rb.., ra..] = 1/n Bb' Ba */
			dgemm_("T", "N", &cb, &ca, &D, &alpha, B, &D, Ba, &D,
			       &zero, G + rb + ra * n, &N, 1, 1);
		}
	}
}

/* pc's k components through G (see the top): U holds G's eigenvectors
 * (w ascending); its k last columns, largest first, are scaled by
 * 1/sqrt(n lambda) into Uk (n x k) and V = X_c' Uk summed block by block
 * (B: d x ROWS scratch).  Returns 0, leaving pc unset, when a kept
 * eigenvalue is 0 to rounding (at most 1e-10 of the largest). */
static int components_from_gram(const lsv_data *x, const double *U,
				const double *w, double *Uk, double *B,
				lsv_pca *pc)
{
	size_t n = x->n, d = pc->d, k = pc->k, r0, i, j;
	int D = (int)d, K = (int)k, N = (int)n;
	double one = 1.0;

	for (j = 0; j < k; j++) {
		double lambda = w[n - 1 - j];
		if (!(lambda > 1e-10 * w[n - 1]))
			return 0;
		for (i = 0; i < n; i++)
			Uk[i + j * n] = U[i + (n - 1 - j) * n] /
					sqrt((double)n * lambda);
		pc->variance[j] = lambda;
	}
	memset(pc->V, 0, d * k * sizeof *pc->V);
	for (r0 = 0; r0 < n; r0 += ROWS) {
		int cnt = (int)(n - r0 < ROWS ? n - r0 : ROWS);
		centered(x, r0, (size_t)cnt, d, pc->mean, B);
		/* V += B Uk[r0.., :] */
		dgemm_("N", "N", &D, &K, &cnt, &one, B, &D, Uk + r0, &N, &one,
		       pc->V, &D, 1, 1);
	}
	for (j = 0; j < k; j++)
		fix_sign(pc->V + j * d, d);
	return 1;
}

/* The Gram route of the top: pc's components when G's kept eigenvalues
 * are not 0 to rounding (*done 1), else *done 0 and C's route is the
 * caller's; pc->total = trace(G) = trace(C) in either case. */
static lsv_status fit_by_gram(const lsv_data *x, lsv_pca *pc, int *done,
			      lsv_error *err)
{
	size_t n = x->n, d = pc->d, j;
	double *G = calloc(n * n, sizeof *G), *w = malloc(n * sizeof *w);
	double *Ba = malloc(d * ROWS * sizeof *Ba);
	double *Bb = malloc(d * ROWS * sizeof *Bb);
	double *Uk = malloc(n * pc->k * sizeof *Uk);
	lsv_status st = LSV_OK;

	*done = 0;
	if (G == NULL || w == NULL || Ba == NULL || Bb == NULL || Uk == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for PCA (%zu rows "
			      "of %zu features: %zu bytes)", n, d,
			      (n * n + 2 * d * ROWS) * sizeof(double));
		goto done;
	}
	gram(x, pc->mean, d, Ba, Bb, G);
	for (j = 0, pc->total = 0.0; j < n; j++)
		pc->total += G[j + j * n];
	if (isfinite(pc->total) &&
	    (st = covariance_eigen(G, n, w, err)) == LSV_OK)
		*done = components_from_gram(x, G, w, Uk, Ba, pc);
done:
	free(G);
	free(w);
	free(Ba);
	free(Bb);
	free(Uk);
	return st;
}

/* C's route of the top: pc's components and total from the d x d
 * covariance. */
static lsv_status fit_by_covariance(const lsv_data *x, lsv_pca *pc,
				    lsv_error *err)
{
	size_t d = pc->d, j;
	double *C = calloc(d * d, sizeof *C);
	double *B = malloc(d * ROWS * sizeof *B), *w = malloc(d * sizeof *w);
	lsv_status st = LSV_OK;

	if (C == NULL || B == NULL || w == NULL) {
		st = pca_nomem(err, d);
		goto done;
	}
	covariance(x, pc->mean, d, B, C);
	for (j = 0, pc->total = 0.0; j < d; j++)
		pc->total += C[j + j * d];
	if (isfinite(pc->total) && (st = covariance_eigen(C, d, w, err)) ==
	    LSV_OK)
		keep_largest(C, w, pc);
done:
	free(C);
	free(B);
	free(w);
	return st;
}

lsv_status lsv_pca_fit(const lsv_data *x, size_t k, lsv_pca **out,
		       lsv_error *err)
{
	size_t d = x->dim;
	lsv_pca *pc = NULL;
	lsv_status st = LSV_OK;
	int done = 0;

	*out = NULL;
	if (k < 1 || k > d)
		return lsv_fail(err, LSV_EINVAL,
				"%zu components out of range (expected 1..%zu, the "
				"number of features)", k, d);
	if (d > 20000)
		return lsv_fail(err, LSV_ETOOBIG,
				"%zu features: the %zu x %zu covariance is too large "
				"(at most 20000 features)", d, d, d);
	if ((pc = pca_new(d, k)) == NULL)
		return pca_nomem(err, d);
	feature_mean(x, pc->mean);
	if (x->n < d)
		st = fit_by_gram(x, pc, &done, err);
	if (st == LSV_OK && !done && isfinite(pc->total))
		st = fit_by_covariance(x, pc, err);
	/* The reader takes values up to about 1e308, but their squares (and
	 * sums) overflow past about 1e154: a covariance with an infinite or
	 * NaN trace gives NaN components, never a projection to write.  A
	 * finite trace bounds every entry (|C_ij| <= sqrt(C_ii C_jj)). */
	if (st == LSV_OK && !isfinite(pc->total))
		st = lsv_fail(err, LSV_ENUMERIC,
			      "the features' variance overflows a double (values "
			      "near 1e154 or beyond, or their sums): scale the "
			      "data");
	if (st == LSV_OK) {
		*out = pc;
		pc = NULL;
	}
	lsv_pca_free(pc);
	return st;
}

lsv_status lsv_pca_project(const lsv_pca *pc, const lsv_data *x,
			   lsv_data **out, lsv_error *err)
{
	size_t n = x->n, d = pc->d, k = pc->k, r0, i, j;
	lsv_data *y = calloc(1, sizeof *y);
	double *B = malloc(d * ROWS * sizeof *B), *Y = malloc(k * ROWS * sizeof *Y);
	int D = (int)d, K = (int)k;
	const double one = 1.0, zero = 0.0;

	*out = NULL;
	if (y != NULL) {
		y->rowptr = malloc((n + 1) * sizeof *y->rowptr);
		y->col = malloc((n * k + 1) * sizeof *y->col);
		y->val = malloc((n * k + 1) * sizeof *y->val);
		y->y = malloc((n + 1) * sizeof *y->y);
	}
	if (!y || !B || !Y || !y->rowptr || !y->col || !y->val || !y->y) {
		lsv_data_free(y);
		free(B);
		free(Y);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the projection (%zu rows x %zu)",
				n, k);
	}
	y->n = n;
	y->l = x->l;
	y->dim = k;
	y->unlabeled = x->unlabeled;
	memcpy(y->y, x->y, n * sizeof *y->y);
	for (r0 = 0; r0 < n; r0 += ROWS) {
		size_t cnt = n - r0 < ROWS ? n - r0 : ROWS;
		int N = (int)cnt;
		centered(x, r0, cnt, d, pc->mean, B);
		/* Y (k x cnt) = V' B */
		dgemm_("T", "N", &K, &N, &D, &one, pc->V, &D, B, &D, &zero, Y, &K,
		       1, 1);
		for (i = 0; i < cnt; i++) {
			y->rowptr[r0 + i] = y->nnz;
			for (j = 0; j < k; j++) {
				double v = Y[j + i * k];
				if (!isfinite(v)) {
					free(B);
					free(Y);
					lsv_data_free(y);
					return lsv_fail_row(err, LSV_ENUMERIC,
							    r0 + i + 1, "its component "
							    "%zu overflows a double "
							    "(values far beyond those it "
							    "was fitted on)", j + 1);
				}
				if (v == 0.0)
					continue;
				y->col[y->nnz] = (int)j;
				y->val[y->nnz++] = v;
			}
		}
	}
	y->rowptr[n] = y->nnz;
	free(B);
	free(Y);
	*out = y;
	return LSV_OK;
}
