/* The column table: construction, lookup, row selection. Reading CSV is in csv_reader.c. */
#include "table/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "table/strpool.h"

/* Column names interned in order; col_of[id] is the first column with that name. */
struct colindex {
	struct strpool names;
	size_t *col_of;
};

struct is_table *is_table_new(const char *path)
{
	struct is_table *t = is_xcalloc(1, sizeof(*t));
	struct strpool *pool = is_xmalloc(sizeof(*pool));
	struct colindex *ci = is_xcalloc(1, sizeof(*ci));
	strpool_init(pool);
	strpool_init(&ci->names);
	t->pool = pool;
	t->colindex = ci;
	t->path = is_xstrdup(path ? path : "");
	return t;
}

struct is_column *is_table_add_col(struct is_table *t, const char *name, enum is_coltype type)
{
	struct colindex *ci = t->colindex;
	if ((t->ncols & (t->ncols - 1)) == 0)  /* 0, 1, 2, 4 ...: room doubles */
		t->cols = is_xrealloc(t->cols, (t->ncols < 4 ? 8 : 2 * t->ncols) * sizeof(*t->cols));
	size_t had = ci->names.n;
	uint32_t id = strpool_intern(&ci->names, name, strlen(name));
	if (ci->names.n != had) {
		if ((had & (had - 1)) == 0)
			ci->col_of = is_xrealloc(ci->col_of, (had < 4 ? 8 : 2 * had) * sizeof(size_t));
		ci->col_of[id] = t->ncols;
	}
	struct is_column *c = &t->cols[t->ncols++];
	memset(c, 0, sizeof(*c));
	c->name = is_xstrdup(name);
	c->type = type;
	return c;
}

struct is_column *is_table_col(const struct is_table *t, const char *name)
{
	const struct colindex *ci = t->colindex;
	uint32_t id = strpool_find(&ci->names, name, strlen(name));
	return id == UINT32_MAX ? NULL : &t->cols[ci->col_of[id]];
}

bool is_table_col_has_value(const struct is_table *t, const char *name)
{
	const struct is_column *c = is_table_col(t, name);
	for (size_t i = 0; c && i < t->nrows; i++)
		if (c->type == IS_COL_TEXT ? c->text[i] != IS_TEXT_EMPTY : !isnan(c->num[i]))
			return true;
	return false;
}

const char *is_table_str(const struct is_table *t, uint32_t id)
{
	return id < t->nstrs ? t->strs[id] : NULL;
}

uint32_t is_table_intern(struct is_table *t, const char *s)
{
	struct strpool *pool = t->pool;
	uint32_t id = strpool_intern(pool, s, strlen(s));
	t->strs = pool->strs;
	t->nstrs = pool->n;
	return id;
}

void is_table_keep_rows(struct is_table *t, const unsigned char *keep)
{
	size_t out = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!keep[r])
			continue;
		for (size_t c = 0; c < t->ncols; c++) {
			struct is_column *col = &t->cols[c];
			if (col->num)
				col->num[out] = col->num[r];
			if (col->text)
				col->text[out] = col->text[r];
		}
		out++;
	}
	t->nrows = out;
}

void is_table_truncate(struct is_table *t, size_t n)
{
	if (n < t->nrows)
		t->nrows = n;
}

void is_table_free(struct is_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		if (!t->cols[i].borrowed) {
			free(t->cols[i].num);
			free(t->cols[i].text);
		}
	}
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

bool is_known_text_column(const char *name)
{
	static const char *const text_cols[] = { "ReqCState", "ReqCStateName", "Method", "Label" };
	for (size_t i = 0; i < sizeof(text_cols) / sizeof(text_cols[0]); i++)
		if (strcmp(name, text_cols[i]) == 0)
			return true;
	return false;
}
