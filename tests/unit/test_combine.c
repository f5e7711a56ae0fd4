/* Combining graph Laplacians (common/combine.c) against independently
 * derived answers: pseudo-inverses by hand and from a full
 * eigendecomposition (LAPACK dsyev here, not the Cholesky of L + VV' the
 * library uses), the convex combination's optimum in closed form, the
 * paper's fit K_ul (K_ll + mu I)^-1 y written out, and the extension's
 * model against LapRLS on the same Laplacian. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "solver.h"
#include "ref.h"
#include "unit.h"

void dsyev_(const char *jobz, const char *uplo, const int *n, double *a,
	    const int *lda, double *w, double *work, const int *lwork,
	    int *info, size_t lj, size_t lu);

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

/* The Laplacian from its definition (isolated rows: zero row and
 * column), then pinv = sum over eigenvalues above 1e-10 of u u' / lambda,
 * by dsyev: n x n into P. */
static void pinv_by_eigen(const lsv_graph *g, int normalized, double *P,
			  size_t keep)
{
	size_t n = g->n, i, j, p, k, kept = 0;
	int N = (int)n, lwork = 64 * (int)n, info;
	double *L = calloc(n * n, sizeof *L), *w = malloc(n * sizeof *w),
	       *work = malloc((size_t)lwork * sizeof *work),
	       *d = calloc(n, sizeof *d);

	for (i = 0; i < n; i++)
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			d[i] += g->w[p];
	for (i = 0; i < n; i++) {
		if (d[i] == 0.0)
			continue;
		L[i + i * n] = normalized ? 1.0 : d[i];
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++) {
			j = (size_t)g->col[p];
			L[i + j * n] = normalized ? -g->w[p] / sqrt(d[i] * d[j])
						  : -g->w[p];
		}
	}
	dsyev_("V", "L", &N, L, &N, w, work, &lwork, &info, 1, 1);
	memset(P, 0, n * n * sizeof *P);
	for (k = 0; k < n; k++) {
		if (w[k] <= 1e-10 || kept == keep)
			continue;
		kept++;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				P[i + j * n] += L[i + k * n] * L[j + k * n] / w[k];
	}
	free(L);
	free(w);
	free(work);
	free(d);
}

/* path 1-2-3 (weights 1, 2), edge 4-5 (0.5), row 6 isolated */
static const char three_parts[] =
	"1 2:1\n2 1:1 3:2\n3 2:2\n4 5:0.5\n5 4:0.5\n6\n";

static void pinv_of_one_edge_is_the_hand_computed_quarter(void)
{
	lsv_graph *g = graph_of("1 2:3\n2 1:3\n", 2);
	double M[4], B[4];
	size_t lab[2] = {0, 1};
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	/* normalized: L = [1 -1; -1 1], pinv = [1 -1; -1 1] / 4 */
	CHECK(lsv_pinv_columns(g, 1, lab, 2, M, B, &e) == LSV_OK);
	CHECK(fabs(B[0] - 0.25) < 1e-15 && fabs(B[1] + 0.25) < 1e-15);
	CHECK(fabs(B[2] + 0.25) < 1e-15 && fabs(B[3] - 0.25) < 1e-15);
	/* D - W = 3 [1 -1; -1 1], pinv = [1 -1; -1 1] / 12 */
	CHECK(lsv_pinv_columns(g, 0, lab, 2, M, B, &e) == LSV_OK);
	CHECK(fabs(B[0] - 1.0 / 12) < 1e-15 && fabs(B[1] + 1.0 / 12) < 1e-15);
	lsv_graph_free(g);
}

