/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading a run's datapoints through the cache, and the statistics its sorted values give. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/cache.h"
#include "fs/fs.h"
#include "text/util.h"

static bool same_source(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The cache directory made, the caller's, mode 0700 and writable; else -1 (read without the
 * cache) and, if say, one note: entries in a directory somebody else can write could be
 * forged. (Not said while muted, before the runs are loaded: the load says it.) */
static int usable_dir(const char *dir, bool say)
{
	char why[1024];
	int fd = isc_fs_own_dir(dir, 0700, why, sizeof(why));
	if (fd >= 0) {
		bool ok = faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) == 0;
		if (!ok)
			snprintf(why, sizeof(why), "%s: %s", dir, strerror(errno));
		close(fd);
		if (ok)
			return 0;
	}
	if (say)
		cache_note_once("cache: %s; going on without the cache", why);
	return -1;
}

/*
 * Read the whole file (every column), silently: 1 with the entry written, 0 when the file is
 * better read as before (it does not read cleanly, it changed while it was read, or the
 * entry could not be written).
 */
int cache_build_entry(const struct isc_cache_src *src, const struct stat *st, const char *dir,
		      const char *entry, uint64_t max)
{
	struct isc_table_opts all = *src->opts;
	struct isc_table *t = NULL;
	struct stat after;
	unsigned warned = isc_warn_count();
	if (cache_surely_too_big(src->path, st, src->opts, entry, max))
		return 0;  /* the marker is written: not read for nothing */
	all.want = NULL;
	all.pack = false;  /* the entry is written from arrays of doubles */
	isc_msg_mute(true);
	int rc = isc_table_read(src->path, &all, &t);
	isc_msg_mute(false);
	rc = rc == 0 && isc_warn_count() == warned && stat(src->path, &after) == 0 &&
	     same_source(st, &after) && cache_write(dir, entry, t, st, src->opts, max) == 0;
	isc_table_free(t);
	if (rc)
		cache_evict(dir, max, entry);
	return rc;
}

int isc_cache_load(const struct isc_cache_src *src, struct isc_table **out)
{
	struct stat st;
	uint64_t max;
	*out = NULL;
	if (!isc_cache_enabled())
		return 0;
	bool background;
	if (isc_cache_max(&max) < 0 || cache_build_mode(&background) < 0)
		return -1;
	if (stat(src->path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	char *dir = isc_cache_dir();
	if (!dir || usable_dir(dir, true) < 0) {
		free(dir);
		return 0;
	}
	char *entry = cache_entry_path(dir, &st);
	struct cache_map *m = cache_map_open(entry, &st, src->opts);
	int rc = 0;
	if (!m && cache_too_big(entry, &st, src->opts, max)) {
		free(entry);
		free(dir);
		return 0;  /* known to be above the bound: read as without the cache */
	}
	/* a miss: read as without the cache while a builder makes the entry for the next look,
	 * or (IDLESCOPE_CACHE_BUILD=foreground) make it now and use it */
	if (!m) {
		if (background)
			cache_build_background(src, &st, dir, entry, max);
		else if ((rc = cache_build_entry(src, &st, dir, entry, max)) > 0)
			m = cache_map_open(entry, &st, src->opts);
	}
	if (m && (*out = cache_map_table(m, src->path, src->opts)))
		rc = 1;
	else if (rc > 0)
		rc = 0;
	free(entry);
	free(dir);
	return rc;
}

void isc_cache_prepare(const struct isc_cache_src *src)
{
	struct stat st;
	uint64_t max;
	bool background;
	if (!isc_cache_enabled() || isc_cache_max(&max) < 0 || cache_build_mode(&background) < 0 ||
	    !background || stat(src->path, &st) < 0 || !S_ISREG(st.st_mode))
		return;  /* (an error here is printed again when the run is loaded) */
	char *dir = isc_cache_dir();
	if (dir && usable_dir(dir, false) < 0) {
		free(dir);
		return;
	}
	char *entry = dir ? cache_entry_path(dir, &st) : NULL;
	struct cache_map *m = entry ? cache_map_open(entry, &st, src->opts) : NULL;
	if (m)
		cache_map_free(m);
	else if (entry && !cache_too_big(entry, &st, src->opts, max))
		cache_build_background(src, &st, dir, entry, max);
	free(entry);
	free(dir);
}

static struct cache_map *map_of(const struct isc_table *t)
{
	return t && t->release == cache_map_free ? t->release_arg : NULL;
}

int isc_cache_table_modified(struct isc_table *t)
{
	struct cache_map *m = map_of(t);
	if (!m || m->modified)
		return 0;
	/* private pages: a write copies the page, the file is never written */
	if (mprotect(m->base, m->len, PROT_READ | PROT_WRITE) < 0) {
		isc_err("%s: cannot filter the cached columns: %s (try --no-cache)", t->path,
		       strerror(errno));
		return -1;
	}
	m->modified = true;
	return 0;
}

bool isc_cache_sample(const struct isc_table *t, const char *group_col, const char *group,
		     const char *metric, struct isc_cache_sample *out)
{
	const struct cache_map *m = map_of(t);
	if (!m || m->modified || m->nrows != t->nrows)
		return false;
	size_t g = 0, c;
	if (group) {
		if (!group_col || strcmp(group_col, m->group_col))
			return false;
		while (g < m->ngroups && strcmp(m->labels[g], group))
			g++;
		if (g++ == m->ngroups)
			return false;
	}
	c = strpool_find(&m->colids, metric, strlen(metric));
	if (c >= m->ncols || m->types[c] != ISC_COL_NUM)
		return false;
	struct cache_stat s;
	memcpy(&s, m->stats + (m->num_of_col[c] * (1 + m->ngroups) + g) * sizeof(s), sizeof(s));
	*out = (struct isc_cache_sample){ (const double *)((const char *)m->base + s.sorted_off),
					 (size_t)s.count, (size_t)s.rows,
					 { (double)s.count, s.min, s.max, s.avg, s.std } };
	return true;
}

bool isc_cache_stats(const struct isc_table *t, const char *group_col, const char *group,
		    const char *metric, const struct isc_func *f, size_t nf, double *out)
{
	struct isc_cache_sample s;
	if (!isc_cache_sample(t, group_col, group, metric, &s))
		return false;
	for (size_t i = 0; i < nf; i++) {
		switch (f[i].kind) {
		case ISC_F_COUNT: out[i] = s.mom[0]; break;
		case ISC_F_MIN: out[i] = s.n ? s.mom[1] : NAN; break;
		case ISC_F_MAX: out[i] = s.n ? s.mom[2] : NAN; break;
		case ISC_F_AVG: out[i] = s.mom[3]; break;
		case ISC_F_STD: out[i] = s.mom[4]; break;
		case ISC_F_MED: out[i] = s.n ? isc_quantile_sorted(s.x, s.n, 0.5) : NAN; break;
		case ISC_F_PCT: out[i] = s.n ? isc_quantile_sorted(s.x, s.n, f[i].pct / 100.0) : NAN; break;
		case ISC_F_MIN_INDEX:
		case ISC_F_MAX_INDEX: out[i] = NAN; break;  /* the caller knows the rows */
		}
	}
	return true;
}
