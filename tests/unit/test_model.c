/* Models: the file reader (accepted forms, every refusal with its exact
 * message), the writer (exact round trip, refusals), and prediction
 * against decision values computed here by hand from the formulas. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

/* A valid two-class RBF model; the comments are the line numbers that the
 * messages below name. */
static const char base[] =
	"lapsvm_model 1\n"          /*  1 */
	"solver lapsvm\n"           /*  2 */
	"kernel rbf\n"              /*  3 */
	"degree 3\n"                /*  4 */
	"gamma 0.5\n"               /*  5 */
	"coef0 0\n"                 /*  6 */
	"gamma_A 0.001\n"           /*  7 */
	"gamma_I 0.01\n"            /*  8 */
	"laplacian normalized\n"    /*  9 */
	"laplacian_power 1\n"       /* 10 */
	"eps 0.001\n"               /* 11 */
	"max_iter 0\n"              /* 12 */
	"l 2\n"                     /* 13 */
	"u 1\n"                     /* 14 */
	"unlabeled_marker 0\n"      /* 15 */
	"graph knn k=6\n"           /* 16 */
	"nr_class 2\n"              /* 17 */
	"labels 1 -1\n"             /* 18 */
	"nr_fn 1\n"                 /* 19 */
	"bias -0.5\n"               /* 20 */
	"nr_sv 3\n"                 /* 21 */
	"SV\n"                      /* 22 */
	"1 1:1 2:2\n"               /* 23 */
	"-1 1:0.5\n"                /* 24 */
	"0.25 2:-1\n";              /* 25 */

/* Read text (len bytes; may hold NUL) as file "m". */
static lsv_status read_mem(const char *text, size_t len, lsv_model **m,
			   lsv_error *e)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	lsv_status st;
	if (fp == NULL)
		return LSV_EIO;
	st = lsv_model_read(fp, "m", m, e);
	fclose(fp);
	return st;
}

static lsv_status read_str(const char *text, lsv_model **m, lsv_error *e)
{
	return read_mem(text, strlen(text), m, e);
}

/* base with its first occurrence of `from` replaced by `to` (malloc'd). */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t pre, len;
	char *s;

	if (at == NULL)
		return NULL;
	pre = (size_t)(at - text);
	len = strlen(text) - strlen(from) + strlen(to);
	s = malloc(len + 1);
	memcpy(s, text, pre);
	strcpy(s + pre, to);
	strcat(s, at + strlen(from));
	return s;
}

/* base with `from` replaced by `to`, then read. */
static lsv_model *read_subst(const char *from, const char *to)
{
	char *text = subst(base, from, to);
	lsv_model *m = NULL;
	lsv_error e;
	if (text == NULL)
		return NULL;
	if (read_str(text, &m, &e) != LSV_OK)
		fprintf(stderr, "  unexpected: %s\n", e.msg);
	free(text);
	return m;
}

/* Data from text ("t"), marker 0. */
static lsv_data *data(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_data *x = NULL;
	lsv_error e;
	if (fp == NULL)
		return NULL;
	if (lsv_data_read(fp, "t", 0.0, &x, &e) != LSV_OK)
		fprintf(stderr, "  unexpected: %s\n", e.msg);
	fclose(fp);
	return x;
}

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-12 * (1.0 + fabs(want));
}

/* ------------------------------------------------------------ reading */

static void model_reads_every_field(void)
{
	lsv_model *m;
	lsv_error e;
	CHECK(read_str(base, &m, &e) == LSV_OK);
	if (m == NULL)
		return;
	CHECK(m->param.solver == LSV_SOLVER_LAPSVM);
	CHECK(m->param.kernel.type == LSV_KERNEL_RBF);
	CHECK(m->param.kernel.degree == 3 && m->param.kernel.gamma == 0.5 &&
	      m->param.kernel.coef0 == 0.0);
	CHECK(m->param.gamma_A == 0.001 && m->param.gamma_I == 0.01);
	CHECK(m->param.normalized == 1 && m->param.power == 1);
	CHECK(m->param.eps == 0.001 && m->param.max_iter == 0);
	CHECK(m->l == 2 && m->u == 1 && m->unlabeled == 0.0);
	CHECK(m->graph != NULL && strcmp(m->graph, "knn k=6") == 0);
	CHECK(m->nr_class == 2 && m->labels[0] == 1 && m->labels[1] == -1);
	CHECK(m->nr_fn == 1 && m->bias[0] == -0.5);
	CHECK(m->sv->n == 3 && m->sv->nnz == 4 && m->sv->dim == 2);
	CHECK(m->sv->l == 0 && m->sv->unlabeled == 0.0);
	CHECK(m->sv->y[0] == 0 && m->sv->y[1] == 0 && m->sv->y[2] == 0);
	CHECK(m->sv->rowptr[0] == 0 && m->sv->rowptr[1] == 2 &&
	      m->sv->rowptr[2] == 3 && m->sv->rowptr[3] == 4);
	CHECK(m->sv->col[0] == 0 && m->sv->col[1] == 1 && m->sv->col[3] == 1);
	CHECK(m->sv->val[1] == 2 && m->sv->val[2] == 0.5 && m->sv->val[3] == -1);
	CHECK(m->coef[0] == 1 && m->coef[1] == -1 && m->coef[2] == 0.25);
	lsv_model_free(m);
}

static void model_accepts_any_key_order_crlf_comments_and_no_graph(void)
{
	static const char text[] =
		"lapsvm_model 1 # written by hand\r\n"
		"# comment lines are skipped\r\n"
		"nr_sv 1\r\n"
		"labels 2 7\r\n"
		"bias 0.125\r\n"
		"nr_fn 1\r\n"
		"nr_class 2\r\n"
		"solver laprls\r\n"
		"kernel\tpolynomial \r\n"
		"degree 2\r\n"
		"gamma 1\r\n"
		"coef0 -1\r\n"
		"gamma_A 1e-3\r\n"
		"gamma_I 0\r\n"
		"laplacian unnormalized\r\n"
		"laplacian_power 2\r\n"
		"eps 1\r\n"
		"max_iter 100\r\n"
		"l 10\r\n"
		"u 0\r\n"
		"unlabeled_marker -99\r\n"
		"SV\r\n"
		"  # even among the SV lines\n"
		"3 5:1\n"
		"# and after them";
	lsv_model *m;
	lsv_error e;
	CHECK(read_str(text, &m, &e) == LSV_OK);
	if (m == NULL)
		return;
	CHECK(m->graph == NULL);
	CHECK(m->param.solver == LSV_SOLVER_LAPRLS && m->param.normalized == 0);
	CHECK(m->param.kernel.type == LSV_KERNEL_POLY && m->param.power == 2);
	CHECK(m->param.max_iter == 100 && m->l == 10 && m->u == 0);
	CHECK(m->unlabeled == -99 && m->sv->unlabeled == -99 && m->sv->l == 0);
	CHECK(m->labels[0] == 2 && m->labels[1] == 7 && m->bias[0] == 0.125);
	CHECK(m->sv->n == 1 && m->sv->dim == 5 && m->coef[0] == 3);
	lsv_model_free(m);
}

static void model_graph_is_free_text_to_end_of_line(void)
{
	lsv_model *m = read_subst("graph knn k=6\n", "graph \t kNN  k=6\tfile a b.graph\n");
	if (m == NULL) {
		CHECK(m != NULL);
		return;
	}
	CHECK_STR(m->graph, "kNN  k=6\tfile a b.graph");
	lsv_model_free(m);
}

