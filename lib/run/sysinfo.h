/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A description of the machine as cJSON, for info.json "system": what a reader needs to
 * tell two runs apart. Everything is read from /proc and /sys; what cannot be read is left
 * out (never guessed), so it works as well in a VM without cpuidle as on bare metal.
 */
#ifndef IDLESCOPE_SYSINFO_H
#define IDLESCOPE_SYSINFO_H
#include <cjson/cJSON.h>

/*
 * {
 *   "hostname", "kernel": {"release", "version", "machine"}, "cmdline",
 *   "cpu": {"vendor", "family", "model", "stepping", "model_name", "microcode"},
 *   "cpus_online": "0-3", "cpus_online_count", "cpus_possible",
 *   "clocksource": {"current", "available"},
 *   "cpuidle": {"driver", "governor", "cpu", "states": [...]}  (see below),
 *   "pm_qos": {"cpu_dma_latency_us" (null if unreadable), "resume_latency_us" (of cpu)}
 * }
 * The idle states are those of CPU `cpu` (the measured one; use 0 if none).
 */
cJSON *isc_sysinfo_collect(int cpu);

/*
 * Idle states of one CPU: [{"index", "name", "desc", "latency_us", "residency_us",
 * "disabled", "default_status"}], in index order; an empty array when the CPU has no
 * cpuidle directory (no driver). NULL never.
 */
cJSON *isc_sysinfo_idle_states(int cpu);

/* Online CPUs from /sys/devices/system/cpu/online: 1 online, 0 offline or absent, -1 unknown. */
int isc_sysinfo_cpu_online(int cpu);
/* Number of possible CPUs (highest possible index + 1), or -1. */
int isc_sysinfo_cpus_possible(void);

#endif
