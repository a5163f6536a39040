// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt resolve: what a kernel address is (function+offset, file:line,
 * inline chain), which bucket it falls in, and the rule that put it
 * there. Collect first (every address resolved) into a resolve model,
 * then reports/ renders it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "base/array.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/profile.h"
#include "reports/render/render.h"
#include "reports/resolve/resolve.h"
#include "symbolize/symbolize.h"
#include "commands/report-options.h"
#include "commands/symsource.h"

static const struct opt_usage resolve_usage = {
	.head =
"usage: perpkt resolve [options] [ADDR...]\n"
"\n"
"What kernel addresses are: function+offset, source file:line and the\n"
"chain of inlined functions (with a vmlinux), bucket and the rule that\n"
"chose it. Addresses are hex (0x optional); without any on the command\n"
"line they are read from standard input, one per line.\n"
"\n",
	.tail =
"\n"
"With no --vmlinux, --kallsyms or -i: the running kernel's vmlinux from\n"
"/usr/lib/debug/boot, /boot or /lib/modules, else /proc/kallsyms.\n"
"Exit 0 when every address is in a symbol, 1 when some are not.\n",
};

struct resolve_args {
	struct symsource src;
	const char *input;
	const char *format;
	int next;  /* argv's first address */
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

static int opt_text_addr(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (parse_addr(arg, at) || !*(uint64_t *)at)
		return error("invalid --text-addr '%s': expected a hex kernel address",
			     arg);
	return 0;
}

static int opt_build_id(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (!*arg || strspn(arg, "0123456789abcdefABCDEF") != strlen(arg))
		return error("invalid --build-id '%s': expected hex digits", arg);
	*(const char **)at = arg;
	return 0;
}

#define A(field) OPT_AT(struct resolve_args, field)
static const struct opt resolve_opts[] = {
	OPT_STRING(0, "vmlinux", A(src.vmlinux), "FILE",
		   "symbols and DWARF from this vmlinux"),
	OPT_STRING(0, "kallsyms", A(src.kallsyms), "FILE",
		   "symbols from a kallsyms file (/proc/kallsyms)"),
	OPT_STRING('i', "input", A(input), "FILE",
		   "addresses from this profile's kernel: its\n"
		   "build-id, KASLR offset and saved symbols"),
	OPT_CALLBACK(0, "text-addr", A(src.text_addr), "ADDR",
		     "runtime address of _text (KASLR) for --vmlinux",
		     opt_text_addr),
	OPT_CALLBACK(0, "build-id", A(src.build_id), "HEX",
		     "refuse a vmlinux of another kernel build", opt_build_id),
	OPT_BOOL(0, "force", A(src.force),
		 "accept a vmlinux whose build-id differs"),
	READ_OPT_BUCKETS(A(src.buckets)),
	OPT_STRING(0, "modules", A(src.modules), "DIR",
		   "module .ko files (with DWARF) for -i with\n"
		   "--vmlinux (else /usr/lib/debug/lib/modules/R\n"
		   "and /lib/modules/R)"),
	OPT_FORMAT(A(format), &resolve_renderers),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct resolve_args *a)
{
	a->next = options_parse(argc, argv, resolve_opts, &resolve_usage, a);
	if (a->next <= 0)
		return a->next;
	if (a->src.vmlinux && a->src.kallsyms) {
		error("--vmlinux and --kallsyms exclude each other");
		return options_usage_error(&resolve_usage);
	}
	return 1;
}

struct addr_list {
	uint64_t *v;
	size_t n, cap;
};

static int addr_push(struct addr_list *l, uint64_t a)
{
	if (ARRAY_GROW(l->v, l->n + 1, l->cap))
		return error("out of memory reading addresses");
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

static int run(const struct resolve_args *a, struct addr_list *l)
{
	struct symbolizer *s = NULL;
	struct profile p, *pp = NULL;
	const char *origin = NULL;
	size_t unknown = 0;
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
	{
		struct resolve_model m = {
			.symbols = origin, .dwarf = symbolizer_has_dwarf(s),
			.results = r, .n = l->n,
		};

		ret = render_stdout(&resolve_renderers, a->format, &m, NULL);
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
	struct resolve_args a = { .format = renderer_default(&resolve_renderers),
				  .src = { .search = 1 } };
	struct addr_list l = { NULL, 0, 0 };
	uint64_t v;
	int i, ret = parse_args(argc, argv, &a);

	if (ret <= 0)
		return ret ? RESULT_USAGE : RESULT_OK;
	for (i = a.next; i < argc; i++) {
		if (parse_addr(argv[i], &v)) {
			error("invalid address '%s': expected hex, e.g. 0xffffffff81000000",
			      argv[i]);
			options_usage_error(&resolve_usage);
			free(l.v);
			return RESULT_USAGE;
		}
		if (addr_push(&l, v)) {
			free(l.v);
			return RESULT_FAILURE;
		}
	}
	if (a.next == argc && read_stdin(&l)) {
		free(l.v);
		return RESULT_FAILURE;
	}
	ret = run(&a, &l);
	free(l.v);
	return ret;
}
