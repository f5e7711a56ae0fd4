/*
 * train.c -- the training driver: parameters, the table of methods, and
 * lsv_train, which picks one row of the table and runs it.
 *
 * Every row minimizes JMLR 2006 eq. 4 (or, for the TSVM, Joachims'
 * objective) with one solver file; common/solver.h says what a solver is
 * handed and how gamma_A and gamma_I become each objective's constants.
 * The driver does what every row needs, once: it checks the parameters
 * and the memory the row will take (before allocating), finds the classes
 * and the one-vs-rest targets, computes the n x n kernel for the rows that
 * use it, builds the Laplacian operator L^p (NULL when gamma_I = 0), calls
 * the row's fit function, and makes the model and the report.
 *
 * RLS and the SVM (gamma_I = 0) give the unlabeled rows no term in eq. 4,
 * so their coefficients are 0: the rows marked labeled_only then train on
 * the labeled rows alone, with no n x n kernel.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "blas.h"
#include "solver.h"

void *lsv_alloc(size_t count, size_t size)
{
	/* as calloc: a product past SIZE_MAX is no request, not the small
	 * block its wrapped value would give */
	if (size != 0 && count > SIZE_MAX / size)
		return NULL;
	return malloc((count ? count : 1) * size);
}

/* ------------------------------------------------------------------ */
/* The table of methods                                                */
/* ------------------------------------------------------------------ */

/* Doubles a row's dense arrays take, for n rows (the memory check). */
static double mem_krows(const lsv_train_param *p, double n)
{
	/* the kernel; over P processes each holds its block of rows of it,
	 * at most 16 ceil(g / P) rows (g = ceil(n / 16): lsv_comm_block) */
	double P = p->comm != NULL ? (double)lsv_comm_size(p->comm) : 1.0;
	return P > 1.0 ? n * fmin(n, 16.0 * ceil(ceil(n / 16.0) / P)) : n * n;
}

/* the kernel, and with a graph the n x n system beside it */
static double mem_nn_system(const lsv_train_param *p, double n)
{
	return n * n * (p->gamma_I > 0.0 ? 2 : 1);
}

/* the kernel and the TSVM's Q */
static double mem_2nn(const lsv_train_param *p, double n)
{
	(void)p;
	return 2 * n * n;
}

/* the kernel, cI L^p K and the Newton system */
static double mem_3nn(const lsv_train_param *p, double n)
{
	(void)p;
	return 3 * n * n;
}

/* dsyevd's workspace for every eigenpair of an n x n matrix: 1 + 6n +
 * 2n^2 doubles and 3 + 5n ints (half a double each) */
static double mem_dsyevd(double n)
{
	return 1.0 + 6.0 * n + 2.0 * n * n + (3.0 + 5.0 * n) / 2.0;
}

/* clustering (cluster.c): the kernel and its eigenvectors (n x n each)
 * throughout; beside them first dsyevd's workspace on K, then C (r x r,
 * r <= n) and lsv_eig_extreme on it for c pairs (its copy of C and, on
 * its fallback, dsyevd's workspace: 3 n^2), with the n x c solutions and
 * their r x c coordinates (4 n c at most) */
static double mem_cluster(const lsv_train_param *p, double n)
{
	double c = (double)p->clusters;
	double pairs = n * n + lsv_eig_extreme_doubles(n, c) + 4.0 * n * c;
	return 2.0 * n * n + fmax(mem_dsyevd(n), pairs);
}

/* The eigenvectors labelaware and kdesign take (lsv_basis_size), at
 * most n: more is refused by the solver, after this check. */
static double learned_k(const lsv_train_param *p, double n)
{
	return fmin((double)lsv_basis_size(p, (size_t)n), n);
}

/* labelaware (labelaware.c): the kernel, K_nl (n x l, l <= n: at most
 * n x n), the dense Laplacian with -J laplacian, the k base vectors
 * (n x k) and lsv_eig_extreme on K or the Laplacian (its copy and, on its
 * fallback, dsyevd's workspace); the SVM's l x l arrays come after the
 * eigensolver has freed its own */
static double mem_labelaware(const lsv_train_param *p, double n)
{
	double k = learned_k(p, n);
	double lap = p->la_basis == LSV_LA_LAPLACIAN ? n * n : 0.0;
	return 2.0 * n * n + lap + n * k + lsv_eig_extreme_doubles(n, k);
}

/* kdesign (kdesign.c): the kernel, the matrix whose eigenvectors are
 * taken when it is not K itself (-J cluster: D^-1/2 K D^-1/2; diffusion
 * and spectral: the dense normalized Laplacian), the k eigenvectors
 * (n x k) and lsv_eig_extreme (its copy and, on its fallback, dsyevd's
 * workspace); the SVM's l x l arrays come after it has freed its own */
static double mem_kdesign(const lsv_train_param *p, double n)
{
	double k = learned_k(p, n);
	double own = p->kdesign == LSV_KDESIGN_MAXALIGN ? 0.0 : n * n;
	return n * n + own + n * k + lsv_eig_extreme_doubles(n, k);
}

/* Nystrom: K_nm, the features and L^p times them, m x m matrices; the
 * linear map holds no dense n-sized array.  Over P processes each holds
 * its n/P rows of the first three (and slices of at most 8M doubles). */
static double mem_map(const lsv_train_param *p, double n)
{
	double m = p->landmarks < n ? (double)p->landmarks : n;
	double P = p->comm != NULL ? (double)lsv_comm_size(p->comm) : 1.0;
	if (p->landmarks <= 0)
		return 0.0;
	return P > 1.0 ? 2.0 * n * m / P + 2.0 * (8 << 20) + 5.0 * m * m
		       : 3.0 * n * m + 5.0 * m * m;
}

/* boost: the binned n x d features (bytes, counted as doubles / 8) and
 * a few arrays of n; no kernel */
static double mem_boost(const lsv_train_param *p, double n)
{
	(void)p;
	return 12.0 * n;
}

typedef struct {
	lsv_solver solver;
	lsv_method method;
	int map;            /* on a feature map (Nystrom landmarks, or the
			       linear kernel's data): no n x n kernel */
	const char *name;   /* for the report */
	int graph;          /* has a gamma_I f'Lf term */
	int labeled_only;   /* at gamma_I = 0, trains on the labeled rows */
	double (*mem)(const lsv_train_param *p, double n);
	const char *mem_what;
	lsv_fit_fn fit;
	int exact;          /* solves eq. 4 exactly on the n x n kernel, with
			       the labeled rows alone at gamma_I = 0: its graph
			       term folds into a deformed kernel (common/cv.c) */
} method_row;

static const method_row methods[] = {
	{LSV_SOLVER_LAPSVM, LSV_METHOD_DIRECT, 0, "lapsvm direct (dual, SMO)",
	 1, 1, mem_nn_system, "the n x n kernel and system matrices",
	 lsv_fit_lapsvm_dual, 1},
	{LSV_SOLVER_LAPSVM, LSV_METHOD_PCG, 0, "lapsvm pcg (primal Newton, PCG)",
	 1, 1, mem_krows, "the n x n kernel matrix", lsv_fit_lapsvm_primal, 0},
	{LSV_SOLVER_LAPSVM, LSV_METHOD_PCG_EARLY, 0,
	 "lapsvm pcg-early (primal Newton, PCG, early stopping)",
	 1, 1, mem_krows, "the n x n kernel matrix", lsv_fit_lapsvm_primal, 0},
	{LSV_SOLVER_LAPSVM, LSV_METHOD_NEWTON, 0, "lapsvm newton (primal, LU)",
	 1, 0, mem_3nn, "the n x n kernel and system matrices",
	 lsv_fit_lapsvm_primal, 0},
	{LSV_SOLVER_LAPSVM, LSV_METHOD_NEWTON, 1,
	 "lapsvm newton (primal, feature map)",
	 1, 0, mem_map, "the Nystrom features", lsv_fit_feature_map, 0},
	{LSV_SOLVER_LAPRLS, LSV_METHOD_DIRECT, 0, "laprls direct (LU of eq. 8)",
	 1, 1, mem_nn_system, "the n x n kernel and system matrices",
	 lsv_fit_laprls_direct, 1},
	{LSV_SOLVER_LAPRLS, LSV_METHOD_PCG, 0, "laprls pcg (primal PCG)",
	 1, 1, mem_krows, "the n x n kernel matrix", lsv_fit_laprls_pcg, 0},
	{LSV_SOLVER_LAPRLS, LSV_METHOD_PCG_EARLY, 0,
	 "laprls pcg-early (primal PCG, early stopping)",
	 1, 1, mem_krows, "the n x n kernel matrix", lsv_fit_laprls_pcg, 0},
	/* the squared loss's Newton step is the LU of eq. 8 */
	{LSV_SOLVER_LAPRLS, LSV_METHOD_NEWTON, 0,
	 "laprls newton (one step: the LU of eq. 8)",
	 1, 0, mem_nn_system, "the n x n kernel and system matrices",
	 lsv_fit_laprls_direct, 1},
	{LSV_SOLVER_LAPRLS, LSV_METHOD_NEWTON, 1,
	 "laprls newton (primal, feature map)",
	 1, 0, mem_map, "the Nystrom features", lsv_fit_feature_map, 0},
	{LSV_SOLVER_TSVM, LSV_METHOD_DIRECT, 0, "tsvm (label switching, SMO)",
	 0, 0, mem_2nn, "the n x n kernel and system matrices", lsv_fit_tsvm, 0},
	{LSV_SOLVER_CLUSTER, LSV_METHOD_DIRECT, 0,
	 "cluster direct (eigenvectors of K, then of the constrained problem)",
	 1, 0, mem_cluster, "the n x n kernel and its eigenvectors",
	 lsv_fit_cluster, 0},
	{LSV_SOLVER_CLUSTER, LSV_METHOD_NEWTON, 1,
	 "cluster (Nystrom features)",
	 1, 0, mem_map, "the Nystrom features", lsv_fit_cluster, 0},
	/* the memory of the kernels of the graphs is checked by the solver,
	 * which knows their number; the row's is the extension's (LapRLS or
	 * LapSVM direct on the ambient kernel) */
	{LSV_SOLVER_COMBINE, LSV_METHOD_DIRECT, 0,
	 "combine (Argyriou et al. Figure 1, argmax; extension on sum lambda_q L_q)",
	 1, 0, mem_nn_system, "the n x n kernel and system matrices",
	 lsv_fit_combine, 0},
	{LSV_SOLVER_COMBINE, LSV_METHOD_RANDOM, 0,
	 "combine (Argyriou et al. Figure 1, first improving kernel in a random "
	 "order; extension on sum lambda_q L_q)",
	 1, 0, mem_nn_system, "the n x n kernel and system matrices",
	 lsv_fit_combine, 0},
	{LSV_SOLVER_LABELAWARE, LSV_METHOD_DIRECT, 0,
	 "labelaware (label-aware vectors and kernel eigenvectors, alignf, "
	 "SVM by SMO on the learned kernel)",
	 0, 0, mem_labelaware, "the n x n kernel, its eigenvectors and the "
	 "eigensolver's scratch", lsv_fit_labelaware, 0},
	/* -N m: the kernel's eigenvectors from m Nystrom landmarks, memory
	 * O(n m) (K_nl and the base vectors are checked by the solver) */
	{LSV_SOLVER_LABELAWARE, LSV_METHOD_DIRECT, 1,
	 "labelaware with landmarks (Nystrom eigenvectors, alignf, SVM by SMO "
	 "on the learned kernel)",
	 0, 0, mem_map, "the Nystrom features", lsv_fit_labelaware, 0},
	/* no kernel (map 1: the driver computes none); the trees' own memory
	 * (n x d bins) is checked by the solver, which knows d */
	{LSV_SOLVER_BOOST, LSV_METHOD_DIRECT, 1,
	 "boost (ManifoldBoost, regression trees, Loeff et al. Algorithm 1)",
	 1, 0, mem_boost, "the boosting arrays", lsv_fit_boost, 0},
	/* the designs of Wang et al.'s Table 1: the graph (F->graph) is the
	 * Laplacian designs' own, not a gamma_I term */
	{LSV_SOLVER_KDESIGN, LSV_METHOD_DIRECT, 0,
	 "kdesign (a kernel from k eigenvectors of the n rows, SVM by SMO on it; "
	 "transductive)",
	 0, 0, mem_kdesign, "the n x n kernel, its eigenvectors and the "
	 "eigensolver's scratch", lsv_fit_kdesign, 0},
};

