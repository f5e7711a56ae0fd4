/*
 * kdesign.c -- the semi-supervised kernel designs Wang, Zhang, Jiang &
 * Marsic ("Improving semi-supervised target alignment via label-aware
 * base kernels", AAAI 2014) compare against in their Table 1, on the
 * eigen-machinery of the label-aware kernels (common/spectrum.c).
 *
 * Objective.  Each design builds a kernel over the n training rows from
 * k eigenvectors z_j of a matrix over those rows,
 *     K~ = sum_{j=1..k} mu_j z_j z_j'   (mu_j >= 0),
 * then trains the SVM with C = 1/(2 gamma_A l) (one-vs-rest for more than
 * two classes) on its labeled block by SMO (lsv_lowrank_svm), f_c =
 * sum_{s labeled} alpha_sc K~(., x_s) + b_c, evaluated on every training
 * row as Z diag(mu) Z_l' alpha + b.  k = -n (default n/10, at least 1;
 * the cluster kernel: n, its whole spectrum).
 *
 * The designs (lsv_kdesign):
 *
 *   cluster    Chapelle, Weston & Schoelkopf, "Cluster kernels for
 *              semi-supervised learning" (NIPS 2003), Section 3, with the
 *              linear transfer phi(lambda) = lambda that Wang et al. name
 *              ("r(lambda) = lambda"), on the spectrum of their
 *              degree-normalized kernel S = D^-1/2 K D^-1/2, D = diag(K 1)
 *              (K's diagonal kept: with Chapelle et al.'s W_ii = 0 the
 *              linear transfer would leave L~_ii = S_ii = 0 and their
 *              step 4 would divide by zero):
 *                  S = U Lambda U',  L~ = U phi(Lambda) U',
 *                  K~ = D~^1/2 L~ D~^1/2,  D~_ii = 1 / L~_ii,
 *              i.e. K~_ij = L~_ij / sqrt(L~_ii L~_jj), the unit diagonal;
 *              z_j = D~^1/2 u_j, mu_j = phi(lambda_j).  By default every
 *              eigenpair (k = n): phi is then the identity, L~ = S, and
 *              K~_ij = K_ij / sqrt(K_ii K_jj) -- for a unit-diagonal
 *              kernel such as the RBF, K itself ("the linear transfer
 *              gives back the original kernel", Chapelle et al.), which
 *              test_kdesign.c checks by hand.  With -n k < n, the
 *              linear-step transfer (phi = lambda on the k largest, 0
 *              below: their "linear-step"), the transfer of this design
 *              before the default became the linear one.  A
 *              negative eigenvalue (S is PSD when K is, so only rounding)
 *              is clipped to 0, so that K~ is PSD.  A row with L~_ii = 0
 *              (or degree 0) gets z = 0.
 *   diffusion  The diffusion kernel on the graph's spectrum (Kondor &
 *              Lafferty 2002, truncated as in Zhu et al. 2004): the k
 *              smallest eigenpairs (lambda_j, phi_j) of the normalized
 *              Laplacian I - D^-1/2 W D^-1/2 (lsv_laplacian_bottom), W =
 *              K itself by default (p->lap_graph LSV_LAP_KERNEL: "given
 *              an n x n kernel matrix K, the graph Laplacian is computed
 *              as L = D - K, D_ii = sum_j K_ij", as Wang et al. build
 *              their baselines; eigenvalues in [0, 1]) or the training
 *              graph (LSV_LAP_GRAPH, lapsvm-train -V graph),
 *              mu_j = exp(-lambda_j / delta).  delta = -Z; default the
 *              median of the k eigenvalues, so that the weights span
 *              exp(0) = 1 down to about exp(-lambda_k / median).
 *   maxalign   The maximal-alignment kernel: the top-k eigenvectors v_j
 *              of K (k = 0.1 n, the paper's), weights by alignf on the
 *              rank-one kernels v_j v_j' (centered alignment, Cortes,
 *              Mohri & Rostamizadeh 2010; common/alignf.c: Lawson &
 *              Hanson's active set on min_{v >= 0} v'Mv - 2 v'a, mu =
 *              v/|v|) -- the label-aware kernels without the u's.
 *   spectral   Zhu, Kandola, Ghahramani & Lafferty, "Nonparametric
 *              transforms of graph kernels for semi-supervised learning"
 *              (NIPS 2004): the k smallest normalized-Laplacian
 *              eigenvectors (W = K or the graph, as diffusion),
 *              weights mu_1 >= mu_2 >= .. >= mu_k >= 0 (the smoother
 *              eigenvector weighs more) maximizing the
 *              uncentered alignment with T = 2YY' - 11' (yy' for two
 *              classes) on the labeled rows, trace K~ = sum mu = 1: the
 *              convex QP over the monotone cone, by mu_j = sum_{i>=j}
 *              t_i, t >= 0, on the NNLS machinery (lsv_align_ordered).
 *
 * Transductive.  The eigenvectors are over the n training rows only (the
 * cluster kernel's renormalization, and the graph of the Laplacian
 * designs, have no extension to a new point here), so training's own
 * outputs (lapsvm-train -o) are the predictions; the model records the
 * SVM over the labeled rows and lsv_model_decision refuses it, naming the
 * design.
 *
 * Refused: k > n, a class with fewer than two labeled rows (its
 * one-vs-rest problem would have one positive example), no graph for
 * diffusion and spectral with LSV_LAP_GRAPH, a negative kernel value for
 * them with LSV_LAP_KERNEL (W = K must be a graph's weights), a
 * precomputed kernel (-t 4) with an eigenvalue
 * below -1e-8 of its largest diagonal value (lsv_check_psd).
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

/* s_i = D_ii^-1/2, D = diag(A 1) the degrees of the kernel A = K (one:
 * n scratch).  D^-1/2 needs D_ii > 0: a row summing to 0 or less would
 * get a zero row in K~, and its output would be the bias alone, so it is
 * refused. */
