/* SPDX-License-Identifier: GPL-2.0-only */
/* Summary statistics with selection instead of a full sort. */
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/clones.h"
#include "table/numparse.h"
#include "text/util.h"
#include "stats/rank_select.h"

double isc_quantile_sorted(const double *sorted, size_t n, double q)
{
	size_t lhs = 0;
	double delta = n ? isc_quantile_rank(q, n, &lhs) : 0;
	if (!n || lhs >= n - 1)
		return n ? sorted[n - 1] : NAN;
	return (1 - delta) * sorted[lhs] + delta * sorted[lhs + 1];
}

double isc_quantile_rank(double q, size_t n, size_t *lhs)
{
	/* GSL's gsl_stats_quantile_from_sorted_data, term for term. */
	double delta = q * (double)(n - 1);
	*lhs = (size_t)delta;
	return delta - (double)*lhs;
}

static double func_quantile(const struct isc_func *f)
{
	return f->kind == ISC_F_MED ? 0.5 : f->pct / 100.0;
}

/* Positions whose sorted values the quantiles need, ascending and unique. */
static size_t needed_ranks(const struct isc_func *f, size_t nf, size_t m, size_t *idx)
{
	size_t k = 0;
	for (size_t i = 0; i < nf; i++) {
		if (f[i].kind != ISC_F_MED && f[i].kind != ISC_F_PCT)
			continue;
		size_t lhs = (size_t)(func_quantile(&f[i]) * (double)(m - 1));
		idx[k++] = lhs;
		if (lhs + 1 < m)
			idx[k++] = lhs + 1;
	}
	for (size_t i = 1; i < k; i++) {  /* tiny insertion sort */
		size_t v = idx[i], j = i;
		for (; j > 0 && idx[j - 1] > v; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || idx[u - 1] != idx[i])
			idx[u++] = idx[i];
	return u;
}

static double rank_value(const size_t *idx, const double *vals, size_t ni, size_t rank)
{
	for (size_t i = 0; i < ni; i++)
		if (idx[i] == rank)
			return vals[i];
	return NAN;
}

static double quantile_from_ranks(const size_t *idx, const double *vals, size_t ni, size_t m, double q)
{
	/* GSL's gsl_stats_quantile_from_sorted_data, term for term. */
	double delta = q * (double)(m - 1);
	size_t lhs = (size_t)delta;
	delta -= (double)lhs;
	if (lhs >= m - 1)
		return rank_value(idx, vals, ni, m - 1);
	return (1 - delta) * rank_value(idx, vals, ni, lhs) + delta * rank_value(idx, vals, ni, lhs + 1);
}

/* Compensated sums: every value is added with Neumaier's correction, in four independent
 * chains per block of up to 256 values so that the adds overlap, and the block sums are added
 * the same way. Cancellation cannot lose what the big terms hide: 1e16, 1, -1e16 sum to 1
 * (plain block sums gave 0, and an avg of 0 instead of 1/3). */
#define BLOCK 256
#define LANES 4

struct ksum {
	double sum, comp;
};

static void ksum_add(struct ksum *k, double v)
{
	double t = k->sum + v;
	k->comp += fabs(k->sum) >= fabs(v) ? (k->sum - t) + v : (v - t) + k->sum;
	k->sum = t;
}

static double ksum_total(const struct ksum *k)
{
	return k->sum + k->comp;
}

/* The four chains of a block into k, each chain's sum and correction. */
static void ksum_add_lanes(struct ksum *k, const struct ksum *lane)
{
	for (int j = 0; j < LANES; j++) {
		ksum_add(k, lane[j].sum);
		ksum_add(k, lane[j].comp);
	}
}

/* First pass: count, min, max and sum of the values that are not NaN. */
struct moments {
	size_t m;
	double min, max;
	struct ksum sum;
};

/* The four chains as one GCC vector (lanes of -1 or 0 from comparisons): lane j does exactly
 * what ksum_add does for chain j, so the sums are the same to the bit however many lanes the
 * machine adds at once: two SSE2 halves, or one AVX2 register where the CPU has it (the
 * clones below; no FMA, which would round differently). */
typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));

