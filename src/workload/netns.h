/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_NETNS_H
#define PERPKT_NETNS_H

#include <netinet/in.h>

/*
 * --net veth: two network namespaces made by perpkt, "perpkt-<pid>-r"
 * (responder) and "perpkt-<pid>-c" (client), joined by a veth pair
 * named veth0 on both sides, with addresses that exist only inside
 * them. Built with iproute2's `ip` (fork/exec): simpler than netlink
 * and what an administrator would type to check it.
 */

enum netns_side { NETNS_RESPONDER, NETNS_CLIENT };

#define NETNS_PREFIX "perpkt-"
#define NETNS_IFNAME "veth0"
#define NETNS_RESPONDER_ADDR "10.247.0.1"
#define NETNS_CLIENT_ADDR "10.247.0.2"

struct netns;

/* Delete namespaces left by perpkt runs that were killed (their pid is
 * gone); returns how many were removed. */
int netns_cleanup_stale(void);
/* A namespace of that name is there (/run/netns). */
int netns_exists(const char *name);
/* `ip netns delete NAME`: 0 or -1. */
int netns_delete(const char *name);
/* Create the pair; on failure nothing is left behind. Each namespace
 * is noted in the run's state file before it is made
 * (workload/saved-state.h), so a killed run's are removed later. */
int netns_create(struct netns **out);
/* An O_RDONLY fd of that side's namespace, for setns(). */
int netns_fd(const struct netns *n, enum netns_side side);
const char *netns_name(const struct netns *n, enum netns_side side);
/* Move the calling thread into that namespace: 0 or a negative errno.
 * No stdio or malloc: safe in a forked child. */
int netns_enter_fd(int fd);
/* Run argv inside that side's namespace (`ip netns exec`, so /sys shows
 * its interfaces); output goes to out (NUL-terminated, may be NULL).
 * Returns the exit status, -1 if it could not run. */
int netns_run(const struct netns *n, enum netns_side side,
	      char *const argv[], char *out, size_t outlen);
/* Delete both namespaces (and with them the veth pair). NULL: no-op. */
void netns_destroy(struct netns *n);

/* Run a command (argv[0] looked up in PATH) with SIGINT ignored, so a
 * Ctrl-C cannot cut a setup or teardown step in half; stdout and
 * stderr into out. Returns the exit status, -1 if it could not run. */
int run_command(char *const argv[], char *out, size_t outlen);

#endif
