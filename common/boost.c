/*
 * boost.c -- ManifoldBoost with regression trees (Loeff, Forsyth &
 * Ramachandran, "ManifoldBoost: stagewise function approximation for
 * fully-, semi- and un-supervised learning", ICML 2008, Algorithm 1),
 * lapsvm-train -s boost.
 *
 * Objective (the paper's eq. 6 with the (l+u)^2 of its eq. 7, so that
 * gamma_M is the gamma_I of JMLR 2006 eq. 4 and -I / -i mean what they
 * mean for every other solver; the paper's extra 1/K is dropped):
 *
 *     V[F] = 1/l sum_{i labeled} phi(y_i, F(x_i)) + gamma_M/(l+u)^2 F'L^p F,
 *     phi(y, F) = log(1 + exp(-2 y F))          (binomial deviance),
 *
 * F the vector of F(x_i) over all n = l + u training rows, y_i = +1 for
 * the first class (labels[0]) and -1 for the other, L^p the (iterated)
 * graph Laplacian.  The minimizer is sought among additive models
 * F_M(x) = F_0 + sum_m f_m(x), f_m a regression tree.
 *
 * Update.  F_0 = 1/2 log((1 + ybar)/(1 - ybar)), ybar the mean labeled y
 * (Algorithm 1, line 1: the constant minimizing the loss).  Round m:
 *   1. the functional gradient at every row (eq. 8),
 *        g_i = [i labeled] 1/l (-2 y_i / (1 + exp(2 y_i F_i)))
 *              + 2 gamma_M/n^2 (L^p F)_i,
 *      the Laplacian part by the sparse operator (O(p nnz(W)));
 *   2. a regression tree of depth D fitted by least squares to -g over all
 *      n rows (CART's variance reduction: the split maximizing
 *      S_L^2/n_L + S_R^2/n_R - S^2/n), the split search on histograms of
 *      at most LSV_BOOST_BINS bins per feature fixed once from the
 *      training values' quantiles, so a level costs O(n d);
 *   3. its leaf values beta_s refitted on the true cost V(F + sum_s beta_s
 *      I[x in R_s]) by BOOST_STEPS quasi-Newton (BFGS) steps from beta = 0
 *      (Algorithm 1, line 5; a few steps, as the paper, to keep a round
 *      from overfitting): the gradient dV/dbeta_s = sum_{i in R_s} g_i,
 *      the inverse Hessian started at the inverse of its diagonal
 *      estimate (1/l sum phi'' over the labeled rows of the leaf plus
 *      2 gamma_M/n^2 sum (L)_ii), and an exact line search along each step
 *      (V is a convex function of the step length t: the loss of the l
 *      labeled rows plus a quadratic whose coefficients take one sparse
 *      product, so it is minimized by safeguarded Newton in O(l) per
 *      probe; a step moves no F_i by more than BOOST_MAX_MOVE, as the
 *      loss alone has no minimizer on separable labeled rows);
 *   4. F += nu sum_s beta_s I[x in R_s] (shrinkage nu, Friedman 1999), the
 *      tree stored with its leaves nu beta_s.
 * Stop after M rounds, or when |V_{m-1} - V_m| < tol V_{m-1}.
 *
 * Nothing is random: the result depends on the data, graph and settings
 * only.  Memory: the n x d bins (bytes), a few arrays of n, the S x S BFGS
 * matrix (S <= 2^D leaves), the graph.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

#define LSV_BOOST_BINS 256     /* histogram bins per feature (bytes) */
#define BOOST_STEPS 3          /* BFGS steps per round */
#define BOOST_MAX_MOVE 10.0    /* largest change of an F_i in one step */

