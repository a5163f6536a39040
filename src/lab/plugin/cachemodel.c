// SPDX-License-Identifier: GPL-2.0-only
/* The exact plugin's cache model: set associative, LRU (cachemodel.h). */
#include "lab/plugin/cachemodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024ULL

/* Per core, from the vendors' optimization manuals and technical
 * reference manuals; docs/guide.md repeats them. */
const struct cachemodel_geometry cachemodel_presets[] = {
	/* Intel Skylake client (6th generation Core) */
	{ "skylake", { 32 * KIB, 32 * KIB, 256 * KIB }, { 8, 8, 4 }, 64 },
	/* Intel Skylake-SP (Xeon Scalable 1st generation) */
	{ "skylake-server", { 32 * KIB, 32 * KIB, 1024 * KIB }, { 8, 8, 16 }, 64 },
	/* Intel Ice Lake-SP (Xeon Scalable 3rd generation) */
	{ "icelake-server", { 32 * KIB, 48 * KIB, 1280 * KIB }, { 8, 12, 20 }, 64 },
	/* AMD Zen 3 (EPYC 7003, Ryzen 5000) */
	{ "zen3", { 32 * KIB, 32 * KIB, 512 * KIB }, { 8, 8, 8 }, 64 },
	/* Arm Neoverse N1 (Ampere Altra, AWS Graviton2), its 1 MiB L2 */
	{ "neoverse-n1", { 64 * KIB, 64 * KIB, 1024 * KIB }, { 4, 4, 8 }, 64 },
	{ "", { 0, 0, 0 }, { 0, 0, 0 }, 0 },
};

static const char *const level_key[CACHE_NLEVELS] = { "l1i", "l1d", "l2" };
static const char *const level_name[CACHE_NLEVELS] = { "L1I", "L1D", "L2" };

const struct cachemodel_geometry *cachemodel_preset(const char *name)
{
	const struct cachemodel_geometry *g;

	for (g = cachemodel_presets; g->name[0]; g++)
		if (!strcmp(g->name, name))
			return g;
	return NULL;
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* "32K", "2M", "49152": bytes, or 0 */
static uint64_t parse_size(const char *s, const char **end)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 10);

	if (e == s || *s == '-')
		return 0;
	if (*e == 'K' || *e == 'k')
		v *= KIB, e++;
	else if (*e == 'M' || *e == 'm')
		v *= KIB * KIB, e++;
	*end = e;
	return v;
}

static int check(const struct cachemodel_geometry *g, char *why, size_t len)
{
	int k;

	if (!pow2(g->line) || g->line < 16 || g->line > 256) {
		snprintf(why, len, "line=%u: the line must be a power of two from 16 to 256 bytes",
			 g->line);
		return -1;
	}
	for (k = 0; k < CACHE_NLEVELS; k++) {
		uint64_t lines = g->size[k] / g->line;

		if (!g->size[k] || !g->ways[k]) {
			snprintf(why, len, "no %s: give %s=SIZE:WAYS or start from a preset",
				 level_key[k], level_key[k]);
			return -1;
		}
		if (g->ways[k] > 64 || g->size[k] % ((uint64_t)g->line * g->ways[k]) ||
		    !pow2(lines / g->ways[k]) || g->size[k] > 1024 * KIB * KIB) {
			snprintf(why, len, "%s: %llu bytes in %u ways of %u-byte lines is not a "
				 "power of two of sets (up to 64 ways, 1 GiB)", level_key[k],
				 (unsigned long long)g->size[k], g->ways[k], g->line);
			return -1;
		}
	}
	return 0;
}

int cachemodel_parse(const char *spec, struct cachemodel_geometry *g,
		     char *why, size_t len)
{
	const struct cachemodel_geometry *from = NULL;
	const char *s = spec;
	int first = 1;

	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "custom");
	g->line = 64;
	while (*s) {
		size_t n = strcspn(s, ",/");
		char item[64];
		const struct cachemodel_geometry *p;
		const char *e;
		int k;

		if (n >= sizeof(item) || !n)
			goto bad;
		memcpy(item, s, n);
		item[n] = 0;
		s += n + (s[n] != 0);
		if (first && (p = cachemodel_preset(item))) {
			*g = *p;
			from = p;
			first = 0;
			continue;
		}
		first = 0;
		if (!strncmp(item, "line=", 5)) {
			uint64_t v = parse_size(item + 5, &e);

			if (!v || *e || v > 4096)
				goto bad;
			g->line = (uint32_t)v;
			continue;
		}
		for (k = 0; k < CACHE_NLEVELS; k++) {
			size_t kl = strlen(level_key[k]);
			char *w;
			unsigned long ways;

			if (strncmp(item, level_key[k], kl) || item[kl] != '=')
				continue;
			g->size[k] = parse_size(item + kl + 1, &e);
			if (!g->size[k] || *e != ':')
				goto bad;
			ways = strtoul(e + 1, &w, 10);
			if (w == e + 1 || *w || !ways || ways > 64)
				goto bad;
			g->ways[k] = (uint32_t)ways;
			break;
		}
		if (k == CACHE_NLEVELS) {
			snprintf(why, len, "'%s': neither a preset (", item);
			for (p = cachemodel_presets; p->name[0]; p++)
				snprintf(why + strlen(why), len - strlen(why), "%s%s",
					 p == cachemodel_presets ? "" : ", ", p->name);
			snprintf(why + strlen(why), len - strlen(why),
				 ") nor l1i=, l1d=, l2=SIZE:WAYS or line=BYTES");
			return -1;
		}
	}
	/* a preset changed is named so: "skylake+" */
	if (from && (memcmp(g->size, from->size, sizeof(g->size)) ||
		     memcmp(g->ways, from->ways, sizeof(g->ways)) || g->line != from->line))
		snprintf(g->name, sizeof(g->name), "%.30s+", from->name);
	if (first) {
		snprintf(why, len, "an empty cache model");
		return -1;
	}
	return check(g, why, len);
