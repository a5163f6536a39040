// SPDX-License-Identifier: GPL-2.0-only
#include "workload/workload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/control.h"
#include "workload/cpu.h"
#include "error.h"
#include "workload/netns.h"
#include "workload/saved-state.h"
#include "system/conditions.h"
#include "workload/tuning.h"
#include "workload/workload-priv.h"

_Static_assert(WORKLOAD_FLOWS_MAX == CONTROL_FLOWS_MAX,
	       "a peer answers as many flows as run here");

const char *const workload_role_word[2] = {
	[ROLE_CLIENT] = "client",
	[ROLE_RESPONDER] = "responder",
};

#define role_word workload_role_word

static void sleep_poll(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = POLL_NS };

	nanosleep(&ts, NULL);
}

/* A deadline for a wait on the children. A poll that returns a second
 * late is a machine that stopped (a VM not run for tens of seconds: the
 * kernel then reports RCU stalls), not a slow child: that time is not
 * counted. */
struct wait_clock {
	uint64_t last, deadline;
};

static struct wait_clock wait_clock_start(uint64_t ns)
{
	uint64_t t = now_ns();

	return (struct wait_clock){ .last = t, .deadline = t + ns };
}

static int wait_clock_over(struct wait_clock *c)
{
	uint64_t t = now_ns();

	if (t - c->last > STALL_NS)
		c->deadline += t - c->last;
	c->last = t;
	return t > c->deadline;
}

static int phase_is(struct workload *w, int i, int want)
{
	return atomic_load_explicit(&w->flows[i].sh->phase,
				    memory_order_acquire) == want;
}

static int phase_closed(struct workload *w, int i)
{
	return phase_is(w, i, PHASE_CLOSED) || phase_is(w, i, PHASE_DONE);
}

/* With -n N the client may finish its N round trips and mark the window
 * done before this process polls again: DONE follows OPEN, so it counts. */
static int phase_opened(struct workload *w, int i)
{
	return phase_is(w, i, PHASE_OPEN) || phase_is(w, i, PHASE_DONE);
}

static int first_round_trip(struct workload *w, int i)
{
	return atomic_load_explicit(&w->flows[i].sh->progress,
				    memory_order_relaxed) > 0;
}

/* Poll until done(w, i) for flow i; fail if a child dies or time runs
 * out. */
static int wait_client(struct workload *w, int (*done)(struct workload *, int),
		       int arg, const char *what)
{
	char fb[96];
	/* a long gap stretches the time to the next round-trip boundary */
	struct wait_clock clock = wait_clock_start(WAIT_TIMEOUT_MS * 1000000ull + w->gap_ns);

	for (;;) {
		if (done(w, arg))
			return 0;
		if (workload_check_children(w) < 0)
			return -1;
		if (wait_clock_over(&clock)) {
			w->failed = 1;
			snprintf(w->err, sizeof(w->err),
				 "%sworkload client (pid %d) did not %s within %llu ms",
				 workload_flow_name(w, arg, fb, sizeof(fb)),
				 (int)w->flows[arg].pid[ROLE_CLIENT], what,
				 (unsigned long long)(WAIT_TIMEOUT_MS + w->gap_ns / 1000000));
			return error("%s", w->err);
		}
		sleep_poll();
	}
}

/* wait_client for every flow */
static int wait_flows(struct workload *w, int (*done)(struct workload *, int),
		      const char *what)
{
	int i;

	for (i = 0; i < w->nflows; i++)
		if (wait_client(w, done, i, what) < 0)
			return -1;
	return 0;
}

/* The shared mapping: a block per flow, then the gate. */
static size_t shared_size(int nflows)
{
	return (size_t)nflows * sizeof(struct shared) + sizeof(struct flow_gate);
}

