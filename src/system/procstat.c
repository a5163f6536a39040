// SPDX-License-Identifier: GPL-2.0-only
#include "system/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"
#include "system/schedstat.h"

static uint64_t ticks_to_ns(uint64_t t)
{
	long hz = sysconf(_SC_CLK_TCK);

	return t * (1000000000ULL / (uint64_t)(hz > 0 ? hz : 100));
}

static int col_of(const struct procstat *s, int cpu)
{
	int i;

	for (i = 0; i < s->ncpus; i++)
		if (s->col_cpu[i] == cpu)
			return i;
	return -1;
}

int procstat_parse_stat(const char *text, struct procstat *s)
{
	const char *line = text;

	while (line && *line) {
		unsigned long long v[10] = { 0 };
		int cpu, n;

		/* "cpu  ..." is the all-CPU total: a CPU number follows at once */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			n = 0;
		else
			n = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9]);
		if (n >= 8) {
			struct profile_cpu *c;
			int *nc = realloc(s->col_cpu, sizeof(int) * (size_t)(s->ncpus + 1));

			if (!nc)
				return error("out of memory");
			s->col_cpu = nc;
			c = realloc(s->cpu, sizeof(*c) * (size_t)(s->ncpus + 1));
			if (!c)
				return error("out of memory");
			s->cpu = c;
			c = &s->cpu[s->ncpus];
			memset(c, 0, sizeof(*c));
			c->cpu = cpu;
			/* user+nice, system, idle+iowait, irq, softirq, steal */
			c->user_ns = ticks_to_ns(v[0] + v[1]);
			c->system_ns = ticks_to_ns(v[2]);
			c->idle_ns = ticks_to_ns(v[3] + v[4]);
			c->irq_ns = ticks_to_ns(v[5]);
			c->softirq_ns = ticks_to_ns(v[6]);
			c->other_ns = ticks_to_ns(v[7]);
			s->col_cpu[s->ncpus++] = cpu;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return s->ncpus ? 0 : error("no per-CPU lines in /proc/stat");
}

/* /proc/interrupts and /proc/softirqs: a header "CPU0 CPU1 ...", then
 * "NAME: count count ... [description]" per source. */
int procstat_parse_irqs(const char *text, const char *kind, struct procstat *s)
{
	int cols[4096], ncols = 0, i;
	const char *line = text, *p;

	for (p = line; *p && *p != '\n';) {
		int cpu, used;

		while (*p == ' ' || *p == '\t')
			p++;
		if (sscanf(p, "CPU%d%n", &cpu, &used) == 1 && ncols < 4096) {
			cols[ncols++] = cpu;
			p += used;
		} else if (*p && *p != '\n') {
			p++;
		}
	}
	if (!ncols)
		return error("no CPU columns in the %s table", kind);
	line = strchr(text, '\n');
	while (line && *++line) {
		const char *colon = strchr(line, ':'), *eol = strchr(line, '\n');
		struct irq_row *r, *nr;
		const char *q;
		size_t len;

		if (!eol)
			eol = line + strlen(line);
		if (!colon || colon > eol) {
			line = eol;
			continue;
		}
		nr = realloc(s->rows, sizeof(*nr) * (s->nrows + 1));
		if (!nr)
			return error("out of memory");
		s->rows = nr;
		r = &s->rows[s->nrows];
		memset(r, 0, sizeof(*r));
		r->counts = calloc((size_t)(s->ncpus > 0 ? s->ncpus : 1), sizeof(uint64_t));
		if (!r->counts)
			return error("out of memory");
		s->nrows++;
		snprintf(r->kind, sizeof(r->kind), "%s", kind);
		q = line + strspn(line, " ");
		len = (size_t)(colon - q);
		snprintf(r->name, sizeof(r->name), "%.*s", (int)(len < 31 ? len : 31), q);
		q = colon + 1;
		for (i = 0; i < ncols; i++) {
			char *end;
			unsigned long long v = strtoull(q, &end, 10);
			int col = col_of(s, cols[i]);

			if (end == q || end > eol)
				break;  /* rows like ERR: have one column */
			if (col >= 0)
				r->counts[col] = v;
			q = end;
		}
		q += strspn(q, " \t");
		if (q < eol) {
			len = (size_t)(eol - q);
			snprintf(r->desc, sizeof(r->desc), "%.*s",
				 (int)(len < 95 ? len : 95), q);
		}
		line = eol;
	}
	return 0;
}

