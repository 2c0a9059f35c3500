/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A family of verdicts: Holm's step-down adjustment (Holm 1979), valid under any dependence
 * between the tests, applied to the tests of a change and, separately, to the equivalence
 * tests; then each verdict's answer.
 */
#include "stats/verdict.h"

#include <math.h>
#include <stdlib.h>

#include "text/util.h"

struct pidx {
	double p;
	size_t i;
};

static int cmp_p(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;
	return x->p < y->p ? -1 : x->p > y->p ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

void isc_holm_adjust(const double *p, size_t n, double *adj)
{
	struct pidx *s = isc_xmalloc((n + 1) * sizeof(*s));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct pidx){ p[i], i };
	}
	qsort(s, m, sizeof(*s), cmp_p);
	double run = 0;
	for (size_t r = 0; r < m; r++) {   /* running maximum keeps the order monotone */
		double a = fmin(1, (double)(m - r) * s[r].p);
		run = a > run ? a : run;
		adj[s[r].i] = run;
	}
	free(s);
}

static void adjust_family(struct isc_verdict *const *v, size_t n, size_t *fam)
{
	double *p = isc_xmalloc((2 * n + 1) * sizeof(double)), *adj = p + n;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		p[i] = v[i]->tested && v[i]->in_family ? v[i]->p : NAN;
		m += !isnan(p[i]);
	}
	isc_holm_adjust(p, n, adj);
	for (size_t i = 0; i < n; i++) {
		v[i]->p_adj = adj[i];
		v[i]->p_equiv = v[i]->tested ? isc_tost_p(v[i]->diff, v[i]->se, v[i]->df, v[i]->margin)
					     : NAN;
		p[i] = v[i]->in_family ? v[i]->p_equiv : NAN;
	}
	isc_holm_adjust(p, n, adj);
	for (size_t i = 0; i < n; i++)
		v[i]->p_equiv_adj = adj[i];
	free(p);
	*fam = m;
}

void isc_verdict_settle(struct isc_verdict *const *v, size_t n, double alpha)
{
	size_t m;
	adjust_family(v, n, &m);
	double level = m ? alpha / (double)m : alpha;   /* Holm's first step: one change alone */
	for (size_t i = 0; i < n; i++) {
		struct isc_verdict *x = v[i];
		x->family = m;
		x->significant = false;
		if (!x->tested)
			continue;
		if (!x->in_family) {
			x->answer = ISC_ANSWER_UNTESTED;
			continue;
		}
		x->mde = isc_mde(x->se, x->df, level, ISC_VERDICT_POWER);
		x->runs_needed = isnan(x->margin) ? -1 : isc_runs_needed(x->run_var_ref, x->run_var,
									x->margin, level,
									ISC_VERDICT_POWER);
		bool enough = x->k_ref >= ISC_VERDICT_MIN_RUNS && x->k >= ISC_VERDICT_MIN_RUNS &&
			      !x->no_answer;
		x->significant = enough && x->p_adj < alpha;
		x->answer = x->significant ? ISC_ANSWER_CHANGED
			    : enough && x->p_equiv_adj < alpha ? ISC_ANSWER_EQUIVALENT
			    : ISC_ANSWER_INCONCLUSIVE;
	}
}
