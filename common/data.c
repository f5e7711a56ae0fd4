/*
 * data.c -- reading and writing data sets in LIBSVM sparse text format.
 *
 *     label index:value index:value ...   # optional comment
 *
 * The reader makes ONE pass over its input (so `zcat x.gz | tool -` works),
 * growing its arrays geometrically; it never uses a fixed-size line buffer.
 * Every token is checked before it is stored and the first problem is
 * reported as "NAME:LINE: what (found X, expected Y)".  Accepted: CRLF line
 * ends, blanks (spaces, tabs) around tokens, a trailing "# comment"
 * (SVMlight).  Refused: an empty line or label, non-finite numbers, index 0
 * or above LSV_MAX_FEATURE, indices not strictly increasing, a token that
 * is not index:value, a NUL byte, a byte order mark (common/text.c).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "internal.h"

int lsv_data_is_labeled(const lsv_data *x, size_t i)
{
	return x->y[i] != x->unlabeled;
}

size_t lsv_data_classes(const lsv_data *x, size_t most)
{
	double seen[16];  /* the first labels met */
	size_t i, k, m = 0;

	if (most > 16)
		most = 16;
	for (i = 0; i < x->n && m < most; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		for (k = 0; k < m && seen[k] != x->y[i]; k++)
			;
		if (k == m)
			seen[m++] = x->y[i];
	}
	return m;
}

void lsv_data_free(lsv_data *x)
{
	if (x == NULL)
		return;
	free(x->rowptr);
	free(x->col);
	free(x->val);
	free(x->y);
	free(x);
}

/* The rows rows[0..m) of x as a data set of their own (labels kept, l =
 * m); NULL when out of memory.  The caller owns the result. */
lsv_data *lsv_data_rows(const lsv_data *x, const size_t *rows, size_t m)
{
	lsv_data *s = calloc(1, sizeof *s);
	size_t r, q, nnz = 0;

	if (s == NULL)
		return NULL;
	for (r = 0; r < m; r++)
		nnz += x->rowptr[rows[r] + 1] - x->rowptr[rows[r]];
	s->rowptr = malloc((m + 1) * sizeof *s->rowptr);
	s->col = malloc((nnz ? nnz : 1) * sizeof *s->col);
	s->val = malloc((nnz ? nnz : 1) * sizeof *s->val);
	s->y = malloc((m ? m : 1) * sizeof *s->y);
	if (!s->rowptr || !s->col || !s->val || !s->y) {
		lsv_data_free(s);
		return NULL;
	}
	s->dim = x->dim;
	s->unlabeled = x->unlabeled;
	for (r = 0; r < m; r++) {
		s->rowptr[r] = s->nnz;
		for (q = x->rowptr[rows[r]]; q < x->rowptr[rows[r] + 1]; q++) {
			s->col[s->nnz] = x->col[q];
			s->val[s->nnz++] = x->val[q];
		}
		s->y[r] = x->y[rows[r]];
	}
	s->rowptr[m] = s->nnz;
	s->n = s->l = m;
	return s;
}

/* State of one read, so the per-line parser can report and store. */
typedef struct {
	const char *name;
	size_t line;
	lsv_data *x;
	size_t cap_rows;
	lsv_values_cap cap_nnz;
	lsv_fp_lag *lag;  /* the rows' fingerprint, or NULL */
	lsv_error *err;
} reader;

lsv_status lsv_bad_token(lsv_error *err, const char *name, size_t line,
			 const char *what, const char *tok, const char *want)
{
	return lsv_fail(err, LSV_EFORMAT, "%s:%zu: %s (found '%.*s%s', expected %s)",
			name, line, what, LSV_SHOW, tok,
			strlen(tok) > LSV_SHOW ? "..." : "", want);
}

const char *lsv_want_number(const lsv_error *why)
{
	switch (why->why) {
	case LSV_WHY_NONFINITE:
		return "a finite number";
	case LSV_WHY_RANGE:
		return "a number within the range of a double";
	default:
		return "a number";
	}
}