/* Fork flow f's child r, which sees its flow as w->sh, w->t, w->cpu. */
static int fork_child(struct workload *w, struct flow *f, enum role r)
{
	pid_t parent = getpid(), pid;

	w->sh = f->sh;
	w->t = f->t;
	w->cpu[ROLE_CLIENT] = f->cpu[ROLE_CLIENT];
	w->cpu[ROLE_RESPONDER] = f->cpu[ROLE_RESPONDER];
	pid = fork();
	if (pid < 0)
		return error("cannot fork workload %s: %s", role_word[r],
			     strerror(errno));
	if (pid == 0)
		workload_child_main(w, r, parent);
	f->pid[r] = pid;
	return 0;
}

/* Create a flow's transport; for veth inside the responder's
 * namespace, so its socket is bound there, then back to where perpkt
 * was. */
static int create_transport(struct workload *w, struct flow *f,
			    const struct transport_config *tc)
{
	int home, ret;

	if (w->ns_fd[ROLE_RESPONDER] < 0)
		return w->ops->create(&f->t, tc);
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0)
		return error("cannot open '/proc/self/ns/net': %s", strerror(errno));
	ret = netns_enter_fd(w->ns_fd[ROLE_RESPONDER]);
	if (ret < 0) {
		close(home);
		return error("cannot enter namespace '%s': %s",
			     netns_name(w->ns, NETNS_RESPONDER), strerror(-ret));
	}
	ret = w->ops->create(&f->t, tc);
	if (netns_enter_fd(home) < 0) {
		/* never go on in the wrong namespace */
		close(home);
		return error("cannot return to perpkt's network namespace");
	}
	close(home);
	return ret;
}

static int setup_network(struct workload *w, const struct workload_config *c,
			 struct transport_config *tc)
{
	const char *net = c->network ? c->network : "loopback";

	snprintf(w->network, sizeof(w->network), "%s", net);
	tc->addr.sin_family = AF_INET;
	tc->size = c->message_size;
	tc->reply_size = c->reply_size;
	if (c->peer) {
		if (peer_setup(w, c, tc) < 0)
			return -1;
	} else if (c->echo) {
		if (control_resolve(c->echo, 0, &tc->addr, "echo service") < 0)
			return -1;
	} else if (!strcmp(net, "veth")) {
		if (netns_create(&w->ns) < 0)
			return -1;
		w->ns_fd[ROLE_RESPONDER] = netns_fd(w->ns, NETNS_RESPONDER);
		w->ns_fd[ROLE_CLIENT] = netns_fd(w->ns, NETNS_CLIENT);
		inet_pton(AF_INET, NETNS_RESPONDER_ADDR, &tc->addr.sin_addr);
		tc->local_responder = 1;
	} else {
		/* loopback only: perpkt never sends to an address it did not make */
		tc->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		tc->local_responder = 1;
	}
	inet_ntop(AF_INET, &tc->addr.sin_addr, w->where, sizeof(w->where));
	return 0;
}

/* Whether this run changes the system: it takes the lock first. */
static int changes_system(const struct workload_config *c)
{
	return (c->network && !strcmp(c->network, "veth")) ||
	       (c->rps_cpus && !c->peer && !c->echo);
}

