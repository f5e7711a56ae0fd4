/*
 * tsvm.c -- the transductive SVM baseline of the paper's tables (Joachims,
 * "Transductive inference for text classification using support vector
 * machines", ICML 1999), on the toolkit's own SMO with per-point costs.
 *
 * Objective, over f and the labels y*_j of the u unlabeled points:
 *
 *     min 1/2 |f|_K^2 + C sum_{labeled} (1 - y_i f(x_i))_+
 *                     + C* sum_{unlabeled} (1 - y*_j f(x_j))_+
 *
 * with f = sum_i alpha_i k(x_i, .) + b over all n points.  C = 1/(2 gamma_A l)
 * is the SVM's cost in the toolkit's convention.  Joachims' local search:
 *  1. train the SVM on the labeled points; give the r u unlabeled points
 *     with the largest f the label +1, the others -1;
 *  2. C*_- = 1e-5, C*_+ = 1e-5 num+/(u - num+) (costs in the ratio of the
 *     two classes' sizes); then repeat: retrain on all n points with costs
 *     C (labeled), C*_+ and C*_- (unlabeled by their y*); while a positive
 *     m and a negative j, both unlabeled, have slacks xi_m, xi_j > 0 and
 *     xi_m + xi_j > 2, swap their labels and retrain; stop once both costs
 *     have reached C*, else double them (capped at C*).
 * Joachims' loop exits right after the last doubling; here the last pass
 * trains at C* itself, so the returned f is the C* solution and no pair
 * violates the switching condition for it.  Each switch keeps num+ fixed,
 * so the positive fraction stays r.  The pair switched is the positive and
 * the negative with the largest slacks (deterministic).  Retraining starts
 * from the previous dual solution (warm start): raising costs keeps it
 * feasible, and the switched pair's duals are reset to keep
 * sum beta_i y_i = 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

typedef struct {
	size_t idx;
	double f;
} ranked;

static int by_score_desc(const void *pa, const void *pb)
{
	const ranked *a = pa, *b = pb;
	if (a->f != b->f)
		return a->f > b->f ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);  /* ties: lower index first */
}

/* f = K (y .* beta) + b on all n rows; K is n x n column-major. */
static void scores(const double *K, size_t n, const double *y,
		   const double *beta, const size_t *on, size_t m, double b,
		   double *f)
{
	size_t i, r;
	for (i = 0; i < n; i++)
		f[i] = b;
	for (r = 0; r < m; r++) {
		size_t j = on ? on[r] : r;
		double c = y[j] * beta[r];
		const double *col = K + j * n;
		if (c == 0.0)
			continue;
		for (i = 0; i < n; i++)
			f[i] += c * col[i];
	}
}

