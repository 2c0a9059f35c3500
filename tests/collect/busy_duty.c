/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test helper: keep one CPU busy for BUSY_US of every BUSY_US + IDLE_US (IDLE_US 0: always),
 * pinned to it, at SCHED_OTHER, until killed or its parent exits. Usage: busy_duty CPU BUSY_US IDLE_US
 * Prints "ready" once it runs on the CPU, so that a test starts measuring after that.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: busy_duty CPU BUSY_US IDLE_US\n");
		return 2;
	}
	int cpu = atoi(argv[1]);
	long long busy = atoll(argv[2]), idle = atoll(argv[3]);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || busy <= 0 || idle < 0 || sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("busy_duty: CPU, BUSY_US > 0, IDLE_US >= 0");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);   /* a test that dies without its trap still ends us */
	if (getppid() == 1)
		return 1;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		long long end = now_us() + busy;
		while (now_us() < end)
			;
		if (idle) {
			struct timespec ts = { (time_t)(idle / 1000000), (long)(idle % 1000000) * 1000 };
			nanosleep(&ts, NULL);
		}
	}
}
