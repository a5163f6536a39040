// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt resolve: what a kernel address is (function+offset, file:line,
 * inline chain), which bucket it falls in, and the rule that put it
 * there. Collect first (every address resolved), render second, so
 * --format json never writes half a document.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "profile.h"
#include "symbolize/symbolize.h"
#include "symsource.h"

static const char resolve_usage[] =
"usage: perpkt resolve [options] [ADDR...]\n"
"\n"
"What kernel addresses are: function+offset, source file:line and the\n"
"chain of inlined functions (with a vmlinux), bucket and the rule that\n"
"chose it. Addresses are hex (0x optional); without any on the command\n"
"line they are read from standard input, one per line.\n"
"\n"
"      --vmlinux FILE     symbols and DWARF from this vmlinux\n"
"      --kallsyms FILE    symbols from a kallsyms file (/proc/kallsyms)\n"
"  -i, --input FILE       addresses from this profile's kernel: its\n"
"                         build-id, KASLR offset and saved symbols\n"
"      --text-addr ADDR   runtime address of _text (KASLR) for --vmlinux\n"
"      --build-id HEX     refuse a vmlinux of another kernel build\n"
"      --force            accept a vmlinux whose build-id differs\n"
"      --buckets FILE     bucket rules replacing the built-in ones\n"
"      --format FMT       text (default) or json\n"
"  -h, --help             show this help\n"
"\n"
"With no --vmlinux, --kallsyms or -i: the running kernel's vmlinux from\n"
"/usr/lib/debug/boot, /boot or /lib/modules, else /proc/kallsyms.\n"
"Exit 0 when every address is in a symbol, 1 when some are not.\n";

struct resolve_args {
	struct symsource src;
	const char *input;
	const char *format;
	int help;
};

