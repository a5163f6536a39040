// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt serve's responders for one client's run: one per flow (record
 * --flows), each a forked process answering on a port of its own and
 * pinned to the CPU the client named, or none over icmp (this host's
 * kernel answers); what they answered and the CPU time they took over
 * the client's window.
 */
#include "workload/serve-priv.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "system/procfile.h"
#include "system/unit.h"
#include "workload/cpu.h"

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

/* "flow 2 (port 40001, cpu 1)" with several flows, "the responder" with
 * one: who a message is about */
static const char *flow_name(const struct serve_flows *f, int i, char *buf,
			     size_t len)
{
	if (f->n <= 1)
		return "the responder";
	snprintf(buf, len, "flow %d's responder (port %u, cpu %d)", i,
		 f->t[i]->ops->responder_port(f->t[i]), f->cpu[i]);
	return buf;
}

/* 1 once the process sleeps (its first receive), or is gone */
static int responder_blocked(pid_t pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	paren = strrchr(buf, ')');
	return !paren || (paren[1] == ' ' && paren[2] == 'S');
}

/* Until every new responder sleeps in its first receive, pinned (a
 * pin in progress sleeps uninterruptibly, D), so that its context
 * switches from then on count answered messages only, and no flow's
 * traffic starts while another's responder is still moving to its CPU
 * (that can take tens of seconds); at most CONTROL_RESPONDERS_MS for
 * all: the index of one still not there, or -1. */
static int wait_responders_blocked(const struct serve_flows *f)
{
	int i = 0, waited;

	for (waited = 0; waited < CONTROL_RESPONDERS_MS; waited += 5) {
		while (i < f->n && responder_blocked(f->pid[i]))
			i++;
		if (i == f->n)
			return -1;
		usleep(5000);
	}
	return i;
}

/* One flow's responder: its socket on a port of its own, its process. */
static int start_one(struct serve_flows *f, int i,
		     const struct control_setup *setup,
		     const struct sockaddr_in *bind_addr,
		     const struct sockaddr_in *peer, char *err, size_t errlen)
{
	const struct transport_ops *ops = transport_find(setup->transport);
	struct transport_config tc;

	memset(&tc, 0, sizeof(tc));
	tc.size = setup->size;
	tc.addr = *bind_addr;
	tc.addr.sin_port = 0;
	tc.local_responder = 1;
	tc.only_from = peer->sin_addr;
	tc.answered = &f->answered[i].n;
	tc.token = f->token;
	f->cpu[i] = setup->flow_cpu[i];
	if (ops->create(&f->t[i], &tc) < 0) {
		snprintf(err, errlen, "cannot create flow %d's responder socket", i);
		return -1;
	}
	f->pid[i] = fork_responder(f->t[i], f->cpu[i]);
	if (f->pid[i] < 0) {
		snprintf(err, errlen, "cannot fork flow %d's responder", i);
		return -1;
	}
	f->t[i]->ops->release_responder(f->t[i]);
	return 0;
}

int serve_flows_start(struct serve_flows *f, struct control_setup *setup,
		      int max_flows, const struct sockaddr_in *bind_addr,
		      const struct sockaddr_in *peer, char *err, size_t errlen)
{
	const struct transport_ops *ops = transport_find(setup->transport);
	char name[64];
	uint64_t n;
	int i;

	memset(f, 0, sizeof(*f));
	f->kernel = ops->no_responder;
	if (setup->flows > max_flows) {
		/* each flow is a process and a socket here: capped */
		snprintf(err, errlen, "%d flows asked: this perpkt serve "
			 "answers at most %d (its --max-flows)", setup->flows,
			 max_flows);
		return -1;
	}
	if (f->kernel) {
		/* no process to pin: the echo is answered in the softirq of
		 * whichever CPU took the packet */
		if (setup->flows > 1) {
			snprintf(err, errlen, "icmp is answered by this host's "
				 "kernel: one flow only");
			return -1;
		}
		setup->cpu = setup->flow_cpu[0] = -1;
		if (echo_replies(&n) < 0) {
			snprintf(err, errlen, "cannot read the Icmp counters of "
				 "/proc/net/snmp here");
			return -1;
		}
		return 0;
	}
	for (i = 0; i < setup->flows; i++)
		if (setup->flow_cpu[i] >= 0 && cpu_check_usable(setup->flow_cpu[i]) < 0) {
			snprintf(err, errlen, "cpu %d is not usable here",
				 setup->flow_cpu[i]);
			return -1;
		}
	/* each responder counts what it answers where this process reads
	 * it, on a cache line of its own (flows must not share one) */
	f->answered = mmap(NULL, sizeof(*f->answered) * (size_t)setup->flows,
			   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->answered == MAP_FAILED) {
		f->answered = NULL;
		snprintf(err, errlen, "cannot map the responders' counters");
		return -1;
	}
	/* tcp and udp: a per-run secret as well, the client's first bytes
	 * (udp: its socket is then the only one answered), below 2^62 so it
	 * reads as int64; one for the run's flows, all the client's */
	if ((!strcmp(setup->transport, "tcp") || !strcmp(setup->transport, "udp")) &&
	    getrandom(&f->token, sizeof(f->token), 0) == sizeof(f->token))
		f->token = (f->token >> 2) | 1;
	f->n = setup->flows;
	for (i = 0; i < f->n; i++)
		if (start_one(f, i, setup, bind_addr, peer, err, errlen) < 0)
			return -1;
	i = wait_responders_blocked(f);
	if (i >= 0) {
		snprintf(err, errlen, "%s was not waiting for messages "
			 "within %d ms: this host is too loaded to pin it",
			 flow_name(f, i, name, sizeof(name)), CONTROL_RESPONDERS_MS);
		return -1;
	}
	return 0;
}

