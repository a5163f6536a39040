// SPDX-License-Identifier: GPL-2.0-only
#include "reports/diff/failif.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "symbolize/symbolize.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static int parse_target(const char *s, size_t len, struct failif *f)
{
	static const struct {
		const char *word;
		enum failif_target t;
	} plain[] = {
		{ "total", FAILIF_TOTAL },
		{ "busy", FAILIF_BUSY },
		{ "latency", FAILIF_LATENCY },
	};
	size_t i;

	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (len == strlen(plain[i].word) &&
		    !strncmp(s, plain[i].word, len)) {
			f->target = plain[i].t;
			return 0;
		}
	}
	for (i = 0; i < 3; i++)
		if (len == strlen(diff_miss_names[i]) && !strncmp(s, diff_miss_names[i], len)) {
			f->target = FAILIF_MISSES;
			f->pct = (int)i;
			return 0;
		}
	/* "latency.p99" (and p50, p90, p999); "latency.mean" is "latency" */
	if (len > 8 && !strncmp(s, "latency.", 8)) {
		if (len == 12 && !strncmp(s + 8, "mean", 4)) {
			f->target = FAILIF_LATENCY;
			return 0;
		}
		for (i = 0; i < DIFF_NPCT; i++)
			if (len - 8 == strlen(diff_pct_names[i]) &&
			    !strncmp(s + 8, diff_pct_names[i], len - 8)) {
				f->target = FAILIF_PERCENTILE;
				f->pct = (int)i;
				return 0;
			}
		return -1;
	}
	if (len > 7 && !strncmp(s, "bucket:", 7)) {
		f->target = FAILIF_BUCKET;
		f->name = strndup(s + 7, len - 7);
	} else if (len > 9 && !strncmp(s, "function:", 9)) {
		f->target = FAILIF_FUNCTION;
		f->name = strndup(s + 9, len - 9);
	} else {
		return -1;
	}
	return f->name ? 0 : -1;
}

static int parse_value(const char *s, struct failif *f)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	size_t i;

	f->value = strtod(s, &end);
	if (end == s || !isfinite(f->value))
		return -1;
	s = skip_space(end);
	if (!*s)
		return 0;
	if (!strcmp(s, "%")) {
		f->relative = 1;
		f->value /= 100;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(s, units[i].unit)) {
			f->time = 1;
			f->value *= units[i].ns;
			return 0;
		}
	}
	return -1;
}

int failif_parse(const char *s, struct failif *f)
{
	const char *p = skip_space(s), *t = p;

	memset(f, 0, sizeof(*f));
	while (*p && !isspace((unsigned char)*p) && !strchr("<>", *p))
		p++;
	if (parse_target(t, p - t, f))
		goto bad;
	p = skip_space(p);
	if (p[0] == '>' || p[0] == '<') {
		int eq = p[1] == '=';

		f->op = p[0] == '>' ? (eq ? FAILIF_GE : FAILIF_GT) :
				      (eq ? FAILIF_LE : FAILIF_LT);
		p += 1 + eq;
	} else {
		goto bad;
	}
	if (parse_value(skip_space(p), f))
		goto bad;
	if (f->time && f->relative)
		goto bad;
	f->expr = strdup(s);
	if (!f->expr)
		goto bad;
	return 0;
bad:
	failif_free(f);
	return error("unknown --fail-if expression '%s': expected TARGET OP VALUE, TARGET one of total, busy, latency, latency.p50, latency.p90, latency.p99, latency.p999, bucket:NAME, function:NAME, l1i-misses, l1d-misses, l2-misses, OP one of > >= < <=, VALUE like +200, +5%% or +1us",
		     s);
}

void failif_free(struct failif *f)
{
	free(f->expr);
	free(f->name);
	memset(f, 0, sizeof(*f));
}

static const struct diff_row *target_row(const struct failif *f,
					 const struct diff *d)
{
	char buf[512];

	switch (f->target) {
	case FAILIF_TOTAL:
		return &d->total;
	case FAILIF_BUSY:
		return &d->busy;
	case FAILIF_BUCKET:
		return diff_find(&d->buckets, f->name);
	case FAILIF_FUNCTION:
		return diff_find(&d->functions, diff_alias(d,
				 symbol_fold(f->name, buf, sizeof(buf))));
	default:
		return NULL;
	}
}

static int holds(enum failif_op op, double x, double limit)
{
	switch (op) {
	case FAILIF_GT:
		return x > limit;
	case FAILIF_GE:
		return x >= limit;
	case FAILIF_LT:
		return x < limit;
	default:
		return x <= limit;
	}
}

int failif_eval(const struct failif *f, const struct diff *d, size_t i,
		double *delta, int *noise)
{
	const struct diff_cmp *c;
	const struct diff_row *r = NULL;
	int held;

	if (noise)
		*noise = 0;

	if (f->target == FAILIF_LATENCY) {
		if (d->prof[0].latency < 0 || d->prof[i].latency < 0)
			return error("--fail-if '%s': latency was not measured in '%s' or '%s'",
				     f->expr, d->prof[0].path, d->prof[i].path);
		c = &d->latency[i];
	} else if (f->target == FAILIF_MISSES) {
		if (!d->misses_known)
			return error("--fail-if '%s': '%s' or '%s' has no cache misses: "
				     "record both with --exact --cache-model", f->expr,
				     d->prof[0].path, d->prof[i].path);
		if (f->time)
			return error("--fail-if '%s': misses are counts, not times", f->expr);
		c = &d->misses[f->pct][i];
	} else if (f->target == FAILIF_PERCENTILE) {
		if (d->pct[f->pct][i].rel == DIFF_NO_REL)
			return error("--fail-if '%s': latency was not measured in '%s' or '%s'",
				     f->expr, d->prof[0].path, d->prof[i].path);
		c = &d->pct[f->pct][i];
	} else {
		if (f->time && strcmp(d->unit, "ns"))
			return error("--fail-if '%s': a time, but the diff is in %s per round trip; give --convert-cycles-ghz or a bare number",
				     f->expr, d->unit);
		r = target_row(f, d);
		if (!r) {
			const char *what = f->target == FAILIF_BUCKET ?
					   "bucket" : "function";

			if (!f->allow_missing && !f->known)
				return error("--fail-if '%s': no %s '%s' in any profile, "
					     "nor %s; check the name, or give --allow-missing",
					     f->expr, what, f->name,
					     f->target == FAILIF_BUCKET ?
					     "in the bucket rules" :
					     "in the kernels' symbol tables");
			/* in neither profile: nothing moved there */
			if (!f->known)
				warning("--fail-if '%s': no %s '%s' in any profile",
					f->expr, what, f->name);
			*delta = 0;
			return holds(f->op, 0, f->value);
		}
		c = &r->cmp[i];
	}
	if (f->relative) {
		/* from nothing to something is an infinite rise */
		if (c->rel == DIFF_NO_REL)
			*delta = c->delta > 0 ? INFINITY :
				 c->delta < 0 ? -INFINITY : 0;
		else
			*delta = c->rel;
	} else {
		*delta = c->delta;
	}
	held = holds(f->op, *delta, f->value);
	/* the marks' basis: past the limit but inside the noise is no
	 * regression; with nothing tested, the raw delta is all there is */
	if (held && !d->untested && !c->mark) {
		if (noise)
			*noise = c->floored ? 2 : 1;
		return 0;
	}
	return held;
}
