/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel version differences, in one place (built against 6.1 .. current). */
#ifndef IDLESCOPE_COMPAT_H
#define IDLESCOPE_COMPAT_H
#include <linux/version.h>
#include <linux/hrtimer.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/msr.h>

/* 6.13 added hrtimer_setup(); later kernels removed hrtimer_init(). */
static inline void idlescope_hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

/* 6.16 renamed the 64-bit MSR accessors rdmsrl*()/wrmsrl() to rdmsrq*()/wrmsrq(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define idlescope_rdmsr_safe(msr, p)			rdmsrq_safe(msr, p)
#define idlescope_rdmsr_safe_on_cpu(cpu, msr, p)	rdmsrq_safe_on_cpu(cpu, msr, p)
#define idlescope_wrmsr_safe(msr, v)			wrmsrq_safe(msr, v)
#else
#define idlescope_rdmsr_safe(msr, p)			rdmsrl_safe(msr, p)
#define idlescope_rdmsr_safe_on_cpu(cpu, msr, p)	rdmsrl_safe_on_cpu(cpu, msr, p)
#define idlescope_wrmsr_safe(msr, v)			wrmsrl_safe(msr, v)
#endif

/* apic_read() became a static call in 6.9, not exported to modules; the apic ops are. */
static inline u32 idlescope_apic_read(u32 reg)
{
	return apic->read(reg);
}

/* Per-CPU NMI count (the NMI line of /proc/interrupts); Kbuild tests which layout it has. */
#ifdef IDLESCOPE_IRQ_STAT_ARRAY
#define idlescope_nmi_count()	this_cpu_read(irq_stat.counts[IRQ_COUNT_NMI])
#else
#define idlescope_nmi_count()	this_cpu_read(irq_stat.__nmi_count)
#endif

#endif
