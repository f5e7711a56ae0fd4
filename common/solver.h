/*
 * solver.h -- the training wing's private interface: the problem every
 * solver is handed, the table of methods that picks one, the Newton
 * driver the primal solvers share, and the solvers' entry points.  Not
 * part of the public API (lapsvm.h); the tools never include it.
 *
 * Adding a method: write common/NAME.c with one fit function
 * (lsv_fit_fn below), declare it here, and add its row to the table in
 * common/train.c.  Nothing else needs to know it exists: the driver
 * checks memory from the row, builds the Laplacian operator once, and
 * builds the model and the report.
 *
 * How gamma_A and gamma_I reach each objective.  Every solver minimizes
 * JMLR 2006 eq. 4,
 *
 *     1/l sum_{i labeled} V(x_i, y_i, f) + gamma_A |f|_K^2
 *                                         + gamma_I/(l+u)^2 f'L^p f,
 *
 * but states it with its own scaling; the constants, from
 * lsv_fit_ambient(F, a) = a gamma_A and lsv_fit_intrinsic(F, a) =
 * a gamma_I / n^2 (n = l + u), are:
 *
 *   solver (file)                  system or objective              a_A     a_I
 *   LapRLS direct (laprls.c)       (J K + gA l I + gI l/n^2 L K) a = Y  l       l
 *   RLS (laprls.c, gamma_I = 0)    (K_ll + gA l I) a = y            l       -
 *   LapSVM dual (lapsvm_dual.c)    P = 2 gA I + 2 gI/n^2 L K        2       2
 *   SVM (lapsvm_dual.c)            Q = Y K_ll Y / (2 gA)            2       -
 *   LapRLS PCG (pcg.c)             eq. 4 itself, no bias            1       1
 *   LapSVM primal (lapsvm_primal.c) eq. 4, squared hinge, no bias    1       1
 *   feature maps (primal.c)        eq. 4 on f = Phi w + b           1       1
 *   TSVM (tsvm.c)                  C = 1/(2 gA l), no graph         2 l     -
 *   labelaware (labelaware.c)      SVM on K~: Q = Y K~_ll Y / (2 gA)  2     -
 *   kdesign (kdesign.c)            SVM on K~: Q = Y K~_ll Y / (2 gA)  2     -
 *   ManifoldBoost (boost.c)        1/l sum log(1+e^-2yF) + gI/n^2 F'L^pF  -   1
 */
#ifndef LSV_SOLVER_H
#define LSV_SOLVER_H

#include "internal.h"

/* ------------------------------------------------------------------ */
/* The problem handed to a solver                                      */
/* ------------------------------------------------------------------ */

/* Which spectrum a learned kernel takes its eigenvectors from. */
typedef enum {
	LSV_SPEC_KERNEL_TOP = 0,  /* the k largest of K */
	LSV_SPEC_AFFINITY_TOP,    /* the k largest of D^-1/2 W D^-1/2 (the
				     cluster kernel's, W = K off the diagonal) */
	LSV_SPEC_LAPLACIAN_BOTTOM, /* the k smallest of the graph's normalized
				     Laplacian */
	LSV_SPEC_KLAPLACIAN_BOTTOM /* the k smallest of the normalized
				     Laplacian of W = K */
} lsv_spectrum;

/*
 * The eigenpairs of the last spectrum computed, kept across trainings on
 * the same rows (cross validation: every fold and every gamma_A of a
 * block share K and the graph, and the spectrum does not depend on the
 * labels).  Keyed by the spectrum, k, and the addresses of K and of the
 * graph, which the owner (common/cv.c) keeps unchanged while the cache
 * lives.  Owned by the caller of lsv_train_cached; NULL: no caching.
 */
typedef struct {
	int valid;
	lsv_spectrum which;
	size_t n, k;
	const double *K;
	const lsv_graph *graph;
	double *w, *V;  /* k, n x k */
	long hits;      /* lookups served */
} lsv_eig_cache;

void lsv_eig_cache_free(lsv_eig_cache *c);

