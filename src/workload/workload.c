// SPDX-License-Identifier: GPL-2.0-only
#include "workload.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "error.h"
#include "transport.h"

/* Longer than the reply timeout: the client may be waiting that long
 * for a lost reply before it reaches its next round-trip boundary. */
#define WAIT_TIMEOUT_MS (TRANSPORT_REPLY_TIMEOUT_MS + 4000)
#define POLL_NS 1000000L
#define STOP_GRACE_MS 1000
#define CHILD_ERROR_LEN 256
/* The client's watchdog tick; a reply is given up on after more than
 * TRANSPORT_REPLY_TIMEOUT_MS worth of ticks (1 to 1.25 s). */
#define TICK_MS 250
#define TIMEOUT_TICKS (TRANSPORT_REPLY_TIMEOUT_MS / TICK_MS)

/* Counted by the client's SIGALRM handler; the only mutable global. */
static volatile sig_atomic_t client_ticks;

/*
 * Window handshake: the parent moves RUN/CLOSED -> OPEN_REQ and
 * OPEN -> CLOSE_REQ; the client answers with OPEN and CLOSED at a
 * round-trip boundary, after it has enabled or disabled the counters.
 */
enum phase {
	PHASE_RUN,
	PHASE_OPEN_REQ,
	PHASE_OPEN,
	PHASE_CLOSE_REQ,
	PHASE_CLOSED,
};

/* The block shared by parent, client and responder (MAP_SHARED). */
struct shared {
	/* read by the client every round trip, written by the parent */
	alignas(64) _Atomic int phase;
	/* written by the client every round trip; own cache line */
	alignas(64) _Atomic uint64_t progress;
	/* published by the client before it acknowledges a close */
	alignas(64) uint64_t round_trips;
	uint64_t window_ns;
	uint64_t timeouts;
	uint64_t late_replies;
	struct histogram hist;
	/* indexed by enum role: each child writes only its own, then exits */
	char error[2][CHILD_ERROR_LEN];
};

struct workload {
	struct shared *sh;
	struct transport *t;
	pid_t pid[2];		/* by ROLE_CLIENT, ROLE_RESPONDER; 0 if not forked */
	int reaped[2];
	int cpu[2];
	uint32_t size;
	int *fds;
	int nfds;
	int failed;		/* a child died or stopped answering */
	char err[CHILD_ERROR_LEN + 64];
};

static const char *const role_word[2] = {
	[ROLE_CLIENT] = "client",
	[ROLE_RESPONDER] = "responder",
};

static const struct transport_ops *const transports[] = {
	&transport_udp,
};

const struct transport_ops *transport_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(transports) / sizeof(transports[0]); i++)
		if (!strcmp(transports[i]->name, name))
			return transports[i];
	return NULL;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_poll(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = POLL_NS };

	nanosleep(&ts, NULL);
}

/* In a child: record why it fails, for the parent to report, and exit
 * without flushing stdio buffers copied from the parent. */
static __attribute__((noreturn, format(printf, 3, 4)))
void child_fail(struct workload *w, enum role r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->sh->error[r], CHILD_ERROR_LEN, fmt, ap);
	va_end(ap);
	_exit(1);
}

static void child_setup(struct workload *w, enum role r, pid_t parent)
{
	sigset_t none;
	int ret;

	/* die with the parent (strictly: the forking thread), even if it
	 * died before prctl took effect */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	/* Ctrl-C is for the parent, which then closes the window cleanly;
	 * SIGTERM must stop us whatever handler the parent installed */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	ret = cpu_pin_self(w->cpu[r]);
	if (ret < 0)
		child_fail(w, r, "cannot pin workload %s to cpu %d: %s",
			   role_word[r], w->cpu[r], strerror(-ret));
}

static void set_counters(struct workload *w, unsigned long req,
			 const char *verb)
{
	int i;

	for (i = 0; i < w->nfds; i++)
		if (ioctl(w->fds[i], req, 0) < 0)
			child_fail(w, ROLE_CLIENT, "cannot %s perf event (fd %d): %s",
				   verb, w->fds[i], strerror(errno));
}

static void on_tick(int sig)
{
	client_ticks++;
}

/*
 * A coarse interval timer instead of a receive timeout: a timeout arms
 * and cancels a kernel timer on every blocking recv (about 1% of a
 * loopback round trip, and visible in the profile); the tick costs a
 * few microseconds four times a second.
 */
