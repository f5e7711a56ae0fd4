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

/* One read of a graph file: the graph so far, the capacities of its
 * arrays, and the largest column seen with the line that named it (a
 * column beyond the last row is known only at the end of the file, and
 * reported at that line). */
typedef struct {
	lsv_graph *g;
	const char *name;
	size_t expect_n;  /* rows the data has; 0: not known */
	size_t cap_rows, cap_nnz;
	long maxj;
	size_t maxj_line;
} graph_reader;

/* A hint for a row number that is not one: what the file looks like when
 * it is not a graph (a model, or data with its label first).  rows: the
 * rows read before. */
static const char *not_a_graph_hint(const char *tok, size_t rows)
{
	double num;
	long row;
	int is_num = lsv_parse_double(tok, &num, NULL) == LSV_OK;

	if (strcmp(tok, "lapsvm_model") == 0)
		return "; this looks like a lapsvm model file, not a graph";
	if (is_num && lsv_parse_long(tok, 1, LONG_MAX, &row, NULL) != LSV_OK)
		return "; this looks like a data file (a label first), not a graph";
	return is_num && rows == 0 ? "; is this a data file?" : "";
}

/* The first token of a line: the number of the next row, in a file that
 * still has room for one (no more rows than the data). */
static lsv_status read_row_number(const graph_reader *r, char **s,
				  size_t line, long *row, lsv_error *err)
{
	size_t n = r->g->n;
	char *tok;
	lsv_error why;

	if (r->expect_n > 0 && n == r->expect_n)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: more rows than the data's %zu (found row "
				"%zu, expected %zu rows)", r->name, line,
				r->expect_n, n + 1, r->expect_n);
	tok = lsv_token(s);
	if (tok == NULL)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: empty line (expected row number %zu)",
				r->name, line, n + 1);
	if (lsv_parse_long(tok, 1, LONG_MAX, row, &why) != LSV_OK ||
	    (size_t)*row != n + 1)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: bad row number '%.*s' (expected %zu: "
				"line i holds row i%s)", r->name, line, LSV_SHOW,
				tok, n + 1, not_a_graph_hint(tok, n));
	/* columns are stored as int */
	if (n + 1 > (size_t)INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%s:%zu: more than %d rows",
				r->name, line, INT_MAX);
	return LSV_OK;
}

/* One "column:weight" token of row `row`, after column prev (0 before
 * the first): a column of the data (1..expect_n, or 1..INT_MAX when the
 * data are not known), not the row itself, after prev, with a weight > 0
 * (not NaN).  tok is cut at its colon. */
static lsv_status parse_entry(const graph_reader *r, char *tok, long row,
			      long prev, size_t line, long *j, double *w,
			      lsv_error *err)
{
	long lim = r->expect_n > 0 ? (long)r->expect_n : (long)INT_MAX;
	char *colon = strchr(tok, ':');
	lsv_error why;

	if (colon == NULL)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: bad entry '%.*s' (expected "
				"column:weight)", r->name, line, LSV_SHOW, tok);
	*colon = '\0';
	if (lsv_parse_long(tok, 1, lim, j, &why) != LSV_OK)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: bad column '%.*s' (expected 1..%ld)",
				r->name, line, LSV_SHOW, tok, lim);
	if (*j == row)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: self loop %ld:%s (expected no "
				"entry for column %ld%s)", r->name, line, *j,
				colon + 1, row, row == 1
				? "; is this a data file?" : "");
	if (*j <= prev)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: column %ld %s (found %ld after %ld, "
				"expected columns strictly increasing)", r->name,
				line, *j, *j == prev ? "repeated" : "decreasing",
				*j, prev);
	if (lsv_parse_double(colon + 1, w, &why) != LSV_OK)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: bad weight '%.*s' for column %ld: %s",
				r->name, line, LSV_SHOW, colon + 1, *j, why.msg);
	if (!(*w > 0.0))
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: weight %s for column %ld is not "
				"positive (expected w > 0; omit absent edges)",
				r->name, line, colon + 1, *j);
	return LSV_OK;
}

