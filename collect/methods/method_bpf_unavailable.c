/* SPDX-License-Identifier: GPL-2.0-only */
/* The `bpf` method when this build has no eBPF support: the probe says why (set by
 * collect/bpf.cmake) and what to use instead. */
#include <stdio.h>

#include "text/util.h"
#include "method.h"

#ifndef IDLESCOPE_BPF_MISSING
#define IDLESCOPE_BPF_MISSING "built without eBPF support"
#endif

static int unavailable_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	(void)cfg;
	snprintf(why, whylen, "%s: use --method timer", IDLESCOPE_BPF_MISSING);
	return -1;
}

static int unavailable_start(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info)
{
	char why[256];

	(void)info;
	*ctx = NULL;
	unavailable_probe(cfg, why, sizeof(why));
	isc_err("bpf: %s", why);
	return -1;
}

static int unavailable_next(struct method_ctx *ctx, struct dp_raw *dp, uint64_t discards[DISCARD_NR])
{
	(void)ctx;
	(void)dp;
	(void)discards;
	return -1;
}

static void unavailable_stop(struct method_ctx *ctx)
{
	(void)ctx;
}

const struct method_ops method_bpf = {
	.name = "bpf",
	.probe = unavailable_probe,
	.start = unavailable_start,
	.next = unavailable_next,
	.stop = unavailable_stop,
};
