/* SPDX-License-Identifier: GPL-2.0-only */
/* The frame header parser (frames.h): no sscanf on the stream (it is not NUL-terminated), every
 * length checked against its type's limit before a byte of the payload is waited for. */
#include <string.h>

#include "frames.h"
#include "remote.h"

size_t frame_limit(char type)
{
	switch (type) {
	case FRAME_HELLO: return 4096;        /* a path on the SUT */
	case FRAME_SUBDIR: return 255;        /* one file name (NAME_MAX) */
	case FRAME_END: return 15;            /* an exit status */
	case FRAME_INFO: return 1u << 20;     /* info.json: a few KiB in practice */
	case FRAME_EXP: return FRAME_MAX;     /* experiment.json: grows with the runs */
	case FRAME_DP:
	case FRAME_CTR: return FRAME_MAX;     /* the agent sends at most 64 KiB at a time */
	}
	return 0;
}

int frame_next(const char *buf, size_t len, struct frame *f, size_t *need, const char **why)
{
	size_t i = 2, n = 0;
	*need = 0;
	if (len < 1)
		return 0;
	if (!frame_limit(buf[0])) {
		*why = "unknown frame type";
		return -1;
	}
	if (len >= 2 && buf[1] != ' ') {
		*why = "no blank after the frame type";
		return -1;
	}
	for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (i > 2 && n == 0) {
			*why = "a frame length with a leading zero";
			return -1;
		}
		n = n * 10 + (size_t)(buf[i] - '0');
		if (n > frame_limit(buf[0])) {
			*why = "a frame longer than its type allows";
			return -1;
		}
	}
	if (i >= len)
		return 0;   /* the header goes on in the next read (len < FRAME_HEAD_MAX here) */
	if (i == 2 || buf[i] != '\n') {
		*why = "a malformed frame header";
		return -1;
	}
	*need = i + 1 + n;
	if (len < *need)
		return 0;
	*f = (struct frame){ .type = buf[0], .payload = buf + i + 1, .len = n, .used = *need };
	return 1;
}
