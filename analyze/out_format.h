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

#endif