typedef struct {
	/* In, set by the driver (common/train.c). */
	const lsv_data *x;
	const lsv_train_param *p;   /* resolved: kernel gamma, TSVM C* and r */
	size_t n, l;                /* rows, labeled rows */
	const size_t *lab;          /* the l labeled rows, increasing */
	int nr_class, nr_fn;
	const double *labels;       /* nr_class labels, in class order */
	const double *Y;            /* l x nr_fn targets +-1, column-major
				       (one-vs-rest: +1 for class c) */
	const lsv_lapop *L;         /* L^p as a sparse operator; NULL when
				       gamma_I = 0 or the row uses no graph */
	lsv_eig_cache *eig;         /* a spectrum kept across trainings, or
				       NULL (lsv_spectrum_cached) */
	const lsv_graph *graph;     /* the training graph itself, or NULL:
				       the spectral designs (kdesign.c,
				       labelaware -J laplacian) need its
				       dense normalized Laplacian */
	const double *K;            /* the n x n kernel (column-major), or
				       NULL for a row on a feature map or
				       when this process holds only rows
				       of it (Kr) */
	const struct lsv_krows *Kr; /* the kernel by rows (a distributed
				       row), or NULL: K whole on this
				       process (lsv_fit_krows) */
	const lsv_train_progress *progress;  /* never NULL (may be empty) */
	lsv_train_report *report;   /* never NULL; the solver adds its
				       iteration counts */
	lsv_error *err;
	/* Out: the kernel expansion f_c = K alpha_c + bias_c, both zeroed
	 * by the driver.  A row on a feature map may instead build its own
	 * model (see lsv_fit_fn). */
	double *alpha;              /* n x nr_fn, column-major */
	double *bias;               /* nr_fn */
	int warm;                   /* 1: the driver filled alpha with a
				       start (p->init, a warm start); the
				       iterative solvers begin there (a
				       feature map's row reads its start
				       from p->init itself) */
	size_t *warm_rows;          /* warm: the rows of x that p->init's
				       expansion points are (sv->n, in
				       order), or NULL (the linear map's
				       model holds weights, not rows) */
	double *ystar;              /* TSVM: n x nr_fn final labels, row-major,
				       allocated by the solver (the driver
				       hands it to the report) */
	/* combine (common/combine.c): in, the graphs (F->L is NULL: the
	 * solver builds sum_q lambda_q L_q itself) and the starting
	 * weights (NULL: the average); out, the learned weights (ngraphs,
	 * allocated by the solver; the driver hands them to the model). */
	const lsv_graph *const *graphs;
	size_t ngraphs;
	const double *start;
	double *graph_weight;
} lsv_fit;

/* Refuse, before allocating, count doubles that would not fit: over
 * p->mem_limit, else the physical memory or ulimit -v (LSV_ETOOBIG with a
 * message naming what, the sizes and the hint). */
lsv_status lsv_check_bytes(const lsv_train_param *p, double count,
			   const char *what, const char *hint, lsv_error *err);

/* The distinct values of y[0..count) in order of first appearance, but +1
 * before -1 in a {+1, -1} problem so that f > 0 means +1: the classes and
 * their order, as training finds them (the caller frees *labels).  With
 * order (nr_order classes; lsv_train_param's class_order) the classes
 * found take their places in it instead, any not in it after them. */
lsv_status lsv_fit_classes(const double *y, size_t count,
			   const double *order, int nr_order, double **labels,
			   int *nr, lsv_error *err);

/* malloc of count elements of size, at least one (so 0 is not NULL);
 * NULL when count * size overflows. */
void *lsv_alloc(size_t count, size_t size);

/* a gamma_A and a gamma_I / n^2: the solvers' constants (table above). */
double lsv_fit_ambient(const lsv_fit *F, double a);
double lsv_fit_intrinsic(const lsv_fit *F, double a);

/*
 * A solver's entry point.  A row on the kernel (F->K set) fills
 * F->alpha and F->bias and leaves *out NULL: the driver builds the
 * model from them and the training outputs from K.  A row on a feature
 * map builds the model itself into *out (its expansion is over landmarks
 * or feature weights) with lsv_fit_model or lsv_fit_linear_model, and
 * may set report->train_f.
 */
typedef lsv_status (*lsv_fit_fn)(lsv_fit *F, lsv_model **out);

/* The fit function of p's method if that method solves eq. 4 exactly on
 * the n x n kernel and, at gamma_I = 0, on the labeled rows alone (the
 * table's "exact" column): then its graph term folds into a deformed
 * kernel and cross validation can share one factorization (common/cv.c).
 * NULL for the others (iterative, squared hinge, feature maps, TSVM). */
lsv_fit_fn lsv_method_exact_fit(const lsv_train_param *p);

/* The model of the expansion F->alpha, F->bias: the rows whose
 * coefficients are not all zero (the caller owns *out). */
lsv_status lsv_fit_model(const lsv_fit *F, lsv_model **out);

/* A linear model: one expansion row per function holding its weights W
 * (m x nr_fn, column-major, feature j being column feature[j] of the
 * data) with coefficient 1: f_c(x) = w_c'x + b_c. */
lsv_status lsv_fit_linear_model(const lsv_fit *F, const double *W, size_t m,
				const int *feature, lsv_model **out);

/* ------------------------------------------------------------------ */
/* The solvers (one file each)                                         */
/* ------------------------------------------------------------------ */

