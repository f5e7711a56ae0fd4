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
			   const lsv_train_param *p, long folds,
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
		lsv_error err;
		memcpy(y, x->y, n * sizeof *y);
		for (i = lo; i < hi; i++)
			y[lab[i]] = x->unlabeled;
		xf.l = l - (hi - lo);
		if (lsv_train(&xf, g, p, &m, &err) != LSV_OK)
			tool_die(1, "fold %ld of %ld: %s", f + 1, folds, err.msg);
		free(scores);
		scores = malloc(n * (size_t)m->nr_fn * sizeof *scores);
		if (scores == NULL)
			tool_die(1, "out of memory");
		/* the solver's own outputs when it kept them (same values up
		 * to rounding), else from the model */
		if (m->train_f != NULL)
			memcpy(scores, m->train_f,
			       x->n * (size_t)m->nr_fn * sizeof *scores);
		else if (lsv_model_decision(m, x, scores, &err) != LSV_OK)
			tool_die_err(&err);
		for (i = lo; i < hi; i++)
			correct += lsv_model_label(m, scores + lab[i] * (size_t)m->nr_fn) ==
				   x->y[lab[i]];
		lsv_model_free(m);
	}
	printf("Cross Validation Accuracy = %g%% (%zu/%zu)\n",
	       100.0 * (double)correct / (double)l, correct, l);
	free(scores);
	free(lab);
	free(y);
}

