/* SPDX-License-Identifier: GPL-2.0-only */
/* The names of the cause columns' sources and softirq types, for the bpf and hrt/tdt
 * methods (which encode sources alike: an IRQ number, or a negative x86 vector code). */
#ifndef COLLECT_CAUSE_NAMES_H
#define COLLECT_CAUSE_NAMES_H
#include <stddef.h>
#include <stdint.h>

enum cause_src {
	CAUSE_SRC_NONE = -100,
	CAUSE_SRC_TIMER = -1,     /* LOC */
	CAUSE_SRC_RESCHED = -2,   /* RES */
	CAUSE_SRC_CALL = -3,      /* CAL */
	CAUSE_SRC_IRQ_WORK = -4,  /* IWI */
};

/* The /proc/interrupts name of a source ("LOC", "IRQ24"); "" for none. */
void cause_source_name(int32_t src, char *buf, size_t len);
/* The softirq types of a mask of vectors, in vector order: "TIMER+NET_RX+RCU". */
void cause_softirq_list(uint32_t mask, char *buf, size_t len);

struct dp_causes;
/* The IRQ and softirq cells of a record that counted them (bpf and module records alike). */
void cause_fill_counts(struct dp_causes *k, uint32_t irq_cnt, uint64_t irq_ns, int32_t irq_top, uint32_t sirq_cnt,
		       uint64_t sirq_ns, uint32_t sirq_mask);

#endif
