/* SPDX-License-Identifier: GPL-2.0-only */
/* Statistics against GSL's sorted-data functions, computed independently here. */
#include <float.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"
#include "../common/check.h"
#include "../../lib/stats/rank_select.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* Mean and sample standard deviation in long double, two passes: the reference for avg/std
 * (GSL's running-mean algorithm is itself off in the 12th digit on large tied samples). */
static double ld_mean(const double *v, size_t n)
{
	long double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return (double)(s / n);
}

static double ld_sd(const double *v, size_t n)
{
	long double mean = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return (double)sqrtl(ss / (n - 1));
}

#define FUNCS "count,min,max,avg,std,med,0.5%,1%,25%,50%,75%,99%,99.9%,99.99%,99.999%"

/* Compare isc_stats_compute over vals (NaN allowed) with GSL on the sorted non-NaN values. */
static void against_gsl(const double *vals, size_t n, const char *what)
{
	struct isc_func *f;
	size_t nf, m = 0;
	char err[128];
	CHECK(isc_funcs_parse(FUNCS, &f, &nf, err, sizeof(err)) == 0);
	double *sorted = isc_xmalloc((n + 1) * sizeof(double)), *scratch = isc_xmalloc((n + 1) * sizeof(double));
	double out[32];
	for (size_t i = 0; i < n; i++)
		if (!isnan(vals[i]))
			sorted[m++] = vals[i];
	gsl_sort(sorted, 1, m);
	isc_stats_compute(vals, n, f, nf, out, scratch);
	for (size_t i = 0; i < nf; i++) {
		double want;
		switch (f[i].kind) {
		case ISC_F_COUNT: want = (double)m; break;
		case ISC_F_MIN: want = m ? sorted[0] : NAN; break;
		case ISC_F_MAX: want = m ? sorted[m - 1] : NAN; break;
		case ISC_F_AVG: want = m ? ld_mean(sorted, m) : NAN; break;
		case ISC_F_STD: want = m > 1 ? ld_sd(sorted, m) : NAN; break;
		case ISC_F_MED: want = m ? gsl_stats_median_from_sorted_data(sorted, 1, m) : NAN; break;
		default: want = m ? gsl_stats_quantile_from_sorted_data(sorted, 1, m, f[i].pct / 100) : NAN;
		}
		int exact = f[i].kind != ISC_F_AVG && f[i].kind != ISC_F_STD;
		if (exact ? !((isnan(out[i]) && isnan(want)) || out[i] == want)
			  : !((isnan(out[i]) && isnan(want)) || fabs(out[i] - want) <= 1e-12 * fabs(want) + 1e-300)) {
			check_failures++;
			fprintf(stderr, "%s (n=%zu): %s = %.17g, GSL %.17g\n", what, n, f[i].name, out[i], want);
		}
	}
	free(f);
	free(sorted);
	free(scratch);
}

static void hand_computed(void)
{
	struct isc_func *f;
	size_t nf;
	char err[128];
	double out[8], scratch[8];
	CHECK(isc_funcs_parse("count,min,max,avg,std,med,25%,90%", &f, &nf, err, sizeof(err)) == 0);
	const double four[] = { 4, 1, 3, 2 };   /* sorted 1 2 3 4 */
	isc_stats_compute(four, 4, f, nf, out, scratch);
	CHECK_EQ_DBL(out[0], 4);
	CHECK_EQ_DBL(out[1], 1);
	CHECK_EQ_DBL(out[2], 4);
	CHECK_EQ_DBL(out[3], 2.5);
	CHECK_NEAR(out[4], sqrt(5.0 / 3.0), 1e-15);  /* sum of squares 5, n-1 = 3 */
	CHECK_EQ_DBL(out[5], 2.5);
	CHECK_EQ_DBL(out[6], 1.75);                   /* 0.25 * 3 = 0.75 between 1 and 2 */
	CHECK_NEAR(out[7], 3.7, 1e-15);               /* 0.9 * 3 = 2.7 between 3 and 4 */
	const double one[] = { 7 };
	isc_stats_compute(one, 1, f, nf, out, scratch);
	CHECK_EQ_DBL(out[0], 1);
	CHECK_EQ_DBL(out[5], 7);
	CHECK_EQ_DBL(out[7], 7);
	CHECK(isnan(out[4]));                         /* std needs n >= 2 */
	const double none[] = { NAN, NAN };
	isc_stats_compute(none, 2, f, nf, out, scratch);
	CHECK_EQ_DBL(out[0], 0);
	CHECK(isnan(out[1]) && isnan(out[5]));
	free(f);
	CHECK(isc_funcs_parse("max,100%", &f, &nf, err, sizeof(err)) < 0);
	CHECK_STR(err, "unknown function '100%' (expected count, min, max, avg, std, med, min_index, max_index, or N% with 0 < N < 100)");
	CHECK(isc_funcs_parse("max,,min", &f, &nf, err, sizeof(err)) < 0);
	CHECK_STR(err, "bad function ''");
}

/* avg and std of values near DBL_MAX, above 2^400 or tiny: the sum and the squares would
 * overflow or underflow in plain doubles. Expected values: exact rational arithmetic, rounded
 * once (Python's fractions and decimal); allowed error 2 ulps (64 on a long sum). */
static void extreme_case(const double *v, size_t n, double avg, double std, double ulps, int line)
{
	struct isc_func *f;
	size_t nf;
	char err[64];
	double out[2], scratch[8];
	CHECK(isc_funcs_parse("avg,std", &f, &nf, err, sizeof(err)) == 0);
	isc_stats_compute(v, n, f, nf, out, scratch);
	for (int i = 0; i < 2; i++) {
		double want = i ? std : avg, tol = ulps * (nextafter(fabs(want), INFINITY) - fabs(want));
		if (!(out[i] == want || fabs(out[i] - want) <= tol)) {
			check_failures++;
			fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", __FILE__, line, f[i].name,
				out[i], want);
		}
	}
	free(f);
}

