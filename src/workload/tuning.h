/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TUNING_H
#define PERPKT_TUNING_H

#include "profile/profile.h"

/*
 * --rps-cpus and --irq-cpu: settings changed for one run and put back
 * by tuning_restore() on every exit path (workload_stop). On veth the
 * RPS mask is set inside perpkt's own namespaces, which are removed
 * afterwards, so nothing outside them is ever touched.
 */

struct tuning;
struct netns;

/* network "loopback" or "veth" (ns non-NULL); remote: --peer/--echo.
 * rps_cpus NULL and irq_cpu -1: change nothing, only describe. */
int tuning_apply(struct tuning **out, const char *network,
		 const struct netns *ns, int remote, const char *rps_cpus,
		 int irq_cpu);
/* The RPS mask in effect as condition "net.rps_cpus", and, when an
 * RPS mask or IRQ affinity of the system changed since tuning_apply
 * other than by this run, what did as TUNING_CHANGED_DURING_RUN (and a
 * warning). NULL: no-op. */
#define TUNING_CHANGED_DURING_RUN "system.changed_during_run"
void tuning_describe(const struct tuning *t, struct profile *p);
/* Put back what was changed and free t. NULL: no-op. */
void tuning_restore(struct tuning *t);
/* 0 if s looks like a CPU mask for rps_cpus ("f", "00000003", "ff,0")
 * naming only CPUs 0 to ncpus - 1 of `machine` (said in the error);
 * ncpus 0: this machine's CPUs, < 0: the form alone. */
int tuning_check_mask(const char *s, long ncpus, const char *machine);

#endif
