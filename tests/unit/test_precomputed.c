/*
 * test_precomputed.c -- precomputed kernels (LIBSVM's -t 4): the reader,
 * the lookup by serial number against hand-written matrices, and a model
 * of serial numbers that predicts K(x, x_s) times its coefficients.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "unit.h"

static lsv_status read_text(const char *text, size_t expect, lsv_data **x,
			    lsv_error *err)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_status st = lsv_precomputed_read(fp, "k", 0.0, expect, x, err);
	fclose(fp);
	return st;
}

/* Rows in the order of serial numbers 2, 3, 1 of the matrix
 *     K = [1 .5 .125; .5 1 .25; .125 .25 1]
 * (row p holds K(s_p, 1..3)); the lookup must give K(s_p, s_q). */
static void precomputed_lookup_follows_serial_numbers(void)
{
	static const char text[] =
		"1 0:2 1:0.5 2:1 3:0.25\n"
		"-1 0:3 1:0.125 2:0.25 3:1\n"
		"1 0:1 1:1 2:0.5 3:0.125\n";
	static const double Kfull[3][3] = {{1, .5, .125}, {.5, 1, .25},
					   {.125, .25, 1}};
	static const int s[3] = {2, 3, 1};
	lsv_kernel k = {LSV_KERNEL_PRECOMPUTED, 3, 0.0, 0.0};
	lsv_data *x = NULL;
	lsv_error err;
	double K[9];
	int p, q;

	CHECK(read_text(text, 0, &x, &err) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->n == 3 && x->l == 3 && x->dim == 3);
	CHECK(lsv_kernel_matrix(&k, x, NULL, 3, x, NULL, 3, K, &err) == LSV_OK);
	for (p = 0; p < 3; p++)
		for (q = 0; q < 3; q++)
			CHECK(K[p + 3 * q] == Kfull[s[p] - 1][s[q] - 1]);
	lsv_data_free(x);
}

/* A test row against a model of serial numbers: K(x, x_s) from column s. */
static void precomputed_test_rows_against_serial_numbers(void)
{
	static const char train[] =
		"1 0:1 1:2 2:0.5\n"
		"-1 0:2 1:0.5 2:3\n";
	static const char test[] = "0 0:? 1:0.25 2:0.75\n";
	lsv_train_param p;
	lsv_model *m = NULL;
	lsv_data *x = NULL, *t = NULL;
	lsv_error err;
	double f;

	lsv_train_param_default(&p);
	p.kernel.type = LSV_KERNEL_PRECOMPUTED;
	p.solver = LSV_SOLVER_LAPRLS;
	p.gamma_I = 0.0;
	p.gamma_A = 0.25;
	CHECK(read_text(train, 0, &x, &err) == LSV_OK);
	CHECK(read_text(test, 2, &t, &err) == LSV_OK);
	if (x == NULL || t == NULL)
		goto done;
	CHECK(lsv_train(x, NULL, &p, NULL, &m, NULL, &err) == LSV_OK);
	if (m == NULL)
		goto done;
	/* each expansion point keeps its serial number alone */
	CHECK(m->sv->n == 2 && m->sv->nnz == 2);
	CHECK(m->sv->val[0] == 1.0 && m->sv->val[1] == 2.0);
	CHECK(lsv_model_decision(m, t, &f, &err) == LSV_OK);
	/* f = 0.25 c_1 + 0.75 c_2 + b */
	CHECK(fabs(f - (0.25 * m->coef[0] + 0.75 * m->coef[1] + m->bias[0])) <
	      1e-15);
done:
	lsv_model_free(m);
	lsv_data_free(x);
	lsv_data_free(t);
}

