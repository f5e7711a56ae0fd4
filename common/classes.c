/*
 * classes.c -- class-dependent Laplacians: the fully supervised end of
 * manifold regularization (Belkin, Niyogi & Sindhwani, JMLR 7, 2006,
 * Section 6.2).
 *
 * Objective.  Each class is regularized on a graph of its own rows:
 *
 *     1/l sum_i V(x_i, y_i, f) + gamma_A |f|_K^2
 *                              + gamma_I/(l+u)^2 sum_c w_c f_c' L_c^p f_c,
 *
 * f_c the values of f on the rows of class c, L_c the Laplacian of the
 * graph over those rows alone and w_c > 0 the class's weight, so that
 * gamma_c = w_c gamma_I (the paper's gamma_+ and gamma_-; 1 for every
 * class unless given, as the original code has one gamma_I).  The paper
 * writes this as gamma_I L replaced by blockdiag(gamma_+ L_+, gamma_- L_-)
 * in the LapRLS and LapSVM formulas of its Section 4.
 *
 * One graph, one operator.  A graph with no edge between two classes (the
 * within-class graph built here) has a block-diagonal W once its rows are
 * ordered by class.  Its degrees are sums within the class, so its
 * Laplacian IS blockdiag(L_c), for D - W and I - D^-1/2 W D^-1/2 alike,
 * and powers keep the blocks: (blockdiag L_c)^p = blockdiag(L_c^p).  The
 * weights scale the blocks: with D_w = diag(sqrt(w_class(i))), which is
 * sqrt(w_c) times the identity on block c,
 *
 *     D_w L^p D_w = blockdiag(w_c L_c^p),
 *     f' D_w L^p D_w f = sum_c w_c f_c' L_c^p f_c,
 *
 * so every solver keeps its one sparse operator (lsv_lapop with
 * lsv_lapop_scale, common/laplacian.c), symmetric and positive
 * semi-definite as L^p is, and nothing else changes: LapRLS's eq. 8 and
 * LapSVM's dual with gamma_I L^p replaced by gamma_I D_w L^p D_w.  With
 * one-vs-rest every class's function is regularized by this same
 * operator: the "rest" is smoothed class by class, on the graph of each
 * original class, never on one graph joining them.
 *
 * Unlabeled rows have no class: the within-class graph leaves them
 * isolated (a zero row and column of L), so they add nothing to the
 * intrinsic term and get no coefficient.  Cross validation uses that to
 * keep the held-out labels out of a fold's graph (common/cv.c): the
 * held-out rows are unlabeled in the fold's training set.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* Add the counts of one class's search to the whole graph's. */
static void add_info(lsv_graph_info *all, const lsv_graph_info *c, int first)
{
	if (first || c->k < all->k)
		all->k = c->k;
	all->zero_rows += c->zero_rows;
	all->sparse |= c->sparse;
	if (c->threads > all->threads)
		all->threads = c->threads;
	all->gemm_seconds += c->gemm_seconds;
	all->gemm_flops += c->gemm_flops;
	all->scan_seconds += c->scan_seconds;
	all->recomputed += c->recomputed;
	all->ties += c->ties;
	all->trial_rows += c->trial_rows;
	all->trial_dense += c->trial_dense;
	all->trial_sparse += c->trial_sparse;
	all->rescanned += c->rescanned;
	all->single = first ? c->single : all->single && c->single;
}

