/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timer method: no privileges. A thread pinned to the measured CPU sleeps with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until LaunchTime; WakeLatency is the time
 * it runs again minus LaunchTime (as cyclictest measures it). The CPU's cpuidle usage counters,
 * read before and after each sleep (outside the timed window), tell which idle state it
 * entered, whether it entered one at all and whether it woke up more than once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "timer_classify.h"
#include "text/util.h"

#define RING_SIZE 4096
#define MAX_STATES 16
#define THREAD_STACK (256 * 1024)
#define WAIT_SLICE_NS (100 * 1000000ull)

struct method_ctx {
	struct collect_cfg cfg;
	pthread_t thr;
	bool thr_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;         /* data, space, readiness */
	struct dp_raw ring[RING_SIZE];
	size_t head, count;
	uint64_t discards[DISCARD_NR];
	bool ready, quit, failed;
	char err[256];
	char sched[128];
	int usage_fd[MAX_STATES];
	int nstates;
	int poll;                  /* index of the POLL state, -1 if none */
	bool check_off;            /* IDLESCOPE_TIMER_IDLE_CHECK=off: as on a CPU without states */
};

/* Whether state i of the CPU is POLL (the polling loop, which leaves at a time limit). */
static bool is_poll_state(int cpu, int i)
{
	char path[128], name[16] = "";
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, i);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool yes = fgets(name, sizeof(name), f) && !strcmp(name, "POLL\n");
	fclose(f);
	return yes;
}

static int open_usage_fds(struct method_ctx *c)
{
	c->nstates = 0;
	c->poll = -1;
	if (c->check_off)
		return 0;
	for (int i = 0; i < MAX_STATES; i++) {
		char path[128];
		if (c->poll < 0 && is_poll_state(c->cfg.cpu, i))
			c->poll = i;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", c->cfg.cpu, i);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		c->usage_fd[c->nstates++] = fd;
	}
	return c->nstates;
}

/* Usage counters of every state; -1 if one cannot be read (then nothing is concluded). */
static int read_usage(const struct method_ctx *c, uint64_t *u)
{
	for (int i = 0; i < c->nstates; i++) {
		char buf[32], *end;
		ssize_t n = pread(c->usage_fd[i], buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			return -1;
		buf[n] = '\0';
		u[i] = strtoull(buf, &end, 10);
		if (end == buf)
			return -1;
	}
	return 0;
}

/* Per-thread setup; what it achieved goes into c->sched for info.json. */
static int setup_thread(struct method_ctx *c)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c->cfg.cpu, &set);
	int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e) {
		snprintf(c->err, sizeof(c->err), "cannot pin the timer thread to CPU %d: %s", c->cfg.cpu, strerror(e));
		return -1;
	}
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) < 0) {
		snprintf(c->err, sizeof(c->err), "PR_SET_TIMERSLACK: %s", strerror(errno));
		return -1;
	}
	if (c->cfg.priority == 0) {
		snprintf(c->sched, sizeof(c->sched), "SCHED_OTHER (--priority 0)");
		return 0;
	}
	struct sched_param sp = { .sched_priority = c->cfg.priority > 0 ? c->cfg.priority
								: sched_get_priority_max(SCHED_FIFO) };
	e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (e == 0)
		snprintf(c->sched, sizeof(c->sched), "SCHED_FIFO %d", sp.sched_priority);
	else
		snprintf(c->sched, sizeof(c->sched), "SCHED_OTHER (SCHED_FIFO not permitted: %s; asked for %d)",
			 strerror(e), sp.sched_priority);
	return 0;
}

static bool push(struct method_ctx *c, const struct dp_raw *dp, int discard)
{
	pthread_mutex_lock(&c->mu);
	if (discard >= 0) {
		c->discards[discard]++;
	} else {
		while (c->count == RING_SIZE && !c->quit)
			pthread_cond_wait(&c->cv, &c->mu);
		if (!c->quit) {
			c->ring[(c->head + c->count) % RING_SIZE] = *dp;
			c->count++;
		}
	}
	bool quit = c->quit;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return !quit;
}

