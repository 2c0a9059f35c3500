/* SPDX-License-Identifier: GPL-2.0-only */
/* wult's --include-metrics/--exclude-metrics: comma-separated metric names or regular
 * expressions, each matching whole names. */
#ifndef ANALYZE_METRIC_LISTS_H
#define ANALYZE_METRIC_LISTS_H
#include <regex.h>
#include <stddef.h>

#include "table/table.h"

struct metric_list {
	const char *option;   /* "--include-metrics" */
	char **src;           /* the entries as given */
	regex_t *rx;          /* each anchored at both ends */
	size_t n;
};

/* Parse LIST (NULL: an empty list). -1 with a message on an empty entry or a bad regex. */
int metric_list_parse(const char *option, const char *list, struct metric_list *ml);
void metric_list_free(struct metric_list *ml);

/*
 * Keep in names[0..*n) only those matching include (when it has entries) and not exclude.
 * Each entry must match a column of t's file, as wult requires: -1 with a message naming
 * the run's file and the entry otherwise.
 */
int metric_lists_apply(const struct metric_list *include, const struct metric_list *exclude,
		       const struct isc_table *t, const char **names, size_t *n);
#endif
