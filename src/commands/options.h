/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_COMMANDS_OPTIONS_H
#define PERPKT_COMMANDS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A command's options as one table, in the manner of git's
 * parse-options: each entry says its names, the kind of its value and
 * where it goes (or a callback), its bounds and its help line. One
 * parser (options_parse) walks the table for every command, and
 * --help is printed from it, so the two cannot drift. Where a value
 * goes is an offset into the command's argument struct, so a table is
 * constant data at file scope, as a renderer table is:
 *
 *	#define A(field) offsetof(struct report_args, field)
 *	static const struct opt report_opts[] = {
 *		OPT_STRING('i', "input", A(input), "FILE",
 *			   "profile to read (default perpkt.json)"),
 *		OPT_INT(0, "width", A(ro.width), 60, 1000, "N",
 *			"text width in columns (default 72)"),
 *		OPT_HELP(),
 *		OPT_END()
 *	};
 *	next = options_parse(argc, argv, report_opts, &report_usage, &args);
 *
 * A help text of several lines holds '\n' between them; the parser
 * indents each to the description column.
 */
struct opt;

/* Checks arg (NULL for an option without a value), stores it at `at`
 * (the argument struct plus o->off) and returns 0, or returns -1 after
 * printing why arg is bad. */
typedef int (*opt_cb)(const struct opt *o, const char *arg, void *at);

enum opt_kind {
	OPTK_END,
	OPTK_TEXT,      /* a line of --help only (a group heading) */
	OPTK_FLAG,      /* int at off = num */
	OPTK_BIT,       /* unsigned at off |= num */
	OPTK_STRING,    /* const char * at off = arg */
	OPTK_INT,       /* int at off = arg, checked to [min, max] */
	OPTK_FORMAT,    /* const char * at off = one of data's formats */
	OPTK_CALLBACK,  /* cb(o, arg) */
	OPTK_HELP,      /* -h, --help: prints the help, parsing stops */
	OPTK_INCLUDE,   /* the entries of the table data, here */
	OPTK_INCLUDE_ONE, /* the one entry data, here (another order) */
	OPTK_REFUSED,   /* the entries of table data parsed, then refused
			 * with help's words: not in --help */
};

/*
 * What an option is besides its value. record --kernel hands the guest
 * its own command line less the host's options: OPTF_HOST always,
 * OPTF_HOST_EXACT under --exact (one boot a window), OPTF_HOST_NIC
 * under --net nic (the host joins the guests). OPTF_BUILTIN: only the
 * built-in ping-pong takes it (not -- CMD, not -p).
 */
enum {
	OPTF_HOST = 1 << 0,
	OPTF_HOST_EXACT = 1 << 1,
	OPTF_HOST_NIC = 1 << 2,
	OPTF_HOST_NIC_ARG = 1 << 3, /* the host's when its value is nic... */
	OPTF_BUILTIN = 1 << 4,
};

struct opt {
	enum opt_kind kind;
	int short_name;         /* 0: none */
	const char *long_name;
	const char *argh;       /* the value's name in --help; NULL: none */
	const char *help;       /* NULL: the line is completed elsewhere
				 * (--format's, from its renderer table) */
	size_t off;             /* where the value goes in the argument struct */
	opt_cb cb;
	long num;               /* FLAG: the value set; a callback's datum */
	int64_t min, max;       /* INT: the bounds */
	const void *data;       /* FORMAT: its struct renderer_table */
	unsigned flags;         /* OPTF_* */
};

#define OPT_END() { .kind = OPTK_END }
/* Another table's entries (shared by several commands), their offsets
 * into the same argument struct */
#define OPT_INCLUDE(t) { .kind = OPTK_INCLUDE, .data = (t) }
#define OPT_INCLUDE_ONE(e) { .kind = OPTK_INCLUDE_ONE, .data = (e) }
/* The options of t known, so that one is named ("'--period' why")
 * rather than unknown, and refused */
#define OPT_REFUSED(t, why) { .kind = OPTK_REFUSED, .data = (t), .help = (why) }
/* An entry with OPTF_* flags: OPT_WITH(OPTF_HOST, OPT_STRING_(...)),
 * each OPT_X_ being OPT_X without its braces */
#define OPT_WITH(f, ...) { __VA_ARGS__, .flags = (f) }
#define OPT_GROUP(text) { .kind = OPTK_TEXT, .help = (text) }
#define OPT_SET_INT_(s, l, v, n, h) \
	.kind = OPTK_FLAG, .short_name = (s), .long_name = (l), \
	.off = (v), .num = (n), .help = (h)
#define OPT_SET_INT(...) { OPT_SET_INT_(__VA_ARGS__) }
#define OPT_BIT_(s, l, v, n, h) \
	.kind = OPTK_BIT, .short_name = (s), .long_name = (l), \
	.off = (v), .num = (n), .help = (h)
