/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_OUTPUT_H
#define PERPKT_PROFILE_OUTPUT_H

#include <jansson.h>
#include <sys/types.h>

#include "profile/profile.h"

/*
 * Where `record -o` writes, checked before the measurement so a long run
 * is never thrown away for a bad path.
 *
 * A regular file (or a new one) is replaced atomically: a temporary file
 * beside it, created at open, is renamed over it at commit. A symlink is
 * followed to its target. A character device or FIFO (/dev/null,
 * /dev/stdout on a pipe) is written through, never replaced, and so is
 * "-", standard output whatever it is. New files
 * get 0666 less the umask; a replaced file keeps its mode.
 */
struct profile_output {
	char *path;     /* the file written: the symlink's target, if any */
	char *tmp;      /* the temporary file; NULL when written through */
	int fd;         /* open on tmp, holding an flock: -1 when none */
	mode_t mode;
	int through;
};

/* Check `path` and create the temporary file; -1 with an error printed.
 * Also removes temporary files beside it that a killed run left. */
int profile_output_open(struct profile_output *out, const char *path);
/* Write the profile and put it in place. When that fails the data is
 * kept (the temporary file, or a file in $TMPDIR) and named on stderr;
 * returns -1 then, 0 when the profile is at out->path. Frees `out`. */
int profile_output_commit(struct profile_output *out, const struct profile *p);
/* Give up: remove the temporary file, free `out`. */
void profile_output_abort(struct profile_output *out);

/* The profile as the JSON document written to disk; NULL when out of
 * memory. */
json_t *profile_to_json(const struct profile *p);
/* Write the document and a final newline to fd, streamed; -1 with errno
 * set when a write fails. */
int profile_json_write(json_t *doc, int fd);

#endif
