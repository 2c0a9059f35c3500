/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bpf method's datapoint logic run in user space: collect/methods/bpf/wake.bpf.c compiled as
 * plain C against stand-ins for the kernel types and BPF helpers (tests/bpf/shim/), then fed
 * sequences of idle entries/exits and timer interrupts on the measured CPU (0, event source
 * bpf_timer). Each sequence must give exactly one record: a datapoint with the right
 * TBI/TAI/TIntr/IntrOff, or a discard with the right reason (the same rules as the hrt
 * method in kmod/probes.c). Needs no privileges, no clang and no BTF.
 */
#include <stdio.h>
#include <string.h>

#define WAKE_USER_SHIM
#include "wake.bpf.c"
#define CHECK_CONTEXT scenario   /* the scenario being run, in every failure */
#include "../common/check.h"

#define MAX_RECS 8
#define LDIST 1000ull
#define OTHER_CPU 1

static __u64 now_ns;
static __u32 on_cpu;
static struct wake_rec slot, recs[MAX_RECS];
static int nrecs;
static struct timer_elem the_timer;
static __u64 armed_time;

#define CHECK_IN(name, cond, ...) do { const char *scenario = (name); CHECK_MSG(cond, __VA_ARGS__); } while (0)

/* ---------------------------------------------------------------- helpers the programs call */

void *bpf_ringbuf_reserve(void *ringbuf, __u64 size, __u64 flags)
{
	(void)ringbuf, (void)size, (void)flags;
	return &slot;
}

void bpf_ringbuf_submit(void *data, __u64 flags)
{
	(void)flags;
	if (nrecs < MAX_RECS)
		recs[nrecs] = *(struct wake_rec *)data;
	nrecs++;
}

__u64 bpf_ringbuf_query(void *ringbuf, __u64 flags)
{
	(void)ringbuf, (void)flags;
	return 0;
}

__u32 bpf_get_smp_processor_id(void)
{
	return on_cpu;
}

__u64 bpf_ktime_get_ns(void)
{
	return now_ns;
}

static __s64 steal_clock = -1;	/* the measured CPU's steal clock; -1 = cannot be read */

__s64 shim_steal_clock(void)
{
	return steal_clock;
}

void *bpf_map_lookup_elem(void *map, const void *key)
{
	(void)map, (void)key;
	return &the_timer;
}

long bpf_timer_init(struct bpf_timer *timer, void *map, __u64 flags)
{
	(void)timer, (void)map, (void)flags;
	return 0;
}

long bpf_timer_start(struct bpf_timer *timer, __u64 nsecs, __u64 flags)
{
	(void)timer, (void)nsecs, (void)flags;
	return 0;
}

/* ---------------------------------------------------------------- what happens on the CPU */

/* A fresh start: nothing armed, the CPU busy, one LDist queued. */
static void reset(void)
{
	memset(&cur, 0, sizeof(cur));
	memset(&idle, 0, sizeof(idle));
	armed = 0;
	stopping = 0;
	nrecs = 0;
	ldist_q[q_tail & (WAKE_LDIST_QLEN - 1)] = LDIST;
	q_tail++;
}

/* Arm at time t, as wake_arm does at start-up (LTime = t + LDist). */
static void arm_at(__u64 t)
{
	now_ns = t;
	armed_time = t;
	wake_arm(NULL);
}

static void start(__u64 t)
{
	reset();
	arm_at(t);
}

static void idle_enter(__u64 t, int state)
{
	now_ns = t;
	wake_cpu_idle((unsigned int)state, 0);
}

static void idle_exit(__u64 t)
{
	now_ns = t;
	wake_cpu_idle(PWR_EVENT_EXIT, 0);
}

/* The event's interrupt at t on cpu: the timer vector, then in the softirq our hrtimer's
 * expiry and the bpf_timer callback. */
static void event_irq(__u64 t, __u32 cpu)
{
	struct hrtimer h = { ._softexpires = cur.ltime };

	now_ns = t;
	on_cpu = cpu;
	wake_local_timer_entry(0xec);
	wake_hrtimer_expire_entry(&h, NULL);
	wake_timer_cb(NULL, NULL, NULL);
	on_cpu = 0;
}

/* Another interrupt (a device IRQ, then a reschedule IPI) handled on the measured CPU at t. */
static void other_irq(__u64 t)
{
	now_ns = t;
	wake_irq_handler_entry(11, NULL);
	wake_reschedule_entry(0xfd);
}

/* ---------------------------------------------------------------- checks */

static void expect_discard(const char *scenario, int reason)
{
	CHECK_MSG(nrecs == 1, "%d records, expected 1", nrecs);
	if (nrecs != 1)
		return;
	CHECK_MSG(recs[0].kind == WAKE_REC_DISCARD && recs[0].reason == reason,
	      "record kind %u reason %u, expected a discard with reason %d", recs[0].kind, recs[0].reason, reason);
}

