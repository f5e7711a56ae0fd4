/*
 * share.c -- a data set or a graph read by one rank, copied to every rank
 * (see lapsvm.h, lsv_data_share): the inputs of lapsvm-train under mpirun,
 * read once.
 *
 * The sizes go first (one broadcast), so that every rank allocates the
 * arrays, and every rank agrees on that before the arrays follow, one
 * broadcast each: a rank that could not allocate must not leave the others
 * waiting.  Arrays over INT_MAX bytes are refused by lsv_comm_bcast.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Broadcast each of the k arrays (bytes[i] each) from root. */
static lsv_status bcast_all(lsv_comm *c, int root, void **arr,
			    const size_t *bytes, int k, lsv_error *err)
{
	lsv_status st = LSV_OK;
	int i;
	for (i = 0; i < k && st == LSV_OK; i++)
		if (bytes[i] > 0)
			st = lsv_comm_bcast(c, root, arr[i], bytes[i], err);
	return st;
}

lsv_status lsv_data_share(lsv_comm *c, int root, lsv_data **x, lsv_error *err)
{
	unsigned long long h[4] = {0, 0, 0, 0};  /* n, l, dim, nnz */
	double marker = 0.0;
	lsv_data *d = NULL;
	lsv_status st = LSV_OK;
	int me = lsv_comm_rank(c);

	if (me == root) {
		h[0] = (*x)->n;
		h[1] = (*x)->l;
		h[2] = (*x)->dim;
		h[3] = (*x)->nnz;
		marker = (*x)->unlabeled;
	}
	if ((st = lsv_comm_bcast(c, root, h, sizeof h, err)) != LSV_OK ||
	    (st = lsv_comm_bcast(c, root, &marker, sizeof marker, err)) != LSV_OK)
		return st;
	if (me == root) {
		d = *x;
	} else {
		*x = NULL;
		d = calloc(1, sizeof *d);
		if (d != NULL) {
			d->n = (size_t)h[0];
			d->l = (size_t)h[1];
			d->dim = (size_t)h[2];
			d->nnz = (size_t)h[3];
			d->unlabeled = marker;
			d->rowptr = malloc((d->n + 1) * sizeof *d->rowptr);
			d->col = malloc((d->nnz + 1) * sizeof *d->col);
			d->val = malloc((d->nnz + 1) * sizeof *d->val);
			d->y = malloc((d->n + 1) * sizeof *d->y);
		}
		if (d == NULL || !d->rowptr || !d->col || !d->val || !d->y)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for a copy of "
				      "the data (%llu rows, %llu values)", h[0], h[3]);
	}
	st = lsv_comm_agree(c, st, err);
	if (st == LSV_OK) {
		void *arr[4];
		size_t bytes[4];
		arr[0] = d->rowptr;
		bytes[0] = (d->n + 1) * sizeof *d->rowptr;
		arr[1] = d->col;
		bytes[1] = d->nnz * sizeof *d->col;
		arr[2] = d->val;
		bytes[2] = d->nnz * sizeof *d->val;
		arr[3] = d->y;
		bytes[3] = d->n * sizeof *d->y;
		st = bcast_all(c, root, arr, bytes, 4, err);
	}
	if (me != root) {
		if (st == LSV_OK)
			*x = d;
		else
			lsv_data_free(d);
	}
	return st;
}

lsv_status lsv_graph_share(lsv_comm *c, int root, lsv_graph **g,
			   lsv_error *err)
{
	unsigned long long h[3] = {0, 0, 0};  /* present, n, nnz */
	lsv_graph *d = NULL;
	lsv_status st = LSV_OK;
	int me = lsv_comm_rank(c);

	if (me == root && *g != NULL) {
		h[0] = 1;
		h[1] = (*g)->n;
		h[2] = (*g)->nnz;
	}
	if ((st = lsv_comm_bcast(c, root, h, sizeof h, err)) != LSV_OK)
		return st;
	if (h[0] == 0) {
		if (me != root)
			*g = NULL;
		return LSV_OK;
	}
	if (me == root) {
		d = *g;
	} else {
		*g = NULL;
		d = calloc(1, sizeof *d);
		if (d != NULL) {
			d->n = (size_t)h[1];
			d->nnz = (size_t)h[2];
			d->rowptr = malloc((d->n + 1) * sizeof *d->rowptr);
			d->col = malloc((d->nnz + 1) * sizeof *d->col);
			d->w = malloc((d->nnz + 1) * sizeof *d->w);
		}
		if (d == NULL || !d->rowptr || !d->col || !d->w)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for a copy of "
				      "the graph (%llu rows, %llu entries)", h[1],
				      h[2]);
	}
	st = lsv_comm_agree(c, st, err);
	if (st == LSV_OK) {
		void *arr[3];
		size_t bytes[3];
		arr[0] = d->rowptr;
		bytes[0] = (d->n + 1) * sizeof *d->rowptr;
		arr[1] = d->col;
		bytes[1] = d->nnz * sizeof *d->col;
		arr[2] = d->w;
		bytes[2] = d->nnz * sizeof *d->w;
		st = bcast_all(c, root, arr, bytes, 3, err);
	}
	if (me != root) {
		if (st == LSV_OK)
			*g = d;
		else
			lsv_graph_free(d);
	}
	return st;
}
