// SPDX-License-Identifier: GPL-2.0-only
/*
 * Callchains as folded strings (flame graphs, --callers) and the
 * orderings of the views (--sort).
 */
#include "reports/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "error.h"
#include "reports/model/model-internal.h"

/*
 * The folded names of all callchains together: the reader expands at
 * most 2^22 addresses (stack-nodes.c), but a name can be long, and
 * 2^22 names of 4 KB would be 16 GB. A real profile folds to a few MB.
 */
#define FOLDED_BYTES_MAX ((size_t)256 << 20)

static int cmp_stack(const void *pa, const void *pb)
{
	const struct model_stack *a = pa, *b = pb;
	int c = strcmp(a->frames, b->frames);

	return c ? c : strcmp(a->bucket, b->bucket);
}

/* The bucket a sample on st is in, by the rules the rows follow:
 * malloc'd, NULL after printing why. */
static char *stack_bucket(const struct model *m, struct symbolizer *s,
			  const struct profile_stack *st)
{
	struct addr_info a;
	char *b = NULL;

	memset(&a, 0, sizeof(a));
	model_stack_place(m, s, st, &a.ip, &a.idle, &a.bucket_ip);
	if (addr_resolve(s, &a) >= 0) {
		b = a.bucket;
		a.bucket = NULL;
	}
	addr_clear(&a);
	if (!b)
		error("out of memory placing callchains");
	return b;
}

/* "root;...;leaf" of folded names, or NULL when out of memory. */
static char *fold_stack(struct symbolizer *s, const struct profile_stack *st)
{
	size_t len = 0, cap = 256;
	char *buf = malloc(cap);
	uint32_t i;

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (i = st->depth; i-- > 0;) {
		struct sym_result res;
		const char *fn = MODEL_UNKNOWN_NAME;
		size_t fl;

		if (st->ips[i] >= CONTEXT_MARKER_MIN)
			continue;
		memset(&res, 0, sizeof(res));
		if (symbolizer_resolve(s, st->ips[i], &res) == 0)
			fn = res.function ? res.function :
			     res.name ? res.name : fn;
		fl = strlen(fn);
		if (ARRAY_GROW(buf, len + fl + 2, cap)) {
			free(buf);
			return NULL;
		}
		if (len)
			buf[len++] = ';';
		memcpy(buf + len, fn, fl + 1);
		/* ';' joins frames: one in a name (a vmlinux's, say) would
		 * make two, a newline a folded line of its own */
		for (size_t k = len; k < len + fl; k++)
			if (buf[k] == ';' || (unsigned char)buf[k] < 0x20)
				buf[k] = '?';
		len += fl;
	}
	return buf;
}

static int fold_callchains = 1;

void model_set_callchains(int on)
{
	fold_callchains = on;
}

int model_callchains_wanted(void)
{
	return fold_callchains;
}

int model_build_stacks(struct model *m, struct symbolizer *s)
{
	const struct profile *p = m->profile;
	uint64_t rt = p->round_trips;
	size_t i, n = 0, bytes = 0;

	/* an exact profile's call paths give its inclusive counts */
	if (!p->nstacks || (!fold_callchains && !profile_exact(p)))
		return 0;
	m->stacks = calloc(p->nstacks, sizeof(*m->stacks));
	if (!m->stacks)
		return error("out of memory for %zu callchains", p->nstacks);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];
		struct model_stack *ms;

		if (st->event != 0 || !st->depth)
			continue;
		ms = &m->stacks[n];
		ms->frames = fold_stack(s, st);
		if (!ms->frames) {
			m->nstacks = n;
			return error("out of memory folding callchains");
		}
		ms->bucket = stack_bucket(m, s, st);
		if (!ms->bucket) {
			free(ms->frames);
			m->nstacks = n;
			return -1;
		}
		ms->samples = st->count;
		ms->weight = (double)st->weight;
		n++;
		bytes += strlen(ms->frames) + 1;
		if (bytes > FOLDED_BYTES_MAX) {
			m->nstacks = n;
			return error("the callchains fold to more than %zu MB of "
				     "names (stack %zu of %zu): more than this perpkt "
				     "draws; a format without callchains (text, "
				     "markdown, csv, json) reports the profile",
				     FOLDED_BYTES_MAX >> 20, i, p->nstacks);
		}
	}
	/* stacks that differ only in raw addresses fold to one line */
	if (n > 1)
		qsort(m->stacks, n, sizeof(*m->stacks), cmp_stack);
	m->nstacks = 0;
	for (i = 0; i < n; i++) {
		struct model_stack *last = m->nstacks ?
			&m->stacks[m->nstacks - 1] : NULL;

		if (last && !cmp_stack(last, &m->stacks[i])) {
			last->samples += m->stacks[i].samples;
			last->weight += m->stacks[i].weight;
			free(m->stacks[i].frames);
			free(m->stacks[i].bucket);
			continue;
		}
		m->stacks[m->nstacks++] = m->stacks[i];
	}
	for (i = 0; i < m->nstacks; i++)
		m->stacks[i].per_rt = rt ? m->stacks[i].weight / rt : 0;
	return 0;
}