#define LANES_CLONES ISC_AVX2_CLONES

/* Macros, not functions: a function passing 32-byte vectors has no one ABI across the clones. */
#define VSEL(mask, a, b) ((v4d)(((mask) & (v4l)(a)) | (~(mask) & (v4l)(b))))

#define VKSUM_ADD(sum, comp, v) do {                                                  \
		const v4l abs_mask_ = { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };   \
		v4d v_ = (v), t_ = (sum) + v_;                                             \
		v4l big_ = (v4d)((v4l)(sum) & abs_mask_) >= (v4d)((v4l)v_ & abs_mask_);   \
		(comp) += VSEL(big_, ((sum) - t_) + v_, (v_ - t_) + (sum));                \
		(sum) = t_;                                                                \
	} while (0)

LANES_CLONES static void block_moments(const double *a, size_t n, struct moments *mo)
{
	struct ksum s[LANES] = { { 0 } };
	double lo[LANES], hi[LANES];
	size_t c = 0, i = 0;
	v4d vs = { 0 }, vc = { 0 }, vlo = { INFINITY, INFINITY, INFINITY, INFINITY },
	    vhi = { -INFINITY, -INFINITY, -INFINITY, -INFINITY };
	v4l vn = { 0 };
	for (; i + LANES <= n; i += LANES) {
		v4d v;
		memcpy(&v, a + i, sizeof(v));
		v4l ok = v == v;
		VKSUM_ADD(vs, vc, (v4d)(ok & (v4l)v));
		vn -= ok;
		vlo = VSEL(v < vlo, v, vlo);
		vhi = VSEL(v > vhi, v, vhi);
	}
	for (int j = 0; j < LANES; j++) {
		s[j] = (struct ksum){ vs[j], vc[j] };
		lo[j] = vlo[j];
		hi[j] = vhi[j];
		c += (size_t)vn[j];
	}
	for (; i < n; i += LANES)   /* the last, short group: lanes past n take NaN */
		for (size_t j = 0; j < LANES; j++) {
			double v = i + j < n ? a[i + j] : NAN;
			int ok = !isnan(v);
			ksum_add(&s[j], ok ? v : 0);
			c += (size_t)ok;
			lo[j] = v < lo[j] ? v : lo[j];
			hi[j] = v > hi[j] ? v : hi[j];
		}
	for (int j = 0; j < LANES; j++) {
		mo->min = lo[j] < mo->min ? lo[j] : mo->min;
		mo->max = hi[j] > mo->max ? hi[j] : mo->max;
	}
	mo->m += c;
	ksum_add_lanes(&mo->sum, s);
}

/* Second pass: sums of (v - avg)^2 and of (v - avg), the latter to correct the mean's rounding. */
LANES_CLONES static void block_deviations(const double *a, size_t n, double avg, struct ksum *ss,
					  struct ksum *dev)
{
	double q[LANES] = { 0 };
	struct ksum d1[LANES] = { { 0 } };
	const v4d vavg = { avg, avg, avg, avg };
	v4d vq = { 0 }, vs = { 0 }, vc = { 0 };
	size_t i = 0;
	for (; i + LANES <= n; i += LANES) {
		v4d d;
		memcpy(&d, a + i, sizeof(d));
		d -= vavg;
		v4d dz = (v4d)((d == d) & (v4l)d);   /* NaN -> 0 */
		v4d sq = dz * dz;
		vq += sq;
		VKSUM_ADD(vs, vc, dz);
	}
	for (int j = 0; j < LANES; j++) {
		q[j] = vq[j];
		d1[j] = (struct ksum){ vs[j], vc[j] };
	}
	for (; i < n; i += LANES)
		for (size_t j = 0; j < LANES; j++) {
			double d = i + j < n ? a[i + j] - avg : NAN;
			int ok = !isnan(d);
			q[j] += ok ? d * d : 0;
			ksum_add(&d1[j], ok ? d : 0);
		}
	ksum_add(ss, (q[0] + q[1]) + (q[2] + q[3]));
	ksum_add_lanes(dev, d1);
}

