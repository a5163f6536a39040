// SPDX-License-Identifier: GPL-2.0-only
#include "workload/cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "error.h"

/* 1 online, 0 offline, -1 unknown (cpu0 often has no 'online' file). */
static int cpu_online(int cpu)
{
	char path[64], c;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, &c, 1);
	close(fd);
	if (n != 1)
		return -1;
	return c == '1';
}

int cpu_check_usable(int cpu)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t *set;
	size_t size;
	int allowed;

	if (cpu < 0 || (ncpus > 0 && cpu >= ncpus))
		return error("cpu %d does not exist: this machine has cpus 0-%ld",
			     cpu, ncpus - 1);
	if (cpu_online(cpu) == 0)
		return error("cpu %d is offline: bring it online or choose another",
			     cpu);

	set = CPU_ALLOC(cpu + 1 > ncpus ? cpu + 1 : ncpus);
	if (!set)
		return error("cannot check cpu %d: out of memory", cpu);
	size = CPU_ALLOC_SIZE(cpu + 1 > ncpus ? cpu + 1 : ncpus);
	CPU_ZERO_S(size, set);
	if (sched_getaffinity(0, size, set) < 0) {
		int err = errno;

		CPU_FREE(set);
		errno = err;
		return error("cannot read this process's cpu affinity: %m");
	}
	allowed = CPU_ISSET_S(cpu, size, set);
	CPU_FREE(set);
	if (!allowed)
		return error("cpu %d is not allowed for this process: widen its "
			     "affinity (taskset, cgroup cpuset) or choose another",
			     cpu);
	return 0;
}

int cpu_pin_self(int cpu)
{
	/* a fixed-size set on the stack: no malloc after fork */
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	return 0;
}
