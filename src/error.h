/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ERROR_H
#define PERPKT_ERROR_H

/*
 * Messages to stderr in git's style: "perpkt: <problem>: <subject>".
 * error() returns -1 so callers can write `return error(...)`.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
