// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exact plugin's call paths (lab/plugin/callpath.h) into the
 * profile: each (vCPU, path, instruction) becomes a stack whose weight
 * is its executions, the same kind of stack a sampled callchain is, so
 * the flame graphs, --callers and inclusive counts read them alike.
 */
#include "lab/exact-counts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lab/plugin/callpath.h"

/* Stacks deeper than the plugin's shadow stack cannot come; a longer
 * chain of nodes is a broken file. */
#define PATH_DEPTH_MAX 4096

int lab_exact_read_node(struct lab_exact *x, const char *line)
{
	unsigned long long id, parent, site;
	struct lab_exact_node *v;
	int cpu;

	if (sscanf(line, "n %d %llu %llu %llx", &cpu, &id, &parent, &site) != 4 ||
	    cpu < 0 || cpu >= x->nvcpus || !x->nnodes)
		return -1;
	/* numbered in order from 1, each after its parent (0 the root) */
	if (id != x->nnodes[cpu] + 1 || parent >= id)
		return -1;
	if (!x->nodes[cpu] || !(id & (id - 1))) {
		v = realloc(x->nodes[cpu], (size_t)(id ? 2 * id : 1) * sizeof(*v));
		if (!v)
			return -1;
		if (!x->nodes[cpu])
			v[0] = (struct lab_exact_node){ 0, 0 };
		x->nodes[cpu] = v;
	}
	x->nodes[cpu][id] = (struct lab_exact_node){ (uint32_t)parent, site };
	x->nnodes[cpu] = id;
	return 0;
}

int lab_exact_read_path(struct lab_exact *x, size_t *cap, const char *line)
{
	unsigned long long node, ip, n;
	int cpu;

	if (sscanf(line, "s %d %llu %llx %llu", &cpu, &node, &ip, &n) != 4 ||
	    cpu < 0 || cpu >= x->nvcpus || !x->nnodes || node > x->nnodes[cpu])
		return -1;
	if (x->npath == *cap) {
		size_t c = *cap ? *cap * 2 : 65536;
		struct lab_exact_path *v = realloc(x->path, c * sizeof(*v));

		if (!v)
			return -1;
		x->path = v;
		*cap = c;
	}
	x->path[x->npath++] = (struct lab_exact_path){ (uint32_t)cpu, (uint32_t)node,
						       ip, n };
	return 0;
}

int lab_exact_read_jump(struct lab_exact *x, size_t *cap, const char *line)
{
	unsigned long long ip, n, target;
	int cpu;

	if (sscanf(line, "j %llx %d %llu %llx", &ip, &cpu, &n, &target) != 4 ||
	    cpu < 0 || cpu >= x->nvcpus)
		return -1;
	if (x->njumps == *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		struct lab_exact_jump *v = realloc(x->jumps, c * sizeof(*v));

		if (!v)
			return -1;
		x->jumps = v;
		*cap = c;
	}
	x->jumps[x->njumps++] = (struct lab_exact_jump){ ip, target, n, (uint32_t)cpu };
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct lab_exact_path *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->ip > y->ip) - (x->ip < y->ip);
}

