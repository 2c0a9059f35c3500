/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as a SUT's answer to collect -H --list-settings (or --dry-run,
 * --restore; collect/remote/settings_answer.h) go through the controller's checks and, when
 * taken, through the table across hosts: never a crash, a hang or a read out of bounds, and
 * what is taken keeps the answer's limits. Build: cmake -DIDLESCOPE_FUZZ=ON with clang
 * (scripts/fuzz.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings_remote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct host_answer h[2] = { { .host = "sut1" }, { .host = "sut2" } };
	char why[200];
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (settings_answer_parse((const char *)data, size, &h[0].a, why, sizeof(why)) < 0) {
		if (!why[0] || h[0].a.n || h[0].a.output)
			abort();
		return 0;
	}
	if (h[0].a.status < 0 || h[0].a.status > 255 || h[0].a.n > SETTINGS_MAX ||
	    strlen(h[0].a.output) > SETTINGS_OUTPUT_MAX)
		abort();
	for (size_t i = 0; i < h[0].a.n; i++)
		if (!h[0].a.names[i][0] || strpbrk(h[0].a.names[i], " \t\n") || strlen(h[0].a.names[i]) > SETTING_NAME_MAX ||
		    strlen(h[0].a.values[i]) > SETTING_VALUE_MAX || strchr(h[0].a.values[i], '\n'))
			abort();
	/* the second host has the first's settings but the first: one value differs, one is missing */
	h[0].answered = h[1].answered = true;
	h[1].a.n = h[0].a.n ? h[0].a.n - 1 : 0;
	h[1].a.names = h[0].a.n ? h[0].a.names + 1 : NULL;
	h[1].a.values = h[0].a.n ? h[0].a.values : NULL;
	settings_host_print(null, &h[0]);
	settings_table_print(null, h, 2, NULL, 0);
	const char *names[] = { h[0].a.n ? h[0].a.names[0] : "x", "absent" };
	settings_table_print(null, h, 2, names, 2);
	settings_answer_free(&h[0].a);
	return 0;
}
