// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measurement windows: counters on, the workload's units counted
 * inside, counters off, /proc snapshots at both edges; --repeat N of
 * them, same set-up, fresh counts for each. Samples carry their
 * window's index; `total` figures are the sums.
 */
#include "record/window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "record/internal.h"
#include "record/window-fifo.h"
#include "profile/turns.h"
#include "workload/saved-state.h"

double record_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The traffic runs, counters off, for secs seconds: the warm-up (-w)
 * before the first window, --between before each other one. 0, or 1
 * with why set: a signal (why ""), or the workload ended. */
static int counters_off(struct record_workload *w, double secs,
			const char *what, char *why, size_t len)
{
	double t0 = record_now();

	why[0] = 0;
	/* -v: where the run is, for a script that acts in the window */
	if (diag_verbosity() >= DIAG_VERBOSE)
		info("%s: %g s, the workload running, counters off", what, secs);
	while (!*w->interrupted && record_now() - t0 < secs &&
	       !(w->ops->ended && w->ops->ended(w, why, len)))
		usleep(10000);
	if (*w->interrupted)
		return 1;
	return w->ops->ended && (why[0] || w->ops->ended(w, why, len));
}

static int warm_up(struct record_workload *w)
{
	char why[300];

	w->t_start = record_now();
	if (!counters_off(w, w->window->warmup, "warm-up", why, sizeof(why)))
		return 0;
	if (!why[0])
		return error("interrupted during warm-up: nothing measured");
	return error("%s during the warm-up: nothing measured", why);
}

/* Traffic with the counters off before window r > 0: --restart's
 * warm-up, --between's gap. 1 when the run ends there, the windows
 * before it kept (a signal, or a workload that failed). */
static int gap(struct record_workload *w, int r, double secs,
	       const char *what, int *cut)
{
	char why[200];

	if (!counters_off(w, secs, what, why, sizeof(why)))
		return 0;
	if (!why[0]) {
		*cut = 1;
		return 1;
	}
	w->partial = 1;
	snprintf(w->error, sizeof(w->error), "%s during the %s", why, what);
	partial("%s: the %d window%s before it kept", w->error, r,
		r == 1 ? "" : "s");
	return 1;
}

/* sh -c cmd, waited for (30 s at most): 0, or -1 after printing. */
static int run_setting(const char *opt, const char *cmd)
{
	double t0 = record_now();
	int status;
	pid_t pid = fork(), r;

	if (pid < 0)
		return error("cannot run %s '%s': %m", opt, cmd);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 && record_now() - t0 < 30)
		usleep(1000);
	if (r == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return error("%s '%s' ran for 30 s: it must switch the setting "
			     "and end", opt, cmd);
	}
	if (r < 0)
		return error("cannot wait for %s '%s': %m", opt, cmd);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error("%s '%s' failed (%s %d): the setting may be half "
			     "switched", opt, cmd, WIFEXITED(status) ? "exit status" :
			     "signal", WIFEXITED(status) ? WEXITSTATUS(status) :
			     WTERMSIG(status));
	return 0;
}

/* By turns: the setting switched on or off, w->setting_on kept. */
static int record_turn(struct record_workload *w, int on)
{
	const struct window_request *win = w->window;

	if (!win->turn_on)
		return 0;
	/* switching counts as on until the off command has succeeded */
	w->setting_on = 1;
	if (on)
		return run_setting("--turn-on", win->turn_on);
	if (run_setting("--turn-off", win->turn_off))
		return -1;
	w->setting_on = 0;
	return 0;
}

/* Before window r > 0: --restart, the setting's turn, then --between. */
static int between(struct record_workload *w, int r, int *cut)
{
	char what[64];

	if (r == 0)
		return 0;
	if (record_turn(w, r % 2)) {
		w->partial = 1;
		snprintf(w->error, sizeof(w->error),
			 "the setting did not switch before window %d", r + 1);
		partial("%s: the %d window%s before it kept", w->error, r,
			r == 1 ? "" : "s");
		return 1;
	}
	if (w->window->restart && w->ops->restart) {
		if (w->ops->restart(w)) {
			w->partial = 1;
			snprintf(w->error, sizeof(w->error),
				 "the workload did not start again before window %d",
				 r + 1);
			partial("%s: the %d window%s before it kept", w->error, r,
				r == 1 ? "" : "s");
			return 1;
		}
		snprintf(what, sizeof(what), "warm-up after the restart before window %d",
			 r + 1);
		if (gap(w, r, w->window->restart_warmup, what, cut))
			return 1;
	}
	if (w->window->between <= 0)
		return 0;
	snprintf(what, sizeof(what), "gap before window %d", r + 1);
	return gap(w, r, w->window->between, what, cut);
}

