/*
 * tangent.c -- distances between images for graph-build -d tangent and
 * -d rotation: each row's k nearest rows under them.  Rows are width x
 * height images, pixel (r, c) being feature r width + c + 1 (row-major).
 *
 * Tangent distance (Simard, LeCun & Denker, NIPS 1993; Hastie & Simard,
 * Statistical Science 1998), two-sided:
 *
 *     d(x, y)^2 = min over a, b in the box B of |x + T_x a - (y + T_y b)|^2,
 *
 * T_x the d x 7 tangent vectors of image x -- the first-order change of x
 * under x- and y-translation, rotation, scaling, the two hyperbolic
 * deformations and line thickening -- computed from the image smoothed by
 * a Gaussian of sigma = p->smooth pixels (derivatives of a noisy image are
 * noise):  with S the smoothed image, Sx, Sy its derivatives (central
 * differences, one-sided at the border) and (u, v) a pixel's position from
 * the image centre (u to the right, v down),
 *     Sx, Sy, v Sx - u Sy, u Sx + v Sy, u Sx - v Sy, v Sx + u Sy,
 *     (Sx^2 + Sy^2) / R,
 * R the data's range of values (so the thickness coefficient does not
 * depend on the grey-level scale).  The box (the same for a and b):
 * translations +-2 pixels, rotation +-0.2 radians (11.5 degrees), scaling
 * and each hyperbolic deformation +-0.1 (10%), thickness +-1 -- the
 * authors' bounds (init.m: translations 2, scaling 0.9-1.1, rotation 0.2,
 * shear 0.1), thickness made symmetric.  The 14 coefficients solve a
 * box-constrained least-squares problem exactly: the 14 x 14 normal
 * equations H = [T_x -T_y]'[T_x -T_y] (plus 1e-10 of its mean diagonal,
 * so a blank image's zero tangents leave it positive definite) by a
 * primal active-set method, each subproblem a Cholesky solve (dposv);
 * the distance is then the residual recomputed from the image, not from
 * the normal equations.  It is at most the Euclidean distance (a = b = 0
 * is in the box) and symmetric: each pair is computed once.
 *
 * Cost: the tangent distance is evaluated on each row's C nearest rows by
 * Euclidean distance only (exact kNN, lsv_knn_lists), as the authors did
 * (C = 20): a row's candidates are its own C and the rows that have it
 * among theirs; the k nearest by tangent distance are chosen among them.
 * The products a pair needs (T_x'T_y, T_x'y, x'T_y) come from one dgemm
 * per row, [T_x x]' [T_y1 y1 T_y2 y2 ...], rows spread over OpenMP
 * threads.
 *
 * Rotation-invariant distance (Argyriou, Herbster & Pontil 2005, Figure
 * 3's deliberately poor "low-quality" graph, where a 6 turned over is a
 * 9): d(x, y) = min over theta of min(|R_theta x - y|, |R_theta y - x|),
 * theta from -180 to 180 degrees in steps of p->angle_step (0 and 180
 * always included), R_theta the rotation about the image centre with
 * bilinear interpolation, pixels from outside the image taking the value
 * of the nearest border pixel.  Every pair, not candidates: rows are
 * ranked by |a|^2 + |b|^2 - 2 a.b from two dgemm per block of rows and
 * rotation, then each row's k + 2 best are re-ranked by their distance
 * computed directly (in the order of the lower row, so it is the same
 * both ways).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "blas.h"
#include "internal.h"

#define NT 7  /* tangent vectors */
#define NZ (2 * NT)

/* The box of the tangent coefficients, per tangent vector (see above). */
static const double bound[NT] = {2.0, 2.0, 0.2, 0.1, 0.1, 0.1, 1.0};

/* malloc of count elements, at least one (so 0 is not NULL) */
static void *img_alloc(size_t count, size_t size)
{
	return malloc((count ? count : 1) * size);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Checks and dense images                                             */
/* ------------------------------------------------------------------ */

/* Rows must fit the declared shape and be dense images, not text; their
 * squared norms must not overflow (as lsv_graph_build's own check). */
static lsv_status check_images(const lsv_data *x, const lsv_graph_param *p,
			       lsv_error *err)
{
	size_t d = (size_t)p->width * (size_t)p->height, i, q;

	if (x->n == 0)
		return lsv_fail(err, LSV_EINVAL, "no data rows");
	if (x->n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"%zu rows: at most %d are supported", x->n, INT_MAX);
	for (i = 0; i < x->n; i++) {
		double sq = 0.0;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			if ((size_t)x->col[q] >= d)
				return lsv_fail_row(err, LSV_EINVAL, i + 1,
						    "feature %d is beyond the "
						    "declared %dx%d image (%zu "
						    "pixels): not an image of that "
						    "shape", x->col[q] + 1, p->width,
						    p->height, d);
			sq += x->val[q] * x->val[q];
		}
		if (!(sq <= DBL_MAX / 4))
			return lsv_fail_row(err, LSV_EINVAL, i + 1,
					    "feature values too large (squared "
					    "norm %g, expected at most %g): "
					    "distances would overflow a double; "
					    "rescale the data", sq, DBL_MAX / 4);
	}
	/* the dense/sparse rule of lsv_graph_build: under 1% of the
	 * features stored, with over 2000 of them, is text, not images */
	if (d > 2000 && (double)x->nnz < 0.01 * (double)x->n * (double)d)
		return lsv_fail(err, LSV_EINVAL,
				"the rows are sparse (%.2f%% of the %zu pixels of a "
				"%dx%d image stored on average), like text: the "
				"image distances are for dense images",
				100.0 * (double)x->nnz / ((double)x->n * (double)d),
				d, p->width, p->height);
	return LSV_OK;
}

