/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The `bpf` method: wake-up timestamps taken in the kernel by the programs in
 * collect/methods/bpf/wake.bpf.c (see docs/bpf.md). User space draws the LDists (the run's RNG)
 * into a queue the BPF side pops, and reads one record per datapoint from a ring buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "text/util.h"
#include "method.h"
#include "method_bpf.h"
#include "wake_rec.h"
#include "wake.skel.h"
#include "time/clock.h"

#define POLL_MS 20			/* next() notices a stop within this */
#define REC_QUEUE_CAP 8192		/* > records the ring buffer can hold */
#define STALL_NS (300 * 1000000ull)	/* no record for LDist max + this: re-arm */

struct method_ctx {
	struct wake_bpf *skel;
	struct ring_buffer *rb;
	struct wake_thread *thread;	/* thread event source only */
	int cpu;
	enum wake_source source;
	uint64_t ldist_max;
	/* Records taken from the ring buffer, not yet handed out. */
	struct wake_rec *recs;
	size_t rec_head, rec_n;
	uint64_t pending[DISCARD_NR];
	uint64_t lost_reported;
	uint64_t last_progress_ns;
	bool stop_seen;
	bool pinned;
	cpu_set_t saved_affinity;
	cJSON *info_method;		/* method_details: stop() adds soft_hrtimer */
	bool causes;			/* count the causes (not --no-causes) */
	bool nmi_counted;		/* ... and NMIs among them */
	long long steal_delta;		/* StealTime: bpf/steal.bpf.h cfg_steal_delta; 0 = none */
	char steal_why[128];		/* why there is no StealTime column */
};

/* Keep the BPF side's LDist queue full (single producer: this thread). */
static void refill_ldists(struct method_ctx *ctx)
{
	struct wake_bpf__bss *bss = ctx->skel->bss;
	uint64_t head = __atomic_load_n(&bss->q_head, __ATOMIC_ACQUIRE);
	uint64_t tail = bss->q_tail;

	while (tail - head < WAKE_LDIST_QLEN) {
		bss->ldist_q[tail & (WAKE_LDIST_QLEN - 1)] = collect_next_ldist();
		tail++;
	}
	__atomic_store_n(&bss->q_tail, tail, __ATOMIC_RELEASE);
}

static int on_record(void *p, void *data, size_t size)
{
	struct method_ctx *ctx = p;
	const struct wake_rec *r = data;

	if (size < sizeof(*r))
		return 0;
	/* A gap in r->seq means lost records; those are counted on the BPF side ("lost"). */
	ctx->last_progress_ns = isc_mono_ns();
	if (r->kind == WAKE_REC_DISCARD) {
		if (r->reason < DISCARD_LOST)
			ctx->pending[r->reason]++;
		return 0;
	}
	if (ctx->rec_n == REC_QUEUE_CAP) {
		ctx->pending[DISCARD_LOST]++;	/* cannot happen: we poll only when empty */
		return 0;
	}
	ctx->recs[(ctx->rec_head + ctx->rec_n) % REC_QUEUE_CAP] = *r;
	ctx->rec_n++;
	return 0;
}

static void fill_dp(const struct method_ctx *ctx, const struct wake_rec *r, struct dp_raw *dp)
{
	memset(dp, 0, sizeof(*dp));
	dp->ldist = r->ldist;
	dp->ltime = r->ltime;
	dp->tbi = r->tbi;
	dp->tai = r->tai;
	dp->tintr = r->tintr;
	dp->req_state = r->req_state;
	dp->intr_off = r->intr_off;
	dp->smi_cnt = -1;
	dp->nmi_cnt = r->causes && ctx->nmi_counted ? r->nmi_cnt : -1;
	dp->nres = 0;
	bpf_causes_fill(r, ctx->steal_delta != 0, &dp->causes);
}

static void move_discards(struct method_ctx *ctx, uint64_t discards[DISCARD_NR])
{
	uint64_t lost = __atomic_load_n(&ctx->skel->bss->lost, __ATOMIC_RELAXED);

	ctx->pending[DISCARD_LOST] += lost - ctx->lost_reported;
	ctx->lost_reported = lost;
	for (int i = 0; i < DISCARD_NR; i++) {
		discards[i] += ctx->pending[i];
		ctx->pending[i] = 0;
	}
}

static int kick(struct method_ctx *ctx)
{
	int retval = 0, err;

	err = bpf_run_on_cpu(ctx->cpu, bpf_program__fd(ctx->skel->progs.wake_arm), &retval);
	if (err) {
		isc_err("bpf: cannot arm the timer on CPU %d: %s", ctx->cpu, strerror(-err));
		return -1;
	}
	if (retval != 0) {
		isc_err("bpf: bpf_timer_start() failed on CPU %d: %s", ctx->cpu,
		       strerror((int)-ctx->skel->bss->arm_err));
		return -1;
	}
	return 0;
}

/* Nothing arrived for a while: re-arm if the chain broke (the event fired on another CPU,
 * or the queue ran dry), fail if the event thread died. */
static int check_stall(struct method_ctx *ctx)
{
	uint64_t now = isc_mono_ns();

	if (wake_thread_failed(ctx->thread))
		return -1;
	if (ctx->source != WAKE_SRC_BPF_TIMER || now - ctx->last_progress_ns < ctx->ldist_max + STALL_NS)
		return 0;
	ctx->last_progress_ns = now;
	if (__atomic_load_n(&ctx->skel->bss->armed, __ATOMIC_ACQUIRE))
		return 0;
	return kick(ctx);
}

static int bpf_next(struct method_ctx *ctx, struct dp_raw *dp, uint64_t discards[DISCARD_NR])
{
	for (;;) {
		int n;

		move_discards(ctx, discards);
		collect_watch_discards(discards);
		if (ctx->rec_n) {
			fill_dp(ctx, &ctx->recs[ctx->rec_head], dp);
			ctx->rec_head = (ctx->rec_head + 1) % REC_QUEUE_CAP;
			ctx->rec_n--;
			return 1;
		}
		if (ctx->stop_seen)
			return 0;
		if (collect_stop_requested) {
			/* Arm nothing more, and hand out what was already measured. */
			__atomic_store_n(&ctx->skel->bss->stopping, 1, __ATOMIC_RELEASE);
			ctx->stop_seen = true;
			ring_buffer__consume(ctx->rb);
			continue;
		}
		refill_ldists(ctx);
		/* Records come without wake-ups (see emit() in wake.bpf.c): wait a little,
		 * then take what is there. */
		n = ring_buffer__poll(ctx->rb, POLL_MS);
		if (n == 0)
			n = ring_buffer__consume(ctx->rb);
		if (n < 0 && n != -EINTR) {
			isc_err("bpf: reading the ring buffer failed: %s", strerror(-n));
			return -1;
		}
		if (n <= 0 && check_stall(ctx) != 0)
			return -1;
	}
}

static void bpf_stop(struct method_ctx *ctx)
{
	if (!ctx)
		return;
	if (ctx->skel && ctx->skel->bss)
		__atomic_store_n(&ctx->skel->bss->stopping, 1, __ATOMIC_RELEASE);
	wake_thread_stop(ctx->thread);
	if (ctx->info_method && ctx->skel && ctx->skel->bss && ctx->source == WAKE_SRC_BPF_TIMER)
		bpf_hist_describe((const uint32_t (*)[WAKE_HIST_N])ctx->skel->bss->hist, ctx->info_method);
	ring_buffer__free(ctx->rb);
	wake_bpf__destroy(ctx->skel);	/* frees the timer map: cancels the timer */
	if (ctx->pinned)
		sched_setaffinity(0, sizeof(ctx->saved_affinity), &ctx->saved_affinity);
	free(ctx->recs);
	free(ctx);
}

/* The programs that only count causes (causes.bpf.h): loaded only when counting. */
static void choose_cause_programs(struct wake_bpf *skel, bool causes)
{
	struct bpf_program *only_causes[] = {
		skel->progs.wake_local_timer_exit, skel->progs.wake_irq_handler_exit,
		skel->progs.wake_reschedule_exit, skel->progs.wake_call_function_exit,
		skel->progs.wake_call_function_single_exit, skel->progs.wake_irq_work_entry,
		skel->progs.wake_irq_work_exit, skel->progs.wake_nmi_handler,
	};

	skel->rodata->cfg_causes = causes;
	for (size_t i = 0; i < sizeof(only_causes) / sizeof(only_causes[0]); i++) {
		const char *tp = strchr(bpf_program__section_name(only_causes[i]), '/') + 1;

		if (!causes || !bpf_kernel_has_tracepoint(tp))
			bpf_program__set_autoload(only_causes[i], false);
	}
}

/* Open and load the programs for `source`; NULL with the reason in why. */
static struct wake_bpf *load_programs(int cpu, enum wake_source source, bool causes,
				      long long steal_delta, char *why, size_t whylen)
{
	struct wake_bpf *skel;
	int err;

	bpf_quiet_libbpf();
	skel = wake_bpf__open();
	if (!skel) {
		snprintf(why, whylen, "cannot open the eBPF object (%s): use --method timer",
			 bpf_last_libbpf_msg());
		return NULL;
	}
	skel->rodata->cfg_cpu = (uint32_t)cpu;
	skel->rodata->cfg_source = source;
	skel->rodata->cfg_poll_states = bpf_poll_states(cpu);
	skel->rodata->cfg_irq_on_states = bpf_irq_on_states(cpu);
	if (!bpf_kernel_has_tracepoint("local_timer_entry"))
		bpf_program__set_autoload(skel->progs.wake_local_timer_entry, false);
	if (!bpf_kernel_has_tracepoint("reschedule_entry"))
		bpf_program__set_autoload(skel->progs.wake_reschedule_entry, false);
	if (!bpf_kernel_has_tracepoint("call_function_entry"))
		bpf_program__set_autoload(skel->progs.wake_call_function_entry, false);
	if (!bpf_kernel_has_tracepoint("call_function_single_entry"))
		bpf_program__set_autoload(skel->progs.wake_call_function_single_entry, false);
	if (source != WAKE_SRC_BPF_TIMER)
		bpf_program__set_autoload(skel->progs.wake_timer_setup, false);
	choose_cause_programs(skel, causes);
	skel->rodata->cfg_steal_delta = causes ? steal_delta : 0;
	err = wake_bpf__load(skel);
	if (err) {
		snprintf(why, whylen, "the kernel refused the eBPF programs (%s: %s): use --method timer",
			 strerror(-err), bpf_last_libbpf_msg());
		wake_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

static int bpf_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	struct wake_bpf *skel;

	if (bpf_check_privileges(why, whylen) || bpf_check_btf(why, whylen))
		return -1;
	skel = load_programs(cfg->cpu, WAKE_SRC_BPF_TIMER, !cfg->no_causes, 0, why, whylen);
	if (!skel)
		return -1;
	wake_bpf__destroy(skel);
	return 0;
}

/* Set up the bpf_timer on the measured CPU: 0, 1 if this kernel lacks the flags, -1. */
static int setup_bpf_timer(struct method_ctx *ctx, char *why, size_t whylen)
{
	int retval = 0;
	int err = bpf_run_on_cpu(ctx->cpu, bpf_program__fd(ctx->skel->progs.wake_timer_setup), &retval);

	if (err) {
		isc_err("bpf: cannot run the timer setup on CPU %d: %s", ctx->cpu, strerror(-err));
		return -1;
	}
	if (retval == -EINVAL) {
		snprintf(why, whylen, "bpf_timer_start() refused BPF_F_TIMER_ABS|BPF_F_TIMER_CPU_PIN "
			 "(kernel older than 6.7): fell back to a timerfd thread pinned to CPU %d", ctx->cpu);
		return 1;
	}
	if (retval != 0) {
		snprintf(why, whylen, "the bpf_timer setup failed (%s): fell back to a timerfd thread "
			 "pinned to CPU %d", strerror(-retval), ctx->cpu);
		return 1;
	}
	snprintf(why, whylen, "bpf_timer armed with BPF_F_TIMER_ABS|BPF_F_TIMER_CPU_PIN from CPU %d "
		 "(kernel 6.7+); nothing of ours runs on that CPU", ctx->cpu);
	return 0;
}

/* Load for the preferred source (or the one forced by IDLESCOPE_BPF_EVENT_SOURCE), falling
 * back to the thread source; 0 or -1 (message printed). */
static int load_for_source(struct method_ctx *ctx, char *why, size_t whylen)
{
	const char *force = getenv("IDLESCOPE_BPF_EVENT_SOURCE");
	char err[512];
	int r;

	if (force && strcmp(force, "thread") == 0) {
		ctx->source = WAKE_SRC_THREAD;
		snprintf(why, whylen, "timerfd thread pinned to CPU %d, forced by "
			 "IDLESCOPE_BPF_EVENT_SOURCE=thread", ctx->cpu);
	} else {
		ctx->skel = load_programs(ctx->cpu, WAKE_SRC_BPF_TIMER, ctx->causes, ctx->steal_delta, err, sizeof(err));
		if (!ctx->skel) {
			isc_err("bpf: %s", err);
			return -1;
		}
		r = setup_bpf_timer(ctx, why, whylen);
		if (r <= 0)
			return r;
		wake_bpf__destroy(ctx->skel);
		ctx->source = WAKE_SRC_THREAD;
	}
	ctx->skel = load_programs(ctx->cpu, WAKE_SRC_THREAD, ctx->causes, ctx->steal_delta, err, sizeof(err));
	if (!ctx->skel) {
		isc_err("bpf: %s", err);
		return -1;
	}
	return 0;
}

static void describe(const struct method_ctx *ctx, const char *why, cJSON *info)
{
	cJSON *tintr = cJSON_AddArrayToObject(info, "tintr_sources");

	cJSON_AddStringToObject(info, "event_source",
				ctx->source == WAKE_SRC_BPF_TIMER ? "bpf_timer" : "timerfd_thread");
	cJSON_AddStringToObject(info, "event_source_why", why);
	if (bpf_program__autoload(ctx->skel->progs.wake_local_timer_entry))
		cJSON_AddItemToArray(tintr, cJSON_CreateString("irq_vectors:local_timer_entry"));
	cJSON_AddItemToArray(tintr, cJSON_CreateString("timer:hrtimer_expire_entry"));
	if (ctx->source == WAKE_SRC_BPF_TIMER)
		cJSON_AddItemToArray(tintr, cJSON_CreateString("bpf_timer callback"));
	cJSON_AddStringToObject(info, "idle_tracepoint", "power:cpu_idle");
	collect_idle_check(info, true, "tracepoint power:cpu_idle of the measured CPU: a datapoint whose CPU entered "
			   "no idle period after the event was armed is not_idle, one that left it before LaunchTime "
			   "and did not come back is other_wake");
	cJSON_AddNumberToObject(info, "poll_states_mask", (double)ctx->skel->rodata->cfg_poll_states);
	cJSON_AddNumberToObject(info, "irq_on_states_mask", (double)ctx->skel->rodata->cfg_irq_on_states);
	cJSON_AddBoolToObject(info, "consumer_pinned_away", ctx->pinned);
	bpf_causes_describe(ctx->causes, ctx->nmi_counted, ctx->steal_delta ? NULL : ctx->steal_why, info);
}

/* Everything of start() after the context exists; -1 after printing why. */
static int start_measuring(struct method_ctx *ctx, cJSON *info_method)
{
	char why[512];

	if (bpf_check_privileges(why, sizeof(why)) || bpf_check_btf(why, sizeof(why))) {
		isc_err("bpf: %s", why);
		return -1;
	}
	if (load_for_source(ctx, why, sizeof(why)) != 0)
		return -1;
	if (wake_bpf__attach(ctx->skel) != 0) {
		isc_err("bpf: cannot attach the eBPF programs (%s): use --method timer",
		       bpf_last_libbpf_msg());
		return -1;
	}
	ctx->rb = ring_buffer__new(bpf_map__fd(ctx->skel->maps.wake_events), on_record, ctx, NULL);
	if (!ctx->rb) {
		isc_err("bpf: cannot open the ring buffer: %s", strerror(errno));
		return -1;
	}
	ctx->pinned = bpf_pin_away_from(ctx->cpu, &ctx->saved_affinity) == 1;
	ctx->nmi_counted = ctx->causes && bpf_program__autoload(ctx->skel->progs.wake_nmi_handler);
	describe(ctx, why, info_method);
	ctx->info_method = info_method;
	refill_ldists(ctx);
	ctx->last_progress_ns = isc_mono_ns();
	if (ctx->source == WAKE_SRC_BPF_TIMER)
		return kick(ctx);
	ctx->thread = wake_thread_start(ctx->cpu, bpf_program__fd(ctx->skel->progs.wake_arm),
					&ctx->skel->bss->ltime_out, &ctx->skel->bss->armed);
	return ctx->thread ? 0 : -1;
}

static int bpf_start(struct method_ctx **out, const struct collect_cfg *cfg, cJSON *info_method)
{
	struct method_ctx *ctx = isc_xcalloc(1, sizeof(*ctx));

	ctx->cpu = cfg->cpu;
	ctx->ldist_max = cfg->ldist_max;
	ctx->causes = !cfg->no_causes;
	if (!ctx->causes)
		snprintf(ctx->steal_why, sizeof(ctx->steal_why), "--no-causes");
	else if (bpf_steal_delta(&ctx->steal_delta, ctx->steal_why, sizeof(ctx->steal_why)) != 0)
		ctx->steal_delta = 0;
	ctx->recs = isc_xcalloc(REC_QUEUE_CAP, sizeof(*ctx->recs));
	if (start_measuring(ctx, info_method) != 0) {
		bpf_stop(ctx);	/* unpins, detaches, frees: the core's stop() gets NULL */
		*out = NULL;
		return -1;
	}
	*out = ctx;
	return 0;
}

const struct method_ops method_bpf = {
	.name = "bpf",
	.probe = bpf_probe,
	.start = bpf_start,
	.next = bpf_next,
	.stop = bpf_stop,
};
