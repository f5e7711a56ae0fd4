/*
 * cluster.c -- regularized spectral clustering (Belkin, Niyogi &
 * Sindhwani, JMLR 7 (2006), Section 6.1, eqs. 13-14): the unsupervised end
 * of manifold regularization.  Labels play no part.
 *
 * Objective.  Over f = sum_i alpha_i k(x_i, .) in H_K, with f also the
 * vector (f(x_1) .. f(x_n)),
 *
 *     minimize  gamma_A |f|_K^2 + gamma_I f'L^p f
 *     subject to  v0'f = 0,  f'f = 1,
 *
 * v0 the null vector of L: the constant 1 for L = D - W (eq. 13's
 * sum_i f(x_i) = 0), D^1/2 1 for the normalized I - D^-1/2 W D^-1/2,
 * whose null vector the constant is not (orthogonality to 1 would let the
 * minimizer follow the degrees, not a cut).  Only gamma = gamma_A/gamma_I
 * matters: there is no loss, so unlike eq. 4 nothing is scaled by l or n.
 *
 * Solution.  Eq. 14 states it as the pencil P(gamma K + K L K)P v =
 * lambda P K^2 P v, alpha = P v, P the projection onto the complement of
 * K1.  K is often numerically singular (an RBF kernel's spectrum decays
 * fast), so the right side is singular and the smallest eigenpair of the
 * pencil unstable at small gamma.  We solve the same problem in the range
 * of K with an orthonormal basis, where it is a standard symmetric
 * eigenproblem:
 *
 *   K = U S U' (dsyevd), keeping the r eigenvalues s_j > 1e-10 s_max
 *   (LSV_NYSTROM_CUTOFF); f = U t, so f'f = t't, |f|_K^2 = t' S^-1 t and
 *   v0'f = h't with h = U'v0.  Minimize t'C t, C = gamma S^-1 + U'L^p U,
 *   over t't = 1, h't = 0.  A Householder reflection H maps h to a
 *   multiple of e_1, so t = H [0; y] with y in R^(r-1) meets h't = 0, and
 *   y is an eigenvector of the trailing (r-1) x (r-1) block of H C H: the
 *   smallest eigenpairs by dsyevr (MRRR; dsyevd when MRRR returns fewer
 *   than asked, lsv_eig_extreme).  Both constraints hold by
 *   construction (t't = y'y, h't = 0); they are checked on the computed f
 *   all the same.  Out of sample f(x) = sum_i alpha_i k(x_i, x) with
 *   alpha = U S^-1 t (then K alpha = U t).
 *
 * What dropping the small eigenvalues costs: f is confined to the span of
 * U.  A direction with s_j < 1e-10 s_max would cost gamma |t_j|^2 / s_j >
 * 1e10 gamma / s_max in the objective, more than the graph term can save
 * (at most lambda_max(L^p), 2^p unnormalized-degree-bound aside) unless
 * gamma < ~1e-10 s_max lambda_max: smaller gammas are the unregularized
 * limit within that span.
 *
 * Large n (-M newton -N m): the Nystrom features Phi (n x r0, Phi Phi' ~
 * K; common/nystrom.c) with f = Phi w and |f|_K^2 = w'w.  Phi'Phi = V S V'
 * (dsyevd, the same cutoff) gives the orthonormal U = Phi V S^-1/2 (n x r)
 * with f = U t for t = S^1/2 V'w, and |f|_K^2 = t'S^-1 t: the same
 * problem.  w = V S^-1/2 t and the landmarks' coefficients are the map's
 * V w.  Memory O(n m), no n x n array.
 *
 * Several clusters.  The c - 1 smallest solutions f_1 .. f_{c-1}
 * (orthonormal, each orthogonal to v0) embed the rows: the regularized
 * Laplacian eigenmap of Remark 2, defined everywhere.  c = 2: the cluster
 * is the sign of f_1 (f > 0: cluster 1).  c > 2: k-means on the embedded
 * rows (k-means++ seeding from p->seed, p->cluster_restarts restarts, the
 * lowest inertia kept), clusters numbered in order of their first row; a
 * new point is embedded by the f_j and joins the nearest centroid.
 * With p->cluster_unit (the default) each embedded row z is first scaled
 * to z/|z| (a zero row stays zero), as Ng, Jordan & Weiss (2002) do
 * before k-means: points of one cluster spread along a ray from the
 * origin (their scale follows the degree, or for a new point how far it
 * is from the data, where f decays) and the direction is what tells the
 * clusters apart.  The centroids are means of unit rows; lsv_model_label
 * scales a new point's row the same way before taking the nearest, so a
 * training row predicted by the model gets its training cluster.
 *
 * Determinism: each f_j's sign makes its largest-magnitude entry on the
 * training rows positive (the first such row on a tie).  Trust: a gap
 * between the (c-1)-th and c-th eigenvalues below 1e-8 relative, or a
 * constraint off by more than 1e-8 (f_j'f_j = 1, f_i'f_j = 0, v0'f_j = 0
 * relative to |v0|, all checked on the computed f; the largest violation
 * is report->cluster_check), is reported (report->cluster_unsure) as the
 * result is then not determined by the data.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

#define KMEANS_MAX_ITER 300
#define CHECK_TOL 1e-8

/* The connected components of g (breadth first, O(n + edges)), or 0 if
 * out of memory; *edges gets the stored entries. */
