/*
 * train.c -- LapRLS and LapSVM (Belkin, Niyogi & Sindhwani, JMLR 7, 2006,
 * Section 4), and RLS / SVM as their gamma_I = 0 cases.
 *
 * Both minimize, over f = sum_i alpha_i k(x_i, .) (+ b for the SVM) with the
 * sum over all n = l + u rows (representer theorem, eq. 5),
 *
 *     1/l sum_{i labeled} V(x_i, y_i, f) + gamma_A |f|_K^2
 *                                       + gamma_I/(l+u)^2 f'Lf      (eq. 4)
 *
 * LapRLS, squared loss V = (y - f)^2 (eq. 8):
 *     alpha = (J K + gamma_A l I + gamma_I l/(l+u)^2 L K)^-1 Y,
 * J = diag(labeled), Y = labels on labeled rows and 0 elsewhere.  One LU
 * factorization of the n x n matrix serves every class (one right-hand side
 * per one-vs-rest problem).  With gamma_I = 0 the unlabeled coefficients
 * are 0 and the labeled ones solve (K_ll + gamma_A l I) alpha = y: RLS, by
 * Cholesky on the l x l system.
 *
 * LapSVM, hinge loss, dual (eqs. 10-12): with P = 2 gamma_A I +
 * 2 gamma_I/(l+u)^2 L K,
 *     beta* = argmax sum beta_i - 1/2 beta'Q beta,  sum beta_i y_i = 0,
 *             0 <= beta_i <= 1/l,
 *     Q = Y~ J K P^-1 J' Y~,     alpha = P^-1 J' Y~ beta*,
 * solved by SMO (lsv_smo) on the l x l matrix Q.  P^-1 J' does not depend on
 * the class, so one LU and one solve with l right-hand sides serve all
 * one-vs-rest problems.  The bias is b = -rho from the KKT conditions.
 * With gamma_I = 0, P = 2 gamma_A I: Q = Y~ K_ll Y~ / (2 gamma_A) and this
 * is exactly the SVM with C = 1/(2 gamma_A l) (same gradient, so the same
 * stopping rule as LIBSVM's).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "blas.h"
#include "internal.h"


void lsv_train_param_default(lsv_train_param *p)
{
	memset(p, 0, sizeof *p);
	p->solver = LSV_SOLVER_LAPSVM;
	p->kernel.type = LSV_KERNEL_RBF;
	p->kernel.degree = 3;
	p->kernel.gamma = 0.0;  /* 0: 1/(number of features), as LIBSVM */
	p->kernel.coef0 = 0.0;
	p->gamma_A = 1e-3;
	p->gamma_I = 1e-2;
	p->normalized = 1;
	p->power = 1;
	p->eps = 1e-3;
	p->max_iter = 0;
	p->tsvm_cstar = 0.0;
	p->tsvm_r = 0.0;
	p->tsvm_max_switches = 0;
	p->pcg = 0;
	p->pcg_tol = 1e-6;
	p->pcg_max_iter = 0;
	p->pcg_early = 0;
	p->newton = 0;
	p->landmarks = 0;
	p->seed = 1;
	p->mem_limit = 0.0;
}

lsv_status lsv_train_param_check(const lsv_train_param *p, lsv_error *err)
{
	lsv_kernel k = p->kernel;

	if (lsv_solver_name(p->solver) == NULL)
		return lsv_fail(err, LSV_EINVAL, "unknown solver %d", (int)p->solver);
	if (k.gamma == 0.0)
		k.gamma = 1.0;  /* resolved from the data at training time */
	if (lsv_kernel_check(&k, err) != LSV_OK)
		return LSV_EINVAL;
	if (!(p->gamma_A > 0.0) || !isfinite(p->gamma_A))
		return lsv_fail(err, LSV_EINVAL,
				"gamma_A = %g out of range (expected > 0)", p->gamma_A);
	if (!(p->gamma_I >= 0.0) || !isfinite(p->gamma_I))
		return lsv_fail(err, LSV_EINVAL,
				"gamma_I = %g out of range (expected >= 0)", p->gamma_I);
	if (p->power < 1 || p->power > 100)
		return lsv_fail(err, LSV_EINVAL,
				"Laplacian power %d out of range (expected 1..100)",
				p->power);
	if (!(p->eps > 0.0) || !isfinite(p->eps))
		return lsv_fail(err, LSV_EINVAL,
				"tolerance eps = %g out of range (expected > 0)", p->eps);
	if (p->max_iter < 0)
		return lsv_fail(err, LSV_EINVAL, "max_iter must be >= 0");
	if (!(p->tsvm_cstar >= 0.0) || !isfinite(p->tsvm_cstar))
		return lsv_fail(err, LSV_EINVAL,
				"TSVM cost C* = %g out of range (expected > 0, or 0 "
				"for C)", p->tsvm_cstar);
	if (!(p->tsvm_r >= 0.0 && p->tsvm_r < 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"TSVM positive fraction r = %g out of range (expected "
				"0 < r < 1, or 0 for the labeled ratio)", p->tsvm_r);
	if (p->pcg && p->solver == LSV_SOLVER_TSVM)
		return lsv_fail(err, LSV_EINVAL,
				"the PCG method is for laprls and lapsvm");
	if (!(p->pcg_tol > 0.0 && p->pcg_tol < 1.0))
		return lsv_fail(err, LSV_EINVAL,
				"PCG tolerance %g out of range (expected 0 < tol < 1)",
				p->pcg_tol);
	if (p->pcg_max_iter < 0)
		return lsv_fail(err, LSV_EINVAL, "PCG iteration cap must be >= 0");
	if (p->newton && p->pcg)
		return lsv_fail(err, LSV_EINVAL,
				"choose one method: newton or pcg");
	if (p->seed > (unsigned long long)LONG_MAX)
		return lsv_fail(err, LSV_EINVAL,
				"seed %llu out of range (expected 0..%ld)", p->seed,
				LONG_MAX);
	if (p->landmarks < 0)
		return lsv_fail(err, LSV_EINVAL,
				"landmarks = %ld out of range (expected >= 0)",
				p->landmarks);
	if (p->newton && p->solver == LSV_SOLVER_TSVM)
		return lsv_fail(err, LSV_EINVAL,
				"the newton method is for laprls and lapsvm");
	if (p->landmarks > 0 && !p->newton)
		return lsv_fail(err, LSV_EINVAL,
				"Nystrom landmarks need the newton method");
	if (!(p->mem_limit >= 0.0) || !isfinite(p->mem_limit))
		return lsv_fail(err, LSV_EINVAL,
				"memory limit %g out of range (expected >= 0)",
				p->mem_limit);
	if (p->tsvm_max_switches < 0)
		return lsv_fail(err, LSV_EINVAL,
				"TSVM switch cap must be >= 0 (0: none)");
	return LSV_OK;
}

/* Refuse politely, before allocating, arrays that cannot fit in memory. */
/*
 * Refuse, before allocating, count doubles that would not fit: over the
 * caller's limit (mem_limit), else over the physical memory or the
 * address-space limit (ulimit -v), whichever is smaller.  The message
 * names the size, the limit and what to do instead (hint).
 */
static lsv_status check_bytes(const lsv_train_param *p, double count,
			      const char *what, const char *hint,
			      lsv_error *err)
{
	double bytes = count * (double)sizeof(double), limit;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	const char *whose = "the machine's memory";
	struct rlimit rl;

	limit = pages > 0 && psize > 0 ? (double)pages * (double)psize : 0.0;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (limit == 0.0 || (double)rl.rlim_cur < limit)) {
		limit = (double)rl.rlim_cur;
		whose = "the address-space limit (ulimit -v)";
	}
	if (p->mem_limit > 0.0) {
		limit = p->mem_limit;
		whose = "the memory limit (-m)";
	}
	if (count > (double)SIZE_MAX / sizeof(double) ||
	    (limit > 0.0 && bytes > limit))
		return lsv_fail(err, LSV_ETOOBIG,
				"%s would need %.2f GB, over %s of %.2f GB; %s",
				what, bytes / 1e9, whose, limit / 1e9, hint);
	return LSV_OK;
}

