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
/*
 * A run's name in the directory, "PID-START-PIDNS": its pid, its start
 * time (clock ticks after boot, /proc/PID/stat) and the inode of its
 * PID namespace. Runs in two PID namespaces that share the directory
 * may have the same pid (each PID 1 of an `unshare -pf`), and a pid is
 * reused: the three together name one process of this boot.
 */
#define RUNDIR_ID_LEN 64
/* A file of the directory: the directory (up to 256), a kind, an id */
#define RUNDIR_FILE_LEN (256 + 16 + RUNDIR_ID_LEN)
/* This process's id into buf; -1 when /proc cannot say. */
int rundir_own_id(char *buf, size_t len);
/* The pid part of an id, for messages; 0 when it is not an id. */
long rundir_id_pid(const char *id);
/* "perpkt pid N", "... of another PID namespace" where it is, for
 * messages; "an older perpkt" for a name that is no id. */
const char *rundir_id_describe(const char *id, char *buf, size_t len);
/*
 * A note of this run's, RUNDIR/KIND.ID (KIND may be NAME-TAG, for
 * several of one kind; NAME is what rundir_notes_undo takes), holding one line of text (a
 * path), held under flock while the run lives: what a run must undo if
 * it is killed (QEMU's folder, the workload's cgroup), written before
 * the thing is made. The lock, not the pid, says whether its run lives:
 * it holds across PID namespaces. The descriptor is close-on-exec.
 */
struct rundir_note {
	int fd;                        /* -1: none (no run directory) */
	char path[RUNDIR_FILE_LEN];
};
/* Write it; 0 also where there is no run directory (fd -1 then), -1
 * with errno set when it cannot be written. */
int rundir_note_open(struct rundir_note *n, const char *kind, const char *text);
/* The thing is undone: remove the note. */
void rundir_note_close(struct rundir_note *n);
/* Each note of `kind` whose run is gone: undo(text, who, arg), who
 * naming the run for messages; the note is removed when undo returns
 * >= 0. The sum of undo's positive returns. */
int rundir_notes_undo(const char *kind,
		      int (*undo)(const char *text, const char *who, void *arg),
		      void *arg);
/* Whether the run `id` names is running: 1 yes, 0 no, -1 unknown (it
 * is in another PID namespace: its pid says nothing here). */
int rundir_id_alive(const char *id);

#endif
