// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where perpkt serve authenticates a client: the client's hello and
 * nonce, serve's nonce and key name, then a setup that must carry a mac
 * under serve's key (workload/control-auth.c keeps the key and makes
 * and checks the macs; the lines: workload/control.h). A connection is
 * read here without waiting, a byte at a time as it comes, so serve
 * takes several through the handshake at once and gives its one slot
 * only to a client that holds the key.
 */
#include "workload/serve-priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include "error.h"

void serve_log_flush(struct serve_log *l, const struct serve_config *o,
		     int64_t now_ms, int final)
{
	if (!final && now_ms - l->since_ms < SERVE_LOG_WINDOW_MS)
		return;
	if (l->held && !o->quiet)
		warning("serve: %lu more rejected connection%s not logged in "
			"the last %lld s", l->held, l->held == 1 ? "" : "s",
			(long long)((now_ms - l->since_ms + 999) / 1000));
	l->since_ms = now_ms;
	l->said = 0;
	l->held = 0;
}

void serve_log_reject(struct serve_log *l, const struct serve_config *o,
		      const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	serve_log_flush(l, o, control_now_ms(), 0);
	if (o->quiet)
		return;
	if (l->said >= SERVE_LOG_BURST) {
		l->held++;
		return;
	}
	l->said++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warning("serve: %s", msg);
}

void serve_pending_init(struct serve_pending *p, int fd,
			const struct sockaddr_in *peer,
			const struct serve_config *o, int64_t deadline_ms)
{
	memset(p, 0, sizeof(*p));
	p->c.fd = fd;
	p->c.auth = *o->key;
	p->c.auth.side = CONTROL_SERVE;
	p->from = peer->sin_addr;
	inet_ntop(AF_INET, &peer->sin_addr, p->c.addr, sizeof(p->c.addr));
	p->deadline_ms = deadline_ms;
}

/* What the socket holds, up to a newline (not past it: what follows is
 * the next message's): 1 a whole line in p->line, 0 not yet, -1 with
 * the reason in err. */
static int read_some(struct serve_pending *p, char *err, size_t errlen)
{
	for (;;) {
		char c = 0;
		ssize_t n = recv(p->c.fd, &c, 1, MSG_DONTWAIT);
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		r = control_line_take(n, c, p->line, sizeof(p->line), &p->used,
				      err, errlen);
		if (r)
			return r;
	}
}

int serve_pending_step(struct serve_pending *p, const struct serve_config *o,
		       struct serve_log *log, struct control_setup *setup)
{
	char err[200], out[CONTROL_LINE_MAX];
	struct serve_client *c = &p->c;
	int r = read_some(p, err, sizeof(err));

	if (r < 0 && !strcmp(err, "connection closed"))
		return -1;
	if (r < 0) {
		serve_log_reject(log, o, "rejected a client from %s: %s", c->addr, err);
		serve_reply_error(c, err);
		return -1;
	}
	if (!r)
		return 0;
	if (!p->said_hello) {
		if (control_parse_hello(p->line, c->auth.nonce[CONTROL_CLIENT],
					sizeof(c->auth.nonce[CONTROL_CLIENT]), err,
					sizeof(err)) < 0) {
			serve_log_reject(log, o, "rejected a client from %s: %s",
					 c->addr, err);
			serve_reply_error(c, err);
			return -1;
		}
		control_auth_nonce(&c->auth);
		snprintf(out, sizeof(out), "ok nonce=%s key=%s",
			 c->auth.nonce[CONTROL_SERVE], c->auth.id);
		p->said_hello = 1;
		/* a line into a fresh socket's empty buffer: no wait */
		return control_write_line(c->fd, out) < 0 ? -1 : 0;
	}
	if (control_open(&c->auth, p->line) < 0) {
		serve_log_reject(log, o, "refused a client from %s: it does not "
				 "hold this serve's key (%s)", c->addr, c->auth.id);
		snprintf(err, sizeof(err), "authentication failed: the setup is not "
			 "from a holder of this serve's key (%s); give record "
			 "--peer-key a copy of it", c->auth.id);
		serve_reply_error(c, err);
		return -1;
	}
	c->authenticated = 1;
	if (control_parse_setup(p->line, setup, err, sizeof(err)) < 0) {
		serve_log_reject(log, o, "rejected a client from %s: %s", c->addr, err);
		serve_reply_error(c, err);
		return -1;
	}
	snprintf(c->who, sizeof(c->who), "user %s on host %s from %s, "
		 "authenticated (key %s)", setup->user, setup->host, c->addr,
		 c->auth.id);
	if (!o->quiet)
		info("serve: %s", c->who);
	return 1;
}
