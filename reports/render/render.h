/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RENDER_H
#define PERPKT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "reports/model/model.h"

/*
 * Output goes through here and nowhere else: one table {format name,
 * renderer} per model. A command fills a model and calls
 * render_stdout(); its --help, the man page (generated from --help)
 * and the bash completion (which reads --help) list the same table.
 * The first row of a table is the default format.
 */

/* What a user can ask of any renderer; each uses what applies to it. */
struct render_options {
	int width;        /* text columns, 0 = 72; at least 60 */
	int limit;        /* rows, 0 = all */
	double threshold; /* hide rows below this share (0..1) */
	enum model_by by; /* the main table; functions by default */
	int all_conditions;  /* list every test condition */
	int full;         /* text: every section, not the mail-sized summary */
};

/*
 * Writes the whole model to f; 0, or -1 after printing why (bad
 * options, write error). NULL options are the defaults. Formats that
 * must be whole (json, html) build the document before writing any of
 * it, so f never gets half a document.
 */
typedef int render_fn(FILE *f, const void *model,
		      const struct render_options *o);

struct renderer {
	const char *name;  /* --format NAME */
	const char *note;  /* said after the name in --help, or NULL */
	render_fn *render;
	int callchains;    /* draws the folded callchains (flame graphs) */
};

struct renderer_table {
	const char *model;           /* "report", "diff", ... */
	const struct renderer *rows;
	size_t n;
};

/* One per model: struct model, struct diff, struct stat_model,
 * struct table, struct resolve_model and struct annotation, in that
 * order. */
extern const struct renderer_table report_renderers;
extern const struct renderer_table diff_renderers;
extern const struct renderer_table stat_renderers;
extern const struct renderer_table table_renderers;
extern const struct renderer_table resolve_renderers;
extern const struct renderer_table annotate_renderers;

/* The row called `name`; NULL after printing "unknown format ...". */
const struct renderer *renderer_find(const struct renderer_table *t,
				     const char *name);
/* Whether format `name` draws the callchains: the model folds them
 * only then (model_set_callchains). */
int renderer_draws_callchains(const struct renderer_table *t, const char *name);
/* The default format's name. */
const char *renderer_default(const struct renderer_table *t);
/* "text, markdown, json or csv" into buf (truncated to len). */
const char *renderer_names(const struct renderer_table *t, char *buf,
			   size_t len);
/* The model on standard output in format `name` (checked with
 * renderer_find); 0 or -1 after printing why. */
int render_stdout(const struct renderer_table *t, const char *name,
		  const void *model, const struct render_options *o);

/*
 * A command's usage text on stdout (--help) or stderr (after a usage
 * error). The line "      --format FMT\n" in it is completed with the
 * formats of t (NULL: no such line).
 */
void help_show(const char *usage, const struct renderer_table *t);
void help_error(const char *usage, const struct renderer_table *t);

#endif
