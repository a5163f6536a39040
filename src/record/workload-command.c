// SPDX-License-Identifier: GPL-2.0-only
/*
 * record/stat with a workload of one's own: `-- CMD ARGS` or `-p PID`.
 * perpkt opens the window itself (one ENABLE per CPU) and reads the
 * --per counter just before it and just after the DISABLE, so the
 * units counted are those of the window the samples come from. The same
 * counter is read over a short quiet stretch before CMD starts and after
 * it ends: traffic that is not the workload's, told apart.
 */
#include "record/workload-ops.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "record/internal.h"
#include "record/plan.h"
#include "record/window.h"
#include "system/unit.h"
#include "workload/command.h"

/* The quiet stretch on each side of a started command. */
#define OUTSIDE_S 0.25

struct own {
	struct record_workload base;
	const struct command_request *rq;
	struct command *c;
	struct sampler *s;         /* its counters, enabled at the window */
	int hold;                  /* released at the window's open */
	double open_s;
	uint64_t u0;
	struct profile_task t0, t1;
	uint64_t outside, outside_ns;
};

static struct own *of(struct record_workload *w)
{
	return (struct own *)w;
}

/* The counter's count over `s` seconds of nothing but waiting. */
static int outside(struct own *c, double s)
{
	uint64_t a, b;
	double t0 = record_now();

	if (unit_read(&c->rq->per, &a))
		return -1;
	while (!*c->base.interrupted && record_now() - t0 < s)
		usleep(10000);
	if (unit_read(&c->rq->per, &b))
		return -1;
	c->outside += b - a;
	c->outside_ns += (uint64_t)(s * 1e9);
	return 0;
}

static int prepare(struct record_workload *base)
{
	struct own *c = of(base);
	uint64_t probe;

	/* an interface or IRQ that is not there fails before anything runs */
	if (unit_is_counter(&c->rq->per) && unit_read(&c->rq->per, &probe))
		return -1;
	return c->rq->argv ? command_start(&c->c, c->rq->argv) :
	       command_attach(&c->c, c->rq->attach, c->rq->nattach);
}

static int cpus(struct record_workload *base, int *out, int max)
{
	return command_cpus(of(base)->c, out, max);
}

static void describe(const struct record_workload *base,
		     const struct record_plan *plan)
{
	const struct own *c = (const struct own *)base;
	char list[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < plan->ncpus && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d",
					i ? "," : "", plan->cpus[i]);
	info("%s %s (pid %d) on CPU %s, per %s (%s)",
	     plan->sampling->counting_only ? "counting" : "sampling",
	     c->rq->argv ? "command" : "attached processes",
	     (int)command_pid(c->c), list, c->rq->per.name, c->rq->per.source);
}

static int owns(void *ctx, pid_t pid)
{
	return command_owns(ctx, pid);
}

static int start(struct record_workload *base, const struct record_plan *plan,
		 struct sampler *s)
{
	struct own *c = of(base);

	c->s = s;
	sampler_set_roles(s, 0, 0, getpid());
	sampler_set_owner(s, owns, c->c);
	/* a started command is still held: the counter is quiet of it */
	if (unit_is_counter(&c->rq->per) && c->rq->argv && outside(c, OUTSIDE_S))
		return -1;
	/* no warm-up: let it go at the window's open, so its first
	 * packet is inside */
	c->hold = c->rq->argv && base->window->warmup <= 0;
	if (c->rq->argv && !c->hold && command_release(c->c))
		return -1;
	base->wake_fd = command_exit_fd(c->c);
	return 0;
}

static int ended(struct record_workload *base, char *why, size_t len)
{
	struct own *c = of(base);

	if (command_running(c->c))
		return 0;
	snprintf(why, len, "the command %s", command_status(c->c));
	return 1;
}

static int edge(const struct own *c, int on)
{
	if (sampler_enable(c->s, on))
		return error("cannot %s the counters: %s",
			     on ? "enable" : "disable", strerror(errno));
	return 0;
}

static int open_window(struct record_workload *base)
{
	struct own *c = of(base);

	if (command_times(c->c, &c->t0))
		return -1;
	if (unit_is_counter(&c->rq->per) && unit_read(&c->rq->per, &c->u0))
		return -1;
	if (edge(c, 1))
		return -1;
	c->open_s = record_now();
	if (c->hold && command_release(c->c))
		return -1;
	return 0;
}

static int running(struct record_workload *base, uint64_t *so_far)
{
	*so_far = 0;
	return command_running(of(base)->c);
}

