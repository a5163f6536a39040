/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_BASE_READFILE_H
#define PERPKT_BASE_READFILE_H

#include <stddef.h>

/*
 * The one whole-file reader, for the program and the symbolize library
 * alike: a file (a /proc file too, whose size reads as 0) or a pipe
 * read to its end into one NUL-terminated buffer, within a bound. One
 * policy: what is over the bound is refused, never cut short, so a
 * caller cannot take part of a file for all of it. Nothing is printed:
 * the caller says why, from errno.
 */
struct readfile {
	char *data;     /* NUL-terminated, the caller's to free */
	size_t len;     /* bytes read, the NUL not counted */
};

enum {
	READFILE_TEXT = 1 << 0, /* a NUL byte refuses the file (EILSEQ) at
				 * once: /dev/zero is not read to the bound */
};

/*
 * fd read to its end. 0, or -1 with errno: EFBIG over max bytes,
 * EILSEQ for a NUL byte under READFILE_TEXT (its offset in out->len),
 * ENOMEM, or read's; out->data is NULL then.
 */
int readfile_fd(int fd, size_t max, unsigned flags, struct readfile *out);
/* path opened and read so; open's errno when it cannot be opened */
int readfile_path(const char *path, size_t max, unsigned flags,
		  struct readfile *out);

#endif
