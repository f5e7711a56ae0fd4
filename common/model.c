/*
 * model.c -- trained models: the text file format, and prediction.
 *
 * A model holds nr_fn decision functions over its expansion points sv
 * (JMLR 2006 eq. 5, the representer theorem):
 *
 *     f_c(x) = sum_i coef[i nr_fn + c] k(sv_i, x) + bias[c]
 *
 * The file is text, so it can be read, diffed and checked by eye:
 *
 *     lapsvm_model 1
 *     key value            one per header key (the table keys[]), in any
 *                          order, none repeated
 *     ...
 *     SV
 *     c_1 .. c_nr_fn index:value index:value ...    one line per sv
 *
 * Numbers are written with %.17g, which strtod reads back to the same
 * double, so read(write(m)) is m bit for bit.  The reader makes one pass
 * and grows its arrays as lines arrive: the counts in the header are
 * checked against what the file really holds, never trusted for an
 * allocation, so a corrupt "nr_sv 2147483647" costs nothing.  Every refusal
 * names the file and the line: "NAME:LINE: what (found X, expected Y)".
 *
 * Prediction computes K(sv, x) for blocks of at most BLOCK test rows
 * (lsv_kernel_matrix, BLAS inside) and multiplies by coef with one dgemm
 * per block, so memory is O(BLOCK x nr_sv) whatever the test set's size.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "internal.h"

/* Test rows per kernel block, and the most kernel values held at once
 * (2^24 doubles, 128 MiB): a model with more than 16384 expansion points
 * gets proportionally smaller blocks. */
#define BLOCK 1024
#define MAX_KBLOCK ((size_t)1 << 24)

void lsv_model_free(lsv_model *m)
{
	if (m == NULL)
		return;
	free(m->labels);
	free(m->bias);
	free(m->shift);
	free(m->centroids);
	free(m->class_weight);
	free(m->la_rows);
	free(m->la_coef);
	free(m->coef);
	free(m->graph);
	free(m->graph_weight);
	if (m->graph_desc != NULL) {
		size_t q;
		for (q = 0; q < m->ngraphs; q++)
			free(m->graph_desc[q]);
		free(m->graph_desc);
	}
	if (m->trees != NULL) {
		size_t t;
		for (t = 0; t < m->ntrees; t++)
			free(m->trees[t].node);
		free(m->trees);
	}
	lsv_data_free(m->sv);
	free(m);
}

/* ------------------------------------------------------------------ */
/* Checks shared by the writer and the reader                          */
/* ------------------------------------------------------------------ */

/* A model of clusters, not classes: -s cluster, or boosting with
 * boost_clusters (the paper's unsupervised ManifoldBoost). */
static int is_clustering(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_CLUSTER ||
	       (m->param.solver == LSV_SOLVER_BOOST &&
		m->param.boost_clusters > 0);
}

/* The functions a model of its classes has: one for two classes, else
 * one per class (one-vs-rest), or for c clusters the c - 1 coordinates of
 * the embedding. */
static int fns_of(const lsv_model *m)
{
	if (m->nr_class == 2)
		return 1;
	return is_clustering(m) ? m->nr_class - 1 : m->nr_class;
}

/* The first cluster (0-based) whose label is not its number, or -1: a
 * cluster's number is its label (lapsvm-predict writes it, and the
 * agreement with the classes indexes by it), so clusters are 1..c. */
static int misnumbered_cluster(const lsv_model *m)
{
	int c;
	for (c = 0; is_clustering(m) && c < m->nr_class; c++)
		if (m->labels[c] != (double)(c + 1))
			return c;
	return -1;
}

