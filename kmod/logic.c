// SPDX-License-Identifier: GPL-2.0-only
/*
 * The datapoint decisions, on the measured CPU with interrupts off: idle entry and exit
 * (TBI, TAI), the event's interrupt (TIntr), and for tdt which deadline IA32_TSC_DEADLINE
 * holds. Kernel services are reached only through the headers below and a few functions of
 * tdt.c and counters.c, so tests/kmod/logic_test.c compiles this file as plain C against
 * stand-ins (tests/kmod/shim/) and drives it through every ordering of events.
 */
#include <linux/ktime.h>
#include <linux/smp.h>
#include <asm/msr.h>
#include "idlescope.h"

/* The CPU left idle before LTime for something else and has been busy since. */
static bool woke_early_busy(const struct idlescope_dev *d)
{
	return !d->ev.in_idle && d->ev.tai < idlescope_ev_deadline(d);
}

/* Finish the armed event once (whoever gets here first). Interrupts off. */
void idlescope_event_complete(struct idlescope_dev *d, int discard)
{
	struct idlescope_event *ev = &d->ev;

	if (cmpxchg(&ev->state, EV_ARMED, EV_CLAIMED) != EV_ARMED)
		return;
	ev->discard = discard;
	smp_store_release(&ev->state, EV_DONE);
	/* Direct wake-up from the timer's hardirq or the idle task at idle exit (RCU is
	 * watching there): no extra interrupt on the measured CPU. wake_up_process() takes
	 * only raw locks, so this is fine on PREEMPT_RT too, unlike a wait queue. */
	wake_up_process(d->armer);
}

/* Our event's interrupt: the hrt timer handler or, for tdt, the local timer entry. */
void idlescope_event_fired(struct idlescope_dev *d, u64 now, u64 tsc)
{
	struct idlescope_event *ev = &d->ev;

	ev->tintr = now;
	ev->tsc_intr = tsc;
	ev->fired = true;
	if (!ev->tbi)
		idlescope_event_complete(d, IDLESCOPE_DISCARD_NOT_IDLE);
	else if (woke_early_busy(d))
		idlescope_event_complete(d, IDLESCOPE_DISCARD_OTHER_WAKE);
	else if (!ev->in_idle)
		idlescope_event_complete(d, -1);   /* idle exit came first (IRQs off in idle) */
	/* else: the idle exit probe completes it */
}

/* The tdt guard (LTime + 5 ms): our deadline never fired. */
void idlescope_event_guard(struct idlescope_dev *d)
{
	if (!d->ev.tbi)
		idlescope_event_complete(d, IDLESCOPE_DISCARD_NOT_IDLE);
	else if (woke_early_busy(d))
		idlescope_event_complete(d, IDLESCOPE_DISCARD_OTHER_WAKE);
	else
		idlescope_event_complete(d, IDLESCOPE_DISCARD_LOST);
}

/* The method's clock: ns for hrt, TSC cycles for tdt. */
static u64 ev_now(const struct idlescope_dev *d, u64 *tsc)
{
	*tsc = rdtsc();
	return idlescope_is_tdt(d) ? *tsc : ktime_get_ns();
}

/*
 * tdt: is our deadline the one in IA32_TSC_DEADLINE? ev->tdt_ours says so from every write
 * to it seen on this CPU (ours here, the kernel's in the write_msr probe); where a probe can
 * read the MSR before LTime, it checks (a write we did not see also ends ours). Arm, or arm
 * again after the kernel replaced ours, at an idle entry before LTime when the kernel's own
 * deadline is not earlier (the kernel's events are never delayed; when ours fires its timer
 * interrupt handler reprograms the kernel's).
 */
static void tdt_idle_enter(struct idlescope_dev *d, struct idlescope_event *ev)
{
	u64 cur;

	if (idlescope_tdt_read_deadline(&cur))
		return;
	if (ev->tdt_ours && cur == ev->tsc_ltime)
		return;
	ev->tdt_ours = false;
	if (cur && cur < ev->tsc_ltime)
		return;   /* the kernel's event comes first: the next idle entry tries again */
	if (idlescope_tdt_write_deadline(d, ev->tsc_ltime))
		return;
	ev->tdt_ours = true;
}

/* Before LTime our deadline, if set, must still be there (interrupts off, so it has not fired). */
static void tdt_check(struct idlescope_event *ev, u64 tsc)
{
	u64 cur;

	if (ev->tdt_ours && tsc < ev->tsc_ltime && !idlescope_tdt_read_deadline(&cur) && cur != ev->tsc_ltime)
		ev->tdt_ours = false;
}

static void idle_enter(struct idlescope_dev *d, struct idlescope_event *ev, unsigned int state)
{
	u64 now, tsc;

	idlescope_counters_read(d->msr_mask, d->has_smi, ev->msr_bi, &ev->smi_bi, &ev->nmi_bi);
	now = ev_now(d, &tsc);
	if (now >= idlescope_ev_deadline(d)) {
		/* going idle only now: it was busy at LaunchTime, after an early wake-up or
		 * without having been idle at all */
		idlescope_event_complete(d, woke_early_busy(d) && ev->tbi ? IDLESCOPE_DISCARD_OTHER_WAKE
								    : IDLESCOPE_DISCARD_NOT_IDLE);
		return;
	}
	ev->tbi = now;
	ev->tsc_bi = tsc;
	ev->req_state = state;
	ev->in_idle = true;
	if (idlescope_is_tdt(d))
		tdt_idle_enter(d, ev);
}

