/*
 * cv.c -- cross validation of many settings at once (lapsvm-train -v).
 *
 * Every setting is scored by the class-balanced held-out scaled hinge
 * loss of its fold models (lapsvm.h, lsv_cv_settings; why scaled and why
 * balanced: below).  Done naively, a grid of m settings
 * with k folds costs m k trainings, each an n x n solve.  For the methods
 * that solve JMLR 2006 eq. 4 exactly on the kernel, the graph term can be
 * moved into the kernel instead, and then all of them share one
 * factorization.
 *
 * The deformed kernel (Sindhwani, Niyogi & Belkin, "Beyond the point
 * cloud", ICML 2005).  On the span of the n data points,
 *     gamma_A |f|_K^2 + gamma_I/n^2 f'L^p f = gamma_A |f|_K~^2,
 * the norm of the RKHS whose kernel on the data is
 *     K~ = (I + r K L^p)^-1 K,      r = gamma_I / (gamma_A n^2),
 * and eq. 4 becomes 1/l sum V + gamma_A |f|_K~^2 with no graph term: RLS
 * (LapRLS) or the SVM (LapSVM) with kernel K~ on the labeled rows alone,
 * predicting f(x_h) = sum_s K~_hs alpha_s + b.  (Check for LapSVM: its dual
 * matrix is Y J K P^-1 J'Y with P = 2 gamma_A (I + r L^p K), and
 * K P^-1 = K~ / (2 gamma_A), the SVM's Gram matrix at cost 1/(2 gamma_A l).)
 * So a fold needs K~ only on the labeled rows, and K~ depends on gamma_A
 * and gamma_I through r alone.
 *
 * One factorization for every r.  Factor K = G G' (Cholesky with complete
 * pivoting, dpstrf, G n x k with k the numerical rank), and
 * M = G' L^p G = V Lambda V' (k x k, dsyevd).  Then
 *     K~ = G (I + r M)^-1 G' = B diag(1 / (1 + r lambda_j)) B',  B = G V
 * (multiply by I + r K L^p = I + r G G' L^p: the product is G G' = K), and
 * K~ on the l labeled rows costs l^2 k per r (dsyrk on B's labeled rows).
 * The n x n work is one dpstrf (n^3/3), one sparse L^p G, one dgemm
 * (n k^2) and one dsyevd (k^3), whatever the number of settings, folds
 * and classes; each setting and fold is then an l x l problem.  At r = 0
 * (gamma_I = 0: RLS / the SVM) K~ = K exactly, taken from K itself.
 *
 * Class-dependent Laplacians (p->class_graph, common/classes.c) take
 * their graph from the labels, and a fold must not see its held-out
 * rows' labels there: each fold gets its own graph, in which the held-out
 * rows (unlabeled in the fold) have no edge, either g without them
 * (lsv_graph_within_classes) or a graph built anew from the fold's
 * training labels (lsv_cv_settings_rebuild).  A held-out row is then
 * isolated and unlabeled: no loss, no graph term, so no coefficient, and
 * its score comes from the training rows alone, as a new point's would.
 * Every fold is trained (lsv_train then solves the fold's training rows
 * alone, common/train.c).  Sharing would not pay there: with every row
 * labeled the deformed kernel is needed on l = n rows, so each fold would
 * cost an n x n eigendecomposition (its graph differs) plus an n^3 product
 * per ratio r, more than training the fold (one (0.8 n)^3 system); on
 * USPS (n = 7291) two settings took 26 minutes that way.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

/* ------------------------------------------------------------------ */
/* Scoring                                                             */
/* ------------------------------------------------------------------ */

/*
 * Why the hinge loss is scaled.  The held-out hinge loss max(0, 1 - y f)
 * rewards large outputs: a strongly regularized f (large gamma_A or
 * gamma_I) has small values everywhere, so its held-out rows sit inside
 * the margin even when every sign is right, and the plain hinge loss
 * prefers weak regularization.  At tiny l that choice is what goes wrong
 * (Digit1, l = 10: the plain loss picks gamma_I 100 x too small).  So each
 * fold model's f_c is first divided by s_c, the root mean square of f_c
 * over the fold's own training rows: the criterion asks whether the
 * held-out rows get margins like the training rows', whatever f's scale
 * (f and 2 f score the same, as their signs do).
 */

/* s[c] = sqrt(mean over the m rows of f_c^2) (1 if that is 0), f being
 * m x nr_fn with element (i, c) at f[i * rs + c * cs]. */
static void output_scale(const double *f, size_t m, size_t rs, size_t cs,
			 int nr_fn, double *s)
{
	size_t i;
	int c;

	for (c = 0; c < nr_fn; c++) {
		double ss = 0.0;
		for (i = 0; i < m; i++) {
			double v = f[i * rs + (size_t)c * cs];
			ss += v * v;
		}
		s[c] = m > 0 ? sqrt(ss / (double)m) : 0.0;
		if (!(s[c] > 0.0) || !isfinite(s[c]))
			s[c] = 1.0;
	}
}

/*
 * Why each class weighs the same.  With unbalanced labels (3 of one class
 * and 7 of the other, as several of Digit1's l = 10 splits have), a
 * function that predicts the majority everywhere loses on the minority's
 * few held-out rows only, and the plain mean over rows can prefer it to
 * one that separates the classes.  So the loss is the mean over the
 * classes of each class's mean over its held-out rows (the "balanced"
 * loss); with classes of equal size it is the plain mean.
 */
typedef struct {
	int nr;                 /* the classes of all labeled rows */
	double *classes;
	double *sum;            /* per class: scaled hinge of its rows */
	double *sum2;           /* per class: boosting's deviance (the tie
				   breaker), else 0 */
	size_t *count;          /* per class: its held-out rows */
} class_loss;

static void class_loss_reset(class_loss *a)
{
	int c;
	for (c = 0; c < a->nr; c++) {
		a->sum[c] = 0.0;
		a->sum2[c] = 0.0;
		a->count[c] = 0;
	}
}

/* The balanced mean of sum (or sum2), per function. */
static double class_loss_mean(const class_loss *a, const double *sum,
			      int nr_fn)
{
	double total = 0.0;
	int c, k = 0;

	for (c = 0; c < a->nr; c++)
		if (a->count[c] > 0) {
			total += sum[c] / (double)a->count[c];
			k++;
		}
	return k > 0 ? total / ((double)k * (double)nr_fn) : 0.0;
}

