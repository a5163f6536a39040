/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SAVED_STATE_H
#define PERPKT_SAVED_STATE_H

#include <stddef.h>

#include "profile/rundir.h"

/*
 * What perpkt changes outside its own processes (lo's rps_cpus, the
 * network namespaces of --net veth), and the lock that lets one run at
 * a time change it.
 *
 * Both are per network namespace: /sys/class/net/lo is the lo of the
 * namespace the reader is in, so a note says the namespace (nsfs device
 * and inode of /proc/self/ns/net, and its /run/netns name) and the
 * device it applies to, and only a run in the same namespace puts it
 * back (a note made under `ip netns exec pp1` is pp1's lo, never the
 * host's). The lock is one byte of RUNDIR/lock per namespace (a POSIX
 * record lock: the kernel drops it when the process dies, and children
 * do not inherit it), taken before a run's first change and held until
 * all is put back; a second such run in the same namespace waits for
 * it, or fails with --no-wait. Every change is noted in RUNDIR/state.<id>
 * (rundir.h) before it is made, so that whatever point a SIGKILL comes
 * at, the next run in that namespace that takes the lock, or `perpkt
 * restore` there, puts it back.
 */
struct saved_lock;

/* Take the lock: at once, or after waiting for the run that holds it
 * (said on stderr), or -1 (printed) with no_wait. Then put back what
 * killed runs left. *out NULL and 0 where there is no run directory
 * (a user without $XDG_RUNTIME_DIR, who can change nothing anyway). */
int saved_state_lock(struct saved_lock **out, int no_wait);
/* Release it; NULL is a no-op. */
void saved_state_unlock(struct saved_lock *l);

/* Note that `path` held `old` before this process changes it; -1
 * printed. */
int saved_state_record(const char *path, const char *old);
/* The change to `path` was undone: forget it. */
void saved_state_forget(const char *path);
/* record --turn-off CMD: run by the next run in this namespace (or
 * perpkt restore there) if this one dies with the setting on; forgotten
 * once this run has switched it off. -1 printed (a command too long). */
#define SAVED_TURN_MAX 400
int saved_state_record_turn_off(const char *cmd);
void saved_state_forget_turn_off(void);
/* A namespace this process is about to make, and made no more. */
int saved_state_record_netns(const char *name);
void saved_state_forget_netns(const char *name);

/*
 * For a run that changes nothing: put back what killed runs left when
 * no live run holds the lock; when one does, describe in `note` what
 * it has changed (for the conditions: it is not the system's own
 * setting), else note is "".
 */
void saved_state_settle(char *note, size_t len);
/*
 * perpkt restore: under the lock (waiting for it unless no_wait), put
 * back what every dead run of this network namespace left; the number
 * of settings and namespaces put back (each said, with the namespace
 * and device), or -1 when one could not be (said). Dead runs' notes for
 * other namespaces are said (where to run it) and left, or dropped when
 * their namespace is gone.
 */
int saved_state_restore_all(int no_wait);

#endif
