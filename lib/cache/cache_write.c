/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing a cache entry: the columns, the sorted values per column and group, the index;
 * into a temporary file in the cache directory, renamed into place when whole. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "fs/fs.h"
#include "table/select.h"
#include "stats/stats.h"
#include "text/util.h"

/* The index, built in memory. */
struct wbuf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct wbuf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = isc_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put_u64(struct wbuf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct wbuf *b, const char *s)
{
	uint32_t len = (uint32_t)strlen(s);
	put(b, &len, sizeof(len));
	put(b, s, len);
}

/* The data, streamed to the file; every array starts 8-byte aligned. */
struct writer {
	FILE *f;
	uint64_t off;
};

static uint64_t emit(struct writer *w, const void *d, size_t n)
{
	static const unsigned char zeros[8];
	uint64_t at = w->off;
	fwrite(d, 1, n, w->f);
	w->off += n;
	if (w->off % 8) {
		fwrite(zeros, 1, 8 - w->off % 8, w->f);
		w->off += 8 - w->off % 8;
	}
	return at;
}

struct build {
	const struct isc_table *t;
	const char *group_col;   /* NULL: no groups */
	struct isc_groups g;
	double *buf, *sorted, *tmp;
};

/* count, min, max, avg and std exactly as analyze stats computes them, then the values sorted. */
static void put_stat(struct build *b, struct writer *w, struct wbuf *ix, double *vals, size_t n,
		     bool inplace)
{
	static const struct isc_func f[] = { { .kind = ISC_F_COUNT }, { .kind = ISC_F_MIN },
		{ .kind = ISC_F_MAX }, { .kind = ISC_F_AVG }, { .kind = ISC_F_STD } };
	double out[5];
	size_t m = 0;
	if (inplace)
		isc_stats_compute_inplace(vals, n, f, 5, out);
	else
		isc_stats_compute(vals, n, f, 5, out, b->tmp);
	for (size_t i = 0; i < n; i++)
		if (!isnan(vals[i]))
			b->sorted[m++] = vals[i];
	cache_sort(b->sorted, m, b->tmp);
	struct cache_stat s = { .rows = n, .count = m, .min = out[1], .max = out[2], .avg = out[3],
				.std = out[4], .sorted_off = emit(w, b->sorted, m * sizeof(double)) };
	put(ix, &s, sizeof(s));
}

static void put_columns(struct build *b, struct writer *w, struct wbuf *ix)
{
	const struct isc_table *t = b->t;
	put_u64(ix, t->ncols);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct isc_column *col = &t->cols[c];
		bool num = col->type == ISC_COL_NUM;
		put_str(ix, col->name);
		put_u64(ix, num ? 0 : 1);
		put_u64(ix, emit(w, num ? (const void *)col->num : (const void *)col->text,
				 t->nrows * (num ? sizeof(double) : sizeof(uint32_t))));
	}
	put_u64(ix, b->group_col ? b->g.ngroups : 0);
	for (size_t k = 0; b->group_col && k < b->g.ngroups; k++)
		put_str(ix, b->g.labels[k]);
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->cols[c].type != ISC_COL_NUM)
			continue;
		put_stat(b, w, ix, t->cols[c].num, t->nrows, false);
		for (size_t k = 0; b->group_col && k < b->g.ngroups; k++) {
			isc_gather(t->cols[c].num, b->g.rows[k], b->g.counts[k], b->buf);
			put_stat(b, w, ix, b->buf, b->g.counts[k], true);
		}
	}
}

static void put_names(const struct isc_table *t, const char *group_col, struct wbuf *ix)
{
	put_str(ix, group_col ? group_col : "");
	put_u64(ix, t->file_ncols);
	for (size_t i = 0; i < t->file_ncols; i++)
		put_str(ix, t->file_colnames[i]);
	put_u64(ix, t->nstrs);
	for (size_t i = 0; i < t->nstrs; i++)
		put_str(ix, t->strs[i]);
}

/* The bytes the entry will take, about (the index aside). */
static uint64_t entry_size(const struct isc_table *t)
{
	uint64_t s = sizeof(struct cache_hdr);
	for (size_t c = 0; c < t->ncols; c++)
		s += (t->cols[c].type == ISC_COL_NUM ? 24 : 4) * (uint64_t)t->nrows + 16;
	return s;
}