static void expect_datapoint(const char *scenario, __u64 tbi, __u64 tai, __u64 tintr, int intr_off)
{
	CHECK_MSG(nrecs == 1, "%d records, expected 1", nrecs);
	if (nrecs != 1)
		return;
	const struct wake_rec *r = &recs[0];
	CHECK_MSG(r->kind == WAKE_REC_DATAPOINT, "record kind %u (reason %u), expected a datapoint", r->kind, r->reason);
	CHECK_MSG(r->tbi == tbi && r->tai == tai && r->tintr == tintr && r->intr_off == intr_off,
	      "TBI %llu TAI %llu TIntr %llu IntrOff %d, expected %llu %llu %llu %d", (unsigned long long)r->tbi,
	      (unsigned long long)r->tai, (unsigned long long)r->tintr, r->intr_off, (unsigned long long)tbi,
	      (unsigned long long)tai, (unsigned long long)tintr, intr_off);
	CHECK_MSG(r->ldist == LDIST && r->ltime == armed_time + LDIST, "LDist %llu LTime %llu",
	      (unsigned long long)r->ldist, (unsigned long long)r->ltime);
}

/* ---------------------------------------------------------------- scenarios (LTime = arm + 1000) */

static void test_datapoints(void)
{
	irq_on_states = 0;
	start(0);                  /* HLT: the handler runs inside the idle period */
	idle_enter(100, 1);
	event_irq(1005, 0);
	idle_exit(1020);
	expect_datapoint("IRQs on", 100, 1020, 1005, 0);

	start(0);                  /* MWAIT with IRQs off: it leaves idle first */
	idle_enter(100, 3);
	idle_exit(1010);
	event_irq(1015, 0);
	expect_datapoint("IRQs off", 100, 1010, 1015, 1);

	reset();                   /* armed from an interrupt inside an idle period, which then ends */
	idle_enter(5, 1);
	arm_at(10);
	idle_exit(20);
	idle_enter(50, 1);
	event_irq(1015, 0);
	idle_exit(1030);
	expect_datapoint("armed inside an idle period", 50, 1030, 1015, 0);

	start(0);                  /* woke early for something else, idle again before LTime */
	idle_enter(100, 1);
	idle_exit(300);
	idle_enter(500, 1);
	event_irq(1005, 0);
	idle_exit(1020);
	expect_datapoint("woke early, idle again before LTime (TBI of the later period)", 500, 1020,
			 1005, 0);
}

static void test_discards(void)
{
	start(0);
	idle_enter(100, 1);
	idle_exit(300);
	event_irq(1005, 0);
	expect_discard("woke early, busy at LTime", WAKE_DISCARD_OTHER_WAKE);

	start(0);
	event_irq(1005, 0);
	expect_discard("busy all along", WAKE_DISCARD_NOT_IDLE);

	start(0);
	idle_enter(1002, 1);
	event_irq(1005, 0);
	idle_exit(1020);
	expect_discard("idle only after LTime", WAKE_DISCARD_NOT_IDLE);

	irq_on_states = 1u << 1;   /* left an IRQs-on state at LTime before our handler ran */
	start(0);
	idle_enter(100, 1);
	idle_exit(1002);
	event_irq(1005, 0);
	expect_discard("other wake at LTime", WAKE_DISCARD_OTHER_WAKE);

	start(0);
	idle_enter(100, 1);
	event_irq(1005, OTHER_CPU);
	expect_discard("fired on another CPU", WAKE_DISCARD_WRONG_CPU);

	/* Armed (from the previous datapoint's callback) inside an idle period with IRQs on that
	 * goes on past LTime, as POLL does: no idle entry after arming, so no TBI of its own
	 * (it used to be a datapoint with TBI 5 and SilentTime 1000 > LDist). */
	irq_on_states = 1u << 1;
	reset();
	idle_enter(5, 1);
	arm_at(10);
	event_irq(1015, 0);
	idle_exit(1030);
	expect_discard("idle period from before arming, still running at LTime", WAKE_DISCARD_NOT_IDLE);

	/* The same with IRQs off: the old period ends after LTime, before the handler. */
	irq_on_states = 0;
	reset();
	idle_enter(5, 3);
	arm_at(10);
	idle_exit(1010);
	event_irq(1015, 0);
	expect_discard("idle period from before arming, left after LTime", WAKE_DISCARD_NOT_IDLE);
}

/* Before any timer interrupt arrived inside state 1 (HLT with IRQs on), another interrupt
 * wakes it at LTime, ahead of ours: its handler runs inside the idle period, so the exit
 * before our handler is other_wake, not a datapoint with IntrOff = 1 and the other
 * interrupt's exit as TAI (what the code before 2026-11-24 recorded). */
