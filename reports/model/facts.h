/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_FACTS_H
#define PERPKT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * What a run was, as the reports state it: the host, the workload, what
 * values are per, the window, the latency, the events and the mode.
 * Filled once from the profile when a model is built, so that renderers
 * read their model and never the profile. Strings point into the
 * profile: every command frees it after the models made of it.
 */

/* More than any recording has (the counters open at most 10). */
#define RUN_MAX_EVENTS 16

/* What the values are per (record --per). */
struct run_unit {
	const char *name;    /* singular noun: "round trip", "udp-datagram" */
	const char *spec;    /* as --per takes it: "rt", "udp-datagrams:in" */
	const char *abbrev;  /* for column heads: "RT", "dgram" */
	const char *source;  /* where it was counted, NULL if unknown */
	int is_rt;           /* the built-in workload's round trips */
	/* a counter outside the window (outside_ns 0: not measured);
	 * outside_busy: the workload ran outside it too */
	uint64_t outside, outside_ns;
	int outside_busy;
};

struct run_event {
	const char *name;       /* what was measured: "cycles", "cpu-clock" */
	const char *requested;  /* what the user asked for */
	const char *pmu;
	const char *unit;       /* "cycles", "instructions", "ns" */
	uint64_t period, freq;  /* freq: samples/s asked for (-F), else 0 */
	uint64_t samples, lost, throttled;
	uint64_t count;         /* counted over the window, all CPUs */
	uint64_t enabled_ns, running_ns;  /* running < enabled: multiplexed */
	/* why it measured nothing although it ran; NULL when it counts */
	const char *not_counting;
};

/* Interrupts or softirqs of one source over the window, summed over the
 * CPUs (/proc/interrupts, /proc/softirqs); "25 PCI-MSI 32769-edge
 * virtio0-input.0" for a device's, its name and description squeezed. */
#define RUN_MAX_IRQS 64
struct run_irq {
	char name[48];
	double total;
	int device;  /* a numbered line of /proc/interrupts: a device's */
};

struct run_facts {
	const char *tool_version, *created, *command;  /* the recording */
	const char *hostname, *kernel_release, *kernel_version, *build_id;
	const char *cpu_model;
	int ncpus;                /* online */
	const int *cpus;          /* sampled (stat: counted) */
	size_t ncpus_sampled;

	const char *workload_command;  /* record -- CMD; NULL: built-in */
	const char *transport, *network;
	uint32_t message_size;
	int client_cpu, server_cpu;    /* -1: not pinned */
	/* --flows: each flow's pair (client_cpu, server_cpu are flow 0's);
	 * NULL with one flow */
	const struct profile_flow_cpus *flow_cpus;
	size_t nflows;
	struct run_unit unit;
	uint64_t round_trips;     /* in the window, counted in `unit` */
	uint64_t window_ns;
	double warmup_s;
	/* asked: -d x --repeat, and that plus warm-up; wall: the whole
	 * run. 0 when unknown */
	uint64_t asked_window_ns, asked_ns, wall_ns;
	size_t nwindows;          /* windows listed, 0 in older profiles */
	int restarted;            /* the ping-pong restarted before each */
	size_t npartial;          /* of those, cut short */
	double partial_fraction;  /* share the first cut-short one reached */
	struct latency_summary latency;
	struct latency_summary latency_unsampled;  /* warm-up, counters off */
	uint32_t hist_sub_buckets;  /* histogram resolution, 0: not stated */

	const char *mode;         /* "hardware" or "software-clock" */
	const char *fallback_reason;
	double clock_mhz;         /* the clock a cycle period came from */
	const char *clock_source;
	struct run_event events[RUN_MAX_EVENTS];
	size_t nevents;
	/* every throttle was on a CPU idle most of the window (NO_HZ):
	 * only idle time went unsampled */
	int idle_throttles;

	/* conditions that reports word themselves; NULL when absent */
	const char *side;         /* record --peer: which host this is */
	const char *filter;       /* report --role, --cpu, --pid */
	const char *inconsistent; /* read with --force: what is wrong */
	const char *qemu_command; /* record --kernel */
	int emulated;             /* under QEMU TCG: times are emulated */
	int exact;                /* record --kernel --exact: exact counts,
				   * no sampling error */
	int icount_shift;         /* >= 0: a deterministic guest on QEMU's
				   * instruction clock, times virtual (2^shift
				   * ns an instruction); -1 not */
	/* --flows: the flows and their spread (workload.flows,
	 * workload.flows_spread); NULL with one flow */
	const char *flows, *flows_spread;
	const char *boots_agree;  /* -r N deterministic: "yes: ..." or
				   * "no: ..." (lab.boots_agree); NULL */
	/* local timer interrupts in the window(s), all CPUs sampled; -1
	 * when /proc/interrupts had none by that name (LOC, arch_timer) */
	double timer_irqs;
	/* by source, most first; none when the profile has no counts */
	struct run_irq irqs[RUN_MAX_IRQS], softirqs[RUN_MAX_IRQS];
	int nirqs, nsoftirqs;
	/* NAPI polls in the window(s), the calls of napi_function counted
	 * exactly (record --kernel --exact); napi_function NULL: not
	 * counted, and then say nothing rather than 0 */
	const char *napi_function;
	double napi_polls;
};

/* Device interrupts (numbered lines of /proc/interrupts) and softirqs
 * in the window(s), summed over sources and CPUs. */
double run_facts_device_irqs(const struct run_facts *f);
double run_facts_softirqs(const struct run_facts *f);

/*
 * The observer's cost: the round trip while sampled (*sampled) against
 * the warm-up's, counters off (*unsampled), on one basis for both: the
 * means without stalls when both sides set them apart, else the plain
 * means (profile/latency-stalls.h). Returns the relative change, or
 * NAN when the warm-up was not timed; *basis names what was compared.
 */
double run_facts_observer(const struct run_facts *f, double *sampled,
			  double *unsampled, const char **basis);

/* With --flows, every flow's CPUs in a line for the CPUs fact: "4
 * flows: client 0,1,0,1 responder 1,0,1,0" (over 8 flows a repeating
 * list once: "16 flows: client 0,1,2,3 (round robin) responder 1
 * (all)"); "" with one flow. */
void run_facts_flow_cpus_text(const struct run_facts *f, char *buf, size_t len);

/* f from p; -1 after printing why (more than RUN_MAX_EVENTS events). */
int run_facts_fill(struct run_facts *f, const struct profile *p);

#endif
