// SPDX-License-Identifier: GPL-2.0-only
/* Network namespaces by nsfs device and inode. */
#include "system/netns-id.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define NETNS_NAMES "/run/netns"
/* The initial PID namespace's inode (PROC_PID_INIT_INO, fixed since
 * Linux 3.8): only there does /proc show every process. */
#define PID_INIT_INO 0xEFFFFFFCULL

static int id_of(const char *path, struct netns_id *id)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	id->dev = (unsigned long long)st.st_dev;
	id->ino = (unsigned long long)st.st_ino;
	return 0;
}

int netns_id_self(struct netns_id *id)
{
	return id_of("/proc/self/ns/net", id);
}

int netns_id_same(const struct netns_id *a, const struct netns_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

void netns_id_name(const struct netns_id *id, char *buf, size_t len)
{
	DIR *d = opendir(NETNS_NAMES);
	struct dirent *e;

	buf[0] = '\0';
	while (d && (e = readdir(d))) {
		char path[sizeof(NETNS_NAMES) + 256];
		struct netns_id there;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), NETNS_NAMES "/%s", e->d_name);
		if (!id_of(path, &there) && netns_id_same(id, &there)) {
			snprintf(buf, len, "%s", e->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
}

void netns_id_describe(const struct netns_id *id, const char *name, char *buf,
		       size_t len)
{
	char found[256];

	if (!name || !name[0]) {
		netns_id_name(id, found, sizeof(found));
		name = found;
	}
	if (name[0])
		snprintf(buf, len, "%s (net:[%llu])", name, id->ino);
	else
		snprintf(buf, len, "net:[%llu]", id->ino);
}

int netns_id_gone(const struct netns_id *id)
{
	struct netns_id pidns, there;
	char name[256], path[64];
	struct dirent *e;
	DIR *d;
	int held = 0;

	if (id_of("/proc/self/ns/pid", &pidns) || pidns.ino != PID_INIT_INO)
		return 0;
	netns_id_name(id, name, sizeof(name));
	if (name[0])
		return 0;
	d = opendir("/proc");
	if (!d)
		return 0;
	while (!held && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/ns/net", e->d_name);
		held = !id_of(path, &there) && netns_id_same(id, &there);
	}
	closedir(d);
	return !held;
}