static void test_unlearnt_states(void)
{
	irq_on_states = 0;
	start(0);
	idle_enter(100, 1);
	other_irq(1001);
	idle_exit(1002);
	event_irq(1005, 0);
	expect_discard("state not learnt yet, another interrupt first at LTime", WAKE_DISCARD_OTHER_WAKE);
	CHECK_IN("learning", irq_on_states == 1u << 1, "irq_on_states %#llx after an IRQ inside state 1, expected 0x2",
	      (unsigned long long)irq_on_states);

	/* Learnt from that interrupt: a later exit of state 1 at LTime before our handler is
	 * other_wake even when the interrupt that caused it was not traced. */
	start(0);
	idle_enter(100, 1);
	idle_exit(1002);
	event_irq(1005, 0);
	expect_discard("learnt from another interrupt, untraced wake at LTime", WAKE_DISCARD_OTHER_WAKE);

	/* An interrupt inside an earlier idle period says nothing about this one's exit order in a
	 * state not known: state 3 (IRQs off) stays IntrOff = 1. */
	irq_on_states = 0;
	start(0);
	idle_enter(50, 1);
	other_irq(60);
	idle_exit(70);
	idle_enter(100, 3);
	idle_exit(1010);
	event_irq(1015, 0);
	expect_datapoint("IRQs off after an interrupt in another state's period", 100, 1010, 1015, 1);
	CHECK_IN("learning", irq_on_states == 1u << 1, "irq_on_states %#llx, expected 0x2 (state 3 not learnt)",
	      (unsigned long long)irq_on_states);

	/* An interrupt while busy teaches nothing. */
	irq_on_states = 0;
	start(0);
	other_irq(50);
	idle_enter(100, 3);
	idle_exit(1010);
	event_irq(1015, 0);
	expect_datapoint("IRQs off, interrupt while busy before", 100, 1010, 1015, 1);
	CHECK_IN("learning", irq_on_states == 0, "irq_on_states %#llx after an interrupt while busy, expected 0",
	      (unsigned long long)irq_on_states);
}

/* A softirq of vector vec on the measured CPU from t0 to t1; HRTIMER runs our callback. */
static void softirq(unsigned int vec, __u64 t0, __u64 t1)
{
	struct hrtimer h = { ._softexpires = cur.ltime };

	now_ns = t0;
	wake_softirq_entry(vec);
	if (vec == HRTIMER_SOFTIRQ_NR) {
		wake_hrtimer_expire_entry(&h, NULL);
		wake_timer_cb(NULL, NULL, NULL);
	}
	now_ns = t1;
	wake_softirq_exit(vec);
}

static void device_irq(int irq, __u64 t0, __u64 t1)
{
	now_ns = t0;
	wake_irq_handler_entry(irq, NULL);
	now_ns = t1;
	wake_irq_handler_exit(irq, NULL, 1);
}

static void expect_causes(const char *scenario, __u32 irqs, __u64 irq_ns, __s32 top, __u32 sirqs,
			  __u64 sirq_ns, __u32 mask, __s32 nmis)
{
	const struct wake_rec *r = &recs[0];

	CHECK_MSG(nrecs == 1 && r->kind == WAKE_REC_DATAPOINT, "%d records, expected 1 datapoint", nrecs);
	if (nrecs != 1)
		return;
	CHECK_MSG(r->causes == 1 && r->irq_cnt == irqs && r->irq_ns == irq_ns && r->irq_top == top &&
		  r->sirq_cnt == sirqs && r->sirq_ns == sirq_ns && r->sirq_mask == mask &&
		  r->nmi_cnt == nmis,
		  "causes %u IRQs %u/%llu ns top %d, softirqs %u/%llu ns mask %#x, NMIs %d; "
		  "expected 1, %u/%llu top %d, %u/%llu mask %#x, %d", r->causes, r->irq_cnt,
		  (unsigned long long)r->irq_ns, r->irq_top, r->sirq_cnt, (unsigned long long)r->sirq_ns,
		  r->sirq_mask, r->nmi_cnt, irqs, (unsigned long long)irq_ns, top,
		  sirqs, (unsigned long long)sirq_ns, mask, nmis);
}

/* The cause counts: from the last idle entry (TBI) to the record, our own timer interrupt and
 * the HRTIMER softirq that ran our callback left out. */
