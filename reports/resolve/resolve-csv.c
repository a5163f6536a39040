// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt resolve as CSV, one line per address, for spreadsheets and
 * join(1): addr,function,offset,module,file,line,bucket,rule,inlines.
 * inlines is the chain innermost first, "func@file:line;..." in one
 * field; an address in no symbol has an empty function.
 */
#include "reports/render/renderers.h"

#include <stdio.h>
#include <stdlib.h>

#include "reports/resolve/resolve.h"

static void put_inlines(FILE *f, const struct sym_result *r)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	for (i = 0; i < r->ninlines; i++)
		fprintf(m, "%s%s@%s:%d", i ? ";" : "", r->inlines[i].function,
			r->inlines[i].file ? r->inlines[i].file : "??",
			r->inlines[i].line);
	if (!fclose(m))
		render_csv_field(f, buf);
	free(buf);
}

int resolve_csv(FILE *f, const void *model, const struct render_options *o)
{
	const struct resolve_model *m = model;
	size_t i;

	fputs("addr,function,offset,module,file,line,bucket,rule,inlines\n", f);
	for (i = 0; i < m->n; i++) {
		const struct sym_result *r = &m->results[i];

		fprintf(f, "0x%llx,", (unsigned long long)r->addr);
		render_csv_field(f, r->name ? r->function : NULL);
		if (r->name)
			fprintf(f, ",%llu,", (unsigned long long)r->offset);
		else
			fputs(",,", f);
		render_csv_field(f, r->module);
		fputc(',', f);
		render_csv_field(f, r->file);
		if (r->file)
			fprintf(f, ",%d,", r->line);
		else
			fputs(",,", f);
		render_csv_field(f, r->bucket);
		fputc(',', f);
		render_csv_field(f, r->rule);
		fputc(',', f);
		put_inlines(f, r);
		fputc('\n', f);
	}
	return render_flush(f, "standard output");
}
