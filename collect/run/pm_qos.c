/* SPDX-License-Identifier: GPL-2.0-only */
/* PM QoS: record the CPU latency limit in force and, on request, hold it for the run. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "fs/fs.h"
#include "text/util.h"

#define CPU_DMA_LATENCY "/dev/cpu_dma_latency"

struct pm_qos {
	int fd;   /* the request lasts as long as this stays open */
};

static int read_limit(int32_t *v)
{
	int fd = isc_fs_open_dev(CPU_DMA_LATENCY, O_RDONLY, false, NULL);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, v, sizeof(*v));
	int e = errno;
	close(fd);
	errno = n < 0 ? e : EIO;
	return n == (ssize_t)sizeof(*v) ? 0 : -1;
}

struct pm_qos *pm_qos_start(long req_us, int cpu, cJSON *info)
{
	struct pm_qos *q = isc_xcalloc(1, sizeof(*q));
	int32_t before;
	char path[128];
	q->fd = -1;

	if (read_limit(&before) == 0) {
		cJSON_AddNumberToObject(info, "cpu_dma_latency_us_before", before);
	} else {
		int e = errno;
		cJSON_AddNullToObject(info, "cpu_dma_latency_us_before");
		cJSON_AddStringToObject(info, "cpu_dma_latency_note", strerror(e));
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/power/pm_qos_resume_latency_us", cpu);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char buf[32];
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			cJSON_AddStringToObject(info, "resume_latency_us", buf);
		}
	}
	if (req_us < 0) {
		cJSON_AddNullToObject(info, "requested_us");
		return q;
	}
	int32_t v = (int32_t)req_us;
	q->fd = isc_fs_open_dev(CPU_DMA_LATENCY, O_RDWR, false, NULL);
	if (q->fd < 0 || write(q->fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		isc_err("--pm-qos-us %ld: %s: %s%s", req_us, CPU_DMA_LATENCY, strerror(errno),
		       errno == EACCES || errno == EPERM ? " (needs root; or leave PM QoS alone)" : "");
		pm_qos_stop(q);
		return NULL;
	}
	cJSON_AddNumberToObject(info, "requested_us", v);
	int32_t now;
	if (read_limit(&now) == 0)
		cJSON_AddNumberToObject(info, "cpu_dma_latency_us_during", now);
	return q;
}

void pm_qos_stop(struct pm_qos *q)
{
	if (!q)
		return;
	if (q->fd >= 0)
		close(q->fd);
	free(q);
}
