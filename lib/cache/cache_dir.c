/* SPDX-License-Identifier: GPL-2.0-only */
/* Where the run cache lives, its size bound, keys and housekeeping (analyze cache). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/cache.h"
#include "fs/fs.h"
#include "table/numparse.h"
#include "text/util.h"
#include "idlescope/version.h"

static bool disabled;

void isc_cache_disable(void)
{
	disabled = true;
}

bool isc_cache_enabled(void)
{
	const char *e = getenv("IDLESCOPE_NO_CACHE");
	return !disabled && !(e && *e && strcmp(e, "0") != 0);
}

char *isc_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (x && x[0] == '/')  /* the XDG spec: a relative path is to be ignored */
		return isc_xasprintf("%s/idlescope", x);
	return home && home[0] == '/' ? isc_xasprintf("%s/.cache/idlescope", home) : NULL;
}

int isc_cache_max(uint64_t *max)
{
	const char *e = getenv("IDLESCOPE_CACHE_MAX");
	*max = ISC_CACHE_DEFAULT_MAX;
	if (!e || !*e)
		return 0;
	size_t len = strlen(e);
	double mul = 1, v;
	switch (e[len - 1]) {
	case 'K': case 'k': mul = 1024.0; break;
	case 'M': case 'm': mul = 1024.0 * 1024; break;
	case 'G': case 'g': mul = 1024.0 * 1024 * 1024; break;
	default: len++; break;
	}
	if (!isc_parse_double(e, len - 1, &v) || !(v >= 0) || v * mul > 1e18 || v != (double)(uint64_t)v) {
		isc_err("IDLESCOPE_CACHE_MAX: expected a whole number of bytes (K, M, G suffixes), got '%s'", e);
		return -1;
	}
	*max = (uint64_t)(v * mul);
	return 0;
}

/* FNV-1a, 64 bits: enough to tell a damaged header or index from a whole one. */
uint64_t cache_sum(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

void cache_key(struct cache_hdr *h, const struct stat *st, const struct isc_table_opts *o)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	h->format = ISC_CACHE_FORMAT;
	h->bom = CACHE_BOM;
	snprintf(h->version, sizeof(h->version), "%s", IDLESCOPE_VERSION);
	h->dev = (uint64_t)st->st_dev;
	h->ino = (uint64_t)st->st_ino;
	h->size = (uint64_t)st->st_size;
	h->mtime_sec = (int64_t)st->st_mtim.tv_sec;
	h->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
	h->ctime_sec = (int64_t)st->st_ctim.tv_sec;
	h->ctime_nsec = (int64_t)st->st_ctim.tv_nsec;
	h->known_complete = o->known_complete;
	h->known_rows = o->known_complete ? (uint64_t)o->known_rows : 0;
}

char *cache_entry_path(const char *dir, const struct stat *st)
{
	return isc_xasprintf("%s/%016llx-%016llx" CACHE_SUFFIX, dir, (unsigned long long)st->st_dev,
			    (unsigned long long)st->st_ino);
}

char *cache_lock_path(const char *dir, const char *entry)
{
	const char *base = strrchr(entry, '/');
	return isc_xasprintf("%s/.%s.lock", dir, base ? base + 1 : entry);
}

void cache_note_once(const char *fmt, ...)
{
	static bool said;
	if (said)
		return;
	said = true;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	isc_note("%s", msg);
}

struct entry {
	char *path;
	uint64_t size;
	struct timespec used;  /* the mtime: set on every use */
};

static bool is_entry_name(const char *n)
{
	size_t len = strlen(n), sl = strlen(CACHE_SUFFIX);
	return n[0] != '.' && len > sl && !strcmp(n + len - sl, CACHE_SUFFIX);
}

/* A temporary file of a writer that died (".NAME.tmp.XXXXXX") or a builder's lock file
 * (".NAME.lock", removed by the builder when done), an hour old. */
static bool is_stale_tmp(const char *n, const struct stat *st)
{
	return n[0] == '.' && (strstr(n, CACHE_SUFFIX ".tmp.") || strstr(n, CACHE_SUFFIX ".lock")) &&
	       time(NULL) - st->st_mtime > 3600;
}

