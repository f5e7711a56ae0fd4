/* Image distances (common/tangent.c) against answers derived by hand or
 * from the definitions: blank images have no tangents (the tangent
 * distance is the Euclidean one), a shifted or slightly turned smooth
 * image is far nearer under the tangent distance than under the Euclidean
 * one, exact rotations by multiples of 90 degrees are at rotation distance
 * 0, and the checks on the declared shape. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapsvm.h"
#include "ref.h"
#include "unit.h"

/* A 16 x 16 Gaussian blob, elongated, centred at (cx, cy), turned by th. */
static void blob(double *img, double cx, double cy, double th)
{
	int r, c;
	for (r = 0; r < 16; r++)
		for (c = 0; c < 16; c++) {
			double u = c - cx, v = r - cy;
			double a = cos(th) * u + sin(th) * v, b = -sin(th) * u + cos(th) * v;
			img[r * 16 + c] = -1.0 + 2.0 * exp(-(a * a / 18.0 + b * b / 4.0));
		}
}

static double euclid(const double *a, const double *b, size_t d)
{
	double s = 0.0;
	size_t i;
	for (i = 0; i < d; i++)
		s += (a[i] - b[i]) * (a[i] - b[i]);
	return sqrt(s);
}

static void image_param(lsv_graph_param *p, lsv_distance dist, int k)
{
	lsv_graph_param_default(p);
	p->distance = dist;
	p->width = p->height = 16;
	p->k = k;
}

static void blank_images_are_at_their_euclidean_distance(void)
{
	double v[3 * 256];
	lsv_data *x;
	lsv_graph_param p;
	int *idx;
	double *dist;
	size_t i;
	lsv_error e;

	for (i = 0; i < 256; i++) {
		v[i] = 0.5;
		v[256 + i] = -0.25;
		v[512 + i] = 2.0;
	}
	x = ref_dense(v, 3, 256);
	image_param(&p, LSV_DIST_TANGENT, 2);
	CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_OK);
	/* no gradient, no tangent: |a - b| sqrt(256) = 16 |a - b| */
	CHECK(idx[0] == 1 && fabs(dist[0] - 16 * 0.75) < 1e-12);
	CHECK(idx[1] == 2 && fabs(dist[1] - 16 * 1.5) < 1e-12);
	free(idx);
	free(dist);
	image_param(&p, LSV_DIST_ROTATION, 2);
	CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_OK);
	CHECK(idx[0] == 1 && fabs(dist[0] - 16 * 0.75) < 1e-12);
	free(idx);
	free(dist);
	lsv_data_free(x);
}

/* Row 0 a blob; rows 1-3 the blob moved by one pixel, turned by 8
 * degrees, and a different blob (rounder, elsewhere).  Under the tangent
 * distance the moved and turned ones are the nearest, each at a small
 * fraction of its Euclidean distance, and never above it. */
static void tangent_distance_sees_through_small_moves_and_turns(void)
{
	double v[4 * 256], *dist;
	lsv_data *x;
	lsv_graph_param p;
	int *idx, r;
	lsv_error e;
	int c;

	blob(v, 7.5, 7.5, 0.3);
	blob(v + 256, 8.5, 7.5, 0.3);
	blob(v + 512, 7.5, 7.5, 0.3 + 8 * M_PI / 180);
	for (r = 0; r < 16; r++)
		for (c = 0; c < 16; c++) {
			double u = c - 6.0, w = r - 8.0;
			v[768 + r * 16 + c] = -1.0 + 2.0 * exp(-(u * u + w * w) / 6.0);
		}
	x = ref_dense(v, 4, 256);
	image_param(&p, LSV_DIST_TANGENT, 3);
	CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_OK);
	if (idx == NULL)
		return;
	/* row 0's nearest: the moved and the turned blob, then the other */
	CHECK((idx[0] == 1 && idx[1] == 2) || (idx[0] == 2 && idx[1] == 1));
	CHECK(idx[2] == 3);
	for (r = 0; r < 3; r++)
		CHECK(dist[r] <= euclid(v, v + 256 * idx[r], 256) * (1 + 1e-12));
	CHECK(dist[idx[0] == 1 ? 0 : 1] < 0.2 * euclid(v, v + 256, 256));
	CHECK(dist[idx[0] == 2 ? 0 : 1] < 0.2 * euclid(v, v + 512, 256));
	/* symmetric: row 1 sees row 0 at the same distance, bit for bit */
	for (r = 0; r < 3; r++)
		if (idx[3 + r] == 0)
			CHECK(dist[3 + r] == dist[idx[0] == 1 ? 0 : 1]);
	free(idx);
	free(dist);
	lsv_data_free(x);
}

