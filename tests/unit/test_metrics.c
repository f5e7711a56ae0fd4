/* The precision-recall break-even point, against rankings worked out by
 * hand, and against a plain sort on a larger random set. */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

static void prbep_hand_ranking(void)
{
	/* Positives at ranks 1 and 3: P = 2, the top 2 hold 1 positive:
	 * PRBEP 1/2, error (FP + FN)/n = 2 (2 - 1)/5 = 0.4. */
	double s[5] = {0.9, 0.8, 0.7, 0.6, 0.5}, er = -1;
	int pos[5] = {1, 0, 1, 0, 0};
	CHECK(lsv_prbep(s, pos, 5, &er) == 0.5);
	CHECK(er == 0.4);
}

static void prbep_order_of_rows_does_not_matter(void)
{
	/* The same ranking, rows shuffled. */
	double s[5] = {0.6, 0.7, 0.5, 0.9, 0.8}, er = -1;
	int pos[5] = {0, 1, 0, 1, 0};
	CHECK(lsv_prbep(s, pos, 5, &er) == 0.5);
	CHECK(er == 0.4);
}

static void prbep_all_positives_first(void)
{
	double s[6] = {3, -1, 2, -2, 2.5, 0}, er = -1;
	int pos[6] = {1, 0, 1, 0, 1, 0};
	CHECK(lsv_prbep(s, pos, 6, &er) == 1.0);
	CHECK(er == 0.0);
}

static void prbep_all_positives_last(void)
{
	double s[4] = {4, 3, 2, 1}, er = -1;
	int pos[4] = {0, 0, 1, 1};
	CHECK(lsv_prbep(s, pos, 4, &er) == 0.0);
	CHECK(er == 1.0);   /* 2 (2 - 0) / 4 */
}

static void prbep_no_positive_is_zero(void)
{
	double s[3] = {1, 2, 3}, er = -1;
	int pos[3] = {0, 0, 0};
	CHECK(lsv_prbep(s, pos, 3, &er) == 0.0);
	CHECK(er == 0.0);
	CHECK(lsv_prbep(NULL, NULL, 0, &er) == 0.0);
	CHECK(er == 0.0);
	CHECK(lsv_prbep(s, pos, 3, NULL) == 0.0);   /* err_rate may be NULL */
}

static void prbep_ties_broken_by_index(void)
{
	/* All scores equal: the top P are the first P rows by index. */
	double s[4] = {1, 1, 1, 1}, er;
	int first[4] = {1, 0, 0, 0}, last[4] = {0, 0, 0, 1};
	int two[4] = {0, 1, 1, 0};
	CHECK(lsv_prbep(s, first, 4, &er) == 1.0 && er == 0.0);
	CHECK(lsv_prbep(s, last, 4, &er) == 0.0 && er == 0.5);
	/* P = 2: rows 0 and 1 are called positive; row 1 is. */
	CHECK(lsv_prbep(s, two, 4, &er) == 0.5 && er == 0.5);
}

static void prbep_tie_at_the_threshold(void)
{
	/* Scores 5, 3, 3, 3, 1 with positives at rows 0 and 3: P = 2 takes
	 * row 0 and then the first of the rows tied at 3 (row 1): TP = 1. */
	double s[5] = {5, 3, 3, 3, 1}, er;
	int pos[5] = {1, 0, 0, 1, 0}, pos2[5] = {1, 1, 0, 0, 0};
	CHECK(lsv_prbep(s, pos, 5, &er) == 0.5);
	CHECK(fabs(er - 0.4) < 1e-15);
	CHECK(lsv_prbep(s, pos2, 5, &er) == 1.0 && er == 0.0);
}

static void prbep_signed_zeros_tie_and_infinities_rank(void)
{
	/* -0 == +0: a tie, so index order; -inf ranks below everything
	 * finite, +inf above. */
	double s[4] = {-0.0, 0.0, -INFINITY, INFINITY}, er;
	int a[4] = {1, 0, 0, 0}, b[4] = {0, 1, 0, 0}, c[4] = {0, 0, 1, 0};
	int d[4] = {1, 0, 0, 1};
	CHECK(lsv_prbep(s, a, 4, &er) == 0.0);   /* top 1 is +inf (row 3) */
	CHECK(lsv_prbep(s, b, 4, &er) == 0.0);
	CHECK(lsv_prbep(s, c, 4, &er) == 0.0);
	CHECK(lsv_prbep(s, d, 4, &er) == 1.0);   /* top 2: rows 3, then 0 */
}

/* Reference: sort indices by (score desc, index asc), count TP in top P. */
static const double *ref_score;
static int ref_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (ref_score[i] != ref_score[j])
		return ref_score[i] > ref_score[j] ? -1 : 1;
	return (i > j) - (i < j);
}

static void prbep_matches_a_full_sort(void)
{
	enum { N = 3000 };
	double *s = malloc(N * sizeof *s), er, want_er;
	int *pos = malloc(N * sizeof *pos);
	size_t *idx = malloc(N * sizeof *idx), i, npos = 0, tp = 0;
	lsv_rng r;
	int round, bad = 0;

	for (round = 0; round < 5; round++) {
		lsv_rng_seed(&r, 7 + (unsigned long long)round);
		npos = tp = 0;
		for (i = 0; i < N; i++) {
			/* Coarse scores (many ties), positives leaning high. */
			s[i] = floor(lsv_rng_normal(&r) * 4) / 4;
			pos[i] = lsv_rng_uniform(&r) < 0.3 + 0.1 * s[i];
			npos += pos[i] != 0;
			idx[i] = i;
		}
		ref_score = s;
		qsort(idx, N, sizeof *idx, ref_cmp);
		for (i = 0; i < npos; i++)
			tp += pos[idx[i]] != 0;
		want_er = 2.0 * (double)(npos - tp) / N;
		bad += lsv_prbep(s, pos, N, &er) != (double)tp / (double)npos;
		bad += er != want_er;
	}
	CHECK(bad == 0);
	free(s);
	free(pos);
	free(idx);
}

const unit_case metrics_cases[] = {
	{"prbep_hand_ranking", prbep_hand_ranking},
	{"prbep_order_of_rows_does_not_matter", prbep_order_of_rows_does_not_matter},
	{"prbep_all_positives_first", prbep_all_positives_first},
	{"prbep_all_positives_last", prbep_all_positives_last},
	{"prbep_no_positive_is_zero", prbep_no_positive_is_zero},
	{"prbep_ties_broken_by_index", prbep_ties_broken_by_index},
	{"prbep_tie_at_the_threshold", prbep_tie_at_the_threshold},
	{"prbep_signed_zeros_tie_and_infinities_rank",
	 prbep_signed_zeros_tie_and_infinities_rank},
	{"prbep_matches_a_full_sort", prbep_matches_a_full_sort},
	{NULL, NULL},
};
