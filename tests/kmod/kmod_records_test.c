/*
 * Unit test of the hrt/tdt methods' user-space side (collect/method_kmod.c): module records
 * to datapoints (residencies from counter deltas, POLL without TAI, the counter-read
 * compensation of TIntr, unknown SMI/NMI counts) and the record stream (discards per reason,
 * ring-overflow losses, and the drain after a stop: nothing measured is lost). The QEMU guest
 * has no residency MSRs, so this is where that arithmetic is checked.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "method_kmod.c"

volatile sig_atomic_t collect_stop_requested;
static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); \
	printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

static struct idlescope_record base_record(void)
{
	struct idlescope_record r = { .type = IDLESCOPE_REC_DATAPOINT, .ldist = 2000000,
				      .ltime = 10000000, .tbi = 9000000, .tai = 10001000, .tintr = 10005000,
				      .req_state = 2, .flags = IDLESCOPE_F_NMI, .nmi_cnt = 1 };
	return r;
}

static void check_res(const struct dp_raw *dp, size_t i, const char *name, double pct)
{
	CHECK(i < dp->nres, "residency %zu (%s) missing, nres %zu", i, name, dp->nres);
	if (i >= dp->nres)
		return;
	CHECK(!strcmp(dp->res[i].name, name), "residency %zu is %s, expected %s", i, dp->res[i].name, name);
	CHECK(fabs(dp->res[i].pct - pct) < 1e-9, "%s = %.12g, expected %.12g", name, dp->res[i].pct, pct);
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
	CHECK(dp.nres == 4, "nres %zu, expected 4", dp.nres);
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
	CHECK(dp.nres == 0, "nres %zu without a TSC delta", dp.nres);
	r.msr_mask = 0;
	to_dp(&c, &r, &dp);
	CHECK(dp.nres == 0, "nres %zu without counters", dp.nres);
}

static void test_fields(void)
{
	struct method_ctx c = { .fd = -1 };
	struct idlescope_record r = base_record();
	struct dp_raw dp;

	to_dp(&c, &r, &dp);
	CHECK(dp.ldist == 2000000 && dp.ltime == 10000000 && dp.tbi == 9000000 && dp.tai == 10001000 &&
	      dp.tintr == 10005000, "timestamps not copied");
	CHECK(dp.req_state == 2 && dp.intr_off == 0, "req_state %d intr_off %d", dp.req_state, dp.intr_off);
	CHECK(dp.smi_cnt == -1 && dp.nmi_cnt == 1, "smi %lld nmi %lld", (long long)dp.smi_cnt, (long long)dp.nmi_cnt);

	/* IRQs off and counters read after TAI: their cost comes off TIntr */
	r.flags |= IDLESCOPE_F_INTR_OFF | IDLESCOPE_F_SMI;
	r.smi_cnt = 0;
	r.ai_overhead = 300;
	to_dp(&c, &r, &dp);
	CHECK(dp.intr_off == 1 && dp.smi_cnt == 0, "intr_off %d smi %lld", dp.intr_off, (long long)dp.smi_cnt);
	CHECK(dp.tintr == 10004700, "compensated TIntr %llu, expected 10004700", (unsigned long long)dp.tintr);
	/* ... never below TAI */
	r.ai_overhead = 4500;
	to_dp(&c, &r, &dp);
	CHECK(dp.tintr == 10005000, "TIntr %llu pushed below TAI", (unsigned long long)dp.tintr);
	/* ... and not when nothing was read */
	r.flags &= ~IDLESCOPE_F_SMI;
	r.ai_overhead = 300;
	to_dp(&c, &r, &dp);
	CHECK(dp.tintr == 10005000, "TIntr %llu changed without counter reads", (unsigned long long)dp.tintr);

	/* POLL: TAI means nothing, WakeLatency stays empty */
	c.poll_states = 1u << 2;
	to_dp(&c, &r, &dp);
	CHECK(dp.tai == 0 && dp.intr_off == 0, "POLL datapoint kept TAI %llu / intr_off %d",
	      (unsigned long long)dp.tai, dp.intr_off);
}

static int write_records(int fd, const struct idlescope_record *recs, size_t n)
{
	if (write(fd, recs, n * sizeof(*recs)) == (ssize_t)(n * sizeof(*recs)))
		return 0;
	perror("write");
	failures++;
	return -1;
}

static void check_discards(const uint64_t *d, uint64_t not_idle, uint64_t other_wake, uint64_t wrong_cpu,
			   uint64_t lost, const char *when)
{
	CHECK(d[DISCARD_NOT_IDLE] == not_idle && d[DISCARD_OTHER_WAKE] == other_wake &&
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
	CHECK(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 10000000, "first datapoint");
	check_discards(discards, 0, 0, 0, 0, "after the first datapoint");
	if (write_records(p[1], later, 3) < 0)
		return;
	collect_stop_requested = 1;
	alarm(10);
	/* stop: the rest of the local buffer, then everything left in the ring */
	CHECK(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 20000000, "datapoint in the local buffer at the stop");
	CHECK(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 30000000, "first datapoint left in the ring");
	CHECK(kmod_next(&c, &dp, discards) == 1 && dp.ltime == 40000000, "last datapoint left in the ring");
	CHECK(kmod_next(&c, &dp, discards) == 0, "end after the drain");
	CHECK(kmod_next(&c, &dp, discards) == 0, "end again");
	alarm(0);
	check_discards(discards, 1, 1, 1, 5, "after the drain");
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
		failures++;
		return;
	}
	c.fd = p[0];
	collect_stop_requested = 1;
	alarm(10);
	CHECK(kmod_next(&c, &dp, discards) == 0, "stop with an empty ring");
	alarm(0);
	check_discards(discards, 0, 0, 0, 0, "empty ring");
	close(p[0]);
	close(p[1]);
	collect_stop_requested = 0;
}

int main(void)
{
	is_set_progname("kmod_records_test");
	test_residencies();
	test_fields();
	test_stream();
	test_stop_empty();
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	printf("kmod_records_test: all checks passed\n");
	return 0;
}
