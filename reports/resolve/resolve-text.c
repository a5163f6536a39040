// SPDX-License-Identifier: GPL-2.0-only
/* perpkt resolve as text: one address a line, inlines and bucket below. */
#include "reports/render/renderers.h"

#include <stdio.h>

#include "reports/resolve/resolve.h"

static void put_one(FILE *f, const struct sym_result *r)
{
	size_t i;

	fprintf(f, "0x%016llx ", (unsigned long long)r->addr);
	if (!r->name) {
		fprintf(f, "?? (in no symbol)\n");
		return;
	}
	fprintf(f, "%s+0x%llx", r->function, (unsigned long long)r->offset);
	if (r->module)
		fprintf(f, " [%s]", r->module);
	if (r->file)
		fprintf(f, " %s:%d", r->file, r->line);
	fputc('\n', f);
	for (i = 0; i < r->ninlines; i++)
		fprintf(f, "    inlined %s %s:%d\n", r->inlines[i].function,
			r->inlines[i].file ? r->inlines[i].file : "??",
			r->inlines[i].line);
	fprintf(f, "    bucket %s (%s)\n", r->bucket, r->rule);
}

int resolve_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct resolve_model *m = model;
	size_t i;

	for (i = 0; i < m->n; i++)
		put_one(f, &m->results[i]);
	return render_flush(f, "standard output");
}
