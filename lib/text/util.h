/* Error reporting and small helpers shared by every idlescope program. */
#ifndef IDLESCOPE_UTIL_H
#define IDLESCOPE_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes used by every program. */
enum { IS_EXIT_OK = 0, IS_EXIT_DATA = 1, IS_EXIT_USAGE = 2 };

/* Set the program name that prefixes every message ("analyze: ..."). */
void is_set_progname(const char *name);
const char *is_progname(void);

/* One-line messages on stderr: "<prog>: <msg>", "<prog>: warning: <msg>",
 * "<prog>: note: <msg>" and (is_info, for what is not an error) "<prog>: <msg>". Control
 * characters and invalid UTF-8 from the arguments are written as \xNN (textsafe.h). */
void is_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void is_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void is_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void is_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* How many warnings this process printed (the run cache keeps no file that warns). */
unsigned is_warn_count(void);
/* Print no messages until called with false (a trial read whose messages a second read
 * prints); warnings are still counted. */
void is_msg_mute(bool on);

/* After getopt_long returned '?' or ':' (with opterr = 0, so that glibc prints nothing raw):
 * "<prog>: <prefix><option>: unknown option or missing argument (see '<help> --help')". */
void is_bad_option(char *const *argv, const char *prefix, const char *help);

/*
 * Allocation that ends the program on failure (out of memory is not recoverable here): one
 * line, "<prog>: out of memory loading run1/datapoints.csv (a block of N bytes)", the hook,
 * exit status 1. is_oom_context sets what this thread is doing ("loading %s"; NULL: nothing);
 * is_oom_hook a cleanup to run first (async-signal-safe calls only: other threads run on).
 */
void is_oom_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void is_oom_hook(void (*fn)(void));
void *is_xmalloc(size_t n);
void *is_xcalloc(size_t n, size_t size);
void *is_xrealloc(void *p, size_t n);
char *is_xstrdup(const char *s);
char *is_xstrndup(const char *s, size_t n);
char *is_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Render s for a message: printable ASCII kept, the rest as \xNN, cut to max chars ("..." added). */
void is_quote_for_msg(const char *s, size_t n, char *out, size_t outlen);

/* Monotonic seconds, for timing. */
double is_now_sec(void);

/* Read a whole regular file of at most max bytes (NUL-terminated). Directories, devices,
 * FIFOs and larger files are refused. Returns NULL with "<path>: <reason>" in err. */
char *is_read_regular_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
