/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_H
#define PERPKT_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/control.h"
#include "workload/histogram.h"
#include "profile/profile.h"

/*
 * The ping-pong workload: a responder and a client, separate processes,
 * each pinned to its CPU. The client drives the measurement window
 * itself, at round-trip boundaries: it enables the counters' file
 * descriptors (inherited across fork) when the window opens and disables
 * them when it closes, so the round trips counted are exactly those the
 * counters saw.
 */

/* --burst: the most requests in flight */
#define WORKLOAD_BURST_MAX 32
/* --flows: the most ping-pong pairs (each two processes, two sockets) */
#define WORKLOAD_FLOWS_MAX 64

struct workload_config {
	const char *transport;   /* "udp" (NULL), "tcp", "pipe", "icmp" */
	const char *network;     /* "loopback" (NULL) or "veth" */
	int client_cpu;
	int server_cpu;          /* ignored with peer, echo or icmp */
	int nflows;              /* --flows: ping-pong pairs; 0 or 1: one */
	/* with nflows > 1: flow i's CPUs (NULL: client_cpu, server_cpu) */
	const int *client_cpus, *server_cpus;
	uint32_t message_size;   /* payload bytes of a request */
	uint32_t reply_size;     /* of a reply; 0: as message_size */
	int burst;               /* requests in flight; 0 or 1: ping-pong */
	const int *window_fds;   /* perf fds to ENABLE/DISABLE at the window */
	int nwindow_fds;
	int window_marks;        /* 1: the client also executes the window's
				    marks (workload/marks.h), for a QEMU
				    plugin that counts between them */
	uint64_t count;          /* >0: the client closes the window itself
				    after this many round trips */
	uint64_t gap_ns;         /* pause between round trips */
	int gap_spin;            /* 1: busy-wait the gap, 0: sleep it */
	const char *peer;        /* HOST[:PORT] of a `perpkt serve` */
	const char *peer_key;    /* the key it authenticates with; NULL:
				    control_key_default() */
	uint64_t peer_warmup_ms; /* told to serve: the wait before start */
	uint64_t peer_window_ms; /* and the window, 0 when not known */
	/* what that serve should record of its own side (profile=1 and the
	 * sampling options); NULL: nothing */
	const struct control_setup *peer_recording;
	const char *echo;        /* HOST:PORT of an RFC 862 echo service */
	const char *rps_cpus;    /* hex mask for the rx queue; NULL: leave */
	int no_wait;             /* fail rather than wait for another run
				    that is changing the system */
	int set_irq_cpu;         /* 1: move the interface's IRQs to irq_cpu */
	int irq_cpu;
	int pin_self;            /* 1: pin the caller to self_cpu before the
				    fork, while the workload CPUs are still
				    idle (moving it off a CPU busy with the
				    ping-pong can stall for seconds here) */
	int self_cpu;
};

/* The responder's side, from `perpkt serve` (peer mode). */
struct workload_remote {
	int valid;
	int cpu;                 /* responder CPU, -1 if not pinned */
	uint64_t cpu_ns, wait_ns, switches;  /* schedstat, over the window */
	uint64_t answered;       /* messages it answered in its window, 0:
				    not said (an older serve) */
	int kernel;              /* icmp: the kernel answered (answered is
				    its echo replies), no responder process */
	/* --flows: responders (cpu is flow 0's, the counts all flows'
	 * sums) and each one's answered messages; 0: one */
	int nflows;
	uint64_t answered_by_flow[WORKLOAD_FLOWS_MAX];
};

/* --flows: one flow's part of a window */
struct workload_flow_result {
	uint64_t round_trips;
	uint64_t p50_ns;         /* 0: no round trip */
	int client_cpu, server_cpu;
	uint16_t port;           /* the responder's, 0: none (pipe, icmp) */
};

/* What the client measured inside the window. */
struct workload_result {
	uint64_t round_trips;
	uint64_t window_ns;      /* CLOCK_MONOTONIC, just after the enable to
				    the last reply before the disable */
	/* Each round trip timed from the previous reply's arrival to this
	 * one's, so it includes the client's own loop (tens of ns) and the
	 * samples add up to window_ns. With a gap, from send to reply. */
	struct histogram latency;
	/* Round trips before the first window, timed the same way with the
	 * counters off: the baseline for the observer's own cost. */
	struct histogram unsampled;
	/* Round trips with the counters off since the previous window
	 * closed (--between; the warm-up's for the first window). */
	struct histogram before;
	int failed;              /* the client or responder hit an error */
	int partial;             /* failed, but the counts up to the failure
				    are valid (a responder died mid-run) */
	char error[256];         /* its message, if failed */
	uint64_t timeouts;       /* lost: no reply within ~1 s, re-sent */
	uint64_t late_replies;   /* out of order: reply to a re-sent request */
	uint64_t duplicates;     /* a second reply to an answered request */
	struct workload_remote remote;
	/* --flows: round_trips and the histograms above are all flows'
	 * together, window_ns the longest flow's */
	int nflows;
	struct workload_flow_result flow[WORKLOAD_FLOWS_MAX];
	/* udp over loopback, veth or to a peer: the client namespace's Udp
	 * InDatagrams over the window, read with every flow stopped (two
	 * per round trip on loopback, the reply alone on veth); valid 0:
	 * not read */
	int udp_in_valid;
	uint64_t udp_in;
	int icmp_in;             /* icmp --flows: udp_in is Icmp InEchoReps,
				    one per round trip */
	/* the local clients' and responders' CPU time over the window
	 * (schedstat, all flows), read at its edges with every flow
	 * stopped; cpu_valid 0: not read */
	int cpu_valid;
	uint64_t client_cpu_ns, responder_cpu_ns;
};
struct workload;

