/* SPDX-License-Identifier: GPL-2.0-only */
/* Host key checking decided from ssh's effective configuration (`ssh -G`: ssh_config, --ssh-config,
 * --ssh-opt, Match blocks, every spelling ssh accepts), not from how an option is written: what
 * matters is whether ssh would log in to a host whose key is not the known one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"
#include "text/util.h"

/* The value of keyword (lower case, as ssh -G prints it) in conf, into buf ("" if absent). */
static void conf_value(const char *conf, const char *keyword, char *buf, size_t len)
{
	size_t k = strlen(keyword);
	buf[0] = '\0';
	for (const char *l = conf; *l; ) {
		size_t n = strcspn(l, "\n");
		if (n > k && !strncmp(l, keyword, k) && l[k] == ' ') {
			size_t v = n - k - 1 < len - 1 ? n - k - 1 : len - 1;
			memcpy(buf, l + k + 1, v);
			buf[v] = '\0';
			return;
		}
		l += n + (l[n] ? 1 : 0);
	}
}

/* Why this configuration lets ssh log in past an unknown or changed host key; NULL if it does not. */
static const char *weakness(const char *conf)
{
	char strict[64], user_files[1024];
	conf_value(conf, "stricthostkeychecking", strict, sizeof(strict));
	conf_value(conf, "userknownhostsfile", user_files, sizeof(user_files));
	if (!strcmp(strict, "false"))
		return "StrictHostKeyChecking is off (ssh would log in to a host whose key changed)";
	/* accept-new records a new key in the first file; /dev/null remembers nothing, so every
	 * connection is a first contact and any key is accepted */
	if (!strcmp(strict, "accept-new") && (!strcmp(user_files, "/dev/null") || !strncmp(user_files, "/dev/null ", 10)))
		return "StrictHostKeyChecking accept-new with UserKnownHostsFile /dev/null (every key would be "
		       "accepted as new)";
	return NULL;
}

static int check_dest(const struct remote_opts *ro, const char *host, const char *dest, int depth);

/* Each jump host of ProxyJump ("[ssh://][user@]host[:port],..."): ssh logs in to it too. */
static int check_jumps(const struct remote_opts *ro, const char *host, const char *jumps, int depth)
{
	char *list = isc_xstrdup(jumps), *save = NULL;
	int ret = 0;
	for (char *j = strtok_r(list, ",", &save); j && !ret; j = strtok_r(NULL, ",", &save)) {
		if (!strncmp(j, "ssh://", 6))
			j += 6;
		char *colon = strrchr(j, ':');
		if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1))
			*colon = '\0';
		ret = check_dest(ro, host, j, depth + 1);
	}
	free(list);
	return ret;
}

static int check_dest(const struct remote_opts *ro, const char *host, const char *dest, int depth)
{
	char *out, *err, why[400], jumps[1024];
	const char *via = strcmp(host, dest) ? " (ProxyJump " : "", *via_end = via[0] ? ")" : "";
	if (depth > 4) {
		isc_err("%s: ProxyJump nested more than 4 deep: refused", host);
		return 2;
	}
	int rc = ssh_run(ro, dest, NULL, NULL, 0, &out, &err), ret = 0;
	const char *weak = rc ? NULL : weakness(out);
	if (rc) {
		last_line(err, why, sizeof(why));
		isc_err("%s: ssh -G%s%s%s (ssh's configuration for it) failed: %s", host, via, via[0] ? dest : "", via_end,
		       why[0] ? why : "no message");
		ret = 2;
	} else if (weak) {
		isc_err("%s: %s%s%s%s: refused; collect does not turn host key checking off (add the SUT's key to "
		       "known_hosts, or use StrictHostKeyChecking=accept-new with a real known_hosts for a first "
		       "contact)", host, weak, via, via[0] ? dest : "", via_end);
		ret = 2;
	} else {
		conf_value(out, "proxyjump", jumps, sizeof(jumps));
		if (jumps[0] && strcmp(jumps, "none"))
			ret = check_jumps(ro, host, jumps, depth);
	}
	free(out);
	free(err);
	return ret;
}

int ssh_check_host_keys(const struct remote_opts *ro, const char *host)
{
	return check_dest(ro, host, host, 0);
}
