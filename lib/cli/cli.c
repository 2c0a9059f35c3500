/* SPDX-License-Identifier: GPL-2.0-only */
/* The option helper: getopt tables and --help from one table, and no abbreviated long options. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "text/util.h"

#define HELP_INDENT 24
#define HELP_WIDTH 79

int cli_build(const struct cli_opt *t, size_t n, struct option *lo, char *shorts, size_t slen)
{
	size_t k = 0, m = 0;
	if (slen < 2)
		return -1;
	shorts[k++] = ':';
	for (size_t i = 0; i < n; i++) {
		if (!t[i].name)
			continue;
		lo[m++] = (struct option){ t[i].name, t[i].arg ? required_argument : no_argument, NULL, t[i].val };
		if (!t[i].short_opt)
			continue;
		if (k + 3 > slen)
			return -1;
		shorts[k++] = (char)t[i].short_opt;
		if (t[i].arg)
			shorts[k++] = ':';
	}
	lo[m] = (struct option){ 0 };
	shorts[k] = '\0';
	return 0;
}

void cli_print_wrapped(FILE *f, const char *head, const char *text)
{
	int col = fprintf(f, "  %s", head);
	if (col >= HELP_INDENT) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_INDENT - col, "");
	col = HELP_INDENT;
	while (*text) {
		size_t w = strcspn(text, " \n\f");
		if (w == 0 && *text == '\f') {   /* CLI_BR */
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
			for (text++; *text == ' ' || *text == '\n'; text++)
				;
			continue;
		}
		if (col > HELP_INDENT && col + 1 + (int)w > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, text);
		col += (int)w;
		text += w;
		while (*text == ' ' || *text == '\n')
			text++;
	}
	fputc('\n', f);
}

void cli_print_options(FILE *f, const struct cli_opt *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *d = &t[i];
		char head[80];
		if (!d->name) {
			fputs(d->help, f);
			continue;
		}
		if (!d->help)
			continue;   /* an alias, listed by the command in its own words */
		if (d->short_opt)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", d->short_opt, d->name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", d->name, d->arg ? " " : "",
				 d->arg ? d->arg : "");
		cli_print_wrapped(f, head, d->help);
	}
}

/* How many elements short option cluster a ("-qo", "-oDIR") uses: 1, or 2 when its last
 * letter takes the next element as its argument. */
static int short_cluster_len(const char *a, const char *shorts)
{
	for (const char *p = a + 1; *p; p++) {
		const char *s = *p == ':' ? NULL : strchr(shorts, *p);
		if (s && s[1] == ':')
			return p[1] || s[2] == ':' ? 1 : 2;   /* "-oDIR", "-o::" optional, or "-o DIR" */
	}
	return 1;
}

/* Long option a ("--name" or "--name=value"): 0 if a whole name (*takes_next: its argument is
 * the next element), or the number of names it begins, listed in cand. */
static int long_match(const char *a, const struct option *lo, bool *takes_next, char *cand, size_t clen)
{
	const char *name = a + 2;
	size_t len = strcspn(name, "=");
	int begins = 0;
	size_t k = 0;
	cand[0] = '\0';
	for (const struct option *o = lo; o->name; o++) {
		if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
			*takes_next = o->has_arg == required_argument && !name[len];
			return 0;
		}
	}
	for (const struct option *o = lo; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		int w = snprintf(cand + k, clen - k, "%s--%s", begins ? " or " : "", o->name);
		if (w > 0 && (size_t)w < clen - k)
			k += (size_t)w;
		begins++;
	}
	return begins;
}

int cli_refuse_abbreviations(int argc, char *const *argv, const char *shorts, const struct option *lo,
			     const char *prefix, const char *help)
{
	bool in_order = shorts[0] == '+' || getenv("POSIXLY_CORRECT");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			return 0;
		if (a[0] != '-' || !a[1]) {
			if (in_order)
				return 0;
			continue;
		}
		if (a[1] != '-') {
			i += short_cluster_len(a, shorts) - 1;
			continue;
		}
		bool takes_next = false;
		char cand[256];
		if (long_match(a, lo, &takes_next, cand, sizeof(cand)) > 0) {
			char q[64];
			isc_quote_for_msg(a, strcspn(a, "="), q, sizeof(q));
			isc_err("%sunknown option '%s' (long options are never abbreviated: %s?); try '%s --help'",
			       prefix, q, cand, help);
			return -1;
		}
		if (takes_next)
			i++;
	}
	return 0;
}

void cli_print_help(FILE *f, const char *head, const struct cli_opt *t, size_t n, const char *tail)
{
	fputs(head, f);
	cli_print_options(f, t, n);
	fputs(tail, f);
}
