/* SPDX-License-Identifier: GPL-2.0-only */
/* Interned strings: each distinct string gets a small integer id (lib-internal). */
#ifndef IDLESCOPE_STRPOOL_H
#define IDLESCOPE_STRPOOL_H
#include <stddef.h>
#include <stdint.h>

struct strpool {
	char **strs;      /* by id */
	size_t n, cap;
	uint32_t *slots;  /* open-addressing hash of id+1, 0 = free */
	size_t nslots;
};

void strpool_init(struct strpool *p);
uint32_t strpool_intern(struct strpool *p, const char *s, size_t len);
/* The id of a string already in the pool, or UINT32_MAX. */
uint32_t strpool_find(const struct strpool *p, const char *s, size_t len);
/* Hand the strings over (caller frees each and the array); the pool is left empty. */
char **strpool_release(struct strpool *p, size_t *n);
void strpool_free(struct strpool *p);

#endif
