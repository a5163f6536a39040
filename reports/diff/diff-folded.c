// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as folded stacks with two counts (difffolded.pl,
 * flamegraph.pl): "frames countA countB", two profiles only. */
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff.h"

#define FOLDED_SCALE 1000.0

/* One folded line on its way out: sorted by frames to merge sides. */
struct fline {
	char *frames;
	size_t side;
	double value;
};

static int cmp_fline(const void *pa, const void *pb)
{
	const struct fline *a = pa, *b = pb;

	return strcmp(a->frames, b->frames);
}

/* Frames with aliases applied and spaces made underscores
 * (flamegraph.pl splits counts off at spaces). */
static char *frames_of(const struct diff *d, const char *frames)
{
	char *out = NULL, *copy = strdup(frames), *tok, *save = NULL;
	size_t len = 0;
	FILE *f;

	if (!copy)
		return NULL;
	f = open_memstream(&out, &len);
	if (!f) {
		free(copy);
		return NULL;
	}
	for (tok = strtok_r(copy, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		const char *n = diff_alias(d, tok);

		if (ftell(f))
			fputc(';', f);
		for (; *n; n++) {
			char one[2] = { *n == ' ' ? '_' : *n, '\0' };

			render_folded_frame(f, one);
		}
	}
	fclose(f);
	free(copy);
	return out;
}

int diff_folded(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	int stacks = d->prof[0].m->nstacks && d->prof[1].m->nstacks;
	struct fline *l;
	size_t n = 0, cap = 0, i, s, j;
	int ret = -1;

	if (d->n != 2)
		return error("folded output compares exactly two profiles");
	for (s = 0; s < 2; s++)
		cap += stacks ? d->prof[s].m->nstacks : d->prof[s].m->nfunctions;
	l = calloc(cap ? cap : 1, sizeof(*l));
	if (!l)
		return error("out of memory");
	for (s = 0; s < 2; s++) {
		const struct diff_profile *dp = &d->prof[s];
		const struct model *m = dp->m;

		for (i = 0; i < (stacks ? m->nstacks : m->nfunctions); i++) {
			char buf[1024];
			const struct model_row *r = &m->functions[i];

			if (stacks) {
				l[n].frames = frames_of(d, m->stacks[i].frames);
				/* stacks carry the first event only */
				l[n].value = m->stacks[i].per_rt * dp->scale;
			} else {
				/* a ';' of a name is no frame of its own */
				snprintf(buf, sizeof(buf), "%s;%s",
					 r->bucket ? r->bucket : "other",
					 r->name);
				for (char *p = strchr(buf, ';') + 1; *p; p++)
					if (*p == ';')
						*p = '?';
				l[n].frames = frames_of(d, buf);
				l[n].value = r->per_rt[dp->event] * dp->scale;
			}
			l[n].side = s;
			if (!l[n++].frames)
				goto out;
		}
	}
	if (n > 1)
		qsort(l, n, sizeof(*l), cmp_fline);
	for (i = 0; i < n; i = j) {
		double v[2] = { 0, 0 };

		for (j = i; j < n && !strcmp(l[j].frames, l[i].frames); j++)
			v[l[j].side] += l[j].value;
		if (llround(v[0] * FOLDED_SCALE) || llround(v[1] * FOLDED_SCALE))
			fprintf(f, "%s %lld %lld\n", l[i].frames,
				llround(v[0] * FOLDED_SCALE),
				llround(v[1] * FOLDED_SCALE));
	}
	ret = 0;
	if (fflush(f) || ferror(f))
		ret = error("cannot write folded diff: %s", strerror(errno));
	else
		info("folded counts are %s per round trip x %g", d->unit,
		     FOLDED_SCALE);
out:
	if (ret && n && !l[n - 1].frames)
		error("out of memory");
	for (i = 0; i < n; i++)
		free(l[i].frames);
	free(l);
	return ret;
}
