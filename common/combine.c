/*
 * combine.c -- the best convex combination of several graphs' Laplacian
 * kernels (Argyriou, Herbster & Pontil, "Combining Graph Laplacians for
 * Semi-Supervised Learning", NIPS 2005), lapsvm-train -s combine.
 *
 * Objective (the paper's eq. 3.1 with the square loss; one-vs-rest
 * functions c share the weights, so their objectives add):
 *
 *     min over lambda in the simplex of  E(lambda) = sum_c E_c(lambda),
 *     E_c(lambda) = min_v sum_{i labeled} (y_ic - v_i)^2 + mu |v|^2_K(lambda)
 *                 = mu y_c' (K_ll(lambda) + mu I)^-1 y_c,
 *     K(lambda) = sum_q lambda_q K_q,   K_q = pinv(L_q) / |pinv(L_q)_ll|_F,
 *
 * L_q the normalized (or unnormalized, -L) Laplacian of graph q and _ll
 * the block of the l labeled rows (the paper normalizes each kernel by the
 * Frobenius norm of that block, Section 4).  E is convex in lambda (a sum
 * of matrix-fractional functions of K), and dE/dlambda_q = -mu sum_c
 * c_c' K_q c_c with c_c = (K_ll + mu I)^-1 y_c.
 *
 * Update (the paper's Figure 1, from the average kernel): solve for c;
 * kernel q improves on K when g_q = sum_c c_c'K_q c_c exceeds g = sum_c
 * c_c'K c_c (the derivative of E toward K_q is -mu (g_q - g)), here by more
 * than 1e-6 relative (then E is within 1e-6 of its minimum: by convexity
 * E - E* <= mu (max_q g_q - g) and mu g <= E); take the q of largest g_q
 * (deterministic), or -M random the first improving q in a random order
 * (the authors' minimax_sq.m); find p in (0, 1] minimizing the convex
 * phi(p) = E(p K_q + (1 - p) K) by Newton's method safeguarded by
 * bisection on the sign of phi'; set lambda = p e_q + (1 - p) lambda; stop
 * when no kernel improves or after `steps` steps (the paper's T = 100).
 *     phi'(p)  = -mu sum_c c_c(p)' D c_c(p),                 D = K_q - K,
 *     phi''(p) = 2 mu sum_c (D c_c(p))' (K(p) + mu I)^-1 (D c_c(p)).
 * Everything here is l x l: one Cholesky (dpotrf) per solve, and all the
 * g_q at once as one dgemv of the stacked kernels with vec(C C').
 *
 * The kernels.  pinv(L) exactly, without an eigendecomposition: with V the
 * orthonormal basis of L's null space -- known from the graph, one vector
 * per connected component, D^1/2 1_c / sqrt(vol c) for the normalized
 * Laplacian, 1_c / sqrt(|c|) for D - W, e_i for an isolated row -- L + VV'
 * is positive definite and (L + VV')^-1 = pinv(L) + VV'.  So one Cholesky
 * of L + VV' (n^3/3 flops) and l solves give the l labeled columns of
 * pinv(L), which is all the method uses: K_ll to learn, K_ul to predict.
 * A disconnected graph is fine: its kernel is block diagonal (a component
 * without labeled rows gets predictions 0), and an isolated row has a zero
 * row and column in pinv(L) (its prediction is 0, undecided).  Past
 * LSV_COMBINE_EXACT_MAX rows (or with combine_rank r > 0) each kernel is
 * instead its rank-r part from the r smallest nonzero eigenpairs of L
 * (dsyevr, a subset of the spectrum): K_q = Z Z', Z = U diag(lambda)^-1/2,
 * kept as n x r rather than n x l.
 *
 * Beyond the paper, for new points: the weights define L = sum_q lambda_q
 * L_q, and LapRLS or LapSVM (combine_ext, direct) with the ambient kernel
 * and that L is the model.  The transductive values K_{.l}(lambda) c of
 * the training rows (what the paper evaluates) go to report->train_f.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

/* A kernel improves on K when g_q > g (1 + IMPROVE): relative, as the
 * authors' tol_g = 1e-6. */
#define IMPROVE 1e-6
/* Newton's line search stops when p moves by less than this (the
 * authors' tol_lambda), or after LINE_MAX_ITER probes. */
#define LINE_TOL 1e-6
#define LINE_MAX_ITER 60

/* ------------------------------------------------------------------ */
/* Connected components and null vectors                               */
/* ------------------------------------------------------------------ */

/* comp[i] = component of row i (0..*ncomp-1, in order of first row),
 * found by breadth-first search; queue is n scratch ints. */
static void components(const lsv_graph *g, int *comp, int *queue,
		       size_t *ncomp)
{
	size_t n = g->n, i, head, tail, p;
	int c = 0;

	for (i = 0; i < n; i++)
		comp[i] = -1;
	for (i = 0; i < n; i++) {
		if (comp[i] >= 0)
			continue;
		comp[i] = c;
		queue[0] = (int)i;
		for (head = 0, tail = 1; head < tail; head++) {
			size_t a = (size_t)queue[head];
			for (p = g->rowptr[a]; p < g->rowptr[a + 1]; p++) {
				int b = g->col[p];
				if (comp[b] < 0) {
					comp[b] = c;
					queue[tail++] = b;
				}
			}
		}
		c++;
	}
	*ncomp = (size_t)c;
}

/* v = the null vector of row i's component, evaluated at each row (so
 * VV'_ij = v_i v_j when comp[i] == comp[j], else 0): D^1/2 1_c / sqrt(vol)
 * (normalized) or 1_c / sqrt(|c|), and 1 for an isolated row. */
static lsv_status null_vectors(const lsv_graph *g, int normalized,
			       const int *comp, size_t ncomp, double *v,
			       lsv_error *err)
{
	size_t n = g->n, i, p;
	double *deg = calloc(n ? n : 1, sizeof *deg);
	double *mass = calloc(ncomp ? ncomp : 1, sizeof *mass);

	if (deg == NULL || mass == NULL) {
		free(deg);
		free(mass);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			deg[i] += g->w[p];
		/* an isolated row is its own component, null vector e_i */
		v[i] = deg[i] > 0.0 && normalized ? sqrt(deg[i]) : 1.0;
		mass[comp[i]] += v[i] * v[i];
	}
	for (i = 0; i < n; i++)
		v[i] /= sqrt(mass[comp[i]]);
	free(deg);
	free(mass);
	return LSV_OK;
}

