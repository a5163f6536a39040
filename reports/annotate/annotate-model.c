// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate's model: a function's source lines from a line view. */
#include "reports/annotate/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

static int cmp_line(const void *a, const void *b)
{
	const struct annotate_line *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static void note_clone(struct annotation *an, const char *clone)
{
	size_t k;

	for (k = 0; clone && k < an->nclones; k++)
		if (!strcmp(an->clones[k], clone))
			return;
	if (clone && an->nclones < sizeof(an->clones) / sizeof(an->clones[0]))
		an->clones[an->nclones++] = clone;
}

int annotate_build(struct annotation *an, const struct model *m,
		   const char *function)
{
	const struct model_view *v = &m->views[MODEL_BY_LINE];
	size_t i, k;

	memset(an, 0, sizeof(*an));
	an->m = m;
	an->function = function;
	an->lines = calloc(v->n ? v->n : 1, sizeof(*an->lines));
	if (!an->lines)
		return error("out of memory");
	for (i = 0; i < v->n; i++) {
		const struct model_row *r = &v->rows[i];
		struct annotate_line *l = NULL;
		const struct model_row **inl;

		for (k = 0; k < an->n; k++)
			if (an->lines[k].line == r->function_line)
				l = &an->lines[k];
		if (!l) {
			l = &an->lines[an->n++];
			l->line = r->function_line;
		}
		if (!an->file)
			an->file = r->symbol_file;
		note_clone(an, r->clone);
		l->per_rt += r->per_rt[0];
		l->samples += r->samples[0];
		an->total += r->per_rt[0];
		an->samples += r->samples[0];
		if (!r->inlined) {
			l->own += r->per_rt[0];
			continue;
		}
		inl = realloc(l->inl, (l->ninl + 1) * sizeof(*inl));
		if (!inl)
			return error("out of memory");
		l->inl = inl;
		l->inl[l->ninl++] = r;  /* the view's order: costliest first */
	}
	qsort(an->lines, an->n, sizeof(*an->lines), cmp_line);
	return 0;
}

void annotate_free(struct annotation *an)
{
	size_t i;

	for (i = 0; an->lines && i < an->n; i++) {
		free(an->lines[i].inl);
		free(an->lines[i].source);
	}
	free(an->lines);
	memset(an, 0, sizeof(*an));
}
