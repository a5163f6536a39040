/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYMBOLIZE_INTERNAL_H
#define PERPKT_SYMBOLIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "symbolize.h"

/* Not yet classified: the bucket is computed on first resolve. */
#define SYM_RULE_UNSET (-1)

struct sym {
	uint64_t addr;
	uint64_t size;
	const char *name;
	const char *folded;  /* == name when there was nothing to fold */
	const char *module;  /* NULL for the core kernel */
	const char *unit;    /* compilation unit, set with rule (DWARF only) */
	int32_t rule;        /* cached index into the rules, or SYM_RULE_UNSET */
	char type;
};

/* RULE_PASS: a func rule whose functions are pass-through points (an
 * irq-enable): the report charges their samples to the caller.
 * RULE_CALLER: a func rule for helpers many subsystems call (siphash):
 * their samples take the bucket of the first caller that is not one. */
enum rule_kind { RULE_PATH, RULE_FUNC, RULE_PASS, RULE_CALLER };

/* How a func pattern is matched: most are plain prefixes, and a
 * strncmp is ~50x cheaper than fnmatch when classifying 60k symbols. */
enum rule_match { MATCH_EXACT, MATCH_PREFIX, MATCH_SUFFIX, MATCH_INFIX,
		  MATCH_GLOB };

struct bucket_rule {
	char *bucket;
	char *pattern;
	char *text;          /* "bucket kind pattern", for sym_result.rule */
	size_t plen;         /* literal part used by prefix/suffix/infix */
	char *literal;       /* pattern without the '*' around it */
	enum rule_kind kind;
	enum rule_match match;
};

struct bucket_rules {
	struct bucket_rule *v;
	size_t n;
};

