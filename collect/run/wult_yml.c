// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.yml beside info.json in a measuring run's directory, so that wult calc/report/filter
 * read the run (docs/format.md, "For wult"). Replaced atomically, like info.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "formats/wult_info.h"
#include "text/util.h"
#include "idlescope/version.h"

static int write_whole(int fd, const char *text)
{
	size_t len = strlen(text), done = 0;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int run_write_wult_info(const struct run_dir *rd, const cJSON *info)
{
	static const char tmp[] = ".info.yml.tmp";
	char *text = isc_wult_info_yml(info, IDLESCOPE_VERSION);
	int fd = -1, ret = -1, e = ENOMEM;

	if (!text)
		goto out;
	if (unlinkat(rd->dirfd, tmp, 0) < 0 && errno != ENOENT)
		goto fail;
	fd = openat(rd->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write_whole(fd, text) < 0)
		goto fail;
	ret = close(fd);
	fd = -1;
	if (ret < 0 || renameat(rd->dirfd, tmp, rd->dirfd, "info.yml") < 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	e = errno;
	ret = -1;
	unlinkat(rd->dirfd, tmp, 0);
out:
	if (fd >= 0)
		close(fd);
	if (ret < 0)
		isc_err("%s/info.yml: %s", rd->path, strerror(e));
	free(text);
	return ret;
}
