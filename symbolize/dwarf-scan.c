// SPDX-License-Identifier: GPL-2.0-only
/*
 * The concrete functions of one compilation unit, read straight from
 * .debug_info. A kernel CU has ~1,500 top-level DIEs (types, variables,
 * declarations) for a few dozen functions with code; libdw's
 * dwarf_siblingof and dwarf_tag cost ~500 instructions a DIE there.
 * Here a DIE is an abbreviation look-up and, for most, one add (the
 * size of its attributes is fixed) or a jump to DW_AT_sibling.
 */
#include "symbolize.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf-read.h"
#include "symbolize-internal.h"

/* Abbreviation codes above this are not indexed directly. */
#define MAX_CODE 65536

void dw_abbrevs_free(struct dw_abbrevs *a)
{
	free(a->v);
	free(a->attrs);
}

int dw_abbrevs_read(struct dw_abbrevs *a, const struct dw_sections *s,
		    const struct dw_unit *u, const char **why)
{
	struct dw_cursor c = { s->abbrev.p, s->abbrev.p + s->abbrev.n, 0 };
	size_t capcodes = 0;

	memset(a, 0, sizeof(*a));
	*why = "corrupt .debug_abbrev";
	if (u->abbrev_off >= s->abbrev.n)
		return -1;
	c.p += u->abbrev_off;
	for (;;) {
		uint64_t code = dw_uleb(&c), name, form;
		struct dw_abbrev *ab;

		if (c.bad)
			return -1;
		if (!code)
			return 0;
		if (code >= MAX_CODE) {
			*why = "abbreviation codes too large";
			return -1;
		}
		if (code >= capcodes) {
			size_t cap = capcodes ? capcodes : 256;
			struct dw_abbrev *v;

			while (cap <= code)
				cap *= 2;
			v = realloc(a->v, cap * sizeof(*v));
			if (!v)
				goto oom;
			memset(v + capcodes, 0, (cap - capcodes) * sizeof(*v));
			a->v = v;
			capcodes = cap;
		}
		if (code >= a->ncodes)
			a->ncodes = code + 1;
		ab = &a->v[code];
		ab->tag = dw_uleb(&c);
		ab->children = dw_u8(&c);
		ab->first = a->nattrs;
		ab->fixed = 0;
		ab->sib_at = -1;
		ab->defined = 1;
		while ((name = dw_uleb(&c)) | (form = dw_uleb(&c))) {
			struct dw_abbrev_attr *at;
			int size;

			if (c.bad || name > UINT16_MAX || form > UINT16_MAX)
				return -1;
			if (a->nattrs == a->capattrs) {
				size_t cap = a->capattrs ? a->capattrs * 2 : 1024;

				at = realloc(a->attrs, cap * sizeof(*at));
				if (!at)
					goto oom;
				a->attrs = at;
				a->capattrs = cap;
			}
			at = &a->attrs[a->nattrs++];
			at->name = name;
			at->form = form;
			at->implicit = form == DW_FORM_implicit_const ?
				       dw_sleb(&c) : 0;
			size = dw_form_fixed_size(form, &u->fmt);
			at->size = size;
			if (name == DW_AT_sibling && ab->fixed >= 0 &&
			    size > 0 && size <= 8 && form != DW_FORM_ref_addr) {
				ab->sib_at = ab->fixed;
				ab->sib_size = size;
			}
			if (size < 0 || ab->fixed < 0)
				ab->fixed = -1;
			else
				ab->fixed += size;
		}
		ab->nattr = a->nattrs - ab->first;
	}
oom:
	*why = "out of memory";
	return -1;
}

struct die {
	uint64_t low, high, sibling;
	unsigned high_form;
	int has_low, has_high, has_ranges, has_sibling;
};

