/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hrt and tdt methods: the idlescope kernel module (kmod/) takes TBI/TAI in the
 * power:cpu_idle tracepoint and TIntr in the event's interrupt, and streams fixed-size
 * records through /dev/idlescope. This side loads the module if needed, configures it,
 * turns records into datapoints (residencies from counter deltas) and unloads the module
 * afterwards if it loaded it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "fs/fs.h"
#include "text/util.h"
#include "idlescope/version.h"
#include "method_kmod.h"
#include "cause_names.h"
#include "../kmod/idlescope_uapi.h"

#define READ_RECORDS 64
#define POLL_MS 100

_Static_assert((int)IDLESCOPE_DISCARD_NOT_IDLE == (int)DISCARD_NOT_IDLE &&
	       (int)IDLESCOPE_DISCARD_OTHER_WAKE == (int)DISCARD_OTHER_WAKE &&
	       (int)IDLESCOPE_DISCARD_WRONG_CPU == (int)DISCARD_WRONG_CPU &&
	       (int)IDLESCOPE_DISCARD_LOST == (int)DISCARD_LOST && (int)IDLESCOPE_DISCARD_NR == (int)DISCARD_NR,
	       "discard reasons differ between the module and collect");

struct method_ctx {
	int fd;
	int method;
	bool loaded_by_us;
	char version[64];         /* the module's MODULE_VERSION, "" if unreadable */
	struct idlescope_info info;
	struct idlescope_record rec[READ_RECORDS];
	size_t nrec, pos;
	uint64_t lost_seen;
	bool draining;            /* stop seen: the module is disabled, reads do not block */
	bool finished;            /* drained: nothing more will come */
	uint64_t poll_states;     /* bit per cpuidle state named POLL */
	int cpu;
	uint64_t ldist_max;       /* ns */
	uint64_t silence_ns;      /* no record for this long: the module is not measuring */
	uint64_t last_rec_ns;     /* CLOCK_MONOTONIC of the last record read (or ENABLE) */
	uint64_t got[DISCARD_NR + 1];   /* records read: discards per reason, then datapoints */
	bool causes;              /* the module counts the causes (not --no-causes) */
};

#define SILENCE_EXTRA_NS NSEC_PER_SEC    /* beyond LDist max: the module's lost timeout is 0.5 s */

/* ---------------------------------------------------------------- probe */

static bool cpu_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool found = false;
	size_t n = strlen(flag);

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
			if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || !p[n]))
				found = true;
		break;
	}
	fclose(f);
	return found;
}

static int tdt_cpu_check(char *why, size_t whylen)
{
	static const struct { const char *flag, *what; } need[] = {
		{ "tsc_deadline_timer", "no TSC-deadline timer" },
		{ "arat", "the local APIC timer stops in deep C-states (no ARAT)" },
		{ "constant_tsc", "the TSC is not invariant (no constant_tsc)" },
		{ "nonstop_tsc", "the TSC stops in deep C-states (no nonstop_tsc)" },
	};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!cpu_flag(need[i].flag)) {
			snprintf(why, whylen, "%s (CPU flag %s missing in /proc/cpuinfo); use --method hrt",
				 need[i].what, need[i].flag);
			return -1;
		}
	return 0;
}

/* The measured CPU's clock event device must be the local APIC timer in TSC-deadline mode
 * (root: "" or a test's fixture tree). Not exposed: the module checks the timer mode itself. */
static int tdt_clockevent_check(const char *root, int cpu, char *why, size_t whylen)
{
	char path[512], dev[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/clockevents/clockevent%d/current_device", root, cpu);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(dev, sizeof(dev), f))
		dev[0] = '\0';
	fclose(f);
	dev[strcspn(dev, "\n")] = '\0';
	if (!dev[0] || !strcmp(dev, "lapic-deadline"))
		return 0;
	snprintf(why, whylen, "the clock event device of CPU %d is '%s', not lapic-deadline (%s); use --method hrt",
		 cpu, dev, path + strlen(root));
	return -1;
}

static int kmod_probe(const struct collect_cfg *cfg, char *why, size_t whylen, bool tdt)
{
	char path[4096];

	if (geteuid() != 0) {
		snprintf(why, whylen, "needs root (the kernel module and /dev/idlescope): run as root or use --method timer");
		return -1;
	}
	if (tdt && (tdt_cpu_check(why, whylen) < 0 || tdt_clockevent_check("", cfg->cpu, why, whylen) < 0))
		return -1;
	if (kmod_is_loaded())
		return 0;
	if (access("/proc/modules", F_OK) < 0) {
		snprintf(why, whylen, "this kernel cannot load modules (no /proc/modules: built without "
			 "CONFIG_MODULES); use --method bpf or timer");
		return -1;
	}
	return kmod_find(cfg->kmod_path, path, sizeof(path), why, whylen);
}

static int hrt_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	return kmod_probe(cfg, why, whylen, false);
}

