/* The serial communication module (common/comm.c without LSV_MPI) and the
 * ring neighbour search on one rank (lsv_graph_build_dist and _rows) against
 * the serial builder and the brute-force reference.  The same code runs on P
 * ranks in tests/bats/mpi.bats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapsvm.h"
#include "solver.h"
#include "ref.h"
#include "unit.h"

static void serial_comm_is_one_rank_of_copies(void)
{
	lsv_comm *c = NULL;
	lsv_error e;
	double v[2] = {1.5, -2.0};
	size_t z[1] = {7}, counts[1], bytes = 0;
	const char msg[] = "hello";
	void *got = NULL;
	lsv_comm_req *req = NULL;

	if (lsv_comm_mpi())
		return;  /* the MPI build is tested under mpirun */
	CHECK(lsv_comm_init(NULL, NULL, &c, &e) == LSV_OK);
	if (c == NULL)
		return;
	CHECK(lsv_comm_rank(c) == 0 && lsv_comm_size(c) == 1);
	CHECK(lsv_comm_allreduce_double(c, v, 2, LSV_COMM_SUM, &e) == LSV_OK);
	CHECK(v[0] == 1.5 && v[1] == -2.0);
	CHECK(lsv_comm_allreduce_size(c, z, 1, LSV_COMM_MAX, &e) == LSV_OK);
	CHECK(z[0] == 7);
	CHECK(lsv_comm_gatherv(c, 0, msg, sizeof msg, &got, counts, &e) == LSV_OK);
	CHECK(counts[0] == sizeof msg && got && memcmp(got, msg, sizeof msg) == 0);
	free(got);
	CHECK(lsv_comm_allgatherv(c, msg, 3, &got, counts, &e) == LSV_OK);
	CHECK(counts[0] == 3 && got && memcmp(got, "hel", 3) == 0);
	free(got);
	{	/* into the caller's buffer: no more than its capacity */
		char buf[4] = {'x', 'x', 'x', 'x'};
		CHECK(lsv_comm_allgatherv_into(c, msg, 3, buf, 4, counts, &e) == LSV_OK);
		CHECK(counts[0] == 3 && memcmp(buf, "helx", 4) == 0);
		CHECK(lsv_comm_allgatherv_into(c, msg, 5, buf, 4, counts, &e) == LSV_EINVAL);
		CHECK_STR(e.msg, "gathering 5 bytes into a buffer of 4");
		CHECK(memcmp(buf, "helx", 4) == 0);
	}
	counts[0] = 4;
	CHECK(lsv_comm_scatterv(c, 0, msg, counts, &got, &bytes, &e) == LSV_OK);
	CHECK(bytes == 4 && got && memcmp(got, "hell", 4) == 0);
	free(got);
	counts[0] = 2;
	CHECK(lsv_comm_alltoallv(c, msg, counts, &got, z, &e) == LSV_OK);
	CHECK(z[0] == 2 && got && memcmp(got, "he", 2) == 0);
	free(got);
	/* the ring of one: what is sent comes back */
	CHECK(lsv_comm_shift_start(c, msg, sizeof msg, &req, &e) == LSV_OK);
	CHECK(lsv_comm_shift_finish(c, req, &got, &bytes, &e) == LSV_OK);
	CHECK(bytes == sizeof msg && got && strcmp(got, msg) == 0);
	free(got);
	/* agreement: this rank's outcome and message */
	CHECK(lsv_comm_agree(c, LSV_OK, &e) == LSV_OK);
	lsv_fail(&e, LSV_EFORMAT, "f.txt:3: bad");
	CHECK(lsv_comm_agree(c, LSV_EFORMAT, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "f.txt:3: bad");
	CHECK(lsv_comm_sent(c) == 0);
	lsv_comm_end(c);
}

/* n x d rows: values from the seed, integers in [0, levels) if levels >
 * 0 (ties, duplicates), else uniform in [-1, 1); zeros not stored. */
