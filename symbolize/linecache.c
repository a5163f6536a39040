// SPDX-License-Identifier: GPL-2.0-only
#include "linecache.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/u64map.h"

/*
 * The file: a header, then one record a CU, each 8-byte aligned:
 *   u64 cu_off, u32 nfiles, u32 nrows, u32 names (bytes), u32 0,
 *   the file names (NUL-terminated, "" for none), padding to 8,
 *   nrows struct lrow.
 * Native byte order and layout: the header's check word says which.
 */
#define MAGIC "PKTLINE1"
#define CHECK 0x0102030405060708ull

struct header {
	char magic[8];
	uint64_t check;
	char build_id[72];
};

struct rec {
	uint64_t cu_off;
	uint32_t nfiles, nrows, names, zero;
};

struct linecache {
	char path[4096];
	char build_id[72];
	struct {
		const char *data;   /* the file, mapped; NULL: none */
		size_t len;
	} old;
	size_t good;                /* of old: header and whole records */
	struct u64map at;           /* cu_off -> its record in old */
	char *fresh;                /* records decoded this run */
	size_t nfresh, capfresh;
};

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Index the records of c->old. c->good: the bytes that read as this
 * build-id's cache, header and whole records; -1 when the header does
 * not (then it is dropped), 1 when a record after them does not (a run
 * killed while it appended: the next write puts the good ones back). */
static int index_old(struct linecache *c)
{
	const char *p = c->old.data, *end = p + c->old.len;
	const struct header *h = (const void *)p;
	int added;

	c->good = 0;
	if (c->old.len < sizeof(*h) || memcmp(h->magic, MAGIC, 8) ||
	    h->check != CHECK || strncmp(h->build_id, c->build_id, sizeof(h->build_id)))
		return -1;
	for (p += sizeof(*h); p < end;) {
		const struct rec *r = (const void *)p;
		size_t len;
		void **slot;

		c->good = (size_t)(p - c->old.data);
		if ((size_t)(end - p) < sizeof(*r))
			return 1;
		len = sizeof(*r) + pad8(r->names) + (size_t)r->nrows * sizeof(struct lrow);
		if (len > (size_t)(end - p) || r->zero ||
		    (r->names && p[sizeof(*r) + r->names - 1]))
			return 1;
		slot = u64map_at(&c->at, r->cu_off, &added);
		if (!slot)
			return -1;
		*slot = (void *)p;
		p += len;
	}
	c->good = c->old.len;
	return 0;
}

static void drop_old(struct linecache *c)
{
	if (c->old.data)
		munmap((void *)c->old.data, c->old.len);
	c->old.data = NULL;
	c->old.len = 0;
	u64map_free(&c->at);
}

struct linecache *linecache_open(const char *dir, const char *build_id)
{
	struct linecache *c;

	if (!dir || !build_id || strlen(build_id) >= sizeof(c->build_id))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	snprintf(c->build_id, sizeof(c->build_id), "%s", build_id);
	if (snprintf(c->path, sizeof(c->path), "%s/%s.lines", dir, build_id) >=
	    (int)sizeof(c->path)) {
		free(c);
		return NULL;
	}
	/* mapped, not read: a run reads the pages of the CUs it looks
	 * up. A cache that cannot be read is none: it is written anew */
	{
		int fd = open(c->path, O_RDONLY | O_CLOEXEC);
		struct stat st;
		void *m;

		if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0 &&
		    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			      fd, 0)) != MAP_FAILED) {
			c->old.data = m;
			c->old.len = (size_t)st.st_size;
			/* a bad tail keeps the good records before it */
			if (index_old(c) < 0)
				drop_old(c);
		}
		if (fd >= 0)
			close(fd);
	}
	return c;
}

/* t from a record (in the cache file or fresh) */
static int from_record(const char *p, struct linetab *t, int copy)
{
	const struct rec *r = (const void *)p;
	const char *names = p + sizeof(*r);
	size_t i, rows = sizeof(*r) + pad8(r->names);

	memset(t, 0, sizeof(*t));
	t->files = calloc(r->nfiles ? r->nfiles : 1, sizeof(*t->files));
	if (!t->files)
		return -1;
	for (i = 0; i < r->nfiles; i++) {
		t->files[i] = *names ? names : NULL;
		names += strlen(names) + 1;
	}
	t->nfiles = r->nfiles;
	t->nrows = r->nrows;
	t->rows = (const void *)(p + rows);
	if (!copy)
		return 0;
	/* a fresh record moves when the next one is added: a copy */
	{
		size_t len = rows + (size_t)r->nrows * sizeof(struct lrow);
		char *own = malloc(len);

		free(t->files);
		if (!own || (memcpy(own, p, len), from_record(own, t, 0))) {
			free(own);
			memset(t, 0, sizeof(*t));
			return -1;
		}
		t->own = own;
	}
	return 0;
}

/* The CU's table from libdw, as a record appended to c->fresh (or to a
 * buffer of its own when there is no cache); its offset, or -1. */
