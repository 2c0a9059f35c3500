/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the collector core (everything in collect/ that is not a method).
 * The method contract is in method.h.
 */
#ifndef COLLECT_COLLECT_H
#define COLLECT_COLLECT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "method.h"
#include "time/clock.h"


/* Defaults, documented in --help and docs/collect.md. */
#define DEFAULT_COUNT 10000u
#define DEFAULT_LDIST_MIN (1000 * NSEC_PER_USEC)
#define DEFAULT_LDIST_MAX (4000 * NSEC_PER_USEC)
#define MAX_LDIST (10 * NSEC_PER_SEC)

/* measure.c: collect's default mode (and --set, --matrix, --restore, --list-settings
 * through settings_cli_main); returns the exit status. */
int measure_main(int argc, char **argv);

/* options.c: the command line. */
struct collect_opts {
	const char *outdir;       /* NULL: <host>-<method>-<date> in the current directory */
	const char *method;       /* "auto", "bpf", "timer", "hrt", "tdt" */
	uint64_t count;           /* datapoints to collect; 0 = no count limit */
	uint64_t time_limit_ns;   /* 0 = none */
	int cpu;
	const char *cpu_list;     /* --cpu with several CPUs (timer method), else NULL */
	int priority;             /* --priority: -1 = the highest SCHED_FIFO, 0 = SCHED_OTHER */
	uint64_t ldist_min, ldist_max;
	const char *ldist_arg;    /* as given, for messages and info.json */
	const char *reportid;
	bool keep_raw;
	long pm_qos_us;           /* -1: leave /dev/cpu_dma_latency alone */
	bool force;
	bool quiet;
	bool seed_set;
	uint64_t seed;
	double counters_interval; /* seconds; 0 = off */
	bool counters_interval_set;
	const char *kmod_path;
	const char *include, *exclude;   /* --include/--exclude EXPR, NULL: none */
	bool no_causes;           /* --no-causes: bpf counts no causes */
};

/* Parse argv into o; prints the error and returns 2 on bad usage, 1 after --help (exit 0). */
int collect_parse_options(int argc, char **argv, struct collect_opts *o);
/* 0 if arg (dir: the last component of the path arg) is a good name for a run (valid UTF-8
 * without control characters: it becomes the reportid); else 2 after "OPT 'ARG': why". */
int collect_check_name(const char *opt, const char *arg, bool dir);
/* "0,2-3" -> the CPUs in cpus[0..max) (may be NULL to count them); returns how many, or -1
 * for a malformed list or a CPU given twice. */
int collect_parse_cpu_list(const char *s, int *cpus, int max);
/* multi_cpu.c: --cpu LIST, one child collect per CPU into OUT/cpuN. Returns the exit status. */
int collect_multi_cpu(int argc, char **argv, const struct collect_opts *o);
/* "1000,4000", "50us,2ms", "3ms" -> ns. Returns 0, or -1 with a reason in why. */
int collect_parse_ldist(const char *s, uint64_t *min, uint64_t *max, char *why, size_t whylen);
/* "30s", "10m", "1h", "90" (seconds) -> ns. */
int collect_parse_duration(const char *s, uint64_t *ns, char *why, size_t whylen);

/* ldist.c: the run's RNG. */
void collect_ldist_init(uint64_t min, uint64_t max, uint64_t seed);
void collect_ldist_free(void);
uint64_t collect_random_seed(void);

/* method_select.c */
const struct method_ops *collect_find_method(const char *name);
/* Pick the method: explicit name (probe must pass) or auto. Prints the choice (unless
 * quiet) or the error. why_chosen gets the reason recorded in info.json. */
const struct method_ops *collect_select_method(const char *name, const struct collect_cfg *cfg,
					       char *why_chosen, size_t len);

/* cpu_lock.c */
int collect_check_cpu(int cpu);
struct cpu_lock;
struct cpu_lock *cpu_lock_take(int cpu);   /* NULL after printing who holds it */
void cpu_lock_release(struct cpu_lock *l);
/* The pid that holds an flock on the file open as fd, from /proc/locks; 0 if not found. */
long collect_lock_holder(int fd);

