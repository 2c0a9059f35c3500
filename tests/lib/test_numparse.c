/* SPDX-License-Identifier: GPL-2.0-only */
/* isc_parse_double against strtod: edge cases and millions of random strings. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "table/numparse.h"
#include "../common/check.h"

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Our contract: accept exactly what strtod accepts as a whole finite decimal number, except
 * an underflow to zero (1e-400: out of range like 1e400, not 0). */
static void same_as_strtod(const char *s)
{
	char *end;
	errno = 0;
	double want = strtod(s, &end), got = 0;
	int want_ok = *s && *end == '\0' && isfinite(want) && !(want == 0 && errno == ERANGE) && !strchr(s, 'x') && !strchr(s, 'X') &&
		      !strchr(s, 'n') && !strchr(s, 'N') && !strchr(s, 'i') && !strchr(s, 'I') &&
		      s[0] != ' ' && s[0] != '\t';
	int ok = isc_parse_double(s, strlen(s), &got);
	if (ok != want_ok || (ok && memcmp(&got, &want, sizeof(got)) != 0)) {
		check_failures++;
		fprintf(stderr, "'%s': got %d %.17g, strtod %d %.17g\n", s, ok, got, want_ok, want);
	}
}

static void random_string(char *buf, size_t len)
{
	double d;
	uint64_t bits, m = next();
	switch (next() % 5) {
	case 0:
		d = (double)(m >> 11) / 9007199254740992.0 * pow(10, (int)(next() % 60) - 30);
		snprintf(buf, len, "%.*g", (int)(1 + next() % 20), d);
		break;
	case 1:
		snprintf(buf, len, "%llue%d", (unsigned long long)(m % 10000000000000000000ULL),
			 (int)(next() % 80) - 40);
		break;
	case 2: {
		int dp = (int)(next() % 21);
		snprintf(buf, len, "%llu", (unsigned long long)m);
		int n = (int)strlen(buf);
		if (dp < n) {
			memmove(buf + n - dp + 1, buf + n - dp, (size_t)dp + 1);
			buf[n - dp] = '.';
		}
		break;
	}
	case 3:
		bits = m;
		memcpy(&d, &bits, sizeof(d));
		snprintf(buf, len, "%.17g", isfinite(d) ? d : 1.0);
		break;
	default:  /* wult-like: 17 significant digits, small values */
		snprintf(buf, len, "%.17g", (double)(m >> 11) / 9007199254740992.0 * 4000);
	}
	if (next() % 2) {
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '-';
	}
}

/* isc_parse_double_wide must give what isc_parse_double_prefix gives for the same [s, end),
 * whatever follows end in the buffer: here digits, '.', 'e' or a comma (digits past end
 * taken into the number would be caught), with end also cut inside the text. */
static void same_as_prefix(const char *text)
{
	static const char follow[] = "0123456789.eE,\n-";
	char buf[128 + ISC_PARSE_SLACK];
	size_t len = strlen(text);
	if (len > 120)
		return;
	for (int cut = 0; cut < 3; cut++) {
		size_t n = cut == 0 ? len : (size_t)(next() % (len + 1));
		memcpy(buf, text, n);
		for (size_t i = n; i < sizeof(buf); i++)
			buf[i] = follow[next() % (sizeof(follow) - 1)];
		double a = 0, b = 0;
		const char *pa = isc_parse_double_prefix(buf, buf + n, &a);
		const char *pb = isc_parse_double_wide(buf, buf + n, &b);
		if (pa != pb || (pa && memcmp(&a, &b, sizeof(a)) != 0)) {
			check_failures++;
			fprintf(stderr, "'%.*s' (then '%.6s'): prefix %td %.17g, wide %td %.17g\n", (int)n, buf,
				buf + n, pa ? pa - buf : -1, a, pb ? pb - buf : -1, b);
		}
	}
}

int main(void)
{
	static const char *const edge[] = {
		"0", "-0", "+0", "1", "-1", "+1", ".5", "5.", "-.5", "0.1", "0.30000000000000004",
		"1e0", "1E5", "1e+5", "1e-5", "1.7976931348623157e308", "1.7976931348623159e308",
		"2.2250738585072014e-308", "2.2250738585072011e-308", "4.9406564584124654e-324",
		"1e-400", "1e400", "123456789012345678901234567890", "0.000000000000000000000000000001",
		"9007199254740993", "9007199254740992.5", "18446744073709551615", "18446744073709551616",
		"4.1797981021053525", "1757.788", "92.63", "00000000000000000000001.5",
		"1.00000000000000011102230246251565404236316680908203125",
		"1.00000000000000011102230246251565404236316680908203124",
		"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1,5", " 1", "1 ", "inf", "-inf", "nan",
		"infinity", "0x10", "1e5x", "--1", "+-1", "1..2", "abc", "1_000",
		/* the straight-walk fast path's edges: 19 digits in all (leading zeros count), 20,
		 * fraction digits beyond 22, eight-digit runs cut by the limit */
		"1234567890123456789", "12345678901234567890", "-9999999999999999999",
		"0.000000000000000001", "0.0000000000000000001", "0.00000000000000000001",
		"1.234567890123456789", "12345678.12345678901", "123456789.0123456789",
		"0.1234567890123456789", "-0.0", "-0.", "9007199254740993.0", "4503599627370497.5",
		"0.0000000000000000000000001", "5e-324", "2036.9056379051576,", "7.",
	};
	char buf[96];
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		same_as_strtod(edge[i]);
		same_as_prefix(edge[i]);
	}
	for (long i = 0; i < 2000000; i++) {
		random_string(buf, sizeof(buf));
		same_as_strtod(buf);
		same_as_prefix(buf);
	}
	/* halfway cases between adjacent doubles, written exactly: must round to even */
	for (long i = 0; i < 200000; i++) {
		double a = (double)(next() >> 11) / 9007199254740992.0 * 1000, b = nextafter(a, INFINITY);
		snprintf(buf, sizeof(buf), "%.25g", a + (b - a) / 2);
		same_as_strtod(buf);
	}
	/* the prefix form stops at the first byte that cannot continue a number */
	double d;
	const char *s = "12.5,7";
	CHECK(isc_parse_double_prefix(s, s + strlen(s), &d) == s + 4);
	CHECK_EQ_DBL(d, 12.5);
	CHECK(isc_parse_double_prefix("x1", "x1" + 2, &d) == NULL);
	/* out of range both ways is an error, and said so; subnormals and zeros are numbers */
	static const char *const range[][2] = { { "1e400", "inf" }, { "-1e400", "-inf" },
		{ "1e-400", "0" }, { "-2.5e-330", "-0" }, { "17976931348623159e292", "inf" } };
	for (size_t i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		const char *r = range[i][0];
		CHECK(!isc_parse_double(r, strlen(r), &d));
		CHECK(isc_is_number_out_of_range(r, strlen(r), &d));
		snprintf(buf, sizeof(buf), "%g", d);
		CHECK_STR(buf, range[i][1]);
	}
	CHECK(isc_parse_double("5e-324", 6, &d) && d == 4.9406564584124654e-324);
	CHECK(isc_parse_double("0e-400", 6, &d) && d == 0);
	CHECK(isc_parse_double("0.000e-999", 10, &d) && d == 0);
	CHECK(!isc_is_number_out_of_range("abc", 3, &d) && !isc_is_number_out_of_range("1e5x", 4, &d));
	CHECK(!isc_is_number_out_of_range("1.5", 3, &d));
	return CHECK_DONE();
}
