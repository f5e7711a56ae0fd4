/*
 * lapsvm-train -- train LapSVM / LapRLS (and SVM / RLS at gamma_I = 0) on a
 * data set of labeled and unlabeled rows and a graph over them.
 *
 *     lapsvm-train [options] training_set_file [model_file]
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "tool.h"

static void usage(void)
{
	printf(
"Usage: lapsvm-train [options] training_set_file [model_file]\n"
"Train a manifold-regularized classifier (Belkin, Niyogi & Sindhwani, JMLR\n"
"2006) on labeled and unlabeled rows in LIBSVM format; rows labeled with\n"
"the unlabeled marker (default 0) are the unlabeled points.  model_file\n"
"defaults to training_set_file.model (standard output when reading\n"
"standard input); '-' writes standard output.\n"
"\n"
"options:\n"
"-s solver : lapsvm (default): hinge loss, dual (eqs. 10-12), SVM when\n"
"            gamma_I = 0; laprls: squared loss (eq. 8), RLS when gamma_I = 0;\n"
"            tsvm: Joachims' transductive SVM (label switching, no graph)\n"
"-t kernel : 0 linear u'v; 1 polynomial (gamma u'v + coef0)^degree;\n"
"            2 rbf exp(-gamma |u-v|^2) (default); sigma maps to\n"
"            gamma = 1/(2 sigma^2)\n"
"-d degree : polynomial degree (default 3)\n"
"-g gamma  : kernel gamma (default 1/number of features)\n"
"-r coef0  : polynomial coef0 (default 0)\n"
"Regularization, scaled as JMLR eq. 4:\n"
"    1/l sum V(x_i, y_i, f) + gamma_A |f|_K^2 + gamma_I/(l+u)^2 f'Lf\n"
"-A gamma_A  : ambient weight\n"
"-a value    : gamma_A given as the paper quotes it, gamma_A * l\n"
"              (default 0.005)\n"
"-c C        : gamma_A given as an SVM's cost, C = 1/(2 gamma_A l)\n"
"-I gamma_I  : intrinsic weight (0: RLS / SVM, no graph needed)\n"
"-i value    : gamma_I given as the paper quotes it, gamma_I l/(l+u)^2\n"
"              (default 0.045)\n"
"-M method : direct (default): LapRLS by one LU of the n x n system (eq. 8),\n"
"            LapSVM by its dual (eqs. 10-12).  In the primal (Melacci &\n"
"            Belkin 2011), LapSVM with the squared hinge, no bias:\n"
"            pcg: preconditioned conjugate gradient, one product with K\n"
"            per iteration, no n x n solve (LapSVM: inside Newton steps);\n"
"            pcg-early: the same, stopping once the unlabeled predictions\n"
"            are stable; newton: Newton steps, each an n x n LU; with -N,\n"
"            or with the linear kernel, newton works on a feature map\n"
"            instead, f = Phi w + b: the Nystrom map of the kernel, or the\n"
"            sparse data themselves (no n x n array)\n"
"-N m      : Nystrom approximation with m landmarks sampled uniformly\n"
"            (seeded by -S): memory O(n m) instead of O(n^2); needs -M newton\n"
"-m MB     : memory the dense arrays may take (default: the physical memory\n"
"            or ulimit -v); larger problems are refused with a suggestion\n"
"Graph and Laplacian:\n"
"-G file   : graph over the training rows (from graph-build); without it\n"
"            a k-NN graph is built here (euclidean, heat weights)\n"
"-k k      : neighbours of that graph (default 6)\n"
"-L type   : normalized (default) I - D^-1/2 W D^-1/2, or unnormalized D - W\n"
"-P p      : iterated Laplacian L^p (default 1)\n"
"TSVM (labeled cost C = 1/(2 gamma_A l), as the SVM):\n"
"-C cost   : cost C* of the unlabeled points (default C)\n"
"-p r      : fraction of the unlabeled points in the positive class, 0 < r < 1\n"
"            (default: the labeled ratio; per class in one-vs-rest)\n"
"-w n      : at most n label switches per binary problem (default: no cap)\n"
"Other:\n"
"-u marker : label of the unlabeled rows (default 0)\n"
"-e eps    : tolerance of the dual solver (default 0.001)\n"
"-o file   : write the predictions of the unlabeled training rows, in the\n"
"            format of lapsvm-predict -d\n"
"-v n      : n-fold cross validation over the labeled rows (the unlabeled\n"
"            rows and the graph stay in every fold); no model is written\n"
"-S seed   : random seed for -v and the Nystrom landmarks (default 1)\n"
"-q        : quiet mode\n"
"-h        : show this help\n"
"\n"
"Exit status: 0 success, 1 failure (bad input, numerical failure), 2 usage.\n");
}

/* Where gamma_A and gamma_I came from, resolved once l and u are known. */
typedef struct {
	char a_kind, i_kind;  /* 'A' raw, 'a' paper product, 'c' cost; 'I', 'i' */
	double a_val, i_val;
} reg_spec;

