// SPDX-License-Identifier: GPL-2.0-only
/*
 * What else ran on the measured CPU during a datapoint's window, as the bpf method counts it
 * (collect/methods/bpf/causes.bpf.h): hard interrupts other than our own timer interrupt
 * (count, handler time, most frequent source: an IRQ number or the x86 vector) and softirqs
 * (count, time, types). The window opens at every idle entry while an event is armed (TBI is
 * the last one) and closes when the event completes, at max(TAI, TIntr): the probes count only
 * while it is armed. NMIs are the per-CPU NMI count (counters.c), as before.
 * Tracepoints irq:irq_handler_entry/exit, irq:softirq_entry/exit, irq_vectors:*_entry/exit,
 * looked up by name like probes.c's; registered only with causes on. All on the measured
 * CPU, in interrupt context there, so the window has one writer at a time; the armer thread
 * (bound to that CPU) reads it after the event completed.
 */
#include <linux/interrupt.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/timekeeping.h>
#include "idlescope.h"

enum { TP_IRQ_ENTRY, TP_IRQ_EXIT, TP_SIRQ_ENTRY, TP_SIRQ_EXIT, TP_TIMER_EXIT, TP_RES_ENTRY,
       TP_RES_EXIT, TP_CAL_ENTRY, TP_CAL_EXIT, TP_CAL1_ENTRY, TP_CAL1_EXIT, TP_IWI_ENTRY,
       TP_IWI_EXIT, NTP };
static const char *const tp_names[NTP] = {
	"irq_handler_entry", "irq_handler_exit", "softirq_entry", "softirq_exit", "local_timer_exit",
	"reschedule_entry", "reschedule_exit", "call_function_entry", "call_function_exit",
	"call_function_single_entry", "call_function_single_exit", "irq_work_entry", "irq_work_exit",
};
static struct tracepoint *tps[NTP];

void idlescope_causes_find(struct tracepoint *tp)
{
	int i;

	for (i = 0; i < NTP; i++)
		if (!strcmp(tp->name, tp_names[i]))
			tps[i] = tp;
}

static struct idlescope_causes_win *window(struct idlescope_dev *d, unsigned int cpu)
{
	if (!d->causes || cpu != d->cfg.cpu || READ_ONCE(d->ev.state) != EV_ARMED)
		return NULL;
	return &d->ev.win;
}

static void count_src(struct idlescope_causes_win *w, s32 id)
{
	int i;

	for (i = 0; i < IDLESCOPE_CAUSE_SRCS; i++) {
		if (w->src_n[i] && w->src_id[i] != id)
			continue;
		w->src_id[i] = id;
		w->src_n[i]++;
		return;
	}
}

static void irq_entry(struct idlescope_dev *d, s32 src)
{
	struct idlescope_causes_win *w = window(d, smp_processor_id());

	if (!w)
		return;
	w->irq_cnt++;
	w->irq_t0 = ktime_get_ns();
	w->irq_src = src;
	count_src(w, src);
}

static void irq_exit_probe(struct idlescope_dev *d)
{
	struct idlescope_causes_win *w = window(d, smp_processor_id());

	if (!w || !w->irq_t0)
		return;
	w->irq_ns += ktime_get_ns() - w->irq_t0;
	w->irq_t0 = 0;
}

/* The timer interrupt running now is the one that fired our event: not a cause. */
void idlescope_causes_ours(struct idlescope_dev *d)
{
	struct idlescope_causes_win *w = window(d, smp_processor_id());
	int i;

	if (!w || !w->irq_t0 || w->irq_src != IDLESCOPE_SRC_TIMER)
		return;
	w->irq_cnt--;
	w->irq_t0 = 0;
	for (i = 0; i < IDLESCOPE_CAUSE_SRCS; i++)
		if (w->src_n[i] && w->src_id[i] == IDLESCOPE_SRC_TIMER) {
			w->src_n[i]--;
			break;
		}
}

void idlescope_causes_timer_entry(struct idlescope_dev *d, unsigned int cpu)
{
	if (cpu == d->cfg.cpu)
		irq_entry(d, IDLESCOPE_SRC_TIMER);
}

