// SPDX-License-Identifier: GPL-2.0-only
#include "counters/perf-groups.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "error.h"
#include "profile/profile.h"
#include "system/procfile.h"

/* One CPU: its group of events and their shared ring. */
struct group {
	int cpu;
	int *fds;              /* per event; fds[0] leads */
	uint64_t *ids;         /* per event, from PERF_EVENT_IOC_ID */
	uint64_t *samples;     /* per event */
	void *base;            /* ring mmap, NULL if nothing samples */
	size_t map_len;
	struct ring_stats stats;
};

struct sampler {
	struct group *groups;
	int ngroups;
	int nevents;
	int *leaders;
	uint64_t sample_type;
	uint64_t data_size;
	struct aggregate agg;
	struct stack_table stacks;
	int callchain;
	pid_t client, responder, self;
	int (*owns)(void *ctx, pid_t pid);
	void *owns_ctx;
	const pid_t *busy;	/* sampler_set_busy */
	const pid_t *flow_clients, *flow_responders;	/* sampler_set_flows */
	int nflows;
	int nbusy;
	int repeat;
	int by_turns;          /* stacks kept apart by the window's parity */
	struct pollfd *pfds;
	int npfds;
};

static long perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static void explain(struct sampler_failure *why, int err,
		    const struct event_spec *ev, int cpu)
{
	long paranoid = 2;

	why->err = err;
	why->cpu = cpu;
	procfile_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	switch (err) {
	case EACCES:
	case EPERM:
		snprintf(why->msg, sizeof(why->msg),
			 "not allowed to sample CPU %d (kernel.perf_event_paranoid=%ld): "
			 "set kernel.perf_event_paranoid to -1 or run as root "
			 "(or with CAP_PERFMON)", cpu, paranoid);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(why->msg, sizeof(why->msg),
			 "event '%s' is not supported on this machine: %s "
			 "(no hardware PMU?)", ev->name, strerror(err));
		break;
	case EINVAL:
		snprintf(why->msg, sizeof(why->msg),
			 "kernel rejected event '%s' on CPU %d: %s (period or "
			 "frequency above kernel.perf_event_max_sample_rate, "
			 "or CPU offline?)", ev->name, cpu, strerror(err));
		break;
	case EMFILE:
		snprintf(why->msg, sizeof(why->msg),
			 "too many open files for '%s' on CPU %d: raise 'ulimit -n'",
			 ev->name, cpu);
		break;
	case EOVERFLOW:
		snprintf(why->msg, sizeof(why->msg),
			 "callchain depth above kernel.perf_event_max_stack for '%s'",
			 ev->name);
		break;
	default:
		snprintf(why->msg, sizeof(why->msg),
			 "cannot open event '%s' on CPU %d: %s", ev->name, cpu,
			 strerror(err));
	}
}

static void fill_attr(struct perf_event_attr *attr, const struct event_spec *ev,
		      int leader, uint64_t sample_type, int callchain,
		      uint32_t watermark)
{
	*attr = ev->attr;
	attr->size = sizeof(*attr);
	/* only the leader is disabled: enabling it starts the whole group */
	attr->disabled = leader;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			    PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (ev->count_only)
		return;
	attr->sample_type = sample_type;
	attr->freq = ev->freq ? 1 : 0;
	attr->sample_period = ev->period;  /* sample_freq shares the field */
	attr->sample_id_all = 1;
	/* wake the reader when a quarter of the ring is full, not per sample */
	attr->watermark = 1;
	attr->wakeup_watermark = watermark;
	if (callchain) {
		attr->exclude_callchain_user = 1;
		attr->sample_max_stack = (uint16_t)(callchain < STACK_MAX_DEPTH ?
						    callchain : STACK_MAX_DEPTH);
		/* a short chain is for the irq-enable points of a maskable
		 * sampling interrupt (cpu-clock's; a PMU's on arm64 without
		 * pseudo-NMI, record_callchain_depth): the software
		 * counters (context switches, at period 1) need none, and
		 * one frame costs no stack walk */
		if (callchain < STACK_MAX_DEPTH && !ev->software_clock &&
		    ev->attr.type == PERF_TYPE_SOFTWARE)
			attr->sample_max_stack = 1;
	}
}

