/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_PRIV_H
#define PERPKT_WORKLOAD_PRIV_H

/*
 * Shared between workload.c (the parent: start, window, stop) and
 * child.c, client.c and responder.c (what runs in the forked children).
 */

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "workload/control-auth.h"
#include "workload/transport.h"
#include "workload/workload.h"

struct netns;
struct tuning;

/* Longer than the reply timeout: the client may be waiting that long
 * for a lost reply before it reaches its next round-trip boundary. A
 * loaded machine (or a sanitizer build sampling at 100 kHz) can stall it
 * for seconds more; a client that died is caught at once regardless. */
#define WAIT_TIMEOUT_MS (TRANSPORT_REPLY_TIMEOUT_MS + 29000)
/* A gap this long between two of the parent's polls is the machine
 * stopping, not the workload: not counted against WAIT_TIMEOUT_MS. */
#define STALL_NS 1000000000ull
#define POLL_NS 1000000L
#define STOP_GRACE_MS 1000
#define CHILD_ERROR_LEN 256
/* The client's watchdog tick; a reply is given up on after more than
 * TRANSPORT_REPLY_TIMEOUT_MS worth of ticks (1 to 1.25 s). */
#define TICK_MS 250
#define TIMEOUT_TICKS (TRANSPORT_REPLY_TIMEOUT_MS / TICK_MS)

/*
 * Window handshake: the parent moves RUN/CLOSED -> OPEN_REQ and
 * OPEN -> CLOSE_REQ; the client answers with OPEN and CLOSED at a
 * round-trip boundary, after it has enabled or disabled the counters.
 */
enum phase {
	PHASE_RUN,
	PHASE_OPEN_REQ,
	PHASE_OPEN,
	PHASE_CLOSE_REQ,
	PHASE_CLOSED,
	PHASE_DONE,	/* closed by the client itself after `count` */
};

/* Remembers which of the last requests were answered, to tell a
 * duplicate reply from a late one. */
#define SEQ_RING 64
/* --burst: at most half the ring in flight, so a number's slot is
 * free again long before it is reused */
_Static_assert(WORKLOAD_BURST_MAX * 2 <= SEQ_RING, "burst over half the ring");

/* The block shared by parent, client and responder (MAP_SHARED). */
struct shared {
	/* read by the client every round trip, written by the parent */
	alignas(64) _Atomic int phase;
	/* written by the client every round trip; own cache line */
	alignas(64) _Atomic uint64_t progress;
	/* published by the client before it acknowledges a close */
	alignas(64) uint64_t round_trips;
	uint64_t window_ns;
	uint64_t timeouts;
	uint64_t late_replies;
	uint64_t duplicates;
	int partial;		/* the client failed inside the window and
				   published its counts up to then */
	struct histogram hist;
	/* round trips outside the window, while the counters are off: the
	 * observer's cost is the difference. Written by the client only
	 * outside the window, read by the parent while it is open. */
	struct histogram quiet;
	/* indexed by enum role: each child writes only its own, then exits */
	char error[2][CHILD_ERROR_LEN];
	/* by role: each child's pid, written by itself before it says it
	 * is ready (0: none here, as with --peer or icmp's responder) */
	pid_t pid[2];
};

/* The client's window counters; published on close or failure. */
struct client_state {
	uint64_t rts, timeouts, late, dups, start, prev;
	uint64_t prev_quiet;	/* last reply outside the window, 0: none yet */
	int in_window;
};

/* --flows: one ping-pong pair, its own transport (ports) and CPUs */
struct flow {
	struct shared *sh;
	struct transport *t;
	pid_t pid[2];		/* by ROLE_CLIENT, ROLE_RESPONDER; 0 if not forked */
	int reaped[2];
	int cpu[2];
	uint16_t port;		/* the responder's, 0: none; --peer: set by
				   peer_setup */
};

/* --flows: where every client waits at a window's edge (client.c),
 * shared by all; gen is a futex word. */
struct flow_gate {
	uint32_t arrived;
	uint32_t gen;
	/* the start: every child pinned before any traffic (moving a
	 * process onto a CPU busy with another flow's ping-pong can stall
	 * for tens of seconds on a small VM); start is a futex word */
	uint32_t ready;
	uint32_t start;
	/* udp: the client namespace's Udp InDatagrams, read by the last
	 * client at each edge while every flow is stopped (so exactly the
	 * window's datagrams); written by that client only */
	int read_udp;		/* set before the fork */
	int read_icmp;		/* icmp: Icmp InEchoReps instead (the
				   count in udp_open, udp_in) */
	int udp_bad;		/* a read failed: no count */
	uint64_t udp_open;	/* as the window opened */
	uint64_t udp_in;	/* over the last window */
	/* every flow's clients' and responders' CPU time (schedstat), by
	 * role, read by that client at each edge with the counters off:
	 * exactly the window's, however late the parent reads /proc */
	int cpu_bad;		/* a read failed: none */
	uint64_t cpu_open[2];	/* as the window opened */
	uint64_t cpu_win[2];	/* over the last window */
};

