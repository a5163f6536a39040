/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_BUSY_H
#define PERPKT_WORKLOAD_BUSY_H

#include <sys/types.h>

/*
 * --busy CPUS: a user-space spinner per CPU (`while :; do :; done`, as
 * in the RPS thread), a forked process pinned there, for the warm-up
 * and the windows. Each dies with perpkt (PR_SET_PDEATHSIG), so not
 * even a SIGKILL of perpkt leaves one spinning.
 */

#define BUSY_MAX 256
#define BUSY_COMM "perpkt-busy"

struct busy {
	int n;
	int cpu[BUSY_MAX];
	pid_t pid[BUSY_MAX];
};

/* 0 when every CPU is usable (says why not otherwise): before a run. */
int busy_check(const int *cpus, int n);
/* Fork and pin the spinners on CPUs busy_check passed; -1 (and none
 * left) on failure. */
int busy_start(struct busy *b, const int *cpus, int n);
/* Kill and reap them; safe to call twice, or with none started. */
void busy_stop(struct busy *b);
/* 1 when pid is one of the spinners. */
int busy_owns(const struct busy *b, pid_t pid);

#endif
