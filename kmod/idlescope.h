/* SPDX-License-Identifier: GPL-2.0 */
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
struct is_event {
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
};

struct is_ring {
	spinlock_t lock;
	struct idlescope_record *buf;
	u32 size;             /* power of two */
	u32 head, tail;       /* free-running */
	u64 overflow;         /* total dropped */
	u64 lost_pending;     /* dropped since the last pushed record */
	wait_queue_head_t wq;
};

struct is_dev {
	struct mutex lock;            /* configuration, enable/disable */
	atomic_t open;
	bool configured, enabled;
	bool cpu_lost;                /* the measured CPU went offline while enabled */
	struct idlescope_config cfg;
	u64 tsc_hz;
	u64 msr_mask;                 /* readable counters on cfg.cpu */
	bool has_smi;
	char tdt_why[128];
	struct task_struct *armer;
	struct hrtimer timer;         /* hrt: the event; tdt: the guard/timeout */
	struct rnd_state rnd;
	struct is_event ev;
	int idle_state;               /* measured CPU: requested state while idle, else -1 */
	u64 irq_on_states;            /* bit per state entered with IRQs on (learnt) */
	bool tdt_writing;             /* tdt: our own IA32_TSC_DEADLINE write is in progress */
	struct is_ring ring;
	struct mutex read_lock;       /* one reader at a time uses bounce */
	struct idlescope_record *bounce;
	spinlock_t stats_lock;
	struct idlescope_stats stats;
};

extern struct is_dev is_dev;

/* ring.c */
int is_ring_init(struct is_ring *r, u32 size);
void is_ring_free(struct is_ring *r);
void is_ring_reset(struct is_ring *r);
bool is_ring_push(struct is_ring *r, struct idlescope_record *rec);
u32 is_ring_peek(struct is_ring *r, struct idlescope_record *out, u32 max);
void is_ring_advance(struct is_ring *r, u32 n);
bool is_ring_empty(struct is_ring *r);

#define IS_IDLE_EXIT		((unsigned int)-1)	/* PWR_EVENT_EXIT */
#define IS_MSR_TSC_DEADLINE	0x6e0			/* MSR_IA32_TSC_DEADLINE */

/* probes.c */
int is_probes_find(void);
bool is_have_local_timer_tp(void);
bool is_have_write_msr_tp(void);
int is_probes_register(struct is_dev *d);
void is_probes_unregister(struct is_dev *d);

/* counters.c */
u64 is_counters_probe(int cpu, bool *has_smi);
void is_counters_read(u64 mask, bool smi, u64 *msr, u64 *smi_cnt, u64 *nmi_cnt);

static inline bool is_tdt(const struct is_dev *d)
{
	return d->cfg.method == IDLESCOPE_METHOD_TDT;
}

/* LaunchTime in the method's clock: ns for hrt, TSC cycles for tdt. */
static inline u64 is_ev_deadline(const struct is_dev *d)
{
	return is_tdt(d) ? d->ev.tsc_ltime : d->ev.ltime;
}

/* event.c */
void is_event_init(struct is_dev *d);
int is_event_create(struct is_dev *d);
void is_event_launch(struct is_dev *d);
void is_event_stop(struct is_dev *d);

/* logic.c: the decisions, on the measured CPU with interrupts off */
void is_event_complete(struct is_dev *d, int discard);
void is_event_fired(struct is_dev *d, u64 now, u64 tsc);
void is_event_guard(struct is_dev *d);
void is_on_cpu_idle(struct is_dev *d, unsigned int state, unsigned int cpu);
void is_on_local_timer(struct is_dev *d, unsigned int cpu);
void is_on_msr_write(struct is_dev *d, unsigned int cpu, unsigned int msr);

/* tdt.c */
bool is_tdt_available(char *why, size_t len);
bool is_tdt_cpu_ok(unsigned int cpu, char *why, size_t len);
u64 is_tsc_measure_hz(void);
u64 is_tsc_to_ns(u64 tsc, u64 tsc_ref, u64 ns_ref, u64 hz);
int is_tdt_read_deadline(u64 *v);
int is_tdt_write_deadline(struct is_dev *d, u64 v);
bool is_tdt_timer_pending(void);

#endif
