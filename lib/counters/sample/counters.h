/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counter snapshots as turbostat takes them: a table-driven registry of counters, the
 * choice of a source per counter (perf_event_open, the msr device, cpuidle sysfs,
 * /proc/interrupts, /proc/stat), snapshots of every chosen counter on every CPU, and the
 * counters.csv writer. Nothing derived is computed here (see counters_derive.h).
 */
#ifndef IDLESCOPE_COUNTERS_H
#define IDLESCOPE_COUNTERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "counters/sample/counters_access.h"

enum cnt_scope { CNT_THREAD, CNT_CORE, CNT_PACKAGE, CNT_SYSTEM };
/* How a value is meant: a counter (deltas), a register read as is, or a counter shown as
 * percent of the TSC delta (--add ...,percent). */
enum cnt_kind { CNT_DELTA, CNT_RAW, CNT_PERCENT };

enum cnt_src_type {
	SRC_NONE,
	SRC_PERF,        /* perf_event_open: PMU + event from sysfs, or a hardware/raw config */
	SRC_RDTSC,
	SRC_MSR,         /* /dev/cpu/N/msr */
	SRC_CPUIDLE,     /* /sys/devices/system/cpu/cpuN/cpuidle/stateS/<field> */
	SRC_INTERRUPTS,  /* /proc/interrupts: "IRQ" (sum of the CPU's column) or a row label */
	SRC_PROCSTAT,    /* /proc/stat: cpuN field index, or a system line ("ctxt") */
	SRC_SYSFS,       /* --add /path (with %d for the CPU number) */
};

enum cnt_vendor { CNT_ANY = 0, CNT_INTEL = 1, CNT_AMD = 2 };

/* perf PMU pseudo-names for the generic types. */
#define CNT_PMU_HARDWARE "hardware"
#define CNT_PMU_RAW "raw"

struct cnt_src {
	enum cnt_src_type type;
	const char *pmu;       /* SRC_PERF: PMU name, CNT_PMU_HARDWARE or CNT_PMU_RAW */
	const char *event;     /* SRC_PERF with a sysfs PMU: event name under events/ */
	uint64_t config;       /* SRC_PERF hardware/raw: perf_event_attr.config */
	uint32_t msr;          /* SRC_MSR */
	unsigned vendor;       /* SRC_MSR: CNT_INTEL, CNT_AMD or CNT_ANY */
	unsigned width;        /* bits that wrap; 64 for perf counts and OS counters */
	const char *field;     /* SRC_CPUIDLE/SRC_INTERRUPTS/SRC_PROCSTAT field */
};

#define CNT_MAX_SRC 4
struct cnt_def {
	const char *name;      /* counters.csv column */
	enum cnt_scope scope;
	enum cnt_kind kind;
	const char *unit;
	const char *group;     /* counters that stand or fall together, for the missing report */
	const char *what;      /* what it is, for docs and --list */
	struct cnt_src src[CNT_MAX_SRC];   /* in order of preference */
};

/* The built-in registry (counters_registry.c), and lookup by column name. */
extern const struct cnt_def cnt_registry[];
extern const size_t cnt_registry_len;
const struct cnt_def *cnt_registry_find(const char *name);
const char *cnt_scope_name(enum cnt_scope s);
const char *cnt_kind_name(enum cnt_kind k);
int cnt_scope_parse(const char *s, enum cnt_scope *out);

/* A counter chosen for this run, with the source that provides it. */
struct cnt_col {
	char *name;
	enum cnt_scope scope;
	enum cnt_kind kind;
	char *unit;
	char *group;
	struct cnt_src src;
	char *source_desc;     /* "perf msr/aperf", "msr 0xE8", "rdtsc", "cpuidle state1/usage" */
	char *path;            /* SRC_SYSFS: path pattern; SRC_CPUIDLE: state directory name */
	double scale;          /* perf .scale (e.g. Joules per count), 0 when none */
	int *perf_fd;          /* SRC_PERF: one fd per CPU index, -1 where not opened */
	int *fail_errno;       /* per CPU index: 0, or why a CPU that should read it could not
				* (errno; EIO when the read gave none): its cells stay empty */
	bool machine_wide;     /* system scope from a source that is the same whichever CPU reads
				* it (/proc/stat ctxt, a path without %d): read once, not per package */
	bool enable_fixed;     /* SRC_MSR fixed/programmable counter that needs enabling */
};