static void test_causes(void)
{
	cfg_causes = 1;
	irq_on_states = 0;
	start(0);
	device_irq(30, 40, 45);            /* before the window: not counted */
	wake_nmi_handler(NULL, 3, 1);
	idle_enter(100, 1);
	now_ns = 1005;                     /* ours */
	wake_local_timer_entry(0xec);
	now_ns = 1007;
	wake_local_timer_exit(0xec);
	softirq(HRTIMER_SOFTIRQ_NR, 1008, 1010);   /* ours: ran the callback */
	softirq(9, 1011, 1014);            /* RCU */
	softirq(1, 1014, 1016);            /* TIMER */
	device_irq(11, 1015, 1018);
	device_irq(11, 1018, 1019);
	now_ns = 1019;                     /* a reschedule IPI, 1019 -> 1019 */
	wake_reschedule_entry(0xfd);
	wake_reschedule_exit(0xfd);
	wake_nmi_handler(NULL, 3, 1);      /* one NMI, two handlers: one handled it */
	wake_nmi_handler(NULL, 2, 0);
	idle_exit(1020);
	expect_causes("IRQs on: others between TIntr and TAI", 3, 4, 11, 2, 5, (1u << 9) | (1u << 1), 1);

	start(0);                          /* a quiet window: zeros */
	idle_enter(100, 3);
	idle_exit(1010);
	event_irq(1015, 0);
	expect_causes("quiet", 0, 0, WAKE_CAUSE_SRC_NONE, 0, 0, 0, 0);

	start(0);                          /* a second timer interrupt that is not ours */
	idle_enter(100, 1);
	event_irq(1005, 0);
	now_ns = 1012;
	wake_local_timer_entry(0xec);
	now_ns = 1014;
	wake_local_timer_exit(0xec);
	idle_exit(1020);
	expect_causes("a timer interrupt after ours", 1, 2, WAKE_CAUSE_SRC_TIMER, 0, 0, 0, 0);

	cfg_causes = 0;                    /* --no-causes */
	start(0);
	idle_enter(100, 1);
	device_irq(11, 1001, 1002);
	event_irq(1005, 0);
	idle_exit(1020);
	CHECK_IN("off", nrecs == 1 && recs[0].causes == 0 && recs[0].nmi_cnt == -1 && recs[0].irq_cnt == 0,
		 "%d records, causes %u nmi %d IRQs %u with the causes off", nrecs, recs[0].causes,
		 recs[0].nmi_cnt, recs[0].irq_cnt);
}

static void expect_steal(const char *scenario, __s64 steal_ns)
{
	CHECK_MSG(nrecs == 1 && recs[0].kind == WAKE_REC_DATAPOINT, "%d records, expected 1 datapoint", nrecs);
	CHECK_MSG(recs[0].steal_ns == steal_ns, "StealTime %lld ns, expected %lld",
		  (long long)recs[0].steal_ns, (long long)steal_ns);
}

/* A window with IRQs off: steal clock s0 at TBI, s1 at TAI, s2 at our interrupt (TIntr),
 * then s3 at the next idle exit, after the record. */
static void steal_window(__s64 s0, __s64 s1, __s64 s2, __s64 s3)
{
	start(0);
	steal_clock = s0;
	idle_enter(100, 3);
	steal_clock = s1;
	idle_exit(1010);
	steal_clock = s2;
	event_irq(1015, 0);
	expect_datapoint("steal window", 100, 1010, 1015, 1);
	steal_clock = s3;
	idle_enter(1100, 3);
	idle_exit(1200);
}

/* StealTime: the steal clock's advance from TBI to the last sample before the record. */
static void test_steal(void)
{
	cfg_causes = 1;
	cfg_steal_delta = 4096;
	irq_on_states = 0;
	steal_window(5000, 5200, 5300, 9000);
	expect_steal("TBI to TIntr (IRQs off)", 300);
	steal_window(7000, 7000, 7000, 7500);
	expect_steal("no steal", 0);
	steal_window(-1, 5200, 5300, 9000);
	expect_steal("unreadable at TBI", -1);
	steal_window(5000, 5200, -1, 9000);
	expect_steal("unreadable at TIntr", -1);

	start(0);                          /* IRQs on: the record at TAI, after TIntr */
	steal_clock = 100;
	idle_enter(100, 1);
	steal_clock = 150;
	event_irq(1005, 0);
	steal_clock = 400;
	idle_exit(1020);
	expect_steal("TBI to TAI (IRQs on)", 300);

	cfg_steal_delta = 0;               /* not a KVM guest with steal time */
	steal_window(5000, 5200, 5300, 9000);
	expect_steal("no steal clock", -1);
	cfg_steal_delta = 4096;
	cfg_causes = 0;                    /* --no-causes */
	steal_window(5000, 5200, 5300, 9000);
	expect_steal("causes off", -1);
	cfg_steal_delta = 0;
}

int main(void)
{
	test_datapoints();
	test_discards();
	test_unlearnt_states();
	test_causes();
	test_steal();
	if (check_failures) {
		printf("%d check(s) failed\n", check_failures);
		return 1;
	}
	printf("wake_logic_test: all checks passed\n");
	return 0;
}