static int parse_addr(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || end == s)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct resolve_args *a)
{
	static const struct option longopts[] = {
		{ "vmlinux", required_argument, NULL, 1 },
		{ "kallsyms", required_argument, NULL, 2 },
		{ "input", required_argument, NULL, 'i' },
		{ "text-addr", required_argument, NULL, 3 },
		{ "build-id", required_argument, NULL, 4 },
		{ "force", no_argument, NULL, 5 },
		{ "buckets", required_argument, NULL, 6 },
		{ "format", required_argument, NULL, 7 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			a->src.vmlinux = optarg;
			break;
		case 2:
			a->src.kallsyms = optarg;
			break;
		case 'i':
			a->input = optarg;
			break;
		case 3:
			if (parse_addr(optarg, &a->src.text_addr) ||
			    !a->src.text_addr)
				return error("invalid --text-addr '%s': expected a hex kernel address",
					     optarg);
			break;
		case 4:
			if (!*optarg || strspn(optarg, "0123456789abcdefABCDEF") !=
			    strlen(optarg))
				return error("invalid --build-id '%s': expected hex digits",
					     optarg);
			a->src.build_id = optarg;
			break;
		case 5:
			a->src.force = 1;
			break;
		case 6:
			a->src.buckets = optarg;
			break;
		case 7:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return error("unknown format '%s' (use text or json)",
					     optarg);
			a->format = optarg;
			break;
		case 'h':
			fputs(resolve_usage, stdout);
			a->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (a->src.vmlinux && a->src.kallsyms)
		return error("--vmlinux and --kallsyms exclude each other");
	return 0;
}

struct addr_list {
	uint64_t *v;
	size_t n, cap;
};

static int addr_push(struct addr_list *l, uint64_t a)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		uint64_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return error("out of memory reading addresses");
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = a;
	return 0;
}

static int read_stdin(struct addr_list *l)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	uint64_t a;
	int ret = 0;

	while ((len = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		if (parse_addr(line, &a)) {
			ret = error("invalid address '%s' on line %zu of standard input: expected hex",
				    line, lineno);
			break;
		}
		if (addr_push(l, a)) {
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(stdin))
		ret = error("cannot read standard input: %s", strerror(errno));
	free(line);
	return ret;
}

static void put_text(FILE *f, const struct sym_result *r)
{
	size_t i;

	fprintf(f, "0x%016llx ", (unsigned long long)r->addr);
	if (!r->name) {
		fprintf(f, "?? (in no symbol)\n");
		return;
	}
	fprintf(f, "%s+0x%llx", r->function, (unsigned long long)r->offset);
	if (r->module)
		fprintf(f, " [%s]", r->module);
	if (r->file)
		fprintf(f, " %s:%d", r->file, r->line);
	fputc('\n', f);
	for (i = 0; i < r->ninlines; i++)
		fprintf(f, "    inlined %s %s:%d\n", r->inlines[i].function,
			r->inlines[i].file ? r->inlines[i].file : "??",
			r->inlines[i].line);
	fprintf(f, "    bucket %s (%s)\n", r->bucket, r->rule);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Members set one by one: json_pack parses its format per call, a
 * third of the JSON time for 10,000 results. Keys are literals. */
static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new_nocheck(o, key, v);
}

static json_t *frame_json(const struct sym_frame *f)
{
	json_t *o = json_object();

	if (!o || set(o, "function", json_string(f->function)) ||
	    set(o, "file", str_or_null(f->file)) ||
	    set(o, "line", json_integer(f->line))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *result_json(const struct sym_result *r)
{
	json_t *inl = json_array(), *o = json_object();
	char addr[24];
	size_t i;

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->addr);
	for (i = 0; inl && i < r->ninlines; i++)
		if (json_array_append_new(inl, frame_json(&r->inlines[i])))
			goto fail;
	if (!inl || !o ||
	    set(o, "addr", json_string(addr)) ||
	    set(o, "function", str_or_null(r->function)) ||
	    set(o, "symbol", str_or_null(r->name)) ||
	    set(o, "offset", json_integer((json_int_t)r->offset)) ||
	    set(o, "module", str_or_null(r->module)) ||
	    set(o, "file", str_or_null(r->file)) ||
	    set(o, "line", r->file ? json_integer(r->line) : json_null()) ||
	    set(o, "unit", str_or_null(r->unit)))
		goto fail;
	/* Taken by o, even when that fails. */
	i = set(o, "inlines", inl);
	inl = NULL;
	if (i || set(o, "bucket", json_string(r->bucket)) ||
	    set(o, "rule", json_string(r->rule)))
		goto fail;
	return o;
fail:
	json_decref(inl);
	json_decref(o);
	return NULL;
}

struct addr_pos {
	uint64_t addr;
	size_t pos;
};

static int addr_pos_cmp(const void *a, const void *b)
{
	const struct addr_pos *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Every address, resolved in address order: neighbours share a
 * compilation unit, whose line table the symbolizer then decodes once
 * (it keeps only a few). out[] is in input order.
 */
static int resolve_all(struct symbolizer *s, const struct addr_list *l,
		       struct sym_result *out, size_t *unknown)
{
	struct addr_pos *order = malloc((l->n ? l->n : 1) * sizeof(*order));
	size_t i;
	int ret;

	if (!order)
		return error("out of memory for %zu addresses", l->n);
	for (i = 0; i < l->n; i++)
		order[i] = (struct addr_pos){ l->v[i], i };
	if (l->n > 1)
		qsort(order, l->n, sizeof(*order), addr_pos_cmp);
	for (i = 0; i < l->n; i++) {
		ret = symbolizer_resolve(s, order[i].addr, &out[order[i].pos]);
		if (ret < 0) {
			free(order);
			return -1;
		}
		*unknown += ret;
	}
	free(order);
	return 0;
}

/* The whole document in memory first: stdout gets all of it or nothing. */
static int put_json(FILE *f, struct symbolizer *s, const char *origin,
		    const struct sym_result *r, size_t n)
{
	json_t *results = json_array(), *doc;
	char *text;
	size_t i;
	int ret;

	for (i = 0; results && i < n; i++) {
		if (json_array_append_new(results, result_json(&r[i]))) {
			json_decref(results);
			return error("out of memory building JSON");
		}
	}
	if (!results)
		return error("out of memory building JSON");
	doc = json_pack("{s:s, s:b, s:o}", "symbols", origin,
			"dwarf", symbolizer_has_dwarf(s), "results", results);
	if (!doc)
		return error("out of memory building JSON");
	/* One buffer, one write: json_dumpf calls fwrite per token. */
	text = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	if (!text)
		return error("out of memory building JSON");
	ret = fputs(text, f) == EOF || fputc('\n', f) == EOF;
	free(text);
	return ret ? error("cannot write JSON to standard output") : 0;
}

static int run(const struct resolve_args *a, struct addr_list *l)
{
	struct symbolizer *s = NULL;
	struct profile p, *pp = NULL;
	const char *origin = NULL;
	size_t i, unknown = 0;
	struct sym_result *r;
	int ret = -1;

	r = calloc(l->n ? l->n : 1, sizeof(*r));
	if (!r) {
		error("out of memory for %zu addresses", l->n);
		return RESULT_FAILURE;
	}

	if (a->input) {
		if (profile_read(&p, a->input)) {
			free(r);
			return RESULT_FAILURE;
		}
		pp = &p;
	}
	if (symsource_open(&s, &a->src, pp, &origin) ||
	    resolve_all(s, l, r, &unknown))
		goto out;
	if (!strcmp(a->format, "json")) {
		ret = put_json(stdout, s, origin, r, l->n);
	} else {
		for (i = 0; i < l->n; i++)
			put_text(stdout, &r[i]);
		ret = 0;
	}
out:
	free(r);
	symbolizer_close(s);
	if (pp)
		profile_free(pp);
	if (ret)
		return RESULT_FAILURE;
	return unknown ? RESULT_PARTIAL : RESULT_OK;
}

int cmd_resolve(int argc, char **argv)
{
	struct resolve_args a = { .format = "text", .src = { .search = 1 } };
	struct addr_list l = { NULL, 0, 0 };
	uint64_t v;
	int i, ret;

	if (parse_args(argc, argv, &a)) {
		fputs(resolve_usage, stderr);
		return RESULT_USAGE;
	}
	if (a.help)
		return RESULT_OK;
	for (i = optind; i < argc; i++) {
		if (parse_addr(argv[i], &v)) {
			error("invalid address '%s': expected hex, e.g. 0xffffffff81000000",
			      argv[i]);
			fputs(resolve_usage, stderr);
			free(l.v);
			return RESULT_USAGE;
		}
		if (addr_push(&l, v)) {
			free(l.v);
			return RESULT_FAILURE;
		}
	}
	if (optind == argc && read_stdin(&l)) {
		free(l.v);
		return RESULT_FAILURE;
	}
	ret = run(&a, &l);
	free(l.v);
	return ret;
}
