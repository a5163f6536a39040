// SPDX-License-Identifier: GPL-2.0-only
#include "workload/control.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "workload/control-auth.h"
#include "workload/transport.h"

int64_t control_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int control_line_take(ssize_t n, char c, char *buf, size_t len, size_t *used,
		      char *err, size_t errlen)
{
	if (len > CONTROL_LINE_MAX + 1)
		len = CONTROL_LINE_MAX + 1;
	if (n < 0) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "connection closed");
		return -1;
	}
	if (c == '\n') {
		/* a final CR is not the line's */
		if (*used && buf[*used - 1] == '\r')
			--*used;
		buf[*used] = '\0';
		*used = 0;
		return 1;
	}
	if (c == '\0') {
		snprintf(err, errlen, "malformed message: NUL byte");
		return -1;
	}
	if (*used + 1 >= len) {
		snprintf(err, errlen, "malformed message: longer than %zu bytes",
			 len - 1);
		return -1;
	}
	buf[(*used)++] = c;
	return 0;
}

int control_read_line(int fd, char *buf, size_t len, int timeout_ms,
		      char *err, size_t errlen)
{
	int64_t deadline = control_now_ms() + timeout_ms;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t used = 0;
	ssize_t n;
	char c = 0;

	for (;;) {
		int left = (int)(deadline - control_now_ms()), r;

		if (left <= 0) {
			snprintf(err, errlen, "no answer within %d ms", timeout_ms);
			return -1;
		}
		r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(fd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		r = control_line_take(n, c, buf, len, &used, err, errlen);
		if (r)
			return r < 0 ? -1 : 0;
	}
}

int control_write_line(int fd, const char *line)
{
	char buf[CONTROL_LINE_MAX + 2];
	int n = snprintf(buf, sizeof(buf), "%s\n", line);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -1;
	return transport_write_full(fd, buf, (size_t)n) < 0 ? -1 : 0;
}

/* The value of " key=" in line (or at its start), NULL if absent. */
static const char *find_key(const char *line, const char *key)
{
	size_t klen = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=')
			return p + klen + 1;
		p += klen;
	}
	return NULL;
}

int control_get(const char *line, const char *key, int64_t *out)
{
	const char *v = find_key(line, key);
	char *end;
	long long n;

	if (!v)
		return -1;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || end == v || (*end && *end != ' ') || n < -1)
		return -1;
	*out = n;
	return 0;
}

int control_get_word(const char *line, const char *key, char *buf, size_t len)
{
	const char *v = find_key(line, key);
	size_t n;

	if (!v)
		return -1;
	n = strcspn(v, " ");
	if (n >= len)
		return -1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return 0;
}

int control_get_list(const char *line, const char *key, int64_t *out,
		     int max, int64_t lo, int64_t hi)
{
	const char *v = find_key(line, key);
	int n = 0;

	if (!v)
		return -1;
	for (;;) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(v, &end, 10);
		if (errno || end == v || n >= max || x < lo || x > hi ||
		    (*end && *end != ' ' && *end != ','))
			return -1;
		out[n++] = x;
		if (*end != ',')
			return n;
		v = end + 1;
	}
}

int control_read_bytes(int fd, char *buf, size_t len, int timeout_ms,
		       char *err, size_t errlen)
{
	int64_t deadline = control_now_ms() + timeout_ms;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len) {
		int left = (int)(deadline - control_now_ms()), r;
		ssize_t n;

		if (left <= 0) {
			snprintf(err, errlen, "%zu of %zu bytes within %d ms", got,
				 len, timeout_ms);
			return -1;
		}
		r = poll(&p, 1, left);
		if (r <= 0)
			continue;
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n)
				snprintf(err, errlen, "cannot read: %s",
					 strerror(errno));
			else
				snprintf(err, errlen, "connection closed after "
					 "%zu of %zu bytes", got, len);
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

