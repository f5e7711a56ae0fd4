/* The precision-recall break-even point, against rankings worked out by
 * hand (ties: the expected TP under a random order of the tied rows), and
 * against a plain sort on a larger random set. */
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

static void prbep_all_tied_is_p_over_n(void)
{
	/* All scores equal: one group, g = n, gp = P, take = P: TP = P^2/n,
	 * PRBEP = P/n wherever the positives are, error 2 (P - P^2/n)/n. */
	double s[4] = {1, 1, 1, 1}, er;
	int first[4] = {1, 0, 0, 0}, last[4] = {0, 0, 0, 1};
	int two[4] = {0, 1, 1, 0};
	CHECK(lsv_prbep(s, first, 4, &er) == 0.25 && er == 0.375);
	CHECK(lsv_prbep(s, last, 4, &er) == 0.25 && er == 0.375);
	CHECK(lsv_prbep(s, two, 4, &er) == 0.5 && er == 0.5);
}

static void prbep_sorted_and_reversed_agree(void)
{
	/* Scores 2, 1 x 4, 0 with the tied rows sorted by class, then the
	 * rows reversed.  P = 3: above = 1 (a positive), group g = 4 with
	 * gp = 2, take 2: TP = 1 + 2 * 2/4 = 2, PRBEP 2/3, error 2/6.  By
	 * index the first file gave 1 and the second 1/3. */
	double s[6] = {2, 1, 1, 1, 1, 0}, r[6] = {0, 1, 1, 1, 1, 2}, er, er2;
	int pos[6] = {1, 1, 1, 0, 0, 0}, rpos[6] = {0, 0, 0, 1, 1, 1};
	CHECK(lsv_prbep(s, pos, 6, &er) == 2.0 / 3.0);
	CHECK(lsv_prbep(r, rpos, 6, &er2) == 2.0 / 3.0);
	CHECK(er == 1.0 / 3.0 && er2 == er);
}

static void prbep_tie_at_the_threshold(void)
{
	/* Scores 5, 3, 3, 3, 1 with positives at rows 0 and 3: P = 2 takes
	 * row 0 (a positive) and 1 of the 3 rows tied at 3, 1 of them
	 * positive: TP = 1 + 1/3, PRBEP 2/3, error 2 (2 - 4/3)/5 = 4/15.
	 * The positive tied row at 1 instead of 3 changes nothing. */
	double s[5] = {5, 3, 3, 3, 1}, er;
	int pos[5] = {1, 0, 0, 1, 0}, pos2[5] = {1, 1, 0, 0, 0};
	CHECK(lsv_prbep(s, pos, 5, &er) == 2.0 / 3.0);
	CHECK(er == 4.0 / 15.0);
	CHECK(lsv_prbep(s, pos2, 5, &er) == 2.0 / 3.0);
	CHECK(er == 4.0 / 15.0);
}

static void prbep_tie_inside_the_top_p_counts_fully(void)
{
	/* A group wholly inside the top P (and one wholly outside) is not
	 * split: scores 3, 3, 2, 1, 1 with positives at rows 0, 1, 3: P = 3
	 * takes both 3s and the 2: TP = 2, PRBEP 2/3, error 2/5. */
	double s[5] = {3, 3, 2, 1, 1}, er;
	int pos[5] = {1, 1, 0, 1, 0};
	CHECK(lsv_prbep(s, pos, 5, &er) == 2.0 / 3.0);
	CHECK(er == 0.4);
}

static void prbep_signed_zeros_tie_and_infinities_rank(void)
{
	/* -0 == +0: a tie; -inf ranks below everything finite, +inf above. */
	double s[4] = {-0.0, 0.0, -INFINITY, INFINITY}, er;
	int a[4] = {1, 0, 0, 0}, b[4] = {0, 1, 0, 0}, c[4] = {0, 0, 1, 0};
	int d[4] = {1, 0, 0, 1};
	CHECK(lsv_prbep(s, a, 4, &er) == 0.0);   /* top 1 is +inf (row 3) */
	CHECK(lsv_prbep(s, b, 4, &er) == 0.0);
	CHECK(lsv_prbep(s, c, 4, &er) == 0.0);
	/* top 2: row 3 (a positive), then 1 of the two zeros, 1 positive:
	 * TP = 1 + 1/2, PRBEP 3/4. */
	CHECK(lsv_prbep(s, d, 4, &er) == 0.75 && er == 0.25);
}

