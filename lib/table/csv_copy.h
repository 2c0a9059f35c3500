/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copying a CSV file's rows, streamed: the rows a keep mask selects, with a subset of the
 * columns. Rows are counted as isc_table_read counts them (header skipped, blank lines
 * skipped, a UTF-8 byte order mark and CRLF line ends accepted), so row i here is row i of
 * the table that reader returns for the same file.
 */
#ifndef IDLESCOPE_CSV_COPY_H
#define IDLESCOPE_CSV_COPY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct isc_csv_copy {
	const char *path;            /* the source file */
	const unsigned char *keep;   /* keep[row] != 0: write the row; NULL = every row */
	size_t nrows;                /* rows to consider: the reader's row count (a cut-off
				      * last line it dropped is not copied) */
	bool (*want)(const char *name, void *arg);  /* columns to write; NULL = all */
	void *want_arg;
};

/*
 * Write the header (the wanted columns) and the kept rows to out, LF line ends. Fields are
 * copied as they are; a field holding a comma, quote or line break is written quoted
 * (RFC 4180). *written gets the rows written. Returns -1 after "<path>:<line>: ..." on a
 * read error or a line that is not what the reader saw (the file changed meanwhile).
 */
int isc_csv_copy_rows(const struct isc_csv_copy *c, FILE *out, size_t *written);

#endif
