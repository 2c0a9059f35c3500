/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats: statistics of every metric, overall and per group, over two threads. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/cache.h"
#include "table/colpack.h"
#include "text/util.h"
#include "stats_count.h"
#include "stats_result.h"

struct job {
	struct stats_result *r;
	bool *zeros;             /* per metric: a packed column whose every row is +0 */
	size_t ntasks;           /* nmetrics * (1 + ngroups) */
	size_t *order;           /* the tasks, the costliest first */
	atomic_size_t next;
};

static bool wants_index(const struct stats_result *r)
{
	for (size_t i = 0; i < r->nfuncs; i++)
		if (r->funcs[i].kind == ISC_F_MIN_INDEX || r->funcs[i].kind == ISC_F_MAX_INDEX)
			return true;
	return false;
}

/* A column's values, packed or not, read a piece at a time (all rows, or a group's). */
struct col_rows {
	const struct isc_column *c;
	const size_t *rows;   /* NULL: all rows */
};

static const double *col_rows_get(void *ctx, size_t from, size_t n, double *buf)
{
	const struct col_rows *cr = ctx;
	if (!cr->rows)
		return isc_col_values(cr->c, from, n, buf);
	isc_col_gather(cr->c, cr->rows + from, n, buf);
	return buf;
}

/* A group of up to COPY_MAX rows is copied into a worker's buffer (one gathering, then passes
 * over the copy); a bigger group is read in pieces through a source (a gathering per pass,
 * but no copy: 80 MB a worker at 10 M rows, the difference between 569 and 730 MB). All rows
 * of a column are always read through a source: their passes decode in order, and a copy of
 * 8 MB fresh pages a worker cost more than a second decoding (docs/performance.md). */
#define COPY_MAX ((size_t)1 << 20)

/* The bound, or IDLESCOPE_COPY_MAX: the tests take the paths above it with a small file. */
static size_t copy_max(void)
{
	const char *e = getenv("IDLESCOPE_COPY_MAX");
	char *end;
	unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
	return v && !*end ? (size_t)v : COPY_MAX;
}

/* A worker's memory, grown to what its tasks need (pages are touched only as far as used):
 * buf for a group's values, codes for a bigger group's codes (group_view). */
struct worker_mem {
	size_t copy_max;
	double *buf;
	size_t buf_bytes;
	void *codes;
	size_t codes_bytes;
};

/* mem grown to need bytes; other (the worker's other buffer) freed, so that a worker holds
 * one of them at a time (10 M rows: 8 MB of values or up to 20 MB of codes, not both). */
static void *room(void **mem, size_t *have, size_t need, void **other, size_t *other_have)
{
	free(*other);
	*other = NULL;
	*other_have = 0;
	if (*have < need) {
		free(*mem);  /* nothing in it is kept from one task to the next */
		*mem = isc_xmalloc(need);
		*have = need;
	}
	return *mem;
}

/* Above COPY_MAX, a group of a 1- or 2-byte packed column as a column of its own (its codes
 * copied in order), so that each pass decodes codes in order instead of gathering them
 * through the row list (at 10 M rows a group task took 17 to 21 times its 1 M time, now
 * 17 to 18). */
static bool group_view(const struct col_rows *cr, size_t n, struct worker_mem *wm, struct isc_colpack *view)
{
	const struct isc_colpack *pk = cr->c->packed;
	if (!pk || pk->width > 2 || pk->nx)
		return false;
	void *mem = room(&wm->codes, &wm->codes_bytes, n * pk->width, (void **)&wm->buf, &wm->buf_bytes);
	return isc_colpack_view_rows(pk, cr->rows, n, mem, view);
}

static void compute_group_copy(const struct stats_result *r, const struct col_rows *cr, size_t n, double *out,
			       struct worker_mem *wm, struct stats_count *sc)
{
	double *buf = room((void **)&wm->buf, &wm->buf_bytes, (n + 1) * sizeof(double), &wm->codes,
			   &wm->codes_bytes);
	struct isc_rank_answer answer;
	const struct isc_rank_answer *ra = stats_count_answer(sc, cr->c, cr->rows, n, &answer);
	if (ra)
		stats_count_gather(sc, buf);  /* counted on the way */
	else
		col_rows_get((void *)cr, 0, n, buf);
	isc_stats_compute_inplace_ranked(buf, n, r->funcs, r->nfuncs, out, ra);
}

