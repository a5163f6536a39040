// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a workload request may be, checked before anything starts (the
 * transport, network, sizes, burst, gap, peer or echo against each
 * other), and the small values record parses for it (--placement,
 * --gap). workload.c starts and runs the workload.
 */
#include "workload/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "system/placement.h"
#include "workload/cpu.h"
#include "workload/workload-priv.h"

int workload_check_config_ops(const struct workload_config *c,
			      const struct transport_ops **ops)
{
	const char *name = c->transport ? c->transport : "udp";
	const char *net = c->network ? c->network : "loopback";

	*ops = transport_find(name);
	if (!*ops)
		return error("unknown transport '%s': use %s", name,
			     transport_names());
	if (strcmp(net, "loopback") && strcmp(net, "veth"))
		return error("unknown network '%s': use loopback or veth", net);
	if (c->peer && c->echo)
		return error("--peer and --echo exclude each other");
	if ((c->peer || c->echo) && c->network && strcmp(net, "loopback"))
		return error("--net %s makes both ends here: it cannot be used "
			     "with --peer or --echo", net);
	if (c->echo && strcmp(name, "udp") && strcmp(name, "tcp"))
		return error("an echo service speaks udp or tcp, not '%s'", name);
	if (c->peer && !strcmp(name, "pipe"))
		return error("transport 'pipe' cannot reach a peer");
	if (c->message_size < 1 || c->message_size > TRANSPORT_MAX_MESSAGE)
		return error("invalid message size '%u': use 1 to %u bytes",
			     c->message_size, TRANSPORT_MAX_MESSAGE);
	if (c->reply_size > TRANSPORT_MAX_MESSAGE)
		return error("invalid reply size '%u': use 1 to %u bytes",
			     c->reply_size, TRANSPORT_MAX_MESSAGE);
	if (c->burst > 1) {
		if ((*ops)->no_responder || !strcmp(name, "pipe"))
			return error("--burst needs a transport that pipelines "
				     "requests (udp or tcp), not '%s'", name);
		if (c->burst > WORKLOAD_BURST_MAX)
			return error("invalid --burst '%d': use 1 to %d", c->burst,
				     WORKLOAD_BURST_MAX);
		if (c->message_size < 8 ||
		    (c->reply_size && c->reply_size < 8))
			return error("--burst needs messages of at least 8 bytes: "
				     "each carries its request's number");
		if (c->gap_ns)
			return error("--burst and --gap exclude each other: a "
				     "burst keeps its requests in flight");
	}
	/* an echo answers what it was sent; serve's protocol has one size */
	if (c->reply_size && c->reply_size != c->message_size) {
		if ((*ops)->no_responder || c->echo)
			return error("--size REQ,RESP needs a responder of perpkt's "
				     "own: %s echoes the request",
				     c->echo ? "an echo service" : "the kernel");
		if (c->peer)
			return error("--size REQ,RESP is not implemented for "
				     "--peer yet: give one size");
	}
	if (c->nwindow_fds < 0 || (c->nwindow_fds > 0 && !c->window_fds))
		return error("invalid perf fd list for the workload window");
	if (c->gap_ns > 10000000000ull)
		return error("invalid gap: at most 10 s");
	if (cpu_check_usable(c->client_cpu) < 0 ||
	    cpu_check_usable(c->server_cpu) < 0)
		return -1;
	return workload_check_flows(c, name);
}

int workload_check_config(const struct workload_config *c)
{
	const struct transport_ops *ops;

	if (workload_check_config_ops(c, &ops) < 0)
		return -1;
	return c->peer ? workload_check_peer_key(c->peer_key) : 0;
}

int workload_check_request(const struct workload_config *c)
{
	const struct transport_ops *ops;

	return workload_check_config_ops(c, &ops) < 0 ? -1 : 0;
}

int workload_place(const char *placement, const int *online, int nonline,
		   int *client, int *server)
{
	enum cpu_relation rel;

	if (placement_parse(placement, &rel))
		return -1;
	return placement_resolve(PLACEMENT_SYSFS, rel, online, nonline, client,
				 server);
}

int workload_parse_gap(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0 || isnan(v))
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].mul;
		if (v > 10e9)
			goto bad;
		*ns = (uint64_t)(v + 0.5);
		return 0;
	}
bad:
	return error("invalid gap '%s': use a time up to 10 s such as 500ns, "
		     "100us, 2ms or 1s", s);
}
