/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for libbpf's bpf_tracing.h: a program is a function of its arguments. */
#ifndef SHIM_BPF_TRACING_H
#define SHIM_BPF_TRACING_H
#define BPF_PROG(name, args...) name(args)
#endif
