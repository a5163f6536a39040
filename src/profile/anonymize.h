/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ANONYMIZE_H
#define PERPKT_ANONYMIZE_H

#include "profile/profile.h"

/*
 * --anonymize on report, diff and table: before the model is built,
 * every string field of a profile, and of its remote side, has what
 * identifies a machine or a person replaced by placeholders: host names
 * (the profile's, the peers of --peer/--echo, names with a top-level
 * domain), IPv4/IPv6 and MAC addresses, interface names, user names
 * (from /home/NAME, ~NAME/, NAME@HOST, -u/--user NAME and serve's
 * peer.client), paths other than the system's own (/sys, /proc, /dev,
 * /usr, /etc, ...), the VALUE of every --key=VALUE, and the kernel
 * command line as a whole: host1, addr1, addr6-1, mac1, if1, user1,
 * path1, value1, cmdline1. One anonymizer serves every profile of a
 * report, so the same value maps to the same placeholder throughout.
 * Loopback (127.x, ::1, lo), 0.0.0.0, root and nobody stay: they name
 * no one.
 */
struct anonymizer;

struct anonymizer *anonymizer_new(void);
/* Rewrite p's strings in place; -1 (printed) when out of memory. */
int anonymize_profile(struct anonymizer *a, struct profile *p);
void anonymizer_free(struct anonymizer *a);

#endif