#define EXTREME(avg, std, ...) do { const double v_[] = { __VA_ARGS__ }; \
	extreme_case(v_, sizeof(v_) / sizeof(v_[0]), avg, std, 2, __LINE__); } while (0)

static void extreme_values(void)
{
	EXTREME(1.1666666666666667e+308, 2.8867513459481287e+307, 1e308, 1e308, 1.5e308);
	EXTREME(-1.25e+308, 3.535533905932738e+307, -1e308, -1.5e308);
	EXTREME(DBL_MAX, 1.1522989399693764e+292, DBL_MAX, DBL_MAX, 1.7976931348623155e308);
	EXTREME(DBL_MAX, 0, DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX);
	EXTREME(2e+200, 1.414213562373095e+200, 1e200, 3e200);           /* squares overflow */
	EXTREME(2e-200, 1e-200, 1e-200, 2e-200, 3e-200);                 /* squares underflow */
	EXTREME(1e-323, 5e-324, 5e-324, 1e-323, 1.5e-323);               /* subnormal */
	EXTREME(0, INFINITY, -DBL_MAX, DBL_MAX);   /* the true std, DBL_MAX * sqrt(2), overflows */
	/* cancellation: the big terms hide the small ones from a plain sum (avg was 0) */
	EXTREME(0.33333333333333331, 1e16, 1e16, 1, -1e16);
	EXTREME(0.375, 7.559289460184544e+19, 1e20, 1, -1e20, 1, 1e20, -1e20, 0, 1);
	EXTREME(9.999999999999999e-18, 0.816496580927726, 1, 1e-15, -1, 1e-16, -1e-15, 1, -1, 0, 1, -1);

	/* 100,000 values spread over [1e307, 1.7e308], with NaN holes, against long double. */
	size_t n = 100000;
	double *v = isc_xmalloc(n * sizeof(double)), *dense = isc_xmalloc(n * sizeof(double));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		v[i] = i % 11 == 5 ? NAN : 1e307 + uniform() * 1.6e308;
		if (!isnan(v[i]))
			dense[m++] = v[i];
	}
	extreme_case(v, n, ld_mean(dense, m), ld_sd(dense, m), 64, __LINE__);
	free(v);
	free(dense);
}

