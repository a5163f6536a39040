// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest's command line for record --kernel: the command's arguments
 * less what only the host acts on (left out by the command, which knows
 * its option table: commands/record-options.c), plus what the guest
 * needs (window marks in exact mode, serve's address with --net nic).
 */
#include "lab/lab.h"

#include <stdlib.h>

#include "lab/guest.h"

/* What the guest adds in exact mode: mark the window, sample nothing,
 * count on every vCPU (the plugin counts them all). */
static const char *const exact_args[] = {
	"--window-marks", "-a", "-e", "cpu-clock",
};

/* The client guest's responder (--net nic): serve in the other guest. */
static const char *const peer_args[] = {
	"--peer", LAB_NIC_RESPONDER, "--peer-key", LAB_GUEST_KEY,
};

char **lab_guest_args(char *const *args, size_t nargs, int exact, int peer,
		      int counting, size_t *n)
{
	size_t nextra = sizeof(exact_args) / sizeof(exact_args[0]), k;
	size_t npeer = sizeof(peer_args) / sizeof(peer_args[0]);
	char **out = calloc(nargs + nextra + npeer + 2, sizeof(*out));

	*n = 0;
	if (!out)
		return NULL;
	for (k = 0; k < nargs; k++)
		out[(*n)++] = args[k];
	for (k = 0; exact && k < nextra; k++)
		out[(*n)++] = (char *)exact_args[k];
	if (counting && !exact)
		out[(*n)++] = (char *)exact_args[0];  /* stat: count only */
	for (k = 0; peer && k < npeer; k++)
		out[(*n)++] = (char *)peer_args[k];
	return out;
}
