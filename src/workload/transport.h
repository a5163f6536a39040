/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_TRANSPORT_H
#define PERPKT_WORKLOAD_TRANSPORT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What workload.c needs from a transport (udp.c, tcp.c, pipe.c, icmp.c,
 * sibling files). Each transport embeds struct transport first in its
 * own state. Calls made in a child after fork must not allocate and
 * report failures into `err` (the shared block), not to stderr.
 */

struct transport;

/* Where the two ends meet; filled by workload.c from the options. */
struct transport_config {
	uint32_t size;             /* payload bytes per message */
	uint32_t reply_size;       /* the responder's reply; 0: as size */
	struct sockaddr_in addr;   /* the responder: 127.0.0.1, the veth
				      responder address, or a peer */
	int local_responder;       /* 1: create() binds a responder at addr
				      (port 0: any), 0: addr is remote */
	struct in_addr only_from;  /* perpkt serve: the responder answers
				      this address alone (0: any) */
	uint64_t token;            /* serve, tcp and udp: the client's first
				      8 bytes must be this run's token (0:
				      none); udp answers only the socket
				      that sent it */
	/* serve: the responder adds one per message it answers, in memory
	 * serve shares with it, so the window's own count divides the
	 * serve side's profile (NULL: not counted) */
	volatile uint64_t *answered;
	/* --flows: the client's socket must get its own replies only
	 * (icmp: a ping socket, whose id the kernel demultiplexes on, not
	 * a raw one that every flow's replies reach) */
	int own_replies;
};

struct transport_ops {
	const char *name;
	/* Byte stream (tcp, pipe): a lost message cannot be re-sent, so a
	 * reply timeout fails the run instead. */
	int stream;
	/* The kernel answers (icmp): no responder process is forked. */
	int no_responder;
	/* Parent, before fork: create what the two ends meet on (e.g. bind
	 * the responder's socket, so its port is known to the client). */
	int (*create)(struct transport **out, const struct transport_config *c);
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
	 * periodic tick interrupts them with EINTR instead. recv returns
	 * one whole message (streams: the reply's bytes, or -1 with ECONNRESET
	 * at end of stream). */
	ssize_t (*send)(struct transport *t, const void *buf, size_t len);
	ssize_t (*recv)(struct transport *t, void *buf, size_t len);
	/* Close what this process holds and free t. */
	void (*destroy)(struct transport *t);
	/* The local port the responder was bound to (0 if none). */
	uint16_t (*responder_port)(struct transport *t);
};

struct transport {
	const struct transport_ops *ops;
};

/* Longest message any transport carries; buffers are sized for it. */
#define TRANSPORT_MAX_MESSAGE 65507u
/* A reply later than this is given up on and the request re-sent. */
#define TRANSPORT_REPLY_TIMEOUT_MS 1000

extern const struct transport_ops transport_udp;
extern const struct transport_ops transport_tcp;
extern const struct transport_ops transport_pipe;
extern const struct transport_ops transport_icmp;

/* The bytes of a reply: reply_size, or size when that is 0. */
uint32_t transport_reply_size(const struct transport_config *c);

/* NULL if `name` is not a known transport. */
const struct transport_ops *transport_find(const char *name);
/* "udp, tcp, pipe, icmp", for messages. */
const char *transport_names(void);

/* Helpers for the stream transports: write or read exactly len bytes,
 * resuming after EINTR only once some bytes moved (so a tick can still
 * interrupt an idle wait). read_full returns -1/ECONNRESET at EOF. */
ssize_t transport_write_full(int fd, const void *buf, size_t len);
ssize_t transport_read_full(int fd, void *buf, size_t len);

#endif
