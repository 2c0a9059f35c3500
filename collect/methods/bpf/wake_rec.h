/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between the BPF programs (wake.bpf.c) and user space (method_bpf*.c): the record
 * that travels through the ring buffer, and the LDist queue layout. Only fixed-size types.
 */
#ifndef IDLESCOPE_WAKE_REC_H
#define IDLESCOPE_WAKE_REC_H

/* Pending LDists, filled by user space (producer) and popped by BPF (consumer). */
#define WAKE_LDIST_QLEN 256u	/* power of two */

/* Ring buffer size, and the fill level past which a record wakes the consumer. */
#define WAKE_RB_SIZE (256u * 1024u)
#define WAKE_RB_WAKE_AT (WAKE_RB_SIZE / 8u)

/* bpf_timer_start() flags (uapi since 6.7); spelled out so older headers still build. */
#define WAKE_TIMER_ABS 1ull
#define WAKE_TIMER_CPU_PIN 2ull

enum wake_rec_kind {
	WAKE_REC_DATAPOINT = 1,
	WAKE_REC_DISCARD = 2,
};

/* Values of wake_rec.reason; the same order as enum discard_reason in collect/method.h. */
enum wake_discard {
	WAKE_DISCARD_NOT_IDLE = 0,
	WAKE_DISCARD_OTHER_WAKE = 1,
	WAKE_DISCARD_WRONG_CPU = 2,
};

/* Event sources, chosen by user space at start (wake_cfg.source). */
enum wake_source {
	WAKE_SRC_BPF_TIMER = 0,	/* bpf_timer, BPF_F_TIMER_ABS | BPF_F_TIMER_CPU_PIN */
	WAKE_SRC_THREAD = 1,	/* clock_nanosleep(TIMER_ABSTIME) in a pinned user thread */
};

struct wake_rec {
	__u64 seq;		/* datapoint number, from 1, one per LDist popped */
	__u64 ldist;		/* ns */
	__u64 ltime;		/* LaunchTime, CLOCK_MONOTONIC ns */
	__u64 tbi;		/* before idle */
	__u64 tai;		/* after idle; 0 for POLL (left by need_resched, not by our event) */
	__u64 tintr;		/* first interrupt-side timestamp at or after ltime */
	__s32 req_state;	/* cpuidle state index of the idle period around ltime */
	__u32 cpu;		/* CPU the event fired on */
	__u8 kind;		/* enum wake_rec_kind */
	__u8 reason;		/* enum wake_discard, for WAKE_REC_DISCARD */
	__s8 intr_off;		/* 1: left idle before the interrupt handler ran, 0: after */
	__u8 tintr_src;		/* enum wake_tintr_src */
	__u32 causes;		/* 1: the cause fields below were counted (causes.bpf.h) */
	/* What else ran on the measured CPU from TBI to max(TAI, TIntr), ours excluded. */
	__u64 irq_ns;		/* hard interrupt handlers' time */
	__u64 sirq_ns;		/* softirqs' time */
	__s64 steal_ns;		/* the steal clock's advance over the window; -1 = not known */
	__u32 irq_cnt;		/* hard interrupts */
	__u32 sirq_cnt;		/* softirqs */
	__u32 sirq_mask;	/* bit v: a softirq of vector v ran */
	__s32 irq_top;		/* most frequent source: enum wake_cause_src or an IRQ number */
	__s32 nmi_cnt;		/* NMIs; -1 = not known */
	__u32 pad2;
};

/* Sources of hard interrupts (wake_rec.irq_top): an IRQ number >= 0, or one of these. */
#define WAKE_CAUSE_SRCS 8	/* distinct sources tracked per window (the first 8 seen) */
enum wake_cause_src {
	WAKE_CAUSE_SRC_NONE = -100,
	WAKE_CAUSE_SRC_TIMER = -1,	/* a local timer interrupt that was not ours (LOC) */
	WAKE_CAUSE_SRC_RESCHED = -2,	/* reschedule IPI (RES) */
	WAKE_CAUSE_SRC_CALL = -3,	/* call-function IPI, many or single (CAL) */
	WAKE_CAUSE_SRC_IRQ_WORK = -4,	/* irq_work self-IPI (IWI) */
};

/* Where tintr was taken (diagnostics; the earliest available wins). */
enum wake_tintr_src {
	WAKE_TINTR_LOCAL_TIMER = 1,	/* irq_vectors:local_timer_entry */
	WAKE_TINTR_HRTIMER = 2,		/* timer:hrtimer_expire_entry of our hrtimer */
	WAKE_TINTR_CALLBACK = 3,	/* the bpf_timer callback itself */
};

/* What the soft hrtimer costs on the measured CPU, per expiry of our bpf_timer (wake.bpf.c
 * wake_timer_cb): histograms in .bss, WAKE_HIST_NS wide buckets, the last one open-ended. */
#define WAKE_HIST_NS 100u
#define WAKE_HIST_N 1024u	/* 0 .. 102.3 us, then "or more" */

enum wake_hist {
	WAKE_HIST_TO_CB,	/* local timer interrupt entry -> callback entry */
	WAKE_HIST_SOFTIRQ,	/* the HRTIMER softirq that ran the callback, entry -> exit */
	WAKE_HIST_CB,		/* the callback itself (our programs' own cost) */
	WAKE_HIST_NR
};

/* BPF-side state, in the mmapped .bss (user space only reads it, for diagnostics). */
struct wake_cur {
	__u64 ldist, ltime, tintr;
	__u8 fired;		/* TIntr taken */
	__u8 idled;		/* entered idle since arming */
	__u8 woke_early;	/* left an idle period entered since arming before LTime */
	__u8 await_tai;		/* fired while idle in a state with IRQs on: finish at exit */
	__u8 tintr_src;
	__u8 pad[3];
	__u32 fire_cpu;
};

struct wake_idle {
	__u64 tbi, tai;
	__s32 state;
	__u8 in_idle;
	__u8 irq_in;		/* an interrupt handler ran inside this idle period */
};

/* The causes' window on the BPF side (causes.bpf.h; .bss, read by nobody else). */
struct wake_causes_win {
	__u64 irq_ns, sirq_ns;
	__u64 irq_t0, sirq_t0;	/* handler entries in progress; 0 = none */
	__u32 irq_cnt, sirq_cnt, sirq_mask;
	__s32 src_id[WAKE_CAUSE_SRCS];
	__u32 src_n[WAKE_CAUSE_SRCS];
	__s32 irq_src;
	__u32 nmi_cnt;
	__s64 steal0, steal1;	/* steal clock at TBI and at the last sample since; -1 = none */
};

#endif