lsv_status lsv_fit_laprls_direct(lsv_fit *F, lsv_model **out);  /* laprls.c */
lsv_status lsv_fit_laprls_pcg(lsv_fit *F, lsv_model **out);     /* laprls.c */
lsv_status lsv_fit_lapsvm_dual(lsv_fit *F, lsv_model **out);    /* lapsvm_dual.c */
lsv_status lsv_fit_lapsvm_primal(lsv_fit *F, lsv_model **out);  /* lapsvm_primal.c */
lsv_status lsv_fit_feature_map(lsv_fit *F, lsv_model **out);    /* nystrom.c */
lsv_status lsv_fit_tsvm(lsv_fit *F, lsv_model **out);           /* tsvm.c */
lsv_status lsv_fit_cluster(lsv_fit *F, lsv_model **out);        /* cluster.c */
lsv_status lsv_fit_labelaware(lsv_fit *F, lsv_model **out);     /* labelaware.c */
lsv_status lsv_fit_kdesign(lsv_fit *F, lsv_model **out);        /* kdesign.c */

/* ------------------------------------------------------------------ */
/* The learned kernels' eigen-machinery (common/spectrum.c)            */
/* ------------------------------------------------------------------ */

/* The number k of eigenvectors -s labelaware and -s kdesign take for n
 * rows: -n (p->la_k; above n is the caller's error), else the paper's
 * "top 10%", n/10 (at least 1); -s kdesign -J cluster: n, its linear
 * transfer over the whole spectrum.  One rule for the solvers and the
 * memory check made before them. */
size_t lsv_basis_size(const lsv_train_param *p, size_t n);

/* Every eigenpair of the symmetric n x n A in place by dsyevd (its lower
 * triangle read): w (n) ascending, A's columns the eigenvectors; *info
 * is dsyevd's.  Owns its workspace (queried, then allocated): LSV_ENOMEM
 * without a message when it cannot, the caller naming what failed. */
lsv_status lsv_dsyevd(double *A, size_t n, double *w, int *info);

/* The k largest (largest != 0: w descending) or smallest (w ascending)
 * eigenpairs of the symmetric n x n A (column-major, not modified; the
 * lower triangle is read): w (k), V (n x k, unit columns).  n x n
 * scratch.  LSV_EINVAL when k is 0 or above n. */
lsv_status lsv_eig_extreme(const double *A, size_t n, size_t k, int largest,
			   double *w, double *V, lsv_error *err);
/* The doubles lsv_eig_extreme allocates at its peak for n and k (ints
 * counted as half a double), dsyevd's fallback included: for the memory
 * checks of its callers, which add their own arrays (A, V, w). */
double lsv_eig_extreme_doubles(double n, double k);
/* The k extreme eigenpairs of spectrum `which` from F->eig when it holds
 * them for F's K (or graph), n and k: copied into w, V and 1 returned;
 * else 0.  lsv_spectrum_store keeps a copy there (silently nothing when
 * F->eig is NULL or out of memory: caching only saves time). */
int lsv_spectrum_lookup(const lsv_fit *F, lsv_spectrum which, size_t k,
			double *w, double *V);
void lsv_spectrum_store(const lsv_fit *F, lsv_spectrum which, size_t k,
			const double *w, const double *V);
/* lsv_train_with_kernel with a spectrum cache (NULL: none). */
lsv_status lsv_train_cached(const lsv_data *x, const lsv_graph *g,
			    const lsv_train_param *p, const double *K,
			    lsv_eig_cache *eig,
			    const lsv_train_progress *progress,
			    lsv_model **out, lsv_train_report *report,
			    lsv_error *err);
/* The one-hot target of F's labeled rows, Yoh (l x nr_class, column-
 * major, class order), and counts (nr_class) the labeled rows per class. */
lsv_status lsv_onehot(const lsv_fit *F, double *Yoh, size_t *counts);
/* LSV_EINVAL naming the class when a class has fewer than two labeled
 * rows (who: the method, for the message). */
lsv_status lsv_min_per_class(const lsv_fit *F, const size_t *counts,
			     const char *who);
/* Centered alignment <HKH, YY'>_F / (|HKH|_F |Y'HY|_F) of the l x l
 * Kll with the one-hot Yoh (l x c); 0 when a norm is 0. */
double lsv_centered_alignment(const double *Kll, size_t l, const double *Yoh,
			      int c);
/* The same for the kernel's labeled block: of Knl (n x l, the columns of
 * the labeled rows) when not NULL, else of F->K. */
double lsv_input_alignment(const lsv_fit *F, const double *Knl,
			   const double *Yoh);
/* The SVM (SMO, C = 1/(2 gamma_A l), one-vs-rest as F->Y) on K~_ll of
 * K~ = Z diag(mu) Z' (Z n x q column-major, mu >= 0): F->bias, al (l x
 * nr_fn: alpha_s = y_s beta_s / (2 gamma_A), so f_c = sum_s al_sc
 * K~(., x_s) + b_c), T = diag(mu) Z_l' al (q x nr_fn), the training
 * outputs Z T + b into F->report->train_f, and K~_ll's centered
 * alignment with Yoh into F->report->la_align. */
lsv_status lsv_lowrank_svm(lsv_fit *F, const double *Z, size_t q,
			   const double *mu, const double *Yoh, double *al,
			   double *T);