/*
 * Boosting (LSV_SOLVER_BOOST) is scored by its held-out error instead
 * (class-balanced as above), ties broken by its held-out deviance
 * phi(y, F) = log(1 + exp(-2 y F)) of the fold model's F (the loss it was
 * trained on; F is a log-odds, 1/2 log(p/(1 - p)), so its scale is not
 * divided out), or with one function per class the multinomial deviance
 * -log p_y, p_c = exp(F_c) / sum_c' exp(F_c') (Loeff et al. eq. 13).
 * Why not the deviance alone: boosting run to many rounds without the
 * graph term drives the training loss to 0 and F to large values, so a
 * few held-out mistakes made with great confidence dominate its deviance
 * and any gamma_M > 0, which keeps F small, wins even when it makes more
 * mistakes (Ionosphere, 200 rounds: gamma_M = 0 had the lowest error and
 * the largest deviance).  The error is what the paper reports; the
 * deviance still ranks settings the few held-out rows of a small l tie.
 */

/* log(1 + exp(z)) without overflow */
static double softplus(double z)
{
	return z > 0.0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* The deviance of a held-out row of label y (above). */
static double deviance(double y, const double *sc, const double *labels,
		       int nr_fn)
{
	double mx, s = 0.0, fy = 0.0;
	int c;

	if (nr_fn == 1)
		return softplus(-2.0 * (y == labels[0] ? 1.0 : -1.0) * sc[0]);
	mx = sc[0];
	for (c = 1; c < nr_fn; c++)
		mx = fmax(mx, sc[c]);
	for (c = 0; c < nr_fn; c++) {
		s += exp(sc[c] - mx);
		if (y == labels[c])
			fy = sc[c];
	}
	return mx + log(s) - fy;
}

/* One held-out row of label y with scores sc (nr_fn) of a fold model
 * whose classes are labels and whose output scales are scale: its loss
 * (the scaled hinge loss summed over the functions, or with dev its
 * deviance), added to its class in acc, and whether it is predicted right
 * (lsv_model_label's rule, on the unscaled scores). */
static void score_row(double y, const double *sc, const double *scale,
		      const double *labels, int nr_class, int nr_fn, int dev,
		      class_loss *acc, size_t *correct)
{
	lsv_model m;
	double loss = 0.0, loss2 = 0.0;
	int c, right;

	memset(&m, 0, sizeof m);
	m.nr_class = nr_class;
	m.nr_fn = nr_fn;
	m.labels = (double *)labels;
	right = lsv_model_label(&m, sc) == y;
	*correct += right;
	if (dev) {  /* times nr_fn: class_loss_mean divides by it */
		loss = right ? 0.0 : (double)nr_fn;
		loss2 = deviance(y, sc, labels, nr_fn) * (double)nr_fn;
	} else
		for (c = 0; c < nr_fn; c++) {
			/* y_c = +1 for the row's class (the first label with
			 * one function), else -1 */
			double yc = y == labels[c] ? 1.0 : -1.0;
			loss += fmax(0.0, 1.0 - yc * sc[c] / scale[c]);
		}
	for (c = 0; c < acc->nr; c++)
		if (acc->classes[c] == y) {
			acc->sum[c] += loss;
			acc->sum2[c] += loss2;
			acc->count[c]++;
		}
}

/* ------------------------------------------------------------------ */
/* Every fold trained (any method)                                     */
/* ------------------------------------------------------------------ */

/* The held-out rows of fold f scored from scores (n x nr_fn, row-major,
 * of the fold model m), scaled by m's outputs on the fold's training rows
 * (the labeled rows of other folds). */
static lsv_status score_fold(const lsv_data *x, const int *fold, long f,
			     const double *scores, const lsv_model *m,
			     class_loss *acc, size_t *correct, lsv_error *err)
{
	size_t C = (size_t)m->nr_fn, i, t = 0;
	double *tr = lsv_alloc(x->l * C, sizeof *tr);
	double *scale = lsv_alloc(C, sizeof *scale);

	if (tr == NULL || scale == NULL) {
		free(tr);
		free(scale);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	for (i = 0; i < x->n; i++)
		if (fold[i] >= 0 && fold[i] != f && t < x->l)
			memcpy(tr + C * t++, scores + i * C, C * sizeof *tr);
	output_scale(tr, t, C, 1, m->nr_fn, scale);
	for (i = 0; i < x->n; i++)
		if (fold[i] == f)
			score_row(x->y[i], scores + i * C, scale, m->labels,
				  m->nr_class, m->nr_fn,
				  m->param.solver == LSV_SOLVER_BOOST, acc,
				  correct);
	free(tr);
	free(scale);
	return LSV_OK;
}

/* The training set of fold f: x with its held-out rows unlabeled (y is
 * the caller's n labels for it). */
static lsv_data fold_data(const lsv_data *x, const int *fold, long f,
			  double *y)
{
	lsv_data xf = *x;
	size_t i, held = 0;

	memcpy(y, x->y, x->n * sizeof *y);
	for (i = 0; i < x->n; i++)
		if (fold[i] == f) {
			y[i] = x->unlabeled;
			held++;
		}
	xf.y = y;
	xf.l = x->l - held;
	return xf;
}

/* The graph of each fold, for class-dependent Laplacians: from the
 * fold's training labels only (held-out rows isolated), g without its
 * edges at the held-out rows or, with gp, built anew (lsv_graph_build_
 * classes).  gs (folds entries) gets them; the caller frees them. */
static lsv_status fold_graphs(const lsv_data *x, const lsv_graph *g,
			      const lsv_graph_param *gp, const int *fold,
			      long folds, lsv_graph **gs, lsv_error *err)
{
	double *y = lsv_alloc(x->n, sizeof *y);
	lsv_status st = LSV_OK;
	long f;

	if (y == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (f = 0; f < folds && st == LSV_OK; f++) {
		lsv_data xf = fold_data(x, fold, f, y);
		st = gp != NULL ? lsv_graph_build_classes(&xf, gp, &gs[f], NULL, err)
				: lsv_graph_within_classes(g, &xf, &gs[f], err);
	}
	free(y);
	return st;
}

/*
 * The graph of each fold for boosting: g without the edges at the fold's
 * held-out rows.  Why: a boosted F is the sum of its trees at any x, on
 * the graph or not, so a held-out row can be scored as the new point it
 * is; left in the graph as an unlabeled row, its F would be pulled toward
 * its neighbours' during training, which the rows it stands for (a test
 * set, or with every row labeled the graph over the labeled rows only,
 * Loeff et al.'s fully supervised case) never are.  gs (folds entries)
 * gets them; the caller frees them.
 */
static lsv_status fold_graphs_isolated(const lsv_graph *g, const int *fold,
				       long folds, lsv_graph **gs,
				       lsv_error *err)
{
	size_t i, q;
	long f;

	for (f = 0; f < folds; f++) {
		lsv_graph *h = calloc(1, sizeof *h);
		size_t nnz = 0;

		if (h != NULL) {
			h->rowptr = malloc((g->n + 1) * sizeof *h->rowptr);
			h->col = malloc((g->nnz ? g->nnz : 1) * sizeof *h->col);
			h->w = malloc((g->nnz ? g->nnz : 1) * sizeof *h->w);
		}
		if (h == NULL || !h->rowptr || !h->col || !h->w) {
			lsv_graph_free(h);
			return lsv_fail(err, LSV_ENOMEM, "out of memory for a "
					"graph of %zu entries", g->nnz);
		}
		h->n = g->n;
		for (i = 0; i < g->n; i++) {
			h->rowptr[i] = nnz;
			if (fold[i] == f)
				continue;
			for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++)
				if (fold[g->col[q]] != f) {
					h->col[nnz] = g->col[q];
					h->w[nnz++] = g->w[q];
				}
		}
		h->rowptr[g->n] = nnz;
		h->nnz = nnz;
		gs[f] = h;
	}
	return LSV_OK;
}

/* Every fold of setting p trained; gs: the folds' own graphs (class-
 * dependent Laplacians), or NULL for g in every fold. */
static lsv_status retrain_one(const lsv_data *x, const lsv_graph *g,
			      lsv_graph *const *gs,
			      const lsv_train_param *p, const double *K,
			      lsv_eig_cache *eig,
			      const lsv_train_progress *train, const int *fold,
			      long folds, class_loss *acc, lsv_cv_score *s,
			      lsv_error *err)
{
	size_t n = x->n;
	double *y = lsv_alloc(n, sizeof *y), *scores = NULL;
	lsv_data xf;
	lsv_train_param q = *p;
	lsv_status st = LSV_OK;
	int nr_fn = 1;
	long f;

	if (y == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	/* the whole data's class order in every fold, whichever labeled
	 * rows it holds out: the first class is -p r's in all of them */
	q.class_order = acc->classes;
	q.class_order_n = acc->nr;
	s->correct = 0;
	class_loss_reset(acc);
	for (f = 0; f < folds && st == LSV_OK; f++) {
		lsv_model *m = NULL;
		lsv_train_report rep;

		xf = fold_data(x, fold, f, y);
		if ((st = lsv_train_cached(&xf, gs != NULL ? gs[f] : g, &q, K, eig,
					    train, &m, &rep, err)) != LSV_OK) {
			lsv_error e = *err;
			st = lsv_fail(err, e.status, "fold %ld of %ld: %s", f + 1,
				      folds, e.msg);
			break;
		}
		nr_fn = m->nr_fn;
		free(scores);
		scores = lsv_alloc(n * (size_t)nr_fn, sizeof *scores);
		if (scores == NULL)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		/* the solver's own outputs when it kept them (same values up
		 * to rounding), else from the model */
		else if (rep.train_f != NULL)
			memcpy(scores, rep.train_f,
			       n * (size_t)nr_fn * sizeof *scores);
		else
			st = lsv_model_decision(m, x, scores, err);
		if (st == LSV_OK)
			st = score_fold(x, fold, f, scores, m, acc, &s->correct,
					err);
		lsv_train_report_free(&rep);
		lsv_model_free(m);
	}
	s->loss = class_loss_mean(acc, acc->sum, nr_fn);
	s->tie = class_loss_mean(acc, acc->sum2, nr_fn);
	free(scores);
	free(y);
	return st;
}

/* ------------------------------------------------------------------ */
/* The deformed kernel (see the top)                                   */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t n, l, k;   /* rows, labeled rows, rank of K */
	double *B;        /* l x k: the labeled rows of G V */
	double *lambda;   /* k eigenvalues of G' L^p G, >= 0 */
	double *W;        /* l x k scratch */
	double *Ball;     /* n x k: G V, kept only for the balance (-p) */
} deformed;

static void deformed_free(deformed *D)
{
	free(D->Ball);
	free(D->B);
	free(D->lambda);
	free(D->W);
	memset(D, 0, sizeof *D);
}

/* G (n x k) from K = G G': dpstrf gives P'KP = R R' with R lower n x k
 * (k the numerical rank, to dpstrf's default tolerance n eps max K_ii),
 * so row piv[i] of G is row i of R. */
static lsv_status pivoted_factor(const double *K, size_t n, double **Gout,
				 size_t *kout, lsv_error *err)
{
	int N = (int)n, rank = 0, info = 0, *piv = lsv_alloc(n, sizeof *piv);
	double tol = -1.0, *A = lsv_alloc(n * n, sizeof *A);
	double *work = lsv_alloc(2 * n, sizeof *work), *G = NULL;
	size_t i, j, k;
	lsv_status st = LSV_OK;

	if (piv == NULL || A == NULL || work == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	memcpy(A, K, n * n * sizeof *A);
	dpstrf_("L", &N, A, &N, piv, &rank, &tol, work, &info, 1);
	if (info < 0 || rank < 0) {
		st = lsv_fail(err, LSV_ENUMERIC,
			      "pivoted Cholesky of the kernel failed (LAPACK "
			      "dpstrf info %d)", info);
		goto done;
	}
	k = (size_t)rank;
	if ((G = calloc(n * (k ? k : 1), sizeof *G)) == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	for (j = 0; j < k; j++)
		for (i = j; i < n; i++)
			G[(size_t)(piv[i] - 1) + j * n] = A[i + j * n];
	*Gout = G;
	*kout = k;
done:
	free(piv);
	free(A);
	free(work);
	return st;
}

/* M = G' L^p G (k x k), symmetrized; its eigenvalues (clipped at 0: L^p
 * is positive semi-definite) into lambda and eigenvectors over M. */
static lsv_status graph_eigen(const double *G, size_t n, size_t k,
			      const lsv_lapop *L, double *M, double *lambda,
			      lsv_error *err)
{
	int N = (int)n, Kk = (int)k, info = 0;
	double *LG = lsv_alloc(n * k, sizeof *LG);
	const double one = 1.0, zero = 0.0;
	size_t i, j;
	lsv_status st;

	if (LG == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	if ((st = lsv_lapop_apply(L, G, LG, k, 1.0, err)) != LSV_OK) {
		free(LG);
		return st;
	}
	dgemm_("T", "N", &Kk, &Kk, &N, &one, G, &N, LG, &N, &zero, M, &Kk, 1, 1);
	free(LG);
	for (j = 0; j < k; j++)
		for (i = j + 1; i < k; i++)
			M[i + j * k] = M[j + i * k] =
				0.5 * (M[i + j * k] + M[j + i * k]);
	if (lsv_dsyevd(M, k, lambda, &info) != LSV_OK)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
	else if (info != 0)
		st = lsv_fail(err, LSV_ENUMERIC,
			      "eigendecomposition of G'LG failed (LAPACK "
			      "dsyevd info %d)", info);
	for (j = 0; j < k; j++)
		lambda[j] = fmax(lambda[j], 0.0);
	return st;
}

static lsv_status deformed_init(deformed *D, const double *K, size_t n,
				const size_t *lab, size_t l, const lsv_lapop *L,
				int all_rows, lsv_error *err)
{
	double *G = NULL, *M = NULL, *Gl = NULL;
	const double one = 1.0, zero = 0.0;
	size_t k = 0, i, j;
	int Ll, Kk;
	lsv_status st;

	memset(D, 0, sizeof *D);
	if ((st = pivoted_factor(K, n, &G, &k, err)) != LSV_OK)
		return st;
	D->n = n;
	D->l = l;
	D->k = k;
	M = lsv_alloc(k * k, sizeof *M);
	Gl = lsv_alloc(l * k, sizeof *Gl);
	D->B = lsv_alloc(l * k, sizeof *D->B);
	D->W = lsv_alloc(l * k, sizeof *D->W);
	D->lambda = lsv_alloc(k, sizeof *D->lambda);
	if (!M || !Gl || !D->B || !D->W || !D->lambda) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	if (k > 0 && (st = graph_eigen(G, n, k, L, M, D->lambda, err)) != LSV_OK)
		goto done;
	for (j = 0; j < k; j++)
		for (i = 0; i < l; i++)
			Gl[i + j * l] = G[lab[i] + j * n];
	Ll = (int)l;
	Kk = (int)k;
	if (k > 0)
		dgemm_("N", "N", &Ll, &Kk, &Kk, &one, Gl, &Ll, M, &Kk, &zero, D->B,
		       &Ll, 1, 1);
	if (all_rows && k > 0) {  /* G V on every row */
		int N = (int)n;
		if ((D->Ball = lsv_alloc(n * k, sizeof *D->Ball)) == NULL) {
			st = lsv_fail(err, LSV_ENOMEM, "out of memory");
			goto done;
		}
		dgemm_("N", "N", &N, &Kk, &Kk, &one, G, &N, M, &Kk, &zero, D->Ball,
		       &N, 1, 1);
	}
done:
	free(G);
	free(M);
	free(Gl);
	if (st != LSV_OK)
		deformed_free(D);
	return st;
}

/* Kt (l x l) = K~ on the labeled rows at ratio r:
 * B diag(1/(1 + r lambda)) B', one dsyrk on B scaled by the square roots. */
static void deformed_kernel(deformed *D, double r, double *Kt)
{
	size_t l = D->l, k = D->k, i, j;
	int Ll = (int)l, Kk = (int)k;
	const double one = 1.0, zero = 0.0;

	for (j = 0; j < k; j++) {
		double s = 1.0 / sqrt(1.0 + r * D->lambda[j]);
		for (i = 0; i < l; i++)
			D->W[i + j * l] = D->B[i + j * l] * s;
	}
	if (k == 0) {
		memset(Kt, 0, l * l * sizeof *Kt);
		return;
	}
	dsyrk_("L", "N", &Ll, &Kk, &one, D->W, &Ll, &zero, Kt, &Ll, 1, 1);
	for (j = 0; j < l; j++)
		for (i = j + 1; i < l; i++)
			Kt[j + i * l] = Kt[i + j * l];
}

/* Ka (n x l) = K~ between every row and the labeled rows at ratio r:
 * G V diag(1/(1 + r lambda)) (labeled rows of G V)'. */
static void deformed_columns(deformed *D, double r, double *Ka)
{
	size_t l = D->l, k = D->k, n = D->n, i, j;
	int N = (int)n, Ll = (int)l, Kk = (int)k;
	const double one = 1.0, zero = 0.0;

	if (k == 0) {
		memset(Ka, 0, n * l * sizeof *Ka);
		return;
	}
	for (j = 0; j < k; j++) {
		double s = 1.0 / (1.0 + r * D->lambda[j]);
		for (i = 0; i < l; i++)
			D->W[i + j * l] = D->B[i + j * l] * s;
	}
	dgemm_("N", "T", &N, &Ll, &Kk, &one, D->Ball, &N, D->W, &Ll, &zero, Ka,
	       &N, 1, 1);
}

/* ------------------------------------------------------------------ */
/* One setting on the deformed kernel                                  */
/* ------------------------------------------------------------------ */

/* What every fold of every setting shares: the labeled rows, their
 * labels and folds, and scratch for the largest fold. */
typedef struct {
	size_t l;
	const double *y;      /* l labels */
	const double *labels; /* their classes, the order of every fold's */
	int nr_class;
	const int *fold;      /* l folds */
	long folds;
	size_t *S, *H, *iota; /* training / held-out positions, 0..l-1 */
	double *Ks, *Khs, *ys, *Y, *alpha, *f, *bias, *row, *ftr, *scale;
	/* the balance (-p): K~ between every row and the labeled ones */
	size_t n;
	const double *Ka;     /* n x l, or NULL without balance */
	const size_t *lab;    /* the labeled rows (l) */
	double *Ko, *fo, *target; /* rows not in training x |S|, their values */
	unsigned char *intrain;   /* n: row in the fold's training set */
} shared_cv;

/* -p: the fold model's values on the rows outside its training set (the
 * unlabeled rows and the held-out ones, unlabeled in the fold) and the
 * bias shifts that give each function its target fraction of positives
 * there, as lsv_train's balance step does (common/train.c). */
static lsv_status fold_balance(shared_cv *C, lsv_fit *F, size_t ns,
			       const double *labels, lsv_error *err)
{
	size_t n = C->n, no = 0, i, j;
	int NO, NS = (int)ns, NF = F->nr_fn, c;
	const double one = 1.0, zero = 0.0;
	const lsv_train_param *p = F->p;
	double *shift = C->row;
	lsv_status st;

	memset(C->intrain, 0, n);
	for (j = 0; j < ns; j++)
		C->intrain[C->lab[C->S[j]]] = 1;
	for (i = 0; i < n; i++) {
		if (C->intrain[i])
			continue;
		for (j = 0; j < ns; j++)
			C->Ko[no + j * (n - ns)] = C->Ka[i + C->S[j] * n];
		no++;
	}
	NO = (int)no;
	if (no == 0)
		return LSV_OK;
	/* Ko is (n - ns) x ns with leading dimension n - ns = no */
	dgemm_("N", "N", &NO, &NF, &NS, &one, C->Ko, &NO, F->alpha, &NS, &zero,
	       C->f, &NO, 1, 1);
	for (i = 0; i < no; i++)  /* row-major with the bias, as train_f */
		for (c = 0; c < NF; c++)
			C->fo[i * (size_t)NF + (size_t)c] =
				C->f[i + (size_t)c * no] + F->bias[c];
	for (c = 0; c < NF; c++) {
		size_t in = 0;
		for (j = 0; j < ns; j++)
			in += C->ys[j] == labels[c];
		C->target[c] = p->balance == LSV_BALANCE_GIVEN
			       ? p->balance_r : (double)in / (double)ns;
	}
	if ((st = lsv_balance_shift(C->fo, no, NF, C->target, shift, err)) !=
	    LSV_OK)
		return st;
	for (c = 0; c < NF; c++)
		F->bias[c] += shift[c];
	return LSV_OK;
}

/* Fold f's training positions S (labels ys) and held-out ones H among
 * the l labeled rows, in order. */
static void fold_split(shared_cv *C, long f, size_t *ns, size_t *nh)
{
	size_t i;

	*ns = *nh = 0;
	for (i = 0; i < C->l; i++) {
		if (C->fold[i] == f)
			C->H[(*nh)++] = i;
		else
			C->ys[*ns] = C->y[i], C->S[(*ns)++] = i;
	}
}

/* F: the fold's training problem on the block Ks = K~_SS of Kt, one
 * function per class (one for two classes) with targets Y = +-1, from
 * alpha = 0 and b = 0, under q (gamma_I = 0: the graph is inside K~). */
static void fold_problem(shared_cv *C, const double *Kt, size_t ns,
			 const double *labels, int nr_class,
			 const lsv_train_param *q, lsv_train_report *rep,
			 lsv_error *err, lsv_fit *F)
{
	static const lsv_train_progress none = {NULL, NULL, NULL};
	size_t l = C->l, i, j;
	int c;

	memset(F, 0, sizeof *F);
	F->p = q;
	F->n = F->l = ns;
	F->lab = C->iota;
	F->nr_class = nr_class;
	F->nr_fn = nr_class == 2 ? 1 : nr_class;
	F->labels = labels;
	F->Y = C->Y;
	F->K = C->Ks;
	F->progress = &none;
	F->report = rep;
	F->err = err;
	F->alpha = C->alpha;
	F->bias = C->bias;
	for (c = 0; c < F->nr_fn; c++) {
		F->bias[c] = 0.0;
		for (i = 0; i < ns; i++) {
			C->Y[i + (size_t)c * ns] = C->ys[i] == labels[c] ? 1.0 : -1.0;
			C->alpha[i + (size_t)c * ns] = 0.0;
		}
	}
	for (j = 0; j < ns; j++)
		for (i = 0; i < ns; i++)
			C->Ks[i + j * ns] = Kt[C->S[i] + C->S[j] * l];
}

/* An ill-conditioned system can give infinite or NaN coefficients
 * without the solver noticing: refused here, not scored. */
static lsv_status coefficients_finite(const double *alpha, size_t count,
				      lsv_error *err)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!isfinite(alpha[i]))
			return lsv_fail(err, LSV_ENUMERIC,
					"training produced non-finite coefficients "
					"(ill-conditioned system)");
	return LSV_OK;
}

/* The fold model's held-out rows scored into acc and correct: f_H =
 * K~_HS alpha + b (nh x nr_fn), each function divided by s_c, its RMS
 * on the training rows' values Ks alpha + b (why: Scoring, above). */
static void score_held_out(shared_cv *C, const double *Kt, const lsv_fit *F,
			   size_t ns, size_t nh, class_loss *acc,
			   size_t *correct)
{
	size_t l = C->l, i, j;
	int NS = (int)ns, NH = (int)nh, NF = F->nr_fn, c;
	const double one = 1.0, zero = 0.0;

	for (j = 0; j < ns; j++)
		for (i = 0; i < nh; i++)
			C->Khs[i + j * nh] = Kt[C->H[i] + C->S[j] * l];
	dgemm_("N", "N", &NH, &NF, &NS, &one, C->Khs, &NH, C->alpha, &NS,
	       &zero, C->f, &NH, 1, 1);
	dgemm_("N", "N", &NS, &NF, &NS, &one, C->Ks, &NS, C->alpha, &NS,
	       &zero, C->ftr, &NS, 1, 1);
	for (c = 0; c < NF; c++)
		for (i = 0; i < ns; i++)
			C->ftr[i + (size_t)c * ns] += F->bias[c];
	output_scale(C->ftr, ns, 1, ns, NF, C->scale);
	for (i = 0; i < nh; i++) {
		for (c = 0; c < NF; c++)
			C->row[c] = C->f[i + (size_t)c * nh] + F->bias[c];
		score_row(C->y[C->H[i]], C->row, C->scale, F->labels,
			  F->nr_class, NF, 0, acc, correct);
	}
}

/* Fold f of one setting (p) on K~ at its ratio (Kt, l x l): trained on
 * the fold's labeled rows by fit, balanced (-p) and its held-out rows
 * scored; *nr_fn_out gets its number of functions. */
static lsv_status fold_fit(shared_cv *C, const double *Kt,
			   const lsv_train_param *p, lsv_fit_fn fit, long f,
			   class_loss *acc, size_t *correct, int *nr_fn_out,
			   lsv_error *err)
{
	lsv_train_param q = *p;
	lsv_train_report rep;
	double *labels = NULL;
	size_t ns, nh;
	int nr_class = 0;
	lsv_fit F;
	lsv_status st;

	fold_split(C, f, &ns, &nh);
	if ((st = lsv_fit_classes(C->ys, ns, C->labels, C->nr_class, &labels,
				  &nr_class, err)) != LSV_OK)
		return st;
	memset(&rep, 0, sizeof rep);
	q.gamma_I = 0.0;  /* the graph is inside Kt */
	fold_problem(C, Kt, ns, labels, nr_class, &q, &rep, err, &F);
	if (nr_class < 2)
		st = lsv_fail(err, LSV_EINVAL,
			      "fold %ld: the training rows have only one class", f + 1);
	else
		st = fit(&F, NULL);
	if (st == LSV_OK)
		st = coefficients_finite(C->alpha, ns * (size_t)F.nr_fn, err);
	if (st == LSV_OK && C->Ka != NULL)
		st = fold_balance(C, &F, ns, labels, err);
	if (st == LSV_OK && nh > 0)
		score_held_out(C, Kt, &F, ns, nh, acc, correct);
	*nr_fn_out = F.nr_fn;
	free(labels);
	return st;
}

static void shared_free(shared_cv *C)
{
	free(C->S);
	free(C->H);
	free(C->iota);
	free(C->Ks);
	free(C->Khs);
	free(C->ys);
	free(C->Y);
	free(C->alpha);
	free(C->f);
	free(C->bias);
	free(C->row);
	free(C->ftr);
	free(C->scale);
	free(C->Ko);
	free(C->fo);
	free(C->target);
	free(C->intrain);
}

/* Scratch for folds of up to l rows and nr_class classes. */
static lsv_status shared_init(shared_cv *C, size_t n, size_t l,
			      int nr_class, int balance, lsv_error *err)
{
	size_t i, nf = (size_t)(nr_class > 2 ? nr_class : 1);

	if (balance) {  /* values of the rows outside a fold's training set */
		C->Ko = lsv_alloc(n * l, sizeof *C->Ko);
		C->fo = lsv_alloc(n * nf, sizeof *C->fo);
		C->target = lsv_alloc(nf, sizeof *C->target);
		C->intrain = lsv_alloc(n, 1);
		if (!C->Ko || !C->fo || !C->target || !C->intrain)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}

	C->S = lsv_alloc(l, sizeof *C->S);
	C->H = lsv_alloc(l, sizeof *C->H);
	C->iota = lsv_alloc(l, sizeof *C->iota);
	C->Ks = lsv_alloc(l * l, sizeof *C->Ks);
	C->Khs = lsv_alloc(l * l, sizeof *C->Khs);
	C->ys = lsv_alloc(l, sizeof *C->ys);
	C->Y = lsv_alloc(l * nf, sizeof *C->Y);
	C->alpha = lsv_alloc(l * nf, sizeof *C->alpha);
	C->f = lsv_alloc((balance ? n : l) * nf, sizeof *C->f);
	C->bias = lsv_alloc(nf, sizeof *C->bias);
	C->row = lsv_alloc(nf, sizeof *C->row);
	C->ftr = lsv_alloc(l * nf, sizeof *C->ftr);
	C->scale = lsv_alloc(nf, sizeof *C->scale);
	if (!C->S || !C->H || !C->iota || !C->Ks || !C->Khs || !C->ys || !C->Y ||
	    !C->alpha || !C->f || !C->bias || !C->row || !C->ftr || !C->scale)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (i = 0; i < l; i++)
		C->iota[i] = i;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The driver                                                          */
/* ------------------------------------------------------------------ */

/* Settings the same but for gamma_A and gamma_I? */
static int same_but_reg(const lsv_train_param *a, const lsv_train_param *b)
{
	return a->solver == b->solver && a->method == b->method &&
	       a->kernel.type == b->kernel.type &&
	       a->kernel.degree == b->kernel.degree &&
	       a->kernel.gamma == b->kernel.gamma &&
	       a->kernel.coef0 == b->kernel.coef0 &&
	       a->normalized == b->normalized && a->power == b->power &&
	       a->eps == b->eps && a->max_iter == b->max_iter &&
	       a->landmarks == b->landmarks && a->balance == b->balance &&
	       a->balance_r == b->balance_r;
}

/* r = gamma_I / (gamma_A n^2) of setting k, for sorting. */
typedef struct {
	double r;
	size_t k;
} ratio_key;

static int cmp_ratio(const void *pa, const void *pb)
{
	const ratio_key *a = pa, *b = pb;
	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* The labeled rows in order: their index in x (lab), label (ylab) and
 * fold (flab), l of each. */
static void labeled_rows(const lsv_data *x, const int *fold, size_t *lab,
			 double *ylab, int *flab)
{
	size_t i, j;

	for (i = 0, j = 0; i < x->n && j < x->l; i++)
		if (lsv_data_is_labeled(x, i)) {
			lab[j] = i;
			ylab[j] = x->y[i];
			flab[j++] = fold[i];
		}
}

/* order (m): each setting's r = gamma_I / (gamma_A n^2), the one number
 * K~ depends on, sorted so that the settings sharing an r are neighbours
 * (K~ is then computed once for them); returns whether any r > 0 (the
 * factorization is needed only then). */
static int by_ratio(const lsv_train_param *p, size_t m, size_t n,
		    ratio_key *order)
{
	double nn = (double)n * (double)n;
	size_t t;
	int any_graph = 0;

	for (t = 0; t < m; t++) {
		order[t].r = p[t].gamma_I / (p[t].gamma_A * nn);
		order[t].k = t;
		any_graph |= order[t].r > 0.0;
	}
	qsort(order, m, sizeof *order, cmp_ratio);
	return any_graph;
}

/* K~ at ratio r on the l labeled rows lab into Kt (l x l) and, for the
 * balance (Ka not NULL), between every row and them into Ka (n x l): at
 * r = 0 K itself, else the deformed kernel from D's factorization. */
static void ratio_kernel(const double *K, size_t n, const size_t *lab,
			 size_t l, deformed *D, double r, double *Kt,
			 double *Ka)
{
	size_t i, j;

	if (r == 0.0) {  /* K itself: RLS / the SVM */
		for (j = 0; j < l; j++)
			for (i = 0; i < l; i++)
				Kt[i + j * l] = K[lab[i] + lab[j] * n];
		for (j = 0; Ka != NULL && j < l; j++)
			memcpy(Ka + j * n, K + lab[j] * n, n * sizeof *Ka);
	} else {
		deformed_kernel(D, r, Kt);
		if (Ka != NULL)
			deformed_columns(D, r, Ka);
	}
}

/* One setting pk scored over the folds on its K~ (Kt): s's count of
 * correct rows and its class-balanced loss; no tie breaker but the
 * regularization. */
static lsv_status score_setting(shared_cv *C, const double *Kt,
				const lsv_train_param *pk, lsv_fit_fn fit,
				long folds, class_loss *acc, lsv_cv_score *s,
				lsv_error *err)
{
	lsv_status st = LSV_OK;
	int nr_fn = 1;
	long f;

	s->correct = 0;
	class_loss_reset(acc);
	for (f = 0; f < folds && st == LSV_OK; f++)
		st = fold_fit(C, Kt, pk, fit, f, acc, &s->correct, &nr_fn, err);
	s->loss = class_loss_mean(acc, acc->sum, nr_fn);
	s->tie = 0.0;
	return st;
}

static lsv_status share_all(const lsv_data *x, const lsv_graph *g,
			    const lsv_train_param *p, size_t m, const double *K,
			    const int *fold, long folds, lsv_fit_fn fit,
			    const lsv_cv_progress *progress, class_loss *acc,
			    lsv_cv_score *scores, lsv_error *err)
{
	size_t n = x->n, l = x->l, t;
	double *Kt = NULL, *ylab = NULL, *Ka = NULL;
	int bal = p[0].balance != LSV_BALANCE_NONE;
	size_t *lab = lsv_alloc(l, sizeof *lab);
	int *flab = lsv_alloc(l, sizeof *flab), nr_class = 0;
	ratio_key *order = lsv_alloc(m, sizeof *order);
	double *labels = NULL;
	shared_cv C;
	deformed D;
	lsv_lapop L;
	lsv_status st = LSV_OK;

	memset(&C, 0, sizeof C);
	memset(&D, 0, sizeof D);
	memset(&L, 0, sizeof L);
	Kt = lsv_alloc(l * l, sizeof *Kt);
	ylab = lsv_alloc(l, sizeof *ylab);
	if (bal)
		Ka = lsv_alloc(n * l, sizeof *Ka);
	if (!lab || !flab || !order || !Kt || !ylab || (bal && !Ka)) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	labeled_rows(x, fold, lab, ylab, flab);
	if ((st = lsv_fit_classes(ylab, l, NULL, 0, &labels, &nr_class,
				  err)) != LSV_OK ||
	    (st = shared_init(&C, n, l, nr_class, bal, err)) != LSV_OK)
		goto done;
	C.n = n;
	C.lab = lab;
	C.Ka = Ka;
	C.l = l;
	C.y = ylab;
	C.labels = labels;
	C.nr_class = nr_class;
	C.fold = flab;
	C.folds = folds;
	if (by_ratio(p, m, n, order)) {
		if ((st = lsv_lapop_init(&L, g, p[0].normalized, p[0].power,
					 err)) != LSV_OK ||
		    (st = deformed_init(&D, K, n, lab, l, &L, bal, err)) != LSV_OK)
			goto done;
	}
	for (t = 0; t < m && st == LSV_OK; t++) {
		lsv_cv_score *s = &scores[order[t].k];

		if (t == 0 || order[t].r != order[t - 1].r)
			ratio_kernel(K, n, lab, l, &D, order[t].r, Kt, Ka);
		st = score_setting(&C, Kt, &p[order[t].k], fit, folds, acc, s,
				   err);
		if (st == LSV_OK && progress != NULL && progress->scored != NULL)
			progress->scored(progress->ctx, order[t].k, s);
	}
done:
	lsv_lapop_free(&L);
	deformed_free(&D);
	shared_free(&C);
	free(lab);
	free(flab);
	free(order);
	free(Kt);
	free(Ka);
	free(ylab);
	free(labels);
	return st;
}

/* Can the settings share the deformed kernel?  Same everything but the
 * regularization, an exact method on the n x n kernel, a graph if any
 * gamma_I > 0, no class-dependent Laplacians (their graph changes with
 * the fold: see the top), and room for the factorization (K's copy, G,
 * L^p G). */
static lsv_fit_fn share_fit(const lsv_data *x, const lsv_graph *g,
			    const lsv_train_param *p, size_t m)
{
	lsv_fit_fn fit = lsv_method_exact_fit(&p[0]);
	double n = (double)x->n;
	size_t k;
	lsv_error e;

	if (fit == NULL || x->n > INT_MAX || x->l < 2)
		return NULL;
	for (k = 0; k < m; k++)
		if (!same_but_reg(&p[0], &p[k]) || p[k].class_graph ||
		    (p[k].gamma_I > 0.0 && g == NULL))
			return NULL;
	if (lsv_check_bytes(&p[0], 4.0 * n * n, "", "", &e) != LSV_OK)
		return NULL;
	return fit;
}

/* How the m settings use a graph: what cv_settings checks and which
 * folds get their own graphs. */
typedef struct {
	int class_graph;  /* some setting has class-dependent Laplacians */
	int every_class;  /* every setting has them */
	int any_graph;    /* some setting has gamma_I > 0 */
	int boost_graph;  /* some boosting setting has gamma_I > 0 */
} graph_use;

static graph_use settings_graph_use(const lsv_train_param *p, size_t m)
{
	graph_use u = {0, 1, 0, 0};
	size_t k;

	for (k = 0; k < m; k++) {
		u.class_graph |= p[k].class_graph;
		u.every_class &= p[k].class_graph;
		u.any_graph |= p[k].gamma_I > 0.0;
		u.boost_graph |= p[k].solver == LSV_SOLVER_BOOST &&
				 p[k].gamma_I > 0.0;
	}
	return u;
}

/* A graph built for each fold (gp) serves class-dependent Laplacians
 * alone, and those need g's edges within each class. */
static lsv_status check_graph_use(const lsv_data *x, const lsv_graph *g,
				  const lsv_graph_param *gp,
				  const graph_use *u, lsv_error *err)
{
	if (gp != NULL && !u->every_class)
		return lsv_fail(err, LSV_EINVAL,
				"a graph built for each fold is for class-"
				"dependent Laplacians (class_graph)");
	if (u->class_graph && g != NULL &&
	    lsv_graph_check_classes(g, x, err) != LSV_OK) {
		lsv_error e = *err;
		return lsv_fail(err, LSV_EINVAL, "%s: class-dependent Laplacians "
				"need a graph within each class", e.msg);
	}
	return LSV_OK;
}

/* acc over the classes of every labeled row of x, zeroed; class_loss_
 * free frees it, after a failure too. */
static lsv_status class_loss_init(class_loss *acc, const lsv_data *x,
				  lsv_error *err)
{
	double *y = lsv_alloc(x->l, sizeof *y), *classes = NULL;
	size_t i, l = 0;
	lsv_status st;

	memset(acc, 0, sizeof *acc);
	if (y == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i) && l < x->l)
			y[l++] = x->y[i];
	st = lsv_fit_classes(y, l, NULL, 0, &classes, &acc->nr, err);
	free(y);
	if (st != LSV_OK)
		return st;
	acc->classes = classes;
	acc->sum = lsv_alloc((size_t)acc->nr, sizeof *acc->sum);
	acc->sum2 = lsv_alloc((size_t)acc->nr, sizeof *acc->sum2);
	acc->count = lsv_alloc((size_t)acc->nr, sizeof *acc->count);
	if (acc->sum == NULL || acc->sum2 == NULL || acc->count == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	return LSV_OK;
}

static void class_loss_free(class_loss *acc)
{
	free(acc->classes);
	free(acc->sum);
	free(acc->sum2);
	free(acc->count);
}

/* *gs: an array of folds graphs, each NULL until made. */
static lsv_status fold_graph_array(long folds, lsv_graph ***gs,
				   lsv_error *err)
{
	if ((*gs = calloc((size_t)folds, sizeof **gs)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	return LSV_OK;
}

static void fold_graphs_free(lsv_graph **gs, long folds)
{
	long f;

	for (f = 0; gs != NULL && f < folds; f++)
		lsv_graph_free(gs[f]);
	free(gs);
}

/* Every setting on the deformed kernel by share_all, with K computed
 * here when the caller has none. */
static lsv_status share_settings(const lsv_data *x, const lsv_graph *g,
				 const lsv_train_param *p, size_t m,
				 const double *K, const int *fold, long folds,
				 lsv_fit_fn fit, const lsv_cv_progress *progress,
				 class_loss *acc, lsv_cv_score *scores,
				 lsv_error *err)
{
	double *own = NULL;
	lsv_status st;

	if (K == NULL) {
		if ((st = lsv_train_kernel(x, &p[0], &own, err)) != LSV_OK)
			return st;
		K = own;
	}
	if (progress != NULL && progress->sharing != NULL)
		progress->sharing(progress->ctx, m);
	st = share_all(x, g, p, m, K, fold, folds, fit, progress, acc, scores,
		       err);
	free(own);
	return st;
}

/* Every setting trained fold by fold (retrain_one), each on g or, with
 * class-dependent Laplacians or boosting, on the folds' own graphs gs. */
static lsv_status retrain_settings(const lsv_data *x, const lsv_graph *g,
				   lsv_graph *const *gs,
				   const lsv_train_param *p, size_t m,
				   const double *K, const int *fold,
				   long folds,
				   const lsv_cv_progress *progress,
				   class_loss *acc, lsv_cv_score *scores,
				   lsv_error *err)
{
	const lsv_train_progress *train = progress ? progress->train : NULL;
	/* the learned kernels' spectrum (labelaware, kdesign): it depends on
	 * K or the graph, not on the labels, so every fold and setting of
	 * this call computes it once */
	lsv_eig_cache eig;
	lsv_status st = LSV_OK;
	size_t k;

	memset(&eig, 0, sizeof eig);
	for (k = 0; st == LSV_OK && k < m; k++) {
		st = retrain_one(x, g, p[k].class_graph ||
				 p[k].solver == LSV_SOLVER_BOOST ? gs : NULL,
				 &p[k], K, &eig, train, fold, folds, acc,
				 &scores[k], err);
		if (st == LSV_OK && progress != NULL && progress->scored != NULL)
			progress->scored(progress->ctx, k, &scores[k]);
	}
	lsv_eig_cache_free(&eig);
	return st;
}

/* lsv_cv_settings (gp NULL) and lsv_cv_settings_rebuild (g NULL): the
 * checks, then the folds' own graphs where the settings need them, then
 * every setting scored, on one shared factorization when share_fit
 * allows, else trained fold by fold. */
static lsv_status cv_settings(const lsv_data *x, const lsv_graph *g,
			      const lsv_graph_param *gp,
			      const lsv_train_param *p, size_t m,
			      const double *K, const int *fold, long folds,
			      lsv_cv_mode mode, const lsv_cv_progress *progress,
			      lsv_cv_score *scores, int *shared, lsv_error *err)
{
	lsv_fit_fn fit = mode == LSV_CV_SHARE ? share_fit(x, g, p, m) : NULL;
	graph_use use = settings_graph_use(p, m);
	lsv_graph **gs = NULL;
	class_loss acc;
	lsv_status st;

	if (shared != NULL)
		*shared = fit != NULL;
	if ((st = check_graph_use(x, g, gp, &use, err)) != LSV_OK)
		return st;
	st = class_loss_init(&acc, x, err);
	/* class-dependent Laplacians: each fold's graph from its training
	 * labels alone, made once for every setting */
	if (st == LSV_OK && use.class_graph && use.any_graph &&
	    (g != NULL || gp != NULL) &&
	    (st = fold_graph_array(folds, &gs, err)) == LSV_OK)
		st = fold_graphs(x, g, gp, fold, folds, gs, err);
	if (st == LSV_OK && fit != NULL)
		st = share_settings(x, g, p, m, K, fold, folds, fit, progress,
				    &acc, scores, err);
	/* boosting: each fold's graph without its held-out rows' edges */
	if (st == LSV_OK && use.boost_graph && g != NULL && gs == NULL &&
	    (st = fold_graph_array(folds, &gs, err)) == LSV_OK)
		st = fold_graphs_isolated(g, fold, folds, gs, err);
	if (st == LSV_OK && fit == NULL)
		st = retrain_settings(x, g, gs, p, m, K, fold, folds, progress,
				      &acc, scores, err);
	fold_graphs_free(gs, folds);
	class_loss_free(&acc);
	return st;
}

lsv_status lsv_cv_settings(const lsv_data *x, const lsv_graph *g,
			   const lsv_train_param *p, size_t m, const double *K,
			   const int *fold, long folds, lsv_cv_mode mode,
			   const lsv_cv_progress *progress,
			   lsv_cv_score *scores, int *shared, lsv_error *err)
{
	return cv_settings(x, g, NULL, p, m, K, fold, folds, mode, progress,
			   scores, shared, err);
}

lsv_status lsv_cv_settings_rebuild(const lsv_data *x, const lsv_graph_param *gp,
				   const lsv_train_param *p, size_t m,
				   const double *K, const int *fold, long folds,
				   lsv_cv_mode mode,
				   const lsv_cv_progress *progress,
				   lsv_cv_score *scores, int *shared,
				   lsv_error *err)
{
	return cv_settings(x, NULL, gp, p, m, K, fold, folds, mode, progress,
			   scores, shared, err);
}

/* Equal to 1e-12 relative: a tie, settled by the regularization. */
static int same_loss(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

size_t lsv_cv_best(const lsv_cv_score *s, const lsv_train_param *p, size_t m)
{
	size_t k, best = 0;

	for (k = 1; k < m; k++) {
		const lsv_train_param *a = &p[k], *b = &p[best];
		if (!same_loss(s[k].loss, s[best].loss)
		    ? s[k].loss < s[best].loss
		    : !same_loss(s[k].tie, s[best].tie)
		    ? s[k].tie < s[best].tie
		    : a->gamma_A > b->gamma_A ||
		      (a->gamma_A == b->gamma_A && a->gamma_I < b->gamma_I))
			best = k;
	}
	return best;
}
