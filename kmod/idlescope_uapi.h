/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * idlescope kernel module <-> user space interface (shared by kmod/ and collect/).
 *
 * /dev/idlescope (root only, one opener at a time):
 *   ioctl(IDLESCOPE_IOC_INFO)   what the module and this CPU support;
 *   ioctl(IDLESCOPE_IOC_CONFIG) CPU, method, LDist range, seed (only while disabled);
 *   ioctl(IDLESCOPE_IOC_ENABLE) / ioctl(IDLESCOPE_IOC_DISABLE);
 *   ioctl(IDLESCOPE_IOC_STATS)  counters (datapoints, discards per reason, ring overflow);
 *   read()/poll()               a stream of struct idlescope_record, whole records only.
 * Closing the file disables the measurement.
 */
#ifndef IDLESCOPE_UAPI_H
#define IDLESCOPE_UAPI_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <linux/types.h>
#include <sys/ioctl.h>
#endif

#define IDLESCOPE_DEV_NAME "idlescope"
#define IDLESCOPE_ABI_VERSION 2   /* 2: cause fields in the record, config.flags */

enum idlescope_method {
	IDLESCOPE_METHOD_HRT = 1,  /* hrtimer (HRTIMER_MODE_ABS_PINNED_HARD), ktime_get_ns */
	IDLESCOPE_METHOD_TDT = 2,  /* IA32_TSC_DEADLINE written directly, TSC timestamps */
};

/* Discard reasons; same order as collect/method.h enum discard_reason. */
enum idlescope_discard {
	IDLESCOPE_DISCARD_NOT_IDLE = 0,   /* CPU was not idle at LaunchTime */
	IDLESCOPE_DISCARD_OTHER_WAKE = 1, /* woke for another reason before LaunchTime */
	IDLESCOPE_DISCARD_WRONG_CPU = 2,  /* event fired on another CPU */
	IDLESCOPE_DISCARD_LOST = 3,       /* event never seen (timeout) or ring overflow */
	IDLESCOPE_DISCARD_NR = 4,
};

/* Counters snapshotted at idle entry and after wake (Intel; only those that read). */
enum idlescope_msr {
	IDLESCOPE_MSR_TSC, IDLESCOPE_MSR_MPERF,
	IDLESCOPE_MSR_CC1, IDLESCOPE_MSR_CC3, IDLESCOPE_MSR_CC6, IDLESCOPE_MSR_CC7,
	IDLESCOPE_MSR_PC2, IDLESCOPE_MSR_PC3, IDLESCOPE_MSR_PC6, IDLESCOPE_MSR_PC7,
	IDLESCOPE_MSR_PC8, IDLESCOPE_MSR_PC9, IDLESCOPE_MSR_PC10,
	IDLESCOPE_MSR_NR
};

struct idlescope_config {
	__u32 cpu;
	__u32 method;        /* enum idlescope_method */
	__u64 ldist_min_ns;  /* 1 ns .. IDLESCOPE_LDIST_MAX_NS, min <= max */
	__u64 ldist_max_ns;
	__u64 seed;          /* seed of the module's LDist generator (prandom) */
	__u32 flags;         /* IDLESCOPE_CFG_* */
	__u32 pad;           /* 0 */
};
#define IDLESCOPE_CFG_NO_CAUSES (1u << 0)  /* count no causes: the cause probes stay off */
#define IDLESCOPE_LDIST_MAX_NS 10000000000ULL

/* info.caps bits */
#define IDLESCOPE_CAP_HRT      (1u << 0)
#define IDLESCOPE_CAP_TDT      (1u << 1)
#define IDLESCOPE_CAP_SMI      (1u << 2)  /* MSR_SMI_COUNT readable */
#define IDLESCOPE_CAP_NMI      (1u << 3)  /* per-CPU NMI count (always on x86) */

struct idlescope_info {
	__u32 abi_version;
	__u32 record_size;      /* sizeof(struct idlescope_record) */
	__u32 caps;
	__u32 ring_records;     /* ring buffer capacity */
	__u64 msr_mask;         /* bit per enum idlescope_msr readable on the configured CPU */
	__u64 tsc_hz;           /* measured TSC rate (0 until configured) */
	__u64 tsc_khz_kernel;   /* the kernel's calibrated tsc_khz */
	char tdt_why[128];      /* why tdt cannot run here ("" if it can) */
};

