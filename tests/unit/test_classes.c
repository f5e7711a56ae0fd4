/* Class-dependent Laplacians (common/classes.c, JMLR 2006 Section 6.2):
 * the within-class graph against hand-made neighbour lists, the weighted
 * operator against hand-computed blockdiag(w_c L_c^p), the class weights
 * against an independent route to the same objective (edge weights), the
 * model key, and cross validation that keeps held-out labels out of the
 * fold's graph. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "unit.h"

static lsv_data *data_text(const char *text, double marker)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_data *x = NULL;
	lsv_error e;

	if (fp == NULL)
		return NULL;
	if (lsv_data_read(fp, "d", marker, &x, &e) != LSV_OK)
		x = NULL;
	fclose(fp);
	return x;
}

static lsv_graph *graph_text(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_graph *g = NULL;
	lsv_error e;

	if (fp == NULL)
		return NULL;
	if (lsv_graph_read(fp, "g", 0, &g, &e) != LSV_OK)
		g = NULL;
	fclose(fp);
	return g;
}

/* The weight of edge i-j (1-based) in g, 0 if absent. */
static double edge(const lsv_graph *g, size_t i, int j)
{
	size_t q;
	for (q = g->rowptr[i - 1]; q < g->rowptr[i]; q++)
		if (g->col[q] == j - 1)
			return g->w[q];
	return 0.0;
}

/* Points on a line: class 1 at 0, 1, 2, 10; class 2 at 0.5, 1.5; one
 * unlabeled point (marker 0) at 0.6.  Within-class 1-NN, binary weights,
 * by hand: class 1 picks 0->1, 1->0 (1 and 2 tie at distance 1: the lower
 * row), 2->1, 10->2; class 2 picks 0.5->1.5 and back.  Union: edges 1-2,
 * 2-3, 3-4 (rows of class 1) and 5-6; row 7 (unlabeled) isolated, and
 * the 0.5 - 0.6 pair, the closest of all, is no edge. */
static void class_graph_is_the_knn_graph_of_each_class_alone(void)
{
	lsv_data *x = data_text("1 1:0\n1 1:1\n1 1:2\n1 1:10\n2 1:0.5\n"
				"2 1:1.5\n0 1:0.6\n", 0.0);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g = NULL;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&p);
	p.k = 1;
	p.weight = LSV_WEIGHT_BINARY;
	CHECK(lsv_graph_build_classes(x, &p, &g, &info, &e) == LSV_OK);
	if (g != NULL) {
		CHECK(g->nnz == 8);  /* 4 edges, both directions */
		CHECK(edge(g, 1, 2) == 1.0 && edge(g, 2, 3) == 1.0);
		CHECK(edge(g, 3, 4) == 1.0 && edge(g, 5, 6) == 1.0);
		CHECK(edge(g, 1, 3) == 0.0 && edge(g, 5, 7) == 0.0);
		CHECK(g->rowptr[7] == g->rowptr[6]);  /* row 7 isolated */
		CHECK(info.edges == 4 && info.isolated == 1 && info.k == 1);
		/* row 7 has no edge, so nothing reaches an unlabeled row */
		CHECK(lsv_graph_check_classes(g, x, &e) == LSV_OK);
	}
	lsv_graph_free(g);
	/* heat weights: t is the mean of d^2 over every class's choices,
	 * (1 + 1 + 1 + 64 + 1 + 1) / 6 */
	p.weight = LSV_WEIGHT_HEAT;
	CHECK(lsv_graph_build_classes(x, &p, &g, &info, &e) == LSV_OK);
	CHECK(fabs(info.t - 69.0 / 6.0) < 1e-12);
	if (g != NULL)
		CHECK(fabs(edge(g, 3, 4) - exp(-64.0 / (4.0 * 69.0 / 6.0))) < 1e-15);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* A class smaller than k + 1 caps k, and a class of one row is isolated. */
