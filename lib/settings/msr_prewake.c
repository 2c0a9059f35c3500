/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cstate-prewake: C-state pre-wake, MSR_POWER_CTL (0x1FC) bit 30, which disables it when set
 * (as pepc's cstate_prewake). Offered on the Intel server models where it is known to work
 * (pepc's list: family 6, Ivy Bridge-EP to Granite Rapids); elsewhere the bit may be
 * reserved or without effect.
 */
#include <string.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define MSR_POWER_CTL 0x1FC
#define PREWAKE_DISABLE (1ull << 30)

/* Family 6 models: Ivy Bridge-EP, Haswell-X, Broadwell-X, Skylake-X, Ice Lake-X, Ice Lake-D,
 * Sapphire Rapids, Emerald Rapids, Granite Rapids-X, Granite Rapids-D. */
static const int prewake_models[] = { 0x3E, 0x3F, 0x4F, 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE };

static int pw_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	int family, model;
	if (st_intel_msr_have(s, MSR_POWER_CTL, why, len) < 0)
		return -1;
	if (st_cpu_model(s, &family, &model) < 0) {
		snprintf(why, len, "the CPU model is unknown (no 'cpu family' and 'model' in /proc/cpuinfo)");
		return -1;
	}
	for (size_t i = 0; family == 6 && i < sizeof(prewake_models) / sizeof(prewake_models[0]); i++)
		if (model == prewake_models[i])
			return 0;
	snprintf(why, len, "not a CPU known to have it (family %d model 0x%X; server cores from Ivy Bridge-EP "
		 "to Granite Rapids have it)", family, model);
	return -1;
}

static char *pw_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name;
	uint64_t v;
	if (st_msr_read(s, cpu, MSR_POWER_CTL, &v) < 0)
		return NULL;
	return isc_xstrdup(v & PREWAKE_DISABLE ? "off" : "on");
}

static int pw_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	uint64_t bits = strcmp(value, "on") ? PREWAKE_DISABLE : 0;
	return st_msr_write(s, name, cpu, MSR_POWER_CTL, PREWAKE_DISABLE, bits, err, len);
}

const struct st_def st_prewake_defs[] = {
	{ "cstate-prewake", ST_CPU, "on, off", pw_have, pw_read, st_onoff_accepts, st_onoff_check, pw_write },
	{ 0 },
};
