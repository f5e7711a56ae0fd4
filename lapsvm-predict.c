/*
 * lapsvm-predict -- apply a trained model to a data set: one predicted
 * label per row, optionally the decision values, and, when the data has
 * labels, the accuracy (and for two classes the PRBEP, the measure of the
 * JMLR 2006 text experiments), like LIBSVM's svm-predict.
 *
 *     lapsvm-predict [options] test_file model_file output_file
 *
 * The output is opened first (a bad destination is the error reported,
 * before the inputs are read) and replaced only once complete, so bad
 * input never touches an existing output file.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "tool.h"

static void usage(void)
{
	printf(
"Usage: lapsvm-predict [options] test_file model_file output_file\n"
"Predict the label of every row of test_file (LIBSVM format) with a model\n"
"written by lapsvm-train, one label per line in output_file.  Any one of\n"
"the files may be '-' (standard input or output), but not both inputs.\n"
"The output is replaced only when complete.\n"
"\n"
"If test_file has labeled rows (label other than the unlabeled marker),\n"
"prints the accuracy over them, and for a two-class model the\n"
"precision-recall break-even point, with the rows of the model's first\n"
"class as positives, ranked by f(x).  For a cluster model (lapsvm-train -s\n"
"cluster, or -s boost -K) the labels are classes, not clusters: it prints\n"
"the clustering\n"
"accuracy under the best matching of clusters to classes, and the\n"
"normalized mutual information.  These go to standard output, or to\n"
"standard error when the predictions do.\n"
"\n"
"options:\n"
"-d        : also write the decision values: a first line 'labels L1 ...'\n"
"            naming the class of each column, then 'label f1 f2 ...' per\n"
"            row; a two-class model has one column, f(x), named after its\n"
"            first class (f(x) > 0 predicts it); a cluster model's first\n"
"            line is 'clusters 1 ... c' and its columns the embedding\n"
"            f1 ... f(c-1)\n"
"-b        : boosted models (lapsvm-train -s boost): write probabilities\n"
"            instead, LIBSVM's -b 1 format: a first line 'labels L1 L2 ...',\n"
"            then 'label p1 p2 ...' per row; two classes: p1 = p(y = L1 | x)\n"
"            = 1/(1 + exp(-2 f(x))) (the loss inverted, Loeff et al.) and\n"
"            p2 = 1 - p1; more: p_c = exp(f_c) / sum_k exp(f_k)\n"
"-k a:b    : two-class boosted models: the cost-matrix rule (Loeff et al.\n"
"            eq. 9): predict L1 when p1 a > (1 - p1) b, a the cost of\n"
"            predicting L2 when the truth is L1, b that of predicting L1\n"
"            when it is L2 (a, b > 0; 1:1 is f(x) > 0, the default)\n"
"-u marker : label of the unlabeled rows of test_file (default: the\n"
"            model's unlabeled_marker)\n"
"-q        : quiet: no accuracy, PRBEP or warnings\n"
"-h        : show this help\n"
"\n"
"Exit status: 0 success, 1 failure (bad input, I/O), 2 usage error.\n");
}

/* Nonzero if the regular file at path starts like a model, so a test_file
 * that is really a model gets a message that says so. */
static int looks_like_model(const char *path)
{
	static const char magic[] = "lapsvm_model";
	char buf[sizeof magic];
	FILE *fp;
	size_t got;

	if (strcmp(path, "-") == 0 || (fp = fopen(path, "r")) == NULL)
		return 0;
	got = fread(buf, 1, sizeof magic - 1, fp);
	fclose(fp);
	return got == sizeof magic - 1 && memcmp(buf, magic, got) == 0;
}

/* p(y = L1 | x) = 1/(1 + exp(-2f)) without overflow */
static double p_first(double f)
{
	return f >= 0.0 ? 1.0 / (1.0 + exp(-2.0 * f))
			: exp(2.0 * f) / (1.0 + exp(2.0 * f));
}

/* -k a:b, two costs > 0 */
static void parse_costs(const char *arg, double *a, double *b)
{
	const char *colon = strchr(arg, ':');
	char first[64];
	size_t len;

	if (colon == NULL || (len = (size_t)(colon - arg)) >= sizeof first)
		tool_usage_error("option -k: '%s' is not a:b (two costs > 0, "
				 "e.g. 1:4)", arg);
	memcpy(first, arg, len);
	first[len] = '\0';
	/* costs > 0: the range says so, from the smallest normal double */
	*a = tool_opt_double('k', first, DBL_MIN, 1e300);
	*b = tool_opt_double('k', colon + 1, DBL_MIN, 1e300);
}

