/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Choosing the CPUs to read and a source for every counter: the first source in the
 * registry's order that works on the CPU that reads the counter. A counter no source
 * provides is left out and reported once, with the reasons.
 */
#include "counters/sample/counters_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/util.h"

/* IA32 PMU registers for the fixed counters and PMC0 (Intel SDM vol. 3B, ch. 20). */
#define MSR_FIXED_CTR_CTRL 0x38D
#define MSR_PERF_GLOBAL_CTRL 0x38F
#define MSR_PERFEVTSEL0 0x186
#define MSR_PMC0 0xC1
/* event 0x3C umask 0x01, USR, OS, AnyThread, EN */
#define EVTSEL_REF_XCLK_ANY (0x3Cull | 0x01ull << 8 | 1ull << 16 | 1ull << 17 | 1ull << 21 | 1ull << 22)

static int read_topology(const struct cnt_sys *sys, int cpu, const char *what)
{
	char p[128];
	uint64_t v;
	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	return cnt_read_u64(sys, p, &v) ? -1 : (int)v;
}

static int choose_cpus(struct cnt_set *s, const struct cnt_opts *o)
{
	char *online = cnt_read_text(&s->sys, "/sys/devices/system/cpu/online", 65536, NULL);
	int *on = NULL, *want = NULL;
	size_t non = 0, nwant = 0;
	int rc = 1;
	if (!online || cnt_parse_cpu_list(online, &on, &non)) {
		char *p = cnt_path(&s->sys, "/sys/devices/system/cpu/online");
		isc_err("%s: cannot read the online CPUs", p);
		free(p);
		goto out;
	}
	if (o->cpu_list) {
		if (cnt_parse_cpu_list(o->cpu_list, &want, &nwant)) {
			isc_err("--cpu: bad CPU list '%s' (expected e.g. 0-3,8)", o->cpu_list);
			rc = 2;
			goto out;
		}
		for (size_t i = 0; i < nwant; i++) {
			bool found = false;
			for (size_t j = 0; j < non; j++)
				found |= on[j] == want[i];
			if (!found) {
				isc_err("--cpu: CPU %d is not online (online: %s)", want[i],
				       strtok(online, "\n"));
				rc = 2;
				goto out;
			}
		}
	} else {
		want = on;
		nwant = non;
		on = NULL;
	}
	s->ncpus = nwant;
	s->cpus = isc_xcalloc(nwant, sizeof(*s->cpus));
	bool warned = false;
	for (size_t i = 0; i < nwant; i++) {
		struct cnt_cpu *c = &s->cpus[i];
		c->cpu = want[i];
		c->core = read_topology(&s->sys, c->cpu, "core_id");
		c->package = read_topology(&s->sys, c->cpu, "physical_package_id");
		if (c->core < 0 || c->package < 0) {
			if (!warned)
				isc_warn("no topology for CPU %d: each CPU counted as its own core", c->cpu);
			warned = true;
			c->core = c->cpu;
			c->package = c->package < 0 ? 0 : c->package;
		}
		c->msr.fd = -1;
	}
	rc = 0;
out:
	free(online);
	free(on);
	free(want);
	return rc;
}

/* First CPU of each core; the designated CPU of each package (package and system scope), and
 * of the lowest package, which reads machine-wide sources once. */
static int designate(struct cnt_set *s, const char *system_cpus)
{
	int *sys_cpu = NULL;
	size_t nsys = 0;
	if (system_cpus && cnt_parse_cpu_list(system_cpus, &sys_cpu, &nsys)) {
		isc_err("--system-cpu: bad CPU list '%s'", system_cpus);
		return 2;
	}
	for (size_t k = 0; k < nsys; k++) {
		struct cnt_cpu *c = NULL;
		for (size_t i = 0; i < s->ncpus; i++)
			if (s->cpus[i].cpu == sys_cpu[k])
				c = &s->cpus[i];
		if (!c) {
			isc_err("--system-cpu: CPU %d is not among the CPUs read", sys_cpu[k]);
			free(sys_cpu);
			return 2;
		}
		for (size_t i = 0; i < s->ncpus; i++)
			if (s->cpus[i].package == c->package && s->cpus[i].reads_package) {
				isc_err("--system-cpu: CPUs %d and %d are in the same package",
				       s->cpus[i].cpu, c->cpu);
				free(sys_cpu);
				return 2;
			}
		c->reads_package = true;
	}
	free(sys_cpu);
	for (size_t i = 0; i < s->ncpus; i++) {
		struct cnt_cpu *c = &s->cpus[i];
		bool core_seen = false, pkg_seen = false;
		for (size_t j = 0; j < s->ncpus; j++) {
			const struct cnt_cpu *o = &s->cpus[j];
			core_seen |= j < i && o->package == c->package && o->core == c->core;
			pkg_seen |= o->package == c->package && o->reads_package;
		}
		c->reads_core = !core_seen;
		if (!pkg_seen)
			c->reads_package = true;
	}
	struct cnt_cpu *best = NULL;
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].reads_package && (!best || s->cpus[i].package < best->package))
			best = &s->cpus[i];
	best->reads_machine = true;
	return 0;
}