/* A state is entered with IRQs on (HLT after STI, POLL) when an interrupt handler ran
 * while the CPU was idle in it; learnt from every local timer interrupt, ticks included. */
static bool state_irq_on(const struct idlescope_dev *d, int state)
{
	return state >= 0 && state < 64 && (READ_ONCE(d->irq_on_states) & BIT_ULL(state));
}

static void idle_exit(struct idlescope_dev *d, struct idlescope_event *ev)
{
	u64 now, tsc, end;

	if (!ev->in_idle)
		return;
	now = ev_now(d, &tsc);
	ev->tai = now;
	ev->tsc_ai = tsc;
	ev->in_idle = false;
	idlescope_counters_read(d->msr_mask, d->has_smi, ev->msr_ai, &ev->smi_ai, &ev->nmi_ai);
	end = ev_now(d, &tsc);
	ev->ai_overhead = end - now;
	if (ev->fired)
		idlescope_event_complete(d, -1);   /* the handler ran first (idle entered with IRQs on) */
	else if (now >= idlescope_ev_deadline(d) && state_irq_on(d, ev->req_state))
		/* after LTime from a state where our handler would have run inside the idle
		 * period: something else woke the CPU first */
		idlescope_event_complete(d, IDLESCOPE_DISCARD_OTHER_WAKE);
	else if (idlescope_is_tdt(d))
		tdt_check(ev, ev->tsc_ai);
	/* else: woke at/after LaunchTime with IRQs off, and the handler completes it; or woke
	 * before LTime for something else: as in wult, the event stays armed and the next idle
	 * entry (if before LTime) takes TBI anew; the handler sorts it out. */
}

/* power:cpu_idle on any CPU; state IDLESCOPE_IDLE_EXIT is the exit. */
void idlescope_on_cpu_idle(struct idlescope_dev *d, unsigned int state, unsigned int cpu)
{
	struct idlescope_event *ev = &d->ev;
	unsigned long flags;

	if (cpu != d->cfg.cpu)
		return;
	local_irq_save(flags);
	d->idle_state = state == IDLESCOPE_IDLE_EXIT ? -1 : (int)state;
	if (READ_ONCE(ev->state) == EV_ARMED) {
		if (state == IDLESCOPE_IDLE_EXIT)
			idle_exit(d, ev);
		else if (!ev->fired)
			idle_enter(d, ev, state);
	}
	local_irq_restore(flags);
}

/*
 * tdt: a local timer interrupt is ours only when our deadline was the one programmed and
 * LTime has come. One at or after LTime while ours was not (the kernel replaced it and no idle
 * entry before LTime could set it again) is the kernel's: the CPU woke for something else.
 * One before LTime while ours was set proves a write we did not see: ours is gone.
 */
static void tdt_local_timer(struct idlescope_dev *d, struct idlescope_event *ev, u64 tsc)
{
	if (ev->fired)
		return;
	if (!ev->tdt_ours) {
		if (tsc >= ev->tsc_ltime)
			idlescope_event_complete(d, ev->tbi ? IDLESCOPE_DISCARD_OTHER_WAKE : IDLESCOPE_DISCARD_NOT_IDLE);
		return;
	}
	ev->tdt_ours = false;
	if (tsc >= ev->tsc_ltime)
		idlescope_event_fired(d, tsc, tsc);
}

/* irq_vectors:local_timer_entry (registered for both methods: it teaches state_irq_on). */
void idlescope_on_local_timer(struct idlescope_dev *d, unsigned int cpu)
{
	struct idlescope_event *ev = &d->ev;
	unsigned long flags;

	if (cpu != d->cfg.cpu)
		return;
	if (d->idle_state >= 0 && d->idle_state < 64 && !(d->irq_on_states & BIT_ULL(d->idle_state)))
		WRITE_ONCE(d->irq_on_states, d->irq_on_states | BIT_ULL(d->idle_state));
	if (!idlescope_is_tdt(d))
		return;
	local_irq_save(flags);
	if (READ_ONCE(ev->state) == EV_ARMED)
		tdt_local_timer(d, ev, rdtsc());
	local_irq_restore(flags);
}

/*
 * msr:write_msr (tdt only): the kernel wrote IA32_TSC_DEADLINE on the measured CPU. Before
 * LTime that replaces ours. At or after LTime ours has fired unless the write came first: the
 * timer vector pending in the local APIC (interrupts are off in the writer) tells which.
 */
void idlescope_on_msr_write(struct idlescope_dev *d, unsigned int cpu, unsigned int msr)
{
	struct idlescope_event *ev = &d->ev;
	unsigned long flags;

	if (msr != IDLESCOPE_MSR_TSC_DEADLINE || cpu != d->cfg.cpu || d->tdt_writing)
		return;
	local_irq_save(flags);
	if (READ_ONCE(ev->state) == EV_ARMED && ev->tdt_ours &&
	    (rdtsc() < ev->tsc_ltime || !idlescope_tdt_timer_pending()))
		ev->tdt_ours = false;
	local_irq_restore(flags);
}