/* An image, the same turned by 90 and by 180 degrees exactly (a pixel
 * permutation of a square image), and another: the turned copies are at
 * rotation distance 0, which the Euclidean distance does not see. */
static void rotation_distance_is_zero_for_exact_quarter_turns(void)
{
	double v[4 * 256], *dist;
	lsv_data *x;
	lsv_graph_param p;
	int *idx, r, c;
	lsv_error e;

	blob(v, 5.0, 9.0, 0.7);
	for (r = 0; r < 16; r++)
		for (c = 0; c < 16; c++) {
			v[256 + r * 16 + c] = v[(15 - c) * 16 + r];        /* 90 */
			v[512 + r * 16 + c] = v[(15 - r) * 16 + (15 - c)];  /* 180 */
		}
	blob(v + 768, 8.0, 8.0, 0.0);
	x = ref_dense(v, 4, 256);
	image_param(&p, LSV_DIST_ROTATION, 3);
	CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_OK);
	if (idx != NULL) {
		CHECK(idx[0] == 1 && dist[0] == 0.0);
		CHECK(idx[1] == 2 && dist[1] == 0.0);
		CHECK(idx[2] == 3 && dist[2] > 1.0);
		CHECK(euclid(v, v + 512, 256) > 1.0);
	}
	free(idx);
	free(dist);
	/* a step that misses 90: 7 degrees tries 84 and 91, not 90; 180 is
	 * always tried */
	p.angle_step = 7.0;
	CHECK(lsv_knn_lists(x, &p, &idx, &dist, NULL, &e) == LSV_OK);
	if (idx != NULL)
		CHECK(idx[0] == 2 && dist[0] == 0.0 && idx[1] == 1 && dist[1] > 0.0);
	free(idx);
	free(dist);
	lsv_data_free(x);
}

static void image_distances_refuse_rows_of_another_shape_and_sparse_text(void)
{
	double v[2 * 300];
	lsv_data *x;
	lsv_graph_param p;
	lsv_graph *g = NULL;
	lsv_error e;
	size_t i;

	for (i = 0; i < 600; i++)
		v[i] = (i % 300) < 257 ? 1.0 + (double)(i % 7) : 0.0;
	x = ref_dense(v, 2, 300);
	image_param(&p, LSV_DIST_TANGENT, 1);
	CHECK(lsv_graph_build(x, &p, &g, NULL, &e) == LSV_EINVAL && g == NULL);
	CHECK_STR(e.msg, "row 1: feature 257 is beyond the declared 16x16 image "
			 "(256 pixels): not an image of that shape");
	CHECK(e.row == 1);
	/* a 100 x 100 shape and 50 values a row: text, not images */
	lsv_data_free(x);
	{
		double *w = calloc(2 * 10000, sizeof *w);
		for (i = 0; i < 50; i++)
			w[i * 37] = w[10000 + i * 41] = 1.0;
		x = ref_dense(w, 2, 10000);
		free(w);
	}
	p.width = p.height = 100;
	p.distance = LSV_DIST_ROTATION;
	CHECK(lsv_graph_build(x, &p, &g, NULL, &e) == LSV_EINVAL && g == NULL);
	CHECK(strstr(e.msg, "the rows are sparse (0.50% of the 10000 pixels of a "
			    "100x100 image stored on average), like text") != NULL);
	p.width = 0;
	CHECK(lsv_graph_build(x, &p, &g, NULL, &e) == LSV_EINVAL);
	CHECK(strstr(e.msg, "image shape 0x100 out of range") != NULL);
	p.width = 100;
	p.epsilon = 1.0;
	CHECK(lsv_graph_build(x, &p, &g, NULL, &e) == LSV_EINVAL);
	lsv_data_free(x);
}

const unit_case tangent_cases[] = {
	{"blank_images_are_at_their_euclidean_distance",
	 blank_images_are_at_their_euclidean_distance},
	{"tangent_distance_sees_through_small_moves_and_turns",
	 tangent_distance_sees_through_small_moves_and_turns},
	{"rotation_distance_is_zero_for_exact_quarter_turns",
	 rotation_distance_is_zero_for_exact_quarter_turns},
	{"image_distances_refuse_rows_of_another_shape_and_sparse_text",
	 image_distances_refuse_rows_of_another_shape_and_sparse_text},
	{NULL, NULL}
};
