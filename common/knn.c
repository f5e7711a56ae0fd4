/*
 * knn.c -- exact nearest-neighbour graphs (JMLR 2006, Table 1, step 1).
 *
 * Distances.  For rows a, b: |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, and the
 * cosine distance 1 - a.b / (|a| |b|).  The inner products of a block of
 * query rows with a tile of candidate rows are one dgemm, so the O(n^2 d)
 * work runs at the BLAS's speed; only the blocks are dense (sparse rows are
 * densified per block over the features that occur at all), so memory is
 * O((block + tile) d + n k), never O(n^2).
 *
 * Exactness.  The dgemm form cancels: two points at true distance 0 can get
 * 1e-13 or -1e-13, and near ties can swap.  So each query keeps, by partial
 * selection (a bounded max-heap), a few more candidates than k; tiny keys
 * (below 1e-10 of |a|^2 + |b|^2, i.e. duplicates up to rounding) are snapped
 * to 0 so duplicate points are ranked by index; and the survivors are
 * re-ranked by their distance recomputed exactly from the sparse rows, ties
 * broken by the lower index.  The recomputation is symmetric bit for bit
 * (same terms, same order), so W is exactly symmetric and the result does
 * not depend on the block size or on the BLAS.
 *
 * This file does the neighbour search only: the chosen pairs (lsv_pair)
 * are weighed and symmetrized into the graph by lsv_graph_assemble
 * (weights.c).
 *
 * Cosine distance is undefined for a row with no non-zero value; such rows
 * are left isolated (they neither choose nor are chosen).
 */
#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "blas.h"
#include "internal.h"

#define SNAP 1e-10                    /* relative size of a "zero" key */
#define SNAPF 1e-5                    /* the same for single precision */
#define BLOCK_BYTES ((size_t)192 << 20) /* budget for the dense blocks */
#define MAX_BLOCK 2048                /* rows per block: large products run
					 at the BLAS's full rate */
#define MAX_BLOCK_BYTES ((size_t)4 << 30)
/* Single-precision scans redo the rows the rounding bound cannot certify,
 * each against every row; past n / RESCAN_SHARE such rows the whole scan
 * is redone with double products instead, which then costs less. */
#define RESCAN_SHARE 16

void lsv_graph_param_default(lsv_graph_param *p)
{
	memset(p, 0, sizeof *p);
	p->k = 6;
	p->epsilon = 0.0;
	p->mutual = 0;
	p->distance = LSV_DIST_EUCLIDEAN;
	p->weight = LSV_WEIGHT_HEAT;
	p->t = 0.0;
	p->single = 1;
	p->width = p->height = 0;
	p->candidates = 20;
	p->smooth = 0.5;
	p->angle_step = 9.0;
}

lsv_status lsv_graph_param_check(const lsv_graph_param *p, lsv_error *err)
{
	if (!(p->epsilon >= 0.0) || !isfinite(p->epsilon))
		return lsv_fail(err, LSV_EINVAL,
				"epsilon %g out of range (expected >= 0, 0 for kNN)",
				p->epsilon);
	if (p->epsilon == 0.0 && p->k < 1)
		return lsv_fail(err, LSV_EINVAL,
				"k = %d out of range (expected >= 1)", p->k);
	if (p->distance != LSV_DIST_EUCLIDEAN && p->distance != LSV_DIST_COSINE &&
	    p->distance != LSV_DIST_TANGENT && p->distance != LSV_DIST_ROTATION)
		return lsv_fail(err, LSV_EINVAL, "unknown distance %d",
				(int)p->distance);
	if (p->distance == LSV_DIST_TANGENT || p->distance == LSV_DIST_ROTATION) {
		if (p->width < 1 || p->height < 1 ||
		    (double)p->width * (double)p->height > (double)INT_MAX)
			return lsv_fail(err, LSV_EINVAL,
					"image shape %dx%d out of range (expected "
					"width and height >= 1 and at most %d pixels "
					"in all)", p->width, p->height, INT_MAX);
		if (p->epsilon > 0.0)
			return lsv_fail(err, LSV_EINVAL,
					"the image distances build kNN graphs, not "
					"epsilon-ball graphs");
		if (p->sparse > 0)
			return lsv_fail(err, LSV_EINVAL,
					"the image distances are for dense rows, not "
					"the sparse path");
		if (p->distance == LSV_DIST_TANGENT && p->candidates < 1)
			return lsv_fail(err, LSV_EINVAL,
					"C = %d candidates out of range (expected >= 1)",
					p->candidates);
		if (!(p->smooth >= 0.0 && p->smooth <= 100.0))
			return lsv_fail(err, LSV_EINVAL,
					"smoothing sigma %g out of range (expected 0 to "
					"100 pixels)", p->smooth);
		if (!(p->angle_step > 0.0 && p->angle_step <= 180.0))
			return lsv_fail(err, LSV_EINVAL,
					"angular step %g out of range (expected 0 < step "
					"<= 180 degrees)", p->angle_step);
	}
	if (p->weight != LSV_WEIGHT_BINARY && p->weight != LSV_WEIGHT_HEAT &&
	    p->weight != LSV_WEIGHT_DISTANCE)
		return lsv_fail(err, LSV_EINVAL, "unknown weight %d",
				(int)p->weight);
	if (!isfinite(p->t) || p->t < 0.0)
		return lsv_fail(err, LSV_EINVAL,
				"heat width t = %g out of range (expected > 0, or 0 "
				"for the mean squared distance)", p->t);
	return LSV_OK;
}

/* A candidate neighbour: key is the (squared Euclidean or cosine) distance
 * used for ranking, j the 0-based row. */
typedef struct {
	double key;
	int j;
} cand;

/* Order on candidates: by key, then by index (the tie-break rule). */
static int cand_less(const cand *a, const cand *b)
{
	return a->key < b->key || (a->key == b->key && a->j < b->j);
}

static int cand_cmp(const void *pa, const void *pb)
{
	const cand *a = pa, *b = pb;
	return cand_less(a, b) ? -1 : cand_less(b, a) ? 1 : 0;
}

/* Bounded max-heap of the m best candidates: h[0] is the worst kept. */
static void heap_offer(cand *h, int *size, int m, double key, int j)
{
	cand c = {key, j};
	int i;

	if (*size < m) {
		i = (*size)++;
		while (i > 0 && cand_less(&h[(i - 1) / 2], &c)) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = c;
		return;
	}
	if (m == 0 || !cand_less(&c, &h[0]))
		return;
	i = 0;  /* replace the root and sift down */
	for (;;) {
		int a = 2 * i + 1, b = a + 1, big = i;
		const cand *hb = &c;
		if (a < m && cand_less(hb, &h[a]))
			big = a, hb = &h[a];
		if (b < m && cand_less(hb, &h[b]))
			big = b;
		if (big == i)
			break;
		h[i] = h[big];
		i = big;
	}
	h[i] = c;
}

/* Exact |a - b|^2 from the sparse rows; symmetric bit for bit. */
static double exact_sqdist(const lsv_data *x, size_t a, size_t b)
{
	size_t p = x->rowptr[a], pe = x->rowptr[a + 1];
	size_t q = x->rowptr[b], qe = x->rowptr[b + 1];
	double s = 0.0, d;

	while (p < pe && q < qe) {
		if (x->col[p] == x->col[q]) {
			d = x->val[p++] - x->val[q++];
			s += d * d;
		} else if (x->col[p] < x->col[q]) {
			s += x->val[p] * x->val[p];
			p++;
		} else {
			s += x->val[q] * x->val[q];
			q++;
		}
	}
	for (; p < pe; p++)
		s += x->val[p] * x->val[p];
	for (; q < qe; q++)
		s += x->val[q] * x->val[q];
	return s;
}

static double sparse_dot(const lsv_data *x, size_t a, size_t b)
{
	size_t p = x->rowptr[a], pe = x->rowptr[a + 1];
	size_t q = x->rowptr[b], qe = x->rowptr[b + 1];
	double s = 0.0;

	while (p < pe && q < qe) {
		if (x->col[p] == x->col[q])
			s += x->val[p++] * x->val[q++];
		else if (x->col[p] < x->col[q])
			p++;
		else
			q++;
	}
	return s;
}

static int pick_cmp(const void *pa, const void *pb)
{
	const lsv_pair *a = pa, *b = pb;
	if (a->i != b->i)
		return (a->i > b->i) - (a->i < b->i);
	return (a->j > b->j) - (a->j < b->j);
}

typedef struct {
	const lsv_data *x;
	const lsv_graph_param *p;
	size_t n, dc;        /* rows, distinct features */
	int *ccol;           /* compact column of every stored value */
	int ccol_shared;     /* ccol is x->col (every feature occurs) */
	double *sq;          /* |x_i|^2 (cosine: 1, or 0 for a zero row) */
	double *nrm;         /* |x_i| (cosine) */
	unsigned char *skip; /* cosine: zero rows, never chosen nor choosing */
	double *A, *X, *G;   /* block I, block J (dense), their products */
	float *Af, *Xf, *Gf; /* the same in single precision */
	int single;          /* products in single precision (sgemm) */
	int exact;           /* Euclidean keys from the products are exact
				(integer data, small enough norms): margin 0,
				no snapping, ties ranked by index as they are */
	int dense_exact;     /* the ring's exact keys from its dense float
				blocks (integer data, |x|^2 <= 2^48): any
				order of the sum is exact (ring_sqdist) */
	size_t ties;         /* uncertified rows whose k-th and next exact
				distances are equal */
	double *mu;          /* dense Euclidean: the column means subtracted
				from every row before the products (NULL: none) */
	size_t nfail;        /* rows the bound could not certify */
	size_t B;            /* rows per block */
	int kk, kc;          /* neighbours kept; candidates kept per row */
	int kc_all;          /* kc is every row that can be chosen: a heap
				turned none away, so every row is certified */
	/* An update (lsv_knn_pairs_update): rows [0, q0) are old, their
	 * chosen pairs known (old, nold, in the build's order); only pairs
	 * with a row >= q0 are scanned.  q0 = 0: a full build. */
	size_t q0;
	const lsv_pair *old;
	size_t nold;
	double *cap;         /* n: bound on thr (an old row's k-th key plus
				margin: only a closer new row can enter), or
				NULL */
	double flops;        /* floating-point operations of the products */
	cand *heap;          /* n x kc bounded max-heaps */
	int *hsize;          /* n */
	double *thr;         /* n: the worst kept key, +inf while not full */
	double *thre;        /* n: thr plus margin (-inf for skipped rows) */
	double *margin;      /* n: bound on |product key - exact key| */
	size_t recomputed;   /* rows redone exactly (certification failed) */
	double rel;          /* relative rounding bound of the products */
	lsv_pair *picks;     /* chosen pairs */
	size_t npicks, cap_picks;
	int threads;         /* OpenMP threads */
	int blas_threaded;   /* one BLAS call per product, not per thread */
	double gemm_seconds;
	lsv_error *err;
} knn;

static lsv_status nomem(knn *s, const char *what, size_t bytes)
{
	return lsv_fail(s->err, LSV_ENOMEM,
			"out of memory for %s (%zu bytes)", what, bytes);
}

/* Number the features that occur, so dense blocks are only as wide as the
 * data's real dimension; ccol[p] is the compact column of stored value p. */
static lsv_status compact_features(knn *s)
{
	const lsv_data *x = s->x;
	lsv_fmap f;
	lsv_status st;
	size_t p;

	if ((st = lsv_fmap_build(x, NULL, 0, &f, s->err)) != LSV_OK)
		return st;
	if (f.table != NULL && f.m == x->dim) {
		/* every feature occurs: the map is the identity, and the
		 * columns are compact already (no copy of nnz ints) */
		s->ccol = x->col;
		s->ccol_shared = 1;
		s->dc = f.m;
		lsv_fmap_free(&f);
		return LSV_OK;
	}
	s->ccol = malloc((x->nnz ? x->nnz : 1) * sizeof *s->ccol);
	if (s->ccol == NULL) {
		lsv_fmap_free(&f);
		return nomem(s, "feature map", x->nnz * sizeof(int));
	}
	for (p = 0; p < x->nnz; p++)
		s->ccol[p] = lsv_fmap_get(&f, x->col[p]);
	s->dc = f.m;
	lsv_fmap_free(&f);
	return LSV_OK;
}

/* The exact ranking key of pair (a, b): squared distance or cosine
 * distance; and fill the pair's distance fields. */
static double exact_key(const knn *s, size_t a, size_t b, lsv_pair *pk)
{
	double key;

	if (s->p->distance == LSV_DIST_COSINE) {
		key = 1.0 - sparse_dot(s->x, a, b) / (s->nrm[a] * s->nrm[b]);
		/* a row against itself (a duplicate) gives a few ulps, not
		 * 0: |a|^2 and sqrt(|a|^2)^2 round apart.  Distances at that
		 * rounding (an angle below about 4e-8) are duplicates, as
		 * Euclidean ones are: heat weight 1, dropped by -w distance */
		if (key < 4.0 * DBL_EPSILON)
			key = 0.0;
		if (key > 2.0)
			key = 2.0;
		pk->d = key;
		pk->d2 = key * key;
	} else {
		key = exact_sqdist(s->x, a, b);
		pk->d2 = key;
		pk->d = sqrt(key);
	}
	return key;
}

/* ------------------------------------------------------------------ */
/* The O(n^2 d) scan                                                   */
/* ------------------------------------------------------------------ */

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* OpenBLAS's thread controls, when that is the BLAS in use (looked up at
 * run time: the library links with any BLAS). */
typedef struct {
	int (*get)(void);
	void (*set)(int);
} blas_threads;

static blas_threads find_blas_threads(void)
{
	blas_threads b = {NULL, NULL};
	void *self = dlopen(NULL, RTLD_LAZY);
	if (self != NULL) {
		*(void **)(&b.get) = dlsym(self, "openblas_get_num_threads");
		*(void **)(&b.set) = dlsym(self, "openblas_set_num_threads");
		dlclose(self);
	}
	return b;
}

int lsv_blas_threaded(void)
{
	blas_threads b = find_blas_threads();
	return b.get != NULL && b.get() > 1;
}

int lsv_blas_threads_set(int n)
{
	blas_threads b = find_blas_threads();
	int old;
	if (b.get == NULL || b.set == NULL)
		return 0;
	old = b.get();
	if (n != old)
		b.set(n);
	return old;
}

/* Offer candidate c to row q's heap (the caller checked key <= thr[q]).
 * thre[q] is the threshold the fast loops test raw keys against: thr[q]
 * plus the largest snapping margin, so no key that would snap to 0 is
 * turned away early. */
static void offer(knn *s, size_t q, double key, int c)
{
	cand *h = s->heap + q * (size_t)s->kc;
	heap_offer(h, &s->hsize[q], s->kc, key, c);
	s->thr[q] = s->hsize[q] < s->kc ? INFINITY : h[0].key;
	if (s->cap != NULL && s->cap[q] < s->thr[q])
		s->thr[q] = s->cap[q];
	s->thre[q] = s->thr[q] + s->margin[q];
}

