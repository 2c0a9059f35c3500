/* SPDX-License-Identifier: GPL-2.0-only */
/* stats-collect's /proc/interrupts snapshots into interrupt rates (interrupts_text.h). */
#include "formats/interrupts_text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/numparse.h"
#include "text/util.h"

enum irq_kind { IK_OTHER, IK_LOC, IK_RES, IK_CAL, IK_TLB, IK_DEV, IK_N };
static const char *const kind_key[IK_N] = { NULL, "LOC/s", "RES/s", "CAL/s", "TLB/s", "DevIRQ/s" };

struct irq_row {
	char *name;
	enum irq_kind kind;
	uint64_t prev, cur;   /* the measured CPU's count in the last and the current snapshot */
	size_t line;          /* where cur was read */
	bool in_prev, in_cur;
};

struct irq_file {
	const char *path;
	long cpu;
	struct irq_row *rows;
	size_t nrows, cap, hint;  /* hint: where the next row probably is (same order each time) */
	long col;                 /* the measured CPU's column in the last header; -1: none yet */
	size_t ncpus;             /* columns of the last header */
	size_t lineno, nsnaps;    /* nsnaps: complete snapshots taken in */
	bool in_snap;             /* a timestamp was read and its rows are coming */
	double t, t_first, t_last;
	long cur_last, prev_last; /* the last row of the current and of the previous snapshot */
	double acc[IK_N], total;
};

static char *next_field(char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!**p)
		return NULL;
	char *f = *p;
	while (**p && **p != ' ' && **p != '\t')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return f;
}

static int bad(const struct irq_file *s, const char *field, const char *what, const char *got)
{
	char q[64];
	isc_quote_for_msg(got, strlen(got), q, sizeof(q));
	isc_err("%s:%zu: field '%s': %s, got '%s'", s->path, s->lineno, field, what, q);
	return -1;
}

