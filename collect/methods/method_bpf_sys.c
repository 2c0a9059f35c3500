/* SPDX-License-Identifier: GPL-2.0-only */
/* The `bpf` method's view of the machine: privileges, BTF, cpuidle states, CPU pinning. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "method_bpf.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct d[2], int cap)
{
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

int bpf_check_privileges(char *why, size_t whylen)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capget, &h, d) != 0) {
		snprintf(why, whylen, "cannot read capabilities (%s): run as root or use --method timer",
			 strerror(errno));
		return -1;
	}
	if (has_cap(d, CAP_SYS_ADMIN) || (has_cap(d, CAP_BPF) && has_cap(d, CAP_PERFMON)))
		return 0;
	snprintf(why, whylen, "needs root (CAP_BPF and CAP_PERFMON): run as root or use --method timer");
	return -1;
}

int bpf_check_btf(char *why, size_t whylen)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		return 0;
	snprintf(why, whylen, "no kernel BTF (/sys/kernel/btf/vmlinux: %s; needs a kernel built "
		 "with CONFIG_DEBUG_INFO_BTF): use --method timer", strerror(errno));
	return -1;
}

int bpf_kernel_has_tracepoint(const char *name)
{
	char tname[128];
	struct btf *btf = btf__load_vmlinux_btf();
	int found;

	if (!btf)
		return 0;
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	found = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0;
	btf__free(btf);
	return found;
}

uint64_t bpf_poll_states(int cpu)
{
	uint64_t mask = 0;

	for (int i = 0; i < 64; i++) {
		char path[128], name[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		if (strcmp(name, "POLL") == 0)
			mask |= 1ull << i;
	}
	return mask;
}

/* Bit i set: cpuidle state i of cpu is known to run with IRQs on before any interrupt shows
 * it: every state of the `haltpoll` driver (POLL, and HLT after STI in default_idle()). Other
 * drivers' states (intel_idle, acpi_idle) differ per state and are learnt at run time. */
uint64_t bpf_irq_on_states(int cpu)
{
	char name[64] = "";
	uint64_t mask = 0;
	FILE *f = fopen("/sys/devices/system/cpu/cpuidle/current_driver", "r");

	if (!f)
		return 0;
	if (fgets(name, sizeof(name), f))
		name[strcspn(name, "\n")] = '\0';
	fclose(f);
	if (strcmp(name, "haltpoll") != 0)
		return 0;
	for (int i = 0; i < 64; i++) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d", cpu, i);
		if (access(path, F_OK) != 0)
			break;
		mask |= 1ull << i;
	}
	return mask;
}

struct run_arg {
	int cpu, prog_fd, retval, err;
};

static void *run_prog_thread(void *p)
{
	struct run_arg *a = p;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (sched_getcpu() != a->cpu) {
		a->err = -EXDEV;
		return NULL;
	}
	a->err = bpf_prog_test_run_opts(a->prog_fd, &opts);
	if (a->err == 0 && sched_getcpu() != a->cpu)
		a->err = -EXDEV;	/* cannot happen: the thread is pinned */
	a->retval = (int)opts.retval;
	return NULL;
}

int bpf_run_on_cpu(int cpu, int prog_fd, int *retval)
{
	struct run_arg a = { .cpu = cpu, .prog_fd = prog_fd };
	pthread_attr_t attr;
	pthread_t th;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&th, &attr, run_prog_thread, &a);
	pthread_attr_destroy(&attr);
	if (err)
		return -err;
	pthread_join(th, NULL);
	if (a.err)
		return a.err < 0 ? a.err : -a.err;
	*retval = a.retval;
	return 0;
}

int bpf_pin_away_from(int cpu, cpu_set_t *saved)
{
	cpu_set_t set;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	if (sched_getaffinity(0, sizeof(*saved), saved) != 0)
		return 0;
	CPU_ZERO(&set);
	for (int i = 0; i < ncpu && i < CPU_SETSIZE; i++)
		if (i != cpu && CPU_ISSET(i, saved))
			CPU_SET(i, &set);
	if (CPU_COUNT(&set) == 0)
		return 0;
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static char last_msg[256];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int debug = -1;

	if (debug < 0)
		debug = getenv("IDLESCOPE_BPF_DEBUG") != NULL;
	if (debug)
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_WARN) {
		vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
		last_msg[strcspn(last_msg, "\n")] = '\0';
	}
	return 0;
}

void bpf_quiet_libbpf(void)
{
	last_msg[0] = '\0';
	libbpf_set_print(libbpf_print);
}

const char *bpf_last_libbpf_msg(void)
{
	return last_msg[0] ? last_msg : "no detail from libbpf";
}
