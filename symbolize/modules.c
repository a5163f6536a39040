// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module addresses with the module's own DWARF. A .ko is relocatable:
 * libdwfl lays its sections out when it reports it offline (and applies
 * the DWARF's relocations against that layout), so an address at
 * runtime base B of section S, found at layout address L, is at
 * L + (addr - B) in the module's DWARF. The runtime bases come from the
 * profile, recorded from /sys/module/NAME/sections/ at record time.
 */
#include "symbolize.h"

#include <elfutils/libdwfl.h>
#include <fts.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-internal.h"

/* Module names say '_' where file names may say '-' (kallsyms shows
 * "nf_conntrack" for nf-conntrack.ko): compared alike. */
static int same_module(const char *file, size_t len, const char *name)
{
	size_t i;

	if (strlen(name) != len)
		return 0;
	for (i = 0; i < len; i++) {
		char a = file[i] == '-' ? '_' : file[i];
		char b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return 0;
	}
	return 1;
}

/* NAME.ko or NAME.ko.debug (uncompressed: libelf reads no .ko.xz). */
static int is_module_file(const char *base, const char *name)
{
	const char *dot = strstr(base, ".ko");

	return dot && (!strcmp(dot, ".ko") || !strcmp(dot, ".ko.debug")) &&
	       same_module(base, dot - base, name);
}

/* The first NAME.ko(.debug) under dir, malloc'd; NULL if none. */
static char *find_in(const char *dir, const char *name)
{
	char *const roots[] = { (char *)dir, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	char *found = NULL;

	if (!fts)
		return NULL;
	while (!found && (e = fts_read(fts)))
		if (e->fts_info == FTS_F && is_module_file(e->fts_name, name))
			found = strdup(e->fts_path);
	fts_close(fts);
	return found;
}

static char *find_module(const struct symbolizer_options *o, const char *name)
{
	static const char *const roots[] = {
		"/usr/lib/debug/lib/modules/%s", "/lib/modules/%s",
	};
	char *found = NULL, *dir;
	size_t i;

	if (o->modules_dir)
		return find_in(o->modules_dir, name);
	for (i = 0; !found && o->release && i < 2; i++) {
		if (asprintf(&dir, roots[i], o->release) < 0)
			return NULL;
		found = find_in(dir, name);
		free(dir);
	}
	return found;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Each recorded section found in the file, with its DWARF address. */
static int map_sections(struct kmod *m, Dwfl_Module *mod, Dwarf_Addr dwbias,
			const struct sym_module *lm)
{
	Dwarf_Addr ebias;
	Elf *elf = dwfl_module_getelf(mod, &ebias);
	size_t shstrndx, i;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	m->secs = calloc(lm->nsections ? lm->nsections : 1, sizeof(*m->secs));
	if (!m->secs)
		return -1;
	for (i = 0; i < lm->nsections; i++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *sn;

			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
			    !(sn = elf_strptr(elf, shstrndx, sh.sh_name)) ||
			    strcmp(sn, lm->sections[i].name))
				continue;
			m->secs[m->nsecs++] = (struct kmod_sec){
				.addr = lm->sections[i].addr, .size = sh.sh_size,
				.dwarf = sh.sh_addr + ebias - dwbias,
			};
			break;
		}
	}
	return 0;
}

static void open_one(struct kmod *m, const struct sym_module *lm,
		     const struct symbolizer_options *o,
		     const struct srcindex *kernel, struct sym_msgs *w)
{
	char *path = find_module(o, lm->name);
	Dwfl_Module *mod;
	Dwarf_Addr dwbias;
	Dwarf *dw;
	Dwfl *dwfl;

	if (!path) {
		msgs_add(w, "no %s.ko or %s.ko.debug under %s: addresses in module '%s' get function names only (give --modules DIR)",
			 lm->name, lm->name, o->modules_dir ? o->modules_dir :
			 "/usr/lib/debug/lib/modules and /lib/modules",
			 lm->name);
		return;
	}
	dwfl = dwfl_begin(&callbacks);
	m->dwfl = dwfl;
	mod = dwfl ? dwfl_report_offline(dwfl, lm->name, path, -1) : NULL;
	if (!mod || dwfl_report_end(dwfl, NULL, NULL) ||
	    !(dw = dwfl_module_getdwarf(mod, &dwbias)) ||
	    map_sections(m, mod, dwbias, lm)) {
		msgs_add(w, "cannot read the DWARF of module '%s' from '%s' (%s): its addresses get function names only",
			 lm->name, path, dwfl_errmsg(-1));
		goto fail;
	}
	if (!m->nsecs) {
		msgs_add(w, "none of the recorded sections of module '%s' is in '%s': is it that module's build?",
			 lm->name, path);
		goto fail;
	}
	m->dw = srcindex_new(dw, path, kernel, NULL, NULL, w);
	if (!m->dw)
		goto fail;
	free(path);
	return;
fail:
	free(path);
	free(m->secs);
	m->secs = NULL;
	m->nsecs = 0;
	if (m->dwfl)
		dwfl_end(m->dwfl);
	m->dwfl = NULL;
}

int kmods_open(struct symbolizer *s, const struct symbolizer_options *o,
	       struct sym_msgs *w)
{
	size_t i;

	if (!o->nloaded)
		return 0;
	s->kmods = calloc(o->nloaded, sizeof(*s->kmods));
	if (!s->kmods)
		return -1;
	for (i = 0; i < o->nloaded; i++) {
		struct kmod *m = &s->kmods[s->nkmods];

		if (!o->loaded[i].name || !(m->name = strdup(o->loaded[i].name)))
			continue;
		s->nkmods++;
		open_one(m, &o->loaded[i], o, s->dw, w);
	}
	return 0;
}

const struct kmod *kmod_find(const struct symbolizer *s, const char *name)
{
	size_t i;

	for (i = 0; name && i < s->nkmods; i++)
		if (s->kmods[i].dw && !strcmp(s->kmods[i].name, name))
			return &s->kmods[i];
	return NULL;
}

int kmod_dwarf_addr(const struct kmod *m, uint64_t addr, uint64_t *out)
{
	size_t i;

	for (i = 0; i < m->nsecs; i++)
		if (addr >= m->secs[i].addr &&
		    addr - m->secs[i].addr < m->secs[i].size) {
			*out = m->secs[i].dwarf + (addr - m->secs[i].addr);
			return 0;
		}
	return -1;
}

void kmods_free(struct symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->nkmods; i++) {
		srcindex_free(s->kmods[i].dw);
		if (s->kmods[i].dwfl)
			dwfl_end(s->kmods[i].dwfl);
		free(s->kmods[i].secs);
		free(s->kmods[i].name);
	}
	free(s->kmods);
}
