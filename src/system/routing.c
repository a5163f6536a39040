// SPDX-License-Identifier: GPL-2.0-only
/* Rules, routes per table and nexthop objects, by rtnetlink dumps. */
#include "system/routing.h"

#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "system/append.h"

#define MAX_TABLES 64

struct family_counts {
	unsigned long rules, nexthops;
	struct table { uint32_t id; unsigned long routes; } table[MAX_TABLES];
	size_t ntables;
	unsigned long more_tables;  /* routes of tables past MAX_TABLES */
};

struct counts {
	struct family_counts f[2];  /* ipv4, ipv6 */
	unsigned long groups;       /* nexthop groups (no family) */
	unsigned long other_nexthops;
};

static struct family_counts *of_family(struct counts *c, int family)
{
	return family == AF_INET ? &c->f[0] : family == AF_INET6 ? &c->f[1] : NULL;
}

static void count_route(struct family_counts *fc, const struct nlmsghdr *h)
{
	const struct rtmsg *rt = NLMSG_DATA(h);
	const struct rtattr *a = RTM_RTA(rt);
	int len = (int)RTM_PAYLOAD(h);
	uint32_t id = rt->rtm_table;
	size_t i;

	/* the kernel's own routes follow the addresses, and IPv6's come only
	 * after duplicate address detection, a second or two into a run:
	 * counted, two runs of one namespace would differ */
	if (rt->rtm_protocol == RTPROT_KERNEL)
		return;

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == RTA_TABLE && RTA_PAYLOAD(a) >= sizeof(uint32_t))
			memcpy(&id, RTA_DATA(a), sizeof(id));
	for (i = 0; i < fc->ntables && fc->table[i].id != id; i++)
		;
	if (i == fc->ntables) {
		if (i == MAX_TABLES) {
			fc->more_tables++;
			return;
		}
		fc->table[fc->ntables].id = id;
		fc->table[fc->ntables++].routes = 0;
	}
	fc->table[i].routes++;
}

static void count_nexthop(struct counts *c, const struct nlmsghdr *h)
{
	const struct nhmsg *nh = NLMSG_DATA(h);
	const struct rtattr *a = (const void *)((const char *)nh + NLMSG_ALIGN(sizeof(*nh)));
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*nh));
	struct family_counts *fc = of_family(c, nh->nh_family);

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == NHA_GROUP) {
			c->groups++;
			return;
		}
	if (fc)
		fc->nexthops++;
	else
		c->other_nexthops++;
}

/* One dump of `type` for `family`; each message counted into c. 0, or
 * a negative errno. */
