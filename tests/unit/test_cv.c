/* Cross validation of settings (common/cv.c): the shared factorization
 * (the deformed kernel) against training every fold, and the choice of
 * the best setting. */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"
#include "solver.h"
#include "unit.h"

/* Two moons of n points with every stride-th row labeled, the others
 * unlabeled (marker 0); with three classes, the upper moon's left half
 * becomes class 2. */
static lsv_data *moons(size_t n, size_t stride, int three)
{
	lsv_data *x = NULL;
	lsv_error e;
	size_t i;

	if (lsv_synth(LSV_SYNTH_MOONS, n, 0.1, 7, &x, &e) != LSV_OK)
		return NULL;
	x->l = 0;
	x->unlabeled = 0.0;
	for (i = 0; i < n; i++) {
		if (three && x->y[i] == 1.0 && x->val[x->rowptr[i]] < 0.0)
			x->y[i] = 2.0;
		if (i % stride != 0)
			x->y[i] = 0.0;
		else
			x->l++;
	}
	return x;
}

/* Scores of both ways agree: the losses to 1e-6 relative, the accuracy
 * exactly; and the shared way was taken. */
static void shared_matches_retraining(lsv_solver solver, int three,
				      lsv_balance balance)
{
	lsv_data *x = moons(150, 5, three);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p[6];
	lsv_cv_score a[6], b[6];
	const double gA[] = {1e-4, 1e-2}, gI[] = {0.0, 1e-2, 1.0};
	int *fold = malloc(150 * sizeof *fold), shared = -1, k;
	lsv_error e;

	CHECK(x != NULL && fold != NULL);
	if (x == NULL || fold == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build(x, &gp, &g, NULL, &e) == LSV_OK);
	CHECK(lsv_cv_folds(x, 3, 11, fold, &e) == LSV_OK);
	for (k = 0; k < 6; k++) {
		lsv_train_param_default(&p[k]);
		p[k].solver = solver;
		p[k].kernel.gamma = 2.0;
		p[k].eps = 1e-10;  /* the SVM's dual solved tightly */
		p[k].gamma_A = gA[k / 3];
		p[k].gamma_I = gI[k % 3];
		p[k].balance = balance;
		p[k].balance_r = 0.3;
	}
	CHECK(lsv_cv_settings(x, g, p, 6, NULL, fold, 3, LSV_CV_SHARE, NULL, a,
			      &shared, &e) == LSV_OK);
	CHECK(shared == 1);
	CHECK(lsv_cv_settings(x, g, p, 6, NULL, fold, 3, LSV_CV_RETRAIN, NULL,
			      b, &shared, &e) == LSV_OK);
	CHECK(shared == 0);
	for (k = 0; k < 6; k++) {
		CHECK(fabs(a[k].loss - b[k].loss) <= 1e-6 * b[k].loss);
		CHECK(a[k].correct == b[k].correct);
		CHECK(a[k].loss > 0.0 && a[k].correct <= x->l);
	}
	free(fold);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void laprls_shared_equals_retraining(void)
{
	shared_matches_retraining(LSV_SOLVER_LAPRLS, 0, LSV_BALANCE_NONE);
}

static void lapsvm_shared_equals_retraining(void)
{
	shared_matches_retraining(LSV_SOLVER_LAPSVM, 0, LSV_BALANCE_NONE);
}

static void three_classes_shared_equals_retraining(void)
{
	shared_matches_retraining(LSV_SOLVER_LAPSVM, 1, LSV_BALANCE_NONE);
	shared_matches_retraining(LSV_SOLVER_LAPRLS, 1, LSV_BALANCE_NONE);
}

/* -p: each fold's bias shifted on the rows outside its training set, as
 * a training does (the labeled ratio, or a given fraction). */
static void balanced_shared_equals_retraining(void)
{
	shared_matches_retraining(LSV_SOLVER_LAPRLS, 0, LSV_BALANCE_LABELED);
	shared_matches_retraining(LSV_SOLVER_LAPSVM, 0, LSV_BALANCE_GIVEN);
	shared_matches_retraining(LSV_SOLVER_LAPRLS, 1, LSV_BALANCE_LABELED);
}

/* An iterative method, or settings that differ in more than gamma_A and
 * gamma_I, train every fold. */
static void unshareable_settings_retrain(void)
{
	lsv_data *x = moons(60, 3, 0);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p[2];
	lsv_cv_score s[2];
	int fold[60], shared = -1;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build(x, &gp, &g, NULL, &e) == LSV_OK);
	CHECK(lsv_cv_folds(x, 2, 1, fold, &e) == LSV_OK);
	lsv_train_param_default(&p[0]);
	p[0].kernel.gamma = 1.0;
	p[1] = p[0];
	p[1].method = LSV_METHOD_PCG;
	p[0].method = LSV_METHOD_PCG;
	CHECK(lsv_cv_settings(x, g, p, 2, NULL, fold, 2, LSV_CV_SHARE, NULL, s,
			      &shared, &e) == LSV_OK);
	CHECK(shared == 0);
	p[0].method = p[1].method = LSV_METHOD_DIRECT;
	p[1].power = 2;
	CHECK(lsv_cv_settings(x, g, p, 2, NULL, fold, 2, LSV_CV_SHARE, NULL, s,
			      &shared, &e) == LSV_OK);
	CHECK(shared == 0);
	p[1].power = 1;
	CHECK(lsv_cv_settings(x, g, p, 2, NULL, fold, 2, LSV_CV_SHARE, NULL, s,
			      &shared, &e) == LSV_OK);
	CHECK(shared == 1);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The lowest loss; a tie (1e-12 relative) to larger gamma_A, then smaller
 * gamma_I, then the first. */
static void best_prefers_stronger_regularization(void)
{
	lsv_train_param p[4];
	lsv_cv_score s[4] = {{0.5, 0, 0}, {0.3, 0, 0}, {0.3 * (1 + 1e-13), 0, 0},
			     {0.3, 0, 0}};
	int k;

	for (k = 0; k < 4; k++)
		lsv_train_param_default(&p[k]);
	p[1].gamma_A = 1e-3, p[1].gamma_I = 1.0;
	p[2].gamma_A = 1e-2, p[2].gamma_I = 1.0;
	p[3].gamma_A = 1e-2, p[3].gamma_I = 0.1;
	CHECK(lsv_cv_best(s, p, 4) == 3);
	CHECK(lsv_cv_best(s, p, 3) == 2);
	CHECK(lsv_cv_best(s, p, 2) == 1);
	s[1].loss = 0.2;
	CHECK(lsv_cv_best(s, p, 4) == 1);
	p[3] = p[2];
	s[1].loss = 0.3;
	CHECK(lsv_cv_best(s, p, 4) == 2);
}

/* Boosting's fold scores by hand: fold f trained on x with its held-out
 * rows unlabeled and cut from the graph (cut != 0; else on g as it is),
 * then its held-out rows' balanced error and balanced deviance
 * log(1 + exp(-2 y F)) from the model's decision values. */
static void boost_by_hand(const lsv_data *x, const lsv_graph *g,
			  const lsv_train_param *p, const int *fold, long folds,
			  int cut, double *err_out, double *dev_out)
{
	size_t n = x->n, i, q, nnz;
	double *y = malloc(n * sizeof *y), *F = malloc(n * sizeof *F);
	double err[2] = {0, 0}, dev[2] = {0, 0}, cnt[2] = {0, 0};
	lsv_graph h = *g;
	lsv_error e;
	long f;

	h.rowptr = malloc((n + 1) * sizeof *h.rowptr);
	h.col = malloc((g->nnz + 1) * sizeof *h.col);
	h.w = malloc((g->nnz + 1) * sizeof *h.w);
	CHECK(y && F && h.rowptr && h.col && h.w);
	for (f = 0; f < folds; f++) {
		lsv_data xf = *x;
		lsv_model *m = NULL;
		lsv_train_report rep;

		for (i = 0, xf.l = 0; i < n; i++) {
			y[i] = fold[i] == f ? 0.0 : x->y[i];
			xf.l += y[i] != 0.0;
		}
		xf.y = y;
		for (i = 0, nnz = 0; i < n; i++) {
			h.rowptr[i] = nnz;
			for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++)
				if (!cut || (fold[i] != f && fold[g->col[q]] != f)) {
					h.col[nnz] = g->col[q];
					h.w[nnz++] = g->w[q];
				}
		}
		h.rowptr[n] = h.nnz = nnz;
		CHECK(lsv_train(&xf, &h, p, NULL, &m, &rep, &e) == LSV_OK);
		CHECK(lsv_model_decision(m, x, F, &e) == LSV_OK);
		for (i = 0; i < n; i++)
			if (fold[i] == f) {
				/* y = +1 for the model's first class */
				double yy = x->y[i] == m->labels[0] ? 1.0 : -1.0;
				int c = x->y[i] > 0.0;
				err[c] += yy * F[i] <= 0.0;
				dev[c] += log(1.0 + exp(-2.0 * yy * F[i]));
				cnt[c]++;
			}
		lsv_train_report_free(&rep);
		lsv_model_free(m);
	}
	*err_out = (err[0] / cnt[0] + err[1] / cnt[1]) / 2.0;
	*dev_out = (dev[0] / cnt[0] + dev[1] / cnt[1]) / 2.0;
	free(h.rowptr);
	free(h.col);
	free(h.w);
	free(y);
	free(F);
}

