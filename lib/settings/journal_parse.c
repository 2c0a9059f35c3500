/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the restore journal (format in journal.c) without acting on it: every line checked
 * before any value is written back. A last line without its newline was cut while it was
 * written (a crash, a full disk): the write it announced never happened, so it is left out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

/* 1 to 16 hex digits, nothing else. */
static bool hex_field(const char *s, uint64_t max, uint64_t *v)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	if (n == 0 || n > 16 || s[n])
		return false;
	*v = strtoull(s, NULL, 16);
	return *v <= max;
}

/* A path the settings write: under root, in /sys (files) or /dev/cpu (MSRs), no "." or ".." part. */
static bool path_ok(const char *p, const char *root, bool msr)
{
	size_t r = strlen(root);
	const char *under = msr ? "/dev/cpu/" : "/sys/";
	if (strncmp(p, root, r) || strncmp(p + r, under, strlen(under)))
		return false;
	for (const char *s = p + r; (s = strstr(s, "/.")); s++)
		if (s[2] == '/' || s[2] == '\0' || (s[2] == '.' && (s[3] == '/' || s[3] == '\0')))
			return false;
	return true;
}

static int bad_line(size_t line, const char *why, const char *text, char *err, size_t len)
{
	char q[120];
	isc_quote_for_msg(text, strlen(text), q, sizeof(q));
	snprintf(err, len, "line %zu: %s: '%s'", line, why, q);
	return -1;
}

static int parse_entry(char *l, size_t line, const char *root, struct st_jentry *e, char *err, size_t len)
{
	char *f[7] = { 0 }, *save = NULL, *copy = isc_xstrdup(l);
	size_t n = 0;
	for (char *t = strtok_r(l, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	*e = (struct st_jentry){ .line = line };
	int rc = 0;
	if (n == 4 && !strcmp(f[0], "file") && path_ok(f[2], root, false)) {
		e->setting = f[1], e->path = f[2], e->old = f[3];
	} else if (n == 6 && !strcmp(f[0], "msr") && path_ok(f[2], root, true) &&
		   hex_field(f[3], UINT32_MAX, &e->oldv) && hex_field(f[4], UINT64_MAX, &e->mask) &&
		   hex_field(f[5], UINT64_MAX, &e->oldv)) {
		e->msr = true, e->setting = f[1], e->path = f[2];
		e->reg = (uint32_t)strtoul(f[3], NULL, 16);
	} else {
		rc = bad_line(line, n && (!strcmp(f[0], "file") || !strcmp(f[0], "msr"))
					    ? "an entry with a bad field or a path outside what settings write"
					    : "not a journal entry", copy, err, len);
	}
	free(copy);
	return rc;
}

int st_journal_parse(char *text, size_t len, const char *root, struct st_jtext *out, char *err, size_t errlen)
{
	*out = (struct st_jtext){ .pid = -1 };
	if (memchr(text, '\0', len))
		return snprintf(err, errlen, "holds a NUL byte: not a journal this collect wrote"), -1;
	char *p = text, *end = text + len;
	for (size_t line = 1; p < end; line++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {  /* cut while it was written: its change never happened */
			out->cut_line = line;
			break;
		}
		*nl = '\0';
		if (line == 1 && strcmp(p, ST_JOURNAL_HEAD))
			return bad_line(1, "not the head of a journal this collect reads ('" ST_JOURNAL_HEAD "')", p,
					err, errlen);
		if (line == 2) {
			char *e;
			out->pid = strncmp(p, "pid ", 4) ? -1 : strtol(p + 4, &e, 10);
			if (out->pid <= 0 || *e)
				return bad_line(2, "not the pid line", p, err, errlen);
		} else if (line > 2) {
			out->e = isc_xrealloc(out->e, (out->n + 1) * sizeof(*out->e));
			if (parse_entry(p, line, root, &out->e[out->n], err, errlen) < 0)
				return -1;
			out->n++;
		}
		p = nl + 1;
	}
	if (out->pid < 0)
		return snprintf(err, errlen, "no head and pid line: not a journal this collect wrote"), -1;
	return 0;
}

void st_journal_text_free(struct st_jtext *t)
{
	free(t->e);
	t->e = NULL;
	t->n = 0;
}
