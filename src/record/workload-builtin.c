// SPDX-License-Identifier: GPL-2.0-only
/*
 * The built-in ping-pong as record's workload: client and responder
 * placed on their CPUs (src/workload/), the window opened and closed by
 * the client at round-trip boundaries, the round trips, latency and
 * replies it measured, and with --peer the responder's own side.
 */
#include "record/workload-ops.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "record/plan.h"
#include "record/window.h"
#include "system/host-speed.h"
#include "system/sysinfo.h"
#include "workload/workload.h"

struct builtin {
	struct record_workload base;
	const struct builtin_request *rq;
	const struct cpu_request *cpus;
	const struct sampling_request *smp;
	struct control_setup peer_rq;
	int client, server, self;  /* self -1: perpkt not pinned */
	int nflows;                /* --flows, at least 1 */
	/* --flows: flow i's CPUs (flow 0's are client, server) and pids */
	int fclient[WORKLOAD_FLOWS_MAX], fserver[WORKLOAD_FLOWS_MAX];
	pid_t fclient_pid[WORKLOAD_FLOWS_MAX], fresponder_pid[WORKLOAD_FLOWS_MAX];
	struct workload *w;
	struct busy busy;          /* --busy's spinners */
	struct workload_result total;
	struct workload_result last;   /* the window just closed */
	int windows;
	struct sampler *sampler;   /* for a restart: start()'s */
	cpu_set_t affinity;        /* perpkt's before it pinned itself */
	int have_affinity;
	/* --restart: the host's speed on the client's CPU, taken while
	 * nothing of the workload runs, for the window about to open */
	struct host_speed speed;
};

static struct builtin *of(struct record_workload *w)
{
	return (struct builtin *)w;
}

/* 1 when cpu is one of the flows' */
static int flows_use(const struct builtin *b, int cpu)
{
	int i;

	for (i = 0; i < b->nflows; i++)
		if (b->fclient[i] == cpu || b->fserver[i] == cpu)
			return 1;
	return 0;
}

/* The online CPU k places before cpu in online[], round robin. */
static int online_before(const int *online, int nonline, int cpu, int k)
{
	int i;

	for (i = 0; i < nonline && online[i] != cpu; i++)
		;
	return online[((i - k) % nonline + nonline) % nonline];
}

/*
 * --flows: flow i's CPUs round robin over the --client-cpu and
 * --server-cpu lists. With --placement and no server list, each flow's
 * responder is placed in that relation to its own client, the clients
 * (without a list) going down the online CPUs from flow 0's. Otherwise
 * without a list every flow is on flow 0's CPUs (the default), and a
 * responder without a list on its client's CPU as with one flow.
 */
static int place_flows(struct builtin *b, const int *online, int nonline)
{
	const struct cpu_request *c = b->cpus;
	char list[256];
	int i;

	b->nflows = b->rq->flows > 1 ? b->rq->flows : 1;
	for (i = 0; i < b->nflows; i++) {
		int placed = c->placement && c->nservers == 0 && i > 0;

		if (c->nclients > 1)
			b->fclient[i] = c->clients[i % c->nclients];
		else if (placed && c->nclients == 0)
			b->fclient[i] = online_before(online, nonline, b->client, i);
		else
			b->fclient[i] = b->client;
		if (c->nservers > 1) {
			b->fserver[i] = c->servers[i % c->nservers];
		} else if (placed) {
			int client = b->fclient[i];

			b->fserver[i] = -1;
			if (workload_place(c->placement, online, nonline, &client,
					   &b->fserver[i]))
				return error("flow %d: no responder CPU in relation "
					     "'%s' to client CPU %d", i,
					     c->placement, b->fclient[i]);
		} else if (c->nservers == 0 && c->nclients > 1 && !c->placement) {
			b->fserver[i] = b->fclient[i];
		} else {
			b->fserver[i] = b->server;
		}
		if (!cpu_list_has(online, nonline, b->fclient[i]) ||
		    !cpu_list_has(online, nonline, b->fserver[i]))
			return error("flow %d's CPU %d is not online: the online "
				     "CPUs are %s", i,
				     cpu_list_has(online, nonline, b->fclient[i]) ?
				     b->fserver[i] : b->fclient[i],
				     sysinfo_online_text(list, sizeof(list)));
	}
	return 0;
}

