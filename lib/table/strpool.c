/* SPDX-License-Identifier: GPL-2.0-only */
/* Interned strings with an open-addressing hash table. */
#include "table/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "text/util.h"

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;  /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

void strpool_init(struct strpool *p)
{
	memset(p, 0, sizeof(*p));
}

static void rehash(struct strpool *p, size_t nslots)
{
	free(p->slots);
	p->slots = isc_xcalloc(nslots, sizeof(*p->slots));
	p->nslots = nslots;
	for (size_t id = 0; id < p->n; id++) {
		size_t i = hash_bytes(p->strs[id], strlen(p->strs[id])) & (nslots - 1);
		while (p->slots[i])
			i = (i + 1) & (nslots - 1);
		p->slots[i] = (uint32_t)id + 1;
	}
}

uint32_t strpool_find(const struct strpool *p, const char *s, size_t len)
{
	if (!p->nslots)
		return UINT32_MAX;
	size_t i = hash_bytes(s, len) & (p->nslots - 1);
	for (; p->slots[i]; i = (i + 1) & (p->nslots - 1)) {
		const char *t = p->strs[p->slots[i] - 1];
		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return p->slots[i] - 1;
	}
	return UINT32_MAX;
}

uint32_t strpool_intern(struct strpool *p, const char *s, size_t len)
{
	if ((p->n + 1) * 2 > p->nslots)
		rehash(p, p->nslots ? p->nslots * 2 : 16);
	size_t i = hash_bytes(s, len) & (p->nslots - 1);
	for (; p->slots[i]; i = (i + 1) & (p->nslots - 1)) {
		const char *t = p->strs[p->slots[i] - 1];
		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return p->slots[i] - 1;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->strs = isc_xrealloc(p->strs, p->cap * sizeof(*p->strs));
	}
	p->strs[p->n] = isc_xstrndup(s, len);
	p->slots[i] = (uint32_t)p->n + 1;
	return (uint32_t)p->n++;
}

char **strpool_release(struct strpool *p, size_t *n)
{
	char **strs = p->strs;
	*n = p->n;
	free(p->slots);
	strpool_init(p);
	return strs;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->slots);
	strpool_init(p);
}
