/*
 * fuzz_graph.c -- lsv_graph_read on arbitrary bytes.
 *
 * Read once accepting any row count (expect_n = 0) and once with the first
 * byte's value as the expected count.  A refused input must come back as
 * an error naming the input, with nothing returned.  An accepted graph
 * must keep the format's promises (rowptr, strictly increasing columns
 * below n, no self loop, finite weights > 0, every edge mirrored), its
 * written text must read back bit for bit with expect_n = n, and be
 * refused with expect_n = n + 1 and n - 1.
 */
#include <math.h>

#include "fuzz.h"

/* Position of column j in row i, or -1 (linear: the graphs are small). */
static long find(const lsv_graph *g, size_t i, int j)
{
	size_t p;
	for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
		if (g->col[p] == j)
			return (long)p;
	return -1;
}

static void check_graph(const lsv_graph *g)
{
	size_t i, p;

	FUZZ_CHECK(g->n > 0 && g->rowptr != NULL);
	FUZZ_CHECK(g->rowptr[0] == 0 && g->rowptr[g->n] == g->nnz);
	FUZZ_CHECK(g->nnz % 2 == 0);
	for (i = 0; i < g->n; i++) {
		FUZZ_CHECK(g->rowptr[i] <= g->rowptr[i + 1]);
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			int j = g->col[p];
			long q;
			FUZZ_CHECK(j >= 0 && (size_t)j < g->n && (size_t)j != i);
			FUZZ_CHECK(p == g->rowptr[i] || j > g->col[p - 1]);
			FUZZ_CHECK(isfinite(g->w[p]) && g->w[p] > 0.0);
			q = find(g, (size_t)j, (int)i);
			FUZZ_CHECK(q >= 0);
			FUZZ_CHECK(fabs(g->w[p] - g->w[q]) <=
				   1e-9 * fmax(g->w[p], g->w[q]));
		}
	}
}

static void check_same(const lsv_graph *g, const lsv_graph *h)
{
	FUZZ_CHECK(g->n == h->n && g->nnz == h->nnz);
	FUZZ_CHECK(memcmp(g->rowptr, h->rowptr, (g->n + 1) * sizeof *g->rowptr) == 0);
	FUZZ_CHECK(g->nnz == 0 || memcmp(g->col, h->col, g->nnz * sizeof *g->col) == 0);
	FUZZ_CHECK(g->nnz == 0 || memcmp(g->w, h->w, g->nnz * sizeof *g->w) == 0);
}

static lsv_status read_bytes(const void *data, size_t size, size_t expect_n,
			     const char *name, lsv_graph **g, lsv_error *err)
{
	FILE *fp = fuzz_open(data, size);
	lsv_status st = lsv_graph_read(fp, name, expect_n, g, err);

	fclose(fp);
	if (st != LSV_OK)
		fuzz_check_failure(st, *g, err, name);
	else
		check_graph(*g);
	return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lsv_graph *g, *h = NULL;
	lsv_error err;
	char *text = NULL;
	size_t len = 0, first = size ? data[0] : 0;
	FILE *fp;

	/* The expected count from the first byte ('1' in a real graph file is
	 * 49 rows, so this mostly sees the "wrong number of rows" paths). */
	if (first > 0 && read_bytes(data, size, first, "fuzz", &h, &err) == LSV_OK)
		FUZZ_CHECK(h->n == first);
	if (read_bytes(data, size, 0, "fuzz", &g, &err) != LSV_OK) {
		FUZZ_CHECK(h == NULL);
		return 0;
	}
	if (h != NULL) {
		check_same(g, h);
		lsv_graph_free(h);
	}

	fp = fuzz_memstream(&text, &len);
	FUZZ_CHECK(lsv_graph_write(fp, "out", g, &err) == LSV_OK);
	FUZZ_CHECK(fclose(fp) == 0);
	if (read_bytes(text, len, g->n, "again", &h, &err) != LSV_OK) {
		fprintf(stderr, "written graph refused: %s\n", err.msg);
		abort();
	}
	check_same(g, h);
	lsv_graph_free(h);
	FUZZ_CHECK(read_bytes(text, len, g->n + 1, "again", &h, &err) != LSV_OK);
	if (g->n > 1)
		FUZZ_CHECK(read_bytes(text, len, g->n - 1, "again", &h, &err) !=
			   LSV_OK);

	free(text);
	lsv_graph_free(g);
	return 0;
}
