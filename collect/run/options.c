/* SPDX-License-Identifier: GPL-2.0-only */
/* The collect command line: option table, --help, and parsing of LDist ranges and durations. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "remote.h"
#include "table/numparse.h"
#include "text/textsafe.h"
#include "text/util.h"
#include "remote.h"
#include "table/numparse.h"
#include "text/textsafe.h"
#include "text/util.h"
#include "cli/cli.h"
#include "idlescope/version.h"

enum {
	OPT_METHOD = 0x100, OPT_TIME_LIMIT, OPT_CPU, OPT_REPORTID, OPT_KEEP_RAW, OPT_PM_QOS,
	OPT_FORCE, OPT_SEED, OPT_COUNTERS_INTERVAL, OPT_NO_COUNTERS, OPT_KMOD_PATH, OPT_HELP, OPT_VERSION,
	OPT_PRIORITY, OPT_INCLUDE, OPT_EXCLUDE, OPT_NO_CAUSES,
};

/* help NULL: wult's spellings of the same options (listed once in --help, in words). */
static const struct cli_opt opt_table[] = {
	{ "output", 'o', 'o', "DIR",
	  "Write the run into DIR (created; must be empty unless --force). Default:\n"
	  "<host>-<method>-<YYYYMMDD-HHMMSS> in the current directory." },
	{ "method", 0, OPT_METHOD, "NAME",
	  "auto (default), hrt, tdt, bpf or timer. auto picks hrt (module loaded) > bpf >\n"
	  "timer and prints which it used and why." },
	{ "count", 'c', 'c', "N",
	  "Collect N datapoints (default 10000; with --time-limit alone, no count limit)." },
	{ "time-limit", 0, OPT_TIME_LIMIT, "T",
	  "Stop after T: a number with s, m, h or d (\"30s\", \"10m\", \"1h\"; no unit = s)." },
	{ "cpu", 0, OPT_CPU, "N|LIST", "Measure CPU N (default 0). It must be online. With --method timer, a\n"
	  "list (0,2-3) measures those CPUs at once, one run each in DIR/cpuN (as cyclictest -t -a)." },
	{ "priority", 0, OPT_PRIORITY, "N",
	  "timer: SCHED_FIFO priority of the measuring thread, 1 to 99 (default 99); 0 = SCHED_OTHER." },
	{ "ldist", 'l', 'l', "MIN[,MAX]",
	  "Launch distance range, drawn uniformly per datapoint; one value = fixed. Units\n"
	  "ns, us, ms, s; no unit = us (as wult). Default 1000us,4000us." },
	{ "reportid", 0, OPT_REPORTID, "ID", "Report ID in info.json (default: the output directory's name)." },
	{ "include", 0, OPT_INCLUDE, "EXPR", "Keep only the datapoints where EXPR is true, as 'wult start --include'\n"
	  "(docs/expressions.md; the columns of datapoints.csv, raw times too,\nand index: the row it would get). "
	  "The others are counted as discards,\n\"filtered\" in the summary and info.json." },
	{ "exclude", 0, OPT_EXCLUDE, "EXPR", "Drop the datapoints where EXPR is true (counted the same way)." },
	{ "keep-raw", 0, OPT_KEEP_RAW, NULL,
	  "Also write the raw timestamps LTime, TBI, TAI, TIntr (ns) to datapoints.csv." },
	{ "pm-qos-us", 0, OPT_PM_QOS, "N",
	  "Hold /dev/cpu_dma_latency at N us during the run (needs root). Default: leave\n"
	  "PM QoS alone; what was in force is recorded either way." },
	{ "force", 0, OPT_FORCE, NULL, "Write into a non-empty output directory (the files of a run are\n"
	  "replaced, other files left alone; never one another collector is writing into)." },
	{ "quiet", 'q', 'q', NULL, "No progress line and no method choice message." },
	{ "seed", 0, OPT_SEED, "N", "Seed of the LDist random generator, 0 to 4294967295 (default: random;\nrecorded in info.json)." },
	{ "counters-interval", 0, OPT_COUNTERS_INTERVAL, "SEC",
	  "Counter snapshots into counters.csv every SEC seconds (default 1 where counters\n"
	  "support is built; 0 = off)." },
	{ "no-counters", 0, OPT_NO_COUNTERS, NULL, "No counter snapshots (same as --counters-interval 0)." },
	{ "no-causes", 0, OPT_NO_CAUSES, NULL,
	  "bpf, hrt, tdt: do not count what else ran on the measured CPU during each datapoint\n"
	  "(the IRQCnt, SWIRQCnt ... columns); their extra probes stay unloaded." },
	{ "kmod-path", 0, OPT_KMOD_PATH, "FILE", "hrt/tdt: the module file to load if it is not loaded." },
	{ "help", 'h', OPT_HELP, NULL, "Show this help and exit." },
	{ "version", 'V', OPT_VERSION, NULL, "Print the version and exit." },
	{ "datapoints", 0, 'c', "N", NULL }, { "outdir", 0, 'o', "DIR", NULL },
	{ "keep-raw-data", 0, OPT_KEEP_RAW, NULL, NULL },
};
#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static void print_help(void)
{
	printf("Usage: collect [OPTION]...\n"
	       "       collect --counters [COUNTERS OPTION]... (see collect --counters --help)\n"
	       "       collect -H HOST[,HOST...] [REMOTE OPTION]... [OPTION]... (over SSH, below)\n\n"
	       "Measure how fast one CPU wakes up from idle. Per datapoint a wake-up event is armed\n"
	       "LDist after now (LaunchTime, LTime); the time before idle (TBI), after idle (TAI)\n"
	       "and at interrupt entry (TIntr) are recorded as far as the method can see them:\n"
	       "WakeLatency = TAI - LTime, IntrLatency = TIntr - LTime, SilentTime = LTime - TBI.\n"
	       "The run directory gets info.json (system, method, settings, discards) and\n"
	       "datapoints.csv (one row per datapoint, wult's column names, microseconds).\n\n"
	       "Options:\n");
	cli_print_options(stdout, opt_table, NOPTS);
	printf("\nMethods:\n"
	       "  hrt, tdt  kernel module (kmod/): timestamps taken in the kernel; root.\n"
	       "  bpf       eBPF programs on power:cpu_idle and the timer interrupt; root and BTF.\n"
	       "  timer     unprivileged: a thread pinned to the CPU sleeps with clock_nanosleep\n"
	       "            until LTime; WakeLatency is the user-space wake time minus LTime (as\n"
	       "            cyclictest); IntrLatency is not known; ReqCState from the CPU's\n"
	       "            cpuidle usage counters when exactly one state was entered.\n\n"
	       "wult's spellings work too: --datapoints (-c), --outdir (-o), --keep-raw-data\n"
	       "(--keep-raw), --time-limit 1h25m.\n\n"
	       "Settings and experiments (docs/experiments.md; changing settings needs root):\n"
	       "  --list-settings        Every setting this machine has and can set, its value and\n"
	       "                         the values it accepts; and those it lacks or cannot set\n"
	       "                         here, with the reason.\n"
	       "  --set NAME=VALUE       One run with this setting (repeatable); restored after.\n"
	       "                         VALUE@TARGET: the CPUs of a per-CPU setting: all,\n"
	       "                         measured, siblings, cpus=LIST (2-5,7), package=LIST.\n"
	       "  --matrix NAME=V1,V2    An experiment: every combination of the values, each run\n"
	       "                         --repeat N times (default 3) in --order interleaved\n"
	       "                         (default), random (--order-seed N) or blocked, --settle SEC\n"
	       "                         after each change; -o names the experiment directory.\n"
	       "  --dry-run              Print the plan of --set/--matrix and change nothing.\n"
	       "  --settings-cpus all|measured  Per-CPU settings on every online CPU (default) or\n"
	       "                         the measured one only.\n"
	       "  --restore              Put back settings left by a collector that was killed.\n"
	       "  --sysroot DIR          Settings under DIR (fixture trees), not the machine.\n\n"
	       "Exit status: 0 complete run; 1 run interrupted (SIGINT, SIGTERM, SIGHUP, or SIGPIPE\n"
	       "on a closed output), stopped because nothing was kept (100000 attempts and 10 s\n"
	       "without a datapoint the method could keep: LDist too short for the CPU to go idle,\n"
	       "or the CPU kept busy), or a data/system error (no space left, method failure);\n"
	       "2 bad usage.\n"
	       "Interrupted runs keep every measured datapoint; info.json says \"complete\": false.\n"
	       "See docs/collect.md for what each method measures and which datapoints it discards.\n");
	remote_print_help();
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (!s[0] || s[0] == '-' || s[0] == '+')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A decimal number with a unit from units[] (multipliers in ns); bare numbers use defmul. */
struct unit { const char *name; double mul; };

static int parse_scaled(const char *s, size_t n, const struct unit *units, double defmul, double *ns)
{
	size_t numlen = n;
	double mul = defmul, v;
	for (const struct unit *u = units; u->name; u++) {
		size_t ul = strlen(u->name);
		char before = n > ul ? s[n - ul - 1] : '\0';
		if (n > ul && !strncmp(s + n - ul, u->name, ul) && ((before >= '0' && before <= '9') || before == '.')) {
			numlen = n - ul;
			mul = u->mul;
			break;
		}
	}
	if (!numlen || s[0] == '-' || s[0] == '+' || !isc_parse_double(s, numlen, &v) || v < 0)
		return -1;
	*ns = v * mul;
	return 0;
}

static const struct unit ldist_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 },
};