static lsv_data *random_data(size_t n, size_t d, int levels, unsigned seed)
{
	lsv_data *x = calloc(1, sizeof *x);
	lsv_rng r;
	size_t i, f;

	lsv_rng_seed(&r, seed);
	x->n = x->l = n;
	x->rowptr = malloc((n + 1) * sizeof *x->rowptr);
	x->col = malloc((n * d + 1) * sizeof *x->col);
	x->val = malloc((n * d + 1) * sizeof *x->val);
	x->y = calloc(n, sizeof *x->y);
	for (i = 0; i < n; i++) {
		x->rowptr[i] = x->nnz;
		for (f = 0; f < d; f++) {
			double v = levels > 0
				? floor(lsv_rng_uniform(&r) * levels)
				: 2.0 * lsv_rng_uniform(&r) - 1.0;
			if (v == 0.0)
				continue;
			x->col[x->nnz] = (int)(3 * f);  /* gaps: compact numbering */
			x->val[x->nnz++] = v;
			if (3 * f + 1 > x->dim)
				x->dim = 3 * f + 1;
		}
	}
	x->rowptr[n] = x->nnz;
	return x;
}

/* lsv_graph_build_dist on one rank, from rank 0's data and from the
 * rows read by the rank itself (lsv_graph_build_dist_rows: the features
 * numbered from the gathered lists, the rows moved by the all-to-all),
 * gives lsv_graph_build's graph bit for bit, and the brute-force
 * reference's. */
static int ring_same(const lsv_data *x, const lsv_graph_param *p)
{
	lsv_comm *c = NULL;
	lsv_graph *g = NULL, *h = NULL, *h2 = NULL, *r = ref_graph(x, p);
	lsv_graph_info gi, hi, hi2;
	lsv_error e;
	int ok;

	if (lsv_comm_init(NULL, NULL, &c, &e) != LSV_OK)
		return 0;
	ok = lsv_graph_build(x, p, &g, &gi, &e) == LSV_OK;
	ok = ok && lsv_graph_build_dist(c, x, p, &h, &hi, &e) == LSV_OK;
	ok = ok && lsv_graph_build_dist_rows(c, x, 0, x->n, p, &h2, &hi2, &e) ==
		   LSV_OK;
	if (!ok)
		fprintf(stderr, "  failed: %s\n", e.msg);
	ok = ok && r != NULL && ref_graph_equal(g, h) && ref_graph_equal(h, r) &&
	     ref_graph_equal(h, h2) && hi2.k == hi.k && hi2.edges == hi.edges &&
	     gi.k == hi.k && gi.t == hi.t && gi.edges == hi.edges;
	if (!ok)
		fprintf(stderr, "  differs: k=%d eps=%g mutual=%d dist=%d block=%zu "
			"single=%d\n", p->k, p->epsilon, p->mutual, (int)p->distance,
			p->block, p->single);
	lsv_graph_free(g);
	lsv_graph_free(h);
	lsv_graph_free(h2);
	lsv_graph_free(r);
	lsv_comm_end(c);
	return ok;
}

static void ring_on_one_rank_equals_serial(void)
{
	lsv_graph_param p;
	lsv_data *x;
	size_t block;

	if (lsv_comm_mpi())
		return;
	/* real values: products within the rounding margin, exact keys */
	x = random_data(61, 7, 0, 11);
	lsv_graph_param_default(&p);
	for (block = 0; block <= 8; block += 8) {  /* 8: many tiles */
		p.block = block;
		p.k = 5;
		p.single = 1;
		CHECK(ring_same(x, &p));
		p.single = 0;
		CHECK(ring_same(x, &p));
		p.mutual = 1;
		CHECK(ring_same(x, &p));
		p.mutual = 0;
		p.distance = LSV_DIST_COSINE;
		CHECK(ring_same(x, &p));
		p.distance = LSV_DIST_EUCLIDEAN;
		p.k = 0;
		p.epsilon = 1.1;
		CHECK(ring_same(x, &p));
		p.epsilon = 0.0;
	}
	lsv_data_free(x);
	/* integers in {0, 1, 2}: exact products, ties at the k-th distance
	 * and duplicate rows, broken by index */
	x = random_data(73, 4, 3, 12);
	lsv_graph_param_default(&p);
	p.k = 9;
	p.block = 16;
	CHECK(ring_same(x, &p));
	p.weight = LSV_WEIGHT_BINARY;
	p.k = 3;
	CHECK(ring_same(x, &p));
	p.distance = LSV_DIST_COSINE;  /* zero rows are isolated */
	CHECK(ring_same(x, &p));
	lsv_data_free(x);
	/* integers up to 20000: squared norms past 2^24, so the float
	 * products are inexact and the survivors' exact keys come from the
	 * dense blocks (ring_sqdist); and values past 2^24, whose keys come
	 * from the sparse rows again */
	x = random_data(67, 5, 20000, 14);
	lsv_graph_param_default(&p);
	p.k = 6;
	p.block = 16;
	CHECK(ring_same(x, &p));
	p.k = 0;
	p.epsilon = 9000.0;
	CHECK(ring_same(x, &p));
	lsv_data_free(x);
	x = random_data(67, 5, 1 << 26, 15);
	lsv_graph_param_default(&p);
	p.k = 6;
	p.block = 16;
	CHECK(ring_same(x, &p));
	lsv_data_free(x);
	/* k above the rows: capped */
	x = random_data(4, 2, 0, 13);
	lsv_graph_param_default(&p);
	p.k = 10;
	CHECK(ring_same(x, &p));
	lsv_data_free(x);
}

