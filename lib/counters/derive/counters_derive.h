/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * From counters.csv to turbostat's numbers: load a run's snapshots, compute per-interval
 * deltas (with wraparound), and derive Avg_MHz, Busy%, Bzy_MHz, TSC_MHz, Halted%, IPC,
 * IRQ/NMI/SMI, cpuidle counts and residency, CPU%cN, Pkg%pcN, RAPL power or energy,
 * McCalpin's Hyper-Threading split and user --metric formulas. docs/counters.md has the
 * formulas and their references.
 */
#ifndef IDLESCOPE_COUNTERS_DERIVE_H
#define IDLESCOPE_COUNTERS_DERIVE_H
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "counters/sample/counters.h"
#include "counters/sample/counters_cpuid.h"
#include "table/expr.h"
#include "table/table.h"


/* A counter column of counters.csv and what the formulas must know about it. */
struct cnt_colinfo {
	const char *name;      /* points into the table */
	enum cnt_scope scope;
	enum cnt_kind kind;
	unsigned width;        /* wraparound width in bits */
	double scale;          /* perf scale (Joules per count for perf energy), 0 if none */
	const double *v;       /* values per row */
};

/* A loaded counters.csv (rows ordered by snapshot) with info.json's "counters" metadata. */
struct cnt_data {
	char *csv_path;
	struct isc_table *t;
	cJSON *info;           /* the whole info.json, or an empty object */
	char vendor[32];
	int family, model;     /* -1 when unknown */
	const double *snap, *time, *cpu, *core, *pkg;
	size_t ncols;
	struct cnt_colinfo *ci;
	size_t nsnaps;
	size_t *snap_first;    /* first row of each snapshot; snap_first[nsnaps] = nrows */
	size_t *by_cpu;        /* the rows of each snapshot, at its place, sorted by CPU */
	unsigned char *bad_step;  /* per row: the step from this CPU's previous snapshot is no
				   * measurement (time not advancing, a counter reset); the
				   * deltas leave it out (counters_steps.c) */
};

/* Load <rundir>/counters.csv (rundir may also be the CSV file itself).
 * 1 loaded; 0 no counters.csv; -1 after a one-line error. */
int cnt_data_load(const char *rundir, struct cnt_data **out);
void cnt_data_free(struct cnt_data *d);
const struct cnt_colinfo *cnt_data_col(const struct cnt_data *d, const char *name);

enum cnt_agg { CNT_AGG_AVG, CNT_AGG_SUM };

struct cnt_out_row {
	int cpu, core, package;
	double *v;             /* one per result column; NaN = not on this row */
};

struct cnt_out_core {
	int package, core;
	int cpu0, cpu1;        /* the two threads */
	double ht[4];          /* HT_Idle%, HT0_Only%, HT1_Only%, HT_Both% */
};

struct cnt_out_interval {
	double t0, t1;         /* seconds since the first snapshot */
	double *summary;
	size_t ncpus;
	struct cnt_out_row *cpus;
	size_t ncores;
	struct cnt_out_core *cores;
};

struct cnt_metric {
	char *name;
	struct isc_expr *expr;
	size_t *var_col;       /* per expression variable: counter column, or SIZE_MAX = interval */
};

struct cnt_derive_opts {
	bool joules;           /* Pkg_J/Cor_J/RAM_J instead of Watts */
	bool whole_run;        /* one interval from the first to the last snapshot */
	size_t nmetrics;
	struct cnt_metric *metrics;
};

/*
 * Physically impossible readings, flagged where they are computed (counters_checks.c):
 *   CNT_CHECK_C0_OS  Busy% (C0 from MPERF/TSC) more than CNT_C0_OS_POINTS below the share of
 *                    the interval /proc/stat saw the CPU run (steal left out): code runs in C0
 *   CNT_CHECK_STILL  APERF or MPERF standing still while the OS saw the CPU busy more than
 *                    CNT_STILL_BUSY % (or APERF still while MPERF moved), TSC standing still
 *   CNT_CHECK_SUM    C0 and the C-state residencies summing past 100 + CNT_SUM_SLACK %
 *   CNT_CHECK_FREQ   Bzy_MHz or Avg_MHz above CNT_MHZ_MAX, which no CPU reaches
 * Each kind keeps how many CPU intervals it was found in and the worst one, in words.
 */
enum cnt_check_kind { CNT_CHECK_C0_OS, CNT_CHECK_STILL, CNT_CHECK_SUM, CNT_CHECK_FREQ, CNT_NCHECKS };
#define CNT_C0_OS_POINTS 10.0
#define CNT_STILL_BUSY 10.0
#define CNT_SUM_SLACK 2.0
#define CNT_MHZ_MAX 10000.0

struct cnt_check {
	size_t n;              /* CPU intervals with this reading */
	size_t rows;           /* CPU intervals that could be checked for it */
	double worst;          /* how far the worst one is off (the kind's own measure) */
	char text[256];        /* the worst one: "Busy% 0.00 on CPU 0 ... while ..." */
};

#define CNT_HT_NCOLS 4
extern const char *const cnt_ht_cols[CNT_HT_NCOLS];

struct cnt_result {
	size_t ncols;
	char **cols;           /* result column names, turbostat's order */
	enum cnt_agg *agg;
	int *prec;             /* decimals for text output */
	size_t niv;
	struct cnt_out_interval *iv;
	size_t *clamped;       /* per column: values clamped into 0..100 */
	double *clamp_worst;   /* per column: the raw value farthest outside */
	size_t ht_clamped[CNT_HT_NCOLS];
	double ht_worst[CNT_HT_NCOLS];
	bool ht;               /* the HT split was computed */
	double ht_k;
	char ht_why[160];      /* why not, when !ht */
	size_t nnotes;
	char **notes;          /* "Busy%: needs MPERF and TSC (not in counters.csv)" */
	struct cnt_check checks[CNT_NCHECKS];  /* impossible readings, per kind */
};

/* One line per kind of impossible reading found, "implausible counters: Busy% 0.00 on CPU 0
 * in interval 3 (C0 from MPERF/TSC) while /proc/stat saw it busy 54.90% ...: ... (12 of 40
 * CPU intervals)"; NULL when there is none (malloc'd). */
char *cnt_check_line(const struct cnt_check *k);

/* Resolve --metric NAME=EXPR against the run's counters. -1 with a message in err. */
int cnt_metric_parse(const char *spec, const struct cnt_data *d, struct cnt_metric *m,
		     char *err, size_t errlen);
void cnt_metric_free(struct cnt_metric *m);

/* Derive every interval (or the whole run). Returns 0; -1 when the run has fewer than two
 * snapshots (message printed). */
int cnt_derive(const struct cnt_data *d, const struct cnt_derive_opts *o, struct cnt_result *r);
void cnt_result_free(struct cnt_result *r);
/* Column index by name, or -1. */
int cnt_result_col(const struct cnt_result *r, const char *name);

/* Delta of a counter of the given width from a to b (one wrap allowed); NaN if either is. */
double cnt_wrap_delta(double a, double b, unsigned width);
/* The largest rate per second a counter can have (telling a wrap from a reset). */
double cnt_max_rate(const char *name);

#endif