/* Row i as a dense image (zeros where nothing is stored). */
static void dense_row(const lsv_data *x, size_t i, size_t d, double *out)
{
	size_t q;
	memset(out, 0, d * sizeof *out);
	for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
		out[x->col[q]] = x->val[q];
}

/* ------------------------------------------------------------------ */
/* Tangent vectors                                                     */
/* ------------------------------------------------------------------ */

/* Separable Gaussian smoothing of a W x H image, kernel cut at 3 sigma,
 * the border extended by its nearest pixel; tmp is W H scratch. */
static void smooth(const double *in, int W, int H, double sigma, double *out,
		   double *tmp, const double *g, int rad)
{
	int r, c, k;

	if (rad == 0) {
		memcpy(out, in, (size_t)W * (size_t)H * sizeof *out);
		return;
	}
	for (r = 0; r < H; r++)
		for (c = 0; c < W; c++) {
			double s = 0.0;
			for (k = -rad; k <= rad; k++) {
				int cc = c + k < 0 ? 0 : c + k >= W ? W - 1 : c + k;
				s += g[k + rad] * in[r * W + cc];
			}
			tmp[r * W + c] = s;
		}
	for (r = 0; r < H; r++)
		for (c = 0; c < W; c++) {
			double s = 0.0;
			for (k = -rad; k <= rad; k++) {
				int rr = r + k < 0 ? 0 : r + k >= H ? H - 1 : r + k;
				s += g[k + rad] * tmp[rr * W + c];
			}
			out[r * W + c] = s;
		}
	(void)sigma;
}

/* The 7 tangent vectors of image F into T (d x 8, column-major; column 8
 * is F itself, for the products). */
static void tangents(const double *F, int W, int H, double range,
		     const double *g, int rad, double *S, double *tmp,
		     double *T)
{
	size_t d = (size_t)W * (size_t)H;
	double cx = 0.5 * (W - 1), cy = 0.5 * (H - 1);
	int r, c;

	smooth(F, W, H, 0.0, S, tmp, g, rad);
	for (r = 0; r < H; r++)
		for (c = 0; c < W; c++) {
			size_t at = (size_t)r * (size_t)W + (size_t)c;
			double sx, sy, u = c - cx, v = r - cy;
			/* central differences, one-sided at the border */
			if (W == 1)
				sx = 0.0;
			else if (c == 0)
				sx = S[at + 1] - S[at];
			else if (c == W - 1)
				sx = S[at] - S[at - 1];
			else
				sx = 0.5 * (S[at + 1] - S[at - 1]);
			if (H == 1)
				sy = 0.0;
			else if (r == 0)
				sy = S[at + (size_t)W] - S[at];
			else if (r == H - 1)
				sy = S[at] - S[at - (size_t)W];
			else
				sy = 0.5 * (S[at + (size_t)W] - S[at - (size_t)W]);
			T[at] = sx;
			T[at + d] = sy;
			T[at + 2 * d] = v * sx - u * sy;
			T[at + 3 * d] = u * sx + v * sy;
			T[at + 4 * d] = u * sx - v * sy;
			T[at + 5 * d] = v * sx + u * sy;
			T[at + 6 * d] = range > 0.0 ? (sx * sx + sy * sy) / range : 0.0;
			T[at + 7 * d] = F[at];
		}
}

/* ------------------------------------------------------------------ */
/* The box-constrained least squares of one pair                       */
/* ------------------------------------------------------------------ */

/*
 * min 1/2 z'Hz + h'z over lo <= z <= hi (NZ unknowns, 0 feasible), H
 * positive definite: primal active set.  From z = 0 with every bound
 * free: solve on the free set with the others at their bounds; if that
 * leaves the box, step to the first bound crossed and hold it; otherwise
 * release the held bound whose multiplier has the wrong sign (the largest),
 * or stop when none has.  Each step lowers the objective; at most 4 NZ
 * steps (a cap against cycling on degenerate ties).
 */
