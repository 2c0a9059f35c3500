/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gen_datapoints: write a deterministic wult-style datapoints.csv of N rows to stdout.
 *   gen_datapoints ROWS [SEED] [SHIFT_US]
 * Columns as wult's raw results (14): latencies in us with full double precision,
 * LDist with 3 decimals, residencies with 2. SHIFT_US is added to WakeLatency and
 * IntrLatency (for diff benchmarks). The same arguments always give the same bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state;

static uint64_t next_u64(void)  /* xorshift64* */
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ULL;
}

static double uniform(void)
{
	return (double)(next_u64() >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: gen_datapoints ROWS [SEED] [SHIFT_US]\n");
		return 2;
	}
	long long rows = atoll(argv[1]);
	state = argc > 2 ? strtoull(argv[2], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1 : 1;
	double shift = argc > 3 ? atof(argv[3]) : 0;
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	puts("WakeLatency,SilentTime,IntrLatency,IntrOff,LDist,ReqCState,CC0%,CC1Derived%,CC1%,CC6%,PC2%,PC6%,SMICnt,NMICnt");
	for (long long i = 0; i < rows; i++) {
		double ldist = 100 + uniform() * 3900;
		int c6 = ldist > 800 && uniform() < 0.8;
		double wake = (c6 ? 4.0 : 1.5) + -log(1 - uniform()) * (c6 ? 1.2 : 0.4) + shift;
		if (uniform() < 0.0005)
			wake += 20 + uniform() * 60;  /* rare outliers, as real runs have */
		double intr = wake + (c6 ? 5.0 : 2.4) + uniform();
		double silent = ldist - 10 - uniform() * 40;
		double cc0 = 0.1 + uniform() * 2, cc6 = c6 ? 90 + uniform() * 9 : 0;
		double cc1 = c6 ? uniform() * 2 : 100 - cc0;
		printf("%.17g,%.17g,%.17g,1,%.3f,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,0,0\n", wake, silent,
		       intr, ldist, c6 ? "C6" : "C1E", cc0, c6 ? 0.0 : cc1, cc1, cc6,
		       c6 ? uniform() * 80 : 0.0, c6 ? uniform() * 45 : 0.0);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
