// SPDX-License-Identifier: GPL-2.0-only
/*
 * One side of a setting compared by turns: the windows of one ping-pong
 * taken by parity, as a profile of their own. What a window records
 * (its samples, units, count per event, latency summary, the client's
 * and responder's CPU time) splits exactly; what only the whole run
 * holds does not, and is left out rather than guessed.
 */
#include "profile/turns.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int profile_has_turns(const struct profile *p)
{
	return profile_condition(p, PROFILE_COND_TURNS) != NULL;
}

int profile_turn_parse(const char *s, int *on)
{
	if (!strcmp(s, "off") || !strcmp(s, "on")) {
		*on = !strcmp(s, "on");
		return 0;
	}
	return error("invalid turn '%s': use off or on", s);
}

static int note_missing(struct profile *p, const char *name, const char *why)
{
	struct profile_missing *m = realloc(p->missing,
					    (p->nmissing + 1) * sizeof(*m));

	if (!m)
		return error("out of memory");
	p->missing = m;
	m[p->nmissing].name = strdup(name);
	m[p->nmissing].reason = strdup(why);
	if (!m[p->nmissing].name || !m[p->nmissing].reason)
		return error("out of memory");
	p->nmissing++;
	return 0;
}

/* The side's latency from its windows' summaries: counts, extremes and
 * the mean exact; the spread pooled; a percentile the windows' mean of
 * theirs, weighted by round trips (no histogram to read it from). */
static void latency_of(struct latency_summary *l, const struct profile_repeat *r,
		       size_t n)
{
	double sum = 0, ss = 0, q[5] = { 0 };
	size_t k;

	memset(l, 0, sizeof(*l));
	for (k = 0; k < n; k++)
		l->count += r[k].latency.count;
	if (!l->count)
		return;
	l->min = UINT64_MAX;
	for (k = 0; k < n; k++) {
		const struct latency_summary *w = &r[k].latency;
		double c = (double)w->count;

		if (!w->count)
			continue;
		l->min = w->min < l->min ? w->min : l->min;
		l->max = w->max > l->max ? w->max : l->max;
		sum += c * w->mean;
		ss += c * (w->stddev * w->stddev + w->mean * w->mean);
		q[0] += c * (double)w->p50;
		q[1] += c * (double)w->p90;
		q[2] += c * (double)w->p99;
		q[3] += c * (double)w->p999;
		q[4] += c * (double)w->p9999;
	}
	l->mean = sum / (double)l->count;
	l->stddev = sqrt(fmax(0, ss / (double)l->count - l->mean * l->mean));
	l->p50 = (uint64_t)llround(q[0] / (double)l->count);
	l->p90 = (uint64_t)llround(q[1] / (double)l->count);
	l->p99 = (uint64_t)llround(q[2] / (double)l->count);
	l->p999 = (uint64_t)llround(q[3] / (double)l->count);
	l->p9999 = (uint64_t)llround(q[4] / (double)l->count);
}

/* Samples of the side's windows, renumbered to its own. */
static void keep_samples(struct profile *p, int on)
{
	size_t i, n = 0, e;

	for (e = 0; e < p->nevents; e++)
		p->events[e].samples = 0;
	for (i = 0; i < p->nsamples; i++) {
		struct profile_sample s = p->samples[i];

		if ((int)(s.repeat % 2) != on)
			continue;
		s.repeat /= 2;
		if (s.event < p->nevents)
			p->events[s.event].samples += s.count;
		p->samples[n++] = s;
	}
	p->nsamples = n;
}

/* The side's callchains, when the recorder kept them apart by turn;
 * else none (an older profile's are the whole run's). */
static void keep_stacks(struct profile *p, int on)
{
	size_t i, n = 0;
	int apart = p->nstacks > 0;

	for (i = 0; i < p->nstacks; i++)
		apart &= p->stacks[i].turn != 0;
	for (i = 0; i < p->nstacks; i++) {
		if (apart && p->stacks[i].turn == on + 1) {
			p->stacks[i].turn = 0;
			p->stacks[n++] = p->stacks[i];
		} else {
			free(p->stacks[i].ips);
		}
	}
	p->nstacks = n;
	if (!n) {
		free(p->stacks);
		p->stacks = NULL;
	}
}

