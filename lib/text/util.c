/* SPDX-License-Identifier: GPL-2.0-only */
/* Error reporting and checked allocation. */
#include "text/util.h"
#include "text/textsafe.h"

#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *progname = "idlescope";

/* The name is printed at the start of every message (and collect's progress line): control
 * characters in it (a symbolic link named with an escape sequence) as \xNN. */
void isc_set_progname(const char *name)
{
	static char *owned;
	const char *slash = strrchr(name, '/');
	free(owned);
	progname = owned = isc_text_dup(slash ? slash + 1 : name, ISC_TEXT_LINE);
}

const char *isc_progname(void)
{
	return progname;
}

/* Every message is one line, however hostile its arguments: control characters, bidi
 * controls and invalid UTF-8 in it are written as \xNN. */
/* Per thread: a trial read on one thread (the run cache's builder in analyze diff's loader)
 * must not silence, nor be spoilt by, what another thread says about its own run. */
static _Thread_local bool muted;
static _Thread_local unsigned nwarnings;
static _Thread_local struct isc_msg_held *held;

/* The held buffers an out-of-memory exit prints first (oom), and the lock of every buffer. */
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static struct isc_msg_held *held_order;
static size_t held_n;

void isc_msg_mute(bool on)
{
	muted = on;
}

void isc_msg_hold(struct isc_msg_held *to)
{
	held = to;
}

void isc_msg_hold_order(struct isc_msg_held *hs, size_t n)
{
	pthread_mutex_lock(&held_lock);
	held_order = hs;
	held_n = hs ? n : 0;
	pthread_mutex_unlock(&held_lock);
}

void isc_msg_held_print(struct isc_msg_held *hs, size_t n)
{
	isc_msg_hold_order(NULL, 0);
	for (size_t i = 0; i < n; i++) {
		if (hs[i].len)
			fwrite(hs[i].text, 1, hs[i].len, stderr);
		free(hs[i].text);
		hs[i] = (struct isc_msg_held){ NULL, 0 };
	}
}

static void put_line(FILE *out, const char *kind, const char *msg, int n)
{
	flockfile(out);  /* one line, also when runs open on two threads (analyze diff) */
	fprintf(out, "%s: %s", progname, kind);
	if (n >= 0)
		isc_text_write(out, msg, (size_t)n, ISC_TEXT_LINE);
	else
		fputs("(message lost: out of memory)", out);
	fputc('\n', out);
	funlockfile(out);
}

/* The line into this thread's held buffer; false when memory is short (then it is printed). */
static bool hold_line(const char *kind, const char *msg, int n)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	if (!m)
		return false;
	put_line(m, kind, msg, n);
	bool ok = fclose(m) == 0 && line;
	pthread_mutex_lock(&held_lock);
	char *t = ok ? realloc(held->text, held->len + len) : NULL;
	if (t) {
		memcpy(t + held->len, line, len);
		held->text = t;
		held->len += len;
	}
	pthread_mutex_unlock(&held_lock);
	free(line);
	return t != NULL;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char *msg = NULL;
	if (muted)
		return;
	int n = vasprintf(&msg, fmt, ap);
	if (!held || !hold_line(kind, msg, n))
		put_line(stderr, kind, msg, n);
	free(msg);
}

void isc_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}


unsigned isc_warn_count(void)
{
	return nwarnings;
}

void isc_warn(const char *fmt, ...)
{
	va_list ap;
	nwarnings++;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void isc_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("note: ", fmt, ap);
	va_end(ap);
}

void isc_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void isc_bad_option(char *const *argv, const char *prefix, const char *help)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	if (optopt > 0 && optopt < 0x7f && strncmp(arg, "--", 2))
		isc_err("%s-%c: unknown option or missing argument (see '%s --help')", prefix, optopt, help);
	else
		isc_err("%s%s: unknown option or missing argument (see '%s --help')", prefix, arg, help);
}

/*
 * Out of memory: one line naming what was being done ("loading run1/datapoints.csv"), the
 * program's cleanup hook, exit status 1. Written with write(2) and left with _exit: another
 * thread may hold stdio's locks, and half-computed output is not worth flushing. A second
 * thread running out at the same time waits for the first to end the process.
 */
