/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ATTACHED_H
#define PERPKT_ATTACHED_H

#include <stddef.h>
#include <sys/types.h>

/*
 * What sits on the packet path or beside the sampler, read in the
 * calling process's network namespace (so a child that entered the
 * workload's namespace reads that one's): tc qdiscs, filters and
 * actions, open packet taps, other users of perf_event. Each fills
 * `out` with a short condition value and never fails: what cannot be
 * read is said in the value.
 */

/* The output of `tc qdisc show` (iproute2), which attached_tc and
 * attached_bpf read (one run for both); NULL when tc cannot run. */
char *attached_qdiscs(void);
/* "lo: noqueue, clsact, 3 filters, 3 actions; eth0: pfifo_fast" for
 * every interface, from qdiscs (attached_qdiscs) and `tc filter show`. */
void attached_tc(const char *qdiscs, char *out, size_t len);
/* "lo: xdpgeneric xdp_pass tag 3b185187, tc ingress bpf cls tag 9a2e07a1"
 * or "none": BPF programs attached to every interface, XDP from `ip -d
 * link`, tc's bpf filters from `tc filter show`, tcx's links (Linux 6.6)
 * from bpf(2) BPF_PROG_QUERY. */
void attached_bpf(const char *qdiscs, char *out, size_t len);
/* "2 open: tcpdump on lo, dhclient on any" or "none", from
 * /proc/self/net/packet, owners found by socket inode in /proc/PID/fd. */
void attached_taps(char *out, size_t len);
/* "none" or "perf, bpftrace": processes but `self` holding perf_event
 * file descriptors (anon_inode:[perf_event] in /proc/PID/fd). */
void attached_perf_users(char *out, size_t len, pid_t self);

/* Exposed for tests. */
/* Filters and their actions in `tc filter show` output; a filter seen
 * before (its line in `seen`, "\n"-separated, appended to) is not
 * counted again: u32 lists its shared hash tables under every parent. */
void attached_tc_count(const char *text, char **seen, size_t *filters,
		       size_t *actions);

/* tc's bpf filters in `tc filter show` output, as ", tc WHERE bpf NAME
 * tag TAG" appended to out (where NULL: under a qdisc, "tc bpf"). */
void attached_tc_bpf(const char *text, const char *where, char *out, size_t len);
/* dev's XDP programs in `ip -d -o link show` output, appended so. */
void attached_xdp(const char *links, const char *dev, char *out, size_t len);

#endif
