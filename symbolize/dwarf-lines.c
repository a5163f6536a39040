// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DWARF line-number program (.debug_line, versions 2-5) decoded into
 * a compact array of (address, file, line) rows sorted by address.
 *
 * libdw's dwarf_getsrclines keeps ~60 bytes per row, allocates each row
 * beyond the first 2,048 and sorts an array of pointers: ~1.6M
 * instructions per kernel CU, most of perpkt resolve's time. Here a row
 * is 16 bytes, each sequence comes out as one ascending run, and sorting
 * is ordering the runs (merging only those that interleave). Answers
 * are libdw's exactly: the same row order (end of a sequence before a
 * row at the same address, otherwise program order), the same search,
 * the same file names.
 */
#include "symbolize.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf-read.h"
#include "symbolize-internal.h"

/* Standard opcodes 1..12 and their operand counts (DWARF 3+). */
static const uint8_t std_lengths[13] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

struct decoder {
	struct line_table *t;
	size_t caprows, capfiles;
	const char **dirs;
	size_t ndirs;
};

static int add_file(struct decoder *d, const char *name, uint64_t dir)
{
	struct line_table *t = d->t;

	if (!name || dir >= d->ndirs)
		return -1;
	if (t->nfiles == d->capfiles) {
		size_t cap = d->capfiles ? d->capfiles * 2 : 64;
		struct line_file *f = realloc(t->files, cap * sizeof(*f));

		if (!f)
			return -1;
		t->files = f;
		d->capfiles = cap;
	}
	t->files[t->nfiles++] = (struct line_file){ d->dirs[dir], name, NULL };
	return 0;
}

/* A DWARF 5 string form, as libdw's dwarf_formstring reads it. */
static const char *form_string(const struct dw_sections *s, unsigned form,
			       const struct dw_value *v)
{
	switch (form) {
	case DW_FORM_string:
		return (const char *)v->block;
	case DW_FORM_strp:
		return dw_sect_str(&s->str, v->u);
	case DW_FORM_line_strp:
		return dw_sect_str(&s->line_str, v->u);
	default:
		return NULL;  /* strx: needs the CU's str_offsets_base */
	}
}

/*
 * DWARF 5 directory or file entries: a format (content type, form) list,
 * then the entries. Directories when `files` is 0.
 */
static int read_v5_entries(struct decoder *d, struct dw_cursor *c,
			   const struct dw_sections *s,
			   const struct dw_fmt *fmt, int files,
			   const char **why)
{
	uint64_t types[32], forms[32], n, i;
	unsigned nfmt = dw_u8(c), k;

	if (nfmt > 32) {
		*why = "too many line-table entry formats";
		return -1;
	}
	for (k = 0; k < nfmt; k++) {
		types[k] = dw_uleb(c);
		forms[k] = dw_uleb(c);
	}
	n = dw_uleb(c);
	if (c->bad || (nfmt && n > (size_t)(c->end - c->p) / nfmt) ||
	    (!nfmt && n)) {
		*why = "corrupt line-table header";
		return -1;
	}
	if (!files) {
		d->dirs = calloc(n ? n : 1, sizeof(*d->dirs));
		if (!d->dirs) {
			*why = "out of memory";
			return -1;
		}
		d->ndirs = n;
	}
	for (i = 0; i < n; i++) {
		const char *path = NULL;
		uint64_t dir = UINT64_MAX;

		for (k = 0; k < nfmt; k++) {
			struct dw_value v;

			if (dw_form_read(c, forms[k], fmt, 0, &v)) {
				*why = "unknown form in the line-table header";
				return -1;
			}
			if (types[k] == DW_LNCT_path)
				path = form_string(s, forms[k], &v);
			else if (types[k] == DW_LNCT_directory_index)
				dir = v.u;
		}
		if (!path) {
			*why = "line-table path in a form not read here";
			return -1;
		}
		if (!files)
			d->dirs[i] = path;
		else if (add_file(d, path, dir)) {
			*why = "bad directory index in the line-table header";
			return -1;
		}
	}
	return c->bad ? (*why = "truncated line-table header", -1) : 0;
}

