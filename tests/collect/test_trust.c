/* SPDX-License-Identifier: GPL-2.0-only */
/* Whether a run can be trusted, collect's side: the busy share of the measured CPU from
 * /proc/stat (cpu_busy.c), slow runs of an experiment and its ETA (experiment_slow.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_busy.h"
#include "experiment.h"
#include "text/util.h"
#include "../common/check.h"

/* got within 1e-9 of want (both computed from exact inputs). */
#define NEAR(got, want, what) CHECK_MSG(fabs((got) - (want)) <= 1e-9, "%s: got %.12g, want %.12g", what, \
					(double)(got), (double)(want))

static void proc_stat(void)
{
	/* cpu1 must not match cpu10; a 4-field line (old kernels) has no iowait, irq, steal. */
	const char *t0 = "cpu  9 9 9 9\ncpu10 1 1 1 1 1 1 1 1\ncpu1 100 20 30 400 50 6 4 10 7 0\ncpu2 1 2 3 4\n";
	const char *t1 = "cpu  9 9 9 9\ncpu10 1 1 1 1 1 1 1 1\ncpu1 400 20 130 600 50 16 14 30 7 0\ncpu2 1 2 3 4";
	struct cpu_ticks a, b, c;
	struct cpu_busy r;
	CHECK_MSG(cpu_ticks_parse(t0, strlen(t0), 1, &a) == 0 && a.busy == 160 && a.idle == 450 && a.steal == 10,
	      "cpu1 line");
	CHECK_MSG(cpu_ticks_parse(t1, strlen(t1), 1, &b) == 0 && b.busy == 580 && b.idle == 650 && b.steal == 30,
	      "cpu1 line, later");
	CHECK_MSG(cpu_ticks_parse(t0, strlen(t0), 2, &c) == 0 && c.busy == 6 && c.idle == 4 && c.steal == 0,
	      "4-field line without a newline at the end of the text");
	CHECK_MSG(cpu_ticks_parse(t0, strlen(t0), 3, &c) < 0 && !c.ok, "no cpu3 line");
	CHECK_MSG(cpu_ticks_parse("cpu3 1 2 3\n", 11, 3, &c) < 0, "3 fields are refused");
	CHECK_MSG(cpu_ticks_parse("cpu3 1 2 3 99999999999999999999\n", 32, 3, &c) < 0, "a field past 2^64 is refused");
	/* 420 busy ticks of 420 + 200 idle + 20 steal = 640; the thread's 0.64 s at USER_HZ 100 is
	 * 64 ticks = 10 %. */
	CHECK_MSG(cpu_busy_between(&a, &b, 640000000ull, 100, &r) == 0, "share");
	NEAR(r.busy_pct, 65.625, "busy_pct");
	NEAR(r.steal_pct, 3.125, "steal_pct");
	NEAR(r.own_pct, 10.0, "own_pct");
	NEAR(r.other_pct, 55.625, "other_pct");
	CHECK_MSG(r.ticks == 640 && r.own_known, "ticks");
	CHECK_MSG(cpu_busy_between(&a, &b, UINT64_MAX, 100, &r) == 0 && !r.own_known && r.other_pct == r.busy_pct,
	      "own time not known: other = busy");
	CHECK_MSG(cpu_busy_between(&a, &b, 64000000000ull, 100, &r) == 0 && r.other_pct == 0.0, "own past busy: 0");
	CHECK_MSG(cpu_busy_between(&b, &a, 0, 100, &r) < 0, "counters going back are refused");
	CHECK_MSG(cpu_busy_between(&a, &a, 0, 100, &r) < 0, "no tick passed");
	c.ok = false;
	CHECK_MSG(cpu_busy_between(&a, &c, 0, 100, &r) < 0, "a failed reading");
	/* This machine's own /proc/stat has the line of CPU 0. */
	cpu_ticks_read(0, &c);
	CHECK_MSG(c.ok && c.busy + c.idle > 0, "/proc/stat cpu0");
}

static cJSON *run(const char *path, double d, double pct)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", path);
	if (d >= 0)
		cJSON_AddNumberToObject(o, "duration_s", d);
	else
		cJSON_AddNullToObject(o, "duration_s");
	cJSON_AddNumberToObject(o, "discarded_pct", pct);
	return o;
}