static void histogram(void)
{
	struct isc_hist h;
	const double v[] = { 0, 0.5, 1, 9.99, 10, -1, 11, NAN };
	isc_hist_init(&h, 0, 10, 10);
	isc_hist_add(&h, v, 8);
	CHECK(h.counts[0] == 2 && h.counts[1] == 1 && h.counts[9] == 2);
	CHECK(h.under == 1 && h.over == 1 && h.total == 7);
	CHECK_EQ_DBL(isc_hist_edge(&h, 3), 3);
	isc_hist_free(&h);

	/* hi - lo overflows: bins and edges as on a plain range */
	const double big[] = { -1.5e308, -1e308, -1e307, 1e307, 1e308, 1.5e308 };
	isc_hist_init(&h, -1.5e308, 1.5e308, 4);
	isc_hist_add(&h, big, 6);
	CHECK(h.counts[0] == 2 && h.counts[1] == 1 && h.counts[2] == 1 && h.counts[3] == 2);
	CHECK(h.under == 0 && h.over == 0 && h.total == 6);
	CHECK_EQ_DBL(isc_hist_edge(&h, 0), -1.5e308);
	CHECK_EQ_DBL(isc_hist_edge(&h, 1), -7.5e307);
	CHECK_EQ_DBL(isc_hist_edge(&h, 2), 0);
	CHECK_EQ_DBL(isc_hist_edge(&h, 4), 1.5e308);
	isc_hist_free(&h);

	/* a bin narrower than the smallest subnormal: 1..5 x 2^-1074 over 20 bins */
	const double tiny[] = { 0x1p-1074, 0x2p-1074, 0x3p-1074, 0x4p-1074, 0x5p-1074 };
	isc_hist_init(&h, 0x1p-1074, 0x5p-1074, 20);
	isc_hist_add(&h, tiny, 5);
	CHECK(h.counts[0] == 1 && h.counts[5] == 1 && h.counts[10] == 1 && h.counts[15] == 1 &&
	      h.counts[19] == 1);
	isc_hist_free(&h);
}

/* The sample-bracket method holds where ties sit at a bracket's end (a column of 70 % zeros,
 * one of four values): the ties are counted, not collected, so it needs no fallback to a
 * selection on a copy; the ranks are those of the sorted values. Then the selection within
 * the brackets of values of one sign (no branch on comparisons there): a thousand values
 * repeated, a constant, negative values, values spanning zero, and 1e-300 apart. */
static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static double bracket_value(int kind, double u)
{
	switch (kind) {
	case 0: return u < 0.7 ? 0 : u;
	case 1: return floor(u * 4);
	case 2: return 5;
	case 3: return 1 + floor(u * 1000) / 1000;
	case 4: return -1 - u;
	case 5: return u - 0.5;
	default: return 1e-300 * (1 + floor(u * 50));
	}
}

static void brackets_ties(void)
{
	const size_t n = 200000;
	double *v = isc_xmalloc(n * sizeof(double)), *sorted = isc_xmalloc(n * sizeof(double));
	double *arena = isc_xmalloc(n * sizeof(double));
	for (int kind = 0; kind < 7; kind++) {
		for (size_t i = 0; i < n; i++) {
			v[i] = bracket_value(kind, uniform());
			sorted[i] = v[i];
		}
		gsl_sort(sorted, 1, n);
		size_t idx[] = { 9999, 10000, (n - 1) / 2, n / 2, 189999, 190000, 199799, 199800, 199998 };
		size_t ni = sizeof(idx) / sizeof(idx[0]);
		double vals[16];
		struct brackets br;
		CHECK(brackets_prepare(&br, v, n, n, idx, ni, kind == 2 ? arena : NULL, n) == 0);
		brackets_fill(&br, v, n);
		for (size_t j = 0; j < br.nb; j++) {   /* each collection: the values inside, in order */
			size_t k = 0, bad = 0, below = 0;
			for (size_t i = 0; i < n; i++) {
				below += v[i] < br.b[j].lo;
				if (v[i] > br.b[j].lo && v[i] < br.b[j].hi)
					bad += k >= br.b[j].n || !same_bits(br.b[j].buf[k++], v[i]);
			}
			CHECK_MSG(bad == 0 && k == br.b[j].n && below == br.b[j].below,
				  "kind %d bracket %zu: %zu of %zu differ, below %zu/%zu", kind, j, bad, k, br.b[j].below, below);
		}
		CHECK(brackets_finish(&br, idx, ni, vals) == 0);
		for (size_t i = 0; i < ni; i++)
			CHECK_MSG(memcmp(&vals[i], &sorted[idx[i]], sizeof(double)) == 0, "kind %d rank %zu: %.17g, want %.17g",
				  kind, idx[i], vals[i], sorted[idx[i]]);
	}
	free(v);
	free(sorted);
	free(arena);
}

/* A column of one value (NaN holes aside) skips the second pass: avg is the mean, std is +0
 * when the mean is the value (NaN for one value), every quantile is the value, to the bit.
 * Zeros of both signs go the usual way for their quantiles (-0 and +0 tie); 1e300 is beyond
 * the scaled range. */
