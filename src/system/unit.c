// SPDX-License-Identifier: GPL-2.0-only
#include "system/unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "parse.h"
#include "system/procfile.h"
#include "system/procstat.h"

static int parse_dir(const char *s, const char *spec, enum unit_dir *d)
{
	if (!s || !strcmp(s, "in"))
		*d = UNIT_IN;
	else if (!strcmp(s, "out"))
		*d = UNIT_OUT;
	else if (!strcmp(s, "both"))
		*d = UNIT_BOTH;
	else
		return error("invalid --per '%s': the direction is in, out or both",
			     spec);
	return 0;
}

static const char *dir_name(enum unit_dir d)
{
	return d == UNIT_OUT ? "out" : d == UNIT_BOTH ? "both" : "in";
}

/* An interface name as the kernel allows it: no '/', shorter than 16. */
static int check_iface(const char *s, const char *spec)
{
	if (!*s || strlen(s) >= 16 || strchr(s, '/') || !strcmp(s, ".") ||
	    !strcmp(s, ".."))
		return error("invalid --per '%s': '%s' is not an interface name",
			     spec, s);
	return 0;
}

int unit_parse(const char *spec, struct unit *u)
{
	static const struct { const char *prefix; enum unit_kind kind; } ifs[] = {
		{ "packets:", UNIT_PACKETS },
		{ "rx-packets:", UNIT_RX_PACKETS },
		{ "tx-packets:", UNIT_TX_PACKETS },
	};
	const char *colon = strchr(spec, ':');
	size_t i;

	memset(u, 0, sizeof(*u));
	if (!strcmp(spec, "rt")) {
		u->kind = UNIT_RT;
		snprintf(u->name, sizeof(u->name), "round trip");
		snprintf(u->source, sizeof(u->source), "the built-in workload's client");
		goto done;
	}
	for (i = 0; i < sizeof(ifs) / sizeof(ifs[0]); i++) {
		size_t n = strlen(ifs[i].prefix);

		if (strncmp(spec, ifs[i].prefix, n))
			continue;
		if (check_iface(spec + n, spec))
			return -1;
		u->kind = ifs[i].kind;
		snprintf(u->arg, sizeof(u->arg), "%s", spec + n);
		snprintf(u->name, sizeof(u->name), "packet");
		snprintf(u->source, sizeof(u->source),
			 "/sys/class/net/%s/statistics/%s", u->arg,
			 u->kind == UNIT_RX_PACKETS ? "rx_packets" :
			 u->kind == UNIT_TX_PACKETS ? "tx_packets" :
			 "{rx,tx}_packets");
		goto done;
	}
	if (!strncmp(spec, "udp-datagrams", 13) && (!spec[13] || spec[13] == ':')) {
		u->kind = UNIT_UDP;
		if (parse_dir(colon ? colon + 1 : NULL, spec, &u->dir))
			return -1;
		snprintf(u->name, sizeof(u->name), "udp-datagram");
		snprintf(u->source, sizeof(u->source), "/proc/net/snmp Udp %s (IPv4)",
			 u->dir == UNIT_IN ? "InDatagrams" : u->dir == UNIT_OUT ?
			 "OutDatagrams" : "InDatagrams + OutDatagrams");
		goto done;
	}
	if (!strncmp(spec, "tcp-segments", 12) && (!spec[12] || spec[12] == ':')) {
		u->kind = UNIT_TCP;
		if (parse_dir(colon ? colon + 1 : NULL, spec, &u->dir))
			return -1;
		snprintf(u->name, sizeof(u->name), "tcp-segment");
		snprintf(u->source, sizeof(u->source), "/proc/net/snmp Tcp %s (IPv4)",
			 u->dir == UNIT_IN ? "InSegs" : u->dir == UNIT_OUT ?
			 "OutSegs" : "InSegs + OutSegs");
		goto done;
	}
	if (!strncmp(spec, "irqs:", 5)) {
		if (!spec[5] || strlen(spec + 5) >= sizeof(u->arg) ||
		    strchr(spec + 5, ' '))
			return error("invalid --per '%s': give the IRQ's number, "
				     "name or device as /proc/interrupts shows it",
				     spec);
		u->kind = UNIT_IRQS;
		snprintf(u->arg, sizeof(u->arg), "%s", spec + 5);
		snprintf(u->name, sizeof(u->name), "irq");
		snprintf(u->source, sizeof(u->source),
			 "/proc/interrupts lines '%s', all CPUs", u->arg);
		goto done;
	}
	if (!strncmp(spec, "count:", 6)) {
		if (parse_u64(spec + 6, "--per count", 1, UINT64_MAX / 2, &u->fixed))
			return -1;
		u->kind = UNIT_COUNT;
		snprintf(u->name, sizeof(u->name), "transaction");
		snprintf(u->source, sizeof(u->source), "given on the command line");
		goto done;
	}
	return error("unknown --per '%s': use rt, packets:IFACE, rx-packets:IFACE, "
		     "tx-packets:IFACE, udp-datagrams[:in|out|both], "
		     "tcp-segments[:in|out|both], irqs:NAME or count:N", spec);
done:
	if (u->kind == UNIT_UDP || u->kind == UNIT_TCP)
		snprintf(u->spec, sizeof(u->spec), "%s:%s",
			 u->kind == UNIT_UDP ? "udp-datagrams" : "tcp-segments",
			 dir_name(u->dir));
	else
		snprintf(u->spec, sizeof(u->spec), "%s", spec);
	return 0;
}