/* DWARF 2-4: include_directories, then file_names, each list ending
 * with an empty string. Directory 0 is the compilation directory and
 * file 0 does not exist (libdw names it "???"). */
static int read_v4_entries(struct decoder *d, struct dw_cursor *c,
			   const char *comp_dir, const char **why)
{
	struct dw_cursor scan = *c;
	size_t n = 1;

	while (scan.p < scan.end && *scan.p)
		if (dw_cstr(&scan))
			n++;
	d->dirs = calloc(n, sizeof(*d->dirs));
	if (!d->dirs) {
		*why = "out of memory";
		return -1;
	}
	d->dirs[0] = comp_dir;
	for (d->ndirs = 1; d->ndirs < n; d->ndirs++)
		d->dirs[d->ndirs] = dw_cstr(c);
	dw_u8(c);
	d->t->files[d->t->nfiles++] = (struct line_file){ NULL, "???", NULL };
	while (c->p < c->end && *c->p) {
		const char *name = dw_cstr(c);
		uint64_t dir = dw_uleb(c);

		dw_uleb(c);   /* mtime */
		dw_uleb(c);   /* length */
		if (c->bad || add_file(d, name, dir)) {
			*why = "bad file entry in the line-table header";
			return -1;
		}
	}
	dw_u8(c);
	return c->bad ? (*why = "truncated line-table header", -1) : 0;
}

static int row_lt(const struct line_row *a, const struct line_row *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr;
	return (a->file & LINE_END_SEQ) && !(b->file & LINE_END_SEQ);
}

/* An ascending stretch of rows, in program order. */
struct run {
	uint64_t addr;   /* of its first row */
	int end;         /* its first row ends a sequence */
	size_t lo, hi;   /* rows[lo..hi) */
};

static int run_cmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end != y->end)
		return y->end - x->end;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int run_lo_cmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Stable merges of neighbouring runs until one is left. */
static void merge_runs(struct line_row **pa, struct line_row **pb,
		       struct run *runs, size_t nruns)
{
	struct line_row *a = *pa, *b = *pb, *tmp;

	while (nruns > 1) {
		size_t r, m = 0;

		for (r = 0; r < nruns; r += 2) {
			size_t lo = runs[r].lo, mid = runs[r].hi;
			/* An odd run out is copied as it is. */
			size_t hi = r + 1 < nruns ? runs[r + 1].hi : mid;
			size_t x = lo, y = mid, o = lo;

			while (x < mid && y < hi)
				b[o++] = row_lt(&a[y], &a[x]) ? a[y++] : a[x++];
			memcpy(&b[o], &a[x], (mid - x) * sizeof(*b));
			o += mid - x;
			memcpy(&b[o], &a[y], (hi - y) * sizeof(*b));
			runs[m].lo = lo;
			runs[m++].hi = hi;
		}
		nruns = m;
		tmp = a;
		a = b;
		b = tmp;
	}
	*pa = a;
	*pb = b;
}

/*
 * Rows of overlapping runs (in program order in runs[]) merged into out:
 * sequences the linker put at 0, rarely anything else.
 */
