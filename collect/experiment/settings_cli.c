/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The settings options of collect, taken off the command line before the usual options are
 * parsed: --list-settings, --restore, --set, --matrix and the experiment options. What is
 * left goes to collect_parse_options unchanged, so that every usual option applies to every run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "table/numparse.h"
#include "settings/settings.h"
#include "text/util.h"

enum { X_SET, X_MATRIX, X_REPEAT, X_ORDER, X_SEED, X_SETTLE, X_DRY, X_RESTORE, X_LIST, X_SYSROOT, X_CPUS };

static const struct { const char *name; int id; bool arg; } xopts[] = {
	{ "set", X_SET, true },        { "matrix", X_MATRIX, true },     { "repeat", X_REPEAT, true },
	{ "order", X_ORDER, true },    { "order-seed", X_SEED, true },   { "settle", X_SETTLE, true },
	{ "dry-run", X_DRY, false },   { "restore", X_RESTORE, false },  { "list-settings", X_LIST, false },
	{ "sysroot", X_SYSROOT, true }, { "settings-cpus", X_CPUS, true },
};
#define NX (sizeof(xopts) / sizeof(xopts[0]))

static int bad(const char *opt, const char *arg, const char *why)
{
	char q[128];
	isc_quote_for_msg(arg, strlen(arg), q, sizeof(q));
	isc_err("--%s '%s': %s", opt, q, why);
	return ISC_EXIT_USAGE;
}

static int only(const char *opt, const char *with)
{
	isc_err("--%s: only %s", opt, with);
	return ISC_EXIT_USAGE;
}

static void push(const char ***list, size_t *n, const char *v)
{
	*list = isc_xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = v;
}

static int apply_x(struct exp_opts *x, int id, const char *opt, const char *arg)
{
	double d;
	char *end;
	switch (id) {
	case X_SET:
	case X_MATRIX:
		if (!strchr(arg, '=') || arg[0] == '=')
			return bad(opt, arg, id == X_SET ? "expected NAME=VALUE" : "expected NAME=VALUE1,VALUE2,...");
		push(id == X_SET ? &x->sets : &x->matrix, id == X_SET ? &x->nsets : &x->nmatrix, arg);
		return 0;
	case X_REPEAT:
		errno = 0;
		x->repeat = arg[0] >= '1' && arg[0] <= '9' ? (unsigned)strtoul(arg, &end, 10) : 0;
		if (!x->repeat || errno || *end || x->repeat > 1000)
			return bad(opt, arg, "expected a whole number of runs per configuration, 1 to 1000");
		return 0;
	case X_ORDER:
		x->order_given = true;
		if (!strcmp(arg, "interleaved"))
			x->order = ORDER_INTERLEAVED;
		else if (!strcmp(arg, "random"))
			x->order = ORDER_RANDOM;
		else if (!strcmp(arg, "blocked"))
			x->order = ORDER_BLOCKED;
		else
			return bad(opt, arg, "expected interleaved, random or blocked");
		return 0;
	case X_SEED:
		errno = 0;
		x->seed = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, &end, 10) : 0;
		if (arg[0] < '0' || arg[0] > '9' || errno || *end || x->seed > 0xffffffffu)
			return bad(opt, arg, "expected a whole number from 0 to 4294967295");
		x->seed_set = true;
		return 0;
	case X_SETTLE:
		if (!isc_parse_double(arg, strlen(arg), &d) || d < 0 || d > 3600)
			return bad(opt, arg, "expected seconds, 0 to 3600");
		x->settle_s = d;
		x->settle_given = true;
		return 0;
	case X_DRY: x->dry_run = true; return 0;
	case X_RESTORE: x->restore = true; return 0;
	case X_LIST: x->list = true; return 0;
	case X_SYSROOT:
		if (!arg[0] || arg[0] != '/')
			return bad(opt, arg, "expected an absolute directory");
		x->sysroot = arg;
		return 0;
	case X_CPUS:
		if (strcmp(arg, "all") && strcmp(arg, "measured"))
			return bad(opt, arg, "expected all (every online CPU) or measured");
		x->measured_only = !strcmp(arg, "measured");
		x->cpus_given = true;
		return 0;
	}
	return ISC_EXIT_USAGE;
}

/* Take our options out of argv (--name VALUE and --name=VALUE); the rest keeps its order. */
static int extract(int *argc, char **argv, struct exp_opts *x, bool *any)
{
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		size_t k = NX;
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		for (size_t j = 0; a[0] == '-' && a[1] == '-' && j < NX; j++) {
			size_t n = strlen(xopts[j].name);
			if (!strncmp(a + 2, xopts[j].name, n) && (a[2 + n] == '\0' || (a[2 + n] == '=' && xopts[j].arg)))
				k = j;
		}
		if (k == NX) {
			argv[out++] = argv[i];
			continue;
		}
		const char *arg = NULL;
		if (xopts[k].arg) {
			arg = strchr(a, '=') ? strchr(a, '=') + 1 : i + 1 < *argc ? argv[++i] : NULL;
			if (!arg) {
				isc_err("option '--%s' needs an argument; try 'collect --help'", xopts[k].name);
				return ISC_EXIT_USAGE;
			}
		}
		*any = true;
		int rc = apply_x(x, xopts[k].id, xopts[k].name, arg);
		if (rc)
			return rc;
	}
	argv[out] = NULL;
	*argc = out;
	return 0;
}

