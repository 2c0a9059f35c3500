/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading runs for analysis: only the needed columns, filters applied. Shared by analyze
 * stats, analyze diff and report. */
#ifndef IDLESCOPE_LOAD_H
#define IDLESCOPE_LOAD_H
#include <stdbool.h>
#include <stddef.h>
#include "table/expr.h"
#include "run/run.h"

struct isc_load_spec {
	const char *metrics_re;  /* --metrics (POSIX ERE); NULL = every numeric column */
	const char *include;     /* --include expression source, or NULL */
	const char *exclude;     /* --exclude expression source, or NULL */
	const char *group_by;    /* --by column; NULL = "ReqCState" when the run has it */
	bool no_group;           /* --no-group */
	const char *const *also; /* NULL-terminated: columns loaded whatever --metrics says */
};

/* Parsed filters and the regex, checked once for all runs. */
struct isc_load_ctx {
	const struct isc_load_spec *spec;
	struct isc_expr *include, *exclude;
	void *regex;             /* regex_t * or NULL */
	/* Number columns may come packed (isc_table_opts.pack; filters keep them packed):
	 * the caller reads them through isc_col_values / isc_col_gather or unpacks them. */
	bool pack;
	/* Columns known to be text (isc_is_known_text_column) are read only as the group column,
	 * in spec->also or in a filter: for a caller whose metrics are numbers only. */
	bool no_text;
	/* Runs are loaded on several threads at once (isc_table_opts.concurrent). */
	bool concurrent;
};

/* Check the spec: returns -1 after printing "--include: expected ')' at column 17". */
int isc_load_prepare(struct isc_load_ctx *ctx, const struct isc_load_spec *spec);
void isc_load_release(struct isc_load_ctx *ctx);

/* Read an opened run's datapoints (the columns it needs) and apply the filters. -1 on error. */
int isc_load_datapoints(struct isc_load_ctx *ctx, struct isc_run *r);

/* Open a run, read the columns it needs and apply the filters. Returns -1 on error. */
int isc_load_run(struct isc_load_ctx *ctx, const char *path, struct isc_run **out);
/* Before loading runs in threads: start the run cache's background builder for the run at
 * path when its entry is missing (docs/cache.md); silent, nothing loaded. */
void isc_load_prepare_run(const char *path);

/* The column to group by for this run, or NULL for no grouping. An explicit --by column
 * that the run lacks is an error (-1 with a message); *col is set otherwise. The default,
 * ReqCState, is not used when every cell of it is empty (a CPU without a cpuidle driver). */
int isc_load_group_col(const struct isc_load_ctx *ctx, const struct isc_run *r, const char **col);

/* Whether two run paths name the same datapoints file (a directory stands for its
 * datapoints.csv; links and different spellings of one path are the same). */
bool isc_is_same_run(const char *a, const char *b);

#endif
