/* Regularized spectral clustering (common/cluster.c) against an
 * independent derivation, and the agreement measures (common/metrics.c)
 * against hand-computed values and brute force.
 *
 * The reference solution: with K invertible, f = K alpha and
 * |f|_K^2 = f'K^-1 f, so eq. 14 is the smallest eigenvector of
 * gamma K^-1 + L over the unit vectors orthogonal to v0 (1 for D - W).
 * It is computed here by Gauss-Jordan inversion and the cyclic Jacobi
 * eigenvalue method on P (gamma K^-1 + L) P + mu v0 v0'/|v0|^2 (P the
 * projection onto v0's complement, mu large enough to push v0 last):
 * no LAPACK, no basis of the range of K, no Householder step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lapsvm.h"
#include "ref.h"
#include "unit.h"

/* n points in the plane, unlabeled (label 0). */
static lsv_data *plane(const double *xy, size_t n)
{
	lsv_data *x = calloc(1, sizeof *x);
	size_t i;
	x->n = n;
	x->dim = 2;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc(2 * n * sizeof *x->col);
	x->val = malloc(2 * n * sizeof *x->val);
	x->y = calloc(n, sizeof *x->y);
	for (i = 0; i < n; i++) {
		x->rowptr[i] = 2 * i;
		x->col[2 * i] = 0;
		x->col[2 * i + 1] = 1;
		x->val[2 * i] = xy[2 * i];
		x->val[2 * i + 1] = xy[2 * i + 1];
	}
	x->rowptr[n] = 2 * n;
	x->nnz = 2 * n;
	x->l = 0;
	x->unlabeled = 0.0;
	return x;
}

/* Two groups of four points, a few close pairs joined across: a graph
 * whose smallest cut is between the groups but not trivially so. */
static const double pts8[] = {
	0.0, 0.0, 0.3, 0.1, 0.1, 0.4, 0.5, 0.5,
	2.0, 2.1, 2.4, 1.9, 2.2, 2.5, 1.6, 2.2,
};

/* The graph: every pair closer than 1.2, heat weights (graph-build -e). */
static lsv_graph *eps_graph(const lsv_data *x, double eps)
{
	lsv_graph_param gp;
	lsv_graph_info info;
	lsv_graph *g = NULL;
	lsv_error e;
	lsv_graph_param_default(&gp);
	gp.epsilon = eps;
	CHECK(lsv_graph_build(x, &gp, &g, &info, &e) == LSV_OK);
	return g;
}

/* In place inverse of the n x n A (Gauss-Jordan, partial pivoting). */
static void invert(double *A, size_t n)
{
	double *B = calloc(n * n, sizeof *B);
	size_t i, j, k;
	for (i = 0; i < n; i++)
		B[i + i * n] = 1.0;
	for (k = 0; k < n; k++) {
		size_t piv = k;
		double d;
		for (i = k + 1; i < n; i++)
			if (fabs(A[i + k * n]) > fabs(A[piv + k * n]))
				piv = i;
		for (j = 0; j < n; j++) {
			double t = A[k + j * n];
			A[k + j * n] = A[piv + j * n];
			A[piv + j * n] = t;
			t = B[k + j * n];
			B[k + j * n] = B[piv + j * n];
			B[piv + j * n] = t;
		}
		d = A[k + k * n];
		for (j = 0; j < n; j++) {
			A[k + j * n] /= d;
			B[k + j * n] /= d;
		}
		for (i = 0; i < n; i++) {
			double f = A[i + k * n];
			if (i == k)
				continue;
			for (j = 0; j < n; j++) {
				A[i + j * n] -= f * A[k + j * n];
				B[i + j * n] -= f * B[k + j * n];
			}
		}
	}
	memcpy(A, B, n * n * sizeof *A);
	free(B);
}

/* Cyclic Jacobi: the eigenvalues of the symmetric A (destroyed) in w and
 * its eigenvectors in the columns of V, unsorted. */
