/* The blocked-BLAS graph builder against the brute-force reference and
 * hand-computed cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "ref.h"
#include "unit.h"

static lsv_graph *build(const lsv_data *x, const lsv_graph_param *p,
			lsv_graph_info *info)
{
	lsv_graph *g = NULL;
	lsv_error e;
	if (lsv_graph_build(x, p, &g, info, &e) != LSV_OK)
		fprintf(stderr, "  build failed: %s\n", e.msg);
	return g;
}

/* The graph equals the brute-force one, with the products in p's
 * precision and in the other. */
static int same_as_reference(const lsv_data *x, const lsv_graph_param *p)
{
	lsv_graph *r = ref_graph(x, p);
	lsv_graph_param q = *p;
	int ok = r != NULL, pass;
	for (pass = 0; pass < 2; pass++) {
		lsv_graph *g = build(x, &q, NULL);
		int same = g != NULL && r != NULL && ref_graph_equal(g, r);
		if (!same)
			fprintf(stderr, "  differs: k=%d eps=%g mutual=%d dist=%d "
				"weight=%d block=%zu single=%d\n", q.k, q.epsilon,
				q.mutual, (int)q.distance, (int)q.weight, q.block,
				q.single);
		ok = ok && same;
		lsv_graph_free(g);
		q.single = !q.single;
	}
	lsv_graph_free(r);
	return ok;
}

static void knn_equals_bruteforce_on_integer_data_with_ties(void)
{
	/* Values in {0,1,2}: many exact ties and duplicate points. */
	enum { N = 57, D = 5 };
	double a[N * D];
	lsv_rng r;
	lsv_data *x;
	size_t i;
	int k, m, dist, w, b, path;
	const size_t blocks[] = {0, 1, 7};
	const int ks[] = {1, 3, 6};

	lsv_rng_seed(&r, 11);
	for (i = 0; i < N * D; i++)
		a[i] = (double)(lsv_rng_next(&r) % 3);
	x = ref_dense(a, N, D);
	for (k = 0; k < 3; k++)
		for (m = 0; m < 2; m++)
			for (dist = 0; dist < 2; dist++)
				for (w = 0; w < 3; w++)
					for (b = 0; b < 3; b++)
						for (path = 0; path < 3; path++) {
							/* dense double, dense single
							 * (exact on small integers),
							 * sparse */
							lsv_graph_param p;
							lsv_graph_param_default(&p);
							p.k = ks[k];
							p.mutual = m;
							p.distance = (lsv_distance)dist;
							p.weight = (lsv_weight)w;
							p.block = blocks[b];
							p.single = path == 1;
							p.sparse = path == 2 ? 1 : -1;
							CHECK(same_as_reference(x, &p));
						}
	lsv_data_free(x);
}

static void knn_equals_bruteforce_on_real_valued_data(void)
{
	enum { N = 300, D = 12 };
	static double a[N * D];
	lsv_rng r;
	lsv_data *x;
	lsv_graph_param p;
	size_t i;

	lsv_rng_seed(&r, 5);
	for (i = 0; i < N * D; i++)
		a[i] = lsv_rng_normal(&r) * (i % D == 0 ? 100.0 : 1.0);
	x = ref_dense(a, N, D);
	lsv_graph_param_default(&p);
	p.k = 10;
	CHECK(same_as_reference(x, &p));
	p.block = 64;
	CHECK(same_as_reference(x, &p));
	p.distance = LSV_DIST_COSINE;
	CHECK(same_as_reference(x, &p));
	p.mutual = 1;
	p.weight = LSV_WEIGHT_DISTANCE;
	CHECK(same_as_reference(x, &p));
	p.sparse = 1;  /* inner products by the inverted index */
	CHECK(same_as_reference(x, &p));
	p.distance = LSV_DIST_EUCLIDEAN;
	CHECK(same_as_reference(x, &p));
	p.sparse = -1;
	p.single = 1;  /* sgemm candidates, exact re-ranking */
	CHECK(same_as_reference(x, &p));
	lsv_data_free(x);
}

/* The default 4-NN graph of the dense n x 4 rows a: it must equal the
 * brute-force one (both precisions); returns what the build reported. */
static lsv_graph_info default_build_of(const double *a, size_t n)
{
	lsv_data *x = ref_dense(a, n, 4);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;

	memset(&info, 0, sizeof info);
	lsv_graph_param_default(&p);
	p.k = 4;
	CHECK(same_as_reference(x, &p));
	g = build(x, &p, &info);
	CHECK(g != NULL);
	lsv_graph_free(g);
	lsv_data_free(x);
	return info;
}

