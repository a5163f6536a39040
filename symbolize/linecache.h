/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYMBOLIZE_LINECACHE_H
#define PERPKT_SYMBOLIZE_LINECACHE_H

/*
 * A CU's line table and file list, decoded once by libdw and kept.
 *
 * On a vmlinux most of a lookup in a CU not seen before is libdw
 * decoding that CU's whole line program (dwarf_getsrclines, which
 * dwarf_getsrcfiles also runs): measured 1.3 of 1.8 s for 2,000
 * addresses spread over a kernel's text. A table here holds what
 * perpkt reads of it (each row's address, file and line, and the CU's
 * file names), and a cache file per build-id keeps the tables of every
 * CU decoded, so the next run on the same vmlinux reads them instead,
 * as debuginfod clients keep what they fetched. A cache file that does
 * not read as one (truncated, another format) is ignored and replaced.
 */
#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

/* One row of a line table: DW_LNE_end_sequence in the top bit of line. */
struct lrow {
	uint64_t addr;
	uint32_t file;
	uint32_t line;
};
#define LROW_END (1u << 31)

struct linetab {
	const struct lrow *rows;    /* by address, as libdw sorts them */
	size_t nrows;
	const char **files;         /* raw names, dwarf_getsrcfiles' order */
	size_t nfiles;
	void *own;                  /* what to free; NULL: in the cache */
};

struct linecache;

/* The cache of the ELF with this build-id under dir (made when
 * missing); NULL when dir or build_id is NULL or out of memory (then
 * there is no cache: every table decoded). */
struct linecache *linecache_open(const char *dir, const char *build_id);
/* The table of the CU at cu_off: from the cache, else decoded from
 * cudie and kept for linecache_close to write. 0, or -1 when libdw
 * has no line table for the CU (t empty). c may be NULL. */
int linecache_get(struct linecache *c, Dwarf_Die *cudie, uint64_t cu_off,
		  struct linetab *t);
/* The row holding addr, as dwarf_getsrc_die finds it: the last row at
 * or below addr, unless that ends a sequence; NULL when none. */
const struct lrow *linetab_find(const struct linetab *t, uint64_t addr);
void linetab_free(struct linetab *t);
/* Write what was decoded (the old tables and the new), then free. */
void linecache_close(struct linecache *c);

#endif
