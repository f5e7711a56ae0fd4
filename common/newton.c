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

lsv_status lsv_newton(lsv_fit *F, const lsv_newton_obj *O, int hinge,
		      double *z)
{
	size_t n = F->n, l = F->l, nz = O->nz, C = (size_t)F->nr_fn, i, j, r;
	size_t c;
	double il = 1.0 / (double)l;
	unsigned char *act = malloc(l * C + 1), *live = malloc(C);
	double *zn = malloc(nz * C * sizeof *zn), *f = calloc(n * C, sizeof *f);
	double *df = malloc(n * C * sizeof *df);
	double *fl = malloc((l + 1) * sizeof *fl), *dfl = malloc((l + 1) * sizeof *dfl);
	double *a1 = calloc(C, sizeof *a1), *a2 = calloc(C, sizeof *a2);
	lsv_status st = LSV_OK;
	long step;

	if (!act || !live || !zn || !f || !df || !fl || !dfl || !a1 || !a2)
		st = lsv_fail(F->err, LSV_ENOMEM,
			      "out of memory for the Newton steps");
	if (O->agree != NULL)
		st = O->agree(O->ctx, st);
	if (st != LSV_OK)
		goto done;
	memset(live, 1, C);
	if (!F->warm) {
		memset(z, 0, nz * C * sizeof *z);
		memset(act, 1, l * C);  /* from z = 0 every labeled loss is active */
	} else {
		/* a warm start: f = A z, S from f; the first step is no longer
		 * the minimizer of F itself, so it is line-searched too */
		if ((st = O->outputs(O->ctx, live, z, f)) != LSV_OK ||
		    (st = lsv_check_start(f, n, z, nz, (int)C, F->err)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++)
			for (r = 0; r < l; r++)
				act[r + c * l] = (unsigned char)active(
					hinge, F->Y[r + c * l], f[c * n + F->lab[r]]);
	}
	for (step = 0;; step++) {
		size_t changed = 0;
		int any = 0, all_done = 1;
		for (c = 0; c < C; c++)
			any |= live[c];
		if (!any)
			break;
		if (step == LSV_NEWTON_MAX_STEPS) {
			F->report->newton_capped = 1;
			break;
		}
		if ((st = O->solve(O->ctx, act, live, step, z, zn)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++) {
			if (!live[c])
				continue;
			F->report->newton_steps++;
			for (j = 0; j < nz; j++)  /* the step d = zn - z */
				zn[j + c * nz] -= z[j + c * nz];
		}
		if ((st = O->outputs(O->ctx, live, zn, df)) != LSV_OK)
			goto done;
		if (hinge && (step > 0 || F->warm) &&
		    (st = O->slope(O->ctx, live, z, zn, f, df, a1, a2)) != LSV_OK)
			goto done;
		for (c = 0; c < C; c++) {
			const double *y = F->Y + c * l;
			double t = 1.0, dmax = 0.0, fmx = 0.0;
			size_t o = c * n, changed_c = 0;
			int full;
			if (!live[c])
				continue;
			if (hinge && (step > 0 || F->warm)) {
				for (r = 0; r < l; r++) {
					fl[r] = f[o + F->lab[r]];
					dfl[r] = df[o + F->lab[r]];
				}
				t = lsv_line_search(l, fl, dfl, y, il, a1[c], a2[c],
						    hinge);
			}
			for (j = 0; j < nz; j++)
				z[j + c * nz] += t * zn[j + c * nz];
			for (i = 0; i < n; i++) {
				f[o + i] += t * df[o + i];
				dmax = fmax(dmax, fabs(t * df[o + i]));
				fmx = fmax(fmx, fabs(f[o + i]));
			}
			for (r = 0; r < l; r++) {
				unsigned char a = (unsigned char)active(
					hinge, y[r], f[o + F->lab[r]]);
				changed_c += a != act[r + c * l];
				act[r + c * l] = a;
			}
			changed += changed_c;
			full = fabs(t - 1.0) < O->full_tol ||
			       (O->small_step > 0.0 &&
				dmax <= O->small_step * (1.0 + fmx));
			if (!hinge || (changed_c == 0 && full)) {
				if (!O->joint)
					live[c] = 0;
			} else {
				all_done = 0;
			}
		}
		/* stable (early stopping): no S changed by a step.  Not asked
		 * of the cold first step, whose S is the all-active one of
		 * z = 0 rather than of its outputs; a warm first step's S is
		 * its start's outputs', as every later step's is its
		 * iterate's, so an unchanged S ends a warm run at once */
		if (O->joint &&
		    (all_done || (O->stop_stable && (step > 0 || F->warm) &&
				  changed == 0)))
			memset(live, 0, C);
	}
	F->report->newton_cap = LSV_NEWTON_MAX_STEPS;
done:
	free(act);
	free(live);
	free(zn);
	free(f);
	free(df);
	free(fl);
	free(dfl);
	free(a1);
	free(a2);
	return st;
}
