/* SPDX-License-Identifier: GPL-2.0-only */
/* Equal-width bins of a numeric column, for --by COL:N (bins.h). */
#include "table/bins.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/distinct.h"
#include "text/json_num.h"
#include "text/util.h"

char *isc_bin_label(double lo, double hi, int last)
{
	char a[ISC_NUM_STR_LEN], b[ISC_NUM_STR_LEN];
	return isc_xasprintf("[%s, %s%c", isc_num_str(a, lo), isc_num_str(b, hi), last ? ']' : ')');
}

size_t isc_bin_of(double v, double lo, double width, size_t nbins)
{
	double k = width > 0 ? floor((v - lo) / width) : 0;
	return k < 0 ? 0 : k >= (double)nbins ? nbins - 1 : (size_t)k;
}

/* The shortest decimal within tol of x (x itself when none is): lo + width * b carries the
 * rounding of the product, 2024.6190000000001 where 2024.619 was meant. */
static double short_decimal(double x, double tol)
{
	char buf[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, x);
		double y = strtod(buf, NULL);
		if (fabs(y - x) <= tol)
			return y;
	}
	return x;
}

double *isc_bin_edges(double lo, double hi, size_t nbins)
{
	double *e = isc_xmalloc((nbins + 1) * sizeof(double)), width = (hi - lo) / (double)nbins;
	e[0] = lo;
	e[nbins] = hi;
	for (size_t b = 1; b < nbins; b++)
		e[b] = short_decimal(lo + width * (double)b, fabs(width) * ISC_BIN_EDGE_TOL);
	return e;
}

size_t isc_bin_find(const double *edges, size_t nbins, double v)
{
	size_t b = isc_bin_of(v, edges[0], (edges[nbins] - edges[0]) / (double)nbins, nbins);
	while (b > 0 && v < edges[b])
		b--;
	while (b + 1 < nbins && v >= edges[b + 1])
		b++;
	return b;
}

/* Widen [*lo, *hi] to the values of v[0..n) (NaN: no value). */
static void widen_range(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			*lo = fmin(*lo, v[i]), *hi = fmax(*hi, v[i]);
}

/* isc_bin_edges over [lo, hi] (both 0 when no value was seen; malloc'd). */
static double *edges_of(double lo, double hi, size_t nbins)
{
	if (lo > hi)
		lo = hi = 0;
	return isc_bin_edges(lo, hi, nbins);
}

static char *edge_label(const double *edges, size_t nbins, size_t b)
{
	return isc_bin_label(edges[b], edges[b + 1], b + 1 == nbins);
}

void isc_bin_tables(struct isc_table **t, size_t n, const char *col, size_t nbins, const char *name)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < n; k++)
		widen_range(isc_table_col(t[k], col)->num, t[k]->nrows, &lo, &hi);
	double *edges = edges_of(lo, hi, nbins);
	uint32_t *ids = isc_xmalloc(nbins * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		for (size_t b = 0; b < nbins; b++) {  /* ids are per table */
			char *label = edge_label(edges, nbins, b);
			ids[b] = isc_table_intern(t[k], label);
			free(label);
		}
		const double *v = isc_table_col(t[k], col)->num;
		struct isc_column *c = isc_table_add_col(t[k], name, ISC_COL_TEXT);
		c->text = isc_xmalloc((t[k]->nrows ? t[k]->nrows : 1) * sizeof(uint32_t));
		for (size_t i = 0; i < t[k]->nrows; i++)
			c->text[i] = isnan(v[i]) ? ISC_TEXT_EMPTY : ids[isc_bin_find(edges, nbins, v[i])];
	}
	free(ids);
	free(edges);
}

static int text_column_error(const struct isc_table *t, const char *col, size_t nbins)
{
	isc_err("%s: --by %s:%zu: '%s' is a text column; bins need numbers", t->path, col, nbins, col);
	return -1;
}

