/*
 * laplacian.c -- the graph Laplacian as a dense matrix (JMLR 2006, step 3).
 *
 *   L = D - W,  D = diag(sum_j W_ij)                    (unnormalized)
 *   L = I - D^-1/2 W D^-1/2                             (normalized, Remark 3)
 *
 * so that f'Lf = 1/2 sum_ij W_ij (f_i - f_j)^2, or the same with f_i/sqrt(d_i).
 * An isolated node has no term in either sum, so its row and column are 0
 * (in particular the normalized form does not put a 1 on its diagonal, and
 * nothing is divided by its zero degree).  L^p, the iterated Laplacian used
 * for WebKB (p = 3), costs p - 1 dense products.
 *
 * The sparse operator may weigh its rows (lsv_lapop_scale): D L^p D with
 * D = diag(sqrt(w_i)), which is what class-dependent Laplacians need
 * (JMLR 2006 Section 6.2; common/classes.c): on a graph with no edge
 * between classes, L^p is blockdiag(L_c^p) and D is sqrt(w_c) on block c,
 * so D L^p D = blockdiag(w_c L_c^p).  Both sides, not diag(w) L^p: the
 * same matrix on such a graph, but symmetric whatever the graph.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "lapsvm.h"

lsv_status lsv_laplacian_dense(const lsv_graph *g, int normalized, int power,
			       double *L, lsv_error *err)
{
	size_t n = g->n, i, p;
	double *deg, *A = NULL, *B = NULL;
	int it;

	if (power < 1 || power > 100)
		return lsv_fail(err, LSV_EINVAL,
				"Laplacian power %d out of range (expected 1..100)",
				power);
	if (n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "graph of %zu rows is too large", n);
	deg = calloc(n ? n : 1, sizeof *deg);
	if (deg == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu degrees", n);
	for (i = 0; i < n; i++)
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			deg[i] += g->w[p];
	memset(L, 0, n * n * sizeof *L);
	for (i = 0; i < n; i++) {
		if (deg[i] == 0.0)
			continue;
		L[i + i * n] = normalized ? 1.0 : deg[i];
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			size_t j = (size_t)g->col[p];
			double w = g->w[p];
			/* One degree at a time, never their product, which
			 * underflows or overflows for extreme weights. */
			L[i + j * n] = normalized
				? -(w / sqrt(deg[i])) / sqrt(deg[j]) : -w;
		}
	}
	free(deg);
	if (power == 1)
		return LSV_OK;

	/* L^p: A holds L, B the running product. */
	A = malloc(n * n * sizeof *A);
	B = malloc(n * n * sizeof *B);
	if (A == NULL || B == NULL) {
		free(A);
		free(B);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the Laplacian power (%zu bytes)",
				2 * n * n * sizeof(double));
	}
	memcpy(A, L, n * n * sizeof *A);
	for (it = 1; it < power; it++) {
		int N = (int)n;
		const double one = 1.0, zero = 0.0;
		memcpy(B, L, n * n * sizeof *B);
		dgemm_("N", "N", &N, &N, &N, &one, A, &N, B, &N, &zero, L, &N, 1, 1);
	}
	free(A);
	free(B);
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The Laplacian as a sparse operator: L^p X for dense X, never dense L */
/* ------------------------------------------------------------------ */

lsv_status lsv_lapop_init(lsv_lapop *L, const lsv_graph *g, int normalized,
			  int power, lsv_error *err)
{
	size_t n = g->n, i, p;

	memset(L, 0, sizeof *L);
	if (power < 1 || power > 100)
		return lsv_fail(err, LSV_EINVAL,
				"Laplacian power %d out of range (expected 1..100)",
				power);
	L->n = n;
	L->g = g;
	L->normalized = normalized;
	L->power = power;
	L->deg = calloc(n ? n : 1, sizeof *L->deg);
	L->isd = calloc(n ? n : 1, sizeof *L->isd);
	if (L->deg == NULL || L->isd == NULL) {
		lsv_lapop_free(L);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu degrees", n);
	}
	for (i = 0; i < n; i++) {
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			L->deg[i] += g->w[p];
		L->isd[i] = L->deg[i] > 0.0 ? 1.0 / sqrt(L->deg[i]) : 0.0;
	}
	return LSV_OK;
}

