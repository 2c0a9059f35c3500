/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Settings and experiments in the collector: the options (--set, --matrix, --restore,
 * --list-settings ...), taken off the command line before the usual options are parsed
 * (settings_cli.c); the experiment plan (experiment_plan.c); the driver that applies settings
 * and runs each run as a child collect (experiment_run.c, experiment_json.c); and what every
 * run records in info.json (settings_record.c). docs/experiments.md.
 */
#ifndef COLLECT_EXPERIMENT_H
#define COLLECT_EXPERIMENT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "collect.h"
#include "settings/target.h"

#define EXPERIMENT_FORMAT_VERSION "1"
/* The environment variable a driver hands its child runs: JSON, see settings_record.c. */
#define RUN_CONTEXT_ENV "IDLESCOPE_RUN_CONTEXT"
/* The settings journal's fd a run of an experiment inherits (and holds until it exits). */
#define JOURNAL_FD_ENV "IDLESCOPE_SETTINGS_JOURNAL_FD"

enum exp_order { ORDER_INTERLEAVED, ORDER_RANDOM, ORDER_BLOCKED };

struct exp_opts {
	const char **sets, **matrix;   /* NAME=VALUE, NAME=V1,V2 as given */
	size_t nsets, nmatrix;
	unsigned repeat;               /* 0: not given (default 3) */
	enum exp_order order;
	bool order_given, seed_set;
	uint64_t seed;
	double settle_s;
	bool settle_given, dry_run, restore, list;
	const char *sysroot;
	bool measured_only;            /* --settings-cpus measured */
	bool cpus_given;
	int orig_argc;                 /* the whole command line, for experiment.json */
	char **orig_argv;
};

struct factor {
	char *name;
	char **values;
	size_t nvalues;
	char *target;             /* after '@' (NAME=V1,V2@TARGET), NULL: the default CPUs */
	struct isc_target tgt;    /* resolved by experiment_run.c before anything is checked */
};

struct plan_run {
	size_t config;      /* index into the configurations */
	unsigned replicate; /* 1-based */
	char *dir;          /* relative to the experiment directory ("" for a lone --set run) */
};

struct plan {
	struct factor *factors, *fixed;   /* fixed: --set, one value each */
	size_t nfactors, nfixed;
	size_t nconfigs;
	unsigned repeat;
	enum exp_order order;
	uint64_t seed;
	struct plan_run *runs;
	size_t nruns;
};

/* settings_cli.c: take the settings options out of argv. Returns an exit status, or -1 to
 * go on with a plain collect run (argc/argv then hold only the usual options). */
int settings_cli_main(int *argc, char **argv);
int settings_cli_check_pending(void);

/* experiment_plan.c */
int plan_build(const struct exp_opts *x, struct plan *p);   /* 0, or 2 after a usage error */
void plan_free(struct plan *p);
/* Value of factor f in configuration c. */
const char *plan_value(const struct plan *p, size_t c, size_t f);
char *plan_config_name(const struct plan *p, size_t c);
cJSON *plan_config_json(const struct plan *p, size_t c);
/* Factor i of the plan, the --matrix ones first, then the --set ones. */
struct factor *plan_factor(const struct plan *p, size_t i);
/* {"NAME": {"target", "cpus"}} of every setting the plan changes (info.json settings_targets,
 * experiment.json design.targets). */
cJSON *plan_targets_json(const struct plan *p);
const char *plan_order_name(enum exp_order o);
void plan_print(const struct plan *p, const struct collect_opts *o, FILE *out);
double plan_run_estimate_s(const struct collect_opts *o);

/* experiment_hwp.c: hwp-min <= hwp-desired <= hwp-max in every configuration (targets
 * resolved). 0, or -1 with one line in why. */
int plan_hwp_check(const struct plan *p, struct isc_settings *s, char *why, size_t len);

/* experiment_run.c: apply, run, restore. argv: the usual options only. */
int experiment_main(const struct exp_opts *x, int argc, char **argv);

/* experiment_json.c */
cJSON *experiment_json_new(const struct plan *p, const struct exp_opts *x, int argc, char **argv,
			   cJSON *settings_before);
void experiment_json_add_run(cJSON *e, const struct plan *p, size_t k, const cJSON *run_info, int status);
int experiment_json_write(int dirfd, const cJSON *e);

/* experiment_slow.c: a run is slow when it took at least SLOW_FACTOR times the median of the
 * other runs' durations, and SLOW_MIN_EXTRA_S more, with SLOW_MIN_OTHERS others to compare. */
#define SLOW_FACTOR 3.0
#define SLOW_MIN_EXTRA_S 10.0
#define SLOW_MIN_OTHERS 2
/* experiment.json "slow_runs" from its "runs" (each with "path", "duration_s", "discarded_pct"). */
cJSON *experiment_slow_runs(const cJSON *runs);
/* What the ETA of an experiment is made of, at a moment during run k (0-based). */
struct eta_in {
	double estimate_s;      /* plan_run_estimate_s: what a run should take */
	double settle_s;
	double time_limit_s;    /* 0: none */
	uint64_t count;         /* datapoints per run; 0: no count limit */
	uint64_t rows;          /* kept so far in run k */
	double run_elapsed_s;   /* since run k started */
	size_t done;            /* runs finished */
	double done_s;          /* their total time, settling included */
	size_t runs_after;      /* runs planned after run k */
};
/* Seconds left: run k's rest at its observed rate (the estimate until it has a datapoint),
 * then the runs after it at the mean time the finished runs took (before any has finished:
 * run k's projected length, at least the estimate). */
double experiment_eta_s(const struct eta_in *e);

/* settings_record.c: info.json "settings", "settings_cpus", "settings_changed", "experiment". */
void settings_record_setup(const char *sysroot, bool measured_only);
void collect_settings_record(cJSON *info, int cpu);

#endif
