// SPDX-License-Identifier: GPL-2.0-only
/* The table of `perpkt table` and `perpkt sweep`, from profile files:
 * read, anonymized, symbolized and modelled here, rendered by reports/. */
#include "commands/table-load.h"

#include <stdlib.h>
#include <string.h>

#include "profile/anonymize.h"
#include "error.h"
#include "profile/profile.h"
#include "commands/symsource.h"

struct table_in {
	struct profile p;
	struct symbolizer *sym;
	struct model m;
	int have_p, have_m;
};

static int load(struct table_in *t, const char *path,
		const struct table_load_options *o, struct anonymizer *anon)
{
	struct symsource src = { .buckets = o->buckets };

	if (profile_read_force(&t->p, path, o->force))
		return -1;
	t->have_p = 1;
	if (profile_take_side(&t->p, o->side, path))
		return -1;
	t->p.include_partial = o->include_partial;
	profile_note_partial(&t->p, path);
	if (anon && anonymize_profile(anon, &t->p))
		return -1;
	if (symsource_open(&t->sym, &src, &t->p, NULL) ||
	    model_build(&t->m, &t->p, t->sym))
		return -1;
	t->have_m = 1;
	return 0;
}

static void unload(struct table_in *t)
{
	if (t->have_m)
		model_free(&t->m);
	symbolizer_close(t->sym);
	if (t->have_p)
		profile_free(&t->p);
}

static char *file_label(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	return strndup(b, len);
}

/* Another row's first profile has the release of row i's. */
static int shared_release(const struct table_in *const *first, size_t n,
			  size_t i)
{
	const char *rel = first[i]->p.kernel_release;
	size_t j;

	for (j = 0; j < n; j++)
		if (j != i && first[j]->p.kernel_release &&
		    !strcmp(first[j]->p.kernel_release, rel))
			return 1;
	return 0;
}

int table_load(struct table *t, const char *const *paths,
	       const size_t *per_row, const char *const *labels,
	       size_t nrows, const struct table_load_options *o)
{
	struct anonymizer *anon = o->anonymize ? anonymizer_new() : NULL;
	size_t n = 0, i, at = 0;
	struct table_in *in;
	const struct table_in **first;
	const struct model **models;
	char **lab;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nrows; i++)
		n += per_row ? per_row[i] : 1;
	in = calloc(n ? n : 1, sizeof(*in));
	models = calloc(n ? n : 1, sizeof(*models));
	first = calloc(nrows ? nrows : 1, sizeof(*first));
	lab = calloc(nrows ? nrows : 1, sizeof(*lab));
	if (!in || !models || !first || !lab) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if ((o->anonymize && !anon) || load(&in[i], paths[i], o, anon))
			goto out;
		models[i] = &in[i].m;
	}
	for (i = 0; i < nrows; i++) {
		first[i] = &in[at];
		at += per_row ? per_row[i] : 1;
	}
	for (i = 0, at = 0; i < nrows; i++) {
		const char *rel = first[i]->p.kernel_release;

		if (labels && labels[i])
			lab[i] = strdup(labels[i]);
		else if (rel && *rel && !shared_release(first, nrows, i))
			lab[i] = strdup(rel);
		else
			lab[i] = file_label(paths[at]);
		at += per_row ? per_row[i] : 1;
		if (!lab[i]) {
			error("out of memory");
			goto out;
		}
	}
	ret = table_build(t, models, per_row, (const char *const *)lab, nrows,
			  o->value);
out:
	for (i = 0; in && i < n; i++)
		unload(&in[i]);
	for (i = 0; lab && i < nrows; i++)
		free(lab[i]);
	free(lab);
	free(first);
	free(models);
	free(in);
	anonymizer_free(anon);
	return ret;
}