/* A transductive model (kdesign, labelaware -J laplacian): the labeled
 * rows as expansion points, coefficients al (l x nr_fn, column-major) --
 * the SVM's on the learned kernel, a record: lsv_model_decision refuses
 * such a model (lsv_model_transductive). */
lsv_status lsv_fit_transductive_model(const lsv_fit *F, const double *al,
				      lsv_model **out);
/* Hand a learned kernel's pieces to F->report: n rows, c label-aware
 * vectors, k eigenvectors, the weights *mu and the n x (c + k) base
 * vectors *Z (the report owns both from here: *mu and *Z set to NULL),
 * and the time split in seconds (eigenvectors, weights, SVM). */
void lsv_spectrum_report(lsv_fit *F, size_t n, size_t c, size_t k,
			 double **mu, double **Z, double eig_seconds,
			 double align_seconds, double svm_seconds);
/* F->K positive semi-definite up to 1e-8 of its largest diagonal value
 * when it is a precomputed kernel (-t 4; LSV_EINVAL with its smallest
 * eigenvalue otherwise); LSV_OK for the other kernels, Gram matrices by
 * construction. */
lsv_status lsv_check_psd(const lsv_fit *F);
/* The normalized Laplacian of the dense weights W = K (n x n, column-
 * major): L = diag(d > 0) - D^-1/2 K D^-1/2, d = K 1 (the diagonal K_ii
 * included, as Wang et al. write D_ii = sum_j K_ij); a row of degree 0 is
 * isolated (its row and column of L are 0), as lsv_laplacian_dense does
 * for a graph.  LSV_EINVAL naming the entry when K has a negative or
 * non-finite entry (the weights of a graph must be >= 0). */
lsv_status lsv_kernel_laplacian(const double *K, size_t n, double *L,
				lsv_error *err);
/* The k smallest eigenpairs (w ascending, V n x k) of the normalized
 * Laplacian of F->p->lap_graph's W: of F->K (lsv_kernel_laplacian) or of
 * F->graph (lsv_laplacian_dense); who names the method in the message
 * when F has no graph. */
lsv_status lsv_laplacian_bottom(const lsv_fit *F, size_t k, const char *who,
				double *w, double *V);

/* Eigenvalues of a kernel matrix below this fraction of the largest are
 * dropped: the rank of K_mm (Nystrom) and of K (clustering). */
#define LSV_NYSTROM_CUTOFF 1e-10

/*
 * The Nystrom feature map of x (common/nystrom.c): m = min(landmarks, n)
 * rows idx (increasing) sampled uniformly without replacement, seeded by
 * p->seed; K_mm = U Lambda U', eigenvalues under LSV_NYSTROM_CUTOFF of the
 * largest dropped (rank r); V = U_r Lambda_r^-1/2 (m x r) and the features
 * Phi = K_nm V (n x r), both column-major, so Phi Phi' = K_nm K_mm^+ K_mn
 * and f = Phi w is the expansion sum_j (V w)_j k(z_j, .) over the
 * landmarks.  The caller frees with lsv_nystrom_free.
 */
typedef struct {
	size_t n, m, r;
	size_t *idx;  /* m landmark rows */
	double *V;    /* m x r */
	double *lam;  /* r: Lambda_r, the eigenvalues of V's columns */
	double *Phi;  /* nl x r: rows [lo, lo + nl) */
	size_t lo, nl;
} lsv_nystrom;

lsv_status lsv_nystrom_build(const lsv_data *x, const lsv_train_param *p,
			     lsv_nystrom *ny, lsv_error *err);
/* The same with Phi's rows [lo, lo + nl) only (the landmarks, V and r are
 * those of every block: the sampling is over all n rows, seeded). */
lsv_status lsv_nystrom_build_rows(const lsv_data *x, const lsv_train_param *p,
				  size_t lo, size_t nl, lsv_nystrom *ny,
				  lsv_error *err);
/* The same on the given landmarks: idx (m rows of x, increasing) instead
 * of the seeded sampling -- a warm start keeps its model's landmarks, so
 * that K_mm, V and with them the meaning of w are the model's. */
lsv_status lsv_nystrom_build_at(const lsv_data *x, const lsv_train_param *p,
				const size_t *idx, size_t m, size_t lo,
				size_t nl, lsv_nystrom *ny, lsv_error *err);
/* The weights W (r x C) of the expansion coefficients beta (m x C, both
 * column-major) on the landmarks: the w with V w = beta when beta is in
 * V's range (a model's beta = V w), else the least-squares one.  V =
 * U_r Lambda_r^-1/2 has V'V = Lambda_r^-1, so w = Lambda_r V' beta. */
void lsv_nystrom_weights(const lsv_nystrom *ny, const double *beta, size_t C,
			 double *W);
