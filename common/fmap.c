/*
 * fmap.c -- compact numbering of the features that occur (see internal.h).
 * A direct table when the index range is small compared with the data;
 * otherwise the sorted distinct indices, searched by bisection.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

lsv_status lsv_fmap_build(const lsv_data *x, const size_t *rows, size_t nrows,
			  lsv_fmap *f, lsv_error *err)
{
	size_t r, p, nnz = 0, m = 0, seen = 0;

	memset(f, 0, sizeof *f);
	f->dim = x->dim;
	if (rows == NULL)
		nrows = x->n;
	for (r = 0; r < nrows; r++) {
		size_t i = rows ? rows[r] : r;
		nnz += x->rowptr[i + 1] - x->rowptr[i];
	}
	if (x->dim <= 4 * nnz + 64) {
		f->table = malloc((x->dim + 1) * sizeof *f->table);
		if (f->table == NULL)
			return lsv_fail(err, LSV_ENOMEM,
					"out of memory for a feature map of %zu entries",
					x->dim);
		for (p = 0; p < x->dim; p++)
			f->table[p] = -1;
		/* once every feature has occurred the rest cannot add one:
		 * dense data (every feature in the first rows) stop there,
		 * not after a pass over all their columns */
		for (r = 0; r < nrows && seen < x->dim; r++) {
			size_t i = rows ? rows[r] : r;
			for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
				if (f->table[x->col[p]] < 0) {
					f->table[x->col[p]] = 0;
					seen++;
				}
		}
		for (p = 0; p < x->dim; p++)
			if (f->table[p] == 0)
				f->table[p] = (int)m++;
	} else {
		f->sorted = malloc((nnz ? nnz : 1) * sizeof *f->sorted);
		if (f->sorted == NULL)
			return lsv_fail(err, LSV_ENOMEM,
					"out of memory for a feature map of %zu entries",
					nnz);
		for (r = 0; r < nrows; r++) {
			size_t i = rows ? rows[r] : r;
			for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
				f->sorted[m++] = x->col[p];
		}
		qsort(f->sorted, m, sizeof *f->sorted, int_cmp);
		nnz = m;
		for (p = 0, m = 0; p < nnz; p++)
			if (m == 0 || f->sorted[m - 1] != f->sorted[p])
				f->sorted[m++] = f->sorted[p];
	}
	f->m = m;
	return LSV_OK;
}

int lsv_fmap_get(const lsv_fmap *f, int col)
{
	const int *hit;

	if (col < 0 || (size_t)col >= f->dim)
		return -1;
	if (f->table != NULL)
		return f->table[col];
	hit = bsearch(&col, f->sorted, f->m, sizeof *f->sorted, int_cmp);
	return hit ? (int)(hit - f->sorted) : -1;
}

void lsv_fmap_free(lsv_fmap *f)
{
	free(f->table);
	free(f->sorted);
	memset(f, 0, sizeof *f);
}