static void *alloc(size_t count, size_t size)
{
	return malloc((count ? count : 1) * size);
}

/* ------------------------------------------------------------------ */
/* Classes                                                             */
/* ------------------------------------------------------------------ */

/* Distinct labels of the labeled rows, in order of first appearance, but
 * +1 before -1 in a {+1, -1} problem so that f > 0 means +1. */
static lsv_status find_classes(const lsv_data *x, double **labels, int *nr,
			       lsv_error *err)
{
	size_t i, cap = 0;
	int k, m = 0;
	double *lab = NULL;

	for (i = 0; i < x->n; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		for (k = 0; k < m; k++)
			if (lab[k] == x->y[i])
				break;
		if (k < m)
			continue;
		if (lsv_grow((void **)&lab, &cap, (size_t)m + 1, sizeof *lab)) {
			free(lab);
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		}
		lab[m++] = x->y[i];
	}
	if (m == 2 && lab[0] == -1.0 && lab[1] == 1.0) {
		lab[0] = 1.0;
		lab[1] = -1.0;
	}
	*labels = lab;
	*nr = m;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Training                                                            */
/* ------------------------------------------------------------------ */

typedef struct {
	const lsv_data *x;
	const lsv_train_param *p;
	size_t n, l;
	size_t *lab;      /* indices of the labeled rows */
	double *labels;
	int nr_class, nr_fn;
	double *Y;        /* l x nr_fn targets, column-major, +-1 */
	double *alpha;    /* n x nr_fn, column-major */
	double *bias;     /* nr_fn */
	double *ystar;    /* TSVM: n x nr_fn final labels, row-major */
	long switches;
	int capped;
	long iterations;  /* PCG iterations, or Newton steps */
	long cg_iterations; /* Newton on sparse data */
	lsv_error *err;
} job;

static void targets(job *J)
{
	size_t i;
	int c;
	for (c = 0; c < J->nr_fn; c++)
		for (i = 0; i < J->l; i++)
			J->Y[i + (size_t)c * J->l] =
				J->x->y[J->lab[i]] == J->labels[c] ? 1.0 : -1.0;
}

/* c L^p K into M (n x n), from the graph by sparse products (O(p n nnz(W)),
 * never a dense L); M and K are the caller's. */
static lsv_status scaled_LK(const lsv_graph *g, const lsv_train_param *p,
			    const double *K, double c, double *M, size_t n,
			    lsv_error *err)
{
	lsv_lapop L;
	lsv_status st = lsv_lapop_init(&L, g, p->normalized, p->power, err);
	if (st == LSV_OK)
		st = lsv_lapop_apply(&L, K, M, n, c, err);
	lsv_lapop_free(&L);
	return st;
}

/* LapRLS (eq. 8), or RLS when gamma_I = 0. */
static lsv_status train_rls(job *J, const lsv_graph *g, const double *K)
{
	size_t n = J->n, l = J->l, i, r;
	const lsv_train_param *p = J->p;
	int c, info, nrhs = J->nr_fn;
	lsv_status st = LSV_OK;

	memset(J->bias, 0, (size_t)J->nr_fn * sizeof *J->bias);
	if (p->pcg) {
		/* primal PCG: targets on every row (0 unlabeled), no LU */
		double *Yn = calloc(n * (size_t)nrhs, sizeof *Yn);
		unsigned char *lab = calloc(n, 1);
		if (Yn == NULL || lab == NULL) {
			free(Yn);
			free(lab);
			return lsv_fail(J->err, LSV_ENOMEM, "out of memory");
		}
		for (r = 0; r < l; r++) {
			lab[J->lab[r]] = 1;
			for (c = 0; c < nrhs; c++)
				Yn[J->lab[r] + (size_t)c * n] = J->Y[r + (size_t)c * l];
		}
		st = lsv_laprls_pcg(K, n, p->gamma_I > 0.0 ? g : NULL, lab, 0, lab,
				    l, Yn, nrhs, p, J->alpha, 0, &J->iterations,
				    J->err);
		free(Yn);
		free(lab);
		return st;
	}
	if (p->gamma_I == 0.0) {
		/* RLS: (K_ll + gamma_A l I) a = y, Cholesky; SPD when K is PSD. */
		double *A = alloc(l * l, sizeof *A), *B = alloc(l * (size_t)nrhs, sizeof *B);
		int L_ = (int)l;
		if (A == NULL || B == NULL) {
			free(A);
			free(B);
			return lsv_fail(J->err, LSV_ENOMEM, "out of memory");
		}
		for (i = 0; i < l; i++)
			for (r = 0; r < l; r++)
				A[r + i * l] = K[J->lab[r] + J->lab[i] * n];
		for (i = 0; i < l; i++)
			A[i + i * l] += p->gamma_A * (double)l;
		memcpy(B, J->Y, l * (size_t)nrhs * sizeof *B);
		dposv_("L", &L_, &nrhs, A, &L_, B, &L_, &info, 1);
		if (info != 0)
			st = lsv_fail(J->err, LSV_ENUMERIC,
				      "RLS system is not positive definite (LAPACK "
				      "dposv info %d): is the kernel positive "
				      "semi-definite?", info);
		memset(J->alpha, 0, n * (size_t)nrhs * sizeof *J->alpha);
		for (c = 0; st == LSV_OK && c < nrhs; c++)
			for (i = 0; i < l; i++)
				J->alpha[J->lab[i] + (size_t)c * n] = B[i + (size_t)c * l];
		free(A);
		free(B);
		return st;
	}
	{
		/* M = gamma_I l/(l+u)^2 L K + J K + gamma_A l I */
		double *M = alloc(n * n, sizeof *M);
		int *ipiv = alloc(n, sizeof *ipiv), N = (int)n;
		double cI = p->gamma_I * (double)l / ((double)n * (double)n);
		if (M == NULL || ipiv == NULL) {
			free(M);
			free(ipiv);
			return lsv_fail(J->err, LSV_ENOMEM,
					"out of memory for the LapRLS system (%zu bytes)",
					n * n * sizeof *M);
		}
		st = scaled_LK(g, p, K, cI, M, n, J->err);
		if (st == LSV_OK) {
			for (r = 0; r < l; r++) {
				size_t row = J->lab[r];
				for (i = 0; i < n; i++)
					M[row + i * n] += K[row + i * n];
			}
			for (i = 0; i < n; i++)
				M[i + i * n] += p->gamma_A * (double)l;
			memset(J->alpha, 0, n * (size_t)nrhs * sizeof *J->alpha);
			for (c = 0; c < nrhs; c++)
				for (i = 0; i < l; i++)
					J->alpha[J->lab[i] + (size_t)c * n] =
						J->Y[i + (size_t)c * l];
			dgesv_(&N, &nrhs, M, &N, ipiv, J->alpha, &N, &info);
			if (info != 0)
				st = lsv_fail(J->err, LSV_ENUMERIC,
					      "LapRLS system is singular (LAPACK dgesv "
					      "info %d)", info);
		}
		free(M);
		free(ipiv);
	}
	return st;
}

/*
 * LapSVM in the primal on the full kernel (Melacci & Belkin, JMLR 12,
 * 2011), squared hinge, f = K a (no bias, as eq. 8):
 *     F(a) = 1/l sum_{i labeled} max(0, 1 - y_i f_i)^2 + gamma_A a'K a
 *            + gamma_I/n^2 f'L^p f.
 * For the active set S (labeled rows with y f < 1) F is the LapRLS
 * objective with J = diag(S), minimized where (J_S K/l + gamma_A I +
 * gamma_I/n^2 L^p K) a = J_S y/l.  Newton: solve that for every
 * one-vs-rest function (its own S) by LU (-M newton: O(n^3) per step) or
 * by PCG warm-started from the current a (-M pcg, pcg-early: one K product
 * per iteration), move by an exact line search of F along the step, update
 * S; stop when no S changes under a full step.
 */
static lsv_status train_svm_primal(job *J, const lsv_graph *g, const double *K)
{
	const lsv_train_param *p = J->p;
	size_t n = J->n, l = J->l, nc = n * (size_t)J->nr_fn, i, r;
	int C = J->nr_fn, c, N = (int)n, NC = C, step, done = 0;
	unsigned char *act = calloc(nc, 1), *labeled = calloc(n, 1);
	double *Yn = calloc(nc, sizeof *Yn), *an = alloc(nc, sizeof *an);
	double *f = calloc(nc, sizeof *f), *df = alloc(nc, sizeof *df);
	double *Ldf = alloc(nc, sizeof *Ldf), *LK = NULL, *M = NULL;
	double *fl = alloc(l, sizeof *fl), *dfl = alloc(l, sizeof *dfl);
	double cI = p->gamma_I / ((double)n * (double)n), il = 1.0 / (double)l;
	int *ipiv = NULL;
	const double one = 1.0, zero = 0.0;
	lsv_lapop L;
	lsv_status st = LSV_OK;

	memset(&L, 0, sizeof L);
	memset(J->bias, 0, (size_t)C * sizeof *J->bias);
	memset(J->alpha, 0, nc * sizeof *J->alpha);
	if (!act || !labeled || !Yn || !an || !f || !df || !Ldf || !fl || !dfl) {
		st = lsv_fail(J->err, LSV_ENOMEM, "out of memory");
		goto out;
	}
	if (g != NULL && p->gamma_I > 0.0 &&
	    (st = lsv_lapop_init(&L, g, p->normalized, p->power, J->err)) != LSV_OK)
		goto out;
	if (!p->pcg) {
		/* direct Newton steps: cI L^p K once, then one LU per
		 * function and step */
		LK = alloc(n * n, sizeof *LK);
		M = alloc(n * n, sizeof *M);
		ipiv = alloc(n, sizeof *ipiv);
		if (LK == NULL || M == NULL || ipiv == NULL) {
			st = lsv_fail(J->err, LSV_ENOMEM,
				      "out of memory for the Newton system (%zu bytes)",
				      2 * n * n * sizeof *M);
			goto out;
		}
		if (L.g != NULL)
			st = lsv_lapop_apply(&L, K, LK, n, cI, J->err);
		else
			memset(LK, 0, n * n * sizeof *LK);
		if (st != LSV_OK)
			goto out;
	}
	for (r = 0; r < l; r++) {
		labeled[J->lab[r]] = 1;
		for (c = 0; c < C; c++)
			act[J->lab[r] + (size_t)c * n] = 1;
	}
	for (step = 0; step < 100 && !done; step++) {
		size_t changed = 0;
		for (i = 0; i < nc; i++)
			Yn[i] = 0.0;
		for (c = 0; c < C; c++)
			for (r = 0; r < l; r++) {
				size_t at = J->lab[r] + (size_t)c * n;
				if (act[at])
					Yn[at] = J->Y[r + (size_t)c * l];
			}
		/* the minimizer an of each function's current quadratic */
		if (p->pcg) {
			memcpy(an, J->alpha, nc * sizeof *an);
			st = lsv_laprls_pcg(K, n, L.g, act, n, labeled, l, Yn, C, p,
					    an, step > 0, &J->iterations, J->err);
			if (st != LSV_OK)
				goto out;
		} else {
			int info, one_i = 1;
			for (c = 0; c < C; c++) {
				const unsigned char *ac = act + (size_t)c * n;
				/* M = LK + diag(act/l) K + gamma_A I */
				memcpy(M, LK, n * n * sizeof *M);
				for (i = 0; i < n; i++) {
					size_t j;
					if (!ac[i])
						continue;
					for (j = 0; j < n; j++)
						M[i + j * n] += il * K[i + j * n];
				}
				for (i = 0; i < n; i++)
					M[i + i * n] += p->gamma_A;
				memcpy(an + (size_t)c * n, Yn + (size_t)c * n,
				       n * sizeof *an);
				for (i = 0; i < n; i++)
					an[i + (size_t)c * n] *= il;
				dgesv_(&N, &one_i, M, &N, ipiv, an + (size_t)c * n, &N,
				       &info);
				if (info != 0) {
					st = lsv_fail(J->err, LSV_ENUMERIC,
						      "the Newton system is singular "
						      "(LAPACK dgesv info %d)", info);
					goto out;
				}
			}
			J->iterations++;
		}
		/* step d = an - a, df = K d; exact line search per function */
		for (i = 0; i < nc; i++)
			an[i] -= J->alpha[i];
		dgemm_("N", "N", &N, &NC, &N, &one, K, &N, an, &N, &zero, df, &N,
		       1, 1);
		if (L.g != NULL &&
		    (st = lsv_lapop_apply(&L, df, Ldf, (size_t)C, cI, J->err)) != LSV_OK)
			goto out;
		done = 1;
		for (c = 0; c < C; c++) {
			size_t o = (size_t)c * n;
			double a1 = 0.0, a2 = 0.0, t;
			double dmax = 0.0, fmax_ = 0.0;
			for (i = 0; i < n; i++) {
				/* F'(t)/2 = a1 + t a2 + loss terms */
				a1 += p->gamma_A * f[o + i] * an[o + i];
				a2 += p->gamma_A * df[o + i] * an[o + i];
				if (L.g != NULL) {
					a1 += f[o + i] * Ldf[o + i];
					a2 += df[o + i] * Ldf[o + i];
				}
			}
			for (r = 0; r < l; r++) {
				fl[r] = f[o + J->lab[r]];
				dfl[r] = df[o + J->lab[r]];
			}
			t = step == 0 ? 1.0
				: lsv_line_search(l, fl, dfl, J->Y + (size_t)c * l,
						  il, a1, a2, 1);
			for (i = 0; i < n; i++) {
				J->alpha[o + i] += t * an[o + i];
				f[o + i] += t * df[o + i];
				dmax = fmax(dmax, fabs(t * df[o + i]));
				fmax_ = fmax(fmax_, fabs(f[o + i]));
			}
			for (r = 0; r < l; r++) {
				size_t at = o + J->lab[r];
				unsigned char a = J->Y[r + (size_t)c * l] * f[at] < 1.0;
				changed += a != act[at];
				act[at] = a;
			}
			/* converged: a full step (or none left to take) */
			if (!(fabs(t - 1.0) < 1e-3 || dmax <= 1e-6 * (1.0 + fmax_)))
				done = 0;
		}
		/* S unchanged: with a tolerance, also a full step; with early
		 * stopping the inner solves are inexact by design, and an
		 * unchanged S is the stop (Melacci & Belkin stop on stable
		 * predictions) */
		if (changed > 0)
			done = 0;
		else if (p->pcg_early && step > 0)
			done = 1;
	}
out:
	lsv_lapop_free(&L);
	free(act);
	free(labeled);
	free(Yn);
	free(an);
	free(f);
	free(df);
	free(Ldf);
	free(fl);
	free(dfl);
	free(LK);
	free(M);
	free(ipiv);
	return st;
}

/* LapSVM dual (eqs. 10-12), or the SVM when gamma_I = 0. */
static lsv_status train_svm(job *J, const lsv_graph *g, const double *K)
{
	size_t n = J->n, l = J->l, i, r;
	const lsv_train_param *p = J->p;
	double *Z = NULL, *G = NULL, *Q = NULL, *beta = NULL, *box = NULL;
	lsv_status st = LSV_OK;
	int c, info;

	G = alloc(l * l, sizeof *G);
	Q = alloc(l * l, sizeof *Q);
	beta = alloc(l, sizeof *beta);
	box = alloc(l, sizeof *box);
	if (G == NULL || Q == NULL || beta == NULL || box == NULL) {
		st = lsv_fail(J->err, LSV_ENOMEM, "out of memory for the dual");
		goto done;
	}
	if (p->gamma_I == 0.0) {
		/* Z = J'/(2 gamma_A): G = K_ll / (2 gamma_A). */
		for (i = 0; i < l; i++)
			for (r = 0; r < l; r++)
				G[r + i * l] = K[J->lab[r] + J->lab[i] * n] /
					       (2.0 * p->gamma_A);
	} else {
		/* P = 2 gamma_A I + 2 gamma_I/(l+u)^2 L K;  Z = P^-1 J' (n x l);
		 * G = J K Z = K[lab,:] Z (l x l). */
		double *P = alloc(n * n, sizeof *P);
		double *KL = alloc(n * l, sizeof *KL);
		int *ipiv = alloc(n, sizeof *ipiv), N = (int)n, L_ = (int)l;
		double cI = 2.0 * p->gamma_I / ((double)n * (double)n);
		const double one = 1.0, zero = 0.0;
		Z = alloc(n * l, sizeof *Z);
		if (P == NULL || KL == NULL || ipiv == NULL || Z == NULL) {
			free(P);
			free(KL);
			free(ipiv);
			st = lsv_fail(J->err, LSV_ENOMEM,
				      "out of memory for the LapSVM system (%zu bytes)",
				      n * n * sizeof *P);
			goto done;
		}
		st = scaled_LK(g, p, K, cI, P, n, J->err);
		if (st == LSV_OK) {
			for (i = 0; i < n; i++)
				P[i + i * n] += 2.0 * p->gamma_A;
			memset(Z, 0, n * l * sizeof *Z);
			for (i = 0; i < l; i++)
				Z[J->lab[i] + i * n] = 1.0;
			dgesv_(&N, &L_, P, &N, ipiv, Z, &N, &info);
			if (info != 0)
				st = lsv_fail(J->err, LSV_ENUMERIC,
					      "LapSVM system is singular (LAPACK dgesv "
					      "info %d)", info);
		}
		if (st == LSV_OK) {
			for (i = 0; i < l; i++)
				memcpy(KL + i * n, K + J->lab[i] * n, n * sizeof *KL);
			dgemm_("T", "N", &L_, &L_, &N, &one, KL, &N, Z, &N, &zero, G,
			       &L_, 1, 1);
			/* K P^-1 is symmetric in exact arithmetic; make it so. */
			for (i = 0; i < l; i++)
				for (r = i + 1; r < l; r++) {
					double s = 0.5 * (G[r + i * l] + G[i + r * l]);
					G[r + i * l] = G[i + r * l] = s;
				}
		}
		free(P);
		free(KL);
		free(ipiv);
		if (st != LSV_OK)
			goto done;
	}
	memset(J->alpha, 0, n * (size_t)J->nr_fn * sizeof *J->alpha);
	for (c = 0; c < J->nr_fn; c++) {
		const double *y = J->Y + (size_t)c * l;
		double rho;
		for (i = 0; i < l; i++)
			for (r = 0; r < l; r++)
				Q[r + i * l] = y[r] * y[i] * G[r + i * l];
		for (i = 0; i < l; i++)
			box[i] = 1.0 / (double)l;
		st = lsv_smo(Q, y, box, l, p->eps, p->max_iter, 0, beta, &rho, NULL,
			     J->err);
		if (st != LSV_OK)
			goto done;
		J->bias[c] = 0.0 - rho;  /* not -0 when rho = 0 */
		/* alpha = Z (y .* beta) */
		if (p->gamma_I == 0.0) {
			for (i = 0; i < l; i++)
				J->alpha[J->lab[i] + (size_t)c * n] =
					y[i] * beta[i] / (2.0 * p->gamma_A);
		} else {
			for (i = 0; i < l; i++) {
				double s = y[i] * beta[i];
				if (s == 0.0)
					continue;
				for (r = 0; r < n; r++)
					J->alpha[r + (size_t)c * n] += Z[r + i * n] * s;
			}
		}
	}
done:
	free(Z);
	free(G);
	free(Q);
	free(beta);
	free(box);
	return st;
}

/* TSVM (common/tsvm.c), one binary problem per function. */
static lsv_status train_tsvm(job *J, const double *K)
{
	size_t n = J->n, i;
	double *a = malloc(n * sizeof *a), *ys = malloc(n * sizeof *ys);
	lsv_status st = LSV_OK;
	int c;

	J->ystar = malloc(n * (size_t)J->nr_fn * sizeof *J->ystar);
	if (a == NULL || ys == NULL || J->ystar == NULL) {
		free(a);
		free(ys);
		return lsv_fail(J->err, LSV_ENOMEM, "out of memory for the TSVM");
	}
	for (c = 0; c < J->nr_fn && st == LSV_OK; c++) {
		long sw = 0;
		int capped = 0;
		/* r = 0: each problem takes its own labeled ratio */
		st = lsv_tsvm_binary(K, n, J->lab, J->l, J->Y + (size_t)c * J->l,
				     J->p, c, a, &J->bias[c], ys, &sw, &capped,
				     J->err);
		if (st != LSV_OK)
			break;
		for (i = 0; i < n; i++) {
			J->alpha[i + (size_t)c * n] = a[i];
			J->ystar[i * (size_t)J->nr_fn + (size_t)c] = ys[i];
		}
		J->switches += sw;
		J->capped |= capped;
	}
	free(a);
	free(ys);
	return st;
}

/* The model keeps the rows whose coefficients are not all zero. */
static lsv_status make_model(job *J, lsv_model **out)
{
	const lsv_data *x = J->x;
	size_t n = J->n, i, p, nsv = 0, nnz = 0, k = 0;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);
	int c;

	if (m == NULL || sv == NULL)
		goto nomem;
	m->param = *J->p;
	m->l = J->l;
	m->u = n - J->l;
	m->unlabeled = x->unlabeled;
	m->nr_class = J->nr_class;
	m->nr_fn = J->nr_fn;
	m->labels = J->labels;
	J->labels = NULL;
	m->bias = J->bias;
	J->bias = NULL;
	m->sv = sv;
	m->ystar = J->ystar;
	J->ystar = NULL;
	m->switches = J->switches;
	m->iterations = J->iterations;
	m->cg_iterations = J->cg_iterations;
	m->switch_capped = J->capped;
	for (i = 0; i < n; i++) {
		int any = 0;
		for (c = 0; c < J->nr_fn; c++)
			any |= J->alpha[i + (size_t)c * n] != 0.0;
		if (any) {
			nsv++;
			nnz += x->rowptr[i + 1] - x->rowptr[i];
		}
	}
	sv->n = nsv;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = alloc(nsv + 1, sizeof *sv->rowptr);
	sv->col = alloc(nnz, sizeof *sv->col);
	sv->val = alloc(nnz, sizeof *sv->val);
	sv->y = calloc(nsv ? nsv : 1, sizeof *sv->y);
	m->coef = alloc(nsv * (size_t)J->nr_fn, sizeof *m->coef);
	if (!sv->rowptr || !sv->col || !sv->val || !sv->y || !m->coef)
		goto nomem;
	for (i = 0; i < n; i++) {
		int any = 0;
		for (c = 0; c < J->nr_fn; c++)
			any |= J->alpha[i + (size_t)c * n] != 0.0;
		if (!any)
			continue;
		sv->rowptr[k] = sv->nnz;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			sv->col[sv->nnz] = x->col[p];
			sv->val[sv->nnz++] = x->val[p];
		}
		for (c = 0; c < J->nr_fn; c++)
			m->coef[k * (size_t)J->nr_fn + (size_t)c] =
				J->alpha[i + (size_t)c * n];
		k++;
	}
	sv->rowptr[nsv] = sv->nnz;
	*out = m;
	return LSV_OK;
