// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlescope `bpf` method: kernel-side timestamps of one wake-up per datapoint.
 *
 * One datapoint: pop an LDist that user space queued, arm an event for
 * LTime = now + LDist on the measured CPU, then watch that CPU:
 *   power:cpu_idle                 TBI (entry, requested state index), TAI (exit)
 *   irq_vectors:local_timer_entry  TIntr (first timer interrupt at or after LTime)
 *   timer:hrtimer_expire_entry     TIntr when no local_timer_entry was seen (our hrtimer
 *                                  is recognised by its soft expiry == LTime)
 * and emit one record (datapoint or discard) per LDist to the ring buffer.
 *
 * All state lives in globals: everything that changes it runs on the measured CPU
 * (cpu_idle with IRQs off, the timer interrupt, the softirq callback), so plain loads
 * and stores suffice; only user space reads them concurrently.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "wake_rec.h"

#define PWR_EVENT_EXIT ((unsigned int)-1)
#define CLOCK_MONOTONIC 1
#define barrier() asm volatile("" ::: "memory")
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile __u32 cfg_cpu;
const volatile __u32 cfg_source;	/* enum wake_source */
const volatile __u64 cfg_poll_states;	/* bit i: cpuidle state i polls with IRQs on */
const volatile __u64 cfg_irq_on_states;	/* bit i: state i is known to run with IRQs on (the
					 * cpuidle driver's states, e.g. haltpoll's HLT) */

struct timer_elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct timer_elem);
} wake_timer SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, WAKE_RB_SIZE);
} wake_events SEC(".maps");

/* LDist queue: user space fills ldist_q[] then publishes q_tail; BPF advances q_head. */
__u64 ldist_q[WAKE_LDIST_QLEN];
__u64 q_tail;
__u64 q_head;

/* Status shared with user space (mmapped .bss). */
__u64 stopping;		/* set by user space: arm nothing more */
__u64 armed;		/* a datapoint is in flight */
__u64 lost;		/* bpf_ringbuf_reserve() failures = records lost */
__u64 starved;		/* times the LDist queue was empty when arming */
__s64 arm_err;		/* last bpf_timer_start() error */
__u64 seq;		/* datapoints armed so far */

/* The datapoint in flight, and the measured CPU's idle periods (types in wake_rec.h).
 * Globals, not statics: clang splits a static struct into scalars whose BTF the kernel
 * rejects. */
struct wake_cur cur;
struct wake_idle idle;

__u64 ltime_out;	/* LTime of the last armed datapoint (read by the thread source) */
/* Bit i: an interrupt handler ran while the CPU was idle in state i, so that state is
 * entered with IRQs on (HLT after STI, POLL, ...). Learnt from every traced interrupt entry
 * (local timer, device IRQs, the x86 IPIs) that arrives inside an idle period; before the
 * first one, cfg_irq_on_states and idle.irq_in (below) say what is known. */
__u64 irq_on_states;

/* The soft hrtimer's cost (wake_rec.h enum wake_hist), filled by the callback and the
 * HRTIMER softirq's exit: what WakeLatency includes in IRQs-on states and a hard hrtimer
 * would not (docs/bpf.md, error budget). */
__u32 hist[WAKE_HIST_NR][WAKE_HIST_N];
__u64 last_timer_irq;	/* last local_timer_entry on the measured CPU */
__u64 softirq_entry_t;	/* HRTIMER softirq entry on the measured CPU */
__u8 softirq_ran_cb;	/* our callback ran in that softirq */

#include "causes.bpf.h"

static void hist_add(__u32 h, __u64 ns)
{
	__u64 b = ns / WAKE_HIST_NS;

	if (h >= WAKE_HIST_NR)
		return;
	if (b >= WAKE_HIST_N)
		b = WAKE_HIST_N - 1;
	hist[h][b]++;
}

static bool is_poll_state(__s32 state)
{
	return state >= 0 && state < 64 && (cfg_poll_states >> state) & 1;
}

static bool is_irq_on_state(__s32 state)
{
	return state >= 0 && state < 64 &&
	       ((irq_on_states | cfg_poll_states | cfg_irq_on_states) >> state) & 1;
}

/* An interrupt handler is running on the measured CPU: if that CPU is idle, the state it is
 * in runs with IRQs on, and this idle period has seen an interrupt. */
static void note_irq(void)
{
	if (!idle.in_idle)
		return;
	idle.irq_in = 1;
	if (idle.state >= 0 && idle.state < 64)
		irq_on_states |= 1ull << idle.state;
}

