/* SPDX-License-Identifier: GPL-2.0-only */
/* Discarded attempts and the biased-run warning (analyze stats, diff, counters, report). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/discards.h"
#include "text/util.h"

/* The reasons info.json records, each with what the kept datapoints then cannot describe. */
static const struct { const char *reason, *meaning; } reasons[] = {
	{ "not_idle", "only the events that found the CPU idle, not those that found it busy" },
	{ "other_wake", "only the wake-ups by the measured event, not those another source "
			"started first" },
	{ "wrong_cpu", "only the events handled on the measured CPU" },
	{ "lost", "only the events that were not lost, which need not be a random sample" },
};

static const char *meaning_of(const char *reason)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strcmp(reasons[i].reason, reason))
			return reasons[i].meaning;
	return "only the attempts that were kept";
}

/* A discard the method made (a datapoint it could not take as it should). collect's
 * "filtered" are datapoints the user's --include/--exclude dropped: a choice, not a bias. */
static bool method_discard(const cJSON *it)
{
	return cJSON_IsNumber(it) && it->valuedouble > 0 && strcmp(it->string, "filtered") != 0;
}

/* The reasons, largest first, as "not_idle 7000, lost 213" (the first 8 with a count). */
static void list_reasons(const cJSON *disc, struct isc_discards *out)
{
	const cJSON *r[8], *it;
	size_t n = 0, at = 0;
	cJSON_ArrayForEach(it, disc)
		if (n < 8 && method_discard(it)) {
			size_t i = n++;
			for (; i > 0 && r[i - 1]->valuedouble < it->valuedouble; i--)
				r[i] = r[i - 1];
			r[i] = it;
		}
	out->main = n ? r[0]->string : NULL;
	for (size_t i = 0; i < n && at < sizeof(out->reasons); i++)
		at += (size_t)snprintf(out->reasons + at, sizeof(out->reasons) - at, "%s%s %.0f",
				       i ? ", " : "", r[i]->string, r[i]->valuedouble);
}

void isc_info_discards(const cJSON *info, struct isc_discards *out)
{
	const cJSON *kept = cJSON_GetObjectItemCaseSensitive(info, "datapoints");
	const cJSON *disc = cJSON_GetObjectItemCaseSensitive(info, "discards"), *it;
	memset(out, 0, sizeof(*out));
	if (!cJSON_IsNumber(kept) || !cJSON_IsObject(disc) || !(kept->valuedouble >= 0))
		return;
	out->known = true;
	out->kept = kept->valuedouble;
	cJSON_ArrayForEach(it, disc)
		if (method_discard(it))
			out->discarded += it->valuedouble;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(disc, "filtered");
	if (cJSON_IsNumber(f) && f->valuedouble > 0)
		out->filtered = f->valuedouble;
	list_reasons(disc, out);
}

double isc_discard_share(const struct isc_discards *d)
{
	double attempts = d->kept + d->filtered + d->discarded;
	return d->known && attempts > 0 && isfinite(attempts) ? d->discarded / attempts : NAN;
}

char *isc_info_biased(const cJSON *info)
{
	struct isc_discards d;
	isc_info_discards(info, &d);
	double share = isc_discard_share(&d);
	if (!(share > ISC_BIASED_SHARE))
		return NULL;
	return isc_xasprintf("%.0f of %.0f attempts (%.1f%%) discarded (%s): the %.0f kept "
			    "datapoints describe %s", d.discarded, d.kept + d.filtered + d.discarded,
			    100 * share, d.reasons, d.kept, meaning_of(d.main));
}

void isc_info_warn_biased(const cJSON *info, const char *path)
{
	const cJSON *said = cJSON_GetObjectItemCaseSensitive(info, "warnings"), *w;
	cJSON_ArrayForEach(w, said)
		if (cJSON_IsString(w))
			isc_warn("%s: the collector warned: %s", path, w->valuestring);
	/* a collector that records "mostly_discarded" said it among its warnings already */
	if (cJSON_GetObjectItemCaseSensitive(info, "mostly_discarded"))
		return;
	char *why = isc_info_biased(info);
	if (why)
		isc_warn("%s: biased run: %s", path, why);
	free(why);
}