#define OPT_BIT(...) { OPT_BIT_(__VA_ARGS__) }
#define OPT_BOOL_(s, l, v, h) OPT_SET_INT_(s, l, v, 1, h)
#define OPT_BOOL(...) { OPT_BOOL_(__VA_ARGS__) }
#define OPT_STRING_(s, l, v, a, h) \
	.kind = OPTK_STRING, .short_name = (s), .long_name = (l), \
	.off = (v), .argh = (a), .help = (h)
#define OPT_STRING(...) { OPT_STRING_(__VA_ARGS__) }
#define OPT_INT_(s, l, v, lo, hi, a, h) \
	.kind = OPTK_INT, .short_name = (s), .long_name = (l), \
	.off = (v), .min = (lo), .max = (hi), .argh = (a), .help = (h)
#define OPT_INT(...) { OPT_INT_(__VA_ARGS__) }
/* A callback taking a value (a != NULL) or not (a == NULL). */
#define OPT_CALLBACK_(s, l, v, a, h, f) \
	.kind = OPTK_CALLBACK, .short_name = (s), .long_name = (l), \
	.off = (v), .argh = (a), .help = (h), .cb = (f)
#define OPT_CALLBACK(...) { OPT_CALLBACK_(__VA_ARGS__) }
#define OPT_CALLBACK_NUM_(s, l, v, a, h, f, n) \
	.kind = OPTK_CALLBACK, .short_name = (s), .long_name = (l), \
	.off = (v), .argh = (a), .help = (h), .cb = (f), .num = (n)
#define OPT_CALLBACK_NUM(...) { OPT_CALLBACK_NUM_(__VA_ARGS__) }
/* --format FMT: its help line lists the formats of table t */
#define OPT_FORMAT_(v, t) \
	.kind = OPTK_FORMAT, .long_name = "format", .off = (v), \
	.argh = "FMT", .data = (t)
#define OPT_FORMAT(...) { OPT_FORMAT_(__VA_ARGS__) }
#define OPT_HELP() \
	{ .kind = OPTK_HELP, .short_name = 'h', .long_name = "help", \
	  .help = "show this help" }
/* -q and -v, which every command takes (perf's letters) */
#define QUIET_HELP "no warnings or progress on stderr (errors, and why\n" \
		   "a result is partial, stay)"
#define VERBOSE_HELP "more detail"
#define OPT_VERBOSITY() \
	OPT_CALLBACK_NUM('q', "quiet", 0, NULL, QUIET_HELP, opt_verbosity, 'q'), \
	OPT_CALLBACK_NUM('v', "verbose", 0, NULL, VERBOSE_HELP, \
			 opt_verbosity, 'v')

/* What --help says around the table: the usage line(s) and the
 * description, ending in a blank line; text after the options or NULL.
 * stop: the first operand ends the options (-- CMD without the --).
 * seen: called with each option taken, after its value is stored. */
struct opt_usage {
	const char *head;
	const char *tail;
	int stop;
	void (*seen)(const struct opt *o, void *args);
};

/* A command's argument struct's field, for its table */
#define OPT_AT(type, field) offsetof(type, field)

/* options_parse's result besides an operand's index (>= 1) */
#define OPTIONS_ERROR (-1)  /* reason and usage line printed */
#define OPTIONS_HELP 0      /* --help printed: the command is done */

/*
 * Parses argv[1..] by opts into the struct args (getopt_long's rules
 * and messages: options and operands mixed, "--" ends the options). Returns the index of the
 * first operand, OPTIONS_HELP or OPTIONS_ERROR.
 */
int options_parse(int argc, char **argv, const struct opt *opts,
		  const struct opt_usage *u, void *args);
/* options_parse without the usage line after an error (record's, whose
 * parser sweep also calls on each cell's arguments). */
int options_parse_only(int argc, char **argv, const struct opt *opts,
		       const struct opt_usage *u, void *args);
/* After a usage error the command found itself (an operand, options
 * that exclude each other), its reason printed: the usage line and
 * "see 'perpkt CMD --help'". Returns OPTIONS_ERROR. */
int options_usage_error(const struct opt_usage *u);
/*
 * argv read again by opts, nothing stored and nothing said: fn(ctx, o,
 * arg, long_form) for each option in turn (long_form: it was given by
 * its long name). Returns the first operand's index, -1 when fn does
 * or argv does not parse.
 */
int options_walk(int argc, char **argv, const struct opt *opts, int stop,
		 int (*fn)(void *ctx, const struct opt *o, const char *arg,
			   int long_form),
		 void *ctx);

/* The whole help on stdout, as --help prints it. */
void options_help(const struct opt *opts, const struct opt_usage *u);

/* The callbacks the shared entries use */
int opt_verbosity(const struct opt *o, const char *arg, void *at);

#endif
