/*
 * smo.c -- the QP solver behind LapSVM, SVM and TSVM.
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
 * Is beta_t in I_up, free to move so that y_t beta_t grows (LIBSVM's
 * is_upper_bound / is_lower_bound as the sets of Fan, Chen & Lin)?
 */
static int in_up(double y, double beta, double C)
{
	return (y > 0 && beta < C) || (y < 0 && beta > 0);
}

/* Is beta_t in I_low, free to move so that y_t beta_t shrinks? */
static int in_low(double y, double beta, double C)
{
	return (y > 0 && beta > 0) || (y < 0 && beta < C);
}

/*
 * The starting point and its gradient G = Q beta - e: beta = 0 (G = -e)
 * unless warm, when the given beta is kept and Q beta is added, skipping
 * its zeros.
 */
static void smo_start(const double *Q, size_t l, int warm, double *beta,
		      double *G)
{
	size_t s, t;

	for (t = 0; t < l; t++) {
		if (!warm)
			beta[t] = 0.0;
		G[t] = -1.0;
	}
	if (!warm)
		return;
	for (s = 0; s < l; s++)
		if (beta[s] != 0.0)
			for (t = 0; t < l; t++)
				G[t] += Q[t + s * l] * beta[s];
}

/*
 * The first index of the working set: i = argmax_{t in I_up} -y_t G_t (the
 * last of equal ones), with that maximum in *Gmax; -1 if I_up is empty.
 */
static long smo_select_i(const double *y, const double *C,
			 const double *beta, const double *G, size_t l,
			 double *Gmax)
{
	long i = -1;
	size_t t;

	*Gmax = -INFINITY;
	for (t = 0; t < l; t++)
		if (in_up(y[t], beta[t], C[t]) && -y[t] * G[t] >= *Gmax) {
			*Gmax = -y[t] * G[t];
			i = (long)t;
		}
	return i;
}

/*
 * The second index, by second-order information: over t in I_low with
 * b_it = Gmax + y_t G_t > 0, the one minimizing -b_it^2 / a_it, where
 * a_it = Q_ii + Q_tt - 2 y_i y_t Q_it (tau if not positive) is the
 * curvature along the pair's feasible direction.  *Gmax2 gets
 * max_{t in I_low} y_t G_t, the other half of the stopping gap.  -1 if no
 * t qualifies.
 */
static long smo_select_j(const double *Q, const double *y, const double *C,
			 const double *beta, const double *G, size_t l,
			 long i, double Gmax, double tau, double *Gmax2)
{
	double qii = Q[i + i * l], best = INFINITY;
	long j = -1;
	size_t t;

	*Gmax2 = -INFINITY;
	for (t = 0; t < l; t++) {
		double a, b;
		if (!in_low(y[t], beta[t], C[t]))
			continue;
		if (y[t] * G[t] >= *Gmax2)
			*Gmax2 = y[t] * G[t];
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
	return j;
}

/*
 * The two-variable subproblem for y_i != y_j, where beta_i - beta_j stays
 * fixed: both move by delta = (-G_i - G_j) / a, then the pair is clipped
 * back into [0, C_i] x [0, C_j] along that line (LIBSVM's update).
 */
static void smo_pair_opposite(const double *G, const double *C, double a,
			      size_t i, size_t j, double *beta)
{
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
}

/*
 * The same for y_i == y_j, where beta_i + beta_j stays fixed: beta_i
 * moves by -delta and beta_j by +delta, delta = (G_i - G_j) / a, then
 * clipped into the box along that line.
 */
static void smo_pair_same(const double *G, const double *C, double a,
			  size_t i, size_t j, double *beta)
{
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

/*
 * One SMO step on the pair (i, j): solve the two-variable subproblem with
 * curvature a = Q_ii + Q_jj - 2 y_i y_j Q_ij (tau if not positive), then
 * bring the gradient along: G += Q_:i dbeta_i + Q_:j dbeta_j.
 */
static void smo_step(const double *Q, const double *y, const double *C,
		     size_t l, size_t i, size_t j, double tau, double *beta,
		     double *G)
{
	double old_i = beta[i], old_j = beta[j], di, dj;
	double a = Q[i + i * l] + Q[j + j * l] - 2.0 * y[i] * y[j] * Q[i + j * l];
	size_t t;

	if (a <= 0)
		a = tau;
	if (y[i] != y[j])
		smo_pair_opposite(G, C, a, i, j, beta);
	else
		smo_pair_same(G, C, a, i, j, beta);
	di = beta[i] - old_i;
	dj = beta[j] - old_j;
	for (t = 0; t < l; t++)
		G[t] += Q[t + i * l] * di + Q[t + j * l] * dj;
}

/*
 * The error of a run that used up max_iter.  The stop is on the
 * gradient's scale, which Q sets: with Q_ii ~ 1/gamma_A far beyond 1 no
 * tolerance a user would pick is reached, and the cause is the scale, not
 * -e.
 */
static lsv_status smo_not_converged(const double *Q, size_t l, long max_iter,
				    lsv_error *err)
{
	double qmax = 0.0;
	size_t t;

	for (t = 0; t < l; t++)
		qmax = fmax(qmax, Q[t + t * (size_t)l]);
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

/*
 * rho: the average of y_i G_i over free variables, else the middle of the
 * feasible interval [lb, ub] that the bounded ones leave (LIBSVM's
 * calculate_rho).
 */
static double smo_rho(const double *y, const double *C, const double *beta,
		      const double *G, size_t l)
{
	double ub = INFINITY, lb = -INFINITY, sum = 0.0;
	size_t nfree = 0, t;

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
	return nfree > 0 ? sum / (double)nfree : (ub + lb) / 2;
}

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

	if (G == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory in the dual solver");
	smo_start(Q, l, warm, beta, G);
	if (max_iter == 0)
		max_iter = l > 100000 ? (long)(100 * l) : 10000000;
	for (it = 0; it < max_iter; it++) {
		double Gmax, Gmax2;
		long i = smo_select_i(y, C, beta, G, l, &Gmax), j;
		if (i < 0)
			break;
		j = smo_select_j(Q, y, C, beta, G, l, i, Gmax, tau, &Gmax2);
		if (Gmax + Gmax2 < eps || j < 0)
			break;
		smo_step(Q, y, C, l, (size_t)i, (size_t)j, tau, beta, G);
	}
	if (iters)
		*iters = it;
	if (it >= max_iter) {
		free(G);
		return smo_not_converged(Q, l, max_iter, err);
	}
	*rho = smo_rho(y, C, beta, G, l);
	free(G);
	return LSV_OK;
}
