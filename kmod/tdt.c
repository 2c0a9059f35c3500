// SPDX-License-Identifier: GPL-2.0-only
/* tdt: the event is the local APIC timer in TSC-deadline mode, armed by writing
 * IA32_TSC_DEADLINE directly at idle entry (logic.c decides when). Here: whether tdt can run,
 * the TSC rate, and the MSR and local APIC accesses. */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/barrier.h>
#include <asm/irq_vectors.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <asm/cpufeature.h>
#include <asm/msr-index.h>
#include "compat.h"
#include "idlescope.h"

#define IDLESCOPE_LVT_TIMER_MODE	(3u << 17)	/* LVT timer mode: one-shot, periodic, TSC deadline */

bool idlescope_tdt_available(char *why, size_t len)
{
	const char *reason = NULL;

	if (!boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		reason = "no TSC-deadline timer: CPUID.01H:ECX[24] is clear or the kernel disabled it "
			 "(lapic=notscdeadline, microcode erratum)";
	else if (!boot_cpu_has(X86_FEATURE_ARAT))
		reason = "the local APIC timer stops in deep C-states (no ARAT)";
	else if (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC) || !boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		reason = "the TSC is not invariant (constant_tsc/nonstop_tsc missing)";
	else if (check_tsc_unstable())
		reason = "the kernel marked the TSC unstable (see the clocksource messages in the kernel log)";
	else if (hrtimer_resolution != 1)
		reason = "high-resolution timers are off (highres=off, or no one-shot clock event device)";
	else if (!idlescope_have_local_timer_tp())
		reason = "tracepoint irq_vectors:local_timer_entry not found";
	else if (!idlescope_have_write_msr_tp())
		reason = "tracepoint msr:write_msr not found (the kernel's deadline writes cannot be seen)";
	if (!reason) {
		why[0] = '\0';
		return true;
	}
	strscpy(why, reason, len);
	return false;
}

static void read_lvtt(void *lvtt)
{
	*(u32 *)lvtt = idlescope_apic_read(APIC_LVTT);
}

/* The measured CPU's local APIC timer is in TSC-deadline mode, that is the kernel's clock event
 * there is lapic-deadline (its one-shot mode; a stopped timer keeps the mode, only masked). */
bool idlescope_tdt_cpu_ok(unsigned int cpu, char *why, size_t len)
{
	u32 lvtt = 0;

	if (!idlescope_tdt_available(why, len))
		return false;
	if (smp_call_function_single(cpu, read_lvtt, &lvtt, 1)) {
		snprintf(why, len, "CPU %u is offline", cpu);
		return false;
	}
	if ((lvtt & IDLESCOPE_LVT_TIMER_MODE) != APIC_LVT_TIMER_TSCDEADLINE) {
		snprintf(why, len, "the local APIC timer of CPU %u is not in TSC-deadline mode (LVTT %#x): "
			 "the clock event device there is not lapic-deadline", cpu, lvtt);
		return false;
	}
	return true;
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
u64 idlescope_tsc_measure_hz(void)
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
u64 idlescope_tsc_to_ns(u64 tsc, u64 tsc_ref, u64 ns_ref, u64 hz)
{
	if (tsc >= tsc_ref)
		return ns_ref + mul_u64_u64_div_u64(tsc - tsc_ref, NSEC_PER_SEC, hz);
	return ns_ref - mul_u64_u64_div_u64(tsc_ref - tsc, NSEC_PER_SEC, hz) - 1;
}

int idlescope_tdt_read_deadline(u64 *v)
{
	return idlescope_rdmsr_safe(MSR_IA32_TSC_DEADLINE, v);
}

/* As the kernel's lapic_next_deadline(): the fence this MSR needs, then a write that cannot
 * fault the machine. Our own write is not the kernel's (write_msr probe). */
int idlescope_tdt_write_deadline(struct idlescope_dev *d, u64 v)
{
	int ret;

	d->tdt_writing = true;
	weak_wrmsr_fence();
	ret = idlescope_wrmsr_safe(MSR_IA32_TSC_DEADLINE, v);
	d->tdt_writing = false;
	return ret;
}

/* The local timer vector is pending in this CPU's local APIC (IRR). */
bool idlescope_tdt_timer_pending(void)
{
	u32 irr = idlescope_apic_read(APIC_IRR + LOCAL_TIMER_VECTOR / 32 * 0x10);

	return irr & (1u << (LOCAL_TIMER_VECTOR % 32));
}
