// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_run: the pipeline from options to a profile. The workload is
 * chosen here (built-in, a command of one's own, or a guest under QEMU
 * for --kernel); from then on only its interface is used.
 */
#include "record/record.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "exitcode.h"
#include "lab/lab.h"
#include "lab/leftovers.h"
#include "profile/output.h"
#include "record/internal.h"
#include "record/plan.h"
#include "record/window.h"
#include "record/workload-ops.h"
#include "system/conditions.h"
#include "system/procstat.h"
#include "system/sysinfo.h"
#include "workload/command-cgroup.h"

/* How it was sampled, beyond the events' own fields: the callchain
 * depth and --between, which diff compares (issue 49). */
static void recording_conditions(struct profile *p, const struct record_options *o,
				 const struct record_plan *plan)
{
	int depth = record_callchain_depth(&o->sampling, plan->evs, plan->nev);
	char buf[256];

	if (!depth)
		snprintf(buf, sizeof(buf), "none");
	else if (o->sampling.callchain > 0)
		snprintf(buf, sizeof(buf), "%d kernel frames (-g)", depth);
	else
		/* enough to charge a sample at an irq-enable point to its caller */
		snprintf(buf, sizeof(buf), "%d kernel frames (short, without -g)",
			 depth);
	profile_add_condition(p, "record.callchain", buf);
	if (o->window.between > 0)
		snprintf(buf, sizeof(buf), "%g s of traffic with the counters off "
			 "before each window after the first (--between)",
			 o->window.between);
	else
		snprintf(buf, sizeof(buf), "none");
	profile_add_condition(p, "record.between", buf);
}

/* What every profile says of how it was made. */
static int fill(struct profile *p, const struct record_options *o,
		const struct record_plan *plan)
{
	recording_conditions(p, o, plan);
	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt " PERPKT_VERSION);
	p->command = profile_command_line(o->argc, o->argv);
	p->warmup_s = o->window.warmup;
	record_fill_mode(p, plan->evs, plan->nev);
	p->cpus = malloc(sizeof(int) * (size_t)plan->ncpus);
	if (!p->tool_version || !p->command || !p->mode || !p->cpus)
		return error("out of memory");
	memcpy(p->cpus, plan->cpus, sizeof(int) * (size_t)plan->ncpus);
	p->ncpus_sampled = (size_t)plan->ncpus;
	return record_fill_unit(p, &o->own.per);
}

/* Write the profile to out (record; stat's caller renders the counts).
 * Warnings for multiplexing, losses and interruption. cut_short: a
 * signal cut the window (one during the write leaves it complete). */
static int finish(const struct record_options *o, struct profile *p,
		  struct sampler *s, struct profile_output *out, int cut_short)
{
	uint64_t lost = 0, samples = 0;
	int code = RESULT_OK;
	size_t e;

	/* a group the PMU could never schedule counted nothing: no result */
	for (e = 0; e < p->nevents; e++) {
		if (p->events[e].running_ns == 0 && p->events[e].enabled_ns) {
			error("'%s' never ran: too many events for the PMU to "
			      "count together; ask for fewer with -e",
			      p->events[e].name);
			return RESULT_FAILURE;
		}
	}
	if (!o->sampling.counting_only && record_collect(p, s))
		return RESULT_FAILURE;
	if (out && profile_output_commit(out, p))
		return RESULT_FAILURE;
	for (e = 0; e < p->nevents; e++) {
		samples += p->events[e].samples;
		if (p->events[e].running_ns < p->events[e].enabled_ns)
			warning("'%s' was multiplexed (ran %.0f%% of the window): "
				"counts are scaled estimates", p->events[e].name,
				100.0 * (double)p->events[e].running_ns /
				(double)p->events[e].enabled_ns);
		if (profile_event_not_counting(p, e))
			warning("'%s' %s: reported as not counting, not as "
				"zero", p->events[e].name,
				profile_event_not_counting(p, e));
	}
	if (p->nevents)
		lost = p->events[0].lost;
	/* a signal during the write leaves a complete window complete */
	if (cut_short) {
		partial("interrupted: the window was cut short; the result is partial");
		code = RESULT_PARTIAL;
	}
	if (lost) {
		partial("%llu samples lost: raise --ring-pages or the period",
			(unsigned long long)lost);
		code = RESULT_PARTIAL;
	}
	if (!o->quiet) {
		int to_file = strcmp(o->output, "-") != 0;
		char done[160] = "", p50[32] = "";

		if (out)
			snprintf(done, sizeof(done), "; %llu samples; wrote %s%s%s",
				 (unsigned long long)samples, to_file ? "'" : "",
				 to_file ? o->output : "to standard output",
				 to_file ? "'" : "");
		if (p->latency.count)
			snprintf(p50, sizeof(p50), ", p50 %.1f us",
				 (double)p->latency.p50 / 1000);
		info("%llu %ss in %.3f s (%.0f/s%s)%s",
		     (unsigned long long)p->round_trips, profile_unit_name(p),
		     (double)p->window_ns * 1e-9,
		     p->window_ns ? (double)p->round_trips * 1e9 / (double)p->window_ns : 0,
		     p50, done);
	}
	return code;
}

/* The run's result once the profile is made: partial when the workload
 * failed part-way or counted nothing to divide by. */
