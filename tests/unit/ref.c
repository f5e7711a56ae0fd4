/*
 * ref.c -- the tests' independent references and fixtures (see ref.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

typedef struct {
	double key, d, d2;
	int j;
} rcand;

static int rcand_cmp(const void *pa, const void *pb)
{
	const rcand *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->j > b->j) - (a->j < b->j);
}

typedef struct {
	int i, j;
	double d, d2;
} rpick;

/* One direction of a chosen pair, for symmetrization by a global sort. */
typedef struct {
	int i, j, chosen_by_i;
	double w;
} rtrip;

static int rtrip_cmp(const void *pa, const void *pb)
{
	const rtrip *a = pa, *b = pb;
	if (a->i != b->i)
		return (a->i > b->i) - (a->i < b->i);
	return (a->j > b->j) - (a->j < b->j);
}

static void push(rpick **pk, size_t *np, size_t *cap, rpick e)
{
	if (*np == *cap) {
		*cap *= 2;
		*pk = realloc(*pk, *cap * sizeof **pk);
	}
	(*pk)[(*np)++] = e;
}

lsv_graph *ref_graph(const lsv_data *x, const lsv_graph_param *p)
{
	size_t n = x->n, dim = x->dim ? x->dim : 1, i, j, f, np = 0;
	double *X = calloc(n * dim, sizeof *X), *nrm = calloc(n, sizeof *nrm);
	rcand *c = malloc(n * sizeof *c);
	size_t cap = n * (p->epsilon > 0.0 ? 8 : (size_t)p->k) + 1;
	rpick *pk = malloc(cap * sizeof *pk);
	rtrip *tr;
	lsv_graph *g = calloc(1, sizeof *g);
	int cos_ = p->distance == LSV_DIST_COSINE;
	double t = p->t;
	size_t nnz = 0;

	if (!X || !nrm || !c || !pk || !g)
		return NULL;
	for (i = 0; i < n; i++)
		for (f = x->rowptr[i]; f < x->rowptr[i + 1]; f++)
			X[i * dim + (size_t)x->col[f]] = x->val[f];
	for (i = 0; i < n; i++) {
		double s = 0.0;
		for (f = 0; f < dim; f++)
			s += X[i * dim + f] * X[i * dim + f];
		nrm[i] = sqrt(s);
	}
	for (i = 0; i < n; i++) {
		size_t m = 0, take;
		if (cos_ && nrm[i] == 0.0)
			continue;
		for (j = 0; j < n; j++) {
			double s = 0.0, key;
			if (j == i || (cos_ && nrm[j] == 0.0))
				continue;
			if (cos_) {
				for (f = 0; f < dim; f++)
					s += X[i * dim + f] * X[j * dim + f];
				key = 1.0 - s / (nrm[i] * nrm[j]);
				key = key < 0.0 ? 0.0 : key > 2.0 ? 2.0 : key;
				c[m].d = key;
				c[m].d2 = key * key;
			} else {
				for (f = 0; f < dim; f++) {
					double d = X[i * dim + f] - X[j * dim + f];
					s += d * d;
				}
				key = s;
				c[m].d2 = s;
				c[m].d = sqrt(s);
			}
			c[m].key = key;
			c[m].j = (int)j;
			m++;
		}
		qsort(c, m, sizeof *c, rcand_cmp);
		if (p->epsilon > 0.0) {
			/* in index order, as the blocked code finds them */
			rcand *keep = malloc((m ? m : 1) * sizeof *keep);
			size_t q = 0, r;
			for (r = 0; r < m; r++)
				if (c[r].d < p->epsilon)
					keep[q++] = c[r];
			for (r = 0; r < q; r++) {
				size_t best = r, s2;
				for (s2 = r + 1; s2 < q; s2++)
					if (keep[s2].j < keep[best].j)
						best = s2;
				rcand tmp = keep[r];
				keep[r] = keep[best];
				keep[best] = tmp;
			}
			for (r = 0; r < q; r++) {
				rpick e = {(int)i, keep[r].j, keep[r].d, keep[r].d2};
				push(&pk, &np, &cap, e);
			}
			free(keep);
		} else {
			take = (size_t)p->k < m ? (size_t)p->k : m;
			for (j = 0; j < take; j++) {
				rpick e = {(int)i, c[j].j, c[j].d, c[j].d2};
				push(&pk, &np, &cap, e);
			}
		}
	}
	if (p->weight == LSV_WEIGHT_HEAT && !(t > 0.0)) {
		double s = 0.0;
		for (i = 0; i < np; i++)
			s += pk[i].d2;
		t = np ? s / (double)np : 1.0;
	}
	tr = malloc((2 * np + 1) * sizeof *tr);
	for (i = 0; i < np; i++) {
		double w = 1.0;
		if (p->weight == LSV_WEIGHT_DISTANCE)
			w = pk[i].d;
		else if (p->weight == LSV_WEIGHT_HEAT)
			w = pk[i].d2 == 0.0 ? 1.0 : exp(-pk[i].d2 / (4.0 * t));
		tr[2 * i].i = pk[i].i, tr[2 * i].j = pk[i].j;
		tr[2 * i + 1].i = pk[i].j, tr[2 * i + 1].j = pk[i].i;
		tr[2 * i].w = tr[2 * i + 1].w = w;
		tr[2 * i].chosen_by_i = 1;
		tr[2 * i + 1].chosen_by_i = 0;
	}
	qsort(tr, 2 * np, sizeof *tr, rtrip_cmp);
	g->n = n;
	g->rowptr = calloc(n + 1, sizeof *g->rowptr);
	g->col = malloc((2 * np + 1) * sizeof *g->col);
	g->w = malloc((2 * np + 1) * sizeof *g->w);
	if (!tr || !g->rowptr || !g->col || !g->w)
		return NULL;
	for (i = 0; i < 2 * np;) {
		/* the run of entries for one (row, column) pair */
		size_t r = i;
		int by_row = 0, by_col = 0, keep;
		while (r < 2 * np && tr[r].i == tr[i].i && tr[r].j == tr[i].j) {
			if (tr[r].chosen_by_i)
				by_row = 1;
			else
				by_col = 1;
			r++;
		}
		if (p->epsilon > 0.0 || !p->mutual)
			keep = 1;
		else
			keep = by_row && by_col;
		if (keep && tr[i].w > 0.0) {
			g->col[nnz] = tr[i].j;
			g->w[nnz] = tr[i].w;
			g->rowptr[tr[i].i + 1]++;
			nnz++;
		}
		i = r;
	}
	for (i = 0; i < n; i++)
		g->rowptr[i + 1] += g->rowptr[i];
	g->nnz = nnz;
	free(tr);
	free(X);
	free(nrm);
	free(c);
	free(pk);
	return g;
}