static void emit(__u8 kind, __u8 reason, __u64 tai, __s8 intr_off)
{
	struct wake_rec *r = bpf_ringbuf_reserve(&wake_events, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&lost, 1);
		return;
	}
	r->seq = seq;
	r->ldist = cur.ldist;
	r->ltime = cur.ltime;
	r->tbi = idle.tbi;
	r->tai = tai;
	r->tintr = cur.tintr;
	r->req_state = idle.state;
	r->cpu = cur.fire_cpu;
	r->kind = kind;
	r->reason = reason;
	r->intr_off = intr_off;
	r->tintr_src = cur.tintr_src;
	r->pad2 = 0;
	causes_close(r);
	/* No wake-up per record: that would be an irq_work self-IPI on the measured CPU each
	 * time. User space polls on a short timeout; only a filling buffer wakes it. */
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&wake_events, BPF_RB_AVAIL_DATA) > WAKE_RB_WAKE_AT ?
				 BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

static void finish(void)
{
	cur.fired = 0;
	cur.await_tai = 0;
	barrier();
	WRITE_ONCE(armed, 0);
}

static void discard(__u8 reason)
{
	emit(WAKE_REC_DISCARD, reason, 0, -1);
	finish();
}

/* Arm the next datapoint from the queue. Only ever on the measured CPU (CPU_PIN pins the
 * timer to the CPU that starts it). Never from the interrupt-entry programs: our timer may
 * still be queued there, and restarting it would swallow the expiry in progress. */
static int arm_next(void)
{
	struct timer_elem *te;
	__u32 key = 0;
	__u64 head, ldist, now;
	long err = 0;

	if (READ_ONCE(armed) || READ_ONCE(stopping) || bpf_get_smp_processor_id() != cfg_cpu)
		return 0;
	head = q_head;
	if (head == READ_ONCE(q_tail)) {
		starved++;
		return 0;
	}
	ldist = ldist_q[head & (WAKE_LDIST_QLEN - 1)];
	now = bpf_ktime_get_ns();
	cur.ldist = ldist;
	cur.ltime = now + ldist;
	cur.tintr = 0;
	cur.fired = 0;
	cur.idled = 0;
	cur.woke_early = 0;
	cur.await_tai = 0;
	cur.tintr_src = 0;
	seq++;
	ltime_out = cur.ltime;
	WRITE_ONCE(q_head, head + 1);
	barrier();
	WRITE_ONCE(armed, 1);
	if (cfg_source != WAKE_SRC_BPF_TIMER)
		return 0;
	te = bpf_map_lookup_elem(&wake_timer, &key);
	if (te)
		err = bpf_timer_start(&te->timer, cur.ltime, WAKE_TIMER_ABS | WAKE_TIMER_CPU_PIN);
	if (!te || err) {
		arm_err = te ? err : -2;
		WRITE_ONCE(armed, 0);
		return -1;
	}
	return 0;
}

