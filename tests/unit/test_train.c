/* LapRLS / LapSVM training against independently derived answers: naive
 * Gaussian elimination on the paper's closed forms, an analytic two-point
 * dual, the KKT conditions of the QP, and the gamma_I -> 0 limits. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "ref.h"
#include "solver.h"
#include "unit.h"

/* Small 2-D problem: n points, labels +1/-1/0 (unlabeled) given. */
static lsv_data *points(const double *xy, const double *y, size_t n)
{
	lsv_data *x = calloc(1, sizeof *x);
	size_t i;
	x->n = n;
	x->dim = 2;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc(2 * n * sizeof *x->col);
	x->val = malloc(2 * n * sizeof *x->val);
	x->y = malloc(n * sizeof *x->y);
	for (i = 0; i < n; i++) {
		x->rowptr[i] = 2 * i;
		x->col[2 * i] = 0;
		x->col[2 * i + 1] = 1;
		x->val[2 * i] = xy[2 * i];
		x->val[2 * i + 1] = xy[2 * i + 1];
		x->y[i] = y[i];
		x->l += y[i] != 0.0;
	}
	x->rowptr[n] = 2 * n;
	x->nnz = 2 * n;
	return x;
}

static lsv_data *toy(size_t n, unsigned long long seed, const size_t *lab,
		     const double *laby, size_t l)
{
	double *xy = malloc(2 * n * sizeof *xy), *y = calloc(n, sizeof *y);
	lsv_rng r;
	lsv_data *x;
	size_t i;
	lsv_rng_seed(&r, seed);
	for (i = 0; i < 2 * n; i++)
		xy[i] = lsv_rng_normal(&r) + (i % 2 == 0 && i < n ? 2.0 : 0.0);
	for (i = 0; i < l; i++)
		y[lab[i]] = laby[i];
	x = points(xy, y, n);
	free(xy);
	free(y);
	return x;
}

/* Independent pieces: RBF Gram matrix and the Laplacian, by formula. */
static double *gram(const lsv_data *x, double g)
{
	size_t n = x->n, i, j;
	double *K = malloc(n * n * sizeof *K);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double du = x->val[2 * i] - x->val[2 * j];
			double dv = x->val[2 * i + 1] - x->val[2 * j + 1];
			K[i + j * n] = exp(-g * (du * du + dv * dv));
		}
	return K;
}

static double *laplacian(const lsv_graph *gr, int normalized)
{
	size_t n = gr->n, i, j, p;
	double *W = calloc(n * n, sizeof *W), *L = calloc(n * n, sizeof *L);
	double *d = calloc(n, sizeof *d);
	for (i = 0; i < n; i++)
		for (p = gr->rowptr[i]; p < gr->rowptr[i + 1]; p++) {
			W[i + (size_t)gr->col[p] * n] = gr->w[p];
			d[i] += gr->w[p];
		}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (normalized)
				L[i + j * n] = (i == j && d[i] > 0 ? 1.0 : 0.0) -
					       (d[i] > 0 && d[j] > 0 ? W[i + j * n] / sqrt(d[i] * d[j]) : 0.0);
			else
				L[i + j * n] = (i == j ? d[i] : 0.0) - W[i + j * n];
		}
	free(W);
	free(d);
	return L;
}

static double *decision(const lsv_model *m, const lsv_data *x)
{
	double *s = malloc(x->n * (size_t)m->nr_fn * sizeof *s);
	lsv_error e;
	if (lsv_model_decision(m, x, s, &e) != LSV_OK) {
		fprintf(stderr, "  decision: %s\n", e.msg);
		free(s);
		return NULL;
	}
	return s;
}

/* Train, keeping the report in r (the caller frees it with
 * lsv_train_report_free) or dropping it (r NULL). */
static lsv_model *train_r(const lsv_data *x, const lsv_graph *g,
			  const lsv_train_param *p, lsv_train_report *r)
{
	lsv_model *m = NULL;
	lsv_error e;
	if (lsv_train(x, g, p, NULL, &m, r, &e) != LSV_OK)
		fprintf(stderr, "  train: %s\n", e.msg);
	return m;
}

static lsv_model *train(const lsv_data *x, const lsv_graph *g,
			const lsv_train_param *p)
{
	return train_r(x, g, p, NULL);
}

static lsv_graph *knn_graph(const lsv_data *x, int k)
{
	lsv_graph_param gp;
	lsv_graph *g = NULL;
	lsv_error e;
	lsv_graph_param_default(&gp);
	gp.k = k;
	lsv_graph_build(x, &gp, &g, NULL, &e);
	return g;
}

static double max_rel_diff(const double *a, const double *b, size_t n)
{
	double worst = 0.0;
	size_t i;
	for (i = 0; i < n; i++) {
		double d = fabs(a[i] - b[i]) / fmax(1.0, fabs(b[i]));
		if (d > worst)
			worst = d;
	}
	return worst;
}

static const size_t LAB[] = {0, 3, 7, 12, 15, 18};
static const double LABY[] = {1, -1, 1, -1, 1, -1};