/* Eq. 9 of Loeff et al.: L1 when p1 k(L2 chosen, L1 true) > (1 - p1)
 * k(L1 chosen, L2 true), i.e. p1 > b / (a + b); a = b is f > 0. */
static double cost_label(const lsv_model *m, double f, double a, double b)
{
	double p1 = p_first(f);
	return p1 * a > (1.0 - p1) * b ? m->labels[0] : m->labels[1];
}

/* A cluster model: the agreement of its clusters with the classes of
 * the labeled rows. */
static void cluster_report(const lsv_model *m, const lsv_data *x,
			   const double *pred, FILE *to)
{
	size_t i, k = 0, matched;
	int *cl = malloc((x->l ? x->l : 1) * sizeof *cl);
	double *y = malloc((x->l ? x->l : 1) * sizeof *y), acc, nmi;
	lsv_error err;

	if (cl == NULL || y == NULL)
		tool_die(1, "out of memory");
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i)) {
			cl[k] = (int)pred[i] - 1;  /* clusters are 1..c */
			y[k++] = x->y[i];
		}
	if (k > 0) {
		if (lsv_cluster_agreement(cl, m->nr_class, y, k, &acc, &matched,
					  &nmi, &err) != LSV_OK)
			tool_die_err(&err);
		fprintf(to, "Clustering accuracy = %g%% (%zu/%zu) (clusters "
			"matched to classes)\n", 100.0 * acc, matched, k);
		fprintf(to, "NMI = %.4f (normalized mutual information)\n", nmi);
	}
	free(cl);
	free(y);
}

/* Whether the rows carrying the marker look like a class the accuracy
 * leaves out, as with 0-based classes 0, 1, 2 read with the marker 0: a
 * file mostly labeled (fewer marked rows than labeled ones: l of them),
 * and the marker an integer next to or among the model's integer classes,
 * which with it make a run of consecutive integers -- all but the usual
 * -1, 1 with 0, where 0 is no class. */
static int marker_like_class(const lsv_model *m, const lsv_data *x,
			     size_t l)
{
	double mk = x->unlabeled, lo, hi;
	int c;

	if (l == x->n || x->n - l >= l || mk != floor(mk))
		return 0;
	lo = hi = mk;
	for (c = 0; c < m->nr_class; c++) {
		if (m->labels[c] != floor(m->labels[c]))
			return 0;
		lo = fmin(lo, m->labels[c]);
		hi = fmax(hi, m->labels[c]);
	}
	/* the model's classes are distinct and none is the marker */
	return hi - lo == (double)m->nr_class && !(lo == -1.0 && hi == 1.0);
}

/* The accuracy over the labeled rows, with warnings for marked rows that
 * look like a class and for labels not among the model's classes (counted
 * as errors).  Returns the number of labeled rows (0: nothing printed). */
static size_t accuracy_report(const lsv_model *m, const lsv_data *x,
			      const double *pred, FILE *to)
{
	size_t i, nl = 0, correct = 0, unknown = 0;
	int c;

	for (i = 0; i < x->n; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		nl++;
		correct += pred[i] == x->y[i];
		for (c = 0; c < m->nr_class; c++)
			if (x->y[i] == m->labels[c])
				break;
		unknown += c == m->nr_class;
	}
	if (nl == 0)
		return 0;
	fprintf(to, "Accuracy = %g%% (%zu/%zu) (classification)\n",
		100.0 * (double)correct / (double)nl, correct, nl);
	if (marker_like_class(m, x, nl))
		tool_info("warning: %zu of the %zu rows carry the unlabeled "
			  "marker %g and are not scored: if %g is a class, give "
			  "the unlabeled rows another label and name it with -u",
			  x->n - nl, x->n, x->unlabeled, x->unlabeled);
	if (unknown > 0)
		tool_info("warning: %zu labeled rows have a label that is not one "
			  "of the model's classes (counted as errors)", unknown);
	return nl;
}

/* The precision-recall break-even point of a two-class model over its nl
 * labeled rows, ranked by f(x), the rows of its first class the
 * positives.  Precision = recall needs a positive row to recall: with
 * none the break-even point does not exist, and it says so. */
