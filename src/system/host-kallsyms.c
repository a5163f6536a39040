// SPDX-License-Identifier: GPL-2.0-only
#include "system/host-kallsyms.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/readfile.h"
#include "system/dirs.h"
#include "system/procfile.h"

#define PROC_KALLSYMS "/proc/kallsyms"
#define CACHE_DIR "host-kallsyms"

static void fnv(uint64_t *h, const char *s)
{
	for (; *s; s++) {
		*h ^= (unsigned char)*s;
		*h *= 0x100000001b3ull;
	}
}

/* The loaded modules: a hash of what fixes their symbols' addresses, and
 * their names as " a b c " for the filter (none without /proc/modules).
 * -1 when unreadable. */
static int modules(uint64_t *hash, char **names)
{
	struct readfile r;
	char *line, *save = NULL, *n;
	size_t used = 1, l;

	*hash = 0xcbf29ce484222325ull;
	if (readfile_path("/proc/modules", 4 << 20, READFILE_TEXT, &r)) {
		/* a kernel without modules has no /proc/modules */
		if (errno != ENOENT)
			return -1;
		*names = strdup(" ");
		return *names ? 0 : -1;
	}
	n = malloc(r.len + 2);
	if (!n) {
		free(r.data);
		return -1;
	}
	strcpy(n, " ");  /* each name followed by a space: r.len + 2 holds them */
	for (line = strtok_r(r.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128], state[32], buf[256];
		unsigned long long size, addr;

		/* name size refcount deps state address: not the refcount
		 * and users, which change without moving a symbol */
		if (sscanf(line, "%127s %llu %*s %*s %31s %llx", name, &size, state, &addr) != 4)
			continue;
		snprintf(buf, sizeof(buf), "%s %llu %s %llx\n", name, size, state, addr);
		fnv(hash, buf);
		l = strlen(name);
		memcpy(n + used, name, l);
		used += l;
		n[used++] = ' ';
		n[used] = '\0';
	}
	free(r.data);
	*names = n;
	return 0;
}

/* KEY's two files in perpkt's cache; -1 when the key cannot be made. */
static int cache_paths(const uint64_t modhash, char *txt, char *range, size_t len)
{
	char boot[64], name[160];
	long kptr = -1;

	if (procfile_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) < 0 || !*boot ||
	    strchr(boot, '/'))
		return -1;
	procfile_long("/proc/sys/kernel/kptr_restrict", &kptr);
	snprintf(name, sizeof(name), CACHE_DIR "/%s-%u-%ld-%016" PRIx64 ".txt", boot,
		 (unsigned)geteuid(), kptr, modhash);
	if (dirs_cache_path(name, txt, len))
		return -1;
	memcpy(name + strlen(name) - 4, ".rng", 5);
	return dirs_cache_path(name, range, len);
}

/* the range file: _stext _etext _sinittext _einittext */
static int read_range(const char *path, uint64_t r[4])
{
	unsigned long long a[4];
	FILE *f = fopen(path, "re");
	int ok, i;

	if (!f)
		return -1;
	ok = fscanf(f, "%llx %llx %llx %llx", &a[0], &a[1], &a[2], &a[3]) == 4 &&
	     a[0] && a[0] < a[1] && a[2] <= a[3];
	fclose(f);
	for (i = 0; i < 4; i++)
		r[i] = a[i];
	return ok ? 0 : -1;
}

/* Every kernel address (the upper half: user-space ones are named by
 * no kallsyms) in the kernel's text or its init text (the boot CPU's
 * idle callchain ends in start_kernel). */
static int all_in(const uint64_t *addr, size_t n, const uint64_t r[4])
{
	size_t i;

	for (i = 0; i < n; i++)
		/* (-4095 and up: a callchain's context markers) */
		if (addr[i] >> 63 && addr[i] < (uint64_t)-4095 &&
		    (addr[i] < r[0] || addr[i] >= r[1]) &&
		    (addr[i] < r[2] || addr[i] >= r[3]))
			return 0;
	return 1;
}

/* text to path through a temporary file renamed into place, mode 0600 */
static int write_file(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	int fd, ok;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == (ssize_t)len;
	ok &= !close(fd);
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* the copies of other boots and module sets: one is kept */
static void drop_others(const char *txt)
{
	char dir[4096], path[4400];
	const char *base;
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s", txt);
	*strrchr(dir, '/') = '\0';
	base = strrchr(txt, '/') + 1;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || !strncmp(d->d_name, base, strlen(base) - 4))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		unlink(path);
	}
	closedir(dp);
}

