// SPDX-License-Identifier: GPL-2.0-only
#include "lab/kallsyms-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "lab/arch.h"
#include "lab/content-hash.h"
#include "system/dirs.h"

#define KEY_BYTES 16

int lab_kallsyms_key(const char *kernel, char *key, size_t len)
{
	return lab_content_hash(kernel, KEY_BYTES, key, len);
}

static int cache_file(const char *key, const char *ext, char *out, size_t len)
{
	char name[128];

	snprintf(name, sizeof(name), "kallsyms/%s.%s", key, ext);
	return lab_arch_path(name, out, len);
}

int lab_kallsyms_cached(const char *key, char *gz, size_t gzlen,
			char *modules, size_t modlen)
{
	return !cache_file(key, "gz", gz, gzlen) &&
	       !cache_file(key, "modules", modules, modlen) &&
	       !access(gz, R_OK) && !access(modules, R_OK);
}

/* from to `to`, through a temporary file renamed into place */
static int copy_in(const char *from, const char *to)
{
	char tmp[4200], buf[1 << 16];
	FILE *in = fopen(from, "rb"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.%d", to, (int)getpid());
	out = fopen(tmp, "wb");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			ret = -1;
	if (ferror(in))
		ret = -1;
	fclose(in);
	if (fclose(out) || ret || rename(tmp, to)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void lab_kallsyms_store(const char *key, const char *gz, const char *modules)
{
	char to_gz[4200], to_mod[4200];

	if (cache_file(key, "gz", to_gz, sizeof(to_gz)) ||
	    cache_file(key, "modules", to_mod, sizeof(to_mod)))
		return;
	/* the modules last: lab_kallsyms_cached wants both */
	if (dirs_make_parent(to_gz, 0755) || copy_in(gz, to_gz) ||
	    copy_in(modules, to_mod))
		warning("cannot keep the guest's kallsyms in '%s': %s; the next boot sends its own again",
			to_gz, strerror(errno));
}
