/*
 * boost.c -- ManifoldBoost (Loeff, Forsyth & Ramachandran, "ManifoldBoost:
 * stagewise function approximation for fully-, semi- and un-supervised
 * learning", ICML 2008), lapsvm-train -s boost: Algorithm 1 (trees),
 * Algorithm 2 (RBFs), Algorithm 4 (K-tree multiclass) and Algorithm 3
 * (unsupervised, Section 4).
 *
 * Objective.  F is the C-column matrix of the functions' values at the
 * n = l + u training rows, L^p the (iterated) graph Laplacian.
 *
 *   two classes (C = 1; the paper's eq. 6 with the (l+u)^2 of its eq. 7,
 *   so that gamma_M is the gamma_I of JMLR 2006 eq. 4; the extra 1/K is
 *   dropped):
 *     V[F] = 1/l sum_{i labeled} log(1 + exp(-2 y_i F_i))
 *            + gamma_M/n^2 F'L^pF,
 *     y_i = +1 for the first class (labels[0]) and -1 for the other;
 *
 *   C > 2 classes (Section 5, eqs. 12-14, Friedman's multiple logistic):
 *     V[F] = 1/l sum_{i labeled} -log p_{y_i}(x_i)
 *            + gamma_M/(C n^2) sum_c F_c'L^pF_c,
 *     p_c = exp(F_c) / sum_k exp(F_k), with sum_c F_c = 0 (the symmetric
 *     transform: every update is centred over the classes, row by row,
 *     so the model's functions are its raw sums minus their mean);
 *
 *   clustering into c (Section 4, eqs. 10-11; no labels; C = c - 1):
 *     V[F] = 1/n sum_j F_j'L^pF_j + sum_a (lambda_a h_a + mu/2 h_a^2),
 *     h = (mean F_j, mean F_j^2 - 1 for each j; mean F_j F_k, j < k):
 *     the constraints sum F = 0 and sum F^2 = n of eq. 10 (divided by n,
 *     so the terms are O(1) whatever n), and for c > 2 the orthogonality
 *     of the c - 1 functions, the augmented Lagrangian of Bertsekas 1996
 *     (gamma_M only needs to be > 0: the graph is all there is).
 *     Schedule: lambda_a = 0 and mu = AL_MU0 at the start; after each
 *     round lambda_a += mu h_a (the multipliers updated by the constraint
 *     violations, Section 4) and mu *= AL_GROW, up to AL_MU_MAX.  No early
 *     stop (the cost moves with the multipliers): all M rounds run.  For
 *     c > 2 the rows of the embedding F go to k-means (c - 1 functions and
 *     k-means as -s cluster: the paper does not say how its 3-cluster
 *     figure labels the rows), seeded by -S.
 *
 * The minimizer is sought among additive models F_M = F_0 + sum_m f_m.
 *
 * Update.  F_0: two classes 1/2 log((1 + ybar)/(1 - ybar)), ybar the mean
 * labeled y (Algorithm 1, line 1); C classes F_0c = log q_c - 1/C
 * sum_k log q_k, q the labeled class frequencies (Algorithm 4, line 1);
 * clustering a base learner fitted by least squares to values drawn from
 * N(0, BOOST_INIT_SCALE^2) (seeded by -S), minus its mean over the rows
 * (Algorithm 3, line 1: random, zero mean, low variance; a learner so
 * that F_0 is a function of x), or, with boost_init spectral, to
 * BOOST_INIT_SCALE times the C bottom nonconstant eigenvectors of L^p
 * (lsv_boost_spectral_start: the minimizer of eq. 10 over all functions,
 * at the same low variance; not the paper's).  Round m:
 *   1. the functional gradient g = dV/dF at every row (eq. 8 / eq. 14):
 *        two classes  g_i = [i labeled] 1/l (-2 y_i / (1 + exp(2 y_i F_i)))
 *                          + 2 gamma_M/n^2 (L^p F)_i,
 *        C classes    g_ic = [i labeled] 1/l (p_c(x_i) - [y_i = c])
 *                          + 2 gamma_M/(C n^2) (L^p F_c)_i,
 *        clustering   g_ij = 2/n (L^p F_j)_i + sum_a (lambda_a + mu h_a)
 *                          dh_a/dF_ij,
 *      the Laplacian part by the sparse operator (O(p nnz(W)));
 *   2. per function, a base learner fitted by least squares to -g over all
 *      n rows:
 *      - a regression tree of depth D (CART's variance reduction: the
 *        split maximizing S_L^2/n_L + S_R^2/n_R - S^2/n), the split search
 *        on histograms of at most LSV_BOOST_BINS bins per feature fixed
 *        once from the training values' quantiles, so a level costs
 *        O(n d), or O(nnz) when the rows are sparse (nnz <= n d /
 *        BOOST_SPARSE_RATIO, e.g. one-hot codes: the histograms from the
 *        stored entries, each feature's zero bin by difference);
 *      - or R RBFs exp(-gamma |x - x_r|^2) centred on training rows,
 *        chosen greedily (Algorithm 2, line 4; matching pursuit): the
 *        centre whose RBF b best fits the residual r by least squares
 *        (largest (b'r)^2 / b'b), then r -= (b'r / b'b) b and the next.
 *        The candidates are min(n, BOOST_CANDIDATES) rows drawn anew each
 *        round (seeded by -S): all n would cost O(n^2 d) per round, these
 *        O(n BOOST_CANDIDATES d), one n x BOOST_CANDIDATES kernel block;
 *   3. the learners' coefficients (leaf values, RBF weights: all the
 *      functions' together, as Algorithm 4, line 9) refitted on the true
 *      cost V(F + sum_s w_s b_s) by BOOST_STEPS quasi-Newton (BFGS) steps
 *      from w = 0 (Algorithm 1, line 5; a few steps, as the paper, to keep
 *      a round from overfitting): the gradient dV/dw_s = b_s'g, the
 *      inverse Hessian started at the inverse of its diagonal estimate
 *      (sum_i b_s(x_i)^2 times the cost's second derivative at row i,
 *      the graph's taken as 2 c diag L), and an exact line search along
 *      each step (along a direction the cost is the loss plus polynomials
 *      in the step length t whose coefficients take one sparse product,
 *      so it is minimized by safeguarded Newton on its derivative, O(l C)
 *      or O(#constraints) per probe; a step moves no F_i by more than
 *      BOOST_MAX_MOVE, as the loss alone has no minimizer on separable
 *      labeled rows);
 *   4. F += nu sum_s w_s b_s (shrinkage nu, Friedman 1999), the learner
 *      stored with its coefficients nu w_s.
 * Stop after M rounds, or (with labels) when |V_{m-1} - V_m| < tol V_{m-1}.
 *
 * Randomness only from -S (the RBF candidates, the clustering's F_0 and
 * k-means).  Memory: the n x d bins (bytes, trees), an n x
 * BOOST_CANDIDATES block (RBFs), a few arrays of n C, the BFGS matrix
 * (the coefficients of a round squared), the graph.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

#define LSV_BOOST_BINS 256     /* histogram bins per feature (bytes) */
#define BOOST_SPARSE_RATIO 4   /* sparse histograms when nnz <= n d / 4 */
#define BOOST_STEPS 3          /* BFGS steps per round */
#define BOOST_MAX_MOVE 10.0    /* largest change of an F_i in one step */
#define BOOST_CANDIDATES 256   /* RBF centres tried per function and round */
#define BOOST_INIT_SCALE 0.1   /* clustering: the spread of F_0 */
#define AL_MU0 1.0             /* clustering: the first penalty ... */
#define AL_GROW 1.05           /* ... its growth per round ... */
#define AL_MU_MAX 1e4          /* ... and its cap */

/* softplus(z) = log(1 + exp(z)), without overflow */
static double softplus(double z)
{
	return z > 0.0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* 1 / (1 + exp(-z)) */
static double sigmoid(double z)
{
	if (z >= 0.0)
		return 1.0 / (1.0 + exp(-z));
	return exp(z) / (1.0 + exp(z));
}

/* phi(y, F), phi' = dphi/dF = -2 y s, phi'' = 4 s (1 - s), s = sigmoid(-2yF) */
static double phi(double y, double f)
{
	return softplus(-2.0 * y * f);
}
static double dphi(double y, double f)
{
	return -2.0 * y * sigmoid(-2.0 * y * f);
}
static double d2phi(double y, double f)
{
	double s = sigmoid(-2.0 * y * f);
	return 4.0 * s * (1.0 - s);
}

/* ------------------------------------------------------------------ */
/* The spectral start (clustering)                                     */
/* ------------------------------------------------------------------ */

/*
 * The minimizer of 1/n sum_j F_j'L^pF_j over all functions on the n rows
 * under mean F_j = 0, mean F_j^2 = 1 and mean F_j F_k = 0 (eq. 10) is,
 * by the Courant-Fischer theorem on the complement of the constants, the
 * C eigenvectors of L^p of smallest eigenvalue orthogonal to 1 (scaled
 * by sqrt(n)).  Started from random values the stagewise method can stop
 * at another eigenvector, a stationary point of larger cost (on
 * concentric rings an angular mode of the outer ring, README); started
 * here it begins in the global minimum's basin.  L^p is formed densely,
 * column by column by the sparse operator, then dsyevr gives its C + 1
 * smallest eigenpairs; these are centred and orthonormalized in order
 * (Gram-Schmidt), and the one that centring leaves (numerically)
 * nothing of is dropped: the constant eigenvector of a connected graph,
 * or, when the null space holds the indicators of several components,
 * the combination of them that is constant.  5 n^2 doubles at most
 * (2 n^2 here, 3 n^2 in lsv_eig_extreme).
 */
/* A = L^p, densely (n x n): V = L^p I column by column through the
 * sparse operator, then copied to A (L^p is symmetric, so V's columns
 * L^p e_i are its rows too).  A, V: n x n, A zero on entry. */
static lsv_status dense_laplacian(const lsv_lapop *L, size_t n, double *A,
				  double *V, lsv_error *err)
{
	size_t i;
	lsv_status st;

	for (i = 0; i < n; i++)
		A[i + i * n] = 1.0;
	if ((st = lsv_lapop_apply(L, A, V, n, 1.0, err)) != LSV_OK)
		return st;
	memcpy(A, V, n * n * sizeof *A);
	return LSV_OK;
}

/* Centre v (n values) and take from it its components along the got
 * columns of E (unit norm): Gram-Schmidt against the constant and the
 * functions kept so far.  Returns |v|^2 of what is left. */
static double centre_orthogonalize(double *v, size_t n, const double *E,
				   int got)
{
	double mean = 0.0, nrm = 0.0;
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		v[i] -= mean;
	for (r = 0; r < got; r++) {
		const double *e = E + (size_t)r * n;
		double d = 0.0;
		for (i = 0; i < n; i++)
			d += v[i] * e[i];
		for (i = 0; i < n; i++)
			v[i] -= d * e[i];
	}
	for (i = 0; i < n; i++)
		nrm += v[i] * v[i];
	return nrm;
}

/* E's C columns from the k eigenvectors V (n x k, ascending eigenvalue)
 * in order: each centred and orthonormalized against those kept, dropped
 * when nothing is left of it (|v|^2 < 1e-12: dsyevr's vectors have norm
 * 1), the rest scaled to unit norm.  The number kept is *got. */
static void nonconstant_basis(double *V, size_t n, size_t k, int C,
			      double *E, int *got)
{
	size_t i, q;

	*got = 0;
	for (q = 0; q < k && *got < C; q++) {
		double *v = V + q * n;
		double nrm = centre_orthogonalize(v, n, E, *got);
		if (nrm < 1e-12)
			continue;
		nrm = sqrt(nrm);
		for (i = 0; i < n; i++)
			E[i + (size_t)*got * n] = v[i] / nrm;
		(*got)++;
	}
}

lsv_status lsv_boost_spectral_start(const lsv_lapop *L, size_t n, int C,
				    const lsv_train_param *p, double *E,
				    lsv_error *err)
{
	size_t k = (size_t)C + 1, i;
	double *A = NULL, *V = NULL, *w = NULL;
	lsv_status st;
	int got = 0;

	if (C < 1 || k > n)
		return lsv_fail(err, LSV_EINVAL, "a spectral start of %d "
				"functions needs more than %zu rows", C, n);
	/* A and V (n x n each; V ends holding the k eigenvectors), w, and
	 * lsv_eig_extreme's own (its copy of A and, on its fallback,
	 * dsyevd's workspace: 3 n^2) */
	if ((st = lsv_check_bytes(p, 2.0 * (double)n * (double)n +
				  (double)k +
				  lsv_eig_extreme_doubles((double)n, (double)k),
				  "the spectral start's dense Laplacian",
				  "start at random (-K c without :spectral)",
				  err)) != LSV_OK)
		return st;
	A = calloc(n * n, sizeof *A);
	V = lsv_alloc(n * n, sizeof *V);  /* first L^p, then the eigenvectors */
	w = lsv_alloc(k, sizeof *w);
	if (A == NULL || V == NULL || w == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the spectral "
			      "start of %zu rows", n);
		goto done;
	}
	if ((st = dense_laplacian(L, n, A, V, err)) != LSV_OK ||
	    (st = lsv_eig_extreme(A, n, k, 0, w, V, err)) != LSV_OK)
		goto done;
	nonconstant_basis(V, n, k, C, E, &got);
	if (got < C) {
		st = lsv_fail(err, LSV_ENUMERIC, "the spectral start found %d "
			      "of %d nonconstant eigenvectors", got, C);
		goto done;
	}
	for (i = 0; i < n * (size_t)C; i++)  /* mean square 1 */
		E[i] *= sqrt((double)n);
done:
	free(A);
	free(V);
	free(w);
	return st;
}

