/*
 * model.c -- trained models: the text file format, and prediction.
 *
 * A model holds nr_fn decision functions over its expansion points sv
 * (JMLR 2006 eq. 5, the representer theorem):
 *
 *     f_c(x) = sum_i coef[i nr_fn + c] k(sv_i, x) + bias[c]
 *
 * The file is text, so it can be read, diffed and checked by eye:
 *
 *     lapsvm_model 1
 *     key value            one per header key, in any order, none repeated
 *     ...
 *     SV
 *     c_1 .. c_nr_fn index:value index:value ...    one line per sv
 *
 * Numbers are written with %.17g, which strtod reads back to the same
 * double, so read(write(m)) is m bit for bit.  The reader makes one pass
 * and grows its arrays as lines arrive: the counts in the header are
 * checked against what the file really holds, never trusted for an
 * allocation, so a corrupt "nr_sv 2147483647" costs nothing.  Every refusal
 * names the file and the line: "NAME:LINE: what (found X, expected Y)".
 *
 * Prediction computes K(sv, x) for blocks of at most BLOCK test rows
 * (lsv_kernel_matrix, BLAS inside) and multiplies by coef with one dgemm
 * per block, so memory is O(BLOCK x nr_sv) whatever the test set's size.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

/* Test rows per kernel block, and the most kernel values held at once
 * (2^24 doubles, 128 MiB): a model with more than 16384 expansion points
 * gets proportionally smaller blocks. */
#define BLOCK 1024
#define MAX_KBLOCK ((size_t)1 << 24)

void lsv_model_free(lsv_model *m)
{
	if (m == NULL)
		return;
	free(m->labels);
	free(m->bias);
	free(m->coef);
	free(m->graph);
	lsv_data_free(m->sv);
	free(m);
}

/* ------------------------------------------------------------------ */
/* Checks shared by the writer and the reader                          */
/* ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* 1 if some value occurs twice in v[0..n) (then *dup is it), 0 if not, -1
 * out of memory.  Sorted copy: O(n log n) even for a hostile labels line. */
static int find_duplicate(const double *v, size_t n, double *dup)
{
	double *w;
	size_t i;
	int found = 0;

	if (n < 2)
		return 0;
	w = malloc(n * sizeof *w);
	if (w == NULL)
		return -1;
	memcpy(w, v, n * sizeof *w);
	qsort(w, n, sizeof *w, cmp_double);
	for (i = 1; i < n && !found; i++)
		if (w[i] == w[i - 1]) {
			*dup = w[i];
			found = 1;
		}
	free(w);
	return found;
}

/* A graph description must survive the line reader unchanged: no line
 * break, no '#' (a comment to the reader), no blank at either end. */
static int graph_text_ok(const char *g)
{
	size_t len = strlen(g);

	if (strpbrk(g, "\n\r#") != NULL)
		return 0;
	return len == 0 || (g[0] != ' ' && g[0] != '\t' && g[len - 1] != ' ' &&
			    g[len - 1] != '\t');
}