static void compute_task(const struct stats_result *r, const struct col_rows *cr, size_t n, double *out,
			 struct worker_mem *wm, struct stats_count *sc)
{
	struct isc_colpack view;
	struct isc_column vcol;
	struct col_rows vrows;
	if (cr->rows && n <= wm->copy_max) {
		compute_group_copy(r, cr, n, out, wm, sc);
		return;
	}
	if (cr->rows && group_view(cr, n, wm, &view)) {
		vcol = *cr->c;
		vcol.packed = &view;
		vrows = (struct col_rows){ &vcol, NULL };
		cr = &vrows;
	}
	const struct isc_value_source src = { col_rows_get, (void *)cr };
	struct isc_rank_answer answer;
	const struct isc_rank_answer *ra = stats_count_answer(sc, cr->c, cr->rows, n, &answer);
	isc_stats_compute_source_ranked(&src, n, r->funcs, r->nfuncs, out, ra);
}

static void run_task(struct stats_result *r, const bool *zeros, size_t task, struct worker_mem *wm,
		     struct stats_count *sc)
{
	size_t m = task % r->nmetrics, g = task / r->nmetrics;  /* g == 0: overall */
	const struct isc_column *c = isc_table_col(r->run->dp, r->metrics[m]);
	const char *group = g ? r->groups.labels[g - 1] : NULL;
	double *out = g ? r->by_group + ((g - 1) * r->nmetrics + m) * r->nfuncs
			: r->overall + m * r->nfuncs;
	size_t n = g ? r->groups.counts[g - 1] : r->run->dp->nrows;
	/* a group of every row (one idle state requested) is read as all rows: no gathering */
	struct col_rows cr = { c, g && n != r->run->dp->nrows ? r->groups.rows[g - 1] : NULL };
	if (zeros[m])
		isc_stats_of_zeros(n, r->funcs, r->nfuncs, out);  /* no pass over the rows */
	else if (!isc_cache_stats(r->run->dp, r->group_col, group, r->metrics[m], r->funcs, r->nfuncs, out))
		compute_task(r, &cr, n, out, wm, sc);
	if (wants_index(r))
		isc_stats_fill_index(c->num, cr.rows, n, r->funcs, r->nfuncs, out);
}

static void *worker(void *arg)
{
	struct job *j = arg;
	isc_oom_context("computing the statistics of %s", j->r->run->dp_path);
	struct worker_mem wm = { .copy_max = copy_max() };
	struct stats_count sc = { 0 };
	for (size_t t; (t = atomic_fetch_add(&j->next, 1)) < j->ntasks;)
		run_task(j->r, j->zeros, j->order[t], &wm, &sc);
	stats_count_free(&sc);
	free(wm.buf);
	free(wm.codes);
	return NULL;
}

/* Histograms per metric: all rows, then each group over the same range (so that groups
 * compare bin by bin). */
static void compute_hists(struct stats_result *r, size_t nbins, const double *range)
{
	const struct isc_table *t = r->run->dp;
	size_t ng = r->group_col ? r->groups.ngroups : 0;
	double *scratch = isc_xmalloc((t->nrows ? t->nrows : 1) * sizeof(double));
	r->hists = isc_xcalloc(r->nmetrics * (1 + ng), sizeof(*r->hists));
	for (size_t m = 0; m < r->nmetrics; m++) {
		const double *col = isc_table_col(t, r->metrics[m])->num;
		double lo = INFINITY, hi = -INFINITY;
		for (size_t i = 0; !range && i < t->nrows; i++) {
			lo = col[i] < lo ? col[i] : lo;
			hi = col[i] > hi ? col[i] : hi;
		}
		if (range) {
			lo = range[0];
			hi = range[1];
		} else if (lo > hi) {
			lo = hi = 0;  /* no values */
		}
		isc_hist_init(&r->hists[m], lo, hi, nbins);
		isc_hist_add(&r->hists[m], col, t->nrows);
		for (size_t g = 0; g < ng; g++) {
			struct isc_hist *h = &r->hists[(1 + g) * r->nmetrics + m];
			isc_gather(col, r->groups.rows[g], r->groups.counts[g], scratch);
			isc_hist_init(h, lo, hi, nbins);
			isc_hist_add(h, scratch, r->groups.counts[g]);
		}
	}
	free(scratch);
}

