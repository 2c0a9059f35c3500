/* SPDX-License-Identifier: GPL-2.0-only */
/* /proc/interrupts and /proc/stat for counter snapshots. */
#include "counters/sample/counters_internal.h"

#include <stdlib.h>
#include <string.h>

#include "text/util.h"

#define PROCFS_MAX (16u << 20)

static void parse_interrupts(char *text, struct cnt_procfs *p)
{
	char *save = NULL;
	char *line = strtok_r(text, "\n", &save);
	if (!line)
		return;
	for (char *t = line; (t = strstr(t, "CPU")); t += 3) {
		p->irq_cpu = isc_xrealloc(p->irq_cpu, (p->irq_ncpus + 1) * sizeof(int));
		p->irq_cpu[p->irq_ncpus++] = atoi(t + 3);
	}
	size_t n = p->irq_ncpus;
	if (!n)
		return;
	p->irq_sum = isc_xcalloc(n, sizeof(uint64_t));
	p->irq_nmi = isc_xcalloc(n, sizeof(uint64_t));
	p->irq_loc = isc_xcalloc(n, sizeof(uint64_t));
	uint64_t *row = isc_xcalloc(n, sizeof(uint64_t));
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *q = colon + 1, *end;
		size_t k = 0;
		for (; k < n; k++) {
			while (*q == ' ')
				q++;
			if (*q < '0' || *q > '9')
				break;
			row[k] = strtoull(q, &end, 10);
			q = end;
		}
		if (k != n)
			continue;   /* "ERR:", "MIS:": not per CPU */
		*colon = '\0';
		char *label = line;
		while (*label == ' ')
			label++;
		for (size_t i = 0; i < n; i++)
			p->irq_sum[i] += row[i];
		if (!strcmp(label, "NMI")) {
			memcpy(p->irq_nmi, row, n * sizeof(uint64_t));
			p->have_nmi = true;
		} else if (!strcmp(label, "LOC")) {
			memcpy(p->irq_loc, row, n * sizeof(uint64_t));
			p->have_loc = true;
		}
	}
	free(row);
	p->irq_ok = true;
}

static void parse_stat(char *text, struct cnt_procfs *p)
{
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "ctxt ", 5)) {
			p->ctxt = strtoull(line + 5, NULL, 10);
			p->have_ctxt = true;
			continue;
		}
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		char *q;
		long cpu = strtol(line + 3, &q, 10);
		size_t i = p->stat_ncpus++;
		p->stat_cpu = isc_xrealloc(p->stat_cpu, p->stat_ncpus * sizeof(int));
		p->stat_vals = isc_xrealloc(p->stat_vals, p->stat_ncpus * sizeof(*p->stat_vals));
		p->stat_nvals = isc_xrealloc(p->stat_nvals, p->stat_ncpus * sizeof(size_t));
		p->stat_cpu[i] = (int)cpu;
		size_t k = 0;
		for (; k < 8; k++) {
			while (*q == ' ')
				q++;
			if (*q < '0' || *q > '9')
				break;
			p->stat_vals[i][k] = strtoull(q, &q, 10);
		}
		p->stat_nvals[i] = k;
	}
	p->stat_ok = true;
}

void cnt_procfs_read(const struct cnt_sys *sys, struct cnt_procfs *p, bool want_irq, bool want_stat)
{
	memset(p, 0, sizeof(*p));
	if (want_irq) {
		char *t = cnt_read_text(sys, "/proc/interrupts", PROCFS_MAX, NULL);
		if (t)
			parse_interrupts(t, p);
		free(t);
	}
	if (want_stat) {
		char *t = cnt_read_text(sys, "/proc/stat", PROCFS_MAX, NULL);
		if (t)
			parse_stat(t, p);
		free(t);
	}
}

void cnt_procfs_free(struct cnt_procfs *p)
{
	free(p->irq_cpu);
	free(p->irq_sum);
	free(p->irq_nmi);
	free(p->irq_loc);
	free(p->stat_cpu);
	free(p->stat_vals);
	free(p->stat_nvals);
	memset(p, 0, sizeof(*p));
}

bool cnt_procfs_value(const struct cnt_procfs *p, const struct cnt_src *src, int cpu, uint64_t *v)
{
	if (src->type == SRC_INTERRUPTS) {
		if (!p->irq_ok)
			return false;
		for (size_t i = 0; i < p->irq_ncpus; i++) {
			if (p->irq_cpu[i] != cpu)
				continue;
			if (!strcmp(src->field, "IRQ"))
				*v = p->irq_sum[i];
			else if (!strcmp(src->field, "NMI") && p->have_nmi)
				*v = p->irq_nmi[i];
			else if (!strcmp(src->field, "LOC") && p->have_loc)
				*v = p->irq_loc[i];
			else
				return false;
			return true;
		}
		return false;
	}
	if (!p->stat_ok)
		return false;
	if (!strcmp(src->field, "ctxt")) {
		*v = p->ctxt;
		return p->have_ctxt;
	}
	static const char *const names[8] = { "user", "nice", "system", "idle", "iowait", "irq",
					      "softirq", "steal" };
	size_t k = 0;
	while (k < 8 && strcmp(names[k], src->field))
		k++;
	for (size_t i = 0; i < p->stat_ncpus; i++)
		if (p->stat_cpu[i] == cpu && k < p->stat_nvals[i]) {
			*v = p->stat_vals[i][k];
			return true;
		}
	return false;
}
