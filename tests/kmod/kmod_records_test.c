/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit test of the hrt/tdt methods' user-space side (collect/methods/method_kmod.c): module records
 * to datapoints (residencies from counter deltas, POLL without TAI, the counter-read
 * compensation of TIntr, unknown SMI/NMI counts) and the record stream (discards per reason,
 * ring-overflow losses, and the drain after a stop: nothing measured is lost), the module's
 * counts against what arrived, silence, and a module of another version. The QEMU guest has
 * no residency MSRs, so this is where that arithmetic is checked. ioctl() goes to a stand-in
 * for the module (fake_ioctl below).
 */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static int fake_ioctl(int fd, unsigned long req, ...);
#define ioctl fake_ioctl
#include "method_kmod.c"
#include "../common/check.h"
#undef ioctl

/* The module's side of ioctl(): STATS answers fake_stats when have_stats; INFO answers only
 * with an info struct of fake_info_size bytes (another version's when that is not ours). */
static struct idlescope_stats fake_stats;
static int have_stats;
static unsigned fake_info_size;

static int fake_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	(void)fd;
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == IDLESCOPE_IOC_STATS && have_stats) {
		memcpy(arg, &fake_stats, sizeof(fake_stats));
		return 0;
	}
	if (fake_info_size && _IOC_TYPE(req) == IDLESCOPE_IOC_MAGIC && _IOC_NR(req) == _IOC_NR(IDLESCOPE_IOC_INFO) &&
	    _IOC_SIZE(req) == fake_info_size) {
		memset(arg, 0, fake_info_size);
		return 0;
	}
	if (req == IDLESCOPE_IOC_DISABLE)
		return 0;
	errno = ENOTTY;
	return -1;
}

/* stderr of fn() as a string (static buffer). */
static const char *stderr_of(void (*fn)(void *), void *arg)
{
	static char buf[2048];
	char path[] = "/tmp/kmod_records_test.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

volatile sig_atomic_t collect_stop_requested;

/* Stand-in for the core's nothing-kept watch (nothing_kept.c): remembers the most discards it
 * was shown and stops the run once it has seen watch_limit of them. */
static uint64_t watch_seen, watch_limit;

void collect_watch_discards(const uint64_t discards[DISCARD_NR])
{
	uint64_t n = 0;
	for (int i = 0; i < DISCARD_NR; i++)
		n += discards[i];
	if (n > watch_seen)
		watch_seen = n;
	if (watch_limit && n >= watch_limit)
		collect_stop_requested = 1;
}

static struct idlescope_record base_record(void)
{
	struct idlescope_record r = { .type = IDLESCOPE_REC_DATAPOINT, .ldist = 2000000,
				      .ltime = 10000000, .tbi = 9000000, .tai = 10001000, .tintr = 10005000,
				      .req_state = 2, .flags = IDLESCOPE_F_NMI, .nmi_cnt = 1 };
	return r;
}

static void check_res(const struct dp_raw *dp, size_t i, const char *name, double pct)
{
	CHECK_MSG(i < dp->nres, "residency %zu (%s) missing, nres %zu", i, name, dp->nres);
	if (i >= dp->nres)
		return;
	CHECK_MSG(!strcmp(dp->res[i].name, name), "residency %zu is %s, expected %s", i, dp->res[i].name, name);
	CHECK_MSG(fabs(dp->res[i].pct - pct) < 1e-9, "%s = %.12g, expected %.12g", name, dp->res[i].pct, pct);
}

static void test_residencies(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record r = base_record();
	struct dp_raw dp;

	/* CC1% derived as turbostat does: 100 - CC0 - CC6 */
	r.msr_mask = 1u << IDLESCOPE_MSR_TSC | 1u << IDLESCOPE_MSR_MPERF | 1u << IDLESCOPE_MSR_CC6 |
		     1u << IDLESCOPE_MSR_PC6;
	r.msr_delta[IDLESCOPE_MSR_TSC] = 1000;
	r.msr_delta[IDLESCOPE_MSR_MPERF] = 50;
	r.msr_delta[IDLESCOPE_MSR_CC6] = 900;
	r.msr_delta[IDLESCOPE_MSR_PC6] = 800;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.nres == 4, "nres %zu, expected 4", dp.nres);
	check_res(&dp, 0, "CC0%", 5);
	check_res(&dp, 1, "CC1%", 5);
	check_res(&dp, 2, "CC6%", 90);
	check_res(&dp, 3, "PC6%", 80);

	/* CC1% from its own counter when the CPU has one */
	r.msr_mask |= 1u << IDLESCOPE_MSR_CC1;
	r.msr_delta[IDLESCOPE_MSR_CC1] = 30;
	to_dp(&c, &r, &dp);
	check_res(&dp, 1, "CC1%", 3);

	/* a derived CC1% below zero (counters read at slightly different times) is 0 */
	r.msr_mask &= ~(1u << IDLESCOPE_MSR_CC1);
	r.msr_delta[IDLESCOPE_MSR_CC6] = 960;
	to_dp(&c, &r, &dp);
	check_res(&dp, 1, "CC1%", 0);

	/* no TSC delta: no residencies at all */
	r.msr_delta[IDLESCOPE_MSR_TSC] = 0;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.nres == 0, "nres %zu without a TSC delta", dp.nres);
	r.msr_mask = 0;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.nres == 0, "nres %zu without counters", dp.nres);
}