/* A block of rows of the Nystrom map (what one rank of lapsvm-train
 * builds) is those rows of the whole map: the same landmarks (one seeded
 * sampling over all n rows), the same V, the same rows of Phi; an empty
 * block (a rank with no rows) too. */
static void nystrom_block_is_rows_of_the_whole_map(void)
{
	static const size_t blocks[][2] = {{0, 37}, {0, 12}, {12, 13}, {25, 12},
					   {36, 1}, {20, 0}};
	lsv_data *x = random_data(37, 5, 0, 21);
	lsv_train_param p;
	lsv_nystrom all, part;
	lsv_error e;
	size_t b, i, j;

	lsv_train_param_default(&p);
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = 0.7;
	p.landmarks = 9;
	p.seed = 5;
	CHECK(lsv_nystrom_build(x, &p, &all, &e) == LSV_OK);
	CHECK(all.lo == 0 && all.nl == 37 && all.m == 9 && all.r > 0);
	for (b = 0; b < sizeof blocks / sizeof *blocks; b++) {
		size_t lo = blocks[b][0], nl = blocks[b][1];
		double worst = 0.0;
		if (lsv_nystrom_build_rows(x, &p, lo, nl, &part, &e) != LSV_OK) {
			CHECK(!"build_rows failed");
			continue;
		}
		CHECK(part.m == all.m && part.r == all.r && part.n == 37);
		CHECK(memcmp(part.idx, all.idx, all.m * sizeof *all.idx) == 0);
		CHECK(memcmp(part.V, all.V, all.m * all.r * sizeof *all.V) == 0);
		for (j = 0; j < all.r; j++)
			for (i = 0; i < nl; i++)
				worst = fmax(worst, fabs(part.Phi[i + j * nl] -
							 all.Phi[lo + i + j * 37]));
		CHECK(worst <= 1e-14);
		lsv_nystrom_free(&part);
	}
	lsv_nystrom_free(&all);
	lsv_data_free(x);
}

/* On one rank sharing is the identity: the root keeps its data and graph
 * (no copy), and a missing graph stays missing. */
static void share_on_one_rank_keeps_the_inputs(void)
{
	lsv_comm *c = NULL;
	lsv_data *x = random_data(6, 3, 0, 4), *before = x;
	lsv_graph *g = NULL;
	lsv_graph_param gp;
	lsv_error e;

	if (lsv_comm_mpi())
		return;
	CHECK(lsv_comm_init(NULL, NULL, &c, &e) == LSV_OK);
	if (c == NULL)
		return;
	CHECK(lsv_data_share(c, 0, &x, &e) == LSV_OK);
	CHECK(x == before && x->n == 6);
	CHECK(lsv_graph_share(c, 0, &g, &e) == LSV_OK);
	CHECK(g == NULL);
	lsv_graph_param_default(&gp);
	gp.k = 2;
	CHECK(lsv_graph_build(x, &gp, &g, NULL, &e) == LSV_OK);
	if (g != NULL) {
		lsv_graph *gb = g;
		CHECK(lsv_graph_share(c, 0, &g, &e) == LSV_OK);
		CHECK(g == gb && g->n == 6 && g->nnz > 0);
	}
	lsv_graph_free(g);
	lsv_data_free(x);
	lsv_comm_end(c);
}

/* lapsvm-train's reading under mpirun on one rank: the part read
 * (lsv_data_read_dist) put together (lsv_data_allgather) is the file as
 * lsv_data_read_path reads it, labeled count and all. */
