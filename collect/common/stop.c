#include "stop.h"

volatile sig_atomic_t collect_stop_requested;
