/*
 * labelaware.c -- label-aware base kernels (Wang, Zhang, Jiang & Marsic,
 * "Improving semi-supervised target alignment via label-aware base
 * kernels", AAAI 2014, Algorithm 1), then the SVM on the learned kernel.
 *
 * Objective.  Learn K~ = sum_i a_i u_i u_i' + sum_j b_j v_j v_j' over the
 * n training rows, the weights (a, b) >= 0, |(a, b)| = 1, maximizing the
 * centered alignment of K~ with the one-hot target Y Y' on the l labeled
 * rows (alignf, Cortes, Mohri & Rostamizadeh, ICML 2010); then the SVM
 * with C = 1/(2 gamma_A l) on K~ (one-vs-rest for more than two classes),
 *     f_c = sum_{s labeled} alpha_sc K~(., x_s) + b_c.
 *
 * Steps (Algorithm 1):
 *   1. K_nl = the kernel between the n rows and the l labeled ones,
 *      D_n = diag(K_nl 1) (row sums over the labeled columns).
 *   2. [u_1 .. u_c] = D_n^-1 K_nl Y, Y l x c one-hot (the extrapolated
 *      ideal-kernel eigenvectors, eq. 5 with the paper's normalization by
 *      the row sums).  A row whose D_n is not > 0 (an RBF underflowing far
 *      from every labeled row, or a kernel with negative values) gets
 *      u = 0: no label reaches it.
 *   3. v_1 .. v_k = the eigenvectors of the k largest eigenvalues
 *      lambda_1 >= .. >= lambda_k of the n x n kernel K (LAPACK dsyevr,
 *      the index subset n-k+1..n; MRRR).  k = p->la_k, default n/10
 *      (the paper's "top 10%"), at least 1.  Each lambda_j must be above
 *      LSV_NYSTROM_CUTOFF times the largest, since v_j(x) divides by it.
 *   4. alignf weights mu = (a, b) of the q = c + k rank-one base kernels
 *      z z' on the centered labeled block (lsv_alignf, common/alignf.c:
 *      min_{v >= 0} v'Mv - 2 v'a by Lawson & Hanson's active-set method,
 *      stopping when no gradient component off the passive set exceeds
 *      1e-10 max_i a_i, the KKT conditions; mu = v/|v|).
 *   5. K~_ll = Z_l diag(mu) Z_l' (dsyrk), Z = [u_1 .. u_c v_1 .. v_k].
 *   6. SMO (lsv_smo) on Q = y y' .* K~_ll / (2 gamma_A), box 1/l: the SVM
 *      with C = 1/(2 gamma_A l), as lapsvm_dual.c at gamma_I = 0, so
 *      LIBSVM's svm-train -t 4 -c C on K~ gives the same function.
 *      alpha_s = y_s beta_s / (2 gamma_A).
 *
 * Training outputs: f = Z diag(mu) Z_l' alpha + b (O(n q)).
 *
 * Out of sample (so lapsvm-predict works on new points):
 *     u_i(x) = S_i(x) / S(x),  S_i(x) = sum_{t labeled, class i} k(x, x_t),
 *              S(x) = sum_i S_i(x)  (0 when S(x) is not > 0),
 *     v_j(x) = (1/lambda_j) sum_{t=1..n} k(x, x_t) v_j(t)   (Nystrom),
 * and K~(x, z) = sum_i a_i u_i(x) u_i(z) + sum_j b_j v_j(x) v_j(z).  The
 * model stores f folded, never the base vectors:
 *     f_c(x) = sum_s alpha_sc K~(x, x_s) + b_c
 *            = sum_i A_ic u_i(x) + sum_j B_jc v_j(x) + b_c,
 *       A_ic = a_i sum_s alpha_sc u_i(x_s),  B_jc = b_j sum_s alpha_sc v_j(x_s),
 *            = sum_{t=1..n} beta_tc k(x, x_t)
 *              + sum_i A_ic S_i(x) / S(x) + b_c,
 *       beta = V Lambda^-1 B   (n x nr_fn).
 * So the model is a kernel expansion over the n training rows (coef beta)
 * plus the ratio term over its labeled rows, which come first, class by
 * class (model keys labelaware_rows, the counts, and labelaware_u, A):
 * one kernel row per point, O(n) beyond it.  On a training row x_r,
 * (K v_j)_r / lambda_j = v_j(r) and u_i(x_r) is step 2's, so the model
 * gives the training outputs up to rounding.
 *
 * Variants.  -J laplacian (p->la_basis): the v_j are the k smallest
 * eigenvectors of the normalized Laplacian of W = K (-V kernel, default)
 * or of the graph (-V graph; lsv_laplacian_bottom);
 * they have no Nystrom extension, so the model is transductive (the
 * labeled rows with alpha, a record; lsv_model_decision refuses it).
 * -N m (no n x n kernel, F->K NULL): the v_j are the eigenvectors of the
 * Nystrom approximation from m landmarks (nystrom_basis below), and the
 * model's expansion is over the labeled rows and the landmarks.  The
 * eigenpairs go through the cross-validation cache (lsv_spectrum_lookup).
 *
 * Refused: a precomputed kernel (-t 4) that is not positive semi-definite
 * up to 1e-8 of its largest diagonal value (lsv_check_psd), k > n, k
 * eigenvalues not all above the cutoff, and a class with
 * fewer than two labeled rows (its u is then one kernel row: the base
 * kernel is a single labeled point's neighbourhood, and the SVM's
 * one-vs-rest problem for it has a single positive example).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas.h"
#include "solver.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The model: nrows training rows order[0..nrows), the labeled ones
 * first class by class, coefficients beta (over the rows' original
 * indices: beta[order[k] + c n], n x nr_fn column-major), the ratio
 * term's A (c x nr_fn, column-major) and counts. */
