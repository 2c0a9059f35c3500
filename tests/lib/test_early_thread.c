/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread started ahead of its work (lib/table/early_thread.h): work handed to it runs once,
 * on that thread, and join waits for it; a thread given no work ends when joined; one that
 * waited past its bound (10 ms) refuses work, so that the caller runs it elsewhere.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "../common/check.h"
#include "table/early_thread.h"

struct work {
	atomic_int runs;
	pthread_t on;
	int value;
	int seen;
};

static void *do_work(void *arg)
{
	struct work *w = arg;
	w->on = pthread_self();
	w->seen = w->value;  /* written before the handover: must be visible */
	atomic_fetch_add(&w->runs, 1);
	return NULL;
}

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

int main(void)
{
	struct isc_early_thread et;
	for (int i = 0; i < 200; i++) {  /* handed at once, or after a while (the thread spinning) */
		struct work w = { .value = 1000 + i };
		atomic_init(&w.runs, 0);
		CHECK(isc_early_thread_start(&et));
		if (i % 4 == 3)
			sleep_ms(1);
		CHECK(isc_early_thread_run(&et, do_work, &w));
		isc_early_thread_join(&et);
		CHECK_MSG(atomic_load(&w.runs) == 1 && w.seen == 1000 + i, "round %d: %d runs, saw %d", i,
			  atomic_load(&w.runs), w.seen);
		CHECK(!pthread_equal(w.on, pthread_self()));
		isc_early_thread_join(&et);  /* a second join: nothing left to wait for */
	}
	/* no work: joining ends it */
	for (int i = 0; i < 50; i++) {
		CHECK(isc_early_thread_start(&et));
		isc_early_thread_join(&et);
	}
	/* waited past its bound (10 ms; polled, however late the thread is scheduled, for up to
	 * 20 s): it refuses, and the work is not run */
	struct work late = { .value = 7 };
	atomic_init(&late.runs, 0);
	CHECK(isc_early_thread_start(&et));
	for (int i = 0; i < 2000 && !isc_early_thread_gave_up(&et); i++)
		sleep_ms(10);
	CHECK(isc_early_thread_gave_up(&et));
	CHECK(!isc_early_thread_run(&et, do_work, &late));
	isc_early_thread_join(&et);
	CHECK(atomic_load(&late.runs) == 0);
	/* never started: refuses, join is harmless */
	struct isc_early_thread none = { 0 };
	CHECK(!isc_early_thread_run(&none, do_work, &late));
	isc_early_thread_join(&none);
	CHECK(atomic_load(&late.runs) == 0);
	return CHECK_DONE();
}