static double key_of(const knn *s, size_t a, size_t b, double g, double snap);

/* The slow path of the sweeps: a key that passed the fast test. */
static void careful(knn *s, size_t q, size_t c, double g, double snap)
{
	double key;
	if (q == c || s->skip[c] || s->skip[q])
		return;
	key = key_of(s, q, c, g, snap);
	if (key <= s->thr[q])
		offer(s, q, key, (int)c);
}

/* Ranking key from an inner product: the squared distance, or the cosine
 * distance of unit rows; keys below SNAP of the scale (duplicates up to
 * rounding) are 0, so duplicates rank by index. */
static double key_of(const knn *s, size_t a, size_t b, double g, double snap)
{
	double key;
	if (s->p->distance == LSV_DIST_COSINE) {
		key = 1.0 - g;
		return key < snap ? 0.0 : key;
	}
	key = s->sq[a] + s->sq[b] - 2.0 * g;
	if (s->exact)
		return key;  /* exact: duplicates give 0 by themselves */
	return key < snap * (s->sq[a] + s->sq[b]) ? 0.0 : key;
}

/* Epsilon mode: is a pair with this key possibly within epsilon?  A loose
 * test; the exact distance decides. */
static int maybe_close(const knn *s, size_t a, size_t b, double key)
{
	double e = s->p->epsilon;
	double lim = s->p->distance == LSV_DIST_COSINE ? e : e * e;
	double tol = 2.0 * s->rel + 1e-9;
	return key <= lim * (1.0 + tol) + tol * (s->sq[a] + s->sq[b] + 1.0);
}

/* Thread-local list of epsilon pairs, merged once at the end. */
typedef struct {
	lsv_pair *v;
	size_t n, cap;
	int failed;
} pick_buf;

static void buf_add(pick_buf *b, const lsv_pair *pk)
{
	if (b->n == b->cap) {
		size_t c = b->cap ? 2 * b->cap : 256;
		lsv_pair *q = realloc(b->v, c * sizeof *q);
		if (q == NULL) {
			b->failed = 1;
			return;
		}
		b->v = q;
		b->cap = c;
	}
	b->v[b->n++] = *pk;
}

/* An epsilon pair found once (q < c): keep it, both directions, if its
 * exact distance is below epsilon (distances, not squares: eps^2
 * underflows for eps < 1e-162). */
static void eps_pair(const knn *s, size_t q, size_t c, pick_buf *b)
{
	lsv_pair pk = {(int)q, (int)c, 0, 0};
	exact_key(s, q, c, &pk);
	if (pk.d < s->p->epsilon) {
		buf_add(b, &pk);
		pk.i = (int)c;
		pk.j = (int)q;
		buf_add(b, &pk);
	}
}

/* Densify rows [r0, r0 + cnt) into D (or, for -f, F): dc x cnt,
 * column-major, one row of the data per column, scaled to unit length for
 * the cosine distance. */
static void densify_any(const knn *s, size_t r0, size_t cnt, double *D,
			float *F)
{
	const lsv_data *x = s->x;
	long ii;

#pragma omp parallel for num_threads(s->threads) schedule(static)
	for (ii = 0; ii < (long)cnt; ii++) {
		size_t i = (size_t)ii, r = r0 + i, p;
		double scale = 1.0;
		if (s->p->distance == LSV_DIST_COSINE)
			scale = s->nrm[r] > 0.0 ? 1.0 / s->nrm[r] : 0.0;
		const double *mu = s->mu;
		size_t c;
		if (F != NULL) {
			float *col = F + i * s->dc;
			if (mu != NULL)
				for (c = 0; c < s->dc; c++)
					col[c] = (float)-mu[c];
			else
				memset(col, 0, s->dc * sizeof *col);
			for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++)
				col[s->ccol[p]] = (float)(x->val[p] * scale -
							  (mu ? mu[s->ccol[p]] : 0.0));
		} else {
			double *col = D + i * s->dc;
			if (mu != NULL)
				for (c = 0; c < s->dc; c++)
					col[c] = -mu[c];
			else
				memset(col, 0, s->dc * sizeof *col);
			for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++)
				col[s->ccol[p]] = x->val[p] * scale -
						  (mu ? mu[s->ccol[p]] : 0.0);
		}
	}
}

/* G (bi x bj, column-major) = A' X: one BLAS call if the BLAS is threaded,
 * else one call per thread on a slice of X's columns. */
static void product(knn *s, size_t bi, size_t bj, int same)
{
	int M = (int)bi, K = (int)s->dc;
	int slices = s->blas_threaded ? 1 : s->threads;
	double t0 = now_seconds();
	int t;

	if (s->dc == 0) {
		if (s->Gf)
			memset(s->Gf, 0, bi * bj * sizeof *s->Gf);
		else
			memset(s->G, 0, bi * bj * sizeof *s->G);
		return;
	}
	if ((size_t)slices > bj)
		slices = (int)bj;
	s->flops += 2.0 * (double)bi * (double)bj * (double)s->dc;
#pragma omp parallel for num_threads(slices) schedule(static, 1) if (slices > 1)
	for (t = 0; t < slices; t++) {
		size_t lo = bj * (size_t)t / (size_t)slices;
		size_t hi = bj * (size_t)(t + 1) / (size_t)slices;
		int N = (int)(hi - lo);
		if (N == 0)
			continue;
		if (s->Gf != NULL) {
			const float one = 1.0f, zero = 0.0f;
			const float *Xs = (same ? s->Af : s->Xf) + lo * s->dc;
			sgemm_("T", "N", &M, &N, &K, &one, s->Af, &K, Xs, &K, &zero,
			       s->Gf + lo * bi, &M, 1, 1);
		} else {
			const double one = 1.0, zero = 0.0;
			const double *Xs = (same ? s->A : s->X) + lo * s->dc;
			dgemm_("T", "N", &M, &N, &K, &one, s->A, &K, Xs, &K, &zero,
			       s->G + lo * bi, &M, 1, 1);
		}
	}
	s->gemm_seconds += now_seconds() - t0;
}

/*
 * Use the products of row blocks I = [i0, i0+bi) and J = [j0, j0+bj):
 * rows of I choose among J, and (I != J) rows of J among I.  Each sweep is
 * split by the rows that choose, so no two threads touch one heap; both
 * read G down its columns (contiguous) against the per-row thresholds.
 * The inner loops only compute a key and compare it with the row's
 * threshold (minus the snapping margin, so a key that would snap to 0 is
 * never rejected early); the rare survivors take the careful path.
 */
/* Chunks of the fast loops: a branch-free pass takes the smallest
 * key - threshold of the chunk (the compiler vectorizes this min), and only
 * a chunk where some key passes is walked again, the passing keys going the
 * careful way.  Nearly every chunk is skipped after the first blocks. */
#define CHUNK 256
#ifdef _OPENMP
#define SIMD_MIN _Pragma("omp simd reduction(min:m)")
#else
#define SIMD_MIN
#endif

#define SWEEPS(NAME, T)                                                        \
static void NAME(knn *s, const T *G, size_t i0, size_t bi, size_t j0,          \
		 size_t bj, double snap, size_t lo, size_t hi, int rows_of_I)  \
{                                                                              \
	const double *sq = s->sq, *thre = s->thre;                             \
	int cosine = s->p->distance == LSV_DIST_COSINE;                        \
	double two = cosine ? 1.0 : 2.0;                                       \
	size_t a, a0, a1, b;                                                   \
	/* Euclidean: key = sq_a + sq_c - 2 g; cosine: key = 1 - g, which is  \
	 * the same with sq = 1/2 for every row and factor 1 */                \
	const double *sqI = sq + i0, *thrI = thre + i0;                        \
	double half = 0.5;                                                     \
	if (rows_of_I) {                                                       \
		for (b = 0; b < bj; b++) {                                     \
			size_t c = j0 + b;                                     \
			const T *g = G + b * bi;                               \
			double base = cosine ? 0.5 : sq[c];                    \
			if (s->skip[c])                                        \
				continue;                                      \
			for (a0 = lo; a0 < hi; a0 = a1) {                      \
				double m = INFINITY;                           \
				a1 = hi - a0 < CHUNK ? hi : a0 + CHUNK;        \
				if (cosine) {                                  \
					SIMD_MIN                               \
					for (a = a0; a < a1; a++) {            \
						double v = half + base - two * (double)g[a] - thrI[a]; \
						m = v < m ? v : m;             \
					}                                      \
				} else {                                       \
					SIMD_MIN                               \
					for (a = a0; a < a1; a++) {            \
						double v = sqI[a] + base - two * (double)g[a] - thrI[a]; \
						m = v < m ? v : m;             \
					}                                      \
				}                                              \
				if (!(m <= 0.0))                               \
					continue;                              \
				for (a = a0; a < a1; a++) {                    \
					double key = (cosine ? half : sqI[a]) + base - two * (double)g[a]; \
					if (key <= thrI[a])                    \
						careful(s, i0 + a, c, (double)g[a], snap); \
				}                                              \
			}                                                      \
		}                                                              \
		return;                                                        \
	}                                                                      \
	for (b = lo; b < hi; b++) {                                            \
		size_t q = j0 + b;                                             \
		const T *g = G + b * bi;                                       \
		double sqq = cosine ? 0.5 : sq[q];                             \
		if (s->skip[q])                                                \
			continue;                                              \
		for (a0 = 0; a0 < bi; a0 = a1) {                               \
			double m = INFINITY, t = thre[q];                      \
			a1 = bi - a0 < CHUNK ? bi : a0 + CHUNK;                \
			if (cosine) {                                          \
				SIMD_MIN                                       \
				for (a = a0; a < a1; a++) {                    \
					double v = half + sqq - two * (double)g[a] - t; \
					m = v < m ? v : m;                     \
				}                                              \
			} else {                                               \
				SIMD_MIN                                       \
				for (a = a0; a < a1; a++) {                    \
					double v = sqI[a] + sqq - two * (double)g[a] - t; \
					m = v < m ? v : m;                     \
				}                                              \
			}                                                      \
			if (!(m <= 0.0))                                       \
				continue;                                      \
			for (a = a0; a < a1; a++) {                            \
				double key = (cosine ? half : sqI[a]) + sqq - two * (double)g[a]; \
				if (key <= thre[q])                            \
					careful(s, q, i0 + a, (double)g[a], snap); \
			}                                                      \
		}                                                              \
	}                                                                      \
}

SWEEPS(sweep_d, double)
SWEEPS(sweep_f, float)

/* Epsilon pairs of a block pair (each unordered pair once: q < c). */
static void eps_block(knn *s, size_t i0, size_t bi, size_t j0, size_t bj,
		      double snap, size_t lo, size_t hi, pick_buf *buf)
{
	size_t a, b;
	for (b = 0; b < bj; b++) {
		size_t c = j0 + b;
		if (s->skip[c])
			continue;
		for (a = lo; a < hi; a++) {
			size_t q = i0 + a, at = a + b * bi;
			double g = s->Gf != NULL ? (double)s->Gf[at] : s->G[at];
			double key;
			if (c <= q || s->skip[q])
				continue;
			key = key_of(s, q, c, g, snap);
			if (maybe_close(s, q, c, key))
				eps_pair(s, q, c, buf);
		}
	}
}

static void select_block(knn *s, size_t i0, size_t bi, size_t j0, size_t bj,
			 pick_buf *bufs)
{
	int eps_mode = s->p->epsilon > 0.0, T = s->threads, t;
	double snap = s->Gf != NULL ? SNAPF : SNAP;

#pragma omp parallel for num_threads(T) schedule(static, 1)
	for (t = 0; t < T; t++) {
		size_t lo = bi * (size_t)t / (size_t)T;
		size_t hi = bi * (size_t)(t + 1) / (size_t)T;
		if (eps_mode)
			eps_block(s, i0, bi, j0, bj, snap, lo, hi, &bufs[t]);
		else if (s->Gf != NULL)
			sweep_f(s, s->Gf, i0, bi, j0, bj, snap, lo, hi, 1);
		else
			sweep_d(s, s->G, i0, bi, j0, bj, snap, lo, hi, 1);
	}
	if (i0 == j0 || eps_mode)
		return;
#pragma omp parallel for num_threads(T) schedule(static, 1)
	for (t = 0; t < T; t++) {
		size_t lo = bj * (size_t)t / (size_t)T;
		size_t hi = bj * (size_t)(t + 1) / (size_t)T;
		if (s->Gf != NULL)
			sweep_f(s, s->Gf, i0, bi, j0, bj, snap, lo, hi, 0);
		else
			sweep_d(s, s->G, i0, bi, j0, bj, snap, lo, hi, 0);
	}
}

/* Row block b of the dense scan (blocks of s->B rows): its first row and
 * size.  An update starts a block at q0, so no block mixes old and new
 * rows; blocks [0, nb_old) are the old rows'. */
static size_t block_at(const knn *s, size_t b, size_t nb_old, size_t *size)
{
	size_t lo = b < nb_old ? b * s->B : s->q0 + (b - nb_old) * s->B;
	size_t hi = b < nb_old ? s->q0 : s->n;
	*size = hi - lo < s->B ? hi - lo : s->B;
	return lo;
}

/* Dense path: every pair of row blocks once (J >= I), one product each;
 * in an update only the pairs with a block of new rows (J >= nb_old): the
 * old rows' products with each other are known already. */
static void scan_dense(knn *s, pick_buf *bufs)
{
	size_t n = s->n, B = s->B, I, J;
	size_t nb_old = (s->q0 + B - 1) / B, nb = nb_old + (n - s->q0 + B - 1) / B;
	size_t pairs = 0, done = 0;

	for (I = 0; I < nb; I++)
		pairs += nb - (I > nb_old ? I : nb_old);
	for (I = 0; I < nb; I++) {
		size_t bi, i0 = block_at(s, I, nb_old, &bi);
		densify_any(s, i0, bi, s->A, s->Af);
		for (J = I > nb_old ? I : nb_old; J < nb; J++) {
			size_t bj, j0 = block_at(s, J, nb_old, &bj);
			if (J != I)
				densify_any(s, j0, bj, s->X, s->Xf);
			product(s, bi, bj, J == I);
			select_block(s, i0, bi, j0, bj, bufs);
			done++;
			if (s->p->progress)
				s->p->progress(s->p->progress_ctx,
					       (size_t)((double)n * (double)done /
							(double)pairs), n);
		}
	}
}

/*
 * Sparse path, for many features and few non-zeros (text): inner products
 * by an inverted index, never densified.  Row q accumulates
 * sum_f x_qf x_cf over the rows c sharing a feature f (cost sum_f nnz_f^2);
 * rows sharing none have u'v = 0 and are offered in increasing |x|^2
 * (Euclidean) or index (cosine: distance 1) order until they cannot win.
 */
