/* SPDX-License-Identifier: GPL-2.0-only */
/* A line's packed and number fields in AVX-512 lanes (lib/table/csv_lanes.h): the same codes
 * as the byte-wise parser (isc_colpack_scaled) and the same doubles as isc_parse_double
 * wherever the lanes take a line, every usual shape taken, every other shape given back.
 * Says which it saw: a CPU without AVX-512 VBMI2 runs only the check that the lanes are not
 * used. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/colpack.h"
#include "table/csv_lanes.h"
#include "table/numparse.h"
#include "../common/check.h"

#define NF 6

/* A line in a buffer with the slack the lanes read past it. */
struct line {
	char buf[ISC_LANES_LINE + ISC_LANES_SLACK + 64];
	size_t len;
};

static void set_line(struct line *l, const char *const *fields, size_t n)
{
	memset(l->buf, 'x', sizeof(l->buf));
	l->len = 0;
	for (size_t f = 0; f < n; f++) {
		size_t k = strlen(fields[f]);
		memcpy(l->buf + l->len, fields[f], k);
		l->len += k;
		l->buf[l->len++] = f + 1 < n ? ',' : '\n';
	}
}

/* Fields 1, 2, 3 and 5 packed at scales 2, 3, 0 and last, field 0 a number (4 is text). */
static void make_plan(struct isc_lane_plan *pl, unsigned last, uint64_t code_max)
{
	const unsigned field[] = { 1, 2, 3, 5 }, scale[] = { 2, 3, 0, last };
	memset(pl, 0, sizeof(*pl));
	pl->nfields = NF;
	pl->nlanes = 4;
	pl->nnum = 1;
	pl->num_field[0] = 0;
	for (unsigned l = 0; l < 4; l++) {
		pl->field[l] = field[l];
		pl->scale[l] = scale[l];
		pl->code_max[l] = code_max;
	}
	isc_lanes_plan(pl);
}

/* The byte-wise parser's code of [s, e) at scale, or -1 when it does not take the field
 * whole and non-negative as a code of at most code_max. */
static int64_t scalar_code(const char *s, const char *e, unsigned scale, uint64_t code_max)
{
	uint64_t m;
	int neg;
	const char *stop = isc_colpack_scaled(s, e, scale, &m, &neg, 1);
	return stop == e && !neg && m <= code_max ? (int64_t)m : -1;
}