/* The entries of dir (and stale temporary files removed); -1 when it cannot be read. */
static int list_entries(const char *dir, struct entry **out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	*out = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		struct stat st;
		char *p = isc_xasprintf("%s/%s", dir, de->d_name);
		bool entry = lstat(p, &st) == 0 && S_ISREG(st.st_mode) && is_entry_name(de->d_name);
		if (!entry && S_ISREG(st.st_mode) && is_stale_tmp(de->d_name, &st))
			unlink(p);
		if (!entry) {
			free(p);
			continue;
		}
		*out = isc_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct entry){ p, (uint64_t)st.st_size, st.st_mtim };
	}
	closedir(d);
	return 0;
}

static int older_first(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	if (a->used.tv_sec != b->used.tv_sec)
		return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
	return (a->used.tv_nsec > b->used.tv_nsec) - (a->used.tv_nsec < b->used.tv_nsec);
}

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].path);
	free(e);
}

void cache_evict(const char *dir, uint64_t max, const char *keep)
{
	struct entry *e;
	size_t n;
	uint64_t total = 0;
	if (list_entries(dir, &e, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		total += e[i].size;
	qsort(e, n, sizeof(*e), older_first);
	for (size_t i = 0; i < n && total > max; i++)
		if (strcmp(e[i].path, keep) && (unlink(e[i].path) == 0 || errno == ENOENT))
			total -= e[i].size;
	free_entries(e, n);
}

/* A missing directory, or one the caller may use (docs/cache.md); else why not. */
static bool trusted(const char *dir, char *why, size_t len)
{
	struct stat st;
	if (lstat(dir, &st) < 0 && errno == ENOENT)
		return true;
	int fd = isc_fs_own_dir(dir, 0700, why, len);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

int isc_cache_info(FILE *f)
{
	char *dir = isc_cache_dir();
	uint64_t max, total = 0;
	struct entry *e = NULL;
	size_t n = 0;
	if (isc_cache_max(&max) < 0) {
		free(dir);
		return -1;
	}
	fprintf(f, "directory: %s\n", dir ? dir : "(none: neither XDG_CACHE_HOME nor HOME is set)");
	char why[1024];
	if (dir && !trusted(dir, why, sizeof(why)))
		fprintf(f, "note: not used: %s\n", why);
	else if (dir && list_entries(dir, &e, &n) < 0 && errno != ENOENT)
		fprintf(f, "note: cannot read it: %s\n", strerror(errno));
	for (size_t i = 0; i < n; i++)
		total += e[i].size;
	fprintf(f, "entries: %zu\nsize: %llu bytes\nlimit: %llu bytes (IDLESCOPE_CACHE_MAX)\n", n,
		(unsigned long long)total, (unsigned long long)max);
	fprintf(f, "enabled: %s\n", isc_cache_enabled() ? "yes" : "no (IDLESCOPE_NO_CACHE)");
	free_entries(e, n);
	free(dir);
	return 0;
}

int isc_cache_clear(FILE *f)
{
	char *dir = isc_cache_dir();
	struct entry *e = NULL;
	size_t n = 0, removed = 0;
	int rc = 0;
	char why[1024];
	if (dir && !trusted(dir, why, sizeof(why))) {
		isc_err("cache: %s; not used, nothing removed", why);
		rc = -1;
	} else if (dir && list_entries(dir, &e, &n) < 0 && errno != ENOENT) {
		isc_err("cache: %s: %s", dir, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (unlink(e[i].path) == 0 || errno == ENOENT) {
			removed++;
		} else {
			isc_err("cache: %s: %s", e[i].path, strerror(errno));
			rc = -1;
		}
	}
	if (!rc)
		fprintf(f, "removed %zu entr%s from %s\n", removed, removed == 1 ? "y" : "ies",
			dir ? dir : "(no cache directory)");
	free_entries(e, n);
	free(dir);
	return rc;
}