static void box_qp(const double *H, const double *h, const double *lo,
		   const double *hi, double *z)
{
	int state[NZ];  /* 0 free, -1 at lo, +1 at hi */
	double A[NZ * NZ], b[NZ], zf[NZ];
	int free_[NZ], nf, i, j, it, info, one = 1;

	for (i = 0; i < NZ; i++) {
		state[i] = 0;
		z[i] = 0.0;
	}
	for (it = 0; it < 4 * NZ; it++) {
		double alpha = 1.0;
		int block = -1, bside = 0;

		nf = 0;
		for (i = 0; i < NZ; i++)
			if (state[i] == 0)
				free_[nf++] = i;
		if (nf > 0) {
			/* H_FF zf = -(h_F + H_FA z_A) */
			for (i = 0; i < nf; i++) {
				double s = h[free_[i]];
				for (j = 0; j < NZ; j++)
					if (state[j] != 0)
						s += H[free_[i] + j * NZ] * z[j];
				b[i] = -s;
				for (j = 0; j < nf; j++)
					A[i + j * nf] = H[free_[i] + free_[j] * NZ];
			}
			dposv_("L", &nf, &one, A, &nf, b, &nf, &info, 1);
			if (info != 0)
				return;  /* not positive definite: keep z */
			for (i = 0; i < nf; i++) {
				int k = free_[i];
				double dz = b[i] - z[k];
				zf[k] = b[i];
				if (b[i] < lo[k] && dz < 0.0 &&
				    (lo[k] - z[k]) / dz < alpha) {
					alpha = (lo[k] - z[k]) / dz;
					block = k;
					bside = -1;
				} else if (b[i] > hi[k] && dz > 0.0 &&
					   (hi[k] - z[k]) / dz < alpha) {
					alpha = (hi[k] - z[k]) / dz;
					block = k;
					bside = 1;
				}
			}
			if (alpha < 0.0)
				alpha = 0.0;
			for (i = 0; i < nf; i++) {
				int k = free_[i];
				z[k] += alpha * (zf[k] - z[k]);
				if (z[k] < lo[k])
					z[k] = lo[k];
				if (z[k] > hi[k])
					z[k] = hi[k];
			}
			if (block >= 0) {
				z[block] = bside < 0 ? lo[block] : hi[block];
				state[block] = bside;
				continue;
			}
		}
		/* the free set's optimum: any held bound to let go? */
		{
			int rel = -1;
			double worst = 0.0;
			for (i = 0; i < NZ; i++) {
				double gi;
				if (state[i] == 0)
					continue;
				gi = h[i];
				for (j = 0; j < NZ; j++)
					gi += H[i + j * NZ] * z[j];
				/* at lo the slope must be >= 0, at hi <= 0 */
				if (state[i] < 0 && gi < -worst) {
					worst = -gi;
					rel = i;
				} else if (state[i] > 0 && gi > worst) {
					worst = gi;
					rel = i;
				}
			}
			if (rel < 0)
				return;
			state[rel] = 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Selection                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
	double key;
	int j;
} cand;

static int cand_cmp(const void *pa, const void *pb)
{
	const cand *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->j > b->j) - (a->j < b->j);
}

/* The k best of the m candidates of a row into idx/dist (distance from
 * the squared key), -1 / 0 after them. */
static void keep_best(cand *c, size_t m, size_t k, int *idx, double *dist)
{
	size_t r;
	qsort(c, m, sizeof *c, cand_cmp);
	for (r = 0; r < k; r++) {
		idx[r] = r < m ? c[r].j : -1;
		dist[r] = r < m ? sqrt(c[r].key) : 0.0;
	}
}

/* ------------------------------------------------------------------ */
/* Tangent distance on Euclidean candidates                            */
/* ------------------------------------------------------------------ */

/* Two rows a < b, one a candidate of the other, and, once computed, their
 * squared tangent distance. */
typedef struct {
	int a, b;
	double d2;
} upair;

static int upair_cmp(const void *pa, const void *pb)
{
	const upair *x = pa, *y = pb;
	if (x->a != y->a)
		return (x->a > y->a) - (x->a < y->a);
	return (x->b > y->b) - (x->b < y->b);
}

/* The pairs whose tangent distance is computed, sorted by (a, b); the
 * pairs whose lower row is a are pair[start[a]] .. pair[start[a + 1] - 1],
 * mmax of them at most.  Owns pair and start (pairs_free). */
typedef struct {
	upair *pair;
	size_t npair;
	size_t *start;  /* n + 1 offsets */
	size_t mmax;
} pair_list;

static void pairs_free(pair_list *pl)
{
	free(pl->pair);
	free(pl->start);
}

/* Every image's tangent vectors and the image itself, and their products.
 * Owns T and G (tangent_set_free). */
typedef struct {
	size_t d;   /* pixels */
	double *T;  /* n blocks of d x 8, column-major: T_a's 7 columns
		       (tangents()), then x_a */
	double *G;  /* n blocks of 8 x 8: [T_a x_a]'[T_a x_a] */
} tangent_set;

static void tangent_set_free(tangent_set *ts)
{
	free(ts->T);
	free(ts->G);
}

/* The Euclidean pre-selection: each row's C = p->candidates nearest rows
 * by exact kNN (lsv_knn_lists, C capped at n - 1; -1 past the candidates
 * a row has) into *cidx (n x C, row-major; the caller frees it).  On
 * success info is that search's (its scan, for the tool's report), C
 * being info->candidates as well as info->k. */
static lsv_status euclidean_candidates(const lsv_data *x,
				       const lsv_graph_param *p, int **cidx,
				       lsv_graph_info *info, lsv_error *err)
{
	lsv_graph_param q = *p;
	lsv_graph_info ci;
	double *cdist;
	lsv_status st;

	q.distance = LSV_DIST_EUCLIDEAN;
	q.k = p->candidates;
	q.progress = NULL;
	if ((st = lsv_knn_lists(x, &q, cidx, &cdist, &ci, err)) != LSV_OK)
		return st;
	free(cdist);
	*info = ci;
	info->candidates = ci.k;
	return LSV_OK;
}

/* The unordered pairs {i, j}, j among row i's C candidates (cidx, n x C),
 * each once (i may be among j's too) into pl, sorted, with the offsets of
 * each row's pairs.  0, or -1 out of memory (pl->npair then 0 if no pair
 * was made, and pl for pairs_free either way). */
static int candidate_pairs(const int *cidx, size_t n, size_t C,
			   pair_list *pl)
{
	size_t i, e, np = 0, nu = 0;
	upair *pairs;

	pairs = pl->pair = img_alloc(n * C, sizeof *pl->pair);
	if (pairs == NULL)
		return -1;
	for (i = 0; i < n; i++)
		for (e = 0; e < C; e++) {
			int j = cidx[i * C + e];
			if (j < 0)
				continue;
			pairs[np].a = (int)i < j ? (int)i : j;
			pairs[np].b = (int)i < j ? j : (int)i;
			pairs[np].d2 = 0.0;
			np++;
		}
	qsort(pairs, np, sizeof *pairs, upair_cmp);
	for (e = 0; e < np; e++)
		if (nu == 0 || pairs[e].a != pairs[nu - 1].a ||
		    pairs[e].b != pairs[nu - 1].b)
			pairs[nu++] = pairs[e];
	pl->npair = nu;
	pl->start = calloc(n + 1, sizeof *pl->start);
	if (pl->start == NULL)
		return -1;
	for (e = 0; e < nu; e++)
		pl->start[pairs[e].a + 1]++;
	for (i = 0; i < n; i++) {
		if (pl->start[i + 1] > pl->mmax)
			pl->mmax = pl->start[i + 1];
		pl->start[i + 1] += pl->start[i];
	}
	return 0;
}

/* The range of the data's values, max - min, an absent pixel being 0 (so
 * the thickness tangent does not depend on the grey-level scale). */
static double data_range(const lsv_data *x)
{
	double lo = 0.0, hi = 0.0;
	size_t i;

	for (i = 0; i < x->nnz; i++) {
		lo = fmin(lo, x->val[i]);
		hi = fmax(hi, x->val[i]);
	}
	return hi - lo;
}

/* The Gaussian exp(-r^2 / (2 sigma^2)) at r = -rad .. rad, rad = 3 sigma
 * rounded up (at most 300), scaled to sum 1, into g[r + rad]; returns
 * rad, 0 (g untouched: no smoothing) when sigma is not positive. */
static int gauss_kernel(double sigma, double *g)
{
	double s = 0.0;
	int r, rad;

	if (!(sigma > 0.0))
		return 0;
	rad = (int)ceil(3.0 * sigma);
	if (rad > 300)
		rad = 300;
	for (r = -rad; r <= rad; r++)
		s += g[r + rad] = exp(-0.5 * r * r / (sigma * sigma));
	for (r = -rad; r <= rad; r++)
		g[r + rad] /= s;
	return rad;
}

/* Every row's [T_a x_a] (tangents(): T_a from its image smoothed by a
 * Gaussian of sigma p->smooth, x_a the image itself) and G_a =
 * [T_a x_a]'[T_a x_a] (one dgemm) into ts, rows spread over the OpenMP
 * threads, each with its own 3 d scratch.  0, or -1 when a thread's
 * scratch could not be had. */
static int compute_tangents(const lsv_data *x, const lsv_graph_param *p,
			    tangent_set *ts)
{
	size_t n = x->n, d = ts->d;
	double gk[601], range = data_range(x);
	int rad = gauss_kernel(p->smooth, gk), failed = 0;
	long a;

#pragma omp parallel
	{
		double *F = img_alloc(3 * d, sizeof *F);
		const double one = 1.0, zero = 0.0;
		int eight = 8, D = (int)d;
#pragma omp for schedule(static)
		for (a = 0; a < (long)n; a++) {
			double *Ta = ts->T + (size_t)a * d * 8;
			if (F == NULL) {
#pragma omp atomic write
				failed = 1;
				continue;
			}
			dense_row(x, (size_t)a, d, F);
			tangents(F, p->width, p->height, range, gk, rad, F + d,
				 F + 2 * d, Ta);
			dgemm_("T", "N", &eight, &eight, &D, &one, Ta, &D, Ta, &D, &zero,
			       ts->G + (size_t)a * 64, &eight, 1, 1);
		}
		free(F);
	}
	return failed ? -1 : 0;
}

/*
 * The squared two-sided tangent distance of images a and b,
 *
 *     min over z = (alpha, beta) in the box of |r + T_a alpha - T_b beta|^2
 *       = r'r + 2 h'z + z'Hz,   r = x_a - x_b,
 *     H = [T_a -T_b]'[T_a -T_b],  h = [T_a -T_b]'r,
 *
 * H and h from the products Ga = [T_a x_a]'[T_a x_a], Gb (the same of b)
 * and Pab = [T_a x_a]'[T_b x_b] (8 x 8 each), H's diagonal raised by 1e-10
 * of its mean (1 if it is 0), the 14 coefficients by box_qp (the same
 * minimizer: 1/2 z'Hz + h'z is half the above less r'r); the distance
 * is then the residual's, recomputed from the images (two dgemv; res is
 * d scratch).  Ta, Tb: [T_a x_a], [T_b x_b] (d x 8).
 */
static double tangent_distance2(const double *Ta, const double *Ga,
				const double *Tb, const double *Gb,
				const double *Pab, size_t d, double *res)
{
	const double one = 1.0, mone = -1.0;
	double Hm[NZ * NZ], h[NZ], z[NZ], lo[NZ], hi[NZ], tr = 0.0, eps, s;
	int D = (int)d, inc = 1, seven = NT, r, c;
	size_t u;

	for (r = 0; r < NT; r++)
		for (c = 0; c < NT; c++) {
			Hm[r + c * NZ] = Ga[r + c * 8];
			Hm[(r + NT) + (c + NT) * NZ] = Gb[r + c * 8];
			Hm[r + (c + NT) * NZ] = -Pab[r + c * 8];
			Hm[(c + NT) + r * NZ] = -Pab[r + c * 8];
		}
	for (r = 0; r < NT; r++) {
		/* T_a'r = T_a'x_a - T_a'x_b; -T_b'r = -(x_a'T_b)' + T_b'x_b */
		h[r] = Ga[r + 7 * 8] - Pab[r + 7 * 8];
		h[r + NT] = -Pab[7 + r * 8] + Gb[r + 7 * 8];
		lo[r] = lo[r + NT] = -bound[r];
		hi[r] = hi[r + NT] = bound[r];
	}
	for (r = 0; r < NZ; r++)
		tr += Hm[r + r * NZ];
	eps = tr > 0.0 ? 1e-10 * tr / NZ : 1.0;
	for (r = 0; r < NZ; r++)
		Hm[r + r * NZ] += eps;
	box_qp(Hm, h, lo, hi, z);
	/* the residual itself: x_a - x_b + T_a alpha - T_b beta */
	for (u = 0; u < d; u++)
		res[u] = Ta[u + 7 * d] - Tb[u + 7 * d];
	dgemv_("N", &D, &seven, &one, Ta, &D, z, &inc, &one, res, &inc, 1);
	dgemv_("N", &D, &seven, &mone, Tb, &D, z + NT, &inc, &one, res, &inc, 1);
	s = 0.0;
	for (u = 0; u < d; u++)
		s += res[u] * res[u];
	return s;
}

/* The tangent distances of row a's pairs (a their lower row): their
 * [T_b x_b] side by side in B (d x 8m), P = [T_a x_a]'B (8 x 8m) from one
 * dgemm, then each pair's d2.  B, P and res are the thread's scratch, for
 * pl->mmax pairs. */
static void row_distances(const tangent_set *ts, pair_list *pl, size_t a,
			  double *B, double *P, double *res)
{
	size_t d = ts->d, first = pl->start[a], m = pl->start[a + 1] - first, t;
	const double *Ta = ts->T + a * d * 8, *Ga = ts->G + a * 64;
	const double one = 1.0, zero = 0.0;
	int eight = 8, D = (int)d, M8 = (int)(8 * m);

	for (t = 0; t < m; t++)
		memcpy(B + t * d * 8, ts->T + (size_t)pl->pair[first + t].b * d * 8,
		       d * 8 * sizeof *B);
	/* P = [T_a x_a]' [T_b1 x_b1 ...]: 8 x 8m */
	dgemm_("T", "N", &eight, &M8, &D, &one, Ta, &D, B, &D, &zero, P, &eight,
	       1, 1);
	for (t = 0; t < m; t++) {
		upair *q = &pl->pair[first + t];
		q->d2 = tangent_distance2(Ta, Ga, B + t * d * 8,
					  ts->G + (size_t)q->b * 64, P + t * 64, d,
					  res);
	}
}

/* Every pair's d2, rows spread over the OpenMP threads (dynamically: rows
 * have few or many pairs), each thread with its own scratch.  0, or -1
 * when a thread that had a row to do could not have its scratch. */
static int pair_distances(const tangent_set *ts, size_t n, pair_list *pl)
{
	size_t d = ts->d, mmax = pl->mmax ? pl->mmax : 1;
	int failed = 0;
	long a;

#pragma omp parallel
	{
		double *B = img_alloc(d * 8 * mmax, sizeof *B);
		double *P = img_alloc(64 * mmax, sizeof *P);
		double *res = img_alloc(d, sizeof *res);
#pragma omp for schedule(dynamic, 8)
		for (a = 0; a < (long)n; a++) {
			if (pl->start[a + 1] == pl->start[a])
				continue;
			if (B == NULL || P == NULL || res == NULL) {
#pragma omp atomic write
				failed = 1;
				continue;
			}
			row_distances(ts, pl, (size_t)a, B, P, res);
		}
		free(B);
		free(P);
		free(res);
	}
	return failed ? -1 : 0;
}

/* Each row's k nearest by tangent distance into idx and dist (n x k):
 * its candidates are the rows it is paired with, at either end, so j is
 * among i's when i is among j's; keep_best orders them (-1 / 0 past a
 * row's candidates).  0, or -1 out of memory (its own scratch only). */
static int nearest_of_pairs(const pair_list *pl, size_t n, size_t k,
			    int *idx, double *dist)
{
	size_t *deg = calloc(n, sizeof *deg), *fill = calloc(n + 1, sizeof *fill),
	       i, e;
	cand *c = img_alloc(2 * pl->npair, sizeof *c);  /* row i's: fill[i].. */
	int st = -1;

	if (deg != NULL && fill != NULL && c != NULL) {
		for (e = 0; e < pl->npair; e++) {
			deg[pl->pair[e].a]++;
			deg[pl->pair[e].b]++;
		}
		for (i = 0; i < n; i++)
			fill[i + 1] = fill[i] + deg[i];
		memset(deg, 0, n * sizeof *deg);
		for (e = 0; e < pl->npair; e++) {
			const upair *q = &pl->pair[e];
			cand *ca = &c[fill[q->a] + deg[q->a]++],
			     *cb = &c[fill[q->b] + deg[q->b]++];
			ca->key = cb->key = q->d2;
			ca->j = q->b;
			cb->j = q->a;
		}
		for (i = 0; i < n; i++)
			keep_best(c + fill[i], fill[i + 1] - fill[i], k, idx + i * k,
				  dist + i * k);
		st = 0;
	}
	free(deg);
	free(fill);
	free(c);
	return st;
}

/* The tangent distance's lists: Euclidean candidates, their pairs, every
 * image's tangents, each pair's distance, each row's k nearest. */
static lsv_status tangent_lists(const lsv_data *x, const lsv_graph_param *p,
				int **idx_out, double **dist_out,
				lsv_graph_info *info, lsv_error *err)
{
	size_t n = x->n, d = (size_t)p->width * (size_t)p->height, k, C;
	int *cidx, *idx = NULL, blas_old, bad;
	double *dist = NULL, t0;
	pair_list pl = {NULL, 0, NULL, 0};
	tangent_set ts = {d, NULL, NULL};
	lsv_status st;

	if ((st = euclidean_candidates(x, p, &cidx, info, err)) != LSV_OK)
		return st;
	C = (size_t)info->candidates;
	k = (size_t)p->k < n - 1 ? (size_t)p->k : n - 1;
	if (k > C)
		k = C;  /* never more than the candidates */
	info->k = (int)k;
	t0 = now();

	bad = candidate_pairs(cidx, n, C, &pl);
	free(cidx);
	if (bad)
		goto nomem;
	info->image_pairs = pl.npair;
	ts.T = img_alloc(n * d * 8, sizeof *ts.T);
	ts.G = img_alloc(n * 64, sizeof *ts.G);
	if (ts.T == NULL || ts.G == NULL)
		goto nomem;
	/* one BLAS thread per OpenMP thread while the rows are spread */
	blas_old = lsv_blas_threads_set(1);
	bad = compute_tangents(x, p, &ts) != 0 || pair_distances(&ts, n, &pl) != 0;
	if (blas_old > 1)
		lsv_blas_threads_set(blas_old);
	if (bad)
		goto nomem;

	idx = img_alloc(n * k, sizeof *idx);
	dist = img_alloc(n * k, sizeof *dist);
	if (idx == NULL || dist == NULL ||
	    nearest_of_pairs(&pl, n, k, idx, dist) != 0)
		goto nomem;
	info->image_seconds = now() - t0;
	*idx_out = idx;
	*dist_out = dist;
	idx = NULL;
	dist = NULL;
	st = LSV_OK;
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM,
		      "out of memory for the tangent distances (%zu images of %zu "
		      "pixels, %zu pairs)", n, d, pl.npair);
done:
	pairs_free(&pl);
	tangent_set_free(&ts);
	free(idx);
	free(dist);
	return st;
}

