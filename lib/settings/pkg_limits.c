/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The package C-state limit codes of MSR_PKG_CST_CONFIG_CONTROL (0xE2) per CPU model: the Xeons
 * use bits 2:0 with their own codes (7: no limit), the client cores bits 3:0 up to PC10. Models
 * are Intel family 6 (the SDM's model tables, as pepc verified them); any other model, or a
 * cpuinfo without one, gets the client codes, as idlescope always gave.
 */
#include "settings/settings_internal.h"

static const struct st_pkg_limits client = {
	"client cores", 0xf, { "PC0", "PC2", "PC3", "PC6", "PC7", "PC7S", "PC8", "PC9", "PC10" } };
static const struct st_pkg_limits skx = {
	"Skylake-X to Emerald Rapids, Ivy Bridge-EP, Xeon Phi", 0x7,
	{ "PC0", "PC2", "PC6N", "PC6R", [7] = "unlimited" } };
static const struct st_pkg_limits icx = { "Ice Lake-X/D", 0x7, { "PC0", "PC2", "PC6", [7] = "unlimited" } };
static const struct st_pkg_limits hsx = {
	"Haswell-X, Broadwell-X", 0x7, { "PC0", "PC2", "PC3", "PC6", [7] = "unlimited" } };
static const struct st_pkg_limits bdwd = { "Broadwell-D", 0xf, { "PC0", "PC2", "PC3", "PC6" } };

static const struct {
	int model;
	const struct st_pkg_limits *t;
} models[] = {
	{ 0xCF, &skx }, { 0x8F, &skx }, { 0x55, &skx }, { 0x85, &skx }, { 0x57, &skx }, { 0x3E, &skx },
	{ 0x6A, &icx }, { 0x6C, &icx }, { 0x4F, &hsx }, { 0x3F, &hsx }, { 0x56, &bdwd }, { 0x47, &bdwd },
};

const struct st_pkg_limits *st_pkg_limits(const struct isc_settings *s)
{
	int family, model;
	if (st_cpu_model(s, &family, &model) == 0 && family == 6)
		for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
			if (models[i].model == model)
				return models[i].t;
	return &client;
}
