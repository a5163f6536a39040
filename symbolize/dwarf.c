// SPDX-License-Identifier: GPL-2.0-only
/*
 * file:line and inline chains from a vmlinux's DWARF, fast.
 *
 * A vmlinux has ~2,000 CUs and ~3.6M top-level DIEs. dwarf_getscopes
 * walks a whole CU per lookup and dwfl_module_addrinfo scans the symbol
 * table per call; instead: a table of CU ranges built once, then per CU
 * (on first use) a sorted table of its concrete functions, so a lookup
 * is two binary searches and a descent through one function's DIEs.
 * Results are cached per address: profiles repeat addresses.
 *
 * The two costs libdw left (the top-level walk of a CU, its whole line
 * table parsed and sorted) are read here directly (dwarf-scan.c,
 * dwarf-lines.c); a unit using something those do not read goes to
 * libdw instead, after one warning, so odd DWARF costs speed only.
 */
#include "symbolize.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "symbolize-internal.h"

/* Deeper inline nests than this are cut (the kernel's reach ~12). */
#define MAX_DEPTH 64

/* Decoded line tables kept: callers that resolve in address order
 * (perpkt resolve does) need one; a few more serve random order. */
#define LINE_SLOTS 8
/* Parsed abbreviation tables kept, for the same reason. */
#define ABBREV_SLOTS 4

struct dw_cu {
	Dwarf_Off off;         /* of the CU DIE */
	const char *comp_dir;
	const char *unit;      /* normalised name, interned in srcpath */
	struct dw_unit where;  /* for dwarf-scan.c */
	uint64_t stmt_list;    /* DW_AT_stmt_list, or UINT64_MAX */
	struct dw_ranges funcs;
	int indexed;
	int lines_libdw;       /* our decoder gave up on this CU's table */
	int dies_libdw;        /* our DIE readers gave up on this CU */
};

struct line_slot {
	struct line_table t;
	size_t cu;             /* index, or SIZE_MAX when empty */
	uint64_t used;         /* clock of the last use, for LRU */
};

struct abbrev_slot {
	struct dw_abbrevs a;
	size_t cu;             /* index, or SIZE_MAX when empty */
	uint64_t used;
};

struct dw_cache_entry {
	uint64_t addr;
	struct dw_loc *loc;    /* NULL: looked up, nothing found */
	int used;
};

struct dwarf_index {
	Dwarf *dw;
	struct srcpath *paths;
	struct dw_cu *cus;
	size_t ncus;
	struct dw_ranges ranges; /* CU ranges, sorted by lo */
	struct dw_cache_entry *cache;
	size_t ncache, capcache;
	struct dw_sections sec;  /* raw sections, when direct reading works */
	int raw;
	int warned;              /* about falling back to libdw, once */
	struct line_slot slots[LINE_SLOTS];
	struct abbrev_slot aslots[ABBREV_SLOTS];
	uint64_t clock;
};

static int range_cmp(const void *a, const void *b)
{
	const struct dw_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* Outer (longer) first: the search then meets the inner one last. */
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Ranges of one DIE (low/high pc or DW_AT_ranges) appended to *v;
 * empty ones and those the linker discarded (at 0) left out. */
static int die_ranges(Dwarf_Die *die, struct dw_ranges *v, uint64_t idx)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (hi > lo && lo && dw_range_push(v, lo, hi, idx))
			return -1;
	return 0;
}

/* Once per index: the slower path is taken, and why. */
static void fallback(struct dwarf_index *x, struct dw_cu *cu,
		     const char *what, const char *why)
{
	if (x->warned++)
		return;
	warning("cannot read the %s of '%s' directly (%s): using libdw for it and units like it, which is slower",
		what, cu->unit ? cu->unit : "?", why);
}

/* Index of the range holding addr in a sorted table, or -1. Nested or
 * overlapping ranges are rare (CUs, functions): look back a few. */
static ptrdiff_t range_find(const struct dw_range *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < 8 && lo > k; k++)
		if (addr < v[lo - 1 - k].hi)
			return lo - 1 - k;
	return -1;
}