void idlescope_causes_open(struct idlescope_dev *d)
{
	if (d->causes)
		memset(&d->ev.win, 0, sizeof(d->ev.win));
}

static void p_irq_entry(void *d, int irq, struct irqaction *action)
{
	irq_entry(d, irq);
}

static void p_irq_exit(void *d, int irq, struct irqaction *action, int ret)
{
	irq_exit_probe(d);
}

static void p_vec_exit(void *d, int vector)
{
	irq_exit_probe(d);
}

static void p_res_entry(void *d, int vector)
{
	irq_entry(d, IDLESCOPE_SRC_RESCHED);
}

static void p_cal_entry(void *d, int vector)
{
	irq_entry(d, IDLESCOPE_SRC_CALL);
}

static void p_iwi_entry(void *d, int vector)
{
	irq_entry(d, IDLESCOPE_SRC_IRQ_WORK);
}

static void p_sirq_entry(void *d, unsigned int vec)
{
	struct idlescope_causes_win *w = window(d, smp_processor_id());

	if (w)
		w->sirq_t0 = ktime_get_ns();
}

/* hrt's timer is HRTIMER_MODE_ABS_PINNED_HARD: no softirq of ours to leave out */
static void p_sirq_exit(void *d, unsigned int vec)
{
	struct idlescope_causes_win *w = window(d, smp_processor_id());

	if (!w || !w->sirq_t0)
		return;
	w->sirq_cnt++;
	w->sirq_ns += ktime_get_ns() - w->sirq_t0;
	if (vec < 32)
		w->sirq_mask |= 1u << vec;
	w->sirq_t0 = 0;
}

static void *const tp_fns[NTP] = {
	p_irq_entry, p_irq_exit, p_sirq_entry, p_sirq_exit, p_vec_exit, p_res_entry, p_vec_exit,
	p_cal_entry, p_vec_exit, p_cal_entry, p_vec_exit, p_iwi_entry, p_vec_exit,
};

static void unregister_first(struct idlescope_dev *d, int n)
{
	while (n-- > 0)
		if (tps[n])
			tracepoint_probe_unregister(tps[n], tp_fns[n], d);
}

/* The x86 vector tracepoints may be missing (not x86, or an older kernel): their IRQs are
 * then not counted. irq_handler_* and softirq_* are generic. */
int idlescope_causes_register(struct idlescope_dev *d)
{
	int i, ret;

	if (!d->causes)
		return 0;
	if (!tps[TP_IRQ_ENTRY] || !tps[TP_IRQ_EXIT] || !tps[TP_SIRQ_ENTRY] || !tps[TP_SIRQ_EXIT]) {
		pr_err("idlescope: irq:irq_handler_* or irq:softirq_* tracepoints not found: cannot count causes\n");
		return -ENOENT;
	}
	for (i = 0; i < NTP; i++) {
		if (!tps[i])
			continue;
		ret = tracepoint_probe_register(tps[i], tp_fns[i], d);
		if (ret) {
			unregister_first(d, i);
			return ret;
		}
	}
	return 0;
}

void idlescope_causes_unregister(struct idlescope_dev *d)
{
	if (d->causes)
		unregister_first(d, NTP);
}

void idlescope_causes_fill(const struct idlescope_dev *d, struct idlescope_record *rec)
{
	const struct idlescope_causes_win *w = &d->ev.win;
	u32 best = 0;
	int i;

	rec->irq_top = IDLESCOPE_SRC_NONE;
	if (!d->causes)
		return;
	rec->flags |= IDLESCOPE_F_CAUSES;
	rec->irq_cnt = w->irq_cnt;
	rec->irq_ns = w->irq_ns;
	rec->sirq_cnt = w->sirq_cnt;
	rec->sirq_ns = w->sirq_ns;
	rec->sirq_mask = w->sirq_mask;
	for (i = 0; i < IDLESCOPE_CAUSE_SRCS; i++)
		if (w->src_n[i] > best) {
			best = w->src_n[i];
			rec->irq_top = w->src_id[i];
		}
}
