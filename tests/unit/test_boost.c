/*
 * test_boost.c -- ManifoldBoost (common/boost.c): the cost's gradient
 * against central finite differences, plain logistic boosting at
 * gamma_M = 0, the graph term's effect, determinism, the model file's
 * trees (round trip, and every kind of corrupted tree refused), and the
 * refusals of training.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "solver.h"
#include "unit.h"

static lsv_data *data_of(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_data *x = NULL;
	lsv_error e;

	if (fp == NULL)
		return NULL;
	if (lsv_data_read(fp, "d", 0.0, &x, &e) != LSV_OK)
		x = NULL;
	fclose(fp);
	return x;
}

static lsv_graph *graph_of(const char *text, size_t n)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_graph *g = NULL;
	lsv_error e;

	if (fp == NULL)
		return NULL;
	if (lsv_graph_read(fp, "g", n, &g, &e) != LSV_OK)
		g = NULL;
	fclose(fp);
	return g;
}

/* A path of 6 rows, rows 1 and 6 labeled, the rest not. */
static const char chain6[] =
	"1 2:1\n2 1:1 3:2\n3 2:2 4:0.5\n4 3:0.5 5:1\n5 4:1 6:3\n6 5:3\n";

/* dV/dF_i against (V(F + h e_i) - V(F - h e_i)) / 2h, both Laplacians,
 * p = 1 and 2, at a point with labeled rows on both sides of the margin. */
static void boost_gradient_matches_finite_differences(void)
{
	lsv_graph *g = graph_of(chain6, 6);
	size_t lab[3] = {0, 2, 5}, i;
	double y[3] = {1, -1, -1}, F[6] = {0.3, -1.2, 0.8, 0.1, -0.4, 2.0};
	double grad[6], lo, ro, lm, rm;
	int normalized, power;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (normalized = 0; normalized <= 1; normalized++)
		for (power = 1; power <= 2; power++) {
			lsv_lapop L;
			double c = 0.37, worst = 0.0;
			CHECK(lsv_lapop_init(&L, g, normalized, power, &e) == LSV_OK);
			CHECK(lsv_boost_cost(&L, c, 6, lab, y, 3, F, grad, &lo, &ro,
					     &e) == LSV_OK);
			for (i = 0; i < 6; i++) {
				double h = 1e-5, Fp[6], Fm[6], fd;
				memcpy(Fp, F, sizeof F);
				memcpy(Fm, F, sizeof F);
				Fp[i] += h;
				Fm[i] -= h;
				lsv_boost_cost(&L, c, 6, lab, y, 3, Fp, NULL, &lm, &rm, &e);
				fd = lm + rm;
				lsv_boost_cost(&L, c, 6, lab, y, 3, Fm, NULL, &lm, &rm, &e);
				fd = (fd - (lm + rm)) / (2 * h);
				worst = fmax(worst, fabs(fd - grad[i]) /
						    (1e-8 + fabs(grad[i])));
			}
			CHECK(worst < 1e-6);
			lsv_lapop_free(&L);
		}
	/* the loss alone, by hand: 1/l log(1 + exp(-2 y F)) */
	CHECK(lsv_boost_cost(NULL, 0.0, 6, lab, y, 3, F, grad, &lo, &ro, &e) ==
	      LSV_OK);
	CHECK(fabs(lo - (log(1 + exp(-0.6)) + log(1 + exp(1.6)) +
			 log(1 + exp(4.0))) / 3) < 1e-14);
	CHECK(ro == 0.0);
	CHECK(fabs(grad[0] - (-2.0 / (1 + exp(0.6))) / 3) < 1e-15);
	CHECK(grad[1] == 0.0);
	lsv_graph_free(g);
}

/* XOR of two features, every row labeled, gamma_M = 0: plain logistic
 * boosting; depth-2 trees separate it, so the training error reaches 0
 * and the cost falls every round; the model predicts its own training
 * rows as training saw them (report->train_f). */
static const char xor_rows[] =
	"1 1:0.1 2:0.2\n1 1:0.9 2:0.8\n1 1:0.2 2:0.1\n1 1:0.8 2:0.95\n"
	"-1 1:0.1 2:0.9\n-1 1:0.9 2:0.1\n-1 1:0.2 2:0.8\n-1 1:0.85 2:0.15\n"
	"1 1:0.3 2:0.3\n-1 1:0.3 2:0.7\n1 1:0.7 2:0.75\n-1 1:0.7 2:0.3\n";

static void costs(void *ctx, long round, double cost, double loss, double reg)
{
	double *v = ctx;
	(void)loss;
	(void)reg;
	if (round < 64)
		v[round] = cost;
}