/* A cluster model with more than two clusters keeps its centroids. */
static int has_centroids(const lsv_model *m)
{
	return is_clustering(m) && m->nr_class > 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* 1 if some value occurs twice in v[0..n) (then *dup is it), 0 if not, -1
 * out of memory.  Sorted copy: O(n log n) even for a hostile labels line. */
static int find_duplicate(const double *v, size_t n, double *dup)
{
	double *w;
	size_t i;
	int found = 0;

	if (n < 2)
		return 0;
	w = malloc(n * sizeof *w);
	if (w == NULL)
		return -1;
	memcpy(w, v, n * sizeof *w);
	qsort(w, n, sizeof *w, cmp_double);
	for (i = 1; i < n && !found; i++)
		if (w[i] == w[i - 1]) {
			*dup = w[i];
			found = 1;
		}
	free(w);
	return found;
}

/* A graph description must survive the line reader unchanged: no line
 * break, no '#' (a comment to the reader), no blank at either end. */
static int graph_text_ok(const char *g)
{
	size_t len = strlen(g);

	if (strpbrk(g, "\n\r#") != NULL)
		return 0;
	return len == 0 || (g[0] != ' ' && g[0] != '\t' && g[len - 1] != ' ' &&
			    g[len - 1] != '\t');
}

static int all_finite(const double *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

/* Why the combination's weights w[0..n) are not a convex combination
 * (each >= 0, summing to 1 up to rounding), or NULL. */
static const char *bad_weights(const double *w, size_t n)
{
	double sum = 0.0;
	size_t q;

	if (w == NULL)
		return "graph weights missing";
	for (q = 0; q < n; q++) {
		if (!(w[q] >= 0.0) || !isfinite(w[q]))
			return "a graph weight is negative or not finite";
		sum += w[q];
	}
	if (!(fabs(sum - 1.0) <= 1e-9))
		return "the graph weights do not sum to 1";
	return NULL;
}

/* Why a labelaware model's terms are wrong with nsv expansion points
 * (counts of at least 2 per class summing to at most nsv, finite
 * coefficients, k >= 1), or NULL. */
static const char *bad_la(const lsv_model *m, size_t nsv)
{
	size_t sum = 0;
	int c;

	for (c = 0; c < m->nr_class; c++) {
		if (m->la_rows[c] < 2)
			return "a class has fewer than two labeled rows in "
			       "labelaware_rows (expected at least 2)";
		if (m->la_rows[c] > nsv - sum)
			return "labelaware_rows sum to more than nr_sv";
		sum += m->la_rows[c];
	}
	if (!all_finite(m->la_coef, (size_t)m->nr_fn * (size_t)m->nr_class))
		return "a labelaware_u value is not finite";
	if (m->param.la_k < 1)
		return "labelaware_k is below 1";
	return NULL;
}

/*
 * Why tree t of a model with nr_fn functions is not one tree (the
 * lsv_tree_node rules: children after their parent and inside the tree,
 * every node but the root with exactly one parent, features in range,
 * finite numbers, the unused fields 0), or NULL.  *at: the node (0-based)
 * the reason is about.
 */
static const char *bad_tree(const lsv_tree *t, int nr_fn, int *at)
{
	int v, *parents;
	const char *why = NULL;

	*at = 0;
	if (t->fn < 0 || t->fn >= nr_fn)
		return "its function is out of range (expected 1..nr_fn)";
	if (t->nnodes < 1 || t->nnodes > LSV_BOOST_MAX_NODES || t->node == NULL)
		return "its node count is out of range";
	if ((parents = calloc((size_t)t->nnodes, sizeof *parents)) == NULL)
		return "out of memory";
	for (v = 0; v < t->nnodes && why == NULL; v++) {
		const lsv_tree_node *nd = &t->node[v];
		*at = v;
		if (!isfinite(nd->threshold) || !isfinite(nd->value))
			why = "a number is not finite";
		else if (nd->feature == -1) {
			if (nd->left != 0 || nd->right != 0 || nd->threshold != 0.0)
				why = "a leaf has children or a threshold "
				      "(expected 0 0 0)";
		} else if (nd->feature < 0 || nd->feature >= INT_MAX)
			why = "a feature index is out of range";
		else if (nd->value != 0.0)
			why = "a split has a value (expected 0)";
		else if (nd->left <= v || nd->right <= v ||
			 nd->left >= t->nnodes || nd->right >= t->nnodes ||
			 nd->left == nd->right)
			why = "a child index is out of range (expected two "
			      "different nodes after the split, inside the tree)";
		else if (++parents[nd->left] > 1 || ++parents[nd->right] > 1)
			why = "a node has two parents (expected a tree)";
	}
	for (v = 1; v < t->nnodes && why == NULL; v++)
		if (parents[v] != 1) {
			*at = v;
			why = "a node is not the child of any split (expected a "
			      "tree)";
		}
	free(parents);
	return why;
}

static int is_boost(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_BOOST;
}

static int boost_rbf(const lsv_model *m)
{
	return is_boost(m) && m->param.boost_learner == LSV_BOOST_RBF;
}

static int boost_unsup(const lsv_model *m)
{
	return is_boost(m) && m->param.boost_clusters > 0;
}

/* at most one tree per function and round (clustering: one more round,
 * its random F_0) */
static size_t boost_max_trees(const lsv_model *m)
{
	return ((size_t)m->param.boost_rounds + (boost_unsup(m) ? 1 : 0)) *
	       (size_t)m->nr_fn;
}

/* The first header value the reader would refuse, or NULL. */
static const char *bad_param(const lsv_model *m)
{
	const lsv_train_param *p = &m->param;

	if (!isfinite(p->kernel.gamma))
		return "gamma is not finite";
	if (!(p->gamma_A > 0.0) || !isfinite(p->gamma_A))
		return "gamma_A is not a finite number > 0";
	if (!(p->gamma_I >= 0.0) || !isfinite(p->gamma_I))
		return "gamma_I is not a finite number >= 0";
	if (p->power < 1)
		return "laplacian_power is below 1";
	if (!(p->eps > 0.0) || !isfinite(p->eps))
		return "eps is not a finite number > 0";
	if (p->max_iter < 0)
		return "max_iter is negative";
	if (!isfinite(m->unlabeled))
		return "the unlabeled marker is not finite";
	if (p->solver == LSV_SOLVER_COMBINE) {  /* only the combination's */
		if (p->combine_ext != LSV_SOLVER_LAPRLS &&
		    p->combine_ext != LSV_SOLVER_LAPSVM)
			return "combine_extension is not laprls or lapsvm";
		if (!(p->combine_mu > 0.0) || !isfinite(p->combine_mu))
			return "combine_mu is not a finite number > 0";
		if (p->combine_steps < 0 || p->combine_rank < 0)
			return "combine_steps or combine_rank is negative";
	}
	if (p->solver == LSV_SOLVER_BOOST) {  /* only boosting writes these */
		if (p->boost_rounds < 1 || p->boost_rounds > LSV_BOOST_MAX_ROUNDS)
			return "boost_rounds is out of range";
		if (p->boost_depth < 1 || p->boost_depth > LSV_BOOST_MAX_DEPTH)
			return "boost_depth is out of range";
		if (!(p->boost_shrinkage > 0.0 && p->boost_shrinkage <= 1.0))
			return "boost_shrinkage is not in (0, 1]";
		if (!(p->boost_tol >= 0.0) || !isfinite(p->boost_tol))
			return "boost_tol is not a finite number >= 0";
		if (lsv_name_of(lsv_boost_learner_names, p->boost_learner) ==
		    NULL)
			return "boost_learner is not tree or rbf";
		if (p->boost_learner == LSV_BOOST_RBF &&
		    (p->boost_rbfs < 1 || p->boost_rbfs > LSV_BOOST_MAX_RBFS))
			return "boost_rbfs is out of range";
		if (p->boost_learner == LSV_BOOST_RBF &&
		    p->kernel.type != LSV_KERNEL_RBF)
			return "an RBF-boosted model's kernel is not rbf";
		if (p->boost_clusters < 0 || p->boost_clusters == 1)
			return "boost_clusters is out of range";
	}
	if (p->solver == LSV_SOLVER_TSVM) {  /* only the TSVM writes these */
		if (!(p->tsvm_cstar >= 0.0) || !isfinite(p->tsvm_cstar))
			return "tsvm_cstar is not a finite number >= 0";
		if (!(p->tsvm_r >= 0.0 && p->tsvm_r < 1.0))
			return "tsvm_r is not in [0, 1)";
		if (p->tsvm_max_switches < 0)
			return "tsvm_max_switches is negative";
	}
	return NULL;
}

/*
 * Everything the reader would refuse, refused before a byte is written:
 * a model that lsv_model_write accepts always reads back.  check_model
 * runs the checks below in the order written and returns the first
 * refusal, so one model always gets the same message.  REFUSE is their
 * message: the model's name, then why; an expression, which each caller
 * returns.
 */
#define REFUSE(...) lsv_fail(err, LSV_EINVAL, "%s: cannot write the model: " \
			     __VA_ARGS__)

/* The solver, method, seed, kernel and parameters: names and values the
 * reader can parse back. */
static lsv_status check_model_param(const lsv_model *m, const char *name,
				    lsv_error *err)
{
	const char *why_param = bad_param(m);
	lsv_error why;

	if (lsv_solver_name(m->param.solver) == NULL)
		return REFUSE("unknown solver %d", name, (int)m->param.solver);
	if (lsv_method_name(m->param.method) == NULL)
		return REFUSE("unknown method %d", name, (int)m->param.method);
	if (m->param.landmarks > 0 &&
	    m->param.seed > (unsigned long long)LONG_MAX)
		return REFUSE("seed %llu out of range (expected 0..%ld)", name,
			      m->param.seed, LONG_MAX);
	if (lsv_kernel_check(&m->param.kernel, &why) != LSV_OK)
		return REFUSE("%s", name, why.msg);
	if (why_param != NULL)
		return REFUSE("%s", name, why_param);
	return LSV_OK;
}

/* The classes and their functions: the counts agree and the labels are
 * finite, distinct, not the unlabeled marker and, for clusters, 1..c (a
 * prediction is a label, so each must name one class). */
static lsv_status check_model_classes(const lsv_model *m, const char *name,
				      lsv_error *err)
{
	double dup;
	int want_fn, c;

	if (m->nr_class < 2)
		return REFUSE("nr_class %d (expected at least 2)", name,
			      m->nr_class);
	want_fn = fns_of(m);
	if (m->nr_fn != want_fn)
		return REFUSE("nr_fn %d with %d classes (expected %d)", name,
			      m->nr_fn, m->nr_class, want_fn);
	if (m->labels == NULL || m->bias == NULL || m->sv == NULL ||
	    (m->coef == NULL && m->sv->n > 0))
		return REFUSE("labels, bias, sv or coef missing", name);
	if (!all_finite(m->labels, (size_t)m->nr_class))
		return REFUSE("a label is not finite", name);
	switch (find_duplicate(m->labels, (size_t)m->nr_class, &dup)) {
	case 1:
		return REFUSE("label %.17g appears twice", name, dup);
	case -1:
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	}
	for (c = 0; c < m->nr_class; c++)
		if (m->labels[c] == m->unlabeled)
			return REFUSE("label %.17g is the unlabeled marker", name,
				      m->labels[c]);
	if ((c = misnumbered_cluster(m)) >= 0)
		return REFUSE("cluster %d is labeled %.17g (a cluster model "
			      "labels its clusters 1..%d in order)", name, c + 1,
			      m->labels[c], m->nr_class);
	return LSV_OK;
}

/* The numbers kept per function and per class (biases, balance shifts,
 * cluster centroids, intrinsic weights): present where the model needs
 * them and finite, as the reader wants them. */
static lsv_status check_model_values(const lsv_model *m, const char *name,
				     lsv_error *err)
{
	int c;

	if (!all_finite(m->bias, (size_t)m->nr_fn))
		return REFUSE("a bias is not finite", name);
	if (m->shift != NULL && !all_finite(m->shift, (size_t)m->nr_fn))
		return REFUSE("a balance shift is not finite", name);
	if (has_centroids(m) != (m->centroids != NULL))
		return REFUSE("%s", name, m->centroids != NULL
			      ? "centroids belong to cluster models of more than "
				"two clusters only"
			      : "a cluster model of more than two clusters needs "
				"its centroids");
	if (m->centroids != NULL &&
	    !all_finite(m->centroids, (size_t)m->nr_class * (size_t)m->nr_fn))
		return REFUSE("a centroid is not finite", name);
	if (m->class_weight != NULL) {
		for (c = 0; c < m->nr_class; c++)
			if (!(m->class_weight[c] > 0.0) ||
			    !isfinite(m->class_weight[c]))
				return REFUSE("intrinsic weight %g of class %.17g is "
					      "not a finite number > 0", name,
					      m->class_weight[c], m->labels[c]);
	}
	return LSV_OK;
}

/* The expansion points: no more than the key nr_sv takes (INT_MAX),
 * finite coefficients and values. */
static lsv_status check_model_expansion(const lsv_model *m, const char *name,
					lsv_error *err)
{
	if (m->sv->n > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG, "%s: cannot write the model: "
				"%zu expansion points (at most %d)", name, m->sv->n,
				INT_MAX);
	if (!all_finite(m->coef, m->sv->n * (size_t)m->nr_fn))
		return REFUSE("an expansion coefficient is not finite (did "
			      "training diverge?)", name);
	if (!all_finite(m->sv->val, m->sv->nnz))
		return REFUSE("an expansion point has a value that is not finite",
			      name);
	return LSV_OK;
}

/* The graph's description and a combination's graphs: one-line texts
 * that read back unchanged, weights only in a combination and convex. */
static lsv_status check_model_graphs(const lsv_model *m, const char *name,
				     lsv_error *err)
{
	if (m->graph != NULL && !graph_text_ok(m->graph))
		return REFUSE("the graph description holds a line break or '#', "
			      "or starts or ends with a blank, so it would not "
			      "read back", name);
	if ((m->param.solver == LSV_SOLVER_COMBINE) != (m->ngraphs > 0))
		return REFUSE("%s", name, m->ngraphs > 0
			      ? "graph weights in a model that is not a "
				"combination"
			      : "a combination with no graph weights");
	if (m->ngraphs > 0) {
		const char *why_w = bad_weights(m->graph_weight, m->ngraphs);
		size_t q;
		if (why_w != NULL)
			return REFUSE("%s", name, why_w);
		for (q = 0; m->graph_desc != NULL && q < m->ngraphs; q++)
			if (m->graph_desc[q] != NULL &&
			    (!graph_text_ok(m->graph_desc[q]) ||
			     m->graph_desc[q][0] == '\0'))
				return REFUSE("the description of graph %zu is "
					      "empty, holds a line break or '#', or "
					      "starts or ends with a blank", name,
					      q + 1);
	}
	return LSV_OK;
}

/* The label-aware terms: in a labelaware model only, and consistent with
 * its classes and expansion points (bad_la). */
static lsv_status check_model_labelaware(const lsv_model *m, const char *name,
					 lsv_error *err)
{
	if ((m->param.solver == LSV_SOLVER_LABELAWARE) !=
	    (m->la_rows != NULL && m->la_coef != NULL))
		return REFUSE("%s", name, m->la_rows != NULL || m->la_coef != NULL
			      ? "label-aware terms in a model that is not "
				"labelaware"
			      : "a labelaware model without its label-aware "
				"terms");
	if (m->la_rows != NULL) {
		const char *why_la = bad_la(m, m->sv->n);
		if (why_la != NULL)
			return REFUSE("%s", name, why_la);
	}
	return LSV_OK;
}

/* Boosting: trees only in a tree-boosted model, expansion points only in
 * an RBF-boosted one (at most one per training row), and no more trees
 * than the rounds made, each one tree (bad_tree). */
static lsv_status check_model_boost(const lsv_model *m, const char *name,
				    lsv_error *err)
{
	if (!is_boost(m) && m->ntrees > 0)
		return REFUSE("trees in a model that is not boosted", name);
	if (is_boost(m) && !boost_rbf(m) && m->sv->n > 0)
		return REFUSE("expansion points in a tree-boosted model", name);
	if (boost_rbf(m) && m->ntrees > 0)
		return REFUSE("trees in an RBF-boosted model", name);
	if (boost_rbf(m) && m->sv->n > m->l + m->u)
		return REFUSE("%zu RBF centres, more than the l + u training "
			      "rows", name, m->sv->n);
	if (is_boost(m)) {
		size_t t;
		int at;
		if (m->ntrees > boost_max_trees(m))
			return REFUSE("%zu trees, more than boost_rounds x nr_fn",
				      name, m->ntrees);
		for (t = 0; t < m->ntrees; t++) {
			const char *why_t = bad_tree(&m->trees[t], m->nr_fn, &at);
			if (why_t != NULL)
				return REFUSE("tree %zu, node %d: %s", name, t + 1,
					      at, why_t);
		}
	}
	return LSV_OK;
}

#undef REFUSE

/* The checks above in order: later ones rely on earlier ones (the arrays
 * present, the counts agreeing). */
static lsv_status check_model(const lsv_model *m, const char *name,
			      lsv_error *err)
{
	lsv_status st;

	if ((st = check_model_param(m, name, err)) != LSV_OK ||
	    (st = check_model_classes(m, name, err)) != LSV_OK ||
	    (st = check_model_values(m, name, err)) != LSV_OK ||
	    (st = check_model_expansion(m, name, err)) != LSV_OK ||
	    (st = check_model_graphs(m, name, err)) != LSV_OK ||
	    (st = check_model_labelaware(m, name, err)) != LSV_OK ||
	    (st = check_model_boost(m, name, err)) != LSV_OK)
		return st;
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* The header keys                                                     */
/* ------------------------------------------------------------------ */

/*
 * One row per header key, in the order the writer writes them (the file
 * format: the bytes of a model file are this order and these formats).
 * A key is written when its `when` says so, or always if that is NULL; a
 * key always written is required by the reader (which takes the keys in
 * any order), the others are optional.  Most rows only name a member of
 * lsv_model and its kind, which says how it is written and read:
 *
 *   KEY_NAME      an enumeration (an int) by its lsv_*_names table: its
 *                 name; refused unless it is one of them, which the
 *                 message lists
 *   KEY_INT       int, %d           read as an integer in [min, max]
 *                                   (min 0 unless given)
 *   KEY_LONG      long, %ld         ditto
 *   KEY_SIZE      size_t, %zu       ditto
 *   KEY_ULLONG    unsigned long long, %llu, ditto
 *   KEY_DOUBLE    double, %.17g     any finite number
 *   KEY_POSITIVE  double, %.17g     a finite number > 0
 *   KEY_NONNEG    double, %.17g     a finite number >= 0
 *   KEY_TEXT      char *, as it is  the rest of the line, blanks inside kept
 *   KEY_OWN       no member of its own: read and write do it all
 *
 * A row's read or write, when not NULL, replaces the kind's (and may call
 * read_value for it, then check more).
 */
typedef enum {
	KEY_NAME, KEY_INT, KEY_LONG, KEY_SIZE, KEY_ULLONG, KEY_DOUBLE,
	KEY_POSITIVE, KEY_NONNEG, KEY_TEXT, KEY_OWN
} key_kind;

typedef struct reader reader;
typedef struct key key;

struct key {
	const char *name;
	int (*when)(const lsv_model *m);   /* written only if true; NULL:
					      always, and required */
	key_kind kind;
	size_t off;                        /* the member, offsetof(lsv_model) */
	const lsv_name *names;             /* KEY_NAME: its names */
	long min, max;                     /* integers: the range read */
	lsv_status (*read)(reader *r, const key *k, char *s);  /* NULL: */
	void (*write)(FILE *fp, const key *k, const lsv_model *m);  /* kind's */
	int repeat;                        /* may occur on several lines */
	const char *where;                 /* a method's key: the models it
					      belongs to, named when found in
					      another (see foreign_key) */
};

/* KEY_NAME members are enumerations stored as int. */
typedef char enum_is_int[sizeof(lsv_solver) == sizeof(int) &&
			 sizeof(lsv_method) == sizeof(int) &&
			 sizeof(lsv_kernel_type) == sizeof(int) ? 1 : -1];

static int has_graph(const lsv_model *m) { return m->graph != NULL; }
static int not_direct(const lsv_model *m)
{
	return m->param.method != LSV_METHOD_DIRECT;
}
static int has_landmarks(const lsv_model *m) { return m->param.landmarks > 0; }
static int is_combine(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_COMBINE;
}
/* the seed of the landmarks, or of the combination's random order */
static int has_seed(const lsv_model *m)
{
	return has_landmarks(m) ||
	       (is_combine(m) && m->param.method == LSV_METHOD_RANDOM) ||
	       boost_rbf(m) || boost_unsup(m);
}
static int has_graphs(const lsv_model *m) { return m->ngraphs > 0; }
static int is_tsvm(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_TSVM;
}
static int has_shift(const lsv_model *m) { return m->shift != NULL; }
static int is_labelaware(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_LABELAWARE;
}
static int is_kdesign(const lsv_model *m)
{
	return m->param.solver == LSV_SOLVER_KDESIGN;
}
static int is_diffusion(const lsv_model *m)
{
	return is_kdesign(m) && m->param.kdesign == LSV_KDESIGN_DIFFUSION;
}
static int is_la_laplacian(const lsv_model *m)
{
	return is_labelaware(m) && m->param.la_basis != LSV_LA_KERNEL;
}
/* The models whose eigenvectors are a normalized Laplacian's. */
static int is_laplacian_spectrum(const lsv_model *m)
{
	return is_la_laplacian(m) ||
	       (is_kdesign(m) && (m->param.kdesign == LSV_KDESIGN_DIFFUSION ||
				  m->param.kdesign == LSV_KDESIGN_SPECTRAL));
}
static int has_class_weight(const lsv_model *m)
{
	return m->class_weight != NULL;
}

static lsv_status read_marker(reader *r, const key *k, char *s);
static lsv_status read_tsvm_r(reader *r, const key *k, char *s);
static lsv_status read_labels(reader *r, const key *k, char *s);
static lsv_status read_bias(reader *r, const key *k, char *s);
static lsv_status read_nr_sv(reader *r, const key *k, char *s);
static lsv_status read_shift(reader *r, const key *k, char *s);
static lsv_status read_centroids(reader *r, const key *k, char *s);
static lsv_status read_class_weight(reader *r, const key *k, char *s);
static lsv_status read_combined(reader *r, const key *k, char *s);
static lsv_status read_la_rows(reader *r, const key *k, char *s);
static lsv_status read_la_coef(reader *r, const key *k, char *s);
static void write_la_rows(FILE *fp, const key *k, const lsv_model *m);
static void write_la_coef(FILE *fp, const key *k, const lsv_model *m);
static lsv_status read_tree(reader *r, const key *k, char *s);
static void write_trees(FILE *fp, const key *k, const lsv_model *m);
static int has_trees(const lsv_model *m) { return m->ntrees > 0; }
static void write_combined(FILE *fp, const key *k, const lsv_model *m);
static void write_flag(FILE *fp, const key *k, const lsv_model *m);
static void write_labels(FILE *fp, const key *k, const lsv_model *m);
static void write_bias(FILE *fp, const key *k, const lsv_model *m);
static void write_nr_sv(FILE *fp, const key *k, const lsv_model *m);
static void write_shift(FILE *fp, const key *k, const lsv_model *m);
static void write_centroids(FILE *fp, const key *k, const lsv_model *m);
static void write_class_weight(FILE *fp, const key *k, const lsv_model *m);

#define M(member) offsetof(lsv_model, member)
#define P(member) offsetof(lsv_model, param.member)

static const key keys[] = {
	{"solver", .kind = KEY_NAME, .off = P(solver), .names = lsv_solver_names},
	{"kernel", .kind = KEY_NAME, .off = P(kernel.type),
	 .names = lsv_kernel_names},
	/* Its range depends on the kernel: lsv_kernel_check, at SV. */
	{"degree", .kind = KEY_INT, .off = P(kernel.degree), .min = INT_MIN,
	 .max = INT_MAX},
	{"gamma", .kind = KEY_DOUBLE, .off = P(kernel.gamma)},
	{"coef0", .kind = KEY_DOUBLE, .off = P(kernel.coef0)},
	{"gamma_A", .kind = KEY_POSITIVE, .off = P(gamma_A)},
	{"gamma_I", .kind = KEY_NONNEG, .off = P(gamma_I)},
	/* A flag: any value but 0 is written as normalized (1). */
	{"laplacian", .kind = KEY_NAME, .off = P(normalized),
	 .names = lsv_laplacian_names, .write = write_flag},
	{"laplacian_power", .kind = KEY_INT, .off = P(power), .min = 1,
	 .max = INT_MAX},
	{"eps", .kind = KEY_POSITIVE, .off = P(eps)},
	{"max_iter", .kind = KEY_LONG, .off = P(max_iter), .max = LONG_MAX},
	{"l", .kind = KEY_SIZE, .off = M(l), .max = LONG_MAX},
	{"u", .kind = KEY_SIZE, .off = M(u), .max = LONG_MAX},
	{"unlabeled_marker", .kind = KEY_DOUBLE, .off = M(unlabeled),
	 .read = read_marker},
	{"graph", .when = has_graph, .kind = KEY_TEXT, .off = M(graph)},
	{"method", .when = not_direct, .kind = KEY_NAME, .off = P(method),
	 .names = lsv_method_names},
	{"landmarks", .when = has_landmarks, .kind = KEY_LONG,
	 .off = P(landmarks), .min = 1, .max = LONG_MAX},
	{"seed", .when = has_seed, .kind = KEY_ULLONG, .off = P(seed),
	 .max = LONG_MAX},
	/* tsvm_cstar >= 0 as in lsv_train_param (0: C), so the 0 of a TSVM
	 * model read without this key is written and read back. */
	{"tsvm_cstar", .when = is_tsvm, .kind = KEY_NONNEG, .off = P(tsvm_cstar),
	 .where = "a TSVM model (solver tsvm)"},
	{"tsvm_r", .when = is_tsvm, .kind = KEY_NONNEG, .off = P(tsvm_r),
	 .read = read_tsvm_r,
	 .where = "a TSVM model (solver tsvm)"},
	{"tsvm_max_switches", .when = is_tsvm, .kind = KEY_LONG,
	 .off = P(tsvm_max_switches), .max = LONG_MAX,
	 .where = "a TSVM model (solver tsvm)"},
	/* The combination (-s combine): its model for new points (the
	 * extension's solver), mu, the step cap, the eigenpairs (0: exact
	 * pseudo-inverses), and one "combined_graph WEIGHT [DESCRIPTION]"
	 * line per graph, in the order given, the weights summing to 1. */
	{"combine_extension", .when = is_combine, .kind = KEY_NAME,
	 .off = P(combine_ext), .names = lsv_solver_names,
	 .where = "a combination's model (solver combine)"},
	{"combine_mu", .when = is_combine, .kind = KEY_POSITIVE,
	 .off = P(combine_mu),
	 .where = "a combination's model (solver combine)"},
	{"combine_steps", .when = is_combine, .kind = KEY_LONG,
	 .off = P(combine_steps), .max = LONG_MAX,
	 .where = "a combination's model (solver combine)"},
	{"combine_rank", .when = is_combine, .kind = KEY_LONG,
	 .off = P(combine_rank), .max = LONG_MAX,
	 .where = "a combination's model (solver combine)"},
	{"combined_graph", .when = has_graphs, .kind = KEY_OWN,
	 .read = read_combined, .write = write_combined, .repeat = 1},
	/* Boosting (-s boost, common/boost.c): the settings it trained with
	 * (prediction uses only the trees and bias). */
	{"boost_rounds", .when = is_boost, .kind = KEY_LONG,
	 .off = P(boost_rounds), .min = 1, .max = LSV_BOOST_MAX_ROUNDS,
	 .where = "a boosted model (solver boost)"},
	{"boost_depth", .when = is_boost, .kind = KEY_INT, .off = P(boost_depth),
	 .min = 1, .max = LSV_BOOST_MAX_DEPTH,
	 .where = "a boosted model (solver boost)"},
	{"boost_shrinkage", .when = is_boost, .kind = KEY_POSITIVE,
	 .off = P(boost_shrinkage),
	 .where = "a boosted model (solver boost)"},
	{"boost_tol", .when = is_boost, .kind = KEY_NONNEG, .off = P(boost_tol),
	 .where = "a boosted model (solver boost)"},
	/* The base learner (absent in models written before it: tree); RBF
	 * models hold their centres as expansion points, the kernel rbf with
	 * their width as its gamma, and boost_rbfs, R per round (a record).
	 * boost_clusters: the number of clusters of an unsupervised model. */
	{"boost_learner", .when = is_boost, .kind = KEY_NAME,
	 .off = P(boost_learner), .names = lsv_boost_learner_names,
	 .where = "a boosted model (solver boost)"},
	{"boost_rbfs", .when = boost_rbf, .kind = KEY_INT, .off = P(boost_rbfs),
	 .min = 1, .max = LSV_BOOST_MAX_RBFS,
	 .where = "an RBF-boosted model (solver boost, boost_learner rbf)"},
	{"boost_clusters", .when = boost_unsup, .kind = KEY_INT,
	 .off = P(boost_clusters), .min = 2, .max = INT_MAX,
	 .where = "a boosted model (solver boost)"},
	{"nr_class", .kind = KEY_INT, .off = M(nr_class), .min = 2,
	 .max = INT_MAX},
	{"labels", .kind = KEY_OWN, .read = read_labels, .write = write_labels},
	/* Class-dependent Laplacians (lapsvm-train -y): each class was
	 * regularized on its own graph with gamma_I times its weight, one
	 * value per class in the order of labels (common/classes.c).  A
	 * record of how the model was trained; prediction does not use it. */
	{"intrinsic_weights", .when = has_class_weight, .kind = KEY_OWN,
	 .read = read_class_weight, .write = write_class_weight},
	{"nr_fn", .kind = KEY_INT, .off = M(nr_fn), .min = 1, .max = INT_MAX},
	{"bias", .kind = KEY_OWN, .read = read_bias, .write = write_bias},
	/* The shifts for class proportions (lapsvm-train -p), one per
	 * function, already included in bias: a record, not used to predict
	 * (so a model without the key, older or not balanced, is the same). */
	{"balance_shift", .when = has_shift, .kind = KEY_OWN, .read = read_shift,
	 .write = write_shift},
	/* Cluster models of c > 2 clusters: whether a point's embedded row
	 * is scaled to unit length (unit; absent in models written before
	 * the key: raw), then the c x (c - 1) centres of the embedding, row
	 * by row; a point joins the nearest. */
	{"cluster_rows", .when = has_centroids, .kind = KEY_NAME,
	 .off = P(cluster_unit), .names = lsv_cluster_rows_names,
	 .write = write_flag,
	 .where = "a cluster model of more than two clusters"},
	{"centroids", .when = has_centroids, .kind = KEY_OWN,
	 .read = read_centroids, .write = write_centroids},
	/* Label-aware base kernels (-s labelaware, common/labelaware.c): the
	 * number k of kernel eigenvectors (a record), then the ratio term of
	 * f: the first labelaware_rows[i] expansion points after those of
	 * the classes before are class i's labeled rows (one count per
	 * class, each >= 2, in the order of labels), and labelaware_u holds
	 * A_ci, nr_fn rows of nr_class values: f_c(x) += sum_i A_ci S_i(x) /
	 * sum_i S_i(x), S_i(x) the kernel summed over class i's points. */
	{"labelaware_k", .when = is_labelaware, .kind = KEY_LONG,
	 .off = P(la_k), .min = 1, .max = LONG_MAX,
	 .where = "a labelaware model (solver labelaware)"},
	{"labelaware_rows", .when = is_labelaware, .kind = KEY_OWN,
	 .read = read_la_rows, .write = write_la_rows,
	 .where = "a labelaware model (solver labelaware)"},
	{"labelaware_u", .when = is_labelaware, .kind = KEY_OWN,
	 .read = read_la_coef, .write = write_la_coef,
	 .where = "a labelaware model (solver labelaware)"},
	/* -s labelaware -J laplacian: the v_j were the graph Laplacian's
	 * bottom eigenvectors, so the model is transductive: its expansion
	 * points are the labeled rows, class by class, with the SVM's alpha
	 * on K~ as coefficients (a record; lsv_model_decision refuses it).
	 * Absent: kernel (the folded out-of-sample form above). */
	{"labelaware_eigen", .when = is_la_laplacian, .kind = KEY_NAME,
	 .off = P(la_basis), .names = lsv_la_basis_names},
	/* The kernel designs (-s kdesign, common/kdesign.c): the design, its
	 * k eigenvectors, the diffusion kernel's delta.  Transductive: the
	 * expansion points are the labeled rows with the SVM's alpha on the
	 * learned kernel (a record; lsv_model_decision refuses the model). */
	{"kdesign", .when = is_kdesign, .kind = KEY_NAME, .off = P(kdesign),
	 .names = lsv_kdesign_names},
	{"kdesign_k", .when = is_kdesign, .kind = KEY_LONG, .off = P(la_k),
	 .min = 1, .max = LONG_MAX,
	 .where = "a kdesign model (solver kdesign)"},
	{"kdesign_delta", .when = is_diffusion, .kind = KEY_POSITIVE,
	 .off = P(kd_delta)},
	/* kdesign diffusion and spectral, labelaware -J laplacian: the W of
	 * their normalized Laplacian, kernel (W = K) or graph (the model's
	 * graph key names it); a record.  Absent (models written before the
	 * key): kernel. */
	{"laplacian_weights", .when = is_laplacian_spectrum, .kind = KEY_NAME,
	 .off = P(lap_graph), .names = lsv_lap_graph_names},
	/* A boosted model's trees, one line each, in the order they were
	 * added: "boost_tree FN NODES" then NODES nodes of five numbers,
	 * "FEATURE THRESHOLD LEFT RIGHT VALUE": a split on the 1-based
	 * FEATURE (x <= THRESHOLD to node LEFT, else RIGHT; nodes numbered
	 * 0.. within the line, children after their parent) with VALUE 0, or
	 * a leaf "0 0 0 0 VALUE".  f_FN(x) adds the VALUE of x's leaf. */
	{"boost_tree", .when = has_trees, .kind = KEY_OWN, .read = read_tree,
	 .write = write_trees, .repeat = 1},
	{"nr_sv", .kind = KEY_OWN, .max = INT_MAX, .read = read_nr_sv,
	 .write = write_nr_sv},
};

#undef M
#undef P
#define NKEYS (sizeof keys / sizeof *keys)

/* A key that some models do not have is optional to the reader. */
static int required(const key *k)
{
	return k->when == NULL;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* "key value\n" by the key's kind. */
static void write_value(FILE *fp, const key *k, const lsv_model *m)
{
	const char *at = (const char *)m + k->off;

	switch (k->kind) {
	case KEY_NAME:
		fprintf(fp, "%s %s\n", k->name,
			lsv_name_of(k->names, *(const int *)at));
		break;
	case KEY_INT:
		fprintf(fp, "%s %d\n", k->name, *(const int *)at);
		break;
	case KEY_LONG:
		fprintf(fp, "%s %ld\n", k->name, *(const long *)at);
		break;
	case KEY_SIZE:
		fprintf(fp, "%s %zu\n", k->name, *(const size_t *)at);
		break;
	case KEY_ULLONG:
		fprintf(fp, "%s %llu\n", k->name, *(const unsigned long long *)at);
		break;
	case KEY_DOUBLE:
	case KEY_POSITIVE:
	case KEY_NONNEG:
		fprintf(fp, "%s %.17g\n", k->name, *(const double *)at);
		break;
	case KEY_TEXT:
		fprintf(fp, "%s %s\n", k->name, *(char *const *)at);
		break;
	case KEY_OWN:  /* its own write */
		break;
	}
}

/* A flag named by its table: any nonzero value is the name of 1. */
static void write_flag(FILE *fp, const key *k, const lsv_model *m)
{
	int v = *(const int *)((const char *)m + k->off) != 0;
	fprintf(fp, "%s %s\n", k->name, lsv_name_of(k->names, v));
}

static void write_list(FILE *fp, const char *key, const double *v, size_t n)
{
	size_t i;

	fputs(key, fp);
	for (i = 0; i < n; i++)
		fprintf(fp, " %.17g", v[i]);
	putc('\n', fp);
}

static void write_labels(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->labels, (size_t)m->nr_class);
}

static void write_bias(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->bias, (size_t)m->nr_fn);
}

static void write_shift(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->shift, (size_t)m->nr_fn);
}