/* ------------------------------------------------------------------ */
/* The cost                                                            */
/* ------------------------------------------------------------------ */

typedef enum { COST_BINOMIAL, COST_MULTINOMIAL, COST_AUGLAG } cost_kind;

typedef struct {
	cost_kind kind;
	size_t n, l;
	int C;                 /* functions: the columns of F (n x C) */
	const size_t *lab;     /* the l labeled rows */
	const double *y;       /* binomial: l targets +-1 */
	const int *cls;        /* multinomial: l classes 0..C-1 */
	double c;              /* the graph term's weight */
	const lsv_lapop *L;    /* L^p; NULL when c = 0 */
	size_t m;              /* auglag: constraints, 2C + C(C-1)/2 */
	const double *lam;     /* auglag: m multipliers */
	double mu;             /* auglag: the penalty */
	double *h;             /* auglag: m scratch */
} prob;

static size_t al_count(int C)
{
	return 2 * (size_t)C + (size_t)C * (size_t)(C - 1) / 2;
}

/* h(F): mean F_j and mean F_j^2 - 1 for each j, then mean F_j F_k, j < k */
static void al_values(const prob *P, const double *F, double *h)
{
	size_t n = P->n, i, a = 0;
	int j, k;

	for (j = 0; j < P->C; j++) {
		const double *f = F + (size_t)j * n;
		double s = 0.0, q = 0.0;
		for (i = 0; i < n; i++) {
			s += f[i];
			q += f[i] * f[i];
		}
		h[a++] = s / (double)n;
		h[a++] = q / (double)n - 1.0;
	}
	for (j = 0; j < P->C; j++)
		for (k = j + 1; k < P->C; k++) {
			const double *f = F + (size_t)j * n, *e = F + (size_t)k * n;
			double s = 0.0;
			for (i = 0; i < n; i++)
				s += f[i] * e[i];
			h[a++] = s / (double)n;
		}
}

/* log sum_k exp(z_k), z_k = z[k stride] */
static double logsumexp(const double *z, size_t stride, int C)
{
	double mx = z[0], s = 0.0;
	int k;

	for (k = 1; k < C; k++)
		mx = fmax(mx, z[(size_t)k * stride]);
	for (k = 0; k < C; k++)
		s += exp(z[(size_t)k * stride] - mx);
	return mx + log(s);
}

/* The binomial loss 1/l sum_r phi(y_r, F(x_r)) over the labeled rows,
 * its gradient added to g (when not NULL): dphi / l at each labeled row. */
static double binomial_loss(const prob *P, const double *F, double *g)
{
	double s = 0.0;
	size_t r;

	for (r = 0; r < P->l; r++) {
		s += phi(P->y[r], F[P->lab[r]]);
		if (g != NULL)
			g[P->lab[r]] += dphi(P->y[r], F[P->lab[r]]) /
					(double)P->l;
	}
	return s / (double)P->l;
}

/* The multinomial loss 1/l sum_r (log sum_k exp F_k(x_r) - F_{c_r}(x_r)),
 * its gradient added to g (when not NULL): (softmax_k - [k = c_r]) / l. */
static double multinomial_loss(const prob *P, const double *F, double *g)
{
	size_t n = P->n, r;
	double s = 0.0;
	int k;

	for (r = 0; r < P->l; r++) {
		size_t i0 = P->lab[r];
		double lse = logsumexp(F + i0, n, P->C);
		s += lse - F[i0 + (size_t)P->cls[r] * n];
		if (g == NULL)
			continue;
		for (k = 0; k < P->C; k++)
			g[i0 + (size_t)k * n] +=
				(exp(F[i0 + (size_t)k * n] - lse) -
				 (k == P->cls[r])) / (double)P->l;
	}
	return s / (double)P->l;
}

/* The augmented Lagrangian's terms sum_a lam_a h_a + mu/2 h_a^2 of the
 * constraints h (al_values, left in P->h), its gradient added to g (when
 * not NULL): each h_a's weight lam_a + mu h_a times dh_a/dF -- 1/n for a
 * mean, 2 F_j / n for a mean square, F_k / n and F_j / n for the mean
 * product of F_j and F_k. */
static double auglag_loss(const prob *P, const double *F, double *g)
{
	size_t n = P->n, i, a;
	double s = 0.0;
	int j, k;

	al_values(P, F, P->h);
	for (a = 0; a < P->m; a++)
		s += P->lam[a] * P->h[a] + 0.5 * P->mu * P->h[a] * P->h[a];
	if (g == NULL)
		return s;
	a = 0;
	for (j = 0; j < P->C; j++) {
		double w1 = (P->lam[a] + P->mu * P->h[a]) / (double)n;
		double w2 = 2.0 * (P->lam[a + 1] + P->mu * P->h[a + 1]) /
			    (double)n;
		double *gj = g + (size_t)j * n;
		const double *f = F + (size_t)j * n;
		for (i = 0; i < n; i++)
			gj[i] += w1 + w2 * f[i];
		a += 2;
	}
	for (j = 0; j < P->C; j++)
		for (k = j + 1; k < P->C; k++) {
			double w = (P->lam[a] + P->mu * P->h[a]) / (double)n;
			for (i = 0; i < n; i++) {
				g[i + (size_t)j * n] += w * F[i + (size_t)k * n];
				g[i + (size_t)k * n] += w * F[i + (size_t)j * n];
			}
			a++;
		}
	return s;
}

/* The cost's parts at F (n x C) given LF = L^p F (NULL when c = 0): *loss
 * the loss (clustering: the augmented Lagrangian's terms), *reg the graph
 * term c tr(F'L^pF), and when g is not NULL the gradient g = dV/dF (n x C):
 * 2 c L^p F, to which the loss adds its own. */
static void cost_from(const prob *P, const double *F, const double *LF,
		      double *g, double *loss, double *reg)
{
	size_t nC = P->n * (size_t)P->C, i;
	double q = 0.0;

	if (P->c > 0.0)
		for (i = 0; i < nC; i++)
			q += F[i] * LF[i];
	*reg = P->c * q;
	if (g != NULL)
		for (i = 0; i < nC; i++)
			g[i] = P->c > 0.0 ? 2.0 * P->c * LF[i] : 0.0;
	switch (P->kind) {
	case COST_BINOMIAL:
		*loss = binomial_loss(P, F, g);
		break;
	case COST_MULTINOMIAL:
		*loss = multinomial_loss(P, F, g);
		break;
	case COST_AUGLAG:
		*loss = auglag_loss(P, F, g);
		break;
	}
}

