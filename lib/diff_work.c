/*
 * The numbers of a comparison, one task per metric on up to all CPUs. Each run's column of a
 * metric is split into its groups in one pass (row order kept, so sums match `analyze stats`),
 * each group sorted once; the overall sample is the merge of the sorted groups. The tests then
 * walk pairs of sorted samples once.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff_internal.h"
#include "idlescope/sigtest.h"
#include "idlescope/util.h"

/* Merging more groups than this costs more than sorting the whole sample again. */
#define MAX_MERGE_GROUPS 16

struct diff_job {
	struct is_diff *d;
	struct diff_priv *pv;
	struct is_func *plain;   /* the functions that need no order statistics */
	size_t nplain;
	size_t maxrows;
	atomic_size_t next;      /* next metric */
};

struct sample {
	const double *x;         /* sorted */
	size_t n;
};

/* A worker's buffers: per run one for the group segments and one for the whole sample. */
struct bufs {
	double **seg, **all, *tmp;
	struct sample *views;    /* [part * nruns + run], part 0 = overall */
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

static bool is_order_stat(const struct is_func *f)
{
	return f->kind == IS_F_MED || f->kind == IS_F_PCT;
}

/* Sums, extremes and counts, from the values in row order (as analyze stats sums them). NaN
 * are skipped; without order statistics to select, scratch is not written. */
static void plain_values(const struct diff_job *j, const double *x, size_t n, double *scratch,
			 double *out)
{
	double plain[64];
	is_stats_compute(x, n, j->plain, j->nplain, plain, scratch);
	for (size_t f = 0, k = 0; f < j->d->nfuncs; f++)
		if (!is_order_stat(&j->d->funcs[f]))
			out[f] = plain[k++];
}

static void order_values(const struct diff_job *j, const double *sorted, size_t n, double *out)
{
	for (size_t f = 0; f < j->d->nfuncs; f++) {
		const struct is_func *fn = &j->d->funcs[f];
		if (is_order_stat(fn))
			out[f] = n ? is_quantile_sorted(sorted, n, fn->kind == IS_F_MED ? 0.5
										: fn->pct / 100)
				   : NAN;
	}
}

static void record(struct is_diff_part *p, size_t cell, const double *sorted, size_t n)
{
	p->nvals[cell] = n;
	p->medians[cell] = n ? is_quantile_sorted(sorted, n, 0.5) : NAN;
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
static void merge_all(const struct sample *s, size_t k, double *out, double *tmp)
{
	const struct sample *ne[MAX_MERGE_GROUPS];
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

static void compare(struct sample ref, struct sample x, struct is_diff_test *t)
{
	struct is_mw mw;
	struct is_ks ks;
	memset(t, 0, sizeof(*t));
	if (is_two_sample_tests(ref.x, ref.n, x.x, x.n, &mw, &ks) < 0)
		return;
	t->valid = true;
	t->mw_u = mw.u;
	t->mw_p = mw.p;
	t->mw_exact = mw.exact;
	t->ks_d = ks.d;
	t->ks_p = ks.p;
	t->ks_exact = ks.exact;
	t->med_diff = is_quantile_sorted(x.x, x.n, 0.5) - is_quantile_sorted(ref.x, ref.n, 0.5);
	is_median_diff_ci(ref.x, ref.n, x.x, x.n, IS_DIFF_CI_LEVEL, &t->ci_lo, &t->ci_hi);
	t->significant = t->mw_p < IS_DIFF_ALPHA && (t->ci_lo > 0 || t->ci_hi < 0);
}

/* Every group of run r for metric m: split off the column in one pass (NaN dropped, row order
 * kept), described, sorted in place in b->seg[r]. */
static void group_samples(struct diff_job *j, size_t m, size_t r, const double *col,
			  struct bufs *b)
{
	struct is_diff *d = j->d;
	const struct is_groups *rg = &j->pv->rg[r];
	const uint32_t *row_group = j->pv->row_group[r];
	const size_t *off = j->pv->seg_off[r];
	size_t nr = d->nruns, nrows = d->runs[r]->dp->nrows;
	size_t *fill = is_xmalloc((rg->ngroups + 1) * sizeof(size_t));
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
		struct is_diff_part *p = &d->groups[g];
		size_t cell = m * nr + r;
		plain_values(j, x, n, b->tmp, p->values + cell * d->nfuncs);
		is_sort_doubles(x, n, b->tmp);
		order_values(j, x, n, p->values + cell * d->nfuncs);
		record(p, cell, x, n);
		b->views[(g + 1) * nr + r] = (struct sample){ x, n };
	}
	free(fill);
}

static void metric_task(struct diff_job *j, size_t m, struct bufs *b)
{
	struct is_diff *d = j->d;
	size_t nr = d->nruns, ng = d->ngroups;
	for (size_t r = 0; r < nr; r++) {
		const double *col = is_table_col(d->runs[r]->dp, d->metrics[m])->num;
		size_t cell = m * nr + r;
		double *out = d->overall.values + cell * d->nfuncs;
		if (ng)
			group_samples(j, m, r, col, b);
		size_t nrows = d->runs[r]->dp->nrows, n = 0;
		plain_values(j, col, nrows, b->tmp, out);
		if (ng && ng <= MAX_MERGE_GROUPS) {  /* the groups split the rows: merge them */
			struct sample groups[MAX_MERGE_GROUPS];
			for (size_t g = 0; g < ng; g++) {
				groups[g] = b->views[(g + 1) * nr + r];
				n += groups[g].n;
			}
			merge_all(groups, ng, b->all[r], b->tmp);
		} else {
			n = gather(col, nrows, b->all[r]);
			is_sort_doubles(b->all[r], n, b->tmp);
		}
		order_values(j, b->all[r], n, out);
		record(&d->overall, cell, b->all[r], n);
		b->views[r] = (struct sample){ b->all[r], n };
	}
	for (size_t part = 0; part <= ng; part++) {
		struct is_diff_part *p = part ? &d->groups[part - 1] : &d->overall;
		for (size_t r = 1; r < nr; r++)
			compare(b->views[part * nr], b->views[part * nr + r], &p->tests[m * nr + r]);
	}
}

static void *worker(void *arg)
{
	struct diff_job *j = arg;
	size_t nr = j->d->nruns, cap = j->maxrows ? j->maxrows : 1;
	is_oom_context("comparing %zu runs", nr);
	struct bufs b = {
		.seg = is_xcalloc(nr, sizeof(double *)),
		.all = is_xcalloc(nr, sizeof(double *)),
		.tmp = is_xmalloc(cap * sizeof(double)),
		.views = is_xcalloc((j->d->ngroups + 1) * nr, sizeof(struct sample)),
	};
	for (size_t r = 0; r < nr; r++) {
		b.all[r] = is_xmalloc(cap * sizeof(double));
		b.seg[r] = j->d->ngroups ? is_xmalloc(cap * sizeof(double)) : NULL;
	}
	for (size_t m; (m = atomic_fetch_add(&j->next, 1)) < j->d->nmetrics;)
		metric_task(j, m, &b);
	for (size_t r = 0; r < nr; r++) {
		free(b.all[r]);
		free(b.seg[r]);
	}
	free(b.seg);
	free(b.all);
	free(b.tmp);
	free(b.views);
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

void diff_compute_all(struct is_diff *d, struct diff_priv *pv, int nthreads)
{
	struct diff_job j = { .d = d, .pv = pv };
	j.plain = is_xcalloc(d->nfuncs + 1, sizeof(struct is_func));
	for (size_t f = 0; f < d->nfuncs; f++)
		if (!is_order_stat(&d->funcs[f]))
			j.plain[j.nplain++] = d->funcs[f];
	for (size_t r = 0; r < d->nruns; r++) {
		d->overall.rows[r] = d->runs[r]->dp->nrows;
		j.maxrows = d->runs[r]->dp->nrows > j.maxrows ? d->runs[r]->dp->nrows : j.maxrows;
		for (size_t g = 0; g < d->ngroups; g++) {
			long k = pv->gmap[g * d->nruns + r];
			d->groups[g].rows[r] = k >= 0 ? pv->rg[r].counts[k] : 0;
		}
	}
	atomic_init(&j.next, 0);
	run_workers(&j, nthreads);
	free(j.plain);
}
