/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats: quantiles of packed columns by counting codes (stats_count.h). */
#include "stats_count.h"

static int count_ranks(void *ctx, size_t m, const size_t *idx, size_t ni, double *vals)
{
	struct stats_count *sc = ctx;
	if (!sc->counted && sc->rows)
		isc_colcount_rows(&sc->cc, sc->rows, sc->n);
	else if (!sc->counted)
		isc_colcount_range(&sc->cc, 0, sc->n);
	sc->counted = true;
	if (isc_colcount_values(&sc->cc) != m)
		return -1;
	return isc_colcount_ranks(&sc->cc, idx, ni, vals);
}

const struct isc_rank_answer *stats_count_answer(struct stats_count *sc, const struct isc_column *c,
						  const size_t *rows, size_t n, struct isc_rank_answer *ra)
{
	if (!c->packed || !isc_colcount_applies(c->packed, n))
		return NULL;
	if (sc->cc.counts)
		isc_colcount_reset(&sc->cc, c->packed);
	else
		isc_colcount_init(&sc->cc, c->packed);
	sc->rows = rows;
	sc->n = n;
	sc->counted = false;
	*ra = (struct isc_rank_answer){ count_ranks, sc };
	return ra;
}

void stats_count_gather(struct stats_count *sc, double *out)
{
	isc_colcount_gather(&sc->cc, sc->rows, sc->n, out);
	sc->counted = true;
}

void stats_count_free(struct stats_count *sc)
{
	if (sc->cc.counts)
		isc_colcount_free(&sc->cc);
}