static lsv_status inv_sqrt_degrees(const lsv_fit *F, const double *A,
				   double *one, double *s)
{
	size_t n = F->n, i;
	const double d1 = 1.0, d0 = 0.0;
	int N = (int)n, inc = 1;

	for (i = 0; i < n; i++)
		one[i] = 1.0;
	dgemv_("N", &N, &N, &d1, A, &N, one, &inc, &d0, s, &inc, 1);
	for (i = 0; i < n; i++) {
		if (!(s[i] > 0.0 && isfinite(s[i])))
			return lsv_fail(F->err, LSV_EINVAL,
				"the cluster kernel (-s kdesign -J cluster): row "
				"%zu's kernel values sum to %g, and D^-1/2 K D^-1/2 "
				"needs every row's sum > 0 (a kernel of positive "
				"values, such as the RBF)", i + 1, s[i]);
		s[i] = 1.0 / sqrt(s[i]);
	}
	return LSV_OK;
}

/* w, Z: the k largest eigenpairs of S = D^-1/2 K D^-1/2 (descending), K's
 * diagonal kept (see the top), from the spectrum cache when it holds
 * them.  s: n scratch. */
static lsv_status affinity_spectrum(const lsv_fit *F, size_t k, double *s,
				    double *w, double *Z)
{
	size_t n = F->n, i, j;
	double *A = lsv_alloc(n * n, sizeof *A);
	double *one = lsv_alloc(n, sizeof *one);
	lsv_status st;

	if (A == NULL || one == NULL) {
		free(A);
		free(one);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the "
				"cluster kernel's affinity (%zu rows)", n);
	}
	if (lsv_spectrum_lookup(F, LSV_SPEC_AFFINITY_TOP, k, w, Z)) {
		free(A);
		free(one);
		return LSV_OK;
	}
	memcpy(A, F->K, n * n * sizeof *A);
	st = inv_sqrt_degrees(F, A, one, s);
	free(one);
	if (st != LSV_OK) {
		free(A);
		return st;
	}
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			A[i + j * n] *= s[i] * s[j];
	st = lsv_eig_extreme(A, n, k, 1, w, Z, F->err);
	free(A);
	if (st == LSV_OK)
		lsv_spectrum_store(F, LSV_SPEC_AFFINITY_TOP, k, w, Z);
	return st;
}

