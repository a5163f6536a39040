/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SERVE_PRIV_H
#define PERPKT_SERVE_PRIV_H

/*
 * Shared between serve.c (the server: the request loop, the responder)
 * and serve-handshake.c (where serve authenticates a client).
 */

#include <netinet/in.h>
#include <stdint.h>

#include "workload/control-auth.h"
#include "workload/control.h"
#include "workload/server.h"

/* One client's connection: its key state once it said hello, and who
 * it says it is once its setup is authenticated. */
struct serve_client {
	int fd;
	struct control_auth auth;
	int authenticated;
	char addr[32];
	char who[200];           /* "user U on host H from ADDR, ..." */
};

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
void serve_pending_init(struct serve_pending *p, int fd,
			const struct sockaddr_in *peer,
			const struct serve_config *o, int64_t deadline_ms);
/* Read what has come: 1 authenticated, with the setup in *setup; 0 not
 * yet; -1 refused (answered why) or gone: the caller closes it. */
int serve_pending_step(struct serve_pending *p, const struct serve_config *o,
		       struct control_setup *setup);

#endif
