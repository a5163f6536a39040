// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve: the responder side for `perpkt record --peer`, like
 * netperf's netserver. One client at a time: it sets transport, size
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
#include <unistd.h>

#include "commands/commands.h"
#include "workload/control.h"
#include "workload/cpu.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "reports/render.h"
#include "record/serve-recording.h"
#include "workload/transport.h"

static const char serve_usage[] =
"usage: perpkt serve [options]\n"
"\n"
"Answer 'perpkt record --peer' runs: a responder with a control channel.\n"
"\n"
"  -b, --bind ADDR        IPv4 address to listen on (default 127.0.0.1;\n"
"                         give the address a peer reaches this host by)\n"
"  -p, --port N           control port (default 12865)\n"
"  -1, --once             exit after one client\n"
"\n"
"One client at a time: others are told 'busy'. The data port answers\n"
"only the address that set the run up. Run as root (or with\n"
"CAP_PERFMON) it also records its own kernel over the client's window,\n"
"for the profile's remote side; otherwise the client is told why not.\n"
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
	uint16_t port;
	int once, quiet, help;
};

struct schedstat {
	uint64_t cpu_ns, wait_ns, switches;
};

static int read_schedstat(pid_t pid, struct schedstat *s)
{
	char path[64];
	unsigned long long a, b, c;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu %llu", &a, &b, &c);
	fclose(f);
	if (n != 3)
		return -1;
	s->cpu_ns = a;
	s->wait_ns = b;
	s->switches = c;
	return 0;
}

static void reply_error(int fd, const char *msg)
{
	char line[CONTROL_LINE_MAX];

	snprintf(line, sizeof(line), "error %.200s", msg);
	control_write_line(fd, line);
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

/* Wait for the client's next request: 1 when it is there, 0 after
 * limit_ms or when the connection failed, -1 on SIGINT/SIGTERM. A
 * recording's rings are emptied meanwhile. */
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
		if (p[1].revents & POLLIN)
			refuse_busy(lfd);
		if (p[0].revents)
			return 1;  /* data, EOF or an error: the read says */
	}
	return stop_serving ? -1 : 0;
}

/* The setup's answer: the port, a tcp run's token, and whether this
 * side is recorded (and why not). */
static void setup_answer(char *out, size_t len, struct transport *t,
			 uint64_t token, const struct control_setup *setup,
			 const struct serve_recording *rec, const char *why)
{
	size_t n = (size_t)snprintf(out, len, "ok port=%u", t->ops->responder_port(t));

	if (token && n < len)
		n += (size_t)snprintf(out + n, len - n, " token=%llu",
				      (unsigned long long)token);
	if (setup->profile && n < len)
		snprintf(out + n, len - n, rec ? " profile=1" : " profile=0 why=%s",
			 why);
}

/* "profile": this side's document, as "ok bytes=N" and N bytes. A
 * profile that cannot be made is an error answer, not a closed line. */
static void send_profile(int fd, struct serve_recording *rec, const char *why,
			 const struct serve_options *o)
{
	char out[CONTROL_LINE_MAX], err[200];
	char *text = NULL;
	size_t len = 0;

	if (!rec) {
		reply_error(fd, why[0] ? why : "this side was not recorded: ask "
			    "with profile=1 in the setup");
		return;
	}
	if (serve_recording_document(rec, "perpkt serve", &text, &len, err,
				     sizeof(err))) {
		reply_error(fd, err);
		return;
	}
	snprintf(out, sizeof(out), "ok bytes=%zu", len);
	if (control_write_line(fd, out) < 0 ||
	    transport_write_full(fd, text, len) < 0)
		warning("serve: the client went away during the profile");
	else if (!o->quiet)
		info("serve: sent this side's profile (%zu bytes)", len);
	free(text);
}