static size_t components(const lsv_graph *g, size_t *edges)
{
	size_t n = g->n, i, count = 0;
	size_t *queue = lsv_alloc(n, sizeof *queue);
	unsigned char *seen = calloc(n ? n : 1, 1);

	*edges = g->rowptr[n];
	if (queue == NULL || seen == NULL) {
		free(queue);
		free(seen);
		return 0;
	}
	for (i = 0; i < n; i++) {
		size_t head = 0, tail = 0;
		if (seen[i])
			continue;
		count++;
		seen[i] = 1;
		queue[tail++] = i;
		while (head < tail) {
			size_t a = queue[head++], q;
			for (q = g->rowptr[a]; q < g->rowptr[a + 1]; q++)
				if (!seen[g->col[q]]) {
					seen[g->col[q]] = 1;
					queue[tail++] = (size_t)g->col[q];
				}
		}
	}
	free(queue);
	free(seen);
	return count;
}

/* The orthonormal basis of the problem: f = U t, |f|_K^2 = t' S^-1 t. */
typedef struct {
	size_t n, r;
	double *U;     /* n x r, column-major (dense: inside E) */
	double *s;     /* r, positive */
	double *E;     /* dense: the n x n eigenvectors of K (U is its tail) */
	double *ev;    /* dense: the n eigenvalues */
	/* Nystrom: f = Phi w, w = Wt t with Wt = V S^-1/2 (r0 x r) */
	lsv_nystrom ny;
	double *Wt;
} basis;

static void basis_free(basis *b)
{
	if (b->E == NULL) {  /* Nystrom: U and s are arrays of their own */
		free(b->U);
		free(b->s);
	}
	free(b->E);
	free(b->ev);
	free(b->Wt);
	lsv_nystrom_free(&b->ny);
	memset(b, 0, sizeof *b);
}

/* Eigenvalues (ascending) and eigenvectors of the symmetric N x N A (in
 * place) by dsyevd. */
static lsv_status eig_all(double *A, int N, double *ev, const char *what,
			  lsv_error *err)
{
	int info_;

	if (lsv_dsyevd(A, (size_t)N, ev, &info_) != LSV_OK)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the "
				"eigendecomposition of %s", what);
	if (info_ != 0)
		return lsv_fail(err, LSV_ENUMERIC, "%s has no eigendecomposition "
				"(LAPACK dsyevd info %d)", what, info_);
	return LSV_OK;
}

/* The first eigenvalue above the cutoff of ev[0..N) (ascending); N if the
 * largest is not positive. */
static size_t first_kept(const double *ev, size_t N)
{
	size_t j;

	if (N == 0 || !(ev[N - 1] > 0.0))
		return N;
	for (j = 0; j < N; j++)
		if (ev[j] > LSV_NYSTROM_CUTOFF * ev[N - 1])
			break;
	return j;
}

/* K = U S U' on the n x n kernel. */
static lsv_status dense_basis(const lsv_fit *F, basis *b)
{
	size_t n = F->n, j0;
	lsv_status st;

	b->n = n;
	b->E = lsv_alloc(n * n, sizeof *b->E);
	b->ev = lsv_alloc(n, sizeof *b->ev);
	if (b->E == NULL || b->ev == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the "
				"eigenvectors of the kernel matrix");
	memcpy(b->E, F->K, n * n * sizeof *b->E);
	if ((st = eig_all(b->E, (int)n, b->ev, "the kernel matrix", F->err)) !=
	    LSV_OK)
		return st;
	j0 = first_kept(b->ev, n);
	b->r = n - j0;
	b->U = b->E + j0 * n;
	b->s = b->ev + j0;
	return LSV_OK;
}

