/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for libbpf's bpf_helpers.h (wake_logic_test.c): map definitions
 * become plain structs, helpers become functions the test defines. */
#ifndef SHIM_BPF_HELPERS_H
#define SHIM_BPF_HELPERS_H
#define SEC(name)
#define __uint(name, val) int (*name)[val]
#define __type(name, val) __typeof__(val) *name

void *bpf_ringbuf_reserve(void *ringbuf, __u64 size, __u64 flags);
void bpf_ringbuf_submit(void *data, __u64 flags);
__u64 bpf_ringbuf_query(void *ringbuf, __u64 flags);
__u32 bpf_get_smp_processor_id(void);
__u64 bpf_ktime_get_ns(void);
void *bpf_map_lookup_elem(void *map, const void *key);
long bpf_timer_init(struct bpf_timer *timer, void *map, __u64 flags);
long bpf_timer_start(struct bpf_timer *timer, __u64 nsecs, __u64 flags);
#define bpf_timer_set_callback(timer, cb) ((void)(timer), (void)(cb), 0L)
#endif