/* Client and server CPUs, and perpkt's own off theirs when it can. The
 * choices are printed so runs can be repeated exactly. */
static int prepare(struct record_workload *base)
{
	struct builtin *b = of(base);
	int online[MAX_CPUS], nonline = sysinfo_online_cpus(online, MAX_CPUS), i;
	char list[256];

	if (nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	b->client = b->cpus->client;
	b->server = b->cpus->server;
	if (b->cpus->placement &&
	    workload_place(b->cpus->placement, online, nonline, &b->client,
			   &b->server))
		return -1;
	if (b->client < 0)
		b->client = online[nonline - 1];
	if (b->server < 0)
		b->server = b->client;
	if (!cpu_list_has(online, nonline, b->client))
		return error("client CPU %d is not online: the online CPUs are %s",
			     b->client, sysinfo_online_text(list, sizeof(list)));
	if (!cpu_list_has(online, nonline, b->server))
		return error("server CPU %d is not online: the online CPUs are %s",
			     b->server, sysinfo_online_text(list, sizeof(list)));
	if (place_flows(b, online, nonline) < 0)
		return -1;
	base->client_cpu = b->client;
	base->server_cpu = b->server;
	if (busy_check(b->rq->busy_cpus, b->rq->nbusy) < 0)
		return -1;
	base->message_size = b->rq->message_size;
	/* what the workload would refuse (a peer's key among it) fails now,
	 * not after the plan and the warm-up */
	if (workload_check_config(&(struct workload_config){
		.transport = b->rq->transport, .network = b->rq->network,
		.peer = b->rq->peer, .peer_key = b->rq->peer_key,
		.echo = b->rq->echo, .message_size = b->rq->message_size,
		.reply_size = b->rq->reply_size, .burst = b->rq->burst,
		.gap_ns = b->rq->gap_ns, .client_cpu = b->client,
		.server_cpu = b->server, .nflows = b->nflows,
		.client_cpus = b->fclient, .server_cpus = b->fserver,
		.count = base->window->count }))
		return -1;
	b->self = -1;
	for (i = 0; i < nonline; i++) {
		if (!flows_use(b, online[i])) {
			b->self = online[i];
			break;
		}
	}
	return 0;
}

/* The workload's CPUs, where loopback softirqs run too, and perpkt's
 * own, so its cost is seen rather than hidden. */
static int cpus(struct record_workload *base, int *out, int max)
{
	struct builtin *b = of(base);
	int n = 0, i;

	for (i = 0; i < b->nflows; i++) {
		if (n < max && !cpu_list_has(out, n, b->fclient[i]))
			out[n++] = b->fclient[i];
		if (n < max && !cpu_list_has(out, n, b->fserver[i]))
			out[n++] = b->fserver[i];
	}
	if (b->self >= 0 && n < max)
		out[n++] = b->self;
	return n;
}

static void describe(const struct record_workload *base,
		     const struct record_plan *plan)
{
	const struct builtin *b = (const struct builtin *)base;
	const struct builtin_request *rq = b->rq;
	const struct window_request *win = base->window;
	char events[512] = "", list[256] = "", self[32] = "perpkt not pinned",
	     span[128], cpus[64];
	size_t len = 0, clen = 0;
	int e, i;

	for (e = 0; e < plan->nev && len < sizeof(events); e++) {
		const struct event_spec *ev = &plan->evs[e];

		if (ev->companion)
			continue;
		len += (size_t)snprintf(events + len, sizeof(events) - len, "%s%s",
					len ? ", " : "", ev->name);
		if (ev->count_only || len >= sizeof(events))
			continue;
		if (ev->freq)
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" at %llu Hz",
						(unsigned long long)ev->period);
		else
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" every %llu %s",
						(unsigned long long)ev->period,
						ev->unit);
	}
	for (i = 0; i < plan->ncpus && clen < sizeof(list); i++)
		clen += (size_t)snprintf(list + clen, sizeof(list) - clen, "%s%d",
					 i ? "," : "", plan->cpus[i]);
	/* client and server on different CPUs leave perpkt unpinned */
	if (b->self >= 0)
		snprintf(self, sizeof(self), "perpkt on CPU %d", b->self);
	if (win->repeat > 1)
		snprintf(span, sizeof(span), "%d windows of %g s (%g s)%s",
			 win->repeat, win->duration, win->repeat * win->duration,
			 win->restart ? ", the ping-pong restarted before each" : "");
	else
		snprintf(span, sizeof(span), "%g s", win->duration);
	if (b->nflows > 1)
		snprintf(cpus, sizeof(cpus), "%d flows", b->nflows);
	else
		snprintf(cpus, sizeof(cpus), "client CPU %d, server CPU %d",
			 b->client, b->server);
	info("%s ping-pong %s %s, %u-byte messages, %s, %s",
	     rq->transport ? rq->transport : "udp",
	     rq->peer ? "with peer" : rq->echo ? "with echo service" : "on",
	     rq->peer ? rq->peer : rq->echo ? rq->echo :
	     rq->network ? rq->network : "loopback",
	     rq->message_size, cpus, self);
	if (b->nflows > 1) {
		char fl[512];
		size_t fn = 0;

		for (i = 0; i < b->nflows && fn < sizeof(fl); i++)
			fn += (size_t)snprintf(fl + fn, sizeof(fl) - fn, "%s%d/%d",
					       i ? ", " : "", b->fclient[i],
					       b->fserver[i]);
		info("%d flows, client/responder CPUs %s", b->nflows, fl);
	}
	if (win->count)
		snprintf(span, sizeof(span), "%llu round trips",
			 (unsigned long long)win->count);
	info("%s %s on CPU %s for %s%s",
	     plan->sampling->counting_only ? "counting" : "sampling",
	     events, list, span,
	     plan->sampling->callchain > 0 ? ", with callchains" :
	     record_callchain_depth(plan->sampling, plan->evs, plan->nev) ?
	     ", with short kernel callchains" : "");
}

