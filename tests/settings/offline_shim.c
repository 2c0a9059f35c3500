/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LD_PRELOAD shim for fixture trees (--sysroot): models the kernel's msr driver, which refuses
 * /dev/cpu/N/msr of an offline CPU (msr_open: ENXIO). An open of ROOT/dev/cpu/N/msr fails
 * while ROOT/sys/devices/system/cpu/cpuN/online holds 0; every other open goes to glibc.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*open_fn)(const char *, int, ...);

static int real_open(const char *path, int flags, mode_t mode)
{
	static open_fn next;
	if (!next)
		next = (open_fn)dlsym(RTLD_NEXT, "open");
	return next(path, flags, mode);
}

/* Whether path is ROOT/dev/cpu/N/msr with ROOT/sys/devices/system/cpu/cpuN/online holding 0. */
static int offline_msr(const char *path)
{
	const char *dev = strstr(path, "/dev/cpu/");
	char *end, online[4096], v[4] = "";
	if (!dev)
		return 0;
	long cpu = strtol(dev + 9, &end, 10);
	if (end == dev + 9 || strcmp(end, "/msr") != 0)
		return 0;
	snprintf(online, sizeof(online), "%.*s/sys/devices/system/cpu/cpu%ld/online", (int)(dev - path), path, cpu);
	int fd = real_open(online, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, v, sizeof(v) - 1);
	close(fd);
	return n > 0 && v[0] == '0';
}

static int shim_open(const char *path, int flags, mode_t mode)
{
	if (offline_msr(path)) {
		errno = ENXIO;
		return -1;
	}
	return real_open(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
	va_end(ap);
	return shim_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int __open_2(const char *path, int flags)
{
	return shim_open(path, flags, 0);
}
