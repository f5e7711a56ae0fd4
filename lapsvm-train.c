/*
 * lapsvm-train -- train LapSVM / LapRLS (and SVM / RLS at gamma_I = 0) on a
 * data set of labeled and unlabeled rows and a graph over them.
 *
 *     lapsvm-train [options] training_set_file [model_file]
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

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
"            tsvm: Joachims' transductive SVM (label switching, no graph);\n"
"            cluster: regularized spectral clustering (JMLR 2006 eq. 14),\n"
"            labels unused: minimize gamma_A |f|_K^2 + gamma_I f'Lf with\n"
"            sum f = 0, sum f^2 = 1; only gamma_A/gamma_I matters, so -a is\n"
"            -A and -i is -I there (defaults -A 1e-4 -I 1, -L unnormalized)\n"
"            boost: ManifoldBoost with regression trees, or RBFs with\n"
"            -H rbf (below);\n"
"            combine: the best convex combination of the Laplacian kernels\n"
"            of several graphs (-G repeated, -F), learned from the labeled\n"
"            rows (Argyriou, Herbster & Pontil, NIPS 2005; below)\n"
"            labelaware: label-aware base kernels (Wang, Zhang, Jiang &\n"
"            Marsic, AAAI 2014): u = D^-1 K_nl Y from the labeled rows and\n"
"            the top -n eigenvectors v of K, weighted by alignf on the\n"
"            labeled rows, K~ = sum a_i u_i u_i' + sum b_j v_j v_j'; then the\n"
"            SVM (C = 1/(2 gamma_A l)) on K~; no graph.  New points by the\n"
"            Nystrom extension\n"
"            -J laplacian: the bottom -n eigenvectors of the normalized\n"
"            Laplacian (-V) instead of the kernel's; transductive (-o),\n"
"            no prediction of new points\n"
"            kdesign: the kernel designs of Wang et al.'s Table 1 (-J),\n"
"            each K~ = sum_j mu_j z_j z_j' over -n eigenvectors of the n\n"
"            training rows, then the SVM (C = 1/(2 gamma_A l)) on K~;\n"
"            transductive: -o writes the predictions, the model cannot\n"
"            predict new points\n"
"-n k      : labelaware, kdesign: the number of eigenvectors (default n/10,\n"
"            at least 1; kdesign -J cluster: n, the whole spectrum)\n"
"-J design : kdesign (required): cluster (Chapelle et al.'s cluster kernel,\n"
"            linear transfer on the eigenpairs of D^-1/2 K D^-1/2, unit\n"
"            diagonal: all n by default, which gives K back when K_ii = 1;\n"
"            -n k < n: on the top k, linear-step); diffusion\n"
"            (exp(-lambda/delta) on the -n smallest eigenpairs of the\n"
"            normalized Laplacian, -V); maxalign\n"
"            (alignf weights on the top -n eigenvectors of K); spectral\n"
"            (Zhu et al.'s order-constrained weights on the -n smallest\n"
"            Laplacian eigenvectors, -V).  labelaware: kernel (default)\n"
"            or laplacian, where its eigenvectors come from\n"
"-V W      : the weights W of the normalized Laplacian I - D^-1/2 W D^-1/2\n"
"            of kdesign -J diffusion, -J spectral and labelaware -J\n"
"            laplacian: kernel (default; W = K, the dense kernel matrix at\n"
"            -g, D_ii = sum_j K_ij: Wang et al.'s Table 1 baselines, no\n"
"            graph; K must be >= 0 entrywise) or graph (the graph -G, or\n"
"            the -k NN graph built here)\n"
"-Z delta  : kdesign diffusion: delta > 0 (default: the median of the -n\n"
"            Laplacian eigenvalues); a list with -v\n"
"-K c      : cluster: the number of clusters (default 2; above 2, k-means\n"
"            on the embedding of the c-1 smallest solutions, seeded by -S)\n"
"-E rows   : cluster, c > 2: unit (default): each row of the embedding is\n"
"            scaled to unit length before k-means, and a new point's row\n"
"            before its nearest centroid (Ng, Jordan & Weiss 2002); raw:\n"
"            the rows as they are\n"
"-R n      : cluster, c > 2: k-means restarts, the lowest inertia kept\n"
"            (default 10)\n"
"-t kernel : 0 linear u'v; 1 polynomial (gamma u'v + coef0)^degree;\n"
"            2 rbf exp(-gamma |u-v|^2) (default); sigma maps to\n"
"            gamma = 1/(2 sigma^2); 4 precomputed: the training file holds\n"
"            the kernel, LIBSVM's 'label 0:i 1:K(i,1) ... n:K(i,n)' (needs -G\n"
"            for a graph term)\n"
"-d degree : polynomial degree (default 3)\n"
"-g gamma  : kernel gamma (default: RBF 1/the mean squared distance between\n"
"            rows, polynomial 1/number of features)\n"
"-r coef0  : polynomial coef0 (default 0)\n"
"Regularization, scaled as JMLR eq. 4:\n"
"    1/l sum V(x_i, y_i, f) + gamma_A |f|_K^2 + gamma_I/(l+u)^2 f'Lf\n"
"-A gamma_A  : ambient weight\n"
"-a value    : gamma_A given as the paper quotes it, gamma_A * l\n"
"              (default 0.005)\n"
"-c C        : gamma_A given as an SVM's cost, C = 1/(2 gamma_A l)\n"
"              (default 100, -a's 0.005; svm-train's default is 1)\n"
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
"            except with -s labelaware\n"
"            (-s labelaware: the kernel eigenvectors v from the landmarks)\n"
"-f model  : warm start from a model trained on a prefix of these rows\n"
"            (yesterday's model, today's data appended): the iterative\n"
"            kernel methods (-M pcg, pcg-early; lapsvm -M newton) start from\n"
"            its coefficients, the new rows at 0, and reach the same\n"
"            minimizer (the cold start's, to the solver's tolerance) in\n"
"            fewer iterations.  Newton on a feature map starts from its w\n"
"            and b: -M newton -N m keeps the model's landmarks (-N must be\n"
"            their number), -M newton -t 0 its feature weights.  The model\n"
"            must have the same kernel and\n"
"            gamma (give -g: the default gamma moves with the data), the\n"
"            same method family, Laplacian and classes, and expansion\n"
"            points that are rows of these data in order; anything else is\n"
"            an error.  Refused for the direct solvers, -s tsvm, cluster\n"
"            and the others (nothing iterates from alpha there), and with -v\n"
"-m MB     : memory the dense arrays may take (default: the physical memory\n"
"            or ulimit -v); larger problems are refused with a suggestion\n"
"Graph and Laplacian:\n"
"-G file   : graph over the training rows (from graph-build); without it\n"
"            a k-NN graph is built here (euclidean, heat weights); with -v,\n"
"            -G may be repeated and cross validation chooses the graph\n"
"-k k      : neighbours of that graph (default 6)\n"
"-y        : class-dependent Laplacians (JMLR 2006 Section 6.2): each class\n"
"            is regularized on its own graph, gamma_I L replaced by\n"
"            blockdiag(w_c gamma_I L_c); every row needs a class.  The graph\n"
"            built here is then within each class; a -G graph must have no\n"
"            edge between two classes (graph-build -y).  With -v, each\n"
"            fold's graph comes from its training labels only\n"
"-W c:w    : with -y, the intrinsic weight of class c is w gamma_I (w > 0;\n"
"            default 1); repeat -W for more classes\n"
"-L type   : normalized (default) I - D^-1/2 W D^-1/2, or unnormalized D - W\n"
"-P p      : iterated Laplacian L^p (default 1)\n"
"ManifoldBoost (-s boost, Loeff et al. 2008): an additive model of\n"
"regression trees or RBFs minimizing 1/l sum log(1 + exp(-2 y F)) +\n"
"gamma_M/(l+u)^2 F'L^pF, gamma_M given by -I, or by -i as gamma_M l/(l+u)^2\n"
"(-I 0: plain logistic boosting, no graph); more than two classes: one\n"
"learner per class and round, the multiple logistic -log p_y, p = softmax\n"
"of F (sum_c F_c = 0), and gamma_M/(C (l+u)^2) sum_c F_c'L^pF_c; -A/-a/-c\n"
"play no part:\n"
"-H learner: tree (default): regression trees; rbf: -Q greedy RBFs\n"
"            exp(-g |x - c|^2) centred on training rows (-g as the RBF\n"
"            kernel's, default 1/the mean squared distance)\n"
"-Q R      : RBFs per function and round (1..1000, default 15)\n"
"-B M      : at most M rounds (1..100000, default 100)\n"
"-D depth  : depth of each tree (1..10, default 3; 1: stumps)\n"
"-j nu     : shrinkage of each learner (0 < nu <= 1, default 0.1)\n"
"-z tol    : stop when the cost changes by less than tol relative in a\n"
"            round (default 1e-6; 0: run all M rounds)\n"
"-K c      : cluster the rows into c instead, labels unused (Section 4):\n"
"            c - 1 functions minimizing 1/n sum F'L^pF under mean F = 0,\n"
"            mean F^2 = 1 (and mean F_j F_k = 0) by the augmented\n"
"            Lagrangian, F_0 random (-S); all -B rounds run; for c > 2\n"
"            k-means on the functions' rows as -s cluster (-E, -R)\n"
"-K c:spectral: the same, F_0 fitted to the c - 1 bottom nonconstant\n"
"            eigenvectors of L instead (dense: up to 5 n^2 doubles)\n"
"TSVM (labeled cost C = 1/(2 gamma_A l), as the SVM):\n"
"-C cost   : cost C* of the unlabeled points (default C)\n"
"-w n      : at most n label switches per binary problem (default: no cap)\n"
"Class proportions (every solver):\n"
"-p r      : a fraction r (0 < r < 1) of the unlabeled rows is positive (the\n"
"            first class, the one f > 0 predicts; two classes only): the\n"
"            bias is shifted after training so that it is (the model's\n"
"            balance_shift); for the TSVM, r is its fraction constraint\n"
"            (no shift)\n"
"-p labeled: the same with r the labeled ratio; in one-vs-rest each\n"
"            class's function gets its class's labeled ratio.  Default: no\n"
"            shift (the TSVM: the labeled ratio)\n"
"Other:\n"
"-u marker : label of the unlabeled rows (default 0)\n"
"-e eps    : stopping tolerance: of the dual solver (default 0.001); of\n"
"            conjugate gradient, the relative residual, under -M pcg,\n"
"            pcg-early and -M newton (default 1e-6, then 0 < eps < 1; under\n"
"            -M newton a CG runs on the linear map -t 0 only)\n"
"-o file   : write the predictions of the unlabeled training rows, in the\n"
"            format of lapsvm-predict -d\n"
"-x file   : write the kernel over the training rows in LIBSVM's\n"
"            precomputed format (-t 4: 'label 0:i 1:K(i,1) ... n:K(i,n)'),\n"
"            for svm-train -t 4 or lapsvm-train -t 4\n"
"            (-s labelaware, kdesign: the learned kernel K~ the SVM was\n"
"            trained on)\n"
"-v n      : stratified n-fold cross validation over the labeled rows (the\n"
"            unlabeled rows and the graph stay in every fold), of every\n"
"            combination of the lists given to -a/-A/-c, -i/-I, -g, -P, -L,\n"
"            -Z and of the graphs of repeated -G;\n"
"            the lowest held-out hinge loss of f scaled by its RMS on the\n"
"            fold's training rows, averaged per class then over the\n"
"            classes, wins (ties: larger gamma_A,\n"
"            then smaller gamma_I) and the model is trained with it on all\n"
"            the rows.  -s boost: over -i/-I, -G, -P, -L (and -g with\n"
"            -H rbf) only, each fold's held-out rows cut from the graph\n"
"            (scored as new points); the held-out error (averaged per\n"
"            class, then over the classes) in place of the hinge loss,\n"
"            ties to the lower held-out deviance log(1 + exp(-2 y F)),\n"
"            likewise averaged.\n"
"            A list: 1e-4,1e-2,1 or a range 1e-6:1e2:x10\n"
"            (start:stop:xFACTOR) or 1:4:+1 (start:stop:+STEP)\n"
"-S seed   : seed of every random choice: the folds of -v, the Nystrom\n"
"            landmarks, -M random, the candidates of -s boost -H rbf, the\n"
"            F_0 and k-means of -s boost -K (default 1)\n"
"-q        : quiet mode\n"
"-h        : show this help\n"
"Combining graphs (-s combine): each graph q gives the kernel pinv(L_q) on\n"
"the rows, scaled to Frobenius norm 1 on the labeled rows; the weights\n"
"lambda (>= 0, sum 1) and the square-loss fit (K_ll(lambda) + mu I) c = y\n"
"are learned together by the paper's Figure 1 from the average kernel.\n"
"Transductive: -o writes K(lambda) c on the unlabeled rows.  The model, for\n"
"new points, is LapRLS (or -X lapsvm) with the ambient kernel (-t, -g, -a,\n"
"-i) and L = sum_q lambda_q L_q; it records each graph and its weight.\n"
"-G file   : a graph to combine (repeat it: one kernel per graph)\n"
"-F list   : graph files listed in a file, one per line (relative to the\n"
"            list's directory), as if each were given with -G\n"
"-M rule   : direct (default): each step takes the kernel of largest\n"
"            c'K_q c (deterministic); random: the first kernel that\n"
"            improves, in a random order seeded by -S (the authors' code)\n"
"-U mu     : the fit's regularization (default l * 1e-5, the authors' code;\n"
"            the paper's text says 1e-5)\n"
"-T steps  : at most this many steps (default 100; 0 keeps the start)\n"
"-l file   : start from these weights (one per line, one per graph, in\n"
"            the order given; scaled to sum 1) instead of the average\n"
"-N r      : each kernel from the r smallest nonzero eigenpairs of its\n"
"            Laplacian (default: the exact pseudo-inverse up to 4000 rows,\n"
"            r = 200 past that)\n"
"-X solver : the model for new points: laprls (default) or lapsvm\n"
"-O file   : also fit each graph's kernel alone (the paper's eq. 2.5) and\n"
"            write the label it predicts for each unlabeled row: one line\n"
"            per row, one label per graph in the order given\n"
"-Y a,b    : the two classes (a is the one f > 0 predicts), so that the\n"
"            labeled rows may hold one of them only: the functions of the\n"
"            kernels have zero mean on each component, so even all-equal\n"
"            targets split the rows\n"
"\n"
"Under mpirun -np P (the MPI build, make MPI=1: build/mpi/lapsvm-train):\n"
"-s laprls or lapsvm by Newton on a feature map (-M newton -N m, or -M\n"
"newton -t 0) splits the rows over the P processes: rank 0 reads the\n"
"inputs once and sends them to every rank, each rank builds its block of\n"
"rows of Phi, the (m+1) x (m+1) Newton systems and gradients are summed\n"
"over the ranks (allreduce) and the outputs Phi w gathered; the landmarks\n"
"are those of one process (-S), the model equals the one-process model up\n"
"to rounding, and rank 0 writes it.  So does -s laprls or lapsvm -M pcg\n"
"or pcg-early: each rank computes and keeps its block of rows of the\n"
"n x n kernel (memory n^2/P), the products with it are block products\n"
"gathered once per iteration.  Every other method (direct, Newton by LU,\n"
"the dual, tsvm...), -v, -f and -s combine run on one process only and\n"
"are refused.  A graph built here is built by rank 0 alone:\n"
"build it with graph-build under mpirun and give it with -G.\n"
"\n"
"Exit status: 0 success, 1 failure (bad input, numerical failure), 2 usage.\n");
}

/* Where gamma_A and gamma_I came from, resolved once l and u are known. */
/* Clusters, not classes: -s cluster, or -s boost with -K (the
 * unsupervised ManifoldBoost). */
static int clustering(const lsv_train_param *p)
{
	return p->solver == LSV_SOLVER_CLUSTER ||
	       (p->solver == LSV_SOLVER_BOOST && p->boost_clusters > 0);
}

typedef struct {
	char a_kind, i_kind;  /* 'A' raw, 'a' paper product, 'c' cost; 'I', 'i' */
	double a_val, i_val;
} reg_spec;

