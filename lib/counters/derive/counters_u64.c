/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Raw counter values at the top of the u64 range (counters_derive_internal.h): every integer
 * from 2^64 - 1024 to 2^64 + 2047 reads as the double 2^64, so the cells that read as 2^64
 * are checked again against their text, which must not be above 18446744073709551615.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "counters/derive/counters_derive_internal.h"
#include "table/csv_split.h"
#include "text/util.h"

#define U64_MAX_TEXT "18446744073709551615"

/* Whether s[0..n) is an unsigned decimal integer (leading zeros and blanks allowed) <= 2^64 - 1. */
static bool fits_u64(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || (*s == '0' && n > 1 && s[1] >= '0' && s[1] <= '9'))) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n && (n < 20 || (n == 20 && memcmp(s, U64_MAX_TEXT, 20) <= 0));
}

static bool any_at_top(const struct cnt_data *d)
{
	for (size_t j = 0; j < d->ncols; j++)
		for (size_t r = 0; r < d->t->nrows; r++)
			if (d->ci[j].v[r] == 0x1p64)
				return true;
	return false;
}

/* The header position of counter column j (its first occurrence), or SIZE_MAX. */
static size_t file_col(const struct cnt_data *d, size_t j)
{
	for (size_t k = 0; k < d->t->file_ncols; k++)
		if (!strcmp(d->t->file_colnames[k], d->ci[j].name))
			return k;
	return SIZE_MAX;
}

static int check_line(const struct cnt_data *d, size_t r, size_t lineno, const struct fields *fl)
{
	for (size_t j = 0; j < d->ncols; j++) {
		size_t k = d->ci[j].v[r] == 0x1p64 ? file_col(d, j) : SIZE_MAX;
		if (k >= fl->n || fits_u64(fl->ptr[k], fl->len[k]))
			continue;
		char q[64];
		isc_quote_for_msg(fl->ptr[k], fl->len[k], q, sizeof(q));
		isc_err("%s:%zu: field '%s': expected a raw counter value of at most " U64_MAX_TEXT
		       " (2^64 - 1), got '%s'", d->csv_path, lineno, d->ci[j].name, q);
		return -1;
	}
	return 0;
}

int cnt_check_u64_top(const struct cnt_data *d)
{
	if (!any_at_top(d))
		return 0;
	FILE *in = fopen(d->csv_path, "r");
	if (!in)
		return 0;  /* it was read a moment ago; the doubles stand */
	struct fields fl = { 0 };
	char *line = NULL;
	size_t cap = 0, lineno = 0, r = 0;
	ssize_t len;
	int rc = 0;
	bool header = true;
	while (rc == 0 && r < d->t->nrows && (len = getline(&line, &cap, in)) > 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len || header) {  /* blank lines are skipped as the reader skips them */
			header = header && !len;
			continue;
		}
		if (csv_split_line(line, (size_t)len, &fl) == 0)
			rc = check_line(d, r, lineno, &fl);
		r++;
	}
	free(line);
	fields_free(&fl);
	fclose(in);
	return rc;
}