lsv_status lsv_boost_mcost(const lsv_lapop *L, double c, size_t n, int C,
			   const size_t *lab, const int *cls, size_t l,
			   const double *F, double *g, double *loss,
			   double *reg, lsv_error *err)
{
	prob P;
	double *LF = NULL;
	size_t r;
	lsv_status st;

	if (l == 0)
		return lsv_fail(err, LSV_EINVAL, "no labeled rows");
	if (C < 2)
		return lsv_fail(err, LSV_EINVAL, "%d classes (expected >= 2)", C);
	for (r = 0; r < l; r++)
		if (cls[r] < 0 || cls[r] >= C)
			return lsv_fail(err, LSV_EINVAL, "class %d out of range",
					cls[r]);
	if (c > 0.0 && L == NULL)
		return lsv_fail(err, LSV_EINVAL, "gamma_M > 0 needs a graph");
	memset(&P, 0, sizeof P);
	P.kind = COST_MULTINOMIAL;
	P.n = n;
	P.l = l;
	P.C = C;
	P.lab = lab;
	P.cls = cls;
	P.c = c;
	P.L = L;
	if (c > 0.0) {
		if ((LF = lsv_alloc(n * (size_t)C, sizeof *LF)) == NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		if ((st = lsv_lapop_apply(L, F, LF, (size_t)C, 1.0, err)) !=
		    LSV_OK) {
			free(LF);
			return st;
		}
	}
	cost_from(&P, F, LF, g, loss, reg);
	free(LF);
	return LSV_OK;
}

lsv_status lsv_boost_alcost(const lsv_lapop *L, size_t n, int C,
			    const double *lam, double mu, const double *F,
			    double *g, double *pen, double *reg, double *h,
			    lsv_error *err)
{
	prob P;
	double *LF;
	lsv_status st;

	if (L == NULL || C < 1)
		return lsv_fail(err, LSV_EINVAL, "clustering needs a graph and "
				"a function");
	memset(&P, 0, sizeof P);
	P.kind = COST_AUGLAG;
	P.n = n;
	P.C = C;
	P.c = 1.0 / (double)n;
	P.L = L;
	P.m = al_count(C);
	P.lam = lam;
	P.mu = mu;
	P.h = h;
	if ((LF = lsv_alloc(n * (size_t)C, sizeof *LF)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	if ((st = lsv_lapop_apply(L, F, LF, (size_t)C, 1.0, err)) != LSV_OK) {
		free(LF);
		return st;
	}
	cost_from(&P, F, LF, g, pen, reg);
	free(LF);
	return LSV_OK;
}

lsv_status lsv_boost_cost(const lsv_lapop *L, double c, size_t n,
			  const size_t *lab, const double *y, size_t l,
			  const double *F, double *g, double *loss,
			  double *reg, lsv_error *err)
{
	prob P;
	double *LF = NULL;
	lsv_status st;

	if (l == 0)
		return lsv_fail(err, LSV_EINVAL, "no labeled rows");
	if (c > 0.0) {
		if (L == NULL)
			return lsv_fail(err, LSV_EINVAL,
					"gamma_M > 0 needs a graph");
		if ((LF = lsv_alloc(n, sizeof *LF)) == NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		if ((st = lsv_lapop_apply(L, F, LF, 1, 1.0, err)) != LSV_OK) {
			free(LF);
			return st;
		}
	}
	memset(&P, 0, sizeof P);
	P.kind = COST_BINOMIAL;
	P.n = n;
	P.l = l;
	P.C = 1;
	P.lab = lab;
	P.y = y;
	P.c = c;
	P.L = L;
	cost_from(&P, F, LF, g, loss, reg);
	free(LF);
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Histogram bins                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t n, d;
	unsigned char *bin;  /* n x d, row-major: the bin of x_ij */
	int *nb;             /* bins of each feature (1: constant) */
	double *cut;         /* d x (LSV_BOOST_BINS - 1): x <= cut[b] iff
				bin <= b */
	/* Sparse rows (nnz <= n d / BOOST_SPARSE_RATIO): the histograms are
	 * built from the stored entries only, O(nnz) a level instead of
	 * O(n d); each feature's bin of 0 gets what its stored entries do
	 * not account for (the node's total and count minus theirs).  The
	 * layout is the data's own (rowptr, col; not owned). */
	const size_t *rowptr;  /* NULL: the dense path */
	const int *col;
	unsigned char *sbin;   /* nnz: the bin of each stored entry */
	unsigned char *zbin;   /* d: the bin of the value 0 */
} bins;

static void bins_free(bins *B)
{
	free(B->bin);
	free(B->nb);
	free(B->cut);
	free(B->sbin);
	free(B->zbin);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The bin of value v: the number of cuts below v. */
static int bin_of(const double *cut, int ncut, double v)
{
	int lo = 0, hi = ncut;  /* first cut >= v */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cut[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Each feature's stored values gathered column by column (CSC): feature
 * j's cnt[j] values at csc[start[j] .. start[j + 1]), in row order.  cnt,
 * start and fill come zeroed (d + 1 each; fill is scratch).
 */
static void feature_columns(const lsv_data *x, size_t *cnt, size_t *start,
			    size_t *fill, double *csc)
{
	size_t i, q, j;

	for (q = 0; q < x->nnz; q++)
		cnt[x->col[q]]++;
	for (j = 0; j < x->dim; j++)
		start[j + 1] = start[j] + cnt[j];
	for (i = 0; i < x->n; i++)
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			size_t c = (size_t)x->col[q];
			csc[start[c] + fill[c]++] = x->val[q];
		}
}

/*
 * The cuts of one feature from its n values v (sorted here): a cut
 * halfway between two consecutive distinct values v[a] < v[a + 1] (v[a]
 * itself when the midpoint rounds outside [v[a], v[a + 1])); every one
 * when there are at most LSV_BOOST_BINS - 1 of them, else only the first
 * at or past each quantile rank k n / LSV_BOOST_BINS.  Returns how many
 * went into cut[] (at most LSV_BOOST_BINS - 1).
 */
static int feature_cuts(double *v, size_t n, double *cut)
{
	const int MC = LSV_BOOST_BINS - 1;
	size_t a;
	int ncut = 0, k = 1, distinct = 0;

	qsort(v, n, sizeof *v, cmp_double);
	for (a = 0; a + 1 < n; a++)
		distinct += v[a] < v[a + 1];
	for (a = 0; a + 1 < n; a++) {
		double m;
		if (!(v[a] < v[a + 1]))
			continue;
		/* a cut left of rank a + 1: all of them, or the first
		 * at or past the next quantile rank */
		if (distinct > MC &&
		    (double)(a + 1) * LSV_BOOST_BINS < (double)k * (double)n)
			continue;
		if (ncut == MC)
			break;
		m = v[a] / 2.0 + v[a + 1] / 2.0;
		if (!(m >= v[a] && m < v[a + 1]))
			m = v[a];
		cut[ncut++] = m;
		while ((double)k * (double)n <= (double)(a + 1) * LSV_BOOST_BINS)
			k++;
	}
	return ncut;
}

/*
 * Every feature's cuts and bin count B->nb from its n values (its stored
 * ones from csc, cnt and start as feature_columns left them, the rest
 * zeros); v: n scratch.  Returns the features with at least two bins.
 */
static size_t bins_cuts(const lsv_data *x, bins *B, const size_t *cnt,
			const size_t *start, const double *csc, double *v)
{
	size_t n = x->n, j, a, useful = 0;

	for (j = 0; j < x->dim; j++) {
		double *cut = B->cut + j * (size_t)(LSV_BOOST_BINS - 1);
		int ncut;
		memcpy(v, csc + start[j], cnt[j] * sizeof *v);
		for (a = cnt[j]; a < n; a++)
			v[a] = 0.0;
		ncut = feature_cuts(v, n, cut);
		B->nb[j] = ncut + 1;
		useful += ncut > 0;
	}
	return useful;
}

/* B->bin: the bin of every x_ij, the bin of 0 where row i stores no
 * entry of feature j. */
static void bins_assign(const lsv_data *x, bins *B)
{
	size_t n = x->n, d = x->dim, i, j, q;
	const int MC = LSV_BOOST_BINS - 1;

	for (j = 0; j < d; j++) {
		unsigned char z = (unsigned char)bin_of(B->cut + j * (size_t)MC,
							B->nb[j] - 1, 0.0);
		for (i = 0; i < n; i++)
			B->bin[i * d + j] = z;
	}
	for (i = 0; i < n; i++)
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			size_t c = (size_t)x->col[q];
			B->bin[i * d + c] = (unsigned char)bin_of(
				B->cut + c * (size_t)MC, B->nb[c] - 1, x->val[q]);
		}
}

/* The sparse path's bins (see bins): each stored entry's bin (sbin) and
 * each feature's bin of 0 (zbin), and the data's layout. */
static lsv_status bins_sparse(const lsv_data *x, bins *B, lsv_error *err)
{
	size_t n = x->n, d = x->dim, i, j, q;

	B->sbin = lsv_alloc(x->nnz, 1);
	B->zbin = lsv_alloc(d, 1);
	if (!B->sbin || !B->zbin)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the "
				"binned features (%zu stored)", x->nnz);
	for (j = 0; j < d; j++)
		B->zbin[j] = (unsigned char)bin_of(
			B->cut + j * (size_t)(LSV_BOOST_BINS - 1), B->nb[j] - 1,
			0.0);
	for (i = 0; i < n; i++)
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
			B->sbin[q] = B->bin[i * d + (size_t)x->col[q]];
	B->rowptr = x->rowptr;
	B->col = x->col;
	return LSV_OK;
}

/*
 * The bins of every feature (cuts from the sorted n values, zeros of a
 * sparse row included: feature_cuts), and with sparse rows (nnz <= n d /
 * BOOST_SPARSE_RATIO) the stored entries' bins too.  *useful: the
 * features with at least two bins.
 */
static lsv_status bins_build(const lsv_data *x, const lsv_train_param *p,
			     bins *B, size_t *useful, lsv_error *err)
{
	size_t n = x->n, d = x->dim;
	size_t *cnt = NULL, *start = NULL, *fill = NULL;
	double *csc = NULL, *v = NULL;
	const int MC = LSV_BOOST_BINS - 1;
	lsv_status st = LSV_OK;

	memset(B, 0, sizeof *B);
	B->n = n;
	B->d = d;
	*useful = 0;
	if ((st = lsv_check_bytes(p, ((double)n * (double)d +
				      8.0 * (double)x->nnz) / 8.0 +
				  (double)d * MC + 2.0 * (double)n,
				  "the binned features (n x d bytes)",
				  "use fewer features", err)) != LSV_OK)
		return st;
	B->bin = lsv_alloc(n * d, 1);
	B->nb = lsv_alloc(d, sizeof *B->nb);
	B->cut = lsv_alloc(d * (size_t)MC, sizeof *B->cut);
	cnt = calloc(d + 1, sizeof *cnt);
	start = calloc(d + 1, sizeof *start);
	fill = calloc(d + 1, sizeof *fill);
	csc = lsv_alloc(x->nnz, sizeof *csc);
	v = lsv_alloc(n, sizeof *v);
	if (!B->bin || !B->nb || !B->cut || !cnt || !start || !fill || !csc ||
	    !v) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the binned "
			      "features (%zu x %zu)", n, d);
		goto done;
	}
	feature_columns(x, cnt, start, fill, csc);
	*useful = bins_cuts(x, B, cnt, start, csc, v);
	bins_assign(x, B);
	if ((double)x->nnz * BOOST_SPARSE_RATIO <= (double)n * (double)d)
		st = bins_sparse(x, B, err);
done:
	free(cnt);
	free(start);
	free(fill);
	free(csc);
	free(v);
	if (st != LSV_OK)
		bins_free(B);
	return st;
}

/* ------------------------------------------------------------------ */
/* One regression tree fitted by least squares to r                    */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t a, b;   /* its rows idx[a..b) */
	int depth;
} span;

/*
 * The histograms of the cnt rows idx[] of a node: hs[j BINS + q] the sum
 * of r and hc[j BINS + q] the count of its rows in bin q of feature j
 * (tot: the sum of their r).  Dense rows: every (row, feature) pair.
 * Sparse rows: the stored entries, then each feature's zero bin gets the
 * rest, tot minus the stored entries' sum (rounding aside, the same
 * sums).
 */
static void histograms(const bins *B, const double *r, const size_t *idx,
		       size_t cnt, double tot, double *hs, size_t *hc)
{
	size_t d = B->d, j, k, q;

	memset(hs, 0, d * LSV_BOOST_BINS * sizeof *hs);
	memset(hc, 0, d * LSV_BOOST_BINS * sizeof *hc);
	if (B->rowptr == NULL) {
		for (k = 0; k < cnt; k++) {
			const unsigned char *row = B->bin + idx[k] * d;
			double rv = r[idx[k]];
			for (j = 0; j < d; j++) {
				hs[j * LSV_BOOST_BINS + row[j]] += rv;
				hc[j * LSV_BOOST_BINS + row[j]]++;
			}
		}
		return;
	}
	for (k = 0; k < cnt; k++) {
		double rv = r[idx[k]];
		for (q = B->rowptr[idx[k]]; q < B->rowptr[idx[k] + 1]; q++) {
			size_t at = (size_t)B->col[q] * LSV_BOOST_BINS + B->sbin[q];
			hs[at] += rv;
			hc[at]++;
		}
	}
	for (j = 0; j < d; j++) {
		double s = 0.0;
		size_t c = 0, z = j * LSV_BOOST_BINS + B->zbin[j];
		int b;
		for (b = 0; b < B->nb[j]; b++) {
			s += hs[j * LSV_BOOST_BINS + (size_t)b];
			c += hc[j * LSV_BOOST_BINS + (size_t)b];
		}
		hs[z] += tot - s;
		hc[z] += cnt - c;
	}
}

/*
 * The split of a node of cnt rows (sum of r tot; its histograms hs, hc)
 * of largest variance reduction S_L^2/n_L + S_R^2/n_R - S^2/n over every
 * (feature j, bin q) with x <= cut of bin q to the left and a row on
 * each side; the first in feature, then bin order on a (relative 1e-12)
 * tie.  *bj, *bb: the feature and bin, left at -1 when no reduction is
 * > 0.
 */
static void best_split(const bins *B, const double *hs, const size_t *hc,
		       size_t cnt, double tot, int *bj, int *bb)
{
	double best = 0.0;
	size_t j;

	for (j = 0; j < B->d; j++) {
		double sl = 0.0;
		size_t nl = 0;
		int q;
		for (q = 0; q + 1 < B->nb[j]; q++) {
			double gain;
			sl += hs[j * LSV_BOOST_BINS + (size_t)q];
			nl += hc[j * LSV_BOOST_BINS + (size_t)q];
			if (nl == 0 || nl == cnt)
				continue;
			gain = sl * sl / (double)nl +
			       (tot - sl) * (tot - sl) / (double)(cnt - nl) -
			       tot * tot / (double)cnt;
			if (gain > best * (1.0 + 1e-12) + 1e-300) {
				best = gain;
				*bj = (int)j;
				*bb = q;
			}
		}
	}
}

/* Node v a leaf with the least-squares value of its rows idx[a..b)
 * (their mean r, tot / count); the rows' leaf and the leaf's node. */
static void make_leaf(lsv_tree_node *nd, double tot, const size_t *idx,
		      size_t a, size_t b, int v, int *leaf, int *leafnode,
		      int *ns)
{
	size_t k;

	nd->feature = -1;
	nd->threshold = 0.0;
	nd->left = nd->right = 0;
	nd->value = tot / (double)(b - a);
	for (k = a; k < b; k++)
		leaf[idx[k]] = *ns;
	leafnode[(*ns)++] = v;
}

/* A stable partition of idx[a..b) (tmp: scratch): the rows whose bin of
 * feature bj is <= bb first.  Returns where the others start. */
static size_t partition_rows(const bins *B, size_t *idx, size_t *tmp,
			     size_t a, size_t b, int bj, int bb)
{
	size_t w = a, o = 0, k;

	for (k = a; k < b; k++) {
		size_t row = idx[k];
		if (B->bin[row * B->d + (size_t)bj] <= bb)
			idx[w++] = row;
		else
			tmp[o++] = row;
	}
	memcpy(idx + w, tmp, o * sizeof *idx);
	return w;
}

/* Node v split on x_bj <= the cut of bin bb into nodes nn (rows idx[a..
 * w)) and nn + 1 (idx[w..b)), one level deeper. */
static void make_split(const bins *B, lsv_tree_node *nd, span *sp, int v,
		       int nn, size_t w, int bj, int bb)
{
	nd->feature = bj;
	nd->threshold = B->cut[(size_t)bj * (LSV_BOOST_BINS - 1) + (size_t)bb];
	nd->value = 0.0;
	nd->left = nn;
	nd->right = nn + 1;
	sp[nn].a = sp[v].a;
	sp[nn].b = w;
	sp[nn].depth = sp[v].depth + 1;
	sp[nn + 1].a = w;
	sp[nn + 1].b = sp[v].b;
	sp[nn + 1].depth = sp[v].depth + 1;
}

/*
 * Grow the tree of depth at most D on r (n values) level by level: a
 * node splits on the (feature, bin) of largest variance reduction (the
 * first in feature, then bin order on a tie), if that reduction is > 0
 * and both sides keep a row; else it is a leaf.  Fills t (nodes in
 * breadth-first order) and leaf[i], the leaf number (0..*S-1) of row i;
 * leafnode[s] the node of leaf s.  idx, tmp: n scratch; hs, hc: d x BINS.
 */
static lsv_status grow_tree(const bins *B, const double *r, int D,
			    lsv_tree *t, int *leaf, int *leafnode, int *S,
			    size_t *idx, size_t *tmp, span *sp, double *hs,
			    size_t *hc)
{
	size_t n = B->n, i;
	int head = 0, nn = 1, ns = 0;

	for (i = 0; i < n; i++)
		idx[i] = i;
	sp[0].a = 0;
	sp[0].b = n;
	sp[0].depth = 0;
	while (head < nn) {
		int v = head++, bj = -1, bb = -1;
		size_t a = sp[v].a, b = sp[v].b, cnt = b - a, k, w;
		double tot = 0.0;

		for (k = a; k < b; k++)
			tot += r[idx[k]];
		if (sp[v].depth < D && cnt >= 2) {
			histograms(B, r, idx + a, cnt, tot, hs, hc);
			best_split(B, hs, hc, cnt, tot, &bj, &bb);
		}
		if (bj < 0) {
			make_leaf(&t->node[v], tot, idx, a, b, v, leaf, leafnode,
				  &ns);
			continue;
		}
		w = partition_rows(B, idx, tmp, a, b, bj, bb);
		make_split(B, &t->node[v], sp, v, nn, w, bj, bb);
		nn += 2;
	}
	t->nnodes = nn;
	*S = ns;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Greedy RBFs fitted by least squares to r                            */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t M;          /* candidates */
	size_t *perm;      /* n: the shuffle */
	size_t *cand;      /* M candidate rows */
	double *Kc;        /* n x M: their RBFs at every row */
	double *kk;        /* M: |b_j|^2, 0 once taken */
	double *score;     /* M: b_j'r */
} rbf_work;

/* The M candidate rows W->cand: the first M of a seeded partial
 * Fisher-Yates shuffle of the n rows (every row, in order, when M = n). */
static void draw_candidates(size_t n, lsv_rng *rng, rbf_work *W)
{
	size_t M = W->M, a, i;

	if (M < n) {
		for (i = 0; i < n; i++)
			W->perm[i] = i;
		for (a = 0; a < M; a++) {
			size_t b = a + (size_t)(lsv_rng_uniform(rng) *
						(double)(n - a));
			size_t t;
			if (b >= n)
				b = n - 1;
			t = W->perm[a];
			W->perm[a] = W->perm[b];
			W->perm[b] = t;
			W->cand[a] = W->perm[a];
		}
	} else {
		for (a = 0; a < M; a++)
			W->cand[a] = a;
	}
}

/* The matching-pursuit pick: the candidate j not yet taken (kk_j > 0)
 * whose least squares fit to r removes the most of |r|^2, (b_j'r)^2 /
 * |b_j|^2, the first on a tie; W->score = Kc'r.  M when none removes
 * anything (r orthogonal to every candidate left). */
static size_t best_candidate(size_t n, rbf_work *W, const double *r)
{
	int N = (int)n, MM = (int)W->M, one = 1;
	const double d1 = 1.0, d0 = 0.0;
	double best = 0.0;
	size_t j, bj = W->M;

	dgemv_("T", &N, &MM, &d1, W->Kc, &N, r, &one, &d0, W->score, &one, 1);
	for (j = 0; j < W->M; j++) {
		double v;
		if (!(W->kk[j] > 0.0))
			continue;
		v = W->score[j] * W->score[j] / W->kk[j];
		if (v > best) {
			best = v;
			bj = j;
		}
	}
	return bj;
}

/*
 * Up to R centres for the residual r (n values, overwritten by what is
 * left): M candidates (draw_candidates), then R matching-pursuit picks
 * (best_candidate), each taking its least squares weight w = b'r / |b|^2
 * times its RBF b out of r.  Phi (n x R, column-major) gets the chosen
 * RBFs' values, rows[] their rows, wls[] their least squares weights; *S
 * the number chosen (fewer than R when the residual is orthogonal to
 * every candidate left).
 */
static lsv_status rbf_select(const lsv_data *x, const lsv_kernel *k, int R,
			     lsv_rng *rng, rbf_work *W, double *r, double *Phi,
			     size_t *rows, double *wls, int *S, lsv_error *err)
{
	size_t n = x->n, M = W->M, j, i;
	int q;
	lsv_status st;

	draw_candidates(n, rng, W);
	if ((st = lsv_kernel_matrix(k, x, NULL, n, x, W->cand, M, W->Kc, err)) !=
	    LSV_OK)
		return st;
	for (j = 0; j < M; j++) {  /* kk_j = |b_j|^2 */
		const double *b = W->Kc + j * n;
		double s = 0.0;
		for (i = 0; i < n; i++)
			s += b[i] * b[i];
		W->kk[j] = s;
	}
	*S = 0;
	for (q = 0; q < R; q++) {
		size_t bj = best_candidate(n, W, r);
		const double *b;
		double w;
		if (bj == M)
			break;
		b = W->Kc + bj * n;
		w = W->score[bj] / W->kk[bj];
		for (i = 0; i < n; i++)
			r[i] -= w * b[i];
		memcpy(Phi + (size_t)q * n, b, n * sizeof *Phi);
		rows[q] = W->cand[bj];
		wls[q] = w;
		W->kk[bj] = 0.0;  /* taken */
		(*S)++;
	}
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The coefficients: BFGS on the true cost                             */
/* ------------------------------------------------------------------ */

/* One function's base learner: S coefficients w, its values B w at the
 * rows, B the leaf indicator (leaf[i] the leaf of row i) or Phi. */
typedef struct {
	int S;
	const int *leaf;      /* tree: n leaf numbers, or NULL */
	const double *Phi;    /* RBFs: n x S, column-major, or NULL */
} basis;

/* q = B w (n values) */
static void basis_apply(const basis *b, size_t n, const double *w, double *q)
{
	size_t i;

	if (b->S == 0) {
		memset(q, 0, n * sizeof *q);
	} else if (b->leaf != NULL) {
		for (i = 0; i < n; i++)
			q[i] = w[b->leaf[i]];
	} else {
		int N = (int)n, S = b->S, one = 1;
		const double d1 = 1.0, d0 = 0.0;
		dgemv_("N", &N, &S, &d1, b->Phi, &N, w, &one, &d0, q, &one, 1);
	}
}

/* out = B'g (S values) */
static void basis_adjoint(const basis *b, size_t n, const double *g,
			  double *out)
{
	size_t i;

	if (b->S == 0)
		return;
	if (b->leaf != NULL) {
		memset(out, 0, (size_t)b->S * sizeof *out);
		for (i = 0; i < n; i++)
			out[b->leaf[i]] += g[i];
	} else {
		int N = (int)n, S = b->S, one = 1;
		const double d1 = 1.0, d0 = 0.0;
		dgemv_("T", &N, &S, &d1, b->Phi, &N, g, &one, &d0, out, &one, 1);
	}
}

/* Subtract each row's mean over the C columns (the symmetric multiple
 * logistic keeps sum_c F_c = 0). */
static void center_rows(double *A, size_t n, int C)
{
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		double s = 0.0;
		for (k = 0; k < C; k++)
			s += A[i + (size_t)k * n];
		s /= (double)C;
		for (k = 0; k < C; k++)
			A[i + (size_t)k * n] -= s;
	}
}

/* The cost along Fb + t Q: graph a0 + 2 a1 t + a2 t^2 (times c), and for
 * clustering each constraint h_a(t) = h0 + h1 t + h2 t^2. */
typedef struct {
	double a1, a2;
	double *h0, *h1, *h2;
} along;

static void al_poly(const prob *P, const double *Fb, const double *Q,
		    along *D)
{
	size_t n = P->n, i, a = 0;
	int j, k;

	for (j = 0; j < P->C; j++) {
		const double *f = Fb + (size_t)j * n, *q = Q + (size_t)j * n;
		double s = 0.0, t = 0.0, A = 0.0, B = 0.0, Cq = 0.0;
		for (i = 0; i < n; i++) {
			s += f[i];
			t += q[i];
			A += f[i] * f[i];
			B += f[i] * q[i];
			Cq += q[i] * q[i];
		}
		D->h0[a] = s / (double)n;
		D->h1[a] = t / (double)n;
		D->h2[a++] = 0.0;
		D->h0[a] = A / (double)n - 1.0;
		D->h1[a] = 2.0 * B / (double)n;
		D->h2[a++] = Cq / (double)n;
	}
	for (j = 0; j < P->C; j++)
		for (k = j + 1; k < P->C; k++) {
			const double *f = Fb + (size_t)j * n, *e = Fb + (size_t)k * n;
			const double *q = Q + (size_t)j * n, *o = Q + (size_t)k * n;
			double A = 0.0, B = 0.0, Cq = 0.0;
			for (i = 0; i < n; i++) {
				A += f[i] * e[i];
				B += f[i] * o[i] + q[i] * e[i];
				Cq += q[i] * o[i];
			}
			D->h0[a] = A / (double)n;
			D->h1[a] = B / (double)n;
			D->h2[a++] = Cq / (double)n;
		}
}

/* The first and second derivatives in t of V(Fb + t Q). */
static void derivs(const prob *P, const double *Fb, const double *Q,
		   const along *D, double t, double *d1, double *d2)
{
	size_t n = P->n, r, a;
	double s1 = 2.0 * P->c * (D->a1 + t * D->a2), s2 = 2.0 * P->c * D->a2;
	int k;

	switch (P->kind) {
	case COST_BINOMIAL:
		for (r = 0; r < P->l; r++) {
			size_t i = P->lab[r];
			double f = Fb[i] + t * Q[i];
			s1 += dphi(P->y[r], f) * Q[i] / (double)P->l;
			s2 += d2phi(P->y[r], f) * Q[i] * Q[i] / (double)P->l;
		}
		break;
	case COST_MULTINOMIAL:
		for (r = 0; r < P->l; r++) {
			size_t i = P->lab[r];
			double mx = -HUGE_VAL, z = 0.0, pq = 0.0, pqq = 0.0;
			for (k = 0; k < P->C; k++)
				mx = fmax(mx, Fb[i + (size_t)k * n] +
					      t * Q[i + (size_t)k * n]);
			for (k = 0; k < P->C; k++) {
				double qk = Q[i + (size_t)k * n];
				double e = exp(Fb[i + (size_t)k * n] + t * qk - mx);
				z += e;
				pq += e * qk;
				pqq += e * qk * qk;
			}
			pq /= z;
			pqq /= z;
			s1 += (pq - Q[i + (size_t)P->cls[r] * n]) / (double)P->l;
			s2 += (pqq - pq * pq) / (double)P->l;
		}
		break;
	case COST_AUGLAG:
		for (a = 0; a < P->m; a++) {
			double h = D->h0[a] + t * (D->h1[a] + t * D->h2[a]);
			double dh = D->h1[a] + 2.0 * t * D->h2[a];
			double w = P->lam[a] + P->mu * h;
			s1 += w * dh;
			s2 += P->mu * dh * dh + 2.0 * w * D->h2[a];
		}
		break;
	}
	*d1 = s1;
	*d2 = s2;
}

/*
 * A minimizer over t in [0, tmax] of V(Fb + t Q): bracketing on the sign
 * of the derivative (negative at 0: Q is a descent direction) and Newton
 * steps inside the bracket, bisection when Newton leaves it.  With labels
 * V is convex in t; the clustering's quartic need not be, and this finds a
 * point where the derivative changes sign.
 */
static double line_search(const prob *P, const double *Fb, const double *Q,
			  const along *D, double tmax)
{
	double lo = 0.0, hi = tmax, t = tmax < 1.0 ? tmax : 1.0, d0 = 0.0;
	int it;

	for (it = 0; it < 60; it++) {
		double d1, d2, tn;
		derivs(P, Fb, Q, D, t, &d1, &d2);
		if (it == 0)
			d0 = fabs(d1);
		if (d1 == 0.0 || fabs(d1) <= 1e-13 * d0)
			return t;
		if (d1 > 0.0)
			hi = t;
		else
			lo = t;
		if (hi - lo <= 1e-12 * hi)
			return d1 > 0.0 ? lo : t;
		tn = d2 > 0.0 ? t - d1 / d2 : (d1 > 0.0 ? lo : hi);
		if (!(tn > lo && tn < hi))
			tn = d1 < 0.0 && hi == tmax ? hi : 0.5 * (lo + hi);
		if (tn == t)
			return t;
		t = tn;
	}
	return t;
}

/* The cost's second derivative estimate at every row and function (n x
 * C): the loss's (or the constraints' Gauss-Newton part) plus 2 c diag L. */
static void curvature(const prob *P, const double *F, const double *Ldiag,
		      double *cur)
{
	size_t n = P->n, i, r;
	int j, k;

	for (j = 0; j < P->C; j++)
		for (i = 0; i < n; i++)
			cur[i + (size_t)j * n] = P->c > 0.0 ? 2.0 * P->c * Ldiag[i]
							    : 0.0;
	switch (P->kind) {
	case COST_BINOMIAL:
		for (r = 0; r < P->l; r++)
			cur[P->lab[r]] += d2phi(P->y[r], F[P->lab[r]]) /
					  (double)P->l;
		break;
	case COST_MULTINOMIAL:
		for (r = 0; r < P->l; r++) {
			size_t i0 = P->lab[r];
			double lse = logsumexp(F + i0, n, P->C);
			for (k = 0; k < P->C; k++) {
				double p = exp(F[i0 + (size_t)k * n] - lse);
				cur[i0 + (size_t)k * n] += p * (1.0 - p) /
							   (double)P->l;
			}
		}
		break;
	case COST_AUGLAG:
		al_values(P, F, P->h);
		for (j = 0; j < P->C; j++) {
			double w2 = 2.0 * (P->lam[2 * j + 1] +
					   P->mu * P->h[2 * j + 1]) / (double)n;
			for (i = 0; i < n; i++) {
				double f = F[i + (size_t)j * n];
				cur[i + (size_t)j * n] +=
					P->mu * (1.0 + 4.0 * f * f) /
						((double)n * (double)n) +
					(w2 > 0.0 ? w2 : 0.0);
			}
		}
		break;
	}
}

/* dV/dw of every function's learner at gradient g (centred first for
 * the multiple logistic: the update is centred, so its gradient is). */
static void coef_gradient(const prob *P, const basis *B, const size_t *off,
			  double *g, double *G)
{
	int j;

	if (P->kind == COST_MULTINOMIAL)
		center_rows(g, P->n, P->C);
	for (j = 0; j < P->C; j++)
		basis_adjoint(&B[j], P->n, g + (size_t)j * P->n, G + off[j]);
}

/* What fit_coef's BFGS steps hold: H the inverse Hessian estimate (N x
 * N), G and Gn the gradients dV/dw before and after a step, dir the
 * direction (then H y), sv the step s (N each); Fb, LFb = L^p Fb, g the
 * functional gradient, Q = B dir and LQ = L^p Q (n C each); hbuf the
 * clustering's constraint polynomials (3 m), D along the direction. */
typedef struct {
	double *H, *G, *Gn, *dir, *sv, *Fb, *LFb, *g, *Q, *LQ, *hbuf;
	along D;
} bfgs_work;

static void bfgs_free(bfgs_work *W)
{
	free(W->H);
	free(W->G);
	free(W->Gn);
	free(W->dir);
	free(W->sv);
	free(W->Fb);
	free(W->LFb);
	free(W->g);
	free(W->Q);
	free(W->LQ);
	free(W->hbuf);
}

/* W's arrays for N coefficients, n C values and m constraints; 0 when
 * out of memory (W then holds what was allocated, for bfgs_free). */
static int bfgs_alloc(bfgs_work *W, size_t N, size_t nC, size_t m)
{
	memset(W, 0, sizeof *W);
	W->H = lsv_alloc(N * N, sizeof *W->H);
	W->G = lsv_alloc(N, sizeof *W->G);
	W->Gn = lsv_alloc(N, sizeof *W->Gn);
	W->dir = lsv_alloc(N, sizeof *W->dir);
	W->sv = lsv_alloc(N, sizeof *W->sv);
	W->Fb = lsv_alloc(nC, sizeof *W->Fb);
	W->LFb = calloc(nC, sizeof *W->LFb);
	W->g = lsv_alloc(nC, sizeof *W->g);
	W->Q = lsv_alloc(nC, sizeof *W->Q);
	W->LQ = calloc(nC, sizeof *W->LQ);
	W->hbuf = lsv_alloc(3 * m, sizeof *W->hbuf);
	if (!W->H || !W->G || !W->Gn || !W->dir || !W->sv || !W->Fb ||
	    !W->LFb || !W->g || !W->Q || !W->LQ || !W->hbuf)
		return 0;
	W->D.h0 = W->hbuf;
	W->D.h1 = W->hbuf + m;
	W->D.h2 = W->hbuf + 2 * m;
	return 1;
}

/* The BFGS start H_0 = diag(1/h_s), h_s = sum_i b_s(x_i)^2 cur_i (cur:
 * curvature's estimate, in W->Q as scratch; W->G as scratch for h; 0
 * where h_s is not > 0). */
static void bfgs_start(const prob *P, const double *F, const double *Ldiag,
		       const basis *B, const size_t *off, bfgs_work *W)
{
	size_t n = P->n, N = off[P->C], i, s;
	double *G = W->G, *H = W->H;
	int j;

	curvature(P, F, Ldiag, W->Q);
	memset(H, 0, N * N * sizeof *H);
	for (j = 0; j < P->C; j++) {
		const basis *b = &B[j];
		const double *cj = W->Q + (size_t)j * n;
		for (s = 0; s < (size_t)b->S; s++)
			G[off[j] + s] = 0.0;
		if (b->leaf != NULL) {
			for (i = 0; i < n; i++)
				G[off[j] + (size_t)b->leaf[i]] += cj[i];
		} else {
			for (s = 0; s < (size_t)b->S; s++) {
				const double *ph = b->Phi + s * n;
				double v = 0.0;
				for (i = 0; i < n; i++)
					v += ph[i] * ph[i] * cj[i];
				G[off[j] + s] = v;
			}
		}
	}
	for (s = 0; s < N; s++)
		H[s * N + s] = G[s] > 0.0 ? 1.0 / G[s] : 0.0;
}

/* The quasi-Newton direction dir = -H G; returns G'dir (< 0: descent). */
static double bfgs_direction(bfgs_work *W, size_t N)
{
	size_t s, u;
	double gd = 0.0;

	for (s = 0; s < N; s++) {
		double v = 0.0;
		for (u = 0; u < N; u++)
			v -= W->H[s * N + u] * W->G[u];
		W->dir[s] = v;
		gd += v * W->G[s];
	}
	return gd;
}

/*
 * The step length *t along dir: Q = B dir (centred over the functions
 * for the multiple logistic), the cost's polynomial coefficients along
 * it (a1 = Q'L^pFb, a2 = Q'L^pQ, LQ = L^p Q; the constraints'), and the
 * line search over t in [0, BOOST_MAX_MOVE / max |Q_i|].  *t = 0 when Q
 * is 0.
 */
static lsv_status step_length(const prob *P, const basis *B,
			      const size_t *off, bfgs_work *W, double *t,
			      lsv_error *err)
{
	size_t n = P->n, C = (size_t)P->C, nC = n * C, i;
	double qmax = 0.0;
	lsv_status st;
	int j;

	*t = 0.0;
	for (j = 0; j < P->C; j++)
		basis_apply(&B[j], n, W->dir + off[j], W->Q + (size_t)j * n);
	if (P->kind == COST_MULTINOMIAL)
		center_rows(W->Q, n, P->C);
	for (i = 0; i < nC; i++)
		qmax = fmax(qmax, fabs(W->Q[i]));
	if (!(qmax > 0.0))
		return LSV_OK;
	W->D.a1 = W->D.a2 = 0.0;
	if (P->c > 0.0) {
		if ((st = lsv_lapop_apply(P->L, W->Q, W->LQ, C, 1.0, err)) !=
		    LSV_OK)
			return st;
		for (i = 0; i < nC; i++) {
			W->D.a1 += W->Q[i] * W->LFb[i];
			W->D.a2 += W->Q[i] * W->LQ[i];
		}
	}
	if (P->kind == COST_AUGLAG)
		al_poly(P, W->Fb, W->Q, &W->D);
	*t = line_search(P, W->Fb, W->Q, &W->D, BOOST_MAX_MOVE / qmax);
	return LSV_OK;
}

/* The step s = t dir taken: w += s, Fb += t Q, LFb += t LQ, and the
 * gradient at the new point into Gn. */
static void take_step(const prob *P, const basis *B, const size_t *off,
		      bfgs_work *W, double t, double *w)
{
	size_t nC = P->n * (size_t)P->C, N = off[P->C], s, i;
	double loss, reg;

	for (s = 0; s < N; s++) {
		W->sv[s] = t * W->dir[s];
		w[s] += W->sv[s];
	}
	for (i = 0; i < nC; i++) {
		W->Fb[i] += t * W->Q[i];
		if (P->c > 0.0)
			W->LFb[i] += t * W->LQ[i];
	}
	cost_from(P, W->Fb, P->c > 0.0 ? W->LFb : NULL, W->g, &loss, &reg);
	coef_gradient(P, B, off, W->g, W->Gn);
}

/* BFGS: H = (I - rho s y') H (I - rho y s') + rho s s', y = Gn - G, rho =
 * 1/(y's), when y's > 0; expanded, H -= rho (Hy s' + s (Hy)') and += (rho^2
 * y'Hy + rho) s s'.  Then G = Gn (G held y meanwhile, dir Hy). */
static void bfgs_update(bfgs_work *W, size_t N)
{
	double *H = W->H, *G = W->G, *sv = W->sv, *dir = W->dir, sy = 0.0;
	size_t s, u;

	for (s = 0; s < N; s++) {
		G[s] = W->Gn[s] - G[s];  /* y */
		sy += G[s] * sv[s];
	}
	if (sy > 1e-300) {
		double rho = 1.0 / sy, yHy = 0.0;
		for (s = 0; s < N; s++) {  /* Hy into dir */
			double v = 0.0;
			for (u = 0; u < N; u++)
				v += H[s * N + u] * G[u];
			dir[s] = v;
			yHy += G[s] * v;
		}
		for (s = 0; s < N; s++)
			for (u = 0; u < N; u++)
				H[s * N + u] += -rho * (dir[s] * sv[u] +
							sv[s] * dir[u]) +
						(rho * rho * yHy + rho) *
							sv[s] * sv[u];
	}
	memcpy(G, W->Gn, N * sizeof *G);
}

/*
 * BOOST_STEPS BFGS steps on w (all the learners' coefficients, off[j]..
 * off[j+1] those of function j) from 0 for V(F + Q(w)), Q(w)_j = B_j w_j
 * (centred over the functions for the multiple logistic); LF = L^p F.
 * The result in w.
 */
static lsv_status fit_coef(const prob *P, const double *F, const double *LF,
			   const basis *B, const size_t *off,
			   const double *Ldiag, double *w, lsv_error *err)
{
	size_t nC = P->n * (size_t)P->C, N = off[P->C];
	size_t m = P->kind == COST_AUGLAG ? P->m : 0;
	double loss, reg;
	lsv_status st = LSV_OK;
	bfgs_work W;
	int step;

	memset(w, 0, (N ? N : 1) * sizeof *w);
	if (N == 0)
		return LSV_OK;
	if (!bfgs_alloc(&W, N, nC, m)) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the BFGS "
			      "steps (%zu coefficients)", N);
		goto done;
	}
	memcpy(W.Fb, F, nC * sizeof *W.Fb);
	if (P->c > 0.0)
		memcpy(W.LFb, LF, nC * sizeof *W.LFb);
	bfgs_start(P, F, Ldiag, B, off, &W);
	cost_from(P, W.Fb, P->c > 0.0 ? W.LFb : NULL, W.g, &loss, &reg);
	coef_gradient(P, B, off, W.g, W.G);
	for (step = 0; step < BOOST_STEPS; step++) {
		double t;
		/* no descent left (or G = 0) */
		if (!(bfgs_direction(&W, N) < 0.0))
			break;
		if ((st = step_length(P, B, off, &W, &t, err)) != LSV_OK)
			goto done;
		if (!(t > 0.0))
			break;
		take_step(P, B, off, &W, t, w);
		bfgs_update(&W, N);
	}
