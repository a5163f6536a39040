// SPDX-License-Identifier: GPL-2.0-only
/* The transport registry and what the stream transports share. */
#include "workload/transport.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static const struct transport_ops *const transports[] = {
	&transport_udp,
	&transport_tcp,
	&transport_pipe,
	&transport_icmp,
};

const struct transport_ops *transport_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(transports) / sizeof(transports[0]); i++)
		if (!strcmp(transports[i]->name, name))
			return transports[i];
	return NULL;
}

const char *transport_names(void)
{
	return "udp, tcp, pipe, icmp";
}

uint32_t transport_reply_size(const struct transport_config *c)
{
	return c->reply_size ? c->reply_size : c->size;
}

ssize_t transport_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, p + done, len - done);
		if (n < 0) {
			if (errno == EINTR && done)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t transport_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, p + done, len - done);
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		if (n < 0) {
			if (errno == EINTR && done)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}
