/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counter snapshots alongside a latency run: one now, one every interval from a thread of
 * its own, one at the end. The sampler does not migrate onto the measured CPU; reading
 * another CPU's perf or MSR counters costs that CPU an IPI per snapshot (as turbostat's
 * reads do), which is why the interval defaults to a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "counters_collect.h"
#include "counters_hook.h"
#include "text/util.h"
#include "time/clock.h"
#include "experiment.h"

struct counters_sampler {
	struct cnt_set *set;
	FILE *csv;
	int dirfd;
	char *dir;
	double interval_s;
	cJSON *desc;            /* info["counters"], owned by the caller's info */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop, failed;
};

static void *sampler_thread(void *arg)
{
	struct counters_sampler *s = arg;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	long long step = (long long)(s->interval_s * 1e9 + 0.5);
	pthread_mutex_lock(&s->lock);
	while (!s->stop && !s->failed) {
		long long ns = next.tv_nsec + step;
		next.tv_sec += (time_t)(ns / NSEC_PER_SEC);
		next.tv_nsec = (long)(ns % NSEC_PER_SEC);
		int rc = 0;
		while (!s->stop && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&s->wake, &s->lock, &next);
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		bool bad = counters_csv_snapshot(s->csv, s->set, s->dir) != 0;
		pthread_mutex_lock(&s->lock);
		s->failed |= bad;
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void sampler_free(struct counters_sampler *s)
{
	counters_csv_close(s->csv, s->dir);
	if (s->dirfd >= 0)
		close(s->dirfd);
	cnt_set_close(s->set);
	free(s->dir);
	free(s);
}

/* One line for the counters that some CPUs cannot read (the sampler's set is quiet). */
static void warn_partial(const struct cnt_set *set)
{
	char list[1024];
	size_t n = 0;
	for (size_t j = 0; j < set->ncols && n < sizeof(list); j++)
		for (size_t i = 0; i < set->ncpus; i++)
			if (set->cols[j].fail_errno[i]) {
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", set->cols[j].name);
				break;
			}
	if (n)
		isc_warn("counter snapshots without %s on some CPUs (info.json counters.partial)", list);
}

/* A run of an experiment after its first: the machine and its counters are the same, so the
 * warnings about missing counters were given once already (each run's info.json still lists
 * them); a 600-character warning per run buried everything else (issue 24). */
static bool later_experiment_run(void)
{
	const char *env = getenv(RUN_CONTEXT_ENV);
	cJSON *ctx = env ? cJSON_Parse(env) : NULL;
	const cJSON *exp = cJSON_GetObjectItemCaseSensitive(ctx, "experiment");
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(exp, "run");
	bool later = cJSON_IsNumber(run) && run->valuedouble > 1;
	cJSON_Delete(ctx);
	return later;
}

struct counters_sampler *counters_sampler_start(const char *rundir, double interval_s, cJSON *info)
{
	struct counters_sampler *s = isc_xcalloc(1, sizeof(*s));
	struct cnt_opts o = { .quiet = true, .avoid_ipi = true };
	s->dirfd = -1;
	s->dir = isc_xstrdup(rundir);
	s->interval_s = interval_s;
	if (cnt_set_open(&o, &s->set)) {
		isc_warn("no counter snapshots for this run");
		goto fail;
	}
	s->set->migrate = false;
	bool quiet = later_experiment_run();
	if (s->set->nmissing && !quiet) {
		char list[1024];
		size_t n = 0;
		for (size_t i = 0; i < s->set->nmissing && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? "; " : "", s->set->missing[i].group);
		isc_warn("counter snapshots without %s (reasons: info.json counters.missing)", list);
	}
	if (!quiet)
		warn_partial(s->set);
	s->dirfd = open(rundir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0) {
		isc_warn("%s: %s: no counter snapshots", rundir, strerror(errno));
		goto fail;
	}
	if (!(s->csv = counters_csv_open(s->dirfd, rundir, s->set)) ||
	    counters_csv_snapshot(s->csv, s->set, rundir))
		goto fail;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, sampler_thread, s)) {
		isc_warn("cannot start the counter sampler thread");
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
		goto fail;
	}
	if (info) {
		s->desc = cnt_set_describe(s->set);
		cJSON_AddNumberToObject(s->desc, "interval_s", interval_s);
		cJSON_AddNumberToObject(s->desc, "snapshots", 1);
		cJSON_AddItemToObject(info, "counters", s->desc);
	}
	return s;
fail:
	sampler_free(s);
	return NULL;
}

void counters_sampler_stop(struct counters_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	if (!s->failed)
		counters_csv_snapshot(s->csv, s->set, s->dir);
	if (s->desc) {
		cJSON_ReplaceItemInObject(s->desc, "snapshots", cJSON_CreateNumber((double)s->set->nsnap));
		cJSON_ReplaceItemInObject(s->desc, "partial", cnt_set_describe_partial(s->set));
	}
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	sampler_free(s);
}