static void write_centroids(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->centroids,
		   (size_t)m->nr_class * (size_t)m->nr_fn);
}

static void write_class_weight(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->class_weight, (size_t)m->nr_class);
}

static void write_combined(FILE *fp, const key *k, const lsv_model *m)
{
	size_t q;

	for (q = 0; q < m->ngraphs; q++) {
		const char *d = m->graph_desc != NULL ? m->graph_desc[q] : NULL;
		fprintf(fp, "%s %.17g%s%s\n", k->name, m->graph_weight[q],
			d != NULL ? " " : "", d != NULL ? d : "");
	}
}

static void write_la_rows(FILE *fp, const key *k, const lsv_model *m)
{
	int c;

	fputs(k->name, fp);
	for (c = 0; c < m->nr_class; c++)
		fprintf(fp, " %zu", m->la_rows[c]);
	putc('\n', fp);
}

static void write_la_coef(FILE *fp, const key *k, const lsv_model *m)
{
	write_list(fp, k->name, m->la_coef,
		   (size_t)m->nr_fn * (size_t)m->nr_class);
}

static void write_trees(FILE *fp, const key *k, const lsv_model *m)
{
	size_t t;
	int v;

	for (t = 0; t < m->ntrees; t++) {
		const lsv_tree *tr = &m->trees[t];
		fprintf(fp, "%s %d %d", k->name, tr->fn + 1, tr->nnodes);
		for (v = 0; v < tr->nnodes; v++) {
			const lsv_tree_node *nd = &tr->node[v];
			fprintf(fp, " %d %.17g %d %d %.17g", nd->feature + 1,
				nd->threshold, nd->left, nd->right, nd->value);
		}
		putc('\n', fp);
	}
}