static void prbep_report(const lsv_model *m, const lsv_data *x,
			 const double *scores, size_t nl, FILE *to)
{
	double *f = malloc(nl * sizeof *f), err_rate, bep;
	int *pos = malloc(nl * sizeof *pos);
	size_t i, j, npos = 0;

	if (f == NULL || pos == NULL) {
		tool_msg("warning: out of memory for the PRBEP; skipped");
		free(f);
		free(pos);
		return;
	}
	for (i = 0, j = 0; i < x->n; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		f[j] = scores[i];
		pos[j] = x->y[i] == m->labels[0];
		npos += (size_t)pos[j++];
	}
	if (npos == 0) {
		fprintf(to, "PRBEP undefined (no labeled row of class %.17g)\n",
			m->labels[0]);
	} else {
		bep = lsv_prbep(f, pos, nl, &err_rate);
		fprintf(to, "PRBEP = %.2f%% (error rate at PRBEP = %.2f%%)\n",
			100.0 * bep, 100.0 * err_rate);
	}
	free(f);
	free(pos);
}

/* Accuracy over the labeled rows; PRBEP for a two-class model; a cluster
 * model's agreement with the classes instead. */
static void report(const lsv_model *m, const lsv_data *x, const double *pred,
		   const double *scores, FILE *to)
{
	size_t nl;

	if (m->param.solver == LSV_SOLVER_CLUSTER ||
	    m->param.boost_clusters > 0) {
		cluster_report(m, x, pred, to);
		return;
	}
	nl = accuracy_report(m, x, pred, to);
	if (nl > 0 && m->nr_fn == 1)
		prbep_report(m, x, scores, nl, to);
}

/* What the command line asks for. */
typedef struct {
	const char *testpath, *modelpath, *outpath;
	double marker;          /* -u, when marker_given */
	int marker_given;
	int decision;           /* -d */
	int prob;               /* -b */
	int costs;              /* -k a:b, the costs in cost_a, cost_b */
	double cost_a, cost_b;
} options;

/* The options and the three file names; usage errors exit 2 (-h exits
 * 0 once the help is printed: the run's only work). */
static void read_options(int argc, char **argv, options *o)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":bdk:u:qh")) != -1) {
		switch (c) {
		case 'k':
			parse_costs(optarg, &o->cost_a, &o->cost_b);
			o->costs = 1;
			break;
		case 'b':
			o->prob = 1;
			break;
		case 'd':
			o->decision = 1;
			break;
		case 'u':
			o->marker = tool_opt_double(c, optarg, -DBL_MAX, DBL_MAX);
			o->marker_given = 1;
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 'h':
			tool_help(usage);
		default:
			tool_option_error(c);
		}
	}
	if (o->prob && o->decision)
		tool_usage_error("-b and -d: choose the probabilities or the "
				 "decision values");
	if (argc - optind < 1)
		tool_usage_error("missing test_file, model_file and output_file");
	if (argc - optind < 2)
		tool_usage_error("missing model_file and output_file");
	if (argc - optind < 3)
		tool_usage_error("missing output_file");
	/* svm-predict -b 1 test model out: -b takes a value there */
	if (argc - optind == 4 && o->prob &&
	    (strcmp(argv[optind], "0") == 0 || strcmp(argv[optind], "1") == 0))
		tool_usage_error("-b takes no value: LIBSVM's -b %s is %s",
				 argv[optind], argv[optind][0] == '1' ?
				 "-b alone here (probabilities of boosted "
				 "models only)" : "lapsvm-predict without -b");
	if (argc - optind > 3)
		tool_usage_error("too many arguments (expected test_file model_file "
				 "output_file)");
	o->testpath = argv[optind];
	o->modelpath = argv[optind + 1];
	o->outpath = argv[optind + 2];
	if (strcmp(o->testpath, "-") == 0 && strcmp(o->modelpath, "-") == 0)
		tool_usage_error("test_file and model_file cannot both be '-' "
				 "(standard input)");
}

/* The model, refused (exit 1) when it cannot serve the options: -b and -k
 * read f as half the log-odds, which only a boosted classifier's is; -k is
 * a two-class rule; a transductive model has no kernel on new points. */
