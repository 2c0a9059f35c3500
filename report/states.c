/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The requested idle states (ReqCState) of the runs, for the plots: the states of all runs
 * in natural order, and the state of every row as one byte, so that histograms count the
 * states in the same pass as the whole run and scatter points find theirs at once.
 */
#include <stdlib.h>
#include <string.h>

#include "table/select.h"
#include "text/util.h"
#include "plots.h"

/* The states of all runs in natural order; 0 when no run has two or there are too many. */
static size_t state_union(const struct isc_groups *g, size_t nruns, const char **out)
{
	size_t n = 0, most = 0;
	for (size_t r = 0; r < nruns; r++) {
		most = g[r].ngroups > most ? g[r].ngroups : most;
		for (size_t i = 0; i < g[r].ngroups; i++) {
			size_t k = 0;
			while (k < n && strcmp(out[k], g[r].labels[i]))
				k++;
			if (k < n)
				continue;
			if (n == PLOT_MAX_STATES)
				return 0;
			out[n++] = g[r].labels[i];
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && isc_natural_cmp(out[j - 1], out[j]) > 0; j--) {
			const char *t = out[j];
			out[j] = out[j - 1], out[j - 1] = t;
		}
	return most >= 2 ? n : 0;
}

static size_t state_index(const char *const *names, size_t n, const char *label)
{
	size_t k = 0;
	while (k < n && strcmp(names[k], label))
		k++;
	return k;
}

/* of_row[r][row] for every row of run r; the groups' row lists are not needed after. */
static void rows_to_states(struct plot_states *ps, size_t r, size_t nrows)
{
	struct isc_groups *g = &ps->g[r];
	ps->of_row[r] = isc_xmalloc(nrows + 1);
	memset(ps->of_row[r], (int)ps->nstates, nrows);
	for (size_t i = 0; i < g->ngroups; i++) {
		unsigned char s = (unsigned char)state_index(ps->names, ps->nstates, g->labels[i]);
		for (size_t k = 0; k < g->counts[i]; k++)
			ps->of_row[r][g->rows[i][k]] = s;
		free(g->rows[i]);
		g->rows[i] = NULL;
	}
}

const struct plot_states *plot_states(struct report *rep)
{
	if (rep->pstates)
		return rep->pstates;
	struct plot_states *ps = rep->pstates = isc_xcalloc(1, sizeof(*ps));
	ps->g = isc_xcalloc(rep->nruns, sizeof(*ps->g));
	for (size_t r = 0; r < rep->nruns; r++)
		if (isc_table_col(rep->runs[r]->dp, "ReqCState") &&
		    isc_group_rows(rep->runs[r]->dp, "ReqCState", &ps->g[r]) < 0)
			memset(&ps->g[r], 0, sizeof(ps->g[r]));
	ps->nstates = state_union(ps->g, rep->nruns, ps->names);
	if (ps->nstates) {
		ps->of_row = isc_xcalloc(rep->nruns, sizeof(*ps->of_row));
		for (size_t r = 0; r < rep->nruns; r++)
			rows_to_states(ps, r, rep->runs[r]->dp->nrows);
	}
	return ps;
}

void plot_states_free(struct report *rep)
{
	struct plot_states *ps = rep->pstates;
	if (!ps)
		return;
	for (size_t r = 0; r < rep->nruns; r++) {
		isc_groups_free(&ps->g[r]);
		if (ps->of_row)
			free(ps->of_row[r]);
	}
	free(ps->g);
	free(ps->of_row);
	free(ps);
	rep->pstates = NULL;
}
