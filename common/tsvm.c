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

/* The working arrays of one binary TSVM over n points, l of them labeled:
 * the vectors of the dual (y, beta, box: y*, the duals and their costs C_i;
 * f the outputs), all indexed by point. */
typedef struct {
	size_t n, l, u;         /* points, labeled, unlabeled (u = n - l) */
	double *Q;              /* Y K Y, n x n (l x l in step 1) */
	double *y, *beta, *box, *f;
	unsigned char *is_lab;  /* is point i labeled? */
	size_t *unl;            /* the unlabeled points, in order */
	ranked *rk;             /* the unlabeled points by f, for step 1 */
} tsvm_work;

static void tsvm_free(tsvm_work *W)
{
	free(W->Q);
	free(W->beta);
	free(W->box);
	free(W->f);
	free(W->y);
	free(W->is_lab);
	free(W->unl);
	free(W->rk);
}

/* Allocate W's arrays for n points, l labeled; LSV_ENOMEM if any fails
 * (the caller frees W either way). */
static lsv_status tsvm_alloc(tsvm_work *W, size_t n, size_t l, lsv_error *err)
{
	size_t u = n - l;

	W->n = n;
	W->l = l;
	W->u = u;
	W->y = malloc(n * sizeof *W->y);
	W->beta = malloc(n * sizeof *W->beta);
	W->box = malloc(n * sizeof *W->box);
	W->f = malloc(n * sizeof *W->f);
	W->is_lab = calloc(n, 1);
	W->unl = malloc((u ? u : 1) * sizeof *W->unl);
	W->rk = malloc((u ? u : 1) * sizeof *W->rk);
	W->Q = malloc(n * n * sizeof *W->Q);
	if (!W->y || !W->beta || !W->box || !W->f || !W->is_lab || !W->unl ||
	    !W->rk || !W->Q)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the TSVM (%zu bytes)",
				n * n * sizeof *W->Q);
	return LSV_OK;
}

/*
 * Step 1: the SVM on the labeled points alone, Q_ij = y_i y_j K(x_i, x_j)
 * over them and cost C each; then f = K (y .* beta) - rho on all n points.
 * Marks the labeled points in is_lab and their labels in y; *nlabpos gets
 * the number of positive labels.
 */
static lsv_status tsvm_labeled_svm(tsvm_work *W, const double *K,
				   const size_t *lab, const double *ylab,
				   double C, const lsv_train_param *p,
				   double *rho, size_t *nlabpos, lsv_error *err)
{
	size_t n = W->n, l = W->l, i, j;
	lsv_status st;

	*nlabpos = 0;
	for (i = 0; i < l; i++) {
		W->is_lab[lab[i]] = 1;
		W->y[lab[i]] = ylab[i];
		*nlabpos += ylab[i] > 0;
		W->box[i] = C;
		for (j = 0; j < l; j++)
			W->Q[j + i * l] = ylab[j] * ylab[i] * K[lab[j] + lab[i] * n];
	}
	st = lsv_smo(W->Q, ylab, W->box, l, p->eps, p->max_iter, 0, W->beta,
		     rho, NULL, err);
	if (st == LSV_OK)
		scores(K, n, W->y, W->beta, lab, l, -*rho, W->f);
	return st;
}

/* With nothing to transduce (u = 0) the result is step 1's SVM itself. */
static void tsvm_svm_result(const tsvm_work *W, const size_t *lab,
			    const double *ylab, double rho, double *alpha,
			    double *bias, double *ystar)
{
	size_t i;

	memset(alpha, 0, W->n * sizeof *alpha);
	for (i = 0; i < W->l; i++)
		alpha[lab[i]] = ylab[i] * W->beta[i];
	*bias = 0.0 - rho;
	for (i = 0; i < W->n; i++)
		ystar[i] = W->y[i];
}

/*
 * The starting labels y*: the floor(r u + 1/2) unlabeled points with the
 * largest f (ties: lower index first) +1, the others -1.  Also lists the
 * unlabeled points in unl.  Returns the number made positive.
 */
