// SPDX-License-Identifier: GPL-2.0-only
#include "lab/initramfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "error.h"

struct initramfs {
	FILE *f;
	char *path;
	char **names;      /* every path added, to add parents once */
	size_t n, cap;
	unsigned ino;
	int failed;
};

int initramfs_create(struct initramfs **out, const char *path)
{
	struct initramfs *ir = calloc(1, sizeof(*ir));

	*out = NULL;
	if (!ir)
		return error("out of memory");
	ir->path = strdup(path);
	ir->f = fopen(path, "wb");
	if (!ir->f || !ir->path) {
		error("cannot create '%s': %s", path, strerror(errno));
		free(ir->path);
		free(ir);
		return -1;
	}
	ir->ino = 300000;
	*out = ir;
	return 0;
}

int initramfs_has(const struct initramfs *ir, const char *guest)
{
	size_t i;

	for (i = 0; i < ir->n; i++)
		if (!strcmp(ir->names[i], guest))
			return 1;
	return 0;
}

static int remember(struct initramfs *ir, const char *guest)
{
	if (ARRAY_GROW(ir->names, ir->n + 1, ir->cap))
		return error("out of memory");
	ir->names[ir->n] = strdup(guest);
	if (!ir->names[ir->n])
		return error("out of memory");
	ir->n++;
	return 0;
}

static void pad4(FILE *f, size_t len)
{
	static const char zero[4];

	fwrite(zero, 1, (4 - len % 4) % 4, f);
}

/* One newc entry: 110-byte header, name, data, each padded to 4. */
static void entry(struct initramfs *ir, const char *name, unsigned mode,
		  const void *data, size_t len)
{
	size_t nlen = strlen(name) + 1;

	fprintf(ir->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		ir->ino++, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0, len,
		0, 0, 0, 0, nlen, 0);
	fwrite(name, 1, nlen, ir->f);
	pad4(ir->f, 110 + nlen);
	if (len)
		fwrite(data, 1, len, ir->f);
	pad4(ir->f, len);
}

static int add_parents(struct initramfs *ir, const char *guest)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", guest);
	for (slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (!initramfs_has(ir, dir)) {
			if (remember(ir, dir))
				return -1;
			entry(ir, dir, S_IFDIR | 0755, NULL, 0);
		}
		*slash = '/';
	}
	return 0;
}

static int add(struct initramfs *ir, const char *guest, unsigned mode,
	       const void *data, size_t len)
{
	if (initramfs_has(ir, guest))
		return 0;
	if (add_parents(ir, guest) || remember(ir, guest))
		return -1;
	entry(ir, guest, mode, data, len);
	return 0;
}

int initramfs_add_data(struct initramfs *ir, const char *guest,
		       const void *data, size_t len, unsigned mode)
{
	return add(ir, guest, S_IFREG | (mode & 07777), data, len);
}

int initramfs_add_symlink(struct initramfs *ir, const char *guest,
			  const char *target)
{
	return add(ir, guest, S_IFLNK | 0777, target, strlen(target));
}

int initramfs_add_file(struct initramfs *ir, const char *guest,
		       const char *host, unsigned mode)
{
	FILE *f = fopen(host, "rb");
	char *buf = NULL;
	long len;
	int ret;

	if (!f)
		return error("cannot open '%s': %s", host, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return error("cannot read '%s': %s", host, strerror(errno));
	}
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return error("cannot read '%s': %s", host,
			     buf ? "short read" : "out of memory");
	}
	fclose(f);
	ret = initramfs_add_data(ir, guest, buf, len, mode);
	free(buf);
	return ret;
}

static void release(struct initramfs *ir)
{
	size_t i;

	for (i = 0; i < ir->n; i++)
		free(ir->names[i]);
	free(ir->names);
	free(ir->path);
	free(ir);
}

int initramfs_finish(struct initramfs *ir)
{
	int ret;

	entry(ir, "TRAILER!!!", 0, NULL, 0);
	ret = ferror(ir->f) ? -1 : 0;
	if (fclose(ir->f))
		ret = -1;
	if (ret)
		error("cannot write '%s': %s", ir->path, strerror(errno));
	release(ir);
	return ret;
}

void initramfs_abort(struct initramfs *ir)
{
	if (!ir)
		return;
	fclose(ir->f);
	unlink(ir->path);
	release(ir);
}