/* Rows grouped by component: order[start[c] .. start[c+1]) are the rows of
 * component c, increasing. */
static lsv_status group_rows(const int *comp, size_t n, size_t ncomp,
			     size_t **order, size_t **start, lsv_error *err)
{
	size_t i, c, *o = lsv_alloc(n, sizeof *o),
		    *s = calloc(ncomp + 1, sizeof *s), *fill;

	if (o == NULL || s == NULL) {
		free(o);
		free(s);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		s[comp[i] + 1]++;
	for (c = 0; c < ncomp; c++)
		s[c + 1] += s[c];
	if ((fill = lsv_alloc(ncomp, sizeof *fill)) == NULL) {
		free(o);
		free(s);
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	}
	memcpy(fill, s, ncomp * sizeof *fill);
	for (i = 0; i < n; i++)
		o[fill[comp[i]]++] = i;
	free(fill);
	*order = o;
	*start = s;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The kernels: exact labeled columns of pinv(L), or eigenpairs        */
/* ------------------------------------------------------------------ */

lsv_status lsv_pinv_columns(const lsv_graph *g, int normalized,
			    const size_t *lab, size_t l, double *M, double *B,
			    lsv_error *err)
{
	size_t n = g->n, ncomp, c, a, b, k, *order = NULL, *start = NULL;
	int N = (int)n, L_ = (int)l, info;
	int *comp = lsv_alloc(n, sizeof *comp), *queue = lsv_alloc(n, sizeof *queue);
	double *v = lsv_alloc(n, sizeof *v);
	lsv_status st;

	if (comp == NULL || queue == NULL || v == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	if (n > INT_MAX || l > INT_MAX) {
		st = lsv_fail(err, LSV_ETOOBIG, "%zu rows: too many", n);
		goto done;
	}
	components(g, comp, queue, &ncomp);
	if ((st = null_vectors(g, normalized, comp, ncomp, v, err)) != LSV_OK ||
	    (st = group_rows(comp, n, ncomp, &order, &start, err)) != LSV_OK ||
	    (st = lsv_laplacian_dense(g, normalized, 1, M, err)) != LSV_OK)
		goto done;
	/* M += VV' on the lower triangle, one component at a time: a fill
	 * over the component's own pairs (dsyr would sweep all n^2 entries
	 * once per component, and a graph may have thousands) */
	for (c = 0; c < ncomp; c++)
		for (b = start[c]; b < start[c + 1]; b++) {
			size_t j = order[b];
			for (a = b; a < start[c + 1]; a++)
				M[order[a] + j * n] += v[order[a]] * v[j];
		}
	dpotrf_("L", &N, M, &N, &info, 1);
	if (info != 0) {
		st = lsv_fail(err, LSV_ENUMERIC,
			      "its Laplacian plus its null space is not "
			      "numerically positive definite (LAPACK dpotrf info "
			      "%d): a nearly disconnected graph, or weights of "
			      "wildly different sizes?", info);
		goto done;
	}
	memset(B, 0, n * l * sizeof *B);
	for (k = 0; k < l; k++)
		B[lab[k] + k * n] = 1.0;
	if (l > 0)
		dpotrs_("L", &N, &L_, M, &N, B, &N, &info, 1);
	/* (L + VV')^-1 e_i = pinv(L) e_i + VV' e_i: take VV' e_i away */
	for (k = 0; k < l; k++) {
		size_t i = lab[k];
		c = (size_t)comp[i];
		for (a = start[c]; a < start[c + 1]; a++)
			B[order[a] + k * n] -= v[order[a]] * v[i];
	}
done:
	free(comp);
	free(queue);
	free(v);
	free(order);
	free(start);
	return st;
}

/* The eigenpairs il..iu (1-based, ascending) of the n x n symmetric M
 * (lower triangle, destroyed) by dsyevr: *m eigenvalues into w, their
 * vectors into Z's first *m columns (n x (iu - il + 1)). */
static lsv_status eigen_range(double *M, size_t n, int il, int iu,
			      double *w, double *Z, int *m, lsv_error *err)
{
	int N = (int)n, info, lwork = -1, liwork = -1, iwq;
	int *isuppz = lsv_alloc(2 * (size_t)(iu - il + 1), sizeof *isuppz);
	int *iwork = NULL;
	double *work = NULL, wq, zero = 0.0, abstol = 0.0;
	lsv_status st = LSV_OK;

	if (isuppz == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory");
	dsyevr_("V", "I", "L", &N, M, &N, &zero, &zero, &il, &iu, &abstol, m, w,
		Z, &N, isuppz, &wq, &lwork, &iwq, &liwork, &info, 1, 1, 1);
	lwork = (int)wq;
	liwork = iwq;
	work = lsv_alloc((size_t)lwork, sizeof *work);
	iwork = lsv_alloc((size_t)liwork, sizeof *iwork);
	if (work == NULL || iwork == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
	else
		dsyevr_("V", "I", "L", &N, M, &N, &zero, &zero, &il, &iu, &abstol,
			m, w, Z, &N, isuppz, work, &lwork, iwork, &liwork, &info,
			1, 1, 1);
	if (st == LSV_OK && info != 0)
		st = lsv_fail(err, LSV_ENUMERIC,
			      "the eigenvalues of its Laplacian did not converge "
			      "(LAPACK dsyevr info %d)", info);
	free(work);
	free(iwork);
	free(isuppz);
	return st;
}

/* Z = U diag(1/sqrt(lambda)) over the m pairs (w ascending); an
 * eigenvalue at rounding level (as pinv's tolerance, n eps times the
 * largest, 2 for the normalized Laplacian's spectrum) would be a null
 * vector: its column zeroed, left out.  Returns the columns kept. */
static size_t scale_pairs(const double *w, int m, size_t n, int normalized,
			  double *Z)
{
	double wmax = m > 0 ? w[m - 1] : 0.0;
	size_t i, j, got = 0;

	if (normalized && wmax < 2.0)
		wmax = 2.0;
	for (j = 0; j < (size_t)m; j++) {
		double s;
		if (!(w[j] > (double)n * 2.2e-16 * wmax)) {
			for (i = 0; i < n; i++)
				Z[i + j * n] = 0.0;
			continue;
		}
		s = 1.0 / sqrt(w[j]);
		for (i = 0; i < n; i++)
			Z[i + j * n] *= s;
		got++;
	}
	return got;
}

lsv_status lsv_pinv_eigen(const lsv_graph *g, int normalized, size_t r,
			  double *M, double *Z, size_t *got, lsv_error *err)
{
	size_t n = g->n, ncomp;
	int il, iu, m = 0;
	int *comp = lsv_alloc(n, sizeof *comp), *queue = lsv_alloc(n, sizeof *queue);
	double *w = lsv_alloc(n, sizeof *w);
	lsv_status st = LSV_OK;

	*got = 0;
	if (comp == NULL || queue == NULL || w == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	memset(Z, 0, n * r * sizeof *Z);
	components(g, comp, queue, &ncomp);
	/* the ncomp smallest eigenvalues are the null space's zeros */
	if (ncomp >= n || r == 0)
		goto done;
	il = (int)ncomp + 1;
	iu = (int)(ncomp + r < n ? ncomp + r : n);
	if ((st = lsv_laplacian_dense(g, normalized, 1, M, err)) != LSV_OK ||
	    (st = eigen_range(M, n, il, iu, w, Z, &m, err)) != LSV_OK)
		goto done;
	/* MRRR may return fewer pairs than asked with info 0 when eigenvalues
	 * are (nearly) repeated (some LAPACKs); which ones are missing it does
	 * not say, so Z Z' would silently not be the rank-r part.  Refused,
	 * not recomputed: lsv_eig_extreme's fallback (dsyevd) takes two more
	 * n x n arrays, which this path, the one for large n, exists to
	 * avoid. */
	if (m != iu - il + 1) {
		st = lsv_fail(err, LSV_ENUMERIC,
			      "the eigensolver (LAPACK dsyevr) returned %d of the "
			      "%d smallest nonzero eigenpairs of its Laplacian "
			      "(nearly repeated eigenvalues at the cut): try "
			      "another number of eigenpairs (-N)", m, iu - il + 1);
		goto done;
	}
	*got = scale_pairs(w, m, n, normalized, Z);
done:
	free(comp);
	free(queue);
	free(w);
	return st;
}

/* ------------------------------------------------------------------ */
/* The paper's Figure 1 on the labeled blocks                          */
/* ------------------------------------------------------------------ */

/* A (l x l) = K + mu I, factored (lower Cholesky); X = A^-1 Y (l x C). */
static lsv_status solve(const double *K, size_t l, double mu, const double *Y,
			int C, double *A, double *X, lsv_error *err)
{
	int L_ = (int)l, info;
	size_t i;

	memcpy(A, K, l * l * sizeof *A);
	for (i = 0; i < l; i++)
		A[i + i * l] += mu;
	dpotrf_("L", &L_, A, &L_, &info, 1);
	if (info != 0)
		return lsv_fail(err, LSV_ENUMERIC,
				"the combination's system K_ll + mu I is not "
				"positive definite (LAPACK dpotrf info %d): mu "
				"too small?", info);
	memcpy(X, Y, l * (size_t)C * sizeof *X);
	dpotrs_("L", &L_, &C, A, &L_, X, &L_, &info, 1);
	return LSV_OK;
}

/* <A, B> over n values (a small sum of products; the callers' sizes are
 * l x C or l^2, the latter through dgemv where there are many). */
static double dot(const double *a, const double *b, size_t n)
{
	double s = 0.0;
	size_t i;
	for (i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

/* line_search's probe at p, on its scratch W (Kp, A, X, DX: l^2, l^2,
 * l C, l C): A = K + p D + mu I factored, X = A^-1 Y, DX = D X, and
 * *d1 = phi'(p) = -mu sum_c x_c' D x_c, whose sign tells the side of
 * the minimum. */
static lsv_status probe(const double *K, const double *D, size_t l,
			double mu, const double *Y, int C, double p, double *W,
			double *d1, lsv_error *err)
{
	size_t ll = l * l, lc = l * (size_t)C, i;
	double *Kp = W, *A = W + ll, *X = W + 2 * ll, *DX = X + lc;
	const double one = 1.0, zero = 0.0;
	int L_ = (int)l;
	lsv_status st;

	for (i = 0; i < ll; i++)
		Kp[i] = K[i] + p * D[i];
	if ((st = solve(Kp, l, mu, Y, C, A, X, err)) != LSV_OK)
		return st;
	dsymm_("L", "L", &L_, &C, &one, D, &L_, X, &L_, &zero, DX, &L_, 1, 1);
	*d1 = -mu * dot(X, DX, lc);
	return LSV_OK;
}

/* The line search: p in (0, 1] minimizing phi(p) = sum_c mu y_c'(K + p D +
 * mu I)^-1 y_c, convex, with phi'(0) < 0.  Newton from p = 1/2 (as the
 * authors), kept inside the bracket [lo, hi] where phi' changes sign and
 * replaced by bisection when it would leave it.  W: 2 l^2 + 3 l C
 * scratch. */
static lsv_status line_search(const double *K, const double *D, size_t l,
			      double mu, const double *Y, int C, double *W,
			      double *p_out, lsv_error *err)
{
	size_t ll = l * l, lc = l * (size_t)C;
	double *A = W + ll, *X = W + 2 * ll, *DX = X + lc, *AX = DX + lc;
	double lo = 0.0, hi = 1.0, p = 1.0, d1, d2, next;
	int L_ = (int)l, it, info;
	lsv_status st;

	if ((st = probe(K, D, l, mu, Y, C, 1.0, W, &d1, err)) != LSV_OK)
		return st;
	if (d1 <= 0.0) {  /* still going down at p = 1: the end */
		*p_out = 1.0;
		return LSV_OK;
	}
	hi = 1.0;
	p = 0.5;
	for (it = 0; it < LINE_MAX_ITER; it++) {
		if ((st = probe(K, D, l, mu, Y, C, p, W, &d1, err)) != LSV_OK)
			return st;
		if (d1 == 0.0)
			break;
		if (d1 < 0.0)
			lo = p;
		else
			hi = p;
		/* phi'' = 2 mu sum_c (D x_c)' A^-1 (D x_c) */
		memcpy(AX, DX, lc * sizeof *AX);
		dpotrs_("L", &L_, &C, A, &L_, AX, &L_, &info, 1);
		d2 = 2.0 * mu * dot(DX, AX, lc);
		next = d2 > 0.0 ? p - d1 / d2 : 0.5 * (lo + hi);
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - p) < LINE_TOL || hi - lo < LINE_TOL) {
			p = next;
			break;
		}
		p = next;
	}
	*p_out = p > 0.0 ? p : lo;
	return LSV_OK;
}

/* lsv_combine_weights' scratch: K, its factor A, G = X X' and the
 * direction D (l x l each), the solutions X (l x C), the gains gq and
 * the random order perm (Q each), and line_search's W. */
typedef struct {
	double *K, *A, *X, *G, *D, *gq, *W;
	size_t *perm;
} weights_work;

static int weights_work_alloc(weights_work *w, size_t l, size_t Q, int C)
{
	size_t ll = l * l, lc = l * (size_t)C;

	w->K = lsv_alloc(ll, sizeof *w->K);
	w->A = lsv_alloc(ll, sizeof *w->A);
	w->X = lsv_alloc(lc, sizeof *w->X);
	w->G = lsv_alloc(ll, sizeof *w->G);
	w->D = lsv_alloc(ll, sizeof *w->D);
	w->gq = lsv_alloc(Q, sizeof *w->gq);
	w->W = lsv_alloc(2 * ll + 3 * lc, sizeof *w->W);
	w->perm = lsv_alloc(Q, sizeof *w->perm);
	return w->K && w->A && w->X && w->G && w->D && w->gq && w->W &&
	       w->perm;
}

static void weights_work_free(weights_work *w)
{
	free(w->K);
	free(w->A);
	free(w->X);
	free(w->G);
	free(w->D);
	free(w->gq);
	free(w->W);
	free(w->perm);
}

/* K = sum_q lambda_q K_q: the stacked kernels S (l^2 x Q) times lambda */
static void combined_kernel(const double *S, size_t ll, size_t Q,
			    const double *lambda, double *K)
{
	const double one = 1.0, zero = 0.0;
	int LL = (int)ll, QQ = (int)Q, inc = 1;

	dgemv_("N", &LL, &QQ, &one, S, &LL, lambda, &inc, &zero, K, &inc, 1);
}

/* The improving kernel of largest g_q (the first of equals), or Q. */
static size_t largest_improving(const double *gq, size_t Q, double g)
{
	size_t q, pick = Q;
	double best = 0.0;

	for (q = 0; q < Q; q++)
		if (gq[q] > g * (1.0 + IMPROVE) && (pick == Q || gq[q] > best)) {
			pick = q;
			best = gq[q];
		}
	return pick;
}

/* The first improving kernel in a fresh random order (a Fisher-Yates
 * shuffle into perm each step, as minimax_sq.m), or Q. */
static size_t random_improving(const double *gq, size_t Q, double g,
			       lsv_rng *rng, size_t *perm)
{
	size_t q;

	for (q = 0; q < Q; q++)
		perm[q] = q;
	for (q = Q; q > 1; q--) {
		size_t j = (size_t)(lsv_rng_next(rng) % q), tmp;
		tmp = perm[q - 1];
		perm[q - 1] = perm[j];
		perm[j] = tmp;
	}
	for (q = 0; q < Q; q++)
		if (gq[perm[q]] > g * (1.0 + IMPROVE))
			return perm[q];
	return Q;
}

/* The kernel the next step moves toward, or Q when none improves on K
 * (the minimum): g_q = sum_c x_c' K_q x_c = <K_q, X X'> for every q at
 * once (one dgemv of the stacked kernels S with vec(G), G = X X'),
 * against g = sum_c x_c' K x_c = sum_q lambda_q g_q. */
static size_t improving_kernel(const double *S, size_t l, size_t Q, int C,
			       const double *lambda, int random, lsv_rng *rng,
			       weights_work *w)
{
	const double one = 1.0, zero = 0.0;
	int LL = (int)(l * l), QQ = (int)Q, L_ = (int)l, inc = 1;
	double g;

	dgemm_("N", "T", &L_, &L_, &C, &one, w->X, &L_, w->X, &L_, &zero, w->G,
	       &L_, 1, 1);
	dgemv_("T", &LL, &QQ, &one, S, &LL, w->G, &inc, &zero, w->gq, &inc, 1);
	g = dot(lambda, w->gq, Q);
	return random ? random_improving(w->gq, Q, g, rng, w->perm)
		      : largest_improving(w->gq, Q, g);
}

/* lambda = p e_pick + (1 - p) lambda: still in the simplex */
static void move_weights(double *lambda, size_t Q, size_t pick, double p)
{
	size_t q;

	for (q = 0; q < Q; q++)
		lambda[q] *= 1.0 - p;
	lambda[pick] += p;
}

lsv_status lsv_combine_weights(const double *S, size_t l, size_t Q,
			       const double *Y, int C, double mu, long steps,
			       int random, unsigned long long seed,
			       double *lambda, double *C_out, long *taken,
			       int *capped, double *obj0, double *obj,
			       lsv_error *err)
{
	size_t ll = l * l, lc = l * (size_t)C, q;
	weights_work w;
	lsv_rng rng;
	lsv_status st = LSV_OK;
	long t;

	*taken = 0;
	*capped = 0;
	if (!weights_work_alloc(&w, l, Q, C)) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the combination");
		goto done;
	}
	if (ll > INT_MAX || Q > INT_MAX) {
		st = lsv_fail(err, LSV_ETOOBIG, "%zu labeled rows: too many", l);
		goto done;
	}
	lsv_rng_seed(&rng, seed);
	for (t = 0;; t++) {
		size_t pick;
		double p;

		combined_kernel(S, ll, Q, lambda, w.K);
		if ((st = solve(w.K, l, mu, Y, C, w.A, w.X, err)) != LSV_OK)
			goto done;
		*obj = mu * dot(Y, w.X, lc);
		if (t == 0)
			*obj0 = *obj;
		if (t >= steps) {
			/* a kernel would still improve: the cap stopped it */
			*capped = steps > 0;
			break;
		}
		pick = improving_kernel(S, l, Q, C, lambda, random, &rng, &w);
		if (pick == Q)
			break;  /* no kernel improves: the minimum */
		for (q = 0; q < ll; q++)  /* D = K_pick - K */
			w.D[q] = S[q + pick * ll] - w.K[q];
		if ((st = line_search(w.K, w.D, l, mu, Y, C, w.W, &p, err)) !=
		    LSV_OK)
			goto done;
		move_weights(lambda, Q, pick, p);
		(*taken)++;
	}
	if (C_out != NULL)
		memcpy(C_out, w.X, lc * sizeof *w.X);
done:
	weights_work_free(&w);
	return st;
}

/* ------------------------------------------------------------------ */
/* The solver                                                          */
/* ------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Each weighted graph's row scales: isd[q][i] = d_i^-1/2 (normalized)
 * or 1 where row i of graph q has an edge, 0 for an isolated row; isd[q]
 * stays NULL for a graph of weight 0.  *cap: the merged graph's most
 * entries, the sum of the weighted graphs'.  0 when out of memory. */
static int graph_scales(const lsv_fit *F, const double *lambda, double **isd,
			size_t *cap)
{
	const lsv_graph *const *gs = F->graphs;
	int normalized = F->p->normalized;
	size_t n = F->n, q, i, p;

	for (q = 0; q < F->ngraphs; q++) {
		if (!(lambda[q] > 0.0))
			continue;
		*cap += gs[q]->nnz;
		if ((isd[q] = lsv_alloc(n, sizeof **isd)) == NULL)
			return 0;
		for (i = 0; i < n; i++) {
			double d = 0.0;
			for (p = gs[q]->rowptr[i]; p < gs[q]->rowptr[i + 1]; p++)
				d += gs[q]->w[p];
			isd[q][i] = d > 0.0 ? (normalized ? 1.0 / sqrt(d) : 1.0) : 0.0;
		}
	}
	return 1;
}

/* Row i of the merged W' = sum_q lambda_q W~_q appended to w at *nnz,
 * and deg[i]: every weighted graph's row i scattered into acc (mark[j]
 * == i: column j already in the row), then the touched columns gathered
 * in increasing order. */
static void merge_row(const lsv_fit *F, const double *lambda,
		      double *const *isd, size_t i, lsv_graph *w, double *deg,
		      double *acc, int *mark, size_t *nnz)
{
	int normalized = F->p->normalized;
	size_t first = *nnz, q, p, k;

	for (q = 0; q < F->ngraphs; q++) {
		const lsv_graph *g = F->graphs[q];
		if (isd[q] == NULL || g->rowptr[i] == g->rowptr[i + 1])
			continue;
		deg[i] += normalized ? lambda[q] : 0.0;
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			int j = g->col[p];
			double v = lambda[q] * g->w[p] * isd[q][i] * isd[q][j];
			if (!normalized)
				deg[i] += v;
			if (mark[j] != (int)i) {
				mark[j] = (int)i;
				acc[j] = 0.0;
				w->col[(*nnz)++] = j;
			}
			acc[j] += v;
		}
	}
	qsort(w->col + first, *nnz - first, sizeof *w->col, cmp_int);
	for (k = first; k < *nnz; k++)
		w->w[k] = acc[w->col[k]];
}

/* sum_q lambda_q L_q as a sparse operator for the extension's solver:
 * L = Diag(dg) - W', W' = sum_q lambda_q W~_q with W~_q = D_q^-1/2 W_q
 * D_q^-1/2 and dg_i = sum of lambda_q over the graphs where row i has an
 * edge (normalized; an isolated row has a zero row in L_q), or W~_q = W_q
 * and dg = the row sums (D - W).  Held as lsv_lapop's unnormalized form
 * (y_i = deg_i x_i - sum_j w_ij x_j) over the merged graph *Wc. */
static lsv_status combined_laplacian(const lsv_fit *F, const double *lambda,
				     lsv_graph **Wc, lsv_lapop *L)
{
	size_t n = F->n, q, i, cap = 0, nnz = 0;
	double **isd = calloc(F->ngraphs, sizeof *isd), *acc = NULL;
	int *mark = NULL;
	lsv_graph *w = calloc(1, sizeof *w);
	lsv_status st = LSV_OK;

	memset(L, 0, sizeof *L);
	*Wc = NULL;
	if (isd == NULL || w == NULL || !graph_scales(F, lambda, isd, &cap))
		goto nomem;
	w->n = n;
	w->rowptr = lsv_alloc(n + 1, sizeof *w->rowptr);
	w->col = lsv_alloc(cap, sizeof *w->col);
	w->w = lsv_alloc(cap, sizeof *w->w);
	L->deg = calloc(n ? n : 1, sizeof *L->deg);
	acc = calloc(n ? n : 1, sizeof *acc);
	mark = lsv_alloc(n, sizeof *mark);
	if (!w->rowptr || !w->col || !w->w || !L->deg || !acc || !mark)
		goto nomem;
	for (i = 0; i < n; i++)
		mark[i] = -1;
	w->rowptr[0] = 0;
	for (i = 0; i < n; i++) {
		merge_row(F, lambda, isd, i, w, L->deg, acc, mark, &nnz);
		w->rowptr[i + 1] = nnz;
	}
	w->nnz = nnz;
	L->n = n;
	L->g = w;
	L->normalized = 0;  /* Diag(deg) - W', deg as set above */
	L->power = 1;
	*Wc = w;
	w = NULL;
	goto done;
nomem:
	st = lsv_fail(F->err, LSV_ENOMEM,
		      "out of memory for the combined Laplacian");
	lsv_lapop_free(L);
done:
	if (isd != NULL)
		for (q = 0; q < F->ngraphs; q++)
			free(isd[q]);
	free(isd);
	free(acc);
	free(mark);
	lsv_graph_free(w);
	return st;
}

/* Frobenius norm of the l x l block (scaled sums, no overflow). */
static double fro(const double *A, size_t ll)
{
	double scale = 0.0, ssq = 1.0;
	size_t i;
	for (i = 0; i < ll; i++) {
		double a = fabs(A[i]);
		if (a == 0.0)
			continue;
		if (scale < a) {
			ssq = 1.0 + ssq * (scale / a) * (scale / a);
			scale = a;
		} else {
			ssq += (a / scale) * (a / scale);
		}
	}
	return scale * sqrt(ssq);
}

/* Zl (l x r) = the labeled rows of Z (n x r): kernel q's K_ll = Z_l Z_l'
 * and its K_.l X = Z (Z_l' X) on the eigenpair path. */
static void labeled_rows(const lsv_fit *F, const double *Z, size_t r,
			 double *Zl)
{
	size_t n = F->n, l = F->l, i, k;

	for (k = 0; k < r; k++)
		for (i = 0; i < l; i++)
			Zl[i + k * l] = Z[F->lab[i] + k * n];
}

/* Each graph's kernel alone, (K_q,ll + mu I) c = Y and f = K_q[:, lab] c
 * (the paper's eq. 2.5 on the normalized kernel), into
 * report->single_f: what the combination is compared with. */
static lsv_status single_fits(lsv_fit *F, const double *S, const double *B,
			      const double *scale, size_t width, size_t r,
			      double *Zl, double *T, double mu)
{
	size_t n = F->n, l = F->l, ll = l * l, q, i, k, Q = F->ngraphs;
	int C = F->nr_fn, N = (int)n, L_ = (int)l, W_ = (int)width;
	double *A = lsv_alloc(ll, sizeof *A), *X = lsv_alloc(l * (size_t)C,
							     sizeof *X),
	       *f = lsv_alloc(n * (size_t)C, sizeof *f), *out;
	const double zero = 0.0, one = 1.0;
	lsv_status st = LSV_OK;

	out = F->report->single_f = calloc(Q * n * (size_t)C, sizeof *out);
	if (A == NULL || X == NULL || f == NULL || out == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	for (q = 0; q < Q; q++) {
		const double *Bq = B + q * n * width;
		double a;
		if (!(scale[q] > 0.0))
			continue;
		if ((st = solve(S + q * ll, l, mu, F->Y, C, A, X, F->err)) != LSV_OK)
			goto done;
		a = 1.0 / scale[q];
		if (r == 0) {
			dgemm_("N", "N", &N, &C, &L_, &a, Bq, &N, X, &L_, &zero, f, &N,
			       1, 1);
		} else {
			labeled_rows(F, Bq, r, Zl);
			dgemm_("T", "N", &W_, &C, &L_, &one, Zl, &L_, X, &L_, &zero, T,
			       &W_, 1, 1);
			dgemm_("N", "N", &N, &C, &W_, &a, Bq, &N, T, &W_, &zero, f, &N,
			       1, 1);
		}
		for (i = 0; i < n; i++)
			for (k = 0; k < (size_t)C; k++)
				out[(q * n + i) * (size_t)C + k] = f[i + k * n];
	}
done:
	free(A);
	free(X);
	free(f);
	return st;
}

/* The solver's sizes and arrays, allocated together by work_alloc and
 * freed together at the end of lsv_fit_combine. */
typedef struct {
	size_t r;       /* eigenpairs per kernel, 0: the exact kernels */
	size_t width;   /* columns kept per graph: r, or l */
	double *M;      /* n x n: one graph's Laplacian at a time */
	double *B;      /* Q blocks of n x width: K_q[:, lab], or Z_q */
	double *S;      /* Q blocks of l x l: K_q,ll / s_q */
	double *X;      /* l x C: c = (K_ll(lambda) + mu I)^-1 Y */
	double *lambda; /* Q: the weights */
	double *scale;  /* Q: s_q = |K_q,ll|_F */
	double *f;      /* n x C: the transductive values */
	double *T;      /* r x C: Z_l' X */
	double *Zl;     /* l x r: the labeled rows of Z_q */
} combine_work;

/* The kernels' memory within -m: the n x n kernel the driver computed
 * (F->K, held throughout: the extension trains on it), one n x n
 * Laplacian at a time, each graph's kept columns, the stacked labeled
 * blocks; 30 n more on the eigenpair path (dsyevr's workspace: 26 n
 * doubles, 10 n ints). */
static lsv_status check_memory(const lsv_fit *F, const combine_work *w)
{
	double n = (double)F->n, Q = (double)F->ngraphs;
	size_t ll = F->l * F->l;
	char what[160];

	snprintf(what, sizeof what,
		 "the combination's kernels (the n x n kernel, one n x n "
		 "Laplacian, then %zu graphs "
		 "x n x %zu %s)", F->ngraphs, w->width, w->r > 0 ? "eigenvectors"
		 : "labeled columns of the pseudo-inverse");
	return lsv_check_bytes(F->p, (F->K != NULL ? n * n : 0.0) + n * n +
			       Q * n * (double)w->width +
			       Q * (double)ll + (w->r > 0 ? 30.0 * n : 0.0), what,
			       w->r > 0 ? "use fewer eigenpairs (-N r) or fewer "
			       "graphs" : "use the eigenpair path (-N r, r "
			       "small) or fewer graphs", F->err);
}

static lsv_status work_alloc(const lsv_fit *F, combine_work *w)
{
	size_t n = F->n, l = F->l, Q = F->ngraphs, C = (size_t)F->nr_fn;
	size_t r1 = w->r > 0 ? w->r : 1;

	w->M = lsv_alloc(n * n, sizeof *w->M);
	w->B = lsv_alloc(Q * n * w->width, sizeof *w->B);
	w->S = lsv_alloc(Q * l * l, sizeof *w->S);
	w->X = lsv_alloc(l * C, sizeof *w->X);
	w->lambda = lsv_alloc(Q, sizeof *w->lambda);
	w->scale = lsv_alloc(Q, sizeof *w->scale);
	w->f = lsv_alloc(n * C, sizeof *w->f);
	w->T = lsv_alloc(r1 * C, sizeof *w->T);
	w->Zl = lsv_alloc(r1 * l, sizeof *w->Zl);
	if (!w->M || !w->B || !w->S || !w->X || !w->lambda || !w->scale ||
	    !w->f || !w->T || !w->Zl)
		return lsv_fail(F->err, LSV_ENOMEM,
				"out of memory for the combination's kernels");
	return LSV_OK;
}

static void work_free(combine_work *w)
{
	free(w->M);
	free(w->B);
	free(w->S);
	free(w->X);
	free(w->lambda);
	free(w->scale);
	free(w->f);
	free(w->T);
	free(w->Zl);
}

/* Graph q's kernel: its labeled columns of pinv(L_q) (or its r
 * eigenvectors Z, K_q = Z Z') into B, and its labeled block K_q,ll,
 * normalized by s_q = its Frobenius norm, into column q of S (a zero
 * block is counted in the report and left as it is). */
static lsv_status graph_kernel(lsv_fit *F, combine_work *w, size_t q)
{
	size_t n = F->n, l = F->l, ll = l * l, r = w->r, i, k, got;
	int L_ = (int)l, W_ = (int)w->width;
	double *Bq = w->B + q * n * w->width, *Sq = w->S + q * ll;
	const double one = 1.0, zero = 0.0;
	lsv_status st;

	if (r == 0) {
		st = lsv_pinv_columns(F->graphs[q], F->p->normalized, F->lab, l,
				      w->M, Bq, F->err);
		for (k = 0; st == LSV_OK && k < l; k++)
			for (i = 0; i < l; i++)
				Sq[i + k * l] = Bq[F->lab[i] + k * n];
	} else {
		st = lsv_pinv_eigen(F->graphs[q], F->p->normalized, r, w->M, Bq,
				    &got, F->err);
		if (st == LSV_OK) {
			/* K_ll = Z_l Z_l', Z_l the labeled rows */
			labeled_rows(F, Bq, r, w->Zl);
			dgemm_("N", "T", &L_, &L_, &W_, &one, w->Zl, &L_, w->Zl,
			       &L_, &zero, Sq, &L_, 1, 1);
		}
	}
	if (st != LSV_OK) {
		/* name the graph: the caller knows its file */
		char msg[LSV_ERRMSG_MAX];
		snprintf(msg, sizeof msg, "%s", F->err ? F->err->msg : "");
		return lsv_fail(F->err, st, "graph %zu: %s", q + 1, msg);
	}
	w->scale[q] = fro(Sq, ll);
	if (w->scale[q] > 0.0)
		for (i = 0; i < ll; i++)
			Sq[i] /= w->scale[q];
	else
		F->report->combine_zero++;
	return LSV_OK;
}

/* The update (see the top) from the caller's weights or the average
 * kernel: lambda and c = X, the steps and objectives into the report. */
static lsv_status learn_weights(lsv_fit *F, combine_work *w)
{
	const lsv_train_param *p = F->p;
	size_t Q = F->ngraphs, q;

	for (q = 0; q < Q; q++)
		w->lambda[q] = F->start != NULL ? F->start[q] : 1.0 / (double)Q;
	return lsv_combine_weights(w->S, F->l, Q, F->Y, F->nr_fn,
				   p->combine_mu, p->combine_steps,
				   p->method == LSV_METHOD_RANDOM, p->seed,
				   w->lambda, w->X, &F->report->combine_steps,
				   &F->report->combine_capped,
				   &F->report->combine_obj0,
				   &F->report->combine_obj, F->err);
}

/* The transductive values f = sum_q lambda_q / s_q K_q[:, lab] X, by
 * graph in order (exact: one dgemm each; eigenpairs: Z (Z_l' X), T =
 * Z_l' X r x C). */
static void transductive_values(const lsv_fit *F, combine_work *w)
{
	size_t n = F->n, l = F->l, r = w->r, q;
	int C = F->nr_fn, N = (int)n, L_ = (int)l, W_ = (int)w->width;
	const double one = 1.0, zero = 0.0;

	memset(w->f, 0, n * (size_t)C * sizeof *w->f);
	for (q = 0; q < F->ngraphs; q++) {
		double a;
		const double *Bq = w->B + q * n * w->width;
		if (!(w->lambda[q] > 0.0) || !(w->scale[q] > 0.0))
			continue;
		a = w->lambda[q] / w->scale[q];
		if (r == 0) {
			dgemm_("N", "N", &N, &C, &L_, &a, Bq, &N, w->X, &L_, &one,
			       w->f, &N, 1, 1);
		} else {
			labeled_rows(F, Bq, r, w->Zl);
			dgemm_("T", "N", &W_, &C, &L_, &one, w->Zl, &L_, w->X, &L_,
			       &zero, w->T, &W_, 1, 1);
			dgemm_("N", "N", &N, &C, &W_, &a, Bq, &N, w->T, &W_, &one,
			       w->f, &N, 1, 1);
		}
	}
}

/* f (n x C, column-major) into report->train_f, row-major as
 * lsv_model_decision's. */
static lsv_status report_values(lsv_fit *F, const double *f)
{
	size_t n = F->n, C = (size_t)F->nr_fn, i, k;

	F->report->train_f = lsv_alloc(n * C, sizeof *F->report->train_f);
	if (F->report->train_f == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		for (k = 0; k < C; k++)
			F->report->train_f[i * C + k] = f[i + k * n];
	return LSV_OK;
}

/* The model for new points: LapRLS or LapSVM (combine_ext) with the
 * ambient kernel and L = sum_q lambda_q L_q (no L when gamma_I = 0); on
 * success the model's graph weights are *lambda, taken. */
static lsv_status extension_model(lsv_fit *F, double **lambda,
				  lsv_model **out)
{
	lsv_graph *Wc = NULL;
	lsv_lapop Lc;
	lsv_status st;

	memset(&Lc, 0, sizeof Lc);
	if (F->p->gamma_I > 0.0) {
		if ((st = combined_laplacian(F, *lambda, &Wc, &Lc)) != LSV_OK)
			goto done;
		F->L = &Lc;
	}
	st = F->p->combine_ext == LSV_SOLVER_LAPSVM
		? lsv_fit_lapsvm_dual(F, out) : lsv_fit_laprls_direct(F, out);
	F->L = NULL;
	if (st == LSV_OK) {
		F->graph_weight = *lambda;
		*lambda = NULL;
	}
done:
	lsv_lapop_free(&Lc);
	lsv_graph_free(Wc);
	return st;
}

lsv_status lsv_fit_combine(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, q;
	combine_work w;
	lsv_status st;

	memset(&w, 0, sizeof w);
	if (F->ngraphs == 0)
		return lsv_fail(F->err, LSV_EINVAL,
				"-s combine needs at least one graph");
	w.r = p->combine_rank > 0 ? (size_t)p->combine_rank : 0;
	w.width = w.r > 0 ? w.r : F->l;
	if (w.r > n)
		w.r = w.width = n;
	if ((st = check_memory(F, &w)) != LSV_OK)
		return st;
	if ((st = work_alloc(F, &w)) != LSV_OK)
		goto done;
	for (q = 0; q < F->ngraphs; q++)
		if ((st = graph_kernel(F, &w, q)) != LSV_OK)
			goto done;
	free(w.M);
	w.M = NULL;
	if (p->combine_singles &&
	    (st = single_fits(F, w.S, w.B, w.scale, w.width, w.r, w.Zl, w.T,
			      p->combine_mu)) != LSV_OK)
		goto done;
	if ((st = learn_weights(F, &w)) != LSV_OK)
		goto done;
	F->report->combine_mu = p->combine_mu;
	F->report->combine_rank = (long)w.r;
	transductive_values(F, &w);
	free(w.B);
	w.B = NULL;
	free(w.S);
	w.S = NULL;
	if ((st = report_values(F, w.f)) != LSV_OK)
		goto done;
	st = extension_model(F, &w.lambda, out);
done:
	work_free(&w);
	return st;
}

/* ------------------------------------------------------------------ */
/* The combination's text inputs                                       */
/* ------------------------------------------------------------------ */

static FILE *open_text(const char *path, const char **name, lsv_error *err)
{
	FILE *fp;

	if (strcmp(path, "-") == 0) {
		*name = "(stdin)";
		return stdin;
	}
	*name = path;
	if ((fp = fopen(path, "r")) == NULL)
		lsv_fail_open(err, path);
	return fp;
}

lsv_status lsv_weights_read_path(const char *path, size_t expect, double **w,
				 lsv_error *err)
{
	const char *name;
	FILE *fp = open_text(path, &name, err);
	lsv_lines in = {fp, NULL, NULL, 0, 0, 0, 0};
	double *v = lsv_alloc(expect, sizeof *v), sum = 0.0;
	size_t n = 0;
	char *s, *tok;
	lsv_status st = LSV_OK;
	int got;

	*w = NULL;
	if (fp == NULL) {
		free(v);
		return LSV_EIO;
	}
	in.name = name;
	if (v == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	while ((got = lsv_lines_next(&in, &s, err)) == 1) {
		lsv_error why;
		double x;
		if ((tok = lsv_token(&s)) == NULL) {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: empty line (expected one weight per "
				      "line, one per graph)", name, in.line);
			goto done;
		}
		if (lsv_parse_double(tok, &x, &why) != LSV_OK || !(x >= 0.0)) {
			st = lsv_bad_token(err, name, in.line, "bad weight", tok,
					   "a number >= 0");
			goto done;
		}
		if ((tok = lsv_token(&s)) != NULL) {
			st = lsv_bad_token(err, name, in.line,
					   "extra text after the weight", tok,
					   "one weight per line");
			goto done;
		}
		if (n == expect) {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: more weights than the %zu graphs "
				      "(expected one per graph, in the order given)",
				      name, in.line, expect);
			goto done;
		}
		v[n++] = x;
		sum += x;
	}
	if (got == -1) {
		st = err != NULL ? err->status : LSV_EIO;
		goto done;
	}
	if (n < expect)
		st = lsv_fail(err, LSV_EFORMAT,
			      "%s: %zu weight%s for %zu graphs (expected one per "
			      "graph, in the order given)", name, n, n == 1 ? "" : "s",
			      expect);
	else if (!(sum > 0.0) || !isfinite(sum))
		st = lsv_fail(err, LSV_EFORMAT,
			      "%s: the weights sum to %g (expected a sum > 0: they "
			      "are scaled to sum 1)", name, sum);
done:
	lsv_lines_done(&in);
	if (fp != stdin)
		fclose(fp);
	if (st != LSV_OK) {
		free(v);
		return st;
	}
	*w = v;
	return LSV_OK;
}

lsv_status lsv_graph_list_read_path(const char *path, char ***files,
				    size_t *count, lsv_error *err)
{
	const char *name, *slash = strcmp(path, "-") ? strrchr(path, '/') : NULL;
	size_t dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0, n = 0,
	       cap = 0, i;
	FILE *fp = open_text(path, &name, err);
	lsv_lines in = {fp, NULL, NULL, 0, 0, 0, 0};
	char **v = NULL, *s;
	lsv_status st = LSV_OK;
	int got;

	*files = NULL;
	*count = 0;
	if (fp == NULL)
		return LSV_EIO;
	in.name = name;
	while ((got = lsv_lines_next(&in, &s, err)) == 1) {
		size_t len;
		char *f;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			continue;  /* a blank line */
		if (strcmp(s, "-") == 0) {
			st = lsv_fail(err, LSV_EFORMAT,
				      "%s:%zu: '-' (standard input) cannot be listed "
				      "(expected a graph file)", name, in.line);
			goto done;
		}
		len = strlen(s);
		if (lsv_grow((void **)&v, &cap, n + 1, sizeof *v) ||
		    (f = malloc((s[0] == '/' ? 0 : dirlen) + len + 1)) == NULL) {
			st = lsv_fail(err, LSV_ENOMEM, "%s:%zu: out of memory", name,
				      in.line);
			goto done;
		}
		/* relative to the list's directory, so a list travels with
		 * its graphs */
		if (s[0] == '/') {
			memcpy(f, s, len + 1);
		} else {
			memcpy(f, path, dirlen);
			memcpy(f + dirlen, s, len + 1);
		}
		v[n++] = f;
	}
	if (got == -1)
		st = err != NULL ? err->status : LSV_EIO;
	else if (n == 0)
		st = lsv_fail(err, LSV_EFORMAT,
			      "%s: no graph files listed (expected one file name "
			      "per line)", name);
done:
	lsv_lines_done(&in);
	if (fp != stdin)
		fclose(fp);
	if (st != LSV_OK) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return st;
	}
	*files = v;
	*count = n;
	return LSV_OK;
}