/* Whether CPU c reads counters of this scope. */
static bool cpu_reads(const struct cnt_cpu *c, enum cnt_scope scope)
{
	switch (scope) {
	case CNT_THREAD: return true;
	case CNT_CORE: return c->reads_core;
	case CNT_PACKAGE:
	case CNT_SYSTEM: return c->reads_package;
	}
	return false;
}

bool cnt_col_reads(const struct cnt_col *col, const struct cnt_cpu *c)
{
	return col->machine_wide ? c->reads_machine : cpu_reads(c, col->scope);
}

/* A system-scope counter whose source gives the same value on every CPU is read once: the
 * /proc/stat ctxt line, a sysfs path without "%d". */
static bool is_machine_wide(const struct cnt_col *col)
{
	if (col->scope != CNT_SYSTEM)
		return false;
	if (col->src.type == SRC_PROCSTAT)
		return !strcmp(col->src.field, "ctxt");
	return col->src.type == SRC_SYSFS && !strstr(col->src.field, "%d");
}

/* Read col on every CPU that should read it, noting the CPUs where it fails. Returns how many
 * read it; why: the first failure's reason. */
static size_t probe_readers(struct cnt_set *s, const struct cnt_procfs *pf, struct cnt_col *col, char *why,
			    size_t len)
{
	size_t ok = 0;
	bool failed = false;
	snprintf(why, len, "no CPU reads it");
	for (size_t i = 0; i < s->ncpus; i++) {
		uint64_t v;
		if (!cnt_col_reads(col, &s->cpus[i]))
			continue;
		errno = 0;
		if (cnt_read_one(s, pf, col, i, &v)) {
			ok++;
			continue;
		}
		col->fail_errno[i] = errno > 0 ? errno : EIO;
		if (!failed)
			cnt_unreadable_why(s, col, i, why, len);
		failed = true;
	}
	return ok;
}

static const char *vendor_name(unsigned v)
{
	return v == CNT_INTEL ? "GenuineIntel" : "AuthenticAMD";
}

/* An MSR source of this CPU's vendor, usable if at least one CPU that should read it can. */
static int try_msr(struct cnt_set *s, const struct cnt_procfs *pf, struct cnt_col *col, char *why, size_t len)
{
	const struct cnt_src *src = &col->src;
	if (src->vendor != CNT_ANY && strcmp(s->vendor, vendor_name(src->vendor))) {
		snprintf(why, len, "MSR 0x%X is %s only (this CPU: %s)", src->msr,
			 src->vendor == CNT_INTEL ? "Intel" : "AMD", s->vendor);
		return -1;
	}
	return probe_readers(s, pf, col, why, len) ? 0 : -1;
}

static int try_perf(struct cnt_set *s, struct cnt_col *col, char *why, size_t len)
{
	struct perf_event_attr attr;
	if (cnt_perf_attr(&s->sys, &col->src, &attr, &col->scale, why, len))
		return -1;
	col->perf_fd = isc_xmalloc(s->ncpus * sizeof(int));
	size_t opened = 0;
	int first_err = 0, first_cpu = -1;
	for (size_t i = 0; i < s->ncpus; i++) {
		col->perf_fd[i] = -1;
		if (!cnt_col_reads(col, &s->cpus[i]))
			continue;
		col->perf_fd[i] = cnt_perf_open(&attr, s->cpus[i].cpu);
		if (col->perf_fd[i] >= 0) {
			opened++;
			continue;
		}
		col->fail_errno[i] = errno > 0 ? errno : EIO;
		if (!first_err) {
			first_err = errno;
			first_cpu = s->cpus[i].cpu;
		}
	}
	if (opened)
		return 0;
	char d[96];
	snprintf(why, len, "%s: perf_event_open on CPU %d: %s", cnt_perf_desc(&col->src, d, sizeof(d)),
		 first_cpu, strerror(first_err));
	free(col->perf_fd);
	col->perf_fd = NULL;
	return -1;
}

