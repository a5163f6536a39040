// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve's server, the responder side for `perpkt record --peer`,
 * like netperf's netserver: one client at a time, and only one that
 * holds serve's key (serve-handshake.c): it sets transport, size and
 * CPU over the control connection (workload/control.h), then brackets
 * its window with start and stop and gets back the responder's own CPU
 * time over the window. With record --flows, a responder per flow
 * (serve-responders.c), at most --max-flows of them. When the client asks and this process may
 * sample, the command's recorder (src/record/serve-recording.c) records
 * this side's kernel over the same windows for the profile handed over
 * at the end.
 */
#include "workload/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.h"
#include "exitcode.h"
#include "workload/serve-priv.h"
#include "workload/transport.h"

/* A client is silent for its whole warm-up and window, so the wait for
 * its next request is long; a dead or half-open connection is found in
 * seconds by TCP keepalive instead (KEEPIDLE + KEEPCNT * KEEPINTVL). */
#define IDLE_MS (10 * 60 * 1000)
#define KEEPIDLE_S 2
#define KEEPINTVL_S 1
#define KEEPCNT 3
/* The handshake: a connection has HANDSHAKE_MS from its accept to an
 * authenticated setup; HANDSHAKE_MAX connections go through it at
 * once, HANDSHAKE_PER_SOURCE of them from one address, and a newcomer
 * pushes one out when all are taken, so none holds serve's one slot,
 * or its handshakes, without the key. */
#define HANDSHAKE_MS 5000
#define HANDSHAKE_MAX 32
#define HANDSHAKE_PER_SOURCE 4
#define BUSY_REPLY "error busy: perpkt serve is measuring for another client; try again when it is done"

static volatile sig_atomic_t stop_serving;

static void on_signal(int sig)
{
	stop_serving = sig;
}

void serve_reply_error(struct serve_client *c, const char *msg)
{
	char line[CONTROL_LINE_MAX];

	snprintf(line, sizeof(line), "error %.300s", msg);
	if (c->authenticated)
		control_send(c->fd, &c->auth, line);
	else
		control_write_line(c->fd, line);
}

static int reply(struct serve_client *c, const char *line)
{
	return control_send(c->fd, &c->auth, line);
}

static void keepalive(int fd)
{
	int on = 1, idle = KEEPIDLE_S, intvl = KEEPINTVL_S, cnt = KEEPCNT;
	unsigned timeout_ms = (KEEPIDLE_S + KEEPINTVL_S * KEEPCNT) * 1000;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	/* unacknowledged answers to a vanished peer also give up */
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &timeout_ms,
		   sizeof(timeout_ms));
}

/* Anyone connecting while a client is served hears "busy" at once. */
static void refuse_busy(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	control_write_line(fd, BUSY_REPLY);
	close(fd);
}

/* The client closed its end: nothing more will come. */
static int client_gone(int fd)
{
	char b;

	return recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

int serve_wait_request(int fd, int lfd, int limit_ms,
		       const struct serve_recorder *ops,
		       struct serve_recording *rec)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
			       { .fd = lfd, .events = POLLIN } };
	int waited = 0, step = rec ? 50 : 200;

	while (!stop_serving && waited < limit_ms) {
		int r = poll(p, 2, step);

		if (rec)
			ops->drain(rec);
		if (r < 0 && errno != EINTR)
			return 0;
		if (r <= 0) {
			waited += r == 0 ? step : 0;
			continue;
		}
		if (p[0].revents || client_gone(fd))
			return 1;  /* data, EOF or an error: the read says */
		if (p[1].revents & POLLIN)
			refuse_busy(lfd);
	}
	if (stop_serving)
		return -1;
	return client_gone(fd) ? 1 : 0;
}

/* The setup's answer: the port (0 for icmp: no responder process), a
 * tcp or udp run's token, and whether this side is recorded (and why not). */