static int judge(const struct record_options *o, const struct record_workload *w,
		 const struct profile *p, int code)
{
	if (code != RESULT_OK)
		return code;
	if (w->partial) {
		partial("%s: kept the %llu round trips before it", w->error,
			(unsigned long long)p->round_trips);
		return RESULT_PARTIAL;
	}
	if (!p->round_trips) {
		char hint[320] = "";

		if (unit_is_counter(&o->own.per))
			unit_zero_hint(&o->own.per, hint, sizeof(hint));
		partial("no %ss were counted in the window (%s): nothing to "
			"divide by%s%s", o->own.per.name, o->own.per.source,
			*hint ? "; counted " : "", hint);
		return RESULT_PARTIAL;
	}
	return code;
}

static int run(const struct record_options *o, struct record_workload *w,
	       struct profile *keep)
{
	struct record_plan plan;
	struct procstat before, after;
	struct sampler *s = NULL;
	struct profile p;
	struct profile_output out = { .fd = -1 };
	int code = RESULT_FAILURE, cut = 0;

	memset(&p, 0, sizeof(p));
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	if (w->ops->prepare(w))
		goto out;
	/* a bad -o must fail now, not after the measurement */
	if (!keep && profile_output_open(&out, o->output, o->output_flags))
		goto out;
	if (record_plan_make(&plan, &o->cpus, &o->sampling, w, &p) ||
	    record_plan_open(&plan, &s))
		goto out;
	if (!o->quiet)
		w->ops->describe(w, &plan);
	if (w->ops->start(w, &plan, s) ||
	    record_windows(w, &plan, s, &p, &before, &after, &cut) ||
	    w->ops->after(w, &p))
		goto out;
	w->ops->stop(w);  /* before the slow part: symbols and the write */

	sysinfo_fill(&p);
	conditions_capture(&p, w->client_cpu, w->server_cpu, w->message_size,
			   o->builtin.window_marks);
	if (procstat_delta(&before, &after, plan.cpus, plan.ncpus, &p))
		goto out;
	record_tasks_at_edges(&p);
	conditions_steal(&p, w->client_cpu, w->server_cpu);
	if (record_fill_counters(&p, plan.evs, plan.nev, s, plan.cpus, plan.ncpus) ||
	    fill(&p, o, &plan) || w->ops->fill(w, &p))
		goto out;
	code = judge(o, w, &p, finish(o, &p, s, keep ? NULL : &out, cut));
out:
	if (keep && code != RESULT_FAILURE) {
		*keep = p;
		memset(&p, 0, sizeof(p));
	}
	profile_output_abort(&out);
	procstat_free(&before);
	procstat_free(&after);
	w->ops->stop(w);
	sampler_close(s);
	profile_free(&p);
	return code;
}

/* --kernel: the same record run inside a guest (lab/); stat's (out
 * given) counts only there and its profile comes into *out. */
static int in_guest(const struct record_options *o,
		    volatile sig_atomic_t *interrupted, struct profile *out)
{
	const struct window_request *win = &o->window;
	char irq_cpu[16] = "", busy[BUSY_MAX * 4 + 1] = "";
	struct lab_job job;
	size_t n = 0;
	int i, nic = o->builtin.network && !strncmp(o->builtin.network, "nic", 3);

	if (o->builtin.irq_cpu >= 0)
		snprintf(irq_cpu, sizeof(irq_cpu), "%d", o->builtin.irq_cpu);
	/* --net nic: the responder guest's (the client guest is not
	 * given --busy: commands/record-options.c) */
	for (i = 0; nic && i < o->builtin.nbusy && n < sizeof(busy); i++)
		n += (size_t)snprintf(busy + n, sizeof(busy) - n, "%s%d",
				      i ? "," : "", o->builtin.busy_cpus[i]);
	job = (struct lab_job){
		.output = o->output, .output_flags = o->output_flags, .argc = o->argc, .argv = o->argv,
		.run_s = (win->warmup + win->duration) *
			 (o->kernel.exact ? 1 : win->repeat),
		.counted = win->count != 0,
		.veth = o->builtin.network && !strcmp(o->builtin.network, "veth"),
		.nic = !nic ? NULL : o->builtin.network[3] ? o->builtin.network + 4 :
		       "virtio",
		.boots = o->kernel.exact ? win->repeat : 1,
		.rps_cpus = o->builtin.rps_cpus, .irq_cpu = irq_cpu[0] ? irq_cpu : NULL,
		.busy = busy[0] ? busy : NULL,
		.quiet = o->quiet, .interrupted = interrupted, .keep = out,
	};

	return lab_record(&o->kernel, &job);
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

int record_run(const struct record_options *o, struct profile *out)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct record_workload *w;
	int ret = RESULT_FAILURE;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* what killed runs left running or on disk: their guests' files,
	 * their commands' daemons */
	lab_remove_stale();
	command_cgroup_remove_stale();
	if (o->kernel.kernel) {
		ret = in_guest(o, &interrupted, out);
	} else {
		w = o->own.argv || o->own.nattach ?
		    record_workload_command(&o->own, &o->window) :
		    record_workload_builtin(&o->builtin, &o->cpus, &o->window,
					    &o->sampling);
		if (w) {
			w->interrupted = &interrupted;
			w->quiet = o->quiet;
			ret = run(o, w, out);
			w->ops->destroy(w);
		}
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return ret;
}
