/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RENDERERS_H
#define PERPKT_RENDERERS_H

/*
 * Every renderer, one file each, reports/<model>-<format>.c. Private to
 * reports/: commands and tests reach them through the tables of
 * reports/render/render.h, which reports/render/render.c fills from this list.
 */

#include "reports/render/render.h"

/* struct model (reports/model/model.h) */
render_fn report_text, report_markdown, report_json, report_csv,
	report_folded, report_html, report_svg;
/* struct diff (reports/diff/diff.h) */
render_fn diff_text, diff_markdown, diff_json, diff_csv, diff_html,
	diff_folded, diff_svg;
/* struct stat_model (reports/stat/stat.h) */
render_fn stat_text, stat_json;
/* struct table (reports/table/table.h) */
render_fn table_text, table_markdown, table_csv, table_json;
/* struct resolve_model (reports/resolve/resolve.h) */
render_fn resolve_text, resolve_json, resolve_csv;
/* struct annotation (reports/annotate/annotate.h) */
render_fn annotate_text, annotate_json;

/* {name, spec, source, outside, outside_ns, outside_busy}: what the
 * values are per, in every JSON output (report-json.c). */
struct json_t;
struct json_t *report_unit_json(const struct run_unit *u);

/* Whether row i of a view (sorted heaviest first) is shown under
 * --limit and --threshold; the first one not shown ends the table. */
int report_row_shown(const struct render_options *o, size_t i,
		     const struct model_row *r);

/*
 * A CSV field, quoted as RFC 4180 asks; NULL is empty. A text that a
 * spreadsheet would take for a formula (it starts with = + - @, tab or
 * CR and is no number) is quoted and starts with a "'".
 */
void render_csv_field(FILE *f, const char *s);
/*
 * Text someone else supplied (a profile's, a user's) inside markdown:
 * HTML-significant characters, table pipes and markdown's emphasis,
 * and code characters escaped, a line break a space, so it is
 * shown as it is and can neither open a tag nor end a table cell.
 */
void render_md_text(FILE *f, const char *s);
/* The same as inline code: a code span whose fence no backtick in s
 * can close. */
void render_md_code(FILE *f, const char *s);
/*
 * Folded stacks ("a;b;c 12"), the one way a name gets there: a byte
 * that is a control character (a newline would start a line of its
 * own) becomes '?', and in a single frame's name a ';' too, which
 * would add a frame. Frames may keep spaces: flamegraph.pl and
 * speedscope split the count off at the last one.
 */
void render_folded_frame(FILE *f, const char *name);
void render_folded_frames(FILE *f, const char *frames);
/* fflush and ferror: 0, or -1 after "cannot write <what>: ...". */
int render_flush(FILE *f, const char *what);

#endif
