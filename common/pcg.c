/*
 * pcg.c -- LapRLS in the primal by preconditioned conjugate gradient
 * (Melacci & Belkin, "Laplacian Support Vector Machines Trained in the
 * Primal", JMLR 12, 2011), without the O(n^3) solve of eq. 8.
 *
 * Objective (JMLR 2006 eq. 4 with the squared loss, no bias, as eq. 8):
 *     F(a) = 1/l |J K a - Y|^2 + gamma_A a'K a + gamma_I/n^2 (K a)'L(K a).
 * Its gradient is 2 K (M a - c) with M = 1/l J K + gamma_A I +
 * gamma_I/n^2 L K and c = Y/l, and its Hessian 2 K M is symmetric.  CG on
 * K M a = K c preconditioned by K needs no solve (K^-1 K (c - M a) = c - M a)
 * and, keeping K s and K d by recurrences, one product with K per
 * iteration:
 *     q = M d (from K d), Kq = K q, step = (s'Ks) / ((Kd)'q),
 *     a += step d, s -= step q, Ks -= step Kq,
 *     beta = (s'Ks)_new / (s'Ks)_old, d = s + beta d, Kd = Ks + beta Kd.
 * All one-vs-rest problems advance together, so the product with K is one
 * dgemm with a column per class.  L (or L^p, as p sparse products) is never
 * dense.  Stopping: relative residual sqrt(s'Ks / s0'Ks0) < tol for every
 * class; or, with early stopping, when under 1.5% of the unlabeled rows
 * changed the sign of f = K a (or, multiclass, its argmax) over the last
 * sqrt(n)/2 iterations (Melacci & Belkin's criterion); or the iteration cap.
 *
 * Distributed (K by rows over P ranks, lsv_krows: lapsvm-train -M pcg
 * under mpirun): rank r holds its block of about n/P rows of K
 * (lsv_comm_block), computed on the fly from the data (O(n^2/P) memory); the vectors a, s, Ks, d, Kd,
 * q, Kq, f are whole on every rank and updated alike by every rank.  The
 * one product per iteration, Kq = K q, is each rank's block of rows by
 * dgemm and one allgatherv of the blocks (lsv_krows_mul), so every rank
 * holds the same Kq; the Laplacian product L^p Kd, the dot products and
 * the updates are then the serial arithmetic on whole vectors, done by
 * every rank (O(p nnz(W) + n) each, small beside the n^2/P product; the
 * alternative, L^p on the owned rows, would need one more gather per
 * iteration and per power p).  No reduction is needed: every rank
 * computes the same numbers, so they agree on every step and stop.  The
 * model differs from one process's only if the BLAS rounds a row of a
 * block product otherwise than the same row of the whole product (the
 * blocks end on dgemm's row groups, which makes them the same sums with
 * the reference BLAS and OpenBLAS, measured).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* The class of a row from its scores (argmax; sign for one function). */
static int decide(const double *f, size_t n, size_t i, int C)
{
	int c, best = 0;
	if (C == 1)
		return f[i] > 0.0;
	for (c = 1; c < C; c++)
		if (f[i + (size_t)c * n] > f[i + (size_t)best * n])
			best = c;
	return best;
}

/* The operator M of K M a = K c and the problem as the iteration reads
 * it (never changed): q = M d = J Kd / l + gamma_A d + gamma_I/n^2 L Kd,
 * J the active rows of each class (act), cI = gamma_I/n^2 the weight of
 * L (or L^p), graph nonzero when there is a graph term (L given, cI >
 * 0); tol the relative residual asked for. */
typedef struct {
	const lsv_krows *K;
	const lsv_lapop *L;
	const unsigned char *act;
	size_t act_stride, n;
	int C, graph;
	double il, gamma_A, cI, tol;
	lsv_error *err;
} pcg_op;

/* The iteration's vectors, each n x C column-major (a column per class),
 * and rho = s'Ks, rho0 = c'Kc per class: views into the one allocation
 * lsv_laprls_pcg owns and frees (buf). */
typedef struct {
	double *s, *Ks, *d, *Kd, *q, *Kq, *f, *Lq;
	double *rho, *rho0;
} pcg_vecs;

