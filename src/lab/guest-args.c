// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest's command line for record --kernel: perpkt's own argv less
 * what only the host acts on, plus what the guest needs (window marks in
 * exact mode, serve's address with --net nic).
 */
#include "lab/lab.h"

#include <stdlib.h>
#include <string.h>

#include "lab/guest.h"

/* Host-only options and whether each takes a value. In exact mode the
 * host boots once per window: -r is the host's too. */
static int host_option(const char *a, int exact, int *takes_value)
{
	static const char *const with_value[] = {
		"--kernel", "--vmlinux", "--qemu-arg", "--guest-perpkt",
		"--qemu-timeout", "--append", "--modules", "--config",
		"--guest-cpus", "--peer-kernel", "--accel", "--format", "--confidence",
		"--output", "-o", "--repeat", "-r",
	};
	size_t i, n, nwith = sizeof(with_value) / sizeof(with_value[0]);

	if (!exact)
		nwith -= 2;
	if (exact && !strcmp(a, "--exact")) {
		*takes_value = 0;
		return 1;
	}
	for (i = 0; i < nwith; i++) {
		n = strlen(with_value[i]);
		if (strncmp(a, with_value[i], n))
			continue;
		if (!a[n]) {
			*takes_value = 1;
			return 1;
		}
		/* --kernel=IMAGE, -oFILE */
		if (a[n] == '=' || n == 2) {
			*takes_value = 0;
			return 1;
		}
	}
	return 0;
}

/* What the guest adds in exact mode: mark the window, sample nothing,
 * count on every vCPU (the plugin counts them all). */
static const char *const exact_args[] = {
	"--window-marks", "-a", "-e", "cpu-clock",
};

/* The client guest's responder (--net nic): serve in the other guest. */
static const char *const peer_args[] = {
	"--peer", LAB_NIC_RESPONDER, "--peer-key", LAB_GUEST_KEY,
};

char **lab_guest_args(int argc, char **argv, int exact, int peer, int counting,
		      size_t *n)
{
	size_t nextra = sizeof(exact_args) / sizeof(exact_args[0]), k;
	size_t npeer = sizeof(peer_args) / sizeof(peer_args[0]);
	char **out = calloc((size_t)argc + nextra + npeer + 2, sizeof(*out));
	int i, value, rest = 0;

	*n = 0;
	if (!out)
		return NULL;
	for (i = 1; i < argc; i++) {
		if (!rest && !strcmp(argv[i], "--")) {
			rest = 1;
		} else if (!rest && host_option(argv[i], exact, &value)) {
			i += value;
			continue;
		} else if (!rest && !strncmp(argv[i], "--net=nic", 9)) {
			continue;  /* the host's: the guest has the NIC */
		} else if (!rest && !strcmp(argv[i], "--net") && i + 1 < argc &&
			   !strncmp(argv[i + 1], "nic", 3)) {
			i++;
			continue;
		} else if (!rest && peer && (!strcmp(argv[i], "--rps-cpus") ||
					     !strcmp(argv[i], "--irq-cpu"))) {
			i++;  /* the responder guest's, on its NIC */
			continue;
		} else if (!rest && peer && (!strncmp(argv[i], "--rps-cpus=", 11) ||
					     !strncmp(argv[i], "--irq-cpu=", 10))) {
			continue;
		}
		out[(*n)++] = argv[i];
	}
	for (k = 0; exact && k < nextra; k++)
		out[(*n)++] = (char *)exact_args[k];
	if (counting && !exact)
		out[(*n)++] = (char *)exact_args[0];  /* stat: count only */
	for (k = 0; peer && k < npeer; k++)
		out[(*n)++] = (char *)peer_args[k];
	return out;
}
