/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ERROR_H
#define PERPKT_ERROR_H

/*
 * Messages to stderr in git's style: "perpkt: <problem>: <subject>".
 * error() returns -1 so callers can write `return error(...)`.
 */
/* -q: warnings and info() lines are dropped (errors never are);
 * -v: callers may say more. One level for the whole process, set once
 * by the command's option parser. */
enum { DIAG_QUIET = -1, DIAG_NORMAL = 0, DIAG_VERBOSE = 1 };
void diag_set_verbosity(int level);
int diag_verbosity(void);

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* why the result is partial (exit 1): a warning that -q keeps, since
 * a script that sees exit 1 must be able to say why */
void partial(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