static int write_body(struct build *b, FILE *f, struct cache_hdr *h)
{
	struct writer w = { f, sizeof(*h) };
	struct wbuf ix = { 0 };
	struct cache_hdr zero = { 0 };
	fwrite(&zero, 1, sizeof(zero), f);
	put_names(b->t, b->group_col, &ix);
	put_columns(b, &w, &ix);
	h->nrows = b->t->nrows;
	h->index_off = w.off;
	h->index_len = ix.n;
	h->index_sum = cache_sum(ix.p, ix.n);
	fwrite(ix.p, 1, ix.n, f);  /* last: no padding */
	h->file_len = w.off + ix.n;
	h->hdr_sum = cache_sum(h, sizeof(*h));
	free(ix.p);
	if (fflush(f) != 0 || ferror(f) || pwrite(fileno(f), h, sizeof(*h), 0) != (ssize_t)sizeof(*h))
		return -1;
	return 0;
}

static int build_and_write(const struct isc_table *t, FILE *f, struct cache_hdr *h)
{
	struct build b = { .t = t };
	size_t n = t->nrows ? t->nrows : 1;
	if (isc_table_col_has_value(t, "ReqCState")) {
		if (isc_group_rows(t, "ReqCState", &b.g) < 0)
			return -1;
		b.group_col = "ReqCState";
	}
	b.buf = isc_xmalloc(n * sizeof(double));
	b.sorted = isc_xmalloc(n * sizeof(double));
	b.tmp = isc_xmalloc(n * sizeof(double));
	int rc = write_body(&b, f, h);
	free(b.buf);
	free(b.sorted);
	free(b.tmp);
	if (b.group_col)
		isc_groups_free(&b.g);
	return rc;
}

/* The next look at the file reads it as without the cache straight away, instead of reading it
 * whole first. */
void cache_write_marker(const char *path, const struct stat *st, const struct isc_table_opts *o,
			 uint64_t need)
{
	struct cache_hdr h;
	cache_key(&h, st, o);
	h.too_big = 1;
	h.nrows = need;
	h.index_off = h.file_len = sizeof(h);
	h.hdr_sum = cache_sum(&h, sizeof(h));
	char *tmp = isc_xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	bool ok = fd >= 0 && write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h);
	if (fd >= 0)
		ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	free(tmp);
}

bool cache_too_big(const char *path, const struct stat *src, const struct isc_table_opts *o,
		   uint64_t max)
{
	struct cache_hdr h, want;
	int fd = isc_fs_open_own(AT_FDCWD, path, O_RDONLY, 0);
	bool got = fd >= 0 && pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h);
	if (fd >= 0)
		close(fd);
	if (!got)
		return false;
	cache_key(&want, src, o);
	want.too_big = 1;
	uint64_t sum = h.hdr_sum;
	h.hdr_sum = 0;
	return !memcmp(&h, &want, offsetof(struct cache_hdr, nrows)) && cache_sum(&h, sizeof(h)) == sum &&
	       h.nrows > max;
}

int cache_write(const char *dir, const char *path, const struct isc_table *t,
		const struct stat *st, const struct isc_table_opts *o, uint64_t max)
{
	if (entry_size(t) > max) {  /* bigger than the whole cache may be */
		cache_write_marker(path, st, o, entry_size(t));
		return -1;
	}
	const char *base = strrchr(path, '/');
	char *tmp = isc_xasprintf("%s/.%s.tmp.XXXXXX", dir, base ? base + 1 : path);
	int fd = mkstemp(tmp), rc = -1;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		cache_note_once("cache: %s: %s; going on without the cache", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	struct cache_hdr h;
	cache_key(&h, st, o);
	rc = build_and_write(t, f, &h);
	int err = rc < 0 ? errno : 0;
	if (fclose(f) != 0 && !rc) {
		err = errno;
		rc = -1;
	}
	if (!rc && rename(tmp, path) < 0) {
		err = errno;
		rc = -1;
	}
	if (rc < 0 && err)
		cache_note_once("cache: %s: %s; going on without the cache", dir, strerror(err));
out:
	if (rc < 0 && fd >= 0)
		unlink(tmp);
	free(tmp);
	return rc;
}
