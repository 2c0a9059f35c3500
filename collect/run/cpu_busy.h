/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The measured CPU's busy share while a run lasted, from its /proc/stat line: what the run
 * records (info.json "cpu_busy") when a method cannot tell per datapoint whether the CPU was
 * idle when the event fired, and for every other run too. docs/collect.md, "Was the CPU idle?".
 */
#ifndef COLLECT_CPU_BUSY_H
#define COLLECT_CPU_BUSY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* A warning once the CPU was busy outside the measuring thread this share of the run (%). */
#define CPU_BUSY_WARN_PCT 10.0
/* Fewer ticks than this (0.2 s at USER_HZ 100) are too few to tell a share from. */
#define CPU_BUSY_MIN_TICKS 20u

/* One reading of a CPU's /proc/stat line, in USER_HZ ticks. */
struct cpu_ticks {
	uint64_t busy;    /* user + nice + system + irq + softirq */
	uint64_t idle;    /* idle + iowait */
	uint64_t steal;
	bool ok;
};

/* Parse the "cpuN ..." line of /proc/stat text (len bytes, not NUL-terminated) into *t.
 * 0, or -1 when there is no such line or it has fewer than the 4 fields every kernel writes. */
int cpu_ticks_parse(const char *text, size_t len, int cpu, struct cpu_ticks *t);
/* Read /proc/stat now; t->ok false when it cannot be read or parsed. */
void cpu_ticks_read(int cpu, struct cpu_ticks *t);

struct cpu_busy {
	double busy_pct, own_pct, other_pct, steal_pct;
	bool own_known;
	uint64_t ticks;
};
/* The shares between two readings; own_ns: the measuring thread's CPU time in between, or
 * UINT64_MAX when not known. -1 when a reading failed or no tick passed. */
int cpu_busy_between(const struct cpu_ticks *a, const struct cpu_ticks *b, uint64_t own_ns, long user_hz,
		     struct cpu_busy *out);
/* info.json "cpu_busy" (docs/format.md); a JSON null when r is NULL. */
cJSON *cpu_busy_json(const struct cpu_busy *r, int cpu);

#endif
