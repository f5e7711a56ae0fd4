/*
 * nystrom.c -- LapRLS and LapSVM (squared hinge) in the primal on a
 * feature map, f = Phi w + b, so that no n x n array exists: memory
 * O(n m) for m landmarks, or O(nnz) for the linear kernel on sparse data.
 *
 * Objective: JMLR 2006 eq. 4 on f = Phi w + b with |f|_K^2 = |w|^2 (see
 * primal.c, which minimizes it by the Newton driver).
 *
 * Nystrom (landmarks m): m rows Z sampled uniformly without replacement
 * (seeded), K_mm = U Lambda U' (eigenvalues under 1e-10 of the largest
 * dropped, rank r), features Phi = K_nZ U_r Lambda_r^-1/2, so Phi Phi' =
 * K_nZ K_ZZ^+ K_Zn ~ K (Williams & Seeger, NIPS 2001); the model keeps the
 * landmarks with beta = U_r Lambda_r^-1/2 w, f(x) = sum_j beta_j k(z_j, x)
 * + b.  Linear kernel without landmarks: Phi = X (the features that occur,
 * compactly numbered), the model keeps w itself.
 *
 * Warm start (p->init, F->warm: a model of this method trained on a
 * prefix of the rows, checked by train.c): Nystrom keeps the model's
 * landmarks (its expansion points, the rows F->warm_rows of x) instead of
 * sampling, so K_mm -- the same rows' kernel, computed the same way -- and
 * V are the model's and w means what it meant; the new rows get their
 * Phi rows from those landmarks.  The start is w = Lambda_r V' beta (V'V
 * = Lambda_r^-1: the w of the model's beta = V w) and the model's b (less
 * a balance shift).  The linear map starts from the model's weights, each
 * feature at its compact number (a model feature that no row has is
 * refused: the model was not trained on these rows).  Newton then
 * minimizes the same objective from there (primal.c); a start of all
 * zeros is the cold start itself, and is run as one.
 *
 * Distributed (p->comm of P > 1 ranks): rank r builds its block of rows
 * of Phi only (lsv_comm_block) (the landmarks, K_mm and V are the same on every
 * rank: one seeded sampling over all n rows), lsv_primal_train reduces
 * and gathers across the blocks, and the training outputs are gathered at
 * the end; every rank ends with the same model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "solver.h"

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

lsv_status lsv_nystrom_build(const lsv_data *x, const lsv_train_param *p,
			     lsv_nystrom *ny, lsv_error *err)
{
	return lsv_nystrom_build_rows(x, p, 0, x->n, ny, err);
}

lsv_status lsv_nystrom_build_rows(const lsv_data *x, const lsv_train_param *p,
				  size_t lo, size_t nl, lsv_nystrom *ny,
				  lsv_error *err)
{
	size_t n = x->n, m, i, *perm, *idx;
	lsv_rng rng;
	lsv_status st;

	m = (size_t)p->landmarks < n ? (size_t)p->landmarks : n;
	perm = lsv_alloc(n, sizeof *perm);
	idx = lsv_alloc(m, sizeof *idx);
	if (perm == NULL || idx == NULL) {
		free(perm);
		free(idx);
		memset(ny, 0, sizeof *ny);
		return lsv_fail(err, LSV_ENOMEM,
				"out of memory for the Nystrom features");
	}
	/* partial Fisher-Yates: the first m of a seeded shuffle */
	lsv_rng_seed(&rng, p->seed);
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = 0; i < m; i++) {
		size_t k = i + (size_t)(lsv_rng_uniform(&rng) * (double)(n - i));
		size_t t = perm[i];
		if (k >= n)
			k = n - 1;
		perm[i] = perm[k];
		perm[k] = t;
		idx[i] = perm[i];
	}
	qsort(idx, m, sizeof *idx, size_cmp);
	st = lsv_nystrom_build_at(x, p, idx, m, lo, nl, ny, err);
	free(perm);
	free(idx);
	return st;
}

static lsv_status nystrom_nomem(lsv_error *err)
{
	return lsv_fail(err, LSV_ENOMEM, "out of memory for the Nystrom features");
}

/* K_mm = U Lambda U' in place (divide and conquer, dsyevd): ev (m)
 * ascending, U in Kmm's columns. */
