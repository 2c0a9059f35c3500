/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as counters.csv (and, after a line "#info", as info.json beside
 * it) are loaded and derived (Busy%, MHz, C-states ...) or refused with an error, never a
 * crash. Build: cmake -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/derive/counters_derive.h"

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64], csv[96], info[96];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/idlescope-fuzz-ctr-%d", (int)getpid());
		mkdir(dir, 0700);
		snprintf(csv, sizeof(csv), "%s/counters.csv", dir);
		snprintf(info, sizeof(info), "%s/info.json", dir);
	}
	const uint8_t *sep = memmem(data, size, "\n#info\n", 7);
	size_t csv_len = sep ? (size_t)(sep - data) + 1 : size;
	write_file(csv, data, csv_len);
	if (sep)
		write_file(info, sep + 7, size - csv_len - 6);
	else
		unlink(info);
	struct cnt_data *d = NULL;
	if (cnt_data_load(dir, &d) > 0) {
		struct cnt_derive_opts o;
		struct cnt_result r;
		memset(&o, 0, sizeof(o));
		if (cnt_derive(d, &o, &r) == 0)
			cnt_result_free(&r);
		o.joules = o.whole_run = 1;
		if (cnt_derive(d, &o, &r) == 0)
			cnt_result_free(&r);
		cnt_data_free(d);
	}
	return 0;
}
