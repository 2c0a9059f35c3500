/* SPDX-License-Identifier: GPL-2.0-only */
/* Each method's declaration of its inputs (design variables); every other column is an
 * outcome. */
#include <string.h>

#include "run/col_roles.h"

/* The columns every delayed-event method sets rather than measures: the launch distance
 * (drawn by the collector), the silent time (the launch distance less the way into idle)
 * and the launch time. */
#define DELAYED_EVENT_INPUTS { "LDist", "SilentTime", "LTime", NULL }

static const struct method_inputs {
	const char *tool;        /* toolname in info: "idlescope" or "wult" */
	const char *method;      /* info.json "method" (idlescope) or info.yml "devid" (wult) */
	const char *inputs[6];
} methods[] = {
	{ "idlescope", "timer", DELAYED_EVENT_INPUTS },
	{ "idlescope", "bpf", DELAYED_EVENT_INPUTS },
	{ "idlescope", "hrt", DELAYED_EVENT_INPUTS },
	{ "idlescope", "tdt", DELAYED_EVENT_INPUTS },
	/* wult's devids: its eBPF hrtimer method, the TSC deadline timer, the NIC methods */
	{ "wult", "hrt", DELAYED_EVENT_INPUTS },
	{ "wult", "hrtimer", DELAYED_EVENT_INPUTS },
	{ "wult", "tdt", DELAYED_EVENT_INPUTS },
	{ "wult", "nic", DELAYED_EVENT_INPUTS },
	{ "wult", "i210", DELAYED_EVENT_INPUTS },
};

/* Any run whose method is not known (a bare datapoints.csv, a future method) still has the
 * columns of the delayed-event design under the same names: they mean the same there. */
static const char *const default_inputs[] = DELAYED_EVENT_INPUTS;

static const struct method_inputs *find_method(const struct isc_run *r)
{
	const char *tool = r->toolname ? r->toolname : "";
	const char *name = isc_run_info_str(r, !strcmp(tool, "wult") ? "devid" : "method");
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		size_t len = strlen(methods[i].method);
		/* wult's NIC devids carry the PCI address: "i210@0000:01:00.0" */
		if (!strcmp(tool, methods[i].tool) && !strncmp(name, methods[i].method, len) &&
		    (name[len] == '\0' || name[len] == '@'))
			return &methods[i];
	}
	return NULL;
}

enum isc_col_role isc_col_role(const struct isc_run *r, const char *col)
{
	const struct method_inputs *m = find_method(r);
	const char *const *in = m ? m->inputs : default_inputs;
	for (size_t i = 0; in[i]; i++)
		if (!strcmp(in[i], col))
			return ISC_ROLE_INPUT;
	return ISC_ROLE_OUTCOME;
}