/* Data is read in pieces of CHUNK values: a multiple of BLOCK and of BRACKET_SLACK, so that
 * the blocks, and with them every sum, are those of one pass over an array. */
#define CHUNK 2048

static const double *array_get(void *ctx, size_t from, size_t n, double *buf)
{
	(void)n;
	(void)buf;
	return (const double *)ctx + from;
}

static size_t piece_len(size_t n, size_t i)
{
	return n - i < CHUNK ? n - i : CHUNK;
}

/* The values at ranks idx[] after the first pass: from the brackets if they held, else by
 * selection on a compacted copy in work (which may be the data itself; NULL: allocated). */
static void select_ranks(const struct isc_value_source *src, size_t n, size_t m, const size_t *idx,
			 size_t ni, double *vals, double *work, struct brackets *br, int have_br)
{
	if (have_br && brackets_finish(br, idx, ni, vals) == 0)
		return;
	double buf[CHUNK], *w = work ? work : isc_xmalloc((m ? m : 1) * sizeof(double));
	size_t k = 0;
	for (size_t i = 0; i < n; i += CHUNK) {
		size_t len = piece_len(n, i);
		const double *p = src->get(src->ctx, i, len, buf);
		for (size_t j = 0; j < len; j++)
			if (!isnan(p[j]))
				w[k++] = p[j];
	}
	isc_multiselect(w, m, idx, ni);
	for (size_t i = 0; i < ni; i++)
		vals[i] = w[idx[i]];
	if (!work)
		free(w);
}

/*
 * Values whose magnitude is above 2^400 or below 2^-400 could overflow the sum or the squares
 * (1e308 + 1e308), or underflow the squares (1e-200^2): avg and std are then computed on the
 * values times 2^-e, where 2^e bounds the largest magnitude, and scaled back. Powers of two
 * scale exactly. Returns the exponent e, or 0 when the values need no scaling.
 */
#define SAFE_EXP 400

static int scale_exponent(double min, double max)
{
	double big = fmax(fabs(min), fabs(max));
	int e = 0;
	if (big == 0 || !isfinite(big) || (big < 0x1p400 && big > 0x1p-400))
		return 0;
	(void)frexp(big, &e);
	return e;
}

/* The block passes over p[0..n) * 2^-e, a block at a time through a small buffer. */
static void scaled_sum(const double *p, size_t n, int e, struct moments *mo)
{
	double buf[BLOCK];
	for (size_t i = 0; i < n; i += BLOCK) {
		size_t k = n - i < BLOCK ? n - i : BLOCK;
		for (size_t j = 0; j < k; j++)
			buf[j] = ldexp(p[i + j], -e);
		block_moments(buf, k, mo);
	}
}

static void scaled_deviations(const double *p, size_t n, int e, double avg, struct ksum *ss,
			      struct ksum *dev)
{
	double buf[BLOCK];
	for (size_t i = 0; i < n; i += BLOCK) {
		size_t k = n - i < BLOCK ? n - i : BLOCK;
		for (size_t j = 0; j < k; j++)
			buf[j] = ldexp(p[i + j], -e);
		block_deviations(buf, k, avg, ss, dev);
	}
}

/* First pass over the data: count, min, max and sum (scaled by 2^-e when e != 0). */
static void first_pass(const struct isc_value_source *src, size_t n, int e, struct moments *mo)
{
	double buf[CHUNK];
	for (size_t i = 0; i < n; i += CHUNK) {
		size_t len = piece_len(n, i);
		const double *p = src->get(src->ctx, i, len, buf);
		if (e) {
			scaled_sum(p, len, e, mo);
			continue;
		}
		for (size_t j = 0; j < len; j += BLOCK)
			block_moments(p + j, len - j < BLOCK ? len - j : BLOCK, mo);
	}
}