nomem:
	if (m != NULL)
		lsv_model_free(m);
	else
		lsv_data_free(sv);
	return lsv_fail(J->err, LSV_ENOMEM, "out of memory for the model");
}

/* ------------------------------------------------------------------ */
/* Primal Newton on a feature map (common/primal.c)                     */
/* ------------------------------------------------------------------ */

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* A linear model: one expansion row per function, its weight vector w
 * (features by their original index; zeros not stored), coefficient 1
 * for its own function: f_c(x) = w_c'x + b_c. */
static lsv_status linear_model(job *J, const double *W, size_t m,
			       const int *feature, lsv_model **out)
{
	const lsv_data *x = J->x;
	size_t j, nnz = 0, k;
	int c, C = J->nr_fn;
	lsv_model *md = calloc(1, sizeof *md);
	lsv_data *sv = calloc(1, sizeof *sv);

	if (md == NULL || sv == NULL)
		goto nomem;
	for (j = 0; j < m * (size_t)C; j++)
		nnz += W[j] != 0.0;
	md->param = *J->p;
	md->l = J->l;
	md->u = J->n - J->l;
	md->unlabeled = x->unlabeled;
	md->nr_class = J->nr_class;
	md->nr_fn = C;
	md->labels = J->labels;
	J->labels = NULL;
	md->bias = J->bias;
	J->bias = NULL;
	md->sv = sv;
	md->iterations = J->iterations;
	md->cg_iterations = J->cg_iterations;
	sv->n = (size_t)C;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = alloc((size_t)C + 1, sizeof *sv->rowptr);
	sv->col = alloc(nnz, sizeof *sv->col);
	sv->val = alloc(nnz, sizeof *sv->val);
	sv->y = calloc((size_t)C, sizeof *sv->y);
	md->coef = calloc((size_t)C * (size_t)C, sizeof *md->coef);
	if (!sv->rowptr || !sv->col || !sv->val || !sv->y || !md->coef)
		goto nomem;
	/* features in increasing index order within each row */
	for (c = 0; c < C; c++) {
		sv->rowptr[c] = sv->nnz;
		for (j = 0; j < m; j++) {
			double v = W[j + (size_t)c * m];
			if (v == 0.0)
				continue;
			sv->col[sv->nnz] = feature[j];
			sv->val[sv->nnz++] = v;
		}
		md->coef[(size_t)c * (size_t)C + (size_t)c] = 1.0;
	}
	sv->rowptr[C] = sv->nnz;
	(void)k;
	*out = md;
	return LSV_OK;
nomem:
	if (md != NULL)
		lsv_model_free(md);
	else
		lsv_data_free(sv);
	return lsv_fail(J->err, LSV_ENOMEM, "out of memory for the model");
}

