/* SPDX-License-Identifier: GPL-2.0-only */
/* The run's stop flag, shared by the signal handlers, the run loop and the methods. */
#ifndef COLLECT_STOP_H
#define COLLECT_STOP_H
#include <signal.h>

/* Set by the core's SIGINT/SIGTERM handler and at count/time limits: a method's next()
 * must notice it within ~100 ms and return 0. */
extern volatile sig_atomic_t collect_stop_requested;

#endif