int unit_is_counter(const struct unit *u)
{
	return u->kind != UNIT_RT && u->kind != UNIT_COUNT;
}

int unit_snmp_value(const char *text, const char *table, const char *key,
		    uint64_t *value)
{
	size_t tl = strlen(table);
	const char *names = text;

	/* "Udp: InDatagrams NoPorts ...\nUdp: 12 0 ...": names, then values */
	while (names && *names) {
		const char *values = strchr(names, '\n');
		const char *n, *v;

		if (!values)
			return -1;
		values++;
		if (strncmp(names, table, tl) || names[tl] != ':' ||
		    strncmp(values, table, tl) || values[tl] != ':') {
			names = values;
			continue;
		}
		n = names + tl + 1;
		v = values + tl + 1;
		while (*n && *n != '\n') {
			size_t len;
			char *end;
			unsigned long long x;

			n += strspn(n, " ");
			len = strcspn(n, " \n");
			x = strtoull(v, &end, 10);
			if (end == v)
				return -1;
			if (len == strlen(key) && !strncmp(n, key, len)) {
				*value = x;
				return 0;
			}
			n += len;
			v = end;
		}
		return -1;
	}
	return -1;
}

/* NAME names a line by its number or symbol ("24", "RES"), or by a
 * device in its description, alone or before "-" ("eth1-TxRx-0"). */
static int irq_matches(const struct irq_row *r, const char *name)
{
	size_t n = strlen(name);
	const char *d = r->desc;

	if (!strcmp(r->name, name))
		return 1;
	while (*d) {
		size_t len;

		d += strspn(d, " \t");
		len = strcspn(d, " \t");
		if (len >= n && !strncmp(d, name, n) && (len == n || d[n] == '-'))
			return 1;
		d += len;
	}
	return 0;
}

int unit_irq_sum(const char *text, const char *name, uint64_t *value)
{
	int cols[MAX_CPUS];
	struct procstat s;
	size_t r;
	int i, found = 0;

	/* every column of the table, whichever CPUs are online */
	memset(&s, 0, sizeof(s));
	for (i = 0; i < MAX_CPUS; i++)
		cols[i] = i;
	s.col_cpu = cols;
	s.ncpus = MAX_CPUS;
	*value = 0;
	if (procstat_parse_irqs(text, "irq", &s)) {
		s.col_cpu = NULL;
		procstat_free(&s);
		return -1;
	}
	for (r = 0; r < s.nrows; r++) {
		if (!irq_matches(&s.rows[r], name))
			continue;
		found = 1;
		for (i = 0; i < s.ncpus; i++)
			*value += s.rows[r].counts[i];
	}
	s.col_cpu = NULL;  /* not ours to free */
	procstat_free(&s);
	return found ? 0 : -1;
}

