// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parent's watch over the workload's forked children: whether one
 * died and how (its own message, its exit status or signal), where each
 * is when a start times out, and signalling and reaping them at the end.
 */
#include "workload/workload-priv.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "error.h"
#include "system/procfile.h"

#define role_word workload_role_word

/* Describe how flow i's child `r` ended, from its own message when it
 * left one; status < 0 when it was reaped elsewhere and the status is
 * unknown. */
static void describe_exit(struct workload *w, int i, enum role r, int status)
{
	const struct flow *f = &w->flows[i];
	const char *msg = f->sh->error[r];
	char fb[96];
	const char *fl = workload_flow_name(w, i, fb, sizeof(fb));

	if (msg[0] && (status < 0 || WIFEXITED(status)))
		snprintf(w->err, sizeof(w->err), "%sworkload %s failed: %.*s",
			 fl, role_word[r], CHILD_ERROR_LEN, msg);
	else if (status < 0)
		snprintf(w->err, sizeof(w->err), "%sworkload %s (pid %d) is gone",
			 fl, role_word[r], (int)f->pid[r]);
	else if (WIFSIGNALED(status))
		snprintf(w->err, sizeof(w->err),
			 "%sworkload %s (pid %d) was killed by signal %d (%s)",
			 fl, role_word[r], (int)f->pid[r], WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(w->err, sizeof(w->err),
			 "%sworkload %s (pid %d) exited with status %d",
			 fl, role_word[r], (int)f->pid[r], WEXITSTATUS(status));
	else
		snprintf(w->err, sizeof(w->err), "%sworkload %s (pid %d) stopped",
			 fl, role_word[r], (int)f->pid[r]);
}

/* -1 (printed) if a child has died; the responder first, since its
 * death is what makes the client fail too. */
int workload_check_children(struct workload *w)
{
	static const enum role order[] = { ROLE_RESPONDER, ROLE_CLIENT };
	int status = 0, k;
	size_t i;
	pid_t ret;

	if (w->failed)
		return error("%s", w->err);
	for (k = 0; k < w->nflows; k++) {
		struct flow *f = &w->flows[k];

		for (i = 0; i < 2; i++) {
			enum role r = order[i];

			if (!f->pid[r] || f->reaped[r])
				continue;
			ret = waitpid(f->pid[r], &status, WNOHANG);
			if (ret == 0 || (ret < 0 && errno == EINTR))
				continue;
			/* ECHILD: someone else reaped it (SIGCHLD ignored) */
			f->reaped[r] = 1;
			if (ret < 0)
				status = -1;
			describe_exit(w, k, r, status);
			w->failed = 1;
			return error("%s", w->err);
		}
	}
	return 0;
}

/* Where each child is, for a start that timed out: its state, the CPU
 * it last ran on and the kernel function it waits in
 * (/proc/PID/stat, /proc/PID/wchan), so the reason can be read off the
 * message ("client pid 12: D on cpu 0 in rwsem_down_write_slowpath"). */
void workload_describe_children(struct workload *w, char *buf, size_t len)
{
	size_t n = 0;
	int i, r;

	buf[0] = '\0';
	for (i = 0; i < w->nflows && n < len; i++)
		for (r = 0; r < 2 && n < len; r++) {
			char path[64], stat[512], wchan[64] = "";
			const char *end;
			char state = '?';
			int cpu = -1, field;

			if (!w->flows[i].pid[r])
				continue;
			snprintf(path, sizeof(path), "/proc/%d/stat", (int)w->flows[i].pid[r]);
			procfile_line(path, stat, sizeof(stat));
			end = strrchr(stat, ')');
			if (end && sscanf(end + 1, " %c", &state) == 1) {
				/* field 39, processor: 37 after the state */
				for (field = 3; field < 39 && (end = strchr(end + 1, ' ')); field++)
					;
				if (end)
					cpu = atoi(end + 1);
			}
			snprintf(path, sizeof(path), "/proc/%d/wchan", (int)w->flows[i].pid[r]);
			procfile_line(path, wchan, sizeof(wchan));
			n += (size_t)snprintf(buf + n, len - n, "%s%s pid %d: %c on cpu %d (wants %d)%s%s",
					      n ? "; " : "", role_word[r], (int)w->flows[i].pid[r],
					      state, cpu, w->flows[i].cpu[r],
					      wchan[0] && strcmp(wchan, "0") ? " in " : "",
					      strcmp(wchan, "0") ? wchan : "");
		}
}

/* Reap whatever has exited; 1 when no child is left. */
int workload_reap_some(struct workload *w, int flags)
{
	int r, i, left = 0;
	pid_t ret;

	for (i = 0; w->flows && i < w->nflows; i++) {
		struct flow *f = &w->flows[i];

		for (r = 0; r < 2; r++) {
			if (!f->pid[r] || f->reaped[r])
				continue;
			do
				ret = waitpid(f->pid[r], NULL, flags);
			while (ret < 0 && errno == EINTR);
			if (ret == 0)
				left++;
			else
				f->reaped[r] = 1;
		}
	}
	return !left;
}

/* Signal flows' children not yet reaped: a reaped pid may be reused. */
void workload_signal_children(struct workload *w, int sig)
{
	int r, i;

	for (i = 0; w->flows && i < w->nflows; i++)
		for (r = 0; r < 2; r++)
			if (w->flows[i].pid[r] && !w->flows[i].reaped[r])
				kill(w->flows[i].pid[r], sig);
}