void lsv_nystrom_free(lsv_nystrom *ny);
lsv_status lsv_fit_combine(lsv_fit *F, lsv_model **out);        /* combine.c */
lsv_status lsv_fit_boost(lsv_fit *F, lsv_model **out);          /* boost.c */

/* ManifoldBoost's cost at F (n values) and its functional gradient:
 * *loss = 1/l sum_r log(1 + exp(-2 y_r F_{lab[r]})), *reg = c F'L^p F
 * (c = gamma_M/n^2; L may be NULL when c = 0), and, g not NULL, g = dV/dF
 * (n values) -- eq. 8 of Loeff et al. (common/boost.c). */
lsv_status lsv_boost_cost(const lsv_lapop *L, double c, size_t n,
			  const size_t *lab, const double *y, size_t l,
			  const double *F, double *g, double *loss,
			  double *reg, lsv_error *err);

/* The same for C >= 2 classes (the multiple logistic, eq. 12-14):
 * *loss = 1/l sum_r -log p_{cls[r]}(x_{lab[r]}), p the softmax of the
 * row of F (n x C, column-major), *reg = c sum_k F_k'L^pF_k, g = dV/dF
 * (n x C) when not NULL. */
lsv_status lsv_boost_mcost(const lsv_lapop *L, double c, size_t n, int C,
			   const size_t *lab, const int *cls, size_t l,
			   const double *F, double *g, double *loss,
			   double *reg, lsv_error *err);

/* The clustering's augmented Lagrangian (Section 4) at F (n x C):
 * *reg = 1/n sum_j F_j'L^pF_j, *pen = sum_a lam_a h_a + mu/2 h_a^2, h (the
 * caller's 2C + C(C-1)/2 values) = mean F_j, mean F_j^2 - 1 for each j,
 * then mean F_j F_k for j < k; g = dV/dF (n x C) when not NULL. */
lsv_status lsv_boost_alcost(const lsv_lapop *L, size_t n, int C,
			    const double *lam, double mu, const double *F,
			    double *g, double *pen, double *reg, double *h,
			    lsv_error *err);

/* The spectral start of clustering by boosting: E (n x C, column-major)
 * = the C eigenvectors of L^p of smallest eigenvalue orthogonal to the
 * constants, each of mean 0 and mean square 1 (common/boost.c).  Dense:
 * 2 n^2 doubles, checked against p's limit first. */
lsv_status lsv_boost_spectral_start(const lsv_lapop *L, size_t n, int C,
				    const lsv_train_param *p, double *E,
				    lsv_error *err);

/* k-means on the n rows of E (n x k, row-major) into c clusters: the best
 * of restarts k-means++ runs seeded by seed, its centres (c x k,
 * row-major) numbered by their first row (common/cluster.c). */
lsv_status lsv_kmeans(const double *E, size_t n, int k, int c,
		      unsigned long long seed, int restarts, double *cent,
		      lsv_error *err);

/* ------------------------------------------------------------------ */
/* Alignment weights (common/alignf.c)                                 */
/* ------------------------------------------------------------------ */

/* min 1/2 v'Mv - a'v over v >= 0 (M q x q symmetric positive
 * semi-definite, column-major) by Lawson & Hanson's active-set method;
 * v (q) gets the minimizer. */
lsv_status lsv_nonneg_qp(const double *M, const double *a, size_t q,
			 double *v, lsv_error *err);
/* alignf (Cortes, Mohri & Rostamizadeh 2010) on the rank-one base
 * kernels z_i z_i' of the columns of Z (l x q, the labeled rows), targets
 * Y (l x C, column-major): mu (q) >= 0, |mu| = 1, maximizing the centered
 * alignment with YY', which goes to *align. */
lsv_status lsv_alignf(const double *Z, size_t l, size_t q, const double *Y,
		      int C, double *mu, double *align, lsv_error *err);
/* min 1/2 mu'M mu - a'mu over the monotone cone mu_1 >= .. >= mu_q >= 0
 * (M q x q symmetric positive semi-definite): by mu_j = sum_{i >= j} t_i,
 * t >= 0, the nonnegative QP in t with R'MR and R'a (R upper triangular
 * ones), lsv_nonneg_qp.  mu (q) the minimizer, t (q, may be NULL) its
 * increments mu_j - mu_{j+1}. */
lsv_status lsv_order_qp(const double *M, const double *a, size_t q,
			double *mu, double *t, lsv_error *err);
/* Zhu, Kandola, Ghahramani & Lafferty (2004): weights mu_1 >= .. >= mu_q
 * >= 0 of the rank-one kernels z_j z_j' of the columns of Z (l x q, the
 * labeled rows), maximizing the (uncentered) alignment <K_mu, T>_F /
 * (|K_mu|_F |T|_F) with T = 2 Y Y' - 1 1' (Y l x C one-hot: +1 for the
 * same class, -1 otherwise; y y' for two classes), scaled so that sum mu
 * = 1 (trace K~ = 1 for unit z_j over the n rows); the alignment reached
 * into *align. */
