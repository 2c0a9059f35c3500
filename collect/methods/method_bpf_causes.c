// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bpf method's cause columns: what the BPF side counted (causes.bpf.h, wake_rec.h) as
 * struct dp_causes, and what was counted, for info.json.
 */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "method.h"
#include "method_bpf.h"

/* include/linux/interrupt.h, in vector order (the names of /proc/softirqs). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};
#define NSOFTIRQ (sizeof(softirq_names) / sizeof(softirq_names[0]))

/* The /proc/interrupts names of the x86 vectors, or IRQ<n>. */
static void source_name(int32_t src, char *buf, size_t len)
{
	switch (src) {
	case WAKE_CAUSE_SRC_NONE: snprintf(buf, len, "%s", ""); break;
	case WAKE_CAUSE_SRC_TIMER: snprintf(buf, len, "LOC"); break;
	case WAKE_CAUSE_SRC_RESCHED: snprintf(buf, len, "RES"); break;
	case WAKE_CAUSE_SRC_CALL: snprintf(buf, len, "CAL"); break;
	case WAKE_CAUSE_SRC_IRQ_WORK: snprintf(buf, len, "IWI"); break;
	default:
		if (src >= 0)
			snprintf(buf, len, "IRQ%d", (int)src);
		else
			snprintf(buf, len, "%s", "");
	}
}

static void softirq_list(uint32_t mask, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t v = 0; v < 32 && o < len; v++) {
		char other[16];
		const char *name = v < NSOFTIRQ ? softirq_names[v] : other;
		int n;

		if (!(mask >> v & 1))
			continue;
		snprintf(other, sizeof(other), "SOFTIRQ%zu", v);
		n = snprintf(buf + o, len - o, "%s%s", o ? "+" : "", name);
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

void bpf_causes_fill(const struct wake_rec *r, struct dp_causes *k)
{
	memset(k, 0, sizeof(*k));
	k->known = r->causes != 0;
	if (!k->known)
		return;
	k->irq_cnt = r->irq_cnt;
	k->irq_ns = r->irq_ns;
	k->sirq_cnt = r->sirq_cnt;
	k->sirq_ns = r->sirq_ns;
	source_name(r->irq_cnt ? r->irq_top : WAKE_CAUSE_SRC_NONE, k->irq_top, sizeof(k->irq_top));
	softirq_list(r->sirq_mask, k->sirq_types, sizeof(k->sirq_types));
}

void bpf_causes_describe(bool on, bool nmi, cJSON *info)
{
	cJSON *c = cJSON_AddObjectToObject(info, "causes");

	cJSON_AddBoolToObject(c, "counted", on);
	if (!on) {
		cJSON_AddStringToObject(c, "why", "--no-causes");
		return;
	}
	cJSON_AddStringToObject(c, "window", "TBI to max(TAI, TIntr), our timer interrupt and "
				"the HRTIMER softirq that ran our callback excluded");
	cJSON_AddStringToObject(c, "irq", "irq:irq_handler_entry/exit, irq_vectors:*_entry/exit");
	cJSON_AddStringToObject(c, "softirq", "irq:softirq_entry/exit");
	cJSON_AddStringToObject(c, "nmi", nmi ? "nmi:nmi_handler calls that handled an NMI"
				: "not known (no nmi:nmi_handler tracepoint)");
	cJSON_AddStringToObject(c, "steal", "not counted (see docs/bpf.md)");
	cJSON_AddStringToObject(c, "smi_cstate_residency", "not counted by the bpf method (needs MSRs "
				"or the cstate_core/cstate_pkg perf PMUs in the window)");
}