/* A count as /proc/interrupts prints it: decimal digits. 1: one, 0: not digits, -1: too big. */
static int parse_count(const char *f, uint64_t *out)
{
	uint64_t v = 0;
	if (!*f)
		return 0;
	for (const char *c = f; *c; c++) {
		if (*c < '0' || *c > '9')
			return 0;
		unsigned d = (unsigned)(*c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 1;
}

static enum irq_kind kind_of(const char *name)
{
	static const char *const named[IK_N] = { NULL, "LOC", "RES", "CAL", "TLB", NULL };
	for (int k = IK_LOC; k <= IK_TLB; k++)
		if (!strcmp(name, named[k]))
			return (enum irq_kind)k;
	return name[strspn(name, "0123456789")] ? IK_OTHER : IK_DEV;
}

static struct irq_row *find_row(struct irq_file *s, const char *name)
{
	size_t i = s->hint < s->nrows && !strcmp(s->rows[s->hint].name, name) ? s->hint : 0;
	while (i < s->nrows && strcmp(s->rows[i].name, name))
		i++;
	if (i == s->nrows) {
		if (s->nrows == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 64;
			s->rows = isc_xrealloc(s->rows, s->cap * sizeof(*s->rows));
		}
		s->rows[s->nrows++] = (struct irq_row){ .name = isc_xstrdup(name), .kind = kind_of(name) };
	}
	s->hint = i + 1;
	return &s->rows[i];
}

/* The counts of the last snapshot minus those of the one before, into the sums. */
static int take_snapshot(struct irq_file *s)
{
	for (size_t i = 0; s->nsnaps && i < s->nrows; i++) {
		struct irq_row *r = &s->rows[i];
		if (!r->in_cur || !r->in_prev)
			continue;
		uint64_t d = r->cur - r->prev;  /* modulo 2^64 */
		if (r->cur < r->prev && r->prev > UINT32_MAX) {
			s->lineno = r->line;
			char got[48];
			snprintf(got, sizeof(got), "%" PRIu64 " after %" PRIu64, r->cur, r->prev);
			return bad(s, r->name, "a count that goes down", got);
		}
		if (r->cur < r->prev)  /* a 32-bit count that wrapped */
			d = r->cur + (UINT64_C(1) << 32) - r->prev;
		s->acc[r->kind] += (double)d;
		s->total += (double)d;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		s->rows[i].prev = s->rows[i].cur;
		s->rows[i].in_prev = s->rows[i].in_cur;
		s->rows[i].in_cur = false;
	}
	if (!s->nsnaps++)
		s->t_first = s->t;
	s->t_last = s->t;
	s->prev_last = s->cur_last;
	s->cur_last = -1;
	s->in_snap = false;
	return 0;
}

static int take_timestamp(struct irq_file *s, char *val)
{
	double t;
	val += strspn(val, " \t");
	for (size_t n = strlen(val); n && (val[n - 1] == ' ' || val[n - 1] == '\t');)
		val[--n] = '\0';
	if (!isc_parse_double(val, strlen(val), &t) || !isfinite(t))
		return bad(s, "timestamp", "expected seconds since the epoch", val);
	if (s->in_snap && s->cur_last >= 0 && take_snapshot(s))
		return -1;
	if (s->nsnaps && t < s->t_last)
		return bad(s, "timestamp", "expected a time after the previous snapshot's", val);
	s->t = t;
	s->in_snap = true;
	return 0;
}

static int take_header(struct irq_file *s, char *line)
{
	char *f;
	s->ncpus = 0;
	s->col = -1;
	while ((f = next_field(&line))) {
		uint64_t n;
		if (strncmp(f, "CPU", 3) || parse_count(f + 3, &n) != 1)
			return bad(s, "header", "expected CPU<number> columns", f);
		if (n == (uint64_t)s->cpu)
			s->col = (long)s->ncpus;
		s->ncpus++;
	}
	if (s->col < 0) {
		char field[32];
		snprintf(field, sizeof(field), "CPU%ld", s->cpu);
		return bad(s, field, "the measured CPU is not among the columns", "(absent)");
	}
	return 0;
}

/* "NAME: count count ... [chip hwirq action]"; rows with fewer counts are system-wide (ERR). */
static int take_row(struct irq_file *s, char *line)
{
	char *name = next_field(&line), *f;
	size_t len = strlen(name);
	if (len < 2 || name[len - 1] != ':')
		return bad(s, "row", "expected 'NAME: counts' (a /proc/interrupts row)", name);
	name[len - 1] = '\0';
	if (!s->in_snap || s->col < 0)
		return bad(s, name, "expected a 'timestamp:' line and a CPU header before the rows", name);
	uint64_t v = 0, mine = 0;
	size_t i = 0;
	for (; i < s->ncpus && (f = next_field(&line)); i++) {
		int ok = parse_count(f, &v);
		if (ok <= 0)
			return bad(s, name, ok < 0 ? "a count above 2^64" : "expected a count", f);
		mine = (long)i == s->col ? v : mine;
	}
	if (i < s->ncpus)
		return 0;
	struct irq_row *r = find_row(s, name);
	if (r->in_cur)
		return bad(s, name, "a row twice in one snapshot", name);
	*r = (struct irq_row){ r->name, r->kind, r->prev, mine, s->lineno, r->in_prev, true };
	s->cur_last = (long)(r - s->rows);
	return 0;
}

static int take_line(struct irq_file *s, char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
	line += strspn(line, " \t");
	if (!*line || *line == '#')
		return 0;
	if (!strncmp(line, "timestamp:", 10))
		return take_timestamp(s, line + 10);
	if (!strncmp(line, "CPU", 3))
		return take_header(s, line);
	return take_row(s, line);
}

static bool is_end_marker(const char *line)
{
	/* the helper's last words when stats-collect stops it */
	return strstr(line, "interrupts-helper: error: interrupted, exiting") != NULL;
}

static int read_snapshots(FILE *in, struct irq_file *s)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	ssize_t n;
	while (rc == 0 && (n = getline(&line, &cap, in)) > 0) {
		s->lineno++;
		if (is_end_marker(line))
			break;
		if (line[n - 1] != '\n')
			break;  /* cut off while written: its counts may be cut too */
		rc = take_line(s, line);
	}
	free(line);
	/* the last snapshot may have been cut off: complete when it ends as the one before did */
	if (rc == 0 && s->in_snap && s->cur_last >= 0 && (!s->nsnaps || s->cur_last == s->prev_last))
		rc = take_snapshot(s);
	return rc;
}

int isc_interrupts_summary(const char *path, long cpu, cJSON *summary)
{
	struct irq_file s = { .path = path, .cpu = cpu, .col = -1, .cur_last = -1, .prev_last = -1 };
	FILE *in = fopen(path, "r");
	if (!in) {
		isc_err("%s: %s", path, strerror(errno));
		return -1;
	}
	int rc = read_snapshots(in, &s);
	fclose(in);
	double span = s.t_last - s.t_first;
	if (rc == 0 && s.nsnaps > 1 && span > 0) {
		cJSON_AddNumberToObject(summary, "Intr/s", s.total / span);
		for (int k = IK_LOC; k < IK_N; k++)
			cJSON_AddNumberToObject(summary, kind_key[k], s.acc[k] / span);
		rc = 1;
	}
	for (size_t i = 0; i < s.nrows; i++)
		free(s.rows[i].name);
	free(s.rows);
	return rc;
}
