// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --kernel DIR: what a built kernel tree holds, checked before a
 * guest boots, so that a tree half built or built twice fails in a
 * second with the make target to run, not after a boot with a build-id
 * mismatch.
 */
#include "lab/kernel-tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"

int lab_tree_is(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int readable(const char *path)
{
	return !access(path, R_OK);
}

/* "y" for CONFIG_<name>=y in a .config's text. */
static int config_yes(const char *text, const char *name)
{
	char want[128];
	const char *p = text;
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "CONFIG_%s=y\n", name);
	while ((p = strstr(p, want))) {
		if (p == text || p[-1] == '\n')
			return 1;
		p += n;
	}
	return 0;
}

/* A file mapped whole, read-only; NULL after printing why. */
static const char *map_file(const char *path, size_t *len)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		error("cannot read '%s': %s", path, fd < 0 ? strerror(errno) : "empty");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		error("cannot map '%s': %s", path, strerror(errno));
		return NULL;
	}
	*len = (size_t)st.st_size;
	return m;
}

/* The build's "#N SMP ... date" (UTS_VERSION) after ") " in a version
 * string of `len` bytes, into out; "" when there is none. */
static void uts_version(const char *s, size_t len, char *out, size_t outlen)
{
	const char *p, *last = NULL;

	for (p = s; (p = memmem(p, len - (size_t)(p - s), ") #", 3)); p++)
		last = p;
	out[0] = '\0';
	if (last)
		snprintf(out, outlen, "%.*s", (int)strcspn(last + 2, "\n"), last + 2);
}

/*
 * Whether the vmlinux is the one the image was made from: the kernel
 * banner in the vmlinux ("Linux version R (...) #N SMP ... date") and
 * the image's (an x86 bzImage's kernel_version string in its setup
 * header, an arm64 Image's own copy of the banner) name the same
 * release and build. 1 same, 0 not (why in why), -1 unreadable.
 */
static int same_build(const struct lab_tree *t, char *why, size_t len)
{
	char head[192], mine[256], theirs[256];
	const char *v, *im, *b, *p;
	size_t vlen, ilen;
	int ret = 0;

	v = map_file(t->vmlinux, &vlen);
	if (!v)
		return -1;
	im = map_file(t->image, &ilen);
	if (!im) {
		munmap((void *)v, vlen);
		return -1;
	}
	snprintf(head, sizeof(head), "Linux version %s (", t->release);
	/* since 6.1 a placeholder banner ("# SMP") precedes the one the
	 * final link writes (init/version-timestamp.c): the one with "#N" */
	for (p = v, b = NULL; (p = memmem(p, vlen - (size_t)(p - v), head, strlen(head))); p++) {
		b = p;
		uts_version(b, strnlen(b, vlen - (size_t)(b - v)), mine, sizeof(mine));
		if (mine[0] == '#' && mine[1] >= '0' && mine[1] <= '9')
			break;
	}
	if (!b) {
		snprintf(why, len, "'%s' has no banner of release %s", t->vmlinux,
			 t->release);
		goto out;
	}
	if (ilen > 0x210 && !memcmp(im + 0x202, "HdrS", 4)) {
		/* boot protocol: kernel_version at 0x20e, from 0x200 */
		size_t off = 0x200 + ((unsigned char)im[0x20e] |
				      (unsigned char)im[0x20f] << 8);
		const char *s = off < ilen ? im + off : "";
		size_t slen = off < ilen ? strnlen(s, ilen - off) : 0;

		uts_version(s, slen, theirs, sizeof(theirs));
		ret = !strncmp(s, t->release, strlen(t->release)) &&
		      s[strlen(t->release)] == ' ' && !strcmp(mine, theirs);
		if (!ret)
			snprintf(why, len, "its vmlinux is %s %s but %s says %.*s",
				 t->release, mine, t->image,
				 (int)strcspn(s, "\n"), s);
	} else {
		size_t n = strcspn(b, "\n");

		ret = memmem(im, ilen, b, n) != NULL;
		if (!ret)
			snprintf(why, len, "its vmlinux is %s %s but %s holds another banner",
				 t->release, mine, t->image);
	}
out:
	munmap((void *)v, vlen);
	munmap((void *)im, ilen);
	return ret;
}

/* With CONFIG_LOCALVERSION_AUTO the release names the commit built
 * ("6.1.0-00004-g88bd7dfbc9fe"): another than HEAD is said, since the
 * profile's lab.commit names HEAD. */
static void built_at_head(const struct lab_tree *t, const char *src)
{
	char *argv_head[] = { "git", "-C", (char *)src, "rev-parse", "HEAD", NULL };
	const char *g = NULL, *p;
	char *head;
	size_t n;

	for (p = t->release; (p = strstr(p, "-g")); p += 2)
		g = p + 2;
	n = g ? strspn(g, "0123456789abcdef") : 0;
	if (n < 7)
		return;
	head = procfile_command(argv_head, 1 << 20);
	if (head && strncmp(head, g, n))
		warning("the kernel in '%s' was built at commit %.*s but the tree is at %.12s: its profile names the tree's commit; make the image again to build it",
			t->dir, (int)n, g, head);
	free(head);
}

