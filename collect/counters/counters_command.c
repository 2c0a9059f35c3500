/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect --counters: counter snapshots without a latency measurement, every -i SEC
 * (interval mode) or around a command (one-shot mode, which exits with its status).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "counters_collect.h"
#include "counters_live.h"
#include "counters_hook.h"
#include "run/run.h"
#include "run/sysinfo.h"
#include "text/util.h"
#include "cli/cli.h"
#include "idlescope/version.h"

#define MAX_ADDS 64

struct cmain_opts {
	struct cnt_opts cnt;
	const char *adds[MAX_ADDS];
	const char *outdir;
	double interval;     /* seconds; 0 = none given */
	long count;          /* intervals; 0 = until stopped */
	bool force;
	char **command;      /* after "--", NULL-terminated; NULL = interval mode */
	int live;            /* --live 1, --no-live 0, -1: when stdout is a terminal */
	struct live_opts lo; /* --cpus-live, --show, --hide */
};

enum { OPT_CPU = 256, OPT_SYSTEM_CPU, OPT_ADD, OPT_SYSROOT, OPT_FORCE, OPT_COUNTERS, OPT_LIVE,
       OPT_NO_LIVE, OPT_CPUS_LIVE, OPT_SHOW, OPT_HIDE };

static const char counters_help[] =
"usage: collect --counters -o DIR [-i SEC] [-n N] [OPTION]...\n"
"       collect --counters -o DIR [-i SEC] [OPTION]... -- COMMAND [ARG]...\n\n"
"Take snapshots of hardware and OS counters on every CPU, as turbostat reads them, into\n"
"DIR/counters.csv (raw values, one row per CPU per snapshot) and describe them in\n"
"DIR/info.json. 'analyze counters DIR' turns them into Busy%, Bzy_MHz, CPU%c6, PkgWatt...\n\n"
"Interval mode (no COMMAND): a snapshot now and every SEC seconds, N intervals or until\n"
"SIGINT/SIGTERM/SIGHUP/SIGPIPE (a closed output). One-shot mode: a snapshot, run COMMAND,\n"
"a snapshot when it ends (and every SEC seconds while it runs, with -i); SIGTERM and SIGHUP\n"
"are passed on to COMMAND, a closed output ends neither it nor collect; collect exits with\n"
"COMMAND's exit status (128+signal if it was killed, 127 if it could not be run).\n\n"
"Sources, in order of preference: perf_event_open (PMUs msr, cstate_core, cstate_pkg, power,\n"
"hardware), /dev/cpu/N/msr, cpuidle sysfs, /proc/interrupts, /proc/stat. A counter no source\n"
"provides is left out of counters.csv, and reported once with the reason; one that some\n"
"of the CPUs that should read it cannot read is reported once with those CPUs and why.\n\n"
"Scopes (of --add and the built-in counters):\n"
"  thread   read on every CPU\n"
"  core     read on the first CPU read of each core\n"
"  package  a counter of the package (RAPL energy, package C-states): read on each package's\n"
"           designated CPU, whose row shows it; analyze's summary row sums counts and energy\n"
"           over the packages and averages percentages, and a CPU's --metric sees the value\n"
"           of its own package\n"
"  system   an event of the whole machine that the hardware counts per package (uncore:\n"
"           memory controller, interconnect): read on each package's designated CPU too,\n"
"           whose row shows that package's count; the summary row, and every CPU's --metric,\n"
"           use the machine's total, the sum over the packages. A source that is the same on\n"
"           every CPU (/proc/stat ctxt, a path without %d) is read once, on the lowest\n"
"           package's designated CPU\n\n"
"options:\n";

/* help NULL: not listed on a line of their own (--counters selects this mode; --no-live,
 * --show and --hide are named in other lines) */