/* x'y over n values, summed in order. */
static double dot(const double *x, const double *y, size_t n)
{
	double r = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		r += x[i] * y[i];
	return r;
}

/* The start: s = c - M a, c = Y/l, and Ks = K s; rho0 = c'Kc per class.
 * Cold (a = 0, alpha zeroed here) s = c; warm, from f = K a (f set, the
 * start checked finite).  rho0 = c'Kc either way, so the tolerance is
 * relative to the same scale whatever the start. */
static lsv_status start_residual(const pcg_op *o, const double *Y,
				 double *alpha, int warm, pcg_vecs *v)
{
	size_t n = o->n, i;
	int c, C = o->C;
	lsv_status st;

	for (c = 0; c < C; c++)
		for (i = 0; i < n; i++)
			v->s[i + (size_t)c * n] = Y[i + (size_t)c * n] * o->il;
	if ((st = lsv_krows_mul(o->K, v->s, C, v->Ks, o->err)) != LSV_OK)
		return st;
	for (c = 0; c < C; c++)
		v->rho0[c] = dot(v->s + (size_t)c * n, v->Ks + (size_t)c * n, n);
	if (!warm) {
		memset(alpha, 0, n * (size_t)C * sizeof *alpha);
		return LSV_OK;
	}
	if ((st = lsv_krows_mul(o->K, alpha, C, v->f, o->err)) != LSV_OK)
		return st;
	st = lsv_check_start(v->f, n, alpha, n, C, o->err);
	if (st == LSV_OK && o->graph)
		st = lsv_lapop_apply(o->L, v->f, v->Lq, (size_t)C, 1.0, o->err);
	if ((st = lsv_krows_agree(o->K, st, o->err)) != LSV_OK)
		return st;
	for (c = 0; c < C; c++)
		for (i = 0; i < n; i++) {
			size_t at = i + (size_t)c * n;
			v->s[at] -= (o->act[i + (size_t)c * o->act_stride]
				     ? o->il * v->f[at] : 0.0) +
				    o->gamma_A * alpha[at] +
				    (o->graph ? o->cI * v->Lq[at] : 0.0);
		}
	return lsv_krows_mul(o->K, v->s, C, v->Ks, o->err);
}

/* The first direction d = s (Kd = Ks) and rho = s'Ks per class; the
 * start's relative residual sqrt(rho / rho0), the largest over the
 * classes, into start_res (NULL: not wanted). */
static void first_direction(const pcg_op *o, pcg_vecs *v, double *start_res)
{
	size_t n = o->n, nc = n * (size_t)o->C;
	int c;

	memcpy(v->d, v->s, nc * sizeof *v->d);
	memcpy(v->Kd, v->Ks, nc * sizeof *v->Kd);
	for (c = 0; c < o->C; c++) {
		double r = dot(v->s + (size_t)c * n, v->Ks + (size_t)c * n, n);
		v->rho[c] = r;
		if (start_res != NULL && c == 0)
			*start_res = 0.0;
		if (start_res != NULL && v->rho0[c] > 0.0 &&
		    sqrt(r / v->rho0[c]) > *start_res)
			*start_res = sqrt(r / v->rho0[c]);
	}
}

/* q = M d = J Kd / l + gamma_A d + gamma_I/n^2 L Kd (L Kd into Lq), then
 * Kq = K q: the iteration's one product with K, every class at once. */
static lsv_status apply_M(const pcg_op *o, pcg_vecs *v)
{
	size_t n = o->n, i;
	int c;
	lsv_status st = LSV_OK;

	if (o->graph)
		st = lsv_lapop_apply(o->L, v->Kd, v->Lq, (size_t)o->C, 1.0,
				     o->err);
	if ((st = lsv_krows_agree(o->K, st, o->err)) != LSV_OK)
		return st;
	for (c = 0; c < o->C; c++)
		for (i = 0; i < n; i++) {
			size_t at = i + (size_t)c * n;
			v->q[at] = (o->act[i + (size_t)c * o->act_stride]
				    ? o->il * v->Kd[at] : 0.0) +
				   o->gamma_A * v->d[at] +
				   (o->graph ? o->cI * v->Lq[at] : 0.0);
		}
	return lsv_krows_mul(o->K, v->q, o->C, v->Kq, o->err);
}