lsv_status lsv_align_ordered(const double *Z, size_t l, size_t q,
			     const double *Y, int C, double *mu, double *align,
			     lsv_error *err);

/* ------------------------------------------------------------------ */
/* Combining graph Laplacians (common/combine.c)                       */
/* ------------------------------------------------------------------ */

/* B (n x l, column-major) = the columns lab[0..l) of pinv(L), L the
 * (normalized) Laplacian of g: exactly, by one Cholesky factorization of
 * L + V V' (V the orthonormal null vectors, one per connected component).
 * M is the caller's n x n scratch array. */
lsv_status lsv_pinv_columns(const lsv_graph *g, int normalized,
			    const size_t *lab, size_t l, double *M, double *B,
			    lsv_error *err);

/* Z (n x r, column-major) with Z Z' = the rank-r part of pinv(L) from the
 * r smallest nonzero eigenpairs (dsyevr), Z = U diag(1/sqrt(lambda)); *got
 * (<= r) columns are set, fewer when the graph has fewer nonzero
 * eigenvalues; the rest are 0.  M: n x n scratch.  LSV_ENUMERIC when
 * dsyevr fails, or returns fewer pairs than asked. */
lsv_status lsv_pinv_eigen(const lsv_graph *g, int normalized, size_t r,
			  double *M, double *Z, size_t *got, lsv_error *err);

/* The paper's Figure 1 on the labeled blocks.  S is l*l x Q: column q is
 * K_q,ll (column-major, symmetric, already normalized); Y l x C targets;
 * mu > 0; at most steps steps; random: the first improving kernel in a
 * random order drawn from seed, else the argmax.  lambda (Q) holds the
 * start (>= 0, sum 1) and gets the result; C_out (l x C, may be NULL) gets
 * the final coefficients (K_ll(lambda) + mu I)^-1 Y.  *taken, *capped,
 * *obj0 and *obj as in lsv_train_report. */
lsv_status lsv_combine_weights(const double *S, size_t l, size_t Q,
			       const double *Y, int C, double mu, long steps,
			       int random, unsigned long long seed,
			       double *lambda, double *C_out, long *taken,
			       int *capped, double *obj0, double *obj,
			       lsv_error *err);

/*
 * The n x n kernel by rows (common/krows.c): this process holds rows
 * [lo, lo + nl) of K, column-major nl x n: K[(i - lo) + j nl] =
 * k(x_i, x_j).  comm NULL (or of one rank): lo = 0, nl = n, K whole and
 * no communication; otherwise every rank of comm holds its block and
 * calls the products together.  The vectors multiplied are whole (all n
 * rows) and the same on every rank.
 */
typedef struct lsv_krows {
	const double *K;
	size_t n, lo, nl;
	lsv_comm *comm;
} lsv_krows;

/* This rank's block of n rows (lsv_comm_block; all n for comm NULL or of
 * one rank); a rank may get none. */
void lsv_block_rows(lsv_comm *comm, size_t n, size_t *lo, size_t *nl);

/* F's kernel by rows: *F->Kr, or the whole F->K of one process. */
lsv_krows lsv_fit_krows(const lsv_fit *F);

/* Y = K X, X and Y n x C column-major, whole on every rank: this rank's
 * rows by one dgemm, then every rank's rows gathered (one allgatherv). */
lsv_status lsv_krows_mul(const lsv_krows *K, const double *X, int C,
			 double *Y, lsv_error *err);

/* Y (n x C, whole on every rank) from each rank's rows of it, T (nl x C
 * column-major); one process: Y = T (T may be Y). */
lsv_status lsv_krows_gather(const lsv_krows *K, const double *T, int C,
			    double *Y, lsv_error *err);

/* st agreed by every rank of K (lsv_comm_agree; one process: st): a
 * failure of one rank before a product must not leave the others
 * waiting in its gather. */
lsv_status lsv_krows_agree(const lsv_krows *K, lsv_status st,
			   lsv_error *err);

/* LSV_OK when a warm start can be computed with: the sums of squares of
 * its function's values on the rows (f, n x C) and of its unknowns (z,
 * nz x C) finite for every function; else LSV_EINVAL.  A model file's
 * coefficients are finite, but large ones overflow the solver's products
 * (f'f, z'Kz), and it would then stop on a NaN with a message about the
 * kernel or the conditioning instead of about the start. */
lsv_status lsv_check_start(const double *f, size_t n, const double *z,
			   size_t nz, int C, lsv_error *err);

