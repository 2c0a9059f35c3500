/* SPDX-License-Identifier: GPL-2.0-only */
/* The output formats of analyze's subcommands. */
#ifndef ANALYZE_OUT_FORMAT_H
#define ANALYZE_OUT_FORMAT_H
#include <stdio.h>

enum out_format { FMT_TEXT, FMT_CSV, FMT_JSON };

/* 0, or -1 after "CMD: --format: expected text, csv or json, got 'S'". */
int parse_out_format(const char *cmd, const char *s, enum out_format *f);

/* One CSV field, RFC 4180: quoted only when it holds a comma, a quote or a line break, with
 * inner quotes doubled. */
void csv_field(FILE *f, const char *s);

/* Standard output for format f, through the filter that keeps strings from inputs safe
 * (textsafe.h): text as for a terminal (control characters as \xNN), CSV with U+FFFD for
 * control characters and invalid UTF-8, JSON valid UTF-8 with DEL and C1 escaped. NULL (after
 * a message) when out of memory. */
FILE *out_open(enum out_format f);
/* Close it and flush standard output: 0, or -1 if writing failed. */
int out_close(FILE *out);

#endif