/* The event fired at `now` (>= LTime) on `cpu`: take TIntr and decide what became of it. */
static void on_fire(__u64 now, __u8 src, __u32 cpu)
{
	__u64 ltime = cur.ltime;

	if (!READ_ONCE(armed) || cur.fired || now < ltime)
		return;
	cur.fired = 1;
	cur.tintr = now;
	cur.tintr_src = src;
	cur.fire_cpu = cpu;
	if (cpu != cfg_cpu) {
		discard(WAKE_DISCARD_WRONG_CPU);
		return;
	}
	/* Only an idle period entered after arming belongs to this datapoint: one already
	 * running then (a POLL period that goes on after the previous datapoint's callback
	 * armed this one) would give a TBI from before the event existed, SilentTime > LDist.
	 * Such a datapoint never went idle for its event: not_idle. */
	if (!cur.idled) {
		discard(WAKE_DISCARD_NOT_IDLE);
		return;
	}
	/* A CPU that woke early for something else and went idle again before LTime gives a
	 * datapoint of that later idle period (TBI is its entry), as wult's driver does: it
	 * takes TBI at every idle entry while armed and ignores exits its event did not cause. */
	if (idle.in_idle && idle.tbi < ltime) {
		/* Still idle: the handler runs before the idle exit (IRQs on). */
		if (is_poll_state(idle.state)) {
			/* POLL leaves on need_resched, not on our event: its TAI means nothing. */
			emit(WAKE_REC_DATAPOINT, 0, 0, 0);
			finish();
		} else {
			cur.await_tai = 1;
		}
		return;
	}
	if (!idle.in_idle && idle.tbi < ltime && idle.tai >= ltime) {
		if (is_irq_on_state(idle.state) || idle.irq_in) {
			/* Our handler would have run inside that idle period (an interrupt
			 * handler did run inside it): something else woke the CPU (at or
			 * after LTime, but first). */
			discard(WAKE_DISCARD_OTHER_WAKE);
		} else {
			/* Left idle at or after LTime, before the handler: IRQs were off. */
			emit(WAKE_REC_DATAPOINT, 0, idle.tai, 1);
			finish();
		}
		return;
	}
	discard(cur.woke_early ? WAKE_DISCARD_OTHER_WAKE : WAKE_DISCARD_NOT_IDLE);
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(wake_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	__u64 now;

	if (cpu_id != cfg_cpu)
		return 0;
	now = bpf_ktime_get_ns();
	if (state != PWR_EVENT_EXIT) {
		idle.tbi = now;
		idle.tai = 0;
		idle.state = (__s32)state;
		idle.in_idle = 1;
		idle.irq_in = 0;
		if (READ_ONCE(armed) && !cur.fired)
			cur.idled = 1;
		causes_open();
		return 0;
	}
	idle.tai = now;
	idle.in_idle = 0;
	steal_sample();
	if (READ_ONCE(armed)) {
		if (cur.await_tai) {
			emit(WAKE_REC_DATAPOINT, 0, now, 0);
			finish();
		} else if (!cur.fired && now < cur.ltime && cur.idled) {
			/* Left, before LTime, an idle period entered after arming: something else
			 * woke the CPU. (The exit of a period already running at arming time, e.g.
			 * armed from an interrupt inside it, is the previous event's wake-up.) */
			cur.woke_early = 1;
		}
	}
	if (cfg_source == WAKE_SRC_BPF_TIMER)
		arm_next();
	return 0;
}

SEC("tp_btf/local_timer_entry")
int BPF_PROG(wake_local_timer_entry, int vector)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u8 was_fired;
	__u64 t;

	if (cpu != cfg_cpu)
		return 0;
	t = bpf_ktime_get_ns();
	last_timer_irq = t;
	note_irq();
	steal_sample();
	was_fired = cur.fired;
	on_fire(t, WAKE_TINTR_LOCAL_TIMER, cpu);
	/* Ours: the interrupt that took TIntr (any record it completed is already out). */
	if (was_fired || !cur.fired || cur.tintr != t)
		causes_irq_entry(WAKE_CAUSE_SRC_TIMER, t);
	return 0;
}