/* LapRLS by PCG (common/pcg.c): K dense n x n, by rows (lsv_krows); L^p
 * with the weight cI
 * (NULL: no graph term); the loss on the rows with act[i + c act_stride]
 * nonzero for function c (act_stride n), or act[i] for all (act_stride
 * 0); labeled[i] nonzero for the l labeled rows (the loss is 1/l times
 * the sum; early stopping watches the other rows); Y n x C targets (0 off
 * the active rows); alpha (n x C) is the start when warm, else 0, and the
 * result; iterations are added to rep->pcg_iterations, and a solve that
 * stops at the cap (p->pcg_max_iter, default LSV_PCG_CAP n) above the
 * tolerance is counted in rep's cg_capped (never an error: the model is
 * the last iterate).  start_res (NULL: not wanted) gets the relative
 * residual at the start, the largest over the classes (1 cold). */
lsv_status lsv_laprls_pcg(const lsv_krows *K, const lsv_lapop *L,
			  double cI, const unsigned char *act,
			  size_t act_stride, const unsigned char *labeled,
			  size_t l, const double *Y, int C,
			  const lsv_train_param *p, double *alpha, int warm,
			  lsv_train_report *rep, double *start_res,
			  lsv_error *err);

/* One binary TSVM problem (common/tsvm.c) on the dense n x n kernel K:
 * labeled rows lab[0..l) with labels ylab (+-1); fills alpha (n), the bias,
 * ystar (n: the final +-1 label of every row), the number of switches and
 * whether the switch cap stopped it; progress may be NULL. */
lsv_status lsv_tsvm_binary(const double *K, size_t n, const size_t *lab,
			   size_t l, const double *ylab,
			   const lsv_train_param *p,
			   const lsv_train_progress *progress, int fn,
			   double *alpha, double *bias, double *ystar,
			   long *switches, int *capped, lsv_error *err);

/* A feature map for the primal solver (common/primal.c): n rows of m
 * features, dense or the stored values of x, ccol[q] the feature (0..m-1)
 * of stored value q.  This process holds rows [lo, lo + nl): dense is
 * column-major nl x m, and of x (all n rows) it reads those rows.  comm
 * NULL (or of one rank): lo = 0, nl = n, no communication; otherwise every
 * rank of comm holds its block and calls lsv_primal_train together. */
typedef struct {
	size_t n, m;
	size_t lo, nl;
	lsv_comm *comm;
	const double *dense;
	const lsv_data *x;
	const int *ccol;
} lsv_fmat;

/* LapRLS (hinge 0) or LapSVM with the squared hinge (hinge 1) in the
 * primal on the feature map M, f = Phi w + b, by the Newton driver:
 * W (m x nr_fn) and bias (nr_fn) are the caller's, the result; with
 * F->warm they hold the start on entry. */
lsv_status lsv_primal_train(lsv_fit *F, const lsv_fmat *M, int hinge,
			    double *W, double *bias);

/* ------------------------------------------------------------------ */
/* Class-dependent Laplacians (common/classes.c)                       */
/* ------------------------------------------------------------------ */

/* The subgraph of g on the labeled rows of x, renumbered 0..l-1 in row
 * order (a training set whose unlabeled rows are isolated trains on its
 * labeled rows alone: they have no loss and no graph term). */
lsv_status lsv_class_labeled_graph(const lsv_graph *g, const lsv_data *x,
				   lsv_graph **out, lsv_error *err);
/* p's class_graph, nr_weight and weights in range: each weight finite and
 * > 0, no class twice, weights only with class_graph (LSV_EINVAL). */
lsv_status lsv_class_weights_check(const lsv_train_param *p, lsv_error *err);
/* w_c of the class label (1 if p gives none for it). */
double lsv_class_weight(const lsv_train_param *p, double label);
/* Every class p weighs is the class of some labeled row of x (else
 * LSV_EINVAL naming it). */
lsv_status lsv_class_weights_known(const lsv_train_param *p,
				   const lsv_data *x, lsv_error *err);
/* L becomes D_w L^p D_w, D_w = diag(sqrt(w of row i's class)) (nothing
 * to do when every w_c is 1): blockdiag(w_c L_c^p) on a graph within the
 * classes of x. */
lsv_status lsv_class_weigh_rows(lsv_lapop *L, const lsv_data *x,
				const lsv_train_param *p, lsv_error *err);

/* ------------------------------------------------------------------ */
/* Class proportions (common/balance.c)                                */
/* ------------------------------------------------------------------ */

/*
 * The bias shift of each of nr_fn functions that makes the fraction
 * target[c] (0 <= target[c] <= 1) of the u unlabeled rows positive:
 * f is u x nr_fn, row-major (a row per unlabeled row, as
 * lsv_model_decision's scores); shift[c] is set so that exactly
 * k = floor(target[c] u + 1/2) rows have f_c + shift[c] > 0, the
 * threshold -shift[c] being the midpoint between the k-th and the
 * (k+1)-th largest value.  Ties that straddle that place move the cut to
 * the nearest place between distinct values (the lower on equal
 * distance); at k = 0 or u the threshold is half the mean gap beyond the
 * extreme value.  u = 0 gives shifts of 0.  One-vs-rest: each function
 * is shifted on its own to its class prior.  A pure function of its
 * arguments (training and the cross-validation folds both call it).
 * LSV_EINVAL for nr_fn < 1, a target outside [0, 1] or a non-finite
 * value; LSV_ENOMEM; LSV_ENUMERIC if a shift overflows.
 */