#define NMETHODS (sizeof methods / sizeof *methods)

/* The rows that split their rows over the ranks of p->comm: Newton on a
 * feature map (primal.c: the rows of Phi) and PCG on the kernel (pcg.c:
 * the rows of K, lsv_krows). */
static int distributed(const method_row *row)
{
	return (row->map && row->fit == lsv_fit_feature_map) ||
	       (!row->map && (row->method == LSV_METHOD_PCG ||
			      row->method == LSV_METHOD_PCG_EARLY) &&
		(row->fit == lsv_fit_laprls_pcg ||
		 row->fit == lsv_fit_lapsvm_primal));
}

/* A feature map is asked for by landmarks, or by Newton on the linear
 * kernel (the data themselves). */
static int wants_map(const lsv_train_param *p)
{
	if (p->solver == LSV_SOLVER_BOOST)  /* no kernel at all */
		return 1;
	return p->landmarks > 0 ||
	       (p->method == LSV_METHOD_NEWTON &&
		p->kernel.type == LSV_KERNEL_LINEAR);
}

/* The row for p, or NULL with a message listing the rows of p's solver
 * (the one the user chose; the other solvers' rows would only bury the
 * answer). */
static const method_row *find_method(const lsv_train_param *p,
				     lsv_error *err)
{
	int map = wants_map(p);
	char list[512];
	size_t i, len = 0;

	for (i = 0; i < NMETHODS; i++)
		if (methods[i].solver == p->solver &&
		    methods[i].method == p->method && methods[i].map == map)
			return &methods[i];
	list[0] = '\0';
	for (i = 0; i < NMETHODS; i++) {
		int w;
		if (methods[i].solver != p->solver)
			continue;
		w = snprintf(list + len, sizeof list - len, "%s%s%s",
			     len ? ", " : "", lsv_method_name(methods[i].method),
			     methods[i].map && methods[i].solver != LSV_SOLVER_BOOST
			     ? " with landmarks" : "");
		if (w < 0 || (size_t)w >= sizeof list - len)
			break;
		len += (size_t)w;
	}
	lsv_fail(err, LSV_EINVAL, "no training method %s %s%s (the methods of %s: %s)",
		 lsv_solver_name(p->solver), lsv_method_name(p->method),
		 p->landmarks > 0 ? " with landmarks" : "",
		 lsv_solver_name(p->solver), list);
	return NULL;
}

int lsv_train_distributed(const lsv_train_param *p)
{
	const method_row *row = find_method(p, NULL);
	return row == NULL ? -1 : distributed(row);
}

lsv_fit_fn lsv_method_exact_fit(const lsv_train_param *p)
{
	lsv_error err;
	const method_row *row = find_method(p, &err);
	return row != NULL && row->exact ? row->fit : NULL;
}

double lsv_fit_ambient(const lsv_fit *F, double a)
{
	return a * F->p->gamma_A;
}

