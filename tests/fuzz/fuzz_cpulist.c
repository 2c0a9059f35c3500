/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as a CPU list (a target's cpus=LIST, a sysroot's cpu/online and
 * thread_siblings_list; lib/settings/target.c) are parsed into ascending CPUs without repeats
 * that print back to a list parsing to the same CPUs, or refused with one message; never a
 * crash. Build: cmake -DIDLESCOPE_FUZZ=ON with clang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settings/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[256];
	int *c, *c2;
	size_t n, n2;
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (isc_parse_cpu_list(text, &c, &n, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < n; i++)
			if (c[i] < 0 || c[i] > 65535 || (i && c[i - 1] >= c[i]))
				abort();
		struct isc_target t = { .cpus = c, .ncpus = n };
		char *back = isc_target_cpus_text(&t);
		if (isc_parse_cpu_list(back, &c2, &n2, why, sizeof(why)) < 0 || n2 != n || memcmp(c, c2, n * sizeof(*c)))
			abort();
		free(c2);
		free(back);
		free(c);
	} else if (!memchr(why, '\0', sizeof(why)) || !strstr(why, "not a CPU list")) {
		abort();
	}
	free(text);
	return 0;
}
