// SPDX-License-Identifier: GPL-2.0-only
/* perpkt resolve as JSON (jansson): the whole document or nothing. */
#include "reports/render/renderers.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "reports/render/json-common.h"
#include "reports/resolve/resolve.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Members set one by one: json_pack parses its format per call, a
 * third of the JSON time for 10,000 results. Keys are literals. */
static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new_nocheck(o, key, v);
}

static json_t *frame_json(const struct sym_frame *f)
{
	json_t *o = json_object();

	if (!o || set(o, "function", json_string(f->function)) ||
	    set(o, "file", str_or_null(f->file)) ||
	    set(o, "line", json_integer(f->line))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *result_json(const struct sym_result *r)
{
	json_t *inl = json_array(), *o = json_object();
	char addr[24];
	size_t i;

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->addr);
	for (i = 0; inl && i < r->ninlines; i++)
		if (json_array_append_new(inl, frame_json(&r->inlines[i])))
			goto fail;
	if (!inl || !o ||
	    set(o, "addr", json_string(addr)) ||
	    set(o, "function", str_or_null(r->function)) ||
	    set(o, "symbol", str_or_null(r->name)) ||
	    set(o, "offset", json_integer((json_int_t)r->offset)) ||
	    set(o, "module", str_or_null(r->module)) ||
	    set(o, "file", str_or_null(r->file)) ||
	    set(o, "line", r->file ? json_integer(r->line) : json_null()) ||
	    set(o, "unit", str_or_null(r->unit)))
		goto fail;
	/* Taken by o, even when that fails. */
	i = set(o, "inlines", inl);
	inl = NULL;
	if (i || set(o, "bucket", json_string(r->bucket)) ||
	    set(o, "rule", json_string(r->rule)))
		goto fail;
	return o;
fail:
	json_decref(inl);
	json_decref(o);
	return NULL;
}

/* The whole document in memory first: stdout gets all of it or nothing. */
int resolve_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct resolve_model *m = model;
	const struct sym_result *r = m->results;
	size_t n = m->n;
	json_t *results = json_array(), *doc;
	char *text;
	size_t i;
	int ret;

	for (i = 0; results && i < n; i++) {
		if (json_array_append_new(results, result_json(&r[i]))) {
			json_decref(results);
			return error("out of memory building JSON");
		}
	}
	if (!results)
		return error("out of memory building JSON");
	/* version 1 was the same without format, version and units */
	doc = json_pack("{s:s, s:i, s:o, s:s, s:b, s:o}", "format",
			"perpkt-resolve", "version", 2, "units",
			render_json_units(NULL, NULL), "symbols", m->symbols,
			"dwarf", m->dwarf, "results", results);
	if (!doc)
		return error("out of memory building JSON");
	/* One buffer, one write: json_dumpf calls fwrite per token. */
	text = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	if (!text)
		return error("out of memory building JSON");
	ret = fputs(text, f) == EOF || fputc('\n', f) == EOF;
	free(text);
	return ret ? error("cannot write JSON to standard output") : 0;
}

