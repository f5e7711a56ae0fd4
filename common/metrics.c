/*
 * metrics.c -- quality measures of decision values.
 *
 * The precision-recall break-even point (PRBEP) is the measure the JMLR
 * 2006 paper reports for its text experiments: rank the n rows by
 * decreasing score and call the top P positive, P being the number of
 * true positives in the set.  Then predicted and actual positives are
 * equally many, so precision = recall = TP / P, and the threshold errs on
 * FP = P - TP negatives and as many FN positives: error (FP + FN) / n.
 *
 * Ties: when the P-th score is shared by a group of g rows (gp of them
 * positive, `above` rows scoring strictly higher, above < P <= above + g),
 * which k = P - above of the group are "in the top P" is arbitrary; taking
 * them by index made PRBEP depend on the order of the file (100% sorted
 * by class, 0% reversed).  So TP is the expectation over a random order of
 * the tied rows: (positives above) + k gp / g.  It depends only on counts,
 * hence not on row order, and without ties (g = 1) it is the plain count.
 *
 * Only TP among the top P is needed, not a full ranking.  An order key
 * (the bits of a double, flipped so that unsigned comparison is numeric
 * comparison) turns "the P-th largest score" into a search over 64-bit
 * integers: 64 counting passes, O(n) each, and no memory, so this cannot
 * fail on a large set.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"

/* Monotone key: a < b (as doubles) iff key(a) < key(b).  -0 is +0 (they
 * tie, as they compare equal), and NaN gets 0, ranking below -inf (the
 * key of -inf is 0x000fffffffffffff). */
