// SPDX-License-Identifier: GPL-2.0-only
/* Exact instruction counts from the QEMU plugin into the guest's profile. */
#include "lab/exact-counts.h"

#include <errno.h>
#include <libgen.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "lab/plugin/counts.h"
#include "system/kernel-symbols.h"

#ifndef PERPKT_EXACT_WHY
#define PERPKT_EXACT_WHY "this perpkt was built without the QEMU plugin"
#endif

char *lab_exact_plugin(char *why, size_t len)
{
	const char *env = getenv("PERPKT_EXACT_PLUGIN");
	char *self, *dir, *path = NULL;

	if (env && *env) {
		if (!access(env, R_OK))
			return strdup(env);
		snprintf(why, len, "PERPKT_EXACT_PLUGIN='%s': %s", env, strerror(errno));
		return NULL;
	}
	self = realpath("/proc/self/exe", NULL);
	if (!self) {
		snprintf(why, len, "cannot find perpkt's own binary: %s", strerror(errno));
		return NULL;
	}
	dir = dirname(self);
	/* the build tree, then an install's lib/perpkt beside bin/ */
	if (asprintf(&path, "%s/perpkt-exact.so", dir) >= 0 && !access(path, R_OK))
		goto out;
	free(path);
	if (asprintf(&path, "%s/../lib/perpkt/perpkt-exact.so", dir) >= 0 &&
	    !access(path, R_OK))
		goto out;
	free(path);
	path = NULL;
#ifdef PERPKT_EXACT_BUILT
	snprintf(why, len, "the QEMU plugin perpkt-exact.so is neither beside "
		 "perpkt in '%.200s' nor in its ../lib/perpkt", dir);
#else
	snprintf(why, len, "%s", PERPKT_EXACT_WHY);
#endif
out:
	free(self);
	return path;
}

