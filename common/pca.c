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

lsv_status lsv_pca_fit(const lsv_data *x, size_t k, lsv_pca **out,
		       lsv_error *err)
{
	size_t d = x->dim, n = x->n, i, j, r0;
	lsv_pca *pc = NULL;
	double *C = NULL, *B = NULL, *w = NULL, *work = NULL, wq;
	int D, info, lwork = -1;
	lsv_status st = LSV_OK;

	*out = NULL;
	if (k < 1 || k > d)
		return lsv_fail(err, LSV_EINVAL,
				"%zu components out of range (expected 1..%zu, the "
				"number of features)", k, d);
	if (d > 20000)
		return lsv_fail(err, LSV_ETOOBIG,
				"%zu features: the %zu x %zu covariance is too large "
				"(at most 20000 features)", d, d, d);
	D = (int)d;
	pc = calloc(1, sizeof *pc);
	C = calloc(d * d, sizeof *C);
	B = malloc(d * ROWS * sizeof *B);
	w = malloc(d * sizeof *w);
	if (pc == NULL || C == NULL || B == NULL || w == NULL)
		goto nomem;
	pc->d = d;
	pc->k = k;
	pc->mean = calloc(d, sizeof *pc->mean);
	pc->V = malloc(d * k * sizeof *pc->V);
	pc->variance = malloc(k * sizeof *pc->variance);
	if (!pc->mean || !pc->V || !pc->variance)
		goto nomem;
	for (i = 0; i < n; i++)
		for (j = x->rowptr[i]; j < x->rowptr[i + 1]; j++)
			pc->mean[x->col[j]] += x->val[j];
	for (j = 0; j < d; j++)
		pc->mean[j] /= (double)n;
	/* C = 1/n sum (x - m)(x - m)', block by block (centered first: no
	 * cancellation between X'X and n m m'). */
	for (r0 = 0; r0 < n; r0 += ROWS) {
		size_t cnt = n - r0 < ROWS ? n - r0 : ROWS;
		int K = (int)cnt;
		double alpha = 1.0 / (double)n, one = 1.0;
		centered(x, r0, cnt, d, pc->mean, B);
		dsyrk_("U", "N", &D, &K, &alpha, B, &D, &one, C, &D, 1, 1);
	}
	for (j = 0, pc->total = 0.0; j < d; j++)
		pc->total += C[j + j * d];
	/* The reader takes values up to about 1e308, but their squares (and
	 * sums) overflow past about 1e154: a covariance with an infinite or
	 * NaN trace gives NaN components, never a projection to write.  A
	 * finite trace bounds every entry (|C_ij| <= sqrt(C_ii C_jj)). */
	if (!isfinite(pc->total)) {
		st = lsv_fail(err, LSV_ENUMERIC,
			      "the features' variance overflows a double (values "
			      "near 1e154 or beyond, or their sums): scale the "
			      "data");
		goto done;
	}
	dsyev_("V", "U", &D, C, &D, w, &wq, &lwork, &info, 1, 1);
	lwork = (int)wq;
	work = malloc((size_t)(lwork > 0 ? lwork : 1) * sizeof *work);
	if (work == NULL)
		goto nomem;
	dsyev_("V", "U", &D, C, &D, w, work, &lwork, &info, 1, 1);
	if (info != 0) {
		st = lsv_fail(err, LSV_ENUMERIC,
			      "the covariance eigensolver failed (LAPACK dsyev info "
			      "%d)", info);
		goto done;
	}
	/* dsyev: ascending eigenvalues; keep the last k, largest first. */
	for (j = 0; j < k; j++) {
		const double *v = C + (d - 1 - j) * d;
		double *o = pc->V + j * d, big = 0.0, sign = 1.0;
		for (i = 0; i < d; i++)
			if (fabs(v[i]) > big) {
				big = fabs(v[i]);
				sign = v[i] < 0 ? -1.0 : 1.0;
			}
		for (i = 0; i < d; i++)
			o[i] = sign * v[i];
		pc->variance[j] = w[d - 1 - j] > 0 ? w[d - 1 - j] : 0.0;
	}
	*out = pc;
	pc = NULL;
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM,
		      "out of memory for PCA (%zu features: %zu bytes)", d,
		      d * d * sizeof(double));
done:
	lsv_pca_free(pc);
	free(C);
	free(B);
	free(w);
	free(work);
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
