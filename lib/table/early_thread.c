/* SPDX-License-Identifier: GPL-2.0-only */
/* A thread waiting on a busy loop for work handed to it later (early_thread.h). */
#include "table/early_thread.h"

#include <time.h>

enum { WAITING, WORK, GAVE_UP, CANCELLED };

#define WAIT_NS 10000000L  /* the busy loop's bound: longer than any header read from the cache */

static long elapsed_ns(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *wait_for_work(void *arg)
{
	struct isc_early_thread *et = arg;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned spins = 0;; spins++) {
		int s = atomic_load_explicit(&et->state, memory_order_acquire);
		if (s == WORK)
			return et->fn(et->arg);
		if (s == CANCELLED)
			return NULL;
		relax();
		if (spins % 1024 == 1023 && elapsed_ns(&t0) > WAIT_NS) {
			int expect = WAITING;
			if (atomic_compare_exchange_strong(&et->state, &expect, GAVE_UP))
				return NULL;
		}
	}
}

bool isc_early_thread_start(struct isc_early_thread *et)
{
	et->fn = NULL;
	et->arg = NULL;
	atomic_init(&et->state, WAITING);
	et->started = pthread_create(&et->tid, NULL, wait_for_work, et) == 0;
	return et->started;
}

bool isc_early_thread_run(struct isc_early_thread *et, void *(*fn)(void *), void *arg)
{
	int expect = WAITING;
	if (!et->started)
		return false;
	et->fn = fn;
	et->arg = arg;
	/* release: the thread sees fn, arg and everything they point to once it sees WORK */
	return atomic_compare_exchange_strong_explicit(&et->state, &expect, WORK, memory_order_acq_rel,
						       memory_order_acquire);
}

bool isc_early_thread_gave_up(struct isc_early_thread *et)
{
	return et->started && atomic_load(&et->state) == GAVE_UP;
}

void isc_early_thread_join(struct isc_early_thread *et)
{
	int expect = WAITING;
	if (!et->started)
		return;
	atomic_compare_exchange_strong(&et->state, &expect, CANCELLED);
	pthread_join(et->tid, NULL);
	et->started = false;
}
