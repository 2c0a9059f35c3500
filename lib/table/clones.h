/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ISC_AVX2_CLONES: a function built twice, for AVX2 and for any x86-64, the one to run chosen
 * when the program is loaded (GCC's target_clones, an ifunc). Not in ThreadSanitizer builds:
 * GCC instruments the ifunc's resolver, which the dynamic loader runs before TSan is set up,
 * and the program crashed before main. Those builds run the default code only.
 */
#ifndef IDLESCOPE_CLONES_H
#define IDLESCOPE_CLONES_H

#if defined(__SANITIZE_THREAD__)
#define ISC_NO_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ISC_NO_CLONES 1
#endif
#endif

#ifdef ISC_NO_CLONES
#define ISC_AVX2_CLONES
#else
#define ISC_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#endif

#endif
