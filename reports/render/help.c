// SPDX-License-Identifier: GPL-2.0-only
/* Usage text, with the --format line read from the renderer table. */
#include "reports/render/render.h"

#include <string.h>

#define FORMAT_LINE "      --format FMT\n"
#define HELP_COL 25     /* where option descriptions start */
#define HELP_WIDTH 72

/* "text (default, 72 columns), markdown, ... or html", wrapped. */
static void put_formats(FILE *f, const struct renderer_table *t)
{
	int col = (int)strlen(FORMAT_LINE) - 1;
	char word[160];
	size_t i;

	fprintf(f, "%*s", HELP_COL - col, "");
	col = HELP_COL;
	for (i = 0; i < t->n; i++) {
		const struct renderer *r = &t->rows[i];
		int len;

		if (!i)
			len = snprintf(word, sizeof(word), "%s (default%s%s)%s",
				       r->name, r->note ? ", " : "",
				       r->note ? r->note : "",
				       t->n > 2 ? "," : "");
		else
			len = snprintf(word, sizeof(word), "%s%s%s%s%s",
				       i + 1 == t->n ? "or " : "", r->name,
				       r->note ? " (" : "", r->note ? r->note : "",
				       r->note ? ")" : "");
		if (i && i + 2 < t->n)
			len += snprintf(word + len, sizeof(word) - len, ",");
		if (col > HELP_COL && col + 1 + len > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_COL, "");
			col = HELP_COL;
		} else if (col > HELP_COL) {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += len;
	}
	fputc('\n', f);
}

static void help(FILE *f, const char *usage, const struct renderer_table *t)
{
	const char *at = t ? strstr(usage, FORMAT_LINE) : NULL;

	if (!at) {
		fputs(usage, f);
		return;
	}
	fwrite(usage, 1, (size_t)(at - usage) + strlen(FORMAT_LINE) - 1, f);
	put_formats(f, t);
	fputs(at + strlen(FORMAT_LINE), f);
}

void help_show(const char *usage, const struct renderer_table *t)
{
	help(stdout, usage, t);
}

/* After a usage error's reason: the usage line and where the options
 * are, not 40-60 lines of them. perpkt's own usage (no command in its
 * first line: "<command>") is short and shown whole. */
void help_error(const char *usage, const struct renderer_table *t)
{
	const char *pre = "usage: perpkt ", *cmd = usage + strlen(pre);
	size_t line = strcspn(usage, "\n"), len = strcspn(cmd, " \n");

	if (strncmp(usage, pre, strlen(pre)) || !len ||
	    strchr("[<", cmd[0])) {
		help(stderr, usage, t);
		return;
	}
	fprintf(stderr, "%.*s\nsee 'perpkt %.*s --help' for its options\n",
		(int)line, usage, (int)len, cmd);
}
