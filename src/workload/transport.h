/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_TRANSPORT_H
#define PERPKT_WORKLOAD_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What workload.c needs from a transport (udp.c; later tcp, pipe, icmp
 * as sibling files). Each transport embeds struct transport first in
 * its own state. Calls made in a child after fork must not allocate and
 * report failures into `err` (the shared block), not to stderr.
 */

struct workload_config;
struct transport;

struct transport_ops {
	const char *name;
	/* Parent, before fork: create what the two ends meet on (e.g. bind
	 * the responder's socket, so its port is known to the client). */
	int (*create)(struct transport **out, const struct workload_config *c);
	/* Responder child: echo every message; returns only on failure,
	 * with the reason in err. */
	void (*respond)(struct transport *t, char *err, size_t errlen);
	/* Parent, after the responder is forked: close the responder's
	 * end here so the client does not inherit it. */
	void (*release_responder)(struct transport *t);
	/* Client child: connect to the responder; 0 or -1 with err set. */
	int (*client_open)(struct transport *t, char *err, size_t errlen);
	/* Client child, per round trip. Both block; no timeout of their
	 * own (a timer per call would show in every profile): the client's
	 * periodic tick interrupts them with EINTR instead. */
	ssize_t (*send)(struct transport *t, const void *buf, size_t len);
	ssize_t (*recv)(struct transport *t, void *buf, size_t len);
	/* Close what this process holds and free t. */
	void (*destroy)(struct transport *t);
};

struct transport {
	const struct transport_ops *ops;
};

/* Longest message any transport carries; buffers are sized for it. */
#define TRANSPORT_MAX_MESSAGE 65507u
/* A reply later than this is given up on and the request re-sent. */
#define TRANSPORT_REPLY_TIMEOUT_MS 1000

extern const struct transport_ops transport_udp;

/* NULL if `name` is not a known transport. */
const struct transport_ops *transport_find(const char *name);

#endif
