// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measuring client loop, in the forked client: it sends each request,
 * waits for the answer, times the round trip, and opens and closes the
 * counters' window. Nothing here allocates or writes to stdio: it runs
 * in a process forked from perpkt (child.c sets it up).
 */
#include "workload/workload-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "system/unit.h"
#include "workload/marks.h"

/* Counted by the client's SIGALRM handler; the only mutable global. */
static volatile sig_atomic_t client_ticks;

#define role_word workload_role_word

/* The client's window counters into the shared block. */
static void publish(struct workload *w, const struct client_state *cs)
{
	struct shared *sh = w->sh;

	sh->round_trips = cs->rts;
	sh->window_ns = cs->prev - cs->start;
	sh->timeouts = cs->timeouts;
	sh->late_replies = cs->late;
	sh->duplicates = cs->dups;
}

/* In a child: record why it fails, for the parent to report, and exit
 * without flushing stdio buffers copied from the parent. A client that
 * fails inside the window (its responder died) first stops the counters
 * and publishes what it counted, so the run is kept as a partial one. */
void workload_child_fail(struct workload *w, enum role r, const char *fmt, ...)
{
	va_list ap;
	int i;

	if (r == ROLE_CLIENT && w->cs && w->cs->in_window) {
		for (i = 0; i < w->nfds; i++)
			ioctl(w->fds[i], PERF_EVENT_IOC_DISABLE, 0);
		publish(w, w->cs);
		__atomic_store_n(&w->sh->partial, 1, __ATOMIC_RELEASE);
	}
	va_start(ap, fmt);
	vsnprintf(w->sh->error[r], CHILD_ERROR_LEN, fmt, ap);
	va_end(ap);
	_exit(1);
}


static void set_counters(struct workload *w, unsigned long req,
			 const char *verb)
{
	int i;

	for (i = 0; i < w->nfds; i++)
		if (ioctl(w->fds[i], req, 0) < 0)
			workload_child_fail(w, ROLE_CLIENT, "cannot %s perf event (fd %d): %s",
				   verb, w->fds[i], strerror(errno));
}

/* A small /proc file into buf, NUL-terminated, with one read: nothing
 * allocated in a child. -1 when it cannot be read or is empty. */