static void start_tick(struct workload *w)
{
	struct sigaction sa;
	struct itimerval it = {
		.it_interval = { 0, TICK_MS * 1000 },
		.it_value = { 0, TICK_MS * 1000 },
	};

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the tick must interrupt a blocked recv */
	if (sigaction(SIGALRM, &sa, NULL) < 0 ||
	    setitimer(ITIMER_REAL, &it, NULL) < 0)
		child_fail(w, ROLE_CLIENT, "cannot start workload client timer: %s",
			   strerror(errno));
}

static __attribute__((noreturn)) void responder_main(struct workload *w)
{
	w->t->ops->respond(w->t, w->sh->error[ROLE_RESPONDER], CHILD_ERROR_LEN);
	_exit(1);
}

/*
 * The measured loop. Outside the window it only ping-pongs (warm-up);
 * inside, one clock read per round trip: each sample runs from the
 * previous reply to this one, so the samples tile the window exactly.
 */
static __attribute__((noreturn)) void client_main(struct workload *w)
{
	struct shared *sh = w->sh;
	struct transport *t = w->t;
	const struct transport_ops *ops = t->ops;
	size_t size = w->size, seqlen = size < 8 ? size : 8;
	char sbuf[TRANSPORT_MAX_MESSAGE], rbuf[TRANSPORT_MAX_MESSAGE + 1];
	uint64_t seq = 0, total = 0, rts = 0, timeouts = 0, late = 0;
	uint64_t start = 0, prev = 0, t1;
	int in_window = 0, ph;
	sig_atomic_t sent_tick;
	ssize_t n;

	if (ops->client_open(t, sh->error[ROLE_CLIENT], CHILD_ERROR_LEN) < 0)
		_exit(1);
	memset(sbuf, 0, size);
	start_tick(w);

	for (;;) {
		/* a sequence number tells a late reply from the current one */
		seq++;
		memcpy(sbuf, &seq, seqlen);
		sent_tick = client_ticks;
		while (ops->send(t, sbuf, size) < 0)
			if (errno != EINTR)
				child_fail(w, ROLE_CLIENT,
					   "workload client cannot send: %s",
					   strerror(errno));
		for (;;) {
			n = ops->recv(t, rbuf, sizeof(rbuf));
			if (n == (ssize_t)size && !memcmp(rbuf, sbuf, seqlen))
				break;
			if (n >= 0) {
				late++;
				continue;
			}
			if (errno != EINTR)
				child_fail(w, ROLE_CLIENT,
					   "workload client cannot receive: %s",
					   strerror(errno));
			if (client_ticks - sent_tick > TIMEOUT_TICKS)
				break;
		}

		if (n < 0) {
			/* lost: re-send under a new number, leave it uncounted */
			timeouts++;
			if (in_window)
				prev = now_ns();
		} else {
			atomic_store_explicit(&sh->progress, ++total,
					      memory_order_relaxed);
			if (in_window) {
				t1 = now_ns();
				histogram_add(&sh->hist, t1 - prev);
				prev = t1;
				rts++;
			}
		}

		ph = atomic_load_explicit(&sh->phase, memory_order_acquire);
		if (ph == PHASE_OPEN_REQ) {
			set_counters(w, PERF_EVENT_IOC_ENABLE, "enable");
			histogram_init(&sh->hist);
			rts = timeouts = late = 0;
			start = prev = now_ns();
			in_window = 1;
			atomic_store_explicit(&sh->phase, PHASE_OPEN,
					      memory_order_release);
		} else if (ph == PHASE_CLOSE_REQ) {
			set_counters(w, PERF_EVENT_IOC_DISABLE, "disable");
			in_window = 0;
			sh->round_trips = rts;
			sh->window_ns = prev - start;
			sh->timeouts = timeouts;
			sh->late_replies = late;
			atomic_store_explicit(&sh->phase, PHASE_CLOSED,
					      memory_order_release);
		}
	}
}

/* Describe how child `r` ended, from its own message when it left one;
 * status < 0 when it was reaped elsewhere and the status is unknown. */