/* Once every child says it is pinned (child.c), let them all start. */
static int start_children(struct workload *w)
{
	uint32_t want = 0, ready;
	struct wait_clock clock = wait_clock_start(WAIT_TIMEOUT_MS * 1000000ull);
	int i;

	for (i = 0; i < w->nflows; i++)
		want += (w->flows[i].pid[ROLE_CLIENT] != 0) +
			(w->flows[i].pid[ROLE_RESPONDER] != 0);
	while ((ready = __atomic_load_n(&w->gate->ready, __ATOMIC_ACQUIRE)) < want) {
		if (workload_check_children(w) < 0)
			return -1;
		if (wait_clock_over(&clock)) {
			char where[200];

			workload_describe_children(w, where, sizeof(where));
			w->failed = 1;
			snprintf(w->err, sizeof(w->err), "the workload's processes "
				 "were not on their CPUs within %d ms: %u of %u ready (%s)",
				 WAIT_TIMEOUT_MS, ready, want, where);
			return error("%s", w->err);
		}
		sleep_poll();
	}
	__atomic_store_n(&w->gate->start, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &w->gate->start, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	return 0;
}

int workload_start(struct workload **out, const struct workload_config *c)
{
	struct transport_config tc;
	struct workload *w;
	void *map;
	int i;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return error("cannot start workload: out of memory");
	w->ns_fd[0] = w->ns_fd[1] = -1;
	w->ctl = -1;
	if (workload_check_config_ops(c, &w->ops) < 0) {
		free(w);
		return -1;
	}
	w->nflows = c->nflows > 1 ? c->nflows : 1;
	w->flows = calloc((size_t)w->nflows, sizeof(*w->flows));
	if (!w->flows) {
		free(w);
		return error("cannot start workload: out of memory");
	}
	for (i = 0; i < w->nflows; i++) {
		struct flow *f = &w->flows[i];

		f->cpu[ROLE_CLIENT] = c->client_cpus && w->nflows > 1 ?
				      c->client_cpus[i] : c->client_cpu;
		f->cpu[ROLE_RESPONDER] = c->server_cpus && w->nflows > 1 ?
					 c->server_cpus[i] : c->server_cpu;
	}
	w->size = c->message_size;
	w->reply_size = c->reply_size ? c->reply_size : c->message_size;
	w->burst = c->burst > 1 ? c->burst : 1;
	w->count = c->count;
	w->gap_ns = c->gap_ns;
	w->gap_spin = c->gap_spin;
	w->window_marks = c->window_marks;
	if (c->nwindow_fds > 0) {
		w->fds = malloc(c->nwindow_fds * sizeof(*w->fds));
		if (!w->fds) {
			free(w->flows);
			free(w);
			return error("cannot start workload: out of memory");
		}
		memcpy(w->fds, c->window_fds, c->nwindow_fds * sizeof(*w->fds));
		w->nfds = c->nwindow_fds;
	}

	/* zero-filled: PHASE_RUN, empty histograms; the gate last */
	map = mmap(NULL, shared_size(w->nflows), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		error("cannot map workload control block: %s", strerror(errno));
		goto fail;
	}
	w->map = map;
	for (i = 0; i < w->nflows; i++)
		w->flows[i].sh = (struct shared *)map + i;
	w->gate = (struct flow_gate *)((struct shared *)map + w->nflows);
	/* --peer counts too: this namespace's datagrams in (two per round
	 * trip when serve answers on this host, the replies alone from
	 * another) */
	w->gate->read_udp = !strcmp(w->ops->name, "udp") && !c->echo;
	/* icmp flows, ping sockets: the echo replies in, one per round trip */
	w->gate->read_icmp = w->ops->no_responder && w->nflows > 1 && !c->peer;
	w->gate->read_udp |= w->gate->read_icmp;

	memset(&tc, 0, sizeof(tc));
	if (changes_system(c) && saved_state_lock(&w->lock, c->no_wait) < 0)
		goto fail;
	if (setup_network(w, c, &tc) < 0)
		goto fail;
	if (tuning_apply(&w->tuning, w->network, w->ns, !tc.local_responder,
			 c->rps_cpus, c->set_irq_cpu ? c->irq_cpu : -1) < 0)
		goto fail;
	if (c->pin_self) {
		int ret = cpu_pin_self(c->self_cpu);

		if (ret < 0)
			warning("cannot pin perpkt to cpu %d: %s", c->self_cpu,
				strerror(-ret));
	}
	w->local_responder = tc.local_responder && !w->ops->no_responder;
	tc.own_replies = w->nflows > 1;
	for (i = 0; i < w->nflows; i++) {
		struct flow *f = &w->flows[i];

		/* --peer: each flow to its own responder's port there */
		if (w->ctl >= 0)
			tc.addr.sin_port = htons(f->port);
		if (create_transport(w, f, &tc) < 0)
			goto fail;
		f->port = f->t->ops->responder_port(f->t);
		if (w->local_responder) {
			if (fork_child(w, f, ROLE_RESPONDER) < 0)
				goto fail;
			w->ops->release_responder(f->t);
		}
		if (fork_child(w, f, ROLE_CLIENT) < 0)
			goto fail;
	}
	if (start_children(w) < 0 ||
	    wait_flows(w, first_round_trip, "complete a first round trip") < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	workload_stop(w);
	return -1;
}

pid_t workload_client_pid(const struct workload *w)
{
	return w->flows[0].pid[ROLE_CLIENT];
}

pid_t workload_responder_pid(const struct workload *w)
{
	return w->flows[0].pid[ROLE_RESPONDER];
}

int workload_nflows(const struct workload *w)
{
	return w->nflows;
}

void workload_flow_pids(const struct workload *w, int i, pid_t *client,
			pid_t *responder)
{
	*client = w->flows[i].pid[ROLE_CLIENT];
	*responder = w->flows[i].pid[ROLE_RESPONDER];
}

/* Round trips of all flows since the start. */
static uint64_t progress(const struct workload *w)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < w->nflows; i++)
		sum += atomic_load_explicit(&w->flows[i].sh->progress,
					    memory_order_relaxed);
	return sum;
}