static void model_refuses_each_malformed_line_with_its_message(void)
{
	struct { const char *from, *to, *msg; } bad[] = {
		/* The first line. */
		{"lapsvm_model 1\n", "lapsvm_model 2\n",
		 "m:1: unsupported model version (found '2', expected 1)"},
		{"lapsvm_model 1\n", "lapsvm_model 1.0\n",
		 "m:1: unsupported model version (found '1.0', expected 1)"},
		{"lapsvm_model 1\n", "lapsvm_model\n",
		 "m:1: missing model version (found 'lapsvm_model', expected 'lapsvm_model 1')"},
		{"lapsvm_model 1\n", "lapsvm_model 1 x\n",
		 "m:1: extra text after the model version (found 'x', expected end of line)"},
		{"lapsvm_model 1\n", "1 1:0.5 2:0.1\n",
		 "m:1: not a lapsvm model file (found '1 1:0.5 2:0.1', expected "
		 "'lapsvm_model 1'; this looks like a data or graph file)"},
		{"lapsvm_model 1\n", "-1 3:2\n",
		 "m:1: not a lapsvm model file (found '-1 3:2', expected "
		 "'lapsvm_model 1'; this looks like a data or graph file)"},
		{"lapsvm_model 1\n", "svm_type c_svc\n",
		 "m:1: not a lapsvm model file (found 'svm_type c_svc', expected "
		 "'lapsvm_model 1'; this looks like a LIBSVM model)"},
		{"lapsvm_model 1\n", "Lapsvm_model 1\n",
		 "m:1: not a lapsvm model file (found 'Lapsvm_model 1', expected 'lapsvm_model 1')"},
		{"lapsvm_model 1\n", "\n",
		 "m:1: not a lapsvm model file (found '', expected 'lapsvm_model 1')"},
		{"lapsvm_model 1\n", "0123456789012345678901234567890123456789xyz\n",
		 "m:1: not a lapsvm model file (found '0123456789012345678901234567890123456789...', "
		 "expected 'lapsvm_model 1')"},
		/* Header keys and values. */
		{"solver lapsvm\n", "solver svm\n",
		 "m:2: unknown solver (found 'svm', expected lapsvm, laprls, tsvm, cluster, combine, labelaware, boost or kdesign)"},
		{"solver lapsvm\n", "solver\n",
		 "m:2: missing value for solver (expected lapsvm, laprls, tsvm, cluster, combine, labelaware, boost or kdesign)"},
		{"solver lapsvm\n", "solver lapsvm laprls\n",
		 "m:2: extra text after the solver value (found 'laprls', expected end of line)"},
		{"kernel rbf\n", "kernel sigmoid\n",
		 "m:3: unknown kernel (found 'sigmoid', expected linear, polynomial, rbf or precomputed)"},
		{"degree 3\n", "degree 2.5\n",
		 "m:4: bad degree (found '2.5', expected an integer in -2147483648..2147483647)"},
		{"kernel rbf\ndegree 3\n", "kernel polynomial\ndegree 0\n",
		 "m:4: bad kernel parameter: polynomial degree 0 out of range (expected 1..100)"},
		{"gamma 0.5\n", "gamma 0\n",
		 "m:5: bad kernel parameter: kernel gamma 0 out of range (expected > 0)"},
		{"gamma 0.5\n", "gamma nan\n",
		 "m:5: bad gamma (found 'nan', expected a finite number)"},
		{"gamma 0.5\n", "gamma 0x1p-1\n",
		 "m:5: bad gamma (found '0x1p-1', expected a number)"},
		{"coef0 0\n", "coef0 1e999\n",
		 "m:6: bad coef0 (found '1e999', expected a number within the range of a double)"},
		{"gamma_A 0.001\n", "gamma_A 0\n",
		 "m:7: bad gamma_A (found '0', expected a number > 0)"},
		{"gamma_I 0.01\n", "gamma_I -1\n",
		 "m:8: bad gamma_I (found '-1', expected a number >= 0)"},
		{"laplacian normalized\n", "laplacian random_walk\n",
		 "m:9: unknown laplacian (found 'random_walk', expected normalized or unnormalized)"},
		{"laplacian_power 1\n", "laplacian_power 0\n",
		 "m:10: bad laplacian_power (found '0', expected an integer in 1..2147483647)"},
		{"eps 0.001\n", "eps -1\n",
		 "m:11: bad eps (found '-1', expected a number > 0)"},
		{"max_iter 0\n", "max_iter -5\n",
		 "m:12: bad max_iter (found '-5', expected an integer in 0..9223372036854775807)"},
		{"l 2\n", "l two\n",
		 "m:13: bad l (found 'two', expected an integer in 0..9223372036854775807)"},
		{"u 1\n", "u 1.5\n",
		 "m:14: bad u (found '1.5', expected an integer in 0..9223372036854775807)"},
		{"unlabeled_marker 0\n", "unlabeled_marker inf\n",
		 "m:15: bad unlabeled_marker (found 'inf', expected a finite number)"},
		{"unlabeled_marker 0\n", "unlabeled_marker -1\n",
		 "m:15: unlabeled_marker -1 is also a class label (expected a value "
		 "that no class uses)"},
		{"nr_class 2\n", "nr_class 1\n",
		 "m:17: bad nr_class (found '1', expected an integer in 2..2147483647)"},
		{"labels 1 -1\n", "labels 1 -1 2\n",
		 "m:18: wrong number of labels (found 3, expected nr_class = 2)"},
		{"labels 1 -1\n", "labels 1\n",
		 "m:18: wrong number of labels (found 1, expected nr_class = 2)"},
		{"labels 1 -1\n", "labels 1 1.0\n",
		 "m:18: label 1 appears twice (expected distinct labels, one per class)"},
		{"labels 1 -1\n", "labels 1 nan\n",
		 "m:18: bad value in labels (found 'nan', expected a finite number)"},
		{"labels 1 -1\n", "labels\n",
		 "m:18: missing values for labels (expected at least one number)"},
		{"nr_fn 1\n", "nr_fn 2\n",
		 "m:19: bad nr_fn (found 2, expected 1 for 2 classes: one function "
		 "for two classes, else one per class)"},
		{"nr_fn 1\n", "nr_fn 0\n",
		 "m:19: bad nr_fn (found '0', expected an integer in 1..2147483647)"},
		{"bias -0.5\n", "bias -0.5 1\n",
		 "m:20: wrong number of bias values (found 2, expected nr_fn = 1)"},
		{"bias -0.5\n", "bias x\n",
		 "m:20: bad value in bias (found 'x', expected a number)"},
		{"nr_sv 3\n", "nr_sv -1\n",
		 "m:21: bad nr_sv (found '-1', expected an integer in 0..2147483647)"},
		{"nr_sv 3\n", "nr_sv 2147483648\n",
		 "m:21: bad nr_sv (found '2147483648', expected an integer in 0..2147483647)"},
		{"gamma_A 0.001\n", "gamma_a 0.001\n",
		 "m:7: unknown key (found 'gamma_a', expected a header key such as "
		 "'kernel' or 'nr_sv', or 'SV')"},
		{"eps 0.001\n", "eps 0.001\ngamma 1\n",
		 "m:12: repeated key 'gamma' (first on line 5, expected each key once)"},
		{"graph knn k=6\n", "graph a\ngraph b\n",
		 "m:17: repeated key 'graph' (first on line 16, expected each key once)"},
		/* Found by tests/fuzz (regress/model/graph-with-carriage-return.model):
		 * the writer would refuse it, so it would not write back. */
		{"graph knn k=6\n", "graph knn\rk=6\n",
		 "m:16: carriage return in the graph description (found 'knn\\rk=6', "
		 "expected one line of text)"},
		{"eps 0.001\n", "\n",
		 "m:11: empty line (expected 'key value' or 'SV')"},
		{"eps 0.001\n", "# eps 0.001\n",   /* a comment line is skipped */
		 "m:22: missing key 'eps' (expected every header key before SV)"},
		{"eps 0.001\n", "",
		 "m:21: missing key 'eps' (expected every header key before SV)"},
		{"nr_sv 3\n", "",
		 "m:21: missing key 'nr_sv' (expected every header key before SV)"},
		{"SV\n", "SV 3\n",
		 "m:22: extra text after SV (found '3', expected end of line)"},
		{"SV\n", "sv\n",
		 "m:22: unknown key (found 'sv', expected a header key such as "
		 "'kernel' or 'nr_sv', or 'SV')"},
		/* The SV lines. */
		{"-1 1:0.5\n", "\n",
		 "m:24: empty line (expected SV 2 of 3: 1 coefficient, then index:value ...)"},
		{"-1 1:0.5\n", "1:0.5\n",
		 "m:24: missing coefficient 1 of SV 2 (found '1:0.5', expected 1 "
		 "coefficient before index:value)"},
		{"-1 1:0.5\n", "x 1:0.5\n",
		 "m:24: bad coefficient 1 of SV 2 (found 'x', expected a number)"},
		{"-1 1:0.5\n", "-inf 1:0.5\n",
		 "m:24: bad coefficient 1 of SV 2 (found '-inf', expected a finite number)"},
		{"-1 1:0.5\n", "-1 1:nan\n",
		 "m:24: bad value for feature 1 (found 'nan', expected a finite number)"},
		{"-1 1:0.5\n", "-1 1:\n",
		 "m:24: bad value for feature 1 (found '', expected a number)"},
		{"-1 1:0.5\n", "-1 2:1 1:0.5\n",
		 "m:24: feature index 1 decreasing (found 1 after 2, expected indices "
		 "strictly increasing)"},
		{"-1 1:0.5\n", "-1 1:1 1:0.5\n",
		 "m:24: feature index 1 repeated (found 1 after 1, expected indices "
		 "strictly increasing)"},
		{"-1 1:0.5\n", "-1 0:0.5\n",
		 "m:24: feature index out of range (found '0', expected 1..2147483647)"},
		{"-1 1:0.5\n", "-1 2147483648:0.5\n",
		 "m:24: feature index out of range (found '2147483648', expected 1..2147483647)"},
		{"-1 1:0.5\n", "-1 0.5\n",
		 "m:24: bad feature (found '0.5', expected index:value)"},
		{"-1 1:0.5\n", "-1 a:0.5\n",
		 "m:24: bad feature index (found 'a:0.5', expected index:value with a "
		 "positive integer index)"},
		{"0.25 2:-1\n", "",
		 "m:24: end of file after 2 SV lines (expected nr_sv = 3)"},
		{"0.25 2:-1\n", "0.25 2:-1\n1 1:1\n",
		 "m:26: text after the last SV line (found '1 1:1', expected end of "
		 "file after nr_sv = 3 lines)"},
		{"0.25 2:-1\n", "0.25 2:-1\n\n",
		 "m:26: empty line after the last SV line (found '', expected end of "
		 "file after nr_sv = 3 lines)"},
		{"SV\n1 1:1 2:2\n-1 1:0.5\n0.25 2:-1\n", "",
		 "m:21: end of file before the SV section (expected a line 'SV')"},
		{"nr_sv 3\nSV\n1 1:1 2:2\n-1 1:0.5\n0.25 2:-1\n", "",
		 "m:20: end of file in the header: key 'nr_sv' is missing (expected "
		 "every header key, then SV)"},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *text = subst(base, bad[i].from, bad[i].to);
		lsv_model *m = (lsv_model *)1;
		lsv_error e;
		CHECK(text != NULL);
		if (text == NULL)
			continue;
		e.msg[0] = '\0';
		CHECK(read_str(text, &m, &e) == LSV_EFORMAT);
		CHECK(m == NULL);
		CHECK_STR(e.msg, bad[i].msg);
		free(text);
	}
}