static lsv_status bad(reader *r, const char *what, const char *tok,
		      const char *want)
{
	return lsv_bad_token(r->err, r->name, r->line, what, tok, want);
}

/* Does the number tok, read as 0, have a nonzero digit before its
 * exponent (1e-400: underflow, not zero)? */
static int underflowed(const char *tok)
{
	for (; *tok != '\0' && *tok != 'e' && *tok != 'E'; tok++)
		if (*tok >= '1' && *tok <= '9')
			return 1;
	return 0;
}

static lsv_status nomem(reader *r)
{
	return lsv_fail(r->err, LSV_ENOMEM,
			"%s:%zu: out of memory after %zu rows and %zu values",
			r->name, r->line, r->x->n, r->x->nnz);
}

/* The common token "index:value", index 1..LSV_MAX_FEATURE in at most 10
 * digits and a value lsv_fast_decimal reads, parsed in one pass without
 * cutting it out first: the end of the token returned, with *idx and *v;
 * NULL for anything else (a sign, more digits, an exponent strtod must
 * read, a bad token), which the general path then reads or refuses with
 * its message, untouched. */
static char *fast_feature(char *p, long *idx, double *v)
{
	const char *end;
	unsigned long long m;
	long j = 0;
	int nd = 0;

	while (*p >= '0' && *p <= '9' && nd < 10) {
		j = j * 10 + (*p++ - '0');
		nd++;
	}
	if (*p != ':' || j < 1 || j > LSV_MAX_FEATURE)
		return NULL;
	/* an unsigned integer value of at most 15 digits is exact as it is
	 * (grey levels, counts): no call; else lsv_fast_decimal decides */
	for (end = ++p, m = 0, nd = 0; *end >= '0' && *end <= '9' && nd < 15;
	     end++, nd++)
		m = m * 10 + (unsigned long long)(*end - '0');
	if (nd > 0 && (*end == ' ' || *end == '\t' || *end == '\0'))
		*v = (double)m;
	else if (!lsv_fast_decimal(p, &end, v) ||
		 (*end != ' ' && *end != '\t' && *end != '\0'))
		return NULL;
	*idx = j;
	return (char *)end;
}

/*
 * Why reserve.  col and val grown by doubling are moved by realloc each
 * time (for large blocks the C library remaps their pages: no copy).  But
 * on a virtual machine with shadow page tables (the one README's numbers
 * come from) the first touch of each moved page afterwards costs about as
 * much as a page fault: the first pass over Fashion-MNIST's values after
 * reading them took five times as long as the next one.  A file's size
 * bounds its values (values_bound), so the reader allocates that room
 * once, unmapped, and maps it a quarter more at a time as it fills:
 * nothing moves.
 */
void lsv_values_reserve(lsv_data *x, lsv_values_cap *c, size_t room)
{
	int *col;
	double *val;

	if (x->col != NULL || x->val != NULL || room <= c->cap ||
	    room > SIZE_MAX / sizeof *val)
		return;
	col = malloc(room * sizeof *col);
	val = malloc(room * sizeof *val);
	if (col == NULL || val == NULL) {
		free(col);
		free(val);
		return;
	}
	x->col = col;
	x->val = val;
	c->cap = 0;
	c->room = room;
}

int lsv_values_grow(lsv_data *x, lsv_values_cap *c, size_t need)
{
	size_t to, c1, c2;

	if (need <= c->cap)
		return 0;
	if (need <= c->room) {
		to = c->cap + c->cap / 4 + 65536;
		if (to < need)
			to = need;
		if (to > c->room)
			to = c->room;
		lsv_prefault(x->col, c->cap * sizeof *x->col, to * sizeof *x->col);
		lsv_prefault(x->val, c->cap * sizeof *x->val, to * sizeof *x->val);
		c->cap = to;
		return 0;
	}
	/* beyond the room (a file that grew as it was read, or none
	 * reserved): doubling, both from the usable capacity */
	c1 = c2 = c->cap;
	if (lsv_grow((void **)&x->col, &c1, need, sizeof *x->col) ||
	    lsv_grow((void **)&x->val, &c2, need, sizeof *x->val))
		return -1;
	c->cap = c->room = c1 < c2 ? c1 : c2;
	return 0;
}