/* The Nystrom features made orthonormal: Phi'Phi = V S V', U = Phi V S^-1/2. */
static lsv_status map_basis(const lsv_fit *F, basis *b)
{
	size_t n = F->n, r0, j0, i, j;
	double *G = NULL, *ev = NULL;
	lsv_status st;
	const double one = 1.0, zero = 0.0;

	b->n = n;
	if ((st = lsv_nystrom_build(F->x, F->p, &b->ny, F->err)) != LSV_OK)
		return st;
	r0 = b->ny.r;
	G = lsv_alloc(r0 * r0, sizeof *G);
	ev = lsv_alloc(r0, sizeof *ev);
	if (G == NULL || ev == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the Nystrom "
			      "features' Gram matrix");
		goto done;
	}
	{
		int N = (int)n, R = (int)r0;
		dsyrk_("L", "T", &R, &N, &one, b->ny.Phi, &N, &zero, G, &R, 1, 1);
	}
	if ((st = eig_all(G, (int)r0, ev, "the Nystrom features' Gram matrix",
			  F->err)) != LSV_OK)
		goto done;
	j0 = first_kept(ev, r0);
	b->r = r0 - j0;
	b->s = lsv_alloc(b->r, sizeof *b->s);
	b->Wt = lsv_alloc(r0 * b->r, sizeof *b->Wt);
	b->U = lsv_alloc(n * b->r, sizeof *b->U);
	if (b->s == NULL || b->Wt == NULL || b->U == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the Nystrom "
			      "basis (%zu x %zu)", n, b->r);
		goto done;
	}
	for (j = 0; j < b->r; j++) {
		double sc = 1.0 / sqrt(ev[j0 + j]);
		b->s[j] = ev[j0 + j];
		for (i = 0; i < r0; i++)
			b->Wt[i + j * r0] = G[i + (j0 + j) * r0] * sc;
	}
	if (b->r > 0) {
		int N = (int)n, R0 = (int)r0, R = (int)b->r;
		dgemm_("N", "N", &N, &R, &R0, &one, b->ny.Phi, &N, b->Wt, &R0,
		       &zero, b->U, &N, 1, 1);
	}
done:
	/* the eigenvalues are now in b->s: ev was only scratch */
	free(G);
	free(ev);
	return st;
}

double lsv_unit_norm(const double *z, int k)
{
	double s = 0.0, big = 0.0;
	int j;

	/* scaled by the largest entry */
	for (j = 0; j < k; j++)
		big = fmax(big, fabs(z[j]));
	if (!(big > 0.0) || !isfinite(big))
		return 0.0;
	for (j = 0; j < k; j++)
		s += (z[j] / big) * (z[j] / big);
	s = big * sqrt(s);
	return isfinite(s) ? s : 0.0;
}

/* Squared distance between two points of dimension k. */
static double dist2(const double *a, const double *b, int k)
{
	double d = 0.0;
	int j;

	for (j = 0; j < k; j++)
		d += (a[j] - b[j]) * (a[j] - b[j]);
	return d;
}

/* The nearest of c centres (the lower index on a tie) and its distance. */
static int nearest(const double *x, const double *cent, int c, int k,
		   double *d2)
{
	int q, best = 0;
	double bd = dist2(x, cent, k);

	for (q = 1; q < c; q++) {
		double d = dist2(x, cent + (size_t)q * (size_t)k, k);
		if (d < bd) {
			bd = d;
			best = q;
		}
	}
	*d2 = bd;
	return best;
}

/*
 * k-means (Lloyd) on the n rows of E (n x k, row-major) into c clusters:
 * k-means++ seeding (Arthur & Vassilvitskii 2007) from rng, then
 * alternate assignment and means until no row moves (or KMEANS_MAX_ITER);
 * an emptied cluster takes the row farthest from its centre.  Fills
 * assign (n), cent (c x k) and returns the inertia (sum of squared
 * distances); < 0 if fewer than c distinct rows exist.
 */