static int read_task(pid_t pid, enum role role, struct profile_task *t)
{
	struct schedstat ss;
	char path[64], *text, *p;
	unsigned long long ut = 0, st = 0;
	int i;

	memset(t, 0, sizeof(*t));
	t->role = role;
	t->pid = pid;
	t->cpu = -1;
	if (schedstat_read(pid, &ss) < 0)
		return error("cannot read '/proc/%d/schedstat': %s", (int)pid,
			     errno ? strerror(errno) : "unexpected format");
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = procfile_read(path);
	/* the command name may hold spaces: fields resume after its ')' */
	p = text ? strrchr(text, ')') : NULL;
	for (i = 0; p && i < 12; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu %llu", &ut, &st) != 2) {
		free(text);
		return error("cannot read '%s': unexpected format", path);
	}
	free(text);
	t->cpu_ns = ss.cpu_ns;
	t->wait_ns = ss.wait_ns;
	t->switches = ss.switches;
	t->user_ns = ticks_to_ns(ut);
	t->system_ns = ticks_to_ns(st);
	return 0;
}

/* Role r's pids[0..n) into the next task slot, their times added. */
static void read_tasks(struct procstat *s, const pid_t *pids, int n,
		       enum role r)
{
	struct profile_task *t = &s->task[s->ntasks], more;
	int i;

	if (n < 1 || pids[0] <= 0 || read_task(pids[0], r, t))
		return;
	for (i = 1; i < n; i++) {
		if (pids[i] <= 0 || read_task(pids[i], r, &more))
			continue;
		t->cpu_ns += more.cpu_ns;
		t->wait_ns += more.wait_ns;
		t->switches += more.switches;
		t->user_ns += more.user_ns;
		t->system_ns += more.system_ns;
	}
	s->ntasks++;
}

int procstat_take(struct procstat *s, pid_t client, pid_t responder)
{
	return procstat_take_flows(s, &client, &responder, 1);
}

int procstat_take_flows(struct procstat *s, const pid_t *clients,
			const pid_t *responders, int n)
{
	static const struct { const char *path, *kind; } tables[] = {
		{ "/proc/interrupts", "irq" },
		{ "/proc/softirqs", "softirq" },
	};
	struct timespec t0, t1;
	char *text;
	size_t i;

	memset(s, 0, sizeof(*s));
	text = procfile_read("/proc/stat");
	if (!text)
		return error("cannot read '/proc/stat': %s", strerror(errno));
	if (procstat_parse_stat(text, s)) {
		free(text);
		return -1;
	}
	free(text);
	for (i = 0; i < 2; i++) {
		text = procfile_read(tables[i].path);
		if (!text || procstat_parse_irqs(text, tables[i].kind, s)) {
			free(text);
			return error("cannot read '%s'", tables[i].path);
		}
		free(text);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	read_tasks(s, clients, n, ROLE_CLIENT);
	read_tasks(s, responders, n, ROLE_RESPONDER);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* the middle of the reads */
	s->task_ns = ((uint64_t)t0.tv_sec * 1000000000u + (uint64_t)t0.tv_nsec +
		      (uint64_t)t1.tv_sec * 1000000000u + (uint64_t)t1.tv_nsec) / 2;
	return 0;
}

uint64_t procstat_span(const struct procstat *before,
		       const struct procstat *after)
{
	if (!before->task_ns || after->task_ns <= before->task_ns)
		return 0;
	return after->task_ns - before->task_ns;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static int add_irq(struct profile *p, const struct irq_row *r, int cpu,
		   uint64_t count)
{
	struct profile_irq *q = realloc(p->irqs, sizeof(*q) * (p->nirqs + 1));

	if (!q)
		return error("out of memory");
	p->irqs = q;
	q = &p->irqs[p->nirqs];
	q->kind = strdup(r->kind);
	q->name = strdup(r->name);
	q->desc = r->desc[0] ? strdup(r->desc) : NULL;
	q->cpu = cpu;
	q->count = count;
	if (!q->kind || !q->name)
		return error("out of memory");
	p->nirqs++;
	return 0;
}

int procstat_delta(const struct procstat *b, const struct procstat *a,
		   const int *cpus, int ncpus, struct profile *p)
{
	size_t r;
	int i;

	p->cpu_times = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*p->cpu_times));
	if (!p->cpu_times)
		return error("out of memory");
	for (i = 0; i < ncpus; i++) {
		int ca = col_of(a, cpus[i]), cb = col_of(b, cpus[i]);
		struct profile_cpu *d = &p->cpu_times[p->ncpu_times];

		if (ca < 0 || cb < 0)
			continue;
		d->cpu = cpus[i];
		d->user_ns = sub(a->cpu[ca].user_ns, b->cpu[cb].user_ns);
		d->system_ns = sub(a->cpu[ca].system_ns, b->cpu[cb].system_ns);
		d->irq_ns = sub(a->cpu[ca].irq_ns, b->cpu[cb].irq_ns);
		d->softirq_ns = sub(a->cpu[ca].softirq_ns, b->cpu[cb].softirq_ns);
		d->idle_ns = sub(a->cpu[ca].idle_ns, b->cpu[cb].idle_ns);
		d->other_ns = sub(a->cpu[ca].other_ns, b->cpu[cb].other_ns);
		p->ncpu_times++;
		/* rows are in the same order in both snapshots unless an IRQ
		 * appeared in between: match them by kind and name */
		for (r = 0; r < a->nrows; r++) {
			const struct irq_row *ra = &a->rows[r], *rb = NULL;
			size_t k;

			for (k = 0; k < b->nrows && !rb; k++)
				if (!strcmp(b->rows[(r + k) % b->nrows].name, ra->name) &&
				    !strcmp(b->rows[(r + k) % b->nrows].kind, ra->kind))
					rb = &b->rows[(r + k) % b->nrows];
			if (rb && sub(ra->counts[ca], rb->counts[cb]) &&
			    add_irq(p, ra, cpus[i], sub(ra->counts[ca], rb->counts[cb])))
				return -1;
		}
	}
	if (p->tasks)
		return 0;  /* added window by window (procstat_tasks_add) */
	return procstat_tasks_add(b, a, p);
}