/* Fork responder and client; they start ping-ponging at once (warm-up).
 * Returns after the first round trip, so a path that cannot carry
 * packets fails here. NULL transport means "udp", NULL network
 * "loopback"; message_size is 1..65507. With --net veth the namespaces
 * are made here and removed by workload_stop. A run that changes the
 * system (--net veth, --rps-cpus) first takes the system lock
 * (workload/saved-state.h), waiting for another such run unless
 * no_wait, and holds it until workload_stop. On failure *out is NULL
 * and no child, namespace or changed setting is left behind. The
 * children ignore SIGINT: the caller decides when to stop them. */
int workload_start(struct workload **out, const struct workload_config *c);
pid_t workload_client_pid(const struct workload *w);
/* 0 when there is no local responder process (icmp, peer, echo). */
pid_t workload_responder_pid(const struct workload *w);
/* --flows: how many, and flow i's pids (responder 0 as above). */
int workload_nflows(const struct workload *w);
void workload_flow_pids(const struct workload *w, int i, pid_t *client,
			pid_t *responder);
/* --flows: the spread between the flows of res, as a condition line:
 * each flow's round trips, the slowest and the fastest flow's p50 with
 * its ports and CPUs; "" with one flow. */
void workload_flows_text(const struct workload_result *res, char *buf,
			 size_t len);
/* The gap before the next window, as the caller marks it: its round
 * trips (the next result's `before`) are those from workload_gap_begin
 * to workload_gap_end, not what an edge's handshake or /proc snapshot
 * adds on either side (by turns, the other tool samples only between
 * its enable and its disable). Unmarked, the gap runs from the last
 * window's close to the next one's open. */
void workload_gap_begin(struct workload *w);
void workload_gap_end(struct workload *w);
/* Open the measurement window at the client's next round-trip boundary;
 * returns once the counters are enabled. */
int workload_window_open(struct workload *w);
/* 1 once the window cannot go on: with a count, the client closed it
 * itself; or the client failed inside it (its responder died, a stream
 * closed) and published what it counted until then. */
int workload_window_done(struct workload *w);
/* Round trips so far in the open window (for progress lines). */
uint64_t workload_window_progress(const struct workload *w);
/* Close it; returns once the counters are disabled and `res` is filled.
 * On -1, res->partial says whether the counts up to a failure are kept.
 * `res` is zeroed before its first close (calloc, static) and then
 * reused: only the buckets its histograms used are cleared. */
int workload_window_close(struct workload *w, struct workload_result *res);
/* --peer with peer_recording: the profile serve recorded of its side
 * over the windows, a JSON document in *text (malloc'd, *len bytes);
 * -1 with the reason in why when there is none. */
int workload_peer_profile(struct workload *w, char **text, size_t *len,
			  char *why, size_t whylen);
/* Add what only the running workload knows as test conditions: network
 * and interfaces, RPS/IRQ settings in effect, peer, gap. */
void workload_add_conditions(const struct workload *w, struct profile *p);
/* What the workload saw, as test conditions: lost, late and duplicate
 * replies, a partial result, and the peer's responder counters in
 * --peer mode. */
void workload_result_conditions(struct profile *p,
				const struct workload_result *res);
/* Stop and reap both processes, restore changed settings, remove the
 * namespaces, unmap and free w. NULL is a no-op, so
 * `workload_stop(w); w = NULL;` is safe on every exit path. */
void workload_stop(struct workload *w);

/* --placement: resolve "same", "smt", "shared-cache", "cross-cache" or
 * "cross-socket" to CPUs among online[]; client and server -1 when free.
 * Prints what the topology offers when it cannot be done. */
int workload_place(const char *placement, const int *online, int nonline,
		   int *client, int *server);
/* What workload_start would refuse of c, before anything runs: the
 * transport, network, peer and sizes, the CPUs, and with a peer its
 * key. -1 printed. */
int workload_check_config(const struct workload_config *c);
/* The same less the key: what a perpkt elsewhere (a guest's) would
 * refuse of c. -1 printed. */
int workload_check_request(const struct workload_config *c);
/* --peer: the key at path (NULL: the default) is there and may be
 * used; -1 printed. */
int workload_check_peer_key(const char *path);
/* "100us", "2ms", "1.5s", "500ns" or a plain number of ns. */
int workload_parse_gap(const char *s, uint64_t *ns);

#endif
