/* SPDX-License-Identifier: GPL-2.0-only */
/* The column table: construction, lookup, row selection. Reading CSV is in csv_reader.c. */
#include "table/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/colpack.h"
#include "text/util.h"
#include "table/strpool.h"

/* Column names interned in order; col_of[id] is the first column with that name. */
struct colindex {
	struct strpool names;
	size_t *col_of;
};

struct isc_table *isc_table_new(const char *path)
{
	struct isc_table *t = isc_xcalloc(1, sizeof(*t));
	struct strpool *pool = isc_xmalloc(sizeof(*pool));
	struct colindex *ci = isc_xcalloc(1, sizeof(*ci));
	strpool_init(pool);
	strpool_init(&ci->names);
	t->pool = pool;
	t->colindex = ci;
	t->path = isc_xstrdup(path ? path : "");
	return t;
}

struct isc_column *isc_table_add_col(struct isc_table *t, const char *name, enum isc_coltype type)
{
	struct colindex *ci = t->colindex;
	if ((t->ncols & (t->ncols - 1)) == 0)  /* 0, 1, 2, 4 ...: room doubles */
		t->cols = isc_xrealloc(t->cols, (t->ncols < 4 ? 8 : 2 * t->ncols) * sizeof(*t->cols));
	size_t had = ci->names.n;
	uint32_t id = strpool_intern(&ci->names, name, strlen(name));
	if (ci->names.n != had) {
		if ((had & (had - 1)) == 0)
			ci->col_of = isc_xrealloc(ci->col_of, (had < 4 ? 8 : 2 * had) * sizeof(size_t));
		ci->col_of[id] = t->ncols;
	}
	struct isc_column *c = &t->cols[t->ncols++];
	memset(c, 0, sizeof(*c));
	c->name = isc_xstrdup(name);
	c->type = type;
	return c;
}

struct isc_column *isc_table_col(const struct isc_table *t, const char *name)
{
	const struct colindex *ci = t->colindex;
	uint32_t id = strpool_find(&ci->names, name, strlen(name));
	return id == UINT32_MAX ? NULL : &t->cols[ci->col_of[id]];
}

bool isc_table_col_has_value(const struct isc_table *t, const char *name)
{
	const struct isc_column *c = isc_table_col(t, name);
	double buf[1024];
	for (size_t i = 0; c && c->type == ISC_COL_TEXT && i < t->nrows; i++)
		if (c->text[i] != ISC_TEXT_EMPTY)
			return true;
	for (size_t at = 0; c && c->type == ISC_COL_NUM && at < t->nrows; at += 1024) {
		size_t n = t->nrows - at < 1024 ? t->nrows - at : 1024;
		const double *v = isc_col_values(c, at, n, buf);
		for (size_t i = 0; i < n; i++)
			if (!isnan(v[i]))
				return true;
	}
	return false;
}

const char *isc_table_str(const struct isc_table *t, uint32_t id)
{
	return id < t->nstrs ? t->strs[id] : NULL;
}

uint32_t isc_table_intern(struct isc_table *t, const char *s)
{
	struct strpool *pool = t->pool;
	uint32_t id = strpool_intern(pool, s, strlen(s));
	t->strs = pool->strs;
	t->nstrs = pool->n;
	return id;
}

/* Packed columns stay packed: a filter at 10 M rows kept every column as doubles (1.1 GB). */
void isc_table_keep_rows(struct isc_table *t, const unsigned char *keep)
{
	size_t kept = 0;   /* every column gives the same count; counted here for a table of none */
	for (size_t r = 0; r < t->nrows; r++)
		kept += keep[r] != 0;
	for (size_t c = 0; c < t->ncols; c++) {
		struct isc_column *col = &t->cols[c];
		if (col->packed)
			kept = isc_colpack_keep_rows(col->packed, t->nrows, keep);
		else if (col->num)
			ISC_KEEP_ROWS(col->num, t->nrows, keep, kept);
		else if (col->text)
			ISC_KEEP_ROWS(col->text, t->nrows, keep, kept);
	}
	t->nrows = kept;
}

void isc_table_truncate(struct isc_table *t, size_t n)
{
	if (n < t->nrows)
		t->nrows = n;
}

void isc_table_free(struct isc_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		if (!t->cols[i].borrowed) {
			free(t->cols[i].num);
			free(t->cols[i].text);
		}
		if (t->cols[i].packed) {
			isc_colpack_free(t->cols[i].packed);
			free(t->cols[i].packed);
		}
	}
	free(t->pack_arena);
	if (t->release)
		t->release(t->release_arg);
	free(t->cols);
	for (size_t i = 0; i < t->file_ncols; i++)
		free(t->file_colnames[i]);
	free(t->file_colnames);
	strpool_free(t->pool);
	free(t->pool);
	struct colindex *ci = t->colindex;
	strpool_free(&ci->names);
	free(ci->col_of);
	free(ci);
	free(t->path);
	free(t);
}

bool isc_is_known_text_column(const char *name)
{
	static const char *const text_cols[] = { "ReqCState", "ReqCStateName", "Method", "Label",
					       "IRQTop", "SWIRQTypes" };
	for (size_t i = 0; i < sizeof(text_cols) / sizeof(text_cols[0]); i++)
		if (strcmp(name, text_cols[i]) == 0)
			return true;
	return false;
}
