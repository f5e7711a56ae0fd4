/*
 * test_alignf.c -- the nonnegative QP and the alignf weights against
 * answers computed by hand.
 */
#include <math.h>

#include "solver.h"
#include "unit.h"

/* M = [2 1; 1 2]: a = (1, 1) has the interior solution M^-1 a = (1/3,
 * 1/3); a = (1, -1) has M^-1 a = (1, -1), so v_2 = 0 and v_1 = a_1/M_11
 * = 1/2 (KKT: w_2 = -1 - 1/2 < 0). */
static void nonneg_qp_interior_and_bound_solutions(void)
{
	static const double M[4] = {2, 1, 1, 2};
	static const double a1[2] = {1, 1}, a2[2] = {1, -1};
	double v[2];
	lsv_error err;

	CHECK(lsv_nonneg_qp(M, a1, 2, v, &err) == LSV_OK);
	CHECK(fabs(v[0] - 1.0 / 3) < 1e-10 && fabs(v[1] - 1.0 / 3) < 1e-10);
	CHECK(lsv_nonneg_qp(M, a2, 2, v, &err) == LSV_OK);
	CHECK(fabs(v[0] - 0.5) < 1e-10 && v[1] == 0.0);
}

/* Three unknowns where the first passive set must shrink: M = I + 0.9
 * (11' - I) off the diagonal... by hand: M = [1 .9 0; .9 1 0; 0 0 1],
 * a = (1, 0.5, -1).  Unconstrained on {1,2}: M^-1 a = (1 - .45, .5 - .9)/
 * .19 = (2.894.., -2.105..) < 0 in v_2, so v_2 = 0, v_1 = 1, v_3 = 0
 * (w_2 = 0.5 - 0.9 = -0.4 < 0, w_3 = -1 < 0). */
static void nonneg_qp_drops_a_coordinate(void)
{
	static const double M[9] = {1, .9, 0, .9, 1, 0, 0, 0, 1};
	static const double a[3] = {1, 0.5, -1};
	double v[3];
	lsv_error err;

	CHECK(lsv_nonneg_qp(M, a, 3, v, &err) == LSV_OK);
	CHECK(fabs(v[0] - 1.0) < 1e-10 && v[1] == 0.0 && v[2] == 0.0);
}

/* y = (1, 1, -1, -1); z_1 = y is the target itself, z_2 = (1, -1, 1, -1)
 * is orthogonal to it, z_3 = (1, 1, 1, 1) is constant (0 once centered).
 * Centered: M = diag(16, 16, 0), a = (16, 0, 0): mu = (1, 0, 0) and
 * the alignment is 1. */
static void alignf_weights_the_target_vector_alone(void)
{
	static const double Z[12] = {1, 1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1};
	static const double Y[4] = {1, 1, -1, -1};
	double mu[3], rho = 0.0;
	lsv_error err;

	CHECK(lsv_alignf(Z, 4, 3, Y, 1, mu, &rho, &err) == LSV_OK);
	CHECK(fabs(mu[0] - 1.0) < 1e-14 && mu[1] == 0.0 && mu[2] == 0.0);
	CHECK(fabs(rho - 1.0) < 1e-14);
}

/* Two classes one-hot, Y = [1 0; 1 0; 0 1; 0 1] and the same z's: the
 * centered one-hot columns are +-y/2, so a = (2 (y'y/2)^2, 0, 0) = (32,
 * 0, 0) and again mu = (1, 0, 0), alignment 1. */
static void alignf_one_hot_targets_agree_with_the_binary_column(void)
{
	static const double Z[12] = {1, 1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1};
	static const double Y[8] = {1, 1, 0, 0, 0, 0, 1, 1};
	double mu[3], rho = 0.0;
	lsv_error err;

	CHECK(lsv_alignf(Z, 4, 3, Y, 2, mu, &rho, &err) == LSV_OK);
	CHECK(fabs(mu[0] - 1.0) < 1e-14 && mu[1] == 0.0 && mu[2] == 0.0);
	CHECK(fabs(rho - 1.0) < 1e-14);
}

/* Only kernels unaligned with the labels: every weight 0, an error. */
static void alignf_refuses_when_nothing_is_aligned(void)
{
	static const double Z[8] = {1, -1, 1, -1, 1, 1, 1, 1};
	static const double Y[4] = {1, 1, -1, -1};
	double mu[2], rho;
	lsv_error err;

	CHECK(lsv_alignf(Z, 4, 2, Y, 1, mu, &rho, &err) == LSV_ENUMERIC);
}

const unit_case alignf_cases[] = {
	{"nonneg_qp_interior_and_bound_solutions",
	 nonneg_qp_interior_and_bound_solutions},
	{"nonneg_qp_drops_a_coordinate", nonneg_qp_drops_a_coordinate},
	{"alignf_weights_the_target_vector_alone",
	 alignf_weights_the_target_vector_alone},
	{"alignf_one_hot_targets_agree_with_the_binary_column",
	 alignf_one_hot_targets_agree_with_the_binary_column},
	{"alignf_refuses_when_nothing_is_aligned",
	 alignf_refuses_when_nothing_is_aligned},
	{NULL, NULL},
};
