/* SPDX-License-Identifier: GPL-2.0-only */
/* Row filters: --include/--exclude expressions evaluated over a table's rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/expr.h"
#include "table/table.h"
#include "text/util.h"

/* Rows are evaluated ISC_COL_PIECE at a time: a number variable's values of the piece are
 * read first (a packed column decoded into buf, not unpacked whole). */
struct row_ctx {
	const struct isc_table *t;
	const struct isc_column **cols;  /* per expression variable */
	const double **vals;             /* per variable: the piece's values of a number column */
	double *buf;                     /* ISC_COL_PIECE doubles per variable */
	size_t from;                     /* the piece's first row */
	size_t row;
};

/* Stands for "index", the row number, when the table has no column of that name. */
static const struct isc_column index_col = { .name = "index", .type = ISC_COL_NUM };

static struct isc_value row_get(void *arg, size_t var)
{
	struct row_ctx *c = arg;
	const struct isc_column *col = c->cols[var];
	if (col == &index_col)
		return (struct isc_value){ .num = (double)c->row };
	if (col->type == ISC_COL_NUM)
		return (struct isc_value){ .num = c->vals[var][c->row - c->from] };
	return (struct isc_value){ .is_str = true, .str = isc_table_str(c->t, col->text[c->row]) };
}

/* The values of rows [from, from + n) of e's number variables (no e: nothing). */
static void read_piece(struct row_ctx *c, const struct isc_expr *e, size_t from, size_t n)
{
	c->from = from;
	for (size_t i = 0; e && i < isc_expr_nvars(e); i++)
		if (c->cols[i] != &index_col && c->cols[i]->type == ISC_COL_NUM)
			c->vals[i] = isc_col_values(c->cols[i], from, n, c->buf + i * ISC_COL_PIECE);
}

static void piece_room(struct row_ctx *c, const struct isc_expr *e)
{
	size_t n = e ? isc_expr_nvars(e) : 0;
	c->vals = isc_xcalloc(n + 1, sizeof(*c->vals));
	c->buf = isc_xmalloc((n + 1) * ISC_COL_PIECE * sizeof(double));
}

/* Every column of the file, loaded or not ("A, B, C", cut with "..." to fit). */
static void list_columns(const struct isc_table *t, char *buf, size_t len)
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
static enum isc_expr_type col_type(const struct isc_table *t, const struct isc_column *c)
{
	if (c->type == ISC_COL_TEXT)
		return ISC_EXPR_TEXT;
	return isc_table_col_has_value(t, c->name) ? ISC_EXPR_NUM : ISC_EXPR_ANY;
}

/* The column of each variable of e (opt: "--include" or "--exclude"), its types checked. */
static const struct isc_column **bind(const struct isc_table *t, const struct isc_expr *e, const char *opt)
{
	size_t n = isc_expr_nvars(e);
	const struct isc_column **cols = isc_xcalloc(n + 1, sizeof(*cols));
	enum isc_expr_type *types = isc_xcalloc(n + 1, sizeof(*types));
	char msg[1024];
	int ok = 1;
	for (size_t i = 0; i < n && ok; i++) {
		cols[i] = isc_table_col(t, isc_expr_var(e, i));
		if (!cols[i] && !strcmp(isc_expr_var(e, i), "index"))
			cols[i] = &index_col;
		if (cols[i]) {
			types[i] = cols[i] == &index_col ? ISC_EXPR_NUM : col_type(t, cols[i]);
			continue;
		}
		list_columns(t, msg, sizeof(msg));
		isc_err("%s: filter: unknown column '%s' (columns: %s)", t->path, isc_expr_var(e, i), msg);
		ok = 0;
	}
	if (ok && isc_expr_check(e, types, msg, sizeof(msg)) < 0) {
		isc_err("%s: %s: %s", t->path, opt, msg);
		ok = 0;
	}
	free(types);
	if (!ok) {
		free(cols);
		cols = NULL;
	}
	return cols;
}

int isc_table_filter_mask(const struct isc_table *t, const struct isc_expr *include,
			 const struct isc_expr *exclude, unsigned char *keep)
{
	struct row_ctx inc = { .t = t }, exc = { .t = t };
	int rc = -1;
	if ((include && !(inc.cols = bind(t, include, "--include"))) ||
	    (exclude && !(exc.cols = bind(t, exclude, "--exclude"))))
		goto cleanup;
	piece_room(&inc, include);
	piece_room(&exc, exclude);
	for (size_t from = 0; from < t->nrows; from += ISC_COL_PIECE) {
		size_t n = t->nrows - from < ISC_COL_PIECE ? t->nrows - from : ISC_COL_PIECE;
		read_piece(&inc, include, from, n);
		read_piece(&exc, exclude, from, n);
		for (size_t r = from; r < from + n; r++) {
			inc.row = exc.row = r;
			keep[r] = (!include || isc_expr_truthy(isc_expr_eval(include, row_get, &inc))) &&
				  (!exclude || !isc_expr_truthy(isc_expr_eval(exclude, row_get, &exc)));
		}
	}
	rc = 0;
cleanup:
	free(inc.cols);
	free(exc.cols);
	free(inc.vals);
	free(exc.vals);
	free(inc.buf);
	free(exc.buf);
	return rc;
}

int isc_table_filter(struct isc_table *t, const struct isc_expr *include, const struct isc_expr *exclude)
{
	if (!include && !exclude)
		return 0;
	unsigned char *keep = isc_xmalloc(t->nrows ? t->nrows : 1);
	int rc = isc_table_filter_mask(t, include, exclude, keep);
	if (rc == 0)
		isc_table_keep_rows(t, keep);
	free(keep);
	return rc;
}
