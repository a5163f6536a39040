/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_H
#define PERPKT_RECORD_H

#include <stdint.h>

#include "lab/lab.h"
#include "parse.h"
#include "profile/profile.h"
#include "record/event-choice.h"
#include "system/unit.h"
#include "workload/busy.h"

/*
 * The recording pipeline, one way: what was asked (struct
 * record_options, filled by src/commands/) -> a plan (the CPUs to sample,
 * the events this machine can measure, which workload) -> windows of
 * counters around that workload -> the profile. Each stage takes the
 * part of the options it needs: events and sampling (record/event-choice.h),
 * CPUs (record/plan.c), windows (record/window.c), and the workload's
 * own part (record/workload-builtin.c, record/workload-command.c, or
 * lab/ for --kernel).
 */

/* Which CPUs to sample, and where the built-in workload runs. */
struct cpu_request {
	int all;                   /* -a */
	int list[MAX_CPUS];        /* -C; n 0: the workload's CPUs */
	int n;
	int client, server;        /* --client-cpu, --server-cpu; -1: default */
	/* --client-cpu LIST, --server-cpu LIST: flow i on clients[i %
	 * nclients] (client, server: the lists' first) */
	int clients[MAX_CPUS], nclients;
	int servers[MAX_CPUS], nservers;
	const char *placement;     /* --placement same|smt|... */
};

/* The measurement windows. */
struct window_request {
	double duration, warmup;   /* seconds */
	int duration_set, warmup_set;  /* -d / -w given */
	int repeat;                /* measurement windows (--repeat), >= 1 */
	int repeat_set;            /* -r given */
	/* --restart: the workload started anew before each window after
	 * the first, warmed up for restart_warmup seconds */
	int restart;
	double restart_warmup;
	uint64_t count;            /* -n: round trips instead of -d */
	double between;            /* --between: seconds of traffic with the
				    * counters off before each window after
				    * the first; 0: none */
	const char *fifo;          /* --window-fifo CTL[,ACK]; NULL: none */
	const char *gap_fifo;      /* --gap-fifo CTL[,ACK]: the same, told
				    * of the gaps between windows */
	double fifo_timeout;       /* --fifo-timeout: seconds an edge waits
				    * for its ack; 0: the default (10) */
	/* --turn-off CMD, --turn-on CMD: a setting compared by turns, the
	 * windows alternating off (even) and on (odd), each switched by sh
	 * in the gap before it; NULL: none */
	const char *turn_on, *turn_off;
};

/* The built-in ping-pong (docs/workload.md); NULL/0/-1: the default. */
struct builtin_request {
	const char *transport;     /* --transport udp|tcp|pipe|icmp */
	const char *network;       /* --net loopback|veth */
	const char *peer;          /* --peer HOST[:PORT] */
	const char *peer_key;      /* --peer-key FILE, NULL: the default */
	int no_remote;             /* --no-remote: serve records nothing */
	const char *remote_cpus;   /* --remote-cpus all|LIST, NULL: serve's
				    * responder CPU */
	const char *echo;          /* --echo HOST:PORT */
	uint32_t message_size;     /* --size REQ[,RESP]: REQ */
	uint32_t reply_size;       /* RESP; 0: as REQ */
	int busy_cpus[BUSY_MAX]; /* --busy CPUS: a spinner on each */
	int nbusy;
	int burst;                 /* --burst N: requests in flight */
	int flows;                 /* --flows N: ping-pong pairs, 0: one */
	uint64_t gap_ns;           /* --gap */
	int gap_spin;              /* --gap-mode spin */
	const char *rps_cpus;      /* --rps-cpus MASK */
	int irq_cpu;               /* --irq-cpu N, -1: leave */
	int no_wait;               /* --no-wait: fail while another run
				    * changes the system */
	int window_marks;          /* --window-marks: for the QEMU plugin */
};

/* A workload of one's own: -- CMD or -p PID, counted in --per units. */
struct command_request {
	struct unit per;           /* --per; rt by default */
	char **argv;               /* -- CMD ARGS, NULL-terminated, or NULL */
	int attach[64];            /* -p PID,... */
	int nattach;
};

/* What `perpkt record` (or stat) was asked to do, after option parsing. */
struct record_options {
	const char *output;
	unsigned output_flags;     /* PROFILE_OUTPUT_FORCE */
	struct sampling_request sampling;
	struct cpu_request cpus;
	struct window_request window;
	struct builtin_request builtin;
	struct command_request own;
	struct lab_request kernel;     /* --kernel: record inside it (lab/) */
	const char *builtin_only;  /* a built-in workload option given, or NULL */
	int quiet;
	int verbose;               /* -v */
	int argc;
	char **argv;
};

/*
 * Run the workload under the counters, with SIGINT, SIGTERM and SIGHUP
 * turned into a clean stop of the window. Record (out NULL) writes the
 * profile to o->output; stat (out given) gets the counts in *out, to
 * free with profile_free, unless the result is RESULT_FAILURE.
 */
int record_run(const struct record_options *o, struct profile *out);

#endif