void model_free_stacks(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nstacks; i++) {
		free(m->stacks[i].frames);
		free(m->stacks[i].bucket);
	}
	free(m->stacks);
	m->stacks = NULL;
	m->nstacks = 0;
}

/* Length of frame k (0 = root) of a folded string, and where it starts. */
static const char *frame_at(const char *frames, size_t k, size_t *len)
{
	const char *p = frames;

	while (k--) {
		p = strchr(p, ';');
		if (!p)
			return NULL;
		p++;
	}
	*len = strcspn(p, ";");
	return p;
}

static int frame_is(const char *f, size_t len, const char *func)
{
	return strlen(func) == len && !memcmp(f, func, len);
}

/* The caller of the outermost `func` in a stack: NULL when absent,
 * "" when func is the root. Recursion is charged to its outside caller. */
static const char *caller_in(const char *frames, const char *func,
			     size_t *len)
{
	const char *prev = NULL, *f;
	size_t k, plen = 0, flen;

	for (k = 0; (f = frame_at(frames, k, &flen)); k++) {
		if (frame_is(f, flen, func)) {
			*len = plen;
			return prev ? prev : "";
		}
		prev = f;
		plen = flen;
	}
	return NULL;
}

int model_callers(struct model *m, const char *func)
{
	struct model_view *v = &m->callers;
	double cum = 0;
	size_t i, j;

	if (!m->profile->nstacks && profile_exact(m->profile))
		return error("the profile has no call paths: record it without "
			     "--no-exact-paths to use --callers");
	if (!m->profile->nstacks)
		return error("the profile has no callchains: record with -g "
			     "to use --callers");
	/* a second call replaces the first */
	rows_free(v->rows, v->n);
	memset(v, 0, sizeof(*v));
	free(m->callers_of);
	m->callers_of = NULL;
	row_clear(&m->callee);
	v->rows = calloc(m->nstacks ? m->nstacks : 1, sizeof(*v->rows));
	if (!v->rows || dup_opt(&m->callers_of, func) ||
	    dup_opt(&m->callee.name, func))
		return error("out of memory");
	for (i = 0; i < m->nstacks; i++) {
		const struct model_stack *st = &m->stacks[i];
		struct model_row *r = NULL;
		const char *c;
		size_t len = 0;
		char *name;

		c = caller_in(st->frames, func, &len);
		if (!c)
			continue;
		name = *c ? strndup(c, len) : strdup("(none: stack root)");
		if (!name)
			return error("out of memory");
		for (j = 0; j < v->n; j++) {
			if (!strcmp(v->rows[j].name, name)) {
				r = &v->rows[j];
				free(name);
				break;
			}
		}
		if (!r) {
			r = &v->rows[v->n++];
			row_init(r);
			r->name = name;
		}
		r->samples[0] += st->samples;
		r->weight[0] += st->weight;
		m->callee.samples[0] += st->samples;
		m->callee.weight[0] += st->weight;
	}
	if (!m->callee.samples[0])
		return error("function '%s' is in no callchain of the profile",
			     func);
	finish_rows(v->rows, v->n, m);
	finish_row(&m->callee, m);
	/* shares of the callee's inclusive time, not of the total */
	for (i = 0; i < v->n; i++) {
		v->rows[i].share = v->rows[i].weight[0] / m->callee.weight[0];
		cum += v->rows[i].share;
		v->rows[i].cum = cum;
	}
	return 0;
}

struct sort_key {
	int kind;    /* 0 samples, 1 value of event `ev`, 2 name */
	size_t ev;
};

static int cmp_sorted(const void *pa, const void *pb, void *arg)
{
	const struct model_row *a = pa, *b = pb;
	const struct sort_key *k = arg;

	if (k->kind == 0 && a->samples[0] != b->samples[0])
		return a->samples[0] > b->samples[0] ? -1 : 1;
	if (k->kind == 1 && a->weight[k->ev] != b->weight[k->ev])
		return a->weight[k->ev] > b->weight[k->ev] ? -1 : 1;
	return row_cmp_names(a, b);
}

static void sort_view(struct model_row *rows, size_t n, struct sort_key *k)
{
	double cum = 0;
	size_t i;

	if (n > 1)
		qsort_r(rows, n, sizeof(*rows), cmp_sorted, k);
	for (i = 0; i < n; i++) {
		cum += rows[i].share;
		rows[i].cum = cum;
	}
}

int model_sort(struct model *m, const char *key)
{
	struct sort_key k = { .kind = 1, .ev = 0 };
	size_t e;
	int v;

	if (!strcmp(key, "samples")) {
		k.kind = 0;
	} else if (!strcmp(key, "name")) {
		k.kind = 2;
	} else if (strcmp(key, "per-rt")) {
		for (e = 0; e < m->nevents; e++)
			if (m->profile->events[e].name &&
			    !strcmp(m->profile->events[e].name, key))
				break;
		if (e == m->nevents)
			return -1;
		k.ev = e;
	}
	for (v = 0; v < MODEL_BY_MAX; v++)
		sort_view(m->views[v].rows, m->views[v].n, &k);
	sort_view(m->callers.rows, m->callers.n, &k);
	return 0;
}
