// SPDX-License-Identifier: GPL-2.0-only
/* The in-memory profile: role names, conditions, freeing. Reading and
 * writing the file are in read.c and write.c. */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "error.h"

static const char *const role_names[ROLE_MAX] = {
	[ROLE_CLIENT] = "client",
	[ROLE_RESPONDER] = "responder",
	[ROLE_SELF] = "perpkt",
	[ROLE_IDLE] = "idle",
	[ROLE_OTHER] = "other",
	[ROLE_WORKLOAD] = "workload",
	[ROLE_BUSY] = "busy",
};

const char *role_name(enum role r)
{
	return r < ROLE_MAX ? role_names[r] : "other";
}

int role_parse(const char *s, enum role *out)
{
	int i;

	for (i = 0; i < ROLE_MAX; i++) {
		if (!strcmp(s, role_names[i])) {
			*out = (enum role)i;
			return 0;
		}
	}
	return -1;
}

char *profile_command_line(int argc, char **argv)
{
	size_t len = strlen("perpkt") + 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "perpkt");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct profile_sample *x = a, *y = b;

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->repeat != y->repeat)
		return x->repeat < y->repeat ? -1 : 1;
	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (int)x->role - (int)y->role;
}

void profile_sort_samples(struct profile *p)
{
	if (p->nsamples > 1)
		qsort(p->samples, p->nsamples, sizeof(*p->samples), cmp_sample);
}

int profile_add_condition(struct profile *p, const char *key, const char *value)
{
	struct profile_condition *c;

	c = realloc(p->conditions, (p->nconditions + 1) * sizeof(*c));
	if (!c)
		return -1;
	p->conditions = c;
	c[p->nconditions].key = strdup(key);
	c[p->nconditions].value = strdup(value);
	if (!c[p->nconditions].key || !c[p->nconditions].value) {
		free(c[p->nconditions].key);
		free(c[p->nconditions].value);
		return -1;
	}
	p->nconditions++;
	return 0;
}

const char *profile_condition(const struct profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nconditions; i++)
		if (!strcmp(p->conditions[i].key, key))
			return p->conditions[i].value;
	return NULL;
}

int profile_steal(const struct profile *p, int client_cpu, int server_cpu,
		  double *steal_ns, double *all_ns)
{
	int pass, used = 0;
	size_t i;

	*steal_ns = *all_ns = 0;
	/* pass 0: the workload's CPUs; pass 1, when none had times: all */
	for (pass = 0; pass < 2 && !used; pass++)
		for (i = 0; i < p->ncpu_times; i++) {
			const struct profile_cpu *c = &p->cpu_times[i];

			if (!pass && c->cpu != client_cpu && c->cpu != server_cpu)
				continue;
			*steal_ns += (double)c->other_ns;
			*all_ns += (double)(c->user_ns + c->system_ns + c->irq_ns +
					    c->softirq_ns + c->idle_ns + c->other_ns);
			used = 1;
		}
	return used;
}

/* Counted by a PMU: cpu-clock, software counters and tracepoints are
 * not (breakpoints neither); dynamic PMU types (armv8_pmuv3) are. */
static int hardware_event(const struct profile_event *ev)
{
	if (ev->unit && !strcmp(ev->unit, "ns"))
		return 0;
	return ev->type == PERF_TYPE_HARDWARE || ev->type == PERF_TYPE_HW_CACHE ||
	       ev->type == PERF_TYPE_RAW || ev->type >= PERF_TYPE_MAX;
}

/* A sampled event that counted this many periods without one sample is
 * not sampling: Poisson would give none with probability e^-10. */
#define DEAD_SAMPLING_PERIODS 10

/* Any sample row of event e: hand-made profiles may not fill the
 * event's own samples field. */
static int has_samples(const struct profile *p, size_t e)
{
	size_t i;

	for (i = 0; i < p->nsamples; i++)
		if (p->samples[i].event == e && p->samples[i].count)
			return 1;
	return 0;
}

int profile_event_user(const struct profile *p, size_t e)
{
	const struct profile_event *ev;
	const char *c;

	if (e >= p->nevents)
		return 0;
	ev = &p->events[e];
	if (ev->user >= 0)
		return ev->user;
	if (ev->encoding && strstr(ev->encoding, ":u=1"))
		return 1;
	for (c = p->command; c && (c = strstr(c, "--user")); c++)
		if ((c == p->command || c[-1] == ' ') &&
		    (!c[6] || c[6] == ' '))
			return 1;
	return 0;
}

const char *profile_event_not_counting(const struct profile *p, size_t e)
{
	const struct profile_event *ev;
	int ran;

	if (e >= p->nevents)
		return NULL;
	ev = &p->events[e];
	/* times not recorded: it ran if the window did */
	ran = ev->enabled_ns ? ev->running_ns > 0 : p->window_ns > 0;
	if (!hardware_event(ev) || !ran || ev->samples || has_samples(p, e))
		return NULL;
	if (!ev->count)
		return "counted 0 while its group ran: the kernel accepts "
		       "it, but the PMU does not count it";
	if ((ev->freq && ev->count) ||
	    (ev->period && ev->count >= DEAD_SAMPLING_PERIODS * ev->period))
		return "no sample although it counted many periods: its "
		       "overflow interrupt does not come";
	return NULL;
}

const char *profile_unit_name(const struct profile *p)
{
	return p->unit.name ? p->unit.name : "round trip";
}

const char *profile_unit_abbrev(const struct profile *p)
{
	static const struct { const char *name, *abbrev; } short_names[] = {
		{ "round trip", "RT" }, { "packet", "pkt" },
		{ "udp-datagram", "dgram" }, { "tcp-segment", "seg" },
		{ "irq", "irq" }, { "transaction", "txn" },
	};
	const char *name = profile_unit_name(p);
	size_t i;

	for (i = 0; i < sizeof(short_names) / sizeof(short_names[0]); i++)
		if (!strcmp(name, short_names[i].name))
			return short_names[i].abbrev;
	return name;
}

