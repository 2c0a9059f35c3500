/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU model facts the formulas need, by vendor, family and model (counters_cpuid.c). */
#ifndef IDLESCOPE_COUNTERS_CPUID_H
#define IDLESCOPE_COUNTERS_CPUID_H

/* Model facts NAN with *why when unknown. */
double cnt_ref_xclk_k(const char *vendor, int family, int model, double base_ratio, const char **why);
double cnt_bclk_mhz(const char *vendor, int family, int model);
double cnt_dram_unit_j(const char *vendor, int family, int model, double rapl_unit_j);

#endif
