/* SPDX-License-Identifier: GPL-2.0-only */
/* Stand-ins for the kernel services kmod/logic.c uses, so that tests/kmod/logic_test.c can
 * compile it as plain C. Functions declared here are defined by the test (its model of the
 * CPU: TSC, IA32_TSC_DEADLINE, the local APIC's pending timer vector). */
#ifndef KSHIM_H
#define KSHIM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int32_t s32;

struct hrtimer { int unused; };
struct mutex { int unused; };
struct rnd_state { int unused; };
struct task_struct { int unused; };
typedef struct { int unused; } spinlock_t;
typedef struct { int unused; } wait_queue_head_t;
typedef struct { int counter; } atomic_t;

#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
#define BIT_ULL(n) (1ULL << (n))
#define smp_store_release(p, v) (*(p) = (v))
#define local_irq_save(flags) ((flags) = 1)
#define local_irq_restore(flags) ((void)(flags))

static inline int shim_cmpxchg(int *p, int old, int new_value)
{
	int cur = *p;
	if (cur == old)
		*p = new_value;
	return cur;
}
#define cmpxchg(p, old, new_value) shim_cmpxchg(p, old, new_value)

u64 rdtsc(void);
u64 ktime_get_ns(void);
int wake_up_process(struct task_struct *t);
#endif