static double kmeans_once(const double *E, size_t n, int k, int c,
			  lsv_rng *rng, int *assign, double *cent, double *d2,
			  size_t *count)
{
	size_t i;
	int q, it;
	double inertia = 0.0;

	/* k-means++: the first centre uniform, each next one with
	 * probability proportional to the squared distance to the nearest */
	i = (size_t)(lsv_rng_uniform(rng) * (double)n);
	if (i >= n)
		i = n - 1;
	memcpy(cent, E + i * (size_t)k, (size_t)k * sizeof *cent);
	for (i = 0; i < n; i++)
		d2[i] = dist2(E + i * (size_t)k, cent, k);
	for (q = 1; q < c; q++) {
		double sum = 0.0, u, acc = 0.0;
		size_t pick = n;
		for (i = 0; i < n; i++)
			sum += d2[i];
		if (!(sum > 0.0))
			return -1.0;  /* every row is on a centre already */
		u = lsv_rng_uniform(rng) * sum;
		for (i = 0; i < n; i++) {
			if (d2[i] <= 0.0)
				continue;
			pick = i;
			acc += d2[i];
			if (acc > u)
				break;
		}
		memcpy(cent + (size_t)q * (size_t)k, E + pick * (size_t)k,
		       (size_t)k * sizeof *cent);
		for (i = 0; i < n; i++) {
			double d = dist2(E + i * (size_t)k,
					 cent + (size_t)q * (size_t)k, k);
			if (d < d2[i])
				d2[i] = d;
		}
	}
	for (i = 0; i < n; i++)
		assign[i] = -1;
	for (it = 0; it < KMEANS_MAX_ITER; it++) {
		int moved = 0;
		for (i = 0; i < n; i++) {
			int a = nearest(E + i * (size_t)k, cent, c, k, &d2[i]);
			moved |= a != assign[i];
			assign[i] = a;
		}
		if (!moved)
			break;
		memset(cent, 0, (size_t)c * (size_t)k * sizeof *cent);
		memset(count, 0, (size_t)c * sizeof *count);
		for (i = 0; i < n; i++) {
			double *m = cent + (size_t)assign[i] * (size_t)k;
			int j;
			count[assign[i]]++;
			for (j = 0; j < k; j++)
				m[j] += E[i * (size_t)k + (size_t)j];
		}
		for (q = 0; q < c; q++) {
			int j;
			if (count[q] == 0) {
				/* the row farthest from its centre moves here */
				size_t far = 0;
				for (i = 1; i < n; i++)
					if (d2[i] > d2[far])
						far = i;
				memcpy(cent + (size_t)q * (size_t)k,
				       E + far * (size_t)k, (size_t)k * sizeof *cent);
				d2[far] = 0.0;
				continue;
			}
			for (j = 0; j < k; j++)
				cent[(size_t)q * (size_t)k + (size_t)j] /=
					(double)count[q];
		}
	}
	for (i = 0; i < n; i++) {
		assign[i] = nearest(E + i * (size_t)k, cent, c, k, &d2[i]);
		inertia += d2[i];
	}
	return inertia;
}

/* The best of `restarts` k-means runs, its clusters renumbered in order
 * of their first row (so the numbering depends on the data, not on the
 * seeding). */
lsv_status lsv_kmeans(const double *E, size_t n, int k, int c,
		      unsigned long long seed, int restarts, double *cent,
		      lsv_error *err)
{
	int *assign = lsv_alloc(n, sizeof *assign);
	int *best = lsv_alloc(n, sizeof *best);
	double *tc = lsv_alloc((size_t)c * (size_t)k, sizeof *tc);
	double *d2 = lsv_alloc(n, sizeof *d2);
	size_t *count = lsv_alloc((size_t)c, sizeof *count);
	int *order = lsv_alloc((size_t)c, sizeof *order), R, q;
	double bi = -1.0;
	lsv_rng rng;
	lsv_status st = LSV_OK;
	size_t i;

	if (!assign || !best || !tc || !d2 || !count || !order) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for k-means");
		goto done;
	}
	lsv_rng_seed(&rng, seed);
	for (R = 0; R < restarts; R++) {
		double in = kmeans_once(E, n, k, c, &rng, assign, tc, d2, count);
		if (in < 0.0) {
			st = lsv_fail(err, LSV_EINVAL,
				      "the embedding has fewer distinct points than "
				      "the %d clusters asked for (duplicate rows, or "
				      "a graph or kernel that cannot tell them apart)",
				      c);
			goto done;
		}
		if (bi < 0.0 || in < bi) {
			bi = in;
			memcpy(best, assign, n * sizeof *best);
			memcpy(cent, tc, (size_t)c * (size_t)k * sizeof *cent);
		}
	}
	/* renumber: order[old] = new, by first appearance */
	for (q = 0; q < c; q++)
		order[q] = -1;
	for (i = 0, q = 0; i < n && q < c; i++)
		if (order[best[i]] < 0)
			order[best[i]] = q++;
	for (R = 0; R < c; R++)  /* a cluster no row joined goes last */
		if (order[R] < 0)
			order[R] = q++;
	memcpy(tc, cent, (size_t)c * (size_t)k * sizeof *tc);
	for (q = 0; q < c; q++)
		memcpy(cent + (size_t)order[q] * (size_t)k, tc + (size_t)q * (size_t)k,
		       (size_t)k * sizeof *cent);