/* The handler-exit programs only time the causes: not loaded when they are off. */
static int irq_exit_here(void)
{
	if (bpf_get_smp_processor_id() == cfg_cpu)
		causes_irq_exit(bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/local_timer_exit")
int BPF_PROG(wake_local_timer_exit, int vector)
{
	return irq_exit_here();
}

/* Other interrupts only teach which states run with IRQs on (note_irq): a device IRQ or an
 * IPI whose handler runs inside the idle period woke an IRQs-on state, so an exit at or after
 * LTime before our handler is other_wake, not IntrOff = 1. The x86 vectors are loaded only
 * where the kernel has them (method_bpf.c). */
static int other_irq_entry(__s32 src)
{
	if (bpf_get_smp_processor_id() != cfg_cpu)
		return 0;
	note_irq();
	causes_irq_entry(src, bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(wake_irq_handler_entry, int irq, struct irqaction *action)
{
	return other_irq_entry(irq);
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(wake_irq_handler_exit, int irq, struct irqaction *action, int ret)
{
	return irq_exit_here();
}

SEC("tp_btf/reschedule_entry")
int BPF_PROG(wake_reschedule_entry, int vector)
{
	return other_irq_entry(WAKE_CAUSE_SRC_RESCHED);
}

SEC("tp_btf/reschedule_exit")
int BPF_PROG(wake_reschedule_exit, int vector)
{
	return irq_exit_here();
}

SEC("tp_btf/call_function_entry")
int BPF_PROG(wake_call_function_entry, int vector)
{
	return other_irq_entry(WAKE_CAUSE_SRC_CALL);
}

SEC("tp_btf/call_function_exit")
int BPF_PROG(wake_call_function_exit, int vector)
{
	return irq_exit_here();
}

SEC("tp_btf/call_function_single_entry")
int BPF_PROG(wake_call_function_single_entry, int vector)
{
	return other_irq_entry(WAKE_CAUSE_SRC_CALL);
}

SEC("tp_btf/call_function_single_exit")
int BPF_PROG(wake_call_function_single_exit, int vector)
{
	return irq_exit_here();
}

SEC("tp_btf/irq_work_entry")
int BPF_PROG(wake_irq_work_entry, int vector)
{
	return other_irq_entry(WAKE_CAUSE_SRC_IRQ_WORK);
}

SEC("tp_btf/irq_work_exit")
int BPF_PROG(wake_irq_work_exit, int vector)
{
	return irq_exit_here();
}

/* Called once per handler of each NMI: counts the calls that handled it. */
SEC("tp_btf/nmi_handler")
int BPF_PROG(wake_nmi_handler, void *handler, __s64 delta_ns, int handled)
{
	if (handled && bpf_get_smp_processor_id() == cfg_cpu)
		causes_nmi();
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(wake_hrtimer_expire_entry, struct hrtimer *hrtimer, ktime_t *now)
{
	__u64 t = bpf_ktime_get_ns();

	if (!READ_ONCE(armed) || cur.fired)
		return 0;
	if ((__u64)BPF_CORE_READ(hrtimer, _softexpires) != cur.ltime)
		return 0;
	on_fire(t, WAKE_TINTR_HRTIMER, bpf_get_smp_processor_id());
	return 0;
}

#define HRTIMER_SOFTIRQ_NR 8	/* HRTIMER_SOFTIRQ in include/linux/interrupt.h */

SEC("tp_btf/softirq_entry")
int BPF_PROG(wake_softirq_entry, unsigned int vec_nr)
{
	if (bpf_get_smp_processor_id() != cfg_cpu)
		return 0;
	causes_softirq_entry(bpf_ktime_get_ns());
	if (vec_nr == HRTIMER_SOFTIRQ_NR) {
		softirq_entry_t = bpf_ktime_get_ns();
		softirq_ran_cb = 0;
	}
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(wake_softirq_exit, unsigned int vec_nr)
{
	bool ours = vec_nr == HRTIMER_SOFTIRQ_NR && softirq_ran_cb;

	if (bpf_get_smp_processor_id() != cfg_cpu)
		return 0;
	causes_softirq_exit(vec_nr, ours, bpf_ktime_get_ns());
	if (ours && softirq_entry_t) {
		hist_add(WAKE_HIST_SOFTIRQ, bpf_ktime_get_ns() - softirq_entry_t);
		softirq_ran_cb = 0;
	}
	return 0;
}

static int wake_timer_cb(void *map, __u32 *key, struct timer_elem *te)
{
	__u64 t = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id();

	/* The timer interrupt that expired our hrtimer: the last one at or after its expiry. */
	if (cpu == cfg_cpu && last_timer_irq >= cur.ltime && last_timer_irq <= t)
		hist_add(WAKE_HIST_TO_CB, t - last_timer_irq);
	softirq_ran_cb = cpu == cfg_cpu;
	on_fire(t, WAKE_TINTR_CALLBACK, cpu);
	arm_next();
	if (cpu == cfg_cpu)
		hist_add(WAKE_HIST_CB, bpf_ktime_get_ns() - t);
	return 0;
}

/* Run by user space on the measured CPU: set the timer up and check that this kernel
 * takes BPF_F_TIMER_ABS | BPF_F_TIMER_CPU_PIN (6.7+). Returns 0 or the -errno. */
SEC("syscall")
int wake_timer_setup(void *ctx)
{
	struct timer_elem *te;
	__u32 key = 0;
	long err;

	te = bpf_map_lookup_elem(&wake_timer, &key);
	if (!te)
		return -2;
	err = bpf_timer_init(&te->timer, &wake_timer, CLOCK_MONOTONIC);
	if (err)
		return err;
	err = bpf_timer_set_callback(&te->timer, wake_timer_cb);
	if (err)
		return err;
	/* An absolute expiry an hour ahead: accepted only by kernels that know the flags.
	 * Left armed (the first datapoint restarts it): on 6.18 a bpf_timer_cancel() here
	 * made the next bpf_timer_start() fail with -EINVAL. */
	return bpf_timer_start(&te->timer, bpf_ktime_get_ns() + 3600ull * 1000000000ull,
			       WAKE_TIMER_ABS | WAKE_TIMER_CPU_PIN);
}

/* Run by user space on the measured CPU: arm the next datapoint if none is in flight
 * (start, after a stall, and each datapoint of the thread source). */
SEC("syscall")
int wake_arm(void *ctx)
{
	/* Thread source: the thread runs again only after its wake-up was handled, so a
	 * datapoint still unfired never got its interrupt (LTime passed before the sleep). */
	if (cfg_source == WAKE_SRC_THREAD && READ_ONCE(armed) && !cur.fired) {
		cur.fire_cpu = bpf_get_smp_processor_id();
		discard(cur.woke_early ? WAKE_DISCARD_OTHER_WAKE : WAKE_DISCARD_NOT_IDLE);
	}
	return arm_next();
}