int procstat_tasks_add(const struct procstat *b, const struct procstat *a,
		       struct profile *p)
{
	int i, j;
	size_t k;

	if (!p->tasks && !(p->tasks = calloc(2, sizeof(*p->tasks))))
		return error("out of memory");
	for (i = 0; i < a->ntasks; i++) {
		for (j = 0; j < b->ntasks; j++) {
			const struct profile_task *ta = &a->task[i], *tb = &b->task[j];
			struct profile_task *d;

			if (ta->pid != tb->pid)
				continue;
			/* the role's slot: one per role, its pid the latest */
			for (k = 0; k < p->ntasks && p->tasks[k].role != ta->role; k++)
				;
			if (k == p->ntasks) {
				if (k >= 2)
					continue;
				memset(&p->tasks[k], 0, sizeof(p->tasks[k]));
				p->ntasks++;
			}
			d = &p->tasks[k];
			d->role = ta->role;
			d->pid = ta->pid;
			d->cpu = ta->cpu;
			d->cpu_ns += sub(ta->cpu_ns, tb->cpu_ns);
			d->wait_ns += sub(ta->wait_ns, tb->wait_ns);
			d->switches += sub(ta->switches, tb->switches);
			d->user_ns += sub(ta->user_ns, tb->user_ns);
			d->system_ns += sub(ta->system_ns, tb->system_ns);
			d->span_ns += procstat_span(b, a);
		}
	}
	return 0;
}

uint64_t procstat_task_cpu(const struct procstat *a, const struct procstat *b,
			   enum role role)
{
	int i, j;

	for (i = 0; i < b->ntasks; i++)
		for (j = 0; j < a->ntasks; j++)
			if (b->task[i].role == role && a->task[j].pid == b->task[i].pid)
				return b->task[i].cpu_ns - a->task[j].cpu_ns;
	return 0;
}

void procstat_free(struct procstat *s)
{
	size_t i;

	for (i = 0; i < s->nrows; i++)
		free(s->rows[i].counts);
	free(s->rows);
	free(s->cpu);
	free(s->col_cpu);
	memset(s, 0, sizeof(*s));
}
