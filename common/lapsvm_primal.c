/*
 * lapsvm_primal.c -- LapSVM in the primal on the full kernel (Melacci &
 * Belkin, "Laplacian Support Vector Machines Trained in the Primal", JMLR
 * 12, 2011): squared hinge, f = K a, no bias (as eq. 8).
 *
 * Objective:
 *     F(a) = 1/l sum_{i labeled} max(0, 1 - y_i f_i)^2 + gamma_A a'K a
 *            + gamma_I/n^2 f'L^p f.
 * For the active set S (labeled rows with y f < 1) F is the LapRLS
 * objective with J = diag(S), minimized where
 *     (J_S K/l + gamma_A I + gamma_I/n^2 L^p K) a = J_S y/l.
 * The Newton driver (newton.c) solves that for every one-vs-rest function
 * (its own S) and moves by an exact line search.  The solve is one LU of
 * the n x n system per function and step (-M newton: O(n^3) a step), or
 * PCG warm-started from the current a (-M pcg, pcg-early: one K product
 * per iteration, all functions in one dgemm, so they step together).
 * Along a step d with df = K d, R(a) = gamma_A a'K a + gamma_I/n^2 f'Lf
 * contributes gamma_A f'd + t gamma_A df'd + f'L df + t df'L df to F'/2.
 * Converged: S unchanged and a full step, or one that moves no output by
 * more than 1e-6 (1 + max |f|); with early stopping the inner solves are
 * inexact by design and an unchanged S is the stop (Melacci & Belkin stop
 * on stable predictions).
 *
 * With PCG the solver also runs on K held by rows over the ranks of an MPI
 * run (lsv_krows, pcg.c's comment): the products K d are the ranks' block
 * products gathered (lsv_krows_mul), and everything else -- the active
 * sets, the line search, the Laplacian terms of the slope -- is the serial
 * arithmetic on whole vectors, the same on every rank.  The LU steps need
 * the whole K and stay on one process.
 */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

typedef struct {
	lsv_fit *F;
	lsv_krows K;              /* F's kernel, whole or by rows */
	double cI;                /* gamma_I / n^2 */
	int pcg;                  /* inner solves by PCG, else LU */
	unsigned char *act_n;     /* n x C: the active rows by row number */
	unsigned char *labeled;   /* n */
	double *Yn;               /* n x C: targets on the active rows */
	double *LK, *M;           /* LU: cI L^p K once; the system */
	int *ipiv;
	double *Ldf;              /* n x C */
} kprimal;

static lsv_status solve(void *ctx, const unsigned char *act,
			const unsigned char *live, long step, const double *z,
			double *zn)
{
	kprimal *P = ctx;
	lsv_fit *F = P->F;
	size_t n = F->n, l = F->l, nc = n * (size_t)F->nr_fn, i, j, r;
	int C = F->nr_fn, c, N = (int)n;
	double il = 1.0 / (double)l, gA = lsv_fit_ambient(F, 1.0);

	(void)live;  /* joint: every function is live until all stop */
	memset(P->act_n, 0, nc);
	for (i = 0; i < nc; i++)
		P->Yn[i] = 0.0;
	for (c = 0; c < C; c++)
		for (r = 0; r < l; r++) {
			size_t at = F->lab[r] + (size_t)c * n;
			P->act_n[at] = act[r + (size_t)c * l];
			if (P->act_n[at])
				P->Yn[at] = F->Y[r + (size_t)c * l];
		}
	if (P->pcg) {
		memcpy(zn, z, nc * sizeof *zn);
		return lsv_laprls_pcg(&P->K, F->L, P->cI, P->act_n, n,
				      P->labeled, l, P->Yn, C, F->p, zn,
				      step > 0 || F->warm,
				      F->report,
				      step == 0 && F->warm ?
				      &F->report->warm_residual : NULL, F->err);
	}
	for (c = 0; c < C; c++) {
		const unsigned char *ac = P->act_n + (size_t)c * n;
		int info, one_i = 1;
		/* M = cI L^p K + diag(act/l) K + gamma_A I */
		memcpy(P->M, P->LK, n * n * sizeof *P->M);
		for (i = 0; i < n; i++) {
			if (!ac[i])
				continue;
			for (j = 0; j < n; j++)
				P->M[i + j * n] += il * F->K[i + j * n];
		}
		for (i = 0; i < n; i++)
			P->M[i + i * n] += gA;
		memcpy(zn + (size_t)c * n, P->Yn + (size_t)c * n, n * sizeof *zn);
		for (i = 0; i < n; i++)
			zn[i + (size_t)c * n] *= il;
		dgesv_(&N, &one_i, P->M, &N, P->ipiv, zn + (size_t)c * n, &N, &info);
		if (info != 0)
			return lsv_fail(F->err, LSV_ENUMERIC,
					"the Newton system is singular (LAPACK dgesv "
					"info %d)", info);
	}
	return LSV_OK;
}

