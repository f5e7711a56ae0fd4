/*
 * newton.c -- the finite Newton driver shared by the primal solvers
 * (LapSVM on the full kernel, lapsvm_primal.c; LapRLS and LapSVM on a
 * feature map, primal.c), and its exact line search.
 *
 * Objective (JMLR 2006 eq. 4 in the primal, Melacci & Belkin, JMLR 12,
 * 2011): F(z) = 1/l sum_{r labeled} V(y_r, f_r) + R(z), f = A z, with V
 * the squared loss or the squared hinge max(0, 1 - y f)^2 and R convex
 * quadratic.  Let S be the labeled rows whose loss is active (all of them
 * for the squared loss, y_r f_r < 1 for the squared hinge).  Where S does
 * not change F is quadratic; finite Newton (Keerthi & DeCoste, JMLR 6,
 * 2005) iterates
 *
 *     zn = argmin of the quadratic of the current S   (the objective's solve)
 *     d = zn - z,  t = argmin_t F(z + t d)            (exact line search)
 *     z += t d,  f += t A d,  S = {r : y_r f_r < 1}
 *
 * and stops when S no longer changes under a full step (t = 1): then z is
 * the exact minimizer.  The first step is taken in full (from z = 0 every
 * loss is active and the quadratic is F itself); the squared loss needs
 * that one step only.  Each function stops on its own unless the
 * objective's solve serves all of them at once (joint), in which case they
 * stop together.  At most LSV_NEWTON_MAX_STEPS steps per function; a
 * function that reaches the cap is reported, and its z is the last iterate.
 * A warm start (F->warm: z given, e.g. yesterday's coefficients padded
 * with zeros) begins at that z with S from its outputs; convergence is the
 * same test, so the result is the same minimizer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* Is a labeled row with target y and output f in S? */
static int active(int hinge, double y, double f)
{
	return !hinge || y * f < 1.0;
}

/* F'(t) of the line search, less the factor 2 (see lsv_line_search). */
static double slope_at(size_t l, const double *f, const double *df,
		       const double *y, double il, double a1, double a2,
		       int hinge, double t)
{
	double s = a1 + t * a2;
	size_t r;
	for (r = 0; r < l; r++) {
		double fr = f[r] + t * df[r];
		if (active(hinge, y[r], fr))
			s += il * (fr - y[r]) * df[r];
	}
	return s;
}

