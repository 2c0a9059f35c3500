/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze filter: where the new run may go, and putting it there. */
#ifndef ANALYZE_FILTER_PATHS_H
#define ANALYZE_FILTER_PATHS_H
#include <stdbool.h>

/*
 * Refuse an output path that would touch the input, judged by device and inode (links and
 * other spellings of a path are seen through): OUT is the input (its directory or its
 * file), OUT contains it (a parent directory of it), or OUT lies inside the input directory.
 * in_path: the run path as given; in_is_dir: it names a directory. -1 after a message.
 */
int filter_check_paths(const char *in_path, bool in_is_dir, const char *out);

/*
 * A new empty directory beside out ("OUT.tmp-XXXXXX") to write into; NULL after a message.
 * An existing out is refused unless force, and even then unless it is a directory that
 * holds nothing but run files (info.json, info.yml, datapoints.csv, counters.csv).
 */
char *filter_tmp_dir(const char *out, bool force);

/* Move the finished tmp directory to out (replacing an old run there). -1 after a message. */
int filter_commit(const char *tmp, const char *out);

/* Remove the tmp directory and the run files in it (after a failure). */
void filter_discard(const char *tmp);

#endif
