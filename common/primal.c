/*
 * primal.c -- LapRLS and LapSVM in the primal on an explicit feature map:
 * the Nystrom features of a kernel (large n) or the data themselves (linear
 * kernel on sparse data, never an n x n array).
 *
 * With f = Phi w + b 1 (Phi n x m) and |f|_K^2 = |w|^2, JMLR 2006 eq. 4 is
 *
 *     F(w, b) = 1/l sum_{i labeled} V(y_i, f_i) + gamma_A |w|^2
 *                                               + gamma_I/n^2 f' L^p f,
 *
 * V the squared loss (LapRLS) or the squared hinge max(0, 1 - y f)^2
 * (LapSVM in the primal, Melacci & Belkin, JMLR 12, 2011; for the linear
 * kernel this is Sindhwani & Keerthi's linear Laplacian SVM).  Let S be
 * the labeled rows whose loss is active (all of them for the squared loss,
 * y_i f_i < 1 for the squared hinge) and Phi~ = [Phi 1], z = [w; b].  On a
 * region where S does not change F is quadratic, minimized by
 *
 *     H z = r,  H = 1/l Phi~_S' Phi~_S + gamma_A diag(1,..,1,0)
 *                   + gamma_I/n^2 Phi~' L^p Phi~,   r = 1/l Phi~_S' y_S.
 *
 * Finite Newton (Keerthi & DeCoste, JMLR 6, 2005): solve for the z of the
 * current S, move to it by an exact line search of the piecewise quadratic
 * F along the step, recompute S; stop when S no longer changes (then the
 * full step was taken and z is the exact minimizer).  The squared loss
 * needs one step.
 *
 * Dense Phi (Nystrom, m up to a few thousand): the S-independent part of H
 * is formed once, gamma_I/n^2 Phi~' (L^p Phi~) with sparse products and one
 * dgemm, and each step adds 1/l Phi~_S' Phi~_S and solves by Cholesky.
 * Sparse Phi (linear): H is never formed; conjugate gradient on H z = r
 * with the products Phi v, Phi' u and the sparse L, warm-started from the
 * previous step.  Every one-vs-rest function has its own S and is solved in
 * turn; the dense part of H is shared.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

typedef struct {
	const lsv_fmat *F;
	size_t n, m, l;       /* rows, features (w has m, z has m + 1) */
	const size_t *lab;    /* labeled rows */
	double gA, cI, il;    /* gamma_A, gamma_I / n^2, 1 / l */
	const lsv_lapop *L;   /* NULL when gamma_I = 0 */
	lsv_error *err;
} prob;

/* u = Phi~ z (n rows). */
static void fmul(const prob *P, const double *z, double *u)
{
	const lsv_fmat *F = P->F;
	size_t n = P->n, m = P->m, i, q;
	if (F->dense != NULL) {
		int N = (int)n, M = (int)m, one_i = 1;
		const double one = 1.0, zero = 0.0;
		dgemm_("N", "N", &N, &one_i, &M, &one, F->dense, &N, z, &M, &zero,
		       u, &N, 1, 1);
		for (i = 0; i < n; i++)
			u[i] += z[m];
		return;
	}
	for (i = 0; i < n; i++) {
		double acc = z[m];
		for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
			acc += F->x->val[q] * z[F->ccol[q]];
		u[i] = acc;
	}
}

/* g += Phi~' u (m + 1 entries). */
static void ftmul_add(const prob *P, const double *u, double *g)
{
	const lsv_fmat *F = P->F;
	size_t n = P->n, m = P->m, i, q;
	double s = 0.0;
	if (F->dense != NULL) {
		int N = (int)n, M = (int)m, one_i = 1;
		const double one = 1.0;
		dgemm_("T", "N", &M, &one_i, &N, &one, F->dense, &N, u, &N, &one,
		       g, &M, 1, 1);
	} else {
		for (i = 0; i < n; i++)
			for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
				g[F->ccol[q]] += F->x->val[q] * u[i];
	}
	for (i = 0; i < n; i++)
		s += u[i];
	g[m] += s;
}

/* Row i of Phi~ added, times a, into the dense vector g (m + 1). */
static void frow_add(const prob *P, size_t i, double a, double *g)
{
	const lsv_fmat *F = P->F;
	size_t j, q;
	if (F->dense != NULL)
		for (j = 0; j < P->m; j++)
			g[j] += a * F->dense[i + j * P->n];
	else
		for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
			g[F->ccol[q]] += a * F->x->val[q];
	g[P->m] += a;
}

