/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_EXITCODE_H
#define PERPKT_EXITCODE_H

/*
 * What a command returns, and the process exit codes documented in
 * docs/perpkt.1. Commands and the recording engine return an enum
 * result; only main() turns it into an exit code (exit_code() there).
 */
enum result {
	RESULT_OK,        /* complete result */
	RESULT_PARTIAL,   /* result written, but interrupted, samples lost
			   * or addresses in no symbol */
	RESULT_FAILURE,   /* nothing usable produced */
	RESULT_USAGE,     /* bad command line */
	RESULT_MET,       /* diff --fail-if: a condition holds */
};

/*
 * Or'ed into a result by `diff --fail-if`: the run is a test of
 * `git bisect run`, which takes 0 as good, 1..127 but 125 as bad, 125
 * as skip, and aborts on 128 and above. An error (unreadable profile,
 * bad option) must not mark a commit bad, so there the usual codes 2
 * and 64 become 128 + that code: 130 and 192, and the bisect stops.
 */
#define RESULT_BISECT 0x100

enum perpkt_exit {
	PERPKT_EXIT_OK = 0,       /* complete result; fail-if: none holds */
	PERPKT_EXIT_PARTIAL = 1,  /* result written, but interrupted or samples lost */
	PERPKT_EXIT_MET = 1,      /* diff --fail-if: a condition holds */
	PERPKT_EXIT_FAILURE = 2,  /* nothing usable produced */
	PERPKT_EXIT_USAGE = 64,   /* bad command line (EX_USAGE) */
	PERPKT_EXIT_BISECT_BASE = 128,  /* + the code, under --fail-if */
};

#endif
