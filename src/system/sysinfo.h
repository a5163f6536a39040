/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSINFO_H
#define PERPKT_SYSINFO_H

#include <stddef.h>

#include "profile/profile.h"

/* Fill the profile's system fields: uname, build-id, CPU model, time. */
void sysinfo_fill(struct profile *p);
/* Online CPUs into cpus[] (at most max); returns how many, -1 on error. */
int sysinfo_online_cpus(int *cpus, int max);
/* The online CPUs as the kernel lists them ("0-3,6"), for messages;
 * "unknown" when the list cannot be read. Returns buf. */
const char *sysinfo_online_text(char *buf, size_t len);

#endif
