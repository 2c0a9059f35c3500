/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading and unloading the idlescope kernel module for the hrt/tdt methods: find the
 * module file (--kmod-path, the build tree when run from it, the installed locations: make install's extra/,
 * DKMS's updates/dkms/ as Debian's dkms puts it, updates/), finit_module() it,
 * wait for /dev/idlescope, and delete_module() it afterwards when collect loaded it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "method_kmod.h"

#ifndef IDLESCOPE_KMOD_BUILD_PATH
#define IDLESCOPE_KMOD_BUILD_PATH ""
#endif
#ifndef IDLESCOPE_KMOD_BUILD_ROOT
#define IDLESCOPE_KMOD_BUILD_ROOT ""
#endif

bool kmod_is_loaded(void)
{
	return access("/sys/module/" KMOD_NAME, F_OK) == 0;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The build tree's module is for a collect run from that build tree: an installed collect
 * (cmake --install) must not take a module left there, perhaps for an older kernel, before
 * the installed (DKMS) one. */
static bool run_from_build_tree(void)
{
	char exe[4096];
	size_t n = strlen(IDLESCOPE_KMOD_BUILD_ROOT);
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n == 0 || len < 0)
		return false;
	exe[len] = '\0';
	return strncmp(exe, IDLESCOPE_KMOD_BUILD_ROOT, n) == 0 && exe[n] == '/';
}

int kmod_find(const char *given, char *path, size_t len, char *why, size_t whylen)
{
	struct utsname u;
	char tried[512] = "";

	if (given) {
		struct stat st;
		if (stat(given, &st) < 0) {
			snprintf(why, whylen, "--kmod-path %s: %s", given, strerror(errno));
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, whylen, "--kmod-path %s: not a regular file", given);
			return -1;
		}
		snprintf(path, len, "%s", given);
		return 0;
	}
	uname(&u);
	const char *fmt[] = { IDLESCOPE_KMOD_BUILD_PATH, "/lib/modules/%s/extra/" KMOD_NAME ".ko",
			      "/lib/modules/%s/updates/dkms/" KMOD_NAME ".ko",
			      "/lib/modules/%s/updates/" KMOD_NAME ".ko" };
	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		if (!fmt[i][0] || (i == 0 && !run_from_build_tree()))
			continue;
		snprintf(path, len, fmt[i], u.release);
		if (is_file(path))
			return 0;
		size_t o = strlen(tried);
		snprintf(tried + o, sizeof(tried) - o, "%s%s", o ? ", " : "", path);
	}
	snprintf(why, whylen, "the " KMOD_NAME " module is not loaded and no " KMOD_NAME ".ko was found "
		 "(looked in %s): install idlescope-dkms, or build it (make -C kmod, docs/kmod.md) and "
		 "give --kmod-path, or use --method bpf",
		 tried);
	return -1;
}

static const char *load_error(int err)
{
	switch (err) {
	case ENOEXEC:
		return "not a module for the running kernel (built for another kernel version? rebuild it)";
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		return "signature missing or rejected (Secure Boot / module.sig_enforce: sign it, docs/kmod.md)";
	case ENOSYS:
		return "this kernel has no module support (CONFIG_MODULES off); use --method bpf or timer";
	case EPERM:
		return "not permitted (needs root with CAP_SYS_MODULE; module loading disabled, or Secure Boot "
		       "lockdown refusing an unsigned module: docs/kmod.md)";
	default:
		return strerror(err);
	}
}

int kmod_load(const char *path, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	long rc = syscall(SYS_finit_module, fd, "", 0);
	int err = errno;
	close(fd);
	if (rc < 0 && err != EEXIST) {
		snprintf(why, whylen, "loading %s: %s", path, load_error(err));
		return -1;
	}
	if (rc < 0)
		return 1;   /* loaded meanwhile by someone else: not ours to unload */
	/* devtmpfs creates the node at once; udev may still be adjusting it */
	for (int i = 0; i < 200 && access(KMOD_DEV, F_OK) < 0; i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
	if (access(KMOD_DEV, F_OK) < 0) {
		snprintf(why, whylen, "%s loaded but %s did not appear (no devtmpfs or udev?)", path, KMOD_DEV);
		return -1;
	}
	return 0;
}

int kmod_unload(char *why, size_t whylen)
{
	for (int i = 0; i < 50; i++) {
		if (syscall(SYS_delete_module, KMOD_NAME, O_NONBLOCK) == 0)
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			break;
		nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	}
	snprintf(why, whylen, "unloading " KMOD_NAME ": %s", strerror(errno));
	return -1;
}