static int cmp_insn(const void *a, const void *b)
{
	const struct lab_exact_insn *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int add_insn(struct lab_exact_insn **vp, size_t *np, size_t *cap, uint64_t ip,
		    uint32_t cpu, uint64_t n)
{
	if (*np == *cap) {
		size_t c = *cap ? *cap * 2 : 65536;
		struct lab_exact_insn *v = realloc(*vp, c * sizeof(*v));

		if (!v)
			return error("out of memory for the exact counts");
		*vp = v;
		*cap = c;
	}
	(*vp)[(*np)++] = (struct lab_exact_insn){ ip, cpu, n };
	return 0;
}

/* Sorted by (ip, cpu), one entry each: a block translated twice or
 * overlapping another counts its instructions in both. */
static void merge_insns(struct lab_exact_insn *v, size_t *np)
{
	size_t i, n = 0;

	if (*np > 1)
		qsort(v, *np, sizeof(*v), cmp_insn);
	for (i = 0; i < *np; i++) {
		if (n && v[n - 1].ip == v[i].ip && v[n - 1].cpu == v[i].cpu)
			v[n - 1].n += v[i].n;
		else
			v[n++] = v[i];
	}
	*np = n;
}

int lab_exact_read(const char *path, struct lab_exact *x)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t cap = 0, ccap = 0, pcap = 0, jcap = 0, mcap = 0, lineno = 0;
	int version = 0, ended = 0, ret = -1;

	memset(x, 0, sizeof(*x));
	if (!f)
		return error("the QEMU plugin wrote no counts ('%s': %s)", path,
			     strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, c;
		int v;

		lineno++;
		if (sscanf(line, "i %llx %d %llu", &a, &v, &b) == 3) {
			if (v < 0 || v >= x->nvcpus ||
			    add_insn(&x->insns, &x->ninsns, &cap, a, (uint32_t)v, b))
				goto bad;
		} else if (line[0] == 's' && line[1] == ' ') {
			if (lab_exact_read_path(x, &pcap, line))
				goto bad;
		} else if ((line[0] == 'm' && line[1] == ' ') || !strncmp(line, "um ", 3) ||
			   !strncmp(line, "cache ", 6)) {
			if (lab_exact_read_cache(x, &mcap, line))
				goto bad;
		} else if (line[0] == 'j' && line[1] == ' ') {
			if (lab_exact_read_jump(x, &jcap, line))
				goto bad;
		} else if (line[0] == 'n' && line[1] == ' ') {
			if (lab_exact_read_node(x, line))
				goto bad;
		} else if (sscanf(line, "c %llx %d %llu", &a, &v, &b) == 3) {
			if (v < 0 || v >= x->nvcpus ||
			    add_insn(&x->calls, &x->ncalls, &ccap, a, (uint32_t)v, b))
				goto bad;
		} else if (sscanf(line, "follow %d %llu %llu %llu", &v, &a, &b, &c) == 4) {
			struct lab_exact_follow *fo;
			unsigned long long d = 0, e = 0, g = 0, h = 0, k = 0;

			if (v < 0 || v >= x->nvcpus ||
			    sscanf(line, "follow %*d %*u %*u %*u %llu %llu %llu %llu %llu",
				   &d, &e, &g, &h, &k) != 5)
				goto bad;
			fo = &x->follow[v];
			*fo = (struct lab_exact_follow){ a, b, c, d, e, g, h, k };
		} else if (sscanf(line, "paths %d", &x->paths) == 1) {
		} else if (sscanf(line, "perpkt-exact %d", &version) == 1) {
			if (version != PERPKT_EXACT_FILE_VERSION) {
				error("'%s' is counts format %d, this perpkt reads %d: "
				      "the plugin is not this perpkt's", path, version,
				      PERPKT_EXACT_FILE_VERSION);
				goto out;
			}
		} else if (sscanf(line, "target %31s", x->target) == 1) {
		} else if (sscanf(line, "vcpus %d", &x->nvcpus) == 1) {
			if (x->nvcpus < 1 || x->nvcpus > 4096 || x->kernel)
				goto bad;
			x->kernel = calloc((size_t)x->nvcpus, sizeof(*x->kernel));
			x->user = calloc((size_t)x->nvcpus, sizeof(*x->user));
			x->follow = calloc((size_t)x->nvcpus, sizeof(*x->follow));
			x->nodes = calloc((size_t)x->nvcpus, sizeof(*x->nodes));
			x->nnodes = calloc((size_t)x->nvcpus, sizeof(*x->nnodes));
			if (!x->kernel || !x->user || !x->follow || !x->nodes || !x->nnodes)
				goto bad;
		} else if (sscanf(line, "marks %llu %llu", &a, &b) == 2) {
			x->opens = a;
			x->closes = b;
		} else if (sscanf(line, "whole %d", &x->whole) == 1) {
		} else if (sscanf(line, "cpu %d %llu %llu", &v, &b, &c) == 3) {
			if (v < 0 || v >= x->nvcpus)
				goto bad;
			x->kernel[v] = b;
			x->user[v] = c;
		} else if (!strncmp(line, "blocks ", 7)) {
		} else if (!strcmp(line, "end\n")) {
			ended = 1;
			break;
		} else {
			goto bad;
		}
	}
	if (!version || !ended) {
		error("'%s' is cut short or not a counts file: did QEMU end before "
		      "the plugin wrote it?", path);
		goto out;
	}
	merge_insns(x->insns, &x->ninsns);
	merge_insns(x->calls, &x->ncalls);
	lab_exact_cache_merge(x);
	if (lab_exact_paths_check(x))
		goto out;
	ret = 0;
	goto out;
bad:
	error("'%s' line %zu: not a counts line (or out of memory)", path, lineno);
out:
	fclose(f);
	if (ret)
		lab_exact_free(x);
	return ret;
}

