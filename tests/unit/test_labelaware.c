/*
 * test_labelaware.c -- the label-aware base kernels (common/labelaware.c)
 * against a direct dense construction: on eight 1-D points with the RBF
 * kernel (gamma 1), the base vectors u = D^-1 K_nl Y are computed here by
 * their definition, the v's are checked as unit eigenvectors of K, the
 * learned kernel is rebuilt as sum mu_i z_i z_i', its centered alignment
 * on the labeled block recomputed, and the model's folded out-of-sample
 * form must give the training outputs on the training rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "unit.h"

static const double xs[8] = {0.0, 0.3, 2.0, 2.4, 0.5, 1.0, 1.6, 3.0};
static const double ys[8] = {1, 1, -1, -1, 0, 0, 0, 0};

static lsv_data *points(void)
{
	char text[512];
	size_t len = 0;
	int i;
	FILE *fp;
	lsv_data *x = NULL;
	lsv_error e;

	for (i = 0; i < 8; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
					"%g 1:%.17g\n", ys[i], xs[i]);
	fp = fmemopen(text, len, "r");
	if (fp == NULL)
		return NULL;
	if (lsv_data_read(fp, "p", 0.0, &x, &e) != LSV_OK)
		x = NULL;
	fclose(fp);
	return x;
}

static double k(int a, int b)
{
	return exp(-(xs[a] - xs[b]) * (xs[a] - xs[b]));
}

static void labelaware_kernel_matches_a_direct_construction(void)
{
	lsv_data *x = points();
	lsv_train_param p;
	lsv_train_report r;
	lsv_model *m = NULL;
	lsv_error e;
	double Kt[64], Kd[64], f[8], num = 0.0, kn = 0.0, tn = 0.0;
	double Kc[16], rm[4], tot = 0.0;
	int i, j, q, c;

	CHECK(x != NULL);
	if (x == NULL)
		return;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LABELAWARE;
	p.kernel.gamma = 1.0;
	p.gamma_I = 0.0;
	p.la_k = 2;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, &r, &e) == LSV_OK);
	if (m == NULL)
		return;
	CHECK(r.la_n == 8 && r.la_c == 2 && r.la_k == 2);
	/* u by its definition: class 1 = rows 0, 1; class -1 = rows 2, 3 */
	for (i = 0; i < 8; i++) {
		double s1 = k(i, 0) + k(i, 1), s2 = k(i, 2) + k(i, 3);
		CHECK(fabs(r.la_Z[i] - s1 / (s1 + s2)) < 1e-14);
		CHECK(fabs(r.la_Z[i + 8] - s2 / (s1 + s2)) < 1e-14);
	}
	/* v_j: unit eigenvectors of K, eigenvalues decreasing, the last
	 * reported */
	{
		double lam[2];
		for (q = 0; q < 2; q++) {
			const double *v = r.la_Z + (2 + q) * 8;
			double nv = 0.0, kv, rq = 0.0, res = 0.0;
			for (i = 0; i < 8; i++) {
				nv += v[i] * v[i];
				for (kv = 0.0, j = 0; j < 8; j++)
					kv += k(i, j) * v[j];
				rq += v[i] * kv;
			}
			for (i = 0; i < 8; i++) {
				for (kv = 0.0, j = 0; j < 8; j++)
					kv += k(i, j) * v[j];
				res = fmax(res, fabs(kv - rq * v[i]));
			}
			CHECK(fabs(nv - 1.0) < 1e-12 && res < 1e-12);
			lam[q] = rq;
		}
		CHECK(lam[0] >= lam[1]);
		CHECK(fabs(lam[1] - r.la_lambda_k) < 1e-12);
		/* the largest eigenvalue of K: at least any Rayleigh quotient,
		 * e.g. of the constant vector */
		{
			double s = 0.0;
			for (i = 0; i < 8; i++)
				for (j = 0; j < 8; j++)
					s += k(i, j);
			CHECK(lam[0] >= s / 8.0 - 1e-12);
		}
	}
	/* K~ = sum mu_q z_q z_q' */
	CHECK(lsv_learned_kernel(&r, 8, Kt, &e) == LSV_OK);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++) {
			double s = 0.0;
			for (q = 0; q < 4; q++)
				s += r.la_weight[q] * r.la_Z[i + q * 8] *
				     r.la_Z[j + q * 8];
			Kd[i + 8 * j] = s;
			CHECK(fabs(Kt[i + 8 * j] - s) < 1e-14);
		}
	{
		double nw = 0.0;
		for (q = 0; q < 4; q++) {
			CHECK(r.la_weight[q] >= 0.0);
			nw += r.la_weight[q] * r.la_weight[q];
		}
		CHECK(fabs(nw - 1.0) < 1e-12);
	}
	CHECK(lsv_learned_kernel(&r, 7, Kt, &e) == LSV_EINVAL);
	/* centered alignment of K~_ll with the one-hot target: H K H on the
	 * 4 labeled rows, <K_c, YY'> / (|K_c| |Y'HY|), Y'HY = [1 -1; -1 1] */
	for (i = 0; i < 4; i++) {
		rm[i] = 0.0;
		for (j = 0; j < 4; j++)
			rm[i] += Kd[i + 8 * j] / 4.0;
		tot += rm[i] / 4.0;
	}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			Kc[i + 4 * j] = Kd[i + 8 * j] - rm[i] - rm[j] + tot;
			kn += Kc[i + 4 * j] * Kc[i + 4 * j];
			if ((i < 2) == (j < 2))
				num += Kc[i + 4 * j];
		}
	tn = 4.0;
	CHECK(fabs(r.la_align - num / sqrt(kn * tn)) < 1e-10);
	/* the model on the training rows: the training outputs */
	CHECK(lsv_model_decision(m, x, f, &e) == LSV_OK);
	for (c = 0; c < 8; c++)
		CHECK(fabs(f[c] - r.train_f[c]) < 1e-10);
	lsv_model_free(m);
	lsv_train_report_free(&r);
	lsv_data_free(x);
}

