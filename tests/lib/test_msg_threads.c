/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Messages are muted per thread: while one thread reads a file on trial with its messages
 * muted (the run cache's builder in analyze diff's loader thread), another thread's warning
 * about its own run is still printed and counted as its own. Both threads run at once: the
 * muting thread holds its mute across the other's warning (a barrier orders them).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/check.h"
#include "text/util.h"

static pthread_barrier_t muted_now, spoken;
static unsigned muter_count_before, muter_count_after;

static void *muter(void *arg)
{
	(void)arg;
	muter_count_before = isc_warn_count();
	isc_msg_mute(true);
	pthread_barrier_wait(&muted_now);
	isc_warn("muted trial read");          /* not printed, counted on this thread */
	pthread_barrier_wait(&spoken);
	isc_msg_mute(false);
	muter_count_after = isc_warn_count();
	return NULL;
}

int main(void)
{
	char path[] = "/tmp/idlescope-msg-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	CHECK(dup2(fd, 2) == 2);
	isc_set_progname("t");

	pthread_t tid;
	pthread_barrier_init(&muted_now, NULL, 2);
	pthread_barrier_init(&spoken, NULL, 2);
	CHECK(pthread_create(&tid, NULL, muter, NULL) == 0);
	pthread_barrier_wait(&muted_now);
	unsigned before = isc_warn_count();
	isc_warn("run2: biased run");          /* the other thread is muted now: still printed */
	unsigned after = isc_warn_count();
	pthread_barrier_wait(&spoken);
	pthread_join(tid, NULL);

	fflush(stderr);
	dup2(saved, 2);
	char buf[512] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	unlink(path);
	CHECK(n >= 0);
	CHECK_STR(buf, "t: warning: run2: biased run\n");
	CHECK(after == before + 1);
	CHECK(muter_count_after == muter_count_before + 1);
	return CHECK_DONE();
}
