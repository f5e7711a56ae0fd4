/*
 * share.c -- a data set or a graph read by one rank, copied to every rank
 * (see lapsvm.h, lsv_data_share): lapsvm-train's inputs from standard
 * input, and its graphs, read once.  And a data file read by every rank at
 * once, each its part (lsv_data_read_dist): graph-build's rows, which no
 * rank needs whole, and lapsvm-train's, which the parts then make whole on
 * every rank (lsv_data_allgather: each rank parses n/P rows, and rank 0
 * no longer sends the whole set to every other).
 *
 * The sizes go first (one broadcast), so that every rank allocates the
 * arrays, and every rank agrees on that before the arrays follow, one
 * broadcast each: a rank that could not allocate must not leave the others
 * waiting.  Arrays over INT_MAX bytes are refused by lsv_comm_bcast.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* v[r] = mine on rank r, v[q] = rank q's on every rank (one allreduce of
 * P numbers: each rank fills its own slot). */
static lsv_status everyones(lsv_comm *c, size_t mine, size_t *v,
			    lsv_error *err)
{
	int P = lsv_comm_size(c), r;
	for (r = 0; r < P; r++)
		v[r] = 0;
	v[lsv_comm_rank(c)] = mine;
	return lsv_comm_allreduce_size(c, v, (size_t)P, LSV_COMM_SUM, err);
}

lsv_status lsv_data_read_dist(lsv_comm *c, const char *path, double unlabeled,
			      lsv_data **x, size_t *row0, size_t *n,
			      int *graph_like, lsv_error *err)
{
	int P = lsv_comm_size(c), me = lsv_comm_rank(c), q;
	size_t *v = calloc((size_t)P, sizeof *v), lines = 0, first = 1, i;
	size_t flag[2];
	long long size = 0, start = 0, end = 0;
	lsv_data *d = NULL;
	struct stat sb;
	lsv_status st = LSV_OK;

	*x = NULL;
	*row0 = *n = 0;
	*graph_like = 0;
	if (v == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);
	else if (stat(path, &sb) != 0)
		st = lsv_fail_open(err, path);
	else if (!S_ISREG(sb.st_mode))
		st = lsv_fail(err, LSV_EINVAL, "%s: not a regular file (a part "
			      "of it cannot be read on its own)", path);
	else {
		/* rank r's bytes from size r / P, without overflow */
		size = (long long)sb.st_size;
		st = lsv_file_line_start(path, size / P * me + size % P * me / P,
					 &start, err);
	}
	/* the parts: from each start to the next rank's */
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK ||
	    (st = everyones(c, (size_t)start, v, err)) != LSV_OK)
		goto done;
	end = me + 1 < P ? (long long)v[me + 1] : size;
	if (end < start)
		end = start;
	/* the file's number of this part's first line */
	st = lsv_file_count_lines(path, start, end, &lines, err);
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK ||
	    (st = everyones(c, lines, v, err)) != LSV_OK)
		goto done;
	for (q = 0; q < me; q++)
		first += v[q];
	st = lsv_data_read_part(path, unlabeled, start, end, first, &d, err);
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK ||
	    (st = everyones(c, d->n, v, err)) != LSV_OK)
		goto done;
	for (q = 0; q < P; q++) {
		*row0 += q < me ? v[q] : 0;
		*n += v[q];
	}
	if (*n == 0) {
		st = lsv_fail(err, LSV_EFORMAT, "%s: no data rows (empty file)",
			      path);
		goto done;
	}
	/* the largest feature index, and lsv_data_read's first sign of a
	 * graph file: labels 1..n in order (and some value stored) */
	flag[0] = d->dim;
	flag[1] = d->nnz;
	if ((st = lsv_comm_allreduce_size(c, flag, 2, LSV_COMM_MAX, err)) !=
	    LSV_OK)
		goto done;
	d->dim = flag[0];
	flag[0] = 1;
	for (i = 0; i < d->n && flag[0]; i++)
		flag[0] = d->y[i] == (double)(*row0 + i + 1);
	flag[0] = !flag[0];  /* MAX of "not": any rank's no is a no */
	if ((st = lsv_comm_allreduce_size(c, flag, 1, LSV_COMM_MAX, err)) !=
	    LSV_OK)
		goto done;
	*graph_like = flag[0] == 0 && *n >= 2 && flag[1] > 0;
	*x = d;
	d = NULL;