bad:
	snprintf(why, len, "'%s': give a preset or l1i=SIZE:WAYS, l1d=SIZE:WAYS, "
		 "l2=SIZE:WAYS, line=BYTES (e.g. l1i=32K:8,l1d=48K:12,l2=2M:16,line=64)",
		 spec);
	return -1;
}

static void size_words(char *buf, size_t len, uint64_t v, int spec)
{
	if (v % (KIB * KIB) == 0)
		snprintf(buf, len, spec ? "%lluM" : "%llu MiB", (unsigned long long)(v / KIB / KIB));
	else if (v % KIB == 0)
		snprintf(buf, len, spec ? "%lluK" : "%llu KiB", (unsigned long long)(v / KIB));
	else
		snprintf(buf, len, spec ? "%llu" : "%llu bytes", (unsigned long long)v);
}

void cachemodel_spec(const struct cachemodel_geometry *g, char *buf, size_t len)
{
	char sz[32];
	int k;

	char from[32];

	/* the preset first, so that the name reads back */
	snprintf(from, sizeof(from), "%s", g->name);
	from[strcspn(from, "+")] = 0;
	snprintf(buf, len, "%s%s", cachemodel_preset(from) ? from : "",
		 cachemodel_preset(from) ? "/" : "");
	for (k = 0; k < CACHE_NLEVELS; k++) {
		size_words(sz, sizeof(sz), g->size[k], 1);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%s:%u", k ? "/" : "",
			 level_key[k], sz, g->ways[k]);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "/line=%u", g->line);
}

void cachemodel_describe(const struct cachemodel_geometry *g, char *buf, size_t len)
{
	char sz[32];
	int k;

	buf[0] = 0;
	for (k = 0; k < CACHE_NLEVELS; k++) {
		size_words(sz, sizeof(sz), g->size[k], 0);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s %s %u-way, ",
			 level_name[k], sz, g->ways[k]);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%u-byte lines", g->line);
}

int cachemodel_init(struct cachemodel *m, const struct cachemodel_geometry *g)
{
	int k;

	memset(m, 0, sizeof(*m));
	for (k = 0; k < CACHE_NLEVELS; k++) {
		struct cachemodel_cache *c = &m->level[k];

		c->ways = g->ways[k];
		c->sets = (uint32_t)(g->size[k] / g->line / g->ways[k]);
		c->line_shift = (uint32_t)__builtin_ctz(g->line);
		c->tag = calloc((size_t)c->sets * c->ways, sizeof(*c->tag));
		if (!c->tag) {
			cachemodel_free(m);
			return -1;
		}
	}
	return 0;
}

void cachemodel_free(struct cachemodel *m)
{
	int k;

	for (k = 0; k < CACHE_NLEVELS; k++)
		free(m->level[k].tag);
	memset(m, 0, sizeof(*m));
}

int cachemodel_cache_access(struct cachemodel_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint64_t *set = &c->tag[(size_t)(line & (c->sets - 1)) * c->ways];
	uint32_t w;

	c->accesses++;
	/* found in way w: move it to the front; not found: the last way
	 * (the least recently used, or an empty one) goes */
	for (w = 0; w < c->ways - 1 && set[w] != line + 1; w++)
		;
	if (set[w] == line + 1) {
		memmove(set + 1, set, w * sizeof(*set));
		set[0] = line + 1;
		return 1;
	}
	memmove(set + 1, set, (c->ways - 1) * sizeof(*set));
	set[0] = line + 1;
	c->misses++;
	return 0;
}

void cachemodel_fetch(struct cachemodel *m, uint64_t addr, unsigned *l1, unsigned *l2)
{
	if (cachemodel_cache_access(&m->level[CACHE_L1I], addr))
		return;
	(*l1)++;
	if (!cachemodel_cache_access(&m->level[CACHE_L2], addr))
		(*l2)++;
}

void cachemodel_data(struct cachemodel *m, uint64_t addr, unsigned size,
		     unsigned *l1, unsigned *l2)
{
	uint32_t shift = m->level[CACHE_L1D].line_shift;
	uint64_t line = addr >> shift, last = (addr + (size ? size : 1) - 1) >> shift;

	for (; line <= last; line++) {
		if (cachemodel_cache_access(&m->level[CACHE_L1D], line << shift))
			continue;
		(*l1)++;
		if (!cachemodel_cache_access(&m->level[CACHE_L2], line << shift))
			(*l2)++;
	}
}