done:
	free(assign);
	free(best);
	free(tc);
	free(d2);
	free(count);
	free(order);
	return st;
}

/* C (r x r) = gamma S^-1 + U' L^p U, symmetrized against rounding. */
static lsv_status cluster_matrix(const lsv_fit *F, const basis *b,
				 double gamma, double *C)
{
	size_t n = F->n, r = b->r, i, j;
	double *LU = lsv_alloc(n * r, sizeof *LU);
	const double one = 1.0, zero = 0.0;
	int N = (int)n, R = (int)r;
	lsv_status st;

	if (LU == NULL)
		return lsv_fail(F->err, LSV_ENOMEM,
				"out of memory for the clustering");
	if ((st = lsv_lapop_apply(F->L, b->U, LU, r, 1.0, F->err)) != LSV_OK) {
		free(LU);
		return st;
	}
	dgemm_("T", "N", &R, &R, &N, &one, b->U, &N, LU, &N, &zero, C, &R, 1, 1);
	free(LU);
	for (j = 0; j < r; j++) {
		for (i = j + 1; i < r; i++) {
			double m = 0.5 * (C[i + j * r] + C[j + i * r]);
			C[i + j * r] = C[j + i * r] = m;
		}
		C[j + j * r] += gamma / b->s[j];
	}
	return LSV_OK;
}

/* The reflection H = I - hb h h' that maps U'v0 to a multiple of e_1
 * (h, r values, gets its vector), applied to C: C becomes H C H, whose
 * trailing block holds the problem under v0'f = 0.  Returns the number of
 * leading coordinates the constraint removes (1; 0 when U'v0 is 0 to
 * rounding, the constraint then holding for every t, with hb 0), or -1
 * when out of memory. */
static int deflate_constant(const basis *b, const double *v0, double v0n,
			    double *C, double *h, double *hb)
{
	size_t n = b->n, r = b->r, i, j;
	double hn = 0.0, a = 0.0, vv = 0.0, *wv;
	const double one = 1.0, zero = 0.0;
	int N = (int)n, R = (int)r, inc = 1;

	*hb = 0.0;
	dgemv_("T", &N, &R, &one, b->U, &N, v0, &inc, &zero, h, &inc, 1);
	for (j = 0; j < r; j++)
		hn += h[j] * h[j];
	hn = sqrt(hn);
	if (!(hn > 1e-12 * v0n))
		return 0;
	/* H = I - hb v v' with v = h + sign(h_1)|h| e_1 (kept in h):
	 * H C H = C - hb (v w' + w v') + hb^2 (v'w) v v', w = C v */
	if ((wv = lsv_alloc(r, sizeof *wv)) == NULL)
		return -1;
	h[0] += copysign(hn, h[0]);
	for (j = 0; j < r; j++)
		vv += h[j] * h[j];
	*hb = 2.0 / vv;
	dgemv_("N", &R, &R, &one, C, &R, h, &inc, &zero, wv, &inc, 1);
	for (j = 0; j < r; j++)
		a += h[j] * wv[j];
	for (j = 0; j < r; j++)
		for (i = 0; i < r; i++)
			C[i + j * r] += -*hb * (h[i] * wv[j] + wv[i] * h[j]) +
					*hb * *hb * a * h[i] * h[j];
	free(wv);
	return 1;
}

/* The k smallest eigenpairs (and one more when there is room, for the
 * gap) of the trailing block of C (r x r) that starts at off, by
 * lsv_eig_extreme (dsyevr, and dsyevd when MRRR returns fewer pairs than
 * asked on nearly repeated eigenvalues): the eigenvectors into Z
 * ((r - off) x k), the eigenvalue and the gap into the report.  C is
 * overwritten: the block is packed into its first (r - off)^2 entries,
 * so that no copy is needed beside the eigensolver's scratch. */
