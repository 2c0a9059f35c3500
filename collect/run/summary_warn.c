/* SPDX-License-Identifier: GPL-2.0-only */
/* The end-of-run warnings about what a run's datapoints mean (summary.h: summary_warnings). */
#include "summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

/* The main discard reason: its likely cause and what to try. */
static char *advice(const struct summary_facts *x, int top)
{
	switch (top) {
	case DISCARD_NOT_IDLE:
		return isc_xasprintf("CPU %d was busy (not idle) when the event was due%s; try another --cpu%s",
				    x->cpu, x->cpu == 0 && x->ncpus > 1 ? " (CPU 0 is the busiest CPU on small"
				    " machines: housekeeping, most interrupts)" : "",
				    x->ldist_min_ns < 100000 ? ", or a longer -l (the CPU may not reach idle that soon)" : "");
	case DISCARD_OTHER_WAKE:
		return isc_xasprintf("something else (another timer, an interrupt) woke CPU %d before the event;"
				    " try a shorter -l (less time for other wake-ups) or another --cpu", x->cpu);
	case DISCARD_WRONG_CPU:
		return isc_xstrdup("the event was handled on another CPU; check the interrupt affinity of the"
				  " event source");
	default:
		return isc_xstrdup("records were lost (the reader fell behind); a longer -l lowers the rate");
	}
}

/* Which attempts survive the main discard reason: what the kept datapoints are made of. */
static const char *kept_are(int top)
{
	switch (top) {
	case DISCARD_NOT_IDLE:
		return "the attempts where the CPU happened to be idle when the event was due (a busy CPU's quiet moments)";
	case DISCARD_OTHER_WAKE:
		return "the attempts that nothing else woke first (short LDists are over-represented: a long wait is"
		       " more often cut short)";
	case DISCARD_WRONG_CPU:
		return "the attempts whose event happened to be handled on the measured CPU";
	default:
		return "the attempts whose records were not lost (losses come in bursts under load, so the kept ones"
		       " lean to quiet moments)";
	}
}

static char *discard_warning(const struct summary_facts *x, uint64_t discarded)
{
	uint64_t attempts = x->kept + x->filtered + discarded;  /* filtered: measured, then the user's choice */
	double pct = 100.0 * (double)discarded / (double)attempts;
	int top = 0;
	for (int i = 1; i < DISCARD_NR; i++)
		if (x->discards[i] > x->discards[top])
			top = i;
	char *adv = advice(x, top), *w;
	if (pct <= MOSTLY_DISCARDED_PCT) {
		w = isc_xasprintf("%.1f%% of the attempts were discarded, most as %s (%.1f%%), so the kept"
				 " datapoints may be biased: %s", pct, discard_reason_names[top],
				 100.0 * (double)x->discards[top] / (double)attempts, adv);
		free(adv);
		return w;
	}
	char reasons[256] = "";
	if (!x->kept) {
		w = isc_xasprintf("all %" PRIu64 " attempts were discarded: no datapoint describes CPU %d's wake-ups; %s",
				 attempts, x->cpu, adv);
		free(adv);
		return w;
	}
	size_t n = 0;
	for (int i = 0; i < DISCARD_NR && n < sizeof(reasons); i++)
		if (x->discards[i])
			n += (size_t)snprintf(reasons + n, sizeof(reasons) - n, "%s%s %" PRIu64, n ? ", " : "",
					      discard_reason_names[i], x->discards[i]);
	w = isc_xasprintf("%.1f%% of the %" PRIu64 " attempts were discarded (%s): the %" PRIu64 " kept datapoints"
			 " are a biased selection, not a sample of CPU %d's wake-ups: %s; they describe the wake-up"
			 " in those moments only, not how often an event meets the conditions that were discarded,"
			 " nor the latency under them; %s", pct, attempts, reasons, x->kept, x->cpu, kept_are(top),
			 adv);
	free(adv);
	return w;
}

/* A method that cannot check each datapoint: what the run's busy share says instead. */
static char *busy_warning(const struct summary_facts *x)
{
	const char *why = x->idle_source ? x->idle_source : "not known";
	if (!x->busy)
		return isc_xasprintf("whether CPU %d was idle when the events fired is not known: the method could"
				    " not check each datapoint (%s), and /proc/stat gave no busy share for the run",
				    x->cpu, why);
	if (x->busy->ticks < CPU_BUSY_MIN_TICKS)
		return isc_xasprintf("whether CPU %d was idle when the events fired is not known: the method could"
				    " not check each datapoint (%s), and the run was too short to measure the CPU's"
				    " busy share (%" PRIu64 " ticks of /proc/stat, fewer than %u)", x->cpu, why,
				    x->busy->ticks, CPU_BUSY_MIN_TICKS);
	if (x->busy->other_pct < CPU_BUSY_WARN_PCT)
		return NULL;
	return isc_xasprintf("CPU %d was busy %.1f%% of the run outside the measuring thread (/proc/stat, %" PRIu64
			    " ticks) and the method could not check each datapoint (%s): up to that share of the"
			    " datapoints may be wake-ups of a busy CPU (a preemption), not from idle; measure a CPU"
			    " nothing else runs on, or use --method bpf (root), which checks every datapoint",
			    x->cpu, x->busy->other_pct, x->busy->ticks, why);
}

cJSON *summary_warnings(const struct summary_facts *x)
{
	cJSON *a = cJSON_CreateArray();
	uint64_t discarded = 0;
	for (int i = 0; i < DISCARD_NR; i++)
		discarded += x->discards[i];
	uint64_t attempts = x->kept + x->filtered + discarded;  /* filtered: measured, then the user's choice */
	char *w;
	if (attempts && 100.0 * (double)discarded > DISCARD_WARN_PCT * (double)attempts) {
		w = discard_warning(x, discarded);
		cJSON_AddItemToArray(a, cJSON_CreateString(w));
		free(w);
	}
	if (x->idle_unchecked && x->kept && (w = busy_warning(x))) {
		cJSON_AddItemToArray(a, cJSON_CreateString(w));
		free(w);
	}
	return a;
}