static void write_nr_sv(FILE *fp, const key *k, const lsv_model *m)
{
	fprintf(fp, "%s %zu\n", k->name, m->sv->n);
}

lsv_status lsv_model_write(FILE *fp, const char *name, const lsv_model *m,
			   lsv_error *err)
{
	const lsv_data *sv = m->sv;
	const key *k;
	size_t i, q, nf;
	lsv_status st;
	int c;

	if ((st = check_model(m, name, err)) != LSV_OK)
		return st;
	nf = (size_t)m->nr_fn;
	fprintf(fp, "lapsvm_model 1\n");
	for (k = keys; k < keys + NKEYS; k++)
		if (k->when == NULL || k->when(m))
			(k->write != NULL ? k->write : write_value)(fp, k, m);
	fprintf(fp, "SV\n");
	for (i = 0; i < sv->n && !ferror(fp); i++) {
		for (c = 0; c < m->nr_fn; c++)
			fprintf(fp, c ? " %.17g" : "%.17g", m->coef[i * nf + (size_t)c]);
		for (q = sv->rowptr[i]; q < sv->rowptr[i + 1]; q++)
			fprintf(fp, " %d:%.17g", sv->col[q] + 1, sv->val[q]);
		putc('\n', fp);
	}
	if (ferror(fp))
		return lsv_fail(err, LSV_EIO, "%s: write error: %s", name,
				strerror(errno));
	return LSV_OK;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* State of one read. */
struct reader {
	const char *name;
	size_t line;
	lsv_error *err;
	size_t seen[NKEYS];     /* line of each key (row of keys[]), 0 if
				   not yet seen */
	lsv_model *m;
	long nr_sv;
	size_t cap_labels, cap_bias, cap_shift, cap_cent, cap_cw, cap_graphs,
	       cap_descs;
	size_t nlabels, nbias, nshift, ncent, ncw;
	size_t cap_la_rows, cap_la_coef, nla_rows, nla_coef;
	size_t cap_rows, cap_coef;
	lsv_values_cap cap_nnz;  /* the support vectors' values */
	size_t cap_trees;
};

/* The row of keys[] named key, or NKEYS. */
static size_t key_row(const char *key)
{
	size_t k;

	for (k = 0; k < NKEYS && strcmp(key, keys[k].name) != 0; k++)
		;
	return k;
}

/* The line of the header key named key (0 if not seen). */
static size_t line_of(const reader *r, const char *key)
{
	size_t k = key_row(key);
	return k < NKEYS ? r->seen[k] : 0;
}

/* The first required key not seen, or NULL. */
static const char *missing_key(const reader *r)
{
	size_t k;

	for (k = 0; k < NKEYS; k++)
		if (required(&keys[k]) && !r->seen[k])
			return keys[k].name;
	return NULL;
}

static lsv_status bad(reader *r, const char *what, const char *tok,
		      const char *want)
{
	return lsv_bad_token(r->err, r->name, r->line, what, tok, want);
}

static lsv_status nomem(reader *r)
{
	return lsv_fail(r->err, LSV_ENOMEM, "%s:%zu: out of memory", r->name,
			r->line);
}

/* The one value of a "key value" line; nothing may follow it. */
static lsv_status one_value(reader *r, const char *key, char *s, char **tok,
			    const char *want)
{
	char *extra;

	*tok = lsv_token(&s);
	if (*tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing value for %s (expected %s)", r->name,
				r->line, key, want);
	extra = lsv_token(&s);
	if (extra != NULL) {
		char what[64];
		snprintf(what, sizeof what, "extra text after the %s value", key);
		return bad(r, what, extra, "end of line");
	}
	return LSV_OK;
}

/* A finite double; positive: > 0 required; nonneg: >= 0 required. */
static lsv_status key_double(reader *r, const char *key, char *s, double *out,
			     int positive, int nonneg)
{
	const char *want = positive ? "a number > 0"
				    : nonneg ? "a number >= 0" : "a finite number";
	char what[64], *tok;
	lsv_error why;
	lsv_status st;
	double v;

	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	snprintf(what, sizeof what, "bad %s", key);
	if (lsv_parse_double(tok, &v, &why) != LSV_OK)
		return bad(r, what, tok, positive || nonneg ? want : lsv_want_number(&why));
	if ((positive && !(v > 0.0)) || (nonneg && !(v >= 0.0)))
		return bad(r, what, tok, want);
	*out = v;
	return LSV_OK;
}

/* An integer in [min, max]. */
static lsv_status key_long(reader *r, const char *key, char *s, long min,
			   long max, long *out)
{
	char what[64], want[96], *tok;
	lsv_error why;
	lsv_status st;

	snprintf(want, sizeof want, "an integer in %ld..%ld", min, max);
	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	snprintf(what, sizeof what, "bad %s", key);
	if (lsv_parse_long(tok, min, max, out, &why) != LSV_OK)
		return bad(r, what, tok, want);
	return LSV_OK;
}

/* One of the names of table t: its value. */
static lsv_status key_name(reader *r, const char *key, char *s,
			   const lsv_name *t, int *out)
{
	char what[64], want[128], *tok;
	lsv_status st;
	int v;

	lsv_name_list(t, want, sizeof want);
	if ((st = one_value(r, key, s, &tok, want)) != LSV_OK)
		return st;
	if ((v = lsv_name_value(t, tok)) != -1) {
		*out = v;
		return LSV_OK;
	}
	snprintf(what, sizeof what, "unknown %s", key);
	return bad(r, what, tok, want);
}

/* Free text to the end of the line (blanks inside kept) into *out. */
static lsv_status key_text(reader *r, char *s, char **out)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	/* A lone CR inside (the line reader strips only a final one) would
	 * not be written back: the writer refuses it. */
	if (strchr(s, '\r') != NULL)
		return bad(r, "carriage return in the graph description", s,
			   "one line of text");
	len = strlen(s);
	*out = malloc(len + 1);
	if (*out == NULL)
		return nomem(r);
	memcpy(*out, s, len + 1);
	return LSV_OK;
}

