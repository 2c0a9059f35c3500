// SPDX-License-Identifier: GPL-2.0
/* Tracepoint probes: power:cpu_idle (TBI, TAI) and, for tdt, irq_vectors:local_timer_entry
 * (TIntr). The tracepoints are looked up by name, which works whether or not the kernel
 * exports them to modules. Probes run on the measured CPU only and act only while an
 * event is armed; their work is done with interrupts off. */
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/power.h>
#include "idlescope.h"

static struct tracepoint *tp_cpu_idle, *tp_local_timer;

static void find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "cpu_idle"))
		tp_cpu_idle = tp;
	else if (!strcmp(tp->name, "local_timer_entry"))
		tp_local_timer = tp;
}

int is_probes_find(void)
{
	for_each_kernel_tracepoint(find_tp, NULL);
	if (!tp_cpu_idle) {
		pr_err("idlescope: tracepoint power:cpu_idle not found (kernel without tracepoints?)\n");
		return -ENOENT;
	}
	return 0;
}

bool is_have_local_timer_tp(void)
{
	return tp_local_timer != NULL;
}

/* The method's clock: ns for hrt, TSC cycles for tdt. */
static u64 ev_now(const struct is_dev *d, u64 *tsc)
{
	*tsc = rdtsc();
	return is_tdt(d) ? *tsc : ktime_get_ns();
}

static void idle_enter(struct is_dev *d, struct is_event *ev, unsigned int state)
{
	u64 now, tsc;

	is_counters_read(d->msr_mask, d->has_smi, ev->msr_bi, &ev->smi_bi, &ev->nmi_bi);
	now = ev_now(d, &tsc);
	if (now >= is_ev_deadline(d)) {
		/* going idle only now: it was busy at LaunchTime */
		is_event_complete(d, IDLESCOPE_DISCARD_NOT_IDLE);
		return;
	}
	ev->tbi = now;
	ev->tsc_bi = tsc;
	ev->req_state = state;
	ev->in_idle = true;
	if (is_tdt(d))
		is_tdt_idle_enter(d, tsc);
}

/* A state is entered with IRQs on (HLT after STI, POLL) when an interrupt handler ran
 * while the CPU was idle in it; learnt from every local timer interrupt, ticks included. */
static bool state_irq_on(const struct is_dev *d, int state)
{
	return state >= 0 && state < 64 && (READ_ONCE(d->irq_on_states) & BIT_ULL(state));
}

static void idle_exit(struct is_dev *d, struct is_event *ev)
{
	u64 now, tsc, end;

	if (!ev->in_idle)
		return;
	now = ev_now(d, &tsc);
	ev->tai = now;
	ev->tsc_ai = tsc;
	ev->in_idle = false;
	is_counters_read(d->msr_mask, d->has_smi, ev->msr_ai, &ev->smi_ai, &ev->nmi_ai);
	end = ev_now(d, &tsc);
	ev->ai_overhead = end - now;
	if (ev->fired)
		is_event_complete(d, -1);   /* the handler ran first (idle entered with IRQs on) */
	else if (now >= is_ev_deadline(d) && state_irq_on(d, ev->req_state))
		/* after LTime from a state where our handler would have run inside the idle
		 * period: something else woke the CPU first */
		is_event_complete(d, IDLESCOPE_DISCARD_OTHER_WAKE);
	/* else: woke at/after LaunchTime with IRQs off, and the handler completes it; or woke
	 * before LTime for something else: as in wult, the event stays armed and the next idle
	 * entry (if before LTime) takes TBI anew; the handler sorts it out. */
}

static void probe_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct is_dev *d = data;
	struct is_event *ev = &d->ev;
	unsigned long flags;

	if (cpu != d->cfg.cpu)
		return;
	local_irq_save(flags);
	d->idle_state = state == (unsigned int)PWR_EVENT_EXIT ? -1 : (int)state;
	if (READ_ONCE(ev->state) == EV_ARMED) {
		if (state == (unsigned int)PWR_EVENT_EXIT)
			idle_exit(d, ev);
		else if (!ev->fired)
			idle_enter(d, ev, state);
	}
	local_irq_restore(flags);
}

static void probe_local_timer(void *data, int vector)
{
	struct is_dev *d = data;
	struct is_event *ev = &d->ev;
	unsigned long flags;
	u64 tsc;

	if (smp_processor_id() != d->cfg.cpu)
		return;
	if (d->idle_state >= 0 && d->idle_state < 64 && !(d->irq_on_states & BIT_ULL(d->idle_state)))
		WRITE_ONCE(d->irq_on_states, d->irq_on_states | BIT_ULL(d->idle_state));
	if (READ_ONCE(ev->state) != EV_ARMED || !ev->hw_armed)
		return;
	tsc = rdtsc();
	if (tsc < ev->tsc_ltime)
		return;
	local_irq_save(flags);
	if (READ_ONCE(ev->state) == EV_ARMED && !ev->fired)
		is_event_fired(d, tsc, tsc);
	local_irq_restore(flags);
}

int is_probes_register(struct is_dev *d)
{
	int ret;

	d->idle_state = -1;
	ret = tracepoint_probe_register(tp_cpu_idle, (void *)probe_cpu_idle, d);
	if (ret)
		return ret;
	if (tp_local_timer) {
		ret = tracepoint_probe_register(tp_local_timer, (void *)probe_local_timer, d);
		if (ret) {
			tracepoint_probe_unregister(tp_cpu_idle, (void *)probe_cpu_idle, d);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	return 0;
}

void is_probes_unregister(struct is_dev *d)
{
	tracepoint_probe_unregister(tp_cpu_idle, (void *)probe_cpu_idle, d);
	if (tp_local_timer)
		tracepoint_probe_unregister(tp_local_timer, (void *)probe_local_timer, d);
	tracepoint_synchronize_unregister();
}
