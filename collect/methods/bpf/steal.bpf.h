// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measured CPU's steal clock for the StealTime column (included by causes.bpf.h).
 *
 * The clock is KVM's per-CPU steal_time.steal, what kvm_steal_clock() (the kernel's
 * paravirt steal clock) returns: the time the host ran something else while this vCPU was
 * runnable. It is read directly, not through kvm_steal_clock(): that function cannot be
 * traced here (no kprobes, fentry/fexit refused) and kallsyms has no data symbols. The
 * address comes from the CPU's runqueue: steal_time and runqueues are both per-CPU
 * variables, so their distance is the same on every CPU (the offsets of their BTF VARs in
 * .data..percpu, computed by user space, method_bpf_steal.c). A value below what the
 * scheduler already accounted for that runqueue (rq->prev_steal_time_rq) is not the steal
 * clock: then -1, never a number.
 */
#ifndef IDLESCOPE_STEAL_BPF_H
#define IDLESCOPE_STEAL_BPF_H

/* &steal_time.steal minus &runqueues on any CPU; 0 = no StealTime column. */
CAUSES_CFG __s64 cfg_steal_delta;

#ifdef WAKE_USER_SHIM
__s64 shim_steal_clock(void);	/* tests/bpf/wake_logic_test.c */
#define steal_clock_now shim_steal_clock
#else
/* Only from tracing programs on the measured CPU: its steal clock in ns, or -1. */
static __s64 steal_clock_now(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct rq *rq;
	__u64 accounted = 0, clock = 0;

	/* cfs_rq->rq needs CONFIG_FAIR_GROUP_SCHED: without it the program still loads */
	if (!bpf_core_field_exists(t->se.cfs_rq) || !bpf_core_field_exists(((struct cfs_rq *)0)->rq))
		return -1;
	rq = BPF_CORE_READ(t, se.cfs_rq, rq);
	if (!rq || bpf_get_smp_processor_id() != cfg_cpu)
		return -1;
	if (bpf_core_field_exists(rq->prev_steal_time_rq))
		accounted = BPF_CORE_READ(rq, prev_steal_time_rq);
	if (bpf_probe_read_kernel(&clock, sizeof(clock), (char *)rq + cfg_steal_delta) ||
	    clock < accounted || (__s64)clock < 0)
		return -1;
	return (__s64)clock;
}
#endif

/* Samples: at TBI (the window opens) and at each later point of the window (TAI, TIntr). */
static void steal_open(void)
{
	win.steal0 = win.steal1 = cfg_steal_delta ? steal_clock_now() : -1;
}

static void steal_sample(void)
{
	if (cfg_causes && cfg_steal_delta && win.steal0 >= 0)
		win.steal1 = steal_clock_now();
}

/* The steal clock's advance over the window; -1 = not known. */
static __s64 steal_close(void)
{
	if (!cfg_steal_delta || win.steal0 < 0 || win.steal1 < win.steal0)
		return -1;
	return win.steal1 - win.steal0;
}

#endif
