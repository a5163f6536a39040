// SPDX-License-Identifier: GPL-2.0-only
/*
 * UDP ping-pong. The responder's socket is bound in the parent before
 * fork (inside the responder's namespace for --net veth), so a bind
 * failure is reported at once and the client knows the port without
 * another rendezvous. Without a local responder (--peer, --echo) the
 * client only connects to the given address.
 */
#include "workload/transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.h"
#include "workload/workload.h"

struct udp {
	struct transport t;
	int responder_fd;
	int client_fd;
	struct sockaddr_in addr;	/* the responder's */
	struct in_addr only_from;	/* transport_config.only_from */
	volatile uint64_t *answered;	/* transport_config.answered */
	uint64_t token;			/* transport_config.token */
	uint32_t reply_size;		/* transport_config.reply_size, 0:
					   echo what came */
	char where[32];			/* addr as text, for messages */
};

static struct udp *to_udp(struct transport *t)
{
	return (struct udp *)t;
}

static int udp_create(struct transport **out, const struct transport_config *c)
{
	struct udp *u;
	socklen_t len = sizeof(u->addr);

	u = calloc(1, sizeof(*u));
	if (!u)
		return error("cannot set up udp transport: out of memory");
	u->t.ops = &transport_udp;
	u->client_fd = -1;
	u->responder_fd = -1;
	u->addr = c->addr;
	u->only_from = c->only_from;
	u->answered = c->answered;
	u->token = c->token;
	u->reply_size = c->reply_size;
	inet_ntop(AF_INET, &u->addr.sin_addr, u->where, sizeof(u->where));
	if (!c->local_responder) {
		*out = &u->t;
		return 0;
	}

	u->responder_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->responder_fd < 0) {
		error("cannot create udp socket: %s", strerror(errno));
		goto fail;
	}
	if (bind(u->responder_fd, (struct sockaddr *)&u->addr, len) < 0) {
		error("cannot bind udp socket to '%s:%u': %s", u->where,
		      ntohs(u->addr.sin_port), strerror(errno));
		goto fail;
	}
	if (getsockname(u->responder_fd, (struct sockaddr *)&u->addr, &len) < 0) {
		error("cannot read udp responder port: %s", strerror(errno));
		goto fail;
	}
	*out = &u->t;
	return 0;
fail:
	if (u->responder_fd >= 0)
		close(u->responder_fd);
	free(u);
	return -1;
}

/*
 * serve: the run's token, in a datagram from the client's address, is
 * the client's first; the socket is then connected to the port it came
 * from, so the kernel hands it no other socket's datagrams (another
 * user's on the client's host included), and the token is echoed for
 * the client to know. A connected socket costs nothing per round trip.
 */