static void logistic_boosting_separates_xor_at_gamma_zero(void)
{
	lsv_data *x = data_of(xor_rows);
	lsv_train_param p;
	lsv_train_report r;
	lsv_train_progress pr = {NULL, NULL, costs};
	lsv_model *m = NULL;
	lsv_error e;
	double seen[64], *f;
	size_t i, wrong = 0;
	long k;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	pr.ctx = seen;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_BOOST;
	p.gamma_I = 0.0;
	p.boost_depth = 2;
	p.boost_rounds = 40;
	p.boost_tol = 0.0;
	CHECK(lsv_train(x, NULL, &p, &pr, &m, &r, &e) == LSV_OK);
	if (m == NULL) {
		lsv_data_free(x);
		return;
	}
	CHECK(r.boost_rounds == 40 && m->ntrees == 40 && m->sv->n == 0);
	CHECK(fabs(r.boost_cost0 - log(2.0)) < 1e-15);  /* F_0 = 0: 6 and 6 */
	for (k = 2; k <= 40; k++)
		CHECK(seen[k] <= seen[k - 1]);
	f = malloc(x->n * sizeof *f);
	CHECK(f != NULL && lsv_model_decision(m, x, f, &e) == LSV_OK);
	for (i = 0; f != NULL && i < x->n; i++) {
		wrong += lsv_model_label(m, f + i) != x->y[i];
		CHECK(fabs(f[i] - r.train_f[i]) <= 1e-12 * (1 + fabs(f[i])));
	}
	CHECK(wrong == 0);
	free(f);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	lsv_data_free(x);
}

/* On the chain, rows 1 (+1) and 6 (-1) labeled: with a strong graph term
 * (D - W) the unlabeled rows between get values between theirs, falling
 * along the chain, and the same settings give the same model bit for
 * bit. */
static lsv_data *line6(void)
{
	return data_of("1 1:0\n0 1:1\n0 1:2\n0 1:3\n0 1:4\n-1 1:5\n");
}

static void manifold_boost_is_deterministic_and_smooth_on_a_chain(void)
{
	lsv_data *x = line6();
	lsv_graph *g = graph_of(chain6, 6);
	lsv_train_param p;
	lsv_train_report r1, r2;
	lsv_model *m1 = NULL, *m2 = NULL;
	lsv_error e;
	size_t i, t;

	CHECK(x != NULL && g != NULL);
	if (x == NULL || g == NULL)
		goto out;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_BOOST;
	p.gamma_I = 36.0;
	p.normalized = 0;  /* D - W: the harmonic values are monotone in F */
	p.boost_rounds = 200;
	CHECK(lsv_train(x, g, &p, NULL, &m1, &r1, &e) == LSV_OK);
	CHECK(lsv_train(x, g, &p, NULL, &m2, &r2, &e) == LSV_OK);
	if (m1 == NULL || m2 == NULL)
		goto out;
	CHECK(r1.train_f[0] > 0.0 && r1.train_f[5] < 0.0);
	for (i = 0; i + 1 < 6; i++)  /* monotone along the chain */
		CHECK(r1.train_f[i] >= r1.train_f[i + 1] - 1e-12);
	CHECK(m1->ntrees == m2->ntrees && m1->bias[0] == m2->bias[0]);
	for (t = 0; t < m1->ntrees && t < m2->ntrees; t++) {
		const lsv_tree *a = &m1->trees[t], *b = &m2->trees[t];
		int v, same = a->nnodes == b->nnodes;
		for (v = 0; same && v < a->nnodes; v++)
			same = a->node[v].feature == b->node[v].feature &&
			       a->node[v].threshold == b->node[v].threshold &&
			       a->node[v].left == b->node[v].left &&
			       a->node[v].right == b->node[v].right &&
			       a->node[v].value == b->node[v].value;
		CHECK(same);
	}

	lsv_train_report_free(&r1);
	lsv_train_report_free(&r2);
out:
	lsv_model_free(m1);
	lsv_model_free(m2);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void boost_refuses_what_it_cannot_do(void)
{
	lsv_data *same = data_of("1 1:1 2:3\n-1 1:1 2:3\n0 1:1 2:3\n");
	lsv_data *three = data_of("1 1:1\n2 1:2\n3 1:3\n");
	lsv_data *flat = data_of("1 1:1\n-1 1:1\n");
	lsv_data *none = data_of("0 1:1\n0 1:2\n");
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_error e;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_BOOST;
	p.gamma_I = 0.0;
	CHECK(same && three && none);
	if (!same || !three || !none)
		goto out;
	CHECK(lsv_train(same, NULL, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "every feature is constant") != NULL);
	/* three classes train (the multiple logistic), one row each */
	CHECK(lsv_train(three, NULL, &p, NULL, &m, NULL, &e) == LSV_OK);
	CHECK(m != NULL && m->nr_fn == 3);
	lsv_model_free(m);
	m = NULL;
	CHECK(lsv_train(none, NULL, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "no labeled rows") != NULL);
	/* constant features: no tree, but RBFs of one value (f = F_0) */
	CHECK(lsv_train(flat, NULL, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "every feature is constant") != NULL);
	p.boost_learner = LSV_BOOST_RBF;
	p.kernel.gamma = 1.0;
	CHECK(flat != NULL && lsv_train(flat, NULL, &p, NULL, &m, NULL, &e) ==
	      LSV_OK);
	lsv_model_free(m);
	m = NULL;
	p.boost_rbfs = 0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "0 RBFs per round") != NULL);
	p.boost_rbfs = LSV_BOOST_MAX_RBFS + 1;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	p.boost_rbfs = 15;
	p.kernel.type = LSV_KERNEL_LINEAR;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "needs the RBF kernel") != NULL);
	p.kernel.type = LSV_KERNEL_RBF;
	p.boost_learner = 7;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "unknown base learner") != NULL);
	p.boost_learner = LSV_BOOST_TREE;
	p.boost_clusters = 1;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	p.boost_clusters = 2;  /* gamma_I = 0 here: no graph to cluster on */
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "needs gamma_I > 0") != NULL);
	p.boost_clusters = 0;
	p.boost_depth = 0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "tree depth 0") != NULL);
	p.boost_depth = LSV_BOOST_MAX_DEPTH + 1;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	p.boost_depth = 3;
	p.boost_rounds = 0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "boosting rounds 0") != NULL);
	p.boost_rounds = 10;
	p.boost_shrinkage = 0.0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	p.boost_shrinkage = 1.5;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK(m == NULL);
