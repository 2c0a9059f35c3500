/* SPDX-License-Identifier: GPL-2.0-only */
/* The system description recorded in info.json: /proc/cpuinfo, uname, clocksource, cpuidle, PM QoS. */
#include "run/sysinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fs/fs.h"

#define CPU_SYSFS "/sys/devices/system/cpu"

/* First line of a small text file, without the newline; -1 if it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void add_file_str(cJSON *o, const char *key, const char *path)
{
	char buf[4096];
	if (read_line(path, buf, sizeof(buf)) == 0)
		cJSON_AddStringToObject(o, key, buf);
}

/* A file holding a whole number; -1 if absent or not a number. */
static int read_long(const char *path, long long *v)
{
	char buf[64], *end;
	if (read_line(path, buf, sizeof(buf)) < 0 || !buf[0])
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

static void add_file_num(cJSON *o, const char *key, const char *path)
{
	long long v;
	if (read_long(path, &v) == 0)
		cJSON_AddNumberToObject(o, key, (double)v);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* The first processor's block of /proc/cpuinfo (x86 keys; others are simply absent). */
static cJSON *cpu_description(void)
{
	static const struct { const char *key, *json; bool num; } keys[] = {
		{ "vendor_id", "vendor", false },    { "cpu family", "family", true },
		{ "model", "model", true },          { "stepping", "stepping", true },
		{ "model name", "model_name", false }, { "microcode", "microcode", false },
	};
	cJSON *o = cJSON_CreateObject();
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	if (!f)
		return o;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n')
			break;   /* end of the first processor */
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *k = trim(line), *v = trim(colon + 1);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strcmp(k, keys[i].key) || cJSON_HasObjectItem(o, keys[i].json))
				continue;
			char *end;
			long long n = strtoll(v, &end, 10);
			if (keys[i].num && *v && !*end)
				cJSON_AddNumberToObject(o, keys[i].json, (double)n);
			else
				cJSON_AddStringToObject(o, keys[i].json, v);
		}
	}
	fclose(f);
	return o;
}

static cJSON *kernel_description(void)
{
	cJSON *o = cJSON_CreateObject();
	struct utsname u;
	if (uname(&u) == 0) {
		cJSON_AddStringToObject(o, "release", u.release);
		cJSON_AddStringToObject(o, "version", u.version);
		cJSON_AddStringToObject(o, "machine", u.machine);
	}
	return o;
}

cJSON *isc_sysinfo_idle_states(int cpu)
{
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0;; i++) {
		char dir[128], path[192];
		snprintf(dir, sizeof(dir), CPU_SYSFS "/cpu%d/cpuidle/state%d", cpu, i);
		snprintf(path, sizeof(path), "%s/name", dir);
		if (access(path, R_OK) != 0)
			break;
		cJSON *s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "index", i);
		add_file_str(s, "name", path);
		snprintf(path, sizeof(path), "%s/desc", dir);
		add_file_str(s, "desc", path);
		snprintf(path, sizeof(path), "%s/latency", dir);
		add_file_num(s, "latency_us", path);
		snprintf(path, sizeof(path), "%s/residency", dir);
		add_file_num(s, "residency_us", path);
		long long dis;
		snprintf(path, sizeof(path), "%s/disable", dir);
		if (read_long(path, &dis) == 0)
			cJSON_AddBoolToObject(s, "disabled", dis != 0);
		snprintf(path, sizeof(path), "%s/default_status", dir);
		add_file_str(s, "default_status", path);
		cJSON_AddItemToArray(arr, s);
	}
	return arr;
}

static cJSON *cpuidle_description(int cpu)
{
	cJSON *o = cJSON_CreateObject();
	add_file_str(o, "driver", CPU_SYSFS "/cpuidle/current_driver");
	if (access(CPU_SYSFS "/cpuidle/current_governor", R_OK) == 0)
		add_file_str(o, "governor", CPU_SYSFS "/cpuidle/current_governor");
	else
		add_file_str(o, "governor", CPU_SYSFS "/cpuidle/current_governor_ro");
	cJSON_AddNumberToObject(o, "cpu", cpu);
	cJSON_AddItemToObject(o, "states", isc_sysinfo_idle_states(cpu));
	return o;
}

/* A CPU list such as "0-3,5": how many CPUs it names, and whether cpu is one of them
 * (*has, when not NULL); -1 if malformed. */
static int scan_cpu_list(const char *s, int cpu, int *has)
{
	int n = 0;
	if (has)
		*has = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		if (*end && *end != ',')
			return -1;
		n += (int)(b - a + 1);
		if (has && cpu >= a && cpu <= b)
			*has = 1;
		s = *end ? end + 1 : end;
	}
	return n;
}

int isc_sysinfo_cpu_online(int cpu)
{
	char buf[1024];
	if (read_line(CPU_SYSFS "/online", buf, sizeof(buf)) < 0)
		return -1;
	int has;
	return scan_cpu_list(buf, cpu, &has) < 0 ? -1 : has;
}

int isc_sysinfo_cpus_possible(void)
{
	char buf[1024];
	if (read_line(CPU_SYSFS "/possible", buf, sizeof(buf)) < 0)
		return -1;
	const char *last = strrchr(buf, ',');
	last = last ? last + 1 : buf;
	const char *dash = strchr(last, '-');
	char *end;
	long hi = strtol(dash ? dash + 1 : last, &end, 10);
	return *end || hi < 0 ? -1 : (int)hi + 1;
}

/* /dev/cpu_dma_latency holds the global PM QoS CPU latency limit as a binary s32 (root only). */
static cJSON *pm_qos_description(int cpu)
{
	cJSON *o = cJSON_CreateObject();
	int32_t v;
	int fd = isc_fs_open_dev("/dev/cpu_dma_latency", O_RDONLY, false, NULL);
	if (fd >= 0 && read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		cJSON_AddNumberToObject(o, "cpu_dma_latency_us", v);
	else
		cJSON_AddNullToObject(o, "cpu_dma_latency_us");
	if (fd < 0)
		cJSON_AddStringToObject(o, "cpu_dma_latency_note", strerror(errno));
	else
		close(fd);
	char path[128];
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/power/pm_qos_resume_latency_us", cpu);
	add_file_str(o, "resume_latency_us", path);   /* a number or "n/a" */
	return o;
}

cJSON *isc_sysinfo_collect(int cpu)
{
	cJSON *o = cJSON_CreateObject();
	char buf[1024];
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		cJSON_AddStringToObject(o, "hostname", buf);
	}
	cJSON_AddItemToObject(o, "kernel", kernel_description());
	add_file_str(o, "cmdline", "/proc/cmdline");
	cJSON_AddItemToObject(o, "cpu", cpu_description());
	if (read_line(CPU_SYSFS "/online", buf, sizeof(buf)) == 0) {
		cJSON_AddStringToObject(o, "cpus_online", buf);
		int n = scan_cpu_list(buf, -1, NULL);
		if (n >= 0)
			cJSON_AddNumberToObject(o, "cpus_online_count", n);
	}
	add_file_str(o, "cpus_possible", CPU_SYSFS "/possible");
	cJSON *cs = cJSON_CreateObject();
	add_file_str(cs, "current", "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	if (read_line("/sys/devices/system/clocksource/clocksource0/available_clocksource", buf,
		      sizeof(buf)) == 0)
		cJSON_AddStringToObject(cs, "available", trim(buf));
	cJSON_AddItemToObject(o, "clocksource", cs);
	cJSON_AddItemToObject(o, "cpuidle", cpuidle_description(cpu));
	cJSON_AddItemToObject(o, "pm_qos", pm_qos_description(cpu));
	return o;
}