static void fixed_lines(void)
{
	struct isc_lane_plan pl;
	struct line l;
	uint8_t ends[64];
	uint64_t codes[ISC_LANES];
	double nums[ISC_NUM_LANES];
	make_plan(&pl, 7, 2147483645);
	const char *ok[NF] = { "5.6634858017549039", "0.62", "2055.784", "1", "C6", "3.1" };
	set_line(&l, ok, NF);
	CHECK(isc_lanes_line(&pl, l.buf, ends, codes, nums) == (int)l.len - 1);
	CHECK(codes[0] == 62 && codes[1] == 2055784 && codes[2] == 1 && codes[3] == 31000000);
	CHECK(nums[0] == 5.6634858017549039);
	CHECK(ends[0] == 18 && ends[1] == 23 && ends[2] == 32 && ends[5] == l.len - 1);
	/* fewer decimals than the scale, leading zeros, a point last, eight bytes */
	const char *short_dec[NF] = { "1", "7.5", "0002.1", "12", "", "1." };
	set_line(&l, short_dec, NF);
	CHECK(isc_lanes_line(&pl, l.buf, ends, codes, nums) == (int)l.len - 1);
	CHECK(codes[0] == 750 && codes[1] == 2100 && codes[2] == 12 && codes[3] == 10000000 && nums[0] == 1);
	/* 19 digits, a point first or last, leading zeros */
	static const char *const num_ok[] = { "1234567890.123456789", ".5", "5.", "000000000000000.25",
					      "9999999999999999999", "0", "0.000" };
	for (size_t i = 0; i < sizeof(num_ok) / sizeof(num_ok[0]); i++) {
		const char *f[NF] = { num_ok[i], "1.5", "1.000", "0", "C1", "0.1" };
		double want = NAN;
		set_line(&l, f, NF);
		CHECK_MSG(isc_lanes_line(&pl, l.buf, ends, codes, nums) >= 0 &&
			  isc_parse_double(num_ok[i], strlen(num_ok[i]), &want) &&
			  memcmp(&want, &nums[0], sizeof(want)) == 0, "'%s': %.17g", num_ok[i], nums[0]);
	}
	/* a number field of any other shape sends the line back */
	static const char *const num_back[] = { "", "-1.5", "1e5", "1.2.3", "12345678901234567890", "x", ".",
						"+1", "0000000000000000000000000000001.5" };
	for (size_t i = 0; i < sizeof(num_back) / sizeof(num_back[0]); i++) {
		const char *f[NF] = { num_back[i], "1.5", "1.000", "0", "C1", "0.1" };
		set_line(&l, f, NF);
		CHECK_MSG(isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0, "'%s' taken", num_back[i]);
	}
	/* each of these in field 1 (scale 2) sends the line back */
	static const char *const back[] = { "", "-1.5", "1.234", "1.2.3", ".5", "123456789", "1e3",
					     "+1", " 1", "1,5", "0x1", "12345678.9" };
	for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		const char *f[NF] = { "1.5", back[i], "1.000", "0", "C1", "0.1" };
		set_line(&l, f, NF);
		CHECK_MSG(isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0, "'%s' taken", back[i]);
	}
	/* a code above code_max; a line with a field too many or too few; a line of 129 bytes */
	make_plan(&pl, 7, 99);
	set_line(&l, ok, NF);
	CHECK(isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0);
	make_plan(&pl, 7, 2147483645);
	set_line(&l, ok, NF - 1);
	CHECK(isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0);
	const char *seven[NF + 1] = { "1", "0.62", "2055.784", "1", "C6", "3.1", "7" };
	set_line(&l, seven, NF + 1);
	CHECK(isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0);
	char longtext[129 - 23 + 1];  /* 23 bytes besides it */
	memset(longtext, 'a', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	const char *longest[NF] = { "1", "0.62", "2055.784", "1", longtext, "3.1" };
	set_line(&l, longest, NF);
	CHECK(l.len == 129 && isc_lanes_line(&pl, l.buf, ends, codes, nums) < 0);
	longtext[sizeof(longtext) - 2] = '\0';
	set_line(&l, longest, NF);
	CHECK(l.len == 128 && isc_lanes_line(&pl, l.buf, ends, codes, nums) == 127 && codes[3] == 31000000);
	/* a packed field first, ending before the line's eighth byte */
	struct isc_lane_plan first = { .nfields = 2, .nlanes = 2, .field = { 0, 1 }, .scale = { 1, 2 },
				       .code_max = { 1000, 1000 } };
	isc_lanes_plan(&first);
	const char *two[2] = { "4.5", "0.07" };
	set_line(&l, two, 2);
	CHECK(isc_lanes_line(&first, l.buf, ends, codes, nums) == 8 && codes[0] == 45 && codes[1] == 7);
}

/* A random field for scale: mostly usual shapes, some that the lanes give back. */
static void random_field(char *buf, size_t len, unsigned scale)
{
	int kind = rand() % 12, dec = scale ? rand() % (int)(scale % 8 + 1) : 0;
	long ip = rand() % (kind == 1 ? 100000000 : kind == 2 ? 10 : 3000);
	switch (kind) {
	case 3: snprintf(buf, len, "-%ld", ip); return;
	case 4: snprintf(buf, len, "%ld.%0*d", ip, (int)(scale % 8) + 1, rand() % 10); return;
	case 5: snprintf(buf, len, "%s", (const char *[]){ "", ".", ".5", "5.", "1..2", "x", "00" }[rand() % 7]); return;
	default: break;
	}
	int n = snprintf(buf, len, "%ld", ip);
	if (dec || rand() % 8 == 0)
		snprintf(buf + n, len - (size_t)n, ".%0*ld", dec, dec ? (long)rand() % (long)pow(10, dec) : 0L);
}