static void setup_answer(char *out, size_t len, const struct serve_flows *f,
			 const struct control_setup *setup,
			 const struct serve_recording *rec, const char *why)
{
	char ports[CONTROL_FLOWS_MAX * 6 + 1];
	size_t n;

	serve_flows_ports(f, ports, sizeof(ports));
	n = (size_t)snprintf(out, len, "ok port=%.5s", f->kernel ? "0" : ports);
	if (f->token && n < len)
		n += (size_t)snprintf(out + n, len - n, " token=%llu",
				      (unsigned long long)f->token);
	if (f->n > 1 && n < len)
		n += (size_t)snprintf(out + n, len - n, " flows=%d ports=%s",
				      f->n, ports);
	if (setup->profile && n < len)
		snprintf(out + n, len - n, rec ? " profile=1" : " profile=0 why=%s",
			 why);
}

/* "profile": this side's document, as "ok bytes=N" and N bytes. A
 * profile that cannot be made is an error answer, not a closed line. */
static void send_profile(struct serve_client *c, struct serve_recording *rec,
			 const char *why, const struct serve_config *o)
{
	char out[CONTROL_LINE_MAX], err[200], sum[65];
	char *text = NULL;
	size_t len = 0;

	if (!rec) {
		serve_reply_error(c, why[0] ? why : "this side was not recorded: ask "
			    "with profile=1 in the setup");
		return;
	}
	if (o->recorder->document(rec, "perpkt serve", c->who, &text, &len,
				  err, sizeof(err))) {
		serve_reply_error(c, err);
		return;
	}
	control_digest(text, len, sum);
	snprintf(out, sizeof(out), "ok bytes=%zu sum=%s", len, sum);
	if (reply(c, out) < 0 || transport_write_full(c->fd, text, len) < 0)
		warning("serve: the client went away during the profile");
	else if (!o->quiet)
		info("serve: sent this side's profile (%zu bytes)", len);
	free(text);
}

/* How long the client may take before its next request: its warm-up
 * and a grace before the first start, its window before the stop. With
 * flows, the client pins a process per flow end on its CPUs before its
 * warm-up, as serve pins its responders before answering the setup:
 * the same CONTROL_RESPONDERS_MS more (32 or 64 flows with both ends
 * on one CPU of a loaded host took longer than the grace alone). */
static int request_limit(const struct control_setup *setup, int started,
			 int in_window)
{
	uint64_t ms = IDLE_MS;

	if (!started)
		ms = setup->warmup_ms + CONTROL_SETUP_GRACE_MS +
		     (setup->flows > 1 ? CONTROL_RESPONDERS_MS : 0);
	else if (in_window && setup->window_ms)
		ms = setup->window_ms + CONTROL_SETUP_GRACE_MS;
	return ms > IDLE_MS ? IDLE_MS : (int)ms;
}