/* avg and std (n - 1) of the m non-NaN values, whose sum the first pass gave; the same pass
 * over the data fills the brackets (br, or NULL) a block at a time, while the block is in the
 * cache. */
static void mean_std(const struct isc_value_source *src, size_t n, const struct moments *mo,
		     double *avg, double *std, struct brackets *br)
{
	size_t m = mo->m;
	int e = m ? scale_exponent(mo->min, mo->max) : 0;
	struct moments sc = { .min = INFINITY, .max = -INFINITY };
	struct ksum ss = { 0 }, dev = { 0 };
	double buf[CHUNK];
	if (e)
		first_pass(src, n, e, &sc);
	double mean = m ? ksum_total(e ? &sc.sum : &mo->sum) / (double)m : NAN;
	for (size_t i = 0; i < n; i += CHUNK) {
		size_t len = piece_len(n, i);
		const double *p = src->get(src->ctx, i, len, buf);
		for (size_t j = 0; j < len; j += BLOCK) {
			size_t k = len - j < BLOCK ? len - j : BLOCK;
			if (e)
				scaled_deviations(p + j, k, e, mean, &ss, &dev);
			else
				block_deviations(p + j, k, mean, &ss, &dev);
			if (br)
				brackets_fill(br, p + j, k);
		}
	}
	double c = ksum_total(&dev);
	*avg = ldexp(mean, e);
	*std = m > 1 ? ldexp(sqrt((ksum_total(&ss) - c * c / (double)m) / (double)(m - 1)), e) : NAN;
}

/*
 * The avg and std of a column whose values all compare equal (SMICnt and NMICnt are zeros),
 * without the second pass, when they are the ones it would give: avg is the first pass's
 * mean either way; each deviation is v - mean = +-0 when the values are zeros, or when they
 * are one nonzero value (one bit pattern) that the mean hit exactly, and sums of +-0 and
 * their squares make std +0 (NaN for one value). Values beyond the scaled range go the usual
 * way. ranks_known: the ranks' values are answered already, or none is needed; else the
 * values must be one bit pattern (not zeros, of which -0 and +0 tie) to be the ranks' values.
 */
static int one_value(const struct moments *mo, int ranks_known, double *avg, double *std)
{
	size_t m = mo->m;
	if (!m || mo->min != mo->max || scale_exponent(mo->min, mo->max) || (mo->min == 0 && !ranks_known))
		return 0;
	double mean = ksum_total(&mo->sum) / (double)m;
	if (mo->min != 0 && mean != mo->min)
		return 0;
	*avg = mean;
	*std = m > 1 ? 0.0 : NAN;
	return 1;
}

/* The brackets for ranks idx[0..ni) of the m non-NaN values among n, their sample taken
 * through src. */
static int prepare_brackets(const struct isc_value_source *src, size_t n, size_t m, const size_t *idx,
			    size_t ni, double *arena, size_t arena_n, struct brackets *br)
{
	double sample[BRACKET_SAMPLE];
	size_t s = 0, stride = brackets_stride(n);
	if (m < BRACKET_MIN_N || ni > BRACKET_MAX)
		return -1;
	for (size_t i = 0; i < n && s < BRACKET_SAMPLE; i += stride) {
		double v;
		const double *p = src->get(src->ctx, i, 1, &v);
		if (!isnan(*p))
			sample[s++] = *p;
	}
	return brackets_prepare_sampled(br, sample, s, m, idx, ni, arena, arena_n);
}

/* work: n doubles for a selection on a copy (then also the brackets' arena), the data itself
 * (work_is_data: the brackets allocate their collections), or NULL (both allocate). */
