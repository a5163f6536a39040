/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_MERGE_H
#define PERPKT_PROFILE_MERGE_H

#include "profile/profile.h"

/*
 * Add from's windows to into as further repeats: samples renumbered,
 * counts, CPU times, interrupts and the latency histogram summed,
 * kallsyms entries and modules joined; a two-host run's responder sides
 * merged likewise (dropped, with a warning, when only one has one).
 * from must be a run of the same
 * kernel, mode, unit, events and workload (what names it in messages);
 * it is left to be freed, emptied of what into took. -1 after printing
 * why.
 */
int profile_merge(struct profile *into, struct profile *from, const char *what);

#endif
