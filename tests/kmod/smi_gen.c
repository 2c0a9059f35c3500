/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest helper of kmod-qemu (tests/kmod/guest-init.sh): causes SMIs by writing the APM control
 * port 0xb2. QEMU's PIIX4 (machine pc) turns such a write into an SMI of the first CPU when the
 * firmware enabled APMC SMIs, which SeaBIOS does; the value 0x5a means nothing to SeaBIOS's SMI
 * handler (not ACPI enable/disable 0xf1/0xf0, not its call32 command). TCG counts each SMI in
 * MSR_SMI_COUNT. usage: smi_gen CPU PERIOD_US SECONDS; stops after SECONDS or at SIGTERM and
 * prints the number of writes.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <time.h>

#define APM_CNT 0xb2
#define SMI_CMD_NOTHING 0x5a

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	struct timespec period;
	unsigned long writes = 0;
	double end;
	long us;

	if (argc != 4) {
		fprintf(stderr, "usage: smi_gen CPU PERIOD_US SECONDS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	us = atol(argv[2]);
	period.tv_sec = us / 1000000;
	period.tv_nsec = (us % 1000000) * 1000;
	if (sched_setaffinity(0, sizeof(set), &set) != 0 || ioperm(APM_CNT, 1, 1) != 0) {
		perror("smi_gen: sched_setaffinity/ioperm");
		return 1;
	}
	signal(SIGTERM, on_term);
	end = now_s() + atof(argv[3]);
	while (!stop && now_s() < end) {
		outb(SMI_CMD_NOTHING, APM_CNT);
		writes++;
		nanosleep(&period, NULL);
	}
	printf("%lu\n", writes);
	return 0;
}
