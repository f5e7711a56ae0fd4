/* Incremental graphs (common/update.c): the merge rule on hand-computed
 * cases, and the update against the full build of the grown data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "ref.h"
#include "unit.h"

static int same_graph(const lsv_graph *a, const lsv_graph *b)
{
	return a->n == b->n && a->nnz == b->nnz &&
	       !memcmp(a->rowptr, b->rowptr, (a->n + 1) * sizeof *a->rowptr) &&
	       !memcmp(a->col, b->col, a->nnz * sizeof *a->col) &&
	       !memcmp(a->w, b->w, a->nnz * sizeof *a->w);
}

static int same_record(const lsv_graph_record *a, const lsv_graph_record *b)
{
	size_t m = a->rowptr[a->n];
	return a->n == b->n && a->dim == b->dim && a->dense == b->dense &&
	       a->data_fp == b->data_fp && a->graph_fp == b->graph_fp &&
	       !strcmp(a->options, b->options) && m == b->rowptr[b->n] &&
	       !memcmp(a->rowptr, b->rowptr, (a->n + 1) * sizeof *a->rowptr) &&
	       !memcmp(a->col, b->col, m * sizeof *a->col) &&
	       !memcmp(a->key, b->key, m * sizeof *a->key);
}

/* Rows [0, n0) of x, then the update by rows [n0, n1), then by [n1, n):
 * each result bit for bit the full build of the rows so far. */
static int update_equals_full(const lsv_data *x, size_t n0, size_t n1,
			      const lsv_graph_param *p)
{
	size_t cut[3], c;
	lsv_graph_record *rec = NULL;
	lsv_graph *g = NULL;
	lsv_error e;
	int ok = 1;

	cut[0] = n0;
	cut[1] = n1;
	cut[2] = x->n;
	for (c = 0; c < 3 && ok; c++) {
		lsv_data *head;
		lsv_graph *full = NULL, *up = NULL;
		lsv_graph_record *frec = NULL, *urec = NULL;
		/* the first cut[c] rows: the first cut[0] copied, the rest
		 * appended in place */
		{
			lsv_data *none = ref_dense(NULL, 0, 0), one = *x, rest;
			one.n = cut[0];
			one.nnz = x->rowptr[cut[0]];
			ok = lsv_data_concat(&one, none, &head, &e) == LSV_OK;
			lsv_data_free(none);
			rest = *x;
			rest.n = cut[c] - cut[0];
			rest.rowptr = malloc((rest.n + 1) * sizeof *rest.rowptr);
			for (size_t r = 0; ok && r <= rest.n; r++)
				rest.rowptr[r] = x->rowptr[cut[0] + r] -
						 x->rowptr[cut[0]];
			rest.col = x->col + x->rowptr[cut[0]];
			rest.val = x->val + x->rowptr[cut[0]];
			rest.y = x->y + cut[0];
			rest.nnz = rest.rowptr[rest.n];
			ok = ok && lsv_data_append(head, &rest, &e) == LSV_OK &&
			     head->n == cut[c] &&
			     head->rowptr[cut[c]] == x->rowptr[cut[c]];
			free(rest.rowptr);
		}
		if (!ok)
			break;
		ok = lsv_graph_build_record(head, p, &full, &frec, NULL, &e) ==
		     LSV_OK;
		if (ok && c > 0) {
			ok = lsv_graph_update(head, cut[c - 1], p, rec, &up, &urec,
					      NULL, &e) == LSV_OK;
			if (!ok)
				fprintf(stderr, "  update failed: %s\n", e.msg);
			ok = ok && same_graph(up, full) && same_record(urec, frec);
			if (!ok)
				fprintf(stderr, "  differs at %zu rows: k=%d eps=%g "
					"mutual=%d dist=%d block=%zu single=%d\n",
					cut[c], p->k, p->epsilon, p->mutual,
					(int)p->distance, p->block, p->single);
		}
		lsv_graph_free(g);
		lsv_graph_record_free(rec);
		g = full;
		rec = frec;
		lsv_graph_free(up);
		lsv_graph_record_free(urec);
		lsv_data_free(head);
	}
	lsv_graph_free(g);
	lsv_graph_record_free(rec);
	return ok;
}

/*
 * 1-D points, k = 1.  Old rows at 0, 2, 5: row 0 chose row 1 (d^2 4), row
 * 1 chose row 0 (4), row 2 chose row 1 (9).  New row 3 at 4: it is at d^2 4 from row 1, tying row 1's k-th
 * (row 0, 4): the old row keeps it (lower index); at d^2 1 from row 2,
 * strictly below its 9: row 2 takes it.  New row 4 at -2: d^2 4 from row
 * 0, tying its k-th (row 1): row 0 keeps row 1.  Row 3 chooses row 2 (1),
 * row 4 chooses row 0 (4).
 */
