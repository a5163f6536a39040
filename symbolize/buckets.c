// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bucket rules: "<bucket> <kind> <pattern>" per line, first match wins.
 * See docs/buckets.md for the format and buckets-default.c for the rules.
 */
#include "symbolize.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "symbolize-internal.h"

void buckets_free(struct bucket_rules *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].bucket);
		free(r->v[i].pattern);
		free(r->v[i].text);
		free(r->v[i].literal);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static int valid_bucket(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
		    *s != '.')
			return 0;
	return 1;
}

/* Pick the cheapest matcher that gives fnmatch's answer. */
static void classify_pattern(struct bucket_rule *r)
{
	const char *p = r->pattern;
	size_t len = strlen(p);
	const char *inner = p;
	size_t ilen = len;

	r->match = MATCH_GLOB;
	if (ilen && inner[0] == '*') {
		inner++;
		ilen--;
	}
	if (ilen && inner[ilen - 1] == '*')
		ilen--;
	if (strcspn(inner, "*?[\\") < ilen)
		return;
	r->literal = strndup(inner, ilen);
	r->plen = ilen;
	if (inner == p && ilen == len)
		r->match = MATCH_EXACT;
	else if (inner == p)
		r->match = MATCH_PREFIX;
	else if (ilen == len - 1)
		r->match = MATCH_SUFFIX;
	else
		r->match = len >= 2 ? MATCH_INFIX : MATCH_GLOB;
}

/* Balanced brackets: fnmatch would otherwise treat "[abc" literally,
 * which is never what a rule writer meant. */
static const char *glob_problem(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '[') {
			const char *q = p + 1;

			if (*q == '!' || *q == '^')
				q++;
			if (*q == ']')
				q++;
			q = strchr(q, ']');
			if (!q)
				return "unclosed '[' in pattern";
			p = q;
		}
	}
	return NULL;
}

static int parse_line(struct bucket_rule *r, char *line, char *why,
		      size_t whylen)
{
	char *field[4];
	int nf = 0;
	char *p = line, *hash;

	/* '#' starts a comment at the line start or after a blank. */
	for (hash = line; (hash = strchr(hash, '#')); hash++) {
		if (hash == line || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	}
	while (nf < 4) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		field[nf++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (!nf)
		return 0;
	if (nf < 3) {
		snprintf(why, whylen,
			 "want '<bucket> <path|func|pass|caller> <pattern>'");
		return -1;
	}
	if (nf > 3) {
		snprintf(why, whylen, "more than three fields (%s)",
			 "patterns cannot contain blanks");
		return -1;
	}
	if (!valid_bucket(field[0])) {
		snprintf(why, whylen,
			 "bad bucket name '%s' (use letters, digits, -_.)",
			 field[0]);
		return -1;
	}
	if (!strcmp(field[1], "path")) {
		r->kind = RULE_PATH;
		if (strpbrk(field[2], "*?[")) {
			snprintf(why, whylen,
				 "path patterns are literal prefixes, not globs");
			return -1;
		}
	} else if (!strcmp(field[1], "func") || !strcmp(field[1], "pass") ||
		   !strcmp(field[1], "caller")) {
		const char *g = glob_problem(field[2]);

		r->kind = !strcmp(field[1], "pass") ? RULE_PASS :
			  !strcmp(field[1], "caller") ? RULE_CALLER : RULE_FUNC;
		if (g) {
			snprintf(why, whylen, "%s", g);
			return -1;
		}
	} else {
		snprintf(why, whylen, "unknown kind '%s' (use 'path', 'func', 'pass' or 'caller')",
			 field[1]);
		return -1;
	}
	r->bucket = strdup(field[0]);
	r->pattern = strdup(field[2]);
	if (asprintf(&r->text, "%s %s %s", field[0], field[1], field[2]) < 0)
		r->text = NULL;
	if (r->kind != RULE_PATH)
		classify_pattern(r);
	else
		r->plen = strlen(field[2]);
	if (!r->bucket || !r->pattern || !r->text ||
	    (r->kind != RULE_PATH && r->match != MATCH_GLOB && !r->literal)) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 1;
}

int buckets_parse(struct bucket_rules *out, const char *text,
		  const char *origin, struct sym_error *err)
{
	struct bucket_rules r = { NULL, 0 };
	size_t cap = 0, lineno = 0;
	const char *p = text;

	out->v = NULL;
	out->n = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char why[160] = "";
		char *line = strndup(p, len);
		int got;

		lineno++;
		p += len + (p[len] == '\n');
		if (!line) {
			buckets_free(&r);
			return sym_fail(err, "out of memory reading rules '%s'", origin);
		}
		if (ARRAY_GROW(r.v, r.n + 1, cap)) {
			free(line);
			buckets_free(&r);
			return sym_fail(err, "out of memory reading rules '%s'",
				     origin);
		}
		memset(&r.v[r.n], 0, sizeof(r.v[r.n]));
		got = parse_line(&r.v[r.n], line, why, sizeof(why));
		free(line);
		if (got < 0) {
			/* Count the half-built rule so its strings are freed. */
			r.n++;
			buckets_free(&r);
			return sym_fail(err, "bad bucket rule at '%s:%zu': %s", origin,
				     lineno, why);
		}
		r.n += got;
	}
	*out = r;
	return 0;
}

static int func_matches(const struct bucket_rule *r, const char *func)
{
	size_t len;

	switch (r->match) {
	case MATCH_EXACT:
		return !strcmp(func, r->literal);
	case MATCH_PREFIX:
		return !strncmp(func, r->literal, r->plen);
	case MATCH_SUFFIX:
		len = strlen(func);
		return len >= r->plen &&
		       !memcmp(func + len - r->plen, r->literal, r->plen);
	case MATCH_INFIX:
		return strstr(func, r->literal) != NULL;
	case MATCH_GLOB:
		break;
	}
	return !fnmatch(r->pattern, func, 0);
}

size_t buckets_match(const struct bucket_rules *r, const char *file,
		     const char *func)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct bucket_rule *x = &r->v[i];

		if (x->kind == RULE_PATH) {
			if (file && !strncmp(file, x->pattern, x->plen))
				return i;
		} else if (func && func_matches(x, func)) {
			return i;
		}
	}
	return r->n;
}
