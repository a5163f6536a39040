// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sample's place by its context, not by name lists alone:
 *
 * - At a pass-through point (an irq-enable such as pvm_irq_enable, rule
 *   kind "pass"), when the sampling interrupt can be masked (cpu-clock's
 *   hrtimer; an arm64 PMU without pseudo-NMI), a sample due while
 *   interrupts were off is delivered where they come back on: the time
 *   is its caller's. It is charged to the first frame of its callchain
 *   that is not such a point. A true NMI (x86's PMU) lands where the
 *   time went: nothing is moved.
 * - A sample in user space when only the kernel was sampled is skid
 *   (a PMU's overflow interrupt taken after the return to user space):
 *   it is counted apart, in no row, neither busy kernel nor a bucket.
 * - A sample of the idle task (pid 0) is idle unless its function is
 *   real work (a bucket other than other/unknown) or its callchain shows
 *   interrupt work below the idle loop: every paravirtual guest names
 *   its halt differently, and a name list is always a kernel behind.
 *
 * Samples are (event, cpu, ip, role) sums and callchains (event, role,
 * stack) sums, so a sample with several matching stacks is split over
 * them in proportion to their weight; counts and weights stay exact.
 */
#include "reports/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "error.h"
#include "reports/model/model-internal.h"

/* Stacks sorted by (event, role, leaf): the ones of a sample are a run. */
struct leaf_ref {
	uint32_t event;
	enum role role;
	uint64_t ip;
	size_t idx;
};

struct ctx {
	const struct profile *p;
	struct symbolizer *s;
	struct leaf_ref *refs;
	struct profile_sample *out;
	size_t n, cap;
	int charge;          /* software-clock: pass points are charged */
	size_t nrefs;        /* refs: 0 for an exact profile's paths */
};

static int cmp_leaf(const void *pa, const void *pb)
{
	const struct leaf_ref *a = pa, *b = pb;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->role != b->role)
		return a->role < b->role ? -1 : 1;
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* First stack of (event, role, ip) in refs, or c->nrefs. */
static size_t first_leaf(const struct ctx *c, uint32_t event, enum role role,
			 uint64_t ip)
{
	struct leaf_ref key = { event, role, ip, 0 };
	size_t lo = 0, hi = c->nrefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_leaf(&c->refs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int same_leaf(const struct leaf_ref *r, const struct profile_sample *sm)
{
	return r->event == sm->event && r->role == sm->role && r->ip == sm->ip;
}

enum place { PLACE_PASS, PLACE_CALLER, PLACE_IDLE, PLACE_IRQ, PLACE_WORK,
	     PLACE_VAGUE };

/* What the function at ip is: a pass point (when charging), the idle
 * loop by name, interrupt work, other real work, or vague (other,
 * unknown). */
static enum place place_of(struct symbolizer *s, uint64_t ip, int charge)
{
	struct sym_result r;

	if (ip == PROFILE_USER_IP)
		return PLACE_WORK;
	if (symbolizer_resolve(s, ip, &r) != 0 || !r.bucket)
		return PLACE_VAGUE;
	if (r.pass)
		return charge ? PLACE_PASS : PLACE_WORK;
	if (r.caller)
		return PLACE_CALLER;
	if (!strcmp(r.bucket, MODEL_IDLE_BUCKET))
		return PLACE_IDLE;
	if (!strcmp(r.bucket, "irq"))
		return PLACE_IRQ;
	if (!strcmp(r.bucket, "other"))
		return PLACE_VAGUE;
	return PLACE_WORK;
}

/*
 * Where a sample on stack st belongs: *ip the first frame that is not a
 * pass point (the leaf when every frame is one), *charged whether that
 * moved it; for the idle task, whether it is idle: a vague function with
 * no interrupt frame between it and the idle loop.
 */
static int read_stack(struct symbolizer *s, const struct profile_stack *st,
		      int charge, int idle_task, uint64_t *ip, int *charged)
{
	size_t f = 0, k;
	enum place pl;

	while (f < st->depth && place_of(s, st->ips[f], charge) == PLACE_PASS)
		f++;
	if (f == st->depth)
		f = 0;
	*charged = f > 0;
	*ip = st->ips[f];
	if (!idle_task)
		return 0;
	pl = place_of(s, st->ips[f], charge);
	if (pl != PLACE_VAGUE && pl != PLACE_PASS)
		return 0;  /* the idle loop by name, or work: not by context */
	for (k = f + 1; k < st->depth; k++) {
		pl = place_of(s, st->ips[k], charge);
		if (pl == PLACE_IRQ)
			return 0;
		if (pl == PLACE_IDLE)
			break;
	}
	return 1;
}

/* For a helper at ip (rule kind "caller", such as siphash, which
 * conntrack, the flow dissector and TCP all call): the first frame
 * above it that is neither a helper nor a pass point, whose bucket the
 * sample takes; 0 when ip is no helper or no frame qualifies. */
static uint64_t bucket_frame(struct ctx *c, const struct profile_stack *st,
			     uint64_t ip)
{
	size_t k = 0;
	enum place pl;

	if (place_of(c->s, ip, c->charge) != PLACE_CALLER)
		return 0;
	while (k < st->depth && st->ips[k] != ip)
		k++;
	for (k++; k < st->depth; k++) {
		pl = place_of(c->s, st->ips[k], c->charge);
		if (pl == PLACE_VAGUE)
			return 0;
		if (pl != PLACE_CALLER && pl != PLACE_PASS)
			return st->ips[k];
	}
	return 0;
}

static int push(struct ctx *c, const struct profile_sample *sm, uint64_t ip,
		uint64_t count, uint64_t weight, int idle)
{
	struct profile_sample *o;

	if (ARRAY_GROW(c->out, c->n + 1, c->cap))
		return error("out of memory for samples");
	o = &c->out[c->n++];
	*o = *sm;
	o->ip = ip;
	o->count = count;
	o->weight = weight;
	o->context = idle ? PROFILE_CTX_IDLE : PROFILE_CTX_WORK;
	return 0;
}

/* floor(v * num / den) without overflow */
static uint64_t part(uint64_t v, uint64_t num, uint64_t den)
{
	return den ? (uint64_t)((unsigned __int128)v * num / den) : 0;
}

/* Sample sm split over its matching stacks [lo, hi). */
static int split(struct ctx *c, struct model *m, const struct profile_sample *sm,
		 size_t lo, size_t hi, int pass)
{
	uint64_t total = 0, cum = 0, wdone = 0, cdone = 0;
	size_t j;

	for (j = lo; j < hi; j++)
		total += c->p->stacks[c->refs[j].idx].weight;
	for (j = lo; j < hi; j++) {
		const struct profile_stack *st = &c->p->stacks[c->refs[j].idx];
		uint64_t ip, w, n;
		int charged, idle;

		cum += st->weight;
		w = part(sm->weight, cum, total) - wdone;
		n = part(sm->count, cum, total) - cdone;
		wdone += w;
		cdone += n;
		if (!w && !n)
			continue;
		idle = read_stack(c->s, st, c->charge, sm->role == ROLE_IDLE, &ip,
				  &charged);
		if (push(c, sm, ip, n, w, idle))
			return -1;
		c->out[c->n - 1].bucket_ip = bucket_frame(c, st, ip);
		if (pass && charged && sm->event == 0)
			m->pass_charged += n;
	}
	return 0;
}

static int place_sample(struct ctx *c, struct model *m,
			const struct profile_sample *sm)
{
	enum place pl = place_of(c->s, sm->ip, c->charge);
	int idle_task = sm->role == ROLE_IDLE;
	size_t lo, hi;

	if (pl == PLACE_PASS && sm->event == 0)
		m->pass_samples += sm->count;
	if (pl != PLACE_PASS && pl != PLACE_CALLER &&
	    !(idle_task && pl == PLACE_VAGUE))
		return push(c, sm, sm->ip, sm->count, sm->weight, 0);
	lo = first_leaf(c, sm->event, sm->role, sm->ip);
	for (hi = lo; hi < c->nrefs && same_leaf(&c->refs[hi], sm); hi++)
		;
	/* no callchain: where it is, and for the idle task idle */
	if (lo == hi)
		return push(c, sm, sm->ip, sm->count, sm->weight, idle_task);
	return split(c, m, sm, lo, hi, pl == PLACE_PASS);
}

void model_stack_place(const struct model *m, struct symbolizer *s,
		       const struct profile_stack *st, uint64_t *ip, int *idle,
		       uint64_t *bucket_ip)
{
	struct ctx c = { .p = m->profile, .s = s,
			 .charge = m->pass_reason != NULL };
	enum place pl;
	int charged;

	*ip = st->depth ? st->ips[0] : 0;
	*idle = 0;
	*bucket_ip = 0;
	if (!st->depth)
		return;
	/* as place_sample and split place a sample with this leaf */
	pl = place_of(s, *ip, c.charge);
	if (pl != PLACE_PASS && pl != PLACE_CALLER &&
	    !(st->role == ROLE_IDLE && pl == PLACE_VAGUE))
		return;
	*idle = read_stack(s, st, c.charge, st->role == ROLE_IDLE, ip,
			   &charged);
	*bucket_ip = bucket_frame(&c, st, *ip);
}

static int is_arm64(const char *machine)
{
	return machine && (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"));
}

const char *model_irq_maskable(const struct model *m)
{
	const struct profile *p = m->profile;
	const char *v;

	if (!p || !p->mode || profile_exact(p))
		return NULL;
	if (model_software_clock(m))
		return "cpu-clock";
	if (strcmp(p->mode, "hardware") || !is_arm64(p->machine))
		return NULL;
	/* older profiles: the boot command line asks for it (the config
	 * must allow it too, which they did not record) */
	v = profile_condition(p, PROFILE_COND_PSEUDO_NMI);
	if (v ? !strncmp(v, "on", 2) :
	    (v = profile_condition(p, "kernel.cmdline")) &&
	    strstr(v, "irqchip.gicv3_pseudo_nmi=1"))
		return NULL;
	return "arm64 PMU without pseudo-NMI";
}

/* A user-space sample of an event that sampled the kernel only: skid */
static int skid(const struct profile *p, const struct profile_sample *sm)
{
	return sm->ip == PROFILE_USER_IP && !profile_exact(p) &&
	       !profile_event_user(p, sm->event);
}

int model_apply_context(struct model *m, struct symbolizer *s)
{
	const struct profile *p = m->profile;
	/* an NMI lands where the time went, and an exact count is exact:
	 * only a maskable sampling interrupt has the irq-enable blind spot */
	struct ctx c = { .p = p, .s = s };
	size_t i;
	int done = 0;

	m->pass_reason = model_irq_maskable(m);
	c.charge = m->pass_reason != NULL;
	m->pass_samples = m->pass_charged = 0;
	memset(m->skid_samples, 0, sizeof(m->skid_samples));
	memset(m->skid_weight, 0, sizeof(m->skid_weight));
	/* a part of a model (model_combine): its samples are placed */
	for (i = 0; i < p->nsamples; i++)
		done |= p->samples[i].context != 0;
	c.refs = calloc(p->nstacks ? p->nstacks : 1, sizeof(*c.refs));
	if (!c.refs)
		return error("out of memory for callchains");
	/* an exact profile's call paths are a stack per path and function,
	 * not per address: its samples stay where they ran, in their own
	 * bucket, as without paths */
	c.nrefs = profile_exact(p) ? 0 : p->nstacks;
	for (i = 0; i < c.nrefs; i++) {
		c.refs[i].event = p->stacks[i].event;
		c.refs[i].role = p->stacks[i].role;
		c.refs[i].ip = p->stacks[i].depth ? p->stacks[i].ips[0] : 0;
		c.refs[i].idx = i;
	}
	if (c.nrefs > 1)
		qsort(c.refs, c.nrefs, sizeof(*c.refs), cmp_leaf);
	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *sm = &p->samples[i];
		int r;

		if (!done && skid(p, sm) && sm->event < MODEL_MAX_EVENTS) {
			m->skid_samples[sm->event] += sm->count;
			m->skid_weight[sm->event] += sm->weight;
			continue;
		}
		r = done ? push(&c, &p->samples[i], p->samples[i].ip,
				    p->samples[i].count, p->samples[i].weight,
				    p->samples[i].context == PROFILE_CTX_IDLE) :
			place_sample(&c, m, &p->samples[i]);

		if (r) {
			free(c.refs);
			free(c.out);
			return -1;
		}
	}
	free(c.refs);
	m->samples = c.out;
	m->nsamples = c.n;
	return 0;
}