int isc_by_group_tables(struct isc_table **t, size_t n, const char *col, size_t nbins,
		       const char **group)
{
	size_t most = 0;
	*group = col;
	for (size_t i = 0; i < n; i++) {
		const struct isc_column *c = isc_table_col(t[i], col);
		if (c->type != ISC_COL_NUM)
			return nbins ? text_column_error(t[i], col, nbins) : 0;
		if (!nbins) {
			size_t values = isc_count_values(t[i], c);
			most = values > most ? values : most;
		}
	}
	if (!nbins && most <= ISC_BY_AUTO_LIMIT)
		return 0;
	if (!nbins)
		isc_note("--by %s: up to %zu different values in a run; grouped into %d equal bins "
			"(--by %s:N for N)", col, most, ISC_BY_AUTO_BINS, col);
	nbins = nbins ? nbins : ISC_BY_AUTO_BINS;
	char *name = isc_xasprintf("%s:%zu", col, nbins);
	isc_bin_tables(t, n, col, nbins, name);
	*group = isc_table_col(t[0], name)->name;
	free(name);
	return 0;
}

_Static_assert(ISC_BY_MAX_BINS < UINT16_MAX, "a row's bin, or no value, in 2 bytes");

/* [*lo, *hi] widened to the values of column c. */
static void widen_range_col(const struct isc_table *t, const struct isc_column *c, double *lo, double *hi)
{
	struct isc_col_pieces p = { .c = c, .nrows = t->nrows };
	for (const double *v; (v = isc_col_piece(&p));)
		widen_range(v, p.n, lo, hi);
}

/* Each row's bin (nbins: no value), 2 bytes a row (ISC_BY_MAX_BINS < 65535), and the
 * bins' row counts (count[nbins + 1]). */
static uint16_t *bins_of_rows(const struct isc_table *t, const struct isc_column *c, const double *edges,
			      size_t nbins, size_t *count)
{
	struct isc_col_pieces p = { .c = c, .nrows = t->nrows };
	uint16_t *bin = isc_xmalloc((t->nrows ? t->nrows : 1) * sizeof(*bin));
	for (const double *v; (v = isc_col_piece(&p));)
		for (size_t i = 0; i < p.n; i++)
			count[bin[p.from + i] = (uint16_t)(isnan(v[i]) ? nbins : isc_bin_find(edges, nbins, v[i]))]++;
	return bin;
}

/* Groups of t's rows by the bins of number column c: rows without a value first (label ""),
 * then the bins that have rows, in order. */
static void bin_rows(const struct isc_table *t, const struct isc_column *c, size_t nbins, struct isc_groups *g)
{
	double lo = INFINITY, hi = -INFINITY;
	widen_range_col(t, c, &lo, &hi);
	double *edges = edges_of(lo, hi, nbins);
	size_t *count = isc_xcalloc(nbins + 1, sizeof(size_t));
	uint16_t *bin = bins_of_rows(t, c, edges, nbins, count);
	size_t *gidx = isc_xcalloc(nbins + 1, sizeof(size_t));
	memset(g, 0, sizeof(*g));
	g->labels = isc_xcalloc(nbins + 1, sizeof(char *));
	g->counts = isc_xcalloc(nbins + 1, sizeof(size_t));
	g->rows = isc_xcalloc(nbins + 1, sizeof(size_t *));
	for (size_t k = 0; k <= nbins; k++) {
		size_t b = (k + nbins) % (nbins + 1);  /* nbins (no value), 0, 1, ... */
		if (!count[b])
			continue;
		gidx[b] = g->ngroups;
		g->labels[g->ngroups] = b == nbins ? isc_xstrdup("") : edge_label(edges, nbins, b);
		g->rows[g->ngroups] = isc_xmalloc(count[b] * sizeof(size_t));
		g->ngroups++;
	}
	for (size_t i = 0; i < t->nrows; i++) {
		size_t k = gidx[bin[i]];
		g->rows[k][g->counts[k]++] = i;
	}
	free(gidx);
	free(count);
	free(bin);
	free(edges);
}

int isc_by_group_rows(const struct isc_table *t, const char *col, size_t nbins, struct isc_groups *g)
{
	const struct isc_column *c = isc_table_col(t, col);
	if (c && nbins && c->type != ISC_COL_NUM)
		return text_column_error(t, col, nbins);
	if (c && nbins) {
		bin_rows(t, c, nbins, g);
		return 0;
	}
	size_t nvalues = c && c->type == ISC_COL_NUM ? isc_count_values(t, c) : 0;
	if (!c || c->type != ISC_COL_NUM || nvalues <= ISC_BY_AUTO_LIMIT)
		return isc_group_rows(t, col, g);
	isc_note("%s: --by %s: %zu different values; grouped into %d equal bins (--by %s:N for N)",
		t->path, col, nvalues, ISC_BY_AUTO_BINS, col);
	bin_rows(t, c, ISC_BY_AUTO_BINS, g);
	return 0;
}
