/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading number columns that may be packed (colpack.h), and unpacking them. */
#include <stdlib.h>

#include "table/colpack.h"
#include "table/table.h"
#include "text/util.h"

const double *isc_col_values(const struct isc_column *c, size_t from, size_t n, double *buf)
{
	if (!c->packed)
		return c->num + from;
	isc_colpack_decode(c->packed, from, n, buf);
	return buf;
}

const double *isc_col_piece(struct isc_col_pieces *p)
{
	p->from += p->n;
	if (p->from >= p->nrows)
		return NULL;
	p->n = p->nrows - p->from < ISC_COL_PIECE ? p->nrows - p->from : ISC_COL_PIECE;
	return isc_col_values(p->c, p->from, p->n, p->buf);
}

void isc_col_gather(const struct isc_column *c, const size_t *rows, size_t n, double *out)
{
	if (c->packed) {
		isc_colpack_gather(c->packed, rows, n, out);
		return;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = c->num[rows[i]];
}

void isc_table_unpack_col(const struct isc_table *t, struct isc_column *c)
{
	if (!c->packed)
		return;
	c->num = isc_xmalloc((t->nrows ? t->nrows : 1) * sizeof(double));
	isc_colpack_decode(c->packed, 0, t->nrows, c->num);
	isc_colpack_free(c->packed);
	free(c->packed);
	c->packed = NULL;
}

void isc_table_unpack(struct isc_table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		isc_table_unpack_col(t, &t->cols[i]);
}