done:
	bfgs_free(&W);
	return st;
}

/* ------------------------------------------------------------------ */
/* The model                                                           */
/* ------------------------------------------------------------------ */

/* The RBF centres met so far: slot[i] the expansion point of row i (or
 * -1), rows[k] the row of point k, coef (k x C, row-major) its weights. */
typedef struct {
	long *slot;
	size_t *rows;
	double *coef;
	size_t k, cap_rows, cap_coef;
} centres;

static int centre_add(centres *Z, size_t row, int C, int fn, double w)
{
	if (Z->slot[row] < 0) {
		if (lsv_grow((void **)&Z->rows, &Z->cap_rows, Z->k + 1,
			     sizeof *Z->rows) ||
		    lsv_grow((void **)&Z->coef, &Z->cap_coef,
			     (Z->k + 1) * (size_t)C, sizeof *Z->coef))
			return -1;
		memset(Z->coef + Z->k * (size_t)C, 0, (size_t)C * sizeof *Z->coef);
		Z->rows[Z->k] = row;
		Z->slot[row] = (long)Z->k++;
	}
	Z->coef[(size_t)Z->slot[row] * (size_t)C + (size_t)fn] += w;
	return 0;
}

static lsv_status boost_model(const lsv_fit *F, const double *bias,
			      lsv_tree *trees, size_t ntrees,
			      const centres *Z, lsv_model **out)
{
	const lsv_data *x = F->x;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);
	size_t k = Z != NULL ? Z->k : 0, nnz = 0, a, q, C = (size_t)F->nr_fn;

	if (m == NULL || sv == NULL)
		goto nomem;
	m->param = *F->p;
	m->l = F->l;
	m->u = F->n - F->l;
	m->unlabeled = F->x->unlabeled;
	m->nr_class = F->nr_class;
	m->nr_fn = F->nr_fn;
	m->sv = sv;
	sv->unlabeled = F->x->unlabeled;
	sv->dim = F->x->dim;
	for (a = 0; a < k; a++)
		nnz += x->rowptr[Z->rows[a] + 1] - x->rowptr[Z->rows[a]];
	m->labels = lsv_alloc((size_t)F->nr_class, sizeof *m->labels);
	m->bias = lsv_alloc(C, sizeof *m->bias);
	sv->rowptr = calloc(k + 1, sizeof *sv->rowptr);
	sv->y = calloc(k ? k : 1, sizeof *sv->y);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	m->coef = lsv_alloc(k * C, sizeof *m->coef);
	if (!m->labels || !m->bias || !sv->rowptr || !sv->y || !sv->col ||
	    !sv->val || !m->coef)
		goto nomem;
	memcpy(m->labels, F->labels, (size_t)F->nr_class * sizeof *m->labels);
	memcpy(m->bias, bias, C * sizeof *m->bias);
	for (a = 0; a < k; a++) {  /* the centres, as the data's rows */
		size_t i = Z->rows[a];
		sv->rowptr[a] = sv->nnz;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			sv->col[sv->nnz] = x->col[q];
			sv->val[sv->nnz++] = x->val[q];
		}
	}
	sv->rowptr[k] = sv->nnz;
	sv->n = k;
	if (k > 0)
		memcpy(m->coef, Z->coef, k * C * sizeof *m->coef);
	m->trees = trees;
	m->ntrees = ntrees;
	*out = m;
	return LSV_OK;