static lsv_status build_model(const lsv_fit *F, const size_t *order,
			      size_t nrows, const size_t *counts,
			      const double *beta, const double *A,
			      lsv_model **out)
{
	const lsv_data *x = F->x;
	size_t n = F->n, k, p, nnz = 0;
	size_t nf = (size_t)F->nr_fn, nc = (size_t)F->nr_class;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);
	size_t c, i;

	if (m == NULL || sv == NULL) {
		free(m);
		free(sv);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
	}
	for (k = 0; k < nrows; k++)
		nnz += x->rowptr[order[k] + 1] - x->rowptr[order[k]];
	m->param = *F->p;
	/* -N beyond n samples every row: the landmarks held, min(N, n), as
	 * lsv_fit_model records them (the reader refuses more than l + u) */
	if (m->param.landmarks > 0 && (size_t)m->param.landmarks > F->n)
		m->param.landmarks = (long)F->n;
	if (m->param.la_k == 0)  /* the k used: n/10, at least 1 */
		m->param.la_k = (long)(F->n / 10 > 0 ? F->n / 10 : 1);
	m->l = F->l;
	m->u = n - F->l;
	m->unlabeled = x->unlabeled;
	m->nr_class = F->nr_class;
	m->nr_fn = F->nr_fn;
	m->sv = sv;
	m->labels = lsv_alloc(nc, sizeof *m->labels);
	m->bias = lsv_alloc(nf, sizeof *m->bias);
	m->la_rows = lsv_alloc(nc, sizeof *m->la_rows);
	m->la_coef = lsv_alloc(nf * nc, sizeof *m->la_coef);
	m->coef = lsv_alloc(nrows * nf, sizeof *m->coef);
	sv->n = nrows;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = lsv_alloc(nrows + 1, sizeof *sv->rowptr);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	sv->y = calloc(nrows ? nrows : 1, sizeof *sv->y);
	if (!m->labels || !m->bias || !m->la_rows || !m->la_coef || !m->coef ||
	    !sv->rowptr || !sv->col || !sv->val || !sv->y) {
		lsv_model_free(m);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
	}
	memcpy(m->labels, F->labels, nc * sizeof *m->labels);
	memcpy(m->bias, F->bias, nf * sizeof *m->bias);
	memcpy(m->la_rows, counts, nc * sizeof *m->la_rows);
	for (c = 0; c < nf; c++)
		for (i = 0; i < nc; i++)
			m->la_coef[c * nc + i] = A[i + c * nc];
	for (k = 0; k < nrows; k++) {
		size_t r = order[k];
		sv->rowptr[k] = sv->nnz;
		for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++) {
			sv->col[sv->nnz] = x->col[p];
			sv->val[sv->nnz++] = x->val[p];
		}
		for (c = 0; c < nf; c++)
			m->coef[k * nf + c] = beta[r + c * n];
	}
	sv->rowptr[nrows] = sv->nnz;
	*out = m;
	return LSV_OK;
}

