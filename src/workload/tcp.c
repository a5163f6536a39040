// SPDX-License-Identifier: GPL-2.0-only
/*
 * TCP ping-pong with TCP_NODELAY on both ends, so every message leaves
 * at once instead of waiting for Nagle. The listening socket is bound
 * in the parent (see udp.c for why); the responder accepts one client.
 */
#include "workload/transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.h"

struct tcp {
	struct transport t;
	int listen_fd;
	int client_fd;
	uint32_t size;			/* of a request */
	uint32_t reply_size;
	struct sockaddr_in addr;
	struct in_addr only_from;	/* transport_config.only_from */
	volatile uint64_t *answered;	/* transport_config.answered */
	uint64_t token;			/* transport_config.token */
	char where[32];
};

static struct tcp *to_tcp(struct transport *t)
{
	return (struct tcp *)t;
}

static int nodelay(int fd)
{
	int one = 1;

	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* serve: the run's token first, within a second, or the connection is
 * not the client's (someone on the same host, or a guess). */
static int token_ok(int fd, uint64_t token)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	uint64_t got = 0;
	size_t have = 0;

	if (!token)
		return 1;
	while (have < sizeof(got)) {
		ssize_t n;

		if (poll(&pf, 1, 1000) <= 0)
			return 0;
		n = read(fd, (char *)&got + have, sizeof(got) - have);
		if (n <= 0)
			return 0;
		have += (size_t)n;
	}
	return got == token;
}

static int tcp_create(struct transport **out, const struct transport_config *c)
{
	struct tcp *p;
	socklen_t len = sizeof(p->addr);
	int one = 1;

	p = calloc(1, sizeof(*p));
	if (!p)
		return error("cannot set up tcp transport: out of memory");
	p->t.ops = &transport_tcp;
	p->listen_fd = p->client_fd = -1;
	p->size = c->size;
	p->reply_size = transport_reply_size(c);
	p->addr = c->addr;
	p->only_from = c->only_from;
	p->answered = c->answered;
	p->token = c->token;
	inet_ntop(AF_INET, &p->addr.sin_addr, p->where, sizeof(p->where));
	if (!c->local_responder) {
		*out = &p->t;
		return 0;
	}
	p->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->listen_fd < 0) {
		error("cannot create tcp socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(p->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(p->listen_fd, (struct sockaddr *)&p->addr, len) < 0 ||
	    listen(p->listen_fd, 1) < 0) {
		error("cannot listen on tcp '%s:%u': %s", p->where,
		      ntohs(p->addr.sin_port), strerror(errno));
		goto fail;
	}
	if (getsockname(p->listen_fd, (struct sockaddr *)&p->addr, &len) < 0) {
		error("cannot read tcp responder port: %s", strerror(errno));
		goto fail;
	}
	*out = &p->t;
	return 0;
fail:
	if (p->listen_fd >= 0)
		close(p->listen_fd);
	free(p);
	return -1;
}

static void tcp_respond(struct transport *t, char *err, size_t errlen)
{
	struct tcp *p = to_tcp(t);
	char buf[TRANSPORT_MAX_MESSAGE];
	struct sockaddr_in from;
	socklen_t flen;
	int fd;

	for (;;) {
		flen = sizeof(from);
		fd = accept4(p->listen_fd, (struct sockaddr *)&from, &flen,
			     SOCK_CLOEXEC);
		if (fd < 0 && errno == EINTR)
			continue;
		/* serve: whoever connects first must be the client that set
		 * the run up, not anyone who found the port */
		if (fd >= 0 && ((p->only_from.s_addr &&
		     from.sin_addr.s_addr != p->only_from.s_addr) ||
		    !token_ok(fd, p->token))) {
			close(fd);
			continue;
		}
		break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "tcp responder cannot accept: %s",
			 strerror(errno));
		return;
	}
	close(p->listen_fd);
	p->listen_fd = -1;
	nodelay(fd);
	memset(buf, 0, sizeof(buf));	/* a longer reply: zeros after */
	for (;;) {
		if (transport_read_full(fd, buf, p->size) < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "tcp responder cannot receive: %s",
				 strerror(errno));
			return;
		}
		if (transport_write_full(fd, buf, p->reply_size) < 0) {
			snprintf(err, errlen, "tcp responder cannot send: %s",
				 strerror(errno));
			return;
		}
		if (p->answered)
			(*p->answered)++;
	}
}

static void tcp_release_responder(struct transport *t)
{
	struct tcp *p = to_tcp(t);

	if (p->listen_fd >= 0)
		close(p->listen_fd);
	p->listen_fd = -1;
}

static int tcp_client_open(struct transport *t, char *err, size_t errlen)
{
	struct tcp *p = to_tcp(t);

	p->client_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->client_fd < 0) {
		snprintf(err, errlen, "cannot create tcp socket: %s",
			 strerror(errno));
		return -1;
	}
	if (connect(p->client_fd, (struct sockaddr *)&p->addr,
		    sizeof(p->addr)) < 0) {
		snprintf(err, errlen, "cannot connect tcp socket to '%s:%u': %s",
			 p->where, ntohs(p->addr.sin_port), strerror(errno));
		return -1;
	}
	if (nodelay(p->client_fd) < 0) {
		snprintf(err, errlen, "cannot set TCP_NODELAY: %s", strerror(errno));
		return -1;
	}
	if (p->token && transport_write_full(p->client_fd, &p->token,
					     sizeof(p->token)) < 0) {
		snprintf(err, errlen, "cannot send the run's token: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

static ssize_t tcp_send(struct transport *t, const void *buf, size_t len)
{
	return transport_write_full(to_tcp(t)->client_fd, buf, len);
}

static ssize_t tcp_recv(struct transport *t, void *buf, size_t len)
{
	struct tcp *p = to_tcp(t);

	return transport_read_full(p->client_fd, buf, p->reply_size);
}

static void tcp_destroy(struct transport *t)
{
	struct tcp *p = to_tcp(t);

	if (!p)
		return;
	if (p->listen_fd >= 0)
		close(p->listen_fd);
	if (p->client_fd >= 0)
		close(p->client_fd);
	free(p);
}

static uint16_t tcp_responder_port(struct transport *t)
{
	return ntohs(to_tcp(t)->addr.sin_port);
}

const struct transport_ops transport_tcp = {
	.name = "tcp",
	.stream = 1,
	.create = tcp_create,
	.respond = tcp_respond,
	.release_responder = tcp_release_responder,
	.client_open = tcp_client_open,
	.send = tcp_send,
	.recv = tcp_recv,
	.destroy = tcp_destroy,
	.responder_port = tcp_responder_port,
};
