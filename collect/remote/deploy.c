/* SPDX-License-Identifier: GPL-2.0-only */
/* Deploy: copy this build's self-contained collect (collect-deploy, with the BPF object inside)
 * to <base>/collect-<version>/ on the SUT, unless the files there have the same SHA-256. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "remote.h"
#include "text/util.h"
#include "idlescope/version.h"

#define MAX_FILES 8

struct payload {
	char *dir;
	size_t n;
	char *name[MAX_FILES];
	char hash[MAX_FILES][65];
};

static char *find_payload_dir(void)
{
	const char *env = getenv("IDLESCOPE_DEPLOY_DIR");
	char exe[PATH_MAX], *slash;
	struct stat st;
	if (env && env[0])
		return isc_xstrdup(env);
	if (!realpath("/proc/self/exe", exe) || !(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0';
	const char *tries[] = { "%s/deploy", "%s/../lib/idlescope/deploy" };
	for (size_t i = 0; i < 2; i++) {
		char *d = isc_xasprintf(tries[i], exe), *f = isc_xasprintf("%s/collect", d);
		bool ok = stat(f, &st) == 0 && S_ISREG(st.st_mode);
		free(f);
		if (ok)
			return d;
		free(d);
	}
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files to deploy and their SHA-256 (by the sha256sum program, as on the SUT). */
static int load_payload(struct payload *p)
{
	DIR *d;
	struct dirent *e;
	*p = (struct payload){ .dir = find_payload_dir() };
	if (!p->dir || !(d = opendir(p->dir))) {
		isc_err("no deployable collect found (build target collect-deploy puts it into deploy/ beside "
		       "collect; or set IDLESCOPE_DEPLOY_DIR)");
		return -1;
	}
	while ((e = readdir(d)) && p->n < MAX_FILES)
		if (e->d_name[0] != '.' && !strpbrk(e->d_name, "'\n "))
			p->name[p->n++] = isc_xstrdup(e->d_name);
	closedir(d);
	qsort(p->name, p->n, sizeof(p->name[0]), cmp_str);
	for (size_t i = 0; i < p->n; i++) {
		char *qd = sh_quote(p->dir);
		char *cmd = isc_xasprintf("cd %s && sha256sum -- '%s'", qd, p->name[i]);
		FILE *f = popen(cmd, "r");
		free(cmd);
		free(qd);
		int ok = f && fscanf(f, "%64s", p->hash[i]) == 1 && strlen(p->hash[i]) == 64;
		if (f)
			ok = pclose(f) == 0 && ok;
		if (!ok) {
			isc_err("%s/%s: cannot compute its SHA-256 (sha256sum)", p->dir, p->name[i]);
			return -1;
		}
	}
	return 0;
}

static void free_payload(struct payload *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->name[i]);
	free(p->dir);
}

int remote_payload_hash(const char *name, char **hash)
{
	struct payload p;
	int rc = load_payload(&p);
	*hash = NULL;
	for (size_t i = 0; rc == 0 && i < p.n && !*hash; i++)
		if (!strcmp(p.name[i], name))
			*hash = isc_xstrdup(p.hash[i]);
	free_payload(&p);
	return *hash ? 0 : -1;
}

/* "uname -m" on the first line, then sha256sum lines of what is deployed (the SUT's directory
 * checked first, as by every command). */
static int probe(const struct remote_opts *ro, const char *host, const struct payload *p,
		 char *arch, size_t archlen, bool *same)
{
	char *names = isc_xstrdup(""), *out, *err, why[400];
	for (size_t i = 0; i < p->n; i++) {
		char *t = isc_xasprintf("%s '%s'", names, p->name[i]);
		free(names);
		names = t;
	}
	char *body = isc_xasprintf("uname -m; cd \"$isv\" 2>/dev/null && sha256sum --%s 2>/dev/null; exit 0", names);
	char *cmd = remote_shell_probe(ro, body);
	int rc = ssh_run(ro, host, cmd, NULL, 0, &out, &err);
	free(cmd);
	free(body);
	free(names);
	if (rc) {
		if (rc == 255)
			ssh_explain(err, why, sizeof(why));
		else
			last_line(err, why, sizeof(why));
		remote_err(host, "%s", why);
		free(out);
		free(err);
		return -1;
	}
	size_t n = strcspn(out, "\n");
	snprintf(arch, archlen, "%.*s", (int)n, out);
	*same = true;
	for (size_t i = 0; i < p->n; i++) {
		char *line = isc_xasprintf("%s  %s\n", p->hash[i], p->name[i]);
		if (!strstr(out, line))
			*same = false;
		free(line);
	}
	free(out);
	free(err);
	return 0;
}

