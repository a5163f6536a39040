// SPDX-License-Identifier: GPL-2.0-only
#include "system/placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "system/procfile.h"

static const char *const names[REL_MAX] = {
	[REL_SAME] = "same",
	[REL_SMT] = "smt",
	[REL_SHARED_CACHE] = "shared-cache",
	[REL_CROSS_CACHE] = "cross-cache",
	[REL_CROSS_SOCKET] = "cross-socket",
};

const char *placement_name(enum cpu_relation r)
{
	return r < REL_MAX ? names[r] : "?";
}

int placement_parse(const char *s, enum cpu_relation *out)
{
	int i;

	for (i = 0; i < REL_MAX; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum cpu_relation)i;
			return 0;
		}
	return error("unknown placement '%s': use same, smt, shared-cache, "
		     "cross-cache or cross-socket", s);
}

/* Is cpu in a list like "0-3,8,10-11"? */
static int list_has(const char *list, int cpu)
{
	const char *p = list;
	char *end;
	long a, b;

	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p)
			return 0;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return 1;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return 0;
}

static int topo_int(const char *root, int cpu, const char *file)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/cpu%d/topology/%s", root, cpu, file);
	if (procfile_line(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

static int topo_has(const char *root, int cpu, const char *file, int other)
{
	char path[256], buf[1024];

	snprintf(path, sizeof(path), "%s/cpu%d/topology/%s", root, cpu, file);
	if (procfile_line(path, buf, sizeof(buf)))
		return 0;
	return list_has(buf, other);
}

/* Cache index i of cpu: its label ("L1d", "L2") and whether it is
 * shared with other; -1 when there is no such index. */
static int cache_index(const char *root, int cpu, int i, int other,
		       char *label, size_t len)
{
	char path[256], level[16], type[32], shared[1024];

	snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level", root, cpu, i);
	if (procfile_line(path, level, sizeof(level)))
		return -1;
	snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/type", root, cpu, i);
	if (procfile_line(path, type, sizeof(type)))
		type[0] = '\0';
	snprintf(label, len, "L%.4s%s", level,
		 !strcmp(type, "Data") ? "d" : !strcmp(type, "Instruction") ? "i" : "");
	snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/shared_cpu_list",
		 root, cpu, i);
	if (procfile_line(path, shared, sizeof(shared)))
		return 0;
	return list_has(shared, other);
}

static int share_any_cache(const char *root, int a, int b)
{
	char label[16];
	int i, s;

	for (i = 0; i < 16; i++) {
		s = cache_index(root, a, i, b, label, sizeof(label));
		if (s < 0)
			break;
		if (s)
			return 1;
	}
	return 0;
}

enum cpu_relation placement_relation(const char *root, int a, int b)
{
	int pa, pb;

	if (a == b)
		return REL_SAME;
	if (topo_has(root, a, "thread_siblings_list", b))
		return REL_SMT;
	pa = topo_int(root, a, "physical_package_id");
	pb = topo_int(root, b, "physical_package_id");
	if (pa >= 0 && pb >= 0 && pa != pb)
		return REL_CROSS_SOCKET;
	if (share_any_cache(root, a, b))
		return REL_SHARED_CACHE;
	return REL_CROSS_CACHE;
}

int placement_resolve(const char *root, enum cpu_relation r,
		      const int *online, int nonline, int *client, int *server)
{
	int offered[REL_MAX] = { 0 };
	char have[128] = "";
	int i, j, c, s, k;

	if (nonline <= 0)
		return error("cannot resolve placement: no online CPUs");
	if (r == REL_SAME) {
		c = *client >= 0 ? *client : *server >= 0 ? *server : online[nonline - 1];
		if (*server >= 0 && *server != c)
			return error("--placement same contradicts --client-cpu %d "
				     "--server-cpu %d", c, *server);
		*client = *server = c;
		return 0;
	}
	/* the client on the last online CPU first, as without --placement */
	for (i = nonline - 1; i >= 0; i--) {
		c = online[i];
		if (*client >= 0 && c != *client)
			continue;
		for (j = 0; j < nonline; j++) {
			s = online[j];
			if (*server >= 0 && s != *server)
				continue;
			k = placement_relation(root, c, s);
			offered[k] = 1;
			if (k == (int)r) {
				*client = c;
				*server = s;
				return 0;
			}
		}
	}
	offered[REL_SAME] = 1;
	for (k = 0; k < REL_MAX; k++) {
		if (!offered[k])
			continue;
		if (have[0])
			strncat(have, ", ", sizeof(have) - strlen(have) - 1);
		strncat(have, names[k], sizeof(have) - strlen(have) - 1);
	}
	return error("placement '%s' is not possible on this machine's "
		     "topology%s: it offers %s", names[r],
		     *client >= 0 || *server >= 0 ? " with the given CPUs" : "",
		     have);
}

void placement_describe(const char *root, int client, int server,
			char *buf, size_t len)
{
	char shared[128] = "", not_shared[128] = "", label[16];
	int i, s;
	size_t n;

	n = (size_t)snprintf(buf, len, "client %d, server %d: %s", client, server,
			     names[placement_relation(root, client, server)]);
	if (client == server || n >= len)
		return;
	for (i = 0; i < 16; i++) {
		char *dst;

		s = cache_index(root, client, i, server, label, sizeof(label));
		if (s < 0)
			break;
		dst = s ? shared : not_shared;
		if (dst[0])
			strncat(dst, s ? ", " : "/", 127 - strlen(dst));
		strncat(dst, label, 127 - strlen(dst));
		if (s) {
			char idx[16];

			snprintf(idx, sizeof(idx), " (index%d)", i);
			strncat(dst, idx, 127 - strlen(dst));
		}
	}
	/* each case in words: "not -" read as a typo (issue 49) */
	if (!shared[0] && !not_shared[0])
		snprintf(buf + n, len - n, "; which caches they share is unknown (no cache/index* in sysfs)");
	else if (!shared[0])
		snprintf(buf + n, len - n, "; share no cache (each has its own %s)",
			 not_shared);
	else if (!not_shared[0])
		snprintf(buf + n, len - n, "; share every cache: %s", shared);
	else
		snprintf(buf + n, len - n, "; share %s, not %s", shared, not_shared);
}