void lab_exact_free(struct lab_exact *x)
{
	int v;

	for (v = 0; x->nodes && v < x->nvcpus; v++)
		free(x->nodes[v]);
	free(x->nodes);
	free(x->nnodes);
	free(x->path);
	free(x->misses);
	free(x->umiss);
	free(x->calls);
	free(x->jumps);
	free(x->follow);
	free(x->kernel);
	free(x->user);
	free(x->insns);
	memset(x, 0, sizeof(*x));
}

enum role lab_exact_role(const struct profile *p, int cpu)
{
	if (cpu == p->client_cpu && cpu == p->server_cpu)
		return ROLE_WORKLOAD;
	if (cpu == p->client_cpu)
		return ROLE_CLIENT;
	if (cpu == p->server_cpu)
		return ROLE_RESPONDER;
	return ROLE_OTHER;
}

/* The plugin's count is the profile's one event. The guest's own
 * events (cpu-clock, counted, never sampled) stay in its per-CPU counts
 * and its /proc figures: emulated times, for what they are worth. */
static int replace_events(struct profile *p, const struct lab_exact *x)
{
	struct profile_event *ev = calloc(1, sizeof(*ev));
	struct profile_count *counts = calloc(p->ncounts + (size_t)x->nvcpus,
					      sizeof(*counts));
	uint64_t total = 0, execs = 0;
	size_t i, k;
	int v;

	if (!ev || !counts) {
		free(ev);
		free(counts);
		return error("out of memory");
	}
	for (v = 0; v < x->nvcpus; v++)
		total += x->kernel[v];
	for (i = 0; i < x->ninsns; i++)
		execs += x->insns[i].n;
	*ev = (struct profile_event){
		.name = strdup("instructions"), .requested = strdup("instructions"),
		.pmu = strdup(PROFILE_EXACT_PMU), .encoding = strdup("perpkt-exact.so"),
		.unit = strdup("instructions"), .type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS, .samples = execs,
		.count = total, .enabled_ns = p->window_ns, .running_ns = p->window_ns,
	};
	profile_events_free(p);
	p->events = ev;
	p->nevents = 1;
	for (v = 0; v < x->nvcpus; v++)
		counts[v] = (struct profile_count){
			.name = strdup("instructions"), .cpu = v,
			.value = x->kernel[v], .raw = x->kernel[v],
			.enabled_ns = p->window_ns, .running_ns = p->window_ns,
		};
	memcpy(counts + x->nvcpus, p->counts, p->ncounts * sizeof(*counts));
	free(p->counts);
	p->counts = counts;
	p->ncounts += (size_t)x->nvcpus;
	for (k = 0; k < p->nrepeats; k++) {
		free(p->repeats[k].counts);
		p->repeats[k].counts = calloc(1, sizeof(uint64_t));
		if (!p->repeats[k].counts)
			return error("out of memory");
		p->repeats[k].counts[0] = total;
	}
	return ev->name && ev->requested && ev->pmu && ev->encoding && ev->unit ?
	       0 : error("out of memory");
}

static int replace_samples(struct profile *p, const struct lab_exact *x)
{
	struct profile_sample *s = calloc(x->ninsns + 1, sizeof(*s));
	size_t i;

	if (!s)
		return error("out of memory");
	for (i = 0; i < x->ninsns; i++)
		s[i] = (struct profile_sample){
			.event = 0, .cpu = x->insns[i].cpu, .ip = x->insns[i].ip,
			.role = lab_exact_role(p, (int)x->insns[i].cpu),
			.count = x->insns[i].n, .weight = x->insns[i].n,
		};
	free(p->samples);
	p->samples = s;
	p->nsamples = x->ninsns;
	return 0;
}

/* The address of a kernel text function in a kallsyms copy, 0 when it
 * has none (inlined, or another kernel's name). */