static lsv_status scan_sparse(knn *s, pick_buf *bufs)
{
	const lsv_data *x = s->x;
	size_t n = s->n, f, i, p;
	size_t *cptr = calloc(s->dc + 1, sizeof *cptr), *fill = NULL;
	int *crow = malloc((x->nnz + 1) * sizeof *crow), *order = NULL;
	double *cval = malloc((x->nnz + 1) * sizeof *cval);
	size_t done = 0;
	lsv_status st = LSV_OK;
	int T = s->threads;

	fill = malloc((s->dc + 1) * sizeof *fill);
	order = malloc(n * sizeof *order);
	if (!cptr || !crow || !cval || !fill || !order) {
		st = nomem(s, "the inverted index", x->nnz * 12);
		goto done;
	}
	/* The transpose (CSC) over compact features, scaled for cosine. */
	for (p = 0; p < x->nnz; p++)
		cptr[s->ccol[p] + 1]++;
	for (f = 0; f < s->dc; f++)
		cptr[f + 1] += cptr[f];
	memcpy(fill, cptr, (s->dc + 1) * sizeof *fill);
	for (i = 0; i < n; i++) {
		double scale = 1.0;
		if (s->p->distance == LSV_DIST_COSINE)
			scale = s->nrm[i] > 0.0 ? 1.0 / s->nrm[i] : 0.0;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			size_t at = fill[s->ccol[p]]++;
			crow[at] = (int)i;
			cval[at] = x->val[p] * scale;
		}
	}
	/* Rows by increasing |x|^2 (ties by index) for the no-overlap pass. */
	for (i = 0; i < n; i++)
		order[i] = (int)i;
	{
		/* insertion into a sorted order through qsort on (sq, index) */
		cand *tmp = malloc((n ? n : 1) * sizeof *tmp);
		if (tmp == NULL) {
			st = nomem(s, "the row order", n * sizeof *tmp);
			goto done;
		}
		for (i = 0; i < n; i++) {
			tmp[i].key = s->p->distance == LSV_DIST_COSINE ? 0.0 : s->sq[i];
			tmp[i].j = (int)i;
		}
		qsort(tmp, n, sizeof *tmp, cand_cmp);
		for (i = 0; i < n; i++)
			order[i] = tmp[i].j;
		free(tmp);
	}
	{
		double t0 = now_seconds();
#pragma omp parallel num_threads(T)
		{
			double *acc = calloc(n, sizeof *acc);
			int *touched = malloc(n * sizeof *touched);
			unsigned char *seen = calloc(n, 1);
			size_t q;
			int t = 0;
#ifdef _OPENMP
			t = omp_get_thread_num();
#endif
			if (acc == NULL || touched == NULL || seen == NULL)
				bufs[t].failed = 1;
#pragma omp for schedule(dynamic, 64)
			for (q = 0; q < n; q++) {
				size_t m = 0, r, pp;
				int eps_mode = s->p->epsilon > 0.0;
				if (bufs[t].failed || s->skip[q])
					continue;
				for (pp = x->rowptr[q]; pp < x->rowptr[q + 1]; pp++) {
					size_t ff = (size_t)s->ccol[pp];
					double v = x->val[pp];
					if (s->p->distance == LSV_DIST_COSINE)
						v /= s->nrm[q];
					for (r = cptr[ff]; r < cptr[ff + 1]; r++) {
						int c = crow[r];
						if (!seen[c]) {
							seen[c] = 1;
							touched[m++] = c;
						}
						acc[c] += v * cval[r];
					}
				}
				for (r = 0; r < m; r++) {
					size_t c = (size_t)touched[r];
					double key;
					if (c != q && !s->skip[c]) {
						key = key_of(s, q, c, acc[c], SNAP);
						if (eps_mode) {
							if (c > q && maybe_close(s, q, c, key))
								eps_pair(s, q, c, &bufs[t]);
						} else if (key <= s->thr[q]) {
							offer(s, q, key, (int)c);
						}
					}
				}
				/* rows sharing no feature: u'v = 0 */
				for (r = 0; r < n; r++) {
					size_t c = (size_t)order[r];
					double key;
					if (c == q || seen[c] || s->skip[c])
						continue;
					key = key_of(s, q, c, 0.0, SNAP);
					if (eps_mode) {
						if (!maybe_close(s, q, c, key))
							break;  /* the rest are farther */
						if (c > q)
							eps_pair(s, q, c, &bufs[t]);
						continue;
					}
					if (key > s->thr[q])
						break;  /* nor can any later one win */
					offer(s, q, key, (int)c);
				}
				for (r = 0; r < m; r++) {
					acc[touched[r]] = 0.0;
					seen[touched[r]] = 0;
				}
				/* thread 0 alone reports, about every 1024 rows */
				if (s->p->progress && t == 0 && q % 1024 == 0 && q > done) {
					done = q;
					s->p->progress(s->p->progress_ctx, q, n);
				}
			}
			free(acc);
			free(touched);
			free(seen);
		}
		s->gemm_seconds += now_seconds() - t0;
		if (s->p->progress)
			s->p->progress(s->p->progress_ctx, n, n);
	}
done:
	free(cptr);
	free(crow);
	free(cval);
	free(fill);
	free(order);
	return st;
}

/* Row q's kk nearest by exact distance against every row, into tmp (kk
 * entries, sorted); for the rare rows the bound cannot certify. */
static int brute_row(knn *s, size_t q, cand *tmp)
{
	int h = 0, t = 0;
	size_t c;
	for (c = 0; c < s->n; c++) {
		lsv_pair pk;
		double key;
		if (c == q || s->skip[c])
			continue;
		key = exact_key(s, q, c, &pk);
		heap_offer(tmp, &h, s->kk, key, (int)c);
	}
	(void)t;
	qsort(tmp, (size_t)h, sizeof *tmp, cand_cmp);
	return h;
}

/* An update's old row q and old candidate c: a seed from the old list,
 * whose key is exact already (old pairs are never scanned again). */
static int seeded(const knn *s, size_t q, size_t c)
{
	return q < s->q0 && c < s->q0;
}

/* The pair's fields from an exact key, as exact_key fills them. */
static void pair_of_key(const knn *s, double key, lsv_pair *pk)
{
	if (s->p->distance == LSV_DIST_COSINE) {
		pk->d = key;
		pk->d2 = key * key;
	} else {
		pk->d2 = key;
		pk->d = sqrt(key);
	}
}

/* Row q's kept neighbours: the first m of tmp, their distances exact. */
static int keep_row(knn *s, size_t q, const cand *tmp, int h, lsv_pair *rows)
{
	int m = h < s->kk ? h : s->kk, t;
	for (t = 0; t < m; t++) {
		lsv_pair *pk = &rows[q * (size_t)s->kk + (size_t)t];
		pk->i = (int)q;
		pk->j = tmp[t].j;
		if (seeded(s, q, (size_t)tmp[t].j))
			pair_of_key(s, tmp[t].key, pk);
		else
			exact_key(s, q, (size_t)tmp[t].j, pk);
	}
	return m;
}

/*
 * Re-rank each row's candidates by exact distance; keep the best kk.  Rows
 * the rounding bound cannot certify are marked first (count -1); if they
 * are more than n / RESCAN_SHARE of a single-precision scan, nothing is
 * kept, s->picks stays NULL and s->nfail tells the caller to scan again
 * with double products; otherwise each is redone exactly.
 */
static lsv_status finish_knn(knn *s)
{
	size_t n = s->n, kk = (size_t)s->kk, i, nfail = 0;
	int *count = calloc(n ? n : 1, sizeof *count);
	lsv_pair *rows = lsv_malloc_mapped((n * kk + 1) * sizeof *rows);
	int failed = 0, pass;
	size_t redone = 0;  /* pass 1: uncertified rows finished so far */

	if (count == NULL || rows == NULL) {
		free(count);
		free(rows);
		return nomem(s, "the neighbour lists", n * kk * sizeof *rows);
	}
	for (pass = 0; pass < 2 && !failed; pass++) {
		if (pass == 1) {
			for (i = 0; i < n; i++)
				nfail += count[i] < 0;
			s->nfail = nfail;
			if (nfail == 0)
				break;
			if (s->single && nfail * RESCAN_SHARE > n) {
				free(count);
				free(rows);
				return LSV_OK;
			}
			/* a phase of its own: progress restarts from 0 */
			if (s->p->progress)
				s->p->progress(s->p->progress_ctx, 0, nfail);
		}
#pragma omp parallel num_threads(s->threads)
		{
			cand *tmp = malloc(((size_t)s->kc + 1) * sizeof *tmp);
			size_t q;
			if (tmp == NULL) {
#pragma omp atomic write
				failed = 1;
			}
#pragma omp for schedule(dynamic, pass ? 1 : 256)
			for (q = 0; q < n; q++) {
				int h = s->hsize[q], t;
				const cand *hp = s->heap + q * (size_t)s->kc;
				double lim;
				if (tmp == NULL || (pass == 1 && count[q] >= 0))
					continue;
				if (pass == 1) {
					/* uncertified: exactly, against every row */
					size_t r;
					h = brute_row(s, q, tmp);
					count[q] = keep_row(s, q, tmp, h, rows);
#pragma omp atomic capture
					r = ++redone;
#ifdef _OPENMP
					if (omp_get_thread_num() != 0)
						continue;  /* thread 0 alone reports */
#endif
					if (s->p->progress && (r % 64 == 0 || r == nfail))
						s->p->progress(s->p->progress_ctx, r, nfail);
					continue;
				}
				/* Only candidates whose product key is within
				 * twice the rounding margin of the kk-th key can
				 * be among the kk nearest: recompute those
				 * exactly, then rank. */
				memcpy(tmp, hp, (size_t)h * sizeof *tmp);
				qsort(tmp, (size_t)h, sizeof *tmp, cand_cmp);
				if (h > s->kk) {
					lim = tmp[s->kk - 1].key + 2.0 * s->margin[q];
					while (h > s->kk && tmp[h - 1].key > lim)
						h--;
				}
				for (t = 0; t < h; t++) {
					lsv_pair pk;
					if (!seeded(s, q, (size_t)tmp[t].j))
						tmp[t].key = exact_key(s, q,
								       (size_t)tmp[t].j,
								       &pk);
				}
				qsort(tmp, (size_t)h, sizeof *tmp, cand_cmp);
				/* Certify: every candidate the heap turned away
				 * had a product key >= thr[q], so an exact key >=
				 * thr[q] - margin; if that can reach the kk-th
				 * exact key, the row is not certified.  With
				 * exact products (margin 0) the heap already
				 * holds the kc smallest (key, index) pairs, so a
				 * turned-away candidate tied with the kk-th
				 * comes after it by index: certified.  So is
				 * every row when the heaps hold every row that
				 * can be chosen (k near n): none turned away. */
				if (s->margin[q] > 0.0 && !s->kc_all &&
				    s->hsize[q] == s->kc &&
				    h >= s->kk && s->kk > 0 &&
				    !(s->thr[q] - s->margin[q] > tmp[s->kk - 1].key)) {
					count[q] = -1;
					if (h > s->kk &&
					    tmp[s->kk].key == tmp[s->kk - 1].key) {
#pragma omp atomic
						s->ties++;
					}
				} else {
					count[q] = keep_row(s, q, tmp, h, rows);
				}
			}
			free(tmp);
		}
	}
	if (failed) {
		free(count);
		free(rows);
		return nomem(s, "the re-ranking", (size_t)s->kc * sizeof(cand));
	}
	s->recomputed += nfail;
	/* compact, in row order */
	s->npicks = 0;
	for (i = 0; i < n; i++) {
		memmove(rows + s->npicks, rows + i * kk,
			(size_t)count[i] * sizeof *rows);
		s->npicks += (size_t)count[i];
	}
	free(count);
	s->picks = rows;
	s->cap_picks = n * kk + 1;
	return LSV_OK;
}

/*
 * An update's old rows (kNN).  Row i < q0 chose its list L_i among the
 * old rows, by (exact key, index).  Among all rows its kk nearest are the
 * kk first of L_i and the new rows, merged in that order; and as every new
 * row's index is above every old one, a new row c enters only if its key
 * is strictly below the kk-th of L_i, K_i (a tie goes to the old row).
 * So the heap is seeded with L_i (exact keys, within any margin of
 * themselves) and capped: a product key above K_i + margin means an exact
 * key above K_i, never a winner, and is turned away like any candidate the
 * full heap refuses; finish_knn recomputes and certifies the row as in a
 * full build.  When L_i is shorter than kk (k was capped at the old rows'
 * count) it holds every old row: no cap, every new row competes.  Old
 * rows outside L_i are never offered: they rank after its kk-th.
 */
static lsv_status seed_old(knn *s)
{
	size_t e, i;
	int cosine = s->p->distance == LSV_DIST_COSINE;

	s->cap = malloc((s->n + 1) * sizeof *s->cap);
	if (s->cap == NULL)
		return nomem(s, "the old rows' bounds", s->n * sizeof *s->cap);
	for (i = 0; i < s->n; i++)
		s->cap[i] = INFINITY;
	for (e = 0; e < s->nold; e = i) {
		size_t q = (size_t)s->old[e].i;
		int m = 0;
		for (i = e; i < s->nold && (size_t)s->old[i].i == q; i++) {
			double key = cosine ? s->old[i].d : s->old[i].d2;
			if (++m == s->kk)
				s->cap[q] = key + s->margin[q];
			if (!s->skip[q] && (size_t)s->old[i].j != q)
				offer(s, q, key, s->old[i].j);
		}
	}
	return LSV_OK;
}

