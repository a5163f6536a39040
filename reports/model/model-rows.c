// SPDX-License-Identifier: GPL-2.0-only
/* A row's arithmetic, shared by model*.c: names, counts, per-window
 * weights. */
#include "reports/model/model-internal.h"

#include <stdlib.h>
#include <string.h>

int row_cmp_names(const struct model_row *a, const struct model_row *b)
{
	int c = strcmp_null(a->name, b->name);

	if (!c)
		c = strcmp_null(a->module, b->module);
	if (!c)
		c = strcmp_null(a->bucket, b->bucket);
	if (!c)
		c = strcmp_null(a->file, b->file);
	return c;
}

int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

int dup_opt(char **out, const char *s)
{
	*out = NULL;
	if (!s)
		return 0;
	*out = strdup(s);
	return *out ? 0 : -1;
}

void row_init(struct model_row *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	r->ipc = -1;
}

void row_clear(struct model_row *r)
{
	free(r->name);
	free(r->bucket);
	free(r->rule);
	free(r->module);
	free(r->file);
	free(r->rep);
	free(r->function);
	free(r->symbol);
	free(r->inlined);
	free(r->symbol_file);
	free(r->clone);
	row_init(r);
}

void rows_free(struct model_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		row_clear(&rows[i]);
	free(rows);
}

/* Per-window weights, allocated on first use: rows without repeats
 * (one run) never carry them. */
static int row_rep_alloc(struct model_row *r, size_t nrep)
{
	if (r->rep)
		return 0;
	r->rep = calloc(nrep * MODEL_MAX_EVENTS, sizeof(*r->rep));
	if (!r->rep)
		return -1;
	r->nrep = nrep;
	return 0;
}

int row_add(struct model_row *dst, const struct model_row *src,
	    size_t nevents)
{
	size_t e, k;

	for (e = 0; e < nevents; e++) {
		dst->samples[e] += src->samples[e];
		dst->weight[e] += src->weight[e];
	}
	dst->calls += src->calls;
	if (!src->rep)
		return 0;
	if (row_rep_alloc(dst, src->nrep))
		return -1;
	for (k = 0; k < src->nrep * MODEL_MAX_EVENTS; k++)
		dst->rep[k] += src->rep[k];
	return 0;
}

int row_add_sample(struct model_row *r, const struct profile_sample *sm,
		   size_t nrepeats)
{
	r->samples[sm->event] += sm->count;
	r->weight[sm->event] += (double)sm->weight;
	if (sm->event == 0)
		r->calls += (double)sm->calls;
	if (nrepeats < 2)
		return 0;
	if (sm->repeat >= nrepeats || row_rep_alloc(r, nrepeats))
		return -1;
	r->rep[sm->repeat * MODEL_MAX_EVENTS + sm->event] += (double)sm->weight;
	return 0;
}
