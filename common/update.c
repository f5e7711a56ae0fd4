/*
 * update.c -- incremental graphs: the graph of a data set grown by new
 * rows, from the old graph's record and the new rows' distances only.
 *
 * Why a record.  A graph file holds weights, not distances, and drops
 * what a symmetrization or a zero weight removed; the default heat width
 * t is the mean of d^2 over every chosen pair, which new pairs change.
 * The record keeps the chosen pairs themselves (kNN: each row's list by
 * (exact key, index); epsilon: both directions of every pair closer than
 * epsilon, by (row, column)) with their exact keys, so the update rebuilds
 * the pairs of the grown set exactly as a full build orders them and
 * weighs and symmetrizes them by the same code (lsv_graph_assemble): the
 * same sums in the same order, so t and every weight are the same bits.
 *
 * The merge rule (kNN; common/knn.c, seed_old): old row i's kk nearest
 * among all rows are the first kk of (its old list, the new rows) by
 * (key, index); new rows have the larger indices, so a new row enters
 * only when strictly closer than the old k-th.  Epsilon: the old pairs,
 * plus the new rows' pairs, sorted by (row, column).  New rows: a full
 * search against every row.
 *
 * Fingerprints (64-bit FNV-1a) tie a record to its data (the features of
 * every row, in order), its options and its graph file, so an update on
 * other data, other options or a graph rebuilt since is an error.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FNV_OFFSET LSV_FNV_OFFSET
#define FNV_PRIME LSV_FNV_PRIME
#define RECORD_MAGIC "lapsvm_graph_record"
#define RECORD_VERSION 1

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= FNV_PRIME;
	}
	return h;
}

/* The fingerprint of rows [from, x->n), continuing from h: a set's is its
 * first rows' continued over the rest. */
static unsigned long long rows_fingerprint(unsigned long long h,
					   const lsv_data *x, size_t from)
{
	size_t i;

	for (i = from; i < x->n; i++)
		h = lsv_row_fingerprint(h, x->col + x->rowptr[i],
					x->val + x->rowptr[i],
					x->rowptr[i + 1] - x->rowptr[i]);
	return h;
}

unsigned long long lsv_row_fingerprint(unsigned long long h, const int *col,
				       const double *val, size_t m)
{
	size_t q;

	h = lsv_fnv_u64(h, m);
	for (q = 0; q < m; q++) {
		h = lsv_fnv_u64(h, (unsigned long long)col[q]);
		h = lsv_fnv_u64(h, lsv_fnv_bits(val[q]));
	}
	return h;
}

void lsv_fp_lag_row(lsv_fp_lag *f, const lsv_data *x, size_t from,
		    size_t to)
{
	while (f->at < f->end)
		lsv_fp_lag_step(f, x);
	f->h = lsv_fnv_u64(f->h, to - from);
	f->at = from;
	f->end = to;
}

unsigned long long lsv_fp_lag_done(lsv_fp_lag *f, const lsv_data *x)
{
	while (f->at < f->end)
		lsv_fp_lag_step(f, x);
	return f->h;
}

unsigned long long lsv_data_fingerprint(const lsv_data *x)
{
	return rows_fingerprint(FNV_OFFSET, x, 0);
}

unsigned long long lsv_graph_fingerprint(const lsv_graph *g)
{
	unsigned long long h = FNV_OFFSET;
	char buf[LSV_ENTRY_MAX];
	size_t i, p;
	int len;

	for (i = 0; i < g->n; i++) {
		len = lsv_format_row(buf, i + 1);
		h = fnv(h, buf, (size_t)len);
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			len = lsv_format_entry(buf, (size_t)g->col[p] + 1, g->w[p]);
			h = fnv(h, buf, (size_t)len);
		}
		h = fnv(h, "\n", 1);
	}
	return h;
}

lsv_status lsv_file_fingerprint(const char *path, unsigned long long *out,
				lsv_error *err)
{
	unsigned long long h = FNV_OFFSET;
	unsigned char buf[1 << 16];
	size_t got;
	FILE *fp = fopen(path, "rb");

	if (fp == NULL)
		return lsv_fail_open(err, path);
	while ((got = fread(buf, 1, sizeof buf, fp)) > 0)
		h = fnv(h, buf, got);
	if (ferror(fp)) {
		int e = errno;
		fclose(fp);
		return lsv_fail(err, LSV_EIO, "%s: read error: %s", path,
				strerror(e));
	}
	fclose(fp);
	*out = h;
	return LSV_OK;
}