/* Is a labeled row with target y and output f in S? */
static int active(int hinge, double y, double f)
{
	return !hinge || y * f < 1.0;
}

double lsv_line_search(size_t l, const double *f, const double *df,
		       const double *y, double il, double a1, double a2,
		       int hinge)
{
	double lo = 0.0, hi = 1.0;
	int k;
#define DERIV(t, out)                                                          \
	do {                                                                   \
		size_t r_;                                                     \
		double s_ = a1 + (t) * a2;                                     \
		for (r_ = 0; r_ < l; r_++) {                                   \
			double fr_ = f[r_] + (t) * df[r_];                     \
			if (active(hinge, y[r_], fr_))                         \
				s_ += il * (fr_ - y[r_]) * df[r_];             \
		}                                                              \
		(out) = s_;                                                    \
	} while (0)
	/* bracket the root of the nondecreasing F'(t), then bisect */
	for (k = 0; k < 30; k++) {
		double dv;
		DERIV(hi, dv);
		if (dv >= 0.0)
			break;
		lo = hi;
		hi *= 2.0;
	}
	for (k = 0; k < 60 && hi - lo > 1e-12 * hi; k++) {
		double mid = 0.5 * (lo + hi), dv;
		DERIV(mid, dv);
		if (dv < 0.0)
			lo = mid;
		else
			hi = mid;
	}
#undef DERIV
	return 0.5 * (lo + hi);
}

/* z += H^-1 (r - H z) for the sparse map: CG on H, matrix free. */
static lsv_status cg_solve(const prob *P, const unsigned char *S,
			   const double *r, double *z, const lsv_train_param *p,
			   double *work, long *iters)
{
	size_t m1 = P->m + 1, n = P->n, j, k;
	double *res = work, *d = res + m1, *Hd = d + m1, *u = Hd + m1,
	       *Lu = u + n;
	double rr, rr0, tol = p->pcg_tol > 0.0 ? p->pcg_tol : 1e-6;
	long it, maxit = p->pcg_max_iter > 0 ? p->pcg_max_iter
		: (long)(m1 < 10000 ? m1 : 10000);
	lsv_status st;

	/* H v into out, using u and Lu as scratch */
#define HMUL(v, out)                                                           \
	do {                                                                   \
		fmul(P, (v), u);                                               \
		memset((out), 0, m1 * sizeof *(out));                          \
		for (k = 0; k < P->l; k++)                                     \
			if (S[k])                                              \
				frow_add(P, P->lab[k], P->il * u[P->lab[k]], (out)); \
		if (P->L != NULL) {                                            \
			if ((st = lsv_lapop_apply(P->L, u, Lu, 1, P->cI,       \
						  P->err)) != LSV_OK)          \
				return st;                                     \
			ftmul_add(P, Lu, (out));                               \
		}                                                              \
		for (j = 0; j < P->m; j++)                                     \
			(out)[j] += P->gA * (v)[j];                            \
		(out)[P->m] += 1e-12 * P->il * (v)[P->m];                      \
	} while (0)

	HMUL(z, Hd);
	rr = rr0 = 0.0;
	for (j = 0; j < m1; j++) {
		res[j] = r[j] - Hd[j];
		d[j] = res[j];
		rr += res[j] * res[j];
	}
	for (j = 0; j < m1; j++)
		rr0 += r[j] * r[j];
	for (it = 0; it < maxit && rr > tol * tol * rr0 && rr > 0.0; it++) {
		double den = 0.0, step, rnew = 0.0;
		HMUL(d, Hd);
		for (j = 0; j < m1; j++)
			den += d[j] * Hd[j];
		if (!(den > 0.0))
			return lsv_fail(P->err, LSV_ENUMERIC,
					"conjugate gradient lost positive curvature "
					"(%g) at iteration %ld", den, it + 1);
		step = rr / den;
		for (j = 0; j < m1; j++) {
			z[j] += step * d[j];
			res[j] -= step * Hd[j];
			rnew += res[j] * res[j];
		}
		for (j = 0; j < m1; j++)
			d[j] = res[j] + rnew / rr * d[j];
		rr = rnew;
	}
#undef HMUL
	*iters += it;
	return LSV_OK;
}

