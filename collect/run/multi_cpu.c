/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect --method timer --cpu LIST: several CPUs at once, as cyclictest -t -a LIST. One
 * collect per CPU runs as a child process (this program again, with "--cpu N -o DIR/cpuN"
 * appended, which override the earlier options), so each CPU gets a complete run directory
 * of its own, with its own lock, info.json and summary.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "collect.h"
#include "text/util.h"

#define MAX_MULTI 256

static pid_t children[MAX_MULTI];
static int nchildren;

static int check(const struct collect_opts *o, int *cpus, int *n)
{
	if (strcmp(o->method, "timer")) {
		isc_err("--cpu %s: several CPUs at once need --method timer (bpf, hrt and tdt measure "
		       "one CPU; run one collect per CPU)", o->cpu_list);
		return -1;
	}
	if (!o->outdir) {
		isc_err("--cpu %s: needs -o DIR (each CPU's run goes to DIR/cpuN)", o->cpu_list);
		return -1;
	}
	*n = collect_parse_cpu_list(o->cpu_list, cpus, MAX_MULTI);
	if (*n < 1 || *n > MAX_MULTI) {
		isc_err("--cpu '%s': expected CPU numbers and ranges without repeats (0,2-3), at most %d",
		       o->cpu_list, MAX_MULTI);
		return -1;
	}
	for (int i = 0; i < *n; i++)
		if (collect_check_cpu(cpus[i]) < 0)
			return -1;
	return 0;
}

static pid_t start_child(int argc, char **argv, const struct collect_opts *o, int cpu)
{
	char **av = isc_xcalloc((size_t)argc + 8, sizeof(char *));
	char *name = isc_xasprintf("collect[cpu%d]", cpu), *cpus = isc_xasprintf("%d", cpu);
	char *out = isc_xasprintf("%s/cpu%d", o->outdir, cpu);
	char *rid = o->reportid ? isc_xasprintf("%s-cpu%d", o->reportid, cpu) : NULL;
	int k = 0;
	av[k++] = name;
	for (int i = 1; i < argc; i++)
		av[k++] = argv[i];
	av[k++] = "--cpu";
	av[k++] = cpus;
	av[k++] = "-o";
	av[k++] = out;
	if (rid) {
		av[k++] = "--reportid";
		av[k++] = rid;
	}
	/* several progress lines would overwrite each other */
	struct child_spec spec = { .argv = av, .env_name = "IDLESCOPE_NO_PROGRESS", .env_value = "1",
				   .stderr_fd = -1 };
	pid_t pid = child_start(&spec);
	free(av);
	free(name);
	free(cpus);
	free(out);
	free(rid);
	return pid;
}

int collect_multi_cpu(int argc, char **argv, const struct collect_opts *o)
{
	int cpus[MAX_MULTI], n, worst = ISC_EXIT_OK;
	if (check(o, cpus, &n) < 0)
		return ISC_EXIT_USAGE;
	child_forward_signals((const int[]){ SIGTERM }, 1);
	signal(SIGINT, SIG_IGN);  /* the terminal's ^C reaches the children themselves */
	if (!o->quiet)
		isc_info("measuring CPUs %s at once with method timer into %s/cpuN", o->cpu_list, o->outdir);
	for (int i = 0; i < n; i++) {
		children[nchildren] = start_child(argc, argv, o, cpus[i]);
		if (children[nchildren] < 0) {
			child_signal_all(SIGTERM);
			worst = ISC_EXIT_DATA;
			break;
		}
		nchildren++;
	}
	for (int i = 0; i < nchildren; i++) {
		int st;
		while (waitpid(children[i], &st, 0) < 0 && errno == EINTR)
			;
		child_done(children[i]);
		int rc = WIFEXITED(st) ? WEXITSTATUS(st) : ISC_EXIT_DATA;
		worst = rc > worst ? rc : worst;
		if (!o->quiet || rc)
			isc_info("%s/cpu%d: %s (exit %d)", o->outdir, cpus[i], rc ? "failed" : "done", rc);
	}
	return worst;
}