struct cnt_cpu {
	int cpu, core, package;
	bool reads_core;       /* first CPU read of its core */
	bool reads_package;    /* designated CPU of its package: package and system scope */
	bool reads_machine;    /* designated CPU of the lowest package: machine-wide sources */
	struct cnt_msr msr;
	int msr_errno;         /* why msr could not be opened */
};

struct cnt_missing {
	char *group;
	char *reason;
};

struct cnt_opts {
	const char *sysroot;     /* NULL: the real system */
	const char *cpu_list;    /* --cpu LIST; NULL: every online CPU */
	const char *system_cpus; /* --system-cpu LIST: designated CPU per package, which reads the
				  * package- and system-scope counters; NULL: the first of each */
	const char **adds;       /* --add specs */
	size_t nadds;
	bool quiet;              /* do not print the missing- and unreadable-counter reports */
	bool avoid_ipi;          /* prefer rdtsc to perf msr/tsc when the TSC is invariant: reading
				  * another CPU's perf counter interrupts it (latency runs) */
};

struct cnt_set {
	struct cnt_sys sys;
	char *sysroot;
	char vendor[32];
	int family, model;       /* -1 when unknown */
	bool anythread;          /* the CPU supports the AnyThread bit */
	bool tsc_invariant;      /* cpuinfo flags constant_tsc and nonstop_tsc */
	char *anythread_why;     /* why not, when it does not */
	size_t ncpus;
	struct cnt_cpu *cpus;
	size_t ncols;
	struct cnt_col *cols;
	size_t nmissing;
	struct cnt_missing *missing;
	size_t nidle;            /* cpuidle states found */
	bool quiet;              /* no warning when a counter fails on a CPU during a snapshot */
	bool migrate;            /* read each CPU from that CPU (real system only; default on) */
	/* the last snapshot: values[cpu_index * ncols + col], have[] the same */
	uint64_t *values;
	unsigned char *have;
	uint64_t *times_ns;      /* CLOCK_MONOTONIC per CPU row */
	size_t nsnap;
};

/* Probe every counter on the chosen CPUs and pick sources. On error prints one line and
 * returns 1 (data/system) or 2 (usage: bad --cpu or --add). */
int cnt_set_open(const struct cnt_opts *o, struct cnt_set **out);
void cnt_set_close(struct cnt_set *s);

/* Take one snapshot of every counter on every CPU into s->values. 0, or -1 on a hard error. */
int cnt_snapshot(struct cnt_set *s);

/* counters.csv: the header, then the rows of the last snapshot. -1 on a write error. */
int cnt_csv_write_header(FILE *f, const struct cnt_set *s);
int cnt_csv_write_rows(FILE *f, const struct cnt_set *s);

/* info.json "counters": {"cpus", "package_cpus", "system_cpu", "cpu": {...}, "columns":
 * {name: {source, scope, kind, width, unit[, scale]}}, "missing": [{"counters", "reason"}],
 * "partial": [...] as cnt_set_describe_partial()}. */
cJSON *cnt_set_describe(const struct cnt_set *s);
/* info.json "counters.partial": one {"counters", "cpus", "reason"} per counter that some
 * CPUs that should read it could not read (so far: call again after the last snapshot). */
cJSON *cnt_set_describe_partial(const struct cnt_set *s);

/* Parse a CPU list "0-3,8,10-11" into ascending unique numbers (< 4096). -1 on bad syntax. */
int cnt_parse_cpu_list(const char *s, int **cpus, size_t *n);

/* Parse one --add spec: "msr0xNNN|msrNNN|/path,u32|u64,thread|cpu|core|package|system,
 * raw|delta|percent,NAME" (fields after the first in any order, as turbostat takes them).
 * Fills def (strings malloc'd into *owned, free with free()). -1 with a reason in err. */
int cnt_parse_add(const char *spec, struct cnt_def *def, char **owned, char *err, size_t errlen);

#endif