/* The measured CPU from the usual options (default 0), without complaining: they are
 * checked again by whoever parses them for real. */
static int measured_cpu(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--cpu=", 6))
			return atoi(argv[i] + 6);
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			return atoi(argv[i + 1]);
	}
	return 0;
}

static int list_settings(const struct exp_opts *x, int cpu)
{
	struct isc_settings *s = isc_settings_open(x->sysroot, cpu, !x->measured_only);
	isc_settings_list(s, stdout);
	isc_settings_close(s);
	return ISC_EXIT_OK;
}

static int restore(const struct exp_opts *x)
{
	size_t n;
	if (geteuid() != 0 && !x->sysroot) {
		isc_err("--restore: restoring settings needs root");
		return ISC_EXIT_USAGE;
	}
	struct isc_settings *s = isc_settings_open(x->sysroot, 0, true);
	int failed = isc_settings_restore(s, &n);
	isc_settings_close(s);
	if (failed == 0)
		printf("%s: %zu journalled value%s restored%s\n", isc_progname(), n, n == 1 ? "" : "s",
		       n ? "" : " (no journal was pending)");
	else if (failed > 0)
		isc_err("--restore: %d journalled value%s could not be restored; the journal is kept", failed,
		       failed == 1 ? "" : "s");
	return failed == 0 ? ISC_EXIT_OK : ISC_EXIT_DATA;
}

static bool pending_check_wanted;
static const char *pending_sysroot;

/*
 * A plain run refuses to start while settings left by a killed collector are pending. Called
 * once the options are parsed, so that --help and --version print nothing else.
 */
int settings_cli_check_pending(void)
{
	const char *sysroot = pending_sysroot;
	if (!pending_check_wanted)
		return -1;
	char jp[4096];
	long pid;
	enum isc_journal_state st = isc_settings_journal_state(sysroot, &pid, jp, sizeof(jp));
	if (st == ISC_JOURNAL_STALE) {
		isc_err("settings left changed by collect pid %ld are pending (%s): run 'collect --restore%s%s' first "
		       "(it says what it cannot put back, and how to discard the journal)",
		       pid, jp, sysroot ? " --sysroot " : "", sysroot ? sysroot : "");
		return ISC_EXIT_DATA;
	}
	if (st == ISC_JOURNAL_UNREADABLE)
		isc_warn("a settings journal is pending (%s): an experiment is changing settings, or one that was killed "
			"left them changed ('collect --restore' as root); this run records them as they are", jp);
	if (st == ISC_JOURNAL_ACTIVE && pid != (long)getppid())
		isc_warn("collect pid %ld is changing settings (an experiment?); this run records them as they are", pid);
	return -1;
}

/* A run of an experiment keeps the driver's journal open (its lock outlives a killed driver),
 * but passes it to nothing it starts. */
static void keep_journal_fd(void)
{
	const char *e = getenv(JOURNAL_FD_ENV);
	char *end;
	long fd = e ? strtol(e, &end, 10) : -1;
	if (e && !*end && fd > 2 && fd < 1 << 20)
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	unsetenv(JOURNAL_FD_ENV);
}

int settings_cli_main(int *argc, char **argv)
{
	keep_journal_fd();
	struct exp_opts x = { .orig_argc = *argc, .orig_argv = isc_xcalloc((size_t)*argc + 1, sizeof(char *)) };
	bool any = false;
	memcpy(x.orig_argv, argv, (size_t)*argc * sizeof(char *));
	int rc = extract(argc, argv, &x, &any);

	if (!rc && x.list + x.restore + (x.nsets || x.nmatrix) > 1)
		rc = only(x.list ? "list-settings" : "restore", "alone (not with --set, --matrix, --restore or --list-settings)");
	if (!rc && !x.nmatrix && (x.repeat || x.order_given || x.seed_set))
		rc = only(x.repeat ? "repeat" : x.order_given ? "order" : "order-seed", "with --matrix");
	if (!rc && !x.nmatrix && !x.nsets && (x.settle_given || x.dry_run))
		rc = only(x.settle_given ? "settle" : "dry-run", "with --set or --matrix");
	if (!rc && x.list)
		rc = list_settings(&x, measured_cpu(*argc, argv));
	else if (!rc && x.restore)
		rc = restore(&x);
	else if (!rc && (x.nsets || x.nmatrix))
		rc = experiment_main(&x, *argc, argv);
	else if (!rc) {
		settings_record_setup(x.sysroot, x.measured_only);
		pending_check_wanted = !getenv(RUN_CONTEXT_ENV);
		pending_sysroot = x.sysroot;
		rc = -1;
	}
	free(x.sets);
	free(x.matrix);
	free(x.orig_argv);
	(void)any;
	return rc;
}
