// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table as JSON (jansson). */
#include "reports/renderers.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "error.h"
#include "reports/table.h"

static json_t *num(double v)
{
	return isnan(v) || v < -1e300 ? json_null() : json_real(v);
}

int table_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct table *t = model;
	json_t *root = json_pack("{s:s, s:i, s:s, s:s}", "format",
				 "perpkt-table", "version", 1, "value",
				 t->title, "unit", t->unit);
	json_t *rows = json_array();
	int bad = !root || !rows, ret;
	size_t i, k;

	for (i = 0; !bad && i < t->n; i++) {
		const struct table_row *r = &t->rows[i];
		json_t *vals = json_array();
		json_t *row = json_pack("{s:s, s:o, s:o}", "label", r->label,
				      "mean", num(r->mean), "sd",
				      r->sd < 0 ? json_null() : json_real(r->sd));

		for (k = 0; vals && k < r->nvals; k++)
			if (json_array_append_new(vals, num(r->vals[k])))
				bad = 1;
		if (!row || !vals || json_object_set_new(row, "repeats", vals) ||
		    json_array_append_new(rows, row))
			bad = 1;
	}
	if (bad || json_object_set_new(root, "rows", rows)) {
		json_decref(root);
		return error("cannot build the JSON table: out of memory");
	}
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF)
		return error("cannot write JSON table: %s", strerror(errno));
	return render_flush(f, "table");
}
