/*
 * test_kdesign.c -- the kernel designs of Wang et al.'s Table 1 (common/
 * kdesign.c) and their shared machinery (common/spectrum.c, the ordered
 * weights of common/alignf.c): the eigensolver on a hand matrix, Zhu et
 * al.'s order-constrained QP against its KKT conditions and a hand case,
 * the diffusion kernel on a 4-cycle against its closed form (the cycle as
 * a graph, -V graph, and as the weights W = K, -V kernel), the kernel's
 * normalized Laplacian on hand cases, the cluster kernel's linear transfer
 * (by hand: the cosine of a linear kernel, K itself for the RBF) and its
 * unit diagonal,
 * and the refusals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "unit.h"

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

static lsv_data *data_of(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_data *x = NULL;
	lsv_error e;
	if (fp == NULL)
		return NULL;
	if (lsv_data_read(fp, "p", 0.0, &x, &e) != LSV_OK)
		x = NULL;
	fclose(fp);
	return x;
}

static void eig_extreme_on_a_hand_matrix(void)
{
	/* diag(3, 1, 2): top two 3, 2 (e1, e3), bottom one 1 (e2) */
	double A[9] = {3, 0, 0, 0, 1, 0, 0, 0, 2}, w[2], V[6];
	lsv_error e;

	CHECK(lsv_eig_extreme(A, 3, 2, 1, w, V, &e) == LSV_OK);
	CHECK(fabs(w[0] - 3) < 1e-14 && fabs(w[1] - 2) < 1e-14);
	CHECK(fabs(fabs(V[0]) - 1) < 1e-14 && fabs(fabs(V[5]) - 1) < 1e-14);
	CHECK(lsv_eig_extreme(A, 3, 1, 0, w, V, &e) == LSV_OK);
	CHECK(fabs(w[0] - 1) < 1e-14 && fabs(fabs(V[1]) - 1) < 1e-14);
	CHECK(lsv_eig_extreme(A, 3, 4, 1, w, V, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "4 eigenvectors asked for, but the matrix has only "
			    "n = 3 rows") != NULL);
}

/* I plus a symmetric perturbation of 1e-100: 200 eigenvalues within
 * 1e-97 of 1.  The reference LAPACK's dsyevr (MRRR) returns 8 of the 12
 * largest with info 0 there; lsv_eig_extreme falls back to dsyevd.  The
 * 12 pairs: values 1, columns orthonormal, A v = w v (independent checks:
 * plain sums, no LAPACK). */
static void eig_extreme_on_repeated_eigenvalues(void)
{
	enum { N = 200, K = 12 };
	double *A = calloc(N * N, sizeof *A), *V = calloc(N * K, sizeof *V);
	double w[K], x = 7.0;
	size_t i, j, a, b;
	lsv_error e;

	if (A == NULL || V == NULL) {
		free(A);
		free(V);
		CHECK(!"out of memory");
		return;
	}
	for (j = 0; j < N; j++)
		for (i = 0; i <= j; i++) {
			x = fmod(x * 16807.0, 2147483647.0);  /* MINSTD */
			A[i + j * N] = A[j + i * N] =
				i == j ? 1.0 : 1e-100 * (x / 2147483647.0 - 0.5);
		}
	CHECK(lsv_eig_extreme(A, N, K, 1, w, V, &e) == LSV_OK);
	for (a = 0; a < K; a++) {
		CHECK(fabs(w[a] - 1.0) < 1e-12);
		for (b = 0; b < K; b++) {
			double d = 0.0;
			for (i = 0; i < N; i++)
				d += V[i + a * N] * V[i + b * N];
			CHECK(fabs(d - (a == b)) < 1e-12);
		}
		for (i = 0; i < N; i++) {
			double r = -w[a] * V[i + a * N];
			for (j = 0; j < N; j++)
				r += A[i + j * N] * V[j + a * N];
			CHECK(fabs(r) < 1e-12);
		}
	}
	free(A);
	free(V);
}

