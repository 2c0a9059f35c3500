/* SPDX-License-Identifier: GPL-2.0-only */
/* Streaming copy of a CSV file's rows and columns (csv_copy.h). */
#include "table/csv_copy.h"

#include <errno.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "table/csv_split.h"
#include "text/util.h"

struct copier {
	const struct isc_csv_copy *c;
	FILE *out;
	bool *col_on;        /* per header field: written */
	size_t nfields;
	bool all;            /* every column: lines are copied as they are */
	struct fields fl;
	size_t line;
};

static void write_field(FILE *out, const char *s, size_t n)
{
	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) && !memchr(s, '\r', n)) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

/* Split and write the wanted fields of one line. */
static int write_selected(struct copier *k, const char *line, size_t len)
{
	if (csv_split_line(line, len, &k->fl) < 0 || k->fl.n != k->nfields) {
		isc_err("%s:%zu: %s (the file changed while it was copied?)", k->c->path, k->line,
		       k->fl.n != k->nfields ? "wrong number of fields" : k->fl.err);
		return -1;
	}
	bool first = true;
	for (size_t i = 0; i < k->fl.n; i++) {
		if (!k->col_on[i])
			continue;
		if (!first)
			fputc(',', k->out);
		write_field(k->out, k->fl.ptr[i], k->fl.len[i]);
		first = false;
	}
	fputc('\n', k->out);
	return 0;
}

/* The header: which columns are written; write their names. */
static int take_header(struct copier *k, char *line, size_t len)
{
	if (len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
		line += 3, len -= 3;
	if (csv_split_line(line, len, &k->fl) < 0) {
		isc_err("%s:1: header: %s", k->c->path, k->fl.err);
		return -1;
	}
	k->nfields = k->fl.n;
	k->col_on = isc_xcalloc(k->nfields, sizeof(*k->col_on));
	k->all = true;
	for (size_t i = 0; i < k->nfields; i++) {
		char *name = isc_xstrndup(k->fl.ptr[i], k->fl.len[i]);
		k->col_on[i] = !k->c->want || k->c->want(name, k->c->want_arg);
		k->all = k->all && k->col_on[i];
		free(name);
	}
	return write_selected(k, line, len);
}

/* The next line without its line end; -1 at the end of the file. */
static ssize_t next_line(struct copier *k, FILE *in, char **line, size_t *cap)
{
	ssize_t got = getline(line, cap, in);
	if (got <= 0)
		return -1;
	k->line++;
	if ((*line)[got - 1] == '\n')
		got--;
	if (got && (*line)[got - 1] == '\r')
		got--;
	return got;
}

static int copy_lines(struct copier *k, FILE *in, size_t *written)
{
	char *line = NULL;
	size_t cap = 0, row = 0;
	ssize_t got = next_line(k, in, &line, &cap);
	int rc = got < 0 ? 0 : take_header(k, line, (size_t)got);
	while (rc == 0 && got >= 0 && row < k->c->nrows && (got = next_line(k, in, &line, &cap)) >= 0) {
		size_t len = (size_t)got;
		if (len == 0)
			continue;
		if (!k->c->keep || k->c->keep[row]) {
			if (k->all) {
				fwrite(line, 1, len, k->out);
				fputc('\n', k->out);
			} else {
				rc = write_selected(k, line, len);
			}
			++*written;
		}
		row++;
	}
	if (rc == 0 && k->line == 0) {
		isc_err("%s: empty file (no header row)", k->c->path);
		rc = -1;
	} else if (rc == 0 && row < k->c->nrows) {
		isc_err("%s:%zu: %s", k->c->path, k->line,
		       ferror(in) ? strerror(errno) : "fewer rows than when it was read (the file changed?)");
		rc = -1;
	}
	free(line);
	return rc;
}

int isc_csv_copy_rows(const struct isc_csv_copy *c, FILE *out, size_t *written)
{
	struct copier k = { .c = c, .out = out };
	*written = 0;
	FILE *in = fopen(c->path, "r");
	if (!in) {
		isc_err("%s: %s", c->path, strerror(errno));
		return -1;
	}
	int rc = copy_lines(&k, in, written);
	fclose(in);
	free(k.col_on);
	fields_free(&k.fl);
	return rc;
}
