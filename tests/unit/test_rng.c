/* Seeded randomness and the synthetic data sets. */
#include <math.h>
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

static void rng_same_seed_same_stream(void)
{
	lsv_rng a, b, c;
	int i, differ = 0;
	lsv_rng_seed(&a, 42);
	lsv_rng_seed(&b, 42);
	lsv_rng_seed(&c, 43);
	for (i = 0; i < 1000; i++) {
		unsigned long long x = lsv_rng_next(&a);
		CHECK(x == lsv_rng_next(&b));
		differ += x != lsv_rng_next(&c);
	}
	CHECK(differ == 1000);
}

static void rng_splitmix_seeding_matches_reference_value(void)
{
	/* splitmix64 from state 0 first yields 0xe220a8397b1dcdaf (Vigna's
	 * reference); it is the first word of the xoshiro state. */
	lsv_rng r;
	lsv_rng_seed(&r, 0);
	CHECK(r.s[0] == 0xe220a8397b1dcdafULL);
}

static void rng_uniform_and_normal_moments(void)
{
	lsv_rng r;
	double su = 0, sn = 0, sn2 = 0;
	int i, n = 200000;
	lsv_rng_seed(&r, 7);
	for (i = 0; i < n; i++) {
		double u = lsv_rng_uniform(&r), z = lsv_rng_normal(&r);
		CHECK(u >= 0.0 && u < 1.0);
		su += u;
		sn += z;
		sn2 += z * z;
	}
	/* Means within 5 standard errors (deterministic: the seed is fixed). */
	CHECK(fabs(su / n - 0.5) < 5 * sqrt(1.0 / 12 / n));
	CHECK(fabs(sn / n) < 5 / sqrt((double)n));
	CHECK(fabs(sn2 / n - 1.0) < 5 * sqrt(2.0 / n));
}

static void moons_without_noise_lie_on_the_arcs(void)
{
	lsv_data *x;
	lsv_error e;
	size_t i, pos = 0;
	CHECK(lsv_synth(LSV_SYNTH_MOONS, 200, 0.0, 1, &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	CHECK(x->n == 200 && x->dim <= 2);
	for (i = 0; i < x->n; i++) {
		double u = 0, v = 0;
		size_t p;
		for (p = x->rowptr[i]; p < x->rowptr[i + 1]; p++) {
			if (x->col[p] == 0)
				u = x->val[p];
			else
				v = x->val[p];
		}
		if (x->y[i] > 0) {
			pos++;
			CHECK(fabs(u * u + v * v - 1.0) < 1e-12);
		} else {
			CHECK(fabs((1 - u) * (1 - u) + (0.5 - v) * (0.5 - v) - 1.0) < 1e-12);
		}
	}
	CHECK(pos == 100);
	lsv_data_free(x);
}

static void spirals_194_are_the_original_points(void)
{
	lsv_data *x;
	lsv_error e;
	CHECK(lsv_synth(LSV_SYNTH_SPIRALS, 194, 0.0, 1, &x, &e) == LSV_OK);
	if (x == NULL)
		return;
	/* i = 1: angle pi/16, radius 6.5 * 103/104 */
	CHECK(fabs(x->val[2] - 6.5 * 103 / 104 * sin(M_PI / 16)) < 1e-12);
	CHECK(fabs(x->val[3] - 6.5 * 103 / 104 * cos(M_PI / 16)) < 1e-12);
	CHECK(x->y[96] == 1 && x->y[97] == -1);
	lsv_data_free(x);
}

const unit_case rng_cases[] = {
	{"rng_same_seed_same_stream", rng_same_seed_same_stream},
	{"rng_splitmix_seeding_matches_reference_value",
	 rng_splitmix_seeding_matches_reference_value},
	{"rng_uniform_and_normal_moments", rng_uniform_and_normal_moments},
	{"moons_without_noise_lie_on_the_arcs", moons_without_noise_lie_on_the_arcs},
	{"spirals_194_are_the_original_points", spirals_194_are_the_original_points},
	{NULL, NULL},
};