static void merge_takes_only_strictly_closer_new_rows(void)
{
	const double a[] = {0, 2, 5, 4, -2};
	const int want_col[] = {1, 0, 3, 2, 0};
	const double want_key[] = {4, 4, 1, 1, 4};
	lsv_data *x = ref_dense(a, 5, 1), *old;
	lsv_graph_param p;
	lsv_graph_record *r0 = NULL, *r = NULL;
	lsv_graph *g0 = NULL, *g = NULL;
	lsv_error e;
	size_t i;

	lsv_graph_param_default(&p);
	p.k = 1;
	{
		lsv_data head = *x, *none = ref_dense(NULL, 0, 0);
		head.n = 3;
		head.nnz = x->rowptr[3];
		CHECK(lsv_data_concat(&head, none, &old, &e) == LSV_OK);
		lsv_data_free(none);
	}
	CHECK(lsv_graph_build_record(old, &p, &g0, &r0, NULL, &e) == LSV_OK);
	CHECK(r0 != NULL && r0->rowptr[3] == 3 && r0->col[0] == 1 &&
	      r0->col[1] == 0 && r0->col[2] == 1 && r0->key[2] == 9.0);
	CHECK(lsv_graph_update(x, 3, &p, r0, &g, &r, NULL, &e) == LSV_OK);
	CHECK(r != NULL && r->n == 5 && r->rowptr[5] == 5);
	for (i = 0; r != NULL && i < 5; i++) {
		CHECK(r->rowptr[i] == i);
		CHECK(r->col[i] == want_col[i]);
		CHECK(r->key[i] == want_key[i]);
	}
	/* the heat width is the mean of the chosen squared distances, 14/5:
	 * the weight of edge 2-3 (d^2 1) */
	if (g != NULL) {
		size_t q;
		int found = 0;
		for (q = g->rowptr[2]; q < g->rowptr[3]; q++)
			if (g->col[q] == 3) {
				CHECK(fabs(g->w[q] - exp(-1.0 / (4 * 14.0 / 5))) < 1e-15);
				found = 1;
			}
		CHECK(found);
	}
	lsv_graph_free(g0);
	lsv_graph_free(g);
	lsv_graph_record_free(r0);
	lsv_graph_record_free(r);
	lsv_data_free(old);
	lsv_data_free(x);
}

/* k = 3 with 3 old rows: each old list held every other old row (k was
 * capped at 2); with new rows k = 3 and each old row takes its nearest
 * new row even though it is farther than every old one. */
static void capped_old_lists_take_new_rows_beyond_them(void)
{
	const double a[] = {0, 1, 2, 10, 11, 12};
	lsv_data *x = ref_dense(a, 6, 1);
	lsv_graph_param p;

	lsv_graph_param_default(&p);
	p.k = 3;
	CHECK(update_equals_full(x, 3, 4, &p));
	lsv_data_free(x);
}

/* Pseudo-random real rows (a fixed linear congruential sequence), with
 * duplicates and a zero row: every mode against the full build, blocks
 * smaller than a chunk so the old/new block boundary is exercised. */
static void update_equals_full_build_in_every_mode(void)
{
	enum { N = 61, D = 4 };
	double a[N * D];
	unsigned long s = 12345;
	size_t i;
	lsv_data *x;
	lsv_graph_param p;
	int mode, single;

	for (i = 0; i < N * D; i++) {
		s = s * 1103515245UL + 12345UL;
		a[i] = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
	}
	memcpy(a + 17 * D, a + 3 * D, D * sizeof *a);   /* old duplicate */
	memcpy(a + 50 * D, a + 20 * D, D * sizeof *a);  /* new duplicate of old */
	memset(a + 44 * D, 0, D * sizeof *a);           /* a new zero row */
	x = ref_dense(a, N, D);
	for (mode = 0; mode < 6; mode++)
		for (single = 0; single < 2; single++) {
			lsv_graph_param_default(&p);
			p.single = single;
			p.block = 7;
			p.k = 5;
			p.mutual = mode == 1 || mode == 4;
			if (mode == 2)
				p.epsilon = 0.9;
			if (mode == 5) {
				p.epsilon = 0.2;
				p.distance = LSV_DIST_COSINE;
			}
			if (mode == 3 || mode == 4)
				p.distance = LSV_DIST_COSINE;
			CHECK(update_equals_full(x, 30, 45, &p));
		}
	lsv_data_free(x);
}

static void record_reads_back_exactly(void)
{
	const double a[] = {0.1, 0.7, 1.0 / 3, 2, -5e-7, 1e10, 3, 3};
	lsv_data *x = ref_dense(a, 4, 2);
	lsv_graph_param p;
	lsv_graph_record *r = NULL, *back = NULL;
	lsv_graph *g = NULL;
	lsv_error e;
	char path[4096];
	int fd = mkstemp(unit_tmp(path, sizeof path, "lapsvm-record"));
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	lsv_graph_param_default(&p);
	p.k = 2;
	CHECK(fp != NULL);
	CHECK(lsv_graph_build_record(x, &p, &g, &r, NULL, &e) == LSV_OK);
	if (fp != NULL && r != NULL) {
		CHECK(lsv_graph_record_write(fp, path, r, &e) == LSV_OK);
		fclose(fp);
		CHECK(lsv_graph_record_read_path(path, &back, &e) == LSV_OK);
		CHECK(back != NULL && same_record(back, r));
		CHECK(lsv_graph_record_check(back, x, &p, g, &e) == LSV_OK);
		p.k = 3;
		CHECK(lsv_graph_record_check(back, x, &p, g, &e) == LSV_EINVAL);
		CHECK(strstr(e.msg, "other options") != NULL);
	}
	remove(path);
	lsv_graph_free(g);
	lsv_graph_record_free(r);
	lsv_graph_record_free(back);
	lsv_data_free(x);
}

