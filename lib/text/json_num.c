/* SPDX-License-Identifier: GPL-2.0-only */
/* Numbers in JSON output that read back exactly (json_num.h). */
#include "text/json_num.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

char *isc_num_str(char *buf, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, ISC_NUM_STR_LEN, "%g", v);
		return buf;
	}
	/* Every double of magnitude below 1e17 that is a whole number has at most 17 digits,
	 * which %.0f writes exactly. */
	if (fabs(v) < 1e17 && v == floor(v)) {
		snprintf(buf, ISC_NUM_STR_LEN, "%.0f", v);
		return buf;
	}
	/* A normal double's shortest text, when it has 15 digits or fewer, is what %.15g writes;
	 * a subnormal one has fewer digits of precision, and may need as few as one (5e-324). */
	for (int prec = fabs(v) < DBL_MIN ? 1 : 15; prec < 17; prec++) {
		snprintf(buf, ISC_NUM_STR_LEN, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, ISC_NUM_STR_LEN, "%.17g", v);
	return buf;
}

cJSON *isc_json_num(double v)
{
	char buf[ISC_NUM_STR_LEN];
	if (!isfinite(v))
		return cJSON_CreateNull();
	return cJSON_CreateRaw(isc_num_str(buf, v));
}

cJSON *isc_json_add_num(cJSON *obj, const char *key, double v)
{
	cJSON *item = isc_json_num(v);
	cJSON_AddItemToObject(obj, key, item);
	return item;
}

bool isc_json_count(const cJSON *item, uint64_t *out)
{
	if (!cJSON_IsNumber(item))
		return false;
	double v = item->valuedouble;
	if (!(v >= 0 && v < 0x1p53 && v == floor(v)))
		return false;
	*out = (uint64_t)v;
	return true;
}
