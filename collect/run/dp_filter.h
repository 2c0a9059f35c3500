/* SPDX-License-Identifier: GPL-2.0-only */
/* collect --include/--exclude: datapoints kept or dropped while collecting, as 'wult start'
 * does, with the rows' values as datapoints.csv would hold them. */
#ifndef COLLECT_DP_FILTER_H
#define COLLECT_DP_FILTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "method.h"

struct dp_filter;

/* NULL when neither is given; else the filter, or exit(2)-worthy: *bad set after a one-line
 * message ("collect: --include: unknown column 'Foo' (columns: ...)"). */
struct dp_filter *dp_filter_new(const char *include, const char *exclude, bool *bad);
void dp_filter_free(struct dp_filter *f);

/* Whether dp is kept; index is the row it gets in datapoints.csv. -1 after a message when a
 * residency column the filter names is not one this run measures. */
int dp_filter_keep(struct dp_filter *f, const struct dp_raw *dp, const char *const *state_names,
		   size_t nstates, uint64_t index);
#endif
