/*
 * test_newton.c -- the finite Newton driver (common/newton.c) on objectives
 * small enough to solve by hand.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "unit.h"

/*
 * One unknown z, two labeled outputs f = (z, 2z), targets y = (1, 1):
 *     F(z) = 1/2 sum_i max(0, 1 - f_i)^2 + gA z^2   (l = 2, R = gA z^2).
 * On the active set S the minimizer is z = (1/2 sum_S a_i) /
 * (1/2 sum_S a_i^2 + gA), a = (1, 2).
 */
typedef struct {
	double gA;
	long solves;
	int wobble;  /* solve returns a point off the minimizer, alternately */
	double miss; /* solve returns the minimizer plus miss, every step */
} toy_obj;

static const double A[2] = {1.0, 2.0};

static lsv_status toy_solve(void *ctx, const unsigned char *act,
			    const unsigned char *live, long step,
			    const double *z, double *zn)
{
	toy_obj *T = ctx;
	double num = 0.0, den = T->gA;
	int i;

	(void)live;
	(void)z;
	for (i = 0; i < 2; i++)
		if (act[i]) {
			num += 0.5 * A[i];
			den += 0.5 * A[i] * A[i];
		}
	zn[0] = num / den + (T->wobble && step > 0 ? (step % 2 ? 0.3 : -0.3) : 0.0) +
		T->miss;
	T->solves++;
	return LSV_OK;
}

static lsv_status toy_outputs(void *ctx, const unsigned char *live,
			      const double *d, double *df)
{
	(void)ctx;
	(void)live;
	df[0] = A[0] * d[0];
	df[1] = A[1] * d[0];
	return LSV_OK;
}

static lsv_status toy_slope(void *ctx, const unsigned char *live,
			    const double *z, const double *d, const double *f,
			    const double *df, double *a1, double *a2)
{
	toy_obj *T = ctx;
	(void)live;
	(void)f;
	(void)df;
	a1[0] = T->gA * z[0] * d[0];
	a2[0] = T->gA * d[0] * d[0];
	return LSV_OK;
}

/* The toy problem (two rows, both labeled +1) set up in F and O for
 * solve T and the given small-step test; the report goes to rep. */
static void toy_setup(lsv_fit *F, lsv_newton_obj *O, lsv_error *err,
		      toy_obj *T, double small_step, lsv_train_report *rep)
{
	static const size_t lab[2] = {0, 1};
	static const double Y[2] = {1.0, 1.0};

	memset(F, 0, sizeof *F);
	memset(rep, 0, sizeof *rep);
	F->n = 2;
	F->l = 2;
	F->lab = lab;
	F->nr_class = 2;
	F->nr_fn = 1;
	F->Y = Y;
	F->report = rep;
	F->err = err;
	memset(O, 0, sizeof *O);
	O->nz = 1;
	O->full_tol = 1e-9;
	O->small_step = small_step;
	O->ctx = T;
	O->solve = toy_solve;
	O->outputs = toy_outputs;
	O->slope = toy_slope;
}

/* Runs the driver on the toy problem from z = 0: z, the report in rep. */
static double run_toy(toy_obj *T, int hinge, double small_step,
		      lsv_train_report *rep)
{
	lsv_newton_obj O;
	lsv_error err;
	lsv_fit F;
	double z = NAN;

	toy_setup(&F, &O, &err, T, small_step, rep);
	CHECK(lsv_newton(&F, &O, hinge, &z) == LSV_OK);
	return z;
}

/* The toy problem from the warm start z0 with early stopping's rule
 * (stop_stable: one solve serves all functions, joint): z, the report in
 * rep. */
static double run_toy_warm(toy_obj *T, double z0, lsv_train_report *rep)
{
	lsv_newton_obj O;
	lsv_error err;
	lsv_fit F;
	double z = z0;

	toy_setup(&F, &O, &err, T, 1e-6, rep);
	F.warm = 1;
	O.joint = 1;
	O.full_tol = 1e-3;
	O.stop_stable = 1;
	CHECK(lsv_newton(&F, &O, 1, &z) == LSV_OK);
	return z;
}

static void newton_early_stop_ends_a_warm_start_whose_set_holds(void)
{
	/* From z0 = 0.7 (f = (0.7, 1.4): S = row 1, the optimum's) an
	 * inexact solve (the minimizer 5/6 less 0.1, as an early-stopped
	 * PCG's) gives d = 1/30; the line search goes on to the optimum
	 * (t = 4, not a full step) and S stays {row 1}.  Under early
	 * stopping's rule an unchanged S ends the run after that one step,
	 * as it ends a cold run after any step but the first. */
	toy_obj T = {0.1, 0, 0, -0.1};
	lsv_train_report rep;
	double z = run_toy_warm(&T, 0.7, &rep);

	CHECK(fabs(z - 5.0 / 6.0) < 1e-9);
	CHECK(rep.newton_steps == 1 && T.solves == 1);
	/* a start whose S is not the optimum's takes its steps: from
	 * z0 = 0.3 both rows are active until the first step */
	T.solves = 0;
	z = run_toy_warm(&T, 0.3, &rep);
	CHECK(fabs(z - 5.0 / 6.0) < 1e-9);
	CHECK(rep.newton_steps == 2 && T.solves == 2);
}

