/* is_xmalloc's large blocks: 2 MiB and more start on a 2 MiB boundary (so that the kernel
 * can back the whole block with huge pages), keep their bytes through realloc, and free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "../common/check.h"

#define MIB ((size_t)1 << 20)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed);
}

static size_t first_mismatch(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 131 + seed))
			return i;
	return n;
}

static void check_size(size_t n)
{
	unsigned char *p = is_xmalloc(n);
	size_t kept = n / 2 + 1 < n ? n / 2 + 1 : n;  /* the bytes that realloc must keep */
	if (n >= 2 * MIB)
		CHECK_MSG((uintptr_t)p % (2 * MIB) == 0, "a block of %zu bytes at %p", n, (void *)p);
	fill(p, n, (unsigned)n);
	p = is_xrealloc(p, n / 2 + 1);
	CHECK_MSG(first_mismatch(p, kept, (unsigned)n) == kept, "shrunk from %zu bytes", n);
	p = is_xrealloc(p, 2 * n);
	CHECK_MSG(first_mismatch(p, kept, (unsigned)n) == kept, "grown from %zu bytes", n);
	memset(p, 0, 2 * n);
	free(p);
}

int main(void)
{
	const size_t sizes[] = { 0, 1, 4096, 2 * MIB - 1, 2 * MIB, 2 * MIB + 1, 3 * MIB,
				 4000000, 4 * MIB, 8 * MIB + 5 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_size(sizes[i]);
	return CHECK_DONE();
}
