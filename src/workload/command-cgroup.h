/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_COMMAND_CGROUP_H
#define PERPKT_COMMAND_CGROUP_H

#include <limits.h>
#include <sys/types.h>

#include "profile/rundir.h"

/*
 * A started command's tree in a cgroup v2 group of its own, where one
 * can be made (root, cgroup2 mounted): PERPKT'S-CGROUP/perpkt-cmd.ID. A
 * process that leaves the command's process group (setsid, a daemon,
 * a `set -m` job) stays in it, so it is still ended with the run, and
 * named. The group is noted in the run directory before it is made
 * (RUNDIR/cgroup.ID, rundir.h): when record is SIGKILLed, the next run
 * or `perpkt restore` kills what is left in it and says so.
 */
struct command_cgroup {
	char path[PATH_MAX];  /* "" when there is none */
	int procs;            /* its cgroup.procs, open to write: -1 none */
	struct rundir_note note;
};

/* Make it; without one (no cgroup2, not allowed) path is "" and the
 * command runs as before. */
void command_cgroup_make(struct command_cgroup *g);
/* In the forked child, before exec: move into it. */
void command_cgroup_enter(const struct command_cgroup *g);
/* After the command's process group has been ended: kill what is left
 * in the group (it left the process group), say so naming each ("'sleep'
 * (pid 12), ..." into names) and remove the group. How many were left. */
int command_cgroup_end(struct command_cgroup *g, char *names, size_t len);
/* The groups of killed runs: what is left in them killed (said), the
 * groups removed; how many processes. */
int command_cgroup_remove_stale(void);

#endif
