/*
 * alignf.c -- kernel weights by centered alignment (alignf; Cortes, Mohri
 * & Rostamizadeh, "Two-stage learning kernel algorithms", ICML 2010), the
 * weighting step of the label-aware base kernels (Wang, Zhang, Jiang &
 * Marsic, AAAI 2014, Algorithm 1 step 4; common/labelaware.c) and of the
 * maximal-alignment kernel (common/kdesign.c); below it, Zhu et al.'s
 * order-constrained weights (the spectral graph kernel).
 *
 * Base kernels of rank one, K_i = z_i z_i' (z_i: a label-aware vector u
 * or a kernel eigenvector v), seen on the l labeled rows.  Centered,
 * K_i,c = H K_i H = c_i c_i' with c_i = H z_i, H = I - 11'/l.  The target
 * is Y Y' (Y l x C: one-hot, or the +-1 column of two classes), centered
 * (HY)(HY)'.  alignf maximizes the centered alignment
 *
 *     rho(sum mu_i K_i, YY') = <K_mu,c, (HY)(HY)'>_F / (|K_mu,c|_F |(HY)(HY)'|_F)
 *
 * over mu >= 0; by Cortes et al.'s Proposition 9 the solution is
 * mu = v / |v| with
 *
 *     v = argmin_{v >= 0}  v'M v - 2 v'a,
 *     M_ij = <K_i,c, K_j,c>_F = (c_i'c_j)^2,   a_i = <K_i,c, YY'>_F = |Y'c_i|^2.
 *
 * M = G .* G with G = C'C (dsyrk), a from B = C'Y (dgemm); q = c + k
 * unknowns (a few hundred at most), so the QP is solved exactly by the
 * active-set method of Lawson & Hanson (NNLS, 1974, Ch. 23) carried over
 * to the quadratic 1/2 v'Mv - a'v: the passive set P grows by the index of
 * the largest gradient w_j = (a - Mv)_j off P; on P the unconstrained
 * minimizer z_P = M_PP^-1 a_P (Cholesky, with a ridge of 1e-12 max_i M_ii
 * on the diagonal so that repeated base vectors do not make M_PP
 * singular) is taken if positive, else the step from v toward z stops at
 * the first coordinate to reach 0, which leaves P.  Stopping rule (the KKT
 * conditions): every w_j off P is at most 1e-10 max(max_i a_i, 1e-300), or
 * P holds every index; at most 3q passive-set additions (then
 * LSV_ENUMERIC, never met on a positive definite M: each addition lowers
 * the objective strictly, and Lawson & Hanson's argument bounds it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

/* The buffers of lsv_nonneg_qp: the passive set P (its np indices in the
 * order they entered), in (q flags: j is in P), the gradient w (q), the
 * passive solution z and the Cholesky factor A of M_PP (np <= q, np^2). */
typedef struct {
	size_t *P, np;
	unsigned char *in;
	double *w, *z, *A;
} nnqp_work;

static void nnqp_free(nnqp_work *W)
{
	free(W->P);
	free(W->in);
	free(W->w);
	free(W->z);
	free(W->A);
}

static lsv_status nnqp_alloc(nnqp_work *W, size_t q, lsv_error *err)
{
	W->np = 0;
	W->P = malloc(q * sizeof *W->P);
	W->in = calloc(q, 1);
	W->w = malloc(q * sizeof *W->w);
	W->z = malloc(q * sizeof *W->z);
	W->A = malloc(q * q * sizeof *W->A);
	if (!W->P || !W->in || !W->w || !W->z || !W->A)
		return lsv_fail(err, LSV_ENOMEM, "alignf: out of memory");
	return LSV_OK;
}

/* The gradient of the objective, negated: w = a - M v, with v nonzero on
 * P only. */
static void nnqp_gradient(const double *M, const double *a, size_t q,
			  const double *v, nnqp_work *W)
{
	size_t i, j;

	for (i = 0; i < q; i++) {
		double s = a[i];
		for (j = 0; j < W->np; j++)
			s -= M[i + W->P[j] * q] * v[W->P[j]];
		W->w[i] = s;
	}
}

