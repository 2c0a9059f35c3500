/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The counter registry: one entry per counter, sources in order of preference.
 * MSR numbers: Intel SDM vol. 4 (model-specific registers) and turbostat's msr-index.h
 * usage; AMD: PPR for family 17h/19h (RAPL at 0xC0010299/0xC001029A/0xC001029B).
 * perf event names: the kernel's msr, cstate_core, cstate_pkg and power PMUs.
 */
#include "counters/sample/counters.h"

#include <string.h>

/* perf_event_attr.config of the generic hardware events (linux/perf_event.h). */
#define HW_CPU_CYCLES 0
#define HW_INSTRUCTIONS 1
#define HW_REF_CPU_CYCLES 9
/* CPU_CLK_UNHALTED.REF_XCLK with AnyThread: event 0x3C, umask 0x01, bit 21 (any). */
#define RAW_REF_XCLK_ANY (0x3Cull | 0x01ull << 8 | 1ull << 21)

#define PERF(p, e) { .type = SRC_PERF, .pmu = (p), .event = (e), .width = 64 }
#define PERF_HW(c) { .type = SRC_PERF, .pmu = CNT_PMU_HARDWARE, .config = (c), .width = 64 }
#define MSR(a, w, v) { .type = SRC_MSR, .msr = (a), .width = (w), .vendor = (v) }
#define RDTSC { .type = SRC_RDTSC, .width = 64 }

