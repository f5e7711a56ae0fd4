/*
 * lapsvm_dual.c -- the Laplacian SVM by its dual (Belkin, Niyogi &
 * Sindhwani, JMLR 7, 2006, Section 4.3, eqs. 10-12), and the SVM as its
 * gamma_I = 0 case.
 *
 * Objective (eq. 4 with the hinge loss), over f = sum_i alpha_i k(x_i, .)
 * + b, the sum over all n = l + u rows:
 *     1/l sum_{i labeled} max(0, 1 - y_i f(x_i)) + gamma_A |f|_K^2
 *                                               + gamma_I/(l+u)^2 f'L^p f.
 * Dual: with P = 2 gamma_A I + 2 gamma_I/(l+u)^2 L^p K,
 *     beta* = argmax sum beta_i - 1/2 beta'Q beta,  sum beta_i y_i = 0,
 *             0 <= beta_i <= 1/l,
 *     Q = Y~ J K P^-1 J' Y~,     alpha = P^-1 J' Y~ beta*,
 * solved by SMO (lsv_smo, smo.c) on the l x l matrix Q.  P^-1 J' does not
 * depend on the class, so one LU and one solve with l right-hand sides
 * serve all one-vs-rest problems.  The bias is b = -rho from the KKT
 * conditions.  With gamma_I = 0, P = 2 gamma_A I: Q = Y~ K_ll Y~ /
 * (2 gamma_A) and this is exactly the SVM with C = 1/(2 gamma_A l) (same
 * gradient, so the same stopping rule as LIBSVM's).
 */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

/* G = J K P^-1 J' (l x l) and Z = P^-1 J' (n x l), the class-free part of
 * the dual. */
static lsv_status graph_gram(lsv_fit *F, double *G, double **Zout)
{
	size_t n = F->n, l = F->l, i, r;
	double *P = malloc(n * n * sizeof *P);
	double *KL = lsv_alloc(n * l, sizeof *KL);
	double *Z = lsv_alloc(n * l, sizeof *Z);
	int *ipiv = malloc(n * sizeof *ipiv), N = (int)n, L_ = (int)l, info;
	const double one = 1.0, zero = 0.0;
	lsv_status st;

	*Zout = NULL;
	if (P == NULL || KL == NULL || ipiv == NULL || Z == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM,
			      "out of memory for the LapSVM system (%zu bytes)",
			      n * n * sizeof *P);
		goto done;
	}
	st = lsv_lapop_apply(F->L, F->K, P, n, lsv_fit_intrinsic(F, 2.0),
			     F->err);
	if (st != LSV_OK)
		goto done;
	for (i = 0; i < n; i++)
		P[i + i * n] += lsv_fit_ambient(F, 2.0);
	memset(Z, 0, n * l * sizeof *Z);
	for (i = 0; i < l; i++)
		Z[F->lab[i] + i * n] = 1.0;
	dgesv_(&N, &L_, P, &N, ipiv, Z, &N, &info);
	if (info != 0) {
		st = lsv_fail(F->err, LSV_ENUMERIC,
			      "LapSVM system is singular (LAPACK dgesv info %d)",
			      info);
		goto done;
	}
	for (i = 0; i < l; i++)
		memcpy(KL + i * n, F->K + F->lab[i] * n, n * sizeof *KL);
	dgemm_("T", "N", &L_, &L_, &N, &one, KL, &N, Z, &N, &zero, G, &L_, 1, 1);
	/* K P^-1 is symmetric in exact arithmetic; make it so. */
	for (i = 0; i < l; i++)
		for (r = i + 1; r < l; r++) {
			double s = 0.5 * (G[r + i * l] + G[i + r * l]);
			G[r + i * l] = G[i + r * l] = s;
		}
	*Zout = Z;
	Z = NULL;
done:
	free(P);
	free(KL);
	free(Z);
	free(ipiv);
	return st;
}

lsv_status lsv_fit_lapsvm_dual(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, l = F->l, i, r;
	double *Z = NULL, *G, *Q, *beta, *box;
	double twoA = lsv_fit_ambient(F, 2.0);
	lsv_status st = LSV_OK;
	int c;

	(void)out;
	G = lsv_alloc(l * l, sizeof *G);
	Q = lsv_alloc(l * l, sizeof *Q);
	beta = lsv_alloc(l, sizeof *beta);
	box = lsv_alloc(l, sizeof *box);
	if (G == NULL || Q == NULL || beta == NULL || box == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the dual");
		goto done;
	}
	if (F->L == NULL) {
		/* Z = J'/(2 gamma_A): G = K_ll / (2 gamma_A). */
		for (i = 0; i < l; i++)
			for (r = 0; r < l; r++)
				G[r + i * l] = F->K[F->lab[r] + F->lab[i] * n] / twoA;
	} else if ((st = graph_gram(F, G, &Z)) != LSV_OK) {
		goto done;
	}
	for (c = 0; c < F->nr_fn; c++) {
		const double *y = F->Y + (size_t)c * l;
		double rho;
		for (i = 0; i < l; i++)
			for (r = 0; r < l; r++)
				Q[r + i * l] = y[r] * y[i] * G[r + i * l];
		for (i = 0; i < l; i++)
			box[i] = 1.0 / (double)l;
		st = lsv_smo(Q, y, box, l, F->p->eps, F->p->max_iter, 0, beta, &rho,
			     NULL, F->err);
		if (st != LSV_OK)
			goto done;
		F->bias[c] = 0.0 - rho;  /* not -0 when rho = 0 */
		/* alpha = Z (y .* beta) */
		if (Z == NULL) {
			for (i = 0; i < l; i++)
				F->alpha[F->lab[i] + (size_t)c * n] =
					y[i] * beta[i] / twoA;
		} else {
			for (i = 0; i < l; i++) {
				double s = y[i] * beta[i];
				if (s == 0.0)
					continue;
				for (r = 0; r < n; r++)
					F->alpha[r + (size_t)c * n] += Z[r + i * n] * s;
			}
		}
	}
done:
	free(Z);
	free(G);
	free(Q);
	free(beta);
	free(box);
	return st;
}