static void data_parts_gathered_are_the_file(void)
{
	char path[4096];
	lsv_comm *c = NULL;
	lsv_data *x = random_data(37, 5, 0, 11), *whole = NULL, *part = NULL,
		 *all = NULL;
	lsv_error e;
	size_t i, row0 = 9, n = 0;
	int fd = mkstemp(unit_tmp(path, sizeof path, "lapsvm-gather")), graph_like = 1;
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(fp != NULL);
	if (fp == NULL || lsv_comm_mpi()) {
		if (fp != NULL)
			fclose(fp);
		lsv_data_free(x);
		remove(path);
		return;
	}
	for (i = 0; i < x->n; i++)  /* classes 1, -1 and unlabeled rows */
		x->y[i] = i % 3 == 2 ? 0.0 : i % 3 == 1 ? -1.0 : 1.0;
	CHECK(lsv_data_write(fp, path, x, &e) == LSV_OK);
	CHECK(fclose(fp) == 0);
	CHECK(lsv_comm_init(NULL, NULL, &c, &e) == LSV_OK);
	CHECK(lsv_data_read_path(path, 0.0, &whole, &e) == LSV_OK);
	CHECK(c != NULL && lsv_data_read_dist(c, path, 0.0, &part, &row0, &n,
					      &graph_like, &e) == LSV_OK);
	CHECK(row0 == 0 && n == 37 && graph_like == 0);
	all = part;
	part = NULL;
	CHECK(all != NULL && lsv_data_allgather(c, &all, &e) == LSV_OK);
	if (whole != NULL && all != NULL) {
		CHECK(all->n == whole->n && all->l == whole->l && all->l == 25);
		CHECK(all->dim == whole->dim && all->nnz == whole->nnz);
		CHECK(all->unlabeled == whole->unlabeled);
		CHECK(memcmp(all->rowptr, whole->rowptr,
			     (whole->n + 1) * sizeof *whole->rowptr) == 0);
		CHECK(memcmp(all->col, whole->col, whole->nnz * sizeof *whole->col) == 0);
		CHECK(memcmp(all->val, whole->val, whole->nnz * sizeof *whole->val) == 0);
		CHECK(memcmp(all->y, whole->y, whole->n * sizeof *whole->y) == 0);
	}
	lsv_data_free(all);
	lsv_data_free(part);
	lsv_data_free(whole);
	lsv_data_free(x);
	lsv_comm_end(c);
	remove(path);
}

/* The training's row blocks (lsv_comm_block): contiguous, covering the
 * n rows in rank order, each starting on a 16-row group (or at n), the
 * groups shared as g r / P says. */
static void train_blocks_are_whole_16_row_groups(void)
{
	static const size_t ns[] = {0, 1, 3, 15, 16, 17, 200, 301, 7291};
	size_t k, lo, nl, at;
	int P, r;

	for (k = 0; k < sizeof ns / sizeof *ns; k++)
		for (P = 1; P <= 5; P++) {
			size_t g = (ns[k] + 15) / 16;
			for (r = 0, at = 0; r < P; r++) {
				lsv_comm_block(ns[k], r, P, &lo, &nl);
				CHECK(lo == at);
				CHECK(lo % 16 == 0 || lo == ns[k]);
				CHECK(nl <= 16 * ((g + (size_t)P - 1) / (size_t)P));
				at = lo + nl;
			}
			CHECK(at == ns[k]);
		}
	/* by hand: 301 rows = 19 groups over 4 ranks: 4, 5, 5, 5 groups */
	lsv_comm_block(301, 0, 4, &lo, &nl);
	CHECK(lo == 0 && nl == 64);
	lsv_comm_block(301, 1, 4, &lo, &nl);
	CHECK(lo == 64 && nl == 80);
	lsv_comm_block(301, 3, 4, &lo, &nl);
	CHECK(lo == 224 && nl == 77);
	/* 3 rows on 4 ranks: one group, on the last rank */
	lsv_comm_block(3, 0, 4, &lo, &nl);
	CHECK(nl == 0);
	lsv_comm_block(3, 3, 4, &lo, &nl);
	CHECK(lo == 0 && nl == 3);
}

/* A warm start's Nystrom map (lsv_nystrom_build_at on the sampled
 * landmarks) is the sampled one bit for bit (K_mm of the same rows: the
 * same V and Lambda, so w keeps its meaning), and lsv_nystrom_weights
 * inverts beta = V w: w = Lambda V' beta, since V'V = Lambda^-1. */