/* A random number field: mostly a latency's 17 digits, some of other lengths and shapes. */
static void random_number(char *buf, size_t len)
{
	double v = (double)rand() / RAND_MAX * pow(10, rand() % 12 - 3);
	switch (rand() % 10) {
	case 0: snprintf(buf, len, "%.*f", rand() % 20, v); return;
	case 1: snprintf(buf, len, "%ld", (long)rand() * rand()); return;
	case 2: snprintf(buf, len, "%s", (const char *[]){ "", "-1", "1e3", ".5", "5.", "00.10", "x" }[rand() % 7]); return;
	default: snprintf(buf, len, "%.17g", v); return;
	}
}

/* Random lines: wherever the lanes take one, each code is the byte-wise parser's; wherever
 * every packed field has a usual shape, they take it. */
static void random_lines(size_t n)
{
	struct isc_lane_plan pl;
	struct line l;
	uint8_t ends[64];
	uint64_t codes[ISC_LANES];
	double nums[ISC_NUM_LANES];
	size_t taken = 0, usual = 0, strtod_back = 0;
	make_plan(&pl, 1, 2147483645);
	for (size_t i = 0; i < n; i++) {
		char f[NF][40];
		const char *fp[NF];
		for (unsigned k = 0; k < NF; k++)
			fp[k] = f[k];
		random_number(f[0], sizeof(f[0]));
		snprintf(f[4], sizeof(f[4]), "%s", rand() % 2 ? "C1" : "POLL");
		for (unsigned lane = 0; lane < pl.nlanes; lane++)
			random_field(f[pl.field[lane]], sizeof(f[0]), (unsigned)pl.scale[lane]);
		set_line(&l, fp, NF);
		int64_t want[ISC_LANES];
		bool all = true;
		for (unsigned lane = 0; lane < pl.nlanes; lane++) {
			unsigned fi = pl.field[lane];
			size_t at = 0;
			for (unsigned k = 0; k < fi; k++)
				at += strlen(f[k]) + 1;
			const char *s = l.buf + at;
			want[lane] = scalar_code(s, s + strlen(f[fi]), (unsigned)pl.scale[lane], pl.code_max[lane]);
			size_t len = strlen(f[fi]);
			all &= want[lane] >= 0 && len <= 8 && f[fi][0] != '.';
		}
		double want_num = NAN;
		bool num_ok = isc_parse_double(f[0], strlen(f[0]), &want_num) && !strpbrk(f[0], "eE-+");
		size_t ndig = 0;
		for (const char *c = f[0]; *c; c++)
			ndig += *c >= '0' && *c <= '9';
		all &= num_ok && ndig >= 1 && ndig <= 19 && strlen(f[0]) <= 31;
		int got = isc_lanes_line(&pl, l.buf, ends, codes, nums);
		usual += all;
		if (all && got < 0)
			strtod_back++;   /* may be a number whose rounding needs strtod */
		if (got < 0)
			continue;
		taken++;
		CHECK_MSG(num_ok && memcmp(&want_num, &nums[0], sizeof(want_num)) == 0, "'%s': %.17g, byte-wise %.17g",
			  f[0], nums[0], want_num);
		for (unsigned lane = 0; lane < pl.nlanes; lane++)
			CHECK_MSG(want[lane] >= 0 && codes[lane] == (uint64_t)want[lane],
				  "line '%.*s' field %u: %llu, byte-wise %lld", (int)l.len - 1, l.buf, pl.field[lane],
				  (unsigned long long)codes[lane], (long long)want[lane]);
	}
	CHECK_MSG(usual > n / 20 && taken + strtod_back == usual && strtod_back < usual / 100,
		  "%zu lines taken, %zu of usual shapes, of %zu, %zu given back", taken, usual, n, strtod_back);
	printf("csv_lanes: %zu of %zu random lines taken (%zu of usual shapes given back for strtod),"
	       " each value the byte-wise parser's\n", taken, n, strtod_back);
}

int main(void)
{
	const char *off = getenv("IDLESCOPE_NO_AVX512");
	if (!isc_lanes_usable()) {
		printf("csv_lanes: not used here (no AVX-512 VBMI2, or IDLESCOPE_NO_AVX512=%s)\n", off ? off : "");
		return CHECK_DONE();
	}
	printf("csv_lanes: AVX-512 VBMI2 present, lanes checked\n");
	srand(9);
	fixed_lines();
	random_lines(300000);
	return CHECK_DONE();
}