out:
	lsv_data_free(same);
	lsv_data_free(three);
	lsv_data_free(none);
	lsv_data_free(flat);
}

/* ------------------------------------------------------------------ */
/* The model file's trees                                             */
/* ------------------------------------------------------------------ */

static const char boost_head[] =
	"lapsvm_model 1\nsolver boost\nkernel rbf\ndegree 3\ngamma 1\ncoef0 0\n"
	"gamma_A 1\ngamma_I 0\nlaplacian normalized\nlaplacian_power 1\n"
	"eps 0.001\nmax_iter 0\nl 4\nu 0\nunlabeled_marker 0\n"
	"boost_rounds 5\nboost_depth 2\nboost_shrinkage 0.5\nboost_tol 0\n"
	"nr_class 2\nlabels 1 -1\nnr_fn 1\nbias 0.25\n";

static lsv_status read_text(const char *text, lsv_model **m, lsv_error *e)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_status st;
	if (fp == NULL)
		return LSV_EIO;
	st = lsv_model_read(fp, "m", m, e);
	fclose(fp);
	return st;
}

/* a model with the given tree lines (and nr_sv 0) */
static lsv_status read_trees(const char *trees, lsv_model **m, lsv_error *e)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s%snr_sv 0\nSV\n", boost_head, trees);
	return read_text(buf, m, e);
}

static void boost_model_reads_predicts_and_writes_back(void)
{
	/* x1 <= 0.5 ? (x2 <= 1 ? 1 : 2) : -3, then a stump on feature 2 */
	const char *trees =
		"boost_tree 1 5 1 0.5 1 2 0 2 1 3 4 0 0 0 0 0 -3 0 0 0 0 1 "
		"0 0 0 0 2\n"
		"boost_tree 1 3 2 0 1 2 0 0 0 0 0 0.5 0 0 0 0 -0.5\n";
	lsv_data *x = data_of("1 1:0.2 2:0.5\n1 1:0.2 2:3\n-1 1:0.9\n-1 2:-1\n");
	lsv_model *m = NULL, *m2 = NULL;
	lsv_error e;
	double f[4];
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	CHECK(x != NULL);
	CHECK(read_trees(trees, &m, &e) == LSV_OK);
	if (m == NULL || x == NULL)
		goto out;
	CHECK(m->ntrees == 2 && m->trees[0].nnodes == 5);
	CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
	CHECK(f[0] == 0.25 + 1 - 0.5);   /* x2 = 0.5 > 0 */
	CHECK(f[1] == 0.25 + 2 - 0.5);
	CHECK(f[2] == 0.25 - 3 + 0.5);   /* x2 absent: 0 <= 0 */
	CHECK(f[3] == 0.25 + 1 + 0.5);   /* x1 absent: 0 <= 0.5 */
	fp = open_memstream(&buf, &len);
	CHECK(fp != NULL && lsv_model_write(fp, "w", m, &e) == LSV_OK);
	if (fp != NULL)
		fclose(fp);
	CHECK(buf != NULL && strstr(buf, "boost_tree 1 3 2 0 1 2 0 0 0 0 0 0.5 "
					 "0 0 0 0 -0.5\n") != NULL);
	CHECK(buf != NULL && read_text(buf, &m2, &e) == LSV_OK);
	if (m2 != NULL) {
		double f2[4];
		CHECK(lsv_model_decision(m2, x, f2, &e) == LSV_OK);
		CHECK(memcmp(f, f2, sizeof f) == 0);
	}
	/* the writer refuses a tree the reader would refuse */
	m->trees[1].node[0].left = 0;
	fp = fopen("/dev/null", "w");
	CHECK(fp != NULL && lsv_model_write(fp, "w", m, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "child index") != NULL);
	if (fp != NULL)
		fclose(fp);
out:
	free(buf);
	lsv_model_free(m);
	lsv_model_free(m2);
	lsv_data_free(x);
}

