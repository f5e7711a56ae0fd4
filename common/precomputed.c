/*
 * precomputed.c -- precomputed kernels in LIBSVM's -t 4 format.
 *
 *     label 0:i 1:K(x_i, x_1) 2:K(x_i, x_2) ... n:K(x_i, x_n)
 *
 * A training file of n rows holds the n x n kernel: row p carries its
 * serial number s_p ("0:i", first, 1-based) and one value per training
 * row, column j being K against the row whose serial number is j.  As in
 * LIBSVM, k(x_p, x_q) = x_p[s_q].  A test row is "label 0:? 1:K(x, x_1)
 * ... n:K(x, x_n)" against the n training rows (the 0: value is not used:
 * any number, or '?').  The model keeps, per expansion point, only its
 * training serial number (the SV line "coef 0:s").
 *
 * In memory a precomputed set is an lsv_data whose row stores the serial
 * number first, at column LSV_SERIAL_COL (-1, written back as index 0),
 * then every value at columns 0..n-1, so that the data's row copies
 * (labeled rows, expansion points) carry the serial number along.
 *
 * Checks (training): every row holds 0:i then all of 1..n with no gap,
 * n = the number of rows (a square kernel); serial numbers are integers
 * 1..n, each once; values finite (the number parser refuses NaN and
 * infinities); symmetric: |K(p,q) - K(q,p)| <= LSV_PRECOMPUTED_SYM_TOL
 * times max |K|.  Test rows: exactly the model's l + u columns.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
	const char *name;
	size_t line;
	lsv_data *x;
	size_t cap_rows, cap_nnz, cap_lines;
	size_t *lines;     /* the file line of each row, for messages */
	size_t expect;     /* test rows: the columns each must hold; 0:
			      training (square) */
	lsv_error *err;
} reader;

static lsv_status nomem(reader *r)
{
	return lsv_fail(r->err, LSV_ENOMEM,
			"%s:%zu: out of memory after %zu rows and %zu values",
			r->name, r->line, r->x->n, r->x->nnz);
}

static lsv_status put(reader *r, int col, double v)
{
	lsv_data *x = r->x;
	if (x->nnz == r->cap_nnz) {
		size_t c = r->cap_nnz, c2 = c;
		if (lsv_grow((void **)&x->col, &c, x->nnz + 1, sizeof *x->col) ||
		    lsv_grow((void **)&x->val, &c2, x->nnz + 1, sizeof *x->val))
			return nomem(r);
		r->cap_nnz = c < c2 ? c : c2;
	}
	x->col[x->nnz] = col;
	x->val[x->nnz++] = v;
	return LSV_OK;
}

/* The row's label, its first token; -0 is read as 0. */
static lsv_status parse_label(reader *r, char **s, double *label)
{
	lsv_error why;
	char *tok = lsv_token(s);

	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: empty line (expected "
				"'label 0:i 1:K(i,1) ...')", r->name, r->line);
	if (lsv_parse_double(tok, label, &why) != LSV_OK) {
		if (strchr(tok, ':') != NULL)
			return lsv_bad_token(r->err, r->name, r->line,
					     "missing label", tok, "a label first");
		return lsv_bad_token(r->err, r->name, r->line, "bad label", tok,
				     lsv_want_number(&why));
	}
	if (*label == 0.0)
		*label = 0.0;  /* -0 is 0 */
	return LSV_OK;
}

/* The serial number, the second token: 0:i with i >= 1 in a training
 * row; 0:? or 0:number in a test row, where it is not used (*serial
 * stays 0). */
static lsv_status parse_serial(reader *r, char **s, long *serial)
{
	lsv_error why;
	double v;
	char *tok = lsv_token(s);

	if (tok == NULL || strncmp(tok, "0:", 2) != 0)
		return lsv_bad_token(r->err, r->name, r->line,
				     "missing serial number", tok ? tok : "",
				     r->expect ? "0:? first (precomputed kernel, "
				     "-t 4)" : "0:i first, i the row's serial "
				     "number 1..n (precomputed kernel, -t 4)");
	if (r->expect == 0) {
		if (lsv_parse_long(tok + 2, 1, LSV_MAX_FEATURE, serial, &why))
			return lsv_bad_token(r->err, r->name, r->line,
					     "bad serial number", tok,
					     "0:i with i an integer >= 1");
	} else if (strcmp(tok + 2, "?") != 0 &&
		   lsv_parse_double(tok + 2, &v, &why) != LSV_OK)
		return lsv_bad_token(r->err, r->name, r->line,
				     "bad serial number", tok,
				     "0:? or 0:number (not used in a test row)");
	return LSV_OK;
}

