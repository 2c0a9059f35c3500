// SPDX-License-Identifier: GPL-2.0-only
/*
 * What else ran on the measured CPU during a datapoint's window (included by wake.bpf.c):
 * hard interrupts other than our own timer interrupt (count, handler time, most frequent
 * source), softirqs other than the HRTIMER softirq that ran our callback (count, time,
 * types), NMIs (count) and steal time (steal.bpf.h). The window opens at every idle entry (TBI:
 * the datapoint's TBI is the last one) and closes when the record is emitted, which is
 * max(TAI, TIntr). Off (cfg_causes == 0): nothing is counted and the *_exit programs are
 * not loaded (method_bpf.c).
 */
#ifndef IDLESCOPE_CAUSES_BPF_H
#define IDLESCOPE_CAUSES_BPF_H

#ifdef WAKE_USER_SHIM
#define CAUSES_CFG		/* tests/bpf/wake_logic_test.c sets it */
#else
#define CAUSES_CFG const volatile	/* set by user space before load */
#endif
CAUSES_CFG __u32 cfg_causes;	/* 1: count the causes */

struct wake_causes_win win;

#include "steal.bpf.h"

/* Idle entry on the measured CPU: a new window. */
static void causes_open(void)
{
	if (!cfg_causes)
		return;
	win.irq_ns = win.sirq_ns = 0;
	win.irq_cnt = win.sirq_cnt = win.sirq_mask = 0;
	win.irq_t0 = win.sirq_t0 = 0;
	for (int i = 0; i < WAKE_CAUSE_SRCS; i++)
		win.src_n[i] = 0;
	win.nmi_cnt = 0;
	steal_open();
}

static void causes_count_src(__s32 id)
{
	for (int i = 0; i < WAKE_CAUSE_SRCS; i++) {
		if (win.src_n[i] && win.src_id[i] != id)
			continue;
		win.src_id[i] = id;
		win.src_n[i]++;
		return;
	}
}

/* A hard interrupt handler that is not ours starts on the measured CPU. */
static void causes_irq_entry(__s32 src, __u64 now)
{
	if (!cfg_causes)
		return;
	win.irq_cnt++;
	win.irq_t0 = now;
	win.irq_src = src;
	causes_count_src(src);
}

static void causes_irq_exit(__u64 now)
{
	if (!cfg_causes || !win.irq_t0)
		return;
	win.irq_ns += now - win.irq_t0;
	win.irq_t0 = 0;
}

static void causes_softirq_entry(__u64 now)
{
	if (cfg_causes)
		win.sirq_t0 = now;
}

/* ours: the HRTIMER softirq that ran our callback (not counted). */
static void causes_softirq_exit(__u32 vec, bool ours, __u64 now)
{
	if (!cfg_causes || !win.sirq_t0)
		return;
	if (!ours) {
		win.sirq_cnt++;
		win.sirq_ns += now - win.sirq_t0;
		if (vec < 32)
			win.sirq_mask |= 1u << vec;
	}
	win.sirq_t0 = 0;
}

/* An NMI handler that reported handling an NMI on the measured CPU. */
static void causes_nmi(void)
{
	if (cfg_causes)
		win.nmi_cnt++;
}

/* Fill the record's cause fields at the window's end. */
static void causes_close(struct wake_rec *r)
{
	__u32 best = 0;

	r->causes = cfg_causes;
	r->irq_top = WAKE_CAUSE_SRC_NONE;
	r->nmi_cnt = -1;
	r->irq_cnt = r->sirq_cnt = r->sirq_mask = 0;
	r->irq_ns = r->sirq_ns = 0;
	r->steal_ns = -1;
	if (!cfg_causes)
		return;
	r->irq_cnt = win.irq_cnt;
	r->irq_ns = win.irq_ns;
	r->sirq_cnt = win.sirq_cnt;
	r->sirq_ns = win.sirq_ns;
	r->sirq_mask = win.sirq_mask;
	for (int i = 0; i < WAKE_CAUSE_SRCS; i++) {
		if (win.src_n[i] > best) {
			best = win.src_n[i];
			r->irq_top = win.src_id[i];
		}
	}
	r->nmi_cnt = (__s32)win.nmi_cnt;
	r->steal_ns = steal_close();
}

#endif