static int tdt_probe(const struct collect_cfg *cfg, char *why, size_t whylen)
{
	return kmod_probe(cfg, why, whylen, true);
}

/* ---------------------------------------------------------------- start */

static const char *config_error(int err, const struct method_ctx *c, const struct collect_cfg *cfg,
				char *buf, size_t len)
{
	switch (err) {
	case ENODEV:
		snprintf(buf, len, "CPU %d is offline: bring it online or measure another CPU", cfg->cpu);
		break;
	case EINVAL:
		snprintf(buf, len, "configuration refused: CPU %d out of range or LDist range %llu..%llu ns invalid",
			 cfg->cpu, (unsigned long long)cfg->ldist_min, (unsigned long long)cfg->ldist_max);
		break;
	case ERANGE:
		snprintf(buf, len, "LDist maximum %llu ns is above the module's limit of %llu ns",
			 (unsigned long long)cfg->ldist_max, (unsigned long long)IDLESCOPE_LDIST_MAX_NS);
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "tdt cannot run here: %s; use --method hrt", c->info.tdt_why);
		break;
	default:
		snprintf(buf, len, "%s", strerror(err));
	}
	return buf;
}

static int check_module_info(struct method_ctx *c);

static int open_device(struct method_ctx *c, const struct collect_cfg *cfg, char *path, size_t plen)
{
	char why[1024];

	path[0] = '\0';
	if (!kmod_is_loaded()) {
		if (kmod_find(cfg->kmod_path, path, plen, why, sizeof(why)) < 0) {
			isc_err("%s", why);
			return -1;
		}
		int rc = kmod_load(path, why, sizeof(why));
		if (rc < 0) {
			isc_err("%s", why);
			return -1;
		}
		c->loaded_by_us = rc == 0;
	}
	c->fd = isc_fs_open_dev(KMOD_DEV, O_RDWR, false, NULL);  /* the module's, never a planted file */
	if (c->fd < 0) {
		if (errno == EBUSY)
			isc_err("%s is in use by another collector: wait for it to finish", KMOD_DEV);
		else
			isc_err("%s: %s", KMOD_DEV, strerror(errno));
		return -1;
	}
	return check_module_info(c);
}

/* The size of the module's info struct: INFO's ioctl number carries it, and the module
 * answers only its own. 0 if no size answers. */
static unsigned info_size_of_module(int fd)
{
	static unsigned char buf[1u << _IOC_SIZEBITS];

	for (unsigned size = 4; size < sizeof(buf); size += 4)
		if (ioctl(fd, _IOC(_IOC_READ, IDLESCOPE_IOC_MAGIC, _IOC_NR(IDLESCOPE_IOC_INFO), size), buf) == 0)
			return size;
	return 0;
}

/* The loaded module's MODULE_VERSION (sysfs) into c->version; a module of the same ABI
 * but another release (or built without the VERSION file: "unknown") is used with a warning. */
static void read_module_version(struct method_ctx *c)
{
	FILE *f = fopen("/sys/module/" KMOD_NAME "/version", "r");

	c->version[0] = '\0';
	if (f) {
		if (!fgets(c->version, sizeof(c->version), f))
			c->version[0] = '\0';
		c->version[strcspn(c->version, "\n")] = '\0';
		fclose(f);
	}
	if (strcmp(c->version, IDLESCOPE_VERSION) != 0)
		isc_warn("the loaded idlescope module is version '%s', collect %s: the same interface, but "
			"reload the module of this release (idlescope-dkms, or make -C kmod) for its fixes",
			c->version[0] ? c->version : "(none)", IDLESCOPE_VERSION);
}