static void test_fields(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record r = base_record();
	struct dp_raw dp;

	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.ldist == 2000000 && dp.ltime == 10000000 && dp.tbi == 9000000 && dp.tai == 10001000 &&
	      dp.tintr == 10005000, "timestamps not copied");
	CHECK_MSG(dp.req_state == 2 && dp.intr_off == 0, "req_state %d intr_off %d", dp.req_state, dp.intr_off);
	CHECK_MSG(dp.smi_cnt == -1 && dp.nmi_cnt == 1, "smi %lld nmi %lld", (long long)dp.smi_cnt, (long long)dp.nmi_cnt);

	/* IRQs off and counters read after TAI: their cost comes off TIntr */
	r.flags |= IDLESCOPE_F_INTR_OFF | IDLESCOPE_F_SMI;
	r.smi_cnt = 0;
	r.ai_overhead = 300;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.intr_off == 1 && dp.smi_cnt == 0, "intr_off %d smi %lld", dp.intr_off, (long long)dp.smi_cnt);
	CHECK_MSG(dp.tintr == 10004700, "compensated TIntr %llu, expected 10004700", (unsigned long long)dp.tintr);
	/* ... never below TAI */
	r.ai_overhead = 4500;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.tintr == 10005000, "TIntr %llu pushed below TAI", (unsigned long long)dp.tintr);
	/* ... and not when nothing was read */
	r.flags &= ~IDLESCOPE_F_SMI;
	r.ai_overhead = 300;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.tintr == 10005000, "TIntr %llu changed without counter reads", (unsigned long long)dp.tintr);

	/* POLL: TAI means nothing, WakeLatency stays empty */
	c.poll_states = 1u << 2;
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.tai == 0 && dp.intr_off == 0, "POLL datapoint kept TAI %llu / intr_off %d",
	      (unsigned long long)dp.tai, dp.intr_off);
}

/* The module's cause fields (IDLESCOPE_F_CAUSES) become the cause columns, as the bpf
 * method's do; without the flag (--no-causes) there are none. */
static void test_causes(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record r = base_record();
	struct dp_raw dp;

	to_dp(&c, &r, &dp);
	CHECK_MSG(!dp.causes.known, "causes known without IDLESCOPE_F_CAUSES");
	r.flags |= IDLESCOPE_F_CAUSES;
	r.irq_cnt = 3;
	r.irq_ns = 4500;
	r.irq_top = IDLESCOPE_SRC_CALL;
	r.sirq_cnt = 2;
	r.sirq_ns = 1200;
	r.sirq_mask = (1u << 3) | (1u << 9);
	to_dp(&c, &r, &dp);
	CHECK_MSG(dp.causes.known && dp.causes.irq_cnt == 3 && dp.causes.irq_ns == 4500 &&
		  dp.causes.sirq_cnt == 2 && dp.causes.sirq_ns == 1200, "cause counts not copied");
	CHECK_STR(dp.causes.irq_top, "CAL");
	CHECK_STR(dp.causes.sirq_types, "NET_RX+RCU");
	r.irq_top = 24;
	to_dp(&c, &r, &dp);
	CHECK_STR(dp.causes.irq_top, "IRQ24");
	r.irq_cnt = 0;   /* no IRQ: no top source, whatever the field holds */
	r.sirq_cnt = 0;
	r.sirq_mask = 0;
	to_dp(&c, &r, &dp);
	CHECK_STR(dp.causes.irq_top, "");
	CHECK_STR(dp.causes.sirq_types, "");
}

