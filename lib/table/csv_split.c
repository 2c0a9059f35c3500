/* SPDX-License-Identifier: GPL-2.0-only */
/* Splitting one CSV line into fields: plain lines by hand, quoted ones by libcsv. */
#include "table/csv_split.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

static void push(struct fields *fl, const char *p, size_t len)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 32;
		fl->ptr = isc_xrealloc(fl->ptr, fl->cap * sizeof(*fl->ptr));
		fl->len = isc_xrealloc(fl->len, fl->cap * sizeof(*fl->len));
	}
	fl->ptr[fl->n] = p;
	fl->len[fl->n] = len;
	fl->n++;
}

struct quoted {
	struct fields *fl;
	size_t used;        /* bytes used in fl->unq */
	size_t *offs;       /* field offsets into unq, fixed up at the end */
	size_t noffs, cap;
};

static void on_field(void *s, size_t len, void *arg)
{
	struct quoted *q = arg;
	struct fields *fl = q->fl;
	if (q->used + len + 1 > fl->unq_cap) {
		fl->unq_cap = (q->used + len + 1) * 2;
		fl->unq = isc_xrealloc(fl->unq, fl->unq_cap);
	}
	if (len)
		memcpy(fl->unq + q->used, s, len);
	if (q->noffs == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 32;
		q->offs = isc_xrealloc(q->offs, q->cap * sizeof(*q->offs));
	}
	q->offs[q->noffs++] = q->used;
	push(fl, NULL, len);
	q->used += len;
	fl->unq[q->used++] = '\0';
}

static int split_quoted(const char *line, size_t len, struct fields *fl)
{
	struct csv_parser p;
	struct quoted q = { .fl = fl };
	int rc = 0;

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0) {
		snprintf(fl->err, sizeof(fl->err), "cannot initialise the CSV parser");
		return -1;
	}
	if (csv_parse(&p, line, len, on_field, NULL, &q) != len || csv_fini(&p, on_field, NULL, &q) != 0) {
		snprintf(fl->err, sizeof(fl->err), "bad quoting (%s)", csv_strerror(csv_error(&p)));
		rc = -1;
	}
	for (size_t i = 0; i < q.noffs; i++)
		fl->ptr[i] = fl->unq + q.offs[i];
	free(q.offs);
	csv_free(&p);
	return rc;
}

int csv_split_line(const char *line, size_t len, struct fields *fl)
{
	const char *p = line, *end = line + len, *comma;

	fl->n = 0;
	if (memchr(line, '"', len))
		return split_quoted(line, len, fl);
	while ((comma = memchr(p, ',', (size_t)(end - p)))) {
		push(fl, p, (size_t)(comma - p));
		p = comma + 1;
	}
	push(fl, p, (size_t)(end - p));
	return 0;
}

void fields_free(struct fields *fl)
{
	free(fl->ptr);
	free(fl->len);
	free(fl->unq);
	memset(fl, 0, sizeof(*fl));
}
