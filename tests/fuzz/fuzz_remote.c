/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as the remote agent's stream (frames from the SUT, docs/remote.md)
 * go through the controller's receiver (collect/remote/receive.c) into a run directory: never a
 * crash, a hang, a read past a frame, or memory beyond the limits; every row file written holds
 * whole rows only. Build: cmake -DIDLESCOPE_FUZZ=ON with clang (scripts/fuzz.sh). */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "method.h"
#include "remote.h"

/* A row file ends with its last row's newline (or is empty). */
static void check_rows(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	if (fseek(f, -1, SEEK_END) == 0 && fgetc(f) != '\n')
		abort();
	fclose(f);
}

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	const char *base = strrchr(path, '/');
	if (base && (!strcmp(base, "/datapoints.csv") || !strcmp(base, "/counters.csv")))
		check_rows(path);
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64];
	static char *pass[] = { "collect", NULL };
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/dev/shm/idlescope-fuzz-%d.remote", (int)getpid());
	struct remote_opts ro = { .pass = pass, .npass = 1, .quiet = true, .outdir = dir, .force = true };
	struct host_result res;
	remote_receive_bytes(&ro, "sut", dir, (const char *)data, size, &res);
	if (access(dir, F_OK) == 0)
		nftw(dir, visit, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
