/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SAMPLER_H
#define PERPKT_SAMPLER_H

#include <stdint.h>
#include <sys/types.h>

#include "counters/aggregate.h"
#include "counters/event-encode.h"
#include "counters/ring.h"
#include "counters/stacks.h"

/*
 * The events on each chosen CPU form one perf group, system-wide on that
 * CPU: the first event leads, each sampled event has its own period, and
 * count-only events give exact totals. The group shares one ring buffer
 * (members redirect into the leader's); samples say which event they
 * belong to by their identifier. Enabling a leader starts its whole
 * group, so the window's edges are one ioctl per CPU.
 */

struct sampler_config {
	const struct event_spec *events;  /* events[0] leads each group */
	int nevents;
	const int *cpus;
	int ncpus;
	unsigned ring_pages;   /* data pages per ring, a power of two */
	int callchain;         /* kernel frames per callchain, aggregated;
				* 0: none */
};

/* Why an open failed, so the caller can fall back or explain. */
struct sampler_failure {
	int err;               /* errno of perf_event_open */
	int event, cpu;
	char msg[256];         /* one line, with the remedy */
};

/* Counted totals of one event on one CPU. */
struct sampler_count {
	uint64_t value;        /* as read */
	uint64_t enabled_ns, running_ns;
};

struct sampler;

/* Open one event alone on one CPU and close it: can it run here? */
int sampler_probe(const struct event_spec *ev, int cpu,
		  struct sampler_failure *why);
int sampler_open(struct sampler **out, const struct sampler_config *c,
		 struct sampler_failure *why);
/* Group leaders, one per CPU: ENABLE/DISABLE them at the window edges. */
int sampler_fds(const struct sampler *s, const int **fds);
/* Enable (on) or disable every group at once, as a window's edge; -1
 * with errno set when an ioctl fails. */
int sampler_enable(struct sampler *s, int on);
/* pids whose samples are tagged client / responder / perpkt itself. */
void sampler_set_roles(struct sampler *s, pid_t client, pid_t responder,
		       pid_t self);
/* --flows: more clients and responders (arrays that outlive the
 * sampling), tagged as client / responder too. */
void sampler_set_flows(struct sampler *s, const pid_t *clients,
		       const pid_t *responders, int n);
/* Samples of these pids (--busy's spinners; the array must outlive the
 * sampling) get the role ROLE_BUSY. */
void sampler_set_busy(struct sampler *s, const pid_t *pids, int n);
/* Samples of pids for which owns(ctx, pid) is 1 get the role
 * "workload" (a command's process tree); called once per sample of a
 * pid that is none of the above, so it must be cheap (cache). */
void sampler_set_owner(struct sampler *s, int (*owns)(void *ctx, pid_t pid),
		       void *ctx);
/* Tag samples from now on with this repeat (window) index. Drain first:
 * samples still in the rings would be counted for the new one. */
void sampler_set_repeat(struct sampler *s, int repeat);
/* A setting compared by turns: callchains of even and odd windows kept
 * apart (the profile's stacks carry "turn"). */
void sampler_set_by_turns(struct sampler *s);
/* Wait up to timeout_ms for a ring to pass its watermark or fd (-1:
 * none) to become readable, then drain all. */
int sampler_poll(struct sampler *s, int fd, int timeout_ms);
void sampler_drain(struct sampler *s);
const struct aggregate *sampler_aggregate(const struct sampler *s);
const struct stack_table *sampler_stacks(const struct sampler *s);
/* Ring statistics of the ring on cpus[i] (all events of that CPU). */
void sampler_ring_stats(const struct sampler *s, int i, struct ring_stats *st);
/* Samples received per event, over all CPUs. */
uint64_t sampler_samples(const struct sampler *s, int event);
/* Read all groups: counts[i * nevents + e] for cpus[i], event e. */
int sampler_read(struct sampler *s, struct sampler_count *counts);
void sampler_close(struct sampler *s);

#endif
