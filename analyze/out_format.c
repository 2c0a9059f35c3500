/* SPDX-License-Identifier: GPL-2.0-only */
/* --format text|csv|json, shared by the subcommands. */
#include <string.h>

#include "text/textsafe.h"
#include "text/util.h"
#include "out_format.h"

int parse_out_format(const char *cmd, const char *s, enum out_format *f)
{
	static const char *const names[] = { "text", "csv", "json" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i]))
			return (*f = (enum out_format)i), 0;
	isc_err("%s: --format: expected text, csv or json, got '%s'", cmd, s);
	return -1;
}

void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

FILE *out_open(enum out_format f)
{
	static const enum isc_text_mode modes[] = { ISC_TEXT_TERM, ISC_TEXT_DATA, ISC_TEXT_JSON };
	FILE *out = isc_text_filter(stdout, modes[f], false);
	if (!out)
		isc_err("cannot set up the output: out of memory");
	return out;
}

int out_close(FILE *out)
{
	return fclose(out) != 0 ? -1 : 0;
}
