// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one option parser: a command's table of struct opt turned into
 * getopt_long's arguments (so its messages and its mixing of options
 * and operands stay what users know), each option found handed to its
 * entry, and --help printed from the same table.
 */
#include "commands/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "parse.h"
#include "reports/render/render.h"

#define HELP_COL 25     /* where descriptions start */
#define CODE_BASE 256   /* a long option's getopt code: CODE_BASE + index */
#define MAX_OPTS 160

int opt_verbosity(const struct opt *o, const char *arg, void *at)
{
	(void)arg;
	(void)at;
	parse_verbosity((int)o->num);
	return 0;
}

static int takes_value(const struct opt *o)
{
	return o->argh != NULL;
}

/* A command's entries, its included tables' in their place */
struct flat {
	const struct opt *o[MAX_OPTS];
	const char *refused[MAX_OPTS];  /* why, for OPT_REFUSED's */
	int n;
};

static int flatten(const struct opt *opts, struct flat *f, const char *why)
{
	for (; opts->kind != OPTK_END; opts++) {
		if (opts->kind == OPTK_INCLUDE || opts->kind == OPTK_REFUSED) {
			if (flatten(opts->data, f, opts->kind == OPTK_REFUSED ?
				    opts->help : why))
				return -1;
			continue;
		}
		if (f->n == MAX_OPTS)
			return -1;
		f->refused[f->n] = why;
		f->o[f->n++] = opts->kind == OPTK_INCLUDE_ONE ? opts->data : opts;
	}
	return 0;
}

/* "  -i, --input FILE", padded to the description column (a long one
 * two spaces on; a help that starts with a newline, on the next line) */
static void put_names(FILE *f, const struct opt *o)
{
	int n;

	if (o->short_name)
		n = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
	else
		n = fprintf(f, "      --%s", o->long_name);
	if (o->argh)
		n += fprintf(f, " %s", o->argh);
	if (o->help && o->help[0] == '\n')
		fprintf(f, "\n%*s", HELP_COL, "");
	else if (o->help)
		fprintf(f, "%*s", n < HELP_COL ? HELP_COL - n : 2, "");
}

static void put_entry(FILE *f, const struct opt *o)
{
	const char *s;

	if (o->kind == OPTK_TEXT) {
		fputs(o->help, f);
		return;
	}
	put_names(f, o);
	for (s = o->help && o->help[0] == '\n' ? o->help + 1 : o->help;
	     s && *s; ) {
		size_t len = strcspn(s, "\n");

		fwrite(s, 1, len, f);
		s += len;
		if (*s == '\n' && *++s)
			fprintf(f, "\n%*s", HELP_COL, "");
	}
	fputc('\n', f);
}

void options_help(const struct opt *opts, const struct opt_usage *u)
{
	struct flat flat = { .n = 0 };
	const struct renderer_table *formats = NULL;
	char *text = NULL;
	size_t len = 0;
	int i;
	FILE *f;

	flatten(opts, &flat, NULL);
	f = open_memstream(&text, &len);

	if (!f) {
		error("cannot print the help: out of memory");
		return;
	}
	fputs(u->head, f);
	for (i = 0; i < flat.n; i++) {
		if (flat.o[i]->kind == OPTK_FORMAT)
			formats = flat.o[i]->data;
		if (!flat.refused[i])
			put_entry(f, flat.o[i]);
	}
	if (u->tail)
		fputs(u->tail, f);
	if (fclose(f)) {
		free(text);
		return;
	}
	/* help_show completes the "--format FMT" line from the formats */
	help_show(text, formats);
	free(text);
}

int options_usage_error(const struct opt_usage *u)
{
	help_error(u->head, NULL);
	return OPTIONS_ERROR;
}

/* The entry's value stored from arg: 0, or -1 after printing why not. */
static int take(const struct opt *o, const char *arg, void *args)
{
	void *at = (char *)args + o->off;
	char what[64];
	uint64_t v;

	switch (o->kind) {
	case OPTK_FLAG:
		*(int *)at = (int)o->num;
		return 0;
	case OPTK_BIT:
		*(unsigned *)at |= (unsigned)o->num;
		return 0;
	case OPTK_STRING:
		*(const char **)at = arg;
		return 0;
	case OPTK_INT:
		snprintf(what, sizeof(what), "--%s", o->long_name);
		if (parse_u64(arg, what, (uint64_t)o->min, (uint64_t)o->max, &v))
			return -1;
		*(int *)at = (int)v;
		return 0;
	case OPTK_FORMAT:
		if (!renderer_find(o->data, arg))
			return -1;
		*(const char **)at = arg;
		return 0;
	case OPTK_CALLBACK:
		return o->cb(o, arg, at);
	default:
		return -1;
	}
}