/* The rows in model order: the labeled rows class by class (Yoh's
 * classes), then the others (with ny: the landmarks not labeled). */
static lsv_status model_order(const lsv_fit *F, const double *Yoh,
			      const lsv_nystrom *ny, size_t *order)
{
	size_t n = F->n, l = F->l, at = 0, i, j, r;
	unsigned char *isl = calloc(n ? n : 1, 1);

	if (isl == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory");
	for (j = 0; j < (size_t)F->nr_class; j++)
		for (i = 0; i < l; i++)
			if (Yoh[i + j * l] != 0.0) {
				order[at++] = F->lab[i];
				isl[F->lab[i]] = 1;
			}
	if (ny != NULL) {
		for (r = 0; r < ny->m; r++)
			if (!isl[ny->idx[r]])
				order[at++] = ny->idx[r];
	} else
		for (r = 0; r < n; r++)
			if (!isl[r])
				order[at++] = r;
	free(isl);
	return LSV_OK;
}

/* Step 3 with the kernel's eigenvectors: the k largest eigenpairs of K
 * into w (descending) and V (n x k), each lambda_j above
 * LSV_NYSTROM_CUTOFF of the largest (v_j(x) divides by it). */
static lsv_status kernel_basis(const lsv_fit *F, size_t k, double *w,
			       double *V)
{
	size_t kept;
	lsv_status st = LSV_OK;

	if (!lsv_spectrum_lookup(F, LSV_SPEC_KERNEL_TOP, k, w, V)) {
		if ((st = lsv_eig_extreme(F->K, F->n, k, 1, w, V, F->err)) !=
		    LSV_OK)
			return st;
		lsv_spectrum_store(F, LSV_SPEC_KERNEL_TOP, k, w, V);
	}
	for (kept = 0; kept < k; kept++)
		if (!(w[kept] > LSV_NYSTROM_CUTOFF * w[0]) || !(w[0] > 0.0))
			break;
	if (kept < k)
		return lsv_fail(F->err, LSV_EINVAL,
				"the kernel matrix has %zu eigenvalue%s above %g of "
				"the largest, fewer than the %zu eigenvectors %s: "
				"the Nystrom extension v_j(x) divides by lambda_j "
				"(ask for at most %zu with -n, or use a kernel of "
				"higher rank)", kept, kept == 1 ? "" : "s",
				LSV_NYSTROM_CUTOFF, k,
				F->p->la_k > 0 ? "asked for"
				: "of the default -n (n/10)", kept);
	return LSV_OK;
}

/*
 * Step 3 for large n (-N m): the eigenvectors of the Nystrom
 * approximation K ~ Phi Phi' = K_nm K_mm^+ K_mn (lsv_nystrom_build: m
 * landmarks sampled uniformly, seeded by -S; Phi = K_nm V, V = U_r
 * Lambda_r^-1/2, n x r), never an n x n array: with Phi'Phi = W S^2 W'
 * (r x r, its k largest eigenpairs) the top eigenvectors of Phi Phi' are
 * the orthonormal v_j = Phi w_j / s_j, eigenvalues lambda_j = s_j^2 (an
 * approximation of K's, error O(n m) memory; Williams & Seeger 2001).
 * Their Nystrom extension under the same approximate kernel,
 *     v_j(x) = (1/lambda_j) sum_t k~(x, x_t) v_j(t) = k_xm V w_j / s_j,
 * gives v_j(x_t) on a training row, so the folded model needs the m
 * landmarks only: beta = V W_k S_k^-1 B (m x nr_fn), into Pm.
 */
static lsv_status nystrom_basis(const lsv_fit *F, size_t k,
				lsv_nystrom *ny, double *w, double *V,
				double *Pm)
{
	size_t n = F->n, r, j, kept;
	double *G = NULL, *Wk = NULL;
	const double one = 1.0, zero = 0.0;
	lsv_status st;
	int N, R, K_;

	if ((st = lsv_nystrom_build(F->x, F->p, ny, F->err)) != LSV_OK)
		return st;
	r = ny->r;
	if (k > r)
		return lsv_fail(F->err, LSV_EINVAL, "%zu kernel eigenvectors "
				"asked for, but the Nystrom approximation from %zu "
				"landmarks has rank %zu (ask for at most %zu with -n, "
				"or use more landmarks, -N)", k, ny->m, r, r);
	G = lsv_alloc(r * r, sizeof *G);
	Wk = lsv_alloc(r * k, sizeof *Wk);
	if (G == NULL || Wk == NULL) {
		st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the Nystrom "
			      "eigenvectors");
		goto done;
	}
	N = (int)n;
	R = (int)r;
	K_ = (int)k;
	dsyrk_("L", "T", &R, &N, &one, ny->Phi, &N, &zero, G, &R, 1, 1);
	if ((st = lsv_eig_extreme(G, r, k, 1, w, Wk, F->err)) != LSV_OK)
		goto done;
	for (kept = 0; kept < k; kept++)
		if (!(w[kept] > LSV_NYSTROM_CUTOFF * w[0]) || !(w[0] > 0.0))
			break;
	if (kept < k) {
		st = lsv_fail(F->err, LSV_EINVAL, "the Nystrom approximation has "
			      "%zu eigenvalues above %g of the largest, fewer than "
			      "the %zu eigenvectors asked for (ask for at most %zu "
			      "with -n)", kept, LSV_NYSTROM_CUTOFF, k, kept);
		goto done;
	}
	for (j = 0; j < k; j++) {  /* w_j / s_j */
		double sj = sqrt(w[j]), *c = Wk + j * r;
		size_t i;
		for (i = 0; i < r; i++)
			c[i] /= sj;
	}
	/* V = Phi W_k S^-1 (n x k); Pm = V_ny W_k S^-1 (m x k) */
	dgemm_("N", "N", &N, &K_, &R, &one, ny->Phi, &N, Wk, &R, &zero, V, &N,
	       1, 1);
	{
		int M = (int)ny->m;
		dgemm_("N", "N", &M, &K_, &R, &one, ny->V, &M, Wk, &R, &zero, Pm,
		       &M, 1, 1);
	}
done:
	free(G);
	free(Wk);
	return st;
}

