/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the collector core: LDist and duration parsing, exact row formatting. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "collect.h"
#include "timer_classify.h"
#include "time/clock.h"
#include "../common/check.h"

volatile sig_atomic_t collect_stop_requested;

static void ldist_ok(const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t a = 0, b = 0;
	char why[256] = "";
	int r = collect_parse_ldist(s, &a, &b, why, sizeof(why));
	CHECK_MSG(r == 0 && a == lo && b == hi, "-l %s: got %d %" PRIu64 ",%" PRIu64 " (%s), want %" PRIu64 ",%" PRIu64,
	      s, r, a, b, why, lo, hi);
}

static void ldist_bad(const char *s, const char *want_why)
{
	uint64_t a, b;
	char why[256] = "";
	int r = collect_parse_ldist(s, &a, &b, why, sizeof(why));
	CHECK_MSG(r < 0 && !strcmp(why, want_why), "-l %s: got %d '%s', want '%s'", s, r, why, want_why);
}

static void duration_ok(const char *s, uint64_t want)
{
	uint64_t ns = 0;
	char why[256] = "";
	int r = collect_parse_duration(s, &ns, why, sizeof(why));
	CHECK_MSG(r == 0 && ns == want, "--time-limit %s: got %d %" PRIu64 " (%s), want %" PRIu64, s, r, ns, why, want);
}

static void row_is(const struct dp_raw *dp, const struct dp_columns *c, const char *want)
{
	char buf[512];
	size_t n = dp_format_row(buf, sizeof(buf), dp, c);
	CHECK_MSG(n == strlen(want) && !strcmp(buf, want), "row: got '%.*s', want '%s'", (int)n, buf, want);
}

/* A run that keeps nothing: NK_ATTEMPTS discards and NK_SECONDS since the last kept one. */
static void nothing_kept_units(void)
{
	const uint64_t s = NSEC_PER_SEC;
	uint64_t d[DISCARD_NR] = { 5, 1, 0, 0 };
	struct nothing_kept w;
	char msg[512];

	nothing_kept_reset(&w, d, 100 * s);
	d[DISCARD_NOT_IDLE] += NK_ATTEMPTS - 1;
	CHECK_MSG(!nothing_kept_check(&w, d, 200 * s), "99999 discards in 100 s: not tripped");
	d[DISCARD_OTHER_WAKE] += 1;
	CHECK_MSG(!nothing_kept_check(&w, d, 110 * s - 1), "100000 discards in 10 s - 1 ns: not tripped");
	CHECK_MSG(nothing_kept_check(&w, d, 110 * s), "100000 discards in 10 s: tripped");
	CHECK_MSG(nothing_kept_check(&w, d, 110 * s), "stays tripped");
	nothing_kept_message(&w, d, 112 * s + 340000000ull, msg, sizeof(msg));
	CHECK_MSG(!strcmp(msg, "no datapoint kept in 12.3 s: all 100000 attempts were discarded (not_idle 99999, "
		      "other_wake 1, wrong_cpu 0, lost 0); the CPU does not go idle before LaunchTime: give a "
		      "longer LDist (-l) or a CPU that nothing else keeps busy"), "message: %s", msg);
	/* a kept datapoint starts the count again */
	nothing_kept_reset(&w, d, 120 * s);
	d[DISCARD_LOST] += NK_ATTEMPTS - 1;
	CHECK_MSG(!nothing_kept_check(&w, d, 500 * s), "reset: 99999 more discards: not tripped");
	d[DISCARD_WRONG_CPU] += 1;
	CHECK_MSG(nothing_kept_check(&w, d, 500 * s), "reset: 100000 more discards: tripped");
}

