/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ROUTING_H
#define PERPKT_ROUTING_H

#include <stddef.h>

/*
 * The routing of the calling process's network namespace, counted from
 * rtnetlink dumps (RTM_GETRULE, RTM_GETROUTE, RTM_GETNEXTHOP), never
 * from a file: policy-routing rules are walked on every route lookup
 * (fib_rules_lookup), so 500 of them cost microseconds per round trip
 * and must show among the conditions (issue 49).
 *
 * Written into out as a list diff compares entry by entry, each entry
 * led by `prefix` ("" or "client "):
 *   "ipv4 rules=3, ipv4 nexthops=0, ipv4 routes main=1, ipv6 rules=2,
 *    ipv6 nexthops=0, ipv6 routes main=1"
 * Routes are those not of protocol kernel (the kernel makes those for
 * each address, IPv6's only after duplicate address detection, so two
 * runs would differ by a run's length); tables are named local, main,
 * default or by number, and only tables with such routes are listed.
 * What cannot be read says "unknown (why)".
 */
void routing_describe(const char *prefix, char *out, size_t len);

#endif
