/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for libbpf's bpf_core_read.h: a plain field read. */
#ifndef SHIM_BPF_CORE_READ_H
#define SHIM_BPF_CORE_READ_H
#define BPF_CORE_READ(src, field) ((src)->field)
#endif
