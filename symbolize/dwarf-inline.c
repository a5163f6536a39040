// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline chains read straight from .debug_info with the unit's parsed
 * abbreviations. Through libdw, dwarf_child, dwarf_siblingof, dwarf_haspc
 * and dwarf_diename re-read attribute layouts on every call: the descent
 * cost more than the rest of a lookup. Here a DIE off the path is one
 * abbreviation look-up and a jump past it. It mirrors descend() in
 * dwarf.c, which stays the fallback for what is not read here (addrx,
 * rnglistx, strx, references out of the unit).
 */
#include "symbolize.h"

#include <dwarf.h>
#include <string.h>

#include "dwarf-read.h"
#include "symbolize-internal.h"

/* dwarf_attr_integrate follows at most this many origin links. */
#define MAX_HOPS 16

struct walk {
	const struct dw_sections *s;
	const struct dw_unit *u;
	const struct dw_abbrevs *a;
	const char **why;
	uint64_t base;          /* CU base address, for range lists */
	int have_base;
};

/* What the walk needs of a lexical_block or inlined_subroutine. */
struct block {
	uint64_t low, high, ranges, sibling, origin, call_file, call_line;
	unsigned high_form;
	int has_low, has_high, has_ranges, has_sibling, has_origin;
	int has_call_file;
};

static int fail(struct walk *w, const char *why)
{
	*w->why = why;
	return -1;
}

/* A reference attribute as an offset in .debug_info, inside the unit. */
static int ref_get(struct walk *w, unsigned form, uint64_t v, uint64_t *off)
{
	switch (form) {
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4:
	case DW_FORM_ref8: case DW_FORM_ref_udata:
		v += w->u->off;
		break;
	case DW_FORM_ref_addr:
		break;
	default:
		return fail(w, "reference form not read directly");
	}
	if (v < w->u->die_off || v >= w->u->end)
		return fail(w, "reference out of its unit");
	*off = v;
	return 0;
}

static int block_read(struct walk *w, struct dw_cursor *c,
		      const struct dw_abbrev *ab, struct block *b)
{
	uint32_t i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < ab->nattr; i++) {
		const struct dw_abbrev_attr *at = &w->a->attrs[ab->first + i];
		struct dw_value v;

		switch (at->name) {
		case DW_AT_low_pc: case DW_AT_high_pc: case DW_AT_ranges:
		case DW_AT_sibling: case DW_AT_abstract_origin:
		case DW_AT_call_file: case DW_AT_call_line:
			break;
		default:
			if (at->size >= 0) {
				if (dw_need(c, at->size))
					c->p += at->size;
				continue;
			}
		}
		if (dw_form_read(c, at->form, &w->u->fmt, at->implicit, &v))
			return fail(w, "unknown attribute form");
		switch (at->name) {
		case DW_AT_low_pc:
			if (at->form != DW_FORM_addr)
				return fail(w, "DW_AT_low_pc not in DW_FORM_addr");
			b->low = v.u;
			b->has_low = 1;
			break;
		case DW_AT_high_pc:
			switch (at->form) {
			case DW_FORM_addr: case DW_FORM_data1:
			case DW_FORM_data2: case DW_FORM_data4:
			case DW_FORM_data8: case DW_FORM_udata:
			case DW_FORM_implicit_const:
				break;
			default:
				return fail(w, "DW_AT_high_pc form not read directly");
			}
			b->high = v.u;
			b->high_form = at->form;
			b->has_high = 1;
			break;
		case DW_AT_ranges:
			if (at->form == DW_FORM_rnglistx)
				return fail(w, "DW_FORM_rnglistx");
			b->ranges = v.u;
			b->has_ranges = 1;
			break;
		case DW_AT_sibling:
			b->sibling = v.u;
			if (at->form != DW_FORM_ref_addr)
				b->sibling += w->u->off;
			b->has_sibling = 1;
			break;
		case DW_AT_abstract_origin:
			if (ref_get(w, at->form, v.u, &b->origin))
				return -1;
			b->has_origin = 1;
			break;
		case DW_AT_call_file:
			b->call_file = v.u;
			b->has_call_file = !v.block;
			break;
		case DW_AT_call_line:
			b->call_line = v.block ? 0 : v.u;
			break;
		}
	}
	return c->bad ? fail(w, "truncated DIE") : 0;
}

