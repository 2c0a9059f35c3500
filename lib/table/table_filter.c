/* Row filters: --include/--exclude expressions evaluated over a table's rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/expr.h"
#include "table/table.h"
#include "text/util.h"

struct row_ctx {
	const struct is_table *t;
	const struct is_column **cols;  /* per expression variable */
	size_t row;
};

/* Stands for "index", the row number, when the table has no column of that name. */
static const struct is_column index_col = { .name = "index", .type = IS_COL_NUM };

static struct is_value row_get(void *arg, size_t var)
{
	struct row_ctx *c = arg;
	const struct is_column *col = c->cols[var];
	if (col == &index_col)
		return (struct is_value){ .num = (double)c->row };
	if (col->type == IS_COL_NUM)
		return (struct is_value){ .num = col->num[c->row] };
	return (struct is_value){ .is_str = true, .str = is_table_str(c->t, col->text[c->row]) };
}

/* Every column of the file, loaded or not ("A, B, C", cut with "..." to fit). */
static void list_columns(const struct is_table *t, char *buf, size_t len)
{
	size_t o = 0, n = t->file_ncols ? t->file_ncols : t->ncols;
	buf[0] = '\0';
	for (size_t i = 0; i < n && o + 4 < len; i++) {
		const char *name = t->file_ncols ? t->file_colnames[i] : t->cols[i].name;
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", name);
		o += w > 0 ? (size_t)w : 0;
	}
	if (o >= len - 4)
		strcpy(buf + len - 4, "...");
}

/* A text column is text; a numeric one without any value may be anything. */
static enum is_expr_type col_type(const struct is_table *t, const struct is_column *c)
{
	if (c->type == IS_COL_TEXT)
		return IS_EXPR_TEXT;
	return is_table_col_has_value(t, c->name) ? IS_EXPR_NUM : IS_EXPR_ANY;
}

/* The column of each variable of e (opt: "--include" or "--exclude"), its types checked. */
static const struct is_column **bind(const struct is_table *t, const struct is_expr *e, const char *opt)
{
	size_t n = is_expr_nvars(e);
	const struct is_column **cols = is_xcalloc(n + 1, sizeof(*cols));
	enum is_expr_type *types = is_xcalloc(n + 1, sizeof(*types));
	char msg[1024];
	int ok = 1;
	for (size_t i = 0; i < n && ok; i++) {
		cols[i] = is_table_col(t, is_expr_var(e, i));
		if (!cols[i] && !strcmp(is_expr_var(e, i), "index"))
			cols[i] = &index_col;
		if (cols[i]) {
			types[i] = cols[i] == &index_col ? IS_EXPR_NUM : col_type(t, cols[i]);
			continue;
		}
		list_columns(t, msg, sizeof(msg));
		is_err("%s: filter: unknown column '%s' (columns: %s)", t->path, is_expr_var(e, i), msg);
		ok = 0;
	}
	if (ok && is_expr_check(e, types, msg, sizeof(msg)) < 0) {
		is_err("%s: %s: %s", t->path, opt, msg);
		ok = 0;
	}
	free(types);
	if (!ok) {
		free(cols);
		cols = NULL;
	}
	return cols;
}

int is_table_filter_mask(const struct is_table *t, const struct is_expr *include,
			 const struct is_expr *exclude, unsigned char *keep)
{
	struct row_ctx inc = { .t = t }, exc = { .t = t };
	int rc = -1;
	if ((include && !(inc.cols = bind(t, include, "--include"))) ||
	    (exclude && !(exc.cols = bind(t, exclude, "--exclude"))))
		goto cleanup;
	for (size_t r = 0; r < t->nrows; r++) {
		inc.row = exc.row = r;
		keep[r] = (!include || is_expr_truthy(is_expr_eval(include, row_get, &inc))) &&
			  (!exclude || !is_expr_truthy(is_expr_eval(exclude, row_get, &exc)));
	}
	rc = 0;
cleanup:
	free(inc.cols);
	free(exc.cols);
	return rc;
}

int is_table_filter(struct is_table *t, const struct is_expr *include, const struct is_expr *exclude)
{
	if (!include && !exclude)
		return 0;
	unsigned char *keep = is_xmalloc(t->nrows ? t->nrows : 1);
	int rc = is_table_filter_mask(t, include, exclude, keep);
	if (rc == 0)
		is_table_keep_rows(t, keep);
	free(keep);
	return rc;
}
