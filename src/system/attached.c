// SPDX-License-Identifier: GPL-2.0-only
/*
 * tc, packet taps, BPF programs and other profilers: what the issue 34
 * runs found changing a round trip without any condition naming it (500
 * u32 filters on lo, a tcpdump, a perf record beside perpkt).
 */
#include "system/attached.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <sys/syscall.h>

#include "system/append.h"
#include "system/procfile.h"

/* A filter itself, not a header or a u32 hash table: it has a handle,
 * or a u32 key node "fh 800::800". */
static int filter_node(const char *line, size_t n)
{
	const char *fh = memmem(line, n, " fh ", 4);

	if (memmem(line, n, " handle ", 8))
		return 1;
	if (!fh)
		return 0;
	fh += 4;
	while (fh < line + n && isxdigit((unsigned char)*fh))
		fh++;
	return fh + 1 < line + n && fh[0] == ':' && fh[1] == ':';
}

static int seen_before(char **seen, const char *line, size_t n)
{
	size_t have = *seen ? strlen(*seen) : 0;
	const char *s = *seen;
	char *grown;

	while (s && *s) {
		size_t m = strcspn(s, "\n");

		if (m == n && !memcmp(s, line, n))
			return 1;
		s += m + (s[m] == '\n');
	}
	grown = realloc(*seen, have + n + 2);
	if (!grown)
		return 0;
	memcpy(grown + have, line, n);
	grown[have + n] = '\n';
	grown[have + n + 1] = '\0';
	*seen = grown;
	return 0;
}

void attached_tc_count(const char *text, char **seen, size_t *filters,
		       size_t *actions)
{
	const char *line = text;
	int counting = 0;

	while (line && *line) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, "filter ", 7)) {
			counting = filter_node(line, n) && !seen_before(seen, line, n);
			*filters += counting;
		} else if (counting && memmem(line, n, "action order ", 13)) {
			(*actions)++;
		}
		line = line[n] ? line + n + 1 : NULL;
	}
}

/* What one interface's tc filters hold: counts, and (bpf not NULL)
 * their BPF programs appended to bpf. */
struct tc_walk {
	char *seen;
	size_t filters, actions;
	char *bpf;
	size_t bpflen;
};

/* Filters under one attachment point: "parent 1:", "ingress", "egress". */
static void count_at(const char *dev, const char *where, const char *handle,
		     struct tc_walk *w)
{
	char *argv[] = { "tc", "filter", "show", "dev", (char *)dev,
			 (char *)where, (char *)handle, NULL };
	char *text = procfile_command(argv, 1 << 20);

	if (text && w->bpf)
		attached_tc_bpf(text, handle ? NULL : where, w->bpf, w->bpflen);
	else if (text)
		attached_tc_count(text, &w->seen, &w->filters, &w->actions);
	free(text);
}

/* One interface's qdiscs from `tc qdisc show` lines "qdisc KIND HANDLE
 * dev DEV ...", appended to out (when not NULL), and what is under
 * them (w). */
static void walk_tc(const char *qdiscs, const char *dev, char *out, size_t len,
		    struct tc_walk *w)
{
	const char *line = qdiscs;
	size_t k = 0;

	while (line && *line) {
		size_t n = strcspn(line, "\n");
		char kind[32], handle[32], d[IF_NAMESIZE + 1];

		if (sscanf(line, "qdisc %31s %31s dev %16s", kind, handle, d) == 3 &&
		    !strcmp(d, dev)) {
			if (out)
				append(out, len, "%s %s", k ? "," : "", kind);
			k++;
			if (!strcmp(kind, "clsact")) {
				count_at(dev, "ingress", NULL, w);
				count_at(dev, "egress", NULL, w);
			} else if (!strcmp(kind, "ingress")) {
				count_at(dev, "ingress", NULL, w);
			} else if (strcmp(handle, "0:")) {
				count_at(dev, "parent", handle, w);
			}
		}
		line = line[n] ? line + n + 1 : NULL;
	}
	if (!k && out)
		append(out, len, " no qdisc");
}

static void tc_of(const char *qdiscs, const char *dev, char *out, size_t len)
{
	struct tc_walk w = { NULL, 0, 0, NULL, 0 };

	append(out, len, "%s%s:", out[0] ? "; " : "", dev);
	walk_tc(qdiscs, dev, out, len, &w);
	free(w.seen);
	if (w.filters || w.actions)
		append(out, len, ", %zu filter%s, %zu action%s", w.filters,
		    w.filters == 1 ? "" : "s", w.actions, w.actions == 1 ? "" : "s");
}

/* The value of " KEY VALUE" in line[0, n) into v, or 0. */
static int field(const char *line, size_t n, const char *key, char *v, size_t len)
{
	size_t k = strlen(key), m;
	const char *f = memmem(line, n, key, k);

	if (!f || len < 2)
		return 0;
	f += k;
	m = strcspn(f, " \\\n");
	if (f + m > line + n)
		m = (size_t)(line + n - f);
	if (m >= len)
		m = len - 1;
	memcpy(v, f, m);
	v[m] = '\0';
	return m > 0;
}