/* The one out-of-memory failure of the label-aware fit, naming its n
 * rows and q base vectors. */
static lsv_status no_memory(const lsv_fit *F, size_t q)
{
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the label-aware "
			"kernels (%zu rows, %zu base vectors)", F->n, q);
}

/* The number k of base vectors v into *k (p->la_k, default n/10, the
 * paper's "top 10%", at least 1), checked before anything is allocated:
 * k <= n, no Nystrom landmarks with the Laplacian's eigenvectors, and
 * with -N the memory of K_nl and the base vectors (n (l + c + k)). */
static lsv_status basis_size(const lsv_fit *F, size_t *k)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, l = F->l, nc = (size_t)F->nr_class;
	int lap = p->la_basis == LSV_LA_LAPLACIAN;
	int nys = F->K == NULL;

	*k = lsv_basis_size(p, n);
	if (*k > n)
		return lsv_fail(F->err, LSV_EINVAL,
				"%zu %s eigenvectors asked for, but the %s has only "
				"n = %zu rows (expected 1..%zu)", *k,
				lap ? "Laplacian" : "kernel",
				lap && p->lap_graph == LSV_LAP_GRAPH ? "graph"
				: "kernel matrix", n, n);
	if (nys && lap)
		return lsv_fail(F->err, LSV_EINVAL, "Nystrom landmarks approximate "
				"the kernel's eigenvectors, not the Laplacian's");
	if (nys)
		return lsv_check_bytes(p, (double)n * (double)(l + nc + *k),
				       "K_nl and the base vectors",
				       "use fewer labeled rows or eigenvectors",
				       F->err);
	return LSV_OK;
}

