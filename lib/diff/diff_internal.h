/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/diff/diff.c's private parts shared with lib/diff/diff_work.c. */
#ifndef IDLESCOPE_DIFF_INTERNAL_H
#define IDLESCOPE_DIFF_INTERNAL_H
#include "diff/diff.h"
#include <stdint.h>

#include "table/select.h"

/* Private state behind isc_diff: each run's groups and where every union group sits in them. */
struct diff_priv {
	struct isc_groups *rg;    /* [run] */
	long *gmap;              /* [group * nruns + run]: index in rg[run], or -1 */
	char **labels;           /* union labels (pointers into rg) */
	uint32_t **row_group;    /* [run][row]: the row's group, an index in rg[run] */
	size_t **seg_off;        /* [run][k]: where group k's values start in a run-sized buffer */
};

/* A sorted sample without NaN. */
struct diff_sample {
	const double *x;
	size_t n;
};

/* The moments every run of a comparison gets: [MOM_COUNT .. MOM_STD]. */
enum { MOM_COUNT, MOM_MIN, MOM_MAX, MOM_AVG, MOM_STD, NMOM };

/* diff_pool.c: k runs' moments as one sample's (variance: within-run plus between-run sums of
 * squares), and isc_quantile_sorted of the union of k sorted samples of n values together. */
void diff_combine_moments(const double *const *mom, size_t k, double *out);
double diff_union_quantile(const struct diff_sample *s, size_t k, size_t n, double q);

/* diff_family.c: the verdicts of the tested parts and the state shares in d->family, settled
 * (-1 after a message when --primary names no metric, function or group compared). */
int diff_family_build(struct isc_diff *d);
/* diff_shares.c: each group's share of the runs' rows, configuration c against the reference
 * (level run), into v. */
void diff_share_verdict(const struct isc_diff *d, size_t g, size_t c, struct isc_verdict *v);

/* Fill every part's rows, values, medians and tests, on up to nthreads threads (0 = CPUs). */
void diff_compute_all(struct isc_diff *d, struct diff_priv *pv, int nthreads);

#endif