static int try_procfs(struct cnt_set *s, const struct cnt_procfs *pf, struct cnt_col *col, char *why,
		      size_t len)
{
	const char *file = col->src.type == SRC_INTERRUPTS ? "/proc/interrupts" : "/proc/stat";
	bool file_ok = col->src.type == SRC_INTERRUPTS ? pf->irq_ok : pf->stat_ok;
	if (!file_ok) {
		char *p = cnt_path(&s->sys, file);
		snprintf(why, len, "%s not readable", p);
		free(p);
		return -1;
	}
	return probe_readers(s, pf, col, why, len) ? 0 : -1;
}

static void add_missing(struct cnt_set *s, const char *what, const char *reason)
{
	s->missing = isc_xrealloc(s->missing, (s->nmissing + 1) * sizeof(*s->missing));
	s->missing[s->nmissing].group = isc_xstrdup(what);
	s->missing[s->nmissing].reason = isc_xstrdup(reason);
	s->nmissing++;
}

static struct cnt_col *new_col(struct cnt_set *s, const struct cnt_def *def)
{
	s->cols = isc_xrealloc(s->cols, (s->ncols + 1) * sizeof(*s->cols));
	struct cnt_col *c = &s->cols[s->ncols];
	memset(c, 0, sizeof(*c));
	c->name = isc_xstrdup(def->name);
	c->scope = def->scope;
	c->kind = def->kind;
	c->unit = isc_xstrdup(def->unit);
	c->group = isc_xstrdup(def->group);
	c->fail_errno = isc_xcalloc(s->ncpus, sizeof(int));
	return c;
}

static void free_col(struct cnt_col *c)
{
	free(c->name);
	free(c->unit);
	free(c->group);
	free(c->source_desc);
	free(c->path);
	free(c->perf_fd);
	free(c->fail_errno);
}

/* Pick a source for def; returns true when one works, else fills why with every reason. */
static bool choose_source(struct cnt_set *s, const struct cnt_procfs *pf, const struct cnt_def *def,
			  char *why, size_t len)
{
	struct cnt_col *col = new_col(s, def);
	size_t used = 0;
	why[0] = '\0';
	for (int k = 0; k < CNT_MAX_SRC && def->src[k].type != SRC_NONE; k++) {
		char r[256] = "";
		col->src = def->src[k];
		col->machine_wide = is_machine_wide(col);
		memset(col->fail_errno, 0, s->ncpus * sizeof(int));
		int rc = -1;
		switch (col->src.type) {
		case SRC_PERF:
			rc = try_perf(s, col, r, sizeof(r));
			if (!rc) {
				char d[96];
				col->source_desc = isc_xstrdup(cnt_perf_desc(&col->src, d, sizeof(d)));
			}
			break;
		case SRC_RDTSC:
			rc = s->sys.rdtsc ? 0 : -1;
			snprintf(r, sizeof(r), "rdtsc off (%s)", s->sys.perf ? "not x86" : "--sysroot");
			if (!rc)
				col->source_desc = isc_xstrdup("rdtsc");
			break;
		case SRC_MSR:
			rc = try_msr(s, pf, col, r, sizeof(r));
			if (!rc)
				col->source_desc = isc_xasprintf("msr 0x%X", col->src.msr);
			break;
		case SRC_INTERRUPTS:
		case SRC_PROCSTAT:
			rc = try_procfs(s, pf, col, r, sizeof(r));
			if (!rc)
				col->source_desc = isc_xasprintf("%s %s", col->src.type == SRC_INTERRUPTS ?
								"/proc/interrupts" : "/proc/stat", col->src.field);
			break;
		case SRC_SYSFS:
			free(col->path);
			col->path = isc_xstrdup(col->src.field);   /* the spec's string is freed */
			col->src.field = col->path;
			rc = probe_readers(s, pf, col, r, sizeof(r)) ? 0 : -1;
			if (!rc)
				col->source_desc = isc_xstrdup(col->src.field);
			break;
		default:
			break;
		}
		if (!rc) {
			s->ncols++;
			return true;
		}
		used += (size_t)snprintf(why + used, used < len ? len - used : 0, "%s%s", used ? "; " : "", r);
		if (used >= len)
			used = len - 1;
	}
	free_col(col);
	return false;
}