static int parse_ldist_value(const char *s, size_t n, uint64_t *ns, char *why, size_t whylen)
{
	double v;
	if (parse_scaled(s, n, ldist_units, 1e3, &v) < 0) {
		snprintf(why, whylen, "'%.*s' is not a duration (a number with ns, us, ms or s; no unit = us)",
			 (int)n, s);
		return -1;
	}
	if (v > (double)MAX_LDIST) {
		snprintf(why, whylen, "'%.*s' is above the maximum LDist of 10s", (int)n, s);
		return -1;
	}
	*ns = (uint64_t)(v + 0.5);
	if (*ns == 0) {
		snprintf(why, whylen, "'%.*s' is below 1 ns; LDist must be positive", (int)n, s);
		return -1;
	}
	return 0;
}

int collect_parse_ldist(const char *s, uint64_t *min, uint64_t *max, char *why, size_t whylen)
{
	const char *comma = strchr(s, ',');
	size_t n1 = comma ? (size_t)(comma - s) : strlen(s);
	if (parse_ldist_value(s, n1, min, why, whylen) < 0)
		return -1;
	if (!comma) {
		*max = *min;
		return 0;
	}
	if (strchr(comma + 1, ',')) {
		snprintf(why, whylen, "expected MIN,MAX or one value, got more than two values");
		return -1;
	}
	if (parse_ldist_value(comma + 1, strlen(comma + 1), max, why, whylen) < 0)
		return -1;
	if (*min > *max) {
		snprintf(why, whylen, "inverted range: minimum %llu ns is above maximum %llu ns",
			 (unsigned long long)*min, (unsigned long long)*max);
		return -1;
	}
	return 0;
}

