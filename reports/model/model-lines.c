// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source lines, as perf annotate and opannotate give them but per round
 * trip: every sampled (or counted) address to its file:line in the
 * innermost inlined function, with the chain of functions it was
 * inlined into, from the DWARF of the kernel's vmlinux.
 */
#include "reports/model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "error.h"
#include "reports/model/model-internal.h"
#include "symbolize/symbolize.h"

static const char *base(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "??";
}

/* The row of one address, filled but for its counts; 1 when the
 * address has no line (no symbol, or no DWARF for it). */
static int describe(struct model_row *r, const struct sym_result *res)
{
	const char *fn = res->function ? res->function : res->name;
	const struct sym_frame *in = res->ninlines ? &res->inlines[0] : NULL;
	char *chain = NULL, *name = NULL;
	size_t k, len = 0;
	FILE *f;

	if (!fn || !res->file || res->line <= 0)
		return 1;
	row_init(r);
	if (in) {
		f = open_memstream(&chain, &len);
		if (!f)
			return -1;
		/* each frame's caller, and where in the caller */
		for (k = 1; k < res->ninlines; k++)
			fprintf(f, "%s%s:%d", k > 1 ? " < " : "",
				res->inlines[k].function, res->inlines[k].line);
		fprintf(f, "%s%s:%d", res->ninlines > 1 ? " < " : "", fn, res->line);
		fclose(f);
	}
	if (asprintf(&name, in ? "%s:%d %s < %s" : "%s:%d %s",
		     base(in ? in->file : res->file), in ? in->line : res->line,
		     in ? in->function : fn, chain) < 0)
		name = NULL;
	r->name = name;
	r->inlined = chain;
	r->line = in ? in->line : res->line;
	r->function_line = res->line;
	if (!name || dup_opt(&r->file, in ? in->file : res->file) ||
	    dup_opt(&r->function, in ? in->function : fn) ||
	    dup_opt(&r->symbol, fn) || dup_opt(&r->symbol_file, res->file) ||
	    dup_opt(&r->clone, res->name && strcmp(res->name, fn) ? res->name : NULL) ||
	    dup_opt(&r->bucket, res->bucket) ||
	    dup_opt(&r->module, res->module))
		return -1;
	return 0;
}

static int cmp_ip(const void *a, const void *b)
{
	const struct profile_sample *x = *(const struct profile_sample *const *)a;
	const struct profile_sample *y = *(const struct profile_sample *const *)b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

int model_lines(struct model *m, struct symbolizer *s, const char *symbol)
{
	const struct profile *p = m->profile;
	struct model_view *v = &m->views[MODEL_BY_LINE];
	const struct profile_sample **order;
	struct model_row cur, *r = NULL;
	size_t i, j, cap = 0, nrep = m->nrepeats > 1 ? (size_t)m->nrepeats : 1;
	uint64_t last_ip = 0;
	int have = -1, ret = -1;

	if (!symbolizer_has_dwarf(s))
		return error("no DWARF for file:line: give the kernel's vmlinux with --vmlinux (its -dbg package, /usr/lib/debug/boot/vmlinux-%s)",
			     p->kernel_release ? p->kernel_release : "RELEASE");
	rows_free(v->rows, v->n);
	v->rows = NULL;
	v->n = 0;
	order = calloc(p->nsamples ? p->nsamples : 1, sizeof(*order));
	if (!order)
		return error("out of memory");
	for (i = 0; i < p->nsamples; i++)
		order[i] = &p->samples[i];
	/* one lookup per address */
	qsort(order, p->nsamples, sizeof(*order), cmp_ip);
	row_init(&cur);
	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *sm = order[i];

		if (have < 0 || sm->ip != last_ip) {
			struct sym_result res;

			row_clear(&cur);
			last_ip = sm->ip;
			memset(&res, 0, sizeof(res));
			have = symbolizer_resolve(s, sm->ip, &res);
			if (have < 0)
				goto out;
			if (!have && symbol) {
				const char *fn = res.function ? res.function : res.name;

				/* the function, or one clone by its name */
				have = !fn || (strcmp(fn, symbol) &&
					       (!res.name || strcmp(res.name, symbol)));
			}
			if (!have) {
				have = describe(&cur, &res);
				if (have < 0) {
					error("out of memory");
					goto out;
				}
			}
			r = NULL;
			for (j = 0; !have && j < v->n; j++)
				if (!strcmp(v->rows[j].name, cur.name))
					r = &v->rows[j];
			if (!have && !r) {
				if (ARRAY_GROW(v->rows, v->n + 1, cap)) {
					error("out of memory");
					goto out;
				}
				r = &v->rows[v->n++];
				*r = cur;
				row_init(&cur);
			}
		}
		if (!have && row_add_sample(r, sm, nrep > 1 ? nrep : 0)) {
			error("out of memory");
			goto out;
		}
	}
	finish_rows(v->rows, v->n, m);
	ret = 0;
out:
	row_clear(&cur);
	free(order);
	return ret;
}
