/*
 * graph.c -- reading, writing and freeing graphs.
 *
 * The graph file uses the data format's syntax so any tool can write one:
 * line i holds row i of the symmetric weight matrix W,
 *
 *     i j:w j:w ...
 *
 * with 1-based, strictly increasing j, no self loop (j != i) and finite
 * weights w > 0.  A row with no neighbours is `i` alone.  The reader checks
 * every one of those rules as it goes, then that W is symmetric (each
 * entry's mirror exists with the same weight up to 1e-9 relative, the
 * rounding of a weight printed with 10 digits), and that the file has as
 * many rows as the data it is used with.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SYM_TOL 1e-9

void lsv_graph_free(lsv_graph *g)
{
	if (g == NULL)
		return;
	free(g->rowptr);
	free(g->col);
	free(g->w);
	free(g);
}

/* Position of column j in row i of g, or -1. */
static long find_entry(const lsv_graph *g, size_t i, int j)
{
	size_t lo = g->rowptr[i], hi = g->rowptr[i + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->col[mid] < j)
			lo = mid + 1;
		else if (g->col[mid] > j)
			hi = mid;
		else
			return (long)mid;
	}
	return -1;
}

static lsv_status check_symmetry(const lsv_graph *g, const char *name,
				 lsv_error *err)
{
	size_t i, p;

	for (i = 0; i < g->n; i++) {
		double deg = 0.0;
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			deg += g->w[p];
		/* the row's degree, which every Laplacian divides or
		 * multiplies by: finite weights can still sum past DBL_MAX */
		if (!isfinite(deg))
			return lsv_fail(err, LSV_EFORMAT,
					"%s:%zu: the weights of row %zu sum to more "
					"than %g (expected a finite degree: scale the "
					"weights down)", name, i + 1, i + 1, DBL_MAX);
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			int j = g->col[p];
			long q = find_entry(g, (size_t)j, (int)i);
			double a = g->w[p], b;
			if (q < 0)
				return lsv_fail(err, LSV_EFORMAT,
						"%s:%zu: edge %zu-%d has no mirror: row %d "
						"does not list %zu (W must be symmetric)",
						name, i + 1, i + 1, j + 1, j + 1, i + 1);
			b = g->w[q];
			if (fabs(a - b) > SYM_TOL * fmax(fabs(a), fabs(b)))
				return lsv_fail(err, LSV_EFORMAT,
						"%s:%zu: weight of edge %zu-%d is %.17g but "
						"row %d gives %.17g (W must be symmetric)",
						name, i + 1, i + 1, j + 1, a, j + 1, b);
		}
	}
	return LSV_OK;
}