/* The loaded module must be the one this collect was built with. */
static int check_module_info(struct method_ctx *c)
{
	char size[32] = "unknown";
	unsigned other;

	if (ioctl(c->fd, IDLESCOPE_IOC_INFO, &c->info) == 0) {
		if (c->info.abi_version == IDLESCOPE_ABI_VERSION && c->info.record_size == sizeof(struct idlescope_record)) {
			read_module_version(c);
			return 0;
		}
		isc_err("%s: the loaded idlescope module is of another version (ABI %u, record %u bytes; expected "
		       "ABI %u, %zu bytes): reload the module built from this tree", KMOD_DEV, c->info.abi_version,
		       c->info.record_size, IDLESCOPE_ABI_VERSION, sizeof(struct idlescope_record));
		return -1;
	}
	if (errno != ENOTTY) {
		isc_err("%s: reading the module's info: %s", KMOD_DEV, strerror(errno));
		return -1;
	}
	if ((other = info_size_of_module(c->fd)))
		snprintf(size, sizeof(size), "%u", other);
	isc_err("%s: the loaded idlescope module is of another version (info size %s, expected %zu): reload "
	       "the module built from this tree", KMOD_DEV, size, sizeof(struct idlescope_info));
	return -1;
}

static const char *const msr_names[IDLESCOPE_MSR_NR] = {
	"TSC", "MPERF", "CC1", "CC3", "CC6", "CC7", "PC2", "PC3", "PC6", "PC7", "PC8", "PC9", "PC10",
};

/* info.json method_details.causes, as the bpf method describes its own. */
static void describe_causes(const struct method_ctx *c, cJSON *info)
{
	cJSON *k = cJSON_AddObjectToObject(info, "causes");

	cJSON_AddBoolToObject(k, "counted", c->causes);
	if (!c->causes) {
		cJSON_AddStringToObject(k, "why", "--no-causes");
		return;
	}
	cJSON_AddStringToObject(k, "window", "TBI to max(TAI, TIntr), our timer interrupt excluded");
	cJSON_AddStringToObject(k, "irq", "irq:irq_handler_entry/exit, irq_vectors:*_entry/exit "
				"(tracepoint probes of the module)");
	cJSON_AddStringToObject(k, "softirq", "irq:softirq_entry/exit");
	cJSON_AddStringToObject(k, "nmi", "the CPU's NMI count, TBI to TAI");
	cJSON_AddStringToObject(k, "steal", "not counted");
}

/* Why a counter column is missing: the module probes each MSR with a safe read on the measured
 * CPU at configuration and leaves out those that fault (kmod/counters.c). */
static void describe_missing_counters(const struct method_ctx *c, cJSON *k)
{
	uint64_t residency = c->info.msr_mask & ~((1ull << IDLESCOPE_MSR_TSC) | (1ull << IDLESCOPE_MSR_MPERF));
	char buf[320];

	if (!residency) {
		snprintf(buf, sizeof(buf), "no C-state residency MSR (MSR_CORE_C1_RES, MSR_CORE_C3..C7_RESIDENCY, "
			 "MSR_PKG_C2..C10_RESIDENCY) could be read on CPU %d: the module's safe reads faulted "
			 "(a virtual machine), or the CPU is not Intel or lacks APERF/MPERF; no CC%%/PC%% columns",
			 c->cpu);
		cJSON_AddStringToObject(k, "residency_unavailable", buf);
	}
	if (!(c->info.caps & IDLESCOPE_CAP_SMI)) {
		snprintf(buf, sizeof(buf), "MSR_SMI_COUNT (0x34) could not be read on CPU %d: the module's safe "
			 "read faulted, or the CPU is not Intel; no SMICnt column", c->cpu);
		cJSON_AddStringToObject(k, "smi_count_unavailable", buf);
	}
}