lsv_status lsv_lapop_scale(lsv_lapop *L, const double *w, lsv_error *err)
{
	size_t i;
	double *sw = malloc((L->n ? L->n : 1) * sizeof *sw);

	if (sw == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu row weights",
				L->n);
	for (i = 0; i < L->n; i++) {
		if (!(w[i] > 0.0) || !isfinite(w[i])) {
			free(sw);
			return lsv_fail(err, LSV_EINVAL,
					"row %zu: Laplacian weight %g out of range "
					"(expected a finite number > 0)", i + 1, w[i]);
		}
		sw[i] = sqrt(w[i]);
	}
	free(L->sw);
	L->sw = sw;
	return LSV_OK;
}

/* Rows [lo, hi) of y = L x for one column (x whole: a row of L x reads
 * the row's neighbours, anywhere); an isolated row of L is 0. */
static void lap_column(const lsv_lapop *L, const double *x, double *y,
		       size_t lo, size_t hi)
{
	const lsv_graph *g = L->g;
	size_t i, p;
	for (i = lo; i < hi; i++) {
		double acc = 0.0;
		if (L->deg[i] == 0.0) {
			y[i] = 0.0;
			continue;
		}
		if (L->normalized) {
			for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
				acc += g->w[p] * L->isd[g->col[p]] * x[g->col[p]];
			y[i] = x[i] - L->isd[i] * acc;
		} else {
			for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
				acc += g->w[p] * x[g->col[p]];
			y[i] = L->deg[i] * x[i] - acc;
		}
	}
}

lsv_status lsv_lapop_apply(const lsv_lapop *L, const double *x, double *y,
			   size_t C, double scale, lsv_error *err)
{
	return lsv_lapop_apply_rows(L, x, y, C, scale, 0, L->n, err);
}

lsv_status lsv_lapop_apply_rows(const lsv_lapop *L, const double *x,
				double *y, size_t C, double scale, size_t lo,
				size_t nr, lsv_error *err)
{
	size_t n = L->n, hi = lo + nr;
	long c;
	int failed = 0;

	if (lo > n || nr > n - lo)
		return lsv_fail(err, LSV_EINVAL,
				"rows [%zu, %zu) of the Laplacian's %zu", lo,
				lo + nr, n);
	if (nr == 0)
		return LSV_OK;  /* a rank with no rows: nothing to compute */
	/* columns are independent: one per thread at a time, each with its
	 * own scratch column for the powers (and the weighted input).  Only
	 * for many columns (L K in the direct solvers): a few columns between
	 * BLAS calls run faster on one thread than waking a team that a
	 * threaded BLAS competes with */
	int scratch = L->power > 1 || L->sw != NULL;
#pragma omp parallel if (C >= 64)
	{
		double *tmp = scratch ? malloc((n ? n : 1) * sizeof *tmp) : NULL;
		if (scratch && tmp == NULL) {
#pragma omp atomic write
			failed = 1;
		}
#pragma omp for schedule(dynamic, 16)
		for (c = 0; c < (long)C; c++) {
			const double *xc = x + (size_t)c * n;
			double *yc = y + (size_t)c * n;
			int k;
			size_t i;
			if (scratch && tmp == NULL)
				continue;
			if (L->sw != NULL) {  /* D x */
				for (i = 0; i < n; i++)
					tmp[i] = L->sw[i] * xc[i];
				xc = tmp;
			}
			/* L^(p-1) x whole (the last product reads any row of
			 * it), the last product on the rows asked for */
			for (k = 1; k < L->power; k++) {
				lap_column(L, xc, yc, 0, n);
				memcpy(tmp, yc, n * sizeof *tmp);
				xc = tmp;
			}
			lap_column(L, xc, yc, lo, hi);
			if (L->sw != NULL)  /* D L^p D x, scaled */
				for (i = lo; i < hi; i++)
					yc[i] *= scale * L->sw[i];
			else if (scale != 1.0)
				for (i = lo; i < hi; i++)
					yc[i] *= scale;
		}
		free(tmp);
	}
	if (failed)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the Laplacian's scratch columns");
	return LSV_OK;
}

void lsv_lapop_free(lsv_lapop *L)
{
	free(L->deg);
	free(L->isd);
	free(L->sw);
	L->deg = L->isd = L->sw = NULL;
}