/* Boosting is scored by the class-balanced held-out error, its deviance
 * the tie breaker, each fold trained with its held-out rows cut from the
 * graph (new points); leaving them in gives other scores. */
static void boost_scored_by_error_then_deviance(void)
{
	lsv_data *x = moons(90, 1, 0);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p[2];
	lsv_cv_score s[2];
	int fold[90], shared = -1, k;
	double er, dv, er_in, dv_in;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build(x, &gp, &g, NULL, &e) == LSV_OK);
	CHECK(lsv_cv_folds(x, 3, 5, fold, &e) == LSV_OK);
	for (k = 0; k < 2; k++) {
		lsv_train_param_default(&p[k]);
		p[k].solver = LSV_SOLVER_BOOST;
		p[k].boost_rounds = 30;
		p[k].boost_tol = 0.0;
		p[k].gamma_I = k == 0 ? 0.0 : 5.0;
	}
	CHECK(lsv_cv_settings(x, g, p, 2, NULL, fold, 3, LSV_CV_SHARE, NULL, s,
			      &shared, &e) == LSV_OK);
	CHECK(shared == 0);
	for (k = 0; k < 2; k++) {
		boost_by_hand(x, g, &p[k], fold, 3, 1, &er, &dv);
		CHECK(fabs(s[k].loss - er) <= 1e-12);
		CHECK(fabs(s[k].tie - dv) <= 1e-9 * dv);
		CHECK(dv > 0.0);
	}
	/* with the held-out rows left in the graph the scores differ */
	boost_by_hand(x, g, &p[1], fold, 3, 0, &er_in, &dv_in);
	CHECK(fabs(dv_in - s[1].tie) > 1e-6 * s[1].tie);
	/* equal errors: the lower deviance wins over the regularization */
	s[0].loss = s[1].loss = 0.1;
	s[0].tie = 0.5;
	s[1].tie = 0.4;
	p[0].gamma_A = p[1].gamma_A;
	p[1].gamma_I = 10.0;  /* would lose the regularization tie-break */
	CHECK(lsv_cv_best(s, p, 2) == 1);
	s[1].tie = 0.6;
	CHECK(lsv_cv_best(s, p, 2) == 0);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* lsv_fit_classes: first appearance (+1 before -1), or the order given,
 * the classes it does not name after in theirs; a class of the order
 * absent from y is skipped (a fold sees the whole data's order). */
static int classes_are(const double *y, size_t n, const double *order,
		       int no, const double *want, int nw)
{
	double *lab = NULL;
	int nr = -1, ok, c;

	ok = lsv_fit_classes(y, n, order, no, &lab, &nr, NULL) == LSV_OK &&
	     nr == nw;
	for (c = 0; ok && c < nw; c++)
		ok = lab[c] == want[c];
	free(lab);
	return ok;
}

static void fold_classes_follow_the_order_given(void)
{
	const double y[] = {3, 7, 3, 5}, pm[] = {-1, 1, -1};
	const double o1[] = {7, 3, 5}, o2[] = {5}, o3[] = {9, 7}, o4[] = {-1, 1};
	const double w0[] = {3, 7, 5}, w1[] = {7, 3, 5}, w2[] = {5, 3, 7};
	const double w4[] = {1, -1}, w5[] = {-1, 1};

	CHECK(classes_are(y, 4, NULL, 0, w0, 3));
	CHECK(classes_are(y, 4, o1, 3, w1, 3));
	CHECK(classes_are(y, 4, o2, 1, w2, 3));
	CHECK(classes_are(y, 4, o3, 2, w1, 3));
	CHECK(classes_are(pm, 3, NULL, 0, w4, 2));
	CHECK(classes_are(pm, 3, o4, 2, w5, 2));
}

const unit_case cv_cases[] = {
	{"cv: fold classes follow the order given",
	 fold_classes_follow_the_order_given},
	{"cv: laprls shared equals retraining", laprls_shared_equals_retraining},
	{"cv: lapsvm shared equals retraining", lapsvm_shared_equals_retraining},
	{"cv: three classes shared equals retraining",
	 three_classes_shared_equals_retraining},
	{"cv: balanced shared equals retraining",
	 balanced_shared_equals_retraining},
	{"cv: unshareable settings retrain", unshareable_settings_retrain},
	{"cv: best prefers stronger regularization",
	 best_prefers_stronger_regularization},
	{"cv: boost scored by error, then deviance",
	 boost_scored_by_error_then_deviance},
	{NULL, NULL},
};
