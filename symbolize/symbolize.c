// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbol table shared by every source (kallsyms, saved entries):
 * one array sorted by address, binary search, bucket cached per symbol.
 */
#include "symbolize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-internal.h"

/* kallsyms gives no end for the last symbol: assume it fits a page. */
#define LAST_SYMBOL_SIZE 4096

enum sym_class { CLASS_FUNC, CLASS_MARKER, CLASS_BOUND };

static int has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !memcmp(s + ls - lx, suffix, lx);
}

int sym_is_padding(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

/*
 * Section markers share their address with a real function (_stext and
 * srso_alias_untrain_ret): they must lose the tie. End markers are
 * followed by a hole (data, init text), so they end the previous
 * function like padding does and are never a result.
 */
static enum sym_class sym_class(const char *name)
{
	if (sym_is_padding(name) || !strcmp(name, "_etext") ||
	    !strcmp(name, "_einittext") || has_suffix(name, "_text_end"))
		return CLASS_BOUND;
	if (!strcmp(name, "_text") || !strcmp(name, "_stext") ||
	    !strcmp(name, "_sinittext") || has_suffix(name, "_text_start") ||
	    !strncmp(name, "__pi_", 5))
		return CLASS_MARKER;
	return CLASS_FUNC;
}

static int type_rank(char t)
{
	switch (t) {
	case 'T': return 0;
	case 'W': return 1;
	case 't': return 2;
	default: return 3;
	}
}

/* Sort key: address, then the preference among symbols at one address
 * (real function, global, T before W, smallest name), so the first of
 * each run is the one kept and the result never depends on input order. */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	int cx, cy;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	cx = sym_class(x->name);
	cy = sym_class(y->name);
	if (cx != cy)
		return cx - cy;
	if (type_rank(x->type) != type_rank(y->type))
		return type_rank(x->type) - type_rank(y->type);
	return strcmp(x->name, y->name);
}

/* Fold every name once: cheap (a strchr for most) and it keeps
 * resolve free of allocation. */
static int fold_all(struct symbolizer *s, struct sym_error *err)
{
	size_t i, total = 0, off = 0;
	char *p;

	for (i = 0; i < s->n; i++) {
		s->syms[i].folded = s->syms[i].name;
		if (strchr(s->syms[i].name, '.'))
			total += strlen(s->syms[i].name) + 1;
	}
	if (!total)
		return 0;
	s->folded = malloc(total);
	if (!s->folded)
		return sym_fail(err, "out of memory folding %zu symbol names", s->n);
	for (i = 0; i < s->n; i++) {
		const char *name = s->syms[i].name;

		if (!strchr(name, '.'))
			continue;
		p = s->folded + off;
		symbol_fold(name, p, total - off);
		if (strcmp(p, name)) {
			s->syms[i].folded = p;
			off += strlen(p) + 1;
		}
	}
	return 0;
}

static uint64_t find_text_addr(const struct sym *syms, size_t n)
{
	uint64_t stext = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (syms[i].module)
			continue;
		if (!strcmp(syms[i].name, "_text"))
			return syms[i].addr;
		if (!strcmp(syms[i].name, "_stext"))
			stext = syms[i].addr;
	}
	return stext;
}