/* ------------------------------------------------------------------ */
/* The rotation-invariant distance                                     */
/* ------------------------------------------------------------------ */

/* A rotation as a gather: output pixel p is sum_k w[4p + k] in[at[4p + k]]
 * (bilinear, the border extended). */
typedef struct {
	int *at;
	double *w;
} rotation;

static void make_rotation(int W, int H, double deg, rotation *R)
{
	double th = deg * M_PI / 180.0, cs = cos(th), sn = sin(th);
	double cx = 0.5 * (W - 1), cy = 0.5 * (H - 1);
	int r, c;

	/* multiples of 90 degrees exactly */
	if (fabs(cs) < 1e-12)
		cs = 0.0;
	if (fabs(sn) < 1e-12)
		sn = 0.0;
	if (fabs(fabs(cs) - 1.0) < 1e-12)
		cs = cs > 0 ? 1.0 : -1.0;
	if (fabs(fabs(sn) - 1.0) < 1e-12)
		sn = sn > 0 ? 1.0 : -1.0;
	for (r = 0; r < H; r++)
		for (c = 0; c < W; c++) {
			/* the source of (c, r) under the inverse rotation */
			double u = c - cx, v = r - cy;
			double sx = cs * u + sn * v + cx, sy = -sn * u + cs * v + cy;
			int x0, y0, x1, y1;
			double fx, fy;
			size_t p = (size_t)r * (size_t)W + (size_t)c;
			sx = sx < 0 ? 0 : sx > W - 1 ? W - 1 : sx;
			sy = sy < 0 ? 0 : sy > H - 1 ? H - 1 : sy;
			x0 = (int)floor(sx);
			y0 = (int)floor(sy);
			fx = sx - x0;
			fy = sy - y0;
			x1 = x0 + 1 < W ? x0 + 1 : x0;
			y1 = y0 + 1 < H ? y0 + 1 : y0;
			R->at[4 * p] = y0 * W + x0;
			R->at[4 * p + 1] = y0 * W + x1;
			R->at[4 * p + 2] = y1 * W + x0;
			R->at[4 * p + 3] = y1 * W + x1;
			R->w[4 * p] = (1 - fx) * (1 - fy);
			R->w[4 * p + 1] = fx * (1 - fy);
			R->w[4 * p + 2] = (1 - fx) * fy;
			R->w[4 * p + 3] = fx * fy;
		}
}