nomem:
	if (m != NULL) {
		m->sv = sv;
		lsv_model_free(m);
	} else
		free(sv);
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
}

/* ------------------------------------------------------------------ */
/* Algorithms 1-4                                                      */
/* ------------------------------------------------------------------ */

/* Everything one run holds, freed by run_free. */
typedef struct {
	bins B;
	int have_bins;
	double *Fv, *LF, *g, *res, *Ldiag, *w, *Phi, *wls, *lam, *h, *bias;
	size_t *idx, *tmp, *hc, *off, *rows;
	int *leaf, *leafnode, *cls;
	span *sp;
	double *hs;
	lsv_tree *trees;
	size_t ntrees;
	basis *bs;
	rbf_work R;
	centres Z;
} run;

static void run_free(run *r)
{
	size_t t;

	if (r->trees != NULL) {
		for (t = 0; t < r->ntrees; t++)
			free(r->trees[t].node);
		free(r->trees);
	}
	if (r->have_bins)
		bins_free(&r->B);
	free(r->Fv);
	free(r->LF);
	free(r->g);
	free(r->res);
	free(r->Ldiag);
	free(r->w);
	free(r->Phi);
	free(r->wls);
	free(r->lam);
	free(r->h);
	free(r->bias);
	free(r->idx);
	free(r->tmp);
	free(r->hc);
	free(r->off);
	free(r->rows);
	free(r->leaf);
	free(r->leafnode);
	free(r->cls);
	free(r->sp);
	free(r->hs);
	free(r->bs);
	free(r->R.perm);
	free(r->R.cand);
	free(r->R.Kc);
	free(r->R.kk);
	free(r->R.score);
	free(r->Z.slot);
	free(r->Z.rows);
	free(r->Z.coef);
}