/* One authenticated client, from its setup to close: the slot. */
static void serve_one(struct serve_client *cp, struct control_setup *sp,
		      int lfd, const struct serve_config *o,
		      const struct sockaddr_in *peer)
{
	char line[CONTROL_LINE_MAX + 1], err[200], out[CONTROL_LINE_MAX],
	     why[200] = "", ports[CONTROL_FLOWS_MAX * 6 + 1];
	struct serve_client c = *cp;
	struct control_setup setup = *sp;
	int fd = c.fd;
	struct serve_flows f;
	struct serve_recording *rec = NULL;
	int started = 0, in_window = 0, limit, r;

	if (serve_flows_start(&f, &setup, o->max_flows, &o->addr, peer, err,
			      sizeof(err)) < 0) {
		if (!o->quiet)
			warning("serve: refused the setup of %s: %s", c.who, err);
		serve_reply_error(&c, err);
		goto out;
	}
	if (setup.profile &&
	    o->recorder->open(&rec, &setup, f.pid, f.n, why, sizeof(why)) < 0 &&
	    !o->quiet)
		warning("serve: not recording this side: %s", why);
	setup_answer(out, sizeof(out), &f, &setup, rec, why);
	if (reply(&c, out) < 0)
		goto out;
	serve_flows_ports(&f, ports, sizeof(ports));
	if (!o->quiet && f.kernel)
		info("serve: icmp: this host's kernel answers the echo requests, "
		     "%u-byte messages%s", setup.size,
		     rec ? ", recording this side" : "");
	else if (!o->quiet && f.n > 1)
		info("serve: %d %s responders, %u-byte messages, ports %s", f.n,
		     setup.transport, setup.size, ports);
	else if (!o->quiet)
		info("serve: %s responder, %u-byte messages, cpu %d, port %s%s",
		     setup.transport, setup.size, setup.cpu, ports,
		     rec ? ", recording this side" : "");
	for (;;) {
		limit = request_limit(&setup, started, in_window);
		r = serve_wait_request(fd, lfd, limit, o->recorder, rec);
		if (r == 0) {
			/* an idle client must not keep others on "busy" */
			snprintf(err, sizeof(err), "no %s within %d ms: dropped",
				 started ? "request" : "start after the setup", limit);
			if (!o->quiet)
				warning("serve: dropped the client %s: %s", c.who, err);
			serve_reply_error(&c, err);
			break;
		}
		if (r < 0 || control_recv(fd, &c.auth, line, sizeof(line),
					  CONTROL_TIMEOUT_MS, NULL, err,
					  sizeof(err)) < 0)
			break;
		if (!strcmp(line, "start")) {
			started = serve_flows_window_start(&f) == 0;
			in_window = 1;
			if (rec && o->recorder->start(rec, f.answered0) < 0) {
				serve_reply_error(&c, "cannot open this side's window");
				break;
			}
			reply(&c, "ok");
		} else if (!strcmp(line, "stop")) {
			/* read once: the recording and the answer agree */
			uint64_t n = serve_flows_answered(&f);

			in_window = 0;
			if (rec && o->recorder->stop(rec, n) < 0) {
				serve_reply_error(&c, "cannot close this side's window");
				break;
			}
			if (!started) {
				serve_reply_error(&c, "stop without start");
				break;
			}
			if (serve_flows_stop_answer(&f, n, out, sizeof(out), err,
						    sizeof(err)) < 0) {
				serve_reply_error(&c, err);
				break;
			}
			reply(&c, out);
		} else if (!strcmp(line, "profile")) {
			send_profile(&c, rec, why, o);
		} else {
			serve_reply_error(&c, "unknown request: expected start, stop or "
				    "profile");
			break;
		}
	}
out:
	o->recorder->close(rec);
	serve_flows_stop(&f);
}

static void drop_pending(struct serve_pending *pend, int *npend, int i);

/* Who may make room when every place in the handshake is taken: a
 * connection from the address that holds the most places, of those the
 * one that got least far (no hello yet), then the oldest; its address's
 * count in *n. */
static int pick_pushed_out(const struct serve_pending *pend, int npend, int *n)
{
	int i, j, best = 0;

	*n = 0;
	for (i = 0; i < npend; i++) {
		const struct serve_pending *a = &pend[i], *b = &pend[best];
		int k = 0;

		for (j = 0; j < npend; j++)
			k += pend[j].from.s_addr == a->from.s_addr;
		if (k > *n ||
		    (k == *n && (a->said_hello < b->said_hello ||
		     (a->said_hello == b->said_hello &&
		      a->deadline_ms < b->deadline_ms)))) {
			best = i;
			*n = k;
		}
	}
	return best;
}

/* "error busy: ..." to a connection not taken, and the log's line */
static void refuse_pending(int fd, const char *why, const char *addr,
			   const struct serve_config *o, struct serve_log *log)
{
	char line[200];

	snprintf(line, sizeof(line), "error busy: %s; try again in a few seconds",
		 why);
	control_write_line(fd, line);
	close(fd);
	serve_log_reject(log, o, "refused a connection from %s: %s", addr, why);
}

/* A new connection into the handshake, unless its address has
 * HANDSHAKE_PER_SOURCE there already. When all HANDSHAKE_MAX places
 * are taken, it pushes out a connection (pick_pushed_out) of an address
 * that holds more places than the newcomer's would: the places are
 * shared out by address, so a flood from other addresses cannot keep
 * out, or push out, a client from an address of its own. */