/* The kernel values 1:v 2:v ..., each column the next (no gap, in order)
 * and, in a test row, none beyond the model's r->expect; *want ends one
 * past the last column read. */
static lsv_status parse_columns(reader *r, char **s, long *want)
{
	lsv_error why;
	lsv_status st;
	char *tok, *colon, what[96];
	double v;
	long idx;

	while ((tok = lsv_token(s)) != NULL) {
		colon = strchr(tok, ':');
		if (colon == NULL)
			return lsv_bad_token(r->err, r->name, r->line,
					     "bad kernel value", tok, "index:value");
		*colon = '\0';
		if (lsv_parse_long(tok, 0, LSV_MAX_FEATURE, &idx, &why)) {
			*colon = ':';
			return lsv_bad_token(r->err, r->name, r->line,
					     "bad kernel column", tok,
					     "index:value with an integer index");
		}
		if (idx != *want)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: %s (found index %ld after %ld, "
					"expected %ld: a precomputed kernel row "
					"holds every column 1..n in order)",
					r->name, r->line, idx > *want ?
					"missing kernel column" :
					"kernel column out of order", idx,
					*want - 1, *want);
		if (r->expect && (size_t)idx > r->expect)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: kernel column %ld beyond the "
					"model's %zu training rows (expected "
					"1:K(x,1) ... %zu:K(x,%zu))", r->name,
					r->line, idx, r->expect, r->expect,
					r->expect);
		if (lsv_parse_double(colon + 1, &v, &why) != LSV_OK) {
			snprintf(what, sizeof what, "bad kernel value in column %ld",
				 idx);
			return lsv_bad_token(r->err, r->name, r->line, what,
					     colon + 1, lsv_want_number(&why));
		}
		if ((st = put(r, (int)(idx - 1), v)) != LSV_OK)
			return st;
		(*want)++;
	}
	return LSV_OK;
}

/* The row's width, want - 1 columns: a test row holds exactly the
 * model's r->expect; a training row as many as the first row (which
 * stored the serial number too: want entries), n being checked against
 * the number of rows once all are read (check_training). */
static lsv_status check_width(reader *r, long want)
{
	const lsv_data *x = r->x;

	if (r->expect && (size_t)(want - 1) != r->expect)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing kernel columns (found %ld, expected "
				"%zu: K(x, x_j) for each of the model's %zu "
				"training rows)", r->name, r->line, want - 1,
				r->expect, r->expect);
	if (!r->expect && x->n > 0 &&
	    x->rowptr[1] - x->rowptr[0] != (size_t)want)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: %ld kernel columns, but line %zu has %zu "
				"(expected every row to hold K against all n "
				"training rows)", r->name, r->line, want - 1,
				r->lines[0], x->rowptr[1] - x->rowptr[0] - 1);
	return LSV_OK;
}

/* One row: label, 0:serial, then 1:v 2:v ... with no gap. */
static lsv_status parse_row(reader *r, char *s)
{
	lsv_data *x = r->x;
	lsv_status st;
	double label;
	long want = 1, serial = 0;

	if ((st = parse_label(r, &s, &label)) != LSV_OK)
		return st;
	if (lsv_grow((void **)&x->y, &r->cap_rows, x->n + 1, sizeof *x->y) ||
	    lsv_grow((void **)&r->lines, &r->cap_lines, x->n + 1,
		     sizeof *r->lines))
		return nomem(r);
	if ((st = parse_serial(r, &s, &serial)) != LSV_OK ||
	    (st = put(r, LSV_SERIAL_COL, (double)serial)) != LSV_OK ||
	    (st = parse_columns(r, &s, &want)) != LSV_OK ||
	    (st = check_width(r, want)) != LSV_OK)
		return st;
	if ((size_t)(want - 1) > x->dim)
		x->dim = (size_t)(want - 1);
	x->y[x->n] = label;
	r->lines[x->n] = r->line;
	if (label != x->unlabeled)
		x->l++;
	x->n++;
	return LSV_OK;
}