/* "1h25m" as wult writes it: parts that each end in a unit, added up. */
static int parse_compound(const char *s, const struct unit *units, double *v)
{
	size_t n = strlen(s), start = 0;
	double part;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		bool end = i + 1 == n || (strchr("smhd", s[i]) && isdigit((unsigned char)s[i + 1]));
		if (!end)
			continue;
		if (start && !strchr("smhd", s[i]))
			return -1;  /* "1h25": a later part without a unit */
		if (parse_scaled(s + start, i + 1 - start, units, 1e9, &part) < 0)
			return -1;
		*v += part;
		start = i + 1;
	}
	return n ? 0 : -1;
}

int collect_parse_duration(const char *s, uint64_t *ns, char *why, size_t whylen)
{
	static const struct unit units[] = {
		{ "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 }, { NULL, 0 },
	};
	double v;
	if (parse_compound(s, units, &v) < 0 || v < 1e6 || v > 1e18) {
		snprintf(why, whylen, "'%s' is not a duration between 1ms and 30 years "
			 "(a number with s, m, h or d, e.g. 30s, 10m, 1h, 1h25m)", s);
		return -1;
	}
	*ns = (uint64_t)v;
	return 0;
}

static int usage_err(const char *opt, const char *val, const char *why)
{
	char q[96];
	isc_quote_for_msg(val, strlen(val), q, sizeof(q));
	isc_err("%s '%s': %s", opt, q, why);
	return 2;
}

int collect_check_name(const char *opt, const char *arg, bool dir)
{
	char why[96], msg[200];
	size_t n = strlen(arg);
	const char *name = arg;
	char *copy = NULL;
	if (dir) {  /* the directory's own name: what follows the last '/' */
		while (n > 1 && arg[n - 1] == '/')
			n--;
		copy = isc_xstrndup(arg, n);
		name = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
	}
	int rc = 0;
	if (isc_name_problem(name, why, sizeof(why))) {
		snprintf(msg, sizeof(msg), "%s in the run's %s; it must be valid UTF-8 without control "
			 "characters", why, dir ? "directory name" : "report ID");
		rc = usage_err(opt, arg, msg);
	}
	free(copy);
	return rc;
}

static int apply_option(struct collect_opts *o, int c, const char *arg, bool *count_set)
{
	char why[256];
	uint64_t v;
	switch (c) {
	case 'o':
		if (!arg[0])
			return usage_err("-o", arg, "empty path");
		if (collect_check_name("-o", arg, true))
			return 2;
		o->outdir = arg;
		return 0;
	case OPT_METHOD:
		o->method = arg;
		return 0;
	case OPT_INCLUDE:
		o->include = arg;
		return 0;
	case OPT_EXCLUDE:
		o->exclude = arg;
		return 0;
	case 'c':
		if (parse_u64(arg, UINT64_MAX, &v) < 0 || v == 0)
			return usage_err("-c", arg, "expected a positive whole number of datapoints");
		o->count = v;
		*count_set = true;
		return 0;
	case OPT_TIME_LIMIT:
		if (collect_parse_duration(arg, &o->time_limit_ns, why, sizeof(why)) < 0)
			return usage_err("--time-limit", arg, why);
		return 0;
	case OPT_CPU:
		if (strpbrk(arg, ",-") && collect_parse_cpu_list(arg, NULL, 0) > 0) {
			o->cpu_list = arg;  /* several CPUs: collect/run/multi_cpu.c */
			return 0;
		}
		if (parse_u64(arg, INT_MAX, &v) < 0)
			return usage_err("--cpu", arg, "expected a CPU number (0, 1, ...) or a list (0,2-3)");
		o->cpu = (int)v;
		o->cpu_list = NULL;
		return 0;
	case OPT_PRIORITY:
		if (parse_u64(arg, 99, &v) < 0)
			return usage_err("--priority", arg, "expected 1 to 99 (SCHED_FIFO), or 0 (SCHED_OTHER)");
		o->priority = (int)v;
		return 0;
	case 'l':
		if (collect_parse_ldist(arg, &o->ldist_min, &o->ldist_max, why, sizeof(why)) < 0)
			return usage_err("-l", arg, why);
		o->ldist_arg = arg;
		return 0;
	case OPT_REPORTID:
		if (!arg[0] || strpbrk(arg, "/\"\\"))
			return usage_err("--reportid", arg, "must be non-empty without '/', quotes, backslashes or control characters");
		if (collect_check_name("--reportid", arg, false))
			return 2;
		o->reportid = arg;
		return 0;
	case OPT_KEEP_RAW:
		o->keep_raw = true;
		return 0;
	case OPT_PM_QOS:
		if (parse_u64(arg, INT32_MAX, &v) < 0)
			return usage_err("--pm-qos-us", arg, "expected microseconds, 0 to 2147483647");
		o->pm_qos_us = (long)v;
		return 0;
	case OPT_FORCE:
		o->force = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_SEED:
		/* GSL's MT19937 uses 32 bits of the seed */
		if (parse_u64(arg, UINT32_MAX, &o->seed) < 0)
			return usage_err("--seed", arg, "expected a whole number from 0 to 4294967295");
		o->seed_set = true;
		return 0;
	case OPT_COUNTERS_INTERVAL: {
		double d;
		if (!isc_parse_double(arg, strlen(arg), &d) || d < 0 || (d > 0 && d < 0.01) || d > 86400)
			return usage_err("--counters-interval", arg, "expected seconds: 0 (off) or 0.01 to 86400");
		o->counters_interval = d;
		o->counters_interval_set = true;
		return 0;
	}
	case OPT_NO_COUNTERS:
		o->counters_interval = 0;
		o->counters_interval_set = true;
		return 0;
	case OPT_NO_CAUSES:
		o->no_causes = true;
		return 0;
	case OPT_KMOD_PATH:
		o->kmod_path = arg;
		return 0;
	case OPT_HELP:
		print_help();
		return 1;
	case OPT_VERSION:
		printf("collect (idlescope) %s\n", IDLESCOPE_VERSION);
		return 1;
	}
	isc_err("try 'collect --help'");
	return 2;
}

int collect_parse_cpu_list(const char *s, int *cpus, int max)
{
	int n = 0;
	for (const char *p = s; *p;) {
		char *end;
		if (*p < '0' || *p > '9')
			return -1;
		long lo = strtol(p, &end, 10), hi = lo;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			hi = strtol(end + 1, &end, 10);
		}
		if (lo > hi || hi > 4095 || (*end && *end != ','))
			return -1;
		for (long c = lo; c <= hi; c++) {
			for (int i = 0; cpus && i < n && i < max; i++)
				if (cpus[i] == c)
					return -1;  /* a CPU twice */
			if (cpus && n < max)
				cpus[n] = (int)c;
			n++;
		}
		p = *end ? end + 1 : end;
		if (*end == ',' && !*p)
			return -1;
	}
	return n;
}

