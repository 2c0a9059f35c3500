/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a cache entry: map it, check it against its source and itself, and make a table
 * whose columns are the mapped arrays. Anything that does not check out is not used. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "fs/fs.h"
#include "text/util.h"

/* A bounds-checked cursor over the index. */
struct cur {
	const unsigned char *p;
	size_t n, off;
	bool bad;
};

static uint64_t get_u64(struct cur *c)
{
	uint64_t v = 0;
	if (c->bad || c->n - c->off < sizeof(v)) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p + c->off, sizeof(v));
	c->off += sizeof(v);
	return v;
}

/* A string of the index as a malloc'd C string; NULL when it does not fit or holds a NUL. */
static char *get_str(struct cur *c)
{
	uint32_t len;
	if (c->bad || c->n - c->off < sizeof(len))
		return c->bad = true, NULL;
	memcpy(&len, c->p + c->off, sizeof(len));
	c->off += sizeof(len);
	if (c->n - c->off < len || memchr(c->p + c->off, 0, len))
		return c->bad = true, NULL;
	char *s = isc_xmalloc((size_t)len + 1);
	memcpy(s, c->p + c->off, len);
	s[len] = '\0';
	c->off += len;
	return s;
}

/* A count of items that take at least min_bytes each in what is left of the index. */
static size_t get_count(struct cur *c, size_t min_bytes)
{
	uint64_t v = get_u64(c);
	if (v > (c->n - c->off) / min_bytes)
		return c->bad = true, 0;
	return (size_t)v;
}

void cache_map_free(void *arg)
{
	struct cache_map *m = arg;
	if (!m)
		return;
	if (m->base)
		munmap(m->base, m->len);
	for (size_t i = 0; m->names && i < m->ncols; i++)
		free(m->names[i]);
	for (size_t i = 0; m->labels && i < m->ngroups; i++)
		free(m->labels[i]);
	free(m->names);
	strpool_free(&m->colids);
	free(m->types);
	free(m->offs);
	free(m->labels);
	free(m->num_of_col);
	free(m->group_col);
	free(m);
}

/* An array of n items of size sz at off lies within the data. */
static bool in_data(const struct cache_hdr *h, uint64_t off, uint64_t n, uint64_t sz)
{
	return off % 8 == 0 && off >= sizeof(*h) && off <= h->index_off &&
	       n <= (h->index_off - off) / sz;
}

static bool parse_columns(struct cache_map *m, const struct cache_hdr *h, struct cur *c)
{
	m->ncols = get_count(c, 20);
	m->names = isc_xcalloc(m->ncols + 1, sizeof(char *));
	m->types = isc_xcalloc(m->ncols + 1, sizeof(*m->types));
	m->offs = isc_xcalloc(m->ncols + 1, sizeof(uint64_t));
	m->num_of_col = isc_xcalloc(m->ncols + 1, sizeof(size_t));
	for (size_t i = 0; i < m->ncols && !c->bad; i++) {
		m->names[i] = get_str(c);
		if (m->names[i] && strpool_intern(&m->colids, m->names[i], strlen(m->names[i])) != i)
			c->bad = true;  /* a name twice */
		uint64_t type = get_u64(c);
		m->offs[i] = get_u64(c);
		m->types[i] = type ? ISC_COL_TEXT : ISC_COL_NUM;
		m->num_of_col[i] = m->nnum;
		m->nnum += !type;
		if (type > 1 || !in_data(h, m->offs[i], h->nrows, type ? 4 : 8))
			c->bad = true;
	}
	if (m->ncols == 0 && h->nrows)
		c->bad = true;  /* rows of nothing: the reader never makes them */
	m->ngroups = get_count(c, 4);
	m->labels = isc_xcalloc(m->ngroups + 1, sizeof(char *));
	for (size_t k = 0; k < m->ngroups && !c->bad; k++)
		m->labels[k] = get_str(c);
	size_t nstat = m->nnum * (1 + m->ngroups);
	if (c->bad || nstat > (c->n - c->off) / sizeof(struct cache_stat) ||
	    c->off + nstat * sizeof(struct cache_stat) != c->n)
		return false;
	m->stats = c->p + c->off;
	for (size_t i = 0; i < nstat; i++) {
		struct cache_stat s;
		memcpy(&s, m->stats + i * sizeof(s), sizeof(s));
		if (s.rows > h->nrows || s.count > s.rows || !in_data(h, s.sorted_off, s.count, 8))
			return false;
	}
	return true;
}

