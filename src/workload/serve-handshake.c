// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where perpkt serve authenticates a client: the client's hello and
 * nonce, serve's nonce and key name, then a setup that must carry a mac
 * under serve's key (workload/control-auth.c keeps the key and makes
 * and checks the macs; the lines: workload/control.h).
 */
#include "workload/serve-priv.h"

#include <stdio.h>

#include "error.h"

int serve_handshake(struct serve_client *c, int lfd,
		    const struct serve_config *o, struct control_setup *setup)
{
	char line[CONTROL_LINE_MAX + 1], err[200], out[CONTROL_LINE_MAX];
	int r = serve_wait_request(c->fd, lfd, CONTROL_TIMEOUT_MS, NULL, NULL);

	if (r <= 0) {
		/* not when serve is stopping (-1) */
		if (r == 0 && !o->quiet)
			warning("serve: dropped a client from %s that sent nothing "
				"for %d ms", c->addr, CONTROL_TIMEOUT_MS);
		return -1;
	}
	if (control_read_line(c->fd, line, sizeof(line), CONTROL_TIMEOUT_MS, err,
			      sizeof(err)) < 0 ||
	    control_parse_hello(line, c->auth.nonce[CONTROL_CLIENT],
				sizeof(c->auth.nonce[CONTROL_CLIENT]), err,
				sizeof(err)) < 0) {
		if (!o->quiet)
			warning("serve: rejected a client from %s: %s", c->addr, err);
		serve_reply_error(c, err);
		return -1;
	}
	control_auth_nonce(&c->auth);
	snprintf(out, sizeof(out), "ok nonce=%s key=%s",
		 c->auth.nonce[CONTROL_SERVE], c->auth.id);
	if (control_write_line(c->fd, out) < 0 ||
	    serve_wait_request(c->fd, lfd, CONTROL_TIMEOUT_MS, NULL, NULL) <= 0 ||
	    control_read_line(c->fd, line, sizeof(line), CONTROL_TIMEOUT_MS, err,
			      sizeof(err)) < 0)
		return -1;
	if (control_open(&c->auth, line) < 0) {
		if (!o->quiet)
			warning("serve: refused a client from %s: it does not hold "
				"this serve's key (%s)", c->addr, c->auth.id);
		snprintf(err, sizeof(err), "authentication failed: the setup is not "
			 "from a holder of this serve's key (%s); give record "
			 "--peer-key a copy of it", c->auth.id);
		serve_reply_error(c, err);
		return -1;
	}
	c->authenticated = 1;
	if (control_parse_setup(line, setup, err, sizeof(err)) < 0) {
		if (!o->quiet)
			warning("serve: rejected a client from %s: %s", c->addr, err);
		serve_reply_error(c, err);
		return -1;
	}
	snprintf(c->who, sizeof(c->who), "user %s on host %s from %s, "
		 "authenticated (key %s)", setup->user, setup->host, c->addr,
		 c->auth.id);
	if (!o->quiet)
		info("serve: %s", c->who);
	return 0;
}

