/* SPDX-License-Identifier: GPL-2.0-only */
/* Error reporting and small helpers shared by every idlescope program. */
#ifndef IDLESCOPE_UTIL_H
#define IDLESCOPE_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes used by every program. */
enum { ISC_EXIT_OK = 0, ISC_EXIT_DATA = 1, ISC_EXIT_USAGE = 2 };

/* Set the program name that prefixes every message ("analyze: ..."). */
void isc_set_progname(const char *name);
const char *isc_progname(void);

/* One-line messages on stderr: "<prog>: <msg>", "<prog>: warning: <msg>",
 * "<prog>: note: <msg>" and (isc_info, for what is not an error) "<prog>: <msg>". Control
 * characters and invalid UTF-8 from the arguments are written as \xNN (textsafe.h). */
void isc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void isc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void isc_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void isc_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* How many warnings this thread printed (the run cache keeps no file that warns). */
unsigned isc_warn_count(void);
/* Print no messages on this thread until called with false (a trial read whose messages a
 * second read prints); warnings are still counted. Other threads still speak. */
void isc_msg_mute(bool on);
/* Messages held in memory, a buffer per job (a run being loaded on one of two threads), so
 * that they come out in the jobs' order, not the threads': isc_msg_hold(h) sends this thread's
 * messages to h until isc_msg_hold(NULL); isc_msg_hold_order(hs, n) names the buffers that an
 * out-of-memory exit prints first, in order; isc_msg_held_print(hs, n) prints them in order,
 * frees them and forgets that order. */
struct isc_msg_held {
	char *text;
	size_t len;
};
void isc_msg_hold(struct isc_msg_held *to);
void isc_msg_hold_order(struct isc_msg_held *hs, size_t n);
void isc_msg_held_print(struct isc_msg_held *hs, size_t n);

/* After getopt_long returned '?' or ':' (with opterr = 0, so that glibc prints nothing raw):
 * "<prog>: <prefix><option>: unknown option or missing argument (see '<help> --help')". */
void isc_bad_option(char *const *argv, const char *prefix, const char *help);

/*
 * Allocation that ends the program on failure (out of memory is not recoverable here): one
 * line, "<prog>: out of memory loading run1/datapoints.csv (a block of N bytes)", the hook,
 * exit status 1. isc_oom_context sets what this thread is doing ("loading %s"; NULL: nothing);
 * isc_oom_hook a cleanup to run first (async-signal-safe calls only: other threads run on).
 */
void isc_oom_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void isc_oom_hook(void (*fn)(void));
void *isc_xmalloc(size_t n);
void *isc_xcalloc(size_t n, size_t size);
void *isc_xrealloc(void *p, size_t n);
char *isc_xstrdup(const char *s);
char *isc_xstrndup(const char *s, size_t n);
char *isc_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Render s for a message: printable ASCII kept, the rest as \xNN, cut to max chars ("..." added). */
void isc_quote_for_msg(const char *s, size_t n, char *out, size_t outlen);

/* Monotonic seconds, for timing. */
double isc_now_sec(void);

/* Read a whole regular file of at most max bytes (NUL-terminated). Directories, devices,
 * FIFOs and larger files are refused. Returns NULL with "<path>: <reason>" in err. */
char *isc_read_regular_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
