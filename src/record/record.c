// SPDX-License-Identifier: GPL-2.0-only
#include "record/record.h"
#include "record/internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "system/conditions.h"
#include "error.h"
#include "exitcode.h"
#include "lab/lab.h"
#include "system/procstat.h"
#include "profile/profile.h"
#include "profile/output.h"
#include "counters/sampler.h"
#include "system/sysinfo.h"
#include "workload/workload.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Work out which CPUs to use; the choices are printed so runs can be
 * repeated exactly. */
struct placement {
	int online[MAX_CPUS];
	int nonline;
	int sample[MAX_CPUS];
	int nsample;
	int client, server, self;  /* self -1: not pinned */
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void add_cpu(struct placement *pl, int cpu)
{
	if (cpu >= 0 && !cpu_list_has(pl->sample, pl->nsample, cpu))
		pl->sample[pl->nsample++] = cpu;
}

static int place(const struct record_options *o, struct placement *pl)
{
	int i;

	pl->nonline = sysinfo_online_cpus(pl->online, MAX_CPUS);
	if (pl->nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	pl->client = o->client_cpu;
	pl->server = o->server_cpu;
	if (o->placement && workload_place(o->placement, pl->online, pl->nonline,
					   &pl->client, &pl->server))
		return -1;
	if (pl->client < 0)
		pl->client = pl->online[pl->nonline - 1];
	if (pl->server < 0)
		pl->server = pl->client;
	if (!cpu_list_has(pl->online, pl->nonline, pl->client))
		return error("client CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->client);
	if (!cpu_list_has(pl->online, pl->nonline, pl->server))
		return error("server CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->server);
	/* keep perpkt's own work off the workload's CPUs when it can */
	pl->self = -1;
	for (i = 0; i < pl->nonline; i++) {
		if (pl->online[i] != pl->client && pl->online[i] != pl->server) {
			pl->self = pl->online[i];
			break;
		}
	}
	pl->nsample = 0;
	if (o->all_cpus) {
		memcpy(pl->sample, pl->online, sizeof(int) * (size_t)pl->nonline);
		pl->nsample = pl->nonline;
	} else if (o->ncpus) {
		for (i = 0; i < o->ncpus; i++)
			if (!cpu_list_has(pl->online, pl->nonline, o->cpus[i]))
				return error("CPU %d in --cpus is not online "
					     "(see /sys/devices/system/cpu/online)",
					     o->cpus[i]);
		memcpy(pl->sample, o->cpus, sizeof(int) * (size_t)o->ncpus);
		pl->nsample = o->ncpus;
	} else {
		/* the workload's CPUs, where loopback softirqs run too, and
		 * perpkt's own, so its cost is seen rather than hidden */
		add_cpu(pl, pl->client);
		add_cpu(pl, pl->server);
		add_cpu(pl, pl->self);
	}
	qsort(pl->sample, (size_t)pl->nsample, sizeof(int), cmp_int);
	return 0;
}

unsigned record_ring_pages(const struct record_options *o, int ncpus)
{
	unsigned pages = 512;

	if (o->ring_pages)
		return o->ring_pages;
	if (geteuid() != 0)
		return 128;
	while (pages > 128 && pages * (unsigned)ncpus > 2048)
		pages /= 2;
	return pages;
}

int record_open_counters(const struct record_options *o, const int *cpus,
			 int ncpus, const struct event_spec *evs, int nev,
			 struct sampler **s)
{
	struct sampler_config cfg = {
		.events = evs, .nevents = nev,
		.cpus = cpus, .ncpus = ncpus,
		.ring_pages = record_ring_pages(o, ncpus), .callchain = o->callchain,
	};
	struct sampler_failure why;

	if (sampler_open(s, &cfg, &why))
		return error("%s", why.msg);
	return 0;
}

static void progress(const struct record_options *o, const struct workload *w,
		     double elapsed)
{
	unsigned long long rts = workload_window_progress(w);

	if (o->quiet || !isatty(STDERR_FILENO) ||
	    (o->count ? elapsed < 2 : o->duration < 2))
		return;
	if (o->count)
		fprintf(stderr, "\rperpkt: recording %llu/%llu round trips, %.0f s ",
			rts, (unsigned long long)o->count, elapsed);
	else
		fprintf(stderr, "\rperpkt: recording %.0f/%.0f s, %llu round trips ",
			elapsed, o->duration, rts);
}

/* Say what is about to run, so the run can be repeated exactly. */
static void describe(const struct record_options *o, const struct placement *pl,
		     const struct event_spec *evs, int nev)
{
	char events[512] = "", cpus[256] = "", self[32] = "perpkt not pinned",
	     span[64];
	size_t len = 0, clen = 0;
	int e, i;

	for (e = 0; e < nev && len < sizeof(events); e++) {
		if (evs[e].companion)
			continue;
		len += (size_t)snprintf(events + len, sizeof(events) - len, "%s%s",
					len ? ", " : "", evs[e].name);
		if (evs[e].count_only || len >= sizeof(events))
			continue;
		if (evs[e].freq)
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" at %llu Hz",
						(unsigned long long)evs[e].period);
		else
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" every %llu %s",
						(unsigned long long)evs[e].period,
						evs[e].unit);
	}
	for (i = 0; i < pl->nsample && clen < sizeof(cpus); i++)
		clen += (size_t)snprintf(cpus + clen, sizeof(cpus) - clen, "%s%d",
					 i ? "," : "", pl->sample[i]);
	/* client and server on different CPUs leave perpkt unpinned */
	if (pl->self >= 0)
		snprintf(self, sizeof(self), "perpkt on CPU %d", pl->self);
	if (o->repeat > 1)
		snprintf(span, sizeof(span), "%d windows of %g s (%g s)", o->repeat,
			 o->duration, o->repeat * o->duration);
	else
		snprintf(span, sizeof(span), "%g s", o->duration);
	info("%s ping-pong %s %s, %u-byte messages, client CPU %d, "
	     "server CPU %d, %s",
	     o->transport ? o->transport : "udp",
	     o->peer ? "with peer" : o->echo ? "with echo service" : "on",
	     o->peer ? o->peer : o->echo ? o->echo : o->network ? o->network : "loopback",
	     o->message_size, pl->client, pl->server, self);
	if (o->count)
		snprintf(span, sizeof(span), "%llu round trips",
			 (unsigned long long)o->count);
	info("%s %s on CPU %s for %s%s", o->counting_only ? "counting" : "sampling",
	     events, cpus, span, o->callchain ? ", with callchains" : "");
}

static void fill_workload(struct profile *p, const struct record_options *o,
			  const struct placement *pl,
			  const struct workload_result *res)
{
	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt " PERPKT_VERSION);
	p->command = record_command_line(o->argc, o->argv);
	record_fill_unit(p, &o->per);
	p->transport = strdup(o->transport ? o->transport : "udp");
	p->network = strdup(o->peer ? "peer" : o->echo ? "echo" :
			    o->network ? o->network : "loopback");
	p->message_size = o->message_size;
	p->client_cpu = pl->client;
	p->server_cpu = pl->server;
	p->warmup_s = o->warmup;
	p->round_trips = res->round_trips;
	p->window_ns = res->window_ns;
	histogram_summary(&res->latency, &p->latency);
	histogram_summary(&res->unsampled, &p->latency_unsampled);
	p->hist_sub_buckets = HIST_SUB;
	if (histogram_export(&res->latency, &p->histogram, &p->nhistogram))
		warning("out of memory: the latency histogram is left out");
	p->cpus = malloc(sizeof(int) * (size_t)pl->nsample);
	if (p->cpus) {
		memcpy(p->cpus, pl->sample, sizeof(int) * (size_t)pl->nsample);
		p->ncpus_sampled = (size_t)pl->nsample;
	}
}

/* --peer: what perpkt serve should record of its side, as this side
 * samples (stat counts only: nothing asked). */
static const struct control_setup *peer_request(const struct record_options *o,
						struct control_setup *rq)
{
	if (!o->peer || o->no_remote || o->counting_only)
		return NULL;
	memset(rq, 0, sizeof(*rq));
	rq->profile = 1;
	rq->period = o->period;
	rq->freq = o->freq;
	rq->callchain = o->callchain;
	rq->include_user = o->include_user;
	if (o->remote_cpus)
		snprintf(rq->cpus, sizeof(rq->cpus), "%s", o->remote_cpus);
	if (strlen(o->events) < sizeof(rq->events) && !strchr(o->events, ' '))
		strcpy(rq->events, o->events);
	else
		warning("-e is too long for the peer: perpkt serve samples its "
			"default events");
	return rq;
}

/* The responder's side from perpkt serve into p->remote, or why not
 * into p->remote_missing: the profile is kept either way. */
static void attach_remote(const struct record_options *o, struct workload *w,
			  struct profile *p)
{
	char why[300], *text = NULL;
	struct profile *r;
	size_t len = 0;

	if (workload_peer_profile(w, &text, &len, why, sizeof(why)) == 0) {
		r = calloc(1, sizeof(*r));
		if (r && !profile_read_json(r, text, len, "from the peer")) {
			p->remote = r;
			free(text);
			if (!o->quiet)
				info("the responder's side: %llu round trips answered "
				     "in %.3f s on %s, %zu sample entries",
				     (unsigned long long)r->round_trips,
				     (double)r->window_ns * 1e-9,
				     r->hostname ? r->hostname : "the peer",
				     r->nsamples);
			return;
		}
		free(r);
		snprintf(why, sizeof(why), "its profile did not read (said above)");
	}
	free(text);
	warning("the responder's side is not in the profile: %s", why);
	p->remote_missing = strdup(why);
}

/* Write the profile (record); stat's caller renders the counts. */
int record_finish(const struct record_options *o, struct profile *p,
		  struct sampler *s, struct profile_output *out, int cut_short)
{
	uint64_t lost = 0, samples = 0;
	int code = RESULT_OK;
	size_t e;

	/* a group the PMU could never schedule counted nothing: no result */
	for (e = 0; e < p->nevents; e++) {
		if (p->events[e].running_ns == 0 && p->events[e].enabled_ns) {
			error("'%s' never ran: too many events for the PMU to "
			      "count together; ask for fewer with -e",
			      p->events[e].name);
			return RESULT_FAILURE;
		}
	}
	if (!o->counting_only) {
		if (record_collect_samples(p, sampler_aggregate(s)) ||
		    record_collect_stacks(p, sampler_stacks(s)))
			return RESULT_FAILURE;
		record_attach_ksyms(p);
		record_attach_modules(p, "/sys/module", "/proc/modules");
		if (profile_output_commit(out, p))
			return RESULT_FAILURE;
	}
	for (e = 0; e < p->nevents; e++) {
		samples += p->events[e].samples;
		if (p->events[e].running_ns < p->events[e].enabled_ns)
			warning("'%s' was multiplexed (ran %.0f%% of the window): "
				"counts are scaled estimates", p->events[e].name,
				100.0 * (double)p->events[e].running_ns /
				(double)p->events[e].enabled_ns);
		if (profile_event_not_counting(p, e))
			warning("'%s' %s: reported as not counting, not as "
				"zero", p->events[e].name,
				profile_event_not_counting(p, e));
	}
	if (p->nevents)
		lost = p->events[0].lost;
	/* a signal during the write leaves a complete window complete */
	if (cut_short) {
		warning("interrupted: the window was cut short; the result is partial");
		code = RESULT_PARTIAL;
	}
	if (lost) {
		warning("%llu samples lost: raise --ring-pages or the period",
			(unsigned long long)lost);
		code = RESULT_PARTIAL;
	}
	if (!o->quiet) {
		char done[160] = "";

		if (!o->counting_only)
			snprintf(done, sizeof(done), "; %llu samples; wrote %s%s%s",
				 (unsigned long long)samples,
				 strcmp(o->output, "-") ? "'" : "",
				 strcmp(o->output, "-") ? o->output : "to standard output",
				 strcmp(o->output, "-") ? "'" : "");
		char p50[32] = "";

		if (p->latency.count)
			snprintf(p50, sizeof(p50), ", p50 %.1f us",
				 (double)p->latency.p50 / 1000);
		info("%llu %ss in %.3f s (%.0f/s%s)%s",
		     (unsigned long long)p->round_trips, profile_unit_name(p),
		     (double)p->window_ns * 1e-9,
		     p->window_ns ? (double)p->round_trips * 1e9 / (double)p->window_ns : 0,
		     p50, done);
	}
	return code;
}

/* One measurement window: open at a round-trip boundary, drain the
 * rings until the duration or count is reached, close at a boundary. */
static int run_window(const struct record_options *o, struct workload *w,
		      struct sampler *s, struct procstat *a, struct procstat *b,
		      struct workload_result *res, int *cut)
{
	double t0;

	memset(res, 0, sizeof(*res));
	if (workload_window_open(w) ||
	    procstat_take(a, workload_client_pid(w), workload_responder_pid(w)))
		return -1;
	t0 = now_s();
	/* -n: the client closes the window itself after that many */
	while (!*o->interrupted && (o->count ? !workload_window_done(w) :
				    now_s() - t0 < o->duration)) {
		double left_ms = o->count ? 100 : (o->duration - (now_s() - t0)) * 1000;

		if (sampler_poll(s, left_ms < 100 ? (int)left_ms + 1 : 100))
			break;
		progress(o, w, now_s() - t0);
	}
	*cut = *o->interrupted != 0;
	if (!o->quiet && isatty(STDERR_FILENO) &&
	    (o->count ? now_s() - t0 >= 2 : o->duration >= 2))
		fputc('\n', stderr);
	/* a responder that died mid-run leaves a partial, labelled result */
	if ((workload_window_close(w, res) && !res->partial) ||
	    procstat_take(b, workload_client_pid(w), workload_responder_pid(w)))
		return -1;
	/* every sample of this window is read before the next one starts */
	sampler_drain(s);
	return 0;
}

static uint64_t task_cpu(const struct procstat *a, const struct procstat *b,
			 enum role role)
{
	int i, j;

	for (i = 0; i < b->ntasks; i++)
		for (j = 0; j < a->ntasks; j++)
			if (b->task[i].role == role && a->task[j].pid == b->task[i].pid)
				return b->task[i].cpu_ns - a->task[j].cpu_ns;
	return 0;
}

/*
 * --repeat N: N windows in one run, same set-up, fresh counts for each.
 * Samples carry their window's index; each window's round trips,
 * latency, event totals and CPU time are kept, and `total` sums them.
 * first/last are the /proc snapshots at the first open and last close.
 */
static int run_windows(const struct record_options *o, struct workload *w,
		       struct sampler *s, const struct event_spec *evs, int nev,
		       const struct placement *pl, struct profile *p,
		       struct procstat *first, struct procstat *last,
		       struct workload_result *total, int *cut_short)
{
	size_t ncounts = (size_t)(nev * pl->nsample);
	struct sampler_count *prev = calloc(ncounts, sizeof(*prev));
	struct sampler_count *cur = calloc(ncounts, sizeof(*cur));
	int nrep = o->repeat > 0 ? o->repeat : 1, r, e, i, ret = -1;

	memset(total, 0, sizeof(*total));
	histogram_init(&total->latency);
	p->repeats = calloc((size_t)nrep, sizeof(*p->repeats));
	if (!prev || !cur || !p->repeats) {
		error("out of memory");
		goto out;
	}
	for (r = 0; r < nrep && !*o->interrupted && !total->partial; r++) {
		struct profile_repeat *rp = &p->repeats[r];
		struct procstat a, b;
		struct workload_result res;
		int k = 0, cut = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sampler_set_repeat(s, r);
		if (run_window(o, w, s, &a, &b, &res, &cut) || sampler_read(s, cur)) {
			procstat_free(&a);
			procstat_free(&b);
			goto out;
		}
		rp->round_trips = res.round_trips;
		rp->window_ns = res.window_ns;
		rp->partial = cut || res.partial;
		rp->fraction = o->count ? (double)res.round_trips / (double)o->count :
			       (double)res.window_ns / (o->duration * 1e9);
		if (rp->fraction > 1 || !rp->partial)
			rp->fraction = 1;
		*cut_short |= cut;
		histogram_summary(&res.latency, &rp->latency);
		rp->client_cpu_ns = task_cpu(&a, &b, ROLE_CLIENT);
		rp->responder_cpu_ns = task_cpu(&a, &b, ROLE_RESPONDER);
		rp->counts = calloc((size_t)nev, sizeof(uint64_t));
		if (!rp->counts) {
			procstat_free(&a);
			procstat_free(&b);
			error("out of memory");
			goto out;
		}
		/* group counts run on across windows: take the difference */
		for (e = 0; e < nev; e++) {
			if (evs[e].companion)
				continue;
			for (i = 0; i < pl->nsample; i++)
				rp->counts[k] += record_scaled(&cur[i * nev + e]) -
						 record_scaled(&prev[i * nev + e]);
			k++;
		}
		memcpy(prev, cur, ncounts * sizeof(*cur));
		p->nrepeats = (size_t)r + 1;

		total->round_trips += res.round_trips;
		total->window_ns += res.window_ns;
		total->timeouts += res.timeouts;
		total->late_replies += res.late_replies;
		total->duplicates += res.duplicates;
		histogram_merge(&total->latency, &res.latency);
		if (res.partial) {
			total->partial = 1;
			memcpy(total->error, res.error, sizeof(total->error));
		}
		total->remote = res.remote;
		if (r == 0) {
			total->unsampled = res.unsampled;
			*first = a;
		}
		else
			procstat_free(&a);
		procstat_free(last);
		*last = b;
		if (nrep > 1 && !o->quiet)
			info("window %d of %d: %llu round trips, p50 %.1f us", r + 1,
			     nrep, (unsigned long long)res.round_trips,
			     (double)rp->latency.p50 / 1000);
	}
	ret = 0;
out:
	free(prev);
	free(cur);
	return ret;
}

static int run(const struct record_options *o, struct profile *keep)
{
	struct event_spec evs[MAX_EVENTS];
	struct procstat before, after;
	struct placement pl;
	struct sampler *s = NULL;
	struct workload *w = NULL;
	struct workload_result res;
	struct profile p;
	struct profile_output out = { .fd = -1 };
	struct control_setup peer_rq;
	const int *fds;
	int nfds, nev = 0, code = RESULT_FAILURE, snapped = 0, e, cut = 0;
	double t0;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	if (place(o, &pl))
		return RESULT_FAILURE;
	/* a bad -o must fail now, not after the measurement */
	if (!o->counting_only && profile_output_open(&out, o->output))
		return RESULT_FAILURE;
	if (record_choose_events(o, pl.sample[0], evs, &nev, &p) || record_open_counters(o, pl.sample, pl.nsample, evs, nev, &s))
		goto out;
	nfds = sampler_fds(s, &fds);
	if (!o->quiet)
		describe(o, &pl, evs, nev);
	{
		struct workload_config wc = {
			.transport = o->transport, .network = o->network,
			.peer = o->peer, .echo = o->echo, .count = o->count,
			.peer_recording = peer_request(o, &peer_rq),
			.gap_ns = o->gap_ns, .gap_spin = o->gap_spin,
			.rps_cpus = o->rps_cpus, .set_irq_cpu = o->irq_cpu >= 0,
			.irq_cpu = o->irq_cpu,
			.pin_self = pl.self >= 0, .self_cpu = pl.self,
			.client_cpu = pl.client, .server_cpu = pl.server,
			.message_size = o->message_size,
			.window_fds = fds, .nwindow_fds = nfds,
		};

		if (workload_start(&w, &wc))
			goto out;
	}
	sampler_set_roles(s, workload_client_pid(w), workload_responder_pid(w),
			  getpid());
	t0 = now_s();
	while (!*o->interrupted && now_s() - t0 < o->warmup)
		usleep(10000);
	if (*o->interrupted) {
		error("interrupted during warm-up: nothing measured");
		goto out;
	}
	if (run_windows(o, w, s, evs, nev, &pl, &p, &before, &after, &res, &cut))
		goto out;
	/* asked against taken, so a report can say the run went wrong */
	p.wall_ns = (uint64_t)((now_s() - t0) * 1e9);
	p.asked_window_ns = o->count ? 0 : (uint64_t)(o->duration * 1e9) *
					   (uint64_t)(o->repeat > 0 ? o->repeat : 1);
	p.asked_ns = p.asked_window_ns ? p.asked_window_ns +
				       (uint64_t)(o->warmup * 1e9) : 0;
	snapped = 1;
	if (o->peer && !o->no_remote && !o->counting_only)
		attach_remote(o, w, &p);
	workload_add_conditions(w, &p);
	workload_stop(w);  /* before the slow part: symbols and the write */
	w = NULL;

	sysinfo_fill(&p);
	conditions_capture(&p, pl.client, pl.server, o->message_size);
	conditions_add_result(&p, &res);
	fill_workload(&p, o, &pl, &res);
	for (e = 0; e < nev; e++)
		if (evs[e].software_clock)
			p.mode = strdup("software-clock");
	if (!p.mode)
		p.mode = strdup("hardware");
	if (procstat_delta(&before, &after, pl.sample, pl.nsample, &p) ||
	    record_fill_counters(&p, evs, nev, s, pl.sample, pl.nsample))
		goto out;
	for (e = 0; e < (int)p.ntasks; e++)
		p.tasks[e].cpu = p.tasks[e].role == ROLE_CLIENT ? pl.client : pl.server;
	code = record_finish(o, &p, s, &out, cut);
	if (res.partial && code == RESULT_OK) {
		warning("%s: kept the %llu round trips before it", res.error,
			(unsigned long long)res.round_trips);
		code = RESULT_PARTIAL;
	}
out:
	if (!snapped && *o->interrupted)
		code = RESULT_FAILURE;
	if (keep && code != RESULT_FAILURE) {
		*keep = p;
		memset(&p, 0, sizeof(p));
	}
	profile_output_abort(&out);
	procstat_free(&before);
	procstat_free(&after);
	workload_stop(w);
	sampler_close(s);
	profile_free(&p);
	return code;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

int record_run(struct record_options *o, struct profile *out)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	o->interrupted = &interrupted;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* --kernel: the same run inside a guest under QEMU (src/lab/);
	 * -- CMD or -p: a workload of one's own (record-command.c) */
	if (o->kernel && !out)
		ret = lab_record(o);
	else if (o->command || o->nattach)
		ret = record_run_command(o, out);
	else
		ret = run(o, out);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return ret;
}
