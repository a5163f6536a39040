// SPDX-License-Identifier: GPL-2.0-only
/* A model's callchains (or its rows, without them) as a flame graph's
 * tree; reports/flame/flame.h says what it holds. */
#include "reports/flame/flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff-significance.h"

static int node_add(struct flame *f, size_t parent, const char *name,
		    size_t len)
{
	struct flame_node *n;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 256;
		struct flame_node *nb = realloc(f->nodes, cap * sizeof(*nb));

		if (!nb)
			return -1;
		f->nodes = nb;
		f->cap = cap;
	}
	n = &f->nodes[f->n];
	memset(n, 0, sizeof(*n));
	n->name = strndup(name, len);
	if (!n->name)
		return -1;
	n->parent = parent;
	if (f->n) {
		n->depth = f->nodes[parent].depth + 1;
		n->next = f->nodes[parent].child;
		f->nodes[parent].child = f->n;
	}
	f->n++;
	return 0;
}

/* The child of `parent` called name[0..len), added when new; 0 when
 * out of memory (0 is the root, never a child). */
static size_t child_of(struct flame *f, size_t parent, const char *name,
		       size_t len)
{
	size_t c;

	for (c = f->nodes[parent].child; c; c = f->nodes[c].next)
		if (strlen(f->nodes[c].name) == len &&
		    !memcmp(f->nodes[c].name, name, len))
			return c;
	return node_add(f, parent, name, len) ? 0 : f->n - 1;
}

/* One path of names ("a;b;c", root first) with its value on `side`,
 * its own time in `bucket` (NULL: the frame's own). */
static int path_add(struct flame *f, const char *path, int side,
		    double value, double samples, const char *bucket)
{
	size_t at = 0, len;
	const char *p = path;

	f->nodes[0].value[side] += value;
	f->nodes[0].samples[side] += samples;
	for (;;) {
		len = strcspn(p, ";");
		at = child_of(f, at, p, len);
		if (!at)
			return -1;
		f->nodes[at].value[side] += value;
		f->nodes[at].samples[side] += samples;
		if (!p[len])
			break;
		p += len + 1;
	}
	f->nodes[at].self[side] += value;
	f->nodes[at].self_samples[side] += samples;
	if (bucket && side == 0) {
		struct flame_node *n = &f->nodes[at];

		/* one colour a frame: the bucket most of its time is in */
		if (n->own_bucket && !strcmp(n->own_bucket, bucket))
			n->own_bucket_w += value;
		else if (!n->own_bucket || value > n->own_bucket_w) {
			n->own_bucket = bucket;
			n->own_bucket_w = value;
		}
	}
	return 0;
}

/* Function names matched as the diff matches rows, frame by frame;
 * the report's graph (d NULL) keeps them. malloc'd, NULL out of memory. */
static char *path_matched(const struct diff *d, const char *path)
{
	char *out = NULL, *copy, *tok, *save = NULL, buf[512];
	size_t len = 0;
	FILE *mem;

	if (!d)
		return strdup(path);
	copy = strdup(path);
	mem = copy ? open_memstream(&out, &len) : NULL;
	if (!mem) {
		free(copy);
		return NULL;
	}
	for (tok = strtok_r(copy, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save))
		fprintf(mem, "%s%s", ftell(mem) ? ";" : "",
			diff_match_name(d, tok, buf, sizeof(buf)));
	free(copy);
	if (fclose(mem)) {
		free(out);
		return NULL;
	}
	return out;
}

static int add_path(struct flame *f, const struct diff *d, const char *path,
		    int side, double value, double samples, const char *bucket)
{
	char *m = path_matched(d, path);
	int ret;

	if (!m)
		return -1;
	ret = path_add(f, m, side, value, samples, bucket);
	free(m);
	return ret;
}

/* The first event of model m onto `side`, times scale: its stacks, or
 * bucket;function from its rows; the idle loop left out. */