static int close_window(struct record_workload *base, struct profile_repeat *rp)
{
	struct own *c = of(base);
	const struct unit *per = &c->rq->per;
	uint64_t u1 = 0;

	if (edge(c, 0))
		return -1;
	if (unit_is_counter(per) && unit_read(per, &u1))
		return -1;
	rp->window_ns = (uint64_t)((record_now() - c->open_s) * 1e9);
	command_running(c->c);  /* reaps it if it ended: rusage */
	if (command_times(c->c, &c->t1))
		return -1;
	rp->round_trips = per->kind == UNIT_COUNT ? per->fixed : u1 - c->u0;
	return 0;
}

static int after(struct record_workload *base, struct profile *p)
{
	struct own *c = of(base);
	char escaped[1024];

	if (c->rq->argv) {
		if (!command_running(c->c) && command_failed(c->c))
			warning("the command %s", command_status(c->c));
		if (command_running(c->c) && !base->quiet)
			info("the window is closed: stopping the command");
		/* a daemon that outlived the command's group: in the report */
		if (command_end(c->c, escaped, sizeof(escaped)) > 0 &&
		    profile_add_condition(p, "workload.escaped", escaped))
			return error("out of memory");
		command_stop(c->c);
		c->c = NULL;
	}
	/* -p: the processes run on, and their traffic counts here */
	if (unit_is_counter(&c->rq->per) && outside(c, OUTSIDE_S))
		return -1;
	return 0;
}

static void stop(struct record_workload *base)
{
	struct own *c = of(base);

	command_stop(c->c);
	c->c = NULL;
}

static uint64_t since(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* The tree's CPU time over the window: the profile's one task. */
static int task_delta(const struct own *c, struct profile *p)
{
	struct profile_task *t = calloc(1, sizeof(*t));

	if (!t)
		return error("out of memory");
	*t = c->t1;
	t->cpu_ns = since(c->t0.cpu_ns, c->t1.cpu_ns);
	t->wait_ns = since(c->t0.wait_ns, c->t1.wait_ns);
	t->user_ns = since(c->t0.user_ns, c->t1.user_ns);
	t->system_ns = since(c->t0.system_ns, c->t1.system_ns);
	t->switches = since(c->t0.switches, c->t1.switches);
	t->cpu = -1;
	free(p->tasks);
	p->tasks = t;
	p->ntasks = 1;
	return 0;
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

static char *workload_text(const struct command_request *rq)
{
	char *s = NULL;
	int i;

	if (rq->argv)
		return join_words(rq->argv, " ");
	for (i = 0; i < rq->nattach; i++) {
		char *t;

		if (asprintf(&t, "%s%s%d", s ? s : "-p ", s ? "," : "",
			     rq->attach[i]) < 0) {
			free(s);
			return NULL;
		}
		free(s);
		s = t;
	}
	return s;
}

static int fill(struct record_workload *base, struct profile *p)
{
	struct own *c = of(base);

	p->workload_command = workload_text(c->rq);
	p->transport = strdup("command");
	p->network = strdup("host");
	p->client_cpu = p->server_cpu = -1;
	p->unit.outside = c->outside;
	p->unit.outside_ns = c->outside_ns;
	p->unit.outside_busy = !c->rq->argv;
	if (!p->transport || !p->network || task_delta(c, p))
		return error("out of memory");
	if (p->window_ns && p->unit.outside_ns && !base->quiet) {
		double expect = (double)p->unit.outside * (double)p->window_ns /
				(double)p->unit.outside_ns;

		info("%s outside the window: %.0f/s%s, about %.0f of the %llu "
		     "counted inside", c->rq->per.name,
		     (double)p->unit.outside * 1e9 / (double)p->unit.outside_ns,
		     p->unit.outside_busy ? " (the workload running)" : "",
		     expect, (unsigned long long)p->round_trips);
	}
	return 0;
}

static void destroy(struct record_workload *base)
{
	stop(base);
	free(base);
}

static const struct record_workload_ops command_ops = {
	.prepare = prepare, .cpus = cpus, .describe = describe, .start = start,
	.ended = ended, .open = open_window, .running = running,
	.close = close_window, .after = after, .stop = stop, .fill = fill,
	.destroy = destroy,
};

struct record_workload *record_workload_command(const struct command_request *rq,
						const struct window_request *win)
{
	struct own *c = calloc(1, sizeof(*c));

	if (!c) {
		error("out of memory");
		return NULL;
	}
	c->base.ops = &command_ops;
	c->base.window = win;
	/* a command's window is its lifetime unless -d; -p needs one */
	c->base.limit_ns = win->duration_set || !rq->argv ?
			   (uint64_t)(win->duration * 1e9) : 0;
	c->base.unit = rq->per.name;
	c->base.wake_fd = -1;
	c->base.client_cpu = c->base.server_cpu = -1;
	c->rq = rq;
	return &c->base;
}
