// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --peer: the client side of the control channel with `perpkt
 * serve` (workload/control.h): the key, the hello, the setup, the
 * window's requests and serve's own profile.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "workload/control-auth.h"
#include "workload/control.h"
#include "workload/workload-priv.h"

/* Who asks, for serve's profile: a word of safe characters. */
static void who(char *buf, size_t len, const char *s)
{
	size_t i;

	snprintf(buf, len, "%s", s && *s ? s : "unknown");
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", buf[i]))
			buf[i] = '_';
}

/* Flow i's responder CPU for serve; -1: unpinned (icmp: the kernel) */
static int responder_cpu(const struct workload *w, int i)
{
	return w->ops->no_responder ? -1 : w->flows[i].cpu[ROLE_RESPONDER];
}

/* --flows: " flows=N flow_cpus=C0,C1,...", each flow's responder CPU */
static int flows_words(char *buf, size_t len, const struct workload *w)
{
	size_t n = (size_t)snprintf(buf, len, " flows=%d flow_cpus=", w->nflows);
	int i;

	for (i = 0; i < w->nflows && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "",
				      responder_cpu(w, i));
	return (int)n;
}

/* The setup request; with peer_recording, what serve should record. */
static int setup_line(char *line, size_t len, const struct workload *w,
		      const struct workload_config *c)
{
	const struct control_setup *r = c->peer_recording;
	struct passwd *pw = getpwuid(geteuid());
	char user[33], host[65], name[65] = "";
	int n;

	gethostname(name, sizeof(name) - 1);
	who(user, sizeof(user), pw ? pw->pw_name : NULL);
	who(host, sizeof(host), name);
	n = snprintf(line, len, "perpkt-serve %d transport=%s size=%u cpu=%d "
		     "user=%s host=%s warmup_ms=%llu window_ms=%llu",
		     CONTROL_VERSION, w->ops->name, c->message_size,
		     responder_cpu(w, 0),
		     user, host,
		     (unsigned long long)c->peer_warmup_ms,
		     (unsigned long long)c->peer_window_ms);
	if (w->nflows > 1 && n >= 0 && (size_t)n < len)
		n += flows_words(line + n, len - (size_t)n, w);
	if (r && n >= 0 && (size_t)n < len)
		n += snprintf(line + n, len - (size_t)n, " profile=1 period=%llu "
			      "freq=%llu callchain=%d user_space=%d%s%s%s%s%s",
			      (unsigned long long)r->period,
			      (unsigned long long)r->freq, r->callchain,
			      r->include_user, r->events[0] ? " events=" : "",
			      r->events, r->cpus[0] ? " cpus=" : "", r->cpus,
			      r->marks ? " marks=1" : "");
	/* room for the mac */
	if (n < 0 || (size_t)n + 70 >= len)
		return error("the setup for the peer is longer than %zu bytes: "
			     "name fewer events", len - 71);
	return 0;
}

/* Whether serve records its side: "profile=1", or "profile=0 why=..."
 * to the end of the line. */
static void peer_recording_answer(struct workload *w,
				  const struct workload_config *c, const char *line)
{
	const char *why = strstr(line, " why=");
	int64_t v;

	if (!c->peer_recording)
		return;
	if (!control_get(line, "profile", &v) && v == 1) {
		w->peer_recording = 1;
		return;
	}
	snprintf(w->peer_why, sizeof(w->peer_why), "%s",
		 why ? why + 5 : "perpkt serve gave no reason");
}

/* The key at path (NULL: the default) into a; -1 printed. */
static int load_key_at(struct control_auth *a, const char *path)
{
	char def[4096], err[300];

	if (!path) {
		if (control_key_default(def, sizeof(def)))
			return error("no key for the peer: give --peer-key FILE, a "
				     "copy of the key file perpkt serve uses");
		path = def;
	}
	if (control_key_load(a, path, err, sizeof(err)))
		return error("%s: perpkt serve made its key when it started (it "
			     "said where); copy that file here, mode 0600, and "
			     "give it with --peer-key FILE", err);
	return 0;
}

int workload_check_peer_key(const char *path)
{
	struct control_auth a;
	int ret = load_key_at(&a, path);

	memset(&a, 0, sizeof(a));
	return ret;
}

/* The key, before anything is sent: without it there is nothing to ask. */
static int load_key(struct workload *w, const struct workload_config *c)
{
	if (load_key_at(&w->auth, c->peer_key))
		return -1;
	w->auth.side = CONTROL_CLIENT;
	control_auth_nonce(&w->auth);
	return 0;
}

/* hello and its answer: serve's nonce, and that it has the same key. */
static int hello(struct workload *w, const char *peer)
{
	char line[CONTROL_LINE_MAX + 1], err[160], id[CONTROL_KEY_ID_HEX + 1];
	struct control_auth *a = &w->auth;

	snprintf(line, sizeof(line), "perpkt-serve %d hello nonce=%s",
		 CONTROL_VERSION, a->nonce[CONTROL_CLIENT]);
	if (control_write_line(w->ctl, line) < 0)
		return error("cannot send to peer '%s': %s", peer, strerror(errno));
	if (control_read_line(w->ctl, line, sizeof(line), CONTROL_TIMEOUT_MS,
			      err, sizeof(err)) < 0)
		return error("peer '%s' did not answer: %s", peer, err);
	if (!strncmp(line, "error unsupported control version: this side speaks 1", 54))
		return error("peer '%s' runs an older perpkt serve, which does not "
			     "authenticate its clients (control version 1): upgrade "
			     "perpkt there", peer);
	if (!strncmp(line, "error ", 6))
		return error("peer '%s' refused: %s", peer, line + 6);
	if (strncmp(line, "ok ", 3) ||
	    control_get_word(line, "nonce", a->nonce[CONTROL_SERVE],
			     sizeof(a->nonce[CONTROL_SERVE])) ||
	    strlen(a->nonce[CONTROL_SERVE]) != CONTROL_NONCE_HEX ||
	    control_get_word(line, "key", id, sizeof(id)))
		return error("malformed answer from peer '%s': '%.64s'", peer, line);
	if (strcmp(id, a->id))
		return error("peer '%s' has another key (%s) than --peer-key's (%s): "
			     "copy the key file perpkt serve uses there", peer, id,
			     a->id);
	return 0;
}

/* Each flow's responder port from the setup's answer: " flows=N
 * ports=P0,P1,..." with several (a serve that answers one flow leaves
 * them out), port= alone with one. */
static int flow_ports(struct workload *w, const char *peer, const char *line,
		      uint16_t port)
{
	int64_t n, ports[CONTROL_FLOWS_MAX];
	int i;

	if (w->nflows <= 1) {
		w->flows[0].port = port;
		return 0;
	}
	if (control_get(line, "flows", &n))
		return error("peer '%s' answers one flow, not %d: its perpkt serve "
			     "is older than --flows; upgrade perpkt there", peer,
			     w->nflows);
	if (n != w->nflows ||
	    control_get_list(line, "ports", ports, CONTROL_FLOWS_MAX, 1, 65535) !=
	    w->nflows || ports[0] != port)
		return error("malformed answer from peer '%s': '%.64s'", peer, line);
	for (i = 0; i < w->nflows; i++)
		w->flows[i].port = (uint16_t)ports[i];
	return 0;
}

int peer_setup(struct workload *w, const struct workload_config *c,
	       struct transport_config *tc)
{
	struct sockaddr_in *addr = &tc->addr;
	char line[CONTROL_LINE_MAX + 1], err[160];
	int64_t port, token = 0;
	int unsealed;

	if (load_key(w, c) < 0 ||
	    control_resolve(c->peer, CONTROL_DEFAULT_PORT, addr, "peer") < 0)
		return -1;
	w->ctl = control_connect(addr, CONTROL_TIMEOUT_MS, "peer");
	if (w->ctl < 0 || hello(w, c->peer) < 0 ||
	    setup_line(line, sizeof(line), w, c) < 0)
		return -1;
	if (control_send(w->ctl, &w->auth, line) < 0)
		return error("cannot send setup to peer '%s': %s", c->peer,
			     strerror(errno));
	if (control_recv(w->ctl, &w->auth, line, sizeof(line), CONTROL_SETUP_ANSWER_MS,
			 &unsealed, err, sizeof(err)) < 0)
		return error("peer '%s' did not accept the setup: %s", c->peer, err);
	if (!strncmp(line, "error ", 6))
		return error("peer '%s' refused the setup: %s", c->peer, line + 6);
	/* icmp: port 0, the peer's kernel answers the echo requests */
	if (strncmp(line, "ok", 2) || control_get(line, "port", &port) ||
	    port < (w->ops->no_responder ? 0 : 1) || port > 65535)
		return error("malformed answer from peer '%s': '%.64s'", c->peer, line);
	addr->sin_port = htons((uint16_t)port);
	/* tcp: the data connection opens with the run's token */
	if (strstr(line, " token=") && (control_get(line, "token", &token) ||
					token <= 0))
		return error("malformed answer from peer '%s': '%.64s'", c->peer, line);
	tc->token = (uint64_t)token;
	if (flow_ports(w, c->peer, line, (uint16_t)port) < 0)
		return -1;
	peer_recording_answer(w, c, line);
	return 0;
}

int peer_request(struct workload *w, const char *req, char *line, size_t len)
{
	char err[160] = "";
	int unsealed = 0;

	if (control_send(w->ctl, &w->auth, req) < 0 ||
	    control_recv(w->ctl, &w->auth, line, len, CONTROL_TIMEOUT_MS,
			 &unsealed, err, sizeof(err)) < 0 || strncmp(line, "ok", 2)) {
		w->failed = 1;
		snprintf(w->err, sizeof(w->err), "peer did not answer '%s': %s",
			 req, err[0] || strncmp(line, "error ", 6) ? err : line + 6);
		return error("%s", w->err);
	}
	return 0;
}

int workload_peer_profile(struct workload *w, char **text, size_t *len,
			  char *why, size_t whylen)
{
	char line[CONTROL_LINE_MAX + 1], err[160], sum[65], got[65];
	int unsealed;
	int64_t n;

	*text = NULL;
	if (!w->peer_recording) {
		snprintf(why, whylen, "%s", w->peer_why[0] ? w->peer_why :
			 "not asked of the peer");
		return -1;
	}
	if (control_send(w->ctl, &w->auth, "profile") < 0 ||
	    control_recv(w->ctl, &w->auth, line, sizeof(line),
			 CONTROL_PROFILE_TIMEOUT_MS, &unsealed, err, sizeof(err)) < 0) {
		snprintf(why, whylen, "the peer did not send it: %s", err);
		return -1;
	}
	if (!strncmp(line, "error ", 6)) {
		snprintf(why, whylen, "%s", line + 6);
		return -1;
	}
	if (strncmp(line, "ok ", 3) || control_get(line, "bytes", &n) || n < 2 ||
	    n > (int64_t)CONTROL_PROFILE_MAX ||
	    control_get_word(line, "sum", sum, sizeof(sum))) {
		snprintf(why, whylen, "malformed answer from the peer: '%.64s' "
			 "(at most %u bytes)", line, CONTROL_PROFILE_MAX);
		return -1;
	}
	*text = malloc((size_t)n);
	if (!*text) {
		snprintf(why, whylen, "out of memory for %lld bytes", (long long)n);
		return -1;
	}
	if (control_read_bytes(w->ctl, *text, (size_t)n, CONTROL_PROFILE_TIMEOUT_MS,
			       err, sizeof(err)) < 0)
		snprintf(why, whylen, "the peer's profile was cut off: %s", err);
	else if (control_digest(*text, (size_t)n, got), strcmp(got, sum))
		snprintf(why, whylen, "the peer's profile is not the one it "
			 "announced (its digest differs): changed on the way");
	else {
		*len = (size_t)n;
		return 0;
	}
	free(*text);
	*text = NULL;
	return -1;
}