/* ", KIND NAME tag TAG8" into out: a program by what it is, not by its
 * id, which changes with every load. */
static void program(const char *line, size_t n, const char *kind, char *out,
		    size_t len)
{
	char name[64] = "", tag[17] = "", id[24] = "";

	field(line, n, " id ", id, sizeof(id));
	if (!field(line, n, " name ", name, sizeof(name)))
		snprintf(name, sizeof(name), "id %s", id[0] ? id : "?");
	field(line, n, " tag ", tag, 9);
	append(out, len, "%s%s %s%s%s", out[0] ? ", " : "", kind, name,
	       tag[0] ? " tag " : "", tag);
}

void attached_tc_bpf(const char *text, const char *where, char *out, size_t len)
{
	const char *line = text;
	char kind[40];

	snprintf(kind, sizeof(kind), "tc%s%s bpf", where ? " " : "",
		 where ? where : "");
	while (line && *line) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, "filter ", 7) && memmem(line, n, " bpf ", 5) &&
		    memmem(line, n, " id ", 4))
			program(line, n, kind, out, len);
		line = line[n] ? line + n + 1 : NULL;
	}
}

void attached_xdp(const char *links, const char *dev, char *out, size_t len)
{
	const char *line = links;
	size_t dn = strlen(dev);

	while (line && *line) {
		size_t n = strcspn(line, "\n");
		const char *name = memchr(line, ' ', n), *x;

		/* "5: veth0@if4: <...> ... prog/xdp id 27 name xdp_pass ..." */
		if (name && (size_t)(line + n - name) > dn + 1 &&
		    !strncmp(name + 1, dev, dn) &&
		    (name[dn + 1] == ':' || name[dn + 1] == '@')) {
			for (x = memmem(line, n, " prog/xdp", 9); x;
			     x = memmem(x + 1, (size_t)(line + n - x - 1), " prog/xdp", 9)) {
				char mode[24] = "xdp";

				sscanf(x + 6, "%23[a-z]", mode);
				/* "prog/xdp" for every mode: the first line says */
				if (!strcmp(mode, "xdp") && memmem(line, n, " xdpgeneric ", 12))
					snprintf(mode, sizeof(mode), "xdpgeneric");
				program(x, (size_t)(line + n - x), mode, out, len);
			}
		}
		line = line[n] ? line + n + 1 : NULL;
	}
}

/* tcx (Linux 6.6): BPF programs on an interface's ingress and egress by
 * bpf links, which `tc filter show` does not list; older headers lack
 * the names. */
#define TCX_INGRESS 46
#define TCX_EGRESS 47