static void describe(const struct method_ctx *c, const char *path, cJSON *info)
{
	char buf[512];

	if (c->method == IDLESCOPE_METHOD_HRT)
		cJSON_AddStringToObject(info, "event_source",
			"kernel module idlescope: hrtimer HRTIMER_MODE_ABS_PINNED_HARD armed by a kthread bound to "
			"the measured CPU; TBI/TAI in the power:cpu_idle tracepoint, TIntr in the timer handler "
			"(ktime_get_ns)");
	else
		cJSON_AddStringToObject(info, "event_source",
			"kernel module idlescope: IA32_TSC_DEADLINE written at idle entry; TBI/TAI in the "
			"power:cpu_idle tracepoint, TIntr in irq_vectors:local_timer_entry (TSC, converted to ns)");
	snprintf(buf, sizeof(buf), "%s", c->loaded_by_us ? "module loaded by collect from " : "module was already loaded");
	if (c->loaded_by_us)
		strncat(buf, path, sizeof(buf) - strlen(buf) - 1);
	cJSON_AddStringToObject(info, "event_source_why", buf);
	collect_idle_check(info, true, "tracepoint power:cpu_idle in the kernel module idlescope: a datapoint whose "
			   "CPU was not idle when the event fired is not_idle, one woken by something else first is "
			   "other_wake");
	cJSON *k = cJSON_AddObjectToObject(info, "kmod");
	cJSON_AddBoolToObject(k, "loaded_by_collect", c->loaded_by_us);
	cJSON_AddStringToObject(k, "version", c->version);
	if (c->loaded_by_us)
		cJSON_AddStringToObject(k, "path", path);
	cJSON_AddNumberToObject(k, "tsc_hz", (double)c->info.tsc_hz);
	cJSON_AddNumberToObject(k, "tsc_khz_kernel", (double)c->info.tsc_khz_kernel);
	cJSON_AddNumberToObject(k, "ring_records", c->info.ring_records);
	cJSON *m = cJSON_AddArrayToObject(k, "counters");
	for (int i = 0; i < IDLESCOPE_MSR_NR; i++)
		if (c->info.msr_mask & (1ull << i))
			cJSON_AddItemToArray(m, cJSON_CreateString(msr_names[i]));
	cJSON_AddBoolToObject(k, "smi_count", (c->info.caps & IDLESCOPE_CAP_SMI) != 0);
	describe_missing_counters(c, k);
	describe_causes(c, info);
	if (c->info.tdt_why[0])
		cJSON_AddStringToObject(k, "tdt_unavailable", c->info.tdt_why);
}

/* POLL leaves idle on need_resched, not on our event: its TAI means nothing. */
static uint64_t find_poll_states(int cpu)
{
	uint64_t mask = 0;
	for (int i = 0; i < 64; i++) {
		char path[128], name[32] = "";
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, i);
		FILE *f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(name, sizeof(name), f) && !strcmp(name, "POLL\n"))
			mask |= 1ull << i;
		fclose(f);
	}
	return mask;
}


static int kmod_start(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info, int method)
{
	struct method_ctx *c = isc_xcalloc(1, sizeof(*c));
	char path[4096], buf[512];

	c->fd = -1;
	c->method = method;
	c->cpu = cfg->cpu;
	c->ldist_max = cfg->ldist_max;
	c->silence_ns = cfg->ldist_max + SILENCE_EXTRA_NS;
	c->poll_states = find_poll_states(cfg->cpu);
	c->causes = !cfg->no_causes;
	*ctx = c;
	if (open_device(c, cfg, path, sizeof(path)) < 0)
		return -1;
	struct idlescope_config conf = { .cpu = (uint32_t)cfg->cpu, .method = (uint32_t)method,
					 .ldist_min_ns = cfg->ldist_min, .ldist_max_ns = cfg->ldist_max,
					 .seed = cfg->seed, .flags = cfg->no_causes ? IDLESCOPE_CFG_NO_CAUSES : 0 };
	if (ioctl(c->fd, IDLESCOPE_IOC_CONFIG, &conf) < 0) {
		int err = errno;
		if (err == EOPNOTSUPP)   /* the reason may be about the measured CPU: ask again */
			ioctl(c->fd, IDLESCOPE_IOC_INFO, &c->info);
		isc_err("%s: %s", KMOD_DEV, config_error(err, c, cfg, buf, sizeof(buf)));
		return -1;
	}
	if (ioctl(c->fd, IDLESCOPE_IOC_INFO, &c->info) < 0 || ioctl(c->fd, IDLESCOPE_IOC_ENABLE) < 0) {
		isc_err("%s: cannot start measuring: %s", KMOD_DEV, strerror(errno));
		return -1;
	}
	describe(c, path, info);
	c->last_rec_ns = isc_mono_ns();
	return 0;
}