static int all_finite(const double *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

/* The first header value the reader would refuse, or NULL. */
static const char *bad_param(const lsv_model *m)
{
	const lsv_train_param *p = &m->param;

	if (!isfinite(p->kernel.gamma))
		return "gamma is not finite";
	if (!(p->gamma_A > 0.0) || !isfinite(p->gamma_A))
		return "gamma_A is not a finite number > 0";
	if (!(p->gamma_I >= 0.0) || !isfinite(p->gamma_I))
		return "gamma_I is not a finite number >= 0";
	if (p->power < 1)
		return "laplacian_power is below 1";
	if (!(p->eps > 0.0) || !isfinite(p->eps))
		return "eps is not a finite number > 0";
	if (p->max_iter < 0)
		return "max_iter is negative";
	if (!isfinite(m->unlabeled))
		return "the unlabeled marker is not finite";
	if (p->solver == LSV_SOLVER_TSVM) {  /* only the TSVM writes these */
		if (!(p->tsvm_cstar >= 0.0) || !isfinite(p->tsvm_cstar))
			return "tsvm_cstar is not a finite number >= 0";
		if (!(p->tsvm_r >= 0.0 && p->tsvm_r < 1.0))
			return "tsvm_r is not in [0, 1)";
		if (p->tsvm_max_switches < 0)
			return "tsvm_max_switches is negative";
	}
	return NULL;
}

/* Everything the reader would refuse, refused before a byte is written:
 * a model that lsv_model_write accepts always reads back. */
static lsv_status check_model(const lsv_model *m, const char *name,
			      lsv_error *err)
{
	const char *why_param = bad_param(m);
	lsv_error why;
	double dup;
	int want_fn, c;

#define REFUSE(...) lsv_fail(err, LSV_EINVAL, "%s: cannot write the model: " \
			     __VA_ARGS__)
	if (lsv_solver_name(m->param.solver) == NULL)
		return REFUSE("unknown solver %d", name, (int)m->param.solver);
	if (lsv_kernel_check(&m->param.kernel, &why) != LSV_OK)
		return REFUSE("%s", name, why.msg);
	if (why_param != NULL)
		return REFUSE("%s", name, why_param);
	if (m->nr_class < 2)
		return REFUSE("nr_class %d (expected at least 2)", name,
			      m->nr_class);
	want_fn = m->nr_class == 2 ? 1 : m->nr_class;
	if (m->nr_fn != want_fn)
		return REFUSE("nr_fn %d with %d classes (expected %d)", name,
			      m->nr_fn, m->nr_class, want_fn);
	if (m->labels == NULL || m->bias == NULL || m->sv == NULL ||
	    (m->coef == NULL && m->sv->n > 0))
		return REFUSE("labels, bias, sv or coef missing", name);
	if (!all_finite(m->labels, (size_t)m->nr_class))
		return REFUSE("a label is not finite", name);
	switch (find_duplicate(m->labels, (size_t)m->nr_class, &dup)) {
	case 1:
		return REFUSE("label %.17g appears twice", name, dup);
	case -1:
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	}
	for (c = 0; c < m->nr_class; c++)
		if (m->labels[c] == m->unlabeled)
			return REFUSE("label %.17g is the unlabeled marker", name,
				      m->labels[c]);
	if (!all_finite(m->bias, (size_t)m->nr_fn))
		return REFUSE("a bias is not finite", name);
	if (m->sv->n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%s: cannot write the model: "
				"%zu expansion points (at most %d)", name, m->sv->n,
				INT_MAX);
	if (!all_finite(m->coef, m->sv->n * (size_t)m->nr_fn))
		return REFUSE("an expansion coefficient is not finite (did "
			      "training diverge?)", name);
	if (!all_finite(m->sv->val, m->sv->nnz))
		return REFUSE("an expansion point has a value that is not finite",
			      name);
	if (m->graph != NULL && !graph_text_ok(m->graph))
		return REFUSE("the graph description holds a line break or '#', "
			      "or starts or ends with a blank, so it would not "
			      "read back", name);
#undef REFUSE
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

static void write_list(FILE *fp, const char *key, const double *v, size_t n)
{
	size_t i;

	fputs(key, fp);
	for (i = 0; i < n; i++)
		fprintf(fp, " %.17g", v[i]);
	putc('\n', fp);
}

lsv_status lsv_model_write(FILE *fp, const char *name, const lsv_model *m,
			   lsv_error *err)
{
	const lsv_train_param *p = &m->param;
	const lsv_data *sv = m->sv;
	size_t i, q, nf;
	lsv_status st;
	int c;

	if ((st = check_model(m, name, err)) != LSV_OK)
		return st;
	nf = (size_t)m->nr_fn;
	fprintf(fp, "lapsvm_model 1\n");
	fprintf(fp, "solver %s\n", lsv_solver_name(p->solver));
	fprintf(fp, "kernel %s\n", lsv_kernel_name(p->kernel.type));
	fprintf(fp, "degree %d\n", p->kernel.degree);
	fprintf(fp, "gamma %.17g\n", p->kernel.gamma);
	fprintf(fp, "coef0 %.17g\n", p->kernel.coef0);
	fprintf(fp, "gamma_A %.17g\n", p->gamma_A);
	fprintf(fp, "gamma_I %.17g\n", p->gamma_I);
	fprintf(fp, "laplacian %s\n",
		p->normalized ? "normalized" : "unnormalized");
	fprintf(fp, "laplacian_power %d\n", p->power);
	fprintf(fp, "eps %.17g\n", p->eps);
	fprintf(fp, "max_iter %ld\n", p->max_iter);
	fprintf(fp, "l %zu\n", m->l);
	fprintf(fp, "u %zu\n", m->u);
	fprintf(fp, "unlabeled_marker %.17g\n", m->unlabeled);
	if (m->graph != NULL)
		fprintf(fp, "graph %s\n", m->graph);
	if (p->method != LSV_METHOD_DIRECT)
		fprintf(fp, "method %s\n", lsv_method_name(p->method));
	if (p->landmarks > 0)
		fprintf(fp, "landmarks %ld\nseed %llu\n", p->landmarks, p->seed);
	if (p->solver == LSV_SOLVER_TSVM) {
		fprintf(fp, "tsvm_cstar %.17g\n", p->tsvm_cstar);
		fprintf(fp, "tsvm_r %.17g\n", p->tsvm_r);
		fprintf(fp, "tsvm_max_switches %ld\n", p->tsvm_max_switches);
	}
	fprintf(fp, "nr_class %d\n", m->nr_class);
	write_list(fp, "labels", m->labels, (size_t)m->nr_class);
	fprintf(fp, "nr_fn %d\n", m->nr_fn);
	write_list(fp, "bias", m->bias, nf);
	fprintf(fp, "nr_sv %zu\n", sv->n);
	fprintf(fp, "SV\n");
	for (i = 0; i < sv->n && !ferror(fp); i++) {
		for (c = 0; c < m->nr_fn; c++)
			fprintf(fp, c ? " %.17g" : "%.17g", m->coef[i * nf + (size_t)c]);
		for (q = sv->rowptr[i]; q < sv->rowptr[i + 1]; q++)
			fprintf(fp, " %d:%.17g", sv->col[q] + 1, sv->val[q]);
		putc('\n', fp);
	}
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* The header keys, in the order the writer puts them. */
enum {
	K_SOLVER, K_KERNEL, K_DEGREE, K_GAMMA, K_COEF0, K_GAMMA_A, K_GAMMA_I,
	K_LAPLACIAN, K_POWER, K_EPS, K_MAX_ITER, K_L, K_U, K_MARKER, K_GRAPH,
	K_NR_CLASS, K_LABELS, K_NR_FN, K_BIAS, K_NR_SV, K_TSVM_CSTAR, K_TSVM_R,
	K_TSVM_SWITCHES, K_METHOD, K_LANDMARKS, K_SEED, NKEYS
};

/* Keys a model may omit: the graph, and the TSVM's (other solvers). */
static int optional_key(int k)
{
	return k == K_GRAPH || k == K_TSVM_CSTAR || k == K_TSVM_R ||
	       k == K_TSVM_SWITCHES || k == K_METHOD || k == K_LANDMARKS ||
	       k == K_SEED;
}

static const char *const key_names[NKEYS] = {
	"solver", "kernel", "degree", "gamma", "coef0", "gamma_A", "gamma_I",
	"laplacian", "laplacian_power", "eps", "max_iter", "l", "u",
	"unlabeled_marker", "graph", "nr_class", "labels", "nr_fn", "bias",
	"nr_sv", "tsvm_cstar", "tsvm_r", "tsvm_max_switches", "method",
	"landmarks", "seed"
};

/* State of one read. */
typedef struct {
	const char *name;
	size_t line;
	lsv_error *err;
	size_t seen[NKEYS];     /* line of each key, 0 if not yet seen */
	lsv_model *m;
	long nr_sv;
	size_t cap_labels, cap_bias;
	size_t nlabels, nbias;
	size_t cap_rows, cap_nnz, cap_coef;
} reader;

static lsv_status bad(reader *r, const char *what, const char *tok,
		      const char *want)
{
	return lsv_bad_token(r->err, r->name, r->line, what, tok, want);
}

static lsv_status nomem(reader *r)
{
	return lsv_fail(r->err, LSV_ENOMEM, "%s:%zu: out of memory", r->name,
			r->line);
}

/* The one value of a "key value" line; nothing may follow it. */
static lsv_status one_value(reader *r, const char *key, char *s, char **tok,
			    const char *want)
{
	char *extra;

	*tok = lsv_token(&s);
	if (*tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing value for %s (expected %s)", r->name,
				r->line, key, want);
	extra = lsv_token(&s);
	if (extra != NULL) {
		char what[64];
		snprintf(what, sizeof what, "extra text after the %s value", key);
		return bad(r, what, extra, "end of line");
	}
	return LSV_OK;
}

/* A finite double; positive: > 0 required; nonneg: >= 0 required. */
static lsv_status key_double(reader *r, const char *key, char *s, double *out,
			     int positive, int nonneg)
{
	const char *want = positive ? "a number > 0"
				    : nonneg ? "a number >= 0" : "a finite number";
	char what[64], *tok;
	lsv_error why;
	lsv_status st;
	double v;

	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	snprintf(what, sizeof what, "bad %s", key);
	if (lsv_parse_double(tok, &v, &why) != LSV_OK)
		return bad(r, what, tok, positive || nonneg ? want : lsv_want_number(&why));
	if ((positive && !(v > 0.0)) || (nonneg && !(v >= 0.0)))
		return bad(r, what, tok, want);
	*out = v;
	return LSV_OK;
}

/* An integer in [min, max]. */
static lsv_status key_long(reader *r, const char *key, char *s, long min,
			   long max, long *out)
{
	char what[64], want[96], *tok;
	lsv_error why;
	lsv_status st;

	snprintf(want, sizeof want, "an integer in %ld..%ld", min, max);
	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	snprintf(what, sizeof what, "bad %s", key);
	if (lsv_parse_long(tok, min, max, out, &why) != LSV_OK)
		return bad(r, what, tok, want);
	return LSV_OK;
}

/* One of names[0..count), by position. */
static lsv_status key_name(reader *r, const char *key, char *s,
			   const char *const *names, int count, int *out,
			   const char *want)
{
	char what[64], *tok;
	lsv_status st;
	int i;

	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	for (i = 0; i < count; i++)
		if (strcmp(tok, names[i]) == 0) {
			*out = i;
			return LSV_OK;
		}
	snprintf(what, sizeof what, "unknown %s", key);
	return bad(r, what, tok, want);
}

/* "key v v v ...": at least one finite number, grown into *v. */
static lsv_status key_list(reader *r, const char *key, char *s, double **v,
			   size_t *n, size_t *cap)
{
	char what[64], *tok;
	lsv_error why;
	double x;

	snprintf(what, sizeof what, "bad value in %s", key);
	while ((tok = lsv_token(&s)) != NULL) {
		if (lsv_parse_double(tok, &x, &why) != LSV_OK)
			return bad(r, what, tok, lsv_want_number(&why));
		if (lsv_grow((void **)v, cap, *n + 1, sizeof **v))
			return nomem(r);
		(*v)[(*n)++] = x;
	}
	if (*n == 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing values for %s (expected at least "
				"one number)", r->name, r->line, key);
	return LSV_OK;
}

/* One header line: key (already cut off), then s, its value(s). */
static lsv_status parse_header(reader *r, const char *key, char *s)
{
	static const char *const solvers[] = {"lapsvm", "laprls", "tsvm"};
	static const char *const kernels[] = {"linear", "polynomial", "rbf"};
	static const char *const laps[] = {"unnormalized", "normalized"};
	lsv_model *m = r->m;
	lsv_train_param *p = &m->param;
	long v = 0;
	int k, i = 0;
	lsv_status st = LSV_OK;

	for (k = 0; k < NKEYS; k++)
		if (strcmp(key, key_names[k]) == 0)
			break;
	if (k == NKEYS)
		return bad(r, "unknown key", key,
			   "a header key such as 'kernel' or 'nr_sv', or 'SV'");
	if (r->seen[k])
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: repeated key '%s' (first on line %zu, "
				"expected each key once)", r->name, r->line, key,
				r->seen[k]);
	r->seen[k] = r->line;

	switch (k) {
	case K_SOLVER:
		st = key_name(r, key, s, solvers, 3, &i, "lapsvm, laprls or tsvm");
		p->solver = (lsv_solver)i;
		break;
	case K_KERNEL:
		st = key_name(r, key, s, kernels, 3, &i,
			      "linear, polynomial or rbf");
		p->kernel.type = (lsv_kernel_type)i;
		break;
	case K_DEGREE:
		/* Its range depends on the kernel: lsv_kernel_check, at SV. */
		st = key_long(r, key, s, INT_MIN, INT_MAX, &v);
		p->kernel.degree = (int)v;
		break;
	case K_GAMMA:
		st = key_double(r, key, s, &p->kernel.gamma, 0, 0);
		break;
	case K_COEF0:
		st = key_double(r, key, s, &p->kernel.coef0, 0, 0);
		break;
	case K_GAMMA_A:
		st = key_double(r, key, s, &p->gamma_A, 1, 0);
		break;
	case K_GAMMA_I:
		st = key_double(r, key, s, &p->gamma_I, 0, 1);
		break;
	case K_LAPLACIAN:
		st = key_name(r, key, s, laps, 2, &p->normalized,
			      "normalized or unnormalized");
		break;
	case K_POWER:
		st = key_long(r, key, s, 1, INT_MAX, &v);
		p->power = (int)v;
		break;
	case K_EPS:
		st = key_double(r, key, s, &p->eps, 1, 0);
		break;
	case K_MAX_ITER:
		st = key_long(r, key, s, 0, LONG_MAX, &p->max_iter);
		break;
	case K_TSVM_CSTAR:
		/* >= 0 as in lsv_train_param (0: C), so the 0 of a TSVM model
		 * read without this key is written and read back. */
		st = key_double(r, key, s, &p->tsvm_cstar, 0, 1);
		break;
	case K_TSVM_R:
		st = key_double(r, key, s, &p->tsvm_r, 0, 1);
		if (st == LSV_OK && !(p->tsvm_r < 1.0))
			st = lsv_fail(r->err, LSV_EFORMAT,
				      "%s:%zu: tsvm_r %.17g out of range (expected "
				      "0 <= r < 1, 0 for the labeled ratio)", r->name,
				      r->line, p->tsvm_r);
		break;
	case K_METHOD: {
		static const char *const methods[] = {"direct", "pcg", "pcg-early",
						      "newton"};
		st = key_name(r, key, s, methods, 4, &i,
			      "direct, pcg, pcg-early or newton");
		p->method = (lsv_method)i;
		break;
	}
	case K_LANDMARKS:
		st = key_long(r, key, s, 1, LONG_MAX, &p->landmarks);
		break;
	case K_SEED: {
		long sd;
		st = key_long(r, key, s, 0, LONG_MAX, &sd);
		p->seed = (unsigned long long)sd;
		break;
	}
	case K_TSVM_SWITCHES:
		st = key_long(r, key, s, 0, LONG_MAX, &p->tsvm_max_switches);
		break;
	case K_L:
		st = key_long(r, key, s, 0, LONG_MAX, &v);
		m->l = (size_t)v;
		break;
	case K_U:
		st = key_long(r, key, s, 0, LONG_MAX, &v);
		m->u = (size_t)v;
		break;
	case K_MARKER:
		st = key_double(r, key, s, &m->unlabeled, 0, 0);
		if (m->unlabeled == 0.0)
			m->unlabeled = 0.0;  /* -0 is the marker 0, as in data */
		break;
	case K_GRAPH: {
		/* Free text to the end of the line (blanks inside kept). */
		size_t len;
		while (*s == ' ' || *s == '\t')
			s++;
		/* A lone CR inside (the line reader strips only a final one)
		 * would not be written back: the writer refuses it. */
		if (strchr(s, '\r') != NULL)
			return bad(r, "carriage return in the graph description", s,
				   "one line of text");
		len = strlen(s);
		m->graph = malloc(len + 1);
		if (m->graph == NULL)
			return nomem(r);
		memcpy(m->graph, s, len + 1);
		break;
	}
	case K_NR_CLASS:
		st = key_long(r, key, s, 2, INT_MAX, &v);
		m->nr_class = (int)v;
		break;
	case K_LABELS: {
		double dup;
		st = key_list(r, key, s, &m->labels, &r->nlabels, &r->cap_labels);
		if (st != LSV_OK)
			break;
		for (i = 0; (size_t)i < r->nlabels; i++)
			if (m->labels[i] == 0.0)
				m->labels[i] = 0.0;  /* a label -0 is 0, as in data */
		switch (find_duplicate(m->labels, r->nlabels, &dup)) {
		case 1:
			st = lsv_fail(r->err, LSV_EFORMAT,
				      "%s:%zu: label %.17g appears twice (expected "
				      "distinct labels, one per class)", r->name,
				      r->line, dup);
			break;
		case -1:
			st = nomem(r);
			break;
		}
		break;
	}
	case K_NR_FN:
		st = key_long(r, key, s, 1, INT_MAX, &v);
		m->nr_fn = (int)v;
		break;
	case K_BIAS:
		st = key_list(r, key, s, &m->bias, &r->nbias, &r->cap_bias);
		break;
	case K_NR_SV:
		st = key_long(r, key, s, 0, INT_MAX, &r->nr_sv);
		break;
	}
	return st;
}

/* At "SV": every key but graph given, and the counts agree. */
static lsv_status check_header(reader *r)
{
	lsv_model *m = r->m;
	lsv_error why;
	int k, c, want_fn;

	for (k = 0; k < NKEYS; k++)
		if (!optional_key(k) && !r->seen[k])
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: missing key '%s' (expected every "
					"header key before SV)", r->name, r->line,
					key_names[k]);
	if (r->nlabels != (size_t)m->nr_class)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of labels (found %zu, expected "
				"nr_class = %d)", r->name, r->seen[K_LABELS],
				r->nlabels, m->nr_class);
	want_fn = m->nr_class == 2 ? 1 : m->nr_class;
	if (m->nr_fn != want_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: bad nr_fn (found %d, expected %d for %d "
				"classes: one function for two classes, else one per "
				"class)", r->name, r->seen[K_NR_FN], m->nr_fn, want_fn,
				m->nr_class);
	if (r->nbias != (size_t)m->nr_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of bias values (found %zu, "
				"expected nr_fn = %d)", r->name, r->seen[K_BIAS],
				r->nbias, m->nr_fn);
	for (c = 0; c < m->nr_class; c++)
		if (m->labels[c] == m->unlabeled)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: unlabeled_marker %.17g is also a class "
					"label (expected a value that no class uses)",
					r->name, r->seen[K_MARKER], m->unlabeled);
	if (lsv_kernel_check(&m->param.kernel, &why) != LSV_OK) {
		/* The kernel's name was checked on its line; what is left is
		 * the polynomial degree or gamma. */
		const lsv_kernel *kk = &m->param.kernel;
		size_t at = kk->type == LSV_KERNEL_POLY &&
					    (kk->degree < 1 || kk->degree > 100)
				    ? r->seen[K_DEGREE] : r->seen[K_GAMMA];
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: bad kernel parameter: %s", r->name, at,
				why.msg);
	}
	return LSV_OK;
}

/* One expansion point: nr_fn coefficients, then index:value pairs. */
static lsv_status parse_sv(reader *r, char *s)
{
	lsv_model *m = r->m;
	lsv_data *x = m->sv;
	size_t nf = (size_t)m->nr_fn, c, svno = x->n + 1;
	char what[96], want[64], *tok;
	lsv_error why;
	lsv_status st;
	double v;

	if (lsv_grow((void **)&x->rowptr, &r->cap_rows, x->n + 2,
		     sizeof *x->rowptr) ||
	    lsv_grow((void **)&m->coef, &r->cap_coef, (x->n + 1) * nf,
		     sizeof *m->coef))
		return nomem(r);
	x->rowptr[x->n] = x->nnz;
	if (*s == '\0')
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: empty line (expected SV %zu of %ld: %zu "
				"coefficient%s, then index:value ...)", r->name,
				r->line, svno, r->nr_sv, nf, nf == 1 ? "" : "s");
	snprintf(want, sizeof want, "%zu coefficient%s before index:value", nf,
		 nf == 1 ? "" : "s");
	for (c = 0; c < nf; c++) {
		tok = lsv_token(&s);
		if (tok == NULL)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: missing coefficient %zu of SV %zu "
					"(found end of line, expected %s)", r->name,
					r->line, c + 1, svno, want);
		snprintf(what, sizeof what, "%s coefficient %zu of SV %zu",
			 strchr(tok, ':') ? "missing" : "bad", c + 1, svno);
		if (strchr(tok, ':') != NULL)
			return bad(r, what, tok, want);
		if (lsv_parse_double(tok, &v, &why) != LSV_OK)
			return bad(r, what, tok, lsv_want_number(&why));
		m->coef[x->n * nf + c] = v;
	}
	/* The features, with the data reader's rules and messages. */
	if ((st = lsv_parse_features(s, x, &r->cap_nnz, r->name, r->line,
				     r->err)) != LSV_OK)
		return st;
	x->n++;
	return LSV_OK;
}

/* Line 1: exactly "lapsvm_model 1"; say what else it looks like. */
static lsv_status parse_magic(reader *r, char *s)
{
	char shown[LSV_SHOW + 4], *tok, *ver, *extra;
	double num;
	size_t len = strlen(s);

	snprintf(shown, sizeof shown, "%.*s%s", LSV_SHOW, s,
		 len > LSV_SHOW ? "..." : "");
	tok = lsv_token(&s);
	if (tok == NULL || strcmp(tok, "lapsvm_model") != 0) {
		const char *looks = "";
		if (tok != NULL && lsv_parse_double(tok, &num, NULL) == LSV_OK)
			looks = "; this looks like a data or graph file";
		else if (tok != NULL && strcmp(tok, "svm_type") == 0)
			looks = "; this looks like a LIBSVM model";
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: not a lapsvm model file (found '%s', "
				"expected 'lapsvm_model 1'%s)", r->name, r->line,
				shown, looks);
	}
	ver = lsv_token(&s);
	if (ver == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing model version (found '%s', "
				"expected 'lapsvm_model 1')", r->name, r->line, shown);
	if (strcmp(ver, "1") != 0)
		return bad(r, "unsupported model version", ver, "1");
	extra = lsv_token(&s);
	if (extra != NULL)
		return bad(r, "extra text after the model version", extra,
			   "end of line");
	return LSV_OK;
}

lsv_status lsv_model_read(FILE *fp, const char *name, lsv_model **out,
			  lsv_error *err)
{
	lsv_lines in = {fp, name, NULL, 0, 0};
	reader r;
	lsv_model *m;
	char *s;
	int got, part = 0;  /* 0: magic line, 1: header, 2: SV lines */
	lsv_status st = LSV_OK;

	*out = NULL;
	memset(&r, 0, sizeof r);
	r.name = name;
	r.err = err;
	m = r.m = calloc(1, sizeof *m);
	if (m == NULL || (m->sv = calloc(1, sizeof *m->sv)) == NULL) {
		free(m);
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	}

	while ((got = lsv_lines_next(&in, &s, err)) == 1) {
		r.line = in.line;
		if (part == 0) {
			st = parse_magic(&r, s);
			part = 1;
		} else if (part == 1) {
			char *tok = lsv_token(&s);
			if (tok == NULL) {
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: empty line (expected 'key value' "
					      "or 'SV')", name, r.line);
			} else if (strcmp(tok, "SV") == 0) {
				if ((tok = lsv_token(&s)) != NULL)
					st = bad(&r, "extra text after SV", tok,
						 "end of line");
				else
					st = check_header(&r);
				part = 2;
			} else {
				st = parse_header(&r, tok, s);
			}
		} else if (m->sv->n < (size_t)r.nr_sv) {
			st = parse_sv(&r, s);
		} else {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: %s after the last SV line (found "
				      "'%.*s%s', expected end of file after nr_sv = "
				      "%ld lines)", name, r.line,
				      *s ? "text" : "empty line", LSV_SHOW, s,
				      strlen(s) > LSV_SHOW ? "..." : "", r.nr_sv);
		}
		if (st != LSV_OK)
			break;
	}
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
	lsv_lines_done(&in);
	if (st == LSV_OK) {
		int k;
		if (part == 0)
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s: empty file (expected 'lapsvm_model 1')",
				      name);
		else if (part == 1) {
			for (k = 0; k < NKEYS; k++)
				if (!optional_key(k) && !r.seen[k])
					break;
			if (k < NKEYS)
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: end of file in the header: key "
					      "'%s' is missing (expected every header "
					      "key, then SV)", name, in.line,
					      key_names[k]);
			else
				st = lsv_fail(err, LSV_EFORMAT,
					      "%s:%zu: end of file before the SV "
					      "section (expected a line 'SV')", name,
					      in.line);
		} else if (m->sv->n < (size_t)r.nr_sv)
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: end of file after %zu SV lines "
				      "(expected nr_sv = %ld)", name, in.line,
				      m->sv->n, r.nr_sv);
	}
	if (st == LSV_OK) {
		lsv_data *x = m->sv;
		/* The expansion points as a data set: unlabeled, y = 0. */
		if (x->rowptr == NULL &&
		    (x->rowptr = malloc(sizeof *x->rowptr)) == NULL)
			st = lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
		else if ((x->y = calloc(x->n ? x->n : 1, sizeof *x->y)) == NULL)
			st = lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
		else {
			x->rowptr[x->n] = x->nnz;
			x->l = 0;
			x->unlabeled = m->unlabeled;
		}
	}
	if (st != LSV_OK) {
		lsv_model_free(m);
		return st;
	}
	*out = m;
	return LSV_OK;
}

