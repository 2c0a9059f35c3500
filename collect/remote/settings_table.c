/* SPDX-License-Identifier: GPL-2.0-only */
/* How collect -H shows the hosts' settings answers: each host's own, then side by side. Sorted
 * lookups throughout: a fleet of hosts with up to SETTINGS_MAX settings each stays quick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings_remote.h"
#include "text/textsafe.h"
#include "text/util.h"

struct row {
	const char *name;
	size_t order;   /* host index * SETTINGS_MAX + position: the first host's order first */
};

static int by_name(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

static int by_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Every setting any answering host has, once, in the order the hosts list them. */
static struct row *union_rows(const struct host_answer *h, size_t n, size_t *nrows)
{
	size_t total = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		total += h[i].answered ? h[i].a.n : 0;
	struct row *r = isc_xcalloc(total + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; h[i].answered && j < h[i].a.n; j++)
			r[k++] = (struct row){ h[i].a.names[j], i * SETTINGS_MAX + j };
	qsort(r, k, sizeof(*r), by_name);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || strcmp(r[u - 1].name, r[i].name))
			r[u++] = r[i];
	qsort(r, u, sizeof(*r), by_order);
	*nrows = u;
	return r;
}

/* One host's settings sorted by name (indices into its answer), for bsearch. */
struct index {
	const struct settings_answer *a;
	size_t *ix;
};
static const struct settings_answer *sort_answer;

static int by_answer_name(const void *x, const void *y)
{
	return strcmp(sort_answer->names[*(const size_t *)x], sort_answer->names[*(const size_t *)y]);
}