/* The timer method's verdicts: POLL re-entries are not other wake-ups. */
static void classify_checks(void)
{
	/* states: 0 POLL, 1 C1, 2 C6 */
	const uint64_t b[3] = { 100, 200, 300 };
	struct { uint64_t a[3]; int poll, want, state; const char *what; } cases[] = {
		{ { 100, 200, 300 }, 0, DISCARD_NOT_IDLE, -1, "no entry" },
		{ { 100, 201, 300 }, 0, -1, 1, "one C1 entry" },
		{ { 101, 200, 300 }, 0, -1, 0, "one POLL entry" },
		{ { 140, 200, 300 }, 0, -1, 0, "POLL only, left at its limit 40 times (only POLL enabled)" },
		{ { 101, 200, 301 }, 0, -1, 2, "POLL, then C6: the governor went deeper, nothing woke it" },
		{ { 103, 201, 300 }, 0, -1, 1, "POLL three times, then C1" },
		{ { 100, 202, 300 }, 0, DISCARD_OTHER_WAKE, -1, "C1 twice: woken before the event" },
		{ { 100, 201, 301 }, 0, DISCARD_OTHER_WAKE, -1, "C1 and C6" },
		{ { 101, 200, 300 }, -1, -1, 0, "no POLL state: state 0 is a real one" },
		{ { 102, 200, 300 }, -1, DISCARD_OTHER_WAKE, -1, "no POLL state: two entries are a wake" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = 99, got = timer_classify(3, cases[i].poll, b, cases[i].a, &st);
		CHECK_MSG(got == cases[i].want && st == cases[i].state, "classify %s: got %d state %d, want %d state %d",
		      cases[i].what, got, st, cases[i].want, cases[i].state);
	}
}

/* argv from a string of space-separated words (no quoting). */
static int parse_words(const char *words, struct collect_opts *o)
{
	char buf[512], *argv[32];
	int argc = 0;
	snprintf(buf, sizeof(buf), "collect %s", words);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	optind = 1;
	return collect_parse_options(argc, argv, o);
}

/* wult's option spellings, --version, and an option never taken as another's value. */
static void options_checks(void)
{
	struct collect_opts o;
	int rc = parse_words("--datapoints 7 --outdir out1 --keep-raw-data --time-limit 1h25m", &o);
	CHECK_MSG(rc == 0 && o.count == 7 && o.outdir && !strcmp(o.outdir, "out1") && o.keep_raw &&
	      o.time_limit_ns == 5100 * NSEC_PER_SEC, "wult aliases: rc %d count %" PRIu64, rc, o.count);
	CHECK_MSG(parse_words("--version", &o) == 1, "--version must end with exit 0");
	CHECK_MSG(parse_words("--report -q -c 5", &o) == 2, "--report -q must be a usage error");
	CHECK_MSG(parse_words("--reportid -q", &o) == 2, "--reportid -q must be a usage error");
	CHECK_MSG(parse_words("-o --force", &o) == 2, "-o --force must be a usage error");
	int cpus[8];
	CHECK_MSG(collect_parse_cpu_list("0,2-3", cpus, 8) == 3 && cpus[0] == 0 && cpus[1] == 2 && cpus[2] == 3,
	      "cpu list 0,2-3");
	CHECK_MSG(collect_parse_cpu_list("5", cpus, 8) == 1 && cpus[0] == 5, "cpu list 5");
	CHECK_MSG(collect_parse_cpu_list("1,1", cpus, 8) == -1, "a CPU twice");
	CHECK_MSG(collect_parse_cpu_list("0-2,1", cpus, 8) == -1, "a CPU twice in a range");
	CHECK_MSG(collect_parse_cpu_list("3-1", cpus, 8) == -1, "an inverted range");
	CHECK_MSG(collect_parse_cpu_list("0,", cpus, 8) == -1 && collect_parse_cpu_list("a", cpus, 8) == -1 &&
	      collect_parse_cpu_list("0-", cpus, 8) == -1 && collect_parse_cpu_list("-1", cpus, 8) == -1,
	      "malformed lists");
	rc = parse_words("--method timer --cpu 0,2-3 --priority 7 -o d", &o);
	CHECK_MSG(rc == 0 && o.cpu_list && !strcmp(o.cpu_list, "0,2-3") && o.priority == 7, "--cpu LIST: rc %d", rc);
	rc = parse_words("--cpu 0,2 --cpu 1", &o);
	CHECK_MSG(rc == 0 && !o.cpu_list && o.cpu == 1, "a later --cpu N wins over a list");
	CHECK_MSG(parse_words("--priority 100", &o) == 2 && parse_words("--cpu 1,x", &o) == 2, "bad --priority/--cpu");
	CHECK_MSG(parse_words("-c 1", &o) == 0 && o.priority == -1, "default priority");
	rc = parse_words("--reportid=x1 -o ./d -c 3", &o);
	CHECK_MSG(rc == 0 && !strcmp(o.reportid, "x1") && o.count == 3, "--reportid=x1: rc %d", rc);
}

int main(void)
{
	nothing_kept_units();
	ldist_ok("1000,4000", 1000000, 4000000);   /* no unit = us */
	ldist_ok("50us,2ms", 50000, 2000000);
	ldist_ok("3ms", 3000000, 3000000);
	ldist_ok("1.5us,2500ns", 1500, 2500);
	ldist_ok("0.001s,10s", 1000000, 10000000000ull);
	ldist_ok("1ns", 1, 1);
	ldist_bad("2ms,1ms", "inverted range: minimum 2000000 ns is above maximum 1000000 ns");
	ldist_bad("", "'' is not a duration (a number with ns, us, ms or s; no unit = us)");
	ldist_bad("1,", "'' is not a duration (a number with ns, us, ms or s; no unit = us)");
	ldist_bad("us", "'us' is not a duration (a number with ns, us, ms or s; no unit = us)");
	ldist_bad("5 us", "'5 us' is not a duration (a number with ns, us, ms or s; no unit = us)");
	ldist_bad("1e400", "'1e400' is not a duration (a number with ns, us, ms or s; no unit = us)");
	ldist_bad("0.0001ns", "'0.0001ns' is below 1 ns; LDist must be positive");
	ldist_bad("10.5s", "'10.5s' is above the maximum LDist of 10s");

	duration_ok("30s", 30 * NSEC_PER_SEC);
	duration_ok("10m", 600 * NSEC_PER_SEC);
	duration_ok("1h", 3600 * NSEC_PER_SEC);
	duration_ok("90", 90 * NSEC_PER_SEC);
	duration_ok("0.5s", NSEC_PER_SEC / 2);
	duration_ok("2d", 2 * 86400 * NSEC_PER_SEC);
	duration_ok("1h25m", 5100 * NSEC_PER_SEC);          /* wult's spelling */
	duration_ok("1d2h3m4.5s", (93784 * NSEC_PER_SEC) + NSEC_PER_SEC / 2);
	{
		uint64_t ns;
		char why[256] = "";
		CHECK_MSG(collect_parse_duration("1h25", &ns, why, sizeof(why)) < 0 &&
		      strstr(why, "'1h25' is not a duration"), "1h25 must be refused: '%s'", why);
		CHECK_MSG(collect_parse_duration("1hm", &ns, why, sizeof(why)) < 0, "1hm must be refused");
	}
	{
		/* how the summary (tenths) and the progress line (whole seconds) print durations */
		char b[32];
		isc_fmt_duration(b, sizeof(b), 7.26, 1);
		CHECK_STR(b, "7.3s");
		isc_fmt_duration(b, sizeof(b), 7.26, 0);
		CHECK_STR(b, "7s");
		isc_fmt_duration(b, sizeof(b), 59.6, 0);
		CHECK_STR(b, "1m00s");
		isc_fmt_duration(b, sizeof(b), 245, 1);
		CHECK_STR(b, "4m05s");
		isc_fmt_duration(b, sizeof(b), 3723.4, 0);
		CHECK_STR(b, "1h02m03s");
	}
	options_checks();
	classify_checks();

	const char *names[] = { "POLL", "C1", "C6" };
	struct dp_columns c = { .state_names = names, .nstates = 3 };
	struct dp_raw dp = { .ldist = 1757788, .ltime = 10001757788ull, .tbi = 10000000000ull, .tai = 10001761968ull,
			     .tintr = 10001765692ull, .req_state = 2, .intr_off = 1, .smi_cnt = -1, .nmi_cnt = -1 };
	row_is(&dp, &c, "1757.788,1757.788,4.180,7.904,1,C6\n");
	c.keep_raw = true;
	row_is(&dp, &c, "1757.788,1757.788,4.180,7.904,1,C6,10001757788,10000000000,10001761968,10001765692\n");
	/* unknown values are empty cells; a TAI before LTime prints a negative difference exactly */
	dp = (struct dp_raw){ .ldist = 999, .ltime = 5000, .tbi = 0, .tai = 4001, .req_state = -1, .intr_off = -1,
			      .smi_cnt = 0, .nmi_cnt = 3 };
	c = (struct dp_columns){ .state_names = names, .nstates = 3, .smi = true, .nmi = true };
	row_is(&dp, &c, "0.999,,-0.999,,,,0,3\n");
	dp.req_state = 3;   /* out of the known states: empty, never a crash */
	dp.smi_cnt = -1;
	row_is(&dp, &c, "0.999,,-0.999,,,,,3\n");
	dp = (struct dp_raw){ .ldist = 1000, .ltime = 1, .tbi = 0, .req_state = 0, .intr_off = 0, .nres = 2,
			      .res = { { "CC6%", 92.625 }, { "PC6%", 0 } } };
	c = (struct dp_columns){ .state_names = names, .nstates = 3, .nres = 2 };
	row_is(&dp, &c, "1.000,,,,0,POLL,92.62,0.00\n");
	char small[8];
	CHECK_MSG(dp_format_row(small, sizeof(small), &dp, &c) == 0, "a row that does not fit must give 0");

	/* cause columns (bpf): after the residencies, before SMICnt/NMICnt; exact us; a row
	 * without counts under a header with them gets empty cells */
	char hdr[128];
	dp = (struct dp_raw){ .ldist = 1000, .ltime = 1, .tbi = 0, .req_state = 0, .intr_off = 0, .nmi_cnt = 2,
			      .smi_cnt = -1, .causes = { .known = true, .irq_cnt = 3, .irq_ns = 4567,
			      .irq_top = "CAL", .sirq_cnt = 1, .sirq_ns = 1000001, .sirq_types = "NET_RX+RCU" } };
	c = (struct dp_columns){ .state_names = names, .nstates = 3, .causes = true, .nmi = true };
	row_is(&dp, &c, "1.000,,,,0,POLL,3,4.567,CAL,1,1000.001,NET_RX+RCU,2\n");
	CHECK_MSG(dp_causes_header(hdr, sizeof(hdr), &c) > 0 &&
		  !strcmp(hdr, ",IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes"), "cause header '%s'", hdr);
	dp.causes.known = false;
	dp.nmi_cnt = -1;
	row_is(&dp, &c, "1.000,,,,0,POLL,,,,,,,\n");

	/* the seed reproduces the LDist sequence; every draw is within the range; both ends occur */
	uint64_t seq[2000];
	collect_ldist_init(10, 20, 12345);
	bool lo_seen = false, hi_seen = false, in_range = true;
	for (int i = 0; i < 2000; i++) {
		seq[i] = collect_next_ldist();
		in_range &= seq[i] >= 10 && seq[i] <= 20;
		lo_seen |= seq[i] == 10;
		hi_seen |= seq[i] == 20;
	}
	CHECK_MSG(in_range && lo_seen && hi_seen, "LDist draws must cover [10,20] and stay inside");
	collect_ldist_init(10, 20, 12345);
	int same = 0;
	for (int i = 0; i < 2000; i++)
		same += collect_next_ldist() == seq[i];
	CHECK_MSG(same == 2000, "same seed: %d of 2000 draws equal", same);
	collect_ldist_init(10, 20, 54321);
	same = 0;
	for (int i = 0; i < 2000; i++)
		same += collect_next_ldist() == seq[i];
	CHECK_MSG(same < 400, "different seed: %d of 2000 draws equal (chance level is ~182)", same);
	collect_ldist_init(7, 7, 1);
	CHECK_MSG(collect_next_ldist() == 7, "fixed LDist");
	collect_ldist_init(0, 6000000000ull, 3);   /* wider than the 32-bit generator */
	uint64_t mx = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = collect_next_ldist();
		mx = v > mx ? v : mx;
	}
	CHECK_MSG(mx > 4300000000ull && mx <= 6000000000ull, "wide range: max draw %" PRIu64, mx);
	collect_ldist_free();

	if (check_failures)
		fprintf(stderr, "%d failures\n", check_failures);
	else
		printf("collect units: all passed\n");
	return check_failures != 0;
}