/* What the client asks of serve's own recording; all optional. */
static int parse_profile_request(const char *line, struct control_setup *out,
				 char *err, size_t errlen)
{
	int64_t v;

	if (control_get(line, "profile", &v) || v != 1)
		return 0;
	out->profile = 1;
	if (!control_get(line, "period", &v) && v > 0)
		out->period = (uint64_t)v;
	if (!control_get(line, "freq", &v) && v > 0)
		out->freq = (uint64_t)v;
	out->callchain = !control_get(line, "callchain", &v) && v == 1;
	out->include_user = !control_get(line, "user_space", &v) && v == 1;
	out->marks = !control_get(line, "marks", &v) && v == 1;
	if (find_key(line, "events") &&
	    control_get_word(line, "events", out->events, sizeof(out->events))) {
		snprintf(err, errlen, "malformed setup: events longer than %zu bytes",
			 sizeof(out->events) - 1);
		return -1;
	}
	if (find_key(line, "cpus") &&
	    control_get_word(line, "cpus", out->cpus, sizeof(out->cpus))) {
		snprintf(err, errlen, "malformed setup: cpus longer than %zu bytes",
			 sizeof(out->cpus) - 1);
		return -1;
	}
	return 0;
}

/* record --flows: how many responders, and each one's CPU; without
 * flows= one, on cpu= */
static int parse_flows(const char *line, struct control_setup *out,
		       char *err, size_t errlen)
{
	int64_t v, cpus[CONTROL_FLOWS_MAX];
	int i, n;

	out->flows = 1;
	out->flow_cpu[0] = out->cpu;
	if (!find_key(line, "flows")) {
		if (!find_key(line, "flow_cpus"))
			return 0;
		snprintf(err, errlen, "malformed setup: flow_cpus without flows");
		return -1;
	}
	if (control_get(line, "flows", &v) || v < 1 || v > CONTROL_FLOWS_MAX) {
		snprintf(err, errlen, "malformed setup: flows must be 1 to %d",
			 CONTROL_FLOWS_MAX);
		return -1;
	}
	out->flows = (int)v;
	if (!find_key(line, "flow_cpus")) {
		for (i = 1; i < out->flows; i++)
			out->flow_cpu[i] = out->cpu;
		return 0;
	}
	n = control_get_list(line, "flow_cpus", cpus, CONTROL_FLOWS_MAX, -1, 65535);
	if (n != out->flows || cpus[0] != out->cpu) {
		snprintf(err, errlen, "malformed setup: flow_cpus must name %d "
			 "CPUs (-1: unpinned), the first cpu=", out->flows);
		return -1;
	}
	for (i = 0; i < n; i++)
		out->flow_cpu[i] = (int)cpus[i];
	return 0;
}

/* "perpkt-serve V ": 0 when V is this version, else -1 with why. */
static int check_version(const char *line, char *err, size_t errlen)
{
	char *end;
	long v;

	if (strncmp(line, "perpkt-serve ", 13)) {
		snprintf(err, errlen, "malformed setup: expected 'perpkt-serve %d ...'",
			 CONTROL_VERSION);
		return -1;
	}
	v = strtol(line + 13, &end, 10);
	if (end == line + 13 || *end != ' ' || v != CONTROL_VERSION) {
		snprintf(err, errlen, "unsupported control version: this side speaks "
			 "%d%s", CONTROL_VERSION, v == 1 ? ", in which clients "
			 "authenticate with a key (record --peer-key): upgrade "
			 "perpkt on the client" : "");
		return -1;
	}
	return 0;
}

int control_parse_hello(const char *line, char *nonce, size_t len, char *err,
			size_t errlen)
{
	const char *n;

	if (check_version(line, err, errlen))
		return -1;
	n = strstr(line, " hello nonce=");
	if (!n || strlen(n + 13) != CONTROL_NONCE_HEX ||
	    strspn(n + 13, "0123456789abcdef") != CONTROL_NONCE_HEX ||
	    len <= CONTROL_NONCE_HEX) {
		snprintf(err, errlen, "malformed hello: expected 'perpkt-serve %d "
			 "hello nonce=<%d hex digits>'", CONTROL_VERSION,
			 CONTROL_NONCE_HEX);
		return -1;
	}
	memcpy(nonce, n + 13, CONTROL_NONCE_HEX + 1);
	return 0;
}