static void pinv_columns_of_a_disconnected_graph_match_the_eigendecomposition(void)
{
	lsv_graph *g = graph_of(three_parts, 6);
	double M[36], B[18], P[36];
	size_t lab[3] = {0, 3, 5}, i, k;
	int norm;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (norm = 0; norm <= 1; norm++) {
		double worst = 0.0;
		pinv_by_eigen(g, norm, P, 6);
		CHECK(lsv_pinv_columns(g, norm, lab, 3, M, B, &e) == LSV_OK);
		for (k = 0; k < 3; k++)
			for (i = 0; i < 6; i++)
				worst = fmax(worst, fabs(B[i + k * 6] -
							 P[i + lab[k] * 6]));
		CHECK(worst < 1e-12);
		/* the isolated row: a zero column, and zero in the others */
		for (i = 0; i < 6; i++)
			CHECK(B[i + 2 * 6] == 0.0 || fabs(B[i + 2 * 6]) < 1e-15);
		CHECK(fabs(B[5 + 0 * 6]) < 1e-15);
	}
	lsv_graph_free(g);
}

static void pinv_eigen_with_every_nonzero_pair_is_exact_and_with_one_is_the_smallest(void)
{
	lsv_graph *g = graph_of(three_parts, 6);
	double M[36], Z[36], P[36], worst = 0.0;
	size_t got, i, j, k;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	/* three components: three nonzero eigenvalues in all */
	CHECK(lsv_pinv_eigen(g, 1, 5, M, Z, &got, &e) == LSV_OK);
	CHECK(got == 3);
	pinv_by_eigen(g, 1, P, 6);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++) {
			double s = 0.0;
			for (k = 0; k < 5; k++)
				s += Z[i + k * 6] * Z[j + k * 6];
			worst = fmax(worst, fabs(s - P[i + j * 6]));
		}
	CHECK(worst < 1e-12);
	/* r = 1: the smallest nonzero eigenpair alone */
	CHECK(lsv_pinv_eigen(g, 1, 1, M, Z, &got, &e) == LSV_OK);
	CHECK(got == 1);
	pinv_by_eigen(g, 1, P, 1);
	worst = 0.0;
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++)
			worst = fmax(worst, fabs(Z[i] * Z[j] - P[i + j * 6]));
	CHECK(worst < 1e-12);
	lsv_graph_free(g);
}

/* Two kernels diag(1, 0) and diag(0, 1), y = (1, 2): E(lambda) =
 * mu (1/(lambda + mu) + 4/(1 - lambda + mu)), least at lambda_1 =
 * (1 - mu)/3, reached from the average in one step (the line search is
 * exact on the segment), after which no kernel improves. */
static void combination_reaches_the_closed_form_optimum_both_rules(void)
{
	const double S[8] = {1, 0, 0, 0, 0, 0, 0, 1}, y[2] = {1, 2}, mu = 0.01;
	double want = (1.0 - mu) / 3.0, lambda[2], X[2], obj0, obj;
	long taken;
	int capped, random;
	lsv_error e;

	for (random = 0; random <= 1; random++) {
		lambda[0] = lambda[1] = 0.5;
		CHECK(lsv_combine_weights(S, 2, 2, y, 1, mu, 100, random, 7, lambda,
					  X, &taken, &capped, &obj0, &obj, &e) ==
		      LSV_OK);
		CHECK(fabs(lambda[0] - want) < 1e-9);
		CHECK(fabs(lambda[0] + lambda[1] - 1.0) < 1e-15);
		CHECK(taken == 1 && !capped);
		CHECK(fabs(obj0 - mu * (1 / 0.51 + 4 / 0.51)) < 1e-12);
		CHECK(fabs(obj - mu * (1 / (want + mu) + 4 / (1 - want + mu))) <
		      1e-12);
		/* the coefficients (K + mu I)^-1 y */
		CHECK(fabs(X[0] - 1 / (want + mu)) < 1e-6);
	}
}

