// SPDX-License-Identifier: GPL-2.0-only
/*
 * file:line and inline chains from a vmlinux's DWARF, through libdw
 * alone, made fast by caching around it.
 *
 * A vmlinux has ~2,000 CUs and ~3.6M top-level DIEs. dwarf_getscopes
 * walks a whole CU per lookup and dwfl_module_addrinfo scans the symbol
 * table per call; instead: a table of CU ranges built once, then per CU
 * (on first use) a sorted table of its concrete functions, so a lookup
 * is two binary searches, dwarf_getsrc_die (libdw keeps each CU's line
 * table) and a descent through one function's DIEs. Results are cached per address: profiles repeat
 * addresses, and callers resolving in address order stay in one CU.
 */
#include "symbolize.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/u64map.h"
#include "linecache.h"
#include "symbolize-internal.h"

/* Deeper inline nests than this are cut (the kernel's reach ~12). */
#define MAX_DEPTH 64

struct dw_cu {
	Dwarf_Off off;         /* of the CU DIE */
	const char *comp_dir;
	const char *unit;      /* normalised name, interned in srcpath */
	struct dw_ranges funcs;
	int indexed;
	struct linetab lines;  /* read when first needed (lines_read) */
	int lines_read;        /* 1 read, -1 the CU has no line table */
};

struct srcindex {
	Dwarf *dw;
	struct linecache *lines; /* the line tables kept; NULL: none */
	struct srcpath *paths;
	struct dw_cu *cus;
	size_t ncus;
	struct dw_ranges ranges; /* CU ranges, sorted by lo */
	struct u64map cache;     /* address -> struct dw_loc *, NULL: looked
				  * up, nothing found */
};

int dw_range_push(struct dw_ranges *r, uint64_t lo, uint64_t hi, uint64_t idx)
{
	if (ARRAY_GROW(r->v, r->n + 1, r->cap))
		return -1;
	r->v[r->n++] = (struct dw_range){ lo, hi, idx };
	return 0;
}

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

/* qsort with no array is undefined behaviour, even for 0 elements
 * (a CU of assembly has no functions). */
static void ranges_sort(struct dw_ranges *r)
{
	if (r->n > 1)
		qsort(r->v, r->n, sizeof(*r->v), range_cmp);
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

struct srcindex *srcindex_new(void *dwarf, const char *origin,
			      const struct srcindex *base,
			      const char *cache_dir, const char *build_id,
			      struct sym_msgs *w)
{
	struct srcindex *x = calloc(1, sizeof(*x));
	Dwarf_Off off = 0, next;
	size_t hsize, capcus = 0, i;

	if (!x || !(x->paths = srcpath_new()) ||
	    (base && srcpath_vote_all(x->paths, base->paths)))
		goto oom;
	x->dw = dwarf;
	while (dwarf_next_unit(x->dw, off, &next, &hsize, NULL, NULL, NULL,
			       NULL, NULL, NULL) == 0) {
		Dwarf_Die cudie, *d = dwarf_offdie(x->dw, off + hsize, &cudie);
		Dwarf_Attribute attr;
		struct dw_cu *cu;

		off = next;
		if (!d || (dwarf_tag(d) != DW_TAG_compile_unit &&
		     dwarf_tag(d) != DW_TAG_partial_unit))
			continue;
		if (ARRAY_GROW(x->cus, x->ncus + 1, capcus))
			goto oom;
		cu = &x->cus[x->ncus];
		memset(cu, 0, sizeof(*cu));
		cu->off = dwarf_dieoffset(d);
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
		msgs_add(w, "no readable compilation unit in the DWARF of '%s': file:line and inline chains are unavailable",
			origin);
		srcindex_free(x);
		return NULL;
	}
	for (i = 0; i < x->ncus; i++)
		if (x->cus[i].unit)
			x->cus[i].unit = srcpath_get(x->paths, x->cus[i].unit,
						     x->cus[i].comp_dir);
	ranges_sort(&x->ranges);
	x->lines = linecache_open(cache_dir, build_id);
	return x;
oom:
	msgs_add(w, "out of memory indexing the DWARF of '%s': file:line and inline chains are unavailable",
		origin);
	srcindex_free(x);
	return NULL;
}

/*
 * The concrete functions of one CU, once, sorted by address. A walk of
 * the CU's top level (dwarf_child, dwarf_siblingof, which jumps over a
 * function's body by DW_AT_sibling): kernel C has no nested functions,
 * and dwarf_getfuncs, which also visits every scope inside every
 * function to find them, took 1.5-2x as long on a real vmlinux.
 */
static int cu_index(struct srcindex *x, struct dw_cu *cu, Dwarf_Die *cudie)
{
	Dwarf_Die child;

	cu->indexed = 1;
	if (dwarf_child(cudie, &child) == 0) {
		do {
			if (dwarf_tag(&child) == DW_TAG_subprogram &&
			    die_ranges(&child, &cu->funcs,
				       dwarf_dieoffset(&child)))
				return -1;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	ranges_sort(&cu->funcs);
	return 0;
}

static struct dw_cu *cu_of(struct srcindex *x, uint64_t addr)
{
	ptrdiff_t k = range_find(x->ranges.v, x->ranges.n, addr);

	return k < 0 ? NULL : &x->cus[x->ranges.v[k].idx];
}

const char *srcindex_unit(struct srcindex *x, uint64_t addr)
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
 * `die`, outermost first: the scopes dwarf_getscopes_die would give,
 * but found from the function instead of from the root of its CU.
 * Blocks without addresses are searched too (gcc emits some); returns
 * the new depth.
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

/* The CU's line table and file names (linecache.h), or NULL. */
static const struct linetab *cu_lines(struct srcindex *x, struct dw_cu *cu,
				      Dwarf_Die *cudie)
{
	if (!cu->lines_read)
		cu->lines_read = linecache_get(x->lines, cudie, cu->off,
					       &cu->lines) ? -1 : 1;
	return cu->lines_read > 0 ? &cu->lines : NULL;
}

/* The call site of an inlined frame, as a normalised path and line. */
static void call_site(struct srcindex *x, struct dw_cu *cu,
		      const struct linetab *lt, Dwarf_Die *inl,
		      const char **file, int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &attr), &v) == 0)
		*line = (int)v;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &attr), &v) ||
	    !lt || v >= lt->nfiles || !lt->files[v])
		return;
	*file = srcpath_get(x->paths, lt->files[v], cu->comp_dir);
}

