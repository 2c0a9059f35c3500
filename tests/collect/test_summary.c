/* SPDX-License-Identifier: GPL-2.0-only */
/* collect's end-of-run summary: exact text for known datapoints and discards. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "text/util.h"
#include "../common/check.h"
#include "summary.h"

static void expect(const char *what, const char *got, const char *want)
{
	CHECK_MSG(!strcmp(got, want), "%s:\n got: %s\nwant: %s", what, got, want);
}

static char *print(const struct run_summary *s, const struct summary_facts *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cJSON *w = summary_warnings(x);
	summary_print(f, s, x, w);
	cJSON_Delete(w);
	fclose(f);
	return buf;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double want_q(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;
	return lo + 1 < n ? v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]) : v[n - 1];
}

int main(void)
{
	isc_set_progname("collect");
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
	       "collect: warning: 77.8% of the 450 attempts were discarded (not_idle 300, other_wake 50): "
	       "the 100 kept datapoints are a biased selection, not a sample of CPU 0's wake-ups: the "
	       "attempts where the CPU happened to be idle when the event was due (a busy CPU's quiet "
	       "moments); they describe the wake-up in those moments only, not how often an event meets "
	       "the conditions that were discarded, nor the latency under them; CPU 0 was busy (not idle) "
	       "when the event was due (CPU 0 is the busiest CPU on small machines: housekeeping, most "
	       "interrupts); try another --cpu\n");
	free(out);
	/* Nothing kept (a time limit ended it): no "kept datapoints" to speak of. */
	struct summary_facts none = x;
	none.kept = 0;
	out = print(s, &none);
	expect("nothing kept", strstr(out, "collect: warning:") ? strstr(out, "collect: warning:") : "",
	       "collect: warning: all 350 attempts were discarded: no datapoint describes CPU 0's wake-ups; "
	       "CPU 0 was busy (not idle) when the event was due (CPU 0 is the busiest CPU on small machines: "
	       "housekeeping, most interrupts); try another --cpu\n");
	free(out);
	/* Half discarded is not "mostly": the shorter warning. */
	x.discards[DISCARD_NOT_IDLE] = 50;
	x.discards[DISCARD_OTHER_WAKE] = 50;
	out = print(s, &x);
	expect("half", strstr(out, "collect: warning:") ? strstr(out, "collect: warning:") : "",
	       "collect: warning: 50.0% of the attempts were discarded, most as not_idle (25.0%), so the "
	       "kept datapoints may be biased: CPU 0 was busy (not idle) when the event was due (CPU 0 "
	       "is the busiest CPU on small machines: housekeeping, most interrupts); try another --cpu\n");
	free(out);
	/* No per-datapoint idle check: the busy share decides; 10% outside the thread warns. */
	struct cpu_busy cb = { .busy_pct = 12.5, .own_pct = 2.5, .other_pct = 10.0, .own_known = true, .ticks = 400 };
	struct summary_facts u = { .cpu = 1, .ncpus = 2, .kept = 100, .duration_s = 4, .ldist_min_ns = 1000000,
				   .idle_unchecked = true, .idle_source = "no states", .busy = &cb };
	out = print(s, &u);
	expect("busy, unchecked", strstr(out, "collect: warning:") ? strstr(out, "collect: warning:") : "",
	       "collect: warning: CPU 1 was busy 10.0% of the run outside the measuring thread (/proc/stat, "
	       "400 ticks) and the method could not check each datapoint (no states): up to that share of "
	       "the datapoints may be wake-ups of a busy CPU (a preemption), not from idle; measure a CPU "
	       "nothing else runs on, or use --method bpf (root), which checks every datapoint\n");
	free(out);
	cb.other_pct = 9.99;
	out = print(s, &u);
	expect("9.99% busy: no warning", strstr(out, "warning") ? "a warning" : "none", "none");
	free(out);
	cb.ticks = 19;
	out = print(s, &u);
	CHECK_MSG(strstr(out, "collect: warning: whether CPU 1 was idle when the events fired is not known: the "
			 "method could not check each datapoint (no states), and the run was too short to measure "
			 "the CPU's busy share (19 ticks of /proc/stat, fewer than 20)\n"), "too few ticks:\n%s", out);
	free(out);
	u.busy = NULL;
	out = print(s, &u);
	CHECK_MSG(strstr(out, "and /proc/stat gave no busy share for the run\n"), "no busy share:\n%s", out);
	free(out);
	u.idle_unchecked = false;   /* checked per datapoint: the busy share is not a warning */
	out = print(s, &u);
	expect("checked", strstr(out, "warning") ? "a warning" : "none", "none");
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
	CHECK_MSG(strstr(out, "collect: warning: 20.6% of the attempts were discarded, most as other_wake "
			 "(20.6%), so the kept datapoints may be biased: something else (another timer, an "
			 "interrupt) woke CPU 1 before the event; try a shorter -l (less time for other "
			 "wake-ups) or another --cpu\n"), "other_wake warning:\n%s", out);
	free(out);

	/* collect --include/--exclude: the filtered are discards in the counts, but not in the
	 * bias warning, which is about the method's (a fifth of all attempts, as above). */
	struct summary_facts fz = { .cpu = 1, .ncpus = 2, .kept = 100, .duration_s = 125,
				   .ldist_min_ns = 20000, .discards = { 10, 0, 0, 0 }, .filtered = 90 };
	out = print(s, &fz);
	expect("filtered", out,
	       "collect: 100 datapoints kept in 2m05s (0.8/s), 100 discarded (50.0% of 200 attempts): "
	       "not_idle 10 (5.0%), filtered 90 (45.0%, by --include/--exclude)\n"
	       "collect: WakeLatency (us, 100 values): min 1.000, med 50.500, 99% 99.010, max 100.000\n");
	free(out);
	fz.discards[DISCARD_NOT_IDLE] = 50;
	out = print(s, &fz);
	CHECK_MSG(strstr(out, "collect: warning: 20.8% of the attempts were discarded, most as not_idle (20.8%)"),
		  "warning with filtered datapoints:\n%s", out);
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
	/* The running median and 99% (progress line) are those of the sorted values, for random
	 * data with ties, sorted and reversed input, and sizes 1 to 2000. */
	srand(7);
	for (int n = 1; n <= 2000; n += n < 20 ? 1 : 97) {
		for (int kind = 0; kind < 3; kind++) {
			s = summary_new();
			double *v = malloc((size_t)n * sizeof(*v));
			for (int i = 0; i < n; i++) {
				uint64_t us = kind == 0 ? (uint64_t)(rand() % 50) : kind == 1 ? (uint64_t)i : (uint64_t)(n - i);
				struct dp_raw d = { .ltime = 1000, .tai = 1000 + us * 1000 + 1 };
				summary_add(s, &d);
				v[i] = (double)(us * 1000 + 1) / 1000.0;
			}
			qsort(v, (size_t)n, sizeof(*v), cmp);
			const char *name = "";
			double med = 0, p99 = 0;
			double want_med = want_q(v, (size_t)n, 0.5), want_p99 = want_q(v, (size_t)n, 0.99);
			int rc = summary_running(s, &name, &med, &p99);
			CHECK_MSG(rc == 0 && med == want_med && p99 == want_p99 && !strcmp(name, "WakeLatency"),
				  "running n=%d kind %d: rc %d med %g p99 %g, want %g %g", n, kind, rc, med, p99,
				  want_med, want_p99);
			free(v);
			summary_free(s);
		}
	}
	s = summary_new();
	const char *nm;
	double a, b;
	CHECK_MSG(summary_running(s, &nm, &a, &b) == -1, "running with no values: a result");
	summary_free(s);
	if (!check_failures)
		printf("summary: all checks passed\n");
	return CHECK_DONE();
}
