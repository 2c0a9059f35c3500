/* SPDX-License-Identifier: GPL-2.0-only */
/* The simulation tests' random numbers: xorshift64* for uniforms on (0, 1), Box-Muller for
 * normals. Each test sets its own seed first (sim_seed), so its sequence is fixed. */
#ifndef IDLESCOPE_TESTS_SIM_RNG_H
#define IDLESCOPE_TESTS_SIM_RNG_H
#include <math.h>
#include <stdint.h>

static uint64_t sim_rng_state = 0x9e3779b97f4a7c15ULL;

static inline void sim_seed(uint64_t seed)
{
	sim_rng_state = seed;
}

static inline double uniform01(void)
{
	sim_rng_state ^= sim_rng_state >> 12;
	sim_rng_state ^= sim_rng_state << 25;
	sim_rng_state ^= sim_rng_state >> 27;
	return ((double)((sim_rng_state * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

static inline double normal(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}
#endif
