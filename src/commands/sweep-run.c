// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt sweep: recording the cells, one at a time or --jobs N at once.
 * Each file of a cell is this binary run as `perpkt record` into
 * NAME.partial.json, renamed to NAME.json only when record finished it,
 * so an interrupted cell never looks complete. A cell whose record fails
 * (or is killed) is noted in NAME.failed and the sweep goes on; the next
 * sweep tries it again.
 *
 * Several at once only where that does not change what they measure:
 * exact cells on QEMU's instruction clock count the same instructions
 * whatever runs beside them (lab/run.c); sampled cells sample every CPU
 * of the host, so two at once would measure each other (cmd_sweep runs
 * them one at a time and says so).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands/sweep.h"
#include "error.h"
#include "exitcode.h"

static volatile sig_atomic_t interrupted;
/* the records running, one slot each */
static volatile pid_t children[SWEEP_MAX_JOBS];

static void on_signal(int sig)
{
	size_t i;

	interrupted = 1;
	/* a child may not be in our terminal's group: pass it on */
	for (i = 0; i < SWEEP_MAX_JOBS; i++)
		if (children[i] > 0)
			kill(children[i], sig);
}

/* Start record for one file of a cell into out: its pid, or -1. */
static pid_t start_record(const struct sweep *s, const size_t *idx,
			  const char *out)
{
	char *argv[SWEEP_MAX_ARGS];
	pid_t pid;

	sweep_record_argv(s, idx, out, argv);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error("cannot start record: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* record's exit code from its wait status, or -1 with how it ended in
 * why (a signal). */
static int record_status(int status, char *why, size_t whylen)
{
	if (WIFEXITED(status)) {
		snprintf(why, whylen, "record exited %d", WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "record was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "record stopped (status 0x%x)", status);
	return -1;
}

/* One file of a cell as its record ended: 0 done, -1 failed (why said
 * and in why). part and final: its paths while recorded and done. */
static int finish_file(const char *name, const char *part, const char *final,
		       int status, char *why, size_t whylen)
{
	int rc = record_status(status, why, whylen);

	if (rc == PERPKT_EXIT_PARTIAL)
		warning("cell %s: record reported lost samples; kept", name);
	else if (rc != PERPKT_EXIT_OK) {
		unlink(part);
		return error("cell %s: %s; going on with the next cell", name, why);
	}
	if (rename(part, final)) {
		snprintf(why, whylen, "cannot rename '%.60s' to '%.60s': %s",
			 part, final, strerror(errno));
		return error("%s", why);
	}
	return 0;
}

/* NAME.failed: why the cell has no profile, for the next sweep to see
 * (it tries the cell again) and for the person reading DIR. */
static void note_failed(const struct sweep *s, const char *name, const char *why)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.failed", s->dir, name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", why) < 0 || fclose(f)) {
		if (f)
			fclose(f);
		warning("cannot note the failure in '%s': %s", path, strerror(errno));
	}
}

static void forget_failed(const struct sweep *s, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.failed", s->dir, name);
	unlink(path);
}

/* A file to record: its cell and its number in the cell. */
struct file_job {
	size_t cell, file;
};

/* What one record is about to make: said before it starts. */
static void announce(const struct sweep *s, const struct sweep_cells *c,
		     size_t cell)
{
	/* record --repeat N makes N windows of -d seconds in one file */
	if (s->record_repeat && s->repeat > 1)
		info("sweep %zu/%zu %s: recording %u windows of %s s (%g s of windows, warm-up aside)",
		     cell + 1, c->n, c->names[cell], s->repeat, s->duration,
		     s->repeat * strtod(s->duration, NULL));
	else
		info("sweep %zu/%zu %s: recording one window of %s s",
		     cell + 1, c->n, c->names[cell], s->duration);
}

static void fail_cell(const struct sweep *s, struct sweep_cells *c, size_t cell)
{
	note_failed(s, c->names[cell], c->why[cell]);
	c->failed[cell] = 1;
	c->nfailed++;
}

/* The files not yet in s->dir, in the matrix's order ("kept" said for
 * the others; a profile the plan in s->dir did not make fails its
 * cell); their number, or -1. */
static ssize_t files_to_record(const struct sweep *s, struct sweep_cells *c,
			       struct file_job **out)
{
	struct file_job *todo = calloc(c->n * c->files, sizeof(*todo));
	size_t cell, f, n = 0;
	char path[4096], host[256];
	int r;

	if (!todo)
		return error("out of memory");
	for (cell = 0; cell < c->n; cell++)
		for (f = 0; f < c->files && !c->failed[cell]; f++) {
			int k = sweep_file_k(c, f);

			sweep_cell_path(path, sizeof(path), s, c->names[cell], k, 0);
			if (!sweep_profile_readable(path)) {
				todo[n++] = (struct file_job){ cell, f };
				continue;
			}
			r = sweep_plan_check(s, c, cell, k, host, sizeof(host));
			if (r < 0) {
				c->failed[cell] = 1;
				c->nfailed++;
				c->nrefused++;
				continue;
			}
			info("sweep %zu/%zu %s%s: kept (%s%s)", cell + 1, c->n,
			     c->names[cell],
			     c->files > 1 ? path + strlen(path) - 8 : "",
			     r ? "already recorded" : "recorded from the plan on ",
			     r ? "" : host);
		}
	*out = todo;
	return (ssize_t)n;
}

/* The slot of a record that ended, or -1 for another child. */
static int slot_of(pid_t pid)
{
	int i;

	for (i = 0; i < SWEEP_MAX_JOBS; i++)
		if (children[i] == pid)
			return i;
	return -1;
}

/* Start the next file whose cell has not failed, into a free slot. */
static void start_next(const struct sweep *s, struct sweep_cells *c,
		       const struct file_job *j, struct file_job *slots)
{
	char part[4096];
	pid_t pid;
	int slot = slot_of(0);

	announce(s, c, j->cell);
	sweep_cell_path(part, sizeof(part), s, c->names[j->cell],
			sweep_file_k(c, j->file), 1);
	unlink(part);
	pid = start_record(s, c->idx[j->cell], part);
	if (pid < 0) {
		snprintf(c->why[j->cell], sizeof(c->why[j->cell]),
			 "cannot start record: %s", strerror(errno));
		fail_cell(s, c, j->cell);
		return;
	}
	slots[slot] = *j;
	children[slot] = pid;
	/* a signal between fork and the line above missed it */
	if (interrupted)
		kill(pid, SIGTERM);
}

/* A record ended: its file renamed into place, or its cell failed. */
static void end_file(const struct sweep *s, struct sweep_cells *c,
		     const struct file_job *j, int status, size_t *done,
		     size_t total)
{
	char part[4096], final[4096];
	int k = sweep_file_k(c, j->file);

	sweep_cell_path(part, sizeof(part), s, c->names[j->cell], k, 1);
	sweep_cell_path(final, sizeof(final), s, c->names[j->cell], k, 0);
	if (interrupted) {
		/* record may have saved what it had: not a finished cell */
		unlink(part);
		return;
	}
	if (finish_file(c->names[j->cell], part, final, status,
			c->why[j->cell], sizeof(c->why[j->cell]))) {
		fail_cell(s, c, j->cell);
		return;
	}
	++*done;
	if (s->jobs > 1)
		info("sweep %zu/%zu %s: recorded (%zu of %zu files to record)",
		     j->cell + 1, c->n, c->names[j->cell], *done, total);
}

int sweep_run(const struct sweep *s, struct sweep_cells *c)
{
	struct sigaction sa, old_int, old_term;
	struct file_job *todo = NULL, slots[SWEEP_MAX_JOBS];
	size_t next = 0, running = 0, done = 0, cell, ndone;
	ssize_t n = files_to_record(s, c, &todo);
	int status, slot;
	pid_t pid;

	if (n < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		while (!interrupted && running < s->jobs && next < (size_t)n) {
			const struct file_job *j = &todo[next++];

			/* a file of it failed: the cell has no profile */
			if (c->failed[j->cell])
				continue;
			start_next(s, c, j, slots);
			running += !c->failed[j->cell];
		}
		if (!running)
			break;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			error("cannot wait for record: %s", strerror(errno));
			break;
		}
		slot = slot_of(pid);
		if (slot < 0)
			continue;
		children[slot] = 0;
		running--;
		end_file(s, c, &slots[slot], status, &done, (size_t)n);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(todo);
	if (interrupted) {
		for (cell = 0, ndone = 0; cell < c->n; cell++) {
			char path[4096];
			size_t f;
			int whole = 1;

			for (f = 0; f < c->files && whole; f++) {
				sweep_cell_path(path, sizeof(path), s, c->names[cell],
						sweep_file_k(c, f), 0);
				whole = !access(path, F_OK);
			}
			ndone += whole;
		}
		info("sweep interrupted: %zu of %zu cells done; run the same command again to finish",
		     ndone, c->n);
		return 1;
	}
	for (cell = 0; cell < c->n; cell++)
		if (!c->failed[cell])
			forget_failed(s, c->names[cell]);
	return 0;
}
