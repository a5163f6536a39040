/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_H
#define PERPKT_WORKLOAD_H

#include <stdint.h>
#include <sys/types.h>

#include "histogram.h"

/*
 * The ping-pong workload: a responder and a client, separate processes,
 * each pinned to its CPU. The client drives the measurement window
 * itself, at round-trip boundaries: it enables the counters' file
 * descriptors (inherited across fork) when the window opens and disables
 * them when it closes, so the round trips counted are exactly those the
 * counters saw.
 */

struct workload_config {
	const char *transport;   /* "udp" */
	const char *network;     /* "loopback" */
	int client_cpu;
	int server_cpu;
	uint32_t message_size;   /* payload bytes */
	const int *window_fds;   /* perf fds to ENABLE/DISABLE at the window */
	int nwindow_fds;
};

/* What the client measured inside the window. */
struct workload_result {
	uint64_t round_trips;
	uint64_t window_ns;      /* CLOCK_MONOTONIC, just after the enable to
				    the last reply before the disable */
	/* Each round trip timed from the previous reply's arrival to this
	 * one's, so it includes the client's own loop (tens of ns) and the
	 * samples add up to window_ns. */
	struct histogram latency;
	int failed;              /* the client or responder hit an error */
	char error[256];         /* its message, if failed */
	uint64_t timeouts;       /* no reply within ~1 s: re-sent, uncounted */
	uint64_t late_replies;   /* replies to an earlier, re-sent request */
};

struct workload;

/* Fork responder and client; they start ping-ponging at once (warm-up).
 * Returns after the first round trip, so a path that cannot carry
 * packets fails here. NULL transport means "udp", NULL network
 * "loopback"; message_size is 1..65507. On failure *out is NULL and no
 * child is left behind. The children ignore SIGINT: the caller decides
 * when to stop them. */
int workload_start(struct workload **out, const struct workload_config *c);
pid_t workload_client_pid(const struct workload *w);
pid_t workload_responder_pid(const struct workload *w);
/* Open the measurement window at the client's next round-trip boundary;
 * returns once the counters are enabled. */
int workload_window_open(struct workload *w);
/* Close it; returns once the counters are disabled and `res` is filled. */
int workload_window_close(struct workload *w, struct workload_result *res);
/* Stop and reap both processes, unmap and free w. NULL is a no-op, so
 * `workload_stop(w); w = NULL;` is safe on every exit path. */
void workload_stop(struct workload *w);

#endif
