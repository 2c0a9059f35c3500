/* Many quantiles of one column at once: one multi-selection instead of a sort. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/util.h"
#include "report.h"

size_t quantiles(const double *v, size_t n, const double *q, size_t nq, double *out)
{
	double *a = is_xmalloc((n + 1) * sizeof(*a));
	size_t *idx = is_xmalloc((2 * nq + 1) * sizeof(*idx));
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			a[m++] = v[i];
	if (m == 0) {
		for (size_t i = 0; i < nq; i++)
			out[i] = NAN;
		goto done;
	}
	/* Ranks each quantile interpolates between; q is ascending, so they are too. */
	for (size_t i = 0; i < nq; i++) {
		size_t lhs = (size_t)(q[i] * (double)(m - 1));
		for (size_t r = lhs; r <= lhs + 1 && r < m; r++)
			if (k == 0 || idx[k - 1] < r)
				idx[k++] = r;
	}
	is_multiselect(a, m, idx, k);
	for (size_t i = 0; i < nq; i++) {
		double delta = q[i] * (double)(m - 1);
		size_t lhs = (size_t)delta;
		delta -= (double)lhs;
		out[i] = lhs >= m - 1 ? a[m - 1] : (1 - delta) * a[lhs] + delta * a[lhs + 1];
	}
done:
	free(idx);
	free(a);
	return m;
}