/*
 * Round m's learner of function j fitted to res (n values, changed): a
 * tree into trees[ntrees] (its leaves in leaf + j n, leafnode + j
 * maxleaves), or RBFs (Phi + j n R, rows + j R, wls + j R); the basis
 * into bs[j].
 */
static lsv_status learn(lsv_fit *F, run *r, lsv_rng *rng, int j)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, maxleaves = (size_t)1 << p->boost_depth;
	int maxnodes = (1 << (p->boost_depth + 1)) - 1, S = 0;
	basis *b = &r->bs[j];

	if (p->boost_learner == LSV_BOOST_TREE) {
		lsv_tree *t = &r->trees[r->ntrees];
		int *leaf = r->leaf + (size_t)j * n;
		t->fn = j;
		t->node = lsv_alloc((size_t)maxnodes, sizeof *t->node);
		if (t->node == NULL)
			return lsv_fail(F->err, LSV_ENOMEM, "out of memory for a "
					"tree");
		r->ntrees++;
		grow_tree(&r->B, r->res, p->boost_depth, t, leaf,
			  r->leafnode + (size_t)j * maxleaves, &S, r->idx, r->tmp,
			  r->sp, r->hs, r->hc);
		{  /* keep only the nodes used */
			lsv_tree_node *fit = realloc(t->node, (size_t)t->nnodes *
						     sizeof *fit);
			if (fit != NULL)
				t->node = fit;
		}
		b->S = S;
		b->leaf = leaf;
		b->Phi = NULL;
		return LSV_OK;
	}
	{
		int R = p->boost_rbfs;
		lsv_status st = rbf_select(F->x, &p->kernel, R, rng, &r->R, r->res,
					   r->Phi + (size_t)j * n * (size_t)R,
					   r->rows + (size_t)j * (size_t)R,
					   r->wls + (size_t)j * (size_t)R, &S,
					   F->err);
		b->S = S;
		b->leaf = NULL;
		b->Phi = r->Phi + (size_t)j * n * (size_t)R;
		return st;
	}
}

