// SPDX-License-Identifier: GPL-2.0-only
/*
 * ICMP echo: the kernel answers, no responder process, so a round trip
 * has no user-space wake-up on the far side (the netdev threads used
 * ping to separate the scheduler from the UDP stack). An unprivileged
 * ping socket is tried first, then a raw socket (CAP_NET_RAW); with
 * --flows a ping socket only (each flow's its own id: the kernel hands
 * each socket its own replies, where every raw socket sees them all).
 */
#include "workload/transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/icmp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.h"

#define ICMP_HDR 8
#define IP_MAX_HDR 60

struct icmp {
	struct transport t;
	int fd;
	int raw;		/* 1: raw socket, we fill id and checksum */
	int own_replies;	/* transport_config.own_replies: no raw */
	uint16_t id, seq;
	uint32_t size;
	struct sockaddr_in addr;
	char where[32];
	unsigned char *pkt;	/* outgoing header + payload */
	unsigned char *in;	/* incoming, with room for an IP header */
};

static struct icmp *to_icmp(struct transport *t)
{
	return (struct icmp *)t;
}

static uint16_t checksum(const unsigned char *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static int icmp_create(struct transport **out, const struct transport_config *c)
{
	struct icmp *m;

	if (c->size > TRANSPORT_MAX_MESSAGE - ICMP_HDR)
		return error("invalid message size '%u' for icmp: use 1 to %u bytes",
			     c->size, TRANSPORT_MAX_MESSAGE - ICMP_HDR);
	m = calloc(1, sizeof(*m));
	if (!m)
		return error("cannot set up icmp transport: out of memory");
	m->t.ops = &transport_icmp;
	m->fd = -1;
	m->size = c->size;
	m->own_replies = c->own_replies;
	m->addr = c->addr;
	m->addr.sin_port = 0;
	inet_ntop(AF_INET, &m->addr.sin_addr, m->where, sizeof(m->where));
	m->pkt = calloc(1, ICMP_HDR + c->size);
	m->in = calloc(1, IP_MAX_HDR + ICMP_HDR + c->size + 1);
	if (!m->pkt || !m->in) {
		free(m->pkt);
		free(m->in);
		free(m);
		return error("cannot set up icmp transport: out of memory");
	}
	*out = &m->t;
	return 0;
}

static void icmp_respond(struct transport *t, char *err, size_t errlen)
{
	snprintf(err, errlen, "icmp has no responder process");
}

static void icmp_release_responder(struct transport *t)
{
}

static int icmp_client_open(struct transport *t, char *err, size_t errlen)
{
	struct icmp *m = to_icmp(t);
	int ping_err;

	m->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (m->fd < 0 && m->own_replies) {
		snprintf(err, errlen, "cannot open a ping socket: %s: --flows "
			 "over icmp needs one per flow (allow them with sysctl "
			 "net.ipv4.ping_group_range)", strerror(errno));
		return -1;
	}
	if (m->fd < 0) {
		ping_err = errno;
		m->fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
		if (m->fd < 0) {
			snprintf(err, errlen, "cannot open an icmp socket: ping "
				 "socket: %s, raw socket: %s: allow ping sockets "
				 "with sysctl net.ipv4.ping_group_range or run "
				 "with CAP_NET_RAW", strerror(ping_err),
				 strerror(errno));
			return -1;
		}
		m->raw = 1;
		m->id = (uint16_t)getpid();
	}
	if (m->raw) {
		/* only echo replies: on loopback we would see our requests too */
		struct icmp_filter f = { .data = ~(1u << ICMP_ECHOREPLY) };

		if (setsockopt(m->fd, SOL_RAW, ICMP_FILTER, &f, sizeof(f)) < 0) {
			snprintf(err, errlen, "cannot set ICMP_FILTER: %s",
				 strerror(errno));
			return -1;
		}
	}
	if (connect(m->fd, (struct sockaddr *)&m->addr, sizeof(m->addr)) < 0) {
		snprintf(err, errlen, "cannot connect icmp socket to '%s': %s",
			 m->where, strerror(errno));
		return -1;
	}
	return 0;
}

static ssize_t icmp_send(struct transport *t, const void *buf, size_t len)
{
	struct icmp *m = to_icmp(t);
	struct icmphdr *h = (struct icmphdr *)m->pkt;
	ssize_t n;

	h->type = ICMP_ECHO;
	h->code = 0;
	h->checksum = 0;
	h->un.echo.id = htons(m->id);	/* ping sockets put their own */
	h->un.echo.sequence = htons(++m->seq);
	memcpy(m->pkt + ICMP_HDR, buf, len);
	if (m->raw)
		h->checksum = checksum(m->pkt, ICMP_HDR + len);
	n = send(m->fd, m->pkt, ICMP_HDR + len, 0);
	return n < 0 ? n : n - ICMP_HDR;
}

static ssize_t icmp_recv(struct transport *t, void *buf, size_t len)
{
	struct icmp *m = to_icmp(t);
	size_t cap = IP_MAX_HDR + ICMP_HDR + m->size + 1, off;
	struct icmphdr *h;
	ssize_t n;

	for (;;) {
		n = recv(m->fd, m->in, cap, 0);
		if (n < 0)
			return n;
		off = 0;
		if (m->raw) {
			/* raw sockets see every echo reply to this host */
			if (n < 20)
				continue;
			off = (size_t)(m->in[0] & 0x0f) * 4;
		}
		if ((size_t)n < off + ICMP_HDR)
			continue;
		h = (struct icmphdr *)(m->in + off);
		if (h->type != ICMP_ECHOREPLY ||
		    (m->raw && ntohs(h->un.echo.id) != m->id))
			continue;
		n -= (ssize_t)(off + ICMP_HDR);
		if ((size_t)n > len)
			n = (ssize_t)len;
		memcpy(buf, m->in + off + ICMP_HDR, (size_t)n);
		return n;
	}
}

static void icmp_destroy(struct transport *t)
{
	struct icmp *m = to_icmp(t);

	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	free(m->pkt);
	free(m->in);
	free(m);
}

static uint16_t icmp_responder_port(struct transport *t)
{
	return 0;
}

const struct transport_ops transport_icmp = {
	.name = "icmp",
	.no_responder = 1,
	.create = icmp_create,
	.respond = icmp_respond,
	.release_responder = icmp_release_responder,
	.client_open = icmp_client_open,
	.send = icmp_send,
	.recv = icmp_recv,
	.destroy = icmp_destroy,
	.responder_port = icmp_responder_port,
};
