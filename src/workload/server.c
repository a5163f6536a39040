// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve's server, the responder side for `perpkt record --peer`,
 * like netperf's netserver: one client at a time, and only one that
 * holds serve's key (serve-handshake.c): it sets transport, size and
 * CPU over the control connection (workload/control.h), then brackets
 * its window with start and stop and gets back the responder's own CPU
 * time over the window. When the client asks and this process may
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "exitcode.h"
#include "system/procfile.h"
#include "system/schedstat.h"
#include "system/unit.h"
#include "workload/cpu.h"
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
 * once, HANDSHAKE_PER_SOURCE of them from one address, so none holds
 * serve's one slot, or its handshakes, without the key. */
#define HANDSHAKE_MS 5000
#define HANDSHAKE_MAX 32
#define HANDSHAKE_PER_SOURCE 4
#define BUSY_REPLY "error busy: perpkt serve is measuring for another client; try again when it is done"

static volatile sig_atomic_t stop_serving;

static void on_signal(int sig)
{
	stop_serving = sig;
}

/* icmp: this host's kernel answers the client's echo requests itself;
 * what it answered is the Icmp OutEchoReps of /proc/net/snmp (serve's
 * network namespace: every echo reply it sent, the client's and any
 * other host's). */
static int echo_replies(uint64_t *n)
{
	char *text = procfile_read("/proc/net/snmp");
	int ret = text ? unit_snmp_value(text, "Icmp", "OutEchoReps", n) : -1;

	free(text);
	return ret;
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

static pid_t fork_responder(struct transport *t, int cpu)
{
	char err[256] = "";
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	if (cpu >= 0 && cpu_pin_self(cpu) < 0)
		_exit(1);
	t->ops->respond(t, err, sizeof(err));
	dprintf(STDERR_FILENO, "perpkt: serve responder: %s\n", err);
	_exit(1);
}

/* Until the new responder sleeps in its first receive, so that its
 * context switches from then on count answered messages only. */
static void wait_responder_blocked(pid_t pid)
{
	char path[64], buf[256], *paren;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 200; i++) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = 0;
		paren = strrchr(buf, ')');
		if (!paren || (paren[1] == ' ' && paren[2] == 'S'))
			return;
		usleep(5000);
	}
}

