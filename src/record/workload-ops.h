/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_WORKLOAD_H
#define PERPKT_RECORD_WORKLOAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "counters/perf-groups.h"
#include "profile/profile.h"
#include "record/record.h"

/*
 * What record's windows are opened around: the built-in ping-pong
 * (record/workload-builtin.c) or a workload of one's own, -- CMD or
 * -p PID (record/workload-command.c). record.c and window.c know only
 * this interface; each implementation knows only its own options.
 */
struct record_plan;
struct record_workload;

struct record_workload_ops {
	/* What must exist before the CPUs are chosen: the built-in places
	 * client and server, a command starts held at its gate. -1 after
	 * printing why. */
	int (*prepare)(struct record_workload *w);
	/* The CPUs to sample when neither -a nor -C says; how many, -1
	 * after printing why. */
	int (*cpus)(struct record_workload *w, int *cpus, int max);
	/* Say what is about to run, so the run can be repeated exactly. */
	void (*describe)(const struct record_workload *w,
			 const struct record_plan *plan);
	/* The counters are open and disabled: start the traffic (the
	 * warm-up runs from here) and tell the sampler whose pids are whose.
	 * Sets w->client, w->responder, w->wake_fd. */
	int (*start)(struct record_workload *w, const struct record_plan *plan,
		     struct sampler *s);
	/* During the warm-up: 1 with why (e.g. "the command exited with
	 * status 1") when it ended. NULL: it cannot end by itself. */
	int (*ended)(struct record_workload *w, char *why, size_t len);
	/* Between windows (--restart): stop the traffic and start it
	 * anew, new processes and sockets on the same CPUs, the sampler
	 * told. NULL: the workload cannot restart. -1 after printing. */
	int (*restart)(struct record_workload *w);
	/* The gap between two windows begins (1: every edge of the last
	 * window done, the other tool of --gap-fifo sampling) or ends (0:
	 * before the next window's edges): the next window's gap latency
	 * is what lies between. NULL: a workload that measures no gaps. */
	void (*gap)(struct record_workload *w, int begin);
	/* Open a window: the counters are enabled when it returns. */
	int (*open)(struct record_workload *w);
	/* Whether the window goes on (a count not reached, the command
	 * still running); *so_far gets the units counted in it so far. */
	int (*running)(struct record_workload *w, uint64_t *so_far);
	/* Close it: the counters are disabled when it returns, and rp has
	 * the window's units (round_trips), window_ns, latency and partial.
	 * -1 on failure: rp->partial says the units up to it are kept, and
	 * w->error why. */
	int (*close)(struct record_workload *w, struct profile_repeat *rp);
	/* After the last window, before stop: what only the running
	 * workload knows (its settings in effect, the peer's side). -1
	 * after printing why the run failed. */
	int (*after)(struct record_workload *w, struct profile *p);
	/* Stop the traffic now, before the slow part (symbols, the write);
	 * a second call does nothing. */
	void (*stop)(struct record_workload *w);
	/* The workload's part of the profile, once the counts are in p. */
	int (*fill)(struct record_workload *w, struct profile *p);
	/* Stop if still running, restore what was changed, free w. */
	void (*destroy)(struct record_workload *w);
};

/* The part every workload shares; implementations embed it first. */
struct record_workload {
	const struct record_workload_ops *ops;
	const struct window_request *window;
	volatile sig_atomic_t *interrupted;
	int quiet;
	uint64_t limit_ns;        /* a window's length; 0: until running()
				   * says it is over */
	int progress;             /* show a progress line on a terminal */
	const char *unit;         /* what the units are, for that line */
	int client_cpu, server_cpu;  /* for the conditions; -1: not pinned */
	uint32_t message_size;    /* for the conditions; 0: none */
	pid_t client, responder;  /* for /proc snapshots; 0: none */
	/* --flows: every flow's (clients[0] is client); NULL: those two */
	const pid_t *clients, *responders;
	int npids;
	int wake_fd;              /* readable when it ends; -1: none */
	/* set by the window code */
	double t_start;           /* the warm-up's start, monotonic s */
	double t_end;             /* the last window's close */
	int partial;              /* a failure cut the run: kept up to it */
	char error[256];          /* its message */
	uint64_t units;           /* over every window */
	int setting_on;           /* by turns: --turn-on ran last (or may
				   * have: it failed part-way) */
};

/* The built-in ping-pong, its client and server placed by cpus; the
 * peer's side sampled as smp says. NULL when out of memory. */
struct record_workload *record_workload_builtin(const struct builtin_request *b,
						const struct cpu_request *cpus,
						const struct window_request *win,
						const struct sampling_request *smp);
/* -- CMD or -p PID, counted in own->per units. NULL when out of memory. */
struct record_workload *record_workload_command(const struct command_request *own,
						const struct window_request *win);

#endif
