/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DIFF_CONDITIONS_H
#define PERPKT_DIFF_CONDITIONS_H

#include "reports/diff/diff.h"

/*
 * What differs between the profiles of a diff, said before any number:
 * kernel release and build-id, command line, --append, mode,
 * accelerator, netfilter, sysctls, CPU model, placement, perpkt
 * version. A row per condition that is not the same in every profile;
 * list-like values (sysctls) keep only the entries that differ.
 */
struct diff_condition {
	const char *what;      /* "kernel release" */
	const char *key;       /* "kernel.release", the profile's name */
	char *value[DIFF_MAX_PROFILES];  /* per profile; "(not recorded)" */
	/* how the profiles were recorded (sampling, callchains, windows):
	 * what the difference does to the figures, one line; else NULL */
	const char *effect;
};

struct diff_conditions {
	struct diff_condition *rows;
	size_t n;
	size_t first_warnings;  /* d->warnings before the conditions: 1
				 * under a forced comparison of worlds */
};

/*
 * Fill d->conds from the profiles behind d's models. Profiles of
 * different worlds (the host, a QEMU TCG guest, a KVM guest; sampled
 * against exact counts) are refused after printing why, unless
 * `force`, which puts the same words first among d's warnings.
 * Returns 0 or -1.
 */
int diff_conditions_fill(struct diff *d, int force);
void diff_conditions_free(struct diff_conditions *c);

#endif
