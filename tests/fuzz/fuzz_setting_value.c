/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as "NAME=VALUE[@TARGET]" of collect --set, checked (lib/settings:
 * every setting's check and probe, including the CPU lists of offline-cpus, the frequencies of
 * uncore-freq, the HWP levels; the target resolved, and checked against offline-cpus=VALUE
 * taking CPUs offline in the same run) against a fixture machine made once in a scratch
 * directory: accepted, or refused with one NUL-terminated line, never a crash. Nothing is
 * written. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>

#include "settings/settings.h"
#include "settings/target.h"

static struct isc_settings *s;
static char root[] = "/tmp/idlescope-fuzz-settings.XXXXXX";

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* The scratch machine goes with the fuzzer (only what mkdtemp made: FTW_PHYS follows no link). */
static void remove_machine(void)
{
	isc_settings_close(s);
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *root, const char *rel, const char *text, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		abort();
}

/* 2 CPUs (siblings), cpufreq, PM QoS, online file of CPU 1, one uncore die, Intel Sapphire
 * Rapids MSRs with HWP on. */
static void make_machine(const char *r)
{
	char rel[256], msr[8 * 0x800] = { 0 };
	const uint64_t vals[][2] = { { 0xE2, 0x14000008 }, { 0x1FC, 0x22 }, { 0x770, 1 },
				     { 0x771, 0x01081A2D }, { 0x774, 0x15580002D01 } };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		memcpy(msr + 8 * vals[i][0], &vals[i][1], 8);
	const char *cpuinfo = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n";
	put(r, "/proc/cpuinfo", cpuinfo, strlen(cpuinfo));
	put(r, "/sys/devices/system/cpu/online", "0-1\n", 4);
	put(r, "/sys/devices/system/cpu/cpu1/online", "1\n", 2);
	for (int c = 0; c < 2; c++) {
		static const char *const f[][2] = { { "cpufreq/cpuinfo_min_freq", "800000\n" },
						    { "cpufreq/cpuinfo_max_freq", "4200000\n" },
						    { "cpufreq/scaling_min_freq", "800000\n" },
						    { "cpufreq/scaling_max_freq", "4200000\n" },
						    { "power/pm_qos_resume_latency_us", "0\n" },
						    { "topology/thread_siblings_list", "0-1\n" },
						    { "topology/physical_package_id", "0\n" } };
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/%s", c, f[i][0]);
			put(r, rel, f[i][1], strlen(f[i][1]));
		}
		snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", c);
		put(r, rel, msr, sizeof(msr));
	}
	static const char *const u[][2] = { { "initial_min_freq_khz", "800000\n" }, { "initial_max_freq_khz", "2400000\n" },
					    { "min_freq_khz", "800000\n" }, { "max_freq_khz", "2000000\n" } };
	for (size_t i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/intel_uncore_frequency/package_00_die_00/%s", u[i][0]);
		put(r, rel, u[i][1], strlen(u[i][1]));
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (!mkdtemp(root))
		abort();
	make_machine(root);
	s = isc_settings_open(root, 0, true);
	atexit(remove_machine);
	return 0;
}

/* Every answer is one NUL-terminated line (why starts as 0xff bytes). */
static void check_one(const char *name, const char *value, const char *spec)
{
	char why[1024];
	struct isc_target t;
	memset(why, 0xff, sizeof(why));
	if (isc_target_resolve(s, name, spec, &t, why, sizeof(why)) < 0) {
		if (!memchr(why, '\0', sizeof(why)))
			abort();
		return;
	}
	if ((isc_settings_check_on(s, &t, name, value, why, sizeof(why)) < 0 ||
	     isc_target_offline_clash(s, name, &t, value, why, sizeof(why)) < 0) &&
	    !memchr(why, '\0', sizeof(why)))
		abort();
	free(isc_settings_read_on(s, &t, name));
	isc_target_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	char *eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		char *at = strrchr(eq + 1, '@');   /* the target follows the last '@' (as experiment_plan.c) */
		if (at)
			*at = '\0';
		check_one(text, eq + 1, at ? at + 1 : NULL);
	}
	free(text);
	return 0;
}