static lsv_status smallest_pairs(const lsv_fit *F, double *C, size_t r,
				 size_t off, int k, double *Z)
{
	size_t rq = r - off, want = (size_t)k + 1 <= rq ? (size_t)k + 1
							 : (size_t)k, j;
	double *w, *Zw;
	lsv_status st;

	w = lsv_alloc(want, sizeof *w);
	Zw = lsv_alloc(rq * want, sizeof *Zw);
	if (!w || !Zw) {
		st = lsv_fail(F->err, LSV_ENOMEM,
			      "out of memory for the clustering");
		goto done;
	}
	/* column j moves from (j + off) r + off to j rq <= that: in order,
	 * nothing is overwritten before it is read */
	for (j = 0; j < rq; j++)
		memmove(C + j * rq, C + (j + off) * r + off, rq * sizeof *C);
	if ((st = lsv_eig_extreme(C, rq, want, 0, w, Zw, F->err)) != LSV_OK)
		goto done;
	memcpy(Z, Zw, rq * (size_t)k * sizeof *Z);
	F->report->cluster_lambda = w[k - 1];
	F->report->cluster_gap = want > (size_t)k
		? (w[k] - w[k - 1]) / fmax(fmax(fabs(w[k]), fabs(w[k - 1])), 1e-300)
		: HUGE_VAL;
	if (F->report->cluster_gap < CHECK_TOL)
		F->report->cluster_unsure = 1;
done:
	free(w);
	free(Zw);
	return st;
}

/* The constraints, checked on the computed f_j (the columns of E, n x k)
 * themselves: f_j'f_j = 1, f_i'f_j = 0 (the solutions are orthonormal)
 * and v0'f_j = 0; the largest violation (v0'f relative to |v0|) into the
 * report. */
static lsv_status check_constraints(const lsv_fit *F, const double *E,
				    int k, const double *v0, double v0n)
{
	size_t n = F->n, i, j, K = (size_t)k;
	double *G = lsv_alloc(K * K, sizeof *G), worst = 0.0;
	const double one = 1.0, zero = 0.0;
	int N = (int)n;

	if (G == NULL)
		return lsv_fail(F->err, LSV_ENOMEM,
				"out of memory for the clustering");
	dgemm_("T", "N", &k, &k, &N, &one, E, &N, E, &N, &zero, G, &k, 1, 1);
	for (j = 0; j < K; j++) {
		double s1 = 0.0;
		for (i = 0; i < n; i++)
			s1 += v0[i] * E[i + j * n];
		worst = fmax(worst, fabs(s1) / v0n);
		for (i = 0; i < K; i++)
			worst = fmax(worst, fabs(G[i + j * K] -
						 (i == j ? 1.0 : 0.0)));
		if (!isfinite(s1) || !isfinite(G[j + j * K]))
			worst = HUGE_VAL;
	}
	free(G);
	F->report->cluster_check = worst;
	if (!(worst <= CHECK_TOL))
		F->report->cluster_unsure = 1;
	return LSV_OK;
}

/* Each f_j (column of E, n x k) signed so that its largest |value| is
 * positive, with its t_j (column of T, r x k). */
static void fix_signs(double *E, size_t n, double *T, size_t r, int k)
{
	size_t i, j;

	for (j = 0; j < (size_t)k; j++) {
		double *f = E + j * n, big = 0.0;
		size_t at = 0;
		for (i = 0; i < n; i++)
			if (fabs(f[i]) > big) {
				big = fabs(f[i]);
				at = i;
			}
		if (f[at] < 0.0) {
			for (i = 0; i < n; i++)
				f[i] = -f[i];
			for (i = 0; i < r; i++)
				T[i + j * r] = -T[i + j * r];
		}
	}
}

/* F->alpha (n x k) from the solutions t (T, r x k, changed): alpha = U
 * S^-1 t, or on a Nystrom map the landmarks' V Wt t; checked finite. */
