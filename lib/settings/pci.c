/* SPDX-License-Identifier: GPL-2.0-only */
/* PCIe ASPM: the kernel's policy, and L1 of one device's link (aspm@BDF). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/util.h"
#include "settings/settings_internal.h"

#define POLICY "/sys/module/pcie_aspm/parameters/policy"

static int policy_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	(void)name;
	char *p = st_path(s, POLICY);
	int ok = st_exists(p);
	if (!ok)
		snprintf(why, len, "%s missing (kernel without PCIe ASPM support)", p);
	free(p);
	return ok ? 0 : -1;
}

/* "[default] performance powersave" -> "default" */
static char *policy_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)name, (void)cpu;
	char *p = st_path(s, POLICY), *v = st_read(p), *out = NULL;
	char *a = v ? strchr(v, '[') : NULL, *b = a ? strchr(a, ']') : NULL;
	if (a && b)
		out = isc_xstrndup(a + 1, (size_t)(b - a - 1));
	else if (v && *v && !strchr(v, ' '))
		out = isc_xstrdup(v);   /* a fixture file holds what was written */
	free(p);
	free(v);
	return out;
}

static void policy_accepts(struct isc_settings *s, const char *name, char *buf, size_t len)
{
	(void)s, (void)name;
	snprintf(buf, len, "default, performance, powersave, powersupersave");
}

/* The kernel refuses every policy change when the firmware keeps ASPM (ACPI FADT) or with
 * pcie_aspm=off, and says so nowhere but in the write's EPERM: the probe (probe.c) writes the
 * value in force back, which changes nothing (in a fixture tree: the file's whole text). A user
 * other than root learns it when the run, as root, checks again. */
static int policy_probe(struct isc_settings *s, const char *path)
{
	if (geteuid() != 0 && !*s->sysroot)
		return st_probe_file(s, path);
	char *cur = *s->sysroot ? st_read(path) : policy_read(s, "aspm", -1);
	int r = cur ? st_write_plain(path, cur) : -1;
	if (r < 0) {
		char *why = isc_xasprintf("the kernel refuses changes here (writing the policy in force, '%s', back to %s: "
					  "%s; firmware-controlled ASPM or pcie_aspm=off)", cur ? cur : "?", path,
					  strerror(errno));
		free(s->probe_why);   /* the first refusal counts: this is the first */
		s->probe_why = why;
	}
	free(cur);
	return r < 0 ? -1 : st_probe_file(s, path);
}

static int policy_check(struct isc_settings *s, const char *name, const char *value, char *why, size_t len)
{
	(void)name;
	char *p = st_path(s, POLICY), *v = st_read(p);
	static const char *const ok[] = { "default", "performance", "powersave", "powersupersave" };
	bool known = false;
	for (size_t i = 0; i < 4; i++)
		known = known || !strcmp(value, ok[i]);
	char *br = isc_xasprintf("[%s]", value);
	/* A fixture file that was written holds one word, not the kernel's list: any policy goes. */
	bool offered = v && (st_word_in(v, value) || st_word_in(v, br) || !strchr(v, ' '));
	free(br);
	free(p);
	free(v);
	if (known && offered)
		return 0;
	snprintf(why, len, known ? "this kernel does not offer it" : "not an ASPM policy");
	return -1;
}

static int policy_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	char *p = st_path(s, POLICY), *old = policy_read(s, name, cpu);
	int r = s->probing ? policy_probe(s, p) : st_write_changed(s, name, p, old, value, err, len);
	free(old);
	free(p);
	return r;
}

/* aspm@BDF: /sys/bus/pci/devices/BDF/link/l1_aspm (1 on, 0 off). */
static char *l1_path(struct isc_settings *s, const char *name)
{
	const char *bdf = strchr(name, '@') + 1;
	if (!*bdf || strchr(bdf, '/') || !strcmp(bdf, ".") || !strcmp(bdf, ".."))
		return NULL;
	return st_path(s, "/sys/bus/pci/devices/%s/link/l1_aspm", bdf);
}

static int l1_have(struct isc_settings *s, const char *name, char *why, size_t len)
{
	char *p = l1_path(s, name);
	int ok = p && st_exists(p);
	if (!strcmp(name, "aspm@"))
		snprintf(why, len, "no PCI device under %s/sys/bus/pci/devices has link/l1_aspm", s->sysroot);
	else if (!ok)
		snprintf(why, len, p ? "%s missing (no such PCI device, or its link has no ASPM L1 control)"
				     : "'%s' is not a PCI address (aspm@0000:00:1f.0)", p ? p : name);
	free(p);
	return ok ? 0 : -1;
}

static char *l1_read(struct isc_settings *s, const char *name, int cpu)
{
	(void)cpu;
	uint64_t v;
	char *p = l1_path(s, name);
	int r = p ? st_read_u64(p, &v) : -1;
	free(p);
	return r < 0 ? NULL : isc_xstrdup(v ? "on" : "off");
}

static int l1_write(struct isc_settings *s, const char *name, const char *value, int cpu, char *err, size_t len)
{
	char *p = l1_path(s, name), *old = p ? st_read(p) : NULL;
	const char *want = strcmp(value, "on") ? "0" : "1";
	(void)cpu;
	/* an unreadable file is named without its path */
	int r = st_write_changed(s, name, old ? p : "the device's l1_aspm", old, want, err, len);
	free(old);
	free(p);
	return r;
}

const struct st_def st_pci_defs[] = {
	{ "aspm", ST_SYSTEM, "default, performance, powersave, powersupersave", policy_have, policy_read,
	  policy_accepts, policy_check, policy_write },
	{ "aspm@", ST_PCI, "on, off", l1_have, l1_read, st_onoff_accepts, st_onoff_check, l1_write },
	{ 0 },
};