static uint64_t order_key(double x)
{
	uint64_t b;

	if (isnan(x))
		return 0;
	if (x == 0.0)
		x = 0.0;
	memcpy(&b, &x, sizeof b);
	return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

double lsv_prbep(const double *score, const int *pos, size_t n,
		 double *err_rate)
{
	uint64_t lo = 0, hi = UINT64_MAX, k;
	size_t i, npos = 0, ge, above = 0, tp_above = 0, g = 0, gp = 0, take;
	double tpg;

	for (i = 0; i < n; i++)
		npos += pos[i] != 0;
	if (npos == 0) {
		if (err_rate != NULL)
			*err_rate = 0.0;
		return 0.0;
	}
	/* Largest k with #{i : key_i >= k} >= P: the key of the P-th score. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2 + 1;
		for (ge = 0, i = 0; i < n; i++)
			ge += order_key(score[i]) >= mid;
		if (ge >= npos)
			lo = mid;
		else
			hi = mid - 1;
	}
	k = lo;
	/* The rows above k are all in the top P; of the g rows tying at k,
	 * take = P - above are, gp / g of them positive on average. */
	for (i = 0; i < n; i++) {
		uint64_t ki = order_key(score[i]);
		if (ki > k) {
			above++;
			tp_above += pos[i] != 0;
		} else if (ki == k) {
			g++;
			gp += pos[i] != 0;
		}
	}
	take = npos - above;
	/* TP = tp_above + take gp / g; kept as the exact integer TP * g so
	 * that each result is one correctly rounded division (exact below
	 * 2^53): equal ratios then give bitwise-equal answers. */
	tpg = (double)tp_above * (double)g + (double)take * (double)gp;
	if (err_rate != NULL)
		*err_rate = 2.0 * ((double)npos * (double)g - tpg)
			    / ((double)n * (double)g);
	return tpg / ((double)npos * (double)g);
}

/*
 * Clustering against classes.  The contingency table N (nc clusters x q
 * classes) holds everything: the accuracy under the best one-to-one
 * matching is max over matchings of sum N[i][match(i)] / n, an assignment
 * problem solved exactly by the Hungarian method (Kuhn-Munkres with
 * potentials, O(s^3) for s = max(nc, q), the table padded with zeros to
 * s x s; a padded row or column is a cluster or class left unmatched, its
 * rows wrong).  NMI from the same table: I = sum N_ij/n log(n N_ij /
 * (a_i b_j)), H(C) = -sum a_i/n log(a_i/n), H(Y) likewise, NMI =
 * I / ((H(C) + H(Y)) / 2).
 */

/* The minimum-cost perfect matching of the s x s cost matrix a (row-major):
 * row i goes to column col[i].  Shortest augmenting paths with row and
 * column potentials (the classic O(s^3) formulation, 1-based inside). */
static int hungarian(const double *a, size_t s, size_t *col)
{
	double *u = calloc(s + 1, sizeof *u), *v = calloc(s + 1, sizeof *v);
	double *minv = malloc((s + 1) * sizeof *minv);
	size_t *p = calloc(s + 1, sizeof *p), *way = calloc(s + 1, sizeof *way);
	unsigned char *used = malloc(s + 1);
	size_t i, j;

	if (!u || !v || !minv || !p || !way || !used) {
		free(u); free(v); free(minv); free(p); free(way); free(used);
		return -1;
	}
	for (i = 1; i <= s; i++) {
		size_t j0 = 0;
		p[0] = i;
		for (j = 0; j <= s; j++) {
			minv[j] = HUGE_VAL;
			used[j] = 0;
		}
		do {
			size_t i0 = p[j0], j1 = 0;
			double delta = HUGE_VAL;
			used[j0] = 1;
			for (j = 1; j <= s; j++) {
				if (used[j])
					continue;
				{
					double cur = a[(i0 - 1) * s + (j - 1)] - u[i0] - v[j];
					if (cur < minv[j]) {
						minv[j] = cur;
						way[j] = j0;
					}
				}
				if (minv[j] < delta) {
					delta = minv[j];
					j1 = j;
				}
			}
			for (j = 0; j <= s; j++) {
				if (used[j]) {
					u[p[j]] += delta;
					v[j] -= delta;
				} else {
					minv[j] -= delta;
				}
			}
			j0 = j1;
		} while (p[j0] != 0);
		do {
			size_t j1 = way[j0];
			p[j0] = p[j1];
			j0 = j1;
		} while (j0 != 0);
	}
	for (j = 1; j <= s; j++)
		col[p[j] - 1] = j - 1;
	free(u); free(v); free(minv); free(p); free(way); free(used);
	return 0;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

lsv_status lsv_cluster_agreement(const int *cluster, int nc,
				 const double *label, size_t n, double *acc,
				 size_t *matched, double *nmi, lsv_error *err)
{
	double *cls = NULL, *N = NULL, *cost = NULL, *a = NULL, *b = NULL;
	size_t *col = NULL, q = 0, s, i, j, right = 0;
	double I = 0.0, HC = 0.0, HY = 0.0;
	lsv_status st = LSV_OK;

	*acc = 0.0;
	*nmi = 0.0;
	if (matched != NULL)
		*matched = 0;
	if (n == 0)
		return LSV_OK;
	if (nc < 1)
		return lsv_fail(err, LSV_EINVAL, "%d clusters (expected >= 1)", nc);
	for (i = 0; i < n; i++)
		if (cluster[i] < 0 || cluster[i] >= nc)
			return lsv_fail(err, LSV_EINVAL, "row %zu: cluster %d out of "
					"range (expected 0..%d)", i + 1, cluster[i],
					nc - 1);
	/* the classes: the distinct labels, sorted */
	if ((cls = malloc(n * sizeof *cls)) == NULL)
		goto nomem;
	memcpy(cls, label, n * sizeof *cls);
	qsort(cls, n, sizeof *cls, double_cmp);
	for (i = 0; i < n; i++)
		if (q == 0 || cls[q - 1] != cls[i])
			cls[q++] = cls[i];
	s = q > (size_t)nc ? q : (size_t)nc;
	if (s > 4096) {
		st = lsv_fail(err, LSV_ETOOBIG, "%zu classes and %d clusters: "
			      "too many to match (at most 4096)", q, nc);
		goto done;
	}
	if ((N = calloc(s * s, sizeof *N)) == NULL ||
	    (cost = malloc(s * s * sizeof *cost)) == NULL ||
	    (col = malloc(s * sizeof *col)) == NULL ||
	    (a = calloc(s, sizeof *a)) == NULL || (b = calloc(s, sizeof *b)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		const double *hit = bsearch(&label[i], cls, q, sizeof *cls,
					    double_cmp);
		j = (size_t)(hit - cls);
		N[(size_t)cluster[i] * s + j] += 1.0;
		a[cluster[i]] += 1.0;
		b[j] += 1.0;
	}
	/* maximize the matched count: minimize its negative */
	for (i = 0; i < s * s; i++)
		cost[i] = -N[i];
	if (hungarian(cost, s, col) != 0)
		goto nomem;
	for (i = 0; i < s; i++)
		right += (size_t)N[i * s + col[i]];
	*acc = (double)right / (double)n;
	if (matched != NULL)
		*matched = right;
	for (i = 0; i < s; i++) {
		if (a[i] > 0.0)
			HC -= a[i] / (double)n * log(a[i] / (double)n);
		if (b[i] > 0.0)
			HY -= b[i] / (double)n * log(b[i] / (double)n);
		for (j = 0; j < s; j++)
			if (N[i * s + j] > 0.0)
				I += N[i * s + j] / (double)n *
				     log((double)n * N[i * s + j] / (a[i] * b[j]));
	}
	*nmi = HC + HY > 0.0 ? fmax(0.0, I / (0.5 * (HC + HY))) : 1.0;
	goto done;
nomem:
	st = lsv_fail(err, LSV_ENOMEM, "out of memory for the contingency table");
done:
	free(cls);
	free(N);
	free(cost);
	free(col);
	free(a);
	free(b);
	return st;
}
