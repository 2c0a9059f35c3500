/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as /proc/stat are parsed for the cpu0 and cpu1 lines (collect's
 * busy share of the measured CPU, collect/run/cpu_busy.c) and the share between two readings is
 * computed, or refused; never a crash or a share outside 0..100 %. Build: cmake
 * -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <stdint.h>
#include <stdlib.h>

#include "cpu_busy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpu_ticks a, b;
	struct cpu_busy r;
	int ra = cpu_ticks_parse((const char *)data, size, 0, &a);
	int rb = cpu_ticks_parse((const char *)data, size, 1, &b);
	if ((ra == 0) != a.ok || (rb == 0) != b.ok)
		abort();
	if (cpu_busy_between(&a, &b, 1000000, 100, &r) == 0 &&
	    (r.busy_pct < 0 || r.busy_pct > 100 || r.other_pct < 0 || r.other_pct > r.busy_pct || !r.ticks))
		abort();
	return 0;
}
