/*
 * spectrum.c -- the eigen-machinery shared by the learned kernels of
 * issue 17: the label-aware base kernels (labelaware.c) and the kernel
 * designs of Wang et al.'s Table 1 (kdesign.c).  Every one of them builds
 * a kernel over the n training rows from a few eigenvectors,
 *
 *     K~ = Z diag(mu) Z'      (Z n x q, mu >= 0),
 *
 * and trains the same SVM on its labeled block.  Here:
 *
 *   lsv_eig_extreme     the k largest (or smallest) eigenpairs of a
 *                       symmetric n x n matrix, by LAPACK dsyevr (MRRR,
 *                       the index subset only: O(n^2 k) after the
 *                       tridiagonal reduction);
 *   lsv_onehot          the one-hot target Y (l x c) of the labeled rows;
 *   lsv_centered_alignment  <H K H, Y Y'>_F / (|H K H|_F |Y'H Y|_F) of an
 *                       l x l block, the diagnostic every design reports;
 *   lsv_lowrank_svm     the SVM with C = 1/(2 gamma_A l) on K~_ll by SMO,
 *                       one-vs-rest, Q = y y' .* K~_ll / (2 gamma_A) with
 *                       box 1/l (as lapsvm_dual.c at gamma_I = 0, so that
 *                       LIBSVM's svm-train -t 4 -c C on K~ gives the same
 *                       function), and the training outputs
 *                       f = Z diag(mu) Z_l' alpha + b without forming the
 *                       n x n K~.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

size_t lsv_basis_size(const lsv_train_param *p, size_t n)
{
	if (p->la_k > 0)
		return (size_t)p->la_k;
	if (p->solver == LSV_SOLVER_KDESIGN &&
	    p->kdesign == LSV_KDESIGN_CLUSTER)
		return n;
	return n / 10 > 0 ? n / 10 : 1;
}

lsv_status lsv_dsyevd(double *A, size_t n, double *w, int *info)
{
	int N = (int)n, lwork = -1, liwork = -1, iwq;
	double wq, *work;
	int *iwork;

	*info = 0;
	dsyevd_("V", "L", &N, A, &N, w, &wq, &lwork, &iwq, &liwork, info, 1, 1);
	lwork = (int)wq;
	liwork = iwq;
	work = lsv_alloc((size_t)(lwork > 0 ? lwork : 1), sizeof *work);
	iwork = lsv_alloc((size_t)(liwork > 0 ? liwork : 1), sizeof *iwork);
	if (work != NULL && iwork != NULL)
		dsyevd_("V", "L", &N, A, &N, w, work, &lwork, iwork, &liwork,
			info, 1, 1);
	free(work);
	free(iwork);
	return work != NULL && iwork != NULL ? LSV_OK : LSV_ENOMEM;
}

/* Every eigenpair of the n x n A by dsyevd (E: n x n scratch, w: n
 * values), the k smallest or largest kept in ascending order: w[0..k)
 * and V's k columns. */
static lsv_status eig_all(const double *A, size_t n, size_t k, int largest,
			  double *E, double *w, double *V, lsv_error *err)
{
	size_t first = largest ? n - k : 0;
	int info;

	memcpy(E, A, n * n * sizeof *E);
	if (lsv_dsyevd(E, n, w, &info) != LSV_OK)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the eigenproblem "
				"of %zu rows", n);
	if (info != 0)
		return lsv_fail(err, LSV_ENUMERIC, "the eigenproblem failed (LAPACK "
				"dsyevd info %d)", info);
	memmove(w, w + first, k * sizeof *w);
	memcpy(V, E + first * n, n * k * sizeof *V);
	return LSV_OK;
}

/*
 * What lsv_eig_extreme holds at once: E, the n x n copy dsyevr destroys;
 * wall (n); isuppz (2k ints); dsyevr's workspace (the optimum its query
 * returns, (nb + 1) n doubles for LAPACK's blocking nb, at least 26n:
 * counted as 64n; 10n ints) -- and, when MRRR returns fewer pairs than asked
 * (eig_all), dsyevd's on top of it, 1 + 6n + 2n^2 doubles and 3 + 5n
 * ints, its eigenvectors written into E.  So 3 n^2 + O(n), of which the
 * dsyevd fallback is 2 n^2: it depends on the spectrum, known only after
 * the check, so the check must count it.
 */