static void resolve_reg(const reg_spec *r, size_t l, size_t n,
			lsv_train_param *p)
{
	double dl = (double)l, dn = (double)n;
	switch (r->a_kind) {
	case 'A': p->gamma_A = r->a_val; break;
	case 'a': p->gamma_A = r->a_val / dl; break;
	case 'c': p->gamma_A = 1.0 / (2.0 * r->a_val * dl); break;
	}
	switch (r->i_kind) {
	case 'I': p->gamma_I = r->i_val; break;
	case 'i': p->gamma_I = r->i_val * dn * dn / dl; break;
	}
}

/* Write "labels ..." then "label score ..." for rows[0..m) (lapsvm-predict
 * -d format). */
static void write_predictions(FILE *fp, const lsv_model *md,
			      const double *scores, const size_t *rows, size_t m)
{
	size_t r;
	int c;

	fputs("labels", fp);
	for (c = 0; c < md->nr_fn; c++)
		fprintf(fp, " %.17g", md->labels[c]);
	fputc('\n', fp);
	for (r = 0; r < m; r++) {
		const double *s = scores + rows[r] * (size_t)md->nr_fn;
		fprintf(fp, "%.17g", lsv_model_label(md, s));
		for (c = 0; c < md->nr_fn; c++)
			fprintf(fp, " %.17g", s[c]);
		fputc('\n', fp);
	}
}

static void tsvm_progress(void *ctx, int fn, double cneg, double cpos,
			  long switches)
{
	(void)ctx;
	tool_info("TSVM function %d: C*- = %.3g, C*+ = %.3g, %ld label switches "
		  "so far", fn + 1, cneg, cpos, switches);
}

/* n-fold cross validation over the labeled rows; prints like svm-train -v. */
static void cross_validate(const lsv_data *x, const lsv_graph *g,
			   const lsv_train_param *p,
			   const lsv_train_progress *progress, long folds,
			   unsigned long long seed)
{
	size_t l = x->l, n = x->n, i, k = 0, correct = 0;
	size_t *lab = malloc(l * sizeof *lab);
	double *y = malloc(n * sizeof *y), *scores = NULL;
	lsv_data xf = *x;
	lsv_rng rng;
	long f;

	if (lab == NULL || y == NULL)
		tool_die(1, "out of memory");
	if ((size_t)folds > l)
		tool_die(1, "-v %ld: only %zu labeled rows (expected 2..%zu folds)",
			 folds, l, l);
	for (i = 0; i < n; i++)
		if (lsv_data_is_labeled(x, i))
			lab[k++] = i;
	lsv_rng_seed(&rng, seed);
	for (i = l; i > 1; i--) {  /* Fisher-Yates with the seeded generator */
		size_t j = (size_t)(lsv_rng_next(&rng) % i), t = lab[i - 1];
		lab[i - 1] = lab[j];
		lab[j] = t;
	}
	xf.y = y;
	for (f = 0; f < folds; f++) {
		size_t lo = l * (size_t)f / (size_t)folds;
		size_t hi = l * (size_t)(f + 1) / (size_t)folds;
		lsv_model *m;
		lsv_train_report rep;
		lsv_error err;
		memcpy(y, x->y, n * sizeof *y);
		for (i = lo; i < hi; i++)
			y[lab[i]] = x->unlabeled;
		xf.l = l - (hi - lo);
		if (lsv_train(&xf, g, p, progress, &m, &rep, &err) != LSV_OK)
			tool_die(1, "fold %ld of %ld: %s", f + 1, folds, err.msg);
		free(scores);
		scores = malloc(n * (size_t)m->nr_fn * sizeof *scores);
		if (scores == NULL)
			tool_die(1, "out of memory");
		/* the solver's own outputs when it kept them (same values up
		 * to rounding), else from the model */
		if (rep.train_f != NULL)
			memcpy(scores, rep.train_f,
			       x->n * (size_t)m->nr_fn * sizeof *scores);
		else if (lsv_model_decision(m, x, scores, &err) != LSV_OK)
			tool_die_err(&err);
		for (i = lo; i < hi; i++)
			correct += lsv_model_label(m, scores + lab[i] * (size_t)m->nr_fn) ==
				   x->y[lab[i]];
		lsv_train_report_free(&rep);
		lsv_model_free(m);
	}
	printf("Cross Validation Accuracy = %g%% (%zu/%zu)\n",
	       100.0 * (double)correct / (double)l, correct, l);
	free(scores);
	free(lab);
	free(y);
}

