/* analyze stats --by COLUMN:N: numeric groups as equal-width bins (by_bins.h). */
#include "by_bins.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/bins.h"
#include "idlescope/util.h"

int by_bins_parse(const char *spec, char **col, size_t *nbins)
{
	return is_by_bins_parse(spec, col, nbins);
}

/* Bin index of each row (nbins for a row without a value). */
static void assign(const double *v, size_t n, const double *edges, size_t nbins, size_t *bin)
{
	for (size_t i = 0; i < n; i++)
		bin[i] = isnan(v[i]) ? nbins : is_bin_find(edges, nbins, v[i]);
}

static void bin_rows(const struct is_table *t, const double *v, size_t nbins, struct is_groups *g)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < t->nrows; i++)
		if (!isnan(v[i]))
			lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
	if (lo > hi)
		lo = hi = 0;
	double *edges = is_bin_edges(lo, hi, nbins);
	size_t *bin = is_xmalloc((t->nrows ? t->nrows : 1) * sizeof(size_t));
	size_t *count = is_xcalloc(nbins + 1, sizeof(size_t));
	assign(v, t->nrows, edges, nbins, bin);
	for (size_t i = 0; i < t->nrows; i++)
		count[bin[i]]++;
	/* Groups: rows without a value first (label ""), then the bins that have rows. */
	size_t *gidx = is_xcalloc(nbins + 1, sizeof(size_t));
	memset(g, 0, sizeof(*g));
	g->labels = is_xcalloc(nbins + 1, sizeof(char *));
	g->counts = is_xcalloc(nbins + 1, sizeof(size_t));
	g->rows = is_xcalloc(nbins + 1, sizeof(size_t *));
	for (size_t k = 0; k <= nbins; k++) {
		size_t b = (k + nbins) % (nbins + 1);  /* nbins (no value), 0, 1, ... */
		if (!count[b])
			continue;
		gidx[b] = g->ngroups;
		g->labels[g->ngroups] = b == nbins ? is_xstrdup("") :
			is_bin_label(edges[b], edges[b + 1], b + 1 == nbins);
		g->rows[g->ngroups] = is_xmalloc(count[b] * sizeof(size_t));
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

int by_bins_group(const struct is_table *t, const char *col, size_t nbins, struct is_groups *g)
{
	const struct is_column *c = is_table_col(t, col);
	if (c && nbins && c->type != IS_COL_NUM) {
		is_err("%s: --by %s:%zu: '%s' is a text column; bins need numbers", t->path, col, nbins, col);
		return -1;
	}
	if (c && nbins) {
		bin_rows(t, c->num, nbins, g);
		return 0;
	}
	if (is_group_rows(t, col, g) < 0)
		return -1;
	size_t nvalues = g->ngroups - (g->ngroups && !g->labels[0][0]);  /* "" is no value */
	if (c->type != IS_COL_NUM || nvalues <= BY_AUTO_LIMIT)
		return 0;
	is_note("%s: --by %s: %zu different values; grouped into %d equal bins (--by %s:N for N)",
		t->path, col, nvalues, BY_AUTO_BINS, col);
	is_groups_free(g);
	bin_rows(t, c->num, BY_AUTO_BINS, g);
	return 0;
}