/* Steps 1-2: K_nl (n x l, into Knl: F->K's labeled columns, or computed
 * with -N), D_n = K_nl 1 (into D) and u = D_n^-1 K_nl Y (Yoh, l x c) into
 * the first c columns of Z; a row whose D_n is not > 0 and finite gets
 * u = 0.  Knl, D and Z are the caller's; q only names the base vectors
 * in the out-of-memory message. */
static lsv_status ideal_vectors(const lsv_fit *F, const double *Yoh,
				size_t q, double *Knl, double *D, double *Z)
{
	size_t n = F->n, l = F->l, nc = (size_t)F->nr_class, i, j;
	int N = (int)n, L = (int)l, C = (int)nc, inc = 1;
	const double one = 1.0, zero = 0.0;
	double *ones;
	lsv_status st;

	if (F->K == NULL) {
		if ((st = lsv_kernel_matrix(&F->p->kernel, F->x, NULL, n, F->x,
					    F->lab, l, Knl, F->err)) != LSV_OK)
			return st;
	} else
		for (i = 0; i < l; i++)
			memcpy(Knl + i * n, F->K + F->lab[i] * n, n * sizeof *Knl);
	if ((ones = lsv_alloc(l, sizeof *ones)) == NULL)
		return no_memory(F, q);
	for (i = 0; i < l; i++)
		ones[i] = 1.0;
	dgemv_("N", &N, &L, &one, Knl, &N, ones, &inc, &zero, D, &inc, 1);
	free(ones);
	dgemm_("N", "N", &N, &C, &L, &one, Knl, &N, Yoh, &L, &zero, Z, &N,
	       1, 1);
	for (i = 0; i < n; i++) {
		int ok = D[i] > 0.0 && isfinite(D[i]);
		for (j = 0; j < nc; j++)
			Z[i + j * n] = ok ? Z[i + j * n] / D[i] : 0.0;
	}
	return LSV_OK;
}

/* Step 3: the k base vectors v into Z's columns c .. c + k - 1 and their
 * eigenvalues into w: the k largest eigenpairs of K, the k smallest of
 * the normalized Laplacian (-J laplacian), or with -N those of the
 * Nystrom approximation (ny filled; the landmarks' expansion, m x k,
 * into *Pm, allocated here: the caller frees it, and ny). */
static lsv_status base_vectors(const lsv_fit *F, size_t k, lsv_nystrom *ny,
			       double *w, double *Z, double **Pm)
{
	size_t n = F->n, nc = (size_t)F->nr_class;

	if (F->K == NULL) {
		size_t mm = (size_t)F->p->landmarks < n
			    ? (size_t)F->p->landmarks : n;
		if ((*Pm = lsv_alloc(mm * k, sizeof **Pm)) == NULL)
			return no_memory(F, nc + k);
		return nystrom_basis(F, k, ny, w, Z + nc * n, *Pm);
	}
	if (F->p->la_basis == LSV_LA_LAPLACIAN)
		return lsv_laplacian_bottom(F, k, "labelaware -J laplacian", w,
					    Z + nc * n);
	return kernel_basis(F, k, w, Z + nc * n);
}

/* Step 4: alignf's weights mu of the q base kernels on the labeled rows
 * of Z (Z_l, l x q, allocated and freed here) into *mu (q, allocated
 * here: the caller frees it); the input kernel's alignment (K_nl, Knl)
 * into the report. */
