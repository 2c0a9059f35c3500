/* SPDX-License-Identifier: GPL-2.0-only */
/* The remote options of collect (-H, --hosts, --jobs, --ssh-config, --ssh-opt, ...). They are
 * taken out of the command line; the rest is checked as a local collect checks it and goes to
 * the SUT's collect unchanged. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "counters_hook.h"
#include "remote.h"
#include "text/textsafe.h"
#include "text/util.h"

#define DEFAULT_CONNECT_TIMEOUT 10u

struct ropt {
	const char *name;   /* long name; "H" is the only short one */
	bool arg;
};
static const struct ropt ropts[] = {
	{ "host", true }, { "hosts", true }, { "jobs", true }, { "ssh-config", true },
	{ "ssh-opt", true }, { "connect-timeout", true }, { "remote-dir", true }, { "deploy", false },
	{ "fetch", false }, { "progress", false }, { "ksrc", true },
};
#define NROPTS (sizeof(ropts) / sizeof(ropts[0]))

/* argv[i] as a remote option: its index in ropts and its value (may be argv[i + 1]). */
static int match(char **argv, int argc, int i, const char **val, int *used)
{
	const char *a = argv[i];
	*used = 1;
	*val = NULL;
	if (!strncmp(a, "-H", 2)) {
		if (a[2]) {
			*val = a + 2;
			return 0;
		}
		*used = 2;
		*val = i + 1 < argc ? argv[i + 1] : NULL;
		return 0;
	}
	if (strncmp(a, "--", 2))
		return -1;
	for (size_t k = 0; k < NROPTS; k++) {
		size_t n = strlen(ropts[k].name);
		if (strncmp(a + 2, ropts[k].name, n) || (a[2 + n] && a[2 + n] != '='))
			continue;
		if (!ropts[k].arg)
			return a[2 + n] ? -1 : (int)k;
		if (a[2 + n] == '=') {
			*val = a + 3 + n;
		} else {
			*used = 2;
			*val = i + 1 < argc ? argv[i + 1] : NULL;
		}
		return (int)k;
	}
	return -1;
}

bool remote_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *v;
		int used;
		if (match(argv, argc, i, &v, &used) >= 0)
			return true;
	}
	return false;
}

/* A host as given: what ssh takes as a destination and a directory name under DIR/. */
static int check_host(const char *h, const char *where)
{
	char q[96], why[96];
	const char *bad = NULL;
	if (!h[0])
		bad = "empty host name";
	else if (h[0] == '-' || h[0] == '.')
		bad = "a host must not start with '-' or '.'";
	else if (strpbrk(h, "/ \t'\"\\"))
		bad = "a host must not contain '/', blanks, quotes or backslashes";
	else
		bad = isc_name_problem(h, why, sizeof(why));
	if (!bad)
		return 0;
	isc_quote_for_msg(h, strlen(h), q, sizeof(q));
	isc_err("%s '%s': %s", where, q, bad);
	return 2;
}

static int add_host(struct remote_opts *ro, const char *h, const char *where)
{
	if (check_host(h, where))
		return 2;
	for (size_t i = 0; i < ro->nhosts; i++)
		if (!strcmp(ro->hosts[i], h)) {
			isc_err("%s '%s': host given twice (each host gets one run directory)", where, h);
			return 2;
		}
	ro->hosts = isc_xrealloc(ro->hosts, (ro->nhosts + 1) * sizeof(*ro->hosts));
	ro->hosts[ro->nhosts++] = isc_xstrdup(h);
	return 0;
}

static int add_host_list(struct remote_opts *ro, const char *list)
{
	char *copy = isc_xstrdup(list), *save = NULL;
	int rc = 0;
	if (!list[0])
		rc = check_host(list, "-H");
	for (char *h = strtok_r(copy, ",", &save); h && !rc; h = strtok_r(NULL, ",", &save))
		rc = add_host(ro, h, "-H");
	free(copy);
	return rc;
}