static const struct cli_opt counters_opts[] = {
	{ "counters", 0, OPT_COUNTERS, NULL, NULL },
	{ "output", 'o', 'o', "DIR", "run directory (created; must be empty unless --force)" },
	{ "interval", 'i', 'i', "SEC", "seconds between snapshots, 0.01 to 86400 (interval mode: 1)" },
	{ "num-iterations", 'n', 'n', "N", "stop after N intervals (N+1 snapshots)" },
	{ "cpu", 0, OPT_CPU, "LIST", "read only these CPUs (e.g. 0-3,8; default: every online CPU)" },
	{ "system-cpu", 0, OPT_SYSTEM_CPU, "LIST",
	  "the designated CPU of each package (one per package; default: the first CPU read\n"
	  "there): it reads the package- and system-scope counters (see Scopes)" },
	{ "add", 0, OPT_ADD, "SPEC",
	  "an extra counter, as turbostat's --add:" CLI_BR
	  "{msr0xNNN|msrNNN|/path},{u32|u64},{thread|core|package|system}," CLI_BR
	  "{raw|delta|percent},NAME (\"%d\" in a path is the CPU number)" },
	{ "sysroot", 0, OPT_SYSROOT, "DIR",
	  "read /dev, /proc and /sys under DIR (MSR writes go there too); perf and rdtsc are\n"
	  "off and the TSC comes from MSR 0x10. A regular file dev/cpu/N/msr holds MSR a at\n"
	  "byte offset 8*a (little endian)" },
	{ "force", 0, OPT_FORCE, NULL, "write into a non-empty DIR" },
	{ "live", 0, OPT_LIVE, NULL,
	  "print each interval's summary row as it is measured, with analyze counters'\n"
	  "formulas and column names (default when stdout is a terminal; --no-live: never)" },
	{ "no-live", 0, OPT_NO_LIVE, NULL, NULL },
	{ "cpus-live", 0, OPT_CPUS_LIVE, NULL, "with --live, a row per CPU too" },
	{ "show", 0, OPT_SHOW, "COLS", NULL },
	{ "hide", 0, OPT_HIDE, "COLS", NULL },
	{ NULL, 0, 0, NULL, "      --show COLS, --hide COLS  the live columns, as analyze counters' options\n" },
	{ "quiet", 'q', 'q', NULL, "do not list the counters that are unavailable" },
	{ "help", 'h', 'h', NULL, "this text" },
};
#define NOPTS (sizeof(counters_opts) / sizeof(counters_opts[0]))

static const char counters_help_tail[] =
"\n"
"Exit status: 0 (interval mode), COMMAND's status (one-shot mode), 1 on errors, 2 on usage\n"
"errors. See docs/counters.md for counters.csv and the formulas.\n";

static int parse_interval(const char *arg, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || *end || end == arg || !(v >= 0.01 && v <= 86400)) {
		isc_err("-i '%s': expected seconds from 0.01 to 86400", arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct cmain_opts *o)
{
	struct option long_opts[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c;
	optind = 1;
	opterr = 0;
	if (cli_build(counters_opts, NOPTS, long_opts, shorts, sizeof(shorts)) < 0)
		return 2;
	/* '+': options end at the first operand (the COMMAND of one-shot mode, whose own options
	 * follow); and no ':' (a missing argument is '?' as any other mistake) */
	shorts[0] = '+';
	if (cli_refuse_abbreviations(argc, argv, shorts, long_opts, "", "collect --counters") < 0)
		return 2;
	while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case OPT_COUNTERS:
			break;
		case 'i':
			if (parse_interval(optarg, &o->interval))
				return 2;
			break;
		case 'n':
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->count < 1) {
				isc_err("-n '%s': expected a positive number of intervals", optarg);
				return 2;
			}
			break;
		case 'o':
			if (collect_check_name("-o", optarg, true))
				return 2;
			o->outdir = optarg;
			break;
		case OPT_CPU: o->cnt.cpu_list = optarg; break;
		case OPT_SYSTEM_CPU: o->cnt.system_cpus = optarg; break;
		case OPT_SYSROOT: o->cnt.sysroot = optarg; break;
		case OPT_FORCE: o->force = true; break;
		case OPT_LIVE: o->live = 1; break;
		case OPT_NO_LIVE: o->live = 0; break;
		case OPT_CPUS_LIVE: o->lo.per_cpu = true; o->live = 1; break;
		case OPT_SHOW: o->lo.show = optarg; break;
		case OPT_HIDE: o->lo.hide = optarg; break;
		case 'q': o->cnt.quiet = true; break;
		case OPT_ADD:
			if (o->cnt.nadds == MAX_ADDS) {
				isc_err("--add: at most %d extra counters", MAX_ADDS);
				return 2;
			}
			o->adds[o->cnt.nadds++] = optarg;
			break;
		case 'h':
			cli_print_help(stdout, counters_help, counters_opts, NOPTS, counters_help_tail);
			return -1;
		default:
			if (optopt && optopt < 256)
				isc_err("-%c: unknown option or missing argument (see collect --counters --help)", optopt);
			else
				isc_err("%s: unknown option or missing argument (see collect --counters --help)",
				       argv[optind - 1]);
			return 2;
		}
	}
	o->cnt.adds = o->adds;
	if (optind < argc)
		o->command = argv + optind;
	if (!o->outdir) {
		isc_err("--counters needs -o DIR");
		return 2;
	}
	if (o->count && o->command) {
		isc_err("-n is for interval mode; a command decides how long one-shot mode runs");
		return 2;
	}
	if (!o->command && !o->interval)
		o->interval = 1;
	if (o->live < 0)
		o->live = !o->command && isatty(STDOUT_FILENO);
	if ((o->lo.show || o->lo.hide) && !o->live) {
		isc_err("--show/--hide choose the --live columns; add --live (or see analyze counters)");
		return 2;
	}
	return 0;
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

