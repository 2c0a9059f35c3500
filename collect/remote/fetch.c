/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `collect --fetch -H HOST -o DIR`: after a lost connection the SUT keeps its copy of the run
 * (info.json `remote.sut_run_dir`). Its agent sends the copy whole into a temporary directory
 * beside DIR; every file of rows there must begin with what DIR already has (nothing received
 * is ever lost or changed), then the two directories are swapped, the old one removed, and only
 * then the SUT's copy is removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "collect.h"
#include "remote.h"
#include "text/util.h"

static const char *const row_files[] = { "datapoints.csv", "counters.csv" };
static const char *const run_files[] = { "datapoints.csv", "counters.csv", "info.json", ".info.json.tmp",
					 "info.yml", ".info.yml.tmp", "experiment.json", ".experiment.json.tmp" };

struct fetch {
	const char *host, *dir, *tmp;
};

/* DIR/info.json, or DIR/experiment.json for an experiment; its "remote" object. */
static cJSON *read_remote(const char *dir, cJSON **doc, const char **file)
{
	static const char *const names[] = { "info.json", "experiment.json" };
	char err[600];
	for (size_t i = 0; i < 2; i++) {
		char *p = isc_xasprintf("%s/%s", dir, names[i]);
		size_t len;
		char *text = isc_read_regular_file(p, 16u << 20, &len, err, sizeof(err));
		free(p);
		if (!text)
			continue;
		*file = names[i];
		*doc = cJSON_ParseWithLength(text, len);
		free(text);
		cJSON *r = cJSON_GetObjectItemCaseSensitive(*doc, "remote");
		return cJSON_IsObject(r) ? r : NULL;
	}
	*file = NULL;
	*doc = NULL;
	return NULL;
}

/* The SUT's run directory's last component, checked: it is looked up under the SUT's runs/. */
static char *sut_leaf(const char *host, const char *dir, const char *file, const cJSON *r)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(r, "host");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "sut_run_dir");
	const cJSON *kept = cJSON_GetObjectItemCaseSensitive(r, "sut_copy_kept");
	if (!cJSON_IsString(h) || !cJSON_IsString(p)) {
		isc_err("%s/%s: remote.host, remote.sut_run_dir: missing (not a remote run?)", dir, file);
		return NULL;
	}
	if (strcmp(h->valuestring, host)) {
		isc_err("%s/%s: remote.host: '%s' measured this run, not '%s'", dir, file, h->valuestring, host);
		return NULL;
	}
	if (!cJSON_IsTrue(kept)) {
		isc_err("%s/%s: remote.sut_copy_kept: false: nothing to fetch (the run %s)", dir, file,
		       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "fetched")) ? "was fetched already"
										: "arrived whole");
		return NULL;
	}
	const char *leaf = strrchr(p->valuestring, '/');
	leaf = leaf ? leaf + 1 : p->valuestring;
	if (!leaf[0] || leaf[0] == '.' || strpbrk(leaf, "\n'")) {
		isc_err("%s/%s: remote.sut_run_dir: '%s' is not a run directory of the SUT", dir, file, p->valuestring);
		return NULL;
	}
	return isc_xstrdup(leaf);
}

/* Is a's content the start of b's? 1 yes, 0 no, -1 a cannot be read; a missing a is empty. */
static int is_prefix(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb;
	char ba[65536], bb[65536];
	int ret = 1;
	if (!fa)
		return errno == ENOENT ? 1 : -1;
	if (!(fb = fopen(b, "rb"))) {
		fclose(fa);
		return 0;
	}
	for (;;) {
		size_t na = fread(ba, 1, sizeof(ba), fa);
		if (!na) {
			ret = ferror(fa) ? -1 : 1;
			break;
		}
		if (fread(bb, 1, na, fb) != na || memcmp(ba, bb, na)) {
			ret = 0;
			break;
		}
	}
	fclose(fa);
	fclose(fb);
	return ret;
}

/* Every row file of the local run (and of each run of an experiment) must begin the fetched
 * one; a local run subdirectory must be in the copy. */
