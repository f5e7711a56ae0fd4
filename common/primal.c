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
 * The Newton driver (newton.c: Keerthi & DeCoste's finite Newton) solves
 * for the z of the current S, moves to it by an exact line search of the
 * piecewise quadratic F along the step and recomputes S, until S no longer
 * changes under a full step (or one that moves no output by more than
 * 1e-6 (1 + max |f|)); this file supplies the objective: the solve,
 * the outputs Phi~ d of a step, and R's part of the line search's slope,
 * gamma_A w'd_w + u'L^p du (u = Phi~ z, du = Phi~ d) and t times
 * gamma_A |d_w|^2 + du'L^p du.  The squared loss needs one step.
 *
 * Dense Phi (Nystrom, m up to a few thousand): the S-independent part of H
 * is formed once, gamma_I/n^2 Phi~' (L^p Phi~) with sparse products and one
 * dgemm, and each step adds 1/l Phi~_S' Phi~_S and solves by Cholesky.
 * Sparse Phi (linear): H is never formed; conjugate gradient on H z = r
 * with the products Phi v, Phi' u and the sparse L, warm-started from the
 * previous step (the first from z = 0, or from a warm start's z: the
 * caller's W and b when F->warm).  Every one-vs-rest function has its own S and stops on
 * its own; the dense part of H is shared.
 *
 * Distributed (lsv_fmat.comm of P > 1 ranks, lapsvm-train under mpirun):
 * the rows of Phi in 1-D blocks of about n/P rows (lsv_comm_block).
 * z, H and the m-vectors are the same on every rank; each sum over rows
 * (Phi~_S' Phi~_S, Phi~' v, the right-hand side, Phi~' L^p Phi~) is a
 * sum of the ranks' partial sums, reduced by one allreduce; an n-vector
 * Phi~ z is gathered whole (allgatherv) because L^p couples rows of every
 * block (L^p and the line search then run on the whole vector on every
 * rank: O(p nnz(W)), small beside Phi).  For Phi~' L^p Phi~ the columns of
 * Phi are gathered a slice at a time (n x b: at least four slices, each at
 * most 64 MB).  The results differ from one process only by the order of
 * the sums (rounding).  With one process every gather is the identity and
 * the arithmetic is that of the serial code.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

typedef struct {
	const lsv_fmat *F;
	size_t n, m, l, C;    /* rows, features (w has m, z has m + 1),
				 labeled rows, functions */
	size_t lo, nl;        /* this rank's rows [lo, lo + nl) */
	int dist;             /* more than one rank: reduce and gather */
	size_t *counts;       /* bytes of each rank's block of an n-vector */
	const size_t *lab;    /* labeled rows */
	double gA, cI, il;    /* gamma_A, gamma_I / n^2, 1 / l */
	const lsv_lapop *L;   /* NULL when gamma_I = 0 */
	const lsv_train_param *p;
	const double *Y;      /* l x C targets */
	lsv_error *err;
	long *cg_iters;       /* the report's CG count */
	lsv_train_report *rep;  /* ... and its record of capped solves */
	double *warm_res;     /* a warm start's first solve: the report's
				 warm_residual, else NULL */
	long first_step;      /* -1, or the step whose solves set warm_res */
	double *H0, *H, *A;   /* dense: the S-free part of H, H, active rows */
	double *rhs, *work;   /* m + 1; sparse: CG vectors */
	double *Ldu;          /* n */
} prob;

/* The whole n-vector u from this rank's block u[lo, lo + nl) (in place):
 * every rank's block gathered (nothing to do on one process). */
static lsv_status gather_rows(const prob *P, double *u)
{
	void *all = NULL;
	lsv_status st;

	if (!P->dist)
		return LSV_OK;
	st = lsv_comm_allgatherv(P->F->comm, u + P->lo, P->nl * sizeof *u, &all,
				 P->counts, P->err);
	if (st == LSV_OK)
		memcpy(u, all, P->n * sizeof *u);
	free(all);
	return st;
}

/* v (len doubles) summed over the ranks, on every rank. */
static lsv_status reduce(const prob *P, double *v, size_t len)
{
	if (!P->dist)
		return LSV_OK;
	return lsv_comm_allreduce_double(P->F->comm, v, len, LSV_COMM_SUM,
					 P->err);
}

/* u = Phi~ z (all n rows: this rank's computed, the others gathered). */
static lsv_status fmul(const prob *P, const double *z, double *u)
{
	const lsv_fmat *F = P->F;
	size_t m = P->m, i, q;
	if (F->dense != NULL) {
		int N = (int)P->nl, M = (int)m, one_i = 1;
		const double one = 1.0, zero = 0.0;
		if (N > 0)
			dgemm_("N", "N", &N, &one_i, &M, &one, F->dense, &N, z, &M,
			       &zero, u + P->lo, &N, 1, 1);
		for (i = P->lo; i < P->lo + P->nl; i++)
			u[i] += z[m];
		return gather_rows(P, u);
	}
	for (i = P->lo; i < P->lo + P->nl; i++) {
		double acc = z[m];
		for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
			acc += F->x->val[q] * z[F->ccol[q]];
		u[i] = acc;
	}
	return gather_rows(P, u);
}

/* g += Phi~' u over this rank's rows (m + 1 entries; the caller reduces). */
static void ftmul_add(const prob *P, const double *u, double *g)
{
	const lsv_fmat *F = P->F;
	size_t m = P->m, i, q;
	double s = 0.0;
	if (F->dense != NULL) {
		int N = (int)P->nl, M = (int)m, one_i = 1;
		const double one = 1.0;
		if (N > 0)
			dgemm_("T", "N", &M, &one_i, &N, &one, F->dense, &N,
			       u + P->lo, &N, &one, g, &M, 1, 1);
	} else {
		for (i = P->lo; i < P->lo + P->nl; i++)
			for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
				g[F->ccol[q]] += F->x->val[q] * u[i];
	}
	for (i = P->lo; i < P->lo + P->nl; i++)
		s += u[i];
	g[m] += s;
}

/* Is row i this rank's? */
static int mine(const prob *P, size_t i)
{
	return i >= P->lo && i < P->lo + P->nl;
}

/* Row i of Phi~ (one of this rank's) added, times a, into the dense
 * vector g (m + 1). */
static void frow_add(const prob *P, size_t i, double a, double *g)
{
	const lsv_fmat *F = P->F;
	size_t j, q;
	if (F->dense != NULL)
		for (j = 0; j < P->m; j++)
			g[j] += a * F->dense[(i - P->lo) + j * P->nl];
	else
		for (q = F->x->rowptr[i]; q < F->x->rowptr[i + 1]; q++)
			g[F->ccol[q]] += a * F->x->val[q];
	g[P->m] += a;
}


/* out = H v for the sparse map, H = 1/l Phi~_S' Phi~_S + gamma_A diag(1..1,
 * 0) + gamma_I/n^2 Phi~' L^p Phi~ + a tiny ridge on b, matrix free; u and
 * Lu (n each) are scratch. */
static lsv_status hmul(const prob *P, const unsigned char *S, const double *v,
		       double *out, double *u, double *Lu)
{
	size_t m1 = P->m + 1, j, k;
	lsv_status st;

	if ((st = fmul(P, v, u)) != LSV_OK)
		return st;
	memset(out, 0, m1 * sizeof *out);
	for (k = 0; k < P->l; k++)
		if (S[k] && mine(P, P->lab[k]))
			frow_add(P, P->lab[k], P->il * u[P->lab[k]], out);
	if (P->L != NULL) {
		if ((st = lsv_lapop_apply(P->L, u, Lu, 1, P->cI, P->err)) != LSV_OK)
			return st;
		ftmul_add(P, Lu, out);
	}
	if ((st = reduce(P, out, m1)) != LSV_OK)
		return st;
	for (j = 0; j < P->m; j++)
		out[j] += P->gA * v[j];
	out[P->m] += 1e-12 * P->il * v[P->m];
	return LSV_OK;
}

/* z += H^-1 (r - H z) for the sparse map: CG on H, matrix free. */
static lsv_status cg_solve(const prob *P, const unsigned char *S,
			   const double *r, double *z)
{
	const lsv_train_param *p = P->p;
	size_t m1 = P->m + 1, n = P->n, j;
	double *res = P->work, *d = res + m1, *Hd = d + m1, *u = Hd + m1,
	       *Lu = u + n;
	double rr, rr0, tol = p->pcg_tol > 0.0 ? p->pcg_tol : 1e-6;
	long it, maxit = p->pcg_max_iter > 0 ? p->pcg_max_iter
		: (long)(m1 < LSV_CG_CAP_MAX / LSV_CG_CAP ? LSV_CG_CAP * m1
							  : LSV_CG_CAP_MAX);
	lsv_status st;

	if ((st = hmul(P, S, z, Hd, u, Lu)) != LSV_OK)
		return st;
	rr = rr0 = 0.0;
	for (j = 0; j < m1; j++) {
		res[j] = r[j] - Hd[j];
		d[j] = res[j];
		rr += res[j] * res[j];
	}
	for (j = 0; j < m1; j++)
		rr0 += r[j] * r[j];
	if (P->warm_res != NULL && rr0 > 0.0)  /* how far a warm start is */
		*P->warm_res = fmax(*P->warm_res, sqrt(rr / rr0));
	for (it = 0; it < maxit && rr > tol * tol * rr0 && rr > 0.0; it++) {
		double den = 0.0, step, rnew = 0.0;
		if ((st = hmul(P, S, d, Hd, u, Lu)) != LSV_OK)
			return st;
		for (j = 0; j < m1; j++)
			den += d[j] * Hd[j];
		if (!isfinite(den))
			return lsv_fail(P->err, LSV_ENUMERIC,
					"conjugate gradient's products overflow a "
					"double at iteration %ld: the data's values "
					"are too large (scale the features)", it + 1);
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
	*P->cg_iters += it;
	P->rep->cg_cap = maxit;
	if (rr > tol * tol * rr0 && rr > 0.0) {  /* the cap: the last iterate */
		P->rep->cg_capped++;
		P->rep->cg_capped_residual = fmax(P->rep->cg_capped_residual,
						  rr0 > 0.0 ? sqrt(rr / rr0)
							    : HUGE_VAL);
	}
	return LSV_OK;
}

/* The minimizer of each live function's quadratic: dense maps add the
 * active rows to H0 (one dsyrk) and solve by Cholesky; sparse maps run CG
 * from the current z. */
static lsv_status solve(void *ctx, const unsigned char *act,
			const unsigned char *live, long step, const double *z,
			double *zn)
{
	prob *P = ctx;
	size_t l = P->l, m = P->m, m1 = m + 1, j, r, c;
	size_t C = P->C;
	lsv_status st;

	/* a warm start's distance: measured in its first step's solves */
	if (P->warm_res != NULL && step != P->first_step) {
		if (P->first_step >= 0)
			P->warm_res = NULL;
		else
			P->first_step = step;
	}
	for (c = 0; c < C; c++) {
		const unsigned char *S = act + c * l;
		const double *y = P->Y + c * l;
		double *zc = zn + c * m1;
		if (!live[c])
			continue;
		memset(P->rhs, 0, m1 * sizeof *P->rhs);
		for (r = 0; r < l; r++)
			if (S[r] && mine(P, P->lab[r]))
				frow_add(P, P->lab[r], P->il * y[r], P->rhs);
		if ((st = reduce(P, P->rhs, m1)) != LSV_OK)
			return st;
		if (P->F->dense != NULL) {
			int M1 = (int)m1, one_i = 1, inf, k = 0;
			const double one = 1.0, zero = 0.0;
			/* H += 1/l Phi~_S' Phi~_S: this rank's active rows
			 * gathered as columns of A, one dsyrk (onto H0 on one
			 * process; else the ranks' parts summed, then added) */
			for (r = 0; r < l; r++) {
				if (!S[r] || !mine(P, P->lab[r]))
					continue;
				for (j = 0; j < m; j++)
					P->A[j + (size_t)k * m1] =
						P->F->dense[(P->lab[r] - P->lo) +
							    j * P->nl];
				P->A[m + (size_t)k * m1] = 1.0;
				k++;
			}
			if (!P->dist) {
				memcpy(P->H, P->H0, m1 * m1 * sizeof *P->H);
				if (k > 0)
					dsyrk_("L", "N", &M1, &k, &P->il, P->A, &M1,
					       &one, P->H, &M1, 1, 1);
			} else {
				memset(P->H, 0, m1 * m1 * sizeof *P->H);
				if (k > 0)
					dsyrk_("L", "N", &M1, &k, &P->il, P->A, &M1,
					       &zero, P->H, &M1, 1, 1);
				if ((st = reduce(P, P->H, m1 * m1)) != LSV_OK)
					return st;
				for (j = 0; j < m1 * m1; j++)
					P->H[j] += P->H0[j];
			}
			/* b has no regularizer: a tiny ridge keeps H
			 * definite when S is empty and L 1 = 0 */
			P->H[m + m * m1] += 1e-12 * P->il;
			memcpy(zc, P->rhs, m1 * sizeof *zc);
			dposv_("L", &M1, &one_i, P->H, &M1, zc, &M1, &inf, 1);
			if (inf != 0)
				return lsv_fail(P->err, LSV_ENUMERIC,
						"the primal Newton system is not "
						"positive definite (LAPACK dposv "
						"info %d)", inf);
		} else {
			memcpy(zc, z + c * m1, m1 * sizeof *zc);
			if ((st = cg_solve(P, S, P->rhs, zc)) != LSV_OK)
				return st;
		}
	}
	return LSV_OK;
}

/* du = Phi~ d, function by function. */
static lsv_status outputs(void *ctx, const unsigned char *live,
			  const double *d, double *du)
{
	prob *P = ctx;
	size_t c;
	lsv_status st;

	for (c = 0; c < P->C; c++)
		if (live[c] &&
		    (st = fmul(P, d + c * (P->m + 1), du + c * P->n)) != LSV_OK)
			return st;
	return LSV_OK;
}

/* R(z) = gamma_A |w|^2 + gamma_I/n^2 u'L^p u along d: gamma_A w'd_w +
 * u'L du, and t times gamma_A |d_w|^2 + du'L du. */
static lsv_status slope(void *ctx, const unsigned char *live,
			const double *z, const double *d, const double *u,
			const double *du, double *a1, double *a2)
{
	prob *P = ctx;
	size_t m1 = P->m + 1, n = P->n, j, c;
	lsv_status st;

	for (c = 0; c < P->C; c++) {
		const double *zc = z + c * m1, *dc = d + c * m1;
		const double *uc = u + c * n, *duc = du + c * n;
		double s1 = 0.0, s2 = 0.0;
		if (!live[c])
			continue;
		for (j = 0; j < P->m; j++) {
			s1 += P->gA * zc[j] * dc[j];
			s2 += P->gA * dc[j] * dc[j];
		}
		if (P->L != NULL) {
			if ((st = lsv_lapop_apply(P->L, duc, P->Ldu, 1, P->cI,
						  P->err)) != LSV_OK)
				return st;
			for (j = 0; j < n; j++) {
				s1 += uc[j] * P->Ldu[j];
				s2 += duc[j] * P->Ldu[j];
			}
		}
		a1[c] = s1;
		a2[c] = s2;
	}
	return LSV_OK;
}

/* A local outcome agreed by every rank (so no rank waits for one that
 * failed alone); itself on one process. */
static lsv_status agree(const prob *P, lsv_status st)
{
	return P->dist ? lsv_comm_agree(P->F->comm, st, P->err) : st;
}

/* Columns [c0, c0 + w) of Phi, all n rows, into G (n x w): each rank's
 * rows of them gathered into buf (n w doubles; kept by the caller over the
 * slices), then put in place (a rank's block of the slice is contiguous in
 * its column-major nl x m array). */
static lsv_status gather_slice(const prob *P, size_t c0, size_t w,
			       double *buf, double *G)
{
	size_t n = P->n, R = (size_t)lsv_comm_size(P->F->comm), r, i, j;
	size_t off = 0;
	lsv_status st;

	st = lsv_comm_allgatherv_into(P->F->comm, P->F->dense + c0 * P->nl,
				      P->nl * w * sizeof *G, buf,
				      n * w * sizeof *buf, P->counts, P->err);
	if (st != LSV_OK)
		return st;
	for (r = 0; r < R; r++) {
		size_t lo, nr;
		lsv_comm_block(n, (int)r, (int)R, &lo, &nr);
		for (j = 0; j < w; j++)
			for (i = 0; i < nr; i++)
				G[lo + i + j * n] = buf[off + i + j * nr];
		off += nr * w;
	}
	return LSV_OK;
}

static lsv_status newton_agree(void *ctx, lsv_status st)
{
	return agree(ctx, st);
}

/* H0 = gamma_A diag(1..1, 0) + gamma_I/n^2 Phi~' L^p Phi~ for a dense map:
 * T = L^p [Phi 1] by sparse products on this rank's rows (the slice of
 * b columns gathered whole, since a row of L^p Phi reads its neighbours'),
 * a slice at a time (all m at once on one process), [Phi 1]' T by dgemm
 * over this rank's rows (the last row from T's column sums), the ranks'
 * parts summed. */
static lsv_status dense_h0(prob *P, double *ones)
{
	const lsv_fmat *F = P->F;
	size_t n = P->n, m = P->m, m1 = m + 1, nl = P->nl, b, c0, w, j, r;
	int N = (int)nl, M = (int)m, W;
	const double one = 1.0, zero = 0.0;
	double *T = NULL, *tmp = NULL, *G = NULL, *buf = NULL;
	lsv_status st = LSV_OK;

	if (P->L != NULL) {
		/* distributed: slices of at most 8M doubles (64 MB) when
		 * gathered, and at least four (the volume gathered is n m
		 * however it is sliced), so every distributed run, small
		 * ones too, takes the same path */
		b = m;
		if (P->dist) {
			b = (m + 3) / 4;
			if (b > ((size_t)8 << 20) / n)
				b = ((size_t)8 << 20) / n;
		}
		if (b == 0)
			b = 1;
		T = malloc(n * b * sizeof *T);
		tmp = malloc(m * b * sizeof *tmp);
		if (P->dist) {
			G = malloc(n * b * sizeof *G);
			buf = malloc(n * b * sizeof *buf);
		}
		if (T == NULL || tmp == NULL ||
		    (P->dist && (G == NULL || buf == NULL)))
			st = lsv_fail(P->err, LSV_ENOMEM,
				      "out of memory for the primal solver (%zu "
				      "features)", m);
		if ((st = agree(P, st)) != LSV_OK)
			goto done;
		for (j = 0; j < n; j++)
			ones[j] = 1.0;
		for (c0 = 0; c0 < m1; c0 += w) {
			const double *src;
			/* the columns [c0, c0 + w) of [Phi 1], all rows */
			w = c0 == m ? 1 : m - c0 < b ? m - c0 : b;
			if (c0 == m) {
				src = ones;
			} else if (!P->dist) {
				src = F->dense + c0 * n;
			} else {
				if ((st = gather_slice(P, c0, w, buf, G)) != LSV_OK)
					goto done;
				src = G;
			}
			/* this rank's rows of T only: the others' rows are
			 * theirs to multiply */
			if ((st = lsv_lapop_apply_rows(P->L, src, T, w, P->cI,
						       P->lo, nl, P->err)) != LSV_OK)
				goto done;
			W = (int)w;
			if (nl > 0) {
				int NN = (int)n;
				dgemm_("T", "N", &M, &W, &N, &one, F->dense, &N, T + P->lo,
				       &NN, &zero, tmp, &M, 1, 1);
			} else {
				memset(tmp, 0, m * w * sizeof *tmp);
			}
			for (j = 0; j < w; j++) {
				size_t i;
				double s = 0.0;
				for (i = 0; i < m; i++)
					P->H0[i + (c0 + j) * m1] = tmp[i + j * m];
				for (i = P->lo; i < P->lo + nl; i++)
					s += T[i + j * n];
				P->H0[m + (c0 + j) * m1] = s;
			}
		}
		if ((st = reduce(P, P->H0, m1 * m1)) != LSV_OK)
			goto done;
		/* symmetrize away the rounding of the two halves */
		for (j = 0; j < m1; j++)
			for (r = j + 1; r < m1; r++) {
				double v = 0.5 * (P->H0[r + j * m1] + P->H0[j + r * m1]);
				P->H0[r + j * m1] = P->H0[j + r * m1] = v;
			}
	}
	for (j = 0; j < m; j++)
		P->H0[j + j * m1] += P->gA;
done:
	free(T);
	free(tmp);
	free(G);
	free(buf);
	return st;
}

lsv_status lsv_primal_train(lsv_fit *Fit, const lsv_fmat *F, int hinge,
			    double *W, double *bias)
{
	prob P;
	lsv_newton_obj O;
	size_t n = F->n, m = F->m, m1 = m + 1, l = Fit->l, c;
	size_t C = (size_t)Fit->nr_fn;
	double *z = NULL;
	lsv_status st = LSV_OK;

	memset(&P, 0, sizeof P);
	P.F = F;
	P.n = n;
	P.m = m;
	P.l = l;
	P.C = C;
	P.lab = Fit->lab;
	P.gA = lsv_fit_ambient(Fit, 1.0);
	P.cI = lsv_fit_intrinsic(Fit, 1.0);
	P.il = 1.0 / (double)l;
	P.L = Fit->L;
	P.p = Fit->p;
	P.Y = Fit->Y;
	P.err = Fit->err;
	P.cg_iters = &Fit->report->cg_iterations;
	P.rep = Fit->report;
	P.first_step = -1;
	if (Fit->warm && F->dense == NULL)
		P.warm_res = &Fit->report->warm_residual;
	P.lo = F->lo;
	P.nl = F->nl;
	P.dist = F->comm != NULL && lsv_comm_size(F->comm) > 1;
	z = malloc(m1 * C * sizeof *z);
	P.rhs = malloc(m1 * sizeof *P.rhs);
	P.Ldu = malloc(n * sizeof *P.Ldu);
	if (P.dist)
		P.counts = malloc((size_t)lsv_comm_size(F->comm) * sizeof *P.counts);
	if (F->dense != NULL) {
		P.H0 = calloc(m1 * m1, sizeof *P.H0);
		P.H = malloc(m1 * m1 * sizeof *P.H);
		P.A = malloc(m1 * (l ? l : 1) * sizeof *P.A);
	} else {
		P.work = malloc((4 * m1 + 2 * n) * sizeof *P.work);
	}
	if (z == NULL || P.rhs == NULL || P.Ldu == NULL ||
	    (P.dist && P.counts == NULL) ||
	    (F->dense != NULL && (P.H0 == NULL || P.H == NULL || P.A == NULL)) ||
	    (F->dense == NULL && P.work == NULL))
		st = lsv_fail(Fit->err, LSV_ENOMEM, "out of memory for the primal "
			      "solver (%zu features)", m);
	if ((st = agree(&P, st)) != LSV_OK)
		goto done;
	if (F->dense != NULL && (st = dense_h0(&P, P.Ldu)) != LSV_OK)
		goto done;
	if (Fit->warm)  /* the start z = [w; b] (lsv_newton: f and S from it) */
		for (c = 0; c < C; c++) {
			memcpy(z + c * m1, W + c * m, m * sizeof *z);
			z[m + c * m1] = bias[c];
		}
	memset(&O, 0, sizeof O);
	O.nz = m1;
	O.joint = 0;
	O.full_tol = 1e-9;
	/* once converged a step is rounding (or CG) noise along which the
	 * line search may return any t: a step that moves no output by more
	 * than this is converged too, as on the full kernel */
	O.small_step = 1e-6;
	O.ctx = &P;
	O.solve = solve;
	O.outputs = outputs;
	O.slope = slope;
	O.agree = newton_agree;
	if ((st = lsv_newton(Fit, &O, hinge, z)) != LSV_OK)
		goto done;
	for (c = 0; c < C; c++) {
		memcpy(W + c * m, z + c * m1, m * sizeof *W);
		bias[c] = z[m + c * m1];
	}
done:
	free(z);
	free(P.counts);
	free(P.rhs);
	free(P.Ldu);
	free(P.H0);
	free(P.H);
	free(P.A);
	free(P.work);
	return st;
}