static int hrt_start(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info)
{
	return kmod_start(ctx, cfg, info, IDLESCOPE_METHOD_HRT);
}

static int tdt_start(struct method_ctx **ctx, const struct collect_cfg *cfg, cJSON *info)
{
	return kmod_start(ctx, cfg, info, IDLESCOPE_METHOD_TDT);
}

/* ---------------------------------------------------------------- records */

static void add_res(struct dp_raw *dp, const char *name, double pct)
{
	if (dp->nres < DP_MAX_RES) {
		dp->res[dp->nres].name = name;
		dp->res[dp->nres].pct = pct;
		dp->nres++;
	}
}

/* Residencies over TBI..TAI: CC0% from MPERF, CCn%/PCn% from their counters, all over the TSC;
 * CC1% from its own counter or, as turbostat does, what is left: 100 - CC0 - CC3 - CC6 - CC7. */
static void residencies(const struct idlescope_record *r, struct dp_raw *dp)
{
	static const char *const pct_names[IDLESCOPE_MSR_NR] = {
		NULL, "CC0%", "CC1%", "CC3%", "CC6%", "CC7%", "PC2%", "PC3%", "PC6%", "PC7%", "PC8%", "PC9%", "PC10%",
	};
	uint64_t m = r->msr_mask, tsc = r->msr_delta[IDLESCOPE_MSR_TSC];
	double pct[IDLESCOPE_MSR_NR];

	dp->nres = 0;
	if (!(m & (1ull << IDLESCOPE_MSR_TSC)) || !tsc)
		return;
	for (int i = 1; i < IDLESCOPE_MSR_NR; i++)
		pct[i] = 100.0 * (double)r->msr_delta[i] / (double)tsc;
	if (!(m & (1ull << IDLESCOPE_MSR_CC1)) && (m & (1ull << IDLESCOPE_MSR_MPERF))) {
		double rest = 100.0 - pct[IDLESCOPE_MSR_MPERF];
		for (int i = IDLESCOPE_MSR_CC3; i <= IDLESCOPE_MSR_CC7; i++)
			if (m & (1ull << i))
				rest -= pct[i];
		pct[IDLESCOPE_MSR_CC1] = rest > 0 ? rest : 0;
		m |= 1ull << IDLESCOPE_MSR_CC1;
	}
	for (int i = 1; i < IDLESCOPE_MSR_NR; i++)
		if (m & (1ull << i))
			add_res(dp, pct_names[i], pct[i]);
}

_Static_assert(CAUSE_SRC_NONE == IDLESCOPE_SRC_NONE && CAUSE_SRC_TIMER == IDLESCOPE_SRC_TIMER &&
	       CAUSE_SRC_RESCHED == IDLESCOPE_SRC_RESCHED && CAUSE_SRC_CALL == IDLESCOPE_SRC_CALL &&
	       CAUSE_SRC_IRQ_WORK == IDLESCOPE_SRC_IRQ_WORK, "one source encoding");

/* The cause columns (docs/format.md), when the module counted them. */
static void causes(const struct idlescope_record *r, struct dp_causes *k)
{
	memset(k, 0, sizeof(*k));
	k->known = (r->flags & IDLESCOPE_F_CAUSES) != 0;
	if (!k->known)
		return;
	cause_fill_counts(k, r->irq_cnt, r->irq_ns, r->irq_top, r->sirq_cnt, r->sirq_ns, r->sirq_mask);
}