lsv_status lsv_graph_build_classes(const lsv_data *x,
				   const lsv_graph_param *p, lsv_graph **out,
				   lsv_graph_info *info, lsv_error *err)
{
	lsv_graph_info dummy, ci;
	size_t n = x->n, i, m, e, npairs = 0, cap = 0;
	size_t *rows = NULL;
	unsigned char *done = NULL;
	lsv_pair *pairs = NULL;
	lsv_status st = LSV_OK;
	int first = 1;

	*out = NULL;
	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof *info);
	if ((st = lsv_graph_param_check(p, err)) != LSV_OK)
		return st;
	if (n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"%zu rows: at most %d are supported", n, INT_MAX);
	rows = malloc((n ? n : 1) * sizeof *rows);
	done = calloc(n ? n : 1, 1);
	if (rows == NULL || done == NULL) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for %zu rows", n);
		goto fail;
	}
	/* one class at a time, in order of first appearance */
	for (i = 0; i < n; i++) {
		lsv_data *xc;
		lsv_pair *cp = NULL;
		size_t ncp = 0, r;

		if (done[i] || !lsv_data_is_labeled(x, i))
			continue;
		for (m = 0, r = i; r < n; r++)
			if (!done[r] && lsv_data_is_labeled(x, r) &&
			    x->y[r] == x->y[i]) {
				done[r] = 1;
				rows[m++] = r;
			}
		if ((xc = lsv_data_rows(x, rows, m)) == NULL) {
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for a class "
				      "of %zu rows", m);
			goto fail;
		}
		st = lsv_knn_pairs(xc, p, &cp, &ncp, &ci, err);
		lsv_data_free(xc);
		if (st == LSV_EINVAL && err != NULL && err->row >= 1 &&
		    err->row <= m) {  /* the row of the class named, as ours */
			lsv_error e2 = *err;
			const char *what = lsv_error_row_text(&e2);
			if (what != NULL)
				lsv_fail_row(err, LSV_EINVAL, rows[e2.row - 1] + 1,
					     "%s", what);
		}
		if (st != LSV_OK)
			goto fail;
		add_info(info, &ci, first);
		first = 0;
		if (lsv_grow((void **)&pairs, &cap, npairs + ncp + 1,
			     sizeof *pairs)) {
			free(cp);
			st = lsv_fail(err, LSV_ENOMEM, "out of memory for the pairs");
			goto fail;
		}
		for (e = 0; e < ncp; e++) {  /* the class's rows back to x's */
			pairs[npairs + e] = cp[e];
			pairs[npairs + e].i = (int)rows[cp[e].i];
			pairs[npairs + e].j = (int)rows[cp[e].j];
		}
		npairs += ncp;
		free(cp);
	}
	/* one graph: the heat width is the mean over every class's pairs */
	st = lsv_graph_assemble(n, pairs, npairs, p, out, info, err);
fail:
	free(rows);
	free(done);
	free(pairs);
	return st;
}

lsv_status lsv_graph_check_classes(const lsv_graph *g, const lsv_data *x,
				   lsv_error *err)
{
	size_t i, q;

	if (g->n != x->n)
		return lsv_fail(err, LSV_EINVAL,
				"the graph has %zu rows but the data %zu", g->n, x->n);
	for (i = 0; i < g->n; i++)
		for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++) {
			size_t j = (size_t)g->col[q];
			if (!lsv_data_is_labeled(x, i) || !lsv_data_is_labeled(x, j))
				return lsv_fail(err, LSV_EINVAL,
						"row %zu: edge %zu-%zu reaches row %zu, "
						"which is unlabeled (label %g, the "
						"unlabeled marker)", i + 1, i + 1, j + 1,
						lsv_data_is_labeled(x, i) ? j + 1 : i + 1,
						x->unlabeled);
			if (x->y[i] != x->y[j])
				return lsv_fail(err, LSV_EINVAL,
						"row %zu: edge %zu-%zu joins class %g and "
						"class %g", i + 1, i + 1, j + 1, x->y[i],
						x->y[j]);
		}
	return LSV_OK;
}

lsv_status lsv_graph_within_classes(const lsv_graph *g, const lsv_data *x,
				    lsv_graph **out, lsv_error *err)
{
	lsv_graph *h = calloc(1, sizeof *h);
	size_t i, q, nnz = 0;

	*out = NULL;
	if (g->n != x->n) {
		free(h);
		return lsv_fail(err, LSV_EINVAL,
				"the graph has %zu rows but the data %zu", g->n, x->n);
	}
	if (h != NULL) {
		h->rowptr = malloc((g->n + 1) * sizeof *h->rowptr);
		h->col = malloc((g->nnz ? g->nnz : 1) * sizeof *h->col);
		h->w = malloc((g->nnz ? g->nnz : 1) * sizeof *h->w);
	}
	if (h == NULL || !h->rowptr || !h->col || !h->w) {
		lsv_graph_free(h);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for a graph of %zu "
				"entries", g->nnz);
	}
	h->n = g->n;
	for (i = 0; i < g->n; i++) {
		h->rowptr[i] = nnz;
		if (!lsv_data_is_labeled(x, i))
			continue;
		for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++) {
			size_t j = (size_t)g->col[q];
			if (!lsv_data_is_labeled(x, j) || x->y[j] != x->y[i])
				continue;
			h->col[nnz] = g->col[q];
			h->w[nnz++] = g->w[q];
		}
	}
	h->rowptr[g->n] = nnz;
	h->nnz = nnz;
	*out = h;
	return LSV_OK;
}

