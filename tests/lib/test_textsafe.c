/* SPDX-License-Identifier: GPL-2.0-only */
/* textsafe: every mode on hostile strings, UTF-8 validation edge cases, the filter stream
 * with characters split between writes, and names collect refuses. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "text/json_out.h"
#include "text/textsafe.h"
#include "../common/check.h"

static void check_dup(const char *in, enum isc_text_mode mode, const char *want)
{
	char *got = isc_text_dup(in, mode);
	CHECK_STR(got, want);
	free(got);
}

static void test_utf8_char(void)
{
	CHECK(isc_utf8_char("A", 1) == 1);
	CHECK(isc_utf8_char("\xC2\xB5", 2) == 2);            /* µ */
	CHECK(isc_utf8_char("\xE2\x82\xAC", 3) == 3);        /* € */
	CHECK(isc_utf8_char("\xF0\x9F\x98\x80", 4) == 4);    /* U+1F600 */
	CHECK(isc_utf8_char("\xF4\x8F\xBF\xBF", 4) == 4);    /* U+10FFFF */
	CHECK(isc_utf8_char("\xC0\x80", 2) == 0);            /* overlong NUL */
	CHECK(isc_utf8_char("\xC1\xBF", 2) == 0);            /* overlong */
	CHECK(isc_utf8_char("\xE0\x9F\xBF", 3) == 0);        /* overlong 3-byte */
	CHECK(isc_utf8_char("\xF0\x8F\xBF\xBF", 4) == 0);    /* overlong 4-byte */
	CHECK(isc_utf8_char("\xED\xA0\x80", 3) == 0);        /* surrogate U+D800 */
	CHECK(isc_utf8_char("\xF4\x90\x80\x80", 4) == 0);    /* above U+10FFFF */
	CHECK(isc_utf8_char("\xF5\x80\x80\x80", 4) == 0);
	CHECK(isc_utf8_char("\x80", 1) == 0);                /* stray continuation */
	CHECK(isc_utf8_char("\xFF", 1) == 0);
	CHECK(isc_utf8_char("\xE2\x82", 2) == 0);            /* cut off */
	CHECK(isc_utf8_char("\xC2" "A", 2) == 0);
	CHECK(isc_utf8_char("", 0) == 0);
}

static void test_modes(void)
{
	/* the examples of issue 11: a ReqCState cell, a reportid, an OSC title sequence */
	check_dup("C\x1b[31m6", ISC_TEXT_LINE, "C\\x1b[31m6");
	check_dup("a\nb\x1b[31mRED", ISC_TEXT_LINE, "a\\x0ab\\x1b[31mRED");
	check_dup("x\x1b]0;t\x07", ISC_TEXT_LINE, "x\\x1b]0;t\\x07");
	check_dup("a\tb\r\x7f", ISC_TEXT_LINE, "a\\x09b\\x0d\\x7f");
	check_dup("\xC2\x9B" "31m", ISC_TEXT_LINE, "\\xc2\\x9b31m");           /* C1 CSI */
	check_dup("ok\xE2\x80\xAEgnp", ISC_TEXT_LINE, "ok\\xe2\\x80\\xaegnp");  /* RLO */
	check_dup("X\xFFY\xC3", ISC_TEXT_LINE, "X\\xffY\\xc3");
	check_dup("\xED\xA0\x80", ISC_TEXT_LINE, "\\xed\\xa0\\x80");
	check_dup("WakeLatency \xC2\xB5s \xE2\x82\xAC", ISC_TEXT_LINE, "WakeLatency \xC2\xB5s \xE2\x82\xAC");
	check_dup("a\nb\tc\x1b", ISC_TEXT_TERM, "a\nb\tc\\x1b");
	check_dup("a\nb\tc\r\x1b\x7f\xC2\x85\xFF\xE2\x80\xAE", ISC_TEXT_DATA,
		  "a\nb\tc\r\\x1b\\x7f\\xc2\\x85\\xff\xE2\x80\xAE");
	check_dup("\xE2\x82", ISC_TEXT_DATA, "\\xe2\\x82");  /* a cut-off euro sign: per byte */
	check_dup("{\"k\":\"\\u001b\x7f\xC2\x9B\xFF\xC2\xB5\"}\n", ISC_TEXT_JSON,
		  "{\"k\":\"\\u001b\\u007f\\u009b\\\\xff\xC2\xB5\"}\n");
	/* worst case growth: 5 bytes out per byte in */
	check_dup("\xFF\xFE", ISC_TEXT_JSON, "\\\\xff\\\\xfe");
	check_dup("", ISC_TEXT_LINE, "");
	/* worst case growth: 4 bytes out per byte in */
	check_dup("\x01\x02\x03", ISC_TEXT_LINE, "\\x01\\x02\\x03");
}

static void test_names(void)
{
	char buf[96];
	CHECK(isc_name_problem("run-1 \xC2\xB5s", buf, sizeof(buf)) == NULL);
	CHECK_STR(isc_name_problem("x\x1b]0;t\x07", buf, sizeof(buf)), "a control character (\\x1b) at byte 2");
	CHECK_STR(isc_name_problem("a\nb", buf, sizeof(buf)), "a control character (\\x0a) at byte 2");
	CHECK_STR(isc_name_problem("ab\xFF", buf, sizeof(buf)), "invalid UTF-8 (\\xff) at byte 3");
	CHECK_STR(isc_name_problem("\xC2\x9B", buf, sizeof(buf)), "a control character (\\xc2\\x9b) at byte 1");
	CHECK_STR(isc_name_problem("a\xE2\x80\xAE", buf, sizeof(buf)),
		  "a bidi control character (\\xe2\\x80\\xae) at byte 2");
}

