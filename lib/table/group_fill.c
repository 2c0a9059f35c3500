/* SPDX-License-Identifier: GPL-2.0-only */
/* The row lists of isc_group_rows, over two threads for large tables: each half of the rows
 * is counted, then filled at its own offsets (the second half after the first half's rows of
 * the group), so the lists are those of one pass; the lists' fresh pages are touched by both
 * threads (10 M rows: 80 MB). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "table/group_fill.h"
#include "text/util.h"

#define THREADED_ROWS 1000000

struct half {
	const struct group_of_row *gr;
	size_t from, to;
	size_t *count;           /* [group]: counted, then the next slot to fill */
	size_t **rows;           /* NULL: count only */
};

static size_t group_of(const struct group_of_row *gr, size_t r)
{
	if (gr->gid)
		return gr->rank[gr->gid[r]];
	uint32_t id = gr->c->text[r];
	return gr->rank[gr->cache[id != ISC_TEXT_EMPTY ? id : gr->t->nstrs]];
}

static void *half_run(void *arg)
{
	struct half *h = arg;
	for (size_t r = h->from; r < h->to; r++) {
		size_t k = group_of(h->gr, r);
		if (h->rows)
			h->rows[k][h->count[k]++] = r;
		else
			h->count[k]++;
	}
	return NULL;
}

/* Both halves, the second on a thread of its own when there is one. */
static void run_halves(struct half *h, int threaded)
{
	pthread_t tid;
	int started = threaded && pthread_create(&tid, NULL, half_run, &h[1]) == 0;
	half_run(&h[0]);
	if (started)
		pthread_join(tid, NULL);
	else
		half_run(&h[1]);
}

void group_fill(const struct group_of_row *gr, size_t ngroups, size_t *counts, size_t **rows)
{
	size_t nrows = gr->t->nrows, mid = nrows / 2;
	size_t *c0 = isc_xcalloc(2 * ngroups + 1, sizeof(size_t)), *c1 = c0 + ngroups;
	struct half h[2] = { { gr, 0, mid, c0, NULL }, { gr, mid, nrows, c1, NULL } };
	int threaded = nrows >= THREADED_ROWS && sysconf(_SC_NPROCESSORS_ONLN) > 1;
	run_halves(h, threaded);
	for (size_t k = 0; k < ngroups; k++) {
		counts[k] = c0[k] + c1[k];
		rows[k] = isc_xmalloc((counts[k] ? counts[k] : 1) * sizeof(size_t));
		c1[k] = c0[k];  /* the second half's first slot */
		c0[k] = 0;
	}
	h[0].rows = h[1].rows = rows;
	run_halves(h, threaded);
	free(c0);
}