/* The whole scan: candidates (kNN) or pairs (epsilon) for every row. */
static lsv_status scan(knn *s, int sparse)
{
	size_t n = s->n, i;
	pick_buf *bufs = calloc((size_t)s->threads, sizeof *bufs);
	lsv_status st = LSV_OK;
	int t, failed = 0;

	if (bufs == NULL)
		return nomem(s, "thread buffers", 0);
	s->rel = fmax(s->single ? SNAPF : SNAP,
		      1.01 * (double)(s->dc + 2) * (s->single ? 0x1p-24 : 0x1p-53));
	if (s->p->epsilon == 0.0) {
		double sqmax = 0.0;
		s->heap = lsv_malloc_mapped((n * (size_t)s->kc + 1) *
					    sizeof *s->heap);
		s->hsize = calloc(n + 1, sizeof *s->hsize);
		s->thr = malloc((n + 1) * sizeof *s->thr);
		s->thre = malloc((n + 1) * sizeof *s->thre);
		s->margin = malloc((n + 1) * sizeof *s->margin);
		if (!s->heap || !s->hsize || !s->thr || !s->thre || !s->margin) {
			free(bufs);
			return nomem(s, "candidate heaps",
				     n * (size_t)s->kc * sizeof *s->heap);
		}
		/* margin: a bound on |product key - exact key| (relative to
		 * |a|^2 + |b|^2; unit rows for cosine): (d + 2) u for the
		 * rounding of the inputs and of the sum, u the unit roundoff,
		 * and never less than the snapping size */
		double rel = s->rel;
		for (i = 0; i < n; i++)
			sqmax = fmax(sqmax, s->sq[i]);
		for (i = 0; i < n; i++) {
			s->thr[i] = s->kc > 0 ? INFINITY : -INFINITY;
			s->margin[i] = s->exact ? 0.0
				       : s->p->distance == LSV_DIST_COSINE
					       ? 2.0 * rel : rel * (s->sq[i] + sqmax);
			s->thre[i] = s->skip[i] ? -INFINITY : s->thr[i];
		}
		if (s->q0 > 0 && (st = seed_old(s)) != LSV_OK) {
			free(bufs);
			return st;
		}
	}
	if (sparse)
		st = scan_sparse(s, bufs);
	else
		scan_dense(s, bufs);
	for (t = 0; t < s->threads; t++)
		failed |= bufs[t].failed;
	if (st == LSV_OK && failed)
		st = nomem(s, "the epsilon pairs", 0);
	if (st == LSV_OK && s->p->epsilon > 0.0) {
		/* merge the threads' pairs, in (row, column) order */
		size_t total = s->nold;  /* an update: the old pairs, and new */
		for (t = 0; t < s->threads; t++)
			total += bufs[t].n;
		s->picks = malloc((total + 1) * sizeof *s->picks);
		if (s->picks == NULL) {
			st = nomem(s, "the epsilon pairs", total * sizeof *s->picks);
		} else {
			if (s->nold > 0)
				memcpy(s->picks, s->old, s->nold * sizeof *s->picks);
			s->npicks = s->nold;
			for (t = 0; t < s->threads; t++) {
				if (bufs[t].n == 0)
					continue;  /* v may be NULL */
				memcpy(s->picks + s->npicks, bufs[t].v,
				       bufs[t].n * sizeof *s->picks);
				s->npicks += bufs[t].n;
			}
			s->cap_picks = total + 1;
			qsort(s->picks, s->npicks, sizeof *s->picks, pick_cmp);
		}
	} else if (st == LSV_OK) {
		st = finish_knn(s);
	}
	for (t = 0; t < s->threads; t++)
		free(bufs[t].v);
	free(bufs);
	return st;
}
/* Column means into s->mu and |x_i - mu|^2 into s->sq (dense Euclidean). */
static lsv_status center(knn *s)
{
	const lsv_data *x = s->x;
	size_t p, i, c, dc = s->dc;
	double *r;

	s->mu = calloc(dc, sizeof *s->mu);
	r = malloc(dc * sizeof *r);
	if (s->mu == NULL || r == NULL) {
		free(r);
		return nomem(s, "column means", 2 * dc * sizeof *s->mu);
	}
	for (p = 0; p < x->nnz; p++)
		s->mu[s->ccol[p]] += x->val[p];
	for (c = 0; c < dc; c++)
		s->mu[c] /= (double)s->n;
	/* |x_i - mu|^2 summed over every column as the blocks hold the row
	 * (densify_any: an unstored value is 0, its entry -mu_c).  Not by
	 * |mu|^2 + sum over the stored values of (v - mu_c)^2 - mu_c^2: far
	 * from the origin |mu|^2 swamps the centred terms, and the sum
	 * cancels to rounding noise (values near 1e8 that differ by 1e-4
	 * gave wrong neighbours, certified).  O(n dc), as the blocks are. */
	for (i = 0; i < s->n; i++) {
		double v = 0.0;
		for (c = 0; c < dc; c++)
			r[c] = -s->mu[c];
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++)
			r[s->ccol[p]] = x->val[p] - s->mu[s->ccol[p]];
		for (c = 0; c < dc; c++)
			v += r[c] * r[c];
		s->sq[i] = v;
	}
	free(r);
	return LSV_OK;
}

/* Dense blocks of up to MAX_BLOCK rows while two blocks and their product
 * fit in the budget (a caller's block size is taken as given), in the
 * precision of s->single. */
static lsv_status alloc_blocks(knn *s, int sparse)
{
	const lsv_graph_param *p = s->p;
	size_t el = s->single ? sizeof(float) : sizeof(double), bytes;
	size_t w = s->dc ? s->dc : 1;

	if (p->block > 0) {
		s->B = p->block;
	} else {
		s->B = MAX_BLOCK;
		while (s->B > 16 && (2 * s->B * s->dc + s->B * s->B) * el > BLOCK_BYTES)
			s->B /= 2;
	}
	if (s->B > s->n)
		s->B = s->n;
	if (sparse)
		return LSV_OK;
	if (s->B > INT_MAX || s->dc > INT_MAX / 2 ||
	    s->dc > MAX_BLOCK_BYTES / el / (2 * s->B))
		return lsv_fail(s->err, LSV_ETOOBIG,
				"the data has %zu distinct features: dense blocks "
				"of %zu rows would need more than %zu bytes (the "
				"sparse path avoids them)", s->dc, s->B,
				MAX_BLOCK_BYTES);
	bytes = (2 * s->B * w + s->B * s->B) * el;
	if (s->single) {
		s->Af = lsv_malloc_mapped(s->B * w * sizeof *s->Af);
		s->Xf = lsv_malloc_mapped(s->B * w * sizeof *s->Xf);
		s->Gf = lsv_malloc_mapped(s->B * s->B * sizeof *s->Gf);
		if (!s->Af || !s->Xf || !s->Gf)
			return nomem(s, "distance blocks", bytes);
	} else {
		s->A = lsv_malloc_mapped(s->B * w * sizeof *s->A);
		s->X = lsv_malloc_mapped(s->B * w * sizeof *s->X);
		s->G = lsv_malloc_mapped(s->B * s->B * sizeof *s->G);
		if (!s->A || !s->X || !s->G)
			return nomem(s, "distance blocks", bytes);
	}
	return LSV_OK;
}

/* Free what one scan allocated (blocks, heaps, thresholds). */
static void free_scan(knn *s)
{
	free(s->A);
	free(s->X);
	free(s->G);
	free(s->Af);
	free(s->Xf);
	free(s->Gf);
	s->A = s->X = s->G = NULL;
	s->Af = s->Xf = s->Gf = NULL;
	free(s->heap);
	free(s->hsize);
	free(s->thr);
	free(s->thre);
	free(s->margin);
	free(s->cap);
	s->cap = NULL;
	s->heap = NULL;
	s->hsize = NULL;
	s->thr = NULL;
	s->thre = NULL;
	s->margin = NULL;
}

/*
 * Distances come from |a|^2 + |b|^2 - 2 a.b, on the values or, for dense
 * Euclidean data, on the values less their column means (center()), whose
 * squared norms reach 4 times the largest raw one, and a key between two
 * of them 16 times.  So a squared norm above KNN_SQ_MAX = DBL_MAX / 32
 * (values beyond about 1e153) would give infinite or NaN keys, which the
 * scan drops: true neighbours lost, silently.  At the other end a squared
 * difference below DBL_MIN underflows to 0 and two distinct rows become
 * duplicates; two distinct doubles differ by at least 1e-16 of the
 * smaller unless one is 0, so no distance underflows while every nonzero
 * value is at least KNN_VALUE_MIN = 1e-130 in magnitude (squares from
 * 1e-292 up, and the rounding margins, relative to them, normal too).
 * Rows beyond either bound are refused, naming the 1-based row.  The
 * message names no file: the data carry no name, the caller adds it.
 */
#define KNN_SQ_MAX (DBL_MAX / 32)
#define KNN_VALUE_MIN 1e-130

/* Rows [0, x->n) of x, the first numbered row0 + 1, within both bounds. */
static lsv_status check_magnitude(const lsv_data *x, size_t row0,
				  lsv_error *err)
{
	size_t i, q;

	for (i = 0; i < x->n; i++) {
		double v = 0.0;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			double a = fabs(x->val[q]);
			if (a < KNN_VALUE_MIN && a > 0.0)
				return lsv_fail_row(err, LSV_EINVAL,
						    row0 + i + 1, "a feature value "
						    "too small (%g, expected 0 or at "
						    "least %g in magnitude): squared "
						    "distances would underflow a "
						    "double; rescale the data",
						    x->val[q], KNN_VALUE_MIN);
			v += a * a;
		}
		if (!(v <= KNN_SQ_MAX))
			return lsv_fail_row(err, LSV_EINVAL, row0 + i + 1,
					    "feature values too large (squared "
					    "norm %g, expected at most %g): "
					    "distances would overflow a double; "
					    "rescale the data", v, KNN_SQ_MAX);
	}
	return LSV_OK;
}

/*
 * Exact products.  If every value is an integer, every partial sum of an
 * inner product a.b is an integer of magnitude at most |a| |b| <= the
 * largest squared norm (Cauchy-Schwarz), and so is every key |a|^2 + |b|^2
 * - 2 a.b up to 4 times it.  Integers up to 2^24 (float) or 2^53 (double)
 * are represented exactly and their sums and products stay exact in any
 * order, so the BLAS's products and the keys are the exact squared
 * distances: no rounding margin, no snapping, and ties (one-hot data have
 * integer distances, so the k-th neighbour is often tied) are ranked by
 * index exactly as the exact recomputation would rank them.
 */
#define EXACT_SINGLE 0x1p24  /* largest squared norm: sgemm exact */
#define EXACT_DOUBLE 0x1p51  /* the same for double (keys up to 2^53) */

/* v == nearbyint(v), without a libm call per value (tens of millions):
 * below 2^52 the truncation is exact, from 2^52 every double is an
 * integer (and inf too); NaN is not. */
static int is_integer(double v)
{
	double a = fabs(v);

	if (!(a < 0x1p52))
		return a == a;
	return v == (double)(long long)v;
}

/* The squared norms of the n rows of x into sq (the values summed in
 * their stored order: every path's keys use these bits), and whether
 * every value is an integer: one pass over the values (hundreds of MB for
 * a large set, read once rather than once per question). */
static int row_sqnorms(const lsv_data *x, double *sq)
{
	size_t i, q;
	int integer = 1;

	for (i = 0; i < x->n; i++) {
		double v = 0.0;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			double a = x->val[q];
			v += a * a;
			if (integer && !is_integer(a))
				integer = 0;
		}
		sq[i] = v;
	}
	return integer;
}

/* The largest squared row norm if the data are integer-valued (integer,
 * from row_sqnorms) and ranked by Euclidean distance, else -1; sq[i] is
 * row i's squared norm. */
static double integral_sqmax(size_t n, const lsv_graph_param *p,
			     const double *sq, int integer)
{
	size_t i;
	double most = 0.0;

	if (p->distance != LSV_DIST_EUCLIDEAN || !integer)
		return -1.0;
	for (i = 0; i < n; i++)
		most = fmax(most, sq[i]);
	return most;
}

static lsv_status build_picks(const lsv_data *x, const lsv_graph_param *p,
			      knn *sp, lsv_graph_info *info, lsv_error *err);
static void knn_done(knn *sp);

/*
 * The automatic choice between the dense path (BLAS block products) and
 * the sparse one (an inverted index of the non-zeros).  Which is faster
 * depends on the data (the non-zeros two rows share) and on the BLAS (the
 * reference one or an optimized one differ tenfold), so it is measured:
 * both paths build the graph of AUTO_ROWS rows spread evenly over the
 * data, and the one that took less time is taken (both scans are
 * O(n^2) in pairs, so the sample's ratio carries over).  Small sets
 * (under 4 AUTO_ROWS rows) and dense data (a quarter of the values
 * non-zero) skip the trial: the dense path, unless the data are very
 * sparse (under 1% with over 2000 features).
 */
#define AUTO_ROWS 1000

