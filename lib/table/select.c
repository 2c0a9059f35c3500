/* SPDX-License-Identifier: GPL-2.0-only */
/* Metric selection by regular expression and grouping rows by a column's value. */
#include "table/select.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "table/strpool.h"
#include "table/group_fill.h"

int isc_select_metrics(const struct isc_table *t, const char *re, const char ***names, size_t *n)
{
	regex_t rx;
	if (re) {
		int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[128];
			regerror(rc, &rx, msg, sizeof(msg));
			isc_err("bad --metrics regular expression '%s': %s", re, msg);
			return -1;
		}
	}
	*names = isc_xcalloc(t->ncols + 1, sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < t->ncols; i++)
		if (t->cols[i].type == ISC_COL_NUM && (!re || regexec(&rx, t->cols[i].name, 0, NULL, 0) == 0))
			(*names)[(*n)++] = t->cols[i].name;
	if (re)
		regfree(&rx);
	return 0;
}

int isc_natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

struct label_order {
	char **labels;
	double *value;   /* a numeric column's values by label id (NaN: the empty label); or NULL */
};

/* Group ids by label: a numeric column's by value (empty first), text in natural order. */
static int cmp_ids(const void *x, const void *y, void *arg)
{
	const struct label_order *o = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	if (o->value) {
		double va = o->value[a], vb = o->value[b];
		if (isnan(va) || isnan(vb))
			return isnan(vb) - isnan(va);
		return (va > vb) - (va < vb);
	}
	return isc_natural_cmp(o->labels[a], o->labels[b]);
}


/* A number's label: "" for no value, else the shortest form that reads back (as in JSON). */
static const char *num_label(double v, char *buf)
{
	if (isnan(v))
		return "";
	isc_num_str(buf, v);
	return buf;
}

/* A value's label id, by the value's bits (a label is a function of them): most columns
 * grouped by value hold a few values, and formatting each row's took most of the time. */
struct label_slot {
	uint64_t bits;
	uint32_t id;
	bool used;
};
#define LABEL_SLOTS 256

static uint32_t number_label_id(struct label_slot *slots, struct strpool *pool, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	struct label_slot *e = &slots[(bits * 0x9E3779B97F4A7C15ULL) >> 56];
	if (!e->used || e->bits != bits) {
		char buf[ISC_NUM_STR_LEN];
		const char *s = num_label(v, buf);
		*e = (struct label_slot){ bits, strpool_intern(pool, s, strlen(s)), true };
	}
	return e->id;
}

/* Label ids of a number column's rows in gid. */
static void number_labels(const struct isc_table *t, const struct isc_column *c, struct strpool *pool,
			  uint32_t *gid)
{
	struct isc_col_pieces p = { .c = c, .nrows = t->nrows };
	struct label_slot slots[LABEL_SLOTS] = { 0 };
	for (const double *v; (v = isc_col_piece(&p));)
		for (size_t i = 0; i < p.n; i++)
			gid[p.from + i] = number_label_id(slots, pool, v[i]);
}

/* Label ids of a text column's string ids in cache (t->nstrs: the empty cell): each id's
 * label is interned once (no array per row: 40 MB at 10 M rows). */
static void text_labels(const struct isc_table *t, const struct isc_column *c, struct strpool *pool,
			uint32_t *cache)
{
	for (size_t i = 0; i <= t->nstrs; i++)
		cache[i] = UINT32_MAX;
	for (size_t r = 0; r < t->nrows; r++) {
		size_t key = c->text[r] != ISC_TEXT_EMPTY ? c->text[r] : t->nstrs;
		if (cache[key] != UINT32_MAX)
			continue;
		const char *s = c->text[r] != ISC_TEXT_EMPTY ? isc_table_str(t, c->text[r]) : "";
		s = s ? s : "";
		cache[key] = strpool_intern(pool, s, strlen(s));
	}
}

int isc_group_rows(const struct isc_table *t, const char *colname, struct isc_groups *g)
{
	const struct isc_column *c = isc_table_col(t, colname);
	struct strpool pool;
	memset(g, 0, sizeof(*g));
	if (!c) {
		isc_err("%s: no column '%s' to group by", t->path, colname);
		return -1;
	}
	strpool_init(&pool);
	size_t ncache = c->type == ISC_COL_TEXT ? t->nstrs + 1 : 0;
	uint32_t *gid = ncache ? NULL : isc_xmalloc((t->nrows ? t->nrows : 1) * sizeof(*gid));
	uint32_t *cache = isc_xmalloc((ncache ? ncache : 1) * sizeof(*cache));
	if (ncache)
		text_labels(t, c, &pool, cache);
	else
		number_labels(t, c, &pool, gid);
	/* Sort the label ids, then map pool ids to sorted group indices. */
	size_t n;
	char **labels = strpool_release(&pool, &n);
	struct label_order order = { labels, NULL };
	if (c->type != ISC_COL_TEXT) {
		order.value = isc_xmalloc((n ? n : 1) * sizeof(double));
		for (size_t i = 0; i < n; i++)
			order.value[i] = labels[i][0] ? strtod(labels[i], NULL) : NAN;
	}
	uint32_t *ids = isc_xmalloc((n ? n : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	qsort_r(ids, n, sizeof(uint32_t), cmp_ids, &order);
	char **sorted = isc_xmalloc((n ? n : 1) * sizeof(char *));
	size_t *rank = isc_xmalloc((n ? n : 1) * sizeof(size_t));
	for (size_t k = 0; k < n; k++) {
		sorted[k] = labels[ids[k]];
		rank[ids[k]] = k;
	}
	free(ids);
	free(order.value);
	g->ngroups = n;
	g->labels = sorted;
	g->counts = isc_xcalloc(n ? n : 1, sizeof(size_t));
	g->rows = isc_xcalloc(n ? n : 1, sizeof(size_t *));
	const struct group_of_row gr = { t, c, gid, ncache ? cache : NULL, rank };
	group_fill(&gr, n, g->counts, g->rows);
	free(cache);
	free(rank);
	free(labels);
	free(gid);
	return 0;
}

void isc_groups_free(struct isc_groups *g)
{
	for (size_t k = 0; k < g->ngroups; k++) {
		free(g->labels[k]);
		free(g->rows[k]);
	}
	free(g->labels);
	free(g->counts);
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

void isc_gather(const double *col, const size_t *rows, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = col[rows[i]];
}
