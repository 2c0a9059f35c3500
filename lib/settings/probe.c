/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether a setting this machine has can be set here, found without changing anything: the
 * entry's write() is called with the value in force while s->probing is set, so that every
 * file and MSR it would write is only checked (a read-only attribute, a file the kernel will
 * not open for writing, an msr driver that refuses writes). An entry with a refusal only a
 * real write shows (the ASPM policy) writes its value in force back itself (pci.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "text/util.h"
#include "settings/settings_internal.h"

int st_probe_refuse(struct isc_settings *s, const char *fmt, ...)
{
	va_list ap;
	char *why;
	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (s->probe_why)
		free(why);
	else
		s->probe_why = why;
	return -1;
}

/* A user other than root cannot open root's files for writing; what the mode says still counts. */
static bool may_open(const struct isc_settings *s)
{
	return geteuid() == 0 || s->sysroot[0];
}

bool st_probe_failed(const struct isc_settings *s)
{
	return s->probe_why != NULL;
}

int st_probe_file(struct isc_settings *s, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return st_probe_refuse(s, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return st_probe_refuse(s, "%s is not a regular file", path);
	if (!(st.st_mode & 0222))
		return st_probe_refuse(s, "%s is read-only here (mode %04o)", path, (unsigned)(st.st_mode & 07777));
	if (!may_open(s))
		return 0;
	/* no O_TRUNC: opening for writing changes nothing, and sysfs refuses it for an
	 * attribute without a store method */
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return st_probe_refuse(s, "%s cannot be opened for writing: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/* The msr driver's allow_writes=off, and kernel lockdown, refuse every MSR write (EPERM). */
static int msr_writes_allowed(struct isc_settings *s)
{
	char *p = st_path(s, "/sys/module/msr/parameters/allow_writes"), *v = st_read(p);
	int r = 0;
	if (v && !strcmp(v, "off"))
		r = st_probe_refuse(s, "the msr driver refuses writes (%s is off)", p);
	free(v);
	free(p);
	p = st_path(s, "/sys/kernel/security/lockdown");
	v = st_read(p);
	if (!r && v && (strstr(v, "[integrity]") || strstr(v, "[confidentiality]")))
		r = st_probe_refuse(s, "kernel lockdown refuses MSR writes (%s: %s)", p, v);
	free(v);
	free(p);
	return r;
}

int st_probe_msr(struct isc_settings *s, const char *path)
{
	if (msr_writes_allowed(s) < 0)
		return -1;
	if (!may_open(s))
		return 0;
	bool regular;
	int fd = isc_fs_open_dev(path, O_RDWR, s->sysroot[0] != '\0', &regular);
	if (fd < 0)
		return st_probe_refuse(s, "%s cannot be opened for writing: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/* The value in force of cpu (-1: system) written back in probe mode. */
static int probe_one(struct isc_settings *s, const struct st_def *d, const char *name, int cpu, char *why, size_t len)
{
	char err[1024], *v = d->read(s, name, cpu);
	if (!v) {
		if (cpu >= 0)
			snprintf(why, len, "its value on CPU %d cannot be read, so it could not be put back", cpu);
		else
			snprintf(why, len, "its value cannot be read, so it could not be put back");
		return -1;
	}
	s->probing = true;
	d->write(s, name, v, cpu, err, sizeof(err));
	s->probing = false;
	free(v);
	if (!s->probe_why)
		return 0;   /* a value the write refused for its own reasons is no refusal of the machine's */
	if (cpu >= 0)
		snprintf(why, len, "CPU %d: %s", cpu, s->probe_why);
	else
		snprintf(why, len, "%s", s->probe_why);
	free(s->probe_why);
	s->probe_why = NULL;
	return -1;
}

int st_settable(struct isc_settings *s, const struct st_def *d, const char *name, char *why, size_t len)
{
	if (d->have(s, name, why, len) < 0)
		return -1;
	if (isc_settings_is_held(name))
		return 0;
	if (d->scope != ST_CPU)
		return probe_one(s, d, name, -1, why, len);
	for (size_t i = 0; i < s->ncpus; i++)
		if (probe_one(s, d, name, s->cpus[i], why, len) < 0)
			return -1;
	return 0;
}