double lsv_eig_extreme_doubles(double n, double k)
{
	double ints = 2.0 * k + 10.0 * n + 3.0 + 5.0 * n;
	return n * n + n + 64.0 * n + (1.0 + 6.0 * n + 2.0 * n * n) +
	       ints / 2.0;
}

lsv_status lsv_eig_extreme(const double *A, size_t n, size_t k, int largest,
			   double *w, double *V, lsv_error *err)
{
	double *E = NULL, *work = NULL, *wall = NULL;
	int *iwork = NULL, *isuppz = NULL, found = 0, info = 0;
	int N = (int)n, il, iu, lwork = -1, liwork = -1, iwq;
	double vl = 0.0, vu = 0.0, abstol = 0.0, wq;
	lsv_status st = LSV_OK;
	size_t i, j;

	if (k == 0 || k > n)
		return lsv_fail(err, LSV_EINVAL, "%zu eigenvectors asked for, but "
				"the matrix has only n = %zu rows (expected 1..%zu)",
				k, n, n);
	il = largest ? (int)(n - k + 1) : 1;
	iu = largest ? (int)n : (int)k;
	E = lsv_alloc(n * n, sizeof *E);
	wall = lsv_alloc(n, sizeof *wall);  /* dsyevr may write n values */
	isuppz = lsv_alloc(2 * k, sizeof *isuppz);
	if (E == NULL || wall == NULL || isuppz == NULL)
		goto nomem;
	memcpy(E, A, n * n * sizeof *E);  /* dsyevr destroys its input */
	dsyevr_("V", "I", "L", &N, E, &N, &vl, &vu, &il, &iu, &abstol, &found,
		wall, V, &N, isuppz, &wq, &lwork, &iwq, &liwork, &info, 1, 1, 1);
	lwork = (int)wq;
	liwork = iwq;
	work = lsv_alloc((size_t)(lwork > 0 ? lwork : 1), sizeof *work);
	iwork = lsv_alloc((size_t)(liwork > 0 ? liwork : 1), sizeof *iwork);
	if (work == NULL || iwork == NULL)
		goto nomem;
	dsyevr_("V", "I", "L", &N, E, &N, &vl, &vu, &il, &iu, &abstol, &found,
		wall, V, &N, isuppz, work, &lwork, iwork, &liwork, &info, 1, 1,
		1);
	/* MRRR may return fewer pairs than asked, with info 0, when the
	 * eigenvalues at the cut are (nearly) repeated (a narrow RBF: K near
	 * I); divide and conquer computes them all */
	if (info == 0 && (size_t)found != k &&
	    (st = eig_all(A, n, k, largest, E, wall, V, err)) != LSV_OK)
		goto done;
	if (info != 0) {
		st = lsv_fail(err, LSV_ENUMERIC, "the eigenproblem failed (LAPACK "
			      "dsyevr info %d, %d of %zu eigenpairs)", info, found,
			      k);
		goto done;
	}
	for (j = 0; j < k; j++)
		w[j] = wall[j];
	if (largest)  /* dsyevr's order is ascending: reverse the columns */
		for (j = 0; j < k / 2; j++) {
			double t, *a = V + j * n, *b = V + (k - 1 - j) * n;
			t = w[j];
			w[j] = w[k - 1 - j];
			w[k - 1 - j] = t;
			for (i = 0; i < n; i++) {
				t = a[i];
				a[i] = b[i];
				b[i] = t;
			}
		}
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM, "out of memory for the eigenproblem of "
		      "%zu rows", n);
done:
	free(E);
	free(wall);
	free(work);
	free(iwork);
	free(isuppz);
	return st;
}

void lsv_eig_cache_free(lsv_eig_cache *c)
{
	if (c == NULL)
		return;
	free(c->w);
	free(c->V);
	c->w = c->V = NULL;
	c->valid = 0;
}

/* The key: the matrix the spectrum is of (K, or the graph), n, k. */
static int cache_matches(const lsv_fit *F, lsv_spectrum which, size_t k)
{
	const lsv_eig_cache *c = F->eig;
	return c != NULL && c->valid && c->which == which && c->n == F->n &&
	       c->k == k &&
	       (which == LSV_SPEC_LAPLACIAN_BOTTOM
		? F->graph != NULL && c->graph == F->graph
		: F->K != NULL && c->K == F->K);
}