static lsv_status expansion(lsv_fit *F, const basis *b, double *T, int k)
{
	size_t n = F->n, r = b->r, i, j;
	const double one = 1.0, zero = 0.0;

	memset(F->alpha, 0, n * (size_t)k * sizeof *F->alpha);
	if (F->K != NULL) {
		int N = (int)n, R = (int)r;
		for (j = 0; j < (size_t)k; j++)
			for (i = 0; i < r; i++)
				T[i + j * r] /= b->s[i];
		dgemm_("N", "N", &N, &k, &R, &one, b->U, &N, T, &R, &zero,
		       F->alpha, &N, 1, 1);
	} else {
		/* w = Wt t (Wt = V S^-1/2 already holds the scaling), beta =
		 * ny.V w on the landmark rows */
		size_t r0 = b->ny.r, m = b->ny.m;
		double *wv = lsv_alloc(r0 * (size_t)k, sizeof *wv);
		double *beta = lsv_alloc(m * (size_t)k, sizeof *beta);
		int R0 = (int)r0, R = (int)r, M = (int)m;
		if (wv == NULL || beta == NULL) {
			free(wv);
			free(beta);
			return lsv_fail(F->err, LSV_ENOMEM,
					"out of memory for the clustering");
		}
		dgemm_("N", "N", &R0, &k, &R, &one, b->Wt, &R0, T, &R, &zero, wv,
		       &R0, 1, 1);
		dgemm_("N", "N", &M, &k, &R0, &one, b->ny.V, &M, wv, &R0, &zero,
		       beta, &M, 1, 1);
		for (j = 0; j < (size_t)k; j++)
			for (i = 0; i < m; i++)
				F->alpha[b->ny.idx[i] + j * n] = beta[i + j * m];
		free(wv);
		free(beta);
	}
	for (i = 0; i < n * (size_t)k; i++)
		if (!isfinite(F->alpha[i]))
			return lsv_fail(F->err, LSV_ENUMERIC,
					"clustering produced non-finite "
					"coefficients");
	return LSV_OK;
}

/* The c centroids (c x k, row-major, into *cent) of k-means on the
 * embedded training rows tf (n x k, row-major), each scaled to unit length
 * first when p->cluster_unit (tf itself, the report's embedding, stays as
 * f is). */
static lsv_status centroids(const lsv_fit *F, const double *tf, int k,
			    double **cent)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, i, j, K = (size_t)k;
	int c = F->nr_class;
	double *E2 = NULL;
	lsv_status st;

	*cent = lsv_alloc((size_t)c * K, sizeof **cent);
	if (*cent == NULL)
		return lsv_fail(F->err, LSV_ENOMEM,
				"out of memory for the clustering");
	if (p->cluster_unit) {
		if ((E2 = lsv_alloc(n * K, sizeof *E2)) == NULL)
			return lsv_fail(F->err, LSV_ENOMEM,
					"out of memory for the clustering");
		for (i = 0; i < n; i++) {
			const double *z = tf + i * K;
			double nz = lsv_unit_norm(z, k);
			for (j = 0; j < K; j++)
				E2[i * K + j] = nz > 0.0 ? z[j] / nz : z[j];
		}
	}
	st = lsv_kmeans(E2 != NULL ? E2 : tf, n, k, c, p->seed,
			p->cluster_restarts, *cent, F->err);
	free(E2);
	return st;
}

/* Too few directions for k solutions: the span of U (rank r) holds r - 1
 * functions orthogonal to v0, and c clusters need k = c - 1 of them. */
static lsv_status check_rank(const lsv_fit *F, size_t r, int k, int c)
{
	if (r < (size_t)k + 1)
		return lsv_fail(F->err, LSV_EINVAL,
				"the kernel matrix has numerical rank %zu: its "
				"span holds %zu function%s orthogonal to the "
				"constant, fewer than the %d that %d clusters "
				"need (use a kernel of higher rank, e.g. the "
				"RBF%s)", r, r ? r - 1 : 0, r == 2 ? "" : "s",
				k, c, F->K == NULL ? ", or more landmarks" : "");
	return LSV_OK;
}

/* v0 (n), the null vector of L: D^1/2 1 for the normalized Laplacian, 1
 * for D - W; returns |v0|. */
static double null_vector(const lsv_fit *F, double *v0)
{
	size_t i;
	double v0n = 0.0;

	for (i = 0; i < F->n; i++) {
		v0[i] = F->L->normalized ? sqrt(F->L->deg[i]) : 1.0;
		v0n += v0[i] * v0[i];
	}
	return sqrt(v0n);
}

/* t = H [0; y] for each solution y (column of Z, (r - off) x k) into T
 * (r x k), H = I - hb h h' the reflection of deflate_constant; with off
 * 0 (no constraint left) t = y. */
static void reflect_back(const double *Z, const double *h, double hb,
			 size_t r, size_t off, int k, double *T)
{
	size_t i, j;

	for (j = 0; j < (size_t)k; j++) {
		double *t = T + j * r, d = 0.0;
		if (off)
			t[0] = 0.0;
		memcpy(t + off, Z + j * (r - off), (r - off) * sizeof *t);
		if (off) {
			for (i = 0; i < r; i++)
				d += h[i] * t[i];
			for (i = 0; i < r; i++)
				t[i] -= hb * d * h[i];
		}
	}
}