static size_t tsvm_initial_labels(tsvm_work *W, double r)
{
	size_t i, j, npos;

	for (i = 0, j = 0; i < W->n; i++)
		if (!W->is_lab[i]) {
			W->unl[j] = i;
			W->rk[j].idx = i;
			W->rk[j].f = W->f[i];
			j++;
		}
	qsort(W->rk, W->u, sizeof *W->rk, by_score_desc);
	npos = (size_t)floor(r * (double)W->u + 0.5);
	for (j = 0; j < W->u; j++)
		W->y[W->rk[j].idx] = j < npos ? 1.0 : -1.0;
	return npos;
}

/* Step 2's Q over all n points: Q_ij = y_i y_j K_ij with the labels y*. */
static void tsvm_full_Q(tsvm_work *W, const double *K)
{
	size_t n = W->n, i, j;

	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			W->Q[i + j * n] = W->y[i] * W->y[j] * K[i + j * n];
}

/*
 * The starting costs of the unlabeled points: C*_- = 1e-5 and
 * C*_+ = 1e-5 num+/(u - num+), so that the two classes weigh in the ratio
 * of their sizes; both capped at C*, and C*_+ = C*_- when every unlabeled
 * point is positive or the ratio is 0.
 */
static void tsvm_initial_costs(size_t npos, size_t u, double Cstar,
			       double *cneg, double *cpos)
{
	*cneg = fmin(1e-5, Cstar);
	*cpos = npos < u ? fmin(1e-5 * (double)npos / (double)(u - npos), Cstar)
			 : *cneg;
	if (*cpos <= 0.0)
		*cpos = *cneg;
}

/*
 * The pair to switch: the positive m and the negative j, both unlabeled,
 * with the largest slacks xi = 1 - y* f > 0.  Returns 1 if both exist and
 * xi_m + xi_j > 2 (Joachims' switching condition), with them in *m, *j.
 */
static int tsvm_worst_pair(const tsvm_work *W, size_t *m, size_t *j)
{
	long m_best = -1, j_best = -1;
	double xm = 0.0, xj = 0.0;
	size_t k;

	for (k = 0; k < W->u; k++) {
		size_t t = W->unl[k];
		double xi = 1.0 - W->y[t] * W->f[t];
		if (xi <= 0.0)
			continue;
		if (W->y[t] > 0 && xi > xm) {
			xm = xi;
			m_best = (long)t;
		} else if (W->y[t] < 0 && xi > xj) {
			xj = xi;
			j_best = (long)t;
		}
	}
	if (m_best < 0 || j_best < 0 || xm + xj <= 2.0)
		return 0;
	*m = (size_t)m_best;
	*j = (size_t)j_best;
	return 1;
}

/*
 * Swap the labels of a (was +) and b (was -) and flip their rows and
 * columns of Q.  Their duals are reset so that sum beta_i y_i = 0 still
 * holds: with d = beta_a - beta_b the new pair needs beta_b' - beta_a' = d,
 * and 0 and |d| fit the new boxes since |d| <= max(beta_a, beta_b).
 */
static void tsvm_switch(tsvm_work *W, size_t a, size_t b, double cneg,
			double cpos)
{
	size_t n = W->n, i;
	double *Q = W->Q, d = W->beta[a] - W->beta[b];

	W->y[a] = -W->y[a];
	W->y[b] = -W->y[b];
	for (i = 0; i < n; i++) {
		Q[i + a * n] = -Q[i + a * n];
		Q[a + i * n] = -Q[a + i * n];
		Q[i + b * n] = -Q[i + b * n];
		Q[b + i * n] = -Q[b + i * n];
	}
	W->beta[a] = d >= 0.0 ? 0.0 : -d;
	W->beta[b] = d >= 0.0 ? d : 0.0;
	W->box[a] = W->y[a] > 0 ? cpos : cneg;
	W->box[b] = W->y[b] > 0 ? cpos : cneg;
}

/*
 * One cost level of step 2: costs C (labeled), cpos and cneg (unlabeled
 * by y*); train on all n points, then switch the worst pair and retrain
 * (from the previous duals) until no pair violates the condition or
 * -tsvm_max_switches is reached (*capped = 1).  *rho and f are the last
 * training's.
 */