static int bpf_call(int cmd, union bpf_attr *a)
{
	return (int)syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* name (or "id N") and the first 8 hex digits of the tag of program id */
static void prog_name(uint32_t id, char *name, size_t nlen, char tag[9])
{
	struct bpf_prog_info info;
	union bpf_attr a;
	int fd, k;

	snprintf(name, nlen, "id %u", id);
	tag[0] = '\0';
	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	fd = bpf_call(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (!bpf_call(BPF_OBJ_GET_INFO_BY_FD, &a)) {
		if (info.name[0])
			snprintf(name, nlen, "%.*s", (int)sizeof(info.name), info.name);
		for (k = 0; k < 4; k++)
			snprintf(tag + 2 * k, 3, "%02x", info.tag[k]);
	}
	close(fd);
}

/* ", tcx ingress NAME tag TAG" for each program tcx holds on ifindex;
 * nothing where the kernel has no tcx or bpf(2) is not allowed. */
static void tcx_of(unsigned int ifindex, char *out, size_t len)
{
	static const struct { uint32_t type; const char *where; } at[] = {
		{ TCX_INGRESS, "ingress" }, { TCX_EGRESS, "egress" },
	};
	uint32_t ids[16], i, n;
	char name[64], tag[9];
	union bpf_attr a;
	size_t k;

	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		memset(&a, 0, sizeof(a));
		a.query.target_fd = ifindex;
		a.query.attach_type = at[k].type;
		a.query.prog_ids = (uint64_t)(uintptr_t)ids;
		a.query.prog_cnt = sizeof(ids) / sizeof(ids[0]);
		if (bpf_call(BPF_PROG_QUERY, &a) < 0)
			continue;
		n = a.query.prog_cnt < 16 ? a.query.prog_cnt : 16;
		for (i = 0; i < n; i++) {
			prog_name(ids[i], name, sizeof(name), tag);
			append(out, len, "%stcx %s %s%s%s", out[0] ? ", " : "",
			       at[k].where, name, tag[0] ? " tag " : "", tag);
		}
	}
}

char *attached_qdiscs(void)
{
	char *argv[] = { "tc", "qdisc", "show", NULL };

	return procfile_command(argv, 1 << 20);
}

void attached_bpf(const char *qdiscs, char *out, size_t len)
{
	char *argv[] = { "ip", "-d", "-o", "link", "show", NULL };
	char *links = procfile_command(argv, 1 << 20);
	struct if_nameindex *ifs, *i;
	char here[512];

	out[0] = '\0';
	if (!links || !qdiscs) {
		snprintf(out, len, "unknown (cannot run '%s': iproute2)",
			 links ? "tc qdisc show" : "ip -d link show");
		free(links);
		return;
	}
	ifs = if_nameindex();
	for (i = ifs; i && i->if_index; i++) {
		struct tc_walk w = { NULL, 0, 0, here, sizeof(here) };

		here[0] = '\0';
		attached_xdp(links, i->if_name, here, sizeof(here));
		walk_tc(qdiscs, i->if_name, NULL, 0, &w);
		tcx_of(i->if_index, here, sizeof(here));
		if (here[0])
			append(out, len, "%s%s: %s", out[0] ? "; " : "",
			       i->if_name, here);
	}
	if (ifs)
		if_freenameindex(ifs);
	free(links);
	if (!out[0])
		snprintf(out, len, "none");
}

void attached_tc(const char *qdiscs, char *out, size_t len)
{
	struct if_nameindex *ifs, *i;

	out[0] = '\0';
	if (!qdiscs) {
		snprintf(out, len, "unknown (cannot run 'tc qdisc show': iproute2)");
		return;
	}
	ifs = if_nameindex();
	for (i = ifs; i && i->if_index; i++)
		tc_of(qdiscs, i->if_name, out, len);
	if (ifs)
		if_freenameindex(ifs);
	if (!out[0])
		snprintf(out, len, "no interfaces");
}

/* comm of the process holding socket inode `ino` ("?" when none
 * found: a socket of another PID namespace, or gone). */
static void socket_owner(unsigned long ino, char *comm, size_t len)
{
	char want[64], path[600], link[64];
	DIR *proc = opendir("/proc"), *fds;
	struct dirent *p, *f;

	snprintf(comm, len, "?");
	snprintf(want, sizeof(want), "socket:[%lu]", ino);
	while (proc && (p = readdir(proc))) {
		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		while (fds && (f = readdir(fds))) {
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%s/fd/%s", p->d_name,
				 f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			if (strcmp(link, want))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/comm", p->d_name);
			procfile_line(path, comm, len);
			closedir(fds);
			closedir(proc);
			return;
		}
		if (fds)
			closedir(fds);
	}
	if (proc)
		closedir(proc);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "N open: a, b" from entries sorted, so two runs compare as text. */
static void join_sorted(char **v, size_t n, char *out, size_t len)
{
	size_t i;

	if (!n) {
		snprintf(out, len, "none");
		return;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		append(out, len, "%s%s", i ? ", " : "", v[i]);
}

void attached_taps(char *out, size_t len)
{
	char *text = procfile_read("/proc/self/net/packet"), *line, *v[64];
	size_t n = 0, i;

	out[0] = '\0';
	if (!text) {
		snprintf(out, len, "unknown (no /proc/net/packet: AF_PACKET not built)");
		return;
	}
	/* sk RefCnt Type Proto Iface R Rmem User Inode */
	for (line = strchr(text, '\n'); line && line[1] && n < 64;
	     line = strchr(line + 1, '\n')) {
		char sk[32], comm[64], ifname[IF_NAMESIZE] = "any";
		unsigned long ino, user;
		unsigned int ref, type, proto, iface, r, rmem;

		if (sscanf(line + 1, "%31s %u %u %x %u %u %u %lu %lu", sk, &ref,
			   &type, &proto, &iface, &r, &rmem, &user, &ino) != 9)
			continue;
		if (iface && !if_indextoname(iface, ifname))
			snprintf(ifname, sizeof(ifname), "ifindex %u", iface);
		socket_owner(ino, comm, sizeof(comm));
		if (asprintf(&v[n], "%s on %s", comm, ifname) >= 0)
			n++;
	}
	free(text);
	if (n)
		snprintf(out, len, "%zu open: ", n);
	join_sorted(v, n, out + strlen(out), len - strlen(out));
	for (i = 0; i < n; i++)
		free(v[i]);
}

/* Whether process `pid` has a perf_event file descriptor. */
static int holds_perf_event(const char *pid)
{
	char path[600], link[64];
	DIR *fds;
	struct dirent *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	fds = opendir(path);
	while (fds && !found && (f = readdir(fds))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, f->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			found = !strcmp(link, "anon_inode:[perf_event]");
		}
	}
	if (fds)
		closedir(fds);
	return found;
}

void attached_perf_users(char *out, size_t len, pid_t self)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	char *v[64], path[300], comm[64];
	size_t n = 0, i;

	out[0] = '\0';
	while (proc && (p = readdir(proc)) && n < 64) {
		if (!isdigit((unsigned char)p->d_name[0]) ||
		    atol(p->d_name) == (long)self || !holds_perf_event(p->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", p->d_name);
		if (procfile_line(path, comm, sizeof(comm)) < 0)
			continue;
		v[n] = strdup(comm);
		n += v[n] != NULL;
	}
	if (proc)
		closedir(proc);
	join_sorted(v, n, out, len);
	for (i = 0; i < n; i++)
		free(v[i]);
}
