/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_NETNS_ID_H
#define PERPKT_NETNS_ID_H

#include <stddef.h>

/*
 * A network namespace by the device and inode of its nsfs file
 * (/proc/self/ns/net), the identity `ip netns identify` uses: what the
 * notes of saved state are keyed by, since /sys/class/net/lo of one
 * namespace is not the lo of another (issue 49).
 */
struct netns_id {
	unsigned long long dev, ino;
};

/* The calling process's; -1 with errno set. */
int netns_id_self(struct netns_id *id);
/* 1 when both name one namespace. */
int netns_id_same(const struct netns_id *a, const struct netns_id *b);
/* Its name under /run/netns (ip netns add), "" when it has none. */
void netns_id_name(const struct netns_id *id, char *buf, size_t len);
/* "pp1 (net:[4026532291])", or "net:[4026531833]" without a name;
 * `name` as noted ("" or NULL: looked up). */
void netns_id_describe(const struct netns_id *id, const char *name, char *buf,
		       size_t len);
/* 1 when no process and no name under /run/netns holds it any more
 * (its devices went with it); 0 when one does or this process cannot
 * see them all (it is not in the initial PID namespace). */
int netns_id_gone(const struct netns_id *id);

#endif
