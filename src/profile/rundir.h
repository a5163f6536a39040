/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_RUNDIR_H
#define PERPKT_PROFILE_RUNDIR_H

#include <stddef.h>

/*
 * Where a run keeps what it must undo if it is killed: the settings it
 * changed (workload/saved-state.h), the system lock (one run at a time
 * changes the system) and the temporary file its profile is written
 * to. Root's is RUNDIR_ROOT, mode 0700; another user's is
 * $XDG_RUNTIME_DIR/perpkt when that is set, else there is none.
 */
#define RUNDIR_ROOT "/run/perpkt"

/* The directory into buf, made if missing (mode 0700, owned by this
 * user); -1 with errno set when there is none (a user without
 * $XDG_RUNTIME_DIR) or it cannot be made. */
int rundir_path(char *buf, size_t len);
/* A perpkt process with this pid is running (a reused pid runs
 * something else: told by its name). */
int rundir_pid_alive(long pid);

#endif