static void order_qp_hand_case(void)
{
	/* min 1/2 |mu|^2 - mu_2 over mu_1 >= mu_2 >= 0: the projection of
	 * (0, 1) on the cone, (1/2, 1/2) */
	double M[4] = {1, 0, 0, 1}, a[2] = {0, 1}, mu[2], t[2];
	lsv_error e;

	CHECK(lsv_order_qp(M, a, 2, mu, t, &e) == LSV_OK);
	CHECK(fabs(mu[0] - 0.5) < 1e-12 && fabs(mu[1] - 0.5) < 1e-12);
	CHECK(fabs(t[0]) < 1e-12 && fabs(t[1] - 0.5) < 1e-12);
	/* a already ordered: the unconstrained minimizer M^-1 a */
	a[0] = 2;
	/* (1e-10: the active-set solver adds a ridge of 1e-12 max M_ii) */
	CHECK(lsv_order_qp(M, a, 2, mu, NULL, &e) == LSV_OK);
	CHECK(fabs(mu[0] - 2) < 1e-10 && fabs(mu[1] - 1) < 1e-10);
	/* every a_j < 0: mu = 0 */
	a[0] = -1;
	a[1] = -2;
	CHECK(lsv_order_qp(M, a, 2, mu, NULL, &e) == LSV_OK);
	CHECK(mu[0] == 0.0 && mu[1] == 0.0);
}

/* 1/2 mu'M mu - a'mu */
static double qp_obj(const double *M, const double *a, const double *mu,
		     size_t q)
{
	double s = 0.0;
	size_t i, j;
	for (i = 0; i < q; i++) {
		s -= a[i] * mu[i];
		for (j = 0; j < q; j++)
			s += 0.5 * mu[i] * M[i + j * q] * mu[j];
	}
	return s;
}

static void order_qp_meets_its_kkt_conditions(void)
{
	enum { L = 9, Q = 7 };
	double Z[L * Q], M[Q * Q], a[Q], mu[Q], t[Q], g[Q], w[Q];
	double amax = 0.0, best;
	unsigned s = 12345;
	size_t i, j, r;
	lsv_error e;

	/* M = G .* G, G = Z'Z (PSD, as in the alignment QP), a of both
	 * signs */
	for (i = 0; i < L * Q; i++) {
		s = s * 1103515245u + 12345u;
		Z[i] = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
	}
	for (i = 0; i < Q; i++)
		for (j = 0; j < Q; j++) {
			double d = 0.0;
			for (r = 0; r < L; r++)
				d += Z[r + i * L] * Z[r + j * L];
			M[i + j * Q] = d * d;
		}
	for (i = 0; i < Q; i++) {
		a[i] = M[i + i * Q] * (i % 3 == 1 ? -0.5 : 1.0 + 0.3 * (double)i);
		amax = fmax(amax, fabs(a[i]));
	}
	CHECK(lsv_order_qp(M, a, Q, mu, t, &e) == LSV_OK);
	/* primal feasibility: mu_1 >= .. >= mu_q >= 0, t_j = mu_j - mu_j+1 */
	for (i = 0; i < Q; i++) {
		CHECK(t[i] >= 0.0);
		CHECK(fabs(t[i] - (mu[i] - (i + 1 < Q ? mu[i + 1] : 0.0))) <
		      1e-12 * (1.0 + fabs(mu[0])));
	}
	/* stationarity in t: w = R'(a - M mu) <= 0, = 0 where t > 0 */
	for (i = 0; i < Q; i++) {
		g[i] = a[i];
		for (j = 0; j < Q; j++)
			g[i] -= M[i + j * Q] * mu[j];
		w[i] = g[i] + (i > 0 ? w[i - 1] : 0.0);
	}
	for (i = 0; i < Q; i++) {
		CHECK(w[i] <= 1e-8 * amax);
		if (t[i] > 1e-12)
			CHECK(fabs(w[i]) <= 1e-8 * amax);
	}
	/* and no feasible point nearby does better (t perturbed in the cone) */
	best = qp_obj(M, a, mu, Q);
	for (r = 0; r < 50; r++) {
		double tp[Q], mp[Q];
		for (i = 0; i < Q; i++) {
			s = s * 1103515245u + 12345u;
			tp[i] = fmax(0.0, t[i] + 0.01 * ((double)((s >> 8) % 2001) /
							 1000.0 - 1.0));
		}
		for (i = Q; i-- > 0;)
			mp[i] = tp[i] + (i + 1 < Q ? mp[i + 1] : 0.0);
		CHECK(qp_obj(M, a, mp, Q) >= best - 1e-12 * (1.0 + fabs(best)));
	}
}