/* An invariant TSC is the same on every CPU, so rdtsc on any CPU stands for the TSC of the
 * CPU being read, without the inter-processor interrupt of a perf read. */
static const struct cnt_def *tsc_rdtsc_first(const struct cnt_def *def, struct cnt_def *copy)
{
	*copy = *def;
	for (int k = 1; k < CNT_MAX_SRC; k++)
		if (def->src[k].type == SRC_RDTSC) {
			copy->src[0] = def->src[k];
			copy->src[k] = def->src[0];
		}
	return copy;
}

/* Every registry counter; one missing report per group that is missing as a whole, else one
 * per missing counter. */
static void probe_registry(struct cnt_set *s, const struct cnt_procfs *pf, bool avoid_ipi)
{
	char (*why)[512] = isc_xcalloc(cnt_registry_len, sizeof(*why));
	bool *ok = isc_xcalloc(cnt_registry_len, sizeof(bool));
	for (size_t i = 0; i < cnt_registry_len; i++) {
		if (!strcmp(cnt_registry[i].name, "REF_XCLK_ANY") && !s->anythread) {
			snprintf(why[i], sizeof(why[i]), "%s", s->anythread_why);
			continue;
		}
		struct cnt_def copy;
		const struct cnt_def *def = &cnt_registry[i];
		if (avoid_ipi && s->tsc_invariant && !strcmp(def->name, "TSC"))
			def = tsc_rdtsc_first(def, &copy);
		ok[i] = choose_source(s, pf, def, why[i], sizeof(why[i]));
	}
	for (size_t i = 0; i < cnt_registry_len; i++) {
		const char *g = cnt_registry[i].group;
		bool first = true, any_ok = false;
		for (size_t j = 0; j < cnt_registry_len; j++)
			if (!strcmp(cnt_registry[j].group, g)) {
				first &= j >= i;
				any_ok |= ok[j];
			}
		if (ok[i])
			continue;
		if (any_ok) {
			add_missing(s, cnt_registry[i].name, why[i]);
		} else if (first) {
			char names[512] = "";
			size_t n = 0;
			for (size_t j = 0; j < cnt_registry_len; j++)
				if (!strcmp(cnt_registry[j].group, g) && n < sizeof(names))
					n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
							      n ? ", " : "", cnt_registry[j].name);
			add_missing(s, names, why[i]);
		}
	}
	free(why);
	free(ok);
}

