// SPDX-License-Identifier: GPL-2.0-only
/* The armer: a kthread bound to the measured CPU arms one event at a time at
 * LaunchTime = now + LDist, waits until the probes and the timer handler have finished
 * it, and turns it into a record. */
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/timekeeping.h>
#include "compat.h"
#include "idlescope.h"

/* beyond LTime: the event is lost; its record reaches collect well within collect's silence
 * limit (LDist max + 1 s) */
#define HRT_LOST_TIMEOUT_NS	(NSEC_PER_SEC / 2)
#define TDT_GUARD_NS		(5 * NSEC_PER_MSEC)

static enum hrtimer_restart timer_fn(struct hrtimer *t)
{
	struct idlescope_dev *d = container_of(t, struct idlescope_dev, timer);
	struct idlescope_event *ev = &d->ev;
	u64 now = ktime_get_ns(), tsc = rdtsc();

	if (READ_ONCE(ev->state) != EV_ARMED)
		return HRTIMER_NORESTART;
	if (smp_processor_id() != d->cfg.cpu) {
		idlescope_event_complete(d, IDLESCOPE_DISCARD_WRONG_CPU);
	} else if (idlescope_is_tdt(d)) {
		idlescope_event_guard(d);   /* our deadline never showed up */
	} else {
		idlescope_causes_ours(d);
		idlescope_event_fired(d, now, tsc);
	}
	return HRTIMER_NORESTART;
}

/* Uniform in [min, max] without modulo bias. */
static u64 pick_ldist(struct idlescope_dev *d)
{
	u64 span = d->cfg.ldist_max_ns - d->cfg.ldist_min_ns + 1, r, limit;

	limit = U64_MAX - (U64_MAX % span);
	do {
		r = ((u64)prandom_u32_state(&d->rnd) << 32) | prandom_u32_state(&d->rnd);
	} while (r >= limit);
	return d->cfg.ldist_min_ns + r % span;
}

static void arm_event(struct idlescope_dev *d, u64 seq)
{
	struct idlescope_event *ev = &d->ev;
	u64 ldist = pick_ldist(d), ns0, tsc0, expires;
	unsigned long flags;

	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->ldist = ldist;
	ev->discard = -1;
	ev->req_state = -1;
	local_irq_save(flags);
	ns0 = ktime_get_ns();
	tsc0 = rdtsc_ordered();
	ev->ltime = ns0 + ldist;
	ev->tsc_ltime = tsc0 + mul_u64_u64_div_u64(ldist, d->tsc_hz, NSEC_PER_SEC);
	smp_store_release(&ev->state, EV_ARMED);
	expires = ev->ltime + (idlescope_is_tdt(d) ? TDT_GUARD_NS : 0);
	hrtimer_start(&d->timer, ns_to_ktime(expires), HRTIMER_MODE_ABS_PINNED_HARD);
	local_irq_restore(flags);
}

static u64 ev_ns(const struct idlescope_dev *d, u64 t)
{
	const struct idlescope_event *ev = &d->ev;

	if (!t || !idlescope_is_tdt(d))
		return t;
	return idlescope_tsc_to_ns(t, ev->tsc_ltime, ev->ltime, d->tsc_hz);
}

static void fill_counters(const struct idlescope_dev *d, struct idlescope_record *rec)
{
	const struct idlescope_event *ev = &d->ev;
	int i;

	rec->nmi_cnt = ev->nmi_ai - ev->nmi_bi;
	rec->flags |= IDLESCOPE_F_NMI;
	if (d->has_smi) {
		rec->smi_cnt = ev->smi_ai - ev->smi_bi;
		rec->flags |= IDLESCOPE_F_SMI;
	}
	rec->msr_mask = d->msr_mask;
	for (i = 0; i < IDLESCOPE_MSR_NR; i++)
		if (d->msr_mask & BIT_ULL(i))
			rec->msr_delta[i] = ev->msr_ai[i] - ev->msr_bi[i];
}