int lsv_spectrum_lookup(const lsv_fit *F, lsv_spectrum which, size_t k,
			double *w, double *V)
{
	if (!cache_matches(F, which, k))
		return 0;
	memcpy(w, F->eig->w, k * sizeof *w);
	memcpy(V, F->eig->V, F->n * k * sizeof *V);
	F->eig->hits++;
	return 1;
}

void lsv_spectrum_store(const lsv_fit *F, lsv_spectrum which, size_t k,
			const double *w, const double *V)
{
	lsv_eig_cache *c = F->eig;

	if (c == NULL)
		return;
	lsv_eig_cache_free(c);
	c->w = lsv_alloc(k, sizeof *c->w);
	c->V = lsv_alloc(F->n * k, sizeof *c->V);
	if (c->w == NULL || c->V == NULL) {
		lsv_eig_cache_free(c);
		return;
	}
	memcpy(c->w, w, k * sizeof *w);
	memcpy(c->V, V, F->n * k * sizeof *V);
	c->which = which;
	c->n = F->n;
	c->k = k;
	c->K = F->K;
	c->graph = F->graph;
	c->valid = 1;
}

lsv_status lsv_onehot(const lsv_fit *F, double *Yoh, size_t *counts)
{
	size_t i, j, l = F->l, nc = (size_t)F->nr_class;

	memset(Yoh, 0, l * nc * sizeof *Yoh);
	memset(counts, 0, nc * sizeof *counts);
	for (i = 0; i < l; i++) {
		double y = F->x->y[F->lab[i]];
		for (j = 0; j < nc && F->labels[j] != y; j++)
			;
		if (j == nc)
			return lsv_fail(F->err, LSV_EINVAL, "labeled row %zu has "
					"label %g, not a class", F->lab[i] + 1, y);
		Yoh[i + j * l] = 1.0;
		counts[j]++;
	}
	return LSV_OK;
}

lsv_status lsv_min_per_class(const lsv_fit *F, const size_t *counts,
			     const char *who)
{
	size_t j;

	for (j = 0; j < (size_t)F->nr_class; j++)
		if (counts[j] < 2)
			return lsv_fail(F->err, LSV_EINVAL,
					"class %g has %zu labeled row%s: %s needs "
					"at least two per class (one labeled "
					"point's row is not a class, and its "
					"one-vs-rest SVM would have one positive "
					"example)", F->labels[j], counts[j],
					counts[j] == 1 ? "" : "s", who);
	return LSV_OK;
}

double lsv_centered_alignment(const double *Kll, size_t l, const double *Yoh,
			      int c)
{
	double *r = NULL, *Kc = NULL, *P = NULL, *cnt = NULL;
	double tot = 0.0, num = 0.0, kn = 0.0, tn = 0.0;
	size_t i, j;
	int a, b, L = (int)l, C = c;
	const double one = 1.0, zero = 0.0;

	r = lsv_alloc(l, sizeof *r);
	Kc = lsv_alloc(l * l, sizeof *Kc);
	P = lsv_alloc(l * (size_t)c, sizeof *P);
	cnt = calloc((size_t)c, sizeof *cnt);
	if (r == NULL || Kc == NULL || P == NULL || cnt == NULL) {
		num = 0.0;
		goto done;
	}
	/* H K H = K - r 1' - 1 r' + mean(K), r the column means */
	for (j = 0; j < l; j++) {
		double s = 0.0;
		for (i = 0; i < l; i++)
			s += Kll[i + j * l];
		r[j] = s / (double)l;
		tot += r[j];
	}
	tot /= (double)l;
	for (j = 0; j < l; j++)
		for (i = 0; i < l; i++) {
			Kc[i + j * l] = Kll[i + j * l] - r[i] - r[j] + tot;
			kn += Kc[i + j * l] * Kc[i + j * l];
		}
	/* <HKH, YY'> = trace(Y' HKH Y) */
	dgemm_("N", "N", &L, &C, &L, &one, Kc, &L, Yoh, &L, &zero, P, &L, 1, 1);
	for (i = 0; i < l * (size_t)c; i++)
		num += P[i] * Yoh[i];
	/* |Y'HY|_F, Y'HY = diag(n_a) - n n'/l */
	for (a = 0; a < c; a++)
		for (i = 0; i < l; i++)
			cnt[a] += Yoh[i + (size_t)a * l];
	for (a = 0; a < c; a++)
		for (b = 0; b < c; b++) {
			double t = (a == b ? cnt[a] : 0.0) - cnt[a] * cnt[b] /
				   (double)l;
			tn += t * t;
		}
	num = kn > 0.0 && tn > 0.0 ? num / (sqrt(kn) * sqrt(tn)) : 0.0;
done:
	free(r);
	free(Kc);
	free(P);
	free(cnt);
	return num;
}

