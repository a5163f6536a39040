// SPDX-License-Identifier: GPL-2.0-only
#include "symsource.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "error.h"
#include "sysinfo.h"

#define PROC_KALLSYMS "/proc/kallsyms"
#define KERNEL_NOTES "/sys/kernel/notes"

static int open_entries(struct symbolizer **out, const struct profile *p)
{
	struct sym_entry *e = calloc(p->nksyms ? p->nksyms : 1, sizeof(*e));
	size_t i;
	int ret;

	if (!e)
		return error("out of memory");
	for (i = 0; i < p->nksyms; i++) {
		e[i].addr = p->ksyms[i].addr;
		e[i].size = p->ksyms[i].size;
		e[i].type = p->ksyms[i].type;
		e[i].name = p->ksyms[i].name;
		e[i].module = p->ksyms[i].module;
	}
	ret = symbolizer_open_entries(out, e, p->nksyms);
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
static int open_vmlinux_live(struct symbolizer **out, const char *path,
			     const struct symsource *src, int searched)
{
	struct symbolizer_options o = { .force = src->force,
					.text_addr = src->text_addr };
	char *running = sysinfo_build_id(KERNEL_NOTES);
	char *file_id = symbolizer_file_build_id(path);
	int live = running && file_id && !strcasecmp(running, file_id);
	int ret;

	o.build_id = src->build_id;
	/* Found by searching: it must be the running kernel's. */
	if (searched && !o.build_id)
		o.build_id = running;
	if (live && !o.text_addr) {
		struct symbolizer *k = NULL;

		/* Quietly: hidden addresses only mean no KASLR offset. */
		if (!symbolizer_open_kallsyms(&k, PROC_KALLSYMS))
			o.text_addr = symbolizer_text_addr(k);
		symbolizer_close(k);
	}
	ret = symbolizer_open_vmlinux(out, path, &o);
	free(running);
	free(file_id);
	return ret;
}

static int open_vmlinux_profile(struct symbolizer **out, const char *path,
				const struct symsource *src,
				const struct profile *p)
{
	struct symbolizer_options o = {
		.build_id = src->build_id ? src->build_id : p->build_id,
		.force = src->force,
		.text_addr = src->text_addr ? src->text_addr : p->text_addr,
	};
	int ret;

	o.modules = profile_modules(p, &o.nmodules);
	if (!o.modules)
		return error("out of memory");
	ret = symbolizer_open_vmlinux(out, path, &o);
	free((void *)o.modules);
	return ret;
}

/* A kallsyms file from another boot places every symbol elsewhere. */
static int check_kallsyms(struct symbolizer *s, const struct symsource *src,
			  const struct profile *p)
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
	return error("'%s' is from another boot: _text is 0x%llx there, 0x%llx in the profile; use the profile's own symbols or --force",
		     src->kallsyms, (unsigned long long)t,
		     (unsigned long long)p->text_addr);
}

static int open_source(struct symbolizer **out, const struct symsource *src,
		       const struct profile *p, const char **origin)
{
	struct utsname u;
	char *found;
	int ret;

	if (src->vmlinux) {
		*origin = src->vmlinux;
		return p ? open_vmlinux_profile(out, src->vmlinux, src, p) :
			   open_vmlinux_live(out, src->vmlinux, src, 0);
	}
	if (src->kallsyms) {
		*origin = src->kallsyms;
		if (symbolizer_open_kallsyms(out, src->kallsyms))
			return -1;
		return check_kallsyms(*out, src, p);
	}
	/* record --kernel --vmlinux named it, build-id checked: its DWARF,
	 * while the file is still there (checked again on opening) */
	if (p && (found = (char *)profile_condition(p, PROFILE_COND_VMLINUX)) &&
	    !access(found, R_OK)) {
		*origin = found;
		return open_vmlinux_profile(out, found, src, p);
	}
	if (p) {
		*origin = "profile";
		return open_entries(out, p);
	}
	if (!src->search)
		return error("no kernel symbols: give --vmlinux or --kallsyms");
	found = uname(&u) ? NULL : symbolizer_find_vmlinux(u.release);
	if (!found) {
		*origin = PROC_KALLSYMS;
		return symbolizer_open_kallsyms(out, PROC_KALLSYMS);
	}
	/* The name must outlive this call: keep the static copy. */
	ret = open_vmlinux_live(out, found, src, 1);
	*origin = "vmlinux";
	free(found);
	return ret;
}

int symsource_open(struct symbolizer **out, const struct symsource *src,
		   const struct profile *p, const char **origin)
{
	const char *dummy;

	*out = NULL;
	if (!origin)
		origin = &dummy;
	if (open_source(out, src, p, origin) ||
	    (src->buckets && symbolizer_load_buckets(*out, src->buckets))) {
		symbolizer_close(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