static void align_ordered_is_ordered_sums_to_one_and_beats_the_cone(void)
{
	/* six labeled rows, two classes; z_j: a class indicator (mean
	 * removed), noise, a constant */
	double Z[6 * 3] = {1, 1, 1, -1, -1, -1,
			   0.3, -0.2, 0.1, 0.4, -0.3, 0.2,
			   1, 1, 1, 1, 1, 1};
	double Y[6 * 2] = {1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1};
	double mu[3], align, sum = 0.0;
	lsv_error e;
	size_t j;

	CHECK(lsv_align_ordered(Z, 6, 3, Y, 2, mu, &align, &e) == LSV_OK);
	for (j = 0; j < 3; j++)
		sum += mu[j];
	CHECK(fabs(sum - 1.0) < 1e-12);
	CHECK(mu[0] >= mu[1] && mu[1] >= mu[2] && mu[2] >= 0.0);
	/* alignment of z_1 z_1' alone is 1 (it is y y'): nothing in the cone
	 * does better, and the weights reach it up to the noise's share */
	CHECK(align <= 1.0 + 1e-12);
	CHECK(align > 0.95);
	CHECK(mu[0] > 0.9);
	/* one labeled row, or no base kernel: refused */
	CHECK(lsv_align_ordered(Z, 1, 3, Y, 2, mu, &align, &e) == LSV_EINVAL);
}

/* The diffusion kernel on the 4-cycle with all k = n eigenpairs is
 * exp(-L / delta): L = I - W/2 has eigenvalues 0 (1/2 (1,1,1,1)), 2
 * (1/2 (1,-1,1,-1)) and 1 (twice, the rest), so with delta = 1
 *   K~ = P0 + e^-2 P2 + e^-1 (I - P0 - P2),
 * P0 = 11'/4, P2 = vv'/4. */
static void diffusion_kernel_on_a_cycle_matches_its_closed_form(void)
{
	lsv_data *x = data_of("1 1:0\n1 1:1\n-1 1:2\n-1 1:3\n");
	lsv_graph *g = graph_of("1 2:1 4:1\n2 1:1 3:1\n3 2:1 4:1\n4 1:1 3:1\n",
				4);
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;
	double K[16], v[4] = {1, -1, 1, -1}, err = 0.0;
	size_t i, j;

	CHECK(x != NULL && g != NULL);
	if (x == NULL || g == NULL)
		goto done;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_KDESIGN;
	p.kdesign = LSV_KDESIGN_DIFFUSION;
	p.la_k = 4;
	p.kd_delta = 1.0;
	p.gamma_I = 0.0;
	p.lap_graph = LSV_LAP_GRAPH;
	CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL)
		goto done;
	CHECK(r.la_k == 4 && r.la_c == 0 && r.kd_delta == 1.0);
	CHECK(lsv_learned_kernel(&r, 4, K, &e) == LSV_OK);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			double p0 = 0.25, p2 = v[i] * v[j] / 4.0;
			double want = p0 + exp(-2.0) * p2 +
				      exp(-1.0) * ((i == j) - p0 - p2);
			err = fmax(err, fabs(K[i + j * 4] - want));
		}
	CHECK(err < 1e-12);
	CHECK(m->param.kd_delta == 1.0 && m->sv->n == 4);
	CHECK(lsv_model_transductive(m) != NULL);
	{
		double s;
		CHECK(lsv_model_decision(m, x, &s, &e) == LSV_EINVAL);
		CHECK(strstr(e.msg, "kdesign -J diffusion") != NULL);
	}
	lsv_train_report_free(&r);
	lsv_model_free(m);
	/* the median of the eigenvalues 0, 1, 1, 2 is the default delta */
	p.kd_delta = 0.0;
	CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
	CHECK(fabs(r.kd_delta - 1.0) < 1e-12);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	/* no graph: refused, naming the design */
	p.kdesign = LSV_KDESIGN_SPECTRAL;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "the spectral kernel (-s kdesign -J spectral) "
			    "needs a graph") != NULL);