static void fail(struct method_ctx *c, const char *what, int err)
{
	pthread_mutex_lock(&c->mu);
	snprintf(c->err, sizeof(c->err), "%s: %s", what, strerror(err));
	c->failed = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

/* One datapoint: returns the discard reason, -1 to keep, -2 on error (errno set). */
static int measure_one(struct method_ctx *c, struct dp_raw *dp)
{
	uint64_t before[MAX_STATES], after[MAX_STATES];
	bool have_usage = c->nstates > 0 && read_usage(c, before) == 0;

	*dp = (struct dp_raw){ .req_state = -1, .intr_off = -1, .smi_cnt = -1, .nmi_cnt = -1 };
	dp->ldist = collect_next_ldist();
	dp->ltime = isc_mono_ns() + dp->ldist;
	struct timespec ts = { .tv_sec = (time_t)(dp->ltime / NSEC_PER_SEC),
			       .tv_nsec = (long)(dp->ltime % NSEC_PER_SEC) };
	dp->tbi = isc_mono_ns();
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	dp->tai = isc_mono_ns();
	if (r == EINTR)
		return DISCARD_LOST;     /* signals are blocked here; kept for safety */
	if (r) {
		errno = r;
		return -2;
	}
	if (sched_getcpu() != c->cfg.cpu)
		return DISCARD_WRONG_CPU;
	if (dp->tbi >= dp->ltime)
		return DISCARD_NOT_IDLE;  /* LaunchTime passed before the thread could sleep */
	if (have_usage && read_usage(c, after) == 0) {
		int st, why = timer_classify(c->nstates, c->poll, before, after, &st);
		dp->req_state = st >= 0 ? st : -1;
		return why;
	}
	return -1;
}

static void *timer_thread(void *arg)
{
	struct method_ctx *c = arg;
	struct dp_raw dp;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	int ok = setup_thread(c);
	pthread_mutex_lock(&c->mu);
	c->ready = true;
	c->failed = ok < 0;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (ok < 0)
		return NULL;
	while (!collect_stop_requested) {
		int why = measure_one(c, &dp);
		if (why == -2) {
			fail(c, "clock_nanosleep", errno);
			return NULL;
		}
		if (!push(c, &dp, why))
			return NULL;
	}
	/* Stop requested: measure no more; stay until timer_stop() joins. */
	pthread_mutex_lock(&c->mu);
	while (!c->quit)
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

static int timer_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && cfg->cpu < CPU_SETSIZE && !CPU_ISSET(cfg->cpu, &set)) {
		snprintf(why, whylen, "CPU %d is not in this process's CPU affinity; run without taskset/cpuset "
			 "limits or choose another --cpu", cfg->cpu);
		return -1;
	}
	return 0;
}

/* The cpuidle driver's name ("none" when there is no cpuidle directory at all). */
static const char *driver_name(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpuidle/current_driver", "re");
	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "none");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void describe(struct method_ctx *c, cJSON *info, const char *mlock_res)
{
	char buf[256], buf2[64];
	snprintf(buf, sizeof(buf), "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) in a thread pinned to CPU %d",
		 c->cfg.cpu);
	cJSON_AddStringToObject(info, "event_source", buf);
	cJSON_AddStringToObject(info, "event_source_why",
				"timer method: the user-space wake-up as cyclictest measures it; needs no privileges");
	cJSON_AddStringToObject(info, "sched", c->sched);
	cJSON_AddStringToObject(info, "mlock", mlock_res);
	cJSON_AddNumberToObject(info, "timerslack_ns", 1);
	cJSON_AddStringToObject(info, "LTime", "CLOCK_MONOTONIC before the sleep + LDist (the absolute wake-up time asked for)");
	cJSON_AddStringToObject(info, "TBI", "CLOCK_MONOTONIC just before clock_nanosleep (not the idle entry itself)");
	cJSON_AddStringToObject(info, "TAI", "CLOCK_MONOTONIC when the thread runs again after clock_nanosleep");
	cJSON_AddStringToObject(info, "TIntr", "not known");
	if (c->nstates > 0)
		snprintf(buf, sizeof(buf), "cpuidle usage counters of CPU %d (%d states), read before and after each sleep",
			 c->cfg.cpu, c->nstates);
	else
		snprintf(buf, sizeof(buf), "none: CPU %d has no cpuidle usage counters; ReqCState is empty and "
			 "not_idle/other_wake cannot be detected", c->cfg.cpu);
	cJSON_AddStringToObject(info, "ReqCState", buf);
	if (c->nstates > 0)
		snprintf(buf, sizeof(buf), "cpuidle usage counters of CPU %d (%d states), read before and after each "
			 "sleep: no idle entry is not_idle, a non-polling state entered twice is other_wake",
			 c->cfg.cpu, c->nstates);
	else if (c->check_off)
		snprintf(buf, sizeof(buf), "the cpuidle usage counters of CPU %d are not read (IDLESCOPE_TIMER_IDLE_CHECK=off), "
			 "so no per-datapoint idle check; the run's busy share (cpu_busy) stands in", c->cfg.cpu);
	else
		snprintf(buf, sizeof(buf), "CPU %d has no cpuidle states (cpuidle driver %s), so no per-datapoint "
			 "idle check; the run's busy share (cpu_busy) stands in", c->cfg.cpu, driver_name(buf2, sizeof(buf2)));
	collect_idle_check(info, c->nstates > 0, buf);
}

