/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: a CSV line through the AVX-512 lanes (lib/table/csv_lanes.h) against the
 * byte-wise parsers: wherever the lanes take a line, its field ends are its separators, each
 * packed field's code is isc_colpack_scaled's and each number isc_parse_double's, bit for bit.
 * The first bytes choose the plan: fields, and for each one packed (a scale 0..7), a number or
 * text; the rest is the line. On a CPU without AVX-512 VBMI2 it only checks that nothing is
 * taken. Build: cmake -DIDLESCOPE_FUZZ=ON with clang (scripts/fuzz.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/colpack.h"
#include "table/csv_lanes.h"
#include "table/numparse.h"

#define PLAN_BYTES 18

/* The plan from the first bytes: each field packed, a number or text (the others). */
static void make_plan(const uint8_t *d, struct isc_lane_plan *pl)
{
	static const uint64_t maxes[4] = { 126, 32766, 2147483645, 99 };
	memset(pl, 0, sizeof(*pl));
	pl->nfields = 1 + d[0] % 16;
	uint64_t code_max = maxes[d[1] % 4];
	for (unsigned f = 0; f < pl->nfields; f++) {
		unsigned k = d[2 + f];
		if (k % 3 == 0 && pl->nlanes < ISC_LANES) {
			pl->field[pl->nlanes] = f;
			pl->scale[pl->nlanes] = (k / 3) % 8;
			pl->code_max[pl->nlanes++] = code_max;
		} else if (k % 3 == 1 && pl->nnum < ISC_NUM_LANES) {
			pl->num_field[pl->nnum++] = f;
		}
	}
	isc_lanes_plan(pl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct isc_lane_plan pl;
	char buf[ISC_LANES_LINE + ISC_LANES_SLACK + 8];
	uint8_t ends[ISC_LANES_MAX_FIELDS];
	uint64_t codes[ISC_LANES];
	double nums[ISC_NUM_LANES];
	if (size < PLAN_BYTES)
		return 0;
	make_plan(data, &pl);
	size_t len = size - PLAN_BYTES < ISC_LANES_LINE + 8 ? size - PLAN_BYTES : ISC_LANES_LINE + 8;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, data + PLAN_BYTES, len);
	buf[len] = '\n';
	int nl = isc_lanes_usable() ? isc_lanes_line(&pl, buf, ends, codes, nums) : -1;
	if (nl < 0)
		return 0;
	/* its newline is the first; its field ends are its commas before it */
	const char *first_nl = memchr(buf, '\n', len + 1);
	if (first_nl != buf + nl || nl >= ISC_LANES_LINE)
		abort();
	unsigned f = 0;
	for (int i = 0; i < nl; i++)
		if (buf[i] == ',' && (f >= pl.nfields - 1 || ends[f++] != i))
			abort();
	if (f != pl.nfields - 1 || ends[f] != nl)
		abort();
	for (unsigned l = 0; l < pl.nlanes; l++) {
		unsigned fi = pl.field[l], s = fi ? ends[fi - 1] + 1u : 0, e = ends[fi];
		uint64_t m;
		int neg;
		const char *stop = isc_colpack_scaled(buf + s, buf + e, (unsigned)pl.scale[l], &m, &neg, 1);
		if (stop != buf + e || neg || m > pl.code_max[l] || m != codes[l])
			abort();
	}
	for (unsigned i = 0; i < pl.nnum; i++) {
		unsigned fi = pl.num_field[i], s = fi ? ends[fi - 1] + 1u : 0, e = ends[fi];
		double want;
		if (!isc_parse_double(buf + s, e - s, &want) || memcmp(&want, &nums[i], sizeof(want)))
			abort();
	}
	return 0;
}
