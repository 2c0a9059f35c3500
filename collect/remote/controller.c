/* SPDX-License-Identifier: GPL-2.0-only */
/* `collect -H HOST ...`: one host, a fleet, --deploy only, or the settings of each host. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "remote.h"
#include "text/util.h"

static void on_stop(int sig)
{
	(void)sig;
	if (remote_stop < 100)
		remote_stop++;
}

static void install(void)
{
	struct sigaction sa = { .sa_handler = on_stop };   /* no SA_RESTART: waits see EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int deploy_all(const struct remote_opts *ro)
{
	int status = ISC_EXIT_OK;
	for (size_t i = 0; i < ro->nhosts && !remote_stop; i++)
		if (remote_deploy(ro, ro->hosts[i], true, NULL) || remote_deploy_kmod(ro, ro->hosts[i]))
			status = ISC_EXIT_DATA;
	return status;
}

int remote_main(int argc, char **argv)
{
	struct remote_opts ro;
	int rc = remote_parse(argc, argv, &ro);
	if (rc) {
		remote_opts_free(&ro);
		return rc == 1 ? ISC_EXIT_OK : ISC_EXIT_USAGE;
	}
	install();
	if (ro.deploy_only) {
		rc = deploy_all(&ro);
	} else if (ro.settings_mode) {
		rc = remote_settings(&ro);
	} else if (ro.nhosts == 1 && ro.fetch) {
		struct host_result res;
		rc = remote_fetch_host(&ro, ro.hosts[0], ro.outdir, &res);
	} else if (ro.nhosts == 1) {
		struct host_result res;
		char *def = ro.outdir ? NULL : isc_run_name(ro.hosts[0], ro.method);
		rc = remote_run_host(&ro, ro.hosts[0], ro.outdir ? ro.outdir : def, true, &res);
		free(def);
	} else {
		rc = remote_fleet(&ro);
	}
	remote_opts_free(&ro);
	return rc;
}