static void resolve_reg(const reg_spec *r, size_t l, size_t n,
			lsv_train_param *p)
{
	double dl = (double)l, dn = (double)n;
	if (clustering(p)) {
		/* no loss to scale against: the values as given */
		p->gamma_A = r->a_val;
		p->gamma_I = r->i_val;
		return;
	}
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

	if (clustering(&md->param)) {
		/* the columns are the embedding, not one function per label */
		fputs("clusters", fp);
		for (c = 0; c < md->nr_class; c++)
			fprintf(fp, " %.17g", md->labels[c]);
	} else {
		fputs("labels", fp);
		for (c = 0; c < md->nr_fn; c++)
			fprintf(fp, " %.17g", md->labels[c]);
	}
	fputc('\n', fp);
	for (r = 0; r < m; r++) {
		const double *s = scores + rows[r] * (size_t)md->nr_fn;
		fprintf(fp, "%.17g", lsv_model_label(md, s));
		for (c = 0; c < md->nr_fn; c++)
			fprintf(fp, " %.17g", s[c]);
		fputc('\n', fp);
	}
}

/* every tenth round, and the first */
static void boost_progress(void *ctx, long round, double cost, double loss,
			   double reg)
{
	(void)ctx;
	if (round == 1 || round % 10 == 0)
		tool_info("boosting round %ld: cost %.6g (loss %.6g + graph %.6g)",
			  round, cost, loss, reg);
}

static void tsvm_progress(void *ctx, int fn, double cneg, double cpos,
			  long switches)
{
	(void)ctx;
	tool_info("TSVM function %d: C*- = %.3g, C*+ = %.3g, %ld label switches "
		  "so far", fn + 1, cneg, cpos, switches);
}

/* A parameter the grid can vary (-v): its values in the order given; opt
 * is the option letter that gave them (0: the default, one value). */
typedef struct {
	int opt;
	double *v;
	size_t n;
} plist;

/* The shortest text that reads back as v (%.17g at most): the table and
 * the best setting print values as they were typed. */
static const char *num_text(double v, char *buf, size_t size)
{
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (strchr(buf, 'e') != NULL && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, size, "%.0f", v);  /* 100, not 1e+02 */
	return buf;
}
/* Everything the command line says. */
typedef struct {
	lsv_train_param p;
	lsv_graph_param gp;
	reg_spec reg;
	plist al, il, gl, Pl, Ll;  /* the values of -a/-A/-c, -i/-I, -g, -P, -L */
	plist Gl;             /* -G: graph numbers 0, 1, ... (several with -v) */
	const char **graph_files;  /* the files of -G, in the order given */
	char **graph_shown;   /* -v: the same, safe to print (lsv_text_safe) */
	const char *in, *outpath, *graph_file, *pred_file, *kernel_file;
	char *deflt;          /* the default model path, allocated */
	double marker;
	long folds;
	unsigned long long seed;
	int k_given, e_given, tsvm_opt, graph_opt;
	int a_given, i_given, K_given, ER_given, n_given, Q_given;
	int boost_opt;          /* the last of -B, -D, -j, -z given, or 0 */
	int g_given, d_given, r_given;  /* -g, -d, -r given */
	double *wlabel, *weight;  /* -W class:weight, in the order given */
	int nweight;
	int combine_opt;      /* a combine-only option given (-U -T -l -X -Y -O) */
	int N_given;          /* -N given */
	const char *J_arg;    /* -J: the design (kdesign) or basis (labelaware) */
	const char *V_arg;    /* -V: the Laplacian's weights, kernel or graph */
	plist Zl;             /* -Z: the diffusion kernel's delta (kdesign) */
	const char *weights_file;  /* -l */
	const char *from_file;     /* -f: the model to warm-start from */
	const char *singles_file;  /* -O */
	char **listed;        /* the files of -F lists (owned) */
	size_t nlisted;
	const char *list_files[LSV_LIST_MAX];  /* the -F lists themselves */
	size_t nlists;
	int p_labeled;        /* -p labeled */
	double p_r;           /* -p r (0: not given) */
	int list_dash;        /* -F - given */
} options;

/* One more graph file (-G, or listed by -F). */
static void add_graph(options *o, int opt, const char *file)
{
	o->graph_file = file;
	if (o->Gl.n >= LSV_LIST_MAX)
		tool_usage_error("option -%c: more than %d graphs", opt,
				 LSV_LIST_MAX);
	o->graph_files = realloc(o->graph_files, (o->Gl.n + 1) *
				 sizeof *o->graph_files);
	o->Gl.v = realloc(o->Gl.v, (o->Gl.n + 1) * sizeof *o->Gl.v);
	if (o->graph_files == NULL || o->Gl.v == NULL)
		tool_die(1, "out of memory");
	o->graph_files[o->Gl.n] = file;
	o->Gl.v[o->Gl.n] = (double)o->Gl.n;
	o->Gl.n++;
	o->Gl.opt = 'G';
}

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

static void opt_list(int c, const char *arg, double min, double max,
		     int integer, plist *pl);
static void opt_name_list(int c, const char *arg, const lsv_name *t,
			  const char *what, plist *pl);
static void plist_default(plist *pl, double v);

/* Option opt's value arg (prefixed by what: "weight ") read as v: a
 * positive v below DBL_MIN is strtod's underflow of what was typed, a
 * subnormal number with fewer significant bits, and no value the user
 * meant; a usage error, as tool_opt_double's positive ranges start at
 * DBL_MIN. */
static void refuse_subnormal(int opt, const char *what, const char *arg,
			     double v, const char *expected)
{
	if (v > 0.0 && v < DBL_MIN)
		tool_usage_error("option -%c: %s'%s' underflows to a subnormal "
				 "number (expected %s, at least %g)", opt, what,
				 arg, expected, DBL_MIN);
}

/* -p r or -p labeled; the last one given counts. */
static void opt_fraction(const char *arg, options *o)
{
	lsv_error e;

	o->p_labeled = strcmp(arg, "labeled") == 0;
	if (o->p_labeled) {
		o->p_r = 0.0;
		return;
	}
	if (lsv_parse_double(arg, &o->p_r, &e) != LSV_OK)
		tool_usage_error("option -p: '%s' %s (expected 0 < r < 1, or "
				 "labeled)", arg, tool_why(&e));
	refuse_subnormal('p', "", arg, o->p_r, "0 < r < 1");
	if (!(o->p_r > 0.0 && o->p_r < 1.0))
		tool_usage_error("option -p: '%s' out of range (expected 0 < r < 1, "
				 "or labeled)", arg);
}

/* -W class:weight (repeated): one class's intrinsic weight, w > 0. */
static void opt_weight(const char *arg, options *o)
{
	const char *colon = strchr(arg, ':');
	char *lab;
	double label, w;
	lsv_error e;
	int j;

	if (colon == NULL || colon == arg || colon[1] == '\0' ||
	    strchr(colon + 1, ':') != NULL || strchr(arg, ',') != NULL)
		tool_usage_error("option -W: '%s' is not class:weight (expected "
				 "one class and its weight, e.g. -W 1:2; repeat -W "
				 "for more classes)", arg);
	if ((lab = malloc((size_t)(colon - arg) + 1)) == NULL)
		tool_die(1, "out of memory");
	memcpy(lab, arg, (size_t)(colon - arg));
	lab[colon - arg] = '\0';
	if (lsv_parse_double(lab, &label, NULL) != LSV_OK)
		tool_usage_error("option -W: class '%s' in '%s' is not a number "
				 "(expected a class label)", lab, arg);
	free(lab);
	if (label == 0.0)
		label = 0.0;  /* -0 is the label 0, as the reader has it */
	if (lsv_parse_double(colon + 1, &w, &e) != LSV_OK)
		tool_usage_error("option -W: weight '%s' of class %g %s (expected "
				 "a finite number > 0)", colon + 1, label,
				 tool_why(&e));
	refuse_subnormal('W', "weight ", colon + 1, w, "a finite number > 0");
	if (!(w > 0.0))
		tool_usage_error("option -W: weight '%s' of class %g out of range "
				 "(expected a finite number > 0)", colon + 1, label);
	for (j = 0; j < o->nweight; j++)
		if (o->wlabel[j] == label)
			tool_usage_error("option -W: class %g is given twice (weights "
					 "%g and %g)", label, o->weight[j], w);
	o->wlabel = realloc(o->wlabel, (size_t)(o->nweight + 1) * sizeof *o->wlabel);
	o->weight = realloc(o->weight, (size_t)(o->nweight + 1) * sizeof *o->weight);
	if (o->wlabel == NULL || o->weight == NULL)
		tool_die(1, "out of memory");
	o->wlabel[o->nweight] = label;
	o->weight[o->nweight++] = w;
	o->p.nr_weight = o->nweight;
	o->p.weight_label = o->wlabel;
	o->p.weight = o->weight;
}

/* -Y a,b: the two classes of the combination. */
static void opt_classes(const char *arg, options *o)
{
	const char *comma = strchr(arg, ',');
	char first[64];
	size_t len = comma != NULL ? (size_t)(comma - arg) : 0;

	/* a first class too long for first[] is refused, not cut short */
	if (comma == NULL || strchr(comma + 1, ',') != NULL ||
	    len >= sizeof first)
		tool_usage_error("option -Y: '%s' is not two classes (expected "
				 "a,b, e.g. 1,-1)", arg);
	memcpy(first, arg, len);
	first[len] = '\0';
	o->p.combine_labels[0] = tool_opt_double('Y', first, -1e300, 1e300);
	o->p.combine_labels[1] = tool_opt_double('Y', comma + 1, -1e300, 1e300);
	if (o->p.combine_labels[0] == 0.0)
		o->p.combine_labels[0] = 0.0;  /* -0 is the label 0 */
	if (o->p.combine_labels[1] == 0.0)
		o->p.combine_labels[1] = 0.0;
	if (o->p.combine_labels[0] == o->p.combine_labels[1])
		tool_usage_error("option -Y: '%s' names one class twice (expected "
				 "two different classes)", arg);
	o->p.combine_two = 1;
}

/* -F file: a file listing graphs, each as if given by -G. */
static void opt_graph_list(const char *arg, options *o)
{
	lsv_error err;
	char **files;
	size_t n, j;

	if (lsv_graph_list_read_path(arg, &files, &n, &err) != LSV_OK)
		tool_die_err(&err);
	o->listed = realloc(o->listed, (o->nlisted + n) * sizeof *o->listed);
	if (o->listed == NULL)
		tool_die(1, "out of memory");
	for (j = 0; j < n; j++) {
		o->listed[o->nlisted++] = files[j];
		add_graph(o, 'F', files[j]);
	}
	free(files);
	o->list_dash += strcmp(arg, "-") == 0;
	if (o->nlists < LSV_LIST_MAX)
		o->list_files[o->nlists++] = arg;
}

/* -K c, or c:random / c:spectral (the start of -s boost's clustering). */
static void opt_clusters(const char *arg, options *o)
{
	const char *colon = strchr(arg, ':');
	char num[64];

	if (colon != NULL) {
		/* a count too long for num[] is refused, not cut short */
		if ((size_t)(colon - arg) >= sizeof num)
			tool_usage_error("option -K: '%s' is not c, c:random or "
					 "c:spectral (expected c in 2..%d)", arg,
					 INT_MAX);
		if (strcmp(colon + 1, "spectral") == 0)
			o->p.boost_init = LSV_BOOST_INIT_SPECTRAL;
		else if (strcmp(colon + 1, "random") == 0)
			o->p.boost_init = LSV_BOOST_INIT_RANDOM;
		else
			tool_usage_error("option -K: unknown start '%s' (expected "
					 "c, c:random or c:spectral)", colon + 1);
		snprintf(num, sizeof num, "%.*s", (int)(colon - arg), arg);
	}
	o->p.clusters = (int)tool_opt_long('K', colon != NULL ? num : arg, 2,
					   INT_MAX);
	o->K_given = 1;
}

/* The solvers with no graph term: the TSVM, the learned kernels' SVM. */
static int graphless(lsv_solver s)
{
	return s == LSV_SOLVER_TSVM || s == LSV_SOLVER_LABELAWARE ||
	       s == LSV_SOLVER_KDESIGN;
}

/* The learned kernels built on a normalized Laplacian's spectrum (-V: of
 * W = K, or of the graph). */
static int laplacian_spectrum(const lsv_train_param *p)
{
	return (p->solver == LSV_SOLVER_KDESIGN &&
		(p->kdesign == LSV_KDESIGN_DIFFUSION ||
		 p->kdesign == LSV_KDESIGN_SPECTRAL)) ||
	       (p->solver == LSV_SOLVER_LABELAWARE &&
		p->la_basis == LSV_LA_LAPLACIAN);
}

/* Those of them on the graph's Laplacian (-V graph: no gamma_I term, but
 * a graph: -G or built here with -k). */
static int spectral_graph(const lsv_train_param *p)
{
	return laplacian_spectrum(p) && p->lap_graph == LSV_LAP_GRAPH;
}

/* The solver's name in the "uses no graph" messages. */
static const char *graphless_name(lsv_solver s)
{
	return s == LSV_SOLVER_TSVM ? "TSVM"
	       : s == LSV_SOLVER_KDESIGN ? "kernel design"
	       : "label-aware kernel SVM";
}

/* -p into the parameters: the TSVM's fraction constraint (tsvm_r, 0 for
 * the labeled ratio, its default), else the bias shift after training. */
static void set_fraction(options *o)
{
	if (o->p.solver == LSV_SOLVER_TSVM)
		o->p.tsvm_r = o->p_r;
	else if (o->p_labeled)
		o->p.balance = LSV_BALANCE_LABELED;
	else if (o->p_r > 0.0) {
		o->p.balance = LSV_BALANCE_GIVEN;
		o->p.balance_r = o->p_r;
	}
}

/* The defaults, before any option. */
static void options_default(options *o)
{
	memset(o, 0, sizeof *o);
	lsv_train_param_default(&o->p);
	lsv_graph_param_default(&o->gp);
	o->reg = (reg_spec){'a', 'i', 0.005, 0.045};
	o->marker = LSV_UNLABELED_DEFAULT;
	o->seed = 1;
}

/* The options of one value: a comma in it (or a colon, but in -K's
 * c:start) would make a list, which only -a/-A/-c, -i/-I, -g, -P, -L and
 * -Z take; a usage error. */
static void check_one_value(int c, const char *arg)
{
	if (c != ':' && c != '?' && strchr("stdrkuevSCpwMNmKERUTXJ", c) != NULL &&
	    strpbrk(arg, c == 'K' ? "," : ",:") != NULL)
		tool_usage_error("option -%c takes one value, not a list "
				 "('%s'); lists are for -a, -A, -c, -i, -I, "
				 "-g, -P, -L and -Z", c, arg);
}

/* Each read_*_option below reads option c if it is one of its group's
 * and says whether it was. */

/* -s, -M, -e, -N, -m: the solver and how it solves. */
static int read_solver_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 's':
		o->p.solver = (lsv_solver)opt_name(c, arg, lsv_solver_names,
						   "solver");
		break;
	case 'M':
		o->p.method = (lsv_method)opt_name(c, arg, lsv_method_names,
						   "method");
		break;
	case 'e':
		o->p.eps = tool_opt_double(c, arg, 0x1p-1022, 1e300);
		o->e_given = 1;
		break;
	case 'N':
		o->p.landmarks = tool_opt_long(c, arg, 1, INT_MAX);
		o->N_given = 1;
		break;
	case 'm':
		o->p.mem_limit = tool_opt_double(c, arg, 1.0, 1e12) * 1e6;
		break;
	default:
		return 0;
	}
	return 1;
}

/* -t, -d, -g, -r: the kernel (-g a list for -v). */
static int read_kernel_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 't':
		o->p.kernel.type = (lsv_kernel_type)tool_opt_long(c, arg, 0, 4);
		if (o->p.kernel.type == 3)
			tool_usage_error("option -t: 3 (LIBSVM's sigmoid) is not "
					 "supported (expected 0, 1, 2 or 4)");
		break;
	case 'd':
		o->p.kernel.degree = (int)tool_opt_long(c, arg, 1, 100);
		o->d_given = 1;
		break;
	case 'g':
		opt_list(c, arg, 0x1p-1022, 1e300, 0, &o->gl);
		o->p.kernel.gamma = o->gl.v[0];
		o->g_given = 1;
		break;
	case 'r':
		o->p.kernel.coef0 = tool_opt_double(c, arg, -1e300, 1e300);
		o->r_given = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* -A/-a/-c and -I/-i: gamma_A and gamma_I in one of their scalings,
 * lists for -v; the first value stands until the grid chooses. */
