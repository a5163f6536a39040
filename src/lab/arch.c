// SPDX-License-Identifier: GPL-2.0-only
#include "lab/arch.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

static const char *const x86_machine[] = {
	/* KVM is chosen separately (lab/qemu.c); -cpu max runs both */
	"-cpu", "max", NULL,
};
static const char *const x86_libdirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
	"/usr/lib64", "/lib", "/usr/lib", NULL,
};

static const struct lab_arch arches[] = {
	{
		.name = "x86_64",
		.elf_machine = EM_X86_64,
		.qemu = "qemu-system-x86_64",
		.qemu_deb = "qemu-system-x86",
		.machine = x86_machine,
		.console = "ttyS0",
		.data_port = "ttyS1",
		.libdirs = x86_libdirs,
		.busybox = "/bin/busybox",
		.ip = "/usr/bin/ip",
	},
};

const struct lab_arch *lab_arch_by_machine(int machine)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].elf_machine == machine)
			return &arches[i];
	return NULL;
}

int lab_arch_of_file(const char *path, const struct lab_arch **out)
{
	GElf_Ehdr eh;
	Elf *e = NULL;
	int fd, ret = -1;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh)) {
		error("'%s' is not an ELF file: %s", path, elf_errmsg(-1));
		goto out;
	}
	*out = lab_arch_by_machine(eh.e_machine);
	if (!*out) {
		error("'%s' is for ELF machine %d: perpkt has no QEMU guest for it",
		      path, eh.e_machine);
		goto out;
	}
	ret = 0;
out:
	elf_end(e);
	close(fd);
	return ret;
}