static void compute(const struct isc_value_source *src, size_t n, const struct isc_func *f, size_t nf,
		    double *out, double *work, int work_is_data, const struct isc_rank_answer *ra)
{
	struct moments mo = { .min = INFINITY, .max = -INFINITY };
	first_pass(src, n, 0, &mo);
	size_t m = mo.m;
	double min = mo.min, max = mo.max, avg, std;

	size_t stack_idx[64], *idx = 2 * nf <= 64 ? stack_idx : isc_xmalloc(2 * nf * sizeof(size_t));
	double stack_vals[64], *vals = 2 * nf <= 64 ? stack_vals : isc_xmalloc(2 * nf * sizeof(double));
	size_t ni = m ? needed_ranks(f, nf, m, idx) : 0;
	struct brackets br;
	int answered = ni && ra && ra->ranks(ra->ctx, m, idx, ni, vals) == 0;
	int flat = one_value(&mo, answered || !ni, &avg, &std);
	for (size_t i = 0; flat && !answered && i < ni; i++)
		vals[i] = min;
	answered |= flat;
	int have_br = ni && !answered && prepare_brackets(src, n, m, idx, ni, work_is_data ? NULL : work,
							  work ? n : 0, &br) == 0;

	/* Second pass: the variance, with the mean's rounding corrected, and the brackets. */
	if (!flat)
		mean_std(src, n, &mo, &avg, &std, have_br ? &br : NULL);
	if (ni && !answered)
		select_ranks(src, n, m, idx, ni, vals, work, &br, have_br);
	for (size_t i = 0; i < nf; i++) {
		switch (f[i].kind) {
		case ISC_F_COUNT: out[i] = (double)m; break;
		case ISC_F_MIN: out[i] = m ? min : NAN; break;
		case ISC_F_MAX: out[i] = m ? max : NAN; break;
		case ISC_F_AVG: out[i] = avg; break;
		case ISC_F_STD: out[i] = std; break;
		case ISC_F_MED:
		case ISC_F_PCT:
			out[i] = m ? quantile_from_ranks(idx, vals, ni, m, func_quantile(&f[i])) : NAN;
			break;
		case ISC_F_MIN_INDEX:
		case ISC_F_MAX_INDEX:
			out[i] = NAN;
			break;
		}
	}
	if (idx != stack_idx) {
		free(idx);
		free(vals);
	}
}

void isc_stats_of_zeros(size_t n, const struct isc_func *f, size_t nf, double *out)
{
	for (size_t i = 0; i < nf; i++) {
		switch (f[i].kind) {
		case ISC_F_COUNT: out[i] = (double)n; break;
		case ISC_F_STD: out[i] = n > 1 ? 0.0 : NAN; break;
		case ISC_F_MIN_INDEX:
		case ISC_F_MAX_INDEX: out[i] = NAN; break;
		default: out[i] = n ? 0.0 : NAN; break;   /* min, max, avg, med, percentiles */
		}
	}
}

void isc_stats_compute_inplace(double *a, size_t n, const struct isc_func *f, size_t nf, double *out)
{
	const struct isc_value_source src = { array_get, a };
	compute(&src, n, f, nf, out, a, 1, NULL);
}

void isc_stats_compute_inplace_ranked(double *a, size_t n, const struct isc_func *f, size_t nf,
				      double *out, const struct isc_rank_answer *ra)
{
	const struct isc_value_source src = { array_get, a };
	compute(&src, n, f, nf, out, a, 1, ra);
}

void isc_stats_compute(const double *vals, size_t n, const struct isc_func *f, size_t nf,
		      double *out, double *scratch)
{
	const struct isc_value_source src = { array_get, (void *)(uintptr_t)vals };
	compute(&src, n, f, nf, out, scratch, 0, NULL);
}

void isc_stats_compute_source(const struct isc_value_source *src, size_t n, const struct isc_func *f,
			      size_t nf, double *out)
{
	compute(src, n, f, nf, out, NULL, 0, NULL);
}

void isc_stats_compute_source_ranked(const struct isc_value_source *src, size_t n,
				     const struct isc_func *f, size_t nf, double *out,
				     const struct isc_rank_answer *ra)
{
	compute(src, n, f, nf, out, NULL, 0, ra);
}