lsv_status lsv_balance_shift(const double *f, size_t u, int nr_fn,
			     const double *target, double *shift,
			     lsv_error *err);

/* ------------------------------------------------------------------ */
/* The Newton driver (common/newton.c)                                 */
/* ------------------------------------------------------------------ */

/* The most Newton steps a function may take; reaching it is reported
 * (lsv_train_report.newton_capped), not an error. */
#define LSV_NEWTON_MAX_STEPS 200

/* The default iteration cap of one PCG solve on the n x n kernel, times
 * n, and of one CG solve on the linear map, times its m + 1 unknowns (at
 * most LSV_CG_CAP_MAX).  In exact arithmetic CG ends within the
 * dimension; in floating point, on an ill-conditioned system (a small
 * gamma_A, features on different scales) it loses orthogonality and
 * needs more: measured, 77 iterations for n = 30 moons at -e 1e-12 (-i 0
 * -g 2), 231 for n = 200 at -a 1e-6 -i 1, and 18 for the 9 unknowns of
 * 60 raw Pima rows.  A solve that reaches the cap is reported, not an
 * error. */
#define LSV_PCG_CAP 10
#define LSV_CG_CAP 10
#define LSV_CG_CAP_MAX 100000

/*
 * A primal objective F(z) = 1/l sum_{labeled} V(y_r, f_r) + R(z), f = A z
 * (n outputs per function, z of nz unknowns per function), V the squared
 * loss or the squared hinge, R a convex quadratic.  On a region where the
 * active set S (the labeled rows whose loss is on) is fixed, F is
 * quadratic; the objective supplies its minimizer, the outputs of a step
 * and the regularizer's part of the slope along it.  Arrays hold C
 * functions as columns (z: nz x C, f: n x C); live[c] says which
 * functions are still stepping.
 */
typedef struct {
	size_t nz;          /* unknowns per function */
	int joint;          /* 1: one solve serves all functions, so they
			       step together and stop together */
	double full_tol;    /* |t - 1| below this: a full step */
	double small_step;  /* > 0: a step that moves no output by more than
			       small_step (1 + max |f|) also counts as full */
	int stop_stable;    /* stop once no active set changed by a step,
			       the first too when warm (inexact inner
			       solves: pcg-early) */
	void *ctx;
	/* zn: the minimizer of each live function's quadratic on its active
	 * set act (l x C, by labeled rank); z the current point (a warm
	 * start), step the step number. */
	lsv_status (*solve)(void *ctx, const unsigned char *act,
			    const unsigned char *live, long step,
			    const double *z, double *zn);
	/* df = A d for the live functions (d: nz x C, df: n x C). */
	lsv_status (*outputs)(void *ctx, const unsigned char *live,
			      const double *d, double *df);
	/* R's part of F'(t)/2 along d from z, a1[c] + t a2[c], for the
	 * live functions; f = A z and df = A d. */
	lsv_status (*slope)(void *ctx, const unsigned char *live,
			    const double *z, const double *d, const double *f,
			    const double *df, double *a1, double *a2);
	/* NULL, or the agreement of a local outcome by every process of a
	 * distributed objective (the driver's own allocations), so that no
	 * process waits in a collective for one that failed alone. */
	lsv_status (*agree)(void *ctx, lsv_status st);
} lsv_newton_obj;

/*
 * Finite Newton (Keerthi & DeCoste, JMLR 6, 2005) for F->nr_fn functions
 * with targets F->Y on the labeled rows F->lab: from z = 0 (every labeled
 * loss active), solve for the quadratic's minimizer, move to it by the
 * exact line search of F along the step (a full step at the first), update
 * the active sets; a function is done when its set no longer changes
 * under a full step (hinge 0: after one step).  z (nz x C) is the
 * caller's and gets the result.  Steps are added to F->report
 * (newton_steps; newton_capped when a function reaches the cap).
 * F->warm: z holds a start instead; f = A z and the active sets are
 * taken from it, and the first step is line-searched like the others.
 */
lsv_status lsv_newton(lsv_fit *F, const lsv_newton_obj *O, int hinge,
		      double *z);

/* Exact line search along a step of a primal objective: the t >= 0
 * minimizing F(t) = 1/l sum V(y_r, f_r + t df_r) + quadratic, given the l
 * labeled outputs f, their change df, targets y, il = 1/l and the
 * regularizers' part of F'(t)/2 = a1 + t a2; V the squared loss, or the
 * squared hinge (hinge 1: only rows with y (f + t df) < 1 count).  F' is
 * nondecreasing: bracketing then bisection, O(l) per probe. */
double lsv_line_search(size_t l, const double *f, const double *df,
		       const double *y, double il, double a1, double a2,
		       int hinge);

#endif