static void single_precision_redoes_the_rows_it_cannot_certify(void)
{
	/* 380 points spread over [0, 100]^4 and a cluster of 20 (more than
	 * the 14 candidates a row keeps for k = 4) within 1e-3 of one
	 * another: the products' rounding (relative to the largest
	 * |x - mean|^2) hides the cluster's distances, the bound says so,
	 * and those rows (under 1/16 of all) are redone exactly. */
	enum { N = 400, D = 4 };
	static double a[N * D];
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_rng r;
	size_t i;

	lsv_graph_param_default(&p);
	CHECK(p.single == 1);  /* the default */
	lsv_rng_seed(&r, 31);
	for (i = 0; i < N * D; i++)
		a[i] = i < 380 * D ? 100.0 * lsv_rng_uniform(&r)
				   : 50.0 + 1e-3 * lsv_rng_uniform(&r);
	info = default_build_of(a, N);
	CHECK(info.recomputed >= 20 && info.recomputed < N / 16);
	CHECK(info.rescanned == 0 && info.single == 1);
}

static void single_precision_falls_back_to_double_for_many_uncertified(void)
{
	/* 50 points within 1e-3 of one another and one far away: no row of
	 * the cluster can be certified, so the scan is redone in double. */
	enum { N = 51, D = 4 };
	double a[N * D];
	lsv_graph_info info;
	lsv_rng r;
	size_t i;

	lsv_rng_seed(&r, 7);
	for (i = 0; i < N * D; i++)
		a[i] = i < 50 * D ? 1.0 + 1e-3 * lsv_rng_uniform(&r) : 1e4;
	info = default_build_of(a, N);
	CHECK(info.rescanned >= 50 && info.single == 0);
}

static void centering_certifies_data_far_from_the_origin(void)
{
	/* Points near (1e4, ..., 1e4) with unit spread: uncentered, single
	 * products cannot tell them apart; centered, every row certifies. */
	enum { N = 50, D = 4 };
	double a[N * D];
	lsv_graph_info info;
	lsv_rng r;
	size_t i;

	lsv_rng_seed(&r, 31);
	for (i = 0; i < N * D; i++)
		a[i] = 1e4 + lsv_rng_uniform(&r);
	info = default_build_of(a, N);
	CHECK(info.recomputed == 0 && info.rescanned == 0);
}

static void sparse_path_handles_rows_sharing_no_feature(void)
{
	/* Text-like rows: most pairs share no feature, so their inner product
	 * is 0 and the sparse path must still rank them (by |x|^2). */
	enum { N = 60, D = 400 };
	static double a[N * D];
	lsv_rng r;
	lsv_data *x;
	lsv_graph_param p;
	size_t i, f;
	int dist;

	lsv_rng_seed(&r, 17);
	for (i = 0; i < N; i++)
		for (f = 0; f < 3; f++)
			a[i * D + lsv_rng_next(&r) % D] = 1.0 + (double)(lsv_rng_next(&r) % 4);
	x = ref_dense(a, N, D);
	for (dist = 0; dist < 2; dist++) {
		lsv_graph_param_default(&p);
		p.k = 5;
		p.distance = (lsv_distance)dist;
		p.sparse = 1;
		CHECK(same_as_reference(x, &p));
		p.epsilon = dist ? 0.9 : 3.0;
		CHECK(same_as_reference(x, &p));
	}
	lsv_data_free(x);
}

static void epsilon_graph_equals_bruteforce(void)
{
	enum { N = 80, D = 3 };
	double a[N * D];
	lsv_rng r;
	lsv_data *x;
	lsv_graph_param p;
	size_t i;
	const double eps[] = {0.1, 0.5, 1.0, 3.0};

	lsv_rng_seed(&r, 9);
	for (i = 0; i < N * D; i++)
		a[i] = lsv_rng_uniform(&r);
	x = ref_dense(a, N, D);
	for (i = 0; i < 4; i++) {
		lsv_graph_param_default(&p);
		p.epsilon = eps[i];
		p.block = 16;
		CHECK(same_as_reference(x, &p));
		p.sparse = 1;
		CHECK(same_as_reference(x, &p));
		p.sparse = -1;
		p.distance = LSV_DIST_COSINE;
		p.epsilon = eps[i] / 10;
		p.weight = LSV_WEIGHT_BINARY;
		CHECK(same_as_reference(x, &p));
	}
	lsv_data_free(x);
}

