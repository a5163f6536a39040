/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_APPEND_H
#define PERPKT_APPEND_H

#include <stddef.h>

/* printf onto the end of the NUL-terminated string out (len bytes in
 * all), cut at len - 1: condition values are built a piece at a time. */
void append(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