static void class_graph_caps_k_by_the_smallest_class(void)
{
	lsv_data *x = data_text("1 1:0\n1 1:1\n1 1:2\n2 1:5\n", 0.0);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g = NULL;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&p);
	p.k = 5;
	CHECK(lsv_graph_build_classes(x, &p, &g, &info, &e) == LSV_OK);
	CHECK(info.k == 0 && info.isolated == 1 && info.edges == 3);
	if (g != NULL)
		CHECK(lsv_graph_check_classes(g, x, &e) == LSV_OK);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* A row refused inside one class's graph is named by its row in x (the
 * file's line), not by its row in the class. */
static void class_graph_names_a_refused_row_as_the_data_do(void)
{
	lsv_data *x = data_text("1 1:0\n2 1:5\n1 1:1\n2 1:1e-200\n", 0.0);
	lsv_graph_param p;
	lsv_graph *g = NULL;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&p);
	p.k = 1;
	CHECK(lsv_graph_build_classes(x, &p, &g, NULL, &e) == LSV_EINVAL);
	CHECK(g == NULL);
	CHECK(e.row == 4);  /* row 2 of class 2 */
	CHECK(strncmp(e.msg, "row 4: a feature value too small (1e-200", 40) == 0);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void check_classes_names_the_edge_between_two_classes(void)
{
	lsv_data *x = data_text("1 1:0\n2 1:1\n1 1:2\n2 1:3\n", 0.0);
	lsv_graph *ok = graph_text("1 3:1\n2 4:2\n3 1:1\n4 2:2\n");
	lsv_graph *bad = graph_text("1 3:1\n2 3:1 4:2\n3 1:1 2:1\n4 2:2\n");
	lsv_graph *w = NULL;
	lsv_error e;

	CHECK(x != NULL && ok != NULL && bad != NULL);
	if (x == NULL || ok == NULL || bad == NULL)
		return;
	CHECK(lsv_graph_check_classes(ok, x, &e) == LSV_OK);
	CHECK(lsv_graph_check_classes(bad, x, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "row 2: edge 2-3 joins class 2 and class 1");
	/* the within-class subgraph drops exactly that edge */
	CHECK(lsv_graph_within_classes(bad, x, &w, &e) == LSV_OK);
	if (w != NULL) {
		CHECK(w->nnz == 4 && edge(w, 1, 3) == 1.0 && edge(w, 2, 4) == 2.0);
		CHECK(edge(w, 2, 3) == 0.0);
	}
	lsv_graph_free(w);
	lsv_graph_free(ok);
	lsv_graph_free(bad);
	lsv_data_free(x);
}

/* A fold's held-out rows are unlabeled in its training set: the fold's
 * graph has no edge at them, whichever way it is made. */
static void fold_graph_has_no_edge_at_held_out_rows(void)
{
	lsv_data *x = data_text("1 1:0\n1 1:1\n1 1:2\n2 1:5\n2 1:6\n2 1:7\n",
				0.0);
	lsv_graph_param p;
	lsv_graph *full = NULL, *a = NULL, *b = NULL;
	lsv_error e;
	size_t i;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&p);
	p.k = 2;
	CHECK(lsv_graph_build_classes(x, &p, &full, NULL, &e) == LSV_OK);
	x->y[1] = 0.0;  /* rows 2 and 5 held out */
	x->y[4] = 0.0;
	x->l = 4;
	CHECK(lsv_graph_within_classes(full, x, &a, &e) == LSV_OK);
	CHECK(lsv_graph_build_classes(x, &p, &b, NULL, &e) == LSV_OK);
	if (full && a && b) {
		CHECK(edge(full, 1, 2) > 0.0 && edge(full, 4, 5) > 0.0);
		for (i = 1; i <= 6; i++) {
			CHECK(edge(a, 2, (int)i) == 0.0 && edge(a, 5, (int)i) == 0.0);
			CHECK(edge(b, 2, (int)i) == 0.0 && edge(b, 5, (int)i) == 0.0);
		}
		/* the rebuilt graph links the training rows that remain */
		CHECK(edge(b, 1, 3) > 0.0 && edge(b, 4, 6) > 0.0);
		CHECK(lsv_graph_check_classes(a, x, &e) == LSV_OK);
		CHECK(lsv_graph_check_classes(full, x, &e) == LSV_EINVAL);
		CHECK(strstr(e.msg, "which is unlabeled") != NULL);
	}
	lsv_graph_free(full);
	lsv_graph_free(a);
	lsv_graph_free(b);
	lsv_data_free(x);
}