static int side_add(struct flame *f, const struct diff *d,
		    const struct model *m, int side, size_t ev, double scale)
{
	size_t i;

	if (f->stacks) {
		for (i = 0; i < m->nstacks; i++) {
			const struct model_stack *st = &m->stacks[i];

			/* idle as the tables say: by name or by context */
			if (!strcmp(st->bucket, MODEL_IDLE_BUCKET))
				continue;
			if (add_path(f, d, st->frames, side,
				     st->per_rt * scale, (double)st->samples,
				     st->bucket))
				return -1;
		}
		return 0;
	}
	for (i = 0; i < m->nfunctions; i++) {
		const struct model_row *r = &m->functions[i];
		const char *b = r->bucket ? r->bucket : "other";
		char *path;
		int ret;

		if (!strcmp(b, MODEL_IDLE_BUCKET) || !r->samples[ev])
			continue;
		if (asprintf(&path, "%s;%s", b, r->name) < 0)
			return -1;
		ret = add_path(f, d, path, side, r->per_rt[ev] * scale,
			       (double)r->samples[ev], NULL);
		free(path);
		if (ret)
			return -1;
	}
	return 0;
}

/* Bucket, file and line of each frame, from the model that has it. */
static void describe(struct flame *f, const struct model *m)
{
	size_t i;

	for (i = 1; i < f->n; i++) {
		struct flame_node *n = &f->nodes[i];
		const struct model_frame_info *fi;

		if (n->bucket)
			continue;
		if (!f->stacks) {
			/* one level: a bucket, or a function under its bucket */
			n->bucket = n->depth == 1 ? n->name :
				    f->nodes[n->parent].name;
			continue;
		}
		fi = model_frame(m, n->name);
		if (fi) {
			n->bucket = fi->bucket;
			n->file = fi->file;
			n->line = fi->line;
		}
		/* coloured where the tables put its own time */
		if (n->own_bucket && (!n->bucket ||
				      strcmp(n->own_bucket, n->bucket))) {
			n->charged = n->bucket != NULL;
			f->charged |= n->charged;
			n->bucket = n->own_bucket;
		}
	}
}

static int cmp_name(const void *pa, const void *pb, void *arg)
{
	const struct flame_node *nodes = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return strcmp(nodes[a].name, nodes[b].name);
}

/* Children in name order, as flamegraph.pl draws them (so two graphs
 * line up), and each frame's left edge. Parents come before their
 * children in nodes[]. */
static int lay_out(struct flame *f)
{
	size_t *kids = malloc((f->n ? f->n : 1) * sizeof(*kids));
	size_t i, c, k, nk;
	double x;

	if (!kids)
		return -1;
	for (i = 0; i < f->n; i++) {
		nk = 0;
		for (c = f->nodes[i].child; c; c = f->nodes[c].next)
			kids[nk++] = c;
		if (nk > 1)
			qsort_r(kids, nk, sizeof(*kids), cmp_name, f->nodes);
		x = f->nodes[i].x;
		f->nodes[i].child = nk ? kids[0] : 0;
		for (k = 0; k < nk; k++) {
			f->nodes[kids[k]].next = k + 1 < nk ? kids[k + 1] : 0;
			f->nodes[kids[k]].x = x;
			x += f->nodes[kids[k]].value[0];
		}
	}
	free(kids);
	return 0;
}

static int start(struct flame *f)
{
	memset(f, 0, sizeof(*f));
	return node_add(f, 0, "all", 3);
}

/* "Flame graph per round trip: the workload's kernel time (cpu-clock,
 * ns)", "... kernel instructions (exact counts)", "... kernel cycles". */
static void title(struct flame *f, const struct model *whole,
		  const struct model *m)
{
	const char *ev = m->nevents ? m->run.events[0].name : "?";
	const char *what = m->run.exact ? "instructions" :
			   !strcmp(f->unit, "ns") ? "time" : f->unit;
	char paren[96] = "";

	if (m->run.exact)
		snprintf(paren, sizeof(paren), " (exact counts)");
	else if (strcmp(ev, what))
		snprintf(paren, sizeof(paren), " (%s%s%s)", ev,
			 strcmp(f->unit, what) ? ", " : "",
			 strcmp(f->unit, what) ? f->unit : "");
	snprintf(f->title, sizeof(f->title),
		 "Flame graph per %s: %s's kernel %s%s%s", f->per,
		 whole->workload ? "the workload" : "the profile", what, paren,
		 f->stacks ? "" : ", by bucket and function");
}

