// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the running workload, and what it measured, add to a profile as
 * test conditions (docs/workload.md lists them).
 */
#include "workload/workload-priv.h"

#include <stdio.h>
#include <string.h>

#include "system/conditions.h"
#include "workload/netns.h"
#include "workload/tuning.h"

void workload_add_conditions(const struct workload *w, struct profile *p)
{
	char buf[512];

	if (w->ns) {
		/* netfilter, tc, taps of the path: the namespaces', not the host's */
		const int fds[] = { netns_fd(w->ns, NETNS_CLIENT),
				    netns_fd(w->ns, NETNS_RESPONDER) };
		const char *const labels[] = { "client", "responder" };

		conditions_netns(p, fds, labels, 2);
	}
	if (w->ns)
		snprintf(buf, sizeof(buf), "veth pair '%s' between namespaces '%s' "
			 "(client, %s) and '%s' (responder, %s); driver veth, "
			 "no IRQs: rx runs in softirq on the sending CPU",
			 NETNS_IFNAME, netns_name(w->ns, NETNS_CLIENT),
			 NETNS_CLIENT_ADDR, netns_name(w->ns, NETNS_RESPONDER),
			 NETNS_RESPONDER_ADDR);
	else if (w->ctl >= 0)
		snprintf(buf, sizeof(buf), "peer %s (perpkt serve, authenticated: "
			 "key %s)", w->where, w->auth.id);
	else if (!w->local_responder && w->ops->no_responder &&
		 strcmp(w->where, "127.0.0.1"))
		snprintf(buf, sizeof(buf), "host %s", w->where);
	else if (!w->local_responder && !w->ops->no_responder)
		snprintf(buf, sizeof(buf), "echo service %s", w->where);
	else
		snprintf(buf, sizeof(buf), "loopback (lo): no driver, no IRQs; "
			 "rx runs in softirq on the sending CPU");
	profile_add_condition(p, "net.path", buf);
	snprintf(buf, sizeof(buf), "%s%s", w->ops->name,
		 w->ops->no_responder ? " (answered by the kernel, no responder process)" : "");
	profile_add_condition(p, "workload.transport", buf);
	if (w->gap_ns)
		snprintf(buf, sizeof(buf), "%llu ns (%s)",
			 (unsigned long long)w->gap_ns, w->gap_spin ? "spin" : "sleep");
	else
		snprintf(buf, sizeof(buf), "none");
	profile_add_condition(p, "workload.gap", buf);
	if (w->burst > 1) {
		snprintf(buf, sizeof(buf), "%d requests in flight; latency per "
			 "request", w->burst);
		profile_add_condition(p, "workload.burst", buf);
	}
	if (w->reply_size != w->size) {
		snprintf(buf, sizeof(buf), "%u bytes", w->reply_size);
		profile_add_condition(p, "workload.reply_size", buf);
		snprintf(buf, sizeof(buf), "%u (%u request + %u reply)",
			 w->size + w->reply_size, w->size, w->reply_size);
		profile_add_condition(p, "workload.bytes_per_rt", buf);
	}
	if (w->nflows > 1) {
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%d ping-pong pairs, "
					      "each on its own ports; client/responder "
					      "CPUs", w->nflows);
		int i;

		for (i = 0; i < w->nflows && len < sizeof(buf); i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d/%d",
						i ? "," : " ",
						w->flows[i].cpu[ROLE_CLIENT],
						w->flows[i].cpu[ROLE_RESPONDER]);
		profile_add_condition(p, "workload.flows", buf);
	}
	if (w->count) {
		snprintf(buf, sizeof(buf), "%llu round trips",
			 (unsigned long long)w->count);
		profile_add_condition(p, "workload.count", buf);
	}
	tuning_describe(w->tuning, p);
}

/* "flow 2 (port 40001, client CPU 0, responder CPU 1)" */
static void flow_result_name(const struct workload_result *res, int i,
			     char *buf, size_t len)
{
	const struct workload_flow_result *f = &res->flow[i];
	char port[24] = "", server[32] = "";

	if (f->port)
		snprintf(port, sizeof(port), "port %u, ", f->port);
	if (f->server_cpu >= 0)
		snprintf(server, sizeof(server), ", responder CPU %d", f->server_cpu);
	snprintf(buf, len, "flow %d (%sclient CPU %d%s)", i, port, f->client_cpu,
		 server);
}

