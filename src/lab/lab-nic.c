// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --kernel IMAGE --net nic[:DRIVER]: two guests joined by an
 * emulated NIC. QEMU's dgram netdev carries the link over two unix
 * datagram sockets in the guests' folders: no tap, no host address,
 * nothing leaves the two guests. The responder boots first and runs
 * `perpkt serve --once`; the client boots once the responder's console
 * says serve listens and runs the same record with --peer, so its
 * profile has both sides, as a two-host run's has. With --exact both
 * guests run the QEMU plugin: the client marks its window, serve its
 * own (asked with marks=1, workload/control.h), and each guest's counts
 * are folded into its side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "error.h"
#include "exitcode.h"
#include "lab/channel.h"
#include "lab/guest.h"
#include "lab/nic.h"
#include "lab/run.h"

/* What the responder's timeout adds for the client's boot. */
#define LAB_NIC_CLIENT_BOOT_S 60

/* The serve key both guests hold: 32 random bytes in hex. */
static int make_key(char *out, size_t len)
{
	unsigned char b[32];
	size_t i;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return error("cannot make a key for the guests: %s", strerror(errno));
	for (i = 0; i < sizeof(b) && 2 * i + 2 < len; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* The QEMU arguments of one end of the link: the user's, then the
 * netdev (this guest's socket, the other's) and the device. */
struct nic_end {
	char *extra[40];
	size_t nextra;
	char netdev[9000], device[128];
};

static void nic_end(struct nic_end *e, const struct lab_request *rq,
		    const char *nic, const struct lab_run *self,
		    const struct lab_run *other, int mac)
{
	size_t i;

	for (i = 0; i < rq->nqemu_args; i++)
		e->extra[e->nextra++] = (char *)rq->qemu_args[i];
	snprintf(e->netdev, sizeof(e->netdev),
		 "dgram,id=nic0,local.type=unix,local.path=%s/link.sock,"
		 "remote.type=unix,remote.path=%s/link.sock", self->dir, other->dir);
	snprintf(e->device, sizeof(e->device), "%s,netdev=nic0,mac=52:54:00:0a:1b:%02x",
		 strcmp(nic, "vmxnet3") ? "virtio-net-pci" : "vmxnet3", mac);
	e->extra[e->nextra++] = "-netdev";
	e->extra[e->nextra++] = e->netdev;
	e->extra[e->nextra++] = "-device";
	e->extra[e->nextra++] = e->device;
}

struct guest_run {
	struct lab_run *r;
	const struct lab_request *rq;  /* its kernel: the responder's is
					* --peer-kernel's when given */
	struct lab_qemu q;
	enum lab_qemu_end end;
	int status, done;
};

/* Poll g's QEMU; 1 once it has ended, -1 on an error. */
static int poll_guest(struct guest_run *g)
{
	int r;

	if (g->done)
		return 1;
	r = lab_qemu_poll(&g->q, &g->end, &g->status, &g->r->wall_s);
	if (r > 0) {
		g->done = 1;
		g->r->walls_s += g->r->wall_s;
		g->r->up_s = g->q.up_s;
	}
	return r;
}

/* The guest's files out of its data port: 1; else 0, LAB_BOOT_STALLED
 * (it never reached /init) or LAB_BOOT_KVM_FAILED (lab_run_failed),
 * with the reason said when it ended without them. */
static int unpack(struct guest_run *g)
{
	int n = g->end == LAB_QEMU_EXITED ?
		lab_channel_unpack(g->r->data, g->r->out) : 0;

	if (n > 0) {
		lab_accel_boot_ended(&g->r->accel, &g->q, g->end, g->status);
		return 1;
	}
	if (n < 0)
		return 0;
	n = lab_run_failed(g->r, g->rq, &g->q, g->end, g->status);
	return n == LAB_BOOT_STALLED || n == LAB_BOOT_KVM_FAILED ? n : 0;
}

/* A guest under KVM that ended before /init: the pair goes again
 * under TCG (unpack says so). */
static int kvm_failed(const struct guest_run *g)
{
	return g->done && lab_accel_falls_back(&g->r->accel, &g->q);
}

/* Ready g for another boot: its files, console and socket gone. */
static int reset(struct guest_run *g)
{
	char sock[4200];

	g->done = g->status = 0;
	g->end = LAB_QEMU_EXITED;
	snprintf(sock, sizeof(sock), "%s/link.sock", g->r->dir);
	unlink(sock);
	unlink(g->r->console);
	unlink(g->r->data);
	return lab_run_clear_out(g->r);
}

/* The responder's serve, when the client's profile lacks its side. */
static void responder_said(const struct lab_run *s)
{
	char *text = lab_run_read(s, LAB_GUEST_ERROR);

	if (!text)
		text = lab_run_read(s, LAB_GUEST_STDERR);
	if (text && *text)
		fprintf(stderr, "perpkt: the responder guest said:\n%s", text);
	free(text);
}

/* The responder guest's NIC steering, as its /init found it. */
static void add_tuning(const struct lab_run *s, struct profile *p)
{
	char *text = lab_run_read(s, LAB_GUEST_TUNING), *line, *save = NULL, *sp;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		profile_add_condition(p, line, sp + 1);
	}
	free(text);
}

/* Boot the responder, then the client once serve listens; run both to
 * their end. 0 when the client's files came out. */
static int run_pair(struct guest_run *s, struct guest_run *c,
		    const struct lab_job *job)
{
	int listening = 0, started = 0, ret = -1, r;
	double grace = 0;

	if (!job->quiet && strcmp(s->rq->kernel, c->rq->kernel))
		info("booting '%s' (responder) and '%s' (client) under %s (%s), joined by an emulated %s NIC, pair %d of %d",
		     s->rq->kernel, c->rq->kernel, s->r->arch->qemu, s->r->accel.text,
		     s->r->nic, c->r->boot + 1, job->boots > 0 ? job->boots : 1);
	else if (!job->quiet && job->boots > 1)
		info("booting '%s' twice under %s (%s), joined by an emulated %s NIC, pair %d of %d",
		     c->rq->kernel, s->r->arch->qemu, s->r->accel.text, s->r->nic,
		     c->r->boot + 1, job->boots);
	else if (!job->quiet)
		info("booting '%s' twice under %s (%s), joined by an emulated %s NIC",
		     c->rq->kernel, s->r->arch->qemu, s->r->accel.text, s->r->nic);
	if (lab_qemu_start(&s->q))
		return -1;
	for (;;) {
		if ((r = poll_guest(s)) < 0)
			break;
		if (!listening && !s->done &&
		    lab_console_has(s->r->console, LAB_GUEST_SERVE_MARK)) {
			listening = 1;
			if (lab_qemu_start(&c->q))
				break;
			started = 1;
		}
		if (s->done && !started) {
			r = unpack(s);
			if (r == LAB_BOOT_STALLED || r == LAB_BOOT_KVM_FAILED)
				return r;
			responder_said(s->r);
			error("the responder guest ended before serve listened");
			return -1;
		}
		if (started && poll_guest(c) < 0)
			break;
		if (started && c->done && (s->done || kvm_failed(c))) {
			ret = 0;
			break;
		}
		/* serve --once ends after the client: give it the time to
		 * send its side and power off, then stop it */
		if (started && c->done && !s->done && !grace) {
			grace = c->q.t0 + c->r->wall_s + 30 - s->q.t0;
			if (grace < s->q.timeout_s)
				s->q.timeout_s = grace;
		}
		usleep(50 * 1000);
	}
	if (!s->done) {
		lab_qemu_kill(&s->q);
		while (poll_guest(s) == 0)
			usleep(20 * 1000);
	}
	if (started && !c->done) {
		lab_qemu_kill(&c->q);
		while (poll_guest(c) == 0)
			usleep(20 * 1000);
	}
	if (ret)
		return ret;
	if (kvm_failed(c))  /* the responder was stopped: nothing of it */
		return unpack(c) == LAB_BOOT_KVM_FAILED ? LAB_BOOT_KVM_FAILED : -1;
	/* the responder's files (its steering, its messages): only said
	 * when the client's profile lacks the responder's side */
	if (s->end == LAB_QEMU_EXITED &&
	    lab_channel_unpack(s->r->data, s->r->out) < 0)
		return -1;
	r = unpack(c);
	return r == 1 ? 0 : r == LAB_BOOT_STALLED || r == LAB_BOOT_KVM_FAILED ? r : -1;
}

/* The responder guest's request: --peer-kernel's image, with its
 * modules and configuration found beside it, or the client's. */
static void responder_request(struct lab_request *srq, const struct lab_request *rq)
{
	*srq = *rq;
	if (!rq->peer_kernel)
		return;
	srq->kernel = rq->peer_kernel;
	srq->modules = srq->config = srq->vmlinux = NULL;
}

/* Which kernel each side ran: the responder's in both profiles. */
static void add_kernels(struct profile *p, const struct lab_request *srq,
			const struct lab_run *s)
{
	profile_add_condition(p, LAB_COND_PEER_KERNEL, srq->kernel);
	if (!p->remote)
		return;
	profile_add_condition(p->remote, LAB_COND_KERNEL, srq->kernel);
	profile_add_condition(p->remote, LAB_COND_CONFIG, s->config[0] ? s->config :
			      "none found (not checked)");
}

/* Boot the pair as each guest's accelerator says. */
static int start_pair(struct guest_run *gs, struct guest_run *gc,
		      struct nic_end *es, struct nic_end *ec,
		      const struct lab_job *job)
{
	lab_run_qemu(gs->r, gs->rq, job, &gs->q, es->extra, es->nextra);
	lab_run_qemu(gc->r, gc->rq, job, &gc->q, ec->extra, ec->nextra);
	/* the responder waits for the client's boot as well as its run */
	gs->q.timeout_s += LAB_NIC_CLIENT_BOOT_S;
	return run_pair(gs, gc, job);
}

/* One pair of boots (the client's r->boot-th), its profile into p: the
 * client's, with the responder's side; with --exact each guest's counts
 * folded into its side. An enum result. */
static int pair_once(struct guest_run *gs, struct guest_run *gc,
		     struct nic_end *es, struct nic_end *ec,
		     const struct lab_job *job, struct profile *p)
{
	int ret, rc;

	memset(p, 0, sizeof(*p));
	if (gc->r->boot && (reset(gs) || reset(gc)))
		return RESULT_FAILURE;
	ret = start_pair(gs, gc, es, ec, job);
	if (ret == LAB_BOOT_KVM_FAILED) {
		/* one guest fell back to TCG: both go under it */
		if (gs->r->accel.kvm)
			gs->r->accel = gc->r->accel;
		else
			gc->r->accel = gs->r->accel;
		ret = reset(gs) || reset(gc) ? -1 : start_pair(gs, gc, es, ec, job);
	}
	if (ret == LAB_BOOT_STALLED && !(job->interrupted && *job->interrupted)) {
		/* as lab-record.c's boot_once: a TCG guest can stall in early
		 * boot on a loaded host; the next boot goes through */
		info("booting the pair again: a TCG guest can stall on a loaded host");
		ret = reset(gs) || reset(gc) ? -1 : start_pair(gs, gc, es, ec, job);
	}
	if (ret)
		return RESULT_FAILURE;
	rc = lab_run_collect(gc->r, gc->rq, job, p);
	if (rc == RESULT_FAILURE)
		return rc;
	if (!p->remote)
		responder_said(gs->r);
	else if (gs->r->plugin && lab_run_fold_exact(gs->r, p->remote)) {
		profile_free(p);
		return RESULT_FAILURE;
	}
	add_tuning(gs->r, p);
	return rc;
}

int lab_record_nic(const struct lab_request *rq, const struct lab_job *job)
{
	struct lab_run s, c;
	struct lab_request srq;
	struct guest_run gs = { .r = &s, .rq = &srq }, gc = { .r = &c, .rq = rq };
	struct nic_end es = { 0 }, ec = { 0 };
	struct profile p, one;
	char key[65], cond[512], what[32];
	int rc = RESULT_FAILURE, brc, got = 0;
	int boots = job->boots > 0 ? job->boots : 1;

	memset(&s, 0, sizeof(s));
	memset(&c, 0, sizeof(c));
	memset(&p, 0, sizeof(p));
	if (make_key(key, sizeof(key)))
		return RESULT_FAILURE;
	responder_request(&srq, rq);
	s.nic = c.nic = job->nic;
	s.key = c.key = key;
	s.addr = LAB_NIC_RESPONDER "/24";
	s.serve_bind = LAB_NIC_RESPONDER;
	c.addr = LAB_NIC_CLIENT "/24";
	c.client = 1;
	s.rps_cpus = job->rps_cpus;
	s.irq_cpu = job->irq_cpu;
	s.busy = job->busy;
	if (lab_run_prepare(&s, &srq, job) || lab_run_prepare(&c, rq, job))
		goto out;
	if (s.arch != c.arch) {
		error("'%s' is an %s kernel and '%s' an %s one: the two guests of --net nic are of one architecture",
		      srq.kernel, s.arch->name, rq->kernel, c.arch->name);
		goto out;
	}
	lab_qemu_version(c.arch, c.qemu_version, sizeof(c.qemu_version));
	lab_accel_choose(&c.accel, c.arch, rq, c.qemu_version);
	s.accel = c.accel;
	nic_end(&es, rq, job->nic, &s, &c, 1);
	nic_end(&ec, rq, job->nic, &c, &s, 2);
	/* with --exact each window is a pair of boots of its own, merged
	 * side by side as lab_record merges one guest's */
	for (c.boot = 0; c.boot < boots; c.boot++) {
		s.boot = c.boot;
		brc = pair_once(&gs, &gc, &es, &ec, job, got ? &one : &p);
		if (brc == RESULT_FAILURE)
			break;
		snprintf(what, sizeof(what), "pair %d", c.boot + 1);
		if (lab_merge_boot(&p, &one, brc, what, &got, &rc))
			break;
		if (job->interrupted && *job->interrupted)
			break;
	}
	rc = lab_merged(got, boots, "pairs", rc);
	if (!got)
		goto out;
	c.boot = got;
	snprintf(cond, sizeof(cond), "%s, client %s, responder %s (serve), QEMU dgram link between the two guests",
		 strcmp(job->nic, "vmxnet3") ? "virtio-net-pci" : "vmxnet3",
		 LAB_NIC_CLIENT, LAB_NIC_RESPONDER);
	profile_add_condition(&p, LAB_COND_NIC, cond);
	add_kernels(&p, &srq, &s);
	if (lab_run_finish(&c, rq, job, &p))
		rc = RESULT_FAILURE;
out:
	profile_free(&p);
	lab_run_free(&c);
	lab_run_free(&s);
	return rc;
}