/* Add nu w (the coefficients of function j's learner of this round) to
 * the model being built and nu B w to column j of q. */
static lsv_status keep(lsv_fit *F, run *r, int j, const double *w, double nu,
		       size_t tree, double *q)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, maxleaves = (size_t)1 << p->boost_depth;
	const basis *b = &r->bs[j];
	int s;

	basis_apply(b, n, w, q);
	for (s = 0; s < b->S; s++)
		if (!isfinite(nu * w[s]))
			return lsv_fail(F->err, LSV_ENUMERIC, "a coefficient of a "
					"base learner is not finite");
	if (p->boost_learner == LSV_BOOST_TREE) {
		lsv_tree *t = &r->trees[tree];
		for (s = 0; s < b->S; s++)
			t->node[r->leafnode[(size_t)j * maxleaves + (size_t)s]]
				.value = nu * w[s];
	} else {
		for (s = 0; s < b->S; s++)
			if (centre_add(&r->Z, r->rows[(size_t)j *
						      (size_t)p->boost_rbfs +
						      (size_t)s],
				       F->nr_fn, j, nu * w[s]))
				return lsv_fail(F->err, LSV_ENOMEM, "out of memory "
						"for the RBF centres");
	}
	{
		size_t i;
		for (i = 0; i < n; i++)
			q[i] *= nu;
	}
	return LSV_OK;
}

/* Clustering into c > 2: k-means on the rows of the embedding (n x C,
 * column-major), unit length first when param.cluster_unit; the
 * centroids (c x C, row-major) into the model. */
static lsv_status embed_centroids(lsv_fit *F, const double *Fv,
				  lsv_model *m)
{
	size_t n = F->n, i, C = (size_t)F->nr_fn, j;
	double *E = lsv_alloc(n * C, sizeof *E);
	lsv_status st;

	m->centroids = lsv_alloc((size_t)F->nr_class * C, sizeof *m->centroids);
	if (E == NULL || m->centroids == NULL) {
		free(E);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for k-means");
	}
	for (i = 0; i < n; i++) {
		double nz;
		for (j = 0; j < C; j++)
			E[i * C + j] = Fv[i + j * n];
		nz = F->p->cluster_unit ? lsv_unit_norm(E + i * C, (int)C) : 0.0;
		if (nz > 0.0)
			for (j = 0; j < C; j++)
				E[i * C + j] /= nz;
	}
	st = lsv_kmeans(E, n, (int)C, F->nr_class, F->p->seed,
			F->p->cluster_restarts, m->centroids, F->err);
	free(E);
	return st;
}

/* The cost a run minimizes: the binomial log-likelihood (one function),
 * the multinomial (C > 1), or clustering's augmented Lagrangian. */
static cost_kind boost_kind(const lsv_fit *F)
{
	return F->p->boost_clusters > 0 ? COST_AUGLAG
	       : F->nr_fn == 1 ? COST_BINOMIAL : COST_MULTINOMIAL;
}

/* What a run of the kind needs from the data: labeled rows to learn from,
 * or for clustering a graph with an edge. */
static lsv_status boost_check(const lsv_fit *F, cost_kind kind)
{
	if (F->l == 0 && kind != COST_AUGLAG)
		return lsv_fail(F->err, LSV_EINVAL, "no labeled rows");
	if (kind == COST_AUGLAG && F->L == NULL)
		return lsv_fail(F->err, LSV_EINVAL, "clustering by boosting "
				"needs a graph (gamma_I > 0)");
	/* no edge: F'LF is 0 for every F, and the clusters would be the
	 * random start's (as -s cluster, refused) */
	if (kind == COST_AUGLAG && F->L->g->nnz == 0)
		return lsv_fail(F->err, LSV_EINVAL, "the graph has no edges "
				"(every row is isolated): nothing to cluster by "
				"(build it with a larger -k or -e)");
	return LSV_OK;
}

/* The trees' bins of the data, which must have a feature that varies. */
static lsv_status run_bins(lsv_fit *F, run *r)
{
	size_t useful = 0;
	lsv_status st;

	if ((st = bins_build(F->x, F->p, &r->B, &useful, F->err)) != LSV_OK)
		return st;
	r->have_bins = 1;
	if (useful == 0)
		return lsv_fail(F->err, LSV_EINVAL,
				"every feature is constant over the %zu rows "
				"(or there are none): a tree has nothing to "
				"split (the RBF learner, -H rbf, needs no "
				"split)", F->n);
	return LSV_OK;
}

/* The arrays every run needs: the functions' values and gradients (n C),
 * the diagonal of L, the coefficients of a round (per learner and
 * function), the biases, the constraints' multipliers and values. */
static lsv_status run_alloc_common(lsv_fit *F, run *r, size_t per)
{
	size_t n = F->n, C = (size_t)F->nr_fn, nC = n * C;

	r->Fv = lsv_alloc(nC, sizeof *r->Fv);
	r->LF = calloc(nC, sizeof *r->LF);
	r->g = lsv_alloc(nC, sizeof *r->g);
	r->res = lsv_alloc(nC, sizeof *r->res);
	r->Ldiag = calloc(n ? n : 1, sizeof *r->Ldiag);
	r->w = lsv_alloc(per * C, sizeof *r->w);
	r->bias = calloc(C, sizeof *r->bias);
	r->off = lsv_alloc(C + 1, sizeof *r->off);
	r->bs = calloc(C, sizeof *r->bs);
	r->cls = lsv_alloc(F->l, sizeof *r->cls);
	r->lam = calloc(al_count(F->nr_fn), sizeof *r->lam);
	r->h = lsv_alloc(al_count(F->nr_fn), sizeof *r->h);
	if (!r->Fv || !r->LF || !r->g || !r->res || !r->Ldiag || !r->w ||
	    !r->bias || !r->off || !r->bs || !r->cls || !r->lam || !r->h)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for boosting");
	return LSV_OK;
}

/* The trees' arrays: the row order and scratch (n), each row's leaf (n
 * C), each leaf's node, the nodes' spans, the histograms (d x BINS), and
 * room for nrounds C trees. */
static lsv_status run_alloc_trees(lsv_fit *F, run *r, long nrounds)
{
	size_t n = F->n, C = (size_t)F->nr_fn;
	int D = F->p->boost_depth, maxnodes = (1 << (D + 1)) - 1;
	size_t maxleaves = (size_t)1 << D;

	r->idx = lsv_alloc(n, sizeof *r->idx);
	r->tmp = lsv_alloc(n, sizeof *r->tmp);
	r->leaf = lsv_alloc(n * C, sizeof *r->leaf);
	r->leafnode = lsv_alloc(maxleaves * C, sizeof *r->leafnode);
	r->sp = lsv_alloc((size_t)maxnodes, sizeof *r->sp);
	r->hs = lsv_alloc(r->B.d * LSV_BOOST_BINS, sizeof *r->hs);
	r->hc = lsv_alloc(r->B.d * LSV_BOOST_BINS, sizeof *r->hc);
	r->trees = calloc((size_t)nrounds * C, sizeof *r->trees);
	if (!r->idx || !r->tmp || !r->leaf || !r->leafnode || !r->sp ||
	    !r->hs || !r->hc || !r->trees)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for boosting");
	return LSV_OK;
}

/* The RBFs' arrays: R chosen RBFs per function (values n x R, rows,
 * weights), the candidates' work (rbf_work), and the centres met so far,
 * none yet. */
static lsv_status run_alloc_rbfs(lsv_fit *F, run *r)
{
	size_t n = F->n, C = (size_t)F->nr_fn, R = (size_t)F->p->boost_rbfs, i;

	r->Phi = lsv_alloc(n * C * R, sizeof *r->Phi);
	r->rows = lsv_alloc(C * R, sizeof *r->rows);
	r->wls = lsv_alloc(C * R, sizeof *r->wls);
	r->R.perm = lsv_alloc(n, sizeof *r->R.perm);
	r->R.cand = lsv_alloc(r->R.M, sizeof *r->R.cand);
	r->R.Kc = lsv_alloc(n * r->R.M, sizeof *r->R.Kc);
	r->R.kk = lsv_alloc(r->R.M, sizeof *r->R.kk);
	r->R.score = lsv_alloc(r->R.M, sizeof *r->R.score);
	r->Z.slot = lsv_alloc(n, sizeof *r->Z.slot);
	if (!r->Phi || !r->rows || !r->wls || !r->R.perm || !r->R.cand ||
	    !r->R.Kc || !r->R.kk || !r->R.score || !r->Z.slot)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for boosting");
	for (i = 0; i < n; i++)
		r->Z.slot[i] = -1;
	return LSV_OK;
}

/* r's arrays for nrounds rounds (the trees' bins first, whose features
 * must vary), after checking their size against the memory limit.  On
 * failure r holds what was allocated, for run_free. */
static lsv_status run_alloc(lsv_fit *F, run *r, long nrounds)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, i;
	size_t nC = n * (size_t)F->nr_fn, C = (size_t)F->nr_fn;
	int D = p->boost_depth, maxnodes = (1 << (D + 1)) - 1;
	size_t maxleaves = (size_t)1 << D, R = (size_t)p->boost_rbfs;
	int tree = p->boost_learner == LSV_BOOST_TREE;
	size_t per = tree ? maxleaves : R;
	lsv_status st;

	if (tree && (st = run_bins(F, r)) != LSV_OK)
		return st;
	r->R.M = n < BOOST_CANDIDATES ? n : BOOST_CANDIDATES;
	if ((st = lsv_check_bytes(p, 14.0 * (double)nC +
				  (double)per * C * ((double)per * C + 6.0) +
				  (tree ? 2.0 * (double)r->B.d * LSV_BOOST_BINS +
					  (double)nrounds * C * maxnodes * 3.0
					: (double)n * (double)r->R.M +
					  (double)n * (double)R * C + 2.0 * n),
				  "the boosting arrays and the learners",
				  tree ? "use fewer rounds (-B) or shallower trees "
					 "(-D)"
				       : "use fewer RBFs per round (-Q)",
				  F->err)) != LSV_OK)
		return st;
	if ((st = run_alloc_common(F, r, per)) != LSV_OK ||
	    (st = tree ? run_alloc_trees(F, r, nrounds) : run_alloc_rbfs(F, r)) !=
		    LSV_OK)
		return st;
	/* the diagonal of L (p = 1) for the BFGS start; with p > 1 only an
	 * estimate, which is all the start needs */
	if (F->L != NULL)
		for (i = 0; i < n; i++)
			r->Ldiag[i] = F->L->deg[i] > 0.0
				? (F->L->normalized ? 1.0 : F->L->deg[i]) : 0.0;
	return LSV_OK;
}