/* Everything the command line says. */
typedef struct {
	lsv_train_param p;
	lsv_graph_param gp;
	reg_spec reg;
	const char *in, *outpath, *graph_file, *pred_file;
	char *deflt;          /* the default model path, allocated */
	double marker;
	long folds;
	unsigned long long seed;
	int k_given, tsvm_opt, graph_opt;
} options;

/* The value of option c among the names of t, or a usage error that lists
 * them. */
static int opt_name(int c, const char *arg, const lsv_name *t,
		    const char *what)
{
	char list[128];
	int v = lsv_name_value(t, arg);

	if (v < 0)
		tool_usage_error("option -%c: unknown %s '%s' (expected %s)", c,
				 what, arg, lsv_name_list(t, list, sizeof list));
	return v;
}

/* argv into o; a repeated option takes its last value, as getopt tools do. */
static void parse_options(int argc, char **argv, options *o)
{
	int c;

	memset(o, 0, sizeof *o);
	lsv_train_param_default(&o->p);
	lsv_graph_param_default(&o->gp);
	o->reg = (reg_spec){'a', 'i', 0.005, 0.045};
	o->marker = LSV_UNLABELED_DEFAULT;
	o->seed = 1;
	opterr = 0;
	while ((c = getopt(argc, argv, ":s:t:d:g:r:A:a:c:I:i:G:k:L:P:u:e:o:v:S:C:p:w:M:N:m:qh")) != -1) {
		switch (c) {
		case 's':
			o->p.solver = (lsv_solver)opt_name(c, optarg, lsv_solver_names,
							   "solver");
			break;
		case 't':
			o->p.kernel.type = (lsv_kernel_type)tool_opt_long(c, optarg, 0, 2);
			break;
		case 'd':
			o->p.kernel.degree = (int)tool_opt_long(c, optarg, 1, 100);
			break;
		case 'g':
			o->p.kernel.gamma = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'r':
			o->p.kernel.coef0 = tool_opt_double(c, optarg, -1e300, 1e300);
			break;
		case 'A': case 'a': case 'c':
			o->reg.a_kind = (char)c;
			o->reg.a_val = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'I': case 'i':
			o->reg.i_kind = (char)c;
			o->graph_opt = c;
			o->reg.i_val = tool_opt_double(c, optarg, 0.0, 1e300);
			break;
		case 'G':
			o->graph_file = optarg;
			break;
		case 'k':
			o->gp.k = (int)tool_opt_long(c, optarg, 1, INT_MAX);
			o->k_given = 1;
			break;
		case 'L':
			o->graph_opt = c;
			o->p.normalized = opt_name(c, optarg, lsv_laplacian_names,
						   "Laplacian");
			break;
		case 'P':
			o->graph_opt = c;
			o->p.power = (int)tool_opt_long(c, optarg, 1, 100);
			break;
		case 'u':
			o->marker = tool_opt_double(c, optarg, -1e300, 1e300);
			if (o->marker == 0.0)
				o->marker = 0.0;  /* -0 is the label 0, as the reader has it */
			break;
		case 'e':
			o->p.eps = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'o':
			o->pred_file = optarg;
			break;
		case 'v':
			o->folds = tool_opt_long(c, optarg, 2, LONG_MAX);
			break;
		case 'S':
			o->seed = (unsigned long long)tool_opt_long(c, optarg, 0, LONG_MAX);
			o->p.seed = o->seed;
			break;
		case 'C':
			o->p.tsvm_cstar = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			o->tsvm_opt = c;
			break;
		case 'p':
			o->p.tsvm_r = tool_opt_double(c, optarg, -1e300, 1e300);
			if (!(o->p.tsvm_r > 0.0 && o->p.tsvm_r < 1.0))
				tool_usage_error("option -p: '%s' out of range (expected "
						 "0 < r < 1)", optarg);
			o->tsvm_opt = c;
			break;
		case 'w':
			o->p.tsvm_max_switches = tool_opt_long(c, optarg, 1, LONG_MAX);
			o->tsvm_opt = c;
			break;
		case 'M':
			o->p.method = (lsv_method)opt_name(c, optarg, lsv_method_names,
							   "method");
			break;
		case 'N':
			o->p.landmarks = tool_opt_long(c, optarg, 1, INT_MAX);
			break;
		case 'm':
			o->p.mem_limit = tool_opt_double(c, optarg, 1.0, 1e12) * 1e6;
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			tool_option_error(c);
		}
	}
	if (optind >= argc)
		tool_usage_error("missing training_set_file");
	if (argc - optind > 2)
		tool_usage_error("too many arguments (expected training_set_file "
				 "[model_file])");
	if (o->graph_file && o->k_given)
		tool_usage_error("-k sets the graph built here; it does not apply "
				 "with -G");
	if (o->folds > 0 && o->pred_file)
		tool_usage_error("-o and -v exclude each other");
	if (o->tsvm_opt && o->p.solver != LSV_SOLVER_TSVM)
		tool_usage_error("-%c applies to the TSVM (-s tsvm)", o->tsvm_opt);
	if (o->p.solver == LSV_SOLVER_TSVM &&
	    (o->graph_file || o->k_given || o->graph_opt))
		tool_usage_error("the TSVM uses no graph (-G, -k, -i, -I, -L, -P)");
	o->in = argv[optind];
	if (o->graph_file && strcmp(o->graph_file, "-") == 0 &&
	    strcmp(o->in, "-") == 0)
		tool_usage_error("the data and the graph cannot both be standard input");
	if (optind + 1 < argc) {
		o->outpath = argv[optind + 1];
	} else if (strcmp(o->in, "-") == 0) {
		o->outpath = "-";
	} else {
		o->deflt = malloc(strlen(o->in) + sizeof ".model");
		if (o->deflt == NULL)
			tool_die(1, "out of memory");
		sprintf(o->deflt, "%s.model", o->in);
		o->outpath = o->deflt;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Says what the rows are, and warns when the unlabeled marker looks like
 * a forgotten class: fewer marked rows than labeled ones (a fully labeled
 * set whose class 0 became "unlabeled"), or the marker inside a run of
 * integer class labels (classes 1..9 but 4 marked).  Said once training
 * has succeeded, so that a failed run prints its one error line only. */
static void describe_rows(const options *o, const lsv_data *x)
{
	const char *name = strcmp(o->in, "-") ? o->in : "(stdin)";
	size_t u = x->n - x->l, i, k = 0, nclass = 0;
	double *lab = malloc(x->l * sizeof *lab), lo, hi, m = x->unlabeled;
	int run;

	if (lab == NULL)
		tool_die(1, "out of memory");
	for (i = 0; i < x->n; i++)  /* the distinct class labels, sorted */
		if (lsv_data_is_labeled(x, i))
			lab[k++] = x->y[i];
	qsort(lab, k, sizeof *lab, cmp_double);
	for (i = 0; i < k; i++)
		if (i == 0 || lab[i] != lab[nclass - 1])
			lab[nclass++] = lab[i];
	lo = lab[0];
	hi = lab[nclass - 1];
	/* every integer from lo to hi but m is a class */
	run = nclass >= 3 && m > lo && m < hi && m == floor(m) &&
	      hi - lo == (double)nclass;
	for (i = 0; run && i < nclass; i++)
		run = lab[i] == floor(lab[i]);
	free(lab);
	tool_info("%s: %zu rows: l = %zu labeled in %zu classes, u = %zu "
		  "unlabeled (marker %g)", name, x->n, x->l, nclass, u, m);
	if (u > 0 && u < x->l)
		tool_info("warning: only %zu rows carry the unlabeled marker %g, "
			  "fewer than the %zu labeled rows: if %g is a class, give "
			  "the unlabeled rows another marker with -u", u, m, x->l, m);
	else if (u > 0 && run)
		tool_info("warning: the unlabeled marker %g lies among the class "
			  "labels %g..%g: if it is a class, give the unlabeled rows "
			  "another marker with -u", m, lo, hi);
}

/* The training set, refused at once if it holds no task: no labeled row,
 * or one class only (said now, not after building a graph). */
static lsv_data *read_data(const options *o)
{
	const char *name = strcmp(o->in, "-") ? o->in : "(stdin)";
	lsv_data *x;
	lsv_error err;
	size_t i, first;

	if (lsv_data_read_path(o->in, o->marker, &x, &err) != LSV_OK)
		tool_die_err(&err);
	if (x->l == 0)
		tool_die(1, "%s: no labeled rows (every label is the unlabeled "
			 "marker %g; see -u)", name, o->marker);
	first = x->n;
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i)) {
			if (first == x->n)
				first = i;
			else if (x->y[i] != x->y[first])
				break;
		}
	if (i == x->n)
		tool_die(1, "%s: the labeled rows have only one class (%g): need "
			 "at least two", name, x->y[first]);
	return x;
}