static void laprls_matches_closed_form_of_eq8(void)
{
	size_t n = 20, l = 6, i, j, k;
	lsv_data *x = toy(n, 3, LAB, LABY, l);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_model *m;
	double *K, *L, *M, *a, *want, *got;
	int norm;

	for (norm = 0; norm < 2; norm++) {
		lsv_train_param_default(&p);
		p.solver = LSV_SOLVER_LAPRLS;
		p.kernel.gamma = 0.5;
		p.gamma_A = 0.01;
		p.gamma_I = 3.0;
		p.normalized = norm;
		m = train(x, g, &p);
		CHECK(m != NULL);
		if (m == NULL)
			continue;
		/* M = J K + gamma_A l I + gamma_I l/n^2 L K;  alpha = M^-1 Y */
		K = gram(x, 0.5);
		L = laplacian(g, norm);
		M = calloc(n * n, sizeof *M);
		a = calloc(n, sizeof *a);
		want = calloc(n, sizeof *want);
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				double lk = 0.0;
				for (k = 0; k < n; k++)
					lk += L[i + k * n] * K[k + j * n];
				M[i + j * n] = (x->y[i] != 0 ? K[i + j * n] : 0.0) +
					       (i == j ? p.gamma_A * (double)l : 0.0) +
					       p.gamma_I * (double)l / (double)(n * n) * lk;
			}
		for (i = 0; i < n; i++)
			a[i] = x->y[i];
		ref_gauss(M, a, n, 1);
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				want[i] += K[i + j * n] * a[j];
		got = decision(m, x);
		CHECK(got != NULL && max_rel_diff(got, want, n) < 1e-9);
		CHECK(m->bias[0] == 0.0 && m->labels[0] == 1.0);
		free(K);
		free(L);
		free(M);
		free(a);
		free(want);
		free(got);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void rls_at_gamma_I_zero_is_the_labeled_closed_form(void)
{
	size_t n = 20, l = 6, i, j;
	lsv_data *x = toy(n, 4, LAB, LABY, l);
	lsv_train_param p;
	lsv_model *m;
	double *K = gram(x, 0.5), A[36], b[6], *want = calloc(n, sizeof *want), *got;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.02;
	p.gamma_I = 0.0;
	m = train(x, NULL, &p);  /* no graph needed */
	CHECK(m != NULL && m->sv->n == l);
	for (i = 0; i < l; i++) {
		for (j = 0; j < l; j++)
			A[i + j * l] = K[LAB[i] + LAB[j] * n] + (i == j ? 0.02 * l : 0.0);
		b[i] = LABY[i];
	}
	ref_gauss(A, b, l, 1);
	for (i = 0; i < n; i++)
		for (j = 0; j < l; j++)
			want[i] += K[i + LAB[j] * n] * b[j];
	got = m ? decision(m, x) : NULL;
	CHECK(got != NULL && max_rel_diff(got, want, n) < 1e-10);
	free(K);
	free(want);
	free(got);
	lsv_model_free(m);
	lsv_data_free(x);
}

static void gamma_I_to_zero_limit_is_rls_and_svm(void)
{
	/* The general n x n path with a vanishing gamma_I must approach the
	 * gamma_I = 0 shortcut (RLS / SVM on the labeled rows only). */
	size_t n = 20;
	lsv_data *x = toy(n, 5, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	int s;

	for (s = 0; s < 2; s++) {
		lsv_model *m0, *m1;
		double *f0, *f1;
		lsv_train_param_default(&p);
		p.solver = s ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
		p.kernel.gamma = 0.5;
		p.gamma_A = 0.01;
		p.eps = 1e-10;
		p.gamma_I = 0.0;
		m0 = train(x, g, &p);
		p.gamma_I = 1e-9;
		m1 = train(x, g, &p);
		CHECK(m0 != NULL && m1 != NULL);
		if (m0 == NULL || m1 == NULL)
			continue;
		f0 = decision(m0, x);
		f1 = decision(m1, x);
		CHECK(f0 && f1 && max_rel_diff(f1, f0, n) < 1e-6);
		free(f0);
		free(f1);
		lsv_model_free(m0);
		lsv_model_free(m1);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void lapsvm_two_labels_matches_analytic_dual(void)
{
	/* l = 2 (one per class): the dual has beta_1 = beta_2 = beta, the
	 * maximizer of 2 beta - beta^2 (G11 + G22 - 2 G12) / 2 clipped to
	 * [0, 1/2]; both free gives y_i f_i = 1 at both points. */
	size_t n = 16, i, j, k, lab[2] = {2, 9};
	double laby[2] = {1, -1};
	lsv_data *x = toy(n, 6, lab, laby, 2);
	lsv_graph *g = knn_graph(x, 3);
	lsv_train_param p;
	lsv_model *m;
	double *K, *L, *P, *Z, G[4], beta, *alpha, *want, *got, b;
	double cI;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPSVM;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.05;
	p.gamma_I = 50.0;
	p.eps = 1e-12;
	m = train(x, g, &p);
	CHECK(m != NULL);
	if (m == NULL)
		return;
	K = gram(x, 0.5);
	L = laplacian(g, 1);
	P = calloc(n * n, sizeof *P);
	Z = calloc(n * 2, sizeof *Z);
	cI = 2.0 * p.gamma_I / (double)(n * n);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double lk = 0.0;
			for (k = 0; k < n; k++)
				lk += L[i + k * n] * K[k + j * n];
			P[i + j * n] = cI * lk + (i == j ? 2.0 * p.gamma_A : 0.0);
		}
	Z[lab[0]] = 1.0;
	Z[lab[1] + n] = 1.0;
	ref_gauss(P, Z, n, 2);  /* Z = P^-1 J' */
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			G[i + 2 * j] = 0.0;
			for (k = 0; k < n; k++)
				G[i + 2 * j] += K[lab[i] + k * n] * Z[k + j * n];
		}
	beta = 2.0 / (G[0] + G[3] - G[1] - G[2]);
	CHECK(beta > 0 && beta < 0.5);  /* the case where both are free */
	alpha = calloc(n, sizeof *alpha);
	want = calloc(n, sizeof *want);
	for (k = 0; k < n; k++)
		alpha[k] = beta * (Z[k] - Z[k + n]);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			want[i] += K[i + j * n] * alpha[j];
	b = 1.0 - want[lab[0]];  /* f(x_lab0) = 1 */
	for (i = 0; i < n; i++)
		want[i] += b;
	CHECK(fabs(want[lab[1]] + 1.0) < 1e-9);  /* and f(x_lab1) = -1 */
	got = decision(m, x);
	CHECK(got != NULL && max_rel_diff(got, want, n) < 1e-8);
	free(K);
	free(L);
	free(P);
	free(Z);
	free(alpha);
	free(want);
	free(got);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void smo_solution_satisfies_kkt(void)
{
	enum { L = 40 };
	static double A[L * L], Q[L * L];
	double y[L], C[L], beta[L], G[L], rho, up = -INFINITY, low = INFINITY, s = 0;
	lsv_rng r;
	lsv_error e;
	size_t i, j, k;
	long iters = 0;

	lsv_rng_seed(&r, 8);
	for (i = 0; i < L * L; i++)
		A[i] = lsv_rng_normal(&r);
	for (i = 0; i < L; i++) {
		y[i] = lsv_rng_uniform(&r) < 0.4 ? -1.0 : 1.0;
		C[i] = i % 3 == 0 ? 0.05 : 1.0;  /* per-point boxes */
	}
	for (i = 0; i < L; i++)  /* Q = Y A'A Y / L: PSD */
		for (j = 0; j < L; j++) {
			double d = 0.0;
			for (k = 0; k < L; k++)
				d += A[k + i * L] * A[k + j * L];
			Q[i + j * L] = y[i] * y[j] * d / L;
		}
	CHECK(lsv_smo(Q, y, C, L, 1e-9, 0, 0, beta, &rho, &iters, &e) == LSV_OK);
	CHECK(iters > 0);
	for (i = 0; i < L; i++) {
		CHECK(beta[i] >= 0.0 && beta[i] <= C[i]);
		s += y[i] * beta[i];
		G[i] = -1.0;
		for (j = 0; j < L; j++)
			G[i] += Q[i + j * L] * beta[j];
	}
	CHECK(fabs(s) < 1e-12);
	/* KKT: max over I_up of -y G <= min over I_low of -y G (+ eps) */
	for (i = 0; i < L; i++) {
		int in_up = (y[i] > 0 && beta[i] < C[i]) || (y[i] < 0 && beta[i] > 0);
		int in_low = (y[i] > 0 && beta[i] > 0) || (y[i] < 0 && beta[i] < C[i]);
		if (in_up)
			up = fmax(up, -y[i] * G[i]);
		if (in_low)
			low = fmin(low, -y[i] * G[i]);
		if (beta[i] > 0 && beta[i] < C[i])  /* free: y G = rho */
			CHECK(fabs(y[i] * G[i] - rho) < 1e-6);
	}
	CHECK(up - low < 1e-8);
}

static void laplacian_power_and_isolated_nodes(void)
{
	/* Path 1-2-3 plus isolated node 4: L^2 equals L L by hand, and the
	 * isolated node has a zero row (no 1 on the normalized diagonal). */
	static const char text[] = "1 2:1\n2 1:1 3:2\n3 2:2\n4\n";
	FILE *fp = fmemopen((void *)text, sizeof text - 1, "r");
	lsv_graph *g;
	lsv_error e;
	double L1[16], L2[16], want[16];
	size_t i, j, k, n = 4;
	int norm;

	CHECK(lsv_graph_read(fp, "g", 4, &g, &e) == LSV_OK);
	fclose(fp);
	for (norm = 0; norm < 2; norm++) {
		double *ref = laplacian(g, norm);
		CHECK(lsv_laplacian_dense(g, norm, 1, L1, &e) == LSV_OK);
		CHECK(lsv_laplacian_dense(g, norm, 2, L2, &e) == LSV_OK);
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				want[i + j * n] = 0.0;
				for (k = 0; k < n; k++)
					want[i + j * n] += ref[i + k * n] * ref[k + j * n];
			}
		for (i = 0; i < 16; i++) {
			CHECK(fabs(L1[i] - ref[i]) < 1e-15);
			CHECK(fabs(L2[i] - want[i]) < 1e-14);
		}
		for (i = 0; i < n; i++)
			CHECK(L1[3 + i * n] == 0.0 && L1[i + 3 * n] == 0.0);
		free(ref);
	}
	/* hand values: D - W for the path 1-2-3 (weights 1, 2) */
	lsv_laplacian_dense(g, 0, 1, L1, &e);
	CHECK(L1[0] == 1 && L1[1 + 1 * n] == 3 && L1[2 + 2 * n] == 2 &&
	      L1[0 + 1 * n] == -1 && L1[1 + 2 * n] == -2 && L1[0 + 2 * n] == 0);
	lsv_laplacian_dense(g, 1, 1, L1, &e);
	CHECK(fabs(L1[1 + 2 * n] + 2.0 / sqrt(3.0 * 2.0)) < 1e-15);
	lsv_graph_free(g);
}

static void smo_reports_iteration_cap(void)
{
	double Q[4] = {1, 0.5, 0.5, 1}, y[2] = {1, -1}, C[2] = {10, 10}, beta[2], rho;
	lsv_error e;
	CHECK(lsv_smo(Q, y, C, 2, 1e-12, 1, 0, beta, &rho, NULL, &e) == LSV_ENUMERIC);
	CHECK(strstr(e.msg, "did not converge in 1 iterations") != NULL);
}

static void one_vs_rest_equals_binary_problems(void)
{
	/* Class c's decision function is the binary LapRLS of c vs the rest. */
	size_t n = 24, i, lab[6] = {0, 5, 9, 13, 17, 22};
	double laby[6] = {1, 2, 3, 1, 2, 3};
	lsv_data *x = toy(n, 9, lab, laby, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_model *m;
	double *f;
	int c;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.01;
	p.gamma_I = 1.0;
	m = train(x, g, &p);
	CHECK(m != NULL && m->nr_class == 3 && m->nr_fn == 3);
	if (m == NULL)
		return;
	CHECK(m->labels[0] == 1 && m->labels[1] == 2 && m->labels[2] == 3);
	f = decision(m, x);
	for (c = 0; c < 3 && f; c++) {
		lsv_data *xb = toy(n, 9, lab, laby, 6);
		lsv_model *mb;
		double *fb, *col = malloc(n * sizeof *col);
		for (i = 0; i < 6; i++)
			xb->y[lab[i]] = laby[i] == m->labels[c] ? 1.0 : -1.0;
		mb = train(xb, g, &p);
		fb = mb ? decision(mb, xb) : NULL;
		for (i = 0; i < n; i++)
			col[i] = f[i * 3 + (size_t)c];
		CHECK(fb != NULL && max_rel_diff(col, fb, n) < 1e-10);
		free(fb);
		free(col);
		lsv_model_free(mb);
		lsv_data_free(xb);
	}
	free(f);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void training_refuses_degenerate_label_sets(void)
{
	size_t lab[2] = {1, 4};
	double same[2] = {1, 1};
	lsv_data *x = toy(8, 2, lab, same, 2);
	lsv_graph *g = knn_graph(x, 3);
	lsv_train_param p;
	lsv_model *m = (lsv_model *)1;
	lsv_error e;
	size_t i;

	lsv_train_param_default(&p);
	p.kernel.gamma = 1;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL && m == NULL);
	CHECK_STR(e.msg, "the labeled rows have only one class (1): need at least two");
	for (i = 0; i < x->n; i++)
		x->y[i] = 0.0;
	x->l = 0;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "no labeled rows (every label is the unlabeled marker 0)");
	lsv_graph_free(g);
	lsv_data_free(x);
	x = toy(9, 2, lab, (double[]){1, -1}, 2);
	g = knn_graph(x, 3);
	lsv_data_free(x);
	x = toy(8, 2, lab, (double[]){1, -1}, 2);
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "the graph has 9 rows but the data 8");
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void model_round_trip_gives_identical_decisions(void)
{
	size_t n = 20, i;
	lsv_data *x = toy(n, 12, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_model *m, *r = NULL;
	lsv_error e;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	double *f1, *f2;

	lsv_train_param_default(&p);
	p.kernel.gamma = 0.3;
	m = train(x, g, &p);
	if (m == NULL) {
		CHECK(0);
		return;
	}
	fp = open_memstream(&buf, &len);
	CHECK(lsv_model_write(fp, "m", m, &e) == LSV_OK);
	fclose(fp);
	fp = fmemopen(buf, len, "r");
	CHECK(lsv_model_read(fp, "m", &r, &e) == LSV_OK);
	fclose(fp);
	if (r != NULL) {
		f1 = decision(m, x);
		f2 = decision(r, x);
		for (i = 0; f1 && f2 && i < n; i++)
			CHECK(f1[i] == f2[i]);
		free(f1);
		free(f2);
	}
	free(buf);
	lsv_model_free(m);
	lsv_model_free(r);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void mean_sqdist_is_the_mean_over_distinct_pairs(void)
{
	/* Rows (0,0), (3,0), (0,4), far from the origin by 1e8 in the first
	 * feature: pair distances^2 9, 16, 25, mean 50/3, exactly, with no
	 * cancellation from the offset. */
	double xy[6] = {1e8, 0, 1e8 + 3, 0, 1e8, 4}, y[3] = {1, -1, 0}, d2;
	lsv_data *x = points(xy, y, 3);
	lsv_error e;

	CHECK(lsv_mean_sqdist(x, &d2, &e) == LSV_OK);
	CHECK(fabs(d2 - 50.0 / 3.0) < 1e-6);
	x->n = 1;  /* one row: no pair */
	CHECK(lsv_mean_sqdist(x, &d2, &e) == LSV_OK && d2 == 0.0);
	x->n = 3;
	x->val[3] = 1e200;
	CHECK(lsv_mean_sqdist(x, &d2, &e) == LSV_EINVAL);
	CHECK(strncmp(e.msg, "row 2: its squared norm overflows a double", 42) == 0);
	CHECK(e.row == 2);
	lsv_data_free(x);
}

static void rbf_gamma_defaults_to_one_over_the_mean_sqdist(void)
{
	size_t n = 30;
	lsv_data *x = toy(n, 59, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_train_report r;
	lsv_model *m;
	lsv_error e;
	double d2;

	CHECK(lsv_mean_sqdist(x, &d2, &e) == LSV_OK && d2 > 0.0);
	lsv_train_param_default(&p);
	m = train_r(x, g, &p, &r);
	CHECK(m != NULL && m->param.kernel.gamma == 1.0 / d2 &&
	      r.gamma_data == 1.0 / d2);
	lsv_model_free(m);
	lsv_train_report_free(&r);
	/* RLS trains on the labeled rows alone, with the width of all rows */
	p.gamma_I = 0.0;
	m = train_r(x, NULL, &p, &r);
	CHECK(m != NULL && m->param.kernel.gamma == 1.0 / d2);
	lsv_model_free(m);
	lsv_train_report_free(&r);
	/* polynomial: 1 / features, as LIBSVM; a given gamma is kept */
	p.kernel.type = LSV_KERNEL_POLY;
	m = train_r(x, NULL, &p, &r);
	CHECK(m != NULL && m->param.kernel.gamma == 0.5 && r.gamma_data == 0.0);
	lsv_model_free(m);
	lsv_train_report_free(&r);
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = 3.0;
	m = train_r(x, NULL, &p, &r);
	CHECK(m != NULL && m->param.kernel.gamma == 3.0 && r.gamma_data == 0.0);
	lsv_model_free(m);
	lsv_train_report_free(&r);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Unlabeled rows of x whose column c of f (n x nr_fn) is > 0. */
static size_t unlabeled_positives(const lsv_data *x, const double *f,
				  int nr_fn, int c)
{
	size_t i, k = 0;
	for (i = 0; i < x->n; i++)
		k += !lsv_data_is_labeled(x, i) && f[i * (size_t)nr_fn + (size_t)c] > 0.0;
	return k;
}

/* For every kind of row of the method table (a kernel expansion, the SVM
 * on the labeled rows alone, a linear feature map, the TSVM), balance
 * GIVEN r = 1/4 of u = 18 unlabeled rows: floor(4.5 + 0.5) = 5 of them
 * positive, both in the model's decisions and in the report's outputs;
 * the model's bias is the unbalanced bias plus the recorded shift. */
static void balance_shifts_the_bias_after_every_method(void)
{
	static const struct { lsv_solver s; lsv_method m; int linear; double gI; }
	rows[] = {
		{LSV_SOLVER_LAPSVM, LSV_METHOD_DIRECT, 0, 1.0},
		{LSV_SOLVER_LAPSVM, LSV_METHOD_DIRECT, 0, 0.0},   /* SVM */
		{LSV_SOLVER_LAPRLS, LSV_METHOD_NEWTON, 1, 1.0},   /* feature map */
		{LSV_SOLVER_TSVM, LSV_METHOD_DIRECT, 0, 0.0},
	};
	lsv_data *x = toy(24, 3, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 4);
	size_t k;

	for (k = 0; k < sizeof rows / sizeof *rows; k++) {
		lsv_train_param p;
		lsv_train_report rep;
		lsv_model *m0, *m;
		double *f;

		lsv_train_param_default(&p);
		p.solver = rows[k].s;
		p.method = rows[k].m;
		p.kernel.type = rows[k].linear ? LSV_KERNEL_LINEAR : LSV_KERNEL_RBF;
		p.kernel.gamma = 0.5;
		p.gamma_A = 0.01;
		p.gamma_I = rows[k].gI;
		m0 = train(x, g, &p);
		p.balance = LSV_BALANCE_GIVEN;
		p.balance_r = 0.25;
		m = train_r(x, g, &p, &rep);
		CHECK(m0 != NULL && m != NULL);
		if (m0 == NULL || m == NULL) {
			lsv_model_free(m0);
			lsv_model_free(m);
			continue;
		}
		CHECK(m0->shift == NULL && m->shift != NULL);
		CHECK(m->bias[0] == m0->bias[0] + m->shift[0]);
		f = decision(m, x);
		CHECK(f != NULL && unlabeled_positives(x, f, 1, 0) == 5);
		CHECK(rep.train_f != NULL && unlabeled_positives(x, rep.train_f, 1, 0) == 5);
		CHECK(f != NULL && rep.train_f != NULL &&
		      max_rel_diff(rep.train_f, f, x->n) < 1e-9);
		free(f);
		lsv_train_report_free(&rep);
		lsv_model_free(m0);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* One-vs-rest by the labeled ratio: classes 1, 2, 3 hold 3, 2, 1 of the
 * 6 labels, so 9, 6 and 3 of the 18 unlabeled rows are positive for the
 * functions; a given fraction is refused with three classes. */
static void balance_labeled_ratio_one_vs_rest(void)
{
	size_t lab[6] = {0, 5, 9, 13, 17, 22};
	double laby[6] = {1, 2, 3, 1, 2, 1};
	lsv_data *x = toy(24, 9, lab, laby, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_train_report rep;
	lsv_model *m;
	lsv_error e;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.01;
	p.gamma_I = 1.0;
	p.balance = LSV_BALANCE_LABELED;
	m = train_r(x, g, &p, &rep);
	CHECK(m != NULL && m->nr_fn == 3 && rep.train_f != NULL);
	if (m != NULL && rep.train_f != NULL) {
		CHECK(unlabeled_positives(x, rep.train_f, 3, 0) == 9);
		CHECK(unlabeled_positives(x, rep.train_f, 3, 1) == 6);
		CHECK(unlabeled_positives(x, rep.train_f, 3, 2) == 3);
	}
	lsv_train_report_free(&rep);
	lsv_model_free(m);
	p.balance = LSV_BALANCE_GIVEN;
	p.balance_r = 0.5;
	m = NULL;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL && m == NULL);
	CHECK_STR(e.msg, "a positive fraction r is for two classes; with more, "
			 "balance by the labeled ratio of each class");
	p.balance_r = 1.0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "positive fraction r = 1 out of range (expected 0 < r < 1)");
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* lsv_alloc refuses a count * size past SIZE_MAX: (SIZE_MAX / 8 + 2) * 8
 * wraps to 8, a block far smaller than asked that the caller would fill. */
static void alloc_refuses_an_overflowing_size(void)
{
	void *p = lsv_alloc(SIZE_MAX / 8 + 2, 8);
	CHECK(p == NULL);
	free(p);
	p = lsv_alloc(0, 8);  /* 0: one element, not NULL */
	CHECK(p != NULL);
	free(p);
}

const unit_case train_cases[] = {
	{"alloc_refuses_an_overflowing_size", alloc_refuses_an_overflowing_size},
	{"balance_shifts_the_bias_after_every_method",
	 balance_shifts_the_bias_after_every_method},
	{"balance_labeled_ratio_one_vs_rest", balance_labeled_ratio_one_vs_rest},
	{"mean_sqdist_is_the_mean_over_distinct_pairs",
	 mean_sqdist_is_the_mean_over_distinct_pairs},
	{"rbf_gamma_defaults_to_one_over_the_mean_sqdist",
	 rbf_gamma_defaults_to_one_over_the_mean_sqdist},
	{"laprls_matches_closed_form_of_eq8", laprls_matches_closed_form_of_eq8},
	{"rls_at_gamma_I_zero_is_the_labeled_closed_form",
	 rls_at_gamma_I_zero_is_the_labeled_closed_form},
	{"gamma_I_to_zero_limit_is_rls_and_svm", gamma_I_to_zero_limit_is_rls_and_svm},
	{"lapsvm_two_labels_matches_analytic_dual",
	 lapsvm_two_labels_matches_analytic_dual},
	{"smo_solution_satisfies_kkt", smo_solution_satisfies_kkt},
	{"smo_reports_iteration_cap", smo_reports_iteration_cap},
	{"laplacian_power_and_isolated_nodes", laplacian_power_and_isolated_nodes},
	{"one_vs_rest_equals_binary_problems", one_vs_rest_equals_binary_problems},
	{"training_refuses_degenerate_label_sets",
	 training_refuses_degenerate_label_sets},
	{"model_round_trip_gives_identical_decisions",
	 model_round_trip_gives_identical_decisions},
	{NULL, NULL},
};

/* ------------------------------------------------------------------ */
/* TSVM                                                                */
/* ------------------------------------------------------------------ */

static lsv_model *tsvm_on(const lsv_data *x, double r, long cap,
			  lsv_train_report *rep)
{
	lsv_train_param p;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_TSVM;
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.05;
	p.eps = 1e-6;
	p.tsvm_r = r;
	p.tsvm_max_switches = cap;
	return train_r(x, NULL, &p, rep);
}

static void tsvm_converges_with_no_switchable_pair(void)
{
	/* After the last pass, no unlabeled positive m and negative j have
	 * xi_m > 0, xi_j > 0, xi_m + xi_j > 2 (Joachims' switching test). */
	size_t n = 40, i;
	lsv_data *x = toy(n, 21, LAB, LABY, 6);
	lsv_train_report rep;
	lsv_model *m = tsvm_on(x, 0.0, 0, &rep);
	double *f, xm = 0.0, xj = 0.0;

	CHECK(m != NULL && rep.ystar != NULL);
	if (m == NULL || rep.ystar == NULL)
		return;
	f = decision(m, x);
	for (i = 0; f && i < n; i++) {
		double xi;
		if (x->y[i] != 0.0)
			continue;
		xi = 1.0 - rep.ystar[i] * f[i];
		if (rep.ystar[i] > 0)
			xm = fmax(xm, xi);
		else
			xj = fmax(xj, xi);
	}
	CHECK(!(xm > 0 && xj > 0 && xm + xj > 2.0 + 1e-9));
	for (i = 0; i < 6; i++)  /* labeled rows keep their labels */
		CHECK(rep.ystar[LAB[i]] == LABY[i]);
	free(f);
	lsv_train_report_free(&rep);
	lsv_model_free(m);
	lsv_data_free(x);
}

static void tsvm_positive_fraction_is_r(void)
{
	size_t n = 57, i, u = 0, pos = 0;
	lsv_data *x = toy(n, 22, LAB, LABY, 6);
	const double r[] = {0.2, 0.5, 0.7};
	int k;

	for (k = 0; k < 3; k++) {
		lsv_train_report rep;
		lsv_model *m = tsvm_on(x, r[k], 0, &rep);
		CHECK(m != NULL);
		if (m == NULL)
			continue;
		for (i = 0, u = 0, pos = 0; i < n; i++)
			if (x->y[i] == 0.0) {
				u++;
				pos += rep.ystar[i] > 0;
			}
		CHECK(fabs((double)pos - r[k] * (double)u) <= 1.0);
		lsv_train_report_free(&rep);
		lsv_model_free(m);
	}
	lsv_data_free(x);
}

static void tsvm_without_unlabeled_rows_is_the_svm(void)
{
	size_t n = 6, lab[6] = {0, 1, 2, 3, 4, 5};
	lsv_data *x = toy(n, 23, lab, LABY, 6);
	lsv_train_param p;
	lsv_train_report rep;
	lsv_model *t, *s;
	double *ft, *fs;

	t = tsvm_on(x, 0.0, 0, &rep);
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPSVM;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.05;
	p.gamma_I = 0.0;
	p.eps = 1e-6;
	s = train(x, NULL, &p);
	CHECK(t != NULL && s != NULL);
	if (t != NULL && s != NULL) {
		ft = decision(t, x);
		fs = decision(s, x);
		CHECK(ft && fs && max_rel_diff(ft, fs, n) < 1e-6);
		CHECK(rep.switches == 0);
		free(ft);
		free(fs);
	}
	lsv_train_report_free(&rep);
	lsv_model_free(t);
	lsv_model_free(s);
	lsv_data_free(x);
}

static void tsvm_switch_cap_is_respected(void)
{
	size_t n = 40;
	lsv_data *x = toy(n, 21, LAB, LABY, 6);
	lsv_train_report rf, rc;
	lsv_model *free_run = tsvm_on(x, 0.3, 0, &rf);
	lsv_model *capped = tsvm_on(x, 0.3, 1, &rc);

	CHECK(free_run != NULL && capped != NULL);
	if (free_run != NULL && capped != NULL) {
		CHECK(rf.switches > 1);  /* the data does need switches */
		CHECK(rc.switches <= 1 && rc.switch_capped);
		CHECK(!rf.switch_capped);
	}
	lsv_train_report_free(&rf);
	lsv_train_report_free(&rc);
	lsv_model_free(free_run);
	lsv_model_free(capped);
	lsv_data_free(x);
}

static void tsvm_bad_positive_fraction_is_refused(void)
{
	lsv_train_param p;
	lsv_error e;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_TSVM;
	p.tsvm_r = 1.0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "TSVM positive fraction r = 1 out of range (expected "
			 "0 < r < 1, or 0 for the labeled ratio)");
}

const unit_case tsvm_cases[] = {
	{"tsvm_converges_with_no_switchable_pair",
	 tsvm_converges_with_no_switchable_pair},
	{"tsvm_positive_fraction_is_r", tsvm_positive_fraction_is_r},
	{"tsvm_without_unlabeled_rows_is_the_svm",
	 tsvm_without_unlabeled_rows_is_the_svm},
	{"tsvm_switch_cap_is_respected", tsvm_switch_cap_is_respected},
	{"tsvm_bad_positive_fraction_is_refused",
	 tsvm_bad_positive_fraction_is_refused},
	{NULL, NULL},
};

/* ------------------------------------------------------------------ */
/* LapRLS by primal PCG                                                */
/* ------------------------------------------------------------------ */

static void pcg_reaches_the_closed_form(void)
{
	/* With a tight tolerance the PCG solution is eq. 8's, for one
	 * function and for three (one-vs-rest), plain and iterated L. */
	size_t n = 40, i, lab3[6] = {0, 5, 9, 13, 17, 22};
	double laby3[6] = {1, 2, 3, 1, 2, 3};
	lsv_data *xs[2];
	int k, norm;

	xs[0] = toy(n, 41, LAB, LABY, 6);
	xs[1] = toy(n, 42, lab3, laby3, 6);
	for (k = 0; k < 2; k++) {
		lsv_graph *g = knn_graph(xs[k], 5);
		for (norm = 0; norm < 2; norm++) {
			lsv_train_param p;
			lsv_train_report rp;
			lsv_model *md, *mp;
			double *fd, *fp;
			lsv_train_param_default(&p);
			p.solver = LSV_SOLVER_LAPRLS;
			p.kernel.gamma = 0.5;
			p.gamma_A = 0.01;
			p.gamma_I = 2.0;
			p.normalized = norm;
			p.power = norm ? 2 : 1;
			md = train(xs[k], g, &p);
			p.method = LSV_METHOD_PCG;
			p.pcg_tol = 1e-12;
			p.pcg_max_iter = 10 * (long)n;
			mp = train_r(xs[k], g, &p, &rp);
			CHECK(md != NULL && mp != NULL);
			if (md == NULL || mp == NULL)
				continue;
			CHECK(rp.pcg_iterations > 0 && rp.pcg_iterations <= 10 * (long)n);
			fd = decision(md, xs[k]);
			fp = decision(mp, xs[k]);
			CHECK(fd && fp && max_rel_diff(fp, fd, n * (size_t)md->nr_fn) < 1e-6);
			free(fd);
			free(fp);
			lsv_train_report_free(&rp);
			lsv_model_free(md);
			lsv_model_free(mp);
		}
		lsv_graph_free(g);
	}
	for (i = 0; i < 2; i++)
		lsv_data_free(xs[i]);
}

static void pcg_early_stopping_stops_sooner_with_the_same_labels(void)
{
	size_t n = 400, i, same = 0, u = 0;
	lsv_data *x = toy(n, 43, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 6);
	lsv_train_param p;
	lsv_train_report rfull, rearly;
	lsv_model *full, *early;
	double *ff, *fe;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.kernel.gamma = 20.0;  /* a narrow kernel: many iterations to converge */
	p.gamma_A = 1e-6;
	p.gamma_I = 5.0;
	p.method = LSV_METHOD_PCG;
	p.pcg_tol = 1e-12;
	full = train_r(x, g, &p, &rfull);
	p.method = LSV_METHOD_PCG_EARLY;
	early = train_r(x, g, &p, &rearly);
	CHECK(full != NULL && early != NULL);
	if (full == NULL || early == NULL)
		return;
	CHECK(rearly.pcg_iterations < rfull.pcg_iterations);
	ff = decision(full, x);
	fe = decision(early, x);
	for (i = 0; ff && fe && i < n; i++)
		if (x->y[i] == 0.0) {
			u++;
			same += (ff[i] > 0) == (fe[i] > 0);
		}
	CHECK(u > 0 && (double)same >= 0.95 * (double)u);
	free(ff);
	free(fe);
	lsv_train_report_free(&rfull);
	lsv_train_report_free(&rearly);
	lsv_model_free(full);
	lsv_model_free(early);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The first m rows of x, as a data set of their own. */
static lsv_data *prefix_rows(const lsv_data *x, size_t m)
{
	return points(x->val, x->y, m);  /* toy rows store (u, v) in order */
}

static void warm_start_reaches_the_cold_minimizer(void)
{
	/* A model of the first 32 rows starts the training on all 40: LapRLS
	 * PCG reaches eq. 8's closed form (the direct solver), LapSVM PCG and
	 * Newton (LU) the cold start's minimizer, one function and three
	 * (one-vs-rest); the warm Newton run takes no more steps, and from
	 * the cold start's own model one. */
	size_t n = 40, m = 32, lab3[6] = {0, 5, 9, 13, 17, 22};
	double laby3[6] = {1, 2, 3, 1, 2, 3};
	lsv_data *xs[2];
	int k, v;

	xs[0] = toy(n, 44, LAB, LABY, 6);
	xs[1] = toy(n, 45, lab3, laby3, 6);
	for (k = 0; k < 2; k++) {
		lsv_data *old = prefix_rows(xs[k], m);
		lsv_graph *g = knn_graph(xs[k], 5), *go = knn_graph(old, 5);
		for (v = 0; v < 3; v++) {
			lsv_train_param p;
			lsv_train_report rc, rw;
			lsv_model *mo, *mc, *mw, *mo2;
			double *fc, *fw;
			lsv_train_param_default(&p);
			p.solver = v == 0 ? LSV_SOLVER_LAPRLS : LSV_SOLVER_LAPSVM;
			p.kernel.gamma = 0.5;
			p.gamma_A = 0.01;
			p.gamma_I = 2.0;
			p.method = v == 2 ? LSV_METHOD_NEWTON : LSV_METHOD_PCG;
			p.pcg_tol = 1e-12;
			p.pcg_max_iter = 10 * (long)n;
			mo = train(old, go, &p);
			if (v == 0) {  /* the reference: eq. 8 by LU */
				p.method = LSV_METHOD_DIRECT;
				mc = train_r(xs[k], g, &p, &rc);
				p.method = LSV_METHOD_PCG;
			} else {
				mc = train_r(xs[k], g, &p, &rc);
			}
			p.init = mo;
			mw = train_r(xs[k], g, &p, &rw);
			CHECK(mo != NULL && mc != NULL && mw != NULL);
			if (mo == NULL || mc == NULL || mw == NULL)
				continue;
			CHECK(mw->param.init == NULL);
			fc = decision(mc, xs[k]);
			fw = decision(mw, xs[k]);
			CHECK(fc && fw &&
			      max_rel_diff(fw, fc, n * (size_t)mc->nr_fn) < 1e-6);
			if (v == 2)
				CHECK(rw.newton_steps <= rc.newton_steps);
			/* PCG reports how far its start was: further than the
			 * tolerance from the grown problem's minimizer; LU has
			 * no residual to report */
			CHECK(v == 2 ? rw.warm_residual == 0.0 :
			      rw.warm_residual > p.pcg_tol && rw.warm_residual < 1.0);
			/* from the minimizer itself: one Newton step per
			 * function (the active sets unchanged, the step 0),
			 * no PCG iteration (the start meets the tolerance) */
			lsv_train_report_free(&rw);
			p.init = v == 0 ? mw : mc;  /* LapRLS: mc is eq. 8's */
			mo2 = train_r(xs[k], g, &p, &rw);
			CHECK(mo2 != NULL);
			if (v > 0)  /* summed over the functions */
				CHECK(rw.newton_steps == mc->nr_fn);
			CHECK(rw.pcg_iterations == 0);
			CHECK(v == 2 || rw.warm_residual <= p.pcg_tol);
			lsv_model_free(mo2);
			free(fc);
			free(fw);
			lsv_train_report_free(&rc);
			lsv_train_report_free(&rw);
			lsv_model_free(mo);
			lsv_model_free(mc);
			lsv_model_free(mw);
		}
		lsv_graph_free(g);
		lsv_graph_free(go);
		lsv_data_free(old);
	}
	lsv_data_free(xs[0]);
	lsv_data_free(xs[1]);
}

static void warm_start_refuses_a_model_of_other_rows(void)
{
	size_t n = 40;
	lsv_data *x = toy(n, 46, LAB, LABY, 6), *y = toy(n, 47, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 5), *gy = knn_graph(y, 5);
	lsv_train_param p;
	lsv_model *mo, *mw = NULL;
	lsv_error e;

	lsv_train_param_default(&p);
	p.method = LSV_METHOD_PCG;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.01;
	p.gamma_I = 2.0;
	mo = train(y, gy, &p);
	CHECK(mo != NULL);
	p.init = mo;
	CHECK(lsv_train(x, g, &p, NULL, &mw, NULL, &e) == LSV_EINVAL);
	CHECK(mw == NULL);
	CHECK(strstr(e.msg, "not trained on a prefix of these data") != NULL);
	lsv_model_free(mo);
	lsv_graph_free(g);
	lsv_graph_free(gy);
	lsv_data_free(x);
	lsv_data_free(y);
}

static void pcg_at_its_cap_is_reported(void)
{
	/* Three iterations cannot reach 1e-12 on 40 rows: the solve stops
	 * there, is counted with its residual, and is not an error; under
	 * the default cap (10 n) it converges and nothing is counted. */
	size_t n = 40;
	lsv_data *x = toy(n, 41, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 5);
	lsv_train_param p;
	lsv_train_report rc, rd;
	lsv_model *mc, *md;

	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LAPRLS;
	p.method = LSV_METHOD_PCG;
	p.kernel.gamma = 0.5;
	p.gamma_A = 0.01;
	p.gamma_I = 2.0;
	p.pcg_tol = 1e-12;
	p.pcg_max_iter = 3;
	mc = train_r(x, g, &p, &rc);
	p.pcg_max_iter = 0;
	md = train_r(x, g, &p, &rd);
	CHECK(mc != NULL && md != NULL);
	CHECK(rc.pcg_iterations == 3 && rc.cg_cap == 3 && rc.cg_capped == 1);
	CHECK(rc.cg_capped_residual > 1e-12 && rc.cg_capped_residual < 1.0);
	CHECK(rd.cg_capped == 0 && rd.cg_cap == 10 * (long)n);
	CHECK(rd.pcg_iterations > 3 && rd.pcg_iterations < 10 * (long)n);
	lsv_train_report_free(&rc);
	lsv_train_report_free(&rd);
	lsv_model_free(mc);
	lsv_model_free(md);
	lsv_graph_free(g);
	lsv_data_free(x);
}

const unit_case pcg_cases[] = {
	{"pcg_reaches_the_closed_form", pcg_reaches_the_closed_form},
	{"pcg_at_its_cap_is_reported", pcg_at_its_cap_is_reported},
	{"pcg_early_stopping_stops_sooner_with_the_same_labels",
	 pcg_early_stopping_stops_sooner_with_the_same_labels},
	{"warm_start_reaches_the_cold_minimizer",
	 warm_start_reaches_the_cold_minimizer},
	{"warm_start_refuses_a_model_of_other_rows",
	 warm_start_refuses_a_model_of_other_rows},
	{NULL, NULL},
};

/* ------------------------------------------------------------------ */
/* Primal finite Newton (common/primal.c)                              */
/* ------------------------------------------------------------------ */

/*
 * Reference for f = K a + b minimizing 1/l sum_S (f_i - y_i)^2 +
 * gamma_A a'Ka + gamma_I/n^2 f'Lf for a fixed set S of labeled rows (all
 * of them for the squared loss, the active ones for the squared hinge):
 * its stationarity conditions, with K invertible,
 *     (J_S K/l + gamma_A I + cI L K) a + (J_S 1/l + cI L 1) b = J_S y/l
 *     (1'J_S K/l + cI 1'L K) a + (|S|/l + cI 1'L 1) b = 1'J_S y/l,
 * cI = gamma_I/n^2, by Gaussian elimination; returns f on the n rows.
 */
static double *biased_reference(const double *K, const double *L, size_t n,
				const unsigned char *S, const double *y,
				size_t l, double gA, double gI)
{
	size_t n1 = n + 1, i, j, k;
	double *A = calloc(n1 * n1, sizeof *A), *B = calloc(n1, sizeof *B);
	double *f = malloc(n * sizeof *f), cI = gI / ((double)n * (double)n);
	double il = 1.0 / (double)l;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			double lk = 0.0;
			for (k = 0; k < n; k++)
				lk += L[i + k * n] * K[k + j * n];
			A[i + j * n1] = (S[i] ? il * K[i + j * n] : 0.0) +
					(i == j ? gA : 0.0) + cI * lk;
			A[n + j * n1] += (S[i] ? il * K[i + j * n] : 0.0) + cI * lk;
		}
		{
			double l1 = 0.0;
			for (k = 0; k < n; k++)
				l1 += L[i + k * n];
			A[i + n * n1] = (S[i] ? il : 0.0) + cI * l1;
			A[n + n * n1] += (S[i] ? il : 0.0) + cI * l1;
		}
		B[i] = S[i] ? il * y[i] : 0.0;
		B[n] += B[i];
	}
	ref_gauss(A, B, n1, 1);
	for (i = 0; i < n; i++) {
		double s = B[n];
		for (j = 0; j < n; j++)
			s += K[i + j * n] * B[j];
		f[i] = s;
	}
	free(A);
	free(B);
	return f;
}

static void primal_nystrom_with_every_row_a_landmark_is_the_exact_optimum(void)
{
	/* m = n landmarks: Phi Phi' = K, so the Newton solution is the exact
	 * kernel optimum with a bias, for LapRLS and for LapSVM's squared
	 * hinge (whose optimum is the squared-loss one on its final active
	 * set S, with y f < 1 exactly on S; the linear test below has rows
	 * past the margin); plain and iterated Laplacians. */
	size_t n = 40, i;
	lsv_data *x = toy(n, 51, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 5);
	double *K = gram(x, 2.0);
	int norm, hinge;

	for (norm = 0; norm < 2; norm++)
		for (hinge = 0; hinge < 2; hinge++) {
			lsv_train_param p;
			lsv_model *m;
			lsv_train_report r;
			double *f, *ref, *L = laplacian(g, norm), *LL = NULL;
			unsigned char S[40];
			size_t active = 0;
			lsv_train_param_default(&p);
			p.solver = hinge ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
			p.kernel.gamma = 2.0;
			p.gamma_A = hinge ? 2e-3 : 0.01;
			p.gamma_I = hinge ? 0.05 : 2.0;
			p.normalized = norm;
			p.power = norm ? 2 : 1;
			p.method = LSV_METHOD_NEWTON;
			p.landmarks = (long)n;
			if (p.power == 2) {  /* L^2 by hand */
				size_t a, b, c;
				LL = calloc(n * n, sizeof *LL);
				for (a = 0; a < n; a++)
					for (b = 0; b < n; b++)
						for (c = 0; c < n; c++)
							LL[a + b * n] += L[a + c * n] * L[c + b * n];
			}
			m = train_r(x, g, &p, &r);
			CHECK(m != NULL);
			if (m == NULL)
				continue;
			CHECK(m->sv->n == n && r.newton_steps >= 1);
			f = decision(m, x);
			for (i = 0; i < n; i++) {
				S[i] = x->y[i] != 0.0 && (!hinge || x->y[i] * f[i] < 1.0);
				active += S[i];
			}
			CHECK(active > 0);
			ref = biased_reference(K, LL ? LL : L, n, S, x->y, 6,
					       p.gamma_A, p.gamma_I);
			CHECK(max_rel_diff(f, ref, n) < 1e-6);
			free(f);
			free(ref);
			free(L);
			free(LL);
			lsv_train_report_free(&r);
			lsv_model_free(m);
		}
	free(K);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void primal_linear_path_matches_the_normal_equations(void)
{
	/* Linear kernel, no landmarks: w and b from conjugate gradient on
	 * sparse X against the (d + 1) normal equations of the active set S
	 *   (X~'(J_S/l + cI L) X~ + gamma_A diag(1, .., 1, 0)) z = X~'J_S y/l,
	 * for the squared loss (S: every labeled row) and the squared hinge
	 * (S: y f < 1; labels that a line separates, so some rows are past
	 * the margin and the hinge matters). */
	size_t n = 30, i, j, k, d = 2;
	double laby[6] = {1, 1, 1, 1, -1, -1};  /* rows < 15 are shifted by +2 */
	lsv_data *x = toy(n, 52, LAB, laby, 6);
	lsv_graph *g = knn_graph(x, 4);
	double *L = laplacian(g, 1), cI, il = 1.0 / 6;
	int hinge;

	for (hinge = 0; hinge < 2; hinge++) {
		double A[9] = {0}, B[3] = {0}, *f;
		unsigned char S[30];
		size_t active = 0;
		lsv_train_param p;
		lsv_model *m;
		lsv_train_report r;
		lsv_train_param_default(&p);
		p.solver = hinge ? LSV_SOLVER_LAPSVM : LSV_SOLVER_LAPRLS;
		p.kernel.type = LSV_KERNEL_LINEAR;
		p.gamma_A = hinge ? 1e-3 : 0.05;
		p.gamma_I = hinge ? 0.3 : 3.0;
		p.method = LSV_METHOD_NEWTON;
		p.pcg_tol = 1e-13;
		m = train_r(x, g, &p, &r);
		CHECK(m != NULL);
		if (m == NULL)
			continue;
		CHECK(m->sv->n == 1 && r.cg_iterations > 0);
		f = decision(m, x);
		for (i = 0; i < n; i++) {
			S[i] = x->y[i] != 0.0 && (!hinge || x->y[i] * f[i] < 1.0);
			active += S[i];
		}
		CHECK(hinge ? active > 0 && active < 6 : active == 6);
		cI = p.gamma_I / ((double)n * (double)n);
		for (i = 0; i < n; i++)
			for (k = 0; k < n; k++) {
				double c = cI * L[i + k * n] + (i == k && S[i] ? il : 0.0);
				double xi[3], xk[3];
				if (c == 0.0)
					continue;
				xi[0] = x->val[2 * i]; xi[1] = x->val[2 * i + 1]; xi[2] = 1.0;
				xk[0] = x->val[2 * k]; xk[1] = x->val[2 * k + 1]; xk[2] = 1.0;
				for (j = 0; j <= d; j++) {
					size_t q;
					for (q = 0; q <= d; q++)
						A[j + q * 3] += xi[j] * c * xk[q];
				}
			}
		A[0] += p.gamma_A;
		A[4] += p.gamma_A;
		for (i = 0; i < n; i++)
			if (S[i]) {
				B[0] += il * x->y[i] * x->val[2 * i];
				B[1] += il * x->y[i] * x->val[2 * i + 1];
				B[2] += il * x->y[i];
			}
		ref_gauss(A, B, 3, 1);
		{
			double ref[30];
			for (i = 0; i < n; i++)
				ref[i] = B[0] * x->val[2 * i] + B[1] * x->val[2 * i + 1] + B[2];
			CHECK(f != NULL && max_rel_diff(f, ref, n) < 1e-8);
		}
		free(f);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	free(L);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void primal_one_vs_rest_equals_binary_problems(void)
{
	/* Three classes: each function is the binary problem of its class
	 * against the rest (one shared Newton system part, own active sets). */
	size_t n = 45, i, lab3[6] = {0, 5, 9, 13, 17, 22};
	double laby3[6] = {1, 2, 3, 1, 2, 3};
	lsv_data *x = toy(n, 53, lab3, laby3, 6);
	lsv_graph *g = knn_graph(x, 5);
	lsv_train_param p;
	lsv_model *m3;
	double *f3;
	int c;

	lsv_train_param_default(&p);
	p.kernel.gamma = 1.0;
	p.gamma_A = 1e-3;
	p.gamma_I = 0.1;
	p.method = LSV_METHOD_NEWTON;
	p.landmarks = 20;
	m3 = train(x, g, &p);
	CHECK(m3 != NULL && m3->nr_fn == 3);
	if (m3 == NULL)
		goto out;
	f3 = decision(m3, x);
	for (c = 0; c < 3; c++) {
		lsv_data *xb = toy(n, 53, lab3, laby3, 6);
		lsv_model *mb;
		double *fb;
		for (i = 0; i < n; i++)
			if (xb->y[i] != 0.0)
				xb->y[i] = xb->y[i] == laby3[c] ? 1.0 : -1.0;
		mb = train(xb, g, &p);
		CHECK(mb != NULL);
		if (mb != NULL) {
			double fc[45];
			fb = decision(mb, xb);
			for (i = 0; i < n; i++)
				fc[i] = f3[i * 3 + (size_t)c];
			CHECK(fb && max_rel_diff(fc, fb, n) < 1e-8);
			free(fb);
			lsv_model_free(mb);
		}
		lsv_data_free(xb);
	}
	free(f3);
	lsv_model_free(m3);
out:
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void dense_methods_refuse_past_the_memory_limit(void)
{
	size_t n = 40;
	lsv_data *x = toy(n, 54, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 5);
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_error e;

	lsv_train_param_default(&p);
	p.mem_limit = 1000.0;  /* bytes: under the 2 x 40 x 40 doubles */
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_ETOOBIG && m == NULL);
	CHECK(strstr(e.msg, "over the memory limit (-m)") != NULL);
	CHECK(strstr(e.msg, "-M newton -N m") != NULL);
	p.method = LSV_METHOD_NEWTON;
	p.landmarks = 5;  /* 3 n m + 5 m^2 doubles = 5800 bytes */
	p.mem_limit = 1e4;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_OK && m != NULL);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void primal_full_kernel_lapsvm_newton_and_pcg_reach_the_squared_hinge_optimum(void)
{
	/* f = K a, no bias: at the optimum a solves (J_S K/l + gamma_A I +
	 * cI L K) a = J_S y/l on its own active set S (y f < 1 exactly on S);
	 * labels a smooth function can exceed, so some rows are past the
	 * margin.  Newton (LU steps) and PCG inside Newton reach it. */
	size_t n = 30, i, j, k;
	double laby[6] = {1, 1, 1, 1, -1, -1};
	lsv_data *x = toy(n, 55, LAB, laby, 6);
	lsv_graph *g = knn_graph(x, 4);
	double *K = gram(x, 0.1), *L = laplacian(g, 0);
	int method;

	for (method = 0; method < 2; method++) {
		lsv_train_param p;
		lsv_model *m;
		lsv_train_report r;
		double *f, A[900], B[30], ref[30], cI, il = 1.0 / 6;
		unsigned char S[30];
		size_t active = 0;
		lsv_train_param_default(&p);
		p.kernel.gamma = 0.1;
		p.gamma_A = 1e-3;
		p.gamma_I = 0.5;
		p.normalized = 0;
		if (method == 0) {
			p.method = LSV_METHOD_NEWTON;
		} else {
			p.method = LSV_METHOD_PCG;
			p.pcg_tol = 1e-12;
			p.pcg_max_iter = 1000;
		}
		m = train_r(x, g, &p, &r);
		CHECK(m != NULL);
		if (m == NULL)
			continue;
		CHECK((method == 0 ? r.newton_steps : r.pcg_iterations) >= 1 &&
		      m->bias[0] == 0.0);
		f = decision(m, x);
		for (i = 0; i < n; i++) {
			S[i] = x->y[i] != 0.0 && x->y[i] * f[i] < 1.0;
			active += S[i];
		}
		CHECK(active > 0 && active < 6);
		cI = p.gamma_I / ((double)n * (double)n);
		for (i = 0; i < n; i++) {
			for (j = 0; j < n; j++) {
				double lk = 0.0;
				for (k = 0; k < n; k++)
					lk += L[i + k * n] * K[k + j * n];
				A[i + j * n] = (S[i] ? il * K[i + j * n] : 0.0) +
					       (i == j ? p.gamma_A : 0.0) + cI * lk;
			}
			B[i] = S[i] ? il * x->y[i] : 0.0;
		}
		ref_gauss(A, B, n, 1);
		for (i = 0; i < n; i++) {
			ref[i] = 0.0;
			for (j = 0; j < n; j++)
				ref[i] += K[i + j * n] * B[j];
		}
		CHECK(max_rel_diff(f, ref, n) < (method == 0 ? 1e-8 : 1e-5));
		free(f);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	free(K);
	free(L);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void training_outputs_equal_the_saved_model_decisions(void)
{
	/* The report's train_f (what lapsvm-train -o writes) comes from the solver's
	 * own K or features; the model's decision values agree with it. */
	size_t n = 40;
	lsv_data *x = toy(n, 56, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 5);
	int k;

	for (k = 0; k < 6; k++) {
		lsv_train_param p;
		lsv_model *m;
		lsv_train_report r;
		double *f;
		lsv_train_param_default(&p);
		p.kernel.gamma = 0.5;
		switch (k) {
		case 0: p.solver = LSV_SOLVER_LAPRLS; break;
		case 1: break;                                 /* LapSVM dual */
		case 2: p.method = LSV_METHOD_PCG; break;     /* primal LapSVM */
		case 3: p.method = LSV_METHOD_NEWTON; p.landmarks = 15; break; /* Nystrom */
		case 4: p.method = LSV_METHOD_NEWTON; p.kernel.type = LSV_KERNEL_LINEAR; break;
		case 5: p.solver = LSV_SOLVER_TSVM; p.gamma_I = 0.0; break;
		}
		m = train_r(x, k == 5 ? NULL : g, &p, &r);
		CHECK(m != NULL && r.train_f != NULL);
		if (m == NULL || r.train_f == NULL)
			continue;
		f = decision(m, x);
		CHECK(f != NULL && max_rel_diff(r.train_f, f, n * (size_t)m->nr_fn) < 1e-9);
		free(f);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void method_table_refuses_pairs_it_does_not_have_listing_the_rows(void)
{
	lsv_train_param p;
	lsv_error e;
	static const struct {
		lsv_solver s;
		lsv_method m;
		long landmarks;
		const char *head, *rows;
	} bad[] = {
		{LSV_SOLVER_TSVM, LSV_METHOD_PCG, 0, "no training method tsvm pcg (",
		 "(the methods of tsvm: direct)"},
		{LSV_SOLVER_TSVM, LSV_METHOD_NEWTON, 0, "no training method tsvm newton (",
		 "(the methods of tsvm: direct)"},
		{LSV_SOLVER_LAPSVM, LSV_METHOD_DIRECT, 10,
		 "no training method lapsvm direct with landmarks (",
		 "(the methods of lapsvm: direct, pcg, pcg-early, newton, newton with landmarks)"},
		{LSV_SOLVER_LAPRLS, LSV_METHOD_PCG_EARLY, 10,
		 "no training method laprls pcg-early with landmarks (",
		 "(the methods of laprls: direct, pcg, pcg-early, newton, newton with landmarks)"},
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		lsv_train_param_default(&p);
		p.solver = bad[i].s;
		p.method = bad[i].m;
		p.landmarks = bad[i].landmarks;
		CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
		CHECK(strncmp(e.msg, bad[i].head, strlen(bad[i].head)) == 0);
		CHECK(strstr(e.msg, bad[i].rows) != NULL);
		/* only the chosen solver's rows */
		CHECK(strstr(e.msg, "kdesign") == NULL);
	}
	/* every pair the table has passes, with and without landmarks */
	lsv_train_param_default(&p);
	p.method = LSV_METHOD_NEWTON;
	p.landmarks = 10;
	CHECK(lsv_train_param_check(&p, &e) == LSV_OK);
	p.kernel.type = LSV_KERNEL_LINEAR;
	p.landmarks = 0;
	CHECK(lsv_train_param_check(&p, &e) == LSV_OK);
	p.method = (lsv_method)7;
	CHECK(lsv_train_param_check(&p, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "unknown method 7");
}

static void names_tables_parse_print_and_list(void)
{
	char buf[128];

	CHECK(lsv_name_value(lsv_method_names, "pcg-early") == LSV_METHOD_PCG_EARLY);
	CHECK(lsv_name_value(lsv_method_names, "PCG") == -1);
	CHECK(lsv_name_value(lsv_laplacian_names, "unnormalized") == 0);
	CHECK_STR(lsv_method_name(LSV_METHOD_NEWTON), "newton");
	CHECK(lsv_method_name((lsv_method)9) == NULL);
	CHECK_STR(lsv_solver_name(LSV_SOLVER_TSVM), "tsvm");
	CHECK_STR(lsv_kernel_name(LSV_KERNEL_POLY), "polynomial");
	CHECK_STR(lsv_name_list(lsv_solver_names, buf, sizeof buf),
		  "lapsvm, laprls, tsvm, cluster, combine, labelaware, boost or kdesign");
	CHECK_STR(lsv_name_list(lsv_laplacian_names, buf, sizeof buf),
		  "normalized or unnormalized");
	/* cut to the buffer, never past it */
	CHECK_STR(lsv_name_list(lsv_solver_names, buf, 12), "lapsvm");
}

static void report_says_which_row_trained_and_counts_its_steps(void)
{
	size_t n = 30;
	lsv_data *x = toy(n, 57, LAB, LABY, 6);
	lsv_graph *g = knn_graph(x, 4);
	lsv_train_param p;
	lsv_train_report r;
	lsv_model *m;

	lsv_train_param_default(&p);
	p.kernel.gamma = 0.5;
	m = train_r(x, g, &p, &r);
	CHECK(m != NULL && r.path != NULL &&
	      strcmp(r.path, "lapsvm direct (dual, SMO)") == 0);
	CHECK(r.newton_steps == 0 && r.pcg_iterations == 0 && r.train_f != NULL);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	p.solver = LSV_SOLVER_LAPRLS;
	p.method = LSV_METHOD_NEWTON;
	p.landmarks = 12;
	m = train_r(x, g, &p, &r);
	CHECK(m != NULL && r.path != NULL &&
	      strcmp(r.path, "laprls newton (primal, feature map)") == 0);
	/* the squared loss: one Newton step, taken in full */
	CHECK(r.newton_steps == 1 && !r.newton_capped &&
	      r.newton_cap == 200);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* n rows of d standard normal features (dense, stored sparse), the first
 * l labeled by the sign of the first feature plus noise, seeded. */
static lsv_data *wide(size_t n, size_t d, size_t l, unsigned long long seed)
{
	lsv_data *x = calloc(1, sizeof *x);
	lsv_rng r;
	size_t i, j;

	lsv_rng_seed(&r, seed);
	x->n = n;
	x->dim = d;
	x->nnz = n * d;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc(n * d * sizeof *x->col);
	x->val = malloc(n * d * sizeof *x->val);
	x->y = calloc(n, sizeof *x->y);
	for (i = 0; i < n; i++) {
		x->rowptr[i] = i * d;
		for (j = 0; j < d; j++) {
			x->col[i * d + j] = (int)j;
			x->val[i * d + j] = lsv_rng_normal(&r);
		}
		if (i < l) {
			x->y[i] = x->val[i * d] + 0.5 * lsv_rng_normal(&r) > 0 ? 1 : -1;
			x->l++;
		}
	}
	x->rowptr[n] = n * d;
	x->y[0] = 1;   /* both classes present */
	x->y[1] = -1;
	return x;
}

static void linear_map_newton_stops_once_converged_not_at_the_cap(void)
{
	/* Solved exactly, the squared hinge on a 60-feature linear map
	 * settles in a few Newton steps; after that each step is rounding
	 * noise whose line search returns any t, so "a full step" alone
	 * never holds and Newton used to run to its cap of 200 steps.  A
	 * step that moves no output counts as converged. */
	lsv_data *x = wide(120, 60, 30, 58);
	lsv_graph *g = knn_graph(x, 5);
	lsv_train_param p;
	lsv_train_report r;
	lsv_model *m;

	lsv_train_param_default(&p);
	p.kernel.type = LSV_KERNEL_LINEAR;
	p.method = LSV_METHOD_NEWTON;
	p.gamma_A = 1e-4;
	p.gamma_I = 0.3;
	p.pcg_tol = 1e-12;
	m = train_r(x, g, &p, &r);
	CHECK(m != NULL && !r.newton_capped && r.newton_steps < 30);
	lsv_train_report_free(&r);
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

const unit_case primal_cases[] = {
	{"method_table_refuses_pairs_it_does_not_have_listing_the_rows",
	 method_table_refuses_pairs_it_does_not_have_listing_the_rows},
	{"names_tables_parse_print_and_list", names_tables_parse_print_and_list},
	{"report_says_which_row_trained_and_counts_its_steps",
	 report_says_which_row_trained_and_counts_its_steps},
	{"linear_map_newton_stops_once_converged_not_at_the_cap",
	 linear_map_newton_stops_once_converged_not_at_the_cap},
	{"primal_nystrom_with_every_row_a_landmark_is_the_exact_optimum",
	 primal_nystrom_with_every_row_a_landmark_is_the_exact_optimum},
	{"primal_linear_path_matches_the_normal_equations",
	 primal_linear_path_matches_the_normal_equations},
	{"primal_one_vs_rest_equals_binary_problems",
	 primal_one_vs_rest_equals_binary_problems},
	{"primal_full_kernel_lapsvm_newton_and_pcg_reach_the_squared_hinge_optimum",
	 primal_full_kernel_lapsvm_newton_and_pcg_reach_the_squared_hinge_optimum},
	{"training_outputs_equal_the_saved_model_decisions",
	 training_outputs_equal_the_saved_model_decisions},
	{"dense_methods_refuse_past_the_memory_limit",
	 dense_methods_refuse_past_the_memory_limit},
	{NULL, NULL},
};