/* The index off P of the largest w_j above tol, the direction that lowers
 * the objective fastest; q when there is none (the KKT conditions hold). */
static size_t nnqp_entering(const nnqp_work *W, size_t q, double tol)
{
	size_t i, best = q;
	double wb = tol;

	for (i = 0; i < q; i++)
		if (!W->in[i] && W->w[i] > wb) {
			wb = W->w[i];
			best = i;
		}
	return best;
}

/* The unconstrained minimizer on P: z_P = (M_PP + ridge I)^-1 a_P by
 * Cholesky (dpotrf, dpotrs); the ridge keeps M_PP definite when base
 * vectors repeat. */
static lsv_status nnqp_passive_solve(const double *M, const double *a,
				     size_t q, double ridge, nnqp_work *W,
				     lsv_error *err)
{
	size_t j, k, np = W->np;
	int Q = (int)np, one = 1, info;

	for (j = 0; j < np; j++) {
		for (k = 0; k < np; k++)
			W->A[j + k * np] = M[W->P[j] + W->P[k] * q];
		W->A[j + j * np] += ridge;
		W->z[j] = a[W->P[j]];
	}
	dpotrf_("L", &Q, W->A, &Q, &info, 1);
	if (info != 0)
		return lsv_fail(err, LSV_ENUMERIC, "alignf: the alignment "
				"matrix is not positive definite on %zu base "
				"kernels", np);
	dpotrs_("L", &Q, &one, W->A, &Q, W->z, &Q, &info, 1);
	return LSV_OK;
}

/* The longest step alpha in [0, 1] from v toward z that keeps v_P >= 0:
 * the least v_j / (v_j - z_j) over the j with z_j <= 0; 1 when every
 * z_j > 0 (then z is feasible and *all_pos is set). */
static double nnqp_step(const double *v, const nnqp_work *W, int *all_pos)
{
	size_t j;
	double alpha = 1.0;

	*all_pos = 1;
	for (j = 0; j < W->np; j++)
		if (!(W->z[j] > 0.0)) {
			double vj = v[W->P[j]];
			*all_pos = 0;
			if (vj - W->z[j] > 0.0 && vj / (vj - W->z[j]) < alpha)
				alpha = vj / (vj - W->z[j]);
		}
	return alpha;
}

/* v_P += alpha (z - v_P); the coordinates that reach 0 leave P, which
 * keeps its order. */
static void nnqp_move(double *v, double alpha, nnqp_work *W)
{
	size_t j, keep;

	for (j = 0, keep = 0; j < W->np; j++) {
		double vo = v[W->P[j]], nv = vo + alpha * (W->z[j] - vo);
		/* the coordinate that set alpha lands on 0 up to rounding */
		if (nv > 1e-14 * (fabs(vo) + fabs(W->z[j]))) {
			v[W->P[j]] = nv;
			W->P[keep++] = W->P[j];
		} else {
			v[W->P[j]] = 0.0;
			W->in[W->P[j]] = 0;
		}
	}
	W->np = keep;
}

/* Lawson & Hanson's inner loop: solve on P; if z_P > 0 take it, else
 * step toward z until a coordinate reaches 0, drop it, and solve again
 * on the smaller P (until it is empty). */
static lsv_status nnqp_inner(const double *M, const double *a, size_t q,
			     double ridge, double *v, nnqp_work *W,
			     lsv_error *err)
{
	lsv_status st;

	for (;;) {
		size_t j;
		double alpha;
		int all_pos;

		if ((st = nnqp_passive_solve(M, a, q, ridge, W, err)) != LSV_OK)
			return st;
		alpha = nnqp_step(v, W, &all_pos);
		if (all_pos) {
			for (j = 0; j < W->np; j++)
				v[W->P[j]] = W->z[j];
			return LSV_OK;
		}
		nnqp_move(v, alpha, W);
		if (W->np == 0)
			return LSV_OK;
	}
}

/* min 1/2 v'Mv - a'v over v >= 0; M q x q symmetric positive
 * semi-definite (column-major), v (q) the result.  Lawson & Hanson's
 * outer loop from v = 0: add to P the index of the largest gradient off
 * P and re-solve (nnqp_inner), until no w_j off P exceeds
 * 1e-10 max(max_i a_i, 1e-300) or 3q additions have been made. */