lsv_status lsv_tsvm_binary(const double *K, size_t n, const size_t *lab,
			   size_t l, const double *ylab,
			   const lsv_train_param *p,
			   const lsv_train_progress *progress, int fn,
			   double *alpha, double *bias, double *ystar,
			   long *switches, int *capped, lsv_error *err)
{
	double C = 1.0 / (2.0 * p->gamma_A * (double)l);
	double Cstar = p->tsvm_cstar > 0.0 ? p->tsvm_cstar : C;
	double *Q = NULL, *beta = NULL, *box = NULL, *f = NULL, *y = NULL;
	double cneg, cpos, rho, r;
	size_t *unl = NULL, u = n - l, i, j, npos, nlabpos = 0;
	unsigned char *is_lab = NULL;
	ranked *rk = NULL;
	lsv_status st = LSV_OK;

	*switches = 0;
	*capped = 0;
	y = malloc(n * sizeof *y);
	beta = malloc(n * sizeof *beta);
	box = malloc(n * sizeof *box);
	f = malloc(n * sizeof *f);
	is_lab = calloc(n, 1);
	unl = malloc((u ? u : 1) * sizeof *unl);
	rk = malloc((u ? u : 1) * sizeof *rk);
	Q = malloc(n * n * sizeof *Q);
	if (!y || !beta || !box || !f || !is_lab || !unl || !rk || !Q) {
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the TSVM (%zu bytes)",
			      n * n * sizeof *Q);
		goto done;
	}

	/* 1. The SVM on the labeled points (Q over them only). */
	for (i = 0; i < l; i++) {
		is_lab[lab[i]] = 1;
		y[lab[i]] = ylab[i];
		nlabpos += ylab[i] > 0;
		box[i] = C;
		for (j = 0; j < l; j++)
			Q[j + i * l] = ylab[j] * ylab[i] * K[lab[j] + lab[i] * n];
	}
	st = lsv_smo(Q, ylab, box, l, p->eps, p->max_iter, 0, beta, &rho, NULL,
		     err);
	if (st != LSV_OK)
		goto done;
	scores(K, n, y, beta, lab, l, -rho, f);
	if (u == 0) {  /* nothing to transduce: the SVM itself */
		memset(alpha, 0, n * sizeof *alpha);
		for (i = 0; i < l; i++)
			alpha[lab[i]] = ylab[i] * beta[i];
		*bias = 0.0 - rho;
		for (i = 0; i < n; i++)
			ystar[i] = y[i];
		goto done;
	}

	/* The r u unlabeled points with the largest f start positive. */
	r = p->tsvm_r > 0.0 ? p->tsvm_r : (double)nlabpos / (double)l;
	for (i = 0, j = 0; i < n; i++)
		if (!is_lab[i]) {
			unl[j] = i;
			rk[j].idx = i;
			rk[j].f = f[i];
			j++;
		}
	qsort(rk, u, sizeof *rk, by_score_desc);
	npos = (size_t)floor(r * (double)u + 0.5);
	for (j = 0; j < u; j++)
		y[rk[j].idx] = j < npos ? 1.0 : -1.0;

	/* 2. All n points: Q = Y K Y, annealed costs on the unlabeled. */
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			Q[i + j * n] = y[i] * y[j] * K[i + j * n];
	cneg = fmin(1e-5, Cstar);
	cpos = npos < u ? fmin(1e-5 * (double)npos / (double)(u - npos), Cstar)
			: cneg;
	if (cpos <= 0.0)
		cpos = cneg;
	memset(beta, 0, n * sizeof *beta);
	for (;;) {
		int warm = 0;
		for (i = 0; i < n; i++)
			box[i] = is_lab[i] ? C : y[i] > 0 ? cpos : cneg;
		for (;;) {
			long m_best = -1, j_best = -1;
			double xm = 0.0, xj = 0.0;
			st = lsv_smo(Q, y, box, n, p->eps, p->max_iter, warm, beta,
				     &rho, NULL, err);
			if (st != LSV_OK)
				goto done;
			warm = 1;
			scores(K, n, y, beta, NULL, n, -rho, f);
			for (j = 0; j < u; j++) {
				size_t t = unl[j];
				double xi = 1.0 - y[t] * f[t];
				if (xi <= 0.0)
					continue;
				if (y[t] > 0 && xi > xm) {
					xm = xi;
					m_best = (long)t;
				} else if (y[t] < 0 && xi > xj) {
					xj = xi;
					j_best = (long)t;
				}
			}
			if (m_best < 0 || j_best < 0 || xm + xj <= 2.0)
				break;
			if (p->tsvm_max_switches > 0 &&
			    *switches >= p->tsvm_max_switches) {
				*capped = 1;
				break;
			}
			/* Swap the pair and flip their rows and columns of Q.
			 * Their duals are reset so that sum beta_i y_i = 0 still
			 * holds: with d = beta_a - beta_b (a was +, b was -) the
			 * new pair needs beta_b' - beta_a' = d, and 0 and |d| fit
			 * the new boxes since |d| <= max(beta_a, beta_b). */
			{
				size_t a = (size_t)m_best, b = (size_t)j_best;
				double d = beta[a] - beta[b];
				y[a] = -y[a];
				y[b] = -y[b];
				for (i = 0; i < n; i++) {
					Q[i + a * n] = -Q[i + a * n];
					Q[a + i * n] = -Q[a + i * n];
					Q[i + b * n] = -Q[i + b * n];
					Q[b + i * n] = -Q[b + i * n];
				}
				beta[a] = d >= 0.0 ? 0.0 : -d;
				beta[b] = d >= 0.0 ? d : 0.0;
				box[a] = y[a] > 0 ? cpos : cneg;
				box[b] = y[b] > 0 ? cpos : cneg;
			}
			(*switches)++;
		}
		if (progress != NULL && progress->tsvm != NULL)
			progress->tsvm(progress->ctx, fn, cneg, cpos, *switches);
		if (cneg >= Cstar && cpos >= Cstar)
			break;
		cneg = fmin(2.0 * cneg, Cstar);
		cpos = fmin(2.0 * cpos, Cstar);
	}
	for (i = 0; i < n; i++) {
		alpha[i] = y[i] * beta[i];
		ystar[i] = y[i];
	}
	*bias = 0.0 - rho;
done:
	free(Q);
	free(beta);
	free(box);
	free(f);
	free(y);
	free(is_lab);
	free(unl);
	free(rk);
	return st;
}

/* The TSVM as a row of the method table: one binary problem per
 * one-vs-rest function. */
lsv_status lsv_fit_tsvm(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, i;
	double *a = malloc(n * sizeof *a), *ys = malloc(n * sizeof *ys);
	lsv_status st = LSV_OK;
	int c;

	(void)out;
	F->ystar = malloc(n * (size_t)F->nr_fn * sizeof *F->ystar);
	if (a == NULL || ys == NULL || F->ystar == NULL) {
		free(a);
		free(ys);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the TSVM");
	}
	for (c = 0; c < F->nr_fn && st == LSV_OK; c++) {
		long sw = 0;
		int capped = 0;
		/* r = 0: each problem takes its own labeled ratio */
		st = lsv_tsvm_binary(F->K, n, F->lab, F->l, F->Y + (size_t)c * F->l,
				     F->p, F->progress, c, a, &F->bias[c], ys, &sw,
				     &capped, F->err);
		if (st != LSV_OK)
			break;
		for (i = 0; i < n; i++) {
			F->alpha[i + (size_t)c * n] = a[i];
			F->ystar[i * (size_t)F->nr_fn + (size_t)c] = ys[i];
		}
		F->report->switches += sw;
		F->report->switch_capped |= capped;
	}
	free(a);
	free(ys);
	return st;
}