static lsv_status bad_order(lsv_error *err, const char *name, size_t line,
			    long idx, long prev)
{
	return lsv_fail(err, LSV_EFORMAT, "%s:%zu: feature index %ld %s (found "
			"%ld after %ld, expected indices strictly increasing)",
			name, line, idx, idx == prev ? "repeated" : "decreasing",
			idx, prev);
}

lsv_status lsv_parse_features(char *s, lsv_data *x, lsv_values_cap *cap,
			      lsv_fp_lag *lag, const char *name, size_t line,
			      lsv_error *err)
{
	lsv_error why;
	char *tok, *colon, *end, what[64];
	long idx, prev = 0;
	double v;
	/* the previous row's hash, in a local (a register) while its steps
	 * interleave with the stores below */
	lsv_fp_lag f = {0, 0, 0};

	if (lag != NULL)
		f = *lag;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		if ((end = fast_feature(s, &idx, &v)) != NULL) {
			s = end;
			if (idx <= prev)
				return bad_order(err, name, line, idx, prev);
			goto store;
		}
		tok = lsv_token(&s);
		colon = strchr(tok, ':');
		if (colon == NULL)
			return lsv_bad_token(err, name, line, "bad feature", tok,
					     "index:value");
		*colon = '\0';
		if (strcmp(tok, "qid") == 0) {
			/* SVMlight's ranking files, and scikit-learn's
			 * dump_svmlight_file with query_id, write it */
			*colon = ':';
			return lsv_bad_token(err, name, line, "bad feature index",
					     tok, "index:value; qid:n is SVMlight's "
					     "query id (ranking data), not part of "
					     "LIBSVM's format: delete the qid:n tokens");
		}
		if (lsv_parse_long(tok, 1, LSV_MAX_FEATURE, &idx, &why)) {
			if (why.why == LSV_WHY_RANGE)
				return lsv_bad_token(err, name, line,
						     "feature index out of range", tok,
						     "1..2147483647");
			*colon = ':';
			return lsv_bad_token(err, name, line, "bad feature index", tok,
					     "index:value with a positive integer index");
		}
		if (idx <= prev)
			return bad_order(err, name, line, idx, prev);
		if (lsv_parse_double(colon + 1, &v, &why) != LSV_OK) {
			snprintf(what, sizeof what, "bad value for feature %ld", idx);
			return lsv_bad_token(err, name, line, what, colon + 1,
					     lsv_want_number(&why));
		}
	store:
		if (x->nnz == cap->cap && lsv_values_grow(x, cap, x->nnz + 1))
			return lsv_fail(err, LSV_ENOMEM,
					"%s:%zu: out of memory after %zu values",
					name, line, x->nnz);
		x->col[x->nnz] = (int)(idx - 1);
		x->val[x->nnz] = v;
		x->nnz++;
		if ((size_t)idx > x->dim)
			x->dim = (size_t)idx;
		prev = idx;
		lsv_fp_lag_step(&f, x);  /* nothing pending: no step */
	}
	if (lag != NULL)
		*lag = f;
	return LSV_OK;
}

/* A row whose first feature is index 0, s at its value: a precomputed
 * kernel's row where features are read, 'label 0:serial 1:K(i,1) ...'
 * (an integer; a test row's is any value, '?' in LIBSVM's README), or
 * else, when the value is a number but no integer, a file of zero-based
 * indices, which scikit-learn's dump_svmlight_file writes by default and
 * svm-train takes (index 0 a feature of its own). */
