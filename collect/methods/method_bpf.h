/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the `bpf` method (collect/method_bpf*.c); the contract with the core is in
 * method.h. The BPF side is collect/methods/bpf/wake.bpf.c, its record collect/methods/bpf/wake_rec.h.
 */
#ifndef COLLECT_METHOD_BPF_H
#define COLLECT_METHOD_BPF_H
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "wake_rec.h"

/* method_bpf_hist.c: info.json method_details.soft_hrtimer from the BPF side's histograms
 * (hist[WAKE_HIST_NR][WAKE_HIST_N] of wake.bpf.c). */
struct cJSON;
void bpf_hist_describe(const uint32_t hist[][WAKE_HIST_N], struct cJSON *info);

/* method_bpf_causes.c: a record's cause counts as datapoints.csv columns, and what
 * info.json method_details.causes says was counted. */
struct dp_causes;
void bpf_causes_fill(const struct wake_rec *r, bool steal, struct dp_causes *k);
void bpf_causes_describe(bool on, bool nmi, const char *steal_why, struct cJSON *info);

/* method_bpf_steal.c: 0 with *delta = &steal_time.steal - &runqueues (per CPU) if the
 * StealTime column can be had (bpf/steal.bpf.h); else -1 with the reason in why. */
int bpf_steal_delta(long long *delta, char *why, size_t whylen);

/* method_bpf_sys.c: what the machine offers. */

/* 0 if we may load and attach tracing BPF programs; else -1 with the reason in why. */
int bpf_check_privileges(char *why, size_t whylen);
/* 0 if kernel BTF is there (CO-RE and tp_btf need it); else -1 with the reason. */
int bpf_check_btf(char *why, size_t whylen);
/* 1 if the kernel has tracepoint `name` (its btf_trace_<name> type), 0 if not. */
int bpf_kernel_has_tracepoint(const char *name);
/* Bit i set: cpuidle state i of cpu is the polling state ("POLL", IRQs on). */
uint64_t bpf_poll_states(int cpu);
/* Bit i set: state i is known to run with IRQs on from the cpuidle driver (haltpoll). */
uint64_t bpf_irq_on_states(int cpu);
/* Run BPF program prog_fd (BPF_PROG_TYPE_SYSCALL) once on cpu, from a short-lived thread
 * pinned there. 0 with its return value in *retval, or -errno. */
int bpf_run_on_cpu(int cpu, int prog_fd, int *retval);
/* Pin the calling thread to the online CPUs other than cpu (if there are any); the old mask
 * goes to *saved. 1 if changed, 0 if left alone (single CPU). */
int bpf_pin_away_from(int cpu, cpu_set_t *saved);
/* libbpf messages: kept quiet (last warning remembered) unless IDLESCOPE_BPF_DEBUG is set. */
void bpf_quiet_libbpf(void);
const char *bpf_last_libbpf_msg(void);

/* method_bpf_thread.c: the fallback event source (a pinned thread sleeping on a timerfd). */
struct wake_thread;
/* Start the thread on cpu; it runs prog wake_arm (arm_fd) and sleeps until the LTime that
 * BPF published in *ltime_out, over and over. NULL on error (message printed). */
struct wake_thread *wake_thread_start(int cpu, int arm_fd, volatile __u64 *ltime_out,
				      volatile __u64 *armed);
void wake_thread_stop(struct wake_thread *t);
/* Non-zero once the thread died on an error (message printed). */
int wake_thread_failed(const struct wake_thread *t);

#endif
