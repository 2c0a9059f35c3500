/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmod_check: talks to /dev/idlescope directly, for the QEMU test of the kernel module
 * (tests/kmod/run-qemu.sh). It checks what collect cannot reach: the module's own validation
 * (collect refuses bad input before the module sees it), root-only access, one opener at a
 * time, and ring-buffer overflow accounting. Prints one line per check.
 *
 *   kmod_check config CPU METHOD MIN_NS MAX_NS   CONFIG ioctl; prints "config: ok|E..."
 *   kmod_check nobody                            open as uid 65534; prints "open: ok|E..."
 *   kmod_check busy                              second open while open; prints "second open: ..."
 *   kmod_check overflow CPU                      16-record ring overrun, lost counts and seq gaps
 *   kmod_check efault CPU                        a read into a bad buffer loses no record
 *   kmod_check hog CPU SECONDS                   a SCHED_FIFO busy loop on CPU for SECONDS
 *   kmod_check hotplug SECONDS CPU...            CONFIG/ENABLE/DISABLE cycles on the CPUs in turn
 *                                                (while the guest hot-plugs one of them)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../kmod/idlescope_uapi.h"

#define DEV "/dev/idlescope"

static const char *errname(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EINVAL, "EINVAL" }, { ENODEV, "ENODEV" }, { ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EBUSY, "EBUSY" }, { EACCES, "EACCES" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EFAULT, "EFAULT" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	return strerror(e);
}

static int open_dev(void)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("open: %s\n", errname(errno));
		exit(1);
	}
	return fd;
}

static int cmd_config(char **av)
{
	int fd = open_dev();
	struct idlescope_config c = { .cpu = (uint32_t)atoi(av[0]), .method = (uint32_t)atoi(av[1]),
				      .ldist_min_ns = strtoull(av[2], NULL, 0), .ldist_max_ns = strtoull(av[3], NULL, 0),
				      .seed = 1 };
	struct idlescope_info info;

	if (ioctl(fd, IDLESCOPE_IOC_CONFIG, &c) == 0) {
		printf("config: ok\n");
		return 0;
	}
	printf("config: %s", errname(errno));
	if (errno == EOPNOTSUPP && ioctl(fd, IDLESCOPE_IOC_INFO, &info) == 0)
		printf(" (%s)", info.tdt_why);
	printf("\n");
	return 0;
}

static int cmd_nobody(void)
{
	if (setgid(65534) < 0 || setuid(65534) < 0) {
		perror("setuid");
		return 1;
	}
	int fd = open(DEV, O_RDWR);
	printf("open: %s\n", fd < 0 ? errname(errno) : "ok");
	return 0;
}

static int cmd_busy(void)
{
	int fd = open_dev();
	int fd2 = open(DEV, O_RDWR);
	printf("second open: %s\n", fd2 < 0 ? errname(errno) : "ok");
	close(fd);
	return 0;
}

static int read_records(int fd, struct idlescope_record *r, size_t max)
{
	ssize_t n = read(fd, r, max * sizeof(*r));
	return n < 0 ? -1 : (int)(n / (ssize_t)sizeof(*r));
}

static uint64_t stats_total(const struct idlescope_stats *st)
{
	uint64_t n = st->datapoints;
	for (int i = 0; i < IDLESCOPE_DISCARD_NR; i++)
		n += st->discards[i];
	return n;
}

/* The ring holds 16 records (module loaded with ring_records=16); events every 20 us
 * overrun it while nobody reads. Then: the 16 queued records are events 0..15 with nothing
 * lost before them; the record after them (pushed once there was room again) reports the
 * dropped ones in .lost and its seq skips exactly that many; stats.overflow agrees. */