static lsv_status align_weights(lsv_fit *F, const double *Z, size_t q,
				const double *Yoh, const double *Knl,
				double **mu)
{
	size_t n = F->n, l = F->l, i, j;
	double *Zl, align = 0.0;
	lsv_status st;

	Zl = lsv_alloc(l * q, sizeof *Zl);
	*mu = lsv_alloc(q, sizeof **mu);
	if (Zl == NULL || *mu == NULL) {
		st = no_memory(F, q);
		goto done;
	}
	for (j = 0; j < q; j++)
		for (i = 0; i < l; i++)
			Zl[i + j * l] = Z[F->lab[i] + j * n];
	if ((st = lsv_alignf(Zl, l, q, Yoh, F->nr_class, *mu, &align,
			     F->err)) != LSV_OK)
		goto done;
	F->report->la_align_input = lsv_input_alignment(F, Knl, Yoh);
done:
	free(Zl);
	return st;
}

/* -J laplacian, transductive: the model keeps the l labeled rows with
 * alpha (al, l x nr_fn) as coef (n x nr_fn, the caller's, zero
 * elsewhere), a record. */
static void transductive_coef(const lsv_fit *F, const double *al,
			      double *coef, size_t *nrows)
{
	size_t n = F->n, l = F->l, i;
	int c;

	*nrows = l;
	for (c = 0; c < F->nr_fn; c++)
		for (i = 0; i < l; i++)
			coef[F->lab[i] + (size_t)c * n] = al[i + (size_t)c * l];
}

/* -N: beta = Pm B on the landmarks (into coef, n x nr_fn, the caller's,
 * 0 elsewhere), B = T's last k rows (T q x nr_fn, q = c + k):
 * f_c(x) = ... + sum_j B_jc v_j(x), v_j(x) = k_xm Pm_j.  The rows kept
 * (*nrows): the labeled ones (the ratio term), then the landmarks that
 * are not labeled.  B, Pm B and the labeled marks are freed here. */
static lsv_status nystrom_coef(const lsv_fit *F, const lsv_nystrom *ny,
			       const double *Pm, const double *T, size_t k,
			       double *coef, size_t *nrows)
{
	size_t n = F->n, l = F->l, nc = (size_t)F->nr_class, q = nc + k;
	size_t nf = (size_t)F->nr_fn, i, j;
	double *B = lsv_alloc(k * nf, sizeof *B), *bm;
	int M = (int)ny->m, K_ = (int)k, NF = (int)nf, c;
	unsigned char *inl = calloc(n ? n : 1, 1);
	const double one = 1.0, zero = 0.0;
	lsv_status st = LSV_OK;

	bm = lsv_alloc(ny->m * nf, sizeof *bm);
	if (B == NULL || bm == NULL || inl == NULL) {
		st = no_memory(F, q);
		goto done;
	}
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < k; j++)
			B[j + (size_t)c * k] = T[nc + j + (size_t)c * q];
	dgemm_("N", "N", &M, &NF, &K_, &one, Pm, &M, B, &K_, &zero, bm,
	       &M, 1, 1);
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < ny->m; j++)
			coef[ny->idx[j] + (size_t)c * n] =
				bm[j + (size_t)c * ny->m];
	for (i = 0; i < l; i++)
		inl[F->lab[i]] = 1;
	*nrows = l;
	for (j = 0; j < ny->m; j++)
		*nrows += !inl[ny->idx[j]];
done:
	free(inl);
	free(B);
	free(bm);
	return st;
}

/* The kernel's eigenvectors: beta = V Lambda^-1 B into coef (n x nr_fn,
 * the caller's), V = Z's last k columns, lambda_j = w_j, B = T's last k
 * rows; every row is kept (*nrows = n).  B is freed here. */
