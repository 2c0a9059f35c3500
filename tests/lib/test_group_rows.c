/* SPDX-License-Identifier: GPL-2.0-only */
/* isc_group_rows on tables large enough for its two threads (and one below): every group's
 * rows are exactly the rows with its label, ascending, and the groups in natural order. */
#include <stdlib.h>
#include <string.h>

#include "table/select.h"
#include "table/table.h"
#include "text/util.h"
#include "../common/check.h"

static const char *const names[] = { "C6", "POLL", "C1E", "C10", "C1" };
static const char *const sorted[] = { "", "C1", "C1E", "C6", "C10", "POLL" };

/* Row r's label: an uneven mix, runs of one label across the middle row, some empty. */
static int label_of_row(size_t r, size_t n)
{
	if (r % 97 == 5)
		return -1;
	if (r > n / 2 - 1000 && r < n / 2 + 1000)
		return 3;
	return (int)((r * 7 + r / 1000) % 5);
}

static void check_groups(size_t n, bool text)
{
	struct isc_table *t = isc_table_new("groups.csv");
	struct isc_column *c = isc_table_add_col(t, "ReqCState", text ? ISC_COL_TEXT : ISC_COL_NUM);
	uint32_t ids[5];
	for (int i = 0; text && i < 5; i++)
		ids[i] = isc_table_intern(t, names[i]);
	if (text)
		c->text = isc_xmalloc((n + 1) * sizeof(uint32_t));
	else
		c->num = isc_xmalloc((n + 1) * sizeof(double));
	for (size_t r = 0; r < n; r++) {
		int l = label_of_row(r, n);
		if (text)
			c->text[r] = l < 0 ? ISC_TEXT_EMPTY : ids[l];
		else
			c->num[r] = l < 0 ? NAN : (double)(l * 10);
	}
	t->nrows = n;
	struct isc_groups g;
	CHECK(isc_group_rows(t, "ReqCState", &g) == 0);
	CHECK_MSG(g.ngroups == 6, "n=%zu: %zu groups", n, g.ngroups);
	size_t total = 0, bad = 0;
	for (size_t k = 0; k < g.ngroups; k++) {
		char want[16];
		if (text)
			snprintf(want, sizeof(want), "%s", sorted[k]);
		else
			snprintf(want, sizeof(want), "%s", k == 0 ? "" : (const char *[]){ "0", "10", "20", "30", "40" }[k - 1]);
		CHECK_MSG(strcmp(g.labels[k], want) == 0, "n=%zu group %zu: '%s', expected '%s'", n, k,
			  g.labels[k], want);
		total += g.counts[k];
		for (size_t x = 0; x < g.counts[k]; x++) {
			size_t r = g.rows[k][x];
			int l = label_of_row(r, n);
			const char *have = l < 0 ? "" : text ? names[l] : (const char *[]){ "0", "10", "20", "30", "40" }[l];
			bad += (x && r <= g.rows[k][x - 1]) || r >= n || strcmp(have, g.labels[k]) != 0;
		}
	}
	CHECK_MSG(total == n && bad == 0, "n=%zu: %zu rows in the groups, %zu misplaced", n, total, bad);
	isc_groups_free(&g);
	isc_table_free(t);
}

int main(void)
{
	check_groups(1000, true);
	check_groups(1200001, true);
	check_groups(1200001, false);
	return CHECK_DONE();
}