static int cmd_overflow(char **av)
{
	int fd = open_dev();
	struct idlescope_config c = { .cpu = (uint32_t)atoi(av[0]), .method = IDLESCOPE_METHOD_HRT,
				      .ldist_min_ns = 20000, .ldist_max_ns = 20000, .seed = 1 };
	struct idlescope_record r[64];
	struct idlescope_stats st;
	int n = 0, got, ok = 1;

	if (ioctl(fd, IDLESCOPE_IOC_CONFIG, &c) < 0 || ioctl(fd, IDLESCOPE_IOC_ENABLE) < 0) {
		printf("overflow: setup failed: %s\n", errname(errno));
		return 1;
	}
	nanosleep(&(struct timespec){ 1, 0 }, NULL);
	while (n < 17 && (got = read_records(fd, r + n, (size_t)(64 - n))) > 0)
		n += got;
	if (n < 17) {
		printf("overflow: read %d records: %s\n", n, strerror(errno));
		return 1;
	}
	for (int i = 0; i < 16; i++)
		ok &= r[i].lost == 0 && r[i].seq == (uint64_t)i;
	ok &= r[16].lost > 0 && r[16].seq - r[15].seq - 1 == r[16].lost;
	printf("overflow: first 16 records: seq 0..15 %s; record 17: seq %llu lost %llu (gap %llu)\n",
	       ok ? "as expected" : "WRONG", (unsigned long long)r[16].seq, (unsigned long long)r[16].lost,
	       (unsigned long long)(r[16].seq - r[15].seq - 1));
	ioctl(fd, IDLESCOPE_IOC_DISABLE);
	if (ioctl(fd, IDLESCOPE_IOC_STATS, &st) < 0)
		return 1;
	ok &= st.overflow >= r[16].lost && st.discards[IDLESCOPE_DISCARD_LOST] >= st.overflow;
	/* each finished event counted once: as a datapoint, a discard, or overflow (in lost) */
	uint64_t counted = stats_total(&st);
	ok &= counted == st.armed;
	printf("overflow: stats overflow %llu, lost discards %llu, armed %llu, counted %llu\n",
	       (unsigned long long)st.overflow, (unsigned long long)st.discards[IDLESCOPE_DISCARD_LOST],
	       (unsigned long long)st.armed, (unsigned long long)counted);
	printf("overflow: %s\n", ok ? "ok" : "FAILED");
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Records measured, then DISABLE; a read into an unmapped buffer fails with EFAULT and must
 * leave the records on the ring: the next read starts at seq 0 and gets all of them. */
static int cmd_efault(char **av)
{
	int fd = open_dev();
	struct idlescope_config c = { .cpu = (uint32_t)atoi(av[0]), .method = IDLESCOPE_METHOD_HRT,
				      .ldist_min_ns = 1000000, .ldist_max_ns = 1000000, .seed = 1 };
	static struct idlescope_record r[4096];
	struct idlescope_stats st;
	size_t n = 0;
	ssize_t got;

	void *bad = mmap(NULL, 65536, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad == MAP_FAILED || ioctl(fd, IDLESCOPE_IOC_CONFIG, &c) < 0 || ioctl(fd, IDLESCOPE_IOC_ENABLE) < 0) {
		printf("efault: setup failed: %s\n", errname(errno));
		return 1;
	}
	nanosleep(&(struct timespec){ 0, 300000000 }, NULL);
	ioctl(fd, IDLESCOPE_IOC_DISABLE);
	got = read(fd, bad, 65536);
	printf("efault: bad buffer: %s\n", got < 0 ? errname(errno) : "no error");
	while ((got = read(fd, r + n, (sizeof(r) / sizeof(r[0]) - n) * sizeof(r[0]))) > 0)
		n += (size_t)got / sizeof(r[0]);
	if (ioctl(fd, IDLESCOPE_IOC_STATS, &st) < 0)
		return 1;
	int ok = n > 0 && r[0].seq == 0 && n == stats_total(&st);
	printf("efault: %zu records after it, first seq %llu, stats %llu: %s\n", n,
	       n ? (unsigned long long)r[0].seq : 0ull, (unsigned long long)stats_total(&st), ok ? "ok" : "FAILED");
	return 0;
}

/* A real-time busy loop on CPU for SECONDS (the guest turns RT throttling off): the armer,
 * a normal kthread there, cannot run, and nothing reaches collect. */
static int cmd_hog(char **av)
{
	cpu_set_t set;
	struct sched_param sp = { .sched_priority = 50 };
	double end;

	CPU_ZERO(&set);
	CPU_SET(atoi(av[0]), &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0 || sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		printf("hog: %s\n", strerror(errno));
		return 1;
	}
	end = mono_s() + atof(av[1]);
	while (mono_s() < end)
		;
	return 0;
}


/* ENABLE/DISABLE cycles for SECONDS, the measured CPU taken in turn from the list, with short
 * LDists (fast events while DISABLE unregisters the probes). A CPU that is offline at CONFIG or
 * ENABLE gives ENODEV (counted); any other error fails. Prints one line per second, then
 * "hotplug: ok ..." (a hang leaves the last progress line as the only trace). */
static int cmd_hotplug(int ac, char **av)
{
	double end = mono_s() + atof(av[0]), next_report = mono_s() + 1;
	unsigned long cycles = 0, enabled = 0, enodev = 0;
	struct idlescope_record r[16];
	int fd = open_dev(), err = 0;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	for (int i = 0; mono_s() < end; i++) {
		struct idlescope_config c = { .cpu = (uint32_t)atoi(av[1 + i % (ac - 1)]), .method = IDLESCOPE_METHOD_HRT,
					      .ldist_min_ns = 20000, .ldist_max_ns = 200000, .seed = (uint64_t)i };
		int rc = ioctl(fd, IDLESCOPE_IOC_CONFIG, &c);
		if (rc == 0)
			rc = ioctl(fd, IDLESCOPE_IOC_ENABLE);
		if (rc < 0 && errno != ENODEV) {
			printf("hotplug: cycle %d cpu %u: %s\n", i, c.cpu, errname(errno));
			err = 1;
			break;
		}
		enodev += rc < 0;
		enabled += rc == 0;
		if (rc == 0) {
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
			if (read(fd, r, sizeof(r)) < 0 && errno != ENODEV && errno != EAGAIN) {
				printf("hotplug: cycle %d cpu %u: read: %s\n", i, c.cpu, errname(errno));
				err = 1;
			}
		}
		if (ioctl(fd, IDLESCOPE_IOC_DISABLE) < 0) {
			printf("hotplug: cycle %d: DISABLE: %s\n", i, errname(errno));
			err = 1;
		}
		if (err)
			break;
		cycles++;
		if (mono_s() >= next_report) {
			printf("hotplug: progress %lu cycles\n", cycles);
			next_report += 1;
		}
	}
	close(fd);
	printf("hotplug: %s %lu cycles, %lu enabled, %lu ENODEV\n", err ? "FAILED" : "ok", cycles, enabled, enodev);
	return err;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 6 && !strcmp(argv[1], "config"))
		return cmd_config(argv + 2);
	if (argc == 2 && !strcmp(argv[1], "nobody"))
		return cmd_nobody();
	if (argc == 2 && !strcmp(argv[1], "busy"))
		return cmd_busy();
	if (argc == 3 && !strcmp(argv[1], "overflow"))
		return cmd_overflow(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "efault"))
		return cmd_efault(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "hog"))
		return cmd_hog(argv + 2);
	if (argc >= 4 && !strcmp(argv[1], "hotplug"))
		return cmd_hotplug(argc - 2, argv + 2);
	fprintf(stderr, "usage: kmod_check config CPU METHOD MIN_NS MAX_NS | nobody | busy | overflow CPU | "
		"efault CPU | hog CPU SECONDS | hotplug SECONDS CPU...\n");
	return 2;
}