/* pm_qos.c: hold /dev/cpu_dma_latency at a value while the fd stays open. */
struct pm_qos;
/* Record what is in force into info (an object); with req_us >= 0, set it. NULL on error. */
struct pm_qos *pm_qos_start(long req_us, int cpu, cJSON *info);
void pm_qos_stop(struct pm_qos *q);

/* run_writer.c */
struct run_dir {
	int dirfd;
	char *path;
};
/* 0; -2 refused (symlink, not a directory, not empty without force); -1 other errors
 * (another collector writing into it: the directory is flock'ed until run_dir_close). */
int run_dir_create(const char *path, bool force, struct run_dir *rd);
void run_dir_close(struct run_dir *rd);
/* Atomically (tmp + rename) write info.json into the run directory, followed by `reserve`
 * spaces: room to rewrite it in place later if the disk fills up. */
#define INFO_RESERVE 4096
int run_write_info(const struct run_dir *rd, const cJSON *info, size_t reserve);
/* wult_yml.c: info.yml for wult's reader, from a measuring run's info (run_write_info calls it
 * for runs with a "method"). */
int run_write_wult_info(const struct run_dir *rd, const cJSON *info);

struct dp_writer;
/* Column set is fixed by the first datapoint: residency names come from it. */
struct dp_writer *dp_writer_open(const struct run_dir *rd, bool keep_raw,
				 const char *const *state_names, size_t nstates);
int dp_writer_add(struct dp_writer *w, const struct dp_raw *dp);
int dp_writer_flush(struct dp_writer *w);
/* Flush, fsync and close; *rows = datapoints on disk. Returns -1 if anything failed. */
int dp_writer_close(struct dp_writer *w, uint64_t *rows);
uint64_t dp_writer_rows(const struct dp_writer *w);
struct dp_columns {
	bool keep_raw;
	bool smi, nmi;
	bool causes;         /* the cause columns (cause_cols.c) */
	bool steal;          /* ... and StealTime among them */
	size_t nres;
	const char *const *state_names;
	size_t nstates;
};
/* Format one row with its newline into buf; returns its length or 0 if it does not fit. */
size_t dp_format_row(char *buf, size_t len, const struct dp_raw *dp, const struct dp_columns *c);

/* cause_cols.c: the cause columns of datapoints.csv, after the residencies. Each returns
 * what snprintf would, or -1. */
int dp_causes_header(char *buf, size_t len, const struct dp_columns *c);
int dp_causes_cells(char *buf, size_t len, const struct dp_causes *k, const struct dp_columns *c);

/* nothing_kept.c: a run whose every datapoint is discarded stops (collect_watch_discards). */
#define NK_ATTEMPTS 100000u   /* discarded attempts in a row, and ... */
#define NK_SECONDS 10u        /* ... seconds without a kept datapoint */
struct nothing_kept {
	uint64_t at_reset[DISCARD_NR];
	uint64_t since_ns;
	bool tripped;
};
/* The run's watch (the one collect_watch_discards uses), reset at the start and at every
 * kept datapoint; tripped once nothing was kept for NK_ATTEMPTS attempts and NK_SECONDS. */
struct nothing_kept *collect_nothing_kept(void);
void nothing_kept_reset(struct nothing_kept *w, const uint64_t discards[DISCARD_NR], uint64_t now_ns);
bool nothing_kept_check(struct nothing_kept *w, const uint64_t discards[DISCARD_NR], uint64_t now_ns);
/* "no datapoint kept in 10.0 s: all 123456 attempts were discarded (not_idle ...)..." */
void nothing_kept_message(const struct nothing_kept *w, const uint64_t discards[DISCARD_NR],
			  uint64_t now_ns, char *buf, size_t len);

/* progress.c */
struct progress;
struct progress *progress_start(uint64_t count, uint64_t time_limit_ns, bool quiet);
struct run_summary;
/* The line, at most every 250 ms (or now with force); with sum, the running median and 99th
 * percentile of the main latency too. */
void progress_update(struct progress *p, uint64_t dps, uint64_t discards,
		     const struct run_summary *sum, bool force);
void progress_end(struct progress *p);

#endif