int collect_parse_options(int argc, char **argv, struct collect_opts *o)
{
	struct option lo[NOPTS + 1];
	char shorts[2 * NOPTS + 3];
	bool count_set = false;
	int c, rc;

	*o = (struct collect_opts){ .method = "auto", .priority = -1, .ldist_min = DEFAULT_LDIST_MIN,
				    .ldist_max = DEFAULT_LDIST_MAX, .pm_qos_us = -1,
				    .counters_interval = 1.0 };
	if (cli_build(opt_table, NOPTS, lo, shorts, sizeof(shorts)) < 0 ||
	    cli_refuse_abbreviations(argc, argv, shorts, lo, "", "collect") < 0)
		return 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == '?' || c == ':') {
			char q[64];
			const char *bad = argv[optind - 1];
			isc_quote_for_msg(bad, strlen(bad), q, sizeof(q));
			if (c == ':')
				isc_err("option '%s' needs an argument; try 'collect --help'", q);
			else if (optopt > 0 && optopt < 128)
				isc_err("unknown option '-%c'; try 'collect --help'", optopt);
			else
				isc_err("unknown option '%s'; try 'collect --help'", q);
			return 2;
		}
		if (optarg && optarg == argv[optind - 1] && optarg[0] == '-' && optarg[1] && !isdigit((unsigned char)optarg[1])) {
			/* "--report -q": getopt took the next option as --reportid's value */
			char q[64], opt[64];
			isc_quote_for_msg(optarg, strlen(optarg), q, sizeof(q));
			isc_quote_for_msg(argv[optind - 2], strlen(argv[optind - 2]), opt, sizeof(opt));
			isc_err("option '%s' needs a value, got the option '%s' (write %s%s%s if it is meant);"
			       " try 'collect --help'", opt, q, opt, opt[1] == '-' ? "=" : "", q);
			return 2;
		}
		for (size_t i = 0; i < NOPTS; i++)   /* -h and -V: short letter != option value */
			if (opt_table[i].short_opt == c)
				c = opt_table[i].val;
		rc = apply_option(o, c, optarg, &count_set);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		isc_err("unexpected argument '%s'; try 'collect --help'", argv[optind]);
		return 2;
	}
	if (!count_set)
		o->count = o->time_limit_ns ? 0 : DEFAULT_COUNT;
	return 0;
}
