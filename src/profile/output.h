/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_OUTPUT_H
#define PERPKT_PROFILE_OUTPUT_H

#include <jansson.h>
#include <sys/types.h>

#include "profile/profile.h"
#include "profile/rundir.h"
#include "profile/stack-nodes.h"

/*
 * Where `record -o` writes, checked before the measurement so a long run
 * is never thrown away for a bad path, and safe for root to use in a
 * directory others can write to.
 *
 * The path is walked one component at a time, each directory held open,
 * so nothing can be swapped in between the check and the write. A
 * symlink is followed to its target, except one owned by another user
 * in a sticky, world-writable directory such as /tmp (the rule of
 * fs.protected_symlinks, applied whatever the sysctl says), and no file
 * is ever created through a symlink whose target does not exist.
 *
 * A file or FIFO another user owns, or a FIFO another user may open to
 * read, is refused, at open and again at commit (the rule of
 * fs.protected_regular and protected_fifos, wherever it is), unless
 * PROFILE_OUTPUT_FORCE.
 *
 * A regular file (or a new one) is replaced atomically: a temporary file
 * beside it, created at open, is renamed over it at commit, with the
 * replaced file's owner, group and mode. A character device or FIFO
 * (/dev/null, a named pipe) is written through, never replaced; a FIFO's
 * reader is waited for a while, not for ever. "-" is standard output,
 * written through the descriptor it is (appending when it was opened to
 * append, a pipe as a pipe), never reopened. New files get 0600 less
 * the umask when the profile holds kernel addresses (every recorded
 * one), else 0666 less the umask.
 */
struct profile_output {
	char *path;     /* as given, for messages */
	char *where;    /* the file written, as walked (symlinks followed) */
	char *tmp;      /* the temporary file's name in dirfd; NULL when
			 * written through */
	int dirfd;      /* the directory of `where`; -1 for "-" */
	char *name;     /* the name of `where` in dirfd */
	int fd;         /* open on tmp, holding an flock: -1 when none */
	mode_t mode;
	int through;    /* a device or FIFO, written in place */
	int force;      /* PROFILE_OUTPUT_FORCE */
	int std;        /* "-": standard output */
	dev_t dev;      /* the device or FIFO checked at open */
	ino_t ino;
	char reg[RUNDIR_FILE_LEN];  /* this run's entry in the run directory, or "" */
};

/* Write into another user's file or FIFO all the same (--force-output). */
#define PROFILE_OUTPUT_FORCE 1u

/* Check `path` and create the temporary file; -1 with an error printed.
 * Also removes the temporary files that killed runs left, whatever
 * their -o was: beside it, and those the run directory names. */
int profile_output_open(struct profile_output *out, const char *path,
			unsigned flags);
/* perpkt restore: remove the temporary files that killed runs named in
 * the run directory; how many. */
int profile_output_remove_stale(void);
/* Write the profile and put it in place. When that fails the data is
 * kept (the temporary file, or a file in $TMPDIR) and named on stderr;
 * returns -1 then, 0 when the profile is at out->path. Frees `out`. */
int profile_output_commit(struct profile_output *out, const struct profile *p);
/* Give up: remove the temporary file, free `out`. */
void profile_output_abort(struct profile_output *out);

/* The profile as the JSON document written to disk; NULL when out of
 * memory. */
json_t *profile_to_json(const struct profile *p);

/* The same document on its way to a file: its head built, its long
 * arrays (samples, stacks, stack_nodes) made an element at a time as
 * they are checked and written, so the whole never is in memory. */
struct profile_doc {
	const struct profile *p;
	json_t *head;
	struct stack_tree tree;
};
int profile_doc_init(struct profile_doc *d, const struct profile *p);
void profile_doc_free(struct profile_doc *d);
/* profile_json_check() of the whole document. */
int profile_doc_check(const struct profile_doc *d, const char *what);
/* Write the document and a final newline to fd, streamed; -1 with errno
 * set when a write fails. */
int profile_doc_write(const struct profile_doc *d, int fd);

#endif