static const char *lookup(const struct index *x, const char *name)
{
	size_t lo = 0, hi = x->a ? x->a->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(x->a->names[x->ix[mid]], name);
		if (!c)
			return x->a->values[x->ix[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Display columns of UTF-8 text (the answer has no control characters). */
static int width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* A cell padded to w columns, but the last of its line. */
static void cell(FILE *out, const char *s, int w, bool last)
{
	fprintf(out, "  %s%*s", s, last ? 0 : w - width(s), "");
}

/* Row r's cells and whether they differ ('*'), and whether some answering host lacks it. */
static bool differs(const struct index *ix, size_t n, const char *name, bool *some_lack)
{
	const char *first = NULL;
	bool diff = false, seen = false;
	*some_lack = false;
	for (size_t i = 0; i < n; i++) {
		if (!ix[i].a)
			continue;
		const char *v = lookup(&ix[i], name);
		*some_lack |= !v;
		if (seen && (!v != !first || (v && strcmp(v, first))))
			diff = true;
		first = seen ? first : v;
		seen = true;
	}
	return diff;
}

static void print_rows(FILE *out, const struct host_answer *h, const struct index *ix, size_t n,
		       const struct row *rows, size_t nrows)
{
	int nw = width("setting"), *cw = isc_xcalloc(n, sizeof(int));
	for (size_t r = 0; r < nrows; r++)
		nw = width(rows[r].name) > nw ? width(rows[r].name) : nw;
	for (size_t i = 0; i < n; i++) {
		cw[i] = width(h[i].host);
		for (size_t r = 0; ix[i].a && r < nrows; r++) {
			const char *v = lookup(&ix[i], rows[r].name);
			cw[i] = v && width(v) > cw[i] ? width(v) : cw[i];
		}
	}
	size_t last = 0;
	for (size_t i = 0; i < n; i++)
		last = ix[i].a ? i : last;
	fprintf(out, " ");
	cell(out, "setting", nw, false);
	for (size_t i = 0; i < n; i++)
		if (ix[i].a)
			cell(out, h[i].host, cw[i], i == last);
	fprintf(out, "\n");
	for (size_t r = 0; r < nrows; r++) {
		bool lack;
		fprintf(out, "%c", differs(ix, n, rows[r].name, &lack) ? '*' : ' ');
		cell(out, rows[r].name, nw, false);
		for (size_t i = 0; i < n; i++) {
			const char *v = ix[i].a ? lookup(&ix[i], rows[r].name) : NULL;
			if (ix[i].a)
				cell(out, v ? v : "-", cw[i], i == last);
		}
		fprintf(out, "\n");
	}
	free(cw);
}

/* Hosts that have (or lack) setting name, after what: " on a, b". */
static void hosts_with(FILE *out, const struct host_answer *h, const struct index *ix, size_t n, const char *name,
		       bool have, const char *what)
{
	const char *sep = what;
	for (size_t i = 0; i < n; i++)
		if (ix[i].a && !lookup(&ix[i], name) == !have) {
			fprintf(out, "%s %s", sep, h[i].host);
			sep = ",";
		}
}

static bool anyone_has(const struct index *ix, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (ix[i].a && lookup(&ix[i], name))
			return true;
	return false;
}

/* "  NAME: on HOST, HOST; not on HOST" for each setting only some answering hosts have, then
 * the ones (of the plan) that none has. */
static void print_partial(FILE *out, const struct host_answer *h, const struct index *ix, size_t n,
			  const struct row *rows, size_t nrows)
{
	bool any = false;
	const char *sep = "On no host:";
	for (size_t r = 0; r < nrows; r++) {
		bool lack;
		differs(ix, n, rows[r].name, &lack);
		if (!lack || !anyone_has(ix, n, rows[r].name))
			continue;
		if (!any)
			fprintf(out, "Only on some hosts:\n");
		any = true;
		fprintf(out, "  %s:", rows[r].name);
		hosts_with(out, h, ix, n, rows[r].name, true, " on");
		hosts_with(out, h, ix, n, rows[r].name, false, "; not on");
		fprintf(out, "\n");
	}
	for (size_t r = 0; r < nrows; r++)
		if (!anyone_has(ix, n, rows[r].name)) {
			fprintf(out, "%s %s", sep, rows[r].name);
			sep = ",";
		}
	if (sep[0] == ',')
		fprintf(out, "\n");
}

void settings_table_print(FILE *out, const struct host_answer *h, size_t n, const char *const *names, size_t nnames)
{
	size_t answered = 0, nrows = 0;
	for (size_t i = 0; i < n; i++)
		answered += h[i].answered;
	if (answered < 2)
		return;
	struct index *ix = isc_xcalloc(n, sizeof(*ix));
	struct row *rows = names ? isc_xcalloc(nnames + 1, sizeof(*rows)) : union_rows(h, n, &nrows);
	for (size_t i = 0; names && i < nnames; i++)
		rows[nrows++] = (struct row){ names[i], i };
	for (size_t i = 0; i < n; i++) {
		if (!h[i].answered)
			continue;
		ix[i].ix = isc_xcalloc(h[i].a.n + 1, sizeof(size_t));
		ix[i].a = &h[i].a;
		for (size_t j = 0; j < h[i].a.n; j++)
			ix[i].ix[j] = j;
		sort_answer = &h[i].a;
		qsort(ix[i].ix, h[i].a.n, sizeof(size_t), by_answer_name);
	}
	fprintf(out, "%s by host (*: the hosts differ; -: the host does not have it):\n",
		names ? "Current values of the settings the plan sets," : "Settings");
	print_rows(out, h, ix, n, rows, nrows);
	print_partial(out, h, ix, n, rows, nrows);
	for (size_t i = 0; i < n; i++)
		free(ix[i].ix);
	free(ix);
	free(rows);
}

void settings_host_print(FILE *out, const struct host_answer *h)
{
	fprintf(out, "=== %s ===\n", h->host);
	size_t len = h->answered ? strlen(h->a.output) : 0;
	if (!h->answered || (!len && h->status)) {
		fprintf(out, "(%s: %s)\n", h->answered ? "failed" : "no answer", h->why);
		return;
	}
	isc_text_write(out, h->a.output, len, ISC_TEXT_TERM);
	if (len && h->a.output[len - 1] != '\n')
		fprintf(out, "\n");
	if (h->a.output_cut)
		fprintf(out, "(the output goes on on the SUT: only its first %u KiB came)\n", SETTINGS_OUTPUT_MAX >> 10);
}

void settings_summary_print(FILE *out, const struct host_answer *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s: %s\n", h[i].host, h[i].status ? h[i].why : "ok");
}
