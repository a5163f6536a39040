// SPDX-License-Identifier: GPL-2.0-only
#include "reports/model/sides.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/summary.h"

/* Buckets shown side by side, the largest of either side first. */
#define SIDES_BUCKETS 10

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vasprintf(&s, f, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static struct side_line *add(struct sides *s, const char *label)
{
	struct side_line *l;

	if (s->n >= sizeof(s->lines) / sizeof(s->lines[0]))
		return NULL;
	l = &s->lines[s->n++];
	memset(l, 0, sizeof(*l));
	l->label = strdup(label);
	l->vlocal = l->vremote = -1;
	return l;
}

static char *text_or(const char *v)
{
	return strdup(v ? v : "unknown");
}

static void add_text(struct sides *s, const char *label, const char *local,
		     const char *remote)
{
	struct side_line *l = add(s, label);

	if (!l)
		return;
	l->local = text_or(local);
	l->remote = text_or(remote);
	l->vlocal = l->vremote = -2;
}

/* A value in the first event's unit: ns become us, as elsewhere. */
static char *value(const struct model *m, double v)
{
	const char *u = summary_unit(m, 0);

	if (v < 0)
		return strdup("n/a");
	if (!strcmp(u, "ns"))
		return fmt("%.2f us", v / 1000);
	return fmt("%.0f %s", v, u);
}

static struct side_line *add_value(struct sides *s, const char *label,
				   const struct model *m, double local,
				   double remote)
{
	struct side_line *l = add(s, label);

	if (!l)
		return NULL;
	l->vlocal = local;
	l->vremote = remote;
	l->unit = summary_unit(m, 0);
	l->local = value(m, local);
	l->remote = value(m->remote, remote);
	return l;
}

static double bucket_value(const struct model *m, const char *name)
{
	const struct model_row *r = model_bucket(m, name);

	return r ? r->per_rt[0] : 0;
}

static int is_listed(char **names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* The union of both sides' buckets, largest of either first. */
static void add_buckets(struct sides *s, const struct model *m)
{
	const struct model *r = m->remote;
	char *names[2 * SIDES_BUCKETS];
	size_t n = 0, i, j;

	for (i = 0; i < SIDES_BUCKETS; i++) {
		if (i < m->nbuckets && !is_listed(names, n, m->buckets[i].name))
			names[n++] = m->buckets[i].name;
		if (i < r->nbuckets && !is_listed(names, n, r->buckets[i].name))
			names[n++] = r->buckets[i].name;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			double a = bucket_value(m, names[j - 1]), b = bucket_value(m, names[j]);
			double ra = bucket_value(r, names[j - 1]), rb = bucket_value(r, names[j]);
			char *t;

			if ((a > ra ? a : ra) >= (b > rb ? b : rb))
				break;
			t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (i = 0; i < n && i < SIDES_BUCKETS; i++) {
		char label[80];

		if (!strcmp(names[i], MODEL_IDLE_BUCKET))
			continue;
		struct side_line *l;

		snprintf(label, sizeof(label), "  %.60s", names[i]);
		l = add_value(s, label, m, bucket_value(m, names[i]),
			      bucket_value(r, names[i]));
		if (l)
			l->bucket = 1;
	}
}

static const char *top_function(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nfunctions; i++)
		if (!m->functions[i].bucket ||
		    strcmp(m->functions[i].bucket, MODEL_IDLE_BUCKET))
			return m->functions[i].name;
	return NULL;
}

/* "0" or "0,1,2": the CPUs a side sampled, cut short when long */
static const char *cpu_list(char *buf, size_t len, const struct run_facts *run)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; i < run->ncpus_sampled && used + 16 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
					 i ? "," : "", run->cpus[i]);
	if (i < run->ncpus_sampled)
		snprintf(buf + used, len - used, ",...");
	return buf;
}

int sides_build(struct sides *s, const struct model *m)
{
	const struct model *r = m->remote;
	const struct run_facts *here = &m->run, *there;
	char lrt[32], rrt[32], cpus[128];
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!r)
		return 0;
	there = &r->run;
	s->title = fmt("both sides, per %s of each (as netperf's local and "
		       "remote service demand):", here->unit.name);
	add_text(s, "host", here->hostname, there->hostname);
	add_text(s, "kernel", here->kernel_release, there->kernel_release);
	add_text(s, "mode", here->mode, there->mode);
	snprintf(lrt, sizeof(lrt), "%llu", (unsigned long long)here->round_trips);
	snprintf(rrt, sizeof(rrt), "%llu", (unsigned long long)there->round_trips);
	add_text(s, "round trips (remote: answered)", lrt, rrt);
	{
		struct side_line *l = add(s, "service demand (/proc/stat)");

		if (l) {
			l->vlocal = m->decomp.service_demand;
			l->vremote = r->decomp.service_demand;
			l->unit = "ns";
			l->local = l->vlocal < 0 ? strdup("n/a") :
				   fmt("%.2f us", l->vlocal / 1000);
			l->remote = l->vremote < 0 ? strdup("n/a") :
				    fmt("%.2f us", l->vremote / 1000);
		}
	}
	add_value(s, "busy kernel (sampled)", m, m->busy.per_rt[0],
		  r->busy.per_rt[0]);
	add_buckets(s, m);
	s->tops = fmt("top function: %s here, %s there",
		      top_function(m) ? top_function(m) : "none",
		      top_function(r) ? top_function(r) : "none");
	if (strcmp(summary_unit(m, 0), summary_unit(r, 0)))
		s->note = fmt("the two sides sampled different events (%s here, %s "
			      "there): compare their service demand, not the "
			      "sampled rows", summary_unit(m, 0), summary_unit(r, 0));
	else
		s->note = fmt("the remote side is perpkt serve's own profile of "
			      "its CPU%s %s; 'perpkt report --side remote' shows it "
			      "whole", there->ncpus_sampled == 1 ? "" : "s",
			      cpu_list(cpus, sizeof(cpus), there));
	for (i = 0; i < s->n; i++)
		if (!s->lines[i].label || !s->lines[i].local || !s->lines[i].remote)
			return error("out of memory");
	if (!s->title || !s->note || !s->tops)
		return error("out of memory");
	return 0;
}

void sides_free(struct sides *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->lines[i].label);
		free(s->lines[i].local);
		free(s->lines[i].remote);
	}
	free(s->title);
	free(s->tops);
	free(s->note);
	memset(s, 0, sizeof(*s));
}