done:
	lsv_data_free(d);
	free(v);
	if (st != LSV_OK)
		*row0 = *n = 0;
	return st;
}

/*
 * *a holds this rank's count[me] elements of size bytes at its start;
 * grown (realloc) to all the ranks' elements, this rank's moved to their
 * place (after the ranks before it), the others' gathered around them.
 */
static lsv_status gather_placed(lsv_comm *c, void **a, size_t size,
				const size_t *count, size_t *bytes,
				lsv_error *err)
{
	int P = lsv_comm_size(c), me = lsv_comm_rank(c), r;
	size_t total = 0, before = 0;
	void *grown;
	lsv_status st = LSV_OK;

	for (r = 0; r < P; r++) {
		bytes[r] = count[r] * size;
		before += r < me ? bytes[r] : 0;
		total += bytes[r];
	}
	grown = realloc(*a, total ? total : 1);
	if (grown == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %zu bytes of "
			      "the gathered rows", total);
	else {
		*a = grown;
		memmove((char *)grown + before, grown, bytes[me]);
	}
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK)
		return st;
	return lsv_comm_allgatherv_placed(c, *a, bytes, err);
}

lsv_status lsv_data_allgather(lsv_comm *c, lsv_data **x, lsv_error *err)
{
	int P = lsv_comm_size(c), r;
	lsv_data *d = *x;
	size_t *rows = calloc((size_t)P, sizeof *rows),
	       *vals = calloc((size_t)P, sizeof *vals),
	       *bytes = calloc((size_t)P, sizeof *bytes), i, sum;
	lsv_status st = LSV_OK;

	if (rows == NULL || vals == NULL || bytes == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);
	if ((st = lsv_comm_agree(c, st, err)) != LSV_OK ||
	    (st = everyones(c, d->n, rows, err)) != LSV_OK ||
	    (st = everyones(c, d->nnz, vals, err)) != LSV_OK)
		goto done;
	/* rowptr as the rows' lengths, gathered; then their running sum */
	for (i = 0; i < d->n; i++)
		d->rowptr[i] = d->rowptr[i + 1] - d->rowptr[i];
	rows[P - 1]++;  /* room for the end offset, in the last rank's part */
	if (lsv_comm_rank(c) == P - 1)
		d->rowptr[d->n] = 0;
	st = gather_placed(c, (void **)&d->rowptr, sizeof *d->rowptr, rows,
			   bytes, err);
	rows[P - 1]--;
	if (st != LSV_OK ||
	    (st = gather_placed(c, (void **)&d->y, sizeof *d->y, rows, bytes,
				err)) != LSV_OK ||
	    (st = gather_placed(c, (void **)&d->col, sizeof *d->col, vals, bytes,
				err)) != LSV_OK ||
	    (st = gather_placed(c, (void **)&d->val, sizeof *d->val, vals, bytes,
				err)) != LSV_OK)
		goto done;
	for (r = 0, d->n = d->nnz = 0; r < P; r++) {
		d->n += rows[r];
		d->nnz += vals[r];
	}
	for (i = 0, sum = 0; i <= d->n; i++) {
		size_t len = i < d->n ? d->rowptr[i] : 0;
		d->rowptr[i] = sum;
		sum += len;
	}
	for (i = 0, d->l = 0; i < d->n; i++)
		d->l += lsv_data_is_labeled(d, i);
done:
	if (st != LSV_OK) {
		lsv_data_free(d);
		*x = NULL;
	}
	free(rows);
	free(vals);
	free(bytes);
	return st;
}
