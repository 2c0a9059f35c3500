/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strings from inputs (run names, column names, cells, metadata, paths) written safely: valid
 * UTF-8 in every output, and no control character that a terminal would act on.
 *
 * Every writer of such strings goes through isc_text_write(), directly or through a filter
 * stream; the rules per output are in docs/format.md ("Strings from inputs").
 */
#ifndef IDLESCOPE_TEXTSAFE_H
#define IDLESCOPE_TEXTSAFE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A byte that is not valid UTF-8 is the text \xNN in every mode, so a string reads the same
 * in every output and two different ones stay different. */
enum isc_text_mode {
	/* One line on a terminal (messages): control characters (C0 including TAB and LF, DEL,
	 * C1) and Unicode bidi controls become \xNN, byte by byte. The result is printable. */
	ISC_TEXT_LINE,
	/* Text for a terminal (analyze's tables): as ISC_TEXT_LINE, but LF and TAB are kept. */
	ISC_TEXT_TERM,
	/* Data files (CSV, HTML): control characters other than TAB, LF and CR become \xNN. */
	ISC_TEXT_DATA,
	/* JSON text as cJSON prints it (control characters inside strings already escaped):
	 * DEL and C1 characters become \u007f ... \u009f, an invalid byte (only ever inside a
	 * string) the escaped text \\xNN, which reads back as \xNN. */
	ISC_TEXT_JSON,
};

/* Length (1 to 4) of the valid UTF-8 character at s[0..n), or 0 if s does not start with
 * one (a stray continuation byte, an overlong form, a surrogate, above U+10FFFF, or cut off
 * by n). */
size_t isc_utf8_char(const char *s, size_t n);

/* Write s[0..n) to f, made safe for mode. */
void isc_text_write(FILE *f, const char *s, size_t n, enum isc_text_mode mode);

/* s made safe for mode, malloc'd. */
char *isc_text_dup(const char *s, enum isc_text_mode mode);

/* NULL if s is acceptable as a name that collect writes (valid UTF-8, no control characters,
 * no bidi controls), else why not ("a control character (\x1b) at byte 2"), in buf. */
const char *isc_name_problem(const char *s, char *buf, size_t len);

/*
 * A stream whose bytes reach `to` through isc_text_write(mode); a UTF-8 character split
 * between two writes is kept whole. Closing it flushes `to` (and closes it when own is true)
 * and fails if writing to `to` failed. Line-buffered when `to` is a terminal. NULL only when
 * out of memory.
 */
FILE *isc_text_filter(FILE *to, enum isc_text_mode mode, bool own);

#endif