int sampler_probe(const struct event_spec *ev, int cpu,
		  struct sampler_failure *why)
{
	struct perf_event_attr attr;
	int fd;

	memset(why, 0, sizeof(*why));
	fill_attr(&attr, ev, 1, RING_SAMPLE_TYPE, 0, 4096);
	fd = (int)perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		explain(why, errno, ev, cpu);
		return -1;
	}
	close(fd);
	return 0;
}

static int map_ring(struct sampler *s, struct group *g, int fd, unsigned pages,
		    struct sampler_failure *why)
{
	g->map_len = (size_t)(pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	g->base = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (g->base == MAP_FAILED) {
		g->base = NULL;
		why->err = errno;
		why->cpu = g->cpu;
		snprintf(why->msg, sizeof(why->msg),
			 "cannot map a %u-page ring buffer for CPU %d: %s "
			 "(raise kernel.perf_event_mlock_kb or lower --ring-pages)",
			 pages, g->cpu, strerror(errno));
		return -1;
	}
	s->pfds[s->npfds].fd = fd;
	s->pfds[s->npfds].events = POLLIN;
	s->npfds++;
	return 0;
}

static int open_group(struct sampler *s, struct group *g,
		      const struct sampler_config *c, struct sampler_failure *why)
{
	int e, ring_fd = -1;

	for (e = 0; e < c->nevents; e++) {
		const struct event_spec *ev = &c->events[e];
		struct perf_event_attr attr;
		int fd;

		fill_attr(&attr, ev, e == 0, s->sample_type, c->callchain,
			  (uint32_t)(s->data_size / 4));
		fd = (int)perf_event_open(&attr, -1, g->cpu, e ? g->fds[0] : -1,
					  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && e && (errno == EINVAL || errno == ENOSPC) &&
		    !ev->companion) {
			/* each event opened alone (probed); together they do not
			 * fit: the PMU validates the group as a whole */
			why->err = errno;
			why->cpu = g->cpu;
			why->event = e;
			snprintf(why->msg, sizeof(why->msg),
				 "too many events for the PMU to count together on "
				 "CPU %d ('%s' is number %d): ask for fewer with -e",
				 g->cpu, ev->name, e + 1);
			return -1;
		}
		if (fd < 0) {
			explain(why, errno, ev, g->cpu);
			why->event = e;
			return -1;
		}
		g->fds[e] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &g->ids[e])) {
			why->err = errno;
			snprintf(why->msg, sizeof(why->msg),
				 "cannot read the id of '%s': %s", ev->name,
				 strerror(errno));
			return -1;
		}
		if (ev->count_only)
			continue;
		if (ring_fd < 0) {
			if (map_ring(s, g, fd, c->ring_pages, why))
				return -1;
			ring_fd = fd;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd)) {
			why->err = errno;
			snprintf(why->msg, sizeof(why->msg),
				 "cannot share the ring of CPU %d with '%s': %s",
				 g->cpu, ev->name, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int sampler_open(struct sampler **out, const struct sampler_config *c,
		 struct sampler_failure *why)
{
	struct sampler *s;
	int i, e;

	memset(why, 0, sizeof(*why));
	*out = NULL;
	if (!c->ring_pages || (c->ring_pages & (c->ring_pages - 1))) {
		why->err = EINVAL;
		snprintf(why->msg, sizeof(why->msg),
			 "ring buffer pages must be a power of two, not %u",
			 c->ring_pages);
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (!s || aggregate_init(&s->agg) || stacks_init(&s->stacks)) {
		if (s)
			aggregate_free(&s->agg);
		free(s);
		snprintf(why->msg, sizeof(why->msg), "out of memory");
		return -1;
	}
	s->nevents = c->nevents;
	s->ngroups = c->ncpus;
	s->callchain = c->callchain;
	s->sample_type = RING_SAMPLE_TYPE |
			 (c->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	s->data_size = (uint64_t)c->ring_pages * (uint64_t)sysconf(_SC_PAGESIZE);
	s->groups = calloc((size_t)c->ncpus, sizeof(*s->groups));
	s->leaders = calloc((size_t)c->ncpus, sizeof(*s->leaders));
	/* one more slot: sampler_poll's extra fd */
	s->pfds = calloc((size_t)c->ncpus + 1, sizeof(*s->pfds));
	if (!s->groups || !s->leaders || !s->pfds)
		goto oom;
	for (i = 0; i < c->ncpus; i++) {
		struct group *g = &s->groups[i];

		g->cpu = c->cpus[i];
		g->fds = malloc(sizeof(int) * (size_t)c->nevents);
		g->ids = calloc((size_t)c->nevents, sizeof(*g->ids));
		g->samples = calloc((size_t)c->nevents, sizeof(*g->samples));
		if (!g->fds || !g->ids || !g->samples)
			goto oom;
		for (e = 0; e < c->nevents; e++)
			g->fds[e] = -1;
	}
	for (i = 0; i < c->ncpus; i++) {
		if (open_group(s, &s->groups[i], c, why)) {
			sampler_close(s);
			return -1;
		}
		s->leaders[i] = s->groups[i].fds[0];
	}
	*out = s;
	return 0;
oom:
	sampler_close(s);
	snprintf(why->msg, sizeof(why->msg), "out of memory");
	return -1;
}

int sampler_fds(const struct sampler *s, const int **fds)
{
	*fds = s->leaders;
	return s->ngroups;
}

int sampler_enable(struct sampler *s, int on)
{
	int i;

	for (i = 0; i < s->ngroups; i++)
		if (ioctl(s->leaders[i], on ? PERF_EVENT_IOC_ENABLE :
			  PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) < 0)
			return -1;
	return 0;
}

void sampler_set_roles(struct sampler *s, pid_t client, pid_t responder,
		       pid_t self)
{
	s->client = client;
	s->responder = responder;
	s->self = self;
}

static enum role role_of(const struct sampler *s, uint32_t pid)
{
	if (pid == 0)
		return ROLE_IDLE;
	if ((pid_t)pid == s->client)
		return ROLE_CLIENT;
	if ((pid_t)pid == s->responder)
		return ROLE_RESPONDER;
	if ((pid_t)pid == s->self)
		return ROLE_SELF;
	for (int i = 0; i < s->nflows; i++) {
		if ((pid_t)pid == s->flow_clients[i])
			return ROLE_CLIENT;
		if ((pid_t)pid == s->flow_responders[i])
			return ROLE_RESPONDER;
	}
	if (s->owns && s->owns(s->owns_ctx, (pid_t)pid))
		return ROLE_WORKLOAD;
	for (int i = 0; i < s->nbusy; i++)
		if ((pid_t)pid == s->busy[i])
			return ROLE_BUSY;
	return ROLE_OTHER;
}

void sampler_set_flows(struct sampler *s, const pid_t *clients,
		       const pid_t *responders, int n)
{
	s->flow_clients = clients;
	s->flow_responders = responders;
	s->nflows = n;
}

void sampler_set_busy(struct sampler *s, const pid_t *pids, int n)
{
	s->busy = pids;
	s->nbusy = n;
}

void sampler_set_owner(struct sampler *s, int (*owns)(void *ctx, pid_t pid),
		       void *ctx)
{
	s->owns = owns;
	s->owns_ctx = ctx;
}

void sampler_set_repeat(struct sampler *s, int repeat)
{
	s->repeat = repeat;
}

void sampler_set_by_turns(struct sampler *s)
{
	s->by_turns = 1;
}

struct drain_ctx {
	struct sampler *s;
	struct group *g;
};

static void on_sample(void *ctx, const struct ring_sample *rs)
{
	struct drain_ctx *d = ctx;
	struct agg_key k;
	int e;

	for (e = 0; e < d->s->nevents; e++)
		if (d->g->ids[e] == rs->id)
			break;
	if (e == d->s->nevents) {
		d->g->stats.bad++;  /* a sample of no event of ours */
		return;
	}
	d->g->samples[e]++;
	memset(&k, 0, sizeof(k));
	k.event = (uint16_t)e;
	k.repeat = (uint16_t)d->s->repeat;
	k.cpu = (uint16_t)rs->cpu;
	k.role = (uint16_t)role_of(d->s, rs->pid);
	/* user-space addresses mean nothing to a kernel profile: one bucket */
	k.ip = (rs->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER ?
	       PROFILE_USER_IP : rs->ip;
	if (aggregate_add(&d->s->agg, &k, rs->period))
		d->g->stats.bad++;  /* out of memory: counted, not silently lost */
	if (d->s->callchain && rs->nr &&
	    stacks_add(&d->s->stacks, k.event, k.role,
		       d->s->by_turns ? (uint8_t)(d->s->repeat % 2 + 1) : 0,
		       rs->chain, rs->nr,
		       rs->period))
		d->g->stats.bad++;
}

void sampler_drain(struct sampler *s)
{
	int i;

	for (i = 0; i < s->ngroups; i++) {
		struct drain_ctx d = { s, &s->groups[i] };

		if (s->groups[i].base)
			ring_read(s->groups[i].base, s->data_size, s->sample_type,
				  &s->groups[i].stats, on_sample, &d);
	}
}

int sampler_poll(struct sampler *s, int fd, int timeout_ms)
{
	int n;

	s->pfds[s->npfds].fd = fd;
	s->pfds[s->npfds].events = POLLIN;
	s->pfds[s->npfds].revents = 0;
	n = poll(s->pfds, (nfds_t)s->npfds + (fd >= 0), timeout_ms);

	if (n < 0 && errno != EINTR)
		return error("cannot poll perf events: %s", strerror(errno));
	sampler_drain(s);
	return 0;
}

const struct aggregate *sampler_aggregate(const struct sampler *s)
{
	return &s->agg;
}

const struct stack_table *sampler_stacks(const struct sampler *s)
{
	return &s->stacks;
}

void sampler_ring_stats(const struct sampler *s, int i, struct ring_stats *st)
{
	*st = s->groups[i].stats;
}

uint64_t sampler_samples(const struct sampler *s, int event)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < s->ngroups; i++)
		n += s->groups[i].samples[event];
	return n;
}

int sampler_read(struct sampler *s, struct sampler_count *counts)
{
	size_t len = sizeof(uint64_t) * (3 + 2 * (size_t)s->nevents);
	uint64_t *buf = malloc(len);
	int i, e;
	uint64_t k;

	if (!buf)
		return error("out of memory");
	for (i = 0; i < s->ngroups; i++) {
		struct group *g = &s->groups[i];

		/* {nr, time_enabled, time_running, {value, id}[nr]} */
		if (read(g->fds[0], buf, len) < (ssize_t)(3 * sizeof(uint64_t)) ||
		    buf[0] != (uint64_t)s->nevents) {
			free(buf);
			return error("cannot read the counters of CPU %d: %s",
				     g->cpu, strerror(errno));
		}
		for (e = 0; e < s->nevents; e++) {
			struct sampler_count *c = &counts[i * s->nevents + e];

			memset(c, 0, sizeof(*c));
			for (k = 0; k < buf[0]; k++) {
				if (buf[4 + 2 * k] == g->ids[e]) {
					c->value = buf[3 + 2 * k];
					c->enabled_ns = buf[1];
					c->running_ns = buf[2];
				}
			}
		}
	}
	free(buf);
	return 0;
}

void sampler_close(struct sampler *s)
{
	int i, e;

	if (!s)
		return;
	for (i = 0; s->groups && i < s->ngroups; i++) {
		struct group *g = &s->groups[i];

		if (g->fds && g->fds[0] >= 0)
			ioctl(g->fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (g->base)
			munmap(g->base, g->map_len);
		for (e = s->nevents - 1; g->fds && e >= 0; e--)
			if (g->fds[e] >= 0)
				close(g->fds[e]);
		free(g->fds);
		free(g->ids);
		free(g->samples);
	}
	aggregate_free(&s->agg);
	stacks_free(&s->stacks);
	free(s->groups);
	free(s->leaders);
	free(s->pfds);
	free(s);
}