done:
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The normalized Laplacian of W = K (lsv_kernel_laplacian), by hand:
 * K = [1 .5; .5 .25]: d = (1.5, .75), L_11 = 1 - 1/1.5 = 1/3, L_22 = 1 -
 * .25/.75 = 2/3, L_12 = -.5/sqrt(1.5 .75) = -.5/sqrt(1.125).  A row of
 * degree 0 is isolated (all 0), a negative weight is refused. */
static void kernel_laplacian_hand_cases(void)
{
	double K2[4] = {1, 0.5, 0.5, 0.25}, L2[4];
	double K3[9] = {1, 1, 0, 1, 1, 0, 0, 0, 0}, L3[9];
	double want3[9] = {0.5, -0.5, 0, -0.5, 0.5, 0, 0, 0, 0};
	double Kneg[4] = {1, -0.25, -0.25, 1}, Lneg[4];
	lsv_error e;
	size_t i;

	CHECK(lsv_kernel_laplacian(K2, 2, L2, &e) == LSV_OK);
	CHECK(fabs(L2[0] - 1.0 / 3.0) < 1e-15 && fabs(L2[3] - 2.0 / 3.0) < 1e-15);
	CHECK(fabs(L2[1] + 0.5 / sqrt(1.125)) < 1e-15 && L2[1] == L2[2]);
	CHECK(lsv_kernel_laplacian(K3, 3, L3, &e) == LSV_OK);
	for (i = 0; i < 9; i++)
		CHECK(fabs(L3[i] - want3[i]) < 1e-15);
	CHECK(lsv_kernel_laplacian(Kneg, 2, Lneg, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "needs weights K_ij >= 0, but K(2, 1) = -0.25") !=
	      NULL);
}

/* -V kernel with K = the 4-cycle's adjacency W (given as the kernel
 * matrix): its Laplacian is the cycle graph's, so the diffusion kernel is
 * the closed form of diffusion_kernel_on_a_cycle_matches_its_closed_form,
 * with no graph at all; the cache keeps the kernel's and the graph's
 * Laplacian apart. */
static void diffusion_on_the_kernel_laplacian_of_a_cycle(void)
{
	lsv_data *x = data_of("1 1:0\n1 1:1\n-1 1:2\n-1 1:3\n");
	double W[16] = {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0};
	double K[16], v[4] = {1, -1, 1, -1}, err = 0.0;
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_eig_cache c;
	lsv_error e;
	size_t i, j;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	memset(&c, 0, sizeof c);
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_KDESIGN;
	p.kdesign = LSV_KDESIGN_DIFFUSION;
	p.la_k = 4;
	p.kd_delta = 1.0;
	p.gamma_I = 0.0;
	CHECK(p.lap_graph == LSV_LAP_KERNEL);  /* the default */
	CHECK(lsv_train_cached(x, NULL, &p, W, &c, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL) {
		lsv_data_free(x);
		return;
	}
	CHECK(c.valid && c.which == LSV_SPEC_KLAPLACIAN_BOTTOM);
	CHECK(lsv_learned_kernel(&r, 4, K, &e) == LSV_OK);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			double p0 = 0.25, p2 = v[i] * v[j] / 4.0;
			double want = p0 + exp(-2.0) * p2 +
				      exp(-1.0) * ((i == j) - p0 - p2);
			err = fmax(err, fabs(K[i + j * 4] - want));
		}
	CHECK(err < 1e-12);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	/* -V graph on the same K without a graph: refused, not the cache */
	p.lap_graph = LSV_LAP_GRAPH;
	CHECK(lsv_train_cached(x, NULL, &p, W, &c, NULL, &m, &r, &e) ==
	      LSV_EINVAL);
	CHECK(strstr(e.msg, "needs a graph over the training rows with -V "
			    "graph") != NULL);
	CHECK(c.hits == 0);
	lsv_eig_cache_free(&c);
	lsv_data_free(x);
}