static int check_dir(const struct fetch *f, const char *sub)
{
	for (size_t i = 0; i < 2; i++) {
		char *a = isc_xasprintf("%s%s%s/%s", f->dir, sub[0] ? "/" : "", sub, row_files[i]);
		char *b = isc_xasprintf("%s%s%s/%s", f->tmp, sub[0] ? "/" : "", sub, row_files[i]);
		int r = is_prefix(a, b);
		if (r < 0)
			isc_err("%s: %s", a, strerror(errno));
		else if (!r)
			isc_err("%s: the SUT's copy does not begin with the rows received here; nothing changed, "
			       "the SUT keeps its copy", a);
		free(a);
		free(b);
		if (r <= 0)
			return -1;
	}
	return 0;
}

static int check_all(const struct fetch *f)
{
	DIR *d = opendir(f->dir);
	struct dirent *e;
	int rc = check_dir(f, "");
	if (!d)
		return -1;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		char *p = isc_xasprintf("%s/%s", f->dir, e->d_name);
		if (e->d_name[0] != '.' && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rc = check_dir(f, e->d_name);
		free(p);
	}
	closedir(d);
	return rc;
}

/* Only the files collect writes, then the directory (left if anything else is in it). */
static void remove_run_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		struct stat st;
		char *p = isc_xasprintf("%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++) {
				char *q = isc_xasprintf("%s/%s", p, run_files[i]);
				unlink(q);
				free(q);
			}
			rmdir(p);
		}
		free(p);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++) {
		char *q = isc_xasprintf("%s/%s", dir, run_files[i]);
		unlink(q);
		free(q);
	}
	rmdir(dir);
}

/* The copy is complete here: check it, swap it with DIR (one rename), remove the old DIR. */
static int commit(void *arg, struct host_result *res)
{
	const struct fetch *f = arg;
	(void)res;
	if (check_all(f) < 0)
		return -1;
	if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->dir, RENAME_EXCHANGE) < 0) {
		remote_err(f->host, "%s: cannot put the fetched copy in place: %s; nothing changed, the SUT "
			   "keeps its copy", f->dir, strerror(errno));
		return -1;
	}
	remove_run_files(f->tmp);   /* now the old, partial run */
	return 0;
}

int remote_fetch_host(const struct remote_opts *ro, const char *host, const char *dir, struct host_result *res)
{
	cJSON *doc;
	const char *file;
	char *collect = NULL, *leaf;
	*res = (struct host_result){ .status = "failed" };
	cJSON *r = read_remote(dir, &doc, &file);
	if (!file) {
		remote_err(host, "%s: no info.json or experiment.json (give the run's directory with -o)", dir);
		return ISC_EXIT_DATA;
	}
	leaf = r ? sut_leaf(host, dir, file, r) : NULL;
	if (!r)
		isc_err("%s/%s: remote: missing (not a remote run)", dir, file);
	cJSON_Delete(doc);
	if (!leaf) {
		snprintf(res->status, sizeof(res->status), "failed: nothing to fetch");
		return ISC_EXIT_DATA;
	}
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	char *tmp = isc_xasprintf("%.*s.fetch-%d", (int)n, dir, (int)getpid());
	struct fetch f = { .host = host, .dir = dir, .tmp = tmp };
	int status = ISC_EXIT_DATA;
	if (remote_deploy(ro, host, false, &collect) == 0) {
		char *qleaf = sh_quote(leaf);
		char *body = isc_xasprintf("%s --remote-agent-send \"$isbase/runs\"/%s", collect, qleaf);
		char *cmd = remote_shell(ro, body);
		status = remote_receive_fetch(ro, host, tmp, dir, cmd, commit, &f, res);
		free(cmd);
		free(body);
		free(qleaf);
		if (status == ISC_EXIT_OK && !ro->quiet)
			isc_info("%s: fetched %s into %s (%llu datapoints); the SUT's copy removed", host, leaf, dir,
				(unsigned long long)res->datapoints);
	} else {
		snprintf(res->status, sizeof(res->status), "failed: %.140s", remote_last_error);
	}
	if (status != ISC_EXIT_OK && access(tmp, F_OK) == 0)
		remove_run_files(tmp);   /* a fetch that failed leaves DIR as it was */
	free(collect);
	free(leaf);
	free(tmp);
	return status;
}