static uint64_t le_read(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Past the attributes of a DIE that is not a function, noting its
 * DW_AT_sibling (absolute, 0 if none). The hot loop of the scan: fixed
 * sizes are added, variable ones read without building values.
 */
int dw_die_skip(struct dw_cursor *c, const struct dw_abbrevs *a,
		const struct dw_abbrev *ab, const struct dw_unit *u,
		uint64_t *sib, const char **why)
{
	const uint8_t *p = c->p, *end = c->end;
	uint32_t i;

	*sib = 0;
	if (ab->fixed >= 0) {
		if ((size_t)(end - p) < (size_t)ab->fixed)
			goto bad;
		if (ab->sib_at >= 0)
			*sib = u->off + le_read(p + ab->sib_at, ab->sib_size);
		c->p = p + ab->fixed;
		return 0;
	}
	for (i = 0; i < ab->nattr; i++) {
		const struct dw_abbrev_attr *at = &a->attrs[ab->first + i];
		const uint8_t *z;
		struct dw_value v;

		if (at->size >= 0 && at->name != DW_AT_sibling) {
			p += at->size;
			if (p > end)
				goto bad;
			continue;
		}
		switch (at->form) {
		case DW_FORM_string:
			z = memchr(p, 0, end - p);
			if (!z)
				goto bad;
			p = z + 1;
			continue;
		case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_strx:
		case DW_FORM_addrx: case DW_FORM_loclistx:
		case DW_FORM_rnglistx:
			while (p < end && (*p & 0x80))
				p++;
			if (p++ >= end)
				goto bad;
			continue;
		}
		/* Blocks, indirect forms, the sibling: the general reader. */
		c->p = p;
		if (dw_form_read(c, at->form, &u->fmt, at->implicit, &v)) {
			*why = "unknown attribute form";
			return -1;
		}
		if (c->bad)
			goto bad;
		p = c->p;
		if (at->name == DW_AT_sibling)
			*sib = v.u + (at->form == DW_FORM_ref_addr ? 0 : u->off);
	}
	c->p = p;
	return 0;
bad:
	c->bad = 1;
	c->p = end;
	*why = "truncated DIE";
	return -1;
}

/* Read the attributes of a function's DIE, keeping those that place it. */
static int die_read(struct dw_cursor *c, const struct dw_abbrevs *a,
		    const struct dw_abbrev *ab, const struct dw_unit *u,
		    struct die *d, const char **why)
{
	uint32_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < ab->nattr; i++) {
		const struct dw_abbrev_attr *at = &a->attrs[ab->first + i];
		struct dw_value v;

		switch (at->name) {
		case DW_AT_low_pc: case DW_AT_high_pc: case DW_AT_ranges:
		case DW_AT_sibling:
			break;
		default:
			/* Not needed: sized forms skipped without decoding. */
			if (at->size >= 0) {
				if (dw_need(c, at->size))
					c->p += at->size;
				continue;
			}
		}
		if (dw_form_read(c, at->form, &u->fmt, at->implicit, &v)) {
			*why = "unknown attribute form";
			return -1;
		}
		switch (at->name) {
		case DW_AT_low_pc:
			if (at->form != DW_FORM_addr) {
				*why = "DW_AT_low_pc not in DW_FORM_addr";
				return -1;
			}
			d->low = v.u;
			d->has_low = 1;
			break;
		case DW_AT_high_pc:
			d->high = v.u;
			d->high_form = at->form;
			d->has_high = 1;
			break;
		case DW_AT_ranges:
			d->has_ranges = 1;
			break;
		case DW_AT_sibling:
			d->sibling = v.u;
			if (at->form != DW_FORM_ref_addr)
				d->sibling += u->off;
			d->has_sibling = 1;
			break;
		}
	}
	return c->bad ? (*why = "truncated DIE", -1) : 0;
}

/* Where the children of a DIE end: its sibling when that is sane. */
int dw_sibling_ok(const struct dw_cursor *c, const uint8_t *info,
		      const struct dw_unit *u, uint64_t sib)
{
	return sib > (uint64_t)(c->p - info) && sib < u->end;
}

