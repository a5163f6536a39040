// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a vmlinux: checks that name what is wrong with a bad file
 * (not ELF, truncated, stripped, another kernel's build), the symbol
 * table as a sorted array in runtime addresses (KASLR applied), and
 * DWARF through libdwfl when the file has it.
 */
#include "symbolize.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize-internal.h"

struct vmlinux_file {
	int fd;
	Elf *elf;       /* symbol names point into its string table */
	Dwfl *dwfl;     /* NULL without DWARF */
};

/* Where distributions and kernel builds put it, first match wins. */
static const char *const search_path[] = {
	"/usr/lib/debug/boot/vmlinux-%s",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/usr/lib/debug/vmlinux-%s",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
	"/lib/modules/%s/vmlinux",
};

char *symbolizer_find_vmlinux(const char *release)
{
	size_t i;

	for (i = 0; release && i < sizeof(search_path) / sizeof(search_path[0]);
	     i++) {
		char *p;

		if (asprintf(&p, search_path[i], release) < 0)
			return NULL;
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

static char *hex_of(const unsigned char *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *hex = malloc(n * 2 + 1);
	size_t i;

	if (!hex)
		return NULL;
	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[b[i] >> 4];
		hex[2 * i + 1] = digits[b[i] & 15];
	}
	hex[2 * n] = '\0';
	return hex;
}

static char *elf_build_id(Elf *elf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);

	return n > 0 ? hex_of(id, n) : NULL;
}

/* The kernel's notes are ELF notes without an ELF file around them:
 * libelf reads them from an Elf_Data of type ELF_T_NHDR. */
char *symbolizer_notes_build_id(const char *path)
{
	unsigned char buf[4096];
	Elf_Data d = { .d_buf = buf, .d_type = ELF_T_NHDR,
		       .d_version = EV_CURRENT };
	size_t off = 0, noff, doff, next;
	GElf_Nhdr nh;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return NULL;
	d.d_size = n;
	elf_version(EV_CURRENT);
	while ((next = gelf_getnote(&d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + noff, "GNU", 4) && nh.n_descsz)
			return hex_of(buf + doff, nh.n_descsz);
		off = next;
	}
	return NULL;
}

struct elf_facts {
	int has_symtab;
	int has_debug_info;
};

/* Each check names the problem: libelf's own messages ("invalid
 * section") would not tell the user what to do. */
static int check_elf(Elf *elf, const char *path, off_t fsize,
		     struct elf_facts *f, struct sym_error *err)
{
	size_t shstrndx, nsec;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	memset(f, 0, sizeof(*f));
	if (elf_kind(elf) != ELF_K_ELF)
		return sym_fail(err, "'%s' is not an ELF file: give a vmlinux with --vmlinux",
			     path);
	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &nsec) ||
	    elf_getshdrstrndx(elf, &shstrndx))
		return sym_fail(err, "'%s' has a corrupt ELF header: %s", path,
			     elf_errmsg(-1));
	if (eh.e_shoff + (uint64_t)nsec * eh.e_shentsize > (uint64_t)fsize)
		return sym_fail(err, "'%s' is truncated: its section headers end past its %lld bytes",
			     path, (long long)fsize);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return sym_fail(err, "'%s' is not a linked kernel image (ELF type %u): give vmlinux, not an object file",
			     path, eh.e_type);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return sym_fail(err, "'%s' has a corrupt section header: %s",
				     path, elf_errmsg(-1));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size > (uint64_t)fsize)
			return sym_fail(err, "'%s' is truncated: section '%s' ends at byte %llu, the file has %lld",
				     path, name ? name : "?",
				     (unsigned long long)(sh.sh_offset + sh.sh_size),
				     (long long)fsize);
		if (sh.sh_type == SHT_SYMTAB)
			f->has_symtab = 1;
		if (name && (!strcmp(name, ".debug_info") ||
			     !strcmp(name, ".zdebug_info")))
			f->has_debug_info = 1;
	}
	if (!f->has_symtab)
		return sym_fail(err, "'%s' is stripped (no symbol table): use the unstripped vmlinux (e.g. from the -dbg package) or --kallsyms",
			     path);
	return 0;
}

