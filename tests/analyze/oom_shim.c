/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LD_PRELOAD shim for the out-of-memory test: every allocation above OOM_SHIM_OVER bytes
 * fails with ENOMEM, as it would with the memory exhausted; smaller ones go to glibc.
 * (Sanitizer builds use ASan's max_allocation_size_mb instead: ASan owns malloc there.)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static int too_big(size_t n)
{
	static size_t limit;
	if (!limit) {
		const char *s = getenv("OOM_SHIM_OVER");
		limit = s ? strtoull(s, NULL, 10) : SIZE_MAX;
	}
	if (n <= limit)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	return too_big(n) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return size && n > SIZE_MAX / size ? NULL : too_big(n * size) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	return too_big(n) ? NULL : __libc_realloc(p, n);
}

void *memalign(size_t align, size_t n)
{
	return too_big(n) ? NULL : __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	if (too_big(n))
		return ENOMEM;
	void *p = __libc_memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