static void nystrom_weights_recover_w_on_the_given_landmarks(void)
{
	lsv_data *x = random_data(30, 4, 0, 31);
	lsv_train_param p;
	lsv_nystrom a, b;
	lsv_error e;
	double w[2 * 30], beta[2 * 30], W[2 * 30], worst = 0.0, big = 0.0;
	size_t i, j, c;

	lsv_train_param_default(&p);
	p.kernel.type = LSV_KERNEL_RBF;
	p.kernel.gamma = 0.5;
	p.landmarks = 8;
	p.seed = 3;
	CHECK(lsv_nystrom_build(x, &p, &a, &e) == LSV_OK);
	p.seed = 99;  /* not used: the landmarks are given */
	CHECK(lsv_nystrom_build_at(x, &p, a.idx, a.m, 0, 30, &b, &e) == LSV_OK);
	CHECK(b.m == a.m && b.r == a.r && a.r > 0 && a.r <= 8);
	CHECK(memcmp(b.idx, a.idx, a.m * sizeof *a.idx) == 0);
	CHECK(memcmp(b.V, a.V, a.m * a.r * sizeof *a.V) == 0);
	CHECK(memcmp(b.lam, a.lam, a.r * sizeof *a.lam) == 0);
	CHECK(memcmp(b.Phi, a.Phi, 30 * a.r * sizeof *a.Phi) == 0);
	for (c = 0; c < 2; c++)  /* two functions, w by a formula */
		for (j = 0; j < a.r; j++)
			w[j + c * a.r] = sin(1.0 + (double)j + 3.0 * (double)c);
	for (c = 0; c < 2; c++)  /* beta = V w, by hand */
		for (i = 0; i < a.m; i++) {
			double s = 0.0;
			for (j = 0; j < a.r; j++)
				s += a.V[i + j * a.m] * w[j + c * a.r];
			beta[i + c * a.m] = s;
		}
	lsv_nystrom_weights(&b, beta, 2, W);
	for (j = 0; j < 2 * a.r; j++) {
		worst = fmax(worst, fabs(W[j] - w[j]));
		big = fmax(big, fabs(w[j]));
	}
	CHECK(worst <= 1e-8 * big);
	lsv_nystrom_free(&a);
	lsv_nystrom_free(&b);
	lsv_data_free(x);
}

/* The kernel by rows on one process (comm NULL): K X by hand. */
static void kernel_rows_product_on_one_process(void)
{
	const double K[9] = {2, 1, 0, 1, 3, 1, 0, 1, 4};  /* symmetric */
	const double X[6] = {1, -1, 2, 0, 1, 0};
	double Y[6], T[3] = {5, 6, 7}, Z[3];
	lsv_krows kr = {K, 3, 0, 3, NULL};
	lsv_error e;

	CHECK(lsv_krows_mul(&kr, X, 2, Y, &e) == LSV_OK);
	/* K [1 -1 2]' = [1 0 7]', K [0 1 0]' = [1 3 1]' */
	CHECK(Y[0] == 1 && Y[1] == 0 && Y[2] == 7);
	CHECK(Y[3] == 1 && Y[4] == 3 && Y[5] == 1);
	CHECK(lsv_krows_gather(&kr, T, 1, Z, &e) == LSV_OK);
	CHECK(Z[0] == 5 && Z[1] == 6 && Z[2] == 7);
	CHECK(lsv_krows_agree(&kr, LSV_EINVAL, &e) == LSV_EINVAL);
}

const unit_case comm_cases[] = {
	{"train_blocks_are_whole_16_row_groups",
	 train_blocks_are_whole_16_row_groups},
	{"kernel_rows_product_on_one_process", kernel_rows_product_on_one_process},
	{"nystrom_block_is_rows_of_the_whole_map",
	 nystrom_block_is_rows_of_the_whole_map},
	{"nystrom_weights_recover_w_on_the_given_landmarks",
	 nystrom_weights_recover_w_on_the_given_landmarks},
	{"share_on_one_rank_keeps_the_inputs", share_on_one_rank_keeps_the_inputs},
	{"data_parts_gathered_are_the_file", data_parts_gathered_are_the_file},
	{"serial_comm_is_one_rank_of_copies", serial_comm_is_one_rank_of_copies},
	{"ring_on_one_rank_equals_serial", ring_on_one_rank_equals_serial},
	{NULL, NULL}
};