/* A copy of a flow's quiet histogram, which its client may be adding a
 * round trip to as it is read. A copy caught half-way through an add
 * (its sums with a stall, its bucket without) made the next window's
 * difference a spread no round trip in it could make, and the profile
 * unreadable (seen at load 15: a stddev of 981 us between 17 and 623
 * us). Copied again until its buckets add up to its count, a few times
 * at most (a round trip takes longer than a copy). */
static void quiet_copy(struct histogram *to, const struct histogram *live)
{
	int tries;

	for (tries = 0; tries < 8; tries++) {
		/* read it afresh each time: another process writes it */
		atomic_thread_fence(memory_order_acquire);
		histogram_copy(to, live);
		if (histogram_whole(to))
			return;
	}
}

/* Every flow's quiet histogram now, merged into `to`. */
static void quiet_now(struct workload *w, struct histogram *to)
{
	struct histogram *h = NULL;
	int i;

	quiet_copy(to, &w->flows[0].sh->quiet);
	if (w->nflows > 1)
		h = malloc(sizeof(*h));
	for (i = 1; i < w->nflows; i++) {
		if (h)
			quiet_copy(h, &w->flows[i].sh->quiet);
		histogram_merge(to, h ? h : &w->flows[i].sh->quiet);
	}
	free(h);
}

/* `before`: the round trips since quiet_seen, which then moves on. */
static void take_before(struct workload *w)
{
	quiet_now(w, &w->before);
	histogram_since(&w->before, &w->quiet_seen);
	histogram_merge(&w->quiet_seen, &w->before);
}

void workload_gap_begin(struct workload *w)
{
	/* what came since the close is left out of the next gap (each
	 * copy is 440 KiB: taken outside the windows) */
	quiet_now(w, &w->quiet_seen);
	w->before_taken = 0;
}

void workload_gap_end(struct workload *w)
{
	take_before(w);
	w->before_taken = 1;
}

int workload_window_open(struct workload *w)
{
	char line[CONTROL_LINE_MAX + 1];
	int ph, i;

	if (workload_check_children(w) < 0)
		return -1;
	ph = atomic_load_explicit(&w->flows[0].sh->phase, memory_order_acquire);
	if (ph != PHASE_RUN && ph != PHASE_CLOSED && ph != PHASE_DONE)
		return error("cannot open the workload window: it is already open");
	/* the round trips since the last window closed (the warm-up's
	 * before the first), copied before the window rather than inside
	 * it, unless workload_gap_end took them; the client may add one
	 * as it is read */
	if (!w->before_taken)
		take_before(w);
	w->before_taken = 0;
	if (w->windows_opened++ == 0)
		histogram_copy(&w->unsampled, &w->before);
	w->progress_at_open = progress(w);
	/* every client waits for the others at its boundary (client.c) */
	for (i = 0; i < w->nflows; i++)
		atomic_store_explicit(&w->flows[i].sh->phase, PHASE_OPEN_REQ,
				      memory_order_release);
	if (wait_flows(w, phase_opened, "open the window") < 0)
		return -1;
	if (w->ctl >= 0 && peer_request(w, "start", line, sizeof(line)) < 0)
		return -1;
	return 0;
}