lsv_status lsv_nonneg_qp(const double *M, const double *a, size_t q,
			 double *v, lsv_error *err)
{
	size_t i, outer;
	double amax = 1e-300, ridge = 0.0, tol;
	nnqp_work W = { 0 };
	lsv_status st;

	if (q == 0)
		return LSV_OK;
	if (q > 46340)
		return lsv_fail(err, LSV_ETOOBIG, "alignf: %zu base kernels "
				"(at most 46340)", q);
	if ((st = nnqp_alloc(&W, q, err)) != LSV_OK) {
		nnqp_free(&W);
		return st;
	}
	for (i = 0; i < q; i++) {
		v[i] = 0.0;
		amax = fmax(amax, a[i]);
		ridge = fmax(ridge, M[i + i * q]);
	}
	ridge *= 1e-12;
	tol = 1e-10 * amax;
	for (outer = 0;; outer++) {
		size_t best;

		nnqp_gradient(M, a, q, v, &W);
		best = nnqp_entering(&W, q, tol);
		if (best == q)
			break;  /* KKT: no free direction lowers the objective */
		if (outer >= 3 * q) {
			st = lsv_fail(err, LSV_ENUMERIC, "alignf: the active-set "
				      "method did not converge in %zu steps", outer);
			break;
		}
		W.P[W.np++] = best;
		W.in[best] = 1;
		if ((st = nnqp_inner(M, a, q, ridge, v, &W, err)) != LSV_OK)
			break;
	}
	nnqp_free(&W);
	return st;
}

lsv_status lsv_alignf(const double *Z, size_t l, size_t q, const double *Y,
		      int C, double *mu, double *align, lsv_error *err)
{
	double *Cm = NULL, *G = NULL, *B = NULL, *a = NULL, *T = NULL;
	double norm = 0.0, num = 0.0, den = 0.0, ty = 0.0;
	const double one = 1.0, zero = 0.0;
	size_t i, j;
	lsv_status st = LSV_OK;
	int L = (int)l, Q = (int)q, CC = C;

	if (l < 2 || q == 0 || C < 1)
		return lsv_fail(err, LSV_EINVAL, "alignf: %zu labeled rows, %zu "
				"base kernels, %d targets (expected l >= 2, at "
				"least one of each)", l, q, C);
	if (l > 46340 || q > 46340)
		return lsv_fail(err, LSV_ETOOBIG, "alignf: %zu x %zu too large",
				l, q);
	Cm = malloc(l * q * sizeof *Cm);
	G = malloc(q * q * sizeof *G);
	B = malloc(q * (size_t)C * sizeof *B);
	a = malloc(q * sizeof *a);
	T = malloc((size_t)C * (size_t)C * sizeof *T);
	if (!Cm || !G || !B || !a || !T) {
		st = lsv_fail(err, LSV_ENOMEM, "alignf: out of memory");
		goto done;
	}
	/* c_i = H z_i: each column less its mean */
	for (j = 0; j < q; j++) {
		double m = 0.0;
		for (i = 0; i < l; i++)
			m += Z[i + j * l];
		m /= (double)l;
		for (i = 0; i < l; i++)
			Cm[i + j * l] = Z[i + j * l] - m;
	}
	/* G = C'C (the lower triangle), B = C'Y (= (HZ)'HY, H idempotent) */
	dsyrk_("L", "T", &Q, &L, &one, Cm, &L, &zero, G, &Q, 1, 1);
	dgemm_("T", "N", &Q, &CC, &L, &one, Cm, &L, Y, &L, &zero, B, &Q, 1, 1);
	for (j = 0; j < q; j++)
		for (i = j; i < q; i++) {
			G[i + j * q] *= G[i + j * q];  /* M = G .* G */
			G[j + i * q] = G[i + j * q];
		}
	for (i = 0; i < q; i++) {
		double s = 0.0;
		int c;
		for (c = 0; c < C; c++)
			s += B[i + (size_t)c * q] * B[i + (size_t)c * q];
		a[i] = s;
	}
	if ((st = lsv_nonneg_qp(G, a, q, mu, err)) != LSV_OK)
		goto done;
	for (i = 0; i < q; i++)
		norm += mu[i] * mu[i];
	norm = sqrt(norm);
	if (!(norm > 0.0)) {
		st = lsv_fail(err, LSV_ENUMERIC, "alignf: no base kernel is "
			      "aligned with the labels (every weight is 0)");
		goto done;
	}
	for (i = 0; i < q; i++)
		mu[i] /= norm;
	/* rho = mu'a / (sqrt(mu'M mu) |Y'HY|_F) */
	for (i = 0; i < q; i++) {
		num += mu[i] * a[i];
		for (j = 0; j < q; j++)
			den += mu[i] * G[i + j * q] * mu[j];
	}
	{	/* |(HY)(HY)'|_F = |Y'HY|_F, Y'HY = Y'Y - (1'Y)'(1'Y)/l (C x C) */
		int c, d;
		for (c = 0; c < C; c++)
			for (d = 0; d < C; d++) {
				double s = 0.0, sc = 0.0, sd = 0.0;
				for (i = 0; i < l; i++) {
					s += Y[i + (size_t)c * l] * Y[i + (size_t)d * l];
					sc += Y[i + (size_t)c * l];
					sd += Y[i + (size_t)d * l];
				}
				T[c + d * C] = s - sc * sd / (double)l;
				ty += T[c + d * C] * T[c + d * C];
			}
	}
	*align = den > 0.0 && ty > 0.0 ? num / (sqrt(den) * sqrt(ty)) : 0.0;
done:
	free(Cm);
	free(G);
	free(B);
	free(a);
	free(T);
	return st;
}