double lsv_input_alignment(const lsv_fit *F, const double *Knl,
			   const double *Yoh)
{
	size_t l = F->l, n = F->n, i, j;
	double *Kll = lsv_alloc(l * l, sizeof *Kll), a;

	if (Kll == NULL)
		return 0.0;
	for (j = 0; j < l; j++)
		for (i = 0; i < l; i++)
			Kll[i + j * l] = Knl != NULL ? Knl[F->lab[i] + j * n]
						     : F->K[F->lab[i] + F->lab[j] * n];
	a = lsv_centered_alignment(Kll, l, Yoh, F->nr_class);
	free(Kll);
	return a;
}

lsv_status lsv_lowrank_svm(lsv_fit *F, const double *Z, size_t q,
			   const double *mu, const double *Yoh, double *al,
			   double *T)
{
	size_t n = F->n, l = F->l, nf = (size_t)F->nr_fn, i, j;
	double twoA = lsv_fit_ambient(F, 2.0), *Zl = NULL, *S = NULL;
	double *Kt = NULL, *Q = NULL, *beta = NULL, *box = NULL, *f = NULL;
	double *tf = NULL;
	const double one = 1.0, zero = 0.0;
	lsv_status st = LSV_OK;
	int c, L = (int)l, QQ = (int)q, NF = (int)nf, N = (int)n;

	Zl = lsv_alloc(l * q, sizeof *Zl);
	S = lsv_alloc(l * q, sizeof *S);
	Kt = lsv_alloc(l * l, sizeof *Kt);
	Q = lsv_alloc(l * l, sizeof *Q);
	beta = lsv_alloc(l, sizeof *beta);
	box = lsv_alloc(l, sizeof *box);
	f = lsv_alloc(n * nf, sizeof *f);
	tf = lsv_alloc(n * nf, sizeof *tf);
	if (!Zl || !S || !Kt || !Q || !beta || !box || !f || !tf) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the SVM on "
			      "the learned kernel (%zu labeled rows)", l);
		goto done;
	}
	/* K~_ll = (Z_l diag(sqrt mu)) (..)' by dsyrk */
	for (j = 0; j < q; j++) {
		double s = sqrt(mu[j]);
		for (i = 0; i < l; i++) {
			Zl[i + j * l] = Z[F->lab[i] + j * n];
			S[i + j * l] = Zl[i + j * l] * s;
		}
	}
	dsyrk_("L", "N", &L, &QQ, &one, S, &L, &zero, Kt, &L, 1, 1);
	for (j = 0; j < l; j++)
		for (i = j + 1; i < l; i++)
			Kt[j + i * l] = Kt[i + j * l];
	F->report->la_align = lsv_centered_alignment(Kt, l, Yoh, F->nr_class);
	for (c = 0; c < F->nr_fn; c++) {
		const double *y = F->Y + (size_t)c * l;
		double rho;
		for (j = 0; j < l; j++)
			for (i = 0; i < l; i++)
				Q[i + j * l] = y[i] * y[j] * Kt[i + j * l] / twoA;
		for (i = 0; i < l; i++)
			box[i] = 1.0 / (double)l;
		st = lsv_smo(Q, y, box, l, F->p->eps, F->p->max_iter, 0, beta, &rho,
			     NULL, F->err);
		if (st != LSV_OK)
			goto done;
		F->bias[c] = 0.0 - rho;
		for (i = 0; i < l; i++)
			al[i + (size_t)c * l] = y[i] * beta[i] / twoA;
	}
	/* T = diag(mu) Z_l' alpha (q x nr_fn); the outputs Z T + b */
	dgemm_("T", "N", &QQ, &NF, &L, &one, Zl, &L, al, &L, &zero, T, &QQ, 1,
	       1);
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < q; j++)
			T[j + (size_t)c * q] *= mu[j];
	dgemm_("N", "N", &N, &NF, &QQ, &one, Z, &N, T, &QQ, &zero, f, &N, 1, 1);
	for (i = 0; i < n; i++)
		for (c = 0; c < F->nr_fn; c++) {
			tf[i * nf + (size_t)c] = f[i + (size_t)c * n] + F->bias[c];
			if (!isfinite(tf[i * nf + (size_t)c])) {
				st = lsv_fail(F->err, LSV_ENUMERIC, "the SVM on the "
					      "learned kernel gave non-finite "
					      "values");
				goto done;
			}
		}
	free(F->report->train_f);
	F->report->train_f = tf;
	tf = NULL;
