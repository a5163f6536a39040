// SPDX-License-Identifier: GPL-2.0-only
#include "profile/sample-filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static int parse_roles(struct sample_filter *f, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	enum role r;
	int ret = 0;

	if (!copy)
		return error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (role_parse(tok, &r)) {
			ret = error("unknown role '%s' (use client, responder, perpkt, idle or other)",
				    tok);
			break;
		}
		f->roles |= 1u << r;
	}
	free(copy);
	return ret;
}

int sample_filter_add(struct sample_filter *f, enum sample_filter_key k,
		      const char *arg)
{
	uint64_t v;

	switch (k) {
	case SAMPLE_FILTER_ROLE:
		return parse_roles(f, arg);
	case SAMPLE_FILTER_CPU:
		f->ncpus = parse_cpu_list(arg, f->cpus, MAX_CPUS);
		return f->ncpus < 0 ? -1 : 0;
	case SAMPLE_FILTER_PID:
		if (f->npids == (int)(sizeof(f->pids) / sizeof(f->pids[0])))
			return error("too many --pid: at most %zu",
				     sizeof(f->pids) / sizeof(f->pids[0]));
		if (parse_u64(arg, "--pid", 1, 1 << 30, &v))
			return -1;
		f->pids[f->npids++] = (int)v;
		return 0;
	}
	return -1;
}

int sample_filter_active(const struct sample_filter *f)
{
	return f->roles || f->ncpus || f->npids;
}

static int cpu_kept(const struct sample_filter *f, int cpu)
{
	int i;

	if (!f->ncpus)
		return 1;
	for (i = 0; i < f->ncpus; i++)
		if (f->cpus[i] == cpu)
			return 1;
	return 0;
}

/* --pid to roles: the profile knows the pids of client and responder. */
static int pid_roles(const struct sample_filter *f, const struct profile *p,
		     unsigned *roles)
{
	size_t t;
	int i;

	for (i = 0; i < f->npids; i++) {
		for (t = 0; t < p->ntasks; t++)
			if (p->tasks[t].pid == f->pids[i])
				break;
		if (t == p->ntasks) {
			char known[128] = "";
			size_t len = 0;

			for (t = 0; t < p->ntasks && len < sizeof(known) - 32; t++)
				len += (size_t)snprintf(known + len, sizeof(known) - len,
							"%s%s %d", len ? ", " : "",
							role_name(p->tasks[t].role),
							p->tasks[t].pid);
			return error("pid %d is not a workload process of this profile "
				     "(samples carry roles, not pids; it knows %s): use --role",
				     f->pids[i], len ? known : "no pids");
		}
		*roles |= 1u << p->tasks[t].role;
	}
	return 0;
}

static void describe(const struct sample_filter *f, unsigned roles,
		     char *buf, size_t len)
{
	size_t n = 0;
	int r, i;

	buf[0] = 0;
	for (r = 0; r < ROLE_MAX && n < len; r++)
		if (roles & (1u << r))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "," : "role ", role_name((enum role)r));
	for (i = 0; i < f->ncpus && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d",
				      i ? "," : n ? "; CPU " : "CPU ", f->cpus[i]);
}

int sample_filter_apply(const struct sample_filter *f, struct profile *p)
{
	unsigned roles = f->roles;
	uint64_t all = 0, kept = 0;
	char what[256], cond[384];
	size_t i, n = 0;

	if (!sample_filter_active(f))
		return 0;
	if (pid_roles(f, p, &roles))
		return -1;
	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];

		if (s->event == 0)
			all += s->count;
		if ((roles && !(roles & (1u << s->role))) || !cpu_kept(f, s->cpu))
			continue;
		if (s->event == 0)
			kept += s->count;
		p->samples[n++] = *s;
	}
	p->nsamples = n;
	/* a callchain has a role but no CPU: under --cpu none can be kept */
	for (i = n = 0; i < p->nstacks; i++) {
		struct profile_stack *st = &p->stacks[i];

		if (f->ncpus || (roles && !(roles & (1u << st->role)))) {
			free(st->ips);
			continue;
		}
		p->stacks[n++] = *st;
	}
	p->nstacks = n;
	describe(f, roles, what, sizeof(what));
	snprintf(cond, sizeof(cond), "%s: %llu of %llu samples kept%s", what,
		 (unsigned long long)kept, (unsigned long long)all,
		 f->ncpus ? "; callchains carry no CPU, so none are kept" : "");
	return profile_add_condition(p, PROFILE_COND_FILTER, cond);
}