/* The k smallest solutions of min t'Ct over t't = 1, h't = 0 (h = U'v0):
 * T (r x k) their t, E (n x k) their f = U t. */
static lsv_status smallest_solutions(const lsv_fit *F, const basis *b,
				     const double *v0, double v0n, int k,
				     double *T, double *E)
{
	size_t n = F->n, r = b->r;
	double gamma = F->p->gamma_A / F->p->gamma_I, hb;
	double *C = lsv_alloc(r * r, sizeof *C), *h = lsv_alloc(r, sizeof *h);
	double *Z = lsv_alloc(r * (size_t)k, sizeof *Z);
	const double one = 1.0, zero = 0.0;
	int N = (int)n, R = (int)r, deflated;
	lsv_status st;

	if (!C || !h || !Z) {
		st = lsv_fail(F->err, LSV_ENOMEM,
			      "out of memory for the clustering");
		goto done;
	}
	if ((st = cluster_matrix(F, b, gamma, C)) != LSV_OK)
		goto done;
	/* the constraint v0'f = 0 as h't = 0 */
	if ((deflated = deflate_constant(b, v0, v0n, C, h, &hb)) < 0) {
		st = lsv_fail(F->err, LSV_ENOMEM,
			      "out of memory for the clustering");
		goto done;
	}
	if ((st = smallest_pairs(F, C, r, (size_t)deflated, k, Z)) != LSV_OK)
		goto done;
	reflect_back(Z, h, hb, r, (size_t)deflated, k, T);
	dgemm_("N", "N", &N, &k, &R, &one, b->U, &N, T, &R, &zero, E, &N, 1, 1);
done:
	free(C);
	free(h);
	free(Z);
	return st;
}

/* E (n x k, column-major) as the report's row-major n x k, or NULL when
 * out of memory. */
static double *row_major(const double *E, size_t n, int k)
{
	size_t i, j;
	double *tf = lsv_alloc(n * (size_t)k, sizeof *tf);

	if (tf != NULL)
		for (i = 0; i < n; i++)
			for (j = 0; j < (size_t)k; j++)
				tf[i * (size_t)k + j] = E[i + j * n];
	return tf;
}

lsv_status lsv_fit_cluster(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, edges;
	int k = F->nr_fn, c = F->nr_class;
	double *v0 = NULL, *T = NULL, *E = NULL, *tf = NULL, *cent = NULL;
	double v0n;
	basis b;
	lsv_status st;

	memset(&b, 0, sizeof b);
	/* no edge: f'Lf is 0 for every f, nothing to cluster by */
	F->report->cluster_components = components(F->L->g, &edges);
	if (edges == 0)
		return lsv_fail(F->err, LSV_EINVAL,
				"the graph has no edges (every row is "
				"isolated): nothing to cluster by (build it "
				"with a larger -k or -e)");
	st = F->K != NULL ? dense_basis(F, &b) : map_basis(F, &b);
	if (st != LSV_OK)
		goto done;
	F->report->cluster_rank = b.r;
	if ((st = check_rank(F, b.r, k, c)) != LSV_OK)
		goto done;
	v0 = lsv_alloc(n, sizeof *v0);
	E = lsv_alloc(n * (size_t)k, sizeof *E);
	T = lsv_alloc(b.r * (size_t)k, sizeof *T);
	if (!v0 || !E || !T)
		goto nomem;
	v0n = null_vector(F, v0);
	if ((st = smallest_solutions(F, &b, v0, v0n, k, T, E)) != LSV_OK ||
	    (st = check_constraints(F, E, k, v0, v0n)) != LSV_OK)
		goto done;
	fix_signs(E, n, T, b.r, k);
	/* the training rows' embedding, row-major as the report's */
	if ((tf = row_major(E, n, k)) == NULL)
		goto nomem;
	if ((st = expansion(F, &b, T, k)) != LSV_OK ||
	    (c > 2 && (st = centroids(F, tf, k, &cent)) != LSV_OK) ||
	    (st = lsv_fit_model(F, out)) != LSV_OK)
		goto done;
	(*out)->centroids = cent;
	cent = NULL;
	F->report->train_f = tf;
	tf = NULL;
	goto done;
nomem:
	st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the clustering");
done:
	basis_free(&b);
	free(v0);
	free(T);
	free(E);
	free(tf);
	free(cent);
	return st;
}