static lsv_status choose_path(const lsv_data *x, const lsv_graph_param *p,
			      size_t dc, int *sparse, lsv_graph_info *info,
			      lsv_error *err)
{
	double density = (double)x->nnz / ((double)x->n * (double)(dc ? dc : 1));
	lsv_graph_param q = *p;
	lsv_graph_info qi;
	lsv_data *sub;
	size_t *rows, i, m = AUTO_ROWS;
	lsv_status st = LSV_OK;
	knn t;
	int pass;

	*sparse = dc > 2000 && density < 0.01;
	if (x->n < 4 * m || density >= 0.25)
		return LSV_OK;
	rows = malloc(m * sizeof *rows);
	if (rows == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the trial rows");
	for (i = 0; i < m; i++)
		rows[i] = i * x->n / m;
	sub = lsv_data_rows(x, rows, m);
	free(rows);
	if (sub == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the trial rows");
	q.progress = NULL;
	for (pass = 0; pass < 2 && st == LSV_OK; pass++) {
		q.sparse = pass ? 1 : -1;
		st = build_picks(sub, &q, &t, &qi, err);
		knn_done(&t);
		if (pass)
			info->trial_sparse = qi.scan_seconds;
		else
			info->trial_dense = qi.scan_seconds;
	}
	lsv_data_free(sub);
	if (st != LSV_OK)
		return st;
	info->trial_rows = m;
	*sparse = info->trial_sparse < info->trial_dense;
	return LSV_OK;
}

/*
 * Single-precision products are only as good as the floats they are made
 * of.  The rounding margin is relative to the largest squared norm, so two
 * things break it: values whose products overflow a float (squared norms
 * beyond about 1e38 become inf and the candidates vanish from the heaps),
 * and products that underflow (each lost term errs by up to FLT_MIN, 1.2e-38,
 * absolutely, which the margin covers only while d FLT_MIN is far below
 * 1e-5 of the largest squared norm).  Outside [SINGLE_MIN_SQ,
 * SINGLE_MAX_SQ] the products are double (rows of zeros are exact either
 * way).
 */
#define SINGLE_MIN_SQ 1e-25
#define SINGLE_MAX_SQ 1e30

static int single_safe(const knn *s)
{
	size_t i;
	double most = 0.0;

	for (i = 0; i < s->n; i++)
		most = fmax(most, s->sq[i]);
	return most == 0.0 || (most >= SINGLE_MIN_SQ && most <= SINGLE_MAX_SQ);
}

static lsv_status build_picks_from(const lsv_data *x,
				   const lsv_graph_param *p, size_t q0,
				   const lsv_pair *old, size_t nold, knn *sp,
				   lsv_graph_info *info, lsv_error *err);

/* Everything up to the chosen pairs (s->picks: kNN lists in row order, or
 * both directions of every epsilon pair); the caller frees with knn_done. */
static lsv_status build_picks(const lsv_data *x, const lsv_graph_param *p,
			      knn *sp, lsv_graph_info *info, lsv_error *err)
{
	return build_picks_from(x, p, 0, NULL, 0, sp, info, err);
}

/* build_picks, or (q0 > 0) an update: rows [0, q0) old, their pairs old
 * (nold of them, in the build's order); the dense path always (the blocks
 * are what an update reuses). */
static lsv_status build_picks_from(const lsv_data *x,
				   const lsv_graph_param *p, size_t q0,
				   const lsv_pair *old, size_t nold, knn *sp,
				   lsv_graph_info *info, lsv_error *err)
{
	knn s;
	lsv_status st;
	size_t i, avail;
	int sparse = 0, blas_saved = 0, integer;
	double t0, integral;
	blas_threads bt = {NULL, NULL};

	memset(info, 0, sizeof *info);
	memset(sp, 0, sizeof *sp);
	if ((st = lsv_graph_param_check(p, err)) != LSV_OK)
		return st;
	if (x->n == 0)
		return lsv_fail(err, LSV_EINVAL, "no data rows");
	if (x->n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"%zu rows: at most %d are supported", x->n, INT_MAX);
	memset(&s, 0, sizeof s);
	s.x = x;
	s.p = p;
	s.n = x->n;
	s.err = err;
	s.q0 = q0;
	s.old = old;
	s.nold = nold;
	if ((st = compact_features(&s)) != LSV_OK)
		goto done;

	s.sq = malloc(s.n * sizeof *s.sq);
	s.nrm = malloc(s.n * sizeof *s.nrm);
	if (s.sq == NULL || s.nrm == NULL) {
		st = nomem(&s, "row norms", 2 * s.n * sizeof(double));
		goto done;
	}
	integer = row_sqnorms(x, s.sq);
	for (i = 0; i < s.n; i++) {
		s.nrm[i] = sqrt(s.sq[i]);
		if (s.sq[i] == 0.0)
			info->zero_rows++;
	}
	if ((st = check_magnitude(x, 0, err)) != LSV_OK)
		goto done;
	if (p->distance == LSV_DIST_COSINE)
		for (i = 0; i < s.n; i++)
			s.sq[i] = s.nrm[i] > 0.0 ? 1.0 : 0.0;

	/* Candidates: k neighbours among the rows that can be chosen. */
	avail = s.n - 1;
	if (p->distance == LSV_DIST_COSINE)
		avail = info->zero_rows < s.n ? s.n - info->zero_rows - 1 : 0;
	if (p->epsilon == 0.0) {
		size_t kk = (size_t)p->k < avail ? (size_t)p->k : avail;
		size_t kc = kk + 8 + kk / 2;
		s.kk = (int)kk;
		s.kc = (int)(kc < avail ? kc : avail);
		s.kc_all = kc >= avail;
	}
	info->k = s.kk;

	s.skip = calloc(s.n, 1);
	if (s.skip == NULL) {
		st = nomem(&s, "row flags", s.n);
		goto done;
	}
	if (p->distance == LSV_DIST_COSINE)
		for (i = 0; i < s.n; i++)
			s.skip[i] = s.nrm[i] == 0.0;
	s.threads = 1;
#ifdef _OPENMP
	s.threads = omp_get_max_threads();
	if (s.threads < 1)
		s.threads = 1;
#endif
	/* The scan runs its own threads, one BLAS call each: a threaded
	 * OpenBLAS is set to one thread meanwhile (its idle threads spinning
	 * between calls would slow the selection), and restored after. */
	bt = find_blas_threads();
	if (bt.get != NULL && bt.set != NULL && s.threads > 1) {
		blas_saved = bt.get();
		if (blas_saved > 1)
			bt.set(1);
	}
	s.blas_threaded = bt.get != NULL && bt.get() > 1;
	info->threads = s.threads;

	if (q0 > 0)
		sparse = 0;
	else if (p->sparse > 0)
		sparse = 1;
	else if (p->sparse == 0 &&
		 (st = choose_path(x, p, s.dc, &sparse, info, err)) != LSV_OK)
		goto done;
	info->sparse = sparse;

	/* Dense Euclidean: distances do not change when the column means are
	 * subtracted, but the products' rounding (relative to |a|^2 + |b|^2)
	 * shrinks for data far from the origin, so fewer rows go uncertified.
	 * Not for integer data that the products get exactly (below): the
	 * means would make them inexact. */
	s.single = p->single && !sparse;
	/* Euclidean: sq still the squared norms */
	integral = integral_sqmax(s.n, p, s.sq, integer);
	if (!sparse && p->distance == LSV_DIST_EUCLIDEAN && s.dc > 0 &&
	    !(integral >= 0.0 && integral <= EXACT_SINGLE)) {
		if ((st = center(&s)) != LSV_OK)
			goto done;
	}
	if (s.single && !single_safe(&s))
		s.single = 0;
	t0 = now_seconds();
	for (;;) {
		s.exact = s.mu == NULL && integral >= 0.0 &&
			  integral <= (s.single ? EXACT_SINGLE : EXACT_DOUBLE);
		st = alloc_blocks(&s, sparse);
		if (st == LSV_OK)
			st = scan(&s, sparse);
		if (st != LSV_OK || s.picks != NULL || !s.single)
			break;
		/* Too many rows the single-precision bound could not certify:
		 * the whole scan again with double products. */
		info->rescanned = s.nfail;
		free_scan(&s);
		s.single = 0;
		s.recomputed = 0;
		s.ties = 0;
	}
	if (blas_saved > 1)
		bt.set(blas_saved);
	if (st != LSV_OK)
		goto done;
	info->scan_seconds = now_seconds() - t0;
	info->recomputed = s.recomputed;
	info->ties = s.ties;
	info->gemm_seconds = s.gemm_seconds;
	info->gemm_flops = q0 > 0 ? s.flops : sparse ? 0.0
		: (info->rescanned ? 2.0 : 1.0) * (double)s.n *
		  ((double)s.n + (double)s.B) * (double)s.dc;
	info->single = s.single;
	free_scan(&s);
done:
	*sp = s;
	return st;
}

static void knn_done(knn *sp)
{
	knn s = *sp;
	if (!s.ccol_shared)
		free(s.ccol);
	free(s.sq);
	free(s.nrm);
	free(s.skip);
	free(s.mu);
	free(s.A);
	free(s.X);
	free(s.G);
	free(s.Af);
	free(s.Xf);
	free(s.Gf);
	free(s.heap);
	free(s.hsize);
	free(s.thr);
	free(s.thre);
	free(s.margin);
	free(s.cap);
	free(s.picks);
}

/* An image distance's graph: each row's k nearest (lsv_image_lists) as
 * the chosen pairs, weighed and symmetrized as any kNN graph. */
static lsv_status image_graph(const lsv_data *x, const lsv_graph_param *p,
			      lsv_graph **out, lsv_graph_info *info,
			      lsv_error *err)
{
	int *idx;
	double *dist;
	size_t n = x->n, i, r, np = 0, k;
	lsv_pair *pairs;
	lsv_status st;

	if ((st = lsv_image_lists(x, p, &idx, &dist, info, err)) != LSV_OK)
		return st;
	k = (size_t)info->k;
	pairs = malloc((n * k + 1) * sizeof *pairs);
	if (pairs == NULL) {
		free(idx);
		free(dist);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the chosen pairs");
	}
	for (i = 0; i < n; i++)
		for (r = 0; r < k && idx[i * k + r] >= 0; r++) {
			lsv_pair *q = &pairs[np++];
			q->i = (int)i;
			q->j = idx[i * k + r];
			q->d = dist[i * k + r];
			q->d2 = q->d * q->d;
		}
	free(idx);
	free(dist);
	st = lsv_graph_assemble(n, pairs, np, p, out, info, err);
	free(pairs);
	return st;
}

lsv_status lsv_graph_build(const lsv_data *x, const lsv_graph_param *p,
			   lsv_graph **out, lsv_graph_info *info,
			   lsv_error *err)
{
	knn s;
	lsv_graph_info dummy;
	lsv_status st;

	*out = NULL;
	if (info == NULL)
		info = &dummy;
	if (p->distance == LSV_DIST_TANGENT || p->distance == LSV_DIST_ROTATION)
		return image_graph(x, p, out, info, err);
	st = build_picks(x, p, &s, info, err);
	if (st == LSV_OK)
		st = lsv_graph_assemble(s.n, s.picks, s.npicks, p, out, info,
					err);
	knn_done(&s);
	return st;
}

lsv_status lsv_knn_pairs(const lsv_data *x, const lsv_graph_param *p,
			 lsv_pair **pairs, size_t *npairs,
			 lsv_graph_info *info, lsv_error *err)
{
	knn s;
	lsv_graph_info dummy;
	lsv_status st;

	*pairs = NULL;
	*npairs = 0;
	if (info == NULL)
		info = &dummy;
	st = build_picks(x, p, &s, info, err);
	if (st == LSV_OK) {  /* the caller takes the pairs */
		*pairs = s.picks;
		*npairs = s.npicks;
		s.picks = NULL;
	}
	knn_done(&s);
	return st;
}

lsv_status lsv_knn_lists(const lsv_data *x, const lsv_graph_param *p,
			 int **idx, double **dist, lsv_graph_info *info,
			 lsv_error *err)
{
	knn s;
	lsv_graph_info dummy;
	lsv_status st;
	size_t n = x->n, e, i, k;

	*idx = NULL;
	*dist = NULL;
	if (info == NULL)
		info = &dummy;
	if (p->epsilon > 0.0)
		return lsv_fail(err, LSV_EINVAL,
				"neighbour lists need the kNN mode, not epsilon");
	if (p->distance == LSV_DIST_TANGENT || p->distance == LSV_DIST_ROTATION)
		return lsv_image_lists(x, p, idx, dist, info, err);
	st = build_picks(x, p, &s, info, err);
	if (st == LSV_OK) {
		k = (size_t)info->k;
		*idx = malloc((n * k + 1) * sizeof **idx);
		*dist = malloc((n * k + 1) * sizeof **dist);
		if (*idx == NULL || *dist == NULL) {
			free(*idx);
			free(*dist);
			*idx = NULL;
			*dist = NULL;
			st = nomem(&s, "the neighbour lists", n * k * 12);
		} else {
			for (i = 0; i < n * k; i++) {
				(*idx)[i] = -1;
				(*dist)[i] = 0.0;
			}
			/* picks are in row order, k or fewer per row */
			for (e = 0, i = 0; e < s.npicks; e++) {
				size_t q = (size_t)s.picks[e].i;
				if (e > 0 && s.picks[e - 1].i == s.picks[e].i)
					i++;
				else
					i = 0;
				(*idx)[q * k + i] = s.picks[e].j;
				(*dist)[q * k + i] = s.picks[e].d;
			}
		}
	}
	knn_done(&s);
	return st;
}

lsv_status lsv_knn_pairs_update(const lsv_data *x, size_t n0,
				const lsv_graph_param *p, const lsv_pair *old,
				size_t nold, lsv_pair **pairs, size_t *npairs,
				lsv_graph_info *info, lsv_error *err)
{
	knn s;
	lsv_graph_info dummy;
	lsv_status st;
	size_t e;

	*pairs = NULL;
	*npairs = 0;
	if (info == NULL)
		info = &dummy;
	if (p->distance != LSV_DIST_EUCLIDEAN && p->distance != LSV_DIST_COSINE)
		return lsv_fail(err, LSV_EINVAL, "an update needs the Euclidean or "
				"cosine distance");
	if (n0 == 0 || n0 >= x->n)
		return lsv_fail(err, LSV_EINVAL, "an update needs old rows and new "
				"rows (%zu old of %zu)", n0, x->n);
	for (e = 0; e < nold; e++)
		if (old[e].i < 0 || (size_t)old[e].i >= n0 || old[e].j < 0 ||
		    (size_t)old[e].j >= n0 || old[e].i == old[e].j ||
		    (e > 0 && old[e].i < old[e - 1].i))
			return lsv_fail(err, LSV_EINVAL, "old pair %zu (%d, %d) is "
					"not a pair of two old rows in row order",
					e + 1, old[e].i + 1, old[e].j + 1);
	st = build_picks_from(x, p, n0, old, nold, &s, info, err);
	if (st == LSV_OK) {
		*pairs = s.picks;
		*npairs = s.npicks;
		s.picks = NULL;
	}
	knn_done(&s);
	return st;
}

/* ------------------------------------------------------------------ */
/* Distributed: row blocks on the ranks of a communicator (comm.c)     */
/* ------------------------------------------------------------------ */

/*
 * The same graph as lsv_graph_build, its rows in 1-D blocks over the P
 * ranks (rank r holds rows [n r / P, n (r + 1) / P)).  Ring all-pairs:
 * every rank keeps its block Q as the queries and the blocks travel
 * around the ring (ring_run: each pair of blocks multiplied once, both
 * directions, the transfers overlapping the products).  Each block pair
 * is the BLAS product of densified tiles, as in scan_dense; the own block
 * once per tile pair (J >= I).
 *
 * Exactness without a second pass.  Each query row keeps a heap of its k
 * best candidates by EXACT key (exact_key: the same function, hence the
 * same bits, as the serial re-ranking), ties by the global row index.  A
 * product key ~k with |~k - k| <= m (the rounding margin of scan()) is
 * only a filter: a candidate is computed exactly when ~k <= thr + m, thr
 * being the row's k-th exact key so far.  One turned away has
 * k > ~k - m > thr >= the final k-th key, so it cannot be among the k
 * nearest, and the kept lists are the exact k smallest (distance, global
 * index) pairs: those of the serial build (its certified rows keep the
 * same, its uncertified ones are redone exactly to the same).  With
 * integer data exact in the products (the serial "exact" case) the
 * product key is the exact key, m = 0.  Epsilon mode keeps, for each
 * query row, every c with exact distance below epsilon: the serial build
 * gives both directions of each such pair, from the same symmetric
 * distance.  So the chosen pairs gathered in row order, weighed and
 * symmetrized by lsv_graph_assemble on rank 0, give the serial graph byte
 * for byte.  Only the dense path is distributed: the column indices are
 * the compact features (a monotone renumbering: exact_sqdist adds the
 * same terms in the same order); the products in single precision (-p
 * single, the default, or integers exact there), else in double.
 * No column centring (it would need the global means; it only narrows
 * the margin).
 */

/* A block as one message: header (rows, nnz, first global row), rowptr,
 * val, col; every array 8-aligned but col, which is last. */
typedef struct {
	unsigned long long n, nnz, row0;
} ring_head;

static size_t ring_bytes(size_t n, size_t nnz)
{
	return sizeof(ring_head) + (n + 1) * sizeof(size_t) + nnz * sizeof(double) +
	       nnz * sizeof(int);
}

/* The same rounded up to 8 bytes: blocks packed one after another in one
 * buffer stay aligned for their size_t and double arrays. */
static size_t ring_padded(size_t n, size_t nnz)
{
	return (ring_bytes(n, nnz) + 7) & ~(size_t)7;
}

/* Rows [r0, r0 + m) of x (columns already compact) packed at buf (8-byte
 * aligned). */
static void ring_pack(const lsv_data *x, size_t r0, size_t m, size_t grow0,
		      unsigned char *buf)
{
	size_t base = x->rowptr[r0], nnz = x->rowptr[r0 + m] - base, i;
	ring_head h = {m, nnz, grow0};
	size_t *rp = (size_t *)(buf + sizeof h);
	double *val = (double *)(rp + m + 1);
	int *col = (int *)(val + nnz);

	memcpy(buf, &h, sizeof h);
	for (i = 0; i <= m; i++)
		rp[i] = x->rowptr[r0 + i] - base;
	memcpy(val, x->val + base, nnz * sizeof *val);
	memcpy(col, x->col + base, nnz * sizeof *col);
}

/* A view of a packed block (no copy); 0 if the message is inconsistent. */
static int ring_view(const unsigned char *buf, size_t bytes, lsv_data *v,
		     size_t *grow0)
{
	ring_head h;
	if (bytes < sizeof h)
		return 0;
	memcpy(&h, buf, sizeof h);
	if (ring_padded(h.n, h.nnz) != bytes)
		return 0;
	memset(v, 0, sizeof *v);
	v->n = h.n;
	v->nnz = h.nnz;
	v->rowptr = (size_t *)(buf + sizeof h);
	v->val = (double *)(v->rowptr + h.n + 1);
	v->col = (int *)(v->val + h.nnz);
	*grow0 = h.row0;
	return 1;
}

/* The working set of one ring step: rows of Q (local 0..nq) then, for a
 * visiting block, its rows (nq..nq+nc); s.x points at it. */
typedef struct {
	knn s;
	lsv_comm *comm;
	lsv_data qc;        /* Q or Q followed by C */
	size_t nq, row0;    /* query rows and their first global row */
	size_t crow0;       /* first global row of the visiting block */
	int own;            /* the step of the own block (C = Q) */
	pick_buf *bufs;     /* epsilon pairs, one list per thread */
	double sqmax;       /* over all n rows (the margin) */
	double *cap;        /* per local row: a bound on its final k-th key
			       (the owner's after its own block; +inf for Q) */
	size_t rows_cap;    /* rows the per-row arrays can hold */
} ring;

static int ring_global(const ring *r, size_t c)
{
	return (int)(c < r->nq ? r->row0 + c : r->crow0 + (c - r->nq));
}

/* Row a of Q considers local row c, product g (see the comment above). */
/*
 * The squared distance of two rows from their dense single-precision
 * columns in the ring's blocks (dc values each), for integer data whose
 * squared norms are at most 2^48: every value (|v| <= 2^24) is exact in a
 * float, every difference and square exact in a double, and every partial
 * sum an integer below 2^53 (at most (|a| + |c|)^2 <= 2^50), so the sum is
 * exact in any order -- the same double as exact_sqdist's walk over the
 * sparse rows, bit for bit, at the speed of a vectorized loop instead of a
 * merge that mispredicts a branch per non-zero.
 */
static double ring_sqdist(const float *fa, const float *fc, size_t dc,
			  lsv_pair *pk)
{
	double acc = 0.0;
	size_t j;
#pragma omp simd reduction(+ : acc)
	for (j = 0; j < dc; j++) {
		double d = (double)fa[j] - (double)fc[j];
		acc += d * d;
	}
	pk->d2 = acc;
	pk->d = sqrt(acc);
	return acc;
}

/* Offer c to row a's heap (kNN) or buffer (epsilon); fa, fc: the rows'
 * dense columns when s->dense_exact, else NULL. */
static void ring_offer(ring *r, size_t a, size_t c, double g, double snap,
		       const float *fa, const float *fc, pick_buf *buf)
{
	knn *s = &r->s;
	lsv_pair pk;
	double key;

	if (s->skip[a] || s->skip[c])
		return;
	key = key_of(s, a, c, g, snap);
	if (s->p->epsilon > 0.0) {
		if (!maybe_close(s, a, c, key))
			return;
		pk.i = ring_global(r, a);
		pk.j = ring_global(r, c);
		if (fa != NULL)
			ring_sqdist(fa, fc, s->dc, &pk);
		else
			exact_key(s, a, c, &pk);
		if (pk.d < s->p->epsilon)
			buf_add(buf, &pk);
		return;
	}
	if (!(key <= s->thr[a] + s->margin[a]))
		return;
	if (!s->exact)
		key = fa != NULL ? ring_sqdist(fa, fc, s->dc, &pk)
				 : exact_key(s, a, c, &pk);
	if (key <= s->thr[a]) {
		cand *h = s->heap + a * (size_t)s->kc;
		heap_offer(h, &s->hsize[a], s->kc, key, ring_global(r, c));
		s->thr[a] = fmin(r->cap[a], s->hsize[a] < s->kc ? INFINITY : h[0].key);
	}
}

/* Local rows [i0, i0 + bi) against [j0, j0 + bj): G = X' A (bj x bi,
 * column a the products of row i0 + a); rows of I choose, and with both
 * (own block, I != J) the rows of J too. */
static void ring_tile(ring *r, size_t i0, size_t bi, size_t j0, size_t bj,
		      int both)
{
	knn *s = &r->s;
	int M = (int)bj, N = (int)bi, K = (int)s->dc, T = s->threads;
	double snap = s->single ? SNAPF : SNAP, t0 = now_seconds();
	long aa;

	densify_any(s, i0, bi, s->A, s->Af);
	densify_any(s, j0, bj, s->X, s->Xf);
	if (K == 0) {
		if (s->single)
			memset(s->Gf, 0, bi * bj * sizeof *s->Gf);
		else
			memset(s->G, 0, bi * bj * sizeof *s->G);
	} else if (s->single) {
		const float one = 1.0f, zero = 0.0f;
		sgemm_("T", "N", &M, &N, &K, &one, s->Xf, &K, s->Af, &K, &zero,
		       s->Gf, &M, 1, 1);
	} else {
		const double one = 1.0, zero = 0.0;
		dgemm_("T", "N", &M, &N, &K, &one, s->X, &K, s->A, &K, &zero,
		       s->G, &M, 1, 1);
	}
	s->gemm_seconds += now_seconds() - t0;
	/* Each thread owns the heaps of its rows.  The inner loops test the
	 * raw product key against thr + margin (the margin covers snapping:
	 * it is at least SNAP of |a|^2 + |c|^2), and only the keys that pass
	 * go to ring_offer.  Cosine: key = 1 - g, i.e. sq = 1/2, factor 1. */
#pragma omp parallel for num_threads(T) schedule(static)
	for (aa = 0; aa < (long)bi; aa++) {
		size_t a = (size_t)aa, b, at = a * bj, q = i0 + a;
		int t = 0, cosine = s->p->distance == LSV_DIST_COSINE;
		double two = cosine ? 1.0 : 2.0, base = cosine ? 1.0 : s->sq[q];
		double lim = s->p->epsilon > 0.0 ? INFINITY : s->thr[q] + s->margin[q];
#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		for (b = 0; b < bj; b++) {
			size_t c = j0 + b;
			double g = s->single ? (double)s->Gf[at + b] : s->G[at + b];
			if (base + (cosine ? 0.0 : s->sq[c]) - two * g > lim || c == q)
				continue;
			ring_offer(r, q, c, g, snap,
				   s->dense_exact ? s->Af + a * s->dc : NULL,
				   s->dense_exact ? s->Xf + b * s->dc : NULL,
				   &r->bufs[t]);
			if (s->p->epsilon == 0.0)
				lim = s->thr[q] + s->margin[q];
		}
	}
	if (!both)
		return;
	/* The rows of J choose among I's: column b of G.  Walked along G's
	 * rows (a outer, b inner: contiguous), each thread owning a range of
	 * columns, hence of heaps; heap q still sees c = i0, i0 + 1, ... in
	 * that order, as a column walk would give it.  (A column walk strides
	 * bj floats per product, a cache line each: 10% of a rank's scan.) */
#pragma omp parallel num_threads(T)
	{
		int t = 0, nt = 1, cosine = s->p->distance == LSV_DIST_COSINE;
		double two = cosine ? 1.0 : 2.0, lim[MAX_BLOCK];
		size_t a, b, b0, b1;
#ifdef _OPENMP
		t = omp_get_thread_num();
		nt = omp_get_num_threads();
#endif
		b0 = bj * (size_t)t / (size_t)nt;
		b1 = bj * (size_t)(t + 1) / (size_t)nt;
		for (b = b0; b < b1; b++)
			lim[b] = s->p->epsilon > 0.0 ? INFINITY
				 : s->thr[j0 + b] + s->margin[j0 + b];
		for (a = 0; a < bi; a++) {
			size_t at = a * bj, c = i0 + a;
			double sqc = cosine ? 0.0 : s->sq[c];
			for (b = b0; b < b1; b++) {
				size_t q = j0 + b;
				double g = s->single ? (double)s->Gf[at + b] : s->G[at + b];
				if ((cosine ? 1.0 : s->sq[q]) + sqc - two * g > lim[b])
					continue;
				ring_offer(r, q, c, g, snap,
					   s->dense_exact ? s->Xf + b * s->dc : NULL,
					   s->dense_exact ? s->Af + a * s->dc : NULL,
					   &r->bufs[t]);
				if (s->p->epsilon == 0.0)
					lim[b] = s->thr[q] + s->margin[q];
			}
		}
	}
}

/* The rows' norms (local rows [from, to) of s.x). */
static void ring_norms(ring *r, size_t from, size_t to)
{
	knn *s = &r->s;
	size_t i, q;
	for (i = from; i < to; i++) {
		double v = 0.0;
		for (q = s->x->rowptr[i]; q < s->x->rowptr[i + 1]; q++)
			v += s->x->val[q] * s->x->val[q];
		s->nrm[i] = sqrt(v);
		s->sq[i] = s->p->distance == LSV_DIST_COSINE ? (v > 0.0 ? 1.0 : 0.0) : v;
		s->skip[i] = s->p->distance == LSV_DIST_COSINE && v == 0.0;
	}
}

/* Room for rows local rows in the per-row arrays (Q then C). */
static lsv_status ring_room(ring *r, size_t rows)
{
	knn *s = &r->s;
	size_t kc = (size_t)s->kc;
	if (rows <= r->rows_cap)
		return LSV_OK;
#define GROW(p, n) do { void *g_ = realloc((p), (n) + 1); \
		if (g_ == NULL) return nomem(s, "the row arrays", (n)); \
		(p) = g_; } while (0)
	GROW(s->sq, rows * sizeof *s->sq);
	GROW(s->nrm, rows * sizeof *s->nrm);
	GROW(s->skip, rows);
	GROW(r->cap, rows * sizeof *r->cap);
	if (s->p->epsilon == 0.0) {
		GROW(s->heap, rows * kc * sizeof *s->heap);
		GROW(s->hsize, rows * sizeof *s->hsize);
		GROW(s->thr, rows * sizeof *s->thr);
		GROW(s->margin, rows * sizeof *s->margin);
	}
#undef GROW
	r->rows_cap = rows;
	return LSV_OK;
}

