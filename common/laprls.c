/*
 * laprls.c -- Laplacian RLS (Belkin, Niyogi & Sindhwani, JMLR 7, 2006,
 * Section 4.2), and RLS as its gamma_I = 0 case.
 *
 * Objective (eq. 4 with the squared loss V = (y - f)^2), over
 * f = sum_i alpha_i k(x_i, .) with the sum over all n = l + u rows
 * (representer theorem, eq. 5), no bias:
 *     1/l sum_{i labeled} (y_i - f(x_i))^2 + gamma_A |f|_K^2
 *                                          + gamma_I/(l+u)^2 f'L^p f.
 *
 * Direct (eq. 8): setting the gradient to zero,
 *     alpha = (J K + gamma_A l I + gamma_I l/(l+u)^2 L^p K)^-1 Y,
 * J = diag(labeled), Y the labels on labeled rows and 0 elsewhere.  One LU
 * factorization of the n x n matrix (dgesv) serves every class, one
 * right-hand side per one-vs-rest problem.  L^p K comes from the sparse
 * operator (p sparse products, never a dense L).  With gamma_I = 0 the
 * unlabeled coefficients are 0 and the labeled ones solve
 * (K_ll + gamma_A l I) alpha = y: RLS, by Cholesky (dposv) on l x l.
 * For the squared loss Newton's method is this one solve, so -M newton on
 * the full kernel is the direct solve too.
 *
 * PCG (pcg.c): the same objective minimized iteratively, one product with
 * K per iteration, with or without early stopping; it also runs on K held
 * by rows over the ranks of an MPI run (lsv_krows).
 */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

/* RLS: (K_ll + gamma_A l I) a = y, Cholesky; SPD when K is PSD. */
static lsv_status rls(lsv_fit *F)
{
	size_t n = F->n, l = F->l, i, r;
	int L_ = (int)l, nrhs = F->nr_fn, c, info;
	double *A = lsv_alloc(l * l, sizeof *A);
	double *B = lsv_alloc(l * (size_t)nrhs, sizeof *B);
	lsv_status st = LSV_OK;

	if (A == NULL || B == NULL) {
		free(A);
		free(B);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	}
	for (i = 0; i < l; i++)
		for (r = 0; r < l; r++)
			A[r + i * l] = F->K[F->lab[r] + F->lab[i] * n];
	for (i = 0; i < l; i++)
		A[i + i * l] += lsv_fit_ambient(F, (double)l);
	memcpy(B, F->Y, l * (size_t)nrhs * sizeof *B);
	dposv_("L", &L_, &nrhs, A, &L_, B, &L_, &info, 1);
	if (info != 0)
		st = lsv_fail(F->err, LSV_ENUMERIC,
			      "RLS system is not positive definite (LAPACK dposv "
			      "info %d): is the kernel positive semi-definite?",
			      info);
	for (c = 0; st == LSV_OK && c < nrhs; c++)
		for (i = 0; i < l; i++)
			F->alpha[F->lab[i] + (size_t)c * n] = B[i + (size_t)c * l];
	free(A);
	free(B);
	return st;
}

lsv_status lsv_fit_laprls_direct(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, l = F->l, i, r;
	int N = (int)n, nrhs = F->nr_fn, c, info;
	double *M, gAl = lsv_fit_ambient(F, (double)l);
	int *ipiv;
	lsv_status st;

	(void)out;
	if (F->L == NULL)
		return rls(F);
	/* M = gamma_I l/(l+u)^2 L^p K + J K + gamma_A l I */
	M = malloc(n * n * sizeof *M);
	ipiv = malloc(n * sizeof *ipiv);
	if (M == NULL || ipiv == NULL) {
		free(M);
		free(ipiv);
		return lsv_fail(F->err, LSV_ENOMEM,
				"out of memory for the LapRLS system (%zu bytes)",
				n * n * sizeof *M);
	}
	st = lsv_lapop_apply(F->L, F->K, M, n, lsv_fit_intrinsic(F, (double)l),
			     F->err);
	if (st == LSV_OK) {
		for (r = 0; r < l; r++) {
			size_t row = F->lab[r];
			for (i = 0; i < n; i++)
				M[row + i * n] += F->K[row + i * n];
		}
		for (i = 0; i < n; i++)
			M[i + i * n] += gAl;
		for (c = 0; c < nrhs; c++)
			for (i = 0; i < l; i++)
				F->alpha[F->lab[i] + (size_t)c * n] =
					F->Y[i + (size_t)c * l];
		dgesv_(&N, &nrhs, M, &N, ipiv, F->alpha, &N, &info);
		if (info != 0)
			st = lsv_fail(F->err, LSV_ENUMERIC,
				      "LapRLS system is singular (LAPACK dgesv info "
				      "%d)", info);
	}
	free(M);
	free(ipiv);
	return st;
}

lsv_status lsv_fit_laprls_pcg(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, l = F->l, r;
	int nrhs = F->nr_fn, c;
	/* targets on every row (0 unlabeled), no LU */
	double *Yn = calloc(n * (size_t)nrhs, sizeof *Yn);
	unsigned char *lab = calloc(n, 1);
	lsv_krows K = lsv_fit_krows(F);
	lsv_status st;

	(void)out;
	if (Yn == NULL || lab == NULL)
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	else
		st = LSV_OK;
	/* distributed: a failure of one rank ends every rank */
	if ((st = lsv_krows_agree(&K, st, F->err)) != LSV_OK) {
		free(Yn);
		free(lab);
		return st;
	}
	for (r = 0; r < l; r++) {
		lab[F->lab[r]] = 1;
		for (c = 0; c < nrhs; c++)
			Yn[F->lab[r] + (size_t)c * n] = F->Y[r + (size_t)c * l];
	}
	st = lsv_laprls_pcg(&K, F->L, lsv_fit_intrinsic(F, 1.0), lab, 0,
			    lab, l, Yn, nrhs, F->p, F->alpha, F->warm,
			    F->report,
			    F->warm ? &F->report->warm_residual : NULL, F->err);
	free(Yn);
	free(lab);
	return st;
}