lsv_status lsv_graph_read(FILE *fp, const char *name, size_t expect_n,
			  lsv_graph **out, lsv_error *err)
{
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	lsv_graph *g;
	size_t cap_rows = 0, cap_nnz = 0, maxj_line = 0;
	long maxj = 0;
	char *s, *tok, *colon;
	lsv_error why;
	lsv_status st = LSV_OK;
	int got;

	*out = NULL;
	g = calloc(1, sizeof *g);
	if (g == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	while ((got = lsv_lines_next(&in, &s, err)) == 1) {
		long row, j, prev = 0;
		double w;
		size_t line = in.line;

		if (expect_n > 0 && g->n == expect_n) {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: more rows than the data's %zu (found row "
				      "%zu, expected %zu rows)", name, line, expect_n,
				      g->n + 1, expect_n);
			break;
		}
		tok = lsv_token(&s);
		if (tok == NULL) {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: empty line (expected row number %zu)",
				      name, line, g->n + 1);
			break;
		}
		if (lsv_parse_long(tok, 1, LONG_MAX, &row, &why) != LSV_OK ||
		    (size_t)row != g->n + 1) {
			/* Say what the file looks like when it is not a graph. */
			double num;
			int is_num = lsv_parse_double(tok, &num, NULL) == LSV_OK;
			const char *looks =
				strcmp(tok, "lapsvm_model") == 0
				? "; this looks like a lapsvm model file, not a graph"
				: is_num && lsv_parse_long(tok, 1, LONG_MAX, &row,
							   NULL) != LSV_OK
				? "; this looks like a data file (a label first), "
				  "not a graph"
				: is_num && g->n == 0 ? "; is this a data file?" : "";
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: bad row number '%.*s' (expected %zu: "
				      "line i holds row i%s)", name, line, LSV_SHOW,
				      tok, g->n + 1, looks);
			break;
		}
		if (g->n + 1 > (size_t)INT_MAX) {
			st = lsv_fail(err, LSV_ETOOBIG, "%s:%zu: more than %d rows",
				      name, line, INT_MAX);
			break;
		}
		if (lsv_grow((void **)&g->rowptr, &cap_rows, g->n + 2,
			     sizeof *g->rowptr)) {
			st = lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of memory", name,
				      line);
			break;
		}
		g->rowptr[g->n] = g->nnz;
		while ((tok = lsv_token(&s)) != NULL) {
			long lim = expect_n > 0 ? (long)expect_n : (long)INT_MAX;
			colon = strchr(tok, ':');
			if (colon == NULL) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: bad entry '%.*s' (expected "
					      "column:weight)", name, line, LSV_SHOW, tok);
				goto out;
			}
			*colon = '\0';
			if (lsv_parse_long(tok, 1, lim, &j, &why) != LSV_OK) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: bad column '%.*s' (expected 1..%ld)",
					      name, line, LSV_SHOW, tok, lim);
				goto out;
			}
			if (j == row) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: self loop %ld:%s (expected no "
					      "entry for column %ld%s)", name, line, j,
					      colon + 1, row, row == 1
					      ? "; is this a data file?" : "");
				goto out;
			}
			if (j <= prev) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: column %ld %s (found %ld after %ld, "
					      "expected columns strictly increasing)", name,
					      line, j, j == prev ? "repeated" : "decreasing",
					      j, prev);
				goto out;
			}
			if (lsv_parse_double(colon + 1, &w, &why) != LSV_OK) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: bad weight '%.*s' for column %ld: %s",
					      name, line, LSV_SHOW, colon + 1, j, why.msg);
				goto out;
			}
			if (!(w > 0.0)) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: weight %s for column %ld is not "
					      "positive (expected w > 0; omit absent edges)",
					      name, line, colon + 1, j);
				goto out;
			}
			if (g->nnz == cap_nnz) {
				size_t c1 = cap_nnz, c2 = cap_nnz;
				if (lsv_grow((void **)&g->col, &c1, g->nnz + 1,
					     sizeof *g->col) ||
				    lsv_grow((void **)&g->w, &c2, g->nnz + 1,
					     sizeof *g->w)) {
					st = lsv_fail(err, LSV_ENOMEM,
						      "%s:%zu: out of memory", name, line);
					goto out;
				}
				cap_nnz = c1;
			}
			g->col[g->nnz] = (int)(j - 1);
			g->w[g->nnz] = w;
			g->nnz++;
			if (j > maxj) {
				maxj = j;
				maxj_line = line;
			}
			prev = j;
		}
		g->n++;
	}
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
out:
	lsv_lines_done(&in);
	if (st == LSV_OK && g->n == 0)
		st = lsv_fail(err, LSV_EFORMAT, "%s: no rows (empty graph file)",
			      name);
	if (st == LSV_OK && expect_n > 0 && g->n != expect_n)
		st = lsv_fail(err, LSV_EFORMAT,
			      "%s: %zu rows, but the data has %zu (expected %zu)", name,
			      g->n, expect_n, expect_n);
	if (st == LSV_OK && (size_t)maxj > g->n)
		st = lsv_fail(err, LSV_EFORMAT,
			      "%s:%zu: column %ld beyond the last row (expected "
			      "1..%zu)", name, maxj_line, maxj, g->n);
	if (st == LSV_OK) {
		g->rowptr[g->n] = g->nnz;
		st = check_symmetry(g, name, err);
	}
	if (st != LSV_OK) {
		lsv_graph_free(g);
		return st;
	}
	*out = g;
	return LSV_OK;
}

lsv_status lsv_graph_read_path(const char *path, size_t expect_n,
			       lsv_graph **out, lsv_error *err)
{
	FILE *fp;
	lsv_status st;

	*out = NULL;
	if (strcmp(path, "-") == 0)
		return lsv_graph_read(stdin, "(stdin)", expect_n, out, err);
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	st = lsv_graph_read(fp, path, expect_n, out, err);
	fclose(fp);
	return st;
}

lsv_status lsv_graph_write(FILE *fp, const char *name, const lsv_graph *g,
			   lsv_error *err)
{
	char buf[LSV_ENTRY_MAX];
	size_t i, p;

	/* "%zu" and " %d:%.17g", by lsv_format_* (printf's bytes, faster) */
	for (i = 0; i < g->n; i++) {
		fwrite(buf, 1, (size_t)lsv_format_row(buf, i + 1), fp);
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			fwrite(buf, 1, (size_t)lsv_format_entry(buf,
				(size_t)g->col[p] + 1, g->w[p]), fp);
		if (putc('\n', fp) == EOF)
			break;
	}
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}
