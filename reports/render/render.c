// SPDX-License-Identifier: GPL-2.0-only
/* The renderer tables: which formats each model has, in one place. */
#include "reports/render/render.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"
#include "reports/render/renderers.h"

#define TABLE(model, rows) { model, rows, sizeof(rows) / sizeof(rows[0]) }

static const struct renderer report_rows[] = {
	{ "text", "72 columns", report_text, 0 },
	{ "markdown", NULL, report_markdown, 0 },
	{ "json", NULL, report_json, 0 },
	{ "csv", NULL, report_csv, 0 },
	{ "folded", "flame graph input", report_folded, 1 },
	{ "html", NULL, report_html, 1 },
	{ "svg", "flame graph", report_svg, 1 },
};
const struct renderer_table report_renderers = TABLE("report", report_rows);

static const struct renderer diff_rows[] = {
	{ "text", NULL, diff_text, 0 },
	{ "markdown", NULL, diff_markdown, 0 },
	{ "json", NULL, diff_json, 0 },
	{ "csv", NULL, diff_csv, 0 },
	{ "html", NULL, diff_html, 1 },
	{ "folded", "two profiles: \"stack countA countB\"", diff_folded, 1 },
	{ "svg", "two profiles: differential flame graph", diff_svg, 1 },
};
const struct renderer_table diff_renderers = TABLE("diff", diff_rows);

static const struct renderer stat_rows[] = {
	{ "text", NULL, stat_text, 0 },
	{ "json", NULL, stat_json, 0 },
};
const struct renderer_table stat_renderers = TABLE("stat", stat_rows);

static const struct renderer table_rows[] = {
	{ "text", NULL, table_text, 0 },
	{ "markdown", NULL, table_markdown, 0 },
	{ "csv", NULL, table_csv, 0 },
	{ "json", NULL, table_json, 0 },
};
const struct renderer_table table_renderers = TABLE("table", table_rows);

static const struct renderer resolve_rows[] = {
	{ "text", NULL, resolve_text, 0 },
	{ "json", NULL, resolve_json, 0 },
	{ "csv", NULL, resolve_csv, 0 },
};
const struct renderer_table resolve_renderers = TABLE("resolve", resolve_rows);

static const struct renderer annotate_rows[] = {
	{ "text", NULL, annotate_text, 0 },
	{ "json", NULL, annotate_json, 0 },
};
const struct renderer_table annotate_renderers = TABLE("annotate", annotate_rows);

int report_row_shown(const struct render_options *o, size_t i,
		     const struct model_row *r)
{
	if (o && o->limit > 0 && i >= (size_t)o->limit)
		return 0;
	return !(o && o->threshold > 0 && r->share < o->threshold);
}

/* Whether a spreadsheet would read s as a formula (OWASP's CSV
 * injection list); a number such as "-1.5" is a number. */
static int csv_formula(const char *s)
{
	char *end;

	if (!*s || !strchr("=+-@\t\r", *s))
		return 0;
	(void)strtod(s, &end);
	return end == s || *end;
}

/* RFC 4180: quoted when it holds a comma, quote or line break. */
void render_csv_field(FILE *f, const char *s)
{
	const char *p;
	int formula;

	if (!s)
		s = "";
	formula = csv_formula(s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* An '_' between two letters or digits can neither open nor close
 * emphasis (CommonMark 6.2): BOOT_IMAGE stays as it is. */
static int md_intraword(const char *start, const char *p)
{
	return p > start && isalnum((unsigned char)p[-1]) &&
	       isalnum((unsigned char)p[1]);
}

void render_md_text(FILE *f, const char *s)
{
	const char *p;

	for (p = s; p && *p; p++) {
		if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '\n' || *p == '\r')
			fputc(' ', f);
		else {
			if (strchr("\\`*|<>", *p) ||
			    (*p == '_' && !md_intraword(s, p)))
				fputc('\\', f);
			fputc(*p, f);
		}
	}
}

void render_md_code(FILE *f, const char *s)
{
	size_t run = 0, longest = 0, i;
	const char *p;

	if (!s)
		s = "";
	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (i = 0; i <= longest; i++)
		fputc('`', f);
	/* CommonMark strips one space each side when both are there */
	if (longest)
		fputc(' ', f);
	for (p = s; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
	if (longest)
		fputc(' ', f);
	for (i = 0; i <= longest; i++)
		fputc('`', f);
}

static void put_folded(FILE *f, const char *s, int one)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c < 0x20 || c == 0x7f || (one && c == ';') ? '?' : c, f);
	}
}

void render_folded_frame(FILE *f, const char *name)
{
	put_folded(f, name, 1);
}

void render_folded_frames(FILE *f, const char *frames)
{
	put_folded(f, frames, 0);
}

int render_flush(FILE *f, const char *what)
{
	if (fflush(f) || ferror(f))
		return error("cannot write %s: %s", what, strerror(errno));
	return 0;
}

const char *renderer_names(const struct renderer_table *t, char *buf,
			   size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < t->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !i ? "" : i + 1 == t->n ? " or " : ", ",
				       t->rows[i].name);
	return buf;
}

const struct renderer *renderer_find(const struct renderer_table *t,
				     const char *name)
{
	char names[256];
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(name, t->rows[i].name))
			return &t->rows[i];
	error("unknown format '%s' (use %s)", name,
	      renderer_names(t, names, sizeof(names)));
	return NULL;
}

int renderer_draws_callchains(const struct renderer_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(name, t->rows[i].name))
			return t->rows[i].callchains;
	return 0;
}

const char *renderer_default(const struct renderer_table *t)
{
	return t->rows[0].name;
}

/*
 * Every format, every model, goes to stdout through the one escaping
 * rule (src/escape.h): a profile is someone else's file, and an escape
 * sequence in a function name, a kernel release or a condition must not
 * reach the reader's terminal. JSON and HTML escape C0 themselves; the
 * rule also takes DEL and C1 from them.
 */
int render_stdout(const struct renderer_table *t, const char *name,
		  const void *model, const struct render_options *o)
{
	const struct renderer *r = renderer_find(t, name);
	FILE *safe;
	int ret;

	if (!r)
		return -1;
	safe = escape_stream(stdout);
	if (!safe)
		return error("cannot write %s: %s", t->model, strerror(errno));
	ret = r->render(safe, model, o);
	if (fclose(safe) && !ret)
		ret = error("cannot write %s: %s", t->model, strerror(errno));
	if (!ret && (fflush(stdout) || ferror(stdout)))
		ret = error("cannot write %s: %s", t->model, strerror(errno));
	return ret;
}