static lsv_status landmark_eigen(double *Kmm, size_t m, double *ev,
				 lsv_error *err)
{
	int info;

	if (lsv_dsyevd(Kmm, m, ev, &info) != LSV_OK)
		return nystrom_nomem(err);
	if (info != 0)
		return lsv_fail(err, LSV_ENUMERIC,
				"the landmarks' kernel matrix has no "
				"eigendecomposition (LAPACK dsyevd info %d)", info);
	return LSV_OK;
}

/* ny->V = U_r Lambda_r^-1/2 and ny->lam = Lambda_r over the r
 * eigenvalues above LSV_NYSTROM_CUTOFF times the largest (the last r
 * columns of U: ev ascending), and room for Phi (nl x r). */
static lsv_status nystrom_basis(lsv_nystrom *ny, const double *U,
				const double *ev, lsv_error *err)
{
	size_t m = ny->m, i, j, q;
	double wmax = ev[m - 1];

	if (!(wmax > 0.0))
		return lsv_fail(err, LSV_ENUMERIC,
				"the landmarks' kernel matrix is zero");
	for (j = 0; j < m; j++)
		if (ev[j] > LSV_NYSTROM_CUTOFF * wmax)
			break;
	ny->r = m - j;
	ny->V = lsv_alloc(m * ny->r, sizeof *ny->V);
	ny->lam = lsv_alloc(ny->r, sizeof *ny->lam);
	ny->Phi = lsv_alloc(ny->nl * ny->r + 1, sizeof *ny->Phi);
	if (ny->V == NULL || ny->lam == NULL || ny->Phi == NULL)
		return nystrom_nomem(err);
	for (i = j; i < m; i++) {
		double sc = 1.0 / sqrt(ev[i]);
		ny->lam[i - j] = ev[i];
		for (q = 0; q < m; q++)
			ny->V[q + (i - j) * m] = U[q + i * m] * sc;
	}
	return LSV_OK;
}

/* Phi = K_nZ V (nl x r): the features of rows [lo, lo + nl). */
static void nystrom_features(lsv_nystrom *ny, const double *Knm)
{
	int N = (int)ny->nl, R = (int)ny->r, M = (int)ny->m;
	const double one = 1.0, zero = 0.0;

	if (ny->nl > 0)
		dgemm_("N", "N", &N, &R, &M, &one, Knm, &N, ny->V, &M, &zero,
		       ny->Phi, &N, 1, 1);
}

lsv_status lsv_nystrom_build_at(const lsv_data *x, const lsv_train_param *p,
				const size_t *idx, size_t m, size_t lo,
				size_t nl, lsv_nystrom *ny, lsv_error *err)
{
	size_t n = x->n, i, *rows = NULL;
	double *Kmm = NULL, *Knm = NULL, *ev = NULL;
	lsv_status st = LSV_OK;

	memset(ny, 0, sizeof *ny);
	ny->n = n;
	ny->m = m;
	ny->lo = lo;
	ny->nl = nl;
	ny->idx = lsv_alloc(m, sizeof *ny->idx);
	Kmm = lsv_alloc(m * m, sizeof *Kmm);
	ev = lsv_alloc(m, sizeof *ev);
	Knm = lsv_alloc(nl * m + 1, sizeof *Knm);
	/* rows NULL: all n rows, in order */
	if ((nl < n && (rows = lsv_alloc(nl + 1, sizeof *rows)) == NULL) ||
	    !ny->idx || !Kmm || !ev || !Knm) {
		st = nystrom_nomem(err);
		goto done;
	}
	memcpy(ny->idx, idx, m * sizeof *ny->idx);
	for (i = 0; rows != NULL && i < nl; i++)
		rows[i] = lo + i;
	if ((st = lsv_kernel_matrix(&p->kernel, x, ny->idx, m, x, ny->idx, m, Kmm,
				    err)) != LSV_OK ||
	    (nl > 0 &&
	     (st = lsv_kernel_matrix(&p->kernel, x, rows, nl, x, ny->idx, m, Knm,
				     err)) != LSV_OK) ||
	    (st = landmark_eigen(Kmm, m, ev, err)) != LSV_OK ||
	    (st = nystrom_basis(ny, Kmm, ev, err)) != LSV_OK)
		goto done;
	nystrom_features(ny, Knm);
done:
	free(rows);
	free(Kmm);
	free(ev);
	free(Knm);
	if (st != LSV_OK)
		lsv_nystrom_free(ny);
	return st;
}

