/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fallback event source for kernels whose bpf_timer lacks BPF_F_TIMER_ABS/CPU_PIN (< 6.7):
 * a thread pinned to the measured CPU asks BPF to arm a datapoint (program wake_arm, run
 * in this thread so on that CPU), then sleeps on an absolute timerfd until the LTime that
 * BPF chose. The timerfd's hrtimer expiry is what the BPF programs see as TIntr.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "text/util.h"
#include "method_bpf.h"
#include "time/clock.h"

struct wake_thread {
	pthread_t th;
	int cpu, arm_fd, tfd, stop_fd;
	volatile __u64 *ltime_out, *armed;
	atomic_int failed;
};

static int arm_one(struct wake_thread *t)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err = bpf_prog_test_run_opts(t->arm_fd, &opts);

	if (err) {
		isc_err("bpf: running the arm program failed: %s", strerror(-err));
		return -1;
	}
	return 0;
}

/* Sleep until ltime or a stop; 1 = expired, 0 = stop, -1 = error. */
static int sleep_until(struct wake_thread *t, uint64_t ltime)
{
	struct itimerspec its = { .it_value = { (time_t)(ltime / NSEC_PER_SEC),
						(long)(ltime % NSEC_PER_SEC) } };
	struct pollfd pfd[2] = { { .fd = t->tfd, .events = POLLIN }, { .fd = t->stop_fd, .events = POLLIN } };
	uint64_t ticks;

	if (timerfd_settime(t->tfd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		isc_err("bpf: timerfd_settime: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			isc_err("bpf: poll: %s", strerror(errno));
			return -1;
		}
		if (pfd[1].revents)
			return 0;
		if (pfd[0].revents)
			return read(t->tfd, &ticks, sizeof(ticks)) == sizeof(ticks) ? 1 : -1;
	}
}

static void *wake_thread_main(void *p)
{
	struct wake_thread *t = p;
	struct pollfd stop = { .fd = t->stop_fd, .events = POLLIN };

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (;;) {
		int r;

		if (arm_one(t) != 0)
			goto fail;
		if (!*t->armed) {
			/* LDist queue empty or stopping: wait for user space to catch up. */
			if (poll(&stop, 1, 1) > 0)
				return NULL;
			continue;
		}
		r = sleep_until(t, *t->ltime_out);
		if (r < 0)
			goto fail;
		if (r == 0)
			return NULL;
	}
fail:
	atomic_store(&t->failed, 1);
	return NULL;
}

struct wake_thread *wake_thread_start(int cpu, int arm_fd, volatile __u64 *ltime_out,
				      volatile __u64 *armed)
{
	struct wake_thread *t = isc_xcalloc(1, sizeof(*t));
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	t->cpu = cpu;
	t->arm_fd = arm_fd;
	t->ltime_out = ltime_out;
	t->armed = armed;
	t->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	t->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (t->tfd < 0 || t->stop_fd < 0) {
		isc_err("bpf: cannot create the event source's timerfd/eventfd: %s", strerror(errno));
		goto fail;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&t->th, &attr, wake_thread_main, t);
	pthread_attr_destroy(&attr);
	if (err) {
		isc_err("bpf: cannot start the event thread on CPU %d: %s", cpu, strerror(err));
		goto fail;
	}
	return t;
fail:
	if (t->tfd >= 0)
		close(t->tfd);
	if (t->stop_fd >= 0)
		close(t->stop_fd);
	free(t);
	return NULL;
}

void wake_thread_stop(struct wake_thread *t)
{
	uint64_t one = 1;

	if (!t)
		return;
	if (write(t->stop_fd, &one, sizeof(one)) != sizeof(one))
		isc_warn("bpf: cannot signal the event thread to stop: %s", strerror(errno));
	pthread_join(t->th, NULL);
	close(t->tfd);
	close(t->stop_fd);
	free(t);
}

int wake_thread_failed(const struct wake_thread *t)
{
	return t && atomic_load(&t->failed);
}