/*
 * The weighted operator, by hand.  Rows 1 and 3 are class A with an edge
 * of weight 1, rows 2 and 4 class B with an edge of weight 2, row 5
 * isolated.  L_A = [1 -1; -1 1], L_B = [2 -2; -2 2] (unnormalized);
 * L_A^2 = [2 -2; -2 2], L_B^2 = [8 -8; -8 8]; normalized, both blocks are
 * [1 -1; -1 1] and their squares [2 -2; -2 2].  With w_A = 2, w_B = 3 the
 * operator is blockdiag(w_c L_c^p): on the rows of a class its diagonal is
 * +d and its off-diagonal -d, d as below; everything else 0.
 */
static void weighted_operator_is_blockdiag_of_weighted_class_laplacians(void)
{
	lsv_graph *g = graph_text("1 3:1\n2 4:2\n3 1:1\n4 2:2\n5\n");
	const double w[5] = {2.0, 3.0, 2.0, 3.0, 7.0};
	/* d_A, d_B for (normalized, power) = (0,1), (0,2), (1,1), (1,2) */
	const double dA[4] = {2.0, 4.0, 2.0, 4.0}, dB[4] = {6.0, 24.0, 3.0, 6.0};
	double X[25], Y[25], f[5] = {0.3, -1.2, 2.0, 0.7, 5.0}, Lf[5];
	size_t i, j;
	int v;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (i = 0; i < 25; i++)
		X[i] = i % 6 == 0;  /* the identity: Y = the operator */
	for (v = 0; v < 4; v++) {
		lsv_lapop L;
		lsv_error e;
		double want[25] = {0}, fLf = 0.0;
		int norm = v / 2, power = v % 2 + 1;

		want[0 + 0 * 5] = want[2 + 2 * 5] = dA[v];
		want[0 + 2 * 5] = want[2 + 0 * 5] = -dA[v];
		want[1 + 1 * 5] = want[3 + 3 * 5] = dB[v];
		want[1 + 3 * 5] = want[3 + 1 * 5] = -dB[v];
		CHECK(lsv_lapop_init(&L, g, norm, power, &e) == LSV_OK);
		CHECK(lsv_lapop_scale(&L, w, &e) == LSV_OK);
		CHECK(lsv_lapop_apply(&L, X, Y, 5, 0.5, &e) == LSV_OK);
		for (j = 0; j < 5; j++)
			for (i = 0; i < 5; i++)
				CHECK(fabs(Y[i + j * 5] - 0.5 * want[i + j * 5]) < 1e-14);
		/* f' Op f = sum_c w_c f_c' L_c^p f_c = dA (f1 - f3)^2 + dB (f2 - f4)^2 */
		CHECK(lsv_lapop_apply(&L, f, Lf, 1, 1.0, &e) == LSV_OK);
		for (i = 0; i < 5; i++)
			fLf += f[i] * Lf[i];
		CHECK(fabs(fLf - (dA[v] * 1.7 * 1.7 + dB[v] * 1.9 * 1.9)) < 1e-12);
		lsv_lapop_free(&L);
	}
	{	/* a weight that is not > 0 is refused */
		lsv_lapop L;
		lsv_error e;
		double bad[5] = {1, 1, 0, 1, 1};
		CHECK(lsv_lapop_init(&L, g, 0, 1, &e) == LSV_OK);
		CHECK(lsv_lapop_scale(&L, bad, &e) == LSV_EINVAL);
		CHECK(strstr(e.msg, "row 3") != NULL);
		lsv_lapop_free(&L);
	}
	lsv_graph_free(g);
}