static void cluster_kernel_has_a_unit_diagonal_and_refuses_one_label(void)
{
	lsv_data *x = data_of("1 1:0\n1 1:0.3\n-1 1:2\n-1 1:2.4\n0 1:0.5\n"
			      "0 1:1\n0 1:1.6\n0 1:3\n");
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;
	double K[64];
	size_t i;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_KDESIGN;
	p.kdesign = LSV_KDESIGN_CLUSTER;
	p.la_k = 3;
	p.gamma_I = 0.0;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(lsv_learned_kernel(&r, 8, K, &e) == LSV_OK);
		for (i = 0; i < 8; i++)
			CHECK(fabs(K[i + i * 8] - 1.0) < 1e-12);
		for (i = 0; i < 3; i++)  /* mu = max(lambda, 0), descending */
			CHECK(r.la_weight[i] >= 0.0 &&
			      (i == 0 || r.la_weight[i] <= r.la_weight[i - 1]));
		CHECK(r.train_f != NULL);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	x->y[1] = 0.0;  /* class 1 keeps one labeled row */
	x->l = 3;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "class 1 has 1 labeled row: the cluster kernel") !=
	      NULL);
	lsv_data_free(x);
}

/* The cluster kernel's default, the linear transfer phi(lambda) = lambda
 * over the whole spectrum of S = D^-1/2 K D^-1/2: L~ = S, and the unit
 * diagonal gives K~_ij = K_ij / sqrt(K_ii K_jj).  By hand on a linear
 * kernel of six points in the plane, that is the cosine of the angle
 * between x_i and x_j: cos(x1, x2) = 1/sqrt 2 ((1,0), (1,1)), cos(x1, x3)
 * = 0 ((1,0), (0,1)), cos(x2, x4) = 3/sqrt 10 ((1,1), (2,1)); and on the
 * RBF kernel (unit diagonal) K~ = K.  All n = 6 eigenpairs are used. */
static void cluster_kernel_linear_transfer_is_the_normalized_kernel(void)
{
	static const double X[6][2] = {{1, 0}, {1, 1}, {0, 1}, {2, 1},
				       {1, 2}, {3, 1}};
	lsv_data *x = data_of("1 1:1 2:0\n0 1:1 2:1\n-1 1:0 2:1\n"
			      "1 1:2 2:1\n-1 1:1 2:2\n0 1:3 2:1\n");
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r;
	lsv_error e;
	double Kt[36], d = 0.0, dr = 0.0;
	size_t i, j;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_KDESIGN;
	p.kdesign = LSV_KDESIGN_CLUSTER;
	p.gamma_I = 0.0;
	p.kernel.type = LSV_KERNEL_LINEAR;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL) {
		lsv_data_free(x);
		return;
	}
	CHECK(r.la_k == 6 && m->param.la_k == 6);  /* the whole spectrum */
	CHECK(lsv_learned_kernel(&r, 6, Kt, &e) == LSV_OK);
	CHECK(fabs(Kt[0 + 1 * 6] - 1.0 / sqrt(2.0)) < 1e-10);
	CHECK(fabs(Kt[0 + 2 * 6]) < 1e-10);
	CHECK(fabs(Kt[1 + 3 * 6] - 3.0 / sqrt(10.0)) < 1e-10);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++) {
			double xy = X[i][0] * X[j][0] + X[i][1] * X[j][1];
			double c = xy / sqrt((X[i][0] * X[i][0] + X[i][1] * X[i][1]) *
					     (X[j][0] * X[j][0] + X[j][1] * X[j][1]));
			d = fmax(d, fabs(Kt[i + j * 6] - c));
		}
	CHECK(d < 1e-10);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	m = NULL;
	/* RBF: K~ = K, exp(-|x_i - x_j|^2 / 2) */
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = 0.5;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(lsv_learned_kernel(&r, 6, Kt, &e) == LSV_OK);
		for (i = 0; i < 6; i++)
			for (j = 0; j < 6; j++) {
				double a = X[i][0] - X[j][0], b = X[i][1] - X[j][1];
				dr = fmax(dr, fabs(Kt[i + j * 6] -
						   exp(-0.5 * (a * a + b * b))));
			}
		CHECK(dr < 1e-10);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	lsv_data_free(x);
}

/* The spectrum cache of cross validation: a second training on the same K
 * (other labels) takes the eigenpairs from it and gives exactly what an
 * uncached training gives; another K, or another spectrum, misses. */
