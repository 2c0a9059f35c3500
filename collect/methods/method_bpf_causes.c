// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bpf method's cause columns: what the BPF side counted (causes.bpf.h, wake_rec.h) as
 * struct dp_causes, and what was counted, for info.json.
 */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "cause_names.h"
#include "method.h"
#include "method_bpf.h"

_Static_assert((int)CAUSE_SRC_NONE == (int)WAKE_CAUSE_SRC_NONE && (int)CAUSE_SRC_TIMER == (int)WAKE_CAUSE_SRC_TIMER &&
	       (int)CAUSE_SRC_RESCHED == (int)WAKE_CAUSE_SRC_RESCHED && (int)CAUSE_SRC_CALL == (int)WAKE_CAUSE_SRC_CALL &&
	       (int)CAUSE_SRC_IRQ_WORK == (int)WAKE_CAUSE_SRC_IRQ_WORK, "one source encoding");

void bpf_causes_fill(const struct wake_rec *r, bool steal, struct dp_causes *k)
{
	memset(k, 0, sizeof(*k));
	k->known = r->causes != 0;
	if (!k->known)
		return;
	cause_fill_counts(k, r->irq_cnt, r->irq_ns, r->irq_top, r->sirq_cnt, r->sirq_ns, r->sirq_mask);
	k->steal = steal;
	k->steal_ns = r->steal_ns;
}

void bpf_causes_describe(bool on, bool nmi, const char *steal_why, cJSON *info)
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
	if (steal_why)
		cJSON_AddStringToObject(c, "steal", steal_why);
	else
		cJSON_AddStringToObject(c, "steal", "StealTime: KVM's steal clock of the measured CPU "
					"(steal_time.steal, what kvm_steal_clock() returns) read at TBI and at the "
					"last of TAI and TIntr before the record");
	cJSON_AddStringToObject(c, "smi_cstate_residency", "not counted by the bpf method (needs MSRs "
				"or the cstate_core/cstate_pkg perf PMUs in the window)");
}
