/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The order of the metrics in the report: the ones the --metrics regex (or the default)
 * names literally come first, in the order it names them; the others (matched by a
 * pattern such as CC[0-9]+%) follow in the runs' column order.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "report.h"

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '%';
}

/* Where re names metric as a whole word (not as part of a longer name), or SIZE_MAX. */
static size_t named_at(const char *re, const char *metric)
{
	size_t n = strlen(metric);
	for (const char *p = strstr(re, metric); p; p = strstr(p + 1, metric))
		if ((p == re || !name_char(p[-1]) || p[-1] == '\\') && !name_char(p[n]))
			return (size_t)(p - re);
	return SIZE_MAX;
}

void order_metrics(const char **names, size_t n, const char *re)
{
	size_t *pos = isc_xmalloc(n * sizeof(*pos));
	for (size_t i = 0; i < n; i++)
		pos[i] = named_at(re, names[i]);
	/* insertion sort: stable, and n is a handful */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && pos[j] < pos[j - 1]; j--) {
			size_t tp = pos[j];
			const char *tn = names[j];
			pos[j] = pos[j - 1], names[j] = names[j - 1];
			pos[j - 1] = tp, names[j - 1] = tn;
		}
	free(pos);
}
