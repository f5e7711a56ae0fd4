/*
 * smo.c -- the QP solver behind LapSVM, SVM and (later) TSVM.
 *
 *     min_beta 1/2 beta'Q beta - e'beta
 *     subject to y'beta = 0, 0 <= beta_i <= C_i       (y_i = +-1)
 *
 * the dual of every hinge-loss problem here (JMLR 2006 eq. 11 with C_i = 1/l;
 * per-point C_i for the transductive SVM).  Q is dense and l x l: the
 * solvers form it explicitly, l being the number of labeled points.
 */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"

/*
 * lsv_smo: min 1/2 b'Qb - e'b subject to y'b = 0, 0 <= b_i <= C_i, for a dense
 * symmetric l x l Q (column-major) and y_i = +-1.  Sequential minimal
 * optimization with the second-order working-set selection of Fan, Chen &
 * Lin (JMLR 6, 2005), as in LIBSVM's Solver (without shrinking): pick i with
 * the largest violation -y_i G_i over I_up, then j over I_low maximizing the
 * decrease b_ij^2 / a_ij; stop when max_{I_up} -y G - min_{I_low} -y G < eps.
 * Returns beta and rho (the decision is sum ... - rho), or LSV_ENUMERIC after
 * max_iter iterations.
 */
lsv_status lsv_smo(const double *Q, const double *y, const double *C,
		   size_t l, double eps, long max_iter, int warm, double *beta,
		   double *rho, long *iters, lsv_error *err)
{
	double *G = malloc((l ? l : 1) * sizeof *G);
	const double tau = 1e-12;
	long it;
	size_t t;

	if (G == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory in the dual solver");
	for (t = 0; t < l; t++) {
		if (!warm)
			beta[t] = 0.0;
		G[t] = -1.0;
	}
	if (warm) {  /* G = Q beta - e, skipping the zeros of beta */
		size_t s;
		for (s = 0; s < l; s++)
			if (beta[s] != 0.0)
				for (t = 0; t < l; t++)
					G[t] += Q[t + s * l] * beta[s];
	}
	if (max_iter == 0)
		max_iter = l > 100000 ? (long)(100 * l) : 10000000;
	for (it = 0; it < max_iter; it++) {
		double Gmax = -INFINITY, Gmax2 = -INFINITY, best = INFINITY;
		long i = -1, j = -1;
		double a, b, qii, old_i, old_j, di, dj;

		for (t = 0; t < l; t++) {
			int up = (y[t] > 0 && beta[t] < C[t]) || (y[t] < 0 && beta[t] > 0);
			if (up && -y[t] * G[t] >= Gmax) {
				Gmax = -y[t] * G[t];
				i = (long)t;
			}
		}
		if (i < 0)
			break;
		qii = Q[i + i * l];
		for (t = 0; t < l; t++) {
			int low = (y[t] > 0 && beta[t] > 0) || (y[t] < 0 && beta[t] < C[t]);
			if (!low)
				continue;
			if (y[t] * G[t] >= Gmax2)
				Gmax2 = y[t] * G[t];
			b = Gmax + y[t] * G[t];
			if (b > 0) {
				a = qii + Q[t + t * l] - 2.0 * y[i] * y[t] * Q[i + t * l];
				if (a <= 0)
					a = tau;
				if (-(b * b) / a <= best) {
					best = -(b * b) / a;
					j = (long)t;
				}
			}
		}
		if (Gmax + Gmax2 < eps || j < 0)
			break;

		/* Two-variable subproblem, clipped to the box (LIBSVM's update). */
		old_i = beta[i];
		old_j = beta[j];
		a = Q[i + i * l] + Q[j + j * l] - 2.0 * y[i] * y[j] * Q[i + j * l];
		if (a <= 0)
			a = tau;
		if (y[i] != y[j]) {
			double delta = (-G[i] - G[j]) / a, diff = beta[i] - beta[j];
			beta[i] += delta;
			beta[j] += delta;
			if (diff > 0 && beta[j] < 0) {
				beta[j] = 0;
				beta[i] = diff;
			} else if (diff <= 0 && beta[i] < 0) {
				beta[i] = 0;
				beta[j] = -diff;
			}
			if (diff > C[i] - C[j] && beta[i] > C[i]) {
				beta[i] = C[i];
				beta[j] = C[i] - diff;
			} else if (diff <= C[i] - C[j] && beta[j] > C[j]) {
				beta[j] = C[j];
				beta[i] = C[j] + diff;
			}
		} else {
			double delta = (G[i] - G[j]) / a, sum = beta[i] + beta[j];
			beta[i] -= delta;
			beta[j] += delta;
			if (sum > C[i] && beta[i] > C[i]) {
				beta[i] = C[i];
				beta[j] = sum - C[i];
			} else if (sum <= C[i] && beta[j] < 0) {
				beta[j] = 0;
				beta[i] = sum;
			}
			if (sum > C[j] && beta[j] > C[j]) {
				beta[j] = C[j];
				beta[i] = sum - C[j];
			} else if (sum <= C[j] && beta[i] < 0) {
				beta[i] = 0;
				beta[j] = sum;
			}
		}
		di = beta[i] - old_i;
		dj = beta[j] - old_j;
		for (t = 0; t < l; t++)
			G[t] += Q[t + (size_t)i * l] * di + Q[t + (size_t)j * l] * dj;
	}
	if (iters)
		*iters = it;
	if (it >= max_iter) {
		/* the stop is on the gradient's scale, which Q sets: with Q_ii
		 * ~ 1/gamma_A far beyond 1 no tolerance a user would pick is
		 * reached, and the cause is the scale, not -e */
		double qmax = 0.0;
		for (t = 0; t < l; t++)
			qmax = fmax(qmax, Q[t + t * (size_t)l]);
		free(G);
		if (qmax > 1e8)
			return lsv_fail(err, LSV_ENUMERIC,
					"the dual solver did not converge in %ld "
					"iterations: its largest Q_ii is %.3g, a "
					"badly scaled dual (a tiny gamma_A, -a or "
					"-A, or huge kernel values): raise gamma_A "
					"or scale the data", max_iter, qmax);
		return lsv_fail(err, LSV_ENUMERIC,
				"the dual solver did not converge in %ld iterations "
				"(try a larger tolerance -e)", max_iter);
	}
	/* rho: the average of y_i G_i over free variables, else the middle
	 * of the feasible interval (LIBSVM's calculate_rho). */
	{
		double ub = INFINITY, lb = -INFINITY, sum = 0.0;
		size_t nfree = 0;
		for (t = 0; t < l; t++) {
			double yG = y[t] * G[t];
			if (beta[t] >= C[t]) {
				if (y[t] < 0)
					ub = fmin(ub, yG);
				else
					lb = fmax(lb, yG);
			} else if (beta[t] <= 0) {
				if (y[t] > 0)
					ub = fmin(ub, yG);
				else
					lb = fmax(lb, yG);
			} else {
				nfree++;
				sum += yG;
			}
		}
		*rho = nfree > 0 ? sum / (double)nfree : (ub + lb) / 2;
	}
	free(G);
	return LSV_OK;
}