struct workload {
	/* in a child: its flow's block, transport and CPUs (set before
	 * the fork); the parent reads flows[] */
	struct shared *sh;
	struct transport *t;
	int cpu[2];
	struct flow *flows;
	int nflows;
	struct flow_gate *gate;
	void *map;		/* the flows' blocks, then the gate */
	const struct transport_ops *ops;
	struct netns *ns;	/* --net veth */
	struct tuning *tuning;	/* --rps-cpus, --irq-cpu */
	struct saved_lock *lock;/* held while the system is changed */
	struct client_state *cs;/* in the client child only */
	int ns_fd[2];		/* by ROLE_CLIENT, ROLE_RESPONDER; -1: stay */
	int ctl;		/* control connection to a peer, -1 if none */
	struct control_auth auth;	/* its key, nonces and counts */
	/* --peer: whether serve records its side (1), or why not */
	int peer_recording;
	char peer_why[CONTROL_LINE_MAX];
	int local_responder;
	uint64_t count, gap_ns;
	int gap_spin;
	uint64_t progress_at_open;
	/* counters off: every flow's sh->quiet as the last window opened,
	 * and what came since then as this one opened (the warm-up's
	 * round trips for the first, kept in unsampled) */
	struct histogram quiet_seen, before, unsampled;
	int before_taken;	/* workload_gap_end took `before` */
	int windows_opened;
	char network[16];
	char where[64];		/* the responder's address, for conditions */
	uint32_t size;
	uint32_t reply_size;	/* what the client waits for */
	int burst;		/* requests in flight, 1: ping-pong */
	int *fds;
	int nfds;
	int window_marks;        /* execute the window's marks (marks.h) */
	int failed;		/* a child died or stopped answering */
	char err[CHILD_ERROR_LEN + 64];
};

extern const char *const workload_role_word[2];

/* --peer (src/workload/peer.c): authenticate to the `perpkt serve` at
 * c->peer and ask it for a responder per flow (flows[i].cpu), filling
 * the data address, token and each flow's port (flows[i].port); one
 * request on the control channel and its answer. -1 printed. */
int peer_setup(struct workload *w, const struct workload_config *c,
	       struct transport_config *tc);
int peer_request(struct workload *w, const char *req, char *line, size_t len);


static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --flows (flows.c): "flow 2 (port 40001, client CPU 0, responder CPU
 * 1): " for messages about flow i, "" with one flow; and what a config
 * of N flows cannot do (-1 printed). */
const char *workload_flow_name(const struct workload *w, int i, char *buf,
			       size_t len);
int workload_check_flows(const struct workload_config *c, const char *name);

/* In the child just forked for role r: set it up (pin, namespace,
 * signals) and run the responder or the client loop; never returns. */
__attribute__((noreturn))
void workload_child_main(struct workload *w, enum role r, pid_t parent);
/* The two loops (client.c, responder.c), in their set-up child. */
__attribute__((noreturn)) void workload_client_main(struct workload *w);
__attribute__((noreturn)) void workload_responder_main(struct workload *w);
/* In a child: record why it fails for the parent to report and exit; a
 * client failing inside the window first stops the counters and
 * publishes what it counted (a partial run). */
__attribute__((noreturn, format(printf, 3, 4)))
void workload_child_fail(struct workload *w, enum role r, const char *fmt, ...);

/* children.c, the parent's watch over its children: -1 (printed, and
 * w->err set) if one has died, the responder first, since its death is
 * what makes the client fail too; where each is, for a start that timed
 * out ("client pid 12: D on cpu 0 (wants 1) in ..."); reap what has
 * exited (1 when no child is left); signal those not yet reaped. */
int workload_check_children(struct workload *w);
void workload_describe_children(struct workload *w, char *buf, size_t len);
int workload_reap_some(struct workload *w, int flags);
void workload_signal_children(struct workload *w, int sig);

/* workload-config.c: c checked, its transport's ops in *ops; -1 after
 * printing why. */
int workload_check_config_ops(const struct workload_config *c,
			      const struct transport_ops **ops);

#endif