/* "key v v v ...": at least one finite number, grown into *v. */
static lsv_status key_list(reader *r, const char *key, char *s, double **v,
			   size_t *n, size_t *cap)
{
	char what[64], *tok;
	lsv_error why;
	double x;

	snprintf(what, sizeof what, "bad value in %s", key);
	while ((tok = lsv_token(&s)) != NULL) {
		if (lsv_parse_double(tok, &x, &why) != LSV_OK)
			return bad(r, what, tok, lsv_want_number(&why));
		if (lsv_grow((void **)v, cap, *n + 1, sizeof **v))
			return nomem(r);
		(*v)[(*n)++] = x;
	}
	if (*n == 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing values for %s (expected at least "
				"one number)", r->name, r->line, key);
	return LSV_OK;
}

/* The value of a header line by the key's kind, into its member. */
static lsv_status read_value(reader *r, const key *k, char *s)
{
	char *at = (char *)r->m + k->off;
	lsv_status st = LSV_OK;
	long v = 0;

	switch (k->kind) {
	case KEY_NAME:
		return key_name(r, k->name, s, k->names, (int *)at);
	case KEY_INT:
	case KEY_LONG:
	case KEY_SIZE:
	case KEY_ULLONG:
		if ((st = key_long(r, k->name, s, k->min, k->max, &v)) != LSV_OK)
			return st;
		if (k->kind == KEY_INT)
			*(int *)at = (int)v;
		else if (k->kind == KEY_LONG)
			*(long *)at = v;
		else if (k->kind == KEY_SIZE)
			*(size_t *)at = (size_t)v;
		else
			*(unsigned long long *)at = (unsigned long long)v;
		return LSV_OK;
	case KEY_DOUBLE:
	case KEY_POSITIVE:
	case KEY_NONNEG:
		return key_double(r, k->name, s, (double *)at,
				  k->kind == KEY_POSITIVE, k->kind == KEY_NONNEG);
	case KEY_TEXT:
		return key_text(r, s, (char **)at);
	case KEY_OWN:  /* its own read */
		break;
	}
	return st;
}

static lsv_status read_marker(reader *r, const key *k, char *s)
{
	lsv_status st = read_value(r, k, s);
	if (st == LSV_OK && r->m->unlabeled == 0.0)
		r->m->unlabeled = 0.0;  /* -0 is the marker 0, as in data */
	return st;
}

static lsv_status read_tsvm_r(reader *r, const key *k, char *s)
{
	lsv_status st = read_value(r, k, s);
	double v = r->m->param.tsvm_r;

	if (st == LSV_OK && !(v < 1.0))
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: tsvm_r %.17g out of range (expected "
				"0 <= r < 1, 0 for the labeled ratio)", r->name,
				r->line, v);
	return st;
}

static lsv_status read_labels(reader *r, const key *k, char *s)
{
	lsv_model *m = r->m;
	lsv_status st;
	double dup;
	size_t i;

	st = key_list(r, k->name, s, &m->labels, &r->nlabels, &r->cap_labels);
	if (st != LSV_OK)
		return st;
	for (i = 0; i < r->nlabels; i++)
		if (m->labels[i] == 0.0)
			m->labels[i] = 0.0;  /* a label -0 is 0, as in data */
	switch (find_duplicate(m->labels, r->nlabels, &dup)) {
	case 1:
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: label %.17g appears twice (expected "
				"distinct labels, one per class)", r->name, r->line,
				dup);
	case -1:
		return nomem(r);
	}
	return LSV_OK;
}

static lsv_status read_bias(reader *r, const key *k, char *s)
{
	return key_list(r, k->name, s, &r->m->bias, &r->nbias, &r->cap_bias);
}

static lsv_status read_shift(reader *r, const key *k, char *s)
{
	return key_list(r, k->name, s, &r->m->shift, &r->nshift, &r->cap_shift);
}

static lsv_status read_centroids(reader *r, const key *k, char *s)
{
	return key_list(r, k->name, s, &r->m->centroids, &r->ncent,
			&r->cap_cent);
}

/* Weights > 0, one per class (counted at SV); they say the model was
 * trained with class-dependent Laplacians. */
static lsv_status read_class_weight(reader *r, const key *k, char *s)
{
	lsv_status st = key_list(r, k->name, s, &r->m->class_weight, &r->ncw,
				 &r->cap_cw);
	size_t i;

	for (i = 0; st == LSV_OK && i < r->ncw; i++)
		if (!(r->m->class_weight[i] > 0.0))
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: bad value in %s (found %.17g, "
					"expected a number > 0)", r->name, r->line,
					k->name, r->m->class_weight[i]);
	r->m->param.class_graph = st == LSV_OK;
	return st;
}

/* One "combined_graph WEIGHT [DESCRIPTION]" line: a weight >= 0, then the
 * rest of the line (blanks inside kept) as the graph's description. */
static lsv_status read_combined(reader *r, const key *k, char *s)
{
	lsv_model *m = r->m;
	char *tok = lsv_token(&s), *desc = NULL;
	lsv_error why;
	lsv_status st;
	double w;
	size_t q = m->ngraphs;

	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing weight for %s (expected a number "
				">= 0, then the graph's description)", r->name,
				r->line, k->name);
	if (lsv_parse_double(tok, &w, &why) != LSV_OK || !(w >= 0.0))
		return bad(r, "bad graph weight", tok, "a number >= 0");
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0' && (st = key_text(r, s, &desc)) != LSV_OK)
		return st;
	if (lsv_grow((void **)&m->graph_weight, &r->cap_graphs, q + 1,
		     sizeof *m->graph_weight) ||
	    lsv_grow((void **)&m->graph_desc, &r->cap_descs, q + 1,
		     sizeof *m->graph_desc)) {
		free(desc);
		return nomem(r);
	}
	m->graph_weight[q] = w;
	m->graph_desc[q] = desc;
	m->ngraphs = q + 1;
	return LSV_OK;
}

/* labelaware_rows: counts, each an integer >= 2 (how many is checked
 * against nr_class at SV), grown as they come. */
static lsv_status read_la_rows(reader *r, const key *k, char *s)
{
	char *tok;
	lsv_error why;
	long v;

	while ((tok = lsv_token(&s)) != NULL) {
		if (lsv_parse_long(tok, 2, LONG_MAX, &v, &why) != LSV_OK)
			return bad(r, "bad count in labelaware_rows", tok,
				   "an integer >= 2: each class's labeled rows");
		if (lsv_grow((void **)&r->m->la_rows, &r->cap_la_rows,
			     r->nla_rows + 1, sizeof *r->m->la_rows))
			return nomem(r);
		r->m->la_rows[r->nla_rows++] = (size_t)v;
	}
	if (r->nla_rows == 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing values for %s (expected one count "
				"per class)", r->name, r->line, k->name);
	return LSV_OK;
}

static lsv_status read_la_coef(reader *r, const key *k, char *s)
{
	return key_list(r, k->name, s, &r->m->la_coef, &r->nla_coef,
			&r->cap_la_coef);
}

/* The count, checked against the SV lines that follow. */
static lsv_status read_nr_sv(reader *r, const key *k, char *s)
{
	return key_long(r, k->name, s, k->min, k->max, &r->nr_sv);
}

/* One header line: key (already cut off), then s, its value(s). */
/* The tokens left in s (blank-separated), without changing it. */
static size_t count_tokens(const char *s)
{
	size_t n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		n++;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return n;
}

/* "boost_tree FN NODES" and NODES x 5 numbers: the count is checked
 * against the tokens the line holds before anything is allocated; the
 * tree's shape by bad_tree (its function against nr_fn at SV). */
static lsv_status read_tree(reader *r, const key *k, char *s)
{
	lsv_model *m = r->m;
	lsv_tree tr;
	char *tok, what[96];
	long fn, nn, v;
	lsv_error why;
	lsv_status st = LSV_OK;
	const char *why_t;
	int at;
	size_t have;

	(void)k;
	tok = lsv_token(&s);
	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: missing function "
				"number for boost_tree (expected FN NODES, then "
				"five numbers per node)", r->name, r->line);
	if (lsv_parse_long(tok, 1, INT_MAX, &fn, &why) != LSV_OK)
		return bad(r, "bad boost_tree function", tok, "an integer >= 1");
	tok = lsv_token(&s);
	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: missing node count "
				"for boost_tree (expected FN NODES, then five "
				"numbers per node)", r->name, r->line);
	snprintf(what, sizeof what, "an integer in 1..%d", LSV_BOOST_MAX_NODES);
	if (lsv_parse_long(tok, 1, LSV_BOOST_MAX_NODES, &nn, &why) != LSV_OK)
		return bad(r, "bad boost_tree node count", tok, what);
	have = count_tokens(s);
	if (have != 5 * (size_t)nn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: boost_tree with %ld nodes holds %zu numbers "
				"after its count (expected 5 per node: %ld)", r->name,
				r->line, nn, have, 5 * nn);
	tr.fn = (int)fn - 1;
	tr.nnodes = (int)nn;
	if ((tr.node = malloc((size_t)nn * sizeof *tr.node)) == NULL)
		return nomem(r);
	for (v = 0; v < nn && st == LSV_OK; v++) {
		lsv_tree_node *nd = &tr.node[v];
		long f, lc, rc;
		char *t1 = lsv_token(&s), *t2 = lsv_token(&s), *t3 = lsv_token(&s),
		     *t4 = lsv_token(&s), *t5 = lsv_token(&s);
		if (lsv_parse_long(t1, 0, LSV_MAX_FEATURE, &f, &why) != LSV_OK)
			st = bad(r, "bad boost_tree feature", t1,
				 "an integer >= 0 (0: a leaf)");
		else if (lsv_parse_double(t2, &nd->threshold, &why) != LSV_OK)
			st = bad(r, "bad boost_tree threshold", t2,
				 lsv_want_number(&why));
		else if (lsv_parse_long(t3, 0, LSV_BOOST_MAX_NODES, &lc, &why) !=
			 LSV_OK)
			st = bad(r, "bad boost_tree child", t3, "a node number");
		else if (lsv_parse_long(t4, 0, LSV_BOOST_MAX_NODES, &rc, &why) !=
			 LSV_OK)
			st = bad(r, "bad boost_tree child", t4, "a node number");
		else if (lsv_parse_double(t5, &nd->value, &why) != LSV_OK)
			st = bad(r, "bad boost_tree value", t5,
				 lsv_want_number(&why));
		else {
			nd->feature = (int)f - 1;
			nd->left = (int)lc;
			nd->right = (int)rc;
		}
	}
	/* the function is checked at SV, against nr_fn */
	if (st == LSV_OK && (why_t = bad_tree(&tr, INT_MAX, &at)) != NULL)
		st = lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: boost_tree node %d: "
			      "%s", r->name, r->line, at, why_t);
	if (st == LSV_OK &&
	    lsv_grow((void **)&m->trees, &r->cap_trees, m->ntrees + 1,
		     sizeof *m->trees))
		st = nomem(r);
	if (st != LSV_OK) {
		free(tr.node);
		return st;
	}
	m->trees[m->ntrees++] = tr;
	return LSV_OK;
}

static lsv_status parse_header(reader *r, const char *key, char *s)
{
	size_t k = key_row(key);

	if (k == NKEYS)
		return bad(r, "unknown key", key,
			   "a header key such as 'kernel' or 'nr_sv', or 'SV'");
	if (r->seen[k] && !keys[k].repeat)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: repeated key '%s' (first on line %zu, "
				"expected each key once)", r->name, r->line, key,
				r->seen[k]);
	if (!r->seen[k])
		r->seen[k] = r->line;
	return (keys[k].read != NULL ? keys[k].read : read_value)(r, &keys[k], s);
}

/*
 * A method's key in another method's model (combine_mu in a boosted
 * model, boost_rbfs with trees): the writer never puts it there, so the
 * file was edited or mixed up; refused, as a missing key is, rather than
 * read and dropped.  The first such key in the table's order, or NKEYS.
 */
static size_t foreign_key(const reader *r)
{
	size_t k;

	for (k = 0; k < NKEYS; k++)
		if (keys[k].where != NULL && r->seen[k] && !keys[k].when(r->m))
			return k;
	return NKEYS;
}

/*
 * At "SV", the header as a whole (each line was checked as it came): the
 * checks below run in the order written and the first refusal is the
 * one reported, so a file always gets the same message; later ones rely
 * on earlier ones (the labels counted before they are compared, nr_fn
 * checked before the lists of nr_fn values).
 */

/* The classes and their functions: as many labels as nr_class, clusters
 * labeled 1..c, the nr_fn the classes make, one bias per function. */
