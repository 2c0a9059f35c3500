/* SPDX-License-Identifier: GPL-2.0-only */
/* pm-qos: a CPU wake latency limit in us, held through /dev/cpu_dma_latency while the
 * collector keeps it open (collect holds it itself: isc_settings_is_held). Nothing to write or
 * restore: the kernel drops the request when the file is closed. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs/fs.h"
#include "text/util.h"
#include "settings/settings_internal.h"

static int qos_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	char *p = st_path(s, "/dev/cpu_dma_latency");
	int ok = st_exists(p);
	if (!ok)
		snprintf(why, len, "%s missing", p);
	free(p);
	return ok ? 0 : -1;
}

/* The device reads as a binary s32; a fixture file may hold it as text. */
static char *qos_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	char *p = st_path(s, "/dev/cpu_dma_latency"), buf[32];
	int fd = isc_fs_open_dev(p, O_RDONLY, s->sysroot[0] != '\0', NULL);
	free(p);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n == 4) {
		int32_t v;
		memcpy(&v, buf, 4);
		return isc_xasprintf("%ld", (long)v);
	}
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return isc_xstrdup(buf);
}

static void qos_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)s, (void)name;
	snprintf(buf, len, "0 to 2147483647 (us; held while the run lasts)");
}

static int qos_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)s, (void)name;
	char *end;
	errno = 0;
	unsigned long v = value[0] >= '0' && value[0] <= '9' ? strtoul(value, &end, 10) : 0;
	if (value[0] >= '0' && value[0] <= '9' && !errno && !*end && v <= INT32_MAX)
		return 0;
	snprintf(why, len, "not a whole number of microseconds");
	return -1;
}

static int qos_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	(void)s, (void)name, (void)value, (void)cpu, (void)err, (void)len;
	return 0;   /* held by the collector (--pm-qos-us) */
}

const struct st_def st_pmqos_defs[] = {
	{ "pm-qos", ST_SYSTEM, "0 to 2147483647 us", qos_have, qos_read, qos_accepts, qos_check, qos_write },
	{ 0 },
};
