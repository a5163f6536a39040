/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_CPU_H
#define PERPKT_WORKLOAD_CPU_H

/*
 * CPU placement for the workload processes.
 */

/* 0 if this process may run on `cpu`; otherwise prints why not (does
 * not exist, offline, outside the allowed set) and returns -1. */
int cpu_check_usable(int cpu);
/* Pin the calling process to `cpu`: 0 or a negative errno. Uses no
 * stdio, so it is safe in a freshly forked child. */
int cpu_pin_self(int cpu);

#endif
