/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread started before its work is known, waiting for it on a busy loop, so that its CPU
 * is awake when the work comes. On the VMs this runs on, a new thread on an idle vCPU began
 * 0.2 to 4 ms after pthread_create (the host must wake the vCPU); the CSV reader starts one
 * before it reads the header and chooses the columns' types (1.2 ms), then hands it a chunk.
 */
#ifndef IDLESCOPE_EARLY_THREAD_H
#define IDLESCOPE_EARLY_THREAD_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct isc_early_thread {
	pthread_t tid;
	bool started;
	atomic_int state;          /* enum in early_thread.c */
	void *(*fn)(void *);
	void *arg;
};

/* Start the thread; it waits up to 10 ms for work, then ends. false: no thread (fn then has
 * to run elsewhere: isc_early_thread_run says so). */
bool isc_early_thread_start(struct isc_early_thread *et);
/* Hand fn(arg) to the waiting thread: true when it takes it (isc_early_thread_join waits for
 * it); false when there is no thread or it stopped waiting (nothing runs fn then). */
bool isc_early_thread_run(struct isc_early_thread *et, void *(*fn)(void *), void *arg);
/* Whether the thread stopped waiting for work (its bound passed) before any came. */
bool isc_early_thread_gave_up(struct isc_early_thread *et);
/* Wait for the thread's work to end, or tell an idle thread to end; the thread is gone after. */
void isc_early_thread_join(struct isc_early_thread *et);

#endif