lsv_status lsv_primal_train(const lsv_fmat *F, const lsv_graph *g,
			    const size_t *lab, size_t l, const double *Y,
			    int C, const lsv_train_param *p, int hinge,
			    double *W, double *bias, lsv_primal_info *info,
			    lsv_error *err)
{
	prob P;
	lsv_lapop L;
	size_t n = F->n, m = F->m, m1 = m + 1, j, r;
	double *H0 = NULL, *H = NULL, *z = NULL, *zn = NULL, *rhs = NULL;
	double *u = NULL, *du = NULL, *Ldu = NULL, *fl = NULL, *dfl = NULL;
	double *work = NULL, *A = NULL;
	unsigned char *S = NULL;
	int c, dense = F->dense != NULL;
	lsv_status st = LSV_OK;

	memset(info, 0, sizeof *info);
	memset(&L, 0, sizeof L);
	memset(&P, 0, sizeof P);
	P.F = F;
	P.n = n;
	P.m = m;
	P.l = l;
	P.lab = lab;
	P.gA = p->gamma_A;
	P.cI = p->gamma_I / ((double)n * (double)n);
	P.il = 1.0 / (double)l;
	P.err = err;
	if (g != NULL && p->gamma_I > 0.0) {
		if ((st = lsv_lapop_init(&L, g, p->normalized, p->power, err)) != LSV_OK)
			return st;
		P.L = &L;
	}
	z = calloc(m1, sizeof *z);
	zn = calloc(m1, sizeof *zn);
	rhs = calloc(m1, sizeof *rhs);
	u = calloc(n, sizeof *u);
	du = calloc(n, sizeof *du);
	Ldu = calloc(n, sizeof *Ldu);
	fl = calloc(l, sizeof *fl);
	dfl = calloc(l, sizeof *dfl);
	S = calloc(l ? l : 1, 1);
	if (!z || !zn || !rhs || !u || !du || !Ldu || !fl || !dfl || !S)
		goto nomem;
	if (dense) {
		/* H0 = gamma_A diag(1..1, 0) + gamma_I/n^2 Phi~' L^p Phi~ */
		int N = (int)n, M = (int)m;
		const double one = 1.0, zero = 0.0;
		H0 = calloc(m1 * m1, sizeof *H0);
		H = malloc(m1 * m1 * sizeof *H);
		A = malloc(m1 * (l ? l : 1) * sizeof *A);
		if (H0 == NULL || H == NULL || A == NULL)
			goto nomem;
		if (P.L != NULL) {
			double *T = malloc(n * m1 * sizeof *T), *ones;
			if (T == NULL)
				goto nomem;
			/* T = cI L^p [Phi 1]; the last column from ones */
			if ((st = lsv_lapop_apply(P.L, F->dense, T, m, P.cI, err)) != LSV_OK) {
				free(T);
				goto done;
			}
			ones = u;
			for (j = 0; j < n; j++)
				ones[j] = 1.0;
			if ((st = lsv_lapop_apply(P.L, ones, T + n * m, 1, P.cI,
						  err)) != LSV_OK) {
				free(T);
				goto done;
			}
			{
				int M1 = (int)m1;
				/* [Phi 1]' T: the m x m1 block by dgemm, the
				 * last row from the column sums of T */
				double *tmp = malloc(m * m1 * sizeof *tmp);
				if (tmp == NULL) {
					free(T);
					goto nomem;
				}
				dgemm_("T", "N", &M, &M1, &N, &one, F->dense, &N, T, &N,
				       &zero, tmp, &M, 1, 1);
				for (j = 0; j < m1; j++) {
					size_t i;
					double s = 0.0;
					for (i = 0; i < m; i++)
						H0[i + j * m1] = tmp[i + j * m];
					for (i = 0; i < n; i++)
						s += T[i + j * n];
					H0[m + j * m1] = s;
				}
				free(tmp);
			}
			free(T);
			/* symmetrize away the rounding of the two halves */
			for (j = 0; j < m1; j++)
				for (r = j + 1; r < m1; r++) {
					double v = 0.5 * (H0[r + j * m1] + H0[j + r * m1]);
					H0[r + j * m1] = H0[j + r * m1] = v;
				}
		}
		for (j = 0; j < m; j++)
			H0[j + j * m1] += P.gA;
	} else {
		work = malloc((4 * m1 + 2 * n) * sizeof *work);
		if (work == NULL)
			goto nomem;
	}

	for (c = 0; c < C; c++) {
		const double *y = Y + (size_t)c * l;
		long step;
		int first = 1;
		memset(z, 0, m1 * sizeof *z);
		memset(fl, 0, l * sizeof *fl);
		memset(u, 0, n * sizeof *u);
		for (r = 0; r < l; r++)
			S[r] = 1;  /* from z = 0 every labeled loss is active */
		for (step = 0; step < 200; step++) {
			size_t changed = 0;
			double a1 = 0.0, a2 = 0.0, t;
			/* the minimizer zn of the quadratic of the current S */
			memset(rhs, 0, m1 * sizeof *rhs);
			for (r = 0; r < l; r++)
				if (S[r])
					frow_add(&P, lab[r], P.il * y[r], rhs);
			if (dense) {
				int M1 = (int)m1, one_i = 1, inf;
				memcpy(H, H0, m1 * m1 * sizeof *H);
				/* H += 1/l Phi~_S' Phi~_S: the active rows
				 * gathered as columns of A, one dsyrk */
				{
					int k = 0;
					const double one = 1.0;
					for (r = 0; r < l; r++) {
						if (!S[r])
							continue;
						for (j = 0; j < m; j++)
							A[j + (size_t)k * m1] =
								F->dense[lab[r] + j * n];
						A[m + (size_t)k * m1] = 1.0;
						k++;
					}
					if (k > 0)
						dsyrk_("L", "N", &M1, &k, &P.il, A, &M1,
						       &one, H, &M1, 1, 1);
				}
				/* b has no regularizer: a tiny ridge keeps H
				 * definite when S is empty and L 1 = 0 */
				H[m + m * m1] += 1e-12 * P.il;
				memcpy(zn, rhs, m1 * sizeof *zn);
				dposv_("L", &M1, &one_i, H, &M1, zn, &M1, &inf, 1);
				if (inf != 0) {
					st = lsv_fail(err, LSV_ENUMERIC,
						      "the primal Newton system is not "
						      "positive definite (LAPACK dposv "
						      "info %d)", inf);
					goto done;
				}
			} else {
				memcpy(zn, z, m1 * sizeof *zn);
				if ((st = cg_solve(&P, S, rhs, zn, p, work,
						   &info->cg_iterations)) != LSV_OK)
					goto done;
			}
			info->newton_steps++;
			/* the step d = zn - z, its outputs du = Phi~ d */
			for (j = 0; j < m1; j++)
				zn[j] -= z[j];
			fmul(&P, zn, du);
			for (r = 0; r < l; r++)
				dfl[r] = du[lab[r]];
			t = 1.0;
			if (hinge && !first) {
				/* F(z + t d) regularizers: a1 + t a2 in F'/2 */
				for (j = 0; j < m; j++) {
					a1 += P.gA * z[j] * zn[j];
					a2 += P.gA * zn[j] * zn[j];
				}
				if (P.L != NULL) {
					if ((st = lsv_lapop_apply(P.L, du, Ldu, 1, P.cI,
								  err)) != LSV_OK)
						goto done;
					for (j = 0; j < n; j++) {
						a1 += u[j] * Ldu[j];
						a2 += du[j] * Ldu[j];
					}
				}
				t = lsv_line_search(l, fl, dfl, y, P.il, a1, a2, hinge);
			}
			first = 0;
			for (j = 0; j < m1; j++)
				z[j] += t * zn[j];
			for (j = 0; j < n; j++)
				u[j] += t * du[j];
			for (r = 0; r < l; r++) {
				int a;
				fl[r] = u[lab[r]];
				a = active(hinge, y[r], fl[r]);
				changed += a != S[r];
				S[r] = (unsigned char)a;
			}
			if (!hinge || (changed == 0 && fabs(t - 1.0) < 1e-9))
				break;
		}
		if (step == 200)
			info->capped = 1;
		memcpy(W + (size_t)c * m, z, m * sizeof *W);
		bias[c] = z[m];
	}
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM,
		      "out of memory for the primal solver (%zu features)", m);
done:
	lsv_lapop_free(&L);
	free(H0);
	free(H);
	free(z);
	free(zn);
	free(rhs);
	free(u);
	free(du);
	free(Ldu);
	free(fl);
	free(dfl);
	free(S);
	free(work);
	free(A);
	return st;
}