/*
 * The monotone cone.  Zhu, Kandola, Ghahramani & Lafferty ("Nonparametric
 * transforms of graph kernels for semi-supervised learning", NIPS 2004,
 * Section 3) order the weights of the Laplacian's eigenvectors, mu_1 >=
 * mu_2 >= .. >= mu_q >= 0, the smoother eigenvector weighing more.  That
 * cone is {R t : t >= 0}, R the upper triangular matrix of ones (mu_j =
 * sum_{i >= j} t_i, t_i = mu_i - mu_{i+1}), so the QP over it is the
 * nonnegative QP in t with R'MR and R'a:
 *     (R'MR)_ij = sum_{a <= i} sum_{b <= j} M_ab   (2-D prefix sums),
 *     (R'a)_i = sum_{a <= i} a_a,
 * solved by lsv_nonneg_qp (Lawson & Hanson, its KKT stopping rule: in
 * t, every component of R'(a - M mu) at most 1e-10 max(R'a), and 0 where
 * t_i > 0 -- the KKT conditions of the ordered problem).
 */
lsv_status lsv_order_qp(const double *M, const double *a, size_t q,
			double *mu, double *t, lsv_error *err)
{
	double *RMR = NULL, *Ra = NULL, *tt = NULL;
	size_t i, j;
	lsv_status st;

	if (q == 0)
		return LSV_OK;
	if (q > 46340)
		return lsv_fail(err, LSV_ETOOBIG, "ordered weights: %zu base "
				"kernels (at most 46340)", q);
	RMR = malloc(q * q * sizeof *RMR);
	Ra = malloc(q * sizeof *Ra);
	tt = malloc(q * sizeof *tt);
	if (RMR == NULL || Ra == NULL || tt == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "ordered weights: out of memory");
		goto done;
	}
	for (j = 0; j < q; j++)  /* prefix sums down each column ... */
		for (i = 0; i < q; i++)
			RMR[i + j * q] = M[i + j * q] +
					 (i > 0 ? RMR[i - 1 + j * q] : 0.0);
	for (j = 1; j < q; j++)  /* ... then along each row */
		for (i = 0; i < q; i++)
			RMR[i + j * q] += RMR[i + (j - 1) * q];
	for (i = 0; i < q; i++)
		Ra[i] = a[i] + (i > 0 ? Ra[i - 1] : 0.0);
	if ((st = lsv_nonneg_qp(RMR, Ra, q, tt, err)) != LSV_OK)
		goto done;
	for (i = q; i-- > 0;)
		mu[i] = tt[i] + (i + 1 < q ? mu[i + 1] : 0.0);
	if (t != NULL)
		memcpy(t, tt, q * sizeof *t);