static unsigned long long pairs_fingerprint(const lsv_graph_record *r)
{
	unsigned long long h = FNV_OFFSET;
	size_t i, q;

	for (i = 0; i < r->n; i++) {
		h = lsv_fnv_u64(h, r->rowptr[i + 1] - r->rowptr[i]);
		for (q = r->rowptr[i]; q < r->rowptr[i + 1]; q++) {
			h = lsv_fnv_u64(h, (unsigned long long)r->col[q]);
			h = lsv_fnv_u64(h, lsv_fnv_bits(r->key[q]));
		}
	}
	return h;
}

void lsv_graph_options(const lsv_graph_param *p, char *buf, size_t size)
{
	static const char *const dists[] = {"euclidean", "cosine", "tangent",
					    "rotation"};
	static const char *const weights[] = {"binary", "heat", "distance"};
	char mode[64], t[48] = "";

	if (p->epsilon > 0.0)
		snprintf(mode, sizeof mode, "-e %.17g", p->epsilon);
	else
		snprintf(mode, sizeof mode, "-k %d%s", p->k, p->mutual ? " -m" : "");
	if (p->weight == LSV_WEIGHT_HEAT && p->t > 0.0)
		snprintf(t, sizeof t, " -t %.17g", p->t);
	snprintf(buf, size, "%s -d %s -w %s%s", mode,
		 (unsigned)p->distance < 4 ? dists[p->distance] : "?",
		 (unsigned)p->weight < 3 ? weights[p->weight] : "?", t);
}

