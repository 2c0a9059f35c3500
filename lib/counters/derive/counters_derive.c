/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * turbostat's columns and the seed formulas from counter deltas (docs/counters.md):
 * Avg_MHz, Busy%, Bzy_MHz, TSC_MHz (turbostat), Halted% (Intel, "Measuring the Halted
 * State"), IPC, cpuidle counts and residency, CPU%cN with c1 as the remainder, Pkg%pcN,
 * RAPL Watts or Joules, added counters and --metric formulas. Percentages that come out
 * of 0..100 (read skew) are clamped, and counted so that the caller can say so.
 */
#include "counters/derive/counters_derive_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

enum dcol_id {
	D_AVG_MHZ, D_BUSY, D_BZY_MHZ, D_TSC_MHZ, D_IPC, D_IRQ, D_NMI, D_SMI,
	D_IDLE_USAGE, D_IDLE_PCT, D_IDLE_BELOW, D_IDLE_ABOVE,
	D_C1, D_CN, D_HALTED, D_OS_BUSY, D_PC, D_PKG_E, D_COR_E, D_RAM_E, D_ADDED, D_METRIC,
};

struct dcol {
	enum dcol_id id;
	int a;                 /* counter column (or metric index) */
	bool clamp;
};

/* Counter column indices, -1 when counters.csv lacks them. */
struct ctx {
	const struct cnt_data *d;
	const struct cnt_derive_opts *o;
	int tsc, aperf, mperf, smi, inst, cyc, ref, any, c1, cn[3], pc[7], raplu, pkge, pp0e, coree,
	    drame, pinfo, irq, nmi, stat[8];
	double bclk;
	size_t n;
	struct dcol *dc;
};

const char *const cnt_ht_cols[CNT_HT_NCOLS] = { "HT_Idle%", "HT0_Only%", "HT1_Only%", "HT_Both%" };
static const char *const cn_names[3] = { "CORE_C3_RES", "CORE_C6_RES", "CORE_C7_RES" };
static const char *const cn_cols[3] = { "CPU%c3", "CPU%c6", "CPU%c7" };
static const char *const pc_names[7] = { "PKG_C2_RES", "PKG_C3_RES", "PKG_C6_RES", "PKG_C7_RES",
					 "PKG_C8_RES", "PKG_C9_RES", "PKG_C10_RES" };
static const char *const pc_cols[7] = { "Pkg%pc2", "Pkg%pc3", "Pkg%pc6", "Pkg%pc7", "Pkg%pc8",
					"Pkg%pc9", "Pkg%pc10" };
static const char *const stat_names[8] = { "STAT_USER", "STAT_NICE", "STAT_SYSTEM", "STAT_IDLE",
					   "STAT_IOWAIT", "STAT_IRQ", "STAT_SOFTIRQ", "STAT_STEAL" };

static int col_index(const struct cnt_data *d, const char *name)
{
	const struct cnt_colinfo *ci = cnt_data_col(d, name);
	return ci ? (int)(ci - d->ci) : -1;
}

static void find_columns(struct ctx *c)
{
	const struct cnt_data *d = c->d;
	c->tsc = col_index(d, "TSC");
	c->aperf = col_index(d, "APERF");
	c->mperf = col_index(d, "MPERF");
	c->smi = col_index(d, "SMI_COUNT");
	c->inst = col_index(d, "INST_RETIRED");
	c->cyc = col_index(d, "CPU_CLK_UNHALTED");
	c->ref = col_index(d, "REF_UNHALTED");
	c->any = col_index(d, "REF_XCLK_ANY");
	c->c1 = col_index(d, "CORE_C1_RES");
	for (int i = 0; i < 3; i++)
		c->cn[i] = col_index(d, cn_names[i]);
	for (int i = 0; i < 7; i++)
		c->pc[i] = col_index(d, pc_names[i]);
	for (int i = 0; i < 8; i++)
		c->stat[i] = col_index(d, stat_names[i]);
	c->raplu = col_index(d, "RAPL_POWER_UNIT");
	c->pkge = col_index(d, "PKG_ENERGY");
	c->pp0e = col_index(d, "PP0_ENERGY");
	c->coree = col_index(d, "CORE_ENERGY");
	c->drame = col_index(d, "DRAM_ENERGY");
	c->pinfo = col_index(d, "PLATFORM_INFO");
	c->irq = col_index(d, "IRQ");
	c->nmi = col_index(d, "NMI");
	c->bclk = cnt_bclk_mhz(d->vendor, d->family, d->model);
}

static void add(struct ctx *c, struct cnt_result *r, const char *name, enum dcol_id id, int a,
		enum cnt_agg agg, int prec, bool clamp)
{
	r->cols = isc_xrealloc(r->cols, (r->ncols + 1) * sizeof(char *));
	r->agg = isc_xrealloc(r->agg, (r->ncols + 1) * sizeof(*r->agg));
	r->prec = isc_xrealloc(r->prec, (r->ncols + 1) * sizeof(int));
	c->dc = isc_xrealloc(c->dc, (r->ncols + 1) * sizeof(*c->dc));
	r->cols[r->ncols] = isc_xstrdup(name);
	r->agg[r->ncols] = agg;
	r->prec[r->ncols] = prec;
	c->dc[r->ncols] = (struct dcol){ id, a, clamp };
	r->ncols++;
}

static void note(struct cnt_result *r, const char *col, const char *needs)
{
	r->notes = isc_xrealloc(r->notes, (r->nnotes + 1) * sizeof(char *));
	r->notes[r->nnotes++] = isc_xasprintf("%s (needs %s)", col, needs);
}

static void add_or_note(struct ctx *c, struct cnt_result *r, bool ok, const char *name, enum dcol_id id,
			int a, enum cnt_agg agg, int prec, bool clamp, const char *needs)
{
	if (ok)
		add(c, r, name, id, a, agg, prec, clamp);
	else
		note(r, name, needs);
}

/* cpuidle columns "<state>.<field>": one derived column per state and field. */
static void plan_cpuidle(struct ctx *c, struct cnt_result *r)
{
	static const char *const fields[] = { "usage", "time", "below", "above" };
	/* as turbostat names them: "below" is C1+, "above" is C1- */
	static const char *const suffix[] = { "", "%", "+", "-" };
	static const enum dcol_id ids[] = { D_IDLE_USAGE, D_IDLE_PCT, D_IDLE_BELOW, D_IDLE_ABOVE };
	for (int f = 0; f < 4; f++)
		for (size_t j = 0; j < c->d->ncols; j++) {
			const char *n = c->d->ci[j].name, *dot = strrchr(n, '.');
			if (!dot || strcmp(dot + 1, fields[f]) || cnt_registry_find(n))
				continue;
			char *name = isc_xasprintf("%.*s%s", (int)(dot - n), n, suffix[f]);
			add(c, r, name, ids[f], (int)j, f == 1 ? CNT_AGG_AVG : CNT_AGG_SUM, f == 1 ? 2 : 0, f == 1);
			free(name);
		}
}

static bool is_cpuidle_col(const char *n)
{
	const char *dot = strrchr(n, '.');
	return dot && (!strcmp(dot, ".usage") || !strcmp(dot, ".time") || !strcmp(dot, ".above") ||
		       !strcmp(dot, ".below"));
}

static void plan(struct ctx *c, struct cnt_result *r)
{
	const struct cnt_derive_opts *o = c->o;
	bool tsc = c->tsc >= 0, ap = c->aperf >= 0, mp = c->mperf >= 0;
	add_or_note(c, r, ap, "Avg_MHz", D_AVG_MHZ, 0, CNT_AGG_AVG, 0, false, "APERF");
	add_or_note(c, r, mp && tsc, "Busy%", D_BUSY, 0, CNT_AGG_AVG, 2, true, "MPERF and TSC");
	add_or_note(c, r, ap && mp && (tsc || c->pinfo >= 0), "Bzy_MHz", D_BZY_MHZ, 0, CNT_AGG_AVG, 0, false,
		    "APERF, MPERF and PLATFORM_INFO or TSC");
	add_or_note(c, r, tsc, "TSC_MHz", D_TSC_MHZ, 0, CNT_AGG_AVG, 0, false, "TSC");
	add_or_note(c, r, c->inst >= 0 && (c->cyc >= 0 || ap), "IPC", D_IPC, 0, CNT_AGG_AVG, 2, false,
		    "INST_RETIRED and CPU_CLK_UNHALTED or APERF");
	add_or_note(c, r, c->irq >= 0, "IRQ", D_IRQ, 0, CNT_AGG_SUM, 0, false, "/proc/interrupts");
	add_or_note(c, r, c->nmi >= 0, "NMI", D_NMI, 0, CNT_AGG_SUM, 0, false, "/proc/interrupts NMI");
	add_or_note(c, r, c->smi >= 0, "SMI", D_SMI, 0, CNT_AGG_SUM, 0, false, "SMI_COUNT");
	plan_cpuidle(c, r);
	add_or_note(c, r, tsc && (c->c1 >= 0 || mp), "CPU%c1", D_C1, 0, CNT_AGG_AVG, 2, true,
		    "CORE_C1_RES, or MPERF and TSC");
	for (int i = 0; i < 3; i++)
		add_or_note(c, r, tsc && c->cn[i] >= 0, cn_cols[i], D_CN, c->cn[i], CNT_AGG_AVG, 2, true,
			    cn_names[i]);
	add_or_note(c, r, tsc && (c->ref >= 0 || mp), "Halted%", D_HALTED, 0, CNT_AGG_AVG, 2, true,
		    "TSC and REF_UNHALTED or MPERF");
	bool stat = true;
	for (int i = 0; i < 8; i++)
		stat &= c->stat[i] >= 0;
	add_or_note(c, r, stat, "OS_Busy%", D_OS_BUSY, 0, CNT_AGG_AVG, 2, true, "/proc/stat");
	for (int i = 0; i < 7; i++)
		add_or_note(c, r, tsc && c->pc[i] >= 0, pc_cols[i], D_PC, c->pc[i], CNT_AGG_AVG, 2, true,
			    pc_names[i]);
	add_or_note(c, r, c->pkge >= 0, o->joules ? "Pkg_J" : "PkgWatt", D_PKG_E, c->pkge, CNT_AGG_SUM, 2,
		    false, "PKG_ENERGY");
	int cor = c->pp0e >= 0 ? c->pp0e : c->coree;
	add_or_note(c, r, cor >= 0, o->joules ? "Cor_J" : "CorWatt", D_COR_E, cor, CNT_AGG_SUM, 2, false,
		    "PP0_ENERGY or CORE_ENERGY");
	add_or_note(c, r, c->drame >= 0, o->joules ? "RAM_J" : "RAMWatt", D_RAM_E, c->drame, CNT_AGG_SUM, 2,
		    false, "DRAM_ENERGY");
	for (size_t j = 0; j < c->d->ncols; j++) {
		const struct cnt_colinfo *ci = &c->d->ci[j];
		if (cnt_registry_find(ci->name) || is_cpuidle_col(ci->name))
			continue;
		add(c, r, ci->name, D_ADDED, (int)j, ci->kind == CNT_DELTA ? CNT_AGG_SUM : CNT_AGG_AVG,
		    ci->kind == CNT_PERCENT ? 2 : 0, false);
	}
	for (size_t m = 0; m < o->nmetrics; m++)
		add(c, r, o->metrics[m].name, D_METRIC, (int)m, CNT_AGG_AVG, -1, false);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static double at(const double *v, int col)
{
	return col >= 0 ? v[col] : NAN;
}

static double energy_unit(const struct ctx *c, const struct cnt_cpu_delta *cd, int col, bool dram)
{
	double scale = c->d->ci[col].scale;
	if (scale > 0)
		return scale;
	double u = at(cd->all, c->raplu);
	if (isnan(u))
		return NAN;
	double unit = ldexp(1, -(int)(((uint64_t)u >> 8) & 0x1f));
	return dram ? cnt_dram_unit_j(c->d->vendor, c->d->family, c->d->model, unit) : unit;
}

static double energy(const struct ctx *c, const struct cnt_cpu_delta *cd, int col, bool dram)
{
	double j = at(cd->own, col) * energy_unit(c, cd, col, dram);
	return c->o->joules ? j : ratio(j, cd->dt);
}

static double c1_value(const struct ctx *c, const struct cnt_cpu_delta *cd)
{
	double tsc = at(cd->own, c->tsc);
	if (c->c1 >= 0)
		return 100 * ratio(at(cd->own, c->c1), tsc);
	double rest = tsc - at(cd->own, c->mperf);
	for (int i = 0; i < 3; i++)   /* a C-state the run has but this core lacks: no remainder */
		if (c->cn[i] >= 0)
			rest -= cd->all[c->cn[i]];
	return 100 * ratio(rest, tsc);
}

static double value(const struct ctx *c, const struct dcol *dc, const struct cnt_cpu_delta *cd)
{
	const double *own = cd->own;
	double tsc = at(own, c->tsc), dt = cd->dt;
	switch (dc->id) {
	case D_AVG_MHZ: return ratio(at(own, c->aperf), dt) / 1e6;
	case D_BUSY: return 100 * ratio(at(own, c->mperf), tsc);
	case D_BZY_MHZ: {
		double pinfo = at(cd->all, c->pinfo);
		double base = !isnan(pinfo) && ((uint64_t)pinfo >> 8 & 0xff) ?
			      (double)((uint64_t)pinfo >> 8 & 0xff) * c->bclk : ratio(tsc, dt) / 1e6;
		return base * ratio(at(own, c->aperf), at(own, c->mperf));
	}
	case D_TSC_MHZ: return ratio(tsc, dt) / 1e6;
	case D_IPC:   /* turbostat divides by APERF, which counts the same unhalted cycles */
		return ratio(at(own, c->inst), at(own, c->cyc >= 0 ? c->cyc : c->aperf));
	case D_IRQ: return at(own, c->irq);
	case D_NMI: return at(own, c->nmi);
	case D_SMI: return at(own, c->smi);
	case D_IDLE_USAGE:
	case D_IDLE_BELOW:
	case D_IDLE_ABOVE: return own[dc->a];
	case D_IDLE_PCT: return 100 * ratio(own[dc->a], dt * 1e6);
	case D_C1: return c1_value(c, cd);
	case D_CN:
	case D_PC: return 100 * ratio(own[dc->a], tsc);
	case D_HALTED: {
		double ref = c->ref >= 0 ? at(own, c->ref) : at(own, c->mperf);
		return 100 * (1 - ratio(ref, tsc));
	}
	case D_OS_BUSY: {
		double total = 0;
		for (int i = 0; i < 8; i++)
			total += own[c->stat[i]];
		return 100 * ratio(total - own[c->stat[3]] - own[c->stat[4]], total);
	}
	case D_PKG_E:
	case D_COR_E: return energy(c, cd, dc->a, false);
	case D_RAM_E: return energy(c, cd, dc->a, true);
	case D_ADDED:
		if (c->d->ci[dc->a].kind == CNT_PERCENT)
			return 100 * ratio(own[dc->a], at(cd->all, c->tsc));
		return own[dc->a];
	case D_METRIC: return cnt_metric_eval(&c->o->metrics[dc->a], cd->all, dt);
	}
	return NAN;
}

static double clamp(struct cnt_result *r, size_t col, double v)
{
	if (isnan(v) || (v >= 0 && v <= 100))
		return v;
	double far = v < 0 ? -v : v - 100;
	if (!r->clamped[col]++ || far > fabs(r->clamp_worst[col] < 0 ? -r->clamp_worst[col] :
					      r->clamp_worst[col] - 100))
		r->clamp_worst[col] = v;
	return v < 0 ? 0 : 100;
}

/* The summary row: averages or sums over the CPU rows; metrics over the summed deltas. */
static void summarize(struct ctx *c, struct cnt_result *r, struct cnt_out_interval *iv,
		      const struct cnt_cpu_delta *cd, size_t n)
{
	iv->summary = isc_xmalloc(r->ncols * sizeof(double));
	double *tot = isc_xmalloc((c->d->ncols ? c->d->ncols : 1) * sizeof(double)), dt = 0;
	for (size_t j = 0; j < c->d->ncols; j++) {
		tot[j] = NAN;
		for (size_t i = 0; i < n; i++) {
			double v = cd[i].own[j];
			if (isnan(v))
				continue;
			if (c->d->ci[j].kind == CNT_RAW) {
				tot[j] = v;
				break;
			}
			tot[j] = isnan(tot[j]) ? v : tot[j] + v;
		}
	}
	size_t ndt = 0;  /* CPUs whose every step was left out have no dt */
	for (size_t i = 0; i < n; i++)
		ndt += !isnan(cd[i].dt);
	for (size_t i = 0; i < n; i++)
		if (!isnan(cd[i].dt))
			dt += cd[i].dt / (double)ndt;
	for (size_t k = 0; k < r->ncols; k++) {
		if (c->dc[k].id == D_METRIC) {
			iv->summary[k] = cnt_metric_eval(&c->o->metrics[c->dc[k].a], tot, dt);
			continue;
		}
		double s = 0;
		size_t cnt = 0;
		for (size_t i = 0; i < iv->ncpus; i++)
			if (!isnan(iv->cpus[i].v[k])) {
				s += iv->cpus[i].v[k];
				cnt++;
			}
		iv->summary[k] = !cnt ? NAN : r->agg[k] == CNT_AGG_SUM ? s : s / (double)cnt;
	}
	free(tot);
}

/* McCalpin's four-way split per two-thread core, as % of the first thread's TSC delta. */
static void ht_split(struct ctx *c, struct cnt_result *r, struct cnt_out_interval *iv,
		     const struct cnt_cpu_delta *cd, size_t n)
{
	iv->cores = isc_xcalloc(n ? n : 1, sizeof(*iv->cores));
	for (size_t i = 0; i < n; i++) {
		size_t other = SIZE_MAX, nsib = 0;
		bool first = true;
		for (size_t k = 0; k < n; k++)
			if (cd[k].package == cd[i].package && cd[k].core == cd[i].core && k != i) {
				nsib++;
				other = k;
				first &= cd[k].cpu > cd[i].cpu;
			}
		if (!first || nsib != 1)
			continue;
		const struct cnt_cpu_delta *t0 = &cd[i], *t1 = &cd[other];
		double a = isnan(at(t0->own, c->any)) ? at(t1->own, c->any) : at(t0->own, c->any);
		double ka = r->ht_k * a, tsc = at(t0->own, c->tsc);
		double r0 = at(t0->own, c->ref), r1 = at(t1->own, c->ref);
		double v[CNT_HT_NCOLS] = { tsc - ka, ka - r1, ka - r0, r0 + r1 - ka };
		struct cnt_out_core *oc = &iv->cores[iv->ncores++];
		*oc = (struct cnt_out_core){ t0->package, t0->core, t0->cpu, t1->cpu, { 0 } };
		for (int h = 0; h < CNT_HT_NCOLS; h++) {
			double p = 100 * ratio(v[h], tsc);
			if (!isnan(p) && (p < 0 || p > 100)) {
				double far = p < 0 ? -p : p - 100;
				double worst = r->ht_worst[h];
				if (!r->ht_clamped[h]++ || far > (worst < 0 ? -worst : worst - 100))
					r->ht_worst[h] = p;
				p = p < 0 ? 0 : 100;
			}
			oc->ht[h] = p;
		}
	}
}

static void ht_plan(struct ctx *c, struct cnt_result *r)
{
	const struct cnt_data *d = c->d;
	r->ht = false;
	if (c->any < 0 || c->ref < 0 || c->tsc < 0) {
		snprintf(r->ht_why, sizeof(r->ht_why), "needs REF_XCLK_ANY, REF_UNHALTED and TSC in counters.csv");
		return;
	}
	double ratio_ = NAN;
	if (c->pinfo >= 0)
		for (size_t row = 0; row < d->t->nrows && isnan(ratio_); row++)
			if (!isnan(d->ci[c->pinfo].v[row]))
				ratio_ = (double)((uint64_t)d->ci[c->pinfo].v[row] >> 8 & 0xff);
	const char *why;
	r->ht_k = cnt_ref_xclk_k(d->vendor, d->family, d->model, ratio_, &why);
	if (isnan(r->ht_k)) {
		snprintf(r->ht_why, sizeof(r->ht_why), "%s", why);
		return;
	}
	r->ht = true;
}

/* % of the interval /proc/stat saw the CPU run code: idle, iowait and steal left out (a
 * stolen tick is busy to the OS while the core may sit idle). NaN without /proc/stat. */
static double os_ran(const struct ctx *c, const double *own)
{
	double total = 0;
	for (int i = 0; i < 8; i++) {
		if (c->stat[i] < 0)
			return NAN;
		total += own[c->stat[i]];
	}
	return 100 * ratio(total - own[c->stat[3]] - own[c->stat[4]] - own[c->stat[7]], total);
}

/* The facts of CPU i's interval for the plausibility checks (counters_checks.c). */
static void check_cpu(const struct ctx *c, struct cnt_result *r, const struct cnt_cpu_delta *cd,
		      const double *v, size_t iv)
{
	const double *own = cd->own;
	double tsc = at(own, c->tsc), cn = NAN;
	for (int i = 0; i < 3; i++)
		if (!isnan(at(own, c->cn[i])))
			cn = (isnan(cn) ? 0 : cn) + 100 * ratio(own[c->cn[i]], tsc);
	int bzy = cnt_result_col(r, "Bzy_MHz"), avg = cnt_result_col(r, "Avg_MHz");
	struct cnt_row_facts f = {
		.cpu = cd->cpu, .iv = iv, .dt = cd->dt, .tsc = tsc,
		.aperf = at(own, c->aperf), .mperf = at(own, c->mperf), .os_busy = os_ran(c, own),
		.busy = 100 * ratio(at(own, c->mperf), tsc), .c1 = 100 * ratio(at(own, c->c1), tsc),
		.cn = cn, .bzy_mhz = bzy >= 0 ? v[bzy] : NAN, .avg_mhz = avg >= 0 ? v[avg] : NAN,
	};
	cnt_check_row(r, &f);
}

static void derive_interval(struct ctx *c, struct cnt_result *r, size_t s0, size_t s1)
{
	struct cnt_out_interval *iv = &r->iv[r->niv++];
	size_t n;
	struct cnt_cpu_delta *cd = cnt_deltas(c->d, s0, s1, &n);
	double t_first = c->d->time[0];
	iv->t0 = c->d->time[c->d->snap_first[s0]] - t_first;
	iv->t1 = c->d->time[c->d->snap_first[s1]] - t_first;
	iv->ncpus = n;
	iv->cpus = isc_xcalloc(n ? n : 1, sizeof(*iv->cpus));
	for (size_t i = 0; i < n; i++) {
		struct cnt_out_row *row = &iv->cpus[i];
		row->cpu = cd[i].cpu;
		row->core = cd[i].core;
		row->package = cd[i].package;
		row->v = isc_xmalloc((r->ncols ? r->ncols : 1) * sizeof(double));
		for (size_t k = 0; k < r->ncols; k++) {
			double v = value(c, &c->dc[k], &cd[i]);
			row->v[k] = c->dc[k].clamp ? clamp(r, k, v) : v;
		}
		check_cpu(c, r, &cd[i], row->v, r->niv);
	}
	summarize(c, r, iv, cd, n);
	if (r->ht)
		ht_split(c, r, iv, cd, n);
	cnt_deltas_free(cd, n);
}

int cnt_derive(const struct cnt_data *d, const struct cnt_derive_opts *o, struct cnt_result *r)
{
	memset(r, 0, sizeof(*r));
	if (d->nsnaps < 2) {
		isc_err("%s: %zu snapshot%s; at least two are needed for an interval", d->csv_path, d->nsnaps,
		       d->nsnaps == 1 ? "" : "s");
		return -1;
	}
	struct ctx c = { .d = d, .o = o };
	find_columns(&c);
	plan(&c, r);
	ht_plan(&c, r);
	r->clamped = isc_xcalloc(r->ncols ? r->ncols : 1, sizeof(size_t));
	r->clamp_worst = isc_xcalloc(r->ncols ? r->ncols : 1, sizeof(double));
	size_t niv = o->whole_run ? 1 : d->nsnaps - 1;
	r->iv = isc_xcalloc(niv, sizeof(*r->iv));
	if (o->whole_run)
		derive_interval(&c, r, 0, d->nsnaps - 1);
	else
		for (size_t s = 0; s + 1 < d->nsnaps; s++)
			derive_interval(&c, r, s, s + 1);
	free(c.dc);
	return 0;
}

void cnt_result_free(struct cnt_result *r)
{
	for (size_t i = 0; i < r->niv; i++) {
		for (size_t k = 0; k < r->iv[i].ncpus; k++)
			free(r->iv[i].cpus[k].v);
		free(r->iv[i].cpus);
		free(r->iv[i].cores);
		free(r->iv[i].summary);
	}
	free(r->iv);
	for (size_t k = 0; k < r->ncols; k++)
		free(r->cols[k]);
	free(r->cols);
	free(r->agg);
	free(r->prec);
	free(r->clamped);
	free(r->clamp_worst);
	for (size_t k = 0; k < r->nnotes; k++)
		free(r->notes[k]);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

int cnt_result_col(const struct cnt_result *r, const char *name)
{
	for (size_t k = 0; k < r->ncols; k++)
		if (!strcmp(r->cols[k], name))
			return (int)k;
	return -1;
}