static void describe_exit(struct workload *w, enum role r, int status)
{
	const char *msg = w->sh->error[r];

	if (msg[0] && (status < 0 || WIFEXITED(status)))
		snprintf(w->err, sizeof(w->err), "workload %s failed: %.*s",
			 role_word[r], CHILD_ERROR_LEN, msg);
	else if (status < 0)
		snprintf(w->err, sizeof(w->err), "workload %s (pid %d) is gone",
			 role_word[r], (int)w->pid[r]);
	else if (WIFSIGNALED(status))
		snprintf(w->err, sizeof(w->err),
			 "workload %s (pid %d) was killed by signal %d (%s)",
			 role_word[r], (int)w->pid[r], WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(w->err, sizeof(w->err),
			 "workload %s (pid %d) exited with status %d",
			 role_word[r], (int)w->pid[r], WEXITSTATUS(status));
	else
		snprintf(w->err, sizeof(w->err), "workload %s (pid %d) stopped",
			 role_word[r], (int)w->pid[r]);
}

/* -1 (printed) if a child has died; the responder first, since its
 * death is what makes the client fail too. */
static int check_children(struct workload *w)
{
	static const enum role order[] = { ROLE_RESPONDER, ROLE_CLIENT };
	int status = 0;
	size_t i;
	pid_t ret;

	if (w->failed)
		return error("%s", w->err);
	for (i = 0; i < 2; i++) {
		enum role r = order[i];

		if (!w->pid[r] || w->reaped[r])
			continue;
		ret = waitpid(w->pid[r], &status, WNOHANG);
		if (ret == 0 || (ret < 0 && errno == EINTR))
			continue;
		/* ECHILD: someone else reaped it (SIGCHLD ignored) */
		w->reaped[r] = 1;
		if (ret < 0)
			status = -1;
		describe_exit(w, r, status);
		w->failed = 1;
		return error("%s", w->err);
	}
	return 0;
}

static int phase_is(struct workload *w, int want)
{
	return atomic_load_explicit(&w->sh->phase, memory_order_acquire) == want;
}

static int first_round_trip(struct workload *w, int unused)
{
	return atomic_load_explicit(&w->sh->progress, memory_order_relaxed) > 0;
}

/* Poll until done(w, arg); fail if a child dies or time runs out. */
static int wait_client(struct workload *w, int (*done)(struct workload *, int),
		       int arg, const char *what)
{
	uint64_t deadline = now_ns() + WAIT_TIMEOUT_MS * 1000000ull;

	for (;;) {
		if (done(w, arg))
			return 0;
		if (check_children(w) < 0)
			return -1;
		if (now_ns() > deadline) {
			w->failed = 1;
			snprintf(w->err, sizeof(w->err),
				 "workload client (pid %d) did not %s within %d ms",
				 (int)w->pid[ROLE_CLIENT], what, WAIT_TIMEOUT_MS);
			return error("%s", w->err);
		}
		sleep_poll();
	}
}

static int check_config(const struct workload_config *c,
			const struct transport_ops **ops)
{
	const char *name = c->transport ? c->transport : "udp";

	*ops = transport_find(name);
	if (!*ops)
		return error("unknown transport '%s': use 'udp'", name);
	if (c->network && strcmp(c->network, "loopback"))
		return error("unsupported network '%s': only 'loopback' is "
			     "implemented", c->network);
	if (c->message_size < 1 || c->message_size > TRANSPORT_MAX_MESSAGE)
		return error("invalid message size '%u': use 1 to %u bytes",
			     c->message_size, TRANSPORT_MAX_MESSAGE);
	if (c->nwindow_fds < 0 || (c->nwindow_fds > 0 && !c->window_fds))
		return error("invalid perf fd list for the workload window");
	if (cpu_check_usable(c->client_cpu) < 0 ||
	    cpu_check_usable(c->server_cpu) < 0)
		return -1;
	return 0;
}

static int fork_child(struct workload *w, enum role r)
{
	pid_t parent = getpid(), pid;

	pid = fork();
	if (pid < 0)
		return error("cannot fork workload %s: %s", role_word[r],
			     strerror(errno));
	if (pid == 0) {
		child_setup(w, r, parent);
		if (r == ROLE_RESPONDER)
			responder_main(w);
		client_main(w);
	}
	w->pid[r] = pid;
	return 0;
}

int workload_start(struct workload **out, const struct workload_config *c)
{
	const struct transport_ops *ops;
	struct workload *w;
	void *map;

	*out = NULL;
	if (check_config(c, &ops) < 0)
		return -1;

	w = calloc(1, sizeof(*w));
	if (!w)
		return error("cannot start workload: out of memory");
	w->cpu[ROLE_CLIENT] = c->client_cpu;
	w->cpu[ROLE_RESPONDER] = c->server_cpu;
	w->size = c->message_size;
	if (c->nwindow_fds > 0) {
		w->fds = malloc(c->nwindow_fds * sizeof(*w->fds));
		if (!w->fds) {
			free(w);
			return error("cannot start workload: out of memory");
		}
		memcpy(w->fds, c->window_fds, c->nwindow_fds * sizeof(*w->fds));
		w->nfds = c->nwindow_fds;
	}

	map = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		error("cannot map workload control block: %s", strerror(errno));
		goto fail;
	}
	w->sh = map;	/* zero-filled: PHASE_RUN, empty histogram */

	if (ops->create(&w->t, c) < 0)
		goto fail;
	if (fork_child(w, ROLE_RESPONDER) < 0)
		goto fail;
	ops->release_responder(w->t);
	if (fork_child(w, ROLE_CLIENT) < 0)
		goto fail;
	if (wait_client(w, first_round_trip, 0, "complete a first round trip") < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	workload_stop(w);
	return -1;
}

pid_t workload_client_pid(const struct workload *w)
{
	return w->pid[ROLE_CLIENT];
}

pid_t workload_responder_pid(const struct workload *w)
{
	return w->pid[ROLE_RESPONDER];
}

int workload_window_open(struct workload *w)
{
	int ph;

	if (check_children(w) < 0)
		return -1;
	ph = atomic_load_explicit(&w->sh->phase, memory_order_acquire);
	if (ph != PHASE_RUN && ph != PHASE_CLOSED)
		return error("cannot open the workload window: it is already open");
	atomic_store_explicit(&w->sh->phase, PHASE_OPEN_REQ, memory_order_release);
	return wait_client(w, phase_is, PHASE_OPEN, "open the window");
}

int workload_window_close(struct workload *w, struct workload_result *res)
{
	struct shared *sh = w->sh;

	memset(res, 0, sizeof(*res));
	if (check_children(w) < 0)
		goto fail;
	if (!phase_is(w, PHASE_OPEN)) {
		error("cannot close the workload window: it is not open");
		snprintf(res->error, sizeof(res->error), "window not open");
		res->failed = 1;
		return -1;
	}
	atomic_store_explicit(&sh->phase, PHASE_CLOSE_REQ, memory_order_release);
	if (wait_client(w, phase_is, PHASE_CLOSED, "close the window") < 0)
		goto fail;

	res->round_trips = sh->round_trips;
	res->window_ns = sh->window_ns;
	res->timeouts = sh->timeouts;
	res->late_replies = sh->late_replies;
	res->latency = sh->hist;
	return 0;
fail:
	res->failed = 1;
	snprintf(res->error, sizeof(res->error), "%.*s",
		 (int)sizeof(res->error) - 1, w->err);
	return -1;
}

/* Reap whatever has exited; 1 when no child is left. */
static int reap_some(struct workload *w, int flags)
{
	int r, left = 0;
	pid_t ret;

	for (r = 0; r < 2; r++) {
		if (!w->pid[r] || w->reaped[r])
			continue;
		do
			ret = waitpid(w->pid[r], NULL, flags);
		while (ret < 0 && errno == EINTR);
		if (ret == 0)
			left++;
		else
			w->reaped[r] = 1;
	}
	return !left;
}

void workload_stop(struct workload *w)
{
	uint64_t deadline;
	int r;

	if (!w)
		return;
	/* signal only children not yet reaped: a reaped pid may be reused */
	for (r = 0; r < 2; r++)
		if (w->pid[r] && !w->reaped[r])
			kill(w->pid[r], SIGTERM);
	deadline = now_ns() + STOP_GRACE_MS * 1000000ull;
	while (!reap_some(w, WNOHANG) && now_ns() < deadline)
		sleep_poll();
	for (r = 0; r < 2; r++)
		if (w->pid[r] && !w->reaped[r])
			kill(w->pid[r], SIGKILL);
	reap_some(w, 0);

	if (w->t)
		w->t->ops->destroy(w->t);
	if (w->sh)
		munmap(w->sh, sizeof(struct shared));
	free(w->fds);
	free(w);
}