/* The problem P of the run r: its cost, data and the graph term's weight
 * (1/n for clustering, whose gamma_I only switches the graph on). */
static void boost_prob(const lsv_fit *F, run *r, cost_kind kind, prob *P)
{
	int C = F->nr_fn;

	memset(P, 0, sizeof *P);
	P->kind = kind;
	P->n = F->n;
	P->l = F->l;
	P->C = C;
	P->lab = F->lab;
	P->y = F->Y;
	P->cls = r->cls;
	P->c = kind == COST_AUGLAG ? 1.0 / (double)F->n
	       : F->L == NULL ? 0.0
	       : lsv_fit_intrinsic(F, kind == COST_MULTINOMIAL
				      ? 1.0 / (double)C : 1.0);
	P->L = F->L;
	P->m = al_count(C);
	P->lam = r->lam;
	P->mu = AL_MU0;
	P->h = r->h;
}

/* F_0, the constant of the labels' log-odds: 1/2 log((1 + ybar)/(1 -
 * ybar)) for the binomial cost, the centred log class frequencies for the
 * multinomial (whose classes r->cls it sets); 0 for clustering.  Into
 * r->bias and every row of r->Fv. */
static void initial_constant(const lsv_fit *F, run *r, cost_kind kind)
{
	size_t n = F->n, l = F->l, r0, i;
	int C = F->nr_fn, j;

	if (kind == COST_BINOMIAL) {
		double ybar = 0.0;
		for (r0 = 0; r0 < l; r0++)
			ybar += F->Y[r0];
		ybar /= (double)l;
		r->bias[0] = 0.5 * log((1.0 + ybar) / (1.0 - ybar));
	} else if (kind == COST_MULTINOMIAL) {
		double mean = 0.0;
		for (r0 = 0; r0 < l; r0++)
			for (j = 0; j < C; j++)
				if (F->Y[r0 + (size_t)j * l] > 0.0)
					r->cls[r0] = j;
		for (j = 0; j < C; j++) {
			size_t cnt = 0;
			for (r0 = 0; r0 < l; r0++)
				cnt += r->cls[r0] == j;
			/* every class has a labeled row: the classes are theirs */
			r->bias[j] = log((double)cnt / (double)l);
			mean += r->bias[j] / (double)C;
		}
		for (j = 0; j < C; j++)
			r->bias[j] -= mean;
	}
	for (j = 0; j < C; j++)
		for (i = 0; i < n; i++)
			r->Fv[i + (size_t)j * n] = r->bias[j];
}

/* Clustering's start: per function, a learner fitted to
 * N(0, BOOST_INIT_SCALE^2) values, or to BOOST_INIT_SCALE times the
 * spectral start, kept whole (its least-squares values) and centred. */
static lsv_status cluster_start(lsv_fit *F, run *r, lsv_rng *rng)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, i, R = (size_t)p->boost_rbfs;
	size_t maxleaves = (size_t)1 << p->boost_depth;
	int C = F->nr_fn, j, s;
	double *E0 = NULL;  /* the spectral start, or NULL */
	lsv_status st = LSV_OK;

	if (p->boost_init == LSV_BOOST_INIT_SPECTRAL) {
		if ((E0 = lsv_alloc(n * (size_t)C, sizeof *E0)) == NULL)
			return lsv_fail(F->err, LSV_ENOMEM,
					"out of memory for boosting");
		if ((st = lsv_boost_spectral_start(F->L, n, C, p, E0,
						   F->err)) != LSV_OK)
			goto done;
	}
	for (j = 0; j < C; j++) {
		double *fj = r->Fv + (size_t)j * n, mean = 0.0;
		size_t t0 = r->ntrees;
		for (i = 0; i < n; i++)
			r->res[i] = BOOST_INIT_SCALE *
				    (E0 != NULL ? E0[i + (size_t)j * n]
						: lsv_rng_normal(rng));
		if ((st = learn(F, r, rng, j)) != LSV_OK)
			goto done;
		if (p->boost_learner == LSV_BOOST_TREE) {
			/* its leaves keep their least-squares values */
			const lsv_tree *t = &r->trees[t0];
			for (s = 0; s < r->bs[j].S; s++)
				r->w[s] = t->node[r->leafnode[(size_t)j * maxleaves +
							      (size_t)s]].value;
		} else {
			memcpy(r->w, r->wls + (size_t)j * R,
			       (size_t)r->bs[j].S * sizeof *r->w);
		}
		if ((st = keep(F, r, j, r->w, 1.0, t0, fj)) != LSV_OK)
			goto done;
		for (i = 0; i < n; i++)
			mean += fj[i] / (double)n;
		for (i = 0; i < n; i++)
			fj[i] -= mean;
		r->bias[j] = -mean;
	}
done:
	free(E0);
	return st;
}

/* L F into r->LF (when there is a graph), then the cost's two parts at
 * r->Fv, the loss and the regularizer (V = loss + reg), and its gradient
 * into r->g. */
static lsv_status boost_cost(lsv_fit *F, run *r, const prob *P,
			     double *loss, double *reg)
{
	lsv_status st;

	if (F->L != NULL &&
	    (st = lsv_lapop_apply(F->L, r->Fv, r->LF, (size_t)F->nr_fn, 1.0,
				  F->err)) != LSV_OK)
		return st;
	cost_from(P, r->Fv, F->L != NULL ? r->LF : NULL, r->g, loss, reg);
	return LSV_OK;
}

/* One round (Algorithm 1 of Loeff et al., steps 3-6): a learner per
 * function fitted to -g, their coefficients by BFGS on V, added with the
 * shrinkage; clustering then moves its multipliers by the constraints'
 * violations and grows the penalty. */
static lsv_status boost_round(lsv_fit *F, run *r, prob *P, lsv_rng *rng)
{
	size_t n = F->n, nC = n * (size_t)F->nr_fn, first = r->ntrees, i, a;
	int C = F->nr_fn, j;
	lsv_status st;

	/* 1-2: a learner per function fitted to -g */
	r->off[0] = 0;
	for (j = 0; j < C; j++) {
		for (i = 0; i < n; i++)
			r->res[i] = -r->g[i + (size_t)j * n];
		if ((st = learn(F, r, rng, j)) != LSV_OK)
			return st;
		r->off[j + 1] = r->off[j] + (size_t)r->bs[j].S;
	}
	/* 3: their coefficients by BFGS on V */
	if ((st = fit_coef(P, r->Fv, r->LF, r->bs, r->off, r->Ldiag, r->w,
			   F->err)) != LSV_OK)
		return st;
	/* 4: with shrinkage (centred for the multiple logistic) */
	for (j = 0; j < C; j++)
		if ((st = keep(F, r, j, r->w + r->off[j], F->p->boost_shrinkage,
			       first + (size_t)j, r->res + (size_t)j * n)) !=
		    LSV_OK)
			return st;
	if (P->kind == COST_MULTINOMIAL)
		center_rows(r->res, n, C);
	for (i = 0; i < nC; i++)
		r->Fv[i] += r->res[i];
	if (P->kind == COST_AUGLAG) {
		/* the multipliers by the violations, a larger penalty; LF is
		 * not read by al_values */
		al_values(P, r->Fv, r->h);
		for (a = 0; a < P->m; a++)
			r->lam[a] += P->mu * r->h[a];
		P->mu = fmin(P->mu * AL_GROW, AL_MU_MAX);
	}
	return LSV_OK;
}

/* The run's end: clustering's largest constraint violation into the
 * report, the model (the trees or the RBF centres, which *out takes from
 * r), clustering's centroids for c > 2, and the training rows' values F
 * (-o, n x C row-major). */
static lsv_status boost_finish(lsv_fit *F, run *r, const prob *P,
			       lsv_model **out)
{
	size_t n = F->n, i, a;
	int C = F->nr_fn, j, tree = F->p->boost_learner == LSV_BOOST_TREE;
	lsv_status st;

	if (P->kind == COST_AUGLAG) {
		double worst = 0.0;
		al_values(P, r->Fv, r->h);
		for (a = 0; a < P->m; a++)
			worst = fmax(worst, fabs(r->h[a]));
		F->report->boost_violation = worst;
	}
	if ((st = boost_model(F, r->bias, tree ? r->trees : NULL,
			      tree ? r->ntrees : 0, tree ? NULL : &r->Z, out)) !=
	    LSV_OK)
		return st;
	if (tree)
		r->trees = NULL;
	if (P->kind == COST_AUGLAG && F->nr_class > 2 &&
	    (st = embed_centroids(F, r->Fv, *out)) != LSV_OK)
		return st;
	if ((F->report->train_f = lsv_alloc(n * (size_t)C,
					    sizeof *F->report->train_f)) == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		for (j = 0; j < C; j++)
			F->report->train_f[i * (size_t)C + (size_t)j] =
				r->Fv[i + (size_t)j * n];
	return LSV_OK;
}

lsv_status lsv_fit_boost(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	cost_kind kind = boost_kind(F);
	long m, nrounds = p->boost_rounds + (kind == COST_AUGLAG);
	double V, Vn, loss, reg;
	prob P;
	run rr;
	lsv_rng rng;
	lsv_status st;

	*out = NULL;
	memset(&rr, 0, sizeof rr);
	if ((st = boost_check(F, kind)) != LSV_OK ||
	    (st = run_alloc(F, &rr, nrounds)) != LSV_OK)
		goto done;
	lsv_rng_seed(&rng, p->seed);
	boost_prob(F, &rr, kind, &P);
	initial_constant(F, &rr, kind);
	if (kind == COST_AUGLAG && (st = cluster_start(F, &rr, &rng)) != LSV_OK)
		goto done;
	if ((st = boost_cost(F, &rr, &P, &loss, &reg)) != LSV_OK)
		goto done;
	V = loss + reg;
	F->report->boost_cost0 = V;
	for (m = 1; m <= p->boost_rounds; m++) {
		if ((st = boost_round(F, &rr, &P, &rng)) != LSV_OK ||
		    (st = boost_cost(F, &rr, &P, &loss, &reg)) != LSV_OK)
			goto done;
		Vn = loss + reg;
		F->report->boost_rounds = m;
		if (F->progress->boost != NULL)
			F->progress->boost(F->progress->ctx, m, Vn, loss, reg);
		if (kind != COST_AUGLAG && p->boost_tol > 0.0 &&
		    fabs(V - Vn) < p->boost_tol * V) {
			V = Vn;
			F->report->boost_converged = 1;
			break;
		}
		V = Vn;
	}
	F->report->boost_cost = V;
	st = boost_finish(F, &rr, &P, out);
done:
	if (st != LSV_OK && *out != NULL) {
		lsv_model_free(*out);
		*out = NULL;
	}
	run_free(&rr);
	return st;
}