struct dwarf_index *dwarf_index_new(void *dwarf, const char *origin)
{
	struct dwarf_index *x = calloc(1, sizeof(*x));
	Dwarf_Off off = 0, next, abbrev;
	size_t hsize, capcus = 0, i;
	uint8_t asize, osize;
	Dwarf_Half version;
	const char *why = "unknown reason";

	if (!x || !(x->paths = srcpath_new()))
		goto oom;
	x->dw = dwarf;
	for (i = 0; i < LINE_SLOTS; i++)
		x->slots[i].cu = SIZE_MAX;
	for (i = 0; i < ABBREV_SLOTS; i++)
		x->aslots[i].cu = SIZE_MAX;
	x->raw = !dw_sections_get(&x->sec, dwarf, &why);
	if (!x->raw)
		warning("cannot read the DWARF sections of '%s' directly (%s): using libdw, which is slower",
			origin, why);
	while (dwarf_next_unit(x->dw, off, &next, &hsize, &version, &abbrev,
			       &asize, &osize, NULL, NULL) == 0) {
		Dwarf_Die cudie, *d = dwarf_offdie(x->dw, off + hsize, &cudie);
		Dwarf_Attribute attr;
		Dwarf_Word stmt;
		struct dw_cu *cu;

		off = next;
		if (!d || (dwarf_tag(d) != DW_TAG_compile_unit &&
			   dwarf_tag(d) != DW_TAG_partial_unit))
			continue;
		if (x->ncus == capcus) {
			size_t c = capcus ? capcus * 2 : 256;
			struct dw_cu *v = realloc(x->cus, c * sizeof(*v));

			if (!v)
				goto oom;
			x->cus = v;
			capcus = c;
		}
		cu = &x->cus[x->ncus];
		memset(cu, 0, sizeof(*cu));
		cu->off = dwarf_dieoffset(d);
		cu->where = (struct dw_unit){
			.off = cu->off - hsize, .end = next, .die_off = cu->off,
			.abbrev_off = abbrev,
			.fmt = { asize, osize, version },
		};
		cu->stmt_list = UINT64_MAX;
		if (!dwarf_formudata(dwarf_attr(d, DW_AT_stmt_list, &attr), &stmt))
			cu->stmt_list = stmt;
		cu->comp_dir = dwarf_formstring(dwarf_attr(d, DW_AT_comp_dir,
							   &attr));
		/* Stash the raw name in unit until every CU has voted. */
		cu->unit = dwarf_diename(d);
		if (cu->unit)
			srcpath_vote(x->paths, cu->unit, cu->comp_dir);
		if (die_ranges(d, &x->ranges, x->ncus))
			goto oom;
		x->ncus++;
	}
	if (!x->ncus) {
		warning("no readable compilation unit in the DWARF of '%s': file:line and inline chains are unavailable",
			origin);
		dwarf_index_free(x);
		return NULL;
	}
	for (i = 0; i < x->ncus; i++)
		if (x->cus[i].unit)
			x->cus[i].unit = srcpath_get(x->paths, x->cus[i].unit,
						     x->cus[i].comp_dir);
	qsort(x->ranges.v, x->ranges.n, sizeof(*x->ranges.v), range_cmp);
	return x;
oom:
	warning("out of memory indexing the DWARF of '%s': file:line and inline chains are unavailable",
		origin);
	dwarf_index_free(x);
	return NULL;
}

/* The CU's abbreviations parsed here (LRU), or NULL with *why. */
static const struct dw_abbrevs *cu_abbrevs(struct dwarf_index *x,
					   struct dw_cu *cu, const char **why)
{
	size_t k = cu - x->cus, i, victim = 0;
	struct abbrev_slot *sl;

