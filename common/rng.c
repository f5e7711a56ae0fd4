/*
 * rng.c -- the library's only source of randomness.
 *
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64, so that an
 * explicit seed (-S) reproduces every random choice on every machine: the
 * generator uses only 64-bit integer arithmetic, never rand() or the clock.
 */
#include <math.h>

#include "lapsvm.h"

static unsigned long long splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void lsv_rng_seed(lsv_rng *r, unsigned long long seed)
{
	int i;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static unsigned long long rotl(unsigned long long x, int k)
{
	return (x << k) | (x >> (64 - k));
}

unsigned long long lsv_rng_next(lsv_rng *r)
{
	unsigned long long *s = r->s;
	unsigned long long res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double lsv_rng_uniform(lsv_rng *r)
{
	/* The top 53 bits give every double in [0, 1) on a 2^-53 grid. */
	return (double)(lsv_rng_next(r) >> 11) * 0x1.0p-53;
}

double lsv_rng_normal(lsv_rng *r)
{
	/* Box-Muller; one of the pair is discarded so the stream position
	 * depends only on how many normals were drawn. */
	double u1 = 1.0 - lsv_rng_uniform(r);  /* in (0, 1], so log is finite */
	double u2 = lsv_rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