/* lsv_lapop_apply_rows: the rows asked for are the whole operator's, bit
 * for bit, for both Laplacians, powers 1 to 3, weighted rows or not; rows
 * outside n are refused. */
static void lapop_rows_are_the_whole_operators_rows(void)
{
	lsv_graph *g = graph_text("1 2:1 3:0.5\n2 1:1 4:2\n3 1:0.5 4:1\n4 2:2 3:1 5:3\n5 4:3\n");
	const double w[5] = {2.0, 3.0, 2.0, 3.0, 7.0};
	double X[10], Y[10], R[10];
	size_t i, c;
	int v;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (i = 0; i < 10; i++)
		X[i] = 0.37 * (double)i - 1.1 + (i % 3 == 0);
	for (v = 0; v < 12; v++) {
		lsv_lapop L;
		lsv_error e;
		int norm = v % 2, power = v / 2 % 3 + 1, weighed = v >= 6;
		CHECK(lsv_lapop_init(&L, g, norm, power, &e) == LSV_OK);
		if (weighed)
			CHECK(lsv_lapop_scale(&L, w, &e) == LSV_OK);
		CHECK(lsv_lapop_apply(&L, X, Y, 2, 0.5, &e) == LSV_OK);
		for (i = 0; i < 10; i++)
			R[i] = 99.0;
		CHECK(lsv_lapop_apply_rows(&L, X, R, 2, 0.5, 1, 3, &e) == LSV_OK);
		for (c = 0; c < 2; c++)
			for (i = 1; i < 4; i++)
				CHECK(R[i + c * 5] == Y[i + c * 5]);
		/* no rows, and all rows, are fine; beyond n is not */
		CHECK(lsv_lapop_apply_rows(&L, X, R, 2, 0.5, 5, 0, &e) == LSV_OK);
		CHECK(lsv_lapop_apply_rows(&L, X, R, 2, 0.5, 0, 5, &e) == LSV_OK);
		CHECK(memcmp(R, Y, sizeof Y) == 0);
		CHECK(lsv_lapop_apply_rows(&L, X, R, 2, 0.5, 3, 3, &e) == LSV_EINVAL);
		CHECK(strstr(e.msg, "rows [3, 6) of the Laplacian's 5") != NULL);
		lsv_lapop_free(&L);
	}
	lsv_graph_free(g);
}

/* Two moons, every row labeled, and their within-class 6-NN graph. */
static lsv_data *moons(size_t n)
{
	lsv_data *x = NULL;
	lsv_error e;

	if (lsv_synth(LSV_SYNTH_MOONS, n, 0.15, 3, &x, &e) != LSV_OK)
		return NULL;
	x->unlabeled = 0.0;
	return x;
}

/* g with the edges of class `label` times s (the same rows and order). */
static lsv_graph *scale_class_edges(const lsv_graph *g, const lsv_data *x,
				    double label, double s)
{
	lsv_graph *h = calloc(1, sizeof *h);
	size_t i, q;

	*h = *g;
	h->rowptr = malloc((g->n + 1) * sizeof *h->rowptr);
	h->col = malloc(g->nnz * sizeof *h->col);
	h->w = malloc(g->nnz * sizeof *h->w);
	memcpy(h->rowptr, g->rowptr, (g->n + 1) * sizeof *h->rowptr);
	memcpy(h->col, g->col, g->nnz * sizeof *h->col);
	for (i = 0; i < g->n; i++)
		for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++)
			h->w[q] = g->w[q] * (x->y[i] == label ? s : 1.0);
	return h;
}

/*
 * The weights reach every solver.  An independent route to the same
 * objective: the unnormalized L_c is linear in the class's edge weights,
 * so w_c L_c is the Laplacian of class c's edges times w_c, and training
 * with class_graph and w_{+1} = 3 must equal plain training on the graph
 * whose +1 edges weigh 3 times more (p = 1).
 */
