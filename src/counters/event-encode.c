// SPDX-License-Identifier: GPL-2.0-only
#include "counters/event-encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

#include "error.h"

static int pfm_ready(void)
{
	static int done, status;  /* libpfm4 itself is process-global */
	int ret;

	if (done)
		return status;
	done = 1;
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS)
		status = error("cannot initialize libpfm4: %s", pfm_strerror(ret));
	return status;
}

static const char *unit_for(const char *fstr, uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_SOFTWARE &&
	    (config == PERF_COUNT_SW_CPU_CLOCK || config == PERF_COUNT_SW_TASK_CLOCK))
		return "ns";
	if (type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_CPU_CYCLES)
		return "cycles";
	if (type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_INSTRUCTIONS)
		return "instructions";
	if (strcasestr(fstr, "UNHALTED") || strcasestr(fstr, "cycles"))
		return "cycles";
	if (strcasestr(fstr, "INST_RETIRED") || strcasestr(fstr, "instructions"))
		return "instructions";
	return "events";
}

int event_encode(const char *name, int include_user, uint64_t period,
		 struct event_spec *ev)
{
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t info;
	pfm_pmu_info_t pinfo;
	char *fstr = NULL;
	int plm = PFM_PLM0 | (include_user ? PFM_PLM3 : 0);
	int ret;

	if (pfm_ready())
		return -1;
	memset(ev, 0, sizeof(*ev));
	memset(&arg, 0, sizeof(arg));
	ev->attr.size = sizeof(ev->attr);  /* before encoding: libpfm4 checks it */
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS)
		return error("cannot encode event '%s': %s (expected a libpfm4 event name such as 'cycles' or 'instructions')",
			     name, pfm_strerror(ret));

	snprintf(ev->requested, sizeof(ev->requested), "%s", name);
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->fstr, sizeof(ev->fstr), "%s", fstr ? fstr : name);
	free(fstr);

	memset(&info, 0, sizeof(info));
	memset(&pinfo, 0, sizeof(pinfo));
	info.size = sizeof(info);
	pinfo.size = sizeof(pinfo);
	if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &info) == PFM_SUCCESS &&
	    pfm_get_pmu_info(info.pmu, &pinfo) == PFM_SUCCESS)
		snprintf(ev->pmu, sizeof(ev->pmu), "%s", pinfo.name);
	else
		snprintf(ev->pmu, sizeof(ev->pmu), "unknown");

	ev->software_clock = ev->attr.type == PERF_TYPE_SOFTWARE &&
			     ev->attr.config == PERF_COUNT_SW_CPU_CLOCK;
	snprintf(ev->unit, sizeof(ev->unit), "%s",
		 unit_for(ev->fstr, ev->attr.type, ev->attr.config));
	ev->period = period ? period :
		     ev->software_clock ? DEFAULT_CLOCK_PERIOD_NS : DEFAULT_HW_PERIOD;
	/* privilege bits stay as libpfm4 set them: the plm default, or the
	 * name's own :u=/:k= modifiers, which take precedence */
	return 0;
}

void event_cpu_clock(struct event_spec *ev, const char *requested,
		     int include_user, uint64_t period_ns)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	ev->attr.exclude_user = !include_user;
	ev->attr.exclude_hv = 1;
	snprintf(ev->name, sizeof(ev->name), "cpu-clock");
	snprintf(ev->requested, sizeof(ev->requested), "%s", requested);
	snprintf(ev->fstr, sizeof(ev->fstr), "perf::cpu-clock");
	snprintf(ev->pmu, sizeof(ev->pmu), "perf");
	snprintf(ev->unit, sizeof(ev->unit), "ns");
	ev->period = period_ns ? period_ns : DEFAULT_CLOCK_PERIOD_NS;
	ev->software_clock = 1;
}

void event_software_counter(struct event_spec *ev, const char *name,
			    uint64_t config)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = config;
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->requested, sizeof(ev->requested), "%s", name);
	snprintf(ev->fstr, sizeof(ev->fstr), "perf::%s", name);
	snprintf(ev->pmu, sizeof(ev->pmu), "perf");
	snprintf(ev->unit, sizeof(ev->unit), "events");
	ev->count_only = 1;
	ev->companion = 1;
}
