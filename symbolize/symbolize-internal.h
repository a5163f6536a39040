/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYMBOLIZE_INTERNAL_H
#define PERPKT_SYMBOLIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf-read.h"
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

enum rule_kind { RULE_PATH, RULE_FUNC };

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
	struct dwarf_index *dw;
	struct vmlinux_file *vm;
	uint64_t bias;
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
		  const char *origin);
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
		     char *strings, const char *origin, int sized);

/* Read a whole file (also /proc files, whose size reads as 0) into a
 * NUL-terminated buffer; *len excludes the NUL. */
int read_whole_file(char **out, size_t *len, const char *path);

/* Index of the symbol containing addr, or -1. */
ptrdiff_t symbolizer_find(const struct symbolizer *s, uint64_t addr);

/* Source positions from DWARF (dwarf.c). Addresses are link addresses. */
struct dwarf_index;
struct dw_loc {
	const char *file;           /* normalised to the kernel tree */
	int line;
	const struct sym_frame *inlines;  /* innermost first */
	size_t ninlines;
};
/* Takes no ownership of `dw`, which must outlive the index. NULL after
 * a warning when no CU is readable (or out of memory). */
struct dwarf_index *dwarf_index_new(void *dw, const char *origin);
/* Position of addr, cached per address; NULL when DWARF has none. */
const struct dw_loc *dwarf_index_lookup(struct dwarf_index *x, uint64_t addr);
/* Normalised name of the compilation unit holding addr, or NULL. */
const char *dwarf_index_unit(struct dwarf_index *x, uint64_t addr);
void dwarf_index_free(struct dwarf_index *x);

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

/* Where a unit lies in .debug_info, as dwarf_next_unit reports it. */
struct dw_unit {
	uint64_t off, end;      /* header start, next unit */
	uint64_t die_off;       /* of the unit DIE */
	uint64_t abbrev_off;
	struct dw_fmt fmt;
};
/* A unit's abbreviation table, indexed by code (dwarf-scan.c). */
struct dw_abbrev_attr {
	uint16_t name, form;
	int16_t size;           /* fixed size of the form, or -1 */
	int64_t implicit;
};
struct dw_abbrev {
	uint32_t tag;
	uint32_t first, nattr;  /* in attrs[] */
	int32_t fixed;          /* size of all attributes, -1 if variable */
	int32_t sib_at;         /* offset of a fixed-size DW_AT_sibling
				 * after fixed-size attributes, or -1 */
	uint8_t sib_size;
	uint8_t children;
	uint8_t defined;
};
struct dw_abbrevs {
	struct dw_abbrev *v;    /* indexed by code */
	size_t ncodes;
	struct dw_abbrev_attr *attrs;
	size_t nattrs, capattrs;
};
/* -1 with *why on failure; free it either way. */
int dw_abbrevs_read(struct dw_abbrevs *a, const struct dw_sections *s,
		    const struct dw_unit *u, const char **why);
void dw_abbrevs_free(struct dw_abbrevs *a);
static inline const struct dw_abbrev *dw_abbrev_of(const struct dw_abbrevs *a,
						   uint64_t code)
{
	return code < a->ncodes && a->v[code].defined ? &a->v[code] : NULL;
}
/* Past a DIE's attributes, *sib set to its DW_AT_sibling (absolute, or 0). */
int dw_die_skip(struct dw_cursor *c, const struct dw_abbrevs *a,
		const struct dw_abbrev *ab, const struct dw_unit *u,
		uint64_t *sib, const char **why);
/* Whether sib can end the children of the DIE whose attributes end at c. */
int dw_sibling_ok(const struct dw_cursor *c, const uint8_t *info,
		  const struct dw_unit *u, uint64_t sib);
/* Past all children of a DIE (c just after its attributes). */
int dw_skip_children(struct dw_cursor *c, const struct dw_abbrevs *a,
		     const struct dw_unit *u, const uint8_t *info,
		     const char **why);

/*
 * Top-level subprograms with code of one unit, read without libdw
 * (dwarf-scan.c): low/high pc ranges appended to funcs; those with
 * DW_AT_ranges only as DIE offsets (idx) in todo, for libdw to expand.
 * -1 with *why when the unit uses something not read here.
 */
int dw_scan_functions(const struct dw_sections *s, const struct dw_unit *u,
		      struct dw_ranges *funcs, struct dw_ranges *todo,
		      const char **why);
/* The same with the unit's abbreviations already read. */
int dw_scan_functions_abbrevs(const struct dw_sections *s,
			      const struct dw_unit *u,
			      const struct dw_abbrevs *a,
			      struct dw_ranges *funcs, struct dw_ranges *todo,
			      const char **why);

/* One inlined_subroutine holding an address (dwarf-inline.c). */
struct dw_inline {
	const char *name;       /* via DW_AT_abstract_origin; NULL if none */
	uint64_t call_file;
	int call_line;
	int has_call_file;
};
/*
 * The inlined_subroutine DIEs holding addr below the function DIE at
 * `func_off`, outermost first, as perpkt's libdw descent finds them
 * (lexical blocks without addresses searched too): the depth, or -1
 * with *why for DWARF not read here (the caller then asks libdw).
 */
int dw_inline_chain(const struct dw_sections *s, const struct dw_unit *u,
		    const struct dw_abbrevs *a, uint64_t func_off,
		    uint64_t addr, struct dw_inline *chain, int max,
		    const char **why);

/*
 * A CU's line table (dwarf-lines.c): rows sorted as libdw sorts them,
 * file names normalised on first use.
 */
#define LINE_END_SEQ 0x80000000u  /* in line_row.file: ends a sequence */
struct line_row {
	uint64_t addr;
	uint32_t file;            /* index into files, | LINE_END_SEQ */
	int32_t line;
};
struct line_file {
	const char *dir, *name;   /* raw, in the DWARF sections */
	const char *norm;         /* interned in sp, NULL until asked */
};
struct line_table {
	struct line_row *rows;
	size_t nrows;
	struct line_file *files;
	size_t nfiles;
	struct srcpath *sp;
	const char *comp_dir;
};
/* Decode the program at `off` of .debug_line; -1 with *why when it
 * holds something not decoded here (the caller then asks libdw). */
int line_table_decode(struct line_table *t, const struct dw_sections *s,
		      uint64_t off, unsigned addr_size, const char *comp_dir,
		      struct srcpath *sp, const char **why);
/* The row for addr, as dwarf_getsrc_die finds it; NULL when none. */
const struct line_row *line_table_find(const struct line_table *t,
				       uint64_t addr);
/* Normalised path of file `idx` (DW_AT_call_file and rows use the same
 * numbering), NULL when out of range. */
const char *line_table_file(struct line_table *t, uint64_t idx);
void line_table_free(struct line_table *t);

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
/* dir + "/" + name (name alone when absolute or dir is NULL), as libdw
 * joins line-table names, normalised and interned by content. */
const char *srcpath_join(struct srcpath *sp, const char *dir,
			 const char *name, const char *comp_dir);
/* Normalise into a new malloc'd string (no interning). */
char *srcpath_normalise(const struct srcpath *sp, const char *raw,
			const char *comp_dir);
void srcpath_free(struct srcpath *sp);

/* Padding before functions (-fpatchable-function-entry, kCFI):
 * these end the previous symbol but are never a result. */
int sym_is_padding(const char *name);

#endif
