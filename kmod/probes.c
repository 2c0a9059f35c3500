// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint probes: power:cpu_idle (TBI, TAI), irq_vectors:local_timer_entry (tdt: TIntr;
 * both methods: which idle states run interrupt handlers inside) and, for tdt,
 * msr:write_msr (the kernel's writes of IA32_TSC_DEADLINE). The tracepoints are looked up
 * by name, which works whether or not the kernel exports them to modules. The probes hand
 * over to logic.c, which acts on the measured CPU only and only while an event is armed. */
#include <linux/build_bug.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/power.h>
#include <asm/msr-index.h>
#include "idlescope.h"

static struct tracepoint *tp_cpu_idle, *tp_local_timer, *tp_write_msr;

static void find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "cpu_idle"))
		tp_cpu_idle = tp;
	else if (!strcmp(tp->name, "local_timer_entry"))
		tp_local_timer = tp;
	else if (!strcmp(tp->name, "write_msr"))
		tp_write_msr = tp;
	idlescope_causes_find(tp);
}

int idlescope_probes_find(void)
{
	BUILD_BUG_ON(IDLESCOPE_IDLE_EXIT != (unsigned int)PWR_EVENT_EXIT);
	BUILD_BUG_ON(IDLESCOPE_MSR_TSC_DEADLINE != MSR_IA32_TSC_DEADLINE);
	for_each_kernel_tracepoint(find_tp, NULL);
	if (!tp_cpu_idle) {
		pr_err("idlescope: tracepoint power:cpu_idle not found (kernel without tracepoints?)\n");
		return -ENOENT;
	}
	return 0;
}

bool idlescope_have_local_timer_tp(void)
{
	return tp_local_timer != NULL;
}

bool idlescope_have_write_msr_tp(void)
{
	return tp_write_msr != NULL;
}

static void probe_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct idlescope_dev *d = data;

	if (state != IDLESCOPE_IDLE_EXIT && cpu == d->cfg.cpu && READ_ONCE(d->ev.state) == EV_ARMED &&
	    !d->ev.fired)
		idlescope_causes_open(d);   /* a new TBI: a new window */
	idlescope_on_cpu_idle(data, state, cpu);
}

/* A local timer interrupt is a cause unless it is ours: tdt takes TIntr here (fired turns
 * true); hrt's timer handler, later in this interrupt, takes it back (idlescope_causes_ours). */
static void probe_local_timer(void *data, int vector)
{
	struct idlescope_dev *d = data;
	unsigned int cpu = smp_processor_id();
	bool was_fired = READ_ONCE(d->ev.fired);

	idlescope_on_local_timer(data, cpu);
	if (was_fired || !READ_ONCE(d->ev.fired))
		idlescope_causes_timer_entry(d, cpu);
}

static void probe_write_msr(void *data, unsigned int msr, u64 val, int failed)
{
	if (!failed)
		idlescope_on_msr_write(data, raw_smp_processor_id(), msr);
}

/* Register in this order, unregister in the reverse; n = how many are registered. */
struct tp_probe {
	struct tracepoint **tp;
	void *fn;
};

static const struct tp_probe probes[] = {
	{ &tp_cpu_idle, (void *)probe_cpu_idle },
	{ &tp_local_timer, (void *)probe_local_timer },
	{ &tp_write_msr, (void *)probe_write_msr },
};

static bool wanted(const struct idlescope_dev *d, const struct tp_probe *p)
{
	return *p->tp && (p->tp != &tp_write_msr || idlescope_is_tdt(d));
}

static void unregister_first(struct idlescope_dev *d, int n)
{
	while (n-- > 0)
		if (wanted(d, &probes[n]))
			tracepoint_probe_unregister(*probes[n].tp, probes[n].fn, d);
	tracepoint_synchronize_unregister();
}

/* Takes tracepoints_mutex and cpus_read_lock() inside: never call with the hot-plug lock held. */
int idlescope_probes_register(struct idlescope_dev *d)
{
	int i, ret;

	d->idle_state = -1;
	d->tdt_writing = false;
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++) {
		if (!wanted(d, &probes[i]))
			continue;
		ret = tracepoint_probe_register(*probes[i].tp, probes[i].fn, d);
		if (ret) {
			unregister_first(d, i);
			return ret;
		}
	}
	ret = idlescope_causes_register(d);   /* on failure it leaves none of its own */
	if (ret)
		unregister_first(d, ARRAY_SIZE(probes));
	return ret;
}

void idlescope_probes_unregister(struct idlescope_dev *d)
{
	idlescope_causes_unregister(d);
	unregister_first(d, ARRAY_SIZE(probes));
}
