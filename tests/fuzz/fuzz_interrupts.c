/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as stats-collect's stats/interrupts.raw.txt are summarised into
 * the measured CPU's interrupt rates (for CPU 0 and CPU 1) or refused with an error, never a
 * crash. Build: cmake -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "formats/interrupts_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[96];
	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/idlescope-fuzz-irq-%d.txt", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	for (long cpu = 0; cpu < 2; cpu++) {
		cJSON *s = cJSON_CreateObject();
		isc_interrupts_summary(path, cpu, s);
		cJSON_Delete(s);
	}
	return 0;
}