static void jacobi(double *A, size_t n, double *w, double *V)
{
	size_t i, j, p, q;
	int sweep;
	for (i = 0; i < n * n; i++)
		V[i] = 0.0;
	for (i = 0; i < n; i++)
		V[i + i * n] = 1.0;
	for (sweep = 0; sweep < 100; sweep++) {
		double off = 0.0;
		for (p = 0; p < n; p++)
			for (q = p + 1; q < n; q++)
				off += A[p + q * n] * A[p + q * n];
		if (off < 1e-30)
			break;
		for (p = 0; p < n; p++)
			for (q = p + 1; q < n; q++) {
				double apq = A[p + q * n], th, t, c, s;
				if (fabs(apq) < 1e-300)
					continue;
				th = (A[q + q * n] - A[p + p * n]) / (2.0 * apq);
				t = (th >= 0 ? 1.0 : -1.0) /
				    (fabs(th) + sqrt(th * th + 1.0));
				c = 1.0 / sqrt(t * t + 1.0);
				s = t * c;
				for (j = 0; j < n; j++) {  /* columns p, q of A */
					double a = A[j + p * n], b = A[j + q * n];
					A[j + p * n] = c * a - s * b;
					A[j + q * n] = s * a + c * b;
				}
				for (j = 0; j < n; j++) {  /* rows p, q */
					double a = A[p + j * n], b = A[q + j * n];
					A[p + j * n] = c * a - s * b;
					A[q + j * n] = s * a + c * b;
				}
				for (j = 0; j < n; j++) {
					double a = V[j + p * n], b = V[j + q * n];
					V[j + p * n] = c * a - s * b;
					V[j + q * n] = s * a + c * b;
				}
			}
	}
	for (i = 0; i < n; i++)
		w[i] = A[i + i * n];
}

/* The k smallest solutions of the reference problem (unnormalized L,
 * v0 = 1), each with its largest-magnitude entry positive: F (n x k,
 * column-major). */
static void reference(const lsv_data *x, const lsv_graph *g, double kg,
		      double gamma, int k, double *F)
{
	size_t n = x->n, i, j, q;
	double *K = malloc(n * n * sizeof *K), *M = calloc(n * n, sizeof *M);
	double *V = malloc(n * n * sizeof *V), *w = malloc(n * sizeof *w);
	double *P = malloc(n * n * sizeof *P), *T = calloc(n * n, sizeof *T);
	int c;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double dx = x->val[2 * i] - x->val[2 * j];
			double dy = x->val[2 * i + 1] - x->val[2 * j + 1];
			K[i + j * n] = exp(-kg * (dx * dx + dy * dy));
		}
	invert(K, n);
	for (i = 0; i < n * n; i++)
		M[i] = gamma * K[i];
	for (i = 0; i < n; i++)  /* + L = D - W */
		for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++) {
			M[i + (size_t)g->col[q] * n] -= g->w[q];
			M[i + i * n] += g->w[q];
		}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			P[i + j * n] = (i == j) - 1.0 / (double)n;
	for (i = 0; i < n; i++)  /* T = P M P + 1e6 11'/n */
		for (j = 0; j < n; j++) {
			double s = 0.0;
			size_t a, b;
			for (a = 0; a < n; a++)
				for (b = 0; b < n; b++)
					s += P[i + a * n] * M[a + b * n] * P[b + j * n];
			T[i + j * n] = s + 1e6 / (double)n;
		}
	jacobi(T, n, w, V);
	for (c = 0; c < k; c++) {
		size_t best = 0, at = 0;
		double big = 0.0;
		for (i = 1; i < n; i++)  /* the c-th smallest, by selection */
			if (w[i] < w[best])
				best = i;
		for (i = 0; i < n; i++)
			F[i + (size_t)c * n] = V[i + best * n];
		w[best] = HUGE_VAL;
		for (i = 0; i < n; i++)
			if (fabs(F[i + (size_t)c * n]) > big) {
				big = fabs(F[i + (size_t)c * n]);
				at = i;
			}
		if (F[at + (size_t)c * n] < 0.0)
			for (i = 0; i < n; i++)
				F[i + (size_t)c * n] = -F[i + (size_t)c * n];
	}
	free(K);
	free(M);
	free(V);
	free(w);
	free(P);
	free(T);
}

static lsv_train_param cluster_param(double gA, double gI, double kg, int c)
{
	lsv_train_param p;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_CLUSTER;
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = kg;
	p.gamma_A = gA;
	p.gamma_I = gI;
	p.normalized = 0;
	p.clusters = c;
	return p;
}

