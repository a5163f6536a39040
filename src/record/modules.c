// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the modules the samples fall in were loaded: the runtime
 * address of each text section, so a report can place the module's own
 * DWARF later (addresses in a .ko are section offsets). Read at record
 * time from /sys/module/NAME/sections/ (root only; every section there,
 * .text.unlikely and .init.text too), else the module's base from
 * /proc/modules, taken as its .text.
 */
#include "record/internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void record_attach_modules(struct profile *p, const char *sys_module,
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
