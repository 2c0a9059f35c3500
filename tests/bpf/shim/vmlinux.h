/* SPDX-License-Identifier: GPL-2.0-only */
/* Stand-ins for the kernel types that collect/methods/bpf/wake.bpf.c uses, so that its programs
 * compile as plain user-space C for wake_logic_test.c. Only what the programs touch. */
#ifndef SHIM_VMLINUX_H
#define SHIM_VMLINUX_H
#include <stdbool.h>
#include <stdint.h>

typedef uint8_t __u8;
typedef int8_t __s8;
typedef uint32_t __u32;
typedef int32_t __s32;
typedef uint64_t __u64;
typedef int64_t __s64;
typedef __s64 ktime_t;

struct hrtimer {
	__u64 _softexpires;
};

struct irqaction;

struct bpf_timer {
	__u64 opaque[2];
};

enum { BPF_MAP_TYPE_ARRAY = 2, BPF_MAP_TYPE_RINGBUF = 27 };
enum { BPF_RB_AVAIL_DATA = 0, BPF_RB_NO_WAKEUP = 1, BPF_RB_FORCE_WAKEUP = 2 };
#endif