static int write_records(int fd, const struct idlescope_record *recs, size_t n)
{
	if (write(fd, recs, n * sizeof(*recs)) == (ssize_t)(n * sizeof(*recs)))
		return 0;
	perror("write");
	check_failures++;
	return -1;
}

static void check_discards(const uint64_t *d, uint64_t not_idle, uint64_t other_wake, uint64_t wrong_cpu,
			   uint64_t lost, const char *when)
{
	CHECK_MSG(d[DISCARD_NOT_IDLE] == not_idle && d[DISCARD_OTHER_WAKE] == other_wake &&
	      d[DISCARD_WRONG_CPU] == wrong_cpu && d[DISCARD_LOST] == lost,
	      "%s: discards not_idle %llu other_wake %llu wrong_cpu %llu lost %llu, expected %llu %llu %llu %llu",
	      when, (unsigned long long)d[DISCARD_NOT_IDLE], (unsigned long long)d[DISCARD_OTHER_WAKE],
	      (unsigned long long)d[DISCARD_WRONG_CPU], (unsigned long long)d[DISCARD_LOST],
	      (unsigned long long)not_idle, (unsigned long long)other_wake, (unsigned long long)wrong_cpu,
	      (unsigned long long)lost);
}

/* The pipe stands for /dev/idlescope: what is written before the first read comes in one batch
 * (collect's local buffer); what is written later is still "in the kernel ring" at the stop.
 * Its write end stays open, so a blocking read after the stop would hang (alarm fails it). */
static void test_stream(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record first[4] = { base_record(), base_record(), base_record(), base_record() };
	struct idlescope_record later[3] = { base_record(), base_record(), base_record() };
	uint64_t discards[DISCARD_NR] = { 0 };
	struct dp_raw dp;
	int p[2];

	first[1].type = IDLESCOPE_REC_DISCARD;
	first[1].reason = IDLESCOPE_DISCARD_OTHER_WAKE;
	first[2].lost = 3;   /* three records dropped before this one */
	first[2].ltime = 20000000;
	first[3].type = IDLESCOPE_REC_DISCARD;
	first[3].reason = IDLESCOPE_DISCARD_NOT_IDLE;
	later[0].ltime = 30000000;
	later[1].type = IDLESCOPE_REC_DISCARD;
	later[1].reason = IDLESCOPE_DISCARD_WRONG_CPU;
	later[1].lost = 2;
	later[2].ltime = 40000000;
	if (pipe(p) < 0 || write_records(p[1], first, 4) < 0)
		return;
	c.fd = p[0];
	CHECK_MSG(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 10000000, "first datapoint");
	check_discards(discards, 0, 0, 0, 0, "after the first datapoint");
	if (write_records(p[1], later, 3) < 0)
		return;
	collect_stop_requested = 1;
	alarm(10);
	/* stop: the rest of the local buffer, then everything left in the ring */
	CHECK_MSG(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 20000000, "datapoint in the local buffer at the stop");
	CHECK_MSG(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 30000000, "first datapoint left in the ring");
	CHECK_MSG(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 40000000, "last datapoint left in the ring");
	CHECK_MSG(kmod_next(&c, &dp, discards) == 0, "end after the drain");
	CHECK_MSG(kmod_next(&c, &dp, discards) == 0, "end again");
	alarm(0);
	check_discards(discards, 1, 1, 1, 5, "after the drain");
	close(p[0]);
	close(p[1]);
	collect_stop_requested = 0;
}

/* Every record a discard: the discards reach the nothing-kept watch between reads, and the
 * stop it asks for ends the run (hrt/tdt spun forever on an LDist too short to go idle). */
static void test_nothing_kept_watch(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record recs[3] = { base_record(), base_record(), base_record() };
	uint64_t discards[DISCARD_NR] = { 0 };
	struct dp_raw dp;
	int p[2];

	for (int i = 0; i < 3; i++) {
		recs[i].type = IDLESCOPE_REC_DISCARD;
		recs[i].reason = IDLESCOPE_DISCARD_NOT_IDLE;
	}
	if (pipe(p) < 0 || write_records(p[1], recs, 3) < 0)
		return;
	c.fd = p[0];
	watch_seen = 0;
	watch_limit = 3;
	alarm(10);
	CHECK_MSG(kmod_next(&c, &dp, discards) == 0, "a run of discards only ends once the watch stops it");
	alarm(0);
	CHECK_MSG(watch_seen == 3, "the watch saw %llu discards, expected 3", (unsigned long long)watch_seen);
	check_discards(discards, 3, 0, 0, 0, "discards only");
	watch_limit = 0;
	close(p[0]);
	close(p[1]);
	collect_stop_requested = 0;
}

