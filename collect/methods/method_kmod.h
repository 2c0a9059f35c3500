/* SPDX-License-Identifier: GPL-2.0-only */
/* The hrt/tdt methods' module handling (method_kmod_load.c). */
#ifndef COLLECT_METHOD_KMOD_H
#define COLLECT_METHOD_KMOD_H
#include <stdbool.h>
#include <stddef.h>

#define KMOD_NAME "idlescope"
#define KMOD_DEV "/dev/idlescope"

bool kmod_is_loaded(void);
/* The module file to load: given, or the first found; -1 with the places looked at in why. */
int kmod_find(const char *given, char *path, size_t len, char *why, size_t whylen);
/* finit_module(); 0 loaded, 1 was already loaded, -1 with a reason in why. */
int kmod_load(const char *path, char *why, size_t whylen);
int kmod_unload(char *why, size_t whylen);

#endif