done:
	free(RMR);
	free(Ra);
	free(tt);
	return st;
}

/*
 * Zhu et al.'s kernel alignment is the uncentered one, A(K_ll, T) =
 * <K_ll, T>_F / (|K_ll|_F |T|_F); over K = sum mu_j z_j z_j' it is
 * mu'a / sqrt(mu'M mu) / |T|_F with
 *     M_ij = <z_i z_i', z_j z_j'>_F on the labeled rows = (z_i'z_j)^2,
 *     a_j = z_j'T z_j = 2 |Y'z_j|^2 - (1'z_j)^2   (T = 2 Y Y' - 1 1').
 * Maximizing it over the cone (scale-free) is their QCQP max mu'a s.t.
 * mu'M mu <= 1; as in Cortes et al.'s Proposition 9 for the orthant, the
 * maximizer is along the minimizer of 1/2 mu'M mu - a'mu over the cone
 * (lsv_order_qp), and the trace constraint sum_j mu_j = trace(K~) = 1
 * fixes the scale.
 */
lsv_status lsv_align_ordered(const double *Z, size_t l, size_t q,
			     const double *Y, int C, double *mu, double *align,
			     lsv_error *err)
{
	double *G = NULL, *B = NULL, *a = NULL, *s1 = NULL;
	double sum = 0.0, num = 0.0, den = 0.0;
	const double one = 1.0, zero = 0.0;
	size_t i, j;
	lsv_status st = LSV_OK;
	int L = (int)l, Q = (int)q, CC = C, c;

	if (l < 2 || q == 0 || C < 1)
		return lsv_fail(err, LSV_EINVAL, "ordered weights: %zu labeled "
				"rows, %zu base kernels, %d targets (expected l >= "
				"2, at least one of each)", l, q, C);
	if (l > 46340 || q > 46340)
		return lsv_fail(err, LSV_ETOOBIG, "ordered weights: %zu x %zu "
				"too large", l, q);
	G = malloc(q * q * sizeof *G);
	B = malloc(q * (size_t)C * sizeof *B);
	a = malloc(q * sizeof *a);
	s1 = calloc(q, sizeof *s1);
	if (!G || !B || !a || !s1) {
		st = lsv_fail(err, LSV_ENOMEM, "ordered weights: out of memory");
		goto done;
	}
	dsyrk_("L", "T", &Q, &L, &one, Z, &L, &zero, G, &Q, 1, 1);
	dgemm_("T", "N", &Q, &CC, &L, &one, Z, &L, Y, &L, &zero, B, &Q, 1, 1);
	for (j = 0; j < q; j++)
		for (i = j; i < q; i++) {
			G[i + j * q] *= G[i + j * q];  /* M = G .* G */
			G[j + i * q] = G[i + j * q];
		}
	for (j = 0; j < q; j++) {
		double b2 = 0.0;
		for (i = 0; i < l; i++)
			s1[j] += Z[i + j * l];
		for (c = 0; c < C; c++)
			b2 += B[j + (size_t)c * q] * B[j + (size_t)c * q];
		a[j] = 2.0 * b2 - s1[j] * s1[j];
	}
	if ((st = lsv_order_qp(G, a, q, mu, NULL, err)) != LSV_OK)
		goto done;
	for (i = 0; i < q; i++)
		sum += mu[i];
	if (!(sum > 0.0)) {
		st = lsv_fail(err, LSV_ENUMERIC, "ordered weights: no eigenvector "
			      "is aligned with the labels (every weight is 0)");
		goto done;
	}
	for (i = 0; i < q; i++)
		mu[i] /= sum;
	for (i = 0; i < q; i++) {
		num += mu[i] * a[i];
		for (j = 0; j < q; j++)
			den += mu[i] * G[i + j * q] * mu[j];
	}
	/* |T|_F = l: every entry of T is +-1 */
	*align = den > 0.0 ? num / (sqrt(den) * (double)l) : 0.0;
done:
	free(G);
	free(B);
	free(a);
	free(s1);
	return st;
}
