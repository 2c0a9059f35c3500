/* SPDX-License-Identifier: GPL-2.0-only */
/* The breakdown of a metric's percentile bands by cause (causes.h). */
#include "causes/causes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"

#define count_cols isc_cause_count_cols
enum { CNT_IRQ = ISC_CNT_IRQ, CNT_SOFTIRQ = ISC_CNT_SOFTIRQ, CNT_NMI = ISC_CNT_NMI, CNT_SMI = ISC_CNT_SMI,
       CNT_STEAL = ISC_CNT_STEAL };

const char *const isc_cause_columns[] = { "IRQCnt", "SWIRQCnt", "NMICnt", "SMICnt", "StealTime",
					  "IRQTop", "SWIRQTypes", NULL };
const char *const isc_part_names[ISC_NPARTS] = { "NMI or SMI", "IRQ and softirq", "IRQ only",
						 "softirq only", "none", "steal only",
						 "not known" };

bool isc_cause_cols_find(const struct isc_table *t, struct isc_cause_cols *cols)
{
	bool any = false;
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++) {
		cols->cnt[k] = isc_table_col(t, count_cols[k]);
		if (cols->cnt[k] && cols->cnt[k]->type != ISC_COL_NUM)
			cols->cnt[k] = NULL;
		any |= cols->cnt[k] != NULL;
	}
	cols->top = isc_table_col(t, "IRQTop");
	cols->types = isc_table_col(t, "SWIRQTypes");
	return any;
}