double lsv_fit_intrinsic(const lsv_fit *F, double a)
{
	return a * F->p->gamma_I / ((double)F->n * (double)F->n);
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

void lsv_train_param_default(lsv_train_param *p)
{
	memset(p, 0, sizeof *p);
	p->solver = LSV_SOLVER_LAPSVM;
	p->method = LSV_METHOD_DIRECT;
	p->kernel.type = LSV_KERNEL_RBF;
	p->kernel.degree = 3;
	p->kernel.gamma = 0.0;  /* 0: 1/(number of features), as LIBSVM */
	p->kernel.coef0 = 0.0;
	p->gamma_A = 1e-3;
	p->gamma_I = 1e-2;
	p->normalized = 1;
	p->power = 1;
	p->eps = 1e-3;
	p->max_iter = 0;
	p->tsvm_cstar = 0.0;
	p->tsvm_r = 0.0;
	p->tsvm_max_switches = 0;
	p->balance = LSV_BALANCE_NONE;
	p->balance_r = 0.0;
	p->pcg_tol = 1e-6;
	p->pcg_max_iter = 0;
	p->landmarks = 0;
	p->seed = 1;
	p->mem_limit = 0.0;
	p->clusters = 2;
	p->combine_mu = 0.0;
	p->combine_steps = 100;
	p->combine_rank = 0;
	p->combine_ext = LSV_SOLVER_LAPRLS;
	p->cluster_unit = 1;
	p->cluster_restarts = 10;
	p->boost_rounds = 100;
	p->boost_depth = 3;
	p->boost_shrinkage = 0.1;
	p->boost_tol = 1e-6;
	p->boost_learner = LSV_BOOST_TREE;
	p->boost_rbfs = 15;
	p->boost_clusters = 0;
	p->boost_init = LSV_BOOST_INIT_RANDOM;
}

/* The parameter checks, in lsv_train_param_check's order: each group
 * returns the first error it finds, so the first error of any p is the
 * same whatever else is wrong with it. */

/* The solver and the method named, and, over several processes
 * (p->comm), a method that splits its rows among them. */
static lsv_status param_method(const lsv_train_param *p, lsv_error *err)
{
	if (lsv_solver_name(p->solver) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown solver %d", (int)p->solver);
	if (lsv_method_name(p->method) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown method %d", (int)p->method);
	if (p->comm != NULL && lsv_comm_size(p->comm) > 1 &&
	    lsv_train_distributed(p) == 0)
		return lsv_fail(err, LSV_EINVAL,
				"%s -M %s is not distributed: on %d processes "
				"train LapRLS or LapSVM by Newton on a feature map "
				"(-M newton -N m, or -M newton with the linear "
				"kernel) or by PCG on the kernel (-M pcg or "
				"pcg-early), or run on one process",
				lsv_solver_name(p->solver), lsv_method_name(p->method),
				lsv_comm_size(p->comm));
	return LSV_OK;
}

/* The kernel's parameters; gamma 0 is valid, resolved from the data at
 * training time (default_gamma), so 1 stands in for it here. */
static lsv_status param_kernel(const lsv_train_param *p, lsv_error *err)
{
	lsv_kernel k = p->kernel;

	if (k.gamma == 0.0)
		k.gamma = 1.0;  /* resolved from the data at training time */
	if (lsv_kernel_check(&k, err) != LSV_OK)
		return LSV_EINVAL;
	return LSV_OK;
}

/* The weights of eq. 4's two terms and the Laplacian's power. */
static lsv_status param_regularization(const lsv_train_param *p,
				       lsv_error *err)
{
	if (!(p->gamma_A > 0.0) || !isfinite(p->gamma_A))
		return lsv_fail(err, LSV_EINVAL,
				"gamma_A = %g out of range (expected > 0)", p->gamma_A);
	if (!(p->gamma_I >= 0.0) || !isfinite(p->gamma_I))
		return lsv_fail(err, LSV_EINVAL,
				"gamma_I = %g out of range (expected >= 0)", p->gamma_I);
	if (p->power < 1 || p->power > 100)
		return lsv_fail(err, LSV_EINVAL,
				"Laplacian power %d out of range (expected 1..100)",
				p->power);
	return LSV_OK;
}

/* The options that stand alone, each in its own range whatever the
 * solver (a solver ignores those that are not its own): the dual's
 * tolerance and cap, the TSVM's cost and fraction, the balance, PCG's
 * tolerance and cap, the seed, the landmarks, the memory limit and the
 * TSVM's switch cap. */
static lsv_status param_ranges(const lsv_train_param *p, lsv_error *err)
{
	if (!(p->eps > 0.0) || !isfinite(p->eps))
		return lsv_fail(err, LSV_EINVAL,
				"tolerance eps = %g out of range (expected > 0)", p->eps);
	if (p->max_iter < 0)
		return lsv_fail(err, LSV_EINVAL, "max_iter must be >= 0");
	if (!(p->tsvm_cstar >= 0.0) || !isfinite(p->tsvm_cstar))
		return lsv_fail(err, LSV_EINVAL,
				"TSVM cost C* = %g out of range (expected > 0, or 0 "
				"for C)", p->tsvm_cstar);
	if (!(p->tsvm_r >= 0.0 && p->tsvm_r < 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"TSVM positive fraction r = %g out of range (expected "
				"0 < r < 1, or 0 for the labeled ratio)", p->tsvm_r);
	if (p->balance != LSV_BALANCE_NONE && p->balance != LSV_BALANCE_LABELED &&
	    p->balance != LSV_BALANCE_GIVEN)
		return lsv_fail(err, LSV_EINVAL, "unknown balance mode %d",
				(int)p->balance);
	if (p->balance == LSV_BALANCE_GIVEN &&
	    !(p->balance_r > 0.0 && p->balance_r < 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"positive fraction r = %g out of range (expected "
				"0 < r < 1)", p->balance_r);
	if (!(p->pcg_tol > 0.0 && p->pcg_tol < 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"PCG tolerance %g out of range (expected 0 < tol < 1)",
				p->pcg_tol);
	if (p->pcg_max_iter < 0)
		return lsv_fail(err, LSV_EINVAL, "PCG iteration cap must be >= 0");
	if (p->seed > (unsigned long long)LONG_MAX)
		return lsv_fail(err, LSV_EINVAL,
				"seed %llu out of range (expected 0..%ld)", p->seed,
				LONG_MAX);
	if (p->landmarks < 0)
		return lsv_fail(err, LSV_EINVAL,
				"landmarks = %ld out of range (expected >= 0)",
				p->landmarks);
	if (!(p->mem_limit >= 0.0) || !isfinite(p->mem_limit))
		return lsv_fail(err, LSV_EINVAL,
				"memory limit %g out of range (expected >= 0)",
				p->mem_limit);
	if (p->tsvm_max_switches < 0)
		return lsv_fail(err, LSV_EINVAL,
				"TSVM switch cap must be >= 0 (0: none)");
	return LSV_OK;
}

/* The combination's options, and the options it cannot take: a
 * Laplacian power (its kernels are pinv(L_q)), class-dependent
 * Laplacians, a balance shift; declared classes are its alone. */
static lsv_status param_combine(const lsv_train_param *p, lsv_error *err)
{
	if (!(p->combine_mu >= 0.0) || !isfinite(p->combine_mu))
		return lsv_fail(err, LSV_EINVAL,
				"combination mu = %g out of range (expected > 0, or 0 "
				"for l * 1e-5)", p->combine_mu);
	if (p->combine_steps < 0)
		return lsv_fail(err, LSV_EINVAL,
				"combination step cap %ld out of range (expected >= 0)",
				p->combine_steps);
	if (p->combine_rank < 0)
		return lsv_fail(err, LSV_EINVAL,
				"combination eigenpairs r = %ld out of range "
				"(expected >= 0, 0 for automatic)", p->combine_rank);
	if (p->combine_ext != LSV_SOLVER_LAPRLS &&
	    p->combine_ext != LSV_SOLVER_LAPSVM)
		return lsv_fail(err, LSV_EINVAL,
				"the combination's model for new points is laprls or "
				"lapsvm, not %s", lsv_solver_name(p->combine_ext)
				? lsv_solver_name(p->combine_ext) : "unknown");
	if (p->solver == LSV_SOLVER_COMBINE && p->power != 1)
		return lsv_fail(err, LSV_EINVAL,
				"Laplacian power %d with the combination (expected 1: "
				"its kernels are pinv(L_q) and its Laplacian sum_q "
				"lambda_q L_q)", p->power);
	if (p->combine_two && p->solver != LSV_SOLVER_COMBINE)
		return lsv_fail(err, LSV_EINVAL,
				"declared classes are for the combination (-s "
				"combine): the other solvers need labeled rows of "
				"every class");
	if (p->combine_two &&
	    (!isfinite(p->combine_labels[0]) || !isfinite(p->combine_labels[1]) ||
	     p->combine_labels[0] == p->combine_labels[1]))
		return lsv_fail(err, LSV_EINVAL,
				"the two classes declared (%g and %g) must be "
				"distinct finite labels", p->combine_labels[0],
				p->combine_labels[1]);
	if (p->solver == LSV_SOLVER_COMBINE && p->class_graph)
		return lsv_fail(err, LSV_EINVAL,
				"class-dependent Laplacians with the combination (its "
				"kernels are the graphs' own)");
	if (p->solver == LSV_SOLVER_COMBINE && p->balance != LSV_BALANCE_NONE)
		return lsv_fail(err, LSV_EINVAL,
				"a balance shift with the combination (its transductive "
				"values and its model's differ, so one shift cannot fit "
				"both)");
	return LSV_OK;
}

/* The learned kernels' options (labelaware, kdesign): the number of
 * eigenvectors, where they come from, the design and its delta, each
 * refused for the solvers it is not for. */
static lsv_status param_learned_kernels(const lsv_train_param *p,
					lsv_error *err)
{
	if (p->la_k < 0)
		return lsv_fail(err, LSV_EINVAL,
				"%ld kernel eigenvectors out of range (expected >= 1, "
				"or 0 for n/10)", p->la_k);
	if (p->la_k > 0 && p->solver != LSV_SOLVER_LABELAWARE &&
	    p->solver != LSV_SOLVER_KDESIGN)
		return lsv_fail(err, LSV_EINVAL,
				"a number of eigenvectors is for the learned kernels "
				"(-s labelaware, -s kdesign)");
	if (p->la_basis != LSV_LA_KERNEL && p->la_basis != LSV_LA_LAPLACIAN)
		return lsv_fail(err, LSV_EINVAL, "unknown label-aware "
				"eigenvectors %d", (int)p->la_basis);
	if (p->la_basis != LSV_LA_KERNEL && p->solver != LSV_SOLVER_LABELAWARE)
		return lsv_fail(err, LSV_EINVAL, "Laplacian eigenvectors instead "
				"of the kernel's are for -s labelaware");
	if (lsv_name_of(lsv_lap_graph_names, (int)p->lap_graph) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown Laplacian weights %d "
				"(expected kernel or graph)", (int)p->lap_graph);
	if (lsv_name_of(lsv_kdesign_names, (int)p->kdesign) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown kernel design %d",
				(int)p->kdesign);
	if (!(p->kd_delta >= 0.0) || !isfinite(p->kd_delta))
		return lsv_fail(err, LSV_EINVAL, "diffusion delta = %g out of "
				"range (expected > 0, or 0 for the median "
				"eigenvalue)", p->kd_delta);
	if (p->kd_delta > 0.0 && (p->solver != LSV_SOLVER_KDESIGN ||
				  p->kdesign != LSV_KDESIGN_DIFFUSION))
		return lsv_fail(err, LSV_EINVAL, "delta is the diffusion "
				"kernel's (-s kdesign -J diffusion)");
	return LSV_OK;
}

/* ManifoldBoost's options; with another solver, only that the options
 * boosting alone reads (its clusters and their spectral start) are not
 * set. */
static lsv_status param_boost(const lsv_train_param *p, lsv_error *err)
{
	if (p->solver != LSV_SOLVER_BOOST) {
		if (p->boost_init != LSV_BOOST_INIT_RANDOM)
			return lsv_fail(err, LSV_EINVAL, "a spectral start is for "
					"clustering by boosting (-s boost)");
		if (p->boost_clusters != 0)
			return lsv_fail(err, LSV_EINVAL, "a number of boosting "
					"clusters is for -s boost");
		return LSV_OK;
	}
	if (p->boost_rounds < 1 || p->boost_rounds > LSV_BOOST_MAX_ROUNDS)
		return lsv_fail(err, LSV_EINVAL, "boosting rounds %ld out "
				"of range (expected 1..%d)", p->boost_rounds,
				LSV_BOOST_MAX_ROUNDS);
	if (p->boost_depth < 1 || p->boost_depth > LSV_BOOST_MAX_DEPTH)
		return lsv_fail(err, LSV_EINVAL, "tree depth %d out of "
				"range (expected 1..%d; 1: stumps)",
				p->boost_depth, LSV_BOOST_MAX_DEPTH);
	if (!(p->boost_shrinkage > 0.0 && p->boost_shrinkage <= 1.0))
		return lsv_fail(err, LSV_EINVAL, "shrinkage %g out of "
				"range (expected 0 < nu <= 1)",
				p->boost_shrinkage);
	if (!(p->boost_tol >= 0.0) || !isfinite(p->boost_tol))
		return lsv_fail(err, LSV_EINVAL, "relative cost change "
				"%g out of range (expected >= 0; 0: run every "
				"round)", p->boost_tol);
	if (p->class_graph)
		return lsv_fail(err, LSV_EINVAL, "class-dependent "
				"Laplacians with boosting (not implemented)");
	if (lsv_name_of(lsv_boost_learner_names, p->boost_learner) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown base learner %d",
				p->boost_learner);
	if (p->boost_rbfs < 1 || p->boost_rbfs > LSV_BOOST_MAX_RBFS)
		return lsv_fail(err, LSV_EINVAL, "%d RBFs per round out of "
				"range (expected 1..%d)", p->boost_rbfs,
				LSV_BOOST_MAX_RBFS);
	if (p->boost_learner == LSV_BOOST_RBF &&
	    p->kernel.type != LSV_KERNEL_RBF)
		return lsv_fail(err, LSV_EINVAL, "the RBF base learner "
				"needs the RBF kernel (its width is -g)");
	/* trees split the feature columns: a precomputed kernel's rows have
	 * none (and their serial numbers are no feature), and any other
	 * kernel would be recorded but never used */
	if (p->kernel.type != LSV_KERNEL_RBF)
		return lsv_fail(err, LSV_EINVAL, "boosting's trees split "
				"the features: no kernel applies (the %s "
				"kernel was asked for)",
				lsv_kernel_name(p->kernel.type)
				? lsv_kernel_name(p->kernel.type) : "unknown");
	if (p->landmarks > 0)
		return lsv_fail(err, LSV_EINVAL, "boosting fits its base "
				"learners to the features themselves: "
				"Nystrom landmarks (-N) do not apply");
	if (p->boost_clusters == 1 || p->boost_clusters < 0)
		return lsv_fail(err, LSV_EINVAL, "%d clusters out of range "
				"(expected at least 2)", p->boost_clusters);
	if (p->boost_clusters > 0 && !(p->gamma_I > 0.0))
		return lsv_fail(err, LSV_EINVAL, "clustering by boosting "
				"needs gamma_I > 0 (the graph is all it has)");
	if (p->boost_init != LSV_BOOST_INIT_RANDOM &&
	    (p->boost_init != LSV_BOOST_INIT_SPECTRAL ||
	     p->boost_clusters == 0))
		return lsv_fail(err, LSV_EINVAL, "a spectral start is for "
				"clustering by boosting (boost_clusters)");
	if (p->boost_clusters > 0 && p->balance != LSV_BALANCE_NONE)
		return lsv_fail(err, LSV_EINVAL, "a positive fraction is "
				"for classifiers, not for clustering");
	return LSV_OK;
}

/* Spectral clustering's options; its objective has no loss, so it needs
 * the graph term, and no fraction of positives applies. */
static lsv_status param_cluster(const lsv_train_param *p, lsv_error *err)
{
	if (p->solver != LSV_SOLVER_CLUSTER)
		return LSV_OK;
	if (p->clusters < 2)
		return lsv_fail(err, LSV_EINVAL, "%d clusters out of range "
				"(expected at least 2)", p->clusters);
	if (p->cluster_restarts < 1)
		return lsv_fail(err, LSV_EINVAL, "%d k-means restarts out "
				"of range (expected at least 1)",
				p->cluster_restarts);
	if (!(p->gamma_I > 0.0))
		return lsv_fail(err, LSV_EINVAL,
				"clustering needs gamma_I > 0 (only gamma_A / "
				"gamma_I matters; the graph is all it has)");
	if (p->balance != LSV_BALANCE_NONE)
		return lsv_fail(err, LSV_EINVAL,
				"a positive fraction is for classifiers, not "
				"for clustering");
	return LSV_OK;
}

lsv_status lsv_train_param_check(const lsv_train_param *p, lsv_error *err)
{
	lsv_status st;

	if ((st = param_method(p, err)) != LSV_OK ||
	    (st = param_kernel(p, err)) != LSV_OK ||
	    (st = param_regularization(p, err)) != LSV_OK ||
	    (st = param_ranges(p, err)) != LSV_OK)
		return st;
	if (p->solver == LSV_SOLVER_CLUSTER && p->method == LSV_METHOD_NEWTON &&
	    p->landmarks == 0)
		return lsv_fail(err, LSV_EINVAL,
				"clustering on a feature map needs landmarks "
				"(-M newton -N m)");
	if (lsv_class_weights_check(p, err) != LSV_OK)
		return LSV_EINVAL;
	if ((st = param_combine(p, err)) != LSV_OK ||
	    (st = param_learned_kernels(p, err)) != LSV_OK)
		return st;
	/* the method table has a row for p (the message lists the rows) */
	if (find_method(p, err) == NULL)
		return LSV_EINVAL;
	if ((st = param_boost(p, err)) != LSV_OK ||
	    (st = param_cluster(p, err)) != LSV_OK)
		return st;
	return LSV_OK;
}

/*
 * Refuse, before allocating, count doubles that would not fit: over the
 * caller's limit (mem_limit), else over the physical memory or the
 * address-space limit (ulimit -v), whichever is smaller.  The message
 * names the size, the limit and what to do instead (hint).
 */
/* bytes in GB, MB or kB with 3 significant digits or so: -m 1 is
 * "1.00 MB", not "0.00 GB". */
static const char *size_text(double bytes, char *buf, size_t size)
{
	if (bytes >= 1e9)
		snprintf(buf, size, "%.2f GB", bytes / 1e9);
	else if (bytes >= 1e6)
		snprintf(buf, size, "%.2f MB", bytes / 1e6);
	else
		snprintf(buf, size, "%.2f kB", bytes / 1e3);
	return buf;
}

lsv_status lsv_check_bytes(const lsv_train_param *p, double count,
			   const char *what, const char *hint, lsv_error *err)
{
	double bytes = count * (double)sizeof(double), limit;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	const char *whose = "the machine's memory";
	struct rlimit rl;

	limit = pages > 0 && psize > 0 ? (double)pages * (double)psize : 0.0;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (limit == 0.0 || (double)rl.rlim_cur < limit)) {
		limit = (double)rl.rlim_cur;
		whose = "the address-space limit (ulimit -v)";
	}
	if (p->mem_limit > 0.0) {
		limit = p->mem_limit;
		whose = "the memory limit (-m)";
	}
	if (count > (double)SIZE_MAX / sizeof(double) ||
	    (limit > 0.0 && bytes > limit)) {
		char need[32], have[32];
		return lsv_fail(err, LSV_ETOOBIG, "%s would need %s, over %s of %s; %s",
				what, size_text(bytes, need, sizeof need), whose,
				size_text(limit, have, sizeof have), hint);
	}
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Classes                                                             */
/* ------------------------------------------------------------------ */

lsv_status lsv_fit_classes(const double *y, size_t count,
			   const double *order, int nr_order, double **labels,
			   int *nr, lsv_error *err)
{
	size_t i, cap = 0;
	int k, j, m = 0, done = 0;
	double *lab = NULL;

	for (i = 0; i < count; i++) {
		for (k = 0; k < m; k++)
			if (lab[k] == y[i])
				break;
		if (k < m)
			continue;
		if (lsv_grow((void **)&lab, &cap, (size_t)m + 1, sizeof *lab)) {
			free(lab);
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		}
		lab[m++] = y[i];
	}
	if (m == 2 && lab[0] == -1.0 && lab[1] == 1.0) {
		lab[0] = 1.0;
		lab[1] = -1.0;
	}
	/* order's classes first, in its order, each moved up past the rest
	 * (which keep theirs) */
	for (j = 0; order != NULL && j < nr_order; j++)
		for (k = done; k < m; k++)
			if (lab[k] == order[j]) {
				double t = lab[k];
				memmove(lab + done + 1, lab + done,
					(size_t)(k - done) * sizeof *lab);
				lab[done++] = t;
				break;
			}
	*labels = lab;
	*nr = m;
	return LSV_OK;
}

/* The classes of the labeled rows of x (lsv_fit_classes), in p's
 * class_order when it gives one. */
static lsv_status find_classes(const lsv_data *x, const lsv_train_param *p,
			       double **labels, int *nr, lsv_error *err)
{
	double *y = lsv_alloc(x->l, sizeof *y);
	size_t i, l = 0;
	lsv_status st;

	if (y == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i) && l < x->l)
			y[l++] = x->y[i];
	st = lsv_fit_classes(y, l, p->class_order, p->class_order_n, labels, nr,
			     err);
	free(y);
	return st;
}

/* The labels of c clusters, 1..c (the caller frees *labels); refused
 * when they would include the unlabeled marker, or c > n. */
static lsv_status cluster_labels(const lsv_data *x, const lsv_train_param *p,
				 double **labels, lsv_error *err)
{
	int c = p->clusters, q;

	if ((size_t)c > x->n)
		return lsv_fail(err, LSV_EINVAL, "%d clusters but only %zu rows "
				"(expected 2..%zu clusters)", c, x->n, x->n);
	if (x->unlabeled >= 1.0 && x->unlabeled <= (double)c &&
	    x->unlabeled == floor(x->unlabeled))
		return lsv_fail(err, LSV_EINVAL, "the unlabeled marker %g is one "
				"of the cluster labels 1..%d (choose another)",
				x->unlabeled, c);
	if ((*labels = lsv_alloc((size_t)c, sizeof **labels)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (q = 0; q < c; q++)
		(*labels)[q] = q + 1;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Models                                                              */
/* ------------------------------------------------------------------ */

lsv_status lsv_fit_model(const lsv_fit *F, lsv_model **out)
{
	const lsv_data *x = F->x;
	size_t n = F->n, i, p, nsv = 0, nnz = 0, k = 0;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);
	int c;

	if (m == NULL || sv == NULL)
		goto nomem;
	m->param = *F->p;
	/* -N beyond n samples every row: the model records the landmarks it
	 * holds, min(N, n), not the number asked for. */
	if (m->param.landmarks > 0 && (size_t)m->param.landmarks > n)
		m->param.landmarks = (long)n;
	m->l = F->l;
	m->u = n - F->l;
	m->unlabeled = x->unlabeled;
	m->nr_class = F->nr_class;
	m->nr_fn = F->nr_fn;
	m->labels = lsv_alloc((size_t)F->nr_class, sizeof *m->labels);
	m->bias = lsv_alloc((size_t)F->nr_fn, sizeof *m->bias);
	m->sv = sv;
	for (i = 0; i < n; i++) {
		int any = 0;
		for (c = 0; c < F->nr_fn; c++)
			any |= F->alpha[i + (size_t)c * n] != 0.0;
		if (any) {
			nsv++;
			nnz += x->rowptr[i + 1] - x->rowptr[i];
		}
	}
	sv->n = nsv;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = lsv_alloc(nsv + 1, sizeof *sv->rowptr);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	sv->y = calloc(nsv ? nsv : 1, sizeof *sv->y);
	m->coef = lsv_alloc(nsv * (size_t)F->nr_fn, sizeof *m->coef);
	if (!sv->rowptr || !sv->col || !sv->val || !sv->y || !m->coef ||
	    !m->labels || !m->bias)
		goto nomem;
	memcpy(m->labels, F->labels, (size_t)F->nr_class * sizeof *m->labels);
	memcpy(m->bias, F->bias, (size_t)F->nr_fn * sizeof *m->bias);
	for (i = 0; i < n; i++) {
		int any = 0;
		for (c = 0; c < F->nr_fn; c++)
			any |= F->alpha[i + (size_t)c * n] != 0.0;
		if (!any)
			continue;
		sv->rowptr[k] = sv->nnz;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			sv->col[sv->nnz] = x->col[p];
			sv->val[sv->nnz++] = x->val[p];
		}
		for (c = 0; c < F->nr_fn; c++)
			m->coef[k * (size_t)F->nr_fn + (size_t)c] =
				F->alpha[i + (size_t)c * n];
		k++;
	}
	sv->rowptr[nsv] = sv->nnz;
	*out = m;
	return LSV_OK;
nomem:
	if (m != NULL)
		lsv_model_free(m);
	else
		lsv_data_free(sv);
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
}


lsv_status lsv_fit_linear_model(const lsv_fit *F, const double *W, size_t m,
				const int *feature, lsv_model **out)
{
	const lsv_data *x = F->x;
	size_t j, nnz = 0;
	int c, C = F->nr_fn;
	lsv_model *md = calloc(1, sizeof *md);
	lsv_data *sv = calloc(1, sizeof *sv);

	if (md == NULL || sv == NULL)
		goto nomem;
	for (j = 0; j < m * (size_t)C; j++)
		nnz += W[j] != 0.0;
	md->param = *F->p;
	md->l = F->l;
	md->u = F->n - F->l;
	md->unlabeled = x->unlabeled;
	md->nr_class = F->nr_class;
	md->nr_fn = C;
	md->labels = lsv_alloc((size_t)F->nr_class, sizeof *md->labels);
	md->bias = lsv_alloc((size_t)C, sizeof *md->bias);
	md->sv = sv;
	sv->n = (size_t)C;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = lsv_alloc((size_t)C + 1, sizeof *sv->rowptr);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	sv->y = calloc((size_t)C, sizeof *sv->y);
	md->coef = calloc((size_t)C * (size_t)C, sizeof *md->coef);
	if (!sv->rowptr || !sv->col || !sv->val || !sv->y || !md->coef ||
	    !md->labels || !md->bias)
		goto nomem;
	memcpy(md->labels, F->labels, (size_t)F->nr_class * sizeof *md->labels);
	memcpy(md->bias, F->bias, (size_t)C * sizeof *md->bias);
	/* features in increasing index order within each row */
	for (c = 0; c < C; c++) {
		sv->rowptr[c] = sv->nnz;
		for (j = 0; j < m; j++) {
			double v = W[j + (size_t)c * m];
			if (v == 0.0)
				continue;
			sv->col[sv->nnz] = feature[j];
			sv->val[sv->nnz++] = v;
		}
		md->coef[(size_t)c * (size_t)C + (size_t)c] = 1.0;
	}
	sv->rowptr[C] = sv->nnz;
	*out = md;
	return LSV_OK;
nomem:
	if (md != NULL)
		lsv_model_free(md);
	else
		lsv_data_free(sv);
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
}


/* The training rows' decision values from the solver's K: f = K alpha + b
 * (one dgemm), n x nr_fn row-major as lsv_model_decision's; NULL if out of
 * memory (the caller then recomputes them from the model). */
static double *train_outputs(const lsv_fit *F)
{
	size_t n = F->n, i;
	int C = F->nr_fn, c;
	lsv_krows K = lsv_fit_krows(F);
	double *KA = lsv_alloc(n * (size_t)C, sizeof *KA);
	double *f = lsv_alloc(n * (size_t)C, sizeof *f);
	lsv_error e;

	/* K by rows: every rank takes part in the product or none does */
	if (lsv_krows_agree(&K, KA != NULL && f != NULL ? LSV_OK
			    : lsv_fail(&e, LSV_ENOMEM, "out of memory"), &e) !=
	    LSV_OK || lsv_krows_mul(&K, F->alpha, C, KA, &e) != LSV_OK) {
		free(KA);
		free(f);
		return NULL;
	}
	for (c = 0; c < C; c++)
		for (i = 0; i < n; i++)
			f[i * (size_t)C + (size_t)c] = KA[i + (size_t)c * n] + F->bias[c];
	free(KA);
	return f;
}

/* Monotonic wall-clock seconds, for the time report. */
static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The labeled rows of x as a data set of their own (the caller frees). */
static lsv_data *labeled_rows(const lsv_data *x)
{
	lsv_data *s = calloc(1, sizeof *s);
	size_t i, q, nnz = 0, k = 0;
	if (s == NULL)
		return NULL;
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i))
			nnz += x->rowptr[i + 1] - x->rowptr[i];
	s->rowptr = malloc((x->l + 1) * sizeof *s->rowptr);
	s->col = malloc((nnz ? nnz : 1) * sizeof *s->col);
	s->val = malloc((nnz ? nnz : 1) * sizeof *s->val);
	s->y = malloc((x->l ? x->l : 1) * sizeof *s->y);
	if (!s->rowptr || !s->col || !s->val || !s->y) {
		lsv_data_free(s);
		return NULL;
	}
	s->dim = x->dim;
	s->unlabeled = x->unlabeled;
	for (i = 0; i < x->n; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		s->rowptr[k] = s->nnz;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			s->col[s->nnz] = x->col[q];
			s->val[s->nnz++] = x->val[q];
		}
		s->y[k++] = x->y[i];
	}
	s->rowptr[k] = s->nnz;
	s->n = s->l = k;
	return s;
}


void lsv_train_report_free(lsv_train_report *r)
{
	if (r == NULL)
		return;
	free(r->train_f);
	free(r->ystar);
	free(r->single_f);
	free(r->la_weight);
	free(r->la_Z);
	r->train_f = NULL;
	r->ystar = NULL;
	r->single_f = NULL;
	r->la_weight = NULL;
	r->la_Z = NULL;
}

/* The kernel gamma not given: for the RBF 1 / the mean squared distance
 * between rows, so that exp(-gamma |u - v|^2) is exp(-1) for a typical
 * pair whatever the data's scale (the RBF's width sigma^2 = d^2 / 2);
 * for the polynomial 1 / features, as LIBSVM. */
static lsv_status default_gamma(const lsv_data *x, lsv_kernel *k,
				lsv_train_report *report, lsv_error *err)
{
	double d2 = 0.0;
	lsv_status st;

	k->gamma = 1.0 / (double)(x->dim ? x->dim : 1);
	if (k->type != LSV_KERNEL_RBF)
		return LSV_OK;
	if ((st = lsv_mean_sqdist(x, &d2, err)) != LSV_OK)
		return st;
	if (d2 > 0.0 && isfinite(1.0 / d2)) {
		k->gamma = 1.0 / d2;
		report->gamma_data = k->gamma;
	}
	return LSV_OK;
}

/* Is K numerically the identity or all ones?  Off-diagonal normalized
 * values k_ij / sqrt(k_ii k_jj) on up to 64 columns spread over K (each a
 * contiguous column of n, so O(64 n)).  K by rows: each rank scans the
 * entries of its rows j in those columns, with the diagonal gathered, and
 * the extremes are reduced (every rank gets the one-process answer).
 * *kmax: the largest |k_ii|, which bounds every |k_ij| of a PSD kernel
 * (check_digits). */
static lsv_status check_kernel(const lsv_krows *K, lsv_train_report *r,
			       double *kmax, lsv_error *err)
{
	size_t n = K->n, nl = K->nl, step = n > 64 ? n / 64 : 1, i, j;
	double v3[3] = {0.0, -1.0, 0.0};  /* hi, -lo, any */
	double *diag = lsv_alloc(n, sizeof *diag);
	lsv_status st = LSV_OK;

	if (diag == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
	if ((st = lsv_krows_agree(K, st, err)) != LSV_OK) {
		free(diag);  /* allocated here when another rank failed */
		return st;
	}
	for (j = 0; j < nl; j++)
		diag[j] = K->K[j + (K->lo + j) * nl];
	/* in place: the gather copies out of its own buffer, and with one
	 * process diag already holds all n */
	if ((st = lsv_krows_gather(K, diag, 1, diag, err)) != LSV_OK) {
		free(diag);
		return st;
	}
	*kmax = 0.0;
	for (i = 0; i < n; i++)
		*kmax = fmax(*kmax, fabs(diag[i]));
	for (i = 0; i < n; i += step)
		for (j = K->lo; j < K->lo + nl; j++) {
			double d = diag[i] * diag[j], v;
			if (j == i || !(d > 0.0))
				continue;
			v = fabs(K->K[(j - K->lo) + i * nl]) / sqrt(d);
			v3[0] = fmax(v3[0], v);
			v3[1] = fmax(v3[1], -v);
			v3[2] = 1.0;
		}
	free(diag);
	if (K->comm != NULL && lsv_comm_size(K->comm) > 1 &&
	    (st = lsv_comm_allreduce_double(K->comm, v3, 3, LSV_COMM_MAX,
					    err)) != LSV_OK)
		return st;
	r->kernel_identity = v3[2] > 0.0 && v3[0] < 1e-6;
	r->kernel_constant = v3[2] > 0.0 && -v3[1] > 1.0 - 1e-6;
	return LSV_OK;
}

/*
 * Do the outputs f = K alpha carry a digit?  Each is a sum of n terms
 * alpha_j k_ij, rounded to about DBL_EPSILON times sum_j |alpha_j k_ij|
 * <= DBL_EPSILON kmax |alpha|_1 (kmax: the largest k_ii).  A system that
 * is numerically singular (gamma_A near 0: K of an RBF kernel has
 * eigenvalues down to rounding) is solved into coefficients of 1e15 and
 * more whose terms cancel: the outputs are then rounding, the model's
 * predictions on its own training rows differ from these outputs, and
 * its labels are no better than chance.  Refused when that rounding
 * reaches a tenth of the outputs' scale (their largest |K alpha|, at
 * least 1, the labels' scale).  On two moons (lapsvm-train -A, direct
 * solve) it is 4e-4 of the scale at gamma_A = 1e-14, 0.03 at 1e-16 (the
 * labels still right), 0.4 at 1e-17 and 4 at 1e-18, where a tenth of the
 * labeled rows went wrong; the iterative solvers stop short of such
 * coefficients and pass.  O(n C): alpha and f are whole on every rank.
 */
static lsv_status check_digits(const lsv_fit *F, const double *f,
			       double kmax, lsv_error *err)
{
	size_t n = F->n, i;
	int c, C = F->nr_fn;

	if (f == NULL)
		return LSV_OK;
	for (c = 0; c < C; c++) {
		double l1 = 0.0, top = 1.0, noise;
		for (i = 0; i < n; i++) {
			l1 += fabs(F->alpha[i + (size_t)c * n]);
			top = fmax(top, fabs(f[i * (size_t)C + (size_t)c] -
					     F->bias[c]));
		}
		noise = DBL_EPSILON * kmax * l1;
		if (!(noise <= 0.1 * top))
			return lsv_fail(err, LSV_ENUMERIC,
					"the system is numerically singular (sum "
					"|alpha| = %.3g: the outputs' rounding, up "
					"to %.2g, exceeds a tenth of the outputs, up "
					"to %.2g): raise gamma_A (-A or -a)", l1,
					noise, top);
	}
	return LSV_OK;
}

/* The model's record of class-dependent Laplacians: w_c of each class in
 * the labels' order (model key intrinsic_weights).  The parameters'
 * weight arrays are the caller's, so the model does not keep them. */
static lsv_status record_classes(lsv_model *m, const lsv_train_param *p,
				 lsv_error *err)
{
	int c;

	m->param.nr_weight = 0;
	m->param.weight_label = m->param.weight = NULL;
	if (!p->class_graph)
		return LSV_OK;
	m->class_weight = lsv_alloc((size_t)m->nr_class, sizeof *m->class_weight);
	if (m->class_weight == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (c = 0; c < m->nr_class; c++)
		m->class_weight[c] = lsv_class_weight(p, m->labels[c]);
	return LSV_OK;
}

static lsv_status train(const lsv_data *x, const lsv_graph *const *gs,
			size_t ng, const double *start,
			const lsv_train_param *p, const double *Kin,
			lsv_eig_cache *eig,
			const lsv_train_progress *progress, lsv_model **out,
			lsv_train_report *report, lsv_error *err);

/*
 * RLS and the SVM (gamma_I = 0, a row marked labeled_only) with unlabeled
 * rows: those rows have no term in eq. 4, so their coefficients are 0 and
 * the labeled rows alone give the same function without the n x n
 * kernel.  The kernel's gamma is resolved from all the rows (prm); the
 * model counts the unlabeled rows, and the report has no outputs (those
 * trained are of the labeled rows only).
 */
static lsv_status train_rls_svm(const lsv_data *x, const lsv_train_param *p,
				const lsv_train_param *prm,
				const lsv_train_progress *progress,
				lsv_model **out, lsv_train_report *report,
				lsv_error *err)
{
	lsv_data *sub = labeled_rows(x);
	lsv_train_param q = *p;
	lsv_status st;

	if (sub == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	q.kernel.gamma = prm->kernel.gamma;  /* from all the rows */
	st = train(sub, NULL, 0, NULL, &q, NULL, NULL, progress, out, report,
		   err);
	lsv_data_free(sub);
	if (st == LSV_OK) {
		(*out)->u = x->n - x->l;
		free(report->train_f);  /* of the labeled rows only */
		report->train_f = NULL;
	}
	return st;
}

/*
 * Class-dependent Laplacians with unlabeled rows (a cross-validation
 * fold's held-out rows): the graph has no edge at them (checked), so they
 * have no loss and no graph term, and their coefficients are 0 -- for
 * LapRLS row i of eq. 8 reads gamma_A l alpha_i = 0, for LapSVM row i of
 * P alpha = J'Y beta reads 2 gamma_A alpha_i = 0.  So training on the
 * labeled rows alone, with the graph among them, gives the same function
 * for the cost of an l x l problem instead of n x n.  Eq. 4 divides
 * gamma_I by (l+u)^2 with u counting the dropped rows, so the l-row
 * problem takes gamma_I l^2/n^2 (the model records the gamma_I asked
 * for).  The kernel's gamma is resolved from all the rows (prm), and
 * Kin's labeled block is used when the caller gave K.
 */
static lsv_status train_labeled(const lsv_data *x, const lsv_graph *g,
				const lsv_train_param *p,
				const lsv_train_param *prm, const double *Kin,
				const lsv_train_progress *progress,
				lsv_model **out, lsv_train_report *report,
				lsv_error *err)
{
	lsv_data *sub = labeled_rows(x);
	lsv_graph *gl = NULL;
	lsv_train_param q = *p;
	double *Kl = NULL;
	size_t l = x->l, n = x->n, i, j, a, b;
	lsv_status st;

	q.kernel.gamma = prm->kernel.gamma;
	q.gamma_I = p->gamma_I * ((double)l / (double)n) * ((double)l / (double)n);
	if (sub == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	if ((st = lsv_class_labeled_graph(g, x, &gl, err)) != LSV_OK)
		goto done;
	if (Kin != NULL) {  /* the labeled rows' block of the caller's K */
		if ((Kl = lsv_alloc(l * l, sizeof *Kl)) == NULL) {
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for the "
				      "kernel matrix (%zu bytes)", l * l * sizeof *Kl);
			goto done;
		}
		for (j = 0, b = 0; j < n; j++) {
			if (!lsv_data_is_labeled(x, j))
				continue;
			for (i = 0, a = 0; i < n; i++)
				if (lsv_data_is_labeled(x, i))
					Kl[a++ + b * l] = Kin[i + j * n];
			b++;
		}
	}
	st = train(sub, (const lsv_graph *const *)&gl, 1, NULL, &q, Kl, NULL,
		   progress,
		   out, report, err);
	if (st == LSV_OK) {
		(*out)->u = n - l;
		(*out)->param.gamma_I = p->gamma_I;
		free(report->train_f);  /* of the labeled rows only */
		report->train_f = NULL;
	}
done:
	free(Kl);
	lsv_graph_free(gl);
	lsv_data_free(sub);
	return st;
}

/* ------------------------------------------------------------------ */
/* Warm starts                                                         */
/* ------------------------------------------------------------------ */

/* The methods a warm start serves: the iterative ones on the n x n
 * kernel, whose unknowns are the expansion coefficients alpha, and Newton
 * on a feature map (Nystrom landmarks or the linear kernel's data), whose
 * unknowns are the weights w and b. */
static int warm_method(const method_row *row)
{
	return (!row->map && (row->fit == lsv_fit_lapsvm_primal ||
			      row->fit == lsv_fit_laprls_pcg)) ||
	       (row->map && row->fit == lsv_fit_feature_map);
}

/* Is row i of x equal to row k of d (same stored indices and values)? */
static int same_row(const lsv_data *x, size_t i, const lsv_data *d, size_t k)
{
	size_t a = x->rowptr[i], b = d->rowptr[k];
	size_t na = x->rowptr[i + 1] - a, nb = d->rowptr[k + 1] - b;

	return na == nb &&
	       memcmp(x->col + a, d->col + b, na * sizeof *x->col) == 0 &&
	       memcmp(x->val + a, d->val + b, na * sizeof *x->val) == 0;
}

/* "1 -1", the first classes of a list, for a message. */
static const char *label_list(const double *v, int nr, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && i < 6 && len < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%g", i ? " " : "", v[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (nr > 6 && len < size)
		snprintf(buf + len, size - len, " ...");
	return buf;
}

/* " with 50 landmarks" or " on the linear map" for a feature map's row,
 * "" for the kernel's and for boosting's, for a message. */
static const char *map_name(const method_row *row, const lsv_train_param *p,
			    char *buf, size_t size)
{
	buf[0] = '\0';
	/* boosting's row is a map only to the driver, which computes no
	 * kernel for it: its trees see the features, no linear map */
	if (row == NULL || !row->map || p->solver == LSV_SOLVER_BOOST)
		return buf;
	if (p->landmarks > 0)
		snprintf(buf, size, " with %ld landmarks", p->landmarks);
	else
		snprintf(buf, size, " on the linear map");
	return buf;
}

/* The starting model's method: the one asked for or one of its family
 * (the same fit and map, solver and kind of map). */
static lsv_status start_method(const lsv_fit *F, const method_row *row,
			       const lsv_model *m)
{
	const lsv_train_param *p = F->p, *q = &m->param;
	lsv_train_param mq = *q;
	const method_row *mrow;
	lsv_error e;
	char a[64], b[64];

	mrow = find_method(&mq, &e);
	if (mrow == NULL || mrow->fit != row->fit || mrow->map != row->map ||
	    q->solver != p->solver ||
	    (row->map && (q->landmarks > 0) != (p->landmarks > 0)))
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model was trained by %s %s%s, not by "
				"the method asked for (%s %s%s) nor one of its family",
				lsv_solver_name(q->solver), lsv_method_name(q->method),
				map_name(mrow, q, a, sizeof a),
				lsv_solver_name(p->solver), lsv_method_name(p->method),
				map_name(row, p, b, sizeof b));
	return LSV_OK;
}

/* The starting model's kernel: the same type, and the parameters the
 * type uses (gamma but for the linear kernel; degree and coef0 of the
 * polynomial one). */
static lsv_status start_kernel(const lsv_fit *F, const lsv_model *m)
{
	const lsv_train_param *p = F->p, *q = &m->param;

	if (q->kernel.type != p->kernel.type ||
	    (p->kernel.type == LSV_KERNEL_POLY &&
	     (q->kernel.degree != p->kernel.degree ||
	      q->kernel.coef0 != p->kernel.coef0)) ||
	    (p->kernel.type != LSV_KERNEL_LINEAR &&
	     q->kernel.gamma != p->kernel.gamma))
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model's kernel (%s, gamma %.17g, degree "
				"%d, coef0 %.17g) is not this one (%s, gamma %.17g, "
				"degree %d, coef0 %.17g): give the kernel and its "
				"gamma (-g) as the model was trained",
				lsv_kernel_name(q->kernel.type), q->kernel.gamma,
				q->kernel.degree, q->kernel.coef0,
				lsv_kernel_name(p->kernel.type), p->kernel.gamma,
				p->kernel.degree, p->kernel.coef0);
	return LSV_OK;
}

/* The starting model's Laplacian, when both have a graph term. */
static lsv_status start_laplacian(const lsv_fit *F, const lsv_model *m)
{
	const lsv_train_param *p = F->p, *q = &m->param;

	if (p->gamma_I > 0.0 && q->gamma_I > 0.0 &&
	    (q->normalized != p->normalized || q->power != p->power))
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model's Laplacian (%s, power %d) is not "
				"this one (%s, power %d)",
				q->normalized ? "normalized" : "unnormalized",
				q->power, p->normalized ? "normalized" : "unnormalized",
				p->power);
	return LSV_OK;
}

/* The starting model's classes: these data's, in the same order (one
 * coefficient column per function). */
static lsv_status start_classes(const lsv_fit *F, const lsv_model *m)
{
	char a[128], b[128];  /* the class lists */

	if (m->nr_class != F->nr_class || m->nr_fn != F->nr_fn ||
	    memcmp(m->labels, F->labels,
		   (size_t)F->nr_class * sizeof *m->labels) != 0)
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model's classes (%s) are not these "
				"data's (%s) in the same order",
				label_list(m->labels, m->nr_class, a, sizeof a),
				label_list(F->labels, F->nr_class, b, sizeof b));
	return LSV_OK;
}

/* On a Nystrom map the run keeps the model's landmarks: -N must be their
 * number, and the model must hold all of them. */
static lsv_status start_landmarks(const lsv_fit *F, const method_row *row,
				  const lsv_model *m)
{
	const lsv_train_param *p = F->p, *q = &m->param;

	if (row->map && p->landmarks > 0 && q->landmarks != p->landmarks)
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model has %ld Nystrom landmarks, -N "
				"asks for %ld: a warm start keeps the model's "
				"landmarks (give -N %ld)", q->landmarks,
				p->landmarks, q->landmarks);
	if (row->map && p->landmarks > 0 && m->sv->n != (size_t)q->landmarks)
		return lsv_fail(F->err, LSV_EINVAL,
				"the starting model holds %zu of its %ld Nystrom "
				"landmarks (one whose coefficients are all 0 is not "
				"saved): it cannot start this run",
				m->sv->n, q->landmarks);
	return LSV_OK;
}

/* Each expansion point of m matched to the first row of x equal to it
 * after the previous match: F->warm_rows, and F->alpha at those rows
 * m's coefficients (the caller's zeros elsewhere). */
static lsv_status match_rows(lsv_fit *F, const lsv_model *m)
{
	const lsv_train_param *p = F->p, *q = &m->param;
	const lsv_data *x = F->x;
	size_t n = F->n, i = 0, k;
	int c;

	if ((F->warm_rows = lsv_alloc(m->sv->n + 1, sizeof *F->warm_rows)) ==
	    NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	for (k = 0; k < m->sv->n; k++, i++) {
		while (i < n && !same_row(x, i, m->sv, k))
			i++;
		if (i == n && !(p->gamma_I > 0.0) && q->gamma_I > 0.0)
			/* RLS and SVM expand over the labeled rows alone */
			return lsv_fail(F->err, LSV_EINVAL,
					"the starting model's expansion point %zu of "
					"%zu is not a labeled row of these data: "
					"with gamma_I = 0 only the labeled rows are "
					"expansion points, and the model (gamma_I = "
					"%g) has one per row; start from a model "
					"trained with gamma_I = 0, or keep the graph",
					k + 1, m->sv->n, q->gamma_I);
		if (i == n)
			return lsv_fail(F->err, LSV_EINVAL,
					"the starting model's expansion point %zu of "
					"%zu is not a row of these data (in the "
					"model's order): it was not trained on a "
					"prefix of these data", k + 1, m->sv->n);
		F->warm_rows[k] = i;
		for (c = 0; c < F->nr_fn; c++)
			F->alpha[i + (size_t)c * n] =
				m->coef[k * (size_t)F->nr_fn + (size_t)c];
	}
	return LSV_OK;
}

/*
 * F->alpha from the model m (p->init): m's coefficients on the rows of x
 * its expansion points are, 0 elsewhere (the rows m has not seen), and
 * those rows in F->warm_rows.  A feature map's row takes its start from m
 * itself (nystrom.c): Nystrom's expansion points are its landmarks, which
 * it keeps (so -N must be the model's number of landmarks); the linear
 * map's model holds weights, not rows, and no row is matched.  Each
 * expansion point is matched to the first row equal to it after the
 * previous match (a model keeps its points in row order), so the points
 * must be rows of x in order: a model trained on a prefix of x.  Duplicate
 * rows may take each other's coefficient; K alpha, the function, is the
 * same.  Checks m against the resolved parameters F->p first
 * (lsv_train_param.init says which).
 */
static lsv_status warm_start(lsv_fit *F, const method_row *row,
			     const lsv_model *m)
{
	lsv_status st;

	if ((st = start_method(F, row, m)) != LSV_OK ||
	    (st = start_kernel(F, m)) != LSV_OK ||
	    (st = start_laplacian(F, m)) != LSV_OK ||
	    (st = start_classes(F, m)) != LSV_OK ||
	    (st = start_landmarks(F, row, m)) != LSV_OK)
		return st;
	/* the linear map's weights: nothing to match */
	if (!(row->map && F->p->landmarks == 0) &&
	    (st = match_rows(F, m)) != LSV_OK)
		return st;
	F->warm = 1;
	return LSV_OK;
}

/* The sum of squares of v[0..n), overflowing to inf when it is large. */
static double sum_squares(const double *v, size_t n)
{
	double s = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i] * v[i];
	return s;
}

lsv_status lsv_check_start(const double *f, size_t n, const double *z,
			   size_t nz, int C, lsv_error *err)
{
	int c;

	for (c = 0; c < C; c++) {
		double ff = sum_squares(f + (size_t)c * n, n);
		double zz = sum_squares(z + (size_t)c * nz, nz);
		if (!isfinite(ff) || !isfinite(zz))
			return lsv_fail(err, LSV_EINVAL,
					"the starting model is too large to start "
					"from: the sum of squares of its %s on "
					"these data is %g (function %d); train "
					"without a start",
					isfinite(ff) ? "coefficients" :
					"decision values", isfinite(ff) ? zz : ff,
					c + 1);
	}
	return LSV_OK;
}

/* The combination's graphs (ng of them, each of the data's rows) and
 * starting weights checked; its defaults of mu and the rank into *prm. */
static lsv_status combine_setup(const lsv_data *x, const lsv_graph *const *gs,
				size_t ng, const double *start,
				lsv_train_param *prm, lsv_error *err)
{
	size_t j, n = x->n;

	if (ng == 0)
		return lsv_fail(err, LSV_EINVAL,
				"the combination needs at least one graph");
	for (j = 0; j < ng; j++)
		if (gs[j] == NULL || gs[j]->n != n)
			return lsv_fail(err, LSV_EINVAL,
					"graph %zu has %zu rows but the data %zu",
					j + 1, gs[j] ? gs[j]->n : 0, n);
	if (start != NULL) {
		double sum = 0.0;
		for (j = 0; j < ng; j++) {
			if (!(start[j] >= 0.0) || !isfinite(start[j]))
				return lsv_fail(err, LSV_EINVAL,
						"starting weight %zu is %g (expected "
						"a finite number >= 0)", j + 1,
						start[j]);
			sum += start[j];
		}
		if (!(sum > 0.0) || !isfinite(sum))
			return lsv_fail(err, LSV_EINVAL,
					"the starting weights sum to %g (expected "
					"> 0)", sum);
	}
	/* mu as the authors' code: l * 1e-5 (the paper's text: 1e-5); exact
	 * kernels up to LSV_COMBINE_EXACT_MAX rows */
	if (prm->combine_mu == 0.0)
		prm->combine_mu = 1e-5 * (double)x->l;
	if (prm->combine_rank == 0 && n > LSV_COMBINE_EXACT_MAX)
		prm->combine_rank = LSV_COMBINE_RANK;
	/* a graph of n rows has at most n - 1 nonzero Laplacian eigenvalues
	 * (one zero per component): more is n - 1, so the model records what
	 * was used */
	if (n > 1 && prm->combine_rank > (long)(n - 1))
		prm->combine_rank = (long)(n - 1);
	return LSV_OK;
}

/* Whether solver s has a row on a feature map (Nystrom landmarks or the
 * linear kernel's data), the way around an n x n array. */
static int has_map_row(lsv_solver s)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (methods[i].solver == s && methods[i].map &&
		    s != LSV_SOLVER_BOOST)
			return 1;
	return 0;
}