/* Whether perpkt serve records its side: when this side samples, or
 * marks its window for the QEMU plugin (--exact --net nic: serve marks
 * its own, counting only); stat counts only and asks nothing. */
static int peer_recorded(const struct builtin *b)
{
	return b->rq->peer && !b->rq->no_remote &&
	       (!b->smp->counting_only || b->rq->window_marks);
}

/* --peer: what perpkt serve should record of its side, as this side
 * samples or counts. */
static const struct control_setup *peer_request(struct builtin *b)
{
	const struct sampling_request *smp = b->smp;
	struct control_setup *rq = &b->peer_rq;

	if (!peer_recorded(b))
		return NULL;
	memset(rq, 0, sizeof(*rq));
	rq->profile = 1;
	rq->marks = b->rq->window_marks;
	rq->period = smp->period;
	rq->freq = smp->freq;
	rq->callchain = smp->callchain > 0;
	rq->include_user = smp->include_user;
	if (b->rq->remote_cpus)
		snprintf(rq->cpus, sizeof(rq->cpus), "%s", b->rq->remote_cpus);
	if (strlen(smp->events) < sizeof(rq->events) && !strchr(smp->events, ' '))
		strcpy(rq->events, smp->events);
	else
		warning("-e is too long for the peer: perpkt serve samples its "
			"default events");
	return rq;
}

/* Client and responder started anew, pinned as before, and the sampler
 * told their pids: the first start, and each restart. */
