// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel's own tables say about a profile's addresses: the
 * kallsyms entries they fall in, so a report can name them anywhere,
 * and where the modules among them were loaded: the runtime address of
 * each text section, so a report can place the module's own DWARF
 * later (addresses in a .ko are section offsets). Sections are read
 * from /sys/module/NAME/sections/ (root only; every section there,
 * .text.unlikely and .init.text too), else the module's base from
 * /proc/modules, taken as its .text.
 */
#include "system/kernel-symbols.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/nameset.h"
#include "system/host-kallsyms.h"
#include "symbolize/symbolize.h"

static int cmp_ksym(const void *a, const void *b)
{
	const struct profile_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every kernel address the profile refers to: the sampled IPs and, with
 * -g, every callchain frame, so callers resolve without --kallsyms. */
static uint64_t *profile_addresses(const struct profile *p, size_t *n)
{
	size_t i, k = p->nsamples;
	uint64_t *a;
	uint32_t d;

	for (i = 0; i < p->nstacks; i++)
		k += p->stacks[i].depth;
	a = malloc((k ? k : 1) * sizeof(*a));
	if (!a)
		return NULL;
	k = 0;
	for (i = 0; i < p->nsamples; i++)
		a[k++] = p->samples[i].ip;
	for (i = 0; i < p->nstacks; i++)
		for (d = 0; d < p->stacks[i].depth; d++)
			a[k++] = p->stacks[i].ips[d];
	/* each once: a 60 s -a -g refers to 160,000 addresses, 30,000
	 * distinct, and a symbol slot is made for each */
	if (k > 1)
		qsort(a, k, sizeof(*a), cmp_u64);
	for (i = 0, *n = 0; i < k; i++)
		if (!*n || a[*n - 1] != a[i])
			a[(*n)++] = a[i];
	return a;
}

/* Every text function's name, compact: diff --fail-if tells a function
 * of this kernel that no sample fell in from a misspelt name. */
static void kernel_functions_attach(struct profile *p, struct symbolizer *sym)
{
	size_t n;
	const char **names = symbolizer_function_names(sym, &n);

	free(p->kernel_functions);
	p->kernel_functions = names ? nameset_build(names, n) : NULL;
	free(names);
}

void kernel_symbols_attach(struct profile *p, const char *kallsyms)
{
	struct sym_error err;
	struct symbolizer *sym;
	size_t i, n = 0, naddr = 0;
	uint64_t *addr;
	int cached = 0;

	addr = profile_addresses(p, &naddr);
	/* this boot's own: from perpkt's copy where that names them alike */
	if (strcmp(kallsyms, "/proc/kallsyms") ?
	    symbolizer_open_kallsyms(&sym, kallsyms, &err) :
	    host_kallsyms_open(&sym, addr, addr ? naddr : 0, &cached, &err)) {
		warning("%s: the profile will carry no symbols, reports show raw addresses",
			err.msg);
		free(addr);
		return;
	}
	if (cached && diag_verbosity() >= DIAG_VERBOSE)
		info("kernel symbols from perpkt's copy of this boot's /proc/kallsyms "
			"(every address in the kernel's own text)");
	p->text_addr = symbolizer_text_addr(sym);
	p->ksyms = addr ? calloc(naddr ? naddr : 1, sizeof(*p->ksyms)) : NULL;
	for (i = 0; p->ksyms && i < naddr; i++) {
		struct sym_entry e;

		if (symbolizer_symbol(sym, addr[i], &e))
			continue;
		p->ksyms[n].addr = e.addr;
		p->ksyms[n].size = e.size;
		p->ksyms[n].type = e.type;
		p->ksyms[n].name = (char *)e.name;    /* copied below, once unique */
		p->ksyms[n].module = (char *)e.module;
		n++;
	}
	free(addr);
	kernel_functions_attach(p, sym);
	if (!p->ksyms)
		warning("out of memory: the profile carries no symbols");
	else if (n > 1)
		qsort(p->ksyms, n, sizeof(*p->ksyms), cmp_ksym);
	p->nksyms = 0;
	for (i = 0; i < n; i++) {
		struct profile_ksym k = p->ksyms[i];

		if (p->nksyms && p->ksyms[p->nksyms - 1].addr == k.addr)
			continue;
		k.name = strdup(k.name);
		k.module = k.module ? strdup(k.module) : NULL;
		p->ksyms[p->nksyms++] = k;
	}
	/* sized for every address (8 MiB for a 60 s -a -g), kept for the
	 * few thousand symbols they fall in: the rest back before the
	 * profile's document is built */
	if (p->ksyms && p->nksyms) {
		struct profile_ksym *fit = realloc(p->ksyms, p->nksyms * sizeof(*fit));

		if (fit)
			p->ksyms = fit;
	}
	symbolizer_close(sym);
}

/* One "0xADDR" file; 0 when unreadable (kptr_restrict shows zeros). */
static uint64_t read_addr(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llx", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int add_section(struct profile_module *m, const char *name,
		       uint64_t addr)
{
	struct profile_section *v = realloc(m->sections, (m->nsections + 1) *
					    sizeof(*v));

	if (!v)
		return -1;
	m->sections = v;
	v[m->nsections].name = strdup(name);
	v[m->nsections].addr = addr;
	if (!v[m->nsections].name)
		return -1;
	m->nsections++;
	return 0;
}

/* Text sections of one module from sysfs: names with "text" in them. */
static void from_sysfs(struct profile_module *m, const char *sys_module)
{
	char dir[512], path[1024];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s/sections", sys_module, m->name);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		uint64_t a;

		if (e->d_name[0] != '.' || !strstr(e->d_name, "text"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		a = read_addr(path);
		if (a && add_section(m, e->d_name, a))
			break;
	}
	closedir(d);
}

/* "name size refs deps state 0xADDR" lines: the base as .text. */
static void from_proc(struct profile_module *m, const char *proc_modules)
{
	char line[1024], name[256];
	unsigned long long a;
	FILE *f = fopen(proc_modules, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %*s %*s %*s %*s %llx", name, &a) == 2 &&
		    !strcmp(name, m->name) && a) {
			add_section(m, ".text", a);
			break;
		}
	fclose(f);
}

void kernel_modules_attach(struct profile *p, const char *sys_module,
			   const char *proc_modules)
{
	size_t i, j;

	for (i = 0; i < p->nksyms; i++) {
		const char *name = p->ksyms[i].module;
		struct profile_module *m, *v;

		if (!name)
			continue;
		for (j = 0; j < p->nmodules; j++)
			if (!strcmp(p->modules[j].name, name))
				break;
		if (j < p->nmodules)
			continue;
		v = realloc(p->modules, (p->nmodules + 1) * sizeof(*v));
		if (!v)
			return;
		p->modules = v;
		m = &v[p->nmodules];
		memset(m, 0, sizeof(*m));
		if (!(m->name = strdup(name)))
			return;
		p->nmodules++;
		from_sysfs(m, sys_module);
		if (!m->nsections)
			from_proc(m, proc_modules);
	}
}