static void labelaware_model_round_trips_through_the_file(void)
{
	lsv_data *x = points();
	lsv_train_param p;
	lsv_model *m = NULL, *m2 = NULL;
	lsv_error e;
	char buf[65536];
	FILE *fp;
	double f1[8], f2[8];
	int i;

	if (x == NULL)
		return;
	lsv_train_param_default(&p);
	p.solver = LSV_SOLVER_LABELAWARE;
	p.kernel.gamma = 1.0;
	p.gamma_I = 0.0;
	p.la_k = 3;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, NULL, &e) == LSV_OK);
	if (m == NULL)
		return;
	memset(buf, 0, sizeof buf);
	fp = fmemopen(buf, sizeof buf, "w");
	CHECK(lsv_model_write(fp, "a", m, &e) == LSV_OK);
	fclose(fp);
	fp = fmemopen(buf, strlen(buf), "r");
	CHECK(lsv_model_read(fp, "a", &m2, &e) == LSV_OK);
	fclose(fp);
	if (m2 != NULL) {
		CHECK(m2->param.la_k == 3 && m2->la_rows[0] == 2 &&
		      m2->la_rows[1] == 2);
		CHECK(lsv_model_decision(m, x, f1, &e) == LSV_OK);
		CHECK(lsv_model_decision(m2, x, f2, &e) == LSV_OK);
		for (i = 0; i < 8; i++)
			CHECK(f1[i] == f2[i]);
	}
	lsv_model_free(m);
	lsv_model_free(m2);
	lsv_data_free(x);
}

const unit_case labelaware_cases[] = {
	{"labelaware_kernel_matches_a_direct_construction",
	 labelaware_kernel_matches_a_direct_construction},
	{"labelaware_model_round_trips_through_the_file",
	 labelaware_model_round_trips_through_the_file},
	{NULL, NULL},
};
