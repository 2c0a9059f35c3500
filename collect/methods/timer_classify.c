/* SPDX-License-Identifier: GPL-2.0-only */
/* The timer method's verdict on one sleep (timer_classify.h). */
#include "timer_classify.h"

#include "method.h"

int timer_classify(int nstates, int poll, const uint64_t *before, const uint64_t *after, int *state)
{
	uint64_t polls = 0, others = 0;
	int other_state = -1;
	*state = -1;
	for (int i = 0; i < nstates; i++) {
		uint64_t d = after[i] - before[i];
		if (i == poll) {
			polls += d;
		} else if (d) {
			others += d;
			other_state = i;
		}
	}
	if (polls + others == 0)
		return DISCARD_NOT_IDLE;   /* no idle entry: something else ran until LaunchTime */
	if (others > 1)
		return DISCARD_OTHER_WAKE; /* a real idle state left and entered again: woken first */
	*state = others ? other_state : poll;
	return -1;
}