static int udp_lock_on(struct udp *u, char *err, size_t errlen)
{
	struct sockaddr_in peer;
	socklen_t plen;
	uint64_t got;
	ssize_t n;

	for (;;) {
		plen = sizeof(peer);
		n = recvfrom(u->responder_fd, &got, sizeof(got), MSG_TRUNC,
			     (struct sockaddr *)&peer, &plen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "udp responder cannot receive: %s",
				 strerror(errno));
			return -1;
		}
		if (n == sizeof(got) && got == u->token && plen == sizeof(peer) &&
		    peer.sin_family == AF_INET &&
		    peer.sin_addr.s_addr == u->only_from.s_addr)
			break;
	}
	if (connect(u->responder_fd, (struct sockaddr *)&peer, sizeof(peer)) < 0 ||
	    send(u->responder_fd, &got, sizeof(got), 0) < 0) {
		snprintf(err, errlen, "udp responder cannot answer the client: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

static void udp_respond(struct transport *t, char *err, size_t errlen)
{
	struct udp *u = to_udp(t);
	char buf[TRANSPORT_MAX_MESSAGE + 1];
	struct sockaddr_storage peer;
	socklen_t plen;
	ssize_t n;

	if (u->token && udp_lock_on(u, err, errlen))
		return;
	/* a reply longer than the request: zeros after the request's bytes */
	memset(buf, 0, sizeof(buf));
	for (;;) {
		plen = sizeof(peer);
		n = recvfrom(u->responder_fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&peer, &plen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "udp responder cannot receive: %s",
				 strerror(errno));
			return;
		}
		/* serve: a stranger's datagrams get no echo (no amplifier) */
		if (u->only_from.s_addr && (peer.ss_family != AF_INET ||
		    ((struct sockaddr_in *)&peer)->sin_addr.s_addr !=
		    u->only_from.s_addr))
			continue;
		if (u->reply_size)
			n = u->reply_size;
		while (sendto(u->responder_fd, buf, n, 0,
			      (struct sockaddr *)&peer, plen) < 0) {
			if (errno == EINTR)
				continue;
			/* a full queue loses this reply; the client re-sends */
			if (errno == ENOBUFS || errno == EAGAIN)
				break;
			snprintf(err, errlen, "udp responder cannot send: %s",
				 strerror(errno));
			return;
		}
		if (u->answered)
			(*u->answered)++;
	}
}

static void udp_release_responder(struct transport *t)
{
	struct udp *u = to_udp(t);

	if (u->responder_fd >= 0)
		close(u->responder_fd);
	u->responder_fd = -1;
}

/* perpkt serve's responder answers only the socket that sent the run's
 * token first (udp_lock_on): send it until it comes back, for up to
 * 10 s (a loaded host may take seconds to run a responder just pinned
 * to a busy CPU, one per flow with --flows). */
#define TOKEN_TRIES 20
static int send_token(struct udp *u, char *err, size_t errlen)
{
	struct pollfd pf = { .fd = u->client_fd, .events = POLLIN };
	uint64_t got;
	int tries;

	for (tries = 0; tries < TOKEN_TRIES; tries++) {
		if (send(u->client_fd, &u->token, sizeof(u->token), 0) < 0 &&
		    errno != EINTR) {
			snprintf(err, errlen, "cannot send the run's token to "
				 "'%s:%u': %s", u->where, ntohs(u->addr.sin_port),
				 strerror(errno));
			return -1;
		}
		while (poll(&pf, 1, 500) > 0) {
			ssize_t n = recv(u->client_fd, &got, sizeof(got), MSG_TRUNC);

			if (n == sizeof(got) && got == u->token)
				return 0;
			if (n < 0 && errno != EINTR)
				break;
		}
	}
	snprintf(err, errlen, "the responder at '%s:%u' did not take the run's "
		 "token", u->where, ntohs(u->addr.sin_port));
	return -1;
}

static int udp_client_open(struct transport *t, char *err, size_t errlen)
{
	struct udp *u = to_udp(t);

	u->client_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->client_fd < 0) {
		snprintf(err, errlen, "cannot create udp socket: %s",
			 strerror(errno));
		return -1;
	}
	/* a connected socket: no address lookup per send, and an ICMP
	 * port-unreachable from a dead responder shows up as ECONNREFUSED */
	if (connect(u->client_fd, (struct sockaddr *)&u->addr,
		    sizeof(u->addr)) < 0) {
		snprintf(err, errlen, "cannot connect udp socket to '%s:%u': %s",
			 u->where, ntohs(u->addr.sin_port), strerror(errno));
		return -1;
	}
	return u->token ? send_token(u, err, errlen) : 0;
}

static ssize_t udp_send(struct transport *t, const void *buf, size_t len)
{
	return send(to_udp(t)->client_fd, buf, len, 0);
}

static ssize_t udp_recv(struct transport *t, void *buf, size_t len)
{
	return recv(to_udp(t)->client_fd, buf, len, 0);
}

static void udp_destroy(struct transport *t)
{
	struct udp *u = to_udp(t);

	if (!u)
		return;
	if (u->responder_fd >= 0)
		close(u->responder_fd);
	if (u->client_fd >= 0)
		close(u->client_fd);
	free(u);
}

static uint16_t udp_responder_port(struct transport *t)
{
	return ntohs(to_udp(t)->addr.sin_port);
}

const struct transport_ops transport_udp = {
	.name = "udp",
	.create = udp_create,
	.respond = udp_respond,
	.release_responder = udp_release_responder,
	.client_open = udp_client_open,
	.send = udp_send,
	.recv = udp_recv,
	.destroy = udp_destroy,
	.responder_port = udp_responder_port,
};