static void newton_squared_hinge_reaches_the_hand_optimum_in_two_steps(void)
{
	/* Step 1 (S = both rows): z = 1.5 / 2.6; then f_2 = 2z > 1 leaves S.
	 * Step 2 (S = row 1): z = 0.5 / 0.6 = 5/6, a full step along which
	 * row 2 stays out; S is unchanged: done. */
	toy_obj T = {0.1, 0, 0, 0.0};
	lsv_train_report rep;
	double z = run_toy(&T, 1, 1e-6, &rep);

	CHECK(fabs(z - 5.0 / 6.0) < 1e-12);
	CHECK(rep.newton_steps == 2 && T.solves == 2 && !rep.newton_capped);
	CHECK(rep.newton_cap == LSV_NEWTON_MAX_STEPS);
}

static void newton_squared_loss_takes_one_full_step(void)
{
	/* Squared loss: every row active, z = 1.5 / 2.6 in one step. */
	toy_obj T = {0.1, 0, 0, 0.0};
	lsv_train_report rep;
	double z = run_toy(&T, 0, 1e-6, &rep);

	CHECK(fabs(z - 1.5 / 2.6) < 1e-15);
	CHECK(rep.newton_steps == 1 && T.solves == 1);
}

static void newton_reports_its_cap_when_steps_never_settle(void)
{
	/* A solve that misses the minimizer by +-0.3 in turn after the
	 * first step (which is always taken in full): in one dimension the
	 * exact line search lands on the optimum, and every later step is
	 * cut to t = 0, never full; with no small-step test the driver stops
	 * at its cap, saying so, with the iterate at the optimum. */
	toy_obj T = {0.1, 0, 1, 0.0};
	lsv_train_report rep;
	double z = run_toy(&T, 1, 0.0, &rep);

	CHECK(rep.newton_capped && rep.newton_steps == LSV_NEWTON_MAX_STEPS);
	CHECK(T.solves == LSV_NEWTON_MAX_STEPS);
	CHECK(fabs(z - 5.0 / 6.0) < 1e-6);
	/* with the small-step test the same solve stops at once */
	T.solves = 0;
	z = run_toy(&T, 1, 1e-6, &rep);
	CHECK(!rep.newton_capped && rep.newton_steps < 5);
	CHECK(fabs(z - 5.0 / 6.0) < 1e-6);
}

static void line_search_finds_the_kink_of_the_squared_hinge(void)
{
	/* One row, y = 1, f = 0, df = 2, no regularizer: F(t) = (1 - 2t)^2
	 * until 2t = 1, then 0: any t >= 1/2 is a minimizer and the search
	 * brackets the first, 1/2.  With a2 > 0 pulling back: F'(t)/2 =
	 * 2(2t - 1) + 0.5 t for 2t < 1: root t = 2/4.5. */
	double f = 0.0, df = 2.0, y = 1.0, t;

	t = lsv_line_search(1, &f, &df, &y, 1.0, 0.0, 0.0, 1);
	CHECK(fabs(t - 0.5) < 1e-9);
	t = lsv_line_search(1, &f, &df, &y, 1.0, 0.0, 0.5, 1);
	CHECK(fabs(t - 2.0 / 4.5) < 1e-9);
	/* the squared loss has no kink: F'(t)/2 = 2(2t - 1) + t a2 */
	t = lsv_line_search(1, &f, &df, &y, 1.0, 0.0, 1.0, 0);
	CHECK(fabs(t - 0.4) < 1e-9);
}

const unit_case newton_cases[] = {
	{"newton_squared_hinge_reaches_the_hand_optimum_in_two_steps",
	 newton_squared_hinge_reaches_the_hand_optimum_in_two_steps},
	{"newton_squared_loss_takes_one_full_step",
	 newton_squared_loss_takes_one_full_step},
	{"newton_reports_its_cap_when_steps_never_settle",
	 newton_reports_its_cap_when_steps_never_settle},
	{"newton_early_stop_ends_a_warm_start_whose_set_holds",
	 newton_early_stop_ends_a_warm_start_whose_set_holds},
	{"line_search_finds_the_kink_of_the_squared_hinge",
	 line_search_finds_the_kink_of_the_squared_hinge},
	{NULL, NULL},
};
