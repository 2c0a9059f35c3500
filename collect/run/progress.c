/* SPDX-License-Identifier: GPL-2.0-only */
/* One progress line on a terminal: datapoints, rate, discards, elapsed, ETA. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "collect.h"
#include "summary.h"
#include "time/clock.h"
#include "text/util.h"

#define PROGRESS_EVERY_NS (250 * 1000000ull)

struct progress {
	uint64_t start_ns, last_ns;
	uint64_t count, time_limit_ns;
	bool shown;
};

struct progress *progress_start(uint64_t count, uint64_t time_limit_ns, bool quiet)
{
	if (quiet || !isatty(STDERR_FILENO) || getenv("IDLESCOPE_NO_PROGRESS"))
		return NULL;  /* (set by collect --cpu LIST for its children) */
	struct progress *p = isc_xcalloc(1, sizeof(*p));
	p->start_ns = p->last_ns = isc_mono_ns();
	p->count = count;
	p->time_limit_ns = time_limit_ns;
	return p;
}

void progress_update(struct progress *p, uint64_t dps, uint64_t discards,
		     const struct run_summary *sum, bool force)
{
	if (!p)
		return;
	uint64_t now = isc_mono_ns();
	if (!force && now - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = now;
	double el = (double)(now - p->start_ns) / 1e9, rate = el > 0 ? (double)dps / el : 0;
	double eta = -1;
	if (p->count && rate > 0)
		eta = (double)(p->count - (dps < p->count ? dps : p->count)) / rate;
	if (p->time_limit_ns) {
		double left = (double)p->time_limit_ns / 1e9 - el;
		if (left < 0)
			left = 0;
		if (eta < 0 || left < eta)
			eta = left;
	}
	char e[32], t[32] = "?";
	isc_fmt_duration(e, sizeof(e), el, 0);
	if (eta >= 0)
		isc_fmt_duration(t, sizeof(t), eta, 0);
	char lat[96] = "";
	const char *name;
	double med, p99;
	if (sum && summary_running(sum, &name, &med, &p99) == 0)
		snprintf(lat, sizeof(lat), ", %s med %.3f us, 99%% %.3f us", name, med, p99);
	fprintf(stderr, "\r%s: %" PRIu64 " datapoints, %.1f/s, %" PRIu64 " discarded, %s elapsed, ETA %s%s\033[K",
		isc_progname(), dps, rate, discards, e, t, lat);
	p->shown = true;
}

void progress_end(struct progress *p)
{
	if (!p)
		return;
	if (p->shown)
		fputc('\n', stderr);
	free(p);
}
