/*
 * weights.c -- the weights and symmetrization of a graph (JMLR 2006,
 * Table 1, step 1): from the pairs the neighbour search chose (knn.c) to
 * the symmetric weight matrix W in compressed sparse row form.
 *
 * Weights of a chosen pair at distance d (Euclidean |a - b|, or cosine
 * 1 - a.b / (|a| |b|)):
 *   binary    w = 1
 *   heat      w = exp(-d^2 / (4 t))  (JMLR Table 1; other codes write
 *             exp(-d^2 / (2 sigma^2)), the same with t = sigma^2 / 2).
 *             t is p->t when it is > 0; otherwise the mean of d^2 over
 *             the pairs as given (kNN: each directed choice once, also
 *             those that mutual symmetrization drops; epsilon: both
 *             directions of each pair), or 1 if there are none.  A pair
 *             at distance 0 weighs 1 whatever t is: the limit of the
 *             kernel as d -> 0 (t is 0 when every chosen pair is a
 *             duplicate).
 *   distance  w = d
 * A weight that is not > 0 (the distance weight of duplicate points, a
 * heat weight that underflows) is no edge: it is dropped, and counted once
 * per undirected edge in info->dropped.
 *
 * Symmetrization.  In kNN mode the pairs are directed (row i chose j):
 * union (the default) keeps the edge i-j if either end chose the other,
 * W = max(W, W^T); mutual (p->mutual) only if both did.  Both directions
 * of an edge have the same weight (the distances are computed
 * symmetrically, bit for bit).  In epsilon mode the pairs already hold
 * both directions of every pair closer than epsilon, and all are kept.
 *
 * The result stores both directions, columns increasing within each row,
 * no self loop and every weight > 0; rows with no edge left are counted in
 * info->isolated.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

static double weight_of(const lsv_graph_param *p, const lsv_pair *pk,
			double t)
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
	if (pk->d2 == 0.0)
		return 1.0;
	/* 4t overflows for t above DBL_MAX/4 (squared distances near
	 * DBL_MAX, which the reader allows): the same ratio, divided first */
	return isfinite(4.0 * t) ? exp(-pk->d2 / (4.0 * t))
				 : exp(-(pk->d2 / t) / 4.0);
}

static lsv_status nomem(lsv_error *err, const char *what, size_t bytes)
{
	return lsv_fail(err, LSV_ENOMEM, "out of memory for %s (%zu bytes)",
			what, bytes);
}

/* The heat width t when none is given: the mean of d^2 over the pairs as
 * given, 1 when there are none.  Squared distances near DBL_MAX overflow
 * the sum though their mean is finite: then the sum of d^2 / npairs. */
static double mean_d2(const lsv_pair *pairs, size_t npairs)
{
	double sum = 0.0;
	size_t e;

	for (e = 0; e < npairs; e++)
		sum += pairs[e].d2;
	if (isinf(sum))
		for (sum = 0.0, e = 0; e < npairs; e++)
			sum += pairs[e].d2 / (double)npairs;
	else if (npairs > 0)
		sum /= (double)npairs;
	return npairs ? sum : 1.0;
}

/* Both directions of every pair, weighted, into the rows of ent by a
 * counting sort: row i's entries in ent[start[i] .. start[i + 1]) (fill:
 * n + 1 scratch). */
static void rows_of_pairs(size_t n, const lsv_pair *pairs, size_t npairs,
			  const lsv_graph_param *p, double t, size_t *start,
			  size_t *fill, entry *ent)
{
	size_t e, i;

	for (e = 0; e < npairs; e++) {
		start[pairs[e].i + 1]++;
		start[pairs[e].j + 1]++;
	}
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	memcpy(fill, start, (n + 1) * sizeof *fill);
	for (e = 0; e < npairs; e++) {
		const lsv_pair *pk = &pairs[e];
		entry en = {pk->j, 1, weight_of(p, pk, t)};
		ent[fill[pk->i]++] = en;
		en.j = pk->i;
		ent[fill[pk->j]++] = en;
	}
}

/* Within each row: sort by column, merge the two directions of an edge
 * into one entry that counts them; end[i] the end of merged row i.  In
 * epsilon mode each pair was found from both ends, so a merged entry
 * counts 2 (or 4); in kNN mode 2 means mutual. */
