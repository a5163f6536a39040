// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a flame graph shows of each function in the callchains: its
 * bucket (the frame's colour) and its file:line (the hover). Callers
 * are in no row of the model, which holds sampled functions only, so
 * they are resolved here, once per distinct address.
 */
#include "reports/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/model-internal.h"

/* One distinct address of the stacks and the weight of those holding it. */
struct frame_ip {
	uint64_t ip;
	double weight;
};

/* One resolved address on its way into m->frames. */
struct frame_seen {
	const char *name, *bucket, *file;
	int line;
	double weight;
};

static int cmp_ip(const void *pa, const void *pb)
{
	const struct frame_ip *a = pa, *b = pb;

	return (a->ip > b->ip) - (a->ip < b->ip);
}

/* By name, the heaviest address first: it gives the line. */
static int cmp_seen(const void *pa, const void *pb)
{
	const struct frame_seen *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return (a->weight < b->weight) - (a->weight > b->weight);
}

static int cmp_frame(const void *pa, const void *pb)
{
	const struct model_frame_info *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* The distinct addresses of the first event's stacks, with weights. */
static struct frame_ip *stack_ips(const struct profile *p, size_t *n)
{
	size_t i, k, cap = 0, at = 0;
	struct frame_ip *ips;

	for (i = 0; i < p->nstacks; i++)
		cap += p->stacks[i].depth;
	ips = calloc(cap ? cap : 1, sizeof(*ips));
	if (!ips)
		return NULL;
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];

		for (k = 0; st->event == 0 && k < st->depth; k++) {
			if (st->ips[k] >= CONTEXT_MARKER_MIN)
				continue;
			ips[at].ip = st->ips[k];
			ips[at++].weight = (double)st->weight;
		}
	}
	if (at > 1)
		qsort(ips, at, sizeof(*ips), cmp_ip);
	*n = 0;
	for (i = 0; i < at; i++) {
		if (*n && ips[*n - 1].ip == ips[i].ip)
			ips[*n - 1].weight += ips[i].weight;
		else
			ips[(*n)++] = ips[i];
	}
	return ips;
}

int model_build_frames(struct model *m, struct symbolizer *s)
{
	struct frame_seen *seen = NULL;
	struct frame_ip *ips;
	size_t nips = 0, i;

	if (!m->profile->nstacks || !model_callchains_wanted())
		return 0;
	ips = stack_ips(m->profile, &nips);
	seen = calloc(nips ? nips : 1, sizeof(*seen));
	m->frames = calloc(nips ? nips : 1, sizeof(*m->frames));
	if (!ips || !seen || !m->frames)
		goto oom;
	for (i = 0; i < nips; i++) {
		struct sym_result res;

		memset(&res, 0, sizeof(res));
		seen[i].name = MODEL_UNKNOWN_NAME;
		seen[i].bucket = MODEL_UNKNOWN_BUCKET;
		/* the name as model-stacks.c folds it */
		if (symbolizer_resolve(s, ips[i].ip, &res) == 0) {
			seen[i].name = res.function ? res.function :
				       res.name ? res.name : MODEL_UNKNOWN_NAME;
			seen[i].bucket = res.bucket;
			seen[i].file = res.file;
			seen[i].line = res.line;
		}
		seen[i].weight = ips[i].weight;
	}
	if (nips > 1)
		qsort(seen, nips, sizeof(*seen), cmp_seen);
	for (i = 0; i < nips; i++) {
		struct model_frame_info *fi;

		if (m->nframes && !strcmp(m->frames[m->nframes - 1].name,
					  seen[i].name))
			continue;
		fi = &m->frames[m->nframes++];
		fi->line = seen[i].line;
		if (dup_opt(&fi->name, seen[i].name) ||
		    dup_opt(&fi->bucket, seen[i].bucket) ||
		    dup_opt(&fi->file, seen[i].file))
			goto oom;
	}
	free(ips);
	free(seen);
	return 0;
oom:
	free(ips);
	free(seen);
	return error("out of memory resolving the callchains' functions");
}

void model_free_frames(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nframes; i++) {
		free(m->frames[i].name);
		free(m->frames[i].bucket);
		free(m->frames[i].file);
	}
	free(m->frames);
	m->frames = NULL;
	m->nframes = 0;
}

const struct model_frame_info *model_frame(const struct model *m,
					   const char *name)
{
	struct model_frame_info key = { .name = (char *)name };

	if (!m->nframes)
		return NULL;
	return bsearch(&key, m->frames, m->nframes, sizeof(key), cmp_frame);
}
