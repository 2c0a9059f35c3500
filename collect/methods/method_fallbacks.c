/*
 * Weak stand-ins so that collect links and says clearly what is missing when a method or
 * counters support is not built into it. The real definitions (method_bpf.c, method_kmod.c,
 * counters_*.c) override these at link time.
 */
#include <stdio.h>

#include "counters_hook.h"
#include "idlescope/util.h"
#include "method.h"

static int not_built_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	(void)cfg;
	snprintf(why, whylen, "not built into this collect; use --method timer");
	return -1;
}

static int not_built_start(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info)
{
	(void)cfg;
	(void)info;
	*ctx = NULL;
	is_err("this method is not built into this collect; use --method timer");
	return -1;
}

static int not_built_next(struct method_ctx *ctx, struct dp_raw *dp, uint64_t discards[DISCARD_NR])
{
	(void)ctx;
	(void)dp;
	(void)discards;
	return -1;
}

static void not_built_stop(struct method_ctx *ctx)
{
	(void)ctx;
}

#define NOT_BUILT(var, nm)                                                                  \
	__attribute__((weak)) const struct method_ops var = {                               \
		.name = nm, .probe = not_built_probe, .start = not_built_start,              \
		.next = not_built_next, .stop = not_built_stop,                              \
	}

NOT_BUILT(method_bpf, "bpf");
NOT_BUILT(method_hrt, "hrt");
NOT_BUILT(method_tdt, "tdt");

__attribute__((weak)) int counters_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	is_err("counters support is not built into this collect");
	return 2;
}

__attribute__((weak)) struct counters_sampler *counters_sampler_start(const char *rundir, double interval_s,
								      cJSON *info)
{
	(void)rundir;
	(void)interval_s;
	(void)info;
	return NULL;
}

__attribute__((weak)) void counters_sampler_stop(struct counters_sampler *s)
{
	(void)s;
}
