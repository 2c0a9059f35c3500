/* Row filters: --include/--exclude expressions evaluated over a table's rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/expr.h"
#include "idlescope/table.h"
#include "idlescope/util.h"

struct row_ctx {
	const struct is_table *t;
	const struct is_column **cols;  /* per expression variable */
	size_t row;
};

static struct is_value row_get(void *arg, size_t var)
{
	struct row_ctx *c = arg;
	const struct is_column *col = c->cols[var];
	if (col->type == IS_COL_NUM)
		return (struct is_value){ .num = col->num[c->row] };
	return (struct is_value){ .is_str = true, .str = is_table_str(c->t, col->text[c->row]) };
}

static void list_columns(const struct is_table *t, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < t->ncols && o + 4 < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", t->cols[i].name);
		o += w > 0 ? (size_t)w : 0;
	}
	if (o >= len - 4)
		strcpy(buf + len - 4, "...");
}

static const struct is_column **bind(const struct is_table *t, const struct is_expr *e)
{
	const struct is_column **cols = is_xcalloc(is_expr_nvars(e) + 1, sizeof(*cols));
	for (size_t i = 0; i < is_expr_nvars(e); i++) {
		cols[i] = is_table_col(t, is_expr_var(e, i));
		if (!cols[i]) {
			char names[400];
			list_columns(t, names, sizeof(names));
			is_err("%s: filter: unknown column '%s' (columns: %s)", t->path,
			       is_expr_var(e, i), names);
			free(cols);
			return NULL;
		}
	}
	return cols;
}

int is_table_filter(struct is_table *t, const struct is_expr *include, const struct is_expr *exclude)
{
	struct row_ctx inc = { .t = t }, exc = { .t = t };
	int rc = -1;
	if (!include && !exclude)
		return 0;
	if ((include && !(inc.cols = bind(t, include))) || (exclude && !(exc.cols = bind(t, exclude))))
		goto cleanup;
	unsigned char *keep = is_xmalloc(t->nrows ? t->nrows : 1);
	for (size_t r = 0; r < t->nrows; r++) {
		inc.row = exc.row = r;
		keep[r] = (!include || is_expr_truthy(is_expr_eval(include, row_get, &inc))) &&
			  (!exclude || !is_expr_truthy(is_expr_eval(exclude, row_get, &exc)));
	}
	is_table_keep_rows(t, keep);
	free(keep);
	rc = 0;
cleanup:
	free(inc.cols);
	free(exc.cols);
	return rc;
}