int symbolizer_build(struct symbolizer **out, struct sym *syms, size_t n,
		     char *strings, const char *origin, int sized,
		     struct sym_error *err)
{
	struct symbolizer *s;
	size_t i, j, kept = 0;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		free(syms);
		free(strings);
		return sym_fail(err, "out of memory for symbols of '%s'", origin);
	}
	s->syms = syms;
	s->strings = strings;
	s->text_addr = find_text_addr(syms, n);

	if (n > 1)
		qsort(syms, n, sizeof(*syms), sym_cmp);

	/* Keep the first of each address run, bounds included for now. */
	for (i = 0; i < n; i++) {
		if (kept && syms[kept - 1].addr == syms[i].addr)
			continue;
		syms[kept++] = syms[i];
	}
	n = kept;

	/* Sizes reach the next symbol; then drop the bounds. */
	for (i = 0, j = 0; i < n; i++) {
		struct sym *y = &syms[i];

		if (!sized)
			y->size = i + 1 < n ? syms[i + 1].addr - y->addr :
				  LAST_SYMBOL_SIZE;
		if (sym_class(y->name) == CLASS_BOUND)
			continue;
		y->rule = SYM_RULE_UNSET;
		y->unit = NULL;
		syms[j++] = *y;
	}
	s->n = j;

	s->addrs = malloc((s->n ? s->n : 1) * sizeof(*s->addrs));
	if (!s->addrs) {
		symbolizer_close(s);
		return sym_fail(err, "out of memory for symbols of '%s'", origin);
	}
	for (i = 0; i < s->n; i++)
		s->addrs[i] = syms[i].addr;

	if (fold_all(s, err) ||
	    buckets_parse(&s->rules, buckets_default_text, "built-in rules",
			  err)) {
		symbolizer_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

ptrdiff_t symbolizer_find(const struct symbolizer *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	/* Last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->addrs[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	if (addr - s->syms[lo].addr >= s->syms[lo].size)
		return -1;
	return lo;
}

int symbolizer_open_entries(struct symbolizer **out,
			    const struct sym_entry *e, size_t n,
			    struct sym_error *err)
{
	struct sym *syms;
	size_t i, len = 0, off = 0;
	char *strings;

	*out = NULL;
	for (i = 0; i < n; i++) {
		if (!e[i].name)
			return sym_fail(err, "symbol entry %zu has no name", i);
		len += strlen(e[i].name) + 1;
		if (e[i].module)
			len += strlen(e[i].module) + 1;
	}
	syms = calloc(n ? n : 1, sizeof(*syms));
	strings = malloc(len ? len : 1);
	if (!syms || !strings) {
		free(syms);
		free(strings);
		return sym_fail(err, "out of memory for %zu symbol entries", n);
	}
	for (i = 0; i < n; i++) {
		syms[i].addr = e[i].addr;
		syms[i].size = e[i].size;
		syms[i].type = e[i].type;
		syms[i].name = strings + off;
		off += stpcpy(strings + off, e[i].name) - (strings + off) + 1;
		if (e[i].module) {
			syms[i].module = strings + off;
			off += stpcpy(strings + off, e[i].module) -
			       (strings + off) + 1;
		}
	}
	return symbolizer_build(out, syms, n, strings, "symbol entries", 1,
				err);
}

int symbolizer_load_buckets(struct symbolizer *s, const char *path,
			    struct sym_error *err)
{
	static const struct text_limits lim = {
		"bucket rules", BUCKETS_MAX_SIZE, BUCKETS_MAX_LINE
	};
	struct bucket_rules r;
	size_t i;
	char *text;

	if (read_text_file(&text, NULL, path, &lim, err))
		return -1;
	if (buckets_parse(&r, text, path, err)) {
		free(text);
		return -1;
	}
	free(text);
	buckets_free(&s->rules);
	s->rules = r;
	for (i = 0; i < s->n; i++)
		s->syms[i].rule = SYM_RULE_UNSET;
	return 0;
}

/* The bucket of a whole function: by its compilation unit (the CU of its
 * first byte), never by the header an inlined helper came from. */
/* The DWARF an address of y is in, and its address there: the vmlinux's
 * (KASLR undone), or its module's own; NULL when there is none. */
static struct srcindex *index_of(const struct symbolizer *s,
				 const struct sym *y, uint64_t addr,
				 uint64_t *dwaddr)
{
	const struct kmod *m;

	if (!y->module) {
		*dwaddr = addr - s->bias;
		return s->dw;
	}
	m = kmod_find(s, y->module);
	return m && !kmod_dwarf_addr(m, addr, dwaddr) ? m->dw : NULL;
}

static void classify(struct symbolizer *s, struct sym *y)
{
	uint64_t a;
	struct srcindex *x = index_of(s, y, y->addr, &a);

	if (x)
		y->unit = srcindex_unit(x, a);
	y->rule = buckets_match(&s->rules, y->unit, y->folded);
}

int symbolizer_resolve(struct symbolizer *s, uint64_t addr,
		       struct sym_result *res)
{
	ptrdiff_t k = symbolizer_find(s, addr);
	struct srcindex *x;
	uint64_t dwaddr;
	struct sym *y;

	memset(res, 0, sizeof(*res));
	res->addr = addr;
	if (k < 0) {
		res->bucket = BUCKET_UNKNOWN;
		res->rule = RULE_UNKNOWN;
		return 1;
	}
	y = &s->syms[k];
	if (y->rule == SYM_RULE_UNSET)
		classify(s, y);
	res->name = y->name;
	res->function = y->folded;
	res->offset = addr - y->addr;
	res->module = y->module;
	res->unit = y->unit;
	x = index_of(s, y, addr, &dwaddr);
	if (x) {
		const struct dw_loc *loc = srcindex_lookup(x, dwaddr);

		if (loc) {
			res->file = loc->file;
			res->line = loc->line;
			res->inlines = loc->ninlines ? loc->inlines : NULL;
			res->ninlines = loc->ninlines;
		}
	}
	if ((size_t)y->rule < s->rules.n) {
		res->bucket = s->rules.v[y->rule].bucket;
		res->rule = s->rules.v[y->rule].text;
		res->pass = s->rules.v[y->rule].kind == RULE_PASS;
		res->caller = s->rules.v[y->rule].kind == RULE_CALLER;
	} else {
		res->bucket = BUCKET_FALLBACK;
		res->rule = RULE_FALLBACK;
	}
	return 0;
}

int symbolizer_has_dwarf(const struct symbolizer *s)
{
	return s->dw != NULL;
}

int symbolizer_symbol(struct symbolizer *s, uint64_t addr,
		      struct sym_entry *out)
{
	ptrdiff_t k = symbolizer_find(s, addr);

	memset(out, 0, sizeof(*out));
	if (k < 0)
		return 1;
	out->addr = s->syms[k].addr;
	out->size = s->syms[k].size;
	out->type = s->syms[k].type;
	out->name = s->syms[k].name;
	out->module = s->syms[k].module;
	return 0;
}

uint64_t symbolizer_text_addr(struct symbolizer *s)
{
	return s->text_addr;
}

const char *symbolizer_default_buckets(void)
{
	return buckets_default_text;
}

void symbolizer_close(struct symbolizer *s)
{
	if (!s)
		return;
	buckets_free(&s->rules);
	msgs_free(&s->warnings);
	kmods_free(s);
	srcindex_free(s->dw);
	/* After the index and the symbols: both point into its file. */
	vmlinux_file_close(s->vm);
	free(s->syms);
	free(s->addrs);
	free(s->strings);
	free(s->folded);
	free(s);
}

const char **symbolizer_function_names(struct symbolizer *s, size_t *n)
{
	const char **v = malloc((s->n ? s->n : 1) * sizeof(*v));
	size_t i, k = 0;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < s->n; i++) {
		char t = s->syms[i].type;

		if (t == 't' || t == 'T' || t == 'W' || t == 'w')
			v[k++] = s->syms[i].folded;
	}
	*n = k;
	return v;
}

int symbolizer_bucket_known(const struct symbolizer *s, const char *bucket)
{
	size_t i;

	if (!strcmp(bucket, BUCKET_FALLBACK) || !strcmp(bucket, BUCKET_UNKNOWN))
		return 1;
	for (i = 0; i < s->rules.n; i++)
		if (!strcmp(s->rules.v[i].bucket, bucket))
			return 1;
	return 0;
}