/* Warnings kept for the caller (msgs.c). */
struct sym_msgs {
	char **v;
	size_t n, taken;
};
/* Formats the reason into e (when not NULL); returns -1. */
int sym_fail(struct sym_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void msgs_add(struct sym_msgs *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends from's messages to `to` and empties from. */
void msgs_move(struct sym_msgs *to, struct sym_msgs *from);
void msgs_free(struct sym_msgs *m);

/* A loaded module with its own DWARF (modules.c). */
struct kmod_sec {
	uint64_t addr, size;    /* at run time */
	uint64_t dwarf;         /* its start in the module's DWARF */
};
struct kmod {
	char *name;
	void *dwfl;             /* Dwfl *, NULL when not found */
	struct srcindex *dw;    /* NULL: names only */
	struct kmod_sec *secs;
	size_t nsecs;
};

struct symbolizer {
	struct sym *syms;      /* sorted by address, no two alike */
	uint64_t *addrs;       /* syms[i].addr, dense for the binary search */
	size_t n;
	char *strings;         /* names and modules point in here */
	char *folded;          /* folded names that differ from the raw one */
	uint64_t text_addr;
	struct bucket_rules rules;
	/* vmlinux only: DWARF (NULL when it has none), the ELF the core
	 * symbol names point into, and runtime minus link address. */
	struct srcindex *dw;
	struct vmlinux_file *vm;
	uint64_t bias;
	struct sym_msgs warnings;
	struct kmod *kmods;
	size_t nkmods;
};

/* Bucket names with no rule behind them. */
#define BUCKET_FALLBACK "other"
#define RULE_FALLBACK "(unclassified)"
#define BUCKET_UNKNOWN "unknown"
#define RULE_UNKNOWN "(no symbol)"

/* The built-in rules, as rules-file text (buckets-default.c). */
extern const char buckets_default_text[];

/*
 * Parse rules text; `origin` names it in errors ("file:line").
 * On success replaces nothing: the caller swaps *out in.
 */
int buckets_parse(struct bucket_rules *out, const char *text,
		  const char *origin, struct sym_error *err);
void buckets_free(struct bucket_rules *r);
/*
 * Index of the first rule matching a source file (may be NULL: path
 * rules are then skipped) or folded function name; r->n when none.
 */
size_t buckets_match(const struct bucket_rules *r, const char *file,
		     const char *func);

/*
 * Takes ownership of `strings` and of the sym array: sorts, drops
 * duplicates and padding, folds names. Unless `sized`, each size is set
 * to reach the next symbol (padding included). Frees both on failure.
 */
int symbolizer_build(struct symbolizer **out, struct sym *syms, size_t n,
		     char *strings, const char *origin, int sized,
		     struct sym_error *err);

/* Bounds of a text input: a wrong file (/dev/zero, a core dump) is
 * refused at once instead of read until memory runs out. */
struct text_limits {
	const char *what;       /* "kallsyms file", in the messages */
	size_t max_size, max_line;
};
/* /proc/kallsyms is ~10 MiB with modules; a name is at most 512 bytes. */
#define KALLSYMS_MAX_SIZE ((size_t)256 << 20)
#define KALLSYMS_MAX_LINE 1024
#define BUCKETS_MAX_SIZE ((size_t)4 << 20)
#define BUCKETS_MAX_LINE 4096
/* Read a whole text file (also /proc files, whose size reads as 0) into
 * a NUL-terminated buffer; *len excludes the NUL. Larger than allowed,
 * a NUL byte, or a line too long: -1 with the reason. */
int read_text_file(char **out, size_t *len, const char *path,
		   const struct text_limits *lim, struct sym_error *err);

/* Index of the symbol containing addr, or -1. */
ptrdiff_t symbolizer_find(const struct symbolizer *s, uint64_t addr);

/* Source positions from DWARF (dwarf.c). Addresses are link addresses. */
struct srcindex;
struct dw_loc {
	const char *file;           /* normalised to the kernel tree */
	int line;
	const struct sym_frame *inlines;  /* innermost first */
	size_t ninlines;
};
/* Takes no ownership of `dw`, which must outlive the index. NULL after
 * a warning in *w when no CU is readable (or out of memory). Source
 * paths are normalised with base's votes too, when base is not NULL
 * (a module's index with its kernel's). With cache_dir and build_id,
 * the CUs' line tables are kept there between runs (linecache.h). */
struct srcindex *srcindex_new(void *dw, const char *origin,
			      const struct srcindex *base,
			      const char *cache_dir, const char *build_id,
			      struct sym_msgs *w);
/* Position of addr, cached per address; NULL when DWARF has none. */
const struct dw_loc *srcindex_lookup(struct srcindex *x, uint64_t addr);
/* Normalised name of the compilation unit holding addr, or NULL. */
const char *srcindex_unit(struct srcindex *x, uint64_t addr);
void srcindex_free(struct srcindex *x);

/* Address ranges: of CUs (idx: CU index), of functions (idx: DIE offset). */
struct dw_range {
	uint64_t lo, hi;
	uint64_t idx;
};
struct dw_ranges {
	struct dw_range *v;
	size_t n, cap;
};
int dw_range_push(struct dw_ranges *r, uint64_t lo, uint64_t hi, uint64_t idx);

/* Each loaded module's file found and indexed; -1 only when out of
 * memory (a module not found is a warning). */
int kmods_open(struct symbolizer *s, const struct symbolizer_options *o,
	       struct sym_msgs *w);
/* The module `name` when its DWARF is indexed, else NULL. */
const struct kmod *kmod_find(const struct symbolizer *s, const char *name);
/* A runtime address in one of its sections to its DWARF address. */
int kmod_dwarf_addr(const struct kmod *m, uint64_t addr, uint64_t *out);
void kmods_free(struct symbolizer *s);

/* The ELF file behind a vmlinux symbolizer (vmlinux.c). */
struct vmlinux_file;
void vmlinux_file_close(struct vmlinux_file *vm);

/*
 * Source paths to kernel-tree paths (srcpath.c): "./" and "x/.." folded,
 * the compilation directory and the tree root (learnt from the CU names
 * by srcpath_vote) stripped.
 */
struct srcpath;
struct srcpath *srcpath_new(void);
/* One CU name: its prefixes before a top-level kernel directory get a vote. */
void srcpath_vote(struct srcpath *sp, const char *name, const char *comp_dir);
/* Interned, stable until srcpath_free; keyed by the raw pointer, which
 * libdw keeps stable. NULL only when out of memory. */
const char *srcpath_get(struct srcpath *sp, const char *raw,
			const char *comp_dir);
/* Start with from's votes (a fresh srcpath only): a module's few CUs
 * then follow the roots its kernel's thousands agreed on. */
int srcpath_vote_all(struct srcpath *sp, const struct srcpath *from);
/* Normalise into a new malloc'd string (no interning). */
char *srcpath_normalise(const struct srcpath *sp, const char *raw,
			const char *comp_dir);
void srcpath_free(struct srcpath *sp);

/* Padding before functions (-fpatchable-function-entry, kCFI):
 * these end the previous symbol but are never a result. */
int sym_is_padding(const char *name);

#endif