/* Store entry (j, w) of the current row; col and w grow together, to the
 * capacity cap_nnz of both. */
static lsv_status append_entry(graph_reader *r, long j, double w,
			       size_t line, lsv_error *err)
{
	lsv_graph *g = r->g;

	if (g->nnz == r->cap_nnz) {
		size_t c1 = r->cap_nnz, c2 = r->cap_nnz;
		if (lsv_grow((void **)&g->col, &c1, g->nnz + 1, sizeof *g->col) ||
		    lsv_grow((void **)&g->w, &c2, g->nnz + 1, sizeof *g->w))
			return lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of memory",
					r->name, line);
		r->cap_nnz = c1;
	}
	g->col[g->nnz] = (int)(j - 1);
	g->w[g->nnz] = w;
	g->nnz++;
	if (j > r->maxj) {
		r->maxj = j;
		r->maxj_line = line;
	}
	return LSV_OK;
}

/* Line `line`, s: "i j:w j:w ...", row i = n + 1 of the graph. */
static lsv_status read_row(graph_reader *r, char *s, size_t line,
			   lsv_error *err)
{
	lsv_graph *g = r->g;
	long row, j, prev = 0;
	double w;
	char *tok;
	lsv_status st;

	if ((st = read_row_number(r, &s, line, &row, err)) != LSV_OK)
		return st;
	/* rowptr[n + 1] too: the end of the last row, set after the file */
	if (lsv_grow((void **)&g->rowptr, &r->cap_rows, g->n + 2,
		     sizeof *g->rowptr))
		return lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of memory", r->name,
				line);
	g->rowptr[g->n] = g->nnz;
	while ((tok = lsv_token(&s)) != NULL) {
		if ((st = parse_entry(r, tok, row, prev, line, &j, &w, err)) !=
		    LSV_OK ||
		    (st = append_entry(r, j, w, line, err)) != LSV_OK)
			return st;
		prev = j;
	}
	g->n++;
	return LSV_OK;
}

/* The whole file read: some rows, as many as the data's, and no column
 * beyond the last row. */
static lsv_status check_counts(const graph_reader *r, lsv_error *err)
{
	const lsv_graph *g = r->g;

	if (g->n == 0)
		return lsv_fail(err, LSV_EFORMAT, "%s: no rows (empty graph file)",
				r->name);
	if (r->expect_n > 0 && g->n != r->expect_n)
		return lsv_fail(err, LSV_EFORMAT,
				"%s: %zu rows, but the data has %zu (expected %zu)",
				r->name, g->n, r->expect_n, r->expect_n);
	if ((size_t)r->maxj > g->n)
		return lsv_fail(err, LSV_EFORMAT,
				"%s:%zu: column %ld beyond the last row (expected "
				"1..%zu)", r->name, r->maxj_line, r->maxj, g->n);
	return LSV_OK;
}

lsv_status lsv_graph_read(FILE *fp, const char *name, size_t expect_n,
			  lsv_graph **out, lsv_error *err)
{
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	graph_reader r = {NULL, name, expect_n, 0, 0, 0, 0};
	lsv_status st = LSV_OK;
	char *s;
	int got;

	*out = NULL;
	r.g = calloc(1, sizeof *r.g);
	if (r.g == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	while ((got = lsv_lines_next(&in, &s, err)) == 1)
		if ((st = read_row(&r, s, in.line, err)) != LSV_OK)
			break;
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
	lsv_lines_done(&in);
	if (st == LSV_OK)
		st = check_counts(&r, err);
	if (st == LSV_OK) {
		r.g->rowptr[r.g->n] = r.g->nnz;
		st = check_symmetry(r.g, name, err);
	}
	if (st != LSV_OK) {
		lsv_graph_free(r.g);
		return st;
	}
	*out = r.g;
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
