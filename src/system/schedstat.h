/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SCHEDSTAT_H
#define PERPKT_SCHEDSTAT_H

#include <stdint.h>
#include <sys/types.h>

/*
 * A task's scheduler accounting, /proc/<pid>/schedstat: ns on a CPU, ns
 * runnable and waiting for one, timeslices run. Read at the edges of a
 * window and subtracted by record (procstat.c), a command of one's own
 * (workload/command.c) and serve's responder.
 */
struct schedstat {
	uint64_t cpu_ns, wait_ns, switches;
};

/* One schedstat file's three numbers; -1 when it cannot be read (errno
 * says why; 0 when its text is not three numbers). */
int schedstat_read_path(const char *path, struct schedstat *s);
/* /proc/<pid>/schedstat: the process's main thread */
int schedstat_read(pid_t pid, struct schedstat *s);
/* Every live thread of pid (/proc/<pid>/task/<tid>/schedstat) added to
 * `sum`; a thread gone meanwhile is passed over. */
void schedstat_add_threads(pid_t pid, struct schedstat *sum);

#endif