static void boost_model_refuses_corrupted_trees(void)
{
	static const struct {
		const char *trees, *why;
	} bad[] = {
		/* a child before its parent: a cycle back to the root */
		{"boost_tree 1 3 1 0 0 2 0 0 0 0 0 1 0 0 0 0 2\n", "child index"},
		/* a child past the end */
		{"boost_tree 1 3 1 0 1 3 0 0 0 0 0 1 0 0 0 0 2\n", "child index"},
		/* both children the same node */
		{"boost_tree 1 3 1 0 1 1 0 0 0 0 0 1 0 0 0 0 2\n", "child index"},
		/* a node with two parents */
		{"boost_tree 1 5 1 0 1 2 0 1 0 3 4 0 1 0 3 4 0 0 0 0 0 1 0 0 0 0 "
		 "2\n", "two parents"},
		/* a node nobody points to */
		{"boost_tree 1 3 0 0 0 0 1 0 0 0 0 1 0 0 0 0 2\n", "not the child"},
		{"boost_tree 1 3 1 nan 1 2 0 0 0 0 0 1 0 0 0 0 2\n", "threshold"},
		{"boost_tree 1 3 1 0 1 2 0 0 0 0 0 inf 0 0 0 0 2\n", "value"},
		{"boost_tree 1 3 -1 0 1 2 0 0 0 0 0 1 0 0 0 0 2\n", "feature"},
		{"boost_tree 1 3 2147483648 0 1 2 0 0 0 0 0 1 0 0 0 0 2\n",
		 "feature"},
		/* a leaf with children, a split with a value */
		{"boost_tree 1 1 0 0 1 0 5\n", "leaf"},
		{"boost_tree 1 3 1 0 1 2 7 0 0 0 0 1 0 0 0 0 2\n", "split has a"},
		/* counts: more nodes claimed than given, too many, none */
		{"boost_tree 1 3 1 0 1 2 0 0 0 0 0 1\n", "holds 10 numbers"},
		{"boost_tree 1 99999 0 0 0 0 1\n", "node count"},
		{"boost_tree 1 0\n", "node count"},
		{"boost_tree 2 1 0 0 0 0 1\n", "function 2"},
		{"boost_tree 1 1 0 0 0 0 1\nboost_tree 1 1 0 0 0 0 1\n"
		 "boost_tree 1 1 0 0 0 0 1\nboost_tree 1 1 0 0 0 0 1\n"
		 "boost_tree 1 1 0 0 0 0 1\nboost_tree 1 1 0 0 0 0 1\n",
		 "more than boost_rounds"},
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		lsv_model *m = NULL;
		lsv_error e;
		lsv_status st = read_trees(bad[i].trees, &m, &e);
		CHECK(st == LSV_EFORMAT && m == NULL);
		if (st != LSV_EFORMAT || strstr(e.msg, bad[i].why) == NULL) {
			fprintf(stderr, "  case %zu: %s\n", i, e.msg);
			CHECK(0);
		}
		lsv_model_free(m);
	}
	{  /* trees in a model of another solver, and SVs in a boosted one */
		lsv_model *m = NULL;
		lsv_error e;
		char buf[4096];
		snprintf(buf, sizeof buf, "lapsvm_model 1\nsolver laprls%s"
			 "boost_tree 1 1 0 0 0 0 1\nnr_sv 0\nSV\n",
			 strstr(boost_head, "\nkernel"));
		CHECK(read_text(buf, &m, &e) == LSV_EFORMAT);
		CHECK(strstr(e.msg, "not boosted") != NULL);
		snprintf(buf, sizeof buf, "%snr_sv 1\nSV\n1 1:1\n", boost_head);
		CHECK(read_text(buf, &m, &e) == LSV_EFORMAT);
		CHECK(strstr(e.msg, "nr_sv 1 in a tree-boosted model") != NULL);
		CHECK(m == NULL);
	}
}


/* ------------------------------------------------------------------ */
/* Multiclass, clustering and RBF learners                             */
/* ------------------------------------------------------------------ */

/* The multiple logistic's dV/dF (n x 3) against central differences,
 * both Laplacians, at a point where no row sums to 0 (the cost is defined
 * for any F; training keeps it centred). */
static void boost_multiclass_gradient_matches_finite_differences(void)
{
	lsv_graph *g = graph_of(chain6, 6);
	size_t lab[4] = {0, 2, 3, 5}, i;
	int cls[4] = {0, 2, 1, 1};
	double F[18], grad[18], lo, ro, lm, rm;
	int normalized;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (i = 0; i < 18; i++)
		F[i] = sin(1.7 * (double)i + 0.3);
	for (normalized = 0; normalized <= 1; normalized++) {
		lsv_lapop L;
		double c = 0.29, worst = 0.0;
		CHECK(lsv_lapop_init(&L, g, normalized, 1, &e) == LSV_OK);
		CHECK(lsv_boost_mcost(&L, c, 6, 3, lab, cls, 4, F, grad, &lo, &ro,
				      &e) == LSV_OK);
		for (i = 0; i < 18; i++) {
			double h = 1e-5, Fp[18], Fm[18], fd;
			memcpy(Fp, F, sizeof F);
			memcpy(Fm, F, sizeof F);
			Fp[i] += h;
			Fm[i] -= h;
			lsv_boost_mcost(&L, c, 6, 3, lab, cls, 4, Fp, NULL, &lm, &rm,
					&e);
			fd = lm + rm;
			lsv_boost_mcost(&L, c, 6, 3, lab, cls, 4, Fm, NULL, &lm, &rm,
					&e);
			fd = (fd - (lm + rm)) / (2 * h);
			worst = fmax(worst, fabs(fd - grad[i]));
		}
		CHECK(worst < 1e-8);
		lsv_lapop_free(&L);
	}
	/* the loss by hand at F = 0: log 3 for every labeled row */
	memset(F, 0, sizeof F);
	CHECK(lsv_boost_mcost(NULL, 0.0, 6, 3, lab, cls, 4, F, grad, &lo, &ro,
			      &e) == LSV_OK);
	CHECK(fabs(lo - log(3.0)) < 1e-15 && ro == 0.0);
	CHECK(fabs(grad[0] - (1.0 / 3 - 1) / 4) < 1e-15);  /* row 1, class 1 */
	CHECK(fabs(grad[6] - 1.0 / 3 / 4) < 1e-15);        /* row 1, class 2 */
	lsv_graph_free(g);
}