static void rotate(const rotation *R, size_t d, const double *in, double *out)
{
	size_t p;
	for (p = 0; p < d; p++)
		out[p] = R->w[4 * p] * in[R->at[4 * p]] +
			 R->w[4 * p + 1] * in[R->at[4 * p + 1]] +
			 R->w[4 * p + 2] * in[R->at[4 * p + 2]] +
			 R->w[4 * p + 3] * in[R->at[4 * p + 3]];
}

/* min over the rotations of min(|R x_a - x_b|^2, |R x_b - x_a|^2), directly;
 * a < b always, so both ends of a pair get the same bits. */
static double rot_direct(const rotation *R, int nr, size_t d, const double *Xa,
			 const double *Xb, double *buf)
{
	double best = INFINITY;
	int t;
	size_t u;

	for (t = 0; t < nr; t++) {
		double s1 = 0.0, s2 = 0.0;
		rotate(&R[t], d, Xa, buf);
		for (u = 0; u < d; u++)
			s1 += (buf[u] - Xb[u]) * (buf[u] - Xb[u]);
		rotate(&R[t], d, Xb, buf);
		for (u = 0; u < d; u++)
			s2 += (buf[u] - Xa[u]) * (buf[u] - Xa[u]);
		best = fmin(best, fmin(s1, s2));
	}
	return best;
}

