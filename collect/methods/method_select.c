/* SPDX-License-Identifier: GPL-2.0-only */
/* Which method measures: the one asked for, or auto = hrt (module loaded) > bpf > timer. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "text/util.h"

static const struct method_ops *const methods[] = { &method_hrt, &method_tdt, &method_bpf, &method_timer };
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

const struct method_ops *collect_find_method(const char *name)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (!strcmp(methods[i]->name, name))
			return methods[i];
	return NULL;
}

/* The kernel module is loaded when its device or its /sys/module entry exists. */
static bool kmod_loaded(void)
{
	return access("/sys/module/idlescope", F_OK) == 0 || access("/dev/idlescope", F_OK) == 0;
}

static const struct method_ops *select_auto(const struct collect_cfg *cfg, char *why_chosen, size_t len)
{
	char why_hrt[256] = "the idlescope kernel module is not loaded", why_bpf[256];
	if (kmod_loaded() && method_hrt.probe(cfg, why_hrt, sizeof(why_hrt)) == 0) {
		snprintf(why_chosen, len, "auto: the idlescope kernel module is loaded");
		return &method_hrt;
	}
	if (method_bpf.probe(cfg, why_bpf, sizeof(why_bpf)) == 0) {
		snprintf(why_chosen, len, "auto: hrt unavailable (%s)", why_hrt);
		return &method_bpf;
	}
	char why_timer[256];
	if (method_timer.probe(cfg, why_timer, sizeof(why_timer)) == 0) {
		snprintf(why_chosen, len, "auto: hrt unavailable (%s); bpf unavailable (%s)", why_hrt, why_bpf);
		return &method_timer;
	}
	isc_err("no method can run here: hrt: %s; bpf: %s; timer: %s", why_hrt, why_bpf, why_timer);
	return NULL;
}

const struct method_ops *collect_select_method(const char *name, const struct collect_cfg *cfg,
					       char *why_chosen, size_t len)
{
	const struct method_ops *m;
	char why[512];
	if (!strcmp(name, "auto")) {
		m = select_auto(cfg, why_chosen, len);
		if (m && !cfg->quiet)
			isc_info("using method %s (%s)", m->name, why_chosen);
		return m;
	}
	m = collect_find_method(name);
	if (!m) {
		char q[64];
		isc_quote_for_msg(name, strlen(name), q, sizeof(q));
		isc_err("--method '%s': unknown method; choose auto, hrt, tdt, bpf or timer", q);
		return NULL;
	}
	if (m->probe(cfg, why, sizeof(why)) < 0) {
		isc_err("method %s cannot run here: %s", m->name, why);
		return NULL;
	}
	snprintf(why_chosen, len, "asked for with --method %s", m->name);
	return m;
}