/* One client, from setup to close. */
static void serve_client(int fd, int lfd, const struct serve_options *o,
			 const struct sockaddr_in *bind_addr,
			 const struct sockaddr_in *peer)
{
	char line[CONTROL_LINE_MAX + 1], err[160], out[CONTROL_LINE_MAX],
	     why[200] = "";
	struct transport_config tc;
	struct control_setup setup;
	struct transport *t = NULL;
	struct serve_recording *rec = NULL;
	struct schedstat s0 = { 0 }, s1;
	volatile uint64_t *answered;
	uint64_t answered0 = 0;
	pid_t pid = -1;
	int started = 0;

	keepalive(fd);
	if (wait_request(fd, lfd, CONTROL_TIMEOUT_MS, NULL) <= 0) {
		if (!stop_serving && !o->quiet)
			warning("serve: dropped a client that sent nothing for %d ms",
				CONTROL_TIMEOUT_MS);
		return;
	}
	if (control_read_line(fd, line, sizeof(line), CONTROL_TIMEOUT_MS, err,
			      sizeof(err)) < 0 ||
	    control_parse_setup(line, &setup, err, sizeof(err)) < 0) {
		if (!o->quiet)
			warning("serve: rejected a client: %s", err);
		reply_error(fd, err);
		return;
	}
	if (setup.cpu >= 0 && cpu_check_usable(setup.cpu) < 0) {
		snprintf(err, sizeof(err), "cpu %d is not usable here", setup.cpu);
		reply_error(fd, err);
		return;
	}
	/* the responder counts what it answers where this process reads it */
	answered = mmap(NULL, sizeof(*answered), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (answered == MAP_FAILED) {
		reply_error(fd, "cannot map the responder's counter");
		return;
	}
	memset(&tc, 0, sizeof(tc));
	tc.size = setup.size;
	tc.addr = *bind_addr;
	tc.addr.sin_port = 0;
	tc.local_responder = 1;
	tc.only_from = peer->sin_addr;
	tc.answered = answered;
	/* tcp: a per-run secret as well, below 2^62 so it reads as int64 */
	if (!strcmp(setup.transport, "tcp") &&
	    getrandom(&tc.token, sizeof(tc.token), 0) == sizeof(tc.token))
		tc.token = (tc.token >> 2) | 1;
	if (transport_find(setup.transport)->create(&t, &tc) < 0) {
		reply_error(fd, "cannot create the responder's socket");
		goto unmap;
	}
	pid = fork_responder(t, setup.cpu);
	if (pid < 0) {
		reply_error(fd, "cannot fork a responder");
		goto out;
	}
	t->ops->release_responder(t);
	wait_responder_blocked(pid);
	if (setup.profile && serve_recording_open(&rec, &setup, pid, why,
						  sizeof(why)) < 0 && !o->quiet)
		warning("serve: not recording this side: %s", why);
	setup_answer(out, sizeof(out), t, tc.token, &setup, rec, why);
	if (control_write_line(fd, out) < 0)
		goto out;
	if (!o->quiet)
		info("serve: %s responder, %u-byte messages, cpu %d, port %u%s",
		     setup.transport, setup.size, setup.cpu,
		     t->ops->responder_port(t), rec ? ", recording this side" : "");
	while (wait_request(fd, lfd, IDLE_MS, rec) > 0) {
		if (control_read_line(fd, line, sizeof(line), CONTROL_TIMEOUT_MS,
				      err, sizeof(err)) < 0)
			break;
		if (!strcmp(line, "start")) {
			started = read_schedstat(pid, &s0) == 0;
			answered0 = *answered;
			if (rec && serve_recording_start(rec, answered0) < 0) {
				reply_error(fd, "cannot open this side's window");
				break;
			}
			control_write_line(fd, "ok");
		} else if (!strcmp(line, "stop")) {
			uint64_t n = *answered;

			if (rec && serve_recording_stop(rec, n) < 0) {
				reply_error(fd, "cannot close this side's window");
				break;
			}
			if (!started) {
				reply_error(fd, "stop without start");
				break;
			}
			if (read_schedstat(pid, &s1) < 0) {
				reply_error(fd, "the responder is gone");
				break;
			}
			/* a responder that answered anything woke up for it */
			if (s1.switches == s0.switches) {
				reply_error(fd, "no traffic reached the responder "
					    "between start and stop");
				break;
			}
			snprintf(out, sizeof(out), "ok cpu=%d cpu_ns=%llu wait_ns=%llu "
				 "switches=%llu answered=%llu", setup.cpu,
				 (unsigned long long)(s1.cpu_ns - s0.cpu_ns),
				 (unsigned long long)(s1.wait_ns - s0.wait_ns),
				 (unsigned long long)(s1.switches - s0.switches),
				 (unsigned long long)(n - answered0));
			control_write_line(fd, out);
		} else if (!strcmp(line, "profile")) {
			send_profile(fd, rec, why, o);
		} else {
			reply_error(fd, "unknown request: expected start, stop or "
				    "profile");
			break;
		}
	}
out:
	serve_recording_close(rec);
	stop_responder(pid);
	t->ops->destroy(t);
unmap:
	munmap((void *)answered, sizeof(*answered));
}

static int parse_args(int argc, char **argv, struct serve_options *o)
{
	static const struct option longopts[] = {
		{ "bind", required_argument, NULL, 'b' },
		{ "port", required_argument, NULL, 'p' },
		{ "once", no_argument, NULL, '1' },
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:p:1qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->bind = optarg;
			break;
		case 'p':
			if (parse_u64(optarg, "--port", 1, 65535, &v))
				return -1;
			o->port = (uint16_t)v;
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
	socklen_t plen;
	struct pollfd p;

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
		serve_client(fd, lfd, &o, &addr, &peer);
		close(fd);
		if (o.once)
			break;
	}
	close(lfd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return code;
}