void workload_flows_text(const struct workload_result *res, char *buf,
			 size_t len)
{
	char slow[96], fast[96];
	int i, lo = 0, hi = 0;
	size_t n;

	buf[0] = '\0';
	if (res->nflows <= 1)
		return;
	for (i = 1; i < res->nflows; i++) {
		if (res->flow[i].p50_ns > res->flow[hi].p50_ns)
			hi = i;
		if (res->flow[i].p50_ns < res->flow[lo].p50_ns)
			lo = i;
	}
	flow_result_name(res, hi, slow, sizeof(slow));
	flow_result_name(res, lo, fast, sizeof(fast));
	n = (size_t)snprintf(buf, len, "p50 slowest %.1f us %s, fastest %.1f us "
			     "%s; round trips by flow",
			     res->flow[hi].p50_ns / 1e3, slow,
			     res->flow[lo].p50_ns / 1e3, fast);
	for (i = 0; i < res->nflows && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%llu", i ? "," : " ",
				      (unsigned long long)res->flow[i].round_trips);
}

void workload_result_conditions(struct profile *p, const struct workload_result *res)
{
	char buf[256], spread[1024];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)res->timeouts);
	profile_add_condition(p, "replies.lost", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)res->late_replies);
	profile_add_condition(p, "replies.late", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)res->duplicates);
	profile_add_condition(p, "replies.duplicate", buf);
	if (res->udp_in_valid && res->icmp_in) {
		snprintf(buf, sizeof(buf), "%llu in the client's network namespace "
			 "over the window(s), read at their edges with every flow "
			 "stopped (/proc/net/snmp Icmp InEchoReps)",
			 (unsigned long long)res->udp_in);
		profile_add_condition(p, "workload.icmp_echo_replies_in", buf);
	} else if (res->udp_in_valid) {
		snprintf(buf, sizeof(buf), "%llu in the client's network namespace "
			 "over the window(s), read at their edges with every flow "
			 "stopped (/proc/net/snmp Udp InDatagrams)",
			 (unsigned long long)res->udp_in);
		profile_add_condition(p, "workload.udp_datagrams_in", buf);
	}
	workload_flows_text(res, spread, sizeof(spread));
	if (spread[0])
		profile_add_condition(p, "workload.flows_spread", spread);
	if (res->partial) {
		snprintf(buf, sizeof(buf), "partial: %llu round trips before: %.160s",
			 (unsigned long long)res->round_trips, res->error);
		profile_add_condition(p, "workload.result", buf);
	}
	if (res->remote.valid && res->remote.kernel) {
		snprintf(buf, sizeof(buf), "the kernel: %llu echo replies over the "
			 "window (Icmp OutEchoReps), no responder process",
			 (unsigned long long)res->remote.answered);
		profile_add_condition(p, "peer.responder", buf);
	} else if (res->remote.valid && res->remote.nflows > 1) {
		size_t n;
		int i;

		n = (size_t)snprintf(spread, sizeof(spread), "%d responders "
			 "(CPUs as workload.flows); %llu ns on CPU, %llu ns waiting, "
			 "%llu switches over the window (%.0f ns on CPU per round "
			 "trip); messages answered by flow", res->remote.nflows,
			 (unsigned long long)res->remote.cpu_ns,
			 (unsigned long long)res->remote.wait_ns,
			 (unsigned long long)res->remote.switches,
			 res->round_trips ? (double)res->remote.cpu_ns /
			 (double)res->round_trips : 0.0);
		for (i = 0; i < res->remote.nflows && n < sizeof(spread); i++)
			n += (size_t)snprintf(spread + n, sizeof(spread) - n, "%s%llu",
					      i ? "," : " ", (unsigned long long)
					      res->remote.answered_by_flow[i]);
		profile_add_condition(p, "peer.responder", spread);
	} else if (res->remote.valid) {
		snprintf(buf, sizeof(buf), "cpu %d; %llu ns on CPU, %llu ns waiting, "
			 "%llu switches over the window (%.0f ns on CPU per round trip)",
			 res->remote.cpu, (unsigned long long)res->remote.cpu_ns,
			 (unsigned long long)res->remote.wait_ns,
			 (unsigned long long)res->remote.switches,
			 res->round_trips ? (double)res->remote.cpu_ns /
			 (double)res->round_trips : 0.0);
		profile_add_condition(p, "peer.responder", buf);
	}
}
