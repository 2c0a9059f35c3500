/* SPDX-License-Identifier: GPL-2.0-only */
/* Summary statistics: count, min, max, avg, std (n-1), med and percentiles. */
#ifndef IDLESCOPE_STATS_H
#define IDLESCOPE_STATS_H
#include <stddef.h>
#include <stdint.h>

/* ISC_F_MIN_INDEX/ISC_F_MAX_INDEX (wult's min_index, max_index): the row of the first smallest
 * or largest value; only a caller that knows the rows computes them (analyze stats, with
 * isc_stats_fill_index); isc_stats_compute leaves them NaN. */
enum isc_func_kind { ISC_F_COUNT, ISC_F_MIN, ISC_F_MAX, ISC_F_AVG, ISC_F_STD, ISC_F_MED, ISC_F_PCT,
		     ISC_F_MIN_INDEX, ISC_F_MAX_INDEX };

struct isc_func {
	enum isc_func_kind kind;
	double pct;        /* ISC_F_PCT: 0 < pct < 100 */
	char name[24];     /* as the user wrote it: "max", "99.9%" */
};

/* wult's default: max, 99.999%, 99.99%, 99.9%, 99%, med, avg, std, min */
#define ISC_DEFAULT_FUNCS "max,99.999%,99.99%,99.9%,99%,med,avg,std,min"

/* Parse a comma-separated function list. On error fills err and returns -1. */
int isc_funcs_parse(const char *list, struct isc_func **out, size_t *nout, char *err, size_t errlen);

/*
 * Compute every function in f over vals (NaN values are skipped). out[i] gets f[i]'s value;
 * NaN where undefined (empty input; std with n < 2). Percentiles use linear interpolation
 * between closest ranks (numpy's default, GSL's gsl_stats_quantile_from_sorted_data).
 * scratch must hold n doubles; vals is not modified.
 */
void isc_stats_compute(const double *vals, size_t n, const struct isc_func *f, size_t nf,
		      double *out, double *scratch);

/*
 * Values read a piece at a time: get(ctx, from, n, buf) gives values [from, from + n), a
 * pointer into the data or buf (room for n) filled; for data kept packed or gathered from
 * rows, so that no copy of all n values is needed.
 */
struct isc_value_source {
	const double *(*get)(void *ctx, size_t from, size_t n, double *buf);
	void *ctx;
};

/* isc_stats_compute over src's n values, bit for bit the same, without a scratch of n
 * doubles (a selection on a copy, when the brackets miss, allocates it). */
void isc_stats_compute_source(const struct isc_value_source *src, size_t n, const struct isc_func *f,
			      size_t nf, double *out);

/* The same, working in a[0..n) itself (its order is lost). */
void isc_stats_compute_inplace(double *a, size_t n, const struct isc_func *f, size_t nf, double *out);

/*
 * The quantiles' ranks answered by the caller, who knows more of the values (a packed
 * column's codes can be counted): ranks(ctx, m, idx, ni, vals) puts into vals[i] the value
 * of rank idx[i] (ascending, unique, < m) among the m values that are not NaN, exactly the
 * double a selection gives, and returns 0; or returns -1 (the ranks are then selected as
 * without it). The moments are computed as without it.
 */
struct isc_rank_answer {
	int (*ranks)(void *ctx, size_t m, const size_t *idx, size_t ni, double *vals);
	void *ctx;
};

/* isc_stats_compute_source and isc_stats_compute_inplace, the ranks from ra (may be NULL). */
void isc_stats_compute_source_ranked(const struct isc_value_source *src, size_t n,
				     const struct isc_func *f, size_t nf, double *out,
				     const struct isc_rank_answer *ra);
void isc_stats_compute_inplace_ranked(double *a, size_t n, const struct isc_func *f, size_t nf,
				      double *out, const struct isc_rank_answer *ra);

/* What isc_stats_compute gives for n values that are all +0 (SMICnt and NMICnt usually are),
 * without reading them: a column known to hold only zeros needs no pass. */
void isc_stats_of_zeros(size_t n, const struct isc_func *f, size_t nf, double *out);

/*
 * The row index funcs of f over col's rows rows[0..n) (rows NULL: rows 0..n-1): out[i] gets the
 * row number (as in rows) of the first smallest or largest value, NaN values skipped; NaN when
 * there is none. Other funcs are left as they are.
 */
void isc_stats_fill_index(const double *col, const size_t *rows, size_t n, const struct isc_func *f,
			  size_t nf, double *out);

/* Quantile q (0..1) of ascending data, linear interpolation (GSL's definition). */
double isc_quantile_sorted(const double *sorted, size_t n, double q);
/* Its rank q * (n - 1), n > 0: *lhs the whole part, the fraction returned. Where *lhs >= n - 1
 * the quantile is the largest value; else it lies between ranks *lhs and *lhs + 1. */
double isc_quantile_rank(double q, size_t n, size_t *lhs);

/*
 * Rearrange a[0..n) so that for every index in idx[0..nidx) (ascending),
 * a[idx] holds the value it would hold if a were sorted. Expected O(n log nidx).
 */
void isc_multiselect(double *a, size_t n, const size_t *idx, size_t nidx);

/* Linear histogram with out-of-range accounting. */
struct isc_hist {
	double lo, hi;       /* bins cover [lo, hi) ; the last bin includes hi */
	size_t nbins;
	uint64_t *counts;
	uint64_t under, over;
	uint64_t total;      /* values counted, in range or not (NaN skipped) */
};
/* Bins over [lo, hi]; lo == hi makes one bin. */
void isc_hist_init(struct isc_hist *h, double lo, double hi, size_t nbins);
void isc_hist_add(struct isc_hist *h, const double *vals, size_t n);
/* The lower edge of bin b (b = nbins: hi), also where hi - lo overflows a double. */
double isc_hist_edge(const struct isc_hist *h, size_t b);
void isc_hist_free(struct isc_hist *h);

#endif