/* A word naming who asks: letters, digits, '.', '_' and '-' only. */
static void who_word(const char *line, const char *key, char *buf, size_t len)
{
	if (control_get_word(line, key, buf, len) ||
	    strspn(buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789._-") != strlen(buf) || !buf[0])
		snprintf(buf, len, "unknown");
}

int control_parse_setup(const char *line, struct control_setup *out,
			char *err, size_t errlen)
{
	char tr[sizeof(out->transport)] = "";
	const char *t;
	int64_t v;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (check_version(line, err, errlen))
		return -1;
	t = strstr(line, " transport=");
	if (!t) {
		snprintf(err, errlen, "malformed setup: no transport");
		return -1;
	}
	t += 11;
	n = strcspn(t, " ");
	if (n == 0 || n >= sizeof(tr)) {
		snprintf(err, errlen, "malformed setup: bad transport");
		return -1;
	}
	memcpy(tr, t, n);
	if (strcmp(tr, "udp") && strcmp(tr, "tcp") && strcmp(tr, "icmp")) {
		snprintf(err, errlen, "transport '%s' is not served: use udp, tcp or icmp", tr);
		return -1;
	}
	strcpy(out->transport, tr);
	if (control_get(line, "size", &v) || v < 1 || v > TRANSPORT_MAX_MESSAGE) {
		snprintf(err, errlen, "malformed setup: size must be 1 to %u",
			 TRANSPORT_MAX_MESSAGE);
		return -1;
	}
	out->size = (uint32_t)v;
	if (control_get(line, "cpu", &v) || v > 65535) {
		snprintf(err, errlen, "malformed setup: bad cpu");
		return -1;
	}
	out->cpu = (int)v;
	who_word(line, "user", out->user, sizeof(out->user));
	who_word(line, "host", out->host, sizeof(out->host));
	if (!control_get(line, "warmup_ms", &v) && v > 0)
		out->warmup_ms = (uint64_t)v;
	if (!control_get(line, "window_ms", &v) && v > 0)
		out->window_ms = (uint64_t)v;
	if (parse_flows(line, out, err, errlen))
		return -1;
	return parse_profile_request(line, out, err, errlen);
}

int control_resolve(const char *hostport, uint16_t default_port,
		    struct sockaddr_in *addr, const char *what)
{
	char host[256];
	const char *colon = strrchr(hostport, ':');
	struct addrinfo hints = { .ai_family = AF_INET }, *res;
	unsigned long port = default_port;
	size_t hlen = colon ? (size_t)(colon - hostport) : strlen(hostport);
	char *end;
	int ret;

	if (hlen == 0 || hlen >= sizeof(host))
		return error("invalid %s '%s': expected HOST[:PORT]", what, hostport);
	memcpy(host, hostport, hlen);
	host[hlen] = '\0';
	if (colon) {
		port = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || port == 0 || port > 65535)
			return error("invalid %s '%s': port must be 1 to 65535",
				     what, hostport);
	}
	if (!port)
		return error("invalid %s '%s': give a port, HOST:PORT", what,
			     hostport);
	ret = getaddrinfo(host, NULL, &hints, &res);
	if (ret)
		return error("cannot resolve %s '%s': %s", what, host,
			     gai_strerror(ret));
	memcpy(addr, res->ai_addr, sizeof(*addr));
	addr->sin_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return 0;
}

int control_connect(const struct sockaddr_in *addr, int timeout_ms,
		    const char *what)
{
	struct pollfd p;
	char a[32];
	int fd, flags, soerr = 0, r;
	socklen_t len = sizeof(soerr);

	inet_ntop(AF_INET, &addr->sin_addr, a, sizeof(a));
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return error("cannot create a socket for %s: %s", what,
			     strerror(errno));
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
		if (errno != EINPROGRESS) {
			soerr = errno;
			goto fail;
		}
		p.fd = fd;
		p.events = POLLOUT;
		do
			r = poll(&p, 1, timeout_ms);
		while (r < 0 && errno == EINTR);
		if (r == 0) {
			close(fd);
			return error("%s '%s:%u' is unreachable: no answer within "
				     "%d ms", what, a, ntohs(addr->sin_port),
				     timeout_ms);
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		if (soerr)
			goto fail;
	}
	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
fail:
	close(fd);
	return error("cannot connect to %s '%s:%u': %s%s", what, a,
		     ntohs(addr->sin_port), strerror(soerr),
		     soerr == ECONNREFUSED && strstr(what, "peer") ?
		     ": is 'perpkt serve' running there?" : "");
}