static int cmp_flame_bucket(const void *pa, const void *pb)
{
	const struct model_row *a = *(const struct model_row *const *)pa;
	const struct model_row *b = *(const struct model_row *const *)pb;
	int ua = !strcmp(a->name, MODEL_UNKNOWN_BUCKET);
	int ub = !strcmp(b->name, MODEL_UNKNOWN_BUCKET);

	if (ua != ub)
		return ua - ub;
	if (a->weight[0] != b->weight[0])
		return a->weight[0] > b->weight[0] ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The legend's buckets: the tables' rows, shares of busy as the text
 * reports them (glance.c's top bucket is the first). */
static int legend_buckets(struct flame *f, const struct model *m)
{
	const struct model_row **rows;
	size_t i, n = 0;

	if (!m->nevents || !(m->busy.per_rt[0] > 0))
		return 0;
	rows = calloc(m->nbuckets ? m->nbuckets : 1, sizeof(*rows));
	f->buckets = calloc(m->nbuckets ? m->nbuckets : 1,
			    sizeof(*f->buckets));
	if (!rows || !f->buckets) {
		free(rows);
		return -1;
	}
	for (i = 0; i < m->nbuckets; i++)
		if (strcmp(m->buckets[i].name, MODEL_IDLE_BUCKET) &&
		    m->buckets[i].samples[0])
			rows[n++] = &m->buckets[i];
	qsort(rows, n, sizeof(*rows), cmp_flame_bucket);
	for (i = 0; i < n; i++) {
		f->buckets[i].name = rows[i]->name;
		f->buckets[i].share = rows[i]->per_rt[0] / m->busy.per_rt[0];
	}
	f->nbuckets = n;
	free(rows);
	return 0;
}

int flame_build(struct flame *f, const struct model *whole)
{
	const struct model *m = model_workload(whole);

	if (start(f))
		goto oom;
	f->stacks = m->nstacks > 0;
	f->unit = m->nevents ? m->run.events[0].unit : "";
	f->per = m->run.unit.name;
	title(f, whole, m);
	if (side_add(f, NULL, m, 0, 0, 1) || lay_out(f) ||
	    legend_buckets(f, m))
		goto oom;
	describe(f, m);
	return 0;
oom:
	flame_free(f);
	return error("out of memory drawing the flame graph");
}

/* A side of one frame's own time as the diff's cells hold a row's. */
static void self_cell(struct diff_cell *c, const struct flame_node *n,
		      int side, const struct diff_profile *dp)
{
	memset(c, 0, sizeof(*c));
	c->present = n->self_samples[side] > 0;
	c->value = n->self[side];
	c->err = c->present ? c->value / sqrt(n->self_samples[side]) : 0;
	diff_cell_finish(c, dp);
}

/* Frames of A that B lacks, the outermost of each, heaviest first. */
static int cmp_gone(const void *pa, const void *pb)
{
	const struct flame_gone *a = pa, *b = pb;

	return (a->value < b->value) - (a->value > b->value);
}

static char *path_of(const struct flame *f, size_t i)
{
	char *up, *s;

	if (!f->nodes[i].parent)
		return strdup(f->nodes[i].name);
	up = path_of(f, f->nodes[i].parent);
	if (!up || asprintf(&s, "%s;%s", up, f->nodes[i].name) < 0)
		s = NULL;
	free(up);
	return s;
}

static int list_gone(struct flame *f)
{
	size_t i;

	for (i = 1; i < f->n; i++) {
		const struct flame_node *n = &f->nodes[i];

		if (n->value[0] > 0 || n->value[1] <= 0 ||
		    (n->parent && f->nodes[n->parent].value[0] <= 0))
			continue;
		/* room doubled at 0, 1, 3, 7, ... entries */
		if (!(f->ngone & (f->ngone + 1))) {
			struct flame_gone *g = realloc(f->gone,
				2 * (f->ngone + 1) * sizeof(*g));

			if (!g)
				return -1;
			f->gone = g;
		}
		f->gone[f->ngone].value = n->value[1];
		f->gone[f->ngone].path = path_of(f, i);
		if (!f->gone[f->ngone++].path)
			return -1;
	}
	if (f->ngone > 1)
		qsort(f->gone, f->ngone, sizeof(*f->gone), cmp_gone);
	return 0;
}

static int table_mark(const struct diff *d, size_t k,
		      const struct flame_node *n, int stacks)
{
	const struct diff_row *r;
	char buf[512];

	if (!stacks && n->depth == 1)
		r = diff_find(&d->buckets, n->name);
	else
		r = diff_find(&d->functions,
			      diff_match_name(d, n->name, buf, sizeof(buf)));
	return r ? r->cmp[k].mark : 0;
}

int flame_build_diff(struct flame *f, const struct diff *d, size_t k)
{
	const struct diff_profile *a = &d->prof[0], *b = &d->prof[k];
	size_t i;

	if (start(f))
		goto oom;
	f->diff = 1;
	/* where nothing could be tested, no frame is faded for it */
	f->dim_unmarked = !d->untested;
	/* stacks are of the first event: compare them when both sides
	 * compare that event and have them */
	f->stacks = a->m->nstacks && b->m->nstacks && !a->event && !b->event;
	f->unit = d->unit;
	f->per = d->per;
	snprintf(f->title, sizeof(f->title), "%c against A: %s per %s%s",
		 diff_letter(k), d->unit, d->per,
		 f->stacks ? "" : ", by bucket and function");
	snprintf(f->side[0], sizeof(f->side[0]), "%c: %s", diff_letter(k),
		 b->label);
	snprintf(f->side[1], sizeof(f->side[1]), "A: %s", a->label);
	if (side_add(f, d, b->m, 0, b->event, b->scale) ||
	    side_add(f, d, a->m, 1, a->event, a->scale) || lay_out(f))
		goto oom;
	describe(f, b->m);
	describe(f, a->m);
	for (i = 1; i < f->n; i++) {
		struct flame_node *n = &f->nodes[i];
		struct diff_cell ca, cb;

		self_cell(&ca, n, 1, a);
		self_cell(&cb, n, 0, b);
		diff_cmp_cells(&n->cmp, &ca, &cb, diff_deterministic(d));
		/* a frame carries its function's mark (its bucket's, one
		 * level down): the table's, tested across windows */
		n->cmp.mark = table_mark(d, k, n, f->stacks);
		if (n->value[0] > 0 && fabs(n->cmp.delta) > f->max_self_delta)
			f->max_self_delta = fabs(n->cmp.delta);
		if ((n->self[0] > 0 || n->self[1] > 0) && n->cmp.delta != 0 &&
		    (n->cmp.mark || !f->dim_unmarked))
			n->changed = FLAME_CHANGED;
	}
	/* children come after their parents in nodes[] */
	for (i = f->n; i-- > 1;)
		if (f->nodes[i].changed)
			f->nodes[f->nodes[i].parent].changed |= FLAME_CHANGED_BELOW;
	if (list_gone(f))
		goto oom;
	return 0;
oom:
	flame_free(f);
	return error("out of memory drawing the differential flame graph");
}

void flame_free(struct flame *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free((char *)f->nodes[i].name);
	for (i = 0; i < f->ngone; i++)
		free(f->gone[i].path);
	free(f->nodes);
	free(f->gone);
	free(f->buckets);
	memset(f, 0, sizeof(*f));
}

double flame_share(const struct flame *f, const struct flame_node *n)
{
	return f->nodes[0].value[0] > 0 ? n->value[0] / f->nodes[0].value[0] : 0;
}

const char *flame_no_stacks_note(const struct flame *f)
{
	if (f->stacks)
		return NULL;
	return "No call paths in this profile: one level, bucket then "
	       "function. Record without --no-call-graph (or with -g for "
	       "deeper stacks) to see call paths; exact counts (--exact) "
	       "are per address, without callchains.";
}