/* The rotations tried: the angles t step for |t step| <= 180 (0 among
 * them) and 180 itself, -180 being the same rotation as 180.  Owns each
 * rotation's gather (rotations_free). */
typedef struct {
	rotation *R;
	int n;
} rotation_set;

static void rotations_free(rotation_set *rs)
{
	int t;

	if (rs->R != NULL)
		for (t = 0; t < rs->n; t++) {
			free(rs->R[t].at);
			free(rs->R[t].w);
		}
	free(rs->R);
}

/* The rotations of W x H images step degrees apart into rs.  0, or -1 out
 * of memory (rs->n then 0 if the angles could not be had, their count
 * otherwise; rs for rotations_free either way). */
static int rotations_make(int W, int H, double step, rotation_set *rs)
{
	size_t d = (size_t)W * (size_t)H;
	int steps = (int)floor(180.0 / step + 1e-9),
	    full = steps * step >= 180.0 - 1e-9, t, nr = 0, st = 0;
	double *ang;

	rs->R = calloc(2 * (size_t)steps + 2, sizeof *rs->R);
	ang = img_alloc(2 * (size_t)steps + 2, sizeof *ang);
	if (rs->R == NULL || ang == NULL) {
		free(ang);
		return -1;
	}
	for (t = -steps; t <= steps; t++)
		if (!(full && t == -steps))
			ang[nr++] = t * step;
	if (!full)
		ang[nr++] = 180.0;
	rs->n = nr;
	for (t = 0; t < nr; t++) {
		rotation *R = &rs->R[t];
		R->at = img_alloc(4 * d, sizeof *R->at);
		R->w = img_alloc(4 * d, sizeof *R->w);
		if (R->at == NULL || R->w == NULL) {
			st = -1;
			break;
		}
		make_rotation(W, H, ang[t], R);
	}
	free(ang);
	return st;
}