/* The copy's folder made (0700) and writable: else no copy, and
 * /proc/kallsyms is not read twice on every run. */
static int writable_for(const char *txt)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", txt);
	*strrchr(dir, '/') = '\0';
	return !dirs_make_parent(txt, 0700) && !access(dir, W_OK);
}

/* kptr_restrict shows this reader zeros: no copy worth making (the
 * first line is read, not the 5 MB) */
static int addresses_hidden(void)
{
	char line[64];

	return procfile_line(PROC_KALLSYMS, line, sizeof(line)) < 0 ||
	       strspn(line, "0") >= 8;
}

/* The copy, from the live text: its lines of the kernel and of loaded
 * modules, and the kernel's text range. -1 when none can be made (kptr
 * hides the addresses, no _etext, the cache is not writable). */
static int make_copy(const char *txt, const char *range, const char *mods)
{
	struct readfile r;
	char *out, *p, *nl, *o, rng[80];
	static const char *const edge[4] = { "_stext", "_etext", "_sinittext", "_einittext" };
	uint64_t r4[4] = { 0, 0, 0, 0 };
	int k;

	if (!writable_for(txt) || addresses_hidden() ||
	    readfile_path(PROC_KALLSYMS, (size_t)64 << 20, READFILE_TEXT, &r))
		return -1;
	out = malloc(r.len + 1);
	if (!out) {
		free(r.data);
		return -1;
	}
	for (p = r.data, o = out; p < r.data + r.len; p = nl + 1) {
		char *tab, *sp;

		nl = memchr(p, '\n', r.data + r.len - p);
		if (!nl)
			nl = r.data + r.len;
		tab = memchr(p, '\t', nl - p);
		if (tab) {
			/* "\t[module]": kept when that module is loaded */
			char name[130], *end = memchr(tab, ']', nl - tab);

			if (!end || tab[1] != '[' || end - tab - 2 >= 127)
				continue;
			snprintf(name, sizeof(name), " %.*s ", (int)(end - tab - 2), tab + 2);
			if (!strstr(mods, name))
				continue;
		} else if ((sp = memchr(p, ' ', nl - p)) && nl - sp > 3) {
			/* "ADDR T _stext": the text's edges */
			for (k = 0; k < 4; k++)
				if ((size_t)(nl - sp - 3) == strlen(edge[k]) &&
				    !memcmp(sp + 3, edge[k], strlen(edge[k])))
					r4[k] = strtoull(p, NULL, 16);
		}
		memcpy(o, p, (size_t)(nl - p));
		o += nl - p;
		*o++ = '\n';
	}
	free(r.data);
	snprintf(rng, sizeof(rng), "%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 "\n",
		 r4[0], r4[1], r4[2], r4[3]);
	if (!r4[0] || r4[0] >= r4[1] || r4[2] > r4[3] ||
	    write_file(txt, out, (size_t)(o - out)) || write_file(range, rng, strlen(rng))) {
		free(out);
		return -1;
	}
	free(out);
	drop_others(txt);
	return 0;
}

/* The copy's paths and the kernel's text ranges, the copy made first
 * when there is none; -1 when there is none to use. */
static int copy(char *txt, char *range, size_t len, uint64_t r[4])
{
	const char *off = getenv("PERPKT_KALLSYMS_CACHE");
	char *mods = NULL;
	uint64_t hash;
	int ret = -1;

	if ((off && !strcmp(off, "0")) || modules(&hash, &mods))
		return -1;
	if (!cache_paths(hash, txt, range, len) &&
	    (!read_range(range, r) ||
	     (!make_copy(txt, range, mods) && !read_range(range, r))))
		ret = 0;
	free(mods);
	return ret;
}

int host_kallsyms_open(struct symbolizer **out, const uint64_t *addr, size_t n,
		       int *from_cache, struct sym_error *err)
{
	char txt[4096], range[4096];
	uint64_t r[4];

	*from_cache = 0;
	if (!copy(txt, range, sizeof(txt), r) && all_in(addr, n, r) &&
	    !symbolizer_open_kallsyms(out, txt, NULL)) {
		*from_cache = 1;
		return 0;
	}
	return symbolizer_open_kallsyms(out, PROC_KALLSYMS, err);
}

uint64_t host_kallsyms_text_size(void)
{
	char txt[4096], range[4096];
	uint64_t r[4];

	return copy(txt, range, sizeof(txt), r) ? 0 : r[1] - r[0];
}
