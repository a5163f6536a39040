/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYMBOLIZE_H
#define PERPKT_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Kernel address -> function, bucket. The only public header of
 * libperpkt-symbolize. It never prints: a call that fails returns -1
 * and puts the reason (one line, "cannot open 'x': ...") in the
 * caller's struct sym_error; what still works but less well (no DWARF,
 * a mismatch accepted with force) is kept as warnings on the
 * symbolizer, for the caller to take with symbolizer_warning().
 */

struct symbolizer;

/* Why a call failed; err may be NULL where the reason is not wanted. */
struct sym_error {
	char msg[1024];
};

/* One text symbol, as kallsyms has it; size reaches the next symbol. */
struct sym_entry {
	uint64_t addr;
	uint64_t size;
	char type;
	const char *name;
	const char *module;  /* NULL for the core kernel */
};

/* One inlined function on the way to an address. */
struct sym_frame {
	const char *function; /* as DWARF names it */
	const char *file;     /* position inside that function */
	int line;
};

/* Result of one lookup; strings belong to the symbolizer and live
 * until symbolizer_close. */
struct sym_result {
	uint64_t addr;
	const char *name;     /* raw symbol name, e.g. "udp_sendmsg.isra.0" */
	const char *function; /* folded name: suffixes .isra.N etc. removed */
	uint64_t offset;      /* addr - symbol start */
	const char *module;   /* NULL for the core kernel */
	/* With DWARF: the position in `function` itself. When code was
	 * inlined, that is the call site of the outermost inlined function,
	 * and inlines[0] holds the line-table position of the address. */
	const char *file;     /* source file when DWARF is known, else NULL */
	int line;             /* 0 when unknown */
	const struct sym_frame *inlines; /* innermost first; NULL if none */
	size_t ninlines;
	const char *unit;     /* compilation unit (net/ipv4/udp.c): what
			       * path rules match; NULL without DWARF */
	const char *bucket;   /* e.g. "udp", "scheduler", "other" */
	const char *rule;     /* the rule that chose the bucket, as written */
	/* 1 when that rule is of kind "pass": a point such as an irq-enable
	 * where a sample belongs to the first caller that is not one */
	int pass;
	/* 1 when that rule is of kind "caller": a helper whose samples
	 * take the bucket of the first caller that is not one */
	int caller;
};

/* One section of a loaded module at its runtime address, as the kernel
 * shows it in /sys/module/NAME/sections/ (a profile records them). */
struct sym_section {
	const char *name;     /* ".text", ".text.unlikely", ".init.text" */
	uint64_t addr;
};
/* A loaded module: where its sections were at run time. */
struct sym_module {
	const char *name;     /* as kallsyms names it: "veth" */
	const struct sym_section *sections;
	size_t nsections;
};

/* How to open a vmlinux; all fields may be left zero. */
struct symbolizer_options {
	/* Build-id (hex) of the kernel the addresses come from, e.g. a
	 * profile's; a different vmlinux is refused unless `force`. */
	const char *build_id;
	int force;
	/* The kernel's architecture as uname -m names it ("x86_64"); a
	 * vmlinux built for another is refused unless `force`. NULL: not
	 * checked. */
	const char *machine;
	/* Runtime address of _text (KASLR); 0: addresses are link addresses. */
	uint64_t text_addr;
	/* Symbols to add, e.g. a profile's or kallsyms' entries: only
	 * those with a module are taken (vmlinux holds the core kernel). */
	const struct sym_entry *modules;
	size_t nmodules;
	/* Loaded modules: addresses in their recorded sections resolve
	 * with the module's own DWARF, from NAME.ko or NAME.ko.debug found
	 * under modules_dir, else under /usr/lib/debug/lib/modules/RELEASE
	 * and /lib/modules/RELEASE (a warning names a module not found). */
	const struct sym_module *loaded;
	size_t nloaded;
	const char *modules_dir;
	const char *release;
	/* A folder where the line tables decoded from the vmlinux's DWARF
	 * are kept, one file per build-id, for the next open of the same
	 * vmlinux (most of a cold lookup's time); NULL: none kept. */
	const char *cache_dir;
};

/* From a kallsyms file (/proc/kallsyms or a saved copy). */
int symbolizer_open_kallsyms(struct symbolizer **out, const char *path,
			     struct sym_error *err);
/* From entries saved in a profile; entries are copied. */
int symbolizer_open_entries(struct symbolizer **out,
			    const struct sym_entry *e, size_t n,
			    struct sym_error *err);
/*
 * From a vmlinux: symbols from its symbol table, file:line and inline
 * chains from its DWARF when present (a warning says when not).
 * Not ELF, stripped, truncated, another architecture or a build-id
 * mismatch: -1.
 */
int symbolizer_open_vmlinux(struct symbolizer **out, const char *path,
			    const struct symbolizer_options *o,
			    struct sym_error *err);
/* The first vmlinux that exists for kernel `release` in the usual places
 * (/usr/lib/debug/boot/vmlinux-R, /boot/vmlinux-R, ...); malloc'd, or
 * NULL when none is found. */
char *symbolizer_find_vmlinux(const char *release);
/* The GNU build-id (hex) of an ELF file, malloc'd; NULL if it has none
 * or cannot be read (no message). */
char *symbolizer_file_build_id(const char *path);
/* The GNU build-id (hex) in a file of bare ELF notes, as the kernel
 * gives its own in /sys/kernel/notes; malloc'd, NULL if none. */
char *symbolizer_notes_build_id(const char *path);
/* 1 when file:line and inline chains are available. */
int symbolizer_has_dwarf(const struct symbolizer *s);
/* Replace the built-in bucket rules with those in `path`. */
int symbolizer_load_buckets(struct symbolizer *s, const char *path,
			    struct sym_error *err);
/* The built-in rules as rules-file text: a starting point to edit. */
const char *symbolizer_default_buckets(void);

/* 0 when found, 1 when the address is in no known symbol (res->name
 * is then NULL, bucket "unknown"), -1 on error. */
int symbolizer_resolve(struct symbolizer *s, uint64_t addr,
		       struct sym_result *res);
/* The symbol containing addr, for saving in a profile; 0 found, 1 not. */
int symbolizer_symbol(struct symbolizer *s, uint64_t addr,
		      struct sym_entry *out);
/* The folded names of every text symbol, in address order (a name may
 * repeat); they live until close. n gets how many. NULL when out of
 * memory. */
const char **symbolizer_function_names(struct symbolizer *s, size_t *n);
/* 1 when some rule names `bucket`, or it is one given without a rule
 * (other, unknown). */
int symbolizer_bucket_known(const struct symbolizer *s, const char *bucket);
/* Runtime address of _text (else _stext), 0 if absent. */
uint64_t symbolizer_text_addr(struct symbolizer *s);
/* The next warning not taken yet, or NULL; it lives until close. */
const char *symbolizer_warning(struct symbolizer *s);
void symbolizer_close(struct symbolizer *s);

/* Fold compiler suffixes (.isra.N, .constprop.N, .part.N, .cold,
 * .llvm.N, and their chains) into buf. Returns buf. */
char *symbol_fold(const char *name, char *buf, size_t len);

#endif