/* softplus(z) = log(1 + exp(z)), without overflow */
static double softplus(double z)
{
	return z > 0.0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* 1 / (1 + exp(-z)) */
static double sigmoid(double z)
{
	if (z >= 0.0)
		return 1.0 / (1.0 + exp(-z));
	return exp(z) / (1.0 + exp(z));
}

/* phi(y, F), phi' = dphi/dF = -2 y s, phi'' = 4 s (1 - s), s = sigmoid(-2yF) */
static double phi(double y, double f)
{
	return softplus(-2.0 * y * f);
}
static double dphi(double y, double f)
{
	return -2.0 * y * sigmoid(-2.0 * y * f);
}
static double d2phi(double y, double f)
{
	double s = sigmoid(-2.0 * y * f);
	return 4.0 * s * (1.0 - s);
}

/* The cost's parts at F given LF = L^p F (NULL when c = 0), and, when g
 * is not NULL, the gradient g (n values). */
static void cost_from(size_t n, const size_t *lab, const double *y, size_t l,
		      double c, const double *F, const double *LF, double *g,
		      double *loss, double *reg)
{
	double s = 0.0, q = 0.0;
	size_t i, r;

	for (r = 0; r < l; r++)
		s += phi(y[r], F[lab[r]]);
	s /= (double)l;
	if (c > 0.0)
		for (i = 0; i < n; i++)
			q += F[i] * LF[i];
	*loss = s;
	*reg = c * q;
	if (g == NULL)
		return;
	for (i = 0; i < n; i++)
		g[i] = c > 0.0 ? 2.0 * c * LF[i] : 0.0;
	for (r = 0; r < l; r++)
		g[lab[r]] += dphi(y[r], F[lab[r]]) / (double)l;
}

lsv_status lsv_boost_cost(const lsv_lapop *L, double c, size_t n,
			  const size_t *lab, const double *y, size_t l,
			  const double *F, double *g, double *loss,
			  double *reg, lsv_error *err)
{
	double *LF = NULL;
	lsv_status st;

	if (l == 0)
		return lsv_fail(err, LSV_EINVAL, "no labeled rows");
	if (c > 0.0) {
		if (L == NULL)
			return lsv_fail(err, LSV_EINVAL,
					"gamma_M > 0 needs a graph");
		if ((LF = lsv_alloc(n, sizeof *LF)) == NULL)
			return lsv_fail(err, LSV_ENOMEM, "out of memory");
		if ((st = lsv_lapop_apply(L, F, LF, 1, 1.0, err)) != LSV_OK) {
			free(LF);
			return st;
		}
	}
	cost_from(n, lab, y, l, c, F, LF, g, loss, reg);
	free(LF);
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Histogram bins                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t n, d;
	unsigned char *bin;  /* n x d, row-major: the bin of x_ij */
	int *nb;             /* bins of each feature (1: constant) */
	double *cut;         /* d x (LSV_BOOST_BINS - 1): x <= cut[b] iff
				bin <= b */
} bins;

static void bins_free(bins *B)
{
	free(B->bin);
	free(B->nb);
	free(B->cut);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The bin of value v: the number of cuts below v. */
static int bin_of(const double *cut, int ncut, double v)
{
	int lo = 0, hi = ncut;  /* first cut >= v */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cut[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Cuts of each feature from the sorted n values (zeros of a sparse row
 * included): a cut halfway between two consecutive distinct values; all
 * of them when there are fewer than LSV_BOOST_BINS, else the first at or
 * beyond each of the ranks k n / LSV_BOOST_BINS (quantiles).  *useful:
 * the features with at least two bins.
 */
static lsv_status bins_build(const lsv_data *x, const lsv_train_param *p,
			     bins *B, size_t *useful, lsv_error *err)
{
	size_t n = x->n, d = x->dim, i, q, j;
	size_t *cnt = NULL, *start = NULL, *fill = NULL;
	double *csc = NULL, *v = NULL;
	const int MC = LSV_BOOST_BINS - 1;
	lsv_status st = LSV_OK;

	memset(B, 0, sizeof *B);
	B->n = n;
	B->d = d;
	*useful = 0;
	if ((st = lsv_check_bytes(p, ((double)n * (double)d +
				      8.0 * (double)x->nnz) / 8.0 +
				  (double)d * MC + 2.0 * (double)n,
				  "the binned features (n x d bytes)",
				  "use fewer features", err)) != LSV_OK)
		return st;
	B->bin = lsv_alloc(n * d, 1);
	B->nb = lsv_alloc(d, sizeof *B->nb);
	B->cut = lsv_alloc(d * (size_t)MC, sizeof *B->cut);
	cnt = calloc(d + 1, sizeof *cnt);
	start = calloc(d + 1, sizeof *start);
	fill = calloc(d + 1, sizeof *fill);
	csc = lsv_alloc(x->nnz, sizeof *csc);
	v = lsv_alloc(n, sizeof *v);
	if (!B->bin || !B->nb || !B->cut || !cnt || !start || !fill || !csc ||
	    !v) {
		st = lsv_fail(err, LSV_ENOMEM, "out of memory for the binned "
			      "features (%zu x %zu)", n, d);
		goto done;
	}
	for (q = 0; q < x->nnz; q++)
		cnt[x->col[q]]++;
	for (j = 0; j < d; j++)
		start[j + 1] = start[j] + cnt[j];
	for (i = 0; i < n; i++)
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			size_t c = (size_t)x->col[q];
			csc[start[c] + fill[c]++] = x->val[q];
		}
	for (j = 0; j < d; j++) {
		double *cut = B->cut + j * (size_t)MC;
		size_t a, nz = cnt[j];
		int ncut = 0, k = 1, distinct = 0;
		memcpy(v, csc + start[j], nz * sizeof *v);
		for (a = nz; a < n; a++)
			v[a] = 0.0;
		qsort(v, n, sizeof *v, cmp_double);
		for (a = 0; a + 1 < n; a++)
			distinct += v[a] < v[a + 1];
		for (a = 0; a + 1 < n; a++) {
			double m;
			if (!(v[a] < v[a + 1]))
				continue;
			/* a cut left of rank a + 1: all of them, or the first
			 * at or past the next quantile rank */
			if (distinct > MC &&
			    (double)(a + 1) * LSV_BOOST_BINS < (double)k * (double)n)
				continue;
			if (ncut == MC)
				break;
			m = v[a] / 2.0 + v[a + 1] / 2.0;
			if (!(m >= v[a] && m < v[a + 1]))
				m = v[a];
			cut[ncut++] = m;
			while ((double)k * (double)n <=
			       (double)(a + 1) * LSV_BOOST_BINS)
				k++;
		}
		B->nb[j] = ncut + 1;
		*useful += ncut > 0;
		{
			unsigned char z = (unsigned char)bin_of(cut, ncut, 0.0);
			for (i = 0; i < n; i++)
				B->bin[i * d + j] = z;
		}
	}
	for (i = 0; i < n; i++)
		for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++) {
			size_t c = (size_t)x->col[q];
			B->bin[i * d + c] = (unsigned char)bin_of(
				B->cut + c * (size_t)MC, B->nb[c] - 1, x->val[q]);
		}
done:
	free(cnt);
	free(start);
	free(fill);
	free(csc);
	free(v);
	if (st != LSV_OK)
		bins_free(B);
	return st;
}

/* ------------------------------------------------------------------ */
/* One regression tree fitted by least squares to r                    */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t a, b;   /* its rows idx[a..b) */
	int depth;
} span;

/*
 * Grow the tree of depth at most D on r (n values) level by level: a
 * node splits on the (feature, bin) of largest variance reduction (the
 * first in feature, then bin order on a tie), if that reduction is > 0
 * and both sides keep a row; else it is a leaf.  Fills t (nodes in
 * breadth-first order) and leaf[i], the leaf number (0..*S-1) of row i;
 * leafnode[s] the node of leaf s.  idx, tmp: n scratch; hs, hc: d x BINS.
 */
static lsv_status grow_tree(const bins *B, const double *r, int D,
			    lsv_tree *t, int *leaf, int *leafnode, int *S,
			    size_t *idx, size_t *tmp, span *sp, double *hs,
			    size_t *hc)
{
	size_t n = B->n, d = B->d, i, j;
	int head = 0, nn = 1, ns = 0;

	for (i = 0; i < n; i++)
		idx[i] = i;
	sp[0].a = 0;
	sp[0].b = n;
	sp[0].depth = 0;
	while (head < nn) {
		int v = head++, bj = -1, bb = -1;
		size_t a = sp[v].a, b = sp[v].b, cnt = b - a, k;
		double tot = 0.0, best = 0.0;
		lsv_tree_node *nd = &t->node[v];

		for (k = a; k < b; k++)
			tot += r[idx[k]];
		if (sp[v].depth < D && cnt >= 2) {
			memset(hs, 0, d * LSV_BOOST_BINS * sizeof *hs);
			memset(hc, 0, d * LSV_BOOST_BINS * sizeof *hc);
			for (k = a; k < b; k++) {
				const unsigned char *row = B->bin + idx[k] * d;
				double rv = r[idx[k]];
				for (j = 0; j < d; j++) {
					hs[j * LSV_BOOST_BINS + row[j]] += rv;
					hc[j * LSV_BOOST_BINS + row[j]]++;
				}
			}
			for (j = 0; j < d; j++) {
				double sl = 0.0;
				size_t nl = 0;
				int q;
				for (q = 0; q + 1 < B->nb[j]; q++) {
					double gain;
					sl += hs[j * LSV_BOOST_BINS + (size_t)q];
					nl += hc[j * LSV_BOOST_BINS + (size_t)q];
					if (nl == 0 || nl == cnt)
						continue;
					gain = sl * sl / (double)nl +
					       (tot - sl) * (tot - sl) /
						       (double)(cnt - nl) -
					       tot * tot / (double)cnt;
					if (gain > best * (1.0 + 1e-12) + 1e-300) {
						best = gain;
						bj = (int)j;
						bb = q;
					}
				}
			}
		}
		if (bj < 0) {  /* a leaf: its least-squares value */
			nd->feature = -1;
			nd->threshold = 0.0;
			nd->left = nd->right = 0;
			nd->value = tot / (double)cnt;
			for (k = a; k < b; k++)
				leaf[idx[k]] = ns;
			leafnode[ns++] = v;
			continue;
		}
		{  /* stable partition: bin <= bb to the left */
			size_t w = a, o = 0;
			for (k = a; k < b; k++) {
				size_t row = idx[k];
				if (B->bin[row * d + (size_t)bj] <= bb)
					idx[w++] = row;
				else
					tmp[o++] = row;
			}
			memcpy(idx + w, tmp, o * sizeof *idx);
			nd->feature = bj;
			nd->threshold = B->cut[(size_t)bj * (LSV_BOOST_BINS - 1) +
					       (size_t)bb];
			nd->value = 0.0;
			nd->left = nn;
			nd->right = nn + 1;
			sp[nn].a = a;
			sp[nn].b = w;
			sp[nn].depth = sp[v].depth + 1;
			sp[nn + 1].a = w;
			sp[nn + 1].b = b;
			sp[nn + 1].depth = sp[v].depth + 1;
			nn += 2;
		}
	}
	t->nnodes = nn;
	*S = ns;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The leaf values: BFGS on the true cost                              */
/* ------------------------------------------------------------------ */

typedef struct {
	size_t n, l;
	const size_t *lab;
	const double *y;   /* l targets +-1 */
	double c;          /* gamma_M / n^2 */
	const lsv_lapop *L;
} prob;

/*
 * min over t in [0, tmax] of phi(t) = 1/l sum phi(y, Fb + t q) + c (Fb'L Fb
 * + 2 t a1 + t^2 a2), a1 = q'L Fb, a2 = q'L q: phi is convex, so
 * bracketing on the sign of phi' and Newton steps inside the bracket.
 */
static double line_search(const prob *P, const double *Fb, const double *q,
			  double a1, double a2, double tmax)
{
	double lo = 0.0, hi = tmax, t = tmax < 1.0 ? tmax : 1.0, d0 = 0.0;
	int it;
	size_t r;

	for (it = 0; it < 60; it++) {
		double d1 = 2.0 * P->c * (a1 + t * a2), d2 = 2.0 * P->c * a2, tn;
		for (r = 0; r < P->l; r++) {
			size_t i = P->lab[r];
			double f = Fb[i] + t * q[i];
			d1 += dphi(P->y[r], f) * q[i] / (double)P->l;
			d2 += d2phi(P->y[r], f) * q[i] * q[i] / (double)P->l;
		}
		if (it == 0)
			d0 = fabs(d1);
		if (d1 == 0.0 || fabs(d1) <= 1e-13 * d0)
			return t;
		if (d1 > 0.0)
			hi = t;
		else
			lo = t;
		if (hi - lo <= 1e-12 * hi)
			return d1 > 0.0 ? lo : t;
		tn = d2 > 0.0 ? t - d1 / d2 : (d1 > 0.0 ? lo : hi);
		if (!(tn > lo && tn < hi))
			tn = d1 < 0.0 && hi == tmax ? hi : 0.5 * (lo + hi);
		if (tn == t)
			return t;
		t = tn;
	}
	return t;
}

/*
 * BOOST_STEPS BFGS steps on beta (S leaf values) from 0 for V(F + B beta),
 * B the n x S leaf indicator (leaf[i]); LF = L^p F.  Scratch: Fb, LFb, g,
 * q, Lq (n each); the result in beta.
 */
static lsv_status fit_leaves(const prob *P, const double *F, const double *LF,
			     const int *leaf, int S, const double *Ldiag,
			     double *beta, double *H, double *G, double *Gn,
			     double *dir, double *sv, double *Fb, double *LFb,
			     double *g, double *q, double *Lq, lsv_error *err)
{
	size_t n = P->n, i, r, s, u;
	size_t SS = (size_t)S;
	int step;
	lsv_status st;
	double loss, reg;

	memcpy(Fb, F, n * sizeof *Fb);
	if (P->c > 0.0)
		memcpy(LFb, LF, n * sizeof *LFb);
	memset(beta, 0, SS * sizeof *beta);
	/* H_0 = diag(1/h_s), h_s the diagonal of the Hessian's estimate */
	memset(H, 0, SS * SS * sizeof *H);
	memset(G, 0, SS * sizeof *G);
	for (r = 0; r < P->l; r++) {
		size_t i2 = P->lab[r];
		G[leaf[i2]] += d2phi(P->y[r], F[i2]) / (double)P->l;
	}
	if (P->c > 0.0)
		for (i = 0; i < n; i++)
			G[leaf[i]] += 2.0 * P->c * Ldiag[i];
	for (s = 0; s < SS; s++)
		H[s * SS + s] = G[s] > 0.0 ? 1.0 / G[s] : 0.0;
	cost_from(n, P->lab, P->y, P->l, P->c, Fb, P->c > 0.0 ? LFb : NULL, g,
		  &loss, &reg);
	memset(G, 0, SS * sizeof *G);
	for (i = 0; i < n; i++)
		G[leaf[i]] += g[i];
	for (step = 0; step < BOOST_STEPS; step++) {
		double a1 = 0.0, a2 = 0.0, qmax = 0.0, t, sy = 0.0, gd = 0.0;
		for (s = 0; s < SS; s++) {
			double v = 0.0;
			for (u = 0; u < SS; u++)
				v -= H[s * SS + u] * G[u];
			dir[s] = v;
			gd += v * G[s];
		}
		if (!(gd < 0.0))  /* no descent left (or G = 0) */
			break;
		for (i = 0; i < n; i++) {
			q[i] = dir[leaf[i]];
			qmax = fmax(qmax, fabs(q[i]));
		}
		if (!(qmax > 0.0))
			break;
		if (P->c > 0.0) {
			if ((st = lsv_lapop_apply(P->L, q, Lq, 1, 1.0, err)) !=
			    LSV_OK)
				return st;
			for (i = 0; i < n; i++) {
				a1 += q[i] * LFb[i];
				a2 += q[i] * Lq[i];
			}
		}
		t = line_search(P, Fb, q, a1, a2, BOOST_MAX_MOVE / qmax);
		if (!(t > 0.0))
			break;
		for (s = 0; s < SS; s++) {
			sv[s] = t * dir[s];
			beta[s] += sv[s];
		}
		for (i = 0; i < n; i++) {
			Fb[i] += t * q[i];
			if (P->c > 0.0)
				LFb[i] += t * Lq[i];
		}
		cost_from(n, P->lab, P->y, P->l, P->c, Fb,
			  P->c > 0.0 ? LFb : NULL, g, &loss, &reg);
		memset(Gn, 0, SS * sizeof *Gn);
		for (i = 0; i < n; i++)
			Gn[leaf[i]] += g[i];
		/* BFGS: H = (I - rho s y') H (I - rho y s') + rho s s',
		 * y = Gn - G, rho = 1/(y's), when y's > 0 */
		for (s = 0; s < SS; s++) {
			G[s] = Gn[s] - G[s];  /* y */
			sy += G[s] * sv[s];
		}
		if (sy > 1e-300) {
			double rho = 1.0 / sy, yHy = 0.0;
			/* Hy into dir */
			for (s = 0; s < SS; s++) {
				double v = 0.0;
				for (u = 0; u < SS; u++)
					v += H[s * SS + u] * G[u];
				dir[s] = v;
				yHy += G[s] * v;
			}
			for (s = 0; s < SS; s++)
				for (u = 0; u < SS; u++)
					H[s * SS + u] += -rho * (dir[s] * sv[u] +
								 sv[s] * dir[u]) +
							 (rho * rho * yHy + rho) *
								 sv[s] * sv[u];
		}
		memcpy(G, Gn, SS * sizeof *G);
	}
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The model                                                           */
/* ------------------------------------------------------------------ */

static lsv_status boost_model(const lsv_fit *F, double F0, lsv_tree *trees,
			      size_t ntrees, lsv_model **out)
{
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);

	if (m == NULL || sv == NULL)
		goto nomem;
	m->param = *F->p;
	m->l = F->l;
	m->u = F->n - F->l;
	m->unlabeled = F->x->unlabeled;
	m->nr_class = F->nr_class;
	m->nr_fn = F->nr_fn;
	m->sv = sv;
	sv->unlabeled = F->x->unlabeled;
	sv->dim = F->x->dim;
	m->labels = lsv_alloc((size_t)F->nr_class, sizeof *m->labels);
	m->bias = lsv_alloc(1, sizeof *m->bias);
	sv->rowptr = calloc(1, sizeof *sv->rowptr);
	sv->y = calloc(1, sizeof *sv->y);
	if (!m->labels || !m->bias || !sv->rowptr || !sv->y)
		goto nomem;
	memcpy(m->labels, F->labels, (size_t)F->nr_class * sizeof *m->labels);
	m->bias[0] = F0;
	m->trees = trees;
	m->ntrees = ntrees;
	*out = m;
	return LSV_OK;
nomem:
	if (m != NULL) {
		m->sv = sv;
		lsv_model_free(m);
	} else
		free(sv);
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
}

/* ------------------------------------------------------------------ */
/* Algorithm 1                                                         */
/* ------------------------------------------------------------------ */

lsv_status lsv_fit_boost(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, l = F->l, i, r, useful, ntrees = 0;
	int D = p->boost_depth, maxnodes = (1 << (D + 1)) - 1, S, k;
	size_t maxleaves = (size_t)1 << D;
	double c = F->L != NULL ? lsv_fit_intrinsic(F, 1.0) : 0.0;
	double nu = p->boost_shrinkage, ybar = 0.0, F0, loss, reg, V, V0;
	bins B;
	prob P;
	lsv_status st;
	lsv_tree *trees = NULL;
	long m;
	/* arrays of n */
	double *Fv = NULL, *LF = NULL, *g = NULL, *res = NULL, *Fb = NULL,
	       *LFb = NULL, *gb = NULL, *q = NULL, *Lq = NULL, *Ldiag = NULL;
	size_t *idx = NULL, *tmp = NULL, *hc = NULL;
	int *leaf = NULL, *leafnode = NULL;
	span *sp = NULL;
	double *hs = NULL, *H = NULL, *beta = NULL, *G = NULL, *Gn = NULL,
	       *dir = NULL, *svec = NULL;

	*out = NULL;
	if (F->nr_fn != 1)
		return lsv_fail(F->err, LSV_EINVAL,
				"boosting is binary here: the labeled rows have %d "
				"classes (expected 2; the paper's K-tree "
				"multiclass algorithm is not implemented)",
				F->nr_class);
	if (l == 0)
		return lsv_fail(F->err, LSV_EINVAL, "no labeled rows");
	if ((st = bins_build(F->x, p, &B, &useful, F->err)) != LSV_OK)
		return st;
	if (useful == 0) {
		bins_free(&B);
		return lsv_fail(F->err, LSV_EINVAL,
				"every feature is constant over the %zu rows (or "
				"there are none): a tree has nothing to split", n);
	}
	if ((st = lsv_check_bytes(p, 12.0 * (double)n +
				  (double)maxleaves * (double)maxleaves +
				  2.0 * (double)B.d * LSV_BOOST_BINS +
				  (double)p->boost_rounds * maxnodes * 3.0,
				  "the boosting arrays and the trees",
				  "use fewer rounds (-n) or shallower trees (-D)",
				  F->err)) != LSV_OK) {
		bins_free(&B);
		return st;
	}
	Fv = lsv_alloc(n, sizeof *Fv);
	LF = calloc(n ? n : 1, sizeof *LF);
	g = lsv_alloc(n, sizeof *g);
	res = lsv_alloc(n, sizeof *res);
	Fb = lsv_alloc(n, sizeof *Fb);
	LFb = calloc(n ? n : 1, sizeof *LFb);
	gb = lsv_alloc(n, sizeof *gb);
	q = lsv_alloc(n, sizeof *q);
	Lq = lsv_alloc(n, sizeof *Lq);
	Ldiag = calloc(n ? n : 1, sizeof *Ldiag);
	idx = lsv_alloc(n, sizeof *idx);
	tmp = lsv_alloc(n, sizeof *tmp);
	leaf = lsv_alloc(n, sizeof *leaf);
	leafnode = lsv_alloc(maxleaves, sizeof *leafnode);
	sp = lsv_alloc((size_t)maxnodes, sizeof *sp);
	hs = lsv_alloc(B.d * LSV_BOOST_BINS, sizeof *hs);
	hc = lsv_alloc(B.d * LSV_BOOST_BINS, sizeof *hc);
	H = lsv_alloc(maxleaves * maxleaves, sizeof *H);
	beta = lsv_alloc(maxleaves, sizeof *beta);
	G = lsv_alloc(maxleaves, sizeof *G);
	Gn = lsv_alloc(maxleaves, sizeof *Gn);
	dir = lsv_alloc(maxleaves, sizeof *dir);
	svec = lsv_alloc(maxleaves, sizeof *svec);
	trees = calloc((size_t)p->boost_rounds, sizeof *trees);
	if (!Fv || !LF || !g || !res || !Fb || !LFb || !gb || !q || !Lq ||
	    !Ldiag || !idx || !tmp || !leaf || !leafnode || !sp || !hs || !hc ||
	    !H || !beta || !G || !Gn || !dir || !svec || !trees) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for boosting");
		goto done;
	}
	/* the diagonal of L (p = 1) for the BFGS start; with p > 1 only an
	 * estimate, which is all the start needs */
	if (c > 0.0)
		for (i = 0; i < n; i++)
			Ldiag[i] = F->L->deg[i] > 0.0
				? (F->L->normalized ? 1.0 : F->L->deg[i]) : 0.0;
	P.n = n;
	P.l = l;
	P.lab = F->lab;
	P.y = F->Y;
	P.c = c;
	P.L = F->L;
	/* F_0 = 1/2 log((1 + ybar)/(1 - ybar)) */
	for (r = 0; r < l; r++)
		ybar += F->Y[r];
	ybar /= (double)l;
	F0 = 0.5 * log((1.0 + ybar) / (1.0 - ybar));
	for (i = 0; i < n; i++)
		Fv[i] = F0;
	/* L 1 is 0 for the unnormalized Laplacian, not the normalized */
	if (c > 0.0 &&
	    (st = lsv_lapop_apply(F->L, Fv, LF, 1, 1.0, F->err)) != LSV_OK)
		goto done;
	cost_from(n, F->lab, F->Y, l, c, Fv, c > 0.0 ? LF : NULL, g, &loss,
		  &reg);
	V0 = V = loss + reg;
	F->report->boost_cost0 = V0;
	for (m = 1; m <= p->boost_rounds; m++) {
		lsv_tree *t = &trees[ntrees];
		double Vn;
		/* 1-2: the tree fitted to -g */
		for (i = 0; i < n; i++)
			res[i] = -g[i];
		t->fn = 0;
		t->node = lsv_alloc((size_t)maxnodes, sizeof *t->node);
		if (t->node == NULL) {
			st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for a "
				      "tree");
			goto done;
		}
		ntrees++;
		grow_tree(&B, res, D, t, leaf, leafnode, &S, idx, tmp, sp, hs,
			  hc);
		{  /* keep only the nodes used */
			lsv_tree_node *fit = realloc(t->node, (size_t)t->nnodes *
						     sizeof *fit);
			if (fit != NULL)
				t->node = fit;
		}
		/* 3: its leaf values by BFGS on V */
		if ((st = fit_leaves(&P, Fv, LF, leaf, S, Ldiag, beta, H, G, Gn,
				     dir, svec, Fb, LFb, gb, q, Lq, F->err)) !=
		    LSV_OK)
			goto done;
		/* 4: with shrinkage */
		for (k = 0; k < S; k++) {
			lsv_tree_node *nd = &t->node[leafnode[k]];
			nd->value = nu * beta[k];
			if (!isfinite(nd->value)) {
				st = lsv_fail(F->err, LSV_ENUMERIC, "round %ld: a "
					      "leaf value is not finite", m);
				goto done;
			}
		}
		for (i = 0; i < n; i++)
			Fv[i] += nu * beta[leaf[i]];
		if (c > 0.0 && (st = lsv_lapop_apply(F->L, Fv, LF, 1, 1.0,
						     F->err)) != LSV_OK)
			goto done;
		cost_from(n, F->lab, F->Y, l, c, Fv, c > 0.0 ? LF : NULL, g,
			  &loss, &reg);
		Vn = loss + reg;
		F->report->boost_rounds = m;
		if (F->progress->boost != NULL)
			F->progress->boost(F->progress->ctx, m, Vn, loss, reg);
		if (p->boost_tol > 0.0 && fabs(V - Vn) < p->boost_tol * V) {
			V = Vn;
			F->report->boost_converged = 1;
			break;
		}
		V = Vn;
	}
	F->report->boost_cost = V;
	if ((st = boost_model(F, F0, trees, ntrees, out)) != LSV_OK)
		goto done;
	trees = NULL;
	/* the training rows' values: F itself (-o) */
	if ((F->report->train_f = lsv_alloc(n, sizeof *F->report->train_f)) ==
	    NULL) {
		lsv_model_free(*out);
		*out = NULL;
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory");
		goto done;
	}
	memcpy(F->report->train_f, Fv, n * sizeof *Fv);
done:
	if (trees != NULL) {
		for (i = 0; i < ntrees; i++)
			free(trees[i].node);
		free(trees);
	}
	bins_free(&B);
	free(Fv);
	free(LF);
	free(g);
	free(res);
	free(Fb);
	free(LFb);
	free(gb);
	free(q);
	free(Lq);
	free(Ldiag);
	free(idx);
	free(tmp);
	free(leaf);
	free(leafnode);
	free(sp);
	free(hs);
	free(hc);
	free(H);
	free(beta);
	free(G);
	free(Gn);
	free(dir);
	free(svec);
	return st;
}