int workload_window_done(struct workload *w)
{
	int i;

	/* (partial: written once by a client before it exits) */
	for (i = 0; i < w->nflows; i++)
		if (phase_is(w, i, PHASE_DONE) ||
		    __atomic_load_n(&w->flows[i].sh->partial, __ATOMIC_ACQUIRE))
			return 1;
	return 0;
}

uint64_t workload_window_progress(const struct workload *w)
{
	return progress(w) - w->progress_at_open;
}

static void read_remote(struct workload *w, struct workload_result *res)
{
	char line[CONTROL_LINE_MAX + 1];
	int64_t v[4], by[CONTROL_FLOWS_MAX];
	int i;

	if (w->ctl < 0 || peer_request(w, "stop", line, sizeof(line)) < 0)
		return;
	if (control_get(line, "cpu", &v[0]) || control_get(line, "cpu_ns", &v[1]) ||
	    control_get(line, "wait_ns", &v[2]) || control_get(line, "switches", &v[3])) {
		warning("malformed counters from peer: '%.64s'", line);
		return;
	}
	res->remote.valid = 1;
	res->remote.cpu = (int)v[0];
	res->remote.cpu_ns = (uint64_t)v[1];
	res->remote.wait_ns = (uint64_t)v[2];
	res->remote.switches = (uint64_t)v[3];
	if (!control_get(line, "answered", &v[0]))
		res->remote.answered = (uint64_t)v[0];
	res->remote.kernel = !control_get(line, "kernel", &v[0]) && v[0] == 1;
	if (w->nflows > 1 && !control_get(line, "flows", &v[0]) &&
	    v[0] == w->nflows &&
	    control_get_list(line, "answered_by_flow", by, CONTROL_FLOWS_MAX, 0,
			     INT64_MAX) == w->nflows) {
		res->remote.nflows = w->nflows;
		for (i = 0; i < w->nflows; i++)
			res->remote.answered_by_flow[i] = (uint64_t)by[i];
	}
}

/* res emptied for the next window: its histograms (440 KiB each) only
 * where they held counts, every other field whole. */
static void result_clear(struct workload_result *res)
{
	_Static_assert(offsetof(struct workload_result, unsampled) ==
		       offsetof(struct workload_result, latency) + sizeof(struct histogram) &&
		       offsetof(struct workload_result, before) ==
		       offsetof(struct workload_result, unsampled) + sizeof(struct histogram) &&
		       offsetof(struct workload_result, failed) >=
		       offsetof(struct workload_result, before) + sizeof(struct histogram),
		       "the three histograms lie together, before `failed`");
	size_t after = offsetof(struct workload_result, before) + sizeof(struct histogram);

	histogram_clear(&res->latency);
	histogram_clear(&res->unsampled);
	histogram_clear(&res->before);
	memset(res, 0, offsetof(struct workload_result, latency));
	memset((char *)res + after, 0, sizeof(*res) - after);
}

/* The flows' figures added up, their histograms merged; each flow's
 * own in res->flow[]. */
