/* SPDX-License-Identifier: GPL-2.0-only */
/* The hrt/tdt module on the SUT: the deploy copies its sources (idlescope-kmod.tar beside the
 * deployed collect) and this builds them there, as wult deploy does, with
 * `make -C <kernel build dir> M=<dir> modules` against the SUT's headers
 * (/lib/modules/$(uname -r)/build, or --ksrc DIR), into <remote-dir>/collect-<version>/kmod-<release>/.
 * A build is kept while the sources' SHA-256, the release and the build dir stay the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"
#include "text/util.h"
#include "idlescope/version.h"

#define KMOD_TAR "idlescope-kmod.tar"

/* The SUT's side, one ssh call. First line of its output: what happened, fields tab-separated. */
static const char build_script[] =
	"v=$isv; ksrc=%s; want_loaded=%d; src=%s\n"
	"if [ \"$want_loaded\" = 1 ] && [ -z \"$ksrc\" ] && [ -d /sys/module/idlescope ]; then echo loaded; exit 0; fi\n"
	"krel=$(uname -r)\n"
	"kdir=${ksrc:-/lib/modules/$krel/build}\n"
	"if [ ! -f \"$kdir/Makefile\" ]; then printf 'noheaders\\t%%s\\t%%s\\n' \"$krel\" \"$kdir\"; exit 0; fi\n"
	"rel=$(sed -n 's/^#define UTS_RELEASE \"\\(.*\\)\"$/\\1/p' \"$kdir/include/generated/utsrelease.h\" 2>/dev/null)\n"
	"[ -n \"$rel\" ] || rel=$krel\n"
	"for t in make \"${CC:-gcc}\"; do command -v \"$t\" >/dev/null 2>&1 || { printf 'notool\\t%%s\\n' \"$t\"; exit 0; }; done\n"
	"b=$v/kmod-$rel; stamp=\"$src $rel $kdir\"\n"
	"if [ -f \"$b/idlescope.ko\" ] && [ \"$(cat \"$b/stamp\" 2>/dev/null)\" = \"$stamp\" ]; then\n"
	"  printf 'kept\\t%%s\\t%%s\\n' \"$b/idlescope.ko\" \"$rel\"; exit 0; fi\n"
	/* the sources from a private copy whose SHA-256 is checked, in the same step */
	"rm -rf \"$b.new\" && mkdir -p \"$b.new\" && cp -- \"$v/" KMOD_TAR "\" \"$b.new/.src.tar\" &&\n"
	"  h=$(sha256sum <\"$b.new/.src.tar\") && [ \"${h%%%% *}\" = \"$src\" ] &&\n"
	"  tar -xf \"$b.new/.src.tar\" -C \"$b.new\" && rm -f -- \"$b.new/.src.tar\" ||\n"
	"  { printf 'untar\\t%%s\\n' \"$b.new\"; exit 0; }\n"
	"if make -C \"$kdir\" M=\"$b.new\" modules >\"$b.new/build.log\" 2>&1 && [ -f \"$b.new/idlescope.ko\" ]; then\n"
	"  printf '%%s\\n' \"$stamp\" >\"$b.new/stamp\" && rm -rf \"$b\" && mv \"$b.new\" \"$b\" &&\n"
	"  printf 'built\\t%%s\\t%%s\\n' \"$b/idlescope.ko\" \"$rel\"\n"
	"else printf 'makefail\\t%%s\\t%%s\\n' \"$kdir\" \"$b.new/build.log\"\n"
	"  grep -m 1 'error:' \"$b.new/build.log\" || echo; tail -n 6 \"$b.new/build.log\"; fi\n";

/* the n-th tab-separated field of line (no newline) into buf */
static void field(const char *line, int n, char *buf, size_t len)
{
	const char *p = line;
	for (int i = 0; i < n && p; i++)
		p = strchr(p, '\t') ? strchr(p, '\t') + 1 : NULL;
	size_t k = p ? strcspn(p, "\t\n") : 0;
	char raw[512];
	snprintf(raw, sizeof(raw), "%.*s", (int)k, p ? p : "");
	isc_quote_for_msg(raw, strlen(raw), buf, len);
}

/* make failed: the compiler's first error (the second line) into msg; the log's last lines
 * (after it) in *tail */
static void make_failed(const char *out, const char *first, char *msg, size_t len, const char **tail)
{
	char kdir[300], log[300], err[300] = "";
	field(first, 1, kdir, sizeof(kdir));
	field(first, 2, log, sizeof(log));
	const char *e = strchr(out, '\n') ? strchr(out, '\n') + 1 : "";
	size_t n = strcspn(e, "\n");
	isc_quote_for_msg(e, n < 250 ? n : 250, err, sizeof(err));
	*tail = e[n] ? e + n + 1 : "";
	snprintf(msg, len, "the idlescope module does not build against %.250s%s%.250s (log: %.250s)", kdir,
		 err[0] ? ": " : "", err, log);
}

static void print_tail(const char *host, const char *tail)
{
	for (const char *l = tail; *l; ) {
		char q[300];
		size_t n = strcspn(l, "\n");
		isc_quote_for_msg(l, n < 250 ? n : 250, q, sizeof(q));
		isc_info("%s: make: %s", host, q);
		l += n + (l[n] ? 1 : 0);
	}
}