static lsv_status kernel_coef(const lsv_fit *F, const double *Z,
			      const double *w, const double *T, size_t k,
			      double *coef, size_t *nrows)
{
	size_t n = F->n, nc = (size_t)F->nr_class, q = nc + k;
	size_t nf = (size_t)F->nr_fn, j;
	double *B = lsv_alloc(k * nf, sizeof *B);
	int N = (int)n, K_ = (int)k, NF = (int)nf, c;
	const double one = 1.0, zero = 0.0;

	if (B == NULL)
		return no_memory(F, q);
	*nrows = n;
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < k; j++)
			B[j + (size_t)c * k] = T[nc + j + (size_t)c * q] / w[j];
	dgemm_("N", "N", &N, &NF, &K_, &one, Z + nc * n, &N, B, &K_,
	       &zero, coef, &N, 1, 1);
	free(B);
	return LSV_OK;
}

/* LSV_OK when the model's coefficients (coef, n x nr_fn) are all
 * finite, else LSV_ENUMERIC. */
static lsv_status coef_finite(const lsv_fit *F, const double *coef)
{
	size_t i;

	for (i = 0; i < F->n * (size_t)F->nr_fn; i++)
		if (!isfinite(coef[i]))
			return lsv_fail(F->err, LSV_ENUMERIC, "the label-aware "
					"model has non-finite coefficients");
	return LSV_OK;
}

/* Steps 5-6 and the model: the SVM on K~_ll = Z_l diag(mu) Z_l' (Z n x
 * q, q = c + k) gives alpha (al, l x nr_fn) and T = diag(mu) Z_l' alpha
 * (q x nr_fn), folded as above: A = T's first c rows, beta from B, the
 * rest, by the variant (-J laplacian: alpha on the labeled rows; -N, ny
 * not NULL: Pm B on the landmarks; else V Lambda^-1 B, w the lambda_j).
 * The model into *out (the caller's on success); al, T, coef, A and
 * order are allocated and freed here. */
static lsv_status svm_model(lsv_fit *F, const double *Yoh,
			    const size_t *counts, const double *Z, size_t k,
			    const double *mu, const double *w,
			    const lsv_nystrom *ny, const double *Pm,
			    lsv_model **out)
{
	size_t n = F->n, l = F->l, nc = (size_t)F->nr_class, q = nc + k;
	size_t nf = (size_t)F->nr_fn, nrows = 0, j;
	double *al, *T, *coef, *A;
	size_t *order;
	int c;
	lsv_status st;

	al = lsv_alloc(l * nf, sizeof *al);
	T = lsv_alloc(q * nf, sizeof *T);
	coef = calloc(n * nf, sizeof *coef);
	A = lsv_alloc(nc * nf, sizeof *A);
	order = lsv_alloc(n, sizeof *order);
	if (!al || !T || !coef || !A || !order) {
		st = no_memory(F, q);
		goto done;
	}
	if ((st = lsv_lowrank_svm(F, Z, q, mu, Yoh, al, T)) != LSV_OK)
		goto done;
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < nc; j++)
			A[j + (size_t)c * nc] = T[j + (size_t)c * q];
	if (F->p->la_basis == LSV_LA_LAPLACIAN)
		transductive_coef(F, al, coef, &nrows);
	else if (ny != NULL)
		st = nystrom_coef(F, ny, Pm, T, k, coef, &nrows);
	else
		st = kernel_coef(F, Z, w, T, k, coef, &nrows);
	if (st != LSV_OK || (st = coef_finite(F, coef)) != LSV_OK ||
	    (st = model_order(F, Yoh, ny, order)) != LSV_OK)
		goto done;
	st = build_model(F, order, nrows, counts, coef, A, out);
done:
	free(al);
	free(T);
	free(coef);
	free(A);
	free(order);
	return st;
}