	for (i = 0; i < ABBREV_SLOTS; i++) {
		if (x->aslots[i].cu == k) {
			x->aslots[i].used = ++x->clock;
			return &x->aslots[i].a;
		}
		if (x->aslots[i].used < x->aslots[victim].used)
			victim = i;
	}
	sl = &x->aslots[victim];
	if (sl->cu != SIZE_MAX)
		dw_abbrevs_free(&sl->a);
	sl->cu = SIZE_MAX;
	if (dw_abbrevs_read(&sl->a, &x->sec, &cu->where, why)) {
		dw_abbrevs_free(&sl->a);
		return NULL;
	}
	sl->cu = k;
	sl->used = ++x->clock;
	return &sl->a;
}

/* The functions read directly; those with DW_AT_ranges via libdw. */
static int cu_scan(struct dwarf_index *x, struct dw_cu *cu, const char **why)
{
	struct dw_ranges todo = { NULL, 0, 0 };
	const struct dw_abbrevs *a = cu_abbrevs(x, cu, why);
	int ret = a ? dw_scan_functions_abbrevs(&x->sec, &cu->where, a,
						&cu->funcs, &todo, why) : -1;
	size_t i;

	for (i = 0; !ret && i < todo.n; i++) {
		Dwarf_Die fn;

		if (!dwarf_offdie(x->dw, todo.v[i].idx, &fn)) {
			*why = "no DIE where the scan found one";
			ret = -1;
		} else if (die_ranges(&fn, &cu->funcs, todo.v[i].idx)) {
			*why = "out of memory";
			ret = -1;
		}
	}
	free(todo.v);
	return ret;
}

/* The concrete functions of one CU, once: a walk of its top level. */
static int cu_index(struct dwarf_index *x, struct dw_cu *cu)
{
	Dwarf_Die cudie, child;
	const char *why = "unknown reason";

	cu->indexed = 1;
	if (x->raw) {
		if (!cu_scan(x, cu, &why))
			goto sort;
		fallback(x, cu, "functions", why);
		cu->funcs.n = 0;
		cu->dies_libdw = 1;
	}
	if (!dwarf_offdie(x->dw, cu->off, &cudie) ||
	    dwarf_child(&cudie, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_subprogram)
			continue;
		if (die_ranges(&child, &cu->funcs, dwarf_dieoffset(&child)))
			return -1;
	} while (dwarf_siblingof(&child, &child) == 0);
sort:
	qsort(cu->funcs.v, cu->funcs.n, sizeof(*cu->funcs.v), range_cmp);
	return 0;
}

/* The CU's line table decoded here, or NULL: then libdw answers. */
static struct line_table *cu_lines(struct dwarf_index *x, struct dw_cu *cu)
{
	size_t k = cu - x->cus, i, victim = 0;
	struct line_slot *sl;
	const char *why = "unknown reason";

	if (!x->raw || cu->lines_libdw || cu->stmt_list == UINT64_MAX)
		return NULL;
	for (i = 0; i < LINE_SLOTS; i++) {
		if (x->slots[i].cu == k) {
			x->slots[i].used = ++x->clock;
			return &x->slots[i].t;
		}
		if (x->slots[i].used < x->slots[victim].used)
			victim = i;
	}
	sl = &x->slots[victim];
	line_table_free(&sl->t);
	sl->cu = SIZE_MAX;
	if (line_table_decode(&sl->t, &x->sec, cu->stmt_list,
			      cu->where.fmt.addr_size, cu->comp_dir, x->paths,
			      &why)) {
		fallback(x, cu, "line table", why);
		cu->lines_libdw = 1;
		return NULL;
	}
	sl->cu = k;
	sl->used = ++x->clock;
	return &sl->t;
}

static struct dw_cu *cu_of(struct dwarf_index *x, uint64_t addr)
{
	ptrdiff_t k = range_find(x->ranges.v, x->ranges.n, addr);

	return k < 0 ? NULL : &x->cus[x->ranges.v[k].idx];
}

const char *dwarf_index_unit(struct dwarf_index *x, uint64_t addr)
{
	struct dw_cu *cu = cu_of(x, addr);

	return cu ? cu->unit : NULL;
}

static int has_pc_attrs(Dwarf_Die *d)
{
	return dwarf_hasattr(d, DW_AT_low_pc) || dwarf_hasattr(d, DW_AT_ranges);
}