static int read_reg_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'A': case 'a': case 'c':
		o->reg.a_kind = (char)c;
		o->a_given = 1;
		opt_list(c, arg, 0x1p-1022, 1e300, 0, &o->al);
		o->reg.a_val = o->al.v[0];
		break;
	case 'I': case 'i':
		o->reg.i_kind = (char)c;
		o->i_given = 1;
		o->graph_opt = c;
		opt_list(c, arg, 0.0, 1e300, 0, &o->il);
		o->reg.i_val = o->il.v[0];
		break;
	default:
		return 0;
	}
	return 1;
}

/* -G, -F, -k, -L, -P, -y, -W: the graph, given or built here, and its
 * Laplacian. */
static int read_graph_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'G':  /* repeated: a list of graphs for -v, or to combine */
		add_graph(o, 'G', arg);
		break;
	case 'F':
		opt_graph_list(arg, o);
		break;
	case 'k':
		o->gp.k = (int)tool_opt_long(c, arg, 1, INT_MAX);
		o->k_given = 1;
		break;
	case 'L':
		o->graph_opt = c;
		opt_name_list(c, arg, lsv_laplacian_names, "Laplacian", &o->Ll);
		o->p.normalized = (int)o->Ll.v[0];
		break;
	case 'P':
		o->graph_opt = c;
		opt_list(c, arg, 1, 100, 1, &o->Pl);
		o->p.power = (int)o->Pl.v[0];
		break;
	case 'y':
		o->p.class_graph = 1;
		break;
	case 'W':
		opt_weight(arg, o);
		break;
	default:
		return 0;
	}
	return 1;
}

/* -X: the combination's model for new points; only two solvers can be
 * it, so the message names those. */
static lsv_solver opt_extension(const char *arg)
{
	if (strcmp(arg, "laprls") == 0)
		return LSV_SOLVER_LAPRLS;
	if (strcmp(arg, "lapsvm") == 0)
		return LSV_SOLVER_LAPSVM;
	tool_usage_error("option -X: '%s' cannot be the combination's model for "
			 "new points (expected laprls or lapsvm)", arg);
}

/* -U, -T, -l, -O, -Y, -X: the combination's own (-s combine); the last
 * given is remembered for the message when the solver is another. */
static int read_combine_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'U':
		o->p.combine_mu = tool_opt_double(c, arg, 0x1p-1022, 1e300);
		break;
	case 'T':
		o->p.combine_steps = tool_opt_long(c, arg, 0, LONG_MAX);
		break;
	case 'l':
		o->weights_file = arg;
		break;
	case 'O':
		o->singles_file = arg;
		o->p.combine_singles = 1;
		break;
	case 'Y':
		opt_classes(arg, o);
		break;
	case 'X':
		o->p.combine_ext = opt_extension(arg);
		break;
	default:
		return 0;
	}
	o->combine_opt = c;
	return 1;
}

/* -o, -f, -x, -v, -S, -u, -q, -h: the files, the run, the data's
 * unlabeled marker. */
static int read_run_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'o':
		o->pred_file = arg;
		break;
	case 'f':
		o->from_file = arg;
		break;
	case 'x':
		o->kernel_file = arg;
		break;
	case 'v':
		o->folds = tool_opt_long(c, arg, 2, LONG_MAX);
		break;
	case 'S':
		o->seed = (unsigned long long)tool_opt_long(c, arg, 0, LONG_MAX);
		o->p.seed = o->seed;
		break;
	case 'u':
		o->marker = tool_opt_double(c, arg, -1e300, 1e300);
		if (o->marker == 0.0)
			o->marker = 0.0;  /* -0 is the label 0, as the reader has it */
		break;
	case 'q':
		tool_quiet = 1;
		break;
	case 'h':
		tool_help(usage);
	default:
		return 0;
	}
	return 1;
}

/* -C, -p, -w: the TSVM's (-p also the bias shift of the others). */
static int read_tsvm_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'C':
		o->p.tsvm_cstar = tool_opt_double(c, arg, 0x1p-1022, 1e300);
		o->tsvm_opt = c;
		break;
	case 'p':
		opt_fraction(arg, o);
		break;
	case 'w':
		o->p.tsvm_max_switches = tool_opt_long(c, arg, 1, LONG_MAX);
		o->tsvm_opt = c;
		break;
	default:
		return 0;
	}
	return 1;
}

/* -K, -E, -R: the clustering's (-s cluster, or -s boost's). */
static int read_cluster_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'K':
		opt_clusters(arg, o);
		break;
	case 'E':
		o->p.cluster_unit = opt_name(c, arg, lsv_cluster_rows_names,
					     "embedding rows");
		o->ER_given = c;
		break;
	case 'R':
		o->p.cluster_restarts = (int)tool_opt_long(c, arg, 1, INT_MAX);
		o->ER_given = c;
		break;
	default:
		return 0;
	}
	return 1;
}

/* -n, -J, -V, -Z: the learned kernels' (-s labelaware, -s kdesign); -J
 * and -V are read by name once the solver is known (check_designs). */
static int read_design_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'n':
		o->p.la_k = tool_opt_long(c, arg, 1, INT_MAX);
		o->n_given = 1;
		break;
	case 'J':
		o->J_arg = arg;
		break;
	case 'V':
		o->V_arg = arg;
		break;
	case 'Z':
		opt_list(c, arg, 0x1p-1022, 1e300, 0, &o->Zl);
		o->p.kd_delta = o->Zl.v[0];
		break;
	default:
		return 0;
	}
	return 1;
}

/* -j nu: boosting's shrinkage, 0 < nu <= 1. */
static double opt_shrinkage(const char *arg)
{
	lsv_error e;
	double v;

	if (lsv_parse_double(arg, &v, &e) != LSV_OK)
		tool_usage_error("option -j: '%s' %s (expected 0 < nu <= 1)", arg,
				 tool_why(&e));
	refuse_subnormal('j', "", arg, v, "0 < nu <= 1");
	if (!(v > 0.0 && v <= 1.0))
		tool_usage_error("option -j: '%s' is out of range (expected 0 < "
				 "nu <= 1)", arg);
	return v;
}

/* -B, -D, -j, -z, -H, -Q: boosting's (-s boost); the last given is
 * remembered for the message when the solver is another. */
static int read_boost_option(int c, const char *arg, options *o)
{
	switch (c) {
	case 'B':
		o->p.boost_rounds = tool_opt_long(c, arg, 1, LSV_BOOST_MAX_ROUNDS);
		break;
	case 'D':
		o->p.boost_depth = (int)tool_opt_long(c, arg, 1,
						      LSV_BOOST_MAX_DEPTH);
		break;
	case 'j':
		o->p.boost_shrinkage = opt_shrinkage(arg);
		break;
	case 'z':
		o->p.boost_tol = tool_opt_double(c, arg, 0.0, 1.0);
		break;
	case 'H':
		o->p.boost_learner = opt_name(c, arg, lsv_boost_learner_names,
					      "base learner");
		break;
	case 'Q':
		o->p.boost_rbfs = (int)tool_opt_long(c, arg, 1,
						     LSV_BOOST_MAX_RBFS);
		o->Q_given = 1;
		break;
	default:
		return 0;
	}
	o->boost_opt = c;
	return 1;
}

/* LIBSVM's svm-train options that lapsvm-train lacks, or spells with
 * another meaning, met by habit: a usage error that names LIBSVM's meaning
 * and the equivalent here, if any, rather than 'unknown option', 'too many
 * arguments' or (-h 0) the help with exit 0 and no model.  c is getopt's
 * answer, arg its value, argv[next] the word after the option. */
static void refuse_libsvm_habit(int c, const char *arg, char **argv,
				int argc, int next)
{
	static const char *const svm_types[] = {
		"C-SVC", "nu-SVC", "one-class SVM", "epsilon-SVR", "nu-SVR"
	};
	const char *after = next < argc ? argv[next] : "";
	char *end;

	if (c == 's' && arg[0] >= '0' && arg[0] <= '4' && arg[1] == '\0') {
		if (arg[0] == '0')
			tool_usage_error("option -s: 0 is LIBSVM's C-SVC: here "
					 "it is -s lapsvm -i 0 (the SVM, no "
					 "graph; -c C as svm-train's)");
		tool_usage_error("option -s: %s is LIBSVM's %s, which "
				 "lapsvm-train does not have (classifiers: -s "
				 "lapsvm, laprls, tsvm, ...)",
				 arg, svm_types[arg[0] - '0']);
	}
	if (c == 'h' && (strcmp(after, "0") == 0 || strcmp(after, "1") == 0))
		tool_usage_error("-h takes no value: LIBSVM's -h %s (shrinking) "
				 "has no equivalent here; -h alone shows the "
				 "help", after);
	if (c == '?' && optopt == 'b')
		tool_usage_error("unknown option -b: LIBSVM's probability "
				 "estimates have no equivalent in lapsvm-train; "
				 "lapsvm-predict -b writes probabilities of a "
				 "boosted model (-s boost)");
	/* -n 0.5: nu is a fraction; lapsvm-train's -n counts eigenvectors */
	if (c == 'n' && strchr(arg, '.') != NULL)
		tool_usage_error("option -n: %s looks like LIBSVM's nu (nu-SVC), "
				 "which lapsvm-train does not have; its -n k is "
				 "the number of eigenvectors of -s labelaware and "
				 "-s kdesign", arg);
	/* -w1 5: the class label glued to -w, then a number (the weight) */
	if (c == 'w' && arg != argv[next - 1] && after[0] != '\0' &&
	    (strtod(after, &end), *end == '\0'))
		tool_usage_error("-w%s %s is LIBSVM's class weight (-wi weight): "
				 "lapsvm-train has no per-class cost; its -w n is "
				 "the TSVM's cap on label switches", arg, after);
}

/* The options into o, each checked alone; a repeated option takes its
 * last value, as getopt tools do.  -a/-A/-c, -i/-I, -g, -P and -L take
 * lists (for -v); the other options one value. */
static void read_options(int argc, char **argv, options *o)
{
	static int (*const readers[])(int, const char *, options *) = {
		read_solver_option, read_kernel_option, read_reg_option,
		read_graph_option, read_combine_option, read_run_option,
		read_tsvm_option, read_cluster_option, read_design_option,
		read_boost_option,
	};
	size_t j, nreaders = sizeof readers / sizeof *readers;
	int c;

	options_default(o);
	opterr = 0;
	while ((c = getopt(argc, argv, ":s:t:d:g:r:A:a:c:I:i:G:F:k:L:P:u:e:o:x:v:S:C:p:w:M:N:m:K:E:R:yW:U:T:l:X:Y:O:n:B:D:j:z:H:Q:J:Z:V:f:qh")) != -1) {
		refuse_libsvm_habit(c, optarg, argv, argc, optind);
		check_one_value(c, optarg);
		for (j = 0; j < nreaders && !readers[j](c, optarg, o); j++)
			;
		if (j == nreaders)  /* ':' (no value), '?' (unknown) */
			tool_option_error(c);
	}
}

/* -e: one tolerance per run, LIBSVM's -e: whichever iterative solver runs
 * stops by it (the dual's, or CG's relative residual), and the model's
 * eps records it (under CG without -e: CG's default, not the dual's). */
static void set_tolerance(options *o)
{
	if (o->p.method != LSV_METHOD_PCG && o->p.method != LSV_METHOD_PCG_EARLY &&
	    o->p.method != LSV_METHOD_NEWTON)
		return;
	if (!o->e_given) {
		o->p.eps = o->p.pcg_tol;
		return;
	}
	if (!(o->p.eps < 1.0))
		tool_usage_error("option -e: %g out of range for conjugate "
				 "gradient's relative residual (expected 0 < eps "
				 "< 1)", o->p.eps);
	o->p.pcg_tol = o->p.eps;
}

/* -s combine: each graph once.  The same graph twice is one kernel
 * entered twice: the starting average counts it double, and the model
 * lists it twice with its weight split between the copies (-G g2 -G g2
 * -G g4 on two moons: 0.0415 each, where -G g2 -G g4 gives g2 0.083).
 * The same file: the same name, or for files that exist the same device
 * and inode (sub/g and ./sub/g, a link); a file that does not is reported
 * when it is read, '-' twice by set_files. */
