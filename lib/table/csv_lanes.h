/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A plain CSV line split and its short packed numbers converted with AVX-512, eight fields a
 * vector, instead of a byte at a time: the CSV reader's path for lines of the usual shape.
 * Anything unusual is left to the byte-wise path, which gives the same values (csv_reader.c).
 * On a CPU without AVX-512 VBMI2 (or another architecture) nothing here is used.
 */
#ifndef IDLESCOPE_CSV_LANES_H
#define IDLESCOPE_CSV_LANES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISC_LANES 16                 /* packed fields converted a line: two vectors of eight */
#define ISC_NUM_LANES 4              /* number fields converted a line: two vectors of two */
#define ISC_LANES_MAX_FIELDS 64
#define ISC_LANES_LINE 128           /* the longest line taken, its newline included */
#define ISC_LANES_SLACK 128          /* bytes read from a line's start past its newline */

/* The packed fields of a layout, converted in lanes. isc_lanes_plan fills the rest. */
struct isc_lane_plan {
	unsigned nfields;                /* fields of a line, at most ISC_LANES_MAX_FIELDS */
	unsigned nlanes;                 /* packed fields, 1 to ISC_LANES */
	unsigned field[ISC_LANES];       /* lane -> its field */
	uint64_t scale[ISC_LANES];       /* the column's decimals (at most 7) */
	uint64_t code_max[ISC_LANES];
	/* per vector of eight lanes: each lane's field (and the one before) in its 8 bytes */
	uint8_t end_of[2][64], start_of[2][64];
	uint64_t live[2];                /* the bytes of lanes in use */
	uint64_t after_sep[2];           /* ... whose field is not the first (starts after a comma) */
	uint8_t live_lanes[2];           /* the lanes in use, a bit each */
	unsigned nnum;                   /* number fields (doubles), at most ISC_NUM_LANES */
	unsigned num_field[ISC_NUM_LANES];
	/* per vector of two: each number field's end (and the one before) in its 32 bytes */
	uint8_t num_end_of[2][64], num_start_of[2][64];
	uint64_t num_live[2], num_after_sep[2];
};

/* Whether this CPU runs the functions below (AVX-512 F, BW, CD, VBMI and VBMI2), and the
 * environment does not say IDLESCOPE_NO_AVX512=1. */
bool isc_lanes_usable(void);

/* The derived parts of the plan, from nfields, nlanes, field, scale, code_max, nnum and
 * num_field. */
void isc_lanes_plan(struct isc_lane_plan *pl);

/*
 * The line at p (ISC_LANES_SLACK bytes readable from p): the offsets of the ends of its
 * nfields fields (its commas, then its newline) into ends[64]; the codes of the plan's packed
 * fields into codes[ISC_LANES]: each field 1 to 8 bytes, digits, or digits, '.' and at most
 * scale digits, its code at most code_max; and the values of its number fields into
 * nums[ISC_NUM_LANES]: 1 to 19 digits with at most one '.' among them, as isc_parse_double
 * rounds them. Returns the newline's offset, or -1 when the line has another number of
 * fields, is longer than ISC_LANES_LINE, a field has another shape, or a number is one of
 * the rare ones whose rounding needs strtod: nothing is decided then.
 */
int isc_lanes_line(const struct isc_lane_plan *pl, const char *p, uint8_t *ends, uint64_t *codes, double *nums);

#endif
