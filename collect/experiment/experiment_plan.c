/* SPDX-License-Identifier: GPL-2.0-only */
/* The plan of an experiment: factors (--matrix) and fixed settings (--set), the cartesian
 * product of the values, and the order the runs are taken in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "text/util.h"

#define MAX_RUNS 10000

const char *plan_order_name(enum exp_order o)
{
	return o == ORDER_RANDOM ? "random" : o == ORDER_BLOCKED ? "blocked" : "interleaved";
}

/* "NAME=V1,V2[@TARGET]" -> a factor; 2 after a usage error (empty or repeated value). The
 * target follows the last '@' after the '=' (a name may hold one: aspm@BDF) and applies to
 * every value; its CPU list may hold commas. */
static int parse_factor(const char *arg, bool single, struct factor *f)
{
	const char *eq = strchr(arg, '=');
	*f = (struct factor){ .name = isc_xstrndup(arg, (size_t)(eq - arg)) };
	char *copy = isc_xstrdup(eq + 1), *p = copy, *at = strrchr(copy, '@');
	if (at) {
		*at = '\0';
		f->target = isc_xstrdup(at + 1);
		if (!*f->target) {
			isc_err("--%s %s: empty target after '@' (all, measured, siblings, cpus=LIST, package=LIST)",
				single ? "set" : "matrix", arg);
			free(copy);
			return ISC_EXIT_USAGE;
		}
	}
	for (;;) {
		char *c = single ? NULL : strchr(p, ',');
		if (c)
			*c = '\0';
		for (size_t i = 0; i < f->nvalues; i++)
			if (!strcmp(f->values[i], p)) {
				isc_err("--matrix %s: value '%s' given twice", f->name, p);
				free(copy);
				return ISC_EXIT_USAGE;
			}
		if (!*p) {
			isc_err("--%s %s: empty value", single ? "set" : "matrix", arg);
			free(copy);
			return ISC_EXIT_USAGE;
		}
		f->values = isc_xrealloc(f->values, (f->nvalues + 1) * sizeof(*f->values));
		f->values[f->nvalues++] = isc_xstrdup(p);
		if (!c)
			break;
		p = c + 1;
	}
	free(copy);
	return 0;
}

/* splitmix64: a small generator whose seed, recorded, gives the same order again. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void order_runs(struct plan *p)
{
	size_t k = 0;
	p->nruns = p->nconfigs * p->repeat;
	p->runs = isc_xcalloc(p->nruns, sizeof(*p->runs));
	if (p->order == ORDER_BLOCKED) {
		for (size_t c = 0; c < p->nconfigs; c++)
			for (unsigned r = 1; r <= p->repeat; r++)
				p->runs[k++] = (struct plan_run){ c, r, NULL };
	} else {
		for (unsigned r = 1; r <= p->repeat; r++)
			for (size_t c = 0; c < p->nconfigs; c++)
				p->runs[k++] = (struct plan_run){ c, r, NULL };
	}
	if (p->order == ORDER_RANDOM) {
		uint64_t st = p->seed;
		for (size_t i = p->nruns; i > 1; i--) {
			size_t j = (size_t)(next_rand(&st) % i);
			struct plan_run t = p->runs[i - 1];
			p->runs[i - 1] = p->runs[j];
			p->runs[j] = t;
		}
	}
	for (size_t i = 0; i < p->nruns; i++) {
		char *cfg = plan_config_name(p, p->runs[i].config);
		p->runs[i].dir = isc_xasprintf("%s-r%u", cfg, p->runs[i].replicate);
		free(cfg);
	}
}

int plan_build(const struct exp_opts *x, struct plan *p)
{
	*p = (struct plan){ .repeat = x->nmatrix ? (x->repeat ? x->repeat : 3) : 1, .order = x->order, .seed = x->seed };
	p->factors = isc_xcalloc(x->nmatrix + 1, sizeof(*p->factors));
	p->fixed = isc_xcalloc(x->nsets + 1, sizeof(*p->fixed));
	p->nconfigs = 1;
	for (size_t i = 0; i < x->nmatrix; i++) {
		if (parse_factor(x->matrix[i], false, &p->factors[p->nfactors++]))
			return ISC_EXIT_USAGE;
		p->nconfigs *= p->factors[i].nvalues;
		if (p->nconfigs * p->repeat > MAX_RUNS) {
			isc_err("--matrix: %zu configurations x %u repeats is more than %d runs", p->nconfigs, p->repeat,
			       MAX_RUNS);
			return ISC_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < x->nsets; i++)
		if (parse_factor(x->sets[i], true, &p->fixed[p->nfixed++]))
			return ISC_EXIT_USAGE;
	order_runs(p);
	return 0;
}

static void free_factors(struct factor *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t v = 0; v < f[i].nvalues; v++)
			free(f[i].values[v]);
		free(f[i].values);
		free(f[i].name);
		free(f[i].target);
		isc_target_free(&f[i].tgt);
	}
	free(f);
}

void plan_free(struct plan *p)
{
	free_factors(p->factors, p->nfactors);
	free_factors(p->fixed, p->nfixed);
	for (size_t i = 0; i < p->nruns; i++)
		free(p->runs[i].dir);
	free(p->runs);
	*p = (struct plan){ 0 };
}

/* The first factor varies slowest. */
const char *plan_value(const struct plan *p, size_t c, size_t f)
{
	size_t stride = 1;
	for (size_t i = f + 1; i < p->nfactors; i++)
		stride *= p->factors[i].nvalues;
	return p->factors[f].values[c / stride % p->factors[f].nvalues];
}

