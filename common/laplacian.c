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
			L[i + j * n] = normalized ? -w / sqrt(deg[i] * deg[j]) : -w;
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