int main(int argc, char **argv)
{
	lsv_train_param p;
	lsv_graph_param gp;
	reg_spec reg = {'a', 'i', 0.005, 0.045};
	lsv_data *x = NULL;
	lsv_graph *g = NULL;
	lsv_model *m = NULL;
	lsv_error err;
	const char *in, *outpath, *graph_file = NULL, *pred_file = NULL;
	char *deflt = NULL, graph_desc[256];
	double marker = LSV_UNLABELED_DEFAULT;
	long folds = 0;
	unsigned long long seed = 1;
	int c, k_given = 0, tsvm_opt = 0, graph_opt = 0;

	tool_init(argv[0]);
	lsv_train_param_default(&p);
	lsv_graph_param_default(&gp);
	opterr = 0;
	while ((c = getopt(argc, argv, ":s:t:d:g:r:A:a:c:I:i:G:k:L:P:u:e:o:v:S:C:p:w:M:N:m:qh")) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "lapsvm") == 0)
				p.solver = LSV_SOLVER_LAPSVM;
			else if (strcmp(optarg, "laprls") == 0)
				p.solver = LSV_SOLVER_LAPRLS;
			else if (strcmp(optarg, "tsvm") == 0)
				p.solver = LSV_SOLVER_TSVM;
			else
				tool_usage_error("option -s: unknown solver '%s' (expected "
						 "lapsvm, laprls or tsvm)", optarg);
			break;
		case 't':
			p.kernel.type = (lsv_kernel_type)tool_opt_long(c, optarg, 0, 2);
			break;
		case 'd':
			p.kernel.degree = (int)tool_opt_long(c, optarg, 1, 100);
			break;
		case 'g':
			p.kernel.gamma = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'r':
			p.kernel.coef0 = tool_opt_double(c, optarg, -1e300, 1e300);
			break;
		case 'A': case 'a': case 'c':
			reg.a_kind = (char)c;
			reg.a_val = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'I': case 'i':
			reg.i_kind = (char)c;
			graph_opt = c;
			reg.i_val = tool_opt_double(c, optarg, 0.0, 1e300);
			break;
		case 'G':
			graph_file = optarg;
			break;
		case 'k':
			gp.k = (int)tool_opt_long(c, optarg, 1, INT_MAX);
			k_given = 1;
			break;
		case 'L':
			graph_opt = c;
			if (strcmp(optarg, "normalized") == 0)
				p.normalized = 1;
			else if (strcmp(optarg, "unnormalized") == 0)
				p.normalized = 0;
			else
				tool_usage_error("option -L: unknown Laplacian '%s' "
						 "(expected normalized or unnormalized)",
						 optarg);
			break;
		case 'P':
			graph_opt = c;
			p.power = (int)tool_opt_long(c, optarg, 1, 100);
			break;
		case 'u':
			marker = tool_opt_double(c, optarg, -1e300, 1e300);
			if (marker == 0.0)
				marker = 0.0;  /* -0 is the label 0, as the reader has it */
			break;
		case 'e':
			p.eps = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			break;
		case 'o':
			pred_file = optarg;
			break;
		case 'v':
			folds = tool_opt_long(c, optarg, 2, LONG_MAX);
			break;
		case 'S':
			seed = (unsigned long long)tool_opt_long(c, optarg, 0, LONG_MAX);
			p.seed = seed;
			break;
		case 'C':
			p.tsvm_cstar = tool_opt_double(c, optarg, 0x1p-1022, 1e300);
			tsvm_opt = c;
			break;
		case 'p':
			p.tsvm_r = tool_opt_double(c, optarg, -1e300, 1e300);
			if (!(p.tsvm_r > 0.0 && p.tsvm_r < 1.0))
				tool_usage_error("option -p: '%s' out of range (expected "
						 "0 < r < 1)", optarg);
			tsvm_opt = c;
			break;
		case 'w':
			p.tsvm_max_switches = tool_opt_long(c, optarg, 1, LONG_MAX);
			tsvm_opt = c;
			break;
		case 'M':
			if (strcmp(optarg, "direct") == 0) {
				p.pcg = 0;
			} else if (strcmp(optarg, "pcg") == 0) {
				p.pcg = 1;
				p.pcg_early = 0;
			} else if (strcmp(optarg, "pcg-early") == 0) {
				p.pcg = 1;
				p.pcg_early = 1;
			} else if (strcmp(optarg, "newton") == 0) {
				p.newton = 1;
			} else {
				tool_usage_error("option -M: unknown method '%s' "
						 "(expected direct, pcg, pcg-early or "
						 "newton)", optarg);
			}
			break;
		case 'N':
			p.landmarks = tool_opt_long(c, optarg, 1, INT_MAX);
			break;
		case 'm':
			p.mem_limit = tool_opt_double(c, optarg, 1.0, 1e12) * 1e6;
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tool_option_error(c);
		}
	}
	if (optind >= argc)
		tool_usage_error("missing training_set_file");
	if (argc - optind > 2)
		tool_usage_error("too many arguments (expected training_set_file "
				 "[model_file])");
	if (graph_file && k_given)
		tool_usage_error("-k sets the graph built here; it does not apply "
				 "with -G");
	if (folds > 0 && pred_file)
		tool_usage_error("-o and -v exclude each other");
	if (p.pcg && p.solver == LSV_SOLVER_TSVM)
		tool_usage_error("-M %s is for LapRLS and LapSVM",
				 p.pcg_early ? "pcg-early" : "pcg");
	if (p.newton && p.solver == LSV_SOLVER_TSVM)
		tool_usage_error("-M newton is for LapRLS and LapSVM");
	if (p.landmarks > 0 && !p.newton)
		tool_usage_error("-N (Nystrom landmarks) needs -M newton");
	if (tsvm_opt && p.solver != LSV_SOLVER_TSVM)
		tool_usage_error("-%c applies to the TSVM (-s tsvm)", tsvm_opt);
	if (p.solver == LSV_SOLVER_TSVM && (graph_file || k_given || graph_opt))
		tool_usage_error("the TSVM uses no graph (-G, -k, -i, -I, -L, -P)");
	in = argv[optind];
	if (graph_file && strcmp(graph_file, "-") == 0 && strcmp(in, "-") == 0)
		tool_usage_error("the data and the graph cannot both be standard input");
	if (optind + 1 < argc) {
		outpath = argv[optind + 1];
	} else if (strcmp(in, "-") == 0) {
		outpath = "-";
	} else {
		deflt = malloc(strlen(in) + sizeof ".model");
		if (deflt == NULL)
			tool_die(1, "out of memory");
		sprintf(deflt, "%s.model", in);
		outpath = deflt;
	}

	if (lsv_data_read_path(in, marker, &x, &err) != LSV_OK)
		tool_die_err(&err);
	if (x->l == 0)
		tool_die(1, "%s: no labeled rows (every label is the unlabeled "
			 "marker %g; see -u)", strcmp(in, "-") ? in : "(stdin)",
			 marker);
	{
		/* Say it now, not after building a graph: one class is no task. */
		size_t i, first = x->n;
		for (i = 0; i < x->n; i++)
			if (lsv_data_is_labeled(x, i)) {
				if (first == x->n)
					first = i;
				else if (x->y[i] != x->y[first])
					break;
			}
		if (i == x->n)
			tool_die(1, "%s: the labeled rows have only one class (%g): "
				 "need at least two", strcmp(in, "-") ? in : "(stdin)",
				 x->y[first]);
	}
	resolve_reg(&reg, x->l, x->n, &p);
	if (p.solver == LSV_SOLVER_TSVM) {
		p.gamma_I = 0.0;
		if (x->l == x->n)
			tool_info("warning: no unlabeled rows: the TSVM is the SVM");
		if (!tool_quiet)
			p.progress = tsvm_progress;
	}
	if (lsv_train_param_check(&p, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);
	if (lsv_graph_param_check(&gp, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);

	graph_desc[0] = '\0';
	if (graph_file != NULL) {
		if (lsv_graph_read_path(graph_file, x->n, &g, &err) != LSV_OK)
			tool_die_err(&err);
		snprintf(graph_desc, sizeof graph_desc, "file %s", graph_file);
	} else if (p.gamma_I > 0.0) {
		lsv_graph_info info;
		if (!tool_quiet)
			gp.progress = tool_progress;
		if (lsv_graph_build(x, &gp, &g, &info, &err) != LSV_OK)
			tool_die_graph_err(in, &err);
		tool_info("no graph given (-G): built a %d-NN graph (euclidean, "
			  "heat weights) over the %zu rows", info.k, x->n);
		snprintf(graph_desc, sizeof graph_desc,
			 "built knn k=%d euclidean heat t=%.17g union", info.k,
			 info.t);
	}

	if (folds > 0) {
		cross_validate(x, g, &p, folds, seed);
		lsv_graph_free(g);
		lsv_data_free(x);
		free(deflt);
		return 0;
	}

	if (lsv_train(x, g, &p, &m, &err) != LSV_OK)
		tool_die_err(&err);
	if (graph_desc[0] != '\0') {
		/* The model keeps it on one "key value" line: no line breaks,
		 * no '#' (a comment there), no trailing blank. */
		char *q;
		size_t len;
		for (q = graph_desc; *q; q++)
			if (*q == '#' || (unsigned char)*q < ' ')
				*q = '_';
		len = strlen(graph_desc);
		while (len > 0 && graph_desc[len - 1] == ' ')
			graph_desc[--len] = '\0';
		m->graph = malloc(strlen(graph_desc) + 1);
		if (m->graph != NULL)
			strcpy(m->graph, graph_desc);
	}
	if (m->switch_capped)
		tool_info("warning: the TSVM stopped at the cap of %ld label switches "
			  "(-w) before the switching condition was met",
			  p.tsvm_max_switches);
	tool_info("%s: l = %zu, u = %zu, %d classes, gamma_A = %g, gamma_I = "
		  "%g, %zu expansion points; %.2f s",
		  p.solver == LSV_SOLVER_TSVM ? "TSVM"
		  : p.solver == LSV_SOLVER_LAPRLS
			  ? (p.gamma_I == 0.0 ? "RLS" : "LapRLS")
			  : (p.gamma_I == 0.0 ? "SVM" : "LapSVM"),
		  m->l, m->u, m->nr_class, p.gamma_A, p.gamma_I, m->sv->n,
		  tool_elapsed());
	if (p.solver == LSV_SOLVER_TSVM)
		tool_info("TSVM: %ld label switches in all", m->switches);
	if (p.pcg)
		tool_info("PCG: %ld iterations", m->iterations);
	if (m->kernel_seconds > 0.0 || m->solve_seconds > 0.0)
		tool_info("time: kernel matrix %.2f s, solver %.2f s",
			  m->kernel_seconds, m->solve_seconds);
	if (p.newton)
		tool_info("Newton: %ld steps in all%s", m->iterations,
			  m->cg_iterations > 0 ? "" : "");
	if (p.newton && m->cg_iterations > 0)
		tool_info("conjugate gradient: %ld iterations in all",
			  m->cg_iterations);

	if (pred_file != NULL) {
		/* Transductive predictions: f on the unlabeled training rows. */
		double *scores = malloc(x->n * (size_t)m->nr_fn * sizeof *scores);
		size_t *rows = malloc((x->n - x->l + 1) * sizeof *rows), i, u = 0;
		lsv_out *out;
		if (scores == NULL || rows == NULL)
			tool_die(1, "out of memory");
		/* the solver's own outputs when it kept them (same values up
		 * to rounding), else from the model */
		if (m->train_f != NULL)
			memcpy(scores, m->train_f,
			       x->n * (size_t)m->nr_fn * sizeof *scores);
		else if (lsv_model_decision(m, x, scores, &err) != LSV_OK)
			tool_die_err(&err);
		for (i = 0; i < x->n; i++)
			if (!lsv_data_is_labeled(x, i))
				rows[u++] = i;
		write_predictions(tool_output_open(pred_file, &out), m, scores, rows,
				  u);
		tool_output_commit(out);
		free(scores);
		free(rows);
	}
	{
		lsv_out *out;
		if (lsv_model_write(tool_output_open(outpath, &out),
				    strcmp(outpath, "-") ? outpath : "(stdout)", m,
				    &err) != LSV_OK)
			tool_output_fail(out, &err);
		tool_output_commit(out);
	}
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
	free(deflt);
	return 0;
}
