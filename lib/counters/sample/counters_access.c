/* SPDX-License-Identifier: GPL-2.0-only */
/* Sysroot-aware file and MSR access for counter snapshots (see counters_access.h). */
#include "counters/sample/counters_access.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "text/util.h"

void cnt_sys_init(struct cnt_sys *sys, const char *root)
{
	bool real = !root || !*root;
	sys->root = real ? "" : root;
	sys->perf = real;
	sys->rdtsc = real && cnt_have_rdtsc();
}

char *cnt_path(const struct cnt_sys *sys, const char *abspath)
{
	return isc_xasprintf("%s%s", sys->root, abspath);
}

char *cnt_read_text(const struct cnt_sys *sys, const char *abspath, size_t max, size_t *len)
{
	char *path = cnt_path(sys, abspath);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = e;
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = isc_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap >= max) {
				free(buf);
				close(fd);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = isc_xrealloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int cnt_read_u64(const struct cnt_sys *sys, const char *abspath, uint64_t *v)
{
	char *text = cnt_read_text(sys, abspath, 1 << 16, NULL);
	if (!text)
		return -1;
	char *end;
	errno = 0;
	const char *p = text;
	while (*p == ' ' || *p == '\t')
		p++;
	int base = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10;   /* never octal */
	unsigned long long x = (*p >= '0' && *p <= '9') ? strtoull(p, &end, base) : 0;
	bool ok = (*p >= '0' && *p <= '9') && !errno && (*end == '\n' || *end == '\0' || *end == ' ');
	free(text);
	if (!ok) {
		errno = EINVAL;
		return -1;
	}
	*v = x;
	return 0;
}

int cnt_msr_open(const struct cnt_sys *sys, int cpu, struct cnt_msr *m)
{
	char abspath[64];
	snprintf(abspath, sizeof(abspath), "/dev/cpu/%d/msr", cpu);
	char *path = cnt_path(sys, abspath);
	/* a regular file stands for the device only in a --sysroot tree: on the real machine one
	 * that a script left at /dev/cpu/N/msr would read as "never busy" */
	bool fixture = sys->root[0] != '\0';
	m->cpu = cpu;
	m->fd = isc_fs_open_dev(path, O_RDWR, fixture, &m->regular);
	if (m->fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
		m->fd = isc_fs_open_dev(path, O_RDONLY, fixture, &m->regular);
	free(path);
	return m->fd < 0 ? -1 : 0;
}

void cnt_msr_close(struct cnt_msr *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

static off_t msr_offset(const struct cnt_msr *m, uint32_t msr)
{
	return m->regular ? (off_t)msr * 8 : (off_t)msr;
}

int cnt_msr_read(const struct cnt_msr *m, uint32_t msr, uint64_t *v)
{
	unsigned char b[8];
	if (m->fd < 0) {
		errno = EBADF;
		return -1;
	}
	ssize_t r;
	do
		r = pread(m->fd, b, sizeof(b), msr_offset(m, msr));
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof(b)) {
		if (r >= 0)
			errno = EIO;   /* past the end of a fixture file: no such MSR */
		return -1;
	}
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | b[i];
	*v = x;
	return 0;
}

int cnt_msr_write(const struct cnt_msr *m, uint32_t msr, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	ssize_t r;
	do
		r = pwrite(m->fd, b, sizeof(b), msr_offset(m, msr));
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof(b)) {
		if (r >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
uint64_t cnt_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

bool cnt_have_rdtsc(void)
{
	return true;
}
#else
uint64_t cnt_rdtsc(void)
{
	return 0;
}

bool cnt_have_rdtsc(void)
{
	return false;
}
#endif