/*
 * LapRLS / LapSVM (squared hinge) in the primal.  Nystrom (landmarks m):
 * m rows Z sampled uniformly without replacement (seeded), K_mm = U Lambda
 * U' (eigenvalues under 1e-10 of the largest dropped, rank r), features
 * Phi = K_nZ U_r Lambda_r^-1/2, so Phi Phi' = K_nZ K_ZZ^+ K_Zn ~ K; the
 * model keeps the landmarks with beta = U_r Lambda_r^-1/2 w, f(x) =
 * sum_j beta_j k(z_j, x) + b.  Linear kernel without landmarks: Phi = X,
 * the model keeps w itself.
 */
static lsv_status train_primal(job *J, const lsv_graph *g, lsv_model **out)
{
	const lsv_train_param *p = J->p;
	const lsv_data *x = J->x;
	size_t n = J->n, m = 0, r = 0, i, j;
	int C = J->nr_fn, hinge = p->solver == LSV_SOLVER_LAPSVM;
	size_t *idx = NULL;
	double *Kmm = NULL, *Knm = NULL, *Phi = NULL, *W = NULL, *ev = NULL;
	int *ccol = NULL, *feature = NULL;
	double *train_f = NULL;
	lsv_fmat F;
	lsv_primal_info info;
	lsv_status st = LSV_OK;

	memset(&F, 0, sizeof F);
	F.n = n;
	if (p->landmarks > 0) {
		lsv_rng rng;
		size_t *perm = alloc(n, sizeof *perm);
		int M, info_, lwork = -1, liwork = -1, iwq, *iwork = NULL;
		double wq, *work = NULL, wmax;
		m = (size_t)p->landmarks < n ? (size_t)p->landmarks : n;
		idx = alloc(m, sizeof *idx);
		Kmm = alloc(m * m, sizeof *Kmm);
		ev = alloc(m, sizeof *ev);
		Knm = alloc(n * m, sizeof *Knm);
		if (!perm || !idx || !Kmm || !ev || !Knm) {
			free(perm);
			goto nomem;
		}
		/* partial Fisher-Yates: the first m of a seeded shuffle */
		lsv_rng_seed(&rng, p->seed);
		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = 0; i < m; i++) {
			size_t k = i + (size_t)(lsv_rng_uniform(&rng) * (double)(n - i));
			size_t t = perm[i];
			if (k >= n)
				k = n - 1;
			perm[i] = perm[k];
			perm[k] = t;
			idx[i] = perm[i];
		}
		free(perm);
		qsort(idx, m, sizeof *idx, size_cmp);
		if ((st = lsv_kernel_matrix(&p->kernel, x, idx, m, x, idx, m, Kmm,
					    J->err)) != LSV_OK ||
		    (st = lsv_kernel_matrix(&p->kernel, x, NULL, n, x, idx, m, Knm,
					    J->err)) != LSV_OK)
			goto done;
		/* K_mm = U Lambda U' (divide and conquer) */
		M = (int)m;
		dsyevd_("V", "L", &M, Kmm, &M, ev, &wq, &lwork, &iwq, &liwork,
			&info_, 1, 1);
		lwork = (int)wq;
		liwork = iwq;
		work = malloc((size_t)(lwork > 0 ? lwork : 1) * sizeof *work);
		iwork = malloc((size_t)(liwork > 0 ? liwork : 1) * sizeof *iwork);
		if (work == NULL || iwork == NULL) {
			free(work);
			free(iwork);
			goto nomem;
		}
		dsyevd_("V", "L", &M, Kmm, &M, ev, work, &lwork, iwork, &liwork,
			&info_, 1, 1);
		free(work);
		free(iwork);
		if (info_ != 0) {
			st = lsv_fail(J->err, LSV_ENUMERIC,
				      "the landmarks' kernel matrix has no "
				      "eigendecomposition (LAPACK dsyevd info %d)",
				      info_);
			goto done;
		}
		wmax = ev[m - 1];
		if (!(wmax > 0.0)) {
			st = lsv_fail(J->err, LSV_ENUMERIC,
				      "the landmarks' kernel matrix is zero");
			goto done;
		}
		/* V = U_r Lambda_r^-1/2, the r largest eigenvalues (the
		 * last r columns, eigenvalues ascending) */
		for (j = 0; j < m; j++)
			if (ev[j] > 1e-10 * wmax)
				break;
		r = m - j;
		for (i = j; i < m; i++) {
			double s = 1.0 / sqrt(ev[i]);
			size_t q;
			for (q = 0; q < m; q++)
				Kmm[q + i * m] *= s;
		}
		Phi = alloc(n * r, sizeof *Phi);
		if (Phi == NULL)
			goto nomem;
		{
			int N = (int)n, R = (int)r;
			const double one = 1.0, zero = 0.0;
			dgemm_("N", "N", &N, &R, &M, &one, Knm, &N, Kmm + j * m, &M,
			       &zero, Phi, &N, 1, 1);
		}
		free(Knm);
		Knm = NULL;
		F.dense = Phi;
		F.m = r;
	} else {
		/* the data as features, compactly numbered */
		lsv_fmap fm;
		size_t q;
		if ((st = lsv_fmap_build(x, NULL, 0, &fm, J->err)) != LSV_OK)
			goto done;
		ccol = alloc(x->nnz ? x->nnz : 1, sizeof *ccol);
		feature = alloc(fm.m ? fm.m : 1, sizeof *feature);
		if (ccol == NULL || feature == NULL) {
			lsv_fmap_free(&fm);
			goto nomem;
		}
		for (q = 0; q < x->nnz; q++) {
			ccol[q] = lsv_fmap_get(&fm, x->col[q]);
			feature[ccol[q]] = x->col[q];
		}
		F.m = fm.m;
		lsv_fmap_free(&fm);
		F.x = x;
		F.ccol = ccol;
	}
	W = alloc(F.m * (size_t)C + 1, sizeof *W);
	if (W == NULL)
		goto nomem;
	st = lsv_primal_train(&F, p->gamma_I > 0.0 ? g : NULL, J->lab, J->l,
			      J->Y, C, p, hinge, W, J->bias, &info, J->err);
	if (st != LSV_OK)
		goto done;
	J->iterations = info.newton_steps;
	J->cg_iterations = info.cg_iterations;
	for (i = 0; i < F.m * (size_t)C; i++)
		if (!isfinite(W[i])) {
			st = lsv_fail(J->err, LSV_ENUMERIC,
				      "the primal solver produced non-finite "
				      "weights (ill-conditioned system)");
			goto done;
		}
	/* the training rows' outputs, f = Phi w + b (no kernel again) */
	train_f = alloc(n * (size_t)C, sizeof *train_f);
	if (train_f != NULL) {
		int c;
		for (c = 0; c < C; c++) {
			const double *w = W + (size_t)c * F.m;
			for (i = 0; i < n; i++) {
				double v = J->bias[c];
				if (F.dense != NULL) {
					for (j = 0; j < F.m; j++)
						v += F.dense[i + j * n] * w[j];
				} else {
					size_t q;
					for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
						v += x->val[q] * w[F.ccol[q]];
				}
				train_f[i * (size_t)C + (size_t)c] = v;
			}
		}
	}
	if (p->landmarks > 0) {
		/* beta = V w on the landmark rows of alpha */
		double *beta = alloc(m * (size_t)C, sizeof *beta);
		int M = (int)m, R = (int)r, CC = C;
		const double one = 1.0, zero = 0.0;
		int c;
		if (beta == NULL)
			goto nomem;
		dgemm_("N", "N", &M, &CC, &R, &one, Kmm + (m - r) * m, &M, W, &R,
		       &zero, beta, &M, 1, 1);
		memset(J->alpha, 0, n * (size_t)C * sizeof *J->alpha);
		for (c = 0; c < C; c++)
			for (j = 0; j < m; j++)
				J->alpha[idx[j] + (size_t)c * n] = beta[j + (size_t)c * m];
		free(beta);
		st = make_model(J, out);
	} else {
		st = linear_model(J, W, F.m, feature, out);
	}
	if (st == LSV_OK) {
		(*out)->train_f = train_f;
		train_f = NULL;
	}
	goto done;