static int begin(struct builtin *b, struct sampler *s)
{
	struct record_workload *base = &b->base;
	const struct builtin_request *rq = b->rq;
	const int *fds;
	int nfds = sampler_fds(s, &fds), i;
	struct workload_config wc = {
		.transport = rq->transport, .network = rq->network,
		.peer = rq->peer, .peer_key = rq->peer_key, .echo = rq->echo,
		.count = base->window->count,
		.peer_warmup_ms = (uint64_t)(base->window->warmup * 1000),
		.peer_window_ms = base->window->count ? 0 :
				  (uint64_t)(base->window->duration * 1000),
		.peer_recording = peer_request(b),
		.gap_ns = rq->gap_ns, .gap_spin = rq->gap_spin,
		.rps_cpus = rq->rps_cpus, .no_wait = rq->no_wait,
		.set_irq_cpu = rq->irq_cpu >= 0,
		.irq_cpu = rq->irq_cpu,
		.pin_self = b->self >= 0, .self_cpu = b->self,
		.client_cpu = b->client, .server_cpu = b->server,
		.nflows = b->nflows, .client_cpus = b->fclient,
		.server_cpus = b->fserver,
		.message_size = rq->message_size,
		.reply_size = rq->reply_size, .burst = rq->burst,
		.window_fds = fds, .nwindow_fds = nfds,
		.window_marks = rq->window_marks,
	};

	if (workload_start(&b->w, &wc))
		return -1;
	base->client = workload_client_pid(b->w);
	base->responder = workload_responder_pid(b->w);
	sampler_set_roles(s, base->client, base->responder, getpid());
	for (i = 0; i < workload_nflows(b->w); i++)
		workload_flow_pids(b->w, i, &b->fclient_pid[i],
				   &b->fresponder_pid[i]);
	sampler_set_flows(s, b->fclient_pid, b->fresponder_pid,
			  workload_nflows(b->w));
	base->clients = b->fclient_pid;
	base->responders = b->fresponder_pid;
	base->npids = workload_nflows(b->w);
	return 0;
}

static int start(struct record_workload *base, const struct record_plan *plan,
		 struct sampler *s)
{
	struct builtin *b = of(base);

	(void)plan;
	b->sampler = s;
	b->have_affinity = !sched_getaffinity(0, sizeof(b->affinity), &b->affinity);
	if (base->window->restart)
		host_speed_probe(b->client, &b->speed);
	if (begin(b, s))
		return -1;
	/* the spinners run from here, through the warm-up and the windows */
	if (busy_start(&b->busy, b->rq->busy_cpus, b->rq->nbusy) < 0)
		return -1;
	sampler_set_busy(s, b->busy.pid, b->busy.n);
	histogram_init(&b->total.latency);
	return 0;
}

/* Between two windows: new processes, new sockets, pinned again, so
 * that each window draws its own start-up (socket hash, slab and page
 * placement) as two runs would. The spinners go on. */
static int restart(struct record_workload *base)
{
	struct builtin *b = of(base);

	workload_stop(b->w);
	b->w = NULL;
	/* perpkt pinned itself off the workload's CPUs: the new client and
	 * responder are checked against, and forked with, what it had */
	if (b->have_affinity &&
	    sched_setaffinity(0, sizeof(b->affinity), &b->affinity))
		return error("cannot restore perpkt's CPU affinity to restart "
			     "the workload: %m");
	host_speed_probe(b->client, &b->speed);
	return begin(b, b->sampler);
}

static void gap(struct record_workload *base, int begin)
{
	if (begin)
		workload_gap_begin(of(base)->w);
	else
		workload_gap_end(of(base)->w);
}

static int open_window(struct record_workload *base)
{
	return workload_window_open(of(base)->w);
}

static int running(struct record_workload *base, uint64_t *so_far)
{
	struct builtin *b = of(base);

	*so_far = workload_window_progress(b->w);
	/* -n: the client closes the window itself after that many; a
	 * client that failed inside it (its responder died) ends it too,
	 * rather than the window's length */
	return !workload_window_done(b->w);
}

/* --flows: a window's flows into the run's; a flow's p50 over -r
 * windows is theirs weighted by round trips. */
static void flows_add(struct workload_result *total,
		      const struct workload_result *res)
{
	int i;

	total->nflows = res->nflows;
	for (i = 0; i < res->nflows; i++) {
		struct workload_flow_result *t = &total->flow[i];
		const struct workload_flow_result *r = &res->flow[i];
		uint64_t n = t->round_trips + r->round_trips;

		if (n)
			t->p50_ns = (uint64_t)(((double)t->p50_ns * t->round_trips +
						(double)r->p50_ns * r->round_trips) / n);
		t->round_trips = n;
		t->client_cpu = r->client_cpu;
		t->server_cpu = r->server_cpu;
		t->port = r->port;
	}
}

