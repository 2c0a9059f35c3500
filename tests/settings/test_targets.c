/* SPDX-License-Identifier: GPL-2.0-only */
/* Units of lib/settings/target.c: CPU lists parsed exactly (sorted, without repeats, bad ones
 * refused with one message), and the targets resolved on a fixture tree of 2 packages x 2
 * cores x 2 threads built here (CPU n and n+4 one core's threads; CPUs 2, 3, 6, 7 package 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "settings/target.h"

static char *list_text(const int *cpus, size_t n)
{
	struct isc_target t = { .cpus = (int *)cpus, .ncpus = n };
	return isc_target_cpus_text(&t);
}

static void parses(const char *in, const char *want)
{
	int *c;
	size_t n;
	char why[256];
	int r = isc_parse_cpu_list(in, &c, &n, why, sizeof(why));
	CHECK_MSG(r == 0, "'%s' refused: %s", in, why);
	if (r)
		return;
	for (size_t i = 1; i < n; i++)
		CHECK_MSG(c[i - 1] < c[i], "'%s': not ascending at %zu", in, i);
	char *t = list_text(c, n);
	CHECK_MSG(!strcmp(t, want), "'%s' -> '%s', expected '%s'", in, t, want);
	free(t);
	free(c);
}

static void refused(const char *in)
{
	int *c;
	size_t n;
	char why[256] = "";
	CHECK_MSG(isc_parse_cpu_list(in, &c, &n, why, sizeof(why)) < 0 && !c && !n, "'%s' accepted", in);
	CHECK_MSG(strstr(why, "is not a CPU list"), "'%s': message '%s'", in, why);
}

static void put(const char *root, const char *rel, const char *text)
{
	char p[4096], cmd[4200];
	snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	CHECK(system(cmd) == 0);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static void build_fixture(const char *root)
{
	char rel[64], v[32];
	put(root, "online", "0-7");
	for (int n = 0; n < 8; n++) {
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", n);
		snprintf(v, sizeof(v), "%d", n / 2 % 2);
		put(root, rel, v);
		snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", n);
		snprintf(v, sizeof(v), "%d,%d", n % 4, n % 4 + 4);
		put(root, rel, v);
	}
}

/* cstates is per CPU, idle-governor system-wide: the registry's scopes, no file read. */
static void resolves(struct isc_settings *s, const char *name, const char *spec, const char *want)
{
	struct isc_target t;
	char why[512];
	int r = isc_target_resolve(s, name, spec, &t, why, sizeof(why));
	if (!want) {
		CHECK_MSG(r < 0, "%s@%s resolved", name, spec ? spec : "");
		return;
	}
	CHECK_MSG(r == 0, "%s@%s: %s", name, spec ? spec : "(none)", why);
	char *got = r == 0 ? list_text(t.cpus, t.ncpus) : NULL;
	CHECK_MSG(got && !strcmp(got, want), "%s@%s -> '%s', expected '%s'", name, spec ? spec : "(none)", got ? got : "(refused)", want);
	free(got);
	if (r == 0)
		isc_target_free(&t);
}

static void refused_with(struct isc_settings *s, const char *name, const char *spec, const char *msg)
{
	struct isc_target t;
	char why[512] = "";
	CHECK_MSG(isc_target_resolve(s, name, spec, &t, why, sizeof(why)) < 0 && !strcmp(why, msg),
		  "%s@%s: '%s', expected '%s'", name, spec, why, msg);
}

int main(void)
{
	parses("0", "0");
	parses("7,0-2,2,1", "0-2,7");
	parses("0,4", "0,4");
	parses("3-3", "3");
	parses("0-65535", "0-65535");
	refused("");
	refused("5-3");
	refused("1,");
	refused(",1");
	refused("1-");
	refused("x");
	refused("1 2");
	refused("-1");
	refused("65536");
	refused("99999999999999999999");

	char root[] = "/tmp/test-targets.XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	build_fixture(root);
	struct isc_settings *s = isc_settings_open(root, 1, true);
	resolves(s, "cstates", NULL, "0-7");
	resolves(s, "cstates", "all", "0-7");
	resolves(s, "cstates", "measured", "1");
	resolves(s, "cstates", "siblings", "1,5");
	resolves(s, "cstates", "package=0", "0-1,4-5");
	resolves(s, "cstates", "package=1", "2-3,6-7");
	resolves(s, "cstates", "cpus=6,2-3", "2-3,6");
	resolves(s, "idle-governor", NULL, "");
	refused_with(s, "cstates", "cpus=8", "cstates@cpus=8: CPU 8 does not exist (online: 0-7)");
	refused_with(s, "cstates", "package=2", "cstates@package=2: no online CPU is in package 2");
	resolves(s, "cstates", "package=0-1", "0-7");
	resolves(s, "cstates", "package=1,1", "2-3,6-7");
	refused_with(s, "cstates", "package=1,5", "cstates@package=1,5: no online CPU is in package 5");
	refused_with(s, "cstates", "package=x", "cstates@package=x: 'package=x': expected package numbers (0, 0-1)");
	refused_with(s, "cstates", "core=0",
		     "cstates@core=0: unknown target 'core=0'; the targets are all, measured, siblings, cpus=LIST (0-3,6), package=LIST");
	refused_with(s, "idle-governor", "all",
		     "idle-governor@all: idle-governor is one setting for the whole machine: it takes no CPU target");
	isc_settings_close(s);
	/* CPU 6 offline: all and package=1 leave it out, cpus= and siblings refuse it */
	put(root, "online", "0-5,7");
	s = isc_settings_open(root, 2, true);
	resolves(s, "cstates", "all", "0-5,7");
	resolves(s, "cstates", "package=1", "2-3,7");
	refused_with(s, "cstates", "cpus=6", "cstates@cpus=6: CPU 6 is offline (online: 0-5,7)");
	refused_with(s, "cstates", "siblings", "cstates@siblings: CPU 6 is offline (online: 0-5,7)");
	isc_settings_close(s);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