static void stop_responder(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
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
static void setup_answer(char *out, size_t len, uint16_t port,
			 uint64_t token, const struct control_setup *setup,
			 const struct serve_recording *rec, const char *why)
{
	size_t n = (size_t)snprintf(out, len, "ok port=%u", port);

	if (token && n < len)
		n += (size_t)snprintf(out + n, len - n, " token=%llu",
				      (unsigned long long)token);
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
 * and a grace before the first start, its window before the stop. */
static int request_limit(const struct control_setup *setup, int started,
			 int in_window)
{
	uint64_t ms = IDLE_MS;

	if (!started)
		ms = setup->warmup_ms + CONTROL_SETUP_GRACE_MS;
	else if (in_window && setup->window_ms)
		ms = setup->window_ms + CONTROL_SETUP_GRACE_MS;
	return ms > IDLE_MS ? IDLE_MS : (int)ms;
}

/* The responder for one client: a forked one answering on a port of
 * its own (udp, tcp), or none (icmp: the kernel answers, *kernel set);
 * 0, or -1 after answering why not. */
static int start_responder(struct serve_client *c, struct control_setup *setup,
			   const struct sockaddr_in *bind_addr,
			   const struct sockaddr_in *peer,
			   volatile uint64_t *answered, struct transport **t,
			   uint64_t *token, pid_t *pid, int *kernel)
{
	const struct transport_ops *ops = transport_find(setup->transport);
	struct transport_config tc;
	uint64_t n;

	*kernel = ops->no_responder;
	if (*kernel) {
		/* no process to pin: the echo is answered in the softirq of
		 * whichever CPU took the packet */
		setup->cpu = -1;
		if (echo_replies(&n) < 0) {
			serve_reply_error(c, "cannot read the Icmp counters of /proc/net/snmp here");
			return -1;
		}
		return 0;
	}
	memset(&tc, 0, sizeof(tc));
	tc.size = setup->size;
	tc.addr = *bind_addr;
	tc.addr.sin_port = 0;
	tc.local_responder = 1;
	tc.only_from = peer->sin_addr;
	tc.answered = answered;
	/* tcp and udp: a per-run secret as well, the client's first bytes
	 * (udp: its socket is then the only one answered), below 2^62 so it
	 * reads as int64 */
	if ((!strcmp(setup->transport, "tcp") || !strcmp(setup->transport, "udp")) &&
	    getrandom(&tc.token, sizeof(tc.token), 0) == sizeof(tc.token))
		tc.token = (tc.token >> 2) | 1;
	*token = tc.token;
	if (ops->create(t, &tc) < 0) {
		serve_reply_error(c, "cannot create the responder's socket");
		return -1;
	}
	*pid = fork_responder(*t, setup->cpu);
	if (*pid < 0) {
		serve_reply_error(c, "cannot fork a responder");
		return -1;
	}
	(*t)->ops->release_responder(*t);
	wait_responder_blocked(*pid);
	return 0;
}

/* Messages answered so far: the responder's count, or the kernel's
 * echo replies. */
static uint64_t answered_now(int kernel, volatile uint64_t *answered)
{
	uint64_t n = 0;

	if (!kernel)
		return *answered;
	echo_replies(&n);
	return n;
}

/* "stop": what the responder did over the window. An icmp window has
 * no responder process: cpu=-1 and no CPU time, kernel=1 says why. */
static int stop_answer(char *out, size_t len, const struct control_setup *setup,
		       pid_t pid, int kernel, const struct schedstat *s0,
		       uint64_t answered, const char **err)
{
	struct schedstat s1 = { 0 };

	if (kernel) {
		if (!answered) {
			*err = "no echo request reached this host's kernel between "
			       "start and stop";
			return -1;
		}
		snprintf(out, len, "ok cpu=-1 cpu_ns=0 wait_ns=0 switches=0 "
			 "answered=%llu kernel=1", (unsigned long long)answered);
		return 0;
	}
	if (schedstat_read(pid, &s1) < 0) {
		*err = "the responder is gone";
		return -1;
	}
	/* a responder that answered anything woke up for it */
	if (s1.switches == s0->switches) {
		*err = "no traffic reached the responder between start and stop";
		return -1;
	}
	snprintf(out, len, "ok cpu=%d cpu_ns=%llu wait_ns=%llu switches=%llu "
		 "answered=%llu", setup->cpu,
		 (unsigned long long)(s1.cpu_ns - s0->cpu_ns),
		 (unsigned long long)(s1.wait_ns - s0->wait_ns),
		 (unsigned long long)(s1.switches - s0->switches),
		 (unsigned long long)answered);
	return 0;
}

/* One authenticated client, from its setup to close: the slot. */
static void serve_one(struct serve_client *cp, struct control_setup *sp,
		      int lfd, const struct serve_config *o,
		      const struct sockaddr_in *peer)
{
	char line[CONTROL_LINE_MAX + 1], err[160], out[CONTROL_LINE_MAX],
	     why[200] = "";
	struct serve_client c = *cp;
	struct control_setup setup = *sp;
	int fd = c.fd;
	struct transport *t = NULL;
	struct serve_recording *rec = NULL;
	struct schedstat s0 = { 0 };
	volatile uint64_t *answered;
	uint64_t answered0 = 0, token = 0;
	pid_t pid = -1;
	int started = 0, in_window = 0, limit, r, kernel = 0;

	if (setup.cpu >= 0 && cpu_check_usable(setup.cpu) < 0) {
		snprintf(err, sizeof(err), "cpu %d is not usable here", setup.cpu);
		serve_reply_error(&c, err);
		return;
	}
	/* the responder counts what it answers where this process reads it */
	answered = mmap(NULL, sizeof(*answered), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (answered == MAP_FAILED) {
		serve_reply_error(&c, "cannot map the responder's counter");
		return;
	}
	if (start_responder(&c, &setup, &o->addr, peer, answered, &t, &token,
			    &pid, &kernel) < 0)
		goto out;
	if (setup.profile && o->recorder->open(&rec, &setup, kernel ? 0 : pid,
					       why, sizeof(why)) < 0 && !o->quiet)
		warning("serve: not recording this side: %s", why);
	setup_answer(out, sizeof(out), kernel ? 0 : t->ops->responder_port(t),
		     token, &setup, rec, why);
	if (reply(&c, out) < 0)
		goto out;
	if (!o->quiet && kernel)
		info("serve: icmp: this host's kernel answers the echo requests, "
		     "%u-byte messages%s", setup.size,
		     rec ? ", recording this side" : "");
	else if (!o->quiet)
		info("serve: %s responder, %u-byte messages, cpu %d, port %u%s",
		     setup.transport, setup.size, setup.cpu,
		     t->ops->responder_port(t), rec ? ", recording this side" : "");
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
			started = kernel || schedstat_read(pid, &s0) == 0;
			in_window = 1;
			answered0 = answered_now(kernel, answered);
			if (rec && o->recorder->start(rec, answered0) < 0) {
				serve_reply_error(&c, "cannot open this side's window");
				break;
			}
			reply(&c, "ok");
		} else if (!strcmp(line, "stop")) {
			uint64_t n = answered_now(kernel, answered);
			const char *bad = NULL;

			in_window = 0;
			if (rec && o->recorder->stop(rec, n) < 0) {
				serve_reply_error(&c, "cannot close this side's window");
				break;
			}
			if (!started) {
				serve_reply_error(&c, "stop without start");
				break;
			}
			if (stop_answer(out, sizeof(out), &setup, pid, kernel, &s0,
					n - answered0, &bad) < 0) {
				serve_reply_error(&c, bad);
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
	stop_responder(pid);
	if (t)
		t->ops->destroy(t);
	munmap((void *)answered, sizeof(*answered));
}

/* A new connection into the handshake, unless its address has
 * HANDSHAKE_PER_SOURCE there already or all HANDSHAKE_MAX are taken:
 * then it hears why and is closed. */
static void take_pending(int lfd, struct serve_pending *pend, int *npend,
			 const struct serve_config *o)
{
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	char line[160], addr[32];
	int fd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC), i, same = 0;

	if (fd < 0)
		return;
	for (i = 0; i < *npend; i++)
		same += pend[i].from.s_addr == peer.sin_addr.s_addr;
	if (same >= HANDSHAKE_PER_SOURCE || *npend >= HANDSHAKE_MAX) {
		inet_ntop(AF_INET, &peer.sin_addr, addr, sizeof(addr));
		snprintf(line, sizeof(line), "error busy: %d connections %s%s are "
			 "authenticating already; try again in a few seconds",
			 same >= HANDSHAKE_PER_SOURCE ? same : *npend,
			 same >= HANDSHAKE_PER_SOURCE ? "from " : "",
			 same >= HANDSHAKE_PER_SOURCE ? addr : "");
		control_write_line(fd, line);
		close(fd);
		return;
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
		/* from the last: drop_pending moves the last into i */
		for (i = npend - 1; i >= 0; i--) {
			int r = p[i + 1].revents ?
				serve_pending_step(&pend[i], o, &setup) : 0;

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
				if (!o->quiet)
					warning("serve: dropped a client from %s that did "
						"not authenticate within %d ms",
						pend[i].c.addr, HANDSHAKE_MS);
				serve_reply_error(&pend[i].c, "no authenticated setup "
						  "in time: dropped");
				drop_pending(pend, &npend, i);
			}
		}
		if (!served || !o->once)
			if (p[0].revents & POLLIN)
				take_pending(lfd, pend, &npend, o);
	}
	while (npend)
		drop_pending(pend, &npend, npend - 1);
	close(lfd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return code;
}