/* Past the children of a DIE: sibling jumps where given, else a walk. */
int dw_skip_children(struct dw_cursor *c, const struct dw_abbrevs *a,
			 const struct dw_unit *u, const uint8_t *info,
			 const char **why)
{
	size_t depth = 1;

	while (depth) {
		const struct dw_abbrev *ab;
		uint64_t code = dw_uleb(c), sib;

		if (c->bad)
			break;
		if (!code) {
			depth--;
			continue;
		}
		if (!(ab = dw_abbrev_of(a, code))) {
			*why = "undefined abbreviation code";
			return -1;
		}
		if (dw_die_skip(c, a, ab, u, &sib, why))
			return -1;
		if (!ab->children)
			continue;
		if (dw_sibling_ok(c, info, u, sib))
			c->p = info + sib;
		else
			depth++;
	}
	return c->bad ? (*why = "truncated DIE tree", -1) : 0;
}

int dw_range_push(struct dw_ranges *r, uint64_t lo, uint64_t hi, uint64_t idx)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct dw_range *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct dw_range){ lo, hi, idx };
	return 0;
}

int dw_scan_functions_abbrevs(const struct dw_sections *s,
			      const struct dw_unit *u,
			      const struct dw_abbrevs *a,
			      struct dw_ranges *funcs, struct dw_ranges *todo,
			      const char **why)
{
	const uint8_t *info = s->info.p;
	struct dw_cursor c = { info, info, 0 };
	const struct dw_abbrev *ab;
	struct die d;

	if (u->end > s->info.n || u->die_off >= u->end) {
		*why = "unit outside .debug_info";
		return -1;
	}
	c.p = info + u->die_off;
	c.end = info + u->end;
	/* The CU DIE itself, then its children one by one. */
	if (!(ab = dw_abbrev_of(a, dw_uleb(&c))))
		goto bad;
	if (die_read(&c, a, ab, u, &d, why))
		return -1;
	if (!ab->children)
		return 0;
	for (;;) {
		uint64_t off = c.p - info, code = dw_uleb(&c), sib;

		if (c.bad || !code)
			break;
		if (!(ab = dw_abbrev_of(a, code)))
			goto bad;
		if (ab->tag != DW_TAG_subprogram) {
			if (dw_die_skip(&c, a, ab, u, &sib, why))
				return -1;
		} else {
			if (die_read(&c, a, ab, u, &d, why))
				return -1;
			sib = d.has_sibling ? d.sibling : 0;
			/* As dwarf_ranges: low/high first, else DW_AT_ranges. */
			if (d.has_low && d.has_high) {
				uint64_t hi = d.high_form == DW_FORM_addr ?
					      d.high : d.low + d.high;

				if (hi > d.low && d.low &&
				    dw_range_push(funcs, d.low, hi, off))
					goto oom;
			} else if (d.has_ranges &&
				   dw_range_push(todo, 0, 0, off)) {
				goto oom;
			}
		}
		if (!ab->children)
			continue;
		if (dw_sibling_ok(&c, info, u, sib))
			c.p = info + sib;
		else if (dw_skip_children(&c, a, u, info, why))
			return -1;
	}
	if (c.bad) {
		*why = "truncated DIE tree";
		return -1;
	}
	return 0;
bad:
	*why = "undefined abbreviation code";
	return -1;
oom:
	*why = "out of memory";
	return -1;
}

int dw_scan_functions(const struct dw_sections *s, const struct dw_unit *u,
		      struct dw_ranges *funcs, struct dw_ranges *todo,
		      const char **why)
{
	struct dw_abbrevs a;
	int ret;

	if (dw_abbrevs_read(&a, s, u, why)) {
		dw_abbrevs_free(&a);
		return -1;
	}
	ret = dw_scan_functions_abbrevs(s, u, &a, funcs, todo, why);
	dw_abbrevs_free(&a);
	return ret;
}
