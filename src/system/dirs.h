/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSTEM_DIRS_H
#define PERPKT_SYSTEM_DIRS_H

#include <sys/types.h>

/* mkdir -p of the folder that holds `path`, each new folder `mode`:
 * 0, or -1 with errno set. */
int dirs_make_parent(const char *path, mode_t mode);

#endif
