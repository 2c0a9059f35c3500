/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU identity and the model facts the formulas need: AnyThread support, the REF_XCLK
 * scaling k of McCalpin's Hyper-Threading split, the bus clock, the DRAM energy unit.
 * Model numbers: Intel SDM vol. 4 tables and turbostat's model switch.
 */
#include "counters/sample/counters_cpuid.h"
#include "counters/sample/counters_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "text/util.h"

void cnt_cpu_identify(const struct cnt_sys *sys, char *vendor, size_t vlen, int *family, int *model)
{
	snprintf(vendor, vlen, "unknown");
	*family = *model = -1;
	char *text = cnt_read_text(sys, "/proc/cpuinfo", 16u << 20, NULL);
	if (!text)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		const char *val = colon + 1 + (colon[1] == ' ');
		if (!strncmp(line, "vendor_id", 9))
			snprintf(vendor, vlen, "%s", val);
		else if (!strncmp(line, "cpu family", 10))
			*family = atoi(val);
		else if (!strncmp(line, "model", 5) && line[5 + strspn(line + 5, " \t")] == ':')
			*model = atoi(val);
		else if (!strncmp(line, "processor", 9) && *family >= 0)
			break;   /* the first CPU is enough */
	}
	free(text);
}

bool cnt_tsc_invariant(const struct cnt_sys *sys)
{
	char *text = cnt_read_text(sys, "/proc/cpuinfo", 16u << 20, NULL);
	bool inv = false;
	if (text) {
		char *flags = strstr(text, "\nflags");
		char *eol = flags ? strchr(flags + 1, '\n') : NULL;
		if (eol)
			*eol = '\0';
		inv = flags && strstr(flags, " constant_tsc") && strstr(flags, " nonstop_tsc");
	}
	free(text);
	return inv;
}

static bool in_list(int model, const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == model)
			return true;
	return false;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
static const int nehalem_westmere[] = { 0x1A, 0x1E, 0x1F, 0x2E, 0x25, 0x2C, 0x2F };
static const int snb_to_bdw[] = { 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45, 0x46,
				  0x3D, 0x47, 0x4F, 0x56 };
static const int skylake_on[] = { 0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5, 0xA6, 0x66 };
/* Ice Lake and newer: AnyThread deprecated (CPUID.0AH:EDX[15]). */
static const int no_anythread[] = { 0x7D, 0x7E, 0x6A, 0x6C, 0x8C, 0x8D, 0xA7, 0x97, 0x9A,
				    0xB7, 0xBA, 0xBF, 0x8F, 0xCF, 0xAA, 0xAC, 0xC5, 0xC6,
				    0xBD, 0xAD, 0xAE, 0xAF, 0x86, 0x96, 0x9C, 0xB6, 0xDD };
/* Server parts whose DRAM RAPL domain counts in 15.3 uJ, whatever 0x606 says (turbostat). */
static const int dram_15_3uj[] = { 0x3F, 0x4F, 0x56, 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0x57, 0x85 };

static bool intel6(const char *vendor, int family)
{
	return !strcmp(vendor, "GenuineIntel") && family == 6;
}

bool cnt_anythread_supported(const struct cnt_sys *sys, const char *vendor, int family, int model,
			     const char **why)
{
	if (!intel6(vendor, family)) {
		*why = "AnyThread counting is an Intel (family 6) PMU feature; this CPU has none";
		return false;
	}
	if (in_list(model, no_anythread, N(no_anythread))) {
		*why = "AnyThread is deprecated on Ice Lake and newer: no Hyper-Threading split";
		return false;
	}
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!*sys->root && __get_cpuid(0xA, &a, &b, &c, &d)) {
		if ((a & 0xff) < 3) {
			*why = "architectural PMU version < 3: no AnyThread";
			return false;
		}
		if (d & (1u << 15)) {
			*why = "CPUID.0AH:EDX[15]: AnyThread deprecated on this CPU";
			return false;
		}
	}
#else
	(void)sys;
#endif
	*why = NULL;
	return true;
}

double cnt_ref_xclk_k(const char *vendor, int family, int model, double base_ratio, const char **why)
{
	*why = NULL;
	if (!intel6(vendor, family)) {
		*why = "not an Intel family 6 CPU";
		return NAN;
	}
	if (in_list(model, nehalem_westmere, N(nehalem_westmere)))
		return 1;
	if (!(base_ratio > 0)) {
		*why = "no base ratio (PLATFORM_INFO) for the REF_XCLK scaling";
		return NAN;
	}
	if (in_list(model, snb_to_bdw, N(snb_to_bdw)))
		return base_ratio;
	if (in_list(model, skylake_on, N(skylake_on)) || in_list(model, no_anythread, N(no_anythread)))
		return 4 * base_ratio;
	*why = "unknown CPU model for the REF_XCLK scaling";
	return NAN;
}

double cnt_bclk_mhz(const char *vendor, int family, int model)
{
	if (intel6(vendor, family) && in_list(model, nehalem_westmere, N(nehalem_westmere)))
		return 400.0 / 3.0;
	return 100.0;
}

double cnt_dram_unit_j(const char *vendor, int family, int model, double rapl_unit_j)
{
	if (intel6(vendor, family) && in_list(model, dram_15_3uj, N(dram_15_3uj)))
		return 15.3e-6;
	return rapl_unit_j;
}