static lsv_status index_zero(reader *r, const char *s)
{
	char *end;

	(void)strtol(s, &end, 10);
	if (end == s || *end == '\0' || *end == ' ' || *end == '\t' ||
	    (strtod(s, &end), end == s))
		return bad(r, "feature index out of range", "0",
			   "1..2147483647; a first feature 0:serial is a "
			   "precomputed kernel's row, read with -t 4");
	return bad(r, "feature index out of range", "0",
		   "1..2147483647; indices start at 1: this file looks "
		   "zero-based, as scikit-learn's dump_svmlight_file writes "
		   "without zero_based=False");
}

/* Parse one line (already stripped of its end, blanks and comment). */
static lsv_status parse_line(reader *r, char *s)
{
	lsv_data *x = r->x;
	lsv_error why;
	lsv_status st;
	char *tok;
	double label;

	tok = lsv_token(&s);
	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: empty line (expected 'label index:value ...')",
				r->name, r->line);
	if (lsv_parse_double(tok, &label, &why) != LSV_OK) {
		if (x->n == 0 && (strcmp(tok, "lapsvm_model") == 0 ||
				  strcmp(tok, "svm_type") == 0))
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: this looks like a %s model file, not "
					"data (found '%s', expected 'label index:value "
					"...')", r->name, r->line,
					tok[0] == 'l' ? "lapsvm" : "LIBSVM", tok);
		if (x->n == 0 && (strcmp(tok, "x") == 0 || strcmp(tok, "y") == 0) &&
		    s[strspn(s, " \t")] == '\0')
			/* svm-scale -s writes 'x' (or 'y') alone on its first
			 * line, then the ranges */
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: this looks like svm-scale's range "
					"file (svm-scale -s), not data (found '%s', "
					"expected 'label index:value ...'); svm-scale "
					"-r reads it", r->name, r->line, tok);
		if (strchr(tok, ':') != NULL)
			return bad(r, "missing label", tok, "a label first");
		if (strchr(tok, ',') != NULL || strchr(tok, ';') != NULL)
			/* 1,5.1,3.5: a CSV row, a common first try */
			return bad(r, "bad label", tok,
				   "a number: this looks like a CSV row; the "
				   "format is 'label index:value ...' (LIBSVM's)");
		return bad(r, "bad label", tok, lsv_want_number(&why));
	}
	if (label == 0.0 && underflowed(tok))
		return bad(r, "bad label", tok,
			   "a label a double can hold: this one underflows to 0, "
			   "the unlabeled marker's default");
	if (label == 0.0)
		label = 0.0;  /* a label -0 is 0: one class, one marker, written 0 */
	if (lsv_grow((void **)&x->y, &r->cap_rows, x->n + 1, sizeof *x->y))
		return nomem(r);

	s += strspn(s, " \t");
	if (s[0] == '0' && s[1] == ':')
		return index_zero(r, s + 2);
	st = lsv_parse_features(s, x, &r->cap_nnz, r->lag, r->name, r->line,
				r->err);
	if (st != LSV_OK)
		return st;
	x->y[x->n] = label;
	if (label != x->unlabeled)
		x->l++;
	x->n++;
	return LSV_OK;
}

/* 1 with *v the value of column j in row i, 0 if row i has no such column
 * (columns increase along a row). */
static int find_col(const lsv_data *x, size_t i, int j, double *v)
{
	size_t lo = x->rowptr[i], hi = x->rowptr[i + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->col[mid] < j)
			lo = mid + 1;
		else if (x->col[mid] > j)
			hi = mid;
		else {
			*v = x->val[mid];
			return 1;
		}
	}
	return 0;
}

/* A graph file parses as data: line i is "i j:w ...".  It is one if the
 * labels are exactly 1, 2, ..., n (n >= 2), and the entries are a
 * symmetric matrix over those n rows with no diagonal -- which no real
 * data set is. */
