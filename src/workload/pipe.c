// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two processes, two pipes, no network: what is left of a round trip
 * is the scheduler's wake-up path, the baseline the network transports
 * are compared with.
 */
#include "workload/transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

struct pipes {
	struct transport t;
	int to_responder[2];	/* client writes [1], responder reads [0] */
	int to_client[2];	/* responder writes [1], client reads [0] */
	uint32_t size;		/* of a request */
	uint32_t reply_size;
};

static struct pipes *to_pipes(struct transport *t)
{
	return (struct pipes *)t;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int pipe_create(struct transport **out, const struct transport_config *c)
{
	struct pipes *p;

	if (!c->local_responder)
		return error("transport 'pipe' needs both ends on this machine: "
			     "it cannot be used with --peer or --echo");
	p = calloc(1, sizeof(*p));
	if (!p)
		return error("cannot set up pipe transport: out of memory");
	p->t.ops = &transport_pipe;
	p->size = c->size;
	p->reply_size = transport_reply_size(c);
	p->to_responder[0] = p->to_responder[1] = -1;
	p->to_client[0] = p->to_client[1] = -1;
	if (pipe2(p->to_responder, O_CLOEXEC) < 0 ||
	    pipe2(p->to_client, O_CLOEXEC) < 0) {
		error("cannot create pipes: %s", strerror(errno));
		close_fd(&p->to_responder[0]);
		close_fd(&p->to_responder[1]);
		free(p);
		return -1;
	}
	*out = &p->t;
	return 0;
}

static void pipe_respond(struct transport *t, char *err, size_t errlen)
{
	struct pipes *p = to_pipes(t);
	char buf[TRANSPORT_MAX_MESSAGE];

	/* hold only our ends, so the client's exit shows here as EOF */
	close_fd(&p->to_responder[1]);
	close_fd(&p->to_client[0]);
	memset(buf, 0, sizeof(buf));	/* a longer reply: zeros after */
	for (;;) {
		if (transport_read_full(p->to_responder[0], buf, p->size) < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "pipe responder cannot read: %s",
				 strerror(errno));
			return;
		}
		if (transport_write_full(p->to_client[1], buf, p->reply_size) < 0) {
			snprintf(err, errlen, "pipe responder cannot write: %s",
				 strerror(errno));
			return;
		}
	}
}

static void pipe_release_responder(struct transport *t)
{
	struct pipes *p = to_pipes(t);

	close_fd(&p->to_responder[0]);
	close_fd(&p->to_client[1]);
}

static int pipe_client_open(struct transport *t, char *err, size_t errlen)
{
	return 0;
}

static ssize_t pipe_send(struct transport *t, const void *buf, size_t len)
{
	return transport_write_full(to_pipes(t)->to_responder[1], buf, len);
}

static ssize_t pipe_recv(struct transport *t, void *buf, size_t len)
{
	struct pipes *p = to_pipes(t);

	return transport_read_full(p->to_client[0], buf, p->reply_size);
}

static void pipe_destroy(struct transport *t)
{
	struct pipes *p = to_pipes(t);

	if (!p)
		return;
	close_fd(&p->to_responder[0]);
	close_fd(&p->to_responder[1]);
	close_fd(&p->to_client[0]);
	close_fd(&p->to_client[1]);
	free(p);
}

static uint16_t pipe_responder_port(struct transport *t)
{
	return 0;
}

const struct transport_ops transport_pipe = {
	.name = "pipe",
	.stream = 1,
	.create = pipe_create,
	.respond = pipe_respond,
	.release_responder = pipe_release_responder,
	.client_open = pipe_client_open,
	.send = pipe_send,
	.recv = pipe_recv,
	.destroy = pipe_destroy,
	.responder_port = pipe_responder_port,
};
