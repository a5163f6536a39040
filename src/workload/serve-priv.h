/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SERVE_PRIV_H
#define PERPKT_SERVE_PRIV_H

/*
 * Shared between serve.c (the server: the request loop, the responder)
 * and serve-handshake.c (where serve authenticates a client).
 */

#include <netinet/in.h>
#include <stdint.h>

#include "system/schedstat.h"
#include "workload/control-auth.h"
#include "workload/control.h"
#include "workload/server.h"
#include "workload/transport.h"

/* One client's connection: its key state once it said hello, and who
 * it says it is once its setup is authenticated. */
struct serve_client {
	int fd;
	struct control_auth auth;
	int authenticated;
	char addr[32];
	char who[200];           /* "user U on host H from ADDR, ..." */
};

/* A client's responders (serve-responders.c): one per flow, or none
 * over icmp (kernel: this host's kernel answers). */
struct serve_flows {
	int n;
	int kernel;
	uint64_t token;		/* the run's, every flow's */
	struct transport *t[CONTROL_FLOWS_MAX];
	pid_t pid[CONTROL_FLOWS_MAX];
	int cpu[CONTROL_FLOWS_MAX];
	/* what each responder answered, shared with it (MAP_SHARED) */
	struct { _Alignas(64) volatile uint64_t n; } *answered;
	/* at the window's start; each flow's at the last read */
	uint64_t answered0, flow0[CONTROL_FLOWS_MAX], seen[CONTROL_FLOWS_MAX];
	struct schedstat s0[CONTROL_FLOWS_MAX];
};
/* The setup's responders (at most max_flows of them) listening and
 * blocked in their first receive; icmp: none, setup->cpu set to -1.
 * -1 with the reason for the client in err (serve_flows_stop then). */
int serve_flows_start(struct serve_flows *f, struct control_setup *setup,
		      int max_flows, const struct sockaddr_in *bind_addr,
		      const struct sockaddr_in *peer, char *err, size_t errlen);
/* Messages answered so far by all: the responders' counts (each kept
 * in seen[], so the stop's answer adds up to this read), or the
 * kernel's echo replies. */
uint64_t serve_flows_answered(struct serve_flows *f);
/* "start": the counts and CPU times the window is measured from. */
int serve_flows_window_start(struct serve_flows *f);
/* "stop": the answer, the responders' sums over the window up to
 * `answered` (serve_flows_answered at the stop) and each flow's
 * messages; -1 with a message naming the flow that got no traffic or
 * is gone. */
int serve_flows_stop_answer(struct serve_flows *f, uint64_t answered,
			    char *out, size_t len, char *err, size_t errlen);
/* "P0,P1,...": the flows' ports, for the setup's answer. */
void serve_flows_ports(const struct serve_flows *f, char *out, size_t len);
/* Kill and reap the responders, close their sockets. */
void serve_flows_stop(struct serve_flows *f);

/* Wait for the client's next request: 1 when it is there (or the
 * connection ended: the read says), 0 after limit_ms, -1 on
 * SIGINT/SIGTERM. A recording's rings (rec, NULL for none) are emptied
 * meanwhile. Someone else connecting hears "busy", unless the client
 * has just gone: then the newcomer waits in the backlog for the next
 * accept. */
int serve_wait_request(int fd, int lfd, int limit_ms,
		       const struct serve_recorder *ops,
		       struct serve_recording *rec);
/* "error MSG": sealed once the client is authenticated, in the clear
 * before. */
void serve_reply_error(struct serve_client *c, const char *msg);
/*
 * A connection in the handshake: hello, the nonces, and the setup with
 * a mac only the key's holder can make, read as it comes (several at
 * once, each until its deadline), before it may take serve's slot.
 */
struct serve_pending {
	struct serve_client c;
	struct in_addr from;
	char line[CONTROL_LINE_MAX + 1];
	size_t used;
	int said_hello;
	int64_t deadline_ms;
};
/*
 * Rejected connections (bad hellos, wrong keys, handshakes not finished
 * in time, pushed out, refused) are said at most SERVE_LOG_BURST times
 * per SERVE_LOG_WINDOW_MS; the others are counted, and one line says
 * how many when the window ends (serve_log_flush), so a flood from
 * anyone cannot fill serve's log.
 */
#define SERVE_LOG_BURST 10
#define SERVE_LOG_WINDOW_MS 10000
struct serve_log {
	int64_t since_ms;	/* this window's start */
	int said;		/* lines said in it */
	unsigned long held;	/* rejections not said in it */
};
/* "serve: ..." as a warning, unless -q or past this window's burst */
void serve_log_reject(struct serve_log *l, const struct serve_config *o,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* At a window's end (or, final, at serve's), say how many were held. */
void serve_log_flush(struct serve_log *l, const struct serve_config *o,
		     int64_t now_ms, int final);

void serve_pending_init(struct serve_pending *p, int fd,
			const struct sockaddr_in *peer,
			const struct serve_config *o, int64_t deadline_ms);
/* Read what has come: 1 authenticated, with the setup in *setup; 0 not
 * yet; -1 refused (answered why) or gone: the caller closes it. */
int serve_pending_step(struct serve_pending *p, const struct serve_config *o,
		       struct serve_log *log, struct control_setup *setup);

#endif