/* Each file into a new temporary file (mktemp: O_EXCL, in the private directory), checked, then
 * renamed over the old one (a rename replaces a name, it follows no symlink). */
static int upload(const struct remote_opts *ro, const char *host, const struct payload *p)
{
	for (size_t i = 0; i < p->n; i++) {
		char *path = isc_xasprintf("%s/%s", p->dir, p->name[i]), rerr[300], why[400];
		size_t len;
		char *data = isc_read_regular_file(path, 256u << 20, &len, rerr, sizeof(rerr));
		free(path);
		if (!data) {
			isc_err("%s", rerr);
			return -1;
		}
		char *body = isc_xasprintf("mkdir -p \"$isv\" && t=$(mktemp \"$isv/.%s.XXXXXX\") && { cat >\"$t\" && "
					  "h=$(sha256sum <\"$t\") && [ \"${h%%%% *}\" = %s ] && chmod 755 \"$t\" && "
					  "mv -f -- \"$t\" \"$isv/%s\" || { rm -f -- \"$t\"; exit 1; }; }",
					  p->name[i], p->hash[i], p->name[i]);
		char *cmd = remote_shell(ro, body), *out, *err;
		int rc = ssh_run(ro, host, cmd, data, len, &out, &err);
		free(cmd);
		free(body);
		free(data);
		if (rc) {
			if (rc == 255)
				ssh_explain(err, why, sizeof(why));
			else if (strstr(err, "No space left"))
				snprintf(why, sizeof(why), "no space on the SUT for the deploy (%s)", p->name[i]);
			else
				snprintf(why, sizeof(why), "deploy of %s failed: %s", p->name[i],
					 err[0] ? (last_line(err, rerr, sizeof(rerr)), rerr) : "copy or hash check failed");
			remote_err(host, "%s", why);
		}
		free(out);
		free(err);
		if (rc)
			return -1;
	}
	return 0;
}

/* The copy on the SUT must start there (libc version, loader). */
static int try_run(const struct remote_opts *ro, const char *host, const char *hash)
{
	char *run = remote_collect(hash, false);
	char *body = isc_xasprintf("%s --help >/dev/null; isr=$?; rm -rf -- \"$isx\"; exit $isr", run);
	char *cmd = remote_shell(ro, body), *out, *err, why[300];
	free(run);
	free(body);
	int rc = ssh_run(ro, host, cmd, NULL, 0, &out, &err);
	if (rc) {
		last_line(err, why, sizeof(why));
		remote_err(host, "the deployed collect does not run on the SUT: %s", why[0] ? why : "no message");
	}
	free(cmd);
	free(out);
	free(err);
	return rc ? -1 : 0;
}

int remote_deploy(const struct remote_opts *ro, const char *host, bool verbose, char **collect_cmd)
{
	struct payload p;
	struct utsname u;
	char arch[64];
	bool same = false;
	int ret = 1;
	const char *hash = NULL;
	if (load_payload(&p) < 0 || probe(ro, host, &p, arch, sizeof(arch), &same) < 0)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		if (!strcmp(p.name[i], "collect"))
			hash = p.hash[i];
	if (!hash) {
		isc_err("%s: no collect among the deployable files", p.dir);
		goto out;
	}
	uname(&u);
	if (strcmp(arch, u.machine)) {
		char q[80];
		isc_quote_for_msg(arch, strlen(arch), q, sizeof(q));
		remote_err(host, "the SUT is %s; this collect is built for %s (build idlescope for %s to measure it)", q, u.machine, q);
		goto out;
	}
	if (!same && (upload(ro, host, &p) < 0 || try_run(ro, host, hash) < 0))
		goto out;
	if (verbose)
		isc_info("%s: %s collect %s in %s/collect-%s", host, same ? "already has" : "deployed", IDLESCOPE_VERSION,
			ro->remote_dir ? ro->remote_dir : "~/.cache/idlescope", IDLESCOPE_VERSION);
	ret = 0;
	if (collect_cmd)
		*collect_cmd = remote_collect(hash, true);
out:
	free_payload(&p);
	return ret;
}
