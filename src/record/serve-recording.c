// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve's own kernel profile over a record --peer run. It is
 * made by the parts record uses (record/internal.h): the same events
 * and fallback, the same counts, samples, callchains and kallsyms
 * entries, so the remote side reads like any profile.
 */
#include "record/serve-recording.h"
#include "record/internal.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "system/conditions.h"
#include "error.h"
#include "parse.h"
#include "system/procstat.h"
#include "profile/output.h"
#include "system/sysinfo.h"
#include "system/unit.h"
#include "workload/marks.h"

/* Rings sized as record sizes them, drained every 50 ms (commands/serve.c) */
#define MAX_WINDOWS 1024

struct window {
	uint64_t answered, ns, responder_cpu_ns;
	uint64_t counts[MAX_EVENTS];
};

struct serve_recording {
	struct control_setup rq;
	struct sampling_request smp;
	struct event_spec evs[MAX_EVENTS];
	int nev;
	int cpus[MAX_CPUS];
	int ncpus;
	/* the responders, one per flow (none over icmp), and as many 0
	 * clients (none on this side) for the flows' calls */
	pid_t responders[CONTROL_FLOWS_MAX], clients[CONTROL_FLOWS_MAX];
	int nresponders;
	struct sampler *s;
	struct profile p;        /* events chosen, missing ones */
	struct procstat first, last, at_start;
	struct sampler_count *prev, *cur;
	struct window *win;
	size_t nwin;
	uint64_t answered0, t0;
	int open;
	int documented;          /* the profile was made: no more windows */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int choose_cpus(struct serve_recording *r, char *why, size_t whylen)
{
	int online[MAX_CPUS], n = sysinfo_online_cpus(online, MAX_CPUS);

	if (n <= 0) {
		snprintf(why, whylen, "perpkt serve cannot read its online CPUs");
		return -1;
	}
	/* --remote-cpus: a real NIC's softirqs run on its IRQ's CPU */
	if (r->rq.cpus[0] && strcmp(r->rq.cpus, "all")) {
		int i;

		r->ncpus = parse_cpu_list(r->rq.cpus, r->cpus, MAX_CPUS);
		if (r->ncpus <= 0) {
			snprintf(why, whylen, "--remote-cpus '%.40s' is not a CPU "
				 "list", r->rq.cpus);
			return -1;
		}
		for (i = 0; i < r->ncpus; i++)
			if (!cpu_list_has(online, n, r->cpus[i])) {
				snprintf(why, whylen, "CPU %d of --remote-cpus is "
					 "not online on the peer", r->cpus[i]);
				return -1;
			}
		return 0;
	}
	/* marks: the QEMU plugin counts every vCPU; so do these. With
	 * --flows every responder's CPU, unless one is not pinned */
	if (!r->rq.cpus[0] && !r->rq.marks) {
		int i;

		for (i = 0, r->ncpus = 0; i < r->rq.flows && r->rq.flow_cpu[i] >= 0; i++)
			if (!cpu_list_has(r->cpus, r->ncpus, r->rq.flow_cpu[i]))
				r->cpus[r->ncpus++] = r->rq.flow_cpu[i];
		if (i == r->rq.flows && r->ncpus)
			return 0;
	}
	/* an unpinned responder may run anywhere */
	memcpy(r->cpus, online, sizeof(int) * (size_t)n);
	r->ncpus = n;
	return 0;
}

/* Can this process sample the kernel at all? The reason, if not, goes
 * to the client in words (root, CAP_PERFMON, perf_event_paranoid). */
static int may_sample(int cpu, char *why, size_t whylen)
{
	struct sampler_failure f;
	struct event_spec ev;

	event_cpu_clock(&ev, "cpu-clock", 0, 0);
	ev.period = 1000000;
	if (!sampler_probe(&ev, cpu, &f))
		return 0;
	snprintf(why, whylen, "perpkt serve may not sample its kernel there "
		 "(run it as root or with CAP_PERFMON): %.150s", f.msg);
	return -1;
}

int serve_recording_open(struct serve_recording **out,
			 const struct control_setup *rq, const pid_t *responders,
			 int n, char *why, size_t whylen)
{
	struct serve_recording *r = calloc(1, sizeof(*r));
	struct sampler_config cfg;
	struct sampler_failure f;

	*out = NULL;
	if (!r) {
		snprintf(why, whylen, "perpkt serve is out of memory");
		return -1;
	}
	r->rq = *rq;
	if (r->rq.flows < 1)
		r->rq.flows = 1, r->rq.flow_cpu[0] = r->rq.cpu;
	for (r->nresponders = 0; r->nresponders < n &&
	     r->nresponders < CONTROL_FLOWS_MAX; r->nresponders++)
		r->responders[r->nresponders] = responders[r->nresponders];
	r->smp.events = rq->events[0] ? r->rq.events : RECORD_DEFAULT_EVENTS;
	r->smp.period = rq->period;
	r->smp.freq = rq->freq;
	r->smp.callchain = rq->callchain;
	r->smp.include_user = rq->include_user;
	/* marks: the plugin counts the instructions; serve only counts, as
	 * record --window-marks does in the client's guest */
	r->smp.counting_only = rq->marks;
	if (choose_cpus(r, why, whylen) || may_sample(r->cpus[0], why, whylen))
		goto fail;
	if (record_choose_events(&r->smp, r->cpus[0], r->evs, &r->nev, &r->p)) {
		snprintf(why, whylen, "perpkt serve cannot measure '%.80s' there "
			 "(its messages say why)", r->smp.events);
		goto fail;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.events = r->evs;
	cfg.nevents = r->nev;
	cfg.cpus = r->cpus;
	cfg.ncpus = r->ncpus;
	cfg.ring_pages = record_ring_pages(0, r->ncpus);
	cfg.callchain = record_callchain_depth(&r->smp, r->evs, r->nev);
	if (sampler_open(&r->s, &cfg, &f)) {
		snprintf(why, whylen, "perpkt serve cannot open its counters: %.160s",
			 f.msg);
		goto fail;
	}
	sampler_set_roles(r->s, 0, r->nresponders ? r->responders[0] : 0, getpid());
	sampler_set_flows(r->s, r->clients, r->responders, r->nresponders);
	r->prev = calloc((size_t)(r->nev * r->ncpus), sizeof(*r->prev));
	r->cur = calloc((size_t)(r->nev * r->ncpus), sizeof(*r->cur));
	r->win = calloc(MAX_WINDOWS, sizeof(*r->win));
	if (!r->prev || !r->cur || !r->win) {
		snprintf(why, whylen, "perpkt serve is out of memory");
		goto fail;
	}
	*out = r;
	return 0;
fail:
	serve_recording_close(r);
	return -1;
}

/* /proc's snapshot, with the responders' times summed (none: icmp) */
static int take(struct serve_recording *r, struct procstat *ps)
{
	pid_t none = 0;

	return r->nresponders ?
	       procstat_take_flows(ps, r->clients, r->responders, r->nresponders) :
	       procstat_take_flows(ps, &none, &none, 1);
}

static int edge(struct serve_recording *r, int on)
{
	if (sampler_enable(r->s, on))
		return error("serve: cannot %s the counters: %s",
			     on ? "enable" : "disable", strerror(errno));
	return 0;
}

int serve_recording_start(struct serve_recording *r, uint64_t answered)
{
	if (r->open || r->nwin >= MAX_WINDOWS || r->documented)
		return error("serve: window %zu cannot open%s", r->nwin + 1,
			     r->documented ? ": the profile was sent" : "");
	sampler_set_repeat(r->s, (int)r->nwin);
	procstat_free(&r->at_start);
	if (take(r, &r->at_start))
		return -1;
	if (!r->nwin && take(r, &r->first))
		return -1;
	if (edge(r, 1))
		return -1;
	if (r->rq.marks)
		workload_mark(1);
	r->answered0 = answered;
	r->t0 = now_ns();
	r->open = 1;
	return 0;
}

int serve_recording_stop(struct serve_recording *r, uint64_t answered)
{
	struct window *w = &r->win[r->nwin];

	if (!r->open)
		return error("serve: stop without start");
	if (r->rq.marks)
		workload_mark(0);
	if (edge(r, 0))
		return -1;
	w->ns = now_ns() - r->t0;
	w->answered = answered - r->answered0;
	r->open = 0;
	sampler_drain(r->s);
	procstat_free(&r->last);
	if (take(r, &r->last) || sampler_read(r->s, r->cur))
		return -1;
	w->responder_cpu_ns = procstat_task_cpu(&r->at_start, &r->last,
						ROLE_RESPONDER);
	record_window_counts(r->evs, r->nev, r->ncpus, r->prev, r->cur, w->counts);
	memcpy(r->prev, r->cur, sizeof(*r->cur) * (size_t)(r->nev * r->ncpus));
	r->nwin++;
	return 0;
}

void serve_recording_drain(struct serve_recording *r)
{
	if (r && r->open)
		sampler_drain(r->s);
}

static int fill(struct serve_recording *r, struct profile *p, const char *command,
		const char *client)
{
	struct unit rt;
	size_t k, e;

	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt " PERPKT_VERSION);
	p->command = strdup(command);
	sysinfo_fill(p);
	conditions_capture(p, -1, r->rq.cpu, r->rq.size, r->rq.marks);
	profile_add_condition(p, PROFILE_COND_PEER_SIDE, "remote: the responder's "
			      "host, recorded by perpkt serve");
	profile_add_condition(p, PROFILE_COND_PEER_CLIENT, client);
	if (unit_parse("rt", &rt) || record_fill_unit(p, &rt))
		return -1;
	p->transport = strdup(r->rq.transport);
	p->network = strdup("peer");
	p->message_size = r->rq.size;
	p->client_cpu = -1;
	p->server_cpu = r->rq.cpu;
	if (r->rq.flows > 1) {
		p->flow_cpus = calloc((size_t)r->rq.flows, sizeof(*p->flow_cpus));
		if (!p->flow_cpus)
			return -1;
		for (k = 0; k < (size_t)r->rq.flows; k++) {
			p->flow_cpus[k].client = -1;
			p->flow_cpus[k].server = r->rq.flow_cpu[k];
		}
		p->nflow_cpus = (size_t)r->rq.flows;
	}
	record_fill_mode(p, r->evs, r->nev);
	if (procstat_delta(&r->first, &r->last, r->cpus, r->ncpus, p) ||
	    record_fill_counters(p, r->evs, r->nev, r->s, r->cpus, r->ncpus))
		return -1;
	for (k = 0; k < p->ntasks; k++)
		p->tasks[k].cpu = r->rq.cpu;
	p->repeats = calloc(r->nwin, sizeof(*p->repeats));
	if (!p->repeats)
		return error("out of memory");
	for (k = 0; k < r->nwin; k++) {
		struct profile_repeat *rp = &p->repeats[k];

		rp->round_trips = r->win[k].answered;
		rp->window_ns = r->win[k].ns;
		rp->responder_cpu_ns = r->win[k].responder_cpu_ns;
		rp->fraction = 1;
		rp->counts = calloc(p->nevents ? p->nevents : 1, sizeof(uint64_t));
		if (!rp->counts)
			return error("out of memory");
		for (e = 0; e < p->nevents; e++)
			rp->counts[e] = r->win[k].counts[e];
		p->round_trips += rp->round_trips;
		p->window_ns += rp->window_ns;
		p->nrepeats = k + 1;
	}
	p->cpus = malloc(sizeof(int) * (size_t)r->ncpus);
	if (!p->cpus)
		return error("out of memory");
	memcpy(p->cpus, r->cpus, sizeof(int) * (size_t)r->ncpus);
	p->ncpus_sampled = (size_t)r->ncpus;
	/* counting only: no samples, and the host attaches the kallsyms
	 * entries of the plugin's addresses (lab/exact-counts.h) */
	return r->smp.counting_only ? 0 : record_collect(p, r->s);
}

int serve_recording_document(struct serve_recording *r, const char *command,
			     const char *client, char **text, size_t *len,
			     char *why, size_t whylen)
{
	struct profile *p = &r->p;
	json_t *doc;

	*text = NULL;
	if (r->documented) {
		snprintf(why, whylen, "the profile of this side was sent already");
		return -1;
	}
	if (!r->nwin && !r->open) {
		snprintf(why, whylen, "perpkt serve recorded no window yet");
		return -1;
	}
	r->documented = 1;
	if (r->open && serve_recording_stop(r, r->answered0)) {
		snprintf(why, whylen, "perpkt serve could not close its window");
		return -1;
	}
	if (fill(r, p, command, client)) {
		snprintf(why, whylen, "perpkt serve could not make its profile "
			 "(its messages say why)");
		return -1;
	}
	doc = profile_to_json(p);
	if (doc && profile_json_check(doc, "the responder's profile")) {
		json_decref(doc);
		snprintf(why, whylen, "perpkt serve could not make its profile "
			 "(its messages say why)");
		return -1;
	}
	*text = doc ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(doc);
	if (!*text) {
		snprintf(why, whylen, "perpkt serve is out of memory");
		return -1;
	}
	*len = strlen(*text);
	if (*len > CONTROL_PROFILE_MAX) {
		snprintf(why, whylen, "the responder's profile is %zu bytes, more "
			 "than the %u the control channel carries: record a "
			 "shorter window, or without -g", *len, CONTROL_PROFILE_MAX);
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

void serve_recording_close(struct serve_recording *r)
{
	if (!r)
		return;
	sampler_close(r->s);
	procstat_free(&r->first);
	procstat_free(&r->last);
	procstat_free(&r->at_start);
	profile_free(&r->p);
	free(r->prev);
	free(r->cur);
	free(r->win);
	free(r);
}

const struct serve_recorder serve_recording_ops = {
	.open = serve_recording_open,
	.start = serve_recording_start,
	.stop = serve_recording_stop,
	.drain = serve_recording_drain,
	.document = serve_recording_document,
	.close = serve_recording_close,
};