static void clustering_solves_eq14_as_the_reference_eigenproblem(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	double F[8 * 2], dmax = 0.0, ff = 0.0, s1 = 0.0;
	int c;
	size_t i;

	for (c = 2; c <= 3; c++) {
		lsv_train_param p = cluster_param(0.05, 1.0, 0.5, c);
		lsv_train_report r;
		lsv_model *m = NULL;
		lsv_error e;
		int k = c - 1, j;
		CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
		if (m == NULL)
			continue;
		CHECK(m->nr_class == c && m->nr_fn == k);
		CHECK(r.cluster_rank == 8);
		CHECK(!r.cluster_unsure);
		reference(x, g, 0.5, 0.05, k, F);
		for (j = 0; j < k; j++)
			for (i = 0; i < 8; i++) {
				double d = fabs(r.train_f[i * (size_t)k + (size_t)j] -
						F[i + (size_t)j * 8]);
				dmax = fmax(dmax, d);
			}
		/* the constraints of eq. 13 on the first solution */
		ff = s1 = 0.0;
		for (i = 0; i < 8; i++) {
			ff += r.train_f[i * (size_t)k] * r.train_f[i * (size_t)k];
			s1 += r.train_f[i * (size_t)k];
		}
		CHECK(fabs(ff - 1.0) < 1e-12);
		CHECK(fabs(s1) < 1e-12);
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	CHECK(dmax < 1e-8);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The two groups come out as the two clusters, for c = 2 by the sign. */
static void two_groups_are_the_two_clusters(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	lsv_train_param p = cluster_param(1e-4, 1.0, 0.5, 2);
	lsv_model *m = NULL;
	lsv_error e;
	double all[8];  /* one decision value per row */
	size_t i;

	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(lsv_model_decision(m, x, all, &e) == LSV_OK);
		for (i = 0; i < 8; i++)
			CHECK((lsv_model_label(m, all + i) ==
			       lsv_model_label(m, all)) == (i < 4));
	}
	lsv_model_free(m);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Only gamma_A / gamma_I matters: scaling both gives the same model. */
static void only_the_ratio_of_the_weights_matters(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	lsv_train_param p = cluster_param(0.05, 1.0, 0.5, 2);
	lsv_train_param q = cluster_param(5.0, 100.0, 0.5, 2);
	lsv_model *a = NULL, *b = NULL;
	lsv_error e;
	size_t i;

	CHECK(lsv_train(x, g, &p, NULL, &a, NULL, &e) == LSV_OK);
	CHECK(lsv_train(x, g, &q, NULL, &b, NULL, &e) == LSV_OK);
	if (a != NULL && b != NULL) {
		CHECK(a->sv->n == b->sv->n);
		for (i = 0; i < a->sv->n && i < b->sv->n; i++)
			CHECK(fabs(a->coef[i] - b->coef[i]) <=
			      1e-9 * (1.0 + fabs(a->coef[i])));
	}
	lsv_model_free(a);
	lsv_model_free(b);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* -N n: Nystrom on every row is the exact kernel, so the same clustering
 * function (up to rounding). */
static void nystrom_on_every_row_is_the_dense_solution(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	lsv_train_param p = cluster_param(0.05, 1.0, 0.5, 3);
	lsv_train_param q = p;
	lsv_train_report r1, r2;
	lsv_model *a = NULL, *b = NULL;
	lsv_error e;
	double fa[16], fb[16], d = 0.0;
	size_t i;

	q.method = LSV_METHOD_NEWTON;
	q.landmarks = 8;
	CHECK(lsv_train(x, g, &p, NULL, &a, &r1, &e) == LSV_OK);
	CHECK(lsv_train(x, g, &q, NULL, &b, &r2, &e) == LSV_OK);
	if (a != NULL && b != NULL) {
		CHECK(lsv_model_decision(a, x, fa, &e) == LSV_OK);
		CHECK(lsv_model_decision(b, x, fb, &e) == LSV_OK);
		for (i = 0; i < 16; i++)
			d = fmax(d, fabs(fa[i] - fb[i]));
		CHECK(d < 1e-6);
		for (i = 0; i < 8; i++)
			CHECK(lsv_model_label(a, fa + 2 * i) ==
			      lsv_model_label(b, fb + 2 * i));
		lsv_train_report_free(&r1);
		lsv_train_report_free(&r2);
	}
	lsv_model_free(a);
	lsv_model_free(b);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Three blobs, three clusters: k-means on the embedding finds them, the
 * model keeps its centroids and a written model reads back identical. */
static void three_blobs_three_clusters_and_the_model_round_trip(void)
{
	double xy[2 * 30];
	lsv_data *x;
	lsv_graph *g;
	lsv_train_param p = cluster_param(1e-3, 1.0, 1.0, 3);
	lsv_model *m = NULL, *m2 = NULL;
	lsv_error e;
	size_t i;
	lsv_rng rng;
	FILE *fp;

	lsv_rng_seed(&rng, 3);
	for (i = 0; i < 30; i++) {
		xy[2 * i] = 5.0 * (double)(i / 10) + 0.3 * lsv_rng_normal(&rng);
		xy[2 * i + 1] = (i / 10 == 1 ? 4.0 : 0.0) + 0.3 * lsv_rng_normal(&rng);
	}
	x = plane(xy, 30);
	g = eps_graph(x, 1.5);
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_OK);
	if (m != NULL) {
		double *f = malloc(30 * 2 * sizeof *f), *f2 = malloc(60 * sizeof *f2);
		CHECK(m->centroids != NULL && m->nr_fn == 2);
		CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
		/* clusters numbered by their first row: blob b is cluster b+1 */
		for (i = 0; i < 30; i++)
			CHECK(lsv_model_label(m, f + 2 * i) == (double)(i / 10 + 1));
		fp = tmpfile();
		CHECK(lsv_model_write(fp, "t", m, &e) == LSV_OK);
		rewind(fp);
		CHECK(lsv_model_read(fp, "t", &m2, &e) == LSV_OK);
		fclose(fp);
		if (m2 != NULL) {
			CHECK(m2->centroids != NULL);
			CHECK(lsv_model_decision(m2, x, f2, &e) == LSV_OK);
			CHECK(memcmp(f, f2, 60 * sizeof *f) == 0);
			for (i = 0; i < 30; i++)
				CHECK(lsv_model_label(m2, f2 + 2 * i) ==
				      lsv_model_label(m, f + 2 * i));
		}
		free(f);
		free(f2);
	}
	lsv_model_free(m);
	lsv_model_free(m2);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void clustering_refuses_what_it_cannot_do(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	lsv_train_param p = cluster_param(1e-3, 1.0, 0.5, 9);
	lsv_model *m = NULL;
	lsv_error e;

	/* more clusters than rows */
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "9 clusters but only 8 rows") != NULL);
	/* gamma_I = 0: nothing to cluster by */
	p = cluster_param(1e-3, 0.0, 0.5, 2);
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	/* the linear kernel in the plane has rank 2: one function orthogonal
	 * to the constant, not the two that three clusters need */
	p = cluster_param(1e-3, 1.0, 0.5, 3);
	p.kernel.type = LSV_KERNEL_LINEAR;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "numerical rank 2") != NULL);
	/* four identical points, three clusters: too few distinct ones */
	{
		const double same[] = {1, 1, 1, 1, 1, 1, 1, 1, 3, 3};
		lsv_data *y = plane(same, 5);
		lsv_graph *h = eps_graph(y, 3.0);
		p = cluster_param(1e-3, 1.0, 0.5, 3);
		CHECK(lsv_train(y, h, &p, NULL, &m, NULL, &e) != LSV_OK);
		lsv_graph_free(h);
		lsv_data_free(y);
	}
	CHECK(m == NULL);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* Three blobs at different distances from each other, c = 3, for the
 * embedding's row scaling. */
static lsv_data *three_blobs(void)
{
	double xy[2 * 30];
	size_t i;
	lsv_rng rng;

	lsv_rng_seed(&rng, 3);
	for (i = 0; i < 30; i++) {
		xy[2 * i] = 5.0 * (double)(i / 10) + 0.3 * lsv_rng_normal(&rng);
		xy[2 * i + 1] = (i / 10 == 1 ? 4.0 : 0.0) + 0.3 * lsv_rng_normal(&rng);
	}
	return plane(xy, 30);
}

/* The nearest of the model's centroids to z / |z| (or z when |z| = 0),
 * computed here with a plain sqrt: the reference for lsv_model_label. */
static double nearest_to_unit(const lsv_model *m, const double *z)
{
	double n2 = 0.0, bd = HUGE_VAL;
	int j, q, best = 0, k = m->nr_fn;
	for (j = 0; j < k; j++)
		n2 += z[j] * z[j];
	for (q = 0; q < m->nr_class; q++) {
		double d = 0.0;
		for (j = 0; j < k; j++) {
			double v = n2 > 0.0 ? z[j] / sqrt(n2) : z[j];
			double t = v - m->centroids[(size_t)q * (size_t)k + (size_t)j];
			d += t * t;
		}
		if (d < bd) {
			bd = d;
			best = q;
		}
	}
	return m->labels[best];
}

/* cluster_unit (the default): k-means ran on the unit rows, so each
 * stored centroid is the mean of its members' unit rows (Lloyd's fixed
 * point), every centroid has length <= 1, every training row predicts its
 * own cluster, and a new point's cluster depends only on the direction of
 * its embedded row: the same for z and t z, t > 0, and the nearest
 * centroid to z/|z|.  cluster_unit 0: the centroids are the means of the
 * raw rows, and scaling a row can change its cluster. */
static void unit_rows_are_what_kmeans_and_prediction_see(void)
{
	lsv_data *x = three_blobs();
	lsv_graph *g = eps_graph(x, 1.5);
	int unit;

	for (unit = 1; unit >= 0; unit--) {
		lsv_train_param p = cluster_param(1e-3, 1.0, 1.0, 3);
		lsv_train_report r;
		lsv_model *m = NULL;
		lsv_error e;
		size_t i;
		int q, j, moved = 0;
		p.cluster_unit = unit;
		CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
		if (m == NULL)
			continue;
		CHECK(m->param.cluster_unit == unit);
		for (q = 0; q < 3; q++) {
			double mean[2] = {0.0, 0.0}, cnt = 0.0;
			for (i = 0; i < 30; i++) {
				const double *z = r.train_f + 2 * i;
				double nz = sqrt(z[0] * z[0] + z[1] * z[1]);
				if (lsv_model_label(m, z) != (double)(q + 1))
					continue;
				cnt += 1.0;
				for (j = 0; j < 2; j++)
					mean[j] += unit ? z[j] / nz : z[j];
			}
			CHECK(cnt == 10.0);  /* the blobs, as without scaling */
			for (j = 0; j < 2; j++)
				CHECK(fabs(mean[j] / cnt - m->centroids[2 * q + j]) <
				      1e-12);
			if (unit)
				CHECK(hypot(m->centroids[2 * q],
					    m->centroids[2 * q + 1]) <= 1.0 + 1e-12);
		}
		/* directions: 200 rows of a fixed seed, each at 5 scales */
		{
			lsv_rng rng;
			lsv_rng_seed(&rng, 11);
			for (i = 0; i < 200; i++) {
				double z[2], t[2], l0;
				const double sc[] = {1e-200, 1e-3, 0.7, 40.0, 1e200};
				size_t s;
				z[0] = lsv_rng_normal(&rng);
				z[1] = lsv_rng_normal(&rng);
				l0 = lsv_model_label(m, z);
				if (unit)
					CHECK(l0 == nearest_to_unit(m, z));
				for (s = 0; s < 5; s++) {
					t[0] = sc[s] * z[0];
					t[1] = sc[s] * z[1];
					if (unit)
						CHECK(lsv_model_label(m, t) == l0);
					else
						moved |= lsv_model_label(m, t) != l0;
				}
			}
		}
		if (!unit)
			CHECK(moved);
		/* the zero row: the centroid nearest the origin, both ways */
		{
			double z0[2] = {0.0, 0.0}, bd = HUGE_VAL, best = 0.0;
			for (q = 0; q < 3; q++) {
				double d = hypot(m->centroids[2 * q], m->centroids[2 * q + 1]);
				if (d < bd) {
					bd = d;
					best = m->labels[q];
				}
			}
			CHECK(lsv_model_label(m, z0) == best);
		}
		lsv_train_report_free(&r);
		lsv_model_free(m);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* |z| without overflow or underflow, 0 for a zero or non-finite row. */
static void unit_norm_of_extreme_rows(void)
{
	const double big[] = {3e300, -4e300}, tiny[] = {3e-310, 4e-310};
	const double zero[] = {0.0, -0.0, 0.0}, one[] = {0.0, -2.0, 0.0};
	const double bad[] = {1.0, HUGE_VAL}, nan_[] = {NAN, 1.0};
	CHECK(fabs(lsv_unit_norm(big, 2) / 5e300 - 1.0) < 1e-15);
	CHECK(fabs(lsv_unit_norm(tiny, 2) / 5e-310 - 1.0) < 1e-6);
	CHECK(lsv_unit_norm(zero, 3) == 0.0);
	CHECK(lsv_unit_norm(one, 3) == 2.0);
	CHECK(lsv_unit_norm(bad, 2) == 0.0);
	CHECK(lsv_unit_norm(nan_, 2) == 0.0);
}

/* The model key cluster_rows: written for c > 2 as unit or raw and read
 * back; a cluster model written without it (before the key existed) is
 * read as raw, which is how it was trained. */
static void cluster_rows_key_round_trip(void)
{
	lsv_data *x = three_blobs();
	lsv_graph *g = eps_graph(x, 1.5);
	int unit;

	for (unit = 0; unit <= 1; unit++) {
		lsv_train_param p = cluster_param(1e-3, 1.0, 1.0, 3);
		lsv_model *m = NULL, *m2 = NULL, *m3 = NULL;
		lsv_error e;
		char buf[1 << 16], *at;
		size_t len;
		FILE *fp;
		p.cluster_unit = unit;
		CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_OK);
		if (m == NULL)
			continue;
		fp = tmpfile();
		CHECK(lsv_model_write(fp, "t", m, &e) == LSV_OK);
		rewind(fp);
		len = fread(buf, 1, sizeof buf - 1, fp);
		buf[len] = '\0';
		fclose(fp);
		CHECK(strstr(buf, unit ? "\ncluster_rows unit\n"
				       : "\ncluster_rows raw\n") != NULL);
		fp = tmpfile();
		fputs(buf, fp);
		rewind(fp);
		CHECK(lsv_model_read(fp, "t", &m2, &e) == LSV_OK);
		fclose(fp);
		CHECK(m2 != NULL && m2->param.cluster_unit == unit);
		/* without the line */
		at = strstr(buf, "\ncluster_rows ");
		if (at != NULL) {
			char *end = strchr(at + 1, '\n');
			memmove(at, end, strlen(end) + 1);
			fp = tmpfile();
			fputs(buf, fp);
			rewind(fp);
			CHECK(lsv_model_read(fp, "t", &m3, &e) == LSV_OK);
			fclose(fp);
			CHECK(m3 != NULL && m3->param.cluster_unit == 0);
		}
		/* a wrong value is refused with its line */
		{
			lsv_model *m4 = NULL;
			char bad[1 << 16];
			const char *k = "\nnr_fn ";
			char *pos;
			snprintf(bad, sizeof bad, "%s", buf);
			pos = strstr(bad, k);
			if (pos != NULL) {
				char tail[1 << 16];
				snprintf(tail, sizeof tail, "%s", pos);
				snprintf(pos, sizeof bad - (size_t)(pos - bad),
					 "\ncluster_rows cosine%s", tail);
				fp = tmpfile();
				fputs(bad, fp);
				rewind(fp);
				CHECK(lsv_model_read(fp, "t", &m4, &e) != LSV_OK);
				CHECK(strstr(e.msg, "cluster_rows") != NULL);
				fclose(fp);
			}
			lsv_model_free(m4);
		}
		lsv_model_free(m);
		lsv_model_free(m2);
		lsv_model_free(m3);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The constraints are checked on the computed solutions and reported:
 * f'f = I and sum f = 0 hold to rounding. */
static void constraint_check_is_reported(void)
{
	lsv_data *x = three_blobs();
	lsv_graph *g = eps_graph(x, 1.5);
	lsv_train_param p = cluster_param(1e-3, 1.0, 1.0, 3);
	lsv_train_report r;
	lsv_model *m = NULL;
	lsv_error e;

	CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m != NULL) {
		CHECK(r.cluster_check >= 0.0 && r.cluster_check < 1e-12);
		CHECK(!r.cluster_unsure);
		lsv_train_report_free(&r);
	}
	lsv_model_free(m);
	/* k-means restarts: at least one */
	p.cluster_restarts = 0;
	CHECK(lsv_train(x, g, &p, NULL, &m, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "restarts") != NULL);
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* The corners of a square: by its symmetry the two smallest solutions
 * (f = +-1 on two opposite corners) have the same eigenvalue, so which
 * one is f_1 is not determined by the data: reported as unsure.  With a
 * rectangle the tie is broken and the report is clean. */
static void a_tie_is_reported_unsure(void)
{
	const double sq[] = {0, 0, 1, 0, 1, 1, 0, 1};
	const double rect[] = {0, 0, 1, 0, 1, 1.3, 0, 1.3};
	int shape;

	for (shape = 0; shape < 2; shape++) {
		lsv_data *x = plane(shape ? rect : sq, 4);
		lsv_graph *g = eps_graph(x, 1.35);
		lsv_train_param p = cluster_param(1e-3, 1.0, 1.0, 2);
		lsv_train_report r;
		lsv_model *m = NULL;
		lsv_error e;
		CHECK(lsv_train(x, g, &p, NULL, &m, &r, &e) == LSV_OK);
		if (m != NULL) {
			CHECK(r.cluster_check < 1e-12);
			CHECK(r.cluster_unsure == !shape);
			CHECK(shape ? r.cluster_gap > 1e-3 : r.cluster_gap < 1e-8);
			lsv_train_report_free(&r);
		}
		lsv_model_free(m);
		lsv_graph_free(g);
		lsv_data_free(x);
	}
}

/* dsyevr returning fewer eigenpairs than asked with info 0, as MRRR does
 * on repeated eigenvalues with some LAPACKs (simulated: short_dsyevr.c
 * drops two, so fewer than the c - 1 needed): the clustering recomputes
 * them (lsv_eig_extreme's dsyevd fallback) and gets the solutions, the
 * eigenvalue and the gap it gets with every pair. */
static void clustering_with_a_short_dsyevr_is_the_full_one(void)
{
	lsv_data *x = plane(pts8, 8);
	lsv_graph *g = eps_graph(x, 1.2);
	int c;

	for (c = 2; c <= 3; c++) {
		lsv_train_param p = cluster_param(0.05, 1.0, 0.5, c);
		lsv_train_report r0, r1;
		lsv_model *m0 = NULL, *m1 = NULL;
		lsv_error e;
		size_t i, k = (size_t)c - 1;
		double dmax = 0.0;
		lsv_status st;
		CHECK(lsv_train(x, g, &p, NULL, &m0, &r0, &e) == LSV_OK);
		ref_dsyevr_short = 2;
		st = lsv_train(x, g, &p, NULL, &m1, &r1, &e);
		ref_dsyevr_short = 0;
		CHECK(st == LSV_OK);
		if (st != LSV_OK)
			fprintf(stderr, "  c = %d: %s\n", c, e.msg);
		if (m0 != NULL && m1 != NULL) {
			for (i = 0; i < 8 * k; i++)
				dmax = fmax(dmax, fabs(r0.train_f[i] - r1.train_f[i]));
			CHECK(dmax < 1e-10);
			CHECK(fabs(r0.cluster_lambda - r1.cluster_lambda) <
			      1e-12 * fmax(1.0, fabs(r0.cluster_lambda)));
			CHECK(fabs(r0.cluster_gap - r1.cluster_gap) < 1e-8);
			CHECK(r0.cluster_unsure == r1.cluster_unsure);
		}
		if (m0 != NULL)
			lsv_train_report_free(&r0);
		if (m1 != NULL)
			lsv_train_report_free(&r1);
		lsv_model_free(m0);
		lsv_model_free(m1);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

/* ------------------------------------------------------------------ */

static void agreement_of_a_hand_computed_table(void)
{
	/* clusters 0 0 1 1 1 against a a b b a: the table [[2 0] [1 2]],
	 * best matching 0-a, 1-b: 4 of 5 right.  NMI by hand:
	 * I = 0.4 ln(5/3) + 0.2 ln(5/9) + 0.4 ln(5/3),
	 * H(C) = H(Y) = -(0.4 ln 0.4 + 0.6 ln 0.6). */
	const int cl[] = {0, 0, 1, 1, 1};
	const double y[] = {7, 7, 3, 3, 7};
	double acc, nmi, I, H;
	size_t right;
	lsv_error e;

	CHECK(lsv_cluster_agreement(cl, 2, y, 5, &acc, &right, &nmi, &e) ==
	      LSV_OK);
	CHECK(right == 4 && acc == 0.8);
	I = 0.8 * log(5.0 / 3.0) + 0.2 * log(5.0 / 9.0);
	H = -(0.4 * log(0.4) + 0.6 * log(0.6));
	CHECK(fabs(nmi - I / H) < 1e-12);
	/* perfect agreement under relabeling; single parts */
	{
		const int c2[] = {2, 2, 0, 1};
		const double y2[] = {5, 5, 9, 1};
		CHECK(lsv_cluster_agreement(c2, 3, y2, 4, &acc, &right, &nmi, &e) ==
		      LSV_OK);
		CHECK(acc == 1.0 && fabs(nmi - 1.0) < 1e-12);
	}
	{
		const int c3[] = {0, 0, 0};
		const double y3[] = {4, 4, 4};
		CHECK(lsv_cluster_agreement(c3, 1, y3, 3, &acc, &right, &nmi, &e) ==
		      LSV_OK);
		CHECK(acc == 1.0 && nmi == 1.0);
	}
	/* a cluster out of range is refused */
	{
		const int bad[] = {0, 2};
		const double yb[] = {1, 2};
		CHECK(lsv_cluster_agreement(bad, 2, yb, 2, &acc, &right, &nmi, &e) ==
		      LSV_EINVAL);
	}
}

/* The best matching by brute force over every permutation of s <= 5. */
static size_t brute_best(const size_t *N, size_t s)
{
	size_t perm[5], best = 0, i;
	int c[5] = {0};
	size_t k;
	for (i = 0; i < s; i++)
		perm[i] = i;
	/* Heap's algorithm */
	{
		size_t sum = 0;
		for (i = 0; i < s; i++)
			sum += N[i * s + perm[i]];
		best = sum;
	}
	k = 0;
	while (k < s) {
		if ((size_t)c[k] < k) {
			size_t a = k % 2 ? (size_t)c[k] : 0, t = perm[a], sum = 0;
			perm[a] = perm[k];
			perm[k] = t;
			for (i = 0; i < s; i++)
				sum += N[i * s + perm[i]];
			if (sum > best)
				best = sum;
			c[k]++;
			k = 0;
		} else {
			c[k] = 0;
			k++;
		}
	}
	return best;
}

static void hungarian_matching_equals_brute_force(void)
{
	lsv_rng rng;
	int trial;
	lsv_rng_seed(&rng, 11);
	for (trial = 0; trial < 200; trial++) {
		size_t s = 2 + (size_t)(lsv_rng_uniform(&rng) * 4.0), n = 0, i, j;
		size_t N[25];
		int cl[2000];
		double y[2000], acc, nmi;
		size_t right;
		lsv_error e;
		for (i = 0; i < s; i++)
			for (j = 0; j < s; j++) {
				size_t v = (size_t)(lsv_rng_uniform(&rng) * 20.0), t;
				N[i * s + j] = v;
				for (t = 0; t < v; t++) {
					cl[n] = (int)i;
					y[n++] = 10.0 + (double)j;
				}
			}
		if (n == 0)
			continue;
		CHECK(lsv_cluster_agreement(cl, (int)s, y, n, &acc, &right, &nmi,
					    &e) == LSV_OK);
		/* classes that got no row are absent from the data: the brute
		 * force over the full table is still the same optimum, as an
		 * empty column adds nothing to any matching */
		CHECK(right == brute_best(N, s));
	}
}

const unit_case cluster_cases[] = {
	{"clustering_solves_eq14_as_the_reference_eigenproblem",
	 clustering_solves_eq14_as_the_reference_eigenproblem},
	{"two_groups_are_the_two_clusters", two_groups_are_the_two_clusters},
	{"only_the_ratio_of_the_weights_matters",
	 only_the_ratio_of_the_weights_matters},
	{"nystrom_on_every_row_is_the_dense_solution",
	 nystrom_on_every_row_is_the_dense_solution},
	{"three_blobs_three_clusters_and_the_model_round_trip",
	 three_blobs_three_clusters_and_the_model_round_trip},
	{"clustering_refuses_what_it_cannot_do",
	 clustering_refuses_what_it_cannot_do},
	{"unit_rows_are_what_kmeans_and_prediction_see",
	 unit_rows_are_what_kmeans_and_prediction_see},
	{"unit_norm_of_extreme_rows", unit_norm_of_extreme_rows},
	{"cluster_rows_key_round_trip", cluster_rows_key_round_trip},
	{"constraint_check_is_reported", constraint_check_is_reported},
	{"a_tie_is_reported_unsure", a_tie_is_reported_unsure},
	{"clustering_with_a_short_dsyevr_is_the_full_one",
	 clustering_with_a_short_dsyevr_is_the_full_one},
	{"agreement_of_a_hand_computed_table", agreement_of_a_hand_computed_table},
	{"hungarian_matching_equals_brute_force",
	 hungarian_matching_equals_brute_force},
	{NULL, NULL}
};