static void make_record(const struct idlescope_dev *d, struct idlescope_record *rec)
{
	const struct idlescope_event *ev = &d->ev;

	memset(rec, 0, sizeof(*rec));
	rec->seq = ev->seq;
	rec->ldist = ev->ldist;
	rec->ltime = ev->ltime;
	rec->tsc_ltime = ev->tsc_ltime;
	rec->req_state = ev->req_state;
	if (ev->discard >= 0) {
		rec->type = IDLESCOPE_REC_DISCARD;
		rec->reason = ev->discard;
		return;
	}
	rec->type = IDLESCOPE_REC_DATAPOINT;
	rec->tbi = ev_ns(d, ev->tbi);
	rec->tai = ev_ns(d, ev->tai);
	rec->tintr = ev_ns(d, ev->tintr);
	rec->tsc_bi = ev->tsc_bi;
	rec->tsc_ai = ev->tsc_ai;
	rec->tsc_intr = ev->tsc_intr;
	rec->ai_overhead = idlescope_is_tdt(d) ? mul_u64_u64_div_u64(ev->ai_overhead, NSEC_PER_SEC, d->tsc_hz)
				     : ev->ai_overhead;
	if (ev->tsc_ai < ev->tsc_intr)
		rec->flags |= IDLESCOPE_F_INTR_OFF;
	fill_counters(d, rec);
	idlescope_causes_fill(d, rec);
}

/* Counted once: as a datapoint or discard when it reaches the ring, else as overflow (which
 * the stats ioctl adds to the lost discards). */
static void account(struct idlescope_dev *d, const struct idlescope_record *rec)
{
	unsigned long flags;

	spin_lock_irqsave(&d->stats_lock, flags);
	if (rec->type == IDLESCOPE_REC_DATAPOINT)
		d->stats.datapoints++;
	else
		d->stats.discards[rec->reason]++;
	spin_unlock_irqrestore(&d->stats_lock, flags);
}

static void finish_event(struct idlescope_dev *d)
{
	struct idlescope_record rec;

	hrtimer_cancel(&d->timer);
	local_irq_disable();
	idlescope_event_complete(d, IDLESCOPE_DISCARD_LOST);   /* no-op unless it timed out */
	local_irq_enable();
	make_record(d, &rec);
	WRITE_ONCE(d->ev.state, EV_FREE);
	if (idlescope_ring_push(&d->ring, &rec))
		account(d, &rec);
}

static bool event_done(struct idlescope_dev *d)
{
	return smp_load_acquire(&d->ev.state) == EV_DONE;
}

/* Until the event is done, kthread_stop(), or timeout jiffies. */
static void wait_event_done(struct idlescope_dev *d, long timeout)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (event_done(d) || kthread_should_stop() || !timeout)
			break;
		timeout = schedule_timeout(timeout);
	}
	__set_current_state(TASK_RUNNING);
}

static int armer_fn(void *data)
{
	struct idlescope_dev *d = data;
	u64 seq = 0;
	long timeout;

	while (!kthread_should_stop()) {
		if (raw_smp_processor_id() != d->cfg.cpu) {
			/* the measured CPU went offline and we were moved away */
			WRITE_ONCE(d->cpu_lost, true);
			wake_up_interruptible(&d->ring.wq);
			break;
		}
		arm_event(d, seq++);
		timeout = nsecs_to_jiffies(d->ev.ldist + HRT_LOST_TIMEOUT_NS) + 1;
		wait_event_done(d, timeout);
		if (kthread_should_stop())
			break;
		finish_event(d);
		spin_lock_irq(&d->stats_lock);
		d->stats.armed = seq;
		spin_unlock_irq(&d->stats_lock);
	}
	hrtimer_cancel(&d->timer);
	/* a kthread must not exit before kthread_stop() */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

void idlescope_event_init(struct idlescope_dev *d)
{
	idlescope_hrtimer_setup(&d->timer, timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
}

/* The armer, not yet running (outside the hot-plug lock: kthreadd creates it). */
int idlescope_event_create(struct idlescope_dev *d)
{
	struct task_struct *t;

	prandom_seed_state(&d->rnd, d->cfg.seed);
	memset(&d->ev, 0, sizeof(d->ev));
	d->cpu_lost = false;
	t = kthread_create(armer_fn, d, "idlescope/%u", d->cfg.cpu);
	if (IS_ERR(t))
		return PTR_ERR(t);
	get_task_struct(t);   /* completion may race with the thread's end: keep it valid */
	d->armer = t;
	return 0;
}

/* Under cpus_read_lock() with cfg.cpu online. Bound, not a per-CPU kthread: if the CPU goes
 * offline the armer is pushed away and stops (cpu_lost). */
void idlescope_event_launch(struct idlescope_dev *d)
{
	kthread_bind(d->armer, d->cfg.cpu);
	wake_up_process(d->armer);
}

void idlescope_event_stop(struct idlescope_dev *d)
{
	if (!d->armer)
		return;
	kthread_stop(d->armer);
	hrtimer_cancel(&d->timer);
	put_task_struct(d->armer);
	d->armer = NULL;
	WRITE_ONCE(d->ev.state, EV_FREE);
}