static void combination_steps_zero_keeps_the_start_and_shared_weights_add(void)
{
	const double S[8] = {1, 0, 0, 0, 0, 0, 0, 1}, mu = 0.01;
	/* two functions, (1, 2) and (2, 1): their sum is symmetric, so the
	 * average is the optimum and no step is taken */
	const double Y[4] = {1, 2, 2, 1};
	double lambda[2] = {0.5, 0.5}, obj0, obj;
	long taken;
	int capped;
	lsv_error e;

	CHECK(lsv_combine_weights(S, 2, 2, Y, 2, mu, 100, 0, 1, lambda, NULL,
				  &taken, &capped, &obj0, &obj, &e) == LSV_OK);
	CHECK(taken == 0 && !capped && lambda[0] == 0.5 && obj == obj0);
	CHECK(fabs(obj - 10 * mu / 0.51) < 1e-12);
	/* steps 0 from (0.9, 0.1), one function: kept, and said capped */
	lambda[0] = 0.9;
	lambda[1] = 0.1;
	CHECK(lsv_combine_weights(S, 2, 2, Y, 1, mu, 0, 0, 1, lambda, NULL,
				  &taken, &capped, &obj0, &obj, &e) == LSV_OK);
	CHECK(taken == 0 && lambda[0] == 0.9 && lambda[1] == 0.1);
}

/* Six points on a line, labels +1 at row 1 and -1 at row 6 (or as given),
 * the others unlabeled. */
static lsv_data *line6(const double *y)
{
	lsv_data *x = calloc(1, sizeof *x);
	size_t i;
	x->n = 6;
	x->dim = 1;
	x->rowptr = malloc(7 * sizeof *x->rowptr);
	x->col = malloc(6 * sizeof *x->col);
	x->val = malloc(6 * sizeof *x->val);
	x->y = malloc(6 * sizeof *x->y);
	for (i = 0; i < 6; i++) {
		x->rowptr[i] = i;
		x->col[i] = 0;
		x->val[i] = (double)i;
		x->y[i] = y[i];
		x->l += y[i] != 0.0;
	}
	x->rowptr[6] = 6;
	x->nnz = 6;
	return x;
}

static const char chain6[] =
	"1 2:1\n2 1:1 3:1\n3 2:1 4:0.5\n4 3:0.5 5:1\n5 4:1 6:1\n6 5:1\n";

static void combination_of_one_graph_is_the_papers_fit_and_laprls(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6);
	const lsv_graph *gs[1];
	lsv_train_param p;
	lsv_model *m = NULL, *ref = NULL;
	lsv_train_report r, rr;
	lsv_error e;
	double P[36], K[4], s, mu = 2e-5, c0, c1, det, f1[6], f2[6], worst = 0.0;
	size_t i;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	gs[0] = g;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_COMBINE;
	p.gamma_A = 0.01;
	p.gamma_I = 0.1;
	CHECK(lsv_train_graphs(x, gs, 1, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL)
		goto out;
	CHECK(m->ngraphs == 1 && m->graph_weight[0] == 1.0);
	CHECK(r.combine_steps == 0 && r.combine_mu == mu);  /* l 1e-5 */
	/* K = pinv(L) / |pinv(L)_ll|_F on rows 1 and 6; c = (K_ll + mu I)^-1 y */
	pinv_by_eigen(g, 1, P, 6);
	K[0] = P[0];
	K[1] = P[5];
	K[2] = P[30];
	K[3] = P[35];
	s = sqrt(K[0] * K[0] + K[1] * K[1] + K[2] * K[2] + K[3] * K[3]);
	for (i = 0; i < 4; i++)
		K[i] /= s;
	det = (K[0] + mu) * (K[3] + mu) - K[1] * K[2];
	c0 = ((K[3] + mu) * 1 - K[2] * -1) / det;
	c1 = ((K[0] + mu) * -1 - K[1] * 1) / det;
	for (i = 0; i < 6; i++)
		worst = fmax(worst, fabs(r.train_f[i] -
					 (P[i] * c0 + P[i + 30] * c1) / s));
	CHECK(worst < 1e-9 * (1 + fabs(r.train_f[1])));
	/* the extension: LapRLS with the same L, gamma_A, gamma_I */
	p.solver = LSV_SOLVER_LAPRLS;
	CHECK(lsv_train(x, g, &p, NULL, &ref, &rr, &e) == LSV_OK);
	if (ref != NULL) {
		CHECK(lsv_model_decision(m, x, f1, &e) == LSV_OK);
		CHECK(lsv_model_decision(ref, x, f2, &e) == LSV_OK);
		worst = 0.0;
		for (i = 0; i < 6; i++)
			worst = fmax(worst, fabs(f1[i] - f2[i]));
		CHECK(worst < 1e-9);
	}
	lsv_train_report_free(&rr);
	lsv_model_free(ref);
out:
	lsv_train_report_free(&r);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Two copies of one graph: every kernel is the same, none improves, the
 * weights stay at the start; sum_q lambda_q L_q is L, so the model is
 * LapRLS's (and LapSVM's with -E lapsvm). */