static lsv_status check_header_classes(reader *r)
{
	lsv_model *m = r->m;
	int c, want_fn;

	if (r->nlabels != (size_t)m->nr_class)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of labels (found %zu, expected "
				"nr_class = %d)", r->name, line_of(r, "labels"),
				r->nlabels, m->nr_class);
	if ((c = misnumbered_cluster(m)) >= 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: cluster %d is labeled %.17g (expected the "
				"clusters labeled 1..%d in order)", r->name,
				line_of(r, "labels"), c + 1, m->labels[c],
				m->nr_class);
	want_fn = fns_of(m);
	if (m->nr_fn != want_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: bad nr_fn (found %d, expected %d for %d "
				"%s)", r->name, line_of(r, "nr_fn"), m->nr_fn,
				want_fn, m->nr_class,
				m->param.solver == LSV_SOLVER_CLUSTER
				? "clusters: one function for two clusters, else "
				  "one fewer than the clusters"
				: "classes: one function for two classes, else one "
				  "per class");
	if (r->nbias != (size_t)m->nr_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of bias values (found %zu, "
				"expected nr_fn = %d)", r->name, line_of(r, "bias"),
				r->nbias, m->nr_fn);
	return LSV_OK;
}

/* The optional lists of values per class or per function: centroids in
 * exactly the cluster models that need them, and each list as long as
 * nr_class or nr_fn makes it (the reader grew them as they came). */
static lsv_status check_header_lists(reader *r)
{
	lsv_model *m = r->m;

	if (has_centroids(m) != (m->centroids != NULL))
		return m->centroids != NULL
			? lsv_fail(r->err, LSV_EFORMAT,
				   "%s:%zu: centroids in a model that is not a "
				   "cluster model of more than two clusters",
				   r->name, line_of(r, "centroids"))
			: lsv_fail(r->err, LSV_EFORMAT,
				   "%s:%zu: missing key 'centroids' (a cluster "
				   "model of %d clusters needs them)", r->name,
				   r->line, m->nr_class);
	if (m->centroids != NULL &&
	    r->ncent != (size_t)m->nr_class * (size_t)m->nr_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of centroid values (found "
				"%zu, expected nr_class x nr_fn = %zu)", r->name,
				line_of(r, "centroids"), r->ncent,
				(size_t)m->nr_class * (size_t)m->nr_fn);
	if (m->class_weight != NULL && r->ncw != (size_t)m->nr_class)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of intrinsic_weights (found "
				"%zu, expected nr_class = %d)", r->name,
				line_of(r, "intrinsic_weights"), r->ncw, m->nr_class);
	if (m->shift != NULL && r->nshift != (size_t)m->nr_fn)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: wrong number of balance_shift values (found "
				"%zu, expected nr_fn = %d)", r->name,
				line_of(r, "balance_shift"), r->nshift, m->nr_fn);
	return LSV_OK;
}

/* The unlabeled marker is no class's label: a row with the marker is
 * unlabeled, so the value cannot name a class as well. */
static lsv_status check_header_marker(reader *r)
{
	lsv_model *m = r->m;
	int c;

	for (c = 0; c < m->nr_class; c++)
		if (m->labels[c] == m->unlabeled)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: unlabeled_marker %.17g is also a class "
					"label (expected a value that no class uses)",
					r->name, line_of(r, "unlabeled_marker"),
					m->unlabeled);
	return LSV_OK;
}

/* A combination of graphs: its keys present, its extension one that
 * combines, and combined_graph lines in it alone, their weights convex. */
static lsv_status check_header_combine(reader *r)
{
	lsv_model *m = r->m;

	if (m->param.solver == LSV_SOLVER_COMBINE) {
		static const char *const need[] = {"combine_extension",
						   "combine_mu"};
		size_t j;
		for (j = 0; j < sizeof need / sizeof *need; j++)
			if (line_of(r, need[j]) == 0)
				return lsv_fail(r->err, LSV_EFORMAT,
						"%s:%zu: missing key '%s' (expected it "
						"in a combination's model)", r->name,
						r->line, need[j]);
		if (m->param.combine_ext != LSV_SOLVER_LAPRLS &&
		    m->param.combine_ext != LSV_SOLVER_LAPSVM)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: bad combine_extension (found '%s', "
					"expected laprls or lapsvm)", r->name,
					line_of(r, "combine_extension"),
					lsv_solver_name(m->param.combine_ext));
	}
	if (m->param.solver == LSV_SOLVER_COMBINE || m->ngraphs > 0) {
		const char *why_w = m->ngraphs == 0
			? "no combined_graph line (expected one per graph)"
			: m->param.solver != LSV_SOLVER_COMBINE
			? "combined_graph lines in a model that is not a "
			  "combination (expected solver combine)"
			: bad_weights(m->graph_weight, m->ngraphs);
		if (why_w != NULL)
			return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: %s", r->name,
					m->ngraphs > 0 ? line_of(r, "combined_graph")
						       : line_of(r, "solver"),
					why_w);
	}
	return LSV_OK;
}

/* The label-aware terms: a labelaware model has all its keys, one row
 * count per class and nr_fn x nr_class coefficients, its labeled rows
 * among the expansion points and the training rows; no other model has
 * the terms. */
static lsv_status check_header_labelaware(reader *r)
{
	lsv_model *m = r->m;

	if (m->param.solver == LSV_SOLVER_LABELAWARE) {
		static const char *const need[] = {"labelaware_k",
						   "labelaware_rows",
						   "labelaware_u"};
		size_t j, sum = 0;
		for (j = 0; j < sizeof need / sizeof *need; j++)
			if (line_of(r, need[j]) == 0)
				return lsv_fail(r->err, LSV_EFORMAT,
						"%s:%zu: missing key '%s' (expected it "
						"in a labelaware model)", r->name,
						r->line, need[j]);
		if (r->nla_rows != (size_t)m->nr_class)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: wrong number of labelaware_rows "
					"(found %zu, expected nr_class = %d)", r->name,
					line_of(r, "labelaware_rows"), r->nla_rows,
					m->nr_class);
		if (r->nla_coef != (size_t)m->nr_fn * (size_t)m->nr_class)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: wrong number of labelaware_u values "
					"(found %zu, expected nr_fn x nr_class = %zu)",
					r->name, line_of(r, "labelaware_u"),
					r->nla_coef,
					(size_t)m->nr_fn * (size_t)m->nr_class);
		for (j = 0; j < r->nla_rows; j++) {
			if (m->la_rows[j] > (size_t)r->nr_sv - sum)
				return lsv_fail(r->err, LSV_EFORMAT,
						"%s:%zu: labelaware_rows sum to more "
						"than nr_sv = %ld (expected the labeled "
						"rows among the expansion points)",
						r->name, line_of(r, "labelaware_rows"),
						r->nr_sv);
			sum += m->la_rows[j];
		}
		if (sum > m->l)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: labelaware_rows sum to %zu, more than "
					"the l = %zu labeled training rows", r->name,
					line_of(r, "labelaware_rows"), sum, m->l);
	} else if (r->nla_rows > 0 || r->nla_coef > 0) {
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: label-aware terms in a model that is not "
				"labelaware (expected solver labelaware)", r->name,
				r->nla_rows > 0 ? line_of(r, "labelaware_rows")
						: line_of(r, "labelaware_u"));
	}
	return LSV_OK;
}

/* Lines and keys that one kind of model has: boost_tree lines in a
 * boosted model only; the kdesign keys all in a kdesign model (delta in a
 * diffusion one) and in no other; the eigenvector keys only where there
 * are a Laplacian's eigenvectors or label-aware ones. */
static lsv_status check_header_method_keys(reader *r)
{
	lsv_model *m = r->m;

	if (m->ntrees > 0 && !is_boost(m))
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: boost_tree lines in a model that is not "
				"boosted (expected solver boost)", r->name,
				line_of(r, "boost_tree"));
	if (is_kdesign(m)) {
		size_t j;
		static const char *const need[] = {"kdesign", "kdesign_k",
						   "kdesign_delta"};
		for (j = 0; j < (is_diffusion(m) ? 3u : 2u); j++)
			if (line_of(r, need[j]) == 0)
				return lsv_fail(r->err, LSV_EFORMAT,
						"%s:%zu: missing key '%s' (expected it "
						"in a kdesign%s model)", r->name, r->line,
						need[j], j == 2 ? " diffusion" : "");
	}
	if (!is_kdesign(m) && (line_of(r, "kdesign") || line_of(r, "kdesign_k")))
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: kdesign keys in a "
				"model that is not one (expected solver kdesign)",
				r->name, line_of(r, "kdesign") ? line_of(r, "kdesign")
				: line_of(r, "kdesign_k"));
	if (!is_diffusion(m) && line_of(r, "kdesign_delta"))
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: kdesign_delta in a "
				"model that is not a diffusion kernel (expected "
				"kdesign diffusion)", r->name,
				line_of(r, "kdesign_delta"));
	if (!is_laplacian_spectrum(m) && line_of(r, "laplacian_weights"))
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: laplacian_weights in "
				"a model whose eigenvectors are not a Laplacian's "
				"(expected kdesign diffusion or spectral, or "
				"labelaware_eigen laplacian)", r->name,
				line_of(r, "laplacian_weights"));
	if (!is_labelaware(m) && line_of(r, "labelaware_eigen"))
		return lsv_fail(r->err, LSV_EFORMAT, "%s:%zu: labelaware_eigen in "
				"a model that is not labelaware", r->name,
				line_of(r, "labelaware_eigen"));
	return LSV_OK;
}

/* A boosted model: its keys present, nu in range, and what its learner
 * makes: trees and no expansion points, or RBF centres (training rows, on
 * the rbf kernel whose gamma is their width) and no trees. */
static lsv_status check_header_boost(reader *r)
{
	lsv_model *m = r->m;
	static const char *const need[] = {"boost_rounds", "boost_depth",
					   "boost_shrinkage", "boost_tol"};
	size_t j;

	if (!is_boost(m))
		return LSV_OK;
	for (j = 0; j < sizeof need / sizeof *need; j++)
		if (line_of(r, need[j]) == 0)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: missing key '%s' (expected it "
					"in a boosted model)", r->name, r->line,
					need[j]);
	/* what lsv_model_write would refuse (bad_param): an RBF
	 * model without its R per round */
	if (boost_rbf(m) && line_of(r, "boost_rbfs") == 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing key 'boost_rbfs' (expected it "
				"in an RBF-boosted model)", r->name, r->line);
	if (!(m->param.boost_shrinkage <= 1.0))
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: boost_shrinkage %.17g out of range "
				"(expected 0 < nu <= 1)", r->name,
				line_of(r, "boost_shrinkage"),
				m->param.boost_shrinkage);
	if (!boost_rbf(m) && r->nr_sv != 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: nr_sv %ld in a tree-boosted model "
				"(expected 0: its functions are trees)",
				r->name, line_of(r, "nr_sv"), r->nr_sv);
	if (boost_rbf(m) && m->ntrees > 0)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: boost_tree lines in an RBF-boosted "
				"model (expected boost_learner tree)", r->name,
				line_of(r, "boost_tree"));
	if (boost_rbf(m) && m->param.kernel.type != LSV_KERNEL_RBF)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: kernel %s in an RBF-boosted model "
				"(expected rbf: its gamma is the RBFs' width)",
				r->name, line_of(r, "kernel"),
				lsv_kernel_name(m->param.kernel.type));
	if (boost_rbf(m) && (size_t)r->nr_sv > m->l + m->u)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: nr_sv %ld RBF centres, more than the "
				"l + u = %zu training rows they are", r->name,
				line_of(r, "nr_sv"), r->nr_sv, m->l + m->u);
	return LSV_OK;
}

/* A boosted model's trees: no more than its rounds made, each adding to
 * one of its functions (read_tree checked each tree's shape, but nr_fn
 * may come after the tree). */
static lsv_status check_header_boost_trees(reader *r)
{
	lsv_model *m = r->m;
	size_t t;

	if (!is_boost(m))
		return LSV_OK;
	if (m->ntrees > boost_max_trees(m))
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: %zu boost_tree lines, more than "
				"boost_rounds x nr_fn = %zu", r->name,
				line_of(r, "boost_tree"), m->ntrees,
				boost_max_trees(m));
	for (t = 0; t < m->ntrees; t++)
		if (m->trees[t].fn >= m->nr_fn)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: boost_tree %zu adds to "
					"function %d (expected 1..nr_fn = "
					"%d)", r->name,
					line_of(r, "boost_tree"), t + 1,
					m->trees[t].fn + 1, m->nr_fn);
	return LSV_OK;
}

/* A Nystrom model's expansion points are its landmarks, sampled from
 * the l + u training rows: a count beyond either is corrupt. */