static __thread char oom_what[1024];  /* per thread: diff loads two runs at once */
static void (*oom_hook)(void);

void isc_oom_context(const char *fmt, ...)
{
	va_list ap;
	oom_what[0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(oom_what, sizeof(oom_what), fmt, ap);
	va_end(ap);
}

void isc_oom_hook(void (*fn)(void))
{
	oom_hook = fn;
}

static void *oom(size_t n)
{
	static atomic_flag once = ATOMIC_FLAG_INIT;
	char msg[1200];
	if (atomic_flag_test_and_set(&once))
		for (;;)
			pause();
	/* what runs loading on other threads said so far, in their order (isc_msg_hold_order);
	 * skipped if a thread holding the lock (adding a line) does not let go within 0.1 s */
	int locked = -1;
	for (int tries = 0; tries < 200 && (locked = pthread_mutex_trylock(&held_lock)) != 0; tries++)
		nanosleep(&(struct timespec){ 0, 500000 }, NULL);
	if (locked == 0)
		for (size_t i = 0; i < held_n; i++)
			if (held_order[i].len && write(STDERR_FILENO, held_order[i].text, held_order[i].len) < 0)
				break;
	int len = snprintf(msg, sizeof(msg), "%s: out of memory%s%s", progname,
			   oom_what[0] ? " " : "", oom_what);
	if (len < (int)sizeof(msg) - 40)  /* n is 0 where the size is not known (vasprintf) */
		len += snprintf(msg + len, sizeof(msg) - (size_t)len, n ? " (a block of %zu bytes)\n" : "\n", n);
	if (len > (int)sizeof(msg) - 1)
		len = (int)sizeof(msg) - 1;
	if (write(STDERR_FILENO, msg, (size_t)len) < 0)
		len = 0;  /* nowhere left to say it */
	if (oom_hook)
		oom_hook();
	_exit(ISC_EXIT_DATA);
}

/*
 * Large blocks (column arrays of millions of rows) come from mmap; with transparent huge
 * pages in "madvise" mode (Debian's default) each 4 KiB page is a separate fault, and faults
 * were a third of analyze stats' time. Advising the 2 MiB-aligned inside of the block lets
 * the kernel fault it in 2 MiB at a time. Only advice: free() and realloc() work as usual.
 */
#define HUGE_SIZE ((uintptr_t)2 << 20)

static void *advise_huge(void *p, size_t n)
{
	uintptr_t a = ((uintptr_t)p + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
	uintptr_t b = ((uintptr_t)p + n) & ~(HUGE_SIZE - 1);
	if (p && n >= 2 * HUGE_SIZE && b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
	return p;
}

void *isc_xmalloc(size_t n)
{
	/* A large block starts on a 2 MiB boundary, so that only its tail is in small pages
	 * (page faults went from 13,000 to 5,300 for a million rows); posix_memalign's blocks
	 * go to free() and realloc() like any other. */
	void *p = NULL;
	if (n < 2 * HUGE_SIZE)
		p = malloc(n ? n : 1);
	else if (posix_memalign(&p, HUGE_SIZE, n) != 0)
		p = NULL;
	return p ? advise_huge(p, n) : oom(n);
}

void *isc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : oom(n * size);
}

void *isc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	return q ? advise_huge(q, n) : oom(n);
}

char *isc_xstrdup(const char *s)
{
	return isc_xstrndup(s, strlen(s));
}

char *isc_xstrndup(const char *s, size_t n)
{
	char *p = isc_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *isc_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(0);
	va_end(ap);
	return s;
}

void isc_quote_for_msg(const char *s, size_t n, char *out, size_t outlen)
{
	const size_t max = outlen > 8 ? outlen - 8 : 0;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (o >= max) {
			memcpy(out + o, "...", 4);
			return;
		}
		if (c >= 0x20 && c < 0x7f)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

double isc_now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

char *isc_read_regular_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		goto fail;
	}
	if ((size_t)st.st_size > max) {
		snprintf(err, errlen, "%s: too large (%lld bytes, at most %zu)", path, (long long)st.st_size, max);
		goto fail;
	}
	buf = isc_xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	close(fd);
	if (len)
		*len = got;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}