static void combination_of_equal_graphs_keeps_the_start_and_the_laplacian(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1}, start[2] = {3, 1};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6), *h = graph_of(chain6, 6);
	const lsv_graph *gs[2];
	lsv_train_param p;
	lsv_model *m = NULL, *ref = NULL;
	lsv_train_report r, rr;
	lsv_error e;
	double f1[6], f2[6], worst = 0.0;
	size_t i;
	int ext;

	CHECK(g != NULL && h != NULL);
	if (g == NULL || h == NULL)
		return;
	gs[0] = g;
	gs[1] = h;
	for (ext = 0; ext <= 1; ext++) {
		lsv_train_param_default(&p);
		p.solver = LSV_SOLVER_COMBINE;
		p.combine_ext = ext ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
		p.normalized = ext;  /* both Laplacians */
		CHECK(lsv_train_graphs(x, gs, 2, start, &p, NULL, &m, &r, &e) ==
		      LSV_OK);
		if (m == NULL)
			continue;
		CHECK(m->ngraphs == 2 && m->graph_weight[0] == 0.75 &&
		      m->graph_weight[1] == 0.25);
		CHECK(r.combine_steps == 0);
		p.solver = ext ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
		CHECK(lsv_train(x, g, &p, NULL, &ref, &rr, &e) == LSV_OK);
		if (ref != NULL) {
			CHECK(lsv_model_decision(m, x, f1, &e) == LSV_OK);
			CHECK(lsv_model_decision(ref, x, f2, &e) == LSV_OK);
			for (i = 0; i < 6; i++)
				worst = fmax(worst, fabs(f1[i] - f2[i]));
		}
		lsv_train_report_free(&rr);
		lsv_model_free(ref);
		ref = NULL;
		lsv_train_report_free(&r);
		lsv_model_free(m);
		m = NULL;
	}
	CHECK(worst < 1e-9);
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
}

/* The eigenpair path with every nonzero pair gives the exact values. */
static void combination_eigenpairs_of_full_rank_equal_the_exact_kernels(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6), *h = graph_of(three_parts, 6);
	const lsv_graph *gs[2];
	lsv_train_param p;
	lsv_model *m1 = NULL, *m2 = NULL;
	lsv_train_report r1, r2;
	lsv_error e;
	double worst = 0.0;
	size_t i;

	CHECK(g != NULL && h != NULL);
	if (g == NULL || h == NULL)
		return;
	gs[0] = g;
	gs[1] = h;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_COMBINE;
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m1, &r1, &e) == LSV_OK);
	/* 6 rows have at most 5 nonzero Laplacian eigenvalues: 6 is 5 */
	p.combine_rank = 6;
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m2, &r2, &e) == LSV_OK);
	if (m1 != NULL && m2 != NULL) {
		CHECK(r1.combine_rank == 0 && r2.combine_rank == 5);
		CHECK(m2->param.combine_rank == 5);
		CHECK(fabs(m1->graph_weight[0] - m2->graph_weight[0]) < 1e-9);
		for (i = 0; i < 6; i++)
			worst = fmax(worst, fabs(r1.train_f[i] - r2.train_f[i]));
		CHECK(worst < 1e-9);
	}
	lsv_train_report_free(&r1);
	lsv_train_report_free(&r2);
	lsv_model_free(m1);
	lsv_model_free(m2);
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
}

/* dsyevr returning fewer eigenpairs than asked with info 0 (MRRR on
 * repeated eigenvalues with some LAPACKs; simulated by short_dsyevr.c):
 * which pairs are missing is unknown, so the kernel would not be the
 * rank-r part; refused, naming the graph, instead of used silently. */
