/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The module's datapoint decisions (kmod/logic.c) compiled as plain C against stand-ins
 * (tests/kmod/shim/), driven through the orderings of our deadline write, the kernel's
 * reprogramming, timer interrupts and idle exits that QEMU cannot produce (TCG has no
 * TSC-deadline timer). The test models the CPU: the TSC, IA32_TSC_DEADLINE (who wrote it),
 * the timer vector pending in the local APIC. Each scenario checks the event's outcome
 * exactly, and every datapoint is checked against the model: its TIntr must be the delivery
 * of an interrupt that our deadline raised (the kernel's interrupt taken as ours was issue 18).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "logic.c"
#define CHECK_CONTEXT scenario   /* the scenario being run, in every failure */
#include "../common/check.h"

#define CPU 0
#define L 1000ull             /* LaunchTime (TSC for tdt, ns for hrt) */
#define ST_HLT 0              /* idle state entered with IRQs on (handler runs inside idle) */
#define ST_MWAIT 1            /* idle state entered with IRQs off (idle exit before the handler) */

enum owner { NOBODY, OURS, KERNEL };

static struct idlescope_dev dev;
static u64 now, msr, our_intr[8];
static enum owner msr_owner, pending;
static int n_our_intr, wakeups, fail_write;
static const char *scenario;

/* ---------------------------------------------------------------- the kernel, as seen by logic.c */

u64 rdtsc(void) { return now; }
u64 ktime_get_ns(void) { return now; }
int wake_up_process(struct task_struct *t) { (void)t; wakeups++; return 1; }

void idlescope_counters_read(u64 mask, bool smi, u64 *m, u64 *smi_cnt, u64 *nmi_cnt)
{
	(void)mask, (void)smi, (void)m;
	*smi_cnt = *nmi_cnt = 0;
}

int idlescope_tdt_read_deadline(u64 *v)
{
	*v = msr;
	return 0;
}

int idlescope_tdt_write_deadline(struct idlescope_dev *d, u64 v)
{
	if (fail_write)
		return -EIO;
	msr = v;
	msr_owner = OURS;
	d->tdt_writing = true;   /* our own write goes through the write_msr tracepoint too */
	idlescope_on_msr_write(d, CPU, IDLESCOPE_MSR_TSC_DEADLINE);
	d->tdt_writing = false;
	return 0;
}

bool idlescope_tdt_timer_pending(void) { return pending != NOBODY; }

/* ---------------------------------------------------------------- the CPU model */

static void start(const char *name, int method)
{
	scenario = name;
	memset(&dev, 0, sizeof(dev));
	dev.cfg.cpu = CPU;
	dev.cfg.method = (__u32)method;
	dev.idle_state = -1;
	dev.irq_on_states = BIT_ULL(ST_HLT);
	dev.ev.state = EV_ARMED;
	dev.ev.discard = -1;
	dev.ev.req_state = -1;
	dev.ev.ltime = dev.ev.tsc_ltime = L;
	now = msr = 0;
	msr_owner = pending = NOBODY;
	n_our_intr = wakeups = fail_write = 0;
}

/* Time passes to t; a deadline reached fires (the MSR clears, the vector becomes pending). */
static void at(u64 t)
{
	if (msr && msr <= t) {
		pending = msr_owner;
		msr = 0;
		msr_owner = NOBODY;
	}
	now = t;
}

static void kernel_write(u64 v)
{
	msr = v;
	msr_owner = KERNEL;
	idlescope_on_msr_write(&dev, CPU, IDLESCOPE_MSR_TSC_DEADLINE);
}

/* A write the tracepoint did not show (a kernel that writes the MSR untraced). */
static void kernel_write_unseen(u64 v)
{
	msr = v;
	msr_owner = KERNEL;
}

/* The pending timer interrupt is delivered: local_timer_entry, then (hrt) our handler. */
static void intr(void)
{
	enum owner o = pending;

	pending = NOBODY;
	if (o == OURS && n_our_intr < 8)
		our_intr[n_our_intr++] = now;
	idlescope_on_local_timer(&dev, CPU);
}

static void enter(unsigned int state) { idlescope_on_cpu_idle(&dev, state, CPU); }
static void leave(void) { idlescope_on_cpu_idle(&dev, IDLESCOPE_IDLE_EXIT, CPU); }

/* The outcome: -2 still armed, -1 datapoint, else the discard reason. Every datapoint's TIntr
 * must be an interrupt our deadline raised. */
static int outcome(void)
{
	if (dev.ev.state != EV_DONE)
		return -2;
	if (dev.ev.discard < 0 && idlescope_is_tdt(&dev)) {
		bool ours = false;
		for (int i = 0; i < n_our_intr; i++)
			ours |= our_intr[i] == dev.ev.tintr;
		CHECK_MSG(ours, "datapoint with TIntr %llu, which is not our deadline's interrupt",
		      (unsigned long long)dev.ev.tintr);
	}
	CHECK_MSG(wakeups == 1, "armer woken %d times", wakeups);
	return dev.ev.discard;
}

static void expect_datapoint(u64 tbi, u64 tai, u64 tintr)
{
	CHECK_MSG(outcome() == -1, "outcome %d, expected a datapoint", dev.ev.state == EV_DONE ? dev.ev.discard : -2);
	CHECK_MSG(dev.ev.tbi == tbi && dev.ev.tai == tai && dev.ev.tintr == tintr,
	      "TBI %llu TAI %llu TIntr %llu, expected %llu %llu %llu", (unsigned long long)dev.ev.tbi,
	      (unsigned long long)dev.ev.tai, (unsigned long long)dev.ev.tintr, (unsigned long long)tbi,
	      (unsigned long long)tai, (unsigned long long)tintr);
}

static void expect_discard(int reason)
{
	int got = outcome();
	CHECK_MSG(got == reason, "outcome %d, expected discard %d", got, reason);
}

/* ---------------------------------------------------------------- tdt */

static void tdt_clean(void)
{
	start("tdt: write, fire, idle exit, interrupt (IRQs off in idle)", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	CHECK_MSG(msr == L && msr_owner == OURS, "our deadline not written (msr %llu)", (unsigned long long)msr);
	at(1010); leave();
	at(1020); intr();
	expect_datapoint(100, 1010, 1020);

	start("tdt: write, fire, interrupt in idle, idle exit (IRQs on in idle)", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_HLT);
	at(1005); intr();
	at(1015); leave();
	expect_datapoint(100, 1015, 1005);
}

static void tdt_kernel_first(void)
{
	start("tdt: the kernel's deadline first, ours at the next idle entry", IDLESCOPE_METHOD_TDT);
	kernel_write(500);
	at(100); enter(ST_MWAIT);
	CHECK_MSG(msr == 500 && msr_owner == KERNEL, "the kernel's earlier deadline was replaced");
	at(500); leave();
	at(505); intr();
	kernel_write(5000);        /* its handler reprograms the next event */
	at(520); enter(ST_MWAIT);
	CHECK_MSG(msr == L && msr_owner == OURS, "not armed at the second idle entry");
	at(1003); leave();
	at(1008); intr();
	expect_datapoint(520, 1003, 1008);
}

static void tdt_replaced(void)
{
	/* the tick restarts after an early wake and replaces ours with a later deadline; the next
	 * idle entry before LTime arms ours again */
	start("tdt: ours replaced after an early wake, re-armed at the next idle entry", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	kernel_write(1200);
	CHECK_MSG(!dev.ev.tdt_ours, "replacement before LTime not noticed");
	at(320); enter(ST_MWAIT);
	CHECK_MSG(msr == L && msr_owner == OURS, "not re-armed");
	at(1004); leave();
	at(1009); intr();
	kernel_write(1200);
	expect_datapoint(320, 1004, 1009);

	/* replaced inside an idle period (a handler ran in an IRQs-on state): no idle entry
	 * before LTime, the kernel's interrupt at 1200 is not ours */
	start("tdt: ours replaced inside idle, the kernel's interrupt after LTime", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_HLT);
	at(300); kernel_write(1200);
	at(1200); intr();
	at(1210); leave();
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);

	start("tdt: ours replaced by an earlier one inside idle, re-armed after it", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_HLT);
	at(300); kernel_write(600);
	at(600); intr();
	kernel_write(5000);
	at(610); leave();
	CHECK_MSG(dev.ev.state == EV_ARMED, "the kernel's interrupt before LTime ended the event");
	at(620); enter(ST_HLT);
	at(1002); intr();
	at(1012); leave();
	expect_datapoint(620, 1012, 1002);

	start("tdt: ours replaced, busy through LTime", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	kernel_write(1200);
	at(1200); intr();
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);
}

static void tdt_write_around_ltime(void)
{
	/* ours fired while interrupts were off; the kernel writes before the interrupt is taken:
	 * the pending vector is ours */
	start("tdt: kernel write after ours fired, interrupt still pending", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(1003); leave();
	at(1006); kernel_write(4000);
	CHECK_MSG(dev.ev.tdt_ours, "our fired deadline taken as replaced");
	at(1010); intr();
	expect_datapoint(100, 1003, 1010);

	/* the kernel's write came just before LTime, its trace just after: ours never fired */
	start("tdt: kernel write just before LTime, seen after it", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_HLT);
	at(999); msr = 3000; msr_owner = KERNEL;
	at(1001); idlescope_on_msr_write(&dev, CPU, IDLESCOPE_MSR_TSC_DEADLINE);
	CHECK_MSG(!dev.ev.tdt_ours, "replacement not noticed");
	at(3000); intr();
	at(3010); leave();
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);
}

static void tdt_unseen_writes(void)
{
	start("tdt: unseen write, found at the idle exit, re-armed", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(200); kernel_write_unseen(1500);
	at(300); leave();
	CHECK_MSG(!dev.ev.tdt_ours, "unseen replacement not found at the idle exit");
	at(310); enter(ST_MWAIT);
	CHECK_MSG(msr == L && msr_owner == OURS, "not re-armed");
	at(1001); leave();
	at(1002); intr();
	expect_datapoint(310, 1001, 1002);

	start("tdt: unseen earlier write, its interrupt before LTime ends ours", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_HLT);
	at(200); kernel_write_unseen(400);
	at(400); intr();
	CHECK_MSG(!dev.ev.tdt_ours && dev.ev.state == EV_ARMED, "interrupt before LTime misread");
	at(405); leave();
	kernel_write_unseen(5000);
	at(410); enter(ST_HLT);
	CHECK_MSG(msr == L && msr_owner == OURS, "not re-armed after the unseen write");
	at(1001); intr();
	at(1003); leave();
	expect_datapoint(410, 1003, 1001);

	start("tdt: unseen write found at the next idle entry", IDLESCOPE_METHOD_TDT);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	kernel_write_unseen(2000);
	at(320); enter(ST_MWAIT);
	CHECK_MSG(msr == L && msr_owner == OURS, "not re-armed over the unseen write");
	at(1001); leave();
	at(1002); intr();
	expect_datapoint(320, 1001, 1002);
}

static void tdt_no_arm(void)
{
	start("tdt: our write fails, the kernel's interrupt after LTime", IDLESCOPE_METHOD_TDT);
	kernel_write(1500);
	fail_write = 1;
	at(100); enter(ST_MWAIT);
	CHECK_MSG(!dev.ev.tdt_ours && msr == 1500, "a failed write taken as ours");
	at(1500); leave();
	at(1501); intr();
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);

	start("tdt: the guard, idle since before LTime", IDLESCOPE_METHOD_TDT);
	at(100); enter(ST_MWAIT);
	at(2000); idlescope_event_guard(&dev);
	expect_discard(IDLESCOPE_DISCARD_LOST);

	start("tdt: the guard, never idle", IDLESCOPE_METHOD_TDT);
	at(2000); idlescope_event_guard(&dev);
	expect_discard(IDLESCOPE_DISCARD_NOT_IDLE);

	start("tdt: timer interrupt after LTime, never idle", IDLESCOPE_METHOD_TDT);
	kernel_write(1100);
	at(1100); intr();
	expect_discard(IDLESCOPE_DISCARD_NOT_IDLE);
}

/* ---------------------------------------------------------------- both methods */

static void late_idle_entry(int method, const char *name_early, const char *name_never)
{
	/* idle before LTime, an early wake, busy at LTime, idle again only after it: other_wake */
	start(name_early, method);
	kernel_write(5000);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	at(1100); enter(ST_MWAIT);
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);

	start(name_never, method);
	at(1100); enter(ST_MWAIT);
	expect_discard(IDLESCOPE_DISCARD_NOT_IDLE);
}

static void hrt(void)
{
	start("hrt: handler after the idle exit", IDLESCOPE_METHOD_HRT);
	at(100); enter(ST_MWAIT);
	at(1010); leave();
	at(1020); idlescope_event_fired(&dev, now, now);
	expect_datapoint(100, 1010, 1020);

	start("hrt: handler inside idle", IDLESCOPE_METHOD_HRT);
	at(100); enter(ST_HLT);
	at(1005); idlescope_on_local_timer(&dev, CPU); idlescope_event_fired(&dev, now, now);
	at(1015); leave();
	expect_datapoint(100, 1015, 1005);

	start("hrt: early wake, idle again before LTime", IDLESCOPE_METHOD_HRT);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	at(400); enter(ST_MWAIT);
	at(1010); leave();
	at(1020); idlescope_event_fired(&dev, now, now);
	expect_datapoint(400, 1010, 1020);

	start("hrt: early wake, busy at LTime", IDLESCOPE_METHOD_HRT);
	at(100); enter(ST_MWAIT);
	at(300); leave();
	at(1020); idlescope_event_fired(&dev, now, now);
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);

	start("hrt: woken after LTime by something else from an IRQs-on state", IDLESCOPE_METHOD_HRT);
	at(100); enter(ST_HLT);
	at(1001); leave();
	expect_discard(IDLESCOPE_DISCARD_OTHER_WAKE);
}

int main(void)
{
	tdt_clean();
	tdt_kernel_first();
	tdt_replaced();
	tdt_write_around_ltime();
	tdt_unseen_writes();
	tdt_no_arm();
	late_idle_entry(IDLESCOPE_METHOD_TDT, "tdt: idle entry after LTime after an early wake",
			"tdt: idle entry after LTime, never idle before");
	late_idle_entry(IDLESCOPE_METHOD_HRT, "hrt: idle entry after LTime after an early wake",
			"hrt: idle entry after LTime, never idle before");
	hrt();
	if (check_failures) {
		printf("%d check(s) failed\n", check_failures);
		return 1;
	}
	printf("kmod_logic_test: all checks passed\n");
	return 0;
}