void lsv_nystrom_weights(const lsv_nystrom *ny, const double *beta, size_t C,
			 double *W)
{
	int M = (int)ny->m, R = (int)ny->r, CC = (int)C;
	const double one = 1.0, zero = 0.0;
	size_t j, c;

	if (R == 0 || CC == 0)
		return;
	/* W = V' beta, then row j times lambda_j */
	dgemm_("T", "N", &R, &CC, &M, &one, ny->V, &M, beta, &M, &zero, W, &R,
	       1, 1);
	for (c = 0; c < C; c++)
		for (j = 0; j < ny->r; j++)
			W[j + c * ny->r] *= ny->lam[j];
}

void lsv_nystrom_free(lsv_nystrom *ny)
{
	free(ny->idx);
	free(ny->V);
	free(ny->lam);
	free(ny->Phi);
	memset(ny, 0, sizeof *ny);
}

/* The start of a warm run (F->warm) in W (m x C) and F->bias, on the map:
 * Nystrom, w = Lambda_r V' beta from the model's coefficients on its
 * landmarks (ny, built on them); linear, the model's weights sum_k
 * coef[k][c] sv_k at each feature's compact number (fm).  F->warm becomes 0
 * when the start is all zeros: that is the cold start. */
static lsv_status warm_weights(lsv_fit *F, const lsv_nystrom *ny,
			       const lsv_fmap *fm, size_t m, double *W)
{
	const lsv_model *md = F->p->init;
	const lsv_data *sv = md->sv;
	size_t C = (size_t)F->nr_fn, k, q, c, j;
	int any = 0;

	if (ny != NULL) {
		/* the coefficients are sv->n x C row-major, beta m x C */
		double *beta = lsv_alloc(ny->m * C, sizeof *beta);
		if (beta == NULL)
			return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
		for (k = 0; k < ny->m; k++)
			for (c = 0; c < C; c++)
				beta[k + c * ny->m] = md->coef[k * C + c];
		lsv_nystrom_weights(ny, beta, C, W);
		free(beta);
	} else {
		memset(W, 0, m * C * sizeof *W);
		for (k = 0; k < sv->n; k++)
			for (q = sv->rowptr[k]; q < sv->rowptr[k + 1]; q++) {
				int f = lsv_fmap_get(fm, sv->col[q]);
				if (f < 0)
					return lsv_fail(F->err, LSV_EINVAL,
							"the starting model weighs "
							"feature %d, which no row of "
							"these data has: it was not "
							"trained on a prefix of these "
							"data", sv->col[q] + 1);
				for (c = 0; c < C; c++)
					W[(size_t)f + c * m] +=
						md->coef[k * C + c] * sv->val[q];
			}
	}
	for (c = 0; c < C; c++)
		F->bias[c] = md->bias[c] - (md->shift != NULL ? md->shift[c] : 0.0);
	for (j = 0; j < m * C; j++)
		any |= W[j] != 0.0;
	for (c = 0; c < C; c++)
		any |= F->bias[c] != 0.0;
	F->warm = any;
	if (!any)  /* the cold start: the whole residual, as the report says */
		F->report->warm_residual = 1.0;
	return LSV_OK;
}

/* The one out-of-memory message of the feature-map solver. */
static lsv_status no_memory(const lsv_fit *F)
{
	return lsv_fail(F->err, LSV_ENOMEM,
			"out of memory for the primal solver");
}

/* The Nystrom map: the landmarks (the warm model's, else a seeded
 * sample), K_mm = U Lambda U' and this rank's rows of Phi = K_nZ U_r
 * Lambda_r^-1/2, in ny; map->dense is Phi, map->m its rank r. */
static lsv_status nystrom_map(lsv_fit *F, lsv_fmat *map, lsv_nystrom *ny)
{
	const lsv_train_param *p = F->p;
	lsv_status st;

	if (F->warm)  /* the model's landmarks (checked: its count) */
		st = lsv_nystrom_build_at(F->x, p, F->warm_rows, p->init->sv->n,
					  map->lo, map->nl, ny, F->err);
	else
		st = lsv_nystrom_build_rows(F->x, p, map->lo, map->nl, ny,
					    F->err);
	/* a kernel value of one rank's rows can fail there alone */
	if (map->comm != NULL)
		st = lsv_comm_agree(map->comm, st, F->err);
	if (st != LSV_OK)
		return st;
	map->dense = ny->Phi;
	map->m = ny->r;
	return LSV_OK;
}

