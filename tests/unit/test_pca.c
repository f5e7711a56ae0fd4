/* PCA against a hand-computed covariance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "unit.h"

/* The rows of a data file's text, NULL if they do not read. */
static lsv_data *rows_of(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	lsv_data *x = NULL;
	lsv_error e;

	if (fp == NULL)
		return NULL;
	lsv_data_read(fp, "t", 0.0, &x, &e);
	fclose(fp);
	return x;
}

/* (1,2), (-1,-2), (2,4), (-2,-4): mean 0, covariance 1/4 (1 + 1 + 4 + 4)
 * [1 2; 2 4] = 2.5 [1 2; 2 4], whose eigenpairs are 12.5 along
 * (1,2)/sqrt 5 and 0 along (2,-1)/sqrt 5. */
static lsv_data *line_points(void)
{
	return rows_of("1 1:1 2:2\n-1 1:-1 2:-2\n1 1:2 2:4\n-1 1:-2 2:-4\n");
}

static void pca_finds_the_principal_axis(void)
{
	lsv_data *x = line_points(), *y = NULL;
	lsv_pca *p = NULL;
	lsv_error e;

	CHECK(x != NULL && lsv_pca_fit(x, 2, &p, &e) == LSV_OK);
	if (p == NULL)
		return;
	CHECK(fabs(p->variance[0] - 12.5) < 1e-12);
	CHECK(fabs(p->variance[1]) < 1e-12);
	CHECK(fabs(p->total - 12.5) < 1e-12);
	CHECK(fabs(p->V[0] - 1 / sqrt(5.0)) < 1e-12);  /* sign: largest entry > 0 */
	CHECK(fabs(p->V[1] - 2 / sqrt(5.0)) < 1e-12);
	lsv_pca_free(p);
	CHECK(lsv_pca_fit(x, 1, &p, &e) == LSV_OK);
	CHECK(p != NULL && lsv_pca_project(p, x, &y, &e) == LSV_OK);
	if (y != NULL) {
		CHECK(y->n == 4 && y->dim == 1 && y->y[1] == -1);
		CHECK(fabs(y->val[0] - sqrt(5.0)) < 1e-12);
		CHECK(fabs(y->val[2] - 2 * sqrt(5.0)) < 1e-12);
	}
	lsv_data_free(y);
	lsv_pca_free(p);
	lsv_data_free(x);
}

static void pca_refuses_more_components_than_features(void)
{
	lsv_data *x = line_points();
	lsv_pca *p = (lsv_pca *)1;
	lsv_error e;
	CHECK(lsv_pca_fit(x, 3, &p, &e) == LSV_EINVAL && p == NULL);
	CHECK_STR(e.msg, "3 components out of range (expected 1..2, the number of features)");
	lsv_data_free(x);
}

/* Three rows of five features (fewer rows than features: the Gram
 * route), on the line (1,2,0,0,0) t at t = -1, 0, 1 plus (0,0,0,0,1) s at
 * s = 1, -2, 1: mean 0; covariance 1/3 (2 (1,2,0,0,0)'(1,2,0,0,0) +
 * 6 e5 e5'), eigenpairs 10/3 along (1,2,0,0,0)/sqrt 5, 2 along e5 (the
 * two directions are orthogonal), and 0 on the rest. */
static lsv_data *wide_points(void)
{
	return rows_of("1 1:-1 2:-2 5:1\n-1 5:-2\n1 1:1 2:2 5:1\n");
}

static void pca_with_fewer_rows_than_features_finds_the_axes(void)
{
	lsv_data *x = wide_points();
	lsv_pca *p = NULL;
	lsv_error e;

	CHECK(x != NULL && x->n == 3 && x->dim == 5);
	CHECK(x != NULL && lsv_pca_fit(x, 2, &p, &e) == LSV_OK);
	if (p != NULL) {
		CHECK(fabs(p->variance[0] - 10.0 / 3) < 1e-12);
		CHECK(fabs(p->variance[1] - 2.0) < 1e-12);
		CHECK(fabs(p->total - 16.0 / 3) < 1e-12);
		CHECK(fabs(p->V[0] - 1 / sqrt(5.0)) < 1e-12);
		CHECK(fabs(p->V[1] - 2 / sqrt(5.0)) < 1e-12);
		CHECK(fabs(p->V[5 + 4] - 1.0) < 1e-12);  /* e5, sign > 0 */
		CHECK(fabs(p->V[5 + 0]) < 1e-12);
	}
	lsv_pca_free(p);
	/* a third component has eigenvalue 0 (rank 2): no direction of
	 * the Gram route, so the covariance's, with variance 0 */
	p = NULL;
	CHECK(x != NULL && lsv_pca_fit(x, 3, &p, &e) == LSV_OK);
	if (p != NULL) {
		CHECK(fabs(p->variance[1] - 2.0) < 1e-12);
		CHECK(fabs(p->variance[2]) < 1e-12);
		CHECK(fabs(p->V[10 + 0] * p->V[0] + p->V[10 + 1] * p->V[1]) <
		      1e-12);  /* orthogonal to the first */
	}
	lsv_pca_free(p);
	lsv_data_free(x);
}

const unit_case pca_cases[] = {
	{"pca_with_fewer_rows_than_features_finds_the_axes",
	 pca_with_fewer_rows_than_features_finds_the_axes},
	{"pca_finds_the_principal_axis", pca_finds_the_principal_axis},
	{"pca_refuses_more_components_than_features",
	 pca_refuses_more_components_than_features},
	{NULL, NULL},
};