nomem:
	st = lsv_fail(J->err, LSV_ENOMEM, "out of memory for the primal solver");
done:
	free(idx);
	free(Kmm);
	free(ev);
	free(Knm);
	free(Phi);
	free(W);
	free(ccol);
	free(feature);
	free(train_f);
	return st;
}

/* The training rows' decision values from the solver's K: f = K alpha + b
 * (one dgemm), n x nr_fn row-major as lsv_model_decision's; NULL if out of
 * memory (the caller then recomputes them from the model). */
static double *train_outputs(const job *J, const double *K, size_t n)
{
	int N = (int)n, C = J->nr_fn, c;
	const double one = 1.0, zero = 0.0;
	double *F = alloc(n * (size_t)C, sizeof *F), *f = alloc(n * (size_t)C, sizeof *f);
	size_t i;
	if (F == NULL || f == NULL) {
		free(F);
		free(f);
		return NULL;
	}
	dgemm_("N", "N", &N, &C, &N, &one, K, &N, J->alpha, &N, &zero, F, &N, 1, 1);
	for (c = 0; c < C; c++)
		for (i = 0; i < n; i++)
			f[i * (size_t)C + (size_t)c] = F[i + (size_t)c * n];
	free(F);
	return f;
}

/* Monotonic wall-clock seconds, for the time report. */
static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The labeled rows of x as a data set of their own (the caller frees). */
static lsv_data *labeled_rows(const lsv_data *x)
{
	lsv_data *s = calloc(1, sizeof *s);
	size_t i, q, nnz = 0, k = 0;
	if (s == NULL)
		return NULL;
	for (i = 0; i < x->n; i++)
		if (lsv_data_is_labeled(x, i))
			nnz += x->rowptr[i + 1] - x->rowptr[i];
	s->rowptr = malloc((x->l + 1) * sizeof *s->rowptr);
	s->col = malloc((nnz ? nnz : 1) * sizeof *s->col);
	s->val = malloc((nnz ? nnz : 1) * sizeof *s->val);
	s->y = malloc((x->l ? x->l : 1) * sizeof *s->y);
	if (!s->rowptr || !s->col || !s->val || !s->y) {
		lsv_data_free(s);
		return NULL;
	}
	s->dim = x->dim;
	s->unlabeled = x->unlabeled;
	for (i = 0; i < x->n; i++) {
		if (!lsv_data_is_labeled(x, i))
			continue;
		s->rowptr[k] = s->nnz;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			s->col[s->nnz] = x->col[q];
			s->val[s->nnz++] = x->val[q];
		}
		s->y[k++] = x->y[i];
	}
	s->rowptr[k] = s->nnz;
	s->n = s->l = k;
	return s;
}