static void take_pending(int lfd, struct serve_pending *pend, int *npend,
			 const struct serve_config *o, struct serve_log *log)
{
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	char why[120], addr[32];
	int fd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC), i, same = 0, n;

	if (fd < 0)
		return;
	inet_ntop(AF_INET, &peer.sin_addr, addr, sizeof(addr));
	for (i = 0; i < *npend; i++)
		same += pend[i].from.s_addr == peer.sin_addr.s_addr;
	if (same >= HANDSHAKE_PER_SOURCE) {
		snprintf(why, sizeof(why), "%d connections from %s are "
			 "authenticating already", same, addr);
		refuse_pending(fd, why, addr, o, log);
		return;
	}
	if (*npend >= HANDSHAKE_MAX) {
		i = pick_pushed_out(pend, *npend, &n);
		if (n <= same + 1) {
			snprintf(why, sizeof(why), "all %d places in the handshake "
				 "are taken, at most %d by one address", *npend, n);
			refuse_pending(fd, why, addr, o, log);
			return;
		}
		serve_log_reject(log, o, "pushed out a connection from %s (one of "
				 "its %d) that had not authenticated (%s, %lld ms "
				 "old): all %d places in the handshake were taken",
				 pend[i].c.addr, n,
				 pend[i].said_hello ? "after its hello" : "silent",
				 (long long)(control_now_ms() - pend[i].deadline_ms +
					     HANDSHAKE_MS), HANDSHAKE_MAX);
		serve_reply_error(&pend[i].c, "busy: pushed out by a connection "
				  "from another address before it authenticated; "
				  "try again");
		drop_pending(pend, npend, i);
	}
	keepalive(fd);
	serve_pending_init(&pend[(*npend)++], fd, &peer, o,
			   control_now_ms() + HANDSHAKE_MS);
}

static void drop_pending(struct serve_pending *pend, int *npend, int i)
{
	close(pend[i].c.fd);
	pend[i] = pend[--*npend];
}

int serve_run(const struct serve_config *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned port = ntohs(o->addr.sin_port);
	struct serve_pending pend[HANDSHAKE_MAX];
	struct pollfd p[HANDSHAKE_MAX + 1];
	int lfd, one = 1, code = RESULT_OK, npend = 0, i, served = 0;
	struct serve_log log = { .since_ms = control_now_ms() };

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return error("cannot create a socket: %s", strerror(errno)),
		       RESULT_FAILURE;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (const struct sockaddr *)&o->addr, sizeof(o->addr)) < 0 ||
	    listen(lfd, 16) < 0) {
		error("cannot listen on '%s:%u': %s%s", o->bind, port,
		      strerror(errno), errno == EADDRINUSE ?
		      ": another perpkt serve? choose another --port" : "");
		close(lfd);
		return RESULT_FAILURE;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!o->quiet)
		info("serve: listening on %s:%u", o->bind, port);
	while (!stop_serving && !(o->once && served)) {
		struct control_setup setup;
		int64_t now;

		p[0].fd = lfd;
		p[0].events = POLLIN;
		for (i = 0; i < npend; i++) {
			p[i + 1].fd = pend[i].c.fd;
			p[i + 1].events = POLLIN;
			p[i + 1].revents = 0;
		}
		if (poll(p, (nfds_t)npend + 1, 200) < 0)
			continue;
		now = control_now_ms();
		serve_log_flush(&log, o, now, 0);
		/* from the last: drop_pending moves the last into i */
		for (i = npend - 1; i >= 0; i--) {
			int r = p[i + 1].revents ?
				serve_pending_step(&pend[i], o, &log, &setup) : 0;

			if (r < 0) {
				drop_pending(pend, &npend, i);
			} else if (r > 0) {
				struct serve_client c = pend[i].c;
				struct sockaddr_in peer = { .sin_family = AF_INET,
							    .sin_addr = pend[i].from };

				pend[i] = pend[--npend];
				/* the slot is this client's: the others hear busy */
				while (npend) {
					serve_reply_error(&pend[npend - 1].c, BUSY_REPLY + 6);
					drop_pending(pend, &npend, npend - 1);
				}
				serve_one(&c, &setup, lfd, o, &peer);
				close(c.fd);
				served = 1;
				break;
			} else if (now > pend[i].deadline_ms) {
				serve_log_reject(&log, o, "dropped a client from %s "
						 "that did not authenticate within %d ms",
						 pend[i].c.addr, HANDSHAKE_MS);
				serve_reply_error(&pend[i].c, "no authenticated setup "
						  "in time: dropped");
				drop_pending(pend, &npend, i);
			}
		}
		if (!served || !o->once)
			if (p[0].revents & POLLIN)
				take_pending(lfd, pend, &npend, o, &log);
	}
	while (npend)
		drop_pending(pend, &npend, npend - 1);
	serve_log_flush(&log, o, control_now_ms(), 1);
	close(lfd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return code;
}