struct idlescope_stats {
	__u64 armed;                              /* events armed */
	__u64 datapoints;                         /* datapoint records produced */
	__u64 discards[IDLESCOPE_DISCARD_NR];     /* per reason, ring overflow included in LOST */
	__u64 overflow;                           /* records dropped because the ring was full */
	__u32 enabled;
	__u32 pad;
};

#define IDLESCOPE_REC_DATAPOINT 1
#define IDLESCOPE_REC_DISCARD   2

/* record.flags */
#define IDLESCOPE_F_INTR_OFF  (1u << 0)  /* TAI was taken before TIntr (IRQs held off in idle) */
#define IDLESCOPE_F_SMI       (1u << 1)  /* smi_cnt valid */
#define IDLESCOPE_F_NMI       (1u << 2)  /* nmi_cnt valid */
#define IDLESCOPE_F_CAUSES    (1u << 3)  /* irq_* and sirq_* valid (the cause probes ran) */
/* record.irq_top: an IRQ number (>= 0) or one of these x86 vectors (the bpf method's codes) */
#define IDLESCOPE_SRC_NONE     (-100)
#define IDLESCOPE_SRC_TIMER    (-1)     /* a local timer interrupt that was not ours (LOC) */
#define IDLESCOPE_SRC_RESCHED  (-2)     /* reschedule IPI (RES) */
#define IDLESCOPE_SRC_CALL     (-3)     /* call-function IPI, many or single (CAL) */
#define IDLESCOPE_SRC_IRQ_WORK (-4)     /* irq_work self-IPI (IWI) */

/* One fixed-size record; times in ns on CLOCK_MONOTONIC (ktime_get_ns), tdt converts TSC. */
struct idlescope_record {
	__u32 type;            /* IDLESCOPE_REC_* */
	__u32 reason;          /* enum idlescope_discard for IDLESCOPE_REC_DISCARD */
	__u64 seq;             /* event number, from 0 */
	__u64 lost;            /* records dropped (ring full) right before this one */
	__u64 ldist;
	__u64 ltime;
	__u64 tbi;             /* last idle entry before LTime */
	__u64 tai;             /* idle exit */
	__u64 tintr;           /* timer handler (hrt) / local timer interrupt entry (tdt) */
	__u64 tsc_ltime, tsc_bi, tsc_ai, tsc_intr;
	__u64 ai_overhead;     /* ns spent reading counters in the idle-exit probe */
	__s32 req_state;       /* cpu_idle state index requested at TBI */
	__u32 flags;           /* IDLESCOPE_F_* */
	__u64 smi_cnt;         /* SMIs between TBI and TAI */
	__u64 nmi_cnt;         /* NMIs between TBI and TAI */
	__u64 msr_mask;        /* valid entries of msr_delta */
	__u64 msr_delta[IDLESCOPE_MSR_NR];  /* counter increments between TBI and TAI */
	/* what else ran on the measured CPU from TBI to max(TAI, TIntr), our timer interrupt
	 * excluded (IDLESCOPE_F_CAUSES): hard interrupts, softirqs */
	__u32 irq_cnt, sirq_cnt;
	__u64 irq_ns, sirq_ns;   /* handler time */
	__s32 irq_top;           /* the most frequent of the first 8 sources, IDLESCOPE_SRC_* */
	__u32 sirq_mask;         /* bit per softirq vector that ran */
};

#define IDLESCOPE_IOC_MAGIC 0xB7
#define IDLESCOPE_IOC_INFO    _IOR(IDLESCOPE_IOC_MAGIC, 1, struct idlescope_info)
#define IDLESCOPE_IOC_CONFIG  _IOW(IDLESCOPE_IOC_MAGIC, 2, struct idlescope_config)
#define IDLESCOPE_IOC_ENABLE  _IO(IDLESCOPE_IOC_MAGIC, 3)
#define IDLESCOPE_IOC_DISABLE _IO(IDLESCOPE_IOC_MAGIC, 4)
#define IDLESCOPE_IOC_STATS   _IOR(IDLESCOPE_IOC_MAGIC, 5, struct idlescope_stats)

#endif