/* --hosts FILE: one host per line; blank lines and '#' comments are skipped. */
static int read_hosts_file(struct remote_opts *ro, const char *path)
{
	char err[300], where[300];
	size_t len;
	char *text = isc_read_regular_file(path, 1 << 20, &len, err, sizeof(err));
	if (!text) {
		isc_err("--hosts %s", err);
		return 2;
	}
	int rc = 0, line = 0;
	for (char *p = text, *nl; *p && !rc; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line++;
		char *h = p + strspn(p, " \t"), *hash = strchr(h, '#');
		if (hash)
			*hash = '\0';
		size_t n = strlen(h);
		while (n && (h[n - 1] == ' ' || h[n - 1] == '\t' || h[n - 1] == '\r'))
			h[--n] = '\0';
		if (!n)
			continue;
		snprintf(where, sizeof(where), "%s:%d: host", path, line);
		rc = add_host(ro, h, where);
		if (!nl)
			break;
	}
	free(text);
	if (!rc && !ro->nhosts) {
		isc_err("--hosts %s: no host in the file", path);
		rc = 2;
	}
	return rc;
}

static int parse_uint(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long n = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
	if (v[0] < '0' || v[0] > '9' || errno || *end || n < lo || n > hi) {
		char q[64];
		isc_quote_for_msg(v, strlen(v), q, sizeof(q));
		isc_err("%s '%s': expected a whole number from %u to %u", opt, q, lo, hi);
		return 2;
	}
	*out = (unsigned)n;
	return 0;
}

static int apply(struct remote_opts *ro, int k, const char *v)
{
	switch (k) {
	case 0: return add_host_list(ro, v);
	case 1: return read_hosts_file(ro, v);
	case 2: return parse_uint("--jobs", v, 1, 1024, &ro->jobs);
	case 3: ro->ssh_config = v; return 0;
	case 4:
		if (!v[0] || strchr(v, '\n')) {
			isc_err("--ssh-opt '%s': expected an ssh option such as 'Port=2222'", v);
			return 2;
		}
		ro->ssh_opts = isc_xrealloc(ro->ssh_opts, (ro->nssh_opts + 1) * sizeof(*ro->ssh_opts));
		ro->ssh_opts[ro->nssh_opts++] = v;
		return 0;
	case 5: return parse_uint("--connect-timeout", v, 1, 3600, &ro->connect_timeout);
	case 6:
		if (!v[0] || strchr(v, '\n')) {
			isc_err("--remote-dir: expected a directory on the SUT");
			return 2;
		}
		if (v[0] == '~' && v[1] && v[1] != '/') {   /* ~ and ~/x are expanded (remote_base) */
			isc_err("--remote-dir '%s': ~USER is not expanded; give the directory's path", v);
			return 2;
		}
		ro->remote_dir = v;
		return 0;
	case 7: ro->deploy_only = true; return 0;
	case 8: ro->fetch = true; return 0;
	case 9: ro->progress = 1; return 0;
	case 10:
		if (!v[0] || strchr(v, '\n')) {
			isc_err("--ksrc: expected the SUT's kernel build directory (e.g. /usr/src/linux-headers-6.1.0-56-amd64)");
			return 2;
		}
		ro->ksrc = v;
		return 0;
	}
	return 2;
}

/* The experiment options (docs/experiments.md): they go to the SUT, where the experiment driver
 * runs; the rest is checked here. "--set" alone makes one run, as locally. */
static const struct { const char *name; bool arg; } xopts[] = {
	{ "set", true }, { "matrix", true }, { "repeat", true }, { "order", true }, { "order-seed", true },
	{ "settle", true }, { "settings-cpus", true }, { "sysroot", true },
	{ "dry-run", false }, { "restore", false }, { "list-settings", false },
};

/* How many argv entries rest[i] takes as an experiment option (0: not one). The ones that are
 * no measurement (--list-settings, --dry-run, --restore) set the settings mode: each SUT's
 * collect answers, no run is made (settings_remote.c). */
static int experiment_opt(struct remote_opts *ro, char **rest, int nrest, int i)
{
	const char *a = rest[i];
	for (size_t k = 0; k < sizeof(xopts) / sizeof(xopts[0]); k++) {
		size_t n = strlen(xopts[k].name);
		if (strncmp(a, "--", 2) || strncmp(a + 2, xopts[k].name, n) || (a[2 + n] && a[2 + n] != '='))
			continue;
		if (!xopts[k].arg) {
			if (a[2 + n])
				return 0;   /* --restore=x: collect's parser says what is wrong */
			ro->settings_mode = xopts[k].name;
			return 1;
		}
		if (!strcmp(xopts[k].name, "set") || !strcmp(xopts[k].name, "matrix"))
			ro->experiment |= !strcmp(xopts[k].name, "matrix");
		return a[2 + n] == '=' || i + 1 >= nrest ? 1 : 2;
	}
	return 0;
}