/* getopt_long's tables from the n entries of flat: a long option's
 * code is CODE_BASE + its index */
static void getopt_tables(const struct flat *flat, int stop,
			  struct option *lo, char *shortopts)
{
	int i, l = 0;
	size_t s = 0;

	if (stop)
		shortopts[s++] = '+';
	for (i = 0; i < flat->n; i++) {
		const struct opt *o = flat->o[i];

		if (o->kind == OPTK_TEXT)
			continue;
		lo[l++] = (struct option){ o->long_name,
			takes_value(o) ? required_argument : no_argument,
			NULL, CODE_BASE + i };
		if (o->short_name) {
			shortopts[s++] = (char)o->short_name;
			if (takes_value(o))
				shortopts[s++] = ':';
		}
	}
	lo[l] = (struct option){ 0 };
	shortopts[s] = '\0';
}

/* The index in flat of getopt's c, -1 for '?' (getopt said why) */
static int entry_of(const struct flat *flat, int c)
{
	int i;

	if (c >= CODE_BASE)
		return c - CODE_BASE;
	for (i = 0; i < flat->n; i++)
		if (flat->o[i]->short_name == c && flat->o[i]->kind != OPTK_TEXT)
			return i;
	return -1;
}

/* The walk both options_parse and options_walk take: fn for each
 * option; -1 as soon as fn or getopt fails, else optind. */
static int walk(int argc, char **argv, const struct opt *opts, int stop,
		int (*fn)(void *ctx, const struct opt *o, const char *arg,
			  int long_form),
		void *ctx)
{
	struct flat flat = { .n = 0 };
	struct option lo[MAX_OPTS + 1];
	char shortopts[2 * MAX_OPTS + 2];
	int c, idx, i;

	if (flatten(opts, &flat, NULL))
		return error("internal: too many options (at most %d)", MAX_OPTS);
	getopt_tables(&flat, stop, lo, shortopts);
	while ((idx = -1,
		c = getopt_long(argc, argv, shortopts, lo, &idx)) != -1) {
		i = entry_of(&flat, c);
		if (i < 0)
			return -1;
		if (flat.refused[i])
			return error("'--%s' %s", flat.o[i]->long_name,
				     flat.refused[i]);
		if (fn(ctx, flat.o[i], optarg, idx >= 0))
			return -1;
	}
	return optind;
}

struct parse_ctx {
	const struct opt *opts;
	const struct opt_usage *u;
	void *args;
	int help;
};

static int parse_one(void *ctx, const struct opt *o, const char *arg,
		     int long_form)
{
	struct parse_ctx *p = ctx;

	(void)long_form;
	if (o->kind == OPTK_HELP) {
		options_help(p->opts, p->u);
		p->help = 1;
		return -1;
	}
	if (take(o, arg, p->args))
		return -1;
	if (p->u->seen)
		p->u->seen(o, p->args);
	return 0;
}

int options_parse_only(int argc, char **argv, const struct opt *opts,
		       const struct opt_usage *u, void *args)
{
	struct parse_ctx p = { opts, u, args, 0 };
	int next;

	optind = 0;  /* getopt initialised anew: another table may be '+' */
	next = walk(argc, argv, opts, u->stop, parse_one, &p);
	if (p.help)
		return OPTIONS_HELP;
	return next < 0 ? OPTIONS_ERROR : next;
}

int options_parse(int argc, char **argv, const struct opt *opts,
		  const struct opt_usage *u, void *args)
{
	int next = options_parse_only(argc, argv, opts, u, args);

	return next == OPTIONS_ERROR ? options_usage_error(u) : next;
}

int options_walk(int argc, char **argv, const struct opt *opts, int stop,
		 int (*fn)(void *ctx, const struct opt *o, const char *arg,
			   int long_form),
		 void *ctx)
{
	int saved_optind = optind, saved_opterr = opterr, next;

	optind = 0;  /* argv read anew, from the start */
	opterr = 0;  /* parsed once already: its errors were said */
	next = walk(argc, argv, opts, stop, fn, ctx);
	optind = saved_optind;
	opterr = saved_opterr;
	return next;
}