char *symbolizer_file_build_id(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *id = NULL;
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		id = elf_build_id(elf);
	elf_end(elf);
	close(fd);
	return id;
}

static int is_text_section(Elf *elf, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* Text symbols, as kallsyms would list them, in link addresses. */
static int read_symtab(Elf *elf, const char *path, struct sym **out,
		       size_t *nout, size_t extra, struct sym_error *err)
{
	Elf_Scn *scn = NULL;
	struct sym *syms = NULL;
	size_t n = 0;
	/* Section flags looked up once per section, not once per symbol. */
	signed char *is_text = NULL;
	size_t nsec;

	*out = NULL;
	if (elf_getshdrnum(elf, &nsec))
		return sym_fail(err, "'%s': %s", path, elf_errmsg(-1));
	is_text = calloc(nsec ? nsec : 1, 1);
	if (!is_text)
		return sym_fail(err, "out of memory reading symbols of '%s'", path);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		/* Checked before libelf is asked: with entsize 0 it
		 * fails without saying why ("no error"). */
		if (sh.sh_entsize != gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT)) {
			free(is_text);
			return sym_fail(err, "'%s' has a corrupt symbol table: entry size %llu, not %zu",
					path, (unsigned long long)sh.sh_entsize,
					gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT));
		}
		d = elf_getdata(scn, NULL);
		if (!d) {
			free(is_text);
			return sym_fail(err, "'%s' has a corrupt symbol table: %s",
				     path, elf_errmsg(-1));
		}
		count = sh.sh_size / sh.sh_entsize;
		syms = calloc(count + extra + 1, sizeof(*syms));
		if (!syms) {
			free(is_text);
			return sym_fail(err, "out of memory for %zu symbols of '%s'",
				     count, path);
		}
		for (i = 1; i < count; i++) {
			GElf_Sym s;
			const char *name;
			int type;

			if (!gelf_getsym(d, i, &s))
				continue;
			type = GELF_ST_TYPE(s.st_info);
			if ((type != STT_FUNC && type != STT_NOTYPE) ||
			    s.st_shndx == SHN_UNDEF || s.st_shndx >= nsec ||
			    !s.st_value)
				continue;
			if (!is_text[s.st_shndx])
				is_text[s.st_shndx] =
					is_text_section(elf, s.st_shndx) ? 1 : -1;
			if (is_text[s.st_shndx] < 0)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name || !strncmp(name, ".L", 2))
				continue;
			syms[n].addr = s.st_value;
			syms[n].name = name;
			switch (GELF_ST_BIND(s.st_info)) {
			case STB_GLOBAL: syms[n].type = 'T'; break;
			case STB_WEAK: syms[n].type = 'W'; break;
			default: syms[n].type = 't'; break;
			}
			n++;
		}
		break;
	}
	free(is_text);
	if (!n) {
		free(syms);
		return sym_fail(err, "no text symbols in '%s': is it a vmlinux?", path);
	}
	*out = syms;
	*nout = n;
	return 0;
}

static uint64_t link_text(const struct sym *syms, size_t n)
{
	uint64_t stext = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(syms[i].name, "_text"))
			return syms[i].addr;
		if (!strcmp(syms[i].name, "_stext"))
			stext = syms[i].addr;
	}
	return stext;
}

/* Module entries copied behind the core symbols; their strings in one
 * buffer that the symbolizer then owns. */
static char *add_modules(struct sym *syms, size_t *n,
			 const struct symbolizer_options *o)
{
	size_t i, len = 1, off = 0;
	char *strings;

	for (i = 0; i < o->nmodules; i++)
		if (o->modules[i].module && o->modules[i].name)
			len += strlen(o->modules[i].name) +
			       strlen(o->modules[i].module) + 2;
	strings = malloc(len);
	if (!strings)
		return NULL;
	for (i = 0; i < o->nmodules; i++) {
		const struct sym_entry *e = &o->modules[i];
		struct sym *y = &syms[*n];

		if (!e->module || !e->name)
			continue;
		memset(y, 0, sizeof(*y));
		y->addr = e->addr;
		y->type = e->type;
		y->name = strings + off;
		off += stpcpy(strings + off, e->name) - (strings + off) + 1;
		y->module = strings + off;
		off += stpcpy(strings + off, e->module) - (strings + off) + 1;
		(*n)++;
	}
	return strings;
}

