/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_OPTIONS_H
#define PERPKT_RECORD_OPTIONS_H

#include <getopt.h>

#include "record/record.h"

/*
 * getopt_long for a command that takes RECORD_COMMON_LONGOPTS (record,
 * stat): the common options go to record_common_option, so the caller
 * sees only its own. Returns the next own option, -1 at the end, '?'
 * after printing what is wrong (a bad value of a common one included).
 * shortopts ends with RECORD_COMMON_SHORTOPTS; optind is the caller's.
 */
int record_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts, struct record_options *o);

#endif
