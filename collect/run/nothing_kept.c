/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run that keeps nothing stops: when every datapoint is discarded (an LDist too short for
 * the CPU to go idle, `-l 1us`; a CPU that something else keeps busy), a method would go on
 * discarding forever. The methods report their discards here while they wait (method.h,
 * collect_watch_discards); after NK_ATTEMPTS discarded attempts and NK_SECONDS without a kept
 * datapoint the run is stopped, and the core says why with the discard counts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "collect.h"
#include "text/util.h"

static struct nothing_kept watch;

void nothing_kept_reset(struct nothing_kept *w, const uint64_t discards[DISCARD_NR], uint64_t now_ns)
{
	memcpy(w->at_reset, discards, sizeof(w->at_reset));
	w->since_ns = now_ns;
	w->tripped = false;
}

bool nothing_kept_check(struct nothing_kept *w, const uint64_t discards[DISCARD_NR], uint64_t now_ns)
{
	uint64_t n = 0;
	for (int i = 0; i < DISCARD_NR; i++)
		n += discards[i] - w->at_reset[i];
	if (n >= NK_ATTEMPTS && now_ns - w->since_ns >= NK_SECONDS * NSEC_PER_SEC)
		w->tripped = true;
	return w->tripped;
}

void nothing_kept_message(const struct nothing_kept *w, const uint64_t discards[DISCARD_NR],
			  uint64_t now_ns, char *buf, size_t len)
{
	uint64_t d[DISCARD_NR], n = 0;
	for (int i = 0; i < DISCARD_NR; i++)
		n += d[i] = discards[i] - w->at_reset[i];
	snprintf(buf, len, "no datapoint kept in %.1f s: all %" PRIu64 " attempts were discarded "
		 "(not_idle %" PRIu64 ", other_wake %" PRIu64 ", wrong_cpu %" PRIu64 ", lost %" PRIu64
		 "); the CPU does not go idle before LaunchTime: give a longer LDist (-l) or a CPU "
		 "that nothing else keeps busy", (double)(now_ns - w->since_ns) / 1e9, n,
		 d[DISCARD_NOT_IDLE], d[DISCARD_OTHER_WAKE], d[DISCARD_WRONG_CPU], d[DISCARD_LOST]);
}

struct nothing_kept *collect_nothing_kept(void)
{
	return &watch;
}

void collect_watch_discards(const uint64_t discards[DISCARD_NR])
{
	if (!watch.tripped && nothing_kept_check(&watch, discards, isc_mono_ns()))
		collect_stop_requested = 1;
}