/* What a refusal of row's memory suggests: only a way the method takes
 * (tsvm, kdesign, combine's extension and the Laplacian eigenvectors of
 * labelaware have no low-rank path; -M newton -N m would be refused). */
static const char *memory_hint(const method_row *row,
			       const lsv_train_param *prm)
{
	if (row->map)
		return "use fewer landmarks (-N)";
	if (prm->solver == LSV_SOLVER_LABELAWARE)
		return prm->la_basis == LSV_LA_KERNEL
		       ? "take the kernel's eigenvectors from Nystrom "
			 "landmarks instead: -N m (memory O(n m))"
		       : "the Laplacian's eigenvectors need the n x n "
			 "matrix: fewer rows, or -J kernel -N m (Nystrom "
			 "landmarks, memory O(n m))";
	if (!has_map_row(prm->solver))
		return "this method has no low-rank path: fewer rows, or -s "
		       "laprls or lapsvm -M newton -N m (Nystrom, m "
		       "landmarks, memory O(n m))";
	if (prm->kernel.type == LSV_KERNEL_LINEAR)
		return "the primal solver needs no n x n array: -M newton "
		       "(linear kernel), or -M newton -N m (Nystrom, m "
		       "landmarks)";
	return "train on a low-rank kernel instead: -M newton -N m "
	       "(Nystrom, m landmarks, memory O(n m))";
}