static void class_weights_equal_scaled_class_edges_for_every_solver(void)
{
	static const struct {
		lsv_solver s;
		lsv_method m;
		long landmarks;
	} rows[] = {
		{LSV_SOLVER_LAPRLS, LSV_METHOD_DIRECT, 0},
		{LSV_SOLVER_LAPSVM, LSV_METHOD_DIRECT, 0},
		{LSV_SOLVER_LAPRLS, LSV_METHOD_PCG, 0},
		{LSV_SOLVER_LAPSVM, LSV_METHOD_NEWTON, 0},
		{LSV_SOLVER_LAPRLS, LSV_METHOD_NEWTON, 30},
	};
	lsv_data *x = moons(60);
	lsv_graph_param gp;
	lsv_graph *g = NULL, *h = NULL;
	const double wl[1] = {1.0}, wv[1] = {3.0};
	lsv_error e;
	size_t r, i;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build_classes(x, &gp, &g, NULL, &e) == LSV_OK);
	if (g == NULL)
		return;
	h = scale_class_edges(g, x, 1.0, 3.0);
	for (r = 0; r < sizeof rows / sizeof *rows; r++) {
		lsv_train_param p, q;
		lsv_model *a = NULL, *b = NULL, *c = NULL;
		double fa[60], fb[60], fc[60], diff = 0.0, moved = 0.0;

		lsv_train_param_default(&p);
		p.solver = rows[r].s;
		p.method = rows[r].m;
		p.landmarks = rows[r].landmarks;
		p.kernel.gamma = 1.0;
		p.gamma_A = 1e-3;
		p.gamma_I = 50.0;
		p.normalized = 0;
		p.eps = 1e-10;
		p.pcg_tol = 1e-12;
		q = p;
		p.class_graph = 1;
		p.nr_weight = 1;
		p.weight_label = wl;
		p.weight = wv;
		CHECK(lsv_train(x, g, &p, NULL, &a, NULL, &e) == LSV_OK);
		CHECK(lsv_train(x, h, &q, NULL, &b, NULL, &e) == LSV_OK);
		q.class_graph = 1;  /* the same without the weight */
		CHECK(lsv_train(x, g, &q, NULL, &c, NULL, &e) == LSV_OK);
		if (a == NULL || b == NULL || c == NULL)
			continue;
		CHECK(lsv_model_decision(a, x, fa, &e) == LSV_OK);
		CHECK(lsv_model_decision(b, x, fb, &e) == LSV_OK);
		CHECK(lsv_model_decision(c, x, fc, &e) == LSV_OK);
		for (i = 0; i < 60; i++) {
			diff = fmax(diff, fabs(fa[i] - fb[i]));
			moved = fmax(moved, fabs(fa[i] - fc[i]));
		}
		CHECK(diff < 1e-6);
		CHECK(moved > 1e-3);  /* and the weight does change the model */
		/* the model records w_c per class, in the labels' order */
		CHECK(a->class_weight != NULL && a->labels[0] == 1.0);
		if (a->class_weight != NULL)
			CHECK(a->class_weight[0] == 3.0 && a->class_weight[1] == 1.0);
		CHECK(b->class_weight == NULL && a->param.weight == NULL);
		lsv_model_free(a);
		lsv_model_free(b);
		lsv_model_free(c);
	}
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
}

