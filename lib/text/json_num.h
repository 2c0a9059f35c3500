/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers in JSON output, written so that they read back as the same double.
 *
 * cJSON prints numbers with %1.15g and only falls back to %1.17g when the difference is
 * larger than about DBL_EPSILON: 1.0000000000000002 prints as 1, 0.30000000000000004 as 0.3,
 * and 1.7976931348623157e308 as 1.79769313486232e+308, which reads back as infinity. These
 * write the text themselves and hand it to cJSON as a raw item.
 */
#ifndef IDLESCOPE_JSON_NUM_H
#define IDLESCOPE_JSON_NUM_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

/* Enough for any text isc_num_str() writes, with the terminating NUL. */
#define ISC_NUM_STR_LEN 32

/*
 * v as the shortest of %.15g, %.16g and %.17g that strtod() reads back as v exactly (for a
 * subnormal v, of %.1g to %.17g: 5e-324, not 4.94065645841247e-324). Whole
 * numbers below 1e17 in magnitude are written in plain digits ("200", "10000000000000000",
 * the same text %.17g gives them), larger ones as %g does ("1e+17"). NaN and the infinities
 * as printf writes them ("nan", "inf", "-inf"): callers that must not print them check first.
 * buf holds ISC_NUM_STR_LEN bytes. Returns buf.
 */
char *isc_num_str(char *buf, double v);

/* A cJSON item for v: the number as isc_num_str() writes it (a raw item), or null for NaN and
 * the infinities, which JSON cannot hold. NULL only when out of memory. */
cJSON *isc_json_num(double v);

/* isc_json_num(v) added to obj under key (as cJSON_AddNumberToObject). Returns the item. */
cJSON *isc_json_add_num(cJSON *obj, const char *key, double v);

/* Whether item is a count: a JSON number that is whole, >= 0 and below 2^53 (where every
 * whole number is a double), its value in *out. A count from a file another machine wrote
 * (a SUT's info.json) goes through this before it is an integer: casting 1e64 is undefined. */
bool isc_json_count(const cJSON *item, uint64_t *out);

#endif
