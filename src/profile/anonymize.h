/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ANONYMIZE_H
#define PERPKT_ANONYMIZE_H

#include "profile/profile.h"

/*
 * --anonymize on report, diff and table: before the model is built,
 * host names, IPv4/IPv6 and MAC addresses, interface names and the
 * kernel command line in a profile are replaced by placeholders (host1,
 * addr1, addr6-1, mac1, if1, cmdline1). One anonymizer serves every
 * profile of a report, so the same value maps to the same placeholder
 * throughout. Loopback (127.x, ::1, lo) and 0.0.0.0 stay: they name no
 * machine.
 */
struct anonymizer;

struct anonymizer *anonymizer_new(void);
/* Rewrite p's strings in place; -1 (printed) when out of memory. */
int anonymize_profile(struct anonymizer *a, struct profile *p);
void anonymizer_free(struct anonymizer *a);

#endif
