/* Kernel matrices (common/kernel.c): the dgemm of densified rows and, for
 * sparse data, the sparse dot products, both against a plain double loop
 * over dense rows. */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

/* n rows over dim features, per stored values a row, deterministic
 * pseudo-random columns and values (a small LCG, so no library code). */
static lsv_data *rows(size_t n, size_t dim, size_t per)
{
	lsv_data *x = calloc(1, sizeof *x);
	unsigned long s = 12345;
	size_t i, k;

	x->n = x->l = n;
	x->dim = dim;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc(n * per * sizeof *x->col);
	x->val = malloc(n * per * sizeof *x->val);
	x->y = calloc(n, sizeof *x->y);
	for (i = 0; i < n; i++) {
		size_t c = 0;
		x->rowptr[i] = x->nnz;
		x->y[i] = i % 2 ? 1.0 : -1.0;
		for (k = 0; k < per; k++) {  /* increasing columns */
			s = s * 1103515245UL + 12345UL;
			c += 1 + (s >> 16) % (dim / per);
			if (c > dim)
				break;
			x->col[x->nnz] = (int)c - 1;
			x->val[x->nnz++] = (double)((s >> 8) % 1000) / 250.0 - 2.0;
		}
	}
	x->rowptr[n] = x->nnz;
	return x;
}

/* the dense row i */
static void dense_row(const lsv_data *x, size_t i, double *d)
{
	size_t p;
	for (p = 0; p < x->dim; p++)
		d[p] = 0.0;
	for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
		d[x->col[p]] = x->val[p];
}

/* K against the plain loop: u'v, or exp(-gamma |u - v|^2). */
static int kernel_matches(const lsv_data *x, lsv_kernel_type t)
{
	size_t n = x->n, i, j, p;
	double *K = malloc(n * n * sizeof *K), *u = malloc(x->dim * sizeof *u);
	double *v = malloc(x->dim * sizeof *v), worst = 0.0;
	lsv_kernel k = {t, 3, 0.05, 0.0};
	lsv_error e;

	if (lsv_kernel_matrix(&k, x, NULL, n, x, NULL, n, K, &e) != LSV_OK)
		return 0;
	for (i = 0; i < n; i++) {
		dense_row(x, i, u);
		for (j = 0; j < n; j++) {
			double dot = 0.0, d2 = 0.0, want;
			dense_row(x, j, v);
			for (p = 0; p < x->dim; p++) {
				dot += u[p] * v[p];
				d2 += (u[p] - v[p]) * (u[p] - v[p]);
			}
			want = t == LSV_KERNEL_LINEAR ? dot : exp(-0.05 * d2);
			worst = fmax(worst, fabs(K[i + j * n] - want));
		}
	}
	free(K);
	free(u);
	free(v);
	return worst <= 1e-12;
}

/* 3 of 3000 features a row (under 1% of the features used): the sparse
 * dot products */
static void sparse_rows_match_the_plain_loop(void)
{
	lsv_data *x = rows(150, 3000, 3);
	CHECK(x->nnz > 100);
	CHECK(kernel_matches(x, LSV_KERNEL_LINEAR));
	CHECK(kernel_matches(x, LSV_KERNEL_RBF));
	lsv_data_free(x);
}

/* 10 of 20 features a row: the dgemm of densified rows */
static void dense_rows_match_the_plain_loop(void)
{
	lsv_data *x = rows(60, 20, 10);
	CHECK(kernel_matches(x, LSV_KERNEL_LINEAR));
	CHECK(kernel_matches(x, LSV_KERNEL_RBF));
	lsv_data_free(x);
}

const unit_case kernel_cases[] = {
	{"kernel: sparse rows match the plain loop",
	 sparse_rows_match_the_plain_loop},
	{"kernel: dense rows match the plain loop", dense_rows_match_the_plain_loop},
	{NULL, NULL},
};