/* The linear transfer on S's k eigenpairs (w, U = Z): mu = max(w, 0),
 * and Z's rows scaled to z_j(i) = U_ij / sqrt(L~_ii), L~_ii = sum_j mu_j
 * U_ij^2 (0 for a row with L~_ii = 0).  s: n scratch. */
static void linear_transfer(size_t n, size_t k, const double *w, double *Z,
			    double *mu, double *s)
{
	size_t i, j;

	for (j = 0; j < k; j++)
		mu[j] = w[j] > 0.0 ? w[j] : 0.0;
	for (i = 0; i < n; i++) {
		double d = 0.0;
		for (j = 0; j < k; j++)
			d += mu[j] * Z[i + j * n] * Z[i + j * n];
		s[i] = d > 0.0 ? 1.0 / sqrt(d) : 0.0;
	}
	for (j = 0; j < k; j++)
		for (i = 0; i < n; i++)
			Z[i + j * n] *= s[i];
}

/* The cluster kernel's z_j and mu_j (see the top): Z n x k, w the k
 * largest eigenvalues of S = D^-1/2 K D^-1/2 (descending), mu = max(w, 0)
 * (the linear transfer). */
static lsv_status cluster_basis(const lsv_fit *F, size_t k, double *w,
				double *Z, double *mu)
{
	double *s = lsv_alloc(F->n, sizeof *s);
	lsv_status st;

	if (s == NULL)
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the "
				"cluster kernel's affinity (%zu rows)", F->n);
	st = affinity_spectrum(F, k, s, w, Z);
	if (st == LSV_OK)
		linear_transfer(F->n, k, w, Z, mu, s);
	free(s);
	return st;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the values of w[0..k) above floor (the mean of the
 * middle two for an even count) in *m; 0 when none is.  Owns its copy of
 * those values, freed here. */
static lsv_status median_above(const double *w, size_t k, double floor,
			       double *m, lsv_error *err)
{
	double *c = lsv_alloc(k ? k : 1, sizeof *c);
	size_t j, q = 0;

	if (c == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for the "
				"diffusion kernel's eigenvalues");
	for (j = 0; j < k; j++)
		if (w[j] > floor)
			c[q++] = w[j];
	*m = 0.0;
	if (q > 0) {
		qsort(c, q, sizeof *c, cmp_double);
		*m = q % 2 ? c[q / 2] : 0.5 * (c[q / 2 - 1] + c[q / 2]);
	}
	free(c);
	return LSV_OK;
}

/* The Laplacian eigenvalues of w[0..k) that are 0 to rounding (at most
 * 1e-10 of the largest, or of 1): one per connected component of the
 * graph, whose eigenvectors are flat on components. */
static double zero_floor(const double *w, size_t k)
{
	double top = 1.0;
	size_t j;

	for (j = 0; j < k; j++)
		top = fmax(top, fabs(w[j]));
	return 1e-10 * top;
}

lsv_status lsv_fit_transductive_model(const lsv_fit *F, const double *al,
				      lsv_model **out)
{
	const lsv_data *x = F->x;
	size_t l = F->l, nf = (size_t)F->nr_fn, nc = (size_t)F->nr_class;
	size_t i, p, nnz = 0, c;
	lsv_model *m = calloc(1, sizeof *m);
	lsv_data *sv = calloc(1, sizeof *sv);

	if (m == NULL || sv == NULL) {
		free(m);
		free(sv);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
	}
	for (i = 0; i < l; i++)
		nnz += x->rowptr[F->lab[i] + 1] - x->rowptr[F->lab[i]];
	m->param = *F->p;
	m->l = l;
	m->u = F->n - l;
	m->unlabeled = x->unlabeled;
	m->nr_class = F->nr_class;
	m->nr_fn = F->nr_fn;
	m->sv = sv;
	m->labels = lsv_alloc(nc, sizeof *m->labels);
	m->bias = lsv_alloc(nf, sizeof *m->bias);
	m->coef = lsv_alloc(l * nf, sizeof *m->coef);
	sv->n = l;
	sv->unlabeled = x->unlabeled;
	sv->dim = x->dim;
	sv->rowptr = lsv_alloc(l + 1, sizeof *sv->rowptr);
	sv->col = lsv_alloc(nnz, sizeof *sv->col);
	sv->val = lsv_alloc(nnz, sizeof *sv->val);
	sv->y = calloc(l ? l : 1, sizeof *sv->y);
	if (!m->labels || !m->bias || !m->coef || !sv->rowptr || !sv->col ||
	    !sv->val || !sv->y) {
		lsv_model_free(m);
		return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the model");
	}
	memcpy(m->labels, F->labels, nc * sizeof *m->labels);
	memcpy(m->bias, F->bias, nf * sizeof *m->bias);
	for (i = 0; i < l; i++) {
		size_t r = F->lab[i];
		sv->rowptr[i] = sv->nnz;
		for (p = x->rowptr[r]; p < x->rowptr[r + 1]; p++) {
			sv->col[sv->nnz] = x->col[p];
			sv->val[sv->nnz++] = x->val[p];
		}
		for (c = 0; c < nf; c++)
			m->coef[i * nf + c] = al[i + c * l];
	}
	sv->rowptr[l] = sv->nnz;
	*out = m;
	return LSV_OK;
}