int ref_graph_equal(const lsv_graph *a, const lsv_graph *b)
{
	size_t i;

	if (a->n != b->n || a->nnz != b->nnz)
		return 0;
	for (i = 0; i <= a->n; i++)
		if (a->rowptr[i] != b->rowptr[i])
			return 0;
	for (i = 0; i < a->nnz; i++)
		if (a->col[i] != b->col[i] || a->w[i] != b->w[i])
			return 0;
	return 1;
}

lsv_data *ref_dense(const double *a, size_t n, size_t d)
{
	lsv_data *x = calloc(1, sizeof *x);
	size_t i, f;
	if (x == NULL)
		return NULL;
	x->n = x->l = n;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc((n * d + 1) * sizeof *x->col);
	x->val = malloc((n * d + 1) * sizeof *x->val);
	x->y = calloc(n + 1, sizeof *x->y);
	if (x->rowptr == NULL || x->col == NULL || x->val == NULL || x->y == NULL) {
		lsv_data_free(x);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		x->rowptr[i] = x->nnz;
		for (f = 0; f < d; f++) {
			if (a[i * d + f] == 0.0)
				continue;
			x->col[x->nnz] = (int)f;
			x->val[x->nnz++] = a[i * d + f];
			if (f + 1 > x->dim)
				x->dim = f + 1;
		}
	}
	x->rowptr[n] = x->nnz;
	return x;
}

void ref_gauss(double *A, double *B, size_t n, size_t m)
{
	size_t i, j, k, c;
	for (k = 0; k < n; k++) {
		size_t piv = k;
		for (i = k + 1; i < n; i++)
			if (fabs(A[i + k * n]) > fabs(A[piv + k * n]))
				piv = i;
		for (j = 0; j < n; j++) {
			double t = A[k + j * n];
			A[k + j * n] = A[piv + j * n];
			A[piv + j * n] = t;
		}
		for (c = 0; c < m; c++) {
			double t = B[k + c * n];
			B[k + c * n] = B[piv + c * n];
			B[piv + c * n] = t;
		}
		for (i = k + 1; i < n; i++) {
			double f = A[i + k * n] / A[k + k * n];
			for (j = k; j < n; j++)
				A[i + j * n] -= f * A[k + j * n];
			for (c = 0; c < m; c++)
				B[i + c * n] -= f * B[k + c * n];
		}
	}
	for (c = 0; c < m; c++)
		for (k = n; k-- > 0;) {
			double s = B[k + c * n];
			for (j = k + 1; j < n; j++)
				s -= A[k + j * n] * B[j + c * n];
			B[k + c * n] = s / A[k + k * n];
		}
}
