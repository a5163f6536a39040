// SPDX-License-Identifier: GPL-2.0-only
/*
 * record/stat with a workload of one's own: `-- CMD ARGS` or `-p PID`.
 * perpkt opens the window itself (one ENABLE per CPU) and reads the
 * --per counter just before it and just after the DISABLE, so the
 * units counted are those of the window the samples come from. The same
 * counter is read over a short quiet stretch before CMD starts and after
 * it ends: traffic that is not the workload's, told apart.
 */
#include "record/record.h"
#include "record/internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "system/conditions.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "system/procstat.h"
#include "profile/profile.h"
#include "profile/output.h"
#include "counters/sampler.h"
#include "system/sysinfo.h"
#include "system/unit.h"
#include "workload/command.h"

/* The quiet stretch on each side of a started command. */
#define OUTSIDE_NS 250000000ULL

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int owns(void *ctx, pid_t pid)
{
	return command_owns(ctx, pid);
}

/* -a, -C, or the CPUs the workload may run on. */
static int choose_cpus(const struct record_options *o, const struct command *c,
		       int *cpus)
{
	int online[MAX_CPUS], mine[MAX_CPUS];
	int nonline = sysinfo_online_cpus(online, MAX_CPUS), n = 0, nmine, i;

	if (nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	if (o->all_cpus) {
		for (i = 0; i < nonline; i++)
			cpus[i] = online[i];
		return nonline;
	}
	if (o->ncpus) {
		for (i = 0; i < o->ncpus; i++)
			if (!cpu_list_has(online, nonline, o->cpus[i]))
				return error("CPU %d in --cpus is not online "
					     "(see /sys/devices/system/cpu/online)",
					     o->cpus[i]);
		for (i = 0; i < o->ncpus; i++)
			cpus[i] = o->cpus[i];
		return o->ncpus;
	}
	nmine = command_cpus(c, mine, MAX_CPUS);
	if (nmine < 0)
		return -1;
	for (i = 0; i < nmine; i++)
		if (cpu_list_has(online, nonline, mine[i]))
			cpus[n++] = mine[i];
	return n ? n : error("the workload may run on no online CPU: give -C");
}

/* The counter's rate over `ns` of nothing but waiting. */
static int outside(const struct record_options *o, uint64_t ns, uint64_t *count)
{
	uint64_t a, b, t0 = now_ns();

	if (unit_read(&o->per, &a))
		return -1;
	while (!*o->interrupted && now_ns() - t0 < ns)
		usleep(10000);
	if (unit_read(&o->per, &b))
		return -1;
	*count = b - a;
	return 0;
}

static int window_edge(const int *fds, int nfds, unsigned long req)
{
	int i;

	for (i = 0; i < nfds; i++)
		if (ioctl(fds[i], req, PERF_IOC_FLAG_GROUP) < 0)
			return error("cannot %s the counters: %s",
				     req == PERF_EVENT_IOC_ENABLE ? "enable" : "disable",
				     strerror(errno));
	return 0;
}

struct window {
	uint64_t open_ns, close_ns;
	int cut;  /* a signal ended it */
	uint64_t units;
	struct procstat before, after;
	struct profile_task t0, t1;
};

/* Open, wait for the command's end, -d or a signal, close. A command
 * still held (no warm-up) is let go just after the open, so its first
 * packet is inside. */
static int run_window(const struct record_options *o, struct command *c,
		      struct sampler *s, struct window *w, int release)
{
	const int *fds;
	int nfds = sampler_fds(s, &fds), limited = o->duration_set || !o->command;
	uint64_t u0 = 0, u1 = 0, limit = (uint64_t)(o->duration * 1e9);

	if (procstat_take(&w->before, 0, 0) || command_times(c, &w->t0))
		return -1;
	if (unit_is_counter(&o->per) && unit_read(&o->per, &u0))
		return -1;
	if (window_edge(fds, nfds, PERF_EVENT_IOC_ENABLE))
		return -1;
	w->open_ns = now_ns();
	if (release && command_release(c))
		return -1;
	while (!*o->interrupted && command_running(c) &&
	       (!limited || now_ns() - w->open_ns < limit)) {
		struct pollfd pf = { .fd = command_exit_fd(c), .events = POLLIN };

		/* wake at the command's exit; drain the rings meanwhile */
		poll(&pf, pf.fd >= 0 ? 1 : 0, 10);
		sampler_drain(s);
	}
	w->cut = *o->interrupted != 0;
	if (window_edge(fds, nfds, PERF_EVENT_IOC_DISABLE))
		return -1;
	if (unit_is_counter(&o->per) && unit_read(&o->per, &u1))
		return -1;
	w->close_ns = now_ns();
	command_running(c);  /* reaps it if it ended: rusage */
	if (command_times(c, &w->t1) || procstat_take(&w->after, 0, 0))
		return -1;
	sampler_drain(s);
	w->units = o->per.kind == UNIT_COUNT ? o->per.fixed : u1 - u0;
	return 0;
}

static void task_delta(const struct window *w, struct profile *p)
{
	struct profile_task *t = calloc(1, sizeof(*t));

	if (!t)
		return;
	*t = w->t1;
	t->cpu_ns = w->t1.cpu_ns > w->t0.cpu_ns ? w->t1.cpu_ns - w->t0.cpu_ns : 0;
	t->wait_ns = w->t1.wait_ns > w->t0.wait_ns ? w->t1.wait_ns - w->t0.wait_ns : 0;
	t->user_ns = w->t1.user_ns > w->t0.user_ns ? w->t1.user_ns - w->t0.user_ns : 0;
	t->system_ns = w->t1.system_ns > w->t0.system_ns ?
		       w->t1.system_ns - w->t0.system_ns : 0;
	t->switches = w->t1.switches > w->t0.switches ?
		      w->t1.switches - w->t0.switches : 0;
	free(p->tasks);
	p->tasks = t;
	p->ntasks = 1;
}

static char *join_words(char *const *v, const char *sep)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; v[i]; i++)
		len += strlen(v[i]) + strlen(sep);
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; v[i]; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, v[i]);
	}
	return s;
}

