// SPDX-License-Identifier: GPL-2.0
/* tdt: the event is the local APIC timer in TSC-deadline mode, armed by writing
 * IA32_TSC_DEADLINE directly at idle entry (after the kernel has programmed its own next
 * event), only when ours comes first, so the kernel's events are never delayed. When ours
 * fires, the kernel's timer interrupt handler finds nothing due and reprograms its own. */
#include <linux/delay.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <asm/cpufeature.h>
#include <asm/msr-index.h>
#include "compat.h"
#include "idlescope.h"

/* What the kernel had programmed when we last replaced it, and what we wrote. */
static u64 tdt_displaced, tdt_written;

bool is_tdt_available(char *why, size_t len)
{
	const char *reason = NULL;

	if (!boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		reason = "no TSC-deadline timer: CPUID.01H:ECX[24] is clear or the kernel disabled it "
			 "(lapic=notscdeadline, microcode erratum)";
	else if (!boot_cpu_has(X86_FEATURE_ARAT))
		reason = "the local APIC timer stops in deep C-states (no ARAT)";
	else if (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC) || !boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		reason = "the TSC is not invariant (constant_tsc/nonstop_tsc missing)";
	else if (!is_have_local_timer_tp())
		reason = "tracepoint irq_vectors:local_timer_entry not found";
	if (!reason) {
		why[0] = '\0';
		return true;
	}
	strscpy(why, reason, len);
	return false;
}

static void clock_pair(u64 *ns, u64 *tsc)
{
	unsigned long flags;

	local_irq_save(flags);
	*ns = ktime_get_ns();
	*tsc = rdtsc_ordered();
	local_irq_restore(flags);
}

/* The TSC rate against CLOCK_MONOTONIC over 100 ms (about 1 ppm). */
u64 is_tsc_measure_hz(void)
{
	u64 ns0, tsc0, ns1, tsc1;

	clock_pair(&ns0, &tsc0);
	msleep(100);
	clock_pair(&ns1, &tsc1);
	if (ns1 <= ns0 || tsc1 <= tsc0)
		return 0;
	return mul_u64_u64_div_u64(tsc1 - tsc0, NSEC_PER_SEC, ns1 - ns0);
}

/* TSC -> ns relative to a reference pair. Order is kept: a time before tsc_ref comes out
 * strictly before ns_ref (rounded down, by at most 1 ns more than the exact value). */
u64 is_tsc_to_ns(u64 tsc, u64 tsc_ref, u64 ns_ref, u64 hz)
{
	if (tsc >= tsc_ref)
		return ns_ref + mul_u64_u64_div_u64(tsc - tsc_ref, NSEC_PER_SEC, hz);
	return ns_ref - mul_u64_u64_div_u64(tsc_ref - tsc, NSEC_PER_SEC, hz) - 1;
}

void is_tdt_reset(void)
{
	tdt_displaced = tdt_written = 0;
}

/* At idle entry on the measured CPU, interrupts off. */
void is_tdt_idle_enter(struct is_dev *d, u64 tsc_now)
{
	struct is_event *ev = &d->ev;
	u64 cur, kernel_next;

	if (ev->hw_armed || is_rdmsr_safe(MSR_IA32_TSC_DEADLINE, &cur))
		return;
	kernel_next = (cur && cur == tdt_written) ? tdt_displaced : cur;
	if (kernel_next && kernel_next < ev->tsc_ltime)
		return;   /* the kernel's event comes first: the wake-up will be "other_wake" */
	if (cur != tdt_written)
		tdt_displaced = cur;
	is_wrmsr(MSR_IA32_TSC_DEADLINE, ev->tsc_ltime);
	tdt_written = ev->tsc_ltime;
	ev->hw_armed = true;
}
