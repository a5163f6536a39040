// SPDX-License-Identifier: GPL-2.0-only
/* The renderer tables: which formats each model has, in one place. */
#include "reports/render.h"

#include <errno.h>
#include <string.h>

#include "error.h"
#include "reports/renderers.h"

#define TABLE(model, rows) { model, rows, sizeof(rows) / sizeof(rows[0]) }

static const struct renderer report_rows[] = {
	{ "text", "72 columns", report_text },
	{ "markdown", NULL, report_markdown },
	{ "json", NULL, report_json },
	{ "csv", NULL, report_csv },
	{ "folded", "flame graph input", report_folded },
	{ "html", NULL, report_html },
};
const struct renderer_table report_renderers = TABLE("report", report_rows);

static const struct renderer diff_rows[] = {
	{ "text", NULL, diff_text },
	{ "markdown", NULL, diff_markdown },
	{ "json", NULL, diff_json },
	{ "csv", NULL, diff_csv },
	{ "html", NULL, diff_html },
	{ "folded", "two profiles: \"stack countA countB\"", diff_folded },
};
const struct renderer_table diff_renderers = TABLE("diff", diff_rows);

static const struct renderer stat_rows[] = {
	{ "text", NULL, stat_text },
	{ "json", NULL, stat_json },
};
const struct renderer_table stat_renderers = TABLE("stat", stat_rows);

static const struct renderer table_rows[] = {
	{ "text", NULL, table_text },
	{ "markdown", NULL, table_markdown },
	{ "csv", NULL, table_csv },
	{ "json", NULL, table_json },
};
const struct renderer_table table_renderers = TABLE("table", table_rows);

static const struct renderer resolve_rows[] = {
	{ "text", NULL, resolve_text },
	{ "json", NULL, resolve_json },
	{ "csv", NULL, resolve_csv },
};
const struct renderer_table resolve_renderers = TABLE("resolve", resolve_rows);

static const struct renderer annotate_rows[] = {
	{ "text", NULL, annotate_text },
	{ "json", NULL, annotate_json },
};
const struct renderer_table annotate_renderers = TABLE("annotate", annotate_rows);

int report_row_shown(const struct render_options *o, size_t i,
		     const struct model_row *r)
{
	if (o && o->limit > 0 && i >= (size_t)o->limit)
		return 0;
	return !(o && o->threshold > 0 && r->share < o->threshold);
}

/* RFC 4180: quoted when it holds a comma, quote or line break. */
void render_csv_field(FILE *f, const char *s)
{
	const char *p;

	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
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

const char *renderer_default(const struct renderer_table *t)
{
	return t->rows[0].name;
}

int render_stdout(const struct renderer_table *t, const char *name,
		  const void *model, const struct render_options *o)
{
	const struct renderer *r = renderer_find(t, name);

	return r ? r->render(stdout, model, o) : -1;
}