/* Stop seen with nothing buffered and nothing left: 0 at once, nothing counted. */
static void test_stop_empty(void)
{
	struct method_ctx c = { .fd = -1 };
	uint64_t discards[DISCARD_NR] = { 0 };
	struct dp_raw dp;
	int p[2];

	if (pipe(p) < 0) {
		perror("pipe");
		check_failures++;
		return;
	}
	c.fd = p[0];
	collect_stop_requested = 1;
	alarm(10);
	CHECK_MSG(kmod_next(&c, &dp, discards) == 0, "stop with an empty ring");
	alarm(0);
	check_discards(discards, 0, 0, 0, 0, "empty ring");
	close(p[0]);
	close(p[1]);
	collect_stop_requested = 0;
}

struct next_call {
	struct method_ctx *c;
	uint64_t *discards;
	int ret;
	double took_s;
};

static void call_next(void *arg)
{
	struct next_call *n = arg;
	struct dp_raw dp;
	uint64_t t0 = isc_mono_ns();

	n->ret = kmod_next(n->c, &dp, n->discards);
	n->took_s = (double)(isc_mono_ns() - t0) / 1e9;
}

/* Nothing arrives: kmod_next() fails after LDist max + 1 s (here 0.3 s) and says what the
 * module counted, instead of polling forever. */
static void test_silence(void)
{
	struct method_ctx c = { .fd = -1, .cpu = 1, .ldist_max = 4000000, .silence_ns = 300000000 };
	uint64_t discards[DISCARD_NR] = { 0 };
	struct next_call n = { .c = &c, .discards = discards };
	const char *msg;
	int p[2];

	if (pipe(p) < 0) {
		perror("pipe");
		check_failures++;
		return;
	}
	c.fd = p[0];
	c.last_rec_ns = isc_mono_ns();
	fake_stats = (struct idlescope_stats){ .datapoints = 1276, .discards = { 3, 1, 0, 0 } };
	have_stats = 1;
	alarm(10);
	msg = stderr_of(call_next, &n);
	alarm(0);
	CHECK_MSG(n.ret == -1, "silence: kmod_next returned %d", n.ret);
	CHECK_MSG(n.took_s >= 0.3 && n.took_s < 1.0, "silence noticed after %.3f s, expected 0.3..0.4", n.took_s);
	CHECK_MSG(strstr(msg, "kmod_records_test: /dev/idlescope: no record from the module for 0.") &&
	      strstr(msg, " s (LDist max 4.000 ms + 1 s); the module counted 1276 datapoints and 4 discards, "
			  "collect received 0 datapoints and 0 discards: CPU 1 is kept busy (a real-time task?) "
			  "or the module is stuck\n"), "silence message: %s", msg);
	have_stats = 0;
	close(p[0]);
	close(p[1]);
}

/* After the drain, the module's counts are compared with what arrived: missing records are
 * reported and counted as lost. */
static void test_counts_compared(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record recs[3] = { base_record(), base_record(), base_record() };
	uint64_t discards[DISCARD_NR] = { 0 };
	struct next_call n = { .c = &c, .discards = discards };
	const char *msg;
	int p[2];

	recs[1].type = IDLESCOPE_REC_DISCARD;
	recs[1].reason = IDLESCOPE_DISCARD_NOT_IDLE;
	recs[2].lost = 2;
	if (pipe(p) < 0 || write_records(p[1], recs, 3) < 0)
		return;
	close(p[1]);
	c.fd = p[0];
	/* the module: 3 datapoints, 1 not_idle, 2 overflowed (in lost): 1 datapoint never came */
	fake_stats = (struct idlescope_stats){ .datapoints = 3, .discards = { 1, 0, 0, 2 }, .overflow = 2 };
	have_stats = 1;
	collect_stop_requested = 1;
	alarm(10);
	for (int i = 0; i < 4; i++) {
		msg = stderr_of(call_next, &n);
		if (n.ret == 0)
			break;
	}
	alarm(0);
	CHECK_MSG(n.ret == 0, "end of the drain: %d", n.ret);
	check_discards(discards, 1, 0, 0, 3, "counts compared");
	CHECK_MSG(!strcmp(msg, "kmod_records_test: warning: /dev/idlescope: the module counted 3 datapoints and 3 "
			   "discards, collect received 2 datapoints and 1 discards (2 lost to overflow): 1 record(s) "
			   "missing, counted as lost\n"), "counts message: %s", msg);
	have_stats = 0;
	collect_stop_requested = 0;
	close(p[0]);
}

