/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The numbers of a comparison, one task per metric on up to all CPUs. Each run's column of a
 * metric is split into its groups in one pass (row order kept, so sums match `analyze stats`),
 * each group sorted once; the overall sample is the merge of the sorted groups. A configuration
 * of several runs pools them by merging their sorted samples. The tests then walk pairs of
 * sorted samples once; the run-level test reads each run's quantiles, the block bootstrap of a
 * configuration of one run its values in collection order.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff/diff_count.h"
#include "diff/diff_internal.h"
#include "stats/runtest.h"
#include "stats/sigtest.h"
#include "cache/cache.h"
#include "text/util.h"

/* Merging more groups than this costs more than sorting the whole sample again. */
#define MAX_MERGE_GROUPS 16

struct diff_job {
	struct isc_diff *d;
	struct diff_priv *pv;
	size_t maxrows;          /* the largest run */
	size_t maxcrows;         /* the largest configuration (all its runs) */
	atomic_size_t next;      /* next metric */
};


/* A worker's buffers: per run one for the group segments and one for the whole sample; the
 * same per configuration of several runs (pooled); collection-order copies for the bootstrap. */
struct bufs {
	double **seg, **all, *tmp;
	double **pseg, **pall;   /* [config], NULL for a configuration of one run */
	double *rows_a, *rows_b; /* a configuration's values in collection order */
	double *rvals;           /* [(part * nruns + run) * nfuncs]: each run's values */
	double *rmom;            /* [(part * nruns + run) * NMOM]: each run's moments */
	struct diff_sample *views;    /* [part * nruns + run], part 0 = overall */
	struct diff_sample *cviews;   /* [part * nconfigs + config] */
	struct isc_colcount cc;       /* a packed metric's codes counted (diff_count.h) */
};

/* col[0..n) without NaN. */
static size_t gather(const double *col, size_t n, double *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		double v = col[i];
		if (!isnan(v))
			out[m++] = v;
	}
	return m;
}

static bool is_order_stat(const struct isc_func *f)
{
	return f->kind == ISC_F_MED || f->kind == ISC_F_PCT;
}

/* The moments every run gets, whatever --funcs asks (diff_internal.h's MOM_*). */
static const struct isc_func moments[NMOM] = {
	{ .kind = ISC_F_COUNT }, { .kind = ISC_F_MIN }, { .kind = ISC_F_MAX }, { .kind = ISC_F_AVG },
	{ .kind = ISC_F_STD },
};

/* The functions that need no order statistics, from the moments. */
static void plain_from_moments(const struct diff_job *j, const double *mom, double *out)
{
	for (size_t f = 0; f < j->d->nfuncs; f++) {
		enum isc_func_kind k = j->d->funcs[f].kind;
		if (!is_order_stat(&j->d->funcs[f]))
			out[f] = mom[k == ISC_F_COUNT ? MOM_COUNT : k == ISC_F_MIN ? MOM_MIN
				     : k == ISC_F_MAX ? MOM_MAX : k == ISC_F_AVG ? MOM_AVG : MOM_STD];
	}
}

/* Sums, extremes and counts, from the values in row order (as analyze stats sums them), into
 * mom[NMOM] and out. NaN are skipped; scratch is not written (no order statistics). */
static void plain_values(const struct diff_job *j, const double *x, size_t n, double *scratch,
			 double *mom, double *out)
{
	isc_stats_compute(x, n, moments, NMOM, mom, scratch);
	plain_from_moments(j, mom, out);
}

static void order_values(const struct diff_job *j, const double *sorted, size_t n, double *out)
{
	for (size_t f = 0; f < j->d->nfuncs; f++) {
		const struct isc_func *fn = &j->d->funcs[f];
		if (is_order_stat(fn))
			out[f] = n ? isc_quantile_sorted(sorted, n, fn->kind == ISC_F_MED ? 0.5
										: fn->pct / 100)
				   : NAN;
	}
}