/* A task's time, roughly, per row (measured at 1 M rows, microseconds per 10 k rows): values
 * of 8 bytes or 4-byte codes go through the brackets and a selection, 1- and 2-byte codes are
 * counted. */
static size_t task_cost(const struct stats_result *r, const bool *zeros, size_t task)
{
	size_t m = task % r->nmetrics, g = task / r->nmetrics;
	const struct isc_colpack *pk = isc_table_col(r->run->dp, r->metrics[m])->packed;
	size_t n = g ? r->groups.counts[g - 1] : r->run->dp->nrows;
	return zeros[m] ? 0 : n * (!pk ? 21 : pk->width == 4 ? 26 : pk->width == 2 ? 18 : 15);
}

struct costed {
	size_t cost, task;
};

static int costlier_first(const void *a, const void *b)
{
	const struct costed *x = a, *y = b;
	if (x->cost != y->cost)
		return (x->cost < y->cost) - (x->cost > y->cost);
	return (x->task > y->task) - (x->task < y->task);
}

/* The costliest tasks first, so that the two workers end together (the last task is short). */
static size_t *task_order(const struct stats_result *r, const bool *zeros, size_t ntasks)
{
	struct costed *c = isc_xmalloc((ntasks + 1) * sizeof(*c));
	size_t *order = isc_xmalloc((ntasks + 1) * sizeof(size_t));
	for (size_t t = 0; t < ntasks; t++)
		c[t] = (struct costed){ task_cost(r, zeros, t), t };
	qsort(c, ntasks, sizeof(*c), costlier_first);
	for (size_t t = 0; t < ntasks; t++)
		order[t] = c[t].task;
	free(c);
	return order;
}

/* SMICnt and NMICnt are zeros in nearly every wult run: their statistics need no pass over
 * the rows (isc_stats_of_zeros), in any group. Found once per metric, not once per task. */
static bool *zero_metrics(const struct stats_result *r)
{
	bool *zeros = isc_xcalloc(r->nmetrics + 1, sizeof(bool));
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct isc_colpack *pk = isc_table_col(r->run->dp, r->metrics[m])->packed;
		zeros[m] = pk && isc_colpack_all_zero(pk, r->run->dp->nrows);
	}
	return zeros;
}

void stats_compute_all(struct stats_result *r, size_t nbins, const double *hist_range)
{
	size_t ng = r->group_col ? r->groups.ngroups : 0;
	struct job j = { .r = r, .zeros = zero_metrics(r), .ntasks = r->nmetrics * (1 + ng) };
	j.order = task_order(r, j.zeros, j.ntasks);
	r->overall = isc_xcalloc(r->nmetrics * r->nfuncs + 1, sizeof(double));
	r->by_group = isc_xcalloc(ng * r->nmetrics * r->nfuncs + 1, sizeof(double));
	atomic_init(&j.next, 0);

	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid;
	int threaded = ncpu > 1 && j.ntasks > 1 && r->run->dp->nrows > 100000 &&
		       pthread_create(&tid, NULL, worker, &j) == 0;
	worker(&j);
	if (threaded)
		pthread_join(tid, NULL);
	free(j.order);
	free(j.zeros);
	if (nbins)
		compute_hists(r, nbins, hist_range);
}

void stats_result_free(struct stats_result *r)
{
	free(r->metrics);
	free(r->flags);
	free(r->overall);
	free(r->by_group);
	size_t nh = r->nmetrics * (1 + (r->group_col ? r->groups.ngroups : 0));
	for (size_t m = 0; r->hists && m < nh; m++)
		isc_hist_free(&r->hists[m]);
	free(r->hists);
	if (r->group_col)
		isc_groups_free(&r->groups);
}