static lsv_status check_header_landmarks(reader *r)
{
	lsv_model *m = r->m;

	if (m->param.landmarks > 0 &&
	    (size_t)m->param.landmarks > m->l + m->u)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: landmarks %ld is more than the l + u = %zu "
				"training rows they were sampled from (expected "
				"1..%zu)", r->name, line_of(r, "landmarks"),
				m->param.landmarks, m->l + m->u, m->l + m->u);
	/* a labelaware model on landmarks (-N) also keeps its labeled rows,
	 * for the ratio term: at most landmarks + l */
	if (m->param.landmarks > 0 && is_labelaware(m) &&
	    (size_t)r->nr_sv > (size_t)m->param.landmarks + m->l)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: nr_sv %ld is more than the model's %ld "
				"landmarks and l = %zu labeled rows (expected the "
				"labeled rows, then the landmarks)", r->name,
				line_of(r, "nr_sv"), r->nr_sv, m->param.landmarks,
				m->l);
	if (m->param.landmarks > 0 && !is_labelaware(m) &&
	    r->nr_sv > m->param.landmarks)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: nr_sv %ld is more than the model's %ld "
				"landmarks (expected 0..%ld: the expansion points "
				"of a Nystrom model are its landmarks)", r->name,
				line_of(r, "nr_sv"), r->nr_sv, m->param.landmarks,
				m->param.landmarks);
	return LSV_OK;
}

/* No key of another method's model (foreign_key): the writer never puts
 * one there, so the file was edited or mixed up. */
static lsv_status check_header_foreign(reader *r)
{
	size_t k;

	if ((k = foreign_key(r)) < NKEYS)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: key '%s' in a %s model (expected it only "
				"in %s)", r->name, r->seen[k], keys[k].name,
				lsv_solver_name(r->m->param.solver), keys[k].where);
	return LSV_OK;
}

/* The kernel's parameters together (lsv_kernel_check), which no single
 * line can check: the refusal names the line of the value at fault. */
static lsv_status check_header_kernel(reader *r)
{
	lsv_error why;

	if (lsv_kernel_check(&r->m->param.kernel, &why) != LSV_OK) {
		/* The kernel's name was checked on its line; what is left is
		 * the polynomial degree or gamma. */
		const lsv_kernel *kk = &r->m->param.kernel;
		size_t at = kk->type == LSV_KERNEL_POLY &&
					    (kk->degree < 1 || kk->degree > 100)
				    ? line_of(r, "degree") : line_of(r, "gamma");
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: bad kernel parameter: %s", r->name, at,
				why.msg);
	}
	return LSV_OK;
}

/* At "SV": every required key given, and the counts agree (the checks
 * above, in this order). */
static lsv_status check_header(reader *r)
{
	const char *missing = missing_key(r);
	lsv_status st;

	if (missing != NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing key '%s' (expected every "
				"header key before SV)", r->name, r->line, missing);
	if ((st = check_header_classes(r)) != LSV_OK ||
	    (st = check_header_lists(r)) != LSV_OK ||
	    (st = check_header_marker(r)) != LSV_OK ||
	    (st = check_header_combine(r)) != LSV_OK ||
	    (st = check_header_labelaware(r)) != LSV_OK ||
	    (st = check_header_method_keys(r)) != LSV_OK ||
	    (st = check_header_boost(r)) != LSV_OK ||
	    (st = check_header_boost_trees(r)) != LSV_OK ||
	    (st = check_header_landmarks(r)) != LSV_OK ||
	    (st = check_header_foreign(r)) != LSV_OK ||
	    (st = check_header_kernel(r)) != LSV_OK)
		return st;
	return LSV_OK;
}

/* One expansion point: nr_fn coefficients, then index:value pairs. */
static lsv_status parse_sv(reader *r, char *s)
{
	lsv_model *m = r->m;
	lsv_data *x = m->sv;
	size_t nf = (size_t)m->nr_fn, c, svno = x->n + 1;
	char what[96], want[64], *tok;
	lsv_error why;
	lsv_status st;
	double v;

	if (lsv_grow((void **)&x->rowptr, &r->cap_rows, x->n + 2,
		     sizeof *x->rowptr) ||
	    lsv_grow((void **)&m->coef, &r->cap_coef, (x->n + 1) * nf,
		     sizeof *m->coef))
		return nomem(r);
	x->rowptr[x->n] = x->nnz;
	if (*s == '\0')
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: empty line (expected SV %zu of %ld: %zu "
				"coefficient%s, then index:value ...)", r->name,
				r->line, svno, r->nr_sv, nf, nf == 1 ? "" : "s");
	snprintf(want, sizeof want, "%zu coefficient%s before index:value", nf,
		 nf == 1 ? "" : "s");
	for (c = 0; c < nf; c++) {
		tok = lsv_token(&s);
		if (tok == NULL)
			return lsv_fail(r->err, LSV_EFORMAT,
					"%s:%zu: missing coefficient %zu of SV %zu "
					"(found end of line, expected %s)", r->name,
					r->line, c + 1, svno, want);
		snprintf(what, sizeof what, "%s coefficient %zu of SV %zu",
			 strchr(tok, ':') ? "missing" : "bad", c + 1, svno);
		if (strchr(tok, ':') != NULL)
			return bad(r, what, tok, want);
		if (lsv_parse_double(tok, &v, &why) != LSV_OK)
			return bad(r, what, tok, lsv_want_number(&why));
		m->coef[x->n * nf + c] = v;
	}
	if (m->param.kernel.type == LSV_KERNEL_PRECOMPUTED) {
		/* LIBSVM's: the point's training serial number, 0:s */
		size_t n = m->l + m->u;
		long sn;
		tok = lsv_token(&s);
		snprintf(what, sizeof what, "bad serial number of SV %zu", svno);
		snprintf(want, sizeof want, "0:s, s in 1..%zu (l + u), alone",
			 n);
		if (tok == NULL || strncmp(tok, "0:", 2) != 0 ||
		    lsv_parse_long(tok + 2, 1, n > LONG_MAX ? LONG_MAX : (long)n,
				   &sn, &why) != LSV_OK || lsv_token(&s) != NULL)
			return bad(r, what, tok ? tok : "", want);
		if (lsv_values_grow(x, &r->cap_nnz, x->nnz + 1))
			return nomem(r);
		x->col[x->nnz] = LSV_SERIAL_COL;
		x->val[x->nnz++] = (double)sn;
		x->n++;
		return LSV_OK;
	}
	/* The features, with the data reader's rules and messages. */
	if ((st = lsv_parse_features(s, x, &r->cap_nnz, NULL, r->name,
				     r->line, r->err)) != LSV_OK)
		return st;
	x->n++;
	return LSV_OK;
}

/* Line 1: exactly "lapsvm_model 1"; say what else it looks like. */
static lsv_status parse_magic(reader *r, char *s)
{
	char shown[LSV_SHOW + 4], *tok, *ver, *extra;
	double num;
	size_t len = strlen(s);

	snprintf(shown, sizeof shown, "%.*s%s", LSV_SHOW, s,
		 len > LSV_SHOW ? "..." : "");
	tok = lsv_token(&s);
	if (tok == NULL || strcmp(tok, "lapsvm_model") != 0) {
		const char *looks = "";
		if (tok != NULL && lsv_parse_double(tok, &num, NULL) == LSV_OK)
			looks = "; this looks like a data or graph file";
		else if (tok != NULL && strcmp(tok, "svm_type") == 0)
			looks = "; this looks like a LIBSVM model";
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: not a lapsvm model file (found '%s', "
				"expected 'lapsvm_model 1'%s)", r->name, r->line,
				shown, looks);
	}
	ver = lsv_token(&s);
	if (ver == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: missing model version (found '%s', "
				"expected 'lapsvm_model 1')", r->name, r->line, shown);
	if (strcmp(ver, "1") != 0)
		return bad(r, "unsupported model version", ver, "1");
	extra = lsv_token(&s);
	if (extra != NULL)
		return bad(r, "extra text after the model version", extra,
			   "end of line");
	return LSV_OK;
}

/* Where a read is: the magic line next, the header, the SV lines. */
typedef enum { AT_MAGIC, AT_HEADER, AT_SV } read_part;

/* A header line: 'key value', or 'SV' alone, which ends the header (the
 * header's keys are then checked together) and moves *part on. */
static lsv_status header_line(reader *r, char *s, read_part *part)
{
	char *tok = lsv_token(&s);

	if (tok == NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: empty line (expected 'key value' or "
				"'SV')", r->name, r->line);
	if (strcmp(tok, "SV") != 0)
		return parse_header(r, tok, s);
	*part = AT_SV;
	if ((tok = lsv_token(&s)) != NULL)
		return bad(r, "extra text after SV", tok, "end of line");
	return check_header(r);
}

/* One line of the file, by where the read is. */
static lsv_status model_line(reader *r, char *s, read_part *part)
{
	if (*part == AT_MAGIC) {
		*part = AT_HEADER;
		return parse_magic(r, s);
	}
	if (*part == AT_HEADER)
		return header_line(r, s, part);
	if (r->m->sv->n < (size_t)r->nr_sv)
		return parse_sv(r, s);
	return lsv_fail(r->err, LSV_EFORMAT,
			"%s:%zu: %s after the last SV line (found '%.*s%s', "
			"expected end of file after nr_sv = %ld lines)",
			r->name, r->line, *s ? "text" : "empty line", LSV_SHOW,
			s, strlen(s) > LSV_SHOW ? "..." : "", r->nr_sv);
}

/* The end of the file (its last line, line) where the model is not
 * complete: before the magic line, in the header, or short of nr_sv SV
 * lines. */
static lsv_status check_complete(const reader *r, read_part part,
				 size_t line)
{
	const char *missing;

	if (part == AT_MAGIC)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s: empty file (expected 'lapsvm_model 1')",
				r->name);
	if (part == AT_HEADER && (missing = missing_key(r)) != NULL)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: end of file in the header: key '%s' "
				"is missing (expected every header key, then "
				"SV)", r->name, line, missing);
	if (part == AT_HEADER)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: end of file before the SV section "
				"(expected a line 'SV')", r->name, line);
	if (r->m->sv->n < (size_t)r->nr_sv)
		return lsv_fail(r->err, LSV_EFORMAT,
				"%s:%zu: end of file after %zu SV lines "
				"(expected nr_sv = %ld)", r->name, line,
				r->m->sv->n, r->nr_sv);
	return LSV_OK;
}

/* The expansion points as a data set: unlabeled, y = 0, with the row
 * pointer even when there is no point. */
static lsv_status sv_as_data(const reader *r)
{
	lsv_data *x = r->m->sv;

	if (x->rowptr == NULL &&
	    (x->rowptr = malloc(sizeof *x->rowptr)) == NULL)
		return lsv_fail(r->err, LSV_ENOMEM, "%s: out of memory",
				r->name);
	if ((x->y = calloc(x->n ? x->n : 1, sizeof *x->y)) == NULL)
		return lsv_fail(r->err, LSV_ENOMEM, "%s: out of memory",
				r->name);
	x->rowptr[x->n] = x->nnz;
	x->l = 0;
	x->unlabeled = r->m->unlabeled;
	return LSV_OK;
}

lsv_status lsv_model_read(FILE *fp, const char *name, lsv_model **out,
			  lsv_error *err)
{
	lsv_lines in = {fp, name, NULL, 0, 0, 0, 0};
	reader r;
	lsv_model *m;
	char *s;
	int got;
	read_part part = AT_MAGIC;
	lsv_status st = LSV_OK;

	*out = NULL;
	memset(&r, 0, sizeof r);
	r.name = name;
	r.err = err;
	m = r.m = calloc(1, sizeof *m);
	if (m == NULL || (m->sv = calloc(1, sizeof *m->sv)) == NULL) {
		free(m);
		return lsv_fail(err, LSV_ENOMEM, "%s: out of memory", name);
	}
	while ((got = lsv_lines_next(&in, &s, err)) == 1) {
		r.line = in.line;
		if ((st = model_line(&r, s, &part)) != LSV_OK)
			break;
	}
	if (got == -1)
		st = err ? err->status : LSV_EFORMAT;
	lsv_lines_done(&in);
	if (st == LSV_OK)
		st = check_complete(&r, part, in.line);
	if (st == LSV_OK)
		st = sv_as_data(&r);
	if (st != LSV_OK) {
		lsv_model_free(m);
		return st;
	}
	*out = m;
	return LSV_OK;
}

lsv_status lsv_model_read_path(const char *path, lsv_model **out,
			       lsv_error *err)
{
	FILE *fp;
	lsv_status st;

	*out = NULL;
	if (strcmp(path, "-") == 0)
		return lsv_model_read(stdin, "(stdin)", out, err);
	fp = fopen(path, "r");
	if (fp == NULL)
		return lsv_fail_open(err, path);
	st = lsv_model_read(fp, path, out, err);
	fclose(fp);
	return st;
}

