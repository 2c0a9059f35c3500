/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as info.json and as info.yml give a JSON object or one error
 * naming the file, within the limits (docs/format.md), never a crash or a hang; and the
 * biased-run check of that object (discards.h) a share from 0 to 1 or none.
 * Build: cmake -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"
#include "run/discards.h"

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
}

/* Depth below the top object, to check that the limit held. */
static int depth(const cJSON *j)
{
	int d = 0;
	for (const cJSON *c = j ? j->child : NULL; c; c = c->next) {
		int k = depth(c) + 1;
		d = k > d ? k : d;
	}
	return d;
}

static void check(cJSON *(*load)(const char *, char *, size_t), const char *path)
{
	char err[512] = "";
	cJSON *j = load(path, err, sizeof(err));
	if (j && (!cJSON_IsObject(j) || depth(j) > ISC_META_MAX_DEPTH))
		abort();
	if (!j && (strncmp(err, path, strlen(path)) != 0 || strchr(err, '\n')))
		abort();  /* a refusal names the file, on one line */
	/* what analyze makes of the tree: the biased-run check reads datapoints and discards */
	struct isc_discards d;
	isc_info_discards(j, &d);
	double share = isc_discard_share(&d);
	if (!isnan(share) && !(share >= 0 && share <= 1))
		abort();
	free(isc_info_biased(j));
	cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char json[64], yml[64];
	if (!json[0]) {
		snprintf(json, sizeof(json), "/dev/shm/idlescope-fuzz-%d.json", (int)getpid());
		snprintf(yml, sizeof(yml), "/dev/shm/idlescope-fuzz-%d.yml", (int)getpid());
	}
	write_file(json, data, size);
	write_file(yml, data, size);
	check(isc_json_load, json);
	check(isc_yaml_load, yml);
	return 0;
}