static void combination_refuses_a_short_eigensolver_return(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6);
	const lsv_graph *gs[1];
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_error e;
	double M[36], Z[12];
	size_t got = 99;
	lsv_status st;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	gs[0] = g;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_COMBINE;
	p.combine_rank = 2;
	ref_dsyevr_short = 1;
	st = lsv_pinv_eigen(g, 1, 2, M, Z, &got, &e);
	CHECK(st == LSV_ENUMERIC);
	CHECK(st != LSV_ENUMERIC ||
	      strstr(e.msg, "returned 1 of the 2 smallest nonzero eigenpairs") !=
		      NULL);
	st = lsv_train_graphs(x, gs, 1, NULL, &p, NULL, &m, NULL, &e);
	ref_dsyevr_short = 0;
	CHECK(st == LSV_ENUMERIC && m == NULL);
	CHECK(st != LSV_ENUMERIC || strncmp(e.msg, "graph 1: ", 9) == 0);
	/* the same without the short return: the rank-2 kernel */
	CHECK(lsv_train_graphs(x, gs, 1, NULL, &p, NULL, &m, NULL, &e) == LSV_OK);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The normalized Laplacian of g from its definition, dense (isolated
 * rows: zero row and column), into L (n x n). */
static void laplacian_by_hand(const lsv_graph *g, double *L)
{
	size_t n = g->n, i, p;
	double d[16] = {0};
	memset(L, 0, n * n * sizeof *L);
	for (i = 0; i < n; i++)
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			d[i] += g->w[p];
	for (i = 0; i < n; i++) {
		if (d[i] == 0.0)
			continue;
		L[i + i * n] = 1.0;
		for (p = g->rowptr[i]; p < g->rowptr[i + 1]; p++)
			L[i + (size_t)g->col[p] * n] =
				-g->w[p] / sqrt(d[i] * d[(size_t)g->col[p]]);
	}
}

/* The model for new points with fixed weights (0.3, 0.7) of two different
 * graphs is LapRLS (eq. 8) with L = 0.3 L_1 + 0.7 L_2, solved here by
 * Gaussian elimination with the linear kernel K_ij = x_i x_j. */
static void combination_model_is_laprls_on_the_weighted_sum_of_laplacians(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1}, start[2] = {0.3, 0.7};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6), *h = graph_of(three_parts, 6);
	const lsv_graph *gs[2];
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;
	double L1[36], L2[36], K[36], A[36], B[6], f[6], gA = 0.05, gI = 0.3,
	       worst = 0.0;
	size_t i, j, k, n = 6, l = 2;

	CHECK(g != NULL && h != NULL);
	if (g == NULL || h == NULL)
		return;
	gs[0] = g;
	gs[1] = h;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_COMBINE;
	p.kernel.type = LSV_KERNEL_LINEAR;
	p.combine_steps = 0;
	p.gamma_A = gA;
	p.gamma_I = gI;
	CHECK(lsv_train_graphs(x, gs, 2, start, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL)
		goto out;
	laplacian_by_hand(g, L1);
	laplacian_by_hand(h, L2);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			K[i + j * n] = (double)i * (double)j;
	/* A = J K + gA l I + gI l / n^2 (0.3 L1 + 0.7 L2) K; B = J y */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += (0.3 * L1[i + k * n] + 0.7 * L2[i + k * n]) *
				     K[k + j * n];
			A[i + j * n] = gI * (double)l / (double)(n * n) * s +
				       (y[i] != 0.0 ? K[i + j * n] : 0.0) +
				       (i == j ? gA * (double)l : 0.0);
		}
	for (i = 0; i < n; i++)
		B[i] = y[i];
	ref_gauss(A, B, n, 1);
	CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
	for (i = 0; i < n; i++) {
		double want = 0.0;
		for (j = 0; j < n; j++)
			want += K[i + j * n] * B[j];
		worst = fmax(worst, fabs(f[i] - want));
	}
	CHECK(worst < 1e-9);
out:
	lsv_train_report_free(&r);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
}

/* An isolated unlabeled row has a zero row in every pinv: its value is 0;
 * labeled rows of one class train when the two classes are declared. */