static void to_dp(const struct method_ctx *c, const struct idlescope_record *r, struct dp_raw *dp)
{
	memset(dp, 0, sizeof(*dp));
	dp->ldist = r->ldist;
	dp->ltime = r->ltime;
	dp->tbi = r->tbi;
	dp->tai = r->tai;
	dp->tintr = r->tintr;
	dp->req_state = r->req_state;
	dp->intr_off = (r->flags & IDLESCOPE_F_INTR_OFF) ? 1 : 0;
	dp->smi_cnt = (r->flags & IDLESCOPE_F_SMI) ? (int64_t)r->smi_cnt : -1;
	dp->nmi_cnt = (r->flags & IDLESCOPE_F_NMI) ? (int64_t)r->nmi_cnt : -1;
	causes(r, &dp->causes);
	/* The interrupt waited for the counter reads after TAI: take them out of IntrLatency
	 * (as wult does). The handler ran after the probe, so TIntr stays >= TAI >= LTime. */
	if (dp->intr_off == 1 && (r->msr_mask || (r->flags & IDLESCOPE_F_SMI)) &&
	    dp->tintr - r->ai_overhead >= dp->tai)
		dp->tintr -= r->ai_overhead;
	if (dp->req_state >= 0 && dp->req_state < 64 && (c->poll_states >> dp->req_state) & 1) {
		dp->tai = 0;
		dp->intr_off = 0;
	}
	residencies(r, dp);
}

/* 0 = polled (records in c->rec, or none yet), -1 = read error (errno), -2 = silence: nothing
 * for longer than LDist max + 1 s, which a measuring module never does. */
static int fill(struct method_ctx *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n = poll(&p, 1, POLL_MS);

	if (n < 0)
		return errno == EINTR ? 0 : -1;
	if (n == 0)
		return isc_mono_ns() - c->last_rec_ns > c->silence_ns ? -2 : 0;
	ssize_t got = read(c->fd, c->rec, sizeof(c->rec));
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (got == 0) {
		errno = ENODATA;
		return -1;
	}
	c->nrec = (size_t)got / sizeof(c->rec[0]);
	c->pos = 0;
	c->last_rec_ns = isc_mono_ns();
	return 0;
}

static uint64_t sum_discards(const uint64_t *d)
{
	uint64_t n = 0;
	for (int i = 0; i < DISCARD_NR; i++)
		n += d[i];
	return n;
}

static uint64_t module_discards(const struct idlescope_stats *st)
{
	uint64_t n = 0;
	for (int i = 0; i < IDLESCOPE_DISCARD_NR; i++)
		n += st->discards[i];
	return n;
}

/* What the module says it produced, for messages; "" if its stats cannot be read. */
static const char *module_counts(const struct method_ctx *c, struct idlescope_stats *st, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ioctl(c->fd, IDLESCOPE_IOC_STATS, st) == 0)
		snprintf(buf, len, "the module counted %llu datapoints and %llu discards",
			 (unsigned long long)st->datapoints, (unsigned long long)module_discards(st));
	return buf;
}

static int silence_error(const struct method_ctx *c)
{
	struct idlescope_stats st;
	char counts[160];

	module_counts(c, &st, counts, sizeof(counts));
	isc_err("%s: no record from the module for %.1f s (LDist max %.3f ms + 1 s)%s%s, collect received %llu "
	       "datapoints and %llu discards: CPU %d is kept busy (a real-time task?) or the module is stuck",
	       KMOD_DEV, (double)(isc_mono_ns() - c->last_rec_ns) / 1e9, (double)c->ldist_max / 1e6,
	       counts[0] ? "; " : "", counts, (unsigned long long)c->got[DISCARD_NR],
	       (unsigned long long)sum_discards(c->got), c->cpu);
	return -1;
}

/* After a stop: arm nothing more, and read without blocking from now on. Once disabled, the
 * module's read() returns what is left in its ring, then 0 (EAGAIN if the DISABLE failed). */
static void begin_drain(struct method_ctx *c)
{
	int fl;

	c->draining = true;
	ioctl(c->fd, IDLESCOPE_IOC_DISABLE);
	fl = fcntl(c->fd, F_GETFL);
	if (fl >= 0)
		fcntl(c->fd, F_SETFL, fl | O_NONBLOCK);
}

