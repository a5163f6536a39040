// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source paths as the kernel tree names them. DWARF paths carry the
 * build machine's layout: an absolute source root
 * (/build/reproducible-path/linux-6.1.192/arch/...), or the object
 * directory as compilation directory (debian/build/build_amd64_none_
 * cloud-amd64/include/net/ip.h). Rules and reports want net/ipv4/udp.c.
 *
 * The root is learnt, not guessed from one path: every CU name votes for
 * each of its prefixes that ends before a top-level kernel directory,
 * and a path loses the prefix with most votes ("/home/kernel/linux/
 * kernel/fork.c" must not lose "/home/").
 */
#include "symbolize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/u64map.h"
#include "symbolize-internal.h"

static const char *const top_dirs[] = {
	"arch", "block", "certs", "crypto", "drivers", "fs", "include",
	"init", "io_uring", "ipc", "kernel", "lib", "mm", "net", "rust",
	"samples", "scripts", "security", "sound", "tools", "usr", "virt",
};

struct root {
	char *prefix;   /* ends with '/', or "" */
	size_t len;
	size_t votes;
};

struct srcpath {
	struct root *roots;
	size_t nroots, caproots;
	struct u64map tab;      /* a raw name's pointer -> its normal form */
};

struct srcpath *srcpath_new(void)
{
	return calloc(1, sizeof(struct srcpath));
}

static int is_top_dir(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(top_dirs) / sizeof(top_dirs[0]); i++)
		if (strlen(top_dirs[i]) == len && !memcmp(top_dirs[i], s, len))
			return 1;
	return 0;
}

/* Fold "//", "./" and "dir/.." in place; a leading ".." stays. Left
 * as it is when out of memory: only less tidy. */
static void path_clean(char *p)
{
	size_t n = strlen(p);
	char *buf = malloc(n + 3), *out, *base;
	const char *in = p;

	if (!buf)
		return;
	out = buf;
	if (*in == '/')
		*out++ = *in++;
	base = out;
	while (*in) {
		size_t len = strcspn(in, "/");

		if (len == 2 && in[0] == '.' && in[1] == '.') {
			/* Pop the last component written, unless it is "..". */
			char *last = out;

			if (out > base)
				for (last = out - 1; last > base && last[-1] != '/';)
					last--;
			if (out > base && !(out - last == 3 && last[0] == '.'))
				out = last;
			else if (base == buf) {
				memcpy(out, "../", 3);
				out += 3;
			}
		} else if (len && !(len == 1 && in[0] == '.')) {
			memcpy(out, in, len);
			out += len;
			*out++ = '/';
		}
		in += len;
		while (*in == '/')
			in++;
	}
	if (out > base && out[-1] == '/')
		out--;
	*out = '\0';
	memcpy(p, buf, out - buf + 1);
	free(buf);
}

/* Clean, then strip comp_dir when the path lies under it. */
static char *strip_comp_dir(const char *raw, const char *comp_dir)
{
	char *p = strdup(raw), *c;
	size_t len;

	if (!p || !comp_dir || !*comp_dir)
		goto clean;
	c = strdup(comp_dir);
	if (!c)
		goto clean;
	path_clean(c);
	path_clean(p);
	len = strlen(c);
	if (len && !strncmp(p, c, len) && p[len] == '/')
		memmove(p, p + len + 1, strlen(p + len + 1) + 1);
	free(c);
	return p;
clean:
	if (p)
		path_clean(p);
	return p;
}

static struct root *find_root(const struct srcpath *sp, const char *p,
			      size_t len)
{
	size_t i;

	for (i = 0; i < sp->nroots; i++)
		if (sp->roots[i].len == len && !memcmp(sp->roots[i].prefix, p, len))
			return &sp->roots[i];
	return NULL;
}

void srcpath_vote(struct srcpath *sp, const char *name, const char *comp_dir)
{
	char *p = strip_comp_dir(name, comp_dir);
	const char *c;

	if (!p)
		return;
	for (c = p; *c; ) {
		size_t len = strcspn(c, "/");

		if (c[len] == '/' && is_top_dir(c, len)) {
			struct root *r = find_root(sp, p, c - p);

			if (!r && ARRAY_GROW(sp->roots, sp->nroots + 1,
					     sp->caproots))
				break;
			if (!r) {
				r = &sp->roots[sp->nroots];
				r->prefix = strndup(p, c - p);
				if (!r->prefix)
					break;
				r->len = c - p;
				r->votes = 0;
				sp->nroots++;
			}
			r->votes++;
		}
		c += len;
		if (*c == '/')
			c++;
	}
	free(p);
}

int srcpath_vote_all(struct srcpath *sp, const struct srcpath *from)
{
	size_t i;

	for (i = 0; i < from->nroots; i++) {
		struct root *v;

		if (ARRAY_GROW(sp->roots, sp->nroots + 1, sp->caproots))
			return -1;
		v = sp->roots;
		v[sp->nroots].prefix = strdup(from->roots[i].prefix);
		if (!v[sp->nroots].prefix)
			return -1;
		v[sp->nroots].len = from->roots[i].len;
		v[sp->nroots].votes = from->roots[i].votes;
		sp->nroots++;
	}
	return 0;
}

char *srcpath_normalise(const struct srcpath *sp, const char *raw,
			const char *comp_dir)
{
	char *p = strip_comp_dir(raw, comp_dir);
	const struct root *best = NULL;
	const char *c;

	if (!p)
		return NULL;
	for (c = p; *c; ) {
		size_t len = strcspn(c, "/");

		if (c[len] == '/' && is_top_dir(c, len)) {
			const struct root *r = find_root(sp, p, c - p);

			if (r && (!best || r->votes > best->votes ||
				  (r->votes == best->votes && r->len > best->len)))
				best = r;
		}
		c += len;
		if (*c == '/')
			c++;
	}
	if (best && best->len)
		memmove(p, p + best->len, strlen(p + best->len) + 1);
	return p;
}

const char *srcpath_get(struct srcpath *sp, const char *raw,
			const char *comp_dir)
{
	int added;
	void **norm;

	if (!raw || !(norm = u64map_at(&sp->tab, (uintptr_t)raw, &added)))
		return NULL;
	/* NULL after running out of memory: tried again the next time */
	if (!*norm)
		*norm = srcpath_normalise(sp, raw, comp_dir);
	return *norm;
}

void srcpath_free(struct srcpath *sp)
{
	struct u64map_slot *e;
	size_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->nroots; i++)
		free(sp->roots[i].prefix);
	u64map_for_each(&sp->tab, e)
		free(e->val);
	u64map_free(&sp->tab);
	free(sp->roots);
	free(sp);
}