/* The CU's base address as libdw takes it: low_pc, else entry_pc, else 0. */
static int cu_base(struct walk *w)
{
	const uint8_t *info = w->s->info.p;
	struct dw_cursor c = { info + w->u->die_off, info + w->u->end, 0 };
	const struct dw_abbrev *ab = dw_abbrev_of(w->a, dw_uleb(&c));
	uint64_t low = 0, entry = 0;
	int has_low = 0, has_entry = 0;
	uint32_t i;

	if (!ab)
		return fail(w, "undefined abbreviation code");
	for (i = 0; i < ab->nattr; i++) {
		const struct dw_abbrev_attr *at = &w->a->attrs[ab->first + i];
		struct dw_value v;

		if (dw_form_read(&c, at->form, &w->u->fmt, at->implicit, &v))
			return fail(w, "unknown attribute form");
		if (at->name != DW_AT_low_pc && at->name != DW_AT_entry_pc)
			continue;
		if (at->form != DW_FORM_addr)
			return fail(w, "CU base address not in DW_FORM_addr");
		if (at->name == DW_AT_low_pc) {
			low = v.u;
			has_low = 1;
		} else {
			entry = v.u;
			has_entry = 1;
		}
	}
	if (c.bad)
		return fail(w, "truncated CU DIE");
	w->base = has_low ? low : has_entry ? entry : 0;
	w->have_base = 1;
	return 0;
}

/* Whether a range list holds addr: 1, 0, or -1 for what is not read. */
static int ranges_hold(struct walk *w, uint64_t off, uint64_t addr)
{
	unsigned as = w->u->fmt.addr_size;
	const struct dw_sect *sect = w->u->fmt.version >= 5 ?
				     &w->s->rnglists : &w->s->ranges;
	struct dw_cursor c;
	uint64_t base, lo, hi, max = as == 8 ? UINT64_MAX : UINT32_MAX;

	if (!sect->p || off >= sect->n)
		return fail(w, "range list outside its section");
	if (!w->have_base && cu_base(w))
		return -1;
	base = w->base;
	c = (struct dw_cursor){ sect->p + off, sect->p + sect->n, 0 };
	for (;;) {
		if (w->u->fmt.version < 5) {
			lo = dw_fixed(&c, as);
			hi = dw_fixed(&c, as);
			if (c.bad)
				break;
			if (!lo && !hi)
				return 0;
			if (lo == max) {
				base = hi;
				continue;
			}
			lo += base;
			hi += base;
		} else {
			switch (dw_u8(&c)) {
			case DW_RLE_end_of_list:
				return c.bad ? fail(w, "truncated range list") : 0;
			case DW_RLE_offset_pair:
				lo = base + dw_uleb(&c);
				hi = base + dw_uleb(&c);
				break;
			case DW_RLE_base_address:
				base = dw_fixed(&c, as);
				continue;
			case DW_RLE_start_end:
				lo = dw_fixed(&c, as);
				hi = dw_fixed(&c, as);
				break;
			case DW_RLE_start_length:
				lo = dw_fixed(&c, as);
				hi = lo + dw_uleb(&c);
				break;
			default:
				return fail(w, "range list entry not read directly");
			}
			if (c.bad)
				break;
		}
		if (lo <= addr && addr < hi)
			return 1;
	}
	return fail(w, "truncated range list");
}

/* As dwarf_haspc: low/high pc first, else DW_AT_ranges. */
static int block_holds(struct walk *w, const struct block *b, uint64_t addr)
{
	if (b->has_low && b->has_high) {
		uint64_t hi = b->high_form == DW_FORM_addr ? b->high :
			      b->low + b->high;

		return b->low <= addr && addr < hi;
	}
	if (b->has_ranges)
		return ranges_hold(w, b->ranges, addr);
	return 0;
}

/* As dwarf_diename: DW_AT_name, else through abstract_origin or
 * specification. */
