// SPDX-License-Identifier: GPL-2.0-only
/* The plan of a run: which CPUs are sampled, with which events. */
#include "record/plan.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "system/sysinfo.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int choose_cpus(struct record_plan *plan, const struct cpu_request *rq,
		       struct record_workload *w)
{
	int online[MAX_CPUS], nonline = sysinfo_online_cpus(online, MAX_CPUS), i;
	char text[256];

	if (nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	if (rq->all) {
		memcpy(plan->cpus, online, sizeof(int) * (size_t)nonline);
		plan->ncpus = nonline;
	} else if (rq->n) {
		for (i = 0; i < rq->n; i++)
			if (!cpu_list_has(online, nonline, rq->list[i]))
				return error("CPU %d in --cpus is not online: the "
					     "online CPUs are %s", rq->list[i],
					     sysinfo_online_text(text, sizeof(text)));
		memcpy(plan->cpus, rq->list, sizeof(int) * (size_t)rq->n);
		plan->ncpus = rq->n;
	} else {
		int mine[MAX_CPUS], n = w->ops->cpus(w, mine, MAX_CPUS);

		if (n < 0)
			return -1;
		plan->ncpus = 0;
		for (i = 0; i < n; i++)
			if (cpu_list_has(online, nonline, mine[i]) &&
			    !cpu_list_has(plan->cpus, plan->ncpus, mine[i]))
				plan->cpus[plan->ncpus++] = mine[i];
		if (!plan->ncpus)
			return error("the workload may run on no online CPU: give -C");
	}
	qsort(plan->cpus, (size_t)plan->ncpus, sizeof(int), cmp_int);
	return 0;
}

int record_plan_make(struct record_plan *plan, const struct cpu_request *cpus,
		     const struct sampling_request *smp,
		     struct record_workload *w, struct profile *p)
{
	plan->sampling = smp;
	plan->nev = 0;
	if (choose_cpus(plan, cpus, w))
		return -1;
	return record_choose_events(smp, plan->cpus[0], plan->evs, &plan->nev, p);
}

int record_plan_open(const struct record_plan *plan, struct sampler **s)
{
	struct sampler_config cfg = {
		.events = plan->evs, .nevents = plan->nev,
		.cpus = plan->cpus, .ncpus = plan->ncpus,
		.ring_pages = record_ring_pages(plan->sampling->ring_pages,
						plan->ncpus),
		.callchain = record_callchain_depth(plan->sampling, plan->evs,
						    plan->nev),
	};
	struct sampler_failure why;

	if (sampler_open(s, &cfg, &why))
		return error("%s", why.msg);
	return 0;
}
