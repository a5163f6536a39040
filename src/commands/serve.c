// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve: the responder side for `perpkt record --peer`, like
 * netperf's netserver. One client at a time, and only one that holds
 * serve's key (src/workload/control-auth.h): it sets transport, size
 * and CPU over the control connection (src/workload/control.h), then
 * brackets its window with start and stop and gets back the responder's
 * own CPU time over the window. When the client asks and this process
 * may sample, it records this side's kernel over the same windows and
 * hands the profile over at the end (src/record/serve-recording.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
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
#include <sodium.h>
#include <unistd.h>

#include "commands/commands.h"
#include "workload/control-auth.h"
#include "workload/control.h"
#include "workload/cpu.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "reports/render.h"
#include "record/serve-recording.h"
#include "system/procfile.h"
#include "system/schedstat.h"
#include "system/unit.h"
#include "workload/transport.h"

static const char serve_usage[] =
"usage: perpkt serve [options]\n"
"\n"
"Answer 'perpkt record --peer' runs: a responder with a control channel.\n"
"\n"
"  -b, --bind ADDR        IPv4 address to listen on (default 127.0.0.1;\n"
"                         give the address a peer reaches this host by)\n"
"  -p, --port N           control port (default 12865)\n"
"  -k, --key FILE         the key clients must hold (default\n"
"                         ~/.config/perpkt/serve.key; made, mode 0600,\n"
"                         when missing): copy it to each client host,\n"
"                         for record's peer-key option\n"
"  -1, --once             exit after one client\n"
"\n"
"A client proves it holds the key (a challenge and a mac on every\n"
"message; the key never crosses the wire) before it gets anything: a\n"
"responder, this host's conditions, a profile. One client at a time:\n"
"others are told 'busy'; a client that does not start within its\n"
"warm-up and 10 s is dropped. The data port answers only the address\n"
"that set the run up. Run as root (or with CAP_PERFMON) it also\n"
"records its own kernel over the client's window, for the profile's\n"
"remote side, saying who asked; otherwise the client is told why not.\n"
"Over icmp no responder runs: this host's kernel answers the echo\n"
"requests, and this side is per echo reply it sent in the window\n"
"(/proc/net/snmp's Icmp OutEchoReps: anyone's pings count too).\n"
"\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

/* A client is silent for its whole warm-up and window, so the wait for
 * its next request is long; a dead or half-open connection is found in
 * seconds by TCP keepalive instead (KEEPIDLE + KEEPCNT * KEEPINTVL). */
#define IDLE_MS (10 * 60 * 1000)
#define KEEPIDLE_S 2
#define KEEPINTVL_S 1
#define KEEPCNT 3
#define BUSY_REPLY "error busy: perpkt serve is measuring for another client; try again when it is done"

static volatile sig_atomic_t stop_serving;

static void on_signal(int sig)
{
	stop_serving = sig;
}

struct serve_options {
	const char *bind;
	const char *key;
	uint16_t port;
	int once, quiet, help;
};

/* One client's connection: its key state once it said hello, and who
 * it says it is once its setup is authenticated. */
struct client {
	int fd;
	struct control_auth auth;
	int authenticated;
	char addr[32];
	char who[200];           /* "user U on host H from ADDR, ..." */
};

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

/* Sealed once the client is authenticated, in the clear before. */
static void reply_error(struct client *c, const char *msg)
{
	char line[CONTROL_LINE_MAX];

	snprintf(line, sizeof(line), "error %.300s", msg);
	if (c->authenticated)
		control_send(c->fd, &c->auth, line);
	else
		control_write_line(c->fd, line);
}

static int reply(struct client *c, const char *line)
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

/* Wait for the client's next request: 1 when it is there (or the
 * connection ended: the read says), 0 after limit_ms, -1 on
 * SIGINT/SIGTERM. A recording's rings are emptied meanwhile. Someone
 * else connecting hears "busy", unless the client has just gone: then
 * the newcomer waits in the backlog for the next accept. */
static int wait_request(int fd, int lfd, int limit_ms,
			struct serve_recording *rec)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
			       { .fd = lfd, .events = POLLIN } };
	int waited = 0, step = rec ? 50 : 200;

	while (!stop_serving && waited < limit_ms) {
		int r = poll(p, 2, step);

		serve_recording_drain(rec);
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
 * tcp run's token, and whether this side is recorded (and why not). */
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
static void send_profile(struct client *c, struct serve_recording *rec,
			 const char *why, const struct serve_options *o)
{
	char out[CONTROL_LINE_MAX], err[200], sum[65];
	char *text = NULL;
	size_t len = 0;

	if (!rec) {
		reply_error(c, why[0] ? why : "this side was not recorded: ask "
			    "with profile=1 in the setup");
		return;
	}
	if (serve_recording_document(rec, "perpkt serve", c->who, &text, &len,
				     err, sizeof(err))) {
		reply_error(c, err);
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

/* hello, the nonces, and the setup with a mac only the key's holder can
 * make: 0 with the setup in *setup, -1 after answering why not. */
static int handshake(struct client *c, int lfd, const struct serve_options *o,
		     struct control_setup *setup)
{
	char line[CONTROL_LINE_MAX + 1], err[200], out[CONTROL_LINE_MAX];

	if (wait_request(c->fd, lfd, CONTROL_TIMEOUT_MS, NULL) <= 0) {
		if (!stop_serving && !o->quiet)
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
		reply_error(c, err);
		return -1;
	}
	control_auth_nonce(&c->auth);
	snprintf(out, sizeof(out), "ok nonce=%s key=%s",
		 c->auth.nonce[CONTROL_SERVE], c->auth.id);
	if (control_write_line(c->fd, out) < 0 ||
	    wait_request(c->fd, lfd, CONTROL_TIMEOUT_MS, NULL) <= 0 ||
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
		reply_error(c, err);
		return -1;
	}
	c->authenticated = 1;
	if (control_parse_setup(line, setup, err, sizeof(err)) < 0) {
		if (!o->quiet)
			warning("serve: rejected a client from %s: %s", c->addr, err);
		reply_error(c, err);
		return -1;
	}
	snprintf(c->who, sizeof(c->who), "user %s on host %s from %s, "
		 "authenticated (key %s)", setup->user, setup->host, c->addr,
		 c->auth.id);
	if (!o->quiet)
		info("serve: %s", c->who);
	return 0;
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
static int start_responder(struct client *c, struct control_setup *setup,
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
			reply_error(c, "cannot read the Icmp counters of /proc/net/snmp here");
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
	/* tcp: a per-run secret as well, below 2^62 so it reads as int64 */
	if (!strcmp(setup->transport, "tcp") &&
	    getrandom(&tc.token, sizeof(tc.token), 0) == sizeof(tc.token))
		tc.token = (tc.token >> 2) | 1;
	*token = tc.token;
	if (ops->create(t, &tc) < 0) {
		reply_error(c, "cannot create the responder's socket");
		return -1;
	}
	*pid = fork_responder(*t, setup->cpu);
	if (*pid < 0) {
		reply_error(c, "cannot fork a responder");
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

/* One client, from hello to close. */
static void serve_client(int fd, int lfd, const struct serve_options *o,
			 const struct control_auth *key,
			 const struct sockaddr_in *bind_addr,
			 const struct sockaddr_in *peer)
{
	char line[CONTROL_LINE_MAX + 1], err[160], out[CONTROL_LINE_MAX],
	     why[200] = "";
	struct client c = { .fd = fd, .auth = *key };
	struct control_setup setup;
	struct transport *t = NULL;
	struct serve_recording *rec = NULL;
	struct schedstat s0 = { 0 };
	volatile uint64_t *answered;
	uint64_t answered0 = 0, token = 0;
	pid_t pid = -1;
	int started = 0, in_window = 0, limit, r, kernel = 0;

	c.auth.side = CONTROL_SERVE;
	inet_ntop(AF_INET, &peer->sin_addr, c.addr, sizeof(c.addr));
	keepalive(fd);
	if (handshake(&c, lfd, o, &setup) < 0)
		return;
	if (setup.cpu >= 0 && cpu_check_usable(setup.cpu) < 0) {
		snprintf(err, sizeof(err), "cpu %d is not usable here", setup.cpu);
		reply_error(&c, err);
		return;
	}
	/* the responder counts what it answers where this process reads it */
	answered = mmap(NULL, sizeof(*answered), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (answered == MAP_FAILED) {
		reply_error(&c, "cannot map the responder's counter");
		return;
	}
	if (start_responder(&c, &setup, bind_addr, peer, answered, &t, &token,
			    &pid, &kernel) < 0)
		goto out;
	if (setup.profile && serve_recording_open(&rec, &setup, kernel ? 0 : pid,
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
		r = wait_request(fd, lfd, limit, rec);
		if (r == 0) {
			/* an idle client must not keep others on "busy" */
			snprintf(err, sizeof(err), "no %s within %d ms: dropped",
				 started ? "request" : "start after the setup", limit);
			if (!o->quiet)
				warning("serve: dropped the client %s: %s", c.who, err);
			reply_error(&c, err);
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
			if (rec && serve_recording_start(rec, answered0) < 0) {
				reply_error(&c, "cannot open this side's window");
				break;
			}
			reply(&c, "ok");
		} else if (!strcmp(line, "stop")) {
			uint64_t n = answered_now(kernel, answered);
			const char *bad = NULL;

			in_window = 0;
			if (rec && serve_recording_stop(rec, n) < 0) {
				reply_error(&c, "cannot close this side's window");
				break;
			}
			if (!started) {
				reply_error(&c, "stop without start");
				break;
			}
			if (stop_answer(out, sizeof(out), &setup, pid, kernel, &s0,
					n - answered0, &bad) < 0) {
				reply_error(&c, bad);
				break;
			}
			reply(&c, out);
		} else if (!strcmp(line, "profile")) {
			send_profile(&c, rec, why, o);
		} else {
			reply_error(&c, "unknown request: expected start, stop or "
				    "profile");
			break;
		}
	}
out:
	serve_recording_close(rec);
	stop_responder(pid);
	if (t)
		t->ops->destroy(t);
	munmap((void *)answered, sizeof(*answered));
}

static int parse_args(int argc, char **argv, struct serve_options *o)
{
	static const struct option longopts[] = {
		{ "bind", required_argument, NULL, 'b' },
		{ "port", required_argument, NULL, 'p' },
		{ "key", required_argument, NULL, 'k' },
		{ "once", no_argument, NULL, '1' },
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:p:k:1qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->bind = optarg;
			break;
		case 'p':
			if (parse_u64(optarg, "--port", 1, 65535, &v))
				return -1;
			o->port = (uint16_t)v;
			break;
		case 'k':
			o->key = optarg;
			break;
		case '1':
			o->once = 1;
			break;
		case 'q':
			o->quiet = 1;
			parse_verbosity(c);
			break;
		case 'v':
			parse_verbosity(c);
			break;
		case 'h':
			o->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_options o = { .bind = "127.0.0.1", .port = CONTROL_DEFAULT_PORT };
	struct sigaction sa = { .sa_handler = on_signal };
	struct sockaddr_in addr = { .sin_family = AF_INET };
	int lfd, fd, one = 1, code = RESULT_OK;
	struct sockaddr_in peer;
	struct control_auth key;
	char keypath[4096], err[400];
	socklen_t plen;
	struct pollfd p;
	int made;

	if (parse_args(argc, argv, &o)) {
		help_error(serve_usage, NULL);
		return RESULT_USAGE;
	}
	if (o.help) {
		help_show(serve_usage, NULL);
		return RESULT_OK;
	}
	if (inet_pton(AF_INET, o.bind, &addr.sin_addr) != 1) {
		error("invalid --bind address '%s': give an IPv4 address", o.bind);
		return RESULT_USAGE;
	}
	addr.sin_port = htons(o.port);
	if (!o.key && control_key_default(keypath, sizeof(keypath))) {
		error("no home for the key: give --key FILE");
		return RESULT_USAGE;
	}
	if (o.key)
		snprintf(keypath, sizeof(keypath), "%s", o.key);
	if (control_key_load_or_make(&key, keypath, &made, err, sizeof(err))) {
		error("%s", err);
		return RESULT_FAILURE;
	}
	if (!o.quiet)
		info("serve: %s key %s in '%s': copy that file to each client "
		     "host (mode 0600) and give it to record --peer-key",
		     made ? "made the new" : "clients authenticate with", key.id,
		     keypath);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return error("cannot create a socket: %s", strerror(errno)),
		       RESULT_FAILURE;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(lfd, 4) < 0) {
		error("cannot listen on '%s:%u': %s%s", o.bind, o.port,
		      strerror(errno), errno == EADDRINUSE ?
		      ": another perpkt serve? choose another --port" : "");
		close(lfd);
		return RESULT_FAILURE;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!o.quiet)
		info("serve: listening on %s:%u", o.bind, o.port);
	while (!stop_serving) {
		p.fd = lfd;
		p.events = POLLIN;
		if (poll(&p, 1, 200) <= 0)
			continue;
		plen = sizeof(peer);
		fd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		serve_client(fd, lfd, &o, &key, &addr, &peer);
		close(fd);
		if (o.once)
			break;
	}
	close(lfd);
	sodium_memzero(&key, sizeof(key));
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return code;
}