static int parse_one_func(const char *s, size_t len, struct isc_func *f, char *err, size_t errlen)
{
	static const struct { const char *name; enum isc_func_kind kind; } named[] = {
		{ "count", ISC_F_COUNT }, { "min", ISC_F_MIN }, { "max", ISC_F_MAX },
		{ "avg", ISC_F_AVG }, { "std", ISC_F_STD }, { "med", ISC_F_MED },
		{ "min_index", ISC_F_MIN_INDEX }, { "max_index", ISC_F_MAX_INDEX },
	};
	char q[40];
	memset(f, 0, sizeof(*f));
	if (len == 0 || len >= sizeof(f->name)) {
		isc_quote_for_msg(s, len, q, sizeof(q));
		snprintf(err, errlen, "bad function '%s'", q);
		return -1;
	}
	memcpy(f->name, s, len);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strcmp(f->name, named[i].name) == 0) {
			f->kind = named[i].kind;
			return 0;
		}
	}
	if (len > 1 && s[len - 1] == '%' && isc_parse_double(s, len - 1, &f->pct) &&
	    f->pct > 0 && f->pct < 100) {
		f->kind = ISC_F_PCT;
		return 0;
	}
	isc_quote_for_msg(s, len, q, sizeof(q));
	snprintf(err, errlen, "unknown function '%s' (expected count, min, max, avg, std, med,"
		 " min_index, max_index, or N%% with 0 < N < 100)", q);
	return -1;
}

int isc_funcs_parse(const char *list, struct isc_func **out, size_t *nout, char *err, size_t errlen)
{
	size_t n = 0, cap = 8;
	struct isc_func *f = isc_xmalloc(cap * sizeof(*f));
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && p[0] == ' ')
			p++, len--;
		while (len && p[len - 1] == ' ')
			len--;
		if (n == cap)
			f = isc_xrealloc(f, (cap *= 2) * sizeof(*f));
		if (parse_one_func(p, len, &f[n++], err, errlen) < 0) {
			free(f);
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = f;
	*nout = n;
	return 0;
}

void isc_hist_init(struct isc_hist *h, double lo, double hi, size_t nbins)
{
	memset(h, 0, sizeof(*h));
	h->lo = lo;
	h->hi = hi;
	h->nbins = nbins ? nbins : 1;
	h->counts = isc_xcalloc(h->nbins, sizeof(*h->counts));
}

/* Where v lies in [lo, hi] as a fraction, where hi - lo overflows (-1e308 to 1e308) or the bin
 * width underflows to 0 (a range of a few subnormals). */
static double span_fraction(const struct isc_hist *h, double v)
{
	double span = h->hi - h->lo;
	if (isfinite(span))
		return (v - h->lo) / span;
	return (v / 2 - h->lo / 2) / (h->hi / 2 - h->lo / 2);
}

double isc_hist_edge(const struct isc_hist *h, size_t b)
{
	const double width = (h->hi - h->lo) / (double)h->nbins, t = (double)b / (double)h->nbins;
	if (width > 0 && isfinite(width))
		return h->lo + width * (double)b;
	return h->hi > h->lo ? h->lo * (1 - t) + h->hi * t : h->lo;
}

void isc_hist_add(struct isc_hist *h, const double *vals, size_t n)
{
	const double width = (h->hi - h->lo) / (double)h->nbins;
	const int plain = (width > 0 && isfinite(width)) || !(h->hi > h->lo);
	for (size_t i = 0; i < n; i++) {
		double v = vals[i];
		if (isnan(v))
			continue;
		h->total++;
		if (v < h->lo) {
			h->under++;
		} else if (v > h->hi) {
			h->over++;
		} else {
			double pos = !plain ? span_fraction(h, v) * (double)h->nbins
				   : width > 0 ? (v - h->lo) / width : 0;
			size_t b = (size_t)pos;
			h->counts[b < h->nbins ? b : h->nbins - 1]++;
		}
	}
}

void isc_hist_free(struct isc_hist *h)
{
	free(h->counts);
	h->counts = NULL;
}