/* Each required key of base left out: the message names it, at SV (line
 * 21 once a line is gone) and at an end of file in the header (line 20);
 * the graph, which is optional, may be left out. */
static void model_missing_required_key_is_named(void)
{
	const char *line = strchr(base, '\n') + 1;  /* line 2 */
	int n;

	for (n = 2; strncmp(line, "SV\n", 3) != 0; n++) {
		const char *end = strchr(line, '\n') + 1;
		size_t pre = (size_t)(line - base), len = strlen(base);
		size_t keylen = strcspn(line, " \n"), sv;
		char *text = malloc(len + 1), want[160], key[32];
		lsv_model *m = NULL;
		lsv_error e;
		lsv_status st;

		snprintf(key, sizeof key, "%.*s", (int)keylen, line);
		memcpy(text, base, pre);
		strcpy(text + pre, end);
		st = read_str(text, &m, &e);
		if (strcmp(key, "graph") == 0) {
			CHECK(st == LSV_OK && m != NULL && m->graph == NULL);
		} else {
			CHECK(st == LSV_EFORMAT && m == NULL);
			snprintf(want, sizeof want, "m:21: missing key '%s' (expected "
				 "every header key before SV)", key);
			CHECK_STR(e.msg, want);
			/* The same header, ending before SV. */
			sv = (size_t)(strstr(text, "\nSV\n") - text) + 1;
			text[sv] = '\0';
			CHECK(read_str(text, &m, &e) == LSV_EFORMAT && m == NULL);
			snprintf(want, sizeof want, "m:20: end of file in the header: "
				 "key '%s' is missing (expected every header key, "
				 "then SV)", key);
			CHECK_STR(e.msg, want);
		}
		lsv_model_free(m);
		free(text);
		line = end;
	}
	CHECK(n == 22);
	{
		/* Several missing: the first in the writer's order. */
		char *t1 = subst(base, "nr_sv 3\n", ""), *t2 = subst(t1, "eps 0.001\n", "");
		lsv_model *m = NULL;
		lsv_error e;
		CHECK(read_str(t2, &m, &e) == LSV_EFORMAT && m == NULL);
		CHECK_STR(e.msg, "m:20: missing key 'eps' (expected every header "
			  "key before SV)");
		free(t1);
		free(t2);
	}
}

/* The keys only some models have: method, landmarks and seed read when
 * present, are optional, and are checked; the TSVM's are refused in the
 * lapsvm model (model_tsvm_keys_round_trip_and_are_checked reads them in
 * a TSVM's). */
static void model_optional_keys_are_read_and_checked(void)
{
	static const char opt[] = "method pcg\nlandmarks 3\nseed 9\nnr_class 2\n";
	static const char tsvm[] = "tsvm_cstar 2\ntsvm_r 0.5\n"
				   "tsvm_max_switches 3\nnr_class 2\n";
	struct { const char *from, *to, *msg; } bad[] = {
		{"nr_class 2\n", "method cholesky\nnr_class 2\n",
		 "m:17: unknown method (found 'cholesky', expected direct, pcg, "
		 "pcg-early, newton or random)"},
		{"nr_class 2\n", "method Newton\nnr_class 2\n",
		 "m:17: unknown method (found 'Newton', expected direct, pcg, "
		 "pcg-early, newton or random)"},
		{"nr_class 2\n", "method\nnr_class 2\n",
		 "m:17: missing value for method (expected direct, pcg, pcg-early, "
		 "newton or random)"},
		{"nr_class 2\n", "method pcg pcg\nnr_class 2\n",
		 "m:17: extra text after the method value (found 'pcg', expected "
		 "end of line)"},
		{"nr_class 2\n", "landmarks 0\nnr_class 2\n",
		 "m:17: bad landmarks (found '0', expected an integer in "
		 "1..9223372036854775807)"},
		{"nr_class 2\n", "seed -1\nnr_class 2\n",
		 "m:17: bad seed (found '-1', expected an integer in "
		 "0..9223372036854775807)"},
		{"nr_class 2\n", "tsvm_r 1\nnr_class 2\n",
		 "m:17: tsvm_r 1 out of range (expected 0 <= r < 1, 0 for the "
		 "labeled ratio)"},
		{"nr_class 2\n", "tsvm_max_switches -1\nnr_class 2\n",
		 "m:17: bad tsvm_max_switches (found '-1', expected an integer in "
		 "0..9223372036854775807)"},
		{"nr_class 2\n", "seed 1\nmethod pcg\nseed 2\nnr_class 2\n",
		 "m:19: repeated key 'seed' (first on line 17, expected each key "
		 "once)"},
		{"laplacian normalized\n", "laplacian\n",
		 "m:9: missing value for laplacian (expected normalized or "
		 "unnormalized)"},
		{"kernel rbf\n", "kernel RBF\n",
		 "m:3: unknown kernel (found 'RBF', expected linear, polynomial, rbf or "
		 "precomputed)"},
	};
	const lsv_name *t;
	lsv_model *m;
	lsv_error e;
	size_t i;

	m = read_subst("nr_class 2\n", opt);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->param.method == LSV_METHOD_PCG);
		CHECK(m->param.landmarks == 3 && m->param.seed == 9);
		lsv_model_free(m);
	}
	{
		char *t = subst(base, "nr_class 2\n", tsvm);
		CHECK(t != NULL && read_str(t, &m, &e) == LSV_EFORMAT && m == NULL);
		CHECK_STR(e.msg, "m:17: key 'tsvm_cstar' in a lapsvm model "
			  "(expected it only in a TSVM model (solver tsvm))");
		free(t);
	}
	m = read_subst("graph knn k=6\n", "");  /* none of them */
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->param.method == LSV_METHOD_DIRECT && m->graph == NULL);
		CHECK(m->param.landmarks == 0 && m->param.seed == 0);
		lsv_model_free(m);
	}
	for (t = lsv_method_names; t->name != NULL; t++) {
		char line[64];
		snprintf(line, sizeof line, "method %s\nnr_class 2\n", t->name);
		m = read_subst("nr_class 2\n", line);
		CHECK(m != NULL && (int)m->param.method == t->value);
		lsv_model_free(m);
	}
	for (t = lsv_solver_names; t->name != NULL; t++) {
		char line[160];
		/* labelaware models need two labeled expansion points per
		 * class, more than this model has (test_labelaware.c); a
		 * boosted model has trees, no SVs (test_boost.c) */
		if (t->value == LSV_SOLVER_LABELAWARE ||
		    t->value == LSV_SOLVER_BOOST)
			continue;
		/* a combination's model needs its own keys and graphs, a
		 * kernel design its design and k */
		/* a cluster model labels its clusters 1..c */
		snprintf(line, sizeof line, "solver %s\n%s", t->name,
			 t->value == LSV_SOLVER_CLUSTER ? "" :
			 t->value == LSV_SOLVER_COMBINE
			 ? "combine_extension laprls\ncombine_mu 1e-05\n"
			   "combined_graph 1 file g\n"
			 : t->value == LSV_SOLVER_KDESIGN
			 ? "kdesign cluster\nkdesign_k 3\n" : "");
		if (t->value == LSV_SOLVER_CLUSTER) {
			char *text = subst(base, "solver lapsvm\n", line), *two;
			lsv_error e;
			m = NULL;
			two = text ? subst(text, "labels 1 -1\n", "labels 1 2\n")
				   : NULL;
			if (two != NULL && read_str(two, &m, &e) != LSV_OK)
				fprintf(stderr, "  unexpected: %s\n", e.msg);
			free(text);
			free(two);
		} else {
			m = read_subst("solver lapsvm\n", line);
		}
		CHECK(m != NULL && (int)m->param.solver == t->value);
		lsv_model_free(m);
	}
	for (t = lsv_laplacian_names; t->name != NULL; t++) {
		char line[64];
		snprintf(line, sizeof line, "laplacian %s\n", t->name);
		m = read_subst("laplacian normalized\n", line);
		CHECK(m != NULL && m->param.normalized == t->value);
		lsv_model_free(m);
	}
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *text = subst(base, bad[i].from, bad[i].to);
		m = (lsv_model *)1;
		CHECK(text != NULL);
		if (text == NULL)
			continue;
		CHECK(read_str(text, &m, &e) == LSV_EFORMAT && m == NULL);
		CHECK_STR(e.msg, bad[i].msg);
		free(text);
	}
}

