/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSINFO_H
#define PERPKT_SYSINFO_H

#include "profile/profile.h"

/* Fill the profile's system fields: uname, build-id, CPU model, time. */
void sysinfo_fill(struct profile *p);
/* Online CPUs into cpus[] (at most max); returns how many, -1 on error. */
int sysinfo_online_cpus(int *cpus, int max);

#endif