static int read_proc(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* /proc/net/snmp's Udp InDatagrams (counted as a socket reads one),
 * or with icmp its Icmp InEchoReps. */
static int read_udp_in(const struct flow_gate *g, uint64_t *v)
{
	char buf[8192];

	if (read_proc("/proc/net/snmp", buf, sizeof(buf)))
		return -1;
	return g->read_icmp ? unit_snmp_value(buf, "Icmp", "InEchoReps", v) :
			      unit_snmp_value(buf, "Udp", "InDatagrams", v);
}

/* A task's CPU time so far (the first number of /proc/PID/schedstat);
 * -1 when it cannot be read. */
static int read_task_ns(pid_t pid, uint64_t *ns)
{
	char path[48], buf[128], *end;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (read_proc(path, buf, sizeof(buf)))
		return -1;
	*ns = strtoull(buf, &end, 10);
	return end == buf ? -1 : 0;
}

/* Every flow's client and responder CPU time, summed by role: read at
 * the edge, where every flow is stopped between two round trips. */
static void tasks_cpu(struct workload *w, uint64_t sum[2])
{
	uint64_t v;
	int i, r;

	sum[ROLE_CLIENT] = sum[ROLE_RESPONDER] = 0;
	for (i = 0; i < w->nflows; i++)
		for (r = 0; r < 2; r++) {
			pid_t pid = w->flows[i].sh->pid[r];

			if (!pid)
				continue;
			if (read_task_ns(pid, &v) < 0)
				w->gate->cpu_bad = 1;
			else
				sum[r] += v;
		}
}

/* The counters' edge of a window: on at its start, off at its end; the
 * datagram count and the tasks' CPU time read outside them. Not the
 * CPU time in exact mode (--window-marks, in a guest): with those reads
 * t0816 counted 1.99983 calls of udp_sendmsg per round trip, not 2
 * (the instruction clock's CPU time is the guest's own anyway); there
 * window.c takes it from its /proc snapshots, as before. */
static void counters_edge(struct workload *w, int open)
{
	struct flow_gate *g = w->gate;
	uint64_t v = 0, cpu[2];

	if (open) {
		if (g->read_udp && read_udp_in(g, &g->udp_open) < 0)
			g->udp_bad = 1;
		if (w->window_marks)
			g->cpu_bad = 1;  /* window.c reads /proc instead */
		else
			tasks_cpu(w, g->cpu_open);
		set_counters(w, PERF_EVENT_IOC_ENABLE, "enable");
		if (w->window_marks)
			workload_mark(1);
	} else {
		if (w->window_marks)
			workload_mark(0);
		set_counters(w, PERF_EVENT_IOC_DISABLE, "disable");
		if (g->read_udp && read_udp_in(g, &v) < 0)
			g->udp_bad = 1;
		g->udp_in = v - g->udp_open;
		if (w->window_marks)
			return;
		tasks_cpu(w, cpu);
		g->cpu_win[ROLE_CLIENT] = cpu[ROLE_CLIENT] - g->cpu_open[ROLE_CLIENT];
		g->cpu_win[ROLE_RESPONDER] = cpu[ROLE_RESPONDER] -
					     g->cpu_open[ROLE_RESPONDER];
	}
}

/*
 * A window's edge, with every flow's client stopped at a round-trip
 * boundary (with one flow at once): the last client to arrive turns
 * the counters on or off and lets the others go, so no flow's round
 * trip is half in the window, none runs uncounted while the counters
 * are on. The wait is a futex (the tick interrupts it; a flow that
 * died is the parent's to notice).
 */
static void flows_gate(struct workload *w, int open)
{
	struct flow_gate *g = w->gate;
	uint32_t gen = __atomic_load_n(&g->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&g->arrived, 1, __ATOMIC_ACQ_REL) ==
	    (uint32_t)w->nflows) {
		__atomic_store_n(&g->arrived, 0, __ATOMIC_RELAXED);
		counters_edge(w, open);
		__atomic_store_n(&g->gen, gen + 1, __ATOMIC_RELEASE);
		if (w->nflows > 1)
			syscall(SYS_futex, &g->gen, FUTEX_WAKE, INT_MAX, NULL,
				NULL, 0);
		return;
	}
	while (__atomic_load_n(&g->gen, __ATOMIC_ACQUIRE) == gen)
		syscall(SYS_futex, &g->gen, FUTEX_WAIT, gen, NULL, NULL, 0);
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
		workload_child_fail(w, ROLE_CLIENT, "cannot start workload client timer: %s",
			   strerror(errno));
}