static void copy_result(struct workload *w, struct workload_result *res)
{
	int i;

	histogram_copy(&res->latency, &w->flows[0].sh->hist);
	histogram_copy(&res->unsampled, &w->unsampled);
	histogram_copy(&res->before, &w->before);
	res->nflows = w->nflows;
	res->udp_in_valid = w->gate->read_udp && !w->gate->udp_bad;
	res->udp_in = w->gate->udp_in;
	res->icmp_in = w->gate->read_icmp;
	res->cpu_valid = !w->gate->cpu_bad;
	res->client_cpu_ns = w->gate->cpu_win[ROLE_CLIENT];
	res->responder_cpu_ns = w->gate->cpu_win[ROLE_RESPONDER];
	for (i = 0; i < w->nflows; i++) {
		const struct flow *f = &w->flows[i];
		const struct shared *sh = f->sh;
		struct workload_flow_result *fr = &res->flow[i];

		res->round_trips += sh->round_trips;
		if (sh->window_ns > res->window_ns)
			res->window_ns = sh->window_ns;
		res->timeouts += sh->timeouts;
		res->late_replies += sh->late_replies;
		res->duplicates += sh->duplicates;
		if (i)
			histogram_merge(&res->latency, &sh->hist);
		fr->round_trips = sh->round_trips;
		fr->p50_ns = sh->hist.count ? histogram_quantile(&sh->hist, 0.5) : 0;
		fr->client_cpu = f->cpu[ROLE_CLIENT];
		/* --peer: the CPU serve was asked to pin it to */
		fr->server_cpu = w->local_responder || w->ctl >= 0 ?
				 f->cpu[ROLE_RESPONDER] : -1;
		fr->port = f->port;
	}
}

int workload_window_close(struct workload *w, struct workload_result *res)
{
	struct shared *sh = w->flows[0].sh;
	uint64_t deadline;
	int i;

	if (workload_check_children(w) < 0)
		goto fail;
	for (i = 0; i < w->nflows; i++) {
		int open = PHASE_OPEN;

		if (atomic_compare_exchange_strong(&w->flows[i].sh->phase, &open,
						   PHASE_CLOSE_REQ) ||
		    open == PHASE_DONE)
			continue;
		error("cannot close the workload window: it is not open");
		result_clear(res);
		snprintf(res->error, sizeof(res->error), "window not open");
		res->failed = 1;
		return -1;
	}
	if (wait_flows(w, phase_closed, "close the window") < 0)
		goto fail;
	result_clear(res);
	copy_result(w, res);
	read_remote(w, res);
	return 0;
fail:
	result_clear(res);
	/* a dead responder takes the client down with it a moment later;
	 * wait for that, then keep what the client counted until then
	 * (one flow: the others' counts stop wherever they were) */
	deadline = now_ns() + 2000 * 1000000ull;
	while (w->nflows == 1 && w->flows[0].pid[ROLE_CLIENT] &&
	       !w->flows[0].reaped[ROLE_CLIENT] &&
	       !sh->partial && now_ns() < deadline)
		sleep_poll();
	if (w->nflows == 1 && sh->partial) {
		copy_result(w, res);
		res->partial = 1;
		res->cpu_valid = 0;  /* no edge was reached: the parent's reads */
	}
	res->failed = 1;
	snprintf(res->error, sizeof(res->error), "%.*s",
		 (int)sizeof(res->error) - 1, w->err);
	return -1;
}

void workload_stop(struct workload *w)
{
	uint64_t deadline;
	int i;

	if (!w)
		return;
	workload_signal_children(w, SIGTERM);
	deadline = now_ns() + STOP_GRACE_MS * 1000000ull;
	while (!workload_reap_some(w, WNOHANG) && now_ns() < deadline)
		sleep_poll();
	workload_signal_children(w, SIGKILL);
	workload_reap_some(w, 0);

	/* closing the control connection stops the peer's responder */
	if (w->ctl >= 0)
		close(w->ctl);
	for (i = 0; w->flows && i < w->nflows; i++)
		if (w->flows[i].t)
			w->flows[i].t->ops->destroy(w->flows[i].t);
	/* settings first: rps on veth lives inside the namespaces */
	tuning_restore(w->tuning);
	netns_destroy(w->ns);
	saved_state_unlock(w->lock);
	if (w->map)
		munmap(w->map, shared_size(w->nflows));
	free(w->flows);
	free(w->fds);
	free(w);
}
