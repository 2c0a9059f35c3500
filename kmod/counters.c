// SPDX-License-Identifier: GPL-2.0-only
/* C-state residency counters, TSC, MPERF, SMI and NMI counts around one idle period.
 * Which MSRs exist depends on the CPU model: each is probed with a safe read on the
 * measured CPU and left out when it faults (virtual machines, non-Intel CPUs). */
#include <linux/smp.h>
#include <asm/hardirq.h>
#include <asm/msr-index.h>
#include <asm/processor.h>
#include "compat.h"
#include "idlescope.h"

static const u32 counter_msr[IDLESCOPE_MSR_NR] = {
	[IDLESCOPE_MSR_TSC] = MSR_IA32_TSC,
	[IDLESCOPE_MSR_MPERF] = MSR_IA32_MPERF,
	[IDLESCOPE_MSR_CC1] = MSR_CORE_C1_RES,
	[IDLESCOPE_MSR_CC3] = MSR_CORE_C3_RESIDENCY,
	[IDLESCOPE_MSR_CC6] = MSR_CORE_C6_RESIDENCY,
	[IDLESCOPE_MSR_CC7] = MSR_CORE_C7_RESIDENCY,
	[IDLESCOPE_MSR_PC2] = MSR_PKG_C2_RESIDENCY,
	[IDLESCOPE_MSR_PC3] = MSR_PKG_C3_RESIDENCY,
	[IDLESCOPE_MSR_PC6] = MSR_PKG_C6_RESIDENCY,
	[IDLESCOPE_MSR_PC7] = MSR_PKG_C7_RESIDENCY,
	[IDLESCOPE_MSR_PC8] = MSR_PKG_C8_RESIDENCY,
	[IDLESCOPE_MSR_PC9] = MSR_PKG_C9_RESIDENCY,
	[IDLESCOPE_MSR_PC10] = MSR_PKG_C10_RESIDENCY,
};

/* Bit mask of readable counters on cpu. Residency MSRs only on Intel: the same numbers
 * mean other things elsewhere. The TSC is read with rdtsc, MPERF only with APERFMPERF. */
u64 idlescope_counters_probe(int cpu, bool *has_smi)
{
	u64 mask = 0, v;
	int i;

	*has_smi = false;
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL)
		return 0;
	*has_smi = !idlescope_rdmsr_safe_on_cpu(cpu, MSR_SMI_COUNT, &v);
	if (!boot_cpu_has(X86_FEATURE_APERFMPERF))
		return 0;
	mask |= BIT_ULL(IDLESCOPE_MSR_TSC);
	for (i = IDLESCOPE_MSR_MPERF; i < IDLESCOPE_MSR_NR; i++)
		if (!idlescope_rdmsr_safe_on_cpu(cpu, counter_msr[i], &v))
			mask |= BIT_ULL(i);
	return mask;
}

/* On the measured CPU with interrupts off. */
void idlescope_counters_read(u64 mask, bool smi, u64 *msr, u64 *smi_cnt, u64 *nmi_cnt)
{
	int i;

	*nmi_cnt = idlescope_nmi_count();
	if (smi && idlescope_rdmsr_safe(MSR_SMI_COUNT, smi_cnt))
		*smi_cnt = 0;
	if (!mask)
		return;
	for (i = IDLESCOPE_MSR_MPERF; i < IDLESCOPE_MSR_NR; i++)
		if ((mask & BIT_ULL(i)) && idlescope_rdmsr_safe(counter_msr[i], &msr[i]))
			msr[i] = 0;
	msr[IDLESCOPE_MSR_TSC] = rdtsc();
}
