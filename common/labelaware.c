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
 * Refused: k > n, k eigenvalues not all above the cutoff, and a class with
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

/* Centered alignment of the l x l symmetric Kll with the one-hot target
 * Yoh (l x c): <H K H, Y Y'> / (|H K H|_F |Y'H Y|_F), 0 if a norm is 0. */
static double centered_alignment(const double *Kll, size_t l,
				 const double *Yoh, int c, double *Kc,
				 double *P)
{
	double *r = P, tot = 0.0, num = 0.0, kn = 0.0, tn = 0.0;
	size_t i, j;
	int a, b, L = (int)l, C = c;
	const double one = 1.0, zero = 0.0;
	double *cnt;

	/* P holds l x c doubles; the row means first go in its first l */
	for (j = 0; j < l; j++) {
		double s = 0.0;
		for (i = 0; i < l; i++)
			s += Kll[i + j * l];
		r[j] = s / (double)l;
		tot += r[j];
	}
	tot /= (double)l;
	for (j = 0; j < l; j++)
		for (i = 0; i < l; i++) {
			Kc[i + j * l] = Kll[i + j * l] - r[i] - r[j] + tot;
			kn += Kc[i + j * l] * Kc[i + j * l];
		}
	dgemm_("N", "N", &L, &C, &L, &one, Kc, &L, Yoh, &L, &zero, P, &L, 1, 1);
	for (i = 0; i < l * (size_t)c; i++)
		num += P[i] * Yoh[i];
	/* Y'HY = diag(n_a) - n n'/l */
	cnt = calloc((size_t)c, sizeof *cnt);
	if (cnt == NULL)
		return 0.0;
	for (a = 0; a < c; a++)
		for (i = 0; i < l; i++)
			cnt[a] += Yoh[i + (size_t)a * l];
	for (a = 0; a < c; a++)
		for (b = 0; b < c; b++) {
			double t = (a == b ? cnt[a] : 0.0) - cnt[a] * cnt[b] /
				   (double)l;
			tn += t * t;
		}
	free(cnt);
	return kn > 0.0 && tn > 0.0 ? num / (sqrt(kn) * sqrt(tn)) : 0.0;
}

/* The model: the n training rows, labeled ones first class by class
 * (order), coefficients beta (n x nr_fn, column-major by row index), the
 * ratio term's A (c x nr_fn, column-major) and counts. */
static lsv_status build_model(const lsv_fit *F, const size_t *order,
			      const size_t *counts, const double *beta,
			      const double *A, lsv_model **out)
{
	const lsv_data *x = F->x;
	size_t n = F->n, k, p, nnz = x->rowptr[n] - x->rowptr[0];
	size_t nf = (size_t)F->nr_fn, nc = (size_t)F->nr_class;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);
	size_t c, i;

	if (m == NULL || sv == NULL) {
		free(m);
		free(sv);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
	}
	m->param = *F->p;
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
	m->coef = lsv_alloc(n * nf, sizeof *m->coef);
	sv->n = n;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = lsv_alloc(n + 1, sizeof *sv->rowptr);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	sv->y = calloc(n ? n : 1, sizeof *sv->y);
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
	for (k = 0; k < n; k++) {
		size_t r = order[k];
		sv->rowptr[k] = sv->nnz;
		for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++) {
			sv->col[sv->nnz] = x->col[p];
			sv->val[sv->nnz++] = x->val[p];
		}
		for (c = 0; c < nf; c++)
			m->coef[k * nf + c] = beta[r + c * n];
	}
	sv->rowptr[n] = sv->nnz;
	*out = m;
	return LSV_OK;
}