/* Whether a progress line is wanted: a terminal, a long enough run. */
static int show_progress(const struct record_workload *w, double elapsed)
{
	const struct window_request *win = w->window;

	return w->progress && !w->quiet && isatty(STDERR_FILENO) &&
	       (win->count ? elapsed >= 2 : win->duration >= 2);
}

static void progress(const struct record_workload *w, uint64_t so_far,
		     double elapsed)
{
	const struct window_request *win = w->window;

	if (!show_progress(w, elapsed))
		return;
	if (win->count)
		fprintf(stderr, "\rperpkt: recording %llu/%llu %ss, %.0f s ",
			(unsigned long long)so_far, (unsigned long long)win->count,
			w->unit, elapsed);
	else
		fprintf(stderr, "\rperpkt: recording %.0f/%.0f s, %llu %ss ",
			elapsed, win->duration, (unsigned long long)so_far, w->unit);
}

/* The /proc snapshot at a window's edge, of every flow's processes. */
static int take(const struct record_workload *w, struct procstat *ps)
{
	if (w->clients && w->npids > 0)
		return procstat_take_flows(ps, w->clients, w->responders,
					   w->npids);
	return procstat_take(ps, w->client, w->responder);
}

/* One window: open, drain the rings until the workload, the length or
 * a signal ends it, close; --window-fifo's tool told just outside,
 * --gap-fifo's of the gaps (fifo[1]) between the windows. */
static int run_window(struct record_workload *w, struct sampler *s,
		      struct window_fifo fifo[2], struct procstat *a,
		      struct procstat *b, struct profile_repeat *rp, int r,
		      int *cut)
{
	int nrep = w->window->repeat > 0 ? w->window->repeat : 1;
	uint64_t so_far = 0;
	double t0, elapsed;

	/* the gap's latency ends before the edges, as --gap-fifo's tool
	 * is told to stop sampling; the snapshots outside the window:
	 * perpkt reading /proc is not the workload (exact mode counts
	 * every instruction in it) */
	if (w->ops->gap)
		w->ops->gap(w, 0);
	if ((r > 0 && window_fifo_edge(&fifo[1], "disable")) || take(w, a) ||
	    window_fifo_edge(&fifo[0], "enable") || w->ops->open(w))
		return -1;
	t0 = record_now();
	if (diag_verbosity() >= DIAG_VERBOSE)
		info("window %d of %d open", r + 1,
		     w->window->repeat > 0 ? w->window->repeat : 1);
	for (;;) {
		double left_ms = 100;

		elapsed = record_now() - t0;
		if (*w->interrupted || !w->ops->running(w, &so_far))
			break;
		if (w->limit_ns) {
			left_ms = ((double)w->limit_ns * 1e-9 - elapsed) * 1000;
			if (left_ms <= 0)
				break;
		}
		/* wake at the workload's end; drain the rings meanwhile */
		if (sampler_poll(s, w->wake_fd, left_ms < 100 ? (int)left_ms + 1 : 100))
			break;
		progress(w, so_far, record_now() - t0);
	}
	*cut = *w->interrupted != 0;
	if (show_progress(w, record_now() - t0))
		fputc('\n', stderr);
	/* a responder that died mid-run leaves a partial, labelled result */
	if ((w->ops->close(w, rp) && !rp->partial) ||
	    window_fifo_edge(&fifo[0], "disable") || take(w, b) ||
	    (r + 1 < nrep && window_fifo_edge(&fifo[1], "enable")))
		return -1;
	/* and the next gap's begins after them, --gap-fifo's tool sampling */
	if (w->ops->gap)
		w->ops->gap(w, 1);
	/* every sample of this window is read before the next one starts */
	sampler_drain(s);
	return 0;
}

/* How much of the asked window was measured, for one cut short. */
static double fraction(const struct record_workload *w,
		       const struct profile_repeat *rp)
{
	const struct window_request *win = w->window;
	double f;

	if (!rp->partial)
		return 1;
	if (win->count)
		f = (double)rp->round_trips / (double)win->count;
	else if (w->limit_ns)
		f = (double)rp->window_ns / (double)w->limit_ns;
	else
		return 1;  /* a command's lifetime: no length was asked */
	return f > 1 ? 1 : f;
}

int record_windows(struct record_workload *w, const struct record_plan *plan,
		   struct sampler *s, struct profile *p, struct procstat *first,
		   struct procstat *last, int *cut_short)
{
	size_t ncounts = (size_t)(plan->nev * plan->ncpus);
	struct sampler_count *prev = calloc(ncounts, sizeof(*prev));
	struct sampler_count *cur = calloc(ncounts, sizeof(*cur));
	int nrep = w->window->repeat > 0 ? w->window->repeat : 1, r, ret = -1;
	struct window_fifo fifo[2] = { { .ctl = -1, .ack = -1 },
				       { .ctl = -1, .ack = -1 } };

