/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_H
#define PERPKT_RECORD_H

#include <signal.h>
#include <stdint.h>

#include "parse.h"
#include "profile/profile.h"
#include "system/unit.h"

/* What `perpkt record` was asked to do, after option parsing. */
struct record_options {
	const char *output;
	double duration, warmup;   /* seconds */
	int repeat;                /* measurement windows (--repeat), >= 1 */
	const char *events;        /* comma-separated libpfm4 names */
	uint64_t period;           /* -c; 0: chosen from the sample-rate limit */
	uint64_t freq;             /* -F; samples per second, 0: use periods */
	int callchain;             /* -g */
	int include_user;          /* --user */
	int all_cpus;              /* -a */
	int cpus[MAX_CPUS];        /* -C; ncpus 0: the workload's CPUs */
	int ncpus;
	int client_cpu, server_cpu;/* -1: default */
	uint32_t message_size;
	/* workload (docs/workload.md); NULL/0/-1: the default */
	const char *transport;     /* --transport udp|tcp|pipe|icmp */
	const char *network;       /* --net loopback|veth */
	const char *peer;          /* --peer HOST[:PORT] */
	int no_remote;             /* --no-remote: serve records nothing */
	const char *remote_cpus;   /* --remote-cpus all|LIST, NULL: serve's
				    * responder CPU */
	const char *echo;          /* --echo HOST:PORT */
	const char *placement;     /* --placement same|smt|... */
	uint64_t count;            /* -n: round trips instead of -d */
	uint64_t gap_ns;           /* --gap */
	int gap_spin;              /* --gap-mode spin */
	const char *rps_cpus;      /* --rps-cpus MASK */
	int irq_cpu;               /* --irq-cpu N, -1: leave */
	unsigned ring_pages;
	int no_fallback;
	int counting_only;         /* perpkt stat: count, never sample */
	/* --kernel: record inside this kernel under QEMU (src/lab/) */
	const char *kernel;
	const char *vmlinux;       /* --vmlinux: its DWARF, build-id checked */
	const char *guest_perpkt;  /* --guest-perpkt: binary for the guest */
	const char *qemu_args[32]; /* --qemu-arg, in order */
	size_t nqemu_args;
	double qemu_timeout;       /* --qemu-timeout; 0: from the run length */
	/* a workload of one's own (src/record-command.c) */
	struct unit per;           /* --per; rt by default */
	char **command;            /* -- CMD ARGS, NULL-terminated, or NULL */
	int attach[64];            /* -p PID,... */
	int nattach;
	int duration_set, warmup_set;  /* -d / -w given */
	const char *builtin_only;  /* a built-in workload option given, or NULL */
	int quiet;
	int verbose;               /* -v */
	int argc;
	char **argv;
	volatile sig_atomic_t *interrupted;  /* set by the signal handler */
};

/* The workload's options, shared by the help of record and stat (one
 * option table parses them for both). */
