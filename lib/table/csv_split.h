/* SPDX-License-Identifier: GPL-2.0-only */
/* Splitting one CSV line into fields (lib-internal). */
#ifndef IDLESCOPE_CSV_SPLIT_H
#define IDLESCOPE_CSV_SPLIT_H
#include <stddef.h>

struct fields {
	size_t n, cap;
	const char **ptr;
	size_t *len;
	char *unq;          /* storage for unquoted field text (lines with '"') */
	size_t unq_cap;
	char err[96];
};

/* Split line[0..len) (no newline) at commas; a line with '"' is parsed by libcsv.
 * Field pointers stay valid until the next call. Returns -1 with fl->err on bad quoting. */
int csv_split_line(const char *line, size_t len, struct fields *fl);
void fields_free(struct fields *fl);

#endif
