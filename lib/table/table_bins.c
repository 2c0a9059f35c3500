/* Equal-width bins of a numeric column, shared by analyze stats and diff (bins.h). */
#include "idlescope/bins.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/json_num.h"
#include "idlescope/numparse.h"
#include "idlescope/select.h"
#include "idlescope/util.h"

static bool whole_count(const char *s, size_t *out)
{
	double d;
	if (!is_parse_double(s, strlen(s), &d) || d < 1 || d > IS_BY_MAX_BINS || d != floor(d))
		return false;
	*out = (size_t)d;
	return true;
}

int is_by_bins_parse(const char *spec, char **col, size_t *nbins)
{
	const char *colon = strrchr(spec, ':');
	if (!colon)
		return 0;
	if (!whole_count(colon + 1, nbins)) {
		is_err("--by %s: expected COLUMN:N with N a whole number from 1 to %d", spec, IS_BY_MAX_BINS);
		return -1;
	}
	*col = is_xstrndup(spec, (size_t)(colon - spec));
	return 1;
}

size_t is_by_bins_count(const char *arg, const char *cmd)
{
	size_t n;
	if (whole_count(arg, &n))
		return n;
	is_err("%s: --by-bins: expected a whole number from 1 to %d, got '%s'", cmd, IS_BY_MAX_BINS, arg);
	return 0;
}

char *is_bin_label(double lo, double hi, int last)
{
	char a[IS_NUM_STR_LEN], b[IS_NUM_STR_LEN];
	return is_xasprintf("[%s, %s%c", is_num_str(a, lo), is_num_str(b, hi), last ? ']' : ')');
}

size_t is_bin_of(double v, double lo, double width, size_t nbins)
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

double *is_bin_edges(double lo, double hi, size_t nbins)
{
	double *e = is_xmalloc((nbins + 1) * sizeof(double)), width = (hi - lo) / (double)nbins;
	e[0] = lo;
	e[nbins] = hi;
	for (size_t b = 1; b < nbins; b++)
		e[b] = short_decimal(lo + width * (double)b, fabs(width) * IS_BIN_EDGE_TOL);
	return e;
}

size_t is_bin_find(const double *edges, size_t nbins, double v)
{
	size_t b = is_bin_of(v, edges[0], (edges[nbins] - edges[0]) / (double)nbins, nbins);
	while (b > 0 && v < edges[b])
		b--;
	while (b + 1 < nbins && v >= edges[b + 1])
		b++;
	return b;
}

void is_bin_tables(struct is_table **t, size_t n, const char *col, size_t nbins, const char *name)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < n; k++) {
		const double *v = is_table_col(t[k], col)->num;
		for (size_t i = 0; i < t[k]->nrows; i++)
			if (!isnan(v[i]))
				lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
	}
	if (lo > hi)
		lo = hi = 0;
	double *edges = is_bin_edges(lo, hi, nbins);
	uint32_t *ids = is_xmalloc(nbins * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		for (size_t b = 0; b < nbins; b++) {  /* ids are per table */
			char *label = is_bin_label(edges[b], edges[b + 1], b + 1 == nbins);
			ids[b] = is_table_intern(t[k], label);
			free(label);
		}
		const double *v = is_table_col(t[k], col)->num;
		struct is_column *c = is_table_add_col(t[k], name, IS_COL_TEXT);
		c->text = is_xmalloc((t[k]->nrows ? t[k]->nrows : 1) * sizeof(uint32_t));
		for (size_t i = 0; i < t[k]->nrows; i++)
			c->text[i] = isnan(v[i]) ? IS_TEXT_EMPTY : ids[is_bin_find(edges, nbins, v[i])];
	}
	free(ids);
	free(edges);
}

int is_by_group_tables(struct is_table **t, size_t n, const char *col, size_t nbins,
		       const char **group)
{
	size_t most = 0;
	*group = col;
	for (size_t i = 0; i < n; i++) {
		const struct is_column *c = is_table_col(t[i], col);
		if (c->type != IS_COL_NUM) {
			if (!nbins)
				return 0;
			is_err("%s: --by %s:%zu: '%s' is a text column; bins need numbers", t[i]->path,
			       col, nbins, col);
			return -1;
		}
		struct is_groups g;
		if (!nbins && is_group_rows(t[i], col, &g) == 0) {
			size_t values = g.ngroups - (g.ngroups && !g.labels[0][0]);  /* "": no value */
			most = values > most ? values : most;
			is_groups_free(&g);
		}
	}
	if (!nbins && most <= IS_BY_AUTO_LIMIT)
		return 0;
	if (!nbins)
		is_note("--by %s: up to %zu different values in a run; grouped into %d equal bins "
			"(--by %s:N for N)", col, most, IS_BY_AUTO_BINS, col);
	nbins = nbins ? nbins : IS_BY_AUTO_BINS;
	char *name = is_xasprintf("%s:%zu", col, nbins);
	is_bin_tables(t, n, col, nbins, name);
	*group = is_table_col(t[0], name)->name;
	free(name);
	return 0;
}