/* The training block: square, serial numbers 1..n each once, symmetric. */
static lsv_status check_training(reader *r)
{
	lsv_data *x = r->x;
	size_t n = x->n, p, q, *row_of = NULL, cols;
	double big = 0.0, tol;
	lsv_status st = LSV_OK;

	cols = x->rowptr[1] - x->rowptr[0] - 1;
	if (cols != n)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s: %zu rows but %zu kernel columns per row "
				"(expected a square training kernel: one row and "
				"one column per training point)", r->name, n, cols);
	row_of = malloc(n * sizeof *row_of);
	if (row_of == NULL)
		return lsv_fail(r->err, LSV_ENOMEM, "%s: out of memory", r->name);
	for (p = 0; p < n; p++)
		row_of[p] = n;
	for (p = 0; p < n; p++) {
		double s = x->val[x->rowptr[p]];
		size_t k = (size_t)s;
		if (s > (double)n) {
			st = lsv_fail(r->err, LSV_EFORMAT,
				      "%s:%zu: serial number %zu out of range "
				      "(expected 1..%zu, the training rows)",
				      r->name, r->lines[p], k, n);
			goto done;
		}
		if (row_of[k - 1] != n) {
			st = lsv_fail(r->err, LSV_EFORMAT,
				      "%s:%zu: serial number %zu repeated (first "
				      "on line %zu; expected each of 1..%zu once)",
				      r->name, r->lines[p], k, r->lines[row_of[k - 1]],
				      n);
			goto done;
		}
		row_of[k - 1] = p;
	}
	for (p = 0; p < x->nnz; p++)
		if (x->col[p] != LSV_SERIAL_COL)
			big = fmax(big, fabs(x->val[p]));
	tol = LSV_PRECOMPUTED_SYM_TOL * big;
	/* K(p,q) = row p at column s_q, K(q,p) = row q at column s_p */
	for (p = 0; p < n; p++) {
		size_t sp = (size_t)x->val[x->rowptr[p]];
		for (q = p + 1; q < n; q++) {
			size_t sq = (size_t)x->val[x->rowptr[q]];
			double a = x->val[x->rowptr[p] + sq];
			double b = x->val[x->rowptr[q] + sp];
			if (fabs(a - b) > tol) {
				st = lsv_fail(r->err, LSV_EFORMAT,
					      "%s:%zu: kernel not symmetric: "
					      "K(%zu,%zu) = %.17g here but "
					      "K(%zu,%zu) = %.17g on line %zu "
					      "(expected equal to %g = %g x max|K|)",
					      r->name, r->lines[p], sp, sq, a, sq, sp,
					      b, r->lines[q], tol,
					      LSV_PRECOMPUTED_SYM_TOL);
				goto done;
			}
		}
	}
done:
	free(row_of);
	return st;
}