/* n rows, which the solvers count in an int, and the memory the
 * method's arrays take for them, against the limit (-m), with the way
 * around it the refusal names. */
static lsv_status check_memory(const method_row *row,
			       const lsv_train_param *prm, size_t n,
			       lsv_error *err)
{
	if (n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%zu rows: too many", n);
	return lsv_check_bytes(prm, row->mem(prm, (double)n),
			      row->mem == mem_krows && prm->comm != NULL &&
			      lsv_comm_size(prm->comm) > 1
			      ? "this rank's rows of the n x n kernel matrix"
			      : row->mem_what,
			      memory_hint(row, prm), err);
}

/* The classes the model's functions separate, into *labels (*nr of them,
 * owned by the caller on success): the clusters 1..c when clustering,
 * the two classes -Y declared, else the labeled rows' classes. */
static lsv_status fit_classes(const lsv_data *x, lsv_train_param *prm,
			      double **labels, int *nr, lsv_error *err)
{
	lsv_status st;
	double *two;
	size_t i;

	*labels = NULL;
	if (prm->solver == LSV_SOLVER_CLUSTER || prm->boost_clusters > 0) {
		if (prm->boost_clusters > 0)
			prm->clusters = prm->boost_clusters;
		if ((st = cluster_labels(x, prm, labels, err)) != LSV_OK)
			return st;
		*nr = prm->clusters;
		return LSV_OK;
	}
	if (!prm->combine_two)
		return find_classes(x, prm, labels, nr, err);
	if (prm->combine_labels[0] == x->unlabeled ||
	    prm->combine_labels[1] == x->unlabeled)
		return lsv_fail(err, LSV_EINVAL,
				"a declared class is the unlabeled marker %g",
				x->unlabeled);
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i) &&
		    x->y[i] != prm->combine_labels[0] &&
		    x->y[i] != prm->combine_labels[1])
			return lsv_fail_row(err, LSV_EINVAL, i + 1,
					    "label %g is not one of the two "
					    "classes declared (%g and %g)", x->y[i],
					    prm->combine_labels[0],
					    prm->combine_labels[1]);
	if ((two = malloc(2 * sizeof *two)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	two[0] = prm->combine_labels[0];
	two[1] = prm->combine_labels[1];
	*labels = two;
	*nr = 2;
	return LSV_OK;
}

/*
 * One training run past its checks: the problem handed to the solver, F
 * (whose arrays are const to the solver), and what the driver owns behind
 * it.  The setup steps below fill it in turn; run_free frees all of it
 * whichever step failed, so train() has one cleanup.
 */
typedef struct {
	lsv_fit F;
	lsv_train_param prm;        /* p resolved (F.p) */
	const method_row *row;
	lsv_lapop L;                /* L^p (F.L when there is a graph term) */
	lsv_krows Kr;               /* the kernel by rows (F.Kr) */
	double *labels;             /* F.labels */
	size_t *lab;                /* F.lab */
	double *Y;                  /* F.Y */
	double *K;                  /* this rank's rows of K, computed here */
	size_t *krow;               /* their row numbers */
	double *startw;             /* F.start: the combination's, sum 1 */
	double kmax;                /* the largest |k_ii| (check_digits) */
	double t0, t1;              /* the kernel's start and end (seconds) */
} train_run;

/* R zeroed, p as R->prm to resolve, and F's inputs from the call. */
static void run_init(train_run *R, const lsv_data *x, const lsv_graph *g,
		     const lsv_train_param *p, const double *Kin,
		     lsv_eig_cache *eig, const lsv_train_progress *progress,
		     lsv_train_report *report, lsv_error *err)
{
	memset(R, 0, sizeof *R);
	R->prm = *p;
	R->F.x = x;
	R->F.p = &R->prm;
	R->F.n = x->n;
	R->F.graph = g;
	R->F.eig = Kin != NULL ? eig : NULL;  /* keyed by the caller's K */
	R->F.progress = progress;
	R->F.report = report;
	R->F.err = err;
}

/* Everything R owns, NULL or not (the operator L zeroed or built). */
static void run_free(train_run *R)
{
	lsv_lapop_free(&R->L);
	free(R->K);
	free(R->krow);
	free(R->lab);
	free(R->Y);
	free(R->labels);
	free(R->F.alpha);
	free(R->F.bias);
	free(R->F.ystar);
	free(R->F.graph_weight);
	free(R->F.warm_rows);
	free(R->startw);
}

/* The request before the data are looked at: p checked, its row of the
 * method table into *row, and what that row cannot take -- a warm start
 * unless it iterates from alpha (or w and b), none with class-dependent
 * Laplacians nor a precomputed kernel, more than one graph unless it
 * combines them. */
static lsv_status check_request(const lsv_train_param *p, size_t ng,
				const method_row **row, lsv_error *err)
{
	lsv_status st;

	if ((st = lsv_train_param_check(p, err)) != LSV_OK)
		return st;
	*row = find_method(p, err);
	if (*row != NULL && p->init != NULL && !warm_method(*row))
		return lsv_fail(err, LSV_EINVAL,
				"a warm start is for the iterative methods on the "
				"kernel (lapsvm -M pcg, pcg-early or newton; laprls "
				"-M pcg or pcg-early) and Newton on a feature map "
				"(-M newton -N m, or -M newton -t 0), not %s",
				(*row)->name);
	if (p->init != NULL && p->class_graph)
		return lsv_fail(err, LSV_EINVAL,
				"a warm start does not apply with class-dependent "
				"Laplacians");
	if (p->init != NULL && p->kernel.type == LSV_KERNEL_PRECOMPUTED)
		return lsv_fail(err, LSV_EINVAL,
				"a warm start matches the model's expansion points "
				"to rows of the data, and a precomputed kernel (-t "
				"4) gives its rows only serial numbers: train "
				"without -f");
	if (ng > 1 && p->solver != LSV_SOLVER_COMBINE)
		return lsv_fail(err, LSV_EINVAL,
				"%zu graphs: only the combination (-s combine) takes "
				"more than one", ng);
	return LSV_OK;
}

/*
 * The request against the data x and the graphs gs[0..ng), with what
 * depends on them resolved into *prm: the combination's graphs, start
 * and defaults (combine_setup), the kernel's default gamma (into the
 * report too), labeled rows (unless clustering), the class weights'
 * classes, gamma_I 0 for a row without a graph term, the TSVM's C* = C,
 * the graph's size, a graph for gamma_I > 0 and, with class-dependent
 * Laplacians, one within each class.
 */
static lsv_status check_data(const lsv_data *x, const lsv_graph *const *gs,
			     size_t ng, const double *start,
			     const lsv_train_param *p, lsv_train_param *prm,
			     const method_row *row, lsv_train_report *report,
			     lsv_error *err)
{
	const lsv_graph *g = ng > 0 ? gs[0] : NULL;
	size_t n = x->n;
	lsv_status st;

	if (p->solver == LSV_SOLVER_COMBINE &&
	    (st = combine_setup(x, gs, ng, start, prm, err)) != LSV_OK)
		return st;
	if (prm->kernel.gamma == 0.0 &&
	    (st = default_gamma(x, &prm->kernel, report, err)) != LSV_OK)
		return st;
	if (x->l == 0 && prm->solver != LSV_SOLVER_CLUSTER &&
	    prm->boost_clusters == 0)
		return lsv_fail(err, LSV_EINVAL,
				"no labeled rows (every label is the unlabeled "
				"marker %g)", x->unlabeled);
	if (p->class_graph &&
	    (st = lsv_class_weights_known(p, x, err)) != LSV_OK)
		return st;
	if (!row->graph)
		prm->gamma_I = 0.0;
	if (prm->solver == LSV_SOLVER_TSVM && prm->tsvm_cstar == 0.0)
		prm->tsvm_cstar = 1.0 / (2.0 * prm->gamma_A * (double)x->l);  /* C */
	if (g != NULL && g->n != n)
		return lsv_fail(err, LSV_EINVAL,
				"the graph has %zu rows but the data %zu", g->n, n);
	if (prm->gamma_I > 0.0 && g == NULL)
		return lsv_fail(err, LSV_EINVAL, "gamma_I > 0 needs a graph");
	if (prm->gamma_I > 0.0 && prm->class_graph &&
	    lsv_graph_check_classes(g, x, err) != LSV_OK) {
		lsv_error e = *err;
		return lsv_fail(err, LSV_EINVAL, "%s: class-dependent Laplacians "
				"need a graph within each class", e.msg);
	}
	return LSV_OK;
}

/* F's classes (fit_classes, into R->labels): at least two; its nr_fn
 * functions, one for two classes, else one per class (one-vs-rest) or,
 * clustering, c - 1 embeddings; and the TSVM's r when not given. */
static lsv_status setup_classes(train_run *R, const lsv_data *x,
				lsv_error *err)
{
	lsv_fit *F = &R->F;
	lsv_train_param *prm = &R->prm;
	size_t i;
	lsv_status st;

	if ((st = fit_classes(x, prm, &R->labels, &F->nr_class, err)) != LSV_OK)
		return st;
	F->labels = R->labels;
	if (F->nr_class < 2)
		return lsv_fail(err, LSV_EINVAL,
				"the labeled rows have only one class (%g): need "
				"at least two", R->labels[0]);
	F->nr_fn = F->nr_class == 2 ? 1
		 : prm->solver == LSV_SOLVER_CLUSTER || prm->boost_clusters > 0
		 ? F->nr_class - 1 : F->nr_class;
	if (prm->solver == LSV_SOLVER_TSVM && F->nr_fn == 1 &&
	    prm->tsvm_r == 0.0) {
		/* record the r used: the labeled ratio of the first class */
		size_t pos = 0;
		for (i = 0; i < x->n; i++)
			pos += lsv_data_is_labeled(x, i) && x->y[i] == R->labels[0];
		prm->tsvm_r = (double)pos / (double)x->l;
	}
	return LSV_OK;
}

/*
 * F's arrays: the labeled rows and their one-vs-rest targets (F.lab,
 * F.Y), alpha and b zeroed, and, unless the row is on a feature map or
 * the caller gave K, this rank's block of rows of K to compute (R->K,
 * R->Kr: a distributed row keeps only its block; a caller's whole K is
 * used whole by every rank).  All allocated before one agreement, so
 * that a local failure is every rank's before the next product.
 */
static lsv_status setup_targets(train_run *R, const lsv_data *x,
				const double *Kin, lsv_error *err)
{
	lsv_fit *F = &R->F;
	const method_row *row = R->row;
	size_t n = x->n, i;
	lsv_status st = LSV_OK;
	int c;

	R->lab = lsv_alloc(x->l, sizeof *R->lab);
	R->Y = lsv_alloc(x->l * (size_t)F->nr_fn, sizeof *R->Y);
	F->alpha = calloc(n * (size_t)F->nr_fn, sizeof *F->alpha);
	F->bias = calloc((size_t)F->nr_fn, sizeof *F->bias);
	R->Kr.n = n;
	R->Kr.comm = !row->map && Kin == NULL && distributed(row)
		     ? R->prm.comm : NULL;
	lsv_block_rows(R->Kr.comm, n, &R->Kr.lo, &R->Kr.nl);
	if (!row->map && Kin == NULL) {
		R->K = lsv_alloc(R->Kr.nl * n, sizeof *R->K);
		R->krow = lsv_alloc(R->Kr.nl, sizeof *R->krow);
	}
	if (!R->lab || !R->Y || !F->alpha || !F->bias ||
	    (!row->map && !Kin && (!R->K || !R->krow)))
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the kernel matrix (%zu bytes)",
			      R->Kr.nl * n * sizeof *R->K);
	if ((st = lsv_krows_agree(&R->Kr, st, err)) != LSV_OK)
		return st;
	for (i = 0; i < n; i++)  /* clustering: every row counts as unlabeled */
		if (lsv_data_is_labeled(x, i) &&
		    R->prm.solver != LSV_SOLVER_CLUSTER &&
		    R->prm.boost_clusters == 0)
			R->lab[F->l++] = i;
	for (c = 0; c < F->nr_fn; c++)  /* one-vs-rest targets */
		for (i = 0; i < F->l; i++)
			R->Y[i + (size_t)c * F->l] =
				x->y[R->lab[i]] == R->labels[c] ? 1.0 : -1.0;
	F->lab = R->lab;
	F->Y = R->Y;
	return LSV_OK;
}