static int merge_cluster(const struct line_row *a, struct run *runs,
			 size_t nruns, struct line_row *out)
{
	size_t total = 0, i, o = 0;
	struct line_row *x, *y;

	qsort(runs, nruns, sizeof(*runs), run_lo_cmp);
	for (i = 0; i < nruns; i++)
		total += runs[i].hi - runs[i].lo;
	x = malloc(total * sizeof(*x));
	y = malloc(total * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	for (i = 0; i < nruns; i++) {
		size_t len = runs[i].hi - runs[i].lo;

		memcpy(&x[o], &a[runs[i].lo], len * sizeof(*x));
		runs[i].lo = o;
		runs[i].hi = o += len;
	}
	merge_runs(&x, &y, runs, nruns);
	memcpy(out, x, total * sizeof(*out));
	free(x);
	free(y);
	return 0;
}

/*
 * Stable sort by row_lt, as libdw orders its rows. The ascending runs
 * are the sequences, mostly disjoint: ordering the runs is then enough,
 * and only clusters of runs that interleave are merged.
 */
static int sort_rows(struct line_table *t)
{
	struct line_row *a = t->rows, *b;
	size_t n = t->nrows, nruns = 1, i, j, o;
	struct run *runs;

	for (i = 1; i < n; i++)
		nruns += row_lt(&a[i], &a[i - 1]);
	if (nruns == 1)
		return 0;
	runs = malloc(nruns * sizeof(*runs));
	b = malloc(n * sizeof(*b));
	if (!runs || !b)
		goto oom;
	for (i = 0, nruns = 0; i < n; i++) {
		if (i && !row_lt(&a[i], &a[i - 1]))
			continue;
		if (nruns)
			runs[nruns - 1].hi = i;
		runs[nruns++] = (struct run){ a[i].addr,
			!!(a[i].file & LINE_END_SEQ), i, n };
	}
	qsort(runs, nruns, sizeof(*runs), run_cmp);
	for (i = 0, o = 0; i < nruns; i = j) {
		/* The greatest row of the cluster so far (program index). */
		size_t last = runs[i].hi - 1, len = runs[i].hi - runs[i].lo;

		for (j = i + 1; j < nruns; j++) {
			const struct line_row *first = &a[runs[j].lo];
			size_t l = runs[j].hi - 1;

			if (!row_lt(first, &a[last]) &&
			    (row_lt(&a[last], first) || last < runs[j].lo))
				break;
			if (row_lt(&a[last], &a[l]) ||
			    (!row_lt(&a[l], &a[last]) && l > last))
				last = l;
			len += runs[j].hi - runs[j].lo;
		}
		if (j == i + 1)
			memcpy(&b[o], &a[runs[i].lo], len * sizeof(*b));
		else if (merge_cluster(a, &runs[i], j - i, &b[o]))
			goto oom;
		o += len;
	}
	t->rows = b;
	free(a);
	free(runs);
	return 0;
oom:
	free(runs);
	free(b);
	return -1;
}

struct program {
	const uint8_t *lengths;
	unsigned opcode_base, min_len, max_ops, line_range, addr_size;
	int line_base;
};

/*
 * The line-number program proper: the state machine of DWARF 6.2.2.
 * The hot loop of perpkt resolve: the cursor, registers and the row
 * array live in locals (stores to rows[] could otherwise alias them).
 */
static int run_program(struct decoder *d, struct dw_cursor *c,
		       const struct program *g, const char **why)
{
	struct dw_cursor in = *c;
	struct line_table *t = d->t;
	struct line_row *rows = t->rows;
	size_t n = t->nrows, cap = d->caprows;
	uint64_t addr = 0, file = 1, op_index = 0;
	const unsigned base = g->opcode_base, range = g->line_range;
	int64_t line = 1;

	/* is_stmt, columns, discriminators: libdw answers with any row. */
#define ADVANCE(adv) do {						\
	if (g->max_ops == 1) {						\
		addr += (uint64_t)g->min_len * (adv);			\
	} else {							\
		addr += g->min_len * ((op_index + (adv)) / g->max_ops);	\
		op_index = (op_index + (adv)) % g->max_ops;		\
	}								\
} while (0)
#define ROW(is_end) do {						\
	if (__builtin_expect(file >= LINE_END_SEQ || line < 0 ||	\
			     line > INT32_MAX, 0))			\
		goto bad_row;						\
	if (__builtin_expect(n == cap, 0)) {				\
		struct line_row *r_ = realloc(rows, 2 * cap * sizeof(*r_)); \
		if (!r_)						\
			goto bad_row;					\
		rows = r_;						\
		cap *= 2;						\
	}								\
	rows[n++] = (struct line_row){ addr,				\
		(uint32_t)file | ((is_end) ? LINE_END_SEQ : 0),		\
		(int32_t)line };					\
} while (0)
	while (in.p < in.end) {
		unsigned op = *in.p++;

		if (op >= base) {
			op -= base;
			line += g->line_base + (int)(op % range);
			ADVANCE(op / range);
			ROW(0);
			continue;
		}
		if (op == 0) {
			uint64_t len = dw_uleb(&in);
			const uint8_t *next;
			unsigned sub;

			if (in.bad || len == 0 || len >= 128 ||
			    len > (size_t)(in.end - in.p)) {
				*why = "bad extended opcode length";
				goto fail;
			}
			next = in.p + len;
			sub = *in.p++;
			switch (sub) {
			case DW_LNE_end_sequence: {
				size_t k;

				ROW(1);
				/* An end sorts before rows at its address:
				 * move it there now, so that each sequence
				 * stays one ascending run for sort_rows. */
				for (k = n - 1; k && rows[k - 1].addr == addr &&
				     !(rows[k - 1].file & LINE_END_SEQ); k--) {
					struct line_row r = rows[k];

					rows[k] = rows[k - 1];
					rows[k - 1] = r;
				}
				addr = op_index = 0;
				file = line = 1;
				break;
			}
			case DW_LNE_set_address:
				addr = dw_fixed(&in, g->addr_size);
				op_index = 0;
				break;
			case DW_LNE_define_file: {
				const char *name = dw_cstr(&in);
				uint64_t dir = dw_uleb(&in);

				dw_uleb(&in);  /* mtime */
				dw_uleb(&in);  /* length */
				t->rows = rows;
				t->nrows = n;
				if (in.bad || add_file(d, name, dir)) {
					*why = "bad DW_LNE_define_file";
					goto fail;
				}
				break;
			}
			default:  /* discriminator, vendor: no row data */
				in.p = next;
				break;
			}
			continue;
		}
		switch (op) {
		case DW_LNS_copy:
			ROW(0);
			break;
		case DW_LNS_advance_pc:
			ADVANCE(dw_uleb(&in));
			break;
		case DW_LNS_advance_line:
			line += dw_sleb(&in);
			break;
		case DW_LNS_set_file:
			file = dw_uleb(&in);
			break;
		case DW_LNS_const_add_pc:
			ADVANCE((255 - base) / range);
			break;
		case DW_LNS_fixed_advance_pc:
			addr += dw_fixed(&in, 2);
			op_index = 0;
			break;
		case DW_LNS_set_column:
		case DW_LNS_set_isa:
			dw_uleb(&in);
			break;
		case DW_LNS_negate_stmt:
		case DW_LNS_set_basic_block:
		case DW_LNS_set_prologue_end:
		case DW_LNS_set_epilogue_begin:
			break;
		default: {  /* a standard opcode of a later version */
			unsigned k;

			for (k = 0; k < g->lengths[op]; k++)
				dw_uleb(&in);
		}
		}
	}
