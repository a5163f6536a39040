/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_EXITCODE_H
#define PERPKT_EXITCODE_H

/*
 * Process exit codes, documented in docs/perpkt.1. Only main() turns
 * a command's result into one of these.
 */
enum perpkt_exit {
	PERPKT_EXIT_OK = 0,       /* complete result */
	PERPKT_EXIT_PARTIAL = 1,  /* result written, but interrupted or samples lost */
	PERPKT_EXIT_FAILURE = 2,  /* nothing usable produced */
	PERPKT_EXIT_USAGE = 64,   /* bad command line (EX_USAGE) */
};

#endif
