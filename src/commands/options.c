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
#include "reports/render.h"

#define HELP_COL 25     /* where descriptions start */
#define CODE_BASE 256   /* a long option's getopt code: CODE_BASE + index */
#define MAX_OPTS 128

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

/* "  -i, --input FILE", padded to the description column */
static void put_names(FILE *f, const struct opt *o)
{
	int n;

	if (o->short_name)
		n = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
	else
		n = fprintf(f, "      --%s", o->long_name);
	if (o->argh)
		n += fprintf(f, " %s", o->argh);
	if (o->help)
		fprintf(f, "%*s", n < HELP_COL - 2 ? HELP_COL - n : 2, "");
}

static void put_entry(FILE *f, const struct opt *o)
{
	const char *s;

	if (o->kind == OPTK_TEXT) {
		fputs(o->help, f);
		return;
	}
	put_names(f, o);
	for (s = o->help; s && *s; ) {
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
	const struct renderer_table *formats = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		error("cannot print the help: out of memory");
		return;
	}
	fputs(u->head, f);
	for (; opts->kind != OPTK_END; opts++) {
		if (opts->kind == OPTK_FORMAT)
			formats = opts->data;
		put_entry(f, opts);
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

/* getopt_long's tables from ours; -1 when ours is too long */
static int getopt_tables(const struct opt *opts, struct option *lo,
			 char *shortopts)
{
	size_t i, n = 0, s = 0;

	for (i = 0; opts[i].kind != OPTK_END; i++) {
		const struct opt *o = &opts[i];

		if (o->kind == OPTK_TEXT)
			continue;
		if (n + 1 >= MAX_OPTS)
			return -1;
		lo[n++] = (struct option){ o->long_name,
			takes_value(o) ? required_argument : no_argument,
			NULL, CODE_BASE + (int)i };
		if (o->short_name) {
			shortopts[s++] = (char)o->short_name;
			if (takes_value(o))
				shortopts[s++] = ':';
		}
	}
	lo[n] = (struct option){ 0 };
	shortopts[s] = '\0';
	return 0;
}

static const struct opt *entry_of(const struct opt *opts, int c)
{
	size_t i;

	if (c >= CODE_BASE)
		return &opts[c - CODE_BASE];
	for (i = 0; opts[i].kind != OPTK_END; i++)
		if (opts[i].short_name == c && opts[i].kind != OPTK_TEXT)
			return &opts[i];
	return NULL;  /* getopt's '?': it said why */
}

int options_parse(int argc, char **argv, const struct opt *opts,
		  const struct opt_usage *u, void *args)
{
	struct option lo[MAX_OPTS];
	char shortopts[2 * MAX_OPTS + 1];
	int c;

	if (getopt_tables(opts, lo, shortopts)) {
		error("internal: too many options (at most %d)", MAX_OPTS - 1);
		return OPTIONS_ERROR;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct opt *o = entry_of(opts, c);

		if (o && o->kind == OPTK_HELP) {
			options_help(opts, u);
			return OPTIONS_HELP;
		}
		if (!o || take(o, optarg, args))
			return options_usage_error(u);
	}
	return optind;
}
