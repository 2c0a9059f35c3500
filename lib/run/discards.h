/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attempts a run discarded (info.json "discards", by reason) against the datapoints it kept
 * ("datapoints"): a run that discarded more than half of its attempts is biased, since its
 * datapoints describe only the attempts that survived (docs/format.md, "Biased runs").
 */
#ifndef IDLESCOPE_DISCARDS_H
#define IDLESCOPE_DISCARDS_H
#include <stdbool.h>
#include <cjson/cJSON.h>

/* More than this share of the attempts discarded: a biased run. */
#define ISC_BIASED_SHARE 0.5

struct isc_discards {
	bool known;           /* info.json has "datapoints" and a "discards" object */
	double kept;          /* datapoints kept */
	double discarded;     /* the sum over the method's reasons */
	double filtered;      /* collect --include/--exclude's drops: measured, not discarded */
	char reasons[160];    /* "not_idle 7000, lost 213", the largest first; "" when none */
	const char *main;     /* the reason with the most discards, NULL when none */
};

/* What info says; known is false for a wult result or a run without the keys. */
void isc_info_discards(const cJSON *info, struct isc_discards *out);
/* discarded / (kept + filtered + discarded); NaN when unknown or without attempts. */
double isc_discard_share(const struct isc_discards *d);
/* "7213 of 8213 attempts (87.8%) discarded (not_idle 7000, lost 213): the 1000 kept
 * datapoints describe only ..." (malloc'd) when more than ISC_BIASED_SHARE was discarded,
 * else NULL. */
char *isc_info_biased(const cJSON *info);
/* The collector's own end-of-run warnings (info.json "warnings", collect since issue 24), each
 * as "PATH: the collector warned: ..."; and isc_info_biased() as one warning, "PATH: biased
 * run: ...", unless the collector recorded "mostly_discarded" (then it said so itself). */
void isc_info_warn_biased(const cJSON *info, const char *path);

#endif