/* The warm start (p->init: F.alpha, F.warm_rows) and the operator L^p of
 * the graph term (R->L, weighted per class with class-dependent
 * Laplacians; the combination builds its own), either failure agreed by
 * every rank. */
static lsv_status setup_start(train_run *R, const lsv_graph *g,
			      lsv_error *err)
{
	lsv_train_param *prm = &R->prm;
	lsv_status st = LSV_OK;

	if (prm->init != NULL)
		st = warm_start(&R->F, R->row, prm->init);
	if (st == LSV_OK && prm->gamma_I > 0.0 &&
	    prm->solver != LSV_SOLVER_COMBINE) {
		st = lsv_lapop_init(&R->L, g, prm->normalized, prm->power, err);
		/* class-dependent: blockdiag(w_c L_c^p) (common/classes.c) */
		if (st == LSV_OK && prm->class_graph)
			st = lsv_class_weigh_rows(&R->L, R->F.x, prm, err);
		if (st == LSV_OK)
			R->F.L = &R->L;
	}
	return lsv_krows_agree(&R->Kr, st, err);
}

/* The combination's graphs and its starting weights start[0..ng), scaled
 * to sum 1 (R->startw; NULL: the solver starts from the average). */
static lsv_status setup_combine(train_run *R, const lsv_graph *const *gs,
				size_t ng, const double *start, lsv_error *err)
{
	double sum = 0.0;
	size_t j;

	R->F.graphs = gs;
	R->F.ngraphs = ng;
	if (start == NULL)
		return LSV_OK;
	if ((R->startw = lsv_alloc(ng, sizeof *R->startw)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (j = 0; j < ng; j++)
		sum += start[j];
	for (j = 0; j < ng; j++)
		R->startw[j] = start[j] / sum;
	R->F.start = R->startw;
	return LSV_OK;
}

/* The kernel for F (none for a row on a feature map): the caller's K,
 * as computed here, or this rank's rows [lo, lo + nl) against all n (one
 * process: K whole) by the kernel code of every other caller; then its
 * check (check_kernel: the report's flags and R->kmax), and the time it
 * took in R->t0, R->t1. */
static lsv_status kernel_rows(train_run *R, const lsv_data *x,
			      const double *Kin, lsv_train_report *report,
			      lsv_error *err)
{
	lsv_krows *Kr = &R->Kr;
	size_t i;
	lsv_status st;

	if (R->row->map)
		return LSV_OK;
	if (Kin != NULL) {
		R->t0 = R->t1 = seconds();
		R->F.K = Kr->K = Kin;
		R->F.Kr = Kr;
		return check_kernel(Kr, report, &R->kmax, err);
	}
	R->t0 = seconds();
	for (i = 0; i < Kr->nl; i++)
		R->krow[i] = Kr->lo + i;
	st = lsv_kernel_matrix(&R->prm.kernel, x, R->krow, Kr->nl, x, NULL,
			       x->n, R->K, err);
	/* a value of one rank's rows can fail there alone */
	if ((st = lsv_krows_agree(Kr, st, err)) != LSV_OK)
		return st;
	R->t1 = seconds();
	R->F.K = Kr->comm != NULL && lsv_comm_size(Kr->comm) > 1 ? NULL : R->K;
	Kr->K = R->K;
	R->F.Kr = Kr;
	return check_kernel(Kr, report, &R->kmax, err);
}

/* The model of a kernel expansion, alpha and b (lsv_fit_model), with the
 * combination's learned weights handed to it, the outputs K alpha + b in
 * the report (the combination left its own transductive values there)
 * checked to carry a digit, and the times. */
static lsv_status expansion_model(train_run *R, lsv_model **out,
				  lsv_train_report *report, lsv_error *err)
{
	lsv_fit *F = &R->F;
	size_t i;
	lsv_status st;

	for (i = 0; i < F->n * (size_t)F->nr_fn; i++)
		if (!isfinite(F->alpha[i]))
			return lsv_fail(err, LSV_ENUMERIC,
					"training produced non-finite coefficients "
					"(ill-conditioned system)");
	if ((st = lsv_krows_agree(&R->Kr, lsv_fit_model(F, out), err)) != LSV_OK)
		return st;
	if (F->graph_weight != NULL) {  /* the combination's weights */
		(*out)->ngraphs = F->ngraphs;
		(*out)->graph_weight = F->graph_weight;
		F->graph_weight = NULL;
	}
	if (report->train_f == NULL) {
		report->train_f = train_outputs(F);
		if ((st = check_digits(F, report->train_f, R->kmax, err)) != LSV_OK)
			return st;
	}
	report->kernel_seconds = R->t1 - R->t0;
	report->solve_seconds = seconds() - R->t1;
	return LSV_OK;
}

/* The row's fit on F and the model *out: a feature map's row, or
 * clustering, builds its own, else the kernel expansion's; then the
 * model's record of the classes' weights, and the TSVM's labels handed
 * to the report. */
static lsv_status run_fit(train_run *R, lsv_model **out,
			  lsv_train_report *report, lsv_error *err)
{
	lsv_status st;
	int c;

	if ((st = R->row->fit(&R->F, out)) != LSV_OK)
		return st;
	if (*out == NULL && (st = expansion_model(R, out, report, err)) != LSV_OK)
		return st;
	/* a solver's overflow (a bias from kernel values near DBL_MAX: the
	 * SVM's on a linear kernel of features near 1e153) is a failure of
	 * training, said here, not by the model's writer */
	for (c = 0; c < (*out)->nr_fn; c++)
		if (!isfinite((*out)->bias[c]))
			return lsv_fail(err, LSV_ENUMERIC,
					"training produced a non-finite bias (the "
					"solver's arithmetic overflowed: scale the "
					"features to smaller values)");
	if ((st = record_classes(*out, &R->prm, err)) != LSV_OK)
		return st;
	report->ystar = R->F.ystar;
	R->F.ystar = NULL;
	return LSV_OK;
}

/* lsv_train with a report and progress that are never NULL; Kin: the
 * caller's n x n kernel (lsv_train_kernel), or NULL to compute it here;
 * gs[0..ng): the graphs (one, or several for the combination).  The
 * request is checked whole before anything is allocated; a smaller
 * problem on the labeled rows alone is handed on; else F is set up, the
 * kernel computed and the row's fit run, with one cleanup of the run. */
static lsv_status train(const lsv_data *x, const lsv_graph *const *gs,
			size_t ng, const double *start,
			const lsv_train_param *p, const double *Kin,
			lsv_eig_cache *eig,
			const lsv_train_progress *progress, lsv_model **out,
			lsv_train_report *report, lsv_error *err)
{
	const lsv_graph *g = ng > 0 ? gs[0] : NULL;
	size_t n = x->n;
	train_run R;
	lsv_status st;

	run_init(&R, x, g, p, Kin, eig, progress, report, err);
	if ((st = check_request(p, ng, &R.row, err)) != LSV_OK ||
	    (st = check_data(x, gs, ng, start, p, &R.prm, R.row, report,
			     err)) != LSV_OK)
		return st;
	/* problems the labeled rows alone solve (nothing is owned yet) */
	if (R.prm.gamma_I == 0.0 && R.row->labeled_only && x->l < n)
		return train_rls_svm(x, p, &R.prm, progress, out, report, err);
	if (R.prm.gamma_I > 0.0 && R.prm.class_graph && x->l < n && !R.row->map)
		return train_labeled(x, g, p, &R.prm, Kin, progress, out, report,
				     err);
	if ((st = check_memory(R.row, &R.prm, n, err)) != LSV_OK)
		return st;
	/* from here R owns what it allocates: every failure goes to done */
	if ((st = setup_classes(&R, x, err)) != LSV_OK ||
	    (st = setup_targets(&R, x, Kin, err)) != LSV_OK ||
	    (st = setup_start(&R, g, err)) != LSV_OK ||
	    (R.prm.solver == LSV_SOLVER_COMBINE &&
	     (st = setup_combine(&R, gs, ng, start, err)) != LSV_OK))
		goto done;
	report->path = R.row->name;
	if ((st = kernel_rows(&R, x, Kin, report, err)) != LSV_OK)
		goto done;
	st = run_fit(&R, out, report, err);
done:
	if (st != LSV_OK && *out != NULL) {
		lsv_model_free(*out);
		*out = NULL;
	}
	run_free(&R);
	return st;
}

/* ------------------------------------------------------------------ */
/* Class proportions: the bias shift after any method's fit            */
/* ------------------------------------------------------------------ */


/* The target positive fraction of each function: the given r, or each
 * class's share of the labeled rows (labels[c] is function c's class;
 * binary: labels[0], the class f > 0 predicts). */
static void balance_targets(const lsv_data *x, const lsv_train_param *p,
			    const lsv_model *m, double *target)
{
	size_t i;
	int c;

	for (c = 0; c < m->nr_fn; c++) {
		size_t in = 0;
		if (p->balance == LSV_BALANCE_GIVEN) {
			target[c] = p->balance_r;
			continue;
		}
		for (i = 0; i < x->n; i++)
			in += lsv_data_is_labeled(x, i) && x->y[i] == m->labels[c];
		target[c] = (double)in / (double)x->l;
	}
}

/*
 * p->balance: shift each bias of m so that its target fraction of the
 * unlabeled rows is positive (lsv_balance_shift), record the shifts in
 * m->shift (model key balance_shift) and shift report->train_f with them
 * (computed here from the model when the solver kept none), so that
 * lapsvm-predict and -o both see the shifted decision.
 */
static lsv_status balance(const lsv_data *x, const lsv_train_param *p,
			  lsv_model *m, lsv_train_report *report,
			  lsv_error *err)
{
	size_t n = x->n, C = (size_t)m->nr_fn, u = 0, i, c;
	double *fu, *target, mean;
	lsv_status st = LSV_OK;

	if (report->train_f == NULL) {
		if ((report->train_f = lsv_alloc(n * C, sizeof *report->train_f)) ==
		    NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		if ((st = lsv_model_decision(m, x, report->train_f, err)) != LSV_OK)
			return st;
	}
	fu = lsv_alloc((n - x->l) * C, sizeof *fu);
	target = lsv_alloc(C, sizeof *target);
	m->shift = lsv_alloc(C, sizeof *m->shift);
	if (fu == NULL || target == NULL || m->shift == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {  /* the unlabeled rows' values, in order */
		if (lsv_data_is_labeled(x, i))
			continue;
		for (c = 0; c < C; c++)
			fu[u * C + c] = report->train_f[i * C + c];
		u++;
	}
	balance_targets(x, p, m, target);
	if ((st = lsv_balance_shift(fu, u, m->nr_fn, target, m->shift, err)) !=
	    LSV_OK)
		goto done;
	/* a boosted model of more than two classes is predicted centred
	 * (each row's values minus their mean: lsv_model_decision), so its
	 * training values move by the shifts minus their mean */
	mean = 0.0;
	if (p->solver == LSV_SOLVER_BOOST && p->boost_clusters == 0 && C > 1)
		for (c = 0; c < C; c++)
			mean += m->shift[c] / (double)C;
	for (c = 0; c < C; c++) {
		m->bias[c] += m->shift[c];
		for (i = 0; i < n; i++)
			report->train_f[i * C + c] += m->shift[c] - mean;
	}
done:
	if (st != LSV_OK) {
		free(m->shift);
		m->shift = NULL;
	}
	free(fu);
	free(target);
	return st;
}

lsv_status lsv_train(const lsv_data *x, const lsv_graph *g,
		     const lsv_train_param *p,
		     const lsv_train_progress *progress, lsv_model **out,
		     lsv_train_report *report, lsv_error *err)
{
	return lsv_train_with_kernel(x, g, p, NULL, progress, out, report, err);
}

/* lsv_train_with_kernel's body, for one graph or several. */
static lsv_status train_top(const lsv_data *x, const lsv_graph *const *gs,
			    size_t ng, const double *start,
			    const lsv_train_param *p, const double *K,
			    lsv_eig_cache *eig,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err);

lsv_status lsv_train_graphs(const lsv_data *x, const lsv_graph *const *g,
			    size_t ng, const double *start,
			    const lsv_train_param *p,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err)
{
	return train_top(x, g, ng, start, p, NULL, NULL, progress, out, report,
			 err);
}

lsv_status lsv_train_kernel(const lsv_data *x, const lsv_train_param *p,
			    double **K, lsv_error *err)
{
	lsv_kernel k = p->kernel;  /* resolved as train() resolves it */
	size_t n = x->n;
	lsv_status st;

	*K = NULL;
	if (k.gamma == 0.0) {
		lsv_train_report r;
		memset(&r, 0, sizeof r);
		if ((st = default_gamma(x, &k, &r, err)) != LSV_OK)
			return st;
	}
	if ((st = lsv_kernel_check(&k, err)) != LSV_OK)
		return st;
	if (n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%zu rows: too many", n);
	if ((st = lsv_check_bytes(p, (double)n * (double)n, "the n x n kernel matrix",
			      "train on a low-rank kernel instead: -M newton "
			      "-N m (Nystrom, m landmarks, memory O(n m))",
			      err)) != LSV_OK)
		return st;
	if ((*K = lsv_alloc(n * n, sizeof **K)) == NULL)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the kernel matrix (%zu bytes)",
				n * n * sizeof **K);
	if ((st = lsv_kernel_matrix(&k, x, NULL, n, x, NULL, n, *K, err)) !=
	    LSV_OK) {
		free(*K);
		*K = NULL;
	}
	return st;
}

lsv_status lsv_train_with_kernel(const lsv_data *x, const lsv_graph *g,
				 const lsv_train_param *p, const double *K,
				 const lsv_train_progress *progress,
				 lsv_model **out, lsv_train_report *report,
				 lsv_error *err)
{
	return train_top(x, g != NULL ? &g : NULL, g != NULL, NULL, p, K, NULL,
			 progress, out, report, err);
}

lsv_status lsv_train_cached(const lsv_data *x, const lsv_graph *g,
			    const lsv_train_param *p, const double *K,
			    lsv_eig_cache *eig,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err)
{
	return train_top(x, g != NULL ? &g : NULL, g != NULL, NULL, p, K, eig,
			 progress, out, report, err);
}

static lsv_status train_top(const lsv_data *x, const lsv_graph *const *gs,
			    size_t ng, const double *start,
			    const lsv_train_param *p, const double *K,
			    lsv_eig_cache *eig,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err)
{
	static const lsv_train_progress none = {NULL, NULL, NULL};
	lsv_train_report own;
	lsv_status st;

	*out = NULL;
	if (report == NULL)
		report = &own;
	memset(report, 0, sizeof *report);
	if ((st = lsv_train_param_check(p, err)) != LSV_OK)
		return st;
	if (p->balance == LSV_BALANCE_GIVEN && lsv_data_classes(x, 3) > 2)
		return lsv_fail(err, LSV_EINVAL,
				"a positive fraction r is for two classes; with "
				"more, balance by the labeled ratio of each class");
	if (p->init != NULL && p->init->l + p->init->u > x->n)
		return lsv_fail(err, LSV_EINVAL,
				"the starting model was trained on %zu rows, these "
				"data have %zu: a warm start needs a model of a "
				"prefix of the data", p->init->l + p->init->u, x->n);
	st = train(x, gs, ng, start, p, K, eig,
		   progress != NULL ? progress : &none,
		   out, report, err);
	if (st == LSV_OK) {  /* not the model's to keep */
		(*out)->param.init = NULL;
		(*out)->param.class_order = NULL;
		(*out)->param.class_order_n = 0;
	}
	/* a precomputed kernel's expansion points are training serial
	 * numbers, as in LIBSVM's model (the values stay in the data) */
	if (st == LSV_OK && p->kernel.type == LSV_KERNEL_PRECOMPUTED &&
	    (st = lsv_precomputed_serials((*out)->sv, err)) != LSV_OK) {
		lsv_model_free(*out);
		*out = NULL;
	}
	/* after any method's fit, one step for every row of the table */
	if (st == LSV_OK && p->balance != LSV_BALANCE_NONE &&
	    (st = balance(x, p, *out, report, err)) != LSV_OK) {
		lsv_model_free(*out);
		*out = NULL;
	}
	if (st != LSV_OK || report == &own)
		lsv_train_report_free(report);
	return st;
}