static void class_mode_refuses_a_joining_graph_and_unknown_weights(void)
{
	lsv_data *x = moons(40);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p;
	lsv_model *m = NULL;
	const double wl[2] = {1.0, 1.0}, wv[2] = {2.0, 3.0}, w7[1] = {7.0},
		     w0[1] = {0.0};
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&gp);
	gp.k = 15;  /* reaches across the moons */
	CHECK(lsv_graph_build(x, &gp, &g, NULL, &e) == LSV_OK);
	lsv_train_param_default(&p);
	p.class_graph = 1;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "joins class") != NULL && m == NULL);
	p.nr_weight = 1;
	p.weight_label = w7;
	p.weight = wv;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "class 7") != NULL);
	p.weight_label = wl;
	p.weight = w0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	p.nr_weight = 2;
	p.weight = wv;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);  /* class 1 twice */
	CHECK(strstr(e.msg, "two weights") != NULL);
	p.class_graph = 0;
	p.nr_weight = 1;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);  /* needs classes */
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The model key: written, read back, written again byte for byte. */
static void intrinsic_weights_key_round_trips(void)
{
	lsv_data *x = moons(40);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p;
	lsv_model *m = NULL, *back = NULL;
	const double wl[1] = {-1.0}, wv[1] = {0.25};
	char *b1 = NULL, *b2 = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *fp;
	lsv_error e;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build_classes(x, &gp, &g, NULL, &e) == LSV_OK);
	lsv_train_param_default(&p);
	p.class_graph = 1;
	p.nr_weight = 1;
	p.weight_label = wl;
	p.weight = wv;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_OK);
	if (m == NULL)
		return;
	fp = open_memstream(&b1, &n1);
	CHECK(lsv_model_write(fp, "m", m, &e) == LSV_OK);
	fclose(fp);
	CHECK(strstr(b1, "\nlabels 1 -1\nintrinsic_weights 1 0.25\n") != NULL);
	fp = fmemopen(b1, n1, "r");
	CHECK(lsv_model_read(fp, "m", &back, &e) == LSV_OK);
	fclose(fp);
	if (back != NULL) {
		CHECK(back->param.class_graph == 1);
		fp = open_memstream(&b2, &n2);
		CHECK(lsv_model_write(fp, "m", back, &e) == LSV_OK);
		fclose(fp);
		CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
	}
	lsv_model_free(back);
	back = NULL;
	{	/* a count that is not nr_class, and a weight of 0, are refused */
		char *bad = malloc(n1 + 8), *at;
		memcpy(bad, b1, n1 + 1);
		at = strstr(bad, "intrinsic_weights 1 0.25");
		memcpy(at, "intrinsic_weights 1     ", 24);
		fp = fmemopen(bad, strlen(bad), "r");
		CHECK(lsv_model_read(fp, "m", &back, &e) == LSV_EFORMAT);
		fclose(fp);
		CHECK(strstr(e.msg, "wrong number of intrinsic_weights") != NULL);
		memcpy(at, "intrinsic_weights 1 0   ", 24);
		fp = fmemopen(bad, strlen(bad), "r");
		CHECK(lsv_model_read(fp, "m", &back, &e) == LSV_EFORMAT);
		fclose(fp);
		CHECK(strstr(e.msg, "expected a number > 0") != NULL);
		free(bad);
	}
	free(b1);
	free(b2);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* A training set whose unlabeled rows are isolated (a fold's held-out
 * rows) is trained on its labeled rows alone: the same function as the
 * n x n problem that class_graph = 0 solves with the same graph, for
 * LapRLS and LapSVM, with and without the caller's kernel. */