/* The clustering's augmented Lagrangian: dV/dF against central
 * differences with two functions, nonzero multipliers, and its h by
 * hand. */
static void boost_auglag_gradient_matches_finite_differences(void)
{
	lsv_graph *g = graph_of(chain6, 6);
	double F[12], grad[12], h[5], lam[5] = {0.3, -0.7, 0.2, 0.5, -0.4};
	double pe, re, pm, rm, worst = 0.0;
	size_t i;
	lsv_lapop L;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (i = 0; i < 12; i++)
		F[i] = cos(0.9 * (double)i) + 0.1;
	CHECK(lsv_lapop_init(&L, g, 0, 1, &e) == LSV_OK);
	CHECK(lsv_boost_alcost(&L, 6, 2, lam, 3.0, F, grad, &pe, &re, h, &e) ==
	      LSV_OK);
	{  /* h by hand */
		double s0 = 0, s1 = 0, q0 = 0, q1 = 0, x = 0, pen = 0;
		for (i = 0; i < 6; i++) {
			s0 += F[i];
			s1 += F[6 + i];
			q0 += F[i] * F[i];
			q1 += F[6 + i] * F[6 + i];
			x += F[i] * F[6 + i];
		}
		CHECK(fabs(h[0] - s0 / 6) < 1e-15 && fabs(h[1] - (q0 / 6 - 1)) < 1e-15);
		CHECK(fabs(h[2] - s1 / 6) < 1e-15 && fabs(h[3] - (q1 / 6 - 1)) < 1e-15);
		CHECK(fabs(h[4] - x / 6) < 1e-15);
		for (i = 0; i < 5; i++)
			pen += lam[i] * h[i] + 1.5 * h[i] * h[i];
		CHECK(fabs(pen - pe) < 1e-14);
	}
	for (i = 0; i < 12; i++) {
		double hh = 1e-5, Fp[12], Fm[12], fd;
		memcpy(Fp, F, sizeof F);
		memcpy(Fm, F, sizeof F);
		Fp[i] += hh;
		Fm[i] -= hh;
		lsv_boost_alcost(&L, 6, 2, lam, 3.0, Fp, NULL, &pm, &rm, h, &e);
		fd = pm + rm;
		lsv_boost_alcost(&L, 6, 2, lam, 3.0, Fm, NULL, &pm, &rm, h, &e);
		fd = (fd - (pm + rm)) / (2 * hh);
		worst = fmax(worst, fabs(fd - grad[i]));
	}
	CHECK(worst < 1e-8);
	lsv_lapop_free(&L);
	lsv_graph_free(g);
}

/* f(x) = bias + sum_s coef_s exp(-gamma |x - c_s|^2), computed here from
 * the model's centres, for a row of x (dense, d features). */
static double rbf_by_hand(const lsv_model *m, const lsv_data *x, size_t i,
			  int fn)
{
	double f = m->bias[fn], xi[8] = {0}, cs[8];
	size_t s, q, j;

	for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
		xi[x->col[q]] = x->val[q];
	for (s = 0; s < m->sv->n; s++) {
		double d2 = 0.0;
		memset(cs, 0, sizeof cs);
		for (q = m->sv->rowptr[s]; q < m->sv->rowptr[s + 1]; q++)
			cs[m->sv->col[q]] = m->sv->val[q];
		for (j = 0; j < 8; j++)
			d2 += (xi[j] - cs[j]) * (xi[j] - cs[j]);
		f += m->coef[s * (size_t)m->nr_fn + (size_t)fn] *
		     exp(-m->param.kernel.gamma * d2);
	}
	return f;
}

/* RBF learners on the XOR rows: the cost falls every round, the model's
 * centres are training rows, its values are the RBF sums computed by
 * hand and the training outputs, it reads back the same, and a run is
 * repeatable under its seed. */