lsv_status lsv_model_read_path(const char *path, lsv_model **out,
			       lsv_error *err)
{
	FILE *fp;
	lsv_status st;

	*out = NULL;
	if (strcmp(path, "-") == 0)
		return lsv_model_read(stdin, "(stdin)", out, err);
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail(err, LSV_EIO, "%s: cannot open: %s", path,
				strerror(errno));
	st = lsv_model_read(fp, path, out, err);
	fclose(fp);
	return st;
}

/* ------------------------------------------------------------------ */
/* Prediction                                                          */
/* ------------------------------------------------------------------ */

lsv_status lsv_model_decision(const lsv_model *m, const lsv_data *x,
			      double *scores, lsv_error *err)
{
	size_t nsv = m->sv->n, nf = (size_t)m->nr_fn, block, r0, i;
	size_t *idx = NULL;
	double *K = NULL;
	lsv_status st = LSV_OK;
	const double one = 1.0;
	int c;

	if (m->nr_fn < 1)
		return lsv_fail(err, LSV_EINVAL, "model has nr_fn = %d (expected >= 1)",
				m->nr_fn);
	if (x->n == 0)
		return LSV_OK;
	if (nsv > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"model has %zu expansion points (at most %d)", nsv,
				INT_MAX);
	block = BLOCK;
	if (nsv > 0 && block > MAX_KBLOCK / nsv)
		block = MAX_KBLOCK / nsv ? MAX_KBLOCK / nsv : 1;
	if (block > x->n)
		block = x->n;
	idx = malloc(block * sizeof *idx);
	K = malloc((block * nsv + 1) * sizeof *K);
	if (idx == NULL || K == NULL) {
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for a kernel block of %zu x %zu", block,
			      nsv);
		goto done;
	}
	for (r0 = 0; r0 < x->n; r0 += block) {
		size_t cnt = x->n - r0 < block ? x->n - r0 : block;
		int NF = m->nr_fn, CNT = (int)cnt, NSV = (int)nsv;
		double *S = scores + r0 * nf;

		for (i = 0; i < cnt; i++) {
			idx[i] = r0 + i;
			for (c = 0; c < m->nr_fn; c++)
				S[i * nf + (size_t)c] = m->bias[c];
		}
		if (nsv == 0)
			continue;
		/* K[s + j nsv] = k(sv_s, x_{r0+j}): nsv x cnt, column-major. */
		st = lsv_kernel_matrix_named(&m->param.kernel, m->sv, NULL, nsv, x,
					     idx, cnt, K, "expansion point", "row",
					     err);
		if (st != LSV_OK)
			goto done;
		/* S is cnt x nr_fn row-major, i.e. nr_fn x cnt column-major,
		 * and coef (nsv x nr_fn row-major) is C = nr_fn x nsv
		 * column-major: S += C K, with S already holding the bias. */
		dgemm_("N", "N", &NF, &CNT, &NSV, &one, m->coef, &NF, K, &NSV, &one,
		       S, &NF, 1, 1);
		/* Finite coefficients and kernel values can still sum past
		 * the largest double: never hand out an infinite or NaN score. */
		for (i = 0; i < cnt * nf; i++)
			if (!isfinite(S[i])) {
				st = lsv_fail(err, LSV_ENUMERIC,
					      "decision value of row %zu is not finite "
					      "(found %g): the model's coefficients times "
					      "its kernel values overflow a double",
					      r0 + i / nf + 1, S[i]);
				goto done;
			}
	}
done:
	free(idx);
	free(K);
	return st;
}

double lsv_model_label(const lsv_model *m, const double *scores)
{
	int c, best = 0;

	if (m->nr_fn == 1)
		return scores[0] > 0.0 ? m->labels[0] : m->labels[1];
	/* Largest f_c; a tie goes to the lowest class index (strict >). */
	for (c = 1; c < m->nr_fn; c++)
		if (scores[c] > scores[best])
			best = c;
	return m->labels[best];
}
