// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw DWARF access shared by the line-program decoder and the CU scanner:
 * attribute forms and the sections of the file libdw opened.
 */
#include "dwarf-read.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <string.h>

const char *dw_sect_str(const struct dw_sect *s, uint64_t off)
{
	if (!s->p || off >= s->n || !memchr(s->p + off, 0, s->n - off))
		return NULL;
	return (const char *)s->p + off;
}

int dw_form_fixed_size(unsigned form, const struct dw_fmt *f)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return f->addr_size;
	case DW_FORM_ref_addr:
		return f->version <= 2 ? f->addr_size : f->off_size;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return f->off_size;
	default:
		return -1;
	}
}

static int read_block(struct dw_cursor *c, uint64_t len, struct dw_value *v)
{
	if (!dw_need(c, len))
		return 0;
	v->block = c->p;
	v->len = len;
	c->p += len;
	return 0;
}

int dw_form_read(struct dw_cursor *c, unsigned form, const struct dw_fmt *f,
		 int64_t implicit, struct dw_value *v)
{
	int size;

	v->u = 0;
	v->block = NULL;
	v->len = 0;
	switch (form) {
	case DW_FORM_implicit_const:
		v->u = (uint64_t)implicit;
		return 0;
	case DW_FORM_flag_present:
		v->u = 1;
		return 0;
	case DW_FORM_string:
		v->block = (const uint8_t *)dw_cstr(c);
		v->len = v->block ? strlen((const char *)v->block) : 0;
		return 0;
	case DW_FORM_block1:
		return read_block(c, dw_u8(c), v);
	case DW_FORM_block2:
		return read_block(c, dw_fixed(c, 2), v);
	case DW_FORM_block4:
		return read_block(c, dw_fixed(c, 4), v);
	case DW_FORM_block:
	case DW_FORM_exprloc:
		return read_block(c, dw_uleb(c), v);
	case DW_FORM_data16:
		return read_block(c, 16, v);
	case DW_FORM_sdata:
		v->u = (uint64_t)dw_sleb(c);
		return 0;
	case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx:
	case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		v->u = dw_uleb(c);
		return 0;
	case DW_FORM_indirect:
		form = dw_uleb(c);
		if (form == DW_FORM_indirect || form == DW_FORM_implicit_const)
			return -1;
		return dw_form_read(c, form, f, implicit, v);
	}
	size = dw_form_fixed_size(form, f);
	if (size < 0)
		return -1;
	v->u = dw_fixed(c, size);
	return 0;
}

int dw_sections_get(struct dw_sections *s, void *dwarf, const char **why)
{
	static const struct {
		const char *name;
		size_t off;
	} want[] = {
		{ ".debug_info", offsetof(struct dw_sections, info) },
		{ ".debug_abbrev", offsetof(struct dw_sections, abbrev) },
		{ ".debug_line", offsetof(struct dw_sections, line) },
		{ ".debug_str", offsetof(struct dw_sections, str) },
		{ ".debug_line_str", offsetof(struct dw_sections, line_str) },
		{ ".debug_ranges", offsetof(struct dw_sections, ranges) },
		{ ".debug_rnglists", offsetof(struct dw_sections, rnglists) },
	};
	Elf *elf = dwarf_getelf(dwarf);
	Elf_Scn *scn = NULL;
	size_t shstrndx, i;
	const char *ident;

	memset(s, 0, sizeof(*s));
	ident = elf ? elf_getident(elf, NULL) : NULL;
	if (!ident || elf_getshdrstrndx(elf, &shstrndx)) {
		*why = "no ELF behind the DWARF";
		return -1;
	}
	if (ident[EI_DATA] != ELFDATA2LSB) {
		*why = "big-endian DWARF";
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			struct dw_sect *t = (struct dw_sect *)((char *)s +
							       want[i].off);

			if (strcmp(name, want[i].name))
				continue;
			/* libdw decompresses in place when it opens them. */
			if ((sh.sh_flags & SHF_COMPRESSED) ||
			    !(d = elf_getdata(scn, NULL)) || !d->d_buf) {
				*why = "compressed or unreadable debug sections";
				return -1;
			}
			t->p = d->d_buf;
			t->n = d->d_size;
		}
	}
	if (!s->info.p || !s->abbrev.p || !s->line.p) {
		*why = "no .debug_info, .debug_abbrev or .debug_line section";
		return -1;
	}
	return 0;
}