done:
	free(Zl);
	free(S);
	free(Kt);
	free(Q);
	free(beta);
	free(box);
	free(f);
	free(tf);
	return st;
}

/*
 * The normalized Laplacian of the dense weights W = K, the graph of the
 * spectral transforms in Wang et al.'s Table 1 ("Given an n x n kernel
 * matrix K, the graph Laplacian is computed as L = D - K, D_ii = sum_j
 * K_ij ... normalized I - D^-1/2 K D^-1/2"; Zhu et al. 2004 take their
 * dense graph the same way):
 *     L_ij = [d_i > 0] delta_ij - K_ij / (sqrt(d_i) sqrt(d_j)),  d = K 1.
 * With K >= 0 entrywise and PSD, D^-1/2 K D^-1/2 is PSD with largest
 * eigenvalue 1 (eigenvector D^1/2 1), so the eigenvalues of L lie in
 * [0, 1]; the RBF kernel's self-weights K_ii = 1 are kept, as the paper
 * writes D.  One pass for d (dgemv), one O(n^2) scaling.
 */
lsv_status lsv_kernel_laplacian(const double *K, size_t n, double *L,
				lsv_error *err)
{
	double *s = lsv_alloc(n ? n : 1, sizeof *s);
	double *one = lsv_alloc(n ? n : 1, sizeof *one);
	const double d1 = 1.0, d0 = 0.0;
	int N = (int)n, inc = 1;
	size_t i, j;

	if (s == NULL || one == NULL) {
		free(s);
		free(one);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the kernel's "
				"Laplacian (%zu rows)", n);
	}
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			if (!(K[i + j * n] >= 0.0) || !isfinite(K[i + j * n])) {
				lsv_fail(err, LSV_EINVAL, "the Laplacian of the "
					 "kernel needs weights K_ij >= 0, but "
					 "K(%zu, %zu) = %g (an RBF kernel has "
					 "them; or take the graph's: -V graph)",
					 i + 1, j + 1, K[i + j * n]);
				free(s);
				free(one);
				return LSV_EINVAL;
			}
	for (i = 0; i < n; i++)
		one[i] = 1.0;
	dgemv_("N", &N, &N, &d1, K, &N, one, &inc, &d0, s, &inc, 1);
	for (i = 0; i < n; i++)
		s[i] = s[i] > 0.0 ? 1.0 / sqrt(s[i]) : 0.0;
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			L[i + j * n] = -(K[i + j * n] * s[i]) * s[j];
	for (i = 0; i < n; i++)
		L[i + i * n] += s[i] > 0.0 ? 1.0 : 0.0;
	free(s);
	free(one);
	return LSV_OK;
}

/*
 * The k smallest eigenpairs of the normalized Laplacian I - D^-1/2 W D^-1/2
 * with W = K (lsv_kernel_laplacian; -V kernel, the default) or the
 * training graph (lsv_laplacian_dense; -V graph; an isolated row is 0
 * there, so it adds an eigenvalue 0 whose eigenvector is that row's
 * indicator).  The smallest eigenvectors are the smoothest functions on
 * the graph, the ones the diffusion and spectral graph kernels weigh most.
 */