lsv_status lsv_fit_labelaware(lsv_fit *F, lsv_model **out)
{
	size_t n = F->n, l = F->l, q, k, nc = (size_t)F->nr_class;
	double *Knl = NULL, *Yoh = NULL, *Z = NULL, *D = NULL, *w = NULL;
	double *mu = NULL, *Pm = NULL, t0, t1, t2;
	size_t *counts = NULL;
	lsv_nystrom ny;
	int nys = F->K == NULL;  /* -N m: the Nystrom path, no n x n array */
	lsv_status st;

	t0 = now();
	memset(&ny, 0, sizeof ny);
	if ((st = basis_size(F, &k)) != LSV_OK)
		return st;
	q = nc + k;
	/* each class's labeled rows, counted before anything is allocated
	 * beyond the counts */
	Yoh = lsv_alloc(l * nc, sizeof *Yoh);
	counts = lsv_alloc(nc, sizeof *counts);
	if (Yoh == NULL || counts == NULL)
		goto nomem;
	if ((st = lsv_onehot(F, Yoh, counts)) != LSV_OK ||
	    (st = lsv_min_per_class(F, counts, "the label-aware kernel")) !=
	    LSV_OK || (st = lsv_check_psd(F)) != LSV_OK)
		goto done;
	Knl = lsv_alloc(n * l, sizeof *Knl);
	Z = lsv_alloc(n * q, sizeof *Z);
	D = lsv_alloc(n, sizeof *D);
	w = lsv_alloc(k, sizeof *w);
	if (!Knl || !Z || !D || !w)
		goto nomem;
	/* 1-2: K_nl, D_n, u = D_n^-1 K_nl Y into the first c columns of Z;
	 * 3: the k largest eigenpairs of K, or the k smallest of the
	 * normalized Laplacian, into the others */
	if ((st = ideal_vectors(F, Yoh, q, Knl, D, Z)) != LSV_OK ||
	    (st = base_vectors(F, k, &ny, w, Z, &Pm)) != LSV_OK)
		goto done;
	F->report->la_lambda_k = w[k - 1];
	t1 = now();
	/* 4: alignf on the labeled rows of Z */
	if ((st = align_weights(F, Z, q, Yoh, Knl, &mu)) != LSV_OK)
		goto done;
	t2 = now();
	/* 5-6: the SVM on K~_ll = Z_l diag(mu) Z_l', folded into the model */
	if ((st = svm_model(F, Yoh, counts, Z, k, mu, w, nys ? &ny : NULL, Pm,
			    out)) != LSV_OK)
		goto done;
	lsv_spectrum_report(F, n, nc, k, &mu, &Z, t1 - t0, t2 - t1, now() - t2);
	goto done;
nomem:
	st = no_memory(F, q);
done:
	if (st != LSV_OK) {
		free(F->report->train_f);
		F->report->train_f = NULL;
	}
	free(Knl);
	free(Yoh);
	free(Z);
	free(D);
	free(w);
	free(mu);
	free(counts);
	free(Pm);
	lsv_nystrom_free(&ny);
	return st;
}

lsv_status lsv_learned_kernel(const lsv_train_report *r, size_t n, double *K,
			      lsv_error *err)
{
	size_t q, i, j;
	double *S;
	const double one = 1.0, zero = 0.0;

	if (r == NULL || r->la_Z == NULL || r->la_weight == NULL)
		return lsv_fail(err, LSV_EINVAL, "no learned kernel: the training "
				"run was not a label-aware one (-s labelaware)");
	q = r->la_c + r->la_k;
	if (n != r->la_n || n > 46340 || q > 46340)
		return lsv_fail(err, LSV_EINVAL, "learned kernel: %zu rows asked "
				"for, the training run had %zu (%zu base vectors)", n,
				r->la_n, q);
	S = lsv_alloc(n * q, sizeof *S);
	if (S == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the learned "
				"kernel");
	for (j = 0; j < q; j++) {
		double s = sqrt(r->la_weight[j]);
		for (i = 0; i < n; i++)
			S[i + j * n] = r->la_Z[i + j * n] * s;
	}
	{
		int N = (int)n, QQ = (int)q;
		dsyrk_("L", "N", &N, &QQ, &one, S, &N, &zero, K, &N, 1, 1);
	}
	for (j = 0; j < n; j++)
		for (i = j + 1; i < n; i++)
			K[j + i * n] = K[i + j * n];
	free(S);
	return LSV_OK;
}
