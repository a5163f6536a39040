// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table as JSON (jansson): values in the family's units, so a
 * latency is in ns here while the text shows us. */
#include "reports/render/renderers.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "error.h"
#include "reports/render/json-common.h"
#include "reports/table/table.h"

#define TABLE_FORMAT "perpkt-table"
#define TABLE_VERSION 2

/* A value in the document's unit, null for a window without data. */
static json_t *num(double v, double scale)
{
	return isnan(v) || v < -1e300 ? json_null() : json_real(v * scale);
}

int table_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct table *t = model;
	/* the table keeps latency in us for its text; JSON times are ns */
	int us = !strcmp(t->unit, "us");
	double scale = us ? 1000 : 1;
	json_t *root = json_pack("{s:s, s:i, s:o, s:s, s:s, s:b}", "format",
				 TABLE_FORMAT, "version", TABLE_VERSION,
				 "units", render_json_units(us ? JSON_UNIT_TIME :
							    t->unit, NULL),
				 "value", t->title, "unit",
				 us ? JSON_UNIT_TIME : t->unit,
				 "per_rt", !us);
	json_t *rows = json_array();
	int bad = !root || !rows, ret;
	size_t i, k;

	for (i = 0; !bad && i < t->n; i++) {
		const struct table_row *r = &t->rows[i];
		json_t *vals = json_array();
		json_t *row = json_pack("{s:s, s:o, s:o, s:I}", "label", r->label,
					"mean", num(r->mean, scale), "spread",
					r->sd < 0 ? json_null() :
					json_real(r->sd * scale),
					"repeats", (json_int_t)r->nvals);

		for (k = 0; vals && k < r->nvals; k++)
			if (json_array_append_new(vals, num(r->vals[k], scale)))
				bad = 1;
		if (!row || !vals ||
		    json_object_set_new(row, "per_repeat", vals) ||
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