static int check_build_id(Elf *elf, const char *path,
			  const struct symbolizer_options *o,
			  struct sym_msgs *w, struct sym_error *err)
{
	char *id;

	if (!o->build_id || !*o->build_id)
		return 0;
	id = elf_build_id(elf);
	if (!id) {
		msgs_add(w, "'%s' has no build-id: cannot check that it matches the kernel (%s)",
			path, o->build_id);
		return 0;
	}
	if (strcasecmp(id, o->build_id)) {
		if (o->force) {
			msgs_add(w, "build-id mismatch accepted (--force): kernel %s, '%s' %s: results may be wrong",
				o->build_id, path, id);
		} else {
			sym_fail(err, "build-id mismatch: the kernel is %s but '%s' is %s; give the vmlinux of that kernel, or --force",
			      o->build_id, path, id);
			free(id);
			return -1;
		}
	}
	free(id);
	return 0;
}

/* uname -m names and the ELF machines their kernels are built for. */
static const struct {
	const char *uname;
	unsigned em;
	const char *elf;        /* as the message names it */
} machines[] = {
	{ "x86_64", EM_X86_64, "x86-64" },
	{ "i386", EM_386, "i386" }, { "i486", EM_386, "i386" },
	{ "i586", EM_386, "i386" }, { "i686", EM_386, "i386" },
	{ "aarch64", EM_AARCH64, "AArch64" }, { "arm64", EM_AARCH64, "AArch64" },
	{ "armv7l", EM_ARM, "ARM" }, { "armv6l", EM_ARM, "ARM" },
	{ "riscv64", EM_RISCV, "RISC-V" },
	{ "ppc64", EM_PPC64, "PowerPC64" }, { "ppc64le", EM_PPC64, "PowerPC64" },
	{ "s390x", EM_S390, "S/390" },
	{ "mips64", EM_MIPS, "MIPS" }, { "mips", EM_MIPS, "MIPS" },
	{ "loongarch64", 258 /* EM_LOONGARCH */, "LoongArch" },
	{ "sparc64", EM_SPARCV9, "SPARC v9" },
};

static const char *em_name(unsigned em)
{
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].em == em)
			return machines[i].elf;
	return NULL;
}

/* A vmlinux of another architecture has symbols at plausible addresses
 * and gives confident, wrong answers: refuse it. */
static int check_machine(Elf *elf, const char *path,
			 const struct symbolizer_options *o,
			 struct sym_msgs *w, struct sym_error *err)
{
	const char *have;
	GElf_Ehdr eh;
	size_t i;

	if (!o->machine || !gelf_getehdr(elf, &eh))
		return 0;
	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].uname, o->machine))
			break;
	if (i == sizeof(machines) / sizeof(machines[0]) ||
	    machines[i].em == eh.e_machine)
		return 0;
	have = em_name(eh.e_machine);
	if (o->force) {
		msgs_add(w, "'%s' is built for %s (ELF machine %u), the kernel is %s: accepted (--force), results will be wrong",
			 path, have ? have : "another architecture",
			 eh.e_machine, o->machine);
		return 0;
	}
	return sym_fail(err, "'%s' is built for %s (ELF machine %u) but the kernel is %s: give the vmlinux of that kernel",
			path, have ? have : "another architecture", eh.e_machine,
			o->machine);
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* DWARF via libdwfl; NULL (after a warning) when the file has none. */
static void *open_dwarf(struct vmlinux_file *vm, const char *path,
			const struct elf_facts *f, struct sym_msgs *w)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw;

	if (!f->has_debug_info) {
		msgs_add(w, "'%s' has no DWARF: file:line and inline chains are unavailable, buckets come from function names",
			path);
		return NULL;
	}
	vm->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!vm->dwfl)
		goto fail;
	mod = dwfl_report_offline(vm->dwfl, "vmlinux", path, -1);
	if (!mod || dwfl_report_end(vm->dwfl, NULL, NULL))
		goto fail;
	dw = dwfl_module_getdwarf(mod, &bias);
	/* An ET_EXEC reported offline sits at its link addresses. */
	if (!dw || bias)
		goto fail;
	return dw;
