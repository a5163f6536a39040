// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate as JSON (docs/schema/annotate.schema.json). */
#include "reports/render/renderers.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "error.h"
#include "reports/annotate/annotate.h"

static json_t *inlined_json(const struct annotate_line *l)
{
	json_t *a = json_array();
	size_t k;

	for (k = 0; a && k < l->ninl; k++) {
		const struct model_row *r = l->inl[k];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:i, s:s, s:f, s:I}",
			"name", r->name, "function", r->function, "file", r->file,
			"line", r->line, "chain", r->inlined, "per_rt", r->per_rt[0],
			"samples", (json_int_t)r->samples[0]));
	}
	return a;
}

int annotate_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct annotation *an = model;
	const struct model *m = an->m;
	json_t *root, *clones, *lines = json_array();
	size_t i;
	int ret;

	for (i = 0; lines && i < an->n; i++) {
		const struct annotate_line *l = &an->lines[i];

		json_array_append_new(lines, json_pack("{s:i, s:f, s:f, s:f, s:I, s:o, s:o}",
			"line", l->line, "per_rt", l->per_rt, "own_per_rt", l->own,
			"share", an->total > 0 ? l->per_rt / an->total : 0.0,
			"samples", (json_int_t)l->samples,
			"source", l->source ? json_string(l->source) : json_null(),
			"inlined", inlined_json(l)));
	}
	clones = json_array();
	for (i = 0; clones && i < an->nclones; i++)
		json_array_append_new(clones, json_string(an->clones[i]));
	root = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:s, s:s, s:s, s:b, s:f, s:I, s:f, s:o}",
		"format", "perpkt-annotate", "version", 1, "function", an->function,
		"file", an->file ? json_string(an->file) : json_null(),
		"clones", clones,
		"kernel_release", m->run.kernel_release ?
			json_string(m->run.kernel_release) : json_null(),
		"event", m->run.nevents ? m->run.events[0].name : "?",
		"unit", m->run.nevents && m->run.events[0].unit ?
			m->run.events[0].unit : "events",
		"per", m->run.unit.name, "exact", m->run.exact,
		"per_rt", an->total, "samples", (json_int_t)an->samples,
		"kernel_share", m->total.per_rt[0] > 0 ? an->total / m->total.per_rt[0] : 0.0,
		"lines", lines);
	if (!root)
		return error("cannot build the JSON annotation: out of memory");
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF)
		return error("cannot write JSON annotation: %s", strerror(errno));
	return render_flush(f, "JSON annotation");
}
