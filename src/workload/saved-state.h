/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SAVED_STATE_H
#define PERPKT_SAVED_STATE_H

#include <stddef.h>

/*
 * What perpkt changed outside its own namespaces (lo's rps_cpus), kept
 * in SAVED_STATE_DIR/state.<pid> while it is changed, so that a run
 * killed with SIGKILL is put right by the next perpkt, as stale
 * namespaces are. Root only: the directory is 0700.
 */
#define SAVED_STATE_DIR "/run/perpkt"

/* Note that `path` held `old` before this process wrote it; -1 printed. */
int saved_state_record(const char *path, const char *old);
/* The change to `path` was undone: forget it. */
void saved_state_forget(const char *path);
/*
 * Put back what dead perpkt processes left changed (each said on
 * stderr). What a live one has changed is described in `note` (for the
 * conditions: it is not the system's own setting), else note is "".
 */
void saved_state_restore_stale(char *note, size_t len);

#endif
