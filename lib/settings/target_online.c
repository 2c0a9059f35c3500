/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Targets after offline-cpus: targets are resolved once, before the first run, but
 * offline-cpus changes which CPUs are online during the session. A per-CPU setting written
 * after it skips the CPUs it took offline (their files refuse writes), and one written on
 * every online CPU (all, or the default --settings-cpus all) also takes those it brought
 * back. A target naming a CPU by number (cpus=LIST) that offline-cpus takes offline in the
 * same run is refused before anything is written; all, package= and siblings are sets of
 * whatever is online, so they only skip it (unless it leaves them no CPU: refused too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"
#include "settings/target.h"

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static bool has(const int *cpus, size_t n, int cpu)
{
	return n && bsearch(&cpu, cpus, n, sizeof(*cpus), cmp_int) != NULL;   /* (an empty list may be NULL) */
}

/* cpu into (add) or out of the ascending list. */
static void list_put(int **cpus, size_t *n, int cpu, bool add)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if ((*cpus)[i] != cpu)
			(*cpus)[k++] = (*cpus)[i];
	*n = k;
	if (!add)
		return;
	*cpus = isc_xrealloc(*cpus, (*n + 1) * sizeof(**cpus));
	(*cpus)[(*n)++] = cpu;
	qsort(*cpus, *n, sizeof(**cpus), cmp_int);
}

void st_online_changed(struct isc_settings *s, int cpu, bool on)
{
	list_put(&s->went_off, &s->nwent_off, cpu, !on);
	list_put(&s->came_on, &s->ncame_on, cpu, on);
}

int *isc_target_cpus_now(const struct isc_settings *s, const struct isc_target *t, size_t *n)
{
	const int *base = t && t->cpus ? t->cpus : s->cpus;
	size_t nbase = t && t->cpus ? t->ncpus : s->ncpus;
	bool every = t && t->spec ? !strcmp(t->spec, "all") : s->all_cpus;
	int *out = isc_xmalloc((nbase + s->ncame_on + 1) * sizeof(*out));
	*n = 0;
	for (size_t i = 0; i < nbase; i++)
		if (!has(s->went_off, s->nwent_off, base[i]))
			out[(*n)++] = base[i];
	for (size_t i = 0; every && i < s->ncame_on; i++)
		if (!has(base, nbase, s->came_on[i]))
			out[(*n)++] = s->came_on[i];
	qsort(out, *n, sizeof(*out), cmp_int);
	return out;
}

int isc_target_offline_clash(struct isc_settings *s, const char *name, const struct isc_target *t,
			     const char *offline_value, char *why, size_t len)
{
	if (!t->spec || !t->cpus)
		return 0;
	bool by_number = !strncmp(t->spec, "cpus=", 5);
	size_t n, left = 0;
	int *off = st_offline_taken(s, offline_value, &n), rc = 0;
	for (size_t i = 0; i < t->ncpus && !rc; i++) {
		bool gone = has(off, n, t->cpus[i]);
		left += !gone;
		if (gone && by_number) {
			snprintf(why, len, "%s@%s: CPU %d is taken offline by offline-cpus=%s in the same run", name,
				 t->spec, t->cpus[i], offline_value);
			rc = -1;
		}
	}
	if (!rc && !left) {
		snprintf(why, len, "%s@%s: offline-cpus=%s in the same run takes every CPU of the target offline", name,
			 t->spec, offline_value);
		rc = -1;
	}
	free(off);
	return rc;
}