static void precomputed_refuses_with_file_and_line(void)
{
	static const struct {
		const char *text;
		size_t expect;
		const char *msg;
	} cases[] = {
		{"1 0:1 1:1 2:0.5\n-1 0:2 1:0.4 2:1\n", 0,
		 "k:1: kernel not symmetric: K(1,2) = 0.5 here but K(2,1) = "
		 "0.40000000000000002 on line 2"},
		{"1 0:1 1:1 2:0.5\n-1 0:1 1:0.5 2:1\n", 0,
		 "k:2: serial number 1 repeated (first on line 1"},
		{"1 0:1 1:1 2:0.5\n-1 0:3 1:0.5 2:1\n", 0,
		 "k:2: serial number 3 out of range (expected 1..2"},
		{"1 0:1 1:1 2:0.5\n-1 0:2 1:0.5 2:nan\n", 0,
		 "k:2: bad kernel value in column 2"},
		{"1 0:1 1:1 2:0.5 3:1\n-1 0:2 1:0.5 2:1 3:1\n", 0,
		 "k: 2 rows but 3 kernel columns per row"},
		{"1 1:1 2:0.5\n", 0, "k:1: missing serial number"},
		{"1 0:1 2:0.5\n", 0, "k:1: missing kernel column (found index 2 "
		 "after 0, expected 1"},
		{"1 0:? 1:0.5\n", 2, "k:1: missing kernel columns (found 1, "
		 "expected 2"},
		{"1 0:1.5 1:1\n", 0, "k:1: bad serial number"},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		lsv_data *x = NULL;
		lsv_error err;
		CHECK(read_text(cases[i].text, cases[i].expect, &x, &err) ==
		      LSV_EFORMAT);
		CHECK(x == NULL);
		if (strstr(err.msg, cases[i].msg) == NULL) {
			unit_failed_checks++;
			fprintf(stderr, "  case %zu: got \"%s\"\n  want \"%s\"\n",
				i, err.msg, cases[i].msg);
		}
	}
}

/* The writer's output reads back as the same kernel. */
static void precomputed_write_reads_back(void)
{
	static const double K[4] = {1, 0.25, 0.25, 2};
	static const double y[2] = {1, -1};
	char buf[256];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	lsv_data *x = NULL;
	lsv_error err;

	CHECK(lsv_precomputed_write(fp, "w", K, 2, y, NULL, &err) == LSV_OK);
	fclose(fp);
	CHECK_STR(buf, "1 0:1 1:1 2:0.25\n-1 0:2 1:0.25 2:2\n");
	CHECK(read_text(buf, 0, &x, &err) == LSV_OK);
	lsv_data_free(x);
}

/* Rows from a file whose serial numbers were 2, 1: each row keeps its
 * serial number and column t is the row of serial t, as in that file. */
static void precomputed_write_keeps_serial_numbers(void)
{
	static const double K[4] = {1, 0.25, 0.25, 2};
	static const double y[2] = {1, -1};
	static const size_t serial[2] = {2, 1}, twice[2] = {1, 1};
	char buf[256];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	lsv_error err;

	CHECK(lsv_precomputed_write(fp, "w", K, 2, y, serial, &err) == LSV_OK);
	fclose(fp);
	CHECK_STR(buf, "1 0:2 1:0.25 2:1\n-1 0:1 1:2 2:0.25\n");
	fp = fmemopen(buf, sizeof buf, "w");
	CHECK(lsv_precomputed_write(fp, "w", K, 2, y, twice, &err) == LSV_EINVAL);
	fclose(fp);
}

const unit_case precomputed_cases[] = {
	{"precomputed_lookup_follows_serial_numbers",
	 precomputed_lookup_follows_serial_numbers},
	{"precomputed_test_rows_against_serial_numbers",
	 precomputed_test_rows_against_serial_numbers},
	{"precomputed_refuses_with_file_and_line",
	 precomputed_refuses_with_file_and_line},
	{"precomputed_write_reads_back", precomputed_write_reads_back},
	{"precomputed_write_keeps_serial_numbers",
	 precomputed_write_keeps_serial_numbers},
	{NULL, NULL},
};
