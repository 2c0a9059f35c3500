/* SPDX-License-Identifier: GPL-2.0-only */
/* Building an entry in the background (docs/cache.md): a detached, idle-priority builder
 * process, one per entry at a time, while the caller reads the run as without the cache. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/cache.h"
#include "fs/fs.h"
#include "text/util.h"

int cache_build_mode(bool *background)
{
	const char *e = getenv("IDLESCOPE_CACHE_BUILD");
	*background = true;
	if (!e || !*e || !strcmp(e, "background"))
		return 0;
	if (!strcmp(e, "foreground")) {
		*background = false;
		return 0;
	}
	isc_err("IDLESCOPE_CACHE_BUILD: expected 'background' or 'foreground', got '%s'", e);
	return -1;
}

/* Nothing of the caller's: no terminal, no pipe (a $(...) or ctest would wait for it); keep
 * keep_fd (-1: none) as fd 3. */
static void detach(int keep_fd)
{
	int fd = open("/dev/null", O_RDWR);
	setsid();
	for (int i = 0; i < 3 && fd >= 0; i++)
		if (fd != i)
			dup2(fd, i);
	unsigned first = 3;
	if (keep_fd >= 0 && dup2(keep_fd, 3) == 3)
		first = 4;
	if (close_range(first, ~0u, 0) < 0) {
		long max = sysconf(_SC_OPEN_MAX);
		for (long i = first; i < (max > 0 ? max : 1024); i++)
			close((int)i);
	}
	errno = 0;
	if (setpriority(PRIO_PROCESS, 0, 19) < 0 && errno)
		errno = 0;  /* best effort: the build runs anyway */
	struct sched_param sp = { 0 };
	sched_setscheduler(0, SCHED_IDLE, &sp);
}

/*
 * Until the caller has exited (its pidfd, as fd 3, becomes readable; without a pidfd, its
 * pid is polled): the build then takes no CPU, memory bandwidth or page-zeroing time from the
 * look that started it (or from the other runs a diff reads).
 */
static void wait_caller(bool have_pidfd, pid_t caller)
{
	struct pollfd p = { .fd = 3, .events = POLLIN };
	if (have_pidfd) {
		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
		close(3);
		return;
	}
	while (kill(caller, 0) == 0 || errno == EPERM)
		usleep(50000);
}

/* The builder: one per entry (a lock file beside it); gone when the entry is there. */
static void builder(const struct isc_cache_src *src, const struct stat *st, const char *dir,
		    const char *entry, uint64_t max, int pidfd, pid_t caller)
{
	detach(pidfd);
	char *lock = cache_lock_path(dir, entry);
	/* never through a planted symbolic link, never blocking on a FIFO */
	int fd = isc_fs_open_own(AT_FDCWD, lock, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0)
		_exit(0);  /* another builder is at it (or waits to be) */
	wait_caller(pidfd >= 0, caller);
	/* one builder at a time per cache: each needs about the memory of a cold look at its run */
	int one = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);  /* its flock */
	if (one < 0)
		_exit(0);
	while (flock(one, LOCK_EX) < 0)
		if (errno != EINTR)
			_exit(0);
	struct cache_map *m = cache_map_open(entry, st, src->opts);
	if (m)
		cache_map_free(m);
	else if (!cache_too_big(entry, st, src->opts, max))
		cache_build_entry(src, st, dir, entry, max);
	/* while still holding the lock: a builder that opens the file later finds the entry */
	unlink(lock);
	_exit(0);
}

/* The number of threads of this process (/proc/self/stat, field 20); 0 when unknown. */
static long thread_count(void)
{
	char buf[1024], *p;
	long n = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	p = strrchr(buf, ')');  /* after the command name, which may hold spaces */
	for (int field = 2; p && field < 20; field++)
		p = strchr(p + 1, ' ');
	if (p)
		n = strtol(p + 1, NULL, 10);
	return n;
}

void cache_build_background(const struct isc_cache_src *src, const struct stat *st,
			    const char *dir, const char *entry, uint64_t max)
{
	/* single-threaded here (analyze, report): fork copies the whole process safely, and the
	 * caller has not read the run yet, so its reading causes no copy-on-write */
	if (thread_count() > 1)
		return;  /* another thread's locks could be held in the copy: no builder */
	pid_t caller = getpid(), mid = fork(), got;
	if (mid < 0)
		return;  /* no builder: the next look tries again */
	if (mid == 0) {
		/* the caller waits for this process: its pid is still its own */
		int pidfd = pidfd_open(caller, 0);
		pid_t b = fork();
		if (b == 0)
			builder(src, st, dir, entry, max, pidfd, caller);
		_exit(0);  /* the builder is init's child now: no zombie */
	}
	while ((got = waitpid(mid, NULL, 0)) < 0 && errno == EINTR)
		;
}