static struct dw_loc *compute(struct srcindex *x, uint64_t addr)
{
	struct dw_cu *cu = cu_of(x, addr);
	Dwarf_Die cudie, fn, chain[MAX_DEPTH];
	struct sym_frame *frames = NULL;
	struct dw_loc *loc;
	const struct linetab *lt;
	const struct lrow *row;
	ptrdiff_t k;
	int depth = 0, i, lineno = 0;
	const char *file = NULL;

	if (!cu || !dwarf_offdie(x->dw, cu->off, &cudie))
		return NULL;
	if (!cu->indexed && cu_index(x, cu, &cudie))
		return NULL;
	lt = cu_lines(x, cu, &cudie);
	if (lt && (row = linetab_find(lt, addr))) {
		if (row->file < lt->nfiles && lt->files[row->file])
			file = srcpath_get(x->paths, lt->files[row->file],
					   cu->comp_dir);
		lineno = (int)(row->line & ~LROW_END);
	}
	k = range_find(cu->funcs.v, cu->funcs.n, addr);
	if (k >= 0 && dwarf_offdie(x->dw, cu->funcs.v[k].idx, &fn))
		depth = descend(&fn, addr, chain, 0);

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
		const char *name = dwarf_diename(&chain[depth - 1 - i]);

		f->function = name ? name : "??";
		if (i == 0) {
			f->file = file;
			f->line = lineno;
		} else {
			call_site(x, cu, lt, &chain[depth - i], &f->file,
				  &f->line);
		}
	}
	if (depth)
		call_site(x, cu, lt, &chain[0], &file, &lineno);
	loc->file = file;
	loc->line = lineno;
	loc->inlines = frames;
	loc->ninlines = depth;
	return loc;
}

const struct dw_loc *srcindex_lookup(struct srcindex *x, uint64_t addr)
{
	int added;
	void **loc = u64map_at(&x->cache, addr, &added);

	/* Out of memory: no position, the symbol still resolves. */
	if (!loc)
		return NULL;
	if (added)
		*loc = compute(x, addr);
	return *loc;
}

void srcindex_free(struct srcindex *x)
{
	struct u64map_slot *e;
	size_t i;

	if (!x)
		return;
	u64map_for_each(&x->cache, e) {
		struct dw_loc *loc = e->val;

		if (loc)
			free((void *)loc->inlines);
		free(loc);
	}
	u64map_free(&x->cache);
	for (i = 0; i < x->ncus; i++) {
		free(x->cus[i].funcs.v);
		linetab_free(&x->cus[i].lines);
	}
	linecache_close(x->lines);
	free(x->cus);
	free(x->ranges.v);
	srcpath_free(x->paths);
	free(x);
}
