/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROCFILE_H
#define PERPKT_PROCFILE_H

#include <stddef.h>
#include <stdio.h>

/* Small kernel files (/proc, /sys) and command output, read whole or by
 * their first line. None of these print: a missing file is often fine. */

/* The rest of a stream nothing was read from yet (a pipe), NUL-terminated;
 * NULL when it cannot be read or is over `limit` bytes (refused, never
 * cut short: base/readfile.h). */
char *procfile_read_stream(FILE *f, size_t limit);
/* A whole file; NULL when it cannot be read or is over 4 MiB. */
char *procfile_read(const char *path);
/* The first line, without its newline; -1 (and "") when the file cannot
 * be opened or is empty. */
int procfile_line(const char *path, char *buf, size_t len);
/* A file holding one integer, such as a sysctl; -1 when unreadable. */
int procfile_long(const char *path, long *v);
/* The output of argv[0] (found on PATH) run with argv and no shell,
 * stdin and stderr on /dev/null, its trailing newline cut; NULL when it
 * cannot run, exits other than 0 or says over `limit` bytes. */
char *procfile_command(char *const argv[], size_t limit);
/* A gzip file (/proc/config.gz) inflated in this process (zlib), NUL-
 * terminated (a file that is not gzip is read as it is); NULL when it
 * cannot be read or inflates to over `limit` bytes. */
char *procfile_read_gz(const char *path, size_t limit);

#endif