static volatile pid_t child_pid;

/* One-shot mode: SIGTERM and SIGHUP go on to the command; collect takes its last snapshot
 * after it. */
static void forward_term(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void set_signal(int sig, void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* SIGHUP (terminal or SSH session gone) and SIGPIPE (a closed output) end the run as SIGTERM
 * does: the last snapshot taken, info.json finished. */
static void set_signals(void (*handler)(int))
{
	set_signal(SIGINT, handler);
	set_signal(SIGTERM, handler);
	set_signal(SIGHUP, handler);
	set_signal(SIGPIPE, handler);
}

static struct timespec ts_add(struct timespec t, double s)
{
	long long ns = (long long)(s * 1e9 + 0.5);
	const long long sec = (long long)NSEC_PER_SEC;
	t.tv_sec += ns / sec;
	t.tv_nsec += ns % sec;
	if (t.tv_nsec >= sec) {
		t.tv_sec++;
		t.tv_nsec -= sec;
	}
	return t;
}

struct cmain {
	struct cmain_opts o;
	struct cnt_set *set;
	struct run_dir rd;
	FILE *csv;
	cJSON *info;
	long nsnap_live;     /* snapshots taken, for the live rows */
};

static int snap(struct cmain *m)
{
	if (counters_csv_snapshot(m->csv, m->set, m->rd.path))
		return -1;
	if (m->o.live > 0 && m->nsnap_live++ > 0 &&
	    counters_live_print(stdout, m->rd.path, &m->o.lo, m->nsnap_live - 2) < 0)
		m->o.live = 0;  /* said why; the CSV goes on */
	return 0;
}

/* Interval mode: returns 0 after N intervals or a stop signal, -1 on a write error. */
static int run_intervals(struct cmain *m)
{
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !stop_signal && (!m->o.count || i < m->o.count); i++) {
		next = ts_add(next, m->o.interval);
		while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		if (snap(m))
			return -1;
		if (stop_signal)
			break;
	}
	return 0;
}

/* Wait for the child; with an interval, snapshot every interval meanwhile. */
static int wait_command(struct cmain *m, pid_t pid, int *status)
{
	int pfd = m->o.interval > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
	if (m->o.interval > 0 && pfd < 0)
		isc_warn("pidfd_open: %s: no snapshots while the command runs", strerror(errno));
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (pfd >= 0) {
		next = ts_add(next, m->o.interval);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = (double)(next.tv_sec - now.tv_sec) + (double)(next.tv_nsec - now.tv_nsec) / 1e9;
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		int r = poll(&p, 1, left > 0 ? (int)(left * 1000 + 0.999) : 0);
		if (r > 0)
			break;
		if (r == 0 && snap(m)) {
			close(pfd);
			return -1;
		}
	}
	if (pfd >= 0)
		close(pfd);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			isc_err("waitpid: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int run_command(struct cmain *m, int *exit_status)
{
	/* Like time(1): the terminal's SIGINT reaches the command too; collect outlives it and
	 * takes the last snapshot. SIGTERM and SIGHUP are passed on to the command. */
	set_signal(SIGINT, SIG_IGN);
	set_signal(SIGQUIT, SIG_IGN);
	set_signal(SIGTERM, forward_term);
	set_signal(SIGHUP, forward_term);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		isc_err("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execvp(m->o.command[0], m->o.command);
		isc_err("cannot run '%s': %s", m->o.command[0], strerror(errno));
		_exit(127);
	}
	child_pid = pid;
	if (stop_signal)
		kill(pid, stop_signal);   /* a SIGTERM that came before child_pid was set */
	int status = 0;
	if (wait_command(m, pid, &status))
		return -1;
	*exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (snap(m))
		return -1;
	return 0;
}

static cJSON *string_array(char **v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; n < 0 ? v[i] != NULL : i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static void build_info(struct cmain *m, int argc, char **argv)
{
	char ts[64];
	cJSON *info = m->info = cJSON_CreateObject();
	cJSON_AddStringToObject(info, "toolname", "idlescope");
	cJSON_AddStringToObject(info, "toolver", IDLESCOPE_VERSION);
	cJSON_AddStringToObject(info, "format_version", ISC_FORMAT_VERSION);
	const char *base = strrchr(m->rd.path, '/');
	cJSON_AddStringToObject(info, "reportid", base ? base + 1 : m->rd.path);
	cJSON_AddStringToObject(info, "mode", m->o.command ? "counters-command" : "counters-interval");
	if (m->o.interval > 0)
		cJSON_AddNumberToObject(info, "interval_s", m->o.interval);
	else
		cJSON_AddNullToObject(info, "interval_s");
	if (m->o.count)
		cJSON_AddNumberToObject(info, "intervals_limit", (double)m->o.count);
	cJSON_AddItemToObject(info, "cmdline", string_array(argv, argc));
	if (m->o.command) {
		cJSON_AddItemToObject(info, "command", string_array(m->o.command, -1));
		cJSON_AddNullToObject(info, "exit_status");
	}
	isc_iso_time(ts, sizeof(ts));
	cJSON_AddStringToObject(info, "start_time", ts);
	cJSON_AddNullToObject(info, "end_time");
	cJSON_AddBoolToObject(info, "complete", false);
	cJSON_AddNumberToObject(info, "snapshots", 0);
	cJSON_AddItemToObject(info, "counters", cnt_set_describe(m->set));
	if (!m->o.cnt.sysroot)
		cJSON_AddItemToObject(info, "system", isc_sysinfo_collect(m->set->cpus[0].cpu));
}

static void finish_info(struct cmain *m, bool complete, int exit_status)
{
	char ts[64];
	isc_iso_time(ts, sizeof(ts));
	cJSON_ReplaceItemInObject(m->info, "end_time", cJSON_CreateString(ts));
	cJSON_ReplaceItemInObject(m->info, "complete", cJSON_CreateBool(complete));
	cJSON_ReplaceItemInObject(m->info, "snapshots", cJSON_CreateNumber((double)m->set->nsnap));
	cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(m->info, "counters"), "partial",
				  cnt_set_describe_partial(m->set));
	if (stop_signal)
		cJSON_AddStringToObject(m->info, "stopped_by", strsignal(stop_signal));
	if (m->o.command && exit_status >= 0)
		cJSON_ReplaceItemInObject(m->info, "exit_status", cJSON_CreateNumber(exit_status));
}

int counters_check_options(int argc, char **argv, const char **outdir, bool *force, bool *quiet)
{
	struct cmain_opts o = { .live = 0 };
	int rc = parse_opts(argc, argv, &o);
	optind = 0;
	*outdir = o.outdir;
	*force = o.force;
	*quiet = o.cnt.quiet;
	return rc < 0 ? 1 : rc;
}

int counters_main(int argc, char **argv)
{
	struct cmain m = { .rd = { .dirfd = -1 }, .o = { .live = -1 } };
	int rc = parse_opts(argc, argv, &m.o);
	if (rc)
		return rc < 0 ? ISC_EXIT_OK : rc;
	/* From now on a stop signal ends the run cleanly (info.json written) at the next step. In
	 * one-shot mode the command decides how long the run lasts: collect's own output closed
	 * (SIGPIPE) ends neither it nor collect, which finishes the run when it ends. */
	set_signals(on_stop);
	if (m.o.command)
		set_signal(SIGPIPE, SIG_IGN);
	rc = cnt_set_open(&m.o.cnt, &m.set);
	if (rc)
		return rc;
	int status = ISC_EXIT_DATA, exit_status = -1;
	rc = run_dir_create(m.o.outdir, m.o.force, &m.rd);
	if (rc < 0) {
		status = rc == -2 ? ISC_EXIT_USAGE : ISC_EXIT_DATA;
		goto out;
	}
	build_info(&m, argc, argv);
	if (run_write_info(&m.rd, m.info, INFO_RESERVE) < 0 ||
	    !(m.csv = counters_csv_open(m.rd.dirfd, m.rd.path, m.set)) || snap(&m))
		goto out;
	if (m.o.command && stop_signal) {
		isc_err("stopped by %s before the command ran", strsignal(stop_signal));
		goto out;
	}
	if (m.o.command ? run_command(&m, &exit_status) : run_intervals(&m))
		goto out;
	bool complete = m.o.command ? true : !stop_signal || !m.o.count;
	status = m.o.command ? exit_status : complete ? ISC_EXIT_OK : ISC_EXIT_DATA;
out:
	if (counters_csv_close(m.csv, m.rd.path) && status == ISC_EXIT_OK)
		status = ISC_EXIT_DATA;
	if (m.info) {
		finish_info(&m, status == (m.o.command ? exit_status : ISC_EXIT_OK), exit_status);
		if (run_write_info(&m.rd, m.info, 0) < 0 && status == ISC_EXIT_OK)
			status = ISC_EXIT_DATA;
		cJSON_Delete(m.info);
	}
	run_dir_close(&m.rd);
	cnt_set_close(m.set);
	return status;
}