static void class_training_on_the_labeled_rows_is_exact(void)
{
	lsv_data *x = moons(80);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	const double wl[1] = {1.0}, wv[1] = {2.0};
	double *K = NULL, fa[80], fb[80], fc[80];
	lsv_error e;
	size_t i;
	int s;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	for (i = 0; i < 80; i += 3) {  /* every third row held out */
		x->y[i] = 0.0;
		x->l--;
	}
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build_classes(x, &gp, &g, NULL, &e) == LSV_OK);
	for (s = 0; s < 2; s++) {
		lsv_train_param p;
		lsv_model *a = NULL, *b = NULL, *c = NULL;
		double diff = 0.0;

		lsv_train_param_default(&p);
		p.solver = s ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
		p.kernel.gamma = 1.0;
		p.gamma_I = 5.0;
		p.normalized = 0;  /* w_c L_c is then class c's edges times w_c */
		p.eps = 1e-10;
		p.class_graph = 1;
		p.nr_weight = 1;
		p.weight_label = wl;
		p.weight = wv;
		CHECK(lsv_train(x, g, &p, NULL, &a, NULL, &e) == LSV_OK);
		CHECK(lsv_train_kernel(x, &p, &K, &e) == LSV_OK);
		CHECK(lsv_train_with_kernel(x, g, &p, K, NULL, &c, NULL, &e) ==
		      LSV_OK);
		free(K);
		K = NULL;
		/* the n x n route: the weight as the class's edge weights */
		{
			lsv_graph *h = scale_class_edges(g, x, 1.0, 2.0);
			lsv_train_param q = p;
			q.class_graph = 0;
			q.nr_weight = 0;
			CHECK(lsv_train(x, h, &q, NULL, &b, NULL, &e) == LSV_OK);
			lsv_graph_free(h);
		}
		if (a == NULL || b == NULL || c == NULL)
			continue;
		CHECK(a->sv->n == x->l);  /* the labeled rows */
		CHECK(a->u == 80 - x->l && a->param.gamma_I == 5.0);
		CHECK(lsv_model_decision(a, x, fa, &e) == LSV_OK);
		CHECK(lsv_model_decision(b, x, fb, &e) == LSV_OK);
		CHECK(lsv_model_decision(c, x, fc, &e) == LSV_OK);
		for (i = 0; i < 80; i++)
			diff = fmax(diff, fmax(fabs(fa[i] - fb[i]), fabs(fa[i] - fc[i])));
		CHECK(diff < 1e-6);
		lsv_model_free(a);
		lsv_model_free(b);
		lsv_model_free(c);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Class-dependent cross validation trains every fold (no sharing) on the
 * fold's graph, built from its training labels: the same held-out
 * predictions as doing so by hand. */
static void class_cv_trains_each_fold_on_its_own_graph(void)
{
	lsv_data *x = moons(90);
	lsv_graph_param gp;
	lsv_train_param p;
	lsv_cv_score sc;
	const double wl[1] = {-1.0}, wv[1] = {4.0};
	int *fold = malloc(90 * sizeof *fold), shared = -1;
	double *y = malloc(90 * sizeof *y), f[90];
	size_t i, correct = 0;
	lsv_error e;
	long k;

	CHECK(x != NULL && fold != NULL && y != NULL);
	if (x == NULL || fold == NULL || y == NULL)
		return;
	lsv_graph_param_default(&gp);
	CHECK(lsv_cv_folds(x, 3, 5, fold, &e) == LSV_OK);
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 2.0;
	p.gamma_I = 10.0;
	p.class_graph = 1;
	p.nr_weight = 1;
	p.weight_label = wl;
	p.weight = wv;
	CHECK(lsv_cv_settings_rebuild(x, &gp, &p, 1, NULL, fold, 3, LSV_CV_SHARE,
				      NULL, &sc, &shared, &e) == LSV_OK);
	CHECK(shared == 0);
	for (k = 0; k < 3; k++) {
		lsv_data xf = *x;
		lsv_graph *g = NULL;
		lsv_model *m = NULL;

		memcpy(y, x->y, 90 * sizeof *y);
		for (i = 0; i < 90; i++)
			if (fold[i] == k) {
				y[i] = 0.0;
				xf.l--;
			}
		xf.y = y;
		CHECK(lsv_graph_build_classes(&xf, &gp, &g, NULL, &e) == LSV_OK);
		CHECK(lsv_train(&xf, g, &p, NULL, &m, NULL, &e) == LSV_OK);
		if (m != NULL && lsv_model_decision(m, x, f, &e) == LSV_OK)
			for (i = 0; i < 90; i++)
				if (fold[i] == k)
					correct += (f[i] > 0.0 ? 1.0 : -1.0) == x->y[i];
		lsv_model_free(m);
		lsv_graph_free(g);
	}
	CHECK(sc.correct == correct);
	CHECK(correct >= 80);  /* the moons are easy: most held-out rows right */
	free(fold);
	free(y);
	lsv_data_free(x);
}

/*
 * No leak.  Labels drawn at random, independent of the points: no method
 * can predict a held-out label better than chance.  A within-class graph
 * built with every label and kept whole in every fold (what ordinary
 * cross validation does with a fixed graph) joins each held-out row to
 * rows of its own class, and a strong graph term then carries that label
 * to it: far better than chance.  Class-dependent cross validation, which
 * builds each fold's graph from its training labels alone or drops the
 * held-out rows' edges, stays at chance.
 */
static void class_cv_keeps_held_out_labels_out_of_the_graph(void)
{
	lsv_data *x = moons(200);
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_train_param p;
	lsv_cv_score leak, honest, dropped;
	lsv_rng r;
	int *fold = malloc(200 * sizeof *fold);
	lsv_error e;
	size_t i;

	CHECK(x != NULL && fold != NULL);
	if (x == NULL || fold == NULL)
		return;
	lsv_rng_seed(&r, 99);
	for (i = 0; i < 200; i++)
		x->y[i] = lsv_rng_uniform(&r) < 0.5 ? 1.0 : -1.0;
	lsv_graph_param_default(&gp);
	CHECK(lsv_graph_build_classes(x, &gp, &g, NULL, &e) == LSV_OK);
	CHECK(lsv_cv_folds(x, 5, 1, fold, &e) == LSV_OK);
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 100.0;  /* narrow: f can follow the graph */
	p.gamma_A = 1e-4;
	p.gamma_I = 1e3;
	CHECK(lsv_cv_settings(x, g, &p, 1, NULL, fold, 5, LSV_CV_SHARE, NULL,
			      &leak, NULL, &e) == LSV_OK);
	p.class_graph = 1;
	CHECK(lsv_cv_settings_rebuild(x, &gp, &p, 1, NULL, fold, 5, LSV_CV_SHARE,
				      NULL, &honest, NULL, &e) == LSV_OK);
	CHECK(lsv_cv_settings(x, g, &p, 1, NULL, fold, 5, LSV_CV_SHARE, NULL,
			      &dropped, NULL, &e) == LSV_OK);
	/* measured: 199, 106 and 107 of 200 */
	CHECK(leak.correct >= 170);            /* >= 85%: the leak */
	CHECK(honest.correct <= 120);          /* <= 60%: chance */
	CHECK(dropped.correct <= 120);
	free(fold);
	lsv_graph_free(g);
	lsv_data_free(x);
}

const unit_case classes_cases[] = {
	{"class_graph_is_the_knn_graph_of_each_class_alone",
	 class_graph_is_the_knn_graph_of_each_class_alone},
	{"class_graph_caps_k_by_the_smallest_class",
	 class_graph_caps_k_by_the_smallest_class},
	{"class_graph_names_a_refused_row_as_the_data_do",
	 class_graph_names_a_refused_row_as_the_data_do},
	{"check_classes_names_the_edge_between_two_classes",
	 check_classes_names_the_edge_between_two_classes},
	{"fold_graph_has_no_edge_at_held_out_rows",
	 fold_graph_has_no_edge_at_held_out_rows},
	{"weighted_operator_is_blockdiag_of_weighted_class_laplacians",
	 weighted_operator_is_blockdiag_of_weighted_class_laplacians},
	{"lapop_rows_are_the_whole_operators_rows",
	 lapop_rows_are_the_whole_operators_rows},
	{"class_weights_equal_scaled_class_edges_for_every_solver",
	 class_weights_equal_scaled_class_edges_for_every_solver},
	{"class_mode_refuses_a_joining_graph_and_unknown_weights",
	 class_mode_refuses_a_joining_graph_and_unknown_weights},
	{"intrinsic_weights_key_round_trips", intrinsic_weights_key_round_trips},
	{"class_training_on_the_labeled_rows_is_exact",
	 class_training_on_the_labeled_rows_is_exact},
	{"class_cv_trains_each_fold_on_its_own_graph",
	 class_cv_trains_each_fold_on_its_own_graph},
	{"class_cv_keeps_held_out_labels_out_of_the_graph",
	 class_cv_keeps_held_out_labels_out_of_the_graph},
	{NULL, NULL}
};
