/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One collector per CPU: an flock(2) on cpu<N>.lock in /tmp/idlescope-locks and in
 * /run/idlescope (both sticky and world-writable). Every collector, root included, takes the
 * lock in each of them it can use, whoever made the directory: /tmp/idlescope-locks is the
 * one all users can make and use, so root and the others always meet there (after a reboot
 * an unprivileged collector may well be first to make it); /run/idlescope, which only root
 * can make, keeps root's collectors apart even if someone spoilt the /tmp one. Nothing is
 * ever written to a lock file, and only regular files with a single link are opened, never
 * through a symlink, so a name planted by another user can neither be written through nor
 * block us; the holder's pid comes from /proc/locks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "collect.h"
#include "run/sysinfo.h"
#include "text/util.h"

static const char *const lock_dirs[] = { "/tmp/idlescope-locks", "/run/idlescope" };
#define NDIRS (sizeof(lock_dirs) / sizeof(lock_dirs[0]))

struct cpu_lock {
	int fd[NDIRS];
};

int collect_check_cpu(int cpu)
{
	int possible = isc_sysinfo_cpus_possible();
	if (possible > 0 && cpu >= possible) {
		isc_err("--cpu %d: no such CPU (this machine has CPUs 0-%d)", cpu, possible - 1);
		return -1;
	}
	int online = isc_sysinfo_cpu_online(cpu);
	if (online == 0) {
		isc_err("--cpu %d: CPU %d is offline; bring it online (echo 1 > /sys/devices/system/cpu/cpu%d/online) "
		       "or choose an online CPU", cpu, cpu, cpu);
		return -1;
	}
	return 0;
}

/* The lock directory, made if missing (sticky, world-writable); never through a symlink. */
static int open_lock_dir(const char *dir)
{
	bool made = mkdir(dir, 01777) == 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && made)
		fchmod(fd, 01777);   /* not narrowed by the umask */
	return fd;
}

/* Only a regular file with one link counts: a FIFO, a device or a hard link to some other
 * file planted by another user must neither block us nor get locked. */
static int plain_file_or_close(int fd)
{
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* Open the lock file read-only (flock needs no more), creating it readable by all. */
static int open_lock_file(int dfd, const char *name)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

	for (int tries = 0; tries < 3; tries++) {
		int fd = openat(dfd, name, flags);
		if (fd >= 0 || errno != ENOENT)
			return plain_file_or_close(fd);
		fd = openat(dfd, name, flags | O_CREAT | O_EXCL, 0444);
		if (fd >= 0) {
			fchmod(fd, 0444);   /* not narrowed by the umask */
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

long collect_lock_holder(int fd)
{
	struct stat st;
	char line[256], type[16];
	unsigned int maj, min;
	unsigned long long ino;
	long pid, found = 0;
	FILE *f;

	if (fstat(fd, &st) < 0 || !(f = fopen("/proc/locks", "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", type, &pid, &maj, &min, &ino) == 5 &&
		    !strcmp(type, "FLOCK") && maj == major(st.st_dev) && min == minor(st.st_dev) && ino == st.st_ino)
			found = pid;
	fclose(f);
	return found;
}

static void report_holder(int fd, int cpu)
{
	long pid = collect_lock_holder(fd);
	if (pid > 0)
		isc_err("another collector is measuring CPU %d (pid %ld); wait for it or choose another --cpu", cpu, pid);
	else
		isc_err("another collector is measuring CPU %d; wait for it or choose another --cpu", cpu);
}

struct cpu_lock *cpu_lock_take(int cpu)
{
	struct cpu_lock *l = isc_xcalloc(1, sizeof(*l));
	char name[32];
	int taken = 0;
	snprintf(name, sizeof(name), "cpu%d.lock", cpu);
	for (size_t i = 0; i < NDIRS; i++)
		l->fd[i] = -1;
	for (size_t i = 0; i < NDIRS; i++) {
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
				isc_err("%s/%s: %s", lock_dirs[i], name, strerror(errno));
			close(fd);
			cpu_lock_release(l);
			return NULL;
		}
		l->fd[i] = fd;
		taken++;
	}
	if (!taken)
		isc_warn("cannot use %s or %s: running without the one-collector-per-CPU lock",
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
