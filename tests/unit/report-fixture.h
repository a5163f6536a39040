/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TEST_REPORT_FIXTURE_H
#define PERPKT_TEST_REPORT_FIXTURE_H

/*
 * The small hand-made profile that test-model.c and test-report-text.c
 * both build on: its symbols and samples, and a way to add events.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "symbolize/symbolize.h"

#define LONG_NAME "a_very_long_function_name_that_will_never_fit_in_a_mail_column"
#define IP_UNKNOWN 0x9000

/* Kernel symbols of the test profile; sizes reach the next symbol. */
static const struct sym_entry ksyms[] = {
	{ 0x1000, 0x100, 't', "udp_sendmsg", NULL },
	{ 0x1100, 0x100, 't', "udp_recvmsg.isra.0", NULL },
	{ 0x1200, 0x080, 't', "udp_recvmsg.cold", NULL },
	{ 0x2000, 0x100, 't', "default_idle", NULL },
	{ 0x3000, 0x100, 'T', "_raw_spin_unlock", NULL },
	{ 0x4000, 0x100, 't', LONG_NAME, NULL },
};

/*
 * cpu-clock at 1000 ns, 100 round trips. Per RT: udp_sendmsg 500 (two
 * ips, two CPUs), default_idle 500, udp_recvmsg 250 (two symbols that
 * fold into one), spin unlock 150, unknown 40, long name 10.
 */
static const struct profile_sample samples[] = {
	{ 0, 0, 0x1010, ROLE_CLIENT, 30, 30000, 0, 0, 0, 0 },
	{ 0, 1, 0x1010, ROLE_RESPONDER, 10, 10000, 0, 0, 0, 0 },
	{ 0, 0, 0x1020, ROLE_CLIENT, 10, 10000, 0, 0, 0, 0 },
	{ 0, 1, 0x1110, ROLE_RESPONDER, 20, 20000, 0, 0, 0, 0 },
	{ 0, 1, 0x1210, ROLE_RESPONDER, 5, 5000, 0, 0, 0, 0 },
	{ 0, 0, 0x2010, ROLE_IDLE, 50, 50000, 0, 0, 0, 0 },
	{ 0, 1, 0x3010, ROLE_RESPONDER, 15, 15000, 0, 0, 0, 0 },
	{ 0, 0, 0x4010, ROLE_CLIENT, 1, 1000, 0, 0, 0, 0 },
	{ 0, 0, IP_UNKNOWN, ROLE_OTHER, 4, 4000, 0, 0, 0, 0 },
};

/* Appends an event; p->events must have room for it. */
static inline struct profile_event *add_event(struct profile *p, const char *name,
					      const char *unit, uint64_t period)
{
	struct profile_event *ev = &p->events[p->nevents++];

	memset(ev, 0, sizeof(*ev));
	ev->name = strdup(name);
	ev->unit = strdup(unit);
	ev->period = period;
	return ev;
}

#endif