static ssize_t decode(char **buf, size_t *n, size_t *cap, Dwarf_Die *cudie,
		      uint64_t cu_off)
{
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nlines, nfiles, i, names = 0, at = *n, len;
	struct rec r = { .cu_off = cu_off };
	struct lrow *row;
	char *q;

	if (dwarf_getsrclines(cudie, &lines, &nlines) ||
	    dwarf_getsrcfiles(cudie, &files, &nfiles))
		return -1;
	for (i = 0; i < nfiles; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);

		names += (f ? strlen(f) : 0) + 1;
	}
	if (names > UINT32_MAX || nlines > UINT32_MAX || nfiles > UINT32_MAX)
		return -1;
	r.nfiles = (uint32_t)nfiles;
	r.nrows = (uint32_t)nlines;
	r.names = (uint32_t)names;
	len = sizeof(r) + pad8(names) + nlines * sizeof(struct lrow);
	if (ARRAY_GROW(*buf, at + len, *cap))
		return -1;
	q = *buf + at;
	memset(q, 0, len);
	memcpy(q, &r, sizeof(r));
	q += sizeof(r);
	for (i = 0; i < nfiles; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);
		size_t l = f ? strlen(f) : 0;

		memcpy(q, f ? f : "", l + 1);
		q += l + 1;
	}
	row = (struct lrow *)(*buf + at + sizeof(r) + pad8(names));
	for (i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a = 0;
		Dwarf_Files *lf;
		size_t fi = 0;
		bool end = false;
		int ln = 0;

		dwarf_lineaddr(l, &a);
		dwarf_lineno(l, &ln);
		dwarf_lineendsequence(l, &end);
		if (dwarf_line_file(l, &lf, &fi) || fi >= nfiles)
			fi = 0;
		row[i].addr = a;
		row[i].file = (uint32_t)fi;
		row[i].line = ((uint32_t)ln & ~LROW_END) | (end ? LROW_END : 0);
	}
	*n = at + len;
	return (ssize_t)at;
}

int linecache_get(struct linecache *c, Dwarf_Die *cudie, uint64_t cu_off,
		  struct linetab *t)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	ssize_t at;
	int added;

	memset(t, 0, sizeof(*t));
	if (c && c->old.data) {
		void **slot = u64map_at(&c->at, cu_off, &added);

		if (slot && *slot)
			return from_record(*slot, t, 0);
	}
	if (!c) {
		at = decode(&buf, &n, &cap, cudie, cu_off);
		if (at < 0 || from_record(buf, t, 0)) {
			free(buf);
			return -1;
		}
		t->own = buf;
		return 0;
	}
	at = decode(&c->fresh, &c->nfresh, &c->capfresh, cudie, cu_off);
	return at < 0 ? -1 : from_record(c->fresh + at, t, 1);
}

const struct lrow *linetab_find(const struct linetab *t, uint64_t addr)
{
	size_t l = 0, u;

	if (!t->nrows)
		return NULL;
	u = t->nrows - 1;
	while (l < u) {
		size_t idx = u - (u - l) / 2;

		if (addr < t->rows[idx].addr)
			u = idx - 1;
		else
			l = idx;
	}
	if (addr < t->rows[l].addr || (t->rows[l].line & LROW_END))
		return NULL;
	return &t->rows[l];
}

void linetab_free(struct linetab *t)
{
	free(t->files);
	free(t->own);
	memset(t, 0, sizeof(*t));
}

/* Append the fresh records to a whole cache file: one write, which
 * O_APPEND keeps whole beside another run's. 0, or -1 to rewrite. */
static int append_fresh(struct linecache *c)
{
	int fd = open(c->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, c->fresh, c->nfresh);
	close(fd);
	return n == (ssize_t)c->nfresh ? 0 : -1;
}

/* The whole file anew: the header, the good records and the fresh,
 * written beside and renamed into place, so a reader never sees half
 * of it; what fails leaves the old file. */
static void rewrite(struct linecache *c)
{
	struct header h = { .check = CHECK };
	char tmp[4200];
	FILE *f;
	int bad;

	memcpy(h.magic, MAGIC, 8);
	snprintf(h.build_id, sizeof(h.build_id), "%s", c->build_id);
	snprintf(tmp, sizeof(tmp), "%s.%d", c->path, (int)getpid());
	for (char *s = strchr(tmp + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(tmp, 0755);
		*s = '/';
	}
	f = fopen(tmp, "wb");
	if (!f)
		return;
	bad = fwrite(&h, sizeof(h), 1, f) != 1 ||
	      (c->good > sizeof(h) &&
	       fwrite(c->old.data + sizeof(h), c->good - sizeof(h), 1, f) != 1) ||
	      fwrite(c->fresh, c->nfresh, 1, f) != 1;
	if (fclose(f) || bad || rename(tmp, c->path))
		unlink(tmp);
}

void linecache_close(struct linecache *c)
{
	if (!c)
		return;
	if (c->nfresh && (!c->old.data || c->good != c->old.len ||
			  append_fresh(c)))
		rewrite(c);
	drop_old(c);
	free(c->fresh);
	free(c);
}