/* The graph of -G, or one built here when gamma_I > 0 (NULL otherwise);
 * desc gets the line the model keeps about it ("" for none). */
static lsv_graph *read_graph(options *o, const lsv_data *x, char *desc,
			     size_t size)
{
	lsv_graph *g = NULL;
	lsv_graph_info info;
	lsv_error err;

	desc[0] = '\0';
	if (o->graph_file != NULL) {
		if (lsv_graph_read_path(o->graph_file, x->n, &g, &err) != LSV_OK)
			tool_die_err(&err);
		snprintf(desc, size, "file %s", o->graph_file);
	} else if (o->p.gamma_I > 0.0) {
		if (!tool_quiet)
			o->gp.progress = tool_progress;
		if (lsv_graph_build(x, &o->gp, &g, &info, &err) != LSV_OK)
			tool_die_graph_err(o->in, &err);
		tool_info("no graph given (-G): built a %d-NN graph (euclidean, "
			  "heat weights) over the %zu rows", info.k, x->n);
		snprintf(desc, size, "built knn k=%d euclidean heat t=%.17g union",
			 info.k, info.t);
	}
	return g;
}

/* The model keeps the graph's description on one "key value" line: no
 * line breaks, no '#' (a comment there), no trailing blank. */
static void set_graph_desc(lsv_model *m, char *desc)
{
	char *q;
	size_t len;

	if (desc[0] == '\0')
		return;
	for (q = desc; *q; q++)
		if (*q == '#' || (unsigned char)*q < ' ')
			*q = '_';
	len = strlen(desc);
	while (len > 0 && desc[len - 1] == ' ')
		desc[--len] = '\0';
	m->graph = malloc(len + 1);
	if (m->graph == NULL)
		tool_die(1, "out of memory for the model's graph description");
	memcpy(m->graph, desc, len + 1);
}

