/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_COMMAND_H
#define PERPKT_COMMAND_H

#include <stdint.h>
#include <sys/types.h>

#include "profile/profile.h"

/*
 * A workload of the user's own: a command perpkt starts (`-- CMD
 * ARGS`) or processes it attaches to (`-p PID`). Its process tree gets
 * the role `workload`: a pid belongs to it when one of the roots is
 * among its ancestors. The command starts stopped at a gate, so the
 * counters are open before its first instruction.
 */

struct command;

/* Fork argv[0] (PATH searched) in a process group of its own, held
 * before exec until command_release(). */
int command_start(struct command **out, char *const argv[]);
/* Let the command exec; -1 (printed) if it could not be run at all. */
int command_release(struct command *c);
/* Attach to running processes: pids are checked to exist. */
int command_attach(struct command **out, const pid_t *pids, int npids);

/* The command's pid, or the first attached one. */
pid_t command_pid(const struct command *c);
/* 1 while the started command runs; attached processes always "run". */
int command_running(struct command *c);
/* A file descriptor that becomes readable when the started command
 * exits (pidfd), -1 when there is none. */
int command_exit_fd(const struct command *c);
/* Whether pid is in the tree; cached, so a sample costs a lookup. */
int command_owns(struct command *c, pid_t pid);
/* The CPUs the processes may run on (their affinity masks, joined). */
int command_cpus(const struct command *c, int *cpus, int max);

/* CPU time of the whole tree so far: live processes from /proc plus
 * what their reaped children used; once the started command has been
 * reaped, its rusage. t->role is ROLE_WORKLOAD. */
int command_times(struct command *c, struct profile_task *t);

/* How the started command ended ("exited with status 0"), "" while it
 * runs or for attached processes. */
const char *command_status(const struct command *c);
int command_failed(const struct command *c);
/* End a started command's process group (as command_stop) and what
 * left it but not its cgroup (a daemon: named on stderr and into
 * escaped, "" when none); how many of those. Attached processes are
 * left alone. */
int command_end(struct command *c, char *escaped, size_t len);
/* Stop a started command still running (SIGTERM to its group, SIGKILL
 * after 2 s) and reap it; attached processes are left alone. Frees c;
 * NULL is a no-op. */
void command_stop(struct command *c);

#endif