static void gap(const struct workload *w)
{
	struct timespec ts;
	uint64_t end;

	if (w->gap_spin) {
		end = now_ns() + w->gap_ns;
		while (now_ns() < end)
			;
		return;
	}
	ts.tv_sec = (time_t)(w->gap_ns / 1000000000u);
	ts.tv_nsec = (long)(w->gap_ns % 1000000000u);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A reply that is not to the current request: to an answered one
 * (duplicate) or to one given up on (late, out of order). */
static void count_stray(struct client_state *cs, const uint64_t *answered,
			const char *rbuf, size_t seqlen)
{
	uint64_t r = 0;

	if (seqlen == sizeof(r)) {
		memcpy(&r, rbuf, sizeof(r));
		if (r && answered[r % SEQ_RING] == r) {
			cs->dups++;
			return;
		}
	}
	cs->late++;
}

/* One request answered: counted, and timed from `sent`, or from the
 * previous answer when 0 (timed the same way in and out of the window,
 * so the two histograms differ only by the counters' cost). */
static void count_answer(struct workload *w, struct client_state *cs,
			 uint64_t *total, uint64_t sent)
{
	struct shared *sh = w->sh;
	uint64_t t1;

	atomic_store_explicit(&sh->progress, ++*total, memory_order_relaxed);
	t1 = now_ns();
	if (cs->in_window) {
		histogram_add(&sh->hist, t1 - (sent ? sent : cs->prev));
		cs->prev = t1;
		cs->rts++;
	} else {
		if (cs->prev_quiet)
			histogram_add(&sh->quiet, t1 - (sent ? sent : cs->prev_quiet));
		cs->prev_quiet = t1;
	}
}

/* Open or close the window when the parent asks (or -n is reached),
 * between two answers. */
static void check_phase(struct workload *w, struct client_state *cs)
{
	struct shared *sh = w->sh;
	int ph;

	ph = atomic_load_explicit(&sh->phase, memory_order_acquire);
	if (ph == PHASE_OPEN_REQ) {
		/* before the counters, not inside the window */
		histogram_clear(&sh->hist);
		flows_gate(w, 1);
		cs->rts = cs->timeouts = cs->late = cs->dups = 0;
		cs->start = cs->prev = now_ns();
		cs->in_window = 1;
		atomic_store_explicit(&sh->phase, PHASE_OPEN,
				      memory_order_release);
	} else if (ph == PHASE_CLOSE_REQ ||
		   (ph == PHASE_OPEN && w->count && cs->rts >= w->count)) {
		cs->in_window = 0;
		cs->prev_quiet = 0;  /* the next one includes the disable */
		publish(w, cs);
		flows_gate(w, 0);
		atomic_store_explicit(&sh->phase, ph == PHASE_OPEN ?
				      PHASE_DONE : PHASE_CLOSED,
				      memory_order_release);
	}
}

/*
 * The measured loop. Outside the window it only ping-pongs (warm-up);
 * inside, one clock read per round trip: each sample runs from the
 * previous reply to this one, so the samples tile the window exactly.
 * With a gap, a sample runs from the send to the reply instead.
 */
/* recv failed other than by the tick's EINTR: the run fails. */
static void recv_failed(struct workload *w)
{
	workload_child_fail(w, ROLE_CLIENT, "workload client cannot receive: %s",
			    errno == ECONNRESET ?
			    "the responder closed the connection" :
			    strerror(errno));
}

/* Send request `seq` (its number in its first 8 bytes). */
static void send_request(struct workload *w, char *sbuf, uint64_t seq)
{
	memcpy(sbuf, &seq, sizeof(seq));
	while (w->t->ops->send(w->t, sbuf, w->size) < 0)
		if (errno != EINTR)
			workload_child_fail(w, ROLE_CLIENT,
					    "workload client cannot send: %s",
					    strerror(errno));
}

/* --burst: the requests in flight, by number modulo SEQ_RING */
struct in_flight {
	uint64_t seq;                    /* the last number sent */
	uint64_t pending[SEQ_RING];      /* its number while unanswered */
	uint64_t sent_at[SEQ_RING];
	sig_atomic_t sent_tick[SEQ_RING];
};

/* Send the next request. One whose slot is still held by a request
 * SEQ_RING numbers older (lost, udp) gives that one up and sends one
 * more, so as many stay in flight. */
static void launch(struct workload *w, struct client_state *cs,
		   struct in_flight *f, char *sbuf)
{
	for (;;) {
		uint64_t *slot = &f->pending[++f->seq % SEQ_RING];
		int lost = *slot != 0;

		*slot = f->seq;
		f->sent_at[f->seq % SEQ_RING] = now_ns();
		f->sent_tick[f->seq % SEQ_RING] = client_ticks;
		send_request(w, sbuf, f->seq);
		if (!lost)
			return;
		cs->timeouts++;
	}
}

/*
 * --burst N: N requests in flight (netperf's first burst), each answer
 * timed from its own request and followed by the next request; the
 * sizes are at least 8 bytes (check_config), so every message carries
 * its whole number. A udp request unanswered for ~1 s is given up on
 * (counted in timeouts) and replaced; a stream's fails the run.
 */
static void client_burst(struct workload *w, struct client_state *cs,
			 char *sbuf, char *rbuf, size_t rlen)
{
	const struct transport_ops *ops = w->t->ops;
	static struct in_flight f;	/* the child's own copy, zeroed */
	uint64_t answered[SEQ_RING] = { 0 };
	uint64_t total = 0, r, s;
	ssize_t n;
	int i;

	for (i = 0; i < w->burst; i++)
		launch(w, cs, &f, sbuf);
	for (;;) {
		n = ops->recv(w->t, rbuf, rlen);
		if (n < 0) {
			if (errno != EINTR)
				recv_failed(w);
			/* a tick: give up on what waited too long, send anew */
			for (s = f.seq > SEQ_RING ? f.seq - SEQ_RING + 1 : 1;
			     s <= f.seq; s++) {
				if (f.pending[s % SEQ_RING] != s ||
				    client_ticks - f.sent_tick[s % SEQ_RING] <= TIMEOUT_TICKS)
					continue;
				if (ops->stream)
					workload_child_fail(w, ROLE_CLIENT, "workload client got no "
						   "reply within %d ms on %s",
						   TRANSPORT_REPLY_TIMEOUT_MS, ops->name);
				f.pending[s % SEQ_RING] = 0;
				cs->timeouts++;
				launch(w, cs, &f, sbuf);
			}
			check_phase(w, cs);
			continue;
		}
		memcpy(&r, rbuf, sizeof(r));
		if (n != (ssize_t)w->reply_size || !r || f.pending[r % SEQ_RING] != r) {
			count_stray(cs, answered, rbuf, sizeof(r));
			continue;
		}
		f.pending[r % SEQ_RING] = 0;
		answered[r % SEQ_RING] = r;
		count_answer(w, cs, &total, f.sent_at[r % SEQ_RING]);
		launch(w, cs, &f, sbuf);
		check_phase(w, cs);
	}
}

void workload_client_main(struct workload *w)
{
	struct shared *sh = w->sh;
	struct transport *t = w->t;
	const struct transport_ops *ops = t->ops;
	size_t size = w->size, reply = w->reply_size;
	/* the sequence number is what request and reply both hold */
	size_t seqlen = size < reply ? size : reply;
	char sbuf[TRANSPORT_MAX_MESSAGE], rbuf[TRANSPORT_MAX_MESSAGE + 1];
	uint64_t answered[SEQ_RING] = { 0 };
	struct client_state cs = { 0 };
	uint64_t seq = 0, total = 0, sent = 0;
	sig_atomic_t sent_tick;
	ssize_t n;

	if (seqlen > 8)
		seqlen = 8;
	w->cs = &cs;
	if (ops->client_open(t, sh->error[ROLE_CLIENT], CHILD_ERROR_LEN) < 0)
		_exit(1);
	memset(sbuf, 0, size);
	/* the window's histogram faulted in now, not in a window */
	histogram_init(&sh->hist);
	start_tick(w);
	if (w->burst > 1)
		client_burst(w, &cs, sbuf, rbuf, sizeof(rbuf));

	for (;;) {
		/* a sequence number tells a late reply from the current one */
		seq++;
		memcpy(sbuf, &seq, seqlen);
		sent_tick = client_ticks;
		if (w->gap_ns && cs.in_window)
			sent = now_ns();
		while (ops->send(t, sbuf, size) < 0)
			if (errno != EINTR)
				workload_child_fail(w, ROLE_CLIENT,
					   "workload client cannot send: %s",
					   strerror(errno));
		for (;;) {
			n = ops->recv(t, rbuf, sizeof(rbuf));
			if (n == (ssize_t)reply && !memcmp(rbuf, sbuf, seqlen))
				break;
			if (n >= 0) {
				count_stray(&cs, answered, rbuf, seqlen);
				continue;
			}
			if (errno != EINTR)
				recv_failed(w);
			if (client_ticks - sent_tick > TIMEOUT_TICKS)
				break;
		}

		if (n < 0) {
			/* a stream cannot re-send: the message is in it */
			if (ops->stream)
				workload_child_fail(w, ROLE_CLIENT, "workload client got no "
					   "reply within %d ms on %s",
					   TRANSPORT_REPLY_TIMEOUT_MS, ops->name);
			/* lost: re-send under a new number, leave it uncounted */
			cs.timeouts++;
			if (cs.in_window)
				cs.prev = now_ns();
		} else {
			answered[seq % SEQ_RING] = seq;
			count_answer(w, &cs, &total, w->gap_ns ? sent : 0);
		}

		check_phase(w, &cs);
		if (w->gap_ns)
			gap(w);
	}
}