static bool check_header(const struct cache_hdr *h, const struct stat *src, size_t len,
			 const struct isc_table_opts *o)
{
	struct cache_hdr want, got = *h;
	cache_key(&want, src, o);
	got.hdr_sum = 0;
	return !memcmp(h, &want, offsetof(struct cache_hdr, nrows)) &&
	       cache_sum(&got, sizeof(got)) == h->hdr_sum && h->file_len == len &&
	       h->index_off >= sizeof(*h) && h->index_off <= len && h->index_len == len - h->index_off;
}

/* The strings, file column names and group column: the table gets its own copies. */
static bool parse_index(struct cache_map *m, const struct cache_hdr *h, struct cur *c,
			struct isc_table *t)
{
	m->group_col = get_str(c);
	t->file_ncols = get_count(c, 4);
	t->file_colnames = isc_xcalloc(t->file_ncols + 1, sizeof(char *));
	for (size_t i = 0; i < t->file_ncols && !c->bad; i++)
		t->file_colnames[i] = get_str(c);
	size_t nstrs = get_count(c, 4);
	for (size_t i = 0; i < nstrs && !c->bad; i++) {
		char *s = get_str(c);
		if (s && isc_table_intern(t, s) != i)
			c->bad = true;  /* a string twice */
		free(s);
	}
	return !c->bad && parse_columns(m, h, c);
}

/* Every string id of the text columns names a string (the reader would index by them). */
static bool text_ids_ok(const struct cache_map *m, const struct isc_table *t)
{
	for (size_t i = 0; i < m->ncols; i++) {
		if (m->types[i] != ISC_COL_TEXT)
			continue;
		const uint32_t *id = (const uint32_t *)((const char *)m->base + m->offs[i]);
		uint32_t bad = 0;
		for (size_t r = 0; r < m->nrows; r++)
			bad |= id[r] >= t->nstrs && id[r] != ISC_TEXT_EMPTY;
		if (bad)
			return false;
	}
	return true;
}

struct cache_map *cache_map_open(const char *path, const struct stat *src,
				 const struct isc_table_opts *o)
{
	struct stat st;
	int fd = isc_fs_open_own(AT_FDCWD, path, O_RDONLY, 0);
	if (fd < 0)
		return NULL;
	void *base = fstat(fd, &st) == 0 &&
				     (size_t)st.st_size >= sizeof(struct cache_hdr)
			     ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
			     : MAP_FAILED;
	if (base != MAP_FAILED)
		futimens(fd, NULL);  /* last used: for the eviction of the least recently used */
	close(fd);
	if (base == MAP_FAILED)
		return NULL;
	struct cache_map *m = isc_xcalloc(1, sizeof(*m));
	struct cache_hdr h;
	strpool_init(&m->colids);
	m->base = base;
	m->len = (size_t)st.st_size;
	memcpy(&h, base, sizeof(h));
	m->nrows = h.nrows;
	if (!check_header(&h, src, m->len, o) ||
	    cache_sum((const char *)base + h.index_off, h.index_len) != h.index_sum) {
		cache_map_free(m);
		return NULL;
	}
	return m;
}

struct isc_table *cache_map_table(struct cache_map *m, const char *src_path,
				 const struct isc_table_opts *o)
{
	struct cache_hdr h;
	memcpy(&h, m->base, sizeof(h));
	struct cur c = { (const unsigned char *)m->base + h.index_off, h.index_len, 0, false };
	struct isc_table *t = isc_table_new(src_path);
	if (!parse_index(m, &h, &c, t) || !text_ids_ok(m, t)) {
		isc_table_free(t);
		cache_map_free(m);
		return NULL;
	}
	t->nrows = (size_t)m->nrows;
	for (size_t i = 0; i < m->ncols; i++) {
		if (o->want && !o->want(m->names[i], o->want_arg))
			continue;
		struct isc_column *col = isc_table_add_col(t, m->names[i], m->types[i]);
		void *p = (char *)m->base + m->offs[i];
		col->borrowed = true;
		if (m->types[i] == ISC_COL_NUM)
			col->num = p;
		else
			col->text = p;
	}
	t->release = cache_map_free;
	t->release_arg = m;
	return t;
}