static void spectrum_cache_serves_the_same_k_and_changes_nothing(void)
{
	lsv_data *x = data_of("1 1:0\n1 1:0.3\n-1 1:2\n-1 1:2.4\n0 1:0.5\n"
			      "0 1:1\n0 1:1.6\n0 1:3\n");
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_train_report r1, r2;
	lsv_eig_cache c;
	lsv_error e;
	double *K = NULL, *K2 = NULL;
	size_t i;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	memset(&c, 0, sizeof c);
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LABELAWARE;
	p.la_k = 3;
	p.gamma_I = 0.0;
	p.kernel.gamma = 1.0;
	CHECK(lsv_train_kernel(x, &p, &K, &e) == LSV_OK);
	CHECK(lsv_train_kernel(x, &p, &K2, &e) == LSV_OK);
	CHECK(lsv_train_cached(x, NULL, &p, K, &c, NULL, &m, &r1, &e) == LSV_OK);
	lsv_model_free(m);
	CHECK(c.valid && c.hits == 0 && c.which == LSV_SPEC_KERNEL_TOP);
	x->y[4] = 1.0;  /* other labels, same rows: a hit */
	x->l = 5;
	CHECK(lsv_train_cached(x, NULL, &p, K, &c, NULL, &m, &r2, &e) == LSV_OK);
	lsv_model_free(m);
	CHECK(c.hits == 1);
	lsv_train_report_free(&r1);
	CHECK(lsv_train_with_kernel(x, NULL, &p, K, NULL, &m, &r1, &e) == LSV_OK);
	lsv_model_free(m);
	for (i = 0; r1.train_f && r2.train_f && i < 8; i++)
		CHECK(r1.train_f[i] == r2.train_f[i]);
	lsv_train_report_free(&r1);
	lsv_train_report_free(&r2);
	/* another K (same values, another array): a miss */
	CHECK(lsv_train_cached(x, NULL, &p, K2, &c, NULL, &m, &r1, &e) == LSV_OK);
	lsv_model_free(m);
	lsv_train_report_free(&r1);
	CHECK(c.hits == 1 && c.K == K2);
	/* another spectrum on the same K: a miss */
	p.solver = LSV_SOLVER_KDESIGN;
	p.kdesign = LSV_KDESIGN_CLUSTER;
	CHECK(lsv_train_cached(x, NULL, &p, K2, &c, NULL, &m, &r1, &e) == LSV_OK);
	lsv_model_free(m);
	lsv_train_report_free(&r1);
	CHECK(c.hits == 1 && c.which == LSV_SPEC_AFFINITY_TOP);
	lsv_eig_cache_free(&c);
	free(K);
	free(K2);
	lsv_data_free(x);
}

const unit_case kdesign_cases[] = {
	{"spectrum_cache_serves_the_same_k_and_changes_nothing",
	 spectrum_cache_serves_the_same_k_and_changes_nothing},
	{"eig_extreme_on_a_hand_matrix", eig_extreme_on_a_hand_matrix},
	{"eig_extreme_on_repeated_eigenvalues",
	 eig_extreme_on_repeated_eigenvalues},
	{"order_qp_hand_case", order_qp_hand_case},
	{"order_qp_meets_its_kkt_conditions", order_qp_meets_its_kkt_conditions},
	{"align_ordered_is_ordered_sums_to_one_and_beats_the_cone",
	 align_ordered_is_ordered_sums_to_one_and_beats_the_cone},
	{"diffusion_kernel_on_a_cycle_matches_its_closed_form",
	 diffusion_kernel_on_a_cycle_matches_its_closed_form},
	{"kernel_laplacian_hand_cases", kernel_laplacian_hand_cases},
	{"diffusion_on_the_kernel_laplacian_of_a_cycle",
	 diffusion_on_the_kernel_laplacian_of_a_cycle},
	{"cluster_kernel_linear_transfer_is_the_normalized_kernel",
	 cluster_kernel_linear_transfer_is_the_normalized_kernel},
	{"cluster_kernel_has_a_unit_diagonal_and_refuses_one_label",
	 cluster_kernel_has_a_unit_diagonal_and_refuses_one_label},
	{NULL, NULL}
};