/* df = K d, every function in one dgemm. */
static lsv_status outputs(void *ctx, const unsigned char *live,
			  const double *d, double *df)
{
	kprimal *P = ctx;

	(void)live;
	return lsv_krows_mul(&P->K, d, P->F->nr_fn, df, P->F->err);
}

static lsv_status slope(void *ctx, const unsigned char *live,
			const double *z, const double *d, const double *f,
			const double *df, double *a1, double *a2)
{
	kprimal *P = ctx;
	lsv_fit *F = P->F;
	size_t n = F->n, i;
	int c;
	double gA = lsv_fit_ambient(F, 1.0);
	lsv_status st;

	(void)live;
	(void)z;
	if (F->L != NULL &&
	    (st = lsv_krows_agree(&P->K, lsv_lapop_apply(F->L, df, P->Ldf,
							  (size_t)F->nr_fn,
							  P->cI, F->err),
				  F->err)) != LSV_OK)
		return st;
	for (c = 0; c < F->nr_fn; c++) {
		size_t o = (size_t)c * n;
		double s1 = 0.0, s2 = 0.0;
		for (i = 0; i < n; i++) {
			/* a'K d = f'd: gamma_A (f + t df)'d */
			s1 += gA * f[o + i] * d[o + i];
			s2 += gA * df[o + i] * d[o + i];
			if (F->L != NULL) {
				s1 += f[o + i] * P->Ldf[o + i];
				s2 += df[o + i] * P->Ldf[o + i];
			}
		}
		a1[c] = s1;
		a2[c] = s2;
	}
	return LSV_OK;
}

/* A local outcome agreed by every rank (the Newton driver's hook). */
static lsv_status agree(void *ctx, lsv_status st)
{
	kprimal *P = ctx;
	return lsv_krows_agree(&P->K, st, P->F->err);
}

lsv_status lsv_fit_lapsvm_primal(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, nc = n * (size_t)F->nr_fn, r;
	kprimal P;
	lsv_newton_obj O;
	lsv_status st = LSV_OK;

	(void)out;
	memset(&P, 0, sizeof P);
	P.F = F;
	P.K = lsv_fit_krows(F);
	P.cI = lsv_fit_intrinsic(F, 1.0);
	P.pcg = F->p->method != LSV_METHOD_NEWTON;
	P.act_n = malloc(nc);
	P.labeled = calloc(n, 1);
	P.Yn = malloc(nc * sizeof *P.Yn);
	P.Ldf = malloc(nc * sizeof *P.Ldf);
	if (!P.act_n || !P.labeled || !P.Yn || !P.Ldf)
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	/* distributed: a failure of one rank ends every rank */
	if ((st = lsv_krows_agree(&P.K, st, F->err)) != LSV_OK)
		goto done;
	for (r = 0; r < F->l; r++)
		P.labeled[F->lab[r]] = 1;
	if (!P.pcg) {
		/* direct Newton steps: cI L^p K once, then one LU per
		 * function and step */
		P.LK = malloc(n * n * sizeof *P.LK);
		P.M = malloc(n * n * sizeof *P.M);
		P.ipiv = malloc(n * sizeof *P.ipiv);
		if (P.LK == NULL || P.M == NULL || P.ipiv == NULL) {
			st = lsv_fail(F->err, LSV_ENOMEM,
				      "out of memory for the Newton system (%zu bytes)",
				      2 * n * n * sizeof *P.M);
			goto done;
		}
		if (F->L != NULL)
			st = lsv_lapop_apply(F->L, F->K, P.LK, n, P.cI, F->err);
		else
			memset(P.LK, 0, n * n * sizeof *P.LK);
		if (st != LSV_OK)
			goto done;
	}
	memset(&O, 0, sizeof O);
	O.nz = n;
	O.joint = 1;
	O.full_tol = 1e-3;
	O.small_step = 1e-6;
	O.stop_stable = F->p->method == LSV_METHOD_PCG_EARLY;
	O.ctx = &P;
	O.solve = solve;
	O.outputs = outputs;
	O.slope = slope;
	O.agree = agree;
	st = lsv_newton(F, &O, 1, F->alpha);
done:
	free(P.act_n);
	free(P.labeled);
	free(P.Yn);
	free(P.Ldf);
	free(P.LK);
	free(P.M);
	free(P.ipiv);
	return st;
}
