/*
 * One collector per CPU: an flock(2) on cpu<N>.lock in /run/idlescope and in
 * /tmp/idlescope-locks (world-writable, sticky). Root takes both; an unprivileged user takes
 * those it can open, so collectors of any user meet in at least one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "idlescope/sysinfo.h"
#include "idlescope/util.h"

static const char *const lock_dirs[] = { "/run/idlescope", "/tmp/idlescope-locks" };
#define NDIRS (sizeof(lock_dirs) / sizeof(lock_dirs[0]))

struct cpu_lock {
	int fd[NDIRS];
};

int collect_check_cpu(int cpu)
{
	int possible = is_sysinfo_cpus_possible();
	if (possible > 0 && cpu >= possible) {
		is_err("--cpu %d: no such CPU (this machine has CPUs 0-%d)", cpu, possible - 1);
		return -1;
	}
	int online = is_sysinfo_cpu_online(cpu);
	if (online == 0) {
		is_err("--cpu %d: CPU %d is offline; bring it online (echo 1 > /sys/devices/system/cpu/cpu%d/online) "
		       "or choose an online CPU", cpu, cpu, cpu);
		return -1;
	}
	return 0;
}

/* The lock directory, made if missing; refused if it is not a real directory owned by root or us. */
static int open_lock_dir(const char *dir)
{
	struct stat st;
	if (mkdir(dir, 01777) == 0)
		chmod(dir, 01777);   /* not narrowed by the umask */
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (st.st_uid != 0 && st.st_uid != geteuid())) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Only a regular file counts (a FIFO or device planted by another user must not block us). */
static int regular_or_close(int fd)
{
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* Open (never create through a symlink) the lock file; -1 if this user cannot use it. */
static int open_lock_file(int dfd, const char *name)
{
	const int flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	for (int tries = 0; tries < 3; tries++) {
		int fd = openat(dfd, name, O_RDWR | flags);
		if (fd < 0 && errno == EACCES)
			fd = openat(dfd, name, O_RDONLY | flags);
		if (fd >= 0 || errno != ENOENT)
			return regular_or_close(fd);
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | flags, 0666);
		if (fd >= 0) {
			fchmod(fd, 0666);
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static void report_holder(int fd, int cpu)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
	if (pid > 0)
		is_err("another collector is measuring CPU %d (pid %ld); wait for it or choose another --cpu", cpu, pid);
	else
		is_err("another collector is measuring CPU %d; wait for it or choose another --cpu", cpu);
}

struct cpu_lock *cpu_lock_take(int cpu)
{
	struct cpu_lock *l = is_xcalloc(1, sizeof(*l));
	char name[32];
	int taken = 0;
	snprintf(name, sizeof(name), "cpu%d.lock", cpu);
	for (size_t i = 0; i < NDIRS; i++) {
		l->fd[i] = -1;
		int dfd = open_lock_dir(lock_dirs[i]);
		if (dfd < 0)
			continue;
		int fd = open_lock_file(dfd, name);
		close(dfd);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EWOULDBLOCK)
				report_holder(fd, cpu);
			else
				is_err("%s/%s: %s", lock_dirs[i], name, strerror(errno));
			close(fd);
			cpu_lock_release(l);
			return NULL;
		}
		char pid[24];
		int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) < 0)
			(void)0;   /* read-only lock file: the lock still holds, only the pid is not shown */
		l->fd[i] = fd;
		taken++;
	}
	if (!taken)
		is_warn("cannot use %s or %s: running without the one-collector-per-CPU lock",
			lock_dirs[0], lock_dirs[1]);
	return l;
}

void cpu_lock_release(struct cpu_lock *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < NDIRS; i++)
		if (l->fd[i] >= 0)
			close(l->fd[i]);
	free(l);
}
