/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_UNIT_H
#define PERPKT_UNIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The unit a profile is normalised by (--per): the built-in workload's
 * round trips, or a count the kernel keeps (interface statistics,
 * /proc/net/snmp, /proc/interrupts), or a number the user gives.
 * Kernel counts are read at the window's edges and subtracted, as
 * Eric Dumazet did by hand ("delta of eth1 irq = 209449").
 */

enum unit_kind {
	UNIT_RT,          /* rt: the built-in workload's round trips */
	UNIT_PACKETS,     /* packets:IFACE, rx + tx */
	UNIT_RX_PACKETS,  /* rx-packets:IFACE */
	UNIT_TX_PACKETS,  /* tx-packets:IFACE */
	UNIT_UDP,         /* udp-datagrams[:in|out|both] */
	UNIT_TCP,         /* tcp-segments[:in|out|both] */
	UNIT_IRQS,        /* irqs:NAME */
	UNIT_COUNT,       /* count:N */
};

enum unit_dir { UNIT_IN = 1, UNIT_OUT = 2, UNIT_BOTH = 3 };

struct unit {
	enum unit_kind kind;
	enum unit_dir dir;    /* udp-datagrams, tcp-segments */
	char arg[64];         /* IFACE or the IRQ's name */
	uint64_t fixed;       /* count:N */
	char spec[96];        /* normalised: "udp-datagrams:in" */
	char name[32];        /* singular noun: "round trip", "udp-datagram" */
	char source[192];     /* where the count comes from, for reports */
};

/* Parse --per SPEC; prints why and returns -1 on a bad one. */
int unit_parse(const char *spec, struct unit *u);
/* 1 for the units read from a kernel counter (not rt or count:N). */
int unit_is_counter(const struct unit *u);
/* The counter's current value; -1 after printing why (interface gone,
 * no line of that name). Checks a unit can be read before a run. */
int unit_read(const struct unit *u, uint64_t *value);

/* Why a counter unit may have counted nothing, for the warning that
 * says so: the network namespace it was read in (perpkt's), the
 * interface, the IRQ lines, or IPv4 only. */
void unit_zero_hint(const struct unit *u, char *buf, size_t len);

/* Parsers, public for tests: the value of `key` in the `table` lines of
 * /proc/net/snmp, and the sum over CPUs of the /proc/interrupts rows
 * named NAME or whose description holds NAME. -1 when absent. */
int unit_snmp_value(const char *text, const char *table, const char *key,
		    uint64_t *value);
int unit_irq_sum(const char *text, const char *name, uint64_t *value);

#endif