static uint64_t text_address(const char *kallsyms, const char *name)
{
	FILE *f = fopen(kallsyms, "r");
	char line[512];
	uint64_t addr = 0;

	while (f && !addr && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, sym[128], mod[8] = "";

		/* "ADDR t NAME" of vmlinux, not "ADDR t NAME [MODULE]" */
		if (sscanf(line, "%llx %c %127s %7s", &a, &type, sym, mod) >= 3 &&
		    (type == 't' || type == 'T') && !mod[0] && !strcmp(sym, name))
			addr = a;
	}
	if (f)
		fclose(f);
	return addr;
}

/* NAPI polls: the executions of the entry of __napi_poll (napi_poll on
 * kernels without it), each call once, as irqs of kind
 * PROFILE_IRQ_NAPI on every vCPU, zeros included (a zero is counted);
 * none when the kernel has neither function out of line. */
static int add_napi_polls(struct profile *p, const struct lab_exact *x,
			  const char *kallsyms)
{
	static const char *const names[] = { "__napi_poll", "napi_poll" };
	struct profile_irq *v;
	uint64_t addr = 0;
	size_t i, k;
	int cpu;

	for (k = 0; k < sizeof(names) / sizeof(names[0]) && !addr; k++)
		addr = text_address(kallsyms, names[k]);
	if (!addr)
		return 0;
	k--;
	v = realloc(p->irqs, (p->nirqs + (size_t)x->nvcpus) * sizeof(*v));
	if (!v)
		return error("out of memory");
	p->irqs = v;
	for (cpu = 0; cpu < x->nvcpus; cpu++) {
		uint64_t n = 0;

		for (i = 0; i < x->ninsns; i++)
			if (x->insns[i].ip == addr && x->insns[i].cpu == (uint32_t)cpu)
				n += x->insns[i].n;
		v[p->nirqs] = (struct profile_irq){
			.kind = strdup(PROFILE_IRQ_NAPI), .name = strdup(names[k]),
			.cpu = cpu, .count = n,
		};
		if (!v[p->nirqs].kind || !v[p->nirqs].name)
			return error("out of memory");
		p->nirqs++;
	}
	return 0;
}

int lab_exact_fold(struct profile *p, const struct lab_exact *x,
		   const char *kallsyms, const char *proc_modules)
{
	uint64_t kernel = 0, user = 0;
	char buf[256];
	int v;

	if (x->opens != 1 || x->closes != 1)
		return error("the QEMU plugin saw %llu window opens and %llu closes, "
			     "not one of each: the guest perpkt did not mark its "
			     "window (is it this perpkt's build?)",
			     (unsigned long long)x->opens, (unsigned long long)x->closes);
	if (!x->whole)
		return error("the QEMU plugin ran out of memory: its counts are not whole");
	if (p->nrepeats != 1)
		return error("the guest's profile has %zu windows, not one",
			     p->nrepeats);
	if (p->nsamples || p->nstacks)
		return error("the guest's profile has samples: was it recorded with "
			     "--window-marks?");
	if (replace_events(p, x) || replace_samples(p, x) ||
	    lab_exact_fold_paths(p, x, kallsyms) || add_napi_polls(p, x, kallsyms) ||
	    lab_exact_fold_cache(p, x))
		return -1;
	free(p->mode);
	p->mode = strdup(PROFILE_EXACT_MODE);
	for (v = 0; v < x->nvcpus; v++) {
		kernel += x->kernel[v];
		user += x->user[v];
	}
	snprintf(buf, sizeof(buf), "%llu kernel and %llu user instructions in the "
		 "window on %d vCPUs (%s), counted per translation block",
		 (unsigned long long)kernel, (unsigned long long)user, x->nvcpus,
		 x->target);
	if (profile_add_condition(p, "lab.exact", buf) || !p->mode)
		return error("out of memory");
	free(p->ksyms);
	p->ksyms = NULL;
	p->nksyms = 0;
	kernel_symbols_attach(p, kallsyms);
	kernel_modules_attach(p, "/nonexistent", proc_modules);
	return 0;
}