/* k, the number of eigenvectors (lsv_basis_size: -n, else 0.1 n, the
 * cluster kernel's linear transfer n; -n k < n there: linear-step).
 * More than n is refused. */
static lsv_status basis_size(const lsv_fit *F, const char *who, size_t *k)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n;

	*k = lsv_basis_size(p, n);
	if (*k > n)
		return lsv_fail(F->err, LSV_EINVAL, "%s: %zu eigenvectors asked "
				"for (-n), but there are only n = %zu rows "
				"(expected 1..%zu)", who, *k, n, n);
	return LSV_OK;
}

/* The z_j (Z, n x k) and their eigenvalues w: the cluster kernel's
 * (mu set there too), the k smallest of the normalized Laplacian
 * (diffusion, spectral), or the k largest of K (maxalign). */
static lsv_status design_basis(const lsv_fit *F, size_t k, const char *who,
			       double *w, double *Z, double *mu)
{
	lsv_status st = LSV_OK;

	switch (F->p->kdesign) {
	case LSV_KDESIGN_CLUSTER:
		st = cluster_basis(F, k, w, Z, mu);
		break;
	case LSV_KDESIGN_DIFFUSION:
	case LSV_KDESIGN_SPECTRAL:
		st = lsv_laplacian_bottom(F, k, who, w, Z);
		break;
	case LSV_KDESIGN_MAXALIGN:
		if (lsv_spectrum_lookup(F, LSV_SPEC_KERNEL_TOP, k, w, Z))
			break;
		st = lsv_eig_extreme(F->K, F->n, k, 1, w, Z, F->err);
		if (st == LSV_OK)
			lsv_spectrum_store(F, LSV_SPEC_KERNEL_TOP, k, w, Z);
		break;
	}
	return st;
}

/* The diffusion kernel's delta: -Z, else the median of the eigenvalues
 * that are not 0 (a graph of many components has as many zeros, and
 * their rounding noise, 1e-17, would be delta: every other weight
 * exp(-lambda/delta) would underflow). */
static lsv_status diffusion_delta(const lsv_fit *F, const double *w,
				  size_t k, double *delta)
{
	lsv_status st = LSV_OK;

	*delta = F->p->kd_delta;
	if (!(*delta > 0.0))
		st = median_above(w, k, zero_floor(w, k), delta, F->err);
	if (st == LSV_OK && !(*delta > 0.0)) {
		/* every eigenvalue 0 (k components or fewer): the weights
		 * are 1 whatever delta is */
		*delta = 1.0;
	}
	return st;
}

/* The weights mu_j of the design (Zl: the labeled rows of Z, set here):
 * the cluster kernel's, set with its basis; diffusion exp(-lambda_j /
 * delta); maxalign by alignf, spectral by the ordered alignment (*align:
 * the alignment reached). */