static void model_refuses_empty_file_and_nul_byte(void)
{
	static const char nul[] = "lapsvm_model 1\nsolver\0 lapsvm\n";
	lsv_model *m;
	lsv_error e;
	CHECK(read_str("", &m, &e) == LSV_EFORMAT && m == NULL);
	CHECK_STR(e.msg, "m: empty file (expected 'lapsvm_model 1')");
	CHECK(read_mem(nul, sizeof nul - 1, &m, &e) == LSV_EFORMAT && m == NULL);
	CHECK_STR(e.msg, "m:2: NUL byte in line (is this a text file?)");
}

/* Three classes: nr_fn must be 3, and every SV line needs 3 coefficients. */
static const char three[] =
	"lapsvm_model 1\nsolver laprls\nkernel linear\ndegree 3\ngamma 1\n"
	"coef0 0\ngamma_A 0.1\ngamma_I 0\nlaplacian normalized\n"
	"laplacian_power 1\neps 0.001\nmax_iter 0\nl 3\nu 0\n"
	"unlabeled_marker 0\nnr_class 3\nlabels 3 1 2\nnr_fn 3\n"
	"bias 0.1 -0.2 0.3\nnr_sv 2\nSV\n"        /* SV on line 21 */
	"1 -1 0.5 1:1 2:2\n"                       /* 22 */
	"-0.5 0.25 2 1:-1\n";                      /* 23 */

static void model_multiclass_counts_are_checked(void)
{
	struct { const char *from, *to, *msg; } bad[] = {
		{"nr_fn 3\n", "nr_fn 1\n",
		 "m:18: bad nr_fn (found 1, expected 3 for 3 classes: one function "
		 "for two classes, else one per class)"},
		{"bias 0.1 -0.2 0.3\n", "bias 0.1 -0.2\n",
		 "m:19: wrong number of bias values (found 2, expected nr_fn = 3)"},
		{"1 -1 0.5 1:1", "1 -1 1:1",
		 "m:22: missing coefficient 3 of SV 1 (found '1:1', expected 3 "
		 "coefficients before index:value)"},
		{"-0.5 0.25 2 1:-1\n", "-0.5 0.25\n",
		 "m:23: missing coefficient 3 of SV 2 (found end of line, expected 3 "
		 "coefficients before index:value)"},
		{"labels 3 1 2\n", "labels 3 1 3\n",
		 "m:17: label 3 appears twice (expected distinct labels, one per class)"},
	};
	lsv_model *m;
	lsv_error e;
	size_t i;

	CHECK(read_str(three, &m, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(m->nr_fn == 3 && m->coef[2] == 0.5 && m->coef[5] == 2);
		lsv_model_free(m);
	}
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *text = subst(three, bad[i].from, bad[i].to);
		CHECK(text != NULL);
		if (text == NULL)
			continue;
		CHECK(read_str(text, &m, &e) == LSV_EFORMAT);
		CHECK_STR(e.msg, bad[i].msg);
		free(text);
	}
}

static void model_read_path_reports_missing_file(void)
{
	lsv_model *m = (lsv_model *)1;
	lsv_error e;
	CHECK(lsv_model_read_path("/nonexistent/lsv.model", &m, &e) == LSV_EIO);
	CHECK(m == NULL);
	CHECK_STR(e.msg, "/nonexistent/lsv.model: cannot open: No such file or directory");
}

static void model_solver_names(void)
{
	CHECK_STR(lsv_solver_name(LSV_SOLVER_LAPSVM), "lapsvm");
	CHECK_STR(lsv_solver_name(LSV_SOLVER_LAPRLS), "laprls");
	CHECK_STR(lsv_solver_name(LSV_SOLVER_KDESIGN), "kdesign");
	CHECK(lsv_solver_name((lsv_solver)8) == NULL);
}

/* ------------------------------------------------------------ writing */

/* A three-class model built by hand, with doubles that %.6g would not
 * carry: thirds, a subnormal, the largest double, -0. */
static lsv_model *hand_model(void)
{
	static const double coef[] = {
		0.1, 1.0 / 3, -2.0 / 7,
		4.9406564584124654e-324, DBL_MAX, -0.0,
		-1e-310, 123456789.123456789, 2.0 / 3,
	};
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *x = calloc(1, sizeof *x);
	m->param.solver = LSV_SOLVER_LAPSVM;
	m->param.kernel.type = LSV_KERNEL_POLY;
	m->param.kernel.degree = 3;
	m->param.kernel.gamma = 1.0 / 7;
	m->param.kernel.coef0 = -0.1;
	m->param.gamma_A = 1e-5 / 3;
	m->param.gamma_I = 0.0;
	m->param.normalized = 0;
	m->param.power = 2;
	m->param.eps = 1e-3;
	m->param.max_iter = 123456789012L;
	m->l = 30;
	m->u = 70;
	m->unlabeled = -0.5;
	m->graph = malloc(32);
	strcpy(m->graph, "knn k=6  t=0.1\tw.graph");
	m->nr_class = 3;
	m->labels = malloc(3 * sizeof *m->labels);
	m->labels[0] = 0.1;
	m->labels[1] = -7;
	m->labels[2] = 1e300;
	m->nr_fn = 3;
	m->bias = malloc(3 * sizeof *m->bias);
	m->bias[0] = 0.3;
	m->bias[1] = -1.0 / 3;
	m->bias[2] = 0.0;
	m->coef = malloc(sizeof coef);
	memcpy(m->coef, coef, sizeof coef);
	/* Rows: {1: 0.1, 2147483647: -3}, {} , {5: 1/3}. */
	x->n = 3;
	x->nnz = 3;
	x->dim = 2147483647;
	x->rowptr = malloc(4 * sizeof *x->rowptr);
	x->col = malloc(3 * sizeof *x->col);
	x->val = malloc(3 * sizeof *x->val);
	x->y = calloc(3, sizeof *x->y);
	x->rowptr[0] = 0;
	x->rowptr[1] = 2;
	x->rowptr[2] = 2;
	x->rowptr[3] = 3;
	x->col[0] = 0;
	x->col[1] = 2147483646;
	x->col[2] = 4;
	x->val[0] = 0.1;
	x->val[1] = -3;
	x->val[2] = 1.0 / 3;
	x->unlabeled = -0.5;
	m->sv = x;
	return m;
}

