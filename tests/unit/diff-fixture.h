/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TEST_DIFF_FIXTURE_H
#define PERPKT_TEST_DIFF_FIXTURE_H

/*
 * Shared by test-diff.c and test-failif.c: a diff of committed fixture
 * profiles (tests/fixtures/profiles/make-diff-fixtures.py).
 */
#include <stdlib.h>
#include <string.h>

#include "reports/diff/diff.h"
#include "profile/profile.h"
#include "symbolize/symbolize.h"
#include "commands/symsource.h"

struct fixture_diff {
	struct profile p[4];
	struct symbolizer *s[4];
	struct model m[4];
	size_t n;
	struct diff d;
};

static inline int fixture_diff_open(struct fixture_diff *f,
				    const char *const *names, size_t n,
				    const struct diff_options *o)
{
	const struct model *mp[4];
	char paths[4][512];
	const char *pp[4];
	struct symsource src;
	size_t i;

	memset(f, 0, sizeof(*f));
	memset(&src, 0, sizeof(src));
	for (i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/profiles/%s.json",
			 FIXTURES_DIR, names[i]);
		pp[i] = paths[i];
		if (profile_read(&f->p[i], paths[i]) ||
		    symsource_open(&f->s[i], &src, &f->p[i], NULL) ||
		    model_build(&f->m[i], &f->p[i], f->s[i]))
			return -1;
		mp[i] = &f->m[i];
		f->n++;
	}
	return diff_build(&f->d, mp, pp, n, o);
}

static inline void fixture_diff_close(struct fixture_diff *f)
{
	size_t i;

	diff_free(&f->d);
	for (i = 0; i < f->n; i++) {
		model_free(&f->m[i]);
		symbolizer_close(f->s[i]);
		profile_free(&f->p[i]);
	}
}

#endif