/* One CG step of class c on its columns (and alpha's), q and Kq given:
 * step = rho / (Kd'q), a += step d, f += step Kd, s -= step q,
 * Ks -= step Kq; beta = rho_new / rho, rho = rho_new, d = s + beta d,
 * Kd = Ks + beta Kd.  A curvature Kd'q that is not a positive finite
 * number is an error, at iteration it + 1. */
static lsv_status class_step(const pcg_op *o, pcg_vecs *v, double *alpha,
			     int c, long it)
{
	size_t n = o->n, i, off = (size_t)c * n;
	double *sc = v->s + off, *Ksc = v->Ks + off;
	double *dc = v->d + off, *Kdc = v->Kd + off;
	double *qc = v->q + off, *Kqc = v->Kq + off;
	double *ac = alpha + off, *fc = v->f + off;
	double den, step, rnew = 0.0, beta;

	den = dot(Kdc, qc, n);
	if (!isfinite(den))
		return lsv_fail(o->err, LSV_ENUMERIC,
				"PCG's products overflow a double at "
				"iteration %ld: the kernel's values are "
				"too large (scale the data)", it + 1);
	if (!(den > 0.0))
		return lsv_fail(o->err, LSV_ENUMERIC,
				"PCG lost positive curvature (%g) at "
				"iteration %ld: is the kernel positive "
				"semi-definite?", den, it + 1);
	step = v->rho[c] / den;
	for (i = 0; i < n; i++) {
		ac[i] += step * dc[i];
		fc[i] += step * Kdc[i];
		sc[i] -= step * qc[i];
		Ksc[i] -= step * Kqc[i];
		rnew += sc[i] * Ksc[i];
	}
	beta = rnew / v->rho[c];
	v->rho[c] = rnew;
	for (i = 0; i < n; i++) {
		dc[i] = sc[i] + beta * dc[i];
		Kdc[i] = Ksc[i] + beta * Kdc[i];
	}
	return LSV_OK;
}

/* Iteration it: q = M d, Kq = K q, then a step of every class not yet
 * within the tolerance.  *done_all is set to 1 when every class stepped
 * is now within it (and those skipped were already), else 0. */
static lsv_status iterate(const pcg_op *o, pcg_vecs *v, double *alpha,
			  long it, int *done_all)
{
	lsv_status st;
	int c;

	*done_all = 1;
	if ((st = apply_M(o, v)) != LSV_OK)
		return st;
	for (c = 0; c < o->C; c++) {
		if (v->rho[c] <= o->tol * o->tol * v->rho0[c])
			continue;  /* this class has converged */
		if ((st = class_step(o, v, alpha, c, it)) != LSV_OK)
			return st;
		if (v->rho[c] > o->tol * o->tol * v->rho0[c])
			*done_all = 0;
	}
	return LSV_OK;
}

/* Melacci & Belkin's early stop, once per window: the class of every
 * unlabeled row from f = K a (sign, or argmax) against the last window's
 * in cls (updated here; -1: every row counts as changed).  Nonzero when
 * there are unlabeled rows and under 1.5% of them changed. */
static int labels_stable(const double *f, size_t n, int C,
			 const unsigned char *labeled, int *cls)
{
	size_t changed = 0, u = 0, i;

	for (i = 0; i < n; i++) {
		int k;
		if (labeled[i])
			continue;
		u++;
		k = decide(f, n, i, C);
		changed += k != cls[i];
		cls[i] = k;
	}
	return u > 0 && (double)changed < 0.015 * (double)u;
}

/* The solve's iterations and cap into rep; stopped at the cap (not
 * early) above the tolerance, the classes there are counted in
 * cg_capped and their largest relative residual kept: the last iterate
 * is the result. */