/* The rotation scan's images and scratch, for n images of d pixels in
 * blocks of bs rows.  Owns every array (rot_scan_free). */
typedef struct {
	size_t n, d, bs;
	double *X;    /* d x n: column i the image of row i */
	double *sq;   /* n: |x_i|^2 */
	double *RX;   /* d x n: R x_j, the rotation at hand */
	double *rsq;  /* n: |R x_j|^2 */
	double *RB;   /* d x bs: the block's columns of RX */
	double *P1, *P2;  /* bs x n: the block's products */
	double *Dm;   /* bs x n: the block's keys */
	cand *c;      /* n: one row's candidates */
	double *buf;  /* d: one rotated image */
} rot_scan;

static void rot_scan_free(rot_scan *s)
{
	free(s->X);
	free(s->sq);
	free(s->RX);
	free(s->rsq);
	free(s->RB);
	free(s->P1);
	free(s->P2);
	free(s->Dm);
	free(s->c);
	free(s->buf);
}

/* s's arrays for n rows of d pixels, and the images in X with their
 * squared norms.  0, or -1 out of memory (s for rot_scan_free either
 * way). */
static int rot_scan_make(const lsv_data *x, size_t d, rot_scan *s)
{
	size_t n = x->n, bs = n < 512 ? n : 512, i, u;

	s->n = n;
	s->d = d;
	s->bs = bs;
	s->X = img_alloc(n * d, sizeof *s->X);
	s->RX = img_alloc(n * d, sizeof *s->RX);
	s->RB = img_alloc(bs * d, sizeof *s->RB);
	s->sq = img_alloc(n, sizeof *s->sq);
	s->rsq = img_alloc(n, sizeof *s->rsq);
	s->P1 = img_alloc(bs * n, sizeof *s->P1);
	s->P2 = img_alloc(bs * n, sizeof *s->P2);
	s->Dm = img_alloc(bs * n, sizeof *s->Dm);
	s->c = img_alloc(n, sizeof *s->c);
	s->buf = img_alloc(d, sizeof *s->buf);
	if (!s->X || !s->RX || !s->RB || !s->sq || !s->rsq || !s->P1 ||
	    !s->P2 || !s->Dm || !s->c || !s->buf)
		return -1;
	for (i = 0; i < n; i++) {
		dense_row(x, i, d, s->X + i * d);
		s->sq[i] = 0.0;
		for (u = 0; u < d; u++)
			s->sq[i] += s->X[i * d + u] * s->X[i * d + u];
	}
	return 0;
}

/*
 * The keys of the block's m rows a = b0 .. b0 + m - 1 against every row j,
 * into Dm (row r = a - b0 of an m x n matrix, leading dimension bs):
 *
 *     Dm[r, j] = min over the rotations R of
 *                min(|R x_a|^2 + |x_j|^2 - 2 (R x_a)'x_j,
 *                    |x_a|^2 + |R x_j|^2 - 2 x_a'(R x_j)),
 *
 * |R x_a - x_j|^2 and |x_a - R x_j|^2 as far as rounding goes, the
 * products from two dgemm per rotation (P1 = (R x_a)'x_j, P2 = x_a'(R x_j)).
 * R x_j is made for every j, for each rotation of each block.
 */
