/* SPDX-License-Identifier: GPL-2.0-only */
/* 0/1 flag columns (IntrOff): which columns are flags, and their counts (flags.h). */
#include <math.h>
#include <string.h>

#include "diff/flags.h"
#include "table/colpack.h"

static const char *const flag_names[] = { "IntrOff" };

bool isc_is_flag_column(const struct isc_table *t, const char *name)
{
	bool known = false;
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		known = known || !strcmp(name, flag_names[i]);
	const struct isc_column *c = known ? isc_table_col(t, name) : NULL;
	if (!c || c->type != ISC_COL_NUM)
		return false;
	bool flags;
	if (c->packed && isc_colpack_is_flags(c->packed, t->nrows, &flags))
		return flags;
	double buf[1024];
	for (size_t at = 0; at < t->nrows; at += 1024) {
		size_t n = t->nrows - at < 1024 ? t->nrows - at : 1024;
		const double *v = isc_col_values(c, at, n, buf);
		for (size_t i = 0; i < n; i++)
			if (!isnan(v[i]) && v[i] != 0 && v[i] != 1)
				return false;
	}
	return true;
}

void isc_flag_counts(const double *v, const size_t *rows, size_t n, size_t *values, size_t *set)
{
	*values = *set = 0;
	for (size_t i = 0; i < n; i++) {
		double x = v[rows ? rows[i] : i];
		*values += !isnan(x);
		*set += x == 1;
	}
}

void isc_col_flag_counts(const struct isc_column *c, const size_t *rows, size_t n, size_t *values,
			 size_t *set)
{
	double buf[1024];
	if (c->packed && isc_colpack_flag_counts(c->packed, rows, n, values, set))
		return;
	*values = *set = 0;
	for (size_t at = 0; at < n; at += 1024) {
		size_t m = n - at < 1024 ? n - at : 1024, v, s;
		if (rows)
			isc_col_gather(c, rows + at, m, buf);
		isc_flag_counts(rows ? buf : isc_col_values(c, at, m, buf), NULL, m, &v, &s);
		*values += v;
		*set += s;
	}
}