/* What training did, on stderr (not with -q). */
static void report(const lsv_train_param *p, const lsv_model *m,
		   const lsv_train_report *r)
{
	if (r->switch_capped)
		tool_info("warning: the TSVM stopped at the cap of %ld label switches "
			  "(-w) before the switching condition was met",
			  p->tsvm_max_switches);
	if (r->gamma_data > 0.0)
		tool_info("RBF width from the data: -g %.6g (1 / the mean squared "
			  "distance between rows)", r->gamma_data);
	if (r->kernel_identity)
		tool_info("warning: the kernel matrix is numerically the identity "
			  "(every off-diagonal value below 1e-6 of the diagonal): "
			  "gamma = %g is too large for these distances; try a smaller "
			  "-g", p->kernel.gamma);
	if (r->kernel_constant)
		tool_info("warning: the kernel matrix is numerically all ones "
			  "(every off-diagonal value within 1e-6 of the diagonal): "
			  "gamma = %g is too small for these distances; try a larger "
			  "-g", p->kernel.gamma);
	if (r->newton_capped)
		tool_info("warning: Newton stopped at its cap of %ld steps before "
			  "the active set settled; the model is the last iterate",
			  r->newton_cap);
	tool_info("%s: l = %zu, u = %zu, %d classes, gamma_A = %g, gamma_I = "
		  "%g, %zu expansion points; %.2f s",
		  p->solver == LSV_SOLVER_TSVM ? "TSVM"
		  : p->solver == LSV_SOLVER_LAPRLS
			  ? (p->gamma_I == 0.0 ? "RLS" : "LapRLS")
			  : (p->gamma_I == 0.0 ? "SVM" : "LapSVM"),
		  m->l, m->u, m->nr_class, p->gamma_A, p->gamma_I, m->sv->n,
		  tool_elapsed());
	if (p->solver == LSV_SOLVER_TSVM)
		tool_info("TSVM: %ld label switches in all", r->switches);
	if (p->method == LSV_METHOD_PCG || p->method == LSV_METHOD_PCG_EARLY)
		tool_info("PCG: %ld iterations", r->pcg_iterations);
	if (r->kernel_seconds > 0.0 || r->solve_seconds > 0.0)
		tool_info("time: kernel matrix %.2f s, solver %.2f s",
			  r->kernel_seconds, r->solve_seconds);
	if (p->method == LSV_METHOD_NEWTON)
		tool_info("Newton: %ld steps in all", r->newton_steps);
	if (r->cg_iterations > 0)
		tool_info("conjugate gradient: %ld iterations in all",
			  r->cg_iterations);
}

