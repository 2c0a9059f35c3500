/* SPDX-License-Identifier: GPL-2.0-only */
/* The timer method's verdict on one sleep from the cpuidle usage counters (method_timer.c). */
#ifndef COLLECT_TIMER_CLASSIFY_H
#define COLLECT_TIMER_CLASSIFY_H
#include <stdint.h>

/*
 * before/after: usage counters of states 0..nstates-1 around one sleep; poll: the index of
 * the POLL state, or -1. Returns a discard reason (DISCARD_NOT_IDLE: no idle entry at all;
 * DISCARD_OTHER_WAKE: a non-polling state was entered more than once, so something woke the
 * CPU before the event) or -1 to keep the datapoint. Entries of POLL do not count as wake-ups:
 * POLL leaves at its time limit without any wake-up, and the governor then enters POLL again
 * or a deeper state. *state: the state the CPU woke from (the one non-polling state entered,
 * else POLL), or -1 when it cannot be told.
 */
int timer_classify(int nstates, int poll, const uint64_t *before, const uint64_t *after, int *state);

#endif
