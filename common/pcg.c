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

lsv_status lsv_laprls_pcg(const lsv_krows *K, const lsv_lapop *L,
			  double cI, const unsigned char *act,
			  size_t act_stride, const unsigned char *labeled,
			  size_t l, const double *Y, int C,
			  const lsv_train_param *p, double *alpha, int warm,
			  lsv_train_report *rep, double *start_res,
			  lsv_error *err)
{
	size_t n = K->n, nc = n * (size_t)C, i;
	double *buf, *s, *Ks, *d, *Kd, *q, *Kq, *f, *Lq;
	double *rho, *rho0;
	int *cls = NULL, c;
	long it, maxit = p->pcg_max_iter > 0 ? p->pcg_max_iter
					    : LSV_PCG_CAP * (long)n;
	long every = (long)(sqrt((double)n) / 2.0) > 0 ? (long)(sqrt((double)n) / 2.0) : 1;
	double il = 1.0 / (double)l;
	int graph = L != NULL && cI > 0.0, early = 0;
	lsv_status st = LSV_OK;

	buf = calloc(8 * nc + 2 * (size_t)C, sizeof *buf);
	cls = malloc(n * sizeof *cls);
	if (buf == NULL || cls == NULL)
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the PCG vectors (%zu bytes)",
			      8 * nc * sizeof *buf);
	/* every rank learns a failure of one before the first product */
	if ((st = lsv_krows_agree(K, st, err)) != LSV_OK)
		goto done;
	s = buf; Ks = s + nc; d = Ks + nc; Kd = d + nc; q = Kd + nc;
	Kq = q + nc; f = Kq + nc; Lq = f + nc;
	rho = Lq + nc; rho0 = rho + C;

	/* s = c - M a, c = Y/l: with a = 0 (cold) s = c; warm, from f = K a;
	 * rho0 = c'Kc either way, so the tolerance is relative to the same
	 * scale whatever the start */
	for (c = 0; c < C; c++)
		for (i = 0; i < n; i++)
			s[i + (size_t)c * n] = Y[i + (size_t)c * n] * il;
	if ((st = lsv_krows_mul(K, s, C, Ks, err)) != LSV_OK)
		goto done;
	for (c = 0; c < C; c++) {
		double r = 0.0;
		for (i = 0; i < n; i++)
			r += s[i + (size_t)c * n] * Ks[i + (size_t)c * n];
		rho0[c] = r;
	}
	if (!warm) {
		memset(alpha, 0, nc * sizeof *alpha);
	} else {
		if ((st = lsv_krows_mul(K, alpha, C, f, err)) != LSV_OK)
			goto done;
		st = lsv_check_start(f, n, alpha, n, C, err);
		if (st == LSV_OK && graph)
			st = lsv_lapop_apply(L, f, Lq, (size_t)C, 1.0, err);
		if ((st = lsv_krows_agree(K, st, err)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++)
			for (i = 0; i < n; i++) {
				size_t at = i + (size_t)c * n;
				s[at] -= (act[i + (size_t)c * act_stride] ? il * f[at] : 0.0) +
					 p->gamma_A * alpha[at] +
					 (graph ? cI * Lq[at] : 0.0);
			}
		if ((st = lsv_krows_mul(K, s, C, Ks, err)) != LSV_OK)
			goto done;
	}
	memcpy(d, s, nc * sizeof *d);
	memcpy(Kd, Ks, nc * sizeof *Kd);
	for (c = 0; c < C; c++) {
		double r = 0.0;
		for (i = 0; i < n; i++)
			r += s[i + (size_t)c * n] * Ks[i + (size_t)c * n];
		rho[c] = r;
		if (start_res != NULL && c == 0)
			*start_res = 0.0;
		if (start_res != NULL && rho0[c] > 0.0 &&
		    sqrt(r / rho0[c]) > *start_res)
			*start_res = sqrt(r / rho0[c]);
	}
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
	for (c = 0; c < C && rho[c] <= p->pcg_tol * p->pcg_tol * rho0[c]; c++)
		;
	if (c == C)
		maxit = 0;
	for (it = 0; it < maxit; it++) {
		int done_all = 1;
		/* q = M d = J Kd / l + gamma_A d + gamma_I/n^2 L Kd */
		if (graph)
			st = lsv_lapop_apply(L, Kd, Lq, (size_t)C, 1.0, err);
		if ((st = lsv_krows_agree(K, st, err)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++)
			for (i = 0; i < n; i++) {
				size_t at = i + (size_t)c * n;
				q[at] = (act[i + (size_t)c * act_stride] ? il * Kd[at] : 0.0) +
					p->gamma_A * d[at] +
					(graph ? cI * Lq[at] : 0.0);
			}
		if ((st = lsv_krows_mul(K, q, C, Kq, err)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++) {
			double *sc = s + (size_t)c * n, *Ksc = Ks + (size_t)c * n;
			double *dc = d + (size_t)c * n, *Kdc = Kd + (size_t)c * n;
			double *qc = q + (size_t)c * n, *Kqc = Kq + (size_t)c * n;
			double *ac = alpha + (size_t)c * n, *fc = f + (size_t)c * n;
			double den = 0.0, step, rnew = 0.0, beta;
			if (rho[c] <= p->pcg_tol * p->pcg_tol * rho0[c])
				continue;  /* this class has converged */
			for (i = 0; i < n; i++)
				den += Kdc[i] * qc[i];
			if (!isfinite(den)) {
				st = lsv_fail(err, LSV_ENUMERIC,
					      "PCG's products overflow a double at "
					      "iteration %ld: the kernel's values are "
					      "too large (scale the data)", it + 1);
				goto done;
			}
			if (!(den > 0.0)) {
				st = lsv_fail(err, LSV_ENUMERIC,
					      "PCG lost positive curvature (%g) at "
					      "iteration %ld: is the kernel positive "
					      "semi-definite?", den, it + 1);
				goto done;
			}
			step = rho[c] / den;
			for (i = 0; i < n; i++) {
				ac[i] += step * dc[i];
				fc[i] += step * Kdc[i];
				sc[i] -= step * qc[i];
				Ksc[i] -= step * Kqc[i];
				rnew += sc[i] * Ksc[i];
			}
			beta = rnew / rho[c];
			rho[c] = rnew;
			for (i = 0; i < n; i++) {
				dc[i] = sc[i] + beta * dc[i];
				Kdc[i] = Ksc[i] + beta * Kdc[i];
			}
			if (rnew > p->pcg_tol * p->pcg_tol * rho0[c])
				done_all = 0;
		}
		if (done_all) {
			it++;
			break;
		}
		if (p->method == LSV_METHOD_PCG_EARLY && (it + 1) % every == 0) {
			size_t changed = 0, u = 0;
			for (i = 0; i < n; i++) {
				int k;
				if (labeled[i])
					continue;
				u++;
				k = decide(f, n, i, C);
				changed += k != cls[i];
				cls[i] = k;
			}
			if (u > 0 && (double)changed < 0.015 * (double)u &&
			    it + 1 > every) {
				it++;
				early = 1;
				break;
			}
		}
	}
	rep->pcg_iterations += it;
	rep->cg_cap = maxit;
	/* the cap reached above the tolerance: the last iterate, reported */
	for (c = 0; !early && c < C; c++)
		if (rho[c] > p->pcg_tol * p->pcg_tol * rho0[c]) {
			double res = rho0[c] > 0.0 ? sqrt(rho[c] / rho0[c]) : 0.0;
			rep->cg_capped_residual =
				fmax(rep->cg_capped_residual, res);
			rep->cg_capped++;
		}
done:
	free(buf);
	free(cls);
	return st;
}