lsv_status lsv_train(const lsv_data *x, const lsv_graph *g,
		     const lsv_train_param *p, lsv_model **out, lsv_error *err)
{
	job J;
	lsv_train_param prm = *p;
	double *K = NULL;
	size_t n = x->n, i;
	lsv_status st;
	int fmap;
	double t0 = 0.0, t1 = 0.0;

	*out = NULL;
	memset(&J, 0, sizeof J);
	if ((st = lsv_train_param_check(p, err)) != LSV_OK)
		return st;
	if (prm.kernel.gamma == 0.0)
		prm.kernel.gamma = 1.0 / (double)(x->dim ? x->dim : 1);
	if (x->l == 0)
		return lsv_fail(err, LSV_EINVAL,
				"no labeled rows (every label is the unlabeled "
				"marker %g)", x->unlabeled);
	if (prm.solver == LSV_SOLVER_TSVM) {
		prm.gamma_I = 0.0;  /* the TSVM uses no graph */
		if (prm.tsvm_cstar == 0.0)  /* record the C* used: C */
			prm.tsvm_cstar = 1.0 / (2.0 * prm.gamma_A * (double)x->l);
	}
	if (g != NULL && g->n != n)
		return lsv_fail(err, LSV_EINVAL,
				"the graph has %zu rows but the data %zu", g->n, n);
	if (prm.gamma_I == 0.0 && prm.solver != LSV_SOLVER_TSVM &&
	    !prm.newton && x->l < n) {
		/* RLS / SVM: the unlabeled rows have no term in eq. 4 (their
		 * coefficients are 0), so the n x n kernel is not needed */
		lsv_data *lab = labeled_rows(x);
		if (lab == NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		st = lsv_train(lab, NULL, p, out, err);
		lsv_data_free(lab);
		if (st == LSV_OK) {
			(*out)->u = n - x->l;
			free((*out)->train_f);  /* of the labeled rows only */
			(*out)->train_f = NULL;
		}
		return st;
	}
	if (prm.gamma_I > 0.0 && g == NULL)
		return lsv_fail(err, LSV_EINVAL, "gamma_I > 0 needs a graph");
	if (n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%zu rows: too many", n);
	fmap = prm.newton && (prm.landmarks > 0 ||
			      prm.kernel.type == LSV_KERNEL_LINEAR);
	if (fmap) {
		/* Nystrom: K_nm, the features and L^p times them, m x m
		 * matrices; the linear map holds no dense n-sized array */
		double m = (double)(prm.landmarks < (long)n ? prm.landmarks : (long)n);
		if (prm.landmarks > 0 &&
		    (st = check_bytes(&prm, 3.0 * (double)n * m + 5.0 * m * m,
				      "the Nystrom features",
				      "use fewer landmarks (-N)", err)) != LSV_OK)
			return st;
	} else if ((st = check_bytes(&prm, (double)n * (double)n *
				     (prm.newton && prm.solver == LSV_SOLVER_LAPSVM ? 3
				      : prm.gamma_I > 0 && !prm.pcg ? 2
				      : prm.solver == LSV_SOLVER_TSVM ? 2 : 1),
				     prm.pcg ? "the n x n kernel matrix"
					     : "the n x n kernel and system matrices",
				     prm.kernel.type == LSV_KERNEL_LINEAR
				     ? "the primal solver needs no n x n array: "
				       "-M newton (linear kernel), or -M newton -N m "
				       "(Nystrom, m landmarks)"
				     : "train on a low-rank kernel instead: -M newton "
				       "-N m (Nystrom, m landmarks, memory O(n m))",
				     err)) != LSV_OK) {
		return st;
	}

	J.x = x;
	J.p = &prm;
	J.n = n;
	J.err = err;
	if ((st = find_classes(x, &J.labels, &J.nr_class, err)) != LSV_OK)
		return st;
	if (J.nr_class < 2) {
		st = lsv_fail(err, LSV_EINVAL,
			      "the labeled rows have only one class (%g): need "
			      "at least two", J.labels[0]);
		goto done;
	}
	J.nr_fn = J.nr_class == 2 ? 1 : J.nr_class;
	if (prm.solver == LSV_SOLVER_TSVM && J.nr_fn == 1 && prm.tsvm_r == 0.0) {
		/* record the r used: the labeled ratio of the first class */
		size_t pos = 0;
		for (i = 0; i < n; i++)
			pos += lsv_data_is_labeled(x, i) && x->y[i] == J.labels[0];
		prm.tsvm_r = (double)pos / (double)x->l;
	}
	J.lab = alloc(x->l, sizeof *J.lab);
	J.Y = alloc(x->l * (size_t)J.nr_fn, sizeof *J.Y);
	J.alpha = alloc(n * (size_t)J.nr_fn, sizeof *J.alpha);
	J.bias = calloc((size_t)J.nr_fn, sizeof *J.bias);
	if (!fmap)
		K = alloc(n * n, sizeof *K);
	if (!J.lab || !J.Y || !J.alpha || !J.bias || (!fmap && !K)) {
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for the kernel matrix (%zu bytes)",
			      n * n * sizeof *K);
		goto done;
	}
	for (i = 0; i < n; i++)
		if (lsv_data_is_labeled(x, i))
			J.lab[J.l++] = i;
	targets(&J);
	if (fmap) {
		st = train_primal(&J, g, out);
		goto done;
	}
	t0 = seconds();
	if ((st = lsv_kernel_matrix(&prm.kernel, x, NULL, n, x, NULL, n, K,
				    err)) != LSV_OK)
		goto done;
	t1 = seconds();
	if (prm.solver == LSV_SOLVER_LAPRLS)
		st = train_rls(&J, g, K);
	else if (prm.solver == LSV_SOLVER_TSVM)
		st = train_tsvm(&J, K);
	else if (prm.pcg || prm.newton)
		st = train_svm_primal(&J, g, K);
	else
		st = train_svm(&J, g, K);
	if (st == LSV_OK) {
		for (i = 0; i < n * (size_t)J.nr_fn; i++)
			if (!isfinite(J.alpha[i])) {
				st = lsv_fail(err, LSV_ENUMERIC,
					      "training produced non-finite "
					      "coefficients (ill-conditioned system)");
				break;
			}
	}
	if (st == LSV_OK)
		st = make_model(&J, out);
	if (st == LSV_OK && ((*out)->train_f = train_outputs(&J, K, n)) != NULL) {
		int c;
		for (i = 0; i < n; i++)
			for (c = 0; c < J.nr_fn; c++)
				(*out)->train_f[i * (size_t)J.nr_fn + (size_t)c] +=
					(*out)->bias[c];
	}
	if (st == LSV_OK) {
		(*out)->kernel_seconds = t1 - t0;
		(*out)->solve_seconds = seconds() - t1;
	}
done:
	free(K);
	free(J.lab);
	free(J.Y);
	free(J.alpha);
	free(J.bias);
	free(J.ystar);
	free(J.labels);
	return st;
}
