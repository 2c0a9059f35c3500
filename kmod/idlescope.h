/* SPDX-License-Identifier: GPL-2.0-only */
/* idlescope module internals: one measurement at a time, on one CPU. */
#ifndef IDLESCOPE_H
#define IDLESCOPE_H
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include "idlescope_uapi.h"

/* Event states; only the measured CPU moves ARMED -> CLAIMED -> DONE (cmpxchg). */
enum { EV_FREE, EV_ARMED, EV_CLAIMED, EV_DONE };

/* The event in flight. Written by the armer before arming, then by the probes and the
 * timer handler (all on the measured CPU, interrupts off), read by the armer after DONE. */
#define IDLESCOPE_CAUSE_SRCS 8

/* What else ran on the measured CPU since the last idle entry (causes.c). */
struct idlescope_causes_win {
	u32 irq_cnt, sirq_cnt, sirq_mask;
	u64 irq_ns, sirq_ns;
	u64 irq_t0, sirq_t0;  /* start of the handler running, 0 if none */
	s32 irq_src;          /* its source */
	s32 src_id[IDLESCOPE_CAUSE_SRCS];
	u32 src_n[IDLESCOPE_CAUSE_SRCS];
};

struct idlescope_event {
	int state;
	int discard;          /* -1, or enum idlescope_discard */
	u64 seq, ldist;
	u64 ltime, tsc_ltime; /* ns, TSC */
	u64 tbi, tai, tintr;  /* ns (hrt) or TSC (tdt) until converted */
	u64 tsc_bi, tsc_ai, tsc_intr;
	u64 ai_overhead;
	int req_state;
	bool in_idle, fired;
	bool tdt_ours;        /* tdt: our deadline is the one in IA32_TSC_DEADLINE */
	u64 smi_bi, smi_ai, nmi_bi, nmi_ai;
	u64 msr_bi[IDLESCOPE_MSR_NR], msr_ai[IDLESCOPE_MSR_NR];
	struct idlescope_causes_win win;
};

struct idlescope_ring {
	spinlock_t lock;
	struct idlescope_record *buf;
	u32 size;             /* power of two */
	u32 head, tail;       /* free-running */
	u64 overflow;         /* total dropped */
	u64 lost_pending;     /* dropped since the last pushed record */
	wait_queue_head_t wq;
};

struct idlescope_dev {
	struct mutex lock;            /* configuration, enable/disable */
	atomic_t open;
	bool configured, enabled;
	bool cpu_lost;                /* the measured CPU went offline while enabled */
	struct idlescope_config cfg;
	u64 tsc_hz;
	u64 msr_mask;                 /* readable counters on cfg.cpu */
	bool has_smi;
	bool causes;                  /* count the causes (config without IDLESCOPE_CFG_NO_CAUSES) */
	char tdt_why[128];
	struct task_struct *armer;
	struct hrtimer timer;         /* hrt: the event; tdt: the guard/timeout */
	struct rnd_state rnd;
	struct idlescope_event ev;
	int idle_state;               /* measured CPU: requested state while idle, else -1 */
	u64 irq_on_states;            /* bit per state entered with IRQs on (learnt) */
	bool tdt_writing;             /* tdt: our own IA32_TSC_DEADLINE write is in progress */
	struct idlescope_ring ring;
	struct mutex read_lock;       /* one reader at a time uses bounce */
	struct idlescope_record *bounce;
	spinlock_t stats_lock;
	struct idlescope_stats stats;
};

extern struct idlescope_dev idlescope_dev;

/* ring.c */
int idlescope_ring_init(struct idlescope_ring *r, u32 size);
void idlescope_ring_free(struct idlescope_ring *r);
void idlescope_ring_reset(struct idlescope_ring *r);
bool idlescope_ring_push(struct idlescope_ring *r, struct idlescope_record *rec);
u32 idlescope_ring_peek(struct idlescope_ring *r, struct idlescope_record *out, u32 max);
void idlescope_ring_advance(struct idlescope_ring *r, u32 n);
bool idlescope_ring_empty(struct idlescope_ring *r);

#define IDLESCOPE_IDLE_EXIT		((unsigned int)-1)	/* PWR_EVENT_EXIT */
#define IDLESCOPE_MSR_TSC_DEADLINE	0x6e0			/* MSR_IA32_TSC_DEADLINE */

struct tracepoint;
/* causes.c: what else ran in the window; the probes count only while an event is armed */
void idlescope_causes_find(struct tracepoint *tp);
int idlescope_causes_register(struct idlescope_dev *d);
void idlescope_causes_unregister(struct idlescope_dev *d);
void idlescope_causes_open(struct idlescope_dev *d);
void idlescope_causes_ours(struct idlescope_dev *d);
void idlescope_causes_timer_entry(struct idlescope_dev *d, unsigned int cpu);
void idlescope_causes_fill(const struct idlescope_dev *d, struct idlescope_record *rec);

/* probes.c */
int idlescope_probes_find(void);
bool idlescope_have_local_timer_tp(void);
bool idlescope_have_write_msr_tp(void);
int idlescope_probes_register(struct idlescope_dev *d);
void idlescope_probes_unregister(struct idlescope_dev *d);

/* counters.c */
u64 idlescope_counters_probe(int cpu, bool *has_smi);
void idlescope_counters_read(u64 mask, bool smi, u64 *msr, u64 *smi_cnt, u64 *nmi_cnt);

static inline bool idlescope_is_tdt(const struct idlescope_dev *d)
{
	return d->cfg.method == IDLESCOPE_METHOD_TDT;
}

/* LaunchTime in the method's clock: ns for hrt, TSC cycles for tdt. */
static inline u64 idlescope_ev_deadline(const struct idlescope_dev *d)
{
	return idlescope_is_tdt(d) ? d->ev.tsc_ltime : d->ev.ltime;
}

/* event.c */
void idlescope_event_init(struct idlescope_dev *d);
int idlescope_event_create(struct idlescope_dev *d);
void idlescope_event_launch(struct idlescope_dev *d);
void idlescope_event_stop(struct idlescope_dev *d);

/* logic.c: the decisions, on the measured CPU with interrupts off */
void idlescope_event_complete(struct idlescope_dev *d, int discard);
void idlescope_event_fired(struct idlescope_dev *d, u64 now, u64 tsc);
void idlescope_event_guard(struct idlescope_dev *d);
void idlescope_on_cpu_idle(struct idlescope_dev *d, unsigned int state, unsigned int cpu);
void idlescope_on_local_timer(struct idlescope_dev *d, unsigned int cpu);
void idlescope_on_msr_write(struct idlescope_dev *d, unsigned int cpu, unsigned int msr);

/* tdt.c */
bool idlescope_tdt_available(char *why, size_t len);
bool idlescope_tdt_cpu_ok(unsigned int cpu, char *why, size_t len);
u64 idlescope_tsc_measure_hz(void);
u64 idlescope_tsc_to_ns(u64 tsc, u64 tsc_ref, u64 ns_ref, u64 hz);
int idlescope_tdt_read_deadline(u64 *v);
int idlescope_tdt_write_deadline(struct idlescope_dev *d, u64 v);
bool idlescope_tdt_timer_pending(void);

#endif
