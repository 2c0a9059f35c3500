/* SPDX-License-Identifier: GPL-2.0-only */
/* The size bound before an entry is built: a file whose entry cannot fit is not read whole
 * (a 50 M-row run would take gigabytes of memory only to learn that). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "text/util.h"

/* Records (newlines outside double quotes) and the header's fields; false when unreadable. */
static bool count_cells(const char *path, uint64_t *rows, uint64_t *cols)
{
	enum { BUF = 1 << 16 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	bool quoted = false;
	uint64_t lines = 0, fields = 1;
	ssize_t n;
	if (fd < 0)
		return false;
	char *buf = isc_xmalloc(BUF);  /* (foreground builds of a diff run in two threads) */
	while ((n = read(fd, buf, BUF)) > 0)
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];
			if (c == '"')
				quoted = !quoted;
			else if (c == '\n' && !quoted)
				lines++;
			else if (c == ',' && !quoted && lines == 0)
				fields++;
		}
	close(fd);
	free(buf);
	*rows = lines ? lines - 1 : 0;
	*cols = fields;
	return n == 0;
}

bool cache_surely_too_big(const char *path, const struct stat *st, const struct isc_table_opts *o,
			  const char *entry, uint64_t max)
{
	/* every cell takes at least a byte of the file and 4 bytes of the entry (a text id), every
	 * column 16 more: a file of at most (max - header) / 16 bytes may fit */
	uint64_t hdr = sizeof(struct cache_hdr), rows, cols;
	if ((uint64_t)st->st_size <= (max > hdr ? (max - hdr) / 16 : 0))
		return false;  /* small enough to fit: not worth a pass */
	if (!count_cells(path, &rows, &cols))
		return false;
	uint64_t least = hdr + rows * cols * 4 + 16 * cols;
	if (least <= max)
		return false;
	cache_write_marker(entry, st, o, least);
	return true;
}