/* ------------------------------------------------------------------ */
/* Prediction                                                          */
/* ------------------------------------------------------------------ */

/* A labelaware model's ratio term (common/labelaware.c) for cnt points
 * whose kernel values against the nsv expansion points are K's columns:
 * S[j nr_fn + c] += sum_i A_ci S_i / sum_i S_i, S_i the sum over class
 * i's block of labeled points; nothing where sum_i S_i is not > 0 (u =
 * 0 there, as in training). */
static void la_term(const lsv_model *m, const double *K, size_t nsv,
		    size_t cnt, double *S)
{
	size_t j, s, nf = (size_t)m->nr_fn, nc = (size_t)m->nr_class;
	int c;

	for (j = 0; j < cnt; j++) {
		const double *kj = K + j * nsv;
		double tot = 0.0;
		size_t at = 0, i;
		for (i = 0; i < nc; i++)
			at += m->la_rows[i];
		for (s = 0; s < at; s++)
			tot += kj[s];
		if (!(tot > 0.0) || !isfinite(tot))
			continue;
		at = 0;
		for (i = 0; i < nc; i++) {
			double si = 0.0;
			for (s = 0; s < m->la_rows[i]; s++)
				si += kj[at + s];
			at += m->la_rows[i];
			for (c = 0; c < m->nr_fn; c++)
				S[j * nf + (size_t)c] +=
					m->la_coef[(size_t)c * nc + i] * si / tot;
		}
	}
}

/* The features a boosted model's trees split on, for spreading a sparse
 * row: feat, the F distinct features in increasing order; slot, for every
 * node (tree t's nodes from first[t] on, in the trees' order) the place of
 * its split feature in feat; val, the current row's values of those F
 * features.  All of it is the size of the model, whatever the feature
 * numbers: a hashed feature space may number them in the billions, and a
 * dense row over them would be as large.  One allocation, buf. */
typedef struct {
	int *feat;
	size_t F, *slot, *first;
	double *val;
	void *buf;
} tree_index;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The place of feature f in the sorted feat[0..F), or F when absent. */
static size_t feat_find(const int *feat, size_t F, int f)
{
	size_t lo = 0, hi = F;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (feat[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < F && feat[lo] == f ? lo : F;
}

static lsv_status tree_index_make(const lsv_model *m, tree_index *ix,
				  lsv_error *err)
{
	size_t t, nodes = 0, at = 0, F = 0, k;
	int v;

	for (t = 0; t < m->ntrees; t++)
		nodes += (size_t)m->trees[t].nnodes;
	/* nodes <= ntrees * LSV_BOOST_MAX_NODES, each tree read from the file */
	ix->buf = malloc(nodes * (sizeof(int) + sizeof(size_t) + sizeof(double)) +
			 (m->ntrees + 1) * sizeof(size_t));
	if (ix->buf == NULL)
		return lsv_fail(err, LSV_ENOMEM, "out of memory for %zu tree nodes",
				nodes);
	ix->slot = ix->buf;
	ix->first = ix->slot + nodes;
	ix->val = (double *)(ix->first + m->ntrees + 1);
	ix->feat = (int *)(ix->val + nodes);
	for (t = 0; t < m->ntrees; t++)
		for (v = 0; v < m->trees[t].nnodes; v++)
			if (m->trees[t].node[v].feature >= 0)
				ix->feat[F++] = m->trees[t].node[v].feature;
	qsort(ix->feat, F, sizeof *ix->feat, cmp_int);
	for (k = 0; k < F; k++)  /* distinct */
		if (at == 0 || ix->feat[k] != ix->feat[at - 1])
			ix->feat[at++] = ix->feat[k];
	ix->F = F = at;
	at = 0;
	for (t = 0; t < m->ntrees; t++) {
		ix->first[t] = at;
		for (v = 0; v < m->trees[t].nnodes; v++, at++)
			ix->slot[at] = m->trees[t].node[v].feature >= 0
				? feat_find(ix->feat, F, m->trees[t].node[v].feature)
				: 0;
	}
	for (k = 0; k < F; k++)
		ix->val[k] = 0.0;
	return LSV_OK;
}

/* Row i's values of the split features into ix->val (put 1) or back to 0
 * (put 0). */
static void tree_index_row(tree_index *ix, const lsv_data *x, size_t i, int put)
{
	size_t q, k;
	for (q = x->rowptr[i]; q < x->rowptr[i + 1]; q++)
		if ((k = feat_find(ix->feat, ix->F, x->col[q])) < ix->F)
			ix->val[k] = put ? x->val[q] : 0.0;
}

/* A boosted model: f_c(x) = bias[c] + the leaf values of x in the trees
 * of function c; a feature the row lacks is 0. */
static lsv_status tree_decision(const lsv_model *m, const lsv_data *x,
				double *scores, lsv_error *err)
{
	size_t nf = (size_t)m->nr_fn, i, t, q;
	tree_index ix;
	lsv_status st;

	if ((st = tree_index_make(m, &ix, err)) != LSV_OK)
		return st;
	for (i = 0; i < x->n; i++) {
		double *S = scores + i * nf;
		for (q = 0; q < nf; q++)
			S[q] = m->bias[q];
		tree_index_row(&ix, x, i, 1);
		for (t = 0; t < m->ntrees; t++) {
			const lsv_tree *tr = &m->trees[t];
			const size_t *slot = ix.slot + ix.first[t];
			int v = 0;
			/* children follow their parent: at most nnodes steps */
			while (tr->node[v].feature >= 0)
				v = ix.val[slot[v]] <= tr->node[v].threshold
					? tr->node[v].left : tr->node[v].right;
			S[tr->fn] += tr->node[v].value;
		}
		tree_index_row(&ix, x, i, 0);
		for (q = 0; q < nf; q++)
			if (!isfinite(S[q])) {
				free(ix.buf);
				return lsv_fail(err, LSV_ENUMERIC,
						"decision value of row %zu is not "
						"finite: the trees' values overflow a "
						"double", i + 1);
			}
	}
	free(ix.buf);
	return LSV_OK;
}

/* A boosted model of more than two classes: the symmetric multiple
 * logistic's functions, each row's raw sums minus their mean (so they sum
 * to 0), when st is LSV_OK; st itself returned. */
static lsv_status boost_centre(const lsv_model *m, size_t n, double *scores,
			       lsv_status st)
{
	size_t nf = (size_t)m->nr_fn, i, c;

	if (st != LSV_OK || !is_boost(m) || boost_unsup(m) || nf < 2)
		return st;
	for (i = 0; i < n; i++) {
		double *S = scores + i * nf, mean = 0.0;
		for (c = 0; c < nf; c++)
			mean += S[c] / (double)nf;
		for (c = 0; c < nf; c++)
			S[c] -= mean;
	}
	return st;
}

const char *lsv_model_transductive(const lsv_model *m)
{
	if (is_la_laplacian(m))
		return "labelaware -J laplacian (Laplacian eigenvectors)";
	if (!is_kdesign(m))
		return NULL;
	switch (m->param.kdesign) {
	case LSV_KDESIGN_CLUSTER: return "kdesign -J cluster (the cluster kernel)";
	case LSV_KDESIGN_DIFFUSION:
		return "kdesign -J diffusion (the diffusion kernel)";
	case LSV_KDESIGN_MAXALIGN:
		return "kdesign -J maxalign (the maximal-alignment kernel)";
	case LSV_KDESIGN_SPECTRAL:
		return "kdesign -J spectral (Zhu et al.'s spectral graph kernel)";
	}
	return "kdesign";
}

lsv_status lsv_model_decision(const lsv_model *m, const lsv_data *x,
			      double *scores, lsv_error *err)
{
	size_t nsv = m->sv->n, nf = (size_t)m->nr_fn, block, r0, i;
	size_t *idx = NULL;
	double *K = NULL;
	lsv_status st = LSV_OK;
	const double one = 1.0;
	int c;
	const char *td = lsv_model_transductive(m);

	if (td != NULL)
		return lsv_fail(err, LSV_EINVAL, "a model of %s is transductive: "
				"its kernel exists on the training rows only, so it "
				"cannot predict new points; its predictions of the "
				"unlabeled training rows come from lapsvm-train -o at "
				"training time", td);

	if (m->nr_fn < 1)
		return lsv_fail(err, LSV_EINVAL, "model has nr_fn = %d (expected >= 1)",
				m->nr_fn);
	if (x->n == 0)
		return LSV_OK;
	if (m->ntrees > 0 || (is_boost(m) && !boost_rbf(m)))
		return boost_centre(m, x->n, scores,
				    tree_decision(m, x, scores, err));
	if (nsv > INT_MAX)
		return lsv_fail(err, LSV_ETOOBIG,
				"model has %zu expansion points (at most %d)", nsv,
				INT_MAX);
	block = BLOCK;
	if (nsv > 0 && block > MAX_KBLOCK / nsv)
		block = MAX_KBLOCK / nsv ? MAX_KBLOCK / nsv : 1;
	if (block > x->n)
		block = x->n;
	idx = malloc(block * sizeof *idx);
	K = malloc((block * nsv + 1) * sizeof *K);
	if (idx == NULL || K == NULL) {
		st = lsv_fail(err, LSV_ENOMEM,
			      "out of memory for a kernel block of %zu x %zu", block,
			      nsv);
		goto done;
	}
	for (r0 = 0; r0 < x->n; r0 += block) {
		size_t cnt = x->n - r0 < block ? x->n - r0 : block;
		int NF = m->nr_fn, CNT = (int)cnt, NSV = (int)nsv;
		double *S = scores + r0 * nf;

		for (i = 0; i < cnt; i++) {
			idx[i] = r0 + i;
			for (c = 0; c < m->nr_fn; c++)
				S[i * nf + (size_t)c] = m->bias[c];
		}
		if (nsv == 0)
			continue;
		/* K[s + j nsv] = k(sv_s, x_{r0+j}): nsv x cnt, column-major. */
		st = lsv_kernel_matrix_named(&m->param.kernel, m->sv, NULL, nsv, x,
					     idx, cnt, K, "expansion point", "row",
					     err);
		if (st != LSV_OK)
			goto done;
		/* S is cnt x nr_fn row-major, i.e. nr_fn x cnt column-major,
		 * and coef (nsv x nr_fn row-major) is C = nr_fn x nsv
		 * column-major: S += C K, with S already holding the bias. */
		dgemm_("N", "N", &NF, &CNT, &NSV, &one, m->coef, &NF, K, &NSV, &one,
		       S, &NF, 1, 1);
		if (m->la_rows != NULL)
			la_term(m, K, nsv, cnt, S);
		/* Finite coefficients and kernel values can still sum past
		 * the largest double: never hand out an infinite or NaN score. */
		for (i = 0; i < cnt * nf; i++)
			if (!isfinite(S[i])) {
				st = lsv_fail(err, LSV_ENUMERIC,
					      "decision value of row %zu is not finite "
					      "(found %g): the model's coefficients times "
					      "its kernel values overflow a double",
					      r0 + i / nf + 1, S[i]);
				goto done;
			}
	}
done:
	free(idx);
	free(K);
	return boost_centre(m, x->n, scores, st);
}

double lsv_model_label(const lsv_model *m, const double *scores)
{
	int c, best = 0;

	if (m->nr_fn == 1)
		return scores[0] > 0.0 ? m->labels[0] : m->labels[1];
	if (m->centroids != NULL) {
		/* a cluster model: the nearest centroid, the lower on a tie;
		 * the point's row scaled to unit length first, as the training
		 * rows were for k-means (cluster_unit; common/cluster.c) */
		double bd = HUGE_VAL, nz = 0.0;
		int q, j;
		if (m->param.cluster_unit)
			nz = lsv_unit_norm(scores, m->nr_fn);
		for (q = 0; q < m->nr_class; q++) {
			const double *z = m->centroids + (size_t)q * (size_t)m->nr_fn;
			double d = 0.0;
			for (j = 0; j < m->nr_fn; j++) {
				double v = nz > 0.0 ? scores[j] / nz : scores[j];
				d += (v - z[j]) * (v - z[j]);
			}
			if (d < bd) {
				bd = d;
				best = q;
			}
		}
		return m->labels[best];
	}
	/* Largest f_c; a tie goes to the lowest class index (strict >). */
	for (c = 1; c < m->nr_fn; c++)
		if (scores[c] > scores[best])
			best = c;
	return m->labels[best];
}