/* The window's figures into rp, and into the run's totals. */
static int close_window(struct record_workload *base, struct profile_repeat *rp)
{
	struct builtin *b = of(base);
	struct workload_result *total = &b->total, *res = &b->last;
	int ret;

	ret = workload_window_close(b->w, res);
	rp->round_trips = res->round_trips;
	rp->window_ns = res->window_ns;
	rp->partial = res->partial;
	/* the tasks' CPU time at the window's own edges (else window.c
	 * takes it from its /proc snapshots, which under load can be read
	 * well after the edge while the ping-pong goes on) */
	if (res->cpu_valid) {
		rp->client_cpu_ns = res->client_cpu_ns;
		rp->responder_cpu_ns = res->responder_cpu_ns;
		rp->snapshot_ns = res->window_ns;
		rp->cpu_at_edges = 1;
	}
	rp->host_syscall_ns = b->speed.syscall_ns;
	rp->host_loop_ns = b->speed.loop_ns;
	histogram_summary(&res->latency, &rp->latency);
	histogram_summary(&res->before, &rp->before);
	total->round_trips += res->round_trips;
	total->window_ns += res->window_ns;
	total->timeouts += res->timeouts;
	total->late_replies += res->late_replies;
	total->duplicates += res->duplicates;
	histogram_merge(&total->latency, &res->latency);
	if (res->partial) {
		total->partial = 1;
		memcpy(total->error, res->error, sizeof(total->error));
		snprintf(base->error, sizeof(base->error), "%s", res->error);
	}
	total->remote = res->remote;
	flows_add(total, res);
	total->udp_in_valid = res->udp_in_valid &&
			      (b->windows == 0 || total->udp_in_valid);
	total->udp_in += res->udp_in;
	total->icmp_in = res->icmp_in;
	if (b->windows++ == 0)
		total->unsampled = res->unsampled;
	return ret;
}

/* The responder's side from perpkt serve into p->remote, or why not
 * into p->remote_missing: the profile is kept either way. */
static void attach_remote(struct builtin *b, struct profile *p)
{
	char why[300], *text = NULL;
	struct profile *r;
	size_t len = 0;

	if (workload_peer_profile(b->w, &text, &len, why, sizeof(why)) == 0) {
		r = calloc(1, sizeof(*r));
		if (r && !profile_read_json(r, text, len, "from the peer")) {
			p->remote = r;
			free(text);
			if (!b->base.quiet)
				info("the responder's side: %llu round trips answered "
				     "in %.3f s on %s, %zu sample entries",
				     (unsigned long long)r->round_trips,
				     (double)r->window_ns * 1e-9,
				     r->hostname ? r->hostname : "the peer",
				     r->nsamples);
			return;
		}
		free(r);
		snprintf(why, sizeof(why), "its profile did not read (said above)");
	}
	free(text);
	warning("the responder's side is not in the profile: %s", why);
	p->remote_missing = strdup(why);
}

/* --busy: where the spinners ran, and which workload CPU shared one */
static void busy_conditions(const struct builtin *b, struct profile *p)
{
	const struct builtin_request *rq = b->rq;
	char cpus[256] = "", shared[128] = "";
	size_t len = 0, slen = 0;
	int i, client = 0, server = 0;

	if (!rq->nbusy)
		return;
	for (i = 0; i < rq->nbusy && len < sizeof(cpus); i++) {
		len += (size_t)snprintf(cpus + len, sizeof(cpus) - len, "%s%d",
					i ? "," : "", rq->busy_cpus[i]);
		client |= rq->busy_cpus[i] == b->client;
		server |= rq->busy_cpus[i] == b->server && !rq->peer && !rq->echo;
	}
	if (client && server && b->client == b->server)
		snprintf(shared, sizeof(shared), "the client's and the "
			 "responder's CPU %d", b->client);
	else {
		if (client)
			slen = (size_t)snprintf(shared, sizeof(shared),
						"the client's CPU %d", b->client);
		if (server)
			snprintf(shared + slen, sizeof(shared) - slen,
				 "%sthe responder's CPU %d", slen ? ", " : "",
				 b->server);
	}
	profile_add_condition(p, "workload.busy", cpus);
	profile_add_condition(p, "workload.busy_shared",
			      shared[0] ? shared : "none: no workload CPU had a spinner");
}