static void merge2(const double *a, size_t na, const double *b, size_t nb, double *out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = b[j] < a[i] ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/* Merge the non-empty sorted samples s[0..k) into out, using tmp; the result ends in out. */
static void merge_all(const struct diff_sample *s, size_t k, double *out, double *tmp)
{
	const struct diff_sample *ne[MAX_MERGE_GROUPS];
	size_t nne = 0, len;
	for (size_t i = 0; i < k; i++)
		if (s[i].n)
			ne[nne++] = &s[i];
	if (nne == 0)
		return;
	/* nne - 1 merges alternate between out and tmp: start where the last one lands in out */
	double *dst = (nne - 1) % 2 ? out : tmp, *other = dst == out ? tmp : out;
	const double *src = ne[0]->x;
	len = ne[0]->n;
	if (nne == 1) {
		memcpy(out, src, len * sizeof(double));
		return;
	}
	for (size_t i = 1; i < nne; i++) {
		merge2(src, len, ne[i]->x, ne[i]->n, dst);
		len += ne[i]->n;
		src = dst;
		double *t = dst;
		dst = other;
		other = t;
	}
}

/* A configuration's values of metric m in part (0 = all, else group part - 1), collection
 * order, run after run, NaN left out. Returns how many. A packed column's rows are decoded
 * or gathered into out itself, then the NaN squeezed out in place. */
static size_t rows_of(const struct diff_job *j, size_t part, size_t m, size_t c, double *out)
{
	const struct isc_diff *d = j->d;
	const struct isc_diff_config *k = &d->configs[c];
	size_t n = 0;
	for (size_t i = 0; i < k->nruns; i++) {
		size_t r = k->runs[i];
		const struct isc_table *t = d->runs[r]->dp;
		const struct isc_column *col = isc_table_col(t, d->metrics[m]);
		if (part == 0) {
			n += gather(isc_col_values(col, 0, t->nrows, out + n), t->nrows, out + n);
			continue;
		}
		long g = j->pv->gmap[(part - 1) * d->nruns + r];
		if (g < 0)
			continue;
		const struct isc_groups *rg = &j->pv->rg[r];
		isc_col_gather(col, rg->rows[g], rg->counts[g], out + n);
		n += gather(out + n, rg->counts[g], out + n);
	}
	return n;
}

/* The runs' values of quantile k of configuration c, with their within-run variances;
 * false when a run lacks the value. A run's own order-statistic variance is noisy (a dozen
 * order statistics in a tail) and grows with its value in a skewed sample, which would pull
 * the weighted mean down; so the configuration's variance per value, the mean of se^2 * n
 * over its runs, is shared and each run's variance is that divided by its values n. */
static bool run_values(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t c,
		       size_t k, double *y, double *v)
{
	const struct isc_diff_config *x = &d->configs[c];
	double unit = 0;
	bool all = true;
	for (size_t i = 0; i < x->nruns; i++) {
		size_t at = (m * d->nruns + x->runs[i]) * ISC_DIFF_NQ + k;
		all &= !isnan(y[i] = p->run_q[at]);
		unit += p->run_se[at] * p->run_se[at] * (double)p->run_n[m * d->nruns + x->runs[i]];
	}
	for (size_t i = 0; i < x->nruns; i++)
		v[i] = unit / (double)x->nruns / (double)p->run_n[m * d->nruns + x->runs[i]];
	return all;
}

/* Each run's med, 99%, 99.9% combined per configuration by precision (verdict.h) and
 * compared; a function some run lacks is not tested. The family settles the answers later. */
static void run_level(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t c,
		      struct isc_diff_test *t)
{
	size_t na = d->configs[0].nruns, nb = d->configs[c].nruns;
	double *y = isc_xmalloc(2 * (na + nb) * sizeof(double)), *v = y + na + nb;
	for (size_t k = 0; k < ISC_DIFF_NQ; k++) {
		struct isc_diff_qtest *q = &t->q[k];
		struct isc_re_mean a, b;
		*q = (struct isc_diff_qtest){ .diff = NAN, .ci_lo = NAN, .ci_hi = NAN, .p = NAN,
					     .df = NAN };
		if (!run_values(d, p, m, 0, k, y, v) || !run_values(d, p, m, c, k, y + na, v + na))
			continue;
		isc_re_mean(y, v, na, &a);
		isc_re_mean(y + na, v + na, nb, &b);
		isc_verdict_compare(&a, &b, ISC_DIFF_CI_LEVEL, &q->v);
		q->valid = true;
		q->diff = q->v.diff;
		q->ci_lo = q->v.lo;
		q->ci_hi = q->v.hi;
		q->p = q->v.p;
		q->df = q->v.df;
	}
	free(y);
	t->med_diff = t->q[0].diff;
	t->ci_lo = t->q[0].ci_lo;
	t->ci_hi = t->q[0].ci_hi;
}

static void compare(struct diff_job *j, size_t part, size_t m, size_t c, struct bufs *b)
{
	struct isc_diff *d = j->d;
	struct isc_diff_part *p = part ? &d->groups[part - 1] : &d->overall;
	struct isc_diff_test *t = &p->tests[m * d->nconfigs + c];
	struct diff_sample ref = b->cviews[part * d->nconfigs], x = b->cviews[part * d->nconfigs + c];
	struct isc_mw mw;
	struct isc_ks ks;
	memset(t, 0, sizeof(*t));
	if (ref.n == 0 || x.n == 0)
		return;
	t->valid = true;
	t->rep_ref = d->configs[0].nruns;
	t->rep = d->configs[c].nruns;
	if (t->rep_ref >= 2 && t->rep >= 2) {
		/* the pooled datapoints are not independent: no datapoint-level tests on them */
		t->level = ISC_LEVEL_RUN;
		t->method = "random-effects-runs";
		t->mw_u = t->mw_p = t->ks_d = t->ks_p = NAN;
		run_level(d, p, m, c, t);
		return;
	}
	isc_two_sample_tests(ref.x, ref.n, x.x, x.n, &mw, &ks);
	t->mw_u = mw.u;
	t->mw_p = mw.p;
	t->mw_exact = mw.exact;
	t->ks_d = ks.d;
	t->ks_p = ks.p;
	t->ks_exact = ks.exact;
	t->level = ISC_LEVEL_DATAPOINT;
	t->method = "block-bootstrap";
	for (size_t k = 0; k < ISC_DIFF_NQ; k++)
		t->q[k] = (struct isc_diff_qtest){ .diff = NAN, .ci_lo = NAN, .ci_hi = NAN, .p = NAN,
						  .df = NAN };
	t->med_diff = isc_quantile_sorted(x.x, x.n, 0.5) - isc_quantile_sorted(ref.x, ref.n, 0.5);
	size_t na = rows_of(j, part, m, 0, b->rows_a), nb = rows_of(j, part, m, c, b->rows_b);
	isc_block_boot_median_ci(b->rows_a, ref.x, na, b->rows_b, x.x, nb, ISC_DIFF_CI_LEVEL, b->tmp,
				&t->ci_lo, &t->ci_hi);
	t->differs = t->mw_p < ISC_DIFF_ALPHA && (t->ci_lo > 0 || t->ci_hi < 0);
}

/* Every group of run r for packed metric c: as group_samples, each group's rows gathered
 * and their codes counted, sorted from the counts. */
static void group_samples_counted(struct diff_job *j, size_t r, const struct isc_column *c,
				  struct bufs *b)
{
	struct isc_diff *d = j->d;
	const struct isc_groups *rg = &j->pv->rg[r];
	size_t nr = d->nruns;
	for (size_t g = 0; g < d->ngroups; g++) {
		long k = j->pv->gmap[g * nr + r];
		double *x = k >= 0 ? b->seg[r] + j->pv->seg_off[r][k] : b->seg[r];
		size_t n = k >= 0 ? diff_count_rows(&b->cc, c, rg->rows[k], rg->counts[k], x) : 0;
		double *out = b->rvals + ((g + 1) * nr + r) * d->nfuncs;
		plain_values(j, x, n, b->tmp, b->rmom + ((g + 1) * nr + r) * NMOM, out);
		if (k >= 0 && !diff_count_sorted(&b->cc, n, x))
			isc_sort_doubles(x, n, b->tmp);
		order_values(j, x, n, out);
		b->views[(g + 1) * nr + r] = (struct diff_sample){ x, n };
	}
}

/* Every group of run r for metric m: split off the column in one pass (NaN dropped, row order
 * kept), described into b->rvals, sorted in place in b->seg[r]. */
static void group_samples(struct diff_job *j, size_t r, const double *col, struct bufs *b)
{
	struct isc_diff *d = j->d;
	const struct isc_groups *rg = &j->pv->rg[r];
	const uint32_t *row_group = j->pv->row_group[r];
	const size_t *off = j->pv->seg_off[r];
	size_t nr = d->nruns, nrows = d->runs[r]->dp->nrows;
	size_t *fill = isc_xmalloc((rg->ngroups + 1) * sizeof(size_t));
	double *seg = b->seg[r];
	memcpy(fill, off, rg->ngroups * sizeof(size_t));
	for (size_t i = 0; i < nrows; i++) {
		double v = col[i];
		if (!isnan(v))
			seg[fill[row_group[i]]++] = v;
	}
	for (size_t g = 0; g < d->ngroups; g++) {
		long k = j->pv->gmap[g * nr + r];
		double *x = k >= 0 ? seg + off[k] : seg;
		size_t n = k >= 0 ? fill[k] - off[k] : 0;
		double *out = b->rvals + ((g + 1) * nr + r) * d->nfuncs;
		plain_values(j, x, n, b->tmp, b->rmom + ((g + 1) * nr + r) * NMOM, out);
		isc_sort_doubles(x, n, b->tmp);
		order_values(j, x, n, out);
		b->views[(g + 1) * nr + r] = (struct diff_sample){ x, n };
	}
	free(fill);
}

/* Part (0 = all rows, else group part - 1) of run r from the run cache (lib/cache): its
 * sorted values and moments. A group with some empty cells is not taken: its moments here
 * are over the values alone, the cache's over the rows. */
static bool cached_part(const struct diff_job *j, size_t m, size_t r, size_t part,
			struct isc_cache_sample *s)
{
	const struct isc_diff *d = j->d;
	long k = part ? j->pv->gmap[(part - 1) * d->nruns + r] : 0;
	static const double none[1];
	if (k < 0) {  /* not in this run */
		*s = (struct isc_cache_sample){ .x = none, .mom = { 0, NAN, NAN, NAN, NAN } };
		return true;
	}
	const char *label = part ? j->pv->rg[r].labels[k] : NULL;
	return isc_cache_sample(d->runs[r]->dp, d->group_col, label, d->metrics[m], s) &&
	       (!part || s->n == s->rows || s->n == 0);
}

/* Run r's samples of metric m from the run cache, when it has every part of them. */
static bool cached_samples(struct diff_job *j, size_t m, size_t r, struct bufs *b)
{
	struct isc_diff *d = j->d;
	size_t nr = d->nruns;
	struct isc_cache_sample s;
	for (size_t part = 0; part <= d->ngroups; part++)
		if (!cached_part(j, m, r, part, &s))
			return false;
	for (size_t part = 0; part <= d->ngroups; part++) {
		cached_part(j, m, r, part, &s);
		double *mom = b->rmom + (part * nr + r) * NMOM, *out = b->rvals + (part * nr + r) * d->nfuncs;
		memcpy(mom, s.mom, sizeof(s.mom));
		plain_from_moments(j, mom, out);
		order_values(j, s.x, s.n, out);
		b->views[part * nr + r] = (struct diff_sample){ s.x, s.n };
	}
	return true;
}

/* Run r's whole sample of packed metric c into b->all[r], sorted from counts of its codes:
 * false (b->all[r] untouched) when they cannot give what run_sample does otherwise: not an
 * exact order (a zero exception: a sort puts -0 first, a merge of groups keeps either order)
 * or not the values its groups hold. */
static bool sorted_by_count(struct diff_job *j, size_t r, const struct isc_column *c, struct bufs *b,
			    size_t *n)
{
	const struct isc_diff *d = j->d;
	size_t ng = d->ngroups, in_groups = 0;
	*n = diff_count_all(&b->cc, c, d->runs[r]->dp->nrows);
	for (size_t g = 0; ng <= MAX_MERGE_GROUPS && g < ng; g++)
		in_groups += b->views[(g + 1) * d->nruns + r].n;
	if ((ng && ng <= MAX_MERGE_GROUPS && in_groups != *n) || !diff_count_sorted(&b->cc, *n, b->all[r])) {
		*n = 0;
		return false;
	}
	return true;
}

/* Run r's whole sample of metric m, sorted (the merge of its groups when there are few). */
static void run_sample(struct diff_job *j, size_t m, size_t r, struct bufs *b)
{
	struct isc_diff *d = j->d;
	if (cached_samples(j, m, r, b))
		return;
	size_t nr = d->nruns, ng = d->ngroups, nrows = d->runs[r]->dp->nrows, n = 0;
	const struct isc_column *c = isc_table_col(d->runs[r]->dp, d->metrics[m]);
	bool counted = diff_count_applies(c, nrows);
	/* a packed column is decoded into the run's sample buffer, which it becomes below */
	const double *col = isc_col_values(c, 0, nrows, b->all[r]);
	double *out = b->rvals + r * d->nfuncs;
	if (ng && counted)
		group_samples_counted(j, r, c, b);
	else if (ng)
		group_samples(j, r, col, b);
	plain_values(j, col, nrows, b->tmp, b->rmom + r * NMOM, out);
	if (counted && sorted_by_count(j, r, c, b, &n)) {
		/* col was b->all[r], now sorted */
	} else if (ng && ng <= MAX_MERGE_GROUPS) {  /* the groups split the rows: merge them */
		struct diff_sample groups[MAX_MERGE_GROUPS];
		for (size_t g = 0; g < ng; g++) {
			groups[g] = b->views[(g + 1) * nr + r];
			n += groups[g].n;
		}
		merge_all(groups, ng, b->all[r], b->tmp);
	} else {
		n = gather(col, nrows, b->all[r]);
		isc_sort_doubles(b->all[r], n, b->tmp);
	}
	order_values(j, b->all[r], n, out);
	b->views[r] = (struct diff_sample){ b->all[r], n };
}

/* Each run's med, 99%, 99.9% in every part; NaN when the run has too few values for it. */
static void record_run_q(struct isc_diff *d, size_t m, const struct bufs *b)
{
	for (size_t part = 0; part <= d->ngroups; part++) {
		struct isc_diff_part *p = part ? &d->groups[part - 1] : &d->overall;
		for (size_t r = 0; r < d->nruns; r++) {
			struct diff_sample v = b->views[part * d->nruns + r];
			p->run_n[m * d->nruns + r] = v.n;
			for (size_t k = 0; k < ISC_DIFF_NQ; k++) {
				double q = isc_diff_q[k];
				size_t need = k ? (size_t)llround(ISC_DIFF_TAIL_MIN / (1 - q)) : 1;
				size_t at = (m * d->nruns + r) * ISC_DIFF_NQ + k;
				p->run_q[at] = v.n >= need ? isc_quantile_sorted(v.x, v.n, q) : NAN;
				p->run_se[at] = v.n >= need ? isc_quantile_se_sorted(v.x, v.n, q) : NAN;
			}
		}
	}
}

/* Sorted samples s[0..k) pooled into out (sorted): merged, or sorted again when many. */
static size_t pool(const struct diff_sample *s, size_t k, double *out, double *tmp)
{
	size_t n = 0, nonempty = 0;
	for (size_t i = 0; i < k; i++) {
		nonempty += s[i].n > 0;
		n += s[i].n;
	}
	if (nonempty <= MAX_MERGE_GROUPS) {
		merge_all(s, k, out, tmp);
		return n;
	}
	for (size_t i = 0, at = 0; i < k; at += s[i].n, i++)
		memcpy(out + at, s[i].x, s[i].n * sizeof(double));
	isc_sort_doubles(out, n, tmp);
	return n;
}

/* Whether configuration c's runs must be pooled into one sorted sample: for a datapoint-level
 * comparison (the Mann-Whitney and KS tests walk the pooled samples). */
static bool needs_pool(const struct isc_diff *d, size_t c)
{
	if (d->configs[c].nruns < 2)
		return false;
	if (c > 0)
		return d->configs[0].nruns < 2;
	for (size_t k = 1; k < d->nconfigs; k++)
		if (d->configs[k].nruns < 2)
			return true;
	return false;
}

/* Configuration c of several runs in one part: moments combined, quantiles selected from the
 * union of the runs' sorted samples (merged into dst only when a test needs them pooled). */
static struct diff_sample pool_part(struct diff_job *j, size_t part, size_t c, struct bufs *b,
			       double *dst, double *out, double *median)
{
	const struct isc_diff *d = j->d;
	const struct isc_diff_config *k = &d->configs[c];
	size_t nr = d->nruns, n = 0;
	struct diff_sample *runs = isc_xmalloc((k->nruns + 1) * sizeof(struct diff_sample));
	const double **mom = isc_xmalloc((k->nruns + 1) * sizeof(double *));
	double pooled[NMOM];
	for (size_t i = 0; i < k->nruns; i++) {
		runs[i] = b->views[part * nr + k->runs[i]];
		mom[i] = b->rmom + (part * nr + k->runs[i]) * NMOM;
		n += runs[i].n;
	}
	diff_combine_moments(mom, k->nruns, pooled);
	plain_from_moments(j, pooled, out);
	struct diff_sample v = { NULL, n };
	if (dst) {
		pool(runs, k->nruns, dst, b->tmp);
		v.x = dst;
		order_values(j, dst, n, out);
		*median = isc_quantile_sorted(dst, n, 0.5);
	} else {
		*median = diff_union_quantile(runs, k->nruns, n, 0.5);
		for (size_t f = 0; f < d->nfuncs; f++)
			if (is_order_stat(&d->funcs[f]))
				out[f] = diff_union_quantile(runs, k->nruns, n, d->funcs[f].kind == ISC_F_MED
						       ? 0.5 : d->funcs[f].pct / 100);
	}
	free(runs);
	free(mom);
	return v;
}

/* Configuration c in every part: its one run's numbers, or its runs pooled. */
static void config_samples(struct diff_job *j, size_t m, size_t c, struct bufs *b)
{
	struct isc_diff *d = j->d;
	const struct isc_diff_config *k = &d->configs[c];
	size_t nr = d->nruns, nc = d->nconfigs, at = 0;
	bool merge = needs_pool(d, c);
	for (size_t part = 0; part <= d->ngroups; part++) {
		struct isc_diff_part *p = part ? &d->groups[part - 1] : &d->overall;
		size_t cell = m * nc + c;
		double *out = p->values + cell * d->nfuncs;
		struct diff_sample v;
		double median;
		if (k->nruns == 1) {
			v = b->views[part * nr + k->runs[0]];
			memcpy(out, b->rvals + (part * nr + k->runs[0]) * d->nfuncs,
			       d->nfuncs * sizeof(double));
			median = v.n ? isc_quantile_sorted(v.x, v.n, 0.5) : NAN;
		} else {
			double *dst = !merge ? NULL : part ? b->pseg[c] + at : b->pall[c];
			v = pool_part(j, part, c, b, dst, out, &median);
			at += part ? v.n : 0;
		}
		p->nvals[cell] = v.n;
		p->medians[cell] = median;
		b->cviews[part * nc + c] = v;
	}
}

static void metric_task(struct diff_job *j, size_t m, struct bufs *b)
{
	struct isc_diff *d = j->d;
	for (size_t r = 0; r < d->nruns; r++)
		run_sample(j, m, r, b);
	record_run_q(d, m, b);
	for (size_t c = 0; c < d->nconfigs; c++)
		config_samples(j, m, c, b);
	for (size_t part = 0; part <= d->ngroups; part++)
		for (size_t c = 1; c < d->nconfigs; c++)
			compare(j, part, m, c, b);
}

static struct bufs bufs_alloc(const struct diff_job *j)
{
	const struct isc_diff *d = j->d;
	size_t nr = d->nruns, nc = d->nconfigs, parts = d->ngroups + 1;
	size_t cap = j->maxrows ? j->maxrows : 1, ccap = j->maxcrows ? j->maxcrows : 1;
	struct bufs b = {
		.seg = isc_xcalloc(nr, sizeof(double *)),
		.all = isc_xcalloc(nr, sizeof(double *)),
		.pseg = isc_xcalloc(nc, sizeof(double *)),
		.pall = isc_xcalloc(nc, sizeof(double *)),
		.tmp = isc_xmalloc(ccap * sizeof(double)),
		.rows_a = isc_xmalloc(ccap * sizeof(double)),
		.rows_b = isc_xmalloc(ccap * sizeof(double)),
		.rvals = isc_xcalloc(parts * nr * d->nfuncs + 1, sizeof(double)),
		.rmom = isc_xcalloc(parts * nr * NMOM, sizeof(double)),
		.views = isc_xcalloc(parts * nr, sizeof(struct diff_sample)),
		.cviews = isc_xcalloc(parts * nc, sizeof(struct diff_sample)),
	};
	for (size_t r = 0; r < nr; r++) {
		b.all[r] = isc_xmalloc(cap * sizeof(double));
		b.seg[r] = d->ngroups ? isc_xmalloc(cap * sizeof(double)) : NULL;
	}
	for (size_t c = 0; c < nc; c++) {
		size_t rows = 0;
		for (size_t i = 0; i < d->configs[c].nruns; i++)
			rows += d->runs[d->configs[c].runs[i]]->dp->nrows;
		if (!needs_pool(d, c))
			continue;
		b.pall[c] = isc_xmalloc(rows * sizeof(double));
		b.pseg[c] = d->ngroups ? isc_xmalloc(rows * sizeof(double)) : NULL;
	}
	return b;
}

static void bufs_free(struct bufs *b, size_t nr, size_t nc)
{
	for (size_t r = 0; r < nr; r++) {
		free(b->all[r]);
		free(b->seg[r]);
	}
	for (size_t c = 0; c < nc; c++) {
		free(b->pall[c]);
		free(b->pseg[c]);
	}
	free(b->seg);
	free(b->all);
	free(b->pseg);
	free(b->pall);
	free(b->tmp);
	free(b->rows_a);
	free(b->rows_b);
	free(b->rvals);
	free(b->rmom);
	free(b->views);
	free(b->cviews);
	if (b->cc.counts)
		isc_colcount_free(&b->cc);
}

static void *worker(void *arg)
{
	struct diff_job *j = arg;
	isc_oom_context("comparing %zu runs", j->d->nruns);
	struct bufs b = bufs_alloc(j);
	for (size_t m; (m = atomic_fetch_add(&j->next, 1)) < j->d->nmetrics;)
		metric_task(j, m, &b);
	bufs_free(&b, j->d->nruns, j->d->nconfigs);
	return NULL;
}

static void run_workers(struct diff_job *j, int nthreads)
{
	pthread_t tid[16];
	int started = 0;
	long ncpu = nthreads > 0 ? nthreads : sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 16)
		ncpu = 16;
	if (j->maxrows < 50000)  /* threads do not pay for small inputs */
		ncpu = 1;
	for (long i = 1; i < ncpu && (size_t)i < j->d->nmetrics; i++)
		if (pthread_create(&tid[started], NULL, worker, j) == 0)
			started++;
	worker(j);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

const double isc_diff_q[ISC_DIFF_NQ] = { 0.5, 0.99, 0.999 };
const char *const isc_diff_q_name[ISC_DIFF_NQ] = { "med", "99%", "99.9%" };

/* Datapoints per part of every run and every configuration. */
static void count_rows(struct isc_diff *d, const struct diff_priv *pv)
{
	for (size_t r = 0; r < d->nruns; r++) {
		size_t c = d->config_of[r];
		d->overall.run_rows[r] = d->runs[r]->dp->nrows;
		d->overall.rows[c] += d->runs[r]->dp->nrows;
		for (size_t g = 0; g < d->ngroups; g++) {
			long k = pv->gmap[g * d->nruns + r];
			d->groups[g].run_rows[r] = k >= 0 ? pv->rg[r].counts[k] : 0;
			d->groups[g].rows[c] += d->groups[g].run_rows[r];
		}
	}
}

void diff_compute_all(struct isc_diff *d, struct diff_priv *pv, int nthreads)
{
	struct diff_job j = { .d = d, .pv = pv };
	count_rows(d, pv);
	for (size_t r = 0; r < d->nruns; r++)
		j.maxrows = d->runs[r]->dp->nrows > j.maxrows ? d->runs[r]->dp->nrows : j.maxrows;
	for (size_t c = 0; c < d->nconfigs; c++)
		j.maxcrows = d->overall.rows[c] > j.maxcrows ? d->overall.rows[c] : j.maxcrows;
	atomic_init(&j.next, 0);
	run_workers(&j, nthreads);
}