uint64_t serve_flows_answered(struct serve_flows *f)
{
	uint64_t n = 0;
	int i;

	if (f->kernel) {
		echo_replies(&n);
		return n;
	}
	for (i = 0; i < f->n; i++) {
		f->seen[i] = f->answered[i].n;
		n += f->seen[i];
	}
	return n;
}

int serve_flows_window_start(struct serve_flows *f)
{
	int i;

	f->answered0 = serve_flows_answered(f);
	for (i = 0; i < f->n; i++) {
		f->flow0[i] = f->seen[i];
		if (schedstat_read(f->pid[i], &f->s0[i]) < 0)
			return -1;
	}
	return 0;
}

int serve_flows_stop_answer(struct serve_flows *f, uint64_t answered,
			    char *out, size_t len, char *err, size_t errlen)
{
	struct schedstat s1, sum = { 0 };
	char name[64];
	size_t n;
	int i;

	answered -= f->answered0;
	if (f->kernel) {
		if (!answered) {
			snprintf(err, errlen, "no echo request reached this host's "
				 "kernel between start and stop");
			return -1;
		}
		snprintf(out, len, "ok cpu=-1 cpu_ns=0 wait_ns=0 switches=0 "
			 "answered=%llu kernel=1", (unsigned long long)answered);
		return 0;
	}
	for (i = 0; i < f->n; i++) {
		if (schedstat_read(f->pid[i], &s1) < 0) {
			snprintf(err, errlen, "%s is gone",
				 flow_name(f, i, name, sizeof(name)));
			return -1;
		}
		/* a responder that answered anything woke up for it */
		if (s1.switches == f->s0[i].switches) {
			snprintf(err, errlen, "no traffic reached %s between start "
				 "and stop", flow_name(f, i, name, sizeof(name)));
			return -1;
		}
		sum.cpu_ns += s1.cpu_ns - f->s0[i].cpu_ns;
		sum.wait_ns += s1.wait_ns - f->s0[i].wait_ns;
		sum.switches += s1.switches - f->s0[i].switches;
	}
	n = (size_t)snprintf(out, len, "ok cpu=%d cpu_ns=%llu wait_ns=%llu "
			     "switches=%llu answered=%llu", f->cpu[0],
			     (unsigned long long)sum.cpu_ns,
			     (unsigned long long)sum.wait_ns,
			     (unsigned long long)sum.switches,
			     (unsigned long long)answered);
	if (f->n > 1 && n < len)
		n += (size_t)snprintf(out + n, len - n, " flows=%d answered_by_flow=",
				      f->n);
	for (i = 0; f->n > 1 && i < f->n && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%llu", i ? "," : "",
				      (unsigned long long)(f->seen[i] - f->flow0[i]));
	return 0;
}

void serve_flows_ports(const struct serve_flows *f, char *out, size_t len)
{
	size_t n = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < f->n && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%u", i ? "," : "",
				      f->t[i]->ops->responder_port(f->t[i]));
}

void serve_flows_stop(struct serve_flows *f)
{
	int i;

	for (i = 0; i < f->n; i++) {
		if (f->pid[i] > 0) {
			kill(f->pid[i], SIGKILL);
			while (waitpid(f->pid[i], NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (f->t[i])
			f->t[i]->ops->destroy(f->t[i]);
	}
	if (f->answered)
		munmap((void *)f->answered, sizeof(*f->answered) * (size_t)f->n);
	memset(f, 0, sizeof(*f));
}
