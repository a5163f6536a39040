// SPDX-License-Identifier: GPL-2.0-only
#include "commands/symsource.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "error.h"
#include "lab/arch.h"

#define PROC_KALLSYMS "/proc/kallsyms"
#define KERNEL_NOTES "/sys/kernel/notes"

/* Every failure here ends as one error() in symsource_open. */
static int fail(struct sym_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct sym_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void symsource_print_warnings(struct symbolizer *s)
{
	const char *w;

	while ((w = symbolizer_warning(s)))
		warning("%s", w);
}

static int open_entries(struct symbolizer **out, const struct profile *p,
			struct sym_error *err)
{
	struct sym_entry *e = calloc(p->nksyms ? p->nksyms : 1, sizeof(*e));
	size_t i;
	int ret;

	if (!e)
		return fail(err, "out of memory");
	for (i = 0; i < p->nksyms; i++) {
		e[i].addr = p->ksyms[i].addr;
		e[i].size = p->ksyms[i].size;
		e[i].type = p->ksyms[i].type;
		e[i].name = p->ksyms[i].name;
		e[i].module = p->ksyms[i].module;
	}
	ret = symbolizer_open_entries(out, e, p->nksyms, err);
	free(e);
	return ret;
}

/* Module entries of a profile, for a vmlinux that lacks them. */
static struct sym_entry *profile_modules(const struct profile *p, size_t *n)
{
	struct sym_entry *e;
	size_t i;

	*n = 0;
	e = calloc(p->nksyms ? p->nksyms : 1, sizeof(*e));
	if (!e)
		return NULL;
	for (i = 0; i < p->nksyms; i++) {
		if (!p->ksyms[i].module)
			continue;
		e[*n].addr = p->ksyms[i].addr;
		e[*n].type = p->ksyms[i].type;
		e[*n].name = p->ksyms[i].name;
		e[*n].module = p->ksyms[i].module;
		(*n)++;
	}
	return e;
}

/*
 * A vmlinux with no profile: when it is the running kernel's build,
 * the running _text undoes KASLR; otherwise addresses are taken as
 * link addresses (they cannot be checked against anything).
 */
/* Where a vmlinux's decoded line tables are kept between runs
 * (symbolizer_options.cache_dir); NULL when the path is too long. */
static const char *lines_cache(void)
{
	static char dir[4096];

	return lab_arch_path("dwarf-lines", dir, sizeof(dir)) ? NULL : dir;
}

static int open_vmlinux_live(struct symbolizer **out, const char *path,
			     const struct symsource *src, int searched,
			     struct sym_error *err)
{
	struct symbolizer_options o = { .force = src->force,
					.text_addr = src->text_addr };
	char *running = symbolizer_notes_build_id(KERNEL_NOTES);
	struct utsname u;
	char *file_id = symbolizer_file_build_id(path);
	int live = running && file_id && !strcasecmp(running, file_id);
	int ret;

	o.build_id = src->build_id;
	o.machine = uname(&u) ? NULL : u.machine;
	/* Found by searching: it must be the running kernel's. */
	if (searched && !o.build_id)
		o.build_id = running;
	if (live && !o.text_addr) {
		struct symbolizer *k = NULL;

		/* Quietly: hidden addresses only mean no KASLR offset. */
		if (!symbolizer_open_kallsyms(&k, PROC_KALLSYMS, NULL))
			o.text_addr = symbolizer_text_addr(k);
		symbolizer_close(k);
	}
	o.cache_dir = lines_cache();
	ret = symbolizer_open_vmlinux(out, path, &o, err);
	free(running);
	free(file_id);
	return ret;
}

static int open_vmlinux_profile(struct symbolizer **out, const char *path,
				const struct symsource *src,
				const struct profile *p, struct sym_error *err)
{
	struct symbolizer_options o = {
		.build_id = src->build_id ? src->build_id : p->build_id,
		.force = src->force,
		.text_addr = src->text_addr ? src->text_addr : p->text_addr,
	};
	struct sym_module *loaded;
	struct sym_section *secs;
	size_t i, j, nsecs = 0;
	int ret;

	o.machine = p->machine;
	o.release = p->kernel_release;
	o.modules_dir = src->modules;
	for (i = 0; i < p->nmodules; i++)
		nsecs += p->modules[i].nsections;
	loaded = calloc(p->nmodules ? p->nmodules : 1, sizeof(*loaded));
	secs = calloc(nsecs ? nsecs : 1, sizeof(*secs));
	o.modules = profile_modules(p, &o.nmodules);
	if (!o.modules || !loaded || !secs) {
		free((void *)o.modules);
		free(loaded);
		free(secs);
		return fail(err, "out of memory");
	}
	for (i = 0, nsecs = 0; i < p->nmodules; i++) {
		loaded[i].name = p->modules[i].name;
		loaded[i].sections = secs + nsecs;
		loaded[i].nsections = p->modules[i].nsections;
		for (j = 0; j < p->modules[i].nsections; j++, nsecs++)
			secs[nsecs] = (struct sym_section){
				p->modules[i].sections[j].name,
				p->modules[i].sections[j].addr };
	}
	o.loaded = loaded;
	o.nloaded = p->nmodules;
	o.cache_dir = lines_cache();
	ret = symbolizer_open_vmlinux(out, path, &o, err);
	free((void *)o.modules);
	free(loaded);
	free(secs);
	return ret;
}

/* A kallsyms file from another boot places every symbol elsewhere. */
static int check_kallsyms(struct symbolizer *s, const struct symsource *src,
			  const struct profile *p, struct sym_error *err)
{
	uint64_t t = symbolizer_text_addr(s);

	if (!p || !p->text_addr || !t || t == p->text_addr)
		return 0;
	if (src->force) {
		warning("'%s' is from another boot (_text 0x%llx, profile 0x%llx): accepted (--force)",
			src->kallsyms, (unsigned long long)t,
			(unsigned long long)p->text_addr);
		return 0;
	}
	return fail(err, "'%s' is from another boot: _text is 0x%llx there, 0x%llx in the profile; use the profile's own symbols or --force",
		     src->kallsyms, (unsigned long long)t,
		     (unsigned long long)p->text_addr);
}

static int open_source(struct symbolizer **out, const struct symsource *src,
		       const struct profile *p, const char **origin,
		       struct sym_error *err)
{
	struct utsname u;
	char *found;
	int ret;

	if (src->vmlinux) {
		*origin = src->vmlinux;
		return p ? open_vmlinux_profile(out, src->vmlinux, src, p, err) :
			   open_vmlinux_live(out, src->vmlinux, src, 0, err);
	}
	if (src->kallsyms) {
		*origin = src->kallsyms;
		if (symbolizer_open_kallsyms(out, src->kallsyms, err))
			return -1;
		return check_kallsyms(*out, src, p, err);
	}
	/* record --kernel --vmlinux named it, build-id checked: its DWARF,
	 * while the file is still there (checked again on opening) */
	if (p && (found = (char *)profile_condition(p, PROFILE_COND_VMLINUX)) &&
	    !access(found, R_OK)) {
		*origin = found;
		return open_vmlinux_profile(out, found, src, p, err);
	}
	if (p) {
		*origin = "profile";
		return open_entries(out, p, err);
	}
	if (!src->search)
		return fail(err, "no kernel symbols: give --vmlinux or --kallsyms");
	found = uname(&u) ? NULL : symbolizer_find_vmlinux(u.release);
	if (!found) {
		*origin = PROC_KALLSYMS;
		return symbolizer_open_kallsyms(out, PROC_KALLSYMS, err);
	}
	/* The name must outlive this call: keep the static copy. */
	ret = open_vmlinux_live(out, found, src, 1, err);
	*origin = "vmlinux";
	free(found);
	return ret;
}

int symsource_open(struct symbolizer **out, const struct symsource *src,
		   const struct profile *p, const char **origin)
{
	struct sym_error err = { "" };
	const char *dummy;

	*out = NULL;
	if (!origin)
		origin = &dummy;
	if (open_source(out, src, p, origin, &err) ||
	    (src->buckets &&
	     symbolizer_load_buckets(*out, src->buckets, &err))) {
		error("%s", err.msg);
		symbolizer_close(*out);
		*out = NULL;
		return -1;
	}
	symsource_print_warnings(*out);
	return 0;
}