/* The collect options that stay: checked here as collect checks them, passed on as given. */
static int check_rest(struct remote_opts *ro, char **rest, int nrest)
{
	struct collect_opts o;
	char **plain = isc_xcalloc((size_t)nrest + 1, sizeof(*plain));
	const char *outdir = NULL;
	int np = 0, rc;
	for (int i = 0; i < nrest; i++) {
		if (!strcmp(rest[i], "--")) {
			while (i < nrest)
				plain[np++] = rest[i++];
			break;
		}
		if (!strcmp(rest[i], "--counters"))
			ro->counters = true;
		int used = i ? experiment_opt(ro, rest, nrest, i) : 0;
		if (used < 0) {
			free(plain);
			return 2;
		}
		if (!used)
			plain[np++] = rest[i];
		else
			i += used - 1;
	}
	optind = 0;
	if (ro->counters)
		rc = counters_check_options(np, plain, &outdir, &ro->force, &ro->quiet);
	else
		rc = collect_parse_options(np, plain, &o);
	optind = 0;
	free(plain);
	if (rc)
		return rc;   /* 1: --help was printed */
	if (ro->counters) {
		ro->outdir = outdir;
		ro->method = "counters";
		return 0;
	}
	ro->outdir = o.outdir;
	ro->force = o.force;
	ro->quiet = o.quiet;
	ro->count = o.count;
	ro->time_limit_ns = o.time_limit_ns;
	ro->method = ro->experiment ? "experiment" : o.method;
	ro->reportid = o.reportid;
	return 0;
}

int remote_parse(int argc, char **argv, struct remote_opts *ro)
{
	*ro = (struct remote_opts){ .connect_timeout = DEFAULT_CONNECT_TIMEOUT };
	char **rest = isc_xcalloc((size_t)argc + 1, sizeof(*rest));
	int nrest = 0, rc = 0;
	rest[nrest++] = argv[0];
	for (int i = 1; i < argc && !rc; ) {
		const char *v;
		int used, k = match(argv, argc, i, &v, &used);
		if (k < 0 || !strcmp(argv[i], "--")) {
			rest[nrest++] = argv[i++];
			continue;
		}
		if (ropts[k].arg && !v) {
			isc_err("option '%s' needs an argument; try 'collect --help'", argv[i]);
			rc = 2;
			break;
		}
		rc = apply(ro, k, v);
		i += used;
	}
	if (!rc && !ro->nhosts) {
		isc_err("no host: give -H HOST[,HOST...] or --hosts FILE");
		rc = 2;
	}
	if (!rc && ro->progress == 0)
		ro->progress = -1;
	if (!rc)
		rc = check_rest(ro, rest, nrest);
	if (!rc && ro->settings_mode && (ro->deploy_only || ro->fetch || ro->counters)) {
		isc_err("--%s: not with %s", ro->settings_mode, ro->deploy_only ? "--deploy" : ro->fetch ? "--fetch" : "--counters");
		rc = 2;
	}
	if (!rc && ro->fetch && (ro->deploy_only || nrest > 4 || !ro->outdir)) {
		isc_err("--fetch: only -H HOST -o DIR (the run directory, or the fleet's) and the ssh options");
		rc = 2;
	}
	/* host keys as ssh will check them: its effective configuration for each host */
	for (size_t i = 0; !rc && i < ro->nhosts; i++)
		rc = ssh_check_host_keys(ro, ro->hosts[i]);
	ro->pass = rest;
	ro->npass = nrest;
	return rc;
}

void remote_opts_free(struct remote_opts *ro)
{
	for (size_t i = 0; i < ro->nhosts; i++)
		free(ro->hosts[i]);
	free(ro->hosts);
	free(ro->ssh_opts);
	free(ro->pass);
}