/* The model's file text (malloc'd), or NULL with *st set. */
static char *write_str(const lsv_model *m, lsv_status *st, lsv_error *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	*st = lsv_model_write(fp, "w", m, e);
	fclose(fp);
	if (*st != LSV_OK) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int same_doubles(const double *a, const double *b, size_t n)
{
	return memcmp(a, b, n * sizeof *a) == 0;  /* bit for bit, -0 too */
}

static void model_write_read_round_trip_is_exact(void)
{
	lsv_model *m = hand_model(), *r = NULL;
	lsv_status st;
	lsv_error e;
	char *text, *again;
	size_t i;

	text = write_str(m, &st, &e);
	CHECK(st == LSV_OK);
	if (text == NULL)
		goto out;
	{
		static const char head[] =
			"lapsvm_model 1\nsolver lapsvm\nkernel polynomial\n"
			"degree 3\ngamma 0.14285714285714285\ncoef0 -0.10000000000000001\n";
		CHECK(strncmp(text, head, sizeof head - 1) == 0);
	}
	CHECK(strstr(text, "\nSV\n0.10000000000000001 0.33333333333333331 "
			   "-0.2857142857142857 1:0.10000000000000001 "
			   "2147483647:-3\n") != NULL);
	CHECK(read_str(text, &r, &e) == LSV_OK);
	if (r == NULL)
		goto out;
	CHECK(r->param.solver == m->param.solver);
	CHECK(r->param.kernel.type == m->param.kernel.type &&
	      r->param.kernel.degree == m->param.kernel.degree);
	CHECK(same_doubles(&r->param.kernel.gamma, &m->param.kernel.gamma, 1));
	CHECK(same_doubles(&r->param.kernel.coef0, &m->param.kernel.coef0, 1));
	CHECK(same_doubles(&r->param.gamma_A, &m->param.gamma_A, 1));
	CHECK(same_doubles(&r->param.gamma_I, &m->param.gamma_I, 1));
	CHECK(same_doubles(&r->param.eps, &m->param.eps, 1));
	CHECK(r->param.normalized == 0 && r->param.power == 2);
	CHECK(r->param.max_iter == m->param.max_iter);
	CHECK(r->l == m->l && r->u == m->u);
	CHECK(same_doubles(&r->unlabeled, &m->unlabeled, 1));
	CHECK(r->graph != NULL && strcmp(r->graph, m->graph) == 0);
	CHECK(r->nr_class == 3 && r->nr_fn == 3);
	CHECK(same_doubles(r->labels, m->labels, 3));
	CHECK(same_doubles(r->bias, m->bias, 3));
	CHECK(r->sv->n == 3 && r->sv->nnz == 3 && r->sv->dim == m->sv->dim);
	CHECK(same_doubles(r->coef, m->coef, 9));
	CHECK(same_doubles(r->sv->val, m->sv->val, 3));
	for (i = 0; i < 3; i++)
		CHECK(r->sv->col[i] == m->sv->col[i]);
	for (i = 0; i <= 3; i++)
		CHECK(r->sv->rowptr[i] == m->sv->rowptr[i]);
	CHECK(r->sv->unlabeled == -0.5 && r->sv->l == 0);
	/* And writing what was read gives the same text. */
	again = write_str(r, &st, &e);
	CHECK(again != NULL && strcmp(again, text) == 0);
	free(again);
out:
	free(text);
	lsv_model_free(r);
	lsv_model_free(m);
}

static void model_write_refuses_what_would_not_read_back(void)
{
	lsv_model *m = hand_model();
	lsv_status st;
	lsv_error e;
	char *text;
	double keep;

	keep = m->coef[4];
	m->coef[4] = NAN;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: an expansion coefficient is "
		  "not finite (did training diverge?)");
	m->coef[4] = keep;

	strcpy(m->graph, "k=6 # comment");
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK(strstr(e.msg, "graph description") != NULL);
	strcpy(m->graph, "k=6 ");
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	strcpy(m->graph, "k=6");

	m->labels[2] = -7;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: label -7 appears twice");
	m->labels[2] = -0.5;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: label -0.5 is the unlabeled marker");
	m->labels[2] = 2;

	m->nr_fn = 1;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: nr_fn 1 with 3 classes (expected 3)");
	m->nr_fn = 3;

	m->param.gamma_A = 0.0;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: gamma_A is not a finite number > 0");
	m->param.gamma_A = 1.0;

	/* a method or a landmark seed the reader would refuse */
	m->param.method = (lsv_method)9;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: unknown method 9");
	m->param.method = LSV_METHOD_NEWTON;
	m->param.landmarks = 5;
	m->param.seed = (unsigned long long)LONG_MAX + 1;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK(e.msg[0] != '\0' && strstr(e.msg, "seed 9223372036854775808 out of range") != NULL);
	m->param.seed = 7;

	text = write_str(m, &st, &e);  /* repaired: writes */
	CHECK(text != NULL && st == LSV_OK);
	free(text);
	lsv_model_free(m);
}

/* Found by tests/fuzz (regress/model/tsvm-without-tsvm-keys.model): a TSVM
 * model without its optional keys reads with tsvm_cstar = 0, which must
 * then write and read back; what the writer writes, the reader takes. */
static void model_tsvm_keys_round_trip_and_are_checked(void)
{
	lsv_model *m = read_subst("solver lapsvm\n", "solver tsvm\n"), *r = NULL;
	lsv_status st;
	lsv_error e;
	char *text;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	CHECK(m->param.tsvm_cstar == 0.0 && m->param.tsvm_r == 0.0);
	text = write_str(m, &st, &e);
	CHECK(text != NULL && strstr(text, "\ntsvm_cstar 0\ntsvm_r 0\n") != NULL);
	if (text != NULL) {
		CHECK(read_str(text, &r, &e) == LSV_OK);
		CHECK(r != NULL && r->param.solver == LSV_SOLVER_TSVM &&
		      r->param.tsvm_cstar == 0.0);
		lsv_model_free(r);
		free(text);
	}
	{
		char *bad = subst(base, "nr_class 2\n", "tsvm_cstar -1\nnr_class 2\n");
		CHECK(read_str(bad, &r, &e) == LSV_EFORMAT);
		CHECK_STR(e.msg, "m:17: bad tsvm_cstar (found '-1', expected a number >= 0)");
		free(bad);
	}

	m->param.tsvm_r = 1.0;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: tsvm_r is not in [0, 1)");
	m->param.tsvm_r = 0.5;
	m->param.tsvm_cstar = INFINITY;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	m->param.tsvm_cstar = 1.0;
	m->param.tsvm_max_switches = -1;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	lsv_model_free(m);
}

/* Every header key, in the order the writer writes them (model.c's table
 * keys[]): the file format. */
static const char *const header_keys[] = {
	"solver", "kernel", "degree", "gamma", "coef0", "gamma_A", "gamma_I",
	"laplacian", "laplacian_power", "eps", "max_iter", "l", "u",
	"unlabeled_marker", "graph", "method", "landmarks", "seed",
	"tsvm_cstar", "tsvm_r", "tsvm_max_switches", "nr_class", "labels",
	"nr_fn", "bias", "balance_shift", "nr_sv",
};

/* The header of a model that has every optional key (graph, a method
 * other than direct, landmarks with their seed, the TSVM's keys), byte for
 * byte; then it reads back and writes again to the same bytes. */
