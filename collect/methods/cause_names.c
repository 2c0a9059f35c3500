// SPDX-License-Identifier: GPL-2.0-only
/* The names of cause sources and softirq types (cause_names.h). */
#include <stdio.h>

#include "cause_names.h"
#include "method.h"

/* include/linux/interrupt.h, in vector order (the names of /proc/softirqs). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};
#define NSOFTIRQ (sizeof(softirq_names) / sizeof(softirq_names[0]))

void cause_source_name(int32_t src, char *buf, size_t len)
{
	switch (src) {
	case CAUSE_SRC_NONE: snprintf(buf, len, "%s", ""); break;
	case CAUSE_SRC_TIMER: snprintf(buf, len, "LOC"); break;
	case CAUSE_SRC_RESCHED: snprintf(buf, len, "RES"); break;
	case CAUSE_SRC_CALL: snprintf(buf, len, "CAL"); break;
	case CAUSE_SRC_IRQ_WORK: snprintf(buf, len, "IWI"); break;
	default:
		if (src >= 0)
			snprintf(buf, len, "IRQ%d", (int)src);
		else
			snprintf(buf, len, "%s", "");
	}
}

void cause_softirq_list(uint32_t mask, char *buf, size_t len)
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

void cause_fill_counts(struct dp_causes *k, uint32_t irq_cnt, uint64_t irq_ns, int32_t irq_top, uint32_t sirq_cnt,
		       uint64_t sirq_ns, uint32_t sirq_mask)
{
	k->irq_cnt = irq_cnt;
	k->irq_ns = irq_ns;
	k->sirq_cnt = sirq_cnt;
	k->sirq_ns = sirq_ns;
	cause_source_name(irq_cnt ? irq_top : CAUSE_SRC_NONE, k->irq_top, sizeof(k->irq_top));
	cause_softirq_list(sirq_mask, k->sirq_types, sizeof(k->sirq_types));
}
