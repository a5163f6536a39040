// SPDX-License-Identifier: GPL-2.0-only
/*
 * --flows: what N ping-pong pairs at once cannot do, and how a message
 * names one of them (workload.c runs them).
 */
#include "workload/workload-priv.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.h"
#include "workload/cpu.h"

/* With --flows, which flow a message is about: "flow 2 (port 40001,
 * client CPU 0, responder CPU 1): "; "" with one flow. */
const char *workload_flow_name(const struct workload *w, int i, char *buf,
			       size_t len)
{
	const struct flow *f = &w->flows[i];
	char port[24] = "";

	if (w->nflows <= 1)
		return "";
	if (f->port)
		snprintf(port, sizeof(port), "port %u, ", f->port);
	snprintf(buf, len, "flow %d (%sclient CPU %d, responder CPU %d): ", i,
		 port, f->cpu[ROLE_CLIENT], f->cpu[ROLE_RESPONDER]);
	return buf;
}

/* icmp: whether this process may not open a ping socket here (the
 * clients, forked from it, run here with loopback; veth's namespace is
 * new, and a new one allows none) */
static int ping_refused(const struct workload_config *c)
{
	int fd;

	if (c->network && !strcmp(c->network, "veth"))
		return 1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

/* --flows N: what a run of N ping-pong pairs cannot do */
int workload_check_flows(const struct workload_config *c, const char *name)
{
	int i;

	if (c->nflows < 0 || c->nflows > WORKLOAD_FLOWS_MAX)
		return error("invalid --flows '%d': use 1 to %d", c->nflows,
			     WORKLOAD_FLOWS_MAX);
	if (c->nflows <= 1)
		return 0;
	if (c->count)
		return error("--flows and -n exclude each other: give the "
			     "window's length with -d");
	if (!strcmp(name, "icmp") && (c->peer || ping_refused(c)))
		return error("--flows over icmp needs ping sockets, each flow's "
			     "replies its own: %s; use udp, tcp or pipe",
			     c->peer ? "not implemented with --peer yet" :
			     c->network && !strcmp(c->network, "veth") ?
			     "a new namespace has none (ping_group_range '1 0'), "
			     "and a raw socket reads every flow's echo replies" :
			     "this user may not open one (sysctl "
			     "net.ipv4.ping_group_range), and a raw socket reads "
			     "every flow's echo replies");
	if (c->burst > 1 && !strcmp(name, "pipe"))
		return error("--burst needs a transport that pipelines requests "
			     "(udp or tcp), not 'pipe'");
	for (i = 0; i < c->nflows; i++)
		if ((c->client_cpus &&
		     cpu_check_usable(c->client_cpus[i]) < 0) ||
		    (c->server_cpus && cpu_check_usable(c->server_cpus[i]) < 0))
			return -1;
	return 0;
}