static int dump(int fd, int type, int family, size_t hdrlen, struct counts *c)
{
	struct {
		struct nlmsghdr h;
		unsigned char body[16];
	} rq;
	static unsigned seq;
	char buf[32768];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	memset(&rq, 0, sizeof(rq));
	rq.h.nlmsg_len = NLMSG_LENGTH(hdrlen);
	rq.h.nlmsg_type = (unsigned short)type;
	rq.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	rq.h.nlmsg_seq = ++seq;
	rq.body[0] = (unsigned char)family;  /* every header starts with it */
	if (sendto(fd, &rq, rq.h.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		const struct nlmsghdr *h = (const void *)buf;
		int left;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		left = (int)n;
		for (; NLMSG_OK(h, (unsigned)left); h = NLMSG_NEXT(h, left)) {
			const unsigned char *fam = NLMSG_DATA(h);
			struct family_counts *fc;

			if (h->nlmsg_seq != rq.h.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : 0;
			}
			/* an unknown family is answered by every family's
			 * dump: count only the one asked for */
			if (h->nlmsg_len < NLMSG_LENGTH(hdrlen) ||
			    (family != AF_UNSPEC && *fam != family))
				continue;
			fc = of_family(c, *fam);
			if (h->nlmsg_type == RTM_NEWRULE && fc)
				fc->rules++;
			else if (h->nlmsg_type == RTM_NEWROUTE && fc)
				count_route(fc, h);
			else if (h->nlmsg_type == RTM_NEWNEXTHOP)
				count_nexthop(c, h);
		}
	}
}

static void table_name(uint32_t id, char *out, size_t len)
{
	if (id == RT_TABLE_LOCAL)
		snprintf(out, len, "local");
	else if (id == RT_TABLE_MAIN)
		snprintf(out, len, "main");
	else if (id == RT_TABLE_DEFAULT)
		snprintf(out, len, "default");
	else
		snprintf(out, len, "%u", id);
}

/* local, main, default first (the lookup's usual order), then by id */
static int table_rank(uint32_t id)
{
	return id == RT_TABLE_LOCAL ? 0 : id == RT_TABLE_MAIN ? 1 :
	       id == RT_TABLE_DEFAULT ? 2 : 3;
}

static void put_tables(struct family_counts *fc, const char *prefix,
		       const char *fam, char *out, size_t len)
{
	char name[16];
	size_t i, j;

	for (i = 1; i < fc->ntables; i++)
		for (j = i; j > 0; j--) {
			struct table t = fc->table[j];
			uint32_t a = fc->table[j - 1].id;
			int ra = table_rank(a), rb = table_rank(t.id);

			if (ra < rb || (ra == rb && a <= t.id))
				break;
			fc->table[j] = fc->table[j - 1];
			fc->table[j - 1] = t;
		}
	for (i = 0; i < fc->ntables; i++) {
		table_name(fc->table[i].id, name, sizeof(name));
		append(out, len, ", %s%s routes %s=%lu", prefix, fam, name,
		       fc->table[i].routes);
	}
	if (fc->more_tables)
		append(out, len, ", %s%s routes in more tables=%lu", prefix, fam,
		       fc->more_tables);
}

void routing_describe(const char *prefix, char *out, size_t len)
{
	static const struct { int family; const char *name; } fams[] = {
		{ AF_INET, "ipv4" }, { AF_INET6, "ipv6" },
	};
	struct counts c;
	int fd, err, nh_err;
	size_t k;

	memset(&c, 0, sizeof(c));
	out[0] = '\0';
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		snprintf(out, len, "%sunknown (cannot open a NETLINK_ROUTE socket: %s)",
			 prefix, strerror(errno));
		return;
	}
	/* a dump that never ends must not hold the record up: after a
	 * few seconds it is "unknown (...)" */
	struct timeval limit = { .tv_sec = 5 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
	/* nexthop objects came in Linux 5.3: say so, but count the rest */
	nh_err = dump(fd, RTM_GETNEXTHOP, AF_UNSPEC, sizeof(struct nhmsg), &c);
	for (k = 0; k < 2; k++) {
		struct family_counts *fc = &c.f[k];
		const char *fam = fams[k].name;

		err = dump(fd, RTM_GETRULE, fams[k].family, sizeof(struct fib_rule_hdr), &c);
		if (!err)
			err = dump(fd, RTM_GETROUTE, fams[k].family, sizeof(struct rtmsg), &c);
		if (err == -EAFNOSUPPORT) {
			append(out, len, "%s%s%s none (no such family here)",
			       out[0] ? ", " : "", prefix, fam);
			continue;
		}
		if (err) {
			append(out, len, "%s%s%s unknown (rtnetlink dump: %s)",
			       out[0] ? ", " : "", prefix, fam, strerror(-err));
			continue;
		}
		append(out, len, "%s%s%s rules=%lu", out[0] ? ", " : "", prefix,
		       fam, fc->rules);
		if (nh_err)
			append(out, len, ", %s%s nexthops unknown (%s)", prefix, fam,
			       strerror(-nh_err));
		else
			append(out, len, ", %s%s nexthops=%lu", prefix, fam, fc->nexthops);
		put_tables(fc, prefix, fam, out, len);
	}
	if (!nh_err && c.groups)
		append(out, len, ", %snexthop groups=%lu", prefix, c.groups);
	if (!nh_err && c.other_nexthops)
		append(out, len, ", %sother nexthops=%lu", prefix, c.other_nexthops);
	close(fd);
}
