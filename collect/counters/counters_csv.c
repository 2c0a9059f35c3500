/* SPDX-License-Identifier: GPL-2.0-only */
/* counters.csv in a run directory: whole rows, flushed after every snapshot. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "counters_collect.h"
#include "text/util.h"

FILE *counters_csv_open(int dirfd, const char *dirpath, const struct cnt_set *s)
{
	if (unlinkat(dirfd, "counters.csv", 0) < 0 && errno != ENOENT) {
		isc_err("%s/counters.csv: %s", dirpath, strerror(errno));
		return NULL;
	}
	int fd = openat(dirfd, "counters.csv", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		isc_err("%s/counters.csv: %s", dirpath, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (cnt_csv_write_header(f, s) || fflush(f)) {
		isc_err("%s/counters.csv: %s", dirpath, strerror(errno));
		fclose(f);
		return NULL;
	}
	return f;
}

int counters_csv_snapshot(FILE *f, struct cnt_set *s, const char *dirpath)
{
	if (cnt_snapshot(s) || cnt_csv_write_rows(f, s) || fflush(f)) {
		isc_err("%s/counters.csv: %s", dirpath, strerror(errno));
		return -1;
	}
	return 0;
}

int counters_csv_close(FILE *f, const char *dirpath)
{
	if (!f)
		return 0;
	bool bad = ferror(f);
	if (fclose(f) || bad) {
		isc_err("%s/counters.csv: write failed: %s", dirpath, strerror(errno));
		return -1;
	}
	return 0;
}