#undef ROW
#undef ADVANCE
	t->rows = rows;
	t->nrows = n;
	d->caprows = cap;
	if (in.bad) {
		*why = "truncated line-number program";
		return -1;
	}
	return 0;
bad_row:
	*why = "line-table row out of range (or out of memory)";
fail:
	t->rows = rows;
	t->nrows = n;
	d->caprows = cap;
	return -1;
}

int line_table_decode(struct line_table *t, const struct dw_sections *s,
		      uint64_t off, unsigned addr_size, const char *comp_dir,
		      struct srcpath *sp, const char **why)
{
	struct dw_cursor c = { s->line.p, s->line.p + s->line.n, 0 };
	struct dw_fmt fmt = { addr_size, 4, 5 };
	struct decoder d = { .t = t };
	const uint8_t *lengths, *hdr_end;
	unsigned min_len, max_ops = 1, line_range, opcode_base, k;
	uint64_t len, hlen;
	struct program prog;
	int line_base;

	memset(t, 0, sizeof(*t));
	t->sp = sp;
	t->comp_dir = comp_dir;
	*why = "truncated line-table header";
	if (off >= s->line.n)
		goto fail;
	c.p += off;
	len = dw_fixed(&c, 4);
	if (len == 0xffffffff) {
		len = dw_fixed(&c, 8);
		fmt.off_size = 8;
	}
	if (c.bad || len > (size_t)(c.end - c.p))
		goto fail;
	c.end = c.p + len;
	fmt.version = dw_fixed(&c, 2);
	if (fmt.version < 2 || fmt.version > 5) {
		*why = "unknown line-table version";
		goto fail;
	}
	if (fmt.version >= 5 && (dw_u8(&c) != addr_size || dw_u8(&c) != 0)) {
		*why = "line-table address size differs from the unit's";
		goto fail;
	}
	hlen = dw_fixed(&c, fmt.off_size);
	if (c.bad || hlen > (size_t)(c.end - c.p))
		goto fail;
	hdr_end = c.p + hlen;
	min_len = dw_u8(&c);
	if (fmt.version >= 4)
		max_ops = dw_u8(&c);
	dw_u8(&c);  /* default_is_stmt */
	line_base = (int8_t)dw_u8(&c);
	line_range = dw_u8(&c);
	opcode_base = dw_u8(&c);
	if (c.bad || !max_ops || !line_range || !opcode_base ||
	    !dw_need(&c, opcode_base - 1)) {
		*why = "corrupt line-table header";
		goto fail;
	}
	lengths = c.p - 1;
	c.p += opcode_base - 1;
	/* libdw refuses opcodes whose operand count is not the standard
	 * one; leave such tables to it so both answer the same. */
	for (k = 1; k < opcode_base && k < 13; k++)
		if (lengths[k] != std_lengths[k]) {
			*why = "non-standard opcode lengths";
			goto fail;
		}
	if (fmt.version >= 5) {
		if (read_v5_entries(&d, &c, s, &fmt, 0, why) ||
		    read_v5_entries(&d, &c, s, &fmt, 1, why))
			goto fail;
	} else {
		d.capfiles = 64;
		t->files = malloc(d.capfiles * sizeof(*t->files));
		if (!t->files) {
			*why = "out of memory";
			goto fail;
		}
		if (read_v4_entries(&d, &c, comp_dir, why))
			goto fail;
	}
	if (c.p != hdr_end) {
		*why = "line-table header length mismatch";
		goto fail;
	}
	d.caprows = len / 3 + 16;  /* ~3 program bytes per row in practice */
	t->rows = malloc(d.caprows * sizeof(*t->rows));
	if (!t->rows) {
		*why = "out of memory";
		goto fail;
	}
	prog = (struct program){ lengths, opcode_base, min_len, max_ops,
				 line_range, addr_size, line_base };
	if (run_program(&d, &c, &prog, why))
		goto fail;
	if (sort_rows(t)) {
		*why = "out of memory";
		goto fail;
	}
	/* libdw marks the last row as an end, whatever it was. */
	if (t->nrows)
		t->rows[t->nrows - 1].file |= LINE_END_SEQ;
	free(d.dirs);
	return 0;
fail:
	free(d.dirs);
	line_table_free(t);
	return -1;
}

const struct line_row *line_table_find(const struct line_table *t,
				       uint64_t addr)
{
	size_t lo = 0, hi = t->nrows;

	/* The last row at or below addr, unless it ends a sequence. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || (t->rows[lo - 1].file & LINE_END_SEQ))
		return NULL;
	return &t->rows[lo - 1];
}

const char *line_table_file(struct line_table *t, uint64_t idx)
{
	struct line_file *f;

	if (idx >= t->nfiles)
		return NULL;
	f = &t->files[idx];
	if (!f->norm)
		f->norm = srcpath_join(t->sp, f->dir, f->name, t->comp_dir);
	return f->norm;
}

void line_table_free(struct line_table *t)
{
	free(t->rows);
	free(t->files);
	memset(t, 0, sizeof(*t));
}