/* Everything written to a filter, in pieces of every size, gives what one isc_text_write of
 * the whole gives. */
static void test_filter(void)
{
	static const char in[] = "a\xC2\xB5" "b\xE2\x82\xAC" "c\xF0\x9F\x98\x80" "d\x1b[1m\xFF\xE2\x82" "e"
				 "\xC2\x9B\xF0\x9F\x98";
	const size_t n = sizeof(in) - 1;
	for (int mode = ISC_TEXT_LINE; mode <= ISC_TEXT_JSON; mode++) {
		char *want = NULL, *got = NULL;
		size_t wlen = 0, glen = 0;
		FILE *w = open_memstream(&want, &wlen);
		isc_text_write(w, in, n, (enum isc_text_mode)mode);
		fclose(w);
		for (size_t piece = 1; piece <= 5; piece++) {
			FILE *g = open_memstream(&got, &glen);
			FILE *f = isc_text_filter(g, (enum isc_text_mode)mode, true);
			setvbuf(f, NULL, _IONBF, 0);  /* every fwrite reaches the filter as it is */
			for (size_t i = 0; i < n; i += piece)
				fwrite(in + i, 1, i + piece <= n ? piece : n - i, f);
			CHECK(fclose(f) == 0);
			if (glen != wlen || memcmp(got, want, wlen)) {
				check_failures++;
				fprintf(stderr, "mode %d, pieces of %zu: '%.*s', expected '%.*s'\n", mode, piece,
					(int)glen, got, (int)wlen, want);
			}
			free(got);
		}
		free(want);
	}
}

/* A write error on the stream below is reported when the filter is closed. */
static void test_filter_error(void)
{
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		return;
	FILE *f = isc_text_filter(full, ISC_TEXT_TERM, true);
	fputs("some text\n", f);
	CHECK(fclose(f) != 0);
}

/* info.json as collect writes it: valid UTF-8 whatever the strings hold. */
static void test_json_render(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "k\xFF", "v\x1b\x7f\xC2\x9B\xFF\xC2\xB5");
	char *s = isc_json_render(o, false);
	CHECK_STR(s, "{\"k\\\\xff\":\"v\\u001b\\u007f\\u009b\\\\xff\xC2\xB5\"}");
	free(s);
	cJSON_Delete(o);
}

/* The promise of every mode, on random bytes: the output is valid UTF-8, with no control
 * character but those the mode keeps, and is the same through the filter in random pieces. */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static bool clean(const char *s, size_t n, enum isc_text_mode mode)
{
	/* kept C0 characters; JSON mode keeps them all (its input is cJSON's, which has them
	 * escaped inside strings) */
	static const char *const kept[] = { "", "\n\t", "\n\t\r", NULL };
	for (size_t i = 0; i < n;) {
		size_t len = isc_utf8_char(s + i, n - i);
		unsigned char c = (unsigned char)s[i], c2 = len == 2 ? (unsigned char)s[i + 1] : 0;
		if (len == 0 || (c < 0x20 && kept[mode] && (!c || !strchr(kept[mode], c))) || c == 0x7f ||
		    (c == 0xC2 && c2 >= 0x80 && c2 <= 0x9F))
			return false;
		i += len;
	}
	return true;
}

static void test_random(void)
{
	char in[64], *out = NULL;
	size_t olen = 0;
	for (int t = 0; t < 20000; t++) {
		size_t n = next() % sizeof(in);
		for (size_t i = 0; i < n; i++) {  /* bytes biased to UTF-8 leads and controls */
			uint64_t r = next();
			static const char odd[] = "\xC2\xE2\xF0\x80\x9B\x1b\n\xED\xF4\xBF";
			in[i] = r % 3 == 0 ? odd[r / 3 % 10] : (char)(r >> 8);
		}
		enum isc_text_mode mode = (enum isc_text_mode)(next() % 4);
		FILE *m = open_memstream(&out, &olen);
		FILE *f = isc_text_filter(m, mode, true);
		setvbuf(f, NULL, _IONBF, 0);
		for (size_t i = 0; i < n;) {
			size_t piece = 1 + next() % 5;
			piece = piece < n - i ? piece : n - i;
			fwrite(in + i, 1, piece, f);
			i += piece;
		}
		fclose(f);
		char *whole = NULL;
		size_t wlen = 0;
		FILE *w = open_memstream(&whole, &wlen);
		isc_text_write(w, in, n, mode);
		fclose(w);
		if (!clean(whole, wlen, mode) || wlen != olen || memcmp(whole, out, wlen)) {
			check_failures++;
			fprintf(stderr, "random input %d (mode %d): not clean or not the same through the filter\n",
				t, (int)mode);
		}
		free(whole);
		free(out);
		out = NULL;
	}
}

int main(void)
{
	test_utf8_char();
	test_modes();
	test_names();
	test_filter();
	test_filter_error();
	test_json_render();
	test_random();
	return CHECK_DONE();
}