static void check_distinct_graphs(const options *o)
{
	size_t i, j;

	for (j = 1; j < o->Gl.n; j++)
		for (i = 0; i < j; i++) {
			const char *a = o->graph_files[i], *b = o->graph_files[j];
			struct stat sa, sb;
			if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
				continue;
			if (strcmp(a, b) == 0)
				tool_usage_error("-s combine: the graph file '%s' is "
						 "given twice (each graph enters the "
						 "combination once)", a);
			if (stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
			    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
				tool_usage_error("-s combine: '%s' and '%s' are the "
						 "same graph file (each graph enters "
						 "the combination once)", a, b);
		}
}

/* The graphs: -G, -F and -k, and the combination's options (-s combine). */
static void check_graphs(options *o)
{
	if (o->from_file != NULL && o->folds > 0)
		tool_usage_error("-f with -v: the folds train on parts of the "
				 "rows, which the starting model was not trained on");
	if (o->graph_file && o->k_given)
		tool_usage_error("-k sets the graph built here; it does not apply "
				 "with -G");
	if (o->p.solver == LSV_SOLVER_COMBINE) {
		if (o->Gl.n == 0)
			tool_usage_error("-s combine needs the graphs to combine: -G "
					 "file (repeated) or -F list");
		if (o->folds > 0)
			tool_usage_error("-v with -s combine: the combination learns "
					 "the graphs' weights from the labeled rows "
					 "without cross validation");
		check_distinct_graphs(o);
		if (o->p_labeled || o->p_r > 0.0)
			tool_usage_error("-p with -s combine: its transductive values "
					 "and its model's differ, so one bias shift "
					 "cannot fit both");
		if (o->N_given) {  /* -N r: eigenpairs, not landmarks */
			o->p.combine_rank = o->p.landmarks;
			o->p.landmarks = 0;
		}
	} else if (o->combine_opt) {
		tool_usage_error("-%c applies to the combination (-s combine)",
				 o->combine_opt);
	} else if (o->nlisted > 0 && o->Gl.n > 1 && o->folds == 0) {
		tool_usage_error("option -F: more than one graph needs -v (cross "
				 "validation) to choose among them, or -s combine "
				 "to combine them");
	}
}

/* A list of values (-a 1,10 ...) is for -v to choose from. */
static void check_lists(options *o)
{
	plist *pl[] = {&o->Gl, &o->al, &o->il, &o->gl, &o->Pl, &o->Ll, &o->Zl};
	size_t j;

	for (j = 0; j < sizeof pl / sizeof *pl; j++)
		if (pl[j]->n > 1 && o->folds == 0 &&
		    !(pl[j] == &o->Gl && o->p.solver == LSV_SOLVER_COMBINE))
			tool_usage_error("option -%c: %s needs -v (cross "
					 "validation) to choose among them%s",
					 pl[j]->opt, pl[j] == &o->Gl
					 ? "more than one graph"
					 : "a list of values", pl[j] == &o->Gl
					 ? ", or -s combine to combine them" : "");
}

/* The learned kernels' options: -n, -J, -V, -Z, and -N with them. */
static void check_designs(options *o)
{
	if (o->n_given && o->p.solver != LSV_SOLVER_LABELAWARE &&
	    o->p.solver != LSV_SOLVER_KDESIGN)
		tool_usage_error("-n is the number of eigenvectors of -s "
				 "labelaware and -s kdesign");
	if (o->p.solver == LSV_SOLVER_KDESIGN) {
		if (o->J_arg == NULL)
			tool_usage_error("-s kdesign needs the design: -J cluster, "
					 "diffusion, maxalign or spectral");
		o->p.kdesign = (lsv_kdesign)opt_name('J', o->J_arg,
						    lsv_kdesign_names, "design");
	} else if (o->p.solver == LSV_SOLVER_LABELAWARE) {
		if (o->J_arg != NULL)
			o->p.la_basis = (lsv_la_basis)opt_name('J', o->J_arg,
				lsv_la_basis_names, "label-aware eigenvectors");
	} else if (o->J_arg != NULL) {
		tool_usage_error("-J is the design of -s kdesign, or the "
				 "eigenvectors of -s labelaware");
	}
	if (o->V_arg != NULL) {
		if (!laplacian_spectrum(&o->p))
			tool_usage_error("-V is the weights of the normalized "
					 "Laplacian of -s kdesign -J diffusion or "
					 "spectral, and of -s labelaware -J "
					 "laplacian");
		o->p.lap_graph = (lsv_lap_graph)opt_name('V', o->V_arg,
			lsv_lap_graph_names, "Laplacian weights");
	}
	if (o->Zl.n > 0 && (o->p.solver != LSV_SOLVER_KDESIGN ||
			    o->p.kdesign != LSV_KDESIGN_DIFFUSION))
		tool_usage_error("-Z is delta of the diffusion kernel (-s kdesign "
				 "-J diffusion)");
	if (o->p.solver == LSV_SOLVER_LABELAWARE &&
	    o->p.la_basis == LSV_LA_LAPLACIAN && o->N_given)
		tool_usage_error("-N (Nystrom landmarks) approximates the kernel's "
				 "eigenvectors: not with -J laplacian");
}

/* Boosting's and clustering's options, and clustering's defaults of
 * gamma_A, gamma_I and the Laplacian. */
static void check_boost_cluster(options *o)
{
	if (o->boost_opt && o->p.solver != LSV_SOLVER_BOOST)
		tool_usage_error("-%c applies to boosting (-s boost)",
				 o->boost_opt);
	if (o->p.solver == LSV_SOLVER_BOOST && o->folds > 0 && o->K_given)
		tool_usage_error("-v scores held-out labels; clustering (-s boost "
				 "-K) uses none");
	if (o->p.solver == LSV_SOLVER_BOOST && o->folds > 0 &&
	    (o->al.n > 1 || (o->gl.n > 1 && o->p.boost_learner != LSV_BOOST_RBF)))
		tool_usage_error("-v with -s boost: only gamma_M (-I/-i), the "
				 "graph (-G), -P and -L (and -H rbf's width -g) are "
				 "searched; -%c plays no part here",
				 o->al.n > 1 ? o->al.opt : 'g');
	if (o->K_given && o->p.solver != LSV_SOLVER_CLUSTER &&
	    o->p.solver != LSV_SOLVER_BOOST)
		tool_usage_error("-K is the number of clusters of -s cluster (or "
				 "-s boost)");
	if (o->Q_given && o->p.boost_learner != LSV_BOOST_RBF)
		tool_usage_error("-Q is the number of RBFs per round of -H rbf");
	if (o->K_given && o->p.solver == LSV_SOLVER_BOOST)
		o->p.boost_clusters = o->p.clusters;
	if (o->p.boost_init != LSV_BOOST_INIT_RANDOM &&
	    o->p.solver != LSV_SOLVER_BOOST)
		tool_usage_error("-K c:spectral is the start of -s boost's "
				 "clustering (-s cluster solves its eigenproblem "
				 "directly)");
	/* -E and -R shape k-means on an embedding, which only a clustering
	 * into more than two has (two clusters are the sign of one function):
	 * -s cluster's, or the boosted one */
	if (o->ER_given &&
	    !(o->p.solver == LSV_SOLVER_CLUSTER && o->p.clusters > 2) &&
	    !(o->p.solver == LSV_SOLVER_BOOST && o->p.boost_clusters > 2))
		tool_usage_error("-%c is for k-means on the embedding of more "
				 "than two clusters (-s cluster or -s boost, -K c "
				 "with c > 2)", o->ER_given);
	if (clustering(&o->p)) {
		if (o->folds > 0)
			tool_usage_error("-v scores held-out labels; -s cluster uses "
					 "none (compare settings by their agreement "
					 "with labels instead)");
		if (o->reg.a_kind == 'c')
			tool_usage_error("-c is an SVM's cost; clustering takes "
					 "gamma_A (-A or -a)");
		if (o->p.class_graph || o->nweight > 0)
			tool_usage_error("-y and -W regularize each class on its "
					 "own graph; clustering has no classes");
		if (!o->a_given) {
			o->reg.a_kind = 'A';
			o->reg.a_val = 1e-4;
		}
		if (!o->i_given) {
			o->reg.i_kind = 'I';
			o->reg.i_val = 1.0;
		}
		if (o->Ll.n == 0)  /* eq. 13's sum W_ij (f_i - f_j)^2 */
			o->p.normalized = 0;
	}
}

/* Each list the single value (or default) where no list was given. */
static void fill_lists(options *o)
{
	plist_default(&o->Gl, 0.0);
	plist_default(&o->al, o->reg.a_val);
	o->al.opt = o->reg.a_kind;
	plist_default(&o->il, o->reg.i_val);
	o->il.opt = o->reg.i_kind;
	plist_default(&o->gl, o->p.kernel.gamma);
	o->gl.opt = 'g';
	plist_default(&o->Pl, o->p.power);
	o->Pl.opt = 'P';
	plist_default(&o->Ll, o->p.normalized);
	o->Ll.opt = 'L';
	plist_default(&o->Zl, o->p.kd_delta);
	o->Zl.opt = 'Z';
}

/* Which solvers take a graph, and from where: -t 4 cannot build one.
 * Boosting takes no kernel at all (check_params_early refuses -t 4 with
 * it), so it is not sent for a -G that would not make -t 4 acceptable. */
static void check_graph_use(options *o)
{
	int precomputed = o->p.kernel.type == LSV_KERNEL_PRECOMPUTED &&
			  o->p.solver != LSV_SOLVER_BOOST;

	if (precomputed && o->graph_files == NULL && spectral_graph(&o->p))
		tool_usage_error("-t 4 (precomputed kernel) needs the graph given "
				 "with -G for a Laplacian's eigenvectors: it cannot "
				 "be built from kernel values");
	if (precomputed && o->graph_files == NULL && !graphless(o->p.solver)) {
		size_t j;
		int needs = o->p.class_graph || clustering(&o->p);
		for (j = 0; j < o->il.n; j++)
			needs |= o->il.v[j] > 0.0;
		if (needs)
			tool_usage_error("-t 4 (precomputed kernel) needs the graph "
					 "given with -G: it cannot be built from "
					 "kernel values (graph-build on the "
					 "features, or -i 0 for no graph term)");
	}
	set_fraction(o);
	if (o->tsvm_opt && o->p.solver != LSV_SOLVER_TSVM)
		tool_usage_error("-%c applies to the TSVM (-s tsvm)", o->tsvm_opt);
	if (spectral_graph(&o->p) && o->graph_opt)
		tool_usage_error("-%c: the %s takes its graph's normalized "
				 "Laplacian, with no gamma_I term (-G and -k give "
				 "the graph; not -i, -I, -L, -P)", o->graph_opt,
				 graphless_name(o->p.solver));
	if (spectral_graph(&o->p) && o->Gl.n > 1)
		tool_usage_error("-G: one graph for the %s's Laplacian",
				 graphless_name(o->p.solver));
	if (graphless(o->p.solver) && !spectral_graph(&o->p) &&
	    (o->graph_file || o->k_given || o->graph_opt))
		tool_usage_error("the %s uses no graph (-G, -k, -i, -I, -L, -P)%s",
				 graphless_name(o->p.solver),
				 o->p.solver == LSV_SOLVER_KDESIGN
				 ? "; -J diffusion and -J spectral do with -V "
				   "graph"
				 : o->p.solver == LSV_SOLVER_LABELAWARE
				 ? "; -J laplacian does with -V graph" : "");
	if (graphless(o->p.solver) && o->p.class_graph)
		tool_usage_error("-y regularizes each class on its own graph; the "
				 "%s uses no graph term", graphless_name(o->p.solver));
	if (o->nweight > 0 && !o->p.class_graph)
		tool_usage_error("-W weighs the Laplacian of a class: it needs -y "
				 "(class-dependent Laplacians)");
}

/* The operands: the data (o->in) and the model's path (o->outpath, by
 * default data_file.model), and which streams each output may take. */
static void set_files(options *o, int argc, char **argv)
{
	o->in = argv[optind];
	{
		size_t j, dash = (strcmp(o->in, "-") == 0) + (size_t)o->list_dash +
			(o->weights_file != NULL &&
			 strcmp(o->weights_file, "-") == 0) +
			(o->from_file != NULL && strcmp(o->from_file, "-") == 0);
		for (j = 0; o->graph_files != NULL && j < o->Gl.n; j++)
			dash += strcmp(o->graph_files[j], "-") == 0;
		if (dash > 1)
			tool_usage_error("only one of the data, the graphs, a graph "
					 "list, the weights and the starting model "
					 "(-f) can be standard input");
	}
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
	if (o->pred_file != NULL && strcmp(o->pred_file, "-") == 0 &&
	    strcmp(o->outpath, "-") == 0)
		tool_usage_error("-o - and the model on standard output would mix "
				 "the two: give one of them a file");
	if (o->kernel_file != NULL && strcmp(o->kernel_file, "-") == 0 &&
	    (strcmp(o->outpath, "-") == 0 ||
	     (o->pred_file != NULL && strcmp(o->pred_file, "-") == 0)))
		tool_usage_error("-x - and another output on standard output would "
				 "mix: give them files");
	if (o->singles_file != NULL && strcmp(o->singles_file, "-") == 0 &&
	    (strcmp(o->outpath, "-") == 0 ||
	     (o->pred_file != NULL && strcmp(o->pred_file, "-") == 0)))
		tool_usage_error("-O - and another output on standard output would "
				 "mix: give them files");
	if (o->folds > 0 && strcmp(o->outpath, "-") == 0)
		tool_usage_error("-v prints its results on standard output: give a "
				 "model_file other than '-'");
}

/* argv into o, every option checked alone and against the others. */
/* The library's parameter checks, before any input is read, so that a
 * combination it refuses is the usage error it is, not preceded by an
 * error of the data read for it (-s boost -t 4 reading the data as a
 * kernel).  gamma_A and gamma_I are not resolved yet (they need l and n):
 * their defaults pass, and settle_params checks everything again. */
static void check_params_early(const options *o)
{
	lsv_error err;
	if (lsv_train_param_check(&o->p, &err) != LSV_OK ||
	    lsv_graph_param_check(&o->gp, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);
}

/* -g, -d and -r that the kernel never reads: the polynomial kernel
 * (gamma u'v + coef0)^degree reads all three, the RBF exp(-gamma |u-v|^2)
 * gamma alone, the linear u'v and a precomputed kernel none.  A warning,
 * not a usage error: LIBSVM's scripts pass them whatever -t; but a user
 * who typed one must not believe it took effect. */
static void warn_unused_kernel_options(const options *o)
{
	static const char *const kernel[] = {
		"linear kernel", "polynomial kernel", "RBF kernel", "",
		"precomputed kernel"};
	lsv_kernel_type t = o->p.kernel.type;
	const char *unused[3];
	char list[32] = "";
	size_t n = 0, j;

	if (o->g_given && (t == LSV_KERNEL_LINEAR ||
			   t == LSV_KERNEL_PRECOMPUTED))
		unused[n++] = "-g";
	if (o->d_given && t != LSV_KERNEL_POLY)
		unused[n++] = "-d";
	if (o->r_given && t != LSV_KERNEL_POLY)
		unused[n++] = "-r";
	if (n == 0)
		return;
	for (j = 0; j < n; j++)  /* "-g", "-d and -r", "-g, -d and -r" */
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			 j == 0 ? "" : j + 1 < n ? ", " : " and ", unused[j]);
	tool_info("warning: %s %s no effect with -t %d (%s)", list,
		  n == 1 ? "has" : "have", (int)t, kernel[t]);
}

static void parse_options(int argc, char **argv, options *o)
{
	read_options(argc, argv, o);
	if (optind >= argc)
		tool_usage_error("missing training_set_file");
	if (argc - optind > 2)
		tool_usage_error("too many arguments (expected training_set_file "
				 "[model_file])");
	set_tolerance(o);
	check_graphs(o);
	check_lists(o);
	check_designs(o);
	check_boost_cluster(o);
	fill_lists(o);
	check_graph_use(o);
	check_params_early(o);
	set_files(o, argc, argv);
	warn_unused_kernel_options(o);
}

/* -x: the kernel of the model's (resolved) parameters over the n
 * training rows, in LIBSVM's precomputed format; from a precomputed
 * kernel (-t 4), each row with its serial number in the input. */
static void write_kernel(FILE *fp, const options *o, const lsv_data *x,
			 const lsv_model *m, const lsv_train_report *rep)
{
	double *K;
	size_t *serial = NULL, i;
	lsv_error err;

	if (m->param.kernel.type == LSV_KERNEL_PRECOMPUTED) {
		/* the reader put each row's serial number first */
		if ((serial = malloc(x->n * sizeof *serial)) == NULL)
			tool_die(1, "out of memory");
		for (i = 0; i < x->n; i++)
			serial[i] = (size_t)x->val[x->rowptr[i]];
	}

	if (m->param.solver == LSV_SOLVER_LABELAWARE ||
	    m->param.solver == LSV_SOLVER_KDESIGN) {
		/* the learned kernel K~, which the model's SVM was trained on */
		if ((K = malloc(x->n * x->n * sizeof *K)) == NULL)
			tool_die(1, "out of memory for the learned kernel");
		if (lsv_learned_kernel(rep, x->n, K, &err) != LSV_OK)
			tool_die_err(&err);
	} else if (lsv_train_kernel(x, &m->param, &K, &err) != LSV_OK)
		tool_die_err(&err);
	if (lsv_precomputed_write(fp, o->kernel_file, K, x->n, x->y, serial,
				  &err) != LSV_OK)
		tool_die_err(&err);
	free(K);
	free(serial);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The labeled rows' classes, as describe_rows reads them: their number,
 * the smallest and largest label, whether every integer from lo to hi but
 * the marker is one of them (run: the marker looks like a class left
 * out), and the largest class, its label and row count. */
typedef struct {
	double lo, hi, big;
	size_t big_rows;
	int run;
} label_summary;

static size_t label_classes(const lsv_data *x, label_summary *c)
{
	size_t i, k = 0, nclass = 0, same = 0;
	double *lab, m = x->unlabeled;

	memset(c, 0, sizeof *c);
	if (x->l == 0)
		return 0;
	if ((lab = malloc(x->l * sizeof *lab)) == NULL)
		tool_die(1, "out of memory");
	for (i = 0; i < x->n; i++)  /* the class labels, sorted */
		if (lsv_data_is_labeled(x, i))
			lab[k++] = x->y[i];
	qsort(lab, k, sizeof *lab, cmp_double);
	for (i = 0; i < k; i++) {  /* the runs of equal labels */
		same = i > 0 && lab[i] == lab[i - 1] ? same + 1 : 1;
		if (same > c->big_rows) {
			c->big_rows = same;
			c->big = lab[i];
		}
	}
	for (i = 0; i < k; i++)
		if (i == 0 || lab[i] != lab[nclass - 1])
			lab[nclass++] = lab[i];
	c->lo = lab[0];
	c->hi = lab[nclass - 1];
	/* every integer from lo to hi but m is a class */
	c->run = nclass >= 3 && m > c->lo && m < c->hi && m == floor(m) &&
		 c->hi - c->lo == (double)nclass;
	for (i = 0; c->run && i < nclass; i++)
		c->run = lab[i] == floor(lab[i]);
	free(lab);
	return nclass;
}

/* Says what the rows are, and warns when the unlabeled marker looks like
 * a forgotten class: fewer marked rows than labeled ones (a fully labeled
 * set whose class 0 became "unlabeled"), or the marker inside a run of
 * integer class labels (classes 1..9 but 4 marked); for clustering too,
 * whose agreement would leave that class out.  And the converse, a marker
 * no row carries while one class holds over 10 times the rows of all the
 * others: most likely the unlabeled rows under another marker than -u's
 * (a fully labeled set, which -u -1 trains on purpose, seldom has one
 * class that large).  Said once training has succeeded, so that a failed
 * run prints its one error line only. */
static void describe_rows(const options *o, const lsv_data *x)
{
	const char *name = strcmp(o->in, "-") ? o->in : "(stdin)";
	size_t u = x->n - x->l, nclass;
	double m = x->unlabeled;
	label_summary c;

	nclass = label_classes(x, &c);
	if (clustering(&o->p))
		/* the labels only measure agreement, but a class taken for the
		 * marker is left out of it: the warnings below apply */
		tool_info("%s: %zu rows clustered into %d; the labels of its %zu "
			  "labeled rows are not used, only compared", name, x->n,
			  o->p.clusters, x->l);
	else
		tool_info("%s: %zu rows: l = %zu labeled in %zu classes, u = %zu "
			  "unlabeled (marker %g)", name, x->n, x->l, nclass, u, m);
	if (u > 0 && u < x->l)
		tool_info("warning: only %zu rows carry the unlabeled marker %g, "
			  "fewer than the %zu labeled rows: if %g is a class, give "
			  "the unlabeled rows another marker with -u", u, m, x->l, m);
	else if (u > 0 && c.run)
		tool_info("warning: the unlabeled marker %g lies among the class "
			  "labels %g..%g: if it is a class, give the unlabeled rows "
			  "another marker with -u", m, c.lo, c.hi);
	else if (u == 0 && nclass >= 2 && !clustering(&o->p) &&
		 (double)c.big_rows > 10.0 * (double)(x->l - c.big_rows))
		tool_info("warning: no row carries the unlabeled marker %g, and "
			  "class %g holds %zu of the %zu rows: if those are the "
			  "unlabeled rows, give their label with -u", m, c.big,
			  c.big_rows, x->n);
}

static void check_labels(const options *o, const lsv_data *x);

/* The training set, refused at once if it holds no task: no labeled row,
 * or one class only (said now, not after building a graph). */
static lsv_data *read_data(const options *o)
{
	lsv_data *x;
	lsv_error err;

	if ((o->p.kernel.type == LSV_KERNEL_PRECOMPUTED
	     ? lsv_precomputed_read_path(o->in, o->marker, 0, &x, &err)
	     : lsv_data_read_path(o->in, o->marker, &x, &err)) != LSV_OK)
		tool_die_err(&err);
	check_labels(o, x);
	return x;
}

/*
 * Under mpirun, a data file (regular, not a precomputed kernel) is read by
 * every rank at once, each its part of the lines, and the parts put
 * together on every rank (lsv_data_read_dist, lsv_data_allgather): the
 * parsing is shared and rank 0 sends only its part.  A file whose labels
 * are its row numbers (a graph given as data) is read by rank 0 alone
 * instead, so that it is refused as one process refuses it.  NULL then:
 * the caller reads it as from standard input.  Every rank checks the
 * labels on the same rows (only rank 0 prints: tool_silent).
 */
static lsv_data *read_data_parts(const options *o)
{
	lsv_data *x;
	lsv_error err;
	size_t row0, n;
	int graph_like;

	if (lsv_data_read_dist(tool_comm, o->in, o->marker, &x, &row0, &n,
			       &graph_like, &err) != LSV_OK)
		tool_die_err(&err);
	if (graph_like) {
		lsv_data_free(x);
		return NULL;
	}
	if (lsv_data_allgather(tool_comm, &x, &err) != LSV_OK)
		tool_die_err(&err);
	check_labels(o, x);
	return x;
}

/* What the methods need of the labels (a usage of the data, exit 1). */
static void check_labels(const options *o, const lsv_data *x)
{
	const char *name = strcmp(o->in, "-") ? o->in : "(stdin)";
	size_t i, first;

	if (clustering(&o->p))
		return;  /* labels only measure agreement */
	if (x->l == 0)
		tool_die(1, "%s: no labeled rows (every label is the unlabeled "
			 "marker %g; see -u)", name, o->marker);
	for (i = 0; o->p.combine_two && i < x->n; i++)
		if (lsv_data_is_labeled(x, i) && x->y[i] != o->p.combine_labels[0] &&
		    x->y[i] != o->p.combine_labels[1])
			tool_die_row(o->in, i + 1, "label %g is not one of the two "
				     "classes declared by -Y (%g and %g)", x->y[i],
				     o->p.combine_labels[0], o->p.combine_labels[1]);
	for (i = 0, first = x->n; i < x->n; i++)
		if (lsv_data_is_labeled(x, i)) {
			if (first == x->n)
				first = i;
			else if (x->y[i] != x->y[first])
				break;
		}
	/* the usual cause: the other class is labeled 0, the default marker
	 * (SecStr's classes are 0 and 1) */
	if (i == x->n && !o->p.combine_two && x->l < x->n)
		tool_die(1, "%s: the labeled rows have only one class (%g): need "
			 "at least two; %zu rows carry the unlabeled marker %g "
			 "(if %g is a class, -u sets another marker; with -s "
			 "combine, -Y declares both classes)", name,
			 x->y[first], x->n - x->l, o->marker, o->marker);
	if (i == x->n && !o->p.combine_two)
		tool_die(1, "%s: the labeled rows have only one class (%g): need "
			 "at least two (or, with -s combine, declare both with "
			 "-Y)", name, x->y[first]);
}

/* -y: every row has a class (an unlabeled row would have no graph of its
 * own), and every class of -W is one of the data's (a usage error). */
static void check_classes(const options *o, const lsv_data *x)
{
	const char *name = strcmp(o->in, "-") ? o->in : "(stdin)";
	size_t i;
	int j;

	if (!o->p.class_graph)
		return;
	for (i = 0; i < x->n; i++)
		if (!lsv_data_is_labeled(x, i))
			tool_die_row(o->in, i + 1, "the row is unlabeled (label %g, "
				     "the unlabeled marker): -y regularizes each class "
				     "on its own graph, so every row needs a class (if %g "
				     "is a class, name another marker with -u)",
				     x->unlabeled, x->unlabeled);
	for (j = 0; j < o->nweight; j++) {
		char list[256];
		size_t len = 0, k;
		double *seen = malloc(x->n * sizeof *seen);
		size_t ns = 0;

		if (seen == NULL)
			tool_die(1, "out of memory");
		for (i = 0; i < x->n && x->y[i] != o->wlabel[j]; i++)
			;
		if (i < x->n) {
			free(seen);
			continue;
		}
		/* the classes, in order of first appearance, for the message */
		list[0] = '\0';
		for (i = 0; i < x->n; i++) {
			for (k = 0; k < ns && seen[k] != x->y[i]; k++)
				;
			if (k < ns)
				continue;
			seen[ns++] = x->y[i];
			if (len < sizeof list - 32)
				len += (size_t)snprintf(list + len, sizeof list - len,
							"%s%g", ns > 1 ? ", " : "",
							x->y[i]);
			else if (len < sizeof list - 4) {
				strcpy(list + len, ", ...");
				len = sizeof list;
			}
		}
		free(seen);
		tool_usage_error("option -W: no row of %s has class %g (the classes "
				 "are %s)", name, o->wlabel[j], list);
	}
}

/* -p r names one class positive, so it needs two classes: with more,
 * every one-vs-rest function would get the same r (the TSVM's too). */
static void check_fraction(const options *o, const lsv_data *x)
{
	if (o->p_r > 0.0 && lsv_data_classes(x, 3) > 2)
		tool_usage_error("option -p: a fraction r is for two classes, and "
				 "the labeled rows have more; -p labeled gives each "
				 "class's function its labeled ratio");
}

/* Graph j of -G, or one built here when gamma_I > 0 (NULL otherwise);
 * desc gets the line the model keeps about it ("" for none). */
static lsv_graph *read_graph(options *o, size_t j, const lsv_data *x,
			     char *desc, size_t size)
{
	lsv_graph *g = NULL;
	lsv_graph_info info;
	lsv_error err;

	desc[0] = '\0';
	if (o->graph_files != NULL) {
		static const char head[] = "file ";
		const char *file = o->graph_files[j];
		if (lsv_graph_read_path(file, x->n, &g, &err) != LSV_OK)
			tool_die_err(&err);
		/* refused, not warned about: with an edge between two classes,
		 * D_w L^p D_w would not be blockdiag(w_c L_c^p) */
		if (o->p.class_graph && lsv_graph_check_classes(g, x, &err) !=
		    LSV_OK)
			tool_die(1, "%s: %s: -y needs a graph with no edge between "
				 "two classes (graph-build -y builds one)", file,
				 err.msg);
		/* escaped as in messages: a name can hold any byte, the
		 * model's header line must stay one line of text */
		memcpy(desc, head, sizeof head);
		lsv_text_safe(desc + sizeof head - 1, size - (sizeof head - 1),
			      file);
	} else if (o->p.gamma_I > 0.0 || spectral_graph(&o->p)) {
		if (!tool_quiet)
			o->gp.progress = tool_progress;
		if ((o->p.class_graph ? lsv_graph_build_classes(x, &o->gp, &g, &info,
							       &err)
				      : lsv_graph_build(x, &o->gp, &g, &info,
							&err)) != LSV_OK)
			tool_die_graph_err(o->in, &err);
		o->gp.progress = NULL;
		/* within each class, a class of m rows offers m - 1
		 * neighbours: k is capped class by class, and info.k is the
		 * smallest class's; the k asked for is what rebuilds it */
		if (o->p.class_graph && info.k < o->gp.k)
			tool_info("no graph given (-G): built a %d-NN graph within "
				  "each class (euclidean, heat weights) over the %zu "
				  "rows; a class of m rows offers m - 1 neighbours, "
				  "so the smallest class's rows use k = %d",
				  o->gp.k, x->n, info.k);
		else if (o->p.class_graph)
			tool_info("no graph given (-G): built a %d-NN graph within "
				  "each class (euclidean, heat weights) over the %zu "
				  "rows", info.k, x->n);
		else
			tool_info("no graph given (-G): built a %d-NN graph (euclidean, "
				  "heat weights) over the %zu rows", info.k, x->n);
		snprintf(desc, size, "built knn k=%d euclidean heat t=%.17g union%s",
			 o->p.class_graph ? o->gp.k : info.k, info.t,
			 o->p.class_graph ? " within-class" : "");
	}
	return g;
}

/* The model keeps the graph's description on one "key value" line: no
 * line breaks or other controls (read_graph escaped them), no '#' (a
 * comment there), no trailing blank. */
static void set_graph_desc(lsv_model *m, char *desc)
{
	char *q;
	size_t len;

	if (desc[0] == '\0')
		return;
	for (q = desc; *q; q++)
		if (*q == '#')
			*q = '_';
	len = strlen(desc);
	while (len > 0 && desc[len - 1] == ' ')
		desc[--len] = '\0';
	m->graph = malloc(len + 1);
	if (m->graph == NULL)
		tool_die(1, "out of memory for the model's graph description");
	memcpy(m->graph, desc, len + 1);
}

/* The graph's description as the model keeps it: one line, no '#' or
 * control character, no blank at either end (NULL for an empty one). */
static char *clean_desc(const char *desc)
{
	size_t len = strlen(desc);
	char *d, *q;

	while (len > 0 && desc[len - 1] == ' ')
		len--;
	while (len > 0 && *desc == ' ') {
		desc++;
		len--;
	}
	if (len == 0)
		return NULL;
	if ((d = malloc(len + 1)) == NULL)
		tool_die(1, "out of memory for the model's graph description");
	memcpy(d, desc, len);
	d[len] = '\0';
	for (q = d; *q; q++)
		if (*q == '#' || (unsigned char)*q < ' ')
			*q = '_';
	return d;
}

/* -s combine: the graphs' weights learned from the labeled rows, and the
 * extension to new points; the model records each graph and its weight. */
static void train_combination(const options *o, const lsv_data *x,
			      lsv_graph **gs, char **descs,
			      const lsv_train_progress *progress, lsv_model **m,
			      lsv_train_report *rep)
{
	double *start = NULL;
	lsv_error err;
	size_t q, n = o->Gl.n;

	if (o->weights_file != NULL &&
	    lsv_weights_read_path(o->weights_file, n, &start, &err) != LSV_OK)
		tool_die_err(&err);
	if (lsv_train_graphs(x, (const lsv_graph *const *)gs, n, start, &o->p,
			     progress, m, rep, &err) != LSV_OK)
		tool_die_err(&err);
	free(start);
	if (((*m)->graph_desc = calloc(n, sizeof *(*m)->graph_desc)) == NULL)
		tool_die(1, "out of memory");
	for (q = 0; q < n; q++)
		(*m)->graph_desc[q] = clean_desc(descs[q]);
}

/* What the combination did, on stderr (not with -q). */
static void report_combination(const options *o, const lsv_model *m,
			       const lsv_train_report *r)
{
	size_t q, used = 0;

	if (m->ngraphs == 1)
		tool_info("warning: one graph: its weight is 1, and the "
			  "combination is the paper's single-kernel fit (eq. 2.5)");
	if (r->combine_zero > 0)
		tool_info("warning: %zu of the %zu graphs have a kernel of 0 on the "
			  "labeled rows (every labeled row isolated in them): they "
			  "can get no weight", r->combine_zero, m->ngraphs);
	for (q = 0; q < m->ngraphs; q++)
		used += m->graph_weight[q] > 0.0;
	tool_info("combination of %zu graphs (%s): %ld steps (%s), mu = %g, "
		  "objective %.6g -> %.6g; %zu graphs with weight > 0",
		  m->ngraphs, r->combine_rank > 0 ? "eigenpairs" : "exact kernels",
		  r->combine_steps,
		  r->combine_capped ? "stopped at the cap -T" : "no kernel improves",
		  r->combine_mu, r->combine_obj0, r->combine_obj, used);
	if (r->combine_rank > 0)
		tool_info("each kernel from the %ld smallest nonzero eigenpairs of "
			  "its Laplacian", r->combine_rank);
	for (q = 0; q < m->ngraphs; q++)
		if (m->graph_weight[q] > 0.0)
			tool_info("  weight %.6f  %s", m->graph_weight[q],
				  o->graph_files[q]);
}

/* The method's name in the summary line. */
static const char *method_title(const lsv_train_param *p)
{
	switch (p->solver) {
	case LSV_SOLVER_COMBINE:
		return p->combine_ext == LSV_SOLVER_LAPSVM
			? "combination, model for new points LapSVM"
			: "combination, model for new points LapRLS";
	case LSV_SOLVER_TSVM:
		return "TSVM";
	case LSV_SOLVER_LABELAWARE:
		return "label-aware kernel SVM";
	case LSV_SOLVER_KDESIGN:
		return "kernel design SVM";
	case LSV_SOLVER_BOOST:
		return p->boost_clusters > 0 ? "ManifoldBoost clustering"
		       : p->gamma_I == 0.0 ? "logistic boosting" : "ManifoldBoost";
	case LSV_SOLVER_CLUSTER:
		return "clustering";
	case LSV_SOLVER_LAPRLS:
		return p->gamma_I == 0.0 ? "RLS" : "LapRLS";
	default:
		return p->gamma_I == 0.0 ? "SVM" : "LapSVM";
	}
}

/* The kernel matrix numerically the identity (or diagonal): for the RBF
 * kernel a gamma too large, for another the rows orthogonal in its
 * feature space.  The advice on -g is for the RBF kernel: for another, -g
 * is no width; the gamma shown is the one the kernel used (p's is 0 when
 * -g was not given). */
static void warn_kernel_identity(const lsv_train_param *p, const lsv_model *m,
				 const lsv_train_report *r)
{
	if (r->kernel_identity && p->kernel.type == LSV_KERNEL_RBF)
		tool_info("warning: the kernel matrix is numerically the identity "
			  "(every off-diagonal value below 1e-6 of the diagonal): "
			  "gamma = %g is too large for these distances; try a smaller "
			  "-g", m->param.kernel.gamma);
	else if (r->kernel_identity)
		tool_info("warning: the kernel matrix is numerically diagonal "
			  "(every |K_ij| below 1e-6 of sqrt(K_ii K_jj)): the rows "
			  "are orthogonal in the kernel's feature space");
}

/* The kernel matrix all ones, or of rank one: for the RBF kernel the rows
 * one point or a gamma too small, for another the rows parallel in its
 * feature space. */
static void warn_kernel_constant(const lsv_train_param *p, const lsv_model *m,
				 const lsv_train_report *r)
{
	if (r->kernel_constant && p->kernel.type == LSV_KERNEL_RBF &&
	    p->kernel.gamma == 0.0 && r->gamma_data == 0.0)
		tool_info("warning: the kernel matrix is all ones: the rows are "
			  "all one point (their mean squared distance is 0), which "
			  "no gamma separates");
	else if (r->kernel_constant && p->kernel.type == LSV_KERNEL_RBF)
		tool_info("warning: the kernel matrix is numerically all ones "
			  "(every off-diagonal value within 1e-6 of the diagonal): "
			  "gamma = %g is too small for these distances; try a larger "
			  "-g", m->param.kernel.gamma);
	else if (r->kernel_constant)
		tool_info("warning: the kernel matrix has rank one numerically "
			  "(every |K_ij| within 1e-6 of sqrt(K_ii K_jj)): the rows "
			  "are parallel in the kernel's feature space");
}

/* An iterative solver stopped at its cap: the model is its last
 * iterate. */
static void warn_solver_caps(const lsv_train_param *p,
			     const lsv_train_report *r)
{
	if (r->newton_capped)
		tool_info("warning: Newton stopped at its cap of %ld steps before "
			  "the active set settled; the model is the last iterate",
			  r->newton_cap);
	if (r->cg_capped > 0)
		tool_info("warning: %ld %s solve%s stopped at the cap of %ld "
			  "iterations at relative residual %.2g, above the stop "
			  "%g: the model is the last iterate, not the minimizer "
			  "(the system is ill-conditioned: %s)", r->cg_capped,
			  r->pcg_iterations > 0 ? "PCG" : "conjugate gradient",
			  r->cg_capped == 1 ? "" : "s", r->cg_cap,
			  r->cg_capped_residual,
			  p->pcg_tol > 0.0 ? p->pcg_tol : 1e-6,
			  r->pcg_iterations > 0
				  ? "a larger gamma_A helps; -M direct solves "
				    "exactly"
				  : "scale the features to similar ranges, or "
				    "use a larger gamma_A");
}

/* The summary line: the method, the rows, the classes, the parameters and
 * the time. */
static void report_summary(const lsv_train_param *p, const lsv_model *m)
{
	/* boosting has no gamma_A and no expansion points: its own line */
	if (p->solver == LSV_SOLVER_BOOST)
		tool_info("%s: l = %zu, u = %zu, %d %s, gamma_I = %g; %.2f s",
			  method_title(p), m->l, m->u, m->nr_class,
			  clustering(p) ? "clusters" : "classes", p->gamma_I,
			  tool_elapsed());
	else
		tool_info("%s: l = %zu, u = %zu, %d %s, gamma_A = %g, gamma_I = "
			  "%g, %zu expansion points; %.2f s", method_title(p),
			  m->l, m->u, m->nr_class,
			  clustering(p) ? "clusters" : "classes", p->gamma_A,
			  p->gamma_I, m->sv->n, tool_elapsed());
}

/* -y: each class's weight of gamma_I, as many as fit one line. */
static void report_class_weights(const lsv_model *m)
{
	char list[256];
	size_t len = 0;
	int c;

	if (m->class_weight == NULL)
		return;
	list[0] = '\0';
	for (c = 0; c < m->nr_class && len < sizeof list - 40; c++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%g:%g",
					c ? " " : "", m->labels[c],
					m->class_weight[c]);
	if (c < m->nr_class)
		snprintf(list + len, sizeof list - len, " ...");
	tool_info("class-dependent Laplacians: gamma_I times the weight of each "
		  "class (class:weight) %s", list);
}

/* The learned kernels' Laplacian, I - D^-1/2 W D^-1/2, and its W. */
static void report_laplacian_weights(const lsv_train_param *p)
{
	tool_info("Laplacian: I - D^-1/2 W D^-1/2 with W = %s",
		  p->lap_graph == LSV_LAP_KERNEL
		  ? "K, the kernel matrix (-V kernel)" : "the graph (-V graph)");
}

/* The learned kernels' centered alignment with the labels. */
static void report_alignment(const lsv_train_report *r)
{
	tool_info("centered alignment with the labels on the labeled block: "
		  "learned kernel %.4f, input kernel %.4f", r->la_align,
		  r->la_align_input);
}

/* -s labelaware: the base vectors, alignf's weights and the times. */
static void report_labelaware(const lsv_train_param *p,
			      const lsv_train_report *r)
{
	size_t j, q = r->la_c + r->la_k, used = 0;

	for (j = 0; j < q; j++)
		used += r->la_weight[j] > 0.0;
	tool_info("label-aware kernels: %zu label-aware vectors u, %zu %s "
		  "eigenvectors v (the last eigenvalue %.6g); alignf gives %zu "
		  "of the %zu base kernels a weight > 0", r->la_c, r->la_k,
		  p->la_basis == LSV_LA_LAPLACIAN ? "Laplacian" : "kernel",
		  r->la_lambda_k, used, q);
	if (p->la_basis == LSV_LA_LAPLACIAN) {
		report_laplacian_weights(p);
		tool_info("transductive (-J laplacian): the model cannot predict "
			  "new points; -o writes the predictions of the unlabeled "
			  "rows");
	}
	report_alignment(r);
	tool_info("time: base vectors %.2f s, alignf %.2f s, SVM %.2f s",
		  r->la_eig_seconds, r->la_align_seconds, r->la_svm_seconds);
}

/* -s kdesign: the eigenvectors and their weights, delta, the times. */
static void report_kdesign(const lsv_train_param *p,
			   const lsv_train_report *r)
{
	const char *d = lsv_name_of(lsv_kdesign_names, (int)p->kdesign);
	size_t j, used = 0;

	for (j = 0; j < r->la_k; j++)
		used += r->la_weight[j] > 0.0;
	tool_info("kernel design %s: %zu eigenvectors of the %zu rows (the last "
		  "eigenvalue %.6g), %zu with a weight > 0", d, r->la_k,
		  r->la_n, r->la_lambda_k, used);
	if (p->kdesign == LSV_KDESIGN_DIFFUSION ||
	    p->kdesign == LSV_KDESIGN_SPECTRAL)
		report_laplacian_weights(p);
	if (p->kdesign == LSV_KDESIGN_DIFFUSION)
		tool_info("diffusion kernel: delta = %.6g%s", r->kd_delta,
			  p->kd_delta > 0.0 ? " (-Z)"
			  : " (the median of the eigenvalues that are not 0; 1 "
			    "when all are)");
	report_alignment(r);
	tool_info("time: eigenvectors %.2f s, weights %.2f s, SVM %.2f s",
		  r->la_eig_seconds, r->la_align_seconds, r->la_svm_seconds);
	tool_info("transductive: the model cannot predict new points; -o writes "
		  "the predictions of the unlabeled rows");
}

/* -s boost: the rounds, why they stopped, the base learners, the cost. */
static void report_boost(const lsv_train_param *p, const lsv_model *m,
			 const lsv_train_report *r)
{
	const char *stop = r->boost_converged
		? "the relative cost change fell below -z" : "the round cap -B";

	if (p->boost_learner == LSV_BOOST_TREE)
		tool_info("boosting: %ld rounds (%s), %zu trees of depth at most "
			  "%d, cost %.6g -> %.6g", r->boost_rounds, stop,
			  m->ntrees, p->boost_depth, r->boost_cost0, r->boost_cost);
	if (p->boost_learner == LSV_BOOST_RBF)
		tool_info("boosting: %ld rounds (%s), up to %d RBFs per function "
			  "and round of width gamma = %g on %zu distinct centres, "
			  "cost %.6g -> %.6g", r->boost_rounds, stop, p->boost_rbfs,
			  m->param.kernel.gamma, m->sv->n, r->boost_cost0,
			  r->boost_cost);
}

/* The iterative solvers' work (PCG, Newton, conjugate gradient) and the
 * times of the kernel matrix and the solve. */
static void report_iterations(const lsv_train_param *p,
			      const lsv_train_report *r)
{
	int pcg = p->method == LSV_METHOD_PCG ||
		  p->method == LSV_METHOD_PCG_EARLY;

	if (pcg && p->init != NULL)
		tool_info("PCG: %ld iterations, from a warm start at relative "
			  "residual %.2g (the stop: %s%g)", r->pcg_iterations,
			  r->warm_residual, p->method == LSV_METHOD_PCG_EARLY ?
			  "stable predictions, or " : "", p->pcg_tol);
	else if (pcg)
		tool_info("PCG: %ld iterations", r->pcg_iterations);
	if (r->kernel_seconds > 0.0 || r->solve_seconds > 0.0)
		tool_info("time: kernel matrix %.2f s, solver %.2f s",
			  r->kernel_seconds, r->solve_seconds);
	if (p->method == LSV_METHOD_NEWTON)
		tool_info("Newton: %ld steps in all", r->newton_steps);
	if (p->init != NULL && p->method == LSV_METHOD_NEWTON &&
	    p->landmarks == 0 && p->kernel.type == LSV_KERNEL_LINEAR)
		tool_info("conjugate gradient: %ld iterations in all, from a "
			  "warm start at relative residual %.2g in the first "
			  "step (the stop: %g)", r->cg_iterations, r->warm_residual,
			  p->pcg_tol > 0.0 ? p->pcg_tol : 1e-6);
	else if (r->cg_iterations > 0)
		tool_info("conjugate gradient: %ld iterations in all",
			  r->cg_iterations);
}

/* What training did, on stderr (not with -q): the warnings first, then
 * the summary and each solver's own lines. */
static void report(const lsv_train_param *p, const lsv_model *m,
		   const lsv_train_report *r)
{
	if (r->switch_capped)
		tool_info("warning: the TSVM stopped at the cap of %ld label switches "
			  "(-w) before the switching condition was met",
			  p->tsvm_max_switches);
	/* trees use no kernel width (the RBF learners do, -H rbf) */
	if (r->gamma_data > 0.0 && !(p->solver == LSV_SOLVER_BOOST &&
				     p->boost_learner == LSV_BOOST_TREE))
		tool_info("RBF width from the data: -g %.6g (1 / the mean squared "
			  "distance between rows)", r->gamma_data);
	warn_kernel_identity(p, m, r);
	warn_kernel_constant(p, m, r);
	warn_solver_caps(p, r);
	report_summary(p, m);
	report_class_weights(m);
	if (p->solver == LSV_SOLVER_TSVM)
		tool_info("TSVM: %ld label switches in all", r->switches);
	if (p->solver == LSV_SOLVER_LABELAWARE)
		report_labelaware(p, r);
	if (p->solver == LSV_SOLVER_KDESIGN)
		report_kdesign(p, r);
	if (p->solver == LSV_SOLVER_BOOST)
		report_boost(p, m, r);
	report_iterations(p, r);
}

/* -s cluster or boost -K: how the embedding was found (the boosting's
 * constraint violation, or the eigenproblem: its eigenvalue, the gap to
 * the next, the constraints checked) and how the clusters come from it. */
static void cluster_method_info(const lsv_model *m, const lsv_train_report *r)
{
	if (m->param.solver == LSV_SOLVER_BOOST)
		tool_info("clustering by boosting: largest constraint violation "
			  "at the end %.2g (mean f, mean f^2 - 1%s)",
			  r->boost_violation, m->nr_fn > 1
			  ? ", mean f_j f_k" : "");
	else if (isfinite(r->cluster_gap))
		tool_info("clustering: gamma_A/gamma_I = %g, kernel rank %zu kept, "
			  "eigenvalue %.6g, relative gap to the next %.3g",
			  m->param.gamma_A / m->param.gamma_I, r->cluster_rank,
			  r->cluster_lambda, r->cluster_gap);
	else
		tool_info("clustering: gamma_A/gamma_I = %g, kernel rank %zu kept, "
			  "eigenvalue %.6g (the last there is)", m->param.gamma_A /
			  m->param.gamma_I, r->cluster_rank, r->cluster_lambda);
	if (m->param.solver == LSV_SOLVER_CLUSTER)
		tool_info("clustering: constraints checked on the solution (f'f = "
			  "I, %s = 0): largest violation %.2g",
			  m->param.normalized ? "sum_i sqrt(d_i) f(x_i)"
					      : "sum_i f(x_i)", r->cluster_check);
	if (m->nr_class > 2)
		tool_info("clusters: k-means++ on the %s rows of the %d-dimensional "
			  "embedding, the best of %d restarts (seed %llu)",
			  m->param.cluster_unit ? "unit-length" : "raw", m->nr_fn,
			  m->param.cluster_restarts, m->param.seed);
}

/* The warnings of a clustering the data may not determine: several
 * components of the graph, or a repeated eigenvalue or failed check. */
static void cluster_warnings(const lsv_train_report *r)
{
	if (r->cluster_components > 1)
		tool_info("warning: the graph has %zu connected components: with "
			  "little regularization a cluster can be a whole component, "
			  "however small (join them with a larger -k or -e, or raise "
			  "gamma_A)", r->cluster_components);
	if (r->cluster_unsure)
		tool_info("warning: the clustering is not determined by the data "
			  "(the eigenvalue it stops at is repeated to 1e-8, or a "
			  "constraint check failed): another run, seed or setting "
			  "may split the rows differently");
}

/* The cluster sizes, at most what fits a 256-byte line ("12 30 ..."). */
static void cluster_sizes(const size_t *size, int nr_class)
{
	char sizes[256];
	size_t len = 0;
	int q;

	for (q = 0; q < nr_class && len < sizeof sizes - 24; q++)
		len += (size_t)snprintf(sizes + len, sizeof sizes - len, "%s%zu",
					q ? " " : "", size[q]);
	tool_info("cluster sizes: %s", sizes);
}

/* How the clusters cll of the k labeled rows agree with their classes y:
 * the accuracy with the clusters matched to the classes, and the NMI. */
static void cluster_agreement(const int *cll, const double *y, size_t k,
			      int nr_class)
{
	size_t matched;
	double acc, nmi;
	lsv_error err;

	if (lsv_cluster_agreement(cll, nr_class, y, k, &acc, &matched, &nmi,
				  &err) != LSV_OK)
		tool_die_err(&err);
	tool_info("agreement with the %zu labeled rows: accuracy %.2f%% "
		  "(%zu/%zu, clusters matched to classes), NMI %.4f", k,
		  100.0 * acc, matched, k, nmi);
}

/* -s cluster: what the eigenproblem said, the cluster sizes, and how the
 * clusters agree with the classes of the rows that carry labels. */
static void cluster_report(const lsv_data *x, const lsv_model *m,
			   const lsv_train_report *r)
{
	size_t nf = (size_t)m->nr_fn, i, k = 0;
	int *cl = malloc((x->n ? x->n : 1) * sizeof *cl);
	size_t *size = calloc((size_t)m->nr_class, sizeof *size);
	double *y = malloc((x->l ? x->l : 1) * sizeof *y);
	int *cll = malloc((x->l ? x->l : 1) * sizeof *cll);

	if (cl == NULL || size == NULL || y == NULL || cll == NULL)
		tool_die(1, "out of memory");
	cluster_method_info(m, r);
	cluster_warnings(r);
	/* each row's cluster; the labeled rows' classes and clusters */
	for (i = 0; i < x->n; i++) {
		cl[i] = (int)lsv_model_label(m, r->train_f + i * nf) - 1;
		size[cl[i]]++;
		if (lsv_data_is_labeled(x, i)) {
			y[k] = x->y[i];
			cll[k++] = cl[i];
		}
	}
	cluster_sizes(size, m->nr_class);
	if (k > 0)
		cluster_agreement(cll, y, k, m->nr_class);
	free(cl);
	free(size);
	free(y);
	free(cll);
}

/* -o: the transductive predictions, f on the unlabeled training rows
 * (clustering: every row). */
static void write_transductive(FILE *fp, const lsv_data *x,
			       const lsv_model *m, const lsv_train_report *r)
{
	double *scores = malloc(x->n * (size_t)m->nr_fn * sizeof *scores);
	size_t *rows = malloc((x->n + 1) * sizeof *rows), i, u = 0;
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
		if (!lsv_data_is_labeled(x, i) ||
		    clustering(&m->param))
			rows[u++] = i;
	write_predictions(fp, m, scores, rows, u);
	free(scores);
	free(rows);
}

/* -O: the label each graph's kernel alone gives each unlabeled row. */
static void write_singles(FILE *fp, const lsv_data *x, const lsv_model *m,
			  const lsv_train_report *r)
{
	size_t i, q, C = (size_t)m->nr_fn, n = x->n;

	fprintf(fp, "# the label each graph's kernel alone predicts (the paper's "
		"eq. 2.5), graphs 1..%zu in the order given, one line per "
		"unlabeled row\n", m->ngraphs);
	for (i = 0; i < n; i++) {
		if (lsv_data_is_labeled(x, i))
			continue;
		for (q = 0; q < m->ngraphs; q++)
			fprintf(fp, q ? " %.17g" : "%.17g",
				lsv_model_label(m, r->single_f + (q * n + i) * C));
		putc('\n', fp);
	}
}

static void write_model(FILE *fp, const options *o, const lsv_model *m)
{
	lsv_error err;

	if (lsv_model_write(fp, strcmp(o->outpath, "-") ? o->outpath
			    : "(stdout)", m, &err) != LSV_OK)
		tool_die_err(&err);
}

/* -v with lists: option c gives the values of arg into *pl, or a usage
 * error naming the option and the bad piece. */
static void opt_list(int c, const char *arg, double min, double max,
		     int integer, plist *pl)
{
	lsv_error err;

	free(pl->v);
	if (lsv_parse_list(arg, min, max, integer, &pl->v, &pl->n, &err) !=
	    LSV_OK) {
		if (err.status == LSV_ENOMEM)
			tool_die(1, "out of memory");
		tool_usage_error("option -%c: %s", c, err.msg);
	}
	pl->opt = c;
}

/* -L normalized,unnormalized: a list of names. */
static void opt_name_list(int c, const char *arg, const lsv_name *t,
			  const char *what, plist *pl)
{
	char piece[64];
	const char *p = arg, *q;
	size_t len;

	free(pl->v);
	pl->v = NULL;
	pl->n = 0;
	if (*arg == '\0')
		(void)opt_name(c, arg, t, what);  /* names the empty value */
	for (;; p = q + 1) {
		double *nv;
		q = strchr(p, ',');
		len = q ? (size_t)(q - p) : strlen(p);
		if (len == 0)
			tool_usage_error("option -%c: empty element in '%s'", c, arg);
		if (len >= sizeof piece)
			len = sizeof piece - 1;
		memcpy(piece, p, len);
		piece[len] = '\0';
		if ((nv = realloc(pl->v, (pl->n + 1) * sizeof *nv)) == NULL)
			tool_die(1, "out of memory");
		pl->v = nv;
		pl->v[pl->n++] = opt_name(c, piece, t, what);
		if (q == NULL)
			break;
	}
	pl->opt = c;
}

/* One value list (the default's when the option was not given). */
static void plist_default(plist *pl, double v)
{
	if (pl->v != NULL)
		return;
	if ((pl->v = malloc(sizeof *pl->v)) == NULL)
		tool_die(1, "out of memory");
	pl->v[0] = v;
	pl->n = 1;
}

/* The grid's dimensions in grid order, the outermost first (the kernel
 * changes least often, so its matrix is computed once per -g value). */
enum { DIM_GRAPH, DIM_G, DIM_L, DIM_P, DIM_Z, DIM_A, DIM_I, NDIM };

static plist *dim_list(options *o, int d)
{
	plist *t[NDIM] = {&o->Gl, &o->gl, &o->Ll, &o->Pl, &o->Zl, &o->al,
			  &o->il};
	return t[d];
}

/* Combination k (0-based, grid order: the last dimension fastest) into
 * idx[NDIM]. */
static void combo_index(options *o, size_t k, size_t *idx)
{
	int d;

	for (d = NDIM - 1; d >= 0; d--) {
		size_t n = dim_list(o, d)->n;
		idx[d] = k % n;
		k /= n;
	}
}

/* The parameters of combination idx, gamma_A and gamma_I resolved with the
 * whole set's l and n (as without -v). */
static lsv_train_param combo_param(options *o, const size_t *idx, size_t l,
				   size_t n)
{
	lsv_train_param p = o->p;
	reg_spec r = o->reg;

	p.kernel.gamma = o->gl.v[idx[DIM_G]];
	p.normalized = (int)o->Ll.v[idx[DIM_L]];
	p.power = (int)o->Pl.v[idx[DIM_P]];
	p.kd_delta = o->Zl.v[idx[DIM_Z]];
	r.a_val = o->al.v[idx[DIM_A]];
	r.i_val = o->il.v[idx[DIM_I]];
	resolve_reg(&r, l, n, &p);
	if (graphless(p.solver))
		p.gamma_I = 0.0;
	return p;
}

/* A copy of s safe to print (lsv_text_safe): the table of -v is on
 * stdout, and a file name is input like any other. */
static char *safe_dup(const char *s)
{
	size_t n = lsv_text_safe(NULL, 0, s) + 1;
	char *t = malloc(n);

	if (t == NULL)
		tool_die(1, "out of memory");
	lsv_text_safe(t, n, s);
	return t;
}

/* The text of dimension d's value in combination idx (a graph: its file's
 * name made safe). */
static const char *dim_text(options *o, int d, const size_t *idx, char *buf,
			    size_t size)
{
	double v = dim_list(o, d)->v[idx[d]];

	if (d == DIM_L)
		return lsv_name_of(lsv_laplacian_names, (int)v);
	if (d == DIM_GRAPH)
		return o->graph_shown[(size_t)v];
	return num_text(v, buf, size);
}

/* Whether training with p will use the n x n kernel (so computing it once
 * pays): not on a feature map, not RLS / the SVM on the labeled rows
 * alone.  A wrong guess costs time only: lsv_train_with_kernel ignores an
 * unneeded K and lsv_train computes a missing one. */
static int uses_kernel(const lsv_train_param *p, const lsv_data *x)
{
	if (p->solver == LSV_SOLVER_BOOST)  /* trees, no kernel */
		return 0;
	if (p->landmarks > 0 ||
	    (p->method == LSV_METHOD_NEWTON && p->kernel.type == LSV_KERNEL_LINEAR))
		return 0;
	return !(p->gamma_I == 0.0 && !graphless(p->solver) &&
		 p->method != LSV_METHOD_NEWTON && x->l < x->n);
}

/* Progress of the search on stderr: each combination's score, the time
 * so far and an estimate of the time left.  The estimate counts work in
 * blocks (below): a block whose settings share one factorization costs
 * that factorization, after which all its scores come at once, so it is
 * one unit, done at its first score; in a block trained setting by
 * setting, each setting is 1/block of a unit.  Blocks to come are assumed
 * to cost what the finished ones did. */
typedef struct {
	size_t done, total, base;  /* base: the block's first combination */
	size_t block, in_block;    /* combinations a block; scored in this one */
	int sharing;               /* this block shares one factorization */
	double units;              /* blocks' worth of work done */
	double start, lsize;       /* the search's start; l */
	int boost;                 /* boosting: error, deviance to break ties */
	const char *crit;          /* the held-out loss shown, in words */
} grid_progress;

static void grid_block(grid_progress *gp, size_t base)
{
	gp->base = base;
	gp->in_block = 0;
	gp->sharing = 0;
}

static void grid_sharing(void *ctx, size_t m)
{
	(void)m;
	((grid_progress *)ctx)->sharing = 1;
}

static void grid_scored(void *ctx, size_t k, const lsv_cv_score *s)
{
	grid_progress *gp = ctx;
	double t = tool_elapsed() - gp->start, left;

	gp->done++;
	if (!gp->sharing)
		gp->units += 1.0 / (double)gp->block;
	else if (gp->in_block == 0)
		gp->units += 1.0;
	gp->in_block++;
	/* a shared block's other scores cost nothing more */
	left = (double)(gp->total - (gp->sharing ? gp->base + gp->block
					       : gp->done)) /
	       (double)gp->block;
	tool_info("combination %zu of %zu: %s %.6g, accuracy "
		  "%.4g%%; "
		  "%.1f s, about %.0f s left", gp->base + k + 1, gp->total,
		  gp->crit, gp->boost ? s->tie : s->loss,
		  100.0 * (double)s->correct / gp->lsize, tool_elapsed(),
		  t / gp->units * left);
}

/* A best value at an end of its list (of 3 or more) may be beaten beyond
 * it, where the search did not look: said, so that the list can be
 * extended.  gamma_I = 0, the graph off, is an end of its own. */
static void edge_notes(options *o, const size_t *idx)
{
	static const int dims[] = {DIM_G, DIM_P, DIM_Z, DIM_A, DIM_I};
	char buf[64];
	size_t j, k;

	for (j = 0; j < sizeof dims / sizeof *dims; j++) {
		const plist *pl = dim_list(o, dims[j]);
		double v, lo, hi;

		if (pl->n < 3)
			continue;
		v = pl->v[idx[dims[j]]];
		lo = hi = pl->v[0];
		for (k = 1; k < pl->n; k++) {
			lo = fmin(lo, pl->v[k]);
			hi = fmax(hi, pl->v[k]);
		}
		if (v == 0.0 || (v != lo && v != hi))
			continue;
		tool_info("note: the best -%c %s is the %s of its list: a "
			  "value beyond it may score better (extend the list)",
			  pl->opt, dim_text(o, dims[j], idx, buf, sizeof buf),
			  v == hi ? "largest" : "smallest");
	}
}

/* The number of combinations: the product of the lists' lengths. */
static size_t grid_size(options *o)
{
	size_t N = 1;
	int d;

	for (d = 0; d < NDIM; d++)
		N *= dim_list(o, d)->n;
	return N;
}

/* The search's combinations: P[k] the parameters of combination k and
 * sc[k] its score (lsv_cv_settings and lsv_cv_best take the two arrays),
 * n of each. */
typedef struct {
	size_t n;
	lsv_train_param *P;
	lsv_cv_score *sc;
} grid;

/* Every combination's parameters, its score to come. */
static void grid_alloc(grid *g, options *o, const lsv_data *x)
{
	size_t k, idx[NDIM];

	g->n = grid_size(o);
	g->sc = malloc(g->n * sizeof *g->sc);
	g->P = malloc(g->n * sizeof *g->P);
	if (g->sc == NULL || g->P == NULL)
		tool_die(1, "out of memory");
	for (k = 0; k < g->n; k++) {
		combo_index(o, k, idx);
		g->P[k] = combo_param(o, idx, x->l, x->n);
	}
}

/* The progress of a search of n combinations (grid_scored), and the
 * callbacks that report it. */
static void grid_progress_start(grid_progress *gp, lsv_cv_progress *cvp,
				const options *o, const lsv_data *x, size_t n,
				const lsv_train_progress *progress)
{
	gp->done = 0;
	gp->total = n;
	gp->start = tool_elapsed();
	gp->lsize = (double)x->l;
	/* boosting is scored by its error, then its deviance
	 * (lsv_cv_settings); the accuracy shows the error */
	gp->boost = o->p.solver == LSV_SOLVER_BOOST;
	gp->crit = gp->boost ? "deviance" : "scaled hinge loss";
	cvp->scored = grid_scored;
	cvp->sharing = grid_sharing;
	cvp->ctx = gp;
	cvp->train = progress;
}

/* The graphs' file names safe to print, for the table (dim_text). */
static void show_graph_names(options *o)
{
	size_t k;

	if (o->graph_files == NULL)
		return;
	o->graph_shown = calloc(o->Gl.n, sizeof *o->graph_shown);
	if (o->graph_shown == NULL)
		tool_die(1, "out of memory");
	for (k = 0; k < o->Gl.n; k++)
		o->graph_shown[k] = safe_dup(o->graph_files[k]);
}

static void free_graph_names(options *o)
{
	size_t k;

	for (k = 0; o->graph_shown != NULL && k < o->Gl.n; k++)
		free(o->graph_shown[k]);
	free(o->graph_shown);
	o->graph_shown = NULL;
}

/* The kernel matrix of one -g value, kept for the blocks after it (-g
 * changes least often): K, NULL before the first, and g, the index in the
 * -g list of the value it is of. */
typedef struct {
	double *K;
	size_t g;
} grid_kernel;

/* Whether a setting of the block P[0..block) (of -g value g) uses the
 * kernel matrix; if so, gk holds it after the call. */
static int block_kernel(grid_kernel *gk, const options *o, const lsv_data *x,
			const lsv_train_param *P, size_t block, size_t g)
{
	int any = 0;
	size_t k;
	lsv_error err;

	for (k = 0; k < block; k++)
		any |= uses_kernel(&P[k], x);
	if (any && (gk->K == NULL || gk->g != g)) {
		free(gk->K);
		if (lsv_train_kernel(x, &P[0], &gk->K, &err) != LSV_OK)
			tool_die_data_err(o->in, 0, &err);
		gk->g = g;
	}
	return any;
}

/* The settings P[0..block), combinations b+1 to b+block, shared one
 * factorization: which, on stderr. */
static void note_shared(const lsv_train_param *P, size_t b, size_t block)
{
	int graph = 0;
	size_t k;

	for (k = 0; k < block; k++)
		graph |= P[k].gamma_I > 0.0;
	tool_info("combinations %zu to %zu shared one factorization (%s)",
		  b + 1, b + block, graph ? "the graph term in a deformed kernel"
		  : "of K: no graph term");
}

/* The block of combinations from b (block of them) scored by cross
 * validation on graph g, with the kernel matrix K (or NULL). */
static void score_block(const options *o, const lsv_data *x,
			const lsv_graph *g, grid *gr, size_t b, size_t block,
			const double *K, const int *fold,
			const lsv_cv_progress *cvp)
{
	int shared = 0;
	lsv_error err;

	if (o->p.class_graph && o->graph_files == NULL) {
		/* -y, graph built here: built anew in every fold from the
		 * fold's training labels (lsv_cv_settings_rebuild) */
		lsv_graph_param gq = o->gp;
		gq.progress = NULL;
		if (lsv_cv_settings_rebuild(x, &gq, gr->P + b, block, K, fold,
					    o->folds, LSV_CV_SHARE, cvp,
					    gr->sc + b, &shared, &err) != LSV_OK)
			tool_die_err(&err);
	} else if (lsv_cv_settings(x, g, gr->P + b, block, K, fold, o->folds,
				   LSV_CV_SHARE, cvp, gr->sc + b, &shared,
				   &err) != LSV_OK)
		tool_die_err(&err);
	if (shared && block > 1)
		note_shared(gr->P + b, b, block);
}

/* -v of one combination: LIBSVM's accuracy line, and the loss. */
static void print_one_score(const options *o, const lsv_cv_score *s,
			    size_t l)
{
	printf("Cross Validation Accuracy = %g%% (%zu/%zu)\n",
	       100.0 * (double)s->correct / (double)l, s->correct, l);
	if (o->p.solver == LSV_SOLVER_BOOST)
		printf("Cross Validation Deviance = %.6g\n", s->tie);
	else
		printf("Cross Validation Scaled Hinge Loss = %.6g\n", s->loss);
}

/* The table's column widths: w[d] that of dimension d's values (at least
 * 2), 0 for a dimension of one value, which has no column. */
static void column_widths(options *o, size_t *w)
{
	char buf[64];
	size_t k, len;
	int d;

	for (d = 0; d < NDIM; d++) {
		w[d] = 0;
		if (dim_list(o, d)->n < 2)
			continue;
		w[d] = 2;
		for (k = 0; k < dim_list(o, d)->n; k++) {
			size_t i2[NDIM] = {0};
			i2[d] = k;
			len = strlen(dim_text(o, d, i2, buf, sizeof buf));
			if (len > w[d])
				w[d] = len;
		}
	}
}

/* The table's two heading lines: the criterion, then the columns. */
static void print_table_head(options *o, size_t n, const size_t *w)
{
	int boost = o->p.solver == LSV_SOLVER_BOOST, d;

	/* boosting's -v varies no gamma_A: its ties go from the deviance to
	 * gamma_I */
	printf("# %ld-fold stratified cross validation of %zu combinations: "
	       "lowest class-balanced held-out %s is best, ties (1e-12 "
	       "relative) to %s, then smaller gamma_I\n",
	       o->folds, n, boost ? "error" : "scaled hinge loss",
	       boost ? "the lower class-balanced deviance" : "larger gamma_A");
	printf(" ");
	for (d = 0; d < NDIM; d++)
		if (w[d] > 0)
			printf(" %*s%c", (int)w[d] - 1, "-", dim_list(o, d)->opt);
	if (boost)
		printf(" %12s %12s %9s\n", "error", "deviance", "accuracy");
	else
		printf(" %12s %9s\n", "scaled_hinge", "accuracy");
}

/* Combination k's line of the table, marked * if it is the best. */
static void print_table_row(options *o, size_t k, int is_best,
			    const size_t *w, const lsv_cv_score *s, size_t l)
{
	char buf[64];
	size_t idx[NDIM];
	int d;

	combo_index(o, k, idx);
	printf("%c", is_best ? '*' : ' ');
	for (d = 0; d < NDIM; d++)
		if (w[d] > 0)
			printf(" %*s", (int)w[d], dim_text(o, d, idx, buf, sizeof buf));
	if (o->p.solver == LSV_SOLVER_BOOST)
		printf(" %12.6g %12.6g %8.4g%%\n", s->loss, s->tie,
		       100.0 * (double)s->correct / (double)l);
	else
		printf(" %12.6g %8.4g%%\n", s->loss,
		       100.0 * (double)s->correct / (double)l);
}

/* -v of several combinations: the table, one column per varied parameter,
 * the best as options, and the notes on a best value at an end. */
static void print_table(options *o, const grid *gr, size_t best, size_t l)
{
	char buf[64];
	size_t w[NDIM], idx[NDIM], k;
	int d;

	column_widths(o, w);
	print_table_head(o, gr->n, w);
	for (k = 0; k < gr->n; k++)
		print_table_row(o, k, k == best, w, &gr->sc[k], l);
	printf("best:");
	combo_index(o, best, idx);
	for (d = 0; d < NDIM; d++)
		if (w[d] > 0)
			printf(" -%c %s", dim_list(o, d)->opt,
			       dim_text(o, d, idx, buf, sizeof buf));
	printf("\n");
	edge_notes(o, idx);
}

/*
 * -v: every combination of the lists scored by stratified cross validation
 * (folds drawn once), the table on stdout, and o->p set to the best
 * combination.  *Kout gets the kernel matrix of the best -g if the search
 * still holds it (the caller frees it), else NULL.
 */
static size_t grid_search(options *o, const lsv_data *x, lsv_graph **gs,
			  const lsv_train_progress *progress, const int *fold,
			  double **Kout)
{
	size_t best, idx[NDIM], b, block;
	grid gr;
	grid_kernel gk = {NULL, (size_t)-1};
	grid_progress gp;
	lsv_cv_progress cvp;

	grid_alloc(&gr, o, x);
	if (o->p.class_graph)
		tool_info("-y: every fold is trained on its own graph, %s",
			  o->graph_files == NULL
			  ? "built from the fold's training labels"
			  : "the -G graph without the edges of its held-out rows");
	grid_progress_start(&gp, &cvp, o, x, gr.n, progress);
	show_graph_names(o);
	/* a block: the gamma_A x gamma_I combinations of one -g, -L, -P (the
	 * innermost dimensions), which can share one factorization */
	block = o->al.n * o->il.n;
	gp.block = block;
	gp.units = 0.0;
	for (b = 0; b < gr.n; b += block) {
		int any;
		combo_index(o, b, idx);
		any = block_kernel(&gk, o, x, gr.P + b, block, idx[DIM_G]);
		grid_block(&gp, b);
		score_block(o, x, gs[idx[DIM_GRAPH]], &gr, b, block,
			    any ? gk.K : NULL, fold, &cvp);
	}
	best = lsv_cv_best(gr.sc, gr.P, gr.n);
	if (gr.n == 1)
		print_one_score(o, &gr.sc[0], x->l);
	else
		print_table(o, &gr, best, x->l);
	tool_done();  /* a lost table is an error before training */
	combo_index(o, best, idx);
	o->p = gr.P[best];
	if (gk.K != NULL && gk.g != idx[DIM_G]) {
		free(gk.K);
		gk.K = NULL;
	}
	*Kout = gk.K;
	free(gr.sc);
	free(gr.P);
	free_graph_names(o);
	return idx[DIM_GRAPH];
}

/* -v: every combination checked and the folds drawn (stratified, seeded by
 * -S) before any work, so a usage error comes at once. */
static int *grid_prepare(options *o, const lsv_data *x)
{
	size_t N = grid_size(o), k, idx[NDIM];
	int *fold = malloc(x->n * sizeof *fold);
	lsv_error err;

	if (fold == NULL)
		tool_die(1, "out of memory");
	for (k = 0; k < N; k++) {
		lsv_train_param p;
		combo_index(o, k, idx);
		p = combo_param(o, idx, x->l, x->n);
		if (lsv_train_param_check(&p, &err) != LSV_OK)
			tool_usage_error("%s", err.msg);
	}
	if (lsv_cv_folds(x, o->folds, o->seed, fold, &err) != LSV_OK) {
		if (err.status == LSV_ENOMEM)
			tool_die(1, "out of memory");
		tool_usage_error("-v %ld: %s", o->folds, err.msg);
	}
	return fold;
}

/*
 * Under mpirun (P > 1 ranks of the MPI build), as graph-build (tool.h:
 * rank 0's phases): rank 0 alone opens the outputs, reads the graph and
 * writes the model (the same crash-safe temporary files and renames).  A
 * data file is read by every rank, each its part, and put together on
 * every rank (read_data_parts); standard input is read by rank 0 and
 * copied (lsv_data_share), as the graph is (lsv_graph_share).  Then every
 * rank trains with o.p.comm, each on its block of rows.
 */

/* The methods that split their rows over the ranks (lsv_train_param's
 * comm): a usage error before any input is read, naming them. */
static void check_distributed(const options *o)
{
	const lsv_train_param *p = &o->p;
	const char *what = NULL;

	if (p->solver == LSV_SOLVER_COMBINE)
		what = "-s combine";
	else if (o->from_file != NULL)
		what = "-f (a warm start)";
	else if (o->folds > 0)
		what = "-v (cross validation)";
	else if (lsv_train_distributed(p) == 0)
		what = "this method";  /* no method at all: the check says so */
	if (what != NULL)
		tool_usage_error("%s is not distributed: on %d processes train "
				 "-s laprls or lapsvm by Newton on a feature map "
				 "(-M newton -N m, or -M newton -t 0) or by PCG on the "
				 "kernel (-M pcg or pcg-early), or run on one "
				 "process (without mpirun, or -np 1)", what, tool_nproc);
}

/* Each rank's training time (wall and its process's CPU time) and bytes
 * sent, on rank 0's stderr. */
static void report_ranks(size_t n, double seconds, double cpu)
{
	double *v = tool_rank_values(seconds, cpu);
	size_t lo, nl;
	int r;

	for (r = 0; r < tool_nproc; r++) {
		lsv_comm_block(n, r, tool_nproc, &lo, &nl);
		tool_info("rank %d of %d: rows %zu..%zu, train %.2f s (CPU %.2f s), "
			  "sent %.0f bytes", r, tool_nproc, lo + 1, lo + nl,
			  v[3 * r + 1], v[3 * r + 2], v[3 * r]);
	}
	free(v);
}

/* The output files, opened by rank 0 before any input is read (a bad
 * destination fails at once, not after the training; none is replaced
 * before all are complete), NULL where not asked for. */
typedef struct {
	FILE *model, *pred, *singles, *kernel;
} outputs;

/* Rank 0: the outputs opened and every input file checked readable, so
 * that a missing graph or list fails before the data are read. */
static void open_files(const options *o, outputs *out)
{
	size_t j;

	out->model = tool_output_open(o->outpath);
	if (o->pred_file != NULL)
		out->pred = tool_output_open(o->pred_file);
	if (o->singles_file != NULL)
		out->singles = tool_output_open(o->singles_file);
	if (o->kernel_file != NULL)
		out->kernel = tool_output_open(o->kernel_file);
	tool_check_input(o->in);
	for (j = 0; o->graph_files != NULL && j < o->Gl.n; j++)
		tool_check_input(o->graph_files[j]);
	for (j = 0; j < o->nlists; j++)
		tool_check_input(o->list_files[j]);
	if (o->weights_file != NULL)
		tool_check_input(o->weights_file);
	if (o->from_file != NULL)
		tool_check_input(o->from_file);
}

/* The outputs opened (rank 0) and the data on every rank: under mpirun
 * each rank reads its own part of a regular file, else rank 0 reads it
 * all and shares it. */
static lsv_data *open_all(const options *o, outputs *out)
{
	lsv_data *x = NULL;
	lsv_error err;
	int parts = 0;

	memset(out, 0, sizeof *out);
	if (tool_rank0_begin()) {
		open_files(o, out);
		parts = tool_nproc > 1 && tool_regular_file(o->in) &&
			o->p.kernel.type != LSV_KERNEL_PRECOMPUTED;
		x = parts ? NULL : read_data(o);
	}
	tool_rank0_end();
	if (tool_nproc > 1) {
		if (lsv_comm_bcast(tool_comm, 0, &parts, sizeof parts, &err) !=
		    LSV_OK)
			tool_die_err(&err);
		if (parts && (x = read_data_parts(o)) == NULL) {
			if (tool_rank0_begin())  /* a graph file: refused here */
				x = read_data(o);
			tool_rank0_end();
			parts = 0;
		}
		if (!parts && lsv_data_share(tool_comm, 0, &x, &err) != LSV_OK)
			tool_die_err(&err);
	}
	return x;
}

/* The parameters that depend on the data (the regularization's scale,
 * gamma_I 0 for the graphless solvers), the progress reports, and the
 * checks of the whole parameter set: usage errors. */
static void settle_params(options *o, const lsv_data *x,
			  lsv_train_progress *progress)
{
	lsv_error err;

	check_classes(o, x);
	check_fraction(o, x);
	resolve_reg(&o->reg, x->l, x->n, &o->p);
	if (graphless(o->p.solver))
		o->p.gamma_I = 0.0;
	if (o->p.solver == LSV_SOLVER_TSVM) {
		o->p.gamma_I = 0.0;
		if (x->l == x->n)
			tool_info("warning: no unlabeled rows: the TSVM is the SVM");
		if (!tool_quiet)
			progress->tsvm = tsvm_progress;
	}
	if (o->p.solver == LSV_SOLVER_BOOST && !tool_quiet)
		progress->boost = boost_progress;
	if (lsv_train_param_check(&o->p, &err) != LSV_OK ||
	    lsv_graph_param_check(&o->gp, &err) != LSV_OK)
		tool_usage_error("%s", err.msg);
}

/* The graphs (o->Gl.n of them, NULL where no gamma_I of the -i list is >
 * 0) into *gs on every rank, their descriptions (256 bytes each) into
 * *descs. */
static void read_graphs(options *o, const lsv_data *x, lsv_graph ***gs,
			char ***descs)
{
	lsv_train_param p1 = o->p;
	reg_spec r = o->reg;
	lsv_error err;
	size_t j;

	/* read_graph asks o->p whether a graph is used: with the largest
	 * gamma_I of the list */
	for (j = 0; j < o->il.n; j++)
		if (o->il.v[j] > r.i_val)
			r.i_val = o->il.v[j];
	resolve_reg(&r, x->l, x->n, &o->p);
	if (graphless(o->p.solver))
		o->p.gamma_I = 0.0;
	*gs = calloc(o->Gl.n, sizeof **gs);
	*descs = calloc(o->Gl.n, sizeof **descs);
	if (*gs == NULL || *descs == NULL)
		tool_die(1, "out of memory");
	for (j = 0; j < o->Gl.n; j++) {
		if (((*descs)[j] = malloc(256)) == NULL)
			tool_die(1, "out of memory");
		(*descs)[j][0] = '\0';
		if (tool_rank0_begin())
			(*gs)[j] = read_graph(o, j, x, (*descs)[j], 256);
		tool_rank0_end();
		if (tool_nproc > 1 &&
		    lsv_graph_share(tool_comm, 0, &(*gs)[j], &err) != LSV_OK)
			tool_die_err(&err);
	}
	o->p = p1;
}

/* The model of o->p on graph g (described by desc, which the model
 * keeps cleaned), K the kernel matrix
 * the grid search kept (or NULL); with the time each rank took under
 * mpirun. */
static lsv_model *fit(const options *o, const lsv_data *x, lsv_graph *g,
		      char *desc, const double *K,
		      const lsv_train_progress *progress, lsv_train_report *rep)
{
	double t0 = tool_elapsed();
	clock_t c0 = clock();
	lsv_model *m;
	lsv_error err;

	if (o->p.init != NULL)
		tool_info("warm start from %s (%zu training rows, %zu "
			  "expansion points)", o->from_file,
			  o->p.init->l + o->p.init->u, o->p.init->sv->n);
	if (lsv_train_with_kernel(x, g, &o->p, K, progress, &m, rep, &err) !=
	    LSV_OK)
		tool_die_data_err(o->in, 0, &err);
	set_graph_desc(m, desc);
	if (tool_nproc > 1 && !tool_quiet)
		report_ranks(x->n, tool_elapsed() - t0,
			     (double)(clock() - c0) / CLOCKS_PER_SEC);
	return m;
}

/* Rank 0: every output written, then all renamed into place together. */
static void write_all(const outputs *out, const options *o,
		      const lsv_data *x, const lsv_model *m,
		      const lsv_train_report *rep)
{
	if (tool_rank0_begin()) {  /* the outputs were opened by rank 0 alone */
		if (out->pred != NULL)
			write_transductive(out->pred, x, m, rep);
		if (out->singles != NULL)
			write_singles(out->singles, x, m, rep);
		if (out->kernel != NULL)
			write_kernel(out->kernel, o, x, m, rep);
		write_model(out->model, o, m);
		tool_outputs_commit();
	}
	tool_rank0_end();
}

/* What the options own. */
static void options_free(options *o)
{
	size_t j;

	free(o->graph_files);
	for (j = 0; j < o->nlisted; j++)
		free(o->listed[j]);
	free(o->listed);
	free(o->Gl.v);
	free(o->al.v);
	free(o->il.v);
	free(o->gl.v);
	free(o->Pl.v);
	free(o->Ll.v);
	free(o->Zl.v);
	free(o->wlabel);
	free(o->weight);
	free(o->deflt);
}

int main(int argc, char **argv)
{
	options o;
	outputs out;
	lsv_data *x;
	lsv_model *m, *from = NULL;
	lsv_train_report rep;
	lsv_train_progress progress = {NULL, NULL, NULL};
	lsv_error err;
	lsv_graph **gs;
	char **descs;
	size_t chosen = 0, j;
	double *K = NULL;
	int *fold = NULL;

	tool_init(argv[0]);
	tool_comm_start(&argc, &argv);
	parse_options(argc, argv, &o);
	if (tool_nproc > 1) {
		check_distributed(&o);
		o.p.comm = tool_comm;
	}
	x = open_all(&o, &out);
	if (o.from_file != NULL) {  /* one process only: check_distributed */
		if (lsv_model_read_path(o.from_file, &from, &err) != LSV_OK)
			tool_die_err(&err);
		o.p.init = from;
	}
	settle_params(&o, x, &progress);
	if (o.folds > 0)
		fold = grid_prepare(&o, x);
	read_graphs(&o, x, &gs, &descs);
	if (o.folds > 0)  /* o.p becomes the best setting */
		chosen = grid_search(&o, x, gs, &progress, fold, &K);
	if (o.p.solver == LSV_SOLVER_COMBINE)
		train_combination(&o, x, gs, descs, &progress, &m, &rep);
	else
		m = fit(&o, x, gs[chosen], descs[chosen], K, &progress, &rep);
	free(K);
	describe_rows(&o, x);
	report(&o.p, m, &rep);
	/* the RBF kernel's distances (and those of a graph built here); a
	 * rank under mpirun may hold its block of rows only */
	if (o.p.kernel.type == LSV_KERNEL_RBF && tool_nproc == 1 &&
	    !(o.p.solver == LSV_SOLVER_BOOST &&
	      o.p.boost_learner == LSV_BOOST_TREE))
		tool_scale_warning(x);
	if (clustering(&o.p) && !tool_quiet)
		cluster_report(x, m, &rep);
	if (o.p.solver == LSV_SOLVER_COMBINE)
		report_combination(&o, m, &rep);
	write_all(&out, &o, x, m, &rep);
	lsv_train_report_free(&rep);
	lsv_model_free(m);
	lsv_model_free(from);
	for (j = 0; j < o.Gl.n; j++) {
		lsv_graph_free(gs[j]);
		free(descs[j]);
	}
	free(gs);
	free(descs);
	free(fold);
	lsv_data_free(x);
	options_free(&o);
	return tool_done();
}
