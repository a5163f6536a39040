/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_SERVER_H
#define PERPKT_WORKLOAD_SERVER_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/control-auth.h"
#include "workload/control.h"

/*
 * perpkt serve's server (like netperf's netserver): it listens on the
 * control port and serves one client at a time (others hear "busy"):
 * authenticates it (serve-handshake.c), forks the responder it asks
 * for, and answers start, stop and profile until it closes (the lines:
 * workload/control.h).
 */

struct serve_recording;

/* serve --max-flows: a client's flows are processes and ports here */
#define SERVE_DEFAULT_MAX_FLOWS 16

/* The recording of this side's kernel, handed down by the command
 * (serve_recording_ops, record/serve-recording.h): the server lies
 * below the recording pipeline and does not call it by name. Each
 * function as the serve_recording_* of that name; drain and close take
 * NULL. */
struct serve_recorder {
	int (*open)(struct serve_recording **out, const struct control_setup *rq,
		    const pid_t *responders, int n, char *why, size_t whylen);
	int (*start)(struct serve_recording *r, uint64_t answered);
	int (*stop)(struct serve_recording *r, uint64_t answered);
	void (*drain)(struct serve_recording *r);
	int (*document)(struct serve_recording *r, const char *command,
			const char *client, char **text, size_t *len,
			char *why, size_t whylen);
	void (*close)(struct serve_recording *r);
};

struct serve_config {
	const char *bind;		/* the address as given, for messages */
	struct sockaddr_in addr;	/* where to listen */
	const struct control_auth *key;
	const struct serve_recorder *recorder;
	int max_flows;			/* most flows (responders) a client
					   may ask for, 1..CONTROL_FLOWS_MAX */
	int once;			/* exit after one client */
	int quiet;
};

/* Listen and serve until SIGINT or SIGTERM (with once, one client):
 * RESULT_OK, or RESULT_FAILURE after saying why it cannot listen. */
int serve_run(const struct serve_config *c);

#endif