static void one_value_columns(void)
{
	const double vs[] = { 0.1, 1, 5.6634858017549039, 2036.9056379051576, -3.25, 1e300, 0, -0.0 };
	const size_t ns[] = { 1, 2, 1000, 70001, 300000 };
	struct isc_func *f;
	size_t nf;
	char err[128];
	CHECK(isc_funcs_parse("count,min,max,avg,std,med,99%,99.999%", &f, &nf, err, sizeof(err)) == 0);
	double *v = isc_xmalloc(300000 * sizeof(double)), *scratch = isc_xmalloc(300000 * sizeof(double));
	for (size_t a = 0; a < sizeof(vs) / sizeof(vs[0]); a++) {
		for (size_t b = 0; b < sizeof(ns) / sizeof(ns[0]); b++) {
			size_t n = ns[b], m = 0;
			for (size_t i = 0; i < n; i++) {
				v[i] = n > 2 && i % 13 == 5 ? NAN : vs[a];
				m += !isnan(v[i]);
			}
			double out[8];
			isc_stats_compute(v, n, f, nf, out, scratch);
			CHECK_MSG(out[0] == (double)m && same_bits(out[1], vs[a]) && same_bits(out[2], vs[a]),
				  "%g x %zu: count, min, max", vs[a], n);
			CHECK_MSG(fabs(out[3] - vs[a]) <= 1e-15 * fabs(vs[a]), "%g x %zu: avg %.17g", vs[a], n, out[3]);
			bool exact = out[3] == vs[a];
			CHECK_MSG(m > 1 ? !exact || same_bits(out[4], 0.0) : isnan(out[4]), "%g x %zu: std %g", vs[a], n,
				  out[4]);
			for (int q = 5; q < 8; q++)
				CHECK_MSG(same_bits(out[q], vs[a]), "%g x %zu: %s %.17g", vs[a], n, f[q].name, out[q]);
		}
	}
	free(v);
	free(scratch);
	free(f);
}

/* isc_stats_of_zeros is what computing over n zeros gives, to the bit, every function. */
static void zeros_without_reading(void)
{
	const size_t ns[] = { 0, 1, 2, 3, 1000, 70001 };
	struct isc_func *f;
	size_t nf;
	char err[128];
	CHECK(isc_funcs_parse("count,min,max,avg,std,med,1%,99%,99.999%,min_index,max_index", &f, &nf, err,
			      sizeof(err)) == 0);
	double *v = isc_xcalloc(70001, sizeof(double)), *scratch = isc_xmalloc(70001 * sizeof(double));
	for (size_t b = 0; b < sizeof(ns) / sizeof(ns[0]); b++) {
		double want[16], got[16];
		isc_stats_compute(v, ns[b], f, nf, want, scratch);
		isc_stats_of_zeros(ns[b], f, nf, got);
		for (size_t i = 0; i < nf; i++)
			CHECK_MSG(isnan(got[i]) ? isnan(want[i]) : same_bits(got[i], want[i]),
				  "%zu zeros: %s %.17g, computed %.17g", ns[b], f[i].name, got[i], want[i]);
	}
	free(v);
	free(scratch);
	free(f);
}

int main(void)
{
	brackets_ties();
	one_value_columns();
	zeros_without_reading();
	size_t sizes[] = { 1, 2, 3, 4, 5, 10, 11, 100, 101, 1000, 65535, 65536, 70001, 300000 };
	hand_computed();
	extreme_values();
	histogram();
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *v = isc_xmalloc(n * sizeof(double));
		for (size_t i = 0; i < n; i++)   /* continuous, with a heavy tail */
			v[i] = -log(1 - uniform()) * 3 + (uniform() < 0.001 ? 100 * uniform() : 0);
		against_gsl(v, n, "exponential");
		for (size_t i = 0; i < n; i++)   /* heavy ties */
			v[i] = floor(uniform() * 4);
		against_gsl(v, n, "ties");
		for (size_t i = 0; i < n; i++)   /* all equal */
			v[i] = 1;
		against_gsl(v, n, "constant");
		for (size_t i = 0; i < n; i++)   /* sorted ascending, with NaN holes */
			v[i] = i % 7 == 3 ? NAN : (double)i;
		against_gsl(v, n, "sorted+NaN");
		for (size_t i = 0; i < n; i++)   /* descending, negative */
			v[i] = -(double)i * 0.5;
		against_gsl(v, n, "descending");
		free(v);
	}
	return CHECK_DONE();
}