/* Reference: sort by score, find the group [lo, hi) holding rank P and
 * take its share: TP = positives before lo + (P - lo) gp / (hi - lo). */
static const double *ref_score;
static int ref_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (ref_score[i] != ref_score[j])
		return ref_score[i] > ref_score[j] ? -1 : 1;
	return 0;
}

static void prbep_matches_a_full_sort(void)
{
	enum { N = 3000 };
	double *s = malloc(N * sizeof *s), *rs = malloc(N * sizeof *rs);
	double er, er2, got, tp, want_er;
	int *pos = malloc(N * sizeof *pos), *rpos = malloc(N * sizeof *rpos);
	size_t *idx = malloc(N * sizeof *idx), i, npos, lo, hi, gp;
	lsv_rng r;
	int round, bad = 0;

	for (round = 0; round < 10; round++) {
		lsv_rng_seed(&r, 7 + (unsigned long long)round);
		npos = 0;
		for (i = 0; i < N; i++) {
			/* Rounds 0-4: coarse scores (many ties), positives
			 * leaning high; rounds 5-9: no ties (almost surely). */
			double z = lsv_rng_normal(&r);
			s[i] = round < 5 ? floor(z * 4) / 4 : z;
			pos[i] = lsv_rng_uniform(&r) < 0.3 + 0.1 * s[i];
			npos += pos[i] != 0;
			idx[i] = i;
			rs[N - 1 - i] = s[i];
			rpos[N - 1 - i] = pos[i];
		}
		ref_score = s;
		qsort(idx, N, sizeof *idx, ref_cmp);
		for (lo = npos - 1; lo > 0 && s[idx[lo - 1]] == s[idx[npos - 1]]; lo--)
			;
		for (hi = npos; hi < N && s[idx[hi]] == s[idx[npos - 1]]; hi++)
			;
		for (tp = 0, i = 0; i < lo; i++)
			tp += pos[idx[i]] != 0;
		for (gp = 0, i = lo; i < hi; i++)
			gp += pos[idx[i]] != 0;
		tp += (double)(npos - lo) * (double)gp / (double)(hi - lo);
		want_er = 2.0 * ((double)npos - tp) / N;
		got = lsv_prbep(s, pos, N, &er);
		bad += fabs(got - tp / (double)npos) > 1e-12;
		bad += fabs(er - want_er) > 1e-12;
		/* The file reversed: bitwise the same answer. */
		bad += lsv_prbep(rs, rpos, N, &er2) != got || er2 != er;
	}
	CHECK(bad == 0);
	free(s);
	free(rs);
	free(pos);
	free(rpos);
	free(idx);
}

const unit_case metrics_cases[] = {
	{"prbep_hand_ranking", prbep_hand_ranking},
	{"prbep_order_of_rows_does_not_matter", prbep_order_of_rows_does_not_matter},
	{"prbep_all_positives_first", prbep_all_positives_first},
	{"prbep_all_positives_last", prbep_all_positives_last},
	{"prbep_no_positive_is_zero", prbep_no_positive_is_zero},
	{"prbep_all_tied_is_p_over_n", prbep_all_tied_is_p_over_n},
	{"prbep_sorted_and_reversed_agree", prbep_sorted_and_reversed_agree},
	{"prbep_tie_at_the_threshold", prbep_tie_at_the_threshold},
	{"prbep_tie_inside_the_top_p_counts_fully",
	 prbep_tie_inside_the_top_p_counts_fully},
	{"prbep_signed_zeros_tie_and_infinities_rank",
	 prbep_signed_zeros_tie_and_infinities_rank},
	{"prbep_matches_a_full_sort", prbep_matches_a_full_sort},
	{NULL, NULL},
};
