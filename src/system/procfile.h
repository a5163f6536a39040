/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROCFILE_H
#define PERPKT_PROCFILE_H

#include <stddef.h>
#include <stdio.h>

/* Small kernel files (/proc, /sys) and command output, read whole or by
 * their first line. None of these print: a missing file is often fine. */

/* Everything up to `limit` bytes, NUL-terminated; NULL on failure. */
char *procfile_read_stream(FILE *f, size_t limit);
/* A whole file (up to 4 MiB); NULL when it cannot be read. */
char *procfile_read(const char *path);
/* The first line, without its newline; -1 (and "") when the file cannot
 * be opened or is empty. */
int procfile_line(const char *path, char *buf, size_t len);
/* A file holding one integer, such as a sysctl; -1 when unreadable. */
int procfile_long(const char *path, long *v);
/* The output of argv[0] (found on PATH) run with argv and no shell,
 * stdin and stderr on /dev/null, up to 1 MiB, its trailing newline
 * cut; NULL when it cannot run or exits other than 0. */
char *procfile_command(char *const argv[]);

#endif