static void report_cap(const pcg_op *o, const pcg_vecs *v, long it,
		       long maxit, int early, lsv_train_report *rep)
{
	int c;

	rep->pcg_iterations += it;
	rep->cg_cap = maxit;
	for (c = 0; !early && c < o->C; c++)
		if (v->rho[c] > o->tol * o->tol * v->rho0[c]) {
			double res = v->rho0[c] > 0.0
				     ? sqrt(v->rho[c] / v->rho0[c]) : 0.0;
			rep->cg_capped_residual =
				fmax(rep->cg_capped_residual, res);
			rep->cg_capped++;
		}
}

lsv_status lsv_laprls_pcg(const lsv_krows *K, const lsv_lapop *L,
			  double cI, const unsigned char *act,
			  size_t act_stride, const unsigned char *labeled,
			  size_t l, const double *Y, int C,
			  const lsv_train_param *p, double *alpha, int warm,
			  lsv_train_report *rep, double *start_res,
			  lsv_error *err)
{
	size_t n = K->n, nc = n * (size_t)C, i;
	pcg_op o;
	pcg_vecs v;
	double *buf;
	int *cls = NULL, c, early = 0, done_all;
	long it, maxit = p->pcg_max_iter > 0 ? p->pcg_max_iter
					    : LSV_PCG_CAP * (long)n;
	long every = (long)(sqrt((double)n) / 2.0) > 0 ? (long)(sqrt((double)n) / 2.0) : 1;
	lsv_status st = LSV_OK;

	o.K = K;
	o.L = L;
	o.act = act;
	o.act_stride = act_stride;
	o.n = n;
	o.C = C;
	o.graph = L != NULL && cI > 0.0;
	o.il = 1.0 / (double)l;
	o.gamma_A = p->gamma_A;
	o.cI = cI;
	o.tol = p->pcg_tol;
	o.err = err;
	buf = calloc(8 * nc + 2 * (size_t)C, sizeof *buf);
	cls = malloc(n * sizeof *cls);
	if (buf == NULL || cls == NULL)
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the PCG vectors (%zu bytes)",
			      8 * nc * sizeof *buf);
	/* every rank learns a failure of one before the first product */
	if ((st = lsv_krows_agree(K, st, err)) != LSV_OK)
		goto done;
	v.s = buf; v.Ks = v.s + nc; v.d = v.Ks + nc; v.Kd = v.d + nc;
	v.q = v.Kd + nc; v.Kq = v.q + nc; v.f = v.Kq + nc; v.Lq = v.f + nc;
	v.rho = v.Lq + nc; v.rho0 = v.rho + C;

	if ((st = start_residual(&o, Y, alpha, warm, &v)) != LSV_OK)
		goto done;
	first_direction(&o, &v, start_res);
	/* The early stop's first window only records the classes (-1: every
	 * row counts as changed), so it needs two windows, warm or cold.  The
	 * start's own classes (f = K a) as the first reference would let a
	 * stable warm start stop after one; measured on USPS 3 vs 8
	 * (bench/warm-start.sh) that halves LapRLS's iterations (38 to 19) but
	 * changes 3 of 1532 labels against the cold start, and in LapSVM's
	 * Newton steps the less exact solves flip active rows for more steps:
	 * 175 iterations instead of 152 (credit on the first solve only), 231
	 * cold instead of 152 (on every step's).  So no such credit. */
	for (i = 0; i < n; i++)
		cls[i] = -1;

	/* a start that already meets the tolerance (a warm start from the
	 * minimizer) costs no iteration, not one product with K */
	for (c = 0; c < C && v.rho[c] <= o.tol * o.tol * v.rho0[c]; c++)
		;
	if (c == C)
		maxit = 0;
	for (it = 0; it < maxit; it++) {
		if ((st = iterate(&o, &v, alpha, it, &done_all)) != LSV_OK)
			goto done;
		if (done_all) {
			it++;
			break;
		}
		if (p->method == LSV_METHOD_PCG_EARLY && (it + 1) % every == 0 &&
		    labels_stable(v.f, n, C, labeled, cls) && it + 1 > every) {
			it++;
			early = 1;
			break;
		}
	}
	report_cap(&o, &v, it, maxit, early, rep);
done:
	free(buf);
	free(cls);
	return st;
}
