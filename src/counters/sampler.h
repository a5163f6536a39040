/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SAMPLER_H
#define PERPKT_SAMPLER_H

#include <stdint.h>
#include <sys/types.h>

#include "aggregate.h"
#include "events.h"
#include "ring.h"

/*
 * One sampling perf event per (event, CPU), system-wide on that CPU,
 * opened disabled, each with its own ring buffer; samples are summed
 * into an aggregate as the rings are drained.
 */

struct sampler_config {
	const struct event_spec *events;
	int nevents;
	const int *cpus;
	int ncpus;
	unsigned ring_pages;   /* data pages per ring, a power of two */
};

/* Why an open failed, so the caller can fall back or explain. */
struct sampler_failure {
	int err;               /* errno of perf_event_open */
	int event, cpu;
	char msg[256];         /* one line, with the remedy */
};

struct sampler;

int sampler_open(struct sampler **out, const struct sampler_config *c,
		 struct sampler_failure *why);
/* All sampling fds, for ENABLE/DISABLE at the exact window edges. */
int sampler_fds(const struct sampler *s, const int **fds);
/* pids whose samples are tagged client / responder / perpkt itself. */
void sampler_set_roles(struct sampler *s, pid_t client, pid_t responder,
		       pid_t self);
/* Wait up to timeout_ms for a ring to pass its watermark, then drain all. */
int sampler_poll(struct sampler *s, int timeout_ms);
void sampler_drain(struct sampler *s);
const struct aggregate *sampler_aggregate(const struct sampler *s);
/* Per event, summed over CPUs. */
void sampler_stats(const struct sampler *s, int event, struct ring_stats *st);
/* Counted total of an event over its enabled time, summed over CPUs;
 * enabled/running let the caller see multiplexing. */
int sampler_count(const struct sampler *s, int event, uint64_t *value,
		  uint64_t *enabled, uint64_t *running);
void sampler_close(struct sampler *s);

#endif
