/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any text as an --include expression parses or gives an error message,
 * and a parsed one type-checks and evaluates, never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/expr.h"

static struct isc_value get(void *arg, size_t var)
{
	(void)arg;
	struct isc_value v;
	memset(&v, 0, sizeof(v));
	v.is_str = var % 2 == 0;
	v.num = (double)var - 1.5;
	v.str = var % 4 == 2 ? NULL : "C6";
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1), err[256];
	memcpy(src, data, size);
	src[size] = '\0';
	struct isc_expr *e = isc_expr_parse(src, err, sizeof(err));
	if (e) {
		size_t n = isc_expr_nvars(e);
		enum isc_expr_type *types = malloc((n + 1) * sizeof(*types));
		for (size_t i = 0; i < n; i++)
			types[i] = (enum isc_expr_type)(i % 3);
		if (isc_expr_check(e, types, err, sizeof(err)) < 0 && !err[0])
			abort();
		free(types);
		(void)isc_expr_eval(e, get, NULL);
		isc_expr_free(e);
	} else if (!err[0]) {
		abort();  /* a refusal always says why */
	}
	free(src);
	return 0;
}