static lsv_model *read_model(const options *o)
{
	lsv_model *m;
	lsv_error err;

	if (lsv_model_read_path(o->modelpath, &m, &err) != LSV_OK)
		tool_die_err(&err);
	if ((o->prob || o->costs) && m->param.solver != LSV_SOLVER_BOOST)
		tool_die(EXIT_FAILURE, "%s: -%c needs a boosted model (solver "
			 "boost, whose f is half the log-odds); this one is %s",
			 o->modelpath, o->prob ? 'b' : 'k',
			 lsv_solver_name(m->param.solver));
	if ((o->prob || o->costs) && m->param.boost_clusters > 0)
		tool_die(EXIT_FAILURE, "%s: -%c needs a classifier; this boosted "
			 "model clusters (its f are an embedding, not log-odds)",
			 o->modelpath, o->prob ? 'b' : 'k');
	if (o->costs && m->nr_fn != 1)
		tool_die(EXIT_FAILURE, "%s: -k is the two-class rule of eq. 9; this "
			 "model has %d classes", o->modelpath, m->nr_class);
	if (lsv_model_transductive(m) != NULL)
		tool_die(EXIT_FAILURE, "%s: a model of %s is transductive: its "
			 "kernel exists on the training rows only, so it cannot predict "
			 "new points (train with lapsvm-train -o FILE to get the "
			 "predictions of the unlabeled training rows)", o->modelpath,
			 lsv_model_transductive(m));
	return m;
}

/* The test rows, read after the model: its unlabeled marker is the
 * default of -u, and a precomputed-kernel model reads kernel rows against
 * its l + u training rows. */
static lsv_data *read_test_data(const options *o, const lsv_model *m)
{
	double marker = o->marker_given ? o->marker : m->unlabeled;
	lsv_data *x;
	lsv_error err;

	if ((m->param.kernel.type == LSV_KERNEL_PRECOMPUTED
	     ? lsv_precomputed_read_path(o->testpath, marker, m->l + m->u, &x,
					 &err)
	     : lsv_data_read_path(o->testpath, marker, &x, &err)) != LSV_OK) {
		if (err.status == LSV_EFORMAT && looks_like_model(o->testpath))
			tool_die(EXIT_FAILURE, "%s: this is a lapsvm model, not test "
				 "data (expected: lapsvm-predict test_file model_file "
				 "output_file)", o->testpath);
		tool_die_err(&err);
	}
	return x;
}

/* Warns when test rows of an RBF model have features past the last one
 * of its expansion points: exp(-g |x - v|^2) counts x_j^2 in the distance
 * to every expansion point v, so each such row's kernel values all shrink
 * by exp(-g sum x_j^2) and its kernel part of f with them.  That is what the
 * data say if the features are new, and the sign of a test file whose
 * columns are not the training file's (an extra or shifted column).  Only
 * the RBF kernel: u'v and (g u'v + r)^d do not see such features at all. */
static void warn_unseen_features(const options *o, const lsv_model *m,
				 const lsv_data *x)
{
	size_t i, p, rows = 0, first = 0, d;

	if (m->param.kernel.type != LSV_KERNEL_RBF || m->sv == NULL ||
	    m->sv->n == 0)
		return;
	d = m->sv->dim;
	for (i = 0; i < x->n; i++) {
		int past = 0;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
			if ((size_t)x->col[p] >= d && x->val[p] != 0.0) {
				past = 1;
				if (first == 0 || (size_t)x->col[p] + 1 < first)
					first = (size_t)x->col[p] + 1;
			}
		rows += past;
	}
	if (rows > 0)
		tool_info("warning: %s: %zu of the %zu rows have features past the "
			  "last of the model's expansion points, %zu (from feature "
			  "%zu): the RBF kernel adds their squares to every "
			  "distance, so all kernel values of those rows shrink "
			  "(are the columns the training file's?)",
			  strcmp(o->testpath, "-") ? o->testpath : "(stdin)",
			  rows, x->n, d, first);
}

/* The decision values of every row, nr_fn of them per row (row i's at
 * i nr_fn), and the predicted labels: by the cost rule under -k, else the
 * model's own. */
