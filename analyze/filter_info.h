/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze filter: its options, and the new run's info.json. */
#ifndef ANALYZE_FILTER_INFO_H
#define ANALYZE_FILTER_INFO_H
#include <stdbool.h>
#include <stddef.h>

#include "run/load.h"
#include "run/run.h"

struct filter_opts {
	struct isc_load_spec load;  /* include, exclude */
	const char *in, *out, *metrics_re, *reportid;
	char *reportid_buf;        /* the default reportid, owned */
	bool force;
	bool allow_empty;          /* --allow-empty: write a run with no datapoints */
	size_t rows_in, rows_out;
};

/* dir/info.json: the source's metadata as an idlescope run's, with "filtered_from". */
int filter_write_info(const struct filter_opts *o, const struct isc_run *src, const char *dir);

#endif