static void combination_isolated_rows_get_zero_and_declared_classes_train(void)
{
	const double y1[6] = {1, 0, 0, 0, -1, 0}, y2[6] = {-1, 0, 0, 0, 0, 0};
	lsv_data *x = line6(y1), *x2 = line6(y2);
	lsv_graph *g = graph_of(three_parts, 6);
	const lsv_graph *gs[1];
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	gs[0] = g;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_COMBINE;
	CHECK(lsv_train_graphs(x, gs, 1, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m != NULL)
		CHECK(fabs(r.train_f[5]) < 1e-15);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	m = NULL;
	/* one labeled class: refused, unless both are declared */
	CHECK(lsv_train_graphs(x2, gs, 1, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	p.combine_two = 1;
	p.combine_labels[0] = 1;
	p.combine_labels[1] = -1;
	CHECK(lsv_train_graphs(x2, gs, 1, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(m->nr_class == 2 && m->labels[0] == 1 && m->labels[1] == -1);
		/* zero mean on the component {1, 2, 3}: signs split it */
		CHECK(r.train_f[0] < 0.0 && r.train_f[2] > 0.0);
	}
	lsv_train_report_free(&r);
	lsv_model_free(m);
	m = NULL;
	p.combine_labels[1] = 2;  /* row 1's -1 is not declared */
	CHECK(lsv_train_graphs(x2, gs, 1, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(strstr(e.msg, "row 1: label -1 is not one of the two classes "
			    "declared (1 and 2)") != NULL);
	CHECK(e.row == 1);
	lsv_graph_free(g);
	lsv_data_free(x);
	lsv_data_free(x2);
}

static void combination_refuses_what_it_cannot_do(void)
{
	const double y[6] = {1, 0, 0, 0, 0, -1}, bad_start[2] = {1, -1},
		     zero_start[2] = {0, 0};
	lsv_data *x = line6(y);
	lsv_graph *g = graph_of(chain6, 6), *h = graph_of("1 2:1\n2 1:1\n", 2);
	const lsv_graph *gs[2];
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;

	CHECK(g != NULL && h != NULL);
	if (g == NULL || h == NULL)
		return;
	gs[0] = g;
	gs[1] = g;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;  /* several graphs: combine only */
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(strstr(e.msg, "2 graphs: only the combination") != NULL);
	p.solver = LSV_SOLVER_COMBINE;
	CHECK(lsv_train_graphs(x, gs, 0, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(lsv_train_graphs(x, gs, 2, bad_start, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(strstr(e.msg, "starting weight 2 is -1") != NULL);
	CHECK(lsv_train_graphs(x, gs, 2, zero_start, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	gs[1] = h;  /* 2 rows, the data 6 */
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(strstr(e.msg, "graph 2 has 2 rows but the data 6") != NULL);
	gs[1] = g;
	p.power = 2;
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	p.power = 1;
	p.balance = LSV_BALANCE_LABELED;
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	p.balance = LSV_BALANCE_NONE;
	p.combine_ext = LSV_SOLVER_TSVM;
	CHECK(lsv_train_graphs(x, gs, 2, NULL, &p, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(m == NULL);
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
}

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len);
	FILE *fp;
	snprintf(path, len, "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (fp != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
	return path;
}

static void weights_and_graph_lists_are_read_with_their_rules(void)
{
	char dir[1024], *p1, *p2, *p3, *p4, *p5, **files;
	double *w = NULL;
	size_t n = 0, i;
	lsv_error e;

	if (mkdtemp(unit_tmp(dir, sizeof dir, "lsv-combine")) == NULL) {
		CHECK(0);
		return;
	}
	p1 = write_tmp(dir, "w1", "# weights\n0.5\r\n\n");
	p2 = write_tmp(dir, "w2", "1\n2\n3\n");
	p3 = write_tmp(dir, "w3", "1\nx\n");
	p4 = write_tmp(dir, "list", "a.graph\n  \n# c\n/abs/b.graph\nsub dir/c d\n");
	p5 = write_tmp(dir, "dash", "a\n-\n");
	/* an empty line is refused, as in data */
	CHECK(lsv_weights_read_path(p1, 1, &w, &e) == LSV_EFORMAT);
	free(p1);
	p1 = write_tmp(dir, "w1", "# weights\n0.5 # first\r\n1e-1\n");
	CHECK(lsv_weights_read_path(p1, 2, &w, &e) == LSV_OK);
	CHECK(w != NULL && w[0] == 0.5 && w[1] == 0.1);
	free(w);
	CHECK(lsv_weights_read_path(p2, 2, &w, &e) == LSV_EFORMAT && w == NULL);
	CHECK(strstr(e.msg, "w2:3: more weights than the 2 graphs") != NULL);
	CHECK(lsv_weights_read_path(p2, 4, &w, &e) == LSV_EFORMAT);
	CHECK(strstr(e.msg, "w2: 3 weights for 4 graphs") != NULL);
	CHECK(lsv_weights_read_path(p3, 2, &w, &e) == LSV_EFORMAT);
	CHECK(strstr(e.msg, "w3:2: bad weight (found 'x', expected a number "
			    ">= 0)") != NULL);
	CHECK(lsv_graph_list_read_path(p4, &files, &n, &e) == LSV_OK);
	CHECK(n == 3);
	if (n == 3) {
		char want[4096];
		snprintf(want, sizeof want, "%s/a.graph", dir);
		CHECK_STR(files[0], want);
		CHECK_STR(files[1], "/abs/b.graph");
		snprintf(want, sizeof want, "%s/sub dir/c d", dir);
		CHECK_STR(files[2], want);
	}
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	CHECK(lsv_graph_list_read_path(p5, &files, &n, &e) == LSV_EFORMAT);
	CHECK(strstr(e.msg, "dash:2: '-' (standard input) cannot be listed") !=
	      NULL);
	unlink(p1);
	unlink(p2);
	unlink(p3);
	unlink(p4);
	unlink(p5);
	rmdir(dir);
	free(p1);
	free(p2);
	free(p3);
	free(p4);
	free(p5);
}

const unit_case combine_cases[] = {
	{"pinv_of_one_edge_is_the_hand_computed_quarter",
	 pinv_of_one_edge_is_the_hand_computed_quarter},
	{"pinv_columns_of_a_disconnected_graph_match_the_eigendecomposition",
	 pinv_columns_of_a_disconnected_graph_match_the_eigendecomposition},
	{"pinv_eigen_with_every_nonzero_pair_is_exact_and_with_one_is_the_smallest",
	 pinv_eigen_with_every_nonzero_pair_is_exact_and_with_one_is_the_smallest},
	{"combination_refuses_a_short_eigensolver_return",
	 combination_refuses_a_short_eigensolver_return},
	{"combination_reaches_the_closed_form_optimum_both_rules",
	 combination_reaches_the_closed_form_optimum_both_rules},
	{"combination_steps_zero_keeps_the_start_and_shared_weights_add",
	 combination_steps_zero_keeps_the_start_and_shared_weights_add},
	{"combination_of_one_graph_is_the_papers_fit_and_laprls",
	 combination_of_one_graph_is_the_papers_fit_and_laprls},
	{"combination_of_equal_graphs_keeps_the_start_and_the_laplacian",
	 combination_of_equal_graphs_keeps_the_start_and_the_laplacian},
	{"combination_eigenpairs_of_full_rank_equal_the_exact_kernels",
	 combination_eigenpairs_of_full_rank_equal_the_exact_kernels},
	{"combination_model_is_laprls_on_the_weighted_sum_of_laplacians",
	 combination_model_is_laprls_on_the_weighted_sum_of_laplacians},
	{"combination_isolated_rows_get_zero_and_declared_classes_train",
	 combination_isolated_rows_get_zero_and_declared_classes_train},
	{"combination_refuses_what_it_cannot_do",
	 combination_refuses_what_it_cannot_do},
	{"weights_and_graph_lists_are_read_with_their_rules",
	 weights_and_graph_lists_are_read_with_their_rules},
	{NULL, NULL}
};