/* Draining: the next batch of what the kernel still holds; 0 = read some, -1 = nothing left. */
static int drain_read(struct method_ctx *c)
{
	ssize_t got;

	do
		got = read(c->fd, c->rec, sizeof(c->rec));
	while (got < 0 && errno == EINTR);
	if (got < 0 && errno != EAGAIN)
		isc_warn("%s: reading the last records after the stop: %s", KMOD_DEV, strerror(errno));
	if (got < (ssize_t)sizeof(c->rec[0]))
		return -1;
	c->nrec = (size_t)got / sizeof(c->rec[0]);
	c->pos = 0;
	return 0;
}

/* At the end: ring overflow that no record reported, and what the module counted against what
 * arrived (every record it counted was pushed to the ring before the stop, so all of them must
 * have come; any missing are reported and counted as lost). */
static void count_trailing_loss(struct method_ctx *c, uint64_t discards[DISCARD_NR])
{
	struct idlescope_stats st;
	char counts[160];

	c->finished = true;
	if (!module_counts(c, &st, counts, sizeof(counts))[0])
		return;
	if (st.overflow > c->lost_seen)
		discards[DISCARD_LOST] += st.overflow - c->lost_seen;
	uint64_t module = st.datapoints + module_discards(&st);
	uint64_t arrived = c->got[DISCARD_NR] + sum_discards(c->got) + st.overflow;
	if (module != arrived)
		isc_warn("%s: %s, collect received %llu datapoints and %llu discards (%llu lost to overflow): "
			"%lld record(s) missing%s", KMOD_DEV, counts, (unsigned long long)c->got[DISCARD_NR],
			(unsigned long long)sum_discards(c->got), (unsigned long long)st.overflow,
			(long long)(module - arrived), module > arrived ? ", counted as lost" : "");
	if (module > arrived)
		discards[DISCARD_LOST] += module - arrived;
}

/* One record: 1 = a datapoint in *dp, 0 = a discard (counted). */
static int take_record(struct method_ctx *c, const struct idlescope_record *r, struct dp_raw *dp,
		       uint64_t discards[DISCARD_NR])
{
	discards[DISCARD_LOST] += r->lost;
	c->lost_seen += r->lost;
	if (r->type == IDLESCOPE_REC_DISCARD) {
		if (r->reason < DISCARD_NR) {
			discards[r->reason]++;
			c->got[r->reason]++;
		}
		return 0;
	}
	c->got[DISCARD_NR]++;
	to_dp(c, r, dp);
	return 1;
}

static int reading_error(void)
{
	isc_err("%s: reading records: %s", KMOD_DEV,
	       errno == ENODATA ? "the module stopped measuring" :
	       errno == ENODEV ? "the measured CPU went offline" : strerror(errno));
	return -1;
}

/* Nothing measured is lost: after a stop, every record already read and every record still
 * in the kernel's ring is handed over (datapoints) or counted (discards) before 0. */
static int kmod_next(struct method_ctx *c, struct dp_raw *dp, uint64_t discards[DISCARD_NR])
{
	for (;;) {
		if (c->pos < c->nrec) {
			if (take_record(c, &c->rec[c->pos++], dp, discards))
				return 1;
			continue;
		}
		if (c->finished)
			return 0;
		collect_watch_discards(discards);  /* a run that keeps nothing stops (nothing_kept.c) */
		if (collect_stop_requested && !c->draining)
			begin_drain(c);
		if (!c->draining) {
			int rc = fill(c);
			if (rc == -2)
				return silence_error(c);
			if (rc < 0)
				return reading_error();
		} else if (drain_read(c) < 0) {
			count_trailing_loss(c, discards);
		}
	}
}

static void kmod_stop(struct method_ctx *c)
{
	char why[256];

	if (!c)
		return;
	if (c->fd >= 0) {
		ioctl(c->fd, IDLESCOPE_IOC_DISABLE);
		close(c->fd);
	}
	if (c->loaded_by_us && kmod_unload(why, sizeof(why)) < 0)
		isc_warn("%s (unload it with rmmod " KMOD_NAME ")", why);
	free(c);
}

const struct method_ops method_hrt = {
	.name = "hrt", .probe = hrt_probe, .start = hrt_start, .next = kmod_next, .stop = kmod_stop,
};

const struct method_ops method_tdt = {
	.name = "tdt", .probe = tdt_probe, .start = tdt_start, .next = kmod_next, .stop = kmod_stop,
};