lsv_status lsv_data_concat(const lsv_data *a, const lsv_data *b,
			   lsv_data **out, lsv_error *err)
{
	lsv_data *x;
	size_t n = a->n + b->n, nnz = a->nnz + b->nnz, i;

	*out = NULL;
	x = calloc(1, sizeof *x);
	if (x == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the data");
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc((nnz ? nnz : 1) * sizeof *x->col);
	x->val = malloc((nnz ? nnz : 1) * sizeof *x->val);
	x->y = malloc((n ? n : 1) * sizeof *x->y);
	if (!x->rowptr || !x->col || !x->val || !x->y) {
		lsv_data_free(x);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the data (%zu values)", nnz);
	}
	x->n = n;
	x->nnz = nnz;
	x->dim = a->dim > b->dim ? a->dim : b->dim;
	x->unlabeled = a->unlabeled;
	memcpy(x->rowptr, a->rowptr, (a->n + 1) * sizeof *x->rowptr);
	for (i = 1; i <= b->n; i++)
		x->rowptr[a->n + i] = a->nnz + b->rowptr[i];
	memcpy(x->col, a->col, a->nnz * sizeof *x->col);
	memcpy(x->col + a->nnz, b->col, b->nnz * sizeof *x->col);
	memcpy(x->val, a->val, a->nnz * sizeof *x->val);
	memcpy(x->val + a->nnz, b->val, b->nnz * sizeof *x->val);
	memcpy(x->y, a->y, a->n * sizeof *x->y);
	memcpy(x->y + a->n, b->y, b->n * sizeof *x->y);
	for (i = 0; i < n; i++)
		x->l += x->y[i] != x->unlabeled;
	*out = x;
	return LSV_OK;
}

lsv_status lsv_data_append(lsv_data *a, const lsv_data *b, lsv_error *err)
{
	size_t n = a->n + b->n, nnz = a->nnz + b->nnz, i;
	void *p;

	/* grown one array at a time: a failure leaves a as it was, only
	 * with more room (realloc moves large blocks without copying) */
	if ((p = realloc(a->rowptr, (n + 1) * sizeof *a->rowptr)) == NULL)
		goto nomem;
	a->rowptr = p;
	if ((p = realloc(a->col, (nnz ? nnz : 1) * sizeof *a->col)) == NULL)
		goto nomem;
	a->col = p;
	if ((p = realloc(a->val, (nnz ? nnz : 1) * sizeof *a->val)) == NULL)
		goto nomem;
	a->val = p;
	if ((p = realloc(a->y, (n ? n : 1) * sizeof *a->y)) == NULL)
		goto nomem;
	a->y = p;
	for (i = 1; i <= b->n; i++)
		a->rowptr[a->n + i] = a->nnz + b->rowptr[i];
	lsv_prefault(a->col, a->nnz * sizeof *a->col, nnz * sizeof *a->col);
	lsv_prefault(a->val, a->nnz * sizeof *a->val, nnz * sizeof *a->val);
	memcpy(a->col + a->nnz, b->col, b->nnz * sizeof *a->col);
	memcpy(a->val + a->nnz, b->val, b->nnz * sizeof *a->val);
	memcpy(a->y + a->n, b->y, b->n * sizeof *a->y);
	for (i = 0; i < b->n; i++)
		a->l += b->y[i] != a->unlabeled;
	if (b->dim > a->dim)
		a->dim = b->dim;
	a->n = n;
	a->nnz = nnz;
	return LSV_OK;
nomem:
	return lsv_fail(err, LSV_ENOMEM, "out of memory for the data (%zu "
			"values)", nnz);
}

void lsv_graph_record_free(lsv_graph_record *rec)
{
	if (rec == NULL)
		return;
	free(rec->rowptr);
	free(rec->col);
	free(rec->key);
	free(rec);
}

static lsv_graph_record *record_alloc(size_t n, size_t npairs)
{
	lsv_graph_record *r = calloc(1, sizeof *r);
	if (r == NULL)
		return NULL;
	r->n = n;
	r->rowptr = calloc(n + 1, sizeof *r->rowptr);
	r->col = malloc((npairs ? npairs : 1) * sizeof *r->col);
	r->key = malloc((npairs ? npairs : 1) * sizeof *r->key);
	if (!r->rowptr || !r->col || !r->key) {
		lsv_graph_record_free(r);
		return NULL;
	}
	return r;
}

static int data_dense(const lsv_data *x)
{
	size_t i;
	for (i = 0; i < x->n; i++)
		if (x->rowptr[i + 1] - x->rowptr[i] != x->dim)
			return 0;
	return 1;
}

/* The record of the graph g built by p on x from pairs (row order). */
static lsv_status make_record(const lsv_data *x, const lsv_graph_param *p,
			      const lsv_pair *pairs, size_t np,
			      const lsv_graph *g, unsigned long long data_fp,
			      lsv_graph_record **out, lsv_error *err)
{
	lsv_graph_record *r = record_alloc(x->n, np);
	size_t e;

	*out = NULL;
	if (r == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the graph's "
				"record (%zu pairs)", np);
	for (e = 0; e < np; e++) {
		r->rowptr[pairs[e].i + 1]++;
		r->col[e] = pairs[e].j;
		r->key[e] = p->distance == LSV_DIST_COSINE ? pairs[e].d
							    : pairs[e].d2;
	}
	for (e = 0; e < x->n; e++)
		r->rowptr[e + 1] += r->rowptr[e];
	r->dim = x->dim;
	r->dense = data_dense(x);
	r->data_fp = data_fp;
	r->graph_fp = lsv_graph_fingerprint(g);
	lsv_graph_options(p, r->options, sizeof r->options);
	*out = r;
	return LSV_OK;
}

static lsv_status updatable(const lsv_graph_param *p, lsv_error *err)
{
	if (p->distance != LSV_DIST_EUCLIDEAN && p->distance != LSV_DIST_COSINE)
		return lsv_fail(err, LSV_EINVAL, "only Euclidean and cosine graphs "
				"have a record for updates");
	return LSV_OK;
}

/* Weigh and symmetrize the pairs; the graph and its record. */
static lsv_status finish(const lsv_data *x, const lsv_graph_param *p,
			 const lsv_pair *pairs, size_t np,
			 unsigned long long data_fp, lsv_graph **out,
			 lsv_graph_record **rec, lsv_graph_info *info,
			 lsv_error *err)
{
	lsv_status st = lsv_graph_assemble(x->n, pairs, np, p, out, info, err);
	if (st == LSV_OK && (st = make_record(x, p, pairs, np, *out, data_fp,
					      rec, err)) != LSV_OK) {
		lsv_graph_free(*out);
		*out = NULL;
	}
	return st;
}

lsv_status lsv_graph_build_record(const lsv_data *x, const lsv_graph_param *p,
				  lsv_graph **out, lsv_graph_record **rec,
				  lsv_graph_info *info, lsv_error *err)
{
	lsv_graph_info dummy;
	lsv_pair *pairs;
	size_t np;
	lsv_status st;

	*out = NULL;
	*rec = NULL;
	if (info == NULL)
		info = &dummy;
	if ((st = updatable(p, err)) != LSV_OK)
		return st;
	st = lsv_knn_pairs(x, p, &pairs, &np, info, err);
	if (st == LSV_OK)
		st = finish(x, p, pairs, np, lsv_data_fingerprint(x), out, rec,
			    info, err);
	free(pairs);
	return st;
}

lsv_status lsv_graph_update(const lsv_data *x, size_t n0,
			    const lsv_graph_param *p,
			    const lsv_graph_record *old, lsv_graph **out,
			    lsv_graph_record **rec, lsv_graph_info *info,
			    lsv_error *err)
{
	lsv_graph_info dummy;
	lsv_pair *pairs = NULL, *op;
	size_t np = 0, nold, i, q;
	int cosine = p->distance == LSV_DIST_COSINE;
	lsv_status st;

	*out = NULL;
	*rec = NULL;
	if (info == NULL)
		info = &dummy;
	if ((st = updatable(p, err)) != LSV_OK)
		return st;
	if (old->n != n0 || n0 >= x->n)
		return lsv_fail(err, LSV_EINVAL, "the record has %zu rows, the "
				"old rows are %zu of %zu", old->n, n0, x->n);
	nold = old->rowptr[n0];
	op = lsv_malloc_mapped((nold + 1) * sizeof *op);
	if (op == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the old pairs");
	for (i = 0; i < n0; i++)
		for (q = old->rowptr[i]; q < old->rowptr[i + 1]; q++) {
			double key = old->key[q];
			op[q].i = (int)i;
			op[q].j = old->col[q];
			op[q].d = cosine ? key : sqrt(key);
			op[q].d2 = cosine ? key * key : key;
		}
	st = lsv_knn_pairs_update(x, n0, p, op, nold, &pairs, &np, info, err);
	free(op);
	if (st == LSV_OK)
		st = finish(x, p, pairs, np,
			    rows_fingerprint(old->data_fp, x, n0), out, rec,
			    info, err);
	free(pairs);
	return st;
}

lsv_status lsv_graph_record_check_data(const lsv_graph_record *rec,
				       const lsv_data *x, unsigned long long fp,
				       const lsv_graph_param *p, lsv_error *err)
{
	char opts[LSV_OPTIONS_MAX];

	if (rec->n != x->n)
		return lsv_fail(err, LSV_EINVAL, "the graph has %zu rows but the "
				"old data %zu: it was built from other data",
				rec->n, x->n);
	lsv_graph_options(p, opts, sizeof opts);
	if (strcmp(opts, rec->options) != 0)
		return lsv_fail(err, LSV_EINVAL, "the graph was built with other "
				"options ('%s'; this run: '%s'): give the same "
				"options as the old build", rec->options, opts);
	if (fp != rec->data_fp)
		return lsv_fail(err, LSV_EINVAL, "the graph was built from other "
				"data (fingerprint %016llx; the old data's: "
				"%016llx)", rec->data_fp, fp);
	/* the "features" line is no part of a fingerprint: checked against
	 * the data themselves, which the fingerprint did cover */
	if (x->dim != rec->dim || data_dense(x) != rec->dense)
		return lsv_fail(err, LSV_EINVAL, "the record says 'features %zu "
				"%s', but the old data have %zu features, %s: the "
				"record was altered (rebuild the graph)", rec->dim,
				rec->dense ? "dense" : "sparse", x->dim,
				data_dense(x) ? "dense" : "sparse");
	return LSV_OK;
}

lsv_status lsv_graph_record_check(const lsv_graph_record *rec,
				  const lsv_data *x, const lsv_graph_param *p,
				  const lsv_graph *g, lsv_error *err)
{
	unsigned long long fp;
	lsv_status st;

	if (x != NULL && (st = lsv_graph_record_check_data(rec, x,
			lsv_data_fingerprint(x), p, err)) != LSV_OK)
		return st;
	if (g != NULL && (fp = lsv_graph_fingerprint(g)) != rec->graph_fp)
		return lsv_fail(err, LSV_EINVAL, "the graph changed since its "
				"record was written (fingerprint %016llx; the "
				"record's: %016llx)", fp, rec->graph_fp);
	return LSV_OK;
}

lsv_status lsv_graph_record_check_new(const lsv_graph_record *rec,
				      const lsv_data *xnew, lsv_error *err)
{
	size_t i, p;

	/* Sparse rows leave zeros out, so a feature no old row stored is
	 * only a zero the old rows did not write: allowed.  Dense rows
	 * (every row stores every feature) fix the dimension. */
	if (rec->dense && xnew->dim > rec->dim)
		for (i = 0; i < xnew->n; i++)
			for (p = xnew->rowptr[i]; p < xnew->rowptr[i + 1]; p++)
				if ((size_t)xnew->col[p] >= rec->dim)
					return lsv_fail_row(err, LSV_EINVAL,
							    i + 1, "it has feature %d, but "
							    "the old data's features "
							    "end at %zu: new rows must "
							    "have the old rows' "
							    "features", xnew->col[p] + 1,
							    rec->dim);
	if (rec->dense)
		for (i = 0; i < xnew->n; i++) {
			size_t m = xnew->rowptr[i + 1] - xnew->rowptr[i];
			if (m != rec->dim)
				return lsv_fail_row(err, LSV_EINVAL, i + 1,
						    "it has %zu features, but every old row "
						    "has %zu", m, rec->dim);
		}
	return LSV_OK;
}

lsv_status lsv_graph_record_write(FILE *fp, const char *name,
				  const lsv_graph_record *r, lsv_error *err)
{
	char buf[LSV_ENTRY_MAX];
	size_t i, q;

	fprintf(fp, "%s %d\nrows %zu\nfeatures %zu %s\ndata fnv1a64 %016llx\n"
		"graph fnv1a64 %016llx\npairs %zu fnv1a64 %016llx\noptions %s\n",
		RECORD_MAGIC, RECORD_VERSION, r->n, r->dim,
		r->dense ? "dense" : "sparse", r->data_fp, r->graph_fp,
		r->rowptr[r->n], pairs_fingerprint(r), r->options);
	for (i = 0; i < r->n && !ferror(fp); i++) {
		fwrite(buf, 1, (size_t)lsv_format_row(buf, i + 1), fp);
		for (q = r->rowptr[i]; q < r->rowptr[i + 1]; q++)
			fwrite(buf, 1, (size_t)lsv_format_entry(buf,
				(size_t)r->col[q] + 1, r->key[q]), fp);
		putc('\n', fp);
	}
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}

/* The header: "word value..." lines in a fixed order. */
static lsv_status read_header(lsv_lines *in, lsv_graph_record *r,
			      size_t *npairs, unsigned long long *pfp,
			      lsv_error *err)
{
	char *s, dense[16];
	int got, version, at = 0;
	size_t line;
	static const char *const want[] = {
		RECORD_MAGIC " VERSION", "rows N", "features DIM dense|sparse",
		"data fnv1a64 HEX", "graph fnv1a64 HEX",
		"pairs COUNT fnv1a64 HEX", "options TEXT"};

	for (at = 0; at < 7; at++) {
		int ok = 0, len = 0;
		got = lsv_lines_next(in, &s, err);
		if (got < 0)
			return err ? err->status : LSV_EFORMAT;
		line = in->line;
		if (got == 0)
			return lsv_fail(err, LSV_EFORMAT, "%s: ends in its header "
					"(expected '%s')", in->name, want[at]);
		switch (at) {
		case 0:
			ok = sscanf(s, RECORD_MAGIC " %d%n", &version, &len) == 1 &&
			     version == RECORD_VERSION;
			break;
		case 1:
			ok = sscanf(s, "rows %zu%n", &r->n, &len) == 1 && r->n > 0 &&
			     r->n <= (size_t)INT_MAX;
			break;
		case 2:
			ok = sscanf(s, "features %zu %15s%n", &r->dim, dense,
				    &len) == 2 &&
			     (strcmp(dense, "dense") == 0 ||
			      strcmp(dense, "sparse") == 0);
			r->dense = ok && strcmp(dense, "dense") == 0;
			break;
		case 3:
			ok = sscanf(s, "data fnv1a64 %16llx%n", &r->data_fp,
				    &len) == 1;
			break;
		case 4:
			ok = sscanf(s, "graph fnv1a64 %16llx%n", &r->graph_fp,
				    &len) == 1;
			break;
		case 5:
			ok = sscanf(s, "pairs %zu fnv1a64 %16llx%n", npairs, pfp,
				    &len) == 2;
			break;
		case 6:
			ok = strncmp(s, "options ", 8) == 0 &&
			     strlen(s + 8) < sizeof r->options;
			if (ok)
				strcpy(r->options, s + 8);
			len = (int)strlen(s);
			break;
		}
		if (!ok || s[len] != '\0')
			return lsv_fail(err, LSV_EFORMAT, "%s:%zu: bad header line "
					"'%.*s' (expected '%s')%s", in->name, line,
					LSV_SHOW, s, want[at], at == 0 ?
					": not a graph record" : "");
	}
	return LSV_OK;
}

/* The arrays grow with the rows and pairs actually read: the header's
 * counts are checked against them, never trusted for an allocation (a
 * header claiming 2^31 rows in a file of ten lines allocates ten). */
lsv_status lsv_graph_record_read(FILE *fp, const char *name,
				 lsv_graph_record **out, lsv_error *err)
{
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	lsv_graph_record *r = calloc(1, sizeof *r);
	size_t npairs = 0, row = 0, e = 0, cap_rows = 0, cap_col = 0,
	       cap_key = 0;
	unsigned long long pfp = 0;
	lsv_status st;
	char *s, *tok, *colon;
	int got;

	*out = NULL;
	if (r == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	if ((st = read_header(&in, r, &npairs, &pfp, err)) != LSV_OK)
		goto fail;
	if (lsv_grow((void **)&r->rowptr, &cap_rows, 1, sizeof *r->rowptr)) {
		st = lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
		goto fail;
	}
	r->rowptr[0] = 0;
	while (st == LSV_OK && (got = lsv_lines_next(&in, &s, err)) == 1) {
		long v;
		tok = lsv_token(&s);
		if (row == r->n || tok == NULL ||
		    lsv_parse_long(tok, 1, LONG_MAX, &v, NULL) != LSV_OK ||
		    (size_t)v != row + 1) {
			st = lsv_fail(err, LSV_EFORMAT, "%s:%zu: expected row %zu "
				      "of %zu", name, in.line, row + 1, r->n);
			break;
		}
		while ((tok = lsv_token(&s)) != NULL) {
			long j;
			double key;
			colon = strchr(tok, ':');
			if (colon != NULL)
				*colon = '\0';
			if (colon == NULL || e == npairs ||
			    lsv_parse_long(tok, 1, (long)r->n, &j, NULL) != LSV_OK ||
			    (size_t)j == row + 1 ||
			    lsv_parse_double(colon + 1, &key, NULL) != LSV_OK ||
			    !(key >= 0.0)) {
				st = lsv_fail(err, LSV_EFORMAT, "%s:%zu: bad pair "
					      "'%.*s' (expected row:key, row in "
					      "1..%zu, key >= 0, %zu pairs in all)",
					      name, in.line, LSV_SHOW, tok, r->n,
					      npairs);
				break;
			}
			if (lsv_grow((void **)&r->col, &cap_col, e + 1,
				     sizeof *r->col) ||
			    lsv_grow((void **)&r->key, &cap_key, e + 1,
				     sizeof *r->key)) {
				st = lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of "
					      "memory after %zu pairs", name,
					      in.line, e);
				break;
			}
			r->col[e] = (int)(j - 1);
			r->key[e++] = key;
		}
		if (st == LSV_OK &&
		    lsv_grow((void **)&r->rowptr, &cap_rows, row + 2,
			     sizeof *r->rowptr))
			st = lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of memory "
				      "after %zu rows", name, in.line, row);
		if (st == LSV_OK)
			r->rowptr[++row] = e;
	}
	if (st == LSV_OK && got < 0)
		st = err ? err->status : LSV_EFORMAT;
	if (st == LSV_OK && (row != r->n || e != npairs))
		st = lsv_fail(err, LSV_EFORMAT, "%s: %zu rows and %zu pairs "
			      "(expected %zu and %zu): the record is cut short",
			      name, row, e, r->n, npairs);
	if (st == LSV_OK && pairs_fingerprint(r) != pfp)
		st = lsv_fail(err, LSV_EFORMAT, "%s: the pairs' fingerprint is "
			      "%016llx, the header says %016llx: the record was "
			      "altered", name, pairs_fingerprint(r), pfp);
fail:
	lsv_lines_done(&in);
	if (st != LSV_OK) {
		lsv_graph_record_free(r);
		return st;
	}
	*out = r;
	return LSV_OK;
}

lsv_status lsv_graph_record_read_path(const char *path,
				      lsv_graph_record **out, lsv_error *err)
{
	FILE *fp;
	char *buf;
	lsv_status st;

	*out = NULL;
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	buf = lsv_big_buffer(fp);
	st = lsv_graph_record_read(fp, path, out, err);
	fclose(fp);
	free(buf);
	return st;
}