static int die_name(struct walk *w, uint64_t off, const char **name)
{
	const uint8_t *info = w->s->info.p;
	int hop;

	*name = NULL;
	for (hop = 0; hop <= MAX_HOPS; hop++) {
		struct dw_cursor c = { info + off, info + w->u->end, 0 };
		const struct dw_abbrev *ab = dw_abbrev_of(w->a, dw_uleb(&c));
		uint64_t origin = 0, spec = 0;
		int has_origin = 0, has_spec = 0;
		uint32_t i;

		if (!ab)
			return fail(w, "undefined abbreviation code");
		for (i = 0; i < ab->nattr; i++) {
			const struct dw_abbrev_attr *at =
				&w->a->attrs[ab->first + i];
			struct dw_value v;

			if (at->name != DW_AT_name &&
			    at->name != DW_AT_abstract_origin &&
			    at->name != DW_AT_specification && at->size >= 0) {
				if (dw_need(&c, at->size))
					c.p += at->size;
				continue;
			}
			if (dw_form_read(&c, at->form, &w->u->fmt,
					 at->implicit, &v))
				return fail(w, "unknown attribute form");
			if (at->name == DW_AT_name) {
				if (at->form == DW_FORM_string)
					*name = (const char *)v.block;
				else if (at->form == DW_FORM_strp)
					*name = dw_sect_str(&w->s->str, v.u);
				else if (at->form == DW_FORM_line_strp)
					*name = dw_sect_str(&w->s->line_str,
							    v.u);
				else
					return fail(w, "name form not read directly");
				if (!*name)
					return fail(w, "name outside its section");
				return 0;
			}
			if (at->name == DW_AT_abstract_origin) {
				if (ref_get(w, at->form, v.u, &origin))
					return -1;
				has_origin = 1;
			} else if (at->name == DW_AT_specification) {
				if (ref_get(w, at->form, v.u, &spec))
					return -1;
				has_spec = 1;
			}
		}
		if (c.bad)
			return fail(w, "truncated DIE");
		if (!has_origin && !has_spec)
			return 0;
		off = has_origin ? origin : spec;
	}
	return 0;
}

/* The children of a DIE, from p: descend() over raw bytes. */
static int walk_children(struct walk *w, const uint8_t *p, uint64_t addr,
			 struct dw_inline *chain, int depth, int max)
{
	const uint8_t *info = w->s->info.p;
	struct dw_cursor c = { p, info + w->u->end, 0 };

	if (depth >= max)
		return depth;
	for (;;) {
		uint64_t off = c.p - info, code = dw_uleb(&c), sib = 0;
		const struct dw_abbrev *ab;
		struct block b;
		int got;

		if (c.bad)
			return fail(w, "truncated DIE tree");
		if (!code)
			return depth;
		if (!(ab = dw_abbrev_of(w->a, code)))
			return fail(w, "undefined abbreviation code");
		if (ab->tag == DW_TAG_inlined_subroutine ||
		    ab->tag == DW_TAG_lexical_block) {
			if (block_read(w, &c, ab, &b))
				return -1;
			got = block_holds(w, &b, addr);
			if (got < 0)
				return -1;
			if (got) {
				if (ab->tag == DW_TAG_inlined_subroutine) {
					struct dw_inline *f = &chain[depth++];

					if (die_name(w, off, &f->name))
						return -1;
					f->call_file = b.call_file;
					f->has_call_file = b.has_call_file;
					f->call_line = (int)b.call_line;
				}
				if (!ab->children)
					return depth;
				return walk_children(w, c.p, addr, chain,
						     depth, max);
			}
			if (ab->tag == DW_TAG_lexical_block && !b.has_low &&
			    !b.has_ranges && ab->children) {
				got = walk_children(w, c.p, addr, chain, depth,
						    max);
				if (got < 0 || got > depth)
					return got;
			}
			sib = b.has_sibling ? b.sibling : 0;
		} else if (dw_die_skip(&c, w->a, ab, w->u, &sib, w->why)) {
			return -1;
		}
		if (!ab->children)
			continue;
		if (dw_sibling_ok(&c, info, w->u, sib))
			c.p = info + sib;
		else if (dw_skip_children(&c, w->a, w->u, info, w->why))
			return -1;
	}
}

int dw_inline_chain(const struct dw_sections *s, const struct dw_unit *u,
		    const struct dw_abbrevs *a, uint64_t func_off,
		    uint64_t addr, struct dw_inline *chain, int max,
		    const char **why)
{
	struct walk w = { s, u, a, why, 0, 0 };
	const uint8_t *info = s->info.p;
	struct dw_cursor c;
	const struct dw_abbrev *ab;
	uint64_t sib;

	if (u->end > s->info.n || func_off < u->die_off || func_off >= u->end)
		return fail(&w, "function outside its unit");
	c = (struct dw_cursor){ info + func_off, info + u->end, 0 };
	if (!(ab = dw_abbrev_of(a, dw_uleb(&c))))
		return fail(&w, "undefined abbreviation code");
	if (dw_die_skip(&c, a, ab, u, &sib, why))
		return -1;
	if (!ab->children)
		return 0;
	return walk_children(&w, c.p, addr, chain, 0, max);
}