static void model_every_key_round_trips(void)
{
	static const char head[] =
		"lapsvm_model 1\n"
		"solver tsvm\n"
		"kernel polynomial\n"
		"degree 3\n"
		"gamma 0.14285714285714285\n"
		"coef0 -0.10000000000000001\n"
		"gamma_A 3.3333333333333337e-06\n"
		"gamma_I 0\n"
		"laplacian normalized\n"
		"laplacian_power 2\n"
		"eps 0.001\n"
		"max_iter 123456789012\n"
		"l 30\n"
		"u 70\n"
		"unlabeled_marker -0.5\n"
		"graph knn k=6  t=0.1\tw.graph\n"
		"method pcg-early\n"
		"landmarks 100\n"
		"seed 9223372036854775807\n"
		"tsvm_cstar 0.10000000000000001\n"
		"tsvm_r 0.25\n"
		"tsvm_max_switches 1000\n"
		"nr_class 3\n"
		"labels 0.10000000000000001 -7 1.0000000000000001e+300\n"
		"nr_fn 3\n"
		"bias 0.29999999999999999 -0.33333333333333331 0\n"
		"balance_shift -0.25 0 1e-300\n"
		"nr_sv 3\n"
		"SV\n";
	lsv_model *m = hand_model(), *r = NULL;
	lsv_status st;
	lsv_error e;
	char *text, *again = NULL, *at;
	size_t k;

	m->param.solver = LSV_SOLVER_TSVM;
	m->param.method = LSV_METHOD_PCG_EARLY;
	m->param.landmarks = 100;
	m->param.seed = 9223372036854775807ULL;  /* the largest read back */
	m->param.tsvm_cstar = 0.1;
	m->param.tsvm_r = 0.25;
	m->param.tsvm_max_switches = 1000;
	m->param.normalized = 7;  /* a flag: any nonzero is normalized */
	m->shift = malloc(3 * sizeof *m->shift);
	m->shift[0] = -0.25;
	m->shift[1] = 0.0;
	m->shift[2] = 1e-300;
	text = write_str(m, &st, &e);
	CHECK(st == LSV_OK && text != NULL);
	if (text == NULL)
		goto out;
	CHECK(strncmp(text, head, sizeof head - 1) == 0);
	/* Every key once, in the table's order. */
	at = text;
	for (k = 0; k < sizeof header_keys / sizeof *header_keys; k++) {
		char line[64];
		snprintf(line, sizeof line, "\n%s ", header_keys[k]);
		at = strstr(at, line);
		CHECK(at != NULL);
		if (at == NULL)
			goto out;
		CHECK(strstr(at + 1, line) == NULL);
	}
	CHECK(read_str(text, &r, &e) == LSV_OK);
	if (r == NULL)
		goto out;
	CHECK(r->param.solver == LSV_SOLVER_TSVM);
	CHECK(r->param.method == LSV_METHOD_PCG_EARLY);
	CHECK(r->param.landmarks == 100);
	CHECK(r->param.seed == 9223372036854775807ULL);
	CHECK(r->param.tsvm_cstar == 0.1 && r->param.tsvm_r == 0.25);
	CHECK(r->param.tsvm_max_switches == 1000);
	CHECK(r->param.normalized == 1);
	CHECK(r->graph != NULL && strcmp(r->graph, m->graph) == 0);
	CHECK(r->shift != NULL && same_doubles(r->shift, m->shift, 3));
	again = write_str(r, &st, &e);
	CHECK(again != NULL && strcmp(again, text) == 0);
out:
	free(again);
	free(text);
	lsv_model_free(r);
	lsv_model_free(m);
}

/* balance_shift (lapsvm-train -p): optional, so a model without it (older,
 * or not balanced) reads with shift NULL; with it, one value per function,
 * round trip exact; a wrong count, a bad value or a non-finite shift is
 * refused by the reader or the writer. */