static void rbf_boosting_predicts_its_training_rows(void)
{
	lsv_data *x = data_of(xor_rows);
	lsv_train_param p;
	lsv_train_report r, r2;
	lsv_train_progress pr = {NULL, NULL, costs};
	lsv_model *m = NULL, *m2 = NULL, *m3 = NULL;
	lsv_error e;
	double seen[64], f[12], f2[12];
	char *buf = NULL;
	size_t len = 0, i, wrong = 0;
	FILE *fp;
	long k;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	pr.ctx = seen;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_BOOST;
	p.boost_learner = LSV_BOOST_RBF;
	p.boost_rbfs = 3;
	p.kernel.gamma = 8.0;
	p.gamma_I = 0.0;
	p.boost_rounds = 40;
	p.boost_tol = 0.0;
	p.boost_shrinkage = 0.5;
	CHECK(lsv_train(x, NULL, &p, &pr, &m, &r, &e) == LSV_OK);
	if (m == NULL)
		goto out;
	CHECK(m->ntrees == 0 && m->sv->n >= 1 && m->sv->n <= 12);
	CHECK(fabs(r.boost_cost0 - log(2.0)) < 1e-15);
	for (k = 2; k <= 40; k++)
		CHECK(seen[k] <= seen[k - 1] + 1e-15);
	CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
	for (i = 0; i < 12; i++) {
		CHECK(fabs(f[i] - r.train_f[i]) <= 1e-12 * (1 + fabs(f[i])));
		CHECK(fabs(f[i] - rbf_by_hand(m, x, i, 0)) <= 1e-12 *
		      (1 + fabs(f[i])));
		wrong += lsv_model_label(m, f + i) != x->y[i];
	}
	CHECK(wrong == 0);
	fp = open_memstream(&buf, &len);
	CHECK(fp != NULL && lsv_model_write(fp, "w", m, &e) == LSV_OK);
	if (fp != NULL)
		fclose(fp);
	CHECK(buf != NULL && strstr(buf, "boost_learner rbf\nboost_rbfs 3\n") !=
	      NULL);
	CHECK(buf != NULL && read_text(buf, &m2, &e) == LSV_OK);
	if (m2 != NULL) {
		CHECK(lsv_model_decision(m2, x, f2, &e) == LSV_OK);
		for (i = 0; i < 12; i++)
			CHECK(fabs(f2[i] - f[i]) <= 1e-14 * (1 + fabs(f[i])));
	}
	CHECK(lsv_train(x, NULL, &p, NULL, &m3, &r2, &e) == LSV_OK);
	if (m3 != NULL) {
		CHECK(m3->sv->n == m->sv->n &&
		      memcmp(m3->coef, m->coef, m->sv->n * sizeof *m->coef) == 0);
		lsv_train_report_free(&r2);
	}
	lsv_train_report_free(&r);
out:
	free(buf);
	lsv_model_free(m);
	lsv_model_free(m2);
	lsv_model_free(m3);
	lsv_data_free(x);
}

/* Three rings (300 points: the outer ring's 6 nearest neighbours stay
 * on it), four labels per class, a 6-NN graph: trees and RBFs.  F_0
 * is the class frequencies' (4, 4, 4: 0, so the first cost is log 3), the
 * training rows' functions sum to 0 and are what the model predicts, every
 * labeled row is right, and the unlabeled rows mostly. */
