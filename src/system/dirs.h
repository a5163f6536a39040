/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSTEM_DIRS_H
#define PERPKT_SYSTEM_DIRS_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p of the folder that holds `path`, each new folder `mode`:
 * 0, or -1 with errno set. */
int dirs_make_parent(const char *path, mode_t mode);

/* `file` as it is, when absolute; else in perpkt's cache folder:
 * $PERPKT_CACHE, $XDG_CACHE_HOME/perpkt or ~/.cache/perpkt. -1 if the
 * path would be too long. */
int dirs_cache_path(const char *file, char *out, size_t len);

#endif