/* The heaps of a travelling block's rows, as one message: header (rows,
 * k, first global row), cap (per row), the heaps (k candidates per row),
 * their sizes. */
typedef struct {
	unsigned long long n, kk, row0;
} heap_head;

static size_t heap_bytes(size_t n, size_t kk)
{
	return sizeof(heap_head) + n * sizeof(double) + n * kk * sizeof(cand) +
	       n * sizeof(int);
}

typedef struct {
	size_t n, kk, row0;
	double *cap;
	cand *h;
	int *hsize;
} heap_msg;

static int heap_view(unsigned char *buf, size_t bytes, heap_msg *m)
{
	heap_head hd;
	if (bytes < sizeof hd)
		return 0;
	memcpy(&hd, buf, sizeof hd);
	if (heap_bytes(hd.n, hd.kk) != bytes)
		return 0;
	m->n = hd.n;
	m->kk = hd.kk;
	m->row0 = hd.row0;
	m->cap = (double *)(buf + sizeof hd);
	m->h = (cand *)(m->cap + hd.n);
	m->hsize = (int *)(m->h + hd.n * hd.kk);
	return 1;
}

/*
 * One step: Q rows [q0, q1) against the block C rows [c0, c1) (C NULL:
 * the own block, all of it, J >= I).  For a visiting block both
 * directions are taken: Q's rows choose among C's into their heaps, and
 * C's rows among Q's into the travelling heaps of hm (kNN; epsilon mode
 * keeps C's pairs here, with their global rows), so each pair of rows is
 * multiplied once over the whole ring.
 */
static lsv_status ring_step(ring *r, const lsv_data *C, size_t crow0,
			    heap_msg *hm, size_t q0, size_t q1, size_t c0,
			    size_t c1)
{
	knn *s = &r->s;
	size_t B = s->B, nc = C ? C->n : r->nq, nq = r->nq, I, J, i;
	size_t total = nq + (C ? nc : 0), nnzq = r->qc.rowptr[nq];
	size_t nnz = nnzq + (C ? C->nnz : 0), kc = (size_t)s->kc;
	lsv_status st;

	r->crow0 = crow0;
	if ((st = ring_room(r, total)) != LSV_OK)
		return st;
	/* Q followed by C in one data set (Q's part stays in place) */
	if (C != NULL) {
		size_t *rp = realloc(r->qc.rowptr, (total + 1) * sizeof *rp);
		if (rp != NULL)
			r->qc.rowptr = rp;
		int *col = rp ? realloc(r->qc.col, (nnz + 1) * sizeof *col) : NULL;
		if (col != NULL)
			r->qc.col = col;
		double *val = col ? realloc(r->qc.val, (nnz + 1) * sizeof *val) : NULL;
		if (val == NULL)
			return nomem(s, "a visiting block", ring_bytes(nc, C->nnz));
		r->qc.val = val;
		for (i = 0; i <= nc; i++)
			r->qc.rowptr[nq + i] = nnzq + C->rowptr[i];
		memcpy(r->qc.col + nnzq, C->col, C->nnz * sizeof *C->col);
		memcpy(r->qc.val + nnzq, C->val, C->nnz * sizeof *C->val);
		r->qc.n = total;
		r->qc.nnz = nnz;
		s->ccol = r->qc.col;  /* the columns are compact already */
		ring_norms(r, nq, total);
		/* the travelling heaps in place of rows nq.. */
		for (i = 0; i < nc; i++) {
			size_t a = nq + i;
			r->cap[a] = INFINITY;
			if (hm == NULL)
				continue;
			r->cap[a] = hm->cap[i];
			s->hsize[a] = hm->hsize[i];
			memcpy(s->heap + a * kc, hm->h + i * kc, kc * sizeof *s->heap);
			/* no candidate wanted (one row in all: k = 0) takes
			 * none, and its empty heap is not read */
			s->thr[a] = fmin(hm->cap[i], s->kc == 0 ? -INFINITY
					 : s->hsize[a] < s->kc ? INFINITY
					 : s->heap[a * kc].key);
			s->margin[a] = s->exact ? 0.0
				: s->p->distance == LSV_DIST_COSINE
					? 2.0 * s->rel : s->rel * (s->sq[a] + r->sqmax);
		}
	}
	if (B == 0)
		return LSV_OK;  /* no rows anywhere: nothing to do */
	for (I = q0; I < q1; I += B) {
		size_t bi = q1 - I < B ? q1 - I : B;
		if (C == NULL) {
			for (J = I; J < nq; J += B)
				ring_tile(r, I, bi, J, nq - J < B ? nq - J : B, J != I);
		} else {
			for (J = c0; J < c1; J += B)
				ring_tile(r, I, bi, nq + J, c1 - J < B ? c1 - J : B, 1);
		}
	}
	if (C != NULL && hm != NULL)
		for (i = 0; i < nc; i++) {
			hm->hsize[i] = s->hsize[nq + i];
			memcpy(hm->h + i * kc, s->heap + (nq + i) * kc, kc * sizeof *s->heap);
		}
	return LSV_OK;
}

