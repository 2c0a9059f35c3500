/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * File access for counter snapshots, relative to an optional sysroot.
 *
 * With a sysroot DIR (collect --counters --sysroot DIR), every /dev, /proc and /sys path is
 * opened under DIR, MSR writes go there too, and perf_event_open and rdtsc are off (the TSC
 * then comes from MSR 0x10). The msr device takes the MSR number as the file offset, which a
 * regular file cannot mimic (MSRs 0xE7 and 0xE8 would overlap), so when dev/cpu/N/msr is a
 * regular file, MSR a is the 8 little-endian bytes at byte offset 8*a, and a read past the end
 * of the file means the MSR does not exist (as EIO does on the device).
 */
#ifndef IDLESCOPE_COUNTERS_ACCESS_H
#define IDLESCOPE_COUNTERS_ACCESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cnt_sys {
	const char *root;   /* "" for the real system, else the sysroot without trailing '/' */
	bool perf;          /* perf_event_open allowed */
	bool rdtsc;         /* rdtsc allowed */
};

/* Set up access: root NULL or "" means the real system. */
void cnt_sys_init(struct cnt_sys *sys, const char *root);

/* The path of an absolute system path under the sysroot (malloc'd). */
char *cnt_path(const struct cnt_sys *sys, const char *abspath);

/* Read a small text file (procfs and sysfs report size 0, so read to EOF, at most max
 * bytes). Returns the NUL-terminated text, or NULL with errno set. */
char *cnt_read_text(const struct cnt_sys *sys, const char *abspath, size_t max, size_t *len);

/* Read a file holding one unsigned decimal (sysfs). 0 on success, -1 with errno set
 * (EINVAL when it is not a number). */
int cnt_read_u64(const struct cnt_sys *sys, const char *abspath, uint64_t *v);

/* One CPU's MSR access. */
struct cnt_msr {
	int fd;             /* -1 when not open */
	bool regular;       /* a regular file: the 8*a convention */
	int cpu;
};

/* Open /dev/cpu/<cpu>/msr (read-write when possible, else read-only). 0, or -1 with errno. */
int cnt_msr_open(const struct cnt_sys *sys, int cpu, struct cnt_msr *m);
void cnt_msr_close(struct cnt_msr *m);
/* 0 and *v set; -1 when the MSR does not exist or cannot be read (errno set; EIO for absent). */
int cnt_msr_read(const struct cnt_msr *m, uint32_t msr, uint64_t *v);
/* 0 or -1 with errno. */
int cnt_msr_write(const struct cnt_msr *m, uint32_t msr, uint64_t v);

/* The time-stamp counter of the calling CPU (x86 rdtsc); 0 when not built for x86. */
uint64_t cnt_rdtsc(void);
bool cnt_have_rdtsc(void);

#endif