fail:
	msgs_add(w, "cannot read the DWARF of '%s' (%s): file:line and inline chains are unavailable",
		path, dwfl_errmsg(-1));
	if (vm->dwfl)
		dwfl_end(vm->dwfl);
	vm->dwfl = NULL;
	return NULL;
}

int symbolizer_open_vmlinux(struct symbolizer **out, const char *path,
			    const struct symbolizer_options *opts,
			    struct sym_error *err)
{
	struct sym_msgs w = { NULL, 0, 0 };
	static const struct symbolizer_options none;
	const struct symbolizer_options *o = opts ? opts : &none;
	struct vmlinux_file *vm;
	struct elf_facts facts;
	struct sym *syms;
	struct stat st;
	uint64_t ltext;
	size_t n = 0, i;
	char *strings;
	void *dw;

	*out = NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return sym_fail(err, "out of memory opening '%s'", path);
	vm->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vm->fd < 0) {
		sym_fail(err, "cannot open vmlinux '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(vm->fd, &st) || !S_ISREG(st.st_mode)) {
		sym_fail(err, "'%s' is not a regular file: give a vmlinux", path);
		goto fail;
	}
	elf_version(EV_CURRENT);
	vm->elf = elf_begin(vm->fd, ELF_C_READ_MMAP, NULL);
	if (!vm->elf) {
		sym_fail(err, "cannot read '%s' as ELF: %s", path, elf_errmsg(-1));
		goto fail;
	}
	if (check_elf(vm->elf, path, st.st_size, &facts, err) ||
	    check_machine(vm->elf, path, o, &w, err) ||
	    check_build_id(vm->elf, path, o, &w, err) ||
	    read_symtab(vm->elf, path, &syms, &n, o->nmodules, err))
		goto fail;

	ltext = link_text(syms, n);
	if (o->text_addr && !ltext) {
		msgs_add(&w, "no _text or _stext in '%s': addresses taken as link addresses (KASLR not undone)",
			path);
	}
	for (i = 0; i < n; i++)
		syms[i].addr += o->text_addr && ltext ? o->text_addr - ltext : 0;
	strings = add_modules(syms, &n, o);
	if (!strings) {
		free(syms);
		sym_fail(err, "out of memory for the module symbols of '%s'", path);
		goto fail;
	}
	dw = open_dwarf(vm, path, &facts, &w);
	if (symbolizer_build(out, syms, n, strings, path, 0, err))
		goto fail;
	(*out)->vm = vm;
	(*out)->bias = o->text_addr && ltext ? o->text_addr - ltext : 0;
	/* Unreadable DWARF (warned about) still leaves the symbols. */
	if (dw) {
		/* the line tables kept per build-id: no id, no cache */
		char *id = o->cache_dir ? elf_build_id(vm->elf) : NULL;

		(*out)->dw = srcindex_new(dw, path, NULL, o->cache_dir, id, &w);
		free(id);
	}
	if (kmods_open(*out, o, &w)) {
		symbolizer_close(*out);
		*out = NULL;
		msgs_free(&w);
		return sym_fail(err, "out of memory for the modules of '%s'",
				path);
	}
	msgs_move(&(*out)->warnings, &w);
	return 0;
fail:
	msgs_free(&w);
	vmlinux_file_close(vm);
	return -1;
}

void vmlinux_file_close(struct vmlinux_file *vm)
{
	if (!vm)
		return;
	if (vm->dwfl)
		dwfl_end(vm->dwfl);
	if (vm->elf)
		elf_end(vm->elf);
	if (vm->fd >= 0)
		close(vm->fd);
	free(vm);
}