lsv_status lsv_class_labeled_graph(const lsv_graph *g, const lsv_data *x,
				   lsv_graph **out, lsv_error *err)
{
	lsv_graph *h = calloc(1, sizeof *h);
	int *num = malloc((x->n ? x->n : 1) * sizeof *num);
	size_t i, q, k = 0, nnz = 0;

	*out = NULL;
	if (h != NULL) {
		h->rowptr = malloc((x->l + 1) * sizeof *h->rowptr);
		h->col = malloc((g->nnz ? g->nnz : 1) * sizeof *h->col);
		h->w = malloc((g->nnz ? g->nnz : 1) * sizeof *h->w);
	}
	if (h == NULL || num == NULL || !h->rowptr || !h->col || !h->w) {
		lsv_graph_free(h);
		free(num);
		return lsv_fail(err, LSV_ENOMEM, "out of memory for a graph of %zu "
				"entries", g->nnz);
	}
	for (i = 0; i < x->n; i++)  /* the labeled rows renumbered */
		num[i] = lsv_data_is_labeled(x, i) ? (int)k++ : -1;
	for (i = 0; i < x->n; i++) {
		if (num[i] < 0)
			continue;
		h->rowptr[num[i]] = nnz;
		for (q = g->rowptr[i]; q < g->rowptr[i + 1]; q++)
			if (num[g->col[q]] >= 0) {  /* increasing, as in g */
				h->col[nnz] = num[g->col[q]];
				h->w[nnz++] = g->w[q];
			}
	}
	h->n = k;
	h->rowptr[k] = nnz;
	h->nnz = nnz;
	free(num);
	*out = h;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The class weights w_c of the training parameters                    */
/* ------------------------------------------------------------------ */

lsv_status lsv_class_weights_check(const lsv_train_param *p, lsv_error *err)
{
	int j, k;

	if (p->class_graph != 0 && p->class_graph != 1)
		return lsv_fail(err, LSV_EINVAL, "class_graph %d (expected 0 or 1)",
				p->class_graph);
	if (p->nr_weight < 0)
		return lsv_fail(err, LSV_EINVAL, "nr_weight %d (expected >= 0)",
				p->nr_weight);
	if (p->nr_weight == 0)
		return LSV_OK;
	if (!p->class_graph)
		return lsv_fail(err, LSV_EINVAL,
				"class weights of the Laplacian need class-dependent "
				"Laplacians (a graph within each class)");
	if (p->weight_label == NULL || p->weight == NULL)
		return lsv_fail(err, LSV_EINVAL, "class weights missing");
	for (j = 0; j < p->nr_weight; j++) {
		if (!isfinite(p->weight_label[j]))
			return lsv_fail(err, LSV_EINVAL,
					"class weight for a label that is not finite");
		if (!(p->weight[j] > 0.0) || !isfinite(p->weight[j]))
			return lsv_fail(err, LSV_EINVAL,
					"weight %g of class %g out of range (expected "
					"a finite number > 0)", p->weight[j],
					p->weight_label[j]);
		for (k = 0; k < j; k++)
			if (p->weight_label[k] == p->weight_label[j])
				return lsv_fail(err, LSV_EINVAL,
						"class %g is given two weights (%g and %g)",
						p->weight_label[j], p->weight[k],
						p->weight[j]);
	}
	return LSV_OK;
}

double lsv_class_weight(const lsv_train_param *p, double label)
{
	int j;

	for (j = 0; j < p->nr_weight; j++)
		if (p->weight_label[j] == label)
			return p->weight[j];
	return 1.0;
}

lsv_status lsv_class_weights_known(const lsv_train_param *p,
				   const lsv_data *x, lsv_error *err)
{
	size_t i;
	int j;

	for (j = 0; j < p->nr_weight; j++) {
		for (i = 0; i < x->n; i++)
			if (lsv_data_is_labeled(x, i) && x->y[i] == p->weight_label[j])
				break;
		if (i == x->n)
			return lsv_fail(err, LSV_EINVAL,
					"a weight is given for class %g, but no labeled "
					"row has that class", p->weight_label[j]);
	}
	return LSV_OK;
}

lsv_status lsv_class_weigh_rows(lsv_lapop *L, const lsv_data *x,
				const lsv_train_param *p, lsv_error *err)
{
	double *w;
	size_t i;
	lsv_status st;

	if (p->nr_weight == 0)
		return LSV_OK;  /* every w_c = 1: D_w = I */
	if ((w = malloc((x->n ? x->n : 1) * sizeof *w)) == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu row weights",
				x->n);
	/* an unlabeled row is isolated: its weight multiplies a zero row */
	for (i = 0; i < x->n; i++)
		w[i] = lsv_data_is_labeled(x, i) ? lsv_class_weight(p, x->y[i])
						 : 1.0;
	st = lsv_lapop_scale(L, w, err);
	free(w);
	return st;
}