/* This rank's chosen pairs, in row order (kNN: by exact key, then index;
 * epsilon: by column). */
static lsv_status ring_picks(ring *r, lsv_pair **out, size_t *nout)
{
	knn *s = &r->s;
	size_t a, total = 0, np = 0;
	int t, m;
	lsv_pair *v;

	if (s->p->epsilon > 0.0) {
		for (t = 0; t < s->threads; t++)
			total += r->bufs[t].n;
	} else {
		total = r->nq * (size_t)s->kk;
	}
	v = malloc((total + 1) * sizeof *v);
	if (v == NULL)
		return nomem(s, "the chosen pairs", total * sizeof *v);
	if (s->p->epsilon > 0.0) {
		for (t = 0; t < s->threads; t++) {
			if (r->bufs[t].n > 0)
				memcpy(v + np, r->bufs[t].v, r->bufs[t].n * sizeof *v);
			np += r->bufs[t].n;
		}
		qsort(v, np, sizeof *v, pick_cmp);
	} else {
		for (a = 0; a < r->nq; a++) {
			cand *h = s->heap + a * (size_t)s->kc;
			qsort(h, (size_t)s->hsize[a], sizeof *h, cand_cmp);
			for (m = 0; m < s->hsize[a] && m < s->kk; m++) {
				lsv_pair *pk = &v[np++];
				pk->i = (int)(r->row0 + a);
				pk->j = h[m].j;
				if (s->p->distance == LSV_DIST_COSINE) {
					pk->d = h[m].key;
					pk->d2 = h[m].key * h[m].key;
				} else {
					pk->d2 = h[m].key;
					pk->d = sqrt(h[m].key);
				}
			}
		}
	}
	*out = v;
	*nout = np;
	return LSV_OK;
}

/* Global facts every rank needs, by allreduce: rows without non-zero
 * values, the largest squared norm, whether every value is an integer. */
static lsv_status ring_globals(ring *r, double *integral, lsv_error *err)
{
	knn *s = &r->s;
	double v[3] = {0.0, 0.0, 0.0};  /* zero rows, sqmax, non-integer */
	size_t i, q;
	lsv_status st;

	for (i = 0; i < r->nq; i++) {
		double w = 0.0;
		for (q = s->x->rowptr[i]; q < s->x->rowptr[i + 1]; q++)
			w += s->x->val[q] * s->x->val[q];
		v[0] += w == 0.0;
		v[1] = fmax(v[1], w);
	}
	for (q = 0; q < s->x->nnz; q++)
		if (!is_integer(s->x->val[q]))
			v[2] = 1.0;
	if ((st = lsv_comm_allreduce_double(r->comm, v, 1, LSV_COMM_SUM, err)) ||
	    (st = lsv_comm_allreduce_double(r->comm, v + 1, 2, LSV_COMM_MAX, err)))
		return st;
	r->sqmax = v[1];
	*integral = s->p->distance == LSV_DIST_EUCLIDEAN && v[2] == 0.0 ? v[1] : -1.0;
	return LSV_OK;
}

static void ring_free(ring *r)
{
	int t;
	if (r->bufs != NULL)
		for (t = 0; t < r->s.threads; t++)
			free(r->bufs[t].v);
	free(r->bufs);
	free(r->cap);
	free(r->qc.rowptr);
	free(r->qc.col);
	free(r->qc.val);
	r->s.ccol = NULL;
	r->s.x = NULL;
	knn_done(&r->s);
}

/* Everything local before the ring: heaps, norms, blocks. */
static lsv_status ring_setup(ring *r, const lsv_data *q, size_t n,
			     size_t dc, lsv_graph_info *info, lsv_error *err)
{
	knn *s = &r->s;
	size_t nq = q->n, i, avail, zero;
	double integral;
	lsv_status st = LSV_OK;

	r->qc.n = nq;
	r->qc.nnz = q->nnz;
	r->qc.rowptr = malloc((nq + 1) * sizeof *r->qc.rowptr);
	r->qc.col = malloc((q->nnz + 1) * sizeof *r->qc.col);
	r->qc.val = malloc((q->nnz + 1) * sizeof *r->qc.val);
	s->sq = malloc((nq + 1) * sizeof *s->sq);
	s->nrm = malloc((nq + 1) * sizeof *s->nrm);
	s->skip = calloc(nq + 1, 1);
	s->threads = 1;
#ifdef _OPENMP
	s->threads = omp_get_max_threads() > 0 ? omp_get_max_threads() : 1;
#endif
	r->bufs = calloc((size_t)s->threads, sizeof *r->bufs);
	if (!r->qc.rowptr || !r->qc.col || !r->qc.val || !s->sq || !s->nrm ||
	    !s->skip || !r->bufs)
		st = nomem(s, "the row block", ring_bytes(nq, q->nnz));
	if ((st = lsv_comm_agree(r->comm, st, err)) != LSV_OK)
		return st;
	memcpy(r->qc.rowptr, q->rowptr, (nq + 1) * sizeof *q->rowptr);
	memcpy(r->qc.col, q->col, q->nnz * sizeof *q->col);
	memcpy(r->qc.val, q->val, q->nnz * sizeof *q->val);
	s->x = &r->qc;
	s->ccol = r->qc.col;
	s->dc = dc;
	s->n = n;
	ring_norms(r, 0, nq);
	if ((st = ring_globals(r, &integral, err)) != LSV_OK)
		return st;
	/* as build_picks: the zero rows counted over every rank */
	for (i = 0, zero = 0; i < nq; i++)
		zero += s->nrm[i] == 0.0;
	if ((st = lsv_comm_allreduce_size(r->comm, &zero, 1, LSV_COMM_SUM, err)))
		return st;
	info->zero_rows = zero;
	avail = n - 1;
	if (s->p->distance == LSV_DIST_COSINE)
		avail = zero < n ? n - zero - 1 : 0;
	if (s->p->epsilon == 0.0) {
		s->kk = (int)((size_t)s->p->k < avail ? (size_t)s->p->k : avail);
		s->kc = s->kk;  /* the heaps hold exact keys: k are enough */
	}
	info->k = s->kk;
	info->threads = s->threads;
	/* single precision as asked (-p single, the default) while the
	 * squared norms stay far inside a float's range, and always when
	 * the data are integers exact there; the filter's margin covers the
	 * rounding of inexact products, whose survivors are computed exactly */
	s->single = (integral >= 0.0 && integral <= EXACT_SINGLE) ||
		    (s->p->single && r->sqmax <= SINGLE_MAX_SQ &&
		     (r->sqmax >= SINGLE_MIN_SQ || r->sqmax == 0.0));
	s->exact = integral >= 0.0 &&
		   integral <= (s->single ? EXACT_SINGLE : EXACT_DOUBLE);
	/* inexact products of integer data: the survivors' exact keys from
	 * the float blocks (no centring in the ring: they hold the values) */
	s->dense_exact = !s->exact && s->single && s->mu == NULL &&
			 integral >= 0.0 && integral <= 0x1p48;
	s->rel = fmax(s->single ? SNAPF : SNAP,
		      1.01 * (double)(s->dc + 2) * (s->single ? 0x1p-24 : 0x1p-53));
	st = alloc_blocks(s, 0);
	if (st == LSV_OK && s->p->epsilon == 0.0) {
		s->heap = malloc((nq * (size_t)s->kc + 1) * sizeof *s->heap);
		s->hsize = calloc(nq + 1, sizeof *s->hsize);
		s->thr = malloc((nq + 1) * sizeof *s->thr);
		s->margin = malloc((nq + 1) * sizeof *s->margin);
		if (!s->heap || !s->hsize || !s->thr || !s->margin)
			st = nomem(s, "candidate heaps", nq * (size_t)s->kc * sizeof(cand));
		else
			for (i = 0; i < nq; i++) {
				s->thr[i] = s->kc > 0 ? INFINITY : -INFINITY;
				s->margin[i] = s->exact ? 0.0
					: s->p->distance == LSV_DIST_COSINE
						? 2.0 * s->rel
						: s->rel * (s->sq[i] + r->sqmax);
			}
	}
	info->single = s->single;
	return lsv_comm_agree(r->comm, st, err);
}

/*
 * The ring itself.  Step 0: the own block.  Then the blocks travel: at
 * step t (1 <= t <= P/2) rank r holds the block of rank o = r - t and
 * multiplies it with its own, both directions, so that each pair of
 * blocks is multiplied once: for t < P/2 whole; for t = P/2 (P even)
 * the two ranks share the pair, the lower rank taking the first half of
 * the higher one's rows, the higher rank its other half.  A block's data
 * goes P/2 hops (each shift started before the products, so the transfer
 * overlaps them); its travelling heaps (kNN) go P hops and come home,
 * where they are merged into the owner's heaps: exact keys and global
 * indices, so the merge is the union.
 */
static lsv_status ring_run(ring *r, const lsv_data *q, lsv_error *err)
{
	knn *s = &r->s;
	int P = lsv_comm_size(r->comm), me = lsv_comm_rank(r->comm), t;
	int S = P / 2, knn_mode = s->p->epsilon == 0.0;
	size_t bytes = ring_padded(q->n, q->nnz), nd = 0, nh = 0, i;
	size_t kc = (size_t)s->kc, hb = heap_bytes(r->nq, kc);
	unsigned char *data = NULL, *heaps = NULL;  /* in hand */
	void *got = NULL;
	lsv_comm_req *dreq = NULL, *hreq = NULL;  /* the shifts in flight */
	lsv_status st = LSV_OK, s2;

	/* the own block, then the caps its heaps give */
	st = ring_room(r, r->nq);
	if (st == LSV_OK) {
		for (i = 0; i < r->nq; i++)
			r->cap[i] = INFINITY;
		st = ring_step(r, NULL, r->row0, NULL, 0, r->nq, 0, 0);
	}
	if (st == LSV_OK && (data = malloc(bytes)) == NULL)
		st = nomem(s, "the block message", bytes);
	if (st == LSV_OK && knn_mode && (heaps = malloc(hb)) == NULL)
		st = nomem(s, "the heap message", hb);
	if (st == LSV_OK) {
		ring_pack(q, 0, q->n, r->row0, data);
		nd = bytes;
		if (knn_mode) {
			heap_head hd = {r->nq, kc, r->row0};
			heap_msg m;
			memcpy(heaps, &hd, sizeof hd);
			heap_view(heaps, hb, &m);
			for (i = 0; i < r->nq; i++) {
				m.cap[i] = s->thr[i];
				m.hsize[i] = 0;
			}
			memset(m.h, 0, r->nq * kc * sizeof *m.h);
			nh = hb;
		}
	}
	if ((st = lsv_comm_agree(r->comm, st, err)) != LSV_OK)
		goto done;
	if (S >= 1 && (st = lsv_comm_shift_start(r->comm, data, nd, &dreq, err)))
		goto done;
	for (t = 1; t <= (knn_mode ? P : S); t++) {
		lsv_data C;
		heap_msg hm;
		size_t crow0 = 0;
		int o = (me - t + P) % P;
		/* this step's block: its data (t <= S) and heaps arrive */
		if (t <= S) {
			s2 = lsv_comm_shift_finish(r->comm, dreq, &got, &nd, err);
			dreq = NULL;
			free(data);  /* sent */
			data = got;
			got = NULL;
			if ((st = lsv_comm_agree(r->comm, s2, err)) != LSV_OK)
				goto done;
			/* passed on while the products below run (read only) */
			if (t < S &&
			    (st = lsv_comm_shift_start(r->comm, data, nd, &dreq, err)))
				goto done;
		}
		if (knn_mode) {
			if ((st = lsv_comm_shift_start(r->comm, heaps, nh, &hreq, err)))
				goto done;
			s2 = lsv_comm_shift_finish(r->comm, hreq, &got, &nh, err);
			hreq = NULL;
			free(heaps);
			heaps = got;
			got = NULL;
			if ((st = lsv_comm_agree(r->comm, s2, err)) != LSV_OK)
				goto done;
		}
		if (t == P) {
			/* home: the heaps of the own rows from the other ranks */
			if (!heap_view(heaps, nh, &hm) || hm.n != r->nq || hm.kk != kc)
				st = lsv_fail(err, LSV_EIO, "a malformed heap message");
			for (i = 0; st == LSV_OK && i < r->nq; i++) {
				int m;
				cand *h = s->heap + i * kc;
				for (m = 0; m < hm.hsize[i]; m++) {
					const cand *c = &hm.h[i * kc + (size_t)m];
					heap_offer(h, &s->hsize[i], s->kc, c->key, c->j);
				}
			}
		} else if (t <= S) {
			size_t q0 = 0, q1 = r->nq, c0 = 0, c1;
			if (!ring_view(data, nd, &C, &crow0) ||
			    (knn_mode && (!heap_view(heaps, nh, &hm) || hm.n != C.n))) {
				st = lsv_fail(err, LSV_EIO, "a malformed block message "
					      "(%zu bytes) at ring step %d", nd, t);
			} else {
				c1 = C.n;
				if (2 * t == P) {
					/* the pair shared: the first half of the
					 * higher rank's rows on the lower rank */
					if (me < o)
						c1 = C.n / 2;
					else
						q0 = r->nq / 2;
				}
				st = ring_step(r, &C, crow0, knn_mode ? &hm : NULL, q0,
					       q1, c0, c1);
			}
		}
		/* t > S: the heaps only pass through, back to their owner */
		if ((st = lsv_comm_agree(r->comm, st, err)) != LSV_OK)
			goto done;
		if (s->p->progress && t <= S)
			s->p->progress(s->p->progress_ctx,
				       (size_t)((double)s->n * (t + 1) / (S + 1)), s->n);
	}
done:
	if (dreq != NULL) {
		/* a failure agreed with a shift in flight: every rank posted
		 * it, so it completes; then its buffers go */
		lsv_error scratch;
		if (lsv_comm_shift_finish(r->comm, dreq, &got, &nd, &scratch) == LSV_OK)
			free(got);
		got = NULL;
	}
	free(data);
	free(heaps);
	free(got);
	return st;
}

