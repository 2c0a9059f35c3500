// SPDX-License-Identifier: GPL-2.0-only
/* --causes of stats and diff: the one-line warning when a run pools requested states. */
#include <stdio.h>

#include "text/util.h"
#include "causes_states.h"

/* One line when the run's rows are in more than one requested state: the breakdown pools them
 * (the clean median is then a mixture), naming up to four. */
void causes_warn_states(const struct isc_table *t)
{
	const struct isc_column *c = isc_table_col(t, "ReqCState");
	size_t seen[4], n = 0, more = 0;
	char list[160] = "";

	if (!c || c->type != ISC_COL_TEXT)
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		size_t i = 0;
		while (i < n && seen[i] != c->text[r])
			i++;
		if (i < n)
			continue;
		if (n < 4)
			seen[n++] = c->text[r];
		else if (++more)
			break;
	}
	if (n < 2)
		return;
	for (size_t i = 0, len = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
					seen[i] == ISC_TEXT_EMPTY ? "(empty)" : isc_table_str(t, seen[i]));
	isc_warn("%s: --causes: requested states %s%s pooled: the clean median mixes them "
		 "(--include \"ReqCState == '...'\" for one)", t->path, list, more ? " and more" : "");
}