static void slow_runs(void)
{
	/* The experiment: one run of 526 s among runs of 3 to 11 s (11 s is under 3 times
	 * the others' median, 4.1 s). */
	cJSON *runs = cJSON_CreateArray();
	const double d[] = { 3.2, 4.1, 526, 11, 3.9, 5.0 };
	for (size_t i = 0; i < 6; i++) {
		char p[16];
		snprintf(p, sizeof(p), "r%zu", i);
		cJSON_AddItemToArray(runs, run(p, d[i], i == 2 ? 99.8 : 10));
	}
	cJSON *s = experiment_slow_runs(runs);
	CHECK_MSG(cJSON_GetArraySize(s) == 1, "one slow run");
	cJSON *x = cJSON_GetArrayItem(s, 0);
	CHECK_MSG(x && !strcmp(cJSON_GetObjectItemCaseSensitive(x, "path")->valuestring, "r2"), "r2 is named");
	NEAR(cJSON_GetObjectItemCaseSensitive(x, "median_others_s")->valuedouble, 4.1, "median of the others");
	NEAR(cJSON_GetObjectItemCaseSensitive(x, "discarded_pct")->valuedouble, 99.8, "its discard share");
	cJSON_Delete(s);
	/* 36.4 s is 8.9 times the others' median (4.1 s) and 32.3 s more: named too. */
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(runs, 3), "duration_s", cJSON_CreateNumber(36.4));
	s = experiment_slow_runs(runs);
	CHECK_MSG(cJSON_GetArraySize(s) == 2, "r2 and r3 named");
	cJSON_Delete(s);
	cJSON_DeleteItemFromArray(runs, 2);
	s = experiment_slow_runs(runs);
	CHECK_MSG(cJSON_GetArraySize(s) == 1 && !strcmp(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(s, 0),
		"path")->valuestring, "r3"), "r3 named without r2");
	cJSON_Delete(s);
	cJSON_Delete(runs);
	/* Three times the median but less than 10 s more: not named; nor with one other run only;
	 * a run without a duration (no info.json) is skipped. */
	runs = cJSON_CreateArray();
	cJSON_AddItemToArray(runs, run("a", 1, 0));
	cJSON_AddItemToArray(runs, run("b", 1, 0));
	cJSON_AddItemToArray(runs, run("c", 9, 0));
	cJSON_AddItemToArray(runs, run("d", -1, 0));
	s = experiment_slow_runs(runs);
	CHECK_MSG(cJSON_GetArraySize(s) == 0, "9 s against 1 s: under 10 s more");
	cJSON_Delete(s);
	cJSON_Delete(runs);
	runs = cJSON_CreateArray();
	cJSON_AddItemToArray(runs, run("a", 1, 0));
	cJSON_AddItemToArray(runs, run("b", 100, 0));
	s = experiment_slow_runs(runs);
	CHECK_MSG(cJSON_GetArraySize(s) == 0, "two runs: nothing to compare with");
	cJSON_Delete(s);
	cJSON_Delete(runs);
}

static void eta(void)
{
	/* Before any datapoint of the first of 6 runs: 6 estimates (2.5 s each, 1 s settling). */
	struct eta_in e = { .estimate_s = 2.5, .settle_s = 1, .count = 1000, .runs_after = 5 };
	NEAR(experiment_eta_s(&e), 2.5 + 5 * 3.5, "nothing observed");
	/* 100 of 1000 kept in 50 s (the run discards most attempts): 450 s left for it, and the
	 * next ones are expected to take as long (501 s with settling), not 3.5 s. */
	e.rows = 100;
	e.run_elapsed_s = 50;
	NEAR(experiment_eta_s(&e), 450 + 5 * 501, "first run slow");
	/* Two runs done in 30 s: the others at 15 s each. */
	e.done = 2;
	e.done_s = 30;
	e.runs_after = 3;
	e.rows = 500;
	e.run_elapsed_s = 5;
	NEAR(experiment_eta_s(&e), 5 + 3 * 15, "after two runs");
	/* A time limit caps the current run. */
	e.time_limit_s = 6;
	NEAR(experiment_eta_s(&e), 1 + 3 * 15, "time limit");
	/* A run faster than the estimate does not make the next ones shorter than it. */
	struct eta_in f = { .estimate_s = 10, .count = 100, .rows = 50, .run_elapsed_s = 1, .runs_after = 1 };
	NEAR(experiment_eta_s(&f), 1 + 10, "estimate is the floor before a run has finished");
}

int main(void)
{
	isc_set_progname("test_trust");
	proc_stat();
	slow_runs();
	eta();
	if (!check_failures)
		printf("# busy share, slow runs and ETA: ok\n");
	return CHECK_DONE();
}