static int read_u64_file(const char *path, uint64_t *v)
{
	char buf[64];
	char *end;

	if (procfile_line(path, buf, sizeof(buf)))
		return error("cannot read '%s': %s (is the interface in this "
			     "network namespace? run perpkt inside it with "
			     "'ip netns exec')", path, strerror(errno ? errno : ENOENT));
	*v = strtoull(buf, &end, 10);
	if (end == buf)
		return error("cannot read '%s': not a number", path);
	return 0;
}

static int read_iface(const struct unit *u, uint64_t *value)
{
	char path[128];
	uint64_t rx = 0, tx = 0;

	if (u->kind != UNIT_TX_PACKETS) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets",
			 u->arg);
		if (read_u64_file(path, &rx))
			return -1;
	}
	if (u->kind != UNIT_RX_PACKETS) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets",
			 u->arg);
		if (read_u64_file(path, &tx))
			return -1;
	}
	*value = rx + tx;
	return 0;
}

static int read_snmp(const struct unit *u, uint64_t *value)
{
	const char *table = u->kind == UNIT_UDP ? "Udp" : "Tcp";
	const char *in = u->kind == UNIT_UDP ? "InDatagrams" : "InSegs";
	const char *out = u->kind == UNIT_UDP ? "OutDatagrams" : "OutSegs";
	char *text = procfile_read("/proc/net/snmp");
	uint64_t a = 0, b = 0;
	int bad = 0;

	if (!text)
		return error("cannot read '/proc/net/snmp': %s", strerror(errno));
	if (u->dir & UNIT_IN)
		bad |= unit_snmp_value(text, table, in, &a);
	if (u->dir & UNIT_OUT)
		bad |= unit_snmp_value(text, table, out, &b);
	free(text);
	if (bad)
		return error("no %s counters in '/proc/net/snmp'", table);
	*value = a + b;
	return 0;
}

static int read_irqs(const struct unit *u, uint64_t *value)
{
	char *text = procfile_read("/proc/interrupts");
	int ret;

	if (!text)
		return error("cannot read '/proc/interrupts': %s", strerror(errno));
	ret = unit_irq_sum(text, u->arg, value);
	free(text);
	if (ret)
		return error("no line '%s' in /proc/interrupts: give an IRQ number, "
			     "a name such as LOC or RES, or a device as its "
			     "description column shows it", u->arg);
	return 0;
}

int unit_read(const struct unit *u, uint64_t *value)
{
	switch (u->kind) {
	case UNIT_PACKETS:
	case UNIT_RX_PACKETS:
	case UNIT_TX_PACKETS:
		return read_iface(u, value);
	case UNIT_UDP:
	case UNIT_TCP:
		return read_snmp(u, value);
	case UNIT_IRQS:
		return read_irqs(u, value);
	case UNIT_COUNT:
		*value = u->fixed;
		return 0;
	case UNIT_RT:
		break;
	}
	return error("round trips are counted by the built-in workload, not read");
}

void unit_zero_hint(const struct unit *u, char *buf, size_t len)
{
	char ns[64] = "";
	ssize_t n = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);

	ns[n > 0 ? n : 0] = '\0';
	switch (u->kind) {
	case UNIT_PACKETS:
	case UNIT_RX_PACKETS:
	case UNIT_TX_PACKETS:
		snprintf(buf, len, "on interface %s of perpkt's network namespace %s: "
			 "traffic on another interface, or in another namespace "
			 "(ip netns exec), is not this one's", u->arg,
			 *ns ? ns : "(unknown)");
		break;
	case UNIT_UDP:
	case UNIT_TCP:
		snprintf(buf, len, "in the IPv4 %s counters of perpkt's network namespace "
			 "%s: IPv6 traffic, or a command in another namespace "
			 "(ip netns exec: run perpkt inside it), is not counted",
			 u->kind == UNIT_UDP ? "UDP" : "TCP", *ns ? ns : "(unknown)");
		break;
	case UNIT_IRQS:
		snprintf(buf, len, "on the /proc/interrupts lines named '%s' or so "
			 "described, none of which fired: is it the device's IRQ?",
			 u->arg);
		break;
	default:
		snprintf(buf, len, "%s", u->source);
	}
}