/* The side's windows; the run's totals and the tasks' CPU from them. */
static void keep_windows(struct profile *p, int on)
{
	size_t k, n = 0, e, t;
	uint64_t client = 0, responder = 0, span = 0, all_ns = p->window_ns;

	for (e = 0; e < p->nevents; e++)
		p->events[e].count = 0;
	p->round_trips = p->window_ns = 0;
	for (k = 0; k < p->nrepeats; k++) {
		struct profile_repeat *r = &p->repeats[k];

		if ((int)(k % 2) != on) {
			free(r->counts);
			continue;
		}
		p->round_trips += r->round_trips;
		p->window_ns += r->window_ns;
		client += r->client_cpu_ns;
		responder += r->responder_cpu_ns;
		span += r->snapshot_ns;
		for (e = 0; r->counts && e < p->nevents; e++)
			p->events[e].count += r->counts[e];
		p->repeats[n++] = *r;
	}
	p->nrepeats = n;
	/* enabled and running scale with the windows kept */
	for (e = 0; all_ns && e < p->nevents; e++) {
		p->events[e].enabled_ns = (uint64_t)((double)p->events[e].enabled_ns *
						     p->window_ns / all_ns);
		p->events[e].running_ns = (uint64_t)((double)p->events[e].running_ns *
						     p->window_ns / all_ns);
	}
	for (t = 0; t < p->ntasks; t++) {
		struct profile_task *task = &p->tasks[t];
		uint64_t cpu = task->role == ROLE_CLIENT ? client :
			       task->role == ROLE_RESPONDER ? responder : 0;

		/* what schedstat gives window by window; the rest is the run's */
		task->cpu_ns = cpu;
		task->span_ns = span;
		task->wait_ns = task->user_ns = task->system_ns = 0;
		task->switches = 0;
	}
	latency_of(&p->latency, p->repeats, p->nrepeats);
}

/* "on: CMD" from "off: CMD; on: CMD", or "on" when it says otherwise */
static const char *side_of(const struct profile *p, int on, char *buf,
			   size_t len)
{
	const char *t = profile_condition(p, PROFILE_COND_TURNS);
	const char *sep = t ? strstr(t, "; on: ") : NULL;

	if (!sep || strncmp(t, "off: ", 5))
		return on ? "on" : "off";
	if (on)
		snprintf(buf, len, "%s", sep + 2);
	else
		snprintf(buf, len, "%.*s", (int)(sep - t), t);
	return buf;
}

int profile_take_turn(struct profile *p, int on, const char *path)
{
	char buf[600];
	size_t i;

	if (!profile_has_turns(p))
		return error("profile '%s' has no turns: record it with "
			     "--turn-on CMD --turn-off CMD", path);
	if (p->remote) {
		profile_free(p->remote);
		free(p->remote);
		p->remote = NULL;
	}
	keep_samples(p, on);
	keep_windows(p, on);
	keep_stacks(p, on);
	free(p->histogram);
	p->histogram = NULL;
	p->nhistogram = 0;
	free(p->cpu_times);
	p->cpu_times = NULL;
	p->ncpu_times = 0;
	for (i = 0; i < p->nirqs; i++) {
		free(p->irqs[i].kind);
		free(p->irqs[i].name);
		free(p->irqs[i].desc);
	}
	free(p->irqs);
	p->irqs = NULL;
	p->nirqs = 0;
	/* per CPU, counted over the whole run */
	for (i = 0; i < p->ncounts; i++)
		free(p->counts[i].name);
	free(p->counts);
	p->counts = NULL;
	p->ncounts = 0;
	if (note_missing(p, p->nstacks ? "latency histogram, CPU times, interrupts, counts per CPU" :
			 "callchains, latency histogram, CPU times, interrupts, counts per CPU",
			 "a turn's side is its windows alone: these are the whole run's"))
		return -1;
	return profile_add_condition(p, PROFILE_COND_TURNS "_side",
				     side_of(p, on, buf, sizeof(buf)));
}