static void block_keys(rot_scan *s, const rotation_set *rs, size_t b0,
		       size_t m)
{
	size_t n = s->n, d = s->d, bs = s->bs, j, r;
	int N = (int)n, D = (int)d, BS = (int)bs, M = (int)m, t;
	double *X = s->X, *RX = s->RX, *sq = s->sq, *rsq = s->rsq,
	       *P1 = s->P1, *P2 = s->P2, *Dm = s->Dm;
	const double one = 1.0, zero = 0.0;

	for (r = 0; r < m * n; r++)
		Dm[r] = INFINITY;
	for (t = 0; t < rs->n; t++) {
		/* R x_j for every j, and their squared norms */
		for (j = 0; j < n; j++) {
			size_t u;
			rotate(&rs->R[t], d, X + j * d, RX + j * d);
			rsq[j] = 0.0;
			for (u = 0; u < d; u++)
				rsq[j] += RX[j * d + u] * RX[j * d + u];
		}
		for (r = 0; r < m; r++)
			memcpy(s->RB + r * d, RX + (b0 + r) * d, d * sizeof *s->RB);
		dgemm_("T", "N", &M, &N, &D, &one, s->RB, &D, X, &D, &zero, P1, &BS,
		       1, 1);
		dgemm_("T", "N", &M, &N, &D, &one, X + b0 * d, &D, RX, &D, &zero,
		       P2, &BS, 1, 1);
		for (j = 0; j < n; j++)
			for (r = 0; r < m; r++) {
				size_t a = b0 + r;
				double k1 = rsq[a] + sq[j] - 2.0 * P1[r + j * bs],
				       k2 = sq[a] + rsq[j] - 2.0 * P2[r + j * bs],
				       v = fmin(k1, k2);
				if (v < Dm[r + j * bs])
					Dm[r + j * bs] = v;
			}
	}
}

/* Row a, the block's row r: its kc best rows by key (Dm, a negative key
 * as 0), re-ranked by the distance itself (rot_direct, the lower row
 * first, so both ends of a pair get the same bits); the k best into idx
 * and dist (k each). */
static void rerank_row(rot_scan *s, const rotation_set *rs, size_t a,
		       size_t r, size_t kc, size_t k, int *idx, double *dist)
{
	size_t n = s->n, d = s->d, j, e, mm = 0;
	cand *c = s->c;

	for (j = 0; j < n; j++) {
		if (j == a)
			continue;
		c[mm].key = fmax(s->Dm[r + j * s->bs], 0.0);
		c[mm].j = (int)j;
		mm++;
	}
	qsort(c, mm, sizeof *c, cand_cmp);
	for (e = 0; e < kc && e < mm; e++) {
		size_t lo = a < (size_t)c[e].j ? a : (size_t)c[e].j,
		       hi = a < (size_t)c[e].j ? (size_t)c[e].j : a;
		c[e].key = rot_direct(rs->R, rs->n, d, s->X + lo * d, s->X + hi * d,
				      s->buf);
	}
	keep_best(c, kc < mm ? kc : mm, k, idx, dist);
}

/* The rotation-invariant distance's lists: every pair's key from the
 * block products, each row's kc = k + 2 best re-ranked by the distance
 * itself; progress after each block of rows. */
static lsv_status rotation_lists(const lsv_data *x, const lsv_graph_param *p,
				 int **idx_out, double **dist_out,
				 lsv_graph_info *info, lsv_error *err)
{
	size_t n = x->n, d = (size_t)p->width * (size_t)p->height, k, kc, b0, r;
	int *idx = NULL;
	double *dist = NULL, t0 = now();
	rotation_set rs = {NULL, 0};
	rot_scan s;
	lsv_status st = LSV_OK;

	memset(&s, 0, sizeof s);
	memset(info, 0, sizeof *info);
	k = (size_t)p->k < n - 1 ? (size_t)p->k : n - 1;
	kc = k + 2 < n - 1 ? k + 2 : n - 1;
	info->k = (int)k;
	info->threads = 1;
	if (rotations_make(p->width, p->height, p->angle_step, &rs) != 0)
		goto nomem;
	info->rotations = rs.n;
	idx = img_alloc(n * k, sizeof *idx);
	dist = img_alloc(n * k, sizeof *dist);
	if (idx == NULL || dist == NULL || rot_scan_make(x, d, &s) != 0)
		goto nomem;
	for (b0 = 0; b0 < n; b0 += s.bs) {
		size_t m = n - b0 < s.bs ? n - b0 : s.bs;
		block_keys(&s, &rs, b0, m);
		for (r = 0; r < m; r++)
			rerank_row(&s, &rs, b0 + r, r, kc, k, idx + (b0 + r) * k,
				   dist + (b0 + r) * k);
		if (p->progress != NULL)
			p->progress(p->progress_ctx, b0 + m, n);
	}
	info->image_seconds = now() - t0;
	info->scan_seconds = info->image_seconds;
	info->image_pairs = n * (n - 1) / 2;
	*idx_out = idx;
	*dist_out = dist;
	idx = NULL;
	dist = NULL;
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM,
		      "out of memory for the rotation distances (%zu images of %zu "
		      "pixels, %d rotations)", n, d, rs.n);
done:
	rotations_free(&rs);
	rot_scan_free(&s);
	free(idx);
	free(dist);
	return st;
}

lsv_status lsv_image_lists(const lsv_data *x, const lsv_graph_param *p,
			   int **idx, double **dist, lsv_graph_info *info,
			   lsv_error *err)
{
	lsv_graph_info dummy;
	lsv_status st;

	*idx = NULL;
	*dist = NULL;
	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof *info);
	if ((st = lsv_graph_param_check(p, err)) != LSV_OK ||
	    (st = check_images(x, p, err)) != LSV_OK)
		return st;
	if (x->n == 1) {  /* nothing to choose: no neighbour */
		*idx = malloc(sizeof **idx);
		*dist = malloc(sizeof **dist);
		if (*idx == NULL || *dist == NULL) {
			free(*idx);
			free(*dist);
			*idx = NULL;
			*dist = NULL;
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		}
		return LSV_OK;
	}
	if (p->distance == LSV_DIST_TANGENT)
		return tangent_lists(x, p, idx, dist, info, err);
	return rotation_lists(x, p, idx, dist, info, err);
}