double lsv_line_search(size_t l, const double *f, const double *df,
		       const double *y, double il, double a1, double a2,
		       int hinge)
{
	double lo = 0.0, hi = 1.0;
	int k;

	/* bracket the root of the nondecreasing F'(t), then bisect */
	for (k = 0; k < 30; k++) {
		if (slope_at(l, f, df, y, il, a1, a2, hinge, hi) >= 0.0)
			break;
		lo = hi;
		hi *= 2.0;
	}
	for (k = 0; k < 60 && hi - lo > 1e-12 * hi; k++) {
		double mid = 0.5 * (lo + hi);
		if (slope_at(l, f, df, y, il, a1, a2, hinge, mid) < 0.0)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* The working arrays of lsv_newton, for C functions over n rows (l
 * labeled) and nz coefficients each; every per-function block is
 * function c's at offset c times its length. */
typedef struct {
	unsigned char *act;   /* l x C: is labeled row r in S of function c? */
	unsigned char *live;  /* C: does function c still take steps? */
	double *zn;           /* nz x C: the solve's zn, then the step d */
	double *f, *df;       /* n x C: the outputs A z and A d */
	double *fl, *dfl;     /* l: f and df on one function's labeled rows */
	double *a1, *a2;      /* C: R's part of F'(t)/2, a1 + t a2 */
} newton_work;

static void newton_free(newton_work *W)
{
	free(W->act);
	free(W->live);
	free(W->zn);
	free(W->f);
	free(W->df);
	free(W->fl);
	free(W->dfl);
	free(W->a1);
	free(W->a2);
}

/* Allocate W's arrays (f, a1 and a2 zeroed); LSV_ENOMEM if any fails (the
 * caller frees W either way). */
static lsv_status newton_alloc(newton_work *W, size_t n, size_t l, size_t nz,
			       size_t C, lsv_error *err)
{
	W->act = malloc(l * C + 1);
	W->live = malloc(C);
	W->zn = malloc(nz * C * sizeof *W->zn);
	W->f = calloc(n * C, sizeof *W->f);
	W->df = malloc(n * C * sizeof *W->df);
	W->fl = malloc((l + 1) * sizeof *W->fl);
	W->dfl = malloc((l + 1) * sizeof *W->dfl);
	W->a1 = calloc(C, sizeof *W->a1);
	W->a2 = calloc(C, sizeof *W->a2);
	if (!W->act || !W->live || !W->zn || !W->f || !W->df || !W->fl ||
	    !W->dfl || !W->a1 || !W->a2)
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the Newton steps");
	return LSV_OK;
}

/*
 * The starting point, every function live.  Cold: z = 0, f = 0, and every
 * labeled loss active (the quadratic of that S is F itself).  Warm: the
 * given z, f = A z, and S from f.
 */
static lsv_status newton_start(lsv_fit *F, const lsv_newton_obj *O,
			       int hinge, double *z, newton_work *W)
{
	size_t n = F->n, l = F->l, nz = O->nz, C = (size_t)F->nr_fn, c, r;
	lsv_status st;

	memset(W->live, 1, C);
	if (!F->warm) {
		memset(z, 0, nz * C * sizeof *z);
		memset(W->act, 1, l * C);
		return LSV_OK;
	}
	if ((st = O->outputs(O->ctx, W->live, z, W->f)) != LSV_OK ||
	    (st = lsv_check_start(W->f, n, z, nz, (int)C, F->err)) != LSV_OK)
		return st;
	for (c = 0; c < C; c++)
		for (r = 0; r < l; r++)
			W->act[r + c * l] = (unsigned char)active(
				hinge, F->Y[r + c * l], W->f[c * n + F->lab[r]]);
	return LSV_OK;
}

/* Is some function still live? */
static int newton_any_live(const unsigned char *live, size_t C)
{
	int any = 0;
	size_t c;

	for (c = 0; c < C; c++)
		any |= live[c];
	return any;
}

/*
 * The live functions' directions: zn = the minimizer of the quadratic of
 * the current S (the objective's solve), d = zn - z (left in zn), df = A d,
 * and, when the step is line-searched, R's part of the slope along d
 * (a1, a2).  Counts one Newton step per live function.
 */
static lsv_status newton_direction(lsv_fit *F, const lsv_newton_obj *O,
				   int searched, long step, const double *z,
				   newton_work *W)
{
	size_t nz = O->nz, C = (size_t)F->nr_fn, c, j;
	lsv_status st;

	if ((st = O->solve(O->ctx, W->act, W->live, step, z, W->zn)) != LSV_OK)
		return st;
	for (c = 0; c < C; c++) {
		if (!W->live[c])
			continue;
		F->report->newton_steps++;
		for (j = 0; j < nz; j++)
			W->zn[j + c * nz] -= z[j + c * nz];
	}
	if ((st = O->outputs(O->ctx, W->live, W->zn, W->df)) != LSV_OK)
		return st;
	if (searched)
		st = O->slope(O->ctx, W->live, z, W->zn, W->f, W->df, W->a1,
			      W->a2);
	return st;
}

/* The exact line search's t for function c: F(z + t d) restricted to its
 * labeled rows' f and df (lsv_line_search). */
static double newton_step_length(const lsv_fit *F, newton_work *W, int hinge,
				 size_t c)
{
	size_t n = F->n, l = F->l, o = c * n, r;

	for (r = 0; r < l; r++) {
		W->fl[r] = W->f[o + F->lab[r]];
		W->dfl[r] = W->df[o + F->lab[r]];
	}
	return lsv_line_search(l, W->fl, W->dfl, F->Y + c * l,
			       1.0 / (double)l, W->a1[c], W->a2[c], hinge);
}

/*
 * Function c's move by t (1 unless searched): z += t d, f += t df, then S
 * from the new f; *changed gets the number of labeled rows whose S
 * membership changed.  Returns whether the step was full: |t - 1| <
 * full_tol, or (small_step > 0) max |t df| <= small_step (1 + max |f|).
 */
static int newton_move(const lsv_fit *F, const lsv_newton_obj *O, int hinge,
		       double t, size_t c, double *z, newton_work *W,
		       size_t *changed)
{
	size_t n = F->n, l = F->l, nz = O->nz, o = c * n, i, j, r;
	const double *y = F->Y + c * l;
	double dmax = 0.0, fmx = 0.0;

	for (j = 0; j < nz; j++)
		z[j + c * nz] += t * W->zn[j + c * nz];
	for (i = 0; i < n; i++) {
		W->f[o + i] += t * W->df[o + i];
		dmax = fmax(dmax, fabs(t * W->df[o + i]));
		fmx = fmax(fmx, fabs(W->f[o + i]));
	}
	*changed = 0;
	for (r = 0; r < l; r++) {
		unsigned char a = (unsigned char)active(hinge, y[r],
							W->f[o + F->lab[r]]);
		*changed += a != W->act[r + c * l];
		W->act[r + c * l] = a;
	}
	return fabs(t - 1.0) < O->full_tol ||
	       (O->small_step > 0.0 && dmax <= O->small_step * (1.0 + fmx));
}

/*
 * Every live function's move along its direction, line-searched for the
 * squared hinge after the cold first step (later: step > 0 or warm).  A function whose S did
 * not change under a full step (always, for the squared loss) has
 * converged and stops, unless the solve is joint: then all stop together
 * once all have converged, or (stop_stable) once no S changed in a step.
 * That last test is not asked of the cold first step, whose S is the
 * all-active one of z = 0 rather than of its outputs; a warm first step's
 * S is its start's outputs', as every later step's is its iterate's, so an
 * unchanged S ends a warm run at once.
 */
static void newton_move_all(lsv_fit *F, const lsv_newton_obj *O, int hinge,
			    int later, double *z, newton_work *W)
{
	size_t C = (size_t)F->nr_fn, changed = 0, c;
	int all_done = 1;

	for (c = 0; c < C; c++) {
		double t = 1.0;
		size_t changed_c;
		int full;
		if (!W->live[c])
			continue;
		if (hinge && later)
			t = newton_step_length(F, W, hinge, c);
		full = newton_move(F, O, hinge, t, c, z, W, &changed_c);
		changed += changed_c;
		if (!hinge || (changed_c == 0 && full)) {
			if (!O->joint)
				W->live[c] = 0;
		} else {
			all_done = 0;
		}
	}
	if (O->joint &&
	    (all_done || (O->stop_stable && later && changed == 0)))
		memset(W->live, 0, C);
}

/*
 * lsv_newton: finite Newton on the objective O (above) for every function
 * of F, hinge choosing the squared hinge over the squared loss; z (nz x
 * nr_fn) gets the minimizers (F->warm: holds the start).
 */
lsv_status lsv_newton(lsv_fit *F, const lsv_newton_obj *O, int hinge,
		      double *z)
{
	newton_work W = { 0 };
	lsv_status st;
	long step;

	st = newton_alloc(&W, F->n, F->l, O->nz, (size_t)F->nr_fn, F->err);
	if (O->agree != NULL)
		st = O->agree(O->ctx, st);
	if (st != LSV_OK || (st = newton_start(F, O, hinge, z, &W)) != LSV_OK)
		goto done;
	for (step = 0; newton_any_live(W.live, (size_t)F->nr_fn); step++) {
		int later = step > 0 || F->warm;
		if (step == LSV_NEWTON_MAX_STEPS) {
			F->report->newton_capped = 1;
			break;
		}
		st = newton_direction(F, O, hinge && later, step, z, &W);
		if (st != LSV_OK)
			goto done;
		newton_move_all(F, O, hinge, later, z, &W);
	}
	F->report->newton_cap = LSV_NEWTON_MAX_STEPS;
done:
	newton_free(&W);
	return st;
}
