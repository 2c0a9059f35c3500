/* SPDX-License-Identifier: GPL-2.0-only */
/* Counts read from JSON another machine wrote (lib/text/json_num.h isc_json_count): whole,
 * >= 0 and below 2^53, or refused; never an undefined cast (a fuzzed SUT's info.json had a
 * discard count of 3.3e64). */
#include <stdint.h>
#include <stdlib.h>

#include "text/json_num.h"
#include "../common/check.h"

static bool count_of(const char *json, uint64_t *n)
{
	cJSON *j = cJSON_Parse(json);
	CHECK_MSG(j != NULL, "parse %s", json);
	bool ok = j && isc_json_count(j, n);
	cJSON_Delete(j);
	return ok;
}

int main(void)
{
	const struct { const char *json; uint64_t want; } good[] = {
		{ "0", 0 }, { "1", 1 }, { "17", 17 }, { "1e3", 1000 }, { "-0", 0 },
		{ "9007199254740991", 9007199254740991ULL },
	};
	const char *bad[] = { "-1", "0.5", "1e-3", "9007199254740992", "1e19", "3.3e64", "1e400",
			      "-1e400", "\"5\"", "true", "null", "[1]", "{}" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t n = 12345;
		CHECK_MSG(count_of(good[i].json, &n) && n == good[i].want, "%s: %llu", good[i].json,
			  (unsigned long long)n);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t n = 12345;
		CHECK_MSG(!count_of(bad[i], &n) && n == 12345, "%s taken as %llu", bad[i], (unsigned long long)n);
	}
	return CHECK_DONE();
}