static int cmp_ip_cpu(const void *a, const void *b)
{
	const struct lab_exact_path *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int lab_exact_paths_check(struct lab_exact *x)
{
	struct lab_exact_path *v;
	size_t i, j, n = 0;

	if (!x->paths)
		return 0;
	if (x->npath > 1)
		qsort(x->path, x->npath, sizeof(*x->path), cmp_path);
	for (i = 0; i < x->npath; i++) {
		struct lab_exact_path *last = n ? &x->path[n - 1] : NULL;

		if (last && last->cpu == x->path[i].cpu && last->node == x->path[i].node &&
		    last->ip == x->path[i].ip)
			last->n += x->path[i].n;
		else
			x->path[n++] = x->path[i];
	}
	x->npath = n;
	/* every execution on exactly one path: per (ip, cpu) the paths add
	 * up to the count, with x->insns sorted by (ip, cpu) */
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return error("out of memory checking the call paths");
	memcpy(v, x->path, n * sizeof(*v));
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_ip_cpu);
	for (i = j = 0; i < x->ninsns; i++) {
		uint64_t sum = 0;

		for (; j < n && cmp_ip_cpu(&v[j], &(struct lab_exact_path){
				x->insns[i].cpu, 0, x->insns[i].ip, 0 }) < 0; j++)
			sum = UINT64_MAX;  /* a path at an address never counted */
		for (; j < n && v[j].ip == x->insns[i].ip && v[j].cpu == x->insns[i].cpu; j++)
			sum += v[j].n;
		if (sum != x->insns[i].n) {
			free(v);
			return error("the QEMU plugin's call paths do not add up to its "
				     "counts at 0x%llx on vCPU %u",
				     (unsigned long long)x->insns[i].ip, x->insns[i].cpu);
		}
	}
	free(v);
	if (j != n)
		return error("the QEMU plugin's call paths hold an address it did not count");
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The start addresses of kallsyms' text symbols, sorted; NULL (and
 * *n 0) when there are none. */
static uint64_t *text_starts(const char *kallsyms, size_t *n)
{
	FILE *f = fopen(kallsyms, "r");
	uint64_t *v = NULL;
	size_t cap = 0;
	char line[512];

	*n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type;

		if (sscanf(line, "%llx %c", &a, &type) != 2 || !strchr("tTwW", type))
			continue;
		if (*n == cap) {
			uint64_t *w = realloc(v, (cap = cap ? 2 * cap : 65536) * sizeof(*v));

			if (!w)
				break;
			v = w;
		}
		v[(*n)++] = a;
	}
	if (f)
		fclose(f);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_u64);
	return v;
}

/* The function (its start) holding ip: the last start at or below it. */
static uint64_t function_of(const uint64_t *starts, size_t n, uint64_t ip)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (starts[mid] <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? starts[lo - 1] : 0;
}

/* The sample at (ip, cpu) in p's samples, sorted so; NULL if none. */
static struct profile_sample *sample_at(struct profile *p, uint64_t ip, uint32_t cpu)
{
	size_t lo = 0, hi = p->nsamples;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct profile_sample *s = &p->samples[mid];

		if (s->ip < ip || (s->ip == ip && s->cpu < cpu))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nsamples && p->samples[lo].ip == ip && p->samples[lo].cpu == cpu ?
	       &p->samples[lo] : NULL;
}

/* The samples' calls: entries by a call, and jumps into the start of a
 * function from another (tail calls). */
static int add_calls(struct profile *p, const struct lab_exact *x, const char *kallsyms)
{
	struct profile_sample *s;
	uint64_t *starts;
	size_t i, n;

	for (i = 0; i < x->ncalls; i++) {
		s = sample_at(p, x->calls[i].ip, x->calls[i].cpu);
		if (!s)
			return error("the QEMU plugin counted calls of 0x%llx, which it "
				     "did not count executed", (unsigned long long)x->calls[i].ip);
		s->calls += x->calls[i].n;
	}
	starts = text_starts(kallsyms, &n);
	for (i = 0; i < x->njumps && n; i++) {
		const struct lab_exact_jump *j = &x->jumps[i];

		if (function_of(starts, n, j->target) != j->target ||
		    function_of(starts, n, j->ip) == j->target)
			continue;
		s = sample_at(p, j->target, j->cpu);
		if (s)
			s->calls += j->n;
	}
	free(starts);
	for (i = 0; i < p->nsamples; i++)
		if (p->samples[i].calls > p->samples[i].count)
			return error("the QEMU plugin counted more entries of 0x%llx than "
				     "executions", (unsigned long long)p->samples[i].ip);
	return 0;
}

static int path_stack(struct profile_stack *st, const struct lab_exact *x,
		      const struct lab_exact_path *e)
{
	uint32_t depth = 1, node;

	for (node = e->node; node && depth < PATH_DEPTH_MAX; node = x->nodes[e->cpu][node].parent)
		depth++;
	if (node)
		return error("the QEMU plugin's call path %u on vCPU %u is too deep",
			     e->node, e->cpu);
	st->ips = malloc(depth * sizeof(*st->ips));
	if (!st->ips)
		return error("out of memory for the call paths");
	st->depth = depth;
	st->ips[0] = e->ip;
	for (depth = 1, node = e->node; node; node = x->nodes[e->cpu][node].parent)
		st->ips[depth++] = x->nodes[e->cpu][node].site;
	st->event = 0;
	st->count = st->weight = e->n;
	return 0;
}