int profile_unit_is_rt(const struct profile *p)
{
	return !strcmp(profile_unit_spec(p), "rt");
}

const char *profile_unit_spec(const struct profile *p)
{
	return p->unit.spec ? p->unit.spec : "rt";
}

void profile_events_free(struct profile *p)
{
	size_t i;

	for (i = 0; p->events && i < p->nevents; i++) {
		free(p->events[i].name);
		free(p->events[i].requested);
		free(p->events[i].pmu);
		free(p->events[i].encoding);
		free(p->events[i].unit);
	}
	free(p->events);
	p->events = NULL;
	p->nevents = 0;
}

void profile_free(struct profile *p)
{
	size_t i;

	free(p->unit.spec);
	free(p->unit.name);
	free(p->unit.source);
	free(p->workload_command);
	free(p->tool_version);
	free(p->created);
	free(p->command);
	free(p->kernel_functions);
	free(p->kernel_release);
	free(p->kernel_version);
	free(p->build_id);
	free(p->machine);
	for (i = 0; p->modules && i < p->nmodules; i++) {
		size_t j;

		for (j = 0; j < p->modules[i].nsections; j++)
			free(p->modules[i].sections[j].name);
		free(p->modules[i].sections);
		free(p->modules[i].name);
	}
	free(p->modules);
	free(p->hostname);
	free(p->cpu_model);
	free(p->transport);
	free(p->flow_cpus);
	free(p->network);
	free(p->mode);
	free(p->fallback_reason);
	free(p->clock_source);
	free(p->cpus);
	profile_events_free(p);
	free(p->samples);
	for (i = 0; p->ksyms && i < p->nksyms; i++) {
		free(p->ksyms[i].name);
		free(p->ksyms[i].module);
	}
	free(p->ksyms);
	for (i = 0; p->stacks && i < p->nstacks; i++)
		free(p->stacks[i].ips);
	free(p->stacks);
	free(p->histogram);
	for (i = 0; p->repeats && i < p->nrepeats; i++)
		free(p->repeats[i].counts);
	free(p->repeats);
	free(p->tasks);
	free(p->cpu_times);
	for (i = 0; i < p->nconditions; i++) {
		free(p->conditions[i].key);
		free(p->conditions[i].value);
	}
	free(p->conditions);
	for (i = 0; p->counts && i < p->ncounts; i++)
		free(p->counts[i].name);
	free(p->counts);
	for (i = 0; p->irqs && i < p->nirqs; i++) {
		free(p->irqs[i].kind);
		free(p->irqs[i].name);
		free(p->irqs[i].desc);
	}
	free(p->irqs);
	for (i = 0; p->missing && i < p->nmissing; i++) {
		free(p->missing[i].name);
		free(p->missing[i].reason);
	}
	free(p->missing);
	if (p->remote) {
		profile_free(p->remote);
		free(p->remote);
	}
	free(p->remote_missing);
	memset(p, 0, sizeof(*p));
}

int profile_side_check(const char *side)
{
	if (strcmp(side, "local") && strcmp(side, "remote"))
		return error("invalid --side '%s': use local or remote", side);
	return 0;
}

int profile_take_side(struct profile *p, const char *side, const char *path)
{
	struct profile *r;

	if (!side || !strcmp(side, "local"))
		return 0;
	if (profile_side_check(side))
		return -1;
	if (!p->remote)
		return error("profile '%s' has no remote side%s%s", path,
			     p->remote_missing ? ": " : " (record it with --peer "
			     "and a perpkt serve that may sample there)",
			     p->remote_missing ? p->remote_missing : "");
	r = p->remote;
	p->remote = NULL;
	profile_free(p);
	*p = *r;
	free(r);
	return 0;
}

int profile_emulated(const struct profile *p)
{
	const char *accel = profile_condition(p, PROFILE_COND_ACCEL);

	return accel && !strncmp(accel, "tcg", 3);
}

int profile_icount_shift(const struct profile *p)
{
	const char *d = profile_condition(p, PROFILE_COND_DETERMINISTIC);
	const char *at = d && !strncmp(d, "yes", 3) ? strstr(d, "shift=") : NULL;

	return at && at[6] >= '0' && at[6] <= '9' ? atoi(at + 6) : -1;
}

int profile_exact(const struct profile *p)
{
	return p->mode && !strcmp(p->mode, PROFILE_EXACT_MODE);
}

int profile_repeat_used(const struct profile *p, size_t k)
{
	return k < p->nrepeats && p->repeats[k].round_trips &&
	       (!p->repeats[k].partial || p->include_partial);
}

size_t profile_npartial(const struct profile *p)
{
	size_t k, n = 0;

	for (k = 0; k < p->nrepeats; k++)
		n += p->repeats[k].partial != 0;
	return n;
}

void profile_note_partial(const struct profile *p, const char *path)
{
	size_t n = profile_npartial(p), k;

	if (!n)
		return;
	if (p->nrepeats == 1) {
		/* its only window: kept, or there would be nothing */
		info("'%s' is partial: its window was cut short at %.0f%%", path,
		     p->repeats[0].fraction * 100);
		return;
	}
	for (k = 0; k < p->nrepeats && !p->repeats[k].partial; k++)
		;
	info("'%s': %zu of %zu windows cut short (window %zu at %.0f%%): %s", path,
	     n, p->nrepeats, k + 1, p->repeats[k].fraction * 100,
	     p->include_partial ? "kept (--include-partial)" :
	     "left out of means and spreads; --include-partial keeps them");
}