static void ties_are_broken_by_lower_index(void)
{
	/* 1-D points 0, 1, -1, 2, -2: every point has two neighbours at
	 * distance 1 or one; with k = 1 the lower index wins each tie. */
	const double a[] = {0, 1, -1, 2, -2};
	const int want_col[] = {1, 2, 0, 3, 0, 4, 1, 2};
	const size_t want_ptr[] = {0, 2, 4, 6, 7, 8};
	lsv_data *x = ref_dense(a, 5, 1);
	lsv_graph_param p;
	lsv_graph *g;
	size_t i;

	lsv_graph_param_default(&p);
	p.k = 1;
	p.weight = LSV_WEIGHT_BINARY;
	g = build(x, &p, NULL);
	CHECK(g != NULL);
	if (g != NULL) {
		CHECK(g->nnz == 8);
		for (i = 0; i <= 5; i++)
			CHECK(g->rowptr[i] == want_ptr[i]);
		for (i = 0; i < 8 && i < g->nnz; i++)
			CHECK(g->col[i] == want_col[i] && g->w[i] == 1.0);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void heat_weight_matches_hand_computation(void)
{
	const double a[] = {0, 0, 3, 4};  /* distance 5 */
	lsv_data *x = ref_dense(a, 2, 2);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;

	lsv_graph_param_default(&p);
	p.k = 1;
	p.t = 5.0;
	g = build(x, &p, &info);
	CHECK(g != NULL && g->nnz == 2 && g->w[0] == exp(-25.0 / 20.0));
	lsv_graph_free(g);
	p.t = 0.0;  /* default: mean squared distance = 25 */
	g = build(x, &p, &info);
	CHECK(g != NULL && info.t == 25.0 && g->w[0] == exp(-0.25));
	lsv_graph_free(g);
	p.weight = LSV_WEIGHT_DISTANCE;
	g = build(x, &p, &info);
	CHECK(g != NULL && g->w[0] == 5.0 && info.t == 0.0);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void identical_points_give_finite_weights(void)
{
	const double a[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	lsv_data *x = ref_dense(a, 5, 2);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;
	size_t i;

	lsv_graph_param_default(&p);
	p.k = 2;
	g = build(x, &p, &info);  /* heat: t = 0, every d = 0 -> w = 1 */
	CHECK(g != NULL && info.t == 0.0);
	for (i = 0; g != NULL && i < g->nnz; i++)
		CHECK(g->w[i] == 1.0);
	CHECK(g != NULL && g->col[0] == 1 && g->col[1] == 2);  /* lowest indices */
	lsv_graph_free(g);
	p.weight = LSV_WEIGHT_DISTANCE;  /* d = 0 is no edge: dropped */
	g = build(x, &p, &info);
	CHECK(g != NULL && g->nnz == 0 && info.dropped > 0 && info.isolated == 5);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void cosine_leaves_zero_rows_isolated(void)
{
	const double a[] = {1, 0, 0, 0, 1, 1, 2, 1};
	lsv_data *x = ref_dense(a, 4, 2);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;

	lsv_graph_param_default(&p);
	p.k = 3;
	p.distance = LSV_DIST_COSINE;
	g = build(x, &p, &info);
	CHECK(g != NULL && info.zero_rows == 1 && info.isolated == 1);
	CHECK(g != NULL && g->rowptr[2] == g->rowptr[1]);  /* row 2 empty */
	CHECK(info.k == 2);  /* only 2 other non-zero rows to choose */
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void k_at_least_n_is_capped(void)
{
	const double a[] = {0, 1, 3, 7};
	lsv_data *x = ref_dense(a, 4, 1);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;

	lsv_graph_param_default(&p);
	p.k = 10;
	g = build(x, &p, &info);
	CHECK(g != NULL && info.k == 3 && g->nnz == 12);  /* complete graph */
	lsv_graph_free(g);
	lsv_data_free(x);
	x = ref_dense(a, 1, 1);
	g = build(x, &p, &info);
	CHECK(g != NULL && g->n == 1 && g->nnz == 0 && info.isolated == 1);
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void huge_feature_indices_give_the_same_graph(void)
{
	/* Compacting features must not change distances: the same points
	 * with indices 3, 2147483647 instead of 1, 2. */
	const double a[] = {1, 2, 2, 2, 5, 1, 0, 3, 4, 4};
	lsv_data *x = ref_dense(a, 5, 2), *z = ref_dense(a, 5, 2);
	lsv_graph_param p;
	lsv_graph *g, *h;
	size_t i;

	for (i = 0; i < z->nnz; i++)
		z->col[i] = z->col[i] == 0 ? 2 : 2147483646;
	z->dim = 2147483647;
	lsv_graph_param_default(&p);
	p.k = 2;
	g = build(x, &p, NULL);
	h = build(z, &p, NULL);
	CHECK(g != NULL && h != NULL && ref_graph_equal(g, h));
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_data_free(x);
	lsv_data_free(z);
}

/* Squared norms past DBL_MAX / 32 would make the distances overflow: both
 * entry points refuse the data with LSV_EINVAL, naming the 1-based row,
 * on every path; 1e150 is still fine. */
static void values_whose_squared_norm_overflows_are_refused(void)
{
	const double a[] = {1, 0.5, 1e200, 1, 3, 0.2, 2, 2};
	const double b[] = {1, 0.5, 2, 1, 1e154, 0.2, 2, 2};
	const double c[] = {1, 0.5, 1e150, 1, 3, 0.2, 2, 2};
	const char *want_inf = "row 2: feature values too large (squared norm "
			       "inf, expected at most 5.61779e+306): distances "
			       "would overflow a double; rescale the data";
	const char *want_big = "row 3: feature values too large (squared norm "
			       "1e+308, expected at most 5.61779e+306): distances "
			       "would overflow a double; rescale the data";
	lsv_data *x = ref_dense(a, 4, 2), *y = ref_dense(b, 4, 2), *z = ref_dense(c, 4, 2);
	lsv_graph_param p;
	lsv_graph_info info;
	lsv_graph *g;
	lsv_error e;
	int *idx, path;
	double *dist;
	size_t i;

	for (path = 0; path < 4; path++) {
		/* dense single, dense double, sparse, cosine */
		lsv_graph_param_default(&p);
		p.k = 2;
		p.single = path == 0;
		p.sparse = path == 2 ? 1 : -1;
		if (path == 3)
			p.distance = LSV_DIST_COSINE;
		g = (lsv_graph *)&p;  /* must come back NULL */
		CHECK(lsv_graph_build(x, &p, &g, &info, &e) == LSV_EINVAL);
		CHECK(g == NULL);
		CHECK_STR(e.msg, want_inf);
		idx = (int *)&p;
		dist = (double *)&p;
		CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_EINVAL);
		CHECK(idx == NULL && dist == NULL);
		CHECK_STR(e.msg, want_inf);
		/* a finite squared norm past the bound */
		CHECK(lsv_graph_build(y, &p, &g, NULL, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, want_big);
		CHECK(lsv_knn_lists(y, &p, &idx, &dist, NULL, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, want_big);
		/* epsilon mode */
		p.epsilon = 1.0;
		CHECK(lsv_graph_build(x, &p, &g, NULL, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, want_inf);
		/* 1e150: finite distances, a graph with finite weights */
		p.epsilon = 0.0;
		g = build(z, &p, &info);
		CHECK(g != NULL && isfinite(info.t));
		for (i = 0; g != NULL && i < g->nnz; i++)
			CHECK(isfinite(g->w[i]) && g->w[i] > 0.0);
		lsv_graph_free(g);
	}
	lsv_data_free(x);
	lsv_data_free(y);
	lsv_data_free(z);
}

/* Near the largest accepted values the centred products of the dense
 * path stay finite (squared norms up to 4 times the raw ones: they were
 * inf, and row 1's true neighbour was lost); a nonzero value below 1e-130
 * is refused (its squared distances underflow), 1e-120 is not, and its
 * distances are not 0.  Every path. */
static void values_near_both_bounds_give_the_true_neighbours_or_are_refused(void)
{
	const double big[] = {2.3e153, 2.29e153, -2.3e153, -2.3e153, -2.3e153,
			      -2.3e153, -2.3e153, -2.3e153};
	const double tiny[] = {1e-131, 3e-120, 1e-100};
	const double small[] = {1e-120, 3e-120, 1e-100};
	lsv_data *xb = ref_dense(big, 8, 1), *xt = ref_dense(tiny, 3, 1);
	lsv_data *xs = ref_dense(small, 3, 1);
	lsv_graph_param p;
	lsv_error e;
	int *idx = NULL, path;
	double *dist = NULL;

	for (path = 0; path < 3; path++) {
		/* dense single, dense double, sparse */
		lsv_graph_param_default(&p);
		p.k = 1;
		p.single = path == 0;
		p.sparse = path == 2 ? 1 : -1;
		CHECK(lsv_knn_lists(xb, &p, &idx, &dist, NULL, &e) == LSV_OK);
		CHECK(idx != NULL && idx[0] == 1 && idx[1] == 0);
		CHECK(dist != NULL && fabs(dist[0] - 1e151) < 1e139);
		free(idx);
		free(dist);
		idx = NULL;
		dist = NULL;
		CHECK(lsv_knn_lists(xt, &p, &idx, &dist, NULL, &e) == LSV_EINVAL);
		CHECK(idx == NULL && dist == NULL);
		CHECK_STR(e.msg, "row 1: a feature value too small (1e-131, "
			  "expected 0 or at least 1e-130 in magnitude): squared "
			  "distances would underflow a double; rescale the data");
		CHECK(e.row == 1);
		CHECK(lsv_knn_lists(xs, &p, &idx, &dist, NULL, &e) == LSV_OK);
		CHECK(idx != NULL && idx[0] == 1 && dist != NULL &&
		      fabs(dist[0] - 2e-120) < 1e-134);
		free(idx);
		free(dist);
		idx = NULL;
		dist = NULL;
	}
	lsv_data_free(xb);
	lsv_data_free(xt);
	lsv_data_free(xs);
}

static size_t last_done, calls;
static void note_progress(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	(void)total;
	last_done = done;
	calls++;
}

static void progress_reports_every_block_to_the_end(void)
{
	double a[40];
	lsv_data *x;
	lsv_graph_param p;
	lsv_graph *g;
	size_t i;
	for (i = 0; i < 40; i++)
		a[i] = (double)i;
	x = ref_dense(a, 40, 1);
	lsv_graph_param_default(&p);
	p.block = 16;
	p.progress = note_progress;
	g = build(x, &p, NULL);
	CHECK(calls == 6 && last_done == 40);  /* 3 blocks: 6 block pairs */
	lsv_graph_free(g);
	lsv_data_free(x);
}

static void bad_parameters_are_refused(void)
{
	lsv_graph_param p;
	lsv_error e;
	lsv_graph_param_default(&p);
	p.k = 0;
	CHECK(lsv_graph_param_check(&p, &e) == LSV_EINVAL);
	CHECK_STR(e.msg, "k = 0 out of range (expected >= 1)");
	lsv_graph_param_default(&p);
	p.epsilon = -1;
	CHECK(lsv_graph_param_check(&p, &e) == LSV_EINVAL);
	lsv_graph_param_default(&p);
	p.t = NAN;
	CHECK(lsv_graph_param_check(&p, &e) == LSV_EINVAL);
	lsv_graph_param_default(&p);
	CHECK(lsv_graph_param_check(&p, &e) == LSV_OK);
}

const unit_case knn_cases[] = {
	{"knn_equals_bruteforce_on_integer_data_with_ties",
	 knn_equals_bruteforce_on_integer_data_with_ties},
	{"knn_equals_bruteforce_on_real_valued_data",
	 knn_equals_bruteforce_on_real_valued_data},
	{"epsilon_graph_equals_bruteforce", epsilon_graph_equals_bruteforce},
	{"single_precision_redoes_the_rows_it_cannot_certify",
	 single_precision_redoes_the_rows_it_cannot_certify},
	{"single_precision_falls_back_to_double_for_many_uncertified",
	 single_precision_falls_back_to_double_for_many_uncertified},
	{"centering_certifies_data_far_from_the_origin",
	 centering_certifies_data_far_from_the_origin},
	{"sparse_path_handles_rows_sharing_no_feature",
	 sparse_path_handles_rows_sharing_no_feature},
	{"ties_are_broken_by_lower_index", ties_are_broken_by_lower_index},
	{"heat_weight_matches_hand_computation", heat_weight_matches_hand_computation},
	{"identical_points_give_finite_weights", identical_points_give_finite_weights},
	{"cosine_leaves_zero_rows_isolated", cosine_leaves_zero_rows_isolated},
	{"k_at_least_n_is_capped", k_at_least_n_is_capped},
	{"huge_feature_indices_give_the_same_graph",
	 huge_feature_indices_give_the_same_graph},
	{"progress_reports_every_block_to_the_end",
	 progress_reports_every_block_to_the_end},
	{"bad_parameters_are_refused", bad_parameters_are_refused},
	{"values_whose_squared_norm_overflows_are_refused",
	 values_whose_squared_norm_overflows_are_refused},
	{"values_near_both_bounds_give_the_true_neighbours_or_are_refused",
	 values_near_both_bounds_give_the_true_neighbours_or_are_refused},
	{NULL, NULL},
};