/* x's paths with each address at the start of its function (so a
 * stack per path and function, not per instruction), merged; *n of
 * them, NULL after printing why. */
static struct lab_exact_path *paths_by_function(const struct lab_exact *x,
						const char *kallsyms, size_t *n)
{
	struct lab_exact_path *v = malloc((x->npath ? x->npath : 1) * sizeof(*v));
	uint64_t *starts;
	size_t i, nstarts, k = 0;

	if (!v) {
		error("out of memory for the call paths");
		return NULL;
	}
	starts = text_starts(kallsyms, &nstarts);
	for (i = 0; i < x->npath; i++) {
		uint64_t fn = function_of(starts, nstarts, x->path[i].ip);

		v[i] = x->path[i];
		if (fn)
			v[i].ip = fn;
	}
	free(starts);
	if (x->npath > 1)
		qsort(v, x->npath, sizeof(*v), cmp_path);
	for (i = 0; i < x->npath; i++) {
		if (k && v[k - 1].cpu == v[i].cpu && v[k - 1].node == v[i].node &&
		    v[k - 1].ip == v[i].ip)
			v[k - 1].n += v[i].n;
		else
			v[k++] = v[i];
	}
	*n = k;
	return v;
}

int lab_exact_fold_paths(struct profile *p, const struct lab_exact *x,
			 const char *kallsyms)
{
	struct lab_exact_follow all = { 0 };
	struct lab_exact_path *paths;
	char buf[400];
	size_t i, n;
	int v;

	if (add_calls(p, x, kallsyms))
		return -1;
	for (v = 0; v < x->nvcpus; v++) {
		all.calls += x->follow[v].calls;
		all.irqs += x->follow[v].irqs;
		all.unmatched += x->follow[v].unmatched;
		all.deep += x->follow[v].deep;
		all.resets += x->follow[v].resets;
		all.switches += x->follow[v].switches;
		all.resumed += x->follow[v].resumed;
		all.retaken += x->follow[v].retaken;
	}
	if (!x->paths) {
		snprintf(buf, sizeof(buf), "no: %llu calls followed, no paths kept "
			 "(record --exact-paths keeps them)", (unsigned long long)all.calls);
		return profile_add_condition(p, "lab.exact_paths", buf) ?
		       error("out of memory") : 0;
	}
	paths = paths_by_function(x, kallsyms, &n);
	if (!paths)
		return -1;
	p->stacks = calloc(n ? n : 1, sizeof(*p->stacks));
	if (!p->stacks) {
		free(paths);
		return error("out of memory for %zu call paths", n);
	}
	for (i = 0; i < n; i++) {
		if (path_stack(&p->stacks[i], x, &paths[i])) {
			free(paths);
			return -1;
		}
		p->stacks[i].role = lab_exact_role(p, (int)paths[i].cpu);
		p->nstacks++;
	}
	free(paths);
	snprintf(buf, sizeof(buf), "yes: %zu paths (a stack per path and function); "
		 "%llu calls followed, %llu interrupts, %llu task switches (%llu to "
		 "a task whose frames were kept, %llu of them chosen again by a later "
		 "return), %llu returns to no frame (kept as "
		 "jumps), %llu calls past the depth of %d, %llu returns to user "
		 "space with frames left", n,
		 (unsigned long long)all.calls, (unsigned long long)all.irqs,
		 (unsigned long long)all.switches, (unsigned long long)all.resumed,
		 (unsigned long long)all.retaken,
		 (unsigned long long)all.unmatched, (unsigned long long)all.deep,
		 CALLPATH_DEPTH, (unsigned long long)all.resets);
	return profile_add_condition(p, "lab.exact_paths", buf) ? error("out of memory") : 0;
}
