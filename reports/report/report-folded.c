// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/*
 * Folded stacks for flamegraph.pl and speedscope: "a;b;c weight" lines.
 * Both want integer weights, so the first event per round trip is
 * multiplied by FOLDED_SCALE (ns/RT x 1000 = ps per round trip) and
 * rounded; the scale is said on stderr, since the format has
 * no place for comments. Without callchains each line is
 * "bucket;function", one frame per function.
 */

#define FOLDED_SCALE 1000.0

static void put(FILE *f, const char *frames, double per_rt)
{
	long long w = llround(per_rt * FOLDED_SCALE);

	/* a line of weight 0 would only clutter the graph */
	if (w > 0) {
		render_folded_frames(f, frames);
		fprintf(f, " %lld\n", w);
	}
}

int report_folded(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	size_t i;

	if (model_empty(m))
		return error("report of an empty model");
	if (m->nstacks) {
		/* one line a path: stacks of one path in two buckets
		 * (model_stack.bucket) are neighbours */
		for (i = 0; i < m->nstacks; i++) {
			double v = m->stacks[i].per_rt;

			while (i + 1 < m->nstacks &&
			       !strcmp(m->stacks[i].frames, m->stacks[i + 1].frames))
				v += m->stacks[++i].per_rt;
			put(f, m->stacks[i].frames, v);
		}
	} else {
		/* flamegraph.pl and speedscope merge and order frames themselves */
		for (i = 0; i < m->nfunctions; i++) {
			const struct model_row *r = &m->functions[i];
			char *buf = NULL;
			size_t len = 0;
			FILE *mem = open_memstream(&buf, &len);

			if (!mem)
				return error("out of memory");
			render_folded_frame(mem, r->bucket ? r->bucket : "other");
			fputc(';', mem);
			render_folded_frame(mem, r->name);
			if (fclose(mem) || !buf) {
				free(buf);
				return error("out of memory");
			}
			/* flamegraph.pl splits on the last space */
			for (char *p = buf; *p; p++)
				if (*p == ' ')
					*p = '_';
			put(f, buf, r->per_rt[0]);
			free(buf);
		}
	}
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	/* the format has no comments: the scale goes to stderr */
	info("folded weights are %s per round trip x %g%s",
	     m->nevents ? m->run.events[0].unit : "?", FOLDED_SCALE,
	     m->nstacks ? "" :
	     " (no callchains: one bucket;function frame each)");
	if (m->no_round_trips || !m->total.samples[0])
		info("%s: the folded output is empty",
		     m->no_round_trips ? "no round trips" : "no samples");
	return 0;
}
