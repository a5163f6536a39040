/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DWARF_READ_H
#define PERPKT_DWARF_READ_H

/*
 * Bounded readers of raw DWARF bytes, for the two hot paths perpkt
 * decodes itself (line programs, the top level of a CU) instead of
 * going through libdw. Every read checks the end; a read past it sets
 * `bad` and returns 0, so callers test once at the end of a record.
 * Little-endian only: x86 and arm64 kernels (dw_sections_get refuses
 * big-endian files so libdw handles them).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct dw_cursor {
	const uint8_t *p, *end;
	int bad;
};

/* A raw section (decompressed by libdw when it was compressed). */
struct dw_sect {
	const uint8_t *p;
	size_t n;
};

struct dw_sections {
	struct dw_sect info, abbrev, line, str, line_str;
	struct dw_sect ranges, rnglists;   /* may be absent (NULL) */
};

/* How the unit the bytes belong to encodes sizes. */
struct dw_fmt {
	unsigned addr_size;   /* 4 or 8 */
	unsigned off_size;    /* 4 (32-bit DWARF) or 8 */
	unsigned version;
};

/* One decoded attribute value: a number or a pointer into a section. */
struct dw_value {
	uint64_t u;
	const uint8_t *block;   /* strings and blocks; NULL for numbers */
	size_t len;             /* of block */
};

static inline int dw_need(struct dw_cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	return 1;
}

static inline uint64_t dw_u8(struct dw_cursor *c)
{
	return dw_need(c, 1) ? *c->p++ : 0;
}

static inline uint64_t dw_fixed(struct dw_cursor *c, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	if (!dw_need(c, n))
		return 0;
	for (i = 0; i < n && i < 8; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static inline uint64_t dw_uleb(struct dw_cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return 0;
}

static inline int64_t dw_sleb(struct dw_cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	c->bad = 1;
	return 0;
}

/* A NUL-terminated string in place; NULL (and bad) when unterminated. */
static inline const char *dw_cstr(struct dw_cursor *c)
{
	const uint8_t *z;

	if (c->bad)
		return NULL;
	z = memchr(c->p, 0, c->end - c->p);
	if (!z) {
		c->bad = 1;
		c->p = c->end;
		return NULL;
	}
	{
		const char *s = (const char *)c->p;

		c->p = z + 1;
		return s;
	}
}

/* A string at `off` of a string section, NULL when out of bounds. */
const char *dw_sect_str(const struct dw_sect *s, uint64_t off);

/*
 * Read one attribute value of `form` (DWARF 2-5 and the GNU forms that
 * need no other file). Returns 0, or -1 for a form it does not know or
 * one that needs a section it does not read (strx, addrx, alt files):
 * the caller then leaves the unit to libdw.
 */
int dw_form_read(struct dw_cursor *c, unsigned form, const struct dw_fmt *f,
		 int64_t implicit, struct dw_value *v);
/* Bytes a form always takes, or -1 when that depends on the data. */
int dw_form_fixed_size(unsigned form, const struct dw_fmt *f);

/* The raw sections of an open libdw handle; -1 with *why set when they
 * cannot be read directly (big-endian, missing .debug_line ...). */
int dw_sections_get(struct dw_sections *s, void *dwarf, const char **why);

#endif