/* -o: the transductive predictions, f on the unlabeled training rows. */
static void write_transductive(const options *o, const lsv_data *x,
			       const lsv_model *m, const lsv_train_report *r)
{
	double *scores = malloc(x->n * (size_t)m->nr_fn * sizeof *scores);
	size_t *rows = malloc((x->n - x->l + 1) * sizeof *rows), i, u = 0;
	lsv_out *out;
	lsv_error err;

	if (scores == NULL || rows == NULL)
		tool_die(1, "out of memory");
	/* the solver's own outputs when it kept them (same values up to
	 * rounding), else from the model */
	if (r->train_f != NULL)
		memcpy(scores, r->train_f, x->n * (size_t)m->nr_fn * sizeof *scores);
	else if (lsv_model_decision(m, x, scores, &err) != LSV_OK)
		tool_die_err(&err);
	for (i = 0; i < x->n; i++)
		if (!lsv_data_is_labeled(x, i))
			rows[u++] = i;
	write_predictions(tool_output_open(o->pred_file, &out), m, scores, rows, u);
	tool_output_commit(out);
	free(scores);
	free(rows);
}

static void write_model(const options *o, const lsv_model *m)
{
	lsv_out *out;
	lsv_error err;

	if (lsv_model_write(tool_output_open(o->outpath, &out),
			    strcmp(o->outpath, "-") ? o->outpath : "(stdout)", m,
			    &err) != LSV_OK)
		tool_output_fail(out, &err);
	tool_output_commit(out);
}

int main(int argc, char **argv)
{
	options o;
	lsv_data *x;
	lsv_graph *g;
	lsv_model *m;
	lsv_train_report rep;
	lsv_train_progress progress = {NULL, NULL};
	lsv_error err;
	char graph_desc[256];

	tool_init(argv[0]);
	parse_options(argc, argv, &o);
	x = read_data(&o);
	resolve_reg(&o.reg, x->l, x->n, &o.p);
	if (o.p.solver == LSV_SOLVER_TSVM) {
		o.p.gamma_I = 0.0;
		if (x->l == x->n)
			tool_info("warning: no unlabeled rows: the TSVM is the SVM");
		if (!tool_quiet)
			progress.tsvm = tsvm_progress;
	}
	if (lsv_train_param_check(&o.p, &err) != LSV_OK ||
	    lsv_graph_param_check(&o.gp, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);
	g = read_graph(&o, x, graph_desc, sizeof graph_desc);
	if (o.folds > 0) {
		cross_validate(x, g, &o.p, &progress, o.folds, o.seed);
		describe_rows(&o, x);
	} else {
		if (lsv_train(x, g, &o.p, &progress, &m, &rep, &err) != LSV_OK)
			tool_die_err(&err);
		set_graph_desc(m, graph_desc);
		describe_rows(&o, x);
		report(&o.p, m, &rep);
		if (o.pred_file != NULL)
			write_transductive(&o, x, m, &rep);
		write_model(&o, m);
		lsv_train_report_free(&rep);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
	free(o.deflt);
	return 0;
}
