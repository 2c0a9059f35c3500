/* SPDX-License-Identifier: GPL-2.0-only */
#include "stop.h"

volatile sig_atomic_t collect_stop_requested;
