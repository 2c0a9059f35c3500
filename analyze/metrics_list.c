/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats --list-metrics: the datapoints' columns, as wult's --list-metrics. */
#include "metrics_list.h"

#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "text/util.h"

struct metric_info {
	const char *name, *unit, *desc;
};

static const struct metric_info known[] = {
	{ "LDist", "us", "launch distance: how far in the future the event was armed" },
	{ "SilentTime", "us", "LTime - TBI: how long the CPU was idle before the event was due" },
	{ "WakeLatency", "us", "TAI - LTime: from the due time to the CPU running again after idle" },
	{ "IntrLatency", "us", "TIntr - LTime: from the due time to the interrupt handler" },
	{ "IntrOff", "0/1", "1 if the idle state was entered with interrupts off (a flag)" },
	{ "ReqCState", "text", "the requested idle state (POLL, C1, C6, ...)" },
	{ "LTime", "ns", "LaunchTime: when the event was due (CLOCK_MONOTONIC)" },
	{ "TBI", "ns", "time before idle (CLOCK_MONOTONIC)" },
	{ "TAI", "ns", "time after idle (CLOCK_MONOTONIC)" },
	{ "TIntr", "ns", "time of the interrupt handler's entry (CLOCK_MONOTONIC)" },
	{ "SMICnt", "count", "SMIs during the datapoint" },
	{ "NMICnt", "count", "NMIs during the datapoint" },
	{ "IRQCnt", "count", "hard interrupts other than ours from TBI to max(TAI, TIntr)" },
	{ "IRQTime", "us", "their handlers' total time" },
	{ "IRQTop", "text", "their most frequent source: LOC, RES, CAL, IWI or IRQ<n>" },
	{ "SWIRQCnt", "count", "softirqs other than ours from TBI to max(TAI, TIntr)" },
	{ "SWIRQTime", "us", "their total time" },
	{ "SWIRQTypes", "text", "their types, '+'-separated (TIMER+NET_RX ...)" },
	{ "StealTime", "us", "the measured CPU's steal clock advance from TBI to max(TAI, TIntr) (bpf, KVM)" },
	{ "CC1Derived%", "%", "core C1 residency derived as 100 - CC0% - the deeper C-states" },
};

static const struct metric_info *find(const char *name)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

/* CC6% and PC2%: core or package C-state residencies, in %. */
static int residency(const char *name)
{
	size_t n = strlen(name);
	if (n < 4 || name[n - 1] != '%' || (name[0] != 'C' && name[0] != 'P') || name[1] != 'C')
		return 0;
	return name[0];
}

const char *metric_unit(const char *name)
{
	const struct metric_info *m = find(name);
	return m ? m->unit : residency(name) ? "%" : NULL;
}

const char *metric_desc(const char *name)
{
	static __thread char buf[96];
	const struct metric_info *m = find(name);
	if (m)
		return m->desc;
	int r = residency(name);
	if (!r)
		return NULL;
	snprintf(buf, sizeof(buf), "%s C-state %.*s residency during the datapoint",
		 r == 'C' ? "core" : "package", (int)strlen(name) - 2, name + 1);
	return buf;
}

static void row(FILE *f, const char *name, const char *unit, const char *desc)
{
	fprintf(f, "%-14s %-6s %s\n", name, unit ? unit : "?", desc ? desc : "(not known to idlescope)");
}

int list_metrics(FILE *f, char **paths, size_t n)
{
	if (!paths) {
		fprintf(f, "%-14s %-6s %s\n", "Metric", "Unit", "Description");
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			row(f, known[i].name, known[i].unit, known[i].desc);
		row(f, "CC<n>%", "%", "core C-state residency during the datapoint (CC0%, CC1%, CC6%, ...)");
		row(f, "PC<n>%", "%", "package C-state residency during the datapoint (PC2%, PC6%, ...)");
		return ISC_EXIT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		struct isc_run *r;
		struct isc_table *t;
		struct isc_table_opts none = { 0 };
		if (isc_run_open(paths[i], &r) < 0)
			return ISC_EXIT_DATA;
		int rc = isc_table_read(r->dp_path, &none, &t);
		if (rc == 0) {
			fprintf(f, "%s%s (%s):\n%-14s %-6s %s\n", i ? "\n" : "", r->name, r->path,
				"Metric", "Unit", "Description");
			for (size_t c = 0; c < t->ncols; c++)
				row(f, t->cols[c].name, metric_unit(t->cols[c].name), metric_desc(t->cols[c].name));
			isc_table_free(t);
		}
		isc_run_free(r);
		if (rc < 0)
			return ISC_EXIT_DATA;
	}
	return ISC_EXIT_OK;
}
