/* collect's end-of-run summary: exact text for known datapoints and discards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/util.h"
#include "summary.h"

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		failures++;
		fprintf(stderr, "FAIL %s:\n got: %s\nwant: %s\n", what, got, want);
	}
}

static char *print(const struct run_summary *s, const struct summary_facts *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	summary_print(f, s, x);
	fclose(f);
	return buf;
}

int main(void)
{
	is_set_progname("collect");
	struct run_summary *s = summary_new();
	/* WakeLatency 1..100 µs (TAI - LTime), IntrLatency 2x that: med 50.5, 99% 99.01. */
	for (int i = 100; i >= 1; i--) {
		struct dp_raw dp = { .ltime = 1000000, .tai = 1000000 + (uint64_t)i * 1000,
				     .tintr = 1000000 + (uint64_t)i * 2000 };
		summary_add(s, &dp);
	}
	struct summary_facts x = { .cpu = 0, .ncpus = 2, .kept = 100, .duration_s = 4,
				   .ldist_min_ns = 1000000, .discards = { 300, 50, 0, 0 } };
	char *out = print(s, &x);
	expect("busy CPU 0", out,
	       "collect: 100 datapoints kept in 4.0s (25.0/s), 350 discarded (77.8% of 450 attempts): "
	       "not_idle 300 (66.7%), other_wake 50 (11.1%)\n"
	       "collect: WakeLatency (us, 100 values): min 1.000, med 50.500, 99% 99.010, max 100.000\n"
	       "collect: warning: 77.8% of the attempts were discarded, most as not_idle (66.7%), so the "
	       "kept datapoints may be biased: CPU 0 was busy (not idle) when the event was due (CPU 0 "
	       "is the busiest CPU on small machines: housekeeping, most interrupts); try another --cpu\n");
	free(out);

	/* Exactly a fifth discarded: no warning. Other wake-ups on CPU 1 at a fifth plus one. */
	struct summary_facts y = { .cpu = 1, .ncpus = 2, .kept = 100, .duration_s = 125,
				   .ldist_min_ns = 20000, .discards = { 0, 25, 0, 0 } };
	out = print(s, &y);
	expect("a fifth", out,
	       "collect: 100 datapoints kept in 2m05s (0.8/s), 25 discarded (20.0% of 125 attempts): "
	       "other_wake 25 (20.0%)\n"
	       "collect: WakeLatency (us, 100 values): min 1.000, med 50.500, 99% 99.010, max 100.000\n");
	free(out);
	y.discards[DISCARD_OTHER_WAKE] = 26;
	out = print(s, &y);
	if (!strstr(out, "collect: warning: 20.6% of the attempts were discarded, most as other_wake "
		    "(20.6%), so the kept datapoints may be biased: something else (another timer, an "
		    "interrupt) woke CPU 1 before the event; try a shorter -l (less time for other "
		    "wake-ups) or another --cpu\n"))
		failures++, fprintf(stderr, "FAIL other_wake warning:\n%s", out);
	free(out);
	summary_free(s);

	/* Without TAI (IRQs-on states in bpf): IntrLatency; nothing discarded. */
	s = summary_new();
	struct dp_raw dp = { .ltime = 5000, .tintr = 9500 };
	summary_add(s, &dp);
	struct summary_facts z = { .cpu = 3, .ncpus = 4, .kept = 1, .duration_s = 0.5,
				   .ldist_min_ns = 20000 };
	out = print(s, &z);
	expect("IntrLatency", out,
	       "collect: 1 datapoints kept in 0.5s (2.0/s), none discarded\n"
	       "collect: IntrLatency (us, 1 values): min 4.500, med 4.500, 99% 4.500, max 4.500\n");
	free(out);
	summary_free(s);
	if (!failures)
		printf("summary: all checks passed\n");
	return failures != 0;
}