/* the first line's verdict: 0 and *ko (malloc'd, NULL when the module is loaded), or -1 and
 * why in msg (and the make log's last lines in *tail) */
static int verdict(const struct remote_opts *ro, const char *host, const char *out, bool verbose, char **ko,
		   char *msg, size_t len, const char **tail)
{
	char first[1024], a[300], b[300];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(out, "\n"), out);
	field(first, 1, a, sizeof(a));
	field(first, 2, b, sizeof(b));
	*tail = "";
	if (!strchr(first, '\t'))
		field(first, 0, a, sizeof(a));
	if (!strcmp(first, "loaded")) {
		*ko = NULL;
		return 0;
	}
	if (!strncmp(first, "kept\t", 5) || !strncmp(first, "built\t", 6)) {
		if (verbose)
			isc_info("%s: %s the idlescope module for %s: %s", host, first[0] == 'k' ? "has" : "built", b, a);
		*ko = isc_xstrdup(a);
		return 0;
	}
	if (!strncmp(first, "noheaders\t", 10) && ro->ksrc)
		snprintf(msg, len, "--ksrc %.250s: not a kernel build directory on the SUT (no Makefile)", b);
	else if (!strncmp(first, "noheaders\t", 10))
		snprintf(msg, len, "no kernel headers for %.200s in %.250s: install linux-headers-%.200s or give --ksrc DIR",
			 a, b, a);
	else if (!strncmp(first, "notool\t", 7))
		snprintf(msg, len, "cannot build the idlescope module: no '%.200s' on the SUT (install make and gcc)", a);
	else if (!strncmp(first, "untar\t", 6))
		snprintf(msg, len, "cannot unpack the idlescope module's sources into %.250s", a);
	else if (!strncmp(first, "makefail\t", 9))
		make_failed(out, first, msg, len, tail);
	else
		snprintf(msg, len, "module build: unexpected answer from the SUT: %.200s", first[0] ? a : "(nothing)");
	return -1;
}

/* needed: a failure is an error (else a note: the other methods do not need the module) */
static int kmod_build(const struct remote_opts *ro, const char *host, bool use_loaded, bool verbose, bool needed,
		      char **ko)
{
	char *ksrc = sh_quote(ro->ksrc ? ro->ksrc : ""), *src = NULL, *out, *err, why[400];
	int rc = -1;
	*ko = NULL;
	if (remote_payload_hash(KMOD_TAR, &src) < 0) {
		remote_err(host, "no %s beside the deployable collect (build target collect-deploy)", KMOD_TAR);
		goto out;
	}
	char *body = isc_xasprintf(build_script, ksrc, use_loaded ? 1 : 0, src), *cmd = remote_shell(ro, body);
	int st = ssh_run(ro, host, cmd, NULL, 0, &out, &err);
	free(cmd);
	free(body);
	if (st) {
		if (st == 255)
			ssh_explain(err, why, sizeof(why));
		else
			last_line(err, why, sizeof(why));
		remote_err(host, "module build: %s", why[0] ? why : "the SUT's shell failed");
	} else {
		const char *tail;
		char msg[1400];
		rc = verdict(ro, host, out, verbose, ko, msg, sizeof(msg), &tail);
		if (rc && needed)
			remote_err(host, "%s", msg);
		else if (rc)
			isc_note("%s: %s; hrt/tdt need the module, the other methods do not", host, msg);
		if (rc)
			print_tail(host, tail);
	}
	free(out);
	free(err);
out:
	free(src);
	free(ksrc);
	return rc;
}

bool remote_kmod_method(const struct remote_opts *ro)
{
	return ro->method && (!strcmp(ro->method, "hrt") || !strcmp(ro->method, "tdt"));
}

/* --kmod-path among the options for the SUT's collect: the user named the module file */
static bool kmod_path_given(const struct remote_opts *ro)
{
	for (int i = 1; i < ro->npass && strcmp(ro->pass[i], "--"); i++)
		if (!strncmp(ro->pass[i], "--kmod-path", 11))
			return true;
	return false;
}

int remote_deploy_run(const struct remote_opts *ro, const char *host, char **collect_cmd, char **ko)
{
	*ko = NULL;
	if (remote_deploy(ro, host, false, collect_cmd))
		return 1;
	if (!remote_kmod_method(ro) || kmod_path_given(ro))
		return 0;
	if (kmod_build(ro, host, true, false, true, ko) == 0)
		return 0;
	free(*collect_cmd);
	*collect_cmd = NULL;
	return 1;
}

char *remote_add_kmod_path(char *cmd, const char *ko)
{
	if (!ko)
		return cmd;
	char *q = sh_quote(ko), *c = isc_xasprintf("%s --kmod-path %s", cmd, q);
	free(q);
	free(cmd);
	return c;
}

int remote_deploy_kmod(const struct remote_opts *ro, const char *host)
{
	bool needed = ro->ksrc || remote_kmod_method(ro);
	char *ko = NULL;
	int rc = kmod_build(ro, host, false, true, needed, &ko);
	free(ko);
	return rc && needed ? 1 : 0;
}