static struct isc_cause *cause_get(struct isc_causes *cs, const char *name)
{
	for (size_t i = 0; i < cs->nc; i++)
		if (!strcmp(cs->c[i].name, name))
			return &cs->c[i];
	if (cs->nc == ISC_CAUSES_MAX)
		return NULL;   /* more distinct sources than that: the rest are in their family */
	struct isc_cause *c = &cs->c[cs->nc++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

/* near: bit k set when the datapoint is near cut k */
static void add(struct isc_causes *cs, const char *name, size_t band, double excess, unsigned near)
{
	struct isc_cause *c = cause_get(cs, name);
	if (!c)
		return;
	c->n[band]++;
	c->excess[band] += excess;
	for (size_t k = 0; k + 1 < cs->nbands; k++)
		c->near[k] += (near >> k) & 1;
}

static bool has(const struct isc_column *col, size_t row)
{
	return col && !isnan(col->num[row]) && col->num[row] > 0;
}

static const char *text(const struct isc_table *t, const struct isc_column *col, size_t row)
{
	if (!col || col->type != ISC_COL_TEXT || col->text[row] == ISC_TEXT_EMPTY)
		return "";
	return isc_table_str(t, col->text[row]);
}

/* An empty cell of a column the table has: not known (collect could not count it). */
static bool unknown(const struct isc_column *col, size_t row)
{
	return col && isnan(col->num[row]);
}

/* The class by precedence; not known as soon as an empty cell could change it. */
static int part_of(const struct isc_cause_cols *cc, size_t row)
{
	bool irq = has(cc->cnt[CNT_IRQ], row), sirq = has(cc->cnt[CNT_SOFTIRQ], row);
	if (has(cc->cnt[CNT_NMI], row) || has(cc->cnt[CNT_SMI], row))
		return ISC_PART_NMI_SMI;
	if (unknown(cc->cnt[CNT_NMI], row) || unknown(cc->cnt[CNT_SMI], row) ||
	    unknown(cc->cnt[CNT_IRQ], row) || unknown(cc->cnt[CNT_SOFTIRQ], row))
		return ISC_PART_UNKNOWN;
	if (irq && sirq)
		return ISC_PART_IRQ_SOFTIRQ;
	if (irq || sirq)
		return irq ? ISC_PART_IRQ : ISC_PART_SOFTIRQ;
	if (unknown(cc->cnt[CNT_STEAL], row))
		return ISC_PART_UNKNOWN;
	return has(cc->cnt[CNT_STEAL], row) ? ISC_PART_STEAL : ISC_PART_NONE;
}

/* One datapoint's causes, into its band. */
static void classify(const struct isc_table *t, const struct isc_cause_cols *cc, size_t row,
		     size_t band, double excess, unsigned near, struct isc_causes *cs)
{
	static const char *const family[ISC_CAUSE_NCOUNT] = { "IRQ", "softirq", "NMI", "SMI", "steal" };
	char name[48], list[128];

	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++)
		if (has(cc->cnt[k], row))
			add(cs, family[k], band, excess, near);
	if (has(cc->cnt[CNT_IRQ], row) && *text(t, cc->top, row)) {
		snprintf(name, sizeof(name), "  IRQ %.30s", text(t, cc->top, row));
		add(cs, name, band, excess, near);
	}
	snprintf(list, sizeof(list), "%s", has(cc->cnt[CNT_SOFTIRQ], row) ? text(t, cc->types, row) : "");
	for (char *save = NULL, *s = strtok_r(list, "+", &save); s; s = strtok_r(NULL, "+", &save)) {
		snprintf(name, sizeof(name), "  softirq %.30s", s);
		add(cs, name, band, excess, near);
	}
	int part = part_of(cc, row);
	if (part == ISC_PART_NONE)
		add(cs, "none", band, excess, near);
	cs->part[band][part]++;
	cs->part_excess[band][part] += excess;
	cs->band[band]++;
	for (size_t k = 0; k + 1 < cs->nbands; k++)
		cs->nnear[k] += (near >> k) & 1;
}

/* Output order: IRQ, its sources, softirq, its types, NMI, SMI, steal, none; within a family the most
 * frequent first, then by name. */
int isc_cause_family_rank(const char *name)
{
	static const char *const order[] = { "IRQ", "  IRQ ", "softirq", "  softirq ", "NMI", "SMI", "steal",
					     "none" };
	for (int i = 7; i >= 0; i--)
		if (!strncmp(name, order[i], strlen(order[i])))
			return i;
	return 8;
}

static size_t total(const struct isc_cause *c)
{
	size_t n = 0;
	for (size_t b = 0; b < ISC_CAUSES_MAX_BANDS; b++)
		n += c->n[b];
	return n;
}

static int cmp_cause(const void *a, const void *b)
{
	const struct isc_cause *x = a, *y = b;
	int fx = isc_cause_family_rank(x->name), fy = isc_cause_family_rank(y->name);
	size_t nx = total(x), ny = total(y);

	if (fx != fy)
		return fx - fy;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* Put the values of the ranks idx[0..ni) (any order, repeats allowed) in place: a[idx] holds
 * what it would hold sorted. Selection, not a sort: O(n log ni). */
static void select_ranks(double *a, size_t n, size_t *idx, size_t ni)
{
	size_t m = 0;
	qsort(idx, ni, sizeof(*idx), cmp_size);
	for (size_t i = 0; i < ni; i++)
		if (idx[i] < n && (m == 0 || idx[i] != idx[m - 1]))
			idx[m++] = idx[i];
	isc_multiselect(a, n, idx, m);
}

/* Quantile q of a[0..n) after select_ranks of its ranks (isc_quantile_sorted's definition). */
static double quantile_selected(const double *a, size_t n, double q)
{
	size_t lhs = 0;
	double delta;
	if (!n)
		return NAN;
	delta = isc_quantile_rank(q, n, &lhs);
	if (lhs >= n - 1)
		return a[n - 1];
	return (1 - delta) * a[lhs] + delta * a[lhs + 1];
}

/* The ranks quantile q needs: its two neighbours. */
static size_t quantile_ranks(double q, size_t n, size_t *idx)
{
	size_t lhs = 0;
	if (!n)
		return 0;
	isc_quantile_rank(q, n, &lhs);
	idx[0] = lhs < n - 1 ? lhs : n - 1;
	idx[1] = lhs + 1 < n ? lhs + 1 : n - 1;
	return 2;
}

/* The values of the metric over the tables, all and clean (malloc'd). */
static void collect_values(const struct isc_table *const *t, size_t nt, const char *metric,
			   double **all, size_t *n, double **clean, size_t *nc)
{
	size_t rows = 0;
	for (size_t i = 0; i < nt; i++)
		rows += t[i]->nrows;
	*all = isc_xcalloc(rows + 1, sizeof(double));
	*clean = isc_xcalloc(rows + 1, sizeof(double));
	*n = *nc = 0;
	for (size_t i = 0; i < nt; i++) {
		const struct isc_column *m = isc_table_col(t[i], metric);
		struct isc_cause_cols cc;
		if (!m || m->type != ISC_COL_NUM || !isc_cause_cols_find(t[i], &cc))
			continue;
		for (size_t r = 0; r < t[i]->nrows; r++) {
			if (isnan(m->num[r]))
				continue;
			(*all)[(*n)++] = m->num[r];
			if (part_of(&cc, r) == ISC_PART_NONE)
				(*clean)[(*nc)++] = m->num[r];
		}
	}
}

/* The cut values, the ranges near them and the clean median of the metric over the tables. */
static void thresholds(const struct isc_table *const *t, size_t nt, const char *metric,
		       struct isc_causes *cs)
{
	size_t n, nc, idx[4 * ISC_CAUSES_MAX_BANDS], ni = 0, cidx[2];
	double *all, *clean;

	collect_values(t, nt, metric, &all, &n, &clean, &nc);
	for (size_t k = 0; n && k + 1 < cs->nbands; k++) {
		double pos = cs->pct[k] / 100 * (double)(n - 1), h = (double)ISC_CAUSES_NEAR(n);
		ni += quantile_ranks(cs->pct[k] / 100, n, idx + ni);
		idx[ni++] = (size_t)fmax(0, floor(pos - h));
		idx[ni++] = (size_t)fmin((double)n - 1, ceil(pos + h));
	}
	select_ranks(all, n, idx, ni);
	for (size_t k = 0; k + 1 < cs->nbands; k++) {
		double pos = cs->pct[k] / 100 * (double)(n ? n - 1 : 0), h = (double)ISC_CAUSES_NEAR(n);
		cs->thr[k] = quantile_selected(all, n, cs->pct[k] / 100);
		cs->near_lo[k] = n ? all[(size_t)fmax(0, floor(pos - h))] : NAN;
		cs->near_hi[k] = n ? all[(size_t)fmin((double)n - 1, ceil(pos + h))] : NAN;
	}
	select_ranks(clean, nc, cidx, quantile_ranks(0.5, nc, cidx));
	cs->clean_med = quantile_selected(clean, nc, 0.5);
	cs->nclean = nc;
	free(all);
	free(clean);
}

void isc_causes_compute(const struct isc_table *const *t, size_t nt, const char *metric,
			const double *cuts, size_t ncuts, struct isc_causes *out)
{
	memset(out, 0, sizeof(*out));
	out->nbands = ncuts + 1;
	out->measured = (1u << ISC_CAUSE_NCOUNT) - 1;
	memcpy(out->pct, cuts, ncuts * sizeof(double));
	thresholds(t, nt, metric, out);
	for (size_t i = 0; i < nt; i++) {
		const struct isc_column *m = isc_table_col(t[i], metric);
		struct isc_cause_cols cc;
		if (!m || m->type != ISC_COL_NUM || !isc_cause_cols_find(t[i], &cc))
			continue;
		out->steal |= cc.cnt[CNT_STEAL] != NULL;
		for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++)
			if (!cc.cnt[k])
				out->measured &= ~(1u << k);
		for (size_t r = 0; r < t[i]->nrows; r++) {
			size_t band = 0;
			unsigned near = 0;
			if (isnan(m->num[r]))
				continue;
			while (band < ncuts && m->num[r] > out->thr[band])
				band++;
			for (size_t k = 0; k < ncuts; k++)
				if (m->num[r] >= out->near_lo[k] && m->num[r] <= out->near_hi[k])
					near |= 1u << k;
			classify(t[i], &cc, r, band, m->num[r] - out->clean_med, near, out);
		}
	}
	qsort(out->c, out->nc, sizeof(out->c[0]), cmp_cause);
}

const struct isc_cause *isc_causes_find(const struct isc_causes *cs, const char *name)
{
	name += strspn(name, " ");
	for (size_t i = 0; i < cs->nc; i++)
		if (!strcmp(cs->c[i].name + strspn(cs->c[i].name, " "), name))
			return &cs->c[i];
	return NULL;
}