static lsv_status tsvm_train_at_costs(tsvm_work *W, const double *K,
				      const lsv_train_param *p, double C,
				      double cneg, double cpos, double *rho,
				      long *switches, int *capped,
				      lsv_error *err)
{
	size_t n = W->n, i, a, b;
	int warm = 0;
	lsv_status st;

	for (i = 0; i < n; i++)
		W->box[i] = W->is_lab[i] ? C : W->y[i] > 0 ? cpos : cneg;
	for (;;) {
		st = lsv_smo(W->Q, W->y, W->box, n, p->eps, p->max_iter, warm,
			     W->beta, rho, NULL, err);
		if (st != LSV_OK)
			return st;
		warm = 1;
		scores(K, n, W->y, W->beta, NULL, n, -*rho, W->f);
		if (!tsvm_worst_pair(W, &a, &b))
			return LSV_OK;
		if (p->tsvm_max_switches > 0 && *switches >= p->tsvm_max_switches) {
			*capped = 1;
			return LSV_OK;
		}
		tsvm_switch(W, a, b, cneg, cpos);
		(*switches)++;
	}
}

/*
 * Step 2 from the starting labels: Q over all n points, beta = 0, then
 * the cost levels from tsvm_initial_costs, doubled (capped at C*) after
 * each until both have been trained at C*.  Reports each level to
 * progress.
 */
static lsv_status tsvm_anneal(tsvm_work *W, const double *K,
			      const lsv_train_param *p,
			      const lsv_train_progress *progress, int fn,
			      double C, double Cstar, size_t npos, double *rho,
			      long *switches, int *capped, lsv_error *err)
{
	double cneg, cpos;
	lsv_status st;

	tsvm_full_Q(W, K);
	tsvm_initial_costs(npos, W->u, Cstar, &cneg, &cpos);
	memset(W->beta, 0, W->n * sizeof *W->beta);
	for (;;) {
		st = tsvm_train_at_costs(W, K, p, C, cneg, cpos, rho, switches,
					 capped, err);
		if (st != LSV_OK)
			return st;
		if (progress != NULL && progress->tsvm != NULL)
			progress->tsvm(progress->ctx, fn, cneg, cpos, *switches);
		if (cneg >= Cstar && cpos >= Cstar)
			return LSV_OK;
		cneg = fmin(2.0 * cneg, Cstar);
		cpos = fmin(2.0 * cpos, Cstar);
	}
}

/*
 * lsv_tsvm_binary: the TSVM above for one binary problem on the n x n
 * kernel K (column-major), labeled points lab[0..l) with labels ylab = +-1:
 * f = sum_i alpha_i k(x_i, .) + *bias, the final labels y* in ystar (the
 * given ones on labeled points), the number of switches made, and
 * *capped = 1 if -tsvm_max_switches cut a cost level short.  C* is
 * p->tsvm_cstar (default C), r p->tsvm_r (default the labeled ratio).
 */
lsv_status lsv_tsvm_binary(const double *K, size_t n, const size_t *lab,
			   size_t l, const double *ylab,
			   const lsv_train_param *p,
			   const lsv_train_progress *progress, int fn,
			   double *alpha, double *bias, double *ystar,
			   long *switches, int *capped, lsv_error *err)
{
	double C = 1.0 / (2.0 * p->gamma_A * (double)l);
	double Cstar = p->tsvm_cstar > 0.0 ? p->tsvm_cstar : C;
	double rho, r;
	size_t i, npos, nlabpos;
	tsvm_work W = { 0 };
	lsv_status st;

	*switches = 0;
	*capped = 0;
	if ((st = tsvm_alloc(&W, n, l, err)) != LSV_OK ||
	    (st = tsvm_labeled_svm(&W, K, lab, ylab, C, p, &rho, &nlabpos,
				   err)) != LSV_OK)
		goto done;
	if (W.u == 0) {
		tsvm_svm_result(&W, lab, ylab, rho, alpha, bias, ystar);
		goto done;
	}
	r = p->tsvm_r > 0.0 ? p->tsvm_r : (double)nlabpos / (double)l;
	npos = tsvm_initial_labels(&W, r);
	st = tsvm_anneal(&W, K, p, progress, fn, C, Cstar, npos, &rho, switches,
			 capped, err);
	if (st != LSV_OK)
		goto done;
	for (i = 0; i < n; i++) {
		alpha[i] = W.y[i] * W.beta[i];
		ystar[i] = W.y[i];
	}
	*bias = 0.0 - rho;
done:
	tsvm_free(&W);
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
