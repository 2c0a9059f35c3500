/* SPDX-License-Identifier: GPL-2.0-only */
/* isc_stats_compute_source (values read a piece at a time) gives the bits isc_stats_compute
 * and isc_stats_compute_inplace give over the same array: every sum, bracket and selection. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"
#include "../common/check.h"

#define FUNCS "count,min,max,avg,std,med,0.5%,1%,25%,50%,75%,99%,99.9%,99.99%,99.999%"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* A copy into buf, as a packed column's decoding gives; counts the values read. */
struct copy_src {
	const double *a;
	size_t nread;
};

static const double *copy_get(void *ctx, size_t from, size_t n, double *buf)
{
	struct copy_src *c = ctx;
	memcpy(buf, c->a + from, n * sizeof(double));
	c->nread += n;
	return buf;
}

/* Returns the values the source was asked for. */
static size_t same_bits(const double *v, size_t n, const char *what)
{
	struct isc_func *f;
	size_t nf;
	char err[128];
	CHECK(isc_funcs_parse(FUNCS, &f, &nf, err, sizeof(err)) == 0);
	double *scratch = isc_xmalloc((n + 1) * sizeof(double)), *copy = isc_xmalloc((n + 1) * sizeof(double));
	double want[32], got[32], inplace[32];
	isc_stats_compute(v, n, f, nf, want, scratch);
	memcpy(copy, v, n * sizeof(double));
	isc_stats_compute_inplace(copy, n, f, nf, inplace);
	struct copy_src c = { v, 0 };
	const struct isc_value_source src = { copy_get, &c };
	isc_stats_compute_source(&src, n, f, nf, got);
	for (size_t i = 0; i < nf; i++) {
		CHECK_MSG(memcmp(&got[i], &want[i], sizeof(double)) == 0,
			  "%s n=%zu %s: %.17g, isc_stats_compute %.17g", what, n, f[i].name, got[i], want[i]);
		CHECK_MSG(memcmp(&got[i], &inplace[i], sizeof(double)) == 0,
			  "%s n=%zu %s: %.17g, in place %.17g", what, n, f[i].name, got[i], inplace[i]);
	}
	/* two passes (four when scaled) and one for a selection, plus the sample */
	CHECK_MSG(c.nread <= 5 * n + 4096, "%s n=%zu: %zu values read", what, n, c.nread);
	free(scratch);
	free(copy);
	free(f);
	return c.nread;
}

/* Values at the brackets' sample positions (every n/4096th) uniform in [0, 1), all others 5:
 * the sample misleads, the brackets miss and the ranks come from a selection on a copy. */
static void misleading_sample(double *v, size_t n)
{
	size_t stride = n / 4096;
	for (size_t i = 0; i < n; i++)
		v[i] = i % stride == 0 ? uniform() : 5;
}

int main(void)
{
	const size_t sizes[] = { 0, 1, 2, 255, 256, 257, 2047, 2048, 2049, 65535, 65536, 70001, 300001 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *v = isc_xmalloc((n + 1) * sizeof(double));
		for (size_t i = 0; i < n; i++)
			v[i] = -log(1 - uniform()) * 3 + (uniform() < 0.001 ? 100 * uniform() : 0);
		size_t nread = same_bits(v, n, "exponential");
		/* from 65536 values the brackets hold: two passes and the sample, no selection */
		CHECK_MSG(n < 65536 || nread <= 2 * n + 4096, "n=%zu: %zu values read", n, nread);
		for (size_t i = 0; i < n; i++)
			v[i] = i % 5 == 2 ? NAN : floor(uniform() * 4);
		same_bits(v, n, "ties+NaN");
		for (size_t i = 0; i < n; i++)   /* scaled sums: magnitudes past 2^400 */
			v[i] = (uniform() - 0.3) * 1e300;
		same_bits(v, n, "huge");
		for (size_t i = 0; i < n; i++)   /* and below 2^-400 */
			v[i] = uniform() * 1e-300;
		same_bits(v, n, "tiny");
		for (size_t i = 0; i < n; i++)   /* cancellation: 1e16, 1, -1e16 */
			v[i] = i % 3 == 0 ? 1e16 : i % 3 == 1 ? 1 : -1e16;
		same_bits(v, n, "cancel");
		for (size_t i = 0; i < n; i++)   /* squares over 16 decades: block sums round */
			v[i] = pow(10, 8 * uniform()) * (uniform() < 0.5 ? -1 : 1);
		same_bits(v, n, "decades");
		if (n >= 65536) {
			misleading_sample(v, n);
			nread = same_bits(v, n, "misleading sample");
			CHECK_MSG(nread >= 3 * n, "n=%zu: %zu values read, no selection", n, nread);
		}
		free(v);
	}
	return CHECK_DONE();
}
