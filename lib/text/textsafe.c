/* SPDX-License-Identifier: GPL-2.0-only */
/* Strings from inputs made safe for a terminal or a data file (see textsafe.h). */
#include "text/textsafe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

/* Where text goes: a stream, or a buffer sized for the worst case. */
struct sink {
	FILE *f;
	char *buf;
	size_t len;
};

static void put(struct sink *k, const void *p, size_t n)
{
	if (k->f) {
		fwrite(p, 1, n, k->f);
	} else {
		memcpy(k->buf + k->len, p, n);
		k->len += n;
	}
}

/* Length of the valid UTF-8 character at s (RFC 3629), 0 if invalid, -1 if s[0..n) is the
 * start of a valid character that n cuts off. */
static int scan(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	int len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	for (int i = 1; i < len; i++) {
		if ((size_t)i >= n)
			return -1;
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
			return 0;
	}
	return len;
}

size_t isc_utf8_char(const char *s, size_t n)
{
	int len = n ? scan((const unsigned char *)s, n) : 0;
	return len > 0 ? (size_t)len : 0;
}

static uint32_t decode(const unsigned char *s, int len)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & lead_mask[len];
	for (int i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

static bool is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/* Embeddings, overrides and isolates: they reorder what a terminal shows around them. */
static bool is_bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static bool keep(uint32_t cp, enum isc_text_mode mode)
{
	switch (mode) {
	case ISC_TEXT_LINE:
		return !is_control(cp) && !is_bidi(cp);
	case ISC_TEXT_TERM:
		return cp == '\n' || cp == '\t' || (!is_control(cp) && !is_bidi(cp));
	case ISC_TEXT_DATA:
		return cp == '\t' || cp == '\n' || cp == '\r' || !is_control(cp);
	case ISC_TEXT_JSON:
		return cp < 0x7f || cp > 0x9f;
	}
	return false;
}

/* s[0..n) is one character not kept (len > 0) or one invalid byte (len 0). */
static void replace(struct sink *k, const unsigned char *s, int len, enum isc_text_mode mode)
{
	char hex[8];
	if (mode == ISC_TEXT_JSON && len > 0) {  /* DEL or C1: JSON can carry it escaped */
		snprintf(hex, sizeof(hex), "\\u%04x", (unsigned)decode(s, len));
		put(k, hex, 6);
	} else if (mode == ISC_TEXT_JSON) {      /* inside a JSON string: the text \xNN */
		snprintf(hex, sizeof(hex), "\\\\x%02x", s[0]);
		put(k, hex, 5);
	} else {
		for (int i = 0; i < (len ? len : 1); i++) {
			snprintf(hex, sizeof(hex), "\\x%02x", s[i]);
			put(k, hex, 4);
		}
	}
}

/* Write s[0..n) made safe. A character that n cuts off counts as invalid bytes (the filter
 * stream passes only whole characters). */
static void emit(struct sink *k, const unsigned char *s, size_t n, enum isc_text_mode mode)
{
	size_t i = 0, run = 0;
	while (i < n) {
		if (s[i] >= 0x20 && s[i] < 0x7f) {  /* printable ASCII: kept in every mode */
			i++;
			continue;
		}
		int len = scan(s + i, n - i);
		put(k, s + run, i - run);
		if (len > 0 && keep(decode(s + i, len), mode))
			put(k, s + i, (size_t)len);
		else
			replace(k, s + i, len > 0 ? len : 0, mode);
		i += len > 0 ? (size_t)len : 1;
		run = i;
	}
	put(k, s + run, i - run);
}

void isc_text_write(FILE *f, const char *s, size_t n, enum isc_text_mode mode)
{
	struct sink k = { .f = f };
	emit(&k, (const unsigned char *)s, n, mode);
}

char *isc_text_dup(const char *s, enum isc_text_mode mode)
{
	size_t n = strlen(s);
	/* At most 5 bytes out per byte in: \\xNN in JSON text. */
	struct sink k = { .buf = isc_xmalloc(5 * n + 1) };
	emit(&k, (const unsigned char *)s, n, mode);
	k.buf[k.len] = '\0';
	return k.buf;
}

const char *isc_name_problem(const char *s, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		int l = scan(u + i, n - i);
		if (l <= 0) {
			snprintf(buf, len, "invalid UTF-8 (\\x%02x) at byte %zu", u[i], i + 1);
			return buf;
		}
		uint32_t cp = decode(u + i, l);
		if (is_control(cp) || is_bidi(cp)) {
			char q[16];
			struct sink k = { .buf = q };
			replace(&k, u + i, l, ISC_TEXT_LINE);
			q[k.len] = '\0';
			snprintf(buf, len, "a %s character (%s) at byte %zu",
				 is_control(cp) ? "control" : "bidi control", q, i + 1);
			return buf;
		}
		i += (size_t)l;
	}
	return NULL;
}