static int looks_like_graph(const lsv_data *x)
{
	size_t i, p;
	double v;

	if (x->n < 2 || x->nnz == 0)
		return 0;
	for (i = 0; i < x->n; i++)
		if (x->y[i] != (double)(i + 1))
			return 0;
	for (i = 0; i < x->n; i++)
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			size_t j = (size_t)x->col[p];
			if (j >= x->n || j == i || !find_col(x, j, (int)i, &v) ||
			    v != x->val[p])
				return 0;
		}
	return 1;
}

/* A bound on the values in the rest of a regular file: each takes at
 * least 4 bytes ("j:v" and the blank before it).  0 for a pipe, or a
 * file too small for moves to matter. */
static size_t values_bound(FILE *fp, long long end)
{
	struct stat sb;
	off_t at = ftello(fp);
	size_t bound;

	if (at < 0 || fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	if (end > 0 && end < (long long)sb.st_size)
		sb.st_size = (off_t)end;  /* a part: its own bytes */
	if (sb.st_size <= at)
		return 0;
	bound = (size_t)((sb.st_size - at) / 4) + 1;
	return bound >= ((size_t)1 << 20) ? bound : 0;
}

/* A part of a file (lsv_data_read_part), or NULL: the whole stream. */
typedef struct {
	long long start, end;  /* its bytes */
	size_t first_line;     /* the file's number of its first line */
} part;

static lsv_status read_data(FILE *fp, const char *name, double unlabeled,
			    const part *pt, lsv_data **out,
			    unsigned long long *fpr, lsv_error *err)
{
	reader r;
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	lsv_fp_lag lag;
	char *line;
	size_t *starts = NULL, cap_starts = 0;
	lsv_status st = LSV_OK;
	int got;

	*out = NULL;
	memset(&r, 0, sizeof r);
	r.name = name;
	r.err = err;
	if (fpr != NULL) {
		lag.h = *fpr;
		lag.at = lag.end = 0;
		r.lag = &lag;
	}
	r.x = calloc(1, sizeof *r.x);
	if (r.x == NULL)
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	r.x->unlabeled = unlabeled == 0.0 ? 0.0 : unlabeled;  /* -0 is 0 */
	if (pt != NULL) {
		in.line = pt->first_line - 1;
		in.at = pt->start;
		in.end = pt->end;
	}
	lsv_values_reserve(r.x, &r.cap_nnz, values_bound(fp, in.end));

	while ((got = lsv_lines_next(&in, &line, err)) == 1) {
		r.line = in.line;
		/* Row start offsets; they become rowptr at the end. */
		if (lsv_grow((void **)&starts, &cap_starts, r.x->n + 2,
			     sizeof *starts)) {
			st = nomem(&r);
			break;
		}
		starts[r.x->n] = r.x->nnz;
		st = parse_line(&r, line);
		if (st != LSV_OK)
			break;
		if (fpr != NULL)  /* its values hashed as the next is read */
			lsv_fp_lag_row(&lag, r.x, starts[r.x->n - 1], r.x->nnz);
	}
	if (fpr != NULL)
		*fpr = lsv_fp_lag_done(&lag, r.x);
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
	lsv_lines_done(&in);
	if (st == LSV_OK && r.x->n == 0 && pt == NULL)
		st = lsv_fail(err, LSV_EFORMAT, "%s: no data rows (empty file)",
			      name);
	if (st == LSV_OK && starts == NULL &&  /* a part with no row */
	    (starts = malloc(sizeof *starts)) == NULL)
		st = nomem(&r);
	if (st != LSV_OK) {
		free(starts);
		lsv_data_free(r.x);
		return st;
	}
	starts[r.x->n] = r.x->nnz;
	r.x->rowptr = starts;
	if (pt == NULL && looks_like_graph(r.x)) {
		lsv_data_free(r.x);
		return lsv_fail(err, LSV_EFORMAT,
				"%s: this looks like a graph file, not data (line i "
				"starts with i and the entries are symmetric; expected "
				"'label index:value ...')", name);
	}
	*out = r.x;
	return LSV_OK;
}

lsv_status lsv_data_read(FILE *fp, const char *name, double unlabeled,
			 lsv_data **out, lsv_error *err)
{
	return read_data(fp, name, unlabeled, NULL, out, NULL, err);
}

lsv_status lsv_data_read_path_fp(const char *path, double unlabeled,
				 lsv_data **out, unsigned long long *fpr,
				 lsv_error *err)
{
	FILE *fp;
	char *buf;
	lsv_status st;

	*out = NULL;
	if (fpr != NULL)
		*fpr = LSV_FNV_OFFSET;
	if (strcmp(path, "-") == 0)
		return read_data(stdin, "(stdin)", unlabeled, NULL, out, fpr, err);
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	buf = lsv_big_buffer(fp);
	st = read_data(fp, path, unlabeled, NULL, out, fpr, err);
	fclose(fp);
	free(buf);
	return st;
}

lsv_status lsv_data_read_path(const char *path, double unlabeled,
			      lsv_data **out, lsv_error *err)
{
	return lsv_data_read_path_fp(path, unlabeled, out, NULL, err);
}

lsv_status lsv_data_write(FILE *fp, const char *name, const lsv_data *x,
			  lsv_error *err)
{
	char buf[LSV_ENTRY_MAX];
	size_t i, p;

	/* "%.17g" and " %d:%.17g", by lsv_format_* (printf's bytes, faster) */
	for (i = 0; i < x->n; i++) {
		fwrite(buf, 1, (size_t)lsv_format_g17(buf, x->y[i]), fp);
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
			fwrite(buf, 1, (size_t)lsv_format_entry(buf,
				(size_t)x->col[p] + 1, x->val[p]), fp);
		if (putc('\n', fp) == EOF)
			break;
	}
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}

/*
 * Parts of a file, for reading it on several ranks at once (share.c,
 * lsv_data_read_dist): a rank takes the lines whose first byte lies in
 * its byte range, so the parts partition the lines whatever the ranges.
 */
lsv_status lsv_file_line_start(const char *path, long long off,
			       long long *start, lsv_error *err)
{
	FILE *fp;
	struct stat sb;
	int c = 0;

	*start = 0;
	if (off <= 0)
		return LSV_OK;
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	if (fstat(fileno(fp), &sb) != 0) {
		lsv_fail(err, LSV_EIO, "%s: cannot stat: %s", path,
			 strerror(errno));
		fclose(fp);
		return LSV_EIO;
	}
	if (off >= (long long)sb.st_size) {  /* past the last line */
		*start = (long long)sb.st_size;
		fclose(fp);
		return LSV_OK;
	}
	/* the byte before off ends a line: off starts one; else the next */
	if (fseeko(fp, (off_t)(off - 1), SEEK_SET) != 0) {
		lsv_fail(err, LSV_EIO, "%s: cannot seek: %s", path,
			 strerror(errno));
		fclose(fp);
		return LSV_EIO;
	}
	*start = off - 1;
	while ((c = getc(fp)) != EOF) {
		(*start)++;
		if (c == '\n')
			break;
	}
	if (ferror(fp)) {
		lsv_fail(err, LSV_EIO, "%s: read error: %s", path,
			 strerror(errno));
		fclose(fp);
		return LSV_EIO;
	}
	fclose(fp);
	return LSV_OK;
}

lsv_status lsv_file_count_lines(const char *path, long long from,
				long long to, size_t *count, lsv_error *err)
{
	FILE *fp;
	char *buf;
	size_t want, got, size = (size_t)1 << 20;
	long long left = to - from;

	*count = 0;
	if (left <= 0)
		return LSV_OK;
	fp = fopen(path, "r");
	buf = malloc(size);
	if (fp == NULL || buf == NULL) {
		lsv_status st = fp == NULL
			? lsv_fail_open(err, path)
			: lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
		if (fp != NULL)
			fclose(fp);
		free(buf);
		return st;
	}
	if (fseeko(fp, (off_t)from, SEEK_SET) != 0)
		left = -1;
	while (left > 0) {
		const char *p, *q;
		want = left < (long long)size ? (size_t)left : size;
		got = fread(buf, 1, want, fp);
		for (p = buf, q = buf + got;
		     (p = memchr(p, '\n', (size_t)(q - p))) != NULL; p++)
			(*count)++;
		left -= (long long)got;
		if (got < want)
			break;
	}
	if (left != 0) {
		lsv_fail(err, LSV_EIO, "%s: read error: %s", path,
			 ferror(fp) ? strerror(errno) : "the file shrank");
		fclose(fp);
		free(buf);
		return LSV_EIO;
	}
	fclose(fp);
	free(buf);
	return LSV_OK;
}

lsv_status lsv_data_read_part(const char *path, double unlabeled,
			      long long start, long long end,
			      size_t first_line, lsv_data **out,
			      lsv_error *err)
{
	part pt;
	FILE *fp;
	char *buf;
	lsv_status st;

	*out = NULL;
	if (end <= start) {  /* no line starts in this part */
		lsv_data *x = calloc(1, sizeof *x);
		if (x == NULL || (x->rowptr = calloc(1, sizeof *x->rowptr)) == NULL) {
			free(x);
			return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", path);
		}
		x->unlabeled = unlabeled == 0.0 ? 0.0 : unlabeled;
		*out = x;
		return LSV_OK;
	}
	pt.start = start;
	pt.end = end;
	pt.first_line = first_line;
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	buf = lsv_big_buffer(fp);
	if (fseeko(fp, (off_t)start, SEEK_SET) != 0)
		st = lsv_fail(err, LSV_EIO, "%s: cannot seek: %s", path,
			      strerror(errno));
	else
		st = read_data(fp, path, unlabeled, &pt, out, NULL, err);
	fclose(fp);
	free(buf);
	return st;
}

static int cmp_var(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

lsv_status lsv_data_feature_spread(const lsv_data *x, lsv_feature_spread *s,
				   lsv_error *err)
{
	double *mean, *var, total = 0.0, n = (double)x->n;
	size_t *count, j, k, best = 0, nv = 0;

	memset(s, 0, sizeof *s);
	if (x->dim == 0 || x->dim > ((size_t)1 << 24))
		return LSV_OK;
	mean = calloc(x->dim, sizeof *mean);
	var = calloc(x->dim, sizeof *var);
	count = calloc(x->dim, sizeof *count);
	if (mean == NULL || var == NULL || count == NULL) {
		free(mean);
		free(var);
		free(count);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu features",
				x->dim);
	}
	for (k = 0; k < x->nnz; k++) {
		mean[x->col[k]] += x->val[k];
		count[x->col[k]]++;
	}
	for (j = 0; j < x->dim; j++)
		mean[j] /= n;
	/* n var_j = the stored values' (x_ij - mean_j)^2, and mean_j^2 for
	 * each of the n - count_j rows whose x_ij is an implicit 0 */
	for (k = 0; k < x->nnz; k++) {
		double d = x->val[k] - mean[x->col[k]];
		var[x->col[k]] += d * d;
	}
	for (j = 0; j < x->dim; j++) {
		var[j] += (double)(x->n - count[j]) * mean[j] * mean[j];
		total += var[j];
		if (var[j] > var[best])
			best = j;
	}
	if (total > 0.0) {
		s->feature = best + 1;
		s->share = var[best] / total;
		/* the varying features' variances, in mean[], for the median */
		for (j = 0; j < x->dim; j++)
			if (var[j] > 1e-12 * total)
				mean[nv++] = var[j];
		qsort(mean, nv, sizeof *mean, cmp_var);
		s->varying = nv;
		/* against the median of the others (best is mean[nv - 1]): of
		 * two features, the other one (the median of both would be
		 * their mean, never under half the largest) */
		s->std_ratio = sqrt(var[best] / mean[(nv - 1) / 2]);
	}
	free(mean);
	free(var);
	free(count);
	return LSV_OK;
}