static lsv_status design_weights(lsv_fit *F, size_t k, const double *Yoh,
				 const double *w, const double *Z, double *Zl,
				 double *mu, double *align, double *delta)
{
	size_t n = F->n, l = F->l, i, j;
	int nc = F->nr_class;
	lsv_status st = LSV_OK;

	for (j = 0; j < k; j++)
		for (i = 0; i < l; i++)
			Zl[i + j * l] = Z[F->lab[i] + j * n];
	switch (F->p->kdesign) {
	case LSV_KDESIGN_CLUSTER:  /* mu = max(lambda, 0), set above */
		break;
	case LSV_KDESIGN_DIFFUSION:
		st = diffusion_delta(F, w, k, delta);
		for (j = 0; st == LSV_OK && j < k; j++)
			mu[j] = exp(-fmax(w[j], 0.0) / *delta);
		break;
	case LSV_KDESIGN_MAXALIGN:
		st = lsv_alignf(Zl, l, k, Yoh, nc, mu, align, F->err);
		break;
	case LSV_KDESIGN_SPECTRAL:
		st = lsv_align_ordered(Zl, l, k, Yoh, nc, mu, align, F->err);
		break;
	}
	return st;
}

/* K~_ii = sum_j mu_j Z_ij^2 > 0 on every row (cluster and diffusion): a
 * row no weighted eigenvector reaches would be predicted by the bias
 * alone (the cluster kernel's rows with no positive eigenvalue,
 * diffusion weights that underflow). */
static lsv_status rows_reached(const lsv_fit *F, size_t k, const char *who,
			       const double *w, const double *Z,
			       const double *mu)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, i, j;

	for (i = 0; (p->kdesign == LSV_KDESIGN_CLUSTER ||
		     p->kdesign == LSV_KDESIGN_DIFFUSION) && i < n; i++) {
		double d = 0.0;
		for (j = 0; j < k; j++)
			d += mu[j] * Z[i + j * n] * Z[i + j * n];
		if (!(d > 0.0) && p->kdesign == LSV_KDESIGN_DIFFUSION &&
		    w[k - 1] <= zero_floor(w, k)) {
			/* k eigenvectors in the null space, flat on components:
			 * they miss the components beyond k whatever delta is */
			return lsv_fail(F->err, LSV_EINVAL,
					"%s: row %zu gets K~_ii = %g: the %zu "
					"eigenvectors all have eigenvalue 0, so the "
					"graph has at least %zu connected components "
					"and they do not reach every one; use more "
					"eigenvectors (-n) than the graph has "
					"components, or a graph with fewer", who,
					i + 1, d, k, k);
		}
		if (!(d > 0.0))
			return lsv_fail(F->err, LSV_ENUMERIC,
					"%s: row %zu gets K~_ii = %g: no eigenvector "
					"of positive weight reaches it, and its output "
					"would be the bias alone (%s)", who, i + 1, d,
					p->kdesign == LSV_KDESIGN_DIFFUSION
					? "every weight exp(-lambda/delta) underflows "
					  "at this delta: raise -Z, or more eigenvectors "
					  "(-n)"
					: "more eigenvectors (-n)");
	}
	return LSV_OK;
}

/* The buffers of one fit. */
typedef struct {
	double *Yoh;       /* l x nc: the one-hot labels */
	size_t *counts;    /* nc: labeled rows per class */
	double *Z;         /* n x k: the z_j */
	double *w;         /* k: their eigenvalues */
	double *mu;        /* k: their weights */
	double *Zl;        /* l x k: Z's labeled rows */
	double *al;        /* l x nf: the SVMs' alpha */
	double *T;         /* k x nf: the SVMs' scratch */
} kd_work;

static void kd_work_free(kd_work *W)
{
	free(W->Yoh);
	free(W->counts);
	free(W->Z);
	free(W->w);
	free(W->mu);
	free(W->Zl);
	free(W->al);
	free(W->T);
}

static lsv_status kd_nomem(const lsv_fit *F, const char *name)
{
	return lsv_fail(F->err, LSV_ENOMEM, "out of memory for the %s kernel "
			"(%zu rows)", name, F->n);
}

/* The one-hot labels, refused with too few labeled rows per class (who:
 * the design, for the message) or a kernel that is not PSD -- before the
 * eigenvectors' buffers are allocated. */