static char *workload_text(const struct record_options *o)
{
	char *s = NULL;
	int i;

	if (o->command)
		return join_words(o->command, " ");
	for (i = 0; i < o->nattach; i++) {
		char *t;

		if (asprintf(&t, "%s%s%d", s ? s : "-p ", s ? "," : "",
			     o->attach[i]) < 0) {
			free(s);
			return NULL;
		}
		free(s);
		s = t;
	}
	return s;
}

static int fill(struct profile *p, const struct record_options *o,
		const int *cpus, int ncpus, const struct window *w,
		uint64_t outside_count, uint64_t outside_ns)
{
	struct profile_repeat *rp;
	size_t e;

	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt " PERPKT_VERSION);
	p->command = record_command_line(o->argc, o->argv);
	p->workload_command = workload_text(o);
	p->transport = strdup("command");
	p->network = strdup("host");
	p->client_cpu = p->server_cpu = -1;
	p->warmup_s = o->warmup;
	p->round_trips = w->units;
	p->window_ns = w->close_ns - w->open_ns;
	if (record_fill_unit(p, &o->per))
		return -1;
	p->unit.outside = outside_count;
	p->unit.outside_ns = outside_ns;
	p->unit.outside_busy = !o->command;
	p->cpus = malloc(sizeof(int) * (size_t)ncpus);
	if (!p->cpus || !p->tool_version || !p->transport || !p->network)
		return error("out of memory");
	memcpy(p->cpus, cpus, sizeof(int) * (size_t)ncpus);
	p->ncpus_sampled = (size_t)ncpus;
	/* one window: its figures are the profile's */
	p->repeats = calloc(1, sizeof(*p->repeats));
	if (!p->repeats || !(p->repeats->counts = calloc(p->nevents ? p->nevents : 1,
							 sizeof(uint64_t))))
		return error("out of memory");
	rp = p->repeats;
	p->nrepeats = 1;
	rp->round_trips = p->round_trips;
	rp->window_ns = p->window_ns;
	for (e = 0; e < p->nevents; e++)
		rp->counts[e] = p->events[e].count;
	return 0;
}

static void describe(const struct record_options *o, const int *cpus, int ncpus,
		     const struct command *c)
{
	char list[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < ncpus && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d",
					i ? "," : "", cpus[i]);
	info("%s %s (pid %d) on CPU %s, per %s (%s)",
	     o->counting_only ? "counting" : "sampling",
	     o->command ? "command" : "attached processes", (int)command_pid(c),
	     list, o->per.name, o->per.source);
}

