/* SPDX-License-Identifier: GPL-2.0-only */
/* The run cache's file format and the pieces its files share (lib-internal). */
#ifndef IDLESCOPE_CACHE_INTERNAL_H
#define IDLESCOPE_CACHE_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cache/cache.h"
#include "table/table.h"
#include "table/strpool.h"

#define CACHE_MAGIC "ISCACHE"
#define CACHE_BOM 0x01020304u
#define CACHE_SUFFIX ".isc"

/*
 * A cache file: this header, the data (8-byte aligned arrays: each column's rows, then the
 * sorted values), then the index that says where they are. The header and the index carry
 * checksums; the data is mapped as it is.
 */
struct cache_hdr {
	char magic[8];
	uint32_t format, bom;
	char version[32];
	uint64_t dev, ino, size;      /* the datapoints file this is of */
	int64_t mtime_sec, mtime_nsec;
	int64_t ctime_sec, ctime_nsec;  /* a file replaced on the same inode, mtime set back */
	uint64_t known_rows;          /* the reader's options that change what it reads */
	uint32_t known_complete;
	uint32_t too_big;             /* 1: a marker (header only): the entry needs nrows bytes */
	uint64_t nrows;
	uint64_t index_off, index_len, file_len;
	uint64_t index_sum;
	uint64_t hdr_sum;             /* of this header with hdr_sum 0 */
};

/* Per numeric column and group (0: all rows): the statistics that do not depend on
 * --funcs and where the values are, sorted. */
struct cache_stat {
	uint64_t rows;                /* rows of the group, empty cells included */
	uint64_t count;               /* values (non-empty cells), sorted at sorted_off */
	double min, max, avg, std;
	uint64_t sorted_off;
};

/* A mapped cache file, owned by the table made from it. */
struct cache_map {
	void *base;
	size_t len;
	uint64_t nrows;
	size_t ncols;
	char **names;
	struct strpool colids;        /* names -> column index (names are unique) */
	enum isc_coltype *types;
	uint64_t *offs;
	char *group_col;              /* "" without groups */
	size_t ngroups;
	char **labels;
	size_t nnum;                  /* numeric columns */
	size_t *num_of_col;           /* column -> index among the numeric ones */
	const unsigned char *stats;   /* nnum * (1 + ngroups) struct cache_stat, unaligned */
	bool modified;
};

uint64_t cache_sum(const void *p, size_t n);
void cache_key(struct cache_hdr *h, const struct stat *st, const struct isc_table_opts *o);
/* The entry's file name for a datapoints file (malloc'd). */
char *cache_entry_path(const char *dir, const struct stat *st);

/* Write the entry for table t (every column, read from the file st describes). 0 done,
 * -1 not written (a note was printed at most once per process). */
int cache_write(const char *dir, const char *path, const struct isc_table *t,
		const struct stat *st, const struct isc_table_opts *o, uint64_t max);
/* Whether path is a marker, written in place of an entry above the bound, that says the entry
 * would still not fit under max. */
bool cache_too_big(const char *path, const struct stat *src, const struct isc_table_opts *o,
		   uint64_t max);
/* Map and check an entry: NULL when missing, foreign, stale or corrupt. */
struct cache_map *cache_map_open(const char *path, const struct stat *src,
				 const struct isc_table_opts *o);
void cache_map_free(void *m);
/* A table with the wanted columns of the mapping (which it then owns). */
struct isc_table *cache_map_table(struct cache_map *m, const char *src_path,
				 const struct isc_table_opts *o);
/* The entries' total size after the newest, evicting the least recently used above max. */
void cache_evict(const char *dir, uint64_t max, const char *keep);
/* One note per process about a cache directory that cannot be used. */
void cache_note_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read the whole file (every column) silently and write its entry: 1 written, 0 not (the
 * file is better read as before). */
int cache_build_entry(const struct isc_cache_src *src, const struct stat *st, const char *dir,
		      const char *entry, uint64_t max);
/* IDLESCOPE_CACHE_BUILD: background (default) or foreground; -1 printed error. */
int cache_build_mode(bool *background);
/* Start a detached builder of entry (nice 19, SCHED_IDLE, one per entry) and return at once. */
void cache_build_background(const struct isc_cache_src *src, const struct stat *st,
			    const char *dir, const char *entry, uint64_t max);
/* The lock file a builder of entry holds (malloc'd). */
char *cache_lock_path(const char *dir, const char *entry);

/* Before reading a file to build its entry: when even the smallest entry its rows and columns
 * can make (counted without parsing) is above max, write the marker and return true. */
bool cache_surely_too_big(const char *path, const struct stat *st, const struct isc_table_opts *o,
			  const char *entry, uint64_t max);
/* In place of an entry above the bound, its header alone (need: the bytes it would take). */
void cache_write_marker(const char *path, const struct stat *st, const struct isc_table_opts *o,
			uint64_t need);

/* Sort ascending, in total order (-0 before +0), no NaN in a. tmp holds n doubles. */
void cache_sort(double *a, size_t n, double *tmp);

#endif