static void call_check_info(void *arg)
{
	struct next_call *n = arg;
	n->ret = check_module_info(n->c);
}

/* A module whose info struct has another size: the ioctl number differs, so the module says
 * ENOTTY; collect finds the size it answers to. */
static void test_other_version(void)
{
	struct method_ctx c = { .fd = 0 };
	struct next_call n = { .c = &c };
	char want[256];
	const char *msg;

	fake_info_size = 200;
	msg = stderr_of(call_check_info, &n);
	snprintf(want, sizeof(want), "kmod_records_test: /dev/idlescope: the loaded idlescope module is of another "
		 "version (info size 200, expected %zu): reload the module built from this tree\n",
		 sizeof(struct idlescope_info));
	CHECK_MSG(n.ret == -1 && !strcmp(msg, want), "other info size: %d %s", n.ret, msg);
	fake_info_size = 0;
	msg = stderr_of(call_check_info, &n);
	snprintf(want, sizeof(want), "kmod_records_test: /dev/idlescope: the loaded idlescope module is of another "
		 "version (info size unknown, expected %zu): reload the module built from this tree\n",
		 sizeof(struct idlescope_info));
	CHECK_MSG(n.ret == -1 && !strcmp(msg, want), "no info size: %d %s", n.ret, msg);
	fake_info_size = sizeof(struct idlescope_info);
	msg = stderr_of(call_check_info, &n);
	snprintf(want, sizeof(want), "another version (ABI 0, record 0 bytes; expected ABI %d, %zu bytes)",
		 IDLESCOPE_ABI_VERSION, sizeof(struct idlescope_record));
	CHECK_MSG(n.ret == -1 && strstr(msg, want), "same size, other ABI: %d %s", n.ret, msg);
	fake_info_size = 0;
}

/* tdt needs lapic-deadline as the measured CPU's clock event device (fixture trees). */
static void test_clockevent(void)
{
	char root[] = "/tmp/kmod_ce.XXXXXX", dir[256], file[300], why[512];
	FILE *f;

	if (!mkdtemp(root))
		return;
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/clockevents/clockevent1", root);
	CHECK_MSG(tdt_clockevent_check(root, 1, why, sizeof(why)) == 0, "no clockevents directory: refused");
	for (char *p = strchr(dir + strlen(root) + 1, '/'); ; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		mkdir(dir, 0755);
		if (!p)
			break;
		*p = '/';
	}
	snprintf(file, sizeof(file), "%s/current_device", dir);
	if (!(f = fopen(file, "w")))
		return;
	fputs("lapic\n", f);
	fclose(f);
	CHECK_MSG(tdt_clockevent_check(root, 1, why, sizeof(why)) == -1 &&
	      !strcmp(why, "the clock event device of CPU 1 is 'lapic', not lapic-deadline "
			   "(/sys/devices/system/clockevents/clockevent1/current_device); use --method hrt"),
	      "lapic (one-shot, not deadline): %s", why);
	f = fopen(file, "w");
	fputs("lapic-deadline\n", f);
	fclose(f);
	CHECK_MSG(tdt_clockevent_check(root, 1, why, sizeof(why)) == 0, "lapic-deadline refused: %s", why);
	unlink(file);
	for (char *p = dir + strlen(dir); p > dir + strlen(root); p--)
		if (*p == '/') {
			rmdir(dir);
			*p = '\0';
		}
	rmdir(dir);
	rmdir(root);
}

int main(void)
{
	isc_set_progname("kmod_records_test");
	test_residencies();
	test_fields();
	test_causes();
	test_stream();
	test_stop_empty();
	test_nothing_kept_watch();
	test_silence();
	test_counts_compared();
	test_other_version();
	test_clockevent();
	if (check_failures) {
		printf("%d check(s) failed\n", check_failures);
		return 1;
	}
	printf("kmod_records_test: all checks passed\n");
	return 0;
}