/* "idle-governor=menu_cstates=POLL": not ',', which joins replicate runs in analyze diff and
 * report ('/' would make a path: '_' too). */
char *plan_config_name(const struct plan *p, size_t c)
{
	char *s = isc_xstrdup("");
	for (size_t f = 0; f < p->nfactors; f++) {
		char *t = isc_xasprintf("%s%s%s=%s", s, f ? "_" : "", p->factors[f].name, plan_value(p, c, f));
		free(s);
		s = t;
	}
	if (!p->nfactors) {
		free(s);
		s = isc_xstrdup("set");
	}
	for (char *q = s; *q; q++)
		if (*q == '/' || *q == ',')
			*q = '_';
	return s;
}

cJSON *plan_config_json(const struct plan *p, size_t c)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t f = 0; f < p->nfactors; f++)
		cJSON_AddStringToObject(o, p->factors[f].name, plan_value(p, c, f));
	return o;
}

struct factor *plan_factor(const struct plan *p, size_t i)
{
	return i < p->nfactors ? &p->factors[i] : &p->fixed[i - p->nfactors];
}

cJSON *plan_targets_json(const struct plan *p)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < p->nfactors + p->nfixed; i++)
		cJSON_AddItemToObject(o, plan_factor(p, i)->name, isc_target_json(&plan_factor(p, i)->tgt));
	return o;
}

/* A run's expected length: its time limit, or count datapoints at the mean launch distance
 * plus about 100 us each for waking and writing (whichever comes first). */
double plan_run_estimate_s(const struct collect_opts *o)
{
	double by_count = o->count ? (double)o->count * ((double)(o->ldist_min + o->ldist_max) / 2e9 + 100e-6) : 0;
	double by_time = (double)o->time_limit_ns / 1e9;
	if (by_count && by_time)
		return by_count < by_time ? by_count : by_time;
	return by_count ? by_count : by_time;
}

void plan_print(const struct plan *p, const struct collect_opts *o, FILE *out)
{
	double each = plan_run_estimate_s(o);
	fprintf(out, "%zu configuration%s x %u repeat%s = %zu run%s, order %s", p->nconfigs, p->nconfigs == 1 ? "" : "s",
		p->repeat, p->repeat == 1 ? "" : "s", p->nruns, p->nruns == 1 ? "" : "s", plan_order_name(p->order));
	if (p->order == ORDER_RANDOM)
		fprintf(out, " (seed %llu)", (unsigned long long)p->seed);
	fprintf(out, "\n");
	for (size_t i = 0; i < p->nfixed; i++)
		fprintf(out, "every run: %s=%s\n", p->fixed[i].name, p->fixed[i].values[0]);
	for (size_t i = 0; i < p->nfactors + p->nfixed; i++) {
		const struct factor *f = plan_factor(p, i);
		if (!f->target)
			continue;
		char *cpus = isc_target_cpus_text(&f->tgt);
		if (f->tgt.dies) {   /* uncore-freq@package= */
			fprintf(out, "target: %s@%s = dies", f->name, f->target);
			for (size_t k = 0; k < f->tgt.ndies; k++)
				fprintf(out, " %s", f->tgt.dies[k]);
			fprintf(out, "\n");
		} else {
			fprintf(out, "target: %s@%s = CPUs %s\n", f->name, f->target, cpus);
		}
		free(cpus);
	}
	for (size_t i = 0; i < p->nruns; i++) {
		fprintf(out, "%4zu  %s  replicate %u:", i + 1, p->runs[i].dir, p->runs[i].replicate);
		for (size_t f = 0; f < p->nfactors; f++)
			fprintf(out, " %s=%s", p->factors[f].name, plan_value(p, p->runs[i].config, f));
		fprintf(out, "  ~%.1f s\n", each);
	}
}