/*
 * Append to chain[] the inlined_subroutine DIEs holding addr below
 * `die`, outermost first, as dwarf_getscopes_die would find them but
 * without walking the CU from its root. Blocks without addresses are
 * searched too (gcc emits some); returns the new depth.
 */
static int descend(Dwarf_Die *die, uint64_t addr, Dwarf_Die *chain, int depth)
{
	Dwarf_Die c;

	if (depth >= MAX_DEPTH || dwarf_child(die, &c))
		return depth;
	do {
		int tag = dwarf_tag(&c), got;

		if (tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block)
			continue;
		if (dwarf_haspc(&c, addr) == 1) {
			if (tag == DW_TAG_inlined_subroutine)
				chain[depth++] = c;
			return descend(&c, addr, chain, depth);
		}
		if (tag == DW_TAG_lexical_block && !has_pc_attrs(&c)) {
			got = descend(&c, addr, chain, depth);
			if (got > depth)
				return got;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return depth;
}

/* The call site of an inlined frame as a normalised path. */
static const char *call_file(struct dwarf_index *x, struct dw_cu *cu,
			     struct line_table *lt, Dwarf_Die *cudie,
			     const struct dw_inline *f)
{
	Dwarf_Files *files;
	size_t nfiles;

	if (!f->has_call_file)
		return NULL;
	if (lt)
		return line_table_file(lt, f->call_file);
	if (dwarf_getsrcfiles(cudie, &files, &nfiles) || f->call_file >= nfiles)
		return NULL;
	return srcpath_get(x->paths, dwarf_filesrc(files, f->call_file, NULL,
						   NULL), cu->comp_dir);
}

/* The chain through libdw, for units the direct reader gave up on. */
static int chain_libdw(struct dwarf_index *x, uint64_t fn_off, uint64_t addr,
		       struct dw_inline *out)
{
	Dwarf_Die fn, chain[MAX_DEPTH];
	Dwarf_Attribute attr;
	Dwarf_Word v;
	int depth = 0, i;

	if (dwarf_offdie(x->dw, fn_off, &fn))
		depth = descend(&fn, addr, chain, 0);
	for (i = 0; i < depth; i++) {
		struct dw_inline *f = &out[i];

		f->name = dwarf_diename(&chain[i]);
		f->call_line = 0;
		if (dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line,
					       &attr), &v) == 0)
			f->call_line = (int)v;
		f->has_call_file = dwarf_formudata(dwarf_attr(&chain[i],
				DW_AT_call_file, &attr), &v) == 0;
		f->call_file = f->has_call_file ? v : 0;
	}
	return depth;
}

/* The inline chain at addr in the function at fn_off, outermost first. */
static int inline_chain(struct dwarf_index *x, struct dw_cu *cu,
			uint64_t fn_off, uint64_t addr, struct dw_inline *out)
{
	const char *why = "unknown reason";
	const struct dw_abbrevs *a;
	int depth;

	if (x->raw && !cu->dies_libdw) {
		a = cu_abbrevs(x, cu, &why);
		depth = a ? dw_inline_chain(&x->sec, &cu->where, a, fn_off,
					    addr, out, MAX_DEPTH, &why) : -1;
		if (depth >= 0)
			return depth;
		fallback(x, cu, "inline chains", why);
		cu->dies_libdw = 1;
	}
	return chain_libdw(x, fn_off, addr, out);
}

static struct dw_loc *compute(struct dwarf_index *x, uint64_t addr)
{
	struct dw_cu *cu = cu_of(x, addr);
	struct dw_inline chain[MAX_DEPTH];
	Dwarf_Die cudie;
	struct sym_frame *frames = NULL;
	const struct line_row *row;
	struct line_table *lt;
	struct dw_loc *loc;
	Dwarf_Line *line;
	ptrdiff_t k;
	int depth = 0, i, lineno = 0;
	const char *file = NULL;

