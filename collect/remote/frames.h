/* SPDX-License-Identifier: GPL-2.0-only */
/* The agent's frames (remote.h: "<type> <length>\n" then length bytes), parsed by the controller
 * from bytes the SUT sent: within the buffer, bounded per type, nothing else believed. */
#ifndef COLLECT_REMOTE_FRAMES_H
#define COLLECT_REMOTE_FRAMES_H
#include <stddef.h>

/* The longest header: type, blank, 8 digits (FRAME_MAX has 8), newline. */
#define FRAME_HEAD_MAX 11

struct frame {
	char type;
	const char *payload;
	size_t len;      /* of the payload */
	size_t used;     /* header and payload */
};

/* The largest payload a frame of this type may have; 0 for a type the agent never sends. */
size_t frame_limit(char type);
/* The frame at the start of buf[0..len): 1 and *f when it is all there; 0 when more bytes are
 * needed (*need: how many in all, or 0 while the header is unfinished); -1 when it cannot be a
 * frame, with why (static text). */
int frame_next(const char *buf, size_t len, struct frame *f, size_t *need, const char **why);
#endif