static uint64_t timer_own_cpu_ns(struct method_ctx *c)
{
	clockid_t id;
	struct timespec ts;
	if (!c || !c->thr_started || pthread_getcpuclockid(c->thr, &id) || clock_gettime(id, &ts) < 0)
		return UINT64_MAX;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int timer_start(struct method_ctx **ctxp, const struct collect_cfg *cfg, cJSON *info)
{
	struct method_ctx *c = isc_xcalloc(1, sizeof(*c));
	pthread_attr_t attr;
	sigset_t all, old;
	char mlock_res[160];

	*ctxp = c;
	c->cfg = *cfg;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	/* For tests: a machine with cpuidle states measured as one without (driver none). */
	const char *chk = getenv("IDLESCOPE_TIMER_IDLE_CHECK");
	c->check_off = chk && !strcmp(chk, "off");
	open_usage_fds(c);

	/* Signals go to the main thread; the timer thread never sees them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	int e = pthread_create(&c->thr, &attr, timer_thread, c);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		isc_err("timer: cannot start the timer thread: %s", strerror(e));
		return -1;
	}
	c->thr_started = true;
	pthread_mutex_lock(&c->mu);
	while (!c->ready)
		pthread_cond_wait(&c->cv, &c->mu);
	bool failed = c->failed;
	pthread_mutex_unlock(&c->mu);
	if (failed) {
		isc_err("timer: %s", c->err);
		return -1;
	}
#ifdef __SANITIZE_ADDRESS__
	snprintf(mlock_res, sizeof(mlock_res), "not locked: sanitizer build");
#else
	if (mlockall(MCL_CURRENT) == 0)
		snprintf(mlock_res, sizeof(mlock_res), "locked (mlockall MCL_CURRENT)");
	else
		snprintf(mlock_res, sizeof(mlock_res), "not locked: mlockall: %s", strerror(errno));
#endif
	describe(c, info, mlock_res);
	return 0;
}

static int timer_next(struct method_ctx *c, struct dp_raw *dp, uint64_t discards[DISCARD_NR])
{
	int ret;
	pthread_mutex_lock(&c->mu);
	for (;;) {
		for (int i = 0; i < DISCARD_NR; i++) {
			discards[i] += c->discards[i];
			c->discards[i] = 0;
		}
		collect_watch_discards(discards);
		if (c->count) {
			*dp = c->ring[c->head];
			c->head = (c->head + 1) % RING_SIZE;
			c->count--;
			pthread_cond_broadcast(&c->cv);
			ret = 1;
			break;
		}
		if (c->failed) {
			isc_err("timer: %s", c->err);
			ret = -1;
			break;
		}
		if (collect_stop_requested) {   /* the sleep in flight is not a datapoint yet */
			ret = 0;
			break;
		}
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t t = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec + WAIT_SLICE_NS;
		ts.tv_sec = (time_t)(t / NSEC_PER_SEC);
		ts.tv_nsec = (long)(t % NSEC_PER_SEC);
		pthread_cond_timedwait(&c->cv, &c->mu, &ts);
	}
	pthread_mutex_unlock(&c->mu);
	return ret;
}

static void timer_stop(struct method_ctx *c)
{
	if (!c)
		return;
	if (c->thr_started) {
		pthread_mutex_lock(&c->mu);
		c->quit = true;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_cancel(c->thr);   /* only acts inside clock_nanosleep */
		pthread_join(c->thr, NULL);
	}
	for (int i = 0; i < c->nstates; i++)
		close(c->usage_fd[i]);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

const struct method_ops method_timer = {
	.name = "timer",
	.probe = timer_probe,
	.start = timer_start,
	.next = timer_next,
	.own_cpu_ns = timer_own_cpu_ns,
	.stop = timer_stop,
};