lsv_status lsv_fit_labelaware(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, l = F->l, i, j, q, k, nc = (size_t)F->nr_class;
	size_t nf = (size_t)F->nr_fn, kept;
	int c;
	double *Knl = NULL, *Yoh = NULL, *Z = NULL, *D = NULL, *E = NULL;
	double *w = NULL, *work = NULL, *Zl = NULL, *mu = NULL, *Kt = NULL;
	double *Q = NULL, *beta = NULL, *box = NULL, *al = NULL, *T = NULL;
	double *B = NULL, *coef = NULL, *scratch = NULL, *P = NULL;
	int *iwork = NULL, *isuppz = NULL, found = 0;
	size_t *cls = NULL, *counts = NULL, *order = NULL;
	double twoA = lsv_fit_ambient(F, 2.0), align = 0.0, t0, t1, t2;
	const double one = 1.0, zero = 0.0;
	lsv_status st = LSV_OK;

	t0 = now();
	k = p->la_k > 0 ? (size_t)p->la_k : (n / 10 > 0 ? n / 10 : 1);
	if (k > n)
		return lsv_fail(F->err, LSV_EINVAL,
				"%zu kernel eigenvectors asked for, but the kernel "
				"matrix has only n = %zu rows (expected 1..%zu)", k,
				n, n);
	q = nc + k;
	/* each class's labeled rows, counted before anything is allocated
	 * beyond the counts */
	cls = lsv_alloc(l, sizeof *cls);
	counts = calloc(nc, sizeof *counts);
	if (cls == NULL || counts == NULL)
		goto nomem;
	for (i = 0; i < l; i++) {
		double y = F->x->y[F->lab[i]];
		for (j = 0; j < nc && F->labels[j] != y; j++)
			;
		cls[i] = j;
		counts[j]++;
	}
	for (j = 0; j < nc; j++)
		if (counts[j] < 2) {
			st = lsv_fail(F->err, LSV_EINVAL,
				      "class %g has %zu labeled row%s: the label-aware "
				      "vectors need at least two per class (one "
				      "labeled point's kernel row is not a class)",
				      F->labels[j], counts[j],
				      counts[j] == 1 ? "" : "s");
			goto done;
		}
	Knl = lsv_alloc(n * l, sizeof *Knl);
	Yoh = lsv_alloc(l * nc, sizeof *Yoh);
	Z = lsv_alloc(n * q, sizeof *Z);
	D = lsv_alloc(n, sizeof *D);
	E = lsv_alloc(n * n, sizeof *E);
	w = lsv_alloc(n, sizeof *w);
	isuppz = lsv_alloc(2 * k, sizeof *isuppz);
	if (!Knl || !Yoh || !Z || !D || !E || !w || !isuppz)
		goto nomem;
	memset(Yoh, 0, l * nc * sizeof *Yoh);
	/* 1-2: K_nl, D_n, u = D_n^-1 K_nl Y into the first c columns of Z */
	for (i = 0; i < l; i++) {
		memcpy(Knl + i * n, F->K + F->lab[i] * n, n * sizeof *Knl);
		Yoh[i + cls[i] * l] = 1.0;
	}
	{
		int N = (int)n, L = (int)l, C = (int)nc, inc = 1;
		double *ones = lsv_alloc(l, sizeof *ones);
		if (ones == NULL)
			goto nomem;
		for (i = 0; i < l; i++)
			ones[i] = 1.0;
		dgemv_("N", &N, &L, &one, Knl, &N, ones, &inc, &zero, D, &inc, 1);
		free(ones);
		dgemm_("N", "N", &N, &C, &L, &one, Knl, &N, Yoh, &L, &zero, Z, &N,
		       1, 1);
	}
	for (i = 0; i < n; i++) {
		int ok = D[i] > 0.0 && isfinite(D[i]);
		for (j = 0; j < nc; j++)
			Z[i + j * n] = ok ? Z[i + j * n] / D[i] : 0.0;
	}
	/* 3: the k largest eigenpairs of K */
	memcpy(E, F->K, n * n * sizeof *E);
	{
		int N = (int)n, il = (int)(n - k + 1), iu = (int)n, lwork = -1;
		int liwork = -1, iwq, info_ = 0;
		double vl = 0.0, vu = 0.0, abstol = 0.0, wq;
		double *V = Z + nc * n;  /* ascending into place, reversed below */
		dsyevr_("V", "I", "L", &N, E, &N, &vl, &vu, &il, &iu, &abstol,
			&found, w, V, &N, isuppz, &wq, &lwork, &iwq, &liwork,
			&info_, 1, 1, 1);
		lwork = (int)wq;
		liwork = iwq;
		work = lsv_alloc((size_t)(lwork > 0 ? lwork : 1), sizeof *work);
		iwork = lsv_alloc((size_t)(liwork > 0 ? liwork : 1),
				  sizeof *iwork);
		if (work == NULL || iwork == NULL)
			goto nomem;
		dsyevr_("V", "I", "L", &N, E, &N, &vl, &vu, &il, &iu, &abstol,
			&found, w, V, &N, isuppz, work, &lwork, iwork, &liwork,
			&info_, 1, 1, 1);
		if (info_ != 0 || (size_t)found != k) {
			st = lsv_fail(F->err, LSV_ENUMERIC,
				      "the kernel's eigenproblem failed (LAPACK "
				      "dsyevr info %d, %d of %zu eigenpairs)", info_,
				      found, k);
			goto done;
		}
		/* decreasing eigenvalues: reverse the columns */
		for (j = 0; j < k / 2; j++) {
			double t, *a = V + j * n, *b = V + (k - 1 - j) * n;
			t = w[j];
			w[j] = w[k - 1 - j];
			w[k - 1 - j] = t;
			for (i = 0; i < n; i++) {
				t = a[i];
				a[i] = b[i];
				b[i] = t;
			}
		}
	}
	free(E);
	E = NULL;
	for (kept = 0; kept < k; kept++)
		if (!(w[kept] > LSV_NYSTROM_CUTOFF * w[0]) || !(w[0] > 0.0))
			break;
	if (kept < k) {
		st = lsv_fail(F->err, LSV_EINVAL,
			      "the kernel matrix has %zu eigenvalue%s above %g of "
			      "the largest, fewer than the %zu eigenvectors asked "
			      "for: the Nystrom extension v_j(x) divides by "
			      "lambda_j (ask for at most %zu with -n, or use a "
			      "kernel of higher rank)", kept, kept == 1 ? "" : "s",
			      LSV_NYSTROM_CUTOFF, k, kept);
		goto done;
	}
	F->report->la_lambda_k = w[k - 1];
	t1 = now();
	/* 4: alignf on the labeled rows of Z */
	Zl = lsv_alloc(l * q, sizeof *Zl);
	mu = lsv_alloc(q, sizeof *mu);
	if (Zl == NULL || mu == NULL)
		goto nomem;
	for (j = 0; j < q; j++)
		for (i = 0; i < l; i++)
			Zl[i + j * l] = Z[F->lab[i] + j * n];
	if ((st = lsv_alignf(Zl, l, q, Yoh, (int)nc, mu, &align, F->err)) !=
	    LSV_OK)
		goto done;
	/* 5: K~_ll = (Z_l diag(sqrt mu)) (..)' */
	Kt = lsv_alloc(l * l, sizeof *Kt);
	scratch = lsv_alloc(l * q, sizeof *scratch);
	P = lsv_alloc(l * (nc > 1 ? nc : 1), sizeof *P);
	if (Kt == NULL || scratch == NULL || P == NULL)
		goto nomem;
	for (j = 0; j < q; j++) {
		double s = sqrt(mu[j]);
		for (i = 0; i < l; i++)
			scratch[i + j * l] = Zl[i + j * l] * s;
	}
	{
		int L = (int)l, QQ = (int)q;
		dsyrk_("L", "N", &L, &QQ, &one, scratch, &L, &zero, Kt, &L, 1, 1);
	}
	for (j = 0; j < l; j++)
		for (i = j + 1; i < l; i++)
			Kt[j + i * l] = Kt[i + j * l];
	F->report->la_align = align;
	{	/* the input kernel's, for comparison (Kc scratch: l x l) */
		double *Kll = lsv_alloc(l * l, sizeof *Kll);
		double *Kc = lsv_alloc(l * l, sizeof *Kc);
		if (Kll == NULL || Kc == NULL) {
			free(Kll);
			free(Kc);
			goto nomem;
		}
		for (j = 0; j < l; j++)
			for (i = 0; i < l; i++)
				Kll[i + j * l] = Knl[F->lab[i] + j * n];
		F->report->la_align_input = centered_alignment(Kll, l, Yoh,
							       (int)nc, Kc, P);
		free(Kll);
		free(Kc);
	}
	t2 = now();
	/* 6: the SVM on K~_ll, one function at a time */
	Q = lsv_alloc(l * l, sizeof *Q);
	beta = lsv_alloc(l, sizeof *beta);
	box = lsv_alloc(l, sizeof *box);
	al = lsv_alloc(l * nf, sizeof *al);
	if (Q == NULL || beta == NULL || box == NULL || al == NULL)
		goto nomem;
	for (c = 0; c < F->nr_fn; c++) {
		const double *y = F->Y + (size_t)c * l;
		double rho;
		for (j = 0; j < l; j++)
			for (i = 0; i < l; i++)
				Q[i + j * l] = y[i] * y[j] * Kt[i + j * l] / twoA;
		for (i = 0; i < l; i++)
			box[i] = 1.0 / (double)l;
		st = lsv_smo(Q, y, box, l, p->eps, p->max_iter, 0, beta, &rho, NULL,
			     F->err);
		if (st != LSV_OK)
			goto done;
		F->bias[c] = 0.0 - rho;
		for (i = 0; i < l; i++)
			al[i + (size_t)c * l] = y[i] * beta[i] / twoA;
	}
	/* T = diag(mu) Z_l' alpha (q x nr_fn): A = T's first c rows, B the
	 * rest; the training outputs Z T + b */
	T = lsv_alloc(q * nf, sizeof *T);
	if (T == NULL)
		goto nomem;
	{
		int L = (int)l, QQ = (int)q, NF = (int)nf;
		dgemm_("T", "N", &QQ, &NF, &L, &one, Zl, &L, al, &L, &zero, T, &QQ,
		       1, 1);
	}
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < q; j++)
			T[j + (size_t)c * q] *= mu[j];
	{
		double *f = lsv_alloc(n * nf, sizeof *f), *tf;
		int N = (int)n, QQ = (int)q, NF = (int)nf;
		if (f == NULL)
			goto nomem;
		dgemm_("N", "N", &N, &NF, &QQ, &one, Z, &N, T, &QQ, &zero, f, &N,
		       1, 1);
		tf = lsv_alloc(n * nf, sizeof *tf);
		if (tf == NULL) {
			free(f);
			goto nomem;
		}
		for (i = 0; i < n; i++)
			for (c = 0; c < F->nr_fn; c++)
				tf[i * nf + (size_t)c] = f[i + (size_t)c * n] +
							 F->bias[c];
		free(f);
		F->report->train_f = tf;
	}
	/* beta = V Lambda^-1 B (n x nr_fn) */
	B = lsv_alloc(k * nf, sizeof *B);
	coef = lsv_alloc(n * nf, sizeof *coef);
	if (B == NULL || coef == NULL)
		goto nomem;
	for (c = 0; c < F->nr_fn; c++)
		for (j = 0; j < k; j++)
			B[j + (size_t)c * k] = T[nc + j + (size_t)c * q] / w[j];
	{
		int N = (int)n, K_ = (int)k, NF = (int)nf;
		dgemm_("N", "N", &N, &NF, &K_, &one, Z + nc * n, &N, B, &K_, &zero,
		       coef, &N, 1, 1);
	}
	{	/* A (c x nr_fn) out of T */
		double *A = lsv_alloc(nc * nf, sizeof *A);
		if (A == NULL)
			goto nomem;
		for (c = 0; c < F->nr_fn; c++)
			for (j = 0; j < nc; j++)
				A[j + (size_t)c * nc] = T[j + (size_t)c * q];
		for (i = 0; i < n * nf; i++)
			if (!isfinite(coef[i])) {
				free(A);
				st = lsv_fail(F->err, LSV_ENUMERIC, "the label-aware "
					      "model has non-finite coefficients");
				goto done;
			}
		/* the labeled rows class by class, then the others */
		order = lsv_alloc(n, sizeof *order);
		if (order == NULL) {
			free(A);
			goto nomem;
		}
		{
			size_t at = 0, r;
			unsigned char *isl = calloc(n ? n : 1, 1);
			if (isl == NULL) {
				free(A);
				goto nomem;
			}
			for (j = 0; j < nc; j++)
				for (i = 0; i < l; i++)
					if (cls[i] == j) {
						order[at++] = F->lab[i];
						isl[F->lab[i]] = 1;
					}
			for (r = 0; r < n; r++)
				if (!isl[r])
					order[at++] = r;
			free(isl);
		}
		st = build_model(F, order, counts, coef, A, out);
		free(A);
		if (st != LSV_OK)
			goto done;
	}
	F->report->la_n = n;
	F->report->la_c = nc;
	F->report->la_k = k;
	F->report->la_weight = mu;
	mu = NULL;
	F->report->la_Z = Z;
	Z = NULL;
	F->report->la_eig_seconds = t1 - t0;
	F->report->la_align_seconds = t2 - t1;
	F->report->la_svm_seconds = now() - t2;
	goto done;
nomem:
	st = lsv_fail(F->err, LSV_ENOMEM, "out of memory for the label-aware "
		      "kernels (%zu rows, %zu base vectors)", n, q);
done:
	if (st != LSV_OK) {
		free(F->report->train_f);
		F->report->train_f = NULL;
	}
	free(Knl);
	free(Yoh);
	free(Z);
	free(D);
	free(E);
	free(w);
	free(work);
	free(iwork);
	free(isuppz);
	free(Zl);
	free(mu);
	free(Kt);
	free(scratch);
	free(P);
	free(Q);
	free(beta);
	free(box);
	free(al);
	free(T);
	free(B);
	free(coef);
	free(cls);
	free(counts);
	free(order);
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
