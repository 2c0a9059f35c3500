/* SPDX-License-Identifier: GPL-2.0-only */
/* The run's launch distances: GSL's Mersenne Twister, seeded once, shared by all threads. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_rng.h>

#include "collect.h"

const char *const discard_reason_names[DISCARD_NR] = {
	[DISCARD_NOT_IDLE] = "not_idle",
	[DISCARD_OTHER_WAKE] = "other_wake",
	[DISCARD_WRONG_CPU] = "wrong_cpu",
	[DISCARD_LOST] = "lost",
};

static pthread_mutex_t rng_lock = PTHREAD_MUTEX_INITIALIZER;
static gsl_rng *rng;
static uint64_t ld_min, ld_max;

void collect_ldist_init(uint64_t min, uint64_t max, uint64_t seed)
{
	pthread_mutex_lock(&rng_lock);
	if (!rng)
		rng = gsl_rng_alloc(gsl_rng_mt19937);
	/* gsl_rng_set takes an unsigned long: 64 bits on the platforms we build for. */
	gsl_rng_set(rng, (unsigned long)seed);
	ld_min = min;
	ld_max = max;
	pthread_mutex_unlock(&rng_lock);
}

void collect_ldist_free(void)
{
	pthread_mutex_lock(&rng_lock);
	gsl_rng_free(rng);
	rng = NULL;
	pthread_mutex_unlock(&rng_lock);
}

uint64_t collect_next_ldist(void)
{
	uint64_t v;
	pthread_mutex_lock(&rng_lock);
	uint64_t span = ld_max - ld_min;
	if (!rng || span == 0)
		v = ld_min;
	else if (span < gsl_rng_max(rng) - gsl_rng_min(rng))
		v = ld_min + gsl_rng_uniform_int(rng, (unsigned long)span + 1);
	else {
		/* Wider than the generator's range (> 4.29 s): a uniform double is fine-grained enough. */
		v = ld_min + (uint64_t)(gsl_rng_uniform(rng) * ((double)span + 1.0));
		if (v > ld_max)
			v = ld_max;
	}
	pthread_mutex_unlock(&rng_lock);
	return v;
}

uint64_t collect_random_seed(void)
{
	uint32_t seed;
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid()) & 0xffffffffu;
}