int record_run_command(const struct record_options *o, struct profile *keep)
{
	struct event_spec evs[MAX_EVENTS];
	int cpus[MAX_CPUS], ncpus, nev = 0, code = RESULT_FAILURE, hold;
	uint64_t before = 0, after = 0, outside_ns = 0, probe, t0;
	struct command *c = NULL;
	struct sampler *s = NULL;
	struct profile_output output = { .fd = -1 };
	struct window w;
	struct profile p;

	memset(&p, 0, sizeof(p));
	memset(&w, 0, sizeof(w));
	/* an interface or IRQ that is not there fails before anything runs */
	if (unit_is_counter(&o->per) && unit_read(&o->per, &probe))
		return RESULT_FAILURE;
	/* a bad -o must fail now, not after the measurement */
	if (!o->counting_only && profile_output_open(&output, o->output))
		return RESULT_FAILURE;
	if (o->command ? command_start(&c, o->command) :
	    command_attach(&c, o->attach, o->nattach))
		return RESULT_FAILURE;
	ncpus = choose_cpus(o, c, cpus);
	if (ncpus <= 0 || record_choose_events(o, cpus[0], evs, &nev, &p) ||
	    record_open_counters(o, cpus, ncpus, evs, nev, &s))
		goto out;
	sampler_set_roles(s, 0, 0, getpid());
	sampler_set_owner(s, owns, c);
	if (!o->quiet)
		describe(o, cpus, ncpus, c);
	/* a started command is still held: the counter is quiet of it */
	if (unit_is_counter(&o->per) && o->command) {
		if (outside(o, OUTSIDE_NS, &before))
			goto out;
		outside_ns += OUTSIDE_NS;
	}
	hold = o->command && o->warmup <= 0;
	if (o->command && !hold && command_release(c))
		goto out;
	t0 = now_ns();
	while (!*o->interrupted && command_running(c) &&
	       now_ns() - t0 < (uint64_t)(o->warmup * 1e9))
		usleep(10000);
	if (*o->interrupted) {
		error("interrupted during warm-up: nothing measured");
		goto out;
	}
	if (!command_running(c)) {
		error("the command %s during the warm-up: nothing measured",
		      command_status(c));
		goto out;
	}
	if (run_window(o, c, s, &w, hold))
		goto out;
	if (o->command) {
		if (!command_running(c) && command_failed(c))
			warning("the command %s", command_status(c));
		if (command_running(c) && !o->quiet)
			info("the window is closed: stopping the command");
		command_stop(c);
		c = NULL;
	}
	if (unit_is_counter(&o->per)) {
		uint64_t n = 0;

		/* -p: the processes run on, and their traffic counts here */
		if (outside(o, OUTSIDE_NS, &n))
			goto out;
		after = n;
		outside_ns += OUTSIDE_NS;
	}
	sysinfo_fill(&p);
	conditions_capture(&p, -1, -1, 0);
	if (procstat_delta(&w.before, &w.after, cpus, ncpus, &p) ||
	    record_fill_counters(&p, evs, nev, s, cpus, ncpus) ||
	    fill(&p, o, cpus, ncpus, &w, before + after, outside_ns))
		goto out;
	task_delta(&w, &p);
	p.tasks[0].cpu = -1;
	p.mode = strdup(evs[0].software_clock ? "software-clock" : "hardware");
	if (p.window_ns && p.unit.outside_ns && !o->quiet) {
		double expect = (double)p.unit.outside * (double)p.window_ns /
				(double)p.unit.outside_ns;

		info("%s outside the window: %.0f/s%s, about %.0f of the %llu "
		     "counted inside", o->per.name,
		     (double)p.unit.outside * 1e9 / (double)p.unit.outside_ns,
		     p.unit.outside_busy ? " (the workload running)" : "",
		     expect, (unsigned long long)p.round_trips);
	}
	code = record_finish(o, &p, s, &output, w.cut);
	if (!p.round_trips && code == RESULT_OK) {
		warning("no %ss were counted in the window (%s): nothing to "
			"divide by", o->per.name, o->per.source);
		code = RESULT_PARTIAL;
	}
out:
	if (keep && code != RESULT_FAILURE) {
		*keep = p;
		memset(&p, 0, sizeof(p));
	}
	profile_output_abort(&output);
	command_stop(c);
	sampler_close(s);
	procstat_free(&w.before);
	procstat_free(&w.after);
	profile_free(&p);
	return code;
}
