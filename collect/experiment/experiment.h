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

#define EXPERIMENT_FORMAT_VERSION "1"
/* The environment variable a driver hands its child runs: JSON, see settings_record.c. */
#define RUN_CONTEXT_ENV "IDLESCOPE_RUN_CONTEXT"

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
const char *plan_order_name(enum exp_order o);
void plan_print(const struct plan *p, const struct collect_opts *o, FILE *out);
double plan_run_estimate_s(const struct collect_opts *o);

/* experiment_run.c: apply, run, restore. argv: the usual options only. */
int experiment_main(const struct exp_opts *x, int argc, char **argv);

/* experiment_json.c */
cJSON *experiment_json_new(const struct plan *p, const struct exp_opts *x, int argc, char **argv,
			   cJSON *settings_before);
void experiment_json_add_run(cJSON *e, const struct plan *p, size_t k, const cJSON *run_info, int status);
int experiment_json_write(int dirfd, const cJSON *e);

/* settings_record.c: info.json "settings", "settings_cpus", "settings_changed", "experiment". */
void settings_record_setup(const char *sysroot, bool measured_only);
void collect_settings_record(cJSON *info, int cpu);

#endif