static int after(struct record_workload *base, struct profile *p)
{
	struct builtin *b = of(base);
	const struct window_request *win = base->window;

	/* asked against taken, so a report can say the run went wrong */
	p->wall_ns = (uint64_t)((base->t_end - base->t_start) * 1e9);
	p->asked_window_ns = win->count ? 0 : (uint64_t)(win->duration * 1e9) *
					      (uint64_t)(win->repeat > 0 ? win->repeat : 1);
	p->asked_ns = p->asked_window_ns ? p->asked_window_ns +
					   (uint64_t)(win->warmup * 1e9) : 0;
	/* a restart that failed left no workload: what it would say of
	 * itself is not there, the windows before it are */
	if (b->w && peer_recorded(b))
		attach_remote(b, p);
	if (b->w)
		workload_add_conditions(b->w, p);
	busy_conditions(b, p);
	/* what a window's spread covers: new processes and sockets each */
	if (win->restart && win->repeat > 1)
		profile_add_condition(p, "workload.restart", "before each window");
	return 0;
}

static void stop(struct record_workload *base)
{
	struct builtin *b = of(base);

	busy_stop(&b->busy);
	workload_stop(b->w);
	b->w = NULL;
}

static int fill(struct record_workload *base, struct profile *p)
{
	struct builtin *b = of(base);
	const struct builtin_request *rq = b->rq;
	const struct workload_result *res = &b->total;
	size_t k;

	workload_result_conditions(p, res);
	p->transport = strdup(rq->transport ? rq->transport : "udp");
	p->network = strdup(rq->peer ? "peer" : rq->echo ? "echo" :
			    rq->network ? rq->network : "loopback");
	p->message_size = rq->message_size;
	p->client_cpu = b->client;
	p->server_cpu = b->server;
	if (b->nflows > 1) {
		p->flow_cpus = calloc((size_t)b->nflows, sizeof(*p->flow_cpus));
		if (!p->flow_cpus)
			return error("out of memory");
		for (k = 0; k < (size_t)b->nflows; k++) {
			p->flow_cpus[k].client = b->fclient[k];
			p->flow_cpus[k].server = b->fserver[k];
		}
		p->nflow_cpus = (size_t)b->nflows;
	}
	histogram_summary(&res->latency, &p->latency);
	histogram_summary(&res->unsampled, &p->latency_unsampled);
	p->hist_sub_buckets = HIST_SUB;
	if (histogram_export(&res->latency, &p->histogram, &p->nhistogram))
		warning("out of memory: the latency histogram is left out");
	for (k = 0; k < p->ntasks; k++)
		p->tasks[k].cpu = p->tasks[k].role == ROLE_CLIENT ? b->client : b->server;
	return 0;
}

static void destroy(struct record_workload *base)
{
	stop(base);
	free(base);
}

static const struct record_workload_ops builtin_ops = {
	.prepare = prepare, .cpus = cpus, .describe = describe, .start = start,
	.restart = restart,
	.gap = gap, .open = open_window, .running = running, .close = close_window,
	.after = after, .stop = stop, .fill = fill, .destroy = destroy,
};

struct record_workload *record_workload_builtin(const struct builtin_request *rq,
						const struct cpu_request *cpus,
						const struct window_request *win,
						const struct sampling_request *smp)
{
	struct builtin *b = calloc(1, sizeof(*b));

	if (!b) {
		error("out of memory");
		return NULL;
	}
	b->base.ops = &builtin_ops;
	b->base.window = win;
	b->base.limit_ns = win->count ? 0 : (uint64_t)(win->duration * 1e9);
	b->base.progress = 1;
	b->base.unit = "round trip";
	b->base.wake_fd = -1;
	b->rq = rq;
	b->cpus = cpus;
	b->smp = smp;
	b->self = -1;
	return &b->base;
}
