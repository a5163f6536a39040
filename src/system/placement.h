/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PLACEMENT_H
#define PERPKT_PLACEMENT_H

#include <stddef.h>

/*
 * --placement: pick a client and a server CPU by how they relate, from
 * <root>/cpuN/topology and <root>/cpuN/cache/index*, where root is
 * normally /sys/devices/system/cpu (a parameter so tests can use a fake
 * tree).
 */

#define PLACEMENT_SYSFS "/sys/devices/system/cpu"

enum cpu_relation {
	REL_SAME,          /* one CPU */
	REL_SMT,           /* hyperthreads of one core */
	REL_SHARED_CACHE,  /* different cores sharing a cache level */
	REL_CROSS_CACHE,   /* same package, no cache in common */
	REL_CROSS_SOCKET,  /* different packages */
	REL_MAX,
};

const char *placement_name(enum cpu_relation r);
/* -1 (printed) for an unknown name. */
int placement_parse(const char *s, enum cpu_relation *out);
enum cpu_relation placement_relation(const char *root, int a, int b);
/*
 * Choose CPUs among online[] in relation r. *client and *server are -1
 * when free, or fixed by --client-cpu/--server-cpu. A pair is looked
 * for with the client on the last online CPU first (the default). On
 * failure says which relations this machine offers.
 */
int placement_resolve(const char *root, enum cpu_relation r,
		      const int *online, int nonline, int *client, int *server);
/* "client 0, server 1: shared-cache; share L3 (index3), not L1d/L1i/L2" */
void placement_describe(const char *root, int client, int server,
			char *buf, size_t len);

#endif
