/* SPDX-License-Identifier: GPL-2.0-only */
/* A column-oriented table read from a CSV file (datapoints.csv, counters.csv). */
#ifndef IDLESCOPE_TABLE_H
#define IDLESCOPE_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct isc_colpack;

#define ISC_TEXT_EMPTY UINT32_MAX  /* text cell with no value */

enum isc_coltype { ISC_COL_NUM, ISC_COL_TEXT };

struct isc_column {
	char *name;
	enum isc_coltype type;
	double *num;     /* ISC_COL_NUM: one value per row, NaN for an empty cell */
	uint32_t *text;  /* ISC_COL_TEXT: string id per row (isc_table_str), ISC_TEXT_EMPTY if empty */
	struct isc_colpack *packed;  /* ISC_COL_NUM read packed (isc_table_opts.pack): num is NULL */
	bool borrowed;   /* num/text point into memory the table does not own (a mapped cache
			  * entry): isc_table_free leaves them; columns added later are owned */
};

struct isc_table {
	char *path;              /* file it was read from */
	size_t nrows;
	size_t ncols;            /* loaded columns only */
	struct isc_column *cols;
	char **strs;             /* interned text values, indexed by id */
	size_t nstrs;
	size_t file_ncols;       /* columns in the file header */
	char **file_colnames;    /* every header name, loaded or not */
	size_t dropped_rows;     /* a cut-off last line dropped while reading (0 or 1) */
	void *pool;              /* private: the string pool behind strs */
	void *colindex;          /* private: column names -> column, for isc_table_col */
	void *pack_arena;        /* private: the memory of packed columns' codes (one block) */
	/* Set when some columns are borrowed (a mapped cache file, lib/cache): isc_table_free
	 * calls release(release_arg) after freeing the columns it owns. */
	void (*release)(void *arg);
	void *release_arg;
};

/* Columns a CSV header may have (docs/format.md): far above any real file (wult's have
 * about 30, counters.csv a few hundred), and every step per column is linear, so that a file
 * at the limit is read and analysed in well under a second. */
#define ISC_TABLE_MAX_COLS 100000

struct isc_table_opts {
	/* Which columns to keep; NULL keeps all. Called once per header name. */
	bool (*want)(const char *name, void *arg);
	void *want_arg;
	int nthreads;            /* 0 = number of online CPUs (at most 2 used per file) */
	/* Other readers run at the same time: no helper thread waiting for its chunk on a busy
	 * loop while the header is read (early_thread.h), which would take their CPU. */
	bool concurrent;
	/* The metadata says the file is whole (info.json "complete": true) with known_rows rows:
	 * then a last line without its newline is kept when the row count matches. */
	bool known_complete;
	size_t known_rows;
	/* Keep number columns whose type sample allows it as small integers (colpack.h), with
	 * num NULL: only for a caller that reads every column it is given through
	 * isc_col_values / isc_col_gather or unpacks it first. */
	bool pack;
};

/*
 * Read a CSV file with a header row. On error prints one line naming the file,
 * line and field ("analyze: run1/datapoints.csv:17: field 'LDist': expected a number, got 'abc'")
 * and returns -1. A last line without its newline is dropped with a warning (a killed
 * writer leaves one), unless opts say the file is complete with that many rows.
 */
int isc_table_read(const char *path, const struct isc_table_opts *opts, struct isc_table **out);
void isc_table_free(struct isc_table *t);

/* An empty table with the given column layout, to be filled with isc_table_append_*. */
struct isc_table *isc_table_new(const char *path);
struct isc_column *isc_table_add_col(struct isc_table *t, const char *name, enum isc_coltype type);

/* Column by name (the first of that name), or NULL; a hash lookup. */
struct isc_column *isc_table_col(const struct isc_table *t, const char *name);
/* Whether the column exists and has at least one non-empty cell. */
bool isc_table_col_has_value(const struct isc_table *t, const char *name);
const char *isc_table_str(const struct isc_table *t, uint32_t id);
/* Intern a string, returning its id. */
uint32_t isc_table_intern(struct isc_table *t, const char *s);

/* Keep only rows with keep[row] != 0 (in place, order kept). */
void isc_table_keep_rows(struct isc_table *t, const unsigned char *keep);
/* Keep the first n rows. */
void isc_table_truncate(struct isc_table *t, size_t n);

/* Values of a number column, packed or not: rows [from, from + n) (a pointer into the
 * column, or buf filled), and rows[0..n) into out. */
const double *isc_col_values(const struct isc_column *c, size_t from, size_t n, double *buf);
void isc_col_gather(const struct isc_column *c, const size_t *rows, size_t n, double *out);

/* A number column's nrows rows read ISC_COL_PIECE at a time, packed or not (a packed column
 * stays packed: no array of doubles for every row). Set c and nrows, the rest zero, then:
 *     for (const double *v; (v = isc_col_piece(&p));)  ... v[0..p.n): rows p.from ...  */
#define ISC_COL_PIECE 1024
struct isc_col_pieces {
	const struct isc_column *c;
	size_t nrows;
	size_t from, n;          /* the piece last returned */
	double buf[ISC_COL_PIECE];
};
/* The next piece's values, or NULL after the last. */
const double *isc_col_piece(struct isc_col_pieces *p);
/* A packed column (or every one of t) back to an array of doubles. */
void isc_table_unpack_col(const struct isc_table *t, struct isc_column *c);
void isc_table_unpack(struct isc_table *t);

/* Column names that idlescope and wult always treat as text. */
bool isc_is_known_text_column(const char *name);

#endif
