// SPDX-License-Identifier: GPL-2.0-only
#include "sampler.h"

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
#include "profile.h"

struct ring {
	int fd;
	int event, cpu;
	void *base;
	size_t map_len;
	struct ring_stats stats;
};

struct sampler {
	struct ring *rings;     /* nevents * ncpus */
	int nrings;
	int *fds;
	int nevents;
	uint64_t data_size;
	struct aggregate agg;
	pid_t client, responder, self;
	struct pollfd *pfds;
};

static long perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

static int read_int_file(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static void explain(struct sampler_failure *why, int err,
		    const struct event_spec *ev, int cpu)
{
	long paranoid = 2;

	why->err = err;
	why->cpu = cpu;
	read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid);
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
			 "kernel rejected event '%s' on CPU %d: %s "
			 "(period %llu below the kernel's limit, or CPU offline?)",
			 ev->name, cpu, strerror(err),
			 (unsigned long long)ev->period);
		break;
	case EMFILE:
		snprintf(why->msg, sizeof(why->msg),
			 "too many open files for %s on CPU %d: raise 'ulimit -n'",
			 ev->name, cpu);
		break;
	default:
		snprintf(why->msg, sizeof(why->msg),
			 "cannot open event '%s' on CPU %d: %s", ev->name, cpu,
			 strerror(err));
	}
}

static int open_ring(struct sampler *s, struct ring *r,
		     const struct event_spec *ev, unsigned pages,
		     struct sampler_failure *why)
{
	struct perf_event_attr attr = ev->attr;

	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.sample_period = ev->period;
	attr.sample_type = RING_SAMPLE_TYPE;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* wake the reader when a quarter of the ring is full, not per sample */
	attr.watermark = 1;
	attr.wakeup_watermark = (uint32_t)(s->data_size / 4);
	r->fd = (int)perf_event_open(&attr, -1, r->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0) {
		explain(why, errno, ev, r->cpu);
		why->event = r->event;
		return -1;
	}
	r->map_len = (size_t)(pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		why->err = errno;
		snprintf(why->msg, sizeof(why->msg),
			 "cannot map %u-page ring buffer for CPU %d: %s "
			 "(raise kernel.perf_event_mlock_kb or use fewer pages)",
			 pages, r->cpu, strerror(errno));
		return -1;
	}
	return 0;
}

int sampler_open(struct sampler **out, const struct sampler_config *c,
		 struct sampler_failure *why)
{
	struct sampler *s;
	int e, i;

	memset(why, 0, sizeof(*why));
	if (!c->ring_pages || (c->ring_pages & (c->ring_pages - 1))) {
		snprintf(why->msg, sizeof(why->msg),
			 "ring buffer pages must be a power of two, not %u",
			 c->ring_pages);
		why->err = EINVAL;
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (!s || aggregate_init(&s->agg)) {
		free(s);
		snprintf(why->msg, sizeof(why->msg), "out of memory");
		return -1;
	}
	s->nevents = c->nevents;
	s->nrings = c->nevents * c->ncpus;
	s->data_size = (uint64_t)c->ring_pages * (uint64_t)sysconf(_SC_PAGESIZE);
	s->rings = calloc((size_t)s->nrings, sizeof(*s->rings));
	s->fds = calloc((size_t)s->nrings, sizeof(*s->fds));
	s->pfds = calloc((size_t)s->nrings, sizeof(*s->pfds));
	if (!s->rings || !s->fds || !s->pfds) {
		sampler_close(s);
		snprintf(why->msg, sizeof(why->msg), "out of memory");
		return -1;
	}
	for (i = 0; i < s->nrings; i++)
		s->rings[i].fd = -1;
	for (e = 0; e < c->nevents; e++) {
		for (i = 0; i < c->ncpus; i++) {
			struct ring *r = &s->rings[e * c->ncpus + i];

			r->event = e;
			r->cpu = c->cpus[i];
			if (open_ring(s, r, &c->events[e], c->ring_pages, why)) {
				sampler_close(s);
				return -1;
			}
			s->fds[e * c->ncpus + i] = r->fd;
			s->pfds[e * c->ncpus + i].fd = r->fd;
			s->pfds[e * c->ncpus + i].events = POLLIN;
		}
	}
	*out = s;
	return 0;
}

int sampler_fds(const struct sampler *s, const int **fds)
{
	*fds = s->fds;
	return s->nrings;
}

void sampler_set_roles(struct sampler *s, pid_t client, pid_t responder,
		       pid_t self)
{
	s->client = client;
	s->responder = responder;
	s->self = self;
}

struct drain_ctx {
	struct sampler *s;
	struct ring *r;
};

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
	return ROLE_OTHER;
}

static void on_sample(void *ctx, const struct ring_sample *rs)
{
	struct drain_ctx *d = ctx;
	struct agg_key k = {
		.ip = rs->ip,
		.event = (uint32_t)d->r->event,
		.cpu = (uint16_t)rs->cpu,
		.role = (uint16_t)role_of(d->s, rs->pid),
	};

	if (aggregate_add(&d->s->agg, &k, rs->period))
		d->r->stats.bad++;  /* out of memory: counted, not silently lost */
}

void sampler_drain(struct sampler *s)
{
	int i;

	for (i = 0; i < s->nrings; i++) {
		struct drain_ctx d = { s, &s->rings[i] };

		ring_read(s->rings[i].base, s->data_size, RING_SAMPLE_TYPE,
			  &s->rings[i].stats, on_sample, &d);
	}
}

int sampler_poll(struct sampler *s, int timeout_ms)
{
	int n = poll(s->pfds, (nfds_t)s->nrings, timeout_ms);

	if (n < 0 && errno != EINTR)
		return error("cannot poll perf events: %s", strerror(errno));
	sampler_drain(s);
	return 0;
}

const struct aggregate *sampler_aggregate(const struct sampler *s)
{
	return &s->agg;
}

void sampler_stats(const struct sampler *s, int event, struct ring_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < s->nrings; i++) {
		const struct ring_stats *r = &s->rings[i].stats;

		if (s->rings[i].event != event)
			continue;
		st->samples += r->samples;
		st->lost += r->lost;
		st->lost_samples += r->lost_samples;
		st->throttle += r->throttle;
		st->unthrottle += r->unthrottle;
		st->bad += r->bad;
		st->other += r->other;
	}
}

int sampler_count(const struct sampler *s, int event, uint64_t *value,
		  uint64_t *enabled, uint64_t *running)
{
	int i;

	*value = *enabled = *running = 0;
	for (i = 0; i < s->nrings; i++) {
		uint64_t v[3];

		if (s->rings[i].event != event)
			continue;
		if (read(s->rings[i].fd, v, sizeof(v)) != (ssize_t)sizeof(v))
			return error("cannot read counter of CPU %d: %s",
				     s->rings[i].cpu, strerror(errno));
		*value += v[0];
		*enabled += v[1];
		*running += v[2];
	}
	return 0;
}

void sampler_close(struct sampler *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; s->rings && i < s->nrings; i++) {
		struct ring *r = &s->rings[i];

		if (r->fd >= 0)
			ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
		if (r->base)
			munmap(r->base, r->map_len);
		if (r->fd >= 0)
			close(r->fd);
	}
	aggregate_free(&s->agg);
	free(s->rings);
	free(s->fds);
	free(s->pfds);
	free(s);
}
