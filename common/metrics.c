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
