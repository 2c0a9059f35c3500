/* lib/diff.c's private parts shared with lib/diff_work.c. */
#ifndef IDLESCOPE_DIFF_INTERNAL_H
#define IDLESCOPE_DIFF_INTERNAL_H
#include "idlescope/diff.h"
#include <stdint.h>

#include "idlescope/select.h"

/* Private state behind is_diff: each run's groups and where every union group sits in them. */
struct diff_priv {
	struct is_groups *rg;    /* [run] */
	long *gmap;              /* [group * nruns + run]: index in rg[run], or -1 */
	char **labels;           /* union labels (pointers into rg) */
	uint32_t **row_group;    /* [run][row]: the row's group, an index in rg[run] */
	size_t **seg_off;        /* [run][k]: where group k's values start in a run-sized buffer */
};

/* Fill every part's rows, values, medians and tests, on up to nthreads threads (0 = CPUs). */
void diff_compute_all(struct is_diff *d, struct diff_priv *pv, int nthreads);

#endif