lsv_status lsv_precomputed_read(FILE *fp, const char *name, double unlabeled,
				size_t expect, lsv_data **out, lsv_error *err)
{
	reader r;
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	char *line;
	size_t *starts = NULL, cap_starts = 0;
	lsv_status st = LSV_OK;
	int got;

	*out = NULL;
	memset(&r, 0, sizeof r);
	r.name = name;
	r.err = err;
	r.expect = expect;
	r.x = calloc(1, sizeof *r.x);
	if (r.x == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	r.x->unlabeled = unlabeled == 0.0 ? 0.0 : unlabeled;
	while ((got = lsv_lines_next(&in, &line, err)) == 1) {
		r.line = in.line;
		if (lsv_grow((void **)&starts, &cap_starts, r.x->n + 2,
			     sizeof *starts)) {
			st = nomem(&r);
			break;
		}
		starts[r.x->n] = r.x->nnz;
		r.x->rowptr = starts;  /* check_width compares with row 0 */
		st = parse_row(&r, line);
		if (st != LSV_OK)
			break;
	}
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
	lsv_lines_done(&in);
	if (st == LSV_OK && r.x->n == 0)
		st = lsv_fail(err, LSV_EFORMAT, "%s: no data rows (empty file)",
			      name);
	if (st == LSV_OK) {
		starts[r.x->n] = r.x->nnz;
		r.x->rowptr = starts;
		starts = NULL;
		if (expect == 0)
			st = check_training(&r);
	}
	free(r.lines);
	if (st != LSV_OK) {
		if (r.x->rowptr == starts)
			r.x->rowptr = NULL;
		free(starts);
		lsv_data_free(r.x);
		return st;
	}
	*out = r.x;
	return LSV_OK;
}

lsv_status lsv_precomputed_read_path(const char *path, double unlabeled,
				     size_t expect, lsv_data **out,
				     lsv_error *err)
{
	FILE *fp;
	lsv_status st;

	*out = NULL;
	if (strcmp(path, "-") == 0)
		return lsv_precomputed_read(stdin, "(stdin)", unlabeled, expect,
					    out, err);
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	st = lsv_precomputed_read(fp, path, unlabeled, expect, out, err);
	fclose(fp);
	return st;
}

/* The serial number of row r (0 for a test row), and its value at serial
 * number s, if it holds one. */
static double serial_of(const lsv_data *x, size_t r)
{
	size_t p = x->rowptr[r];
	return p < x->rowptr[r + 1] && x->col[p] == LSV_SERIAL_COL ? x->val[p]
								    : -1.0;
}

static int value_at(const lsv_data *x, size_t r, double s, double *v)
{
	size_t p = x->rowptr[r], k;
	if (!(s >= 1.0) || s != floor(s) || s > (double)(x->rowptr[r + 1] - p))
		return 0;
	k = (size_t)s;
	if (p + k >= x->rowptr[r + 1] || x->col[p + k] != (int)k - 1)
		return 0;
	*v = x->val[p + k];
	return 1;
}

lsv_status lsv_precomputed_matrix(const lsv_data *a, const size_t *ia,
				  size_t na, const lsv_data *b,
				  const size_t *ib, size_t nb, double *K,
				  const char *aname, const char *bname,
				  lsv_error *err)
{
	size_t i, j;

	for (j = 0; j < nb; j++) {
		size_t rb = ib ? ib[j] : j;
		double sb = serial_of(b, rb);
		for (i = 0; i < na; i++) {
			size_t ra = ia ? ia[i] : i;
			/* k(a, b) = a[s_b] (LIBSVM's), else b[s_a] when a holds
			 * only its serial number (an expansion point) */
			if (!value_at(a, ra, sb, &K[i + j * na]) &&
			    !value_at(b, rb, serial_of(a, ra), &K[i + j * na]))
				return lsv_fail(err, LSV_EINVAL,
						"precomputed kernel: no value for "
						"%s %zu against %s %zu (neither holds "
						"the other's serial number)", aname,
						ra + 1, bname, rb + 1);
		}
	}
	return LSV_OK;
}

lsv_status lsv_precomputed_write(FILE *fp, const char *name, const double *K,
				 size_t n, const double *y, const size_t *serial,
				 lsv_error *err)
{
	size_t i, t, *row = NULL;

	if (serial != NULL) {  /* row[t - 1]: the row of serial number t */
		if (n > SIZE_MAX / sizeof *row ||
		    (row = malloc(n * sizeof *row)) == NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		for (t = 0; t < n; t++)
			row[t] = n;
		for (i = 0; i < n; i++)
			if (serial[i] < 1 || serial[i] > n || row[serial[i] - 1] < n) {
				free(row);
				return lsv_fail(err, LSV_EINVAL, "%s: serial number "
						"%zu of row %zu is not one of 1..%zu "
						"once", name, serial[i], i + 1, n);
			} else {
				row[serial[i] - 1] = i;
			}
	}
	for (i = 0; i < n && !ferror(fp); i++) {
		fprintf(fp, "%.17g 0:%zu", y[i], row ? serial[i] : i + 1);
		for (t = 0; t < n; t++)
			fprintf(fp, " %zu:%.17g", t + 1,
				K[i + (row ? row[t] : t) * n]);
		putc('\n', fp);
	}
	free(row);
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}

lsv_status lsv_precomputed_serials(lsv_data *sv, lsv_error *err)
{
	size_t i, k = 0;

	for (i = 0; i < sv->n; i++) {
		double s = serial_of(sv, i);
		if (!(s >= 1.0))
			return lsv_fail(err, LSV_EINVAL,
					"expansion point %zu has no serial number "
					"(precomputed kernel)", i + 1);
		sv->col[k] = LSV_SERIAL_COL;
		sv->val[k] = s;
		sv->rowptr[i] = k++;
	}
	sv->rowptr[sv->n] = k;
	sv->nnz = k;
	return LSV_OK;
}
