/* The requested idle states (ReqCState) of the runs, for the plots. */
#include <stdlib.h>
#include <string.h>

#include "idlescope/select.h"
#include "idlescope/util.h"
#include "plots.h"

const struct is_groups *plot_states(struct report *rep)
{
	if (!rep->states) {
		rep->states = is_xcalloc(rep->nruns, sizeof(*rep->states));
		for (size_t r = 0; r < rep->nruns; r++)
			if (is_table_col(rep->runs[r]->dp, "ReqCState") &&
			    is_group_rows(rep->runs[r]->dp, "ReqCState", &rep->states[r]) < 0)
				rep->states[r].ngroups = 0;
	}
	return rep->states;
}

size_t state_union(const struct is_groups *g, size_t nruns, const char **out)
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
		for (size_t j = i; j > 0 && is_natural_cmp(out[j - 1], out[j]) > 0; j--) {
			const char *t = out[j];
			out[j] = out[j - 1], out[j - 1] = t;
		}
	return most >= 2 ? n : 0;
}

size_t state_index(const char **names, size_t n, const char *label)
{
	size_t k = 0;
	while (k < n && strcmp(names[k], label))
		k++;
	return k;
}

size_t state_of_row(const struct is_groups *g, size_t row)
{
	for (size_t i = 0; i < g->ngroups; i++) {
		const size_t *r = g->rows[i];
		size_t lo = 0, hi = g->counts[i];
		while (lo < hi) {  /* rows are ascending */
			size_t mid = lo + (hi - lo) / 2;
			if (r[mid] < row)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < g->counts[i] && r[lo] == row)
			return i;
	}
	return SIZE_MAX;
}