/* The linear map Phi = X: the features that occur, compactly numbered
 * (*ccol: each nonzero's number; *feature: each number's column of x),
 * and *W (m x C, plus one) with the warm start's weights in it, which
 * need the numbering.  *W may come back NULL: the caller allocates it
 * once more, as for the Nystrom map. */
static lsv_status linear_map(lsv_fit *F, lsv_fmat *map, int **ccol,
			     int **feature, double **W)
{
	const lsv_data *x = F->x;
	lsv_fmap fm;
	size_t q;
	lsv_status st = LSV_OK;

	if ((st = lsv_fmap_build(x, NULL, 0, &fm, F->err)) != LSV_OK)
		return st;
	*ccol = lsv_alloc(x->nnz ? x->nnz : 1, sizeof **ccol);
	*feature = lsv_alloc(fm.m ? fm.m : 1, sizeof **feature);
	if (*ccol == NULL || *feature == NULL) {
		lsv_fmap_free(&fm);
		return no_memory(F);
	}
	for (q = 0; q < x->nnz; q++) {
		(*ccol)[q] = lsv_fmap_get(&fm, x->col[q]);
		(*feature)[(*ccol)[q]] = x->col[q];
	}
	map->m = fm.m;
	map->x = x;
	map->ccol = *ccol;
	*W = lsv_alloc(map->m * (size_t)F->nr_fn + 1, sizeof **W);
	if (*W != NULL && F->warm)
		st = warm_weights(F, NULL, &fm, map->m, *W);
	lsv_fmap_free(&fm);
	return st;
}

/* Every weight finite, else the solver's system was ill-conditioned. */
static lsv_status weights_finite(const lsv_fit *F, const double *W,
				 size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isfinite(W[i]))
			return lsv_fail(F->err, LSV_ENUMERIC,
					"the primal solver produced non-finite "
					"weights (ill-conditioned system)");
	return LSV_OK;
}

/* f = Phi W + b on this rank's rows (Nystrom), by one dgemm into the rows'
 * place in train_f (row i's C values together: its C x nl block is the
 * transpose, so Phi W is formed as W' Phi'). */
static void dense_outputs(const lsv_fit *F, const lsv_fmat *map,
			  const double *W, double *train_f)
{
	int C = F->nr_fn, N = (int)map->nl, M = (int)map->m, CC = C, c;
	const double one = 1.0, zero = 0.0;
	double *f = train_f + map->lo * (size_t)C;
	size_t i;

	dgemm_("T", "T", &CC, &N, &M, &one, W, &M, map->dense, &N, &zero, f,
	       &CC, 1, 1);
	for (i = 0; i < map->nl; i++)
		for (c = 0; c < C; c++)
			f[i * (size_t)C + (size_t)c] += F->bias[c];
}

/* f = X W + b on this rank's rows (the linear map), row by row over the
 * nonzeros, each function in turn. */
static void sparse_outputs(const lsv_fit *F, const lsv_fmat *map,
			   const double *W, double *train_f)
{
	const lsv_data *x = F->x;
	int C = F->nr_fn, c;
	size_t i;

	for (c = 0; c < C; c++) {
		const double *w = W + (size_t)c * map->m;
		for (i = map->lo; i < map->lo + map->nl; i++) {
			double v = F->bias[c];
			size_t q;
			for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
				v += x->val[q] * w[map->ccol[q]];
			train_f[i * (size_t)C + (size_t)c] = v;
		}
	}
}

/* Every rank's block of rows of train_f gathered into every rank's
 * train_f. */
static lsv_status gather_outputs(lsv_fit *F, const lsv_fmat *map,
				 double *train_f)
{
	size_t n = F->n, C = (size_t)F->nr_fn;
	size_t *counts = NULL, R = (size_t)lsv_comm_size(map->comm);
	void *all = NULL;
	lsv_status st;

	counts = lsv_alloc(R, sizeof *counts);
	st = counts != NULL ? LSV_OK
		: lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	if ((st = lsv_comm_agree(map->comm, st, F->err)) == LSV_OK)
		st = lsv_comm_allgatherv(map->comm, train_f + map->lo * C,
					 map->nl * C * sizeof *train_f, &all,
					 counts, F->err);
	if (st == LSV_OK)
		memcpy(train_f, all, n * C * sizeof *train_f);
	free(all);
	free(counts);
	return st;
}

