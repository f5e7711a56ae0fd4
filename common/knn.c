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
 * Weights: binary 1; heat exp(-d^2 / (4 t)) (JMLR Table 1; note other codes
 * use exp(-d^2 / (2 t^2))) with t by default the mean squared distance of
 * the chosen pairs; or the distance d itself.  A weight that is 0 (the
 * distance of duplicate points, a heat weight that underflows) is not an
 * edge: it is dropped and counted.
 *
 * Cosine distance is undefined for a row with no non-zero value; such rows
 * are left isolated (they neither choose nor are chosen).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

#define SNAP 1e-10                    /* relative size of a "zero" key */
#define BLOCK_BYTES (128u << 20)      /* budget for the dense blocks */
#define MAX_BLOCK_BYTES ((size_t)4 << 30)

void lsv_graph_param_default(lsv_graph_param *p)
{
	memset(p, 0, sizeof *p);
	p->k = 6;
	p->epsilon = 0.0;
	p->mutual = 0;
	p->distance = LSV_DIST_EUCLIDEAN;
	p->weight = LSV_WEIGHT_HEAT;
	p->t = 0.0;
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
	if (p->distance != LSV_DIST_EUCLIDEAN && p->distance != LSV_DIST_COSINE)
		return lsv_fail(err, LSV_EINVAL, "unknown distance %d",
				(int)p->distance);
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

/* An undirected entry before symmetrization: row i chose (or is) j. */
typedef struct {
	int i, j;
	double d2;  /* squared distance */
	double d;   /* distance */
} pick;

static int pick_cmp(const void *pa, const void *pb)
{
	const pick *a = pa, *b = pb;
	if (a->i != b->i)
		return (a->i > b->i) - (a->i < b->i);
	return (a->j > b->j) - (a->j < b->j);
}

typedef struct {
	const lsv_data *x;
	const lsv_graph_param *p;
	size_t n, dc;        /* rows, distinct features */
	int *ccol;           /* compact column of every stored value */
	double *sq;          /* |x_i|^2 */
	double *nrm;         /* |x_i| (cosine) */
	double *A, *X, *G;   /* query block, candidate tile, products */
	size_t B, T;         /* rows per block, rows per tile */
	int kk, kc;          /* neighbours kept; candidates kept per row */
	pick *picks;         /* chosen pairs */
	size_t npicks, cap_picks;
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

/* Densify rows [r0, r0 + cnt) into D (dc x cnt, column-major: one row of
 * the data per column), scaled to unit length for the cosine distance. */
static void densify(const knn *s, size_t r0, size_t cnt, double *D)
{
	const lsv_data *x = s->x;
	size_t i, p;

	memset(D, 0, cnt * s->dc * sizeof *D);
	for (i = 0; i < cnt; i++) {
		size_t r = r0 + i;
		double scale = 1.0;
		if (s->p->distance == LSV_DIST_COSINE)
			scale = s->nrm[r] > 0.0 ? 1.0 / s->nrm[r] : 0.0;
		for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++)
			D[i * s->dc + (size_t)s->ccol[p]] = x->val[p] * scale;
	}
}

/* The exact ranking key of pair (a, b): squared distance or cosine
 * distance; and fill the pick's distance fields. */
static double exact_key(const knn *s, size_t a, size_t b, pick *pk)
{
	double key;

	if (s->p->distance == LSV_DIST_COSINE) {
		key = 1.0 - sparse_dot(s->x, a, b) / (s->nrm[a] * s->nrm[b]);
		if (key < 0.0)
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

static lsv_status add_pick(knn *s, const pick *pk)
{
	if (s->npicks == s->cap_picks) {
		size_t c = s->cap_picks ? 2 * s->cap_picks : 1024;
		pick *q;
		if (c > SIZE_MAX / sizeof *q)
			return nomem(s, "graph edges", SIZE_MAX);
		q = realloc(s->picks, c * sizeof *q);
		if (q == NULL)
			return nomem(s, "graph edges", c * sizeof *q);
		s->picks = q;
		s->cap_picks = c;
	}
	s->picks[s->npicks++] = *pk;
	return LSV_OK;
}

static int is_zero_row(const knn *s, size_t i)
{
	return s->p->distance == LSV_DIST_COSINE && s->nrm[i] == 0.0;
}

/* Candidate key from the dgemm product g = <a, b> (scaled for cosine). */
static double gemm_key(const knn *s, size_t a, size_t b, double g)
{
	double key;

	if (s->p->distance == LSV_DIST_COSINE) {
		key = 1.0 - g;
		if (key < SNAP)
			key = 0.0;
		return key;
	}
	key = s->sq[a] + s->sq[b] - 2.0 * g;
	if (key < SNAP * (s->sq[a] + s->sq[b]))
		key = 0.0;
	return key;
}

/* Pass over all (query block x candidate tile) pairs: the O(n^2 d) part. */
static lsv_status scan(knn *s)
{
	const lsv_graph_param *p = s->p;
	size_t n = s->n, r0, c0, i, j;
	int eps_mode = p->epsilon > 0.0;
	double eps_key = p->distance == LSV_DIST_COSINE ? p->epsilon
							 : p->epsilon * p->epsilon;
	cand *heaps = NULL, *tmp = NULL;
	int *hsize = NULL;
	lsv_status st = LSV_OK;
	const double one = 1.0, zero = 0.0;

	if (!eps_mode) {
		heaps = malloc(s->B * (size_t)(s->kc ? s->kc : 1) * sizeof *heaps);
		hsize = malloc(s->B * sizeof *hsize);
		tmp = malloc((size_t)(s->kc ? s->kc : 1) * sizeof *tmp);
		if (heaps == NULL || hsize == NULL || tmp == NULL) {
			st = nomem(s, "candidate heaps",
				   s->B * (size_t)s->kc * sizeof *heaps);
			goto done;
		}
	}
	for (r0 = 0; r0 < n; r0 += s->B) {
		size_t b = n - r0 < s->B ? n - r0 : s->B, first = s->npicks;
		if (!eps_mode)
			memset(hsize, 0, b * sizeof *hsize);
		densify(s, r0, b, s->A);
		for (c0 = 0; c0 < n; c0 += s->T) {
			size_t tb = n - c0 < s->T ? n - c0 : s->T;
			if (s->dc > 0) {
				int M = (int)tb, N = (int)b, K = (int)s->dc;
				densify(s, c0, tb, s->X);
				/* G (tb x b) = X^T A: G[j + i tb] = <x_c0+j, x_r0+i> */
				dgemm_("T", "N", &M, &N, &K, &one, s->X, &K, s->A, &K,
				       &zero, s->G, &M, 1, 1);
			} else {
				memset(s->G, 0, tb * b * sizeof *s->G);
			}
			for (i = 0; i < b; i++) {
				size_t q = r0 + i;
				const double *g = s->G + i * tb;
				if (is_zero_row(s, q))
					continue;
				for (j = 0; j < tb; j++) {
					size_t c = c0 + j;
					double key;
					if (c == q || is_zero_row(s, c))
						continue;
					key = gemm_key(s, q, c, g[j]);
					if (!eps_mode) {
						heap_offer(heaps + i * (size_t)s->kc,
							   &hsize[i], s->kc, key, (int)c);
					} else if (key <= eps_key * (1.0 + 1e-9) +
						   SNAP * (s->sq[q] + s->sq[c] + 1.0)) {
						pick pk = {(int)q, (int)c, 0, 0};
						exact_key(s, q, c, &pk);
						/* compare distances, not squares: eps^2
						 * underflows for eps < 1e-162 */
						if (pk.d < p->epsilon &&
						    (st = add_pick(s, &pk)) != LSV_OK)
							goto done;
					}
				}
			}
		}
		if (!eps_mode) {
			/* Re-rank the survivors exactly and keep the best kk. */
			for (i = 0; i < b; i++) {
				size_t q = r0 + i;
				int h = hsize[i], m, t;
				cand *hp = heaps + i * (size_t)s->kc;
				for (t = 0; t < h; t++) {
					pick pk;
					tmp[t].j = hp[t].j;
					tmp[t].key = exact_key(s, q, (size_t)hp[t].j, &pk);
				}
				qsort(tmp, (size_t)h, sizeof *tmp, cand_cmp);
				m = h < s->kk ? h : s->kk;
				for (t = 0; t < m; t++) {
					pick pk = {(int)q, tmp[t].j, 0, 0};
					exact_key(s, q, (size_t)tmp[t].j, &pk);
					if ((st = add_pick(s, &pk)) != LSV_OK)
						goto done;
				}
			}
		}
		if (eps_mode && s->npicks > first)  /* row-major, whatever the tiling */
			qsort(s->picks + first, s->npicks - first, sizeof *s->picks,
			      pick_cmp);
		if (p->progress)
			p->progress(p->progress_ctx, r0 + b, n);
	}
done:
	free(heaps);
	free(hsize);
	free(tmp);
	return st;
}

/* Entry of the symmetrized matrix during assembly. */
typedef struct {
	int j;
	int count;   /* 1: one end chose it; 2: both did */
	double w;
} entry;

static int entry_cmp(const void *pa, const void *pb)
{
	const entry *a = pa, *b = pb;
	return (a->j > b->j) - (a->j < b->j);
}

static double weight_of(const lsv_graph_param *p, const pick *pk, double t)
{
	switch (p->weight) {
	case LSV_WEIGHT_BINARY:
		return 1.0;
	case LSV_WEIGHT_DISTANCE:
		return pk->d;
	case LSV_WEIGHT_HEAT:
		break;
	}
	/* Coincident points weigh 1 whatever t is (t may be 0 when all the
	 * chosen pairs are duplicates): the limit of exp(-d^2/4t), d -> 0. */
	return pk->d2 == 0.0 ? 1.0 : exp(-pk->d2 / (4.0 * t));
}

/* Union (or mutual) symmetrization and weights; builds the CSR graph. */
static lsv_status assemble(knn *s, lsv_graph **out, lsv_graph_info *info)
{
	const lsv_graph_param *p = s->p;
	size_t n = s->n, e, i, tot = 2 * s->npicks, nnz = 0;
	size_t *start = NULL, *fill = NULL;
	entry *ent = NULL;
	lsv_graph *g = NULL;
	double t = p->t;
	/* epsilon mode already holds both directions of every pair */
	int need = (p->epsilon > 0.0 || !p->mutual) ? 1 : 2;
	lsv_status st = LSV_OK;

	if (p->weight == LSV_WEIGHT_HEAT && !(t > 0.0)) {
		double sum = 0.0;
		for (e = 0; e < s->npicks; e++)
			sum += s->picks[e].d2;
		t = s->npicks ? sum / (double)s->npicks : 1.0;
	}
	info->t = p->weight == LSV_WEIGHT_HEAT ? t : 0.0;

	start = calloc(n + 1, sizeof *start);
	fill = malloc((n + 1) * sizeof *fill);
	ent = malloc((tot ? tot : 1) * sizeof *ent);
	g = calloc(1, sizeof *g);
	if (!start || !fill || !ent || !g) {
		st = nomem(s, "graph assembly", tot * sizeof *ent);
		goto fail;
	}
	/* Counting sort of both directions of every pick into rows. */
	for (e = 0; e < s->npicks; e++) {
		start[s->picks[e].i + 1]++;
		start[s->picks[e].j + 1]++;
	}
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	memcpy(fill, start, (n + 1) * sizeof *fill);
	for (e = 0; e < s->npicks; e++) {
		const pick *pk = &s->picks[e];
		entry en = {pk->j, 1, weight_of(p, pk, t)};
		ent[fill[pk->i]++] = en;
		en.j = pk->i;
		ent[fill[pk->j]++] = en;
	}
	/* Within each row: sort by column, merge the two directions. */
	for (i = 0; i < n; i++) {
		size_t a = start[i], b = start[i + 1], r, w = a;
		qsort(ent + a, b - a, sizeof *ent, entry_cmp);
		for (r = a; r < b; r++) {
			if (w > a && ent[w - 1].j == ent[r].j)
				ent[w - 1].count++;
			else
				ent[w++] = ent[r];
		}
		fill[i] = w;  /* end of the merged row */
	}
	/* In epsilon mode each pair was found from both ends, so a merged
	 * entry counts 2 (or 4); in kNN mode 2 means mutual. */
	g->n = n;
	g->rowptr = malloc((n + 1) * sizeof *g->rowptr);
	if (g->rowptr == NULL) {
		st = nomem(s, "graph", (n + 1) * sizeof *g->rowptr);
		goto fail;
	}
	info->dropped = 0;
	for (i = 0; i < n; i++) {
		size_t r;
		for (r = start[i]; r < fill[i]; r++) {
			if (ent[r].count < need)
				continue;
			if (!(ent[r].w > 0.0)) {
				if ((size_t)ent[r].j > i)
					info->dropped++;
				continue;
			}
			nnz++;
		}
	}
	g->nnz = nnz;
	g->col = malloc((nnz ? nnz : 1) * sizeof *g->col);
	g->w = malloc((nnz ? nnz : 1) * sizeof *g->w);
	if (g->col == NULL || g->w == NULL) {
		st = nomem(s, "graph", nnz * (sizeof *g->col + sizeof *g->w));
		goto fail;
	}
	nnz = 0;
	info->isolated = 0;
	for (i = 0; i < n; i++) {
		size_t r;
		g->rowptr[i] = nnz;
		for (r = start[i]; r < fill[i]; r++) {
			if (ent[r].count < need || !(ent[r].w > 0.0))
				continue;
			g->col[nnz] = ent[r].j;
			g->w[nnz] = ent[r].w;
			nnz++;
		}
		if (nnz == g->rowptr[i])
			info->isolated++;
	}
	g->rowptr[n] = nnz;
	info->edges = nnz / 2;
	free(start);
	free(fill);
	free(ent);
	*out = g;
	return LSV_OK;
fail:
	free(start);
	free(fill);
	free(ent);
	lsv_graph_free(g);
	return st;
}

lsv_status lsv_graph_build(const lsv_data *x, const lsv_graph_param *p,
			   lsv_graph **out, lsv_graph_info *info,
			   lsv_error *err)
{
	knn s;
	lsv_graph_info dummy;
	lsv_status st;
	size_t i, avail, bytes;

	*out = NULL;
	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof *info);
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
	if ((st = compact_features(&s)) != LSV_OK)
		goto done;

	s.sq = malloc(s.n * sizeof *s.sq);
	s.nrm = malloc(s.n * sizeof *s.nrm);
	if (s.sq == NULL || s.nrm == NULL) {
		st = nomem(&s, "row norms", 2 * s.n * sizeof(double));
		goto done;
	}
	for (i = 0; i < s.n; i++) {
		size_t q;
		double v = 0.0;
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
			v += x->val[q] * x->val[q];
		s.sq[i] = v;
		s.nrm[i] = sqrt(v);
		if (v == 0.0)
			info->zero_rows++;
	}
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
	}
	info->k = s.kk;

	/* Block sizes: as large as 512 rows while the dense blocks fit in the
	 * budget; a caller's block size is taken as given. */
	if (p->block > 0) {
		s.B = s.T = p->block;
	} else {
		s.B = s.T = 512;
		while (s.B > 16 && (s.B + s.T) * s.dc * sizeof(double) > BLOCK_BYTES)
			s.B /= 2, s.T /= 2;
	}
	if (s.B > s.n)
		s.B = s.n;
	if (s.T > s.n)
		s.T = s.n;
	if (s.B > INT_MAX || s.dc > INT_MAX / 2 ||
	    s.dc > MAX_BLOCK_BYTES / sizeof(double) / (s.B + s.T)) {
		st = lsv_fail(err, LSV_ETOOBIG,
			      "the data has %zu distinct features: dense blocks of "
			      "%zu rows would need more than %zu bytes", s.dc,
			      s.B + s.T, MAX_BLOCK_BYTES);
		goto done;
	}
	bytes = (s.B + s.T) * (s.dc ? s.dc : 1) * sizeof(double);
	s.A = malloc(s.B * (s.dc ? s.dc : 1) * sizeof *s.A);
	s.X = malloc(s.T * (s.dc ? s.dc : 1) * sizeof *s.X);
	s.G = malloc(s.B * s.T * sizeof *s.G);
	if (s.A == NULL || s.X == NULL || s.G == NULL) {
		st = nomem(&s, "distance blocks", bytes + s.B * s.T * sizeof(double));
		goto done;
	}
	if ((st = scan(&s)) != LSV_OK)
		goto done;
	free(s.A);
	free(s.X);
	free(s.G);
	s.A = s.X = s.G = NULL;
	st = assemble(&s, out, info);
done:
	free(s.ccol);
	free(s.sq);
	free(s.nrm);
	free(s.A);
	free(s.X);
	free(s.G);
	free(s.picks);
	return st;
}
