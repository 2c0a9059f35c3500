/* SPDX-License-Identifier: GPL-2.0-only */
/* collect --include/--exclude: the expressions of analyze (docs/expressions.md) on each
 * datapoint before it is written. */
#include "dp_filter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/expr.h"
#include "text/util.h"

/* Columns by slot; a residency column (name ending in '%') is V_RES + its index in dp->res. */
enum { V_LDIST, V_SILENT, V_WAKE, V_INTR, V_INTROFF, V_REQ, V_LTIME, V_TBI, V_TAI, V_TINTR,
       V_SMI, V_NMI, V_IRQCNT, V_IRQTIME, V_IRQTOP, V_SWIRQCNT, V_SWIRQTIME, V_SWIRQTYPES, V_STEAL,
       V_INDEX, V_RES, V_UNRESOLVED = -1 };
static const char *const fixed_names[V_RES] = {
	"LDist", "SilentTime", "WakeLatency", "IntrLatency", "IntrOff", "ReqCState", "LTime",
	"TBI", "TAI", "TIntr", "SMICnt", "NMICnt", "IRQCnt", "IRQTime", "IRQTop", "SWIRQCnt",
	"SWIRQTime", "SWIRQTypes", "StealTime", "index",
};

struct side {
	struct isc_expr *e;
	int *slot;          /* per variable */
	bool resolved;      /* residency names matched against the first datapoint */
};

struct dp_filter {
	struct side inc, exc;
	const struct dp_raw *dp;       /* during an evaluation */
	const char *const *state_names;
	size_t nstates;
	uint64_t index;
	const struct side *cur;
};

static bool is_residency(const char *name)
{
	size_t n = strlen(name);
	return n > 1 && name[n - 1] == '%';
}

static int prepare_side(struct side *s, const char *opt, const char *src)
{
	char err[200];
	if (!src)
		return 0;
	if (!(s->e = isc_expr_parse(src, err, sizeof(err)))) {
		isc_err("--%s: %s", opt, err);
		return -1;
	}
	size_t n = isc_expr_nvars(s->e);
	enum isc_expr_type *types = isc_xcalloc(n + 1, sizeof(*types));
	s->slot = isc_xcalloc(n + 1, sizeof(*s->slot));
	for (size_t i = 0; i < n; i++) {
		const char *v = isc_expr_var(s->e, i);
		s->slot[i] = V_UNRESOLVED;
		for (int k = 0; k < V_RES; k++)
			if (!strcmp(v, fixed_names[k]))
				s->slot[i] = k;
		if (s->slot[i] == V_UNRESOLVED && !is_residency(v)) {
			isc_err("--%s: unknown column '%s' (columns: LDist, SilentTime, WakeLatency, "
				"IntrLatency, IntrOff, ReqCState, LTime, TBI, TAI, TIntr, SMICnt, NMICnt, "
				"the cause columns IRQCnt, IRQTime, IRQTop, SWIRQCnt, SWIRQTime, SWIRQTypes, "
				"StealTime, index, and residencies such as CC6%%)", opt, v);
			free(types);
			return -1;
		}
		bool text = s->slot[i] == V_REQ || s->slot[i] == V_IRQTOP || s->slot[i] == V_SWIRQTYPES;
		types[i] = text ? ISC_EXPR_TEXT : ISC_EXPR_NUM;
	}
	int rc = isc_expr_check(s->e, types, err, sizeof(err));
	if (rc < 0)
		isc_err("--%s: %s", opt, err);
	free(types);
	return rc;
}

static void side_free(struct side *s)
{
	isc_expr_free(s->e);
	free(s->slot);
}

void dp_filter_free(struct dp_filter *f)
{
	if (!f)
		return;
	side_free(&f->inc);
	side_free(&f->exc);
	free(f);
}

struct dp_filter *dp_filter_new(const char *include, const char *exclude, bool *bad)
{
	*bad = false;
	if (!include && !exclude)
		return NULL;
	struct dp_filter *f = isc_xcalloc(1, sizeof(*f));
	if (prepare_side(&f->inc, "include", include) < 0 || prepare_side(&f->exc, "exclude", exclude) < 0) {
		dp_filter_free(f);
		*bad = true;
		return NULL;
	}
	return f;
}

/* A cause column the run does not write (datapoints.csv's columns follow the first datapoint):
 * why, or NULL. */
static const char *cause_missing(int slot, const struct dp_raw *dp)
{
	if (slot >= V_IRQCNT && slot <= V_SWIRQTYPES && !dp->causes.known)
		return "the method counts no causes here (timer method, or --no-causes)";
	if (slot == V_STEAL && !dp->causes.steal)
		return "no steal clock is read here (docs/format.md, StealTime)";
	return NULL;
}