/* The commit the tree was built from, and whether it has changed. */
static void read_commit(struct lab_tree *t)
{
	char src[PATH_MAX + 32], *describe, *subject, *status;
	char *argv_describe[] = { "git", "-C", src, "describe", "--always",
				  "--dirty", "--abbrev=12", NULL };
	char *argv_subject[] = { "git", "-C", src, "log", "-1", "--format=%s", NULL };
	char *argv_status[] = { "git", "-C", src, "status", "--porcelain",
				"--untracked-files=no", NULL };
	const char *p;

	/* a copy of a build (perpkt-bisect --jobs) names its commit */
	snprintf(src, sizeof(src), "%s/" LAB_TREE_COMMIT_FILE, t->dir);
	if (!access(src, R_OK)) {
		if (procfile_line(src, t->commit, sizeof(t->commit)))
			t->commit[0] = '\0';
		return;
	}
	/* an O= build folder links to its source */
	snprintf(src, sizeof(src), "%s/source", t->dir);
	if (!lab_tree_is(src))
		snprintf(src, sizeof(src), "%s", t->dir);
	t->commit[0] = '\0';
	describe = procfile_command(argv_describe, 1 << 20);
	if (!describe)
		return;
	subject = procfile_command(argv_subject, 1 << 20);
	status = procfile_command(argv_status, 1 << 20);
	t->dirty = 0;
	for (p = status; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		t->dirty++;
	snprintf(t->commit, sizeof(t->commit), "%s \"%s\"", describe,
		 subject ? subject : "?");
	built_at_head(t, src);
	if (t->dirty) {
		size_t used = strlen(t->commit);

		snprintf(t->commit + used, sizeof(t->commit) - used,
			 ", %d file%s changed since", t->dirty, t->dirty > 1 ? "s" : "");
	}
	free(describe);
	free(subject);
	free(status);
}

int lab_tree_open(struct lab_tree *t, const char *dir, const char *option)
{
	char path[PATH_MAX + 32], why[3 * PATH_MAX];
	const char *target;
	char *config;
	int arm64, same;

	memset(t, 0, sizeof(*t));
	if (!realpath(dir, t->dir))
		return error("%s '%s': %s", option, dir, strerror(errno));
	snprintf(t->config, sizeof(t->config), "%s/.config", t->dir);
	if (!readable(t->config)) {
		snprintf(path, sizeof(path), "%s/Kconfig", t->dir);
		if (!readable(path))
			return error("%s '%s' is a folder but not a kernel tree (no .config, no Kconfig): give a boot image or a built tree",
				     option, dir);
		return error("%s '%s': the tree is not configured (no .config): configure and build it (make defconfig && make), or give its O= build folder",
			     option, dir);
	}
	config = procfile_read(t->config);
	if (!config)
		return error("cannot read '%s': %s", t->config, strerror(errno));
	arm64 = config_yes(config, "ARM64");
	if (!arm64 && !config_yes(config, "X86_64")) {
		free(config);
		return error("%s '%s': its .config is neither x86_64 (CONFIG_X86_64) nor arm64 (CONFIG_ARM64): perpkt boots those two",
			     option, dir);
	}
	t->modules = config_yes(config, "MODULES");
	free(config);
	target = arm64 ? "Image" : "bzImage";
	snprintf(t->image, sizeof(t->image), "%s/arch/%s/boot/%s", t->dir,
		 arm64 ? "arm64" : "x86", target);
	snprintf(t->vmlinux, sizeof(t->vmlinux), "%s/vmlinux", t->dir);
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", t->dir);
	if (!readable(t->vmlinux) && !readable(t->image))
		return error("%s '%s' is configured but not built (no vmlinux, no arch/%s/boot/%s): make %s builds both",
			     option, dir, arm64 ? "arm64" : "x86", target, target);
	if (!readable(t->vmlinux))
		return error("%s '%s' has arch/%s/boot/%s but no vmlinux, which file:line and the build-id check need: make vmlinux",
			     option, dir, arm64 ? "arm64" : "x86", target);
	if (!readable(t->image))
		return error("%s '%s' has a vmlinux but no arch/%s/boot/%s to boot: make %s",
			     option, dir, arm64 ? "arm64" : "x86", target, target);
	if (procfile_line(path, t->release, sizeof(t->release)) || !t->release[0])
		return error("%s '%s' has no include/config/kernel.release: make %s",
			     option, dir, target);
	same = same_build(t, why, sizeof(why));
	if (same < 0)
		return -1;
	if (!same)
		return error("%s '%s': %s: they are not from one build (a build that stopped before its image?): make %s",
			     option, dir, why, target);
	read_commit(t);
	return 0;
}
