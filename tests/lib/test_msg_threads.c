/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Messages are muted per thread: while one thread reads a file on trial with its messages
 * muted (the run cache's builder in analyze diff's loader thread), another thread's warning
 * about its own run is still printed and counted as its own. Both threads run at once: the
 * muting thread holds its mute across the other's warning (a barrier orders them).
 * Held messages (isc_msg_hold, analyze diff's two loader threads) come out in the order of
 * their buffers, not their threads, and an out-of-memory exit still prints them first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

static struct isc_msg_held held[2];

static void *second_run(void *arg)
{
	(void)arg;
	isc_msg_hold(&held[1]);
	isc_warn("run2: said first");
	isc_msg_hold(NULL);
	return NULL;
}

/* stderr of fn() run in a child, and its exit status */
static int child_stderr(void (*fn)(void), char *buf, size_t len)
{
	char path[] = "/tmp/idlescope-msg-XXXXXX";
	int fd = mkstemp(path), status = -1;
	CHECK(fd >= 0);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		fn();
		fflush(stderr);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	ssize_t n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void held_in_order(void)
{
	pthread_t tid;
	isc_msg_hold_order(held, 2);
	CHECK(pthread_create(&tid, NULL, second_run, NULL) == 0);
	pthread_join(tid, NULL);      /* run 2 has spoken before run 1 */
	isc_msg_hold(&held[0]);
	isc_err("run1: said second");
	isc_msg_hold(NULL);
	isc_msg_held_print(held, 2);
}

/* ASan and TSan end the process themselves on an allocation that large: no out-of-memory
 * exit to see */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZER_ALLOCATOR 1
#endif
#endif

#ifndef SANITIZER_ALLOCATOR
static void held_then_oom(void)
{
	isc_msg_hold_order(held, 2);
	isc_msg_hold(&held[1]);
	isc_warn("run2: cut last line");
	isc_msg_hold(NULL);
	isc_oom_context("loading run1");
	volatile size_t huge = (size_t)1 << 62;
	free(isc_xmalloc(huge));
}
#endif

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

	char out[1024];
	CHECK(child_stderr(held_in_order, out, sizeof(out)) == 0);
	CHECK_STR(out, "t: run1: said second\nt: warning: run2: said first\n");
#ifndef SANITIZER_ALLOCATOR
	CHECK(child_stderr(held_then_oom, out, sizeof(out)) == 1);
	CHECK_STR(out, "t: warning: run2: cut last line\n"
		       "t: out of memory loading run1 (a block of 4611686018427387904 bytes)\n");
#endif
	return CHECK_DONE();
}