const struct cnt_def cnt_registry[] = {
	{ "TSC", CNT_THREAD, CNT_DELTA, "cycles", "TSC", "time-stamp counter",
	  { PERF("msr", "tsc"), RDTSC, MSR(0x10, 64, CNT_ANY) } },
	{ "APERF", CNT_THREAD, CNT_DELTA, "cycles", "APERF/MPERF", "actual performance clock (C0)",
	  { PERF("msr", "aperf"), MSR(0xE8, 64, CNT_ANY) } },
	{ "MPERF", CNT_THREAD, CNT_DELTA, "cycles", "APERF/MPERF", "TSC-rate clock while in C0",
	  { PERF("msr", "mperf"), MSR(0xE7, 64, CNT_ANY) } },
	{ "SMI_COUNT", CNT_THREAD, CNT_DELTA, "count", "SMI", "system management interrupts",
	  { PERF("msr", "smi"), MSR(0x34, 32, CNT_INTEL) } },
	{ "INST_RETIRED", CNT_THREAD, CNT_DELTA, "count", "fixed counters",
	  "instructions retired (fixed counter 0)",
	  { PERF_HW(HW_INSTRUCTIONS), MSR(0x309, 48, CNT_INTEL) } },
	{ "CPU_CLK_UNHALTED", CNT_THREAD, CNT_DELTA, "cycles", "fixed counters",
	  "unhalted core cycles (fixed counter 1)",
	  { PERF_HW(HW_CPU_CYCLES), MSR(0x30A, 48, CNT_INTEL) } },
	{ "REF_UNHALTED", CNT_THREAD, CNT_DELTA, "cycles", "fixed counters",
	  "unhalted reference cycles at TSC rate (fixed counter 2)",
	  { PERF_HW(HW_REF_CPU_CYCLES), MSR(0x30B, 48, CNT_INTEL) } },
	{ "REF_XCLK_ANY", CNT_CORE, CNT_DELTA, "cycles", "AnyThread REF_XCLK",
	  "CPU_CLK_UNHALTED.REF_XCLK with AnyThread (either thread of the core unhalted)",
	  { { .type = SRC_PERF, .pmu = CNT_PMU_RAW, .config = RAW_REF_XCLK_ANY, .width = 64 },
	    MSR(0xC1, 48, CNT_INTEL) } },
	{ "CORE_C1_RES", CNT_CORE, CNT_DELTA, "cycles", "core C-state residency", "core C1 residency",
	  { PERF("cstate_core", "c1-residency"), MSR(0x660, 64, CNT_INTEL) } },
	{ "CORE_C3_RES", CNT_CORE, CNT_DELTA, "cycles", "core C-state residency", "core C3 residency",
	  { PERF("cstate_core", "c3-residency"), MSR(0x3FC, 64, CNT_INTEL) } },
	{ "CORE_C6_RES", CNT_CORE, CNT_DELTA, "cycles", "core C-state residency", "core C6 residency",
	  { PERF("cstate_core", "c6-residency"), MSR(0x3FD, 64, CNT_INTEL) } },
	{ "CORE_C7_RES", CNT_CORE, CNT_DELTA, "cycles", "core C-state residency", "core C7 residency",
	  { PERF("cstate_core", "c7-residency"), MSR(0x3FE, 64, CNT_INTEL) } },
	{ "PKG_C2_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C2",
	  { PERF("cstate_pkg", "c2-residency"), MSR(0x60D, 64, CNT_INTEL) } },
	{ "PKG_C3_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C3",
	  { PERF("cstate_pkg", "c3-residency"), MSR(0x3F8, 64, CNT_INTEL) } },
	{ "PKG_C6_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C6",
	  { PERF("cstate_pkg", "c6-residency"), MSR(0x3F9, 64, CNT_INTEL) } },
	{ "PKG_C7_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C7",
	  { PERF("cstate_pkg", "c7-residency"), MSR(0x3FA, 64, CNT_INTEL) } },
	{ "PKG_C8_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C8",
	  { PERF("cstate_pkg", "c8-residency"), MSR(0x630, 64, CNT_INTEL) } },
	{ "PKG_C9_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C9",
	  { PERF("cstate_pkg", "c9-residency"), MSR(0x631, 64, CNT_INTEL) } },
	{ "PKG_C10_RES", CNT_PACKAGE, CNT_DELTA, "cycles", "package C-state residency", "package C10",
	  { PERF("cstate_pkg", "c10-residency"), MSR(0x632, 64, CNT_INTEL) } },
	{ "RAPL_POWER_UNIT", CNT_PACKAGE, CNT_RAW, "register", "RAPL energy",
	  "RAPL units; energy status unit 2^-ESU J in bits 12:8",
	  { MSR(0x606, 64, CNT_INTEL), MSR(0xC0010299, 64, CNT_AMD) } },
	{ "PKG_ENERGY", CNT_PACKAGE, CNT_DELTA, "energy units", "RAPL energy", "package energy",
	  { PERF("power", "energy-pkg"), MSR(0x611, 32, CNT_INTEL), MSR(0xC001029B, 32, CNT_AMD) } },
	{ "PP0_ENERGY", CNT_PACKAGE, CNT_DELTA, "energy units", "RAPL energy",
	  "energy of all cores of the package (power plane 0)",
	  { PERF("power", "energy-cores"), MSR(0x639, 32, CNT_INTEL) } },
	{ "CORE_ENERGY", CNT_CORE, CNT_DELTA, "energy units", "RAPL energy", "energy of one core (AMD)",
	  { PERF("power_core", "energy-core"), MSR(0xC001029A, 32, CNT_AMD) } },
	{ "DRAM_ENERGY", CNT_PACKAGE, CNT_DELTA, "energy units", "RAPL energy", "DRAM energy",
	  { PERF("power", "energy-ram"), MSR(0x619, 32, CNT_INTEL) } },
	{ "PLATFORM_INFO", CNT_PACKAGE, CNT_RAW, "register", "PLATFORM_INFO",
	  "MSR_PLATFORM_INFO; base (non-turbo) ratio in bits 15:8",
	  { MSR(0xCE, 64, CNT_INTEL) } },
	{ "IRQ", CNT_THREAD, CNT_DELTA, "count", "interrupts", "interrupts (all rows of /proc/interrupts)",
	  { { .type = SRC_INTERRUPTS, .field = "IRQ", .width = 64 } } },
	{ "NMI", CNT_THREAD, CNT_DELTA, "count", "interrupts", "non-maskable interrupts",
	  { { .type = SRC_INTERRUPTS, .field = "NMI", .width = 64 } } },
	{ "LOC", CNT_THREAD, CNT_DELTA, "count", "interrupts", "local timer interrupts",
	  { { .type = SRC_INTERRUPTS, .field = "LOC", .width = 64 } } },
	{ "STAT_USER", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "user time (USER_HZ ticks)",
	  { { .type = SRC_PROCSTAT, .field = "user", .width = 64 } } },
	{ "STAT_NICE", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "nice time",
	  { { .type = SRC_PROCSTAT, .field = "nice", .width = 64 } } },
	{ "STAT_SYSTEM", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "system time",
	  { { .type = SRC_PROCSTAT, .field = "system", .width = 64 } } },
	{ "STAT_IDLE", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "idle time",
	  { { .type = SRC_PROCSTAT, .field = "idle", .width = 64 } } },
	{ "STAT_IOWAIT", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "iowait time",
	  { { .type = SRC_PROCSTAT, .field = "iowait", .width = 64 } } },
	{ "STAT_IRQ", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "hard interrupt time",
	  { { .type = SRC_PROCSTAT, .field = "irq", .width = 64 } } },
	{ "STAT_SOFTIRQ", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "soft interrupt time",
	  { { .type = SRC_PROCSTAT, .field = "softirq", .width = 64 } } },
	{ "STAT_STEAL", CNT_THREAD, CNT_DELTA, "ticks", "/proc/stat", "time stolen by the hypervisor",
	  { { .type = SRC_PROCSTAT, .field = "steal", .width = 64 } } },
	{ "CTXT", CNT_SYSTEM, CNT_DELTA, "count", "/proc/stat", "context switches, whole system",
	  { { .type = SRC_PROCSTAT, .field = "ctxt", .width = 64 } } },
};
const size_t cnt_registry_len = sizeof(cnt_registry) / sizeof(cnt_registry[0]);

const struct cnt_def *cnt_registry_find(const char *name)
{
	for (size_t i = 0; i < cnt_registry_len; i++)
		if (!strcmp(cnt_registry[i].name, name))
			return &cnt_registry[i];
	return NULL;
}

static const char *const scope_names[] = { "thread", "core", "package", "system" };
static const char *const kind_names[] = { "delta", "raw", "percent" };

const char *cnt_scope_name(enum cnt_scope s)
{
	return scope_names[s];
}

const char *cnt_kind_name(enum cnt_kind k)
{
	return kind_names[k];
}

int cnt_scope_parse(const char *s, enum cnt_scope *out)
{
	if (!strcmp(s, "cpu")) {
		*out = CNT_THREAD;
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, scope_names[i])) {
			*out = (enum cnt_scope)i;
			return 0;
		}
	return -1;
}