lsv_status lsv_laplacian_bottom(const lsv_fit *F, size_t k, const char *who,
				double *w, double *V)
{
	size_t n = F->n;
	int of_kernel = F->p->lap_graph == LSV_LAP_KERNEL;
	lsv_spectrum which = of_kernel ? LSV_SPEC_KLAPLACIAN_BOTTOM
				       : LSV_SPEC_LAPLACIAN_BOTTOM;
	double *L;
	lsv_status st;

	if (!of_kernel && F->graph == NULL)
		return lsv_fail(F->err, LSV_EINVAL, "%s needs a graph over the "
				"training rows with -V graph (-G, or the k-NN "
				"graph lapsvm-train builds)", who);
	if (!of_kernel && F->graph->n != n)
		return lsv_fail(F->err, LSV_EINVAL, "the graph has %zu rows but "
				"the data %zu", F->graph->n, n);
	if (of_kernel && F->K == NULL)
		return lsv_fail(F->err, LSV_EINVAL, "%s needs the n x n kernel "
				"matrix for its Laplacian (W = K)", who);
	if (k == 0 || k > n)
		return lsv_fail(F->err, LSV_EINVAL, "%zu Laplacian eigenvectors "
				"asked for, but the %s has only n = %zu rows "
				"(expected 1..%zu)", k, of_kernel ? "kernel" :
				"graph", n, n);
	if (lsv_spectrum_lookup(F, which, k, w, V))
		return LSV_OK;
	if ((L = lsv_alloc(n * n, sizeof *L)) == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the "
				"Laplacian of %zu rows", n);
	st = of_kernel ? lsv_kernel_laplacian(F->K, n, L, F->err)
		       : lsv_laplacian_dense(F->graph, 1, 1, L, F->err);
	if (st == LSV_OK)
		st = lsv_eig_extreme(L, n, k, 0, w, V, F->err);
	free(L);
	if (st == LSV_OK)
		lsv_spectrum_store(F, which, k, w, V);
	return st;
}

/*
 * A precomputed kernel (-t 4) must be a Gram matrix for the learned
 * kernels: their eigenvectors, alignments and the SVM on K~ assume K is
 * positive semi-definite.  K + tau I with tau = 1e-8 max_i K_ii (well
 * above the rounding of a Gram matrix computed in doubles, about n eps
 * |K|) has a Cholesky factor exactly when every eigenvalue of K is above
 * -tau: one dpotrf, O(n^3/3).  On failure the smallest eigenvalue is
 * computed for the message.
 */
lsv_status lsv_check_psd(const lsv_fit *F)
{
	size_t n = F->n, i;
	double *A, dmax = 0.0, tau, wmin = 0.0;
	int N = (int)n, info = 0;
	lsv_status st = LSV_OK;

	if (F->p->kernel.type != LSV_KERNEL_PRECOMPUTED || F->K == NULL)
		return LSV_OK;
	for (i = 0; i < n; i++)
		dmax = fmax(dmax, fabs(F->K[i + i * n]));
	tau = 1e-8 * (dmax > 0.0 ? dmax : 1.0);
	if ((A = lsv_alloc(n * n, sizeof *A)) == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory checking the "
				"precomputed kernel (%zu rows)", n);
	memcpy(A, F->K, n * n * sizeof *A);
	for (i = 0; i < n; i++)
		A[i + i * n] += tau;
	dpotrf_("L", &N, A, &N, &info, 1);
	free(A);
	if (info == 0)
		return LSV_OK;
	{
		double *V = lsv_alloc(n, sizeof *V);
		lsv_error e;
		if (V != NULL &&
		    lsv_eig_extreme(F->K, n, 1, 0, &wmin, V, &e) == LSV_OK)
			st = lsv_fail(F->err, LSV_EINVAL, "the precomputed kernel "
				      "is not positive semi-definite: its smallest "
				      "eigenvalue is %.6g, below -%.3g (1e-8 of its "
				      "largest diagonal value); the learned kernels "
				      "need a Gram matrix", wmin, tau);
		else
			st = lsv_fail(F->err, LSV_EINVAL, "the precomputed kernel "
				      "is not positive semi-definite (an eigenvalue "
				      "below -%.3g, 1e-8 of its largest diagonal "
				      "value); the learned kernels need a Gram "
				      "matrix", tau);
		free(V);
	}
	return st;
}

void lsv_spectrum_report(lsv_fit *F, size_t n, size_t c, size_t k,
			 double **mu, double **Z, double eig_seconds,
			 double align_seconds, double svm_seconds)
{
	lsv_train_report *r = F->report;

	r->la_n = n;
	r->la_c = c;
	r->la_k = k;
	r->la_weight = *mu;
	*mu = NULL;
	r->la_Z = *Z;
	*Z = NULL;
	r->la_eig_seconds = eig_seconds;
	r->la_align_seconds = align_seconds;
	r->la_svm_seconds = svm_seconds;
}