static void multiclass_boosting_on_three_rings(void)
{
	lsv_data *x = NULL;
	lsv_graph *g = NULL;
	lsv_train_param p;
	lsv_graph_param kp;
	lsv_error e;
	size_t i, keep[3] = {0, 0, 0};
	int learner;

	CHECK(lsv_synth(LSV_SYNTH_RINGS, 300, 0.05, 3, &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	for (i = 0; i < x->n; i++) {  /* every 24th row keeps its label */
		int c = (int)x->y[i] - 1;
		if (i % 24 != 0 || keep[c] == 4) {
			x->y[i] = x->unlabeled;
			x->l--;
		} else {
			keep[c]++;
		}
	}
	CHECK(keep[0] == 4 && keep[1] == 4 && keep[2] == 4);
	lsv_graph_param_default(&kp);
	kp.k = 6;
	CHECK(lsv_graph_build(x, &kp, &g, NULL, &e) == LSV_OK);
	for (learner = 0; g != NULL && learner <= 1; learner++) {
		lsv_train_report r;
		lsv_model *m = NULL;
		double *f = malloc(x->n * 3 * sizeof *f);
		size_t right = 0, lab_wrong = 0;
		lsv_data *truth = NULL;
		lsv_train_param_default(&p);
		p.solver = LSV_SOLVER_BOOST;
		p.boost_learner = learner;
		p.kernel.gamma = 3.0;
		p.gamma_I = 10.0 * (double)x->n * (double)x->n / 12.0;
		p.boost_rounds = 150;
		p.boost_depth = 4;
		p.boost_shrinkage = 0.5;
		p.boost_tol = 0.0;
		CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
		if (m == NULL || f == NULL) {
			free(f);
			continue;
		}
		CHECK(m->nr_fn == 3 && fabs(r.boost_cost0 - log(3.0)) < 1e-14);
		CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
		CHECK(lsv_synth(LSV_SYNTH_RINGS, 300, 0.05, 3, &truth, &e) ==
		      LSV_OK);
		for (i = 0; truth != NULL && i < x->n; i++) {
			double *fi = f + 3 * i, s = fi[0] + fi[1] + fi[2];
			int c;
			CHECK(fabs(s) < 1e-12);
			for (c = 0; c < 3; c++)
				CHECK(fabs(fi[c] - r.train_f[3 * i + (size_t)c]) <=
				      1e-12 * (1 + fabs(fi[c])));
			right += lsv_model_label(m, fi) == truth->y[i];
			lab_wrong += lsv_data_is_labeled(x, i) &&
				     lsv_model_label(m, fi) != x->y[i];
		}
		CHECK(lab_wrong == 0);
		CHECK(right >= 290);  /* of 300 */
		if (right < 290)
			fprintf(stderr, "  learner %d: %zu of 300\n", learner, right);
		lsv_data_free(truth);
		free(f);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Clustering: two groups of three rows, a chain inside each and no edge
 * between (two components): into 2 by boosting, the clusters are the
 * groups, the constraints hold at the end, and the seed decides F_0. */
static void boost_clusters_two_components(void)
{
	lsv_data *x = data_of("1 1:0\n1 1:0.1\n1 1:0.2\n2 1:1\n2 1:1.1\n"
			      "2 1:1.2\n");
	lsv_graph *g = graph_of("1 2:1\n2 1:1 3:1\n3 2:1\n4 5:1\n5 4:1 6:1\n"
				"6 5:1\n", 6);
	lsv_train_param p;
	lsv_train_report r;
	lsv_model *m = NULL;
	lsv_error e;
	int learner;

	CHECK(x != NULL && g != NULL);
	if (x == NULL || g == NULL)
		goto out;
	for (learner = 0; learner <= 1; learner++) {
		double f[6];
		size_t i;
		lsv_train_param_default(&p);
		p.solver = LSV_SOLVER_BOOST;
		p.boost_learner = learner;
		p.kernel.gamma = 10.0;
		p.boost_clusters = 2;
		p.gamma_I = 1.0;
		p.normalized = 0;
		p.boost_rounds = 200;
		p.boost_shrinkage = 0.5;
		CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
		if (m == NULL)
			continue;
		CHECK(m->nr_class == 2 && m->nr_fn == 1 && m->l == 0);
		CHECK(r.boost_violation < 1e-3);
		CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
		for (i = 0; i < 6; i++) {
			CHECK(fabs(f[i] - r.train_f[i]) <= 1e-12 * (1 + fabs(f[i])));
			/* the same cluster as row 1 iff the same group */
			CHECK((lsv_model_label(m, f + i) ==
			       lsv_model_label(m, f)) == (i < 3));
			/* the constrained optimum: +-1 on the two groups */
			CHECK(fabs(fabs(f[i]) - 1.0) < 0.05);
		}
		lsv_train_report_free(&r);
		lsv_model_free(m);
		m = NULL;
	}
out:
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* RBF and clustering models the reader refuses. */
static void boost_model_refuses_bad_rbf_and_cluster_sections(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"boost_learner rbf\nboost_rbfs 3\nnr_sv 1\nSV\n0.5 1:1\n"
		 "boost_tree 1 1 0 0 0 0 1\n", "SV"},
		{"boost_learner rbf\nboost_rbfs 3\nboost_tree 1 1 0 0 0 0 1\n"
		 "nr_sv 0\nSV\n", "boost_tree lines in an RBF-boosted"},
		{"boost_learner rbf\nboost_rbfs 3\nnr_sv 5\nSV\n", "more than the "
		 "l + u"},
		{"boost_learner rbf\nboost_rbfs 0\nnr_sv 0\nSV\n", "boost_rbfs"},
		{"boost_learner forest\nnr_sv 0\nSV\n", "boost_learner"},
		{"boost_learner tree\nnr_sv 1\nSV\n0.5 1:1\n", "tree-boosted"},
		{"boost_learner rbf\nboost_rbfs 3\nnr_sv 1\nSV\n0.5 1:nan\n",
		 "found 'nan'"},
		{"boost_learner rbf\nboost_rbfs 3\nnr_sv 1\nSV\ninf 1:1\n",
		 "coefficient"},
		{"boost_clusters 1\nnr_sv 0\nSV\n", "boost_clusters"},
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		char buf[4096];
		lsv_model *m = NULL;
		lsv_error e;
		lsv_status st;
		snprintf(buf, sizeof buf, "%s%s", boost_head, bad[i].text);
		st = read_text(buf, &m, &e);
		CHECK(st == LSV_EFORMAT && m == NULL);
		if (st != LSV_EFORMAT || strstr(e.msg, bad[i].why) == NULL) {
			fprintf(stderr, "  case %zu: %s\n", i,
				st == LSV_OK ? "read" : e.msg);
			CHECK(0);
		}
		lsv_model_free(m);
	}
	{  /* an RBF model on the linear kernel */
		char buf[4096], *k;
		lsv_model *m = NULL;
		lsv_error e;
		snprintf(buf, sizeof buf, "%sboost_learner rbf\nboost_rbfs 3\n"
			 "nr_sv 0\nSV\n", boost_head);
		k = strstr(buf, "kernel rbf");
		memcpy(k, "kernel linear", 13);
		memmove(k + 13, k + 10 + 3, strlen(k + 13) + 1);
		CHECK(read_text(buf, &m, &e) == LSV_EFORMAT);
		CHECK(m == NULL);
	}
	{  /* and a good RBF model: one centre, weight 0.5, gamma 1 */
		char buf[4096];
		lsv_model *m = NULL;
		lsv_error e;
		lsv_data *x = data_of("1 1:1\n1 1:2 2:1\n");
		double f[2];
		snprintf(buf, sizeof buf, "%sboost_learner rbf\nboost_rbfs 3\n"
			 "nr_sv 1\nSV\n0.5 1:1\n", boost_head);
		CHECK(read_text(buf, &m, &e) == LSV_OK);
		CHECK(m != NULL && x != NULL &&
		      lsv_model_decision(m, x, f, &e) == LSV_OK);
		if (m != NULL && x != NULL) {
			CHECK(fabs(f[0] - 0.75) < 1e-15);
			CHECK(fabs(f[1] - (0.25 + 0.5 * exp(-2.0))) < 1e-15);
		}
		lsv_model_free(m);
		lsv_data_free(x);
	}
}

/* The spectral start of clustering: on three components (pairs) the two
 * functions are zero-mean, mean square 1, orthogonal, constant on each
 * component (L E = 0); on the connected chain6 the one function is an
 * eigenvector of L (L E = lambda E) whose Rayleigh quotient is at most
 * that of other zero-mean vectors (Courant-Fischer). */
static void boost_spectral_start_is_the_bottom_eigenspace(void)
{
	lsv_graph *g3 = graph_of("1 2:1\n2 1:1\n3 4:1\n4 3:1\n5 6:1\n6 5:1\n", 6);
	lsv_graph *g1 = graph_of(chain6, 6);
	lsv_train_param p;
	lsv_lapop L;
	lsv_error e;
	double E[12], LE[12], lam = 0.0, nrm = 0.0;
	size_t i;
	int j, t;

	CHECK(g3 != NULL && g1 != NULL);
	if (g3 == NULL || g1 == NULL)
		goto out;
	lsv_train_param_default(&p);
	CHECK(lsv_lapop_init(&L, g3, 0, 1, &e) == LSV_OK);
	CHECK(lsv_boost_spectral_start(&L, 6, 2, &p, E, &e) == LSV_OK);
	CHECK(lsv_lapop_apply(&L, E, LE, 2, 1.0, &e) == LSV_OK);
	for (j = 0; j < 2; j++) {
		double s = 0.0, q = 0.0, x = 0.0;
		for (i = 0; i < 6; i++) {
			s += E[i + 6 * (size_t)j];
			q += E[i + 6 * (size_t)j] * E[i + 6 * (size_t)j];
			x += E[i] * E[i + 6];
			CHECK(fabs(LE[i + 6 * (size_t)j]) < 1e-10);
		}
		CHECK(fabs(s) < 1e-10 && fabs(q / 6 - 1.0) < 1e-10);
		CHECK(fabs(x) < 1e-10);
		for (i = 0; i < 6; i += 2)  /* constant on each pair */
			CHECK(fabs(E[i + 6 * (size_t)j] - E[i + 1 + 6 * (size_t)j]) <
			      1e-10);
	}
	lsv_lapop_free(&L);
	/* more functions than rows allow: refused */
	CHECK(lsv_boost_spectral_start(&L, 6, 6, &p, E, &e) == LSV_EINVAL);
	CHECK(lsv_lapop_init(&L, g1, 0, 1, &e) == LSV_OK);
	CHECK(lsv_boost_spectral_start(&L, 6, 1, &p, E, &e) == LSV_OK);
	CHECK(lsv_lapop_apply(&L, E, LE, 1, 1.0, &e) == LSV_OK);
	for (i = 0; i < 6; i++) {
		lam += E[i] * LE[i];
		nrm += E[i] * E[i];
	}
	lam /= nrm;
	CHECK(lam > 1e-6 && fabs(nrm / 6 - 1.0) < 1e-10);
	for (i = 0; i < 6; i++)
		CHECK(fabs(LE[i] - lam * E[i]) < 1e-9);
	for (t = 1; t <= 5; t++) {  /* zero-mean test vectors */
		double v[6], Lv[6], m = 0.0, a = 0.0, b = 0.0;
		for (i = 0; i < 6; i++)
			m += (v[i] = cos(0.7 * t * (double)i) + 0.3 * (double)i) / 6;
		for (i = 0; i < 6; i++)
			v[i] -= m;
		CHECK(lsv_lapop_apply(&L, v, Lv, 1, 1.0, &e) == LSV_OK);
		for (i = 0; i < 6; i++) {
			a += v[i] * Lv[i];
			b += v[i] * v[i];
		}
		CHECK(lam <= a / b + 1e-12);
	}
	lsv_lapop_free(&L);
out:
	lsv_graph_free(g3);
	lsv_graph_free(g1);
}

const unit_case boost_cases[] = {
	{"boost_gradient_matches_finite_differences",
	 boost_gradient_matches_finite_differences},
	{"logistic_boosting_separates_xor_at_gamma_zero",
	 logistic_boosting_separates_xor_at_gamma_zero},
	{"manifold_boost_is_deterministic_and_smooth_on_a_chain",
	 manifold_boost_is_deterministic_and_smooth_on_a_chain},
	{"boost_refuses_what_it_cannot_do", boost_refuses_what_it_cannot_do},
	{"boost_model_reads_predicts_and_writes_back",
	 boost_model_reads_predicts_and_writes_back},
	{"boost_model_refuses_corrupted_trees",
	 boost_model_refuses_corrupted_trees},
	{"boost_multiclass_gradient_matches_finite_differences",
	 boost_multiclass_gradient_matches_finite_differences},
	{"boost_auglag_gradient_matches_finite_differences",
	 boost_auglag_gradient_matches_finite_differences},
	{"rbf_boosting_predicts_its_training_rows",
	 rbf_boosting_predicts_its_training_rows},
	{"multiclass_boosting_on_three_rings",
	 multiclass_boosting_on_three_rings},
	{"boost_clusters_two_components", boost_clusters_two_components},
	{"boost_spectral_start_is_the_bottom_eigenspace",
	 boost_spectral_start_is_the_bottom_eigenspace},
	{"boost_model_refuses_bad_rbf_and_cluster_sections",
	 boost_model_refuses_bad_rbf_and_cluster_sections},
	{NULL, NULL}
};