static char *sanitize_state_name(const char *name, size_t index)
{
	char *out = isc_xasprintf("%s%s", (name[0] >= '0' && name[0] <= '9') ? "_" : "", name);
	for (char *p = out; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	if (!*out) {
		free(out);
		out = isc_xasprintf("state%zu", index);
	}
	return out;
}

/* cpuidle sysfs: usage, time, above and below of every state of the first CPU read (the other
 * CPUs that lack one are noted as unreadable there). */
static void probe_cpuidle(struct cnt_set *s, const struct cnt_procfs *pf)
{
	static const char *const fields[] = { "usage", "time", "above", "below" };
	static const char *const units[] = { "count", "us", "count", "count" };
	int cpu = s->cpus[0].cpu;
	char p[160];
	for (size_t st = 0;; st++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/name", cpu, st);
		char *name = cnt_read_text(&s->sys, p, 256, NULL);
		if (!name) {
			if (st == 0) {
				int e = errno;
				snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
				char *dir = cnt_path(&s->sys, p);
				snprintf(p, sizeof(p), "no cpuidle states (%.100s: %s)", dir, strerror(e));
				add_missing(s, "cpuidle", p);
				free(dir);
			}
			break;
		}
		name[strcspn(name, "\n")] = '\0';
		char *clean = sanitize_state_name(name, st);
		for (size_t j = 0; j < s->ncols; j++)
			if (s->cols[j].src.type == SRC_CPUIDLE && !strncmp(s->cols[j].name, clean, strlen(clean)) &&
			    s->cols[j].name[strlen(clean)] == '.') {
				char *c2 = isc_xasprintf("%s_%zu", clean, st);
				free(clean);
				clean = c2;
				break;
			}
		for (size_t f = 0; f < 4; f++) {
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/%s", cpu, st, fields[f]);
			uint64_t v;
			char *cname = isc_xasprintf("%s.%s", clean, fields[f]);
			if (cnt_read_u64(&s->sys, p, &v)) {
				char r[256];
				snprintf(r, sizeof(r), "%s: %s", p, strerror(errno));
				add_missing(s, cname, r);
				free(cname);
				continue;
			}
			struct cnt_def def = { .name = cname, .scope = CNT_THREAD, .kind = CNT_DELTA,
					       .unit = units[f], .group = "cpuidle" };
			struct cnt_col *c = new_col(s, &def);
			c->src = (struct cnt_src){ .type = SRC_CPUIDLE, .field = fields[f], .width = 64 };
			c->path = isc_xasprintf("state%zu", st);
			c->source_desc = isc_xasprintf("cpuidle state%zu/%s (%s)", st, fields[f], name);
			char why[320];
			(void)probe_readers(s, pf, c, why, sizeof(why));
			s->ncols++;
			free(cname);
		}
		s->nidle++;
		free(clean);
		free(name);
	}
}

static int probe_adds(struct cnt_set *s, const struct cnt_opts *o, const struct cnt_procfs *pf)
{
	for (size_t i = 0; i < o->nadds; i++) {
		struct cnt_def def;
		char *owned[2], err[256], why[512];
		if (cnt_parse_add(o->adds[i], &def, owned, err, sizeof(err))) {
			isc_err("--add %s", err);
			return 2;
		}
		for (size_t j = 0; j < s->ncols; j++)
			if (!strcmp(s->cols[j].name, def.name)) {
				isc_err("--add '%s': a counter named '%s' exists already", o->adds[i], def.name);
				free(owned[0]);
				free(owned[1]);
				return 2;
			}
		if (!choose_source(s, pf, &def, why, sizeof(why))) {
			add_missing(s, def.name, why);
			if (o->quiet)  /* asked for by name: said even with -q (the others are not) */
				isc_warn("%s unavailable: %s", def.name, why);
		}
		free(owned[0]);
		free(owned[1]);
	}
	return 0;
}

/* Fixed counters and PMC0 read through the msr device need enabling (perf does it itself). */
static void enable_msr_counters(struct cnt_set *s)
{
	uint64_t fixed = 0, global = 0;
	for (size_t j = 0; j < s->ncols; j++) {
		const struct cnt_col *c = &s->cols[j];
		if (c->src.type != SRC_MSR)
			continue;
		if (c->src.msr >= 0x309 && c->src.msr <= 0x30B) {
			fixed |= 0x3ull << (4 * (c->src.msr - 0x309));   /* OS + USR */
			global |= 1ull << (32 + c->src.msr - 0x309);
		} else if (c->src.msr == MSR_PMC0) {
			global |= 1;
		}
	}
	for (size_t i = 0; i < s->ncpus && (fixed || global); i++) {
		struct cnt_cpu *c = &s->cpus[i];
		uint64_t v;
		if (c->msr.fd < 0)
			continue;
		if (global & 1 && c->reads_core && cnt_msr_write(&c->msr, MSR_PERFEVTSEL0, EVTSEL_REF_XCLK_ANY))
			isc_warn("CPU %d: cannot program IA32_PERFEVTSEL0: %s", c->cpu, strerror(errno));
		if (fixed && !cnt_msr_read(&c->msr, MSR_FIXED_CTR_CTRL, &v) && (v & fixed) != fixed &&
		    cnt_msr_write(&c->msr, MSR_FIXED_CTR_CTRL, v | fixed))
			isc_warn("CPU %d: cannot enable the fixed counters: %s", c->cpu, strerror(errno));
		uint64_t g = global & ~(uint64_t)(c->reads_core ? 0 : 1);
		if (!cnt_msr_read(&c->msr, MSR_PERF_GLOBAL_CTRL, &v) && (v & g) != g &&
		    cnt_msr_write(&c->msr, MSR_PERF_GLOBAL_CTRL, v | g))
			isc_warn("CPU %d: cannot enable IA32_PERF_GLOBAL_CTRL: %s", c->cpu, strerror(errno));
	}
}

/* REF_XCLK_ANY needs AnyThread, and PMC0 must be free when we program it ourselves. */
static void check_anythread(struct cnt_set *s)
{
	for (size_t j = 0; j < s->ncols; j++) {
		struct cnt_col *c = &s->cols[j];
		if (strcmp(c->name, "REF_XCLK_ANY"))
			continue;
		const char *reason = s->anythread_why;
		char buf[160];
		if (!reason && c->src.type == SRC_MSR) {
			for (size_t i = 0; i < s->ncpus && !reason; i++) {
				uint64_t v;
				struct cnt_cpu *cpu = &s->cpus[i];
				if (cpu->reads_core && !cnt_msr_read(&cpu->msr, MSR_PERFEVTSEL0, &v) &&
				    (v & (1ull << 22)) && v != EVTSEL_REF_XCLK_ANY) {
					snprintf(buf, sizeof(buf), "IA32_PERFEVTSEL0 on CPU %d is in use (0x%llx)",
						 cpu->cpu, (unsigned long long)v);
					reason = buf;
				}
			}
		}
		if (!reason)
			return;
		add_missing(s, "REF_XCLK_ANY", reason);
		free_col(c);
		memmove(c, c + 1, (s->ncols - j - 1) * sizeof(*c));
		s->ncols--;
		return;
	}
}

int cnt_set_open(const struct cnt_opts *o, struct cnt_set **out)
{
	struct cnt_set *s = isc_xcalloc(1, sizeof(*s));
	s->quiet = o->quiet;
	s->sysroot = o->sysroot && *o->sysroot ? isc_xstrdup(o->sysroot) : NULL;
	for (size_t n = s->sysroot ? strlen(s->sysroot) : 0; n > 1 && s->sysroot[n - 1] == '/'; n--)
		s->sysroot[n - 1] = '\0';
	cnt_sys_init(&s->sys, s->sysroot);
	if (s->sysroot && access(s->sysroot, F_OK)) {
		isc_err("--sysroot %s: %s", s->sysroot, strerror(errno));
		cnt_set_close(s);
		return 2;
	}
	int rc = choose_cpus(s, o);
	if (!rc)
		rc = designate(s, o->system_cpus);
	if (rc) {
		cnt_set_close(s);
		return rc;
	}
	cnt_cpu_identify(&s->sys, s->vendor, sizeof(s->vendor), &s->family, &s->model);
	const char *why;
	s->tsc_invariant = cnt_tsc_invariant(&s->sys);
	s->anythread = cnt_anythread_supported(&s->sys, s->vendor, s->family, s->model, &why);
	s->anythread_why = why ? isc_xstrdup(why) : NULL;
	for (size_t i = 0; i < s->ncpus; i++)
		if (cnt_msr_open(&s->sys, s->cpus[i].cpu, &s->cpus[i].msr))
			s->cpus[i].msr_errno = errno;
	struct cnt_procfs pf;
	cnt_procfs_read(&s->sys, &pf, true, true);
	probe_registry(s, &pf, o->avoid_ipi);
	probe_cpuidle(s, &pf);
	rc = probe_adds(s, o, &pf);
	cnt_procfs_free(&pf);
	if (rc) {
		cnt_set_close(s);
		return rc;
	}
	check_anythread(s);
	enable_msr_counters(s);
	if (!o->quiet)
		for (size_t i = 0; i < s->nmissing; i++)
			isc_warn("%s unavailable: %s", s->missing[i].group, s->missing[i].reason);
	cnt_warn_partial(s);
	if (!s->ncols) {
		isc_err("no counter can be read on this system");
		cnt_set_close(s);
		return 1;
	}
	s->migrate = true;
	s->values = isc_xcalloc(s->ncpus * s->ncols, sizeof(uint64_t));
	s->have = isc_xcalloc(s->ncpus * s->ncols, 1);
	s->times_ns = isc_xcalloc(s->ncpus, sizeof(uint64_t));
	*out = s;
	return 0;
}

void cnt_set_close(struct cnt_set *s)
{
	if (!s)
		return;
	for (size_t j = 0; j < s->ncols; j++) {
		if (s->cols[j].perf_fd)
			for (size_t i = 0; i < s->ncpus; i++)
				if (s->cols[j].perf_fd[i] >= 0)
					close(s->cols[j].perf_fd[i]);
		free_col(&s->cols[j]);
	}
	for (size_t i = 0; i < s->ncpus; i++)
		cnt_msr_close(&s->cpus[i].msr);
	for (size_t i = 0; i < s->nmissing; i++) {
		free(s->missing[i].group);
		free(s->missing[i].reason);
	}
	free(s->missing);
	free(s->cols);
	free(s->cpus);
	free(s->values);
	free(s->have);
	free(s->times_ns);
	free(s->anythread_why);
	free(s->sysroot);
	free(s);
}
