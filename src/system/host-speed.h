/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_HOST_SPEED_H
#define PERPKT_HOST_SPEED_H

/*
 * How fast this host runs a fixed piece of work right now, on one CPU:
 * the A/A question (did B's run meet a slower host?) asked of a probe
 * that perpkt itself does not change. A system call that does nothing
 * (getppid) crosses into the kernel and back, which on a paravirtual
 * guest is the hypervisor's cost too; a dependent chain of integer
 * steps is the core's speed alone. Each is the fastest of a few short
 * tries, so a preemption does not count as slowness.
 */
struct host_speed {
	double syscall_ns;   /* one getppid(); 0: not measured */
	double loop_ns;      /* 1000 dependent integer steps */
};

/* Measure on `cpu` (the caller is moved there and back): about 2 ms.
 * -1 and *out zeroed when the CPU cannot be had. */
int host_speed_probe(int cpu, struct host_speed *out);

#endif
