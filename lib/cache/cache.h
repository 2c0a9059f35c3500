/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run cache (docs/cache.md): each run's parsed datapoints, and per numeric column and
 * default group the values sorted with count, min, max, avg and std, in one file per
 * datapoints file under $XDG_CACHE_HOME/idlescope (default ~/.cache/idlescope). The file is
 * mapped read-only: a warm load parses nothing and copies nothing.
 */
#ifndef IDLESCOPE_CACHE_H
#define IDLESCOPE_CACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"
#include "table/table.h"

#define ISC_CACHE_FORMAT 2  /* 2: the key holds the ctime */
#define ISC_CACHE_DEFAULT_MAX (1ull << 30)  /* IDLESCOPE_CACHE_MAX default: 1 GiB */

/* Turn the cache off for this process (--no-cache); IDLESCOPE_NO_CACHE=1 does the same. */
void isc_cache_disable(void);
bool isc_cache_enabled(void);
/* The cache directory (malloc'd), or NULL when neither XDG_CACHE_HOME nor HOME says. */
char *isc_cache_dir(void);
/* IDLESCOPE_CACHE_MAX in bytes (K, M, G suffixes), else the default; -1 printed error. */
int isc_cache_max(uint64_t *max);

/* What the reader would do without the cache: how to read the file. */
struct isc_cache_src {
	const char *path;                  /* the datapoints file */
	const struct isc_table_opts *opts;  /* want, known_complete, known_rows */
};

/*
 * Load the table through the cache: a valid entry is mapped; otherwise the file is read
 * whole, the entry written (when it can be) and mapped. Returns 1 with *out set, 0 when the
 * cache cannot serve this file (then the caller reads it as before), -1 after an error
 * message about the data (the same one the reader prints).
 */
int isc_cache_load(const struct isc_cache_src *src, struct isc_table **out);

/* Before threads load runs (a fork is only safe while single-threaded): start the
 * background builder of src's entry when it is missing; silent. isc_cache_load in a
 * multi-threaded process starts none. */
void isc_cache_prepare(const struct isc_cache_src *src);

/* Before filtering rows of a cached table in place: its pages become private, writable
 * copies, and the sorted data no longer applies. -1 after an error message. */
int isc_cache_table_modified(struct isc_table *t);

/*
 * The statistics f[0..nf) of metric over all rows (group NULL) or the group with that label
 * of the default grouping group_col, from the sorted values of a cached, unmodified table:
 * true with out filled, bit for bit what isc_stats_compute gives; false when the cache does
 * not have them.
 */
bool isc_cache_stats(const struct isc_table *t, const char *group_col, const char *group,
		    const char *metric, const struct isc_func *f, size_t nf, double *out);

/* A metric's values in a part of a cached, unmodified table, sorted (NaN left out), with
 * count, min, max, avg and std as isc_stats_compute gives them over the part's rows in row
 * order (empty cells included: rows > n when the part has some). */
struct isc_cache_sample {
	const double *x;
	size_t n, rows;
	double mom[5];   /* count, min, max, avg, std */
};
/* The sample of metric over all rows (group NULL) or a group of group_col: true when the
 * cache has it. */
bool isc_cache_sample(const struct isc_table *t, const char *group_col, const char *group,
		     const char *metric, struct isc_cache_sample *out);

/* analyze cache: where the cache is, its entries and total size; remove every entry. */
int isc_cache_info(FILE *f);
int isc_cache_clear(FILE *f);

#endif
