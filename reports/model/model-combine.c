// SPDX-License-Identifier: GPL-2.0-only
/*
 * Combined keys, perf report's "--sort cpu,sym": rows per (role or CPU,
 * function, bucket or file). Samples carry their role and CPU, so each
 * value of the first key is a model of its own samples; its rows of the
 * second key become the combined rows, named "first: second".
 */
#include "reports/model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/model-internal.h"

/* The samples of one role (first == ROLE) or one CPU, at their places
 * by context already (the parts have no callchains to read it from). */
static size_t pick(const struct model *m, enum model_by first, int value,
		   struct profile_sample *out)
{
	size_t i, n = 0;

	for (i = 0; i < m->nsamples; i++) {
		const struct profile_sample *s = &m->samples[i];

		if (first == MODEL_BY_ROLE ? (int)s->role == value :
		    (int)s->cpu == value)
			out[n++] = *s;
	}
	return n;
}

static int add_rows(struct model *m, struct model_view *v, const struct model *sub,
		    enum model_by second, const char *prefix)
{
	const struct model_view *from = &sub->views[second];
	size_t i;

	for (i = 0; i < from->n; i++) {
		const struct model_row *src = &from->rows[i];
		struct model_row *r = &v->rows[v->n];

		if (!src->samples[0])
			continue;
		row_init(r);
		v->n++;
		if (asprintf(&r->name, "%s: %s", prefix, src->name) < 0) {
			r->name = NULL;
			return error("out of memory");
		}
		if (dup_opt(&r->bucket, src->bucket) || dup_opt(&r->module, src->module) ||
		    dup_opt(&r->file, src->file) || dup_opt(&r->rule, src->rule) ||
		    row_add(r, src, m->nevents))
			return error("out of memory");
	}
	return 0;
}

int model_combine(struct model *m, struct symbolizer *s, enum model_by first,
		  enum model_by second)
{
	const struct profile *p = m->profile;
	struct model_view *v = &m->views[MODEL_BY_COMBINED];
	struct profile sub = *p;
	size_t cap = 0, k, nvalues;
	int values[MAX_COMBINE_VALUES];

	if ((first != MODEL_BY_ROLE && first != MODEL_BY_CPU) ||
	    (second != MODEL_BY_FUNCTION && second != MODEL_BY_BUCKET &&
	     second != MODEL_BY_FILE))
		return error("combined keys are role or cpu, then function, bucket or file (e.g. role,function)");
	nvalues = 0;
	if (first == MODEL_BY_ROLE)
		for (k = 0; k < ROLE_MAX; k++)
			values[nvalues++] = (int)k;
	else
		for (k = 0; k < p->ncpus_sampled && nvalues < MAX_COMBINE_VALUES; k++)
			values[nvalues++] = p->cpus[k];
	sub.samples = calloc(m->nsamples ? m->nsamples : 1, sizeof(*sub.samples));
	if (!sub.samples)
		return error("out of memory");
	/* the sub-models are only read for their rows: no callchains */
	sub.stacks = NULL;
	sub.nstacks = 0;
	for (k = 0; k < nvalues; k++) {
		struct model sm;
		char prefix[32];

		sub.nsamples = pick(m, first, values[k], sub.samples);
		if (!sub.nsamples)
			continue;
		if (model_build_part(&sm, &sub, s)) {
			free(sub.samples);
			return -1;
		}
		cap += sm.views[second].n;
		v->rows = realloc(v->rows, (cap ? cap : 1) * sizeof(*v->rows));
		if (first == MODEL_BY_ROLE)
			snprintf(prefix, sizeof(prefix), "%s", role_name((enum role)values[k]));
		else
			snprintf(prefix, sizeof(prefix), "cpu %d", values[k]);
		if (!v->rows || add_rows(m, v, &sm, second, prefix)) {
			model_free(&sm);
			free(sub.samples);
			return v->rows ? -1 : error("out of memory");
		}
		model_free(&sm);
	}
	free(sub.samples);
	snprintf(m->combined_name, sizeof(m->combined_name), "%s,%s",
		 model_by_name(first), model_by_name(second));
	m->combined_second = second;
	finish_rows(v->rows, v->n, m);
	return 0;
}

const char *model_view_title(const struct model *m, enum model_by by)
{
	return by == MODEL_BY_COMBINED ? m->combined_name : model_by_name(by);
}

int model_view_of_functions(const struct model *m, enum model_by by)
{
	return by == MODEL_BY_FUNCTION ||
	       (by == MODEL_BY_COMBINED && m->combined_second == MODEL_BY_FUNCTION);
}

int model_by_parse_combined(const char *s, enum model_by *first,
			    enum model_by *second)
{
	/* perf report's sort keys where they mean the same */
	static const struct { const char *perf, *ours; } alias[] = {
		{ "sym", "function" }, { "comm", "role" }, { "pid", "role" },
		{ "srcfile", "file" },
	};
	char a[32], b[32];
	const char *comma = strchr(s, ',');
	size_t i;
	int x, y;

	if (!comma || (size_t)(comma - s) >= sizeof(a) || strlen(comma + 1) >= sizeof(b) ||
	    strchr(comma + 1, ','))
		return -1;
	snprintf(a, sizeof(a), "%.*s", (int)(comma - s), s);
	snprintf(b, sizeof(b), "%s", comma + 1);
	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		if (!strcmp(a, alias[i].perf))
			snprintf(a, sizeof(a), "%s", alias[i].ours);
		if (!strcmp(b, alias[i].perf))
			snprintf(b, sizeof(b), "%s", alias[i].ours);
	}
	x = model_by_parse(a);
	y = model_by_parse(b);
	if (x < 0 || y < 0)
		return -1;
	*first = (enum model_by)x;
	*second = (enum model_by)y;
	return 0;
}
