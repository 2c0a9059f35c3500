/* SPDX-License-Identifier: GPL-2.0-only */
/* File and MSR access for the settings registry, under an optional fixture sysroot. */
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

char *st_path(const struct isc_settings *s, const char *fmt, ...)
{
	va_list ap;
	char *rel, *p;
	va_start(ap, fmt);
	if (vasprintf(&rel, fmt, ap) < 0)
		abort();
	va_end(ap);
	p = isc_xasprintf("%s%s", s->sysroot, rel);
	free(rel);
	return p;
}

char *st_read(const char *path)
{
	char buf[4096];
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	while (got < sizeof(buf) - 1) {
		ssize_t r = read(fd, buf + got, sizeof(buf) - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' ' || buf[got - 1] == '\t'))
		got--;
	return isc_xstrndup(buf, got);
}

int st_read_u64(const char *path, uint64_t *v)
{
	char *t = st_read(path), *end;
	int ok = t && t[0] >= '0' && t[0] <= '9';
	if (ok) {
		errno = 0;
		*v = strtoull(t, &end, 10);
		ok = !errno && !*end;
	}
	free(t);
	if (!ok)
		errno = EINVAL;
	return ok ? 0 : -1;
}

bool st_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool st_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		p += strspn(p, " \t\n");
		size_t w = strcspn(p, " \t\n");
		if (w == n && !strncmp(p, word, n))
			return true;
		p += w;
	}
	return false;
}

static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0)
		return -1;
	char *line = isc_xasprintf("%s\n", value);
	ssize_t n = write(fd, line, strlen(line));
	int e = errno;
	free(line);
	if (close(fd) < 0 && n >= 0) {
		e = errno;
		n = -1;
	}
	errno = e;
	return n < 0 ? -1 : 0;
}

int st_write(struct isc_settings *s, const char *setting, const char *path, const char *old,
	     const char *value, char *err, size_t len)
{
	if (s->probing)
		return st_probe_file(s, path);
	if (st_journal_file(s, setting, path, old, err, len) < 0)
		return -1;
	if (write_file(path, value) < 0) {
		snprintf(err, len, "%s: writing '%s' to %s: %s", setting, value, path, strerror(errno));
		return -1;
	}
	return 0;
}

int st_write_changed(struct isc_settings *s, const char *setting, const char *path, const char *old,
		     const char *value, char *err, size_t len)
{
	if (!old) {
		snprintf(err, len, "%s: cannot read %s", setting, path);
		return -1;
	}
	if (s->probing)
		return st_probe_file(s, path);
	return strcmp(old, value) ? st_write(s, setting, path, old, value, err, len) : 0;
}

int st_write_plain(const char *path, const char *value)
{
	return write_file(path, value);
}

/* The msr device; a regular file stands for it only in a fixture tree (--sysroot): on the real
 * machine a file any script may have left at /dev/cpu/N/msr is not an MSR. */
static int msr_rw(const char *path, bool fixture, uint32_t msr, uint64_t *v, bool wr)
{
	bool regular;
	int fd = isc_fs_open_dev(path, wr ? O_RDWR : O_RDONLY, fixture, &regular);
	if (fd < 0)
		return -1;
	off_t off = regular ? (off_t)msr * 8 : (off_t)msr;
	ssize_t r = wr ? pwrite(fd, v, 8, off) : pread(fd, v, 8, off);
	int e = r == 8 ? 0 : r < 0 ? errno : EIO;
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

int st_msr_read(const struct isc_settings *s, int cpu, uint32_t msr, uint64_t *v)
{
	char *path = st_path(s, "/dev/cpu/%d/msr", cpu);
	int r = msr_rw(path, s->sysroot[0] != '\0', msr, v, false);
	free(path);
	return r;
}

int st_msr_read_raw(const char *path, bool fixture, uint32_t msr, uint64_t *v)
{
	return msr_rw(path, fixture, msr, v, false);
}

int st_msr_write_raw(const char *path, bool fixture, uint32_t msr, uint64_t v)
{
	return msr_rw(path, fixture, msr, &v, true);
}

int st_msr_write(struct isc_settings *s, const char *setting, int cpu, uint32_t msr, uint64_t mask,
		 uint64_t bits, char *err, size_t len)
{
	uint64_t old;
	char *path = st_path(s, "/dev/cpu/%d/msr", cpu);
	int r = -1;
	if (s->probing)
		r = st_probe_msr(s, path);
	else if (msr_rw(path, s->sysroot[0] != '\0', msr, &old, false) < 0)
		snprintf(err, len, "%s: reading MSR 0x%X of CPU %d (%s): %s", setting, msr, cpu, path, strerror(errno));
	else if (st_journal_msr(s, setting, path, msr, mask, old, err, len) == 0) {
		uint64_t v = (old & ~mask) | (bits & mask);
		r = v == old ? 0 : st_msr_write_raw(path, s->sysroot[0] != '\0', msr, v);
		if (r < 0)
			snprintf(err, len, "%s: writing MSR 0x%X of CPU %d (%s): %s", setting, msr, cpu, path,
				 strerror(errno));
	}
	free(path);
	return r;
}