lsv_status lsv_knn_pairs_ring(lsv_comm *comm, const lsv_data *q, size_t row0,
			      size_t n, size_t dc, const lsv_graph_param *p,
			      lsv_pair **pairs, size_t *npairs,
			      lsv_graph_info *info, lsv_error *err)
{
	ring r;
	lsv_status st;
	double t0 = now_seconds();

	*pairs = NULL;
	*npairs = 0;
	memset(info, 0, sizeof *info);
	memset(&r, 0, sizeof r);
	r.comm = comm;
	r.nq = q->n;
	r.row0 = row0;
	r.s.p = p;
	r.s.err = err;
	st = ring_setup(&r, q, n, dc, info, err);
	if (st == LSV_OK)
		st = ring_run(&r, q, err);
	if (st == LSV_OK)
		st = ring_picks(&r, pairs, npairs);
	if (st == LSV_OK && p->epsilon > 0.0) {
		int t, failed = 0;
		for (t = 0; t < r.s.threads; t++)
			failed |= r.bufs[t].failed;
		if (failed)
			st = nomem(&r.s, "the epsilon pairs", 0);
	}
	st = lsv_comm_agree(comm, st, err);
	if (st != LSV_OK) {
		free(*pairs);
		*pairs = NULL;
		*npairs = 0;
	}
	info->scan_seconds = now_seconds() - t0;
	info->gemm_seconds = r.s.gemm_seconds;
	ring_free(&r);
	return st;
}

/* The options a distributed build takes: lsv_graph_build's, but not the
 * image distances. */
static lsv_status dist_param_check(const lsv_graph_param *p, lsv_error *err)
{
	lsv_status st = lsv_graph_param_check(p, err);
	if (st == LSV_OK && (p->distance == LSV_DIST_TANGENT ||
			     p->distance == LSV_DIST_ROTATION))
		st = lsv_fail(err, LSV_EINVAL, "the image distances are not "
			      "distributed: run them on one process");
	return st;
}

/* After the blocks are in place (q this rank's rows from row0, m compact
 * features): the ring, the pairs gathered on rank 0 and the graph there. */
static lsv_status dist_tail(lsv_comm *comm, const lsv_data *q, size_t row0,
			    size_t n, size_t m, const lsv_graph_param *p,
			    lsv_graph **out, lsv_graph_info *info,
			    lsv_error *err)
{
	int P = lsv_comm_size(comm), me = lsv_comm_rank(comm), r;
	size_t *counts = calloc((size_t)P, sizeof *counts), np = 0;
	lsv_pair *pairs = NULL;
	void *gathered = NULL;
	lsv_status st = counts != NULL ? LSV_OK
		: lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);

	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	st = lsv_knn_pairs_ring(comm, q, row0, n, m, p, &pairs, &np, info, err);
	if (st != LSV_OK)
		goto done;
	/* the pairs of every rank, in rank order = row order, on rank 0 */
	st = lsv_comm_gatherv(comm, 0, pairs, np * sizeof *pairs, &gathered,
			      counts, err);
	free(pairs);
	pairs = NULL;
	if (st != LSV_OK)
		goto done;
	if (me == 0) {
		size_t total = 0;
		for (r = 0; r < P; r++)
			total += counts[r];
		/* epsilon pairs come from whichever rank multiplied their
		 * blocks: in (row, column) order, as the serial build has them */
		if (p->epsilon > 0.0)
			qsort(gathered, total / sizeof(lsv_pair), sizeof(lsv_pair),
			      pick_cmp);
		st = lsv_graph_assemble(n, gathered, total / sizeof(lsv_pair), p,
					out, info, err);
	}
	st = lsv_comm_agree(comm, st, err);
done:
	if (st != LSV_OK && *out != NULL) {
		lsv_graph_free(*out);
		*out = NULL;
	}
	free(pairs);
	free(gathered);
	free(counts);
	return st;
}

lsv_status lsv_graph_build_dist(lsv_comm *comm, const lsv_data *x,
				const lsv_graph_param *p, lsv_graph **out,
				lsv_graph_info *info, lsv_error *err)
{
	int P = lsv_comm_size(comm), me = lsv_comm_rank(comm), r;
	unsigned long long dims[2] = {0, 0};  /* n, distinct features */
	unsigned char *all = NULL;
	void *part = NULL;
	size_t *counts = NULL, bytes = 0, n, row0;
	lsv_graph_info dummy;
	lsv_data q, cx;
	lsv_status st;

	*out = NULL;
	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof *info);
	memset(&cx, 0, sizeof cx);
	st = dist_param_check(p, err);
	counts = calloc((size_t)P, sizeof *counts);
	if (st == LSV_OK && counts == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);
	/* rank 0 holds the data: the checks of build_picks, then the blocks
	 * with compact columns, packed one after the other */
	if (st == LSV_OK && me == 0) {
		lsv_fmap f;
		size_t k, off = 0;
		if (x->n == 0)
			st = lsv_fail(err, LSV_EINVAL, "no data rows");
		else if (x->n > INT_MAX)
			st = lsv_fail(err, LSV_ETOOBIG, "%zu rows: at most %d are "
				      "supported", x->n, INT_MAX);
		else
			st = check_magnitude(x, 0, err);
		if (st == LSV_OK && (st = lsv_fmap_build(x, NULL, 0, &f, err)) == LSV_OK) {
			cx = *x;
			cx.col = malloc((x->nnz + 1) * sizeof *cx.col);
			if (cx.col == NULL)
				st = lsv_fail(err, LSV_ENOMEM, "out of memory for the "
					      "feature map");
			else
				for (k = 0; k < x->nnz; k++)
					cx.col[k] = lsv_fmap_get(&f, x->col[k]);
			dims[0] = x->n;
			dims[1] = f.m;
			lsv_fmap_free(&f);
		}
		for (r = 0; st == LSV_OK && r < P; r++) {
			size_t a = x->n * (size_t)r / (size_t)P;
			size_t b = x->n * (size_t)(r + 1) / (size_t)P;
			counts[r] = ring_padded(b - a, x->rowptr[b] - x->rowptr[a]);
			bytes += counts[r];
		}
		if (st == LSV_OK && (all = malloc(bytes + 1)) == NULL)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for the row "
				      "blocks (%zu bytes)", bytes);
		for (r = 0; st == LSV_OK && r < P; r++) {
			size_t a = x->n * (size_t)r / (size_t)P;
			size_t b = x->n * (size_t)(r + 1) / (size_t)P;
			ring_pack(&cx, a, b - a, a, all + off);
			off += counts[r];
		}
	}
	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	if ((st = lsv_comm_bcast(comm, 0, dims, sizeof dims, err)) != LSV_OK)
		goto done;
	n = (size_t)dims[0];
	if ((st = lsv_comm_scatterv(comm, 0, all, counts, &part, &bytes, err)))
		goto done;
	free(all);
	all = NULL;
	st = ring_view(part, bytes, &q, &row0)
		? LSV_OK : lsv_fail(err, LSV_EIO, "a malformed row block message");
	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	st = dist_tail(comm, &q, row0, n, (size_t)dims[1], p, out, info, err);
done:
	free(cx.col);
	free(all);
	free(part);
	free(counts);
	return st;
}

/* The rows of every rank's block moved to the blocks [n r / P, n (r + 1)
 * / P): x is this rank's rows [row0, row0 + x->n) with compact columns;
 * *q gets this rank's block (its own arrays) and *qrow0 its first row.
 * One all-to-all; each piece padded to 8 bytes (ring_padded). */
static lsv_status dist_move(lsv_comm *comm, const lsv_data *x, size_t row0,
			    size_t n, lsv_data *q, size_t *qrow0,
			    lsv_error *err)
{
	int P = lsv_comm_size(comm), me = lsv_comm_rank(comm), r;
	size_t *sc = calloc((size_t)P, sizeof *sc), *rc = calloc((size_t)P,
								 sizeof *rc);
	size_t total = 0, off, rows = 0, nnz = 0, end = row0 + x->n;
	unsigned char *send = NULL;
	void *recv = NULL;
	lsv_status st = LSV_OK;

	memset(q, 0, sizeof *q);
	*qrow0 = n * (size_t)me / (size_t)P;
	if (sc == NULL || rc == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);
	for (r = 0; st == LSV_OK && r < P; r++) {
		size_t a = n * (size_t)r / (size_t)P, b = n * (size_t)(r + 1) / (size_t)P;
		if (a < row0)
			a = row0;
		if (b > end)
			b = end;
		if (a < b)
			sc[r] = ring_padded(b - a, x->rowptr[b - row0] -
					    x->rowptr[a - row0]);
		total += sc[r];
	}
	if (st == LSV_OK && (send = malloc(total + 8)) == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the rows to "
			      "move (%zu bytes)", total);
	for (r = 0, off = 0; st == LSV_OK && r < P; off += sc[r], r++) {
		size_t a = n * (size_t)r / (size_t)P;
		if (sc[r] == 0)
			continue;
		if (a < row0)
			a = row0;
		{
			size_t b = n * (size_t)(r + 1) / (size_t)P;
			if (b > end)
				b = end;
			ring_pack(x, a - row0, b - a, a, send + off);
		}
	}
	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	if ((st = lsv_comm_alltoallv(comm, send, sc, &recv, rc, err)) != LSV_OK)
		goto done;
	free(send);
	send = NULL;
	/* the pieces, in rank order = row order: sizes first */
	for (r = 0, off = 0; r < P; off += rc[r], r++) {
		ring_head h;
		if (rc[r] == 0)
			continue;
		memcpy(&h, (unsigned char *)recv + off, sizeof h);
		if (rc[r] < sizeof h || ring_padded(h.n, h.nnz) != rc[r] ||
		    h.row0 != *qrow0 + rows) {
			st = lsv_fail(err, LSV_EIO, "a malformed row block message");
			break;
		}
		rows += h.n;
		nnz += h.nnz;
	}
	if (st == LSV_OK && rows != n * (size_t)(me + 1) / (size_t)P - *qrow0)
		st = lsv_fail(err, LSV_EIO, "a malformed row block message");
	if (st == LSV_OK) {
		q->rowptr = malloc((rows + 1) * sizeof *q->rowptr);
		q->val = malloc((nnz + 1) * sizeof *q->val);
		q->col = malloc((nnz + 1) * sizeof *q->col);
		if (!q->rowptr || !q->val || !q->col)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for a block "
				      "of %zu rows", rows);
	}
	if (st == LSV_OK) {
		q->rowptr[0] = 0;
		for (r = 0, off = 0; r < P; off += rc[r], r++) {
			const unsigned char *b = (unsigned char *)recv + off;
			ring_head h;
			size_t i, rp;
			if (rc[r] == 0)
				continue;
			memcpy(&h, b, sizeof h);
			b += sizeof h;
			for (i = 1; i <= h.n; i++) {
				memcpy(&rp, b + i * sizeof rp, sizeof rp);
				q->rowptr[q->n + i] = q->nnz + rp;
			}
			b += (h.n + 1) * sizeof rp;
			memcpy(q->val + q->nnz, b, h.nnz * sizeof *q->val);
			b += h.nnz * sizeof *q->val;
			memcpy(q->col + q->nnz, b, h.nnz * sizeof *q->col);
			q->n += h.n;
			q->nnz += h.nnz;
		}
	}
	st = lsv_comm_agree(comm, st, err);
done:
	if (st != LSV_OK) {
		free(q->rowptr);
		free(q->val);
		free(q->col);
		memset(q, 0, sizeof *q);
	}
	free(send);
	free(recv);
	free(sc);
	free(rc);
	return st;
}

static int int_order(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

lsv_status lsv_graph_build_dist_rows(lsv_comm *comm, const lsv_data *x,
				     size_t row0, size_t n,
				     const lsv_graph_param *p, lsv_graph **out,
				     lsv_graph_info *info, lsv_error *err)
{
	int P = lsv_comm_size(comm);
	lsv_fmap f, g;
	int *mine = NULL;
	void *all = NULL;
	size_t nmine = 0, bytes = 0, k, m, qrow0 = 0, *counts = NULL;
	lsv_data cx, q;
	lsv_graph_info dummy;
	lsv_status st;

	*out = NULL;
	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof *info);
	memset(&cx, 0, sizeof cx);
	memset(&q, 0, sizeof q);
	memset(&f, 0, sizeof f);
	memset(&g, 0, sizeof g);
	st = dist_param_check(p, err);
	if (st == LSV_OK && n == 0)
		st = lsv_fail(err, LSV_EINVAL, "no data rows");
	else if (st == LSV_OK && n > INT_MAX)
		st = lsv_fail(err, LSV_ETOOBIG, "%zu rows: at most %d are "
			      "supported", n, INT_MAX);
	if (st == LSV_OK)
		st = check_magnitude(x, row0, err);
	/* the features that occur on any rank, numbered in index order as
	 * one process numbers them: each rank's, gathered and merged */
	if (st == LSV_OK && (st = lsv_fmap_build(x, NULL, 0, &f, err)) == LSV_OK) {
		mine = malloc((f.m + 1) * sizeof *mine);
		if (mine == NULL)
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for the "
				      "feature map");
		else if (f.table != NULL) {
			for (k = 0; k < f.dim; k++)
				if (f.table[k] >= 0)
					mine[nmine++] = (int)k;
		} else {
			memcpy(mine, f.sorted, f.m * sizeof *mine);
			nmine = f.m;
		}
	}
	counts = calloc((size_t)P, sizeof *counts);
	if (st == LSV_OK && counts == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %d ranks", P);
	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	if ((st = lsv_comm_allgatherv(comm, mine, nmine * sizeof *mine, &all,
				      counts, err)) != LSV_OK)
		goto done;
	bytes = 0;
	for (k = 0; k < (size_t)P; k++)
		bytes += counts[k];
	m = bytes / sizeof(int);
	qsort(all, m, sizeof(int), int_order);
	{
		int *u = all;
		size_t j = 0;
		for (k = 0; k < m; k++)
			if (j == 0 || u[j - 1] != u[k])
				u[j++] = u[k];
		m = j;
		g.dim = x->dim;
		g.m = m;
		g.sorted = u;
		all = NULL;
		/* a direct table where lsv_fmap_build would make one (features
		 * few against the values): no bisection per value */
		if (x->dim <= 4 * x->nnz + 64 &&
		    (g.table = malloc((x->dim + 1) * sizeof *g.table)) != NULL) {
			for (k = 0; k < x->dim; k++)
				g.table[k] = -1;
			for (k = 0; k < m; k++)
				if ((size_t)u[k] < x->dim)
					g.table[u[k]] = (int)k;
		}
	}
	cx = *x;
	cx.col = malloc((x->nnz + 1) * sizeof *cx.col);
	if (cx.col == NULL)
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the feature map");
	else
		for (k = 0; k < x->nnz; k++)
			cx.col[k] = lsv_fmap_get(&g, x->col[k]);
	if ((st = lsv_comm_agree(comm, st, err)) != LSV_OK)
		goto done;
	if ((st = dist_move(comm, &cx, row0, n, &q, &qrow0, err)) != LSV_OK)
		goto done;
	free(cx.col);
	cx.col = NULL;
	st = dist_tail(comm, &q, qrow0, n, m, p, out, info, err);
done:
	free(q.rowptr);
	free(q.val);
	free(q.col);
	free(cx.col);
	free(mine);
	free(all);
	free(counts);
	lsv_fmap_free(&f);
	lsv_fmap_free(&g);
	return st;
}