	if (!cu || !dwarf_offdie(x->dw, cu->off, &cudie))
		return NULL;
	if (!cu->indexed && cu_index(x, cu))
		return NULL;
	lt = cu_lines(x, cu);
	if (lt) {
		row = line_table_find(lt, addr);
		if (row) {
			file = line_table_file(lt, row->file & ~LINE_END_SEQ);
			lineno = row->line;
		}
	} else if ((line = dwarf_getsrc_die(&cudie, addr))) {
		file = srcpath_get(x->paths, dwarf_linesrc(line, NULL, NULL),
				   cu->comp_dir);
		dwarf_lineno(line, &lineno);
	}
	k = range_find(cu->funcs.v, cu->funcs.n, addr);
	if (k >= 0)
		depth = inline_chain(x, cu, cu->funcs.v[k].idx, addr, chain);

	loc = calloc(1, sizeof(*loc));
	if (depth)
		frames = calloc(depth, sizeof(*frames));
	if (!loc || (depth && !frames)) {
		free(loc);
		free(frames);
		return NULL;
	}
	/* chain[] is outermost first; frames innermost first, each at
	 * the position inside that function: the line table for the
	 * innermost, the call site of the one it calls for the others. */
	for (i = 0; i < depth; i++) {
		struct sym_frame *f = &frames[i];

		f->function = chain[depth - 1 - i].name ?
			      chain[depth - 1 - i].name : "??";
		if (i == 0) {
			f->file = file;
			f->line = lineno;
		} else {
			f->file = call_file(x, cu, lt, &cudie,
					    &chain[depth - i]);
			f->line = chain[depth - i].call_line;
		}
	}
	if (depth) {
		file = call_file(x, cu, lt, &cudie, &chain[0]);
		lineno = chain[0].call_line;
	}
	loc->file = file;
	loc->line = lineno;
	loc->inlines = frames;
	loc->ninlines = depth;
	return loc;
}

static size_t addr_hash(uint64_t a, size_t mask)
{
	a ^= a >> 31;
	a *= 0x7fb5d329728ea185ULL;
	a ^= a >> 27;
	return a & mask;
}

static int cache_grow(struct dwarf_index *x)
{
	size_t cap = x->capcache ? x->capcache * 2 : 1024, i;
	struct dw_cache_entry *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < x->capcache; i++) {
		size_t h;

		if (!x->cache[i].used)
			continue;
		for (h = addr_hash(x->cache[i].addr, cap - 1); t[h].used;
		     h = (h + 1) & (cap - 1))
			;
		t[h] = x->cache[i];
	}
	free(x->cache);
	x->cache = t;
	x->capcache = cap;
	return 0;
}

const struct dw_loc *dwarf_index_lookup(struct dwarf_index *x, uint64_t addr)
{
	size_t h;

	/* Out of memory: no position, the symbol still resolves. */
	if (2 * (x->ncache + 1) > x->capcache && cache_grow(x))
		return NULL;
	for (h = addr_hash(addr, x->capcache - 1); x->cache[h].used;
	     h = (h + 1) & (x->capcache - 1))
		if (x->cache[h].addr == addr)
			return x->cache[h].loc;
	x->cache[h].addr = addr;
	x->cache[h].used = 1;
	x->cache[h].loc = compute(x, addr);
	x->ncache++;
	return x->cache[h].loc;
}

void dwarf_index_free(struct dwarf_index *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->capcache; i++) {
		if (!x->cache[i].loc)
			continue;
		free((void *)x->cache[i].loc->inlines);
		free(x->cache[i].loc);
	}
	for (i = 0; i < x->ncus; i++)
		free(x->cus[i].funcs.v);
	for (i = 0; i < LINE_SLOTS; i++)
		line_table_free(&x->slots[i].t);
	for (i = 0; i < ABBREV_SLOTS; i++)
		if (x->aslots[i].cu != SIZE_MAX)
			dw_abbrevs_free(&x->aslots[i].a);
	free(x->cache);
	free(x->cus);
	free(x->ranges.v);
	srcpath_free(x->paths);
	free(x);
}