static void merge_rows(size_t n, const size_t *start, entry *ent,
		       size_t *end)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t a = start[i], b = start[i + 1], r, w = a;
		qsort(ent + a, b - a, sizeof *ent, entry_cmp);
		for (r = a; r < b; r++) {
			if (w > a && ent[w - 1].j == ent[r].j)
				ent[w - 1].count++;
			else
				ent[w++] = ent[r];
		}
		end[i] = w;
	}
}

/* The edges kept: chosen by enough ends (need) and of weight > 0; those
 * of weight not > 0 counted once per undirected edge in *dropped. */
static size_t count_kept(size_t n, const size_t *start, const size_t *end,
			 const entry *ent, int need, size_t *dropped)
{
	size_t i, nnz = 0;

	*dropped = 0;
	for (i = 0; i < n; i++) {
		size_t r;
		for (r = start[i]; r < end[i]; r++) {
			if (ent[r].count < need)
				continue;
			if (!(ent[r].w > 0.0)) {
				if ((size_t)ent[r].j > i)
					(*dropped)++;
				continue;
			}
			nnz++;
		}
	}
	return nnz;
}

/* g's rows from the kept entries (g->rowptr, col, w allocated for them);
 * *isolated the rows left with none. */
static void fill_kept(lsv_graph *g, const size_t *start, const size_t *end,
		      const entry *ent, int need, size_t *isolated)
{
	size_t i, nnz = 0, n = g->n;

	*isolated = 0;
	for (i = 0; i < n; i++) {
		size_t r;
		g->rowptr[i] = nnz;
		for (r = start[i]; r < end[i]; r++) {
			if (ent[r].count < need || !(ent[r].w > 0.0))
				continue;
			g->col[nnz] = ent[r].j;
			g->w[nnz] = ent[r].w;
			nnz++;
		}
		if (nnz == g->rowptr[i])
			(*isolated)++;
	}
	g->rowptr[n] = nnz;
}

lsv_status lsv_graph_assemble(size_t n, const lsv_pair *pairs, size_t npairs,
			      const lsv_graph_param *p, lsv_graph **out,
			      lsv_graph_info *info, lsv_error *err)
{
	size_t tot = 2 * npairs, nnz;
	size_t *start = NULL, *fill = NULL;
	entry *ent = NULL;
	lsv_graph *g = NULL;
	double t = p->t;
	/* epsilon mode already holds both directions of every pair */
	int need = (p->epsilon > 0.0 || !p->mutual) ? 1 : 2;
	lsv_status st = LSV_OK;

	*out = NULL;
	if (p->weight == LSV_WEIGHT_HEAT && !(t > 0.0))
		t = mean_d2(pairs, npairs);
	info->t = p->weight == LSV_WEIGHT_HEAT ? t : 0.0;

	start = calloc(n + 1, sizeof *start);
	fill = malloc((n + 1) * sizeof *fill);
	ent = lsv_malloc_mapped((tot ? tot : 1) * sizeof *ent);
	g = calloc(1, sizeof *g);
	if (!start || !fill || !ent || !g) {
		st = nomem(err, "graph assembly", tot * sizeof *ent);
		goto fail;
	}
	rows_of_pairs(n, pairs, npairs, p, t, start, fill, ent);
	merge_rows(n, start, ent, fill);  /* fill: the merged rows' ends */
	g->n = n;
	g->rowptr = malloc((n + 1) * sizeof *g->rowptr);
	if (g->rowptr == NULL) {
		st = nomem(err, "graph", (n + 1) * sizeof *g->rowptr);
		goto fail;
	}
	nnz = count_kept(n, start, fill, ent, need, &info->dropped);
	g->nnz = nnz;
	g->col = lsv_malloc_mapped((nnz ? nnz : 1) * sizeof *g->col);
	g->w = lsv_malloc_mapped((nnz ? nnz : 1) * sizeof *g->w);
	if (g->col == NULL || g->w == NULL) {
		st = nomem(err, "graph", nnz * (sizeof *g->col + sizeof *g->w));
		goto fail;
	}
	fill_kept(g, start, fill, ent, need, &info->isolated);
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