/* Residency and cause names against the first datapoint's (they are the run's columns). */
static int resolve(struct side *s, const struct dp_raw *dp, const char *opt)
{
	for (size_t i = 0; s->e && !s->resolved && i < isc_expr_nvars(s->e); i++) {
		const char *why = cause_missing(s->slot[i], dp);
		if (why) {
			isc_err("--%s: this run has no column '%s': %s", opt, isc_expr_var(s->e, i), why);
			return -1;
		}
		if (s->slot[i] != V_UNRESOLVED)
			continue;
		const char *v = isc_expr_var(s->e, i);
		for (size_t r = 0; r < dp->nres && s->slot[i] == V_UNRESOLVED; r++)
			if (!strcmp(v, dp->res[r].name))
				s->slot[i] = V_RES + (int)r;
		if (s->slot[i] == V_UNRESOLVED) {
			isc_err("--%s: this run has no column '%s' (the method measures %s)", opt, v,
				dp->nres ? "other residencies" : "no residencies");
			return -1;
		}
	}
	s->resolved = true;
	return 0;
}

/* b - a in µs as datapoints.csv holds it (exact ns / 1000); NaN where a time is unknown. */
static double us_diff(uint64_t b, uint64_t a)
{
	if (!a || !b)
		return NAN;
	return b >= a ? (double)(b - a) / 1000.0 : -((double)(a - b) / 1000.0);
}

static double known(long long v)
{
	return v >= 0 ? (double)v : NAN;
}

static double ns(uint64_t v)
{
	return v ? (double)v : NAN;
}

/* A count or time cell of the cause columns: empty (NaN) in a row whose causes were not counted. */
static double cause_num(const struct dp_causes *k, double v)
{
	return k->known ? v : NAN;
}

static const char *cause_text(const struct dp_causes *k, const char *s)
{
	return k->known && s[0] ? s : NULL;
}

static struct isc_value get(void *arg, size_t var)
{
	const struct dp_filter *f = arg;
	const struct dp_raw *dp = f->dp;
	int slot = f->cur->slot[var];
	struct isc_value v = { .num = NAN };
	switch (slot) {
	case V_LDIST: v.num = (double)dp->ldist / 1000.0; break;
	case V_SILENT: v.num = us_diff(dp->ltime, dp->tbi); break;
	case V_WAKE: v.num = us_diff(dp->tai, dp->ltime); break;
	case V_INTR: v.num = us_diff(dp->tintr, dp->ltime); break;
	case V_INTROFF: v.num = known(dp->intr_off); break;
	case V_REQ:
		v.is_str = true;
		v.str = dp->req_state >= 0 && (size_t)dp->req_state < f->nstates &&
			f->state_names[dp->req_state][0] ? f->state_names[dp->req_state] : NULL;
		break;
	case V_LTIME: v.num = ns(dp->ltime); break;
	case V_TBI: v.num = ns(dp->tbi); break;
	case V_TAI: v.num = ns(dp->tai); break;
	case V_TINTR: v.num = ns(dp->tintr); break;
	case V_SMI: v.num = known(dp->smi_cnt); break;
	case V_NMI: v.num = known(dp->nmi_cnt); break;
	case V_IRQCNT: v.num = cause_num(&dp->causes, dp->causes.irq_cnt); break;
	case V_IRQTIME: v.num = cause_num(&dp->causes, (double)dp->causes.irq_ns / 1000.0); break;
	case V_SWIRQCNT: v.num = cause_num(&dp->causes, dp->causes.sirq_cnt); break;
	case V_SWIRQTIME: v.num = cause_num(&dp->causes, (double)dp->causes.sirq_ns / 1000.0); break;
	case V_STEAL:
		v.num = dp->causes.known && dp->causes.steal_ns >= 0 ? (double)dp->causes.steal_ns / 1000.0 : NAN;
		break;
	case V_IRQTOP: v.is_str = true; v.str = cause_text(&dp->causes, dp->causes.irq_top); break;
	case V_SWIRQTYPES: v.is_str = true; v.str = cause_text(&dp->causes, dp->causes.sirq_types); break;
	case V_INDEX: v.num = (double)f->index; break;
	default:   /* a residency, written with two decimals */
		if ((size_t)(slot - V_RES) < dp->nres) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%.2f", dp->res[slot - V_RES].pct);
			v.num = strtod(buf, NULL);
		}
		break;
	}
	return v;
}

int dp_filter_keep(struct dp_filter *f, const struct dp_raw *dp, const char *const *state_names,
		   size_t nstates, uint64_t index)
{
	if (resolve(&f->inc, dp, "include") < 0 || resolve(&f->exc, dp, "exclude") < 0)
		return -1;
	f->dp = dp;
	f->state_names = state_names;
	f->nstates = nstates;
	f->index = index;
	f->cur = &f->inc;
	if (f->inc.e && !isc_expr_truthy(isc_expr_eval(f->inc.e, get, f)))
		return 0;
	f->cur = &f->exc;
	if (f->exc.e && isc_expr_truthy(isc_expr_eval(f->exc.e, get, f)))
		return 0;
	return 1;
}
