// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the bpf method finds the measured CPU's steal clock (collect/methods/bpf/steal.bpf.h):
 * the distance from the per-CPU runqueue to KVM's per-CPU steal_time.steal, from the offsets
 * of the two per-CPU variables in the kernel BTF's .data..percpu section. Only on a KVM guest
 * whose host offers steal time (CPUID 0x40000001 bit 5) and whose kernel has kvm_steal_clock().
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "method_bpf.h"

#define KVM_FEATURE_STEAL_TIME 5

static int kvm_has_steal_time(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char sig[13];

	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	if (strcmp(sig, "KVMKVMKVM") != 0 || a < 0x40000001)
		return 0;
	__cpuid(0x40000001, a, b, c, d);
	return (a >> KVM_FEATURE_STEAL_TIME) & 1;
#else
	return 0;
#endif
}

/* Offset of per-CPU variable `name` in .data..percpu, or -1. */
static long long percpu_var_offset(const struct btf *btf, const char *name)
{
	int sec = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	const struct btf_type *t;
	const struct btf_var_secinfo *v;

	if (sec <= 0)
		return -1;
	t = btf__type_by_id(btf, (__u32)sec);
	v = btf_var_secinfos(t);
	for (int i = 0; i < btf_vlen(t); i++, v++) {
		const struct btf_type *var = btf__type_by_id(btf, v->type);

		if (var && strcmp(btf__name_by_offset(btf, var->name_off), name) == 0)
			return v->offset;
	}
	return -1;
}

int bpf_steal_delta(long long *delta, char *why, size_t whylen)
{
	struct btf *btf;
	long long st, rq;
	int ret = -1;

	*delta = 0;
	if (!kvm_has_steal_time()) {
		snprintf(why, whylen, "not a KVM guest with steal time (CPUID 0x40000001 bit 5)");
		return -1;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		snprintf(why, whylen, "no kernel BTF");
		return -1;
	}
	st = percpu_var_offset(btf, "steal_time");
	rq = percpu_var_offset(btf, "runqueues");
	if (btf__find_by_name_kind(btf, "kvm_steal_clock", BTF_KIND_FUNC) <= 0)
		snprintf(why, whylen, "the kernel has no kvm_steal_clock()");
	else if (btf__find_by_name_kind(btf, "kvm_steal_time", BTF_KIND_STRUCT) <= 0 || st < 0 || rq < 0)
		snprintf(why, whylen, "the kernel BTF has no per-CPU steal_time or runqueues");
	else if (st == rq)
		snprintf(why, whylen, "the kernel BTF puts steal_time and runqueues at one offset");
	else {
		/* steal is the first member of struct kvm_steal_time (uapi, fixed layout) */
		*delta = st - rq;
		ret = 0;
	}
	btf__free(btf);
	return ret;
}