/* The fingerprint reads the features, not the labels; -0 is 0; it tells
 * a changed value, a moved value and a split row apart. */
static void fingerprint_sees_features_only(void)
{
	const double a[] = {1, 2, 3, 4}, b[] = {1, 2, 3, 4.000000000000001};
	const double c[] = {2, 1, 3, 4};
	lsv_data *x = ref_dense(a, 2, 2), *y = ref_dense(b, 2, 2), *z = ref_dense(c, 2, 2);
	lsv_data *w = ref_dense(a, 1, 4);
	unsigned long long h = lsv_data_fingerprint(x);

	x->y[0] = 5;
	CHECK(lsv_data_fingerprint(x) == h);
	x->val[0] = -0.0;
	y->val[0] = 0.0;
	CHECK(lsv_data_fingerprint(x) != h);
	x->val[0] = 1;
	CHECK(lsv_data_fingerprint(y) != h);
	CHECK(lsv_data_fingerprint(z) != h);
	CHECK(lsv_data_fingerprint(w) != h);
	lsv_data_free(x);
	lsv_data_free(y);
	lsv_data_free(z);
	lsv_data_free(w);
}

static void image_distances_have_no_record(void)
{
	const double a[] = {0, 1, 1, 0, 1, 1, 0, 0};
	lsv_data *x = ref_dense(a, 2, 4);
	lsv_graph_param p;
	lsv_graph_record *r = NULL;
	lsv_graph *g = NULL;
	lsv_error e;

	lsv_graph_param_default(&p);
	p.distance = LSV_DIST_ROTATION;
	p.width = p.height = 2;
	CHECK(lsv_graph_build_record(x, &p, &g, &r, NULL, &e) == LSV_EINVAL);
	CHECK(g == NULL && r == NULL);
	lsv_data_free(x);
}

/* lsv_data_read_path_fp hashes the rows as it reads them: the same number
 * as lsv_data_fingerprint of what it read (sparse rows, an empty row,
 * -0, a comment line), and lsv_graph_record_check_data takes it. */
static void read_fingerprint_equals_data_fingerprint(void)
{
	static const char text[] =
		"1 1:0.5 3:-0 7:2e3\n# note\n-1\n0 2:1 3:1 4:255\n1 9:1e-120\n";
	char path[4096];
	int fd = mkstemp(unit_tmp(path, sizeof path, "lapsvm-readfp"));
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	lsv_data *x = NULL;
	unsigned long long h = 0;
	lsv_error e;

	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	fputs(text, fp);
	fclose(fp);
	CHECK(lsv_data_read_path_fp(path, 0.0, &x, &h, &e) == LSV_OK);
	CHECK(x != NULL && x->n == 4);
	if (x != NULL) {
		lsv_graph_param p;
		lsv_graph_record *r = NULL;
		lsv_graph *g = NULL;
		CHECK(h == lsv_data_fingerprint(x));
		lsv_graph_param_default(&p);
		p.k = 2;
		CHECK(lsv_graph_build_record(x, &p, &g, &r, NULL, &e) == LSV_OK);
		if (r != NULL) {
			CHECK(lsv_graph_record_check_data(r, x, h, &p, &e) ==
			      LSV_OK);
			CHECK(lsv_graph_record_check_data(r, x, h ^ 1, &p, &e) ==
			      LSV_EINVAL);
			CHECK(strstr(e.msg, "other data") != NULL);
		}
		lsv_graph_free(g);
		lsv_graph_record_free(r);
	}
	remove(path);
	lsv_data_free(x);
}

const unit_case update_cases[] = {
	{"read_fingerprint_equals_data_fingerprint",
	 read_fingerprint_equals_data_fingerprint},
	{"merge_takes_only_strictly_closer_new_rows",
	 merge_takes_only_strictly_closer_new_rows},
	{"capped_old_lists_take_new_rows_beyond_them",
	 capped_old_lists_take_new_rows_beyond_them},
	{"update_equals_full_build_in_every_mode",
	 update_equals_full_build_in_every_mode},
	{"record_reads_back_exactly", record_reads_back_exactly},
	{"fingerprint_sees_features_only", fingerprint_sees_features_only},
	{"image_distances_have_no_record", image_distances_have_no_record},
	{NULL, NULL},
};
