/*
 * fuzz_model.c -- lsv_model_read on arbitrary bytes.
 *
 * A refused input must come back as an error naming the input, with
 * nothing returned.  An accepted model must be consistent (classes and
 * functions, distinct finite labels other than the marker, finite biases
 * and coefficients, a valid kernel, well-formed expansion points, a
 * boosted model's trees well formed),
 * lsv_model_write must accept it, the written text must read back and
 * write again to the same text, and lsv_model_decision must score a tiny
 * data set (or refuse kernel values that overflow, LSV_ENUMERIC), each
 * row's predicted label being one of the model's labels.
 */
#include <math.h>

#include "fuzz.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void check_model(const lsv_model *m)
{
	const lsv_data *x = m->sv;
	lsv_error err;
	double *sorted;
	size_t i, p, nf;
	int c;

	FUZZ_CHECK(m->nr_class >= 2);
	FUZZ_CHECK(m->nr_fn == (m->nr_class == 2 ? 1 : m->nr_class));
	FUZZ_CHECK(lsv_solver_name(m->param.solver) != NULL);
	FUZZ_CHECK(lsv_kernel_check(&m->param.kernel, &err) == LSV_OK);
	FUZZ_CHECK(m->labels != NULL && m->bias != NULL && x != NULL);
	FUZZ_CHECK(isfinite(m->unlabeled));
	sorted = malloc((size_t)m->nr_class * sizeof *sorted);
	FUZZ_CHECK(sorted != NULL);
	for (c = 0; c < m->nr_class; c++) {
		FUZZ_CHECK(isfinite(m->labels[c]) && m->labels[c] != m->unlabeled);
		sorted[c] = m->labels[c];
	}
	qsort(sorted, (size_t)m->nr_class, sizeof *sorted, cmp_double);
	for (c = 1; c < m->nr_class; c++)
		FUZZ_CHECK(sorted[c] != sorted[c - 1]);
	free(sorted);
	for (c = 0; c < m->nr_fn; c++)
		FUZZ_CHECK(isfinite(m->bias[c]));
	nf = (size_t)m->nr_fn;
	FUZZ_CHECK(x->rowptr != NULL && x->y != NULL && x->l == 0);
	FUZZ_CHECK(x->rowptr[0] == 0 && x->rowptr[x->n] == x->nnz);
	for (i = 0; i < x->n; i++) {
		FUZZ_CHECK(x->y[i] == 0.0);
		for (c = 0; c < m->nr_fn; c++)
			FUZZ_CHECK(isfinite(m->coef[i * nf + (size_t)c]));
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			FUZZ_CHECK(x->col[p] >= 0 && (size_t)x->col[p] < x->dim);
			FUZZ_CHECK(p == x->rowptr[i] || x->col[p] > x->col[p - 1]);
			FUZZ_CHECK(isfinite(x->val[p]));
		}
	}
	/* a boosted model's trees: each one tree (children after their
	 * parent, one parent each), finite, its function in range */
	FUZZ_CHECK(m->ntrees == 0 || m->param.solver == LSV_SOLVER_BOOST);
	FUZZ_CHECK(m->param.solver != LSV_SOLVER_BOOST || x->n == 0);
	for (i = 0; i < m->ntrees; i++) {
		const lsv_tree *t = &m->trees[i];
		int v;
		FUZZ_CHECK(t->fn >= 0 && t->fn < m->nr_fn);
		FUZZ_CHECK(t->nnodes >= 1 && t->nnodes <= LSV_BOOST_MAX_NODES);
		for (v = 0; v < t->nnodes; v++) {
			const lsv_tree_node *nd = &t->node[v];
			FUZZ_CHECK(isfinite(nd->threshold) && isfinite(nd->value));
			FUZZ_CHECK(nd->feature >= -1);
			if (nd->feature >= 0)
				FUZZ_CHECK(nd->left > v && nd->right > v &&
					   nd->left < t->nnodes &&
					   nd->right < t->nnodes &&
					   nd->left != nd->right);
		}
	}
}

/* The model as text; aborts if lsv_model_write refuses it. */
static char *write_text(const lsv_model *m, size_t *len)
{
	char *text = NULL;
	lsv_error err;
	FILE *fp = fuzz_memstream(&text, len);
	lsv_status st = lsv_model_write(fp, "out", m, &err);

	FUZZ_CHECK(fclose(fp) == 0);
	if (st != LSV_OK)
		fprintf(stderr, "accepted model not written: %s\n", err.msg);
	FUZZ_CHECK(st == LSV_OK);
	return text;
}

/* Three rows: empty, features 1 and 3, features 2 and 7. */
static void check_decision(const lsv_model *m)
{
	static size_t rowptr[] = {0, 0, 2, 4};
	static int col[] = {0, 2, 1, 6};
	static double val[] = {0.5, -1.0, 1.0, 2.0}, y[] = {1, 2, 3};
	lsv_data x = {3, 3, 7, 4, rowptr, col, val, y, 0.0};
	double *scores = malloc(x.n * (size_t)m->nr_fn * sizeof *scores);
	lsv_error err;
	lsv_status st;
	size_t i;
	int c;

	FUZZ_CHECK(scores != NULL);
	st = lsv_model_decision(m, &x, scores, &err);
	/* A transductive model (kdesign, labelaware -J laplacian) is refused
	 * for new points, with a message, and only it. */
	FUZZ_CHECK((lsv_model_transductive(m) != NULL) ==
		   (st == LSV_EINVAL && strstr(err.msg, "transductive") != NULL));
	if (lsv_model_transductive(m) != NULL) {
		free(scores);
		return;
	}
	if (st == LSV_ENUMERIC) {
		/* Kernel values that overflow are refused, not scored. */
		FUZZ_CHECK(err.status == st && err.msg[0] != '\0');
		free(scores);
		return;
	}
	if (st != LSV_OK)
		fprintf(stderr, "decision failed: %s\n", err.msg);
	FUZZ_CHECK(st == LSV_OK);
	for (i = 0; i < x.n; i++) {
		double label = lsv_model_label(m, scores + i * (size_t)m->nr_fn);
		for (c = 0; c < m->nr_class && m->labels[c] != label; c++)
			;
		FUZZ_CHECK(c < m->nr_class);
	}
	free(scores);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lsv_model *m, *m2;
	lsv_error err;
	lsv_status st;
	char *text, *text2;
	size_t len = 0, len2 = 0;
	FILE *fp = fuzz_open(data, size);

	st = lsv_model_read(fp, "fuzz", &m, &err);
	fclose(fp);
	if (st != LSV_OK) {
		fuzz_check_failure(st, m, &err, "fuzz");
		return 0;
	}
	check_model(m);

	text = write_text(m, &len);
	fp = fuzz_open(text, len);
	st = lsv_model_read(fp, "again", &m2, &err);
	fclose(fp);
	if (st != LSV_OK)
		fprintf(stderr, "written model refused: %s\n", err.msg);
	FUZZ_CHECK(st == LSV_OK);
	check_model(m2);
	FUZZ_CHECK(m2->sv->n == m->sv->n && m2->sv->nnz == m->sv->nnz);
	text2 = write_text(m2, &len2);
	FUZZ_CHECK(len == len2 && memcmp(text, text2, len) == 0);

	check_decision(m);

	free(text);
	free(text2);
	lsv_model_free(m2);
	lsv_model_free(m);
	return 0;
}