#define WORKLOAD_OPTIONS_HELP \
"  -d, --duration SECS    measurement window (default 5)\n" \
"  -w, --warmup SECS      ping-pong before the window opens (default 1)\n" \
"  -n, --count N          stop after N round trips in the window\n" \
"      --transport NAME   udp (default), tcp, pipe or icmp\n" \
"  -s, --size BYTES       message payload size (default 40)\n" \
"      --gap TIME         pause between round trips (e.g. 100us)\n" \
"      --gap-mode MODE    sleep (default) or spin through the gap\n" \
"      --net NAME         loopback (default) or veth: two namespaces\n" \
"                         made by perpkt, joined by a veth pair\n" \
"      --peer HOST[:PORT] responder is a 'perpkt serve' there (port 12865)\n" \
"      --echo HOST:PORT   responder is an RFC 862 echo service\n" \
"      --client-cpu N     CPU of the client (default: last online CPU)\n" \
"      --server-cpu N     CPU of the responder (default: the client's)\n" \
"      --placement REL    same, smt, shared-cache, cross-cache or\n" \
"                         cross-socket: CPUs chosen from the topology\n" \
"      --rps-cpus MASK    RPS mask of the receive queue for the run\n" \
"      --irq-cpu N        move the interface's IRQs to CPU N for the run\n" \
"\n" \
"Or a workload of your own, normalised by a count the kernel keeps:\n" \
"  -- CMD [ARGS...]       run CMD (its process tree has the role\n" \
"                         'workload'); the window is its lifetime, or -d\n" \
"  -p, --pid PID,...      attach to running processes for -d seconds\n" \
"      --per UNIT         what values are per: rt (round trips of the\n" \
"                         built-in workload, the default), packets:IFACE,\n" \
"                         rx-packets:IFACE, tx-packets:IFACE,\n" \
"                         udp-datagrams[:in|out|both] (in by default),\n" \
"                         tcp-segments[:in|out|both], irqs:NAME (lines of\n" \
"                         /proc/interrupts) or count:N (your own count)\n"

/* The long options record and stat share, for their option tables
 * (the values are the short letters or small numbers below 32), and
 * their short letters. */
#define RECORD_COMMON_LONGOPTS \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "warmup", required_argument, NULL, 'w' }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "user", no_argument, NULL, 5 }, \
	{ "all-cpus", no_argument, NULL, 'a' }, \
	{ "cpus", required_argument, NULL, 'C' }, \
	{ "client-cpu", required_argument, NULL, 1 }, \
	{ "server-cpu", required_argument, NULL, 2 }, \
	{ "size", required_argument, NULL, 's' }, \
	{ "transport", required_argument, NULL, 20 }, \
	{ "net", required_argument, NULL, 21 }, \
	{ "peer", required_argument, NULL, 22 }, \
	{ "echo", required_argument, NULL, 23 }, \
	{ "placement", required_argument, NULL, 24 }, \
	{ "count", required_argument, NULL, 'n' }, \
	{ "gap", required_argument, NULL, 25 }, \
	{ "gap-mode", required_argument, NULL, 26 }, \
	{ "rps-cpus", required_argument, NULL, 27 }, \
	{ "irq-cpu", required_argument, NULL, 28 }, \
	{ "no-fallback", no_argument, NULL, 4 }, \
	{ "per", required_argument, NULL, 7 }, \
	{ "pid", required_argument, NULL, 'p' }, \
	VERBOSITY_OPTIONS
/* after a '+': the first word that is not an option starts CMD */
#define RECORD_COMMON_SHORTOPTS "d:w:e:aC:s:n:p:qv"

/* The same as record_run() for -- CMD or -p PID (record-command.c). */
int record_run_command(const struct record_options *o, struct profile *keep);

/* src/record-options.c */
void record_defaults(struct record_options *o);
/* One option of RECORD_COMMON_LONGOPTS: 1 taken, 0 not one of them,
 * -1 after printing what is wrong with arg. */
int record_common_option(int c, const char *arg, struct record_options *o);
/* After getopt: words left from optind on are -- CMD; then options
 * that exclude each other. -1 after printing which. */
int record_check_options(struct record_options *o, int argc, char **argv);
/* -q/-v set the process's message level: when the command runs, not
 * when sweep checks a cell's arguments. */
void record_apply_verbosity(const struct record_options *o);
/* "period" for 'c': record's long option names, for messages */
const char *record_option_name(int c);
/* record's whole command line (its usage is in cmd-record.c); sweep
 * checks its cells with it. *help set for -h. -1 after printing why. */
int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help);

/*
 * Run the workload under the counters, with SIGINT, SIGTERM and SIGHUP
 * turned into a clean stop of the window. Record (out NULL) writes the
 * profile to o->output; stat (out given) gets the counts in *out, to
 * free with profile_free, unless the result is RESULT_FAILURE.
 */
int record_run(struct record_options *o, struct profile *out);

#endif
