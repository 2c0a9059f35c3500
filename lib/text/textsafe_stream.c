/* SPDX-License-Identifier: GPL-2.0-only */
/* A stdio stream that passes everything written to it through isc_text_write(). */
#include "text/textsafe.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct filter {
	FILE *to;
	enum isc_text_mode mode;
	bool own;
	unsigned char carry[4];   /* the start of a character cut off by the last write */
	size_t ncarry;
};

/* The prefix of s[0..n) that a write can pass on: all but the start of a character that n
 * cuts off (a lead byte in the last 3 bytes wanting more bytes than follow it). Carrying an
 * invalid start is harmless: it is replaced the same way once the next bytes arrive. */
static size_t whole_prefix(const unsigned char *s, size_t n)
{
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned char c = s[n - back];
		if (c < 0x80)
			return n;
		if (c >= 0xc0) {
			size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
			return want > back ? n - back : n;
		}
	}
	return n;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t n)
{
	struct filter *f = cookie;
	const unsigned char *u = (const unsigned char *)buf;
	size_t used = 0;
	if (f->ncarry) {  /* complete the carried character with bytes from buf */
		unsigned char tmp[8];
		size_t take = n < 4 ? n : 4, whole;
		memcpy(tmp, f->carry, f->ncarry);
		memcpy(tmp + f->ncarry, u, take);
		whole = whole_prefix(tmp, f->ncarry + take);
		if (whole < f->ncarry) {  /* still cut off: everything stays carried */
			memcpy(f->carry, tmp, f->ncarry + take);
			f->ncarry += take;
			return (ssize_t)n;
		}
		isc_text_write(f->to, (const char *)tmp, whole, f->mode);
		used = whole - f->ncarry;
		f->ncarry = 0;
	}
	size_t whole = whole_prefix(u + used, n - used);
	isc_text_write(f->to, buf + used, whole, f->mode);
	f->ncarry = n - used - whole;
	memcpy(f->carry, u + used + whole, f->ncarry);
	return ferror(f->to) ? -1 : (ssize_t)n;
}

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	isc_text_write(f->to, (const char *)f->carry, f->ncarry, f->mode);
	int bad = ferror(f->to);
	int rc = f->own ? fclose(f->to) : fflush(f->to);
	free(f);
	return rc != 0 || bad ? -1 : 0;
}

FILE *isc_text_filter(FILE *to, enum isc_text_mode mode, bool own)
{
	struct filter *f = calloc(1, sizeof(*f));
	FILE *s;
	if (!f)
		return NULL;
	*f = (struct filter){ .to = to, .mode = mode, .own = own };
	s = fopencookie(f, "w", (cookie_io_functions_t){ .write = filter_write, .close = filter_close });
	if (!s) {
		free(f);
		return NULL;
	}
	if (isatty(fileno(to)))
		setvbuf(s, NULL, _IOLBF, 0);
	return s;
}