static void predict(const options *o, const lsv_model *m, const lsv_data *x,
		    double **scores_out, double **pred_out)
{
	size_t i, nf = (size_t)m->nr_fn;
	double *scores, *pred;
	lsv_error err;

	if (x->n > SIZE_MAX / sizeof(double) / nf)
		tool_die(EXIT_FAILURE, "%s: %zu rows x %zu decision values are too "
			 "many", o->testpath, x->n, nf);
	scores = malloc(x->n * nf * sizeof *scores);
	pred = malloc(x->n * sizeof *pred);
	if (scores == NULL || pred == NULL)
		tool_die(EXIT_FAILURE, "out of memory for %zu rows x %zu decision "
			 "values", x->n, nf);
	if (lsv_model_decision(m, x, scores, &err) != LSV_OK) {
		if (err.status == LSV_ENUMERIC && lsv_error_row_text(&err) == NULL)
			/* its rows are the test rows */
			tool_die(EXIT_FAILURE, "%s: %s", strcmp(o->testpath, "-")
				 ? o->testpath : "(stdin)", err.msg);
		tool_die_data_err(o->testpath, 0, &err);
	}
	for (i = 0; i < x->n; i++)
		pred[i] = o->costs ? cost_label(m, scores[i], o->cost_a, o->cost_b)
				   : lsv_model_label(m, scores + i * nf);
	*scores_out = scores;
	*pred_out = pred;
}

/* The first line of -d or -b output, naming the columns: the clusters of
 * a cluster model under -d, every class under -b, and under -d the class
 * of each of the nr_fn decision values (one, the first class, for two). */
static void write_header(FILE *fp, const options *o, const lsv_model *m)
{
	size_t i, ncol;

	if (o->decision && (m->param.solver == LSV_SOLVER_CLUSTER ||
			    m->param.boost_clusters > 0)) {
		fputs("clusters", fp);
		ncol = (size_t)m->nr_class;
	} else if (o->prob) {
		fputs("labels", fp);
		ncol = (size_t)m->nr_class;
	} else if (o->decision) {
		fputs("labels", fp);
		ncol = (size_t)m->nr_fn;
	} else {
		return;
	}
	for (i = 0; i < ncol; i++)
		fprintf(fp, " %.17g", m->labels[i]);
	putc('\n', fp);
}

/* -b: the probabilities of one row from its nf values of f: two classes
 * p1 = 1/(1 + exp(-2 f)) and 1 - p1, more the softmax, its largest term
 * first divided out (no overflow). */
static void write_probabilities(FILE *fp, const double *f, size_t nf)
{
	double mx = f[0], z = 0.0;
	size_t j;

	if (nf == 1) {
		double p1 = p_first(f[0]);
		fprintf(fp, " %.17g %.17g", p1, 1.0 - p1);
		return;
	}
	for (j = 1; j < nf; j++)
		mx = fmax(mx, f[j]);
	for (j = 0; j < nf; j++)
		z += exp(f[j] - mx);
	for (j = 0; j < nf; j++)
		fprintf(fp, " %.17g", exp(f[j] - mx) / z);
}

/* One line per row: the label, then its decision values (-d) or class
 * probabilities (-b); stops at the first write error (the commit
 * reports it). */
static void write_predictions(FILE *fp, const options *o, const lsv_model *m,
			      const lsv_data *x, const double *scores,
			      const double *pred)
{
	size_t i, j, nf = (size_t)m->nr_fn;

	write_header(fp, o, m);
	for (i = 0; i < x->n && !ferror(fp); i++) {
		fprintf(fp, "%.17g", pred[i]);
		if (o->decision)
			for (j = 0; j < nf; j++)
				fprintf(fp, " %.17g", scores[i * nf + j]);
		if (o->prob)
			write_probabilities(fp, scores + i * nf, nf);
		putc('\n', fp);
	}
}

int main(int argc, char **argv)
{
	options o = {NULL, NULL, NULL, 0.0, 0, 0, 0, 0, 1.0, 1.0};
	lsv_model *m;
	lsv_data *x;
	double *scores, *pred;
	FILE *fp;

	tool_init(argv[0]);
	tool_one_process(&argc, &argv);
	read_options(argc, argv, &o);
	/* the output first: a bad destination is the error reported */
	fp = tool_output_open(o.outpath);
	tool_check_input(o.testpath);
	tool_check_input(o.modelpath);
	m = read_model(&o);
	x = read_test_data(&o, m);
	predict(&o, m, x, &scores, &pred);
	warn_unseen_features(&o, m, x);  /* after: a failed run says one line */
	write_predictions(fp, &o, m, x, scores, pred);
	if (!tool_quiet)
		report(m, x, pred, scores,
		       strcmp(o.outpath, "-") == 0 ? stderr : stdout);
	/* the report written before any file is replaced: one lost to a
	 * full disk or a closed pipe fails the run with the old file kept */
	(void)tool_done();
	tool_outputs_commit();  /* reports a write error */

	free(scores);
	free(pred);
	lsv_data_free(x);
	lsv_model_free(m);
	return tool_done();
}
