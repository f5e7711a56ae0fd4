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
	CHECK(lsv_train(three, NULL, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "binary") != NULL);
	CHECK(lsv_train(none, NULL, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "no labeled rows") != NULL);
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
		CHECK(strstr(e.msg, "nr_sv 1 in a boosted model") != NULL);
		CHECK(m == NULL);
	}
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
	{NULL, NULL}
};