/* The training rows' outputs f = Phi w + b (no kernel again) in
 * *train_f (n x C row-major): this rank's rows, then every rank's
 * gathered.  On one process *train_f may come back NULL (no memory):
 * the model is still made, without them. */
static lsv_status training_outputs(lsv_fit *F, const lsv_fmat *map,
				   const double *W, double **train_f)
{
	double *f = lsv_alloc(F->n * (size_t)F->nr_fn, sizeof *f);
	lsv_status st;

	*train_f = f;
	if (map->comm != NULL &&
	    (st = lsv_comm_agree(map->comm, f != NULL ? LSV_OK
				 : lsv_fail(F->err, LSV_ENOMEM, "out of memory "
					    "for the training outputs"),
				 F->err)) != LSV_OK)
		return st;
	if (f == NULL)
		return LSV_OK;
	if (map->dense != NULL && map->nl > 0)
		dense_outputs(F, map, W, f);
	else
		sparse_outputs(F, map, W, f);
	return map->comm != NULL ? gather_outputs(F, map, f) : LSV_OK;
}

/* The Nystrom model: beta = V w, on the landmark rows of alpha. */
static lsv_status nystrom_model(lsv_fit *F, const lsv_nystrom *ny,
				const double *W, lsv_model **out)
{
	size_t n = F->n, j;
	int C = F->nr_fn;
	double *beta = lsv_alloc(ny->m * (size_t)C, sizeof *beta);
	int M = (int)ny->m, R = (int)ny->r, CC = C;
	const double one = 1.0, zero = 0.0;
	int c;

	if (beta == NULL)
		return no_memory(F);
	dgemm_("N", "N", &M, &CC, &R, &one, ny->V, &M, W, &R, &zero, beta, &M,
	       1, 1);
	memset(F->alpha, 0, n * (size_t)C * sizeof *F->alpha);
	for (c = 0; c < C; c++)
		for (j = 0; j < ny->m; j++)
			F->alpha[ny->idx[j] + (size_t)c * n] =
				beta[j + (size_t)c * ny->m];
	free(beta);
	return lsv_fit_model(F, out);
}

/* Newton on the map (the Nystrom map with p->landmarks, else the linear
 * one) from W, the warm start's or zeros; then the training outputs and
 * the model (see the top). */
lsv_status lsv_fit_feature_map(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	int C = F->nr_fn, hinge = p->solver == LSV_SOLVER_LAPSVM;
	lsv_nystrom ny;
	double *W = NULL, *train_f = NULL;
	int *ccol = NULL, *feature = NULL;
	lsv_fmat map;
	lsv_status st;

	memset(&map, 0, sizeof map);
	memset(&ny, 0, sizeof ny);
	map.n = F->n;
	if (p->comm != NULL && lsv_comm_size(p->comm) > 1)
		map.comm = p->comm;
	lsv_block_rows(map.comm, F->n, &map.lo, &map.nl);
	st = p->landmarks > 0 ? nystrom_map(F, &map, &ny)
			      : linear_map(F, &map, &ccol, &feature, &W);
	if (st != LSV_OK)
		goto done;
	if (W == NULL)
		W = lsv_alloc(map.m * (size_t)C + 1, sizeof *W);
	if (W == NULL) {
		st = no_memory(F);
		goto done;
	}
	if ((p->landmarks > 0 && F->warm &&
	     (st = warm_weights(F, &ny, NULL, map.m, W)) != LSV_OK) ||
	    (st = lsv_primal_train(F, &map, hinge, W, F->bias)) != LSV_OK ||
	    (st = weights_finite(F, W, map.m * (size_t)C)) != LSV_OK ||
	    (st = training_outputs(F, &map, W, &train_f)) != LSV_OK)
		goto done;
	st = p->landmarks > 0 ? nystrom_model(F, &ny, W, out)
			      : lsv_fit_linear_model(F, W, map.m, feature, out);
	if (st == LSV_OK) {
		F->report->train_f = train_f;
		train_f = NULL;
	}
done:
	lsv_nystrom_free(&ny);
	free(W);
	free(ccol);
	free(feature);
	free(train_f);
	return st;
}
