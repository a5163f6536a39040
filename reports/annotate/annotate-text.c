// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate as text: a function's lines, inlined code below each. */
#include "reports/render/renderers.h"

#include <stdio.h>

#include "reports/annotate/annotate.h"

static const char *unit_of(const struct model *m)
{
	return m->run.nevents && m->run.events[0].unit ? m->run.events[0].unit : "events";
}

int annotate_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct annotation *an = model;
	const struct model *m = an->m;
	int width = o && o->width ? o->width : 72;
	size_t i, k;

	fprintf(f, "perpkt annotate: %s (%s), kernel %s\n", an->function,
		an->file ? an->file : "file unknown",
		m->run.kernel_release ? m->run.kernel_release : "unknown");
	for (i = 0; i < an->nclones; i++)
		fprintf(f, "%s%s%s", i ? ", " : "compiled as ", an->clones[i],
			i + 1 == an->nclones ? " (the compiler's clone; its lines from the DWARF of the function it clones)\n" : "");
	fprintf(f, "%s: %.1f %s per %s, %llu %s, %.1f%% of the kernel's\n",
		m->run.nevents ? m->run.events[0].name : "?", an->total, unit_of(m),
		m->run.unit.name, (unsigned long long)an->samples,
		m->run.exact ? "instructions counted" : "samples",
		m->total.per_rt[0] > 0 ? 100 * an->total / m->total.per_rt[0] : 0);
	fprintf(f, "\n%6s %12s %6s  %s\n", "line", unit_of(m), "share",
		an->with_source ? "source; code inlined there" : "code inlined there");
	for (i = 0; i < an->n; i++) {
		const struct annotate_line *l = &an->lines[i];

		fprintf(f, "%6d %12.1f %5.1f%%  %.*s\n", l->line, l->per_rt,
			an->total > 0 ? 100 * l->per_rt / an->total : 0,
			width > 29 ? width - 29 : 0, l->source ? l->source : "");
		for (k = 0; k < l->ninl; k++)
			fprintf(f, "%6s %12.1f %6s    %s\n", "", l->inl[k]->per_rt[0], "",
				l->inl[k]->name);
	}
	fprintf(f, "\nEach line of %s holds its own code and, indented below it,\n"
		   "the code inlined at that line (file:line inside the inlined\n"
		   "function, then the calls out to %s); a line's value is both.\n",
		an->function, an->function);
	return render_flush(f, "annotation");
}
