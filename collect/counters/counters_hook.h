/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the collector core reaches the counter snapshots (collect/counters_*.c).
 * Owned by the counters work; the core only calls these three functions.
 */
#ifndef COLLECT_COUNTERS_HOOK_H
#define COLLECT_COUNTERS_HOOK_H
#include <stdbool.h>
#include <cjson/cJSON.h>

/* `collect --counters ...` (interval and one-shot command modes): the core hands over the
 * whole argv when it sees --counters, and returns this function's result as exit status. */
int counters_main(int argc, char **argv);

/* collect --counters -H HOST: the options checked on the controller as counters_main checks
 * them (0, 2 after a message, 1 after --help), nothing opened; -o, --force and -q returned. */
int counters_check_options(int argc, char **argv, const char **outdir, bool *force, bool *quiet);

struct counters_sampler;

/* Alongside a latency run: snapshot every CPU now and then every interval_s seconds into
 * <rundir>/counters.csv from a thread of its own; describe sources and missing counters
 * under info["counters"]. Returns NULL (with a warning printed) if nothing can be sampled. */
struct counters_sampler *counters_sampler_start(const char *rundir, double interval_s, cJSON *info);
/* Final snapshot, flush, close, free. */
void counters_sampler_stop(struct counters_sampler *s);

#endif