	p->repeats = calloc((size_t)nrep, sizeof(*p->repeats));
	if (!prev || !cur || !p->repeats) {
		error("out of memory");
		goto out;
	}
	if ((w->window->fifo &&
	     window_fifo_open(&fifo[0], w->window->fifo, "--window-fifo",
			      w->window->fifo_timeout)) ||
	    (w->window->gap_fifo &&
	     window_fifo_open(&fifo[1], w->window->gap_fifo, "--gap-fifo",
			      w->window->fifo_timeout)) ||
	    (w->window->turn_on &&
	     (sampler_set_by_turns(s), saved_state_record_turn_off(w->window->turn_off))) ||
	    record_turn(w, 0) || warm_up(w))
		goto out;
	for (r = 0; r < nrep && !*w->interrupted && !w->partial; r++) {
		struct profile_repeat *rp = &p->repeats[r];
		struct procstat a, b;
		int cut = 0;

		if (between(w, r, cut_short))
			break;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sampler_set_repeat(s, r);
		rp->counts = calloc((size_t)plan->nev, sizeof(uint64_t));
		if (!rp->counts) {
			error("out of memory");
			goto out;
		}
		p->nrepeats = (size_t)r + 1;
		if (run_window(w, s, fifo, &a, &b, rp, r, &cut) ||
		    sampler_read(s, cur)) {
			procstat_free(&a);
			procstat_free(&b);
			goto out;
		}
		w->partial |= rp->partial;
		rp->partial |= cut;
		rp->fraction = fraction(w, rp);
		*cut_short |= cut;
		if (!rp->cpu_at_edges) {
			rp->client_cpu_ns = procstat_task_cpu(&a, &b, ROLE_CLIENT);
			rp->responder_cpu_ns = procstat_task_cpu(&a, &b, ROLE_RESPONDER);
			rp->snapshot_ns = procstat_span(&a, &b);
		}
		/* restarted: each window's processes are their own, so the
		 * tasks' times are the windows' added up */
		if (w->window->restart && w->ops->restart &&
		    procstat_tasks_add(&a, &b, p)) {
			procstat_free(&a);
			procstat_free(&b);
			goto out;
		}
		record_window_counts(plan->evs, plan->nev, plan->ncpus, prev, cur,
				     rp->counts);
		memcpy(prev, cur, ncounts * sizeof(*cur));
		p->round_trips += rp->round_trips;
		p->window_ns += rp->window_ns;
		w->units = p->round_trips;
		if (r == 0)
			*first = a;
		else
			procstat_free(&a);
		procstat_free(last);
		*last = b;
		if (nrep > 1 && !w->quiet)
			info("window %d of %d: %llu %ss, p50 %.1f us", r + 1,
			     nrep, (unsigned long long)rp->round_trips, w->unit,
			     (double)rp->latency.p50 / 1000);
	}
	w->t_end = record_now();
	ret = 0;
	if (w->window->turn_on) {
		char turns[600];

		snprintf(turns, sizeof(turns), "off: %s; on: %s",
			 w->window->turn_off, w->window->turn_on);
		if (profile_add_condition(p, PROFILE_COND_TURNS, turns))
			ret = -1;
	}
out:
	/* by turns: the setting is left off, however the run ends */
	if (w->setting_on && record_turn(w, 0))
		ret = error("the setting may still be on: the next perpkt run "
			    "here, or 'perpkt restore', runs --turn-off again");
	else if (w->window->turn_on)
		saved_state_forget_turn_off();
	window_fifo_close(&fifo[0]);
	window_fifo_close(&fifo[1]);
	free(prev);
	free(cur);
	return ret;
}

void record_tasks_at_edges(struct profile *p)
{
	uint64_t cpu[2] = { 0, 0 }, win = 0;
	size_t k, t;

	if (!p->nrepeats)
		return;
	for (k = 0; k < p->nrepeats; k++) {
		const struct profile_repeat *r = &p->repeats[k];

		if (!r->cpu_at_edges)
			return;
		cpu[ROLE_CLIENT] += r->client_cpu_ns;
		cpu[ROLE_RESPONDER] += r->responder_cpu_ns;
		win += r->snapshot_ns;
	}
	for (t = 0; t < p->ntasks; t++) {
		struct profile_task *task = &p->tasks[t];
		double scale = task->span_ns && win ? (double)win / (double)task->span_ns : 1;

		if (task->role != ROLE_CLIENT && task->role != ROLE_RESPONDER)
			continue;
		task->cpu_ns = cpu[task->role];
		task->user_ns = (uint64_t)((double)task->user_ns * scale);
		task->system_ns = (uint64_t)((double)task->system_ns * scale);
		task->wait_ns = (uint64_t)((double)task->wait_ns * scale);
		task->switches = (uint64_t)((double)task->switches * scale + 0.5);
		task->span_ns = win;
	}
}