static lsv_status kd_labels(lsv_fit *F, const char *name, const char *who,
			    kd_work *W)
{
	size_t l = F->l, nc = (size_t)F->nr_class;
	lsv_status st;

	W->Yoh = lsv_alloc(l * nc, sizeof *W->Yoh);
	W->counts = lsv_alloc(nc, sizeof *W->counts);
	if (W->Yoh == NULL || W->counts == NULL)
		return kd_nomem(F, name);
	if ((st = lsv_onehot(F, W->Yoh, W->counts)) != LSV_OK ||
	    (st = lsv_min_per_class(F, W->counts, who)) != LSV_OK)
		return st;
	return lsv_check_psd(F);
}

/* The buffers of k eigenvectors and the SVMs. */
static lsv_status kd_work_alloc(const lsv_fit *F, size_t k, const char *name,
				kd_work *W)
{
	size_t n = F->n, l = F->l, nf = (size_t)F->nr_fn;

	W->Z = lsv_alloc(n * k, sizeof *W->Z);
	W->w = lsv_alloc(k, sizeof *W->w);
	W->mu = lsv_alloc(k, sizeof *W->mu);
	W->al = lsv_alloc(l * nf, sizeof *W->al);
	W->T = lsv_alloc(k * nf, sizeof *W->T);
	W->Zl = lsv_alloc(l * k, sizeof *W->Zl);
	if (!W->Z || !W->w || !W->mu || !W->al || !W->T || !W->Zl)
		return kd_nomem(F, name);
	return LSV_OK;
}

/* What the model and the report record of the design: k, and delta
 * (diffusion only in the model), the last eigenvalue. */
static void kd_record(lsv_fit *F, lsv_model *m, size_t k, const double *w,
		      double delta)
{
	m->param.la_k = (long)k;
	m->param.kd_delta = F->p->kdesign == LSV_KDESIGN_DIFFUSION ? delta : 0.0;
	F->report->la_lambda_k = w[k - 1];
	F->report->kd_delta = delta;
}

lsv_status lsv_fit_kdesign(lsv_fit *F, lsv_model **out)
{
	const lsv_train_param *p = F->p;
	size_t n = F->n, k;
	kd_work W = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	double t0, t1, t2, align = 0.0, delta = 0.0;
	const char *name = lsv_name_of(lsv_kdesign_names, (int)p->kdesign);
	char who[64];
	lsv_status st = LSV_OK;

	t0 = now();
	if (name == NULL)
		return lsv_fail(F->err, LSV_EINVAL, "unknown kernel design %d",
				(int)p->kdesign);
	snprintf(who, sizeof who, "the %s kernel (-s kdesign -J %s)", name, name);
	if ((st = basis_size(F, who, &k)) != LSV_OK)
		return st;
	if ((st = kd_labels(F, name, who, &W)) != LSV_OK ||
	    (st = kd_work_alloc(F, k, name, &W)) != LSV_OK ||
	    (st = design_basis(F, k, who, W.w, W.Z, W.mu)) != LSV_OK)
		goto done;
	t1 = now();
	if ((st = design_weights(F, k, W.Yoh, W.w, W.Z, W.Zl, W.mu, &align,
				 &delta)) != LSV_OK ||
	    (st = rows_reached(F, k, who, W.w, W.Z, W.mu)) != LSV_OK)
		goto done;
	F->report->la_align_input = lsv_input_alignment(F, NULL, W.Yoh);
	t2 = now();
	/* the SVM on K~_ll, the outputs on every row */
	if ((st = lsv_lowrank_svm(F, W.Z, k, W.mu, W.Yoh, W.al, W.T)) !=
	    LSV_OK ||
	    (st = lsv_fit_transductive_model(F, W.al, out)) != LSV_OK)
		goto done;
	kd_record(F, *out, k, W.w, delta);
	lsv_spectrum_report(F, n, 0, k, &W.mu, &W.Z, t1 - t0, t2 - t1,
			    now() - t2);
done:
	if (st != LSV_OK) {
		free(F->report->train_f);
		F->report->train_f = NULL;
	}
	kd_work_free(&W);
	return st;
}
