/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The contract between the measuring run (collect/run/measure.c, collect/run/run_writer.c)
 * and a wake-latency measurement method (timer, bpf, hrt, tdt). One method = one
 * collect/methods/method_<name>.c that defines a `const struct method_ops method_<name>`
 * (docs/hacking.md: adding a method).
 */
#ifndef COLLECT_METHOD_H
#define COLLECT_METHOD_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "stop.h"

/* Why a datapoint was dropped; counted per reason in info.json "discards". */
enum discard_reason {
	DISCARD_NOT_IDLE,     /* the CPU was not idle at LaunchTime */
	DISCARD_OTHER_WAKE,   /* it woke for another reason before LaunchTime */
	DISCARD_WRONG_CPU,    /* the event fired on another CPU */
	DISCARD_LOST,         /* records lost (ring buffer full, overflow) */
	DISCARD_NR
};
extern const char *const discard_reason_names[DISCARD_NR]; /* "not_idle", "other_wake", "wrong_cpu", "lost" */

#define DP_MAX_RES 12

/* What else ran on the measured CPU during the datapoint (docs/format.md, "Cause columns"). */
struct dp_causes {
	bool known;          /* counted: the IRQCnt ... SWIRQTypes columns are written */
	uint32_t irq_cnt, sirq_cnt;
	uint64_t irq_ns, sirq_ns;
	char irq_top[16];    /* most frequent hard interrupt: "LOC", "RES", "CAL", "IWI", "IRQ24" */
	char sirq_types[96]; /* softirq types seen, vector order: "TIMER+NET_RX+RCU" */
	bool steal;          /* the StealTime column is written */
	int64_t steal_ns;    /* the steal clock's advance in the window; -1 = not known */
};

/* One datapoint as a method delivers it. Times in ns, CLOCK_MONOTONIC (= ktime_get_ns). */
struct dp_raw {
	uint64_t ldist;      /* ns */
	uint64_t ltime;      /* LaunchTime */
	uint64_t tbi;        /* before idle; 0 = not known (timer: just before clock_nanosleep) */
	uint64_t tai;        /* after idle; 0 = not known (states entered with IRQs on);
	                      * timer method: when the sleeping thread runs again */
	uint64_t tintr;      /* interrupt entry; 0 = not known (timer method) */
	int req_state;       /* requested cpuidle state index; -1 = unknown/ambiguous */
	int intr_off;        /* 1 entered with interrupts off, 0 on, -1 unknown */
	int64_t smi_cnt;     /* SMIs during the datapoint; -1 = not known */
	int64_t nmi_cnt;     /* NMIs during the datapoint; -1 = not known */
	size_t nres;         /* per-datapoint residencies, e.g. {"CC6%", 92.6} */
	struct { const char *name; double pct; } res[DP_MAX_RES];
	struct dp_causes causes;
};

struct collect_cfg {
	int cpu;                 /* measured CPU */
	uint64_t ldist_min;      /* ns */
	uint64_t ldist_max;      /* ns; == ldist_min for a fixed LDist */
	uint64_t seed;           /* GSL RNG seed (recorded in info.json) */
	bool quiet;
	int priority;            /* timer: SCHED_FIFO priority, -1 = the highest, 0 = SCHED_OTHER */
	const char *kmod_path;   /* hrt/tdt: module file to load when not loaded (NULL: search) */
	bool no_causes;          /* bpf: count no causes (no IRQCnt ... columns) */
};

/* collect_stop_requested (stop.h): a method's next() must notice it within ~100 ms and return 0. */

/* next() calls this, in the thread that runs it, with its discards[] whenever it has added to
 * them and at least every ~100 ms while it waits: when no datapoint has been kept for a long
 * run of discarded attempts (collect.h: NK_ATTEMPTS and NK_SECONDS), it requests a stop
 * (collect_stop_requested) and the core ends the run with "nothing_kept" and the counts. */
void collect_watch_discards(const uint64_t discards[DISCARD_NR]);

/* info_method "idle_check" (docs/format.md): per_datapoint, whether every datapoint is checked
 * for a CPU that was busy or woken before the event (and discarded as not_idle, other_wake);
 * source, what tells it, or why nothing can. */
void collect_idle_check(cJSON *info_method, bool per_datapoint, const char *source);

/* Next LDist in ns from the run's GSL RNG (uniform in [ldist_min, ldist_max]). Thread-safe. */
uint64_t collect_next_ldist(void);

struct method_ctx;

struct method_ops {
	const char *name;        /* "timer", "bpf", "hrt", "tdt" */
	/* 0 if the method can run here with cfg; else -1 and a one-line reason that says what
	 * to do instead ("needs root (CAP_BPF): run as root or use --method timer"). */
	int (*probe)(const struct collect_cfg *cfg, char *why, size_t whylen);
	/* Start measuring. Fill info_method (an object) with at least "event_source",
	 * "event_source_why" and "idle_check" (collect_idle_check); print a one-line error and
	 * return -1 on failure. */
	int (*start)(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info_method);
	/* Block until the next datapoint: 1 = *dp filled, 0 = stop requested and nothing more,
	 * -1 = error (message printed). Dropped datapoints are added to discards[]. */
	int (*next)(struct method_ctx *ctx, struct dp_raw *dp, uint64_t discards[DISCARD_NR]);
	/* Optional (NULL: not known): the CPU time in ns the method's own threads have used on
	 * the measured CPU so far; called from the main thread between start() and stop(). The
	 * core takes it off the CPU's busy share (info.json "cpu_busy"). */
	uint64_t (*own_cpu_ns)(struct method_ctx *ctx);
	/* Stop and free everything; safe after a failed start (ctx NULL). */
	void (*stop)(struct method_ctx *ctx);
};

extern const struct method_ops method_timer, method_bpf, method_hrt, method_tdt;

#endif