static void model_balance_shift_round_trips_and_is_checked(void)
{
	lsv_model *m = read_subst("nr_sv 3\n", "nr_sv 3\n"), *r = NULL;
	lsv_status st;
	lsv_error e;
	char *text, *bad;

	CHECK(m != NULL && m->shift == NULL);
	lsv_model_free(m);
	m = read_subst("nr_sv 3\n", "balance_shift -0.125\nnr_sv 3\n");
	CHECK(m != NULL && m->shift != NULL && m->shift[0] == -0.125);
	if (m == NULL)
		return;
	CHECK(m->bias[0] == -0.5);  /* bias as written: the shift is in it */
	text = write_str(m, &st, &e);
	CHECK(text != NULL &&
	      strstr(text, "\nbias -0.5\nbalance_shift -0.125\nnr_sv 3\n") != NULL);
	if (text != NULL) {
		CHECK(read_str(text, &r, &e) == LSV_OK);
		CHECK(r != NULL && r->shift != NULL && r->shift[0] == -0.125);
		lsv_model_free(r);
		free(text);
	}
	bad = subst(base, "nr_sv 3\n", "balance_shift 1 2\nnr_sv 3\n");
	CHECK(read_str(bad, &r, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "m:21: wrong number of balance_shift values (found 2, "
			 "expected nr_fn = 1)");
	free(bad);
	bad = subst(base, "nr_sv 3\n", "balance_shift nan\nnr_sv 3\n");
	CHECK(read_str(bad, &r, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "m:21: bad value in balance_shift (found 'nan', expected "
			 "a finite number)");
	free(bad);
	bad = subst(base, "nr_sv 3\n", "balance_shift\nnr_sv 3\n");
	CHECK(read_str(bad, &r, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "m:21: missing values for balance_shift (expected at "
			 "least one number)");
	free(bad);
	m->shift[0] = INFINITY;
	text = write_str(m, &st, &e);
	CHECK(text == NULL && st == LSV_EINVAL);
	CHECK_STR(e.msg, "w: cannot write the model: a balance shift is not finite");
	lsv_model_free(m);
}

/* Each solver with each method and each kernel, with and without the
 * optional keys: the method is written unless direct, landmarks and seed
 * only with landmarks, the TSVM's keys only for the TSVM, the graph only
 * when there is one; what is written reads back to the same values and
 * writes again to the same bytes. */
static void model_every_name_and_optional_key_round_trips(void)
{
	const lsv_name *s, *me;
	int count = 0;

	for (s = lsv_solver_names; s->name != NULL; s++)
		for (me = lsv_method_names; me->name != NULL; me++) {
			lsv_model *m, *r = NULL;
			char *text, *again = NULL, want[64];
			lsv_status st;
			lsv_error e;
			int with;

			/* boosted models (trees, no SVs): test_boost.c;
			 * labelaware: test_labelaware.c */
			if (s->value == LSV_SOLVER_BOOST ||
			    s->value == LSV_SOLVER_LABELAWARE)
				continue;
			m = hand_model();
			with = count++ % 2;

			m->param.solver = (lsv_solver)s->value;
			m->param.method = (lsv_method)me->value;
			m->param.kernel.type = (lsv_kernel_type)(count % 3);
			m->param.normalized = with;
			m->param.landmarks = with ? 3 + count : 0;
			m->param.seed = with ? 1000u * (unsigned)count : 0;
			m->param.tsvm_cstar = 0.5 * count;
			m->param.tsvm_r = 0.01 * count;
			m->param.tsvm_max_switches = count;
			if (s->value == LSV_SOLVER_KDESIGN) {
				/* each design in turn; delta for diffusion */
				m->param.kdesign = (lsv_kdesign)(count % 4);
				m->param.la_k = count;
				m->param.kd_delta = m->param.kdesign ==
					LSV_KDESIGN_DIFFUSION ? 0.125 * count : 0.0;
				/* the Laplacian's weights, a record of
				 * diffusion and spectral */
				if (m->param.kdesign == LSV_KDESIGN_DIFFUSION ||
				    m->param.kdesign == LSV_KDESIGN_SPECTRAL)
					m->param.lap_graph = with ? LSV_LAP_GRAPH
								  : LSV_LAP_KERNEL;
			}
			if (s->value == LSV_SOLVER_COMBINE) {
				m->param.combine_ext = with ? LSV_SOLVER_LAPSVM
							    : LSV_SOLVER_LAPRLS;
				m->param.combine_mu = 1e-5 * count;
				m->param.combine_steps = count;
				m->param.combine_rank = with ? 7 : 0;
				m->ngraphs = 2;
				m->graph_weight = malloc(2 * sizeof *m->graph_weight);
				m->graph_desc = calloc(2, sizeof *m->graph_desc);
				m->graph_weight[0] = 0.25;
				m->graph_weight[1] = 0.75;
				if (with)
					m->graph_desc[1] = strdup("file a b.graph");
			}
			if (!with) {
				free(m->graph);
				m->graph = NULL;
			}
			if (s->value == LSV_SOLVER_CLUSTER) {
				/* 3 clusters (labeled 1..3): a 2-D embedding
				 * and its centroids */
				int q;
				for (q = 0; q < 3; q++)
					m->labels[q] = q + 1;
				m->nr_fn = 2;
				m->centroids = malloc(6 * sizeof *m->centroids);
				for (q = 0; q < 6; q++)
					m->centroids[q] = 0.25 * q - 0.5;
			}
			text = write_str(m, &st, &e);
			CHECK(st == LSV_OK && text != NULL);
			if (text == NULL) {
				lsv_model_free(m);
				continue;
			}
			snprintf(want, sizeof want, "\nsolver %s\n", s->name);
			CHECK(strstr(text, want) != NULL);
			snprintf(want, sizeof want, "\nkernel %s\n",
				 lsv_kernel_name(m->param.kernel.type));
			CHECK(strstr(text, want) != NULL);
			CHECK(strstr(text, with ? "\nlaplacian normalized\n"
						: "\nlaplacian unnormalized\n") != NULL);
			snprintf(want, sizeof want, "\nmethod %s\n", me->name);
			CHECK((strstr(text, want) != NULL) ==
			      (me->value != LSV_METHOD_DIRECT));
			CHECK((strstr(text, "\nmethod ") != NULL) ==
			      (me->value != LSV_METHOD_DIRECT));
			snprintf(want, sizeof want, "\nlandmarks %d\nseed %u\n", 3 + count,
				 1000u * (unsigned)count);
			CHECK((strstr(text, want) != NULL) == with);
			CHECK((strstr(text, "\nlandmarks ") != NULL) == with);
			CHECK((strstr(text, "\nseed ") != NULL) ==
			      (with || (s->value == LSV_SOLVER_COMBINE &&
					me->value == LSV_METHOD_RANDOM)));
			CHECK((strstr(text, "\ncombine_mu ") != NULL) ==
			      (s->value == LSV_SOLVER_COMBINE));
			CHECK((strstr(text, "\ncombined_graph 0.25\ncombined_graph "
					    "0.75") != NULL) ==
			      (s->value == LSV_SOLVER_COMBINE));
			CHECK((strstr(text, "\ncombined_graph 0.75 file a b.graph\n") !=
			       NULL) == (s->value == LSV_SOLVER_COMBINE && with));
			CHECK((strstr(text, "\ngraph ") != NULL) == with);
			CHECK((strstr(text, "\ntsvm_cstar ") != NULL) ==
			      (s->value == LSV_SOLVER_TSVM));
			CHECK((strstr(text, "\ntsvm_r ") != NULL) ==
			      (s->value == LSV_SOLVER_TSVM));
			CHECK((strstr(text, "\ntsvm_max_switches ") != NULL) ==
			      (s->value == LSV_SOLVER_TSVM));
			CHECK(read_str(text, &r, &e) == LSV_OK);
			if (r != NULL) {
				CHECK(r->param.solver == m->param.solver);
				CHECK(r->param.method == m->param.method);
				CHECK(r->param.kernel.type == m->param.kernel.type);
				CHECK(r->param.normalized == with);
				CHECK(r->param.landmarks == m->param.landmarks);
				CHECK(r->param.seed == m->param.seed);
				if (s->value == LSV_SOLVER_KDESIGN) {
					CHECK(r->param.kdesign == m->param.kdesign);
					CHECK(r->param.la_k == m->param.la_k);
					CHECK(r->param.kd_delta == m->param.kd_delta);
					CHECK(r->param.lap_graph == m->param.lap_graph);
					CHECK(lsv_model_transductive(r) != NULL);
				}
				CHECK((r->graph != NULL) == with);
				if (s->value == LSV_SOLVER_COMBINE) {
					CHECK(r->ngraphs == 2 &&
					      r->graph_weight[1] == 0.75);
					CHECK(r->param.combine_mu == m->param.combine_mu &&
					      r->param.combine_ext == m->param.combine_ext &&
					      r->param.combine_steps == count &&
					      r->param.combine_rank == m->param.combine_rank);
					CHECK(r->graph_desc[0] == NULL);
					CHECK((r->graph_desc[1] != NULL) == with);
				} else {
					CHECK(r->ngraphs == 0);
				}
				if (s->value == LSV_SOLVER_TSVM) {
					CHECK(r->param.tsvm_cstar == m->param.tsvm_cstar);
					CHECK(r->param.tsvm_r == m->param.tsvm_r);
					CHECK(r->param.tsvm_max_switches == count);
				} else {  /* not written: the reader's zeros */
					CHECK(r->param.tsvm_cstar == 0.0 &&
					      r->param.tsvm_r == 0.0 &&
					      r->param.tsvm_max_switches == 0);
				}
				again = write_str(r, &st, &e);
				CHECK(again != NULL && strcmp(again, text) == 0);
			}
			free(again);
			free(text);
			lsv_model_free(r);
			lsv_model_free(m);
		}
	CHECK(count == 30);  /* 6 solvers x 5 methods */
}

/* ---------------------------------------------------------- prediction */

/* The hand model of the decision tests: sv1 = (1, 2) with coefficient
 * 0.5, sv2 = (-1, 0.5) with -0.25, bias 0.1; the kernel line replaced. */
static lsv_model *two_sv_model(const char *kernel_lines)
{
	char *text, *t2;
	lsv_model *m = NULL;
	lsv_error e;

	text = subst(base, "kernel rbf\ndegree 3\ngamma 0.5\ncoef0 0\n", kernel_lines);
	t2 = subst(text, "bias -0.5\nnr_sv 3\nSV\n1 1:1 2:2\n-1 1:0.5\n0.25 2:-1\n",
		   "bias 0.1\nnr_sv 2\nSV\n0.5 1:1 2:2\n-0.25 1:-1 2:0.5\n");
	if (read_str(t2, &m, &e) != LSV_OK)
		fprintf(stderr, "  unexpected: %s\n", e.msg);
	free(text);
	free(t2);
	return m;
}

/* Test rows, dense over 3 features: the fourth row is the first plus a
 * feature (3) that no SV has. */
static const char test_rows[] =
	"1 1:0.5 2:-1\n-1 1:2\n0\n1 1:0.5 2:-1 3:2\n";
static const double test_dense[4][3] = {
	{0.5, -1, 0}, {2, 0, 0}, {0, 0, 0}, {0.5, -1, 2},
};
static const double sv_dense[2][3] = {{1, 2, 0}, {-1, 0.5, 0}};
static const double sv_coef[2] = {0.5, -0.25};

static double dot3(const double *u, const double *v)
{
	return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

static double dist2(const double *u, const double *v)
{
	double a = u[0] - v[0], b = u[1] - v[1], c = u[2] - v[2];
	return a * a + b * b + c * c;
}

/* f(x) = sum_i coef_i k(sv_i, x) + b, k by kind: 0 u'v, 1 (g u'v + c0)^3,
 * 2 exp(-g |u - v|^2). */
static double hand_f(int kind, double g, double c0, const double *x)
{
	double f = 0.1, k = 0.0;
	int i;
	for (i = 0; i < 2; i++) {
		switch (kind) {
		case 0: k = dot3(sv_dense[i], x); break;
		case 1: k = pow(g * dot3(sv_dense[i], x) + c0, 3); break;
		case 2: k = exp(-g * dist2(sv_dense[i], x)); break;
		}
		f += sv_coef[i] * k;
	}
	return f;
}

static void check_decision(const char *kernel_lines, int kind, double g,
			   double c0)
{
	lsv_model *m = two_sv_model(kernel_lines);
	lsv_data *x = data(test_rows);
	double s[4];
	lsv_error e;
	int i;

	CHECK(m != NULL && x != NULL);
	if (m != NULL && x != NULL) {
		CHECK(lsv_model_decision(m, x, s, &e) == LSV_OK);
		for (i = 0; i < 4; i++) {
			double want = hand_f(kind, g, c0, test_dense[i]);
			if (!close_to(s[i], want)) {
				fprintf(stderr, "  kernel %d row %d: got %.17g, want "
					"%.17g\n", kind, i + 1, s[i], want);
				CHECK(close_to(s[i], want));
			}
		}
		/* The unseen feature 3: no effect on u'v; adds 4 to |u - v|^2. */
		if (kind == 0)
			CHECK(close_to(s[3], s[0]));
		if (kind == 2)
			CHECK(close_to(s[3] - 0.1, (s[0] - 0.1) * exp(-g * 4)));
	}
	lsv_model_free(m);
	lsv_data_free(x);
}

static void model_decision_linear_by_hand(void)
{
	check_decision("kernel linear\ndegree 3\ngamma 0.5\ncoef0 0\n", 0, 0, 0);
}

static void model_decision_polynomial_by_hand(void)
{
	check_decision("kernel polynomial\ndegree 3\ngamma 0.5\ncoef0 1\n", 1,
		       0.5, 1);
}

static void model_decision_rbf_by_hand(void)
{
	check_decision("kernel rbf\ndegree 3\ngamma 0.5\ncoef0 0\n", 2, 0.5, 0);
}

static void model_decision_is_the_same_across_blocks(void)
{
	/* 2500 rows: blocks of 1024, 1024 and 452; each row against the
	 * formula. */
	enum { N = 2500 };
	lsv_model *m = two_sv_model("kernel rbf\ndegree 3\ngamma 0.25\ncoef0 0\n");
	char *text = malloc(N * 64), *p = text;
	double *s = malloc(N * sizeof *s), xd[3] = {0, 0, 0};
	lsv_data *x;
	lsv_error e;
	lsv_rng r;
	int i, bad = 0;

	lsv_rng_seed(&r, 42);
	for (i = 0; i < N; i++)
		p += sprintf(p, "1 1:%.17g 2:%.17g\n", 4 * lsv_rng_uniform(&r) - 2,
			     4 * lsv_rng_uniform(&r) - 2);
	x = data(text);
	CHECK(m != NULL && x != NULL && x->n == N);
	if (m != NULL && x != NULL) {
		CHECK(lsv_model_decision(m, x, s, &e) == LSV_OK);
		for (i = 0; i < N; i++) {
			xd[0] = x->val[2 * i];
			xd[1] = x->val[2 * i + 1];
			bad += !close_to(s[i], hand_f(2, 0.25, 0, xd));
		}
		CHECK(bad == 0);
	}
	free(text);
	free(s);
	lsv_model_free(m);
	lsv_data_free(x);
}

static void model_decision_multiclass_columns(void)
{
	/* Linear, three functions: column c is sum_i coef[i][c] u'sv_i + b_c. */
	lsv_model *m;
	lsv_data *x = data("3 1:2 2:1\n0 2:-1\n");
	double s[6];
	lsv_error e;
	/* sv1 = (1, 2), coefficients (1, -1, 0.5); sv2 = (-1, 0) with
	 * (-0.5, 0.25, 2); bias (0.1, -0.2, 0.3). */
	double u1[2] = {2 * 1 + 1 * 2, 2 * -1}, u2[2] = {-2, 0};
	CHECK(read_str(three, &m, &e) == LSV_OK);
	if (m != NULL && x != NULL) {
		CHECK(lsv_model_decision(m, x, s, &e) == LSV_OK);
		CHECK(close_to(s[0], 1 * u1[0] - 0.5 * u1[1] + 0.1));
		CHECK(close_to(s[1], -1 * u1[0] + 0.25 * u1[1] - 0.2));
		CHECK(close_to(s[2], 0.5 * u1[0] + 2 * u1[1] + 0.3));
		CHECK(close_to(s[3], 1 * u2[0] - 0.5 * u2[1] + 0.1));
		CHECK(close_to(s[4], -1 * u2[0] + 0.25 * u2[1] - 0.2));
		CHECK(close_to(s[5], 0.5 * u2[0] + 2 * u2[1] + 0.3));
		/* Row 1: (5.1, -4.7, -1.7): class 0, label 3.  Row 2:
		 * (-1.9, 1.8, -0.7): class 1, label 1. */
		CHECK(lsv_model_label(m, s) == 3);
		CHECK(lsv_model_label(m, s + 3) == 1);
	}
	lsv_model_free(m);
	lsv_data_free(x);
}

static void model_label_binary_sign_and_multiclass_ties(void)
{
	lsv_model *m2 = read_subst("labels 1 -1\n", "labels 5 2\n"), *m3;
	lsv_error e;
	double s;
	CHECK(m2 != NULL);
	if (m2 != NULL) {
		s = 1e-300;
		CHECK(lsv_model_label(m2, &s) == 5);   /* f > 0: first class */
		s = 0.0;
		CHECK(lsv_model_label(m2, &s) == 2);   /* f = 0: second */
		s = -3.0;
		CHECK(lsv_model_label(m2, &s) == 2);
		lsv_model_free(m2);
	}
	CHECK(read_str(three, &m3, &e) == LSV_OK);   /* labels 3 1 2 */
	if (m3 != NULL) {
		double a[3] = {0.5, 0.5, 0.2}, b[3] = {0.1, 0.7, 0.7},
		       c[3] = {-1, -2, -0.5}, d[3] = {4, 4, 4};
		CHECK(lsv_model_label(m3, a) == 3);   /* tie 0-1: class 0 */
		CHECK(lsv_model_label(m3, b) == 1);   /* tie 1-2: class 1 */
		CHECK(lsv_model_label(m3, c) == 2);
		CHECK(lsv_model_label(m3, d) == 3);
		lsv_model_free(m3);
	}
}

static void model_with_no_sv_predicts_its_bias(void)
{
	lsv_model *m = read_subst("nr_sv 3\nSV\n1 1:1 2:2\n-1 1:0.5\n0.25 2:-1\n",
				  "nr_sv 0\nSV\n");
	lsv_data *x = data("1 1:1\n-1 2:3\n");
	double s[2] = {9, 9};
	lsv_error e;
	CHECK(m != NULL && x != NULL);
	if (m != NULL && x != NULL) {
		CHECK(m->sv->n == 0 && m->sv->rowptr[0] == 0);
		CHECK(lsv_model_decision(m, x, s, &e) == LSV_OK);
		CHECK(s[0] == -0.5 && s[1] == -0.5);
	}
	lsv_model_free(m);
	lsv_data_free(x);
}

const unit_case model_cases[] = {
	{"model_reads_every_field", model_reads_every_field},
	{"model_accepts_any_key_order_crlf_comments_and_no_graph",
	 model_accepts_any_key_order_crlf_comments_and_no_graph},
	{"model_graph_is_free_text_to_end_of_line",
	 model_graph_is_free_text_to_end_of_line},
	{"model_refuses_each_malformed_line_with_its_message",
	 model_refuses_each_malformed_line_with_its_message},
	{"model_missing_required_key_is_named",
	 model_missing_required_key_is_named},
	{"model_optional_keys_are_read_and_checked",
	 model_optional_keys_are_read_and_checked},
	{"model_refuses_empty_file_and_nul_byte",
	 model_refuses_empty_file_and_nul_byte},
	{"model_multiclass_counts_are_checked", model_multiclass_counts_are_checked},
	{"model_read_path_reports_missing_file", model_read_path_reports_missing_file},
	{"model_solver_names", model_solver_names},
	{"model_write_read_round_trip_is_exact", model_write_read_round_trip_is_exact},
	{"model_write_refuses_what_would_not_read_back",
	 model_write_refuses_what_would_not_read_back},
	{"model_tsvm_keys_round_trip_and_are_checked",
	 model_tsvm_keys_round_trip_and_are_checked},
	{"model_every_key_round_trips", model_every_key_round_trips},
	{"model_balance_shift_round_trips_and_is_checked",
	 model_balance_shift_round_trips_and_is_checked},
	{"model_every_name_and_optional_key_round_trips",
	 model_every_name_and_optional_key_round_trips},
	{"model_decision_linear_by_hand", model_decision_linear_by_hand},
	{"model_decision_polynomial_by_hand", model_decision_polynomial_by_hand},
	{"model_decision_rbf_by_hand", model_decision_rbf_by_hand},
	{"model_decision_is_the_same_across_blocks",
	 model_decision_is_the_same_across_blocks},
	{"model_decision_multiclass_columns", model_decision_multiclass_columns},
	{"model_label_binary_sign_and_multiclass_ties",
	 model_label_binary_sign_and_multiclass_ties},
	{"model_with_no_sv_predicts_its_bias", model_with_no_sv_predicts_its_bias},
	{NULL, NULL},
};
